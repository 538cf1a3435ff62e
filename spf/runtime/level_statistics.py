"""Per-level statistics of sparse operands: how many distinct stored prefixes each storage
level has (a CSR matrix: its nonempty rows, then its entries; CSF3: the distinct i, (i, j)
and (i, j, k) of its entries).

The autoscheduler's run-time choice prices the loop over level d of a sparse operand by
the count of level d over the count of level d - 1
(:func:`spf.scheduling.autoscheduler.cost.count_symbols`), so every ``select`` needs these
counts.  Listing and sorting every entry to count them costs seconds on millions of
entries; here they come from the structure instead:

* a packed tensor (:func:`level_statistics`, kept by :meth:`Tensor.level_statistics`):
  the layout's relation is read level by level (:mod:`spf.space.levels`), as the
  enumeration of stored entries does, but the last level is only *counted*: when every
  position of it is an entry (no padding, no guard), a prefix of the level above has
  entries exactly when its range there is not empty.  A CSR matrix costs O(rows), a
  CSF3 O(fibres), whatever the layout file; padded or guarded layouts list the last
  level to see which positions hold entries.  The counts then run up the levels: a
  prefix has entries when one of its extensions has.
* scipy matrices (:func:`scipy_prefix_counts`): from ``indptr`` and ``indices`` (nonempty
  rows by ``np.diff``, nonempty columns by ``np.bincount``), sorting only coordinates that
  may repeat;
* coordinate lists (:func:`coordinate_prefix_counts`): one sort of a mixed-radix key;
* dense arrays (:func:`dense_prefix_counts`): their nonzeros, reduced axis by axis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from spf.errors import UNNAMED, UnboundNameError
from spf.runtime.stored_entries import StoredArrays, descend, level_span, read_positions, unreadable_relation
from spf.space.levels import read_levels

if TYPE_CHECKING:
    from scipy import sparse

    from spf.layout_library.model import Layout


@dataclass(frozen=True)
class LevelStatistics:
    """``counts[d]``: the distinct prefixes ``(p0, ..., pd)`` of the stored entries'
    positions at the layout's physical indices ``levels``; ``entries``: the stored
    entries (what :meth:`Tensor.to_coo` lists), ``counts[-1]`` when there are levels.

    For a layout with one coordinate per level (CSR, CSF3, ...) and no coordinate stored
    twice, ``counts[d]`` is the number of distinct coordinate prefixes of the entries
    taken in storage order: what ``np.unique`` counts on them."""

    levels: tuple[str, ...]
    counts: tuple[int, ...]
    entries: int


def level_statistics(layout: Layout, fields: Mapping[str, object], shape: Sequence[int],
                     name: str = UNNAMED) -> LevelStatistics:
    """The distinct stored prefixes of each storage level of a packed tensor (a Tensor's
    valid fields), read off its index arrays; an entry is a stored position inside the
    shape that the relation's guards keep and, in a padded layout, whose value is not 0."""
    try:
        return _level_statistics(layout, fields, shape, name)
    except UnboundNameError as error:
        raise unreadable_relation(layout, error, name) from None


def _level_statistics(layout, fields: Mapping[str, object], shape: Sequence[int], name: str) -> LevelStatistics:
    reading = read_levels(layout)
    levels = reading.levels
    scalars = {k: v for k, v in fields.items() if not isinstance(v, np.ndarray)}
    arrays = StoredArrays(fields, name)
    # the last level's positions are all entries: count them, do not list them
    counted = bool(levels) and not layout.padded and not reading.guards
    listed = levels[:-1] if counted else levels
    env: dict[str, np.ndarray] = {}
    rows = 1
    parents: list[np.ndarray] = []  # parents[d][t]: the prefix at level d - 1 of prefix t at level d
    sizes: list[int] = []  # prefixes listed at each level
    for level in listed:
        low, widths = level_span(level, env, scalars, arrays, rows)
        parents.append(np.repeat(np.arange(rows), widths))
        rows = descend(env, level.index, low, widths, name)
        sizes.append(rows)
    if counted:
        _, widths = level_span(levels[-1], env, scalars, arrays, rows)
        entries = int(widths.sum())
        has_entries = widths > 0  # over the prefixes of the level above the last
        depth = len(levels) - 2
    else:
        coords, values, keep = read_positions(layout, reading, env, scalars, arrays, rows, name)
        extents = np.asarray(tuple(shape), dtype=coords.dtype)
        has_entries = keep & np.all((coords >= 0) & (coords < extents), axis=1)
        if layout.padded:
            has_entries &= values != 0
        entries = int(np.count_nonzero(has_entries))
        depth = len(levels) - 1
    counts = [0] * len(levels)
    if counted:
        counts[-1] = entries
    while depth >= 0:
        counts[depth] = int(np.count_nonzero(has_entries))
        if depth > 0:
            has_entries = np.bincount(parents[depth][has_entries], minlength=sizes[depth - 1]) > 0
        depth -= 1
    return LevelStatistics(tuple(level.index for level in levels), tuple(counts), entries)


