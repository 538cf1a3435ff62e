"""Parallel loops (spf.codegen.passes.parallel): every piece of state a parallel loop writes is private
to its threads, and the loops that cannot be made safe stay serial, saying why.

1. Find state inside a parallel loop: a HashMap table or an array of SeqIter positions
   filled inside the loop takes one slice per thread; a SeqIter position that outlives
   the loop's iterations starts again for each thread, under a monotonic schedule; a
   HashMap table filled before the loop is shared (only read).  Every variant of the
   issue's reproducers (SpMSpM with hash maps and keyed SeqIter, tiled recipes, keyed
   finds across the parallel loop) equals scipy with two threads on inputs that span
   many chunks, call after call.
2. Writes the dependence test does not cover keep a loop serial: a fused kernel's
   temporary zeroed outside the loop.  Inside a parallel loop every write is one of the
   space's updates (a register sum is written back only if it received a term).
3. ``explain()`` says which loop runs in parallel, or that none does.
4. The pieces a balanced parallel loop is cut into (spf_piece_take): each taken once; a
   thread's own pieces in order into one stream, another's into streams of their own, so
   the streams joined by index keep the loop's order, also when a thread starts late.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from conftest import run_variants
from spf.codegen.loops import Assign, Bound, Chunks, Compute, Loop, Temporary, walk
from spf.codegen.passes.parallel import (CHUNK_COUNTERS_LOG2, CHUNK_ITERATIONS, NESTED_WORK, balance_parallel_loops,
                                         segment_pointer, shared_writes, split_into_chunks)
from spf.layout_library.model import Name
from spf.space.expressions import Affine, UFCall

SPMSPM = "C(i,j) = A(i,k) * B(k,j)"
SPMV = "y(i) = A(i,j) * x(j)"
CALLS = 4  # races are intermittent: each parallel kernel runs several times


def matrices(rows: int = 300, inner: int = 200, cols: int = 250, density: float = 0.2):
    """Two random matrices with enough rows for many chunks of 32 iterations."""
    A = sp.random(rows, inner, density=density, format="csr", random_state=1)
    B = sp.random(inner, cols, density=density, format="csr", random_state=2)
    return A, B


def assert_every_variant(kernel, expected, **inputs) -> None:
    expected = np.asarray(expected)
    for _ in range(CALLS):
        for choice, result in run_variants(kernel, **inputs):
            result = result.to_dense() if isinstance(result, spf.Tensor) else np.asarray(result)
            np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12, err_msg=choice)


def sparse_vector(n: int, density: float, seed: int):
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(n, size=max(1, int(n * density)), replace=False))
    values = rng.uniform(-1, 1, len(chosen))
    dense = np.zeros(n)
    dense[chosen] = values
    return (chosen.reshape(-1, 1), values, (n,)), dense


# ============================================================================= 1. find state


@pytest.mark.parametrize("template, fill", [("hashmap", "spf_hash_fill"), ("bitmap", "spf_bitmap_fill")])
def test_a_table_filled_inside_the_parallel_loop_is_per_thread(template, fill, openmp_threads):
    A, B = matrices()
    k = spf.compile(SPMSPM, {"A": "CSR", "B": "CSC", "C": "Dense"}, find=template, parallel=True)
    assert "spf_state_threads(&spf_kept[0], spf_threads())" in k.c_source
    assert re.search(fill + r"\(&\w+_threads\[spf_thread\(\)\],", k.c_source)
    assert_every_variant(k, (A @ B).toarray(), A=A, B=B)


@pytest.mark.parametrize("template", ["hashmap", "bitmap"])
def test_per_thread_tables_kept_between_calls_never_match_an_earlier_calls_entries(template, openmp_threads):
    """The per-thread tables of one kernel, call after call on products of other shapes
    and patterns (each spanning many chunks of rows): each fill empties what the thread's
    last fill put, whichever call and row that was (a bitmap grown for a wider B too)."""
    k = spf.compile(SPMSPM, {"A": "CSR", "B": "CSC", "C": "Dense"}, find=template, parallel=True)
    for seed, (rows, inner, cols, density) in enumerate([(300, 200, 250, 0.2), (500, 40, 90, 0.5),
                                                         (300, 200, 250, 0.05), (64, 900, 30, 0.3),
                                                         (300, 200, 250, 0.2)]):
        A = sp.random(rows, inner, density=density, format="csr", random_state=10 + seed)
        B = sp.random(inner, cols, density=density, format="csr", random_state=20 + seed)
        assert_every_variant(k, (A @ B).toarray(), A=A, B=B)


def test_dcsr_times_csc_library_entry_point_is_right_in_parallel(openmp_threads):
    # the default variant of `spf compile ... --parallel` (a hash map over B's rows)
    A, B = matrices(300, 300, 300, 0.3)
    k = spf.compile(SPMSPM, {"A": "DCSR", "B": "CSC", "C": "Dense"}, parallel=True)
    assert "#pragma omp parallel" in k.c_source
    assert_every_variant(k, (A @ B).toarray(), A=A, B=B)


def test_seqiter_positions_kept_per_value_inside_the_parallel_loop_are_per_thread(openmp_threads):
    # parallel=True keeps a loop inside B's segment loop serial; a recipe may still ask for it
    A, B = matrices()
    order = ["pBi", "pBj", "j", "i", "k", "pAi", "pC0", "pAj", "pC1"]
    r = (spf.recipe(SPMSPM, {"A": "CSR", "B": "CSR", "C": "Dense"}).permute(*order).find("A", "seqiter")
         .parallelize("i"))
    k = spf.compile(r.expression, r.layout_map, schedule=r)
    assert "positions kept per" in k.explain()
    assert "#pragma omp parallel" in k.c_source
    assert_every_variant(k, (A @ B).toarray(), A=A, B=B)


@pytest.mark.parametrize("template", ["hashmap", "bitmap", "binary", "linear"])
def test_tiled_parallel_recipe_over_finds(template, openmp_threads):
    A, B = matrices()
    r = (spf.recipe(SPMSPM, {"A": "CSR", "B": "CSC", "C": "Dense"})
         .find("B", template).tile("pAi", 2).parallelize("pAi_tile"))
    k = spf.compile(r.expression, r.layout_map, schedule=r)
    assert_every_variant(k, (A @ B).toarray(), A=A, B=B)


@pytest.mark.parametrize("layout", ["COO", "CSC"])
def test_parallel_loop_across_a_keyed_seqiter_find(layout, openmp_threads):
    # SpMSpV: the find over x keeps a position per row, across the parallel loop's
    # iterations; each thread keeps its own positions, started in the parallel region
    A = sp.random(400, 300, density=0.05, format="csr", random_state=3)
    x, dense = sparse_vector(300, 0.3, 4)
    r = spf.recipe(SPMV, {"A": layout, "x": "SV", "y": "Dense"}).find("x", "seqiter")
    r = r.parallelize(r.variables[0], reduction="privatize")
    k = spf.compile(r.expression, r.layout_map, schedule=r)
    assert "positions kept per" in k.explain()
    region = k.c_source[k.c_source.index("#pragma omp parallel"):]
    assert "spf_thread()" in region.split("#pragma omp for")[0]  # the thread's slice, in the region
    assert "#pragma omp for schedule(monotonic: dynamic,32)" in k.c_source
    assert_every_variant(k, A @ dense, A=A, x=x)


def test_seqiter_position_that_outlives_the_parallel_loop_restarts_per_thread(openmp_threads):
    # x-driven SpMSpV over CSC is serial in px (a reduction into y); the row loop inside
    # is parallel, and a SeqIter state started outside it must not be shared
    A = sp.random(500, 80, density=0.2, format="csr", random_state=5)
    x, dense = sparse_vector(80, 0.5, 6)
    order = ["px", "j", "pAj", "pAi", "i", "py0"]
    for find in ("auto", "seqiter", "hashmap", "bitmap", "binary"):
        k = spf.compile(SPMV, {"A": "CSC", "x": "SV", "y": "Dense"}, order=order, find=find, parallel=True)
        assert_every_variant(k, A @ dense, A=A, x=x)


@pytest.mark.parametrize("template, prefix", [("hashmap", "spf_hash"), ("bitmap", "spf_bitmap")])
def test_a_table_filled_before_the_parallel_loop_is_shared(template, prefix, openmp_threads):
    # CSR SpMSpV: the table over x does not depend on the row, so it is filled once,
    # before the parallel region, and only read inside
    A = sp.random(600, 400, density=0.05, format="csr", random_state=7)
    x, dense = sparse_vector(400, 0.2, 8)
    k = spf.compile(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, find=template, parallel=True)
    source = k.c_source
    fill = source.index(prefix + "_put(")
    assert fill < source.index("#pragma omp parallel")
    assert prefix + "_fill(&spf_kept[0]," in source and "_threads[" not in source  # one table, shared
    assert_every_variant(k, A @ dense, A=A, x=x)


@pytest.mark.parametrize("find", ["auto", "hashmap", "bitmap", "seqiter", "binary"])
def test_spmspm_every_layout_pair_and_find_in_parallel(find, openmp_threads):
    A, B = matrices(260, 150, 180, 0.1)
    expected = (A @ B).toarray()
    for left in ("CSR", "DCSR"):
        for right in ("CSR", "CSC", "DCSR"):
            try:
                k = spf.compile(SPMSPM, {"A": left, "B": right, "C": "Dense"}, find=find, parallel=True)
            except spf.SpfError as error:
                assert "not valid" in str(error)  # a template refused with its failed assumption
                continue
            assert_every_variant(k, expected, A=A, B=B)


# ============================================================================= 2. shared writes


def test_a_register_sum_is_written_back_only_when_it_received_a_term(openmp_threads):
    # the loop over B's groups is parallel (one group matches each output entry); the sum
    # over pBk is kept in a register and written after the loop: a write of a zero sum from
    # a group that does not match would race with the one that does
    rng = np.random.default_rng(1)
    B = np.zeros((40, 200))
    for i in range(40):
        for group in range(50):
            B[i, 4 * group + rng.choice(4, 2, replace=False)] = rng.integers(1, 4, 2)
    x = rng.integers(1, 4, 200).astype(float)
    # A's layout is WARP24 written so that no prefix of B's levels is proven: its positions are found
    layouts = {"B": "WARP24", "x": "Dense", "A": str(Path(__file__).resolve().parents[2] / "data" / "WARP24_BY_NAME.layout")}
    r = spf.recipe("A(i,j) = B(i,j) * x(j)", layouts, share={"A": "B"})
    r = r.permute("px0", "pAi", "pBi", "pAg", "pBg", "pAk", "pBk", "i", "j").parallelize("pBg")
    k = spf.compile("A(i,j) = B(i,j) * x(j)", layouts, share={"A": "B"}, find="linear", schedule=r)
    assert re.search(r"if \(added_\d+\)\n\s*A_val\[", k.c_source)
    assert_every_variant(k, B * x, B=B, x=x)


def test_a_temporary_zeroed_outside_the_loop_is_a_shared_write():
    compute = Compute(("T_vals", (), ()), [])
    inside = Loop("i", [], [], [Temporary("T_vals"), compute])
    outside = Loop("i", [], [], [compute])
    assert shared_writes(inside, "C_vals") == []
    assert shared_writes(outside, "C_vals") == ["T_vals"]
    assert shared_writes(Loop("i", [], [], [Compute(("C_vals", (), ()), [])]), "C_vals") == []


def test_fused_kernel_parallel_loop_is_right(openmp_threads):
    expression = "A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)"
    layouts = {"A": "Dense", "B": "CSR", "C": "Dense", "D": "Dense", "E": "Dense"}
    rng = np.random.default_rng(9)
    B = sp.random(300, 120, density=0.05, format="csr", random_state=10)
    C, D, E = rng.uniform(-1, 1, (300, 6)), rng.uniform(-1, 1, (120, 6)), rng.uniform(-1, 1, (120, 5))
    expected = np.einsum("ij,ik,jk,jl->il", B.toarray(), C, D, E)
    for candidate in spf.autoschedule(expression, layouts).candidates:
        k = spf.compile(expression, layouts, schedule=candidate, parallel=True)
        assert "parallel:" in k.explain()
        assert_every_variant(k, expected, B=B, C=C, D=D, E=E)


# ============================================================================= 3. explain


def test_explain_names_the_parallel_loop_or_says_none_runs_in_parallel():
    k = spf.compile(SPMV, {"A": "CSR", "x": "Dense", "y": "Dense"}, parallel=True)
    assert "  loop pAi runs in parallel" in k.explain()
    coo = spf.compile(SPMV, {"A": "COO_UNSORTED", "x": "Dense", "y": "Dense"}, parallel=True)
    assert re.search(r"loop pA carries a dependence.*\n  no loop runs in parallel", coo.explain())


# ============================================================================= 4. two phases


@pytest.mark.parametrize("source, output", [("CSR", "CSR"), ("COO_UNSORTED", "CSR"), ("CSC", "CSC"),
                                            ("BCSR(R=2, C=2)", "CSR_UNSORTED")])
def test_two_phase_transposition_in_parallel_chunks(source, output, openmp_threads):
    """B(j,i) = A(i,j) with parallel=True: count and fill split the source's outer loop
    into the same chunk per thread, each with its own counters, the chunks' entries of a
    row in the serial order; zeros dropped, rows out of order (an unsorted source)
    sorted; as scipy, call after call."""
    k = spf.compile("B(j,i) = A(i,j)", {"A": source, "B": output}, parallel=True)
    assert k.two_phase is not None and "spf_team" in k.c_source
    assert "for each thread's chunk" in k.explain()
    a = sp.random(9000, 6000, density=0.0008, format="csr", random_state=np.random.default_rng(11))  # 2048 rows a chunk at least
    a.data[::7] = 0.0
    want = sp.csr_matrix(a.T)
    want.eliminate_zeros()
    tensor = spf.pack(source, a)
    if source == "COO_UNSORTED":  # entries in any order: rows come out of order
        fields = dict(tensor.fields)
        order = np.random.default_rng(3).permutation(fields["nnz"])
        fields.update(row=fields["row"][order], col=fields["col"][order], val=fields["val"][order])
        tensor = spf.Tensor(source, a.shape, fields)
    for _ in range(CALLS):
        got = k(A=tensor).to_scipy()
        assert got.shape == want.shape and abs(got - want).max() == 0 and got.nnz == want.nnz
        if output != "CSR_UNSORTED":
            assert got.has_sorted_indices
    assert k.assembly_statistics["chunks counted and filled by threads of their own"] == 2 * CALLS
    if source == "COO_UNSORTED":
        assert k.assembly_statistics["rows sorted after the fill"] > 0
    small = sp.random(300, 200, density=0.05, format="csr", random_state=12)  # too few rows to split
    assert abs(k(A=small).to_scipy() - small.T).max() == 0
    assert k.assembly_statistics["chunks counted and filled by threads of their own"] == 2 * CALLS


def test_two_phase_chunks_are_cut_by_the_rows_entries(openmp_threads):
    # the first rows hold most entries: chunks of equal work are a few rows against
    # thousands; count and fill must cut at the same places (else entries land elsewhere)
    k = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"}, parallel=True)
    assert "spf_cuts[spf_k] = spf_low" in k.c_source
    dense_rows = sp.random(40, 3000, density=0.5, format="csr", random_state=np.random.default_rng(13))
    sparse_rows = sp.random(8000, 3000, density=0.0005, format="csr", random_state=np.random.default_rng(14))
    a = sp.vstack([dense_rows, sparse_rows, dense_rows]).tocsr()
    want = sp.csr_matrix(a.T)
    for _ in range(CALLS):
        got = k(A=a).to_scipy()
        assert got.shape == want.shape and got.nnz == want.nnz and abs(got - want).max() == 0
        assert got.has_sorted_indices
    assert k.assembly_statistics["chunks counted and filled by threads of their own"] == 2 * CALLS


def test_segment_loop_inside_a_serial_loop_stays_serial(openmp_threads):
    # CSC SpMV: the column loop carries a dependence on y; the row loop inside walks one
    # column's segment, too short to pay for a fork and join per column
    k = spf.compile(SPMV, {"A": "CSC", "x": "Dense", "y": "Dense"}, parallel=True)
    assert "segment of a compressed level" in k.explain()
    assert "#pragma omp parallel" not in k.c_source.split("int spf_kernel")[1]
    A = sp.random(400, 300, density=0.05, format="csc", random_state=9)
    x = np.random.default_rng(1).random(300)
    np.testing.assert_allclose(k(A=A, x=x), A @ x)


def test_loops_inside_a_segment_loop_stay_serial(openmp_threads):
    # below B's segment loop every loop would fork once per stored entry of B: the loop
    # over i (all rows) here, MTTKRP's rank loop (16 iterations) in the next test
    A, B = matrices()
    order = ["pBi", "pBj", "j", "i", "k", "pAi", "pC0", "pAj", "pC1"]
    k = spf.compile(SPMSPM, {"A": "CSR", "B": "CSR", "C": "Dense"}, order=order, find="seqiter", parallel=True)
    assert "loop pBj: walks one segment" in k.explain()
    assert "loop i: inside loop pBj, which runs once per stored entry" in k.explain()
    assert "#pragma omp parallel" not in k.c_source.split("int spf_kernel")[1]
    np.testing.assert_allclose(k(A=A, B=B), (A @ B).toarray())


def test_mttkrp_of_another_mode_does_not_fork_per_nonzero(openmp_threads):
    # M(j,r): the loop over B's first level carries a dependence on M, the ones below walk
    # segments; the rank loop innermost is not made parallel
    layouts = {"M": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
    k = spf.compile("M(j,r) = B(i,j,k) * C(i,r) * D(k,r)", layouts, parallel=True)
    assert "no loop runs in parallel" in k.explain()
    rng = np.random.default_rng(4)
    coordinates = rng.integers(0, 30, (3, 500))
    dense = np.zeros((30, 30, 30))
    np.add.at(dense, tuple(coordinates), rng.random(500))
    C, D = rng.random((30, 16)), rng.random((30, 16))
    np.testing.assert_allclose(k(B=dense, C=C, D=D), np.einsum("ijk,ir,kr->jr", dense, C, D), rtol=1e-12)


def coo_with_one_long_row(rows: int, cols: int, long_row: int, seed: int) -> sp.coo_matrix:
    """One entry per row, and one row holding most entries: a split in its middle must move."""
    rng = np.random.default_rng(seed)
    row = np.concatenate([np.arange(rows), np.full(cols, long_row)])
    col = np.concatenate([rng.integers(0, cols, rows), np.arange(cols)])
    A = sp.coo_matrix((rng.random(row.size), (row, col)), shape=(rows, cols)).tocsr()
    return A.tocoo()


@pytest.mark.parametrize("shape, long_row", [((400, 3000), 200), ((400, 3000), 0), ((1, 5000), 0),
                                             ((3000, 50), 2999)])
def test_coo_rows_split_at_row_boundaries(shape, long_row, openmp_threads):
    # COO SpMV: iterations over entries update y(row); parts cut where the monotonic row
    # changes update disjoint elements, with no per-thread copies of y
    k = spf.compile(SPMV, {"A": "COO", "x": "Dense", "y": "Dense"}, parallel=True)
    assert "parts cut where A_row(pA) changes" in k.explain()
    assert "copies" not in k.c_source
    A = coo_with_one_long_row(*shape, long_row, 5)
    x = np.random.default_rng(6).random(shape[1])
    for _ in range(CALLS):
        np.testing.assert_allclose(k(A=A, x=x), A @ x, rtol=1e-12)


def test_coo_spmm_and_empty_input_split_at_row_boundaries(openmp_threads):
    k = spf.compile(SPMSPM, {"A": "COO", "B": "Dense", "C": "Dense"}, parallel=True)
    assert "parts cut where" in k.explain()
    A = sp.random(2000, 300, density=0.02, format="coo", random_state=7).tocsr().tocoo()
    B = np.random.default_rng(8).random((300, 5))
    for _ in range(CALLS):
        np.testing.assert_allclose(k(A=A, B=B), A @ B, rtol=1e-12)
    np.testing.assert_array_equal(k(A=sp.coo_matrix((40, 300)), B=B), np.zeros((40, 5)))


def test_unsorted_coordinates_are_not_split_at_rows(openmp_threads):
    # no monotonic row array: iterations of one row may be anywhere, so the loop is serial
    k = spf.compile(SPMV, {"A": "COO_UNSORTED", "x": "Dense", "y": "Dense"}, parallel=True)
    assert "parts cut where" not in k.explain() and "no loop runs in parallel" in k.explain()
    A = sp.random(500, 300, density=0.05, format="coo", random_state=9)
    x = np.random.default_rng(10).random(300)
    np.testing.assert_allclose(k(A=A, x=x), A @ x, rtol=1e-12)


# ============================================================================= 4. pieces

PIECES_HARNESS = r"""
#include <unistd.h>
/* every piece of `pieces` taken by a team of `team` threads through spf_piece_take; thread
   `late` waits `delay` microseconds before its first take, thread t waits `work[piece]`
   microseconds inside each piece it takes; the runs are made for `team` threads, the region
   has `present`.  Per piece: how often it was taken, by whom, the stream its entries would
   go to, and the how-manieth take of its taker it was. */
