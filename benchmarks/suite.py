"""Issue 12's figures in one run, each printed beside its acceptance target.

Run: python benchmarks/suite.py [--quick] [--wait-idle SECONDS] [--data DIR]
         [--synthetic ROWSxNNZ] [--triad-log2 E] [--rank K] [--rounds N]
(full: a few minutes and 6 GB of memory; ``--quick``: under a minute, a smoke test on a
few real matrices and a 200k-row synthetic matrix, whose figures mean little)

One process, so every part sees the same machine; spf's kernels, the reference loops and
the triad share one OpenMP runtime (libgomp), whose thread count is set through
``omp_set_num_threads`` and checked inside a parallel region (parallel.py's ``OpenMP``).

1. **SpMV CSR on every real matrix, 1 and 2 threads.**  spf (``parallel=True``), the
   reference loop (``REFERENCE_SOURCE``: ``#pragma omp parallel for schedule(static)`` over
   rows, ``y[i]`` summed in a local and stored once, int32 indices: the shape TACO emits,
   compiled with spf's flags through ``spf.codegen.toolchain.compiler``), scipy's ``A @ x`` (serial) and
   GraphBLAS ``y << A.mxv(x)`` with ``nthreads`` 1 and 2 (python-graphblas, the ``bench``
   extra).  The GraphBLAS wheel brings its own OpenMP runtime, so every system is timed in
   blocks of calls (a block lasts about ``--block`` seconds), the systems' blocks
   interleaved in rounds; a time is the median over the rounds of a block's time per call.
2. **Bandwidth.**  A synthetic 4M-row matrix with 40M nonzeros, columns within 5000 of the
   diagonal (parallel.py's ``synthetic_matrix``): spf and the reference loop at 2 threads
   against a STREAM triad at 2 threads (3 x 2^27 doubles), timed in the same rounds;
   bandwidth = bytes / time with parallel.py's byte counts.
3. **COO SpMV with a reduction** (its row loop carries one), on the same 40M-nonzero
   matrix: the serial kernel against ``parallel=True`` at 2 threads (and, printed beside
   it, the recipe ``parallelize("pA", reduction="privatize", schedule="static")``).
4. **SDDMM** ``A(i,j) = B(i,j) * C(i,k) * D(k,j)`` (A sharing B's CSR arrays, K = 32) on
   every real matrix at 1 thread: spf (``parallel=False``) against the loop TACO emits with
   ``reorder(i,j,k)`` (``REFERENCE_SOURCE``'s ``sddmm_reference``).
5. **Contention.**  ``parallel=True`` SpMV (2 threads) on the largest real matrix against
   the serial kernel, both timed while one CPU-bound process (a Python busy loop started
   here) runs beside them; also both on the machine as it was before.
6. **Around the kernel.**  SpMSpV (A CSR, x SV with 10 nonzeros, ``find="hashmap"``, the
   find with a table, and ``find="auto"``) on random matrices of 40k and 4M columns: a
   table cleared over the column range makes the wide one slower.  Then call_path.py's
   call overheads (``k(A=tensor, x)``, ``k(A=scipy_csr, x)``) on the largest real matrix
   and its warm compiles in new processes.

Every result is checked against scipy / numpy before it is timed (an AssertionError
stops the run).  Ratios are geometric means over the matrices.  The machine should be
idle (``--wait-idle``); the CPUs other processes used during each part are printed.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import call_path
import spf
import spmspv_state
from common import geometric_mean, interleaved_blocks, serial_graphblas
from parallel import (BAND, DATA, TRIAD_SOURCE, Load, OpenMP, matrix_fields, output_values, pack_matrix,
                      sddmm_reference, synthetic_matrix)
from spf.codegen.toolchain.compiler import build_shared_library, load_function

SPMV = "y(i) = A(i,j) * x(j)"
SDDMM = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
CSR_SPMV = {"A": "CSR", "x": "Dense", "y": "Dense"}
COO_SPMV = {"A": "COO", "x": "Dense", "y": "Dense"}
SDDMM_LAYOUTS = {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}
QUICK_MATRICES = ("BlogCatalog3", "cage10", "p2p-Gnutella24", "bcsstk13", "power", "west0479")

REFERENCE_SOURCE = r"""
#include <stdint.h>

