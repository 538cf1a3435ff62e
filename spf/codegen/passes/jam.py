"""Unroll-and-jam of a loop around a register sum: several iterations share one pass of the inner loop.

A register sum (:class:`codegen.loops.RegisterSum`) adds a loop's terms into one register
and writes the output once after the loop.  Its additions form one chain: each waits for
the last, so a dense inner loop (SDDMM's ``k``, a dense matrix-vector product's ``j``) runs
at the adder's latency, not its throughput.  Jammed by ``W``, the loop around it takes ``W``
iterations at a time: each binds its own values, one pass of the inner loop adds each
iteration's term to that iteration's register (``W`` independent chains), and the ``W``
updates follow in the iterations' order; the iterations left over run as before.

Each register still adds its terms in the inner loop's order and the output still receives
the updates in the loop's order: nothing is reassociated, and the result is the plain
loop's bit for bit (spf compiles with ``-ffp-contract=off``, so the C compiler fuses no
multiply and add, which it might have done differently in the two loops' shapes).  A loop
is jammed when

* it runs serially, and its body is assignments followed by the inner loop, nothing after;
* the inner loop is a register sum whose body is assignments and its one statement (no
  guards, loops or finds, so every pass gives every register the same terms' count);
* the inner loop's bounds read neither the loop's variable nor a value its body binds, so
  the ``W`` iterations' inner loops are one loop, and do not cap it at a few iterations
  (:data:`SHORT_TRIPS`: a BCSR block's row), whose chain is too short to wait on;
* the statement reads no array it writes (no term sees another iteration's update);
* the loop itself is not a register sum (its statement's output moves with it).

A 2-D input that the inner loop reads down a column (SDDMM's ``D(k,j)`` stored row by row,
``k`` the inner loop) costs a cache line per term.  Where the jammed loop walks the segments
of a pointer under a top-level loop, the call counts those segments' entries first (two
reads of the pointer) and, when they number at least :data:`TRANSPOSE_REUSE` times the
input's columns, copies the input transposed and reads the copy along its rows
(:class:`Transposition`); else it reads the input as it is.  The values read are the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from spf.space.expressions import Affine, UFCall

from spf.codegen.loops import Assign, Bound, Compute, Guard, Loop, Node, walk
from spf.codegen.passes.parallel import segment_pointer
from spf.codegen.passes.register_sum import changing_in, fixed_target

JAM_WIDTH = 4
SHORT_TRIPS = 8  # an inner loop of at most this many iterations is not worth jamming around


def jam_register_sums(nodes: list[Node], transpose: bool = True) -> None:
    """Mark (``Loop.jam``) every loop of the nest that can be jammed by :data:`JAM_WIDTH`,
    and, with ``transpose``, (``Loop.transposed``) the top-level loops before which an
    input is copied transposed where that pays (:func:`transpositions`)."""
    for node in walk(nodes):
        if isinstance(node, Loop) and jammable(node):
            node.jam = JAM_WIDTH
    for transposition in transpositions(nodes) if transpose else ():
        transposition.outer.transposed += (transposition,)


def jammable(loop: Loop) -> bool:
    """Whether ``loop`` meets the conditions in the module's docstring."""
    if loop.parallel or loop.zero_rows is not None or loop.thread_state or not loop.body:
        return False
    *prologue, inner = loop.body
    if not isinstance(inner, Loop) or not all(isinstance(node, Assign) for node in prologue):
        return False
    if inner.parallel or inner.zero_rows is not None or inner.thread_state:
        return False
    if not all(isinstance(node, (Assign, Compute)) for node in walk(inner.body)):
        return False
    register_sum = fixed_target(inner)
    if register_sum is None or register_sum.target.stream is not None or register_sum.target.output is None:
        return False
    if fixed_target(loop) is not None:
        return False
    bound = {loop.variable} | {node.variable for node in prologue}
    if any(b.expression.names() & bound for b in inner.lower + inner.upper):
        return False
    if any(trips_at_most(inner, SHORT_TRIPS)):
        return False
    written = register_sum.target.output[0]
    return all(array != written for array, _, _ in register_sum.target.factors)


