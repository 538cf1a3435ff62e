"""Merge a sum's terms by the output's last coordinate, and prove when entries arrive in order.

After :mod:`spf.codegen.assembly.fusion`, ``C(i,j) = A(i,j) + B(i,j)`` runs A's row ``p`` and then B's
inside one loop: row ``i`` of C arrives as two ascending runs of ``j``.  When each term's
inner loop walks positions whose coordinate ``j`` is strictly increasing (Z3 proves it
from the layouts' properties, e.g. ``periodic_monotonic(colIdx, rowPtr, increasing,
strict)``), the two loops can be co-iterated instead (a :class:`~codegen.loops.Merge`, the
two-pointer merge of sorted lists): the row's entries then come out in increasing ``j``,
the terms of one ``j`` next to each other.  Then the assembly needs no workspace: entries
are appended to the rows as they come, equal neighbours summed (:func:`appends_in_order`
tells the assembly so).

Valid because the terms only append entries (fusion admits no finds, find state or
temporaries) and appending commutes; the merge changes the order of the appends only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from spf.space.expressions import UFCall
from spf.space.smt import Encoder, unsatisfiable

from spf.codegen.loops import (Assign, Block, Chunks, Compute, Find, Guard, Loop, Merge, MergeArm, Node, TileGuard,
                               expression_names, used_names, walk)

if TYPE_CHECKING:
    from spf.space.properties import Property


def merge_terms(nodes: list[Node], coordinate: str, properties: list) -> bool:
    """Replace the fused loop's terms (``nodes`` is ``[the fused loop]``, its body one
    Guard or Block per term) by a Merge over ``coordinate`` when every term's inner loop
    binds it strictly increasing; ``properties[k]`` are term k's statement's.  True when
    merged."""
    if len(nodes) != 1 or not isinstance(nodes[0], Loop):
        return False
    terms = nodes[0].body
    if len(terms) < 2 or len(terms) != len(properties):
        return False
    arms = []
    for term, term_properties in zip(terms, properties):
        if not isinstance(term, (Guard, Block)) or (isinstance(term, Guard) and term.otherwise):
            return False
        found = _path_to_loop(term)
        if found is None:
            return False
        path, loop = found
        if not strictly_increasing(path, loop, coordinate, term_properties):
            return False
        arms.append(MergeArm([term], loop))
    # two terms step as the two-pointer merge; more by the least of their keys each step
    nodes[0].body = [Merge(coordinate, arms, "compare" if len(arms) == 2 else "least")]
    return True


def _path_to_loop(node) -> tuple[list, Loop] | None:
    """The guards and assignments from ``node`` down to the one loop under it (each level:
    assignments, then one guard, block or the loop), or None for another shape."""
    path = []
    while not isinstance(node, Loop):
        if not isinstance(node, (Guard, Block)) or (isinstance(node, Guard) and node.otherwise) or not node.body:
            return None
        if any(not isinstance(child, Assign) for child in node.body[:-1]):
            return None
        path.append(node)
        node = node.body[-1]
    return path, node


def key_assignments(loop: Loop, coordinate: str) -> list[Assign] | None:
    """The loop body's leading assignments up to the one binding ``coordinate`` (``_u2 =
    colIdx(pAj); j = _u2``), or None when the body does not bind it first."""
    leading = []
    for node in loop.body:
        if not isinstance(node, Assign):
            return None
        leading.append(node)
        if node.variable == coordinate:
            return leading
    return None


def strictly_increasing(path: list, loop: Loop, coordinate: str, properties: Sequence[Property]) -> bool:
    """Whether ``coordinate``, as the loop's body binds it, strictly increases with the
    loop's variable, given the path's guards and assignments (Z3, properties
    instantiated on the query's terms).  Two iterations q < r of the loop in one run of
    the path: ``key(q) >= key(r)`` must be unsatisfiable."""
    keys = key_assignments(loop, coordinate)
    return keys is not None and _two_iterations_refuted(loop, path, keys, coordinate, properties, "increasing")


def distinct_per_iteration(loop: Loop, chain: list, coordinate: str, properties: Sequence[Property],
                           increasing: bool = False) -> bool:
    """Whether each iteration of ``loop`` binds ``coordinate`` (through the guards and
    assignments of ``chain``, the nodes from its body down to the binding) to a value no
    other iteration binds (CSR's ``i = pAi``; not a coordinate list's ``i = row(pA)``,
    whose rows repeat), and with ``increasing`` a value above every earlier iteration's:
    two iterations q < r, ``coordinate(q) == coordinate(r)`` (``>=``) must be
    unsatisfiable."""
    if not any(a.variable == coordinate for a in _assignments(chain)):
        return False
    return _two_iterations_refuted(loop, [], chain, coordinate, properties,
                                   "increasing" if increasing else "distinct")


def _two_iterations_refuted(loop: Loop, shared: list, each: list, coordinate: str, properties, claim: str) -> bool:
    """Z3 refutes two iterations q < r of ``loop`` breaking ``claim`` ("increasing" or
    "distinct") for ``coordinate``: the guards and assignments of ``shared`` hold once (the
    nodes around the loop), those of ``each`` once per iteration (its body's)."""
    if any(b.divisor != 1 for b in loop.lower + loop.upper):
        return False
    encoder = Encoder(local_names={loop.variable} | {a.variable for a in _assignments(each)})
    facts = _facts(encoder, shared, "")
    for suffix in ("_q", "_r"):
        position = encoder.name(loop.variable, suffix)
        facts += [position >= encoder.affine(b.expression, suffix) for b in loop.lower]
        facts += [position <= encoder.affine(b.expression, suffix) for b in loop.upper]
        facts += _facts(encoder, each, suffix)
    facts.append(encoder.name(loop.variable, "_q") < encoder.name(loop.variable, "_r"))
    first, second = encoder.name(coordinate, "_q"), encoder.name(coordinate, "_r")
    facts.append(first >= second if claim == "increasing" else first == second)
    return unsatisfiable(facts + encoder.property_instances(properties))


def _assignments(nodes: list) -> list[Assign]:
    """The assignments among ``nodes`` and directly in the bodies of its guards and blocks."""
    found = []
    for node in nodes:
        if isinstance(node, Assign):
            found.append(node)
        elif isinstance(node, (Guard, Block)):
            found += [child for child in node.body if isinstance(child, Assign)]
    return found


def _facts(encoder: Encoder, nodes: list, suffix: str) -> list:
    """The conditions of the guards among ``nodes`` and every assignment of _assignments."""
    facts = [encoder.constraint(c, suffix) for node in nodes if isinstance(node, Guard) for c in node.conditions]
    for node in _assignments(nodes):
        value = encoder.call(node.value, suffix) if isinstance(node.value, UFCall) \
            else encoder.affine(node.value, suffix)
        facts.append(node.divisor * encoder.name(node.variable, suffix) == value)
    return facts


def appends_in_order(nodes: list[Node], outer: str, inner: str, properties: Sequence[Property]) -> bool:
    """Whether a nest hands each group of the output (one value of ``outer``) its entries
    with ``inner`` nondecreasing and equal values next to each other: one loop over the
    groups whose body binds ``outer``, a value no other iteration binds (proven), and then
    reaches, through guards and assignments only, one producer of entries, a Merge over
    ``inner`` or a loop binding ``inner`` strictly increasing (proven); everything
    appended is inside it.  An empty nest (a term fused into another's) appends nothing."""
    return _one_producer(nodes, outer, inner, properties, False)


def fills_in_order(nodes: list[Node], outer: str, inner: str, properties: Sequence[Property]) -> bool:
    """Whether a two-phase fill (spf.codegen.assembly.plan.TwoPhase) puts each row's keys
    (``inner``) strictly increasing: the nest's loop binds ``inner`` strictly increasing
    over its iterations, and within one iteration one producer binds the row (``outer``)
    strictly increasing, so no row gets two entries in one iteration (CSR to CSC, the
    transposition).  The chunks of a parallel fill are the loop's range in order, each
    filling its rows' places after the earlier chunks'."""
    if len(nodes) == 1 and isinstance(nodes[0], Chunks):
        nodes = nodes[0].body
    return _one_producer(nodes, inner, outer, properties, True)


def _one_producer(nodes: list[Node], outer: str, inner: str, properties, outer_increasing: bool) -> bool:
    """One loop binding ``outer`` distinct per iteration (and increasing with
    ``outer_increasing``), and below it one producer binding ``inner`` strictly
    increasing, holding every entry appended."""
    if not nodes:
        return True
    if len(nodes) != 1 or not isinstance(nodes[0], Loop):
        return False
    producers, path, bound = [], [], [False]

    def visit(items: list, trail: list) -> bool:
        for item in items:
            if isinstance(item, Assign):
                bound[0] |= item.variable == outer
            elif isinstance(item, (Merge, Loop, Find, TileGuard)):
                if not bound[0] and not (isinstance(item, Merge) and all(_binds(arm, outer) for arm in item.arms)):
                    return False
                producers.append(item)
                path[:] = list(trail)
            elif isinstance(item, Compute):
                if item.stream is not None:
                    return False
            elif isinstance(item, (Guard, Block)):
                if isinstance(item, Guard) and item.otherwise:
                    return False
                if not visit(item.body, trail + [item]):
                    return False
        return True

    if not visit(nodes[0].body, [Block(nodes[0].body)]) or len(producers) != 1:
        return False
    producer, loop = producers[0], nodes[0]
    if isinstance(producer, Merge):  # (each arm's loop was proven in order when merged)
        return producer.coordinate == inner and all(
            distinct_per_iteration(loop, path + _chain(arm), outer, properties, outer_increasing)
            for arm in producer.arms)
    if not isinstance(producer, Loop) or producer.parallel:
        return False
    return distinct_per_iteration(loop, path, outer, properties, outer_increasing) and \
        strictly_increasing(path, producer, inner, properties)


def _chain(arm: MergeArm) -> list:
    """The guards and blocks of the arm's path down to its loop."""
    found = _path_to_loop(arm.path[0]) if len(arm.path) == 1 else None
    return found[0] if found is not None else []


def _path_assignments(arm: MergeArm) -> list[Assign]:
    """The assignments on the arm's path down to its loop, in order."""
    return _assignments(_chain(arm))


def _binds(arm: MergeArm, variable: str) -> bool:
    """Whether the arm's path assigns ``variable`` (before its loop runs)."""
    return any(a.variable == variable for a in _path_assignments(arm))


def arm_assignments(arm: MergeArm) -> list[Assign]:
    """The path's assignments the arm's loop body reads (directly or through another), in
    path order: the merge re-binds them where it runs the body."""
    assigned = _path_assignments(arm)
    needed: set[str] = set()
    for node in walk(arm.loop.body):
        needed |= used_names(node) if not isinstance(node, Assign) else expression_names(node.value)
    kept = []
    for assignment in reversed(assigned):
        if assignment.variable in needed:
            kept.append(assignment)
            needed |= expression_names(assignment.value)
    return list(reversed(kept))

