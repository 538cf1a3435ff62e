"""Tensor.to_scipy (spf/runtime/scipy_arrays.py): tensors of order 1 and 2 as scipy.sparse arrays.

By default the arrays are new and the caller's (in-place methods work, the Tensor and its
inputs stay as they were).  With copy=False, CSR, CSC, BSR and coordinate lists hand scipy
the Tensor's own read-only arrays (checked with np.shares_memory) with the canonical flags
their properties allow; BCSR comes back as a bsr_array where its blocks divide the shape,
DIA as a dia_array, every other layout as a coo_array of its entries.  Each result is compared with the scipy matrix
the tensor was packed from, exactly, and the operations users apply to it (@, +, .T,
.toarray(), .tocsr(), ...) run on the read-only arrays and leave the Tensor as it was.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import spf
import spf.runtime.scipy_arrays
from spf.notation.value_types import VALUE_TYPES
from spf.runtime.scipy_arrays import one_dimensional_arrays
from conftest import REAL_MATRICES, REPOSITORY, load_matrix

CSR64 = str(REPOSITORY / "examples" / "layouts" / "CSR64.layout")
SHARED = {  # layout -> scipy class, then (scipy attribute, layout field) pairs that are the same memory
    "CSR": (sp.csr_array, [("indptr", "rowPtr"), ("indices", "colIdx"), ("data", "data")]),
    "CSC": (sp.csc_array, [("indptr", "colPtr"), ("indices", "rowIdx"), ("data", "data")]),
    "COO": (sp.coo_array, [("row", "row"), ("col", "col"), ("data", "val")]),
    "COO_UNSORTED": (sp.coo_array, [("row", "row"), ("col", "col"), ("data", "val")]),
}
CANONICAL = {"CSR": True, "CSC": True, "COO": True, "COO_UNSORTED": False}
ENTRIES = ["DCSR", "DCSC", "BCSR(R=2, C=3)", "BCSR(R=4, C=4)", "ELL", "DIA", "Dense2", "Dense"]
PADDED = {"BCSR(R=2, C=3)", "BCSR(R=4, C=4)", "ELL", "DIA", "Dense2", "Dense", "LOWER_TRI", "WARP24"}


def random_matrix(shape, density: float, seed: int, explicit_zeros: int = 0) -> sp.csr_matrix:
    """A canonical CSR matrix with values of several magnitudes and ``explicit_zeros`` stored zeros."""
    rng = np.random.default_rng(seed)
    matrix = sp.random(*shape, density=density, format="csr", random_state=rng,
                       data_rvs=lambda n: rng.uniform(-10, 10, n))
    if explicit_zeros and matrix.nnz:
        matrix.data[rng.choice(matrix.nnz, min(explicit_zeros, matrix.nnz), replace=False)] = 0.0
    return matrix


MATRICES = {
    "random 37x23": random_matrix((37, 23), 0.2, 1),
    "explicit zeros 20x30": random_matrix((20, 30), 0.3, 2, explicit_zeros=5),
    "empty rows and columns 9x11": sp.csr_matrix(([1.5, -2.0, 3.0], ([1, 1, 7], [2, 9, 2])), shape=(9, 11)),
    "one entry 1x1": sp.csr_matrix(np.array([[4.0]])),
    "empty 5x4": sp.csr_matrix((5, 4)),
    "zero rows 0x6": sp.csr_matrix((0, 6)),
    "zero columns 6x0": sp.csr_matrix((6, 0)),
    "dense 8x8": random_matrix((8, 8), 1.0, 3),
}


def held(layout: str, matrix: sp.csr_matrix) -> sp.csr_matrix:
    """What the layout stores of ``matrix``: a padded layout drops stored zeros."""
    if layout in PADDED:
        matrix = matrix.copy()
        matrix.eliminate_zeros()
    return matrix


def assert_same_matrix(array, reference) -> None:
    """``array`` holds exactly the entries of ``reference`` (values bit for bit, stored zeros included)."""
    assert isinstance(array, sp.sparray) and array.shape == reference.shape
    expected = sp.csr_array(reference)
    expected.sum_duplicates()
    got = sp.csr_array(array)
    got.sum_duplicates()
    if array.format in ("bsr", "dia"):
        got.eliminate_zeros()  # the padding of a block or a diagonal
    np.testing.assert_array_equal(got.indptr, expected.indptr)
    np.testing.assert_array_equal(got.indices, expected.indices)
    np.testing.assert_array_equal(got.data, expected.data)


def unsorted(layout: str, tensor: spf.Tensor, seed: int) -> spf.Tensor:
    """For COO_UNSORTED, the same tensor with its entries shuffled (packing sorts them)."""
    if layout != "COO_UNSORTED" or tensor.fields["nnz"] < 2:
        return tensor
    fields = dict(tensor.fields)
    permutation = np.random.default_rng(seed).permutation(fields["nnz"])
    for name in ("row", "col", "val"):
        fields[name] = fields[name][permutation]
    return spf.pack(layout, fields, name=tensor.name)


# ----------------------------------------------------------------------------- zero copy


@pytest.mark.parametrize("name", list(MATRICES))
@pytest.mark.parametrize("layout", list(SHARED))
def test_csr_csc_and_coo_share_the_tensors_arrays(layout, name):
    matrix = MATRICES[name]
    tensor = unsorted(layout, spf.pack(layout, matrix, name="A"), seed=4)
    array = tensor.to_scipy(copy=False)
    kind, pairs = SHARED[layout]
    assert type(array) is kind
    for attribute, field in pairs:
        mine, theirs = tensor.fields[field], getattr(array, attribute)
        assert np.shares_memory(theirs, mine) or mine.size == 0, f"{attribute} is a copy of {field}"
        assert theirs.dtype == mine.dtype == spf.load_layout(layout).field(field).numpy_dtype
        assert not theirs.flags.writeable
    assert array.has_canonical_format == CANONICAL[layout]
    if kind is not sp.coo_array:
        assert array.has_sorted_indices
    assert_same_matrix(array, matrix)


def test_the_canonical_flags_are_the_layouts_not_scipys_guess():
    """scipy is told CSR is canonical (it would otherwise check, or sort in place); an unsorted
    coordinate list is not called canonical even when its entries happen to be in order."""
    matrix = MATRICES["random 37x23"]
    csr = spf.pack("CSR", matrix).to_scipy()
    assert csr._has_canonical_format and csr._has_sorted_indices  # set, not computed on demand
    in_order = spf.pack("COO_UNSORTED", matrix).to_scipy()  # packing leaves it sorted
    assert np.all(np.diff(in_order.row) >= 0) and not in_order.has_canonical_format


def test_a_user_layout_in_csr_form_shares_its_arrays():
    """Recognised from the relation, not the name: CSR64 (64-bit row pointers) is CSR."""
    matrix = MATRICES["random 37x23"]
    tensor = spf.pack(CSR64, matrix, name="A")
    array = tensor.to_scipy(copy=False)
    assert type(array) is sp.csr_array and array.has_canonical_format
    assert np.shares_memory(array.data, tensor.fields["data"])
    assert np.shares_memory(array.indptr, tensor.fields["rowPtr"]) or \
        np.shares_memory(array.indices, tensor.fields["colIdx"])  # scipy keeps one index dtype for both
    assert_same_matrix(array, matrix)


def test_compressed_segments_not_declared_sorted_are_not_shared(tmp_path):
    """scipy sorts unsorted indices in place, which read-only arrays forbid: such a layout's
    entries come back as a new coo_array, and every operation works."""
    text = Path(spf.load_layout("CSR").path).read_text()
    text = text.replace("layout CSR\n", "layout CSR_ANY_ORDER\n").replace(
        "property periodic_monotonic(colIdx, rowPtr, increasing, strict)", "")
    path = tmp_path / "CSR_ANY_ORDER.layout"
    path.write_text(text)
    fields = {"rowPtr": np.array([0, 3, 3, 5]), "colIdx": np.array([4, 0, 2, 1, 0]),
              "data": np.array([1.0, 2.0, 3.0, 4.0, 5.0]), "nnz": 5, "numRows": 3, "numCols": 5}
    tensor = spf.pack(str(path), fields, name="A")
    array = tensor.to_scipy()
    assert type(array) is sp.coo_array and array.has_canonical_format
    assert not np.shares_memory(array.data, tensor.fields["data"])
    expected = sp.csr_array((fields["data"], fields["colIdx"], fields["rowPtr"]), shape=(3, 5))
    assert_same_matrix(array, expected)
    np.testing.assert_array_equal((array @ array.T).toarray(), (expected @ expected.T).toarray())


def test_a_property_scipys_checks_do_not_imply_is_still_checked(tmp_path):
    """Sharing skips the layout's properties that the checks of scipy's own form already
    established (indices inside the shape, sorted within each row), not a narrower range a
    user layout declares: a matrix breaking it is copied, and the copy refused, naming it."""
    from spf.runtime.scipy_arrays import shared_fields
    text = Path(spf.load_layout("CSR").path).read_text()
    text = text.replace("layout CSR\n", "layout CSR_NARROW\n").replace(
        "property range(colIdx, 0, numCols)", "property range(colIdx, 0, 3)")
    path = tmp_path / "CSR_NARROW.layout"
    path.write_text(text)
    fine = sp.csr_matrix(np.array([[1.0, 0, 2.0, 0], [0, 3.0, 0, 0]]))
    beyond = sp.csr_matrix(np.array([[1.0, 0, 2.0, 4.0], [0, 3.0, 0, 0]]))
    assert shared_fields(spf.load_layout("CSR"), beyond, "A")[0] is not None
    assert shared_fields(spf.load_layout(str(path)), fine, "A")[0] is not None
    fields, why = shared_fields(spf.load_layout(str(path)), beyond, "A")
    assert fields is None and "range(colIdx, 0, 3)" in why
    with pytest.raises(spf.SpfError, match="colIdx"):
        spf.pack(str(path), beyond, name="A")


# ----------------------------------------------------------------------------- other layouts: the entries


def scipy_kind(layout: str, shape: tuple[int, ...]) -> type:
    """The scipy array to_scipy() gives for a layout that is not CSR, CSC or a coordinate list."""
    if layout.startswith("BCSR"):
        block = spf.load_layout(layout).parameters
        return sp.bsr_array if shape[0] % block["R"] == 0 and shape[1] % block["C"] == 0 else sp.coo_array
    return sp.dia_array if layout == "DIA" else sp.coo_array


@pytest.mark.parametrize("name", list(MATRICES))
@pytest.mark.parametrize("layout", ENTRIES)
def test_other_layouts_give_their_entries_as_bsr_dia_or_coo(layout, name):
    matrix = MATRICES[name]
    tensor = spf.pack(layout, matrix, name="A")
    array = tensor.to_scipy()
    assert type(array) is scipy_kind(layout, matrix.shape)
    if type(array) is sp.coo_array:
        assert array.has_canonical_format
        assert array.nnz == len(tensor.to_coo()[1])  # padding dropped as to_coo drops it
    assert_same_matrix(array, held(layout, matrix))
    if type(array) is sp.coo_array:
        assert np.iinfo(array.row.dtype).max >= max(matrix.shape)


@pytest.mark.parametrize("layout, keep", [("LOWER_TRI", lambda m: sp.tril(m, format="csr")),
                                          ("WARP24", lambda m: sp.csr_matrix(np.where(
                                              (np.arange(m.shape[1]) % 4 < 2)[None, :], m.toarray(), 0)))])
def test_restricted_layouts_give_their_entries_as_coo(layout, keep):
    matrix = keep(random_matrix((12, 12), 0.5, 5))
    array = spf.pack(layout, matrix, name="A").to_scipy()
    assert type(array) is sp.coo_array
    assert_same_matrix(array, held(layout, matrix))


@settings(max_examples=40)
@given(st.sampled_from(list(SHARED) + ENTRIES + [CSR64]), st.integers(0, 15), st.integers(0, 15),
       st.sampled_from([0.0, 0.1, 0.5, 1.0]), st.integers(0, 2**32 - 1))
def test_hypothesis_round_trips(layout, rows, columns, density, seed):
    matrix = random_matrix((rows, columns), density, seed, explicit_zeros=2)
    tensor = unsorted(layout, spf.pack(layout, matrix, name="A"), seed)
    assert_same_matrix(tensor.to_scipy(), held(layout, matrix))


# ----------------------------------------------------------------------------- what users do with the array


def operations(array, other, vector):
    """What users do with a scipy array, each result as a dense numpy array."""
    return {
        "@ matrix": (array @ other.T).toarray(),
        "@ vector": array @ vector,
        "+": (array + other).toarray(),
        "-": (array - other).toarray(),
        ".T": array.T.toarray(),
        ".toarray()": array.toarray(),
        ".tocsr()": array.tocsr().toarray(),
        ".tocsc()": array.tocsc().toarray(),
        ".tocoo()": array.tocoo().toarray(),
        "* 2": (array * 2).toarray(),
        ".sum(axis=0)": np.asarray(array.sum(axis=0)),
        "row slice": array.tocsr()[2:7].toarray(),
        ".multiply": array.multiply(other).toarray(),
        ".sum_duplicates()": (array.copy().sum_duplicates(), array.toarray())[1],
    }


@pytest.mark.parametrize("layout", list(SHARED) + ["DCSR", "BCSR(R=2, C=3)", "Dense2", CSR64])
def test_operations_on_the_returned_array_match_scipy(layout):
    matrix = MATRICES["explicit zeros 20x30"]
    other = sp.csr_array(random_matrix((20, 30), 0.3, 6))
    vector = np.random.default_rng(7).uniform(-1, 1, 30)
    tensor = unsorted(layout, spf.pack(layout, matrix, name="A"), seed=8)
    before = {k: v.copy() for k, v in tensor.fields.items() if isinstance(v, np.ndarray)}
    array = tensor.to_scipy()
    got, expected = operations(array, other, vector), operations(sp.csr_array(matrix), other, vector)
    for operation in expected:  # sums may run in another order than over the scipy matrix
        np.testing.assert_allclose(got[operation], expected[operation], rtol=1e-12, atol=1e-12, err_msg=operation)
    for field, value in before.items():
        np.testing.assert_array_equal(tensor.fields[field], value, err_msg=f"{field} changed")


@pytest.mark.parametrize("layout", list(SHARED))
def test_writing_into_the_shared_arrays_is_refused(layout):
    """With copy=False the arrays are the Tensor's, read-only: in-place changes raise and
    change nothing; .copy() gives a writable array."""
    tensor = spf.pack(layout, MATRICES["random 37x23"], name="A")
    array = tensor.to_scipy(copy=False)
    with pytest.raises(ValueError, match="read-only"):
        array.data[0] = 99.0
    with pytest.raises(ValueError, match="read-only"):
        array.data *= 2
    if layout in ("CSR", "CSC"):
        with pytest.raises(ValueError, match="read-only"):
            array.eliminate_zeros()  # an in-place method
    np.testing.assert_array_equal(tensor.values, spf.pack(layout, MATRICES["random 37x23"]).values)
    copy = array.copy()
    copy.data[0] = 99.0
    assert copy.data[0] == 99.0 and tensor.values[0] != 99.0


def test_a_kernels_sparse_output_converts():
    """An output sharing an input's pattern comes back as a Tensor: to_scipy() gives the result."""
    B = MATRICES["random 37x23"]
    rng = np.random.default_rng(9)
    C, D = rng.uniform(-1, 1, (37, 4)), rng.uniform(-1, 1, (4, 23))
    sddmm = spf.compile("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"},
                        share={"A": "B"})
    result = sddmm(B=B, C=C, D=D).to_scipy()
    assert type(result) is sp.csr_array
    np.testing.assert_allclose(result.toarray(), B.toarray() * (C @ D), rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- results the caller owns


def change_in_place(array) -> None:
    """What users do to a result they own: scipy's in-place methods (each that the format has)."""
    array.data *= 2
    for method in ("sum_duplicates", "sort_indices", "eliminate_zeros"):
        if hasattr(array, method):
            getattr(array, method)()


@pytest.mark.parametrize("layout, kind", [("CSR", sp.csr_array), ("DCSR", sp.coo_array), ("COO", sp.coo_array),
                                          ("BCSR(R=2, C=2)", sp.bsr_array)])
def test_a_kernels_output_is_the_callers_to_change_and_its_inputs_are_not(layout, kind):
    """An assembled output's to_scipy() accepts in-place methods; the output Tensor, the
    packed input (sharing a scipy matrix's arrays) and the scipy input stay as they were."""
    A, B = random_matrix((20, 30), 0.3, 11, explicit_zeros=3), random_matrix((20, 30), 0.3, 12)
    packed_source = A.copy()
    packed = spf.pack("CSR", packed_source, name="A")  # shares (and freezes) packed_source's arrays
    add = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": layout})
    output = add(A=packed, B=B)
    expected = (A + B).toarray()
    array = output.to_scipy()
    assert type(array) is kind
    change_in_place(array)
    np.testing.assert_allclose(array.toarray(), 2 * expected, rtol=1e-12)
    np.testing.assert_allclose(output.to_dense(), expected, rtol=1e-12)
    assert_same_matrix(packed.to_scipy(), A)
    assert_same_matrix(sp.csr_array(packed_source), A)
    assert_same_matrix(sp.csr_array(B), random_matrix((20, 30), 0.3, 12))


def test_an_output_sharing_an_inputs_arrays_does_not_let_the_input_change():
    """A share= output holds the input's index arrays: changing its scipy result in place
    (eliminate_zeros() compacts the indices) leaves the input Tensor as it was."""
    B = spf.pack("CSR", MATRICES["explicit zeros 20x30"], name="B")
    before = {k: v.copy() for k, v in B.fields.items() if isinstance(v, np.ndarray)}
    rng = np.random.default_rng(13)
    C, D = rng.uniform(-1, 1, (20, 4)), rng.uniform(-1, 1, (4, 30))
    sddmm = spf.compile("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"},
                        share={"A": "B"})
    array = sddmm(B=B, C=C, D=D).to_scipy()
    change_in_place(array)
    expected = MATRICES["explicit zeros 20x30"].toarray() * (C @ D)
    np.testing.assert_allclose(array.toarray(), 2 * expected, rtol=1e-12, atol=1e-12)
    for field, value in before.items():
        np.testing.assert_array_equal(B.fields[field], value, err_msg=f"{field} changed")


