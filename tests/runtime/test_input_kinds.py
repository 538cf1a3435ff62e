"""Every kind of sparse input spf reads, by ``spf.pack`` and by a kernel call: each scipy
format (csr, csc, coo, bsr, dia, lil, dok; matrix and array classes; with no rows, no
columns or entries) and pydata ``sparse`` arrays (COO, DOK, GCXS), which spf reads
through their attributes: stand-ins with the same attributes test that without the
package, and the package itself is tested where it is installed."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import spf

SCIPY_FORMATS = ("csr", "csc", "coo", "bsr", "dia", "lil", "dok")
SHAPES = ((0, 0), (0, 7), (5, 0), (30, 40))


@pytest.fixture(scope="module")
def spmv():
    return spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})


def _scipy(form: str, kind: str, shape: tuple) -> object:
    matrix = sp.random(*shape, density=0.1, format="csr", random_state=4)
    matrix.data[:] = np.arange(1.0, matrix.nnz + 1.0)
    return getattr(sp, f"{form}_{kind}")(matrix)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", ["matrix", "array"])
@pytest.mark.parametrize("form", SCIPY_FORMATS)
def test_every_scipy_format_is_packed_and_read_by_a_kernel(spmv, form, kind, shape):
    matrix = _scipy(form, kind, shape)  # a dok_matrix is a dict: it used to be read as a dict of fields
    dense = matrix.toarray()
    for layout in ("CSR", "DCSC", "COO"):
        np.testing.assert_array_equal(spf.pack(layout, matrix).to_dense(), dense)
    x = np.arange(shape[1], dtype=float) - 3
    np.testing.assert_allclose(spmv(A=matrix, x=x), dense @ x)


class PydataCOO:
    """Stands in for pydata ``sparse.COO`` 0.19: its module, ``coords`` (order x nnz),
    ``data``, ``shape`` and ``fill_value``; no ``tocoo()`` (the package's COO has none)."""

    __module__ = "sparse.numba_backend._coo.core"

    def __init__(self, coords, data, shape, fill_value=0.0):
        self.coords = np.asarray(coords, dtype=np.int64).reshape(len(shape), -1)
        self.data, self.shape, self.fill_value = np.asarray(data, dtype=float), tuple(shape), fill_value

    def __array__(self, *arguments, **options):  # as the package's arrays do
        raise RuntimeError("Cannot convert a sparse array to dense automatically. To manually densify, "
                           "use the todense method.")


class PydataDOK(PydataCOO):
    """Stands in for pydata ``sparse.DOK``: ``data`` is a dict from coordinate tuples to
    values; ``to_coo()``, no ``coords``."""

    __module__ = "sparse.numba_backend._dok"

    def __init__(self, entries: dict, shape, fill_value=0.0):
        self.data, self.shape, self.fill_value = dict(entries), tuple(shape), fill_value

    def to_coo(self):
        coords = np.array(list(self.data), dtype=np.int64).reshape(len(self.data), len(self.shape)).T
        return PydataCOO(coords, list(self.data.values()), self.shape, self.fill_value)


class PydataGCXS(PydataCOO):
    """Stands in for pydata ``sparse.GCXS`` (and any other format): only ``tocoo()``."""

    __module__ = "sparse.numba_backend._compressed.compressed"

    def __init__(self, coo: PydataCOO):
        self._coo, self.shape, self.fill_value = coo, coo.shape, coo.fill_value

    def tocoo(self):
        return self._coo


def _entries(shape: tuple, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))
    flat = rng.choice(size, size=min(size, 12), replace=False) if size else np.zeros(0, int)
    return {tuple(int(c) for c in np.unravel_index(f, shape)): float(v)
            for f, v in zip(flat, rng.integers(1, 9, len(flat)))}


def _dense(entries: dict, shape: tuple) -> np.ndarray:
    dense = np.zeros(shape)
    for coordinate, value in entries.items():
        dense[coordinate] = value
    return dense


