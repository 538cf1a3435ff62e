"""spf's fixed run-time C: the ``.h`` files in this folder, shipped as package data.

The run-time C a kernel calls (the piece scheduler, the find state and hash tables, an
assembled output's stream, workspace, rows and builder) is C in these files, not text in
Python: a compiler, a sanitizer and an editor see it as it is.  A generated source
includes them, each after ``#define`` lines for its parameters (the output's order, the
key type, the builder's prefix: the X-macro idiom), and is compiled with ``-I`` this
folder (:mod:`spf.codegen.toolchain.compiler`).  Included rather than compiled once into a shared library:
most files are parameterized per kernel, and the hot functions (an append, a workspace's
add, a hash lookup) must inline into the kernel's loops.  ``spf compile`` writes a
self-contained ``NAME.c``, each include replaced by the file's text (:func:`inline`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Mapping

DIRECTORY = Path(__file__).resolve().parent

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"(spf_\w+\.h)"[ \t]*(?:\n|\Z)', re.M)
_GUARD = re.compile(r"^#ifndef (\w+)\n#define \1$", re.M)


def files() -> list[Path]:
    """The run-time C files, by name."""
    return sorted(DIRECTORY.glob("*.h"))


def include(header: str, parameters: Mapping[str, object] | None = None) -> str:
    """The C lines including ``header`` with each of ``parameters`` (macro, with its
    arguments if any, -> value) defined before it."""
    lines = [f"#define {name} {value}" for name, value in (parameters or {}).items()]
    return "\n".join([*lines, f'#include "{header}"']) + "\n"


# the files every generated source includes first (a kernel's or a standalone builder's):
# the piece scheduler, the find state kept between calls, the hash map of HashMap finds,
# small helpers
PRELUDE = "".join(include(header) for header in ("spf_base.h", "spf_pieces.h", "spf_state.h", "spf_hash.h"))


def inline(source: str) -> str:
    """``source`` with every include of a run-time file replaced by the file's text, those
    it includes in turn; a file with an include guard only where it is first included (as
    the guard would have it).  The result compiles without this folder."""
    done: set[str] = set()

    def expand(text: str) -> str:
        def replace(match: re.Match) -> str:
            name = match.group(1)
            path = DIRECTORY / name
            if not path.is_file():
                return match.group(0)  # not ours: the compiler says what is missing
            body = path.read_text()
            if _GUARD.search(body):
                if name in done:
                    return ""
                done.add(name)
            return expand(body if body.endswith("\n") else body + "\n")
        return _INCLUDE.sub(replace, text)

    return expand(source)


def stamp() -> str:
    """A hash of every run-time file's name and content: part of a library's cache key, so
    that a changed file builds every kernel again."""
    digest = hashlib.sha256()
    for path in files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
