"""Layouts whose values are ``float`` (float32) and whose index arrays are 64-bit.

Every path that builds such a Tensor (``spf.pack`` from scipy, dense numpy or a
coordinate triple; ``spf.convert`` into it; a kernel's assembled output in it) must
store each value as the float64 value rounded to float32 once: the builders keep
values as doubles (duplicates summed in double) and round them when they write the
layout's own array.  Issue 25: the doubles' bytes used to be read as floats.

The layouts are user files: examples/layouts/CSR_F32, DCSR64_F32 (int64 index arrays
and counts), CSF3_F32 and SV64_F32, and float copies of built-in layouts written into
``tmp_path``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from conftest import REAL_MATRICES, REAL_TENSORS, REPOSITORY, load_matrix, load_tensor
from spf.runtime.packing import reference_pack
from spf.runtime.validation import validate

EXAMPLES = REPOSITORY / "examples" / "layouts"
CSR_F32 = str(EXAMPLES / "CSR_F32.layout")
DCSR64_F32 = str(EXAMPLES / "DCSR64_F32.layout")
CSF3_F32 = str(EXAMPLES / "CSF3_F32.layout")
SV64_F32 = str(EXAMPLES / "SV64_F32.layout")
EPS32 = float(np.finfo(np.float32).eps)


def pack32(*arguments, **options) -> spf.Tensor:
    """spf.pack rounding float64 data into a float32 layout (cast=True: what these tests check)."""
    return spf.pack(*arguments, cast=True, **options)


def float_copy(name: str, directory, wide: bool = False) -> str:
    """A built-in layout written as a user file with float values (and, ``wide``, every
    int array and count int64); its path."""
    text = (REPOSITORY / "layouts" / f"{name}.layout").read_text()
    copy = f"{name}_F32" + ("_64" if wide else "")
    text = re.sub(rf"^layout {name}\b", f"layout {copy}", text, flags=re.MULTILINE)
    text = re.sub(r"(field \w+:\s*)(?:double|value)\b", r"\1float", text)
    if wide:
        text = re.sub(r"(field \w+:\s*)int\[", r"\1int64[", text)
        text = re.sub(r"(field \w+:\s*)int(\s*(#.*)?)$", r"\1int64\2", text, flags=re.MULTILINE)
    path = directory / f"{copy}.layout"
    path.write_text(text)
    return str(path)


def rounded(array) -> np.ndarray:
    """The float64 values rounded to float32 (as float64, for comparisons)."""
    return np.asarray(array, dtype=np.float64).astype(np.float32).astype(np.float64)


def assert_float32_tensor(tensor: spf.Tensor, expected: np.ndarray) -> None:
    """``tensor`` holds exactly ``expected`` rounded to float32, in float32 arrays of the
    declared types, and passes the full check (valid by construction)."""
    layout = tensor.layout
    for field in layout.arrays:
        assert tensor.fields[field.name].dtype == field.numpy_dtype, field.name
    assert tensor.values.dtype == np.float32
    np.testing.assert_array_equal(tensor.to_dense(), rounded(expected))
    validate(layout, dict(tensor.fields), "T", tensor.shape)


def assert_within_float32_rounding(got: spf.Tensor, expected: np.ndarray, scale: np.ndarray) -> None:
    """An assembled float32 result: the float64 result rounded to float32, within the
    rounding of the sums (``scale``: the sums of the terms' magnitudes), and the same pattern."""
    assert got.values.dtype == np.float32
    dense = got.to_dense()
    assert np.array_equal(dense != 0, rounded(expected) != 0)
    assert np.all(np.abs(dense - rounded(expected)) <= EPS32 * scale), np.abs(dense - rounded(expected)).max()
    validate(got.layout, dict(got.fields), "C", got.shape)


def random_matrix(rows: int, columns: int, density: float, seed: int) -> np.ndarray:
    """Values not representable in float32 (so rounding shows), with empty rows."""
    rng = np.random.default_rng(seed)
    array = np.where(rng.random((rows, columns)) < density, rng.standard_normal((rows, columns)) * 3.7, 0.0)
    array[rng.random(rows) < 0.2] = 0.0
    return array


# ----------------------------------------------------------------------------- the reproducer


def test_issue_25_reproducer_packs_the_values_not_their_bytes():
    tensor = pack32(CSR_F32, sp.csr_matrix(np.array([[1.5, 0.0], [0.0, 2.5]])))
    np.testing.assert_array_equal(tensor.fields["data"], np.array([1.5, 2.5], dtype=np.float32))
    assert tensor.fields["data"].dtype == np.float32


# ----------------------------------------------------------------------------- packing


MATRIX_COPIES = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "CSR_UNSORTED", "DIA", "ELL", "Dense2"]


