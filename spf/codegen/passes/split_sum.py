"""Split register sums: the rows of a long-row matrix add into several registers.

A register sum (:class:`spf.codegen.loops.RegisterSum`) adds its loop's terms into one
register, so its additions form one chain, each waiting for the last: the loop runs at the
adder's latency, not its throughput.  SpMV's rows of a matrix with long rows (BlogCatalog3,
65 terms a row) are such chains.  Split (``RegisterSum.lanes``), a row of at least
:data:`SPLIT_LEAST_TRIPS` terms gives its terms round-robin to :data:`SPLIT_LANES`
registers (lane ``k`` takes terms ``k, k + lanes, ...``), adds the registers pairwise
(``(s0 + s1) + (s2 + s3)``) and then the terms left over; a shorter row is one chain.

The sum is reassociated, so it may differ from the one chain's by rounding; which sum a row
gets depends on that row alone (its length), so every call, thread count, variant and
distributed partition gives the same result for the same row.  (A choice per call, by the
rows' average, would spare short rows the test of their length — measured 5-10% on SpMV
with 5 terms a row — but a rank of a distributed kernel, seeing some of the rows, would then
sum differently from one process.)  The test costs TTV's fibres of 1 or 2 entries 30%, so
only the rows of a top-level loop are split, never the fibres of a level below.  A register
sum is split when

* it is serial, not the inner loop of a jammed loop (jamming already keeps several chains,
  spf.codegen.passes.jam), and its body is assignments and its one statement, which may sit
  in a masked lookup (SpMSpV's, spf.codegen.passes.masked_lookup: a term added without a
  branch, whichever way the lookup goes);
* it walks the segment ``pointer(v) .. pointer(v + 1) - 1`` of a top-level loop over ``v``
  (reached through guards).
"""

from __future__ import annotations

from spf.codegen.loops import Assign, Compute, Find, Guard, Loop, Node
from spf.codegen.passes.jam import assignments_under_guards, loops_under_guards, walks_segments
from spf.codegen.passes.parallel import segment_pointer

SPLIT_LANES = 4
SPLIT_LEAST_TRIPS = 48  # rows shorter than this keep one chain (benchmarks/spmv.py: 16 cost astro-ph, 14.5 terms a row, 1.4x)


def split_register_sums(nodes: list[Node]) -> None:
    """Set ``RegisterSum.lanes`` on every splittable register sum walking the rows of a
    top-level loop of the nest (reached through guards)."""
    for node in nodes:
        if isinstance(node, Guard):
            split_register_sums(node.body)
            split_register_sums(node.otherwise)
        elif isinstance(node, Loop):
            _split_rows(node)


def splittable(loop: Loop) -> bool:
    """Whether the register sum over ``loop`` may be split (its own conditions)."""
    if loop.register_sum is None or loop.register_sum.terminal or loop.parallel or loop.jam > 1 \
            or loop.pieces is not None or loop.zero_rows is not None or loop.thread_state:
        return False
    body = list(loop.body)
    finds = [node for node in body if isinstance(node, Find)]
    if finds:  # a masked lookup (spf.codegen.passes.masked_lookup) adds its term without a branch, as a plain term
        if len(finds) != 1 or not finds[0].masked:
            return False
        body = [node for node in body if node is not finds[0]] + finds[0].body
    if not all(isinstance(node, (Assign, Compute)) for node in body):
        return False
    return sum(isinstance(node, Compute) for node in body) == 1


def _split_rows(outer: Loop) -> None:
    """Split the register sums that walk the rows of ``outer``."""
    pointer = segment_pointer(outer)
    if pointer is None:
        return
    starts = {node.variable: node.value for node in assignments_under_guards(outer.body)}
    for loop in loops_under_guards(outer.body):
        if splittable(loop) and walks_segments(loop, starts, pointer):
            loop.register_sum.lanes, loop.register_sum.least_trips = SPLIT_LANES, SPLIT_LEAST_TRIPS
