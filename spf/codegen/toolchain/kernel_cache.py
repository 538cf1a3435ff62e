"""The whole-kernel cache: a compiled kernel's description (:class:`~codegen.compiled.CompiledKernel`:
its iteration spaces, find proofs, loop nests, C and metadata) kept for the process and on
disk, so a repeated ``spf.compile`` skips isl and Z3.  It sits with the compiler: it keeps
the compiler's plain output, and the run time builds a new Kernel around each description
it returns, so the cache needs nothing from the run time.

The key is everything that decides the kernel: the expression, each tensor's layout as
loaded (its parsed content, and for a family the state of its member files), the
options (find policy, share, parallel, loop order, recipe, C flags, kept zeros) and spf's
own source (the modification time and size of every module, run-time C file and built-in
layout file, so editing spf invalidates every entry).  The C compiler is not part of it: the shared
library is cached apart, under the compiler's identity (:mod:`spf.codegen.toolchain.compiler`).

On disk an entry is a pickle in ``cache_directory()/kernels`` after a line holding its
SHA-256 (:mod:`spf.codegen.toolchain.pickled_entry`); one that cannot be read or does not
match its digest is compiled again and replaced.  An autoscheduled candidate is not cached
(its tree is the schedule).  Entries used longest ago are removed when the cache outgrows
its limit (spf.codegen.toolchain.cache_limit).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from spf.layout_library.layout_input import load_layout_argument
from spf.layout_library.loader import is_path
from spf.layout_library.model import LayoutFamily
from spf.notation.semirings import semiring_key

from spf.codegen.toolchain.cache_folder import cache_directory
from spf.codegen.toolchain.pickled_entry import read_entry, write_entry

if TYPE_CHECKING:
    from spf.codegen.compiled import CompiledKernel
    from spf.codegen.pipeline import Options

HEADER = b"spf-kernel sha256="  # then the pickle's digest in hex, a newline and the pickle


class KernelMemory:
    """The kernel descriptions of this process: ``entries`` cache key -> CompiledKernel, as
    first compiled or loaded from disk.  Entries stay for the process (a key names spf's
    source and every input of the compile, so an entry never goes stale within it)."""

    def __init__(self) -> None:
        self.entries: dict[str, CompiledKernel] = {}


MEMORY = KernelMemory()  # one per process: what a repeated spf.compile finds


def source_files() -> list[Path]:
    """spf's own source: every module, run-time C file (spf/codegen/c/runtime) and built-in
    layout file, found without importing spf."""
    files: list[Path] = []
    for package in ("spf", "spf.layout_library"):
        root = Path(importlib.util.find_spec(package).origin).parent
        files += sorted(root.rglob("*.py")) + sorted(root.rglob("*.h")) + sorted(root.glob("*.layout"))
    return files


@functools.lru_cache(maxsize=1)
def source_stamp() -> str:
    """spf's own source (:func:`source_files`) as (path, modification time, size) of each
    file, hashed: computed once per process."""
    entries = []
    for path in source_files():
        status = path.stat()
        entries.append((str(path), status.st_mtime_ns, status.st_size))
    return hashlib.sha256(json.dumps(entries).encode()).hexdigest()


def _layout_key(value) -> object:
    """What identifies a layout argument's content: a built-in spec itself; otherwise the
    loaded layout's full description (a file's parsed text, parameters bound), and a
    family's member files by their state."""
    if isinstance(value, str) and not is_path(value):
        return ["built-in", value]  # its file is part of source_stamp()
    layout = load_layout_argument(value)
    key = [repr(layout)]
    if isinstance(layout, LayoutFamily):
        for path in layout.member_paths:
            try:
                status = os.stat(path)
                key.append((path, status.st_mtime_ns, status.st_size))
            except OSError:
                key.append((path, None))
    return key


def kernel_key(expression: str, layouts: dict, options: Options) -> str:
    """The cache key of a compile (see the module docstring)."""
    text = json.dumps([source_stamp(), expression, sorted((name, _layout_key(value)) for name, value in layouts.items()),
                       options.find, sorted(options.share.items()), options.parallel,
                       list(options.order) if options.order else None, repr(options.recipe), list(options.flags),
                       options.keep_zeros, options.infer_pattern, options.specialize, semiring_key(options.semiring),
                       list(options.pattern)], default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(key: str) -> Path:
    directory = cache_directory() / "kernels"
    directory.mkdir(exist_ok=True)
    return directory / f"{key[:32]}.pickle"


def _fresh(kernel: CompiledKernel, where: str) -> CompiledKernel:
    """The description, marked with where it came from ("memory" or "disk")."""
    return dataclasses.replace(kernel, cached=where)


def lookup(key: str) -> CompiledKernel | None:
    """The cached kernel description of ``key`` (from memory, else from disk), or None."""
    kernel = MEMORY.entries.get(key)
    if kernel is not None:
        return _fresh(kernel, "memory")
    try:
        path = _path(key)
    except OSError:  # a folder that cannot be made: compile again
        return None
    kernel = read_entry(path, HEADER)
    if getattr(kernel, "cache_key", None) != key:
        return None
    MEMORY.entries[key] = kernel
    return _fresh(kernel, "disk")


def store(key: str, kernel: CompiledKernel) -> None:
    """Keep the description ``kernel`` for ``key`` in memory and on disk (best effort: a full
    disk or a read-only cache directory only costs the next process a compile)."""
    kernel = dataclasses.replace(kernel, cache_key=key, cached="")
    MEMORY.entries[key] = kernel
    try:
        path = _path(key)
    except OSError:
        return
    write_entry(path, HEADER, kernel)
