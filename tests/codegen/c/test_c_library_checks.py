"""C libraries refuse malformed arguments (``NAME_check``, docs/c-abi.md "What NAME checks").

Each library kind (dense, scalar, shared and assembled outputs of plain kernels; dense
and shared outputs of fused ones; a user layout file) is called from a C driver built
with ``-fsanitize=address,undefined`` together with the library's source, once with
valid operands and once per malformed input the ABI lists: the call must return the
documented code, write nothing to the output (filled with a sentinel first) and leave
no sanitizer report.  The arrays are exact-size heap copies, so a check that reads past
a declared length is reported too.  A differential test compares ``NAME_check`` with
``spf.runtime.packing.validate`` on random corruptions of the index arrays of every built-in
layout, and the reviewer's two reproducers of issue 25 return 1.
"""

from __future__ import annotations

import ctypes
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.__main__ import main
from spf.codegen.c.c_syntax import SHAPE_MISMATCH
from spf.codegen.c.checks import BROKEN_PROPERTY, INCONSISTENT_FIELDS, NULL_ARGUMENT, unchecked_properties
from spf.codegen.c.structs import ctypes_struct, struct_name
from spf.errors import PackError
from spf.runtime.packing import from_fields
import spf.runtime.validation
from tests.conftest import REPOSITORY

SANITIZE = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fopenmp"]
SENTINEL = -12345.5
USER_LAYOUT = REPOSITORY / "examples" / "layouts" / "CSR64.layout"
GROUPED = REPOSITORY / "tests" / "data" / "GROUPED_CSR.layout"
UNRANGED = REPOSITORY / "tests" / "data" / "CSR_NO_RANGE.layout"
MATRIX = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, 4.0]])  # an empty row, two of 2


def spf_compile(*arguments: str) -> None:
    assert main(["compile", *arguments]) == 0


@pytest.fixture(scope="module")
def sanitizing_cc(tmp_path_factory) -> list[str]:
    """The compiler command with the sanitizers, skipped when their runtime is missing."""
    directory = tmp_path_factory.mktemp("probe")
    (directory / "probe.c").write_text("#include <stdlib.h>\nint main(void) { return 0; }\n")
    built = subprocess.run(["cc", *SANITIZE, str(directory / "probe.c"), "-o", str(directory / "probe")],
                           capture_output=True, text=True)
    if built.returncode != 0 or subprocess.run([str(directory / "probe")]).returncode != 0:
        pytest.skip(f"the C compiler cannot build with {' '.join(SANITIZE)}: {built.stderr[-500:]}")
    return ["cc", *SANITIZE]


def run_sanitized(cc: list[str], directory: Path, program: str, library: str) -> list[str]:
    """``program`` compiled with the library's source under the sanitizers, run: its output
    lines, after asserting that no sanitizer reported anything."""
    source = directory / f"driver_{library}.c"
    source.write_text(program)
    executable = directory / f"driver_{library}"
    subprocess.run([*cc, str(source), str(directory / f"{library}.c"), f"-I{directory}", "-o", str(executable),
                    "-lm"], check=True)
    result = subprocess.run([str(executable)], capture_output=True, text=True,
                            env={"ASAN_OPTIONS": "abort_on_error=1", "UBSAN_OPTIONS": "print_stacktrace=1",
                                 "OMP_NUM_THREADS": "2"})
    assert "AddressSanitizer" not in result.stderr and "runtime error" not in result.stderr, result.stderr[-4000:]
    assert result.returncode == 0, result.stderr[-4000:]
    return result.stdout.splitlines()


# ----------------------------------------------------------------------------- malformed inputs
#
# One catalog per layout (and per output kind): (what, C statements over the struct T and
# its pointer pT, expected code).  Every index of the libraries below appears in two
# tensors, so an extent changed by one disagrees with another tensor's.


def sorted_matrix_cases(T: str, pointer: str = "rowPtr", index: str = "colIdx", count: str = "nnz",
                        rows: str = "numRows") -> list[tuple]:
    """CSR and layout files of its form (its first row holds two entries)."""
    return [
        ("NULL struct", f"p{T} = NULL;", NULL_ARGUMENT),
        (f"NULL {pointer}", f"{T}.{pointer} = NULL;", NULL_ARGUMENT),
        (f"NULL {index}", f"{T}.{index} = NULL;", NULL_ARGUMENT),
        ("NULL values", f"{T}.data = NULL;", NULL_ARGUMENT),
        (f"negative {count}", f"{T}.{count} = -1;", INCONSISTENT_FIELDS),
        ("numCols disagrees", f"{T}.numCols += 1;", SHAPE_MISMATCH),
        (f"{pointer}[0] is not 0", f"{T}.{pointer}[0] = 1;", BROKEN_PROPERTY),
        (f"{pointer}[last] is not {count}", f"{T}.{pointer}[{T}.{rows}] -= 1;", BROKEN_PROPERTY),
        (f"{pointer} decreases", f"{T}.{pointer}[1] = {T}.{count}; {T}.{pointer}[2] = 1;", BROKEN_PROPERTY),
        (f"{pointer} beyond {count}", f"{T}.{pointer}[1] = {T}.{count} + 1;", BROKEN_PROPERTY),
        ("column out of range", f"{T}.{index}[{T}.{count} - 1] = {T}.numCols;", BROKEN_PROPERTY),
        ("negative column", f"{T}.{index}[0] = -1;", BROKEN_PROPERTY),
        ("columns out of order in a row", f"{T}.{index}[0] = {T}.{index}[1] + 1;", BROKEN_PROPERTY),
        ("column repeated in a row", f"{T}.{index}[1] = {T}.{index}[0];", BROKEN_PROPERTY),
    ]


