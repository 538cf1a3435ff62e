"""Terminal sums: a register sum under a monoid with a terminal value (``any`` and ``lor``
once it holds a nonzero, ``land`` once it holds zero: spf.notation.semirings) stops its
loop there, since ⊕ of any later term leaves it as it is (Z3 proves it of the monoid's
meaning: ``semirings.terminal_proven``).

A breadth-first search's pull ``y(j) = A(i,j) * q(i)`` under lor_land (or any_pair) asks,
per unvisited vertex j, whether any in-neighbour is in the frontier: the first one found
answers it, and a column walked to its end would read every edge of every unvisited
vertex in every round (GraphBLAS's dot-product method stops at a monoid's terminal value
too).  The test sits at the end of the loop's body, outside any find the body holds, so
``break`` leaves the loop itself; a find's state kept between iterations has been written
back by then.  Only a loop printed as one plain serial C loop takes it (not parallel, cut
into pieces, jammed or inside a jammed loop, zeroing rows by blocks, with transposed
copies or thread state), and its sum is then never split into lanes
(spf.codegen.passes.split_sum): the lanes would each have to reach the value.
"""

from __future__ import annotations

from spf.notation.semirings import Monoid, terminal_proven

from spf.codegen.loops import Loop, Node
from spf.codegen.passes.early_exit import plain_loops


def mark_terminal_sums(nodes: list[Node], add: Monoid) -> None:
    """Set ``RegisterSum.terminal`` on every register sum of a plain serial loop (see the
    module's docstring) when ``add`` has a terminal value, proven final by Z3."""
    if not terminal_proven(add):
        return
    for loop in plain_loops(nodes, jammed=False):
        if loop.register_sum is not None and stoppable(loop):
            loop.register_sum.terminal = add.terminal


def stoppable(loop: Loop) -> bool:
    """Whether ``loop`` is printed as one plain serial C loop, which ``break`` may leave."""
    return not (loop.parallel or loop.jam != 1 or loop.transposed or loop.zero_rows is not None
                or loop.pieces is not None or loop.thread_state or loop.opens_group)
