"""Read-only arrays: the views a Tensor keeps of its arrays (frozen for good, up to the
memory's owner), and memory a kernel handed over, which numpy can never make writable.
"""

from __future__ import annotations

import numpy as np


def handed_over(array: np.ndarray) -> bool:
    """Whether ``array`` is numpy over memory a kernel handed over, declared read-only: numpy
    refuses to make it or any view of it writable, and only the kernel's owner frees it."""
    return not array.flags.writeable and \
        bool(getattr(array.base, "__array_interface__", {}).get("data", (0, False))[1])


def read_only(array: np.ndarray, freeze_memory: bool = True) -> np.ndarray:
    """A read-only view of ``array``.  With ``freeze_memory``, ``array`` and every array it is
    a view of, up to the one that owns the memory, are made read-only too: the view's flag
    cannot be set back (numpy refuses to make a view writable when its base is not), and
    whoever holds ``array`` (a scipy matrix whose arrays :func:`pack` shares) cannot write
    through it (numpy checks only the written array's own flag)."""
    if handed_over(array):
        return array  # no view can be made writable
    view = array.view()
    if freeze_memory:
        link = array
        while isinstance(link, np.ndarray):
            link.flags.writeable = False
            link = link.base
    view.flags.writeable = False
    return view


def frozen(array: np.ndarray) -> bool:
    """Whether nobody can write ``array``'s memory through numpy: it and every array it is a
    view of, up to the one owning the memory, are read-only (or a kernel handed it over)."""
    if handed_over(array):
        return True
    link = array
    while isinstance(link, np.ndarray):
        if link.flags.writeable:
            return False
        link = link.base
    return link is None
