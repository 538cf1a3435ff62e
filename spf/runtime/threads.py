"""How many threads a parallel kernel runs on, as OpenMP decides it by default."""

from __future__ import annotations

import os


def available_threads() -> int:
    """The threads a parallel kernel runs on: OMP_NUM_THREADS if set (its first level), else
    the cores this process may use (OpenMP's default)."""
    try:
        return max(1, int(os.environ.get("OMP_NUM_THREADS", "").split(",")[0]))
    except ValueError:
        pass
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this system (macOS)
        return max(1, os.cpu_count() or 1)
