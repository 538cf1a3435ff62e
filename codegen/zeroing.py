"""Zero a dense output where the nest writes it, not in a pass of its own.

A kernel that assigns (``=``) a dense output starts from zeros.  Zeroing the whole
output before the nest reads and writes every entry of it once more: for SpMV on a
matrix of short rows that pass is a fifth of the traffic.  When the nest's outermost
loop runs over the output's first coordinate itself (``y(i)`` with ``i = pAi`` in CSR,
``C(i, j)`` with the same ``i``), iterations ``[b, e)`` write only the rows ``[b, e)``
of the output.  The loop then runs in blocks, and each block zeroes its own rows right
before it computes them, while they are in cache; the rows the loop does not reach (or
all rows, when the nest does not run) are zeroed before it.  Under a parallel loop split
into one part per thread, each thread zeroes the rows it computes (first touch).
"""

from __future__ import annotations

from dataclasses import dataclass

from spf.expressions import Constraint

from .loops import Compute, Guard, Loop, Node, copied_from, walk

BLOCK_ENTRIES = 2048  # output entries zeroed per block: 16 KiB of doubles, well inside L1 + L2


@dataclass(frozen=True)
class RowZeroing:
    """The output rows a loop's iterations zero: iteration ``v`` owns the entries
    ``[v * inner, (v + 1) * inner)`` of ``array``, whose first dimension is ``extent``.
    ``guards`` (over parameters) must hold for the loop to run at all."""

    array: str
    extent: object  # Arith: the output's first dimension
    inner: tuple  # Arith: its other dimensions
    guards: tuple[Constraint, ...] = ()


def fold_output_zeroing(nodes: list[Node], output_array: str) -> RowZeroing | None:
    """Mark the nest's outermost loop to zero the output by blocks (``Loop.zero_rows``)
    when every write of the output is at a row equal to that loop's variable; else None
    (the kernel zeroes the whole output first, as before)."""
    guards: list[Constraint] = []
    items = nodes
    while len(items) == 1 and isinstance(items[0], Guard):
        guards.extend(items[0].conditions)
        items = items[0].body
    if len(items) != 1 or not isinstance(items[0], Loop):
        return None
    loop = items[0]
    if loop.parallel and not (loop.schedule == "balanced" and loop.reduction is None and _has_pointer(loop)):
        return None  # a dynamic or privatized schedule: iterations are not one thread's contiguous range
    writes = [node for node in walk(loop.body) if isinstance(node, Compute)]
    if not writes or any(node.output is None or node.output[0] != output_array for node in writes):
        return None
    dimensions = writes[0].output[2]
    for node in writes:
        if node.output[2] != dimensions or copied_from(node.output[1][0], loop.body) != loop.variable:
            return None
    loop.zero_rows = RowZeroing(output_array, dimensions[0], tuple(dimensions[1:]), tuple(guards))
    return loop.zero_rows


def _has_pointer(loop: Loop) -> bool:
    from .emit_c import segment_pointer
    return segment_pointer(loop) is not None
