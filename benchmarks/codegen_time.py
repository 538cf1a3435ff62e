"""Time of code generation (everything before the C compiler) for each kernel.

Run: python benchmarks/codegen_time.py [--repeat N]

Code generation = iteration space + scanning + find synthesis (Z3) + C emission.
Prints the median over N runs in one process (layout files already parsed) and the
first run.  Target (issue 3): under 100 ms per kernel; the paper's SpMSpM(BCSR x COO)
took 91 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from spf.codegen.pipeline import compile_kernel

KERNELS = {
    "dot SV x SV (seqiter)": ("a = b(i) * c(i)", {"b": "SV", "c": "SV"}, None, "seqiter"),
    "dot SV x SV (hashmap)": ("a = b(i) * c(i)", {"b": "SV", "c": "SV"}, None, "hashmap"),
    "dot SV x SV (auto)": ("a = b(i) * c(i)", {"b": "SV", "c": "SV"}, None, "auto"),
    "3-way dot (Fig. 11)": ("v = A(i) * B(i) * C(i)", {"A": "SV", "B": "SV_DEC", "C": "SV_UNSORTED"}, None, "auto"),
    "SpMV CSR": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, None, "auto"),
    "SpMV LOWER_TRI": ("y(i) = A(i,j) * x(j)", {"A": "LOWER_TRI", "x": "Dense", "y": "Dense"}, None, "auto"),
    "SpMV BCSR": ("y(i) = A(i,j) * x(j)", {"A": "BCSR(R=4, C=4)", "x": "Dense", "y": "Dense"}, None, "auto"),
    "SpMV WARP24": ("y(i) = A(i,j) * x(j)", {"A": "WARP24", "x": "Dense", "y": "Dense"}, None, "auto"),
    "SpMSpV CSR x SV (auto)": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"}, None, "auto"),
    "SpMSpM COO x CSR": ("C(i,j) = A(i,k) * B(k,j)", {"A": "COO", "B": "CSR", "C": "Dense"}, None, "auto"),
    "SpMSpM DCSR x DCSR": ("C(i,j) = A(i,k) * B(k,j)", {"A": "DCSR", "B": "DCSR", "C": "Dense"}, None, "auto"),
    "SpMSpM BCSR x BCSR": ("C(i,j) = A(i,k) * B(k,j)",
                           {"A": "BCSR(R=4, C=4)", "B": "BCSR(R=4, C=4)", "C": "Dense"}, None, "auto"),
    "SpMSpM BCSR x COO": ("C(i,j) = A(i,k) * B(k,j)", {"A": "BCSR(R=4, C=4)", "B": "COO", "C": "Dense"},
                          None, "auto"),
    "SDDMM": ("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"},
              {"A": "B"}, "auto"),
    "TTM": ("A(i,j,k) = B(i,j,l) * C(k,l)", {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"},
            {"A": "B"}, "auto"),
    "MTTKRP": ("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)", {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"},
               None, "auto"),
}


def measure(expression, layouts, share, find, repeat: int) -> tuple[float, float]:
    started = time.perf_counter()
    compile_kernel(expression, layouts, find=find, share=share)
    first = time.perf_counter() - started
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        compile_kernel(expression, layouts, find=find, share=share)
        times.append(time.perf_counter() - started)
    return first, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    arguments = parser.parse_args()
    print(f"{'kernel':<28} {'median ms':>10} {'first ms':>9}")
    worst = 0.0
    for name, (expression, layouts, share, find) in KERNELS.items():
        first, median = measure(expression, layouts, share, find, arguments.repeat)
        worst = max(worst, median)
        print(f"{name:<28} {median * 1e3:>10.1f} {first * 1e3:>9.1f}")
    print(f"slowest median: {worst * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
