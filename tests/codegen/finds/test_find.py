"""Find synthesis (spf.codegen.finds.find) and where find state starts (spf.codegen.finds.find_state.place_find_state).

1. State is shared only between searches of the same entries: WARP24's ``meta(pi, 2*pg + pk)``
   searches the same range [0, 2) in every group, but each group's entries differ, so
   neither a table nor a position may be kept across groups.  Every variant that is
   proven compiles and is right.
2. The searches inside a find run only at its matches (the find condition is part of the
   context of inner finds): with three sorted vectors, SeqIter is proven for both finds.
3. A find with no enclosing loop (DIA's diagonal ``offsets(pd) == 0``) is one search:
   every template may serve it.
4. A SeqIter state kept per value of an index (COO: per row) starts before the loop
   that sets that index, once per call, not once per iteration.
5. Find state lasts from call to call (spf.codegen.c.emit_c: spf_state_*, spf_hash_*): one
   kernel called on many patterns, widths and matrices in turn never matches what an
   earlier call put in its table, after a call that failed too; release_state frees it
   and the next call starts anew; two Python threads calling one kernel at once each
   get their own state.
6. A direct find may use the level's other guards: in a coordinate list the pair (row,
   col) is injective, not the row or the column alone, so an output sharing B's COO arrays
   is at B's own position (SDDMM), without a search.
7. A state starts where the names its range reads are bound: a fused nest's section
   re-reads the range's pointers in its own scope, inside loops nested in those of the
   state indices, so the table starts there, not before them.
8. A composite key: where a level matches several coordinates (a sorted coordinate list's
   row and column) and no one of them finds a single position, the find searches all of
   them in the order a covarying_monotonic property proves (SeqIter or a lexicographic
   binary search), not the plain loop over every entry; unsorted lists keep the loop.
"""

from __future__ import annotations

import ctypes
import threading
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from conftest import REPOSITORY, run_variants
from fused_trees import CHAIN, CHAIN_LAYOUTS
from spf.codegen.finds.auto import site_cost
from spf.codegen.loops import Find, walk
from spf.errors import FindRefused

FINDS = ("auto", "seqiter", "hashmap", "bitmap", "binary", "linear")


def warp24(rows: int, cols: int, seed: int) -> np.ndarray:
    """A dense matrix with at most two non-zeros in every group of four columns."""
    rng = np.random.default_rng(seed)
    dense = np.zeros((rows, cols))
    for i in range(rows):
        for group in range(0, cols, 4):
            for column in rng.choice(4, size=2, replace=False):
                if group + column < cols and rng.random() < 0.8:
                    dense[i, group + column] = rng.uniform(-1, 1)
    return dense


def banded(n: int, offsets, seed: int):
    rng = np.random.default_rng(seed)
    return sp.diags([rng.uniform(-1, 1, n - abs(o)) for o in offsets], offsets, shape=(n, n), format="csr")


def compile_or_refuse(expression, layouts, find, **options):
    try:
        return spf.compile(expression, layouts, find=find, **options)
    except FindRefused as refusal:
        assert find not in ("auto", "linear"), refusal
        return None


def assert_every_variant(kernel, expected, **inputs):
    for choice, result in run_variants(kernel, **inputs):
        result = result.to_dense() if isinstance(result, spf.Tensor) else result
        np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12, err_msg=choice)


def sorted_vector(n: int, density: float, seed: int):
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(n, size=max(1, int(n * density)), replace=False))
    values = rng.uniform(-1, 1, len(chosen))
    dense = np.zeros(n)
    dense[chosen] = values
    return (chosen.reshape(-1, 1), values, (n,)), dense


# ============================================================================= 1. same entries


@pytest.mark.parametrize("find", FINDS)
def test_warp24_diagonal_every_find(find):
    dense = warp24(64, 64, 1)
    k = compile_or_refuse("a = A(i,i)", {"A": "WARP24"}, find)
    if k is not None:
        assert_every_variant(k, np.trace(dense), A=dense)


def test_warp24_table_would_serve_one_group_only():
    with pytest.raises(FindRefused, match=r"hashmap: (no state placement keeps one table per search range|"
                                          r"the table would be rebuilt for every search)"):
        spf.compile("a = A(i,i)", {"A": "WARP24"}, find="hashmap")
    report = spf.compile("a = A(i,i)", {"A": "WARP24"}).reports[0]
    for choice in report.valid:  # no state across groups: pAg is a state index
        assert choice.kind not in ("seqiter", "hashmap") or "pAg" in choice.state


