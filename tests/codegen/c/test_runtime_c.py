"""spf's fixed run-time C (spf/codegen/c/runtime/*.h) on its own and as it ships.

Each file compiles alone, with representative parameters, under ``-Wall -Wextra -Werror``
(with OpenMP and without); ``runtime_c_driver.c`` exercises the entry points (the piece
scheduler, the find state and hash map, a stream, a workspace, rows, a builder's fixed
part) under AddressSanitizer and UndefinedBehaviorSanitizer.  The files are package data,
part of the libraries' and kernels' cache keys, and inlined into the self-contained
source ``spf compile`` writes.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

import spf
from spf.codegen.c import runtime
from spf.codegen.toolchain import compiler as build, kernel_cache
from spf.codegen.toolchain.compiler import compiler

REPOSITORY = Path(__file__).resolve().parents[3]
DRIVER = Path(__file__).resolve().parent / "runtime_c_driver.c"
WARNINGS = ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror"]
SANITIZE = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
PARTS = ["ok base", "ok pieces", "ok hash", "ok stream", "ok networks", "ok workspace", "ok rows", "ok builder"]

STREAM_2 = "#define SPF_STREAM_ORDER 2\n#define SPF_STREAM_COORDINATES(X) X(0) X(1)\n"
WORKSPACE_2 = (STREAM_2 + "#include \"spf_stream.h\"\n#define SPF_WORKSPACE_FORWARD 0\n"
               "#define SPF_WORKSPACE_COORDINATES(OTHER, KEY) KEY(0) OTHER(1, 0)\n")
BUILDER = """struct out { int64_t rows, nnz; };
#define SPF_BUILDER b
#define SPF_BUILDER_OUTPUT struct out
#define SPF_BUILDER_COORDINATE int32_t
#define SPF_BUILDER_ORDER 2
#define SPF_BUILDER_KEYS 2
#define SPF_BUILDER_ROW_KEY int64_t
#define SPF_BUILDER_ROW_POINTER int64_t
#define SPF_BUILDER_REPORT 9
#define SPF_BUILDER_DUPLICATES 1
#define SPF_BUILDER_FIRST_DUPLICATE 2
#define SPF_BUILDER_FIRST_BAD 3
#define SPF_BUILDER_BAD_CHECK 4
#define SPF_BUILDER_DUPLICATE_AT 7
#define SPF_BUILDER_ROWS 1
#define SPF_BUILDER_OUTER 1
#define SPF_BUILDER_INNER 0
"""
# each file alone: (C before its include, C after it: the parts a generated source defines)
ALONE = {
    "spf_base.h": ("", ""),
    "spf_semiring.h": ("", "double twice(double a) { return spf_min_float64(a, a) + spf_pair_float64(a, a); }\n"),
    "spf_pieces.h": ("", ""),
    "spf_state.h": ("", ""),
    "spf_hash.h": ("", ""),
    "spf_stream.h": ("#define SPF_STREAM_ORDER 3\n#define SPF_STREAM_COORDINATES(X) X(0) X(1) X(2)\n", ""),
    "spf_combine.h": ("", "double combined(double a, double b) { return SPF_COMBINE(a, b) + SPF_COMBINE_PLUS; }\n"),
    "spf_workspace.h": (WORKSPACE_2, ""),
    "spf_rows.h": (WORKSPACE_2 + "#include \"spf_workspace.h\"\nstruct out;\n"
                   "void *adopt(struct out *, int64_t, int16_t *, double *, int64_t, int64_t *, int64_t *, int64_t *,"
                   " int);\nvoid *begin(struct out *, int64_t, const int64_t *const *, const int64_t *, const double *,"
                   " int64_t *, int, int);\n#define SPF_ROWS_POSITION 0\n#define SPF_ROWS_KEY int16_t\n"
                   "#define SPF_ROWS_OUTPUT struct out\n#define SPF_ROWS_ADOPT adopt\n#define SPF_ROWS_BEGIN begin\n"
                   "#define SPF_ROWS_FIRST_BAD 3\n#define SPF_ROWS_STATISTICS 9\n#define SPF_ROWS_OUT_OF_MEMORY 2\n"
                   "#define SPF_ROWS_UNSTORABLE 3\n", ""),
    "spf_builder.h": ("#include <stdint.h>\n" + BUILDER,
                      "static inline int b_compare(const b_handle *h, int64_t a, int64_t c, int from) {\n"
                      "  return from == 0 && h->key[0][a] != h->key[0][c] ? (h->key[0][a] < h->key[0][c] ? -1 : 1) : 0;"
                      "\n}\nstatic int b_check_rows(b_handle *h, struct out *T, int64_t *report, int *ordered) {\n"
                      "  (void)h; (void)T; (void)report; if (ordered) *ordered = 1; return 1;\n}\n"
                      "static int64_t b_rows_extent(struct out *T) { return T->rows; }\n"
                      "static void b_counts(struct out *T, int64_t *report) { T->nnz = report[0]; }\n"),
}


def run_compiler(arguments: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([*shlex.split(compiler()), *arguments], capture_output=True, text=True)


@pytest.fixture(scope="module")
def sanitizing(tmp_path_factory) -> list[str]:
    """The sanitizer flags, skipped with the reason when the compiler cannot build and run with them."""
    directory = tmp_path_factory.mktemp("probe")
    (directory / "probe.c").write_text("#include <stdlib.h>\nint main(void) { return 0; }\n")
    built = run_compiler([*SANITIZE, str(directory / "probe.c"), "-o", str(directory / "probe")])
    if built.returncode != 0 or subprocess.run([str(directory / "probe")]).returncode != 0:
        pytest.skip(f"the C compiler cannot build with {' '.join(SANITIZE)} (no sanitizer runtime?): "
                    f"{built.stderr[-500:]}")
    return SANITIZE


def test_every_file_has_a_compile_alone_case():
    assert sorted(ALONE) == sorted(path.name for path in runtime.files())


@pytest.mark.parametrize("native", [True, False], ids=["native", "generic"])
@pytest.mark.parametrize("openmp", [True, False], ids=["openmp", "serial"])
@pytest.mark.parametrize("name", sorted(ALONE))
def test_each_file_compiles_alone_without_warnings(name, openmp, native, tmp_path):
    """With -march=native as the kernels are built (the vector paths, where the machine has
    them: AVX-512 ranks, AVX2 marks) and without (the portable C)."""
    before, after = ALONE[name]
    source = tmp_path / "alone.c"
    source.write_text(f"{before}#include \"{name}\"\n{after}")
    result = run_compiler([*WARNINGS, *(["-fopenmp"] if openmp else []), *(["-march=native"] if native else []),
                           f"-I{runtime.DIRECTORY}", "-c",
                           str(source), "-o", str(tmp_path / "alone.o")])
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("monoid", ["spf_min_float64", "spf_lor_float64"])
@pytest.mark.parametrize("name", ["spf_workspace.h", "spf_rows.h", "spf_builder.h"])
def test_the_assembly_files_compile_alone_under_another_monoid(name, monoid, tmp_path):
    """A kernel under a semiring defines SPF_COMBINE before the assembly files (spf_combine.h):
    they combine by it and take a position's first value as it is, without warnings."""
    before, after = ALONE[name]
    source = tmp_path / "alone.c"
    source.write_text(f"#include \"spf_base.h\"\n#define SPF_COMBINE(a, b) {monoid}((a), (b))\n{before}"
                      f"#include \"{name}\"\n{after}")
    result = run_compiler([*WARNINGS, "-fopenmp", "-march=native", f"-I{runtime.DIRECTORY}", "-c", str(source),
                           "-o", str(tmp_path / "alone.o")])
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("native", [True, False], ids=["native", "generic"])
@pytest.mark.parametrize("openmp", [True, False], ids=["openmp", "serial"])
def test_the_entry_points_under_the_sanitizers(sanitizing, openmp, native, tmp_path):
    executable = tmp_path / "driver"
    built = run_compiler([*WARNINGS, *sanitizing, *(["-fopenmp"] if openmp else []),
                          *(["-march=native"] if native else []), f"-I{runtime.DIRECTORY}",
                          str(DRIVER), "-o", str(executable)])
    assert built.returncode == 0, built.stderr
    result = subprocess.run([str(executable)], capture_output=True, text=True, timeout=120,
                            env={"OMP_NUM_THREADS": "4", "ASAN_OPTIONS": "abort_on_error=1",
                                 "UBSAN_OPTIONS": "print_stacktrace=1"})
    assert "AddressSanitizer" not in result.stderr and "runtime error" not in result.stderr, result.stderr[-4000:]
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    assert result.stdout.splitlines() == PARTS


