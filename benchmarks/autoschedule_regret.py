"""The autoscheduler's regret: its pick against the fastest schedule timed, on real data.

Run: python benchmarks/autoschedule_regret.py [--kernels K1,K5,...] [--inputs NAME,...] [--dims 16,32]
         [--threads 1,2] [--top 20] [--all] [--cap 2] [--output FILE] [--data DIR] [--quick] [--plan]
(all kernels with the defaults: 336 rows, meant to take under an hour on an idle 2-core
machine (``--plan`` prints the plan and stops); on a loaded one K5's 32 rows took 4
minutes, K6's 1.3; ``--quick``: K1, K5 and MTTKRP on one small input each, d = 16 and 32,
1 thread, top 5, under a minute, written to results/autoschedule_regret_quick.txt unless
``--output`` says otherwise)

The kernels, inputs, layouts and dense operands are those of benchmarks/autoschedule.py
(imported from it).  For every kernel, input, dense dimension d (16, 32, 64, 128 or the
kernel's own list, ``--dims``) and thread count (1 and 2, ``--threads``) one *row* times:

* the top N (``--top``, default 20) of ``res.rank(**operands)``: the candidates left after
  the autoscheduler's pruning, in the model's order; the first is the model's *pick*
  (``res.select(measure=False)``; ``--all``: every tree in ``res.generated`` instead, the
  pruned ones included).  ``res.select(**operands)`` by default times the model's closest
  candidates where it is unsure (as ``measure=True``): its pick is the *measured pick*,
  reported beside the model's (``--no-measure`` leaves it out);
* the hand-written reference schedules of the kernel (``REFERENCES``, parsed by
  ``spf.schedule``): SpTTN-Cyclops-style trees that keep a vector temporary with the dense
  loop innermost, and TACO ``precompute``-style workspaces (a loop-invariant product
  computed once).  One that does not parse or check is reported as an error in its
  section and in the summary; one that the search also generates is timed once, under
  the generated tree's id;
* the unfused default, ``spf.compile(expression, layouts)``.

Schedules are compiled once per thread setting: ``parallel=False`` for 1 thread, the
parallel variant (``parallel=True``, OpenMP on the outermost loop the dependence test
allows; a tree with no such loop runs serially) at 2 threads, set with
``omp_set_num_threads`` through parallel.py's ``OpenMP``.  Inputs are packed once (dense
operands as Tensors too) and each schedule is bound once per row; only C calls are timed.

Each schedule's first call is the warm-up and the check: its result must agree with the
default's (``np.allclose``; a sparse output by its value arrays, which share the input's
index arrays), or, where the default exceeds the cap, with the first schedule that ran
(the pick, normally).  A wrong result is reported and left out of the comparison.  Then
the schedules are timed in interleaved rounds: each round calls every schedule once, or
a fast one in a block of consecutive calls lasting about ``BLOCK_SECONDS`` (20 ms: all
but the first find the caches warm), at least ``LEAST_ROUNDS`` rounds, more within
``ROW_SECONDS``; each time is the median of the schedule's per-call times (so that the
calls another process's time slice stretches do not move it).

A schedule is not run when its first call is *estimated* above ``--cap`` (default 2 s)
or above the pick's first call, whichever is longer (one slower than the pick cannot
be the fastest), and not timed further when its first call exceeds the cap: "> cap",
its one call's time shown and compared.  The estimate is the
model's iteration count for the operands (for the default, benchmarks/autoschedule.py's
formula) times the seconds per iteration the same schedule took on the same input at the
previous d (or at 1 thread for a 2-thread row), 1.5x when extrapolating; before any
measurement of that schedule, the median seconds per iteration of the calls seen on the
input (1 ns before any), 1.5x.  The pick is timed whatever the cap, up to ``HARD_CAP``
(20 s) a call, and the row says so; a pick estimated above that is not run, and the
row's regret is a lower bound (">=", taking the pick as 20 s).

Per row: the pick's time, the fastest schedule and its time, regret = pick / fastest,
default / pick, and the model's rank of the fastest (its 1-based position in ``res.rank``;
"ref" for a hand-written schedule the search does not generate, "pruned" for a generated
tree that pruning dropped); then every schedule's time.  Per kernel and over all rows:
geometric-mean and largest regret, rows with regret > 1.25, rows where the pick is slower
than the default x 0.95.  The header gives the command, machine, compiler, date, the load
average at start (``machine not idle`` above 0.5) and end, and a triad's memory bandwidth
from the same run.
"""

from __future__ import annotations

import argparse
import ctypes
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

import numpy as np

import spf
from autoschedule import (CHAIN_TENSORS, DATA, KERNELS, MATRICES, SYNTHETIC6, TENSOR4, TENSORS, Kernel, Report,
                          default_iterations, dense_only_indices, dense_operands, kernel_inputs, kernel_layouts,
                          machine_lines, nnz_of, seconds, shape_of, snapshot)
from common import geometric_mean
from parallel import TRIAD_SOURCE, Load, OpenMP, interleaved_medians, large_stacks
from spf.codegen.toolchain.compiler import build_shared_library, load_function
from spf.runtime.autoschedule import AutoSchedule

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "results" / "autoschedule_regret.txt"
QUICK_OUTPUT = HERE / "results" / "autoschedule_regret_quick.txt"

DIMS = [16, 32, 64, 128]
THREADS = [1, 2]
TOP = 20
CAP = 2.0  # seconds: a schedule whose first call is (estimated) above it is not timed
HARD_CAP = 20.0  # seconds a call: the pick is timed up to this
ROW_SECONDS = 1.5  # timed rounds of a row last about this (at least LEAST_ROUNDS rounds)
LEAST_ROUNDS = 3
MOST_ROUNDS = 40
BLOCK_SECONDS = 0.02  # a fast schedule is called in blocks of about this long (its first call warms the caches)
MOST_BLOCK = 1000
PRIOR_SECONDS_PER_ITERATION = 1e-9
EXTRAPOLATION_MARGIN = 1.5
OUTPUT_BUDGET = 4 * 2**30  # bytes of dense outputs bound at once in a row; beyond it the row is skipped
TEMPORARY_BUDGET = 2**30  # bytes of a schedule's temporaries; beyond it the schedule is not run
TRIAD_LOG2 = 26  # the triad's arrays: 3 x 2^26 doubles (1.5 GiB)
REGRET_LIMIT = 1.25  # issue 27's acceptance: regret <= 1.25 on every row
DEFAULT_RATIO_LIMIT = 0.95  # and the pick never slower than the default (default / pick >= 0.95)
QUICK = SimpleNamespace(kernels="K1,K5,MTTKRP", inputs="bcsstk13,nations", dims="16,32", threads="1", top=5,
                        triad_log2=24)