@pytest.mark.parametrize("layout", ["BCSR(R=2, C=3)", "DIA"])
def test_bsr_and_dia_results_keep_their_format_and_are_the_callers(layout):
    matrix = MATRICES["explicit zeros 20x30"]
    tensor = spf.pack(layout, matrix, name="A")
    array = tensor.to_scipy()
    assert type(array) is scipy_kind(layout, matrix.shape) is not sp.coo_array
    assert_same_matrix(array, held(layout, matrix))
    change_in_place(array)
    np.testing.assert_allclose(array.toarray(), 2 * matrix.toarray(), rtol=1e-15)
    assert_same_matrix(tensor.to_scipy(), held(layout, matrix))


def test_bsr_without_a_copy_shares_the_blocks():
    tensor = spf.pack("BCSR(R=2, C=3)", MATRICES["explicit zeros 20x30"], name="A")
    array = tensor.to_scipy(copy=False)
    assert type(array) is sp.bsr_array and array.has_canonical_format
    assert np.shares_memory(array.data, tensor.fields["val"]) and not array.data.flags.writeable


# ----------------------------------------------------------------------------- real matrices


@pytest.mark.parametrize("name", REAL_MATRICES)
def test_real_matrices_round_trip(name):
    matrix = load_matrix(name)
    matrix.sum_duplicates()
    for layout in list(SHARED) + ["DCSR", "DCSC", "BCSR(R=4, C=4)", CSR64]:
        tensor = spf.pack(layout, matrix, name=name)
        array = tensor.to_scipy(copy=False)
        assert_same_matrix(array, held(layout, matrix))
        if layout in SHARED:
            assert np.shares_memory(array.data, tensor.values)
            assert array.has_canonical_format == CANONICAL[layout]
    csr, reference = spf.pack("CSR", matrix).to_scipy(), sp.csr_array(matrix)
    assert_same_matrix(csr @ csr.T, reference @ reference.T)
    assert_same_matrix(csr + csr.tocsc(), reference + reference)


