"""Parallel loops: which loop of a nest runs with OpenMP, and private state for its threads.

A loop may run in parallel only if nothing its iterations write is shared unsafely:

* the output: the dependence test (:mod:`spf.space.dependences`) shows that no two iterations
  update the same element, or a reduction combines their updates (per-thread copies,
  atomics, or OpenMP's reduction for a scalar output);
* the temporaries of a fused kernel: each thread has its own slice of a temporary that
  is zeroed inside the loop; one zeroed outside it is shared, and the loop stays serial;
* find state (SeqIter positions, HashMap tables): :func:`privatize_find_state` gives
  every thread its own, so find state never stops a loop from running in parallel.

``parallel_loop`` and ``parallelize_fused`` return, besides their choice, one line per
loop they tested, which ``explain()`` prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from spf.errors import RecipeError
from spf.space.dependences import carried_dependence
from spf.space.expressions import Affine, UFCall
from spf.space.iteration_space import logical_definitions
from spf.space.properties import Injective, Monotonic

from spf.codegen.loops import (Assign, Block, Bound, Chunks, Compute, Find, Guard, Loop, Merge, Node, Pieces, StateInit,
                               Temporary, TileGuard, copied_from, outer_loops, walk)

if TYPE_CHECKING:
    from spf.space.iteration_space import StatementSpace
    from spf.space.properties import Property
    from spf.scheduling.recipe import Recipe

    from spf.codegen.scanning.scan import Scan

SCOPES = (Loop, Guard, Find, TileGuard, Block)


# ----------------------------------------------------------------------------- finding loops


def loop_path(nodes: list[Node]) -> list[Node]:
    """The loops (and finds) met going down the first branch of a nest, outer to inner."""
    path = []
    items = nodes
    while items:
        nested = [n for n in items if isinstance(n, (Loop, Guard, Find))]
        if not nested:
            break
        node = nested[0]
        if isinstance(node, (Loop, Find)):
            path.append(node)
        items = node.body
    return path


def find_loop(nodes: list[Node], variable: str) -> tuple[Loop | None, list[str]]:
    """The loop over ``variable`` and the variables of the loops and finds enclosing it."""

    def search(items: list[Node], outer: list[str]) -> tuple[Loop | None, list[str]]:
        for node in items:
            if isinstance(node, Loop) and node.variable == variable:
                return node, outer
            if isinstance(node, (Loop, Find, Guard)):
                inner = outer + [node.variable] if isinstance(node, (Loop, Find)) else outer
                found = search(node.body, inner)
                if found[0] is not None:
                    return found
        return None, outer

    return search(nodes, [])


BALANCED = ("one contiguous part of the loop per thread, in thread order; the parts hold equal work where the "
            "body reads a pointer at the loop's variable and the next (each iteration weighs 1 plus its "
            "segment's length), else equal counts")


def mark_parallel(nodes: list[Node], variable: str, proof: str, reduction: str | None = None,
                  schedule: str = "dynamic,32", parts_at: tuple | None = None) -> None:
    """Run the first loop over ``variable`` with OpenMP; ``proof`` says why that is safe
    (kept in the loop for codegen.verify)."""
    for node in walk(nodes):
        if isinstance(node, Loop) and node.variable == variable:
            node.parallel = True
            node.parallel_proof = proof
            node.reduction = reduction
            node.schedule = schedule
            node.parts_at = parts_at
            return


# ----------------------------------------------------------------------------- a kernel's loops


def mark_parallel_loops(statements: Sequence[StatementSpace], variant_scans: Sequence[Sequence[Scan]],
                        output_array: str | None, recipe: Recipe | None, parallel: bool) -> list[str]:
    """Mark the parallel loop of every variant: the recipe's (refused if unsafe), or with
    ``parallel`` the outermost loop of each statement that shares nothing unsafely.
    Returns the lines of the tests made, for explain()."""
    tested: list[str] = []
    if recipe is not None and recipe.parallel:
        (variable, reduction), = recipe.parallel
        loop_node, outer = find_loop(variant_scans[0][0].nodes, variable)
        if loop_node is None:
            raise RecipeError(f"parallelize({variable!r}): {variable} is not a loop in this order "
                              "(it is assigned or found)")
        if statements[0].assembled is not None:
            shared = shared_writes(loop_node, output_array)
            if shared:
                raise RecipeError(f"parallelize({variable!r}): its iterations write {', '.join(shared)}, "
                                  "declared outside it")
            tested.append(f"loop {variable} runs in parallel: each thread hands its entries to its own "
                          f"stream ({BALANCED}); the builder merges them")
            for group in variant_scans:
                mark_parallel(group[0].nodes, variable, tested[-1], None, "balanced")
            return tested
        dependence = carried_dependence(statements[0], variable, outer)
        tested.append(str(dependence))
        if dependence.carried and reduction is None:
            raise RecipeError(f"parallelize({variable!r}) is forbidden by the dependence: {dependence}; "
                              "give reduction='privatize' or 'atomic' to combine the updates")
        shared = shared_writes(loop_node, output_array)
        if shared:
            raise RecipeError(f"parallelize({variable!r}): its iterations write {', '.join(shared)}, "
                              "declared outside it")
        if dependence.carried and output_array is None:
            reduction = "clause"  # a scalar output: each thread sums apart, OpenMP adds the sums
        proof = str(dependence) + (f"; the {reduction} reduction combines the updates" if dependence.carried else "")
        for group in variant_scans:
            mark_parallel(group[0].nodes, variable, proof, reduction if dependence.carried else None, recipe.schedule)
    elif parallel:
        for k, statement_space in enumerate(statements):
            loop, lines, parts = parallel_loop(statement_space, variant_scans[0][k].nodes, output_array)
            tested += lines
            if loop is not None:
                for group in variant_scans:
                    mark_parallel(group[k].nodes, loop, lines[-1], schedule="balanced", parts_at=parts)
    return tested


# ----------------------------------------------------------------------------- legality


def shared_writes(loop: Loop, output_array: str | None) -> list[str]:
    """Arrays the loop's iterations write that are neither the output (which the
    dependence test covers) nor private to an iteration (a temporary zeroed inside)."""
    private = {n.name for n in walk(loop.body) if isinstance(n, Temporary)}
    written = {n.output[0] for n in walk(loop.body) if isinstance(n, Compute) and n.output is not None}
    return sorted(written - private - {output_array})


def appends_entries(loop: Loop) -> bool:
    """Whether the loop hands entries to an assembled output (each thread has its own
    stream and workspace, and the builder merges whatever they hold)."""
    return any(isinstance(n, Compute) and n.stream is not None for n in walk(loop.body))


def parallel_loop(statement_space: StatementSpace, nodes: list[Node], output_array: str | None) \
        -> tuple[str | None, list[str], tuple | None]:
    """The outermost loop of the nest's first branch whose iterations share nothing
    unsafely, one line per loop tested, and where its parts must be cut (``Loop.parts_at``)
    when only parts cut there share nothing."""
    outer: list[str] = []
    tested: list[str] = []
    read_from_arrays: set[str] = set()  # variables assigned an array read on the way down
    segment: str | None = None  # the first serial loop met over one segment of a compressed level
    for node in loop_path(nodes):
        if isinstance(node, Loop):
            if outer and segment is None and _segment_loop(node, read_from_arrays):
                segment = node.variable
                tested.append(f"loop {node.variable}: walks one segment of a compressed level inside loop "
                              f"{outer[-1]} (short trip counts, a fork and join per outer iteration); "
                              "it stays serial")
            elif segment is not None:
                tested.append(f"loop {node.variable}: inside loop {segment}, which runs once per stored entry "
                              "of a segment (a fork and join per entry); it stays serial")
            if segment is not None:
                outer.append(node.variable)
                read_from_arrays |= _array_reads(node.body)
                continue
            shared = shared_writes(node, output_array)
            if shared:
                tested.append(f"loop {node.variable}: its iterations write {', '.join(shared)}, "
                              "declared outside it")
                outer.append(node.variable)
                continue
            if statement_space.assembled is not None and appends_entries(node):
                tested.append(f"loop {node.variable} runs in parallel: each thread hands its entries of "
                              f"{statement_space.statement.output.tensor} to its own stream ({BALANCED}, "
                              "so the streams in thread order keep the loop's order); the builder merges them")
                return node.variable, tested, None
            dependence = carried_dependence(statement_space, node.variable, outer)
            tested.append(str(dependence))
            if not dependence.carried:
                tested.append(f"loop {node.variable} runs in parallel")
                return node.variable, tested, None
            parts = parts_at_changes(node, statement_space.properties, output_array)
            if parts is not None and not outer:
                tested.append(f"loop {node.variable} runs in parallel in parts cut where {parts[0]}({node.variable}) "
                              f"changes: {parts[0]} is monotonic, so the iterations that update one element of "
                              f"{statement_space.statement.output} (one value of {parts[0]}) are all in one part")
                return node.variable, tested, parts
        outer.append(node.variable)
        read_from_arrays |= _array_reads(node.body)
    tested.append("no loop runs in parallel")
    return None, tested, None


def parts_at_changes(loop: Loop, properties: Sequence[Property], output_array: str | None) -> tuple[str, bool] | None:
    """``(f, increasing)`` when every write of the output is at a first coordinate
    ``f(v)`` that the loop's body reads at the loop's variable ``v`` (each iteration), with
    ``f`` monotonic (COO's rows): the iterations updating one output element share
    ``f(v)``, a contiguous run of ``v``, so parts of the loop cut where ``f(v)`` changes
    update disjoint elements, with no copies of the output to merge."""
    writes = [node for node in walk(loop.body) if isinstance(node, Compute)]
    if output_array is None or not writes or any(node.output is None or node.output[0] != output_array
                                                 for node in writes):
        return None
    origins = {copied_from(node.output[1][0], loop.body) for node in writes}
    reads = {node.variable: node.value for node in loop.body
             if isinstance(node, Assign) and isinstance(node.value, UFCall) and node.divisor == 1
             and node.value.arguments == (Affine.of(loop.variable),)}
    if len(origins) != 1 or next(iter(origins)) not in reads:
        return None
    function = reads[next(iter(origins))].function
    for prop in properties:
        if isinstance(prop, Monotonic) and prop.arrays[0] == function:
            return function, prop.increasing
    return None


def _array_reads(nodes: list[Node]) -> set[str]:
    """Variables the nodes (not the loops inside them) assign an array read."""
    found = set()
    for node in nodes:
        if isinstance(node, Assign) and not isinstance(node.value, Affine):
            found.add(node.variable)
        elif isinstance(node, (Guard, Block)):
            found |= _array_reads(node.body)
    return found


def _segment_loop(loop: Loop, read_from_arrays: set[str]) -> bool:
    """Whether the loop's bounds come from arrays (a segment of a compressed level, as
    long as one row of the matrix): data decides its trip count, usually a short one."""
    bounds = [bound.expression for bound in loop.lower + loop.upper]
    return any(name in read_from_arrays for bound in bounds for name in bound.names())


def parallelize_fused(nodes: list[Node], spaces: list, output_array: str) -> list[str]:
    """Run each phase of a fused nest in parallel where no two of its iterations write the
    same element of an array that outlives them; the lines tested.

    A phase is a loop outside every other loop: a root temporary's producer, then its
    consumer (which writes the output), one after the other.  A phase writes arrays
    declared outside it (the output, root temporaries) and temporaries it declares itself
    (zeroed inside: each thread has its own slice).  For each array declared outside, the
    dependence test runs on the statement that writes it.  When the loop walks an
    operand's positions that this statement does not see (``pB0`` with ``i = B_idx0(pB0)``),
    it tests the coordinate instead, which is enough when the coordinate array is strictly
    monotonic or injective (distinct positions, distinct i).
    """
    phases = [loop for loop, _ in outer_loops(nodes)]
    if not phases:
        return ["no loop runs in parallel: the nest has no loop"]
    writers = {output_array: spaces[0]}
    writers.update({f"{space.statement.output.tensor}_vals": space for space in spaces[1:]})
    tested = []
    for loop in phases:
        proofs = _phase_proofs(loop, spaces, writers, tested)
        if proofs:
            loop.parallel = True
            loop.parallel_proof = "; ".join(proofs)
            loop.schedule = "balanced"  # split as a kernel's loop is: by work, no more threads than it has work for
            tested.append(f"loop {loop.variable} runs in parallel")
    return tested


def _phase_proofs(loop: Loop, spaces: list, writers: dict, tested: list[str]) -> list[str] | None:
    """The dependence tests that let a phase's loop run in parallel (one per array it
    writes that is declared outside it), or None, with why in ``tested``."""
    computes = [n for n in walk(loop.body) if isinstance(n, Compute)]
    if any(n.output is None for n in computes):
        tested.append(f"loop {loop.variable}: its iterations add into a scalar declared outside it")
        return None
    written = shared_writes(loop, None)  # the output among them
    if not written:
        tested.append(f"loop {loop.variable}: writes nothing declared outside it; it stays serial")
        return None
    read = {factor[0] for n in computes for factor in n.factors}
    proofs = []
    for array in written:
        writer = writers.get(array)
        if writer is None or array in read:
            why = "declared outside it" if writer is None else "and reads it"
            tested.append(f"loop {loop.variable}: its iterations write {array}, {why}")
            return None
        variable = loop.variable
        if variable not in writer.set.variables:
            variable = _coordinate_of(loop, spaces, writer)
            if variable is None:
                tested.append(f"loop {loop.variable}: its positions do not give distinct coordinates of "
                              f"{writer.statement.output}; it stays serial")
                return None
        dependence = carried_dependence(writer, variable, [])
        tested.append(str(dependence))
        if dependence.carried:
            return None
        proofs.append(str(dependence))
    return proofs


def _coordinate_of(loop: Loop, spaces: list, writer) -> str | None:
    """The writer's variable assigned once per iteration of ``loop`` from a one-to-one
    array read at the loop's position (``i = B_idx0(pB0)``), if any."""
    reads = {}
    pending = list(loop.body)
    while pending:  # assignments made once per iteration: outside any inner loop
        node = pending.pop(0)
        if isinstance(node, Assign):
            reads[node.variable] = node.value
        elif isinstance(node, (Guard, Block)):
            pending.extend(node.body)
    one_to_one = {p.arrays[0] for space in spaces for p in space.properties
                  if isinstance(p, Injective) or (isinstance(p, Monotonic) and p.strict)}
    for name, value in reads.items():
        if name in writer.set.variables and isinstance(value, Affine) and len(value.terms) == 1:
            atom, coefficient = value.terms[0]
            call = reads.get(atom) if isinstance(atom, str) else None
            if coefficient == 1 and value.constant == 0 and call is not None and \
                    getattr(call, "function", None) in one_to_one and \
                    [str(a) for a in call.arguments] == [loop.variable]:
                return name
    # the coordinate's own assignment may be gone (nothing read it): the layout's relation
    # says which index a one-to-one array read at the loop's position defines
    defined = _defined_coordinates(spaces)
    for value in reads.values():
        if isinstance(value, UFCall) and value.function in one_to_one and \
                [str(a) for a in value.arguments] == [loop.variable]:
            index = defined.get((value.function, loop.variable))
            if index is not None and index in writer.set.variables:
                return index
    return None


