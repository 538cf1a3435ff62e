"""spf's OpenMP kernels: serial against 1 and 2 threads, and SpMV's bandwidth against a triad.

Run: python benchmarks/parallel.py [--wait-idle 600] [--matrices N] [--synthetic-matrix ROWSxNNZ]
         [--synthetic-tensor I,J,K,NNZ] [--triad-log2 E] [--default-stacks] [--quick]
(results/parallel.txt: ``--wait-idle 600``, about 6 minutes and 8 GB of memory)

Three parts, in one process (so the triad and the kernels see the same machine state):

1. **Triad bandwidth.** A STREAM-like triad ``a[i] = b[i] + s * c[i]`` over three
   arrays of 2^E doubles (default E = 27: 3 GiB, far beyond any cache), compiled with
   spf's flags through ``spf.codegen.toolchain.compiler``: a serial variant and an
   ``#pragma omp parallel for schedule(static)`` variant run with 1 and 2 threads.
   GB/s = 3 * 8 * n / time (two arrays read, one written; write-allocate traffic is
   not counted, as in STREAM).
2. **SpMV bandwidth.** ``y(i) = A(i,j) * x(j)`` with A in CSR and ``parallel=True`` on
   the largest real matrix (by nonzeros) and on two synthetic matrices built with numpy
   (default 4 M rows and columns and 40 M nonzeros, so that the 560 MB an SpMV moves
   exceed the 480 MiB L3 that lscpu reports here): one with uniformly random columns
   (every x access a likely cache miss: gather-bound, the worst case) and one with the
   columns within 5000 of the diagonal (x reused from cache: streaming, the best case).
   Achieved bandwidth = bytes / time with

       bytes = nnz * (8 + 4) + (rows + 1) * 4 + rows * 8 + cols * 8

   (values and column indices, row pointers, y written once, x read once: a lower
   bound on the traffic, since x is gathered and y is also zeroed first).  It is
   printed for the serial kernel and the parallel kernel at 1 and 2 threads, next to
   the triad's GB/s at the same thread count, timed in the same rounds, and their ratio;
   scipy's ``A @ x`` (serial) is timed alongside.  The 3 GiB triad between two SpMV calls
   evicts the matrix from the caches, so these SpMV times are from memory even for the
   small real matrix (part 3 times it with warm caches).
3. **Serial against 2 threads for each kernel.**  Each kernel is compiled twice,
   ``parallel=False`` (serial) and parallel (``parallel=True``; for COO, whose row loop
   carries a dependence, a recipe ``parallelize("pA", reduction="privatize")``), and
   the parallel one runs with 1 and 2 threads.  Kernels: SpMV with A in CSR, DCSR and
   COO; SpMSpV CSR x SV (x of density 0.01); SpMM ``C(i,j) = A(i,k) * B(k,j)`` (A CSR,
   B dense with 32 columns); SDDMM ``A(i,j) = B(i,j) * C(i,k) * D(k,j)`` (A sharing B's
   CSR arrays, rank 32) on the N largest real matrices (default 5; the three SpMV
   kernels also on the synthetic matrix with uniform columns); MTTKRP ``A(i,j) = B(i,k,l) * C(k,j) * D(l,j)``
   (B CSF3, rank 32) and TTM ``A(i,j,k) = B(i,j,l) * C(k,l)`` (A CSF3_DENSE_LAST
   sharing B's CSF3 arrays, rank 16) on every real order-3 tensor and on a synthetic
   tensor (default 2000 x 2000 x 20000 with 20 M nonzeros at uniformly random
   coordinates, packed with ``spf.pack("CSF3", (coords, values, shape))``).

Thread counts are set in the one OpenMP runtime the kernels use (libgomp, through
ctypes: ``omp_set_num_threads``) and checked twice: ``omp_get_max_threads`` and a
compiled function that returns ``omp_get_num_threads()`` inside a parallel region.

Every result (serial kernel, parallel kernel at 1 and 2 threads) is checked with
``np.allclose`` against scipy / numpy before timing.  Kernels run through bound
kernels (inputs packed once, only the C call timed).  The machine is shared and noisy,
so the variants compared (serial, 1 thread, 2 threads; triad and scipy in part 2) are
timed in interleaved rounds and each time is the median over the rounds.  Speedups are
serial time / 2-thread time, summarised per kernel as geometric means over the real
inputs (the synthetic inputs are shown separately).  The synthetic matrix is packed
from its scipy arrays as a dict of fields, which ``spf.pack`` validates against the
layout (lengths, assumptions, every property): packing 40 M coordinates would take
minutes per layout.

SpMV COO with ``reduction="privatize"`` compiles to ``reduction(+: y_vals[0:y_N0])``, and
GCC keeps each thread's copy of y on that thread's stack: with the default limits (8 MB
main stack, libgomp's default worker stacks) the kernel segfaults once y has more than
about 1 M doubles, as the synthetic matrix's 4 M rows do.  So the script raises
RLIMIT_STACK to its hard limit and sets OMP_STACKSIZE=512M before the OpenMP runtime
loads (``--default-stacks`` keeps the defaults).  Other processes on the machine take
CPUs from the 2-thread runs (a descheduled thread stalls the whole parallel loop), so
the script can wait for an idle machine (``--wait-idle SECONDS``) and prints, per part,
how many CPUs other processes kept busy.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from common import geometric_mean, sparse_vector
from spf.codegen.toolchain.compiler import build_shared_library, load_function

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"

SPMV = "y(i) = A(i,j) * x(j)"
SPMM = "C(i,j) = A(i,k) * B(k,j)"
SDDMM = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
MTTKRP = "A(i,j) = B(i,k,l) * C(k,j) * D(l,j)"
TTM = "A(i,j,k) = B(i,j,l) * C(k,l)"
SPMM_COLUMNS = 32
SDDMM_RANK = 32
MTTKRP_RANK = 32
TTM_RANK = 16
SPMSPV_DENSITY = 0.01
BAND = 5000  # the banded synthetic matrix: |column - row| <= BAND

TRIAD_SOURCE = r"""
#include <omp.h>

