"""Transformation recipes (spf.scheduling.recipe): the recipe object, the checks of each step, the
refusals at compile time, and the results of legal recipes.

1. A recipe is immutable: each step returns a new recipe (the original is unchanged),
   steps chain, and a recipe prints as the chain that made it.
2. Each step checks what it can at once: unknown variables, incomplete or repeated
   permutations, unknown find templates and targets, unknown reductions, a second
   parallel loop.
3. Legality is decided when the kernel is compiled; illegal recipes are refused with a
   message that names the step and the reason: a parallel loop that carries a
   dependence without a reduction, a variable that is not a loop, a find template that
   is not proven (FindRefused naming the failed assumption), an order that cannot be
   scanned, a recipe compiled with other layouts, expression or share.  (A find whose
   state crosses the parallel loop is legal: each thread keeps its own, test_parallel.py.)
4. Legal recipes compute the right result (random matrices with empty rows and
   columns, and real matrices from ../shared/data): SpMSpV with hashmap and binary
   finds and a parallel row loop, the x-driven order for CSC, COO SpMV parallel with
   privatized and atomic updates, the dot product with a scalar reduction.
"""

from __future__ import annotations

import os

os.environ["OMP_NUM_THREADS"] = "2"  # before any kernel library (and so OpenMP) is loaded

import dataclasses
import re

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from conftest import REAL_MATRICES, documented_finds, load_matrix, require_data
from spf.errors import FindRefused, RecipeError
from spf.scheduling.recipe import Recipe

SPMV = "y(i) = A(i,j) * x(j)"
DOT = "a = b(i) * c(i)"
CSR_SV = {"A": "CSR", "x": "SV", "y": "Dense"}
CSC_SV = {"A": "CSC", "x": "SV", "y": "Dense"}
CSR_ROW_ORDER = ("pAi", "i", "py0", "pAj", "j", "px")
CSC_X_DRIVEN = ("px", "j", "pAj", "pAi", "i", "py0")


def spmv_layouts(layout: str) -> dict:
    return {"A": layout, "x": "Dense", "y": "Dense"}


_kernels: dict = {}


def compiled(recipe: Recipe, **options):
    """The kernel of a recipe, compiled once per module."""
    key = (str(recipe), recipe.layouts, recipe.share, repr(sorted(options.items())))
    if key not in _kernels:
        _kernels[key] = spf.compile(recipe.expression, recipe.layout_map, share=recipe.share_map or None,
                                    schedule=recipe, **options)
    return _kernels[key]


def pragmas(source: str) -> list[tuple[str, str]]:
    """(OpenMP pragma, the line after it) for each pragma of the C, but the one that zeroes
    the output on the kernel's threads before a parallel nest (tested in test_zeroing)."""
    lines = [line.strip() for line in source.splitlines()]
    return [(line, lines[n + 1]) for n, line in enumerate(lines)
            if line.startswith("#pragma omp") and not lines[n + 1].startswith("for (int64_t spf_zero = 0;")]


def assert_heap_private_copies(source: str) -> None:
    """A privatized output: per-thread copies on the heap (not an OpenMP array reduction, whose
    copies live on the threads' stacks and overflow them for large outputs), merged after."""
    assert re.search(r"calloc\(\(\(size_t\) spf_threads\(\)\) \* y_N0", source)
    assert re.search(r"double \* restrict y_vals = copies_\d+ \+", source)
    assert "reduction(+: y_vals" not in source


def loop_lines(source: str, variables) -> list[str]:
    """The loops over iteration-space variables in the C, in order (not zeroing or table fills)."""
    found = re.findall(r"for \(int64_t (\w+) =", source[source.index("int spf_kernel"):])
    return [v for v in found if v in variables]


# ============================================================================= 1. the object


def test_recipe_knows_its_iteration_space_variables():
    assert spf.recipe(SPMV, CSR_SV).variables == CSR_ROW_ORDER
    assert set(spf.recipe(SPMV, CSC_SV).variables) == set(CSC_X_DRIVEN)
    assert spf.recipe(SPMV, spmv_layouts("COO")).variables[0] == "pA"
    r = spf.recipe(SPMV, CSR_SV)
    assert (r.expression, r.layout_map, r.share_map, r.order, r.finds, r.parallel) == \
        (SPMV, CSR_SV, {}, None, (), ())


