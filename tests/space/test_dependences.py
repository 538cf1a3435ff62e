"""Dependence tests (spf.space.dependences) and the parallel kernels they allow.

1. The test itself: for each kernel of the issue, which loops carry a dependence on the
   output (a reduction) and which are free, with the enclosing loops of the real nest.
2. Properties matter: DCSR's row loop is free only because ``rowIdx`` is strictly
   increasing; the same layout without that property (a user layout file) carries a
   dependence, and ``spf.compile(..., parallel=True)`` then emits serial code.
3. ``parallel=True`` and recipes with reductions: the parallel kernel gives the serial
   kernel's result on every real matrix and 3-way tensor in ../shared/data, exactly where
   each output entry is computed by one thread in the serial order, and within a
   tolerance where the reduction order changes (COO with privatized or atomic updates).

The parallel kernels run with two OpenMP threads (the ``openmp_threads`` fixture of
conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import spf
from conftest import MATRICES, TENSORS, data_available, load_matrix, load_tensor, require_data, run_variants
from spf.codegen.toolchain.compiler import CFLAGS
from spf.runtime.kernel import callable_kernel
from spf.space.dependences import Dependence, carried_dependence, loop_dependences

SPMV = "y(i) = A(i,j) * x(j)"
SPMM = "C(i,j) = A(i,k) * B(k,j)"
SDDMM = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
TTM = "A(i,j,k) = B(i,j,l) * C(k,l)"
MTTKRP = "A(i,j) = B(i,k,l) * C(k,j) * D(l,j)"
DOT = "a = b(i) * c(i)"

TTM_LAYOUTS = {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}
MTTKRP_LAYOUTS = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
SDDMM_LAYOUTS = {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}
SPMM_LAYOUTS = {"A": "CSR", "B": "Dense", "C": "Dense"}
RANK = 8  # columns of SpMM's dense B, inner dimension of SDDMM, rank of TTM and MTTKRP


def spmv_layouts(layout) -> dict:
    return {"A": layout, "x": "Dense", "y": "Dense"}


def space(expression: str, layouts: dict, share: dict | None = None):
    (statement_space,) = spf.iteration_space(expression, layouts, share=share).statements
    return statement_space


def carried(expression: str, layouts: dict, loop: str, outer=(), share: dict | None = None) -> bool:
    dependence = carried_dependence(space(expression, layouts, share), loop, list(outer))
    assert isinstance(dependence, Dependence)
    assert dependence.loop == loop and dependence.outer == tuple(outer)
    return dependence.carried


# ============================================================================= 1. the test


def test_csr_spmv_rows_are_free_and_the_row_loop_carries_the_reduction():
    statement_space = space(SPMV, spmv_layouts("CSR"))
    rows = carried_dependence(statement_space, "pAi", [])
    entries = carried_dependence(statement_space, "pAj", ["pAi"])
    assert not rows.carried
    assert entries.carried
    assert rows.output == entries.output == "y(i)"
    assert str(rows) == "loop pAi: no two iterations update the same element of y(i)"
    assert str(entries) == ("loop pAj carries a dependence: with pAi = pAi', iterations pAj < pAj' "
                            "update the same element of y(i)")


def test_loop_dependences_tests_each_loop_inside_the_ones_before():
    statement_space = space(SPMV, spmv_layouts("CSR"))
    tested = loop_dependences(statement_space, ["pAi", "pAj"])
    assert [(d.loop, d.outer, d.carried) for d in tested] == [("pAi", (), False), ("pAj", ("pAi",), True)]


def test_dcsr_row_loop_is_free_because_row_indices_strictly_increase(dcsr_without_property):
    assert not carried(SPMV, spmv_layouts("DCSR"), "pAi")
    assert carried(SPMV, spmv_layouts("DCSR"), "pAj", ["pAi"])
    # the same layout without `property monotonic(rowIdx, increasing, strict)`: two
    # stored rows may have the same coordinate, so two pAi iterations may update one y(i)
    dependence = carried_dependence(space(SPMV, spmv_layouts(dcsr_without_property)), "pAi", [])
    assert dependence.carried
    assert str(dependence) == "loop pAi carries a dependence: iterations pAi < pAi' update the same element of y(i)"


def test_coo_spmv_entry_loop_carries():
    assert carried(SPMV, spmv_layouts("COO"), "pA")
    assert carried(SPMV, spmv_layouts("COO_UNSORTED"), "pA")


def test_csc_spmv_column_loop_carries_and_row_loop_is_free():
    assert carried(SPMV, spmv_layouts("CSC"), "pAj")
    assert not carried(SPMV, spmv_layouts("CSC"), "pAi", ["pAj"])


def test_ttm_fiber_loops_are_free_and_the_contracted_loop_carries():
    layouts, share = TTM_LAYOUTS, {"A": "B"}
    assert not carried(TTM, layouts, "pB0", [], share)
    assert not carried(TTM, layouts, "pB1", ["pB0"], share)
    assert carried(TTM, layouts, "pB2", ["pB0", "pB1"], share)


def test_mttkrp_outer_loop_is_free_and_the_contracted_loops_carry():
    assert not carried(MTTKRP, MTTKRP_LAYOUTS, "pB0")
    assert carried(MTTKRP, MTTKRP_LAYOUTS, "pB1", ["pB0"])
    assert carried(MTTKRP, MTTKRP_LAYOUTS, "pB2", ["pB0", "pB1"])


def test_sddmm_sampled_loops_are_free_and_the_inner_product_carries():
    share = {"A": "B"}
    assert not carried(SDDMM, SDDMM_LAYOUTS, "pBi", [], share)
    assert not carried(SDDMM, SDDMM_LAYOUTS, "pBj", ["pBi"], share)
    assert carried(SDDMM, SDDMM_LAYOUTS, "pC1", ["pBi", "pBj"], share)


@pytest.mark.parametrize("layouts, loop", [({"b": "Dense", "c": "Dense"}, "pb0"), ({"b": "SV", "c": "SV"}, "pb")])
def test_dot_product_loop_carries_into_the_scalar(layouts, loop):
    dependence = carried_dependence(space(DOT, layouts), loop, [])
    assert dependence.carried
    assert dependence.output == "a"
    assert str(dependence) == f"loop {loop} carries a dependence: iterations {loop} < {loop}' update the same element of a"


# ============================================================================= 2. parallel=True


@pytest.fixture(scope="module")
def dcsr_without_property(tmp_path_factory) -> str:
    """A user layout file: DCSR under another name, without rowIdx's strict monotonicity."""
    text = (Path(spf.__file__).resolve().parent.parent / "layouts" / "DCSR.layout").read_text()
    assert "\nlayout DCSR\n" in text and "\nproperty monotonic(rowIdx, increasing, strict)\n" in text
    text = text.replace("\nlayout DCSR\n", "\nlayout DCSR_UNORDERED\n")
    text = text.replace("\nproperty monotonic(rowIdx, increasing, strict)\n", "\n")
    path = tmp_path_factory.mktemp("layouts") / "DCSR_UNORDERED.layout"
    path.write_text(text)
    assert spf.load_layout(str(path)).name == "DCSR_UNORDERED"
    return str(path)