def coordinate_prefix_counts(columns: Sequence[np.ndarray], extents: Sequence[int]) -> tuple[int, ...]:
    """``counts[d]``: the distinct rows of ``columns[:d + 1]`` (coordinates of equal length,
    repeats allowed), by one sort of a mixed-radix key when the coordinates lie in
    ``[0, extent)`` and the key fits 63 bits, else one lexicographic sort."""
    columns = [np.asarray(column).reshape(-1) for column in columns]
    size = len(columns[0]) if columns else 0
    if size == 0:
        return (0,) * len(columns)
    extents = [int(extent) for extent in extents]
    inside = all(int(column.min()) >= 0 and int(column.max()) < extent for column, extent in zip(columns, extents))
    if inside and int(np.prod(extents, dtype=object)) < 2 ** 63:
        key = np.zeros(size, dtype=np.int64)
        for column, extent in zip(columns, extents):
            key *= extent
            key += column
        key.sort()
        counts = []
        stride = int(np.prod(extents, dtype=object))
        for extent in extents:
            stride //= extent
            prefix = key // stride if stride > 1 else key
            counts.append(1 + int(np.count_nonzero(prefix[1:] != prefix[:-1])))
        return tuple(counts)
    order = np.lexsort(columns[::-1])
    changed = np.zeros(size - 1, dtype=bool)
    counts = []
    for column in columns:
        ordered = column[order]
        changed |= ordered[1:] != ordered[:-1]
        counts.append(1 + int(np.count_nonzero(changed)))
    return tuple(counts)


def scipy_prefix_counts(matrix: sparse.spmatrix | sparse.sparray, axes: Sequence[int]) -> tuple[int, ...]:
    """The distinct prefixes of a scipy matrix's stored entries (explicit zeros and repeated
    coordinates included, as ``tocoo()`` lists them) taken in the order of ``axes``.

    CSR and CSC read their nonempty rows or columns from ``indptr`` (``np.diff``) or
    ``indices`` (``np.bincount``), and count every entry as a distinct pair when scipy
    knows there are no repeats; other formats go through their coordinates."""
    axes = tuple(axes)
    if matrix.format in ("csr", "csc") and len(axes) == 2:
        major = 0 if matrix.format == "csr" else 1
        first = np.count_nonzero(np.diff(matrix.indptr)) if axes[0] == major \
            else np.count_nonzero(np.bincount(matrix.indices, minlength=matrix.shape[1 - major]))
        if matrix.has_canonical_format:  # sorted, no repeats: every entry is a distinct pair
            return (int(first), int(matrix.nnz))
    coo = matrix.tocoo()
    coords = coo.coords if hasattr(coo, "coords") else (coo.row, coo.col)
    if len(axes) == 2 and coo.has_canonical_format:
        first = np.count_nonzero(np.bincount(coords[axes[0]], minlength=coo.shape[axes[0]]))
        return (int(first), int(coo.nnz))
    return coordinate_prefix_counts([coords[axis] for axis in axes], [coo.shape[axis] for axis in axes])


def dense_prefix_counts(array: np.ndarray, axes: Sequence[int]) -> tuple[int, ...]:
    """The distinct prefixes, in the order of ``axes``, of a dense array's nonzeros (its
    stored entries as ``np.argwhere(array != 0)`` lists them)."""
    present = np.transpose(np.asarray(array) != 0, tuple(axes))
    counts = [int(np.count_nonzero(present))]
    for _ in range(len(axes) - 1):
        present = present.any(axis=-1)
        counts.append(int(np.count_nonzero(present)))
    return tuple(reversed(counts))