def test_the_files_ship_as_package_data():
    tomllib = pytest.importorskip("tomllib")
    settings = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "spf.codegen.c.runtime" in settings["packages"]
    patterns = settings["package-data"]["spf.codegen.c.runtime"]
    for path in runtime.files():
        assert any(path.match(pattern) for pattern in patterns), path.name


def test_a_changed_file_changes_every_library_key(tmp_path, monkeypatch):
    command = build.compiler_command()
    before = build._build_hash("int f(void) { return 0; }\n", build.CFLAGS, command)
    copy = tmp_path / "runtime"
    shutil.copytree(runtime.DIRECTORY, copy)
    monkeypatch.setattr(runtime, "DIRECTORY", copy)
    assert build._build_hash("int f(void) { return 0; }\n", build.CFLAGS, command) == before
    with open(copy / "spf_hash.h", "a") as file:
        file.write("/* changed */\n")
    assert build._build_hash("int f(void) { return 0; }\n", build.CFLAGS, command) != before


def test_the_kernel_cache_key_covers_the_files():
    assert set(runtime.files()) <= {path.resolve() for path in kernel_cache.source_files()}


def test_inline_makes_a_self_contained_source(tmp_path):
    source = runtime.inline(f'#include "spf_base.h"\n{STREAM_2}#include "spf_stream.h"\n#include "spf_base.h"\n'
                            "int main(void) { spf_stream s = {0}; spf_append_2(&s, 1, 2, 3.0);\n"
                            "  int ok = s.n == 1 && s.x[1][0] == 2; spf_stream_release(&s); return !ok; }\n")
    assert '#include "spf_' not in source
    assert source.count("#define SPF_BASE_H") == 1  # a guarded file once, where it is first included
    assert source.index("#define SPF_BASE_H") < source.index("#define SPF_STREAM_H")
    (tmp_path / "alone.c").write_text(source)
    built = run_compiler([*WARNINGS, str(tmp_path / "alone.c"), "-o", str(tmp_path / "alone")])  # no -I
    assert built.returncode == 0, built.stderr
    assert subprocess.run([str(tmp_path / "alone")]).returncode == 0


