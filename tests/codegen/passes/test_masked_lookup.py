"""spf.codegen.passes.masked_lookup: which bitmap finds are looked up masked, the C they
print (a masked and a branching lookup, chosen per fill), and that the kernels compute
exactly the sum of the present terms at every density, call after call, in parallel,
whatever the absent terms hold."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.codegen.loops import Find, Loop, walk
from spf.codegen.passes.masked_lookup import maskable
from spf.codegen.passes.split_sum import SPLIT_LANES
from spf.space.expressions import Affine

SPMSPV = "y(i) = A(i,j) * x(j)"
LAYOUTS = {"A": "CSR", "x": "SV", "y": "Dense1"}
MASKED_SHARE = 32  # SPF_BITMAP_MASKED_SHARE in spf_hash.h


def finds(kernel) -> list[Find]:
    return [node for scanned in kernel.scans for node in walk(scanned.nodes) if isinstance(node, Find)]


def row_loop(kernel) -> Loop:
    (loop,) = [node for scanned in kernel.scans for node in walk(scanned.nodes)
               if isinstance(node, Loop) and any(isinstance(item, Find) for item in node.body)]
    return loop


def vector_with(size: int, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    vector = np.zeros(size)
    vector[rng.choice(size, size=count, replace=False)] = rng.uniform(0.5, 1.5, count)
    return vector


def sparse_product(A, vector: np.ndarray) -> np.ndarray:
    """A times the sparse vector over its present entries only (an absent entry is not a zero
    that multiplies an inf of A)."""
    return np.asarray((A @ sparse.csc_matrix(vector.reshape(-1, 1))).todense()).ravel()


def test_spmspv_s_bitmap_is_masked_and_prints_both_lookups():
    kernel = spf.compile(SPMSPV, LAYOUTS, find="bitmap", build=False)
    (find,) = finds(kernel)
    assert find.masked
    source = kernel.c_source
    assert ".masked)" in source and "spf_bitmap_masked(" in source and "spf_bitmap_get(" in source
    assert "spf_masked(A_data[pAj] * x_val[px]" in source


@pytest.mark.parametrize("count", [0, 1, 2, MASKED_SHARE // 2, 300 // MASKED_SHARE - 1, 300 // MASKED_SHARE,
                                   300 // MASKED_SHARE + 1, 60, 150, 299, 300])
def test_every_count_of_x_s_entries_gives_the_sparse_product(count):
    """Counts on both sides of the share from which the kernel masks (x's extent 300)."""
    kernel = spf.compile(SPMSPV, LAYOUTS, find="bitmap")
    A = sparse.random(400, 300, density=0.1, format="csr", random_state=count)
    x = vector_with(300, count, seed=count)
    np.testing.assert_allclose(kernel(A=A, x=spf.pack("SV", x)), sparse_product(A, x), rtol=1e-13, atol=0)


def test_absent_terms_holding_inf_and_nan_add_nothing():
    """A masked term is cleared, not multiplied by zero: A's inf and NaN at columns x lacks
    leave the rows' sums as they are (in both the masked and the branching lookup)."""
    kernel = spf.compile(SPMSPV, LAYOUTS, find="bitmap")
    A = sparse.random(200, 256, density=0.2, format="csr", random_state=3)
    for count in (2, 128):
        x = vector_with(256, count, seed=count)
        absent = np.isin(A.indices, np.flatnonzero(x), invert=True)
        A_special = A.copy()
        A_special.data[absent] = np.where(np.arange(absent.sum()) % 2, np.inf, np.nan)
        result = kernel(A=A_special, x=spf.pack("SV", x))
        np.testing.assert_array_equal(result, kernel(A=A, x=spf.pack("SV", x)))
        np.testing.assert_allclose(result, sparse_product(A, x), rtol=1e-13)


def test_one_kernel_called_with_xs_of_other_sizes_and_counts():
    """The table is kept between calls: after a long x, a short one (positions a longer
    fill put are not read for it), a dense one, an empty one, a wider one (a new table)."""
    kernel = spf.compile(SPMSPV, LAYOUTS, find="bitmap")
    for seed, (columns, count) in enumerate([(500, 400), (500, 3), (500, 500), (500, 0), (500, 40),
                                             (2000, 1500), (40, 39), (2000, 10)]):
        A = sparse.random(300, columns, density=0.05, format="csr", random_state=seed)
        x = vector_with(columns, count, seed=seed)
        np.testing.assert_allclose(kernel(A=A, x=spf.pack("SV", x)), sparse_product(A, x), rtol=1e-13, atol=0)


def test_masked_in_parallel_over_many_chunks(openmp_threads):
    kernel = spf.compile(SPMSPV, LAYOUTS, find="bitmap", parallel=True)
    assert "#pragma omp parallel" in kernel.c_source and any(find.masked for find in finds(kernel))
    A = sparse.random(20000, 3000, density=0.003, format="csr", random_state=7)
    for count in (5, 1500):
        x = vector_with(3000, count, seed=count)
        for _ in range(3):
            np.testing.assert_allclose(kernel(A=A, x=spf.pack("SV", x)), sparse_product(A, x), rtol=1e-13, atol=0)


def test_a_product_of_sparse_matrices_through_a_bitmap_is_masked():
    """The inner-product order of C(i,j) = A(i,k) * B(k,j), B by columns: a fill per column of
    B, a register sum per entry of C over A's row."""
    kernel = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSC", "C": "Dense"}, find="bitmap",
                         order=["pAi", "i", "pC0", "pBj", "j", "pC1", "pAj", "k", "pBi"])
    assert any(find.masked for find in finds(kernel))
    A = sparse.random(60, 80, density=0.3, format="csr", random_state=1)
    B = sparse.random(80, 50, density=0.5, format="csc", random_state=2)
    np.testing.assert_allclose(kernel(A=A, B=B), (A @ B).toarray(), rtol=1e-13, atol=1e-15)


