"""The spf command and its demo: output on built-in and real input, one-line errors."""

from __future__ import annotations

import pytest

from spf.__main__ import main
from tests.conftest import matrix_path


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_demo_on_its_own_laplacian(capsys):
    code, out, err = run(capsys, "demo")
    assert code == 0 and err == ""
    assert "5-point Laplacian of a 8x8 grid: 64 x 64, 288 nonzeros" in out
    assert "to_coo() gives back the input exactly: yes" in out
    assert "A_colIdx(pAj)" in out and "they agree" in out


@pytest.mark.parametrize("layout", ["DCSR", "BCSR(R=2, C=2)", "BCSR(R=2, C=3)", "COO", "ELL", "DIA"])
def test_demo_with_other_layouts(capsys, layout):
    code, out, _ = run(capsys, "demo", "--grid", "5", "--layout", layout)
    assert code == 0
    assert "they agree" in out and "exactly: yes" in out


def test_demo_on_a_real_matrix(capsys):
    code, out, _ = run(capsys, "demo", str(matrix_path("west0479")), "-l", "DCSR")
    assert code == 0 and "479 x 479" in out and "they agree" in out


def test_layouts_and_show(capsys):
    code, out, _ = run(capsys, "layouts")
    assert code == 0 and "CSR" in out.split() and "WARP24" in out.split()
    code, out, _ = run(capsys, "show", "BCSR(R=2, C=3)")
    assert code == 0 and "i = 2*pI + pii" in out and "periodic_monotonic(col, rowPtr" in out


@pytest.mark.parametrize("arguments, message", [
    (["demo", "--layout", "NOPE"], "unknown layout 'NOPE'"),
    (["demo", "missing.mtx"], "cannot read Matrix Market file missing.mtx"),
    (["demo", "--layout", "SV"], "the demo packs a matrix"),
    (["demo", "--grid", "0"], "--grid must be at least 1"),
    (["show", "BCSR(R=0)"], "layout BCSR(R=0): parameter R must be a positive integer"),
    (["demo", "--layout", "WARP24"], "the pattern does not fit layout WARP24"),
])
def test_errors_are_one_clear_line(capsys, arguments, message):
    code, out, err = run(capsys, *arguments)
    assert code == 1
    assert err.startswith("spf: error:") and message in err
    assert "Traceback" not in err


def test_malformed_layout_file_reports_file_line_column(capsys, tmp_path):
    path = tmp_path / "Broken.layout"
    path.write_text("layout Broken\nfield n: int = shape[0]\nfield v: double[n]\nshape n\n"
                    "relation [p] -> [i] : 0 <= p < n and\n    i = p +\nvalues v[p]\n")
    code, _, err = run(capsys, "show", str(path))
    assert code == 1 and f"{path}:6:" in err