def test_steps_are_pure():
    original = spf.recipe(SPMV, CSR_SV)
    snapshot = dataclasses.replace(original)
    permuted = original.permute(*CSR_ROW_ORDER)
    found = original.find("x", "hashmap")
    parallel = original.parallelize("pAi")
    assert original == snapshot
    assert (original.order, original.finds, original.parallel) == (None, (), ())
    assert permuted is not original and permuted.order == CSR_ROW_ORDER
    assert found.finds == (("x", "hashmap"),) and found.order is None
    assert parallel.parallel == (("pAi", None),) and parallel.finds == ()
    # steps on a derived recipe leave the derived recipe unchanged too
    both = found.find("px", "binary")
    assert found.finds == (("x", "hashmap"),)
    assert both.finds == (("x", "hashmap"), ("px", "binary"))
    assert permuted.variables == found.variables == original.variables


def test_recipes_are_immutable_and_hashable():
    r = spf.recipe(SPMV, CSR_SV).find("x", "seqiter")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.order = CSR_ROW_ORDER
    assert hash(r) == hash(spf.recipe(SPMV, CSR_SV).find("x", "seqiter"))
    assert r != spf.recipe(SPMV, CSR_SV).find("x", "binary")


def test_steps_chain_and_print_as_the_chain():
    r = (spf.recipe(SPMV, CSR_SV)
         .permute(*CSR_ROW_ORDER)
         .find("x", "hashmap")
         .parallelize("pAi"))
    assert isinstance(r, Recipe)
    assert str(r) == ("recipe('y(i) = A(i,j) * x(j)').permute(pAi, i, py0, pAj, j, px)"
                      ".find('x', 'hashmap').parallelize('pAi')")
    reduced = spf.recipe(SPMV, spmv_layouts("COO")).parallelize("pA", reduction="atomic")
    assert str(reduced) == "recipe('y(i) = A(i,j) * x(j)').parallelize('pA', reduction='atomic')"
    assert str(spf.recipe(DOT, {"b": "Dense", "c": "Dense"})) == "recipe('a = b(i) * c(i)')"
    assert "Recipe(" in repr(r)


def test_permute_accepts_a_list_or_tuple():
    r = spf.recipe(SPMV, CSR_SV)
    assert r.permute(list(CSR_ROW_ORDER)).order == r.permute(CSR_ROW_ORDER).order == r.permute(*CSR_ROW_ORDER).order


# ============================================================================= 2. step checks


@pytest.mark.parametrize("step, message", [
    (lambda r: r.permute("pAi", "i", "py0", "pAj", "j", "pz"), r"unknown \['pz'\]; missing \['px'\]"),
    (lambda r: r.permute("pAi", "i", "py0"), r"missing \['pAj', 'j', 'px'\]"),
    (lambda r: r.permute(), r"missing \['pAi', 'i', 'py0', 'pAj', 'j', 'px'\]"),
    (lambda r: r.permute(*CSR_ROW_ORDER, "px"), r"repeated \['px'\]"),
    (lambda r: r.find("x", "bisection"), r"unknown template 'bisection'; choose one of direct, seqiter, hashmap, bitmap, binary, linear"),
    (lambda r: r.find("z", "seqiter"), r"'z' is neither a tensor of the statement nor a variable"),
    (lambda r: r.parallelize("k"), r"'k' is not a variable of the iteration space \(pAi, i, py0, pAj, j, px\)"),
    (lambda r: r.parallelize("pAi", reduction="sum"), r"unknown reduction 'sum'; choose 'privatize' or 'atomic'"),
    (lambda r: r.parallelize("pAi").parallelize("pAj", reduction="atomic"),
     r"loop pAi is already parallel; nested parallel loops are not supported"),
], ids=["unknown variable", "incomplete permutation", "empty permutation", "repeated variable",
        "unknown template", "unknown find target", "unknown parallel variable", "unknown reduction",
        "second parallel loop"])
def test_malformed_steps_are_refused_at_once(step, message):
    r = spf.recipe(SPMV, CSR_SV)
    with pytest.raises(RecipeError, match=message) as error:
        step(r)
    assert isinstance(error.value, spf.SpfError)
    assert str(error.value).split(":")[0] in ("permute", "find", "parallelize")  # names the step


