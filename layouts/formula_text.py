"""Formula text inside a layout directive (isl syntax): params replaced by their values
before parsing, calls and tuple variables found by offset, and every offset mapped back
to the file's line and column for errors."""

from __future__ import annotations

import re
from typing import Callable, Mapping

from spf.errors import LayoutError, ParseError
from spf.space.expressions import tokenize

from spf.layout_library.source import IDENTIFIER, Directive, too_large


def replace_parameters(text: str, values: Mapping[str, int]) -> tuple[str, Callable[[int], int]]:
    """``text`` with each param name replaced by its value, and a map back to offsets.

    Replacing before parsing keeps ``R*pI`` affine.  A name followed by ``(`` is a call
    and is left alone (the caller reports it).
    """
    pieces: list[str] = []
    edits: list[tuple[int, int, int, int]] = []  # old start, old end, new start, new end
    kept_until = 0
    new_length = 0
    for match in IDENTIFIER.finditer(text):
        if match.group() not in values or text[match.end():].lstrip().startswith("("):
            continue
        pieces.append(text[kept_until:match.start()])
        new_length += match.start() - kept_until
        replacement = str(values[match.group()])
        pieces.append(replacement)
        edits.append((match.start(), match.end(), new_length, new_length + len(replacement)))
        new_length += len(replacement)
        kept_until = match.end()
    pieces.append(text[kept_until:])

    def to_original(offset: int) -> int:
        shift = 0
        for old_start, old_end, new_start, new_end in edits:
            if offset < new_start:
                break
            if offset < new_end:
                return old_start
            shift = new_end - old_end
        return offset - shift

    return "".join(pieces), to_original


def call_sites(text: str) -> list[tuple[str, int, int]]:
    """Every call ``name(...)`` in formula text: (name, offset, number of arguments)."""
    tokens = tokenize(text)
    sites = []
    for index, token in enumerate(tokens[:-1]):
        if token.kind != "name" or tokens[index + 1].text != "(":
            continue
        depth, commas, empty = 0, 0, tokens[index + 2].text == ")"
        for inner in tokens[index + 1:]:
            if inner.text == "(":
                depth += 1
            elif inner.text == ")":
                depth -= 1
                if depth == 0:
                    break
            elif inner.text == "," and depth == 1:
                commas += 1
        sites.append((token.text, token.offset, 0 if empty else commas + 1))
    return sites


def tuple_offsets(text: str) -> tuple[list[int], list[int]]:
    """Offsets of the variables of the two tuples of ``{ [...] -> [...] ... }``."""
    tuples: list[list[int]] = []
    inside = False
    for token in tokenize(text):
        if token.text == "[":
            tuples.append([])
            inside = True
        elif token.text == "]":
            inside = False
            if len(tuples) == 2:
                break
        elif inside and token.kind == "name":
            tuples[-1].append(token.offset)
    return tuples[0], tuples[1] if len(tuples) > 1 else []


class FormulaText:
    """A piece of a directive in isl syntax, with params replaced by their values.

    ``parsed_text`` is what the spf parser sees (``prefix`` + replaced text +
    ``suffix``); offsets into it map back to the file through :meth:`error`.
    """

    def __init__(self, directive: Directive, start: int, end: int,
                 parameters: Mapping[str, int], prefix: str = "", suffix: str = ""):
        self.directive = directive
        self.start = start
        self.original = directive.text[start:end]
        self.parameters = parameters
        self.replaced, self._to_original = replace_parameters(self.original, parameters)
        self.prefix = prefix
        self.parsed_text = prefix + self.replaced + suffix

    def directive_offset(self, offset: int) -> int:
        """The offset in the directive's text of ``offset`` in the parsed text."""
        inner = min(max(offset - len(self.prefix), 0), len(self.replaced))
        return self.start + self._to_original(inner)

    def error(self, offset: int, message: str) -> LayoutError:
        """A LayoutError at ``offset`` of the parsed text, placed in the file."""
        return self.directive.error(self.directive_offset(offset), message)

    def location(self, offset: int) -> tuple[int, int]:
        """The file line and column of ``offset`` in the parsed text."""
        return self.directive.position(self.directive_offset(offset))

    def parse(self, parse: Callable[[str], object]) -> object:
        """``parse(parsed_text)``, with a ParseError turned into a LayoutError."""
        try:
            for token in tokenize(self.parsed_text):
                if token.kind == "number" and too_large(token.text):
                    raise self.error(token.offset, too_large(token.text))
            return parse(self.parsed_text)
        except ParseError as error:
            message = error.message.replace(
                "expected '}' to close the set", "expected ':' and the constraints")
            if error.offset >= len(self.prefix) + len(self.replaced):
                message = re.sub(r"found '\}'$", "found the end of the text", message)
            original_offset = self.directive_offset(error.offset) - self.start
            name = IDENTIFIER.match(self.original, original_offset)
            if name and name.group() in self.parameters:
                message += (f" ({name.group()} is a param, replaced by its value "
                            f"{self.parameters[name.group()]})")
            raise self.error(error.offset, message) from None

    def call_sites(self) -> list[tuple[str, int, int]]:
        """Every call in the parsed text (:func:`call_sites`)."""
        return call_sites(self.parsed_text)