void take_pieces(int team, int present, int pieces, int late, int delay, const int *work,
                 int *count, int *taker, int *stream, int *rank) {
  spf_run runs[SPF_MOST_PIECES];
  spf_runs_init(runs, team, pieces);
  #pragma omp parallel num_threads(present)
  {
    const int me = spf_thread();
    int piece, into, taken = 0;
    if (me == late) usleep(delay);
    while ((piece = spf_piece_take(runs, team, spf_team_size(), me, pieces, &into)) >= 0) {
      __atomic_fetch_add(&count[piece], 1, __ATOMIC_RELAXED);
      taker[piece] = me; stream[piece] = into; rank[piece] = taken++;
      if (work[piece]) usleep(work[piece]);
    }
  }
}
"""


@pytest.fixture(scope="module")
def take_pieces():
    import ctypes
    from spf.codegen.toolchain.compiler import build_shared_library, load_function
    from spf.codegen.c.runtime import PRELUDE
    int_p = np.ctypeslib.ndpointer(np.int32, flags="C_CONTIGUOUS")
    library = build_shared_library(PRELUDE + PIECES_HARNESS, name="test_pieces")
    function = load_function(library, "take_pieces", [ctypes.c_int] * 5 + [int_p] * 5, None)

    def run(team: int, pieces: int, late: int = -1, delay: int = 0, work=None, present: int | None = None):
        work = np.zeros(pieces, np.int32) if work is None else np.asarray(work, np.int32)
        count, taker, stream, rank = (np.full(pieces, -1 if k else 0, np.int32) for k in range(4))
        function(team, team if present is None else present, pieces, late, delay, work, count, taker, stream, rank)
        return count, taker, stream, rank
    return run


def assert_streams_keep_the_order(team, pieces, taker, stream, rank):
    """Each stream holds a run of consecutive pieces starting at its own index, taken by one
    thread in increasing order: the streams joined by index are the pieces in order."""
    runs = [(t * pieces // team, (t + 1) * pieces // team) for t in range(team)]
    for piece in range(pieces):
        s = stream[piece]
        assert s <= piece and all(stream[p] == s for p in range(s, piece + 1)), (piece, stream)
        assert all(taker[p] == taker[piece] for p in range(s, piece + 1))
        assert all(rank[p] < rank[p + 1] for p in range(s, piece))
        first, end = runs[taker[piece]]
        assert s == piece or first == s <= piece < end  # a piece of another's run has a stream of its own


@pytest.mark.parametrize("team, pieces", [(2, 8), (3, 12), (4, 16), (2, 1), (5, 7)])
def test_every_piece_is_taken_once_and_the_streams_keep_the_loops_order(take_pieces, team, pieces):
    rng = np.random.default_rng(team * 100 + pieces)
    for _ in range(20):
        work = rng.integers(0, 300, pieces)
        count, taker, stream, rank = take_pieces(team, pieces, work=work)
        assert (count == 1).all()
        assert_streams_keep_the_order(team, pieces, taker, stream, rank)


def test_with_one_piece_per_thread_no_thread_takes_anothers(take_pieces):
    """A static schedule: the late thread still runs its own piece."""
    count, taker, stream, rank = take_pieces(2, 2, late=1, delay=50_000)
    assert (count == 1).all() and list(taker) == [0, 1] and list(stream) == [0, 1]


@pytest.mark.parametrize("team, present, pieces", [(2, 1, 2), (2, 1, 8), (4, 2, 4), (3, 1, 3)])
def test_runs_of_threads_the_region_did_not_get_are_taken(take_pieces, team, present, pieces):
    """OpenMP may give a region fewer threads than asked (nested in another region, a
    thread limit): the runs made for the missing ones are taken by those present, even
    with one piece per thread."""
    count, taker, stream, rank = take_pieces(team, pieces, present=present)
    assert (count == 1).all() and set(taker) <= set(range(present))
    assert_streams_keep_the_order(team, pieces, taker, stream, rank)


def test_a_late_threads_run_is_taken_by_the_others_piece_by_piece(take_pieces):
    """Thread 1 starts 200 ms late (a thread that lost its core): thread 0 takes its own run,
    then thread 1's from the back, each into a stream of its own."""
    count, taker, stream, rank = take_pieces(2, 8, late=1, delay=200_000)
    assert (count == 1).all() and (taker == 0).all()
    assert list(stream) == [0, 0, 0, 0, 4, 5, 6, 7]
    assert list(rank) == [0, 1, 2, 3, 7, 6, 5, 4]
    assert_streams_keep_the_order(2, 8, taker, stream, rank)


