"""spf.codegen.passes.split_sum: which register sums are split among several registers, and
that the split kernels sum rows of every length as a reference does, the same for every
thread count."""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.codegen.loops import Assign, Bound, Compute, Guard, Loop
from spf.codegen.passes.register_sum import mark_register_sums
from spf.codegen.passes.split_sum import SPLIT_LANES, SPLIT_LEAST_TRIPS, split_register_sums, splittable
from spf.layout_library.model import Name
from spf.space.expressions import Affine, Constraint, UFCall

from tests.codegen.passes.test_register_sum import spmv


def csr_spmv() -> Loop:
    """for i: start = rowptr(i); stop = rowptr(i+1); for k in start .. stop-1: j = col(k); y[i] += val[k] * x[j]."""
    write = Compute(("y", (Name("i"),), (Name("N"),)),
                    [("val", (Name("k"),), (Name("NNZ"),)), ("x", (Name("j"),), (Name("M"),))])
    inner = Loop("k", [Bound(Affine.of("start"))], [Bound(Affine.of("stop") - 1)],
                 [Assign("j", UFCall("col", (Affine.of("k"),))), write])
    return Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)],
                [Assign("start", UFCall("rowptr", (Affine.of("i"),))),
                 Assign("stop", UFCall("rowptr", (Affine.of("i") + 1,))), inner])


def test_the_row_loop_of_spmv_is_split():
    nest = csr_spmv()
    mark_register_sums([nest])
    split_register_sums([nest])
    split = nest.body[2].register_sum
    assert (split.lanes, split.least_trips) == (SPLIT_LANES, SPLIT_LEAST_TRIPS)


def test_loops_that_are_not_plain_register_sums_or_rows_are_not_split():
    plain = csr_spmv()
    split_register_sums([plain])  # no register sum marked
    assert plain.body[2].register_sum is None
    jammed = csr_spmv()
    mark_register_sums([jammed])
    jammed.body[2].jam = 4
    assert not splittable(jammed.body[2])
    guarded = csr_spmv()
    mark_register_sums([guarded])
    inner = guarded.body[2]
    inner.body = [inner.body[0], Guard([Constraint(Affine.of("j"), "<", Affine.of("i"))], [inner.body[1]])]
    assert not splittable(inner)
    nested = spmv()  # the inner loop's bounds read the pointer directly, not a segment of the loop's rows
    mark_register_sums([nested])
    split_register_sums([nested])
    assert nested.body[0].register_sum.lanes == 1


def rows_of_every_length(rows: int, columns: int, seed: int) -> sparse.csr_matrix:
    """Rows of 0 to ~3 * SPLIT_LEAST_TRIPS entries (averaging above SPLIT_LEAST_TRIPS): one
    chain, the lanes, the lanes and a rest."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 3 * SPLIT_LEAST_TRIPS + 3, size=rows)
    lengths[:SPLIT_LEAST_TRIPS + 2] = np.arange(SPLIT_LEAST_TRIPS + 2)  # each length around the threshold
    indices = np.concatenate([np.sort(rng.choice(columns, size=n, replace=False)) for n in lengths])
    pointer = np.concatenate([[0], np.cumsum(lengths)])
    return sparse.csr_matrix((rng.standard_normal(len(indices)), indices, pointer), shape=(rows, columns))


def set_threads(count: int) -> None:
    runtime = ctypes.CDLL(ctypes.util.find_library("gomp") or "libgomp.so.1")
    runtime.omp_set_num_threads(count)


@pytest.mark.parametrize("seed", [1, 2])
def test_split_rows_sum_as_scipy_does_and_alike_for_every_thread_count(seed, openmp_threads):
    """Rows enough for several pieces per thread; 1 and 2 threads give the serial kernel's sums."""
    matrix = rows_of_every_length(20000, 400, seed)
    x = np.random.default_rng(seed).standard_normal(400)
    serial = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "Dense"})
    parallel = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "Dense"}, parallel=True)
    assert "spf_split" in serial.c_source and "spf_split" in parallel.c_source
    assert f"(summed in {SPLIT_LANES} registers from {SPLIT_LEAST_TRIPS} iterations)" in serial.explain()
    expected = matrix @ x
    result = serial(A=matrix, x=x)
    np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)
    try:
        for threads in (1, 2):
            set_threads(threads)
            assert np.array_equal(parallel(A=matrix, x=x), result)  # the same sums, bit for bit
    finally:
        set_threads(openmp_threads)