/* SpMV CSR as TACO emits it with parallelize(i, CPUThread, NoRaces), schedule static */
void spmv_reference(int32_t rows, const int32_t * restrict pos, const int32_t * restrict crd,
                    const double * restrict vals, const double * restrict x, double * restrict y)
{
  #pragma omp parallel for schedule(static)
  for (int32_t i = 0; i < rows; i++) {
    double tjy_val = 0.0;
    for (int32_t jA = pos[i]; jA < pos[i + 1]; jA++) {
      int32_t j = crd[jA];
      tjy_val += vals[jA] * x[j];
    }
    y[i] = tjy_val;
  }
}

/* SDDMM A(i,j) = B(i,j) * C(i,k) * D(k,j) as TACO emits it with reorder(i,j,k), serial */
void sddmm_reference(int32_t rows, int32_t columns, int32_t rank, const int32_t * restrict pos,
                     const int32_t * restrict crd, const double * restrict B_vals,
                     const double * restrict C_vals, const double * restrict D_vals, double * restrict A_vals)
{
  for (int32_t i = 0; i < rows; i++) {
    for (int32_t jB = pos[i]; jB < pos[i + 1]; jB++) {
      int32_t j = crd[jB];
      double tkA_val = 0.0;
      for (int32_t k = 0; k < rank; k++) {
        int32_t kC = i * rank + k;
        int32_t kD = k * columns + j;
        tkA_val += C_vals[kC] * D_vals[kD];
      }
      A_vals[jB] = B_vals[jB] * tkA_val;
    }
  }
}
"""

BUSY_LOOP = "while True:\n    pass\n"


@dataclass
class Config:
    """Sizes and timing of a run."""

    synthetic_rows: int = 4_000_000
    synthetic_nnz: int = 40_000_000
    triad_log2: int = 27
    rank: int = 32
    rounds: int = 11  # interleaved rounds per real matrix
    block: float = 0.01  # seconds of calls in one block
    big_rounds: int = 7  # rounds on the 40M-nonzero matrix (one call per block)
    contention_rounds: int = 15
    threads: int = 2
    spmspv_columns: tuple[int, int] = (40_000, 4_000_000)
    spmspv_rows: int = 2000
    spmspv_nnz: int = 200_000
    compile_processes: int = 4  # new processes per kernel; the first one's compile is not counted


QUICK = Config(synthetic_rows=200_000, synthetic_nnz=2_000_000, triad_log2=22, rounds=7, block=0.004,
               big_rounds=5, contention_rounds=7, compile_processes=2)


@dataclass
class Figure:
    """One acceptance figure: ``value`` against ``target`` (met when value >= target, or <= when
    ``at_most``)."""

    name: str
    value: float
    target: float
    at_most: bool = False
    note: str = ""

    @property
    def met(self) -> bool:
        return self.value <= self.target if self.at_most else self.value >= self.target

    def line(self) -> str:
        sign = "<=" if self.at_most else ">="
        verdict = "met" if self.met else "NOT met"
        note = f"  ({self.note})" if self.note else ""
        return f"  {self.name:<80} {self.value:7.2f}   target {sign} {self.target:<5g} {verdict}{note}"


@dataclass
class Run:
    """What a run found: the acceptance figures and the per-matrix ratios behind them."""

    figures: list[Figure] = field(default_factory=list)
    ratios: dict[str, dict[str, float]] = field(default_factory=dict)  # figure -> matrix -> ratio

    def add(self, key: str, matrix: str, ratio: float) -> None:
        self.ratios.setdefault(key, {})[matrix] = ratio

    def geometric_mean(self, key: str) -> float:
        return geometric_mean(list(self.ratios.get(key, {}).values()))


# ----------------------------------------------------------------------------- timing

def block_medians(systems: dict, rounds: int, block: float) -> dict[str, float]:
    """Median time per call of each system, timed in blocks of calls interleaved in rounds
    (common.interleaved_blocks). ``systems``: name -> (setup, function); ``setup`` (thread
    counts) runs before each block; a block repeats the call as often as fills ``block``
    seconds (once at least, 10,000 at most)."""
    return interleaved_blocks({name: function for name, (_, function) in systems.items()}, rounds, block,
                              setups={name: setup for name, (setup, _) in systems.items()}, most=10_000)


# ----------------------------------------------------------------------------- the systems

def pointer(array: np.ndarray, c_type):
    return array.ctypes.data_as(ctypes.POINTER(c_type))


class References:
    """The reference loops and the triad, compiled with spf's flags, and the OpenMP control."""

    def __init__(self) -> None:
        library = build_shared_library(REFERENCE_SOURCE, name="suite_reference")
        int_p, double_p = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_double)
        self.spmv = load_function(library, "spmv_reference",
                                  [ctypes.c_int32, int_p, int_p, double_p, double_p, double_p], None)
        self.sddmm = load_function(library, "sddmm_reference", [ctypes.c_int32] * 3 + [int_p, int_p] +
                                   [double_p] * 4, None)
        triad = build_shared_library(TRIAD_SOURCE, name="triad")
        triad_arguments = [double_p, double_p, double_p, ctypes.c_double, ctypes.c_long]
        self.triad = load_function(triad, "triad", triad_arguments, None)
        self.omp = OpenMP(load_function(triad, "threads_in_parallel", [], ctypes.c_int))

    def spmv_call(self, matrix: sparse.csr_matrix, x: np.ndarray, y: np.ndarray):
        arguments = (matrix.shape[0], pointer(matrix.indptr, ctypes.c_int32), pointer(matrix.indices, ctypes.c_int32),
                     pointer(matrix.data, ctypes.c_double), pointer(x, ctypes.c_double), pointer(y, ctypes.c_double))
        return lambda: self.spmv(*arguments)

    def sddmm_call(self, matrix: sparse.csr_matrix, C: np.ndarray, D: np.ndarray, A: np.ndarray):
        arguments = (matrix.shape[0], matrix.shape[1], C.shape[1], pointer(matrix.indptr, ctypes.c_int32),
                     pointer(matrix.indices, ctypes.c_int32), pointer(matrix.data, ctypes.c_double),
                     pointer(C, ctypes.c_double), pointer(D, ctypes.c_double), pointer(A, ctypes.c_double))
        return lambda: self.sddmm(*arguments)

    def threads(self, count: int):
        return lambda: self.omp.set_threads(count)