def _stand_in(form: str, entries: dict, shape: tuple, fill_value=0.0):
    coords = np.array(list(entries), dtype=np.int64).reshape(len(entries), len(shape)).T
    coo = PydataCOO(coords, list(entries.values()), shape, fill_value)
    return {"coo": coo, "dok": PydataDOK(entries, shape, fill_value), "gcxs": PydataGCXS(coo)}[form]


@pytest.mark.parametrize("shape, layout", [((30, 40), "CSR"), ((0, 6), "CSR"), ((6, 0), "DCSR"), ((4, 5, 6), "CSF3"),
                                           ((9,), "SV")])
@pytest.mark.parametrize("form", ["coo", "dok", "gcxs"])
def test_pydata_arrays_are_read_through_their_attributes(spmv, form, shape, layout):
    """COO and DOK used to reach numpy, which pydata arrays refuse (a raw RuntimeError)."""
    entries = _entries(shape, seed=len(shape) + shape[0])
    tensor = _stand_in(form, entries, shape)
    np.testing.assert_array_equal(spf.pack(layout, tensor).to_dense(), _dense(entries, shape))
    if len(shape) == 2:
        x = np.arange(shape[1], dtype=float)
        np.testing.assert_allclose(spmv(A=tensor, x=x), _dense(entries, shape) @ x)
        vector = _stand_in(form, _entries((shape[1],), seed=5), (shape[1],))
        np.testing.assert_allclose(spmv(A=tensor, x=vector),
                                   _dense(entries, shape) @ _dense(_entries((shape[1],), seed=5), (shape[1],)))


@pytest.mark.parametrize("form", ["coo", "dok", "gcxs"])
def test_a_pydata_array_whose_fill_value_is_not_zero_is_refused(spmv, form):
    tensor = _stand_in(form, {(0, 1): 2.0}, (3, 4), fill_value=1.0)
    with pytest.raises(spf.PackError, match="fill value 1.0"):
        spf.pack("CSR", tensor)
    with pytest.raises(spf.PackError, match="fill value 1.0"):
        spmv(A=tensor, x=np.ones(4))


def test_a_pydata_array_spf_cannot_read_is_refused():
    class Unknown:
        __module__ = "sparse.numba_backend._other"
        shape, fill_value = (2, 2), 0.0

    with pytest.raises(spf.PackError, match="cannot read a pydata sparse Unknown"):
        spf.pack("CSR", Unknown())


def _pydata():
    return pytest.importorskip("sparse", reason="pydata sparse is not installed (it is no dependency of spf; "
                                                "pip install sparse to run this test)")


@pytest.mark.parametrize("shape", [(30, 40), (0, 40), (30, 0)])
@pytest.mark.parametrize("form", ["coo", "dok", "gcxs"])
def test_pydata_sparse_itself(spmv, form, shape):
    sparse = _pydata()
    matrix = sparse.random(shape, density=0.1, format=form, random_state=7)
    dense = matrix.todense()
    np.testing.assert_array_equal(spf.pack("CSR", matrix).to_dense(), dense)
    x = np.arange(shape[1], dtype=float)
    np.testing.assert_allclose(spmv(A=matrix, x=x), dense @ x)
    tensor = sparse.random((4, 5, 6), density=0.2, format=form, random_state=8)
    np.testing.assert_array_equal(spf.pack("CSF3", tensor).to_dense(), tensor.todense())
    with pytest.raises(spf.PackError, match="fill value"):
        spf.pack("CSR", sparse.random((3, 4), density=0.5, format=form, fill_value=1.0, random_state=9))


# ----------------------------------------------------------------------------- index dtypes, memory orders, duplicates


def _arrays(matrix) -> dict[str, np.ndarray]:
    """Copies of a scipy matrix's arrays, to check afterwards that nothing wrote them."""
    names = ("data", "indices", "indptr") if matrix.format in ("csr", "csc") else ("data", "row", "col")
    return {name: getattr(matrix, name).copy() for name in names}


