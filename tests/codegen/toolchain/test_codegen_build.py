"""The kernel ABI (one C struct per layout, its header and ctypes mirror) and the build cache.

The C in this file is plain text written by hand: it checks, through a real compiler,
that the structs spf declares and the ones it fills from Python agree.
"""

from __future__ import annotations

import ctypes
import os
import shlex
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse
from pycparser import CParser, c_ast

import spf
from spf.codegen.c.structs import (ctypes_struct, header_text, marshal, output_struct, sanitize_identifier,
                                   struct_declaration, struct_name)
from spf.codegen.toolchain import compiler as build
from spf.codegen.toolchain.cache_limit import STAMP
from spf.codegen.toolchain.compiler import (CFLAGS, SANITIZE_FLAGS, build_shared_library, cache_directory, compiler,
                                            load_function, load_library, sanitizer_environment)

SPECS = ["CSR", "BCSR(R=2, C=3)", "WARP24", "Dense2", "CSF3"]

# A user layout with the field types no built-in layout has: int64 scalars and
# indices, uint8 flags and float values.
MIXED_LAYOUT = """\
layout SV_MIXED
description "sparse vector with int64 indices, a flag per entry and float values"

field n: int64 = shape[0]
field len: int64
field idx: int64[len]
field flag: uint8[len]
field val: float[len]

shape n
relation [p] -> [i] : 0 <= p < len and i = idx(p)
values val[p]

property range(idx, 0, n)
property monotonic(idx, increasing, strict)
"""


# ----------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def module_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("spf-cache")


@pytest.fixture(autouse=True)
def isolated_cache(module_cache, monkeypatch):
    """Every build of this module goes to a temporary cache, never the user's."""
    monkeypatch.setenv("SPF_CACHE_DIR", str(module_cache))


@pytest.fixture(scope="module")
def mixed_layout(tmp_path_factory):
    path = tmp_path_factory.mktemp("layouts") / "SV_MIXED.layout"
    path.write_text(MIXED_LAYOUT)
    return spf.load_layout(str(path))


def random_matrix(rows: int = 7, cols: int = 9, seed: int = 0) -> scipy.sparse.csr_matrix:
    return scipy.sparse.random(rows, cols, density=0.3, format="csr", random_state=seed)


def warp24_matrix(rows: int = 5, cols: int = 10, seed: int = 1) -> np.ndarray:
    """A dense matrix with at most two non-zeros in each group of four columns."""
    rng = np.random.default_rng(seed)
    dense = np.zeros((rows, cols))
    for i in range(rows):
        for start in range(0, cols, 4):
            width = min(4, cols - start)
            kept = rng.choice(width, size=min(2, width), replace=False)
            dense[i, start + kept] = rng.uniform(1, 2, size=len(kept))
    return dense


def sample_tensor(spec: str, mixed_layout) -> spf.Tensor:
    """A small packed tensor of each layout under test."""
    if spec == "SV_MIXED":
        return spf.pack(mixed_layout, {"n": 10, "len": 3, "idx": np.array([1, 4, 8]), "flag": np.array([1, 0, 1]),
                                       "val": np.array([0.5, 1.5, 2.5], dtype=np.float32)}, "x")
    if spec == "WARP24":
        return spf.pack(spec, warp24_matrix(), "W")
    if spec == "Dense2":
        return spf.pack(spec, np.arange(12.0).reshape(3, 4), "D")
    if spec == "CSF3":
        coords = np.array([[0, 1, 2], [0, 1, 3], [2, 0, 0], [2, 2, 1], [3, 3, 3]])
        return spf.pack(spec, (coords, np.array([1.0, 2.0, 3.0, 4.0, 5.0]), (4, 4, 4)), "T")
    return spf.pack(spec, random_matrix(), "A")


def layout_of(spec: str, mixed_layout):
    return mixed_layout if spec == "SV_MIXED" else spf.load_layout(spec)


ALL_SPECS = SPECS + ["SV_MIXED"]


def compile_with_header(layouts, body: str, name: str, flags=None) -> Path:
    """A library from the header of ``layouts`` followed by ``body``."""
    source = header_text(layouts, [], "SPF_TEST_H") + "\n" + textwrap.dedent(body)
    return build_shared_library(source, flags, name)


# ----------------------------------------------------------------------------- struct declarations

