"""The short call path (spf.runtime.fast_call, and its common case in C, spf.runtime.short_call):
same results and errors as the long one.  Every test runs with the C path and without it."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from spf.runtime import fast_call, kernel, short_call

SPMV = "y(i) = A(i,j) * x(j)"
LAYOUTS = {"y": "Dense", "A": "CSR", "x": "Dense"}


@pytest.fixture(autouse=True, params=["c", "python"])
def path(request, monkeypatch):
    """Kernels compiled in the test call through the C short path ("c": the test fails
    where it cannot be built) or through the Python plan alone ("python")."""
    if request.param == "python":
        monkeypatch.setattr(kernel, "short_call", lambda plan, function: None)
    elif short_call.unavailable():
        pytest.skip(f"the C short call path is not used here: {short_call.unavailable()}")
    return request.param


@pytest.fixture
def counted(monkeypatch, path):
    """How many calls the short path served, in C or in Python (a Python run returning
    None went the long way)."""
    served = []
    run = fast_call.CallPlan.run

    def counting_short_call(plan, function):
        native = short_call.short_call(plan, function)
        if native is None:
            return None

        def call(values):
            result = native(values)
            if result is not None:
                served.append(True)
            return result
        return call
    if path == "c":
        monkeypatch.setattr(kernel, "short_call", counting_short_call)

    def counting(self, function, values):
        result = run(self, function, values)
        served.append(result is not None)
        return result
    monkeypatch.setattr(fast_call.CallPlan, "run", counting)
    return served


def test_tensor_and_array_take_the_short_path(counted):
    k = spf.compile(SPMV, LAYOUTS)
    A = sp.random(300, 200, density=0.05, format="csr", random_state=1)
    T = spf.pack("CSR", A)
    x = np.random.default_rng(2).random(200)
    first, second = k(A=T, x=x), k(A=T, x=x)
    np.testing.assert_allclose(first, A @ x, rtol=1e-13)
    assert first is not second  # a new output per call, as the long path gives
    assert counted == [True, True]


def test_a_tensor_whose_layout_is_an_equal_object(counted):
    k = spf.compile(SPMV, LAYOUTS)
    A = sp.random(50, 40, density=0.1, format="csr", random_state=3)
    T = spf.pack(copy.deepcopy(k.tensors["A"].layout), A)
    assert T.layout is not k.tensors["A"].layout
    np.testing.assert_allclose(k(A=T, x=np.ones(40)), A @ np.ones(40), rtol=1e-13)
    assert counted == [True]


def test_an_equal_layout_is_recognised_again_without_a_new_comparison(counted, monkeypatch):
    k = spf.compile(SPMV, LAYOUTS)
    A = sp.random(50, 40, density=0.1, format="csr", random_state=3)
    T = spf.pack(copy.deepcopy(k.tensors["A"].layout), A)
    k(A=T, x=np.ones(40))
    plan = k._call_plan
    compared = []
    monkeypatch.setitem(plan.__dict__, "same_layout", lambda given, layout: compared.append(given) or given == layout)
    np.testing.assert_allclose(k(A=T, x=np.ones(40)), A @ np.ones(40), rtol=1e-13)
    other = spf.pack(copy.deepcopy(k.tensors["A"].layout), A)
    np.testing.assert_allclose(k(A=other, x=np.ones(40)), A @ np.ones(40), rtol=1e-13)
    assert compared == [other.layout]  # T's layout was remembered by the first call
    assert counted == [True, True, True]


def test_read_only_and_empty_arrays_are_read_in_place(counted):
    k = spf.compile(SPMV, LAYOUTS)
    A = sp.random(30, 20, density=0.2, format="csr", random_state=8)
    x = np.random.default_rng(9).random(20)
    x.flags.writeable = False
    np.testing.assert_allclose(k(A=spf.pack("CSR", A), x=x), A @ x, rtol=1e-13)
    assert k(A=spf.pack("CSR", sp.csr_matrix((30, 0))), x=np.ones(0)).tolist() == [0.0] * 30
    assert k(A=spf.pack("CSR", sp.csr_matrix((0, 20))), x=np.ones(20)).shape == (0,)
    assert counted == [True, True, True]


def test_other_arguments_go_the_long_way_with_the_same_results(counted):
    k = spf.compile(SPMV, LAYOUTS)
    A = sp.random(60, 80, density=0.1, format="csr", random_state=4)
    x = np.random.default_rng(5).random(160)[::2]  # not contiguous
    np.testing.assert_allclose(k(A=A, x=x), A @ x, rtol=1e-13)  # a scipy matrix, borrowed
    np.testing.assert_allclose(k(A=spf.pack("CSR", A), x=x), A @ x, rtol=1e-13)
    assert counted == [False, False]  # a scipy matrix and a strided array are left to the long path


def test_disagreeing_extents_raise_the_long_paths_error(counted):
    k = spf.compile(SPMV, LAYOUTS)
    T = spf.pack("CSR", sp.random(30, 20, density=0.2, format="csr", random_state=6))
    with pytest.raises(spf.SpfError, match="index j has extent"):
        k(A=T, x=np.ones(21))
    with pytest.raises(spf.SpfError, match="missing input x"):
        k(A=T)
    with pytest.raises(spf.SpfError, match="unknown argument"):
        k(A=T, x=np.ones(20), z=np.ones(3))


def test_an_accumulating_statement_starts_from_zeros():
    k = spf.compile("y(i) += A(i,j) * x(j)", LAYOUTS)
    assert k._call_plan is not None and k._call_plan.accumulates
    A = sp.random(40, 30, density=0.2, format="csr", random_state=7)
    for _ in range(3):
        np.testing.assert_allclose(k(A=spf.pack("CSR", A), x=np.ones(30)), A @ np.ones(30), rtol=1e-13)


def test_a_statement_of_two_terms_is_zeroed_by_the_kernel():
    k = spf.compile("y(i) = A(i,j) * x(j) + z(i)", {**LAYOUTS, "z": "Dense"})
    A = sp.random(500, 30, density=0.05, format="csr", random_state=8)
    x, z = np.ones(30), np.arange(500.0)
    for _ in range(3):
        np.testing.assert_allclose(k(A=spf.pack("CSR", A), x=x, z=z), A @ x + z, rtol=1e-13)


@pytest.mark.parametrize("expression, layouts", [
    ("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "SV"}),  # a find
    ("s = x(i) * z(i)", {"x": "Dense", "z": "Dense"}),  # a scalar output
])
def test_kernels_the_short_path_does_not_cover(expression, layouts):
    assert spf.compile(expression, layouts)._call_plan is None


def test_an_output_too_large_for_memory_is_refused_on_the_short_path(counted):
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"C": "Dense", "A": "Dense", "B": "Dense"})
    huge = 10**7
    with pytest.raises(spf.OutOfMemoryError, match="output C: array vals of Dense2"):
        k(A=np.ones((huge, 1)), B=np.ones((1, huge)))


def test_an_assembled_output_takes_the_short_path(counted):
    """A sparse output whose pattern the kernel computes: a new Tensor per call, the
    run-time choices counted, the same result as a bound call's."""
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"C": "CSR", "A": "CSR", "B": "CSR"})
    A = sp.random(70, 50, density=0.1, format="csr", random_state=9)
    B = sp.random(50, 60, density=0.1, format="csr", random_state=10)
    TA, TB = spf.pack("CSR", A), spf.pack("CSR", B)
    first, second = k(A=TA, B=TB), k(A=TA, B=TB)
    assert counted == [True, True]
    assert first is not second and first.fields["colIdx"] is not second.fields["colIdx"]
    expected = (A @ B).toarray()
    for C in (first, second, k.bind(A=TA, B=TB)()):
        assert C.shape == (70, 60) and C.name == "C"
        np.testing.assert_allclose(C.to_scipy().toarray(), expected, rtol=1e-13)
    assert sum(k.assembly_statistics.values()) > 0