def dcsr_cases(T: str) -> list[tuple]:
    return sorted_matrix_cases(T, rows="nnzRows") + [
        ("NULL rowIdx", f"{T}.rowIdx = NULL;", NULL_ARGUMENT),
        ("negative nnzRows", f"{T}.nnzRows = -1;", INCONSISTENT_FIELDS),
        ("row index out of range", f"{T}.rowIdx[{T}.nnzRows - 1] = {T}.numRows;", BROKEN_PROPERTY),
        ("row index repeated", f"{T}.rowIdx[1] = {T}.rowIdx[0];", BROKEN_PROPERTY),
    ]


def sparse_vector_cases(T: str) -> list[tuple]:
    return [
        ("NULL struct", f"p{T} = NULL;", NULL_ARGUMENT),
        ("NULL idx", f"{T}.idx = NULL;", NULL_ARGUMENT),
        ("NULL val", f"{T}.val = NULL;", NULL_ARGUMENT),
        ("negative len", f"{T}.len = -1;", INCONSISTENT_FIELDS),
        ("n disagrees", f"{T}.n += 1;", SHAPE_MISMATCH),
        ("index out of range", f"{T}.idx[{T}.len - 1] = {T}.n;", BROKEN_PROPERTY),
        ("negative index", f"{T}.idx[0] = -1;", BROKEN_PROPERTY),
        ("indices out of order", f"{T}.idx[0] = {T}.idx[1] + 1;", BROKEN_PROPERTY),
        ("index repeated", f"{T}.idx[1] = {T}.idx[0];", BROKEN_PROPERTY),
    ]


def dense_cases(T: str, order: int) -> list[tuple]:
    return [
        ("NULL struct", f"p{T} = NULL;", NULL_ARGUMENT),
        ("NULL vals", f"{T}.vals = NULL;", NULL_ARGUMENT),
        ("negative N0", f"{T}.N0 = -1;", INCONSISTENT_FIELDS),
        (f"N{order - 1} disagrees", f"{T}.N{order - 1} += 1;", SHAPE_MISMATCH),
    ]


def shared_output_cases(T: str) -> list[tuple]:
    return [
        ("NULL struct", f"p{T} = NULL;", NULL_ARGUMENT),
        ("NULL values", f"{T}.data = NULL;", NULL_ARGUMENT),
        ("nnz differs from the shared input's", f"{T}.nnz -= 1;", INCONSISTENT_FIELDS),
        ("numRows disagrees", f"{T}.numRows += 1;", SHAPE_MISMATCH),
    ]


def blocked_cases(T: str) -> list[tuple]:
    """BCSR(R=2,C=2) of MATRIX: fields defined from the shape, blocks by block-row."""
    return [
        ("NULL struct", f"p{T} = NULL;", NULL_ARGUMENT),
        ("NULL col", f"{T}.col = NULL;", NULL_ARGUMENT),
        ("NULL val", f"{T}.val = NULL;", NULL_ARGUMENT),
        ("numBlockRows is not (numRows + R - 1) / R", f"{T}.numBlockRows += 1;", INCONSISTENT_FIELDS),
        ("negative nnzBlocks", f"{T}.nnzBlocks = -1;", INCONSISTENT_FIELDS),
        ("numRows disagrees", f"{T}.numRows += 1;", SHAPE_MISMATCH),  # 4 rows: still 2 block-rows
        ("rowPtr[0] is not 0", f"{T}.rowPtr[0] = 1;", BROKEN_PROPERTY),
        ("block column out of range", f"{T}.col[{T}.nnzBlocks - 1] = {T}.numBlockCols;", BROKEN_PROPERTY),
        ("block column repeated in a block-row", f"{T}.col[1] = {T}.col[0];", BROKEN_PROPERTY),
    ]