# ----------------------------------------------------------------------------- order 1, and order 3 and more


@pytest.mark.parametrize("layout, shared", [("SV", True), ("SV_DEC", False), ("SV_UNSORTED", False)])
def test_sparse_vectors_are_one_dimensional_coo_arrays(layout, shared):
    """A sorted sparse vector shares its arrays; others come back sorted, in new arrays (a 1-D
    coo_array's tocsr() would sort the read-only arrays in place)."""
    vector = np.array([0.0, 1.5, 0.0, -2.0, 3.0, 0.0])
    tensor = spf.pack(layout, vector, name="x")
    if layout == "SV_UNSORTED":
        tensor = spf.pack(layout, {**tensor.fields, "idx": tensor.fields["idx"][::-1],
                                   "val": tensor.fields["val"][::-1]}, name="x")
    array = tensor.to_scipy(copy=False)
    assert type(array) is sp.coo_array and array.ndim == 1 and array.shape == (6,)
    assert np.shares_memory(array.data, tensor.values) == shared
    assert np.shares_memory(array.coords[0], tensor.fields["idx"]) == shared
    assert array.has_canonical_format
    np.testing.assert_array_equal(array.toarray(), vector)
    np.testing.assert_array_equal((array + array).toarray(), 2 * vector)
    np.testing.assert_array_equal(array.tocsr().toarray(), vector)
    assert array @ vector == vector @ vector


