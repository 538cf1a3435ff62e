"""The cache directory kept under its size limit, least recently used first (spf.codegen.toolchain.cache_limit)."""

from __future__ import annotations

import os
import time

from spf.codegen.toolchain import cache_limit
from spf.codegen.toolchain.compiler import build_shared_library, record_path


def entry(directory, name: str, size: int, used: float):
    path = directory / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(b"x" * size)
    os.utime(path, (used, used))
    return path


def test_the_entries_used_longest_ago_go_first(tmp_path):
    now = time.time()
    old = entry(tmp_path, "old.so", 400, now - 10_000)
    older = entry(tmp_path, "kernels/older.pickle", 400, now - 20_000)
    recent = entry(tmp_path, "recent.so", 400, now - 5_000)
    fresh = entry(tmp_path, "fresh.so", 400, now - 10)  # used within MINIMUM_AGE: kept
    writing = entry(tmp_path, ".x.123.tmp.so", 400, now - 30_000)  # being written: not an entry
    removed = cache_limit.prune(tmp_path, 1000, now)
    assert removed == [older, old]  # down to 800 bytes = 80% of the limit
    assert recent.exists() and fresh.exists() and writing.exists()


def test_under_the_limit_nothing_goes(tmp_path):
    now = time.time()
    kept = entry(tmp_path, "a.so", 100, now - 50_000)
    assert cache_limit.prune(tmp_path, 1000, now) == [] and kept.exists()


def test_recently_used_entries_stay_even_over_the_limit(tmp_path):
    now = time.time()
    kept = [entry(tmp_path, f"{k}.so", 1000, now - 60) for k in range(3)]
    assert cache_limit.prune(tmp_path, 1000, now) == []
    assert all(path.exists() for path in kept)


def test_pruning_runs_at_most_once_an_interval(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_LIMIT_MB", "0.001")  # 1048 bytes
    now = time.time()
    stale = entry(tmp_path, "stale.so", 2000, now - 50_000)
    (tmp_path / cache_limit.STAMP).touch()  # pruned a moment ago
    cache_limit.prune_when_due(tmp_path)
    assert stale.exists()
    os.utime(tmp_path / cache_limit.STAMP, (now - 2 * cache_limit.INTERVAL,) * 2)
    cache_limit.prune_when_due(tmp_path)
    assert not stale.exists()


def test_no_limit_when_set_to_zero(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_LIMIT_MB", "0")
    assert cache_limit.limit_bytes() is None
    stale = entry(tmp_path, "stale.so", 2000, time.time() - 50_000)
    cache_limit.prune_when_due(tmp_path)
    assert stale.exists()


def test_a_library_hit_records_its_use(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    source = "int spf_cache_limit_probe(void) { return 3; }\n"
    library = build_shared_library(source, name="probe")
    record = record_path(library)
    os.utime(library, (1, 1))
    os.utime(record, (1, 1))
    assert build_shared_library(source, name="probe") == library
    assert library.stat().st_mtime > time.time() - 60
    assert record.stat().st_mtime > time.time() - 60  # pruned with its library, not before it
