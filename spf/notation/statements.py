"""Tensor index notation: statements such as ``y(i) = A(i,j) * x(j)``.

A statement assigns (``=``) or adds (``+=``) a sum of products to an output
access.  Parentheses are expanded while parsing, so a :class:`Statement` is always
a sum of :class:`Term` s, each a constant coefficient times a product of tensor
accesses.  An index that appears in a term but not in the output is summed over.
Every malformed statement raises :class:`~spf.errors.NotationError` at the
offending column.

Grammar (whitespace between tokens is ignored)::

    statement  := access ('=' | '+=') expression
    access     := NAME [ '(' [ NAME (',' NAME)* ] ')' ]
    expression := ['-'] term (('+' | '-') term)*
    term       := factor ('*' factor)*
    factor     := access | NUMBER | '(' expression ')'
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Iterable, NamedTuple

from spf.errors import NotationError

MAX_TERMS = 10_000
"""Largest number of terms that expanding the parentheses may produce."""

MAX_NESTING = 100
"""Deepest nesting of parentheses accepted (keeps the recursive parser off the stack limit)."""


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    """The items without repeats, in order of first appearance."""
    return tuple(dict.fromkeys(items))


def _column(text: str, offset: int) -> int:
    """The 1-based column of a character offset, as NotationError reports it."""
    return offset - (text.rfind("\n", 0, offset) + 1) + 1


@dataclass(frozen=True)
class Access:
    """``tensor(i, j, ...)``; a tensor without indices is a scalar.

    ``offset`` is where the tensor name starts in the parsed text; it and
    ``index_offsets`` only locate errors and take no part in equality.
    """

    tensor: str
    indices: tuple[str, ...] = ()
    offset: int = field(default=0, compare=False)
    index_offsets: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def order(self) -> int:
        return len(self.indices)

    def __str__(self) -> str:
        return f"{self.tensor}({','.join(self.indices)})" if self.indices else self.tensor


@dataclass(frozen=True)
class Term:
    """One product of a statement's sum: ``coefficient * factor * ...`` (the sign is in the coefficient)."""

    coefficient: float | int
    factors: tuple[Access, ...]
    offset: int = field(default=0, compare=False)

    @property
    def indices(self) -> tuple[str, ...]:
        """Index names of the factors, in order of first appearance."""
        return _unique(index for access in self.factors for index in access.indices)

    def __str__(self) -> str:
        negative, body = _sign_and_body(self)
        return "-" + body if negative else body


def _sign_and_body(term: Term) -> tuple[bool, str]:
    """Whether the term is negative, and its text without the sign."""
    coefficient = term.coefficient
    negative = coefficient < 0 or (coefficient == 0 and math.copysign(1.0, coefficient) < 0)
    magnitude = -coefficient if negative else coefficient
    parts = [str(access) for access in term.factors]
    if not (parts and magnitude == 1 and isinstance(magnitude, int)):
        parts.insert(0, str(magnitude))
    return negative, " * ".join(parts)


@dataclass(frozen=True)
class Statement:
    """``output = term + term ...`` (or ``+=`` when ``accumulate``); ``text`` is what was parsed."""

    output: Access
    terms: tuple[Term, ...]
    text: str = field(default="", compare=False)
    accumulate: bool = False

    @property
    def indices(self) -> tuple[str, ...]:
        """All index names, output first, then the terms', in order of first appearance."""
        return _unique([*self.output.indices, *(i for term in self.terms for i in term.indices)])

    def reduction_indices(self, term: Term) -> tuple[str, ...]:
        """The indices of ``term`` absent from the output: they are summed over."""
        return tuple(index for index in term.indices if index not in self.output.indices)

    @property
    def tensors(self) -> dict[str, int]:
        """Tensor name -> order (number of indices), output first."""
        orders: dict[str, int] = {}
        for access in (self.output, *(a for term in self.terms for a in term.factors)):
            orders.setdefault(access.tensor, access.order)
        return orders

    @property
    def inputs(self) -> tuple[str, ...]:
        """Names of the tensors read by the terms, in order of first appearance in the text.

        Distributing a product over a parenthesised sum reorders the factors
        (``(A(i,j) + B(i,j)) * x(j)`` has the terms ``A*x`` and ``B*x``), so the order
        comes from the accesses' offsets: A, B, x.  The C ABI orders arguments so.
        """
        accesses = sorted((access for term in self.terms for access in term.factors),
                          key=lambda access: access.offset)  # stable: built statements have offset 0
        return _unique(access.tensor for access in accesses)

    def split(self) -> list[Statement]:
        """One statement per term; every one after the first accumulates into the output."""
        return [
            replace(self, terms=(term,), accumulate=self.accumulate or position > 0)
            for position, term in enumerate(self.terms)
        ]

    def __str__(self) -> str:
        pieces = []
        for position, term in enumerate(self.terms):
            negative, body = _sign_and_body(term)
            if position == 0:
                pieces.append("-" + body if negative else body)
            else:
                pieces.append(("- " if negative else "+ ") + body)
        assignment = "+=" if self.accumulate else "="
        return f"{self.output} {assignment} {' '.join(pieces)}"


