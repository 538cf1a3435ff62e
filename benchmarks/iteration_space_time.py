"""Time to derive iteration spaces (everything before code generation).

Run: python benchmarks/iteration_space_time.py [--repeat N]

Prints, per kernel, the median over N runs of spf.space.iteration_space with the layout
files already parsed (warm) and the first run in a fresh process (cold, including
parsing the layout files).  The issue's target: SpMSpM(BCSR x COO) under 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import spf

KERNELS = {
    "dot SV x SV": ("a = b(i) * c(i)", {"a": "Dense", "b": "SV", "c": "SV"}, None),
    "SpMV CSR": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, None),
    "SpMV LOWER_TRI": ("y(i) = A(i,j) * x(j)", {"A": "LOWER_TRI", "x": "Dense", "y": "Dense"}, None),
    "SpMSpV CSR x SV": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"}, None),
    "SpMSpM COO x CSR": ("C(i,j) = A(i,k) * B(k,j)", {"A": "COO", "B": "CSR", "C": "Dense"}, None),
    "SpMSpM BCSR x BCSR": ("C(i,j) = A(i,k) * B(k,j)",
                           {"A": "BCSR(R=4, C=4)", "B": "BCSR(R=4, C=4)", "C": "Dense"}, None),
    "SpMSpM BCSR x COO": ("C(i,j) = A(i,k) * B(k,j)", {"A": "BCSR(R=4, C=4)", "B": "COO", "C": "Dense"}, None),
    "SDDMM CSR (shared output)": ("A(i,j) = B(i,j) * C(i,k) * D(k,j)",
                                  {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, {"A": "B"}),
    "TTM CSF3 -> CSF3_DENSE_LAST": ("A(i,j,k) = B(i,j,l) * C(k,l)",
                                    {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}, {"A": "B"}),
    "MTTKRP CSF3": ("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)",
                    {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}, None),
}


def warm_median(expression, layouts, share, repeat: int) -> float:
    spf.iteration_space(expression, layouts, share=share)  # parse the layout files once
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        spf.iteration_space(expression, layouts, share=share)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cold_time(name: str) -> float:
    """First derivation in a new process (layout files parsed, nothing cached)."""
    code = ("import time, spf; from benchmarks.iteration_space_time import KERNELS as K; "
            f"e, l, s = K[{name!r}]; t = time.perf_counter(); spf.iteration_space(e, l, share=s); "
            "print(time.perf_counter() - t)")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(output.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    arguments = parser.parse_args()
    print(f"{'kernel':<30} {'warm median ms':>15} {'cold ms':>9}")
    for name, (expression, layouts, share) in KERNELS.items():
        warm = warm_median(expression, layouts, share, arguments.repeat)
        cold = cold_time(name)
        print(f"{name:<30} {warm * 1e3:>15.1f} {cold * 1e3:>9.1f}")


if __name__ == "__main__":
    main()
