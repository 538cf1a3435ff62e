"""Every exception class of spf, in one module.

Every error a user can cause derives from :class:`SpfError` (a refusal: it names the
problem and what to do), so callers (and the command line) can catch one type and
print one clear line without a traceback.  :class:`SpfInternalError` is the opposite:
an inconsistency inside spf, a bug, which is deliberately *not* an SpfError so that no
caller mistakes it for a refusal.
"""

from __future__ import annotations

UNNAMED = "(unnamed)"
"""The name messages give a tensor its user named nothing: "tensor (unnamed): ..."."""


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
    """spf cannot use its kernel cache folder and compiles without it (spf.codegen.toolchain.cache_folder)."""


class ShortCallWarning(UserWarning):
    """The C short call path could not be built or loaded: calls take the Python one (spf.runtime.short_call)."""


class IterationSpaceError(SpfError):
    """A statement and layouts that do not fit together (orders, names, shapes)."""


class SpfInternalError(Exception):
    """A bug in spf, not a refusal: an internal inconsistency (a malformed loop nest
    between two passes, codegen.verify; a case the code holds cannot happen).  Not an
    :class:`SpfError`, so nothing that catches refusals catches it."""

    def __init__(self, message: str):
        super().__init__(f"this is a bug in spf: {message}")


# ----------------------------------------------------------------------------- refusals of the compiler


class ScanError(SpfError):
    """An iteration space or loop order the scanner cannot handle (spf.codegen.scanning.scan)."""


class FindRefused(SpfError):
    """A requested find template that is not proven valid (spf.codegen.finds.find)."""


class AssemblyRefused(SpfError):
    """The assembly cannot establish a layout's arrays; the message names the level and why
    (codegen.assembly)."""


class RecipeError(SpfError):
    """A recipe step that is malformed or that the dependences or proofs forbid (spf.scheduling.recipe)."""


class AutoscheduleError(SpfError):
    """A computation or layout the autoscheduler cannot schedule (spf.scheduling.autoscheduler)."""


class ScheduleError(AutoscheduleError):
    """An invalid schedule tree or transformation (spf.scheduling.autoscheduler.tree)."""


# ----------------------------------------------------------------------------- distributed memory


class DistributionError(SpfError):
    """A tensor, kernel or operand that spf.distributed cannot split correctly."""


class RankError(SpfError):
    """Another rank failed a step every rank takes together (spf.distributed)."""


# ----------------------------------------------------------------------------- the command line and layout files


class UsageError(SpfError):
    """A malformed command line (exit status 2, as argparse's own errors; spf.cli.commands)."""


class TextError(Exception):
    """A problem at ``offset`` in a layout directive's text: raised while reading a layout
    file and converted to a :class:`LayoutError` at the file's line and column by the
    layout reader (spf.layout_library), so never seen by users."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message
