"""Scanning (spf/codegen/scanning/scan.py, the paper's Algorithm 1): an iteration space
becomes a loop nest whose loops, assignments, array reads, finds and guards follow the
space's constraints level by level, outer to inner."""

from __future__ import annotations

import pytest

import spf
from spf.codegen.finds.find import LINEAR, FindChoice
from spf.codegen.loops import Assign, Block, Compute, Find, Guard, Loop, walk
from spf.codegen.scanning.scan import scan
from spf.errors import ScanError
from spf.space.expressions import Affine, UFCall

SPMV = "y(i) = A(i,j) * x(j)"
GEMM = "C(i,j) = A(i,k) * B(k,j)"
DENSE3 = {"A": "Dense", "B": "Dense", "C": "Dense"}


def space(expression: str, layouts: dict):
    return spf.iteration_space(expression, layouts).statements[0]


def loops(nodes) -> list[Loop]:
    return [n for n in walk(nodes) if isinstance(n, Loop)]


def assignment(nodes, variable: str) -> Assign:
    (found,) = [n for n in walk(nodes) if isinstance(n, Assign) and n.variable == variable]
    return found


def enclosing(nodes, target) -> list:
    """The nodes around ``target``, outermost first."""
    for node in nodes:
        if node is target:
            return []
        for body in (getattr(node, "body", None) or [], getattr(node, "otherwise", None) or []):
            path = enclosing(body, target)
            if path is not None:
                return [node, *path]
    return None


def test_csr_spmv_loops_over_rows_then_over_the_rows_positions():
    scanned = scan(space(SPMV, {"A": "CSR", "x": "Dense", "y": "Dense"}))
    rows, positions = loops(scanned.nodes)
    assert rows.variable == "pAi" and [str(b) for b in rows.lower] == ["0"]
    assert [str(b) for b in rows.upper] == ["A_numRows - 1"]
    # the positions loop runs from rowPtr(pAi) to rowPtr(pAi + 1) - 1 (read into UF dimensions first)
    assert positions.variable == "pAj" and enclosing(scanned.nodes, positions)[0] is rows
    reads = {n.variable: n.value for n in rows.body + [g for g in rows.body if isinstance(g, Guard)][0].body
             if isinstance(n, Assign) and isinstance(n.value, UFCall)}
    assert sorted(str(call) for call in reads.values()) == ["A_rowPtr(pAi + 1)", "A_rowPtr(pAi)"]
    start = next(d for d, call in reads.items() if str(call) == "A_rowPtr(pAi)")
    end = next(d for d, call in reads.items() if str(call) == "A_rowPtr(pAi + 1)")
    assert positions.lower[0].expression == Affine.of(start)
    assert positions.upper[0].expression == Affine.of(end) - 1


def test_csr_spmv_assigns_j_from_the_column_array_and_i_from_the_row():
    scanned = scan(space(SPMV, {"A": "CSR", "x": "Dense", "y": "Dense"}))
    _, positions = loops(scanned.nodes)
    j = assignment(scanned.nodes, "j")
    (column,) = [n for n in positions.body if isinstance(n, Assign) and isinstance(n.value, UFCall)]
    assert str(column.value) == "A_colIdx(pAj)"
    assert j.value == Affine.of(column.variable)  # j is the column read, inside the positions loop
    assert positions in enclosing(scanned.nodes, j)
    assert assignment(scanned.nodes, "i").value == Affine.of("pAi")
    (compute,) = [n for n in walk(scanned.nodes) if isinstance(n, Compute)]
    assert positions in enclosing(scanned.nodes, compute)
    assert [factor[0] for factor in compute.factors] == ["A_data", "x_vals"] and compute.output[0] == "y_vals"


def test_csr_spmv_extents_shape_checks_and_calls():
    scanned = scan(space(SPMV, {"A": "CSR", "x": "Dense", "y": "Dense"}))
    assert scanned.extents == {"N_i": Affine.of("A_numRows"), "N_j": Affine.of("A_numCols")}
    checks = {frozenset({str(c.left), str(c.right)}) for c in scanned.shape_checks}
    assert checks == {frozenset({"A_numRows", "y_N0"}), frozenset({"A_numCols", "x_N0"})}
    assert all(c.op == "=" for c in scanned.shape_checks)
    assert sorted(call.function for call in scanned.calls.values()) == ["A_colIdx", "A_rowPtr", "A_rowPtr"]
    assert scanned.finds == [] and scanned.hole is None