def test_a_dense_vector_gives_its_non_zeros():
    vector = np.array([0.0, 1.5, 0.0, -2.0])
    array = spf.pack("Dense1", vector).to_scipy()
    assert array.ndim == 1 and array.nnz == 2
    np.testing.assert_array_equal(array.toarray(), vector)


def test_order_one_without_one_dimensional_arrays_is_refused(monkeypatch):
    monkeypatch.setattr(spf.runtime.scipy_arrays, "one_dimensional_arrays", lambda: False)
    with pytest.raises(spf.SpfError, match=r"tensor x: .*order-1 tensor needs 1-D sparse arrays.*scipy 1\.13"):
        spf.pack("SV", np.array([0.0, 1.0]), name="x").to_scipy()


@pytest.mark.parametrize("layout, order", [("COO3", 3), ("CSF3", 3), ("Dense3", 3), ("COO4", 4), ("CSF4", 4)])
def test_order_three_and_more_is_refused_with_the_order(layout, order):
    tensor = spf.pack(layout, np.ones((2,) * order), name="T")
    with pytest.raises(spf.SpfError, match=f"tensor T: to_scipy.. returns scipy.sparse arrays of order 1 or 2; "
                                           f"this tensor has order {order}"):
        tensor.to_scipy()


# ----------------------------------------------------------------------------- pack: scipy's arrays as the layout's

