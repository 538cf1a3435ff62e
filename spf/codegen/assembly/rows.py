"""How a kernel hands an assembled output's entries to rows (spf.codegen.assembly.plan.DirectRows):
where each row's group opens, and how a merge of a sum's terms steps.

A workspace's rows (or rows appended in storage order, ``Workspace.appends``) take the
entries of one row as a group.  Where every entry of the nests is below the assignment
or loop that binds the row's coordinate (and no parallel loop lies between them), the
group opens there (``Assign.opens_group``, ``Loop.opens_group``) and each entry names
only its key (``Compute.grouped``); otherwise each entry names its row.

A two-term :class:`~codegen.loops.Merge` of appended rows steps without a branch on
which key is less where each arm's iteration is assignments and one entry, unguarded
(``Merge.steps == "branchless"``): a branch per step mispredicts about as often as a
sum's terms alternate, and the branch-free merge runs about 1.25x faster on the real
matrices.  Otherwise it compares the keys, and where both arms are at one key and the
first surely appends, sums both terms in a register and pushes them once ("held").
An arm whose iteration appends at most one entry pushes its key, new to the group,
without comparing it with the group's last (``MergeArm.pushes``).
"""

from __future__ import annotations

from spf.codegen.loops import Assign, Block, Compute, Find, Guard, Loop, Merge, Node, TileGuard, walk


def plan_row_appends(nests: list[list[Node]], outer: str, appends: bool) -> None:
    """Mark the groups and merges of one kernel's nests (one per statement) whose entries
    go to rows over the coordinate ``outer``; ``appends``: appended in storage order
    without a workspace."""
    grouped = all(bound_before_entries(nodes, outer) for nodes in nests)
    for nodes in nests:
        for node in walk(nodes):
            if grouped and isinstance(node, (Assign, Loop)) and node.variable == outer:
                node.opens_group = True
            elif grouped and isinstance(node, Compute) and node.stream is not None:
                node.grouped = True
            elif isinstance(node, Merge):
                choose_merge_steps(node, appends, grouped)


def bound_before_entries(nodes: list[Node], coordinate: str, bound: bool = False) -> bool:
    """Whether every entry a nest appends is below an assignment or loop binding
    ``coordinate``, with no parallel loop between the two (then the workspace's group can
    start there: the thread that appends is the one that bound it)."""
    for node in nodes:
        if isinstance(node, Assign) and node.variable == coordinate:
            bound = True
        elif isinstance(node, Compute) and node.stream is not None and not bound:
            return False
        elif isinstance(node, Loop) and node.parallel and bound:
            return False
        elif isinstance(node, (Loop, Guard, Find, TileGuard, Block)):
            inner = bound or (isinstance(node, Loop) and node.variable == coordinate)
            if not bound_before_entries(node.body, coordinate, inner):
                return False
    return True


def choose_merge_steps(merge: Merge, appends: bool, grouped: bool) -> None:
    """Set ``merge.steps`` and each arm's ``pushes`` (see the module's docstring)."""
    once = [appends_at_most_once(arm.loop) for arm in merge.arms]
    surely = [one and not any(isinstance(n, Guard) or (isinstance(n, Compute) and n.padded)
                              for n in walk(arm.loop.body))
              for one, arm in zip(once, merge.arms)]
    for arm, one in zip(merge.arms, once):
        arm.pushes = appends and one
    if len(merge.arms) != 2 or not (appends and grouped):
        return
    if all(once) and all(surely) and \
            all(isinstance(n, (Assign, Compute)) for arm in merge.arms for n in arm.loop.body):
        merge.steps = "branchless"
    elif surely[0] and once[1]:
        merge.steps = "held"


def appends_at_most_once(loop: Loop) -> bool:
    """Whether an iteration of ``loop`` appends at most one entry: one append in its body,
    and no loop, find or merge around it there."""
    nodes = list(walk(loop.body))
    appends = [n for n in nodes if isinstance(n, Compute) and n.stream is not None]
    return len(appends) == 1 and not any(isinstance(n, (Loop, Find, Merge, TileGuard)) for n in nodes)