def grouped_cases(T: str) -> list[tuple]:
    """tests/data/GROUPED_CSR.layout: an array whose length divides by a field."""
    return [
        ("NULL tags", f"{T}.tags = NULL;", NULL_ARGUMENT),
        ("group is 0 (a divisor)", f"{T}.group = 0;", INCONSISTENT_FIELDS),
        ("numCols disagrees", f"{T}.numCols += 1;", SHAPE_MISMATCH),
        ("tag out of range", f"{T}.tags[0] = {T}.group + 1;", BROKEN_PROPERTY),
    ]


def unranged_cases(T: str) -> list[tuple]:
    """tests/data/CSR_NO_RANGE.layout (no range, no order): the stored positions are
    enumerated, as spf.pack does."""
    return [
        ("NULL struct", f"p{T} = NULL;", NULL_ARGUMENT),
        ("negative nnz", f"{T}.nnz = -1;", INCONSISTENT_FIELDS),
        ("numCols disagrees", f"{T}.numCols += 1;", SHAPE_MISMATCH),
        ("rowPtr[last] is not nnz", f"{T}.rowPtr[{T}.numRows] -= 1;", BROKEN_PROPERTY),
        ("column outside the shape", f"{T}.colIdx[{T}.nnz - 1] = {T}.numCols;", BROKEN_PROPERTY),
        ("negative column", f"{T}.colIdx[0] = -1;", BROKEN_PROPERTY),
        ("a row reaching past colIdx", f"{T}.rowPtr[1] = {T}.nnz + 1;", BROKEN_PROPERTY),
    ]


def assembled_output_cases(T: str) -> list[tuple]:
    return [("NULL struct", f"p{T} = NULL;", NULL_ARGUMENT), ("NULL handle", "phandle = NULL;", NULL_ARGUMENT)]


def scalar_output_cases(T: str) -> list[tuple]:
    return [("NULL output", f"p{T} = NULL;", NULL_ARGUMENT)]


# ----------------------------------------------------------------------------- the C driver


@dataclass
class Library:
    """A library to build with ``spf compile`` and its valid operands."""

    name: str
    expression: str
    layouts: dict[str, str]
    inputs: dict[str, object]  # name -> data to spf.pack
    output: str
    kind: str  # "dense", "scalar", "shared" or "assembled"
    cases: list[tuple]  # (what, C statements, expected code)
    options: tuple = ()
    fused: bool = False
    shared_source: str | None = None
    output_shape: tuple = ()  # of a dense output
    take: bool = False  # the library has NAME_take (known once built)
    tensors: dict = field(default_factory=dict)  # name -> spf.Tensor, packed on build

    def build(self, directory: Path) -> None:
        spf_compile(self.expression, *[a for name, layout in self.layouts.items() for a in ("-l", f"{name}={layout}")],
                    *self.options, "-o", str(directory / self.name))
        header = (directory / f"{self.name}.h").read_text()
        assert (f"calls spf_fused_" in header) == self.fused
        assert f"int {self.name}_check(" in header
        self.take = f"int {self.name}_take(" in header
        self.tensors = {name: data if isinstance(data, spf.Tensor) else spf.pack(self.layouts[name], data, name=name)
                        for name, data in self.inputs.items()}


def c_literal(values) -> str:
    return ", ".join(str(v) if isinstance(v, int) else repr(float(v)) for v in np.asarray(values).reshape(-1).tolist())


def tensor_setup(name: str, tensor: spf.Tensor) -> tuple[list[str], list[str]]:
    """(static data, statements making ``struct ... name`` with exact-size heap copies and ``pname``)."""
    statics, lines = [], [f"struct {struct_name(tensor.layout)} {name};", f"memset(&{name}, 0, sizeof {name});"]
    for field_ in tensor.layout.fields:
        value = tensor.fields[field_.name]
        if field_.is_scalar:
            lines.append(f"{name}.{field_.name} = {int(value)};")
            continue
        flat = np.asarray(value).reshape(-1)
        if field_.is_integer:
            flat = [int(v) for v in flat]
        statics.append(f"static const {field_.c_type} {name}_{field_.name}[] = {{{c_literal(flat) or '0'}}};")
        lines.append(f"{name}.{field_.name} = copy({name}_{field_.name}, {len(flat)} * sizeof *{name}.{field_.name});")
    lines.append(f"struct {struct_name(tensor.layout)} *p{name} = &{name};")
    return statics, lines


