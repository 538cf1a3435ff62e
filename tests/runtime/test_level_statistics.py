"""Per-level statistics (spf/runtime/level_statistics.py): the distinct stored prefixes of each
storage level equal ``np.unique``'s count on the stored entries, for packed Tensors in
built-in and user layouts (one coordinate per level, coordinate lists, blocks, diagonals,
padding), for scipy matrices in every form, coordinate lists and dense arrays; on random
data and on real matrices and tensors from ../shared/data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse
from hypothesis import given, settings
from hypothesis import strategies as st

import spf
from conftest import load_matrix, load_tensor
from spf.runtime.level_statistics import (coordinate_prefix_counts, dense_prefix_counts, level_statistics,
                                          scipy_prefix_counts)
from spf.runtime.packing import borrow

USER_LAYOUTS = Path(__file__).resolve().parents[2] / "examples" / "layouts"
SETTINGS = settings(max_examples=20)


def by_axes(*axes):
    """The physical position of each level is fixed by one coordinate, in this order."""
    return lambda coords: [coords[:, [axis]] for axis in axes]


def one_level(coords):
    """A coordinate list: one physical index holds the whole coordinate."""
    return [coords]


def blocks(rows: int, columns: int):
    """BCSR: block row, block column, row in the block, column in the block."""
    return lambda c: [c[:, [0]] // rows, c[:, [1]] // columns, c[:, [0]] % rows, c[:, [1]] % columns]


def diagonals(coords):
    """DIA: the diagonal (j - i), then the row."""
    return [coords[:, [1]] - coords[:, [0]], coords[:, [0]]]


def user(name: str) -> str:
    return str(USER_LAYOUTS / f"{name}.layout")


# layout -> the values each physical level's position is fixed by, as columns of the coordinates
LEVEL_KEYS = {
    1: {"SV": by_axes(0), "SV_DEC": by_axes(0), "SV_UNSORTED": by_axes(0), "Dense1": by_axes(0),
        user("SV64_F32"): by_axes(0)},
    2: {"CSR": by_axes(0, 1), "CSR_UNSORTED": by_axes(0, 1), "CSC": by_axes(1, 0), "DCSR": by_axes(0, 1),
        "DCSC": by_axes(1, 0), "ELL": by_axes(0, 1), "Dense2": by_axes(0, 1), "COO": one_level,
        "COO_UNSORTED": one_level, "BCSR(R=2, C=3)": blocks(2, 3), "BCSR(R=1, C=1)": blocks(1, 1),
        "DIA": diagonals, user("CSR64"): by_axes(0, 1), user("DCSR64_F32"): by_axes(0, 1)},
    3: {"CSF3": by_axes(0, 1, 2), "CSF3_DENSE_LAST": by_axes(0, 1, 2), "COO3": one_level,
        "Dense3": by_axes(0, 1, 2), user("CSF3_F32"): by_axes(0, 1, 2), user("COO3_UNSORTED"): one_level},
    4: {"CSF4": by_axes(0, 1, 2, 3), "COO4": one_level, "Dense4": by_axes(0, 1, 2, 3)},
    6: {user("CSF6"): by_axes(0, 1, 2, 3, 4, 5)},
}
MAX_EXTENT = {1: 20, 2: 9, 3: 5, 4: 4, 6: 3}
CASES = [(order, layout) for order, layouts in LEVEL_KEYS.items() for layout in layouts]


def distinct_rows(columns: np.ndarray) -> int:
    return len(np.unique(columns, axis=0)) if len(columns) else 0


def expected_counts(tensor: spf.Tensor, keys) -> tuple[int, ...]:
    """np.unique's count of the stored entries' level prefixes (the definition)."""
    coords, _, _ = tensor.to_coo()
    levels = keys(np.asarray(coords, dtype=np.int64))
    return tuple(distinct_rows(np.hstack(levels[:depth + 1])) for depth in range(len(levels)))


@st.composite
def coordinate_data(draw, order: int):
    """(coords, values, shape) without repeated coordinates, explicit zeros among the values."""
    shape = tuple(draw(st.integers(0, MAX_EXTENT[order])) for _ in range(order))
    size = int(np.prod(shape))
    flat = draw(st.lists(st.integers(0, max(size - 1, 0)), max_size=min(size, 40), unique=True)) if size else []
    coords = np.array(np.unravel_index(np.asarray(flat, dtype=np.int64), shape), dtype=np.int64).T \
        .reshape(-1, order)
    values = np.asarray(draw(st.lists(st.sampled_from([0.0, 1.0, -2.5, 3.0]), min_size=len(flat),
                                      max_size=len(flat))), dtype=np.float64)
    return coords, values, shape


@pytest.mark.parametrize("order, layout", CASES)
@SETTINGS
@given(data=st.data())
def test_level_counts_are_the_distinct_prefixes_of_the_entries(order, layout, data):
    coords, values, shape = data.draw(coordinate_data(order))
    tensor = spf.pack(layout, (coords, values, shape), name="B", cast=True)
    statistics = tensor.level_statistics()
    assert statistics.counts == expected_counts(tensor, LEVEL_KEYS[order][layout]), layout
    assert statistics.entries == len(tensor.to_coo()[1])
    assert statistics.levels == tuple(tensor.layout.physical)


@SETTINGS
@given(data=coordinate_data(2))
def test_lower_triangle_counts_its_nonzeros(data):
    coords, values, shape = data
    side = max(shape)
    below = coords[:, 1] <= coords[:, 0]
    tensor = spf.pack("LOWER_TRI", (coords[below], values[below], (side, side)), name="B")
    assert tensor.level_statistics().counts == expected_counts(tensor, by_axes(0, 1))


def test_statistics_are_computed_once():
    tensor = spf.pack("CSF3", (np.array([[0, 1, 2], [0, 1, 3], [2, 0, 0]]), np.ones(3), (3, 2, 4)), name="B")
    assert tensor.level_statistics() is tensor.level_statistics()
    assert tensor.level_statistics().counts == (2, 2, 3)


def test_statistics_follow_arrays_someone_else_writes():
    """A borrowed array stays the caller's: a padded layout's entries are its nonzeros, so
    its statistics cannot be kept while the caller may write it."""
    array = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]])
    tensor = borrow("Dense2", array, name="B")
    assert tensor.level_statistics().counts == (2, 3)
    array[1, 2] = 0.0
    assert tensor.level_statistics().counts == (1, 2)


def test_statistics_of_fields_match_the_tensor():
    matrix = scipy.sparse.random(7, 5, density=0.3, format="csr", random_state=3)
    tensor = spf.pack("DCSR", matrix, name="B")
    assert level_statistics(tensor.layout, tensor.fields, tensor.shape) == tensor.level_statistics()


REAL_MATRIX_CASES = ["494_bus", "west0479", "lp_e226", "email-Eu-core"]
REAL_TENSOR_CASES = ["nations", "umls", "kinship"]


@pytest.mark.parametrize("matrix", REAL_MATRIX_CASES)
@pytest.mark.parametrize("layout", ["CSR", "CSC", "DCSR", "COO", "BCSR(R=2, C=3)"])
def test_level_counts_on_real_matrices(layout, matrix):
    tensor = spf.pack(layout, load_matrix(matrix), name="B", cast=True)
    assert tensor.level_statistics().counts == expected_counts(tensor, LEVEL_KEYS[2][layout]), matrix


@pytest.mark.parametrize("tensor_name", REAL_TENSOR_CASES)
@pytest.mark.parametrize("layout", ["CSF3", "COO3", "CSF3_DENSE_LAST"])
def test_level_counts_on_real_tensors(layout, tensor_name):
    tensor = spf.pack(layout, load_tensor(tensor_name), name="B", cast=True)
    assert tensor.level_statistics().counts == expected_counts(tensor, LEVEL_KEYS[3][layout]), tensor_name


# ----------------------------------------------------------------------------- operands in other forms


def unique_prefixes(columns: list[np.ndarray]) -> tuple[int, ...]:
    stacked = np.stack(columns, axis=1) if columns else np.zeros((0, 0))
    return tuple(distinct_rows(stacked[:, :depth + 1]) for depth in range(len(columns)))


@SETTINGS
@given(data=st.data(), order=st.integers(1, 4), huge=st.booleans())
def test_coordinate_prefix_counts(data, order, huge):
    """Repeated coordinates count once; coordinates outside the extents and extents whose
    product passes 63 bits take the lexicographic sort."""
    size = data.draw(st.integers(0, 30))
    columns = [np.asarray(data.draw(st.lists(st.integers(-2, 5), min_size=size, max_size=size)), dtype=np.int64)
               for _ in range(order)]
    extents = [2 ** 40 if huge else data.draw(st.integers(1, 6)) for _ in range(order)]
    assert coordinate_prefix_counts(columns, extents) == unique_prefixes(columns)


@SETTINGS
@given(data=st.data(), form=st.sampled_from(["csr", "csc", "coo", "bsr", "lil", "dok", "csr-raw", "csc-raw"]),
       axes=st.sampled_from([(0, 1), (1, 0)]))
def test_scipy_prefix_counts(data, form, axes):
    """Every scipy form, with explicit zeros; the raw CSR and CSC keep repeated and unsorted
    coordinates as given (scipy's tocoo() lists each stored entry)."""
    shape = (data.draw(st.integers(1, 8)), data.draw(st.integers(1, 8)))
    size = data.draw(st.integers(0, 25))
    rows = np.asarray(data.draw(st.lists(st.integers(0, shape[0] - 1), min_size=size, max_size=size)), dtype=np.int32)
    cols = np.asarray(data.draw(st.lists(st.integers(0, shape[1] - 1), min_size=size, max_size=size)), dtype=np.int32)
    values = np.asarray(data.draw(st.lists(st.sampled_from([0.0, 1.5, -1.0]), min_size=size, max_size=size)))
    if form.endswith("-raw"):
        major, minor = (rows, cols) if form == "csr-raw" else (cols, rows)
        order = np.argsort(major, kind="stable")
        pointer = np.concatenate([[0], np.cumsum(np.bincount(major, minlength=shape[0 if form == "csr-raw" else 1]))])
        kind = scipy.sparse.csr_matrix if form == "csr-raw" else scipy.sparse.csc_matrix
        matrix = kind((values[order], minor[order], pointer), shape=shape)
    else:
        matrix = scipy.sparse.coo_matrix((values, (rows, cols)), shape=shape).asformat(form)
    coo = matrix.tocoo()
    listed = [coo.row, coo.col]
    assert scipy_prefix_counts(matrix, axes) == unique_prefixes([listed[axis] for axis in axes]), form


@pytest.mark.parametrize("matrix", REAL_MATRIX_CASES)
@pytest.mark.parametrize("form", ["csr", "csc", "coo"])
def test_scipy_prefix_counts_on_real_matrices(matrix, form):
    data = load_matrix(matrix).asformat(form)
    coo = data.tocoo()
    for axes in [(0, 1), (1, 0)]:
        listed = [[coo.row, coo.col][axis] for axis in axes]
        assert scipy_prefix_counts(data, axes) == unique_prefixes(listed), (matrix, form, axes)


@SETTINGS
@given(data=st.data(), order=st.integers(1, 4))
def test_dense_prefix_counts_are_those_of_the_nonzeros(data, order):
    shape = tuple(data.draw(st.integers(0, 4)) for _ in range(order))
    flat = data.draw(st.lists(st.sampled_from([0.0, 0.0, 1.0, -3.0]), min_size=int(np.prod(shape)),
                              max_size=int(np.prod(shape))))
    array = np.asarray(flat, dtype=np.float64).reshape(shape)
    axes = tuple(data.draw(st.permutations(range(order))))
    nonzeros = np.argwhere(array != 0)
    assert dense_prefix_counts(array, axes) == unique_prefixes([nonzeros[:, axis] for axis in axes])
