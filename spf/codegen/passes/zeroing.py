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

Where each iteration writes its one output entry at most once (SpMV's ``y[i]``, the sum
of row ``i`` kept in a register), nothing needs zeroing at all: the entry is stored
(``=``) and an iteration whose guards fail stores a zero instead (TACO's ``y[i] = sum``).
The same holds one level down, where the output entry is the position of a segment the
outermost loop walks (TTV into B's own (i, j) fibres: ``A_vals[p1] = sum`` for ``p1`` in
``ptr0[p0] .. ptr0[p0 + 1] - 1``): iteration ``p0`` stores the entries
``[ptr0[p0], ptr0[p0 + 1])`` and the entries outside the loop's segments are zeroed first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spf.layout_library.model import Arith, Name
from spf.space.expressions import Affine, Constraint, UFCall

from spf.codegen.loops import (Assign, Block, Bound, Compute, Guard, Loop, Node, Temporary, ZeroEntry, copied_from,
                               outer_loops, walk)
from spf.codegen.passes.parallel import segment_pointer
from spf.codegen.passes.register_sum import fixed_target

BLOCK_ENTRIES = 2048  # output entries zeroed per block: 16 KiB of doubles, well inside L1 + L2


@dataclass(frozen=True)
class RowZeroing:
    """The output rows a loop's iterations zero: iteration ``v`` owns the entries
    ``[v * inner, (v + 1) * inner)`` of ``array``, whose first dimension is ``extent``.
    ``guards`` (over parameters) must hold for the loop to run at all.  ``stores``: the
    iterations store their entries rather than add to them, so no block zeroes its rows.
    Otherwise a block is as many rows as hold ``block_entries`` entries (one row at least)."""

    array: str
    extent: Arith  # the output's first dimension
    inner: tuple[Arith, ...]  # its other dimensions
    guards: tuple[Constraint, ...] = ()
    stores: bool = False
    block_entries: int = BLOCK_ENTRIES
    pointer: str | None = None  # iteration v owns the rows [pointer(v), pointer(v + 1)) instead (stores them, or zeroes them)


def fold_output_zeroing(nodes: list[Node], output_array: str) -> RowZeroing | None:
    """Mark the loop that writes the output (the nest's outermost loop, or the phase of a
    fused nest that writes it) to zero the output by blocks (``Loop.zero_rows``), or to
    store each row once (``stores``), when every write of the output is at a row equal
    to that loop's variable, or at a row of the segment its iteration walks; else None
    (the kernel zeroes the whole output first)."""
    found = _output_phase(nodes, output_array)
    if found is None:
        return None
    loop, guards = found
    if loop.parallel and loop.reduction is not None:
        return None  # iterations share output entries
    # under a dynamic schedule a thread's iterations are not one contiguous range of rows to zero
    contiguous = not loop.parallel or (loop.schedule == "balanced" and _has_pointer(loop))
    private = {node.name for node in walk(loop.body) if isinstance(node, Temporary)}
    computes = [node for node in walk(loop.body) if isinstance(node, Compute)]
    if any(node.output is None or node.output[0] not in private | {output_array} for node in computes):
        return None
    writes = [node for node in computes if node.output[0] == output_array]
    if not writes:
        return None
    dimensions = writes[0].output[2]
    if len(writes) == 1 and len(dimensions) == 1 and not private \
            and copied_from(writes[0].output[1][0], loop.body) != loop.variable:
        folded = _fold_segments(loop, writes[0], guards)
        if folded is not None:
            return folded
    if any(node.output[2] != dimensions for node in writes):
        return None
    if any(copied_from(node.output[1][0], loop.body) != loop.variable for node in writes):
        return _fold_segment_rows(loop, writes, guards, contiguous)
    zeroing = RowZeroing(output_array, dimensions[0], tuple(dimensions[1:]), tuple(guards))
    if len(writes) == 1 and len(dimensions) == 1 and not private and _store_once(loop, writes[0]):
        zeroing = replace(zeroing, stores=True)
    elif not contiguous:
        return None
    loop.zero_rows = zeroing
    return zeroing


def _output_phase(nodes: list[Node], output_array: str) -> tuple[Loop, list[Constraint]] | None:
    """The one loop outside every other loop that writes the output, and the guards around
    it (over parameters: they run before the nest); None when the output is written
    elsewhere too, or a guard names what the nest assigns."""
    def writes_output(node) -> bool:
        return (isinstance(node, Compute) and node.output is not None and node.output[0] == output_array) \
            or isinstance(node, ZeroEntry)
    writing = [(loop, guards) for loop, guards in outer_loops(nodes) if any(map(writes_output, walk(loop.body)))]
    if len(writing) != 1:
        return None
    loop, guards = writing[0]
    if sum(map(writes_output, walk(nodes))) != sum(map(writes_output, walk(loop.body))):
        return None  # written outside the loop too
    assigned = {node.variable for node in walk(nodes) if isinstance(node, (Assign, Loop))}
    if any((c.left.names() | c.right.names()) & assigned for c in guards):
        return None
    return loop, list(guards)


def _fold_segment_rows(loop: Loop, writes: list[Compute], guards: list[Constraint],
                       contiguous: bool) -> RowZeroing | None:
    """Iteration ``v`` of ``loop`` writes only the output rows ``[f(v), f(v + 1))`` (``f``
    its segment pointer) when every write's row is the variable of a loop over that segment
    (K7's ``A_val[pA1, m]`` with ``pA1 = pB1`` over ``B_ptr0(pB0) .. B_ptr0(pB0 + 1) - 1``):
    consecutive iterations' segments are adjacent, so blocks of iterations zero the rows
    ``[f(b), f(e))`` they own; else None."""
    pointer = segment_pointer(loop)
    ends = _segment_ends(loop, pointer) if pointer is not None and contiguous else None
    if ends is None:
        return None
    begin, end = ends
    segment_loops = {node.variable for node in walk(loop.body)
                     if isinstance(node, Loop) and not node.parallel
                     and node.lower == [Bound(begin)] and node.upper == [Bound(end - 1)]}
    if any(copied_from(node.output[1][0], loop.body) not in segment_loops for node in writes):
        return None
    dimensions = writes[0].output[2]
    zeroing = RowZeroing(writes[0].output[0], dimensions[0], tuple(dimensions[1:]), tuple(guards),
                         pointer=pointer.function)
    loop.zero_rows = zeroing
    return zeroing


def _segment_ends(loop: Loop, pointer: UFCall) -> tuple[Affine, Affine] | None:
    """The variables the loop's body assigns ``f(v)`` and ``f(v + 1)`` (``pointer`` = ``f(v)``)."""
    variable = Affine.of(loop.variable)
    ends = {}
    for node in loop.body:
        if isinstance(node, Assign) and isinstance(node.value, UFCall) and node.divisor == 1:
            if node.value == pointer:
                ends["begin"] = node.variable
            elif node.value == UFCall(pointer.function, (variable + 1,)):
                ends["end"] = node.variable
    if len(ends) != 2:
        return None
    return Affine.of(ends["begin"]), Affine.of(ends["end"])


def _store_once(loop: Loop, write: Compute) -> bool:
    """Make iteration ``v`` store output entry ``v`` instead of adding to it, when the
    statement runs at most once per iteration or under one loop whose terms the emitter
    sums in a register: only guards (and scopes) lie between the two loops, and each
    guard on the way stores a zero when it fails."""
    guards: list[Guard] = []
    nodes = loop.body
    while True:
        holder = next((node for node in nodes if _reaches(node, write)), None)
        if holder is None:
            return False
        if holder is write:
            break
        if isinstance(holder, Guard) and any(_reaches(node, write) for node in holder.body):
            guards.append(holder)
            nodes = holder.body
        elif isinstance(holder, Block):
            nodes = holder.body
        elif isinstance(holder, Loop) and not holder.parallel:
            summed = fixed_target(holder)
            if summed is None or summed.target is not write:
                return False
            break
        else:
            return False
    array, _, dimensions = write.output
    for guard in guards:  # each its own node: a pass rewrites a node once
        guard.otherwise = [ZeroEntry((array, (Name(loop.variable),), dimensions))]
    write.stores = True
    return True


def _fold_segments(loop: Loop, write: Compute, guards: list[Constraint]) -> RowZeroing | None:
    """Iteration ``v`` of ``loop`` stores the output entries ``[f(v), f(v + 1))`` (``f`` its
    segment pointer), when the write's position is the variable of the loop over that
    segment, reached only through guards that the segment is not empty, and stored once
    per iteration of it (:func:`_store_once`); else None.  Consecutive iterations' segments
    are adjacent, so a range of iterations stores one range of entries (a pointer that
    decreases is refused when the tensor is packed)."""
    pointer = segment_pointer(loop)
    ends = _segment_ends(loop, pointer) if pointer is not None else None
    if ends is None:
        return None
    begin, end = ends
    nodes = loop.body
    while True:
        holder = next((node for node in nodes if _reaches(node, write)), None)
        if isinstance(holder, Guard) and not holder.otherwise \
                and all(c.op == "<=" and c.right - c.left in (end - begin - 1, end - begin) for c in holder.conditions):
            nodes = holder.body
        elif isinstance(holder, Block):
            nodes = holder.body
        else:
            break
    if not isinstance(holder, Loop) or holder.parallel or holder.lower != [Bound(begin)] \
            or holder.upper != [Bound(end - 1)] or copied_from(write.output[1][0], holder.body) != holder.variable:
        return None
    if not _store_once(holder, write):
        return None
    array, _, dimensions = write.output
    zeroing = RowZeroing(array, dimensions[0], (), tuple(guards), stores=True, pointer=pointer.function)
    loop.zero_rows = zeroing
    return zeroing


def _reaches(node: Node, write: Compute) -> bool:
    return any(item is write for item in walk([node]))


def _has_pointer(loop: Loop) -> bool:
    return segment_pointer(loop) is not None


@dataclass(frozen=True)
class OutputZeroing:
    """How a kernel zeroes its dense output before its nests.  Where a loop zeroes the
    rows it writes by blocks (``rows``, marked by :func:`fold_output_zeroing`), only the
    rows outside its range, all of them when ``guards`` (the nest's entry guards and the
    loop's own) fail; else the whole output, by the kernel's threads when ``parallel``
    (each thread first touches a part of it, where the parallel loop will write)."""

    rows: Loop | None = None
    guards: tuple[Constraint, ...] = ()
    parallel: bool = False

    def describe(self) -> str:
        if self.rows is not None and self.rows.zero_rows.pointer is not None:
            what = "stores" if self.rows.zero_rows.stores else "zeroes, then computes,"
            return (f"each iteration of loop {self.rows.variable} {what} the rows of {self.rows.zero_rows.array} "
                    f"in its segment of {self.rows.zero_rows.pointer}; those outside the loop's segments are "
                    "zeroed before it")
        if self.rows is not None:
            return (f"the rows of {self.rows.zero_rows.array} that loop {self.rows.variable} does not reach "
                    "are zeroed before it")
        return "the whole output is zeroed first" + (" by the kernel's threads (first touch)" if self.parallel else "")


def plan_output_zeroing(nests: list) -> OutputZeroing:
    """How a kernel with these scanned nests (spf.codegen.scanning.scan.Scan, one per statement) zeroes
    its dense output: after the rows the first loop marked to zero them (``Loop.zero_rows``)
    does not reach, or whole, in parallel when a loop of the kernel runs in parallel."""
    for scanned in nests:
        for node in walk(scanned.nodes):
            if isinstance(node, Loop) and node.zero_rows is not None:
                return OutputZeroing(node, tuple(scanned.entry_guards) + tuple(node.zero_rows.guards))
    return OutputZeroing(parallel=any(isinstance(node, Loop) and node.parallel
                                      for scanned in nests for node in walk(scanned.nodes)))
