"""Sparse outputs and packing: spf's assembled outputs against scipy.sparse and GraphBLAS.

Run: python benchmarks/assembly.py [--wait-idle 600] [--matrices N] [--pack-nnz 20000000] [--quick]
(results/assembly.txt: ``--wait-idle 600``; a few minutes, 6 GB of memory for the packing part)

Parts, in one process:

1. **SpGEMM** C = A·Aᵀ with A and Aᵀ in CSR (Aᵀ built once, outside the timing, for every
   system), C in CSR with sorted columns: spf ``C(i,j) = A(i,k) * B(k,j)`` (Gustavson's
   workspace, then the CSR builder), scipy's ``A @ At`` (columns unsorted), GraphBLAS
   ``mxm`` (one thread), on the real square matrices with n <= 70k (the smallest N).
2. **A + B** in CSR, B being A with 40% of its entries removed and 5% new ones: spf
   ``C(i,j) = A(i,j) + B(i,j)``, scipy ``A + B``, GraphBLAS ``ewise_add``.
3. **CSR -> CSC**: ``spf.convert(A, "CSC")`` against scipy's ``tocsc()``.
4. **Packing** ``--pack-nnz`` uniformly random entries from COO into CSR and BCSR(4,4),
   and DIA of ca-GrQc: time and peak memory (each in its own process) against scipy's
   ``tocsr()``, ``tobsr((4, 4))`` and ``dia_matrix``.

Every spf result is checked against scipy's (pattern and values, rtol 1e-12) before
timing.  Systems are timed in blocks of calls (GraphBLAS's wheel has its own OpenMP
runtime), the blocks interleaved over rounds; a time is the median of a system's
per-call block times.  Ratios are scipy's time / the other's (> 1: faster than scipy),
summarised as geometric means.  The machine's load (other processes' CPU use) is
printed per part, and a triad's bandwidth (numpy, ``a = b + s*c``) from the same run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from common import geometric_mean, serial_graphblas
from parallel import Load

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SPGEMM = "C(i,j) = A(i,k) * B(k,j)"


def square_matrices(limit: int) -> list[tuple[str, sparse.csr_matrix]]:
    """The real square matrices with n <= 70k, smallest first (by nonzeros)."""
    rows = []
    for line in (DATA / "MANIFEST.tsv").read_text().splitlines()[1:]:
        fields = line.split("\t")
        if fields[1] != "matrix":
            continue
        shape = fields[4].split("x")
        if shape[0] == shape[1] and int(shape[0]) <= 70_000:
            rows.append((int(fields[5]), Path(fields[0]).stem))
    chosen = [name for _, name in sorted(rows)[:limit]]
    return [(name, sparse.csr_matrix(scipy.io.mmread(DATA / "matrices" / f"{name}.mtx"))) for name in chosen]


def block_medians(systems: dict, budget: float, least: int = 5) -> dict[str, float]:
    """Median per-call time of each system (name -> function), timed in interleaved blocks of calls."""
    blocks = {}
    for name, function in systems.items():
        function()
        started = time.perf_counter()
        function()
        blocks[name] = max(1, min(50, int(0.02 / max(time.perf_counter() - started, 1e-7))))
    times: dict[str, list[float]] = {name: [] for name in systems}
    started = time.perf_counter()
    rounds = 0
    while rounds < least or (time.perf_counter() - started < budget and rounds < 50):
        for name, function in systems.items():
            begin = time.perf_counter()
            for _ in range(blocks[name]):
                function()
            times[name].append((time.perf_counter() - begin) / blocks[name])
        rounds += 1
    return {name: statistics.median(values) for name, values in times.items()}


def same(tensor: spf.Tensor, expected) -> None:
    expected = sparse.csr_matrix(expected)
    expected.eliminate_zeros()
    expected.sort_indices()
    got = sparse.csr_matrix(tensor.to_scipy())
    assert got.nnz == expected.nnz, (got.nnz, expected.nnz)
    assert np.array_equal(got.indptr, expected.indptr) and np.array_equal(got.indices, expected.indices)
    assert np.allclose(got.data, expected.data, rtol=1e-12, atol=0)


def triad_bandwidth() -> float:
    n = 1 << 25
    b, c, a = np.random.rand(n), np.random.rand(n), np.empty(n)
    times = []
    for _ in range(5):
        started = time.perf_counter()
        np.add(b, 2.5 * c, out=a)
        times.append(time.perf_counter() - started)
    return 5 * 8 * n / min(times) / 1e9  # 2.5*c: read c, write temp; add: read b, temp, write a


def table(title: str, rows: list[tuple], columns: list[str]) -> None:
    print(f"\n{title}")
    print("  " + "  ".join(f"{c:>14s}" for c in columns))
    for row in rows:
        print("  " + "  ".join(f"{v:>14.3f}" if isinstance(v, float) else f"{str(v):>14s}" for v in row))


def part_spgemm(matrices, gb, budget: float) -> None:
    kernel = spf.compile(SPGEMM, {"A": "CSR", "B": "CSR", "C": "CSR"})
    rows, ratios, gb_ratios = [], [], []
    for name, A in matrices:
        At = sparse.csr_matrix(A.T)
        bound = kernel.bind(A=spf.pack("CSR", A), B=spf.pack("CSR", At))
        same(bound(), A @ At)
        systems = {"scipy": lambda: A @ At, "spf": bound}
        if gb is not None:
            GA, GT = gb.io.from_scipy_sparse(A), gb.io.from_scipy_sparse(At)
            systems["graphblas"] = lambda: GA.mxm(GT).new()
        t = block_medians(systems, budget)
        ratio = t["scipy"] / t["spf"]
        ratios.append(ratio)
        row = [name, (A @ At).nnz, t["scipy"] * 1e3, t["spf"] * 1e3, ratio]
        if gb is not None:
            gb_ratios.append(t["graphblas"] / t["spf"])
            row += [t["graphblas"] * 1e3, gb_ratios[-1]]
        rows.append(tuple(row))
    table("SpGEMM C = A*At, CSR x CSR -> CSR (sorted), 1 thread; times in ms",
          rows, ["matrix", "nnz(C)", "scipy", "spf", "scipy/spf"] + (["graphblas", "gb/spf"] if gb else []))
    print(f"  geometric mean scipy/spf: {geometric_mean(ratios):.3f}" +
          (f"; graphblas/spf: {geometric_mean(gb_ratios):.3f}" if gb else ""))


def part_add_and_convert(matrices, gb, budget: float) -> None:
    add = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    rows, ratios, gb_ratios, conversion = [], [], [], []
    for number, (name, A) in enumerate(matrices):
        rng = np.random.default_rng(number)
        coo = A.tocoo()
        keep = rng.random(coo.nnz) < 0.6
        extra = sparse.random(*A.shape, density=0.05 * A.nnz / max(A.shape[0] * A.shape[1], 1), format="coo",
                              random_state=rng)
        B = sparse.csr_matrix((np.concatenate([coo.data[keep], extra.data]),
                               (np.concatenate([coo.row[keep], extra.row]),
                                np.concatenate([coo.col[keep], extra.col]))), shape=A.shape)
        TA, TB = spf.pack("CSR", A), spf.pack("CSR", B)
        bound = add.bind(A=TA, B=TB)
        same(bound(), A + B)
        systems = {"scipy": lambda: A + B, "spf": bound}
        if gb is not None:
            GA, GB_ = gb.io.from_scipy_sparse(A), gb.io.from_scipy_sparse(B)
            systems["graphblas"] = lambda: GA.ewise_add(GB_).new()
        t = block_medians(systems, budget)
        ratios.append(t["scipy"] / t["spf"])
        row = [name, t["scipy"] * 1e3, t["spf"] * 1e3, ratios[-1]]
        if gb is not None:
            gb_ratios.append(t["graphblas"] / t["spf"])
            row += [t["graphblas"] * 1e3, gb_ratios[-1]]
        rows.append(tuple(row))
        converted = spf.convert(TA, "CSC")
        assert np.array_equal(converted.to_dense(), A.toarray()) if A.shape[0] <= 5000 else True
        c = block_medians({"scipy": lambda: A.tocsc(), "spf": lambda: spf.convert(TA, "CSC")}, budget)
        conversion.append((name, c["scipy"] * 1e3, c["spf"] * 1e3, c["scipy"] / c["spf"]))
    table("A + B, CSR, 1 thread; times in ms", rows,
          ["matrix", "scipy", "spf", "scipy/spf"] + (["graphblas", "gb/spf"] if gb else []))
    print(f"  geometric mean scipy/spf: {geometric_mean(ratios):.3f}" +
          (f"; graphblas/spf: {geometric_mean(gb_ratios):.3f}" if gb else ""))
    table("CSR -> CSC: spf.convert against scipy's tocsc(); times in ms", conversion,
          ["matrix", "scipy", "spf", "scipy/spf"])
    print(f"  geometric mean scipy/spf: {geometric_mean([r[3] for r in conversion]):.3f}")


PACK = """
import gc, os, sys, threading, time
import numpy as np, scipy.io, scipy.sparse as sparse

