"""A rank's block packed as consecutive pieces of its outer range, joined into one Tensor.

Packing a block whole holds its entries, the assembly's sort keys and the packed arrays
at once (several times the packed size).  Packed piece by piece (each piece a sub-range
of the split mode, itself the same layout over that sub-range) only one piece's entries
and temporaries live beside the joined arrays, which are allocated once at an upper
bound (their untouched tail is never resident) and filled in place.

How the pieces' arrays join is read off the layout file: an array's first dimension
must add up over the pieces (a count the packing sets, ``nnz``, or a scalar of the split
mode's extent, ``numRows``), with ``+ 1`` for a pointer array whose pieces each start
at 0 (their first elements overlap); its other dimensions must not change. Its values
are shifted by what the pieces before it hold of the quantity its ``range`` property
bounds it by: pointers by the earlier pieces' counts (``range(rowPtr, 0, nnz + 1)``),
coordinates of the split mode by the earlier pieces' extents (``range(idx0, 0, n0)``);
arrays ranging over anything else (another mode's coordinates) are copied as they are.
A layout that fits none of this (ELL's width: the longest row, which does not add up)
is packed whole, as is one whose outer level runs in decreasing order (SV_DEC).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING

import numpy as np

from spf.errors import SpfInternalError
from spf.runtime.memory import require
from spf.runtime.tensor import Tensor
from spf.space.expressions import Affine

if TYPE_CHECKING:
    from spf.layout_library.model import Layout


@dataclass(frozen=True)
class _Array:
    name: str
    first: Affine  # the first dimension
    overlap: int  # 1: a pointer array whose pieces' first elements (0) overlap
    rest: tuple  # the other dimensions' expressions
    shift: Affine | None  # the expression whose earlier pieces' sum shifts the values, or None


class Joiner:
    """Joins pieces of ``layout`` along ``mode`` into one Tensor over the block's range."""

    def __init__(self, layout: Layout, mode: int, plan: list[_Array], counts: set[str]):
        self.layout, self.mode, self.plan, self.counts = layout, mode, plan, counts

    @classmethod
    def of(cls, layout: Layout, mode: int, shape: tuple[int, ...], granule: int) -> "Joiner | None":
        """The joiner of ``layout`` split along ``mode`` (global ``shape``), or None when its
        arrays do not join piecewise (the block is then packed whole)."""
        if any(spec.kind == "monotonic" and not spec.increasing for spec in layout.properties):
            return None  # the outer level may run downwards (SV_DEC): the pieces would join in reverse
        counts = {field.name for field in layout.counts}
        split = _split_scalars(layout, mode, shape, granule)
        ranged = {spec.arrays[0]: spec.high for spec in layout.properties if spec.kind == "range"}
        plan = []
        for field in layout.arrays:
            if not field.dimensions:
                return None
            try:
                first = field.dimensions[0].to_affine()
            except Exception:  # a dimension that is no affine expression
                return None
            names = {atom for atom, _ in first.terms}
            if not names or not names <= counts | split or any(c != 1 for _, c in first.terms) \
                    or first.constant not in (0, 1):
                return None
            rest = tuple(field.dimensions[1:])
            if any(set(d.names()) & (counts | split) for d in rest):
                return None
            shift = None
            if field.numpy_dtype.kind in "iu":
                high = ranged.get(field.name)
                if high is None:
                    return None
                bounding = {atom for atom, _ in high.terms}
                if bounding & (counts | split):
                    if not (bounding <= counts or bounding <= split) or any(c != 1 for _, c in high.terms) \
                            or any(not isinstance(atom, str) for atom in bounding):
                        return None
                    shift = Affine(terms=high.terms, constant=0)
            if first.constant and shift is None:
                return None  # overlapping pieces, but no pointer starting at 0
            plan.append(_Array(field.name, first, first.constant, rest, shift))
        return cls(layout, mode, plan, counts)

    def join(self, pieces: list[Tensor], shape: tuple[int, ...], capacity: int, name: str) -> Tensor:
        """One Tensor of ``shape`` from ``pieces`` (consumed: the list is emptied as they are
        copied, so each piece is freed once joined); ``capacity``: an upper bound on every
        count (the block's entries)."""
        return self.start(shape, capacity).finish_with(pieces, name)

    def start(self, shape: tuple[int, ...], capacity: int) -> "_Joining":
        return _Joining(self, tuple(shape), capacity)


