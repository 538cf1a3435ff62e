"""spf.codegen.passes.independent: which innermost loops are marked independent (``#pragma
GCC ivdep``), which factors they read once, and that the kernels so marked compute what
numpy does."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.codegen.loops import Assign, Bound, Compute, Guard, Loop, Merge, MergeArm, walk
from spf.codegen.passes.independent import independent_iterations, mark_independent_loops
from spf.layout_library.model import BinaryOp, Name, Number
from spf.space.expressions import Affine, Constraint, UFCall


def spmm_row(output_index=None, factors=None) -> Loop:
    """for k in rowptr(i)..: j = col(k); for r: pA = r; A[i][pA] += val[k] * C[j][r]."""
    write = Compute(("A", (Name("i"), output_index or Name("pA")), (Name("N"), Name("R"))),
                    factors or [("val", (Name("k"),), (Name("NNZ"),)), ("C", (Name("j"), Name("r")),
                                                                          (Name("M"), Name("R")))])
    dense = Loop("r", [Bound(Affine.of(0))], [Bound(Affine.of("R") - 1)], [Assign("pA", Affine.of("r")), write])
    return Loop("k", [Bound(Affine.of(UFCall("rowptr", (Affine.of("i"),))))],
                [Bound(Affine.of(UFCall("rowptr", (Affine.of("i") + 1,))) - 1)],
                [Assign("j", UFCall("col", (Affine.of("k"),))), dense])


def test_the_dense_loop_of_spmm_is_independent_and_reads_the_value_once():
    nest = spmm_row()
    mark_independent_loops([nest])
    dense = nest.body[1]
    assert nest.independent is None  # not innermost: A[i][r] is written by every k
    assert dense.independent is not None and dense.independent.invariant_factors == (0,)


@pytest.mark.parametrize("index", [BinaryOp("+", Name("pA"), Number(1)), BinaryOp("-", Name("R"), Name("pA"))])
def test_an_index_one_step_from_the_variable_is_independent(index):
    nest = spmm_row(output_index=index)
    assert independent_iterations(nest.body[1]) is not None


@pytest.mark.parametrize("index", [BinaryOp("*", Name("pA"), Number(2)), Name("j"), Number(0),
                                   BinaryOp("+", Name("pA"), Name("pA"))])
def test_an_output_position_not_one_step_per_iteration_is_not(index):
    """``2r`` is injective but not proven so; ``j`` and ``0`` do not change: every iteration
    writes one entry (a reduction through memory)."""
    assert independent_iterations(spmm_row(output_index=index).body[1]) is None


def test_a_scattered_write_is_not_independent():
    """``y[row(k)] += ...`` (COO, CSC): two iterations may write one entry."""
    write = Compute(("y", (Name("i"),), (Name("N"),)), [("val", (Name("k"),), (Name("NNZ"),))])
    loop = Loop("k", [Bound(Affine.of(0))], [Bound(Affine.of("NNZ") - 1)],
                [Assign("i", UFCall("row", (Affine.of("k"),))), write])
    assert independent_iterations(loop) is None


def test_a_loop_reading_what_it_writes_or_writing_twice_is_not():
    reads_output = spmm_row(factors=[("A", (Name("i"), Name("r")), (Name("N"), Name("R")))])
    assert independent_iterations(reads_output.body[1]) is None
    twice = spmm_row()
    dense = twice.body[1]
    dense.body.append(Compute(("B", (Name("i"), Name("pA")), (Name("N"), Name("R"))), []))
    assert independent_iterations(dense) is None


def test_a_guarded_statement_keeps_its_reads_inside():
    nest = spmm_row()
    dense = nest.body[1]
    dense.body = [dense.body[0], Guard([Constraint(Affine.of("r"), "<", Affine.of("j"))], [dense.body[1]])]
    mark = independent_iterations(dense)
    assert mark is not None and mark.invariant_factors == ()


def test_loops_other_passes_own_are_left_alone():
    for change in ("parallel", "jam", "merge", "atomic"):
        nest = spmm_row()
        dense = nest.body[1]
        top = nest
        if change == "parallel":
            dense.parallel = True
        elif change == "jam":
            dense.jam = 2
        elif change == "merge":
            nest.body[1] = Merge("r", [MergeArm([dense], dense)])
        else:
            nest.parallel, nest.reduction = True, "atomic"
        mark_independent_loops([top])
        assert all(loop.independent is None for loop in walk([top]) if isinstance(loop, Loop)), change


LAYOUTS = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}


@pytest.mark.parametrize("rank", [1, 7, 16])
def test_mttkrp_marked_independent_computes_what_numpy_does(rank):
    kernel = spf.compile("A(i,r) = B(i,j,k) * C(j,r) * D(k,r)", LAYOUTS)
    assert "#pragma GCC ivdep" in kernel.c_source and "(independent iterations)" in kernel.explain()
    rng = np.random.default_rng(rank)
    coords = np.unique(rng.integers(0, [9, 8, 10], size=(60, 3)), axis=0)
    values = rng.random(len(coords))
    B = spf.pack("CSF3", (coords, values, (9, 8, 10)))
    C, D = rng.random((8, rank)), rng.random((10, rank))
    expected = np.zeros((9, rank))
    np.add.at(expected, coords[:, 0], values[:, None] * C[coords[:, 1]] * D[coords[:, 2]])
    np.testing.assert_allclose(kernel(B=B, C=C, D=D), expected, rtol=1e-12)


def test_spmm_into_rows_and_scatter_of_coo_agree_with_scipy():
    """The dense loop of SpMM is marked; COO's SpMV (a scattered write) is not, and both are right."""
    rng = np.random.default_rng(5)
    matrix = sparse.random(40, 30, density=0.2, random_state=rng, format="csr")
    dense = rng.random((30, 5))
    spmm = spf.compile("A(i,k) = B(i,j) * C(j,k)", {"A": "Dense", "B": "CSR", "C": "Dense"})
    assert "#pragma GCC ivdep" in spmm.c_source
    np.testing.assert_allclose(spmm(B=matrix, C=dense), matrix @ dense, rtol=1e-12)
    spmv = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "COO", "x": "Dense"})
    assert "#pragma GCC ivdep" not in spmv.c_source
    np.testing.assert_allclose(spmv(A=matrix.tocoo(), x=dense[:, 0]), matrix @ dense[:, 0], rtol=1e-12)
