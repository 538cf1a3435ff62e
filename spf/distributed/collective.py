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
from typing import Callable, TypeVar

import numpy as np
from mpi4py import MPI

from spf.errors import SpfError

T = TypeVar("T")


class RankError(SpfError):
    """Another rank failed a step every rank takes together."""


def agreed(comm, step: Callable[[], T], what: str) -> T:
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


def same_everywhere(comm, value, what: str) -> None:
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
def counting():
    """``with counting() as traffic:`` records the bytes this rank sends through spf's
    collectives inside the block (nestable; costs nothing outside one)."""
    traffic = Traffic()
    _counters.append(traffic)
    try:
        yield traffic
    finally:
        _counters.remove(traffic)


def _count(kind: str, sent: int, messages: int) -> None:
    for traffic in _counters:
        traffic.add(kind, sent, messages)


def _blocks(elements: int, parts: int) -> list[int]:
    """The ring's blocks: ``elements`` cut into ``parts`` near-equal pieces."""
    return [elements // parts + (1 if b < elements % parts else 0) for b in range(parts)]


def allreduce_sum(comm, buffer: np.ndarray, kind: str = "result") -> None:
    """``buffer`` summed across ranks in place (MPI_Allreduce), counted as a ring sends it:
    rank r sends every block but ``(r+1) mod P`` while reducing and every block but
    ``(r+2) mod P`` while gathering, ``2(P-1)`` messages."""
    P, r = comm.size, comm.rank
    if P > 1:
        blocks = _blocks(buffer.size, P)
        elements = 2 * buffer.size - blocks[(r + 1) % P] - blocks[(r + 2) % P]
        _count(kind, elements * buffer.itemsize, 2 * (P - 1))
    comm.Allreduce(MPI.IN_PLACE, buffer, op=MPI.SUM)


def reduce_scatter_sum(comm, send: np.ndarray, receive: np.ndarray, counts: np.ndarray,
                       kind: str = "result") -> None:
    """``send`` summed across ranks, rank r receiving the r-th ``counts`` elements
    (MPI_Reduce_scatter), counted as a ring sends it: every block but its own, ``P-1`` messages."""
    P, r = comm.size, comm.rank
    if P > 1:
        _count(kind, (int(np.sum(counts)) - int(counts[r])) * send.itemsize, P - 1)
    comm.Reduce_scatter(send, receive, recvcounts=counts, op=MPI.SUM)


def flag_max(comm, flag: np.ndarray) -> None:
    """The largest of a small int flag across ranks (MPI_Allreduce), counted as the
    recursive doubling MPI uses for a few bytes sends it: ``ceil(log2 P)`` messages."""
    if comm.size > 1:
        steps = (comm.size - 1).bit_length()
        _count("status", steps * flag.nbytes, steps)
    comm.Allreduce(MPI.IN_PLACE, flag, op=MPI.MAX)


def allgather_object(comm, value) -> list:
    """``comm.allgather(value)`` counted as a ring sends it: this rank's pickle to each of
    the others (``P-1`` messages of about its size)."""
    if comm.size > 1:
        _count("status", (comm.size - 1) * len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)),
               comm.size - 1)
    return comm.allgather(value)


def count_exchange(sent_elsewhere: int, messages: int) -> None:
    """Entries sent to other ranks while distributing a tensor (Alltoallv)."""
    _count("exchange", sent_elsewhere, messages)
