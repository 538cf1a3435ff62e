"""The dense output zeroed by the blocks of the loop that writes it (spf.codegen.passes.zeroing).

The blocks must zero every row the nest does not write (empty rows, rows outside the
loop's range, every row when the nest does not run), serially and with each thread
zeroing its own part.  A bound kernel reuses its output array, so each test spoils the
previous result before calling again: a row left unzeroed shows as NaN.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from spf.codegen.loops import Loop, walk
from spf.codegen.passes.zeroing import BLOCK_ENTRIES, RowZeroing, fold_output_zeroing, plan_output_zeroing
from spf.codegen.pipeline import PASSES, Compilation, Options
from spf.layout_library.model import Name
from spf.space.expressions import Affine, Constraint

SPMV = "y(i) = A(i,j) * x(j)"
SPMM = "C(i,j) = A(i,k) * B(k,j)"


def folded_loops(expression: str, layouts: dict, parallel: bool = False) -> list[Loop]:
    compilation = Compilation(expression, layouts, Options(parallel=parallel, infer_pattern=True))
    for compile_pass in PASSES[:-1]:
        compilation = compile_pass(compilation)
    return [node for group in compilation.variant_scans for scanned in group for node in walk(scanned.nodes)
            if isinstance(node, Loop) and node.zero_rows is not None]


def spoil_and_rerun(bound, expected) -> None:
    for _ in range(3):
        bound.result[...] = np.nan
        result = bound()
        np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


def csr_with_empty_rows(rows: int, cols: int, seed: int) -> sp.csr_matrix:
    A = sp.random(rows, cols, density=0.02, format="lil", random_state=seed)
    A[rows // 3: rows // 2, :] = 0  # a run of empty rows longer than a block
    A[-5:, :] = 0  # and empty rows at the end
    return A.tocsr()


@pytest.mark.parametrize("parallel", [False, True])
def test_spmv_stores_each_row_once_and_zeroes_the_empty_ones(parallel, openmp_threads):
    # one register sum per row, stored (``=``); a row whose guard fails stores a zero
    loops = folded_loops(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"}, parallel)
    assert loops and loops[0].zero_rows.stores
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"}, parallel=parallel)
    assert "spf_block_rows" not in k.c_source and "y_vals[py0] = sum_" in k.c_source
    assert "+=" not in k.c_source.split("y_vals[py0]")[1][:4]
    A = csr_with_empty_rows(9000, 700, 1)
    x = np.random.default_rng(2).random(700)
    spoil_and_rerun(k.bind(A=A, x=x), A @ x)


@pytest.mark.parametrize("parallel", [False, True])
def test_a_statement_directly_in_the_row_loop_stores(parallel, openmp_threads):
    loops = folded_loops("y(i) = x(i) * z(i)", {"y": "Dense", "x": "Dense", "z": "Dense"}, parallel)
    assert loops and loops[0].zero_rows.stores
    k = spf.compile("y(i) = x(i) * z(i)", {"y": "Dense", "x": "Dense", "z": "Dense"}, parallel=parallel)
    rng = np.random.default_rng(9)
    x, z = rng.random(5000), rng.random(5000)
    spoil_and_rerun(k.bind(x=x, z=z), x * z)


@pytest.mark.parametrize("parallel", [False, True])
def test_a_find_between_the_row_and_its_sum_still_stores(parallel, openmp_threads):
    # x sparse: the sum over a row's matches of x; rows with no match store a zero
    layouts = {"y": "Dense", "A": "CSR", "x": "SV"}
    k = spf.compile(SPMV, layouts, parallel=parallel)
    A = csr_with_empty_rows(6000, 400, 10)
    x = sp.random(400, 1, density=0.05, format="csc", random_state=11).toarray().ravel()
    spoil_and_rerun(k.bind(A=A, x=x), A @ x)


@pytest.mark.parametrize("parallel", [False, True])
def test_factors_of_the_row_taken_out_of_the_sum_are_stored_with_it(parallel, openmp_threads):
    expression = "y(i) = A(i,j) * x(j) * z(i)"
    layouts = {"y": "Dense", "A": "CSR", "x": "Dense", "z": "Dense"}
    assert folded_loops(expression, layouts, parallel)[0].zero_rows.stores
    k = spf.compile(expression, layouts, parallel=parallel)
    A = csr_with_empty_rows(5000, 300, 12)
    rng = np.random.default_rng(13)
    x, z = rng.random(300), rng.random(5000)
    spoil_and_rerun(k.bind(A=A, x=x, z=z), (A @ x) * z)


@pytest.mark.parametrize("parallel", [False, True])
def test_spmm_rows_of_several_entries_are_zeroed_by_the_blocks(parallel, openmp_threads):
    loops = folded_loops(SPMM, {"C": "Dense", "A": "CSR", "B": "Dense"}, parallel)
    assert loops and not loops[0].zero_rows.stores  # row i's entries are added to once per k
    assert loops[0].zero_rows.block_entries == BLOCK_ENTRIES  # the pass sizes the blocks, the printer prints them
    k = spf.compile(SPMM, {"C": "Dense", "A": "CSR", "B": "Dense"}, parallel=parallel)
    assert "spf_block_rows" in k.c_source
    A = csr_with_empty_rows(3000, 200, 3)
    B = np.random.default_rng(4).random((200, 37))
    spoil_and_rerun(k.bind(A=A, B=B), A @ B)


@pytest.mark.parametrize("parallel", [False, True])
def test_every_row_is_zeroed_when_the_nest_does_not_run(parallel, openmp_threads):
    # no columns: the nest's entry guard fails, and the rows are zeroed before it
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"}, parallel=parallel)
    A = sp.csr_matrix((50, 0))
    spoil_and_rerun(k.bind(A=A, x=np.zeros(0)), np.zeros(50))


@pytest.mark.parametrize("layouts, expression", [
    ({"y": "Dense", "A": "DCSR", "x": "Dense"}, SPMV),  # rows are coordinates, not positions
    ({"y": "Dense", "A": "COO", "x": "Dense"}, SPMV),
    ({"y": "Dense", "A": "CSC", "x": "Dense"}, SPMV),  # the outer loop runs over columns
    ({"y": "Dense", "A": "CSR", "x": "Dense"}, "y(i) += A(i,j) * x(j)"),  # nothing to zero
])
def test_other_nests_zero_the_whole_output_first(layouts, expression, openmp_threads):
    assert not folded_loops(expression, layouts)
    k = spf.compile(expression, layouts)
    A = csr_with_empty_rows(500, 300, 5)
    x = np.random.default_rng(6).random(300)
    bound = k.bind(A=A, x=x)
    if "+=" in expression:
        bound.result[...] = 1.0
        np.testing.assert_allclose(bound(), 1.0 + A @ x)
    else:
        spoil_and_rerun(bound, A @ x)


@pytest.mark.parametrize("parallel", [False, True])
def test_ttv_stores_each_fibre_of_its_rows_segment_once(parallel, openmp_threads):
    # A in B's first two levels (inferred): loop pB0 stores A's entries [ptr0[pB0], ptr0[pB0 + 1])
    expression, layouts = "A(i,j) = B(i,j,k) * c(k)", {"A": "DCSR", "B": "CSF3", "c": "Dense"}
    loops = folded_loops(expression, layouts, parallel)
    assert loops and loops[0].zero_rows.stores and loops[0].zero_rows.pointer == "B_ptr0"
    k = spf.compile(expression, layouts, parallel=parallel)
    assert "A_data[pAj] = sum_" in k.c_source and "A_data[pB1] = 0.0" in k.c_source
    rng = np.random.default_rng(14)
    coords = np.unique(np.stack([rng.integers(0, n, 40000) for n in (300, 50, 60)], axis=1), axis=0)
    values = rng.random(len(coords))
    B = spf.pack("CSF3", (coords, values, (300, 50, 60)))
    c = rng.random(60)
    dense = np.zeros((300, 50, 60))
    dense[tuple(coords.T)] = values
    spoil_and_rerun_shared(k.bind(B=B, c=c), np.einsum("ijk,k->ij", dense, c))


def spoil_and_rerun_shared(bound, expected) -> None:
    """spoil_and_rerun for an output in an input's pattern (a Tensor whose values the
    kernel writes in place): an entry not stored by the next call shows as NaN."""
    for _ in range(3):
        values = bound.result.fields[bound.result.layout.values_field]
        np.asarray(values.base)[...] = np.nan  # the Tensor's view is read-only, the kernel's memory is not
        np.testing.assert_allclose(bound().to_dense(), expected, rtol=1e-12, atol=1e-12)


def test_a_sddmm_sharing_b_stores_each_entry_of_a_row_once():
    layouts = {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}
    loops = folded_loops("A(i,j) = B(i,j) * C(i,k) * D(k,j)", layouts)
    assert loops and loops[0].zero_rows.pointer == "B_rowPtr"
    k = spf.compile("A(i,j) = B(i,j) * C(i,k) * D(k,j)", layouts)
    B = csr_with_empty_rows(700, 90, 15)
    rng = np.random.default_rng(16)
    C, D = rng.random((700, 4)), rng.random((4, 90))
    spoil_and_rerun_shared(k.bind(B=B, C=C, D=D), B.multiply(C @ D).toarray())


@pytest.mark.parametrize("parallel", [False, True])
def test_a_masked_product_into_a_shared_coo_stores_a_zero_under_each_failing_guard(parallel, openmp_threads):
    # found by the long fuzz profile: two guards (A's row, B's column not empty) lie between the loop
    # over M's entries and the stored sum; each got the same zero-store node (a pass rewrites a node once)
    expression = "C(i,j) = M(i,j) * A(i,k) * B(k,j)"
    layouts = {"M": "COO", "A": "CSR", "B": "CSC", "C": "COO"}
    k = spf.compile(expression, layouts, share={"C": "M"}, parallel=parallel)
    assert "C_val[pM] = 0.0" in k.c_source
    M = sp.random(600, 500, density=0.2, format="coo", random_state=17)
    A = sp.random(600, 400, density=0.01, format="csr", random_state=18)
    B = sp.random(400, 500, density=0.01, format="csc", random_state=19)
    spoil_and_rerun_shared(k.bind(M=M, A=A, B=B), M.toarray() * (A @ B).toarray())


def test_a_nest_writing_rows_other_than_its_loop_variable_is_not_folded():
    # y(j) from a CSR loop over rows: row i's iterations write other rows
    assert not folded_loops("y(j) = A(i,j) * x(i)", {"y": "Dense", "A": "CSR", "x": "Dense"})
    assert fold_output_zeroing([], "y_vals") is None


def test_default_grain_runs_small_inputs_on_one_thread_and_large_ones_on_two(tmp_path):
    # without the tests' SPF_PARALLEL_GRAIN=1: inputs below 4096 units of work per thread
    # run on one thread, larger ones on two (a dense output, and an assembled one whose
    # per-thread rows the second thread then never fills)
    import os
    import subprocess
    import sys
    script = tmp_path / "grain.py"
    script.write_text(
        "import numpy as np, scipy.sparse as sp, spf\n"
        "spmv = spf.compile('y(i) = A(i,j) * x(j)', {'y': 'Dense', 'A': 'CSR', 'x': 'Dense'}, parallel=True)\n"
        "spgemm = spf.compile('C(i,j) = A(i,k) * B(k,j)', {'A': 'CSR', 'B': 'CSR', 'C': 'CSR'}, parallel=True)\n"
        "for rows, per_row in ((300, 10), (60000, 8)):\n"
        "    rng = np.random.default_rng(rows)\n"
        "    m = rows * per_row\n"
        "    A = sp.coo_matrix((rng.random(m), (rng.integers(0, rows, m), rng.integers(0, rows, m))),\n"
        "                      shape=(rows, rows)).tocsr()\n"
        "    x = rng.random(rows)\n"
        "    assert np.allclose(spmv(A=A, x=x), A @ x)\n"
        "    C = spgemm(A=A, B=A).to_scipy()\n"
        "    assert abs(C - A @ A).max() < 1e-12\n"
        "print('ok')\n")
    environment = {name: value for name, value in os.environ.items() if name != "SPF_PARALLEL_GRAIN"}
    environment["OMP_NUM_THREADS"] = "2"
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=environment,
                          timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_parallel_nest_not_folded_zeroes_on_the_kernel_threads(openmp_threads):
    # COO: the nest writes rows A_row(pA), not its loop's variable; the zeroing before it
    # is split among the threads (each first touches a part of y)
    k = spf.compile(SPMV, {"y": "Dense", "A": "COO", "x": "Dense"}, parallel=True)
    assert "omp parallel for schedule(static) num_threads(spf_team_for(y_N0))" in k.c_source
    assert k.output_zeroing.parallel and k.output_zeroing.rows is None
    assert "zeroing: the whole output is zeroed first by the kernel's threads" in k.explain()
    A = csr_with_empty_rows(4000, 300, 7).tocoo()
    x = np.random.default_rng(8).random(300)
    spoil_and_rerun(k.bind(A=A, x=x), A @ x)


def planned(expression: str, layouts: dict, parallel: bool = False):
    compilation = Compilation(expression, layouts, Options(parallel=parallel, infer_pattern=True))
    for compile_pass in PASSES[:-1]:
        compilation = compile_pass(compilation)
    return compilation.output_zeroing


def test_the_zeroing_plan_follows_the_folded_loop_and_the_parallel_loops():
    (folded,) = planned(SPMM, {"C": "Dense", "A": "CSR", "B": "Dense"})
    assert folded.rows is not None and folded.rows.zero_rows is not None and not folded.parallel
    (serial,) = planned(SPMV, {"y": "Dense", "A": "COO", "x": "Dense"})
    assert serial.rows is None and not serial.parallel
    (shared,) = planned(SPMV, {"y": "Dense", "A": "COO", "x": "Dense"}, parallel=True)
    assert shared.rows is None and shared.parallel
    assert planned("y(i) += A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "Dense"}) == ()  # nothing to zero
    assert planned(SPMM, {"C": "CSR", "A": "CSR", "B": "CSR"}) == ()  # assembled


def test_the_zeroing_plan_keeps_the_nests_entry_guards():
    guard, own = Constraint(Affine.of("N"), ">", Affine.of(0)), Constraint(Affine.of("M"), ">", Affine.of(0))
    nest = Loop("i", [], [], zero_rows=RowZeroing("y", Name("N"), (), guards=(own,)))
    plan = plan_output_zeroing([SimpleNamespace(nodes=[], entry_guards=[]),
                                SimpleNamespace(nodes=[nest], entry_guards=[guard])])
    assert plan.rows is nest and plan.guards == (guard, own)
    assert "loop i does not reach" in plan.describe()


def _csf3_with_empty_fibres(shape, count, seed):
    rng = np.random.default_rng(seed)
    coords = np.unique(np.stack([rng.integers(0, n, count) for n in shape], axis=1), axis=0)
    coords = coords[(coords[:, 0] % 5 != 0)]  # runs of i with no fibres
    values = rng.uniform(-1, 1, len(coords))
    dense = np.zeros(shape)
    dense[tuple(coords.T)] = values
    return spf.pack("CSF3", (coords, values, shape)), dense


@pytest.mark.parametrize("parallel", [False, True])
def test_rows_of_a_segment_are_zeroed_by_the_blocks_that_walk_it(parallel, openmp_threads):
    """TTM into B's own (i, j) fibres with a dense last level: iteration pB0 adds into the
    rows [ptr0[pB0], ptr0[pB0 + 1]) (k sums into each), so each block of iterations zeroes
    those rows first and the rows outside every segment before the nest."""
    expression, layouts = "A(i,j,m) = B(i,j,k) * C(k,m)", {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}
    loops = folded_loops(expression, layouts, parallel)
    assert loops and loops[0].zero_rows.pointer == "B_ptr0" and not loops[0].zero_rows.stores
    k = spf.compile(expression, layouts, parallel=parallel)
    assert "each zeroing the rows of A_val in its B_ptr0 segments first" in k.explain()
    B, dense = _csf3_with_empty_fibres((400, 40, 30), 30000, 21)
    C = np.random.default_rng(22).random((30, 6))
    spoil_and_rerun_shared(k.bind(B=B, C=C), np.einsum("ijk,km->ijm", dense, C))


@pytest.mark.parametrize("parallel", [False, True])
def test_the_phase_of_a_fused_nest_that_writes_the_output_zeroes_its_rows(parallel, openmp_threads):
    """K7 with C*D first: the output is written by the second phase only (the first writes
    the root temporary), whose loop over B's fibres zeroes the rows of its segments."""
    expression = "A(i,j,m) = B(i,j,k) * C(k,l) * D(l,m)"
    layouts = {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense", "D": "Dense"}
    tree = "< T_CD(k,m) ; k, l, m : T_CD(k,m) += C(k,l) * D(l,m) , i, j, k, m : A(i,j,m) += T_CD(k,m) * B(i,j,k) >"
    k = spf.compile(expression, layouts, share={"A": "B"}, parallel=parallel,
                    schedule=spf.schedule(tree, expression, layouts, share={"A": "B"}))
    (loop,) = [node for scanned in k.scans for node in walk(scanned.nodes)
               if isinstance(node, Loop) and node.zero_rows is not None]
    assert loop.zero_rows.pointer == "B_ptr0" and not loop.zero_rows.stores
    B, dense = _csf3_with_empty_fibres((400, 40, 30), 30000, 23)
    rng = np.random.default_rng(24)
    for d in (5, 16):
        C, D = rng.random((30, 7)), rng.random((7, d))
        spoil_and_rerun_shared(k.bind(B=B, C=C, D=D), np.einsum("ijk,kl,lm->ijm", dense, C, D))