void triad(double * restrict a, const double * restrict b, const double * restrict c, double s, long n)
{
  #pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++)
    a[i] = b[i] + s * c[i];
}

void triad_serial(double * restrict a, const double * restrict b, const double * restrict c, double s, long n)
{
  for (long i = 0; i < n; i++)
    a[i] = b[i] + s * c[i];
}

int threads_in_parallel(void)
{
  int count = 0;
  #pragma omp parallel
  {
    #pragma omp single
    count = omp_get_num_threads();
  }
  return count;
}
"""


# ----------------------------------------------------------------------------- OpenMP

class OpenMP:
    """The OpenMP runtime of the kernels (libgomp, loaded once per process)."""

    def __init__(self, probe) -> None:
        self.library = ctypes.CDLL("libgomp.so.1")
        self.library.omp_set_num_threads.argtypes = [ctypes.c_int]
        self.library.omp_get_max_threads.restype = ctypes.c_int
        self.probe = probe  # a compiled function returning omp_get_num_threads() in a parallel region

    def set_threads(self, count: int) -> None:
        self.library.omp_set_num_threads(count)
        if self.library.omp_get_max_threads() != count:
            raise RuntimeError(f"omp_get_max_threads() is {self.library.omp_get_max_threads()}, not {count}")

    def verify(self, count: int) -> None:
        self.set_threads(count)
        seen = self.probe()
        if seen != count:
            raise RuntimeError(f"a parallel region runs {seen} threads after omp_set_num_threads({count})")


def large_stacks() -> str:
    """Room on the stacks for the per-thread copies of an output that a privatised reduction
    keeps there: RLIMIT_STACK raised to its hard limit (the main thread's stack grows up to
    it) and OMP_STACKSIZE=512M unless set.  Call it before libgomp is loaded (it reads
    OMP_STACKSIZE then); returns a line saying what was set."""
    os.environ.setdefault("OMP_STACKSIZE", "512M")
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))
    return (f"RLIMIT_STACK {'unlimited' if hard == resource.RLIM_INFINITY else hard}, "
            f"OMP_STACKSIZE={os.environ['OMP_STACKSIZE']}")


# ----------------------------------------------------------------------------- machine load

TICKS = os.sysconf("SC_CLK_TCK")


class Load:
    """CPU time other processes used (and the hypervisor stole) since the last :meth:`lap`."""

    def __init__(self) -> None:
        self.last = self._sample()

    @staticmethod
    def _sample() -> tuple[float, int, int, int]:
        with open("/proc/stat") as handle:
            user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in handle.readline().split()[1:9])
        with open("/proc/self/stat") as handle:
            own = handle.read().rsplit(")", 1)[1].split()
        return time.perf_counter(), user + nice + system + irq + softirq, steal, int(own[11]) + int(own[12])

    def lap(self) -> tuple[float, float]:
        """(CPUs kept busy by other processes, CPUs stolen), averaged since the last lap."""
        now = self._sample()
        wall = max(now[0] - self.last[0], 1e-9)
        others = ((now[1] - self.last[1]) - (now[3] - self.last[3])) / TICKS / wall
        stolen = (now[2] - self.last[2]) / TICKS / wall
        self.last = now
        return max(others, 0.0), stolen

    def report(self, part: str) -> None:
        others, stolen = self.lap()
        print(f"  [{part}: other processes kept {others:.2f} CPUs busy on average; steal {stolen:.2f} CPUs]",
              flush=True)

    def wait_until_idle(self, longest: float, threshold: float = 0.2, window: float = 5.0) -> None:
        """Wait (at most ``longest`` seconds) for a window in which other processes use < ``threshold`` CPUs."""
        started = time.perf_counter()
        self.lap()
        while True:
            time.sleep(window)
            others, _ = self.lap()
            waited = time.perf_counter() - started
            if others < threshold or waited >= longest:
                print(f"machine load before starting: other processes {others:.2f} CPUs over the last "
                      f"{window:.0f} s (waited {waited:.0f} s for < {threshold} CPUs)", flush=True)
                return


# ----------------------------------------------------------------------------- timing

def idle_load(data: Path | None, wait: float) -> Load:
    """How a benchmark on real data starts: ``data`` must be there (else it exits saying so),
    then it waits up to ``wait`` seconds for an idle machine; the load is measured from then."""
    if data is not None and not data.is_dir():
        sys.exit(f"no real data at {data}: this benchmark runs on ../shared/data")
    load = Load()
    if wait:
        load.wait_until_idle(wait)
    return load


def interleaved_medians(omp: OpenMP, variants: dict, budget: float, least: int, most: int = 200) -> dict:
    """Median time of each variant, timed in rounds (one call of every variant per round).

    ``variants``: name -> (threads or None, function).  Each is called once first (warm up).
    """
    for threads, function in variants.values():
        if threads:
            omp.set_threads(threads)
        function()
    times: dict[str, list[float]] = {name: [] for name in variants}
    started = time.perf_counter()
    rounds = 0
    while rounds < least or (time.perf_counter() - started < budget and rounds < most):
        for name, (threads, function) in variants.items():
            if threads:
                omp.set_threads(threads)
            begin = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - begin)
        rounds += 1
    return {name: statistics.median(values) for name, values in times.items()}


# ----------------------------------------------------------------------------- data

def matrix_header(path: Path) -> tuple[int, bool]:
    """(nonzeros after expanding a symmetric file, estimated; is symmetric) from the header."""
    with open(path) as handle:
        banner = handle.readline().lower()
        line = handle.readline()
        while line.startswith("%"):
            line = handle.readline()
    entries = int(line.split()[2])
    symmetric = "symmetric" in banner or "hermitian" in banner or "skew" in banner
    return (2 * entries if symmetric else entries), symmetric


def largest_matrices(directory: Path, count: int) -> list[tuple[str, sparse.csr_matrix]]:
    """The ``count`` real matrices with the most nonzeros, largest first, as CSR."""
    paths = sorted(directory.glob("*.mtx"), key=lambda p: -matrix_header(p)[0])[:count + 3]
    matrices = []
    for path in paths:
        matrix = sparse.csr_matrix(scipy.io.mmread(path))
        matrix.sum_duplicates()
        matrix.sort_indices()
        matrix.data = matrix.data.astype(np.float64)
        matrices.append((path.stem, matrix))
    matrices.sort(key=lambda item: -item[1].nnz)
    return matrices[:count]


def synthetic_matrix(rows: int, nnz: int, seed: int = 0, band: int | None = None) -> sparse.csr_matrix:
    """``rows`` x ``rows`` with ``nnz`` entries at random positions (duplicates summed): columns
    uniform over the whole row, or, with ``band``, within ``band`` of the diagonal."""
    rng = np.random.default_rng(seed)
    row = rng.integers(0, rows, nnz, dtype=np.int64)
    if band is None:
        col = rng.integers(0, rows, nnz, dtype=np.int64)
    else:
        col = np.clip(row + rng.integers(-band, band + 1, nnz), 0, rows - 1)
    values = rng.uniform(0.5, 1.5, nnz)
    matrix = sparse.csr_matrix((values, (row, col)), shape=(rows, rows))
    del row, col, values
    matrix.sum_duplicates()
    matrix.sort_indices()
    return matrix


def matrix_fields(layout: str, matrix: sparse.csr_matrix) -> dict:
    """The fields of CSR, DCSR or COO, made from a sorted, duplicate-free scipy CSR matrix."""
    rows, cols = matrix.shape
    indptr, indices, data = matrix.indptr, matrix.indices, matrix.data
    if layout == "CSR":
        return dict(numRows=rows, numCols=cols, nnz=matrix.nnz, rowPtr=indptr, colIdx=indices, data=data)
    if layout == "DCSR":
        nonempty = np.flatnonzero(np.diff(indptr))
        return dict(numRows=rows, numCols=cols, nnzRows=len(nonempty), nnz=matrix.nnz, rowIdx=nonempty,
                    rowPtr=np.append(indptr[nonempty], indptr[-1]), colIdx=indices, data=data)
    if layout == "COO":
        row = np.repeat(np.arange(rows, dtype=np.int32), np.diff(indptr))
        return dict(numRows=rows, numCols=cols, nnz=matrix.nnz, row=row, col=indices, val=data)
    raise ValueError(layout)


def pack_matrix(layout: str, matrix: sparse.csr_matrix, from_fields: bool):
    if from_fields:
        return spf.pack(layout, matrix_fields(layout, matrix), name="A")
    return spf.pack(layout, matrix, name="A")


def real_tensors(directory: Path) -> list[tuple[str, tuple]]:
    """Every order-3 real tensor as (name, (coords, values, shape)), by nonzeros."""
    tensors = []
    for path in sorted(directory.glob("*.tns")):
        data = spf.read_tns(path)
        if len(data[2]) == 3:
            tensors.append((path.stem, data))
    tensors.sort(key=lambda item: len(item[1][1]))
    return tensors


def synthetic_tensor(shape: tuple[int, int, int], nnz: int, seed: int = 0) -> tuple:
    """``nnz`` uniformly random distinct coordinates (sorted), values in [0.5, 1.5)."""
    rng = np.random.default_rng(seed)
    total = int(np.prod(shape, dtype=np.int64))

    def distinct(values: np.ndarray) -> np.ndarray:  # sorted and deduplicated (np.unique is far slower here)
        values = np.sort(values)
        return values[np.concatenate([[True], values[1:] != values[:-1]])] if len(values) else values

    linear = distinct(rng.integers(0, total, nnz, dtype=np.int64))
    while len(linear) < nnz:  # top up the few duplicates
        linear = distinct(np.concatenate([linear, rng.integers(0, total, nnz - len(linear), dtype=np.int64)]))
    coords = np.stack(np.unravel_index(linear, shape), axis=1).astype(np.int64)
    return coords, rng.uniform(0.5, 1.5, len(linear)), tuple(shape)


# ----------------------------------------------------------------------------- references

def sddmm_reference(B: sparse.csr_matrix, C: np.ndarray, D: np.ndarray) -> np.ndarray:
    rows = np.repeat(np.arange(B.shape[0]), np.diff(B.indptr))
    result = np.empty(B.nnz)
    step = 1 << 20
    for start in range(0, B.nnz, step):
        part = slice(start, start + step)
        result[part] = B.data[part] * np.einsum("ij,ij->i", C[rows[part]], D.T[B.indices[part]])
    return result


def mttkrp_reference(data: tuple, C: np.ndarray, D: np.ndarray) -> np.ndarray:
    coords, values, shape = data
    result = np.zeros((shape[0], C.shape[1]))
    step = 1 << 20
    for start in range(0, len(values), step):
        part = slice(start, start + step)
        products = values[part, None] * C[coords[part, 1]] * D[coords[part, 2]]
        count = len(products)
        scatter = sparse.csr_matrix((np.ones(count), (coords[part, 0], np.arange(count))), shape=(shape[0], count))
        result += scatter @ products
    return result


def ttm_reference(B, C: np.ndarray) -> np.ndarray:
    """TTM per stored (i, j) fiber of the packed CSF3 tensor: (fibers x rank), B's fiber order."""
    f = B.fields
    by_fiber = sparse.csr_matrix((f["val"], f["idx2"], f["ptr1"]), shape=(f["nnz1"], f["n2"]))
    return np.asarray(by_fiber @ C.T)