@pytest.fixture(scope="module")
def matrix_layouts(tmp_path_factory) -> dict[str, str]:
    """Every float layout of order 2 the tests pack into: the examples and float copies
    (int64 ones too) of built-in layouts (ELL: the reference packer; Dense2: row-major)."""
    directory = tmp_path_factory.mktemp("float_layouts")
    layouts = {"CSR_F32": CSR_F32, "DCSR64_F32": DCSR64_F32}
    for name in MATRIX_COPIES:
        layouts[f"{name}_F32"] = float_copy(name, directory)
        if name != "Dense2":
            layouts[f"{name}_F32_64"] = float_copy(name, directory, wide=True)
    return layouts


@pytest.mark.parametrize("kind", ["csr", "coo", "csc", "dense", "triple"])
def test_every_packing_path_rounds_each_value_once(matrix_layouts, kind):
    array = random_matrix(23, 17, 0.3, seed=1)
    coords = np.argwhere(array != 0)
    shuffled = np.random.default_rng(2).permutation(len(coords))
    data = {"csr": sp.csr_matrix(array), "coo": sp.coo_matrix(array), "csc": sp.csc_matrix(array),
            "dense": array, "triple": (coords[shuffled], array[tuple(coords[shuffled].T)], array.shape)}[kind]
    for name, path in matrix_layouts.items():
        tensor = pack32(path, data)
        assert_float32_tensor(tensor, array)


def test_packing_matches_the_reference_packer_field_by_field(matrix_layouts):
    array = random_matrix(19, 13, 0.35, seed=3)
    coords = np.argwhere(array != 0)
    for name, path in matrix_layouts.items():
        layout = spf.load_layout(path)
        expected = reference_pack(layout, coords, array[tuple(coords.T)], array.shape, "T")
        got = pack32(path, (coords, array[tuple(coords.T)], array.shape))
        for field in layout.fields:
            np.testing.assert_array_equal(np.asarray(got.fields[field.name]), np.asarray(expected.fields[field.name]),
                                          err_msg=f"{name}: {field.name}")


@pytest.mark.parametrize("layout", [CSR_F32, DCSR64_F32])
def test_duplicates_are_summed_in_double_and_rounded_once(layout):
    # 1 + 0.4u + 0.4u (u: float32's epsilon) is 1 + 0.8u, which rounds to 1 + u;
    # rounding after each addition would give 1 twice
    u = EPS32
    matrix = sp.coo_matrix((np.array([1.0, 0.4 * u, 0.4 * u, 3.0]), (np.array([0, 0, 0, 1]), np.array([1, 1, 1, 0]))),
                           shape=(2, 2))
    tensor = pack32(layout, matrix)
    assert tensor.to_dense()[0, 1] == np.float32(1 + u)
    assert tensor.to_dense()[1, 0] == 3.0


def test_order_1_and_3_layouts_pack_exactly(tmp_path):
    rng = np.random.default_rng(4)
    vector = np.where(rng.random(50) < 0.4, rng.standard_normal(50), 0.0)
    for path in (SV64_F32, float_copy("SV_UNSORTED", tmp_path), float_copy("Dense1", tmp_path)):
        assert_float32_tensor(pack32(path, vector), vector)
        assert_float32_tensor(pack32(path, (np.argwhere(vector != 0), vector[vector != 0], vector.shape)), vector)
    tensor = np.where(rng.random((6, 5, 7)) < 0.3, rng.standard_normal((6, 5, 7)), 0.0)
    for path in (CSF3_F32, float_copy("CSF3", tmp_path, wide=True), float_copy("CSF3_DENSE_LAST", tmp_path),
                 float_copy("COO3", tmp_path)):
        assert_float32_tensor(pack32(path, tensor), tensor)


def test_values_beyond_the_largest_float32_are_refused(tmp_path):
    data = np.array([[1e300, 0.0], [0.0, 1.0]])
    dense = float_copy("Dense2", tmp_path)
    for layout, given in ((CSR_F32, sp.csr_matrix(data)), (CSR_F32, data), (DCSR64_F32, data), (dense, data),
                          (CSR_F32, (np.array([[0, 0]]), np.array([-1e39]), (2, 2)))):
        with pytest.raises(spf.PackError, match="beyond the largest float32"):
            pack32(layout, given)
    double = pack32("CSR", data)
    with pytest.raises(spf.PackError, match="beyond the largest float32"):
        spf.convert(double, CSR_F32)
    infinite = pack32(CSR_F32, np.array([[np.inf, 0.0], [0.0, np.float32(3.4e38)]]))  # not beyond: kept
    assert np.isinf(infinite.to_dense()[0, 0]) and infinite.to_dense()[1, 1] == np.float32(3.4e38)


