"""Schedule trees written by hand, in the notation ``explain()`` prints.

``i, j < T(m) ; k, m : T(m) += B(i,j,k) * D(k,m) , l, m : A(i,l,m) += T(m) * C(j,l) >``
is a branch whose fused loops ``i, j`` run a producer (accumulating the temporary
``T(m)``) and then a consumer (reading it); a leaf is its loops, a colon and the
statement (``k, m : T(m) += ...``; the loops and colon are left out where a leaf has no
loop of its own).  A branch without fused loops starts with ``<``.  Inputs and the
output are the expression's tensors with its indices; any other name is a temporary,
which a producer must write before a consumer reads it.  The tree is checked as a
generated one is (:func:`spf.scheduling.autoscheduler.tree.check`).
"""

from __future__ import annotations

import re

from spf.errors import ScheduleError

from spf.scheduling.autoscheduler.problem import Operand, Problem
from spf.scheduling.autoscheduler.tree import Branch, Leaf, Node, Statement, check

_TOKEN = re.compile(r"\s*(?:(\+=)|([A-Za-z_][A-Za-z_0-9]*)|([<>;,:()*]))")


def _tokens(text: str) -> list[tuple[str, int]]:
    tokens, position = [], 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = _TOKEN.match(text, position)
        if not match:
            column = position + len(text[position:]) - len(text[position:].lstrip())
            raise ScheduleError(f"schedule: unexpected {text[column]!r} at column {column + 1}\n  {text}\n"
                                f"  {' ' * column}^")
        tokens.append((match.group(1) or match.group(2) or match.group(3), match.start(match.lastindex)))
        position = match.end()
    return tokens


class _Parser:
    def __init__(self, text: str, problem: Problem):
        self.text = text
        self.problem = problem
        self.tokens = _tokens(text)
        self.at = 0
        self.inputs = {f.name: f for f in problem.factors}
        self.written: dict[str, Operand] = {}  # temporaries, once a branch declares them

    def error(self, message: str, at: int | None = None) -> ScheduleError:
        at = self.at if at is None else at
        column = self.tokens[at][1] if at < len(self.tokens) else len(self.text)
        return ScheduleError(f"schedule: {message} at column {column + 1}\n  {self.text}\n  {' ' * column}^")

    def peek(self, offset: int = 0) -> str | None:
        index = self.at + offset
        return self.tokens[index][0] if index < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise self.error(f"expected {expected!r}" if expected else "unexpected end")
        self.at += 1
        return token

    def name(self) -> str:
        token = self.peek()
        if token is None or not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", token):
            raise self.error("expected a name")
        self.at += 1
        return token

    def indices(self) -> tuple[str, ...]:
        found = [self.name()]
        while self.peek() == ",":  # a loop list ends at ':' or '<', never at a comma
            self.take(",")
            found.append(self.name())
        return tuple(found)

    def access(self) -> tuple[str, tuple[str, ...]]:
        name = self.name()
        self.take("(")
        indices: list[str] = []
        if self.peek() != ")":
            indices.append(self.name())
            while self.peek() == ",":
                self.take(",")
                indices.append(self.name())
        self.take(")")
        return name, tuple(indices)

    def node(self) -> Node:
        loops: tuple[str, ...] = ()
        if self.peek() != "<" and self.peek(1) != "(":
            loops = self.indices()
        if self.peek() == "<":
            return self.branch(loops)
        if loops:
            self.take(":")
        return Leaf(loops, self.statement())

    def branch(self, fused: tuple[str, ...]) -> Branch:
        self.take("<")
        name, indices = self.access()
        if name in self.inputs or name == self.problem.output or name in self.written:
            raise self.error(f"the temporary {name} must be a new name")
        self.written[name] = Operand(name, indices, temporary=True)
        self.take(";")
        producer = self.node()
        self.take(",")
        consumer = self.node()
        self.take(">")
        temporary = _written_by(producer, name)
        if temporary is None:
            raise ScheduleError(f"schedule: the producer of {name} does not write it")
        return Branch(fused, temporary, producer, consumer)

    def statement(self) -> Statement:
        start = self.at
        name, indices = self.access()
        self.take("+=")
        factors = [self.operand()]
        while self.peek() == "*":
            self.take("*")
            factors.append(self.operand())
        if name == self.problem.output:
            if indices != self.problem.output_indices:
                raise self.error(f"the output is {name}({','.join(self.problem.output_indices)})", start)
            target = Operand(name, indices)
        elif name in self.written:
            declared = self.written[name]
            if indices != declared.indices:
                raise self.error(f"{name} is declared {declared}", start)
            contains = frozenset().union(*(f.contains for f in factors))
            target = Operand(name, indices, contains=contains, temporary=True)
            self.written[name] = target
        else:
            raise self.error(f"{name} is neither the output nor a temporary of an enclosing branch", start)
        return Statement(target, tuple(factors))

    def operand(self) -> Operand:
        start = self.at
        name, indices = self.access()
        known = self.inputs.get(name) or self.written.get(name)
        if known is None:
            raise self.error(f"{name} is no input of the expression and no temporary written before", start)
        if indices != known.indices:
            raise self.error(f"{name} is {'read by the expression as' if name in self.inputs else 'declared'} "
                             f"{known}", start)
        return known


def _written_by(node: Node, name: str) -> Operand | None:
    """The temporary as the producer's statement writes it (with what it folds together)."""
    if isinstance(node, Leaf):
        return node.statement.target if node.statement.target.name == name else None
    return _written_by(node.consumer, name) or _written_by(node.producer, name)


def parse_schedule(text: str, problem: Problem) -> Node:
    """The tree ``text`` describes for ``problem``; a :class:`ScheduleError` names the column."""
    if not isinstance(text, str):
        raise ScheduleError(f"schedule: the tree must be text in explain()'s notation, got {type(text).__name__}")
    parser = _Parser(text, problem)
    tree = parser.node()
    if parser.peek() is not None:
        raise parser.error("unexpected text after the tree")
    check(tree, problem)
    return tree
