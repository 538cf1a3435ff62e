"""Keeping the cache directory bounded: least recently used entries go first.

Libraries (:mod:`spf.codegen.toolchain.compiler`), whole kernels
(:mod:`spf.codegen.toolchain.kernel_cache`) and the autoscheduler's searches
(:mod:`spf.runtime.search_cache`) are cached for good, and every change of spf's source or
of a kernel's options adds entries, so without a limit the directory only grows. A use of
an entry sets its modification time (:func:`touch`); after a process adds entries,
:func:`prune_when_due` removes the entries used longest ago until the directory holds at
most 80% of ``$SPF_CACHE_LIMIT_MB`` (default 2048 MiB). It runs at most once an hour
across processes (a stamp file records the last run) and never removes an entry used in
the last :data:`MINIMUM_AGE` seconds, so a library another process has just built and is
about to load stays. Removing is safe while other processes run: a library already loaded
stays mapped, and a kernel entry or library found missing is compiled again.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

DEFAULT_LIMIT_MB = 2048
MINIMUM_AGE = 600.0  # seconds: entries used this recently are never removed
INTERVAL = 3600.0  # seconds between prunings
STAMP = ".pruned"


def limit_bytes() -> int | None:
    """The cache's size limit from ``$SPF_CACHE_LIMIT_MB`` (0: no limit), in bytes."""
    text = os.environ.get("SPF_CACHE_LIMIT_MB", "")
    try:
        megabytes = float(text) if text.strip() else DEFAULT_LIMIT_MB
    except ValueError:
        megabytes = DEFAULT_LIMIT_MB
    return None if megabytes <= 0 else int(megabytes * 2**20)


def touch(path: Path) -> None:
    """Record a use of a cached entry (best effort: a read-only cache still works)."""
    try:
        os.utime(path)
    except OSError:
        pass


def entries(directory: Path) -> list[tuple[float, int, Path]]:
    """(last use, size, path) of every cached file under ``directory`` (temporary files
    being written and the stamp are not entries)."""
    found = []
    for folder in (directory, directory / "kernels", directory / "searches"):
        try:
            listing = list(os.scandir(folder))
        except OSError:
            continue
        for entry in listing:
            if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
                continue
            try:
                status = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            found.append((status.st_mtime, status.st_size, Path(entry.path)))
    return found


def prune(directory: Path, limit: int, now: float | None = None) -> list[Path]:
    """Remove the entries used longest ago until the directory holds at most 80% of
    ``limit`` bytes (none used within MINIMUM_AGE of ``now``); the paths removed."""
    now = time.time() if now is None else now
    found = entries(directory)
    total = sum(size for _, size, _ in found)
    if total <= limit:
        return []
    removed = []
    for used, size, path in sorted(found, key=lambda item: item[0]):
        if total <= 0.8 * limit or now - used < MINIMUM_AGE:
            break
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        removed.append(path)
    return removed


def prune_when_due(directory: Path) -> None:
    """Prune ``directory`` if no process has in the last INTERVAL seconds (best effort)."""
    limit = limit_bytes()
    if limit is None:
        return
    stamp = directory / STAMP
    try:
        if time.time() - stamp.stat().st_mtime < INTERVAL:
            return
    except OSError:
        pass  # never pruned
    try:
        stamp.touch()
        prune(directory, limit)
    except OSError:
        pass
