"""What a kernel under a semiring other than (+, *) cannot do yet (spf.notation.semirings).

The nests a semiring compiles are the arithmetic ones: the loops run over the same
entries (GraphBLAS's ⊗ applies where the operands' entries are, which is where spf's
products are), and the C printer writes ⊕ and ⊗ and ⊕'s identity where it writes +, * and
0 (spf.codegen.c.emit_statements).  The passes that rely on the arithmetic skip
themselves (a factor hoisted out of a sum, a masked term adding +0.0).  An assembled
output's entries combine by ⊕ on their way to the builder (spf_combine.h) and are kept
whatever their values (GraphBLAS's entries are where the products are).  What remains is
refused here, before anything else is done, each with its reason:

* a coefficient (``2 * A(i,j) * x(j)``, ``A - B``): a number is no entry to ⊗ with;
* an assembled output in a layout that stores padding (BCSR, ELL, ...): an entry of value 0
  would read as padding;
* an input whose layout stores padding (ELL, BCSR, DIA, ...), unless Z3 proves that a
  stored zero changes no reduction (``0 ⊗ x`` is ⊕'s identity: plus_times, lor_land; in a
  term of one factor, reduced as it is, ``y ⊕ 0 == y``: plus, lor, any); a layout without
  index arrays (Dense1..4, LOWER_TRI) has an entry at every position it stores;
* a recipe's parallel loop whose reduction is per-thread copies or atomics (both add); a
  scalar output's reduction is OpenMP's, with ⊕'s own operator (min, max, ||, &&).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spf.errors import SpfError
from spf.notation.semirings import Semiring, padding_contributes, zero_changes_reduction

if TYPE_CHECKING:
    from spf.scheduling.recipe import Recipe
    from spf.space.iteration_space import StatementSpace


def stores_padding(layout) -> bool:
    """Whether the layout stores values that are no entries (ELL's unused slots, BCSR's zeros
    in a block).  A layout without index arrays (Dense1..4, LOWER_TRI) has an entry at every
    position it stores, as a full GraphBLAS matrix does: its zeros are values, not padding."""
    return layout.padded and bool(layout.index_arrays)


def refuse_for_semiring(ring: Semiring, statements: list[StatementSpace], recipe: Recipe | None,
                        pattern: tuple = ()) -> None:
    """An SpfError naming the first thing of the kernel ``ring`` cannot compile yet (``pattern``:
    the tensors read for their entries only, a mask, which no ⊗ applies to)."""
    first = statements[0]
    text = first.statement.text or str(first.statement)
    if first.assembled is not None and stores_padding(first.assembled):
        raise SpfError(f"semiring={ring.name!r}: output {first.statement.output.tensor} is assembled in "
                       f"{first.assembled.spec}, which stores padding: an entry of value 0 (a product under "
                       f"{ring.name} may be one) would read as padding; use a layout without padding (CSR, COO, "
                       "DCSR, ...)")
    for space in statements:
        for term in space.statement.terms:
            if term.coefficient != 1 or not term.factors:
                raise SpfError(f"semiring={ring.name!r}: the term {term} of {text!r} has a coefficient, which "
                               "has no meaning under a semiring (only products of tensors)")
        single = all(sum(f.tensor not in pattern for f in term.factors) == 1  # no ⊗ applies
                     for term in space.statement.terms)
        for placement in space.placements.values():
            if stores_padding(placement.layout) and placement.tensor != space.statement.output.tensor \
                    and (zero_changes_reduction(ring.add) if single else padding_contributes(ring)):
                why = f"a zero changes a reduction by {ring.add.name}" if single else \
                    f"{ring.multiply.name} of a zero is not {ring.add.name}'s identity ({ring.add.identity})"
                raise SpfError(f"semiring={ring.name!r}: input {placement.tensor} in {placement.layout.spec} stores "
                               f"padding (zeros that are no entries), and {why}, so padding would count as "
                               "entries; use a layout without padding (CSR, COO, DCSR, ...)")
    for variable, reduction in recipe.parallel if recipe is not None else ():
        if reduction is not None and first.statement.output.indices:  # a scalar's is OpenMP's, by ⊕
            raise SpfError(f"semiring={ring.name!r}: the recipe runs {variable} in parallel with the {reduction!r} "
                           "reduction, which adds; parallelize a loop that needs no reduction")
