"""Distributed tensors: one block of the outer storage level per rank.

A :class:`DistributedTensor` splits one mode (the one the layout's outer level orders,
:func:`spf.distributed.partition.outer_mode`) into contiguous ranges ``bounds[r] <= c <
bounds[r+1]`` holding about equal numbers of nonzeros; rank ``r`` keeps the entries of
its range as an ordinary :class:`spf.Tensor` of the same layout whose extent along that
mode is the range's length (coordinates re-based to the range's start), so the same
compiled kernel runs on every block.  A dense block (a kernel's output along the
distributed index) is a numpy array.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
from mpi4py import MPI

from spf import arguments
from spf.errors import DistributionError, PackError, UNNAMED
from spf.layout_library.layout_input import load_layout_argument, resolve_family
from spf.runtime.conversion import convert
from spf.runtime.packing import pack
from spf.runtime.tensor import Tensor
from spf.runtime.user_data import coordinates_of, summed
from spf.runtime.value_checks import INDEX_DTYPE

from spf.distributed.collective import agreed, alltoallv, count_exchange, gatherv, same_everywhere
from spf.distributed.partition import balanced_bounds, histogram, outer_mode

if TYPE_CHECKING:
    from spf.arguments import LayoutLike
    from spf.layout_library.model import Layout


class DistributedTensor:
    """A tensor split along ``mode`` over the ranks of ``comm``: this rank holds ``local``,
    the coordinates ``lo <= c < hi`` of that mode (re-based to 0), of the global ``shape``."""

    __slots__ = ("comm", "layout", "shape", "mode", "bounds", "local", "name")

    def __init__(self, comm: MPI.Comm, layout: Layout, shape: tuple[int, ...], mode: int, bounds: np.ndarray,
                 local: Tensor | np.ndarray, name: str):
        self.comm, self.layout, self.shape, self.mode = comm, layout, tuple(shape), mode
        self.bounds, self.local, self.name = np.asarray(bounds, dtype=np.int64), local, name

    @property
    def lo(self) -> int:
        return int(self.bounds[self.comm.rank])

    @property
    def hi(self) -> int:
        return int(self.bounds[self.comm.rank + 1])

    @property
    def dense(self) -> bool:
        return isinstance(self.local, np.ndarray)

    def local_nnz(self) -> int:
        """Stored entries of this rank's block (every element of a dense block)."""
        return int(self.local.size) if self.dense else int(len(self.local.values))

    def gather(self, root: int | None = 0) -> Tensor | np.ndarray | None:
        """The whole tensor on rank ``root`` (None on the others), or on every rank when
        ``root`` is None: a numpy array for a dense tensor, else an spf.Tensor in the same
        layout.  Collective: every rank calls it."""
        if root is not None and not (isinstance(root, (int, np.integer)) and 0 <= root < self.comm.size):
            raise arguments.ArgumentError(f"root must be a rank of the communicator (0 to {self.comm.size - 1}) "
                                          f"or None for every rank, got {root!r}")
        if self.dense:
            return _gather_dense(self, root)
        coords, values, _ = self.local.to_coo()
        coords = coords.copy()
        coords[:, self.mode] += self.lo
        coords, values = _gather_entries(self.comm, coords, values, len(self.shape), root)
        if coords is None:
            return None
        return pack(self.layout, (coords, values, self.shape), name=self.name)

    def convert(self, layout: LayoutLike) -> "DistributedTensor":
        """The same blocks in another layout (``spf.convert`` on each rank), when that
        layout's outer level orders the same mode (CSR to DCSR or COO: rows stay rows).
        Collective."""
        loaded = resolve_family(load_layout_argument(layout), len(self.shape))

        def converted():
            if self.dense:
                raise DistributionError(f"tensor {self.name} is dense; convert the sparse blocks only")
            mode, _ = outer_mode(loaded)
            if mode != self.mode:
                raise DistributionError(f"tensor {self.name} is split along mode {self.mode}, but the outer level "
                                        f"of {loaded.spec} orders mode {mode}: distribute the data in "
                                        f"{loaded.spec} instead")
            return convert(self.local, loaded)

        local = agreed(self.comm, converted, f"converting tensor {self.name} to {loaded.spec}")
        return DistributedTensor(self.comm, loaded, self.shape, self.mode, self.bounds, local, self.name)

    def __repr__(self) -> str:
        return (f"DistributedTensor({self.name}: {self.layout.spec}, shape={self.shape}, mode {self.mode} "
                f"rows {self.lo}:{self.hi} on rank {self.comm.rank} of {self.comm.size})")