# Hand-written schedules, in explain()'s notation (spf.schedule parses them).  "SpTTN": the
# sparse loops fused outside, each temporary a vector over a dense index, that dense index
# the innermost loop of producer and consumer (unit stride in the dense operands, each
# sparse fibre walked once: SpTTN-Cyclops §7); "TACO precompute": a workspace TACO's
# ``precompute`` makes (a row of an intermediate, or a product that does not depend on
# the sparse operand, computed once).
# A third element, {input: permutation}, reads those inputs from copies in other mode orders.
REFERENCES: dict[str, list[tuple]] = {
    "K1": [("SpTTN: SDDMM row dot product, then the dense row of E (scalar temporary, dense loops innermost)",
            "i, j < T_CD() ; k : T_CD() += C(i,k) * D(j,k) , l : A(i,l) += T_CD() * B(i,j) * E(j,l) >")],
    "K2": [("SpTTN: vector T(l) per row i, dense l and m innermost",
            "i < T_BCDE(l) ; j < T_CD() ; k : T_CD() += C(i,k) * D(j,k) , l : T_BCDE(l) += T_CD() * B(i,j) * E(j,l) >"
            " , l, m : A(i,m) += T_BCDE(l) * F(l,m) >"),
           ("TACO precompute: the dense product E*F once, then K1's fused SDDMM-SpMM with dense m innermost",
            "< T_EF(j,m) ; j, l, m : T_EF(j,m) += E(j,l) * F(l,m) , i, j < T_CD() ; k : T_CD() += C(i,k) * D(j,k) , "
            "m : A(i,m) += T_CD() * B(i,j) * T_EF(j,m) > >")],
    "K3": [("TACO precompute: T(j) = sum_k C(j,k) D(j,k) once, then SpMM",
            "< T_CD(j) ; j, k : T_CD(j) += C(j,k) * D(j,k) , i, j, l : A(i,l) += T_CD(j) * B(i,j) * E(j,l) >")],
    "K4": [("SpTTN / TACO workspace: row i of B*C in a vector T(k), dense k and l innermost",
            "i < T_BC(k) ; j, k : T_BC(k) += B(i,j) * C(j,k) , k, l : A(i,l) += T_BC(k) * D(k,l) >"),
           ("TACO precompute: the dense product C*D once, then SpMM",
            "< T_CD(j,l) ; j, k, l : T_CD(j,l) += C(j,k) * D(k,l) , i, j, l : A(i,l) += T_CD(j,l) * B(i,j) >")],
    "K5": [("SpTTN: vector T(n) per (i,j), matrix T(m,n) per i, dense n innermost",
            "i < T_BDE(m,n) ; j < T_BE(n) ; k, n : T_BE(n) += B(i,j,k) * E(k,n) , "
            "m, n : T_BDE(m,n) += T_BE(n) * D(j,m) >"
            " , l, m, n : A(l,m,n) += T_BDE(m,n) * C(i,l) >")],
    "K6": [("SpTTN: vector T(m) per (i,j), dense m innermost (issue 27's example)",
            "i, j < T_BD(m) ; k, m : T_BD(m) += B(i,j,k) * D(k,m) , l, m : A(i,l,m) += T_BD(m) * C(j,l) >"),
           ("TACO workspace: slice i of B*C as a matrix T(l,k), dense m innermost (generated, pruned; won trials)",
            "i < T_BC(l,k) ; j, k, l : T_BC(l,k) += B(i,j,k) * C(j,l) , k, l, m : A(i,l,m) += T_BC(l,k) * D(k,m) >")],
    "K7": [("TACO precompute: the dense product C*D once as T(k,m), then TTM with m innermost",
            "< T_CD(k,m) ; k, l, m : T_CD(k,m) += C(k,l) * D(l,m) , i, j, k, m : A(i,j,m) += T_CD(k,m) * B(i,j,k) >")],
    "K8": [("SpTTN: vector T(j) per (i,k), vector T(j) per i, dense j and m innermost",
            "i < T_BCD(j) ; k < T_BC(j) ; l, j : T_BC(j) += B(i,k,l) * C(l,j) , j : T_BCD(j) += T_BC(j) * D(k,j) >"
            " , j, m : A(i,m) += T_BCD(j) * E(j,m) >"),
           ("SpTTN: one vector T(j) per i, dense j innermost",
            "i < T_BCD(j) ; k, l, j : T_BCD(j) += B(i,k,l) * C(l,j) * D(k,j) , j, m : A(i,m) += T_BCD(j) * E(j,m) >"),
           ("TACO precompute: the whole intermediate T(i,j), then a dense product (generated, pruned; won trials)",
            "< T_BCD(i,j) ; i, k, l, j : T_BCD(i,j) += B(i,k,l) * C(l,j) * D(k,j) , i, j, m : A(i,m) += T_BCD(i,j) * "
            "E(j,m) >")],
    "MTTKRP": [("SpTTN / SPLATT: vector T(a) per (i,j), one multiply fewer per nonzero",
                "i, j < T_BD(a) ; k, a : T_BD(a) += B(i,j,k) * D(k,a) , a : A(i,a) += T_BD(a) * C(j,a) >")],
    "TTMc3": [("SpTTN: vector T(s) per (i,j), dense s innermost",
               "i, j < T_TV(s) ; k, s : T_TV(s) += T(i,j,k) * V(k,s) , r, s : S(i,r,s) += T_TV(s) * U(j,r) >"),
              ("TACO workspace: slice i of T*U as a matrix T(r,k), dense s innermost (generated, pruned; won trials)",
               "i < T_TU(r,k) ; j, k, r : T_TU(r,k) += T(i,j,k) * U(j,r) , "
               "k, r, s : S(i,r,s) += T_TU(r,k) * V(k,s) >")],
    "TTMc4": [("SpTTN: vector T(t) per (i,j,k), matrix T(s,t) per (i,j), dense t innermost",
               "i, j < T_TVW(s,t) ; k < T_TW(t) ; l, t : T_TW(t) += T(i,j,k,l) * W(l,t) , "
               "s, t : T_TVW(s,t) += T_TW(t) * V(k,s) >"
               " , r, s, t : S(i,r,s,t) += T_TVW(s,t) * U(j,r) >")],
    "TTTP": [("SpTTN: vector T(r) = U(i,r) V(j,r) per (i,j), one multiply fewer per nonzero",
              "i, j < T_UV(r) ; r : T_UV(r) += U(i,r) * V(j,r) , k, r : S(i,j,k) += T_UV(r) * T(i,j,k) * W(k,r) >")],
    "CHAIN": [("CoNST order with C as stored, (q,k,r): A*B over p, then C over q, then D over k, r",
               "i, j < T_AB(q,r) ; p, q, r : T_AB(q,r) += A(i,p,q) * B(j,p,r) , < T_ABC(k,r) ; q, k, r : "
               "T_ABC(k,r) += T_AB(q,r) * C(q,k,r) , k, r : R(i,j,k) += T_ABC(k,r) * D(j,k,r) > >"),
              ("CoNST's own: C copied as C(k,q,r), temporaries over q, r then r",
               "i, j < T_AB(q,r) ; p, q, r : T_AB(q,r) += A(i,p,q) * B(j,p,r) , k < T_ABC(r) ; q, r : T_ABC(r) += "
               "T_AB(q,r) * C(k,q,r) , r : R(i,j,k) += T_ABC(r) * D(j,k,r) > >", {"C": (1, 0, 2)})],
    "TTTc": [("SpTTN: a vector over the next rank per level of T, rank loops innermost",
              "i, j < T_AB(b) ; a, b : T_AB(b) += A(i,a) * B(a,j,b) , k < T_ABC(c) ; b, c : T_ABC(c) += T_AB(b) * "
              "C(b,k,c) , l < T_ABCD(d) ; c, d : T_ABCD(d) += T_ABC(c) * D(c,l,d) , m < T_ABCDE(e) ; d, e : "
              "T_ABCDE(e) += T_ABCD(d) * E(d,m,e) , n, e : Z(e,n) += T_ABCDE(e) * T(i,j,k,l,m,n) > > > >")],
}


