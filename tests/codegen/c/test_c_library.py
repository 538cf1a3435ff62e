"""C libraries from ``spf compile``: the example application, the ABI, a user layout.

The example in examples/spmv_app is built with plain ``cc`` against the generated
library and run on Matrix Market files this test writes and on real matrices; its
output must equal scipy's ``A @ x``.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sparse

import spf
from spf.__main__ import main
from spf.codegen.c.c_syntax import OUT_OF_MEMORY, SHAPE_MISMATCH
from spf.codegen.c.structs import ctypes_struct, marshal
from tests.conftest import REPOSITORY, load_matrix, matrix_path

EXAMPLE = REPOSITORY / "examples" / "spmv_app" / "main.c"
SPGEMM_EXAMPLE = REPOSITORY / "examples" / "spgemm_app" / "main.c"
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
                   f"{OUT_OF_MEMORY} when a temporary (a find's table or positions, a per-thread copy of the "
                   "output, a fused kernel's temporary, an assembled output's entries) cannot be allocated",
                   "3 when an entry of an assembled output cannot be stored in its layout",
                   "each kernel keeps one set of find state", "NAME_release_state() frees them"]:
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


# ----------------------------------------------------------------------------- argument order, from C
#
# docs/c-abi.md: "one pointer per tensor, the inputs in the order they first appear in
# the expression, then the output".  Each test below writes a C program that passes its
# tensors in that order to the entry point and to every variant the header declares, on
# data where the tensors have one struct type and agreeing shapes, so that any other
# order would compile and return 0 with another answer (the test checks that it would).


def c_initializers(name: str, tensor: spf.Tensor) -> str:
    """C definitions of ``struct spf_<layout> <name>`` holding ``tensor``'s fields."""
    from spf.codegen.c.structs import struct_name
    lines, members = [], []
    for field_ in tensor.layout.fields:
        value = tensor.fields[field_.name]
        if field_.is_array:
            flat = np.asarray(value).reshape(-1)
            items = ", ".join(repr(float(v)) if field_.c_type in ("double", "float") else str(int(v))
                              for v in flat) or "0"
            c_type = {"int64": "int64_t", "uint8": "uint8_t"}.get(field_.type, field_.c_type)
            lines.append(f"static {c_type} {name}_{field_.name}[] = {{{items}}};")
            members.append(f".{field_.name} = {name}_{field_.name}")
        else:
            members.append(f".{field_.name} = {int(value)}")
    lines.append(f"static struct {struct_name(tensor.layout)} {name} = {{{', '.join(members)}}};")
    return "\n".join(lines)


