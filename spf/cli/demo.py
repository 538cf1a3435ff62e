"""The demo: spf's kernels checked and timed against scipy and SuiteSparse:GraphBLAS.

``spf demo`` compiles four kernels with :func:`spf.compile`:

* SpMV ``y(i) = A(i,j) * x(j)``, A in CSR (or the layout given), x and y dense;
* SpMSpV, the same with x a sorted sparse vector and ``find="auto"``;
* SDDMM ``A(i,j) = B(i,j) * C(i,k) * D(k,j)``, A sharing B's CSR index arrays;
* TTM ``A(i,j,k) = B(i,j,l) * C(k,l)``, B in CSF3, A in CSF3_DENSE_LAST sharing B's arrays.

It runs them on inputs it builds itself (the 5-point Laplacian of a grid and a seeded
random 3-way tensor), so it works from a bare install, or on the Matrix Market (.mtx)
and FROSTT (.tns) files it is given: matrices feed the matrix kernels, tensors TTM.
Every spf result is checked against the scipy/numpy baseline's before anything is timed.

spf is timed through bound kernels (inputs packed once: only the C call), the baselines
through their Python calls; each time is the median of repeated runs, and each ratio is
baseline time / spf time (above 1: spf is faster).  GraphBLAS runs on one thread, as
spf's kernels here are serial.  :mod:`spf.cli.bench` builds its report from the same cases.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, TextIO

import numpy as np
import scipy.sparse as sparse

import spf

if TYPE_CHECKING:
    from types import ModuleType

    from spf.layout_library.model import Layout

SPMV = "y(i) = A(i,j) * x(j)"
SDDMM = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
TTM = "A(i,j,k) = B(i,j,l) * C(k,l)"

SPMSPV_DENSITY = 0.01  # fraction of x's entries that are nonzero
RANK = 16  # columns of SDDMM's C (rows of D), rows of TTM's C
TENSOR_DENSITY = 0.05  # of the built-in grid x grid x grid tensor
TOLERANCE = 1e-9  # relative to the largest entry of the reference
DEMO_BUDGET = 0.05  # seconds of repeated runs per timed call (at least MIN_REPEATS runs)
MIN_REPEATS = 5
MAX_REPEATS = 1000

COLUMNS = ("kernel", "input", "nnz", "spf", "scipy", "scipy/spf", "GraphBLAS", "GB/spf", "check")


# ----------------------------------------------------------------------------- inputs

def laplacian_2d(size: int) -> sparse.csr_matrix:
    """The 5-point Laplacian of a size x size grid (size^2 rows)."""
    line = sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(size, size))
    identity = sparse.identity(size)
    return sparse.csr_matrix(sparse.kron(identity, line) + sparse.kron(line, identity))


def random_tensor(shape: tuple[int, int, int], count: int, seed: int) -> tuple:
    """``count`` distinct random coordinates of ``shape`` (sorted) with values in [0.5, 1.5):
    ``(coords, values, shape)`` as :func:`spf.read_tns` returns."""
    rng = np.random.default_rng(seed)
    flat = np.sort(rng.choice(int(np.prod(shape)), size=count, replace=False))
    coords = np.stack(np.unravel_index(flat, shape), axis=1).astype(np.int64)
    return coords, rng.random(count) + 0.5, tuple(shape)


def read_matrix(path: str) -> sparse.csr_matrix:
    """A Matrix Market file as a float CSR matrix with sorted, summed entries."""
    import scipy.io
    from spf.runtime.value_checks import check_real
    try:
        read = scipy.io.mmread(path)
    except (OSError, ValueError, TypeError, UnicodeDecodeError) as error:
        raise spf.SpfError(f"cannot read Matrix Market file {path}: {error}") from None
    check_real(np.asarray(read.data if sparse.issparse(read) else read), path, "its values")
    matrix = sparse.csr_matrix(read, dtype=np.float64)
    matrix.sum_duplicates()
    return matrix


def read_inputs(paths: list[str]) -> tuple[list[tuple[str, sparse.csr_matrix]], list[tuple[str, tuple]]]:
    """The user's files as (label, matrix) and (label, 3-way tensor) pairs."""
    matrices, tensors = [], []
    for path in paths:
        if not os.path.isfile(path):
            raise spf.SpfError(f"cannot read {path}: no such file")
        label = os.path.splitext(os.path.basename(path))[0]
        if path.endswith(".mtx"):
            matrices.append((label, read_matrix(path)))
        elif path.endswith(".tns"):
            data = spf.read_tns(path)
            if len(data[2]) != 3:
                raise spf.SpfError(f"{path}: TTM needs a 3-way tensor, this one has order {len(data[2])}")
            tensors.append((label, data))
        else:
            raise spf.SpfError(f"{path}: expected a Matrix Market (.mtx) or FROSTT (.tns) file")
    return matrices, tensors


