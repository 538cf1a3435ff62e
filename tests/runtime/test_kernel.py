"""A compiled kernel at run time (spf/runtime/kernel.py): Kernel wraps the compiler's
CompiledKernel (keyword-only), reads its fields as its own, refuses bad calls naming the
tensor at fault, computes what scipy/numpy compute, and leaves its inputs as they were."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.codegen.compiled import CompiledKernel
from spf.codegen.pipeline import compile_kernel
from spf.errors import ArgumentError, PackError, SpfError
from spf.runtime.kernel import Kernel, callable_kernel

SPMV = "y(i) = A(i,j) * x(j)"
CSR_DENSE = {"A": "CSR", "x": "Dense", "y": "Dense"}
SPGEMM = "C(i,j) = A(i,k) * B(k,j)"
ALL_CSR = {"A": "CSR", "B": "CSR", "C": "CSR"}


@pytest.fixture(scope="module")
def spmv() -> Kernel:
    return callable_kernel(SPMV, CSR_DENSE)


@pytest.fixture(scope="module")
def spgemm() -> Kernel:
    return callable_kernel(SPGEMM, ALL_CSR)


def operands(rows: int = 40, columns: int = 30, seed: int = 1):
    A = sparse.random(rows, columns, density=0.15, format="csr", random_state=seed)
    x = np.random.default_rng(seed).standard_normal(columns)
    return A, x


def test_a_kernel_is_built_by_keyword_around_a_compiled_description():
    compiled = compile_kernel(SPMV, CSR_DENSE)
    kernel = Kernel(compiled=compiled)
    assert kernel.compiled is compiled and kernel.assembly_statistics == {}
    with pytest.raises(TypeError):
        Kernel(compiled)
    assert isinstance(spf.compile(SPMV, CSR_DENSE), Kernel)


def test_a_kernel_reads_its_descriptions_fields(spmv):
    compiled = spmv.compiled
    assert isinstance(compiled, CompiledKernel)
    assert spmv.c_source is compiled.c_source and spmv.function_name in spmv.c_source
    assert spmv.output == "y" and spmv.tensors is compiled.tensors and set(spmv.tensors) == {"A", "x", "y"}
    assert spmv.explain() == compiled.explain({}) and "loop nest:" in spmv.explain()
    with pytest.raises(AttributeError):
        spmv.no_such_field


def test_spmv_equals_scipy_on_random_data(spmv):
    for seed in range(3):
        A, x = operands(seed=seed)
        y = spmv(A=A, x=x)
        assert isinstance(y, np.ndarray) and y.shape == (40,)
        np.testing.assert_allclose(y, A @ x, rtol=1e-12, atol=1e-12)


def test_spgemm_into_csr_equals_scipy(spgemm):
    A = sparse.random(30, 25, density=0.2, format="csr", random_state=3)
    B = sparse.random(25, 35, density=0.2, format="csr", random_state=4)
    C = spgemm(A=A, B=B)
    assert isinstance(C, spf.Tensor) and C.shape == (30, 35) and C.name == "C"
    result = C.to_scipy()
    np.testing.assert_allclose(result.toarray(), (A @ B).toarray(), rtol=1e-12, atol=1e-12)
    assert result.nnz == (A @ B).nnz  # the nonzeros stored, as scipy's product stores them


def test_a_call_leaves_its_inputs_unchanged(spmv, spgemm):
    A, x = operands(seed=7)
    before = (A.data.copy(), A.indices.copy(), A.indptr.copy(), x.copy())
    spmv(A=A, x=x)
    spmv.bind(A=A, x=x)()
    for kept, now in zip(before, (A.data, A.indices, A.indptr, x)):
        np.testing.assert_array_equal(kept, now)
    B = sparse.random(30, 20, density=0.2, format="csr", random_state=8)
    saved = (A.copy(), B.copy())
    spgemm(A=A, B=B)
    assert (A != saved[0]).nnz == 0 and (B != saved[1]).nnz == 0
    np.testing.assert_array_equal(A.indptr, saved[0].indptr)


def test_a_missing_input_is_refused_naming_it(spmv):
    A, _ = operands()
    with pytest.raises(SpfError, match=r"missing input x; inputs are A, x"):
        spmv(A=A)


def test_an_extra_argument_is_refused_naming_it_and_the_output_is_not_an_input(spmv):
    A, x = operands()
    with pytest.raises(SpfError, match=r"unknown argument\(s\) \['z'\]"):
        spmv(A=A, x=x, z=x)
    with pytest.raises(SpfError, match=r"\['y'\] \(y is the output, which the kernel allocates\)"):
        spmv(A=A, x=x, y=np.zeros(40))


def test_positional_inputs_are_refused(spmv):
    A, x = operands()
    with pytest.raises(ArgumentError, match=r"by name, e\.g\. kernel\(A=\.\.\., x=\.\.\.\)"):
        spmv(A, x)


def test_a_wrong_shape_is_refused_naming_both_tensors(spmv):
    A, _ = operands()
    with pytest.raises(SpfError, match=r"index j has extent 29 in x but 30 in A"):
        spmv(A=A, x=np.ones(29))
    with pytest.raises(SpfError, match=r"\bx\b"):
        spmv(A=A, x=np.ones((30, 2)))


def test_a_wrong_dtype_is_refused_naming_the_tensor(spmv):
    A, x = operands()
    with pytest.raises(PackError, match=r"tensor x: values are complex256, which spf does not support"):
        spmv(A=A, x=x.astype(np.clongdouble))
    with pytest.raises(PackError, match=r"\bA\b"):
        spmv(A=A.astype(np.clongdouble), x=x)


@pytest.mark.parametrize("expression, layouts", [
    ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}),
    ("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}),  # assembled: its builder too
])
def test_the_first_call_after_compile_compiles_nothing(monkeypatch, expression, layouts):
    """spf.compile builds the C (an assembled output's builder included) before it returns:
    with the compiler taken away afterwards, the first calls, plain and bound, still run."""
    import spf.runtime.kernel as kernel_module
    import spf.runtime.short_call as short_call_module
    monkeypatch.setattr(short_call_module._Loaded, "tried", False)  # the C call path's extension: loaded anew
    kernel = spf.compile(expression, layouts)

    def no_compiler(*arguments, **options):
        raise AssertionError("a call compiled C")
    monkeypatch.setattr(kernel_module, "build_shared_library", no_compiler)
    monkeypatch.setattr(short_call_module, "build_shared_library", no_compiler)
    A = sparse.random_array((20, 20), density=0.2, format="csr", random_state=3)
    if "x" in layouts:
        x = np.arange(20.0)
        np.testing.assert_allclose(kernel(A=A, x=x), A @ x)
        np.testing.assert_allclose(kernel.bind(A=A, x=x)(), A @ x)
    else:
        np.testing.assert_allclose(kernel(A=A, B=A).to_dense(), (A @ A).toarray())
        np.testing.assert_allclose(kernel.bind(A=A, B=A)().to_dense(), (A @ A).toarray())
    unbuilt = spf.compile(expression, layouts, build=False)
    with pytest.raises(AssertionError, match="compiled C"):
        unbuilt.build()


def test_build_must_be_a_flag():
    with pytest.raises(ArgumentError, match="build must be True or False"):
        spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, build="yes")
