"""Independent iterations: an innermost loop whose iterations share no memory location
that one of them writes.

Such a loop (MTTKRP's, TTM's and SpMM's dense loop over the output's last index: each
iteration adds to its own output entry and reads only inputs) is marked
``Loop.independent``.  The C printer then puts ``#pragma GCC ivdep`` before it, and reads
the statement's factors that do not change in the loop once, before it.  Without the
pragma gcc vectorises such a loop behind a run-time test of whether the output overlaps
the inputs, run once per entry of the loop around it (gcc does not apply the ``restrict``
of the kernel's block-scope array pointers to these loops).

The proof: the loop holds one statement and no other loop, find or merge; the statement
writes an array it does not read, at a position whose row-major offset changes with the
loop's variable by exactly one of its indices, of the form ``±variable + c`` (``c`` not
changing in the loop): distinct iterations write distinct entries of an in-bounds
array.  Nothing else in the loop writes memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from spf.layout_library.model import Arith, BinaryOp, Name
from spf.space.expressions import Affine, UFCall

from spf.codegen.loops import Assign, Block, Chunks, Compute, Find, Guard, Loop, Node, TileGuard, walk
from spf.codegen.passes.register_sum import changing_in


@dataclass(frozen=True)
class IndependentIterations:
    """``Loop.independent``: the loop's iterations are independent (``#pragma GCC ivdep``);
    ``invariant_factors``: positions of the statement's factors that do not change in the
    loop, read once before it (the statement is not under a guard in the loop, and the
    reads run only when the loop runs at least once)."""

    invariant_factors: tuple[int, ...] = ()


def mark_independent_loops(nodes: list[Node]) -> None:
    """Set ``Loop.independent`` on every innermost loop of the nest whose iterations are
    independent (see the module's docstring); not under a parallel loop with atomic
    updates, nor on a merge's arms (the merge steps them)."""
    _mark(nodes, atomic=False)


def _mark(nodes: list[Node], atomic: bool) -> None:
    for node in nodes:
        if isinstance(node, Loop):
            if not atomic:
                node.independent = independent_iterations(node)
            _mark(node.body, atomic or node.reduction == "atomic")
        elif isinstance(node, (Guard, Find, TileGuard, Block, Chunks)):
            _mark(node.body, atomic)
            if isinstance(node, Guard):
                _mark(node.otherwise, atomic)
        # a Merge's arms are stepped by the merge, not printed as loops: nothing inside is marked


def independent_iterations(loop: Loop) -> IndependentIterations | None:
    """The mark of ``loop`` when its iterations are provably independent, else None."""
    if loop.parallel or loop.register_sum is not None or loop.jam > 1 or loop.zero_rows is not None \
            or loop.pieces is not None or loop.opens_group:
        return None
    inner = list(walk(loop.body))
    if not all(isinstance(node, (Assign, Guard, Compute)) for node in inner):
        return None
    computes = [node for node in inner if isinstance(node, Compute)]
    if len(computes) != 1:
        return None
    compute = computes[0]
    if compute.output is None or compute.stream is not None or compute.scalar_output is not None \
            or compute.grouped:
        return None
    array, indices, _ = compute.output
    if any(factor_array == array for factor_array, _, _ in compute.factors):
        return None
    changing = changing_in(loop)
    assigned = {node.variable: node for node in inner if isinstance(node, Assign)}
    moving = [index for index in indices if index.names() & changing]
    if len(moving) != 1 or not _steps_by_one(moving[0], loop.variable, changing, assigned):
        return None
    invariant = ()
    if any(node is compute for node in loop.body):
        defined_inside = changing | set(assigned)
        invariant = tuple(position for position, (_, factor_indices, _) in enumerate(compute.factors)
                          if not set().union(*(i.names() for i in factor_indices)) & defined_inside)
    return IndependentIterations(invariant)


def _steps_by_one(index: Arith, variable: str, changing: set[str], assigned: dict[str, Assign]) -> bool:
    """Whether layout arithmetic ``index`` is ``±variable + c`` with ``c`` not changing in the loop."""
    if isinstance(index, Name):
        return _name_steps_by_one(index.name, variable, changing, assigned)
    if isinstance(index, BinaryOp) and index.op in ("+", "-"):
        left, right = index.left, index.right
        if not right.names() & changing:
            return _steps_by_one(left, variable, changing, assigned)
        if not left.names() & changing:
            return _steps_by_one(right, variable, changing, assigned)
    return False


def _name_steps_by_one(name: str, variable: str, changing: set[str], assigned: dict[str, Assign],
                       depth: int = 0) -> bool:
    if name == variable:
        return True
    node = assigned.get(name)
    if node is None or depth > len(assigned) or node.divisor != 1 or not isinstance(node.value, Affine):
        return False
    moving = [(atom, coefficient) for atom, coefficient in node.value.terms if _atom_names(atom) & changing]
    if len(moving) != 1:
        return False
    atom, coefficient = moving[0]
    return isinstance(atom, str) and abs(coefficient) == 1 and \
        _name_steps_by_one(atom, variable, changing, assigned, depth + 1)


def _atom_names(atom) -> set[str]:
    return atom.names() | {atom.function} if isinstance(atom, UFCall) else {atom}