@pytest.mark.parametrize("given, expected", [
    ({}, ("passive", "3000")),
    ({"OMP_WAIT_POLICY": "active"}, ("active", None)),
    ({"GOMP_SPINCOUNT": "100"}, (None, "100")),
])
def test_import_sets_a_short_spin_unless_the_user_chose_a_wait_policy(given, expected):
    import os
    import subprocess
    import sys
    environment = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    environment.update(given)
    script = "import os, spf; print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('GOMP_SPINCOUNT'))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(value) for value in expected]


# -- the balanced schedule's split, decided by a pass (spf.codegen.passes.parallel.balance_parallel_loops)


def _balanced_rows(body_depth: int = 1, reduction: str | None = None) -> Loop:
    """for i (parallel, balanced): pA0 = rowptr(i); pA1 = rowptr(i + 1); for k in pA0 .. pA1 - 1: [for c: ] y[i] += ..."""
    write = Compute(("y", (Name("i"),), (Name("N"),)), [("val", (Name("k"),), (Name("NNZ"),))])
    inner = [write]
    for _ in range(body_depth - 1):
        inner = [Loop("c", [Bound(Affine.of(0))], [Bound(Affine.of("K") - 1)], inner)]
    segment = Loop("k", [Bound(Affine.of("pA0"))], [Bound(Affine.of("pA1") - 1)], inner)
    return Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)],
                [Assign("pA0", UFCall("rowptr", (Affine.of("i"),))),
                 Assign("pA1", UFCall("rowptr", (Affine.of("i") + 1,))), segment],
                parallel=True, schedule="balanced", reduction=reduction)