ROWS = """# CSR in form, under other names, segments in any order (duplicates are not declared away)
layout ROWS
field m: int = shape[0]
field n: int = shape[1]
field stored: int
field start: int[m + 1]
field column: int[stored]
field value: double[stored]
shape m, n
relation [r, q] -> [i, j] : 0 <= r < m and start(r) <= q < start(r + 1) and i = r and j = column(q)
values value[q]
assume start(0) = 0 and start(m) = stored
property monotonic(start, increasing, weak)
property range(column, 0, n)
"""
COLUMNS = ROWS.replace("ROWS", "COLUMNS").replace("i = r and j = column(q)", "j = r and i = column(q)") \
    .replace("field m: int = shape[0]\nfield n: int = shape[1]", "field m: int = shape[1]\nfield n: int = shape[0]") \
    .replace("shape m, n", "shape n, m") + "property periodic_monotonic(column, start, increasing, strict)\n"
COO3_UNSORTED = str(REPOSITORY / "examples" / "layouts" / "COO3_UNSORTED.layout")


@pytest.fixture(scope="module")
def user_layouts(tmp_path_factory) -> dict[str, str]:
    """ROWS (CSR in form, any order) and COLUMNS (CSC in form, sorted), written as files."""
    directory = tmp_path_factory.mktemp("layouts")
    paths = {}
    for name, text in (("ROWS", ROWS), ("COLUMNS", COLUMNS)):
        paths[name] = str(directory / f"{name}.layout")
        Path(paths[name]).write_text(text)
    return paths


def rows_reversed(matrix) -> sp.csr_matrix:
    """``matrix`` as CSR with each row's entries in decreasing column order (distinct, unsorted)."""
    csr = sp.csr_matrix(matrix)
    rows = np.repeat(np.arange(csr.shape[0]), np.diff(csr.indptr))
    order = np.lexsort((-csr.indices, rows))
    return sp.csr_matrix((csr.data[order], csr.indices[order], csr.indptr), shape=csr.shape)


def shuffled_coo(matrix, seed: int = 0) -> sp.coo_matrix:
    coo = sp.coo_matrix(matrix)
    order = np.random.default_rng(seed).permutation(coo.nnz)
    return sp.coo_matrix((coo.data[order], (coo.row[order], coo.col[order])), shape=coo.shape)


COMPRESSED = ("indptr", "indices", "data")
COORDINATES = ("row", "col", "data")
# layout -> (the scipy object packed, scipy's arrays in the order of the layout's fields, those fields)
SHARING = {
    "CSR from csr_matrix": ("CSR", sp.csr_matrix, COMPRESSED, ("rowPtr", "colIdx", "data")),
    "CSR from csr_array": ("CSR", sp.csr_array, COMPRESSED, ("rowPtr", "colIdx", "data")),
    "CSC from csc_matrix": ("CSC", sp.csc_matrix, COMPRESSED, ("colPtr", "rowIdx", "data")),
    "CSC from csc_array": ("CSC", sp.csc_array, COMPRESSED, ("colPtr", "rowIdx", "data")),
    "COO from a sorted coo_matrix": ("COO", lambda m: sp.csr_matrix(m).tocoo(), COORDINATES, ("row", "col", "val")),
    "COO_UNSORTED from a shuffled coo_matrix": ("COO_UNSORTED", shuffled_coo, COORDINATES, ("row", "col", "val")),
    "CSR_UNSORTED from csr with reversed rows": ("CSR_UNSORTED", rows_reversed, COMPRESSED, ("rowPtr", "colIdx", "data")),
    "ROWS (any order) from csr with reversed rows": ("ROWS", rows_reversed, COMPRESSED, ("start", "column", "value")),
    "COLUMNS from csc_array": ("COLUMNS", sp.csc_array, COMPRESSED, ("start", "column", "value")),
}


def layout_of(layout: str, user_layouts) -> str:
    return user_layouts.get(layout, layout)


def assert_shares(tensor, data, attributes, fields) -> None:
    for attribute, field in zip(attributes, fields):
        theirs, mine = getattr(data, attribute), tensor.fields[field]
        assert np.shares_memory(mine, theirs) or mine.size == 0, f"{field} is a copy of {attribute}"
        assert not theirs.flags.writeable, f"the scipy object's {attribute} is still writable"


def assert_copied(tensor, data) -> None:
    """No field of ``tensor`` shares memory with an array of the scipy object ``data``."""
    for array in scipy_arrays(data):
        for field, value in tensor.fields.items():
            if isinstance(value, np.ndarray):
                assert not np.shares_memory(value, array), f"{field} shares memory with the input"


def scipy_arrays(data) -> list[np.ndarray]:
    if not sp.issparse(data):
        return []
    if data.format == "coo":
        return [data.data, *data.coords]
    return [data.data, data.indices, data.indptr]


def same_tensor(tensor, reference) -> None:
    """The same layout, shape and entries (storage order may differ only where the layout
    does not fix it: an unsorted layout keeps the input's order when it shares)."""
    assert tensor.layout == reference.layout and tensor.shape == reference.shape
    for got, expected in zip(tensor.to_coo(), reference.to_coo()):
        np.testing.assert_array_equal(got, expected)
    if any(p.kind in ("periodic_monotonic", "covarying_monotonic") for p in tensor.layout.properties):
        for field, value in reference.fields.items():
            np.testing.assert_array_equal(tensor.fields[field], value, err_msg=field)


