"""The run-time choice's operand sizes (spf/runtime/autoschedule.py, operand_sizes): the stored
counts of each sparse operand's levels equal ``np.unique``'s on its stored entries whatever
form it is given in (a Tensor storing the levels, a Tensor storing them in another order,
scipy matrices, coordinate triples, dense arrays), and ``select`` picks what it picks from
those counts; the kernels of the autoscheduler's own tests live in tests/scheduling."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

import spf
from conftest import load_matrix, load_tensor
from spf.errors import AutoscheduleError
from spf.runtime.autoschedule import operand_sizes
from spf.scheduling.autoscheduler.cost import count_symbols, dimension_symbol
from spf.scheduling.autoscheduler.problem import make_problem

MTTKRP = ("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)", {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"})
# B's levels are compressed (DCSR: rows then columns, DCSC: columns then rows), so the costs read nnz_B_i or nnz_B_j
SPMM_CHAIN = ("A(i,l) = B(i,j) * C(j,k) * D(k,l)", {"A": "Dense", "B": "DCSR", "C": "Dense", "D": "Dense"})
SPMM_CHAIN_DCSC = ("A(i,l) = B(i,j) * C(j,k) * D(k,l)", {"A": "Dense", "B": "DCSC", "C": "Dense", "D": "Dense"})


def unique_sizes(problem, coords: np.ndarray, shapes: dict) -> dict:
    """The definition: extents from the shapes, nnz_B, nnz_B_i, ... by np.unique over the
    prefixes of B's stored coordinates taken in B's storage order."""
    sizes = {dimension_symbol(index): float(extent) for factor in problem.factors
             for index, extent in zip(factor.indices, shapes[factor.name])}
    operand = next(f for f in problem.factors if f.sparse)
    columns = [operand.indices.index(level) for level in operand.levels]
    for depth in range(len(operand.levels)):
        symbols = count_symbols(operand, depth)
        if len(symbols) == 1 and symbols[0].startswith("nnz_"):
            prefix = coords[:, columns[:depth + 1]]
            sizes[symbols[0]] = float(max(len(np.unique(prefix, axis=0)) if len(prefix) else 0, 1))
    sizes[f"sparsity_{operand.name}"] = len(coords) / max(1.0, float(np.prod(shapes[operand.name])))
    return sizes


def dense_factors(shape_of_b: tuple[int, ...], indices: dict, width: int = 3) -> dict:
    """Random dense operands whose extents agree with B's."""
    rng = np.random.default_rng(0)
    return {name: rng.random(tuple(shape_of_b[axes] if isinstance(axes, int) else width for axes in spec))
            for name, spec in indices.items()}


def order3_data():
    rng = np.random.default_rng(5)
    dense = np.where(rng.random((6, 5, 7)) < 0.15, rng.random((6, 5, 7)) + 0.5, 0.0)
    dense[2] = 0.0  # an empty slice, and fibres that repeat their (i, k)
    return dense


def test_every_form_of_an_order3_operand_gives_the_same_counts():
    expression, layouts = MTTKRP
    problem = make_problem(expression, layouts)
    dense = order3_data()
    coords = np.argwhere(dense != 0)
    triple = (coords, dense[tuple(coords.T)], dense.shape)
    others = dense_factors(dense.shape, {"C": (1, "j"), "D": (2, "j")})
    expected = unique_sizes(problem, coords, {"B": dense.shape, "C": others["C"].shape, "D": others["D"].shape})
    assert expected["nnz_B_i"] < dense.shape[0] and expected["nnz_B_ik"] < expected["nnz_B"]
    forms = {"CSF3": spf.pack("CSF3", triple, name="B"), "COO3": spf.pack("COO3", triple, name="B"),
             "CSF3_DENSE_LAST": spf.pack("CSF3_DENSE_LAST", triple, name="B"), "triple": triple, "dense": dense}
    for form, value in forms.items():
        assert operand_sizes(problem, dict(others, B=value)) == expected, form


def test_a_tensor_storing_the_levels_in_another_order_is_counted_from_its_entries():
    """B passed for a DCSR operand while stored as CSC or COO: the counts are still B's
    nonempty rows, then its entries."""
    rng = np.random.default_rng(2)
    rows, cols = rng.integers(0, 9, 20), rng.integers(0, 6, 20)
    rows[rows == 4] = 5  # an empty row
    matrix = scipy.sparse.coo_matrix((rng.random(20) + 0.5, (rows, cols)), shape=(9, 6)).tocsr()
    expression, layouts = SPMM_CHAIN
    problem = make_problem(expression, layouts)
    others = dense_factors(matrix.shape, {"C": (1, "k"), "D": ("k", "l")})
    shapes = {"B": matrix.shape, "C": others["C"].shape, "D": others["D"].shape}
    expected = unique_sizes(problem, np.argwhere(matrix.toarray() != 0), shapes)
    assert expected["nnz_B_i"] < matrix.shape[0]
    for layout in ["CSR", "CSC", "DCSR", "COO"]:
        tensor = spf.pack(layout, matrix, name="B")
        assert operand_sizes(problem, dict(others, B=tensor)) == expected, layout


