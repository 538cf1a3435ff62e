"""Timing the autoscheduler's closest candidates on the user's operands, once.

The work model ranks schedules well but not perfectly (it knows five or six kinds of
event, not the machine).  Where its best candidates are predicted within
:data:`MARGIN` of each other, :meth:`AutoSchedule.select` with ``measure=`` compiles
them, calls each on the actual operands (once each, then again within a time budget),
and keeps the fastest.
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
from spf.scheduling.autoscheduler.candidate import Candidate

MARGIN = 3.0  # candidates predicted within this factor of the best are timed
MOST_TRIALS = 4  # at most this many candidates are timed
DEFAULT_BUDGET = 2.0  # seconds of kernel calls (compiles not counted)
CALLS = 3  # calls timed per candidate (after a warm-up call), fewer when slow


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
    """Median seconds of each candidate's calls.  Every candidate is called once (the
    model may have put a slow one first: that is when timing helps); further calls, up
    to :data:`CALLS` each, only while the calls so far took under ``budget`` seconds."""
    times: dict[str, float] = {}
    samples: dict[str, list[float]] = {}
    calls = {}
    spent = 0.0
    for candidate in candidates:
        key = str(candidate.schedule)
        calls[key] = call_of(candidate)
        started = time.perf_counter()
        calls[key]()
        samples[key] = [time.perf_counter() - started]
        spent += samples[key][0]
    for _ in range(CALLS):
        for key, call in calls.items():
            if spent + samples[key][0] > budget:
                continue
            started = time.perf_counter()
            call()
            samples[key].append(time.perf_counter() - started)
            spent += samples[key][-1]
    for key, taken in samples.items():
        times[key] = statistics.median(taken[1:] or taken)  # the first call also warms caches
    return times