PRELUDE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void *pool[64];
static int pooled;
static void *keep(size_t bytes)  /* exact size, freed by release() */
{
    void *p = malloc(bytes ? bytes : 1);
    pool[pooled++] = p;
    return p;
}
static void *copy(const void *source, size_t bytes)
{
    void *p = keep(bytes);
    if (bytes) memcpy(p, source, bytes);
    return p;
}
static void release(void)
{
    while (pooled) free(pool[--pooled]);
}
"""


def driver(library: Library) -> str:
    """A C program calling ``library`` once valid (case 0) and once per malformed input:
    prints ``case status intact`` per call (``intact``: the output holds what it held
    before), and the valid call's result on lines starting with ``=``."""
    statics, setup = [], []
    for name, tensor in library.tensors.items():
        more_statics, lines = tensor_setup(name, tensor)
        statics += more_statics
        setup += lines
    out = library.output
    arguments = [f"p{name}" for name in library.tensors] + [f"p{out}"]
    if library.kind == "scalar":
        setup += [f"double {out} = {SENTINEL}, *p{out} = &{out};"]
        intact = f"{out} == {SENTINEL}"
        result = f'printf("= %.17g\\n", {out});'
    else:
        layout = spf.load_layout(library.layouts[out])
        if hasattr(layout, "resolve"):
            layout = layout.resolve(len(library.output_shape))
        struct = f"struct {struct_name(layout)}"
        if library.kind == "dense":
            count = int(np.prod(library.output_shape))
            setup += [f"{struct} {out};"] + [f"{out}.N{k} = {n};" for k, n in enumerate(library.output_shape)]
            setup += [f"double *{out}_values = sentinels({count});", f"{out}.vals = {out}_values;"]
        elif library.kind == "shared":
            count = int(library.tensors[library.shared_source].fields["nnz"])
            setup += [f"{struct} {out} = {library.shared_source};",
                      f"double *{out}_values = sentinels({count});", f"{out}.data = {out}_values;"]
        if library.kind in ("dense", "shared"):
            intact = f"untouched({out}_values, {count})"
            result = f'for (int k = 0; k < {count}; k++) printf("= %.17g\\n", {out}_values[k]);'
        else:  # assembled: the struct and the handle stay as they were
            setup += [f"{struct} {out}, saved;", f"memset(&{out}, 0x5a, sizeof {out});", "saved = " + out + ";",
                      "void *handle = &saved, **phandle = &handle;", "int64_t report[64];"]
            arguments += ["report", "phandle"]
            intact = f"memcmp(&{out}, &saved, sizeof saved) == 0 && handle == &saved"
            nulls = " ".join(f"{out}.{f.name} = NULL;" for f in layout.arrays)
            result = (f'{nulls}\n            printf("= fill %d\\n", {library.name}_fill(handle, &{out}));\n'
                      f'            printf("= fill %d\\n", {library.name}_fill(NULL, &{out}));\n'
                      + (f'            printf("= take %d\\n", {library.name}_take(NULL, &{out}));\n'
                         f'            printf("= take %d\\n", {library.name}_take(handle, NULL));\n'
                         if library.take else "")
                      + f"            {library.name}_free(handle);")
        setup.append(f"{struct} *p{out} = &{out};")
    drop = f" else if (status == 0) {library.name}_free(handle);" if library.kind == "assembled" else ""
    switch = "\n".join(f"        case {number + 1}: {{ {statements} }} break;"
                       for number, (_, statements, _) in enumerate(library.cases))
    setup_text = "\n        ".join(setup)
    return (PRELUDE + f'#include "{library.name}.h"\n' + "\n".join(statics) + f"""
static double *sentinels(long count)
{{
    double *values = keep((size_t)count * sizeof(double));
    for (long k = 0; k < count; k++) values[k] = {SENTINEL};
    return values;
}}
static int untouched(const double *values, long count)
{{
    for (long k = 0; k < count; k++) if (values[k] != {SENTINEL}) return 0;
    return 1;
}}
int main(void)
{{
    for (int c = 0; c <= {len(library.cases)}; c++) {{
        {setup_text}
        switch (c) {{
{switch}
        }}
        const int status = {library.name}({', '.join(arguments)});
        printf("%d %d %d\\n", c, status, ({intact}) ? 1 : 0);
        if (c == 0) {{
            {result}
        }}{drop}
        release();
    }}
    {library.name}_release_state();
    return 0;
}}
""")


def expected_result(library: Library) -> np.ndarray:
    """The valid call's output as the Python path computes it (dense values, or the shared
    output's values in storage order)."""
    kernel = spf.compile(library.expression, library.layouts,
                         share={library.output: library.shared_source} if library.shared_source else None)
    result = kernel(**library.tensors)
    if isinstance(result, spf.Tensor):
        return np.asarray(result.fields[result.layout.values_field]).reshape(-1)
    return np.asarray(result, dtype=float).reshape(-1)


