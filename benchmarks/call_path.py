"""Around the kernel (issues 12 and 30): what a compile and a call cost besides the C function.

Run: python benchmarks/call_path.py [--matrices watt_2 BlogCatalog3] [--wait-idle 60]

1. ``spf.compile`` warm in a new process (the whole-kernel cache on disk, spf/codegen/toolchain/kernel_cache.py)
   for SpMV, SpMSpV (find="auto"), TTM and MTTKRP: each compiled once in a first process,
   then timed in a second one (median of 3 processes); and a repeated compile in one process.
2. SpMV on real matrices (by default one of ~11k nonzeros and one of ~670k): the bound call
   (the C function alone), ``k(A=tensor, x=x)``, ``k(A=scipy_csr, x=x)`` (checks included),
   ``spf.einsum("ij,j->i", A, x)`` on the scipy matrix, and scipy's ``A @ x``, interleaved
   blocks of calls, medians.
3. Calls with packed Tensors against the bound call for a shared output (TTM
   ``A(i,j,k) = B(i,j,l) * C(k,l)``, A in CSF3_DENSE_LAST sharing B, 3M nonzeros, R = 32)
   and an assembled one (A * A into CSR on the first matrix).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from common import interleaved_blocks
from parallel import idle_load

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
KERNELS = {
    "SpMV": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}),
    "SpMSpV": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense1"}),
    "TTM": ("A(i,j,l) = B(i,j,k) * C(k,l)", {"B": "CSF3", "C": "Dense2", "A": "Dense3"}),
    "MTTKRP": ("A(i,a) = B(i,j,k) * C(j,a) * D(k,a)", {"B": "CSF3", "C": "Dense2", "D": "Dense2", "A": "Dense2"}),
}
COMPILE = """
import json, sys, time
import spf
expression, layouts = json.loads(sys.argv[1])
started = time.perf_counter()
kernel = spf.compile(expression, layouts)
print(json.dumps([time.perf_counter() - started, kernel.cached]))
"""


def warm_compiles(processes: int = 4) -> dict[str, float]:
    """Seconds of a warm compile in a new process per kernel (the median of all processes but
    the first), and of a repeated one in this process ("repeated")."""
    print(f"spf.compile in a new process (after `import spf`), from the kernel cache; ms, median of {processes - 1}")
    seconds_of: dict[str, float] = {}
    for name, (expression, layouts) in KERNELS.items():
        argument = json.dumps([expression, layouts])
        runs = [json.loads(subprocess.run([sys.executable, "-c", COMPILE, argument], capture_output=True,
                                          text=True, check=True).stdout) for _ in range(max(processes, 2))]
        seconds = statistics.median(run[0] for run in runs[1:])
        print(f"  {name:8s} first {runs[0][0] * 1e3:8.1f} ({runs[0][1] or 'compiled'}), "
              f"warm {seconds * 1e3:6.1f} ({runs[-1][1]})")
        seconds_of[name] = seconds
    expression, layouts = KERNELS["SpMSpV"]
    spf.compile(expression, layouts)
    started = time.perf_counter()
    for _ in range(1000):
        spf.compile(expression, layouts)
    seconds_of["repeated"] = (time.perf_counter() - started) / 1000
    print(f"  repeated compile in one process: {seconds_of['repeated'] * 1e3:.3f} ms")
    return seconds_of


def calls(matrix_name: str) -> dict[str, float]:
    A = sparse.csr_matrix(scipy.io.mmread(DATA / "matrices" / f"{matrix_name}.mtx"))
    A.sum_duplicates()
    A.sort_indices()
    A.data = A.data.astype(np.float64)
    return call_times(matrix_name, A)


def call_times(matrix_name: str, A: sparse.csr_matrix, rounds: int = 21) -> dict[str, float]:
    """Median seconds per call of the bound call, k(A=tensor, x), k(A=scipy csr, x),
    spf.einsum and scipy (``rounds`` interleaved blocks of calls)."""
    x = np.random.default_rng(0).random(A.shape[1])
    expression, layouts = KERNELS["SpMV"]
    kernel = spf.compile(expression, layouts)
    T = spf.pack("CSR", A.copy())
    bound = kernel.bind(A=T, x=x)
    assert np.allclose(kernel(A=A, x=x), A @ x) and np.allclose(bound(), A @ x)
    assert np.allclose(spf.einsum("ij,j->i", A, x), A @ x)
    systems = {"bound call": bound, "k(A=tensor, x)": lambda: kernel(A=T, x=x),
               "k(A=scipy csr, x)": lambda: kernel(A=A, x=x),
               "spf.einsum(scipy)": lambda: spf.einsum("ij,j->i", A, x), "scipy A @ x": lambda: A @ x}
    medians = interleaved_blocks(systems, rounds, 0.01)
    print(f"SpMV on {matrix_name} ({A.shape[0]} rows, {A.nnz} nonzeros), 1 thread; ms per call, medians")
    for name, seconds in medians.items():
        print(f"  {name:20s} {seconds * 1e3:8.4f}")
    print(f"  k(A=tensor, x) / bound call: {medians['k(A=tensor, x)'] / medians['bound call']:.2f}; "
          f"k(A=scipy csr, x) / scipy: {medians['k(A=scipy csr, x)'] / medians['scipy A @ x']:.2f}; "
          f"spf.einsum / scipy: {medians['spf.einsum(scipy)'] / medians['scipy A @ x']:.2f}")
    return medians


def output_calls(A: sparse.csr_matrix, rounds: int = 11) -> dict[str, float]:
    """k(...) with packed Tensors / the bound call, for a shared output (TTM on a synthetic
    order-3 tensor of 3M nonzeros, R = 32) and an assembled one (A * A into CSR)."""
    generator = np.random.default_rng(0)
    extents, stored = (200, 400, 300), 3_000_000
    flat = np.unique(generator.integers(0, int(np.prod(extents)), int(stored * 1.03)))[:stored]
    B = spf.pack("CSF3", (np.stack(np.unravel_index(flat, extents), axis=1), generator.random(len(flat)), extents))
    C = generator.random((32, extents[2]))
    ttm = spf.compile("A(i,j,k) = B(i,j,l) * C(k,l)", {"B": "CSF3", "C": "Dense2", "A": "CSF3_DENSE_LAST"},
                      share={"A": "B"})
    T = spf.pack("CSR", A.copy())
    product = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    systems = {"TTM shared, bound": ttm.bind(B=B, C=C), "TTM shared, k(B=tensor, C)": lambda: ttm(B=B, C=C),
               "A*A assembled, bound": product.bind(A=T, B=T),
               "A*A assembled, k(A=tensor, B=tensor)": lambda: product(A=T, B=T)}
    medians = interleaved_blocks(systems, rounds, 0.05)
    print(f"Calls with packed Tensors against the bound call ({B.values.size} nonzeros for TTM, "
          f"{A.nnz} for A*A); ms per call, medians")
    for name, seconds in medians.items():
        print(f"  {name:38s} {seconds * 1e3:8.3f}")
    print(f"  TTM shared: call / bound {medians['TTM shared, k(B=tensor, C)'] / medians['TTM shared, bound']:.2f}; "
          f"A*A assembled: call / bound "
          f"{medians['A*A assembled, k(A=tensor, B=tensor)'] / medians['A*A assembled, bound']:.2f}")
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matrices", nargs="+", default=["watt_2", "BlogCatalog3"])
    parser.add_argument("--wait-idle", type=float, default=0.0)
    arguments = parser.parse_args()
    load = idle_load(DATA, arguments.wait_idle)
    warm_compiles()
    load.lap()  # the compiles' processes are the benchmark's own: the load is measured over the calls
    for matrix in arguments.matrices:
        calls(matrix)
    first = sparse.csr_matrix(scipy.io.mmread(DATA / "matrices" / f"{arguments.matrices[0]}.mtx"))
    first.sum_duplicates()
    output_calls(first)
    load.report("calls")


if __name__ == "__main__":
    main()
