"""The autoscheduler's fused schedules against the unfused default, on real data.

Run: python benchmarks/autoschedule.py [--dims 16,32,64,128] [--cap 5] [--kernels K1,K5,...]
                                       [--matrices NAME,...] [--tensors NAME,...] [--data DIR]

For each kernel (the eight of SparseAuto's Table 2, with K3 read as ``... E(j,l)`` as the
digest advises, plus MTTKRP and TTMc of order 3), each real input and each dense
dimension d (every dense-only index of the kernel gets extent d):

* the *fused* kernel: ``spf.autoschedule(expr, layouts)``, then ``res.select(**inputs)``
  (the run-time choice for these operands), then ``spf.compile(expr, layouts,
  schedule=cand)``;
* the *default* kernel: ``spf.compile(expr, layouts)``, one perfect loop nest over all
  indices in the default order with no temporaries (TACO's default schedule).

Both are serial (``parallel=False``).  The sparse operand is CSR for K1-K4 and CSF3 for
the order-3 kernels; every other operand is Dense.  K7's output is sparse
(``CSF3_DENSE_LAST`` sharing B's index arrays, as in the paper).  Kernels are timed
through bound kernels (inputs packed once; only the C call is timed).  The first call of
each kernel is the warm-up and the correctness check (fused and default results must
agree, ``np.allclose``); then the two are called alternately in a few rounds (so that
both see the same state of the shared machine; fewer rounds for slow kernels, at least 5
calls of a fast fused kernel) and each time is the median of its calls.

The default is asymptotically slower (e.g. K1 ``nnz*K*L`` against ``nnz*(K+L)``), so
each of its runs is estimated first, as its iteration count (nnz(B) times d to the number
of dense-only indices) times the seconds per iteration measured on this input at the
previous d (a 1 ns prior before any measurement, 1.5x margin when extrapolating); a run
estimated above ``--cap`` seconds is skipped ("skipped: est. > N s").  The fused kernel
always runs; where the default was skipped its result is unchecked at that d (the
``check`` column says whether the same schedule was checked at a smaller d) and the
speedup column shows the estimated default time over the fused median, marked "est"
(left out of the geometric means).

Speedup = default median / fused median; per kernel, its geometric mean over the rows
where both ran.  Results go to benchmarks/results/autoschedule.txt (and stdout).
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from common import geometric_mean

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("SPF_DATA", HERE.parent.parent / "shared" / "data"))
OUTPUT = HERE / "results" / "autoschedule.txt"

# name -> (expression, layout of the sparse operand, output layout or None for Dense, share)
KERNELS = {
    "K1": ("A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)", "CSR", None, None),
    "K2": ("A(i,m) = B(i,j) * C(i,k) * D(j,k) * E(j,l) * F(l,m)", "CSR", None, None),
    "K3": ("A(i,l) = B(i,j) * C(j,k) * D(j,k) * E(j,l)", "CSR", None, None),
    "K4": ("A(i,l) = B(i,j) * C(j,k) * D(k,l)", "CSR", None, None),
    "K5": ("A(l,m,n) = B(i,j,k) * C(i,l) * D(j,m) * E(k,n)", "CSF3", None, None),
    "K6": ("A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)", "CSF3", None, None),
    "K7": ("A(i,j,m) = B(i,j,k) * C(k,l) * D(l,m)", "CSF3", "CSF3_DENSE_LAST", {"A": "B"}),
    "K8": ("A(i,m) = B(i,k,l) * C(l,j) * D(k,j) * E(j,m)", "CSF3", None, None),
    "MTTKRP": ("A(i,a) = B(i,j,k) * C(j,a) * D(k,a)", "CSF3", None, None),
    "TTMc3": ("S(i,r,s) = T(i,j,k) * U(j,r) * V(k,s)", "CSF3", None, None),
}
# medium-sized real matrices (nnz 50k-500k) of different kinds: FEM stiffness (about 42
# nonzeros per row), a DNA-electrophoresis Markov matrix (about 13 per row, general),
# a power-law directed graph (skewed rows)
MATRICES = ["bcsstk13", "cage10", "wiki-Vote"]
# the three knowledge-base tensors and a larger temporal one (sender x receiver x day)
TENSORS = ["nations", "umls", "kinship", "collegemsg-daily"]
DIMS = [16, 32, 64, 128]
PRIOR_SECONDS_PER_ITERATION = 1e-9
EXTRAPOLATION_MARGIN = 1.5


# ----------------------------------------------------------------------------- inputs


def manifest(data: Path) -> dict[str, dict[str, str]]:
    """MANIFEST.tsv rows by file stem (empty when the manifest is missing)."""
    path = data / "MANIFEST.tsv"
    if not path.exists():
        return {}
    with open(path, newline="") as handle:
        return {Path(row["file"]).stem: row for row in csv.DictReader(handle, delimiter="\t")}


def load_matrix(data: Path, name: str) -> sparse.csr_matrix:
    matrix = sparse.csr_matrix(scipy.io.mmread(data / "matrices" / f"{name}.mtx"))
    matrix.sum_duplicates()
    return matrix


def load_tensor(data: Path, name: str):
    return spf.read_tns(data / "tensors" / f"{name}.tns")


def parse(expression: str) -> tuple[str, list[tuple[str, tuple[str, ...]]]]:
    """The output name and the factors (name, indices) of ``expression``."""
    statement = spf.parse_statement(expression)
    factors = [(f.tensor, tuple(f.indices)) for f in statement.terms[0].factors]
    return statement.output.tensor, factors


# ----------------------------------------------------------------------------- timing


def run_once(bound) -> float:
    begin = time.perf_counter()
    bound()
    return time.perf_counter() - begin


def repeats_for(first: float) -> int:
    """Timed calls after the warm-up for a kernel whose warm-up took ``first`` seconds."""
    return 5 if first < 0.3 else 3 if first < 2.0 else 2 if first < 8.0 else 1


def interleaved_medians(fused, fused_first: float, default=None, default_first: float = 0.0) -> tuple[float, float]:
    """Medians of the fused and (when given) default bound kernels, both warmed up, called
    alternately in rounds so that both see the same state of the shared machine; fewer
    rounds for slow kernels, more (within 0.3 s) for fast ones."""
    slowest = max(fused_first, default_first if default is not None else 0.0)
    least = repeats_for(slowest)
    fused_times: list[float] = []
    default_times: list[float] = []
    started = time.perf_counter()
    while len(fused_times) < least or (slowest < 0.02 and time.perf_counter() - started < 0.3
                                       and len(fused_times) < 100):
        fused_times.append(run_once(fused))
        if default is not None:
            default_times.append(run_once(default))
    while len(fused_times) < repeats_for(fused_first):  # a fast fused kernel beside a slow default
        fused_times.append(run_once(fused))
    return statistics.median(fused_times), statistics.median(default_times) if default_times else float("nan")


def snapshot(result) -> np.ndarray:
    """A copy of a kernel's (reused) output values."""
    if isinstance(result, np.ndarray):
        return result.copy()
    return np.array(result.values, copy=True)  # a sparse output sharing B's index arrays


def seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.3f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.2f} ms"
    return f"{value * 1e6:.1f} us"


# ----------------------------------------------------------------------------- the benchmark


class Report:
    """Lines printed as they come and written to the result file."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.handle = open(path, "w")

    def __call__(self, line: str = "") -> None:
        print(line, flush=True)
        self.handle.write(line + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def machine_lines() -> list[str]:
    from spf.bench import machine
    from spf.autoscheduler.prune import last_level_cache_bytes
    info = machine()
    cache, _ = last_level_cache_bytes()
    load = os.getloadavg()
    return [f"machine: {info['CPU']}, {info['cores']} cores, last-level cache {cache / 2**20:.0f} MiB "
            f"(as the autoscheduler reads it)",
            f"C compiler: {info['C compiler']}",
            f"Python: {info['Python']}; date {info['date']}",
            f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (the machine is shared)"]


def benchmark_kernel(name: str, inputs: list[tuple[str, object]], dims: list[int], cap: float,
                     say: Report) -> tuple[list[float], int, int]:
    """Table of one kernel; returns (speedups where both ran, skipped defaults, fused rows)."""
    expression, sparse_layout, output_layout, share = KERNELS[name]
    output, factors = parse(expression)
    sparse_name, sparse_indices = factors[0]
    layouts = {output: output_layout or "Dense", **{f: "Dense" for f, _ in factors}}
    layouts[sparse_name] = sparse_layout
    dense_only = sorted({i for _, ix in factors for i in ix} - set(sparse_indices))

    started = time.perf_counter()
    schedules = spf.autoschedule(expression, layouts=layouts, share=share, progress=lambda line: None)
    autoschedule_seconds = time.perf_counter() - started
    started = time.perf_counter()
    default = spf.compile(expression, layouts, share=share).build()
    compile_seconds = time.perf_counter() - started

    say(f"== {name}: {expression}")
    say(f"   layouts: {', '.join(f'{k} {v}' for k, v in layouts.items())}"
        + (f"; {output} shares {share[output]}'s index arrays" if share else ""))
    say(f"   autoschedule: {len(schedules.candidates)} candidate(s) after stage 3 in {autoschedule_seconds:.2f} s; "
        f"default compiled in {compile_seconds:.2f} s; default iterations nnz({sparse_name})*d^{len(dense_only)}")
    header = (f"   {'input':<17} {'nnz':>7} {'d':>4} {'default':>26} {'fused':>10} {'speedup':>9}  "
              f"{'check':<10} chosen schedule")
    say(header)

    fused_kernels: dict[str, object] = {}
    checked: set[str] = set()
    speedups: list[float] = []
    skipped = rows = 0
    for input_name, data in inputs:
        nnz = data.nnz if sparse.issparse(data) else len(data[1])
        shape = data.shape if sparse.issparse(data) else data[2]
        packed = spf.pack(sparse_layout, data, name=sparse_name)
        extents = dict(zip(sparse_indices, shape))
        per_iteration = None  # seconds per default iteration measured on this input
        for d in dims:
            rng = np.random.default_rng(d)
            operands = {sparse_name: packed}
            for factor, indices in factors[1:]:
                operands[factor] = rng.random(tuple(extents.get(i, d) for i in indices))
            sizes_for_select = dict(operands, **{sparse_name: data})
            candidate = schedules.select(**sizes_for_select)
            key = str(candidate.schedule)
            if key not in fused_kernels:
                fused_kernels[key] = spf.compile(expression, layouts, share=share, schedule=candidate).build()
            fused = fused_kernels[key].bind(**operands)
            started = time.perf_counter()
            fused_result = snapshot(fused())  # the warm-up, and the result to check
            fused_first = time.perf_counter() - started
            rows += 1

            iterations = nnz * d ** len(dense_only)
            estimate = iterations * (PRIOR_SECONDS_PER_ITERATION if per_iteration is None
                                     else per_iteration * EXTRAPOLATION_MARGIN)
            if estimate > cap:
                skipped += 1
                fused_time, _ = interleaved_medians(fused, fused_first)
                default_cell = f"skipped: est. > {cap:g} s"
                speedup_cell = f"~{estimate / fused_time:.0f}x est"
                check = "yes (smaller d)" if key in checked else "unchecked"
            else:
                bound = default.bind(**operands)
                started = time.perf_counter()
                default_result = snapshot(bound())
                default_first = time.perf_counter() - started
                if not np.allclose(default_result, fused_result):
                    worst = float(np.max(np.abs(default_result - fused_result)))
                    raise SystemExit(f"{name} on {input_name}, d={d}: fused and default disagree "
                                     f"(largest difference {worst:g}); schedule {key}")
                checked.add(key)
                check = "ok"
                fused_time, default_time = interleaved_medians(fused, fused_first, bound, default_first)
                per_iteration = default_time / iterations
                speedup = default_time / fused_time
                speedups.append(speedup)
                default_cell = seconds(default_time)
                speedup_cell = f"{speedup:.1f}x"
            say(f"   {input_name:<17} {nnz:>7} {d:>4} {default_cell:>26} {seconds(fused_time):>10} "
                f"{speedup_cell:>9}  {check:<10} {key}")
    load = os.getloadavg()[0]
    say(f"   summary {name}: geometric-mean speedup {geometric_mean(speedups):.1f}x over {len(speedups)} "
        f"row(s) where both ran (min {min(speedups, default=float('nan')):.1f}x, "
        f"max {max(speedups, default=float('nan')):.1f}x); {skipped} of {rows} default run(s) skipped; "
        f"load average {load:.2f}")
    say()
    return speedups, skipped, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--dims", default=",".join(map(str, DIMS)))
    parser.add_argument("--cap", type=float, default=5.0, help="skip a default run estimated above this (s)")
    parser.add_argument("--kernels", default=",".join(KERNELS))
    parser.add_argument("--matrices", default=",".join(MATRICES))
    parser.add_argument("--tensors", default=",".join(TENSORS))
    parser.add_argument("--output", type=Path, default=OUTPUT)
    arguments = parser.parse_args()
    started = time.perf_counter()
    dims = [int(d) for d in arguments.dims.split(",")]
    kernels = [k for k in arguments.kernels.split(",") if k]
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown:
        sys.exit(f"unknown kernel(s) {unknown}; choose from {', '.join(KERNELS)}")
    rows = manifest(arguments.data)

    say = Report(arguments.output)
    say("# benchmarks/autoschedule.py: autoscheduled (fused) vs the unfused default, serial")
    say(f"# command: python benchmarks/autoschedule.py {' '.join(sys.argv[1:])}".rstrip())
    for line in machine_lines():
        say(f"# {line}")
    say(f"# dense dimensions d = {', '.join(map(str, dims))}; default runs estimated above {arguments.cap:g} s "
        "are skipped; times are medians of bound-kernel calls after a warm-up/check call")

    matrices = [(n, load_matrix(arguments.data, n)) for n in arguments.matrices.split(",") if n]
    tensors = [(n, load_tensor(arguments.data, n)) for n in arguments.tensors.split(",") if n]
    say("# inputs:")
    for n, m in matrices:
        note = rows.get(n, {}).get("note", "").split(";")[0]
        say(f"#   matrix {n:<17} {m.shape[0]}x{m.shape[1]}, nnz {m.nnz}  ({note})")
    for n, (coords, values, shape) in tensors:
        note = rows.get(n, {}).get("note", "").split(";")[0]
        say(f"#   tensor {n:<17} {'x'.join(map(str, shape))}, nnz {len(values)}  ({note})")
    say()

    summary = []
    for name in kernels:
        inputs = matrices if KERNELS[name][1] == "CSR" else tensors
        speedups, skipped, count = benchmark_kernel(name, inputs, dims, arguments.cap, say)
        summary.append((name, speedups, skipped, count))

    say("== summary: geometric-mean speedup of the fused schedule over the unfused default "
        "(rows where both ran)")
    for name, speedups, skipped, count in summary:
        say(f"   {name:<7} {geometric_mean(speedups):8.1f}x   over {len(speedups):2d} row(s); "
            f"{skipped} default run(s) skipped (est. > {arguments.cap:g} s) of {count}")
    say(f"# total wall time {time.perf_counter() - started:.0f} s")
    say.close()


if __name__ == "__main__":
    main()
