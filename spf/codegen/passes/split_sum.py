"""Split register sums: the rows of a long-row matrix add into several registers.

A register sum (:class:`spf.codegen.loops.RegisterSum`) adds its loop's terms into one
register, so its additions form one chain, each waiting for the last: the loop runs at the
adder's latency, not its throughput.  SpMV's rows of a matrix with long rows (BlogCatalog3,
65 terms a row) are such chains.  Split (``RegisterSum.lanes``), a row of at least
:data:`SPLIT_LEAST_TRIPS` terms gives its terms round-robin to :data:`SPLIT_LANES`
registers (lane ``k`` takes terms ``k, k + lanes, ...``), adds the registers pairwise
(``(s0 + s1) + (s2 + s3)``) and then the terms left over; a shorter row is one chain.

The test of a row's length costs short rows (measured: up to 10% on SpMV with 5 terms a row,
30% on TTV's fibres of 1 or 2 entries), so the choice is made once per call, not per row:
the top-level loop whose rows the register sum walks is *versioned*, a copy with the split
sums run when the rows average at least :data:`SPLIT_LEAST_TRIPS` terms (the pointer's
first and last entries say how many), the loop as it was otherwise.

The sum is reassociated, so it may differ from the one chain's by rounding; which sum a row
gets depends only on the input (its length and the call's average), so every call, every
thread count and every variant of the kernel gives the same result for the same input.  A
register sum is split when

* it is serial, not the inner loop of a jammed loop (jamming already keeps several chains,
  spf.codegen.passes.jam), and its body is assignments and its one statement;
* it walks the segment ``pointer(v) .. pointer(v + 1) - 1`` of a top-level loop over ``v``
  (reached through guards), whose bounds are one expression each;
* that loop's nest holds no find, merge, state or per-thread chunk (the copy must not share
  any: a find's state starts outside the loop).
"""

from __future__ import annotations

import copy

from spf.space.expressions import Affine, Constraint, UFCall

from spf.codegen.loops import Assign, Chunks, Compute, Find, Guard, Loop, Merge, Node, StateInit, walk
from spf.codegen.passes.jam import assignments_under_guards, loops_under_guards, walks_segments
from spf.codegen.passes.parallel import segment_pointer

SPLIT_LANES = 4
SPLIT_LEAST_TRIPS = 16  # rows shorter than this (and calls whose rows average less) keep one chain


def split_register_sums(nodes: list[Node]) -> list[Node]:
    """The nest with every top-level loop whose rows a splittable register sum walks
    versioned: ``if (rows average >= SPLIT_LEAST_TRIPS) <copy, sums split> else <loop>``."""
    result: list[Node] = []
    for node in nodes:
        if isinstance(node, Guard):
            node.body = split_register_sums(node.body)
            node.otherwise = split_register_sums(node.otherwise)
            result.append(node)
        elif isinstance(node, Loop):
            result.append(_versioned(node))
        else:
            result.append(node)
    return result


def splittable(loop: Loop) -> bool:
    """Whether the register sum over ``loop`` may be split (its own conditions)."""
    if loop.register_sum is None or loop.parallel or loop.jam > 1 or loop.pieces is not None \
            or loop.zero_rows is not None or loop.thread_state:
        return False
    if not all(isinstance(node, (Assign, Compute)) for node in loop.body):
        return False
    return sum(isinstance(node, Compute) for node in loop.body) == 1


def _versioned(outer: Loop) -> Node:
    """``outer`` versioned by its rows' average length, or itself when nothing in it splits."""
    pointer = segment_pointer(outer)
    if pointer is None or len(outer.lower) != 1 or len(outer.upper) != 1 \
            or outer.lower[0].divisor != 1 or outer.upper[0].divisor != 1:
        return outer
    if any(isinstance(node, (Find, Merge, StateInit, Chunks)) or (isinstance(node, Loop) and node.thread_state)
           for node in walk([outer])):
        return outer
    starts = {node.variable: node.value for node in assignments_under_guards(outer.body)}
    rows = [position for position, loop in enumerate(loops_under_guards(outer.body))
            if splittable(loop) and walks_segments(loop, starts, pointer)]
    if not rows:
        return outer
    split = copy.deepcopy(outer)
    for position, loop in enumerate(loops_under_guards(split.body)):
        if position in rows:
            loop.register_sum.lanes, loop.register_sum.least_trips = SPLIT_LANES, SPLIT_LEAST_TRIPS
    return Guard(long_rows(outer, pointer), [split], [outer])


def long_rows(outer: Loop, pointer: UFCall) -> list[Constraint]:
    """``first <= last and pointer(last + 1) - pointer(first) >= least * (last - first + 1)``:
    the loop runs and its rows average at least SPLIT_LEAST_TRIPS entries (the pointer is
    read at ``last + 1`` only when the loop runs, where its iterations read it too)."""
    first, last = outer.lower[0].expression, outer.upper[0].expression
    function = pointer.function
    entries = Affine.of(UFCall(function, (last + 1,))) - Affine.of(UFCall(function, (first,)))
    return [Constraint(first, "<=", last),
            Constraint(entries, ">=", _times(last - first + 1, SPLIT_LEAST_TRIPS))]


def _times(expression: Affine, factor: int) -> Affine:
    return Affine.build({atom: coefficient * factor for atom, coefficient in expression.terms},
                        expression.constant * factor)
