"""Entries spread over the ranks sent to the rank that owns them, in rounds of bounded
size, each round packed as one piece of the owner's block (:mod:`.joining`).

Every rank's range of the split mode is cut (from the same summed histogram that placed
the ranks' cuts) into ``rounds`` sub-ranges holding about equal numbers of entries; in
round k every rank sends each owner the entries of that owner's k-th sub-range (MPI
Alltoallv), and the owner packs them as the k-th piece of its block.  So the entries in
flight, and the assembly's temporaries, are a round's worth (1/rounds of a block), not a
block's.  Entries a rank read itself (:class:`Entries` with ``owned``) are first sorted
into their rounds chunk by chunk and each round's part freed once sent; a caller's own
arrays are left alone and each round's entries picked out of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Sequence

import numpy as np

from spf.runtime.memory import give_back
from spf.runtime.value_checks import INDEX_DTYPE

from spf.distributed.collective import agreed
from spf.distributed.joining import Joiner
from spf.distributed.partition import balanced_bounds
from spf.distributed.tensor import DistributedTensor, exchange, pack_piece

if TYPE_CHECKING:
    from mpi4py import MPI

    from spf.layout_library.model import Layout

PIECE_ENTRIES = 1 << 12
"""A round carries at least this many of an owner's entries (fewer rounds for small blocks) ..."""
MAX_ROUNDS = 128
"""... and there are at most this many rounds: a round's temporaries stay within about
1/128 of a block's entries."""
SELECT = 1 << 16
"""Entries of a caller's arrays examined at once while picking a round's entries."""


class Entries:
    """The entries this rank contributes: chunks of ``(coords[n, order], values[n])``
    (coordinates global, in any integer type); ``owned``: spf made the chunks (parsed from
    a file) and may free them as they are sent."""

    def __init__(self, chunks: list, order: int, owned: bool):
        self.chunks, self.order, self.owned = chunks, order, owned
        self.parts: list[tuple | None] | None = None  # per round, once prepared: (coords, values)

    def __len__(self) -> int:
        return sum(len(values) for _, values in self.chunks)

    def outer(self, mode: int) -> Iterator[np.ndarray]:
        """The coordinates of ``mode``, chunk by chunk."""
        for coords, _ in self.chunks:
            yield coords[:, mode]

    def prepare(self, cuts: np.ndarray, rounds: int, mode: int) -> None:
        """Sort owned chunks into their rounds (``cuts``: every rank's sub-ranges, in rank order):
        each round's entries in one array, filled as the chunks are freed, so that sending
        a round frees whole pages."""
        give_back()
        if not self.owned or rounds == 1:
            return
        sizes = np.zeros(rounds, dtype=np.int64)
        for coords, _ in self.chunks:
            sizes += np.bincount(_round_of(coords[:, mode], cuts, rounds), minlength=rounds)
        dtype = np.result_type(*[coords.dtype for coords, _ in self.chunks]) if self.chunks else INDEX_DTYPE
        self.parts = [(np.empty((int(n), self.order), dtype=dtype), np.empty(int(n))) for n in sizes]
        filled = np.zeros(rounds, dtype=np.int64)
        while self.chunks:
            coords, values = self.chunks.pop(0)
            which = _round_of(coords[:, mode], cuts, rounds)
            order = np.argsort(which, kind="stable")
            starts = np.searchsorted(which[order], np.arange(rounds + 1))
            for k in np.flatnonzero(np.diff(starts)):
                picked = order[starts[k]:starts[k + 1]]
                into_coords, into_values = self.parts[k]
                at = int(filled[k])
                into_coords[at:at + len(picked)] = coords[picked]
                into_values[at:at + len(picked)] = values[picked]
                filled[k] += len(picked)
            del coords, values, which, order
            give_back()

    def round(self, k: int, cuts: np.ndarray, rounds: int, mode: int) -> tuple[np.ndarray, np.ndarray]:
        """The entries of round ``k`` (all of them when there is one round): int64 coords, values."""
        if rounds == 1:
            found = self.chunks
            if self.owned:
                self.chunks = []
        elif self.parts is not None:
            found, self.parts[k] = [self.parts[k]], None
        else:
            found = []
            for coords, values in self.chunks:
                for start in range(0, len(values), SELECT):
                    window = slice(start, start + SELECT)
                    picked = np.flatnonzero(_round_of(coords[window, mode], cuts, rounds) == k) + start
                    if len(picked):
                        found.append((coords[picked], values[picked]))
        coords = np.concatenate([c for c, _ in found]).astype(INDEX_DTYPE, copy=False) if found else \
            np.zeros((0, self.order), dtype=INDEX_DTYPE)
        values = np.concatenate([v for _, v in found]).astype(np.float64, copy=False) if found else np.zeros(0)
        return coords.reshape(-1, self.order), values