def test_a_float32_dense_array_is_shared_when_asked_and_float64_is_copied(tmp_path):
    dense = float_copy("Dense2", tmp_path)
    array = np.arange(6, dtype=np.float32).reshape(2, 3) / 3
    shared = pack32(dense, array, copy=False)
    assert np.shares_memory(shared.values, array)
    with pytest.raises(spf.PackError, match="not float32 in C order"):
        pack32(dense, array.astype(np.float64), copy=False)
    assert_float32_tensor(pack32(dense, array.astype(np.float64) + 1e-9), array.astype(np.float64) + 1e-9)


# ----------------------------------------------------------------------------- conversion


def test_conversions_into_and_out_of_float32_layouts(matrix_layouts):
    array = random_matrix(31, 29, 0.25, seed=5)
    source = pack32("CSR", array)
    for name, path in matrix_layouts.items():
        converted = spf.convert(source, path)
        assert_float32_tensor(converted, array)
        for target in ("CSR", "CSC", "COO", CSR_F32, DCSR64_F32):
            back = spf.convert(converted, target)
            np.testing.assert_array_equal(back.to_dense(), rounded(array), err_msg=f"{name} -> {target}")
    again = spf.convert(source, CSR_F32)  # the cached conversion
    assert_float32_tensor(again, array)


def test_conversions_of_order_3_tensors(tmp_path):
    rng = np.random.default_rng(6)
    tensor = np.where(rng.random((9, 4, 8)) < 0.3, rng.standard_normal((9, 4, 8)) * 11, 0.0)
    source = pack32("COO3", tensor)
    for path in (CSF3_F32, float_copy("CSF3", tmp_path, wide=True), float_copy("COO3", tmp_path)):
        converted = spf.convert(source, path)
        assert_float32_tensor(converted, tensor)
        np.testing.assert_array_equal(spf.convert(converted, "CSF3").to_dense(), rounded(tensor))


# ----------------------------------------------------------------------------- assembled outputs


OUTPUTS = [CSR_F32, DCSR64_F32]


@pytest.fixture(scope="module")
def matrix_outputs(tmp_path_factory) -> list[str]:
    directory = tmp_path_factory.mktemp("float_outputs")
    return OUTPUTS + [float_copy("CSC", directory), float_copy("COO", directory, wide=True),
                      float_copy("CSR", directory, wide=True)]


@pytest.mark.parametrize("parallel", [False, True])
def test_assembled_matrix_outputs(matrix_outputs, parallel, openmp_threads):
    # 300 rows: a parallel loop's rows split into several pieces per thread (SPF_PARALLEL_GRAIN=1)
    a, b, d = random_matrix(300, 120, 0.05, 7), random_matrix(120, 90, 0.06, 8), random_matrix(300, 120, 0.05, 9)
    A, B, D = sp.csr_matrix(a), sp.csr_matrix(b), sp.csr_matrix(d)
    for output in matrix_outputs:
        product = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": output}, parallel=parallel)
        assert_within_float32_rounding(product(A=A, B=B), a @ b, np.abs(a) @ np.abs(b))
        total = spf.compile("C(i,j) = A(i,j) + D(i,j)", {"A": "CSR", "D": "CSR", "C": output}, parallel=parallel)
        assert_within_float32_rounding(total(A=A, D=D), a + d, np.abs(a) + np.abs(d))
        transposed = spf.compile("C(j,i) = A(i,j)", {"A": "CSR", "C": output}, parallel=parallel)
        assert_within_float32_rounding(transposed(A=A), a.T, np.abs(a.T))


@pytest.mark.parametrize("parallel", [False, True])
def test_assembled_ttm_and_ttv_outputs(parallel, openmp_threads):
    rng = np.random.default_rng(10)
    tensor = np.where(rng.random((160, 12, 10)) < 0.08, rng.standard_normal((160, 12, 10)), 0.0)
    matrix, vector = rng.standard_normal((10, 3)), rng.standard_normal(10)
    X = pack32("CSF3", tensor)
    ttm = spf.compile("Y(i,j,l) = X(i,j,k) * U(k,l)", {"X": "CSF3", "U": "Dense2", "Y": CSF3_F32}, parallel=parallel)
    assert_within_float32_rounding(ttm(X=X, U=matrix), np.einsum("ijk,kl->ijl", tensor, matrix),
                                   np.einsum("ijk,kl->ijl", np.abs(tensor), np.abs(matrix)))
    ttv = spf.compile("Y(i,j) = X(i,j,k) * v(k)", {"X": "CSF3", "v": "Dense1", "Y": DCSR64_F32}, parallel=parallel)
    assert_within_float32_rounding(ttv(X=X, v=vector), np.einsum("ijk,k->ij", tensor, vector),
                                   np.einsum("ijk,k->ij", np.abs(tensor), np.abs(vector)))
    spmv = spf.compile("y(i) = A(i,j) * x(j)", {"A": CSR_F32, "x": "SV", "y": SV64_F32}, parallel=parallel)
    a = random_matrix(200, 40, 0.1, 11)
    x = np.where(rng.random(40) < 0.5, rng.standard_normal(40), 0.0)
    assert_within_float32_rounding(spmv(A=pack32(CSR_F32, a), x=x), rounded(a) @ x, np.abs(rounded(a)) @ np.abs(x))