def test_struct_names(mixed_layout):
    assert struct_name(spf.load_layout("CSR")) == "spf_CSR"
    assert struct_name(spf.load_layout("BCSR(R=2, C=3)")) == "spf_BCSR_R2_C3"
    assert struct_name(spf.load_layout("BCSR")) == "spf_BCSR_R4_C4"
    assert struct_name(spf.load_layout("Dense2")) == "spf_Dense2"
    assert struct_name(mixed_layout) == "spf_SV_MIXED"
    assert sanitize_identifier("a-b.c(R=2)") == "a_b_c_R_2_"
    assert sanitize_identifier("9lives") == "_9lives"


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_struct_members_follow_the_layout_fields(spec, mixed_layout):
    layout = layout_of(spec, mixed_layout)
    declaration = struct_declaration(layout)
    assert isinstance(declaration, c_ast.Decl) and isinstance(declaration.type, c_ast.Struct)
    assert declaration.type.name == struct_name(layout)
    members = declaration.type.decls
    assert [member.name for member in members] == [field.name for field in layout.fields]
    for member, field in zip(members, layout.fields):
        declarator = member.type
        if field.is_array:
            assert isinstance(declarator, c_ast.PtrDecl), field.name
            declarator = declarator.type
        assert isinstance(declarator, c_ast.TypeDecl), field.name
        assert declarator.type.names == [field.c_type], field.name


def test_struct_text_of_csr():
    text = header_text(["CSR"], [], "G")
    assert textwrap.dedent("""\
        struct spf_CSR
        {
          int numRows;
          int numCols;
          int nnz;
          int *rowPtr;
          int *colIdx;
          double *data;
        };
        """) in text


def test_struct_text_of_element_types(mixed_layout):
    text = header_text(["WARP24", mixed_layout], [], "G")
    for member in ["double *val;", "uint8_t *meta;", "int64_t n;", "int64_t len;", "int64_t *idx;",
                   "uint8_t *flag;", "float *val;"]:
        assert f"  {member}\n" in text, member


# ----------------------------------------------------------------------------- header

def prototype_decl(text: str) -> c_ast.Decl:
    """A prototype as the C emitter would give it (pycparser needs the typedef of int64_t)."""
    return CParser().parse("typedef long int64_t;\n" + text).ext[-1]


def test_header_content(mixed_layout):
    prototypes = [prototype_decl("int spmv(const struct spf_CSR *A, double *y);"),
                  "int ttv(const struct spf_CSF3 *T, const struct spf_SV_MIXED *x, struct spf_Dense2 *out)"]
    text = header_text([*SPECS, mixed_layout, "CSR", spf.load_layout("BCSR(R=2, C=3)")],
                       prototypes, "MY_KERNELS_H")
    assert text.startswith("#ifndef MY_KERNELS_H\n#define MY_KERNELS_H\n")
    assert text.rstrip().endswith("#endif /* MY_KERNELS_H */")
    assert "#include <stdint.h>" in text
    for spec in SPECS:
        name = struct_name(spf.load_layout(spec))
        assert text.count(f"struct {name}\n{{") == 1, name
    assert "int spmv(const struct spf_CSR *A, double *y);" in text
    assert "struct spf_Dense2 *out);" in text
    assert text.index("struct spf_CSF3\n{") < text.index("int spmv(")
    for phrase in ["row-major", "0 on success", "nonzero error code", "do not keep any pointer",
                   "concurrently on different outputs", "val: double[nnzBlocks][2][3], flattened row-major"]:
        assert phrase in text, phrase


def test_header_compiles(tmp_path, mixed_layout):
    prototypes = ["int spmv(const struct spf_CSR *A, double *y)",
                  prototype_decl("int scale(struct spf_WARP24 *W, int64_t factor);")]
    (tmp_path / "kernels.h").write_text(header_text([*SPECS, mixed_layout], prototypes, "KERNELS_H"))
    (tmp_path / "user.c").write_text(textwrap.dedent("""\
        #include "kernels.h"
        #include "kernels.h" /* the include guard makes this harmless */

        int uses(struct spf_BCSR_R2_C3 *B, struct spf_SV_MIXED *x)
        {
          return B->nnzBlocks + (int) x->len + (int) x->idx[0] + x->flag[0];
        }
        """))
    command = [*shlex.split(compiler()), "-fsyntax-only", "-std=c99", "-pedantic-errors", "-Wall", "-Werror",
               str(tmp_path / "user.c")]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# ----------------------------------------------------------------------------- ctypes mirror

