"""The count phase's loop nest: the iteration space projected onto what it counts.

A two-phase kernel (:class:`spf.codegen.assembly.plan.TwoPhase`) first counts each output row's
entries.  That count needs only the row coordinate of each entry, so every variable the
entry's other coordinate, its value or its row's guards need is dead there; once those
assignments are gone, a loop over a pointer array's parents often does nothing but
bound a segment loop (CSR's ``for pi: for pj in [rowPtr(pi), rowPtr(pi+1))``).  When
the pointer array is non-decreasing (a ``monotonic(g, increasing)`` property) the
segments of consecutive parents are consecutive, so the two loops are one loop over
``[g(first), g(last + 1))``, with no per-row loop exit to mispredict.
"""

from __future__ import annotations

import copy

from spf.space.expressions import Affine, Constraint, UFCall
from spf.space.properties import Monotonic

from spf.codegen.loops import (Assign, Block, Bound, Chunks, Compute, Find, Guard, Loop, Node, TileGuard,
                               expression_names, used_names, remove_dead_assignments, walk)


def count_nest(nodes: list[Node], outer: str, properties: list) -> list[Node]:
    """A copy of ``nodes`` for the count phase: each entry needs only the ``outer``
    coordinate (and its ``padded`` factors, whose zeros are no entries), dead
    assignments dropped, segment loops under a non-decreasing pointer collapsed."""
    nodes = copy.deepcopy(nodes)
    for node in walk(nodes):
        if isinstance(node, Compute) and node.stream is not None:
            node.factors = [factor for factor in node.factors if factor[0] in node.padded]
            node.stream = (outer,)
    nodes = remove_dead_assignments(nodes)
    non_decreasing = {p.arrays[0] for p in properties if isinstance(p, Monotonic) and p.increasing}
    return _collapse(nodes, non_decreasing)


def _collapse(nodes: list[Node], non_decreasing: set[str]) -> list[Node]:
    out: list[Node] = []
    for node in nodes:
        if isinstance(node, (Loop, Guard, Find, TileGuard, Block, Chunks)):
            node.body = _collapse(node.body, non_decreasing)
        collapsed = _segments_of_parents(node, non_decreasing) if isinstance(node, Loop) else None
        out.extend(collapsed if collapsed is not None else [node])
    return out


def _segments_of_parents(loop: Loop, non_decreasing: set[str]) -> list[Node] | None:
    """``for v in [lo, hi]: u0 = g(v + c); u1 = g(v + c + 1); [if u0 + 1 <= u1:] for p in [u0, u1 - 1]: B``
    with B independent of v, u0 and u1 and g non-decreasing, as
    ``if lo <= hi: u0 = g(lo + c); u1 = g(hi + c + 1); for p in [u0, u1 - 1]: B``; else None."""
    if loop.parallel or len(loop.lower) != 1 or len(loop.upper) != 1 \
            or loop.lower[0].divisor != 1 or loop.upper[0].divisor != 1:
        return None
    body = loop.body
    if len(body) != 3 or not all(isinstance(node, Assign) for node in body[:2]):
        return None
    first, second, rest = body
    if isinstance(rest, Guard):
        if len(rest.body) != 1 or not _only_nonempty(rest.conditions, first.variable, second.variable):
            return None
        rest = rest.body[0]
    if not isinstance(rest, Loop) or rest.parallel or len(rest.lower) != 1 or len(rest.upper) != 1:
        return None
    start, end = first.value, second.value
    if not (isinstance(start, UFCall) and isinstance(end, UFCall) and start.function == end.function
            and start.function in non_decreasing and len(start.arguments) == 1 and len(end.arguments) == 1
            and first.divisor == 1 and second.divisor == 1):
        return None
    v = loop.variable
    offset = start.arguments[0] - Affine.of(v)
    if not offset.is_constant or end.arguments[0] - start.arguments[0] != Affine.of(1) \
            or rest.lower[0] != Bound(Affine.of(first.variable)) \
            or rest.upper[0] != Bound(Affine.of(second.variable) - 1):
        return None
    reads: set[str] = set()
    for node in walk(rest.body):
        reads |= expression_names(node.value) if isinstance(node, Assign) else used_names(node)
    if reads & {v, first.variable, second.variable}:
        return None
    low, high = loop.lower[0].expression, loop.upper[0].expression
    return [Guard([Constraint(low, "<=", high)], [
        Assign(first.variable, UFCall(start.function, (low + offset,))),
        Assign(second.variable, UFCall(start.function, (high + offset + 1,))),
        rest])]


def _only_nonempty(conditions: list[Constraint], start: str, end: str) -> bool:
    """Whether the guard is only ``start + 1 <= end`` (the segment is not empty)."""
    if len(conditions) != 1:
        return False
    condition = conditions[0]
    difference = condition.right - condition.left if condition.op == "<=" else None
    return difference is not None and difference == Affine.of(end) - Affine.of(start) - 1
