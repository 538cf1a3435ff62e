"""Agreement across ranks: an error on one rank is an error on every rank.

A rank that raised and left a collective its peers entered would hang them.  So every
step whose failure can differ between ranks (packing a block, running the kernel,
reading a byte range) runs through :func:`agreed`: each rank runs it, the ranks exchange
whether it failed, and if any did, every rank raises (the failing rank its own error,
the others an :class:`spf.SpfError` naming the failing rank and its message).
"""

from __future__ import annotations

from typing import Callable, TypeVar

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
    messages = comm.allgather(None if failure is None else str(failure).splitlines()[0])
    if failure is not None:
        raise failure
    for rank, message in enumerate(messages):
        if message is not None:
            raise RankError(f"{what} failed on rank {rank} of {len(messages)}: {message}")
    return result


def same_everywhere(comm, value, what: str) -> None:
    """Refuse, on every rank, a ``value`` (a small picklable summary) that differs between ranks."""
    values = comm.allgather(value)
    for rank, other in enumerate(values):
        if other != values[0]:
            raise SpfError(f"{what} differs between ranks: rank 0 has {values[0]}, rank {rank} has {other}; "
                           "every rank must pass the same")