def test_a_balanced_loop_over_segments_is_cut_into_pieces_of_equal_work():
    loop = _balanced_rows()
    balance_parallel_loops([loop])
    assert loop.pieces.pointer.function == "rowptr" and loop.pieces.weight == 1 and not loop.pieces.most
    nested = _balanced_rows(body_depth=2)  # each entry starts a further loop
    balance_parallel_loops([nested])
    assert nested.pieces.weight == NESTED_WORK and nested.pieces.most


def test_a_balanced_loop_without_segments_or_with_a_reduction_is_static():
    reduced = _balanced_rows(reduction="privatize")
    balance_parallel_loops([reduced])
    assert reduced.pieces is None and reduced.schedule == "static"
    plain = _balanced_rows()
    plain.body = plain.body[2:]  # no pointer read at i and i + 1
    balance_parallel_loops([plain])
    assert plain.pieces is None and plain.schedule == "static"
    plain.schedule, plain.parts_at = "balanced", ("row", True)  # parts cut where row(i) changes
    balance_parallel_loops([plain])
    assert plain.pieces is not None and plain.pieces.pointer is None


def test_a_two_phase_loop_is_split_into_chunks_that_carry_their_cuts():
    (chunks,) = split_into_chunks([_balanced_rows()])
    assert isinstance(chunks, Chunks) and chunks.variable == "i" and chunks.pointer.function == "rowptr"
    assert (chunks.least_iterations, chunks.counters_log2) == (CHUNK_ITERATIONS, CHUNK_COUNTERS_LOG2)
    loop = _balanced_rows()
    loop.parallel = False
    assert split_into_chunks([loop]) == [loop]


