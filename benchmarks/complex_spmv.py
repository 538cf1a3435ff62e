"""Complex SpMV against scipy (issue 29): complex128 and complex64 values.

Run: python benchmarks/complex_spmv.py [--least 100000] [--limit N] [--threads 1 2] [--rounds 9]
         [--block 0.1] [--wait-idle SECONDS] [--data DIR] [--output FILE]

Issue 29's acceptance line: complex128 SpMV at least 1.0x scipy's.  ``y(i) = A(i,j) * x(j)``,
A in CSR, x and y dense, on every real matrix of at least ``--least`` nonzeros (smallest
first; ``--limit N`` takes the first N).  A's values are its own (1 for a pattern) plus an
imaginary part drawn per entry, x is complex; per matrix:

* **scipy c128** and **scipy c64**: ``A @ x`` with a csr_matrix and x of that dtype (serial:
  scipy's sparse products use one thread);
* **spf c128** and **spf c64**: A packed once in CSR (scipy's arrays shared: the built-in
  layouts are generic and take the data's complex type), the kernel compiled once with
  ``parallel=True`` and called bound, at each ``--threads`` count (OpenMP's, set before each block).

Ratios are scipy time / spf time (above 1: spf is faster), per matrix and in geometric mean,
with the verdict against 1.0 for complex128.  Results are checked against scipy's before
timing (complex128 to 1e-12 of the result's norm, complex64 to 1e-5).  Timing: interleaved
rounds, each system a block of calls of about ``--block`` seconds (common.interleaved_blocks),
medians; the output has the load average, a triad's bandwidth from this run, and the CPUs
other processes used while timing.
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
EXPRESSION = "y(i) = A(i,j) * x(j)"
LAYOUTS = {"A": "CSR", "x": "Dense1", "y": "Dense1"}
TARGET = 1.0


def complex_matrix(data: Path, name: str) -> sparse.csr_matrix:
    """The real matrix with an imaginary part per entry, complex128, sorted and summed."""
    matrix = sparse.csr_matrix(scipy.io.mmread(data / "matrices" / f"{name}.mtx"), dtype=np.float64)
    matrix.sum_duplicates()
    imaginary = np.random.default_rng(matrix.nnz).uniform(-1.0, 1.0, matrix.nnz)
    return sparse.csr_matrix((matrix.data + 1j * imaginary, matrix.indices, matrix.indptr), shape=matrix.shape)


def check(label: str, result: np.ndarray, expected: np.ndarray, tolerance: float) -> None:
    error = np.linalg.norm(result - expected) / max(np.linalg.norm(expected), 1e-300)
    if result.dtype != expected.dtype or error > tolerance:
        sys.exit(f"{label}: {result.dtype} result {error:.3g} from scipy's (tolerance {tolerance})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--least", type=int, default=100_000, help="the matrices' least number of nonzeros")
    parser.add_argument("--limit", type=int, default=None, help="only the first N matrices (smallest first)")
    timing_arguments(parser, DATA, HERE / "results" / "complex_spmv.txt", rounds=9, block=0.1)
    arguments = parser.parse_args()
    load = idle_load(arguments.data, arguments.wait_idle)
    names = manifest_names(arguments.data, "matrix", arguments.least)[:arguments.limit]
    if not names:
        sys.exit(f"no real matrix of at least {arguments.least} nonzeros in {arguments.data}")
    report = Report("complex_spmv.py", f"times in ms, medians of {arguments.rounds} interleaved rounds of "
                    f"{arguments.block * 1e3:.0f} ms blocks; ratio = scipy / spf")
    say = report.say
    omp = openmp()
    kernel = spf.compile(EXPRESSION, LAYOUTS, parallel=True)
    load.lap()  # compiles and the triad are not the timing's load
    width = max(len(name) for name in names)
    heads = "  ".join(f"{f'spf {t}t c128':>12} {'ratio':>5} {'c64':>7} {'ratio':>5}" for t in arguments.threads)
    say(f"   {'matrix':<{width}} {'nnz':>8}  {'scipy c128':>10} {'c64':>7}  {heads}")
    ratios: dict[tuple[int, str], list[float]] = {(t, kind): [] for t in arguments.threads for kind in ("c128", "c64")}
    for name in names:
        matrix = complex_matrix(arguments.data, name)
        rng = np.random.default_rng(matrix.shape[1])
        x = rng.uniform(-1, 1, matrix.shape[1]) + 1j * rng.uniform(-1, 1, matrix.shape[1])
        operands = {"c128": (matrix, x), "c64": (matrix.astype(np.complex64), x.astype(np.complex64))}
        calls = {f"scipy {kind}": (lambda A=A, v=v: A @ v) for kind, (A, v) in operands.items()}
        setups = {}
        for count in arguments.threads:
            omp.verify(count)
            for kind, (A, v) in operands.items():
                key = f"spf {count}t {kind}"
                calls[key] = kernel.bind(A=spf.pack("CSR", A), x=v)
                setups[key] = lambda count=count: omp.set_threads(count)
                check(f"{name}: {key}", calls[key](), A @ v, 1e-12 if kind == "c128" else 1e-5)
        times = interleaved_blocks(calls, arguments.rounds, arguments.block, setups)
        cells = []
        for count in arguments.threads:
            cell = []
            for kind in ("c128", "c64"):
                spf_time = times[f"spf {count}t {kind}"]
                ratio = times[f"scipy {kind}"] / spf_time
                ratios[(count, kind)].append(ratio)
                cell.append(f"{spf_time * 1e3:{12 if kind == 'c128' else 7}.3f} {ratio:5.2f}")
            cells.append(" ".join(cell))
        say(f"   {name:<{width}} {matrix.nnz:>8}  {times['scipy c128'] * 1e3:10.3f} {times['scipy c64'] * 1e3:7.3f}  "
            + "  ".join(cells))
    omp.set_threads(1)
    others, stolen = load.lap()
    say(f"   geomean scipy/spf over {len(names)} matrices of >= {arguments.least} nonzeros: " + "; ".join(
        f"{t}t {kind} {geometric_mean(r):.2f} (least {min(r):.2f})" for (t, kind), r in ratios.items()))
    say(f"   verdict, complex128 SpMV >= {TARGET}x scipy (geometric mean): " + "; ".join(
        f"{t} thread{'s' if t > 1 else ''} {geometric_mean(ratios[(t, 'c128')]):.2f} "
        f"{'met' if geometric_mean(ratios[(t, 'c128')]) >= TARGET else 'NOT met'}" for t in arguments.threads))
    report.close(others, stolen, arguments.output)


if __name__ == "__main__":
    main()
