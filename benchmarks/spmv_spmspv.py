"""SpMV and SpMSpV on the real matrices: spf against scipy.sparse and SuiteSparse:GraphBLAS.

Run: python benchmarks/spmv_spmspv.py [--matrices DIR] [--densities 0.001,0.01,0.1,0.5] [--limit N]

Like is compared with like, serially (GraphBLAS is set to one thread, as spf's kernels
here are serial):

* SpMV ``y = A x``, x dense: spf with A in CSR; scipy ``A @ x`` (CSR); GraphBLAS
  ``A.mxv(x)`` with A in CSR.
* SpMSpV ``y = A x``, x sparse with the given density: spf with A in CSR and x a
  sorted sparse vector, for each find (seqiter, hashmap, bitmap, binary, auto); GraphBLAS
  ``A.mxv(x)`` with A in CSR; and GraphBLAS's fastest form ``x.vxm(A.T)`` on a
  row-major transpose (it walks only A's columns where x is nonzero) against spf with A
  in CSC and the loop order driven by x's nonzeros; and the loop TACO emits for a compressed
  x (benchmarks/references/spmspv_merge.c: each row of A merged with x, stopping when either
  runs out), compiled with spf's flags and timed bound like spf.

The *regret* of ``auto`` is its time over the fastest single find on the same inputs
(1.0: it picked the best one; every variant auto may pick is one of those finds).

spf is timed through a bound kernel (inputs packed once, as an application linking the
library would), the others through their Python calls.  Each time is the median of
repeated runs; ratios are baseline time / spf time (above 1: spf is faster), summarised
as geometric means.  GraphBLAS's output is a sparse vector, spf's a dense one.
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from spf.codegen.toolchain.compiler import build_shared_library, load_function
from common import geometric_mean, load_line, serial_graphblas, sparse_vector, triad_line

DEFAULT_MATRICES = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "matrices"
FINDS = ("seqiter", "hashmap", "bitmap", "binary", "auto")
HERE = Path(__file__).resolve().parent


def merge_reference():
    """benchmarks/references/spmspv_merge.c, compiled with spf's flags: a function of (CSR
    matrix, dense x as a sparse vector, output) returning a call of the merge loop."""
    library = build_shared_library((HERE / "references" / "spmspv_merge.c").read_text(), name="spmspv_merge")
    int_p, double_p = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_double)
    function = load_function(library, "spmspv_merge",
                             [ctypes.c_int32, int_p, int_p, double_p, ctypes.c_int32, int_p, double_p, double_p],
                             None)

    def call_of(matrix: sparse.csr_matrix, vector: np.ndarray, y: np.ndarray):
        indices = np.flatnonzero(vector).astype(np.int32)
        arrays = (matrix.indptr.astype(np.int32), matrix.indices.astype(np.int32),
                  np.ascontiguousarray(matrix.data, dtype=np.float64), indices,
                  np.ascontiguousarray(vector[indices], dtype=np.float64))
        pointers = [array.ctypes.data_as(int_p if array.dtype == np.int32 else double_p) for array in arrays]
        arguments = (matrix.shape[0], pointers[0], pointers[1], pointers[2], len(indices), pointers[3],
                     pointers[4], y.ctypes.data_as(double_p))

        def call(keep=arrays):
            function(*arguments)
        return call
    return call_of


def median_time(function, budget: float = 0.2, least: int = 5, most: int = 200) -> float:
    function()  # warm up
    times: list[float] = []
    started = time.perf_counter()
    while len(times) < least or (time.perf_counter() - started < budget and len(times) < most):
        begin = time.perf_counter()
        function()
        times.append(time.perf_counter() - begin)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matrices", type=Path, default=DEFAULT_MATRICES)
    parser.add_argument("--densities", default="0.001,0.01,0.1,0.5")
    parser.add_argument("--limit", type=int, default=0, help="only the first N matrices (0: all)")
    arguments = parser.parse_args()
    gb = serial_graphblas()
    paths = sorted(arguments.matrices.glob("*.mtx"))
    if not paths:
        sys.exit(f"no matrices in {arguments.matrices}")
    if arguments.limit:
        paths = paths[:arguments.limit]
    densities = [float(d) for d in arguments.densities.split(",")]

    spmv = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
    spmspv = {find: spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"}, find=find)
              for find in FINDS}
    x_driven = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSC", "x": "SV", "y": "Dense"},
                           order=["px", "j", "pAj", "pAi", "i", "py0"])

    merge_call_of = merge_reference()
    ratios: dict[str, list[float]] = {}
    regrets: dict[float, list[float]] = {}

    def record(key: str, baseline: float, ours: float) -> float:
        ratio = baseline / ours
        ratios.setdefault(key, []).append(ratio)
        return ratio

    print(load_line("at start"))
    print(triad_line())
    print(f"{'matrix':<28} {'nnz':>8}  SpMV: spf us  scipy/spf  GB/spf")
    for path in paths:
        matrix = sparse.csr_matrix(scipy.io.mmread(path))
        matrix.sum_duplicates()
        x = np.random.default_rng(0).random(matrix.shape[1])
        A_csr = spf.pack("CSR", matrix, name="A")
        A_csc = spf.pack("CSC", matrix, name="A")
        bound = spmv.bind(A=A_csr, x=x)
        assert np.allclose(bound(), matrix @ x)
        ours = median_time(bound)
        line = f"{path.stem:<28} {matrix.nnz:>8}  {ours * 1e6:>10.1f}"
        line += f"  {record('SpMV vs scipy', median_time(lambda: matrix @ x), ours):>9.2f}"
        if gb is not None:
            A_gb = gb.io.from_scipy_sparse(matrix)
            x_gb = gb.Vector.from_dense(x)
            line += f"  {record('SpMV vs GraphBLAS mxv', median_time(lambda: A_gb.mxv(x_gb).new()), ours):>6.2f}"
            AT_gb = gb.io.from_scipy_sparse(matrix.T.tocsr())
        print(line, flush=True)
        for density in densities:
            vector = sparse_vector(matrix.shape[1], density, seed=1)
            x_sv = spf.pack("SV", vector, name="x")
            reference = matrix @ vector
            times = {}
            for find, kernel in spmspv.items():
                bound = kernel.bind(A=A_csr, x=x_sv)
                assert np.allclose(bound(), reference)
                times[find] = median_time(bound)
            bound = x_driven.bind(A=A_csc, x=x_sv)
            assert np.allclose(bound(), reference)
            driven = median_time(bound)
            merged = np.empty(matrix.shape[0])
            merge = merge_call_of(matrix, vector, merged)
            merge()
            assert np.allclose(merged, reference)
            merge_time = median_time(merge)
            record(f"SpMSpV auto (CSR) vs the TACO merge loop, density {density}", merge_time, times["auto"])
            cells = "  ".join(f"{f} {t * 1e6:.1f}us" for f, t in times.items())
            best = min(t for f, t in times.items() if f != "auto")
            regrets.setdefault(density, []).append(times["auto"] / best)
            cells += f"  auto's regret {times['auto'] / best:.2f}"
            line = (f"  SpMSpV density {density:<6} {cells}  TACO merge {merge_time * 1e6:.1f}us  "
                    f"CSC x-driven {driven * 1e6:.1f}us")
            if gb is not None:
                indices = np.flatnonzero(vector)
                x_gb = gb.Vector.from_coo(indices, vector[indices], size=matrix.shape[1])
                mxv = median_time(lambda: A_gb.mxv(x_gb).new())
                vxm = median_time(lambda: x_gb.vxm(AT_gb).new())
                for find, t in times.items():
                    record(f"SpMSpV {find} (CSR) vs GraphBLAS mxv, density {density}", mxv, t)
                record(f"SpMSpV CSC x-driven vs GraphBLAS vxm(A.T), density {density}", vxm, driven)
                line += f"  | GB mxv {mxv * 1e6:.1f}us  GB vxm(A.T) {vxm * 1e6:.1f}us"
            scipy_vector = sparse.csc_matrix(vector.reshape(-1, 1))
            scipy_time = median_time(lambda: matrix @ scipy_vector)
            for find, t in times.items():
                record(f"SpMSpV {find} (CSR) vs scipy, density {density}", scipy_time, t)
            print(line, flush=True)

    print("\ngeometric-mean speedups (baseline time / spf time; above 1 means spf is faster):")
    for key, values in ratios.items():
        print(f"  {key:<62} {geometric_mean(values):6.2f}  ({len(values)} matrices)")
    print(load_line("at end"))
    print("\nregret of find='auto' (its time / the fastest find's; 1.0 is the best pick):")
    for density, values in regrets.items():
        print(f"  density {density:<6} geomean {geometric_mean(values):.2f}  worst {max(values):.2f}  "
              f"({len(values)} matrices)")


if __name__ == "__main__":
    main()