def parse_statement(text: str) -> Statement:
    """Parse and check one statement in tensor index notation."""
    from spf.arguments import text as text_argument
    text_argument(text, "expression", "a statement in index notation such as 'y(i) = A(i,j) * x(j)'")
    statement = _Parser(text).statement()
    _check(statement)
    return statement


# -- tokens

_TOKEN = re.compile(
    r"""
      (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<number>(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[0-9]+(?:[eE][+-]?[0-9]+)?)
    | (?P<operator>\+=|[=+\-*(),])
    """,
    re.VERBOSE,
)


class _Token(NamedTuple):
    kind: str  # "name", "number", the operator itself, "end", or "invalid"
    text: str
    offset: int


def _tokenize(text: str) -> list[_Token]:
    """The tokens of ``text``, ending with an "end" token or at the first invalid character."""
    tokens: list[_Token] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            tokens.append(_Token("end", "", position))
            return tokens
        match = _TOKEN.match(text, position)
        if match is None:
            tokens.append(_Token("invalid", text[position], position))
            return tokens  # the parser never moves past an invalid token
        kind = match.group() if match.lastgroup == "operator" else match.lastgroup
        tokens.append(_Token(kind, match.group(), position))
        position = match.end()


# -- parser


class _Parser:
    """Recursive descent that expands parentheses into a sum of products as it goes."""

    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokenize(text)
        self.position = 0
        self.depth = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.position]

    def fail(self, message: str, offset: int) -> NotationError:
        return NotationError(message, self.text, offset)

    def unexpected(self, expected: str) -> NotationError:
        token = self.token
        if token.kind == "invalid":
            return self.fail(f"unexpected character {token.text!r}", token.offset)
        found = "the end of the statement" if token.kind == "end" else repr(token.text)
        return self.fail(f"expected {expected}, found {found}", token.offset)

    def accept(self, *kinds: str) -> _Token | None:
        token = self.token
        if token.kind in kinds:
            self.position += 1
            return token
        return None

    def expect(self, kind: str, expected: str) -> _Token:
        token = self.accept(kind)
        if token is None:
            raise self.unexpected(expected)
        return token

    def statement(self) -> Statement:
        if self.token.kind == "end":
            raise self.fail("empty statement", self.token.offset)
        output = self.access(self.expect("name", "the output tensor name"))
        assignment = self.accept("=", "+=")
        if assignment is None:
            raise self.unexpected("'=' or '+=' after the output")
        terms = self.expression()
        if self.token.kind != "end":
            raise self.unexpected("'+', '-', '*' or the end of the statement")
        return Statement(output, tuple(terms), self.text, assignment.kind == "+=")

    def access(self, name: _Token) -> Access:
        indices: list[_Token] = []
        if self.accept("(") and not self.accept(")"):
            while True:
                indices.append(self.expect("name", "an index name"))
                if self.accept(")"):
                    break
                self.expect(",", f"',' or ')' after index {indices[-1].text!r}")
        return Access(
            name.text,
            tuple(index.text for index in indices),
            name.offset,
            tuple(index.offset for index in indices),
        )

    def expression(self) -> list[Term]:
        negate = self.accept("-") is not None
        terms = self.term()
        if negate:
            terms = [_negated(term) for term in terms]
        while operator := self.accept("+", "-"):
            more = self.term()
            if operator.kind == "-":
                more = [_negated(term) for term in more]
            self.check_size(len(terms) + len(more), operator.offset)
            terms.extend(more)
        return terms

    def term(self) -> list[Term]:
        terms = self.factor()
        while star := self.accept("*"):
            start = self.token.offset
            right = self.factor()
            self.check_size(len(terms) * len(right), star.offset)
            terms = [self.product(left, other, start) for left in terms for other in right]
        return terms

    def factor(self) -> list[Term]:
        token = self.token
        if self.accept("name"):
            return [Term(1, (self.access(token),), token.offset)]
        if self.accept("number"):
            return [Term(self.number(token), (), token.offset)]
        if self.accept("("):
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise self.fail("parentheses are nested too deeply", token.offset)
            terms = self.expression()
            self.expect(")", f"')' to close the '(' at column {_column(self.text, token.offset)}")
            self.depth -= 1
            return terms
        raise self.unexpected("a tensor, a number or '('")

    def number(self, token: _Token) -> float | int:
        is_float = any(character in token.text for character in ".eE")
        try:
            value = float(token.text) if is_float else int(token.text)
        except ValueError:  # an integer longer than Python converts
            raise self.fail("number out of range", token.offset) from None
        return self.checked(value, token.offset, "number")

    def product(self, left: Term, right: Term, offset: int) -> Term:
        coefficient = self.checked(left.coefficient * right.coefficient, offset, "coefficient")
        return Term(coefficient, left.factors + right.factors, left.offset)

    def checked(self, coefficient: float | int, offset: int, what: str) -> float | int:
        """The coefficient, if it stays within the range of a double."""
        if not abs(coefficient) <= sys.float_info.max:  # also rejects NaN
            raise self.fail(f"{what} out of range", offset)
        return coefficient

    def check_size(self, count: int, offset: int) -> None:
        if count > MAX_TERMS:
            raise self.fail(f"expanding the parentheses gives more than {MAX_TERMS} terms", offset)