def test_other_finds_and_sums_are_not_masked():
    register = spf.compile(SPMSPV, LAYOUTS, find="hashmap", build=False)
    assert not any(find.masked for find in finds(register))
    kernel = spf.compile(SPMSPV, LAYOUTS, find="bitmap", build=False)
    loop = row_loop(kernel)
    (find,) = [node for node in loop.body if isinstance(node, Find)]
    counting = dataclasses.replace(loop.register_sum, counts_terms=True)
    assert not maskable(dataclasses.replace(loop, register_sum=counting), find)
    assert not maskable(dataclasses.replace(loop, register_sum=None), find)
    compute = find.body[0]
    at_key = dataclasses.replace(compute, factors=compute.factors + [("d", (Affine.of(find.dimension),), ("N",))])
    other_sum = dataclasses.replace(loop.register_sum, target=at_key)
    assert not maskable(dataclasses.replace(loop, register_sum=other_sum),
                        dataclasses.replace(find, body=[at_key]))


def test_an_assembled_output_s_lookup_is_not_masked_and_is_right():
    """A sparse output's entries go through a stream: no register sum to mask."""
    kernel = spf.compile(SPMSPV, {"A": "CSR", "x": "SV", "y": "SV"}, find="bitmap")
    assert not any(find.masked for find in finds(kernel))
    A = sparse.random(100, 64, density=0.1, format="csr", random_state=5)
    x = vector_with(64, 20, seed=5)
    np.testing.assert_allclose(kernel(A=A, x=spf.pack("SV", x)).to_dense(), sparse_product(A, x), rtol=1e-13)


def test_long_rows_of_a_masked_lookup_are_split_and_sum_as_one_chain_would_up_to_rounding():
    """spf.codegen.passes.split_sum takes a masked lookup's term as a plain one: rows of at
    least SPLIT_LEAST_TRIPS entries add into several registers, whichever way the lookup
    goes (masked or branching), and a row's sum does not depend on which way it went."""
    kernel = spf.compile(SPMSPV, LAYOUTS, find="bitmap")
    assert row_loop(kernel).register_sum.lanes == SPLIT_LANES and "spf_split" in kernel.c_source
    rows, columns = 50, 400
    A = sparse.random(rows, columns, density=0.5, format="csr", random_state=9)  # rows of ~200 entries
    for count in (3, 200):  # a branching and a masked fill
        x = vector_with(columns, count, seed=count)
        np.testing.assert_allclose(kernel(A=A, x=spf.pack("SV", x)), sparse_product(A, x), rtol=1e-13, atol=0)
    x = vector_with(columns, 10, seed=4)  # 10 < 400/32: a branching fill; with 400 more entries, a masked one
    wider = np.concatenate([x, np.ones(columns)])
    A_wide = sparse.hstack([A, sparse.csr_matrix((rows, columns))]).tocsr()
    branching = kernel(A=A, x=spf.pack("SV", x))
    masked = kernel(A=A_wide, x=spf.pack("SV", wider))  # A_wide's second half holds no entry: the same terms
    np.testing.assert_array_equal(branching, masked)


def test_a_key_outside_the_bitmaps_values_is_no_hit():
    """Found by the fuzzer (a segfault): WARP24's groups of 4 columns hold values 0..3, and
    with the columns of a dense A outermost the key ``j - 4*g`` of the find in group g ranges
    over every column; the masked lookup read the table at it (marks and positions past its
    capacity).  A key computed from loops is not masked: the lookup checks it."""
    order = ["pC0", "pA0", "pA1", "pBi", "pBg", "i", "pC1", "pBk", "j"]
    k = spf.compile("C(i,j) = A(i,j) * B(i,j)", {"A": "Dense2", "B": "WARP24", "C": "Dense2"}, order=order,
                    find="bitmap")
    assert [find.masked for find in finds(k)] == [False], k.explain()
    rng = np.random.default_rng(5)
    rows, columns = 9, 4000  # keys up to 4000 past a table of capacity 4
    B = np.zeros((rows, columns))
    for row in range(rows):
        for group in range(columns // 4):
            B[row, 4 * group + rng.choice(4, size=2, replace=False)] = rng.standard_normal(2)
    A = rng.standard_normal((rows, columns))
    np.testing.assert_allclose(k(A=A, B=spf.pack("WARP24", B)), A * B, rtol=1e-13)
