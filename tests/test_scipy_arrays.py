"""Tensor.to_scipy (spf/scipy_arrays.py): tensors of order 1 and 2 as scipy.sparse arrays.

CSR, CSC and coordinate lists hand scipy the Tensor's own read-only arrays (checked with
np.shares_memory) with the canonical flags their properties allow; every other layout
comes back as a coo_array of its entries.  Each result is compared with the scipy matrix
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
import spf.scipy_arrays
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
    array = tensor.to_scipy()
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
    array = tensor.to_scipy()
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


# ----------------------------------------------------------------------------- other layouts: the entries


@pytest.mark.parametrize("name", list(MATRICES))
@pytest.mark.parametrize("layout", ENTRIES)
def test_other_layouts_give_their_entries_as_coo(layout, name):
    matrix = MATRICES[name]
    tensor = spf.pack(layout, matrix, name="A")
    array = tensor.to_scipy()
    assert type(array) is sp.coo_array and array.has_canonical_format
    assert array.nnz == len(tensor.to_coo()[1])  # padding dropped as to_coo drops it
    assert_same_matrix(array, held(layout, matrix))
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
    """The arrays are the Tensor's, read-only: in-place changes raise and change nothing;
    .copy() gives a writable array."""
    tensor = spf.pack(layout, MATRICES["random 37x23"], name="A")
    array = tensor.to_scipy()
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


# ----------------------------------------------------------------------------- real matrices


@pytest.mark.parametrize("name", REAL_MATRICES)
def test_real_matrices_round_trip(name):
    matrix = load_matrix(name)
    matrix.sum_duplicates()
    for layout in list(SHARED) + ["DCSR", "DCSC", "BCSR(R=4, C=4)", CSR64]:
        tensor = spf.pack(layout, matrix, name=name)
        array = tensor.to_scipy()
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
    array = tensor.to_scipy()
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
    monkeypatch.setattr(spf.scipy_arrays, "one_dimensional_arrays", lambda: False)
    with pytest.raises(spf.SpfError, match=r"tensor x: .*order-1 tensor needs 1-D sparse arrays.*scipy 1\.13"):
        spf.pack("SV", np.array([0.0, 1.0]), name="x").to_scipy()


@pytest.mark.parametrize("layout, order", [("COO3", 3), ("CSF3", 3), ("Dense3", 3), ("COO4", 4), ("CSF4", 4)])
def test_order_three_and_more_is_refused_with_the_order(layout, order):
    tensor = spf.pack(layout, np.ones((2,) * order), name="T")
    with pytest.raises(spf.SpfError, match=f"tensor T: to_scipy.. returns scipy.sparse arrays of order 1 or 2; "
                                           f"this tensor has order {order}"):
        tensor.to_scipy()
