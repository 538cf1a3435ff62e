"""Kernels of candidates that read copies in other mode orders (spf.runtime.conversion.permuted,
called by Kernel): every form of input gives numpy's result, called or bound, and the
user's data is not changed."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

import spf
from spf.errors import SpfError
from spf.runtime.conversion import permuted


def random_tensor(shape, count, seed):
    generator = np.random.default_rng(seed)
    coords = np.unique(np.stack([generator.integers(0, n, count) for n in shape], axis=1), axis=0)
    return coords, generator.random(len(coords)), tuple(shape)


def dense_of(coords, values, shape):
    array = np.zeros(shape)
    array[tuple(coords.T)] = values
    return array


def copy_candidates(expression, layouts, orders):
    found = [c for c in spf.autoschedule(expression, layouts, mode_orders=orders).generated if c.mode_orders]
    assert found
    return found


@pytest.mark.parametrize("form", ["triple", "tensor", "dense"])
def test_mttkrp_of_mode_one_from_a_copy(form):
    expression = "A(j,a) = B(i,j,k) * C(i,a) * D(k,a)"
    layouts = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
    coords, values, shape = random_tensor((9, 7, 5), 120, 1)
    generator = np.random.default_rng(2)
    C, D = generator.random((9, 4)), generator.random((5, 4))
    expected = np.einsum("ijk,ia,ka->ja", dense_of(coords, values, shape), C, D)
    B = {"triple": (coords, values, shape), "tensor": spf.pack("CSF3", (coords, values, shape)),
         "dense": dense_of(coords, values, shape)}[form]
    before = coords.copy()
    for candidate in copy_candidates(expression, layouts, {"B": (1, 0, 2)}):
        kernel = spf.compile(expression, layouts, schedule=candidate)
        assert "mode order: B" in kernel.explain()
        np.testing.assert_allclose(kernel(B=B, C=C, D=D), expected)
        bound = kernel.bind(B=B, C=C, D=D)
        np.testing.assert_allclose(bound(), expected)
        np.testing.assert_allclose(bound(), expected)
    np.testing.assert_array_equal(coords, before)


def test_transposed_matrix_from_scipy():
    """y(j) = A(i,j) * x(i) on CSR A: the copy is A's transpose in CSR (the output's index first)."""
    expression = "y(j) = A(i,j) * x(i) * z(j)"
    layouts = {"y": "Dense", "A": "CSR", "x": "Dense", "z": "Dense"}
    A = scipy.sparse.random(40, 30, density=0.1, format="csr", random_state=3)
    x, z = np.arange(40.0), np.arange(30.0) + 1
    data = A.data.copy()
    for candidate in copy_candidates(expression, layouts, True):
        assert candidate.mode_orders == (("A", (1, 0)),)
        kernel = spf.compile(expression, layouts, schedule=candidate)
        np.testing.assert_allclose(kernel(A=A, x=x, z=z), (A.T @ x) * z)
    np.testing.assert_array_equal(A.data, data)


def test_chain_with_c_in_its_stored_order():
    """CoNST's chain with C given as stored, (q,k,r): every generated candidate, copies of C
    included, computes einsum's result."""
    expression = "R(i,j,k) = A(i,p,q) * B(j,p,r) * C(q,k,r) * D(j,k,r)"
    layouts = {"R": "Dense", "A": "CSF3", "B": "CSF3", "C": "CSF3", "D": "CSF3"}
    T = random_tensor((4, 5, 4), 30, 4)
    dense = dense_of(*T)
    expected = np.einsum("ipq,jpr,qkr,jkr->ijk", dense, dense, dense, dense)
    schedules = spf.autoschedule(expression, layouts)
    copies = [c for c in schedules.generated if c.mode_orders]
    assert copies and all(c.mode_orders == (("C", (1, 0, 2)),) for c in copies)
    for candidate in [copies[0], schedules.select(A=T, B=T, C=T, D=T)]:
        kernel = spf.compile(expression, layouts, schedule=candidate)
        np.testing.assert_allclose(kernel(A=T, B=T, C=T, D=T), expected)


def test_permuted_copies():
    """A permuted copy holds the entries with their coordinates permuted, explicit zeros
    included, from a Tensor or from anything pack takes; a bad permutation is refused."""
    coords, values, shape = random_tensor((4, 5, 6), 40, 7)
    values[0] = 0.0  # an explicit zero stays stored
    for data in [(coords, values, shape), spf.pack("CSF3", (coords, values, shape))]:
        for permutation in [(1, 0, 2), (2, 1, 0), (0, 2, 1), (0, 1, 2)]:
            copy = permuted(data, "CSF3", permutation, "B")
            got_coords, got_values, got_shape = copy.to_coo()
            expected = coords[:, list(permutation)]
            order = np.lexsort(expected.T[::-1])
            assert got_shape == tuple(shape[a] for a in permutation)
            np.testing.assert_array_equal(got_coords, expected[order])
            np.testing.assert_array_equal(got_values, values[order])
    with pytest.raises(SpfError, match="does not permute"):
        permuted(np.ones((2, 3)), "CSR", (2, 1, 0), "B")


def test_candidate_for_another_expression_is_refused():
    expression = "A(j,a) = B(i,j,k) * C(i,a) * D(k,a)"
    layouts = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
    candidate = copy_candidates(expression, layouts, True)[0]
    with pytest.raises(SpfError, match="made for another expression"):
        spf.compile("A(j,a) = B(i,j,k) * C(i,a) * D(k,a) * E(k,a)", {**layouts, "E": "Dense"}, schedule=candidate)


def test_hand_written_tree_over_a_copy():
    """CoNST's order for the chain, written by hand over C copied as C(k,q,r)."""
    expression = "R(i,j,k) = A(i,p,q) * B(j,p,r) * C(q,k,r) * D(j,k,r)"
    layouts = {"R": "Dense", "A": "CSF3", "B": "CSF3", "C": "CSF3", "D": "CSF3"}
    tree = ("i, j < T_AB(q,r) ; p, q, r : T_AB(q,r) += A(i,p,q) * B(j,p,r) , k < T_ABC(r) ; q, r : "
            "T_ABC(r) += T_AB(q,r) * C(k,q,r) , r : R(i,j,k) += T_ABC(r) * D(j,k,r) > >")
    candidate = spf.schedule(tree, expression, layouts, mode_orders={"C": (1, 0, 2)})
    assert candidate.mode_orders == (("C", (1, 0, 2)),) and str(candidate.schedule) == tree
    T = random_tensor((4, 5, 4), 30, 6)
    dense = dense_of(*T)
    np.testing.assert_allclose(spf.compile(expression, layouts, schedule=candidate)(A=T, B=T, C=T, D=T),
                               np.einsum("ipq,jpr,qkr,jkr->ijk", dense, dense, dense, dense))
    with pytest.raises(spf.SpfError):
        spf.schedule(tree, expression, layouts)  # C(k,q,r) is not C as the expression reads it