def libraries() -> list[Library]:
    rng = np.random.default_rng(25)
    A = sparse.csr_matrix(MATRIX)
    x_sparse = np.array([0.0, 1.5, 0.0, -2.0, 3.0, 0.0])
    y_sparse = np.array([2.0, 0.5, 0.0, 1.0, 0.0, 4.0])
    made = [
        Library("spmv", "y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"},
                {"A": A, "x": rng.normal(size=4)}, "y", "dense",
                sorted_matrix_cases("A") + dense_cases("x", 1) + dense_cases("y", 1), output_shape=(3,)),
        Library("dot", "a = x(i) * y(i)", {"x": "SV", "y": "SV"}, {"x": x_sparse, "y": y_sparse}, "a", "scalar",
                sparse_vector_cases("x") + sparse_vector_cases("y") + scalar_output_cases("a")),
        Library("sddmm", "C(i,j) = A(i,j) * D(i,k) * E(j,k)", {"A": "CSR", "D": "Dense", "E": "Dense", "C": "CSR"},
                {"A": A, "D": rng.normal(size=(3, 2)), "E": rng.normal(size=(4, 2))}, "C", "shared",
                sorted_matrix_cases("A") + dense_cases("D", 2) + dense_cases("E", 2) + shared_output_cases("C"),
                options=("--share", "C=A"), shared_source="A"),
        Library("add", "C(i,j) = A(i,j) + 2 * B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"},
                {"A": A, "B": sparse.csr_matrix(MATRIX[::-1])}, "C", "assembled",
                sorted_matrix_cases("A") + sorted_matrix_cases("B") + assembled_output_cases("C")),
        Library("spmspv", "y(i) = A(i,j) * x(j) + z(i)", {"A": "DCSR", "x": "SV", "z": "SV", "y": "SV"},
                {"A": A, "x": x_sparse[:4], "z": np.array([1.0, 0.0, 2.0])}, "y", "assembled",
                dcsr_cases("A") + sparse_vector_cases("x") + sparse_vector_cases("z") + assembled_output_cases("y")),
        Library("fused", "A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)",
                {"B": "CSR", "C": "Dense", "D": "Dense", "E": "Dense", "A": "Dense"},
                {"B": A, "C": rng.normal(size=(3, 2)), "D": rng.normal(size=(4, 2)), "E": rng.normal(size=(4, 3))},
                "A", "dense", sorted_matrix_cases("B") + dense_cases("C", 2) + dense_cases("D", 2)
                + dense_cases("E", 2) + dense_cases("A", 2), options=("--autoschedule",), fused=True,
                output_shape=(3, 3)),
        Library("fused_shared", "A(i,j) = B(i,j) * C(i,k) * D(k,l) * E(l,j)",
                {"B": "CSR", "C": "Dense", "D": "Dense", "E": "Dense", "A": "CSR"},
                {"B": A, "C": rng.normal(size=(3, 2)), "D": rng.normal(size=(2, 3)), "E": rng.normal(size=(3, 4))},
                "A", "shared", sorted_matrix_cases("B") + dense_cases("C", 2) + dense_cases("E", 2)
                + shared_output_cases("A"), options=("--share", "A=B", "--autoschedule"), fused=True,
                shared_source="B"),
        Library("blocked", "y(i) = A(i,j) * x(j)", {"A": "BCSR(R=2,C=2)", "x": "Dense", "y": "Dense"},
                {"A": A, "x": rng.normal(size=4)}, "y", "dense", blocked_cases("A") + dense_cases("y", 1),
                output_shape=(3,)),
        Library("grouped", "y(i) = A(i,j) * x(j)", {"A": str(GROUPED), "x": "Dense", "y": "Dense"},
                {"A": from_fields(GROUPED, {"numRows": 3, "numCols": 4, "nnz": A.nnz, "group": 2, "rowPtr": A.indptr,
                                            "colIdx": A.indices, "tags": [1, 2], "data": A.data}, name="A"),
                 "x": rng.normal(size=4)}, "y", "dense", grouped_cases("A"), output_shape=(3,)),
        Library("unranged", "y(i) = A(i,j) * x(j)", {"A": str(UNRANGED), "x": "Dense", "y": "Dense"},
                {"A": A, "x": rng.normal(size=4)}, "y", "dense", unranged_cases("A"), output_shape=(3,)),
        Library("user_layout", "y(i) = A(i,j) * x(j)", {"A": str(USER_LAYOUT), "x": "SV", "y": "Dense"},
                {"A": A, "x": x_sparse[:4]}, "y", "dense",
                sorted_matrix_cases("A") + sparse_vector_cases("x") + dense_cases("y", 1), output_shape=(3,)),
    ]
    return made


LIBRARIES = libraries()