@pytest.mark.parametrize("expression", ["a = A(i,j) * B(j,i)", "a = A(i,j) * B(i,j)"])
@pytest.mark.parametrize("find", FINDS)
def test_warp24_against_csr_every_find(expression, find):
    A = sp.random(48, 48, density=0.3, format="csr", random_state=2)
    B = warp24(48, 48, 3)
    expected = np.einsum("ij,ji->" if "B(j,i)" in expression else "ij,ij->", A.toarray(), B)
    k = compile_or_refuse(expression, {"A": "CSR", "B": "WARP24"}, find)
    if k is not None:
        assert_every_variant(k, expected, A=A, B=B)


def test_warp24_sddmm_sharing_the_pattern():
    B = warp24(40, 36, 4)
    rng = np.random.default_rng(5)
    C, D = rng.uniform(-1, 1, (40, 6)), rng.uniform(-1, 1, (6, 36))
    k = spf.compile("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": "WARP24", "B": "WARP24", "C": "Dense", "D": "Dense"},
                    share={"A": "B"})
    assert_every_variant(k, B * (C @ D), B=B, C=C, D=D)


# ============================================================================= 2. inner finds at matches


@pytest.mark.parametrize("find", ["auto", "seqiter", "hashmap", "binary"])
def test_three_sorted_vectors(find):
    vectors = [sorted_vector(400, 0.3, seed) for seed in (6, 7, 8)]
    k = spf.compile("a = x(i) * y(i) * z(i)", {"x": "SV", "y": "SV", "z": "SV"}, find=find)
    if find == "seqiter":
        assert [str(r.chosen) for r in k.reports] == ["seqiter (direction +1, state indices {})"] * 2
    expected = float(np.sum(vectors[0][1] * vectors[1][1] * vectors[2][1]))
    inputs = dict(zip("xyz", (v[0] for v in vectors)))
    for choice, result in run_variants(k, **inputs):
        assert result == pytest.approx(expected, rel=1e-12), choice


# ============================================================================= 3. one search


@pytest.mark.parametrize("find", FINDS)
def test_dia_diagonal_is_one_search(find):
    A = banded(120, [-5, -1, 0, 3], 9)
    x = np.random.default_rng(10).uniform(-1, 1, 120)
    k = spf.compile("a = A(i,i)", {"A": "DIA"}, find=find)
    assert_every_variant(k, A.diagonal().sum(), A=A)
    k = spf.compile("y(i) = A(i,i) * x(i)", {"A": "DIA", "x": "Dense", "y": "Dense"}, find=find)
    assert_every_variant(k, A.diagonal() * x, A=A, x=x)


def test_dia_without_a_stored_main_diagonal():
    A = banded(50, [-2, 4], 11)
    k = spf.compile("a = A(i,i)", {"A": "DIA"})
    assert_every_variant(k, 0.0, A=A)


# ============================================================================= 4. keyed state


def test_positions_kept_per_row_start_once_before_the_loop_over_nonzeros():
    A = sp.random(200, 150, density=0.05, format="csr", random_state=12)
    x, dense = sorted_vector(150, 0.4, 13)
    k = spf.compile("y(i) = A(i,j) * x(j)", {"A": "COO", "x": "SV", "y": "Dense"}, find="seqiter")
    assert "positions kept per i" in k.explain()
    source = k.c_source[k.c_source.index("int spf_kernel"):]
    assert source.index("px_position_1[start_2] = 0") < source.index("for (int64_t pA = 0;")
    assert_every_variant(k, A @ dense, A=A, x=x)


# ============================================================================= 5. state kept between calls

SPMSPV = "y(i) = A(i,j) * x(j)"


def random_sparse_vector(n: int, count: int, rng):
    chosen = np.sort(rng.choice(n, size=count, replace=False))
    values = rng.uniform(-1, 1, count)
    dense = np.zeros(n)
    dense[chosen] = values
    return (chosen.reshape(-1, 1), values, (n,)), dense