def graphblas_threads(gb, count: int):
    def setup() -> None:
        gb.ss.config["nthreads"] = count
    return setup


def no_setup() -> None:
    pass


def spmv_bytes(matrix: sparse.csr_matrix) -> int:
    """parallel.py's lower bound on an SpMV's traffic: values and column indices, row
    pointers, y written once, x read once."""
    rows, cols = matrix.shape
    return matrix.nnz * 12 + (rows + 1) * 4 + rows * 8 + cols * 8


def check(label: str, got, expected: np.ndarray) -> None:
    got = np.asarray(got, dtype=float).ravel()
    expected = np.asarray(expected, dtype=float).ravel()
    scale = 1e-9 * max(1.0, float(np.abs(expected).max(initial=0.0)))
    if got.shape != expected.shape or not np.allclose(got, expected, rtol=1e-9, atol=scale):
        error = np.max(np.abs(got - expected)) if got.shape == expected.shape else f"shape {got.shape}"
        raise AssertionError(f"{label}: result differs from the reference (max error {error})")


def expected_spmv(matrix: sparse.csr_matrix, x: np.ndarray) -> np.ndarray:
    return matrix @ x


def expected_sddmm(matrix: sparse.csr_matrix, C: np.ndarray, D: np.ndarray) -> np.ndarray:
    return sddmm_reference(matrix, C, D)


# ----------------------------------------------------------------------------- inputs