def output_values(result) -> np.ndarray:
    """A copy of the output's values (a dense numpy output, or the values of a shared-sparsity Tensor)."""
    if isinstance(result, spf.Tensor):
        return np.array(result.fields[result.layout.values_field], copy=True).ravel()
    return np.array(result, copy=True).ravel()


# ----------------------------------------------------------------------------- part 3: kernels

class KernelPair:
    """A kernel compiled serial and parallel, bound to the same inputs."""

    def __init__(self, name: str, expression: str, layouts: dict, share=None, recipe_reduction=None):
        self.name = name
        self.serial = spf.compile(expression, layouts, share=share, parallel=False)
        if recipe_reduction:
            recipe = spf.recipe(expression, layouts).parallelize("pA", reduction=recipe_reduction)
            self.parallel = spf.compile(recipe.expression, dict(recipe.layouts), schedule=recipe)
        else:
            self.parallel = spf.compile(expression, layouts, share=share, parallel=True)
        if "#pragma omp parallel for" not in self.parallel.c_source:
            raise RuntimeError(f"{name}: the parallel kernel has no parallel loop")

    def bind(self, **inputs):
        return self.serial.bind(**inputs), self.parallel.bind(**inputs)


def check_and_time(omp: OpenMP, pair: KernelPair, inputs: dict, reference: np.ndarray,
                   budget: float, least: int) -> dict:
    """Check serial, 1-thread and 2-thread results against ``reference``; their median times."""
    serial, parallel = pair.bind(**inputs)
    expected = np.asarray(reference, dtype=float).ravel()
    scale = 1e-9 * max(1.0, float(np.abs(expected).max(initial=0.0)))
    outputs = {"serial": output_values(serial())}
    for threads in (1, 2):
        omp.verify(threads)
        outputs[f"{threads} thread"] = output_values(parallel())
    for label, values in outputs.items():
        if not np.allclose(values, expected, rtol=1e-9, atol=scale):
            raise AssertionError(f"{pair.name}, {label}: result differs from the reference "
                                 f"(max error {np.max(np.abs(values - expected)):.3g})")
        if not np.allclose(values, outputs["serial"], rtol=1e-9, atol=scale):
            raise AssertionError(f"{pair.name}, {label}: result differs from the serial kernel")
    return interleaved_medians(omp, {"serial": (None, serial), "1t": (1, parallel), "2t": (2, parallel)},
                               budget, least)