# ----------------------------------------------------------------------------- what a row computes


def regret(pick: float, best: float) -> float:
    """Pick time over the fastest time (1.0: the pick is the fastest)."""
    return pick / best


def model_rank(best: str, ranked: list[str], references: set[str]) -> str:
    """Where the fastest schedule stood: its 1-based position in the model's ranking, "ref"
    for a hand-written one the search does not generate, "pruned" for a generated tree that
    pruning dropped."""
    if best in ranked:
        return str(ranked.index(best) + 1)
    return "ref" if best in references else "pruned"


def fastest(times: dict[str, float]) -> tuple[str, float] | None:
    """The id and time of the fastest schedule (None when nothing was timed)."""
    if not times:
        return None
    best = min(times, key=lambda key: times[key])
    return best, times[best]


def block_size(first: float) -> int:
    """Calls per block for a schedule whose first call took ``first`` seconds."""
    return max(1, min(MOST_BLOCK, int(BLOCK_SECONDS / max(first, 1e-9))))


def planned_rounds(round_seconds: float, budget: float = ROW_SECONDS, least: int = LEAST_ROUNDS,
                   most: int = MOST_ROUNDS) -> int:
    """Rounds that last about ``budget`` when one round takes ``round_seconds``, within [least, most]."""
    if round_seconds <= 0:
        return most
    return max(least, min(most, int(budget / round_seconds)))


def extrapolate(previous_seconds: float, previous_iterations: float, iterations: float,
                margin: float = EXTRAPOLATION_MARGIN) -> float:
    """A time estimated from a measurement of the same schedule at other sizes: seconds per
    iteration times iterations, times ``margin`` unless the iterations are the same."""
    if previous_iterations <= 0:
        return previous_seconds
    estimate = previous_seconds * iterations / previous_iterations
    return estimate if iterations == previous_iterations else estimate * margin


@dataclass(frozen=True)
class Summary:
    """Regret over a set of rows (each a regret, whether it is a lower bound, and default / pick)."""

    rows: int
    geometric_mean: float
    largest: float
    largest_at: int | None  # index of the row with the largest regret
    over_limit: int  # rows with regret > REGRET_LIMIT
    slower_than_default: int  # rows with default / pick < DEFAULT_RATIO_LIMIT
    lower_bounds: int  # rows whose regret is only a lower bound


def summarize(regrets: list[float | None], lower_bound: list[bool], default_ratios: list[float | None]) -> Summary:
    """Geometric mean and largest regret, and the rows beyond issue 27's limits (rows without
    a regret are left out; a lower bound counts as its value)."""
    measured = [(n, r) for n, r in enumerate(regrets) if r is not None and math.isfinite(r)]
    largest_at = max(measured, key=lambda item: item[1])[0] if measured else None
    return Summary(rows=len(measured),
                   geometric_mean=geometric_mean([r for _, r in measured]),
                   largest=regrets[largest_at] if largest_at is not None else float("nan"),
                   largest_at=largest_at,
                   over_limit=sum(r > REGRET_LIMIT for _, r in measured),
                   slower_than_default=sum(1 for ratio in default_ratios
                                           if ratio is not None and ratio < DEFAULT_RATIO_LIMIT),
                   lower_bounds=sum(1 for n, _ in measured if lower_bound[n]))


# ----------------------------------------------------------------------------- schedules and rows


@dataclass
class Schedule:
    """One schedule a row may time."""

    id: str  # g<position in res.generated>, r<n> for a reference, "default"
    text: str
    candidate: object | None  # the autoscheduler's Candidate (None: the default)
    origin: str  # "candidate", "pruned", "reference", "default"
    label: str = ""  # a reference's description
    alias_of: str | None = None  # a reference the search also generates: that tree's id


@dataclass
class Outcome:
    """What happened to one schedule in one row."""

    status: str  # "timed", "over cap", "not run", "wrong", "error", "too big"
    time: float | None = None  # median seconds per call (or the one call's time over the cap)
    calls: int = 0
    note: str = ""


@dataclass
class Row:
    kernel: str
    input: str
    nnz: int
    d: int | None
    threads: int
    ranked: list[str]  # candidate ids in the model's order
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    skipped: str = ""  # why the row was not measured
    checked_against: str = "default"
    measured: str = ""  # id of select(measure=True)'s pick (the model's closest candidates timed on the operands)

    def measured_regret(self) -> float | None:
        """The measured pick's time over the fastest timed schedule."""
        best, outcome = self.best(), self.outcomes.get(self.measured)
        if not best or outcome is None or outcome.status != "timed" or outcome.time is None:
            return None
        return outcome.time / best[1]

    @property
    def pick(self) -> str:
        return self.ranked[0]

    def fused_times(self) -> dict[str, float]:
        """The times of the schedules other than the default, by id (those over the cap by their one call)."""
        return {k: o.time for k, o in self.outcomes.items()
                if k != "default" and o.status in ("timed", "over cap") and o.time is not None}

    def best(self) -> tuple[str, float] | None:
        return fastest(self.fused_times())

    def pick_time(self) -> tuple[float | None, bool]:
        """The pick's time and whether it is only a lower bound (not run: estimated above the hard cap)."""
        outcome = self.outcomes.get(self.pick)
        if outcome is not None and outcome.status == "not run":
            return HARD_CAP, True
        if outcome is None or outcome.status not in ("timed", "over cap") or outcome.time is None:
            return None, False
        return outcome.time, False

    def regret(self) -> tuple[float | None, bool]:
        """Regret and whether it is a lower bound (the pick not run: estimated above the hard cap)."""
        best = self.best()
        pick, bound = self.pick_time()
        if best is None or pick is None:
            return None, False
        return regret(max(pick, best[1]), best[1]), bound

    def default_ratio(self) -> float | None:
        """Default time over pick time, where both have a time (the default's one call over the cap counts)."""
        default = self.outcomes.get("default")
        pick, bound = self.pick_time()
        if default is None or default.time is None or pick is None or bound:
            return None
        return default.time / pick