@pytest.mark.parametrize("reduction", ["privatize", "atomic"])
def test_a_scalar_outputs_reduction_is_openmps_clause(reduction, openmp_threads):
    # a scalar output has no array to copy per thread or update atomically: the pass marks
    # the loop's reduction as OpenMP's clause over the sum (Loop.reduction "clause")
    r = spf.recipe("a = x(i) * y(i)", {"x": "Dense", "y": "Dense"})
    r = r.parallelize(r.variables[0], reduction=reduction)
    k = spf.compile(r.expression, r.layout_map, schedule=r)
    assert [node.reduction for node in walk(k.scans[0].nodes) if isinstance(node, Loop) and node.parallel] == ["clause"]
    assert "reduction(+: a_sum)" in k.c_source
    x, y = np.random.default_rng(1).random(5000), np.random.default_rng(2).random(5000)
    assert np.isclose(k(x=x, y=y), x @ y)


def test_a_row_loop_naming_its_variable_is_weighed_by_the_pointer():
    """A schedule tree's loop over B's dense rows names its variable (``pBi = i``) before
    reading ``rowPtr(pBi)`` and ``rowPtr(pBi + 1)``: the pointer is found, read at the loop's
    own variable (the pieces' cuts read it there)."""
    inner = Loop("pBj", [Bound(Affine.of("start"))], [Bound(Affine.of("stop") - 1)], [])
    loop = Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)],
                [Assign("pBi", Affine.of("i")),
                 Assign("start", UFCall("rowPtr", (Affine.of("pBi"),))),
                 Assign("stop", UFCall("rowPtr", (Affine.of("pBi") + 1,))), inner])
    assert segment_pointer(loop) == UFCall("rowPtr", (Affine.of("i"),))
    unrelated = Loop("i", loop.lower, loop.upper, [Assign("pBi", Affine.of("i") + 1)] + loop.body[1:])
    assert segment_pointer(unrelated) is None  # pBi is not i: rowPtr(pBi) is not the row's segment


