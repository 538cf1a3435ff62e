"""Dependence tests on iteration spaces (Section 5 of the core paper).

Dependences come from the logical accesses: the inputs are only read, so two
iterations conflict only when they update the same element of the output.  For a loop
at some level of the nest, the dependence it carries is the set of pairs of iterations
equal on the enclosing loops, ordered by this loop, that update the same output
element::

    D_L = { (x, x') : x, x' in I and outer(x) = outer(x') and L(x) < L(x')
                      and out(x) = out(x') }

The test builds this set from two copies of the space (the second with primed names)
and asks isl whether it is empty; if not, Z3 decides it again with the index-array
properties instantiated on the pairs of calls (so a strictly increasing ``rowIdx``
makes DCSR's row loop free of dependences).  A loop with an empty ``D_L`` may run in parallel; a non-empty one carries
a reduction into the output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from spf.space.expressions import Affine, And, Constraint
from spf.space.sets import UFSet
from spf.space.smt import Encoder, unsatisfiable

if TYPE_CHECKING:
    from spf.space.iteration_space import StatementSpace

SECOND = "__2"


@dataclass(frozen=True)
class Dependence:
    """The test of one loop: whether it carries a dependence, and the pair's description."""

    loop: str
    outer: tuple[str, ...]
    carried: bool
    output: str

    def __str__(self) -> str:
        if not self.carried:
            return f"loop {self.loop}: no two iterations update the same element of {self.output}"
        same = " and ".join(f"{v} = {v}'" for v in self.outer)
        prefix = f"with {same}, " if same else ""
        return (f"loop {self.loop} carries a dependence: {prefix}iterations {self.loop} < {self.loop}' "
                f"update the same element of {self.output}")


def carried_dependence(statement_space: StatementSpace, loop: str, outer: Sequence[str]) -> Dependence:
    """Whether ``loop`` (inside the loops ``outer``) carries a dependence on the output.

    isl first (exact without properties); where the pair set is not empty, Z3 with the
    properties instantiated on the pair's calls.
    """
    space = statement_space.set
    renaming = {v: v + SECOND for v in space.variables}
    primed = space.rename(renaming)
    output = statement_space.statement.output
    facts = [Constraint(Affine.of(v), "=", Affine.of(renaming[v])) for v in outer]
    facts.append(Constraint(Affine.of(loop), "<", Affine.of(renaming[loop])))
    facts += [Constraint(Affine.of(i), "=", Affine.of(renaming[i])) for i in output.indices]
    pair = space.product(primed)
    pair = pair.intersect(UFSet.from_formula(pair.variables, And(tuple(facts))))
    # isl without functional consistency over-approximates: empty there is empty for sure.
    carried = not pair.isl_set.is_empty()
    if carried:
        encoder = Encoder()
        formula = encoder.uf_set(pair)
        carried = not unsatisfiable([formula] + encoder.property_instances(statement_space.properties))
    return Dependence(loop, tuple(outer), carried, str(output))


def loop_dependences(statement_space: StatementSpace, loops: Sequence[str]) -> list[Dependence]:
    """The test for each loop of a nest (outer to inner)."""
    return [carried_dependence(statement_space, loop, loops[:k]) for k, loop in enumerate(loops)]