def _unchanged(matrix, before: dict[str, np.ndarray]) -> None:
    for name, value in before.items():
        np.testing.assert_array_equal(getattr(matrix, name), value, err_msg=f"{name} was written")


def test_int64_index_arrays(spmv):
    matrix = _scipy("csr", "array", (30, 40))
    wide = sp.csr_array((matrix.data, matrix.indices.astype(np.int64), matrix.indptr.astype(np.int64)),
                        shape=matrix.shape)
    assert wide.indices.dtype == np.int64
    x = np.linspace(-1, 1, 40)
    np.testing.assert_allclose(spmv(A=wide, x=x), matrix.toarray() @ x)
    np.testing.assert_array_equal(spf.pack("CSR", wide).to_dense(), matrix.toarray())
    assert wide.indices.dtype == np.int64 and wide.indices.flags.writeable


@pytest.mark.parametrize("kind", ["strided", "read-only", "Fortran-order"])
def test_numpy_arrays_of_any_memory_order_and_flags(spmv, kind):
    """A dense operand need not be C-contiguous nor writable; it is read, never written."""
    matrix = _scipy("csr", "array", (30, 40))
    longer = np.linspace(-1, 1, 80)
    x = {"strided": longer[::2], "read-only": longer[:40].copy(), "Fortran-order": longer[:40].copy()}[kind]
    if kind == "read-only":
        x.flags.writeable = False
    expected = matrix.toarray() @ x
    if kind == "Fortran-order":
        dense_matrix = np.asfortranarray(matrix.toarray())
        gemv = spf.compile("y(i) = A(i,j) * x(j)", {"A": "Dense2", "x": "Dense", "y": "Dense"})
        np.testing.assert_allclose(gemv(A=dense_matrix, x=x), expected)
        np.testing.assert_array_equal(spf.pack("CSR", dense_matrix).to_dense(), matrix.toarray())
        assert dense_matrix.flags.f_contiguous and dense_matrix.flags.writeable
    before = x.copy()
    np.testing.assert_allclose(spmv(A=matrix, x=x), expected)
    np.testing.assert_array_equal(x, before)


def _non_canonical(form: str):
    """A 3x4 scipy matrix with a duplicate coordinate and unsorted indices, and its dense sum."""
    dense = np.array([[0.0, 3.0, 0.0, 5.0], [0.0, 0.0, 0.0, 0.0], [7.0, 0.0, 2.0, 0.0]])
    if form == "coo":
        matrix = sp.coo_array(([5.0, 1.0, 2.0, 2.0, 7.0], ([0, 0, 0, 2, 2], [3, 1, 1, 2, 0])), shape=(3, 4))
    else:  # row 0: columns 3, 1, 1 (unsorted, 1 twice); row 2: 2, 0
        matrix = sp.csr_array((np.array([5.0, 1.0, 2.0, 2.0, 7.0]), np.array([3, 1, 1, 2, 0]),
                               np.array([0, 3, 3, 5])), shape=(3, 4))
        if form == "csc":
            matrix = sp.csc_array((matrix.data, matrix.indices, matrix.indptr), shape=(4, 3))
            dense = dense.T
    assert not matrix.has_canonical_format
    return matrix, dense


@pytest.mark.parametrize("form", ["csr", "csc", "coo"])
def test_non_canonical_scipy_input_is_summed_and_sorted_on_a_copy(spmv, form):
    matrix, dense = _non_canonical(form)
    before = _arrays(matrix)
    x = np.arange(1.0, dense.shape[1] + 1)
    np.testing.assert_allclose(spmv(A=matrix, x=x), dense @ x)
    _unchanged(matrix, before)
    for layout in ("CSR", "COO", "DCSR"):
        np.testing.assert_array_equal(spf.pack(layout, matrix).to_dense(), dense)
        _unchanged(matrix, before)
    assert not matrix.has_canonical_format
