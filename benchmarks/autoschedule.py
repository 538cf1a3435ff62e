"""The autoscheduler's fused schedules against the unfused default, on real data.

Run: python benchmarks/autoschedule.py [--dims 16,32,64,128] [--cap 5] [--kernels K1,K5,...]
                                       [--matrices NAME,...] [--tensors NAME,...] [--data DIR]

For each kernel (the eight of SparseAuto's Table 2, with K3 read as ``... E(j,l)`` as the
digest advises, MTTKRP, TTMc of order 3 and 4, TTTP, the CoNST chain and the tensor-train
contraction TTTc), each input and each dense dimension d (every dense-only index of the
kernel gets extent d):

* the *fused* kernel: ``spf.autoschedule(expr, layouts)``, then ``res.select(**inputs)``
  (the run-time choice for these operands), then ``spf.compile(expr, layouts,
  schedule=cand)``;
* the *default* kernel: ``spf.compile(expr, layouts)``, one perfect loop nest over all
  indices in the default order with no temporaries (TACO's default schedule).

Both are serial (``parallel=False``).  The sparse operand is CSR for K1-K4 and CSF3 for
the order-3 kernels; every other operand is Dense.  K7's output is sparse
(``CSF3_DENSE_LAST`` sharing B's index arrays, as in the paper), and so is TTTP's
(``CSF3`` sharing T's).  Inputs: real matrices for K1-K4 (``--matrices``), real 3-way
tensors for the other order-3 kernels (``--tensors``), with these exceptions:

* TTMc4 reads the real 4-way tensor jf17k-arity3 (T in CSF4), d = 8, 16, 32 (its output
  is I*d^3);
* CHAIN (CoNST's chain, written for the tensors' stored mode order:
  ``R(i,j,k) = A(i,p,q) * B(j,p,r) * C(q,k,r) * D(j,k,r)``, every operand CSF3, R Dense)
  has no dense dimension: A = B = C = D = a real 3-way tensor of shape (n0, n1, n2) as
  stored, on nations and kinship (they have n0 = n2, which the shared index q needs; R
  is n0*n0*n1); the autoscheduler may copy C in the mode order (k,q,r) (CoNST's);
* TTTc (``Z(e,n) = T(i,j,k,l,m,n) * A(i,a) * B(a,j,b) * ...``, T in the user layout
  examples/layouts/CSF6.layout) reads a *synthetic* random order-6 tensor (the data holds
  no real 6-way tensor), TT ranks d = 4, 8, 16.

Kernels are timed through bound kernels (inputs packed once; only the C call is timed).
The first call of each kernel is the warm-up and the correctness check (fused and
default results must agree, ``np.allclose``; a sparse output is compared by its value
arrays, which share the index arrays); then the two are called alternately in a few
rounds (so that both see the same state of the shared machine; fewer rounds for slow
kernels, at least 5 calls of a fast fused kernel) and each time is the median of its
calls.

The default is asymptotically slower (e.g. K1 ``nnz*K*L`` against ``nnz*(K+L)``), so
each of its runs is estimated first, as its iteration count (nnz of the sparse operand
times d to the number of dense-only indices; for CHAIN the autoscheduler's cost of the
unfused nest, ``nnz_A*nnz_B_j*nnz_C_k*nnz_B/nnz_B_jp``) times the seconds per iteration
measured on this input at the previous d (for a kernel without dense dimensions, on the
previous input; a 1 ns prior before any measurement, 1.5x margin when extrapolating); a
run estimated above ``--cap`` seconds is skipped ("skipped: est. > N s").  The fused
kernel always runs; where the default was skipped its result is unchecked at that d (the
``check`` column says whether the same schedule was checked at a smaller d) and the
speedup column shows the estimated default time over the fused median, marked "est"
(left out of the geometric means).

Speedup = default median / fused median; per kernel, its geometric mean over the rows
where both ran.  Results go to benchmarks/results/autoschedule.txt (and stdout).  The
file is *merged*: the sections ("== NAME: ...") of the kernels run now replace their old
ones or are appended, the sections of the other kernels are kept as they are (the header
gains an "update" line saying which sections were rewritten, and the new inputs), and
the final summary block is recomputed from every section's "summary NAME:" line.  So
``--kernels TTMc4,TTTP`` reruns only those two.  ``--dims`` overrides the dense
dimensions of every kernel that has some (default: 16, 32, 64, 128, or the kernel's own).
"""

