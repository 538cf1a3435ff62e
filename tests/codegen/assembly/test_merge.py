"""spf.codegen.assembly.merge: a sum's terms co-iterated by the output's inner coordinate, and entries
appended to the rows in order without a workspace, only where Z3 proves the order."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import spf
from spf.codegen.assembly.merge import appends_in_order, strictly_increasing
from spf.codegen.loops import Merge, walk
from spf.runtime.validation import validate


def random(rows, cols, density, seed):
    return sp.random(rows, cols, density=density, format="csr", random_state=np.random.default_rng(seed))


def assert_same(tensor, want: sp.spmatrix):
    """Exactly scipy's pattern (explicit zeros dropped, as scipy's sums drop them) and values."""
    got, want = tensor.to_scipy().tocsr(), sp.csr_matrix(want)
    want.eliminate_zeros()
    want.sort_indices()
    validate(tensor.layout, dict(tensor.fields), "C", tensor.shape)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.indptr, want.indptr)
    np.testing.assert_array_equal(got.indices, want.indices)
    np.testing.assert_allclose(got.data, want.data, rtol=1e-12, atol=0)


def merges(kernel) -> list[Merge]:
    return [node for scanned in kernel.scans for node in walk(scanned.nodes) if isinstance(node, Merge)]


CSR = {"A": "CSR", "B": "CSR", "C": "CSR", "D": "CSR"}


@pytest.mark.parametrize("expression, terms, arms", [
    ("C(i,j) = A(i,j) + B(i,j)", lambda a, b, d: a + b, 2),
    ("C(i,j) = A(i,j) - 3 * B(i,j)", lambda a, b, d: a - 3 * b, 2),
    ("C(i,j) = A(i,j) + B(i,j) + D(i,j)", lambda a, b, d: a + b + d, 3),
])
@pytest.mark.parametrize("parallel", [False, True])
def test_a_sums_terms_are_merged_and_appended_in_order(openmp_threads, expression, terms, arms, parallel):
    a, b, d = random(700, 400, 0.03, 1), random(700, 400, 0.03, 2), random(700, 400, 0.03, 3)
    b = sp.csr_matrix(b + a.multiply(random(700, 400, 0.5, 4).astype(bool)))  # shared entries
    names = [n for n in "ABD" if f"{n}(" in expression]
    k = spf.compile(expression, {n: CSR[n] for n in names + ["C"]}, parallel=parallel)
    assert [len(m.arms) for m in merges(k)] == [arms]
    assert [m.steps for m in merges(k)] == ["branchless" if arms == 2 else "least"]
    assert "merge the" in k.explain() and "strategy: append" in k.explain()
    assert ("spf_take0" in k.c_source) == (arms == 2)  # two arms step without a branch on the keys
    operands = dict(zip("ABD", (a, b, d)))
    for _ in range(3 if parallel else 1):  # the kept scratch serves the next calls
        assert_same(k(**{n: operands[n] for n in names}), terms(a, b, d))
    assert k.assembly_statistics["groups through the builder"] == 0


def test_terms_that_cancel_leave_no_entry_unless_zeros_are_kept():
    a = random(300, 200, 0.05, 5)
    b = sp.csr_matrix(a.copy())
    b.data[::3] += 1.0  # a third of the entries survive a - b
    k = spf.compile("C(i,j) = A(i,j) - B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert_same(k(A=a, B=b), a - b)
    assert k(A=a, B=a).fields["nnz"] == 0
    explicit = sp.csr_matrix((np.zeros(3), ([0, 1, 2], [0, 1, 2])), shape=(3, 3))
    assert k(A=explicit, B=sp.csr_matrix((3, 3))).fields["nnz"] == 0  # an input's explicit zeros too
    from spf.runtime.kernel import callable_kernel
    keeping = callable_kernel("C(i,j) = A(i,j) - B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, keep_zeros=True)
    assert merges(keeping)
    kept = keeping(A=a, B=a)
    assert kept.fields["nnz"] == a.nnz and not np.any(kept.to_scipy().data)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (5, 0), (6, 4)])
def test_empty_rows_and_empty_matrices(shape):
    k = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    empty = sp.csr_matrix(shape)
    assert_same(k(A=empty, B=empty), empty)
    if shape[0] * shape[1]:
        one = sp.csr_matrix(([2.5], ([shape[0] - 1], [shape[1] - 1])), shape=shape)
        assert_same(k(A=one, B=empty), one)
        assert_same(k(A=empty, B=one), one)
        assert_same(k(A=one, B=one), 2 * one)


def test_parallel_merge_over_many_chunks_matches_serial(openmp_threads):
    """Two threads, rows of very different lengths (a dense band of rows in the middle), the
    input long enough to span several chunks per thread."""
    rng = np.random.default_rng(6)
    n = 20_000
    band = sp.csr_matrix(rng.random((20, n)) * (rng.random((20, n)) < 0.3))
    outside = np.ones(n)
    outside[n // 2: n // 2 + 20] = 0
    # the band replaces those rows (built in CSR: a LIL assignment of it took two minutes)
    a = sp.diags(outside) @ random(n, n, 2e-4, 7) + sp.vstack(
        [sp.csr_matrix((n // 2, n)), band, sp.csr_matrix((n - n // 2 - 20, n))])
    a, b = sp.csr_matrix(a), random(n, n, 2e-4, 8)
    a.eliminate_zeros()
    k = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, parallel=True)
    for _ in range(2):
        assert_same(k(A=a, B=b), a + b)


def test_unsorted_terms_are_not_merged_and_the_workspace_sums_them():
    """CSR_UNSORTED promises no order of a row's columns: nothing to merge by, so the fused
    rows go through the workspace, with the same result."""
    a, b = random(200, 150, 0.05, 9), random(200, 150, 0.05, 10)
    k = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR_UNSORTED", "B": "CSR", "C": "CSR"})
    assert not merges(k) and "strategy: workspace" in k.explain()
    assert_same(k(A=a, B=b), a + b)


def test_one_loop_proven_in_order_appends_and_a_product_over_k_does_not():
    a, b = random(300, 200, 0.05, 11), random(300, 200, 0.05, 12)
    product = spf.compile("C(i,j) = A(i,j) * B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert "strategy: append" in product.explain()  # A's row walked in order, B's entry found
    assert_same(product(A=a, B=b), a.multiply(b))
    gemm = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert "strategy: append" not in gemm.explain() and "strategy: workspace" in gemm.explain()
    assert_same(gemm(A=a, B=b.T.tocsr()), a @ b.T)


def test_the_order_proof_needs_the_strict_property():
    """strictly_increasing on CSR's column loop holds with periodic_monotonic(..., strict) and
    fails without it (the same nest, the properties dropped)."""
    k = spf.compile("C(i,j) = A(i,j) * B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    space = k.spaces[0]
    outer = k.scans[0].nodes
    assert appends_in_order(outer, "i", "j", space.properties)
    assert not appends_in_order(outer, "i", "j", [])
    loop = outer[0]
    assert not strictly_increasing([], loop, "j", space.properties)  # the outer loop binds no j first


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(0, 12), cols=st.integers(0, 12), seed=st.integers(0, 10_000),
       density_a=st.floats(0, 1), density_b=st.floats(0, 1), scale=st.sampled_from([1.0, -1.0, 2.0]))
def test_sums_match_scipy(rows, cols, seed, density_a, density_b, scale):
    rng = np.random.default_rng(seed)
    a = sp.random(rows, cols, density=density_a, format="csr", random_state=rng)
    b = sp.random(rows, cols, density=density_b, format="csr", random_state=rng)
    if rows and cols:
        b = sp.csr_matrix(b + a.multiply(rng.random((rows, cols)) < 0.5) * -scale)  # some cancel exactly
    k = _kernel(scale)
    assert_same(k(A=a, B=b), a + scale * b)


_kernels: dict = {}


def _kernel(scale):
    if scale not in _kernels:
        sign = "+" if scale > 0 else "-"
        _kernels[scale] = spf.compile(f"C(i,j) = A(i,j) {sign} {abs(scale)} * B(i,j)",
                                      {"A": "CSR", "B": "CSR", "C": "CSR"})
    return _kernels[scale]


@pytest.mark.parametrize("source, trusted", [("CSR", True), ("COO", False), ("CSR_UNSORTED", False)])
@pytest.mark.parametrize("parallel", [False, True])
def test_a_fill_proven_in_order_hands_its_rows_over_unchecked(openmp_threads, source, trusted, parallel):
    """CSR to CSC (and the transposition): the fill loop binds the row i increasing, and in
    each of its iterations the column j strictly increasing, so each column's rows come out
    in order (fills_in_order), and CSC checks nothing but the shape: no pass over the rows.
    From COO (i repeats over the loop) or an unsorted CSR the proof fails: the rows are
    tested (and sorted where needed), with the same result."""
    a = random(400, 300, 0.04, 13)
    a = sp.vstack([a[:7], sp.csr_matrix((3, 300)), a[10:]]).tocsr()  # empty rows
    k = spf.compile("B(i,j) = A(i,j)", {"A": source, "B": "CSC"}, parallel=parallel)
    assert k.two_phase is not None and k.two_phase.trusted == trusted
    assert ("no pass over them" in k.explain()) == trusted
    for _ in range(2):
        out = k(A=spf.pack(source, a))
        validate(out.layout, dict(out.fields), "B", out.shape)
        got, want = out.to_scipy().tocsc(), a.tocsc()
        np.testing.assert_array_equal(got.indptr, want.indptr)
        np.testing.assert_array_equal(got.indices, want.indices)
        np.testing.assert_array_equal(got.data, want.data)
    if trusted:
        assert k.assembly_statistics["rows sorted after the fill"] == 0