@pytest.mark.parametrize("spec", ALL_SPECS)
def test_ctypes_offsets_match_c(spec, mixed_layout):
    layout = layout_of(spec, mixed_layout)
    name = struct_name(layout)
    offsets = "\n".join(f"  out[{k + 1}] = (int64_t) offsetof(struct {name}, {field.name});"
                        for k, field in enumerate(layout.fields))
    library = compile_with_header([layout], f"""
        #include <stddef.h>
        void layout_of(int64_t *out)
        {{
          out[0] = (int64_t) sizeof(struct {name});
        {offsets}
        }}
        """, "offsets")
    report = load_function(library, "layout_of", [ctypes.POINTER(ctypes.c_int64)], None)
    out = (ctypes.c_int64 * (len(layout.fields) + 1))()
    report(out)
    struct = ctypes_struct(layout)
    assert out[0] == ctypes.sizeof(struct)
    assert list(out[1:]) == [getattr(struct, field.name).offset for field in layout.fields]


def test_ctypes_struct_is_cached_per_struct_name():
    assert ctypes_struct(spf.load_layout("CSR")) is ctypes_struct("CSR")
    assert ctypes_struct("BCSR(R=2, C=3)") is not ctypes_struct("BCSR(R=3, C=2)")
    assert ctypes_struct("CSR").__name__ == "spf_CSR"


def test_csr_marshal_through_c():
    matrix = random_matrix(30, 20, seed=3)
    library = compile_with_header(["CSR"], """
        double csr_checksum(const struct spf_CSR *A)
        {
          double sum = 0;
          for (int i = 0; i < A->numRows; i++)
            for (int p = A->rowPtr[i]; p < A->rowPtr[i + 1]; p++)
              sum += A->data[p] * (i + 1) * (A->colIdx[p] + 1);
          return sum + A->rowPtr[A->numRows] + 1000.0 * A->numCols;
        }
        """, "csr_checksum")
    checksum = load_function(library, "csr_checksum", [ctypes.POINTER(ctypes_struct("CSR"))], ctypes.c_double)
    struct, keep_alive = marshal(spf.pack("CSR", matrix, "A"))
    coo = matrix.tocoo()
    expected = np.sum(coo.data * (coo.row + 1) * (coo.col + 1)) + matrix.nnz + 1000.0 * matrix.shape[1]
    assert checksum(ctypes.byref(struct)) == pytest.approx(expected, rel=1e-12)
    assert all(isinstance(array, np.ndarray) for array in keep_alive) and len(keep_alive) == 3


def test_warp24_spmv_through_c():
    """uint8 ``meta`` and the flattened ``[NR][2*NG]`` arrays, read by a hand-written SpMV."""
    dense = warp24_matrix(6, 11, seed=4)
    library = compile_with_header(["WARP24"], """
        void warp24_spmv(const struct spf_WARP24 *W, const double *x, double *y)
        {
          for (int i = 0; i < W->NR; i++) {
            y[i] = 0;
            for (int s = 0; s < 2 * W->NG; s++) {
              int j = 4 * (s / 2) + W->meta[i * 2 * W->NG + s];
              if (j < W->NC)
                y[i] += W->val[i * 2 * W->NG + s] * x[j];
            }
          }
        }
        """, "warp24_spmv")
    double_pointer = ctypes.POINTER(ctypes.c_double)
    spmv = load_function(library, "warp24_spmv",
                         [ctypes.POINTER(ctypes_struct("WARP24")), double_pointer, double_pointer], None)
    struct, keep_alive = marshal(spf.pack("WARP24", dense, "W"))
    x = np.linspace(1, 2, dense.shape[1])
    y = np.zeros(dense.shape[0])
    spmv(ctypes.byref(struct), x.ctypes.data_as(double_pointer), y.ctypes.data_as(double_pointer))
    np.testing.assert_allclose(y, dense @ x, rtol=1e-12)


def field_sum_source(layout) -> str:
    """C returning one field of ``layout``'s struct: a scalar's value or the sum of an array."""
    cases = []
    for k, field in enumerate(layout.fields):
        if field.is_scalar:
            cases.append(f"    case {k}: return (double) t->{field.name};")
        else:
            cases.append(f"    case {k}: for (int64_t e = 0; e < n; e++) sum += (double) t->{field.name}[e];"
                         " return sum;")
    body = "\n".join(cases)
    return (f"double field_sum(const struct {struct_name(layout)} *t, int which, int64_t n)\n{{\n"
            f"  double sum = 0;\n  switch (which) {{\n{body}\n  }}\n  return -1;\n}}\n")


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_marshal_every_field_through_c(spec, mixed_layout):
    tensor = sample_tensor(spec, mixed_layout)
    layout = tensor.layout
    library = build_shared_library(header_text([layout], [], "G") + field_sum_source(layout), name="field_sum")
    field_sum = load_function(library, "field_sum",
                              [ctypes.POINTER(ctypes_struct(layout)), ctypes.c_int, ctypes.c_int64],
                              ctypes.c_double)
    struct, keep_alive = marshal(tensor)
    for k, field in enumerate(layout.fields):
        value = tensor.fields[field.name]
        if field.is_scalar:
            assert field_sum(ctypes.byref(struct), k, 0) == value, field.name
        else:
            expected = np.asarray(value, dtype=np.float64).sum()
            assert field_sum(ctypes.byref(struct), k, value.size) == pytest.approx(expected), field.name