from __future__ import annotations

import argparse
import csv
import functools
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse
import sympy

import spf
from common import geometric_mean
from spf.scheduling.autoscheduler.mode_orders import describe

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
DATA = Path(os.environ.get("SPF_DATA", HERE.parent.parent / "shared" / "data"))
OUTPUT = HERE / "results" / "autoschedule.txt"


@dataclass
class Kernel:
    """One kernel of the benchmark."""

    expression: str
    sparse: dict[str, str]  # layout of each sparse operand (and of a sparse output); every other tensor is Dense
    inputs: str  # "matrices" (--matrices), "tensors" (--tensors), or a key of INPUT_SETS
    share: dict[str, str] | None = None  # the output shares an input's index arrays
    dims: tuple[int, ...] | None = None  # dense dimensions; None: --dims (DIMS); () for none
    iterations: str | None = None  # the default's iterations over stage-4 sizes; None: nnz(sparse)*d^k


KERNELS = {
    "K1": Kernel("A(i,l) = B(i,j) * C(i,k) * D(j,k) * E(j,l)", {"B": "CSR"}, "matrices"),
    "K2": Kernel("A(i,m) = B(i,j) * C(i,k) * D(j,k) * E(j,l) * F(l,m)", {"B": "CSR"}, "matrices"),
    "K3": Kernel("A(i,l) = B(i,j) * C(j,k) * D(j,k) * E(j,l)", {"B": "CSR"}, "matrices"),
    "K4": Kernel("A(i,l) = B(i,j) * C(j,k) * D(k,l)", {"B": "CSR"}, "matrices"),
    "K5": Kernel("A(l,m,n) = B(i,j,k) * C(i,l) * D(j,m) * E(k,n)", {"B": "CSF3"}, "tensors"),
    "K6": Kernel("A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)", {"B": "CSF3"}, "tensors"),
    "K7": Kernel("A(i,j,m) = B(i,j,k) * C(k,l) * D(l,m)", {"A": "CSF3_DENSE_LAST", "B": "CSF3"}, "tensors",
                 share={"A": "B"}),
    "K8": Kernel("A(i,m) = B(i,k,l) * C(l,j) * D(k,j) * E(j,m)", {"B": "CSF3"}, "tensors"),
    "MTTKRP": Kernel("A(i,a) = B(i,j,k) * C(j,a) * D(k,a)", {"B": "CSF3"}, "tensors"),
    "TTMc3": Kernel("S(i,r,s) = T(i,j,k) * U(j,r) * V(k,s)", {"T": "CSF3"}, "tensors"),
    "TTMc4": Kernel("S(i,r,s,t) = T(i,j,k,l) * U(j,r) * V(k,s) * W(l,t)", {"T": "CSF4"}, "jf17k",
                    dims=(8, 16, 32)),
    # TTTP's only candidate is the default's own loop nest (no temporary pays off): what differs
    # is the code of a scheduled kernel (the r reduction summed in a scalar, then added to S).
    "TTTP": Kernel("S(i,j,k) = T(i,j,k) * U(i,r) * V(j,r) * W(k,r)", {"S": "CSF3", "T": "CSF3"}, "tensors",
                   share={"S": "T"}),
    "CHAIN": Kernel("R(i,j,k) = A(i,p,q) * B(j,p,r) * C(q,k,r) * D(j,k,r)",
                    {"A": "CSF3", "B": "CSF3", "C": "CSF3", "D": "CSF3"}, "chain", dims=(),
                    iterations="nnz_A*nnz_B_j*nnz_B/nnz_B_jp*nnz_C_qk/nnz_C_q"),
    "TTTc": Kernel("Z(e,n) = T(i,j,k,l,m,n) * A(i,a) * B(a,j,b) * C(b,k,c) * D(c,l,d) * E(d,m,e)",
                   {"T": "examples/layouts/CSF6.layout"}, "synthetic6", dims=(4, 8, 16)),
}
# medium-sized real matrices (nnz 50k-500k) of different kinds: FEM stiffness (about 42
# nonzeros per row), a DNA-electrophoresis Markov matrix (about 13 per row, general),
# a power-law directed graph (skewed rows)
MATRICES = ["bcsstk13", "cage10", "wiki-Vote"]
# the three knowledge-base tensors and a larger temporal one (sender x receiver x day)
TENSORS = ["nations", "umls", "kinship", "collegemsg-daily"]
# the real 4-way tensor (relation x entity x entity x entity n-ary facts)
TENSOR4 = "jf17k-arity3"
# CHAIN's inputs: real 3-way tensors with n0 = n2 (C's swapped modes must fit q's extent)
CHAIN_TENSORS = ["nations", "kinship"]
CHAIN_OUTPUT_LIMIT = 50_000_000  # elements of the dense R = n0*n0*n1 (8 bytes each)
# TTTc's synthetic order-6 tensor: extent 20 per mode, 20000 distinct random nonzeros
SYNTHETIC6 = ("synthetic6", 20, 6, 20_000, 6)  # name, extent, order, nnz, seed
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


