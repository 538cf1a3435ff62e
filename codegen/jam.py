"""Unroll-and-jam of a loop around a register sum: several iterations share one pass of the inner loop.

A register sum (:class:`codegen.emit_c.RegisterSum`) adds a loop's terms into one register
and writes the output once after the loop.  Its additions form one chain: each waits for
the last, so a dense inner loop (SDDMM's ``k``, a dense matrix-vector product's ``j``) runs
at the adder's latency, not its throughput.  Jammed by ``W``, the loop around it takes ``W``
iterations at a time: each binds its own values, one pass of the inner loop adds each
iteration's term to that iteration's register (``W`` independent chains), and the ``W``
updates follow in the iterations' order; the iterations left over run as before.

Each register still adds its terms in the inner loop's order and the output still receives
the updates in the loop's order: nothing is reassociated.  (The result is the plain loop's
bit for bit when the C compiler does not contract a multiply and an add into one fused
multiply-add, ``-ffp-contract=off``; where it contracts, it may do so differently in the
two loops' shapes, a rounding apart.)  A loop is jammed when

* it runs serially, and its body is assignments followed by the inner loop, nothing after;
* the inner loop is a register sum whose body is assignments and its one statement (no
  guards, loops or finds, so every pass gives every register the same terms' count);
* the inner loop's bounds read neither the loop's variable nor a value its body binds, so
  the ``W`` iterations' inner loops are one loop, and do not cap it at a few iterations
  (:data:`SHORT_TRIPS`: a BCSR block's row), whose chain is too short to wait on;
* the statement reads no array it writes (no term sees another iteration's update);
* the loop itself is not a register sum (its statement's output moves with it).
"""

from __future__ import annotations

from .emit_c import fixed_target
from .loops import Assign, Compute, Loop, Node, walk

JAM_WIDTH = 4
SHORT_TRIPS = 8  # an inner loop of at most this many iterations is not worth jamming around


def jam_register_sums(nodes: list[Node]) -> None:
    """Mark (``Loop.jam``) every loop of the nest that can be jammed by :data:`JAM_WIDTH`."""
    for node in walk(nodes):
        if isinstance(node, Loop) and jammable(node):
            node.jam = JAM_WIDTH


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
    if any(_at_most(inner, SHORT_TRIPS)):
        return False
    written = register_sum.target.output[0]
    return all(array != written for array, _, _ in register_sum.target.factors)


def _at_most(loop: Loop, trips: int):
    """For each pair of the loop's bounds whose difference is a number: whether it caps the
    loop at ``trips`` iterations or fewer."""
    for upper in loop.upper:
        for lower in loop.lower:
            if upper.divisor == 1 and lower.divisor == 1:
                span = upper.expression - lower.expression
                if span.is_constant:
                    yield span.constant + 1 <= trips
