"""An exception a script does not catch on one rank ends the whole MPI job.

spf raises its own errors on every rank (:mod:`.collective`), but an exception of the
script's own on one rank (a bad file on rank 0, an assertion) ends that rank alone:
Python's exit then calls MPI_Finalize, which waits for the other ranks, and they wait
in their next collective for it, for ever.  Importing :mod:`spf.distributed` chains a
hook to ``sys.excepthook``: it prints the traceback as before (Python's own hook's text in
one write, so that other processes' output cannot land inside it), then calls MPI_Abort on
COMM_WORLD, which ends every rank with a non-zero status (mpiexec says which rank
aborted).  That is what ``python -m mpi4py script.py`` does, here for every script that
imports spf.distributed, run as it is, with nothing to remember.  Unlike
``-m mpi4py``, ``sys.exit(status)`` on one rank is not covered (it is no exception
reaching the hook).  With one process (nobody to wait) the hook only prints.
"""

from __future__ import annotations

import sys
import traceback

from mpi4py import MPI

ERROR_CODE = 1  # the status MPI_Abort gives the job


def install() -> None:
    """Chain the abort to ``sys.excepthook`` (once per process; the hook set before still runs first)."""
    if not getattr(sys.excepthook, "spf_aborts", False):
        sys.excepthook = _chained(sys.excepthook)


def _chained(previous):
    def abort_after(kind, value, trace) -> None:
        if previous is sys.__excepthook__:
            _print_at_once(kind, value, trace)
        else:
            previous(kind, value, trace)
        _abort()

    abort_after.spf_aborts = True
    return abort_after


def _print_at_once(kind, value, trace) -> None:
    """The traceback Python's own hook prints, in one write: that hook writes it in pieces
    ("ValueError", then ": message"), and mpiexec's abort report, from another process, was
    seen landing between two of them in the job's output."""
    try:
        sys.stderr.write("".join(traceback.format_exception(kind, value, trace)))
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no usable stderr: nothing to print to
        pass


def _abort() -> None:
    """MPI_Abort on COMM_WORLD when other ranks could be left waiting."""
    if not MPI.Is_initialized() or MPI.Is_finalized() or MPI.COMM_WORLD.Get_size() == 1:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    MPI.COMM_WORLD.Abort(ERROR_CODE)