def world() -> MPI.Comm:
    """MPI's COMM_WORLD (every rank mpiexec started)."""
    return MPI.COMM_WORLD


def communicator(comm: MPI.Comm | None) -> MPI.Comm:
    """``comm`` checked, or COMM_WORLD for None."""
    if comm is None:
        return MPI.COMM_WORLD
    if not isinstance(comm, MPI.Comm):
        raise arguments.ArgumentError(f"comm must be an mpi4py communicator (MPI.Comm) or None for COMM_WORLD, "
                                      f"got {type(comm).__name__}")
    return comm


def distribute(layout: LayoutLike, data: Any, comm: MPI.Comm | None = None, root: int | None = None,
               name: str = UNNAMED) -> DistributedTensor:
    """Split ``data`` (anything :func:`spf.pack` reads: scipy.sparse, ``(coords, values,
    shape)``, an spf.Tensor) into blocks of ``layout``'s outer level balanced by nonzeros.

    ``root=None``: every rank passes the same data and keeps its block (nothing is sent).
    ``root=r``: only rank r's data is read (the others pass None) and each block is sent
    to its rank.  Collective: every rank calls it."""
    comm = communicator(comm)
    name = arguments.name(name)
    if root is not None and not (isinstance(root, (int, np.integer)) and 0 <= root < comm.size):
        raise arguments.ArgumentError(f"root must be a rank of the communicator (0 to {comm.size - 1}) or None, "
                                      f"got {root!r}")

    def entries():
        if root is not None and comm.rank != root:
            return None
        coords, values, shape = coordinates_of(data.to_coo() if isinstance(data, Tensor) else data, name)
        loaded = resolve_family(load_layout_argument(layout), len(shape))
        if loaded.order != len(shape):
            raise PackError(f"tensor {name}: layout {loaded.spec} stores order-{loaded.order} tensors, "
                            f"the data has order {len(shape)}")
        mode, granule = outer_mode(loaded)
        return coords, values, shape, loaded, mode, granule

    found = agreed(comm, entries, f"reading tensor {name}")
    if root is None:
        coords, values, shape, loaded, mode, granule = found
        counts, width = histogram(coords[:, mode], shape[mode], granule)
        bounds = balanced_bounds(counts, width, shape[mode], comm.size)
        same_everywhere(comm, (shape, len(values), float(values.sum()), tuple(bounds)),
                        f"the data of tensor {name} (shape, entries, sum of values)")
        keep = (coords[:, mode] >= bounds[comm.rank]) & (coords[:, mode] < bounds[comm.rank + 1])
        coords, values = coords[keep], values[keep]
    else:
        header = None
        if comm.rank == root:
            coords, values, shape, loaded, mode, granule = found
            counts, width = histogram(coords[:, mode], shape[mode], granule)
            bounds = balanced_bounds(counts, width, shape[mode], comm.size)
            header = (shape, loaded, mode, bounds)
        shape, loaded, mode, bounds = comm.bcast(header, root=root)
        if comm.rank != root:
            coords, values = np.zeros((0, len(shape)), dtype=INDEX_DTYPE), np.zeros(0)
        owner = np.searchsorted(bounds, coords[:, mode], side="right") - 1
        coords, values = exchange(comm, coords, values, owner)
    return block(comm, loaded, coords, values, shape, mode, bounds, name, duplicates="refuse")


def block(comm: MPI.Comm, layout: Layout, coords: np.ndarray, values: np.ndarray, shape: Sequence[int], mode: int,
          bounds: np.ndarray, name: str, duplicates: str) -> DistributedTensor:
    """This rank's block from the entries it owns (global coordinates inside its range):
    packed in ``layout`` over the range, coordinates re-based.  ``duplicates``: "sum"
    (Matrix Market's rule, scipy's) or "refuse".  Collective."""
    lo, hi = int(bounds[comm.rank]), int(bounds[comm.rank + 1])

    def pack_block():
        return pack_piece(layout, coords.copy(), values, shape, mode, lo, hi, name, duplicates, (lo, hi))

    local = agreed(comm, pack_block, f"packing the blocks of tensor {name}")
    return DistributedTensor(comm, layout, tuple(int(s) for s in shape), mode, bounds, local, name)


