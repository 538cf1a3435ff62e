"""Schedule trees: SparseAuto's multi-level branched iteration graphs.

A :class:`Leaf` is a linear section: loops (outer to inner) around one statement
``target += factor * factor ...``.  A :class:`Branch` runs its ``fused`` loops and,
inside them, a *producer* subtree that accumulates a dense temporary and then a
*consumer* subtree that reads it; the temporary is zeroed at the top of each fused
iteration.  Producer and consumer may branch again (multi-level nesting).  Loops
bound by enclosing fused loops are not repeated in the inner sections.

``loopfuse`` and ``reorder`` are SparseAuto's two directives (its Algorithm 1, with
the corrections listed in the digest); :func:`check` enforces the sparse access
constraint: along every root-to-leaf path, each sparse operand's levels are visited
in storage order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator, Sequence, Union

from spf.errors import ScheduleError
from spf.scheduling.autoscheduler.cost import Cost, dense_trip, level_trip, memory_of

from spf.scheduling.autoscheduler.problem import Operand, Problem


@dataclass(frozen=True)
class Statement:
    """``target(target.indices) += product of factors`` (indices bound outside included)."""

    target: Operand
    factors: tuple[Operand, ...]

    def indices(self) -> tuple[str, ...]:
        seen: list[str] = []
        for operand in (self.target, *self.factors):
            seen += [i for i in operand.indices if i not in seen]
        return tuple(seen)

    def __str__(self) -> str:
        return f"{self.target} += {' * '.join(str(f) for f in self.factors)}"


@dataclass(frozen=True)
class Leaf:
    loops: tuple[str, ...]
    statement: Statement

    def __str__(self) -> str:
        return f"{', '.join(self.loops)} : {self.statement}" if self.loops else str(self.statement)


@dataclass(frozen=True)
class Branch:
    fused: tuple[str, ...]
    temporary: Operand
    producer: "Node"
    consumer: "Node"

    def __str__(self) -> str:
        head = f"{', '.join(self.fused)} " if self.fused else ""
        return f"{head}< {self.temporary} ; {self.producer} , {self.consumer} >"


Node = Union[Leaf, Branch]


# ----------------------------------------------------------------------------- walking the tree


def leaves(node: Node, bound: tuple[str, ...] = ()) -> Iterator[tuple[Leaf, tuple[str, ...]]]:
    """Each leaf with the loops bound around it (outer to inner)."""
    if isinstance(node, Leaf):
        yield node, bound
        return
    yield from leaves(node.producer, bound + node.fused)
    yield from leaves(node.consumer, bound + node.fused)


def temporaries(node: Node) -> list[Operand]:
    if isinstance(node, Leaf):
        return []
    return [node.temporary] + temporaries(node.producer) + temporaries(node.consumer)


def operands(node: Node) -> list[Operand]:
    """The factors read anywhere in the subtree (temporaries included)."""
    return [f for leaf, _ in leaves(node) for f in leaf.statement.factors]


def loop_depth(node: Node) -> int:
    """The longest chain of nested loops."""
    if isinstance(node, Leaf):
        return len(node.loops)
    return len(node.fused) + max(loop_depth(node.producer), loop_depth(node.consumer))


def memory_depth(node: Node) -> int:
    """The largest temporary rank (a scalar is 0)."""
    if isinstance(node, Leaf):
        return 0
    return max(len(node.temporary.indices), memory_depth(node.producer), memory_depth(node.consumer))


def memory_cost(node: Node) -> Cost:
    total = Cost.zero()
    for temporary in temporaries(node):
        total = total + memory_of(temporary.indices)
    return total


# ----------------------------------------------------------------------------- trips and validity


def sparse_in(node_operands: Sequence[Operand], problem_order: Sequence[str]) -> list[Operand]:
    sparse = [o for o in node_operands if o.sparse]
    return sorted(sparse, key=lambda o: problem_order.index(o.name) if o.name in problem_order else len(problem_order))


def loop_trips(loops: Sequence[str], sparse: Sequence[Operand], state: dict[str, int]) -> tuple[Cost, dict[str, int]]:
    """The product of the trips of ``loops`` (outer to inner) and the new level state.

    ``state`` says how many levels of each sparse operand enclosing loops have bound.
    A loop over the next level of a sparse operand walks that level (the first such
    operand drives; the others find the coordinate); an index that is a later level
    of some operand breaks the sparse access constraint.
    """
    state = dict(state)
    total = Cost.of()
    for index in loops:
        driver = None
        for operand in sparse:
            depth = state.get(operand.name, 0)
            if index in operand.levels:
                position = operand.levels.index(index)
                if position != depth:
                    raise ScheduleError(
                        f"loop {index} visits level {position} of {operand.name} "
                        f"({', '.join(operand.levels)}) before level {depth}")
                if driver is None:
                    driver = operand
                    total = total * level_trip(operand, depth)
                state[operand.name] = depth + 1
        if driver is None:
            total = total * dense_trip(index)
    return total, state


def time_cost(node: Node, problem_order: Sequence[str], state: dict[str, int] | None = None) -> Cost:
    """Iterations of the subtree, relative to the enclosing loops (whose level state is given)."""
    state = state or {}
    if isinstance(node, Leaf):
        trips, _ = loop_trips(node.loops, sparse_in(node.statement.factors, problem_order), state)
        return trips
    trips, inner = loop_trips(node.fused, sparse_in(operands(node), problem_order), state)
    return trips * (time_cost(node.producer, problem_order, inner) + time_cost(node.consumer, problem_order, inner))


def check(node: Node, problem: Problem) -> None:
    """Raise :class:`ScheduleError` unless the tree computes the problem and respects every level order."""
    order = [f.name for f in problem.factors]
    time_cost(node, order)  # raises on a level-order violation
    seen: list[str] = []
    for leaf, bound in leaves(node):
        statement = leaf.statement
        wanted = set(statement.indices()) - set(bound)
        if set(leaf.loops) != wanted or len(leaf.loops) != len(wanted):
            raise ScheduleError(f"leaf '{leaf}' must loop over {', '.join(sorted(wanted))} exactly once")
        for factor in statement.factors:
            if factor.sparse:
                visited = [i for i in bound + leaf.loops if i in factor.levels]
                if tuple(visited) != factor.levels:
                    raise ScheduleError(f"leaf '{leaf}' visits the levels of {factor.name} as "
                                        f"{', '.join(visited)}, not {', '.join(factor.levels)}")
        seen += [f.name for f in statement.factors if not f.temporary]
    if sorted(seen) != sorted(order):
        raise ScheduleError("the tree does not read each input exactly once")


# ----------------------------------------------------------------------------- SparseAuto's directives


def temporary_name(contains: frozenset, taken: set[str]) -> str:
    name = "T_" + "".join(sorted(contains))
    while name in taken:
        name += "_"
    return name


def split(leaf: Leaf, producer_factors: Sequence[Operand], consumer_factors: Sequence[Operand],
          bound: tuple[str, ...], taken: set[str]) -> Branch:
    """Algorithm 1's core: the producer/consumer split of a linear section, fused on the
    longest common prefix of the section's loop order."""
    statement = leaf.statement
    produced = set(i for f in producer_factors for i in f.indices)
    needed = set(i for f in consumer_factors for i in f.indices) | set(statement.target.indices)
    temporary_indices = (produced & needed) - set(bound)
    producer_loops = [x for x in leaf.loops if x in produced]
    consumer_loops = [x for x in leaf.loops if x in needed or x in temporary_indices]
    fused: list[str] = []
    for x in leaf.loops:
        if x in producer_loops and x in consumer_loops:
            fused.append(x)
        else:
            break
    shared = tuple(x for x in producer_loops if x in temporary_indices and x not in fused)
    contains = frozenset().union(*(f.contains for f in producer_factors))
    temporary = Operand(temporary_name(contains, taken), shared, contains=contains, temporary=True)
    producer = Leaf(tuple(x for x in producer_loops if x not in fused), Statement(temporary, tuple(producer_factors)))
    consumer = Leaf(tuple(x for x in consumer_loops if x not in fused),
                    Statement(statement.target, (temporary, *consumer_factors)))
    return Branch(tuple(fused), temporary, producer, consumer)