def test_marshal_converts_to_the_declared_dtype():
    layout = spf.load_layout("CSR")
    tensor = spf.Tensor(layout, (2, 3), {"numRows": 2, "numCols": 3, "nnz": 2,
                                         "rowPtr": [0, 1, 2], "colIdx": np.array([0, 2], dtype=np.int64),
                                         "data": np.array([1, 2], dtype=np.int16)}, "A")
    # the Tensor already holds the declared types; marshal points at its arrays
    assert [tensor.fields[f].dtype for f in ("rowPtr", "colIdx", "data")] == [np.int32, np.int32, np.float64]
    struct, keep_alive = marshal(tensor)
    assert all(np.shares_memory(array, tensor.fields[f]) for array, f in zip(keep_alive, ("rowPtr", "colIdx", "data")))
    # fields a Tensor never holds (a bypass of its checks) are still converted, and flattened
    unchecked = spf.Tensor._from_checked(layout, (2, 3), {
        "numRows": 2, "numCols": 3, "nnz": 2, "rowPtr": [0, 1, 2], "colIdx": np.array([[0, 2]], dtype=np.int64),
        "data": np.array([1, 2], dtype=np.int16)}, "A")
    struct, keep_alive = marshal(unchecked)
    assert [array.dtype for array in keep_alive] == [np.int32, np.int32, np.float64]
    assert all(array.ndim == 1 and array.flags.c_contiguous for array in keep_alive)
    assert [struct.rowPtr[i] for i in range(3)] == [0, 1, 2]
    assert (struct.colIdx[1], struct.data[1]) == (2, 2.0)


# ----------------------------------------------------------------------------- marshalling errors

def csr_tensor(**changes) -> spf.Tensor:
    """A CSR Tensor with ``changes`` to its fields that skips the Tensor's own checks (as only a
    bypass of the public API could): marshal checks again what it passes to C.  The public
    constructor refuses each of these Tensors."""
    tensor = spf.pack("CSR", random_matrix(), "A")
    fields = {k: v for k, v in {**tensor.fields, **changes}.items() if v is not None}
    if changes:
        with pytest.raises(spf.PackError, match="tensor A: "):
            spf.Tensor(tensor.layout, tensor.shape, fields, "A")
    return spf.Tensor._from_checked(tensor.layout, tensor.shape, fields, "A")


def test_marshal_refuses_a_missing_field():
    with pytest.raises(spf.SpfError, match=r"tensor A: field colIdx .*missing"):
        marshal(csr_tensor(colIdx=None))
    # the public constructor derives nnz from the arrays' lengths (spf.runtime.derived_fields);
    # a Tensor made around its checks without it is refused by marshal
    tensor = spf.pack("CSR", random_matrix(), "A")
    fields = {k: v for k, v in tensor.fields.items() if k != "nnz"}
    assert spf.Tensor(tensor.layout, tensor.shape, fields, "A").fields["nnz"] == tensor.fields["nnz"]
    with pytest.raises(spf.SpfError, match=r"tensor A: field nnz .*missing"):
        marshal(spf.Tensor._from_checked(tensor.layout, tensor.shape, fields, "A"))


def test_marshal_refuses_a_wrong_size():
    tensor = csr_tensor()
    with pytest.raises(spf.SpfError, match=r"tensor A: field rowPtr has 7 elements, layout CSR needs 8"):
        marshal(csr_tensor(rowPtr=tensor.fields["rowPtr"][:-1]))
    nnz = tensor.fields["nnz"]
    with pytest.raises(spf.SpfError, match=rf"tensor A: field colIdx has {nnz} elements, layout CSR needs {nnz + 1}"):
        marshal(csr_tensor(nnz=nnz + 1))