def time_cell(outcome: Outcome | None, cap: float) -> str:
    if outcome is None:
        return "-"
    if outcome.status == "timed":
        return seconds(outcome.time) + ("*" if outcome.time > cap else "")
    if outcome.status == "over cap":
        return f"> {cap:g} s" if outcome.time is None else f"{seconds(outcome.time)} (1 call)"
    if outcome.status == "not run":
        return f"> {HARD_CAP:g} s est"
    return outcome.status


# ----------------------------------------------------------------------------- measuring


def time_in_rounds(calls: dict[str, Callable], firsts: dict[str, float]) -> dict[str, list[float]]:
    """Per-call times of warmed-up functions (``firsts``: each one's first call), called in
    interleaved rounds, a fast one in a block of consecutive calls."""
    blocks = {key: block_size(firsts[key]) for key in calls}
    rounds = planned_rounds(sum(blocks[key] * firsts[key] for key in calls))
    times: dict[str, list[float]] = {key: [] for key in calls}
    clock = time.perf_counter
    for _ in range(rounds):
        for key, call in calls.items():
            record = times[key].append
            for _ in range(blocks[key]):
                started = clock()
                call()
                record(clock() - started)
    return times


class Estimator:
    """Estimates a schedule's first call from earlier measurements on the same input."""

    def __init__(self) -> None:
        self.history: dict[tuple[str, str], tuple[float, float]] = {}  # (input, id) -> (iterations, seconds)
        self.rates: dict[str, list[float]] = {}  # input -> seconds per iteration of the calls >= 1 ms on it

    def estimate(self, input_name: str, schedule: str, iterations: float | None) -> float | None:
        if iterations is None:
            return None
        previous = self.history.get((input_name, schedule))
        if previous is not None:
            return extrapolate(previous[1], previous[0], iterations)
        rates = self.rates.get(input_name)
        rate = statistics.median(rates) if rates else PRIOR_SECONDS_PER_ITERATION
        return iterations * rate * EXTRAPOLATION_MARGIN

    def record(self, input_name: str, schedule: str, iterations: float | None, elapsed: float) -> None:
        if iterations is None or iterations <= 0:
            return
        self.history[(input_name, schedule)] = (iterations, elapsed)
        if elapsed >= 1e-3:
            self.rates.setdefault(input_name, []).append(elapsed / iterations)


@dataclass
class KernelPlan:
    """A kernel's schedules and the rows to measure."""

    name: str
    kernel: Kernel
    layouts: dict[str, str]
    shown: dict[str, str]
    factors: list
    schedules: AutoSchedule
    autoschedule_seconds: float
    inputs: list  # (name, {sparse operand: data})
    input_note: str
    dims: list
    by_text: dict[str, str]  # generated tree text -> id
    references: list[Schedule]
    reference_errors: list[str]
    # (input, d, threads, the candidates' ids in the model's order, the ids the row times)
    rows: list[tuple[str, int | None, int, list[str], list[str]]] = field(default_factory=list)


def schedule_table(plan: KernelPlan) -> dict[str, Schedule]:
    """Every schedule of the kernel by id: generated trees, references, the default."""
    table: dict[str, Schedule] = {}
    candidates = {id(c) for c in plan.schedules.candidates}
    for number, candidate in enumerate(plan.schedules.generated):
        table[f"g{number}"] = Schedule(f"g{number}", str(candidate.schedule), candidate,
                                       "candidate" if id(candidate) in candidates else "pruned")
    for reference in plan.references:
        table[reference.id] = reference
    table["default"] = Schedule("default", "unfused default: spf.compile(expression, layouts)", None, "default")
    return table


def dense_output_bytes(kernel: Kernel, extents: dict[str, int], d: int | None) -> int:
    """Bytes of one dense output (0 for a sparse one, which shares an input's arrays)."""
    output = spf.parse_statement(kernel.expression).output
    if output.tensor in kernel.sparse:
        return 0
    return 8 * math.prod(extents.get(i, d) for i in output.indices)


