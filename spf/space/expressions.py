"""Affine expressions with uninterpreted-function (UF) calls, and their parser.

The sparse polyhedral framework writes constraints in isl's syntax extended with
calls ``f(e, ...)`` to uninterpreted functions that stand for index arrays, e.g.
``rowPtr(pi) <= pj < rowPtr(pi + 1) and j = colIdx(pj)``.  This module holds the
immutable terms (:class:`Affine`, :class:`UFCall`), formulas over them
(:class:`Constraint`, :class:`And`, :class:`Or`, :class:`Not`, :class:`Exists`) and
a recursive-descent parser that reports errors at a character offset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Union

from spf.errors import ParseError, UnboundNameError

Atom = Union[str, "UFCall"]


def _atom_key(atom: Atom) -> str:
    return atom if isinstance(atom, str) else "~" + str(atom)


@dataclass(frozen=True)
class Affine:
    """``sum(coefficient * atom) + constant`` where an atom is a name or a UF call.

    Terms are kept sorted, so structurally equal expressions compare and hash equal.
    """

    terms: tuple[tuple[Atom, int], ...] = ()
    constant: int = 0

    @staticmethod
    def of(value: "int | str | UFCall | Affine") -> "Affine":
        if isinstance(value, Affine):
            return value
        if isinstance(value, int):
            return Affine((), value)
        return Affine(((value, 1),), 0)

    @staticmethod
    def build(coefficients: Mapping[Atom, int], constant: int = 0) -> "Affine":
        terms = tuple(
            sorted(((a, c) for a, c in coefficients.items() if c != 0), key=lambda t: _atom_key(t[0]))
        )
        return Affine(terms, constant)

    def coefficients(self) -> dict[Atom, int]:
        return dict(self.terms)

    def __add__(self, other: "Affine | int") -> "Affine":
        other = Affine.of(other)
        merged = self.coefficients()
        for atom, coefficient in other.terms:
            merged[atom] = merged.get(atom, 0) + coefficient
        return Affine.build(merged, self.constant + other.constant)

    def __radd__(self, other: int) -> "Affine":
        return self + other

    def __neg__(self) -> "Affine":
        return Affine(tuple((a, -c) for a, c in self.terms), -self.constant)

    def __sub__(self, other: "Affine | int") -> "Affine":
        return self + (-Affine.of(other))

    def __rsub__(self, other: int) -> "Affine":
        return Affine.of(other) - self

    def scale(self, factor: int) -> "Affine":
        return Affine.build({a: c * factor for a, c in self.terms}, self.constant * factor)

    @property
    def is_constant(self) -> bool:
        return not self.terms

    def names(self) -> set[str]:
        """Every plain name used, including inside UF call arguments."""
        found: set[str] = set()
        for atom, _ in self.terms:
            if isinstance(atom, str):
                found.add(atom)
            else:
                found |= atom.names()
        return found

    def calls(self) -> Iterator["UFCall"]:
        """Every UF call, innermost arguments first."""
        for atom, _ in self.terms:
            if isinstance(atom, UFCall):
                yield from atom.calls()

    def substitute(self, mapping: Mapping[Atom, "Affine"]) -> "Affine":
        """Replace names or whole UF calls (after rewriting their arguments)."""
        result = Affine((), self.constant)
        for atom, coefficient in self.terms:
            if isinstance(atom, UFCall):
                atom = atom.substitute(mapping)
            replacement = mapping.get(atom)
            result = result + (replacement.scale(coefficient) if replacement is not None
                               else Affine(((atom, coefficient),), 0))
        return result

    def evaluate(self, values: Mapping[str, object], functions: Mapping[str, object]) -> Any:
        """Numeric value; works element-wise when ``values`` holds numpy arrays."""
        total = self.constant
        for atom, coefficient in self.terms:
            if isinstance(atom, str):
                if atom not in values:
                    raise UnboundNameError(atom, self)
                value = values[atom]
            else:
                value = atom.evaluate(values, functions)
            total = total + coefficient * value
        return total

    def __str__(self) -> str:
        if not self.terms:
            return str(self.constant)
        parts: list[str] = []
        for atom, coefficient in self.terms:
            text = str(atom)
            magnitude = abs(coefficient)
            term = text if magnitude == 1 else f"{magnitude}*{text}"
            if not parts:
                parts.append(term if coefficient > 0 else "-" + term)
            else:
                parts.append(("+ " if coefficient > 0 else "- ") + term)
        if self.constant:
            parts.append(("+ " if self.constant > 0 else "- ") + str(abs(self.constant)))
        return " ".join(parts)


@dataclass(frozen=True)
class UFCall:
    """A call ``function(arguments...)`` of an uninterpreted function."""

    function: str
    arguments: tuple[Affine, ...]

    def names(self) -> set[str]:
        found: set[str] = set()
        for argument in self.arguments:
            found |= argument.names()
        return found

    def calls(self) -> Iterator["UFCall"]:
        for argument in self.arguments:
            yield from argument.calls()
        yield self

    def substitute(self, mapping: Mapping[Atom, Affine]) -> "UFCall":
        return UFCall(self.function, tuple(a.substitute(mapping) for a in self.arguments))

    def evaluate(self, values: Mapping[str, object], functions: Mapping[str, object]) -> Any:
        arguments = [a.evaluate(values, functions) for a in self.arguments]
        if self.function not in functions:
            raise UnboundNameError(self.function, self)
        table = functions[self.function]
        if callable(table):
            return table(*arguments)
        return table[tuple(arguments)] if len(arguments) > 1 else table[arguments[0]]

    def __str__(self) -> str:
        return f"{self.function}({', '.join(str(a) for a in self.arguments)})"


# ----------------------------------------------------------------------------- formulas

RELATIONS = ("<=", ">=", "!=", "=", "<", ">")


@dataclass(frozen=True)
class Constraint:
    """``left OP right`` with OP one of ``= != < <= > >=``."""

    left: Affine
    op: str
    right: Affine

    def difference(self) -> Affine:
        return self.left - self.right

    def atoms(self) -> Iterator[Affine]:
        yield self.left
        yield self.right

    def substitute(self, mapping: Mapping[Atom, Affine]) -> "Constraint":
        return Constraint(self.left.substitute(mapping), self.op, self.right.substitute(mapping))

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class And:
    parts: tuple["Formula", ...]

    def substitute(self, mapping: Mapping[Atom, Affine]) -> Formula:
        return And(tuple(p.substitute(mapping) for p in self.parts))

    def __str__(self) -> str:
        return " and ".join(_wrap(p, (Or,)) for p in self.parts) if self.parts else "true"


@dataclass(frozen=True)
class Or:
    parts: tuple["Formula", ...]

    def substitute(self, mapping: Mapping[Atom, Affine]) -> Formula:
        return Or(tuple(p.substitute(mapping) for p in self.parts))

    def __str__(self) -> str:
        return " or ".join(_wrap(p, (And,)) for p in self.parts) if self.parts else "false"


@dataclass(frozen=True)
class Not:
    part: "Formula"

    def substitute(self, mapping: Mapping[Atom, Affine]) -> Formula:
        return Not(self.part.substitute(mapping))

    def __str__(self) -> str:
        return f"not ({self.part})"


@dataclass(frozen=True)
class Exists:
    variables: tuple[str, ...]
    body: "Formula"

    def substitute(self, mapping: Mapping[Atom, Affine]) -> Formula:
        inner = {k: v for k, v in mapping.items() if k not in self.variables}
        return Exists(self.variables, self.body.substitute(inner))

    def __str__(self) -> str:
        return f"exists ({', '.join(self.variables)} : {self.body})"


Formula = Union[Constraint, And, Or, Not, Exists]
TRUE = And(())


def _wrap(formula: Formula, needs_parentheses: tuple) -> str:
    text = str(formula)
    return f"({text})" if isinstance(formula, needs_parentheses) and len(formula.parts) > 1 else text


def formula_calls(formula: Formula) -> Iterator[UFCall]:
    """Every UF call in a formula, innermost arguments before their callers."""
    if isinstance(formula, Constraint):
        yield from formula.left.calls()
        yield from formula.right.calls()
    elif isinstance(formula, (And, Or)):
        for part in formula.parts:
            yield from formula_calls(part)
    elif isinstance(formula, Not):
        yield from formula_calls(formula.part)
    else:
        yield from formula_calls(formula.body)


def formula_names(formula: Formula) -> set[str]:
    """Every free plain name of a formula."""
    if isinstance(formula, Constraint):
        return formula.left.names() | formula.right.names()
    if isinstance(formula, (And, Or)):
        found: set[str] = set()
        for part in formula.parts:
            found |= formula_names(part)
        return found
    if isinstance(formula, Not):
        return formula_names(formula.part)
    return formula_names(formula.body) - set(formula.variables)


def conjuncts(formula: Formula) -> list[Formula]:
    """The top-level conjuncts of a formula (itself when it is no conjunction)."""
    if isinstance(formula, And):
        out: list[Formula] = []
        for part in formula.parts:
            out.extend(conjuncts(part))
        return out
    return [formula]


def conjoin(*formulas: Formula) -> Formula:
    parts: list[Formula] = []
    for formula in formulas:
        parts.extend(conjuncts(formula))
    return parts[0] if len(parts) == 1 else And(tuple(parts))


# ----------------------------------------------------------------------------- parser

_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op><=|>=|!=|==|->|[-+*/%(){}\[\],:;<>=]))"
)
KEYWORDS = {"and", "or", "not", "exists", "true", "false", "mod"}


@dataclass
class _Token:
    kind: str
    text: str
    offset: int


MAX_NESTING = 100
"""Deepest nesting of parentheses accepted (keeps the recursive parser off the stack limit)."""


def tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    depth = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            break
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            raise ParseError(f"unexpected character {text[position]!r}", text, position)
        group = match.lastgroup
        value = match.group(group)
        kind = "keyword" if group == "name" and value in KEYWORDS else group
        depth += {"(": 1, ")": -1}.get(value, 0) if kind == "op" else 0
        if depth > MAX_NESTING:
            raise ParseError(f"parentheses nested deeper than {MAX_NESTING}", text, match.start(group))
        tokens.append(_Token(kind, value, match.start(group)))
        position = match.end()
    tokens.append(_Token("end", "", len(text)))
    return tokens


@dataclass
class ParsedSet:
    """``[params] -> { [in] -> [out] : formula }`` as written (``output`` None for a set)."""

    parameters: tuple[str, ...]
    input: tuple[str, ...]
    output: tuple[str, ...] | None
    formula: Formula
    name_offsets: dict[str, int] = field(default_factory=dict)
    call_offsets: dict[str, int] = field(default_factory=dict)


class Parser:
    """Recursive descent over isl-style constraint text with UF calls."""

    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0
        self.name_offsets: dict[str, int] = {}
        self.call_offsets: dict[str, int] = {}

    # -- token helpers
    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def error(self, message: str, token: _Token | None = None) -> ParseError:
        token = token or self.token
        found = "end of text" if token.kind == "end" else repr(token.text)
        return ParseError(f"{message}, found {found}", self.text, token.offset)

    def accept(self, text: str) -> bool:
        if self.token.text == text and self.token.kind in ("op", "keyword"):
            self.index += 1
            return True
        return False

    def expect(self, text: str, what: str | None = None) -> _Token:
        token = self.token
        if not self.accept(text):
            raise self.error(f"expected {what or repr(text)}")
        return token

    def expect_name(self, what: str = "a name") -> str:
        token = self.token
        if token.kind != "name":
            raise self.error(f"expected {what}")
        self.index += 1
        self.name_offsets.setdefault(token.text, token.offset)
        return token.text

    def expect_end(self) -> None:
        if self.token.kind != "end":
            raise self.error("expected end of text")

    # -- sets and relations
    def parse_set(self) -> ParsedSet:
        parameters: tuple[str, ...] = ()
        if self.token.text == "[":
            parameters = self.parse_tuple()
            self.expect("->", "'->' after the parameter list")
        self.expect("{", "'{' to open the set")
        first = self.parse_tuple()
        second = None
        if self.accept("->"):
            second = self.parse_tuple()
        formula: Formula = TRUE
        if self.accept(":"):
            formula = self.parse_formula()
        self.expect("}", "'}' to close the set")
        self.expect_end()
        return ParsedSet(parameters, first, second, formula,
                         dict(self.name_offsets), dict(self.call_offsets))

    def parse_tuple(self) -> tuple[str, ...]:
        self.expect("[", "'[' to open a tuple")
        names: list[str] = []
        if not self.accept("]"):
            while True:
                token = self.token
                name = self.expect_name("a variable name")
                if name in names:
                    raise ParseError(f"variable {name!r} appears twice in the tuple", self.text, token.offset)
                names.append(name)
                if self.accept("]"):
                    break
                self.expect(",", "',' or ']' in the tuple")
        return tuple(names)

    # -- formulas
    def parse_formula(self) -> Formula:
        parts = [self.parse_conjunction()]
        while self.accept("or"):
            parts.append(self.parse_conjunction())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def parse_conjunction(self) -> Formula:
        parts = [self.parse_atom()]
        while self.accept("and"):
            parts.append(self.parse_atom())
        return conjoin(*parts) if len(parts) > 1 else parts[0]

    def parse_atom(self) -> Formula:
        if self.accept("true"):
            return TRUE
        if self.accept("false"):
            return Or(())
        if self.accept("not"):
            negated = True
            while self.accept("not"):  # a chain of negations, folded without recursion
                negated = not negated
            atom = self.parse_atom()
            return Not(atom) if negated else atom
        if self.accept("exists"):
            self.expect("(", "'(' after exists")
            variables = [self.expect_name("a variable name")]
            while self.accept(","):
                variables.append(self.expect_name("a variable name"))
            self.expect(":", "':' after the quantified variables")
            body = self.parse_formula()
            self.expect(")", "')' to close exists")
            return Exists(tuple(variables), body)
        if self.token.text == "(":
            # Either a parenthesised formula or an expression starting with '('.
            saved = self.index
            self.index += 1
            try:
                inner = self.parse_formula()
                self.expect(")")
                if self.token.text not in RELATIONS and self.token.text not in ("+", "-", "*", "=="):
                    return inner
            except ParseError:
                pass
            self.index = saved
        return self.parse_chain()

    def parse_chain(self) -> Formula:
        left = self.parse_expression()
        token = self.token
        if token.text not in RELATIONS and token.text != "==":
            raise self.error("expected a comparison (=, !=, <, <=, >, >=)")
        constraints: list[Constraint] = []
        while self.token.text in RELATIONS or self.token.text == "==":
            op = self.token.text
            self.index += 1
            op = "=" if op == "==" else op
            right = self.parse_expression()
            constraints.append(Constraint(left, op, right))
            left = right
        return constraints[0] if len(constraints) == 1 else And(tuple(constraints))

    # -- affine expressions
    def parse_expression(self) -> Affine:
        negate = self.accept("-")
        total = self.parse_term()
        if negate:
            total = -total
        while self.token.text in ("+", "-"):
            op = self.token.text
            self.index += 1
            term = self.parse_term()
            total = total + term if op == "+" else total - term
        return total

    def parse_term(self) -> Affine:
        value = self.parse_factor()
        while self.token.text == "*" or (value.is_constant and self.token.kind == "name"):
            # isl writes `2i` for `2*i`; accept both.
            if self.token.text == "*":
                self.index += 1
            factor_token = self.token
            other = self.parse_factor()
            if value.is_constant:
                value = other.scale(value.constant)
            elif other.is_constant:
                value = value.scale(other.constant)
            else:
                raise ParseError("not affine: a product of two non-constant expressions",
                                 self.text, factor_token.offset)
        if self.token.text in ("/", "%") or self.token.text == "mod":
            raise self.error("division and modulo are not supported in constraints; "
                             "introduce a variable", self.token)
        return value

    def parse_factor(self) -> Affine:
        token = self.token
        if token.kind == "number":
            self.index += 1
            return Affine.of(int(token.text))
        if self.accept("-"):
            negated = True
            while self.accept("-"):  # a chain of minus signs, folded without recursion
                negated = not negated
            factor = self.parse_factor()
            return -factor if negated else factor
        if self.accept("("):
            inner = self.parse_expression()
            self.expect(")", "')' to close the parenthesis")
            return inner
        if token.kind == "name":
            self.index += 1
            if self.accept("("):
                self.call_offsets.setdefault(token.text, token.offset)
                arguments = [self.parse_expression()]
                while self.accept(","):
                    arguments.append(self.parse_expression())
                self.expect(")", "',' or ')' in the call's arguments")
                return Affine.of(UFCall(token.text, tuple(arguments)))
            self.name_offsets.setdefault(token.text, token.offset)
            return Affine.of(token.text)
        raise self.error("expected a number, a name or a call")


def parse_set_text(text: str) -> ParsedSet:
    """Parse ``[params] -> { [vars] (-> [vars])? : formula }``."""
    return Parser(text).parse_set()


def parse_formula_text(text: str) -> Formula:
    """Parse a bare formula such as ``0 <= i < n and j = col(i)``."""
    parser = Parser(text)
    formula = parser.parse_formula()
    parser.expect_end()
    return formula


def parse_affine_text(text: str) -> Affine:
    """Parse a bare affine expression with UF calls, such as ``rowPtr(pi + 1) - 1``."""
    parser = Parser(text)
    expression = parser.parse_expression()
    parser.expect_end()
    return expression