def pack_piece(layout: Layout, coords: np.ndarray, values: np.ndarray, shape: Sequence[int], mode: int, start: int,
               stop: int, name: str, duplicates: str, block: tuple[int, int]) -> Tensor:
    """The entries of ``start <= c < stop`` along ``mode``, packed over that sub-range
    (``coords`` re-based in place); ``block``: the rank's range, for the error message."""
    coords[:, mode] -= start
    piece_shape = tuple(stop - start if m == mode else int(s) for m, s in enumerate(shape))
    entries = (coords, values, piece_shape)
    if duplicates == "sum" and len(shape) == 2:  # scipy input: the assembly sums equal entries
        import scipy.sparse as sparse
        entries = sparse.coo_array((values, (coords[:, 0], coords[:, 1])), shape=piece_shape)
    elif duplicates == "sum":
        entries = summed(*entries)
    try:
        return pack(layout, entries, name=name)
    except PackError as error:
        raise DistributionError(f"tensor {name}: the block of rows {block[0]}:{block[1]} along mode {mode} cannot "
                                f"be stored in {layout.spec} over the sub-range: {error}") from None


def exchange(comm: MPI.Comm, coords: np.ndarray, values: np.ndarray,
             owner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Send each entry to the rank ``owner`` names (MPI Alltoallv); the entries this rank
    receives, in rank order.  Counted for dist.counting.  Collective."""
    order = np.argsort(owner, kind="stable")
    coords = np.ascontiguousarray(coords[order], dtype=INDEX_DTYPE)
    values = np.ascontiguousarray(values[order], dtype=np.float64)
    del order
    width = coords.shape[1]
    send = np.bincount(owner, minlength=comm.size).astype(np.int64)
    receive = np.empty_like(send)
    comm.Alltoall(send, receive)
    elsewhere = int(send.sum() - send[comm.rank])
    count_exchange(elsewhere * (8 * width + 8), 2 * int(np.count_nonzero(send)) - 2 * int(send[comm.rank] > 0))
    got_coords = np.empty((int(receive.sum()), width), dtype=INDEX_DTYPE)
    got_values = np.empty(int(receive.sum()), dtype=np.float64)
    for buffer, out, scale, kind in ((coords, got_coords, width, MPI.INT64_T), (values, got_values, 1, MPI.DOUBLE)):
        alltoallv(comm, buffer, send * scale, out, receive * scale, kind)
    return got_coords, got_values


def _gather_entries(comm, coords: np.ndarray, values: np.ndarray, order: int, root: int | None):
    counts = np.array(comm.allgather(len(values)), dtype=np.int64)
    coords = np.ascontiguousarray(coords, dtype=INDEX_DTYPE)
    values = np.ascontiguousarray(values, dtype=np.float64)
    if root is None or comm.rank == root:
        all_coords = np.empty((int(counts.sum()), order), dtype=INDEX_DTYPE)
        all_values = np.empty(int(counts.sum()), dtype=np.float64)
        targets = [(all_coords, order, MPI.INT64_T), (all_values, 1, MPI.DOUBLE)]
    else:
        all_coords = all_values = None
        targets = [(None, order, MPI.INT64_T), (None, 1, MPI.DOUBLE)]
    for source, (target, scale, kind) in zip((coords, values), targets):
        gatherv(comm, source, target, counts * scale, kind, root)
    return all_coords, all_values


def _gather_dense(tensor: DistributedTensor, root: int | None):
    comm, axis = tensor.comm, tensor.mode
    moved = np.ascontiguousarray(np.moveaxis(tensor.local, axis, 0), dtype=np.float64)
    rest = moved.shape[1:]
    per_row = int(np.prod(rest, dtype=np.int64))
    counts = np.diff(tensor.bounds) * per_row
    full = np.empty((tensor.shape[axis], *rest), dtype=np.float64) if root is None or comm.rank == root else None
    gatherv(comm, moved, full, counts, MPI.DOUBLE, root)
    return None if full is None else np.moveaxis(full, 0, axis)
