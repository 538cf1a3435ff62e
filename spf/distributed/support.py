"""The rows of a summed output each rank's block reaches, and a sum that moves only those.

An output not indexed by the distributed index is a partial sum on every rank
(:mod:`spf.distributed.plan`).  MPI_Allreduce sums it whole, though a rank's block may
reach only some of its rows: a banded matrix split by columns reaches a band of rows on
each rank, so most of each rank's partial sum is zero.  Here each rank bounds the rows
its block reaches: the range of the output's first index over the block's stored
entries, read off the layout's definition of that coordinate (an index array's smallest
and largest values, a physical index's constant bounds).  The sum then takes two steps,
as PETSc sums ghosted rows:

1. each rank sends the part of its range that lies in another rank's block of rows to
   that rank (MPI_Alltoallv), which adds what it receives into its block;
2. with ``reduce="all"``, the summed blocks are gathered on every rank (MPI_Allgatherv);
   with ``reduce="scatter"`` each rank keeps its block.

The plan takes this :class:`RowSum` when, by the ring algorithms' counts, it makes the
largest sender send at most 3/4 of what the ring Allreduce (or Reduce_scatter) would,
and for any output of 1 MiB or more summed whole: where every rank reaches every row
it is then Rabenseifner's Allreduce, which measured faster here than MPI's own
(:data:`LARGE`; MPI_Reduce_scatter's was not measured against it, and is kept).
Smaller outputs whose blocks reach every row keep MPI_Allreduce (or Reduce_scatter).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np
from mpi4py import MPI
from mpi4py.util import dtlib

from spf.space.expressions import UFCall
from spf.space.levels import read_levels

from spf.distributed import collective
from spf.distributed.reduction import COMBINATIONS

if TYPE_CHECKING:
    from spf.notation.statements import Statement
    from spf.runtime.tensor import Tensor

DOUBLE = 8
WORTH = 0.75
"""The row sum is taken when its largest sender sends at most this share of the ring sum's bytes."""
LARGE = 1 << 20
"""From this many bytes of output on, the row sum is taken even when every rank reaches
every row: it is then Rabenseifner's Allreduce (a reduce-scatter, then an allgather),
which sends what the ring sends, and on this machine's Open MPI (5.0, shared memory)
runs faster than its MPI_Allreduce (2 ranks: 1 MB 0.18 against 0.80 ms, 8 MB 1.4
against 4.5 ms, 32 MB 11 against 18 ms; 4 ranks, 8 MB: 6.7 against 17 ms; at 128 kB
MPI_Allreduce wins, 0.04 against 0.07 ms)."""


def coordinate_range(tensor: Tensor, mode: int) -> tuple[int, int] | None:
    """``[low, high)`` holding the ``mode`` coordinate of every entry ``tensor`` stores
    (an empty range when it stores none), or None when the layout's definition of that
    coordinate has a part without such bounds (then any row may be reached)."""
    layout = tensor.layout
    read = read_levels(layout)
    definition = read.definitions.get(layout.logical[mode])
    if definition is None:
        return None
    levels = {level.index: level for level in read.levels}
    low = high = definition.constant
    for atom, coefficient in definition.terms:
        bounds = _atom_range(atom, tensor, levels)
        if bounds is None:
            return None
        if bounds[0] > bounds[1]:  # an empty index array: no entry stored
            return 0, 0
        ends = (coefficient * bounds[0], coefficient * bounds[1])
        low, high = low + min(ends), high + max(ends)
    extent = int(tensor.shape[mode])
    low, high = max(int(low), 0), min(int(high) + 1, extent)
    return (low, high) if low < high else (0, 0)


