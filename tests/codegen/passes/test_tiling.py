"""Tiling (strip-mining) recipes: the Fig. 8 tile guard, positional tiles, correctness."""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from tests.conftest import load_matrix

SPMV = "y(i) = A(i,j) * x(j)"
CSR_SV = {"A": "CSR", "x": "SV", "y": "Dense"}
CSR_DENSE = {"A": "CSR", "x": "Dense", "y": "Dense"}


def random_inputs(seed: int = 0):
    matrix = sparse.random(120, 90, density=0.08, format="csr", random_state=seed)
    vector = np.zeros(90)
    vector[np.random.default_rng(seed).choice(90, size=25, replace=False)] = 1.5
    return matrix, vector


def compiled(recipe):
    return spf.compile(recipe.expression, dict(recipe.layouts), share=recipe.share_map, schedule=recipe)


def test_tile_adds_a_tile_variable_before_the_tiled_one():
    r = spf.recipe(SPMV, CSR_SV).tile("px", 8)
    assert r.variables[r.variables.index("px") - 1] == "px_tile"
    assert "tile('px', 8)" in str(r)


def test_linear_find_over_a_tiled_sorted_vector_gets_the_fig8_guard():
    """Fig. 8: if (f[LB] <= k && f[UB] >= k) for (i = LB; i <= UB; ++i) if (f[i] == k) ..."""
    r = spf.recipe(SPMV, CSR_SV).find("x", "linear").tile("px", 8)
    kernel = compiled(r)
    source = kernel.c_source
    tile_loop = source.index("for (int64_t px_tile")
    guard = re.search(r"if \(\(\((tile_low_\d+) <= (tile_high_\d+)\) && \(x_idx\[\1\] <= (key_\d+)\)\) "
                      r"&& \(x_idx\[\2\] >= \3\)\)", source)
    assert guard is not None and guard.start() > tile_loop
    inner = source.index("for (int64_t px = 8 * px_tile", guard.end())
    assert source.index("== x_idx_px", inner)  # the inner guard stays: the tile test is necessary only
    matrix, vector = random_inputs()
    assert np.allclose(kernel(A=matrix, x=vector), matrix @ vector)
    assert "Fig. 8" in kernel.explain()


def test_no_tile_guard_on_an_unsorted_vector():
    layouts = {"A": "CSR", "x": "SV_UNSORTED", "y": "Dense"}
    kernel = compiled(spf.recipe(SPMV, layouts).find("x", "linear").tile("px", 8))
    assert "tile_low" not in kernel.c_source
    matrix, vector = random_inputs(1)
    assert np.allclose(kernel(A=matrix, x=vector), matrix @ vector)


@pytest.mark.parametrize("size", [1, 2, 7, 64, 1000])
def test_tiled_results_equal_untiled(size):
    matrix, vector = random_inputs(2)
    # with tiles of one position px is assigned from its tile, so no find remains to ask for
    linear = spf.recipe(SPMV, CSR_SV).find("x", "linear") if size > 1 else spf.recipe(SPMV, CSR_SV)
    for recipe in (linear.tile("px", size),
                   spf.recipe(SPMV, CSR_SV).tile("pAj", size),
                   spf.recipe(SPMV, CSR_SV).tile("pAi", size).parallelize("pAi_tile")):
        assert np.allclose(compiled(recipe)(A=matrix, x=vector), matrix @ vector)


def test_positional_tiles_of_a_coo_matrix_run_in_parallel_with_a_reduction():
    """Tiling COO's position loop splits the nonzeros into blocks of positions."""
    layouts = {"A": "COO", "x": "Dense", "y": "Dense"}
    r = spf.recipe(SPMV, layouts).tile("pA", 256).parallelize("pA_tile", reduction="privatize")
    kernel = compiled(r)
    assert "spf_threads()) * y_N0" in kernel.c_source  # per-thread copies of y
    matrix = load_matrix("west0479")
    x = np.arange(matrix.shape[1], dtype=float)
    assert np.allclose(kernel(A=matrix, x=x), matrix @ x)


def test_tiled_row_loop_is_parallel_on_real_data():
    r = spf.recipe(SPMV, CSR_DENSE).tile("pAi", 32).parallelize("pAi_tile")
    kernel = compiled(r)
    assert "omp parallel for" in kernel.c_source
    matrix = load_matrix("bcsstk13")
    x = np.random.default_rng(0).random(matrix.shape[1])
    assert np.allclose(kernel(A=matrix, x=x), matrix @ x)


@pytest.mark.parametrize("step, message", [
    (lambda r: r.tile("zz", 8), "not a variable"),
    (lambda r: r.tile("px", 0), "positive integer"),
    (lambda r: r.tile("px", 2).tile("px", 2), "already tiled"),
])
def test_bad_tiles_are_refused(step, message):
    with pytest.raises(spf.RecipeError, match=message):
        step(spf.recipe(SPMV, CSR_SV))