def _defined_coordinates(spaces: list) -> dict[tuple[str, str], str]:
    """``(array, position) -> index`` for each relation constraint ``index = array(position)``
    of an operand's layout (``j = B_idx0(pB0)`` for B(j,p,r) in CSF3), in the spaces' names."""
    defined = {}
    for space in spaces:
        for placement in space.placements.values():
            layout = placement.layout
            for logical, side, other in logical_definitions(layout):
                if side.constant != 0 or len(other.terms) != 1 or other.constant != 0 or other.terms[0][1] != 1 \
                        or not isinstance(other.terms[0][0], UFCall):
                    continue
                call = other.terms[0][0]
                if len(call.arguments) != 1 or str(call.arguments[0]) not in layout.physical:
                    continue
                index = placement.access.indices[layout.logical.index(logical)]
                key = (placement.names.get(call.function, call.function),
                       placement.names.get(str(call.arguments[0]), str(call.arguments[0])))
                defined[key] = index
    return defined


# ----------------------------------------------------------------------------- pieces


def balance_parallel_loops(nodes: list[Node]) -> None:
    """Decide how each parallel loop of the "balanced" schedule is split: into pieces of
    equal work (``Loop.pieces``) where the work can be weighed (a pointer read at the
    loop's variable and the next) or the parts must be cut where a function changes
    (``Loop.parts_at``), else one contiguous part per thread (OpenMP's static schedule), on
    no more threads than a dense nest's iterations pay for."""
    for node in walk(nodes):
        if not (isinstance(node, Loop) and node.parallel and node.schedule == "balanced"):
            continue
        pointer = segment_pointer(node) if node.reduction is None else None
        if node.reduction is None and (pointer is not None or node.parts_at is not None):
            weight = work_per_entry(node)
            node.pieces = Pieces(pointer, weight, most=weight == NESTED_WORK)
        else:
            node.schedule = "static"
            node.dense_trips = dense_trips(node)