@pytest.mark.parametrize("name", list(MATRICES))
@pytest.mark.parametrize("case", list(SHARING))
def test_pack_shares_scipys_arrays_when_they_are_the_layouts(case, name, user_layouts):
    """csr into CSR, csc into CSC, a coordinate list into COO or COO_UNSORTED, and layout files
    of the same form under other names (read off the relation): no array is copied, the
    Tensor equals the copied one (explicit zeros kept), and to_scipy() gives the input back."""
    layout, make, attributes, fields = SHARING[case]
    data = make(MATRICES[name])
    copied = spf.pack(layout_of(layout, user_layouts), data, name="A", copy=True)
    assert_copied(copied, data)
    tensor = spf.pack(layout_of(layout, user_layouts), data, name="A")
    assert_shares(tensor, data, attributes, fields)
    same_tensor(tensor, copied)
    assert len(tensor.to_coo()[1]) == data.nnz  # explicit zeros are entries, as when copied
    assert_same_matrix(tensor.to_scipy(), MATRICES[name])
    assert spf.pack(layout_of(layout, user_layouts), data, name="A", copy=False).fields.keys() == tensor.fields.keys()


@pytest.mark.parametrize("layout, indices, shared", [("SV", [1, 3, 4], True), ("SV_UNSORTED", [4, 1, 3], True),
                                                     ("SV", [4, 1, 3], False), ("SV_DEC", [4, 3, 1], True),
                                                     ("SV_DEC", [1, 3, 4], False)])
def test_pack_shares_a_one_dimensional_coo_array(layout, indices, shared):
    """A sparse vector is a coordinate list; its declared order (SV increasing, SV_DEC
    decreasing, SV_UNSORTED none) is checked on scipy's indices like any property."""
    if not one_dimensional_arrays():
        pytest.skip("this scipy has no 1-D sparse arrays")
    vector = sp.coo_array((np.array([1.5, -2.0, 3.0]), (np.array(indices, dtype=np.int32),)), shape=(6,))
    tensor = spf.pack(layout, vector, name="x")
    assert np.shares_memory(tensor.fields["idx"], vector.coords[0]) == shared
    assert np.shares_memory(tensor.values, vector.data) == shared
    np.testing.assert_array_equal(tensor.to_dense(), vector.toarray())


@pytest.mark.parametrize("layout, shared", [("COO3", False), (COO3_UNSORTED, False), ("COO3_64", True),
                                            ("COO3_UNSORTED_64", True)])
def test_pack_shares_a_three_dimensional_coo_array(layout, shared, tmp_path):
    """scipy keeps int64 coordinates for more than two dimensions: COO3's ``int`` fields are
    not them; the same layout files with ``int64`` fields share them."""
    if layout.endswith("_64"):
        source = COO3_UNSORTED if "UNSORTED" in layout else spf.load_layout("COO3").path
        text = Path(source).read_text().replace("int[nnz]", "int64[nnz]")
        original = Path(source).stem
        path = tmp_path / f"{layout}.layout"
        path.write_text(text.replace(f"layout {original}\n", f"layout {layout}\n"))
        layout = str(path)
    coords = np.array([[0, 1, 2], [1, 0, 0], [1, 2, 1], [3, 0, 2]])
    if "UNSORTED" in layout:
        coords = coords[::-1].copy()
    data = sp.coo_array((np.array([1.0, 0.0, -2.5, 4.0]), tuple(np.ascontiguousarray(coords.T))), shape=(4, 3, 3))
    tensor = spf.pack(layout, data, name="T")
    for field, coordinate in zip(("idx0", "idx1", "idx2"), data.coords):
        assert np.shares_memory(tensor.fields[field], coordinate) == shared
    np.testing.assert_array_equal(tensor.to_dense(), data.toarray())


def with_arrays(matrix, **arrays):
    """A copy of the scipy object ``matrix`` whose named arrays are replaced (set after
    construction, where scipy does not look at them again)."""
    matrix = matrix.copy()
    for attribute, value in arrays.items():
        setattr(matrix, attribute, value)
    return matrix


def csr_with_duplicates() -> sp.csr_matrix:
    """Row 1 stores column 2 twice (scipy sums them), in order but not strictly."""
    return sp.csr_matrix((np.array([1.0, 2.0, 3.0, 0.0, 5.0]), np.array([0, 2, 2, 4, 1], dtype=np.int32),
                          np.array([0, 1, 4, 5], dtype=np.int32)), shape=(3, 5))


def bytearray_data(matrix) -> sp.csr_matrix:
    """CSR whose values live in a bytearray (memory numpy does not own, so cannot freeze)."""
    csr = sp.csr_matrix(matrix)
    values = np.frombuffer(bytearray(csr.data.tobytes()), dtype=np.float64)
    return sp.csr_matrix((values, csr.indices, csr.indptr), shape=csr.shape, copy=False)