class Runner:
    """Compiles, checks and times the rows of one kernel."""

    def __init__(self, plan: KernelPlan, table: dict[str, Schedule], omp: OpenMP, estimator: Estimator,
                 cap: float) -> None:
        self.plan = plan
        self.table = table
        self.omp = omp
        self.estimator = estimator
        self.cap = cap
        self.compiled: dict[tuple[str, bool], object] = {}
        self.compile_errors: dict[str, str] = {}
        self.serial_at_two_threads: set[str] = set()
        self.compile_seconds = 0.0
        self.measure_picks = True

    def kernel_for(self, schedule: Schedule, parallel: bool):
        key = (schedule.id, parallel)
        if key not in self.compiled:
            kernel = self.plan.kernel
            started = time.perf_counter()
            try:
                options = {} if schedule.candidate is None else {"schedule": schedule.candidate}
                built = spf.compile(kernel.expression, self.plan.layouts, share=kernel.share, parallel=parallel,
                                    **options).build()
            except Exception as error:  # a schedule that does not compile is reported, not fatal
                built = None
                self.compile_errors[schedule.id] = f"{type(error).__name__}: {error}".splitlines()[0][:300]
            self.compile_seconds += time.perf_counter() - started
            if built is not None and parallel and "#pragma omp parallel" not in built.c_source:
                self.serial_at_two_threads.add(schedule.id)
            self.compiled[key] = built
        return self.compiled[key]

    def measure(self, input_name: str, data: dict, packed: dict, d: int | None, threads: int, ids: list[str],
                ranked: list[str]) -> Row:
        plan, kernel = self.plan, self.plan.kernel
        sparse_factors = [(f, ix) for f, ix in plan.factors if f in kernel.sparse]
        first_name = sparse_factors[0][0]
        row = Row(plan.name, input_name, nnz_of(data[first_name]), d, threads, ranked)
        extents = {i: n for f, ix in sparse_factors for i, n in zip(ix, shape_of(data[f]))}
        dense = dense_operands(kernel, plan.factors, extents, d)
        sizes = plan.schedules.sizes(**{f: data[f] for f, _ in sparse_factors}, **dense)
        output_bytes = dense_output_bytes(kernel, extents, d)
        if output_bytes * len(ids) > OUTPUT_BUDGET:
            row.skipped = (f"skipped: {len(ids)} outputs of {output_bytes / 2**20:.0f} MiB each exceed "
                           f"{OUTPUT_BUDGET / 2**30:.0f} GiB")
            return row
        operands = dict(packed, **{f: spf.pack("Dense", array, name=f) for f, array in dense.items()})
        dense_count = len(dense_only_indices(kernel, plan.factors))
        self.omp.set_threads(threads)
        parallel = threads > 1
        if self.measure_picks:
            chosen = plan.schedules.select(measure=True, parallel=parallel, **packed, **dense)
            row.measured = plan.by_text.get(str(chosen.schedule), "")

        def iterations(schedule: Schedule) -> float | None:
            try:
                if schedule.candidate is None:
                    return float(default_iterations(kernel, row.nnz, d, dense_count, sizes))
                return schedule.candidate.time.evaluate(sizes)
            except (KeyError, TypeError, ValueError):
                return None

        reference = None
        bound: dict[str, Callable] = {}
        firsts: dict[str, float] = {}
        estimate_key = f"{plan.name} {input_name}"
        pick_seconds = 0.0  # the pick's first call (or estimate): a schedule up to as slow may still beat it
        for schedule_id in ids:  # the default, then the pick, then the others
            schedule = self.table[schedule_id]
            is_pick = schedule_id == row.pick
            limit = HARD_CAP if is_pick else self.cap if schedule_id == "default" else max(self.cap, pick_seconds)
            count = iterations(schedule)
            if schedule.candidate is not None:
                try:
                    temporary = schedule.candidate.memory.evaluate(sizes) * 8 * threads
                except (KeyError, TypeError, ValueError):
                    temporary = 0.0
                if temporary > TEMPORARY_BUDGET:
                    row.outcomes[schedule_id] = Outcome("too big", note=f"temporaries {temporary / 2**20:.0f} MiB")
                    continue
            estimate = self.estimator.estimate(estimate_key, schedule_id, count)
            if estimate is not None and estimate > limit:
                row.outcomes[schedule_id] = Outcome("not run" if is_pick else "over cap",
                                                    note=f"est. {seconds(estimate)}")
                self.estimator.record(estimate_key, schedule_id, count, estimate)
                pick_seconds = HARD_CAP if is_pick else pick_seconds
                continue
            compiled = self.kernel_for(schedule, parallel)
            if compiled is None:
                row.outcomes[schedule_id] = Outcome("error", note=self.compile_errors[schedule_id])
                continue
            call = compiled.bind(**operands)
            started = time.perf_counter()
            try:
                result = snapshot(call())
            except spf.SpfError as error:
                row.outcomes[schedule_id] = Outcome("error", note=f"{type(error).__name__}: {error}"[:300])
                continue
            first = time.perf_counter() - started
            self.estimator.record(estimate_key, schedule_id, count, first)
            if reference is None:
                reference = result
                row.checked_against = "default" if schedule_id == "default" else schedule_id
            elif result.shape != reference.shape or not np.allclose(result, reference):
                worst = (float(np.max(np.abs(result - reference))) if result.shape == reference.shape
                         else float("nan"))
                row.outcomes[schedule_id] = Outcome("wrong", first, 1, f"largest difference {worst:g}")
                continue
            del result
            if is_pick:
                pick_seconds = min(first, HARD_CAP)
            if first > (HARD_CAP if is_pick else self.cap):  # one call only: slower than the cap
                row.outcomes[schedule_id] = Outcome("over cap", first, 1)
                continue
            bound[schedule_id] = call
            firsts[schedule_id] = first

        for key, values in time_in_rounds(bound, firsts).items():
            median = statistics.median(values)
            row.outcomes[key] = Outcome("timed", median, len(values) + 1)
            iterations_key = iterations(self.table[key])
            self.estimator.record(estimate_key, key, iterations_key, median)
        return row


# ----------------------------------------------------------------------------- planning


def parse_references(name: str, kernel: Kernel, layouts: dict[str, str], by_text: dict[str, str]
                     ) -> tuple[list[Schedule], list[str]]:
    """The kernel's hand-written schedules, parsed and checked; the messages of those that fail."""
    references, errors = [], []
    for number, (label, text, *copies) in enumerate(REFERENCES.get(name, []), start=1):
        try:
            candidate = spf.schedule(text, kernel.expression, layouts, share=kernel.share,
                                     mode_orders=copies[0] if copies else None)
        except spf.SpfError as error:
            errors.append(f"r{number} ({label}) does not parse or check: {error}")
            continue
        tree = str(candidate.schedule)
        references.append(Schedule(f"r{number}", tree, candidate, "reference", label, by_text.get(tree)))
    return references, errors


def select_inputs(kernel: Kernel, arguments, wanted: set[str] | None) -> tuple[list, list[str], str]:
    """The kernel's inputs (benchmarks/autoschedule.py's), only the ``wanted`` names if given."""
    _, factors, _, _ = kernel_layouts(kernel)
    sparse_names = [f for f, _ in factors if f in kernel.sparse]
    names = SimpleNamespace(data=arguments.data, matrices=",".join(MATRICES), tensors=",".join(TENSORS))
    if wanted is not None:
        names.matrices = ",".join(m for m in MATRICES if m in wanted)
        names.tensors = ",".join(t for t in TENSORS if t in wanted)
        if kernel.inputs in ("matrices", "tensors") and not getattr(names, kernel.inputs):
            return [], [], ""
    inputs, lines, note = kernel_inputs(kernel, names, sparse_names)
    if wanted is not None:
        inputs = [(n, data) for n, data in inputs if n in wanted]
    return inputs, lines, note


def row_schedules(plan: KernelPlan, ranked: list[str], top: int, every: bool) -> list[str]:
    """The ids a row times, in the order their first calls run: the default (the reference
    result), the pick, the model's next ones, the references, then (``every``) the pruned
    trees, so that the estimates of the references come from the candidates' rates."""
    fused = ranked if every else ranked[:max(top, 1)]
    aliased = [r.alias_of for r in plan.references if r.alias_of is not None and r.alias_of not in fused]
    references = [r.id for r in plan.references if r.alias_of is None]
    rest = [f"g{n}" for n in range(len(plan.schedules.generated)) if f"g{n}" not in fused + aliased] if every else []
    return ["default"] + fused + aliased + references + rest