@pytest.mark.parametrize("library", LIBRARIES, ids=[library.name for library in LIBRARIES])
def test_each_malformed_input_returns_its_code_and_writes_nothing(sanitizing_cc, tmp_path, library):
    library.build(tmp_path)
    lines = run_sanitized(sanitizing_cc, tmp_path, driver(library), library.name)
    statuses = {int(c): (int(status), int(intact)) for c, status, intact in
                (line.split() for line in lines if not line.startswith("="))}
    results = [line[2:] for line in lines if line.startswith("=")]
    assert statuses[0][0] == 0, "the valid call"
    for number, (what, _, code) in enumerate(library.cases, start=1):
        status, intact = statuses[number]
        assert (status, intact) == (code, 1), f"{library.name}: {what}: returned {status}, output intact {intact}"
    if library.kind == "assembled":  # NAME_fill refuses the output's NULL arrays and a NULL handle, NAME_take NULLs
        assert results == [f"fill {NULL_ARGUMENT}"] * 2 + [f"take {NULL_ARGUMENT}"] * (2 * library.take)
    else:
        np.testing.assert_allclose([float(v) for v in results], expected_result(library), rtol=1e-12, atol=1e-12)
    # every documented code is exercised for this kind
    assert {code for _, _, code in library.cases} >= {NULL_ARGUMENT, INCONSISTENT_FIELDS, SHAPE_MISMATCH} | (
        {BROKEN_PROPERTY} if any(t.layout.index_arrays for t in library.tensors.values()) else set())


# ----------------------------------------------------------------------------- NAME_check against spf.runtime.packing.validate

MATRIX_LAYOUTS = ["CSR", "DCSR", "COO", "CSC", "DCSC", "BCSR(R=2,C=2)", "DIA", "ELL", "WARP24", "CSR_UNSORTED",
                  "COO_UNSORTED", str(USER_LAYOUT), str(UNRANGED), str(REPOSITORY / "tests" / "data" / "LOWER_CSR.layout")]
TENSOR_LAYOUTS = ["CSF3", "COO3", "CSF3_DENSE_LAST", str(REPOSITORY / "examples" / "layouts" / "COO3_UNSORTED.layout")]
VECTOR_LAYOUTS = ["SV", "SV_DEC", "SV_UNSORTED"]


def two_per_group(rows: int, cols: int, seed: int) -> sparse.csr_matrix:
    """A random matrix with at most two entries in each aligned group of four columns (WARP24 holds it)."""
    rng = np.random.default_rng(seed)
    dense = np.zeros((rows, cols))
    for i in range(rows):
        for group in range(0, cols, 4):
            width = min(4, cols - group)
            for j in rng.choice(width, size=min(int(rng.integers(0, 3)), width), replace=False):
                dense[i, group + j] = rng.normal()
    return sparse.csr_matrix(dense)


def c_struct(layout, fields: dict) -> tuple[ctypes.Structure, list]:
    """The ctypes struct of ``fields`` as they are (no validation), and the arrays it points into."""
    cls = ctypes_struct(layout)
    struct, alive = cls(), []
    types = dict(cls._fields_)
    for field_ in layout.fields:
        value = fields[field_.name]
        if field_.is_scalar:
            setattr(struct, field_.name, int(value))
        else:
            array = np.ascontiguousarray(value, dtype=field_.numpy_dtype).reshape(-1)
            alive.append(array)
            setattr(struct, field_.name, array.ctypes.data_as(types[field_.name]))
    return struct, alive


def differential_libraries() -> list[tuple]:
    """(library name, expression, layouts, operands, output shape)."""
    matrices = {chr(ord("A") + k): layout for k, layout in enumerate(MATRIX_LAYOUTS)}
    tensors = {name: layout for name, layout in zip("PQRS", TENSOR_LAYOUTS)}
    vectors = {name: layout for name, layout in zip("stu", VECTOR_LAYOUTS)}
    rng = np.random.default_rng(3)
    coords = np.array(sorted({tuple(int(c) for c in rng.integers(0, (4, 5, 6))) for _ in range(25)}))
    tensor = (coords, rng.normal(size=len(coords)), (4, 5, 6))
    vector = np.where(rng.random(11) < 0.5, rng.normal(size=11), 0.0)
    return [
        ("matrices", "y(i) = " + " + ".join(f"{n}(i,j) * x(j)" for n in matrices),
         {**matrices, "x": "Dense", "y": "Dense"},
         {**{n: sparse.tril(two_per_group(7, 9, 1)).tocsr() if "LOWER" in layout else two_per_group(7, 9, 1)
             for n, layout in matrices.items()}, "x": np.ones(9)},
         (7,)),
        ("tensors", "Y(i,j) = " + " + ".join(f"{n}(i,j,k) * c(k)" for n in tensors),
         {**tensors, "c": "Dense", "Y": "Dense"}, {**{n: tensor for n in tensors}, "c": np.ones(6)}, (4, 5)),
        ("vectors", "y(i) = " + " + ".join(f"{n}(i)" for n in vectors), {**vectors, "y": "Dense"},
         {n: vector for n in vectors}, (11,)),
    ]


DIFFERENTIAL = differential_libraries()


@pytest.mark.parametrize("name, expression, layouts, operands, shape", DIFFERENTIAL,
                         ids=[case[0] for case in DIFFERENTIAL])