def _at(node: Node, path: Sequence[int]) -> Node:
    for step in path:
        if not isinstance(node, Branch):
            raise ScheduleError(f"path {list(path)} goes below a leaf")
        node = node.producer if step == 0 else node.consumer
    return node


def _replace(node: Node, path: Sequence[int], new: Node) -> Node:
    if not path:
        return new
    if not isinstance(node, Branch):
        raise ScheduleError(f"path {list(path)} goes below a leaf")
    if path[0] == 0:
        return replace(node, producer=_replace(node.producer, path[1:], new))
    return replace(node, consumer=_replace(node.consumer, path[1:], new))


def _bound_at(node: Node, path: Sequence[int]) -> tuple[str, ...]:
    bound: tuple[str, ...] = ()
    for step in path:
        bound += node.fused
        node = node.producer if step == 0 else node.consumer
    return bound


def loopfuse(tree: Node, path: Sequence[int], loc: int, pol: bool = True) -> Node:
    """SparseAuto's ``loopfuse(path, loc, pol)`` on the linear section at ``path``.

    ``loc`` factors go left; with ``pol`` the left part is the producer, otherwise
    the right part is (Algorithm 1's reading of ``pol=False``).
    """
    section = _at(tree, path)
    if not isinstance(section, Leaf):
        raise ScheduleError(f"loopfuse: path {list(path)} is not a linear section")
    factors = section.statement.factors
    if not 0 < loc < len(factors):
        raise ScheduleError(f"loopfuse: loc must be between 1 and {len(factors) - 1}, got {loc}")
    left, right = factors[:loc], factors[loc:]
    producer, consumer = (left, right) if pol else (right, left)
    taken = {o.name for o in operands(tree)} | {t.name for t in temporaries(tree)}
    return _replace(tree, path, split(section, producer, consumer, _bound_at(tree, path), taken))


def reorder(tree: Node, path: Sequence[int], order: Sequence[str]) -> Node:
    """SparseAuto's ``reorder(path, order)``: permute the loops of the linear section at ``path``."""
    section = _at(tree, path)
    if not isinstance(section, Leaf):
        raise ScheduleError(f"reorder: path {list(path)} is not a linear section")
    if sorted(order) != sorted(section.loops):
        raise ScheduleError(f"reorder: give each of {', '.join(section.loops)} once")
    return _replace(tree, path, Leaf(tuple(order), section.statement))