def make_plan(name: str, arguments, wanted: set[str] | None, dims_override: list[int] | None,
              threads: list[int]) -> KernelPlan | None:
    kernel = KERNELS[name]
    _, factors, shown, layouts = kernel_layouts(kernel)
    inputs, _, note = select_inputs(kernel, arguments, wanted)
    if not inputs:
        return None
    started = time.perf_counter()
    schedules = spf.autoschedule(kernel.expression, layouts=layouts, share=kernel.share, progress=lambda line: None)
    elapsed = time.perf_counter() - started
    by_text: dict[str, str] = {}
    for number, candidate in enumerate(schedules.generated):
        by_text.setdefault(str(candidate.schedule), f"g{number}")
    references, errors = parse_references(name, kernel, layouts, by_text)
    dims = list(kernel.dims if kernel.dims is not None else DIMS)
    if dims_override is not None and dims:
        dims = list(dims_override)
    if not dense_only_indices(kernel, factors):
        dims = []
    plan = KernelPlan(name, kernel, layouts, shown, factors, schedules, elapsed, inputs, note, dims, by_text,
                      references, errors)
    ids_of = {id(c): f"g{n}" for n, c in enumerate(schedules.generated)}
    sparse_factors = [(f, ix) for f, ix in factors if f in kernel.sparse]
    for input_name, data in inputs:
        extents = {i: n for f, ix in sparse_factors for i, n in zip(ix, shape_of(data[f]))}
        for d in dims or [None]:
            # shapes are all the sizes need: the dense operands as read-only views of one zero
            shapes = {f: np.broadcast_to(np.float64(0.0), tuple(extents.get(i, d) for i in ix))
                      for f, ix in factors if f not in kernel.sparse}
            sizes = schedules.sizes(**{f: data[f] for f, _ in sparse_factors}, **shapes)
            for count in threads:
                # the pick for a parallel kernel is ranked for its threads (spf's select(parallel=True))
                ranked = [ids_of[id(c)] for c, _ in schedules.rank(sizes, threads=count)]
                ids = row_schedules(plan, ranked, arguments.top, arguments.all)
                plan.rows.append((input_name, d, count, ranked, ids))
    return plan


# ----------------------------------------------------------------------------- the report


def triad_lines(omp: OpenMP, library, log2: int) -> list[str]:
    """The memory bandwidth of a STREAM-like triad (parallel.py's), serial and at 2 threads."""
    pointer = ctypes.POINTER(ctypes.c_double)
    signature = [pointer, pointer, pointer, ctypes.c_double, ctypes.c_long]
    parallel_triad = load_function(library, "triad", signature, None)
    serial_triad = load_function(library, "triad_serial", signature, None)
    n = 1 << log2
    a, b, c = np.zeros(n), np.full(n, 1.0), np.full(n, 2.0)
    pointers = [array.ctypes.data_as(pointer) for array in (a, b, c)]
    variants = {"serial": (None, lambda: serial_triad(*pointers, 3.0, n)),
                "2 threads": (2, lambda: parallel_triad(*pointers, 3.0, n))}
    times = interleaved_medians(omp, variants, budget=2.0, least=5, most=10)
    assert a[0] == 7.0 and a[-1] == 7.0
    moved = 3 * 8 * n
    omp.set_threads(1)
    return [f"triad a = b + s*c over 3 x 2^{log2} doubles ({moved / 2**30:.2f} GiB; parallel.py's): "
            + ", ".join(f"{name} {moved / t / 1e9:.1f} GB/s" for name, t in times.items())]


def row_line(row: Row, cap: float, references: set[str]) -> list[str]:
    head = f"   {row.input:<17} {row.nnz:>7} {dimension(row.d):>4} {row.threads:>3}"
    if row.skipped:
        return [f"{head}  {row.skipped}"]
    pick_outcome = row.outcomes.get(row.pick)
    best = row.best()
    value, lower = row.regret()
    ratio = row.default_ratio()
    default = row.outcomes.get("default")
    pick, pick_bound = row.pick_time()
    if ratio is None and default is not None and default.status == "over cap" and pick and not pick_bound:
        ratio_cell = f"> {cap / pick:.1f}x"
    else:
        ratio_cell = "-" if ratio is None else f"{ratio:.2f}x"
    regret_cell = "-" if value is None else (">=" if lower else "") + f"{value:.2f}"
    rank = model_rank(best[0], row.ranked, references) if best else "-"
    line = (f"{head} {len(row.outcomes):>4}  {row.pick:>5} {time_cell(pick_outcome, cap):>16}  "
            f"{best[0] if best else '-':>5} {seconds(best[1]) if best else '-':>10} {regret_cell:>7} {rank:>6}  "
            f"{time_cell(default, cap):>16} {ratio_cell:>8}")
    others = sorted(row.outcomes.items(), key=lambda item: (item[1].time is None or item[1].status != "timed",
                                                             item[1].time or 0.0))
    cells = [f"{key} {time_cell(o, cap)}" + (f" ({o.note})" if o.note and o.status != "timed" else "")
             for key, o in others]
    notes = []
    if row.checked_against != "default":
        notes.append(f"results checked against {row.checked_against} (the default was not run)")
    if pick_outcome is not None and pick_outcome.status == "timed" and pick_outcome.time > cap:
        notes.append(f"the pick is slower than the cap and was timed anyway (up to {HARD_CAP:g} s a call)")
    measured = row.measured_regret()
    if row.measured:
        line += f"  measured pick {row.measured} regret " + ("-" if measured is None else f"{measured:.2f}")
    return [line, "      " + "; ".join(cells)] + (["      " + "; ".join(notes)] if notes else [])