# ----------------------------------------------------------------------------- float32 dense arrays in kernels


def test_a_float32_input_read_down_its_columns_is_read_as_float(tmp_path):
    """SDDMM reads D(k,j) down a column: through a transposed copy when B has entries enough
    (12 per column of D), else through D itself; both pointers have D's own type."""
    dense = float_copy("Dense2", tmp_path)
    rng = np.random.default_rng(13)
    C, D = rng.standard_normal((400, 8)), rng.standard_normal((8, 300))
    kernel = spf.compile("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"B": "CSR", "C": "Dense2", "D": dense, "A": "CSR"},
                         share={"A": "B"})
    assert "spf_read_D_vals" in kernel.c_source
    for density in (0.002, 0.05):  # below and above the copy's threshold
        B = sp.random(400, 300, density=density, random_state=14, format="csr")
        got = kernel(B=B, C=C, D=pack32(dense, D)).to_dense()
        np.testing.assert_allclose(got, B.toarray() * (C @ rounded(D)), rtol=1e-12, atol=1e-12)


def test_a_privatized_reduction_into_a_float32_output(tmp_path, openmp_threads):
    dense = float_copy("Dense1", tmp_path)
    A = sp.random(500, 300, density=0.05, random_state=15, format="coo")
    x = np.random.default_rng(16).standard_normal(300)
    layouts = {"A": "COO", "x": "Dense1", "y": dense}
    recipe = spf.recipe("y(i) = A(i,j) * x(j)", layouts).parallelize("pA", reduction="privatize")
    kernel = spf.compile("y(i) = A(i,j) * x(j)", layouts, schedule=recipe)
    got = kernel(A=A, x=x)
    assert got.dtype == np.float32
    assert np.all(np.abs(got - A @ x) <= 2 * EPS32 * (abs(A) @ np.abs(x)))


# ----------------------------------------------------------------------------- real data


@pytest.mark.parametrize("matrix", REAL_MATRICES[:6])
def test_real_matrices_pack_convert_and_multiply_in_float32(matrix):
    data = load_matrix(matrix) * np.pi  # skips with the reason when ../shared/data is absent; pattern
    dense = data.toarray()               # matrices hold ones: times pi, their values round in float32
    for layout in (CSR_F32, DCSR64_F32):
        assert_float32_tensor(pack32(layout, data), dense)
        assert_float32_tensor(spf.convert(pack32("CSC", data), layout), dense)
    if data.shape[0] == data.shape[1] and data.nnz <= 60_000:
        product = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": CSR_F32}, parallel=True)
        assert_within_float32_rounding(product(A=data, B=data), (data @ data).toarray(),
                                       (abs(data) @ abs(data)).toarray())


@pytest.mark.parametrize("tensor", REAL_TENSORS[:3])
def test_real_tensors_pack_and_contract_in_float32(tensor):
    coords, values, shape = load_tensor(tensor)  # skips with the reason when ../shared/data is absent
    values = values * np.pi  # counts: times pi, their values round in float32
    packed = pack32(CSF3_F32, (coords, values, shape))
    assert packed.values.dtype == np.float32
    got_coords, got_values, _ = packed.to_coo()
    order = np.lexsort(coords.T[::-1])
    np.testing.assert_array_equal(got_coords, coords[order])
    np.testing.assert_array_equal(got_values, values[order].astype(np.float32))
    vector = np.random.default_rng(12).standard_normal(shape[2])
    ttv = spf.compile("Y(i,j) = X(i,j,k) * v(k)", {"X": CSF3_F32, "v": "Dense1", "Y": DCSR64_F32}, parallel=True)
    reference = np.zeros(shape[:2])
    np.add.at(reference, (coords[:, 0], coords[:, 1]), rounded(values) * vector[coords[:, 2]])
    scale = np.zeros(shape[:2])
    np.add.at(scale, (coords[:, 0], coords[:, 1]), np.abs(rounded(values) * vector[coords[:, 2]]))
    assert_within_float32_rounding(ttv(X=packed, v=vector), reference, scale)