def dense_trips(loop: Loop) -> tuple[tuple[list[Bound], list[Bound]], ...]:
    """The bounds of each loop of ``loop``'s nest when it is a dense one: one chain of loops
    whose bounds name nothing the nest assigns (extents), so that the product of their trip
    counts, computed before the loop, is its work.  Empty otherwise (a segment's length
    or a second loop would make that product undercount it)."""
    inner = [n for n in walk(loop.body) if isinstance(n, (Loop, Find, Merge, Chunks))]
    assigned = {loop.variable} | {n.variable for n in walk(loop.body) if isinstance(n, (Loop, Assign))}
    chain = [loop] + inner
    for outer, nested in zip(chain, chain[1:]):
        if not isinstance(nested, Loop) or not any(n is nested for n, _ in outer_loops(outer.body)):
            return ()
    if any(bound.divisor != 1 or bound.expression.names() & assigned
           for node in chain for bound in node.lower + node.upper):
        return ()
    return tuple((node.lower, node.upper) for node in chain)


NESTED_WORK = 16  # units of work counted per segment entry that starts a further loop


def work_per_entry(loop: Loop) -> int:
    """Units of work to count for each entry of the segment a parallel loop's iteration walks:
    1, or NESTED_WORK when an entry starts a further loop (SpGEMM: a row of B), whose work the
    segment's length does not show; in a merged sum (its first term's segments weigh the
    parts), 2 per term: an entry of the first term stands for one of each term, each
    compared as well as appended."""
    if len(loop.body) == 1 and isinstance(loop.body[0], Merge):
        return 2 * len(loop.body[0].arms)

    def depth(nodes: list) -> int:
        deepest = 0
        for node in nodes:
            if isinstance(node, (Loop, Find)):
                deepest = max(deepest, 1 + depth(node.body))
            elif isinstance(node, (Guard, Block, TileGuard)):
                deepest = max(deepest, depth(node.body))
        return deepest
    return NESTED_WORK if depth(loop.body) >= 2 else 1


