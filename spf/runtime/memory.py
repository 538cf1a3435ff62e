"""Allocating arrays whose sizes come from users' numbers (shapes, layout parameters).

``np.zeros`` of a size computed from a shape such as ``(10**7, 10**7)`` or a layout
such as ``BCSR(R=10**12, C=1)`` either fails with a bare MemoryError or, with the
operating system's overcommit, succeeds and brings the machine down when the array
is touched.  :func:`allocate` refuses, before anything is allocated, any array larger
than the machine's physical memory, with an SpfError naming what was being allocated,
its shape and its size.
"""

from __future__ import annotations

import functools
import os
from math import prod
from typing import Sequence

import numpy as np
import numpy.typing as npt

from spf.errors import OutOfMemoryError, SpfError, SpfInternalError


@functools.lru_cache(maxsize=1)
def physical_memory() -> int | None:
    """Bytes of physical memory, or None when the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def describe(size: int) -> str:
    """``size`` bytes for people: ``21.8 TiB``."""
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if value < 1024 or unit == "EiB":
            return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    raise SpfInternalError(f"describe({size}) fell through its units")


def require(shape: Sequence[int], dtype: npt.DTypeLike, what: str) -> None:
    """Refuse an array of ``shape`` and ``dtype`` that cannot fit in memory (see :func:`allocate`)."""
    extents = [int(extent) for extent in shape]
    negative = [extent for extent in extents if extent < 0]
    if negative:
        raise SpfError(f"{what}: negative extent {negative[0]} in the shape {tuple(extents)}")
    size = prod(extents) * np.dtype(dtype).itemsize
    available = physical_memory()
    if available is not None and size > available:
        raise OutOfMemoryError(f"{what} would need {describe(size)} (shape {tuple(extents)} of {np.dtype(dtype)}), "
                       f"more than this machine's {describe(available)} of memory")


def allocate(shape: Sequence[int], dtype: npt.DTypeLike, what: str, fill: int | float | bool = 0) -> np.ndarray:
    """``np.full(shape, fill, dtype)`` after :func:`require`; an allocation that still fails
    is an SpfError too."""
    require(shape, dtype, what)
    extents = tuple(int(extent) for extent in shape)
    try:
        if fill == 0:
            return np.zeros(extents, dtype=dtype)
        return np.full(extents, fill, dtype=dtype)
    except MemoryError:
        size = prod(extents) * np.dtype(dtype).itemsize
        raise OutOfMemoryError(f"{what}: cannot allocate {describe(size)} (shape {extents} of "
                       f"{np.dtype(dtype)})") from None


@functools.lru_cache(maxsize=1)
def _malloc_trim():
    try:
        import ctypes
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


def give_back() -> None:
    """Hand the pages of freed heap memory back to the system (glibc's ``malloc_trim``;
    nothing elsewhere).  Many mid-sized arrays freed in turn (a tensor's entries sent away
    round by round) otherwise stay resident as holes in the heap, which later
    allocations of other sizes do not fill."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
