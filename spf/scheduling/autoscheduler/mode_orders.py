"""Mode orders (CoNST): a sparse input stored in another order of its levels.

A loop nest must visit a sparse operand's levels in storage order, so the order the user's
data is stored in restricts every schedule: a reduction index stored above an output index
makes the output's writes scatter, two operands that store shared indices in opposite
orders admit no common nest at all.  A copy of the operand with its modes permuted (made
when the kernel is called or bound, by a generated copy kernel:
spf.runtime.conversion.permuted) lifts that restriction at the price of one conversion,
which the search charges as ``c_convert`` per stored entry over the ``calls`` the user
declares (default one).

The search runs once per set of mode orders considered (the stored orders first); a
candidate from a permuted problem records its orders.  A permutation ``perm`` of an
operand means: the copy's axis ``t`` is the stored axis ``perm[t]``.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from spf.errors import AutoscheduleError
from spf.scheduling.autoscheduler.cost import Cost
from spf.scheduling.autoscheduler.machine_cost import CONVERT
from spf.scheduling.autoscheduler.problem import Operand, Problem, storage_levels
from spf.space.iteration_space import load_tensor_layout

ModeOrders = tuple  # ((operand name, permutation), ...), sorted by name; () is the stored orders

CALLS = "calls"  # the calls a conversion is amortised over (a size the user declares)
MOST_PROPOSALS = 6  # sets of mode orders searched besides the stored one


def permutable(problem: Problem) -> list[Operand]:
    """The inputs a copy in another mode order may replace: sparse, of order two or more,
    and not the input whose index arrays the output shares (the output's pattern is its)."""
    shared = problem.shared_output_source
    return [f for f in problem.factors if f.sparse and len(f.indices) > 1 and f.name != shared]


def _permutation(indices: Sequence[str], wanted: Sequence[str]) -> tuple[int, ...]:
    return tuple(indices.index(i) for i in wanted)


def proposed_orders(problem: Problem, operand: Operand) -> list[tuple[int, ...]]:
    """The permutations of ``operand`` worth a search: the output's indices first (in the
    output's order, then the reduction indices in stored order), and, for each other sparse
    operand, the indices both share in that operand's stored order.  Empty when the stored
    order already is each of them."""
    proposals = []
    output_first = [i for i in problem.output_indices if i in operand.indices]
    output_first += [i for i in operand.levels if i not in output_first]
    proposals.append(output_first)
    for other in problem.sparse_factors:
        if other.name == operand.name:
            continue
        shared = [i for i in other.levels if i in operand.indices]
        if len(shared) < 2:
            continue
        slots = iter(shared)
        proposals.append([next(slots) if i in shared else i for i in operand.levels])
    stored = list(operand.levels)
    result = []
    for wanted in proposals:
        permutation = _permutation(operand.indices, wanted)
        if wanted != stored and permutation not in result:
            result.append(permutation)
    return result


def mode_order_choices(problem: Problem) -> list[ModeOrders]:
    """The sets of mode orders to search: each proposed permutation of one operand alone,
    then every operand at its first proposal together (when more than one has some); at
    most :data:`MOST_PROPOSALS`."""
    per_operand = {f.name: proposed_orders(problem, f) for f in permutable(problem)}
    choices: list[ModeOrders] = [((name, permutation),) for name, permutations in per_operand.items()
                                 for permutation in permutations]
    firsts = tuple(sorted((name, permutations[0]) for name, permutations in per_operand.items() if permutations))
    if len(firsts) > 1:
        choices.append(firsts)
    return choices[:MOST_PROPOSALS]


def permuted_indices(indices: Sequence[str], permutation: Sequence[int]) -> tuple[str, ...]:
    return tuple(indices[axis] for axis in permutation)


def permuted_problem(problem: Problem, orders: ModeOrders) -> Problem:
    """``problem`` with each operand of ``orders`` read from a copy in that mode order (same
    layout, its access indices permuted): what the candidate's kernel computes."""
    if not orders:
        return problem
    by_name = dict(orders)
    factors = []
    for factor in problem.factors:
        if factor.name not in by_name:
            factors.append(factor)
            continue
        indices = permuted_indices(factor.indices, by_name[factor.name])
        layout = load_tensor_layout(problem.layouts[factor.name], len(indices), factor.name)
        levels, dense = storage_levels(layout, indices, factor.name)
        factors.append(dataclasses.replace(factor, indices=indices, levels=levels, dense_levels=dense))
    output = f"{problem.output}({','.join(problem.output_indices)})" if problem.output_indices else problem.output
    expression = f"{output} {'+=' if problem.accumulate else '='} {' * '.join(str(f) for f in factors)}"
    return dataclasses.replace(problem, expression=expression, factors=tuple(factors))


def counting_problem(permuted: Problem, source: Problem) -> Problem:
    """``permuted`` with every operand's indices as the user's data stores them and its
    levels as the copy stores them: the counts of the copy's prefixes (``nnz_C_kq``) are
    read from the user's data, before any conversion."""
    stored = {f.name: f.indices for f in source.factors}
    return dataclasses.replace(permuted, factors=tuple(dataclasses.replace(f, indices=stored[f.name])
                                                       for f in permuted.factors))


def conversion_work(orders: ModeOrders) -> Cost:
    """The conversions' work per call: each permuted operand's stored entries once, over ``calls``."""
    work = Cost.zero()
    for name, _ in orders:
        work = work + Cost.of([CONVERT, f"nnz_{name}"], divide=[CALLS])
    return work


def describe(orders: ModeOrders, problem: Problem) -> str:
    """``C stored as C(k,q,r)`` for each permuted operand of ``problem`` (the user's)."""
    indices = {f.name: f.indices for f in problem.factors}
    return ", ".join(f"{name} copied as {name}({','.join(permuted_indices(indices[name], permutation))})"
                     for name, permutation in orders)


def check_orders(problem: Problem, orders: ModeOrders) -> ModeOrders:
    """``orders`` made canonical (sorted, identities dropped), or an AutoscheduleError naming
    what is not a permutation of a permutable operand."""
    allowed = {f.name: len(f.indices) for f in permutable(problem)}
    result = []
    for name, permutation in orders:
        permutation = tuple(permutation)
        if name not in allowed:
            raise AutoscheduleError(f"mode orders: {name} is not a sparse input that can be copied in another "
                                    f"mode order (those are: {', '.join(sorted(allowed)) or 'none'})")
        if sorted(permutation) != list(range(allowed[name])):
            raise AutoscheduleError(f"mode orders: {permutation} is not a permutation of {name}'s "
                                    f"{allowed[name]} modes")
        if permutation != tuple(range(allowed[name])):
            result.append((name, permutation))
    return tuple(sorted(result))

