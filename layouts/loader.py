"""Finding and loading layouts: built-in names, ``NAME(k=v, ...)`` specs and files.

>>> load_layout("BCSR(R=2, C=3)").spec
'BCSR(R=2, C=3)'

Built-in layouts are the ``*.layout`` files next to this module.  Parsed files are
cached on (path, modification time, parameters), so an edited file is re-read.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import re
from pathlib import Path

from spf.errors import LayoutError, UnknownLayoutError

from spf.layout_library.builder import BUILTIN_DIRECTORY, LayoutSpecError, build_layout, check_parameter_value
from spf.layout_library.model import Layout, LayoutFamily

SPEC = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*", re.DOTALL)
BINDING = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*", re.DOTALL)
SPEC_FORM = "NAME or NAME(param=value, ...)"


def available_layouts() -> list[str]:
    """Every built-in layout and family name, sorted."""
    return sorted(path.stem for path in BUILTIN_DIRECTORY.glob("*.layout"))


def load_layout(spec: str | os.PathLike, **parameters: int) -> Layout | LayoutFamily:
    """The layout (or family) named by ``spec``, with ``parameters`` bound.

    ``spec`` is a built-in name (``"CSR"``), a name with parameters
    (``"BCSR(R=2, C=3)"``) or the path of a ``.layout`` file (a Path, or a string
    containing ``/`` or ending in ``.layout``).
    """
    if is_path(spec):
        path = Path(spec).expanduser()
        if not path.is_file():
            raise UnknownLayoutError(f"no layout file at {str(path)!r}")
        bindings = dict(parameters)
    else:
        name, from_spec = parse_spec(spec)
        path = BUILTIN_DIRECTORY / f"{name}.layout"
        if not path.is_file():
            raise UnknownLayoutError(_unknown_name_message(name))
        bindings = _merge_bindings(spec, from_spec, parameters)
    try:
        checked = {name: check_parameter_value(name, value) for name, value in bindings.items()}
    except LayoutSpecError as error:
        raise LayoutSpecError(f"layout {spec}: {error}") from None
    resolved = _resolved(path)
    try:
        modification_time = resolved.stat().st_mtime_ns
    except OSError as error:
        raise UnknownLayoutError(f"cannot read layout file {str(path)!r}: {error.strerror}") from None
    loaded = _load_file(str(resolved), modification_time, tuple(sorted(checked.items())))
    if isinstance(loaded, LayoutFamily) and checked:
        loaded.layouts()  # every member must accept the parameters
    return loaded


@functools.lru_cache(maxsize=512)
def _resolved(path: Path) -> Path:
    """``path.resolve()``, remembered: a realpath walk per call was most of the cost of
    loading an already loaded layout."""
    return path.resolve()


def parse_layout_text(text: str, path: str = "<string>",
                      parameters: dict[str, int] | None = None) -> Layout | LayoutFamily:
    """Parse layout-file text directly (for tests and tools); ``path`` is for messages."""
    return _with_member_loader(build_layout(text, str(path), parameters))


def parse_spec(spec: str) -> tuple[str, dict[str, int]]:
    """``"BCSR(R=2, C=3)"`` -> ``("BCSR", {"R": 2, "C": 3})``."""
    if not isinstance(spec, str):
        raise LayoutSpecError(f"expected a layout spec ({SPEC_FORM}) or a path, got {spec!r}")
    match = SPEC.fullmatch(spec)
    if not match:
        raise LayoutSpecError(f"malformed layout spec {spec!r}: expected {SPEC_FORM}")
    name, inside = match.group(1), match.group(2)
    bindings: dict[str, int] = {}
    if inside is None or not inside.strip():
        return name, bindings
    for part in inside.split(","):
        binding = BINDING.fullmatch(part)
        if not binding:
            raise LayoutSpecError(f"malformed layout spec {spec!r}: expected param=value, "
                                  f"found {part.strip()!r}")
        key, value = binding.groups()
        if key in bindings:
            raise LayoutSpecError(f"layout spec {spec!r} gives parameter {key} twice")
        if not re.fullmatch(r"[+-]?[0-9]+", value):
            raise LayoutSpecError(f"layout spec {spec!r}: parameter {key} must be a positive "
                                  f"integer, got {value!r}")
        bindings[key] = int(value)
    return name, bindings


@functools.lru_cache(maxsize=256)
def _load_file(path: str, modification_time: int,
               parameters: tuple[tuple[str, int], ...]) -> Layout | LayoutFamily:
    return _with_member_loader(build_layout(read_text(path), path, dict(parameters)))


def _with_member_loader(loaded: Layout | LayoutFamily) -> Layout | LayoutFamily:
    """A family learns how to load its members (model.py cannot import this module)."""
    return dataclasses.replace(loaded, load_member=load_layout) if isinstance(loaded, LayoutFamily) else loaded


def read_text(path: str) -> str:
    """The text of a layout file; a file that is not UTF-8 text is a LayoutError at the first bad byte."""
    try:
        content = Path(path).read_bytes()
    except OSError as error:
        raise UnknownLayoutError(f"cannot read layout file {path!r}: {error.strerror}") from None
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = content.rfind(b"\n", 0, error.start) + 1
        line = content.count(b"\n", 0, error.start) + 1
        raise LayoutError(path, line, error.start - line_start + 1,
                          f"not a text file: byte 0x{content[error.start]:02x} is not UTF-8; a layout file "
                          "is UTF-8 text") from None


def is_path(spec: object) -> bool:
    """Whether a layout argument names a file (a path object, a slash, or ``.layout``) rather than a built-in."""
    if isinstance(spec, os.PathLike):
        return True
    return isinstance(spec, str) and ("/" in spec or os.sep in spec or spec.endswith(".layout"))


def _merge_bindings(spec: str, from_spec: dict[str, int], keywords: dict[str, object]) -> dict:
    for key, value in keywords.items():
        if key in from_spec and from_spec[key] != value:
            raise LayoutSpecError(f"parameter {key} is {from_spec[key]} in {spec!r} "
                                  f"but {value!r} as a keyword argument")
    return {**from_spec, **keywords}


def _unknown_name_message(name: str) -> str:
    names = available_layouts()
    message = f"unknown layout {name!r}"
    same_letters = [known for known in names if known.lower() == name.lower()]  # 'csr': CSR
    close = same_letters or difflib.get_close_matches(name, names, n=1)
    if close:
        message += f" (did you mean {close[0]}?)"
    return message + "; available layouts: " + ", ".join(names)
