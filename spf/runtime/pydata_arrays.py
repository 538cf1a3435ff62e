"""pydata ``sparse`` arrays, read through their attributes so that package is not a
dependency of spf.

An array of that package (its class defined in the module ``sparse`` or below it) is
read as ``(coords[order, nnz], values, shape)``: a COO array by its ``coords``, ``data``
and ``shape``; a DOK array by its ``data`` (a dict from coordinate tuples to values)
and ``shape``; any other format (GCXS, ...) through the package's own ``tocoo()`` or
``to_coo()``.  Numpy cannot read them (they refuse to become dense arrays implicitly).
An array whose ``fill_value`` is not zero is refused: its unstored entries hold that
value, where a layout's hold zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from spf.errors import PackError, UNNAMED


def is_pydata(data: Any) -> bool:
    """Whether ``data`` is an array of pydata's ``sparse`` package."""
    return (type(data).__module__ or "").split(".")[0] == "sparse" and hasattr(data, "shape")


def coordinates(data: Any, name: str = UNNAMED) -> tuple[np.ndarray, np.ndarray, tuple]:
    """``(coords[order, nnz], values, shape)`` of a pydata array (:func:`is_pydata`)."""
    fill = getattr(data, "fill_value", 0)
    try:
        nonzero_fill = bool(np.any(np.asarray(fill) != 0))
    except (TypeError, ValueError):
        nonzero_fill = True
    if nonzero_fill:
        raise PackError(f"tensor {name}: a pydata sparse {type(data).__name__} with fill value {fill} holds "
                        "that value wherever it stores nothing, and a layout holds zero there: give an array "
                        "whose fill_value is 0")
    shape = tuple(data.shape)
    if hasattr(data, "coords"):
        return np.asarray(data.coords), np.asarray(data.data), shape
    if isinstance(getattr(data, "data", None), Mapping):
        entries = data.data
        coords = np.array(list(entries.keys()), dtype=np.int64).reshape(len(entries), len(shape)).T
        return coords, np.array(list(entries.values())), shape
    for method in ("tocoo", "to_coo"):
        if callable(getattr(data, method, None)):
            converted = getattr(data, method)()
            if not hasattr(converted, "coords"):
                break
            return coordinates(converted, name)
    raise PackError(f"tensor {name}: cannot read a pydata sparse {type(data).__name__}: it has no coords, no dict "
                    "of entries and no tocoo(); convert it to COO (A.asformat('coo'))")
