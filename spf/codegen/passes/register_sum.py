"""Register sums: a loop whose statement writes one output position throughout sums its
terms in a register and updates the output once after it (TACO's scalar temporary).

:func:`fixed_target` recognises such a loop; :func:`mark_register_sums` decides which
loops of a nest sum in a register (``Loop.register_sum``), outermost first, and whether
the update must wait for a first term (``RegisterSum.counts_terms``).
"""

from __future__ import annotations

from spf.space.expressions import Affine, UFCall

from spf.codegen.loops import (Assign, Block, Chunks, Compute, Find, Guard, Loop, Merge, Node, RegisterSum, TileGuard,
                               walk)


def mark_register_sums(nodes: list[Node]) -> None:
    """Set ``Loop.register_sum`` on each serial loop of the nest whose statement's output
    position is fixed for the whole loop (:func:`fixed_target`), except inside another
    such loop (its body adds to that loop's register) and a Merge arm's loop (the merge
    steps it).  Not for a two-phase kernel, whose nests count and put every entry."""
    _mark(nodes, exact=False, arm_loops=set())


def keep_factors_inside(nodes: list[Node]) -> None:
    """No factor taken out of any register sum of the nest (nor of a jammed one): taking
    ``b`` out of ``sum_k b * c_k`` is distributivity of (+, *), which a semiring's ⊗ need
    not have over its ⊕ (plus_pair, plus_first)."""
    for node in walk(nodes):
        if isinstance(node, Loop) and node.register_sum is not None:
            node.register_sum.hoisted = set()


def _mark(nodes: list[Node], exact: bool, arm_loops: set[int]) -> None:
    """``exact``: inside a parallel loop without a reduction, where every write must be
    one of the space's updates (the dependence test proved those apart, not writes of a
    zero sum)."""
    for node in nodes:
        if isinstance(node, Loop):
            found = None if node.parallel or id(node) in arm_loops else fixed_target(node)
            if found is not None:
                found.counts_terms = _counts_terms(found, exact)
                node.register_sum = found
                continue
            _mark(node.body, exact or (node.parallel and node.reduction is None), arm_loops)
        elif isinstance(node, Merge):
            inner = arm_loops | {id(arm.loop) for arm in node.arms}
            for arm in node.arms:
                _mark(arm.path, exact, inner)
        elif isinstance(node, (Guard, Find, TileGuard, Block, Chunks)):
            _mark(node.body, exact, arm_loops)
            if isinstance(node, Guard):
                _mark(node.otherwise, exact, arm_loops)


def _counts_terms(register_sum: RegisterSum, exact: bool) -> bool:
    """Whether the register sum needs a flag saying a term was added before its update."""
    target = register_sum.target
    if target.stores:  # an entry without terms is stored as a zero: only factors taken out may not run
        return register_sum.reads_arrays or bool(exact and register_sum.hoisted)
    # an assembled output holds exactly the entries that received a term
    return exact or target.stream is not None or register_sum.reads_arrays


def fixed_target(loop: Loop) -> RegisterSum | None:
    """The loop's register sum when its only statement's output position is fixed for the whole loop.

    A variable assigned inside the loop from values that do not change in it (``pA = pB``
    of an output sharing an input's positions, placed at the innermost level) does not
    change either.  Factors that do not change are taken out of the sum (distributivity:
    ``sum_k b * c_k = b * sum_k c_k``), so the loop keeps one multiply-add per term.
    """
    computes = [n for n in walk(loop.body) if isinstance(n, Compute)]
    if len(computes) != 1 or (computes[0].output is None and computes[0].stream is None):
        return None
    compute = computes[0]
    changing = changing_in(loop)
    if compute.stream is not None:
        used = set(compute.stream)
    else:
        used = set()
        for index in compute.output[1]:
            used |= index.names()
    if used & changing:
        return None
    factor_names = [set().union(*(index.names() for index in indices)) for _, indices, _ in compute.factors]
    hoisted = {position for position, names in enumerate(factor_names) if not names & changing}
    if len(hoisted) == len(compute.factors):
        hoisted = set()  # a sum of ones would count the iterations: keep the product inside
    needed = used.union(*(factor_names[position] for position in hoisted))
    repeated = []
    for node in reversed(_assigns_on_path(loop.body, compute)):
        if node.variable in needed:
            repeated.insert(0, node)
            needed |= _expression_names(node.value)
    return RegisterSum(compute, repeated, hoisted)


def changing_in(loop: Loop) -> set[str]:
    """The variables whose value changes from one iteration of ``loop`` to the next: its own,
    those of the loops and finds inside it, and the assignments that read any of them."""
    changing = {loop.variable}
    for node in walk(loop.body):
        if isinstance(node, (Loop, Find)):
            changing.add(node.variable)
        if isinstance(node, Find):
            changing.update(part.dimension for part in node.parts)
    assigns = [node for node in walk(loop.body) if isinstance(node, Assign)]
    grown = True
    while grown:
        grown = False
        for node in assigns:
            if node.variable not in changing and _expression_names(node.value) & changing:
                changing.add(node.variable)
                grown = True
    return changing


def _expression_names(value) -> set[str]:
    return value.names() if isinstance(value, (Affine, UFCall)) else set()


def _assigns_on_path(nodes: list[Node], target: Compute) -> list[Assign]:
    """The assignments that run before ``target`` in every iteration that reaches it, in order."""
    seen: list[Assign] = []
    for node in nodes:
        if node is target:
            return seen
        if isinstance(node, Assign):
            seen.append(node)
        elif isinstance(node, (Loop, Guard, Find, TileGuard, Block, Chunks)) and \
                any(inner is target for inner in walk(node.body)):
            return seen + _assigns_on_path(node.body, target)
    return seen