def segment_pointer(loop: Loop) -> UFCall | None:
    """The UF ``f`` a loop's body reads at ``f(v)`` and ``f(v + 1)`` (``v`` the loop's
    variable, or a name the body assigns it), both directly in the body so every iteration
    reads them, as ``f(v)`` of the loop's variable: a compressed
    level's pointer, whose difference is the length of the segment the loop below runs
    over (a balanced split weighs the iterations by it).  In a merged sum, the first
    term's, read under guards on the tensors' sizes alone (its arrays are whole whatever
    they hold)."""
    variable = Affine.of(loop.variable)
    body = loop.body
    if len(body) == 1 and isinstance(body[0], Merge):  # a merged sum: its first term's rows weigh the parts
        first = body[0].arms[0].path[0]
        if isinstance(first, Guard) and any(loop.variable in c.left.names() | c.right.names()
                                            for c in first.conditions):
            return None
        body = first.body
    # the variable itself, or a name the body gives it (a tree's ``pBi = i`` over B's dense rows)
    names = [variable] + [Affine.of(node.variable) for node in body if isinstance(node, Assign)
                          and node.value == variable and node.divisor == 1]
    reads = [node.value for node in body if isinstance(node, Assign) and isinstance(node.value, UFCall)
             and node.divisor == 1 and len(node.value.arguments) == 1]
    for read in reads:
        if read.arguments[0] in names and UFCall(read.function, (read.arguments[0] + 1,)) in reads:
            return UFCall(read.function, (variable,))
    return None