def header_lines(plan: KernelPlan, table: dict[str, Schedule], rows: list, threads: list[int]) -> list[str]:
    kernel = plan.kernel
    used = []
    for *_, ids in rows:
        used += [i for i in ids if i not in used]
    lines = [f"== {plan.name}: {kernel.expression}",
             f"   layouts: {', '.join(f'{k} {v}' for k, v in plan.shown.items())}"
             + "".join(f"; {out} shares {source}'s index arrays" for out, source in (kernel.share or {}).items()),
             f"   inputs: {plan.input_note}; "
             + (f"d = {', '.join(map(str, plan.dims))}" if plan.dims else "no dense dimensions")
             + f"; threads {', '.join(map(str, threads))}",
             f"   autoschedule: {len(plan.schedules.generated)} generated, {len(plan.schedules.candidates)} "
             f"candidate(s) after pruning, in {plan.autoschedule_seconds:.2f} s",
             "   schedules (ids in the rows; g<n> = res.generated[n]):"]
    for key in sorted(used, key=lambda k: (k == "default", k[0] != "g", int(k[1:]) if k[1:].isdigit() else 0)):
        schedule = table[key]
        kind = schedule.origin if schedule.origin != "reference" else f"reference: {schedule.label}"
        lines.append(f"     {key:<7} [{kind}] {schedule.text if key != 'default' else ''}".rstrip())
    for reference in plan.references:
        if reference.alias_of is not None:
            lines.append(f"     {reference.id:<7} [reference: {reference.label}] = {reference.alias_of} "
                         f"(the search generates it)")
    for error in plan.reference_errors:
        lines.append(f"     ERROR: {error}")
    lines.append(f"   {'input':<17} {'nnz':>7} {'d':>4} {'thr':>3} {'n':>4}  {'pick':>5} {'pick time':>16}  "
                 f"{'best':>5} {'best time':>10} {'regret':>7} {'rank':>6}  {'default':>16} {'def/pick':>8}")
    return lines


def dimension(d: int | None) -> str:
    return "-" if d is None else str(d)


def kernel_summary(name: str, rows: list[Row], references: dict[str, str]) -> tuple[list[str], Summary]:
    """The kernel's summary line (``references``: the id each hand-written schedule is timed
    under -> its own id)."""
    measured = [r for r in rows if not r.skipped]
    regrets, bounds = zip(*[r.regret() for r in measured]) if measured else ((), ())
    result = summarize(list(regrets), list(bounds), [r.default_ratio() for r in measured])
    where = ""
    if result.largest_at is not None:
        row = measured[result.largest_at]
        where = f" ({row.input} d={dimension(row.d)} {row.threads}t)"
    beaten: dict[str, int] = {}
    for row in measured:
        pick, _ = row.pick_time()
        for key, outcome in row.outcomes.items():
            if key in references and outcome.status == "timed" and pick is not None and outcome.time < pick:
                reference = references[key] + ("" if references[key] == key else f" (= {key})")
                beaten[reference] = beaten.get(reference, 0) + 1
    pick_best = sum(1 for r in measured if r.best() is not None and r.best()[0] == r.pick)
    line = (f"   summary {name}: regret geometric mean {result.geometric_mean:.2f}, max {result.largest:.2f}{where} "
            f"over {result.rows} row(s); {result.over_limit} row(s) > {REGRET_LIMIT}; "
            f"{result.slower_than_default} row(s) with default/pick < {DEFAULT_RATIO_LIMIT}; the pick is the fastest "
            f"in {pick_best}; references faster than the pick: "
            + (", ".join(f"{k} in {v} row(s)" for k, v in sorted(beaten.items())) or "none")
            + (f"; {result.lower_bounds} regret(s) only lower bounds" if result.lower_bounds else "")
            + (f"; {len(rows) - len(measured)} row(s) skipped" if len(rows) > len(measured) else ""))
    line += measured_summary(measured)
    return [line], result


def measured_summary(rows: list) -> str:
    """The regret of select's picks (its default: the model's closest candidates timed) over the rows, as a clause."""
    regrets = [r.measured_regret() for r in rows]
    regrets = [r for r in regrets if r is not None]
    if not regrets:
        return ""
    return (f"; measured pick (select's default, as measure=True): regret geometric mean {geometric_mean(regrets):.2f}, "
            f"max {max(regrets):.2f}, {sum(r > REGRET_LIMIT for r in regrets)} row(s) > {REGRET_LIMIT}")


