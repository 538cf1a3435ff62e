"""Inputs copied in another mode order, as a kernel of an autoscheduled candidate with mode
orders (spf.scheduling.autoscheduler.mode_orders) reads them.

The user passes each tensor as stored; the kernel's C function reads the copy whose axis
``t`` is the given tensor's axis ``permutation[t]``.  The copy is made when the kernel is
called (each call) or bound (once for every call of the bound kernel): a coordinate list
with its columns permuted, which the bind then packs into the operand's layout.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from spf.errors import SpfError
from spf.runtime.tensor import Tensor
from spf.runtime.user_data import coordinates_of


def copied_in_order(value: Any, permutation: tuple[int, ...], name: str) -> tuple[np.ndarray, np.ndarray, tuple]:
    """``(coords, values, shape)`` of ``value`` (anything a kernel takes) with its axes permuted."""
    if isinstance(value, Tensor):
        coords, values, shape = value.to_coo()
    else:
        coords, values, shape = coordinates_of(value, name)
    if len(shape) != len(permutation):
        raise SpfError(f"tensor {name} has order {len(shape)}; the kernel reads it as order {len(permutation)} "
                       f"(a copy with its modes permuted {list(permutation)})")
    axes = list(permutation)
    return np.ascontiguousarray(coords[:, axes]), values, tuple(int(shape[a]) for a in axes)


def in_mode_orders(arguments: Mapping[str, Any], mode_orders: tuple) -> dict[str, Any]:
    """The kernel's arguments with each operand of ``mode_orders`` replaced by its copy."""
    copied = dict(arguments)
    for name, permutation in mode_orders:
        if name in copied:  # a missing input is reported by the kernel's own argument check
            copied[name] = copied_in_order(copied[name], permutation, name)
    return copied
