"""The loop-nest IR (spf/codegen/loops.py): walk, the names a node reads, dead-assignment
removal, copied_from and render, on small nests built by hand."""

from __future__ import annotations

from spf.codegen.finds.find import LINEAR
from spf.codegen.loops import (Assign, Block, Bound, Compute, Find, Guard, Loop, Merge, MergeArm, copied_from,
                               expression_names, remove_dead_assignments, render, used_names, walk)
from spf.layout_library.model import Name
from spf.space.expressions import Affine, Constraint, UFCall


def bounds(expression) -> list[Bound]:
    return [Bound(Affine.of(expression))]


def read(variable: str, array: str, at: str) -> Assign:
    return Assign(variable, UFCall(array, (Affine.of(at),)))


def statement(position: str = "i", factor: str = "p") -> Compute:
    return Compute(("y_vals", (Name(position),), (Name("n"),)), [("A_vals", (Name(factor),), (Name("n"),))])


def csr_nest() -> list:
    """for i: for p in rowPtr(i) .. rowPtr(i+1)-1: j = col(p); y[i] += A[p]."""
    inner = Loop("p", bounds(UFCall("A_rowPtr", (Affine.of("i"),))),
                 [Bound(Affine.of(UFCall("A_rowPtr", (Affine.of("i") + 1,))) - 1)],
                 [read("j", "A_col", "p"), statement()])
    return [Loop("i", bounds(0), [Bound(Affine.of("n") - 1)], [inner])]


def test_walk_visits_every_node_depth_first_through_every_kind_of_scope():
    compute = statement()
    find = Find("q", "d", UFCall("x_idx", (Affine.of("q"),)), Affine.of("j"), bounds(0), bounds("m"), LINEAR,
                [compute])
    arm_loop = Loop("r", bounds(0), bounds("m"), [])
    merge = Merge("k", [MergeArm([arm_loop], arm_loop)])
    guard = Guard([Constraint(Affine.of("j"), "<", Affine.of("n"))], [find], [Block([merge])])
    outer = Loop("i", bounds(0), bounds("n"), [guard])
    visited = list(walk([outer]))
    assert visited[:3] == [outer, guard, find]
    assert visited[3] is compute  # a find's body, before the guard's else branch
    for node in (compute, merge, arm_loop):  # a guard's otherwise, a block, a merge arm's path
        assert any(v is node for v in visited)
    assert len(visited) == 7  # outer, guard, find, compute, block, merge, arm_loop: each once


def test_expression_names_include_a_calls_function_and_arguments():
    call = UFCall("A_col", (Affine.of("p") + 1,))
    assert expression_names(call) == {"A_col", "p"}
    assert expression_names(Affine.of("n") - Affine.of("m")) == {"n", "m"}
    assert expression_names(Bound(Affine.of("i") + 2, 2)) == {"i"}
    assert expression_names(Constraint(Affine.of("a"), "<=", Affine.of(call))) == {"a", "p"}
    assert expression_names(Name("q")) == {"q"}
    assert expression_names(3) == set()


def test_used_names_are_a_nodes_own_reads_not_its_bodys():
    (outer,) = csr_nest()
    inner = outer.body[0]
    assert used_names(outer) == {"n"}  # its bounds; nothing inside
    assert used_names(inner) == {"i"}  # rowPtr(i), rowPtr(i+1) - 1 read i
    assert used_names(statement("i", "p")) == {"i", "p", "n"}
    guard = Guard([Constraint(Affine.of("j"), "=", Affine.of("k"))], [statement()])
    assert used_names(guard) == {"j", "k"}
    find = Find("q", "d", UFCall("x_idx", (Affine.of("q"),)), Affine.of("j"), bounds("lo"), bounds("hi"), LINEAR)
    assert {"j", "lo", "hi", "x_idx"} <= used_names(find)