# ----------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--kernels", default=",".join(KERNELS), help="comma-separated kernels (default: all)")
    parser.add_argument("--inputs", default=None, help="comma-separated input names (default: each kernel's own)")
    parser.add_argument("--dims", default=None, help=f"dense dimensions (default {','.join(map(str, DIMS))} "
                                                     "or the kernel's own)")
    parser.add_argument("--threads", default=",".join(map(str, THREADS)))
    parser.add_argument("--top", type=int, default=TOP, help="time the model's top N candidates (default 20)")
    parser.add_argument("--all", action="store_true", help="time every generated tree instead of the top N")
    parser.add_argument("--cap", type=float, default=CAP, help="seconds a call beyond which a schedule is not timed")
    parser.add_argument("--output", type=Path, default=None, help=f"default {OUTPUT.relative_to(HERE.parent)}")
    parser.add_argument("--plan", action="store_true", help="print the plan (rows, compiles, timed schedules) and stop")
    parser.add_argument("--no-measure", action="store_true",
                        help="leave out select(measure=True)'s pick (the closest candidates timed on the operands)")
    parser.add_argument("--quick", action="store_true",
                        help="K1, K5, MTTKRP on one small input, d=16,32, 1 thread, top 5")
    arguments = parser.parse_args()
    triad_log2 = TRIAD_LOG2
    if arguments.quick:
        arguments.kernels, arguments.inputs, arguments.dims = QUICK.kernels, QUICK.inputs, QUICK.dims
        arguments.threads, arguments.top, triad_log2 = QUICK.threads, QUICK.top, QUICK.triad_log2
    output = arguments.output or (QUICK_OUTPUT if arguments.quick else OUTPUT)
    kernels = [k for k in arguments.kernels.split(",") if k]
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown:
        sys.exit(f"unknown kernel(s) {unknown}; choose from {', '.join(KERNELS)}")
    threads = [int(t) for t in arguments.threads.split(",") if t]
    if not threads or any(t < 1 for t in threads):
        sys.exit(f"--threads must list positive thread counts, got {arguments.threads!r}")
    dims = [int(d) for d in arguments.dims.split(",") if d] if arguments.dims else None
    wanted = {n for n in arguments.inputs.split(",") if n} if arguments.inputs else None
    if wanted is not None:
        known = set(MATRICES) | set(TENSORS) | set(CHAIN_TENSORS) | {TENSOR4, SYNTHETIC6[0]}
        if wanted - known:
            sys.exit(f"unknown input(s) {sorted(wanted - known)}; known: {', '.join(sorted(known))}")

    started = time.perf_counter()
    load_at_start = os.getloadavg()
    load = Load()
    say = Report()
    command = f"python benchmarks/autoschedule_regret.py {' '.join(sys.argv[1:])}".rstrip()
    say("# benchmarks/autoschedule_regret.py: the autoscheduler's pick against the fastest schedule timed")
    say(f"# command: {command}")
    for line in machine_lines():
        say(f"# {line}")
    if load_at_start[0] > 0.5:
        say(f"# machine not idle: 1-minute load average {load_at_start[0]:.2f} > 0.5 at start")
    stacks = large_stacks()  # before libgomp loads: parallel kernels may keep per-thread outputs on the stack
    library = build_shared_library(TRIAD_SOURCE, name="triad")
    omp = OpenMP(load_function(library, "threads_in_parallel", [], ctypes.c_int))
    for count in threads:
        omp.verify(count)
    say(f"# OpenMP: libgomp, omp_set_num_threads({', '.join(map(str, threads))}) verified in a parallel region; "
        f"{stacks}")
    for line in ([] if arguments.plan else triad_lines(omp, library, triad_log2)):
        say(f"# {line}")
    say(f"# timed: the model's top {arguments.top} candidates" if not arguments.all else
        "# timed: every generated tree")
    say(f"#   plus the hand-written references and the unfused default; cap {arguments.cap:g} s a call "
        f"(the others up to the pick's time, the pick up to {HARD_CAP:g} s); rounds of about {ROW_SECONDS:g} s "
        f"per row, at least {LEAST_ROUNDS}; times are medians; * marks a time over the cap")
    say("# regret = pick / fastest timed schedule (not the default); rank = the fastest one's position in "
        "res.rank (1 = the pick), ref = a hand-written schedule the search does not generate")

    plans: list[KernelPlan] = []
    for name in kernels:
        plan = make_plan(name, arguments, wanted, dims, threads)
        if plan is None:
            say(f"# {name}: none of its inputs is in --inputs; left out")
            continue
        plans.append(plan)
        print(f"  planned {name}: {len(plan.rows)} row(s), autoschedule {plan.autoschedule_seconds:.1f} s",
              flush=True)
    compiles = {(p.name, i, t > 1) for p in plans for _, _, t, _, ids in p.rows for i in ids}
    timed = sum(len(ids) for p in plans for *_, ids in p.rows)
    rows_planned = sum(len(p.rows) for p in plans)
    say(f"# plan: {len(plans)} kernel(s), {rows_planned} row(s), at most {len(compiles)} compile(s) "
        f"and {timed} timed schedule(s) (fewer where the cap or a shared tree spares them)")
    header = list(say.lines)
    if arguments.plan:
        return
    say()

    sections: list[list[str]] = []
    results: list[tuple[str, Row]] = []
    summaries: list[str] = []
    reference_errors: list[str] = []
    estimator = Estimator()
    for plan in plans:
        first_line = len(say.lines)
        table = schedule_table(plan)
        references = {r.id for r in plan.references if r.alias_of is None}
        timed_as = {r.alias_of or r.id: r.id for r in plan.references}
        for line in header_lines(plan, table, plan.rows, threads):
            say(line)
        reference_errors += [f"{plan.name}: {e}" for e in plan.reference_errors]
        runner = Runner(plan, table, omp, estimator, arguments.cap)
        runner.measure_picks = not arguments.no_measure
        rows: list[Row] = []
        sparse_factors = [(f, ix) for f, ix in plan.factors if f in plan.kernel.sparse]
        packed_for: dict[str, dict] = {}
        for input_name, d, count, ranked, ids in plan.rows:
            data = dict(plan.inputs)[input_name]
            if input_name not in packed_for:
                packed_for.clear()
                packed_for[input_name] = {f: spf.pack(plan.layouts[f], data[f], name=f) for f, _ in sparse_factors}
            row = runner.measure(input_name, data, packed_for[input_name], d, count, ids, ranked)
            rows.append(row)
            results.append((plan.name, row))
            for line in row_line(row, arguments.cap, references):
                say(line)
        if runner.serial_at_two_threads:
            say(f"   no OpenMP loop in the parallel variant (serial at 2 threads): "
                f"{', '.join(sorted(runner.serial_at_two_threads))}")
        for key, message in runner.compile_errors.items():
            say(f"   ERROR: {key} does not compile: {message}")
            reference_errors.append(f"{plan.name}: {key} does not compile: {message}")
        lines, _ = kernel_summary(plan.name, rows, timed_as)
        for line in lines:
            say(line)
        say(f"   compiling took {runner.compile_seconds:.0f} s")
        say()
        sections.append(say.lines[first_line:])
        summaries += lines
        write(output, header, sections, closing(results, summaries, reference_errors, started,
                                                 load_at_start, load, final=False))

    lines = closing(results, summaries, reference_errors, started, load_at_start, load, final=True)
    write(output, header, sections, lines)
    for line in lines:
        print(line)


def closing(results: list[tuple[str, Row]], summaries: list[str], errors: list[str], started: float,
            load_at_start: tuple, load: Load, final: bool) -> list[str]:
    """The summary block over every row measured so far."""
    rows = [row for _, row in results if not row.skipped]
    regrets, bounds = zip(*[r.regret() for r in rows]) if rows else ((), ())
    total = summarize(list(regrets), list(bounds), [r.default_ratio() for r in rows])
    lines = ["== summary: regret = pick time / fastest timed schedule"]
    lines += [line.replace("   summary ", "   ", 1) for line in summaries]
    where = ""
    if total.largest_at is not None:
        row = rows[total.largest_at]
        where = f" ({row.kernel} {row.input} d={dimension(row.d)} {row.threads}t)"
    lines.append(f"   all rows: max regret {total.largest:.2f}{where}; geometric mean {total.geometric_mean:.2f} over "
                 f"{total.rows} row(s); {total.over_limit} row(s) with regret > {REGRET_LIMIT}; "
                 f"{total.slower_than_default} row(s) where the pick is slower than the default x "
                 f"{DEFAULT_RATIO_LIMIT}" + (f"; {total.lower_bounds} regret(s) only lower bounds"
                                             if total.lower_bounds else "")
                 + measured_summary(rows))
    wrong = [f"{kernel} {row.input} d={dimension(row.d)} {row.threads}t {key}" for kernel, row in results
             for key, outcome in row.outcomes.items() if outcome.status == "wrong"]
    lines.append(f"   wrong results: {', '.join(wrong) if wrong else 'none'}")
    lines.append(f"   schedules that do not parse, check or compile: {'; '.join(errors) if errors else 'none'}")
    if final:
        end = os.getloadavg()
        others, stolen = load.lap()
        lines.append(f"# load average at start {' '.join(f'{v:.2f}' for v in load_at_start)}, at end "
                     f"{' '.join(f'{v:.2f}' for v in end)}; other processes kept {others:.2f} CPUs busy on average "
                     f"(steal {stolen:.2f})")
        lines.append(f"# total wall time {time.perf_counter() - started:.0f} s")
    return lines


def write(path: Path, header: list[str], sections: list[list[str]], closing_lines: list[str]) -> None:
    lines = header + [""]
    for section in sections:
        lines += section
    lines += closing_lines
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:  # not a rename: --output may be /dev/null
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
