"""Around the kernel (issue 12): what a compile and a call cost besides the C function.

Run: python benchmarks/call_path.py [--matrix BlogCatalog3] [--wait-idle 60]

1. ``spf.compile`` warm in a new process (the whole-kernel cache on disk, spf/codegen/toolchain/kernel_cache.py)
   for SpMV, SpMSpV (find="auto"), TTM and MTTKRP: each compiled once in a first process,
   then timed in a second one (median of 3 processes); and a repeated compile in one process.
2. SpMV on a real matrix: the bound call (the C function alone), ``k(A=tensor, x=x)``,
   ``k(A=scipy_csr, x=x)`` (checks included) and scipy's ``A @ x``, interleaved blocks of
   calls, medians.
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
from parallel import Load

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


def call_times(matrix_name: str, A: sparse.csr_matrix, rounds: int = 15) -> dict[str, float]:
    """Median seconds per call of the bound call, k(A=tensor, x), k(A=scipy csr, x) and scipy
    (``rounds`` interleaved blocks of 20 calls)."""
    x = np.random.default_rng(0).random(A.shape[1])
    expression, layouts = KERNELS["SpMV"]
    kernel = spf.compile(expression, layouts)
    T = spf.pack("CSR", A.copy())
    bound = kernel.bind(A=T, x=x)
    assert np.allclose(kernel(A=A, x=x), A @ x) and np.allclose(bound(), A @ x)
    systems = {"bound call": bound, "k(A=tensor, x)": lambda: kernel(A=T, x=x),
               "k(A=scipy csr, x)": lambda: kernel(A=A, x=x), "scipy A @ x": lambda: A @ x}
    times: dict[str, list[float]] = {name: [] for name in systems}
    for _ in range(rounds):
        for name, function in systems.items():
            started = time.perf_counter()
            for _ in range(20):
                function()
            times[name].append((time.perf_counter() - started) / 20)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"SpMV on {matrix_name} ({A.shape[0]} rows, {A.nnz} nonzeros), 1 thread; ms per call, medians")
    for name, seconds in medians.items():
        print(f"  {name:20s} {seconds * 1e3:8.3f}")
    print(f"  k(A=tensor, x) / bound call: {medians['k(A=tensor, x)'] / medians['bound call']:.2f}; "
          f"k(A=scipy csr, x) / scipy: {medians['k(A=scipy csr, x)'] / medians['scipy A @ x']:.2f}")
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matrix", default="BlogCatalog3")
    parser.add_argument("--wait-idle", type=float, default=0.0)
    arguments = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"no data at {DATA}: the benchmark runs on ../shared/data")
    load = Load()
    if arguments.wait_idle:
        load.wait_until_idle(arguments.wait_idle)
    warm_compiles()
    load.lap()  # the compiles' processes are the benchmark's own: the load is measured over the calls
    calls(arguments.matrix)
    load.report("calls")


if __name__ == "__main__":
    main()