# ----------------------------------------------------------------------------- find state


def privatize_find_state(nodes: list[Node]) -> list[Node]:
    """Give each thread of a parallel loop its own find state (after spf.codegen.finds.find_state.place_find_state).

    * State that starts inside the loop restarts within one iteration: a SeqIter
      position is a local of the iteration already; a table or an array of positions
      kept per value takes one slice per thread.
    * A SeqIter state that starts outside the loop (it outlives the loop's iterations)
      starts again for each thread at the start of the parallel region, or of each piece
      of a loop cut into pieces (spf.codegen.c.emit_loops' _balanced_pieces).  Between two starts
      a thread runs its iterations in increasing order (the loop's schedule is made
      monotonic, ``Loop.monotonic``; a piece is a range), a subsequence of the order in which the state was
      proven, and restarting a state is always valid (a superset of valid state indices
      is valid).
    * A HashMap table filled outside the loop is only read inside it, and stays shared.
    """
    for loop in [n for n in walk(nodes) if isinstance(n, Loop) and n.parallel]:
        inside = {id(n) for n in walk(loop.body) if isinstance(n, Find)}
        moved: list[StateInit] = []
        nodes = _take_states(nodes, loop, inside, moved)
        loop.thread_state = moved + loop.thread_state
        loop.monotonic = any(state.find.template.kind == "seqiter" for state in loop.thread_state)
        for state in loop.thread_state + [n for n in walk(loop.body) if isinstance(n, StateInit)]:
            template = state.find.template
            state.per_thread = template.kind in ("hashmap", "bitmap") or bool(template.keyed)
    return nodes


