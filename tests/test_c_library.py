"""C libraries from ``spf compile``: the example application, the ABI, a user layout.

The example in examples/spmv_app is built with plain ``cc`` against the generated
library and run on Matrix Market files this test writes and on real matrices; its
output must equal scipy's ``A @ x``.
"""

from __future__ import annotations

import ctypes
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sparse

import spf
from spf.__main__ import main
from spf.codegen.emit_c import OUT_OF_MEMORY, SHAPE_MISMATCH
from spf.codegen.structs import ctypes_struct, marshal
from tests.conftest import REPOSITORY, load_matrix, matrix_path

EXAMPLE = REPOSITORY / "examples" / "spmv_app" / "main.c"
USER_LAYOUT = REPOSITORY / "examples" / "layouts" / "CSR64.layout"
SPMV = "y(i) = A(i,j) * x(j)"


def spf_compile(*arguments: str) -> None:
    assert main(["compile", *arguments]) == 0


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    """A directory with the spmv library, as examples/spmv_app/README.md makes it."""
    directory = tmp_path_factory.mktemp("build")
    spf_compile(SPMV, "-l", "A=CSR", "-l", "x=Dense", "-l", "y=Dense", "-o", str(directory / "spmv"))
    return directory


@pytest.fixture(scope="module")
def app(build) -> Path:
    """examples/spmv_app/main.c linked against the generated library."""
    executable = build / "spmv_app"
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", str(EXAMPLE), f"-I{build}", f"-L{build}",
                    "-lspmv", f"-Wl,-rpath,{build}", "-o", str(executable)], check=True)
    return executable


def run_app(app: Path, matrix: Path) -> np.ndarray:
    result = subprocess.run([str(app), str(matrix)], capture_output=True, text=True, check=True)
    return np.array([float(line) for line in result.stdout.split()])


def assert_matches_scipy(y: np.ndarray, matrix) -> None:
    """y == A @ x with x[j] = j + 1, to rounding (the sums may run in another order)."""
    expected = matrix @ np.arange(1.0, matrix.shape[1] + 1)
    assert y.shape == expected.shape
    np.testing.assert_allclose(y, expected, rtol=1e-12, atol=1e-12 * max(1.0, np.abs(expected).max()))


def write_matrix_market(path: Path, rows: int, cols: int, entries: list, field: str = "real",
                        symmetry: str = "general") -> Path:
    """A coordinate file with ``entries`` (1-based row, column[, value]) in the given order."""
    lines = [f"%%MatrixMarket matrix coordinate {field} {symmetry}", "% written by test_c_library",
             f"{rows} {cols} {len(entries)}"]
    lines += [" ".join(str(part) for part in entry) for entry in entries]
    path.write_text("\n".join(lines) + "\n")
    return path


def random_entries(rows: int, cols: int, count: int, seed: int, field: str = "real",
                   lower: bool = False) -> list:
    """Distinct random 1-based coordinates in random order (lower triangle when ``lower``)."""
    rng = np.random.default_rng(seed)
    cells = [(i, j) for i in range(1, rows + 1) for j in range(1, cols + 1) if not lower or j <= i]
    chosen = rng.choice(len(cells), size=min(count, len(cells)), replace=False)
    entries = []
    for k in chosen:
        i, j = cells[k]
        if field == "pattern":
            entries.append((i, j))
        elif field == "integer":
            entries.append((i, j, int(rng.integers(-9, 10))))
        else:
            entries.append((i, j, repr(float(rng.normal()))))
    return entries


# ----------------------------------------------------------------------------- the example application


@pytest.mark.parametrize("rows, cols, count, field, symmetry", [
    (6, 6, 14, "real", "general"),
    (9, 4, 20, "real", "general"),      # rectangular, some empty rows
    (4, 9, 20, "integer", "general"),
    (7, 7, 15, "pattern", "general"),
    (8, 8, 20, "real", "symmetric"),
    (8, 8, 20, "pattern", "symmetric"),
    (3, 5, 0, "real", "general"),       # no entries at all
])
def test_example_app_matches_scipy(app, tmp_path, rows, cols, count, field, symmetry):
    entries = random_entries(rows, cols, count, seed=rows * cols + count, field=field,
                             lower=symmetry == "symmetric")
    path = write_matrix_market(tmp_path / "m.mtx", rows, cols, entries, field, symmetry)
    assert_matches_scipy(run_app(app, path), sparse.csr_matrix(scipy.io.mmread(path)))


def test_example_app_sums_duplicates(app, tmp_path):
    path = write_matrix_market(tmp_path / "m.mtx", 2, 3, [(2, 3, 1.5), (1, 2, 1.0), (2, 3, 2.0), (2, 1, 4.0)])
    np.testing.assert_array_equal(run_app(app, path), [2.0, 4.0 + 3 * 3.5])