@pytest.mark.parametrize("template", ["hashmap", "bitmap"])
@pytest.mark.parametrize("x_layout", ["SV", "SV_UNSORTED"])
def test_a_kept_table_never_matches_an_earlier_calls_entries(x_layout, template):
    """Matrices of three widths in turn, each call with another x (empty, one entry, up to
    every column): the table of one call is the last one's, refilled.  A dense-ish A looks
    up most columns, so a slot an earlier x set and this one lacks would show (a bitmap's
    sparse fills clear their own bits, a dense one clears all, a wider x grows it)."""
    k = spf.compile(SPMSPV, {"A": "CSR", "x": x_layout, "y": "Dense"}, find=template)
    rng = np.random.default_rng(21)
    widths = (1, 9, 130, 2000)
    matrices = {n: sp.random(40, n, density=min(1.0, 200 / n), format="csr", random_state=n) for n in widths}
    for call in range(80):
        n = widths[call % len(widths)]
        count = [0, 1, n, int(rng.integers(0, n + 1))][(call // len(widths)) % 4]
        x, dense = random_sparse_vector(n, count, rng)
        if x_layout == "SV_UNSORTED":
            x = (x[0][::-1].copy(), x[1][::-1].copy(), x[2])
        np.testing.assert_allclose(k(A=matrices[n], x=x), matrices[n] @ dense, rtol=1e-12, atol=1e-12,
                                   err_msg=f"call {call}: {n} columns, {count} entries")


@pytest.mark.parametrize("template", ["hashmap", "bitmap"])
def test_a_failed_call_leaves_the_kept_state_usable(template):
    """A call the kernel refuses (the shapes disagree: it returns before any fill) between
    calls that fill the table: the next call is still right."""
    k = spf.compile(SPMSPV, {"A": "CSR", "x": "SV", "y": "Dense"}, find=template)
    rng = np.random.default_rng(5)
    A = sp.random(30, 50, density=0.5, format="csr", random_state=3)
    for call in range(6):
        x, dense = random_sparse_vector(50, [50, 3, 0][call % 3], rng)
        bound = k.bind(A=A, x=x)
        np.testing.assert_allclose(bound(), A @ dense, rtol=1e-12, atol=1e-12)
        (x_struct,) = [kept for kept in bound.keep_alive  # the struct at x's address among the arguments
                       if isinstance(kept, ctypes.Structure) and ctypes.addressof(kept) == bound.structs[1]]
        x_struct.n = 49  # the kernel's shape check fails: it returns 1
        with pytest.raises(spf.SpfError, match="shapes disagree"):
            bound()
        x_struct.n = 50


def test_release_state_frees_and_the_next_call_starts_anew():
    k = spf.compile(SPMSPV, {"A": "CSR", "x": "SV", "y": "Dense"}, find="auto")
    A = sp.random(60, 80, density=0.3, format="csr", random_state=4)
    rng = np.random.default_rng(6)
    for _ in range(3):
        x, dense = random_sparse_vector(80, 20, rng)
        assert_every_variant(k, A @ dense, A=A, x=x)
        k.release_state()
        k.release_state()  # nothing left to free: harmless
    x, dense = random_sparse_vector(80, 7, rng)
    assert_every_variant(k, A @ dense, A=A, x=x)


@pytest.mark.parametrize("template", ["hashmap", "bitmap"])
def test_two_threads_calling_one_kernel_at_once_are_right(template):
    """ctypes releases the GIL during the call: both threads run the C at once, one with
    the kept state and one with its own, on tables of different sizes."""
    k = spf.compile(SPMSPV, {"A": "CSR", "x": "SV", "y": "Dense"}, find=template).build()
    failures: list[str] = []

    def work(seed: int, n: int) -> None:
        rng = np.random.default_rng(seed)
        A = sp.random(400, n, density=min(1.0, 4000 / n), format="csr", random_state=seed)
        for call in range(40):
            x, dense = random_sparse_vector(n, int(rng.integers(0, min(n, 300) + 1)), rng)
            result = k(A=A, x=x)
            if not np.allclose(result, A @ dense, rtol=1e-12, atol=1e-12):
                failures.append(f"thread {seed}, call {call}")

    threads = [threading.Thread(target=work, args=(seed, n)) for seed, n in ((1, 500), (2, 7000))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures


@pytest.mark.parametrize("parallel", [False, True])
@pytest.mark.parametrize("layout", ["COO", "COO_UNSORTED"])
def test_an_output_sharing_a_coordinate_list_is_at_the_inputs_position(layout, parallel, openmp_threads):
    # each entry is then stored once (spf.codegen.passes.zeroing), its position an assignment the store repeats:
    # the output's layout is its source's (spf.space.patterns), so its position is the source's, no find
    expression = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
    k = spf.compile(expression, {"A": layout, "B": layout, "C": "Dense", "D": "Dense"}, share={"A": "B"},
                    parallel=parallel)
    assert "pA = pB" in k.explain() and "for (int64_t pA" not in k.c_source
    B = sp.random(60, 50, density=0.1, format="coo", random_state=3)
    rng = np.random.default_rng(4)
    C, D = rng.random((60, 8)), rng.random((8, 50))
    got = k(B=B, C=C, D=D).to_scipy().toarray()
    np.testing.assert_allclose(got, B.toarray() * (C @ D), rtol=1e-12)


def test_tttp_into_a_shared_coo3_in_parallel(openmp_threads):
    layouts = {"T": "COO3", "U": "Dense", "V": "Dense", "W": "Dense", "S": "COO3"}
    k = spf.compile("S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)", layouts, share={"S": "T"}, parallel=True)
    rng = np.random.default_rng(5)
    dense = np.zeros((20, 15, 10))
    dense[tuple(rng.integers(0, (20, 15, 10), (300, 3)).T)] = rng.random(300)
    U, V, W = rng.random((20, 4)), rng.random((15, 4)), rng.random((10, 4))
    expected = np.einsum("ijk,ir,jr,kr->ijk", dense, U, V, W)
    np.testing.assert_allclose(k(T=dense, U=U, V=V, W=W).to_dense(), expected, rtol=1e-12)


def test_a_bitmap_needs_a_range_property_known_at_entry(tmp_path):
    """bitmap is hashmap's table addressed by value: without a range property bounding the
    searched array's values it is refused, and auto keeps the hash map."""
    unbounded = tmp_path / "SV_NO_RANGE.layout"
    unbounded.write_text((REPOSITORY / "layouts" / "SV.layout").read_text()
                         .replace("layout SV\n", "layout SV_NO_RANGE\n").replace("property range(idx, 0, n)\n", ""))
    with pytest.raises(FindRefused, match=r"bitmap: no range property bounds x_idx's values"):
        spf.compile(SPMSPV, {"A": "CSR", "x": str(unbounded), "y": "Dense"}, find="bitmap")
    kinds = {c.kind for c in spf.compile(SPMSPV, {"A": "CSR", "x": str(unbounded), "y": "Dense"}).reports[0].valid}
    assert "hashmap" in kinds and "bitmap" not in kinds
    report = spf.compile(SPMSPV, {"A": "CSR", "x": "SV", "y": "Dense"}, find="auto").reports[0]
    bitmap = [choice for choice in report.valid if choice.kind == "bitmap"]
    assert [str(choice) for choice in bitmap] == ["bitmap over [0, x_n) (state indices {})"]


@pytest.mark.parametrize("density", [0.0, 0.02, 0.6, 1.0])
def test_auto_weighs_the_bitmap_by_the_density_of_what_it_holds(density):
    """The run-time cost of bitmap and hashmap: a dense-ish x makes the hash's hits (slot
    chains) dearer than the bitmap's; every variant is right either way."""
    k = spf.compile(SPMSPV, {"A": "CSR", "x": "SV", "y": "Dense"}, find="auto")
    A = sp.random(300, 500, density=0.05, format="csr", random_state=8)
    x, dense = random_sparse_vector(500, int(density * 500), np.random.default_rng(9))
    assert_every_variant(k, A @ dense, A=A, x=x)
    kinds = [[choice.kind for choice in choices] for choices in k.variant_choices]
    chosen = kinds[k.choose_variant({"A": {"colIdx": np.zeros(A.nnz), "rowPtr": np.zeros(301), "numCols": 500,
                                           "numRows": 300, "nnz": A.nnz},
                                     "x": {"idx": np.zeros(len(x[1])), "val": np.zeros(len(x[1])), "n": 500,
                                           "len": len(x[1])}})]
    if density >= 0.5:
        assert chosen == ["bitmap"], kinds


# ============================================================================= 7. state where its range is bound


@pytest.mark.parametrize("seed", [1, 2])
def test_a_table_under_fused_loops_starts_after_its_range_is_read(seed):
    """The hash map over B's second level (state indices {pB0}) searches [B_ptr0(pB0),
    B_ptr0(pB0 + 1)), which the branch fused over p and k reads in its own scope, inside
    the fused loops over j and i: its table starts there (it started right inside the loop
    over pB0, before the names were bound: unbound for the verifier, undeclared for cc)."""
    tree = ("j, i < T_ABC(k,r) ; p, k < T_AC(r) ; q, r : T_AC(r) += A(i,p,q) * C(k,q,r) , "
            "r : T_ABC(k,r) += T_AC(r) * B(j,p,r) > , k, r : R(i,j,k) += T_ABC(k,r) * D(j,k,r) >")
    k = spf.compile(CHAIN, CHAIN_LAYOUTS, schedule=spf.schedule(tree, CHAIN, CHAIN_LAYOUTS), find="hashmap")
    assert any(isinstance(n, Find) and n.call.function == "B_idx1" and n.template.kind == "hashmap"
               for n in walk(k.nodes)), k.explain()
    rng = np.random.default_rng(seed)
    dense = {name: rng.random(shape) * (rng.random(shape) < 0.4)
             for name, shape in (("A", (4, 5, 6)), ("B", (3, 5, 4)), ("C", (5, 6, 4)), ("D", (3, 5, 4)))}
    expected = np.einsum("ipq,jpr,kqr,jkr->ijk", *dense.values())
    got = k(**{name: spf.pack("CSF3", value) for name, value in dense.items()})
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_auto_counts_a_row_walked_once_per_entry_of_it():
    """Triangle counting's masked product walks row i of L once per entry (i, j) of it, the find
    searching row j: the find runs nnz(L) x (row length) times, not nnz(L) (a loop over a
    segment counts each position once only where no loop between walks the segment again).
    Counted once, binary looked 20x cheaper than it is and was picked, 2.5x slower than the
    bitmap and seqiter variants on ego-Facebook; counted right, binary is the dearest."""
    order = ["pLi", "i", "pCi", "pCj", "j", "pMi", "pLj", "k", "pMj"]
    k = spf.compile("C(i,j) = L(i,k) * M(j,k)", {"L": "CSR", "M": "CSR", "C": "CSR"}, share={"C": "L"},
                    order=order)
    rows, per_row = 400, 20
    L = sp.tril(sp.random(rows, rows, density=2 * per_row / rows, format="csr", random_state=10), -1).tocsr()
    L.sort_indices()
    counts = sp.csr_matrix(((L @ L.T).multiply(L != 0)))
    assert_every_variant(k, counts.toarray(), L=L, M=L)
    fields = {name: {"rowPtr": L.indptr, "colIdx": L.indices, "data": L.data, "numRows": rows, "numCols": rows,
                     "nnz": L.nnz} for name in ("L", "M", "C")}
    stats, lengths = k._statistics(fields)
    costs = {choices[0].kind: site_cost(k.site_models[0], choices[0], stats, lengths) for choices in k.variant_choices}
    assert costs["binary"] == max(costs.values()), costs
    assert k.variant_choices[k.choose_variant(fields)][0].kind != "binary"


# ============================================================================= 8. composite keys


def coordinate_pair(shape, density: float, seed: int) -> tuple[sp.coo_matrix, sp.coo_matrix]:
    """Two random matrices whose patterns overlap in about half of each's entries."""
    first = sp.random(*shape, density=density, format="csr", random_state=seed)
    second = first.copy()
    rng = np.random.default_rng(seed)
    second.data = rng.uniform(-1, 1, second.nnz) * (rng.random(second.nnz) < 0.5)
    second = second + sp.random(*shape, density=density / 2, format="csr", random_state=seed + 1)
    second.eliminate_zeros()
    return first.tocoo(), second.tocoo()


COMPOSITE_CASES = [
    ("C(i,j) = A(i,j) * B(i,j)", "CSR", lambda A, B: A.multiply(B).toarray()),
    ("y(i) = A(i,j) * B(i,j)", "Dense", lambda A, B: np.asarray(A.multiply(B).sum(axis=1)).ravel()),
    ("s = A(i,j) * B(i,j)", None, lambda A, B: A.multiply(B).sum()),
]


@pytest.mark.parametrize("find", FINDS)
@pytest.mark.parametrize("expression, output_layout, reference", COMPOSITE_CASES)
def test_coordinate_lists_matched_by_their_row_and_column(expression, output_layout, reference, find):
    layouts = {"A": "COO", "B": "COO"} | ({expression[0]: output_layout} if output_layout else {})
    k = compile_or_refuse(expression, layouts, find)
    if k is None:
        assert find in ("hashmap", "bitmap")  # a table is keyed by one coordinate
        return
    A, B = coordinate_pair((70, 90), 0.08, 11)
    report = k.reports[0]
    if find in ("auto", "seqiter", "binary"):
        assert report.condition == "(B_row(pB), B_col(pB)) == (A_row(pA), A_col(pA))", report
        assert {c.kind for c in report.valid} >= ({"seqiter", "binary"} if find == "auto" else {find})
    for choice, result in run_variants(k, A=A, B=B):
        result = result.to_dense() if isinstance(result, spf.Tensor) else result
        np.testing.assert_allclose(result, reference(A, B), rtol=1e-12, atol=1e-12, err_msg=choice)


@pytest.mark.parametrize("find", ["seqiter", "binary"])
def test_three_coordinates_searched_lexicographically(find):
    k = spf.compile("C(i,j,k) = A(i,j,k) * B(i,j,k)", {"A": "COO3", "B": "COO3", "C": "Dense3"}, find=find)
    assert k.reports[0].condition.startswith("(B_idx0(pB), B_idx1(pB), B_idx2(pB)) == "), k.reports[0]
    rng = np.random.default_rng(12)
    A, B = np.zeros((9, 8, 7)), np.zeros((9, 8, 7))
    A[tuple(rng.integers(0, (9, 8, 7), (150, 3)).T)] = rng.random(150)
    B[tuple(rng.integers(0, (9, 8, 7), (150, 3)).T)] = rng.random(150)
    B[A != 0] += rng.random(int((A != 0).sum())) * (rng.random(int((A != 0).sum())) < 0.5)
    np.testing.assert_allclose(k(A=A, B=B), A * B, rtol=1e-12)


def test_a_composite_search_in_parallel(openmp_threads):
    k = spf.compile("y(i) = A(i,j) * B(i,j)", {"A": "COO", "B": "COO", "y": "Dense"}, parallel=True)
    A, B = coordinate_pair((3000, 400), 0.02, 13)
    for choice, result in run_variants(k, A=A, B=B):
        np.testing.assert_allclose(result, np.asarray(A.multiply(B).sum(axis=1)).ravel(), rtol=1e-12,
                                   err_msg=choice)


def test_a_key_needs_its_order_proven(tmp_path):
    """Unsorted coordinate lists have no order to search: every find there is the plain loop."""
    k = spf.compile("C(i,j) = A(i,j) * B(i,j)", {"A": "COO", "B": "COO_UNSORTED", "C": "CSR"})
    assert k.reports[0].chosen.kind == "linear"
    with pytest.raises(FindRefused, match=r"binary: .*not proven monotonic"):
        spf.compile("C(i,j) = A(i,j) * B(i,j)", {"A": "COO", "B": "COO_UNSORTED", "C": "CSR"}, find="binary")
    A, B = coordinate_pair((40, 30), 0.1, 14)
    np.testing.assert_allclose(k(A=A, B=B).to_dense(), A.multiply(B).toarray(), rtol=1e-12)


def test_a_register_sum_after_a_composite_find_reads_no_coordinate_of_it():
    """The fuzzer's case: the sum over j is added to A(pA0, pA1) after the loop, and pA1 is
    the find's second coordinate, which changes inside it (its value is j's there)."""
    k = spf.compile("A(i,j) = B(i,j,k) * c(k)", {"B": "COO3", "c": "SV", "A": "Dense"},
                    order=["pA0", "j", "k", "pc", "pB", "i", "pA1"])
    assert any(len(r.chosen.keys) == 3 for r in k.reports)
    rng = np.random.default_rng(15)
    B = np.zeros((12, 4, 7))
    B[tuple(rng.integers(0, (12, 4, 7), (60, 3)).T)] = rng.random(60)
    c = np.zeros(7)
    c[[1, 3, 4]] = rng.random(3)
    assert_every_variant(k, np.einsum("ijk,k->ij", B, c), B=B, c=c)
