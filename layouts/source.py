"""Reading layout files: directives with their positions, and a small text reader.

A layout file is line oriented.  :func:`split_directives` turns it into
:class:`Directive` objects whose ``text`` is everything after the keyword, including
indented continuation lines (joined with newlines, comments removed).  Every offset
into ``text`` maps back to the file's line and column, so errors point at the
character that is wrong.

:class:`Reader` walks a directive's text: names, punctuation and integer arithmetic
(:class:`~.model.Arith`), raising :class:`TextError` at an offset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spf.errors import LayoutError, TextError

from spf.space.expressions import MAX_NESTING

from spf.layout_library.model import Arith, Name, Number, ShapeRef, binary, negate

DIRECTIVES = ("layout", "family", "description", "param", "field", "shape", "relation",
              "values", "assume", "property", "padded")

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
INTEGER = re.compile(r"[0-9]+")
LARGEST_INTEGER = 2**63 - 1
"""The largest integer a layout may write or bind (kernels compute in C's int64_t)."""


def too_large(literal: str) -> str | None:
    """Why an integer literal cannot be used, or None when it can."""
    if int(literal) > LARGEST_INTEGER:
        return f"integer {literal} is too large; the largest is 2**63 - 1 = {LARGEST_INTEGER}"
    return None


@dataclass
class Directive:
    """One directive: its keyword, where it starts, and its text after the keyword."""

    path: str
    keyword: str
    line: int
    column: int
    text: str = ""
    # (offset in text, file line, file column) where each joined line starts
    segments: list[tuple[int, int, int]] = field(default_factory=list)

    def add_line(self, content: str, line: int, column: int) -> None:
        if self.segments:
            self.text += "\n"
        self.segments.append((len(self.text), line, column))
        self.text += content

    def position(self, offset: int) -> tuple[int, int]:
        """The file line and column of ``offset`` in ``text`` (clamped to its end)."""
        offset = max(0, min(offset, len(self.text)))
        start, line, column = self.segments[0]
        for segment in self.segments:
            if segment[0] <= offset:
                start, line, column = segment
        return line, column + offset - start

    def error(self, offset: int, message: str) -> LayoutError:
        line, column = self.position(offset)
        return LayoutError(self.path, line, column, message)

    def error_at_keyword(self, message: str) -> LayoutError:
        return LayoutError(self.path, self.line, self.column, message)

    def text_start(self) -> int:
        """Offset of the first non-blank character of the text (its length if none)."""
        return len(self.text) - len(self.text.lstrip())


def strip_comment(line: str) -> str:
    """The line without its ``#`` comment (a ``#`` inside double quotes is kept)."""
    in_quotes = False
    escaped = False
    for index, character in enumerate(line):
        if escaped:
            escaped = False
        elif character == "\\" and in_quotes:
            escaped = True
        elif character == '"':
            in_quotes = not in_quotes
        elif character == "#" and not in_quotes:
            return line[:index]
    return line


def split_directives(text: str, path: str) -> list[Directive]:
    """The directives of a layout file, in order, with continuation lines joined."""
    directives: list[Directive] = []
    for line_number, raw_line in enumerate(text.splitlines(), start=1):
        content = strip_comment(raw_line).rstrip()
        if not content.strip():
            continue
        if content[0].isspace():
            if not directives:
                column = len(content) - len(content.lstrip()) + 1
                raise LayoutError(path, line_number, column,
                                  "an indented line continues the previous directive, "
                                  "but there is none; expected a directive at column 1")
            directives[-1].add_line(content, line_number, 1)
            continue
        match = IDENTIFIER.match(content)
        keyword = match.group() if match else ""
        if keyword not in DIRECTIVES:
            found = keyword or content.split()[0]
            raise LayoutError(path, line_number, 1,
                              f"unknown directive {found!r}; expected one of "
                              + ", ".join(DIRECTIVES))
        directive = Directive(path, keyword, line_number, 1)
        directive.add_line(content[len(keyword):], line_number, len(keyword) + 1)
        directives.append(directive)
    return directives


class Reader:
    """A cursor over a directive's text with small parsing helpers.

    ``name_uses`` and ``shape_uses`` record every name and ``shape[k]`` read by
    :meth:`arith`, with their offsets, so callers can check them in context.
    """

    def __init__(self, text: str, position: int = 0):
        self.text = text
        self.position = position
        self.depth = 0  # of parentheses, bounded so that the recursion stays off the stack limit
        self.name_uses: list[tuple[str, int]] = []
        self.shape_uses: list[tuple[int, int]] = []

    # -- primitives
    def skip_space(self) -> None:
        while self.position < len(self.text) and self.text[self.position].isspace():
            self.position += 1

    def at_end(self) -> bool:
        self.skip_space()
        return self.position >= len(self.text)

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.position] if self.position < len(self.text) else ""

    def found(self) -> str:
        """What is at the cursor, for error messages."""
        if self.at_end():
            return "end of the directive"
        match = IDENTIFIER.match(self.text, self.position) or INTEGER.match(self.text, self.position)
        return repr(match.group() if match else self.text[self.position])

    def fail(self, expected: str) -> TextError:
        self.skip_space()
        return TextError(self.position, f"expected {expected}, found {self.found()}")

    def accept(self, token: str) -> bool:
        self.skip_space()
        if self.text.startswith(token, self.position):
            self.position += len(token)
            return True
        return False

    def expect(self, token: str, expected: str | None = None) -> int:
        self.skip_space()
        start = self.position
        if not self.accept(token):
            raise self.fail(expected or repr(token))
        return start

    def identifier(self, expected: str = "a name") -> tuple[str, int]:
        self.skip_space()
        match = IDENTIFIER.match(self.text, self.position)
        if not match:
            raise self.fail(expected)
        self.position = match.end()
        return match.group(), match.start()

    def expect_end(self, expected: str = "the end of the directive") -> None:
        if not self.at_end():
            raise self.fail(expected)

    # -- integer arithmetic: expr := term (('+'|'-') term)*, term := unary (('*'|'/') unary)*
    def arith(self) -> Arith:
        value = self._term()
        while self.peek() in ("+", "-"):
            op = self.peek()
            self.position += 1
            value = binary(op, value, self._term())
        return value

    def _term(self) -> Arith:
        value = self._unary()
        while self.peek() in ("*", "/"):
            op = self.peek()
            self.position += 1
            self.skip_space()
            divisor_offset = self.position
            right = self._unary()
            if op == "/" and right == Number(0):
                raise TextError(divisor_offset, "division by zero")
            value = binary(op, value, right)
        return value

    def _unary(self) -> Arith:
        negated = False
        while self.accept("-"):  # a chain of minus signs, folded without recursion
            negated = not negated
        value = self._primary()
        return negate(value) if negated else value

    def _primary(self) -> Arith:
        self.skip_space()
        start = self.position
        number = INTEGER.match(self.text, start)
        if number:
            problem = too_large(number.group())
            if problem:
                raise TextError(start, problem)
            self.position = number.end()
            return Number(int(number.group()))
        if self.accept("("):
            if self.depth >= MAX_NESTING:
                raise TextError(start, f"parentheses nested deeper than {MAX_NESTING}")
            self.depth += 1
            inner = self.arith()
            self.depth -= 1
            self.expect(")", "')' to close the parenthesis")
            return inner
        match = IDENTIFIER.match(self.text, start)
        if not match:
            raise self.fail("a number, a name, shape[k] or '('")
        self.position = match.end()
        name = match.group()
        if name == "shape":
            self.expect("[", "'[' after shape")
            self.skip_space()
            index_start = self.position
            index = INTEGER.match(self.text, index_start)
            if not index:
                raise self.fail("an integer index k in shape[k]")
            if too_large(index.group()):
                raise TextError(index_start, too_large(index.group()))
            self.position = index.end()
            self.expect("]", "']' to close shape[k]")
            self.shape_uses.append((int(index.group()), start))
            return ShapeRef(int(index.group()))
        if self.peek() == "(":
            raise TextError(start, f"a call of {name!r} is not allowed in integer arithmetic; "
                                   "expected a number, a name or shape[k]")
        self.name_uses.append((name, start))
        return Name(name)


def split_arguments(text: str, open_offset: int) -> tuple[list[tuple[str, int]], int]:
    """The comma-separated arguments after the ``(`` at ``open_offset``.

    Returns ``[(argument text, offset of its first character), ...]`` and the offset
    of the closing ``)``.  Nested parentheses are respected.
    """
    arguments: list[tuple[str, int]] = []
    depth = 0
    start = open_offset + 1
    for offset in range(open_offset + 1, len(text)):
        character = text[offset]
        if character == "(":
            depth += 1
        elif character == ")" and depth > 0:
            depth -= 1
        elif character in ",)" and depth == 0:
            raw = text[start:offset]
            stripped_start = start + len(raw) - len(raw.lstrip())
            arguments.append((raw.strip(), stripped_start if raw.strip() else offset))
            if character == ")":
                return arguments, offset
            start = offset + 1
    raise TextError(len(text), "expected ')' to close the argument list, found end of the directive")