def test_check_agrees_with_validate_on_corrupted_index_arrays(tmp_path, name, expression, layouts, operands, shape):
    """Each index array of each layout, one element set to a random value near its range at
    a time: NAME_check refuses (6) exactly what spf.runtime.packing.validate refuses, but for the
    properties docs/c-abi.md leaves unchecked (injective: duplicates in unsorted layouts)."""
    spf_compile(expression, *[a for t, layout in layouts.items() for a in ("-l", f"{t}={layout}")],
                "-o", str(tmp_path / name))
    header = (tmp_path / f"{name}.h").read_text()
    order = re.findall(r"\*(\w+)", re.search(rf"int {name}_check\(([^)]*)\)", header).group(1))
    check = ctypes.CDLL(str(tmp_path / f"lib{name}.so"))[f"{name}_check"]
    check.restype = ctypes.c_int
    packed = {t: spf.pack(layouts[t], data, name=t) for t, data in operands.items()}
    output = spf.load_layout(layouts[order[-1]]).resolve(len(shape))
    output_values = np.zeros(shape)
    structs = {t: c_struct(tensor.layout, dict(tensor.fields)) for t, tensor in packed.items()}
    structs[order[-1]] = c_struct(output, {**output.compute_scalars(shape), "vals": output_values})

    def call(replaced: dict) -> int:
        return check(*[ctypes.byref(replaced.get(t, structs[t])[0]) for t in order])

    assert call({}) == 0
    rng = np.random.default_rng(len(expression))
    compared = refused = 0
    for t, tensor in packed.items():
        layout = tensor.layout
        unchecked = unchecked_properties(layout)
        for field_ in layout.index_arrays:
            original = np.asarray(tensor.fields[field_.name])
            if not original.size:
                continue
            for _ in range(25):
                fields = {k: (np.array(v) if isinstance(v, np.ndarray) else v) for k, v in tensor.fields.items()}
                corrupted = fields[field_.name].reshape(-1)
                position = int(rng.integers(corrupted.size))
                low, high = int(original.min()) - 2, int(original.max()) + 3
                corrupted[position] = int(rng.integers(max(low, np.iinfo(corrupted.dtype).min), high))
                try:
                    spf.runtime.validation.validate(layout, fields, name=t)
                    refuses = None
                except PackError as error:
                    refuses = str(error)
                status = call({t: c_struct(layout, fields)})
                compared += 1
                if refuses is None:
                    assert status == 0, f"{t} ({layout.spec}): {field_.name}[{position}] = {corrupted[position]}"
                elif status == 0:  # only what the ABI leaves unchecked
                    assert any(text in refuses for text in unchecked), f"{t} ({layout.spec}): {refuses}"
                else:
                    assert status == BROKEN_PROPERTY, refuses
                    refused += 1
    assert compared >= 75 and refused > compared // 4  # the corruptions mostly break something


def test_a_library_whose_output_is_a_prefix_of_an_inputs_levels(tmp_path):
    """TTV into DCSR from CSF3 (the pattern inferred, spf.space.patterns): the caller fills A with
    B's first two levels under A's names (rowIdx = B's idx0, ...); NAME checks A's counts against
    B's (nnzRows against nnz0, nnz against nnz1) and writes A's values."""
    spf_compile("A(i,j) = B(i,j,k) * c(k)", "-l", "A=DCSR", "-l", "B=CSF3", "-l", "c=Dense",
                "-o", str(tmp_path / "ttv"))
    header = (tmp_path / "ttv.h").read_text()
    order = re.findall(r"\*(\w+)", re.search(r"int ttv\(([^)]*)\)", header).group(1))
    ttv = ctypes.CDLL(str(tmp_path / "libttv.so"))["ttv"]
    ttv.restype = ctypes.c_int
    rng = np.random.default_rng(5)
    coords = np.unique(np.stack([rng.integers(0, n, 200) for n in (6, 7, 8)], axis=1), axis=0)
    values = rng.random(len(coords))
    B = spf.pack("CSF3", (coords, values, (6, 7, 8)), name="B")
    c = rng.random(8)
    dcsr = spf.load_layout("DCSR")
    f = B.fields
    A_fields = {"numRows": 6, "numCols": 7, "nnzRows": f["nnz0"], "nnz": f["nnz1"], "rowIdx": f["idx0"],
                "rowPtr": f["ptr0"], "colIdx": f["idx1"], "data": np.full(f["nnz1"], SENTINEL)}
    structs = {"B": c_struct(B.layout, dict(f)), "c": c_struct(spf.load_layout("Dense").resolve(1),
                                                                  {"N0": 8, "vals": c})}

    def call(A_fields: dict) -> tuple[int, np.ndarray]:
        A = c_struct(dcsr, A_fields)
        status = ttv(*[ctypes.byref({**structs, "A": A}[t][0]) for t in order])
        return status, A[1][-1]

    status, data = call(A_fields)
    dense = np.zeros((6, 7, 8))
    dense[tuple(coords.T)] = values
    assert status == 0
    got = from_fields("DCSR", {**A_fields, "data": data}, shape=(6, 7)).to_dense()
    np.testing.assert_allclose(got, np.einsum("ijk,k->ij", dense, c), rtol=1e-13)
    status, data = call({**A_fields, "nnz": f["nnz1"] - 1, "data": np.full(f["nnz1"], SENTINEL)})
    assert status == INCONSISTENT_FIELDS and (data == SENTINEL).all()