@pytest.mark.parametrize("kernel", [SPMM_CHAIN, SPMM_CHAIN_DCSC])
@pytest.mark.parametrize("form", ["csr", "csc", "coo", "bsr", "lil", "csr with repeats"])
def test_scipy_operands_are_counted_like_their_coordinates(kernel, form):
    """Nonempty rows or columns and distinct pairs, whichever the operand stores first,
    with explicit zeros and (in a raw CSR) repeated, unsorted coordinates counted as stored."""
    rng = np.random.default_rng(7)
    rows, cols = rng.integers(0, 8, 30), rng.integers(0, 5, 30)
    rows[rows == 3] = 4  # an empty row
    values = np.where(rng.random(30) < 0.2, 0.0, 1.0)
    if form == "csr with repeats":
        order = np.argsort(rows, kind="stable")
        pointer = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=8))])
        matrix = scipy.sparse.csr_matrix((values[order], cols[order], pointer), shape=(8, 5))
    else:
        matrix = scipy.sparse.coo_matrix((values, (rows, cols)), shape=(8, 5)).asformat(form)
    coo = matrix.tocoo()
    expression, layouts = kernel
    problem = make_problem(expression, layouts)
    others = dense_factors(matrix.shape, {"C": (1, "k"), "D": ("k", "l")})
    shapes = {"B": matrix.shape, "C": others["C"].shape, "D": others["D"].shape}
    expected = unique_sizes(problem, np.stack([coo.row, coo.col], axis=1), shapes)
    assert {"nnz_B", "nnz_B_" + problem.factors[0].levels[0]} <= set(expected)
    assert operand_sizes(problem, dict(others, B=matrix)) == expected


def test_unreadable_coordinates_are_refused():
    expression, layouts = MTTKRP
    problem = make_problem(expression, layouts)
    with pytest.raises(AutoscheduleError, match="cannot read operand B"):
        operand_sizes(problem, {"B": (np.zeros((4, 5)), np.ones(4), (3, 3, 3))})


# ----------------------------------------------------------------------------- the choice


_searches: dict = {}


def search(kernel):
    expression, layouts = kernel
    if expression + str(layouts) not in _searches:
        _searches[expression + str(layouts)] = spf.autoschedule(expression, layouts, progress=lambda line: None)
    return _searches[expression + str(layouts)]


@pytest.mark.parametrize("matrix", ["west0479", "lp_e226"])
@pytest.mark.parametrize("form", ["scipy", "Tensor"])
def test_select_on_a_real_matrix_picks_what_the_unique_counts_pick(matrix, form):
    data = load_matrix(matrix)
    result = search(SPMM_CHAIN)
    others = dense_factors(data.shape, {"C": (1, "k"), "D": ("k", "l")}, width=16)
    shapes = {"B": data.shape, "C": others["C"].shape, "D": others["D"].shape}
    coo = data.tocoo()
    expected = unique_sizes(result.problem, np.stack([coo.row, coo.col], axis=1), shapes)
    operand = data if form == "scipy" else spf.pack("CSR", data, name="B")
    assert result.sizes(B=operand, **others) == expected
    assert result.select(B=operand, **others) is result.select(sizes=expected)


@pytest.mark.parametrize("tensor", ["nations", "umls"])
def test_select_on_a_real_tensor_picks_what_the_unique_counts_pick(tensor):
    coords, values, shape = load_tensor(tensor)
    result = search(MTTKRP)
    others = dense_factors(shape, {"C": (1, "j"), "D": (2, "j")}, width=16)
    shapes = {"B": shape, "C": others["C"].shape, "D": others["D"].shape}
    expected = unique_sizes(result.problem, coords, shapes)
    B = spf.pack("CSF3", (coords, values, shape), name="B")
    assert result.sizes(B=B, **others) == expected
    assert result.select(B=B, **others) is result.select(sizes=expected)


def test_a_scalar_output_is_refused_when_searched():
    """Fused schedules write an output with indices: a scalar product is refused by
    autoschedule itself (it compiled no kernel before: the refusal came from spf.compile)."""
    with pytest.raises(AutoscheduleError, match="the output s is a scalar"):
        spf.autoschedule("s = A(i,j) * B(j,k) * C(k)", {"A": "CSR", "B": "CSR", "C": "Dense1", "s": "Dense"})


def test_an_operand_read_on_a_diagonal_is_refused_when_searched():
    """B(k,k,j): the search's level model tells axes apart by their indices; it is refused
    up front (it raised StopIteration proposing mode orders, or a ScheduleError costing)."""
    layouts = {"A": "CSR", "B": "CSF3", "C": "CSR", "y": "Dense1"}
    with pytest.raises(AutoscheduleError, match="tensor B is read on a diagonal"):
        spf.autoschedule("y(i) = A(i,k) * C(j,k) * B(k,k,j)", layouts, progress=lambda line: None)
