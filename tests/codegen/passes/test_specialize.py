"""spf.codegen.passes.specialize: which kernels get a copy of their nests per common extent
of their innermost dense loop, and that every copy (and the general one) computes what
numpy does."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.codegen.loops import Bound, Loop
from spf.codegen.passes.independent import IndependentIterations
from spf.codegen.passes.specialize import SPECIALIZED_EXTENTS, specialized_extent
from spf.runtime.kernel import callable_kernel
from spf.space.expressions import Affine

MTTKRP = "A(i,r) = B(i,j,k) * C(j,r) * D(k,r)"
MTTKRP_LAYOUTS = {"A": "Dense2", "B": "CSF3", "C": "Dense2", "D": "Dense2"}


def dense_loop(variable: str, extent: str) -> Loop:
    return Loop(variable, [Bound(Affine())], [Bound(Affine.of(extent) - 1)], independent=IndependentIterations())


def test_the_extents_of_the_innermost_dense_loops_are_specialised():
    assert specialized_extent([[dense_loop("r", "A_N1")], [dense_loop("s", "A_N1")]]) == ("A_N1",)
    # two extents (K4's k and l): a copy where both are the value
    assert specialized_extent([[dense_loop("r", "A_N1"), dense_loop("s", "B_N1")]]) == ("A_N1", "B_N1")
    assert specialized_extent([[Loop("r", [Bound(Affine())], [Bound(Affine.of("A_N1") - 1)])]]) is None  # not marked
    shifted = dense_loop("r", "A_N1")
    shifted.lower = [Bound(Affine.of(1))]
    assert specialized_extent([[shifted]]) is None
    assert specialized_extent([[dense_loop("r", "A_N1"), shifted]]) is None  # one loop of other bounds


@pytest.mark.parametrize("ranks", [(16, 16), (32, 32), (16, 32), (5, 7)])
def test_a_tree_over_two_dense_indices_is_right_in_every_copy(ranks):
    """K4's row-by-row tree: T_BC(k) over C's columns, then A's row over D's columns; the
    copies test both extents, so unequal ranks take the general copy."""
    expression = "A(i,l) = B(i,j) * C(j,k) * D(k,l)"
    layouts = {"A": "Dense", "B": "CSR", "C": "Dense", "D": "Dense"}
    tree = "i < T_BC(k) ; j, k : T_BC(k) += B(i,j) * C(j,k) , k, l : A(i,l) += T_BC(k) * D(k,l) >"
    kernel = spf.compile(expression, layouts, schedule=spf.schedule(tree, expression, layouts))
    assert "if ((A_N1 == 16) && (C_N1 == 16))" in kernel.c_source
    rng = np.random.default_rng(3)
    B = sparse.random(200, 90, density=0.05, format="csr", random_state=4)
    C, D = rng.random((90, ranks[0])), rng.random((ranks[0], ranks[1]))
    np.testing.assert_allclose(kernel(B=B, C=C, D=D), B @ C @ D, rtol=1e-12)


@pytest.mark.parametrize("rank", [5, 16, 32, 64])
def test_every_fused_mttkrp_candidate_is_specialised_and_right(rank):
    """The autoscheduler's trees are specialised as the default is (where their dense loops
    run over equal extents), and every copy computes MTTKRP."""
    search = spf.autoschedule(MTTKRP, MTTKRP_LAYOUTS, progress=lambda line: None)
    rng = np.random.default_rng(rank)
    dense = np.where(rng.random((6, 7, 5)) < 0.3, rng.random((6, 7, 5)), 0.0)
    C, D = rng.random((7, rank)), rng.random((5, rank))
    expected = np.einsum("ijk,jr,kr->ir", dense, C, D)
    B = spf.pack("CSF3", dense)
    specialised = 0
    for candidate in search.generated:
        kernel = spf.compile(MTTKRP, MTTKRP_LAYOUTS, schedule=candidate)
        specialised += "== 16)" in kernel.c_source
        np.testing.assert_allclose(kernel(B=B, C=C, D=D), expected, rtol=1e-12, atol=1e-12)
    assert specialised >= len(search.generated) - 2  # all but the trees whose innermost loop is sparse


def test_mttkrp_branches_on_its_rank():
    kernel = spf.compile(MTTKRP, MTTKRP_LAYOUTS, build=False)
    for value in SPECIALIZED_EXTENTS:
        assert f"A_N1 == {value})" in kernel.c_source
    assert kernel.c_source.count("#pragma GCC ivdep") == len(SPECIALIZED_EXTENTS) + 1


def test_specialize_false_leaves_the_general_copy_alone():
    """The benchmarks' alternative to the specialisation (benchmarks/mttkrp.py's regret):
    a kernel of its own in the kernel cache, not the specialised one."""
    general = callable_kernel(MTTKRP, MTTKRP_LAYOUTS, specialize=False)
    assert "A_N1 == 16)" not in general.c_source and general.c_source.count("#pragma GCC ivdep") == 1
    assert "A_N1 == 16)" in spf.compile(MTTKRP, MTTKRP_LAYOUTS, build=False).c_source  # not the cached general one
    rng = np.random.default_rng(3)
    dense = np.where(rng.random((7, 6, 5)) < 0.3, rng.random((7, 6, 5)), 0.0)
    C, D = rng.random((6, 16)), rng.random((5, 16))
    np.testing.assert_allclose(general.build()(B=spf.pack("CSF3", dense), C=C, D=D),
                               np.einsum("ijk,jr,kr->ir", dense, C, D), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("rank", sorted({1, 5, 15, 17, 33, *SPECIALIZED_EXTENTS}))
def test_each_copy_and_the_general_one_compute_mttkrp(rank):
    kernel = spf.compile(MTTKRP, MTTKRP_LAYOUTS)
    rng = np.random.default_rng(rank)
    shape = (7, 6, 5)
    dense = np.where(rng.random(shape) < 0.3, rng.random(shape), 0.0)
    C, D = rng.random((6, rank)), rng.random((5, rank))
    expected = np.einsum("ijk,jr,kr->ir", dense, C, D)
    np.testing.assert_allclose(kernel(B=spf.pack("CSF3", dense), C=C, D=D), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("columns", [3, 16, 32])
def test_spmm_is_specialised_and_right(columns):
    kernel = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "Dense2", "C": "Dense2"})
    assert "== 16)" in kernel.c_source
    A = sparse.random(40, 30, density=0.2, format="csr", random_state=columns)
    B = np.random.default_rng(columns).random((30, columns))
    np.testing.assert_allclose(kernel(A=A, B=B), A @ B, rtol=1e-12)


SCALED_ROWS = "Y(i,r) = A(i,k) * x(k) * C(k,r)"
SCALED_LAYOUTS = {"A": "CSR", "x": "SV", "C": "Dense2", "Y": "Dense2"}


def test_kernels_keeping_find_state_are_not_copied():
    """A hash map's table is kept between calls in a slot per find: one copy of the nests only."""
    hashed = spf.compile(SCALED_ROWS, SCALED_LAYOUTS, find="hashmap", build=False)
    assert specialized_extent([scanned.nodes for scanned in hashed.scans]) == ("C_N1",)  # a candidate ...
    assert "== 16)" not in hashed.c_source  # ... left whole


@pytest.mark.parametrize("rank", [4, 16])
def test_a_seqiter_position_is_each_copy_s_own(rank):
    kernel = spf.compile(SCALED_ROWS, SCALED_LAYOUTS, find="seqiter")
    assert "== 16)" in kernel.c_source
    A = sparse.random(30, 40, density=0.3, format="csr", random_state=rank)
    x = np.where(np.random.default_rng(rank).random(40) < 0.4, 2.0, 0.0)
    C = np.random.default_rng(rank + 1).random((40, rank))
    np.testing.assert_allclose(kernel(A=A, x=spf.pack("SV", x), C=C), A @ (x[:, None] * C), rtol=1e-12)