def _take_states(items: list[Node], loop: Loop, finds: set[int], taken: list[StateInit]) -> list[Node]:
    """``items`` without the SeqIter state starts, outside ``loop``, of its finds ``finds``."""
    kept = []
    for item in items:
        if isinstance(item, StateInit) and id(item.find) in finds and item.find.template.kind == "seqiter":
            taken.append(item)
            continue
        if item is not loop and isinstance(item, SCOPES):
            item.body = _take_states(item.body, loop, finds, taken)
        kept.append(item)
    return kept


CHUNK_ITERATIONS = 2048  # a chunk of a two-phase kernel's loop holds this many iterations at least
CHUNK_COUNTERS_LOG2 = 26  # and its chunks' counters (rows x chunks) are at most 64M: one chunk beyond


def split_into_chunks(nodes: list[Node]) -> list[Node]:
    """The nest with its parallel loop (at most one, outside every other loop) as
    :class:`Chunks`: one contiguous, ordered chunk of its range per thread, the loop
    inside running over ``spf_first .. spf_last``, of equal work where its segments weigh
    its iterations (:func:`segment_pointer`).  A two-phase kernel counts and fills the
    same chunks, so each thread's entries land in the places it counted for them."""
    out: list[Node] = []
    for node in nodes:
        if isinstance(node, Loop) and node.parallel:
            inner = Loop(node.variable, [Bound(Affine.of("spf_first"))], [Bound(Affine.of("spf_last"))], node.body)
            out.append(Chunks(node.lower, node.upper, [inner], segment_pointer(inner), CHUNK_ITERATIONS,
                              CHUNK_COUNTERS_LOG2, node.variable))
            continue
        if isinstance(node, (Guard, Block)):
            node.body = split_into_chunks(node.body)
        out.append(node)
    return out
