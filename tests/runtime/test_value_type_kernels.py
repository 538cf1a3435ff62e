"""Kernels over float32, int64, int32 and bool values (spf.notation.value_types): a kernel over
the built-in (generic) layouts computes in numpy's result type of its inputs' values and
returns results of that type, equal to numpy's (integers and booleans exactly, float32 to
float32's precision), for every sparse layout an input may have, dense, scalar and
assembled outputs, semirings, and 2 threads; what a type cannot do yet is refused by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from spf.errors import PackError, SpfError
from spf.notation.value_types import VALUE_TYPES
from semiring_reference import reference

TYPES = [np.float32, np.int64, np.int32, np.bool_]
MATRIX_LAYOUTS = ["CSR", "CSC", "DCSR", "COO", "COO_UNSORTED", "BCSR(R=2, C=2)", "Dense"]


def data(rows: int, columns: int, dtype, seed: int, density: float = 0.3) -> sp.csr_matrix:
    """A random matrix of ``dtype`` with small integral magnitudes (sums stay exact in every type)."""
    rng = np.random.default_rng(seed)
    A = sp.random(rows, columns, density=density, random_state=seed, format="csr")
    A.data = rng.integers(1, 6, A.nnz) * rng.choice([-1, 1], A.nnz) if dtype is not np.bool_ else np.ones(A.nnz)
    return A.astype(dtype)


def vector(length: int, dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = rng.integers(-4, 5, length) if dtype is not np.bool_ else rng.integers(0, 2, length)
    if dtype is np.float32:
        values = values + rng.uniform(0, 1, length)
    return values.astype(dtype)


def operand(A: sp.csr_matrix, layout: str):
    return A.toarray() if layout == "Dense" else A


def assert_same(result, expected) -> None:
    """Same dtype as numpy's; equal (float32 to its precision)."""
    result, expected = np.asarray(result), np.asarray(expected)
    assert result.dtype == expected.dtype, (result.dtype, expected.dtype)
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-4)
    else:
        np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_matrix_vector_products_compute_in_the_inputs_type(dtype, layout):
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "Dense", "y": "Dense"})
    A, x = data(23, 17, dtype, seed=3), vector(17, dtype, seed=4)
    assert_same(kernel(A=operand(A, layout), x=x), A.toarray() @ x)


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
def test_dense_matrix_products_sums_and_scalars(dtype):
    A, B = data(12, 9, dtype, seed=5), data(9, 7, dtype, seed=6)
    product = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "Dense", "C": "Dense"})
    assert_same(product(A=A, B=B.toarray()), A.toarray() @ B.toarray())
    C = data(12, 9, dtype, seed=7)
    total = spf.compile("D(i,j) = A(i,j) + C(i,j)", {"A": "CSR", "C": "CSR", "D": "Dense"})
    assert_same(total(A=A, C=C), A.toarray() + C.toarray())
    inner = spf.compile("s = A(i,j) * C(i,j)", {"A": "CSR", "C": "DCSR"})
    result = inner(A=A, C=C)
    expected = (A.toarray() * C.toarray()).sum(dtype=np.dtype(dtype) if dtype is not np.bool_ else None)
    if dtype is np.bool_:
        expected = np.bool_((A.toarray() & C.toarray()).any())
    assert isinstance(result, np.generic) and result.dtype == np.dtype(dtype)
    assert_same(result, expected)


def test_mixed_inputs_compute_in_numpys_result_type():
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    for a_type, x_type in [(np.float32, np.float64), (np.int32, np.float32), (np.int32, np.int64),
                           (np.bool_, np.float32), (np.int64, np.bool_)]:
        A, x = data(15, 11, a_type, seed=8), vector(11, x_type, seed=9)
        assert_same(kernel(A=A, x=x), A.toarray() @ x)


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("layout", ["CSR", "DCSR", "COO"])
def test_assembled_outputs_hold_the_type(dtype, layout):
    kernel = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": layout})
    A, B = data(20, 14, dtype, seed=10), data(14, 16, dtype, seed=11)
    C = kernel(A=A, B=B)
    assert C.layout.value_type.dtype == np.dtype(dtype)
    assert C.fields[C.layout.values_field].dtype == np.dtype(dtype)
    assert_same(C.to_dense(), (A @ B).toarray())


