"""The errors spf raises at its users.

Every error a user can cause derives from :class:`SpfError`, so callers (and the
command line) can catch one type and print one clear line without a traceback.
"""

from __future__ import annotations


class SpfError(Exception):
    """Base class of every error spf reports to its users."""


class ParseError(SpfError):
    """Malformed text (constraint, relation, expression) at a character offset."""

    def __init__(self, message: str, text: str, offset: int):
        self.message = message
        self.text = text
        self.offset = max(0, min(offset, len(text)))
        super().__init__(self._render())

    @property
    def line(self) -> int:
        return self.text.count("\n", 0, self.offset) + 1

    @property
    def column(self) -> int:
        return self.offset - (self.text.rfind("\n", 0, self.offset) + 1) + 1

    def _render(self) -> str:
        line_start = self.text.rfind("\n", 0, self.offset) + 1
        line_end = self.text.find("\n", self.offset)
        if line_end < 0:
            line_end = len(self.text)
        source_line = self.text[line_start:line_end]
        caret = " " * (self.offset - line_start) + "^"
        return f"column {self.column}: {self.message}\n  {source_line}\n  {caret}"


class NotationError(ParseError):
    """A malformed tensor index notation statement."""


class LayoutError(SpfError):
    """A malformed layout file, reported as file:line:col and what was expected."""

    def __init__(self, path: str, line: int, column: int, message: str):
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"{path}:{line}:{column}: {message}")


class LayoutSpecError(SpfError):
    """A malformed layout spec or parameter binding, such as ``BCSR(R=0)``."""


class UnknownLayoutError(SpfError):
    """A layout name that is neither built in nor an existing file."""


class PackError(SpfError):
    """Data that does not fit a layout or breaks one of its declared properties."""


class PropertyViolation(PackError):
    """Packed arrays that break a declared index-array property."""

    def __init__(self, tensor: str, array: str, property_text: str, detail: str):
        self.tensor = tensor
        self.array = array
        self.property_text = property_text
        self.detail = detail
        super().__init__(
            f"tensor {tensor}: array {array!r} breaks property {property_text}: {detail}"
        )


class UnboundNameError(SpfError, KeyError):
    """A name with no value where an expression is evaluated (also a KeyError).

    Packing raises it when a layout's relation uses a name before packing has computed
    it; the packer reports that as a LayoutError at the name.
    """

    def __init__(self, name: str, expression: object):
        self.name = name
        self.expression = expression
        super().__init__(f"no value for {name!r} when evaluating {expression}")

    def __str__(self) -> str:
        return str(self.args[0])


class ArgumentError(SpfError):
    """A public function called with an argument of the wrong type or an impossible value."""


class OutOfMemoryError(SpfError, MemoryError):
    """An array too large for this machine's memory (refused before allocating it), or an
    allocation that failed; also a MemoryError, for callers that catch that."""


class CacheWarning(UserWarning):
    """spf cannot use its kernel cache folder and compiles without it (codegen.cache_folder)."""


class IterationSpaceError(SpfError):
    """A statement and layouts that do not fit together (orders, names, shapes)."""