@functools.lru_cache(maxsize=None)
def load_matrix(data: Path, name: str) -> sparse.csr_matrix:
    matrix = sparse.csr_matrix(scipy.io.mmread(data / "matrices" / f"{name}.mtx"))
    matrix.sum_duplicates()
    return matrix


@functools.lru_cache(maxsize=None)
def load_tensor(data: Path, name: str):
    return spf.read_tns(data / "tensors" / f"{name}.tns")


def synthetic_tensor(extent: int, order: int, nnz: int, seed: int):
    """(coords, values, shape): ``nnz`` distinct uniformly random coordinates, values in [0.5, 1.5)."""
    rng = np.random.default_rng(seed)
    shape = (extent,) * order
    linear = np.sort(rng.choice(extent ** order, size=nnz, replace=False))
    coords = np.stack(np.unravel_index(linear, shape), axis=1).astype(np.int64)
    return coords, rng.random(nnz) + 0.5, shape


def nnz_of(data) -> int:
    return data.nnz if sparse.issparse(data) else len(data[1])


def shape_of(data) -> tuple[int, ...]:
    return tuple(data.shape) if sparse.issparse(data) else tuple(data[2])


def kernel_inputs(kernel: Kernel, arguments, sparse_names: list[str]) -> tuple[list, list[str], str]:
    """The kernel's inputs as (name, {sparse operand: data}), the header lines describing
    them ("matrix NAME ..." / "tensor NAME ..."), and the section's "inputs:" note."""
    notes = manifest(arguments.data)
    data = arguments.data

    def described(kind: str, name: str, value, note: str | None = None) -> str:
        note = notes.get(name, {}).get("note", "").split(";")[0] if note is None else note
        shape = shape_of(value)
        return f"{kind} {name:<17} {'x'.join(map(str, shape))}, nnz {nnz_of(value)}  ({note})"

    if kernel.inputs == "matrices":
        names = [n for n in arguments.matrices.split(",") if n]
        inputs = [(n, {sparse_names[0]: load_matrix(data, n)}) for n in names]
        lines = [described("matrix", n, load_matrix(data, n)) for n in names]
        return inputs, lines, ", ".join(names)
    if kernel.inputs == "tensors":
        names = [n for n in arguments.tensors.split(",") if n]
        inputs = [(n, {sparse_names[0]: load_tensor(data, n)}) for n in names]
        return inputs, [described("tensor", n, load_tensor(data, n)) for n in names], ", ".join(names)
    if kernel.inputs == "jf17k":
        tensor = load_tensor(data, TENSOR4)
        note = "; ".join(part.strip() for part in notes.get(TENSOR4, {}).get("note", "").split(";")[:2])
        return [(TENSOR4, {sparse_names[0]: tensor})], [described("tensor", TENSOR4, tensor, note)], TENSOR4
    if kernel.inputs == "chain":
        inputs, lines, used = [], [], []
        for name in CHAIN_TENSORS:
            tensor = load_tensor(data, name)
            n0, n1, n2 = shape_of(tensor)
            if n0 != n2 or n0 * n0 * n1 > CHAIN_OUTPUT_LIMIT:
                print(f"# CHAIN: {name} left out (shape {n0}x{n1}x{n2}: needs n0 = n2 and n0*n0*n1 <= "
                      f"{CHAIN_OUTPUT_LIMIT})", file=sys.stderr)
                continue
            inputs.append((name, {"A": tensor, "B": tensor, "C": tensor, "D": tensor}))
            lines.append(described("tensor", name, tensor))
            used.append(f"{name} (R {n0}x{n0}x{n1})")
        return inputs, lines, (", ".join(used) + "; A = B = C = D = the tensor in its stored mode order (the "
                               "autoscheduler may copy C with its modes permuted)")
    if kernel.inputs == "synthetic6":
        name, extent, order, nnz, seed = SYNTHETIC6
        tensor = synthetic_tensor(extent, order, nnz, seed)
        note = (f"synthetic: {nnz} distinct uniformly random coordinates, values in [0.5, 1.5), seed {seed}; "
                "no real order-6 tensor in the data")
        return ([(name, {sparse_names[0]: tensor})], [described("tensor", name, tensor, note)],
                f"{name} (synthetic random order-6 tensor, {'x'.join([str(extent)] * order)}, nnz {nnz}, "
                f"seed {seed})")
    raise ValueError(f"unknown input set {kernel.inputs}")