def call_from_c(directory: Path, library: str, inputs: dict[str, spf.Tensor], output: str,
                output_shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Call every function of ``directory/library.h`` from C as ``f(inputs..., &output)``
    (``inputs`` in the dict's order) on a NaN-filled dense output; each function's result."""
    header = (directory / f"{library}.h").read_text()
    functions = [f for f in re.findall(r"^int (\w+)\(", header, re.MULTILINE) if f != f"{library}_check"]
    assert functions[0] == library and len(functions) >= 2  # the entry point, then the variants
    size = int(np.prod(output_shape))
    parts = [f'#include <math.h>\n#include <stdio.h>\n#include "{library}.h"\n']
    parts += [c_initializers(name, tensor) for name, tensor in inputs.items()]
    parts.append(f"static double {output}_vals[{size}];")
    parts.append(f"static struct spf_Dense{len(output_shape)} {output} = {{"
                 + ", ".join(f".N{k} = {extent}" for k, extent in enumerate(output_shape))
                 + f", .vals = {output}_vals}};")
    arguments = ", ".join(f"&{name}" for name in [*inputs, output])
    calls = []
    for function in functions:
        calls.append(f"  for (int k = 0; k < {size}; k++) {output}_vals[k] = NAN;\n"
                     f"  printf(\"{function} %d\\n\", {function}({arguments}));\n"
                     f"  for (int k = 0; k < {size}; k++) printf(\"%.17g\\n\", {output}_vals[k]);")
    parts.append("int main(void)\n{\n" + "\n".join(calls) + "\n  return 0;\n}")
    program = directory / f"call_{library}.c"
    program.write_text("\n".join(parts) + "\n")
    executable = directory / f"call_{library}"
    subprocess.run(["cc", "-O1", "-Wall", "-Werror", str(program), f"-I{directory}", f"-L{directory}",
                    f"-l{library}", f"-Wl,-rpath,{directory}", "-o", str(executable)], check=True)
    lines = subprocess.run([str(executable)], capture_output=True, text=True, check=True).stdout.split("\n")
    results = {}
    for position in range(0, len(functions) * (size + 1), size + 1):
        function, status = lines[position].split()
        assert status == "0", f"{function} returned {status}"
        results[function] = np.array([float(v) for v in lines[position + 1:position + 1 + size]]).reshape(output_shape)
    assert list(results) == functions
    return results


def test_fused_library_takes_its_arguments_in_the_documented_order(tmp_path):
    expression = "A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)"  # SDDMM then SpMM, fused
    spf_compile(expression, "-l", "A=Dense", "-l", "B=CSR", "-l", "C=Dense", "-l", "D=Dense", "-l", "E=Dense",
                "--autoschedule", "-o", str(tmp_path / "fused"))
    header = (tmp_path / "fused.h").read_text()
    assert "int fused(struct spf_CSR *B, struct spf_Dense2 *C, struct spf_Dense2 *D, struct spf_Dense2 *E, " \
           "struct spf_Dense2 *A);" in header
    assert re.search(r"^int spf_fused_\w+\(", header, re.MULTILINE)

    rng = np.random.default_rng(7)
    B = sparse.random(6, 6, density=0.4, format="csr", random_state=8)  # I = J and K = L: C, D, E alike
    C, D, E = (rng.normal(size=(6, 3)) for _ in range(3))
    expected = (B.multiply(C @ D.T)) @ E
    # the order spf exported before (B, E, C, D), fed B, C, D, E, computes this instead
    assert not np.allclose((B.multiply(D @ E.T)) @ C, expected)
    inputs = {"B": spf.pack("CSR", B, name="B"), "C": spf.pack("Dense", C, name="C"),
              "D": spf.pack("Dense", D, name="D"), "E": spf.pack("Dense", E, name="E")}
    for function, result in call_from_c(tmp_path, "fused", inputs, "A", (6, 3)).items():
        np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12, err_msg=function)


def test_plain_library_takes_its_inputs_in_order_of_first_appearance(tmp_path):
    # the product distributes over the sum into A*D + B*D: the text's order is still A, B, D
    expression = "C(i,k) = (A(i,j) + B(i,j)) * D(j,k)"
    spf_compile(expression, "-l", "A=DCSR", "-l", "B=DCSR", "-l", "D=DCSR", "-l", "C=Dense",
                "-o", str(tmp_path / "plain"))
    header = (tmp_path / "plain.h").read_text()
    assert "int plain(struct spf_DCSR *A, struct spf_DCSR *B, struct spf_DCSR *D, struct spf_Dense2 *C);" in header

    A, B, D = (sparse.random(7, 7, density=0.3, format="csr", random_state=seed) for seed in (11, 12, 13))
    expected = ((A + B) @ D).toarray()
    assert not np.allclose(((A + D) @ B).toarray(), expected)  # the order of the terms' factors: A, D, B
    inputs = {name: spf.pack("DCSR", matrix, name=name) for name, matrix in (("A", A), ("B", B), ("D", D))}
    results = call_from_c(tmp_path, "plain", inputs, "C", (7, 7))
    assert len(results) > 2  # the entry point and several find variants
    for function, result in results.items():
        np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12, err_msg=function)


def test_python_kernel_binds_in_the_same_order():
    """Kernel.bind passes its structs in the order of the prototypes: the same data, the same answer."""
    kernel = spf.compile("C(i,k) = (A(i,j) + B(i,j)) * D(j,k)", {"A": "DCSR", "B": "DCSR", "D": "DCSR", "C": "Dense"})
    assert list(kernel.tensors) == ["A", "B", "D", "C"]
    assert re.search(r"\(struct spf_DCSR \*A, struct spf_DCSR \*B, struct spf_DCSR \*D, struct spf_Dense2 \*C\)",
                     kernel.c_source)
    A, B, D = (sparse.random(7, 7, density=0.3, format="csr", random_state=seed) for seed in (11, 12, 13))
    np.testing.assert_allclose(kernel(A=A, B=B, D=D), ((A + B) @ D).toarray(), rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- assembled outputs from C


@pytest.fixture(scope="module")
def spgemm_app(tmp_path_factory) -> Path:
    """examples/spgemm_app/main.c linked against the library its Makefile makes."""
    directory = tmp_path_factory.mktemp("spgemm")
    spf_compile("C(i,j) = A(i,k) * B(j,k)", "-l", "A=CSR", "-l", "B=CSR", "-l", "C=CSR",
                "-o", str(directory / "spgemm"))
    executable = directory / "spgemm_app"
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", str(SPGEMM_EXAMPLE), f"-I{directory}",
                    f"-L{directory}", "-lspgemm", f"-Wl,-rpath,{directory}", "-o", str(executable)], check=True)
    return executable


def run_spgemm_app(app: Path, matrix: Path):
    """The app's output (a Matrix Market file) as scipy CSR, and its text."""
    result = subprocess.run([str(app), str(matrix)], capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    rows, cols, count = (int(word) for word in lines[1].split())
    entries = [line.split() for line in lines[2:]]
    assert len(entries) == count
    if not entries:
        return sparse.csr_matrix((rows, cols)), entries
    i, j, v = zip(*((int(a) - 1, int(b) - 1, float(c)) for a, b, c in entries))
    return sparse.csr_matrix((v, (i, j)), shape=(rows, cols)), entries


def assert_spgemm(app: Path, path: Path, matrix) -> None:
    got, entries = run_spgemm_app(app, path)
    expected = (matrix @ matrix.T).tocsr()
    expected.eliminate_zeros()
    expected.sort_indices()
    # the app prints rows in order and columns increasing within each row: CSR's order
    assert [(int(a), int(b)) for a, b, _ in entries] == sorted((int(a), int(b)) for a, b, _ in entries)
    assert got.nnz == expected.nnz
    np.testing.assert_array_equal(got.indptr, expected.indptr)
    np.testing.assert_array_equal(got.indices, expected.indices)
    np.testing.assert_allclose(got.data, expected.data, rtol=1e-12)


@pytest.mark.parametrize("rows, cols, count", [(6, 4, 10), (1, 1, 1), (3, 5, 0), (30, 20, 120)])
def test_spgemm_app_matches_scipy(spgemm_app, tmp_path, rows, cols, count):
    entries = random_entries(rows, cols, count, seed=rows + cols + count)
    path = write_matrix_market(tmp_path / "m.mtx", rows, cols, entries)
    assert_spgemm(spgemm_app, path, sparse.csr_matrix(scipy.io.mmread(path)))


@pytest.mark.parametrize("name", ["494_bus", "west0479", "lp_e226"])
def test_spgemm_app_on_real_matrices(spgemm_app, name):
    assert_spgemm(spgemm_app, matrix_path(name), load_matrix(name))


def run_program_with(library: str, program: Path, directory: Path) -> list[str]:
    """``program`` built against the generated ``lib{library}.so`` in ``directory`` under
    AddressSanitizer, run; its output lines."""
    executable = directory / library
    subprocess.run(["cc", "-O1", "-Wall", "-Werror", "-fsanitize=address", str(program), f"-I{directory}",
                    f"-L{directory}", f"-l{library}", f"-Wl,-rpath,{directory}", "-o", str(executable)], check=True)
    return subprocess.run([str(executable)], capture_output=True, text=True, check=True).stdout.splitlines()


def test_rows_taken_from_c_are_the_callers_to_free(tmp_path):
    """NAME_take: a CSR result the kernel holds as rows becomes C's arrays (the caller
    frees them); for any other result it returns 1 and fill works as usual."""
    spf_compile("C(i,j) = A(i,k) * B(k,j)", "-l", "A=CSR", "-l", "B=CSR", "-l", "C=CSR", "-o", str(tmp_path / "mm"))
    assert "int mm_take(void *handle, struct spf_CSR *C);" in (tmp_path / "mm.h").read_text()
    program = tmp_path / "mm.c"
    program.write_text("""
#include <stdio.h>
#include <stdlib.h>
#include "mm.h"
int main(void)
{
    int ptr[] = {0, 2, 2, 3}, col[] = {0, 2, 1};
    double a[] = {1.0, 2.0, 3.0};
    struct spf_CSR A = {3, 3, 3, ptr, col, a}, C = {0};
    void *handle = NULL;
    if (mm(&A, &A, &C, NULL, &handle) != 0) return 1;
    if (mm_take(handle, &C) != 0) return 2;
    for (int i = 0; i < 3; i++)
        for (int p = C.rowPtr[i]; p < C.rowPtr[i + 1]; p++) printf("%d %d %g\\n", i, C.colIdx[p], C.data[p]);
    free(C.rowPtr); free(C.colIdx); free(C.data);
    return 0;
}
""")
    lines = run_program_with("mm", program, tmp_path)
    matrix = sparse.csr_matrix(([1.0, 2.0, 3.0], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 3))
    expected = sparse.coo_matrix(matrix @ matrix)
    assert lines == [f"{i} {j} {v:g}" for i, j, v in sorted(zip(expected.row, expected.col, expected.data))]


def test_an_assembled_output_from_c_with_a_report_and_a_dropped_result(tmp_path):
    """The two-call protocol by hand: the kernel sets the counts, _free drops a result,
    a second call fills; return 3 and the report name an entry the layout cannot hold."""
    lower = REPOSITORY / "tests" / "data" / "LOWER_CSR.layout"
    spf_compile("C(i,j) = A(i,j) + B(i,j)", "-l", "A=COO", "-l", "B=COO", "-l", f"C={lower}",
                "-o", str(tmp_path / "add"))
    program = tmp_path / "add.c"
    program.write_text("""
#include <stdio.h>
#include <stdlib.h>
#include "add.h"
int main(void)
{
    int row[] = {0, 2, 2}, col[] = {0, 1, 2};
    double a[] = {1.0, 2.0, 3.0}, b[] = {4.0, -2.0, 5.0};
    struct spf_COO A = {3, 3, 3, row, col, a}, B = {3, 3, 3, row, col, b};
    struct spf_LOWER_CSR C = {0};
    void *handle = NULL;
    if (add(&A, &B, &C, NULL, &handle) != 0) return 1;
    add_free(handle);                         /* dropped unfilled */
    if (add(&A, &B, &C, NULL, &handle) != 0) return 1;
    printf("%d %d %d\\n", C.numRows, C.numCols, C.nnz);
    C.rowPtr = malloc(4 * sizeof(int)); C.colIdx = malloc(C.nnz * sizeof(int));
    C.data = malloc(C.nnz * sizeof(double));
    if (add_fill(handle, &C) != 0) return 1;
    for (int i = 0; i < 3; i++)
        for (int p = C.rowPtr[i]; p < C.rowPtr[i + 1]; p++) printf("%d %d %g\\n", i, C.colIdx[p], C.data[p]);
    int upper_row[] = {0}, upper_col[] = {2};
    double one[] = {1.0};
    struct spf_COO U = {3, 3, 1, upper_row, upper_col, one};
    int64_t report[32];
    int status = add(&U, &U, &C, report, &handle);
    printf("status %d\\n", status);
    return 0;
}
""")
    executable = tmp_path / "add"
    subprocess.run(["cc", "-O1", "-Wall", "-Werror", str(program), f"-I{tmp_path}", f"-L{tmp_path}", "-ladd",
                    f"-Wl,-rpath,{tmp_path}", "-o", str(executable)], check=True)
    lines = subprocess.run([str(executable)], capture_output=True, text=True, check=True).stdout.splitlines()
    # (2, 1) sums to zero and is not stored; (2, 2) is (the diagonal is in the lower triangle)
    assert lines == ["3 3 2", "0 0 5", "2 2 8", "status 3"]


def test_a_transposition_from_c_by_take_and_by_fill(tmp_path):
    """B(j,i) = A(i,j) into CSR runs in two phases (count, then fill): its result is C's
    arrays by NAME_take, or filled into the caller's arrays after the counts (ASan)."""
    spf_compile("B(j,i) = A(i,j)", "-l", "A=CSR", "-l", "B=CSR", "-o", str(tmp_path / "tr"))
    program = tmp_path / "tr.c"
    program.write_text("""
#include <stdio.h>
#include <stdlib.h>
#include "tr.h"
static void show(const struct spf_CSR *B)
{
    for (int i = 0; i < B->numRows; i++)
        for (int p = B->rowPtr[i]; p < B->rowPtr[i + 1]; p++) printf("%d %d %g\\n", i, B->colIdx[p], B->data[p]);
}
int main(void)
{
    int ptr[] = {0, 2, 2, 4}, col[] = {0, 3, 1, 3};
    double a[] = {1.0, 2.0, 3.0, 0.0};  /* an explicit zero: no entry of the result */
    struct spf_CSR A = {3, 4, 4, ptr, col, a}, B = {0};
    void *handle = NULL;
    if (tr(&A, &B, NULL, &handle) != 0) return 1;
    if (tr_take(handle, &B) != 0) return 2;
    printf("%d %d %d\\n", B.numRows, B.numCols, B.nnz);
    show(&B);
    free(B.rowPtr); free(B.colIdx); free(B.data);
    struct spf_CSR F = {0};
    if (tr(&A, &F, NULL, &handle) != 0) return 3;
    F.rowPtr = malloc((F.numRows + 1) * sizeof(int)); F.colIdx = malloc(F.nnz * sizeof(int));
    F.data = malloc(F.nnz * sizeof(double));
    if (tr_fill(handle, &F) != 0) return 4;
    show(&F);
    free(F.rowPtr); free(F.colIdx); free(F.data);
    return 0;
}
""")
    lines = run_program_with("tr", program, tmp_path)
    entries = ["0 0 1", "1 2 3", "3 0 2"]
    assert lines == ["4 3 3"] + entries + entries


def c_array(c_type: str, name: str, values) -> str:
    return f"static {c_type} {name}[] = {{{', '.join(repr(v) for v in np.asarray(values).tolist()) or '0'}}};"


def test_find_state_kept_between_calls_from_c_under_asan(tmp_path):
    """A parallel SpMSpM whose hash maps (one per thread) the kernel keeps between calls,
    called from C on products of other sizes, with a call the shapes refuse and
    NAME_release_state between them; the library compiled into the program with
    AddressSanitizer (out-of-bounds table use, use after release, double frees)."""
    spf_compile("C(i,j) = A(i,k) * B(k,j)", "-l", "A=CSR", "-l", "B=CSC", "-l", "C=Dense", "--find", "hashmap",
                "--parallel", "-o", str(tmp_path / "mm"))
    assert "void mm_release_state(void);" in (tmp_path / "mm.h").read_text()
    shapes = [(40, 30, 20, 0.3), (7, 90, 11, 0.5), (40, 30, 20, 0.05), (65, 3, 70, 0.6)]
    declarations, calls, expected = [], [], []
    for number, (rows, inner, cols, density) in enumerate(shapes):
        A = sparse.random(rows, inner, density=density, format="csr", random_state=number)
        B = sparse.random(inner, cols, density=density, format="csc", random_state=10 + number)
        declarations += [c_array("int", f"ap{number}", A.indptr), c_array("int", f"ai{number}", A.indices),
                         c_array("double", f"av{number}", A.data), c_array("int", f"bp{number}", B.indptr),
                         c_array("int", f"bi{number}", B.indices), c_array("double", f"bv{number}", B.data)]
        calls.append(f"""
    {{
        struct spf_CSR A = {{{rows}, {inner}, {A.nnz}, ap{number}, ai{number}, av{number}}};
        struct spf_CSC B = {{{inner}, {cols}, {B.nnz}, bp{number}, bi{number}, bv{number}}};
        double *c = calloc({rows * cols}, sizeof(double));
        struct spf_Dense2 C = {{{rows}, {cols}, c}};
        struct spf_CSC wrong = B;
        wrong.numRows = {inner + 1};
        if (mm(&A, &wrong, &C) != {SHAPE_MISMATCH}) return 1;
        if (mm(&A, &B, &C) != 0) return 2;
        double sum = 0;
        for (int k = 0; k < {rows * cols}; k++) sum += c[k] * (k % 7 + 1);
        printf("%.12g\\n", sum);
        free(c);
        if ({number % 2}) mm_release_state();
    }}""")
        expected.append(float(((A @ B).toarray().ravel() * (np.arange(rows * cols) % 7 + 1)).sum()))
    program = tmp_path / "state.c"
    program.write_text("#include <stdio.h>\n#include <stdlib.h>\n#include \"mm.h\"\n" + "\n".join(declarations)
                       + "\nint main(void)\n{\n  for (int round = 0; round < 3; round++) {" + "".join(calls)
                       + "\n  }\n  mm_release_state();\n  return 0;\n}\n")
    executable = tmp_path / "state"
    subprocess.run(["cc", "-O1", "-g", "-fopenmp", "-fsanitize=address", "-fno-omit-frame-pointer", str(program),
                    str(tmp_path / "mm.c"), f"-I{tmp_path}", "-o", str(executable)], check=True)
    result = subprocess.run([str(executable)], capture_output=True, text=True, env={"OMP_NUM_THREADS": "2"})
    assert result.returncode == 0, result.stderr
    np.testing.assert_allclose([float(line) for line in result.stdout.split()], expected * 3, rtol=1e-10)


def test_a_table_that_cannot_grow_makes_the_call_return_out_of_memory(tmp_path):
    """The hash map grows inside the loops (sized by the range a fill puts): when memory
    runs out there, the call still ends, returns 2, and the kept state serves the next
    call (here under an address-space limit the 256 MiB table exceeds)."""
    spf_compile(SPMV, "-l", "A=CSR", "-l", "x=SV", "-l", "y=Dense", "--find", "hashmap", "-o", str(tmp_path / "mv"))
    program = tmp_path / "limit.c"
    program.write_text("""
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "mv.h"
int main(void)
{
    const int n = 1 << 23, count = 1 << 22;
    int *idx = malloc(count * sizeof(int));
    double *val = malloc(count * sizeof(double));
    if (!idx || !val) return 9;
    for (int p = 0; p < count; p++) { idx[p] = 2 * p; val[p] = 1.0 + p; }
    int ptr[] = {0, 2}, col[] = {6, 7};
    double a[] = {10.0, 100.0}, y[1] = {0};
    struct spf_CSR A = {1, n, 2, ptr, col, a};
    struct spf_SV wide = {n, count, idx, val}, narrow = {n, 2, idx + 3, val + 3};
    struct spf_Dense1 Y = {1, y};
    struct rlimit limit;
    getrlimit(RLIMIT_AS, &limit);
    struct rlimit tight = {(rlim_t)192 << 20, limit.rlim_max};
    if (setrlimit(RLIMIT_AS, &tight) != 0) return 8;
    int status = mv(&A, &wide, &Y);
    printf("%d\\n", status);
    status = mv(&A, &narrow, &Y);
    printf("%d %g\\n", status, y[0]);
    setrlimit(RLIMIT_AS, &limit);
    status = mv(&A, &wide, &Y);
    printf("%d %g\\n", status, y[0]);
    mv_release_state();
    return 0;
}
""")
    executable = tmp_path / "limit"
    subprocess.run(["cc", "-O1", "-fopenmp", str(program), str(tmp_path / "mv.c"),
                    f"-I{tmp_path}", "-o", str(executable)], check=True)
    lines = subprocess.run([str(executable)], capture_output=True, text=True, check=True).stdout.splitlines()
    # x[3] = 1 + 3 at column 6; the wide x holds column 6 at position 3 too
    assert lines == [str(OUT_OF_MEMORY), "0 40", "0 40"]


GCC = shutil.which("gcc")


@pytest.mark.skipif(GCC is None, reason="gcc is not installed: two libraries' headers are compiled together by gcc")
def test_two_libraries_headers_in_one_translation_unit(tmp_path):
    """add.h and spmv.h both define struct spf_CSR, each under its own guard: a program
    including both compiles, links both libraries and calls both functions."""
    spf_compile("C(i,j) = A(i,j) + B(i,j)", "-l", "A=CSR", "-l", "B=CSR", "-l", "C=CSR", "-o", str(tmp_path / "add"))
    spf_compile(SPMV, "-l", "A=CSR", "-l", "x=Dense", "-l", "y=Dense", "-o", str(tmp_path / "spmv"))
    program = tmp_path / "both.c"
    program.write_text("""
#include <stdio.h>
#include <stdlib.h>
#include "add.h"
#include "spmv.h"
int main(void)
{
    int ptr[] = {0, 2, 2, 3}, col[] = {0, 2, 1};
    double a[] = {1.0, 2.0, 3.0}, ones[] = {1.0, 1.0, 1.0}, y[3] = {0};
    struct spf_CSR A = {3, 3, 3, ptr, col, a}, C = {0};
    struct spf_Dense1 x = {3, ones}, out = {3, y};
    void *handle = NULL;
    if (add(&A, &A, &C, NULL, &handle) != 0) return 1;
    C.rowPtr = malloc(sizeof(int) * (C.numRows + 1));
    C.colIdx = malloc(sizeof(int) * C.nnz);
    C.data = malloc(sizeof(double) * C.nnz);
    if (add_fill(handle, &C) != 0) return 2;
    if (spmv(&C, &x, &out) != 0) return 3;
    for (int i = 0; i < 3; i++) printf("%g\\n", y[i]);
    free(C.rowPtr); free(C.colIdx); free(C.data);
    return 0;
}
""")
    executable = tmp_path / "both"
    subprocess.run([GCC, "-O1", "-Wall", "-Werror", str(program), f"-I{tmp_path}", f"-L{tmp_path}", "-ladd",
                    "-lspmv", f"-Wl,-rpath,{tmp_path}", "-o", str(executable)], check=True)
    lines = subprocess.run([str(executable)], capture_output=True, text=True, check=True).stdout.split()
    matrix = sparse.csr_matrix(([1.0, 2.0, 3.0], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 3))
    assert [float(line) for line in lines] == list((2 * matrix) @ np.ones(3))


@pytest.mark.skipif(GCC is None, reason="gcc is not installed: the headers are compiled together by gcc")
def test_headers_defining_one_struct_name_two_ways_do_not_compile_together(tmp_path):
    """A user layout file named CSR with other fields: its struct spf_CSR is guarded apart
    from the built-in's, so including both headers is refused by C, naming the struct."""
    text = Path(spf.load_layout("CSR").path).read_text().replace("field data: value[nnz]", "field data: float[nnz]")
    layout = tmp_path / "CSR.layout"
    layout.write_text(text)
    spf_compile(SPMV, "-l", f"A={layout}", "-l", "x=Dense", "-l", "y=Dense", "-o", str(tmp_path / "mine"))
    spf_compile(SPMV, "-l", "A=CSR", "-l", "x=Dense", "-l", "y=Dense", "-o", str(tmp_path / "builtin"))
    program = tmp_path / "both.c"
    program.write_text('#include "mine.h"\n#include "builtin.h"\nint main(void) { return 0; }\n')
    result = subprocess.run([GCC, "-c", str(program), f"-I{tmp_path}", "-o", str(tmp_path / "both.o")],
                            capture_output=True, text=True)
    message = result.stderr.replace("\u2018", "'").replace("\u2019", "'")  # gcc's quotes in a UTF-8 locale
    assert result.returncode != 0 and "redefinition of 'struct spf_CSR'" in message