@pytest.mark.parametrize("tree", ["i < T_BC(k) ; j, k : T_BC(k) += B(i,j) * C(j,k) , k, l : A(i,l) += T_BC(k) * D(k,l) >"])
def test_a_tree_s_parallel_row_loop_is_cut_by_work_and_its_temporary_slices_start_cache_lines(tree, openmp_threads):
    expression = "A(i,l) = B(i,j) * C(j,k) * D(k,l)"
    layouts = {"A": "Dense", "B": "CSR", "C": "Dense", "D": "Dense"}
    kernel = spf.compile(expression, layouts, schedule=spf.schedule(tree, expression, layouts), parallel=True)
    (loop,) = [node for scanned in kernel.scans for node in walk(scanned.nodes) if isinstance(node, Loop) and node.parallel]
    assert loop.pieces is not None and loop.pieces.pointer == UFCall("B_rowPtr", (Affine.of("i"),))
    assert "aligned_alloc(64, " in kernel.c_source
    assert "T_BC_vals_stride = ((T_BC_size / 8) + 1) * 8;" in kernel.c_source
    rng = np.random.default_rng(2)
    B = sp.random(3000, 200, density=0.02, format="csr", random_state=3)
    B = sp.csr_matrix(sp.diags((np.arange(3000) % 7 != 0).astype(float)) @ B)  # empty rows among the pieces
    B.eliminate_zeros()
    for d in (3, 16):
        C, D = rng.random((200, d)), rng.random((d, d))
        np.testing.assert_allclose(kernel(B=B, C=C, D=D), B @ C @ D, rtol=1e-12)