def test_tensors_convert_between_layouts_in_their_type():
    for dtype in TYPES:
        A = data(9, 7, dtype, seed=12)
        tensor = spf.pack("CSR", A)
        assert tensor.fields["data"].dtype == np.dtype(dtype)
        converted = spf.convert(tensor, "DCSC")
        assert converted.layout.value_type.dtype == np.dtype(dtype)
        assert_same(converted.to_dense(), A.toarray())
        assert_same(converted.to_scipy().toarray(), A.toarray())


def test_fractions_and_boolean_differences_are_refused():
    scaled = spf.compile("y(i) = 0.5 * A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    with pytest.raises(SpfError, match="coefficient 0.5, which int64 cannot hold"):
        scaled(A=data(4, 4, np.int64, seed=13), x=vector(4, np.int64, seed=14))
    difference = spf.compile("C(i,j) = A(i,j) - B(i,j)", {"A": "CSR", "B": "CSR", "C": "Dense"})
    A = data(4, 4, np.bool_, seed=15)
    with pytest.raises(SpfError, match="subtracts, which numpy refuses for booleans"):
        difference(A=A, B=A)
    minus = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, semiring="plus_minus")
    with pytest.raises(SpfError, match="semiring='plus_minus' subtracts, which numpy refuses for booleans"):
        minus(A=A, x=np.ones(4, dtype=bool))
    twice = spf.compile("y(i) = 2 * A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    A, x = data(9, 8, np.int32, seed=16), vector(8, np.int32, seed=17)
    assert_same(twice(A=A, x=x), 2 * (A.toarray() @ x))


@pytest.mark.parametrize("ring", ["min_plus", "max_times", "lor_land", "any_pair", "plus_pair", "min_first"])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32], ids=lambda t: np.dtype(t).name)
def test_semirings_over_integers_and_float32(ring, dtype):
    A, x = data(16, 12, dtype, seed=18), vector(12, dtype, seed=19)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, semiring=ring)
    result = kernel(A=A, x=x)
    expected = reference("y(i) = A(i,j) * x(j)", ring, (16,), A=A.astype(np.float64), x=x.astype(np.float64))
    if np.dtype(dtype).kind == "i":  # an entry no product reaches holds ⊕'s identity: the type's extreme
        info = np.iinfo(dtype)
        expected = np.where(expected == np.inf, info.max, np.where(expected == -np.inf, info.min, expected))
    assert_same(result, expected.astype(dtype))


def test_an_integer_minimum_starts_from_the_largest_integer():
    A = sp.csr_matrix(np.array([[0, 3], [0, 0]], dtype=np.int64))
    shortest = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, semiring="min_plus")
    assert shortest(A=A, x=np.array([5, 7], dtype=np.int64)).tolist() == [10, np.iinfo(np.int64).max]


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=lambda t: np.dtype(t).name)
def test_two_threads_over_several_chunks(dtype, openmp_threads):
    A, x = data(3000, 400, dtype, seed=20, density=0.02), vector(400, dtype, seed=21)
    spmv = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, parallel=True)
    assert_same(spmv(A=A, x=x), A.toarray() @ x)
    columns = spf.compile("y(j) = A(i,j) * x(i)", {"A": "CSR", "x": "Dense", "y": "Dense"}, parallel=True)
    z = vector(3000, dtype, seed=22)
    assert_same(columns(A=A, x=z), A.toarray().T @ z)
    inner = spf.compile("s = A(i,j) * B(i,j)", {"A": "CSR", "B": "CSR"}, parallel=True)
    assert_same(inner(A=A, B=A), (A.toarray() * A.toarray()).sum())