def _atom_range(atom, tensor, levels) -> tuple[int, int] | None:
    """Inclusive ``(smallest, largest)`` of a term of a coordinate's definition: an index
    array called on physical indices (its stored values), or a physical index with
    constant bounds; ``(1, 0)`` for an empty array; None otherwise."""
    if isinstance(atom, UFCall):
        array = tensor.fields.get(atom.function)
        if not isinstance(array, np.ndarray) or array.ndim != 1 or array.dtype.kind not in "iu":
            return None
        if array.size == 0:
            return 1, 0
        return int(array.min()), int(array.max())
    level = levels.get(atom)
    if level is None:
        return None
    lows = [bound.constant for bound in level.lower if bound.is_constant]
    highs = [bound.constant for bound in level.upper if bound.is_constant]
    if not lows or not highs:
        return None
    return max(lows), min(highs)


def reached_rows(statement: Statement, local_blocks: dict, extent: int) -> tuple[int, int]:
    """``[low, high)``: the rows (values of the output's first index) this rank's partial
    sum can be nonzero on.  A term reaches only rows every one of its factors stores, so
    each term's range is the intersection of its distributed factors' coordinate ranges
    (``local_blocks``: name -> this rank's block); the output's is the hull over terms."""
    first = statement.output.indices[0]
    low, high = extent, 0
    for term in statement.terms:
        term_low, term_high = 0, extent
        for factor in term.factors:
            block = local_blocks.get(factor.tensor)
            if block is None or first not in factor.indices:
                continue
            bounds = coordinate_range(block, factor.indices.index(first))
            if bounds is not None:
                term_low, term_high = max(term_low, bounds[0]), min(term_high, bounds[1])
        if term_low < term_high:
            low, high = min(low, term_low), max(high, term_high)
    return (low, high) if low < high else (0, 0)


