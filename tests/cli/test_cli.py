"""The ``spf`` command: help, compile, explain, the bench and demo wiring, one-line errors."""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys
import types

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from conftest import documented_finds
from spf.__main__ import main

SPMV = "y(i) = A(i,j) * x(j)"
SPMV_DENSE = [SPMV, "-l", "A=CSR", "-l", "x=Dense", "-l", "y=Dense"]
SPMSPV = [SPMV, "-l", "A=CSR", "-l", "x=SV", "-l", "y=Dense"]


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_error_line(code: int, out: str, err: str, message: str) -> None:
    """Non-zero status, nothing on stdout, one ``spf: error:`` line first, no traceback."""
    assert code != 0
    assert out == ""
    lines = err.splitlines()
    assert lines and lines[0].startswith("spf: error: ")
    assert sum(line.startswith("spf: error:") for line in lines) == 1
    assert all(line.startswith("  ") for line in lines[1:]), err
    assert message in err, err
    assert "Traceback" not in err


# ----------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", [[], ["compile"], ["explain"], ["bench"], ["demo"], ["layouts"], ["show"]])
def test_every_command_has_help(capsys, command):
    with pytest.raises(SystemExit) as exit_:
        main([*command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: spf {' '.join(command)}".rstrip())


def test_compile_help_names_the_options_and_the_abi(capsys):
    with pytest.raises(SystemExit):
        main(["compile", "--help"])
    out = capsys.readouterr().out
    assert set(re.search(r"--find \{([a-z,]+)\}", out).group(1).split(",")) == set(documented_finds())
    for option in ["-l TENSOR=LAYOUT", "--parallel",
                   "--share OUTPUT=INPUT", "--order V1,V2,...", "--autoschedule", "-o DIR/NAME",
                   "docs/c-abi.md"]:
        assert option in out, option


# ----------------------------------------------------------------------------- compile and explain


def test_compile_writes_source_header_and_library(capsys, tmp_path):
    target = tmp_path / "new" / "dir" / "spmv"
    code, out, err = run(capsys, "compile", *SPMV_DENSE, "-o", str(target))
    assert (code, err) == (0, "")
    files = [target.with_name("spmv.c"), target.with_name("spmv.h"), target.with_name("libspmv.so")]
    assert out.splitlines() == [f"wrote {path}" for path in files]
    header = files[1].read_text()
    assert header.startswith("#ifndef SPF_SPMV_H\n")
    assert "int spmv(struct spf_CSR *A, struct spf_Dense1 *x, struct spf_Dense1 *y);" in header
    assert "struct spf_CSR\n{\n  int numRows;\n  int numCols;\n  int nnz;\n  int *rowPtr;" in header
    assert "int spmv(struct spf_CSR *A" in files[0].read_text()
    assert hasattr(ctypes.CDLL(str(files[2])), "spmv")


def test_compile_exports_every_find_variant(capsys, tmp_path):
    code, _, _ = run(capsys, "compile", *SPMSPV, "-o", str(tmp_path / "spmspv"))
    assert code == 0
    header = (tmp_path / "spmspv.h").read_text()
    variants = re.findall(r"^int (spf_kernel_\w+)\(", header, re.MULTILINE)
    assert len(variants) >= 2  # seqiter, hashmap and binary search are all proven for a sorted x
    assert f"spmspv calls the statically preferred variant, {variants[0]}" in header
    for variant in variants[1:]:
        assert f" *   {variant}: find px: " in header
    library = ctypes.CDLL(str(tmp_path / "libspmspv.so"))
    for function in ["spmspv", *variants]:
        assert hasattr(library, function), function


def test_explain_prints_space_loop_nest_and_finds(capsys):
    code, out, err = run(capsys, "explain", *SPMSPV)
    assert (code, err) == (0, "")
    assert "A_colIdx(pAj)" in out and "loop nest:" in out
    assert "find px where x_idx(px) == A_colIdx(pAj): seqiter" in out
    assert "rejected direct:" in out
    assert "int spf_kernel_" not in out
    code, out, _ = run(capsys, "explain", *SPMSPV, "--c")
    assert code == 0 and "int spf_kernel_" in out and "#include <stdint.h>" in out


@pytest.mark.parametrize("options, expected", [
    (["--find", "binary"], "find px where x_idx(px) == A_colIdx(pAj): binary search"),
    (["--find", "hashmap"], "find px where x_idx(px) == A_colIdx(pAj): hashmap"),
    (["--parallel"], "loop pAi: no two iterations update the same element of y(i)"),
])
def test_explain_follows_the_options(capsys, options, expected):
    code, out, _ = run(capsys, "explain", *SPMSPV, *options)
    assert code == 0 and expected in out


def test_explain_with_loop_order_and_share(capsys):
    code, out, _ = run(capsys, "explain", SPMV, "-l", "A=CSC", "-l", "x=SV", "-l", "y=Dense",
                       "--order", "px, j, pAj, pAi, i, py0")
    assert code == 0 and "order: px, j, pAj, pAi, i, py0" in out
    code, out, _ = run(capsys, "explain", "A(i,j) = B(i,j) * C(i,k) * D(k,j)", "-l", "A=CSR", "-l", "B=CSR",
                       "-l", "C=Dense", "-l", "D=Dense", "--share", "A=B")
    assert code == 0 and "A: CSR (shares the index arrays of B's first 2 level(s), written at its positions)" in out
    assert "pAj = pBj" in out
    by_name = str(Path(__file__).resolve().parents[1] / "data" / "CSR_BY_NAME.layout")
    code, out, _ = run(capsys, "explain", "A(i,j) = B(i,j) * C(i,k) * D(k,j)", "-l", f"A={by_name}", "-l", "B=CSR",
                       "-l", "C=Dense", "-l", "D=Dense", "--share", "A=B", "--find", "direct")
    assert code == 0 and "find pAj where B_colIdx(pAj) == B_colIdx(pBj): direct" in out


K1 = ("A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)", "-l", "A=Dense", "-l", "B=CSR", "-l", "C=Dense",
      "-l", "D=Dense", "-l", "E=Dense")


def test_autoschedule_compiles_the_fused_schedule(capsys):
    code, out, _ = run(capsys, "explain", *K1, "--autoschedule")
    assert code == 0
    assert "schedule: i, j < T_CD() ; k : T_CD() += C(i,k) * D(j,k) , l : A(i,l) += T_CD() * B(i,j) * E(j,l) >" in out


def _k1_samples(folder: Path, rows: int = 30, d: int = 4) -> list[str]:
    """Sample files of K1's inputs: B as Matrix Market, the dense ones as .npy."""
    import scipy.io
    scipy.io.mmwrite(str(folder / "B.mtx"), sp.random(rows, rows, density=0.1, format="coo", random_state=1))
    rng = np.random.default_rng(2)
    arguments = ["--sample", f"B={folder / 'B.mtx'}"]
    for name in "CDE":
        np.save(folder / f"{name}.npy", rng.random((rows, d)))
        arguments += ["--sample", f"{name}={folder / f'{name}.npy'}"]
    return arguments


def test_autoschedule_chooses_for_samples_of_the_inputs(capsys, tmp_path):
    samples = _k1_samples(tmp_path)
    code, out, _ = run(capsys, "explain", *K1, "--autoschedule", *samples)
    assert code == 0 and "schedule: " in out
    code, out, _ = run(capsys, "compile", *K1, "--autoschedule", *samples, "-o", f"{tmp_path}/k1")
    assert code == 0 and (tmp_path / "k1.h").exists()


@pytest.mark.parametrize("change, message", [
    (lambda a: [x for x in a if not x.startswith("E=")][:-1], "no sample for E"),
    (lambda a: a + ["--sample", "Z=z.npy"], "Z is not an input of the expression"),
    (lambda a: [x.replace("B.mtx", "missing.mtx") for x in a], "no such file"),
    (lambda a: [x.replace("C.npy", "B.mtx") if x.startswith("C=") else x for x in a], "index k has extent 30"),
])
def test_bad_samples_are_one_error_line(capsys, tmp_path, change, message):
    samples = change(_k1_samples(tmp_path))
    code, out, err = run(capsys, "explain", *K1, "--autoschedule", *samples)
    assert_one_error_line(code, out, err, message)


def test_samples_need_the_autoscheduler(capsys, tmp_path):
    code, out, err = run(capsys, "explain", *K1, *_k1_samples(tmp_path))
    assert_one_error_line(code, out, err, "give --autoschedule too")


def test_autoschedule_refuses_an_unsupported_layout(capsys):
    code, out, err = run(capsys, "explain", "y(i) = A(i,j) * x(j)", "-l", "A=COO", "-l", "x=Dense",
                         "-l", "y=Dense", "--autoschedule")
    assert_one_error_line(code, out, err, "tensor A in layout COO")


PULL = ("y(j) = A(i,j) * q(i)", "-l", "A=CSC", "-l", "q=Dense1", "-l", "v=Dense1", "-l", "y=Dense1")


def test_semiring_and_mask_reach_the_kernel(capsys, tmp_path):
    code, out, _ = run(capsys, "explain", *PULL, "--semiring", "lor_land", "--mask", "~v")
    assert code == 0
    assert "mask ~v: the output is computed only at the positions without v's nonzero values" in out
    assert "semiring: lor_land" in out and "v: Mask1" in out
    code, out, _ = run(capsys, "compile", *PULL, "--semiring", "lor_land", "--mask", "~v", "-o", f"{tmp_path}/bfs")
    assert code == 0 and "struct spf_Mask1" in (tmp_path / "bfs.h").read_text()


# ----------------------------------------------------------------------------- bench and demo


def test_bench_calls_spf_bench_run(capsys, monkeypatch):
    calls = []
    bench = types.SimpleNamespace(run=lambda quick, output: calls.append((quick, output)) or 3)
    monkeypatch.setitem(sys.modules, "spf.cli.bench", bench)
    assert main(["bench"]) == 3
    assert main(["bench", "--full", "--output", "results"]) == 3
    assert calls == [(True, None), (False, "results")]


def test_demo_passes_files_layout_and_grid(monkeypatch):
    calls = []
    monkeypatch.setattr("spf.cli.demo.run", lambda *arguments, **options: calls.append((arguments, options)) or 0)
    assert main(["demo"]) == 0
    assert main(["demo", "a.mtx", "b.tns", "-l", "DCSR", "--grid", "5"]) == 0
    assert calls == [((None, None), {}), ((["a.mtx", "b.tns"], "DCSR"), {"grid": 5})]


# ----------------------------------------------------------------------------- errors


def _broken_layout(tmp_path) -> str:
    path = tmp_path / "Broken.layout"
    path.write_text("layout Broken\nfield n: int = shape[0]\nfield v: double[n]\nshape n\n"
                    "relation [p] -> [i] : 0 <= p < n and\n    i = p +\nvalues v[p]\n")
    return str(path)


ERRORS = [
    (["explain", "y(i) = A(i,j) *", "-l", "A=CSR"], 1, "spf: error: expression: column 16: expected a tensor"),
    (["explain", SPMV, "-l", "A=NOPE", "-l", "x=Dense", "-l", "y=Dense"], 1, "unknown layout 'NOPE'"),
    (["explain", SPMV, "-l", "A=missing/CSR9.layout", "-l", "x=Dense", "-l", "y=Dense"], 1,
     "no layout file at 'missing/CSR9.layout'"),
    (["explain", SPMV, "-l", "A={broken}", "-l", "x=Dense", "-l", "y=Dense"], 1, "Broken.layout:6:"),
    (["explain", SPMV, "-l", "A=CSR", "-l", "y=Dense"], 1, "no layout given for tensor x"),
    (["explain", SPMV, "-l", "CSR"], 2, "-l 'CSR': no '='; expected TENSOR=LAYOUT"),
    (["explain", SPMV, "-l", "=CSR"], 2, "-l '=CSR': nothing before '='"),
    (["explain", SPMV, "-l", "A="], 2, "-l 'A=': nothing after '='"),
    (["explain", SPMV, "-l", "A=CSR", "-l", "A=CSC"], 2, "-l 'A=CSC': tensor A is already given (A=CSR)"),
    (["explain", *SPMV_DENSE, "--share", "A"], 2, "--share 'A': no '='; expected OUTPUT=INPUT"),
    (["explain", *SPMV_DENSE, "--find", "fastest"], 2, "argument --find: invalid choice: 'fastest'"),
    (["explain", SPMV, "-l", "A=CSR", "-l", "x=SV_UNSORTED", "-l", "y=Dense", "--find", "seqiter"], 1,
     "seqiter: x_idx is not proven strictly monotonic"),
    (["explain", SPMV, "-l", "A=CSR", "-l", "x=SV", "-l", "y=Dense", "--find", "direct"], 1,
     "find='direct' is not valid for x_idx(px) == A_colIdx(pAj) (find over px): direct: the key is not"),
    (["explain", *SPMV_DENSE, "--order", "pAi,,i"], 2, "--order 'pAi,,i': empty variable name"),
    (["explain", *SPMV_DENSE, "--semiring", "min_plux"], 1, "unknown semiring 'min_plux'"),
    (["explain", *SPMV_DENSE, "--mask", "~"], 1, "mask='~': expected a tensor name"),
    (["explain", *SPMV_DENSE, "--order", "i,pAi"], 1, "a loop order must list each of"),
    (["compile", *SPMV_DENSE], 2, "the following arguments are required: -o/--output"),
    (["compile", *SPMV_DENSE, "-o", "{tmp}/my-lib"], 2, "NAME must be a C identifier"),
    (["compile", *SPMV_DENSE, "-o", "{file}/sub/spmv"], 1, "cannot write"),
    (["show", "NOPE"], 1, "unknown layout 'NOPE'"),
    (["demo", "{tmp}/missing.mtx"], 1, "missing.mtx"),
    (["frobnicate"], 2, "argument COMMAND: invalid choice: 'frobnicate'"),
    ([], 2, "the following arguments are required: COMMAND"),
]


@pytest.mark.parametrize("arguments, status, message", ERRORS)
def test_errors_are_one_clear_line(capsys, tmp_path, arguments, status, message):
    regular_file = tmp_path / "a_file"  # a directory cannot be made inside it
    regular_file.write_text("")
    paths = {"broken": _broken_layout(tmp_path), "tmp": tmp_path, "file": regular_file}
    arguments = [argument.format(**paths) for argument in arguments]
    code, out, err = run(capsys, *arguments)
    assert code == status
    assert_one_error_line(code, out, err, message)


def test_a_malformed_expression_shows_a_caret(capsys):
    _, _, err = run(capsys, "explain", "y(i) = A(i,j) *", "-l", "A=CSR")
    assert err.splitlines()[1:] == ["    y(i) = A(i,j) *", "                   ^"]


@pytest.mark.parametrize("compiler, message", [("false", "C compilation of"),
                                               ("/nonexistent/cc", "C compiler '/nonexistent/cc' not found")])
def test_compiler_failures_are_one_line(capsys, tmp_path, monkeypatch, compiler, message):
    monkeypatch.setenv("CC", compiler)
    code, out, err = run(capsys, "compile", *SPMV_DENSE, "-o", str(tmp_path / "spmv"))
    assert_one_error_line(code, out, err, message)
    assert not (tmp_path / "libspmv.so").exists()


def test_missing_bench_module_is_one_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "spf.cli.bench", None)  # import spf.cli.bench now fails
    code, out, err = run(capsys, "bench")
    assert_one_error_line(code, out, err, "the benchmarks are not available in this build")


def test_os_errors_name_the_path(capsys, monkeypatch):
    def refuse(quick, output):
        raise PermissionError(13, "Permission denied", output)

    monkeypatch.setitem(sys.modules, "spf.cli.bench", types.SimpleNamespace(run=refuse))
    code, out, err = run(capsys, "bench", "--output", "/results")
    assert_one_error_line(code, out, err, "spf: error: /results: Permission denied")


def test_python_m_spf_reports_errors_without_traceback():
    result = subprocess.run([sys.executable, "-m", "spf", "explain", SPMV, "-l", "A=CSR", "-l", "x=NOPE",
                             "-l", "y=Dense"],
                            capture_output=True, text=True)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("spf: error: unknown layout 'NOPE'") and "Traceback" not in result.stderr
