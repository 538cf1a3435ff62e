"""Where each find's state starts (Section 8.5 of the core paper), and each thread's own.

A SeqIter position or a HashMap table outlives the loops inside the innermost loop of
its state indices: it starts (a :class:`~codegen.loops.StateInit`) right before them.
Inside a parallel loop every thread needs its own (:func:`spf.codegen.passes.parallel.privatize_find_state`).
"""

from __future__ import annotations

from spf.codegen.loops import Assign, Block, Find, Guard, Loop, Node, StateInit, TileGuard, expression_names
from spf.codegen.passes.parallel import privatize_find_state


def start_find_states(nodes: list[Node]) -> list[Node]:
    """The nest with a StateInit where each find's state starts, each parallel loop's
    threads starting their own (and running their iterations in order where a SeqIter
    position carries over from one to the next: ``Loop.monotonic``)."""
    return privatize_find_state(place_find_state(nodes))


def _start_reads(find: Find) -> set[str]:
    """The names a find's state start reads (:class:`~codegen.loops.StateInit`): its range's
    bounds and the searched call's arguments but the find's own variable (a table is filled
    from the range)."""
    names = expression_names(find.call) - {find.variable}
    for bound in find.lower + find.upper:
        names |= expression_names(bound)
    return names


def place_find_state(nodes: list[Node]) -> list[Node]:
    """Insert where each SeqIter/HashMap find's state starts (Section 8.5).

    The state of a find with state indices SIGMA starts right before the first enclosing
    loop inside the innermost loop of SIGMA (or right before the find itself), so it
    restarts with every iteration of SIGMA's loops and lives through the loops inside.
    Indices the state is keyed by (an array of positions per value) do not count: the
    array holds a state per value, so it starts outside the loops that set them.  Nor
    does it start before the names its range reads are bound: a fused nest's section
    re-reads the range's pointers in its own scope, inside loops nested in SIGMA's.
    """
    starts: dict[int, object] = {}  # id of the node to start before -> find

    def locate(items: list[Node], path: list, bound_at: dict[str, int], fused: int = -1) -> None:
        # bound_at: variable -> index (among the enclosing loops and finds) of the loop
        # whose iterations set it: its own variable, or one assigned in its body (a fused
        # nest binds i = idx(pA0) inside the loop over pA0).  fused: that index for the
        # innermost fused loop of a schedule tree around the items: a state restarts in
        # each of its iterations where the find asks (SeqIter) or a state index is bound
        # by the fused loops (its nest cannot tell by which of them).
        bound_at = dict(bound_at)
        loops = [n for n in path if isinstance(n, (Loop, Find))]
        for item in items:
            if isinstance(item, Assign):
                bound_at[item.variable] = len(loops) - 1
            if isinstance(item, Find) and item.template.kind in ("seqiter", "hashmap", "bitmap"):
                # an index the positions are kept per (an array of them) restarts nothing
                state = set(item.template.state) - set(item.template.keyed)
                innermost = max((bound_at.get(v, fused) for v in state), default=-1)
                if item.template.per_fused_iteration:
                    innermost = max(innermost, fused)
                innermost = max([innermost] + [bound_at.get(v, -1) for v in _start_reads(item)])
                anchor = loops[innermost + 1] if innermost + 1 < len(loops) else item
                starts.setdefault(id(anchor), []).append(item)
            if isinstance(item, (Loop, Find)):
                inner = dict(bound_at)
                inner[item.variable] = len(loops)
                locate(item.body, path + [item], inner, fused)
            elif isinstance(item, (Guard, TileGuard, Block)):
                inside = len(loops) - 1 if isinstance(item, Block) and item.fused_iteration else fused
                locate(item.body, path + [item], bound_at, inside)

    def visit(items: list[Node]) -> list[Node]:
        result: list[Node] = []
        for item in items:
            result.extend(StateInit(find) for find in starts.get(id(item), []))
            if isinstance(item, (Loop, Guard, Find, TileGuard, Block)):
                item.body = visit(item.body)
            result.append(item)
        return result

    locate(nodes, [], {})
    return visit(nodes)