def test_a_find_over_a_dense_tensor_is_refused_at_once():
    """A dense x has no index arrays, so no find searches it: refused when the step is added
    (it used to fail only inside spf.compile), naming the tensors a find can search."""
    r = spf.recipe(SPMV, {"A": "CSR", "x": "Dense", "y": "Dense"})
    with pytest.raises(RecipeError, match=r"^find: tensor x is stored in Dense1, which has no index arrays.*here A\)$"):
        r.find("x", "hashmap")
    assert r.find("A", "binary").finds == (("A", "binary"),)


def test_every_documented_template_is_accepted():
    r = spf.recipe(SPMV, CSR_SV)
    templates = [find for find in documented_finds() if find != "auto"]
    assert len(templates) == 6
    for template in templates:
        assert r.find("x", template).finds == (("x", template),)


def test_recipes_schedule_one_term():
    with pytest.raises(RecipeError, match="one product term; this expression has 2 terms"):
        spf.recipe("y(i) = A(i,j) * x(j) + B(i,j) * x(j)", {"A": "CSR", "B": "CSR", "x": "Dense", "y": "Dense"})


def test_schedule_must_be_a_recipe():
    with pytest.raises(spf.SpfError, match="schedule must be a recipe"):
        spf.compile(SPMV, CSR_SV, schedule="permute(pAi, i, py0, pAj, j, px)")


def test_order_in_the_recipe_and_as_an_argument_is_refused():
    r = spf.recipe(SPMV, CSR_SV).permute(*CSR_ROW_ORDER)
    with pytest.raises(RecipeError, match="either as order= or in the recipe, not both"):
        spf.compile(SPMV, CSR_SV, schedule=r, order=CSR_ROW_ORDER)


# ============================================================================= 3. refusals


def test_refused_parallel_loop_carrying_a_dependence():
    r = spf.recipe(SPMV, spmv_layouts("CSR")).parallelize("pAj")
    with pytest.raises(RecipeError) as error:
        compiled(r)
    message = str(error.value)
    assert message.startswith("parallelize('pAj') is forbidden by the dependence")
    assert "loop pAj carries a dependence: with pAi = pAi', iterations pAj < pAj' update the same element of y(i)" \
        in message
    assert "give reduction='privatize' or 'atomic'" in message


@pytest.mark.parametrize("recipe, loop", [
    (lambda: spf.recipe(SPMV, spmv_layouts("COO")).parallelize("pA"), "pA"),
    (lambda: spf.recipe(SPMV, spmv_layouts("CSC")).parallelize("pAj"), "pAj"),
    (lambda: spf.recipe(DOT, {"b": "Dense", "c": "Dense"}).parallelize("pb0"), "pb0"),
    (lambda: spf.recipe(SPMV, CSC_SV).permute(*CSC_X_DRIVEN).parallelize("px"), "px"),
], ids=["COO", "CSC", "dot", "CSC x-driven"])
def test_refused_reductions_without_a_strategy(recipe, loop):
    with pytest.raises(RecipeError, match=rf"parallelize\('{loop}'\) is forbidden by the dependence: "
                                          rf"loop {loop} carries a dependence"):
        compiled(recipe())


@pytest.mark.parametrize("variable, how", [("i", "assigned"), ("py0", "assigned"), ("px", "found")])
def test_refused_parallel_variable_that_is_not_a_loop(variable, how):
    r = spf.recipe(SPMV, CSR_SV).parallelize(variable)
    with pytest.raises(RecipeError, match=rf"parallelize\('{variable}'\): {variable} is not a loop in this order "
                                          r"\(it is assigned or found\)"):
        compiled(r)


@pytest.mark.parametrize("template, assumption", [("seqiter", "x_idx is not proven strictly monotonic"),
                                                  ("binary", "x_idx is not proven monotonic")])
def test_refused_find_template_names_the_failed_assumption(template, assumption):
    layouts = {"A": "CSR", "x": "SV_UNSORTED", "y": "Dense"}
    r = spf.recipe(SPMV, layouts).find("x", template)
    with pytest.raises(FindRefused) as error:
        compiled(r)
    message = str(error.value)
    assert message.startswith(f"find={template!r} is not valid for x_idx(px) == A_colIdx(pAj) (find over px)")
    assert assumption in message


