"""The autoscheduler's searches, kept: a repeated ``spf.autoschedule`` reads its search.

The search (:func:`spf.scheduling.autoscheduler.search.frontier`, or the exhaustive
enumeration) is a pure function of the problem (its output, the factors with their
storage levels, what the output shares) and of spf's own source (the work model's
constants are in it), and it is the costly part of ``autoschedule``: 2 s for TTTc's two
mode orders.  So its result is kept like a compiled kernel's description
(:mod:`spf.codegen.toolchain.kernel_cache`): for the process, and on disk in
``cache_directory()/searches`` as a pickle after its digest
(:mod:`spf.codegen.toolchain.pickled_entry`), under a key of everything the search reads
and spf's source stamp (editing spf makes every entry stale).  Stage 3's pruning, Z3
queries under a resource limit (deterministic), is kept the same way under a key of the
problems, the user's constraints and the buckets it compared; the run-time choice runs
anew at every call.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from spf.codegen.toolchain.cache_folder import cache_directory
from spf.codegen.toolchain.kernel_cache import source_stamp
from spf.codegen.toolchain.pickled_entry import read_entry, write_entry
from spf.scheduling.autoscheduler.cost import Cost
from spf.scheduling.autoscheduler.problem import Problem
from spf.scheduling.autoscheduler.search import Scored

HEADER = b"spf-search sha256="  # then the pickle's digest in hex, a newline and the pickle

MEMORY: dict[str, object] = {}  # key -> a search's or a pruning's result, for the process


def search_key(problem: Problem, exhaustive: bool) -> str:
    """Everything a search reads of ``problem`` (not the layouts' files: their storage
    levels are in the factors), which search, spf's source and numpy's version (the
    size probes are drawn with its generator), hashed."""
    factors = [[f.name, list(f.indices), list(f.levels), list(f.dense_levels), sorted(f.contains), f.temporary]
               for f in problem.factors]
    text = json.dumps([source_stamp(), np.__version__, "exhaustive" if exhaustive else "frontier",
                       problem.expression, problem.output, list(problem.output_indices), factors,
                       sorted(problem.share.items()), problem.accumulate])
    return hashlib.sha256(text.encode()).hexdigest()


def _path(key: str) -> Path:
    directory = cache_directory() / "searches"
    directory.mkdir(exist_ok=True)
    return directory / f"{key[:32]}.pickle"


def pruning_key(problem: Problem, also: Sequence[Problem], constraints: Sequence[str], most_queries: int,
                buckets: Sequence[tuple[Cost, Cost]]) -> str:
    """What stage 3 reads: the problem and the copies' problems (their search keys), the user's
    constraints, the solver's query budget and the (work, memory) buckets it compares."""
    distinct = {id(p): p for p in (problem, *also)}.values()  # ``also`` names a copy's problem per candidate
    problems = list(dict.fromkeys(search_key(p, False) for p in distinct))
    text = json.dumps([source_stamp(), "pruning", problems, list(constraints), most_queries,
                       [[repr(work), repr(memory)] for work, memory in buckets]])
    return hashlib.sha256(text.encode()).hexdigest()


def cached_search(problem: Problem, exhaustive: bool, search: Callable[[], list[Scored]],
                  use_cache: bool = True) -> tuple[list[Scored], bool]:
    """The result of ``search()`` for ``problem``, and whether it was read from the cache
    (in memory or on disk).  ``use_cache=False`` searches again (and keeps the result)."""
    found, read = kept_or_computed(search_key(problem, exhaustive), search, use_cache)
    return list(found), read


def kept_or_computed(key: str, compute: Callable[[], object], use_cache: bool = True) -> tuple[object, bool]:
    """The value kept for ``key`` (from memory, else from disk) and True, or ``compute()``'s,
    kept, and False; ``use_cache=False`` computes again."""
    if use_cache:
        found = MEMORY.get(key)
        if found is None:
            found = _read(key)
        if found is not None:
            MEMORY[key] = found
            return found, True
    value = compute()
    MEMORY[key] = value
    try:
        write_entry(_path(key), HEADER, [key, value])
    except OSError:
        pass  # a folder that cannot be made: the next process computes again
    return value, False


def _read(key: str) -> object | None:
    try:
        entry = read_entry(_path(key), HEADER)
    except OSError:
        return None
    if not isinstance(entry, list) or len(entry) != 2 or entry[0] != key:
        return None
    return entry[1]
