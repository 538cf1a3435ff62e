"""spf.cli.bench.run: report.md with a row per kernel and input, the machine, plots; failed
checks reported.  No timing is asserted (the machines are shared and noisy)."""

from __future__ import annotations

import pytest

from conftest import DATA, data_available
from spf.cli import bench, demo

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


# ----------------------------------------------------------------------------- benchmarks/suite.py

TINY_SUITE = dict(synthetic_rows=3000, synthetic_nnz=30000, triad_log2=12, rank=5, rounds=1, block=0.0,
                  big_rounds=1, contention_rounds=1, spmspv_columns=(100, 10_000), spmspv_rows=50, spmspv_nnz=500,
                  compile_processes=2)


@pytest.fixture
def suite(monkeypatch):
    """benchmarks/suite.py as a module (the scripts import their neighbours by name)."""
    from conftest import REPOSITORY
    monkeypatch.syspath_prepend(str(REPOSITORY / "benchmarks"))
    import suite as module
    return module


def tiny_matrices(suite) -> list:
    """Square and rectangular, with empty rows and columns, and a matrix with no entry."""
    import scipy.sparse as sp
    matrices = [("random 40x40", sp.random(40, 40, density=0.2, random_state=1)),
                ("random 30x70", sp.random(30, 70, density=0.1, random_state=2)),
                ("empty rows 50x20", sp.random(50, 20, density=0.02, random_state=3)),
                ("no entry 5x5", sp.csr_matrix((5, 5)))]
    return [(name, suite.as_csr(matrix)) for name, matrix in matrices]


def test_suite_runs_every_part_and_prints_each_figure(suite, capsys):
    """The quick mode's code path on tiny inputs: every result is checked inside; no timing is asserted."""
    run = suite.run_suite(suite.Config(**TINY_SUITE), tiny_matrices(suite), gb=demo.serial_graphblas())
    names = [figure.name for figure in run.figures]
    assert len(names) == 12 and len(set(names)) == 12
    for key in ("SpMV CSR, real matrices, 1 thread", "2 threads: reference loop", "fraction of the triad",
                "SpMV COO parallel=True", "SDDMM K=5", "beside a busy process", "SpMSpV find=hashmap",
                "k(A=tensor, x) / bound call", "k(A=scipy_csr, x) / scipy", "spf.einsum('ij,j->i', scipy_csr, x)",
                "compile warm in a new process",
                "compile repeated"):
        assert any(key in name for name in names), (key, names)
    assert all(figure.value > 0 for figure in run.figures)
    assert set(run.ratios["ref/spf 1t"]) == {name for name, _ in tiny_matrices(suite)}
    out = capsys.readouterr().out
    assert "acceptance figures of issue 12" in out
    for figure in run.figures:
        assert figure.name in out and "target" in out


@pytest.mark.parametrize("expected", ["expected_sddmm", "expected_spmv"])
def test_suite_stops_at_a_wrong_result(suite, monkeypatch, expected):
    correct = getattr(suite, expected)
    monkeypatch.setattr(suite, expected, lambda *arguments: correct(*arguments) * 2 + 1)
    with pytest.raises(AssertionError, match="differs from the reference"):
        suite.run_suite(suite.Config(**TINY_SUITE), tiny_matrices(suite))


# ----------------------------------------------------------------------------- benchmarks/group_order.py

def test_group_order_policies_each_order_every_group(monkeypatch):
    """Every policy benchmarks/group_order.py times (the workspace's choice among them) puts
    every group of A·Aᵀ strictly in order, on rows of 1 to ~300 keys touched in scrambled
    order, dense and spread; policy_costs stops the run on a group left out of order.
    The times are not asserted."""
    from conftest import REPOSITORY
    import scipy.sparse as sp
    monkeypatch.syspath_prepend(str(REPOSITORY / "benchmarks"))
    import group_order
    time_policy, _ = group_order.library()
    for seed, (rows, columns, density) in enumerate([(300, 400, 0.03), (200, 50_000, 0.002), (60, 2000, 0.05)]):
        A = sp.random(rows, columns, density=density, format="csr", random_state=seed)
        times, entries = group_order.policy_costs(time_policy, A, rounds=1)
        assert entries == (A @ A.T).nnz
        assert times["choice"] is not None and times["as touched"] is not None