def layout_argument(spec: str) -> str:
    """A layout as spf takes it: a user layout file relative to the repository made absolute."""
    return str(REPOSITORY / spec) if spec.endswith(".layout") else spec


def parse(expression: str) -> tuple[str, list[tuple[str, tuple[str, ...]]]]:
    """The output name and the factors (name, indices) of ``expression``."""
    statement = spf.parse_statement(expression)
    factors = [(f.tensor, tuple(f.indices)) for f in statement.terms[0].factors]
    return statement.output.tensor, factors


def kernel_layouts(kernel: Kernel) -> tuple[str, list[tuple[str, tuple[str, ...]]], dict[str, str], dict[str, str]]:
    """The output name, the factors, and every tensor's layout as the header shows it (Dense
    unless the kernel names one) and as spf takes it (user layout files made absolute)."""
    output, factors = parse(kernel.expression)
    shown = {output: "Dense", **{f: "Dense" for f, _ in factors}}
    shown.update(kernel.sparse)
    return output, factors, shown, {tensor: layout_argument(spec) for tensor, spec in shown.items()}


def dense_only_indices(kernel: Kernel, factors: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """The indices no sparse operand reads: each gets the extent d."""
    sparse_indices = {i for f, ix in factors if f in kernel.sparse for i in ix}
    return sorted({i for _, ix in factors for i in ix} - sparse_indices)


def dense_operands(kernel: Kernel, factors: list[tuple[str, tuple[str, ...]]], extents: dict[str, int],
                   d: int | None) -> dict[str, np.ndarray]:
    """The kernel's dense operands at dense dimension ``d``: uniform in [0, 1), seeded by d
    (0 without dense dimensions), the extents of sparse indices those of the sparse operands."""
    rng = np.random.default_rng(0 if d is None else d)
    return {factor: rng.random(tuple(extents.get(i, d) for i in indices))
            for factor, indices in factors if factor not in kernel.sparse}


def default_iterations(kernel: Kernel, nnz: int, d: int | None, dense_only: int, sizes: dict[str, float]) -> float:
    """The unfused default's iterations (what its time is estimated from): nnz of the first
    sparse operand times d per dense-only index, or the kernel's own formula over the
    autoscheduler's sizes (``sizes``: stage 4's extents and stored counts)."""
    if kernel.iterations is None:
        return nnz * d ** dense_only
    formula = sympy.sympify(kernel.iterations)
    return float(formula.subs({sympy.Symbol(k): v for k, v in sizes.items()}))


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
    """Lines printed as they come and kept (the result file is written by :func:`write_results`)."""

    def __init__(self):
        self.lines: list[str] = []

    def __call__(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)


def machine_lines() -> list[str]:
    from spf.cli.bench import machine
    from spf.scheduling.autoscheduler.prune import last_level_cache_bytes
    info = machine()
    cache, _ = last_level_cache_bytes()
    load = os.getloadavg()
    return [f"machine: {info['CPU']}, {info['cores']} cores, last-level cache {cache / 2**20:.0f} MiB "
            f"(as the autoscheduler reads it)",
            f"C compiler: {info['C compiler']}",
            f"Python: {info['Python']}; date {info['date']}",
            f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (the machine is shared)"]


def benchmark_kernel(name: str, inputs: list[tuple[str, dict]], input_note: str, dims: list[int], cap: float,
                     say: Report) -> None:
    """The section of one kernel (ending with its "summary NAME:" line)."""
    kernel = KERNELS[name]
    expression, share = kernel.expression, kernel.share
    output, factors, shown, layouts = kernel_layouts(kernel)
    sparse_factors = [(f, ix) for f, ix in factors if f in kernel.sparse]
    dense_only = dense_only_indices(kernel, factors)
    first_name = sparse_factors[0][0]
    if kernel.iterations is None:
        iterations_note = f"nnz({first_name})*d^{len(dense_only)}"
    else:
        iterations_note = f"{kernel.iterations} (the autoscheduler's cost of the unfused nest)"
    if not dense_only:
        dims = []

    started = time.perf_counter()
    schedules = spf.autoschedule(expression, layouts=layouts, share=share, progress=lambda line: None)
    autoschedule_seconds = time.perf_counter() - started
    started = time.perf_counter()
    default = spf.compile(expression, layouts, share=share).build()
    compile_seconds = time.perf_counter() - started

    say(f"== {name}: {expression}")
    say(f"   layouts: {', '.join(f'{k} {v}' for k, v in shown.items())}"
        + (f"; {output} shares {share[output]}'s index arrays" if share else ""))
    say(f"   inputs: {input_note}; "
        + (f"dense dimensions d = {', '.join(map(str, dims))}" if dims else "no dense dimensions"))
    say(f"   autoschedule: {len(schedules.candidates)} candidate(s) after stage 3 in {autoschedule_seconds:.2f} s; "
        f"default compiled in {compile_seconds:.2f} s; default iterations {iterations_note}")
    header = (f"   {'input':<17} {'nnz':>7} {'d':>4} {'default':>26} {'fused':>10} {'speedup':>9}  "
              f"{'check':<10} chosen schedule")
    say(header)

    fused_kernels: dict[str, object] = {}
    checked: set[str] = set()
    speedups: list[float] = []
    skipped = rows = 0
    per_iteration = None  # seconds per default iteration measured on this input (any input without dense dims)
    for input_name, data in inputs:
        nnz = nnz_of(data[first_name])
        packed = {f: spf.pack(layouts[f], data[f], name=f) for f, _ in sparse_factors}
        extents = {i: n for f, ix in sparse_factors for i, n in zip(ix, shape_of(data[f]))}
        if dense_only:
            per_iteration = None
        for d in dims or [None]:
            operands = dict(packed, **dense_operands(kernel, factors, extents, d))
            sizes_for_select = dict(operands, **{f: data[f] for f, _ in sparse_factors})
            candidate = schedules.select(**sizes_for_select)
            key = str(candidate.schedule) + (f" [{describe(candidate.mode_orders, candidate.user_problem)}]"
                                             if candidate.mode_orders else "")
            if key not in fused_kernels:
                fused_kernels[key] = spf.compile(expression, layouts, share=share, schedule=candidate).build()
            fused = fused_kernels[key].bind(**operands)
            started = time.perf_counter()
            fused_result = snapshot(fused())  # the warm-up, and the result to check
            fused_first = time.perf_counter() - started
            rows += 1

            iterations = default_iterations(kernel, nnz, d, len(dense_only), schedules.last_selection.sizes)
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
            say(f"   {input_name:<17} {nnz:>7} {'-' if d is None else d:>4} {default_cell:>26} "
                f"{seconds(fused_time):>10} {speedup_cell:>9}  {check:<10} {key}")
    load = os.getloadavg()[0]
    say(f"   summary {name}: geometric-mean speedup {geometric_mean(speedups):.1f}x over {len(speedups)} "
        f"row(s) where both ran (min {min(speedups, default=float('nan')):.1f}x, "
        f"max {max(speedups, default=float('nan')):.1f}x); {skipped} of {rows} default run(s) skipped; "
        f"load average {load:.2f}")


# ----------------------------------------------------------------------------- the result file

SECTION_START = re.compile(r"^== (\S+): ")
SUMMARY_START = "== summary:"
SECTION_SUMMARY = re.compile(r"summary (\S+): geometric-mean speedup (\S+)x over (\d+) row\(s\) .*?; "
                             r"(\d+) of (\d+) default run\(s\) skipped")
INPUT_LINE = re.compile(r"^#   (matrix|tensor) (\S+) ")


@dataclass
class Results:
    """A result file: header lines, sections by kernel name (in file order), footer lines
    (the "#" lines after the summary block)."""

    header: list[str]
    sections: dict[str, list[str]]
    footer: list[str]


def strip_blank(lines: list[str]) -> list[str]:
    lines = list(lines)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_results(path: Path) -> Results:
    """The parts of an existing result file (all empty when there is none)."""
    try:
        text = path.read_text()
    except (FileNotFoundError, IsADirectoryError):
        text = ""
    header: list[str] = []
    sections: dict[str, list[str]] = {}
    footer: list[str] = []
    current: list[str] | None = None
    in_summary = False
    for line in text.splitlines():
        match = SECTION_START.match(line)
        if line.startswith(SUMMARY_START):
            current, in_summary = None, True
        elif match:
            current, in_summary = [], False
            sections[match[1]] = current
            current.append(line)
        elif in_summary:
            if line.startswith("#"):
                footer.append(line)
        elif current is not None:
            current.append(line)
        else:
            header.append(line)
    return Results(strip_blank(header), {k: strip_blank(v) for k, v in sections.items()}, footer)


def summary_block(sections: dict[str, list[str]], cap: float) -> list[str]:
    """The final summary, from each section's "summary NAME:" line."""
    lines = [f"{SUMMARY_START} geometric-mean speedup of the fused schedule over the unfused default "
             "(rows where both ran)"]
    for name, section in sections.items():
        found = [m for line in section if (m := SECTION_SUMMARY.search(line))]
        if not found:
            lines.append(f"   {name:<7} (no summary line: the section is incomplete)")
            continue
        _, speedup, both, skipped, count = found[-1].groups()
        lines.append(f"   {name:<7} {float(speedup):8.1f}x   over {int(both):2d} row(s); "
                     f"{skipped} default run(s) skipped (est. > {cap:g} s) of {count}")
    return lines


def merged_header(old: Results, new_header: list[str], update_line: str) -> list[str]:
    """The old header, with the new run's input lines it lacks (after its input list), the new
    machine lines that differ, and ``update_line``."""
    header = list(old.header)
    known = {m[2] for line in header if (m := INPUT_LINE.match(line))}
    added = [line for line in new_header if (m := INPUT_LINE.match(line)) and m[2] not in known]
    last_input = max((n for n, line in enumerate(header) if INPUT_LINE.match(line)), default=len(header) - 1)
    header[last_input + 1:last_input + 1] = added
    old_text = set(header)
    for line in new_header:
        if line.startswith(("# machine:", "# C compiler:")) and line not in old_text:
            header.append(line.replace("# ", "# (update) ", 1))
    header.append(update_line)
    return header


def write_results(path: Path, header: list[str], sections: dict[str, list[str]], footer: list[str],
                  cap: float) -> list[str]:
    """Write the file; its summary block and footer (for printing)."""
    closing = summary_block(sections, cap) + footer
    lines = header + [""]
    for section in sections.values():
        lines += section + [""]
    lines += closing
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:  # not a rename: --output may be /dev/null
        handle.write("\n".join(lines) + "\n")
    return closing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--dims", default=None,
                        help=f"dense dimensions of every kernel that has some (default: {','.join(map(str, DIMS))} "
                             "or the kernel's own)")
    parser.add_argument("--cap", type=float, default=5.0, help="skip a default run estimated above this (s)")
    parser.add_argument("--kernels", default=",".join(KERNELS),
                        help="comma-separated kernels to run; the others' sections in --output are kept")
    parser.add_argument("--matrices", default=",".join(MATRICES))
    parser.add_argument("--tensors", default=",".join(TENSORS))
    parser.add_argument("--output", type=Path, default=OUTPUT)
    arguments = parser.parse_args()
    started = time.perf_counter()
    kernels = [k for k in arguments.kernels.split(",") if k]
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown:
        sys.exit(f"unknown kernel(s) {unknown}; choose from {', '.join(KERNELS)}")
    old = read_results(arguments.output)
    kept = [k for k in old.sections if k not in kernels]

    # the inputs of every kernel to run, and the header describing them
    plans = {}
    input_lines: list[str] = []
    for name in kernels:
        kernel = KERNELS[name]
        output, factors = parse(kernel.expression)
        sparse_names = [f for f, _ in factors if f in kernel.sparse]
        inputs, lines, note = kernel_inputs(kernel, arguments, sparse_names)
        dims = list(kernel.dims if kernel.dims is not None else DIMS)
        if arguments.dims is not None and dims:
            dims = [int(d) for d in arguments.dims.split(",")]
        plans[name] = (inputs, note, dims)
        input_lines += [line for line in lines if line not in input_lines]

    command = f"python benchmarks/autoschedule.py {' '.join(sys.argv[1:])}".rstrip()
    say = Report()
    say("# benchmarks/autoschedule.py: autoscheduled (fused) vs the unfused default, serial")
    say(f"# command: {command}")
    machine = machine_lines()
    for line in machine:
        say(f"# {line}")
    say(f"# dense dimensions d = {', '.join(map(str, DIMS))} unless a section says otherwise; default runs "
        f"estimated above {arguments.cap:g} s are skipped; times are medians of bound-kernel calls after a "
        "warm-up/check call")
    say("# inputs:")
    for line in input_lines:
        say(f"#   {line}")
    new_header = list(say.lines)
    say()

    if kept:
        date = machine[2].split("; date ")[-1]
        load = machine[3].split(": ", 1)[1].split(" (")[0]
        update = (f"# update: {command} on {date}, load average at start {load}: sections "
                  f"{', '.join(kernels)} (re)written; {', '.join(kept)} kept from the run(s) above")
        header = merged_header(old, new_header, update)
        footer = list(old.footer)
    else:
        header, footer = new_header, []

    sections: dict[str, list[str]] = {}
    order = list(KERNELS) + [k for k in old.sections if k not in KERNELS]
    merged = {k: old.sections[k] for k in order if k in kept}
    for name in kernels:
        inputs, note, dims = plans[name]
        first = len(say.lines)
        benchmark_kernel(name, inputs, note, dims, arguments.cap, say)
        say()
        sections[name] = strip_blank(say.lines[first:])
        merged = {k: sections.get(k, old.sections.get(k)) for k in order if k in sections or k in kept}
        write_results(arguments.output, header, merged, footer, arguments.cap)  # after every kernel

    total = time.perf_counter() - started
    footer.append(f"# total wall time {total:.0f} s" + (f" ({command})" if kept else ""))
    closing = write_results(arguments.output, header, merged, footer, arguments.cap)
    for line in closing:
        print(line)


if __name__ == "__main__":
    main()