def as_csr(matrix) -> sparse.csr_matrix:
    """Sorted, duplicate-free CSR with float64 values and int32 indices (the layout's and the reference's)."""
    matrix = sparse.csr_matrix(matrix, dtype=np.float64)
    matrix.sum_duplicates()
    matrix.sort_indices()
    matrix.indptr = matrix.indptr.astype(np.int32, copy=False)
    matrix.indices = matrix.indices.astype(np.int32, copy=False)
    return matrix


def real_matrices(directory: Path, only=None) -> list[tuple[str, sparse.csr_matrix]]:
    """The real matrices (``only``: these names), by name."""
    paths = sorted(directory.glob("*.mtx"))
    if only is not None:
        paths = [p for p in paths if p.stem in only]
    return [(path.stem, as_csr(scipy.io.mmread(path))) for path in paths]


# ----------------------------------------------------------------------------- the parts

def spmv_real(run: Run, references: References, gb, matrices, config: Config) -> None:
    """Part 1: SpMV CSR at 1 and 2 threads on every real matrix."""
    kernel = spf.compile(SPMV, CSR_SPMV, parallel=True)
    threads = config.threads
    print(f"\n1. SpMV CSR, real matrices; us per call (medians of {config.rounds} interleaved rounds of blocks);"
          f"\n   ref = the reference loop (OpenMP static over rows, TACO's shape); ratios = other time / spf time")
    header = (f"  {'matrix':<26} {'nnz':>8} {'spf 1t':>8} {'spf 2t':>8} {'ref 1t':>8} {'ref 2t':>8} {'scipy':>8}"
              f"{'GB 1t':>8} {'GB 2t':>8}  ref/spf 1t  2t   spf 2t/1t")
    print(header)
    for name, matrix in matrices:
        x = np.random.default_rng(0).uniform(-1, 1, matrix.shape[1])
        expected = expected_spmv(matrix, x)
        bound = kernel.bind(A=spf.pack("CSR", matrix, name="A"), x=x)
        y = np.empty(matrix.shape[0])
        reference = references.spmv_call(matrix, x, y)
        for count in (1, threads):
            references.omp.verify(count)
            check(f"spf SpMV {name}, {count} threads", bound(), expected)
            y.fill(np.nan)
            reference()
            check(f"reference SpMV {name}, {count} threads", y, expected)
        systems = {"spf 1t": (references.threads(1), bound), "spf 2t": (references.threads(threads), bound),
                   "ref 1t": (references.threads(1), reference), "ref 2t": (references.threads(threads), reference),
                   "scipy": (no_setup, lambda: matrix @ x)}
        if gb is not None:
            A_gb, x_gb = gb.io.from_scipy_sparse(matrix), gb.Vector.from_dense(x)
            y_gb = gb.Vector(float, matrix.shape[0])
            for count in (1, threads):
                gb.ss.config["nthreads"] = count
                y_gb << A_gb.mxv(x_gb)
                check(f"GraphBLAS SpMV {name}, {count} threads", y_gb.to_dense(fill_value=0.0), expected)

            def graphblas(A_gb=A_gb, x_gb=x_gb, y_gb=y_gb):
                y_gb << A_gb.mxv(x_gb)
            systems["GB 1t"] = (graphblas_threads(gb, 1), graphblas)
            systems["GB 2t"] = (graphblas_threads(gb, threads), graphblas)
        times = block_medians(systems, config.rounds, config.block)
        run.add("ref/spf 1t", name, times["ref 1t"] / times["spf 1t"])
        run.add("ref/spf 2t", name, times["ref 2t"] / times["spf 2t"])
        run.add("spf 1t/2t", name, times["spf 1t"] / times["spf 2t"])
        run.add("ref 1t/2t", name, times["ref 1t"] / times["ref 2t"])
        run.add("scipy/spf 1t", name, times["scipy"] / times["spf 1t"])
        if gb is not None:
            run.add("GB/spf 1t", name, times["GB 1t"] / times["spf 1t"])
            run.add("GB/spf 2t", name, times["GB 2t"] / times["spf 2t"])
        cells = "".join(f"{times[key] * 1e6:8.1f}" if key in times else f"{'-':>8}"
                        for key in ("spf 1t", "spf 2t", "ref 1t", "ref 2t", "scipy", "GB 1t", "GB 2t"))
        print(f"  {name:<26} {matrix.nnz:>8} {cells}  {times['ref 1t'] / times['spf 1t']:9.2f} "
              f"{times['ref 2t'] / times['spf 2t']:5.2f} {times['spf 1t'] / times['spf 2t']:9.2f}", flush=True)
    print("  geometric means: " + "; ".join(f"{key} {run.geometric_mean(key):.2f}" for key in run.ratios))
    worst = sorted(run.ratios["ref/spf 1t"].items(), key=lambda item: item[1])[:5]
    print("  lowest ref/spf at 1 thread: " + ", ".join(f"{name} {ratio:.2f}" for name, ratio in worst))
    run.figures += [
        Figure("SpMV CSR, real matrices, 1 thread: reference loop / spf", run.geometric_mean("ref/spf 1t"), 1.0,
               note=f"geomean of {len(matrices)}; lowest {worst[0][0]} {worst[0][1]:.2f}"),
        Figure(f"SpMV CSR, real matrices, {threads} threads: reference loop / spf", run.geometric_mean("ref/spf 2t"),
               1.0, note=f"geomean of {len(matrices)}")]


