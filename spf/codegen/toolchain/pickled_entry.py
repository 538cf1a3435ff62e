"""A cache entry on disk: a pickle after a line holding its SHA-256.

Written to a temporary file and renamed into place, so concurrent processes never read
half an entry; one that cannot be read, or whose pickle does not match its digest
(another spf's, a truncated, emptied or overwritten file), reads as missing, since a
damaged pickle may still unpickle into something else.  Writing is best effort: a full
disk or a read-only folder only costs a later process the work again.  The whole-kernel
cache (:mod:`spf.codegen.toolchain.kernel_cache`) and the autoscheduler's searches
(:mod:`spf.runtime.search_cache`) keep their entries so.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from spf.codegen.toolchain.cache_folder import cache_directory
from spf.codegen.toolchain.cache_limit import prune_when_due, touch
from spf.codegen.toolchain.compiler import temporary_beside


def read_entry(path: Path, header: bytes) -> object | None:
    """The value kept at ``path`` under ``header`` (its use recorded), or None."""
    try:
        first, _, payload = path.read_bytes().partition(b"\n")
        if first != header + hashlib.sha256(payload).hexdigest().encode():
            return None
        value = pickle.loads(payload)
    except Exception:  # none, another spf's entry, a folder that cannot be read
        return None
    touch(path)
    return value


def write_entry(path: Path, header: bytes, value: object) -> None:
    """Keep ``value`` at ``path`` under ``header``, then bound the cache folder."""
    temporary = None
    try:
        temporary = temporary_beside(path)
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.write_bytes(header + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
        os.replace(temporary, path)
        prune_when_due(cache_directory())
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        if temporary is not None:
            try:
                temporary.unlink(missing_ok=True)
            except OSError:
                pass
