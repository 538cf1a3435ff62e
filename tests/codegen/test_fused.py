"""Lowering of schedule trees (spf/codegen/fused.py): every tree shape computes what the
unfused kernel computes.

Each tree below once gave a wrong result (issue 25): fused loops over indices the first
leaf under them does not read (a dense fused index outside sparse ones, or fused levels of
several sparse operands in different leaves), and SeqIter positions kept across the
iterations of the fused loops around a leaf (an unfused branch under fused loops).
"""

from __future__ import annotations

import numpy as np
import pytest

import spf
from spf.codegen.loops import Find, walk

from conftest import load_tensor
from fused_trees import CHAIN, CHAIN_LAYOUTS, CHAIN_TREES, CSF6, TTTC, TTTC_LAYOUTS, TTTC_TREES



def _sparse3(rng, shape, density):
    dense = rng.random(shape) * (rng.random(shape) < density)
    coords = np.argwhere(dense != 0)
    return (coords, dense[dense != 0], shape), dense


def _chain_data(seed: int = 5):
    rng = np.random.default_rng(seed)
    A, a = _sparse3(rng, (4, 5, 6), 0.3)
    B, b = _sparse3(rng, (3, 5, 4), 0.3)
    C, c = _sparse3(rng, (5, 6, 4), 0.3)
    D, d = _sparse3(rng, (3, 5, 4), 0.3)
    return {"A": A, "B": B, "C": C, "D": D}, np.einsum("ipq,jpr,kqr,jkr->ijk", a, b, c, d)


def _close(got, expected, what: str) -> None:
    scale = max(1.0, float(np.abs(expected).max()))
    error = float(np.abs(got - expected).max())
    assert error <= 1e-10 * scale, f"{what}: max error {error:.3g} against a largest value of {scale:.3g}"


@pytest.mark.parametrize("tree", CHAIN_TREES)
@pytest.mark.parametrize("parallel", [False, True])
def test_chain_trees_compute_the_unfused_result(tree, parallel):
    inputs, expected = _chain_data()
    kernel = spf.compile(CHAIN, CHAIN_LAYOUTS, schedule=spf.schedule(tree, CHAIN, CHAIN_LAYOUTS), parallel=parallel)
    _close(kernel(**inputs), expected, tree)


@pytest.mark.parametrize("tree", CHAIN_TREES[:3])
def test_chain_trees_on_nations(tree):
    """The CoNST chain on a real tensor (nations, 14x55x14; C with its first two modes swapped)."""
    coords, values, shape = load_tensor("nations")
    coords = np.asarray(coords)
    dense = np.zeros(shape)
    np.add.at(dense, tuple(coords.T), values)
    inputs = {"A": (coords, values, shape), "B": (coords, values, shape), "D": (coords, values, shape),
              "C": (coords[:, [1, 0, 2]], values, (shape[1], shape[0], shape[2]))}
    expected = np.einsum("ipq,jpr,kqr,jkr->ijk", dense, dense, dense.transpose(1, 0, 2), dense)
    kernel = spf.compile(CHAIN, CHAIN_LAYOUTS, schedule=spf.schedule(tree, CHAIN, CHAIN_LAYOUTS))
    _close(kernel(**inputs), expected, f"{tree} on nations")


@pytest.mark.parametrize("tree", TTTC_TREES)
def test_tttc_trees_compute_the_unfused_result(tree):
    rng = np.random.default_rng(5)
    shape = (4, 5, 3, 4, 3, 5)
    dense = rng.random(shape) * (rng.random(shape) < 0.2)
    coords = np.argwhere(dense != 0)
    rank = 3
    factors = {"A": rng.random((4, rank)), "B": rng.random((rank, 5, rank)), "C": rng.random((rank, 3, rank)),
               "D": rng.random((rank, 4, rank)), "E": rng.random((rank, 3, rank))}
    expected = np.einsum("ijklmn,ia,ajb,bkc,cld,dme->en", dense, *factors.values())
    kernel = spf.compile(TTTC, TTTC_LAYOUTS, schedule=spf.schedule(tree, TTTC, TTTC_LAYOUTS))
    _close(kernel(T=(coords, dense[dense != 0], shape), **factors), expected, tree)


def test_fused_loops_walk_every_fused_index():
    """``i, j, k, p`` fused above a producer that reads only C and D: the nest has a loop
    (or a find) for each of the four, not only for the indices of the first leaf."""
    tree = CHAIN_TREES[6]
    kernel = spf.compile(CHAIN, CHAIN_LAYOUTS, schedule=spf.schedule(tree, CHAIN, CHAIN_LAYOUTS))
    text = kernel.explain().split("loop nest:")[1]
    for position in ("pA0", "pB0", "pC0", "pA1"):
        assert f" {position} " in text, text


@pytest.mark.parametrize("find", ["seqiter", "auto"])
def test_a_seqiter_under_fused_loops_restarts_with_each_fused_iteration(find):
    """The producer of T_uv walks u and v, which no fused index reads, once per row of A: its
    SeqIter over v (keys increasing along u) is valid within one fused iteration only, so
    its positions restart in each (kept from the kernel's start, the second row found no
    match)."""
    import scipy.sparse as sparse
    expression = "Z(i) = A(i,j) * u(k) * v(k)"
    layouts = {"A": "CSR", "u": "SV", "v": "SV", "Z": "Dense"}
    tree = "i < T_uv() ; k : T_uv() += u(k) * v(k) , j : Z(i) += T_uv() * A(i,j) >"
    rng = np.random.default_rng(1)
    A = sparse.random(6, 5, density=0.5, format="csr", random_state=1)
    u, v = (sparse.coo_array(np.where(rng.random(9) < .6, rng.random(9), 0)) for _ in range(2))
    expected = A.toarray().sum(1) * (u.toarray() @ v.toarray())
    kernel = spf.compile(expression, layouts, schedule=spf.schedule(tree, expression, layouts), find=find)
    searches = [n for n in walk(kernel.nodes) if isinstance(n, Find) and n.template.kind == "seqiter"]
    assert searches and all(f.template.per_fused_iteration for f in searches), kernel.explain()
    _close(kernel(A=A, u=u, v=v), expected, tree)
