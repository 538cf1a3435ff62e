"""Tests of packing (spf.runtime.packing): data into every built-in layout and back, on random
and on real data; corrupted fields and data a layout cannot hold, refused with a clear
message; and reading FROSTT .tns files."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import spf
from conftest import MATRICES, TENSORS, data_available, load_matrix, load_tensor, require_data
from spf.errors import PackError, PropertyViolation, SpfError

# ----------------------------------------------------------------------------- the layouts

# Layouts that hold any matrix (BCSR with several block sizes, some not dividing the shapes).
MATRIX_LAYOUTS = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR", "BCSR(R=2, C=3)",
                  "BCSR(R=3, C=2)", "BCSR(R=1, C=1)", "BCSR(R=5, C=1)", "ELL", "DIA", "Dense2", "Dense"]
# Layouts that hold some matrices only: the data is first cut to what they can hold.
RESTRICTED_MATRIX_LAYOUTS = ["LOWER_TRI", "WARP24"]
VECTOR_LAYOUTS = ["SV", "SV_DEC", "SV_UNSORTED", "Dense1", "Dense"]
ORDER3_LAYOUTS = ["CSF3", "CSF3_DENSE_LAST", "COO3", "Dense3", "Dense"]
ORDER4_LAYOUTS = ["CSF4", "COO4", "Dense4", "Dense"]

# Padded layouts store zeros that are not entries, and to_coo drops every stored zero.
PADDED = {"Dense1", "Dense2", "Dense3", "Dense4", "Dense", "BCSR", "LOWER_TRI", "DIA", "ELL",
          "WARP24", "CSF3_DENSE_LAST"}

INPUT_FORMS_2D = ["dense", "csr", "csc", "coo", "coordinates"]
INPUT_FORMS_ND = ["dense", "coordinates"]


def base_name(layout: str) -> str:
    return layout.split("(")[0]


def is_padded(layout: str) -> bool:
    return base_name(layout) in PADDED


def test_padded_layouts_are_the_expected_ones():
    for name in spf.layouts():
        loaded = spf.load_layout(name)
        if hasattr(loaded, "resolve"):  # the family Dense
            assert all(member.padded for member in loaded.layouts())
        else:
            assert loaded.padded == (name in PADDED), name


# ----------------------------------------------------------------------------- helpers


def lower_triangle_of(dense: np.ndarray) -> np.ndarray:
    """The square lower triangle, the part of a matrix LOWER_TRI can hold."""
    size = min(dense.shape)
    return np.tril(dense[:size, :size])


def two_of_four(dense: np.ndarray) -> np.ndarray:
    """Keep at most the first 2 non-zeros in each aligned group of 4 columns of each row."""
    thinned = dense.copy()
    for row in thinned:
        for start in range(0, thinned.shape[1], 4):
            nonzeros = np.flatnonzero(row[start:start + 4])
            row[start + nonzeros[2:]] = 0
    return thinned


def holdable(layout: str, dense: np.ndarray) -> np.ndarray:
    """The part of ``dense`` that ``layout`` can hold."""
    if layout == "LOWER_TRI":
        return lower_triangle_of(dense)
    if layout == "WARP24":
        return two_of_four(dense)
    return dense


def as_input(form: str, dense: np.ndarray):
    """``dense`` in one of the forms pack accepts."""
    if form == "dense":
        return dense.copy()
    if form == "csr":
        return scipy.sparse.csr_matrix(dense)
    if form == "csc":
        return scipy.sparse.csc_matrix(dense)
    if form == "coo":
        return scipy.sparse.coo_matrix(dense)
    if form == "coordinates":
        coords = np.argwhere(dense != 0)
        # given in a shuffled order: pack sorts
        order = np.random.default_rng(len(coords)).permutation(len(coords))
        return coords[order], dense[tuple(coords.T)][order], dense.shape
    raise ValueError(form)


def sorted_entries(coords, values) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates and values in lexicographic order of the coordinates."""
    coords, values = np.asarray(coords), np.asarray(values)
    order = np.lexsort(coords.T[::-1]) if len(values) else np.arange(0)
    return coords[order], values[order]


def assert_holds_exactly(tensor, coords, values, shape, dense=None, context=""):
    """to_coo returns exactly (coords, values) in lexicographic order; to_dense equals dense."""
    got_coords, got_values, got_shape = tensor.to_coo()
    expected_coords, expected_values = sorted_entries(coords, values)
    assert got_shape == tuple(shape), context
    assert got_coords.shape == (len(expected_values), len(shape)), context
    assert np.issubdtype(got_coords.dtype, np.integer), context
    np.testing.assert_array_equal(got_coords, expected_coords.reshape(-1, len(shape)), err_msg=context)
    np.testing.assert_array_equal(got_values, expected_values, err_msg=context)
    if dense is not None:
        np.testing.assert_array_equal(tensor.to_dense(), dense, err_msg=context)


def assert_round_trip(layout: str, dense: np.ndarray, form: str = "dense") -> None:
    """pack(layout, dense in ``form``) holds exactly the non-zeros of ``dense``."""
    tensor = spf.pack(layout, as_input(form, dense), name="A")
    assert tensor.name == "A" and tensor.shape == dense.shape
    coords = np.argwhere(dense != 0)
    assert_holds_exactly(tensor, coords, dense[tuple(coords.T)], dense.shape, dense,
                         context=f"{layout} from {form}, shape {dense.shape}")


def random_sparse(rng, shape, density) -> np.ndarray:
    """Random non-zero values (no explicit zeros) at random positions."""
    values = rng.uniform(0.5, 10.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)
    return np.where(rng.random(shape) < density, values, 0.0)


def copy_of(data):
    return copy.deepcopy(data)


def assert_unchanged(before, after) -> None:
    """The input of a refused call is unmodified (arrays, scipy matrices, tuples, dicts)."""
    if isinstance(before, dict):
        assert before.keys() == after.keys()
        for key in before:
            assert_unchanged(before[key], after[key])
    elif isinstance(before, tuple):
        assert len(before) == len(after)
        for a, b in zip(before, after):
            assert_unchanged(a, b)
    elif scipy.sparse.issparse(before):
        assert before.format == after.format and before.shape == after.shape
        np.testing.assert_array_equal(before.toarray(), after.toarray())
    else:
        a, b = np.asarray(before), np.asarray(after)
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


# ----------------------------------------------------------------------------- random data: fixed seeds

MATRIX_SHAPES = [(0, 0), (1, 1), (0, 5), (5, 0), (1, 9), (9, 1), (5, 7), (7, 5), (8, 8), (13, 6)]
DENSITIES = [0.0, 0.3, 1.0]