def test_dense_gemm_is_three_plain_loops_in_the_default_order():
    statement = space(GEMM, DENSE3)
    scanned = scan(statement)
    assert scanned.order == list(statement.set.variables)
    outer, middle, inner = loops(scanned.nodes)
    assert [outer.variable, middle.variable, inner.variable] == ["pA0", "pA1", "pB1"]
    assert middle in outer.body and inner in middle.body  # perfectly nested, no guard between
    assert [str(b) for b in outer.upper] == ["A_N0 - 1"] and [str(b) for b in middle.upper] == ["A_N1 - 1"]
    assert [str(b) for b in inner.upper] == ["B_N1 - 1"]
    assert not any(isinstance(n, (Guard, Find)) for n in walk(scanned.nodes))
    assert scanned.calls == {} and len(scanned.shape_checks) == 3  # A, B and C agree on i, k and j


def test_a_given_order_reorders_the_dense_loops():
    order = ["pA1", "k", "pB0", "pA0", "i", "pC0", "pB1", "j", "pC1"]  # k outermost
    scanned = scan(space(GEMM, DENSE3), order)
    assert scanned.order == order
    assert [loop.variable for loop in loops(scanned.nodes)] == ["pA1", "pA0", "pB1"]
    (compute,) = [n for n in walk(scanned.nodes) if isinstance(n, Compute)]
    assert len(enclosing(scanned.nodes, compute)) == 3


def test_an_order_that_is_not_a_permutation_is_refused():
    statement = space(GEMM, DENSE3)
    variables = list(statement.set.variables)
    with pytest.raises(ScanError, match="must list each of"):
        scan(statement, variables[:-1])
    with pytest.raises(ScanError, match="must list each of"):
        scan(statement, variables[:-1] + variables[:1])


def test_coiterating_a_sparse_vector_scans_its_positions_under_a_guard_by_default():
    scanned = scan(space(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}))
    (site, choice), = scanned.finds
    assert choice is LINEAR and site.variable == "px" and site.call.function == "x_idx"
    column = assignment(scanned.nodes, "j").value
    assert site.key == column  # x_idx(px) must equal A's column read
    searched = next(loop for loop in loops(scanned.nodes) if loop.variable == "px")
    (guard,) = [n for n in searched.body if isinstance(n, Guard)]
    assert any(isinstance(n, Compute) for n in guard.body)
    assert [str(b) for b in site.lower] == ["0"] and [str(b) for b in site.upper] == ["x_len - 1"]


def test_a_chosen_find_template_replaces_the_loop_and_the_guard():
    sites = []

    def choose(site):
        sites.append(site)
        return FindChoice("binary")

    scanned = scan(space(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}), choose_find=choose)
    assert len(sites) == 1 and [f.variable for f in sites[0].outer][:1] == ["pAi"]  # the levels around it
    (find,) = [n for n in walk(scanned.nodes) if isinstance(n, Find)]
    assert find.variable == "px" and find.template.kind == "binary" and find.call.function == "x_idx"
    assert "px" not in [loop.variable for loop in loops(scanned.nodes)]
    assert any(isinstance(n, Compute) for n in find.body)
    assert scanned.finds[0][1] is find.template


def test_until_stops_the_nest_at_a_hole_and_bound_levels_emit_no_loop():
    statement = space(GEMM, DENSE3)
    order = list(statement.set.variables)
    cut = scan(statement, order, until="pC0")
    assert isinstance(cut.hole, Block) and cut.hole.body == []
    assert [loop.variable for loop in loops(cut.nodes)] == ["pA0"]
    assert any(node is cut.hole for node in walk(cut.nodes))
    assert not any(isinstance(n, Compute) for n in walk(cut.nodes))
    inside = scan(statement, order, bound=order[:3])  # pA0, i, pC0 set by the loops around
    assert [loop.variable for loop in loops(inside.nodes)] == ["pA1", "pB1"]
