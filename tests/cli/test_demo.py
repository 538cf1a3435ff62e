"""The demo (spf.cli.demo.run): every kernel checked on built-in and user input, clear errors,
failed checks reported; and the ``spf layouts`` / ``spf show`` commands."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sparse

import spf
import spf.layout_library
from spf.__main__ import main
from spf.cli import demo

KERNELS = ("SpMV", "SpMSpV", "SDDMM", "TTM")


def run_demo(*paths: str, layout: str | None = None, grid: int = 64) -> tuple[int, str]:
    stream = io.StringIO()
    code = demo.run(list(paths) or None, layout, grid, stream=stream)
    return code, stream.getvalue()


def rows(output: str) -> dict[str, list[str]]:
    """The table's rows by kernel name: each row split into its cells."""
    table = {}
    for line in output.splitlines():
        if line.split(" ", 1)[0] in KERNELS:
            table.setdefault(line.split(" ", 1)[0], []).append(line.split())
    return table


def test_default_demo_checks_every_kernel():
    code, out = run_demo()
    assert code == 0, out
    assert "matrix Laplacian 64x64: 4096 x 4096, 20224 nonzeros" in out
    assert "tensor random 64^3: 64 x 64 x 64" in out
    table = rows(out)
    assert sorted(table) == sorted(KERNELS)
    for kernel, lines in table.items():
        assert len(lines) == 1 and lines[0][-1] == "ok", lines
    assert "SpMSpV CSR x SV 1% (auto: " in out  # the find that auto chose
    assert "check failed" not in out


def test_demo_without_graphblas_says_not_installed(monkeypatch):
    monkeypatch.setattr(demo, "serial_graphblas", lambda: None)
    code, out = run_demo(grid=6)
    assert code == 0
    for lines in rows(out).values():
        assert "not installed" in " ".join(lines[0])
    assert "GraphBLAS: not installed" in out


def test_user_matrix_and_tensor(tmp_path):
    matrix = sparse.random(30, 40, density=0.1, random_state=np.random.default_rng(1), format="csr")
    scipy.io.mmwrite(tmp_path / "mine.mtx", matrix)
    coords = np.array([[1, 1, 1], [1, 2, 3], [2, 1, 2], [4, 3, 1], [4, 3, 5]])
    (tmp_path / "cube.tns").write_text("".join(f"{i} {j} {k} {v}\n" for (i, j, k), v
                                               in zip(coords, [1.5, -2.0, 0.25, 3.0, 1.0])))
    code, out = run_demo(str(tmp_path / "mine.mtx"), str(tmp_path / "cube.tns"))
    assert code == 0, out
    assert f"matrix mine: 30 x 40, {matrix.nnz} nonzeros" in out
    assert "tensor cube: 4 x 3 x 5, 5 nonzeros" in out
    table = rows(out)
    for kernel in ("SpMV", "SpMSpV", "SDDMM"):
        assert table[kernel][0][-1] == "ok" and "mine" in table[kernel][0]
        assert str(matrix.nnz) in table[kernel][0]
    assert table["TTM"][0][-1] == "ok" and "cube" in table["TTM"][0]


def test_only_a_matrix_runs_only_the_matrix_kernels(tmp_path):
    scipy.io.mmwrite(tmp_path / "small.mtx", demo.laplacian_2d(4))
    code, out = run_demo(str(tmp_path / "small.mtx"))
    assert code == 0 and sorted(rows(out)) == ["SDDMM", "SpMSpV", "SpMV"]


@pytest.mark.parametrize("layout", ["DCSR", "COO", "BCSR(R=2, C=2)"])
def test_spmv_in_another_layout(layout):
    code, out = run_demo(layout=layout, grid=8)
    assert code == 0
    assert any(line.startswith(f"SpMV {layout} ") and line.endswith("ok") for line in out.splitlines()), out


def test_spmv_with_a_layout_file(tmp_path):
    csr = Path(spf.layout_library.__file__).parent / "CSR.layout"
    path = tmp_path / "MYCSR.layout"
    path.write_text(csr.read_text().replace("layout CSR", "layout MYCSR"))
    code, out = run_demo(layout=str(path), grid=8)
    assert code == 0
    assert any(line.startswith("SpMV MYCSR") and line.endswith("ok") for line in out.splitlines()), out


@pytest.mark.parametrize("reference, failing", [
    ("matvec_scipy", {"SpMV", "SpMSpV"}),
    ("sddmm_scipy", {"SDDMM"}),
    ("ttm_scipy", {"TTM"}),
])
def test_a_failed_check_is_reported(monkeypatch, reference, failing):
    correct = getattr(demo, reference)
    monkeypatch.setattr(demo, reference, lambda *arguments: correct(*arguments) * 2)
    code, out = run_demo(grid=8)
    assert code == 1
    for kernel, lines in rows(out).items():
        assert lines[0][-1] == ("FAILED" if kernel in failing else "ok"), lines
    for kernel in failing:
        assert f"check failed: {kernel} " in out
    assert "max |spf - reference|" in out


@pytest.mark.parametrize("make, message", [
    (lambda d: str(d / "missing.mtx"), "missing.mtx: no such file"),
    (lambda d: write(d / "broken.mtx", "not a matrix\n"), "cannot read Matrix Market file"),
    (lambda d: write(d / "bad.tns", "1 1 x\n"), "bad.tns: not a number"),
    (lambda d: write(d / "four.tns", "1 1 1 1 2.0\n"), "TTM needs a 3-way tensor, this one has order 4"),
    (lambda d: write(d / "matrix.csv", "1,2\n"), "expected a Matrix Market (.mtx) or FROSTT (.tns) file"),
])
def test_bad_files_raise_spf_errors(tmp_path, make, message):
    path = make(tmp_path)
    with pytest.raises(spf.SpfError) as error:
        run_demo(path)
    assert message in str(error.value) and path in str(error.value)


def write(path, text: str) -> str:
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("layout, grid, message", [
    ("NOPE", 8, "unknown layout 'NOPE'"),
    ("SV", 8, "SpMV needs a matrix layout; layout SV has order 1"),
    (None, 0, "grid must be at least 1"),
])
def test_bad_options_raise_spf_errors(layout, grid, message):
    with pytest.raises(spf.SpfError) as error:
        run_demo(layout=layout, grid=grid)
    assert message in str(error.value)


# ----------------------------------------------------------------------------- spf layouts, spf show

def test_layouts_and_show(capsys):
    assert main(["layouts"]) == 0
    assert {"CSR", "WARP24"} <= set(capsys.readouterr().out.split())
    assert main(["show", "BCSR(R=2, C=3)"]) == 0
    out = capsys.readouterr().out
    assert "i = 2*pI + pii" in out and "periodic_monotonic(col, rowPtr" in out


def test_show_errors_are_one_clear_line(capsys, tmp_path):
    assert main(["show", "BCSR(R=0)"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("spf: error:") and "parameter R must be a positive integer" in err
    path = tmp_path / "Broken.layout"
    path.write_text("layout Broken\nfield n: int = shape[0]\nfield v: double[n]\nshape n\n"
                    "relation [p] -> [i] : 0 <= p < n and\n    i = p +\nvalues v[p]\n")
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:6:" in err and "Traceback" not in err