def test_a_kernel_is_specialised_once_per_type():
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    float32 = VALUE_TYPES["float32"]
    assert kernel.specialised(float32) is kernel.specialised(float32)
    assert kernel.specialised(VALUE_TYPES["float64"]) is kernel
    source = kernel.specialised(float32).c_source  # float arrays, double register sums (value_types says why)
    assert "float * restrict A_data" in source and "double sum" in source and "float sum" not in source
    assert "int64_t sum" in kernel.specialised(VALUE_TYPES["int64"]).c_source
    bound = kernel.bind(A=data(5, 4, np.float32, seed=23), x=vector(4, np.float32, seed=24))
    assert bound().dtype == np.float32


def test_inputs_that_declare_float32_give_a_float32_output():
    from conftest import REPOSITORY
    layouts = REPOSITORY / "examples" / "layouts"
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": str(layouts / "CSR_F32.layout"),
                                                  "x": str(layouts / "Dense1_F32.layout"), "y": "Dense"})
    A, x = data(8, 6, np.float32, seed=25), vector(6, np.float32, seed=26)
    assert_same(kernel(A=A, x=x), A.toarray() @ x)
    with pytest.raises(PackError, match="float64 data into layout CSR_F32, whose values are float32"):
        kernel(A=A.astype(np.float64), x=x)
    assert_same(kernel(A=spf.pack(str(layouts / "CSR_F32.layout"), A.astype(np.float64), cast=True), x=x),
                A.toarray() @ x)


@pytest.mark.parametrize("dtype", TYPES, ids=lambda t: np.dtype(t).name)
def test_packing_keeps_the_datas_type_in_generic_layouts(dtype):
    A = data(7, 5, dtype, seed=27)
    shared = spf.pack("CSR", A)  # scipy's own arrays, already the layout's: shared, not copied
    assert shared.layout.value_type.dtype == np.dtype(dtype) and np.shares_memory(shared.fields["data"], A.data)
    assert_same(spf.pack("DCSR", A).to_dense(), A.toarray())
    dense = spf.pack("Dense", A.toarray())
    assert dense.layout.name == "Dense2" and dense.fields["vals"].dtype == np.dtype(dtype)
    coords = np.argwhere(A.toarray() != 0)
    triple = spf.pack("COO", (coords, A.toarray()[tuple(coords.T)], A.shape))
    assert_same(triple.to_dense(), A.toarray())
    fields = spf.pack("CSR", {"rowPtr": A.indptr, "colIdx": A.indices, "data": A.data}, shape=A.shape)
    assert fields.fields["data"].dtype == np.dtype(dtype)
    assert spf.pack("CSR", A.astype(np.float64)).layout == spf.load_layout("CSR")  # float64: the layout as it is


def test_a_declared_float32_layout_refuses_float64_data_unless_cast():
    from conftest import REPOSITORY
    path = str(REPOSITORY / "examples" / "layouts" / "CSR_F32.layout")
    A = data(6, 6, np.float64, seed=28)
    with pytest.raises(PackError, match="float64 data into layout CSR_F32, whose values are float32, would round"):
        spf.pack(path, A)
    assert spf.pack(path, A, cast=True).fields["data"].dtype == np.float32
    with pytest.raises(PackError, match="int32 data into layout CSR_F32"):  # not every int32 is a float32
        spf.pack(path, A.astype(np.int32))
    assert spf.pack(path, A.astype(bool)).fields["data"].dtype == np.float32  # a widening: no cast needed


# ----------------------------------------------------------------------------- complex values

COMPLEX_LAYOUTS = ["CSR", "CSC", "DCSR", "COO", "COO_UNSORTED", "BCSR(R=2, C=2)", "ELL", "DIA", "Dense"]


def complex_data(rows: int, columns: int, dtype, seed: int, density: float = 0.3) -> sp.csr_matrix:
    """Complex entries whose real or imaginary part is sometimes zero (an entry all the same)."""
    rng = np.random.default_rng(seed)
    A = sp.random(rows, columns, density=density, random_state=seed, format="csr")
    real = rng.choice([0.0, 1.0, -2.5], A.nnz)
    A.data = real + 1j * np.where(real == 0, rng.uniform(0.5, 2.0, A.nnz), rng.choice([0.0, 0.5], A.nnz))
    return A.astype(dtype)