def test_generated_sources_include_the_files():
    kernel = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    for name in ("spf_base.h", "spf_hash.h", "spf_stream.h", "spf_workspace.h", "spf_rows.h", "spf_builder.h"):
        assert f'#include "{name}"' in kernel.c_source
    assert "spf_workspace_order(" not in kernel.c_source  # its definition is in the file, not the source


def test_a_generated_source_inlined_compiles_alone(tmp_path):
    kernel = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    source = runtime.inline(kernel.c_source)
    assert '#include "spf_' not in source
    assert source.count("#define SPF_BASE_H") == 1
    assert "static inline const int64_t *spf_workspace_order(spf_workspace *w)" in source
    (tmp_path / "kernel.c").write_text(source)
    result = run_compiler(["-fsyntax-only", "-fopenmp", str(tmp_path / "kernel.c")])
    assert result.returncode == 0, result.stderr

def test_spf_compile_writes_the_files_into_its_source(tmp_path):
    from spf.cli.commands import main

    assert main(["compile", "C(i,j) = A(i,k) * B(k,j)", "-l", "A=CSR", "-l", "B=CSR", "-l", "C=CSR",
                 "-o", str(tmp_path / "mm")]) == 0
    source = (tmp_path / "mm.c").read_text()
    assert '#include "spf_' not in source and "spf_workspace_flush_rows" in source
    # a user's build: the source alone, no include path of spf's
    result = run_compiler(["-O1", "-fopenmp", "-shared", "-fPIC", str(tmp_path / "mm.c"), "-o",
                           str(tmp_path / "libmine.so")])
    assert result.returncode == 0, result.stderr



TEAM_PROBE = '#include "spf_pieces.h"\nint team_for(long long work) { return spf_team_for(work); }\n'


@pytest.mark.parametrize("team_grain, teams", [(None, [1, 2, 2, 2]), (8192, [1, 1, 1, 2])])
def test_a_team_grain_set_when_compiling_decides_the_team_alone(openmp_threads, team_grain, teams):
    """SPF_TEAM_GRAIN, when compiled in, replaces the grain (the tests' SPF_PARALLEL_GRAIN=1, from
    the environment) in spf_team_for: benchmarks/thread_count.py builds the alternative to the
    chosen team so.  Work 1, 4096, 8192 and 10**6 units, 2 threads."""
    import ctypes
    assert os.environ.get("SPF_PARALLEL_GRAIN") == "1"  # tests/conftest.py
    flags = build.CFLAGS + ([f"-DSPF_TEAM_GRAIN={team_grain}"] if team_grain else [])
    library = build.build_shared_library(TEAM_PROBE, flags, name="team_probe")
    team_for = build.load_function(library, "team_for", [ctypes.c_longlong])
    assert [team_for(work) for work in (1, 4096, 8192, 10**6)] == teams