class _Joining:
    """The joined arrays being filled, piece after piece (:meth:`add`)."""

    def __init__(self, joiner: Joiner, shape: tuple[int, ...], capacity: int):
        self.joiner, self.shape = joiner, shape
        layout = joiner.layout
        self.scalars = dict(layout.compute_scalars(shape))
        bound = {**self.scalars, **{c: max(capacity, 1) for c in joiner.counts}}
        self.buffers, self.used, self.totals = {}, {}, {c: 0 for c in joiner.counts}
        self.shifts = {}
        for array in joiner.plan:
            rows = _value(array.first, bound)
            width = prod(int(d.evaluate(self.scalars)) for d in array.rest)
            dtype = layout.field(array.name).numpy_dtype
            require((max(rows, 1) * width,), dtype, f"joining the pieces of a block: array {array.name}")
            self.buffers[array.name] = (np.empty(max(rows, 1) * width, dtype=dtype), width)
            self.used[array.name] = 0
            self.shifts[array.name] = 0
        self.pieces = 0

    def add(self, piece: Tensor) -> None:
        """Copy ``piece`` (the next sub-range, re-based to 0) after the pieces before it."""
        fields = piece.fields
        for array in self.joiner.plan:
            buffer, width = self.buffers[array.name]
            values = np.asarray(fields[array.name]).reshape(-1)
            skip = array.overlap * width if self.pieces else 0
            if skip and values[0] != 0:
                raise SpfInternalError(f"joining {array.name}: a piece's pointers start at {values[0]}, not 0")
            values = values[skip:]
            at = self.used[array.name]
            target = buffer[at:at + len(values)]
            if len(target) != len(values):
                raise SpfInternalError(f"joining {array.name}: capacity exceeded")  # a count above the entries
            if array.shift is not None and self.shifts[array.name]:
                np.add(values, self.shifts[array.name], out=target, casting="unsafe")
            else:
                target[...] = values
            self.used[array.name] = at + len(values)
        scalars = {key: value for key, value in fields.items() if not isinstance(value, np.ndarray)}
        for array in self.joiner.plan:
            if array.shift is not None:
                self.shifts[array.name] += _value(array.shift, scalars)
        for count in self.joiner.counts:
            self.totals[count] += int(scalars[count])
        self.pieces += 1

    def finish_with(self, pieces: list[Tensor], name: str) -> Tensor:
        while pieces:
            self.add(pieces.pop(0))
        return self.finish(name)

    def finish(self, name: str) -> Tensor:
        scalars = {**self.scalars, **self.totals}
        fields: dict[str, object] = dict(scalars)
        for array in self.joiner.plan:
            buffer, width = self.buffers[array.name]
            rows = _value(array.first, scalars)
            if self.used[array.name] != rows * width:
                raise SpfInternalError(f"joining {array.name}: {self.used[array.name]} elements, expected "
                                       f"{rows * width}")
            dimensions = [rows] + [int(d.evaluate(scalars)) for d in array.rest]
            fields[array.name] = buffer[:rows * width].reshape(dimensions)
        layout_fields = {field.name for field in self.joiner.layout.fields}
        return Tensor._from_checked(self.joiner.layout, self.shape,
                                    {k: v for k, v in fields.items() if k in layout_fields}, name)


def _split_scalars(layout, mode: int, shape: tuple[int, ...], granule: int) -> set[str]:
    """The shape scalars that change with the extent of ``mode`` (numRows, numBlockRows)."""
    def scalars(extent: int) -> dict:
        return dict(layout.compute_scalars(tuple(extent if m == mode else s for m, s in enumerate(shape))))
    one, other = scalars(7 * granule), scalars(11 * granule)
    return {name for name, value in one.items() if other.get(name) != value}


def _value(expression: Affine, scalars: dict) -> int:
    return int(expression.constant + sum(c * int(scalars[atom]) for atom, c in expression.terms))