def complex_vector(length: int, dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(length) + 1j * rng.standard_normal(length)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("layout", COMPLEX_LAYOUTS)
def test_complex_matrix_vector_products_over_every_layout(dtype, layout):
    A, x = complex_data(30, 22, dtype, 40), complex_vector(22, dtype, 41)
    tensor = spf.pack(layout, operand(A, layout))
    assert tensor.layout.value_type.name == np.dtype(dtype).name
    np.testing.assert_allclose(tensor.to_dense(), A.toarray())
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "Dense1", "y": "Dense1"})
    result = kernel(A=tensor, x=x)
    assert result.dtype == dtype
    tolerance = 1e-12 if dtype is np.complex128 else 1e-5
    np.testing.assert_allclose(result, A @ x, rtol=tolerance, atol=tolerance)


def test_complex_with_real_inputs_sums_scalars_and_two_threads(openmp_threads):
    A, B = complex_data(400, 300, np.complex128, 42, density=0.05), data(400, 300, np.float64, 43, density=0.05)
    x = complex_vector(300, np.complex128, 44)
    product = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, parallel=True)
    np.testing.assert_allclose(product(A=B, x=x), B @ x, rtol=1e-12)  # real A, complex x: complex128
    pull = spf.compile("y(j) = A(i,j) * x(i)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, parallel=True)
    z = complex_vector(400, np.complex128, 45)
    np.testing.assert_allclose(pull(A=A, x=z), A.T @ z, rtol=1e-12)
    total = spf.compile("s = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1"}, parallel=True)
    assert np.isclose(total(A=A, x=x), (A @ x).sum(), rtol=1e-12)
    added = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "Dense2"})
    np.testing.assert_allclose(added(A=A, B=B), (A + B).toarray(), rtol=1e-12)


def test_complex_values_under_semirings_that_need_no_order():
    A, x = complex_data(20, 15, np.complex128, 46), complex_vector(15, np.complex128, 47)
    for ring in ("plus_times", "plus_first", "plus_second", "plus_pair", "any_pair", "times_times"):
        kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, semiring=ring)
        expected = complex_reference(A, x, ring)
        np.testing.assert_allclose(kernel(A=A, x=x), expected, rtol=1e-12, atol=1e-12)


def complex_reference(A: sp.csr_matrix, x: np.ndarray, ring: str) -> np.ndarray:
    """Row by row under a semiring whose monoid is plus, times or any (the first nonzero)."""
    monoid, operator = ring.split("_")
    multiply = {"times": lambda a, b: a * b, "first": lambda a, b: a, "second": lambda a, b: b,
                "pair": lambda a, b: 1}[operator]
    result = np.full(A.shape[0], 1 if monoid == "times" else 0, dtype=complex)
    for i in range(A.shape[0]):
        for position in range(A.indptr[i], A.indptr[i + 1]):
            product = multiply(A.data[position], x[A.indices[position]])
            if monoid == "plus":
                result[i] += product
            elif monoid == "times":
                result[i] *= product
            elif result[i] == 0:
                result[i] = product
    return result


def test_what_complex_values_cannot_do_is_refused_naming_both_types():
    A, x = complex_data(10, 8, np.complex128, 48), complex_vector(8, np.complex128, 49)
    layouts = {"A": "CSR", "x": "Dense1", "y": "Dense1"}
    for ring, part in (("min_plus", "min"), ("lor_land", "lor"), ("plus_max", "max")):
        with pytest.raises(SpfError, match=f"complex128 values under semiring='{ring}': its .* {part}"):
            spf.compile("y(i) = A(i,j) * x(j)", layouts, semiring=ring)(A=A, x=x)
    with pytest.raises(SpfError, match="complex128 values: output C is assembled in CSR"):
        spf.compile("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSR", "C": "CSR"})(A=A, B=A.T.tocsr())
    for cast in (False, True):
        with pytest.raises(PackError, match="complex128 data into layout CSR_F32, whose values are float32, "
                                            "would drop their imaginary parts"):
            spf.pack(str(EXAMPLES / "CSR_F32.layout"), A, cast=cast)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "layouts"