def test_python_kernels_do_not_carry_the_checks():
    """The Python call path validated its operands already: the kernels it compiles and
    calls (the variants) hold no NAME_check and do not run one."""
    kernel = spf.compile("C(i,j) = A(i,j) + 2 * B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert "_check(" not in kernel.c_source


# ----------------------------------------------------------------------------- the reproducers of issue 25


@pytest.mark.parametrize("layout, sign", [("CSR", "+"), ("DCSR", "-")])
def test_a_sparse_sum_of_disagreeing_shapes_returns_1(sanitizing_cc, tmp_path, layout, sign):
    """C(i,j) = A(i,j) +- 2 * B(i,j) with A 2x3 and B 2x4 holding an entry in column 3
    (returned 0, with C(0,3) = 10 in a 2x3 C, or 3, before)."""
    spf_compile(f"C(i,j) = A(i,j) {sign} 2 * B(i,j)", "-l", f"A={layout}", "-l", f"B={layout}", "-l", f"C={layout}",
                "-o", str(tmp_path / "add"))
    A = spf.pack(layout, sparse.csr_matrix(np.array([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]])), name="A")
    B = spf.pack(layout, sparse.csr_matrix(np.array([[0.0, 0.0, 0.0, 5.0], [0.0, 1.0, 0.0, 0.0]])), name="B")
    statics, setup = [], []
    for name, tensor in (("A", A), ("B", B)):
        more, lines = tensor_setup(name, tensor)
        statics, setup = statics + more, setup + lines
    program = PRELUDE + '#include "add.h"\n' + "\n".join(statics) + f"""
int main(void)
{{
    {' '.join(setup)}
    struct spf_{layout} C, saved;
    memset(&C, 0x5a, sizeof C);
    saved = C;
    void *handle = NULL;
    printf("%d %d\\n", add(&A, &B, &C, NULL, &handle), memcmp(&C, &saved, sizeof C) == 0 && !handle);
    release();
    return 0;
}}
"""
    assert run_sanitized(sanitizing_cc, tmp_path, program, "add") == [f"{SHAPE_MISMATCH} 1"]


def test_a_vector_longer_than_the_matrix_returns_1_where_the_kernel_overflowed(sanitizing_cc, tmp_path):
    """y(i) = A(i,j) * x(j) + z(i) into SV with A 2x2 (DCSR) and z of length 7 holding index 6:
    NAME returns 1; the unchecked variant, called the same way, writes past its workspace
    (the heap overflow the issue reports, which shows the sanitizers would catch a miss)."""
    spf_compile("y(i) = A(i,j) * x(j) + z(i)", "-l", "A=DCSR", "-l", "x=SV", "-l", "z=SV", "-l", "y=SV",
                "-o", str(tmp_path / "ov"))
    variant = re.search(r"^int (spf_kernel_\w+)\(", (tmp_path / "ov.h").read_text(), re.MULTILINE).group(1)
    operands = {"A": spf.pack("DCSR", sparse.csr_matrix(np.array([[1.0, 0.0], [0.0, 2.0]])), name="A"),
                "x": spf.pack("SV", np.array([1.0, 1.0]), name="x"),
                "z": spf.pack("SV", np.eye(7)[6] * 3.0, name="z")}
    statics, setup = [], []
    for name, tensor in operands.items():
        more, lines = tensor_setup(name, tensor)
        statics, setup = statics + more, setup + lines

    def program(function: str) -> str:
        return PRELUDE + '#include "ov.h"\n' + "\n".join(statics) + f"""
int main(void)
{{
    {' '.join(setup)}
    struct spf_SV y;
    memset(&y, 0, sizeof y);
    void *handle = NULL;
    const int status = {function}(&A, &x, &z, &y, NULL, &handle);
    printf("%d\\n", status);
    if (status == 0) ov_free(handle);
    release();
    return 0;
}}
"""
    assert run_sanitized(sanitizing_cc, tmp_path, program("ov"), "ov") == [str(SHAPE_MISMATCH)]
    with pytest.raises(AssertionError, match="heap-buffer-overflow"):
        run_sanitized(sanitizing_cc, tmp_path, program(variant), "ov")