# ============================================================================= 5. phases of a fused nest


def _phase_loops_of(kernel) -> list[Loop]:
    return [node for scanned in kernel.scans for node in walk(scanned.nodes) if isinstance(node, Loop) and node.parallel]


def _csf3(shape, nnz, seed):
    rng = np.random.default_rng(seed)
    linear = np.sort(rng.choice(int(np.prod(shape)), size=nnz, replace=False))
    coords = np.stack(np.unravel_index(linear, shape), axis=1)
    return spf.pack("CSF3", (coords, rng.uniform(-1, 1, nnz), shape))


def test_each_phase_of_a_root_temporary_runs_in_parallel(openmp_threads):
    """SparseAuto's K7 with T_CD computed first (the root's temporary): the producer's dense
    loop writes T_CD, the consumer's loop over B's fibres writes A; each phase is tested on
    the statement that writes what it writes, and both run in parallel (the first loop alone
    was tested before, on A's statement, and it carried a dependence)."""
    expression = "A(i,j,m) = B(i,j,k) * C(k,l) * D(l,m)"
    layouts = {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense", "D": "Dense"}
    tree = "< T_CD(k,m) ; k, l, m : T_CD(k,m) += C(k,l) * D(l,m) , i, j, k, m : A(i,j,m) += T_CD(k,m) * B(i,j,k) >"
    kernel = spf.compile(expression, layouts, share={"A": "B"}, parallel=True,
                         schedule=spf.schedule(tree, expression, layouts, share={"A": "B"}))
    producer, consumer = _phase_loops_of(kernel)
    assert producer.variable == "k" and producer.schedule == "static" and len(producer.dense_trips) == 3
    assert consumer.pieces is not None  # cut by the work of B's fibres
    explained = kernel.explain()
    assert "no two iterations update the same element of T_CD(k,m)" in explained
    assert "no two iterations update the same element of A(i,j,m)" in explained
    assert "num_threads(spf_team_for((C_N0 * C_N1) * D_N1))" in kernel.c_source
    shape = (400, 60, 90)
    B = _csf3(shape, 40000, 4)  # 400 fibres of i: many pieces for 2 threads
    rng = np.random.default_rng(5)
    for d in (5, 16):
        C, D = rng.uniform(-1, 1, (90, d + 1)), rng.uniform(-1, 1, (d + 1, d))
        for _ in range(2):
            A = kernel(B=B, C=C, D=D)
            np.testing.assert_allclose(A.to_dense(), np.einsum("ijk,kl,lm->ijm", B.to_dense(), C, D),
                                       rtol=1e-10, atol=1e-12)


def test_a_phase_that_adds_into_a_scalar_or_reads_what_it_writes_stays_serial():
    from spf.codegen.passes.parallel import parallelize_fused

    class Space:
        def __init__(self, tensor):
            self.statement = type("S", (), {"output": type("O", (), {"tensor": tensor})()})()
            self.set = type("U", (), {"variables": ["k"]})()

    scalar = Loop("k", [], [], [Compute(None, [], scalar_output="a")])
    reading = Loop("k", [], [], [Compute(("T_vals", (), ()), [("T_vals", (), ())])])
    tested = parallelize_fused([scalar, reading], [Space("A"), Space("T")], "A_val")
    assert not scalar.parallel and not reading.parallel
    assert any("scalar" in line for line in tested) and any("and reads it" in line for line in tested)


def test_a_nest_that_is_not_one_chain_of_dense_loops_gets_no_team_bound():
    from spf.codegen.passes.parallel import dense_trips
    inner = Loop("m", [Bound(Affine.of(0))], [Bound(Affine.of("M") - 1)], [])
    dense = Loop("k", [Bound(Affine.of(0))], [Bound(Affine.of("K") - 1)], [inner])
    assert len(dense_trips(dense)) == 2
    segment = Loop("m", [Bound(Affine.of("start"))], [Bound(Affine.of("M") - 1)], [])
    reads = Loop("k", dense.lower, dense.upper, [Assign("start", UFCall("ptr", (Affine.of("k"),))), segment])
    assert dense_trips(reads) == ()  # a bound the nest assigns: its work is not the product
    two = Loop("k", dense.lower, dense.upper, [inner, Loop("n", inner.lower, inner.upper, [])])
    assert dense_trips(two) == ()