MATRIX = MATRICES["random 37x23"]
# a condition of sharing fails: pack copies as before; copy=False says which condition
COPIED = {
    "unsorted indices into CSR": ("CSR", lambda: rows_reversed(MATRIX), "breaks property periodic_monotonic"),
    "a duplicate in a row into CSR": ("CSR", csr_with_duplicates, "both hold (1, 2) (scipy sums them)"),
    "a duplicate in a row into a layout of any order": ("ROWS", csr_with_duplicates, "(scipy sums them)"),
    "a duplicate in a row into CSR_UNSORTED": ("CSR_UNSORTED", csr_with_duplicates, "(scipy sums them)"),
    "int64 indices": ("CSR", lambda: with_arrays(sp.csr_matrix(MATRIX), indices=sp.csr_matrix(MATRIX).indices
                                                 .astype(np.int64), indptr=sp.csr_matrix(MATRIX).indptr.astype(np.int64)),
                      "dtype int64, the layout declares int (int32)"),
    # int8 is no value type: stored as int32, a copy (float32 values are shared: CSR takes their type)
    "int8 values": ("CSR", lambda: sp.csr_matrix(MATRIX * 10, dtype=np.int8), "array data: dtype int8"),
    "strided values": ("CSR", lambda: with_arrays(sp.csr_matrix(MATRIX), data=np.repeat(MATRIX.data, 2)[::2]),
                       "not a C-contiguous"),
    "values in a bytearray": ("CSR", lambda: bytearray_data(MATRIX), "not to a numpy array"),
    "entries past indptr's end": ("CSR", lambda: with_arrays(sp.csr_matrix(MATRIX), data=np.append(MATRIX.data, 7.0),
                                                             indices=np.append(MATRIX.indices, 0).astype(np.int32)),
                                  "ends at"),
    "csc into CSR": ("CSR", lambda: sp.csc_matrix(MATRIX), "the data is a 2-D csc csc_matrix, layout CSR is csr"),
    "csr into CSC": ("CSC", lambda: sp.csr_array(MATRIX), "layout CSC is csc"),
    "csr into DCSR": ("DCSR", lambda: sp.csr_matrix(MATRIX), "none of scipy's formats"),
    "coo into CSR": ("CSR", lambda: sp.coo_matrix(MATRIX), "the data is a 2-D coo"),
    "an unsorted coo into COO": ("COO", lambda: shuffled_coo(MATRIX), "breaks property monotonic(row, increasing"),
    "a duplicate into COO_UNSORTED": ("COO_UNSORTED", lambda: sp.coo_matrix(
        (np.array([1.0, 2.0, 3.0]), (np.array([2, 0, 2]), np.array([1, 1, 1]))), shape=(3, 3)), "(scipy sums them)"),
    "bsr into BCSR": ("BCSR(R=2, C=2)", lambda: sp.bsr_matrix(sp.random(6, 8, density=0.3, random_state=3),
                                                              blocksize=(2, 2)), "none of scipy's formats"),
    "a dense array": ("CSR", lambda: MATRIX.toarray(), "only scipy.sparse data is shared, not ndarray"),
}


@pytest.mark.parametrize("case", list(COPIED))
def test_pack_copies_when_scipys_arrays_are_not_the_layouts(case, user_layouts):
    layout, make, reason = COPIED[case]
    data = make()
    writable = [array.flags.writeable for array in scipy_arrays(data)]
    tensor = spf.pack(layout_of(layout, user_layouts), data, name="A")
    assert_copied(tensor, data)
    assert [array.flags.writeable for array in scipy_arrays(data)] == writable  # nothing frozen
    same_tensor(tensor, spf.pack(layout_of(layout, user_layouts), data, name="A", copy=True))
    expected = sp.csr_array(data.astype(np.float64) if sp.issparse(data) else data)
    expected.sum_duplicates()
    if tensor.layout.padded:
        expected.eliminate_zeros()
    assert_same_matrix(tensor.to_scipy(), expected)
    with pytest.raises(spf.PackError, match="copy=False") as refused:
        spf.pack(layout_of(layout, user_layouts), data, name="A", copy=False)
    assert reason in str(refused.value)


@pytest.mark.parametrize("layout, make", [("CSR", lambda: rows_reversed(MATRIX)),
                                          ("COO", lambda: shuffled_coo(MATRIX))])
def test_scipys_sorted_flags_are_not_trusted(layout, make):
    """A matrix wrongly flagged sorted and canonical is checked, found unsorted, and sorted as it is copied."""
    data = make()
    if data.format == "csr":
        data.has_sorted_indices = True
    data.has_canonical_format = True
    tensor = spf.pack(layout, data, name="A")
    assert_copied(tensor, data)
    same_tensor(tensor, spf.pack(layout, sp.csr_matrix(MATRIX), name="A", copy=True))
    with pytest.raises(spf.PackError, match="breaks property (periodic_)?monotonic"):
        spf.pack(layout, data, name="A", copy=False)


def test_copy_true_leaves_the_input_writable_and_independent():
    data = MATRIX.copy()
    tensor = spf.pack("CSR", data, copy=True)
    assert_copied(tensor, data)
    data.data[:] = 0.0
    data.indices[0] = 22
    assert tensor.to_scipy().toarray().tolist() == MATRIX.toarray().tolist()


def test_shared_arrays_are_read_only_in_the_input_too():
    """Writing into the scipy object after a sharing pack raises numpy's read-only ValueError,
    for the matrix's arrays and for the arrays it was built on, instead of changing the Tensor."""
    csr = sp.csr_matrix(MATRIX)
    data, indices, indptr = csr.data.copy(), csr.indices.copy(), csr.indptr.copy()
    matrix = sp.csr_matrix((data, indices, indptr), shape=csr.shape, copy=False)
    assert np.shares_memory(matrix.data, data)
    tensor = spf.pack("CSR", matrix, name="A")
    for write in (lambda: matrix.data.__setitem__(0, 99.0), lambda: matrix.indices.__setitem__(0, 5),
                  lambda: matrix.indptr.__setitem__(1, 0), lambda: data.__setitem__(0, 99.0),
                  lambda: matrix.data.__imul__(2), lambda: matrix.__imul__(2)):
        with pytest.raises(ValueError, match="read-only"):
            write()
    assert_same_matrix(tensor.to_scipy(), MATRIX)
    assert (matrix @ np.ones(23) == MATRIX @ np.ones(23)).all()  # reading works as before
    again = spf.pack("CSR", tensor.to_scipy(copy=False), name="B")  # a shared round trip stays shared
    assert np.shares_memory(again.values, data)


