"""spf.available_threads (spf/runtime/threads.py): OpenMP's default team size."""

from __future__ import annotations

import os

import spf


def test_omp_num_threads_decides_when_set(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert spf.available_threads() == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "2,1")  # nested levels: the first is the outer team's
    assert spf.available_threads() == 2


def test_else_the_cores_this_process_may_use(monkeypatch):
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert spf.available_threads() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("OMP_NUM_THREADS", "many")  # not a number: OpenMP ignores it too
    assert spf.available_threads() == len(os.sched_getaffinity(0))
