"""Kernels specialised for common extents of their innermost dense loop.

An innermost loop over a dense index (MTTKRP's and TTM's loop over the rank, SpMM's over
B's columns: a loop marked independent, spf.codegen.passes.independent) runs a trip count
the compiler does not know, so gcc keeps a vector loop with its remainder and reloads the
output's row it updates on every iteration of the sparse loops around it.  Told the count,
it unrolls the loop into a few vector operations and keeps that row in registers: MTTKRP
with R = 16 on three small tensors of benchmarks/mttkrp.py ran 1.3-2.3x faster.  So the
kernel runs its nests in one copy per value of :data:`SPECIALIZED_EXTENTS`, each in the
branch where the extent is that value, and the general copy for any other value (the same
C each time; the compiler propagates the constant).

Taken when every innermost independent loop runs ``0 .. X - 1`` for a scalar X (a tensor's
extent field).  With several such scalars (a fused tree's loops over a vector temporary and
over the operands it pairs, or over two dense indices: K4's k and l, both the rank d) a
copy runs where all of them are the value, and any other combination takes the general
copy.  The printer duplicates the nests only when they keep no find state and add nothing
at the function's entry or exit (no finds, no assembly), so the copies share nothing but
the output.
"""

from __future__ import annotations

from spf.space.expressions import Affine

from spf.codegen.loops import Loop, Node, walk

SPECIALIZED_EXTENTS = (16, 32, 64)  # ranks and column counts users pick most (a copy of the nests each)


def specialized_extent(nests: list[list[Node]]) -> tuple[str, ...] | None:
    """The scalars the kernel is specialised for, or None: every X an innermost independent
    loop of ``nests`` runs ``0 .. X - 1`` for (a copy's branch tests each of them), None
    when some such loop has other bounds."""
    extents = set()
    for nodes in nests:
        for node in walk(nodes):
            if isinstance(node, Loop) and node.independent is not None:
                extents.add(_trip_scalar(node))
    if not extents or None in extents:
        return None
    return tuple(sorted(extents))


def _trip_scalar(loop: Loop) -> str | None:
    """X when ``loop`` runs ``0 .. X - 1`` for a scalar X, else None."""
    if len(loop.lower) != 1 or len(loop.upper) != 1 or loop.lower[0].divisor != 1 or loop.upper[0].divisor != 1:
        return None
    low, high = loop.lower[0].expression, loop.upper[0].expression
    if low != Affine() or high.constant != -1 or len(high.terms) != 1:
        return None
    (atom, coefficient), = high.terms
    return atom if isinstance(atom, str) and coefficient == 1 else None