@pytest.mark.parametrize("layout", ["CSR", "CSC", "COO", "COO_UNSORTED"])
def test_a_tensors_scipy_array_packs_back_without_a_copy(layout):
    """to_scipy() then pack: the arrays (numpy's, or memory the builder handed over, read-only
    either way) are shared both ways."""
    tensor = spf.pack(layout, MATRIX.copy(), name="A", copy=True)
    again = spf.pack(layout, tensor.to_scipy(copy=False), name="A")
    for field, value in tensor.fields.items():
        if isinstance(value, np.ndarray):
            assert np.shares_memory(again.fields[field], value), field
    same_tensor(again, tensor)


def test_a_kernel_given_a_scipy_matrix_leaves_it_writable_and_a_packed_one_is_shared():
    """A kernel call packs a scipy argument into a copy (the caller's matrix stays as it
    was); spf.pack shares it (read-only from then on) for calls that should not copy."""
    matrix, x = MATRIX.copy(), np.random.default_rng(10).uniform(-1, 1, 23)
    spmv = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    np.testing.assert_allclose(spmv(A=matrix, x=x), MATRIX @ x, rtol=1e-12, atol=1e-12)
    assert matrix.data.flags.writeable and matrix.indices.flags.writeable
    shared = spf.pack("CSR", matrix, name="A")
    assert np.shares_memory(shared.fields["colIdx"], matrix.indices) and not matrix.data.flags.writeable
    np.testing.assert_allclose(spmv(A=shared, x=x), MATRIX @ x, rtol=1e-12, atol=1e-12)


def shares_oracle(layout: str, data) -> bool:
    """Whether ``data``'s arrays are ``layout``'s, decided entry by entry in Python."""
    if data.format != FORMATS[layout] or data.data.dtype.name not in VALUE_TYPES:  # generic layouts take the type
        return False
    if data.format == "coo":
        entries = list(zip(data.row.tolist(), data.col.tolist()))
        indices = (data.row, data.col)
        ordered = layout == "COO_UNSORTED" or all(a < b for a, b in zip(entries, entries[1:]))
        distinct = len(set(entries)) == len(entries)
    else:
        indices = (data.indices, data.indptr)
        segments = [data.indices[data.indptr[k]:data.indptr[k + 1]].tolist() for k in range(len(data.indptr) - 1)]
        ordered = all(a < b for segment in segments for a, b in zip(segment, segment[1:]))
        distinct = ordered
    return all(array.dtype == np.int32 for array in indices) and ordered and distinct


FORMATS = {"CSR": "csr", "CSC": "csc", "COO": "coo", "COO_UNSORTED": "coo"}
FIELDS = {"CSR": ("rowPtr", "colIdx", "data"), "CSC": ("colPtr", "rowIdx", "data"), "COO": ("row", "col", "val"),
          "COO_UNSORTED": ("row", "col", "val")}  # scipy's arrays in COMPRESSED or COORDINATES order


@settings(max_examples=80)
@given(st.sampled_from(list(FORMATS)), st.sampled_from(["the layout's", "csr", "csc", "coo"]),
       st.sampled_from(["none", "shuffled", "a duplicate", "int64 indices", "float32 values", "int8 values"]),
       st.integers(0, 7), st.integers(0, 7), st.sampled_from([0.0, 0.2, 0.6]), st.integers(0, 2**32 - 1))
def test_hypothesis_pack_shares_exactly_when_the_arrays_are_the_layouts(layout, form, change, rows, columns,
                                                                        density, seed):
    """Whether pack shares is decided entry by entry in Python (:func:`shares_oracle`); either
    way the Tensor holds scipy's matrix, duplicates summed."""
    form = FORMATS[layout] if form == "the layout's" else form
    coo = sp.coo_matrix(random_matrix((rows, columns), density, seed, explicit_zeros=1))
    row, col, values = coo.row, coo.col, coo.data
    if change == "a duplicate" and coo.nnz:
        row, col, values = np.append(row, row[0]), np.append(col, col[0]), np.append(values, 1.0)
    if change == "shuffled":
        order = np.random.default_rng(seed).permutation(len(values))
        row, col, values = row[order], col[order], values[order]
    index_dtype = np.int64 if change == "int64 indices" else np.int32
    if form == "coo":
        data = sp.coo_matrix((values, (row.astype(index_dtype), col.astype(index_dtype))), shape=(rows, columns))
        data.row, data.col = data.row.astype(index_dtype), data.col.astype(index_dtype)  # scipy would narrow
    else:  # from the coordinates as they are: segments in their order, duplicates kept
        major, minor = (row, col) if form == "csr" else (col, row)
        order = np.argsort(major, kind="stable")
        indptr = np.searchsorted(major[order], np.arange(data_extent(form, rows, columns) + 1))
        kind = sp.csr_matrix if form == "csr" else sp.csc_matrix
        data = kind((values[order], minor[order], indptr), shape=(rows, columns))
        data.indices, data.indptr = data.indices.astype(index_dtype), data.indptr.astype(index_dtype)
    if change in ("float32 values", "int8 values"):
        data.data = (data.data * 10).astype(np.float32 if change == "float32 values" else np.int8)
    attributes = COORDINATES if form == "coo" else COMPRESSED
    expected = sp.csr_array(data.astype(np.float64))
    expected.sum_duplicates()
    tensor = spf.pack(layout, data, name="A")
    if shares_oracle(layout, data):
        assert_shares(tensor, data, attributes, FIELDS[layout])
    else:
        assert_copied(tensor, data)
    assert_same_matrix(tensor.to_scipy(), expected)


def data_extent(form: str, rows: int, columns: int) -> int:
    return rows if form == "csr" else columns