@pytest.mark.parametrize("layout", MATRIX_LAYOUTS + RESTRICTED_MATRIX_LAYOUTS)
@pytest.mark.parametrize("shape", MATRIX_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_matrix_round_trip_fixed_seeds(layout, shape):
    for seed, density in enumerate(DENSITIES):
        dense = holdable(layout, random_sparse(np.random.default_rng(seed), shape, density))
        for form in INPUT_FORMS_2D:
            assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", MATRIX_LAYOUTS + RESTRICTED_MATRIX_LAYOUTS)
def test_matrix_round_trip_single_element(layout):
    for shape, position in [((1, 1), (0, 0)), ((6, 6), (5, 0)), ((6, 9), (3, 8)), ((9, 6), (8, 5))]:
        dense = np.zeros(shape)
        dense[position] = -2.5
        dense = holdable(layout, dense)
        for form in INPUT_FORMS_2D:
            assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", MATRIX_LAYOUTS + RESTRICTED_MATRIX_LAYOUTS)
def test_matrix_round_trip_empty_rows_and_columns(layout):
    dense = random_sparse(np.random.default_rng(7), (10, 11), 0.6)
    dense[[0, 4, 9], :] = 0.0   # empty first, middle and last rows
    dense[:, [0, 5, 10]] = 0.0  # empty first, middle and last columns
    dense = holdable(layout, dense)
    for form in INPUT_FORMS_2D:
        assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", VECTOR_LAYOUTS)
@pytest.mark.parametrize("size", [0, 1, 2, 9, 31])
def test_vector_round_trip_fixed_seeds(layout, size):
    for seed, density in enumerate(DENSITIES):
        dense = random_sparse(np.random.default_rng(seed), (size,), density)
        for form in INPUT_FORMS_ND:
            assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", ORDER3_LAYOUTS)
@pytest.mark.parametrize("shape", [(0, 0, 0), (1, 1, 1), (2, 0, 3), (3, 4, 5), (6, 2, 3), (1, 7, 1)],
                         ids=lambda s: "x".join(map(str, s)))
def test_order3_round_trip_fixed_seeds(layout, shape):
    for seed, density in enumerate(DENSITIES):
        dense = random_sparse(np.random.default_rng(seed), shape, density)
        for form in INPUT_FORMS_ND:
            assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", ORDER4_LAYOUTS)
@pytest.mark.parametrize("shape", [(0, 0, 0, 0), (1, 1, 1, 1), (3, 2, 4, 3), (2, 3, 0, 2), (4, 1, 3, 5)],
                         ids=lambda s: "x".join(map(str, s)))
def test_order4_round_trip_fixed_seeds(layout, shape):
    for seed, density in enumerate(DENSITIES):
        dense = random_sparse(np.random.default_rng(seed), shape, density)
        for form in INPUT_FORMS_ND:
            assert_round_trip(layout, dense, form)


def test_bcsr_stores_dense_blocks_like_scipy_bsr():
    dense = random_sparse(np.random.default_rng(3), (7, 8), 0.3)
    tensor = spf.pack("BCSR(R=2, C=4)", dense, name="A")
    bsr = scipy.sparse.bsr_matrix(np.pad(dense, ((0, 1), (0, 0))), blocksize=(2, 4))
    bsr.sort_indices()
    np.testing.assert_array_equal(tensor.fields["rowPtr"], bsr.indptr)
    np.testing.assert_array_equal(tensor.fields["col"], bsr.indices)
    np.testing.assert_array_equal(tensor.fields["val"], bsr.data)


def test_csr_fields_equal_scipy_csr():
    dense = random_sparse(np.random.default_rng(4), (6, 9), 0.4)
    tensor = spf.pack("CSR", dense, name="A")
    csr = scipy.sparse.csr_matrix(dense)
    np.testing.assert_array_equal(tensor.fields["rowPtr"], csr.indptr)
    np.testing.assert_array_equal(tensor.fields["colIdx"], csr.indices)
    np.testing.assert_array_equal(tensor.fields["data"], csr.data)
    assert tensor.fields["nnz"] == csr.nnz and tensor.nnz == csr.nnz


def test_padded_layout_stores_padding_that_to_coo_drops():
    dense = np.array([[0.0, 2.0], [3.0, 0.0]])
    tensor = spf.pack("Dense2", dense, name="A")
    stored_coords, stored_values = tensor.stored()
    assert len(stored_values) == 4  # every position, zeros included
    assert_holds_exactly(tensor, [[0, 1], [1, 0]], [2.0, 3.0], (2, 2), dense)


@pytest.mark.parametrize("layout", ["DIA", "BCSR(R=2, C=2)", "BCSR(R=4, C=4)", "ELL", "Dense2", "LOWER_TRI"])
def test_a_padded_layouts_entries_come_from_a_copy_kernel_as_from_its_slots(layout):
    """to_coo of a padded layout goes through a generated copy into COO (its slots can far
    outnumber its entries: DIA over a mesh); the entries are those of every slot that
    holds a nonzero, in lexicographic order, as the enumeration of the slots gives."""
    rng = np.random.default_rng(17)
    dense = random_sparse(rng, (23, 23), 0.15)
    dense[3, 3] = 0.0
    if layout == "LOWER_TRI":
        dense = np.tril(dense)
    tensor = spf.pack(layout, dense, name="A")
    coords, values, shape = tensor.to_coo()
    slots, slot_values = tensor.stored()
    inside = np.all((slots >= 0) & (slots < 23), axis=1) & (slot_values != 0)
    order = np.lexsort(slots[inside].T[::-1])
    np.testing.assert_array_equal(coords, slots[inside][order])
    np.testing.assert_array_equal(values, slot_values[inside][order])
    assert shape == (23, 23) and len(values) == np.count_nonzero(dense)


def test_repacking_a_tensor_into_another_layout():
    dense = random_sparse(np.random.default_rng(5), (7, 6), 0.4)
    csr = spf.pack("CSR", dense, name="A")
    for layout in ["CSC", "DIA", "BCSR(R=2, C=2)", "COO"]:
        assert_holds_exactly(spf.pack(layout, csr, name="A"), *csr.to_coo(), dense, context=layout)


def test_duplicates_of_a_scipy_matrix_are_summed_and_the_matrix_is_unchanged():
    matrix = scipy.sparse.coo_matrix((np.array([1.0, 2.0, 4.0]), (np.array([1, 0, 1]), np.array([2, 0, 2]))),
                                     shape=(2, 3))
    before = copy_of(matrix)
    tensor = spf.pack("CSR", matrix, name="A")
    assert_holds_exactly(tensor, [[0, 0], [1, 2]], [2.0, 5.0], (2, 3))
    np.testing.assert_array_equal(matrix.row, before.row)
    np.testing.assert_array_equal(matrix.data, before.data)


def test_shape_argument_enlarges_the_shape_of_coordinates():
    tensor = spf.pack("CSR", ([[0, 1], [2, 0]], [1.0, 2.0], (3, 2)), name="A", shape=(5, 4))
    assert tensor.shape == (5, 4) and tensor.fields["numRows"] == 5
    assert_holds_exactly(tensor, [[0, 1], [2, 0]], [1.0, 2.0], (5, 4))


# ----------------------------------------------------------------------------- explicit zeros


def with_explicit_zeros(rng, shape, density=0.5, zero_share=0.4):
    """(coords, values, shape) where some stored values are explicit zeros."""
    dense = random_sparse(rng, shape, density)
    coords = np.argwhere(dense != 0)
    values = dense[tuple(coords.T)]
    values[rng.random(len(values)) < zero_share] = 0.0
    return coords, values, shape


NON_PADDED = ([layout for layout in MATRIX_LAYOUTS if not is_padded(layout)]
              + [layout for layout in VECTOR_LAYOUTS if not is_padded(layout)] + ["CSF3", "CSF4", "COO3", "COO4"])


@pytest.mark.parametrize("layout", NON_PADDED)
def test_non_padded_layouts_keep_explicit_zeros(layout):
    order = len(spf.load_layout(layout).shape)
    shape = {1: (12,), 2: (6, 7), 3: (3, 4, 5), 4: (2, 3, 2, 3)}[order]
    coords, values, shape = with_explicit_zeros(np.random.default_rng(order), shape)
    assert np.any(values == 0)
    tensor = spf.pack(layout, (coords, values, shape), name="A")
    dense = np.zeros(shape)
    dense[tuple(coords.T)] = values
    assert_holds_exactly(tensor, coords, values, shape, dense, context=layout)
    assert tensor.nnz == len(values)


@pytest.mark.parametrize("layout", ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED"])
def test_non_padded_layouts_keep_explicit_zeros_of_scipy_matrices(layout):
    matrix = scipy.sparse.csr_matrix((np.array([1.0, 0.0, 3.0, 0.0]), np.array([0, 2, 1, 3]),
                                      np.array([0, 2, 2, 4])), shape=(3, 4))
    assert matrix.nnz == 4
    tensor = spf.pack(layout, matrix, name="A")
    assert_holds_exactly(tensor, [[0, 0], [0, 2], [2, 1], [2, 3]], [1.0, 0.0, 3.0, 0.0], (3, 4),
                         matrix.toarray(), context=layout)


@pytest.mark.parametrize("layout", sorted(PADDED - {"Dense", "Dense1", "Dense3", "Dense4",
                                                    "CSF3_DENSE_LAST", "WARP24"}))
def test_padded_layouts_drop_explicit_zeros(layout):
    coords, values, shape = with_explicit_zeros(np.random.default_rng(2), (6, 6))
    if layout == "LOWER_TRI":
        keep = coords[:, 1] <= coords[:, 0]
        coords, values = coords[keep], values[keep]
    tensor = spf.pack(layout, (coords, values, shape), name="A")
    nonzero = values != 0
    assert_holds_exactly(tensor, coords[nonzero], values[nonzero], shape, context=layout)


# ----------------------------------------------------------------------------- random data: hypothesis

NONZERO = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_subnormal=False).filter(
    lambda x: x != 0)
RANDOM_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def sparse_arrays(draw, order: int, max_extent: int):
    """A dense array of the given order with random non-zeros (no explicit zeros)."""
    shape = tuple(draw(st.integers(0, max_extent)) for _ in range(order))
    present = draw(hnp.arrays(np.bool_, shape))
    values = draw(hnp.arrays(np.float64, shape, elements=NONZERO))
    return np.where(present, values, 0.0)


@pytest.mark.parametrize("layout", MATRIX_LAYOUTS + RESTRICTED_MATRIX_LAYOUTS)
@RANDOM_SETTINGS
@given(dense=sparse_arrays(2, 9), form=st.sampled_from(INPUT_FORMS_2D))
def test_matrix_round_trip_random(layout, dense, form):
    assert_round_trip(layout, holdable(layout, dense), form)


@pytest.mark.parametrize("layout", VECTOR_LAYOUTS)
@RANDOM_SETTINGS
@given(dense=sparse_arrays(1, 20), form=st.sampled_from(INPUT_FORMS_ND))
def test_vector_round_trip_random(layout, dense, form):
    assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", ORDER3_LAYOUTS)
@RANDOM_SETTINGS
@given(dense=sparse_arrays(3, 5), form=st.sampled_from(INPUT_FORMS_ND))
def test_order3_round_trip_random(layout, dense, form):
    assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", ORDER4_LAYOUTS)
@RANDOM_SETTINGS
@given(dense=sparse_arrays(4, 4), form=st.sampled_from(INPUT_FORMS_ND))
def test_order4_round_trip_random(layout, dense, form):
    assert_round_trip(layout, dense, form)


@pytest.mark.parametrize("layout", NON_PADDED)
@RANDOM_SETTINGS
@given(data=st.data())
def test_non_padded_round_trip_random_with_explicit_zeros(layout, data):
    order = len(spf.load_layout(layout).shape)
    dense = data.draw(sparse_arrays(order, {1: 20, 2: 8, 3: 5, 4: 4}[order]))
    coords = np.argwhere(dense != 0)
    zeroed = np.asarray(data.draw(st.lists(st.booleans(), min_size=len(coords), max_size=len(coords))),
                        dtype=bool)
    values = np.where(zeroed, 0.0, dense[tuple(coords.T)])
    tensor = spf.pack(layout, (coords, values, dense.shape), name="A")
    expected_dense = np.zeros(dense.shape)
    expected_dense[tuple(coords.T)] = values
    assert_holds_exactly(tensor, coords, values, dense.shape, expected_dense, context=layout)


# ----------------------------------------------------------------------------- real data

# Memory bounds for the layouts whose storage grows with more than the number of non-zeros.
DENSE_LIMIT = 4_000_000       # Dense2, LOWER_TRI and WARP24 store about rows*cols values
DIAGONAL_LIMIT = 20_000_000   # DIA stores rows slots per occupied diagonal
ELL_LIMIT = 10_000_000        # ELL stores rows * (longest row) slots
DENSE_LAST_LIMIT = 20_000_000  # CSF3_DENSE_LAST stores n2 values per distinct (i, j)
DENSE_TENSOR_LIMIT = 4_000_000  # Dense3 / Dense4


def real_files(folder: Path, suffix: str) -> list:
    """The stems of the data files, or one placeholder that skips when the data is absent."""
    if not data_available():
        return [pytest.param(None, id="no-data")]
    return sorted(path.stem for path in folder.glob(f"*{suffix}"))


def matrix_entries(matrix) -> tuple[np.ndarray, np.ndarray]:
    """The coordinates (sorted row-major) and values of a scipy matrix, duplicates summed."""
    csr = scipy.sparse.csr_matrix(matrix, copy=True)
    csr.sum_duplicates()
    csr.sort_indices()
    rows = np.repeat(np.arange(csr.shape[0]), np.diff(csr.indptr))
    return np.stack([rows, csr.indices], axis=1).astype(np.int64), csr.data.copy()


def without_explicit_zeros(matrix):
    matrix = scipy.sparse.csr_matrix(matrix, copy=True)
    matrix.eliminate_zeros()
    return matrix


def two_of_four_sparse(matrix):
    """Keep at most the first 2 non-zeros in each aligned group of 4 columns of each row."""
    coords, values = matrix_entries(matrix)
    groups = coords[:, 0] * ((matrix.shape[1] + 3) // 4) + coords[:, 1] // 4
    starts = np.ones(len(groups), dtype=bool)
    starts[1:] = groups[1:] != groups[:-1]
    position = np.arange(len(groups))
    rank_in_group = position - np.maximum.accumulate(np.where(starts, position, 0))
    keep = rank_in_group < 2
    return scipy.sparse.csr_matrix((values[keep], (coords[keep, 0], coords[keep, 1])), shape=matrix.shape)


def assert_real_round_trip(layout: str, data, reference, context: str) -> None:
    """pack(layout, data) holds exactly the entries of the scipy matrix ``reference``."""
    if is_padded(layout):
        reference = without_explicit_zeros(reference)
        data = without_explicit_zeros(data) if scipy.sparse.issparse(data) else data
    coords, values = matrix_entries(reference)
    tensor = spf.pack(layout, data, name=context)
    assert_holds_exactly(tensor, coords, values, reference.shape, context=f"{layout} on {context}")


def real_matrix_layouts(matrix) -> list[tuple[str, object]]:
    """(layout, the part of the matrix it holds) for every 2-D layout that can hold it."""
    rows, cols = matrix.shape
    cases = [(layout, matrix) for layout in
             ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR(R=4, C=4)", "BCSR(R=2, C=3)"]]
    longest_row = int(np.diff(matrix.indptr).max()) if matrix.nnz else 0
    if rows * longest_row <= ELL_LIMIT:
        cases.append(("ELL", matrix))
    if rows * cols <= DENSE_LIMIT:
        cases.append(("Dense2", matrix))
    coo = matrix.tocoo()
    diagonals = len(np.unique(coo.col.astype(np.int64) - coo.row))
    if diagonals * rows <= DIAGONAL_LIMIT:
        cases.append(("DIA", matrix))
    if rows == cols and rows * (rows + 1) // 2 <= DENSE_LIMIT:
        # a layout holds the data it can: LOWER_TRI gets the lower triangle
        cases.append(("LOWER_TRI", scipy.sparse.tril(matrix, format="csr")))
    if rows * cols <= DENSE_LIMIT:
        # WARP24 holds 2 entries per group of 4 columns: the matrix is thinned to fit, keeping
        # the first 2 non-zeros of each group (explicit zeros removed first, as it is padded)
        cases.append(("WARP24", two_of_four_sparse(without_explicit_zeros(matrix))))
    return cases


@pytest.mark.parametrize("name", real_files(MATRICES, ".mtx"))
def test_real_matrix_round_trip(name):
    require_data()
    matrix = load_matrix(name)
    for layout, held in real_matrix_layouts(matrix):
        inputs = {"CSC": held.tocsc(), "COO": held.tocoo(), "COO_UNSORTED": held.tocoo()}
        assert_real_round_trip(layout, inputs.get(layout, held), held, context=name)


def test_real_matrices_are_all_there():
    require_data()
    assert len(real_files(MATRICES, ".mtx")) == 47


def real_tensor_layouts(coords, shape) -> list[str]:
    """Every layout of the tensor's order that can hold it within the memory bounds."""
    order = len(shape)
    size = int(np.prod(shape, dtype=np.float64))
    layouts = [f"COO{order}"]
    if order == 3:
        layouts.append("CSF3")
        fibers = len(np.unique(coords[:, :2], axis=0))
        if fibers * shape[2] <= DENSE_LAST_LIMIT:
            layouts.append("CSF3_DENSE_LAST")
        if size <= DENSE_TENSOR_LIMIT:
            layouts.append("Dense3")
    else:
        layouts.append("CSF4")
        if size <= DENSE_TENSOR_LIMIT:
            layouts.append("Dense4")
    return layouts


@pytest.mark.parametrize("name", real_files(TENSORS, ".tns"))
def test_real_tensor_round_trip(name):
    require_data()
    coords, values, shape = load_tensor(name)
    assert len(shape) in (3, 4)
    for layout in real_tensor_layouts(coords, shape):
        keep = values != 0 if is_padded(layout) else np.ones(len(values), dtype=bool)
        tensor = spf.pack(layout, (coords, values, shape), name=name)
        assert_holds_exactly(tensor, coords[keep], values[keep], shape,
                             context=f"{layout} on {name}")


# ----------------------------------------------------------------------------- corrupted fields

MATRIX = np.array([[1.0, 0.0, 2.0, 3.0],
                   [0.0, 0.0, 0.0, 0.0],
                   [4.0, 5.0, 0.0, 6.0]])
VECTOR = np.array([0.0, 1.0, 0.0, 2.0, 3.0, 0.0])
TWO_OF_FOUR = np.array([[1.0, 0.0, 2.0, 0.0, 0.0, 3.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0, 6.0]])
BANDED = np.array([[1.0, 2.0, 0.0],
                   [0.0, 3.0, 4.0],
                   [5.0, 0.0, 6.0]])
TENSOR3 = np.zeros((2, 3, 4))
TENSOR3[0, 1, [0, 2, 3]] = [1.0, 2.0, 3.0]
TENSOR3[1, 0, 1] = 4.0


def swap(array: str, first, second):
    def corrupt(fields):
        values = fields[array]
        values[first], values[second] = values[second].copy(), values[first].copy()
    return corrupt


def assign(array: str, index, value):
    def corrupt(fields):
        fields[array][index] = value
    return corrupt


def replace(field: str, value):
    def corrupt(fields):
        fields[field] = value
    return corrupt


def reverse(*arrays: str):
    def corrupt(fields):
        for array in arrays:
            fields[array] = fields[array][::-1].copy()
    return corrupt


def copy_entry(arrays: tuple[str, ...], source: int, target: int):
    """Position ``target`` of each array gets the value at ``source`` (a duplicate)."""
    def corrupt(fields):
        for array in arrays:
            fields[array][target] = fields[array][source]
    return corrupt


def convert(array: str, dtype):
    def corrupt(fields):
        fields[array] = fields[array].astype(dtype)
    return corrupt


def remove(field: str):
    def corrupt(fields):
        del fields[field]
    return corrupt


def good_fields(layout: str, data) -> dict:
    """Fields of a correctly packed tensor, copied so they can be corrupted."""
    tensor = spf.pack(layout, data, name="good")
    return {key: value.copy() if isinstance(value, np.ndarray) else value
            for key, value in tensor.fields.items()}


# (what is wrong, layout, data, corruption, array named, property broken)
PROPERTY_CASES = [
    ("colIdx unsorted within a CSR row", "CSR", MATRIX, swap("colIdx", 0, 1),
     "colIdx", "periodic_monotonic(colIdx, rowPtr, increasing, strict)"),
    ("rowPtr decreasing", "CSR", MATRIX, replace("rowPtr", np.array([0, 3, 2, 6])),
     "rowPtr", "monotonic(rowPtr, increasing, weak)"),
    ("colIdx not below numCols", "CSR", MATRIX, assign("colIdx", -1, 4),
     "colIdx", "range(colIdx, 0, numCols)"),
    ("rowPtr past nnz", "CSR", MATRIX, assign("rowPtr", -1, 7),
     "rowPtr", "range(rowPtr, 0, nnz + 1)"),
    ("rowIdx unsorted within a CSC column", "CSC", MATRIX, swap("rowIdx", 0, 1),
     "rowIdx", "periodic_monotonic(rowIdx, colPtr, increasing, strict)"),
    ("DCSR rowIdx repeated", "DCSR", MATRIX, assign("rowIdx", 1, 0),
     "rowIdx", "monotonic(rowIdx, increasing, strict)"),
    ("SV idx repeated", "SV", VECTOR, assign("idx", 2, 3),
     "idx", "monotonic(idx, increasing, strict)"),
    ("SV idx decreasing", "SV", VECTOR, reverse("idx", "val"),
     "idx", "monotonic(idx, increasing, strict)"),
    ("SV_DEC idx increasing", "SV_DEC", VECTOR, reverse("idx", "val"),
     "idx", "monotonic(idx, decreasing, strict)"),
    ("SV_UNSORTED idx duplicated", "SV_UNSORTED", VECTOR, assign("idx", 2, 1),
     "idx", "injective(idx)"),
    ("COO_UNSORTED (row, col) duplicated", "COO_UNSORTED", MATRIX,
     copy_entry(("row", "col"), source=0, target=1),
     "row, col", "injective(row, col)"),
    ("COO out of lexicographic order", "COO", MATRIX, swap("col", 0, 1),
     "row, col", "covarying_monotonic(row, col, increasing)"),
    ("COO rows unsorted", "COO", MATRIX, reverse("row", "col", "val"),
     "row", "monotonic(row, increasing, weak)"),
    ("BCSR block column out of range", "BCSR(R=2, C=2)", MATRIX, assign("col", -1, 2),
     "col", "range(col, 0, numBlockCols)"),
    ("ELL column below -1", "ELL", MATRIX, assign("col", (1, 0), -2),
     "col", "range(col, -1, numCols)"),
    ("WARP24 meta out of order within a pair", "WARP24", TWO_OF_FOUR, swap("meta", (0, 0), (0, 1)),
     "meta", "periodic_monotonic(meta, 2, increasing, strict)"),
    ("WARP24 meta value 4", "WARP24", TWO_OF_FOUR, assign("meta", (0, 1), 4),
     "meta", "range(meta, 0, 4)"),
    ("DIA offsets unsorted", "DIA", BANDED, reverse("offsets", "data"),
     "offsets", "monotonic(offsets, increasing, strict)"),
    ("DIA offset beyond the last column", "DIA", BANDED, assign("offsets", -1, 3),
     "offsets", "range(offsets, -numRows + 1, numCols)"),  # the bound as spf prints it
    ("CSF3 idx2 unsorted within a fiber", "CSF3", TENSOR3, swap("idx2", 0, 1),
     "idx2", "periodic_monotonic(idx2, ptr1, increasing, strict)"),
    ("CSF3 idx0 repeated", "CSF3", TENSOR3, assign("idx0", 1, 0),
     "idx0", "monotonic(idx0, increasing, strict)"),
]


@pytest.mark.parametrize("problem, layout, data, corrupt, array, property_text", PROPERTY_CASES,
                         ids=[case[0] for case in PROPERTY_CASES])
def test_corrupted_fields_break_the_property(problem, layout, data, corrupt, array, property_text):
    fields = good_fields(layout, data)
    corrupt(fields)
    before = copy_of(fields)
    with pytest.raises(PropertyViolation) as refused:
        spf.pack(layout, fields, name="A")
    assert refused.value.tensor == "A"
    assert refused.value.array == array
    assert refused.value.property_text == property_text
    message = str(refused.value)
    assert message.startswith("tensor A: ")
    assert f"'{array}'" in message and property_text in message
    assert_unchanged(before, fields)


def test_every_property_kind_is_covered_by_a_corruption():
    kinds = {case[5].split("(")[0] for case in PROPERTY_CASES}
    assert kinds == {"range", "monotonic", "periodic_monotonic", "injective", "covarying_monotonic"}
    assert any(", 2," in case[5] for case in PROPERTY_CASES)  # periodic with a constant period


# (what is wrong, layout, data, corruption, words the message must hold besides "tensor A")
PACK_ERROR_CASES = [
    ("data array too short", "CSR", MATRIX, replace("data", np.array([1.0, 2.0, 3.0, 4.0, 5.0])),
     ["'data'", "needs shape (6,)"]),
    ("colIdx array too long", "CSR", MATRIX, replace("colIdx", np.arange(7)), ["'colIdx'", "needs shape (6,)"]),
    ("val of the wrong shape", "WARP24", TWO_OF_FOUR, replace("val", np.ones((4, 2))), ["'val'", "(2, 4)"]),
    ("colIdx missing", "CSR", MATRIX, remove("colIdx"), ["'colIdx'", "missing"]),
    ("numCols missing", "CSR", MATRIX, remove("numCols"), ["'numCols'", "missing"]),  # nnz and numRows: derived
    ("numRows inconsistent with rowPtr", "CSR", MATRIX, replace("numRows", 4),
     ["'rowPtr'", "numRows + 1", "needs shape (5,)"]),
    ("nnz not an integer", "CSR", MATRIX, replace("nnz", 6.0), ["'nnz'", "must be an integer"]),
    ("numCols negative", "CSR", MATRIX, replace("numCols", -1), ["'numCols'", "negative"]),
    ("rowPtr[0] is not 0", "CSR", MATRIX, replace("rowPtr", np.array([1, 3, 3, 6])),
     ["assumption rowPtr(0) = 0", "CSR"]),
    ("ptr1 does not end at nnz2", "CSF3", TENSOR3, assign("ptr1", -1, 3), ["ptr1(nnz1) = nnz2"]),
    ("colIdx of floats", "CSR", MATRIX, convert("colIdx", np.float64),
     ["'colIdx'", "must hold integers"]),
    ("an unknown field", "CSR", MATRIX, replace("extra", np.zeros(2)), ["no field", "extra"]),
]


@pytest.mark.parametrize("problem, layout, data, corrupt, words", PACK_ERROR_CASES,
                         ids=[case[0] for case in PACK_ERROR_CASES])
def test_corrupted_fields_are_refused(problem, layout, data, corrupt, words):
    fields = good_fields(layout, data)
    corrupt(fields)
    before = copy_of(fields)
    with pytest.raises(PackError) as refused:
        spf.pack(layout, fields, name="A")
    message = str(refused.value)
    assert message.startswith("tensor A: ")
    for word in words:
        assert word in message, (word, message)
    assert_unchanged(before, fields)


@pytest.mark.parametrize("layout, data", [("CSR", MATRIX), ("WARP24", TWO_OF_FOUR), ("DIA", BANDED),
                                          ("CSF3", TENSOR3), ("SV_DEC", VECTOR), ("ELL", MATRIX)])
def test_good_fields_are_accepted_and_hold_the_data(layout, data):
    fields = good_fields(layout, data)
    tensor = spf.pack(layout, fields, name="A")
    coords = np.argwhere(data != 0)
    assert_holds_exactly(tensor, coords, data[tuple(coords.T)], data.shape, data)


def test_fields_for_a_layout_family_need_the_member():
    with pytest.raises(PackError, match="Dense2"):
        spf.pack("Dense", good_fields("Dense2", MATRIX), name="A")


# ----------------------------------------------------------------------------- refused coordinate data


def refused_coordinates():
    """(what is wrong, layout, data, words the message must hold besides "tensor A")."""
    lower = np.array([[1.0, 0.0, 0.0], [2.0, 3.0, 0.0], [4.0, 5.0, 6.0]])
    above_diagonal = lower.copy()
    above_diagonal[0, 2] = 7.0
    three_in_a_group = TWO_OF_FOUR.copy()
    three_in_a_group[1, 5] = 8.0
    return [
        ("coordinate outside the shape", "CSR", (np.array([[0, 0], [2, 1]]), np.array([1.0, 2.0]), (2, 2)),
         ["(2, 1)", "outside the shape (2, 2)"]),
        ("negative coordinate", "COO", (np.array([[0, -1]]), np.array([1.0]), (2, 2)),
         ["(0, -1)", "outside"]),
        ("duplicate coordinates", "COO_UNSORTED", (np.array([[1, 1], [0, 1], [1, 1]]), np.ones(3), (2, 2)),
         ["(1, 1)", "more than once"]),
        ("coordinates of the wrong shape", "CSR", (np.zeros((3, 3), dtype=int), np.ones(3), (2, 2)),
         ["coordinates must have shape (nnz, 2)"]),
        ("coordinates that are not integers", "CSR", (np.array([[0.5, 1.0]]), np.ones(1), (2, 2)),
         ["must be integers"]),
        ("more values than coordinates", "CSR", (np.array([[0, 1]]), np.ones(2), (2, 2)),
         ["1 coordinates but 2 values"]),
        ("three non-zeros in a group of four for 2:4", "WARP24", three_in_a_group,
         ["the pattern does not fit layout WARP24"]),
        ("three non-zeros in a group of four for 2:4, from scipy", "WARP24",
         scipy.sparse.csr_matrix(three_in_a_group), ["the pattern does not fit layout WARP24"]),
        ("an entry above the diagonal for LOWER_TRI", "LOWER_TRI", above_diagonal,
         ["the pattern does not fit layout LOWER_TRI", "entry (0, 2) cannot be stored"]),
        ("an entry above the diagonal for LOWER_TRI, from coordinates", "LOWER_TRI",
         (np.array([[1, 0], [0, 1]]), np.array([2.0, 3.0]), (2, 2)),
         ["the pattern does not fit layout LOWER_TRI", "entry (0, 1) cannot be stored"]),
        ("an explicit zero above the diagonal for LOWER_TRI", "LOWER_TRI",
         (np.array([[0, 1]]), np.array([0.0]), (2, 2)),
         ["the pattern does not fit layout LOWER_TRI", "entry (0, 1) cannot be stored"]),
        ("a non-square matrix for LOWER_TRI", "LOWER_TRI", np.tril(np.ones((3, 4))),
         ["LOWER_TRI", "holds shape (3, 3), not (3, 4)"]),
        ("a vector for a matrix layout", "CSR", VECTOR, ["order-2", "order 1"]),
        ("a matrix for a vector layout", "SV", MATRIX, ["order-1", "order 2"]),
    ]


@pytest.mark.parametrize("problem, layout, data, words", refused_coordinates(),
                         ids=[case[0] for case in refused_coordinates()])
def test_coordinate_data_that_does_not_fit_is_refused(problem, layout, data, words):
    before = copy_of(data)
    with pytest.raises(PackError) as refused:
        spf.pack(layout, data, name="A")
    message = str(refused.value)
    assert message.startswith("tensor A: ")
    for word in words:
        assert word in message, (word, message)
    assert_unchanged(before, data)


def test_shape_argument_smaller_than_the_data_is_refused():
    data = (np.array([[2, 3]]), np.ones(1), (3, 4))
    with pytest.raises(PackError, match=r"tensor A: shape \(2, 2\) cannot hold data of shape \(3, 4\)"):
        spf.pack("CSR", data, name="A", shape=(2, 2))


@RANDOM_SETTINGS
@given(dense=sparse_arrays(2, 7))
def test_lower_tri_refuses_exactly_the_matrices_with_entries_above_the_diagonal(dense):
    square = dense[:min(dense.shape), :min(dense.shape)]
    above = np.argwhere(np.triu(square, 1) != 0)
    if len(above) == 0:
        assert_round_trip("LOWER_TRI", square)
        return
    with pytest.raises(PackError, match=r"does not fit layout LOWER_TRI: entry \(\d+, \d+\) cannot be stored"):
        spf.pack("LOWER_TRI", square, name="A")


@RANDOM_SETTINGS
@given(dense=sparse_arrays(2, 9))
def test_warp24_refuses_exactly_the_matrices_with_three_in_a_group(dense):
    fits = all(np.count_nonzero(row[start:start + 4]) <= 2
               for row in dense for start in range(0, dense.shape[1], 4))
    if fits:
        assert_round_trip("WARP24", dense)
        return
    with pytest.raises(PackError, match="the pattern does not fit layout WARP24"):
        spf.pack("WARP24", dense, name="A")


# ----------------------------------------------------------------------------- read_tns


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_read_tns_is_zero_based_with_the_largest_index_as_shape(tmp_path):
    path = write(tmp_path / "small.tns", "1 1 1 1.5\n2 3 1 -2\n# a comment\n\n1 2 4 3e-1\n")
    coords, values, shape = spf.read_tns(path)
    np.testing.assert_array_equal(coords, [[0, 0, 0], [1, 2, 0], [0, 1, 3]])
    np.testing.assert_array_equal(values, [1.5, -2.0, 0.3])
    assert shape == (2, 3, 4)
    assert np.issubdtype(coords.dtype, np.integer)


def test_read_tns_of_order_four_then_pack(tmp_path):
    path = write(tmp_path / "four.tns", "1 2 3 4 1.0\n2 1 1 1 2.0\n")
    coords, values, shape = spf.read_tns(str(path))
    assert shape == (2, 2, 3, 4)
    tensor = spf.pack("CSF4", (coords, values, shape), name="T")
    assert_holds_exactly(tensor, [[0, 1, 2, 3], [1, 0, 0, 0]], [1.0, 2.0], shape)


@pytest.mark.parametrize("order", [3, 4])
def test_read_tns_packs_into_the_coordinate_list_of_its_order(order, tmp_path):
    """FROSTT data is a coordinate list: spf.pack("COO3", spf.read_tns(path)) sorts it, and
    refuses a coordinate given twice."""
    lines = ["2 1 1 1 5.0", "1 2 3 1 -1.5", "1 2 1 2 2.0", "1 1 3 1 0.25"]
    path = write(tmp_path / "unsorted.tns", "\n".join(" ".join(line.split()[:order] + [line.split()[-1]])
                                                     for line in lines) + "\n")
    tensor = spf.pack(f"COO{order}", spf.read_tns(path), name="T")
    stored = np.stack([tensor.fields[f"idx{mode}"] for mode in range(order)], axis=1)
    expected = np.array([[int(c) - 1 for c in line.split()[:order]] for line in lines])
    order_of = np.lexsort(expected.T[::-1])
    np.testing.assert_array_equal(stored, expected[order_of])
    np.testing.assert_array_equal(tensor.fields["val"], np.array([5.0, -1.5, 2.0, 0.25])[order_of])
    assert tensor.fields["nnz"] == len(lines)
    write(path, "1 1 1 1 1.0\n" * 2 if order == 4 else "1 1 1 1.0\n" * 2)
    with pytest.raises(PackError, match=r"coordinate \(0, 0, 0(, 0)?\) appears more than once"):
        spf.pack(f"COO{order}", spf.read_tns(path), name="T")


@RANDOM_SETTINGS
@given(dense=sparse_arrays(3, 5))
def test_read_tns_reads_what_was_written(dense, tmp_path_factory):
    coords = np.argwhere(dense != 0)
    if len(coords) == 0:
        return
    path = tmp_path_factory.mktemp("tns") / "random.tns"
    lines = [" ".join(str(c + 1) for c in coord) + f" {float(value)!r}" for coord, value in
             zip(coords, dense[tuple(coords.T)])]
    write(path, "\n".join(lines) + "\n")
    read_coords, read_values, shape = spf.read_tns(path)
    np.testing.assert_array_equal(read_coords, coords)
    np.testing.assert_array_equal(read_values, dense[tuple(coords.T)])
    assert shape == tuple(int(m) + 1 for m in coords.max(axis=0))


MALFORMED_TNS = [
    ("non-integer index", "1 1 1 1.0\n1 2.5 1 2.0\n", "positive integers"),
    ("zero index", "1 1 1 1.0\n0 1 1 2.0\n", "positive integers"),
    ("negative index", "1 -1 1 2.0\n", "positive integers"),
    ("ragged line", "1 1 1 1.0\n1 2 2.0\n", "line 2 has 3 fields"),
    ("not a number", "1 1 1 1.0\n1 x 1 2.0\n", "not a number"),
    ("value only", "2.0\n", "expected indices and a value"),
    ("empty file", "", "no entries"),
    ("only comments", "# nothing\n\n", "no entries"),
]


@pytest.mark.parametrize("problem, text, words", MALFORMED_TNS, ids=[case[0] for case in MALFORMED_TNS])
def test_read_tns_refuses_malformed_files(tmp_path, problem, text, words):
    path = write(tmp_path / "bad.tns", text)
    with pytest.raises(SpfError) as refused:
        spf.read_tns(path)
    assert str(path) in str(refused.value)
    assert words in str(refused.value)


def test_read_tns_of_a_missing_file(tmp_path):
    path = tmp_path / "missing.tns"
    with pytest.raises(SpfError) as refused:
        spf.read_tns(path)
    assert str(path) in str(refused.value) and "cannot read" in str(refused.value)


# ----------------------------------------------------------------------------- a Tensor is valid by construction


def test_a_tensor_copies_the_arrays_it_is_given_and_keeps_them_read_only():
    fields = good_fields("CSR", MATRIX)
    tensor = spf.Tensor("CSR", MATRIX.shape, fields, "A")
    fields["colIdx"][0] = 50_000_000  # the caller's array, not the Tensor's
    assert tensor.fields["colIdx"][0] == 0
    for name, array in tensor.fields.items():
        if isinstance(array, np.ndarray):
            assert not np.shares_memory(array, fields[name]), name
            assert not array.flags.writeable, name
            with pytest.raises(ValueError):
                array.flags.writeable = True  # the memory underneath is read-only too
            with pytest.raises(ValueError):
                array.reshape(-1)[0] = 1
    np.testing.assert_array_equal(tensor.to_dense(), MATRIX)


@pytest.mark.parametrize("layout, data", [("CSR", MATRIX), ("BCSR(R=2, C=2)", MATRIX), ("CSF3", TENSOR3),
                                          ("ELL", MATRIX), ("DIA", BANDED), ("Dense", MATRIX), ("SV", VECTOR)])
def test_packed_arrays_are_read_only_down_to_their_memory(layout, data):
    tensor = spf.pack(layout, data, name="A")
    for name, array in tensor.fields.items():
        if isinstance(array, np.ndarray):
            with pytest.raises(ValueError):
                array.flags.writeable = True
            owner = array
            while isinstance(owner.base, np.ndarray):
                owner = owner.base
            assert not owner.flags.writeable, name


def test_a_tensor_cannot_be_changed_after_construction():
    tensor = spf.pack("CSR", MATRIX, name="A")
    with pytest.raises(TypeError):
        tensor.fields["colIdx"] = np.zeros(6, dtype=np.int32)
    for attribute, value in (("shape", (3, 10**9)), ("fields", {}), ("layout", spf.load_layout("COO")),
                             ("name", "B")):
        with pytest.raises(AttributeError, match="a Tensor is read-only"):
            setattr(tensor, attribute, value)
    with pytest.raises(AttributeError, match="a Tensor is read-only"):
        del tensor.shape
    assert tensor.shape == MATRIX.shape and tensor.name == "A"
    np.testing.assert_array_equal(tensor.to_dense(), MATRIX)


def test_pack_checks_nothing_again_and_a_kernel_trusts_a_tensor_of_its_layout(monkeypatch):
    """Generated assembly establishes the layout's properties, so a packed Tensor is not
    checked again (tests/runtime/test_assemble.py checks that claim); a Tensor given to a kernel of
    its exact layout is not checked either (only the numpy x is packed)."""
    import spf.runtime.packing
    calls = []
    original = spf.runtime.packing.check_fields

    def counting(layout, fields, name, shape, owned):
        calls.append((name, owned))
        return original(layout, fields, name, shape, owned)

    monkeypatch.setattr(spf.runtime.packing, "check_fields", counting)
    A = spf.pack("CSR", MATRIX, name="A")
    assert calls == []
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    np.testing.assert_allclose(kernel(A=A, x=np.ones(4)), MATRIX @ np.ones(4))
    assert calls == []


def test_a_tensor_of_a_same_named_layout_with_other_properties_is_repacked(tmp_path):
    """A user's CSR.layout without the sorted-columns property holds unsorted rows; a kernel
    compiled for the built-in CSR (whose sequential search needs sorted rows) repacks it."""
    builtin = Path(spf.load_layout("CSR").path).read_text()
    unsorted = "\n".join(line for line in builtin.splitlines() if "periodic_monotonic" not in line)
    path = tmp_path / "CSR.layout"
    path.write_text(unsorted)
    fields = {"numRows": 2, "numCols": 4, "nnz": 3, "rowPtr": np.array([0, 3, 3]),
              "colIdx": np.array([3, 0, 2]), "data": np.array([1.0, 2.0, 3.0])}
    A = spf.Tensor(path, (2, 4), fields, "A")
    assert A.layout.spec == "CSR" and A.layout != spf.load_layout("CSR")
    with pytest.raises(PropertyViolation, match="periodic_monotonic"):
        spf.Tensor("CSR", (2, 4), fields, "A")
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"}, find="seqiter")
    x = spf.pack("SV", np.array([1.0, 0.0, 1.0, 1.0]), name="x")
    np.testing.assert_allclose(kernel(A=A, x=x), A.to_dense() @ x.to_dense())


def test_an_output_tensor_is_read_only_and_the_kernel_rewrites_it():
    sddmm = spf.compile("A(i,j) = B(i,j) * C(i,k) * D(k,j)",
                        {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, share={"A": "B"})
    B = spf.pack("CSR", MATRIX, name="B")
    C, D = np.ones((3, 2)), np.ones((2, 4))
    run = sddmm.bind(B=B, C=C, D=D)
    result = run()
    np.testing.assert_allclose(result.to_dense(), MATRIX * 2)
    assert all(not array.flags.writeable for array in result.fields.values() if isinstance(array, np.ndarray))
    assert np.shares_memory(result.fields["colIdx"], B.fields["colIdx"])  # the shared arrays, not copies
    with pytest.raises(ValueError):
        result.values[0] = 50.0
    assert run() is result  # the kernel writes the same output again
    np.testing.assert_allclose(result.to_dense(), MATRIX * 2)


def test_a_numpy_array_into_a_row_major_dense_layout_is_its_values_as_they_are():
    """Dense1..Dense4 (and files of that form) store a numpy array as it is: packing copies
    it in its own type (no entry list), copy=False shares a C-ordered array (read-only
    then); the result is the same Tensor the entry path builds."""
    array = np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 5
    tensor = spf.pack("Dense3", array, name="T")
    assert tensor.fields["vals"].dtype == np.int32 and np.array_equal(tensor.fields["vals"], array)
    assert array.flags.writeable and not np.shares_memory(tensor.fields["vals"], array)
    reference = spf.pack("Dense3", (np.argwhere(array != 0), array[array != 0], array.shape), name="T")
    assert np.array_equal(reference.to_dense(), tensor.to_dense())
    shared = np.ones((3, 2))
    borrowed = spf.pack("Dense", shared, copy=False)
    assert np.shares_memory(borrowed.fields["vals"], shared) and not shared.flags.writeable
    with pytest.raises(spf.PackError, match="copy=False"):
        spf.pack("Dense2", np.ones((3, 2), dtype=np.float32).T, copy=False)
    complex_values = spf.pack("Dense2", np.ones((2, 2), dtype=complex) * 1j)  # a generic layout holds them
    assert complex_values.fields["vals"].dtype == np.complex128
    with pytest.raises(spf.PackError, match="complex256, which spf does not support"):
        spf.pack("Dense2", np.ones((2, 2), dtype=np.clongdouble))
    with pytest.raises(spf.PackError):
        spf.pack("Dense2", np.ones(3))  # order 1 into an order-2 layout


class _PydataCOO:
    """Stands in for pydata ``sparse.COO`` (not a dependency): its module, ``coords`` of
    shape (order, nnz), ``data`` and ``shape`` (no ``tocoo()``: the package's COO has none;
    tests/runtime/test_input_kinds.py has DOK and GCXS too)."""

    __module__ = "sparse._coo.core"

    def __init__(self, coords, data, shape):
        self.coords, self.data, self.shape = np.asarray(coords), np.asarray(data), tuple(shape)


def test_pydata_sparse_arrays_are_packed_and_their_duplicates_summed():
    coords = [[0, 2, 2, 1, 0], [1, 0, 0, 3, 1], [4, 2, 2, 0, 4]]
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    tensor = _PydataCOO(coords, values, (3, 4, 5))
    dense = np.zeros((3, 4, 5))
    np.add.at(dense, tuple(np.asarray(coords)), values)
    for layout in ("CSF3", "COO3", "Dense"):
        np.testing.assert_array_equal(spf.pack(layout, tensor).to_dense(), dense)
    matrix = _PydataCOO([[0, 1, 1], [2, 0, 3]], [1.0, -2.0, 0.5], (2, 4))
    k = spf.compile("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "Dense"})
    np.testing.assert_allclose(k(A=matrix, x=np.arange(4.0)), [2.0, 1.5])
    with pytest.raises(spf.SpfError, match="outside"):
        spf.pack("COO3", _PydataCOO([[0], [9], [0]], [1.0], (3, 4, 5)))