class Table:
    """Rows of serial / 1-thread / 2-thread times per kernel, with speedups."""

    def __init__(self) -> None:
        self.speedups: dict[str, list[float]] = {}
        self.synthetic: dict[str, list[tuple[str, float]]] = {}

    @staticmethod
    def header() -> str:
        return (f"  {'input':<28} {'nnz':>10} {'serial ms':>10} {'1 thr ms':>10} {'2 thr ms':>10}"
                f" {'speedup':>8} {'2thr/1thr':>9}")

    def row(self, kernel: str, label: str, nnz: int, times: dict, synthetic: bool, extra: str = "") -> None:
        speedup = times["serial"] / times["2t"]
        scaling = times["1t"] / times["2t"]
        if synthetic:
            self.synthetic.setdefault(kernel, []).append((label, speedup))
        else:
            self.speedups.setdefault(kernel, []).append(speedup)
        print(f"  {label:<28} {nnz:>10} {times['serial'] * 1e3:>10.3f} {times['1t'] * 1e3:>10.3f}"
              f" {times['2t'] * 1e3:>10.3f} {speedup:>8.2f} {scaling:>9.2f}{extra}", flush=True)


# ----------------------------------------------------------------------------- main

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--matrices", type=int, default=5, help="the N largest real matrices (default 5)")
    parser.add_argument("--synthetic-matrix", default="4000000x40000000", help="ROWSxNNZ (default 4000000x40000000)")
    parser.add_argument("--synthetic-tensor", default="2000,2000,20000,20000000",
                        help="I,J,K,NNZ (default 2000,2000,20000,20000000)")
    parser.add_argument("--triad-log2", type=int, default=27, help="triad arrays of 2^E doubles (default 27)")
    parser.add_argument("--quick", action="store_true", help="small synthetic inputs, for trying the script")
    parser.add_argument("--default-stacks", action="store_true",
                        help="keep the default stack limits (SpMV COO with privatize then crashes on large outputs)")
    parser.add_argument("--wait-idle", type=float, default=0.0,
                        help="first wait up to this many seconds for other processes to leave the CPUs idle")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.synthetic_matrix, arguments.synthetic_tensor = "200000x2000000", "200,200,2000,1000000"
        arguments.triad_log2, arguments.matrices = 22, 2
    rows, matrix_nnz = (int(v) for v in arguments.synthetic_matrix.lower().split("x"))
    *tensor_shape, tensor_nnz = (int(v) for v in arguments.synthetic_tensor.split(","))

    stacks = "default stack limits" if arguments.default_stacks else large_stacks()
    library = build_shared_library(TRIAD_SOURCE, name="triad")
    pointer = ctypes.POINTER(ctypes.c_double)
    triad_arguments = [pointer, pointer, pointer, ctypes.c_double, ctypes.c_long]
    triad_parallel = load_function(library, "triad", triad_arguments, None)
    triad_serial = load_function(library, "triad_serial", triad_arguments, None)
    omp = OpenMP(load_function(library, "threads_in_parallel", [], ctypes.c_int))
    load = Load()
    if arguments.wait_idle:
        load.wait_until_idle(arguments.wait_idle)
    omp.verify(1)
    omp.verify(2)
    print("OpenMP: libgomp.so.1; omp_set_num_threads(1) and (2) verified inside a parallel region; " + stacks)

    # ---- 1. triad
    n = 1 << arguments.triad_log2
    a, b, c = np.zeros(n), np.full(n, 1.0), np.full(n, 2.0)
    triad_pointers = [array.ctypes.data_as(pointer) for array in (a, b, c)]
    triad_bytes = 3 * 8 * n

    def triad_call(function):
        return lambda: function(*triad_pointers, 3.0, n)

    triads = {"serial": (None, triad_call(triad_serial)), "1 thread": (1, triad_call(triad_parallel)),
              "2 threads": (2, triad_call(triad_parallel))}
    times = interleaved_medians(omp, triads, budget=4.0, least=7, most=15)
    assert np.all(a[:1000] == 7.0) and a[-1] == 7.0
    print(f"\n1. triad a = b + s*c, 3 x 2^{arguments.triad_log2} doubles ({triad_bytes / 2**30:.2f} GiB), "
          "GB/s = 3*8*n / time (median of interleaved rounds):")
    print("  " + "   ".join(f"{name} {triad_bytes / t / 1e9:.2f} GB/s ({t * 1e3:.1f} ms)" for name, t in times.items()),
          flush=True)
    load.report("part 1")

    # ---- 2. SpMV bandwidth
    matrix_dir, tensor_dir = arguments.data / "matrices", arguments.data / "tensors"
    if not matrix_dir.is_dir() or not tensor_dir.is_dir():
        sys.exit(f"no real data at {arguments.data} (matrices/ and tensors/)")
    started = time.perf_counter()
    matrices = largest_matrices(matrix_dir, arguments.matrices)
    synthetic = synthetic_matrix(rows, matrix_nnz)
    print(f"\nread the {len(matrices)} largest real matrices and built the synthetic "
          f"{rows} x {rows} matrix ({synthetic.nnz} nonzeros) in {time.perf_counter() - started:.1f} s")

    spmv = {layout: KernelPair(f"SpMV {layout}", SPMV, {"A": layout, "x": "Dense", "y": "Dense"},
                               recipe_reduction="privatize" if layout == "COO" else None)
            for layout in ("CSR", "DCSR", "COO")}
    big_name, big = matrices[0]
    print("\n2. SpMV CSR bandwidth: bytes = nnz*(8+4) + (rows+1)*4 + rows*8 + cols*8; GB/s = bytes / time;"
          "\n   triad timed in the same interleaved rounds (so SpMV starts with cold caches);"
          "\n   ratio = SpMV GB/s / triad GB/s at the same thread count")
    synthetic_csr = None
    banded = synthetic_matrix(rows, matrix_nnz, seed=1, band=BAND)
    for label, matrix, from_fields in ((f"{big_name} (largest real)", big, False),
                                       (f"synthetic {rows}x{rows}, uniform columns", synthetic, True),
                                       (f"synthetic {rows}x{rows}, columns within {BAND} of the diagonal",
                                        banded, True)):
        started = time.perf_counter()
        A = pack_matrix("CSR", matrix, from_fields)
        packing = time.perf_counter() - started
        if matrix is synthetic:
            synthetic_csr = A
        x = np.random.default_rng(0).uniform(-1, 1, matrix.shape[1])
        serial, parallel = spmv["CSR"].bind(A=A, x=x)
        reference = matrix @ x
        assert np.allclose(serial(), reference)
        for threads in (1, 2):
            omp.verify(threads)
            assert np.allclose(parallel(), reference), f"SpMV CSR, {threads} threads, {label}"
        big_input = matrix.nnz > 5_000_000
        times = interleaved_medians(omp, {
            "triad 1t": (1, triad_call(triad_parallel)), "triad 2t": (2, triad_call(triad_parallel)),
            "serial": (None, serial), "1t": (1, parallel), "2t": (2, parallel),
            "scipy": (None, lambda: matrix @ x)}, budget=6.0 if big_input else 3.0, least=7, most=200)
        rows_, cols_ = matrix.shape
        moved = matrix.nnz * 12 + (rows_ + 1) * 4 + rows_ * 8 + cols_ * 8
        gbs = {key: moved / times[key] / 1e9 for key in ("serial", "1t", "2t", "scipy")}
        triad_gbs = {key: triad_bytes / times[f"triad {key}"] / 1e9 for key in ("1t", "2t")}
        print(f"  {label}: {rows_} x {cols_}, {matrix.nnz} nonzeros, {moved / 1e6:.1f} MB per SpMV "
              f"(packed in {packing:.1f} s{' from its fields' if from_fields else ''})")
        print(f"    spf serial   {times['serial'] * 1e3:9.3f} ms {gbs['serial']:7.2f} GB/s")
        for key, threads in (("1t", 1), ("2t", 2)):
            print(f"    spf {threads} thread{'s' if threads > 1 else ' '} {times[key] * 1e3:9.3f} ms "
                  f"{gbs[key]:7.2f} GB/s   triad {threads}t {triad_gbs[key]:6.2f} GB/s   "
                  f"ratio {gbs[key] / triad_gbs[key]:5.2f}")
        print(f"    scipy A @ x  {times['scipy'] * 1e3:9.3f} ms {gbs['scipy']:7.2f} GB/s   "
              f"(scipy / spf 2 threads: {times['scipy'] / times['2t']:.2f}; scipy / spf serial: "
              f"{times['scipy'] / times['serial']:.2f})", flush=True)
    load.report("part 2")
    del a, b, c, triad_pointers, serial, parallel, banded, A, matrix

    # ---- 3. serial against 2 threads per kernel
    print("\n3. serial kernel (parallel=False) against the parallel kernel at 1 and 2 threads;"
          "\n   speedup = serial / 2 threads, 2thr/1thr = parallel kernel at 1 thread / at 2 threads")
    table = Table()
    matrix_inputs = [(name, matrix, False) for name, matrix in matrices]
    for layout, pair in spmv.items():
        print(f"\n SpMV {layout}{' (recipe: parallelize pA, reduction privatize)' if layout == 'COO' else ''}")
        print(table.header())
        for name, matrix, synthetic_input in matrix_inputs + [(f"synthetic {rows}x{rows}", synthetic, True)]:
            if layout == "CSR" and synthetic_input:
                A = synthetic_csr
            else:
                A = pack_matrix(layout, matrix, from_fields=synthetic_input)
            x = np.random.default_rng(0).uniform(-1, 1, matrix.shape[1])
            times = check_and_time(omp, pair, {"A": A, "x": x}, matrix @ x,
                                   budget=3.0 if synthetic_input else 0.4, least=5)
            table.row(f"SpMV {layout}", name, matrix.nnz, times, synthetic_input)
            del A
    del synthetic_csr, synthetic, matrix

    spmspv = KernelPair("SpMSpV CSR x SV", SPMV, {"A": "CSR", "x": "SV", "y": "Dense"})
    spmm = KernelPair("SpMM", SPMM, {"A": "CSR", "B": "Dense", "C": "Dense"})
    sddmm = KernelPair("SDDMM", SDDMM, {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, share={"A": "B"})
    print(f"\n SpMSpV CSR x SV (x density {SPMSPV_DENSITY}; find chosen by cost, as find='auto')")
    print(table.header())
    for name, matrix, _ in matrix_inputs:
        vector = sparse_vector(matrix.shape[1], SPMSPV_DENSITY, seed=1)
        inputs = {"A": spf.pack("CSR", matrix, name="A"), "x": spf.pack("SV", vector, name="x")}
        times = check_and_time(omp, spmspv, inputs, matrix @ vector, budget=0.4, least=5)
        table.row("SpMSpV", name, matrix.nnz, times, False)
    print(f"\n SpMM C(i,j) = A(i,k) * B(k,j), A CSR, B dense with {SPMM_COLUMNS} columns")
    print(table.header())
    for name, matrix, _ in matrix_inputs:
        B = np.random.default_rng(2).uniform(-1, 1, (matrix.shape[1], SPMM_COLUMNS))
        inputs = {"A": spf.pack("CSR", matrix, name="A"), "B": B}
        times = check_and_time(omp, spmm, inputs, matrix @ B, budget=0.6, least=5)
        table.row("SpMM", name, matrix.nnz, times, False)
    print(f"\n SDDMM A(i,j) = B(i,j) * C(i,k) * D(k,j), A sharing B's CSR arrays, rank {SDDMM_RANK}")
    print(table.header())
    for name, matrix, _ in matrix_inputs:
        rng = np.random.default_rng(3)
        C = rng.uniform(-1, 1, (matrix.shape[0], SDDMM_RANK))
        D = rng.uniform(-1, 1, (SDDMM_RANK, matrix.shape[1]))
        inputs = {"B": spf.pack("CSR", matrix, name="B"), "C": C, "D": D}
        times = check_and_time(omp, sddmm, inputs, sddmm_reference(matrix, C, D), budget=0.6, least=5)
        table.row("SDDMM", name, matrix.nnz, times, False)

    tensors = [(name, data, False) for name, data in real_tensors(tensor_dir)]
    started = time.perf_counter()
    generated = synthetic_tensor(tuple(tensor_shape), tensor_nnz)
    generating = time.perf_counter() - started
    started = time.perf_counter()
    synthetic_B = spf.pack("CSF3", generated, name="B")
    packing = time.perf_counter() - started
    synthetic_label = "synthetic " + "x".join(str(s) for s in tensor_shape)
    print(f"\n synthetic tensor {synthetic_label}: {len(generated[1])} nonzeros, "
          f"{synthetic_B.fields['nnz0']} i-slices, {synthetic_B.fields['nnz1']} (i,j) fibers; generated in "
          f"{generating:.1f} s, spf.pack('CSF3', (coords, values, shape)) took {packing:.1f} s")
    tensors.append((synthetic_label, generated, True))
    mttkrp = KernelPair("MTTKRP", MTTKRP, {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"})
    ttm = KernelPair("TTM", TTM, {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}, share={"A": "B"})
    packed = {}
    for name, data, synthetic_input in tensors:
        packed[name] = synthetic_B if synthetic_input else spf.pack("CSF3", data, name="B")
    print(f"\n MTTKRP A(i,j) = B(i,k,l) * C(k,j) * D(l,j), B CSF3, rank {MTTKRP_RANK} "
          "(i-slices: the parallel loop's trip count)")
    print(table.header() + f" {'i-slices':>9}")
    for name, data, synthetic_input in tensors:
        rng = np.random.default_rng(4)
        shape = data[2]
        C = rng.uniform(-1, 1, (shape[1], MTTKRP_RANK))
        D = rng.uniform(-1, 1, (shape[2], MTTKRP_RANK))
        B = packed[name]
        times = check_and_time(omp, mttkrp, {"B": B, "C": C, "D": D}, mttkrp_reference(data, C, D),
                               budget=4.0 if synthetic_input else 0.4, least=3 if synthetic_input else 5)
        table.row("MTTKRP", name, len(data[1]), times, synthetic_input, f" {B.fields['nnz0']:>9}")
    print(f"\n TTM A(i,j,k) = B(i,j,l) * C(k,l), A CSF3_DENSE_LAST sharing B's CSF3 arrays, rank {TTM_RANK}")
    print(table.header() + f" {'i-slices':>9} {'fibers':>9}")
    for name, data, synthetic_input in tensors:
        C = np.random.default_rng(5).uniform(-1, 1, (TTM_RANK, data[2][2]))
        B = packed[name]
        times = check_and_time(omp, ttm, {"B": B, "C": C}, ttm_reference(B, C),
                               budget=4.0 if synthetic_input else 0.4, least=3 if synthetic_input else 5)
        table.row("TTM", name, len(data[1]), times, synthetic_input,
                  f" {B.fields['nnz0']:>9} {B.fields['nnz1']:>9}")

    load.report("part 3")
    print("\ngeometric-mean speedup, serial / 2 threads (real inputs), and the synthetic inputs:")
    for kernel, values in table.speedups.items():
        extra = "  ".join(f"{label}: {speedup:.2f}" for label, speedup in table.synthetic.get(kernel, []))
        print(f"  {kernel:<10} {geometric_mean(values):6.2f}  ({len(values)} real inputs)   {extra}")


if __name__ == "__main__":
    main()
