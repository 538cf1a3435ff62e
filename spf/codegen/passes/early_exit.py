"""Early exits of SeqIter finds: a loop whose iterations do nothing but one SeqIter find
stops once the find's position has left its searched range.

A SeqIter position moves one way only, from one end of its range (spf.codegen.finds.find);
once it has left the range no later iteration can match, and the existing loop would only
test that again on every remaining iteration.  Where nothing else in those iterations has
an effect the loop stops there instead, as TACO's merge loop stops when one side is
exhausted: SpMSpV ``y(i) = A(i,j) * x(j)`` with a few entries of x walks each row of A only
up to x's last index.  The loop qualifies (:func:`exhausting_find`) when

* its body is named values (no row group opened) and exactly one Find;
* the find's range bounds read nothing the loop binds (its variable, its named values),
  so a position out of the range stays out for the rest of the loop;
* it is serial and printed as one plain C loop: not parallel, not cut into pieces or
  jammed (nor inside a jammed loop), no transposed copies, no per-block zeroing, no row
  group, no thread state.

The exit is taken by SeqIter finds whose state is one position (a position kept per key is
written back after the find, which an exit would skip).  The structural test is the same
for every template, so the run-time cost estimate (spf.codegen.finds.auto) can ask it of a
site whatever its variant's template.
"""

from __future__ import annotations

from spf.codegen.loops import Assign, Block, Chunks, Find, Guard, Loop, Node, TileGuard, expression_names, walk


def mark_early_exits(nodes: list[Node]) -> None:
    """Set ``Find.exit_when_exhausted`` on every SeqIter find of a single position that is
    the one effect of its loop's iterations (see the module's docstring)."""
    for loop in plain_loops(nodes, jammed=False):
        find = exhausting_find(loop)
        if find is not None and find.template.kind == "seqiter" and not find.template.keyed:
            find.exit_when_exhausted = True


def exhausting_find(loop: Loop) -> Find | None:
    """The one Find of ``loop`` when the loop's iterations have no other effect and the
    find's range does not change in the loop, else None (whatever the find's template)."""
    if loop.parallel or loop.jam != 1 or loop.transposed or loop.zero_rows is not None or loop.opens_group \
            or loop.pieces is not None or loop.thread_state:
        return None
    finds = [node for node in loop.body if isinstance(node, Find)]
    others = [node for node in loop.body if not isinstance(node, Find)]
    if len(finds) != 1 or any(not isinstance(node, Assign) or node.opens_group for node in others):
        return None
    bound = {loop.variable} | {node.variable for node in others}
    (find,) = finds
    if any(expression_names(limit) & bound for limit in [*find.lower, *find.upper]):
        return None
    return find


def exiting_sites(nodes: list[Node]) -> set[tuple[str, str]]:
    """(searched array, position variable) of each find that is its loop's one effect
    (:func:`exhausting_find`), outside jammed loops; a pair found twice is left out."""
    seen: dict[tuple[str, str], int] = {}
    exiting = set()
    for node in walk(nodes):
        if isinstance(node, Find):
            key = (node.call.function, node.variable)
            seen[key] = seen.get(key, 0) + 1
    for loop in plain_loops(nodes, jammed=False):
        find = exhausting_find(loop)
        if find is not None:
            exiting.add((find.call.function, find.variable))
    return {key for key in exiting if seen[key] == 1}


def plain_loops(nodes: list[Node], jammed: bool):
    """Every Loop of the nest not inside a jammed loop."""
    for node in nodes:
        if isinstance(node, Loop):
            inner_jammed = jammed or node.jam != 1
            if not inner_jammed:
                yield node
            yield from plain_loops(node.body, inner_jammed)
        elif isinstance(node, (Guard, Find, TileGuard, Block, Chunks)):
            yield from plain_loops(node.body, jammed)
            if isinstance(node, Guard):
                yield from plain_loops(node.otherwise, jammed)