def parallel_loops(k) -> set[str]:
    """The variables of the loops the kernel runs with OpenMP (its loop nest as explain() prints it)."""
    return set(re.findall(r"for (\w+) in .* \(parallel\):", k.explain()))


def test_dcsr_spmv_is_parallel_because_of_the_property_and_serial_without_it(dcsr_without_property):
    with_property = kernel(SPMV, spmv_layouts("DCSR"), parallel=True)
    assert parallel_loops(with_property) == {"pAi"} and "#pragma omp parallel" in with_property.c_source
    assert with_property.dependences == ["loop pAi: no two iterations update the same element of y(i)",
                                         "loop pAi runs in parallel"]

    without = kernel(SPMV, spmv_layouts(dcsr_without_property), parallel=True)
    assert "#pragma omp" not in without.c_source
    assert without.dependences[0] == \
        "loop pAi carries a dependence: iterations pAi < pAi' update the same element of y(i)"
    assert all("carries a dependence" in d or "walks one segment" in d for d in without.dependences[:-1])
    assert without.dependences[-1] == "no loop runs in parallel"


@pytest.mark.parametrize("name", ["west0479", "lp_e226"])
def test_serial_dcsr_without_the_property_agrees_with_scipy(name, dcsr_without_property):
    require_data()
    matrix = load_matrix(name)
    x = np.random.default_rng(1).uniform(-1, 1, matrix.shape[1])
    y = kernel(SPMV, spmv_layouts(dcsr_without_property), parallel=True)(A=matrix, x=x)
    np.testing.assert_allclose(y, matrix @ x, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("expression, layouts, share, loop", [
    (SPMV, spmv_layouts("CSR"), None, "pAi"),
    (SPMV, spmv_layouts("DCSR"), None, "pAi"),
    (SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, None, "pAi"),
    (SPMM, SPMM_LAYOUTS, None, "pAi"),
    (SDDMM, SDDMM_LAYOUTS, {"A": "B"}, "pBi"),
    (MTTKRP, MTTKRP_LAYOUTS, None, "pB0"),
    (TTM, TTM_LAYOUTS, {"A": "B"}, "pB0"),
], ids=["CSR SpMV", "DCSR SpMV", "SpMSpV", "SpMM", "SDDMM", "MTTKRP", "TTM"])
def test_parallel_true_marks_the_outermost_free_loop(expression, layouts, share, loop):
    k = kernel(expression, layouts, share=share, parallel=True)
    assert parallel_loops(k) == {loop}
    assert "#pragma omp parallel num_threads(spf_want)" in k.c_source  # pieces balanced by nonzeros
    assert k.dependences[-2:] == [f"loop {loop}: no two iterations update the same element of "
                                  f"{k.spaces[0].statement.output}", f"loop {loop} runs in parallel"]
    assert "#pragma omp" not in kernel(expression, layouts, share=share, parallel=False).c_source


@pytest.mark.parametrize("expression, layouts", [(SPMV, spmv_layouts("COO_UNSORTED")),
                                                 (DOT, {"b": "Dense", "c": "Dense"}),
                                                 (DOT, {"b": "SV", "c": "SV"})],
                         ids=["unsorted COO SpMV", "dense dot", "sparse dot"])
def test_parallel_true_leaves_a_reduction_serial(expression, layouts):
    k = kernel(expression, layouts, parallel=True)
    assert "#pragma omp" not in k.c_source
    assert k.dependences and "carries a dependence" in k.dependences[0]


def test_a_reduction_through_a_monotonic_array_runs_in_parts_and_a_segment_loop_stays_serial():
    # sorted COO: the rows' entries are adjacent, so parts cut at row changes share nothing
    coo = kernel(SPMV, spmv_layouts("COO"), parallel=True)
    assert parallel_loops(coo) == {"pA"} and "carries a dependence" in coo.dependences[0]
    assert "parts cut where A_row(pA) changes" in coo.dependences[1]
    # CSC: the column loop carries; the row loop inside walks one column's short segment
    csc = kernel(SPMV, spmv_layouts("CSC"), parallel=True)
    assert parallel_loops(csc) == set() and "#pragma omp" not in csc.c_source
    assert "walks one segment of a compressed level inside loop pAj" in "\n".join(csc.dependences)


# ============================================================================= 3. parallel = serial

_kernels: dict = {}


# gcc would contract a multiply and an add into one fused multiply-add as it sees fit, and
# may decide differently in a parallel region than in the serial loop it came from; spf
# compiles without contraction (spf.codegen.toolchain.compiler.CFLAGS), so an entry summed in the serial
# order rounds the same way in both (what the parallel test below checks, bit for bit)
assert "-ffp-contract=off" in CFLAGS
UNCONTRACTED = tuple(CFLAGS)


def kernel(expression: str, layouts: dict, schedule=None, **options):
    """``spf.compile`` (without contraction) once per module for each (expression, layouts,
    recipe, options)."""
    key = (expression, tuple(sorted((k, str(v)) for k, v in layouts.items())), str(schedule),
           repr(sorted(options.items())))
    if key not in _kernels:
        _kernels[key] = callable_kernel(expression, layouts, schedule=schedule, flags=UNCONTRACTED, **options)
    return _kernels[key]


def coo_recipe(reduction: str):
    return spf.recipe(SPMV, spmv_layouts("COO")).parallelize("pA", reduction=reduction)


# kernel name -> (expression, layouts, share, options of the parallel kernel, exact comparison)
PARALLEL_KERNELS = {
    "SpMV CSR": (SPMV, spmv_layouts("CSR"), None, {"parallel": True}, True),
    "SpMV DCSR": (SPMV, spmv_layouts("DCSR"), None, {"parallel": True}, True),
    "SpMV COO privatize": (SPMV, spmv_layouts("COO"), None, {"recipe": "privatize"}, False),
    "SpMV COO atomic": (SPMV, spmv_layouts("COO"), None, {"recipe": "atomic"}, False),
    "SpMSpV auto": (SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, None, {"parallel": True, "find": "auto"}, True),
    "SpMSpV seqiter": (SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, None, {"parallel": True, "find": "seqiter"}, True),
    "SpMSpV hashmap": (SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, None, {"parallel": True, "find": "hashmap"}, True),
    "SpMM": (SPMM, SPMM_LAYOUTS, None, {"parallel": True}, True),
    "SDDMM": (SDDMM, SDDMM_LAYOUTS, {"A": "B"}, {"parallel": True}, True),
    "MTTKRP": (MTTKRP, MTTKRP_LAYOUTS, None, {"parallel": True}, True),
    "TTM": (TTM, TTM_LAYOUTS, {"A": "B"}, {"parallel": True}, True),
}
MATRIX_KERNELS = ["SpMV CSR", "SpMV DCSR", "SpMV COO privatize", "SpMV COO atomic",
                  "SpMSpV auto", "SpMSpV seqiter", "SpMSpV hashmap", "SpMM", "SDDMM"]
TENSOR_KERNELS = ["MTTKRP", "TTM"]


def parallel_and_serial(name: str):
    """The parallel kernel and the same kernel compiled with parallel=False."""
    expression, layouts, share, options, _ = PARALLEL_KERNELS[name]
    options = dict(options)
    find = options.get("find", "auto")
    if "recipe" in options:
        parallel = kernel(expression, layouts, schedule=coo_recipe(options["recipe"]))
    else:
        parallel = kernel(expression, layouts, share=share, find=find, parallel=True)
    serial = kernel(expression, layouts, share=share, find=find, parallel=False)
    return parallel, serial


@pytest.mark.parametrize("name", list(PARALLEL_KERNELS))
def test_parallel_kernel_has_a_parallel_loop_and_serial_has_none(name):
    parallel, serial = parallel_and_serial(name)
    assert parallel_loops(parallel) and "#pragma omp parallel" in parallel.c_source
    assert "#pragma omp" not in serial.c_source
    assert len(parallel.kernels) == len(serial.kernels)
    assert [str(c) for c in parallel.variant_choices] == [str(c) for c in serial.variant_choices]


def output_values(result) -> np.ndarray:
    """A dense output as is; an output sharing an input's sparsity: its stored values."""
    if isinstance(result, spf.Tensor):
        return np.asarray(result.fields[result.layout.values_field]).ravel()
    return np.asarray(result)


def assert_parallel_equals_serial(name: str, reference, **inputs) -> None:
    """Every variant of the parallel kernel against the serial one; both close to ``reference``."""
    exact = PARALLEL_KERNELS[name][4]
    parallel, serial = parallel_and_serial(name)
    expected = np.asarray(reference, dtype=float)
    scale = 1e-10 * max(1.0, float(np.abs(expected).max(initial=0.0)))
    for (choice, in_parallel), (serial_choice, in_serial) in zip(run_variants(parallel, **inputs),
                                                                 run_variants(serial, **inputs)):
        assert choice == serial_choice
        in_parallel, in_serial = output_values(in_parallel), output_values(in_serial)
        np.testing.assert_allclose(in_serial, expected, rtol=1e-10, atol=scale, err_msg=f"serial {name}, {choice}")
        if exact:
            # each output entry is computed by one thread in the serial order: bit for bit
            assert np.array_equal(in_parallel, in_serial), \
                f"{name}, {choice}: {int(np.sum(in_parallel != in_serial))} entries differ from the serial kernel"
        else:
            # the reduction order changes (per-thread copies, atomics): a tolerance
            assert np.allclose(in_parallel, in_serial, rtol=1e-10, atol=scale), \
                f"{name}, {choice}: largest difference {np.abs(in_parallel - in_serial).max()}"


def _names(directory: Path, suffix: str) -> list[str]:
    if not data_available():
        return ["(no data)"]  # one test that calls require_data() and is skipped with the reason
    return sorted(path.name[:-len(suffix)] for path in directory.glob(f"*{suffix}"))


def _stored_entries(name: str) -> int:
    """Stored entries from the header (symmetric files: both triangles)."""
    if not data_available():
        return 0
    _, _, entries, _, _, symmetry = scipy.io.mminfo(MATRICES / f"{name}.mtx")
    return entries * (1 if symmetry == "general" else 2)


def _order(name: str) -> int:
    if not data_available():
        return 3
    with open(TENSORS / f"{name}.tns") as handle:
        return len(handle.readline().split()) - 1


ALL_MATRICES = _names(MATRICES, ".mtx")
TENSORS3 = [name for name in _names(TENSORS, ".tns") if _order(name) == 3]
SPMM_LIMIT = 300_000  # SpMM with a dense B of 8 columns on the matrices with at most 300k entries
MATRIX_CASES = [(kernel_name, name) for kernel_name in MATRIX_KERNELS for name in ALL_MATRICES
                if kernel_name != "SpMM" or _stored_entries(name) <= SPMM_LIMIT]

_packed: dict = {}


def packed(layout: str, name: str, tensor: str = "A") -> spf.Tensor:
    """A real matrix or tensor packed once per module."""
    require_data()
    if (layout, name) not in _packed:
        data = load_tensor(name) if layout == "CSF3" else load_matrix(name)
        _packed[(layout, name)] = spf.pack(layout, data, tensor)
    return _packed[(layout, name)]


@pytest.mark.parametrize("kernel_name, name", MATRIX_CASES)
def test_parallel_equals_serial_on_real_matrices(kernel_name, name, openmp_threads):
    require_data()
    matrix = load_matrix(name)
    rows, cols = matrix.shape
    rng = np.random.default_rng(rows + 7 * cols)
    expression, layouts, *_ = PARALLEL_KERNELS[kernel_name]
    if kernel_name.startswith("SpMV"):
        x = rng.uniform(-1, 1, cols)
        assert_parallel_equals_serial(kernel_name, matrix @ x, A=packed(layouts["A"], name), x=x)
    elif kernel_name.startswith("SpMSpV"):
        chosen = np.sort(rng.choice(cols, size=max(1, cols // 10), replace=False))
        values = rng.uniform(-1, 1, len(chosen))
        dense = np.zeros(cols)
        dense[chosen] = values
        x = (chosen.reshape(-1, 1).astype(np.int64), values, (cols,))
        assert_parallel_equals_serial(kernel_name, matrix @ dense, A=packed("CSR", name), x=x)
    elif kernel_name == "SpMM":
        B = rng.uniform(-1, 1, (cols, RANK))
        assert_parallel_equals_serial(kernel_name, matrix @ B, A=packed("CSR", name), B=B)
    elif kernel_name == "SDDMM":
        C, D = rng.uniform(-1, 1, (rows, RANK)), rng.uniform(-1, 1, (RANK, cols))
        B = packed("CSR", name, "B")
        # the output's values follow B's stored entries (CSR: row by row, columns sorted)
        csr = sp.csr_matrix(matrix)
        csr.sort_indices()
        row_of = np.repeat(np.arange(rows), np.diff(csr.indptr))
        expected = csr.data * np.einsum("pk,kp->p", C[row_of], D[:, csr.indices])
        assert_parallel_equals_serial(kernel_name, expected, B=B, C=C, D=D)
    else:
        raise AssertionError(kernel_name)


def mttkrp_reference(data: tuple, C: np.ndarray, D: np.ndarray) -> np.ndarray:
    coords, values, shape = data
    result = np.zeros((shape[0], C.shape[1]))
    np.add.at(result, coords[:, 0], values[:, None] * C[coords[:, 1]] * D[coords[:, 2]])
    return result


def ttm_reference(data: tuple, C: np.ndarray) -> np.ndarray:
    """TTM's values on B's stored (i, j) fibers, in fiber order, flattened (fiber, k)."""
    coords, values, _ = data
    fibers, fiber_of = np.unique(coords[:, :2], axis=0, return_inverse=True)
    by_fiber = sp.csr_matrix((values, (fiber_of.ravel(), coords[:, 2])), shape=(len(fibers), C.shape[1]))
    return np.asarray(by_fiber @ C.T).ravel()


@pytest.mark.parametrize("kernel_name, name", [(k, n) for k in TENSOR_KERNELS for n in TENSORS3])
def test_parallel_equals_serial_on_real_tensors(kernel_name, name, openmp_threads):
    require_data()
    data = load_tensor(name)
    shape = data[2]
    rng = np.random.default_rng(sum(shape))
    B = packed("CSF3", name, "B")
    if kernel_name == "MTTKRP":
        C, D = rng.uniform(-1, 1, (shape[1], RANK)), rng.uniform(-1, 1, (shape[2], RANK))
        assert_parallel_equals_serial(kernel_name, mttkrp_reference(data, C, D), B=B, C=C, D=D)
    else:
        C = rng.uniform(-1, 1, (RANK, shape[2]))
        assert_parallel_equals_serial(kernel_name, ttm_reference(data, C), B=B, C=C)
