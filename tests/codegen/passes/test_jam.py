"""spf.codegen.passes.jam: which loops are jammed around a register sum, and that a jammed kernel
computes bit for bit what the plain loop computes."""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.codegen.loops import Assign, Bound, Compute, Loop
from spf.codegen.passes.jam import JAM_WIDTH, walks_segments, jammable
from spf.codegen.pipeline import PASSES, Compilation, Options, jam_loops, split_sums, to_kernel
from spf.codegen.toolchain.compiler import CFLAGS
from spf.runtime.kernel import Kernel
from spf.space.expressions import Affine, UFCall

SDDMM = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
SDDMM_LAYOUTS = {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}


# spf compiles without contraction (spf.codegen.toolchain.compiler.CFLAGS): gcc would otherwise fuse a
# multiply and an add as it sees fit, differently in the two loops' shapes, and the
# bitwise comparisons below rely on it not doing so
assert "-ffp-contract=off" in CFLAGS
EXACT_FLAGS = tuple(CFLAGS)


def compiled(expression: str, layouts: dict, share: dict, jam: bool):
    """The kernel the passes make (all, or all but the jam and the split of register sums,
    which reassociates: the plain loop), without contraction, bypassing the kernel cache."""
    compilation = Compilation(expression, layouts, Options("auto", dict(share), False, None, None, EXACT_FLAGS,
                                                           False))
    for step in PASSES:
        if jam or step not in (jam_loops, split_sums):
            compilation = step(compilation)
    return Kernel(compiled=to_kernel(compilation, 0.0))


def ragged_matrix(rows: int, columns: int, seed: int) -> sparse.csr_matrix:
    """Rows of 0 to 10 entries: every count of iterations left over after the jammed ones."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 11, rows)
    indices = [np.sort(rng.choice(columns, size=length, replace=False)) for length in lengths]
    indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    data = rng.uniform(-1, 1, int(lengths.sum()))
    return sparse.csr_matrix((data, np.concatenate(indices).astype(np.int32), indptr), shape=(rows, columns))


def test_sddmm_inner_nest_is_jammed():
    kernel = spf.compile(SDDMM, SDDMM_LAYOUTS, share={"A": "B"})
    assert re.search(rf"for pBj in \S+ \.\. \S+ - 1 \(jammed by {JAM_WIDTH}\):", kernel.explain())
    assert "_lane3" in kernel.c_source


@pytest.mark.parametrize("rank", [1, 3, 32])
def test_jammed_sddmm_is_bitwise_the_plain_loop(rank):
    B = ragged_matrix(60, 45, seed=rank)
    rng = np.random.default_rng(rank)
    C, D = rng.uniform(-1, 1, (60, rank)), rng.uniform(-1, 1, (rank, 45))
    jammed = compiled(SDDMM, SDDMM_LAYOUTS, {"A": "B"}, jam=True)
    plain = compiled(SDDMM, SDDMM_LAYOUTS, {"A": "B"}, jam=False)
    assert "(jammed by" in jammed.explain() and "jammed" not in plain.explain()
    got = np.asarray(jammed(B=spf.pack("CSR", B), C=C, D=D).to_scipy().data)
    want = np.asarray(plain(B=spf.pack("CSR", B), C=C, D=D).to_scipy().data)
    assert np.array_equal(got, want)
    expected = B.multiply(C @ D).tocsr()
    assert np.allclose(got, expected.data, rtol=1e-12, atol=1e-15)


def test_jammed_sddmm_in_parallel(openmp_threads):
    B = ragged_matrix(400, 90, seed=7)
    rng = np.random.default_rng(7)
    C, D = rng.uniform(-1, 1, (400, 5)), rng.uniform(-1, 1, (5, 90))
    kernel = spf.compile(SDDMM, SDDMM_LAYOUTS, share={"A": "B"}, parallel=True)
    assert "(parallel)" in kernel.explain() and "(jammed by" in kernel.explain()
    got = kernel(B=spf.pack("CSR", B), C=C, D=D).to_scipy()
    assert np.allclose(got.data, B.multiply(C @ D).tocsr().data, rtol=1e-12, atol=1e-15)


def test_dense_matrix_vector_product():
    rng = np.random.default_rng(3)
    A, x = rng.uniform(-1, 1, (13, 7)), rng.uniform(-1, 1, 7)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "Dense", "x": "Dense"})
    assert np.allclose(kernel(A=A, x=x), A @ x, rtol=1e-12)


def test_not_jammed_where_iterations_differ_or_entries_are_assembled():
    spmv = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "Dense"})
    assert "jammed" not in spmv.explain()  # the row loop's inner loop runs over its own row
    spgemm = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert "jammed" not in spgemm.explain()  # an assembled output: entries go through a stream
    bcsr = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "BCSR", "x": "Dense"})
    assert "jammed" not in bcsr.explain()  # a block's row: at most four terms per pass


def _nest(inner_upper: str | int, reads_output: bool) -> Loop:
    """for p in 0 .. n - 1: q = idx(p); for k in 0 .. inner_upper: y[p] += (y or v)[q, k]."""
    factor = ("y" if reads_output else "v", (Affine.of("q"), Affine.of("k")), ())
    compute = Compute(("y", (Affine.of("p"),), ()), [factor])
    inner = Loop("k", [Bound(Affine.of(0))], [Bound(Affine.of(inner_upper))], [compute])
    return Loop("p", [Bound(Affine.of(0))], [Bound(Affine.of("n"))],
                [Assign("q", UFCall("idx", (Affine.of("p"),))), inner])


def test_jammable_conditions():
    assert jammable(_nest("m", reads_output=False))
    assert not jammable(_nest("q", reads_output=False))  # the inner loop's bound is bound by the iteration
    assert not jammable(_nest("p", reads_output=False))  # ... or is the loop's variable
    assert not jammable(_nest("m", reads_output=True))  # a term reads what the updates write
    assert not jammable(_nest(3, reads_output=False))  # four terms a pass: too short a chain to wait on
    assert jammable(_nest(40, reads_output=False))
    parallel = _nest("m", reads_output=False)
    parallel.parallel = True
    assert not jammable(parallel)


def test_sddmm_reads_a_column_major_dense_operand_through_a_transposed_copy():
    kernel = spf.compile(SDDMM, SDDMM_LAYOUTS, share={"A": "B"})
    assert "D_vals read through a transposed copy when the call's B_rowPtr segments hold >= 12 x its columns" \
        in kernel.explain()
    assert "spf_D_vals_transposed" in kernel.c_source
    contiguous = spf.compile("A(i,j) = B(i,j) * C(i,k) * D(j,k)", SDDMM_LAYOUTS, share={"A": "B"})
    assert "(jammed by" in contiguous.explain() and "transposed copy" not in contiguous.explain()


@pytest.mark.parametrize("columns", [4, 400])
def test_transposed_copy_is_bitwise_the_plain_loop(columns):
    """Rows of up to 10 entries over 4 columns: at least 12 reads per column, the copy is
    made; over 400 columns it is not.  Either way the result is the plain loop's."""
    B = ragged_matrix(300, columns, seed=columns) if columns > 10 else \
        sparse.csr_matrix(np.random.default_rng(1).uniform(-1, 1, (300, columns)))
    assert (B.nnz >= 12 * columns) == (columns == 4)
    rng = np.random.default_rng(columns)
    C, D = rng.uniform(-1, 1, (300, 6)), rng.uniform(-1, 1, (6, columns))
    jammed = compiled(SDDMM, SDDMM_LAYOUTS, {"A": "B"}, jam=True)
    plain = compiled(SDDMM, SDDMM_LAYOUTS, {"A": "B"}, jam=False)
    assert "transposed copy" in jammed.explain() and "transposed copy" not in plain.explain()
    got = jammed(B=spf.pack("CSR", B), C=C, D=D).to_scipy()
    assert np.array_equal(got.data, plain(B=spf.pack("CSR", B), C=C, D=D).to_scipy().data)
    assert np.allclose(got.toarray(), B.multiply(C @ D).toarray(), rtol=1e-12, atol=1e-15)


