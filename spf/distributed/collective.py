"""Agreement across ranks: an error on one rank is an error on every rank.

A rank that raised and left a collective its peers entered would hang them.  So every
step whose failure can differ between ranks (packing a block, running the kernel,
reading a byte range) runs through :func:`agreed`: each rank runs it, the ranks exchange
whether it failed, and if any did, every rank raises (the failing rank its own error,
the others an :class:`spf.SpfError` naming the failing rank and its message).

The collectives spf calls go through this module's wrappers, which also count the
bytes this rank hands MPI to send (:func:`counting`), as the textbook algorithm for
the message size sends them: MPI picks its own algorithm, which this cannot see.
"""

from __future__ import annotations

import pickle
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

import numpy as np
from mpi4py import MPI

from spf.errors import RankError, SpfError

T = TypeVar("T")


def agreed(comm: MPI.Comm, step: Callable[[], T], what: str) -> T:
    """``step()`` on every rank; raise on every rank when it raised on any."""
    try:
        result, failure = step(), None
    except SpfError as error:
        result, failure = None, error
    except Exception as error:  # numpy's, the system's: named, and raised here rather than left to hang the peers
        result, failure = None, SpfError(f"{type(error).__name__}: {error}")
        failure.__cause__ = error
    messages = allgather_object(comm, None if failure is None else str(failure).splitlines()[0])
    if failure is not None:
        raise failure
    for rank, message in enumerate(messages):
        if message is not None:
            raise RankError(f"{what} failed on rank {rank} of {len(messages)}: {message}")
    return result


def same_everywhere(comm: MPI.Comm, value: Any, what: str) -> None:
    """Refuse, on every rank, a ``value`` (a small picklable summary) that differs between ranks."""
    values = allgather_object(comm, value)
    for rank, other in enumerate(values):
        if other != values[0]:
            raise SpfError(f"{what} differs between ranks: rank 0 has {values[0]}, rank {rank} has {other}; "
                           "every rank must pass the same")


# ----------------------------------------------------------------------------- bytes on the wire

class Traffic:
    """What this rank handed MPI to send while it was being counted (:func:`counting`):
    ``sent[kind]`` bytes and ``messages[kind]`` messages, by kind: "result" (the summing of
    a kernel's output), "status" (the per-call agreement that no rank failed, and the
    checks of dist.run), "exchange" (entries sent to their owners while reading)."""

    __slots__ = ("sent", "messages")

    def __init__(self):
        self.sent: dict[str, int] = {}
        self.messages: dict[str, int] = {}

    def add(self, kind: str, sent: int, messages: int) -> None:
        self.sent[kind] = self.sent.get(kind, 0) + int(sent)
        self.messages[kind] = self.messages.get(kind, 0) + int(messages)

    def __repr__(self) -> str:
        return f"Traffic(sent={self.sent}, messages={self.messages})"


_counters: list[Traffic] = []


@contextmanager
def counting() -> Iterator[Traffic]:
    """``with counting() as traffic:`` records the bytes this rank sends through spf's
    collectives inside the block (nestable; costs nothing outside one)."""
    traffic = Traffic()
    _counters.append(traffic)
    try:
        yield traffic
    finally:
        _counters.remove(traffic)


def count(kind: str, sent: int, messages: int) -> None:
    """Record that this rank hands MPI ``sent`` bytes in ``messages`` messages of ``kind``
    (for a collective called without one of this module's counting wrappers)."""
    for traffic in _counters:
        traffic.add(kind, sent, messages)


