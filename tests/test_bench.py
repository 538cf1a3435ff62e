"""spf.bench.run: report.md with a row per kernel and input, the machine, plots; failed
checks reported.  No timing is asserted (the machines are shared and noisy)."""

from __future__ import annotations

import pytest

from conftest import DATA, data_available
from spf import bench, demo

BUILT_IN_ROWS = [("SpMV CSR", "Laplacian 64x64"), ("SpMSpV CSR x SV 1% ", "Laplacian 64x64"),
                 ("SpMSpV CSR x SV 10% ", "Laplacian 64x64"), ("SDDMM CSR", "Laplacian 64x64"),
                 ("TTM CSF3", "random 64x64x64")]


def table_rows(report: str) -> list[list[str]]:
    """The cells of the markdown table's data rows."""
    lines = [line for line in report.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def find_row(rows: list[list[str]], kernel: str, input_: str) -> list[str]:
    matches = [row for row in rows if row[0].startswith(kernel) and row[1] == input_]
    assert len(matches) == 1, (kernel, input_, rows)
    return matches[0]


@pytest.fixture
def no_data(monkeypatch, tmp_path):
    monkeypatch.setenv("SPF_DATA", str(tmp_path / "no-data"))


def test_quick_report_has_a_row_per_kernel(no_data, tmp_path):
    output = tmp_path / "out"
    assert bench.run(quick=True, output=str(output)) == 0
    report = (output / "report.md").read_text()
    assert "## Machine" in report and "- cores: " in report and "- CPU: " in report
    assert "- C compiler: " in report and "- date: " in report
    assert "real inputs skipped" in report and "no-data" in report
    rows = table_rows(report)
    assert len(rows) == len(BUILT_IN_ROWS)
    for kernel, input_ in BUILT_IN_ROWS:
        row = find_row(rows, kernel, input_)
        assert row[-1] == "ok" and row[3].endswith("s")  # a time in us, ms or s


def test_plots_are_written(no_data, tmp_path):
    pytest.importorskip("matplotlib")
    assert bench.run(quick=True, output=str(tmp_path)) == 0
    report = (tmp_path / "report.md").read_text()
    expected = ["speedup-vs-scipy.png"] + (["speedup-vs-graphblas.png"] if demo.serial_graphblas() else [])
    for name in expected:
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG") and f"]({name})" in report


def test_a_failed_check_fails_the_run(no_data, tmp_path, monkeypatch):
    correct = demo.sddmm_scipy
    monkeypatch.setattr(demo, "sddmm_scipy", lambda *arguments: correct(*arguments) * 2)
    assert bench.run(quick=True, output=str(tmp_path)) == 1
    rows = table_rows((tmp_path / "report.md").read_text())
    assert find_row(rows, "SDDMM CSR", "Laplacian 64x64")[-1] == "FAILED"
    assert find_row(rows, "SpMV CSR", "Laplacian 64x64")[-1] == "ok"


def test_real_inputs_are_included_when_present(tmp_path):
    if not data_available():
        pytest.skip(f"real data not found at {DATA}")
    assert bench.run(quick=True, output=str(tmp_path)) == 0
    rows = table_rows((tmp_path / "report.md").read_text())
    for name in bench.QUICK["matrices"]:
        assert find_row(rows, "SDDMM CSR", name)[-1] == "ok"
    for name in bench.QUICK["tensors"]:
        assert find_row(rows, "TTM CSF3", name)[-1] == "ok"


def test_without_matplotlib_the_plots_are_skipped(no_data, tmp_path, monkeypatch, capsys):
    find_spec = bench.importlib.util.find_spec
    monkeypatch.setattr(bench.importlib.util, "find_spec",
                        lambda name, *rest: None if name == "matplotlib" else find_spec(name, *rest))
    assert bench.run(quick=True, output=str(tmp_path)) == 0
    assert "matplotlib is not installed" in capsys.readouterr().out
    assert not list(tmp_path.glob("*.png")) and "![" not in (tmp_path / "report.md").read_text()
