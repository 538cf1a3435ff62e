"""SpMV with float32 values against float64 (issue 29): what fewer bytes per nonzero buy.

Run: python benchmarks/value_types.py [--least 500000] [--limit N] [--synthetic NNZ ...] [--threads 1 2]
         [--rounds 9] [--block 0.1] [--wait-idle SECONDS] [--data DIR] [--output FILE]

Issue 29's acceptance line: float32 SpMV at least 1.25x float64 SpMV on real matrices of at
least 500k nonzeros, since a nonzero then moves 8 bytes (a float and an int index) instead of
12.  ``y(i) = A(i,j) * x(j)``, A in CSR, x and y dense, on every real matrix of at least
``--least`` nonzeros (smallest first; ``--limit N`` takes the first N), per matrix:

* **spf f64**: A packed once in CSR, x float64, the kernel compiled with ``parallel=True`` and
  called bound, at each ``--threads`` count (OpenMP's, set before each block);
* **spf f32**: the same kernel called with A's values and x rounded to float32: the built-in
  layouts are generic, so it is compiled again for float32 values and sums each row in float32
  (spf.notation.value_types), as scipy's float32 product does;
* **scipy f64** and **scipy f32**: ``A @ x`` with a csr_matrix and x of that dtype (serial).

Ratios are float64 time / float32 time (above 1: float32 is faster), per matrix and in
geometric mean; the verdict line compares spf's geometric mean at each thread count with 1.25.
Each result is checked against scipy's float64 one before timing (float64 to 1e-10, float32 to
1e-4 of its norm).  Timing: interleaved rounds, each system a block of calls of about ``--block``
seconds per round (common.interleaved_blocks), medians.  The output has the load average, a
triad's bandwidth from this run and the cache size, and at the end the CPUs other processes
used while timing (parallel.py's idle check).  A matrix whose arrays fit in the last-level
cache (the MB column: bytes one SpMV reads and writes) measures compute, not memory traffic:
the data has one real matrix of >= 500k nonzeros, which fits, so ``--synthetic NNZ`` adds random
matrices of about NNZ nonzeros (20 per row, named ``random-<nnz>``) that do not, marked as such.
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
FLOAT64_LAYOUTS = {"A": "CSR", "x": "Dense", "y": "Dense"}
TARGET = 1.25


def float32_layouts() -> dict[str, str]:
    """The float32 kernel's layouts: the built-in ones, whose values take the data's type."""
    return FLOAT64_LAYOUTS


def synthetic_matrix(nonzeros: int) -> sparse.csr_matrix:
    """A random float64 CSR matrix of about ``nonzeros`` entries, 20 per row, square."""
    rows = max(nonzeros // 20, 1)
    rng = np.random.default_rng(nonzeros)
    columns = rng.integers(0, rows, size=rows * 20)
    matrix = sparse.csr_matrix((rng.random(rows * 20) + 0.5, columns, np.arange(0, rows * 20 + 1, 20)),
                               shape=(rows, rows))
    matrix.sum_duplicates()
    matrix.sort_indices()
    return matrix


def read_matrix(data: Path, name: str) -> sparse.csr_matrix:
    """A real matrix in float64 CSR, duplicates summed and columns sorted (as spmv.py reads it)."""
    matrix = sparse.csr_matrix(scipy.io.mmread(data / "matrices" / f"{name}.mtx"), dtype=np.float64)
    matrix.sum_duplicates()
    matrix.sort_indices()
    return matrix


def check(label: str, result: np.ndarray, expected: np.ndarray, single: bool) -> None:
    """Raise unless ``result`` is scipy's float64 SpMV: to 1e-10 for float64, and within 1e-4
    of its norm for float32 (rounded inputs and another order of sums), and in float32."""
    if single and np.asarray(result).dtype != np.float32:
        raise AssertionError(f"{label}: a result in {np.asarray(result).dtype}, not float32")
    result = np.asarray(result, dtype=np.float64)
    if single:
        error = np.linalg.norm(result - expected) / max(np.linalg.norm(expected), 1e-300)
        if not error <= 1e-4:
            raise AssertionError(f"{label}: relative error {error:.3g} against scipy float64 exceeds 1e-4")
    elif not np.allclose(result, expected, rtol=1e-10, atol=1e-12):
        raise AssertionError(f"{label}: differs from scipy float64 (max error {np.abs(result - expected).max():.3g})")


def megabytes(matrix: sparse.csr_matrix, value_bytes: int) -> float:
    """What one SpMV reads and writes at least: values and int32 indices, row pointers, x, y."""
    rows, columns = matrix.shape
    return (matrix.nnz * (value_bytes + 4) + (rows + 1) * 4 + (rows + columns) * value_bytes) / 1e6


def last_level_cache() -> str:
    """The largest cache's size as Linux reports it (a matrix that fits runs from it)."""
    sizes = [(int((level / "level").read_text()), (level / "size").read_text().strip())
             for level in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")]
    if not sizes:
        return "cache size unknown"
    level, size = max(sizes)
    return f"L{level} cache {int(size[:-1]) // 1024} MiB" if size.endswith("K") else f"L{level} cache {size}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--least", type=int, default=500_000, help="the matrices' least number of nonzeros")
    parser.add_argument("--limit", type=int, default=None, help="only the first N matrices (smallest first)")
    parser.add_argument("--synthetic", type=int, nargs="*", default=[],
                        help="also random matrices of about these many nonzeros (beyond the cache)")
    timing_arguments(parser, DATA, HERE / "results" / "value_types.txt", rounds=9, block=0.1)
    arguments = parser.parse_args()
    load = idle_load(arguments.data, arguments.wait_idle)
    names = manifest_names(arguments.data, "matrix", arguments.least)[:arguments.limit] \
        + [f"random-{count}" for count in arguments.synthetic]
    if not names:
        sys.exit(f"no real matrix of at least {arguments.least} nonzeros in {arguments.data}")
    report = Report("value_types.py", f"{last_level_cache()}; times in ms, medians of {arguments.rounds} interleaved rounds of "
                    f"{arguments.block * 1e3:.0f} ms blocks; ratio = float64 time / float32 time (target {TARGET})")
    say = report.say
    omp = openmp()
    for count in arguments.threads:
        omp.verify(count)
    single_layouts = float32_layouts()
    double, single = (spf.compile(EXPRESSION, FLOAT64_LAYOUTS, parallel=True),
                      spf.compile(EXPRESSION, single_layouts, parallel=True))
    load.lap()  # compiles and the triad are not the timing's load
    width = max(len(name) for name in names)
    spf_heads = "  ".join(f"{f'spf {t}t f64':>10} {'f32':>7} {'ratio':>5}" for t in arguments.threads)
    say(f"   {'matrix':<{width}} {'nnz':>8} {'MB f64/f32':>11}  {'scipy f64':>9} {'f32':>7} {'ratio':>5}  {spf_heads}")
    scipy_ratios: list[float] = []
    spf_ratios: dict[int, list[float]] = {t: [] for t in arguments.threads}
    for name in names:
        matrix = synthetic_matrix(int(name[7:])) if name.startswith("random-") else read_matrix(arguments.data, name)
        matrix32 = matrix.astype(np.float32)
        x = np.random.default_rng(matrix.nnz).random(matrix.shape[1]) + 0.5
        x32 = x.astype(np.float32)
        expected = matrix @ x
        A, A32 = spf.pack("CSR", matrix), spf.pack(single_layouts["A"], matrix32)
        calls = {"scipy f64": lambda: matrix @ x, "scipy f32": lambda: matrix32 @ x32}
        setups = {}
        for count in arguments.threads:
            omp.verify(count)
            for label, kernel, operand, vector in (("f64", double, A, x), ("f32", single, A32, x32)):
                key = f"spf {count}t {label}"
                calls[key] = kernel.bind(A=operand, x=vector)
                setups[key] = lambda count=count: omp.set_threads(count)
                check(f"{name}: {key}", calls[key](), expected, label == "f32")
        check(f"{name}: scipy f32", calls["scipy f32"](), expected, True)
        times = interleaved_blocks(calls, arguments.rounds, arguments.block, setups)
        scipy_ratio = times["scipy f64"] / times["scipy f32"]
        scipy_ratios.append(scipy_ratio)
        cells = []
        for count in arguments.threads:
            f64, f32 = times[f"spf {count}t f64"], times[f"spf {count}t f32"]
            spf_ratios[count].append(f64 / f32)
            cells.append(f"{f64 * 1e3:10.3f} {f32 * 1e3:7.3f} {f64 / f32:5.2f}")
        say(f"   {name:<{width}} {matrix.nnz:>8} {megabytes(matrix, 8):5.1f}/{megabytes(matrix, 4):<5.1f}  "
            f"{times['scipy f64'] * 1e3:9.3f} {times['scipy f32'] * 1e3:7.3f} {scipy_ratio:5.2f}  " + "  ".join(cells))
    omp.set_threads(1)
    others, stolen = load.lap()
    for kind, chosen in (("real", [not n.startswith("random-") for n in names]),
                         ("synthetic", [n.startswith("random-") for n in names])):
        if not any(chosen):
            continue
        pick = lambda ratios: [r for r, c in zip(ratios, chosen) if c]  # noqa: E731
        count = sum(chosen)
        text = f"{count} {kind} {'matrix' if count == 1 else 'matrices'}" + \
            (f" of >= {arguments.least} nonzeros" if kind == "real" else "")
        say(f"   geomean f64/f32 ({text}): scipy {geometric_mean(pick(scipy_ratios)):.2f} "
            f"(least {min(pick(scipy_ratios)):.2f}); " + "; ".join(
                f"spf {t}t {geometric_mean(pick(r)):.2f} (least {min(pick(r)):.2f})" for t, r in spf_ratios.items()))
        say(f"   verdict ({kind}), float32 SpMV >= {TARGET}x float64 (spf, geometric mean): " + "; ".join(
            f"{t} thread{'s' if t > 1 else ''} {geometric_mean(pick(r)):.2f} "
            f"{'met' if geometric_mean(pick(r)) >= TARGET else 'NOT met'}" for t, r in spf_ratios.items()))
    report.close(others, stolen, arguments.output)


if __name__ == "__main__":
    main()