def test_an_entry_an_assembled_output_cannot_hold_is_named_on_the_short_path(counted):
    lower_csr = Path(__file__).resolve().parents[1] / "data" / "LOWER_CSR.layout"  # CSR restricted to j <= i
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": str(lower_csr)})
    upper = spf.pack("CSR", sp.csr_matrix(([1.0], ([0], [2])), shape=(3, 3)))
    identity = spf.pack("CSR", sp.eye(3, format="csr"))
    with pytest.raises(spf.PackError, match=r"entry \(0, 2\) cannot be stored \(j <= i does not hold\)"):
        k(A=upper, B=identity)
    assert counted == []  # raised inside the short path (a run handing over to the long one would count False)
    lower = sp.csr_matrix(([1.0, 2.0], ([2, 1], [0, 1])), shape=(3, 3))
    np.testing.assert_array_equal(k(A=spf.pack("CSR", lower), B=identity).to_scipy().toarray(), lower.toarray())
    assert counted == [True]


def test_scipy_matrix_takes_the_short_path_while_its_arrays_are_the_same():
    """A scipy CSR matrix in the kernel's layout is borrowed and checked once, then reused
    while it has the same arrays; new arrays, a new shape or an invalid matrix are looked at
    again (the long way says what is wrong)."""

    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    A = sp.random(50, 40, density=0.1, format="csr", random_state=2)
    x = np.arange(40.0)
    np.testing.assert_allclose(kernel(A=A, x=x), A @ x)
    plan = kernel._call_plan
    assert len(plan.borrowed.entries) == 1
    A.data *= 3  # values changed in place are read as they are
    np.testing.assert_allclose(kernel(A=A, x=x), A @ x)
    A.indices = A.indices.copy()  # new arrays: checked again
    A.indices[0] = 1000
    with pytest.raises(spf.SpfError):
        kernel(A=A, x=x)
    B = sp.random(50, 40, density=0.2, format="csr", random_state=3)
    np.testing.assert_allclose(kernel(A=B, x=x), B @ x)
    unsorted = sp.csr_matrix((np.array([1.0, 2.0]), np.array([3, 1]), np.array([0, 2] + [2] * 49)),
                                       shape=(50, 40))
    np.testing.assert_allclose(kernel(A=unsorted, x=x), unsorted @ x)  # not the layout's form: packed