def bandwidth_and_coo(run: Run, references: References, config: Config) -> None:
    """Parts 2 and 3 on one banded synthetic matrix."""
    threads = config.threads
    rows, nnz = config.synthetic_rows, config.synthetic_nnz
    started = time.perf_counter()
    banded = as_csr(synthetic_matrix(rows, nnz, seed=1, band=BAND))
    print(f"\n2. bandwidth: synthetic {rows} x {rows}, {banded.nnz} nonzeros within {BAND} of the diagonal "
          f"(built in {time.perf_counter() - started:.1f} s); {threads} threads; triad 3 x 2^{config.triad_log2} "
          f"doubles in the same rounds ({config.big_rounds}, one call each)")
    x = np.random.default_rng(0).uniform(-1, 1, rows)
    expected = expected_spmv(banded, x)
    A = pack_matrix("CSR", banded, from_fields=True)
    parallel_csr = spf.compile(SPMV, CSR_SPMV, parallel=True).bind(A=A, x=x)
    y = np.empty(rows)
    reference = references.spmv_call(banded, x, y)
    references.omp.verify(threads)
    check("spf SpMV, banded", parallel_csr(), expected)
    reference()
    check("reference SpMV, banded", y, expected)
    n = 1 << config.triad_log2
    a, b, c = np.zeros(n), np.full(n, 1.0), np.full(n, 2.0)
    triad_arguments = (pointer(a, ctypes.c_double), pointer(b, ctypes.c_double), pointer(c, ctypes.c_double), 3.0, n)
    at_threads = references.threads(threads)
    times = block_medians({"triad": (at_threads, lambda: references.triad(*triad_arguments)),
                           "spf": (at_threads, parallel_csr), "ref": (at_threads, reference)},
                          config.big_rounds, block=0.0)
    assert a[0] == 7.0 and a[-1] == 7.0
    moved = spmv_bytes(banded)
    triad_rate = 3 * 8 * n / times["triad"]
    rates = {key: moved / times[key] for key in ("spf", "ref")}
    for key, label in (("spf", "spf parallel=True"), ("ref", "reference loop")):
        print(f"  {label:<18} {times[key] * 1e3:8.2f} ms {rates[key] / 1e9:6.2f} GB/s   "
              f"triad {triad_rate / 1e9:6.2f} GB/s   ratio {rates[key] / triad_rate:.2f}")
    run.figures.append(Figure(f"SpMV CSR banded {nnz // 1_000_000}M nonzeros, {threads} threads: "
                              "fraction of the triad", rates["spf"] / triad_rate, 0.5,
                              note=f"reference loop {rates['ref'] / triad_rate:.2f}"))
    del a, b, c, triad_arguments, parallel_csr, A

    print(f"\n3. COO SpMV, whose row loop carries a reduction, on the same matrix: the serial kernel against "
          f"parallel=True and against\n   parallelize('pA', reduction='privatize', schedule='static'), at "
          f"{threads} threads ({config.big_rounds} rounds)")
    fields = matrix_fields("COO", banded)
    del banded
    coo = spf.pack("COO", fields, name="A")
    serial = spf.compile(SPMV, COO_SPMV, parallel=False).bind(A=coo, x=x)
    parallel = spf.compile(SPMV, COO_SPMV, parallel=True).bind(A=coo, x=x)
    recipe = spf.recipe(SPMV, COO_SPMV).parallelize("pA", reduction="privatize", schedule="static")
    privatized = spf.compile(recipe.expression, dict(recipe.layouts), schedule=recipe).bind(A=coo, x=x)
    check("spf COO SpMV serial", serial(), expected)
    for count in (1, threads):
        references.omp.verify(count)
        check(f"spf COO SpMV parallel=True, {count} threads", parallel(), expected)
        check(f"spf COO SpMV privatized, {count} threads", privatized(), expected)
    times = block_medians({"serial": (no_setup, serial), "parallel": (at_threads, parallel),
                           "privatized": (at_threads, privatized)}, config.big_rounds, block=0.0)
    print(f"  serial {times['serial'] * 1e3:8.2f} ms   parallel=True {times['parallel'] * 1e3:8.2f} ms   "
          f"privatized {times['privatized'] * 1e3:8.2f} ms")
    run.figures.append(Figure(f"SpMV COO parallel=True, {nnz // 1_000_000}M nonzeros: serial / {threads} threads",
                              times["serial"] / times["parallel"], 1.5,
                              note=f"privatized copies of y: {times['serial'] / times['privatized']:.2f}"))


