"""Sparse outputs and packing: spf's assembled outputs against scipy.sparse and GraphBLAS.

Run: python benchmarks/assembly.py [--wait-idle 600] [--matrices N] [--pack-nnz 20000000] [--quick]
(results/assembly.txt: ``--wait-idle 600``; about 15 minutes, 6 GB of memory for the packing part;
results/assembly_pack.txt: ``--parts pack --wait-idle 60``;
results/assembly_call_path.txt: ``--parts spgemm,add,convert --budget 2 --wait-idle 60``, about 12 minutes:
2 s of rounds per matrix, because on a shared VM a burst that stalls one virtual CPU for a second or two
slows the 2-thread kernels' blocks alone, and at 0.5 s such a burst can hold the median of a matrix;
results/assembly_add.txt: ``--parts add --budget 0.3 --wait-idle 30``, A + B alone, for issue 28's item 3)

Parts, in one process:

1. **SpGEMM** (``--parts spgemm``) C = A·Aᵀ with A and Aᵀ in CSR (Aᵀ built once, outside the timing, for every
   system), then C = A·A (``--products`` picks), on the real square matrices with n <= 70k (all of them,
   or the N smallest; those whose product has more than 20M entries are left out): spf
   ``C(i,j) = A(i,k) * B(k,j)`` into CSR with sorted columns (Gustavson's workspace,
   its rows handed over as the arrays), into CSR_UNSORTED (rows not sorted), and the
   sorted kernel parallel at 2 threads; scipy's ``A @ At`` (1 thread, columns
   unsorted) and GraphBLAS ``mxm`` (one thread).
2. **A + B** (``--parts add``) in CSR, B being A with 40% of its entries removed and 5% new ones: spf
   ``C(i,j) = A(i,j) + B(i,j)`` (the two statements' nests fused, their rows merged by column and
   appended in order, spf.codegen.assembly.merge) at 1 thread and ``parallel=True`` at 2 threads,
   scipy ``A + B``, GraphBLAS ``ewise_add`` (1 thread); spf and scipy also on distinct operand
   pairs in turn (``part_add`` says why).
3. **CSR -> CSC** (``--parts convert``): ``spf.convert(A, "CSC")`` against scipy's ``tocsc()``, and the
   transposition ``B(j,i) = A(i,j)`` into CSR (two phases: count, then fill), at 1 and
   2 threads, against scipy's ``A.T.tocsr()``.
4. **Packing** (``--parts pack``) ``--pack-nnz`` uniformly random entries from COO into CSR and BCSR(4,4),
   and DIA of ca-GrQc: time and peak memory (each in its own process) against scipy's
   ``tocsr()``, ``tobsr((4, 4))`` and ``dia_matrix``.

After each part, how often each run-time strategy of the assembly ran
(``kernel.assembly_statistics``, summed over the calls of that part).

Every spf result is checked against scipy's (pattern and values, rtol 1e-12) before
timing.  Systems are timed in blocks of calls (GraphBLAS's wheel has its own OpenMP
runtime), the blocks interleaved over rounds; a time is the median of a system's
per-call block times.  Ratios are scipy's time / the other's (> 1: faster than scipy),
summarised as geometric means.  The machine's load (other processes' CPU use) is
printed per part, and a triad's bandwidth (numpy, ``a = b + s*c``) from the same run.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from common import geometric_mean, serial_graphblas, triad_line
from parallel import TRIAD_SOURCE, OpenMP, idle_load

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SPGEMM = "C(i,j) = A(i,k) * B(k,j)"
DISTINCT = 8  # operand pairs A + B takes in turn (part_add)


def square_matrices(limit: int | None, only: set[str] | None = None) -> list[tuple[str, sparse.csr_matrix]]:
    """The real square matrices with n <= 70k, smallest first (by nonzeros); with ``limit``
    the first ``limit``, with ``only`` those named.  A matrix whose A·Aᵀ would hold more
    than 20M entries is left out."""
    rows = []
    for line in (DATA / "MANIFEST.tsv").read_text().splitlines()[1:]:
        fields = line.split("\t")
        if fields[1] != "matrix" or (only is not None and Path(fields[0]).stem not in only):
            continue
        shape = fields[4].split("x")
        if shape[0] == shape[1] and int(shape[0]) <= 70_000:
            rows.append((int(fields[5]), Path(fields[0]).stem))
    chosen = []
    for _, name in sorted(rows):
        if limit is not None and len(chosen) == limit:
            break
        A = sparse.csr_matrix(scipy.io.mmread(DATA / "matrices" / f"{name}.mtx"))
        if A.nnz and too_large(A, lambda: A @ A.T):
            print(f"  {name}: A*At holds more than 20M entries, left out")
            continue
        chosen.append((name, A))
    return chosen


def too_large(A: sparse.csr_matrix, product) -> bool:
    """Whether ``product()`` holds more than 20M entries; computed only where A·A's products
    (a cheap count from A's rows) exceed five times that."""
    return np.diff(A.indptr)[A.indices].astype(np.int64).sum() > 5 * 20_000_000 and product().nnz > 20_000_000


def strategies(kernels) -> str:
    """How often each run-time strategy ran, summed over ``kernels``."""
    total: dict[str, int] = {}
    for kernel in kernels:
        for strategy, count in kernel.assembly_statistics.items():
            total[strategy] = total.get(strategy, 0) + count
    return "; ".join(f"{strategy}: {count}" for strategy, count in total.items() if count) or "none"


def block_medians(systems: dict, budget: float, least: int = 5, omp: OpenMP | None = None,
                  threads: dict[str, int] | None = None) -> dict[str, float]:
    """Median per-call time of each system (name -> function), timed in interleaved blocks of calls.
    ``threads`` names the systems that run on more than one OpenMP thread (``omp`` sets the
    count before each of their blocks and back to 1 after), so every system is timed in the
    same rounds."""
    threads = threads or {}

    def run(name: str, calls: int) -> float:
        if name in threads:
            omp.set_threads(threads[name])
        begin = time.perf_counter()
        for _ in range(calls):
            systems[name]()
        elapsed = time.perf_counter() - begin
        if name in threads:
            omp.set_threads(1)
        return elapsed

    blocks = {}
    for name in systems:
        run(name, 1)
        blocks[name] = max(1, min(50, int(0.02 / max(run(name, 1), 1e-7))))
    times: dict[str, list[float]] = {name: [] for name in systems}
    started = time.perf_counter()
    rounds = 0
    while rounds < least or (time.perf_counter() - started < budget and rounds < 50):
        for name in systems:
            times[name].append(run(name, blocks[name]) / blocks[name])
        rounds += 1
    return {name: statistics.median(values) for name, values in times.items()}


def same_entries(tensor: spf.Tensor, expected) -> None:
    """Pattern and values equal to scipy's, in whatever order each row stores them."""
    got = sparse.csr_matrix(tensor.to_scipy())
    got.sort_indices()
    same(got, expected)


def same(tensor, expected, zeros: bool = False) -> None:
    """Pattern and values equal to scipy's; its explicit zeros count only with ``zeros``
    (a conversion keeps them, a product or sum stores nonzeros)."""
    expected = sparse.csr_matrix(expected, copy=True)  # the input may be packed (shared, read-only)
    if not zeros:
        expected.eliminate_zeros()
    expected.sort_indices()
    got = sparse.csr_matrix(tensor.to_scipy() if isinstance(tensor, spf.Tensor) else tensor)
    assert got.nnz == expected.nnz, (got.nnz, expected.nnz)
    assert np.array_equal(got.indptr, expected.indptr) and np.array_equal(got.indices, expected.indices)
    assert np.allclose(got.data, expected.data, rtol=1e-12, atol=0)


def openmp() -> OpenMP:
    """The kernels' OpenMP runtime, its thread count set and checked inside a parallel region."""
    import ctypes
    from spf.codegen.toolchain.compiler import build_shared_library, load_function
    library = build_shared_library(TRIAD_SOURCE, name="triad")
    omp = OpenMP(load_function(library, "threads_in_parallel", [], ctypes.c_int))
    omp.verify(2)
    omp.verify(1)
    return omp


def table(title: str, rows: list[tuple], columns: list[str]) -> None:
    print(f"\n{title}")
    print("  " + "  ".join(f"{c:>14s}" for c in columns))
    for row in rows:
        print("  " + "  ".join(f"{v:>14.3f}" if isinstance(v, float) else f"{str(v):>14s}" for v in row))


def part_spgemm(matrices, gb, omp, budget: float, products: list[str]) -> None:
    for product in products:
        spgemm_table(matrices, gb, omp, budget, product)


def spgemm_table(matrices, gb, omp, budget: float, product: str) -> None:
    """SpGEMM C = A * At (``product`` "A*At", At = Aᵀ in CSR) or C = A * A ("A*A")."""
    layouts = {"A": "CSR", "B": "CSR", "C": "CSR"}
    kernel = spf.compile(SPGEMM, layouts)
    unsorted = spf.compile(SPGEMM, dict(layouts, C="CSR_UNSORTED"))
    parallel = spf.compile(SPGEMM, layouts, parallel=True)
    rows, ratios = [], {"spf": [], "unsorted": [], "2 threads": [], "graphblas/spf": []}
    for name, A in matrices:
        At = sparse.csr_matrix(A.T) if product == "A*At" else A
        if product == "A*A" and too_large(A, lambda: A @ A):
            print(f"  {name}: A*A holds more than 20M entries, left out")
            continue
        TA, TT = spf.pack("CSR", A), spf.pack("CSR", At)
        bound, bound_unsorted, bound_parallel = (k.bind(A=TA, B=TT) for k in (kernel, unsorted, parallel))
        expected = A @ At
        same(bound(), expected)
        same_entries(bound_unsorted(), expected)
        omp.set_threads(2)
        same(bound_parallel(), expected)
        omp.set_threads(1)
        systems = {"scipy": lambda: A @ At, "spf": bound, "unsorted": bound_unsorted, "2 threads": bound_parallel}
        if gb is not None:
            GA, GT = gb.io.from_scipy_sparse(A), gb.io.from_scipy_sparse(At)
            systems["graphblas"] = lambda: GA.mxm(GT).new()
        t = block_medians(systems, budget, omp=omp, threads={"2 threads": 2})
        for system in ("spf", "unsorted", "2 threads"):
            ratios[system].append(t["scipy"] / t[system])
        row = [name, expected.nnz, t["scipy"] * 1e3, t["spf"] * 1e3, ratios["spf"][-1], ratios["unsorted"][-1],
               ratios["2 threads"][-1]]
        if gb is not None:
            ratios["graphblas/spf"].append(t["graphblas"] / t["spf"])
            row += [t["graphblas"] * 1e3, ratios["graphblas/spf"][-1]]
        rows.append(tuple(row))
    table(f"SpGEMM C = {product}, CSR x CSR -> CSR (sorted) at 1 thread, CSR_UNSORTED, and at 2 threads; times in ms; "
          "ratios scipy (1 thread) / spf", rows,
          ["matrix", "nnz(C)", "scipy", "spf", "scipy/spf", "unsorted", "2 threads"] +
          (["graphblas", "gb/spf"] if gb else []))
    print("  geometric means: " + ", ".join(f"{system} {geometric_mean(values):.3f}"
                                            for system, values in ratios.items() if values))
    print(f"  run-time strategies (sorted, unsorted, 2 threads): {strategies([kernel, unsorted, parallel])}")


def second_operand(number: int, A: sparse.csr_matrix) -> sparse.csr_matrix:
    """B of A + B: A with 40% of its entries removed and 5% new ones (seeded by the matrix's number)."""
    rng = np.random.default_rng(number)
    coo = A.tocoo()
    keep = rng.random(coo.nnz) < 0.6
    extra = sparse.random(*A.shape, density=0.05 * A.nnz / max(A.shape[0] * A.shape[1], 1), format="coo",
                          random_state=rng)
    return sparse.csr_matrix((np.concatenate([coo.data[keep], extra.data]),
                              (np.concatenate([coo.row[keep], extra.row]),
                               np.concatenate([coo.col[keep], extra.col]))), shape=A.shape)


def rotating(calls: list):
    """One call that runs the next of ``calls`` each time (round the list)."""
    turn = itertools.cycle(calls)
    return lambda: next(turn)()


def part_add(matrices, gb, omp, budget: float) -> None:
    """A + B timed twice per matrix: the same operands at every call (as the other parts), and
    DISTINCT pairs in turn (A with each of DISTINCT Bs, one per call).  On a small matrix the
    same call repeated lets the branch predictor learn the whole merge (scipy's branchy
    merge then runs 2-4x faster than on operands it has not seen); distinct operands are what
    a program adding different matrices meets."""
    layouts = {"A": "CSR", "B": "CSR", "C": "CSR"}
    add = spf.compile("C(i,j) = A(i,j) + B(i,j)", layouts)
    parallel = spf.compile("C(i,j) = A(i,j) + B(i,j)", layouts, parallel=True)
    rows, ratios, parallel_ratios, gb_ratios, distinct_ratios = [], [], [], [], []
    for number, (name, A) in enumerate(matrices):
        B = second_operand(number, A)
        TA, TB = spf.pack("CSR", A), spf.pack("CSR", B)
        bound, bound_parallel = add.bind(A=TA, B=TB), parallel.bind(A=TA, B=TB)
        same(bound(), A + B)
        omp.set_threads(2)
        same(bound_parallel(), A + B)
        omp.set_threads(1)
        others = [second_operand(1000 * (number + 1) + turn, A) for turn in range(DISTINCT)]
        others_bound = [add.bind(A=TA, B=spf.pack("CSR", other)) for other in others]
        same(others_bound[-1](), A + others[-1])
        systems = {"scipy": lambda: A + B, "spf": bound, "2 threads": bound_parallel,
                   "scipy distinct": rotating([lambda other=other: A + other for other in others]),
                   "spf distinct": rotating(others_bound)}
        if gb is not None:
            GA, GB_ = gb.io.from_scipy_sparse(A), gb.io.from_scipy_sparse(B)
            systems["graphblas"] = lambda: GA.ewise_add(GB_).new()
        t = block_medians(systems, budget, omp=omp, threads={"2 threads": 2})
        ratios.append(t["scipy"] / t["spf"])
        parallel_ratios.append(t["scipy"] / t["2 threads"])
        distinct_ratios.append(t["scipy distinct"] / t["spf distinct"])
        row = [name, t["scipy"] * 1e3, t["spf"] * 1e3, ratios[-1], t["2 threads"] * 1e3, parallel_ratios[-1],
               t["scipy distinct"] * 1e3, t["spf distinct"] * 1e3, distinct_ratios[-1]]
        if gb is not None:
            gb_ratios.append(t["graphblas"] / t["spf"])
            row += [t["graphblas"] * 1e3, gb_ratios[-1]]
        rows.append(tuple(row))
    table(f"A + B, CSR (the terms merged by column, appended in order); 1 thread, and spf parallel=True at 2 threads; "
          f"'distinct': {DISTINCT} operand pairs in turn, one per call; times in ms", rows,
          ["matrix", "scipy", "spf", "scipy/spf", "2 threads", "scipy/2t", "scipy dist.", "spf dist.", "ratio dist."]
          + (["graphblas", "gb/spf"] if gb else []))
    print(f"  geometric means scipy/spf: 1 thread {geometric_mean(ratios):.3f} (least {min(ratios):.3f}), "
          f"2 threads {geometric_mean(parallel_ratios):.3f}; distinct operands {geometric_mean(distinct_ratios):.3f} "
          f"(least {min(distinct_ratios):.3f})" +
          (f"; graphblas/spf: {geometric_mean(gb_ratios):.3f}" if gb else ""))
    print(f"  run-time strategies (1 thread, 2 threads): {strategies([add, parallel])}")


def part_convert(matrices, omp, budget: float) -> None:
    transpose = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})
    transpose_parallel = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"}, parallel=True)
    conversion = []
    for name, A in matrices:
        TA = spf.pack("CSR", A)
        same(spf.convert(TA, "CSC").to_scipy(), A, zeros=True)
        transposed, in_parallel = transpose.bind(A=TA), transpose_parallel.bind(A=TA)
        same(transposed(), A.T)
        omp.set_threads(2)
        same(in_parallel(), A.T)
        omp.set_threads(1)
        c = block_medians({"scipy tocsc": lambda: A.tocsc(), "spf convert": lambda: spf.convert(TA, "CSC"),
                           "scipy A.T.tocsr": lambda: A.T.tocsr(), "spf B(j,i) = A(i,j)": transposed,
                           "2 threads": in_parallel}, budget, omp=omp, threads={"2 threads": 2})
        conversion.append((name, c["scipy tocsc"] * 1e3, c["spf convert"] * 1e3,
                           c["scipy tocsc"] / c["spf convert"], c["scipy A.T.tocsr"] * 1e3,
                           c["spf B(j,i) = A(i,j)"] * 1e3, c["scipy A.T.tocsr"] / c["spf B(j,i) = A(i,j)"],
                           c["2 threads"] * 1e3, c["scipy A.T.tocsr"] / c["2 threads"]))
    table("CSR -> CSC (spf.convert against scipy's tocsc()) and the transposition into CSR "
          "(B(j,i) = A(i,j) against A.T.tocsr()); times in ms", conversion,
          ["matrix", "scipy tocsc", "spf", "scipy/spf", "scipy .T", "spf", "scipy/spf", "2 threads", "scipy/2t"])
    print(f"  geometric means scipy/spf: convert {geometric_mean([r[3] for r in conversion]):.3f}, "
          f"transposition {geometric_mean([r[6] for r in conversion]):.3f}, "
          f"transposition at 2 threads {geometric_mean([r[8] for r in conversion]):.3f}")
    from spf.runtime.conversion import CONVERSIONS
    print(f"  run-time strategies (convert, transposition, 2 threads): "
          f"{strategies(list(CONVERSIONS.kernels.values()) + [transpose, transpose_parallel])}")


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
    parser.add_argument("--matrices", type=int, default=None,
                        help="the N smallest square real matrices (default: every one with n <= 70k)")
    parser.add_argument("--only", default=None, help="comma-separated matrix names (e.g. rajat01,EX5)")
    parser.add_argument("--pack-nnz", type=int, default=20_000_000)
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of timing per system and input")
    parser.add_argument("--wait-idle", type=float, default=0.0)
    parser.add_argument("--products", default="A*At,A*A",
                        help="the SpGEMM part's products, comma-separated (default both: A*At,A*A)")
    parser.add_argument("--quick", action="store_true", help="3 matrices, 2M nonzeros to pack, short budgets")
    parser.add_argument("--parts", default="spgemm,add,convert,pack",
                        help="which parts to run, comma-separated (default all four: spgemm,add,convert,pack)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.matrices, arguments.pack_nnz, arguments.budget = 3, 2_000_000, 0.2
    load = idle_load(DATA, arguments.wait_idle)
    print(f"spf assembly benchmark; {triad_line()}")
    gb = serial_graphblas()
    omp = openmp()
    omp.set_threads(1)
    matrices = square_matrices(arguments.matrices, set(arguments.only.split(",")) if arguments.only else None)
    parts = arguments.parts.split(",")
    load.lap()
    if "spgemm" in parts:
        part_spgemm(matrices, gb, omp, arguments.budget, arguments.products.split(","))
        load.report("SpGEMM")
    if "add" in parts:
        part_add(matrices, gb, omp, arguments.budget)
        load.report("A + B")
    if "convert" in parts:
        part_convert(matrices, omp, arguments.budget)
        load.report("conversion")
    if "pack" in parts:
        part_packing(arguments.pack_nnz)
        load.report("packing")


if __name__ == "__main__":
    main()