def even_bounds(rows: int, parts: int) -> np.ndarray:
    """Rows cut into ``parts`` blocks of near-equal size (block ``r``: ``[b[r], b[r+1])``)."""
    return np.array([rows * r // parts for r in range(parts + 1)], dtype=np.int64)


def _overlap(low: int, high: int, start: int, stop: int) -> int:
    return max(0, min(high, stop) - max(low, start))


@dataclass(frozen=True)
class RowSum:
    """The sum over ranks of a partial output whose rank ``r`` reaches rows
    ``reached[r] = [low, high)``; rank ``r`` owns rows ``[bounds[r], bounds[r+1])``.
    ``row_size``: elements per row (the product of the output's other extents)."""

    reached: np.ndarray  # (P, 2) int64
    bounds: np.ndarray  # (P + 1,) int64
    row_size: int
    scatter: bool  # keep each rank's block (reduce="scatter"), or gather them on every rank

    def send_counts(self, rank: int) -> np.ndarray:
        """Elements ``rank`` sends each other rank: its range's part in their blocks."""
        low, high = self.reached[rank]
        return np.array([0 if o == rank else _overlap(low, high, self.bounds[o], self.bounds[o + 1]) * self.row_size
                         for o in range(len(self.reached))], dtype=np.int64)

    def receive_counts(self, rank: int) -> np.ndarray:
        """Elements ``rank`` receives from each other rank: their ranges' parts in its block."""
        start, stop = self.bounds[rank], self.bounds[rank + 1]
        return np.array([0 if s == rank else _overlap(low, high, start, stop) * self.row_size
                         for s, (low, high) in enumerate(self.reached)], dtype=np.int64)

    def bytes_per_call(self, rank: int) -> tuple[int, int]:
        """``(messages, bytes)`` ``rank`` sends: its range's parts in other blocks, one
        message per owner reached, then (gathering) every block but its successor's, as a
        ring Allgatherv sends them (``P-1`` messages)."""
        P = len(self.reached)
        counts = self.send_counts(rank)
        messages, sent = int(np.count_nonzero(counts)), int(counts.sum())
        if not self.scatter and P > 1:
            blocks = np.diff(self.bounds) * self.row_size
            messages += P - 1
            sent += int(blocks.sum() - blocks[(rank + 1) % P])
        return messages, sent * DOUBLE

    def __call__(self, comm: MPI.Comm, result: np.ndarray,
                 combine: Callable[[np.ndarray, np.ndarray], None] = COMBINATIONS["plus"].into) -> np.ndarray:
        """This rank's summed block of rows (``scatter``), or ``result`` overwritten with
        the whole sum.  The block is summed in ``result``'s own rows, which hold this
        rank's part already; ``combine(target, incoming)`` sums in place (the kernel's ⊕:
        spf.distributed.reduction; rows a rank does not reach hold its identity).  Collective."""
        rank, P = comm.rank, comm.size
        send_counts, receive_counts = self.send_counts(rank), self.receive_counts(rank)
        low = int(self.reached[rank][0])
        start, stop = int(self.bounds[rank]), int(self.bounds[rank + 1])
        flat = result.reshape(result.shape[0], -1)
        width = flat.shape[1]
        # the owners' parts of this rank's range, in owner order, as they lie in result
        send_starts = np.array([max(low, int(self.bounds[o])) * width for o in range(P)], dtype=np.int64)
        incoming = np.empty(int(receive_counts.sum()), dtype=result.dtype)
        kind = dtlib.from_numpy_dtype(result.dtype)  # float64, or the type the kernel computed in
        collective.count("result", int(send_counts.sum()) * result.itemsize, int(np.count_nonzero(send_counts)))
        # every rank sends from a result of the same size and receives at most (P-1)/P of it:
        # the waves are known without agreeing on them
        collective.alltoallv(comm, flat.reshape(-1), send_counts, incoming, receive_counts, kind,
                             send_starts=send_starts, waves=collective.waves_for(result.size))
        at = 0
        for sender in range(P):
            count = int(receive_counts[sender])
            if count:
                first = max(int(self.reached[sender][0]), start)
                combine(flat[first:first + count // width], incoming[at:at + count].reshape(-1, width))
                at += count
        if self.scatter:
            return result[start:stop].copy()
        if P > 1:
            blocks = np.diff(self.bounds) * self.row_size
            collective.count("result", int(blocks.sum() - blocks[(rank + 1) % P]) * result.itemsize, P - 1)
        collective.allgatherv_in_place(comm, result, np.diff(self.bounds) * self.row_size, kind)
        return result


def ring_bytes(rows: int, row_size: int, rank: int, P: int, scatter: bool) -> int:
    """Bytes ``rank`` sends summing ``rows`` rows whole: a ring Reduce_scatter over
    :func:`even_bounds` blocks (every block but its own) or a ring Allreduce (every
    element twice, but for two blocks)."""
    if P == 1:
        return 0
    if scatter:
        blocks = np.diff(even_bounds(rows, P)) * row_size
        return int(blocks.sum() - blocks[rank]) * DOUBLE
    n = rows * row_size
    blocks = [n // P + (1 if b < n % P else 0) for b in range(P)]
    return (2 * n - blocks[(rank + 1) % P] - blocks[(rank + 2) % P]) * DOUBLE


def choose(comm: MPI.Comm, reached: tuple[int, int], rows: int, row_size: int, scatter: bool) -> RowSum | None:
    """The :class:`RowSum` over every rank's reached rows, when its largest sender sends at
    most :data:`WORTH` of what the ring sum's would (two collectives and a loop over the
    senders cost more than MPI's one when they save little), or, summed whole
    (``reduce="all"``), when the output holds :data:`LARGE` bytes or more; else None.
    Collective (every rank decides alike)."""
    P = comm.size
    if P == 1 or rows == 0:
        return None
    ranges = np.array(collective.allgather_object(comm, (int(reached[0]), int(reached[1]))), dtype=np.int64)
    row_sum = RowSum(ranges, even_bounds(rows, P), row_size, scatter)
    by_rows = max(row_sum.bytes_per_call(r)[1] for r in range(P))
    whole = max(ring_bytes(rows, row_size, r, P, scatter) for r in range(P))
    large = not scatter and rows * row_size * DOUBLE >= LARGE
    return row_sum if by_rows <= WORTH * whole or large else None