def sddmm_real(run: Run, references: References, matrices, config: Config) -> None:
    """Part 4: SDDMM at 1 thread against the loop TACO emits."""
    kernel = spf.compile(SDDMM, SDDMM_LAYOUTS, share={"A": "B"}, parallel=False)
    print(f"\n4. SDDMM, rank {config.rank}, 1 thread, real matrices; ms per call; ratio = reference / spf")
    print(f"  {'matrix':<26} {'nnz':>8} {'spf':>9} {'ref':>9} {'ratio':>6}")
    references.omp.set_threads(1)
    for name, matrix in matrices:
        rng = np.random.default_rng(3)
        C = rng.uniform(-1, 1, (matrix.shape[0], config.rank))
        D = rng.uniform(-1, 1, (config.rank, matrix.shape[1]))
        expected = expected_sddmm(matrix, C, D)
        bound = kernel.bind(B=spf.pack("CSR", matrix, name="B"), C=C, D=D)
        check(f"spf SDDMM {name}", output_values(bound()), expected)
        A = np.full(matrix.nnz, np.nan)
        reference = references.sddmm_call(matrix, C, D, A)
        reference()
        check(f"reference SDDMM {name}", A, expected)
        times = block_medians({"spf": (no_setup, bound), "ref": (no_setup, reference)}, config.rounds, config.block)
        run.add("SDDMM ref/spf", name, times["ref"] / times["spf"])
        print(f"  {name:<26} {matrix.nnz:>8} {times['spf'] * 1e3:9.3f} {times['ref'] * 1e3:9.3f} "
              f"{times['ref'] / times['spf']:6.2f}", flush=True)
    worst = min(run.ratios["SDDMM ref/spf"].items(), key=lambda item: item[1])
    run.figures.append(Figure(f"SDDMM K={config.rank}, real matrices, 1 thread: reference loop / spf",
                              run.geometric_mean("SDDMM ref/spf"), 1.0,
                              note=f"geomean of {len(matrices)}; lowest {worst[0]} {worst[1]:.2f}"))