def test_unsorted_vector_with_a_hashmap_find_is_legal():
    layouts = {"A": "CSR", "x": "SV_UNSORTED", "y": "Dense"}
    matrix = random_matrix(30, 40, 0.2, seed=3)
    x = sparse_vector(np.random.default_rng(4), 40, 12)
    coords, values, n = x
    order = np.random.default_rng(5).permutation(len(values))  # unsorted indices
    k = compiled(spf.recipe(SPMV, layouts).find("x", "hashmap").parallelize("pAi"))
    np.testing.assert_allclose(k(A=matrix, x=(coords[order], values[order], n)), matrix @ dense(x), rtol=1e-12)


@pytest.mark.parametrize("order", [("pAj", "pAi", "i", "py0", "j", "px"), ("pAj", "j", "pAi", "i", "py0", "px")])
def test_refused_order_that_cannot_be_scanned(order):
    r = spf.recipe(SPMV, CSR_SV).permute(*order)
    with pytest.raises(RecipeError) as error:
        compiled(r)
    message = str(error.value)
    assert message.startswith(f"permute({', '.join(order)}) cannot be scanned: ")
    assert "pAj has no lower bound at its level of the loop order" in message


@pytest.mark.parametrize("expression, layouts, share", [
    (SPMV, {"A": "CSC", "x": "SV", "y": "Dense"}, None),
    (SPMV, {"A": "CSR", "x": "Dense", "y": "Dense"}, None),
    ("y(j) = A(i,j) * x(i)", CSR_SV, None),
    (SPMV, CSR_SV, {"y": "A"}),
], ids=["other matrix layout", "other vector layout", "other expression", "other share"])
def test_refused_recipe_made_for_other_layouts(expression, layouts, share):
    r = spf.recipe(SPMV, CSR_SV).find("x", "hashmap")
    with pytest.raises(RecipeError, match=r"the recipe was made for another expression, layouts or share: "
                                          r"'y\(i\) = A\(i,j\) \* x\(j\)' with \{'A': 'CSR', 'x': 'SV', 'y': 'Dense'\}"):
        spf.compile(expression, layouts, share=share, schedule=r)


# ============================================================================= 4. legal recipes


def random_matrix(rows: int, cols: int, density: float, seed: int) -> sp.csr_matrix:
    """Random values of both signs; every third row and the second column empty."""
    matrix = sp.random(rows, cols, density, format="lil", random_state=seed,
                       data_rvs=lambda n: np.random.default_rng(seed).uniform(-2, 2, n))
    for i in range(0, rows, 3):
        matrix[i, :] = 0
    if cols > 1:
        matrix[:, 1] = 0
    matrix = sp.csr_matrix(matrix)
    matrix.eliminate_zeros()
    return matrix


def sparse_vector(rng, n: int, count: int) -> tuple:
    indices = np.sort(rng.choice(n, size=min(count, n), replace=False))
    return indices.reshape(-1, 1).astype(np.int64), rng.uniform(-1, 1, len(indices)), (n,)


def dense(vector: tuple) -> np.ndarray:
    coords, values, (n,) = vector
    result = np.zeros(n)
    result[coords[:, 0]] = values
    return result


def assert_close(actual, expected) -> None:
    expected = np.asarray(expected, dtype=float)
    np.testing.assert_allclose(np.asarray(actual, dtype=float), expected, rtol=1e-10,
                               atol=1e-10 * max(1.0, float(np.abs(expected).max(initial=0.0))))


RANDOM = {"random 40x50": (40, 50, 0.15), "random 7x1": (7, 1, 0.5), "random 1x9": (1, 9, 0.5),
          "empty 5x6": (5, 6, 0.0)}
MATRIX_CASES = [f"random:{name}" for name in RANDOM] + REAL_MATRICES


def case_matrix(case: str) -> sp.csr_matrix:
    if case.startswith("random:"):
        rows, cols, density = RANDOM[case[len("random:"):]]
        return random_matrix(rows, cols, density, seed=rows * 100 + cols)
    require_data()
    return load_matrix(case)


def spmspv_recipes() -> dict:
    base = spf.recipe(SPMV, CSR_SV)
    return {
        "hashmap": base.find("x", "hashmap"),
        "binary, parallel rows": base.permute(*CSR_ROW_ORDER).find("x", "binary").parallelize("pAi"),
        "hashmap, parallel rows": base.find("x", "hashmap").parallelize("pAi"),
        "seqiter on the find variable, parallel rows": base.find("px", "seqiter").parallelize("pAi"),
        "CSC x-driven": spf.recipe(SPMV, CSC_SV).permute(*CSC_X_DRIVEN),
    }


