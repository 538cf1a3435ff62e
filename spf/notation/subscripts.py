"""NumPy's einsum subscripts (``"ij,jk->ik"``) as tensor index notation.

The subscripts name one index per letter (``a``-``z``, ``A``-``Z``); each operand's
letters are its axes in order, and a letter repeated in one operand takes its diagonal.
After ``->`` come the output's letters; without ``->`` (numpy's implicit mode) the output
is every letter that appears exactly once, in alphabetical (ASCII) order.  Every letter
absent from the output is summed over.  Ellipses (``...``) are not supported.

The statement names the operands ``A``, ``B``, ... in order and the output ``out``.
An upper-case letter becomes a doubled lower-case index (``I`` -> ``ii``) so that index
names stay lower case and distinct from the extents (``I``, ``J``, ...) the
autoscheduler's costs are written in.
"""

from __future__ import annotations

import functools
import string
from dataclasses import dataclass

from spf.errors import NotationError

OUTPUT = "out"
"""The output's name in the statement."""


@dataclass(frozen=True)
class Subscripts:
    """Parsed subscripts: each operand's letters, the output's letters, and the
    statement in index notation (operands named by :func:`operand_name`)."""

    inputs: tuple[str, ...]
    output: str
    statement: str


def operand_name(position: int) -> str:
    """The statement's name of the operand at ``position``: A, B, ..., Z, then T26, T27, ..."""
    return string.ascii_uppercase[position] if position < 26 else f"T{position}"


def index_name(letter: str) -> str:
    """The index a subscript letter becomes: itself when lower case, doubled lower case when upper."""
    return letter if letter.islower() else letter.lower() * 2


@functools.lru_cache(maxsize=512)
def parse_subscripts(subscripts: str, orders: tuple[int, ...]) -> Subscripts:
    """``subscripts`` for operands of the given ``orders`` (numbers of axes), checked as numpy
    checks them; a NotationError points at the offending character."""
    text = subscripts
    if "." in text:
        raise NotationError("ellipsis (...) is not supported: name every axis with a letter", text, text.index("."))
    if text.count("->") > 1:
        raise NotationError("more than one '->'", text, text.index("->", text.index("->") + 2))
    left, arrow, right = text.partition("->")
    for offset, character in enumerate(text):
        if not (character in string.ascii_letters or character in ", \t" or text.startswith("->", offset)
                or text.startswith("->", offset - 1)):
            raise NotationError(f"{character!r} is not a subscript: use the letters a-z and A-Z, ',' "
                                "between operands and '->' before the output", text, offset)
    if arrow and "," in right:
        raise NotationError("the output after '->' is one tensor (no ',')", text, len(left) + 2 + right.index(","))
    pieces = left.split(",")
    inputs = tuple("".join(piece.split()) for piece in pieces)
    if len(inputs) != len(orders):
        raise NotationError(f"{len(inputs)} operand{'s' if len(inputs) != 1 else ''} in the subscripts, "
                            f"{len(orders)} given", text, len(left))
    start = 0
    for position, (piece, letters, order) in enumerate(zip(pieces, inputs, orders)):
        if len(letters) != order:
            raise NotationError(f"operand {operand_name(position)} has {order} ax{'es' if order != 1 else 'is'} "
                                f"but {len(letters)} subscript{'s' if len(letters) != 1 else ''} {letters!r}",
                                text, start)
        start += len(piece) + 1
    counts: dict[str, int] = {}
    for letters in inputs:
        for letter in letters:
            counts[letter] = counts.get(letter, 0) + 1
    if arrow:
        output = "".join(right.split())
        for offset, letter in enumerate(right):
            if letter.isspace():
                continue
            if letter not in counts:
                raise NotationError(f"output subscript {letter!r} is not an operand's", text, len(left) + 2 + offset)
            if right.index(letter) != offset:
                raise NotationError(f"output subscript {letter!r} appears more than once", text,
                                    len(left) + 2 + offset)
    else:
        output = "".join(sorted(letter for letter, count in counts.items() if count == 1))
    return Subscripts(inputs, output, _statement(inputs, output))


def _access(name: str, letters: str) -> str:
    """``name(i,j)`` for the letters ``ij`` (``name`` alone for none)."""
    return f"{name}({','.join(index_name(letter) for letter in letters)})" if letters else name


def _statement(inputs: tuple[str, ...], output: str) -> str:
    """The index notation statement ``out(...) = A(...) * B(...) * ...``."""
    product = " * ".join(_access(operand_name(position), letters) for position, letters in enumerate(inputs))
    return f"{_access(OUTPUT, output)} = {product}"