def _round_of(outer: np.ndarray, cuts: np.ndarray, rounds: int) -> np.ndarray:
    return ((np.searchsorted(cuts, outer, side="right") - 1) % rounds).astype(np.int32)


def rounds_and_cuts(counts: np.ndarray, width: int, bounds: np.ndarray, joinable: bool) -> tuple[int, np.ndarray]:
    """``(rounds, cuts)``: how many rounds, and each rank's range cut into that many
    sub-ranges balanced by the histogram ``counts`` (bins of ``width``); ``cuts[r*rounds + k]``
    starts rank r's k-th sub-range, ``cuts[-1]`` is the extent."""
    P = len(bounds) - 1
    per_rank = [int(counts[int(bounds[r]) // width:-(-int(bounds[r + 1]) // width)].sum()) for r in range(P)]
    rounds = 1 if not joinable else \
        max(1, min(MAX_ROUNDS, max(-(-n // PIECE_ENTRIES) for n in per_rank)))
    cuts = []
    for r in range(P):
        lo, hi = int(bounds[r]), int(bounds[r + 1])
        first, last = lo // width, -(-hi // width)
        inner = balanced_bounds(counts[first:last], width, hi - lo, rounds) + lo if hi > lo else \
            np.full(rounds + 1, lo, dtype=np.int64)
        cuts.extend(int(c) for c in inner[:-1])
    cuts.append(int(bounds[-1]))
    return rounds, np.asarray(cuts, dtype=np.int64)


@dataclass(frozen=True)
class Rounds:
    """How a rank's block is sent and packed: ``count`` rounds, ``cuts`` (every rank's
    sub-ranges, :func:`rounds_and_cuts`), ``capacity`` (an upper bound on the entries this
    rank receives), ``joiner`` (None: one round, the block packed whole)."""

    count: int
    cuts: np.ndarray
    capacity: int
    joiner: Joiner | None


def plan_rounds(layout: Layout, mode: int, granule: int, shape: Sequence[int], counts: np.ndarray, width: int,
                bounds: np.ndarray, rank: int) -> Rounds:
    """The :class:`Rounds` of ``layout`` split along ``mode`` at ``bounds``, from the summed
    histogram ``counts`` of the split mode's coordinates in bins of ``width`` (which the
    caller may then free: the rounds do not need it)."""
    joiner = Joiner.of(layout, mode, tuple(int(s) for s in shape), granule)
    rounds, cuts = rounds_and_cuts(counts, width, bounds, joiner is not None)
    lo, hi = int(bounds[rank]), int(bounds[rank + 1])
    return Rounds(rounds, cuts, int(counts[lo // width:-(-hi // width)].sum()), joiner if rounds > 1 else None)


def send_and_pack(comm: MPI.Comm, layout: Layout, mode: int, shape: Sequence[int], bounds: np.ndarray, plan: Rounds,
                  entries: Entries, name: str, duplicates: str) -> DistributedTensor:
    """This rank's block of the entries every rank contributed, packed in ``layout``
    (global ``shape``, split along ``mode`` at ``bounds``), sent and packed as ``plan`` says.  Collective."""
    shape = tuple(int(s) for s in shape)
    rounds, cuts, capacity, joiner = plan.count, plan.cuts, plan.capacity, plan.joiner
    entries.prepare(cuts, rounds, mode)
    rank = comm.rank
    lo, hi = int(bounds[rank]), int(bounds[rank + 1])
    local_shape = tuple(hi - lo if m == mode else s for m, s in enumerate(shape))
    joining = joiner.start(local_shape, capacity) if joiner is not None else None
    local = None
    for k in range(rounds):
        coords, values = entries.round(k, cuts, rounds, mode)
        owner = np.searchsorted(bounds, coords[:, mode], side="right") - 1
        coords, values = exchange(comm, coords, values, owner)
        start, stop = (int(cuts[rank * rounds + k]), int(cuts[rank * rounds + k + 1])) if rounds > 1 else (lo, hi)
        if stop > start or rounds == 1:
            piece = agreed(comm, lambda: pack_piece(layout, coords, values, shape, mode, start, stop, name,
                                                     duplicates, (lo, hi)), f"packing the blocks of tensor {name}")
            if joining is None:
                local = piece
            else:
                joining.add(piece)
            del piece
        else:
            agreed(comm, lambda: None, f"packing the blocks of tensor {name}")
        del coords, values
        give_back()
    if joining is not None:
        local = joining.finish(name) if joining.pieces else \
            pack_piece(layout, np.zeros((0, len(shape)), INDEX_DTYPE), np.zeros(0), shape, mode, lo, hi, name,
                        duplicates, (lo, hi))
    return DistributedTensor(comm, layout, shape, mode, bounds, local, name)