def test_marshal_refuses_bad_scalars_and_other_layouts():
    with pytest.raises(spf.SpfError, match=r"tensor A: field nnz .*does not fit in int"):
        marshal(csr_tensor(nnz=2**31))
    with pytest.raises(spf.SpfError, match=r"tensor A: field numRows must be an integer"):
        marshal(csr_tensor(numRows=7.0))
    with pytest.raises(spf.SpfError, match=r"tensor A is stored in CSR, not Dense2"):
        marshal(csr_tensor(), spf.load_layout("Dense2"))
    struct, _ = marshal(csr_tensor(), "CSR")
    assert struct.numRows == 7


# ----------------------------------------------------------------------------- outputs

def test_output_struct_writes_are_visible():
    library = compile_with_header(["Dense2"], """
        int fill(struct spf_Dense2 *out)
        {
          for (int i = 0; i < out->N0; i++)
            for (int j = 0; j < out->N1; j++)
              out->vals[i * out->N1 + j] = 10 * i + j;
          return 0;
        }
        """, "fill")
    fill = load_function(library, "fill", [ctypes.POINTER(ctypes_struct("Dense2"))])
    vals = np.zeros((3, 4))
    struct, keep_alive = output_struct("Dense2", {"N0": 3, "N1": 4, "vals": vals}, "Y")
    assert fill(ctypes.byref(struct)) == 0
    np.testing.assert_array_equal(vals, 10 * np.arange(3)[:, None] + np.arange(4))
    assert np.shares_memory(keep_alive[0], vals)


@pytest.mark.parametrize("vals, problem", [
    (np.zeros((3, 4), dtype=np.float32), "has dtype float32, not float64"),
    (np.zeros((3, 8))[:, ::2], "is not C-contiguous"),
    (np.zeros((4, 3)).T, "is not C-contiguous"),
    (np.zeros((3, 4)).tolist(), "is a list, not a numpy array"),
    (np.zeros((3, 5)), "has 15 elements, layout Dense2 needs 12"),
])
def test_output_struct_refuses_arrays_it_would_have_to_copy(vals, problem):
    with pytest.raises(spf.SpfError, match=r"tensor Y: (output )?field vals " + problem.replace("(", r"\(")):
        output_struct("Dense2", {"N0": 3, "N1": 4, "vals": vals}, "Y")


def test_output_struct_refuses_read_only_and_missing_arrays():
    vals = np.zeros((3, 4))
    vals.flags.writeable = False
    with pytest.raises(spf.SpfError, match="tensor Y: output field vals is read-only"):
        output_struct("Dense2", {"N0": 3, "N1": 4, "vals": vals}, "Y")
    with pytest.raises(spf.SpfError, match="tensor Y: field vals of layout Dense2 is missing"):
        output_struct("Dense2", {"N0": 3, "N1": 4}, "Y")


# ----------------------------------------------------------------------------- build cache

SOURCE = "int answer(void) { return 42; }\n"