def _blocks(elements: int, parts: int) -> list[int]:
    """The ring's blocks: ``elements`` cut into ``parts`` near-equal pieces."""
    return [elements // parts + (1 if b < elements % parts else 0) for b in range(parts)]


def allreduce(comm: MPI.Comm, buffer: np.ndarray, op: MPI.Op = MPI.SUM, kind: str = "result") -> None:
    """``buffer`` reduced across ranks by ``op`` in place (MPI_Allreduce), counted as a ring
    sends it: rank r sends every block but ``(r+1) mod P`` while reducing and every block but
    ``(r+2) mod P`` while gathering, ``2(P-1)`` messages."""
    P, r = comm.size, comm.rank
    if P > 1:
        blocks = _blocks(buffer.size, P)
        elements = 2 * buffer.size - blocks[(r + 1) % P] - blocks[(r + 2) % P]
        count(kind, elements * buffer.itemsize, 2 * (P - 1))
    comm.Allreduce(MPI.IN_PLACE, buffer, op=op)


def reduce_scatter(comm: MPI.Comm, send: np.ndarray, receive: np.ndarray, counts: np.ndarray,
                   op: MPI.Op = MPI.SUM, kind: str = "result") -> None:
    """``send`` reduced across ranks by ``op``, rank r receiving the r-th ``counts`` elements
    (MPI_Reduce_scatter), counted as a ring sends it: every block but its own, ``P-1`` messages."""
    P, r = comm.size, comm.rank
    if P > 1:
        count(kind, (int(np.sum(counts)) - int(counts[r])) * send.itemsize, P - 1)
    comm.Reduce_scatter(send, receive, recvcounts=counts, op=op)


def flag_max(comm: MPI.Comm, flag: np.ndarray) -> None:
    """The largest of a small int flag across ranks (MPI_Allreduce), counted as the
    recursive doubling MPI uses for a few bytes sends it: ``ceil(log2 P)`` messages."""
    if comm.size > 1:
        steps = (comm.size - 1).bit_length()
        count("status", steps * flag.nbytes, steps)
    comm.Allreduce(MPI.IN_PLACE, flag, op=MPI.MAX)


def allgather_object(comm: MPI.Comm, value: Any) -> list:
    """``comm.allgather(value)`` counted as a ring sends it: this rank's pickle to each of
    the others (``P-1`` messages of about its size)."""
    if comm.size > 1:
        count("status", (comm.size - 1) * len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)),
               comm.size - 1)
    return comm.allgather(value)


def count_exchange(sent_elsewhere: int, messages: int) -> None:
    """Entries sent to other ranks while distributing a tensor (Alltoallv)."""
    count("exchange", sent_elsewhere, messages)


# ----------------------------------------------------------------------------- counts beyond int

INT_COUNT = 2**31 - 1
"""MPI's counts and displacements are C ints (the large-count ``_c`` routines are MPI-4,
which the PyPI Open MPI does not claim): a buffer of more elements is moved in waves."""
WAVE_ELEMENTS = 1 << 26
"""Elements a rank moves at most per wave when it must split (512 MB of float64)."""


def displacements(counts: np.ndarray) -> np.ndarray:
    return np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)