def matrix_layout(spec: str) -> Layout:
    """The layout for SpMV's A: any built-in or user layout of order 2."""
    layout = spf.load_layout(spec)
    if hasattr(layout, "resolve"):  # a family such as BCSR with default parameters
        layout = layout.resolve(2)
    if layout.order != 2:
        raise spf.SpfError(f"SpMV needs a matrix layout; layout {layout.spec} has order {layout.order}")
    return layout


# ----------------------------------------------------------------------------- kernels and baselines

def compile_kernels(layout: str | Layout = "CSR") -> dict:
    """The demo's kernels, compiled and built (the C is cached in the user cache directory);
    ``layout`` (a name or a loaded layout) is A's in SpMV."""
    kernels = {
        "SpMV": spf.compile(SPMV, {"A": layout, "x": "Dense", "y": "Dense"}),
        "SpMSpV": spf.compile(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, find="auto"),
        "SDDMM": spf.compile(SDDMM, {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, share={"A": "B"}),
        "TTM": spf.compile(TTM, {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}, share={"A": "B"}),
    }
    for kernel in kernels.values():
        kernel.build()
    return kernels


def serial_graphblas() -> ModuleType | None:
    """python-graphblas on SuiteSparse with one thread, or None when it is not installed."""
    try:
        import graphblas as gb
    except ImportError:
        return None
    try:
        gb.init("suitesparse", blocking=True)
    except gb.exceptions.GraphblasException:
        pass  # this process initialised it already; the thread count below still applies
    gb.ss.config["nthreads"] = 1
    return gb


def matvec_scipy(matrix: sparse.csr_matrix, x: np.ndarray | sparse.spmatrix) -> np.ndarray | sparse.spmatrix:
    """SpMV and SpMSpV in scipy: ``A @ x`` (x a dense array or a sparse column)."""
    return matrix @ x


def sddmm_scipy(B: sparse.csr_matrix, C: np.ndarray, D: np.ndarray) -> sparse.csr_matrix:
    """SDDMM in scipy/numpy: ``B * (C @ D)`` evaluated at B's nonzeros only."""
    rows = np.repeat(np.arange(B.shape[0]), np.diff(B.indptr))
    sampled = np.einsum("pk,pk->p", C[rows], D.T[B.indices])
    return sparse.csr_matrix((B.data * sampled, B.indices, B.indptr), shape=B.shape)


def ttm_scipy(fibers: sparse.csr_matrix, CT: np.ndarray) -> np.ndarray:
    """TTM in scipy: B's (i, j) fibers as the rows of a sparse matrix (fibers x l) times C^T."""
    return fibers @ CT


def largest(values: np.ndarray | sparse.spmatrix) -> float:
    """The largest absolute entry of a dense array or a sparse matrix (0 when empty)."""
    data = values.data if sparse.issparse(values) else np.asarray(values)
    return float(np.max(np.abs(data), initial=0.0))


def difference(ours: np.ndarray | sparse.spmatrix, expected: np.ndarray | sparse.spmatrix) -> str | None:
    """None when spf's result matches the reference (both dense or both sparse), else what differs."""
    if ours.shape != expected.shape:
        return f"spf's result has shape {ours.shape}, the reference {expected.shape}"
    error, scale = largest(ours - expected), largest(expected)
    if error <= TOLERANCE * max(scale, 1.0):
        return None
    return f"max |spf - reference| = {error:.3g} (largest reference entry {scale:.3g})"


# ----------------------------------------------------------------------------- cases

@dataclass
class Case:
    """One kernel on one input: how to run spf and the baselines, and how to check spf."""

    kernel: str
    input: str
    nnz: int
    spf: Callable[[], object]  # a bound kernel: only the C call
    scipy: Callable[[], object]  # the scipy/numpy baseline; its result is the reference
    check: Callable[[object, object], str | None]  # (spf's result, reference) -> None or what differs
    graphblas: Callable[[], object] | None = None


def matrix_cases(kernels: dict, label: str, matrix: sparse.csr_matrix, gb: ModuleType | None = None,
                 densities: tuple[float, ...] = (SPMSPV_DENSITY,)) -> list[Case]:
    """SpMV, SpMSpV at each density of x, and SDDMM on one matrix (``gb``: GraphBLAS or None)."""
    rows, cols = matrix.shape
    rng = np.random.default_rng(0)
    A = spf.pack("CSR", matrix, name="A")
    A_gb = gb.io.from_scipy_sparse(matrix) if gb is not None else None
    x = rng.uniform(-1, 1, cols)
    x_gb = gb.Vector.from_dense(x) if gb is not None else None
    spmv_layout = kernels["SpMV"].tensors["A"].layout
    cases = [Case(f"SpMV {spmv_layout.spec}", label, matrix.nnz, kernels["SpMV"].bind(A=matrix, x=x),
                  lambda: matvec_scipy(matrix, x), difference,
                  (lambda: A_gb.mxv(x_gb).new()) if gb is not None else None)]

    for density in densities:
        vector = np.zeros(cols)
        places = rng.choice(cols, size=min(cols, max(1, round(cols * density))), replace=False)
        vector[places] = rng.random(len(places)) + 0.5
        bound = kernels["SpMSpV"].bind(A=A, x=spf.pack("SV", vector, name="x"))
        found = ",".join(choice.kind for choice in bound.choices) or "-"
        column = sparse.csc_matrix(vector.reshape(-1, 1))
        indices = np.flatnonzero(vector)
        sv_gb = gb.Vector.from_coo(indices, vector[indices], size=cols) if gb is not None else None
        cases.append(Case(f"SpMSpV CSR x SV {density * 100:g}% (auto: {found})", label, matrix.nnz, bound,
                          lambda column=column: matvec_scipy(matrix, column),
                          lambda ours, expected: difference(ours, expected.toarray().ravel()),
                          (lambda sv_gb=sv_gb: A_gb.mxv(sv_gb).new()) if gb is not None else None))

    C, D = rng.uniform(-1, 1, (rows, RANK)), rng.uniform(-1, 1, (RANK, cols))
    if gb is not None:  # D stored as its transpose by rows: C D under B's mask is then a dot product
        C_gb, DT_gb = gb.Matrix.from_dense(C), gb.Matrix.from_dense(np.ascontiguousarray(D.T))

    def sddmm_graphblas():
        return A_gb.ewise_mult(C_gb.mxm(DT_gb.T).new(mask=A_gb.S)).new()

    def sddmm_check(ours: spf.Tensor, expected: sparse.csr_matrix) -> str | None:
        coords, values, shape = ours.to_coo()
        return difference(sparse.csr_matrix((values, (coords[:, 0], coords[:, 1])), shape=shape), expected)

    cases.append(Case("SDDMM CSR", label, matrix.nnz, kernels["SDDMM"].bind(B=A, C=C, D=D),
                      lambda: sddmm_scipy(matrix, C, D), sddmm_check, sddmm_graphblas if gb is not None else None))
    return cases


def tensor_case(kernels: dict, label: str, data: tuple, gb: ModuleType | None = None) -> Case:
    """TTM on one 3-way tensor ``(coords, values, shape)``."""
    coords, values, shape = data
    fiber_coords, fiber_of = np.unique(coords[:, :2], axis=0, return_inverse=True)
    fibers = sparse.csr_matrix((values, (fiber_of.ravel(), coords[:, 2])), shape=(len(fiber_coords), shape[2]))
    C = np.random.default_rng(1).uniform(-1, 1, (RANK, shape[2]))
    CT = np.ascontiguousarray(C.T)
    bound = kernels["TTM"].bind(B=spf.pack("CSF3", data, name="B"), C=C)
    if gb is not None:
        fibers_gb, CT_gb = gb.io.from_scipy_sparse(fibers), gb.Matrix.from_dense(CT)

    def check(ours: spf.Tensor, expected: np.ndarray) -> str | None:
        """A has one dense row of k values per stored (i, j) fiber of B, in B's fiber order."""
        fields = ours.fields
        stored_i = np.repeat(fields["idx0"], np.diff(fields["ptr0"]))
        if not np.array_equal(np.stack([stored_i, fields["idx1"]], axis=1), fiber_coords.reshape(-1, 2)):
            return "the output's (i, j) fibers are not B's"
        return difference(np.asarray(fields["val"]).reshape(len(fiber_coords), RANK), expected)

    return Case("TTM CSF3", label, len(values), bound, lambda: ttm_scipy(fibers, CT), check,
                (lambda: fibers_gb.mxm(CT_gb).new()) if gb is not None else None)


# ----------------------------------------------------------------------------- measuring and tables

@dataclass
class Measurement:
    """A case's median times in seconds (None: not run) and the check's verdict."""

    kernel: str
    input: str
    nnz: int
    spf: float | None
    scipy: float | None
    graphblas: float | None
    problem: str | None  # None when spf's result matches the reference


def median_time(function: Callable[[], object], budget: float) -> float:
    """Median of repeated calls after one warm-up: at least MIN_REPEATS, then until ``budget`` s."""
    function()
    times: list[float] = []
    started = time.perf_counter()
    while len(times) < MIN_REPEATS or (time.perf_counter() - started < budget and len(times) < MAX_REPEATS):
        begin = time.perf_counter()
        function()
        times.append(time.perf_counter() - begin)
    return statistics.median(times)


def measure(case: Case, budget: float = DEMO_BUDGET) -> Measurement:
    """Check spf's result against the reference, then (if it agrees) time spf and the baselines."""
    problem = case.check(case.spf(), case.scipy())
    if problem:
        return Measurement(case.kernel, case.input, case.nnz, None, None, None, problem)
    graphblas = median_time(case.graphblas, budget) if case.graphblas else None
    return Measurement(case.kernel, case.input, case.nnz, median_time(case.spf, budget),
                       median_time(case.scipy, budget), graphblas, None)


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def ratio(baseline: float | None, ours: float | None) -> float | None:
    """baseline time / spf time (above 1: spf is faster), None when either is missing."""
    return baseline / ours if baseline is not None and ours else None


def table_rows(measurements: list[Measurement], graphblas_installed: bool) -> list[list[str]]:
    """The cells of COLUMNS for each measurement."""
    rows = []
    for m in measurements:
        scipy_ratio, gb_ratio = ratio(m.scipy, m.spf), ratio(m.graphblas, m.spf)
        gb_time = format_seconds(m.graphblas) if graphblas_installed else "not installed"
        rows.append([m.kernel, m.input, str(m.nnz), format_seconds(m.spf), format_seconds(m.scipy),
                     f"{scipy_ratio:.2f}" if scipy_ratio else "-", gb_time,
                     f"{gb_ratio:.2f}" if gb_ratio else "-", "FAILED" if m.problem else "ok"])
    return rows


def text_table(rows: list[list[str]]) -> str:
    """An aligned plain-text table: kernel and input left-aligned, the rest right-aligned."""
    widths = [max(len(row[c]) for row in [list(COLUMNS), *rows]) for c in range(len(COLUMNS))]
    return "\n".join("  ".join(cell.ljust(w) if c < 2 else cell.rjust(w)
                               for c, (cell, w) in enumerate(zip(row, widths))).rstrip()
                     for row in [list(COLUMNS), *rows])


def report_failures(measurements: list[Measurement], say: Callable[[str], None]) -> int:
    """Print each failed check; 1 if there was one, else 0."""
    failed = [m for m in measurements if m.problem]
    for m in failed:
        say(f"check failed: {m.kernel} on {m.input}: {m.problem}")
    return 1 if failed else 0


# ----------------------------------------------------------------------------- the demo

def run(paths: list[str] | None = None, layout: str | None = None, grid: int = 64,
        stream: TextIO | None = None) -> int:
    """Compile the demo's kernels, run them on the built-in inputs (a ``grid`` x ``grid``
    Laplacian and a random tensor) or on ``paths`` (.mtx and .tns files), check and time
    them, and print a table to ``stream`` (default stdout).  ``layout``: A's layout in SpMV
    (default CSR).  Returns 0 when every check passes, 1 otherwise; bad input raises
    :class:`spf.SpfError`."""
    stream = stream or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    spmv_layout = matrix_layout(layout or "CSR")
    if paths:
        matrices, tensors = read_inputs(paths)
    else:
        if grid < 1:
            raise spf.SpfError("grid must be at least 1")
        count = max(1, round(grid ** 3 * TENSOR_DENSITY))
        matrices = [(f"Laplacian {grid}x{grid}", laplacian_2d(grid))]
        tensors = [(f"random {grid}^3", random_tensor((grid, grid, grid), count, seed=7))]
    for label, matrix in matrices:
        say(f"matrix {label}: {matrix.shape[0]} x {matrix.shape[1]}, {matrix.nnz} nonzeros")
    for label, (_, values, shape) in tensors:
        say(f"tensor {label}: {' x '.join(map(str, shape))}, {len(values)} nonzeros")

    started = time.perf_counter()
    kernels = compile_kernels(spmv_layout)
    say(f"compiled {len(kernels)} kernels in {time.perf_counter() - started:.1f} s "
        "(the C is cached in the user cache directory)")
    gb = serial_graphblas()
    cases = [case for label, matrix in matrices
             for case in matrix_cases(kernels, label, matrix, gb)]
    cases += [tensor_case(kernels, label, data, gb) for label, data in tensors]
    measurements = [measure(case) for case in cases]

    say()
    say(text_table(table_rows(measurements, gb is not None)))
    say()
    say("times: medians of repeated runs; ratios: baseline time / spf time (above 1: spf is faster)")
    say("GraphBLAS: SuiteSparse:GraphBLAS through python-graphblas, 1 thread" if gb is not None else
        "GraphBLAS: not installed (pip install 'spf[bench]' to compare against it)")
    return report_failures(measurements, say)