def row_sums(matrix: sparse.csr_matrix, x: np.ndarray, split: bool) -> np.ndarray:
    """Each row's sum in the order the kernel adds: one chain, or (``split``, rows of at
    least SPLIT_LEAST_TRIPS terms) SPLIT_LANES registers added pairwise, then the rest."""
    sums = []
    for row in range(matrix.shape[0]):
        start, stop = matrix.indptr[row], matrix.indptr[row + 1]
        terms = [float(v) * float(x[j]) for v, j in zip(matrix.data[start:stop], matrix.indices[start:stop])]
        total, taken = 0.0, 0
        if split and len(terms) >= SPLIT_LEAST_TRIPS:
            registers = [0.0] * SPLIT_LANES
            while taken + SPLIT_LANES <= len(terms):
                for lane in range(SPLIT_LANES):
                    registers[lane] += terms[taken + lane]
                taken += SPLIT_LANES
            while len(registers) > 1:
                registers = [registers[k] + registers[k + 1] for k in range(0, len(registers), 2)]
            total = registers[0]
        for term in terms[taken:]:
            total += term
        sums.append(total)
    return np.array(sums)


@pytest.mark.parametrize("long_rows", [True, False])
def test_each_row_is_summed_in_the_order_its_length_says(long_rows):
    """Bit for bit: rows of SPLIT_LEAST_TRIPS terms or more take the split sums, shorter rows
    one chain, whatever the other rows (mostly long, or mostly short: a distributed rank's
    share of the rows sums each as one process does)."""
    matrix = rows_of_every_length(500, 300, seed=4)
    if not long_rows:
        lengths = np.diff(matrix.indptr)
        short, long = np.flatnonzero(lengths < SPLIT_LEAST_TRIPS // 2), np.flatnonzero(lengths >= SPLIT_LEAST_TRIPS)
        matrix = sparse.vstack([matrix[short], matrix[long[:5]]]).tocsr()
    x = np.random.default_rng(4).standard_normal(300)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "Dense"})
    got = kernel(A=matrix, x=x)
    assert np.array_equal(got, row_sums(matrix, x, split=True))
    assert not np.array_equal(got, row_sums(matrix, x, split=False))  # the split's order is not the chain's


def test_fibres_under_an_outer_level_keep_one_chain():
    """TTV's fibre sums walk segments of a loop below the top-level one: not split (its
    fibres are often of 1 or 2 entries, where the split's test costs 30%)."""
    rng = np.random.default_rng(3)
    coords = np.array([(i, j, k) for i in range(3) for j in range(4) for k in range(int(rng.integers(0, 40)))])
    coords = np.unique(coords, axis=0)
    values = rng.standard_normal(len(coords))
    B = spf.pack("CSF3", (coords, values, (3, 4, 40)))
    c = rng.standard_normal(40)
    kernel = spf.compile("A(i,j) = B(i,j,k) * c(k)", {"A": "DCSR", "B": "CSF3", "c": "Dense"})
    assert "spf_split" not in kernel.c_source
    expected = sparse.coo_matrix((values * c[coords[:, 2]], (coords[:, 0], coords[:, 1])), shape=(3, 4)).toarray()
    np.testing.assert_allclose(kernel(B=B, c=c).to_scipy().toarray(), expected, rtol=1e-12, atol=1e-12)
