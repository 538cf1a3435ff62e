"""The short call path in C (spf.runtime.short_call): the calls it takes give the Python
plan's results, the ones it does not take reach the Python plan, and it never crashes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from spf.runtime import fast_call, short_call
from permuted_layouts import permuted_layout_file  # tests/ is on the path (pytest's rootdir)

pytestmark = pytest.mark.skipif(short_call.unavailable() != "" and "SPF_SHORT_CALL" in short_call.unavailable()
                                or "development headers" in short_call.unavailable(),
                                reason=f"the C short call path is not used here: {short_call.unavailable()}")

SPMV = "y(i) = A(i,j) * x(j)"
@pytest.fixture
def python_plan_runs(monkeypatch):
    """The calls that reached the Python plan (the C path answered None)."""
    reached = []
    run = fast_call.CallPlan.run

    def counting(self, function, values):
        reached.append(sorted(values))
        return run(self, function, values)
    monkeypatch.setattr(fast_call.CallPlan, "run", counting)
    return reached


def test_the_extension_is_built_and_used():
    assert short_call.unavailable() == ""
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    assert type(k._short_call).__name__ == "ShortCall"


def test_tensors_and_arrays_are_served_in_c(python_plan_runs):
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    A = sp.random(300, 200, density=0.05, format="csr", random_state=1)
    T, x = spf.pack("CSR", A), np.random.default_rng(2).random(200)
    results = [k(A=T, x=x) for _ in range(3)]
    for y in results:
        np.testing.assert_allclose(y, A @ x, rtol=1e-13)
    assert results[1] is not results[2]
    assert python_plan_runs == [["A", "x"]]  # the first call makes the struct the Tensor keeps


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_], ids=lambda t: np.dtype(t).name)
def test_other_value_types_are_served_in_c(python_plan_runs, dtype):
    """A generic kernel called with float32 (int64, bool) data runs its specialisation, whose
    C path takes those arrays: after the first calls, the Python plan is not reached."""
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    A = (sp.random(300, 200, density=0.05, format="csr", random_state=1) * 10).astype(dtype)
    T, x = spf.pack("CSR", A), (np.random.default_rng(2).random(200) * 10).astype(dtype)
    results = [k(A=T, x=x) for _ in range(4)]
    for y in results:
        assert y.dtype == np.dtype(dtype)
        np.testing.assert_allclose(y.astype(np.float64), (A @ x).astype(np.float64), rtol=1e-5)
    reached = len(python_plan_runs)
    k(A=T, x=x)
    assert len(python_plan_runs) == reached  # served in C
    np.testing.assert_allclose(k(A=T, x=x.astype(np.float64)), A.astype(np.float64) @ x.astype(np.float64),
                               rtol=1e-5)  # float64 x: another kernel, float64 y


@pytest.mark.parametrize("first", ["int", "int64"])
def test_structs_with_fields_in_another_order(tmp_path, python_plan_runs, first):
    """Extents written at their own offsets and widths, padding before the pointer."""
    path = permuted_layout_file(tmp_path, f"Permuted{first}", first)
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"C": str(path), "A": "CSR", "B": str(path)})
    A = sp.random(7, 5, density=0.4, format="csr", random_state=3)
    B = np.random.default_rng(4).random((5, 3))
    T = spf.pack("CSR", A)
    for _ in range(2):
        np.testing.assert_allclose(k(A=T, B=B), A @ B, rtol=1e-13)
    assert len(python_plan_runs) == 1


@pytest.mark.parametrize("rank", [5, 16, 32, 64])
def test_mttkrp_with_each_specialised_rank(python_plan_runs, rank):
    k = spf.compile("A(i,r) = B(i,j,k) * C(j,r) * D(k,r)", {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"})
    rng = np.random.default_rng(rank)
    dense = rng.random((6, 7, 8)) * (rng.random((6, 7, 8)) < 0.2)
    C, D = rng.random((7, rank)), rng.random((8, rank))
    B = spf.pack("CSF3", dense)
    expected = np.einsum("ijk,jr,kr->ir", dense, C, D)
    np.testing.assert_allclose(k(B=B, C=C, D=D), expected, rtol=1e-12)
    python_plan_runs.clear()  # the first call may take the Python plan (layouts loaded from the cache compared once)
    for _ in range(2):
        np.testing.assert_allclose(k(B=B, C=C, D=D), expected, rtol=1e-12)
    assert python_plan_runs == []


@pytest.mark.parametrize("x", [
    np.arange(20.0, dtype=np.float32),  # another dtype
    np.arange(40.0)[::2],  # not contiguous
    np.arange(20.0).astype(np.dtype(">f8")),  # float64 of the other byte order
    np.arange(20.0).reshape(20, 1),  # another order
    np.arange(20),  # integers
    [float(v) for v in range(20)],  # a list
], ids=["float32", "strided", "big-endian", "2-d", "int", "list"])
def test_other_arrays_reach_the_python_plan(python_plan_runs, x):
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    A = sp.random(30, 20, density=0.3, format="csr", random_state=5)
    try:
        expected = A @ np.asarray(x, dtype=np.float64).reshape(20)
    except ValueError:
        expected = None
    if np.ndim(x) == 2:
        with pytest.raises(spf.SpfError):
            k(A=spf.pack("CSR", A), x=x)
    else:
        np.testing.assert_allclose(k(A=spf.pack("CSR", A), x=x), expected, rtol=1e-6)
    assert len(python_plan_runs) == 1


def test_a_fortran_ordered_output_shape_is_the_c_ordered_array(python_plan_runs):
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"C": "Dense", "A": "CSR", "B": "Dense"})
    A = sp.random(9, 4, density=0.5, format="csr", random_state=6)
    B = np.asfortranarray(np.random.default_rng(7).random((4, 6)))
    np.testing.assert_allclose(k(A=spf.pack("CSR", A), B=B), A @ B, rtol=1e-13)
    assert len(python_plan_runs) == 1  # Fortran order: read by the long way


def test_a_tensor_without_its_kept_struct_reaches_the_python_plan(python_plan_runs):
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    A = sp.random(30, 20, density=0.3, format="csr", random_state=8)
    T = spf.pack("CSR", A)
    T._structs.clear()
    np.testing.assert_allclose(k(A=T, x=np.ones(20)), A @ np.ones(20), rtol=1e-13)
    assert len(python_plan_runs) == 1


def test_other_calls_get_the_long_paths_errors_and_results():
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    T = spf.pack("CSR", sp.random(30, 20, density=0.2, format="csr", random_state=6))
    with pytest.raises(spf.SpfError, match="index j has extent"):
        k(A=T, x=np.ones(21))
    with pytest.raises(spf.SpfError, match=r"unknown argument\(s\) \['y'\] \(y is the output"):
        k(A=T, y=np.ones(20))  # as many arguments as inputs, one of them not an input
    with pytest.raises(spf.SpfError, match="unknown argument"):
        k(A=T, x=np.ones(20), z=np.ones(3))
    np.testing.assert_allclose(k(A=np.ones((30, 20)), x=np.ones(20)), np.full(30, 20.0))  # packed the long way


def test_calls_from_two_threads_at_once():
    """The extension lets go of the GIL while the kernel runs: calls from two threads, each
    with its own inputs, get their own results."""
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    matrices = [sp.random(400, 300, density=0.05, format="csr", random_state=seed) for seed in (9, 10)]
    tensors = [spf.pack("CSR", A) for A in matrices]
    vectors = [np.random.default_rng(seed).random(300) for seed in (11, 12)]
    wrong = []

    def work(which: int) -> None:
        expected = matrices[which] @ vectors[which]
        for _ in range(300):
            if not np.allclose(k(A=tensors[which], x=vectors[which]), expected, rtol=1e-13):
                wrong.append(which)
    threads = [threading.Thread(target=work, args=(which,)) for which in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []


@pytest.mark.parametrize("arguments", [
    (1, object, ((),), (), (), 0, False, 1 << 20, (16, 0, ()), 12, 8),  # an input that is not a 7-tuple
    (1, object, (), (), ((0, 0),), 0, False, 1 << 20, (16, 0, ()), 12, 8),  # an output extent of no input
    (1, object, (), ((0, 0, 0, 0),), (), 0, False, 1 << 20, (16, 0, ()), 12, 8),  # a pair of no input
    (1, object, (), (), (), 2, False, 1 << 20, (16, 0, ()), 12, 8),  # the output's position past the end
    (1, object, (), (), (), 0, False, 1 << 20, (16, 12, ()), 12, 8),  # the pointer past the struct
    (1, object, (), (), (), 0, False, 1 << 20, (16, 0, ((8, 2, 0),)), 12, 8),  # a 2-byte extent
    (1, object, (), (), (), 0, False, 1 << 20, (4096, 0, ()), 12, 8),  # a struct larger than it writes
    (1, object, tuple(("x", None, {}, "D", 1, None, 12) for _ in range(10)), (), (), 0, False, 1 << 20,
     (16, 0, ()), 12, 8),
    (1, object, (("x", None, {}, "D", 1, None, -5),), (), (), 0, False, 1 << 20, (16, 0, ()), 12, 8),
], ids=["input", "output-extent", "pair", "position", "pointer", "width", "size", "too-many", "value-type"])
def test_a_plan_it_cannot_hold_is_refused_at_construction(arguments):
    with pytest.raises((ValueError, TypeError)):
        short_call._load().ShortCall(*arguments)


def test_it_takes_the_call_s_arguments_as_one_dict():
    k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    with pytest.raises(TypeError, match="one dict"):
        k._short_call(A=1, x=2)


def test_spf_short_call_python_turns_it_off(tmp_path):
    script = ("import numpy as np, scipy.sparse as sp, spf\n"
              "from spf.runtime import short_call\n"
              "k = spf.compile('y(i) = A(i,j) * x(j)', {'y': 'Dense', 'A': 'CSR', 'x': 'Dense'})\n"
              "A = sp.random(20, 10, density=0.3, format='csr', random_state=1)\n"
              "assert np.allclose(k(A=spf.pack('CSR', A), x=np.ones(10)), A @ np.ones(10))\n"
              "print(k._short_call, short_call.unavailable())\n")
    environment = {**os.environ, "SPF_SHORT_CALL": "python"}
    done = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None SPF_SHORT_CALL=python"


def test_an_extension_that_does_not_build_is_named_once_and_calls_still_run(monkeypatch):
    def failing(*arguments, **options):
        raise spf.SpfError("cc: fatal error: Python.h: No such file or directory")
    monkeypatch.setattr(short_call._Loaded, "tried", False)
    monkeypatch.setattr(short_call._Loaded, "module", None)
    monkeypatch.setattr(short_call, "build_shared_library", failing)
    with pytest.warns(spf.ShortCallWarning, match="Python path.*Python.h"):
        k = spf.compile(SPMV, {"y": "Dense", "A": "CSR", "x": "Dense"})
    assert k._short_call is None and "could not be built" in short_call.unavailable()
    A = sp.random(20, 10, density=0.3, format="csr", random_state=1)
    np.testing.assert_allclose(k(A=spf.pack("CSR", A), x=np.ones(10)), A @ np.ones(10), rtol=1e-13)
