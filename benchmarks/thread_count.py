"""The thread count spf picks for a parallel loop, against the alternatives: its regret.

Run: python benchmarks/thread_count.py [--wait-idle 30] [--matrices N] [--kernels SpMV,SpGEMM]
         [--rounds 7] [--block 0.02]
(results/thread_count.txt: ``--wait-idle 30``, about 3 minutes)

A parallel kernel (``parallel=True``) decides at each call how many of the available
threads a loop takes: as many as its estimated work pays for (``spf_team_for`` in
spf/codegen/c/runtime/spf_pieces.h: one more thread per 4096 units of work, the units
counted from the loop's segments), so small inputs run on one thread.  This times, on
every real square matrix (smallest first) and 2 available threads:

* **auto**: the kernel as spf builds it, 2 threads available (its pick);
* **1 thread**: the same kernel with 1 thread available;
* **2 threads**: the kernel built with ``-DSPF_TEAM_GRAIN=1``, so every loop takes the
  whole team whatever its work (and is cut into pieces as a team of 2 would be).

regret = auto / the faster of the two (1.0: the pick was right); the column ``pick``
says which alternative auto's time is nearer to.  A kernel of several parallel loops
(SpMM's zeroing of rows no entry reaches beside its row loop) may take different teams
for different loops, each as its work pays for: below 1.0, that beat both alternatives.

Kernels, on CSR operands: SpMV ``y(i) = A(i,j) * x(j)``, SpMM with 16 dense columns,
SpGEMM ``C = A * A`` into CSR, A + B into CSR (B: A with 40% of its entries removed and
5% new), and the transposition ``B(j,i) = A(i,j)`` into CSR.  Every result is checked against scipy's
first.  Timing: interleaved rounds, each system a block of calls of about ``--block``
seconds per round, medians of per-call times; the machine's load before and during the
run and a triad's bandwidth are printed.

On this VM the second virtual CPU's speed changes over minutes (no steal is reported):
the transposition's 2 threads ran 0.81-0.90x its 1 thread on every matrix of 13k-100k
entries in two runs and 1.1-1.6x twenty minutes later, so a decision is judged over
several runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.pop("SPF_PARALLEL_GRAIN", None)  # both builds must take their grain from the C

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from assembly import openmp, same, second_operand
from common import geometric_mean, interleaved_blocks, manifest_names, triad_line
from parallel import idle_load
from spf.codegen.toolchain.compiler import CFLAGS
from spf.runtime.kernel import callable_kernel

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
WHOLE_TEAM = [*CFLAGS, "-DSPF_TEAM_GRAIN=1"]
COLUMNS = 16  # SpMM's dense columns


def kernels() -> dict:
    """name -> (expression, layouts, operands(A) -> dict of call arguments, reference(A) -> expected)."""
    def spmv_operands(A):
        return {"A": spf.pack("CSR", A), "x": np.random.default_rng(1).random(A.shape[1])}

    def spmm_operands(A):
        return {"A": spf.pack("CSR", A), "B": np.random.default_rng(2).random((A.shape[1], COLUMNS))}

    def add_operands(A):
        return {"A": spf.pack("CSR", A), "B": spf.pack("CSR", second_operand(7, A))}

    return {
        "SpMV": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, spmv_operands,
                 lambda A, given: A @ given["x"]),
        "SpMM": ("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "Dense2", "C": "Dense2"}, spmm_operands,
                 lambda A, given: A @ given["B"]),
        "SpGEMM": ("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"},
                   lambda A: {"A": spf.pack("CSR", A), "B": spf.pack("CSR", A)}, lambda A, given: A @ A),
        "A + B": ("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, add_operands,
                  lambda A, given: A + second_operand(7, A)),
        "transpose": ("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"}, lambda A: {"A": spf.pack("CSR", A)},
                      lambda A, given: sparse.csr_matrix(A.T)),
    }


def check(result, expected) -> None:
    """The result equal to scipy's (a sparse result in pattern and values, a dense one to 1e-12)."""
    if isinstance(result, spf.Tensor):
        same(result, sparse.csr_matrix(expected))
    else:
        np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