@pytest.mark.parametrize("name", list(spmspv_recipes()))
def test_spmspv_recipe_shape(name):
    r = spmspv_recipes()[name]
    k = compiled(r)
    explanation = k.explain()
    if r.parallel:
        assert pragmas(k.c_source) == [("#pragma omp parallel for schedule(dynamic,32)", "for (int64_t pAi = 0; "
                                        "pAi <= (A_numRows - 1); pAi++)")] * len(k.kernels)
        assert k.dependences == ["loop pAi: no two iterations update the same element of y(i)"]
        assert "for pAi in 0 .. A_numRows - 1 (parallel):" in explanation
    else:
        assert "#pragma omp" not in k.c_source
    if r.order:
        nest = explanation.split("loop nest:")[1]
        first_loop = next(line for line in nest.splitlines() if line.strip().startswith("for "))
        assert first_loop.strip().startswith(f"for {r.order[0]} in ")  # explain() shows the chosen nest
        assert loop_lines(k.c_source, r.variables)[0] == r.order[0]
    template = dict(r.finds).get("x") or dict(r.finds).get("px")
    if template and not r.layout_map["A"] == "CSC":
        searches = {"hashmap": "hash", "binary": "binary search", "seqiter": "sequential"}
        assert len(k.kernels) == 1
        assert f"[{searches[template]}" in explanation.split("finds:")[0] or template in explanation


def test_csc_x_driven_order_drives_the_loops_from_x():
    k = compiled(spmspv_recipes()["CSC x-driven"])
    loops = loop_lines(k.c_source, CSC_X_DRIVEN)
    assert loops[0] == "px"  # x's nonzeros drive the computation
    assert "pAj" not in loops  # the column of A is the column of x's entry: no search over columns


