"""SpMSpM with a dense output for pairs of layouts: spf against scipy.sparse and SuiteSparse:GraphBLAS.

Run: python benchmarks/spmspm_pairs.py [--size 5000] [--density 0.001] [--real NAME,...]

``C(i,j) = A(i,k) * B(k,j)`` with C dense, compiled by spf (serial, ``find="auto"``:
every proven find is compiled and the cheapest by the cost model runs) for A and B in
every pair of {COO, CSR, DCSR}, and for BCSR(R=4,C=4) x BCSR(R=4,C=4) and
BCSR(R=4,C=4) x COO, on

* two independent random ``size x size`` matrices A and B with the given density
  (default 5000 x 5000, density 0.001: 25,000 nonzeros each), and
* a few real square matrices with at most 100,000 nonzeros (symmetric files expanded),
  as ``A A^T`` (B = A^T).

Baselines, serial like spf: scipy ``A @ B`` on CSR operands (its best form, whatever
layout spf uses; the result is sparse, densified only to check spf's) and GraphBLAS
``A.mxm(B)`` with one thread (CSR operands, sparse result).  spf's time includes
writing the whole dense output (zeroing rows x cols doubles), which the sparse
baselines do not pay (the time numpy takes to fill C with zeros is printed per input as
that floor); scipy and GraphBLAS are timed through their Python calls, spf
through a bound kernel (inputs packed once).  Every spf result is checked against
scipy's before timing (``np.allclose`` with rtol 1e-9 and atol 1e-12 times the largest
entry of the product: entries that cancel to about zero keep rounding errors relative
to the largest).  Each time is the median of runs of spf,
scipy and GraphBLAS in interleaved rounds (the machine is shared); ratios are baseline
time / spf time (above 1: spf is faster), summarised per pair as geometric means over
the inputs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from common import geometric_mean, serial_graphblas

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SPMSPM = "C(i,j) = A(i,k) * B(k,j)"
BCSR = "BCSR(R=4, C=4)"
PAIRS = [(a, b) for a in ("COO", "CSR", "DCSR") for b in ("COO", "CSR", "DCSR")] + [(BCSR, BCSR), (BCSR, "COO")]
# square, at most 100k nonzeros once expanded, of several kinds and sizes (dense output up to 10680^2 doubles)
REAL = ["email-Eu-core", "bcsstk13", "ca-GrQc", "p2p-Gnutella08", "PGPgiantcompo"]


def interleaved_medians(variants: dict, budget: float, least: int = 5, most: int = 100) -> dict:
    """Median time of each variant (name -> function), one call of each per round, after a warm-up call."""
    for function in variants.values():
        function()
    times: dict[str, list[float]] = {name: [] for name in variants}
    started = time.perf_counter()
    rounds = 0
    while rounds < least or (time.perf_counter() - started < budget and rounds < most):
        for name, function in variants.items():
            begin = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - begin)
        rounds += 1
    return {name: statistics.median(values) for name, values in times.items()}


def random_matrix(size: int, density: float, seed: int) -> sparse.csr_matrix:
    matrix = sparse.random(size, size, density=density, format="csr", random_state=np.random.default_rng(seed))
    matrix.sort_indices()
    return matrix


def real_matrix(directory: Path, name: str) -> sparse.csr_matrix:
    matrix = sparse.csr_matrix(scipy.io.mmread(directory / f"{name}.mtx"))
    matrix.sum_duplicates()
    matrix.sort_indices()
    matrix.data = matrix.data.astype(np.float64)
    if matrix.shape[0] != matrix.shape[1] or matrix.nnz > 100_000:
        raise SystemExit(f"{name}: {matrix.shape}, {matrix.nnz} nonzeros; want square with at most 100,000")
    return matrix


def short(layout: str) -> str:
    return "BCSR4x4" if layout.startswith("BCSR") else layout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--density", type=float, default=0.001)
    parser.add_argument("--real", default=",".join(REAL), help="real square matrices (A A^T), comma-separated")
    arguments = parser.parse_args()
    gb = serial_graphblas()

    started = time.perf_counter()
    kernels = {pair: spf.compile(SPMSPM, {"A": pair[0], "B": pair[1], "C": "Dense"}) for pair in PAIRS}
    print(f"compiled {len(kernels)} SpMSpM kernels in {time.perf_counter() - started:.1f} s (serial; "
          "C dense; find='auto')")

    inputs = [(f"random {arguments.size}^2 d={arguments.density}",
               random_matrix(arguments.size, arguments.density, 1),
               random_matrix(arguments.size, arguments.density, 2))]
    names = [name for name in arguments.real.split(",") if name]
    if names and not (arguments.data / "matrices").is_dir():
        sys.exit(f"no real matrices at {arguments.data / 'matrices'}")
    for name in names:
        matrix = real_matrix(arguments.data / "matrices", name)
        inputs.append((f"{name} A*A^T", matrix, matrix.T.tocsr()))

    ratios: dict[str, list[float]] = {}
    for label, A, B in inputs:
        reference = A @ B
        dense_reference = reference.toarray()
        # entries that cancel to about 0 carry rounding relative to the largest (bcsstk13's reach 3e24)
        scale = 1e-12 * max(1.0, float(np.abs(dense_reference).max(initial=0.0)))
        print(f"\n{label}: A {A.shape[0]}x{A.shape[1]} nnz {A.nnz}, B nnz {B.nnz}, "
              f"C = A B has {reference.nnz} nonzeros ({reference.nnz / (A.shape[0] * B.shape[1]):.2%} dense)")
        baselines = {"scipy": lambda: A @ B}
        if gb is not None:
            A_gb, B_gb = gb.io.from_scipy_sparse(A), gb.io.from_scipy_sparse(B)
            baselines["GraphBLAS"] = lambda: A_gb.mxm(B_gb).new()
            product = baselines["GraphBLAS"]()
            rows, cols, values = product.to_coo()
            check = np.zeros(dense_reference.shape)
            check[rows, cols] = values
            assert np.allclose(check, dense_reference, rtol=1e-9, atol=scale), "GraphBLAS mxm differs from scipy"
        dense = np.empty(dense_reference.shape)
        fill = interleaved_medians({"fill": lambda: dense.fill(0.0)}, budget=0.5)["fill"]
        del dense
        print(f"  writing C's {dense_reference.size} zeros (numpy fill, the floor of any dense-output kernel): "
              f"{fill * 1e3:.2f} ms")
        packed = {}
        for layout in {layout for pair in PAIRS for layout in pair}:
            packed[("A", layout)] = spf.pack(layout, A, name="A")
            packed[("B", layout)] = spf.pack(layout, B, name="B")
        header = f"  {'A x B':<18} {'find':<9} {'spf ms':>9} {'scipy ms':>9} {'scipy/spf':>9}"
        if gb is not None:
            header += f" {'GB ms':>9} {'GB/spf':>7}"
        print(header)
        for pair, kernel in kernels.items():
            bound = kernel.bind(A=packed[("A", pair[0])], B=packed[("B", pair[1])])
            result = bound()
            if not np.allclose(result, dense_reference, rtol=1e-9, atol=scale):
                raise AssertionError(f"{label}, {pair}: spf's result differs from scipy's "
                                     f"(max error {np.max(np.abs(result - dense_reference)):.3g})")
            find = " + ".join(choice.kind for choice in bound.choices) or "-"
            times = interleaved_medians({"spf": bound, **baselines}, budget=1.5)
            name = f"{short(pair[0])} x {short(pair[1])}"
            line = f"  {name:<18} {find:<9} {times['spf'] * 1e3:>9.2f} {times['scipy'] * 1e3:>9.2f}"
            ratio = times["scipy"] / times["spf"]
            ratios.setdefault(f"{name} vs scipy", []).append(ratio)
            line += f" {ratio:>9.2f}"
            if gb is not None:
                ratio = times["GraphBLAS"] / times["spf"]
                ratios.setdefault(f"{name} vs GraphBLAS", []).append(ratio)
                line += f" {times['GraphBLAS'] * 1e3:>9.2f} {ratio:>7.2f}"
            print(line, flush=True)
            del bound, result

    print("\ngeometric-mean ratios (baseline time / spf time; above 1 means spf is faster):")
    for key, values in ratios.items():
        print(f"  {key:<32} {geometric_mean(values):6.2f}  ({len(values)} inputs)")
    for baseline in ("scipy", "GraphBLAS"):
        every = [v for key, values in ratios.items() if key.endswith(baseline) for v in values]
        if every:
            print(f"  {'all pairs vs ' + baseline:<32} {geometric_mean(every):6.2f}  ({len(every)} pair-inputs)")


if __name__ == "__main__":
    main()
