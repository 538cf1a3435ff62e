"""Timing the autoscheduler's closest candidates on the user's operands, once.

The work model ranks schedules well but not perfectly (it knows five or six kinds of
event, not the machine).  Where its best candidates are predicted within
:data:`MARGIN` of each other, :meth:`AutoSchedule.select` with ``measure=`` compiles
them, calls each on the actual operands (once each, then in interleaved rounds of
blocks of calls within a time budget), and keeps the fastest.
The winner is remembered on disk (the kernel cache folder) for that problem, set of
candidates and *size bucket* (every extent and stored count rounded to a half power
of two), so the next process with operands of similar sizes reads it instead of
timing again.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from spf.codegen.toolchain.cache_folder import cache_directory
from spf.errors import SpfError
from spf.scheduling.autoscheduler.candidate import Candidate

MARGIN = 3.0  # candidates predicted within this factor of the best are timed
MOST_TRIALS = 6  # at most this many candidates are timed
DEFAULT_BUDGET = 2.0  # seconds of kernel calls (compiles not counted)
BLOCK_SECONDS = 0.01  # a fast candidate is timed in blocks of consecutive calls about this long
ROUNDS = 9  # rounds of blocks, each candidate's block in turn, while the budget lasts
MOST_CALLS = 10_000  # calls in one block


def contenders(ranked: Sequence[tuple[Candidate, float]], margin: float = MARGIN,
               most: int = MOST_TRIALS) -> list[Candidate]:
    """The model's best candidates, those predicted within ``margin`` of the first."""
    best = ranked[0][1]
    return [candidate for candidate, predicted in ranked[:most] if predicted <= best * margin]


def size_bucket(sizes: Mapping[str, float]) -> dict[str, float]:
    """Sizes rounded to half powers of two: operands this close share a winner."""
    return {name: round(2 * math.log2(max(value, 1e-300))) / 2 for name, value in sorted(sizes.items())}


def trial_key(description: str, candidates: Sequence[Candidate], sizes: Mapping[str, float], parallel: bool) -> str:
    """What a remembered winner is valid for."""
    text = json.dumps([description, sorted(str(c.schedule) for c in candidates), size_bucket(sizes), parallel])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _trial_file(key: str) -> Path:
    return cache_directory() / f"schedule-trial-{key}.json"


def remembered(key: str, candidates: Sequence[Candidate]) -> Candidate | None:
    """The winner kept for ``key``, if its file is there and names one of ``candidates``."""
    try:
        winner = json.loads(_trial_file(key).read_text())["winner"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return next((c for c in candidates if str(c.schedule) == winner), None)


def remember(key: str, winner: Candidate, times: Mapping[str, float]) -> None:
    """Keep the winner for ``key`` (a cache: a folder that cannot be written only loses it)."""
    try:
        _trial_file(key).write_text(json.dumps({"winner": str(winner.schedule), "seconds": dict(times)}, indent=1))
    except OSError:
        pass


def time_candidates(candidates: Sequence[Candidate], call_of: Callable[[Candidate], Callable[[], Any]],
                    budget: float) -> dict[str, float]:
    """Median seconds per call of each candidate.  Every candidate is called once (the
    model may have put a slow one first: that is when timing helps; the call also warms
    caches and sizes the candidate's block), then timed in up to :data:`ROUNDS` rounds,
    each a block of consecutive calls of every candidate in turn lasting about
    :data:`BLOCK_SECONDS` (a microsecond kernel is timed over many calls, not one), while
    the blocks so far took under ``budget`` seconds.  Rounds interleave the candidates,
    so a slow spell of the machine falls on all of them; the median over blocks leaves
    out the blocks another process's time slice stretched.  A candidate that cannot be
    compiled or run here (an SpfError: its temporaries too large for the memory, ...) is
    left out; none timed is an empty answer."""
    calls: dict[str, Callable[[], Any]] = {}
    first: dict[str, float] = {}
    blocks: dict[str, list[float]] = {}
    spent = 0.0
    for candidate in candidates:
        key = str(candidate.schedule)
        try:
            call = call_of(candidate)
            started = time.perf_counter()
            call()
        except SpfError:
            continue
        first[key] = time.perf_counter() - started
        calls[key], blocks[key] = call, []
        spent += first[key]
    size = {key: max(1, min(MOST_CALLS, round(BLOCK_SECONDS / max(taken, 1e-9)))) for key, taken in first.items()}
    for _ in range(ROUNDS):
        for key, call in calls.items():
            if spent + size[key] * first[key] > budget:
                continue
            started = time.perf_counter()
            for _ in range(size[key]):
                call()
            taken = time.perf_counter() - started
            blocks[key].append(taken / size[key])
            spent += taken
    return {key: statistics.median(blocks[key]) if blocks[key] else first[key] for key in calls}