def test_transposed_copy_in_parallel(openmp_threads):
    B = sparse.csr_matrix(np.random.default_rng(2).uniform(-1, 1, (500, 8)))  # 500 reads per column
    rng = np.random.default_rng(2)
    C, D = rng.uniform(-1, 1, (500, 5)), rng.uniform(-1, 1, (5, 8))
    kernel = spf.compile(SDDMM, SDDMM_LAYOUTS, share={"A": "B"}, parallel=True)
    assert "transposed copy" in kernel.explain() and "(parallel)" in kernel.explain()
    got = kernel(B=spf.pack("CSR", B), C=C, D=D).to_scipy()
    assert np.allclose(got.toarray(), B.multiply(C @ D).toarray(), rtol=1e-12, atol=1e-15)


def test_segments_are_recognised_through_copies_of_the_pointer_reads():
    """A scan may copy the pointer's reads (``_u3 = _u1``) before the loop uses them."""
    start, end = UFCall("rowPtr", (Affine.of("v"),)), UFCall("rowPtr", (Affine.of("v") + 1,))
    values = {"_u1": start, "_u2": end, "_u3": Affine.of("_u1"), "_u4": Affine.of("_u2")}
    assert walks_segments(Loop("p", [Bound(Affine.of("_u3"))], [Bound(Affine.of("_u4") - 1)]), values, start)
    assert walks_segments(Loop("p", [Bound(Affine.of("_u1"))], [Bound(Affine.of("_u2") - 1)]), values, start)
    assert not walks_segments(Loop("p", [Bound(Affine.of("_u1"))], [Bound(Affine.of("_u2"))]), values, start)


TTTP = "S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)"
TTTP_LAYOUTS = {"S": "CSF3", "T": "CSF3", "U": "Dense", "V": "Dense", "W": "Dense"}


@pytest.mark.parametrize("rank", [3, 16])
def test_autoscheduled_trees_are_jammed_without_transposed_copies(rank):
    """A lowered tree's nest is jammed like a kernel's (TTTP's default order is), but reads no
    transposed copy: its C function makes none, and an operand may be the nest's temporary.
    Every tree the search generates computes TTTP bit for bit as its plain nest does."""
    search = spf.autoschedule(TTTP, TTTP_LAYOUTS, share={"S": "T"}, progress=lambda line: None)
    rng = np.random.default_rng(rank)
    dense = np.where(rng.random((6, 7, 9)) < 0.4, rng.random((6, 7, 9)), 0.0)
    U, V, W = rng.random((6, rank)), rng.random((7, rank)), rng.random((9, rank))
    expected = dense * np.einsum("ir,jr,kr->ijk", U, V, W)
    T = spf.pack("CSF3", dense)
    jammed = 0
    for candidate in search.generated:
        kernel = spf.compile(TTTP, TTTP_LAYOUTS, share={"S": "T"}, schedule=candidate)
        jammed += "spf_jam" in kernel.c_source
        assert "_transposed" not in kernel.c_source
        np.testing.assert_allclose(kernel(T=T, U=U, V=V, W=W).to_dense(), expected, rtol=1e-12, atol=1e-12)
    assert jammed >= 4  # the default's order i, j, k, r among them
