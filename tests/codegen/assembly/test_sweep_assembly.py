"""tests/codegen/assembly/sweep_assembly.py (the by-hand sweep of assembled outputs over the real data) kept
from rotting: every check it makes on two small matrices and a small tensor passes,
a wrong result, a result that breaks its layout's properties, and a dropped entry in a
conversion are each reported as a FAIL with exit status 1; --sanitize runs in a child."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import spf
import sweep_assembly as sweep
from conftest import data_available


@pytest.fixture(autouse=True)
def real_data():
    if not data_available() or not (sweep.DATA / "MANIFEST.tsv").exists():
        pytest.skip(f"real data not found at {sweep.DATA}")


def test_every_check_passes_on_small_matrices_and_a_tensor(capsys):
    assert sweep.main(["--only", "^(karate|lp_afiro|nations)$"]) == 0
    out = capsys.readouterr().out
    # products, sums, transpose; per layout a pack and conversions into the others and CSR_UNSORTED
    per_matrix = 8 + 3 + 1 + len(sweep.MATRIX_LAYOUTS) * (1 + len(sweep.MATRIX_LAYOUTS))
    per_tensor = 2 + 2 + 6 * 4 + 1  # pack, convert, 6 mode orders x 4 layout pairs, TTM
    assert f"summary: {2 * per_matrix + per_tensor} checks on 3 data sets: {2 * per_matrix + per_tensor - 4} OK, " \
           "0 FAIL, 4 SKIP" in out
    assert "lp_afiro: A is 27x51, not square  x4" in out
    assert "nations                    TTM into CSF3_DENSE_LAST" in out


def corrupted(tensor, fields: dict):
    """``tensor`` with some fields replaced, unchecked (as a faulty kernel could return it)."""
    return spf.Tensor._from_checked(tensor.layout, tensor.shape, {**dict(tensor.fields), **fields}, tensor.name)


def test_wrong_values_missing_entries_and_broken_properties_fail():
    matrix = sp.csr_matrix(np.array([[1.0, 0, 2.0], [0, 0, 3.0], [4.0, 5.0, 0]]))
    good = spf.pack("CSR", matrix)
    want = sweep.scipy_entries(matrix, zeros=False)
    assert sweep.compare(good, want, (3, 3)) == "5 entries"
    cases = {
        "values: 1 of 5": corrupted(good, {"data": np.array([1.0, 2.0, 3.0, 4.0, 5.0 + 1e-9])}),
        "pattern: 5 entries, expected 5; 1 only in spf .first .1, 1. = 3.0": corrupted(
            good, {"colIdx": np.array([0, 2, 1, 0, 1], dtype=good.fields["colIdx"].dtype)}),
        "colIdx": corrupted(good, {"colIdx": np.array([2, 0, 2, 0, 1], dtype=good.fields["colIdx"].dtype),
                                   "data": np.array([2.0, 1.0, 3.0, 4.0, 5.0])}),  # right entries, row 0 unsorted
    }
    for message, tensor in cases.items():
        record = sweep.run_check(sweep.Check("m", "c", "", lambda tensor=tensor: sweep.compare(tensor, want, (3, 3))))
        assert record.status == "FAIL"
        assert __import__("re").search(message, record.detail), record.detail


def test_a_conversion_that_drops_an_entry_makes_the_sweep_fail(monkeypatch, capsys):
    convert = spf.convert

    def dropping(tensor, layout, name=None):
        coords, values, shape = convert(tensor, layout).to_coo()
        return spf.pack(layout, (coords[:-1], values[:-1], shape))

    monkeypatch.setattr(sweep.spf, "convert", dropping)
    assert sweep.main(["--only", "^karate$", "--check", r"^convert CSR -> (CSC|DIA)$"]) == 1
    out = capsys.readouterr().out
    assert "summary: 2 checks on 1 data sets: 0 OK, 2 FAIL, 0 SKIP" in out
    assert "reproduce: spf.convert(spf.pack('CSR', karate), 'CSC')" in out
    assert "155 entries, expected 156; 0 only in spf, 1 only in the reference (first (33, 32) = 1.0)" in out


def test_sanitized_checks_run_in_a_child(capsys):
    """--sanitize: the checks run in a child that preloads the sanitizer runtimes; its
    records reach the parent's lines and summary."""
    from spf.codegen.toolchain.compiler import sanitizer_environment
    try:
        sanitizer_environment()
    except spf.SpfError as error:
        pytest.skip(f"no sanitizer runtime: {error}")
    assert sweep.main(["--sanitize", "--only", "^karate$", "--check", r"^(pack CSR|convert CSR -> CSC)$"]) == 0
    out = capsys.readouterr().out
    assert "sanitizers: on" in out
    assert "summary: 2 checks on 1 data sets: 2 OK, 0 FAIL, 0 SKIP" in out
    assert "karate                     convert CSR -> CSC" in out