def rss():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

class Peak(threading.Thread):
    # the largest resident set seen while the work runs, sampled every millisecond
    def __init__(self):
        super().__init__(daemon=True)
        self.peak, self.running = rss(), True
    def run(self):
        while self.running:
            self.peak = max(self.peak, rss())
            time.sleep(0.001)

which, target, nnz = sys.argv[1], sys.argv[2], int(sys.argv[3])
if target == "DIA":
    A = sparse.csr_matrix(scipy.io.mmread(sys.argv[4]))
else:
    n = max(nnz // 10, 1)
    rng = np.random.default_rng(0)
    A = sparse.coo_matrix((rng.standard_normal(nnz), (rng.integers(0, n, nnz).astype(np.int32),
                           rng.integers(0, n, nnz).astype(np.int32))), shape=(n, n))
import spf
if which == "spf":  # compile (or load) the builder before measuring
    spf.pack(target if target != "BCSR" else "BCSR(R=4, C=4)", sparse.eye(8, format="coo"))
gc.collect()
base = rss()
sampler = Peak()
sampler.start()
started = time.perf_counter()
if which == "scipy":
    out = A.tocsr() if target == "CSR" else A.tobsr(blocksize=(4, 4)) if target == "BCSR" else sparse.dia_matrix(A)
else:
    out = spf.pack({"CSR": "CSR", "BCSR": "BCSR(R=4, C=4)", "DIA": "DIA"}[target], A)
seconds = time.perf_counter() - started
sampler.running = False
sampler.join()
peak = max(sampler.peak, rss())
print(seconds, peak - base, base)
"""


def part_packing(nnz: int) -> None:
    rows = []
    for target in ["CSR", "BCSR", "DIA"]:
        measured = {}
        for which in ["scipy", "spf"]:
            command = [sys.executable, "-c", PACK, which, target, str(nnz), str(DATA / "matrices" / "ca-GrQc.mtx")]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                measured[which] = (float("nan"), float("nan"))
                print(f"  {which} {target}: failed: {result.stderr.strip().splitlines()[-1:]}")
                continue
            seconds, grown, _ = (float(v) for v in result.stdout.split())
            measured[which] = (seconds, grown / 2**20)
        what = f"{target} from COO, {nnz} nonzeros" if target != "DIA" else "DIA of ca-GrQc"
        rows.append((what, measured["scipy"][0], measured["spf"][0], measured["scipy"][0] / measured["spf"][0],
                     measured["scipy"][1], measured["spf"][1]))
    table("Packing: seconds and peak memory above the input's (MiB, resident set sampled every ms), "
          "each in a fresh process", rows,
          ["what", "scipy s", "spf s", "scipy/spf", "scipy MiB", "spf MiB"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matrices", type=int, default=15, help="the N smallest square real matrices (default 15)")
    parser.add_argument("--pack-nnz", type=int, default=20_000_000)
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of timing per system and input")
    parser.add_argument("--wait-idle", type=float, default=0.0)
    parser.add_argument("--quick", action="store_true", help="3 matrices, 2M nonzeros to pack, short budgets")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.matrices, arguments.pack_nnz, arguments.budget = 3, 2_000_000, 0.2
    if not DATA.is_dir():
        sys.exit(f"no data at {DATA}: the benchmark runs on ../shared/data")
    load = Load()
    if arguments.wait_idle:
        load.wait_until_idle(arguments.wait_idle)
    print(f"spf assembly benchmark; triad (numpy, 1 thread) {triad_bandwidth():.1f} GB/s")
    gb = serial_graphblas()
    matrices = square_matrices(arguments.matrices)
    load.lap()
    part_spgemm(matrices, gb, arguments.budget)
    load.report("SpGEMM")
    part_add_and_convert(matrices, gb, arguments.budget)
    load.report("A + B and conversion")
    part_packing(arguments.pack_nnz)
    load.report("packing")


if __name__ == "__main__":
    main()
