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

Taken when every innermost independent loop runs ``0 .. X - 1`` for one and the same
scalar X (a tensor's extent field), or for scalars the kernel's shape checks make equal
(each is then tested in the branch).  The printer duplicates the nests only when they keep
no find state and add nothing at the function's entry or exit (no finds, no assembly),
so the copies share nothing but the output.
"""

from __future__ import annotations

from typing import Iterable

from spf.space.expressions import Affine, Constraint

from spf.codegen.loops import Loop, Node, walk

SPECIALIZED_EXTENTS = (16, 32, 64)  # ranks and column counts users pick most (a copy of the nests each)


def specialized_extent(nests: list[list[Node]], shape_checks: Iterable[Constraint] = ()) -> tuple[str, ...] | None:
    """The scalars the kernel is specialised for, or None: the one X every innermost
    independent loop of ``nests`` runs ``0 .. X - 1`` for, or several such scalars that the
    kernel's ``shape_checks`` (tested before the nests run) make equal, as a fused tree's
    loops over a vector temporary and over the operands it pairs (``T_BD_N0 == A_N1``): the
    branch then tests each, so the compiler knows every one of them."""
    extents = set()
    for nodes in nests:
        for node in walk(nodes):
            if isinstance(node, Loop) and node.independent is not None:
                extents.add(_trip_scalar(node))
    if not extents or None in extents:
        return None
    if len(extents) > 1 and not _equal(extents, shape_checks):
        return None
    return tuple(sorted(extents))


def _equal(scalars: set[str], shape_checks: Iterable[Constraint]) -> bool:
    """Whether equalities ``X = Y`` among ``shape_checks`` join all of ``scalars``."""
    joined: dict[str, str] = {}

    def root(scalar: str) -> str:
        while joined.get(scalar, scalar) != scalar:
            scalar = joined[scalar]
        return scalar
    for check in shape_checks:
        difference = check.difference()
        if check.op != "=" or difference.constant != 0 or len(difference.terms) != 2:
            continue
        (first, a), (second, b) = difference.terms
        if isinstance(first, str) and isinstance(second, str) and a == -b and abs(a) == 1:
            joined[root(first)] = root(second)
    return len({root(scalar) for scalar in scalars}) == 1


def _trip_scalar(loop: Loop) -> str | None:
    """X when ``loop`` runs ``0 .. X - 1`` for a scalar X, else None."""
    if len(loop.lower) != 1 or len(loop.upper) != 1 or loop.lower[0].divisor != 1 or loop.upper[0].divisor != 1:
        return None
    low, high = loop.lower[0].expression, loop.upper[0].expression
    if low != Affine() or high.constant != -1 or len(high.terms) != 1:
        return None
    (atom, coefficient), = high.terms
    return atom if isinstance(atom, str) and coefficient == 1 else None