def contention(run: Run, references: References, matrices, config: Config) -> None:
    """Part 5: parallel=True SpMV beside one CPU-bound process, against the serial kernel."""
    name, matrix = max(matrices, key=lambda item: item[1].nnz)
    threads = config.threads
    x = np.random.default_rng(0).uniform(-1, 1, matrix.shape[1])
    expected = expected_spmv(matrix, x)
    A = spf.pack("CSR", matrix, name="A")
    serial = spf.compile(SPMV, CSR_SPMV, parallel=False).bind(A=A, x=x)
    parallel = spf.compile(SPMV, CSR_SPMV, parallel=True).bind(A=A, x=x)
    check(f"spf SpMV serial {name}", serial(), expected)
    references.omp.verify(threads)
    check(f"spf SpMV parallel {name}", parallel(), expected)
    systems = {"serial": (no_setup, serial), "parallel": (references.threads(threads), parallel)}
    quiet = block_medians(systems, config.contention_rounds, config.block)
    busy = subprocess.Popen([sys.executable, "-c", BUSY_LOOP])
    try:
        time.sleep(0.2)  # the busy process is running
        loaded = block_medians(systems, config.contention_rounds, config.block)
    finally:
        busy.kill()
        busy.wait()
    print(f"\n5. contention: SpMV CSR on {name} ({matrix.nnz} nonzeros), parallel=True at {threads} threads "
          f"against the serial kernel; ms per call")
    print(f"  as the machine was:        serial {quiet['serial'] * 1e3:8.3f}   parallel {quiet['parallel'] * 1e3:8.3f}")
    print(f"  beside a CPU-bound process: serial {loaded['serial'] * 1e3:8.3f}   "
          f"parallel {loaded['parallel'] * 1e3:8.3f}")
    run.figures.append(Figure(f"SpMV parallel=True beside a busy process ({name}): time / serial time",
                              loaded["parallel"] / loaded["serial"], 1.5, at_most=True,
                              note=f"/ serial time on the machine as it was: "
                                   f"{loaded['parallel'] / quiet['serial']:.2f}"))


def around_the_kernel(run: Run, references: References, matrices, config: Config) -> None:
    """Part 6: SpMSpV's find state against the column count, the call path and warm compiles."""
    references.omp.set_threads(1)
    narrow, wide = config.spmspv_columns
    print(f"\n6. SpMSpV y = A x, A CSR with {config.spmspv_rows} rows and {config.spmspv_nnz} nonzeros at random, "
          f"x with 10 nonzeros: {narrow} against {wide} columns; ms per call")
    times = {}
    for find in ("hashmap", "auto"):
        kernel = spf.compile(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, find=find)
        for columns in (narrow, wide):
            matrix = as_csr(spmspv_state.random_matrix(config.spmspv_rows, columns, config.spmspv_nnz, seed=4))
            x = spmspv_state.sparse_x(columns, 10, np.random.default_rng(5)).toarray()
            bound = kernel.bind(A=spf.pack("CSR", matrix, name="A"), x=spf.pack("SV", x, name="x"))
            check(f"spf SpMSpV find={find}, {columns} columns", bound(), expected_spmv(matrix, x))
            times[find, columns] = block_medians({"spmspv": (no_setup, bound)}, config.rounds, config.block)["spmspv"]
        print(f"  find={find:<8} {times[find, narrow] * 1e3:8.3f} {times[find, wide] * 1e3:8.3f}   "
              f"growth {times[find, wide] / times[find, narrow]:.2f}")
    run.figures.append(Figure(f"SpMSpV find=hashmap, x with 10 nonzeros: time at {wide} / at {narrow} columns",
                              times["hashmap", wide] / times["hashmap", narrow], 1.5, at_most=True,
                              note=f"no growth; 1.5 is this suite's threshold; find=auto "
                                   f"{times['auto', wide] / times['auto', narrow]:.2f}"))

    name, matrix = max(matrices, key=lambda item: item[1].nnz)
    print("\n   the call path and compiles (benchmarks/call_path.py):")
    medians = call_path.call_times(name, matrix, rounds=config.rounds)
    run.figures += [
        Figure(f"k(A=tensor, x) / bound call, SpMV on {name}", medians["k(A=tensor, x)"] / medians["bound call"], 1.1,
               at_most=True),
        Figure(f"k(A=scipy_csr, x) / scipy A @ x, SpMV on {name}",
               medians["k(A=scipy csr, x)"] / medians["scipy A @ x"], 1.1, at_most=True,
               note="issue 30: <= 1.1 on ~670k nonzeros"),
        Figure(f"spf.einsum('ij,j->i', scipy_csr, x) / scipy A @ x, SpMV on {name}",
               medians["spf.einsum(scipy)"] / medians["scipy A @ x"], 1.1, at_most=True)]
    compiles = call_path.warm_compiles(config.compile_processes)
    slowest = max((key for key in compiles if key != "repeated"), key=compiles.get)
    run.figures += [
        Figure("spf.compile warm in a new process, ms (slowest of SpMV, SpMSpV, TTM, MTTKRP)",
               compiles[slowest] * 1e3, 20.0, at_most=True, note=slowest),
        Figure("spf.compile repeated in one process, ms", compiles["repeated"] * 1e3, 1.0, at_most=True)]