def builds(name: str) -> tuple:
    """The kernel as spf builds it, and built so that every loop takes the whole team."""
    expression, layouts, _, _ = kernels()[name]
    return (callable_kernel(expression, layouts, parallel=True).build(),
            callable_kernel(expression, layouts, parallel=True, flags=WHOLE_TEAM).build())


def measure(name: str, built: tuple, matrices: list, omp, rounds: int, block: float) -> list[tuple]:
    _, _, operands, reference = kernels()[name]
    auto, whole_team = built
    rows = []
    for matrix_name, A in matrices:
        given = operands(A)
        bound_auto, bound_team = auto.bind(**given), whole_team.bind(**given)
        expected = reference(A, given)
        for threads in (1, 2):
            omp.set_threads(threads)
            check(bound_auto(), expected)
            check(bound_team(), expected)
        calls = {"1 thread": bound_auto, "auto": bound_auto, "2 threads": bound_team}
        setups = {"1 thread": lambda: omp.set_threads(1), "auto": lambda: omp.set_threads(2),
                  "2 threads": lambda: omp.set_threads(2)}
        times = interleaved_blocks(calls, rounds, block, setups)
        omp.set_threads(1)
        best = min(times["1 thread"], times["2 threads"])
        nearer = "1" if abs(times["auto"] - times["1 thread"]) <= abs(times["auto"] - times["2 threads"]) else "2"
        rows.append((matrix_name, A.nnz, times["1 thread"], times["auto"], times["2 threads"], nearer,
                     times["auto"] / best))
    return rows


def report(name: str, rows: list[tuple]) -> None:
    print(f"\n{name}: times in us; regret = auto / min(1 thread, 2 threads)")
    print(f"  {'matrix':>20} {'nnz':>9} {'1 thread':>10} {'auto':>10} {'2 threads':>10} {'pick':>5} {'2t/1t':>6} "
          f"{'regret':>7}")
    for matrix_name, nnz, one, auto, two, nearer, regret in rows:
        print(f"  {matrix_name:>20} {nnz:9d} {one * 1e6:10.1f} {auto * 1e6:10.1f} {two * 1e6:10.1f} {nearer:>5} "
              f"{one / two:6.2f} {regret:7.2f}")
    regrets = [row[6] for row in rows]
    worst = max(rows, key=lambda row: row[6])
    print(f"  summary {name}: regret geometric mean {geometric_mean(regrets):.3f}, max {worst[6]:.2f} ({worst[0]}), "
          f"{sum(r > 1.10 for r in regrets)} of {len(rows)} rows above 1.10; 2 threads / 1 thread "
          f"{geometric_mean([row[2] / row[4] for row in rows]):.3f} in geometric mean", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matrices", type=int, default=None, help="the N smallest real square matrices")
    parser.add_argument("--kernels", default=",".join(kernels()))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--block", type=float, default=0.02, help="seconds of calls per system and round")
    parser.add_argument("--wait-idle", type=float, default=0.0)
    arguments = parser.parse_args()
    load = idle_load(DATA, arguments.wait_idle)
    print(f"# python benchmarks/thread_count.py {' '.join(sys.argv[1:])}")
    print(triad_line(), flush=True)
    omp = openmp()
    matrices = []
    for matrix_name in manifest_names(DATA, "matrix"):
        A = sparse.csr_matrix(scipy.io.mmread(DATA / "matrices" / f"{matrix_name}.mtx"))
        if A.shape[0] == A.shape[1] and A.shape[0] <= 70_000 and np.diff(A.indptr)[A.indices].sum() < 30_000_000:
            A.sort_indices()
            matrices.append((matrix_name, A))
        if arguments.matrices is not None and len(matrices) == arguments.matrices:
            break
    names = arguments.kernels.split(",")
    built = {name: builds(name) for name in names}  # compiled before the load is measured
    load.lap()
    for name in names:
        report(name, measure(name, built[name], matrices, omp, arguments.rounds, arguments.block))
    load.report("thread count")


if __name__ == "__main__":
    main()
