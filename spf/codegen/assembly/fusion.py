"""Fuse the loop nests of a sum's statements, so an assembled output's rows arrive once.

``C(i,j) = A(i,j) + B(i,j)`` is two statements, ``C += A`` and ``C += B``, each scanned
into its own nest: all of A's rows, then all of B's.  Into an assembled output that is
correct (the builder sums what arrives) but each row of C arrives twice, so the
workspace flushes it twice and the rows cannot be handed over as they stand.  When
every statement's nest is one loop over the same range that binds the same output
coordinate to its variable (``i = pAi``, ``i = pBi``), the loops become one: iteration
``p`` runs A's row ``p``, then B's, and the workspace sees row ``p`` whole: the union
of the terms' patterns, co-iterated row by row.

Valid because the statements only append entries to the output's per-thread streams
(appending commutes: the workspace and the builder sum equal coordinates) and share
nothing else: nests with finds (their state would be placed around the loops) or
temporaries are left alone.  Each fused body keeps its statement's entry guards and,
for the later statements, its own loop bounds, so the fused loop never runs a body
outside the range its statement's loop had.
"""

from __future__ import annotations

from dataclasses import replace

from spf.space.expressions import Affine, Constraint

from spf.codegen.loops import Assign, Block, Bound, Find, Guard, Loop, StateInit, Temporary, TileGuard, walk
from spf.codegen.scanning.scan import Scan


def fuse_statement_nests(scans: list[Scan], output_indices: tuple[str, ...]) -> list[Scan] | None:
    """The scans with the first one's nest running every statement, the others emptied;
    None when the nests cannot be fused (see the module's docstring)."""
    if len(scans) < 2 or not all(_fusible(s) for s in scans):
        return None
    loops = [s.nodes[0] for s in scans]
    first = loops[0]
    bound = {_bound_coordinate(loop, output_indices) for loop in loops}
    if len(bound) != 1 or None in bound:
        return None
    ranges = {_in_extents(loop.lower, scan) + _in_extents(loop.upper, scan) for loop, scan in zip(loops, scans)}
    if len(ranges) != 1 or None in next(iter(ranges)):
        return None
    if any((loop.parallel, loop.schedule, loop.reduction) != (first.parallel, first.schedule, first.reduction)
           for loop in loops):
        return None
    body = []
    for number, (loop, scan) in enumerate(zip(loops, scans)):
        guards = list(scan.entry_guards)
        statements = list(loop.body)
        if number:
            position = Affine(((first.variable, 1),), 0)
            guards += [Constraint(position, ">=", b.expression) for b in loop.lower]
            guards += [Constraint(position, "<=", b.expression) for b in loop.upper]
            if loop.variable != first.variable:  # (two terms over one tensor walk it with one variable)
                statements = [Assign(loop.variable, position)] + statements
        body.append(Guard(guards, statements) if guards else Block(statements))
    fused = replace(first, body=body)
    head = replace(scans[0], nodes=[fused], entry_guards=[])
    return [head] + [replace(s, nodes=[], entry_guards=[], finds=[]) for s in scans[1:]]


def _fusible(scan: Scan) -> bool:
    """One loop at the top, no find, find state, temporary or tile guard anywhere in it."""
    if len(scan.nodes) != 1 or not isinstance(scan.nodes[0], Loop) or scan.nodes[0].thread_state:
        return False
    if any(b.divisor != 1 for b in scan.nodes[0].lower + scan.nodes[0].upper):
        return False
    return not any(isinstance(node, (Find, StateInit, Temporary, TileGuard)) for node in walk(scan.nodes))


def _bound_coordinate(loop: Loop, output_indices: tuple[str, ...]) -> str | None:
    """The output coordinate the loop's variable is (``i = pAi`` in its body), or None."""
    variable = Affine(((loop.variable, 1),), 0)
    for node in walk(loop.body):
        if isinstance(node, Assign) and node.variable in output_indices and node.value == variable \
                and node.divisor == 1:
            return node.variable
    return None


def _in_extents(bounds: list[Bound], scan: Scan) -> tuple:
    """Bounds with the tensor scalars that are an extent (``A_numRows`` for ``N_i``) written
    as that extent, so two statements' loops over the same index compare equal; None in
    the tuple where a bound is not in extents alone."""
    renaming = {}
    for extent, expression in scan.extents.items():
        if expression.constant == 0 and len(expression.terms) == 1 and expression.terms[0][1] == 1:
            renaming[expression.terms[0][0]] = Affine(((extent, 1),), 0)
    rewritten = []
    for b in bounds:
        expression = b.expression.substitute(renaming)
        known = all(isinstance(atom, str) and atom in scan.extents for atom, _ in expression.terms)
        rewritten.append(str(expression) if known else None)
    return tuple(sorted(rewritten, key=str))