def waves_for(elements: int) -> int:
    """How many waves a buffer of ``elements`` moves in: 1 within an int, else enough to
    keep each wave within WAVE_ELEMENTS."""
    return 1 if elements <= INT_COUNT else -(-elements // WAVE_ELEMENTS)


def waves_needed(comm: MPI.Comm, elements: int) -> int:
    """How many waves the ranks move a buffer in: :func:`waves_for` the largest of the
    ranks' ``elements`` (each rank's buffers' largest).  Collective (every rank must call
    it with its own count)."""
    waves = np.array([waves_for(elements)], dtype=np.int64)
    flag_max(comm, waves)
    return int(waves[0])


def wave_slices(counts: np.ndarray, wave: int, waves: int) -> tuple[np.ndarray, np.ndarray]:
    """Each peer's part of a wave: ``(start within the peer's segment, count)``; sender and
    receiver cut the same count the same way, so their parts match."""
    counts = np.asarray(counts, dtype=np.int64)
    low, high = counts * wave // waves, counts * (wave + 1) // waves
    return low, high - low


def alltoallv(comm: MPI.Comm, send: np.ndarray, send_counts: np.ndarray, receive: np.ndarray,
              receive_counts: np.ndarray, kind: MPI.Datatype, send_starts: np.ndarray | None = None,
              waves: int | None = None) -> None:
    """MPI_Alltoallv of flat buffers (``*_counts``: elements per peer, segments in rank
    order; ``send_starts``: where each peer's segment starts in ``send``, when they do
    not follow each other), in waves when a rank's buffer exceeds MPI's int counts
    (``waves``: their number when every rank knows it, else the ranks agree on it).
    Collective."""
    send, receive = send.reshape(-1), receive.reshape(-1)
    send_start = displacements(send_counts) if send_starts is None else np.asarray(send_starts, dtype=np.int64)
    if waves is None:
        waves = waves_needed(comm, max(send.size, receive.size))
    if waves == 1:
        comm.Alltoallv([send, (send_counts, send_start), kind],
                       [receive, (receive_counts, displacements(receive_counts)), kind])
        return
    receive_start = displacements(receive_counts)
    for wave in range(waves):
        send_low, send_part = wave_slices(send_counts, wave, waves)
        receive_low, receive_part = wave_slices(receive_counts, wave, waves)
        outgoing = np.concatenate([send[start + low:start + low + n] for start, low, n in
                                   zip(send_start, send_low, send_part)])
        incoming = np.empty(int(receive_part.sum()), dtype=receive.dtype)
        comm.Alltoallv([outgoing, (send_part, displacements(send_part)), kind],
                       [incoming, (receive_part, displacements(receive_part)), kind])
        for start, low, n, at in zip(receive_start, receive_low, receive_part, displacements(receive_part)):
            receive[start + low:start + low + n] = incoming[at:at + n]


def allgatherv_in_place(comm: MPI.Comm, buffer: np.ndarray, counts: np.ndarray, kind: MPI.Datatype) -> None:
    """MPI_Allgatherv in place: rank r's segment of the flat ``buffer`` (``counts`` in
    rank order) reaches every rank, in waves beyond MPI's int counts.  Collective."""
    flat = buffer.reshape(-1)
    counts = np.asarray(counts, dtype=np.int64)
    if int(counts.sum()) <= INT_COUNT:
        comm.Allgatherv(MPI.IN_PLACE, [flat, (counts, displacements(counts)), kind])
        return
    start = displacements(counts)
    mine = flat[int(start[comm.rank]):int(start[comm.rank] + counts[comm.rank])].copy()
    gatherv(comm, mine, flat, counts, kind, root=None)


def gatherv(comm: MPI.Comm, send: np.ndarray, receive: np.ndarray | None, counts: np.ndarray, kind: MPI.Datatype,
            root: int | None) -> None:
    """MPI_Gatherv to ``root`` (MPI_Allgatherv with ``root=None``) of flat buffers
    (``counts``: every rank's elements, known to all; ``receive``: contiguous, None on
    ranks that receive nothing), in waves when the gathered buffer exceeds MPI's int
    counts.  Collective."""
    send = send.reshape(-1)
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    waves = 1 if total <= INT_COUNT else -(-total // WAVE_ELEMENTS)  # every rank knows counts: no agreement needed
    flat = receive.reshape(-1) if receive is not None and (root is None or comm.rank == root) else None
    start = displacements(counts)
    for wave in range(waves):
        low, part = wave_slices(counts, wave, waves)
        mine = send[int(low[comm.rank]):int(low[comm.rank] + part[comm.rank])]
        incoming = None if flat is None else flat if waves == 1 else np.empty(int(part.sum()), dtype=flat.dtype)
        spec = None if incoming is None else [incoming, (part, displacements(part)), kind]
        if root is None:
            comm.Allgatherv([mine, kind], spec)
        else:
            comm.Gatherv([mine, kind], spec, root=root)
        if incoming is not None and waves > 1:
            for begin, first, n, at in zip(start, low, part, displacements(part)):
                flat[begin + first:begin + first + n] = incoming[at:at + n]
