"""Products of sparse matrices under semirings, into CSR, against python-graphblas (issue 29).

Run: python benchmarks/semiring_spgemm.py [--least 10000] [--most 600000] [--limit N] [--most-products N]
         [--semirings plus_times,min_plus,...] [--threads 1 2] [--rounds 7] [--block 0.2]
         [--wait-idle SECONDS] [--data DIR] [--output FILE]

GraphBLAS's core operation, ``C = A ⊕.⊗ A`` (mxm) with a sparse result, on every square real
matrix of ``--least`` to ``--most`` nonzeros whose product has at most ``--most-products``
products (smallest first; ``--limit N`` takes N of them, spread over that range), for each
semiring of ``--semirings``:

* **graphblas**: ``A.mxm(A, semiring).new()`` with SuiteSparse's ``nthreads`` set to the
  thread count before each block (its own OpenMP runtime);
* **spf**: ``C(i,k) = A(i,j) * A(j,k)`` with A, C in CSR, compiled once per semiring with
  ``parallel=True`` and called bound, OpenMP's thread count set before each block.

Values: the matrix's own (float64; 1 + (i+j) mod 7 for a pattern matrix); lor_land computes on
booleans on both sides (GraphBLAS's lor_land is boolean only).  Each result is checked first:
the same pattern as GraphBLAS's (an entry wherever a product reaches, whatever its value) and
the same values (exact for min, max, lor and pair semirings; plus_times to 1e-12 of the
largest magnitude, and spf's plus_times result drops sums of exactly zero as scipy does, so its
pattern is compared with GraphBLAS's nonzeros).  Timing: interleaved rounds, each system a
block of calls of about ``--block`` seconds (common.interleaved_blocks), medians; ratio =
graphblas time / spf time (above 1: spf is faster), per matrix and in geometric mean per
semiring and thread count, with the least.  The output has the load average, a triad's
bandwidth from this run, and the CPUs other processes used while timing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from assembly import openmp
from common import Report, geometric_mean, interleaved_blocks, manifest_names, timing_arguments
from parallel import idle_load

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"
EXPRESSION = "C(i,k) = A(i,j) * B(j,k)"
LAYOUTS = {"A": "CSR", "B": "CSR", "C": "CSR"}
SEMIRINGS = ("plus_times", "min_plus", "max_times", "plus_pair", "lor_land", "any_pair")
EXACT = ("min", "max", "lor", "any")


def square_matrix(data: Path, name: str) -> sparse.csr_matrix | None:
    """The real matrix in float64 (a pattern's values 1 + (i+j) mod 7), sorted and summed;
    None when it is not square."""
    matrix = sparse.coo_matrix(scipy.io.mmread(data / "matrices" / f"{name}.mtx"))
    if matrix.shape[0] != matrix.shape[1]:
        return None
    values = matrix.data.astype(np.float64) if matrix.data.dtype.kind in "fiu" else \
        1.0 + (matrix.row + matrix.col) % 7
    matrix = sparse.csr_matrix((values, (matrix.row, matrix.col)), shape=matrix.shape)
    matrix.sum_duplicates()
    return matrix


def products(matrix: sparse.csr_matrix) -> int:
    """The products of A*A: for each k, the entries of column k times those of row k."""
    return int(np.dot(np.diff(sparse.csc_matrix(matrix).indptr), np.diff(matrix.indptr)))


def spread(names: list[str], limit: int | None) -> list[str]:
    """``limit`` of the names spread over their range (smallest and largest kept), or all."""
    if limit is None or limit >= len(names):
        return names
    picks = np.unique(np.round(np.linspace(0, len(names) - 1, limit)).astype(int))
    return [names[k] for k in picks]


def agree(ring: str, got: sparse.csr_matrix, expected: sparse.csr_matrix) -> str | None:
    """Why spf's result differs from graphblas's, or None."""
    expected = sparse.csr_matrix(expected)
    if ring == "plus_times":  # spf drops sums of exactly zero, as scipy does
        expected.eliminate_zeros()
    got.sort_indices()
    expected.sort_indices()
    if not (np.array_equal(got.indptr, expected.indptr) and np.array_equal(got.indices, expected.indices)):
        return f"patterns differ: spf {got.nnz} entries, graphblas {expected.nnz}"
    if ring.split("_")[0] in EXACT or ring.endswith("_pair"):
        bad = got.data.astype(np.float64) != expected.data.astype(np.float64)
    else:
        scale = max(float(np.abs(expected.data).max(initial=0.0)), 1e-300)
        bad = np.abs(got.data - expected.data) > 1e-12 * scale
    return f"{int(bad.sum())} of {got.nnz} values differ" if bad.any() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--least", type=int, default=10_000, help="the matrices' least number of nonzeros")
    parser.add_argument("--most", type=int, default=600_000, help="the matrices' most number of nonzeros")
    parser.add_argument("--limit", type=int, default=None, help="N matrices spread over the range")
    parser.add_argument("--most-products", type=int, default=30_000_000,
                        help="leave out a matrix whose A*A has more products (its result and both systems' "
                             "copies must fit in memory)")
    parser.add_argument("--semirings", default=",".join(SEMIRINGS))
    timing_arguments(parser, DATA, HERE / "results" / "semiring_spgemm.txt", rounds=7, block=0.2)
    arguments = parser.parse_args()
    try:
        import graphblas as gb
    except ImportError:
        sys.exit("python-graphblas is not installed (pip install '.[bench]')")
    gb.init("suitesparse", blocking=True)
    rings = arguments.semirings.split(",")
    load = idle_load(arguments.data, arguments.wait_idle)
    names = manifest_names(arguments.data, "matrix", arguments.least)
    report = Report("semiring_spgemm.py", f"times in ms, medians of {arguments.rounds} interleaved rounds of "
                    f"{arguments.block * 1e3:.0f} ms blocks; ratio = graphblas / spf")
    say = report.say
    omp = openmp()
    kernels = {ring: spf.compile(EXPRESSION, LAYOUTS, semiring=ring, parallel=True) for ring in rings}
    matrices = [(name, matrix) for name in names
                if (matrix := square_matrix(arguments.data, name)) is not None and matrix.nnz <= arguments.most
                and products(matrix) <= arguments.most_products]
    chosen = set(spread([name for name, _ in matrices], arguments.limit))
    matrices = [(name, matrix) for name, matrix in matrices if name in chosen]
    if not matrices:
        sys.exit(f"no square real matrix of {arguments.least} to {arguments.most} nonzeros in {arguments.data}")
    load.lap()  # compiles and the triad are not the timing's load
    width = max(len(name) for name, _ in matrices)
    heads = "  ".join(f"{f'gb {t}t':>9} {f'spf {t}t':>9} {'ratio':>5}" for t in arguments.threads)
    say(f"   {'matrix':<{width}} {'nnz':>8} {'semiring':<10} {'nnz(C)':>9}  {heads}")
    ratios: dict[tuple[str, int], list[float]] = {(ring, t): [] for ring in rings for t in arguments.threads}
    for name, matrix in matrices:
        for ring in rings:
            boolean = ring == "lor_land"
            operand = matrix.astype(bool) if boolean else matrix
            graphblas_matrix = gb.io.from_scipy_sparse(operand)
            graphblas_ring = getattr(gb.semiring, ring)[gb.dtypes.BOOL if boolean else gb.dtypes.FP64]
            packed = spf.pack("CSR", operand)
            bound = kernels[ring].bind(A=packed, B=packed)
            expected = gb.io.to_scipy_sparse(graphblas_matrix.mxm(graphblas_matrix, graphblas_ring).new(), "csr")
            problem = agree(ring, bound().to_scipy(), expected)
            if problem:
                sys.exit(f"{name} {ring}: {problem}")
            calls, setups = {}, {}
            for count in arguments.threads:
                omp.verify(count)
                calls[f"gb {count}t"] = lambda m=graphblas_matrix, r=graphblas_ring: m.mxm(m, r).new()
                setups[f"gb {count}t"] = lambda count=count: gb.ss.config.__setitem__("nthreads", count)
                calls[f"spf {count}t"] = bound
                setups[f"spf {count}t"] = lambda count=count: omp.set_threads(count)
            times = interleaved_blocks(calls, arguments.rounds, arguments.block, setups)
            cells = []
            for count in arguments.threads:
                ratio = times[f"gb {count}t"] / times[f"spf {count}t"]
                ratios[(ring, count)].append(ratio)
                cells.append(f"{times[f'gb {count}t'] * 1e3:9.3f} {times[f'spf {count}t'] * 1e3:9.3f} {ratio:5.2f}")
            say(f"   {name:<{width}} {matrix.nnz:>8} {ring:<10} {expected.nnz:>9}  " + "  ".join(cells))
    omp.set_threads(1)
    gb.ss.config["nthreads"] = 1
    others, stolen = load.lap()
    say(f"   geomean graphblas/spf over {len(matrices)} matrices, by semiring and threads (least):")
    for ring in rings:
        say(f"     {ring:<10} " + "; ".join(f"{t}t {geometric_mean(ratios[(ring, t)]):.2f} "
                                          f"({min(ratios[(ring, t)]):.2f})" for t in arguments.threads))
    for count in arguments.threads:
        every = [r for ring in rings for r in ratios[(ring, count)]]
        say(f"   all semirings, {count} thread{'s' if count > 1 else ''}: {geometric_mean(every):.2f} "
            f"(least {min(every):.2f})")
    report.close(others, stolen, arguments.output)


if __name__ == "__main__":
    main()