def run_suite(config: Config, matrices: list[tuple[str, sparse.csr_matrix]], gb=None,
              load: Load | None = None) -> Run:
    """Every part on ``matrices`` (sorted, int32 CSR), the figures printed at the end."""
    references = References()
    before = references.omp.library.omp_get_max_threads()
    graphblas_before = gb.ss.config["nthreads"] if gb is not None else None
    load = load or Load()
    run = Run()
    try:
        references.omp.verify(1)
        references.omp.verify(config.threads)
        spmv_real(run, references, gb, matrices, config)
        load.report("part 1")
        bandwidth_and_coo(run, references, config)
        load.report("parts 2 and 3")
        sddmm_real(run, references, matrices, config)
        load.report("part 4")
        contention(run, references, matrices, config)
        load.report("part 5 (the busy process included)")
        around_the_kernel(run, references, matrices, config)
        load.report("part 6 (the compiles' processes included)")
    finally:
        references.omp.set_threads(before)
        if gb is not None:
            gb.ss.config["nthreads"] = graphblas_before
    print("\nacceptance figures of issue 12 (medians, geometric means; one run):")
    for figure in run.figures:
        print(figure.line())
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"a smoke test in under a minute: {', '.join(QUICK_MATRICES)} and a 2M-nonzero matrix")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--synthetic", default=None, help="ROWSxNNZ of the banded matrix (default 4000000x40000000)")
    parser.add_argument("--triad-log2", type=int, default=None, help="triad arrays of 2^E doubles (default 27)")
    parser.add_argument("--rank", type=int, default=None, help="SDDMM's K (default 32)")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds per real matrix (default 11)")
    parser.add_argument("--block", type=float, default=None, help="seconds of calls per timed block (default 0.01)")
    parser.add_argument("--wait-idle", type=float, default=0.0,
                        help="first wait up to this many seconds for other processes to leave the CPUs idle")
    arguments = parser.parse_args()
    config = QUICK if arguments.quick else Config()
    if arguments.synthetic:
        rows, nnz = (int(v) for v in arguments.synthetic.lower().split("x"))
        config = replace(config, synthetic_rows=rows, synthetic_nnz=nnz)
    for option, name in (("triad_log2", "triad_log2"), ("rank", "rank"), ("rounds", "rounds"), ("block", "block")):
        if getattr(arguments, option) is not None:
            config = replace(config, **{name: getattr(arguments, option)})
    # before libgomp loads (parallel.py): each thread's privatized copy of y lives on its stack
    os.environ.setdefault("OMP_STACKSIZE", "512M")
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))
    directory = arguments.data / "matrices"
    if not directory.is_dir():
        sys.exit(f"no real matrices at {directory}")
    started = time.perf_counter()
    matrices = real_matrices(directory, QUICK_MATRICES if arguments.quick else None)
    print(f"read {len(matrices)} real matrices in {time.perf_counter() - started:.1f} s; "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}, "
          f"GOMP_SPINCOUNT={os.environ.get('GOMP_SPINCOUNT', '(unset)')}")
    gb = serial_graphblas()
    load = Load()
    if arguments.wait_idle:
        load.wait_until_idle(arguments.wait_idle)
    run_suite(config, matrices, gb, load)


if __name__ == "__main__":
    main()