def test_remove_dead_assignments_drops_an_assignment_nothing_reads():
    (outer,) = remove_dead_assignments(csr_nest())
    inner = outer.body[0]
    assert not any(isinstance(n, Assign) for n in walk([outer]))  # j = A_col(p) is read by nothing
    assert isinstance(inner.body[0], Compute)


def test_remove_dead_assignments_keeps_an_assignment_that_is_read_and_what_it_reads():
    nest = csr_nest()
    inner = nest[0].body[0]
    inner.body = [read("j", "A_col", "p"), Assign("k", Affine.of("j") + 1),
                  Guard([Constraint(Affine.of("k"), "<", Affine.of("n"))], [statement()]),
                  Assign("unused", Affine.of("p"))]
    kept = {n.variable for n in walk(remove_dead_assignments(nest)) if isinstance(n, Assign)}
    assert kept == {"j", "k"}  # k is read by the guard, j by k's value; unused goes


def test_remove_dead_assignments_prunes_inside_guards_else_branches_and_merge_paths():
    arm_loop = Loop("r", bounds(0), bounds("m"), [statement("r", "r")])
    merge = Merge("k", [MergeArm([Assign("dead1", Affine.of(0)), arm_loop], arm_loop)])
    guard = Guard([Constraint(Affine.of("i"), "<", Affine.of("n"))], [Assign("dead2", Affine.of(1))],
                  [Assign("dead3", Affine.of(2)), merge])
    nest = remove_dead_assignments([Loop("i", bounds(0), bounds("n"), [guard])])
    assert not any(isinstance(n, Assign) for n in walk(nest))
    assert guard.otherwise == [merge] and merge.arms[0].path == [arm_loop]


def test_copied_from_follows_copies_back_to_their_source():
    nodes = [Assign("py0", Affine.of("i")), Assign("i", Affine.of("pAi")), Assign("scaled", Affine.of("k").scale(2))]
    assert copied_from(Name("py0"), nodes) == "pAi"
    assert copied_from(Name("q"), nodes) == "q"  # not a copy: itself
    assert copied_from(Name("scaled"), nodes) == "scaled"  # 2*k is not a copy of k
    assert copied_from(3, nodes) is None  # not a name


def test_copied_from_stops_on_a_cycle():
    nodes = [Assign("a", Affine.of("b")), Assign("b", Affine.of("a"))]
    assert copied_from(Name("a"), nodes) in {"a", "b"}


def test_render_indents_each_scope_under_its_header():
    nest = csr_nest()
    inner = nest[0].body[0]
    inner.body = [read("j", "A_col", "p"),
                  Guard([Constraint(Affine.of("j"), "<", Affine.of("n"))], [statement()], [statement("i", "j")])]
    lines = render(nest).splitlines()
    assert lines[0] == "for i in 0 .. n - 1:"
    assert lines[1].startswith("  for p in A_rowPtr(i) .. ") and lines[1].endswith(":")
    assert lines[2] == "    j = A_col(p)"
    assert lines[3].startswith("    if ") and lines[3].endswith(":")
    assert lines[4] == "      y_vals[i] += A_vals[p]"
    assert lines[5] == "    else:"
    assert lines[6] == "      y_vals[i] += A_vals[j]"
    assert len(lines) == 7


def test_render_shows_a_finds_search_and_body_and_a_loops_bounds_as_max_min():
    find = Find("q", "d", UFCall("x_idx", (Affine.of("q"),)), Affine.of("j"), bounds("lo"), bounds("hi"), LINEAR,
                [statement("i", "q")])
    loop = Loop("i", bounds(0) + bounds("a"), bounds("n") + bounds("b"), [find], parallel=True)
    lines = render([loop]).splitlines()
    assert any(line.startswith("for i in max(0, a) .. min(n, b) (parallel)") for line in lines)
    header = next(k for k, line in enumerate(lines) if line.startswith("  find q in lo .. hi where x_idx(q) == j"))
    assert lines[header + 1] == "    y_vals[i] += A_vals[q]"