def test_compiler_and_cache_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("CC", raising=False)
    assert compiler() == "cc"
    monkeypatch.setenv("CC", "gcc")
    assert compiler() == "gcc"

    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path / "explicit"))
    assert cache_directory() == tmp_path / "explicit" and (tmp_path / "explicit").is_dir()
    monkeypatch.delenv("SPF_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_directory() == tmp_path / "xdg" / "spf"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_directory() == tmp_path / "home" / ".cache" / "spf"


def test_build_goes_to_spf_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    library = build_shared_library(SOURCE, name="answer")
    assert library.parent == tmp_path
    assert library.name.startswith("answer-") and library.suffix == ".so" and len(library.stem) == len("answer-") + 16
    assert library.with_suffix(".c").read_text() == SOURCE
    written = sorted(path.name for path in tmp_path.iterdir() if path.name != STAMP)  # the pruning's stamp
    assert written == [library.with_suffix(".c").name, library.name, build.record_path(library).name]
    size, digest = build.record_path(library).read_text().split()
    assert int(size) == library.stat().st_size and len(digest) == 64
    assert load_function(library, "answer", [])() == 42


def test_same_source_builds_once(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    first = build_shared_library(SOURCE, name="answer")

    def no_compiler(*args, **kwargs):
        raise AssertionError(f"the compiler ran again: {args}")

    monkeypatch.setattr(subprocess, "run", no_compiler)
    assert build_shared_library(SOURCE, name="answer") == first


def test_flags_source_and_compiler_change_the_path(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    default = build_shared_library(SOURCE)
    assert build_shared_library(SOURCE, list(CFLAGS)) == default
    assert build_shared_library(SOURCE, ["-O1", "-shared", "-fPIC"]) != default
    assert build_shared_library(SOURCE.replace("42", "43")) != default
    monkeypatch.setenv("CC", f"{compiler()} -DUNUSED_MACRO")
    assert build_shared_library(SOURCE) != default


def test_syntax_error_names_the_message_and_the_source(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    with pytest.raises(spf.SpfError) as raised:
        build_shared_library("int broken(void) { return 1 }\n", name="broken")
    message = str(raised.value)
    c_files = list(tmp_path.glob("broken-*.c"))
    assert len(c_files) == 1 and str(c_files[0]) in message
    assert "error" in message and "expected" in message  # the compiler's own words
    assert not list(tmp_path.glob("*.so")) and not list(tmp_path.glob(".*"))  # nothing half-built


def test_compiler_errors_are_cut_to_twenty_lines(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    source = "".join(f"int f{k}(void) {{ return undefined{k}; }}\n" for k in range(40))
    with pytest.raises(spf.SpfError, match=r"more lines\)") as raised:
        build_shared_library(source, name="many")
    assert len(str(raised.value).splitlines()) <= 1 + build.ERROR_LINES + 1


def test_missing_compiler(monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/spf-test-cc")
    with pytest.raises(spf.SpfError, match="C compiler '/nonexistent/spf-test-cc' not found"):
        build_shared_library(SOURCE)


def test_concurrent_builds_agree(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    source = "int concurrent(void) { return 7; }\n"
    with ThreadPoolExecutor(4) as pool:
        paths = set(pool.map(lambda _: build_shared_library(source, name="concurrent"), range(8)))
    assert len(paths) == 1
    assert load_function(paths.pop(), "concurrent", [])() == 7
    assert [path.name for path in tmp_path.glob(".*")] in ([], [STAMP])  # no temporary left behind


def _truncated(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _emptied(path: Path) -> None:
    path.write_bytes(b"")


def _overwritten(path: Path) -> None:
    path.write_bytes(np.random.default_rng(0).integers(0, 256, path.stat().st_size, dtype=np.uint8).tobytes())


def _one_byte_changed(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGE = {"truncated": _truncated, "emptied": _emptied, "overwritten": _overwritten,
          "one byte changed": _one_byte_changed}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("damaged", ["library", "record", "record missing"])
def test_a_library_that_does_not_match_its_record_is_compiled_again(tmp_path, monkeypatch, damage, damaged):
    """A truncated library would be mapped past its end by dlopen (SIGBUS), a garbage one
    refused: spf compiles it again before loading, whichever of the two files was damaged."""
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    source = f"int damaged(void) {{ return {len(damage) * 10 + len(damaged)}; }}\n"  # loaded only once repaired
    library = build_shared_library(source, name="damaged")
    assert build.intact(library)
    monkeypatch.setattr(build.LIBRARIES, "verified", {})  # as in a new process
    if damaged == "record missing":
        build.record_path(library).unlink()
    else:
        DAMAGE[damage](library if damaged == "library" else build.record_path(library))
    assert not build.intact(library)
    compiles = []
    run_compiler = build._run_compiler
    monkeypatch.setattr(build, "_run_compiler", lambda *arguments: compiles.append(1) or run_compiler(*arguments))
    assert build_shared_library(source, name="damaged") == library
    assert compiles == [1] and build.intact(library)
    assert load_function(library, "damaged", [])() == len(damage) * 10 + len(damaged)
    assert [path.name for path in tmp_path.glob(".*")] in ([], [STAMP])  # no temporary left behind


def test_an_intact_library_is_hashed_once_per_process(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    library = build_shared_library(SOURCE, name="answer")
    hashed = []
    digest = build._digest
    monkeypatch.setattr(build, "_digest", lambda handle: hashed.append(1) or digest(handle))
    monkeypatch.setattr(build.LIBRARIES, "verified", {})
    for _ in range(3):
        assert build_shared_library(SOURCE, name="answer") == library
    assert hashed == [1]
    os.truncate(library, 100)  # the same file, changed: checked again
    assert not build.intact(library)


def test_a_library_spf_cannot_load_says_to_delete_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    (tmp_path / "broken.so").write_bytes(b"not a library")
    with pytest.raises(spf.SpfError, match=f"delete {tmp_path} to start afresh"):
        load_library(tmp_path / "broken.so")


@pytest.fixture
def fresh_cache_folder(monkeypatch):
    """spf.codegen.toolchain.cache_folder as in a new process: no folder tried, no temporary one yet."""
    from spf.codegen.toolchain import cache_folder
    monkeypatch.setattr(cache_folder, "_usable", set())
    monkeypatch.setattr(cache_folder, "_refused", {})
    monkeypatch.setattr(cache_folder, "_temporary", None)
    return cache_folder


@pytest.mark.parametrize("problem, words", [("a file", "is a file, not a folder"),
                                            ("under a file", "a part of the path is a file")])
def test_a_cache_folder_that_cannot_be_made_is_left_for_a_temporary_one(tmp_path, monkeypatch, fresh_cache_folder,
                                                                        problem, words):
    (tmp_path / "file").write_text("")
    folder = tmp_path / "file" if problem == "a file" else tmp_path / "file" / "cache"
    monkeypatch.setenv("SPF_CACHE_DIR", str(folder))
    with pytest.warns(spf.CacheWarning, match=f"{folder} \\(from \\$SPF_CACHE_DIR\\): .*{words}.*set SPF_CACHE_DIR"):
        library = build_shared_library("int fallback(void) { return 5; }\n", name="fallback")
    temporary = fresh_cache_folder._temporary
    assert library.parent == temporary and temporary.is_dir() and not temporary.is_relative_to(tmp_path)
    assert load_function(library, "fallback", [])() == 5
    assert cache_directory() == temporary  # warned once, then the same folder
    assert (tmp_path / "file").read_text() == ""


def test_the_warning_names_the_variable_the_folder_came_from(tmp_path, monkeypatch, fresh_cache_folder):
    (tmp_path / "file").write_text("")
    monkeypatch.delenv("SPF_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    with pytest.warns(spf.CacheWarning, match=f"{tmp_path / 'file' / 'spf'} \\(from \\$XDG_CACHE_HOME\\)"):
        assert cache_directory() == fresh_cache_folder._temporary


def test_a_cache_folder_without_write_permission_is_left_for_a_temporary_one(tmp_path, monkeypatch,
                                                                             fresh_cache_folder):
    if os.geteuid() == 0:
        pytest.skip("root writes any folder; tests/codegen/toolchain/test_kernel_cache.py compiles into one as another user")
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o555)
    monkeypatch.setenv("SPF_CACHE_DIR", str(folder))
    with pytest.warns(spf.CacheWarning, match="Permission denied"):
        library = build_shared_library("int read_only(void) { return 6; }\n", name="read_only")
    assert load_function(library, "read_only", [])() == 6 and not list(folder.iterdir())


def test_a_write_that_fails_in_the_cache_folder_moves_to_a_temporary_one(tmp_path, monkeypatch, fresh_cache_folder):
    """A folder that passed the trial write may still refuse one (its permissions changed,
    the disk filled): the build goes on in the temporary folder."""
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    write = build._write_atomically

    def refuse_the_cache(path: Path, text: str) -> None:
        if path.parent == tmp_path:
            raise PermissionError(13, "Permission denied", str(path))
        write(path, text)

    monkeypatch.setattr(build, "_write_atomically", refuse_the_cache)
    with pytest.warns(spf.CacheWarning, match=f"cannot cache kernels in {tmp_path} .*Permission denied"):
        library = build_shared_library("int moved(void) { return 8; }\n", name="moved")
    assert library.parent == fresh_cache_folder._temporary and build.intact(library)
    assert load_function(library, "moved", [])() == 8
    assert not list(tmp_path.glob("*.so"))
    assert cache_directory() == fresh_cache_folder._temporary


def test_without_any_folder_to_write_the_error_names_the_variable(tmp_path, monkeypatch, fresh_cache_folder):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path / "file"))

    def no_temporary_folder(*arguments, **options):
        raise PermissionError(13, "Permission denied", "/tmp")

    monkeypatch.setattr(fresh_cache_folder.tempfile, "mkdtemp", no_temporary_folder)
    with pytest.warns(spf.CacheWarning), pytest.raises(spf.SpfError, match="nor in a temporary folder.*set SPF_CACHE_DIR"):
        build_shared_library(SOURCE, name="answer")


def test_load_function(tmp_path, monkeypatch):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    library = build_shared_library("double twice(double x) { return 2 * x; }\n", name="twice")
    assert load_library(library) is load_library(str(library))
    twice = load_function(library, "twice", [ctypes.c_double], ctypes.c_double)
    assert twice(1.25) == 2.5
    assert twice.argtypes == [ctypes.c_double] and twice.restype is ctypes.c_double
    with pytest.raises(spf.SpfError, match="has no function 'thrice'"):
        load_function(library, "thrice", [])
    with pytest.raises(spf.SpfError, match="cannot load"):
        load_library(tmp_path / "missing.so")


# ----------------------------------------------------------------------------- sanitizers

@pytest.fixture(scope="module")
def sanitized():
    try:
        return sanitizer_environment()
    except spf.SpfError as error:
        pytest.skip(f"no sanitizer runtime: {error}")


OUT_OF_BOUNDS = """\
#include <stdlib.h>

__attribute__((noinline)) int element(const int *a, int i) { return a[i]; }

int sum_prefix(int n)
{
  int *a = malloc(4 * sizeof *a);
  int sum = 0;
  for (int i = 0; i < 4; i++) a[i] = i + 1;
  for (int i = 0; i < n; i++) sum += element(a, i);
  free(a);
  return sum;
}
"""


def run_sanitized(environment, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)


def test_sanitizer_environment(sanitized):
    preload = sanitized["LD_PRELOAD"].split(":")
    assert "libasan" in Path(preload[0]).name and "libubsan" in Path(preload[1]).name
    assert "detect_leaks=0" in sanitized["ASAN_OPTIONS"]
    assert "halt_on_error=1" in sanitized["UBSAN_OPTIONS"]
    assert sanitizer_environment({"LD_PRELOAD": "/x/libother.so"})["LD_PRELOAD"].endswith(":/x/libother.so")


def test_sanitizer_catches_out_of_bounds(sanitized):
    library = build_shared_library(OUT_OF_BOUNDS, SANITIZE_FLAGS, "out_of_bounds")
    call = f"import ctypes; print(ctypes.CDLL({str(library)!r}).sum_prefix({{n}}))"
    clean = run_sanitized(sanitized, call.format(n=4))
    assert clean.returncode == 0, clean.stderr
    assert clean.stdout.strip() == "10"
    overflow = run_sanitized(sanitized, call.format(n=5))
    assert overflow.returncode != 0
    assert "AddressSanitizer" in overflow.stderr and "heap-buffer-overflow" in overflow.stderr


def test_sanitized_kernel_on_marshalled_tensor(sanitized):
    """A struct filled by marshal, read in bounds by a sanitized kernel, in a sanitized process."""
    source = header_text(["CSR"], [], "G") + textwrap.dedent("""
        double total(const struct spf_CSR *A)
        {
          double sum = 0;
          for (int i = 0; i < A->numRows; i++)
            for (int p = A->rowPtr[i]; p < A->rowPtr[i + 1]; p++)
              sum += A->data[p] * A->colIdx[p];
          return sum;
        }
        """)
    library = build_shared_library(source, SANITIZE_FLAGS, "total")
    code = textwrap.dedent(f"""
        import ctypes, numpy as np, scipy.sparse, spf
        from spf.codegen.toolchain.compiler import load_function
        from spf.codegen.c.structs import ctypes_struct, marshal
        matrix = scipy.sparse.random(40, 30, density=0.2, format="csr", random_state=5)
        total = load_function({str(library)!r}, "total", [ctypes.POINTER(ctypes_struct("CSR"))], ctypes.c_double)
        struct, keep_alive = marshal(spf.pack("CSR", matrix))
        coo = matrix.tocoo()
        assert abs(total(ctypes.byref(struct)) - np.sum(coo.data * coo.col)) < 1e-9
        """)
    result = run_sanitized(sanitized, code)
    assert result.returncode == 0, result.stderr[-3000:]


def test_a_slow_compile_says_so(monkeypatch, capsys, tmp_path):
    """A compile still running after ANNOUNCE_AFTER seconds prints one line on standard error;
    a quick one prints nothing."""
    import time
    from spf.codegen.toolchain import compiler
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    original = compiler._build
    monkeypatch.setattr(compiler, "_build", lambda *a: (time.sleep(0.5), original(*a)))
    monkeypatch.setattr(compiler, "ANNOUNCE_AFTER", 0.05)
    compiler.build_shared_library("int spf_slow(void) { return 1; }\n", name="slow_one")
    assert "spf: compiling slow_one with" in capsys.readouterr().err
    monkeypatch.setattr(compiler, "ANNOUNCE_AFTER", 60.0)
    compiler.build_shared_library("int spf_quick(void) { return 2; }\n", name="quick_one")
    assert "spf: compiling" not in capsys.readouterr().err
