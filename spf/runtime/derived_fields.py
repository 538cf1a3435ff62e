"""Scalar fields a layout determines from what the user gave: the shape and the arrays'
lengths.  ``spf.pack("RCOO.layout", {"row": r, "col": c, "val": v}, shape=(2, 3))`` needs no
``numRows``, ``numCols`` or ``nnz``: the shape names the first two, and ``row: int[nnz]``
says the third is the array's length.  A field nothing determines stays missing, and the
checks (:mod:`spf.runtime.validation`) name it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from spf.errors import SpfError

if TYPE_CHECKING:
    from spf.layout_library.model import Layout


def derive_scalars(layout: Layout, fields: Mapping[str, object],
                   shape: Sequence[int] | None) -> Mapping[str, object]:
    """``fields`` with the missing scalar fields the shape and the array lengths determine:
    a field defined from the shape (``numRows = shape[0]``), one the layout's shape names
    (``shape numRows, numCols``), and one an array's declared extent gives (``int[nnz]``,
    ``int[numRows + 1]``).  Fields given are kept as they are (the checks compare them)."""
    missing = {f.name for f in layout.scalars if f.name not in fields}
    if not missing:
        return fields
    known = {name: value for name, value in fields.items() if _integer(value)}
    derived: dict[str, int] = {}

    def settle(name: str, value: int) -> bool:
        if name in missing and name not in derived and value >= 0:
            derived[name] = known[name] = value
            return True
        return False

    if shape is not None:
        try:
            for name, value in layout.compute_scalars(tuple(shape)).items():
                settle(name, int(value))
        except SpfError:
            pass  # the checks say which definition the shape does not fit
        for extent, size in zip(layout.shape, shape):
            affine = extent.to_affine()
            if affine is not None:
                _solve(affine, int(size), known, settle)
    progress = True
    while progress and missing - derived.keys():
        progress = False
        for declared in layout.arrays:
            lengths = _lengths(fields.get(declared.name), len(declared.dimensions))
            if lengths is None:
                continue
            for extent, length in zip(declared.dimensions, lengths):
                affine = extent.to_affine()
                if affine is not None and _solve(affine, length, known, settle):
                    progress = True
    return {**fields, **derived} if derived else fields


def _integer(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _lengths(value: object, dimensions: int) -> tuple[int, ...] | None:
    """An array field's extent per declared dimension, when the value shows them: its shape
    when it has one axis per dimension, its length for a one-dimensional field."""
    if value is None or _integer(value):
        return None
    try:
        shape = np.shape(value)
    except (TypeError, ValueError):
        return None  # the checks say what is wrong with it
    if len(shape) == dimensions:
        return tuple(int(extent) for extent in shape)
    return None


def _solve(affine, length: int, known: Mapping[str, object], settle) -> bool:
    """``settle`` the one unknown name of ``affine = length`` (its coefficient dividing exactly)."""
    unknown = [(atom, coefficient) for atom, coefficient in affine.terms if atom not in known]
    if len(unknown) != 1 or not isinstance(unknown[0][0], str):
        return False
    name, coefficient = unknown[0]
    rest = affine.constant + sum(coefficient * int(known[atom]) for atom, coefficient in affine.terms
                                 if atom != name)
    if (length - rest) % coefficient:
        return False
    return settle(name, (length - rest) // coefficient)