@pytest.mark.parametrize("case", MATRIX_CASES)
@pytest.mark.parametrize("name", list(spmspv_recipes()))
def test_spmspv_recipe_results(name, case):
    matrix = case_matrix(case)
    n = matrix.shape[1]
    x = sparse_vector(np.random.default_rng(n), n, max(1, n // 8))
    k = compiled(spmspv_recipes()[name])
    assert_close(k(A=matrix, x=x), matrix @ dense(x))


def test_explain_prints_the_chosen_order():
    r = spf.recipe(SPMV, CSC_SV).permute(*CSC_X_DRIVEN)
    assert f"order: {', '.join(CSC_X_DRIVEN)}" in compiled(r).explain()


def test_later_find_step_wins():
    r = spf.recipe(SPMV, CSR_SV).find("x", "seqiter").find("x", "hashmap")
    (report,) = compiled(r).reports
    assert report.chosen.kind == "hashmap"


def test_recipe_order_is_the_order_argument():
    r = spf.recipe(SPMV, CSC_SV).permute(*CSC_X_DRIVEN)
    by_argument = spf.compile(SPMV, CSC_SV, order=CSC_X_DRIVEN)
    assert loop_lines(compiled(r).c_source, r.variables) == loop_lines(by_argument.c_source, r.variables)
    assert loop_lines(by_argument.c_source, r.variables)[0] == "px"


def coo_recipe(reduction: str) -> Recipe:
    return spf.recipe(SPMV, spmv_layouts("COO")).parallelize("pA", reduction=reduction)


def test_coo_reductions_shape():
    privatized = compiled(coo_recipe("privatize"))
    assert_heap_private_copies(privatized.c_source)
    lines = pragmas(privatized.c_source)
    assert lines[1] == ("#pragma omp for schedule(dynamic,32)", "for (int64_t pA = 0; pA <= (A_nnz - 1); pA++)")
    atomic = compiled(coo_recipe("atomic"))
    lines = pragmas(atomic.c_source)
    assert lines[0] == ("#pragma omp parallel for schedule(dynamic,32)", "for (int64_t pA = 0; pA <= (A_nnz - 1); pA++)")
    assert lines[1][0] == "#pragma omp atomic" and lines[1][1].startswith("y_vals[py0] +=")
    for k in (privatized, atomic):
        assert k.dependences == ["loop pA carries a dependence: iterations pA < pA' update the same element of y(i)"]


@pytest.mark.parametrize("case", MATRIX_CASES)
@pytest.mark.parametrize("reduction", ["privatize", "atomic"])
def test_coo_spmv_parallel_results(reduction, case):
    matrix = case_matrix(case)
    x = np.random.default_rng(matrix.shape[1]).uniform(-1, 1, matrix.shape[1])
    assert_close(compiled(coo_recipe(reduction))(A=matrix, x=x), matrix @ x)


@pytest.mark.parametrize("case", [c for c in MATRIX_CASES if c.startswith("random:")] + ["west0479", "lp_e226"])
def test_csc_spmv_parallel_columns_with_privatized_rows(case):
    # the column loop carries a dependence: legal with per-thread copies of y
    matrix = case_matrix(case)
    x = np.random.default_rng(2).uniform(-1, 1, matrix.shape[1])
    k = compiled(spf.recipe(SPMV, spmv_layouts("CSC")).parallelize("pAj", reduction="privatize"))
    assert_heap_private_copies(k.c_source)
    assert_close(k(A=matrix, x=x), matrix @ x)


def test_reduction_is_not_used_on_a_free_loop():
    # pAi carries no dependence: the requested atomic updates are not needed and not emitted
    k = compiled(spf.recipe(SPMV, spmv_layouts("CSR")).parallelize("pAi", reduction="atomic"))
    assert pragmas(k.c_source) == [("#pragma omp parallel for schedule(dynamic,32)",
                                    "for (int64_t pAi = 0; pAi <= (A_numRows - 1); pAi++)")]
    matrix = random_matrix(40, 50, 0.15, seed=1)
    x = np.linspace(-1, 1, 50)
    assert_close(k(A=matrix, x=x), matrix @ x)


DOT_CASES = {
    "Dense": ({"b": "Dense", "c": "Dense"}, "pb0", None),
    "SV, binary": ({"b": "SV", "c": "SV"}, "pb", "binary"),
    "SV, hashmap": ({"b": "SV", "c": "SV"}, "pb", "hashmap"),
}


def dot_inputs(layouts: dict, n: int):
    rng = np.random.default_rng(n)
    if layouts["b"] == "Dense":
        b, c = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
        return b, c, b @ c
    b, c = sparse_vector(rng, n, n // 2), sparse_vector(rng, n, n // 3)
    return b, c, dense(b) @ dense(c)


@pytest.mark.parametrize("case", list(DOT_CASES))
@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100_003])
def test_dot_product_with_a_scalar_reduction(case, n):
    layouts, loop, template = DOT_CASES[case]
    r = spf.recipe(DOT, layouts)
    if template:
        r = r.find("c", template)
    k = compiled(r.parallelize(loop, reduction="privatize"))
    (pragma, _), = pragmas(k.c_source)
    assert pragma == "#pragma omp parallel for schedule(dynamic,32) reduction(+: a_sum)"
    b, c, expected = dot_inputs(layouts, n)
    result = k(b=b, c=c)
    assert isinstance(result, float)
    assert result == pytest.approx(expected, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("template", [None, "seqiter"], ids=["auto", "seqiter"])
def test_sparse_dot_product_with_a_seqiter_find_and_a_scalar_reduction(template):
    layouts = {"b": "SV", "c": "SV"}
    r = spf.recipe(DOT, layouts)
    if template:
        r = r.find("c", template)
    k = compiled(r.parallelize("pb", reduction="privatize"))
    b, c, expected = dot_inputs(layouts, 100_003)
    assert k(b=b, c=c) == pytest.approx(expected, rel=1e-10, abs=1e-10)


def test_find_step_without_a_find_in_that_order_is_refused():
    """Driven by x, the CSC order loops over x's positions: no find searches them."""
    r = spf.recipe(SPMV, CSC_SV).permute(*CSC_X_DRIVEN).find("x", "binary")
    with pytest.raises(spf.RecipeError, match=r"find\('x', 'binary'\): no find searches"):
        spf.compile(SPMV, CSC_SV, schedule=r)


def test_privatized_copies_of_a_large_output_do_not_overflow_thread_stacks():
    """3M output entries: an OpenMP array reduction put per-thread copies on the stack and crashed."""
    size = 3_000_000
    rows = np.arange(0, size, 997)
    matrix = sp.csr_matrix((np.ones(len(rows)), (rows, rows % 50)), shape=(size, 50))
    x = np.arange(50, dtype=float)
    assert_close(compiled(coo_recipe("privatize"))(A=matrix, x=x), matrix @ x)