def _negated(term: Term) -> Term:
    return replace(term, coefficient=-term.coefficient)


# -- checks


def _check(statement: Statement) -> None:
    """Raise NotationError at the first place where a parsed statement makes no sense."""
    text, output = statement.text, statement.output

    def fail(message: str, offset: int) -> NotationError:
        return NotationError(message, text, offset)

    for position, index in enumerate(output.indices):
        if index in output.indices[:position]:
            raise fail(f"index {index!r} is repeated in the output {output}", output.index_offsets[position])

    by_offset = {access.offset: access for term in statement.terms for access in term.factors}
    right = [by_offset[offset] for offset in sorted(by_offset)]
    accesses = [output, *right]

    uses = [(access.offset, access.tensor, "a tensor") for access in accesses]
    uses += [
        (offset, index, "an index")
        for access in accesses
        for index, offset in zip(access.indices, access.index_offsets)
    ]
    first_use: dict[str, tuple[str, int]] = {}
    for offset, name, role in sorted(uses):
        first_role, first_offset = first_use.setdefault(name, (role, offset))
        if role != first_role:
            raise fail(
                f"{name!r} is used as {role} here but as {first_role} "
                f"at column {_column(text, first_offset)}",
                offset,
            )

    for access in right:
        if access.tensor == output.tensor:
            raise fail(f"the output tensor {output.tensor!r} also appears on the right-hand side", access.offset)

    first_order: dict[str, tuple[int, int]] = {}
    for access in accesses:
        order, offset = first_order.setdefault(access.tensor, (access.order, access.offset))
        if access.order != order:
            raise fail(
                f"tensor {access.tensor!r} has order {access.order} here "
                f"but order {order} at column {_column(text, offset)}",
                access.offset,
            )

    for term in statement.terms:
        for index in output.indices:
            if index not in term.indices:
                raise fail(f"output index {index!r} does not appear in this term", term.offset)