def trips_at_most(loop: Loop, trips: int):
    """For each pair of the loop's bounds whose difference is a number: whether it caps the
    loop at ``trips`` iterations or fewer."""
    for upper in loop.upper:
        for lower in loop.lower:
            if upper.divisor == 1 and lower.divisor == 1:
                span = upper.expression - lower.expression
                if span.is_constant:
                    yield span.constant + 1 <= trips


# ----------------------------------------------------------------------------- transposed operands

TRANSPOSE_REUSE = 12  # a copy pays when each column of the array is read at least this often per call


@dataclass(frozen=True)
class Transposition:
    """A 2-D input that a jammed loop's inner loop reads down a column (its first index moves
    with the inner loop, its second does not): a stride of a whole row per term, a cache line
    per term once the array outgrows the cache.  Read instead through a copy with its
    dimensions swapped, made when the call starts, if the jammed loop's iterations in the
    call (the segments of ``pointer`` that the top-level loop ``outer`` walks) number at
    least :data:`TRANSPOSE_REUSE` times the array's columns: each column is then read that
    often, and the copy (one pass over the array) is soon repaid."""

    array: str
    dimensions: tuple  # (rows, columns), Arith
    outer: Loop
    pointer: str  # the UF whose segments the jammed loop walks
    reuse: int = TRANSPOSE_REUSE


def transpositions(nodes: list[Node]) -> list[Transposition]:
    """The inputs read through a transposed copy (see :class:`Transposition`): under a
    top-level loop (reached through guards alone) that walks a pointer's segments with a
    jammed loop."""
    items = nodes
    while len(items) == 1 and isinstance(items[0], Guard):
        items = items[0].body
    found: list[Transposition] = []
    for outer in items:
        if not isinstance(outer, Loop):
            continue
        pointer = segment_pointer(outer)
        if pointer is None:
            continue
        starts = {node.variable: node.value for node in assignments_under_guards(outer.body)}
        for loop in loops_under_guards(outer.body):
            if loop.jam > 1 and walks_segments(loop, starts, pointer):
                found.extend(Transposition(array, dimensions, outer, pointer.function)
                             for array, dimensions in _read_down_columns(loop))
    seen: set[str] = set()
    return [t for t in found if not (t.array in seen or seen.add(t.array))]


def loops_under_guards(nodes: list[Node]):
    """The loops in ``nodes`` or under their guards (not under other loops)."""
    for node in nodes:
        if isinstance(node, Loop):
            yield node
        elif isinstance(node, Guard):
            yield from loops_under_guards(node.body)


def assignments_under_guards(nodes: list[Node]):
    """The assignments in ``nodes`` or under their guards (not under loops)."""
    for node in nodes:
        if isinstance(node, Assign) and node.divisor == 1:
            yield node
        elif isinstance(node, Guard):
            yield from assignments_under_guards(node.body)


def walks_segments(loop: Loop, values: dict, pointer: UFCall) -> bool:
    """Whether ``loop`` runs over ``pointer(v) .. pointer(v + 1) - 1`` (v the outer loop's variable)."""
    if len(loop.lower) != 1 or len(loop.upper) != 1 or loop.lower[0].divisor != 1 or loop.upper[0].divisor != 1:
        return False
    after = UFCall(pointer.function, (pointer.arguments[0] + 1,))

    def value(bound: Bound, offset: int):
        expression = bound.expression - offset
        if expression.is_constant or len(expression.terms) != 1 or expression.constant:
            return None
        (atom, coefficient), = expression.terms
        seen = set()
        while coefficient == 1 and isinstance(atom, str) and atom not in seen:  # through copies (_u2 = _u1)
            seen.add(atom)
            found = values.get(atom)
            if not (isinstance(found, Affine) and len(found.terms) == 1 and not found.constant):
                return found
            (atom, coefficient), = found.terms
        return None

    return value(loop.lower[0], 0) == pointer and value(loop.upper[0], -1) == after


def _read_down_columns(loop: Loop):
    """(array, dimensions) of each 2-D input of the jammed loop's statement whose first index
    moves with the inner loop and whose second does not."""
    inner = loop.body[-1]
    register_sum = fixed_target(inner)
    changing = changing_in(inner)
    written = register_sum.target.output[0]
    for array, indices, dimensions in register_sum.target.factors:
        if array != written and len(indices) == 2 and len(dimensions) == 2 \
                and indices[0].names() & changing and not indices[1].names() & changing:
            yield array, tuple(dimensions)