@pytest.mark.parametrize("name", ["494_bus", "west0479", "ca-GrQc", "lp_e226", "bcsstk13"])
def test_example_app_on_real_matrices(app, name):
    assert_matches_scipy(run_app(app, matrix_path(name)), load_matrix(name))


@pytest.mark.parametrize("text, message", [
    ("not a matrix\n", "not a Matrix Market file"),
    ("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "only coordinate matrices"),
    ("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "unsupported field"),
    ("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n", "truncated or malformed"),
    ("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n", "entry out of range"),
])
def test_example_app_refuses_malformed_files(app, tmp_path, text, message):
    path = tmp_path / "bad.mtx"
    path.write_text(text)
    result = subprocess.run([str(app), str(path)], capture_output=True, text=True)
    assert result.returncode == 1 and result.stdout == ""
    assert message in result.stderr


# ----------------------------------------------------------------------------- the ABI


def abi_comment(header: str) -> str:
    """The header's first comment as one line of text."""
    comment = header[header.index("/*") + 2:header.index("*/")]
    return " ".join(line.strip(" *") for line in comment.splitlines() if line.strip(" *"))


def test_header_states_the_abi(build):
    text = abi_comment((build / "spmv.h").read_text())
    for phrase in ["exactly the layout file's fields in its order", "a scalar output is a double *",
                   "the caller allocates and frees every array, the output's included",
                   f"{SHAPE_MISMATCH} when the tensors' shapes disagree (nothing is written)",
                   f"{OUT_OF_MEMORY} when memory for a find's tables cannot be allocated",
                   "kernels keep no global state"]:
        assert phrase in text, phrase


def dense_vector(values: np.ndarray):
    """The Dense1 struct over ``values`` (which the caller keeps alive during the call)."""
    return ctypes_struct("Dense1")(len(values), values.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))


def test_shape_mismatch_returns_its_code_and_writes_nothing(build):
    function = ctypes.CDLL(str(build / "libspmv.so")).spmv
    matrix = sparse.random(5, 4, density=0.5, format="csr", random_state=3)
    A, A_arrays = marshal(spf.pack("CSR", matrix, name="A"))
    x_values = np.ones(5)  # A has 4 columns
    y_values = np.full(5, np.nan)
    x, y = dense_vector(x_values), dense_vector(y_values)
    assert function(ctypes.byref(A), ctypes.byref(x), ctypes.byref(y)) == SHAPE_MISMATCH
    assert np.isnan(y_values).all()


def test_scalar_output_is_a_double_pointer(tmp_path):
    spf_compile("a = x(i) * y(i)", "-l", "x=Dense", "-l", "y=Dense", "-o", str(tmp_path / "dot"))
    assert "int dot(struct spf_Dense1 *x, struct spf_Dense1 *y, double *a);" in (tmp_path / "dot.h").read_text()
    function = ctypes.CDLL(str(tmp_path / "libdot.so")).dot
    x_values, y_values = np.array([1.0, 2.0, 3.0]), np.array([4.0, -5.0, 6.0])
    x, y = dense_vector(x_values), dense_vector(y_values)
    result = ctypes.c_double(99.0)
    assert function(ctypes.byref(x), ctypes.byref(y), ctypes.byref(result)) == 0
    assert result.value == 12.0


# ----------------------------------------------------------------------------- a user layout


def test_user_layout_file_through_the_command(tmp_path):
    spf_compile(SPMV, "-l", f"A={USER_LAYOUT}", "-l", "x=SV", "-l", "y=Dense", "-o", str(tmp_path / "spmv64"))
    header = (tmp_path / "spmv64.h").read_text()
    assert re.search(r"struct spf_CSR64\n\{\n  int numRows;\n  int numCols;\n  int64_t nnz;\n"
                     r"  int64_t \*rowPtr;\n  int \*colIdx;\n  double \*data;\n\};", header)
    assert "int spmv64(struct spf_CSR64 *A, struct spf_SV *x, struct spf_Dense1 *y);" in header

    layout = spf.load_layout(str(USER_LAYOUT))
    matrix = sparse.random(40, 30, density=0.2, format="csr", random_state=5)
    x_dense = np.zeros(30)
    x_dense[::4] = np.arange(1.0, 9.0)
    A, A_arrays = marshal(spf.pack(layout, matrix, name="A"))
    x, x_arrays = marshal(spf.pack("SV", x_dense, name="x"))
    y_values = np.full(40, np.nan)
    y = dense_vector(y_values)
    function = ctypes.CDLL(str(tmp_path / "libspmv64.so")).spmv64
    assert function(ctypes.byref(A), ctypes.byref(x), ctypes.byref(y)) == 0
    np.testing.assert_allclose(y_values, matrix @ x_dense, rtol=1e-12, atol=1e-12)
