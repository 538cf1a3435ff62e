"""``spf.autoschedule``: candidates at compile time, the choice at run time.

The run time's entry to the autoscheduler (spf.scheduling.autoscheduler): the choice reads
the operands the user passes (Tensors, arrays, scipy matrices) for their sizes, so it sits
with the run time, which may call the compiler's stages but not the reverse."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np


from spf import arguments
from spf.errors import AutoscheduleError
from spf.runtime.level_statistics import coordinate_prefix_counts, dense_prefix_counts, scipy_prefix_counts
from spf.runtime.tensor import Tensor

from spf.scheduling.autoscheduler.cost import Cost, count_symbols, dimension_symbol

from spf.scheduling.autoscheduler.candidate import Candidate
from spf.scheduling.autoscheduler.problem import Operand, Problem, make_problem, storage_levels
from spf.scheduling.autoscheduler.prune import (ELEMENT_BYTES, Context, core_cache_bytes, last_level_cache_bytes,
                                                MOST_SOLVER_QUERIES, order_disagreement, parse_constraint, pareto_buckets,
                                                stride_cost)
from spf.scheduling.autoscheduler.search import Scored, exhaustive, frontier
from spf.scheduling.autoscheduler.tree import check, loop_depth, memory_cost, memory_depth, time_cost
from spf.scheduling.autoscheduler.written import parse_schedule
from spf.scheduling.autoscheduler.machine_cost import MACHINE_CONSTANTS, MISS, runs_in_parallel, work_cost
from spf.scheduling.autoscheduler.mode_orders import (CALLS, check_orders, conversion_work, counting_problem,
                                                      mode_order_choices, permuted_problem)
from spf.scheduling.autoscheduler.machine_cost import seconds as predicted_seconds
from spf.runtime.calibration import machine_constants
from spf.runtime.kernel import callable_kernel
from spf.runtime.threads import available_threads
from spf.runtime.search_cache import cached_search, kept_or_computed, pruning_key
from spf.runtime.schedule_trials import DEFAULT_BUDGET, contenders, remember, remembered, time_candidates, trial_key


@dataclass
class Selection:
    """Why :meth:`AutoSchedule.select` chose what it chose."""

    sizes: dict[str, float]
    cache_bytes: int
    cache_source: str
    rows: list[tuple[Candidate, float, float, bool]]  # candidate, predicted seconds, memory bytes, fits
    chosen: Candidate
    constants_source: str = ""
    measured: dict[str, float] = field(default_factory=dict)  # seconds of the candidates timed, if any

    def __str__(self) -> str:
        lines = [f"last-level cache {self.cache_bytes / 2**20:.1f} MiB ({self.cache_source}); "
                 f"temporaries must stay under half of it",
                 f"machine constants: {self.constants_source}"]
        for candidate, predicted, memory, fits in self.rows:
            mark = "->" if candidate is self.chosen else "  "
            timed = self.measured.get(str(candidate.schedule))
            lines.append(f"{mark} {predicted:12.4g} s predicted  {memory:10.4g} B{'' if fits else ' (too big)'}"
                         f"{f'  {timed:.4g} s measured' if timed is not None else ''}  {candidate.schedule}")
        return "\n".join(lines)


@dataclass
class AutoSchedule:
    """The result of :func:`autoschedule`: candidates after compile-time pruning."""

    problem: Problem
    candidates: list[Candidate]
    counts: dict[str, int]  # schedules left after each stage
    seconds: dict[str, float]
    constraints: list[str]
    last_selection: Selection | None = None
    # every tree the generation stage produced (stage 1 applied), candidates included: what
    # the later stages prune, for benchmarks that time the alternatives and for the fuzzer
    generated: list[Candidate] = field(default_factory=list, repr=False)
    layouts: Mapping[str, object] = field(default_factory=dict, repr=False)  # as given, for compiling trials
    share: Mapping[str, str] | None = None

    calls: int = 1  # the calls a mode-order conversion is amortised over

    def sizes(self, **tensors: Any) -> dict[str, float]:
        """Extents and per-level stored counts of the given operands (stage 4's inputs),
        those of the copies in other mode orders included (counted on the user's data)."""
        sizes = operand_sizes(self.problem, tensors)
        done = {()}
        for candidate in self.candidates:
            if candidate.mode_orders not in done:
                done.add(candidate.mode_orders)
                permuted = {name for name, _ in candidate.mode_orders}
                sizes.update(operand_sizes(counting_problem(candidate.problem, self.problem),
                                           {k: v for k, v in tensors.items() if k in permuted}))
        return sizes

    def select(self, sizes: Mapping[str, float] | None = None, measure: bool | float | str = "unsure",
               parallel: bool = False, **tensors: Any) -> Candidate:
        """Stages 4 and 5: the candidate for these operands (or for explicit ``sizes``).

        Where the model is unsure (its closest candidates predicted within
        spf.runtime.schedule_trials.MARGIN of its best) and the operands are given, the
        default (``measure="unsure"``) times those candidates on the operands and takes
        the fastest, remembered on disk for operands of similar sizes (the first such
        call compiles and times them: seconds; later ones read the winner).
        ``SPF_MEASURE=never`` in the environment keeps the model's pick there.
        ``measure=True`` (or a budget in seconds, default 2) always times them, and
        needs the operands; ``measure=False`` takes the model's pick.  ``parallel`` says
        which variant the caller will compile (the one timed, and ranked for this
        machine's threads)."""
        arguments.flag(parallel, "parallel")
        ranked = self.rank(sizes, threads=available_threads() if parallel else 1, **tensors)
        if measure == "unsure":
            if not tensors or os.environ.get("SPF_MEASURE", "").lower() == "never":
                return ranked[0][0]
            measure = True
        if measure is False:
            return ranked[0][0]
        budget = DEFAULT_BUDGET if measure is True else measure
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget > 0:
            raise AutoscheduleError(f"select: measure must be \"unsure\", True, False or a budget in seconds, "
                                    f"got {measure!r}")
        if not tensors:
            raise AutoscheduleError("select: measure= times the candidates on the operands: pass them")
        closest = contenders(ranked)
        if len(closest) < 2:
            return ranked[0][0]
        description = f"{self.problem.expression} {[(f.name, f.levels, f.dense_levels) for f in self.problem.factors]}"
        key = trial_key(description, closest, self.last_selection.sizes, parallel)
        winner = remembered(key, closest)
        if winner is None:
            def call_of(candidate: Candidate):
                kernel = callable_kernel(self.problem.expression, dict(self.layouts), share=self.share,
                                         parallel=parallel, schedule=candidate)
                return kernel.bind(**{k: v for k, v in tensors.items() if k != self.problem.output})

            times = time_candidates(closest, call_of, float(budget))
            if not times:  # none could run here: the model's pick, as without timing
                return ranked[0][0]
            for candidate in closest:  # a copy in another mode order is made at bind, outside the timing
                if candidate.mode_orders and str(candidate.schedule) in times:
                    times[str(candidate.schedule)] += self._conversion_seconds(candidate)
            winner = next(c for c in closest if str(c.schedule) == min(times, key=times.get))
            remember(key, winner, times)
            self.last_selection.measured = times
        self.last_selection.chosen = winner
        return winner

    def rank(self, sizes: Mapping[str, float] | None = None, threads: int = 1,
             **tensors: Any) -> list[tuple[Candidate, float]]:
        """Every candidate with its predicted seconds for these operands, best first.

        With ``threads`` > 1 (the parallel variant), a tree whose outermost loop indexes
        the output is predicted to take its serial time over ``threads``; others run serially.
        Stage 4: the work model (machine_cost) evaluated at the operands' sizes with this
        machine's constants (calibration); temporaries must take under half the last-level
        cache (if none does, the least memory first).  Stage 5 breaks ties.  The first is
        what :meth:`select` picks; benchmarks read the rest to say where the fastest
        schedule stood in the model's order."""
        values = self._values(sizes, tensors)
        constants, constants_source = machine_constants()
        cache, source = last_level_cache_bytes()
        core_cache = core_cache_bytes()
        rows = []
        for candidate in self._priced(values):
            memory = candidate.memory.evaluate(values) * ELEMENT_BYTES
            share = 1 / threads if threads > 1 and runs_in_parallel(candidate.schedule, self.problem.output_indices) \
                else 1
            rows.append((candidate, share * predicted_seconds(candidate.work, values, constants, core_cache), memory,
                         memory < cache / 2))
        least_memory = min(r[2] for r in rows)
        any_fits = any(r[3] for r in rows)

        def key(row):
            candidate, predicted, memory, fits = row
            fitting = fits or (not any_fits and memory <= least_memory)
            return (not fitting, float(f"{predicted:.9g}") if fitting else memory,
                    stride_cost(candidate.schedule, values), order_disagreement(candidate.schedule))

        ordered = sorted(rows, key=key)
        self.last_selection = Selection(values, cache, source, rows, ordered[0][0], constants_source)
        return [(row[0], row[1]) for row in ordered]

    def _conversion_seconds(self, candidate: Candidate) -> float:
        """The predicted seconds per call of ``candidate``'s mode-order copies (over ``calls``)."""
        values = {**self.last_selection.sizes, **machine_constants()[0]}
        return conversion_work(candidate.mode_orders).evaluate(values)

    def _values(self, sizes: Mapping[str, float] | None, tensors: Mapping[str, Any]) -> dict[str, float]:
        values = {CALLS: float(self.calls), **(sizes or {})}
        if tensors:
            values.update(self.sizes(**tensors))
        missing = sorted(set().union(*(_needed(c) for c in self.candidates if not c.mode_orders)) - set(values))
        if missing:
            raise AutoscheduleError(f"select: no value for {', '.join(missing)}; pass the operands "
                                    f"({', '.join(f.name for f in self.problem.factors)}) or sizes=")
        return values

    def _priced(self, values: Mapping[str, float]) -> list[Candidate]:
        """The candidates these sizes price: all but the copies in other mode orders whose
        counts ``sizes=`` left out (the operands themselves give every count)."""
        return [c for c in self.candidates if not c.mode_orders or _needed(c) <= values.keys()]

    def default(self) -> Candidate:
        """A choice without sizes: the stored mode orders (a copy's price depends on sizes),
        then the least memory depth, then loop depth, then stage 5."""
        return min(self.candidates, key=lambda c: (bool(c.mode_orders), c.memory_depth, c.loop_depth,
                                                   order_disagreement(c.schedule)))

    def explain(self) -> str:
        lines = [f"autoschedule {self.problem.expression}"]
        stages = ", ".join(f"{k}: {v}" for k, v in self.counts.items())
        lines.append(f"  schedules after each stage: {stages}")
        lines.append("  seconds: " + ", ".join(f"{k} {v:.3f}" for k, v in self.seconds.items()))
        if self.constraints:
            lines.append("  user constraints: " + "; ".join(self.constraints))
        lines.append("candidates (notation: fused loops < temporary ; producer , consumer >):")
        for number, candidate in enumerate(self.candidates):
            lines.append(f"  [{number}] {candidate}")
        if self.last_selection is not None:
            lines.append("run-time choice:")
            lines.extend("  " + line for line in str(self.last_selection).splitlines())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()


def autoschedule(expression: str, layouts: Mapping[str, object], constraints: Sequence[str] | None = None,
                 share: Mapping[str, str] | None = None, exhaustive_search: bool = False,
                 progress: Callable[[str], None] | None = None, skip: Sequence[int] = (),
                 mode_orders: bool | Mapping[str, Sequence[int]] = True, calls: int = 1,
                 cache: bool = True) -> AutoSchedule:
    """Candidate fused schedules for a product of tensors, pruned at compile time.

    ``constraints`` are relations over the extents (``I``, ``J``, ...) and stored
    counts (``nnz_B``, ``nnz_B_i``, ``sparsity_B``), e.g. ``["16 <= K <= 128"]``.
    ``exhaustive_search`` enumerates the whole space instead of the dynamic program
    (a reference for small kernels); ``skip=[3]`` leaves the solver out of stage 3 (only costs whose
    coefficients compare prune), for studies.
    ``mode_orders``: True searches, besides the stored orders, copies of sparse inputs in the
    mode orders that may pay (:mod:`spf.scheduling.autoscheduler.mode_orders`); a mapping
    ``{"C": (1, 0, 2)}`` searches exactly that copy (axis t of the copy is axis
    permutation[t] of C); False only the stored orders.  A copy costs one conversion per
    call of an unbound kernel, once per bound kernel: ``calls`` says over how many calls it
    is amortised.
    Progress lines go to ``progress`` (default: standard error) when a search runs long.
    A search and its pruning are kept on disk like a compiled kernel
    (:mod:`spf.runtime.search_cache`): the same problem autoscheduled again, in this process
    or a later one, reads them (the run-time choice runs again); ``cache=False`` searches and
    prunes anew (to time them).
    """
    constraints = arguments.names(constraints, "constraints", "relations such as '16 <= K <= 128'")
    for constraint in constraints or ():
        parse_constraint(constraint)  # a malformed constraint is refused before the search
    arguments.flag(exhaustive_search, "exhaustive_search")
    arguments.flag(cache, "cache")
    if progress is not None and not callable(progress):
        raise AutoscheduleError(f"progress must be a function taking a line of text, got {progress!r}")
    if isinstance(calls, bool) or not isinstance(calls, int) or calls < 1:
        raise AutoscheduleError(f"autoschedule: calls must be a positive integer (the calls a mode-order "
                                f"conversion is amortised over), got {calls!r}")
    report = progress if progress is not None else (lambda line: print(line, file=sys.stderr))
    problem = make_problem(expression, layouts, share)
    choices = _mode_order_choices(problem, mode_orders)
    seconds: dict[str, float] = {}
    counts: dict[str, int] = {}
    started = time.perf_counter()
    generated: list[Candidate] = []
    read = 0
    for orders in choices:
        searched = permuted_problem(problem, orders)
        found, from_cache = cached_search(searched, exhaustive_search,
                                          lambda: _search(searched, exhaustive_search, report), cache)
        read += from_cache
        for item in found:
            check(item.node, searched)
            work = work_cost(item.node, [f.name for f in searched.factors]) + conversion_work(orders)
            generated.append(Candidate(item.node, item.time, item.memory, item.loop_depth, item.memory_depth,
                                       searched, work, orders, problem if orders else None))
    counts["generated (stage 1 applied)" if exhaustive_search else "non-dominated (stage 1 applied)"] = len(generated)
    if len(choices) > 1:
        counts["mode orders searched"] = len(choices)
    if read:
        counts["searches read from the cache"] = read
    seconds["generation"] = time.perf_counter() - started
    if not generated:
        raise AutoscheduleError(f"autoschedule: no loop nest visits every sparse operand's levels in storage "
                                f"order{_conflict(problem)}; store one of them in another mode order")

    moment = time.perf_counter()
    buckets: dict[tuple[Cost, Cost], list[Candidate]] = {}
    for candidate in generated:
        buckets.setdefault((candidate.work, candidate.memory), []).append(candidate)
    keys = list(buckets)
    also = [c.problem for c in generated if c.mode_orders]
    most_queries = 0 if 3 in skip else MOST_SOLVER_QUERIES
    (kept, queries), pruning_read = kept_or_computed(
        pruning_key(problem, also, constraints or (), most_queries, keys),
        lambda: pareto_buckets(keys, Context(problem, constraints or (), also=also), most_queries=most_queries), cache)
    if pruning_read:
        counts["stage 3 read from the cache"] = 1
    candidates = [candidate for k in kept for candidate in buckets[keys[k]]]
    counts["stage 3 (Pareto)"] = len(candidates)
    counts["stage 3 buckets"] = len(kept)
    counts["solver queries"] = queries
    seconds["stage 3"] = time.perf_counter() - moment
    seconds["total"] = time.perf_counter() - started
    return AutoSchedule(problem, candidates, counts, seconds, list(constraints or ()), generated=generated,
                        layouts=dict(layouts), share=dict(share) if share else None, calls=calls)


def _search(problem: Problem, exhaustive_search: bool, report: Callable[[str], None]) -> list[Scored]:
    """Stage 1 on one problem: the dynamic program's frontier, or every tree (``exhaustive_search``)."""
    if not exhaustive_search:
        return frontier(problem, progress=report)
    order = [f.name for f in problem.factors]
    return [Scored(t, time_cost(t, order), memory_cost(t), loop_depth(t), memory_depth(t), work_cost(t, order))
            for t in exhaustive(problem, progress=report)]


def _mode_order_choices(problem: Problem, mode_orders: bool | Mapping[str, Sequence[int]]) -> list[tuple]:
    """The stored orders, then the sets of mode orders to search (see :func:`autoschedule`)."""
    if mode_orders is True:
        return [(), *mode_order_choices(problem)]
    if mode_orders is False:
        return [()]
    orders = _given_orders(problem, mode_orders)
    return [(), orders] if orders else [()]


def _given_orders(problem: Problem, mode_orders: object) -> tuple:
    """The mode orders a mapping ``{"C": (1, 0, 2)}`` names, canonical, or why it names none."""
    if not isinstance(mode_orders, Mapping):
        raise AutoscheduleError(f"autoschedule: mode_orders must be True, False or a mapping from a sparse input "
                                f"to a permutation of its modes, e.g. {{'C': (1, 0, 2)}}; got {mode_orders!r}")
    try:
        return check_orders(problem, tuple(mode_orders.items()))
    except TypeError:
        raise AutoscheduleError(f"autoschedule: mode_orders maps inputs to permutations such as (1, 0, 2); "
                                f"got {mode_orders!r}") from None


def _needed(candidate: Candidate) -> set[str]:
    """The sizes a candidate's costs read (extents and counts, not machine constants)."""
    symbols = candidate.time.symbols() | candidate.memory.symbols() | candidate.work.symbols()
    return {n for n in symbols if n not in MACHINE_CONSTANTS and not n.startswith(MISS)}


def _conflict(problem: Problem) -> str:
    """Two sparse operands that store two indices in opposite orders, said as a clause."""
    sparse = [f for f in problem.factors if f.sparse]
    for first in sparse:
        for second in sparse:
            shared = [i for i in first.levels if i in second.levels]
            for a in shared:
                for b in shared:
                    if first.levels.index(a) < first.levels.index(b) and second.levels.index(a) > second.levels.index(b):
                        return f": {first.name} stores {a} before {b}, {second.name} {b} before {a}"
    return ""


def schedule(text: str, expression: str, layouts: Mapping[str, object],
             share: Mapping[str, str] | None = None,
             mode_orders: Mapping[str, Sequence[int]] | None = None) -> Candidate:
    """A fused schedule written by hand in ``explain()``'s notation, checked and costed
    like a generated one; pass it as ``schedule=`` to ``spf.compile``.  ``mode_orders``
    (``{"C": (1, 0, 2)}``): the tree reads those inputs from copies in that mode order,
    written with the copy's indices (``C(k,q,r)`` for C(q,k,r))."""
    problem = make_problem(expression, layouts, share)
    orders = _given_orders(problem, mode_orders) if mode_orders is not None else ()
    searched = permuted_problem(problem, orders)
    tree = parse_schedule(text, searched)
    order = [f.name for f in searched.factors]
    return Candidate(tree, time_cost(tree, order), memory_cost(tree), loop_depth(tree), memory_depth(tree), searched,
                     work_cost(tree, order) + conversion_work(orders), orders, problem if orders else None)


# ----------------------------------------------------------------------------- sizes of operands


def _prefix_counts(value, operand: Operand) -> tuple[tuple[int, ...], int]:
    """The distinct stored prefixes of a sparse operand's levels (``operand.levels``, in
    order) and its number of stored entries, for an operand as users pass it: a Tensor
    storing those levels keeps them (:meth:`Tensor.level_statistics`); scipy matrices,
    coordinate triples, other Tensors and dense arrays (whose nonzeros are the stored
    entries) are counted without ``np.unique`` (:mod:`spf.runtime.level_statistics`)."""
    import scipy.sparse as sparse
    axes = [operand.indices.index(level) for level in operand.levels]
    if isinstance(value, Tensor):
        if _stores_levels(value.layout, operand):
            statistics = value.level_statistics()
            return statistics.counts, statistics.entries
        coords, _, shape = value.to_coo()
        return coordinate_prefix_counts([coords[:, a] for a in axes], [shape[a] for a in axes]), len(coords)
    if sparse.issparse(value):
        return scipy_prefix_counts(value, axes), int(value.nnz)
    if isinstance(value, tuple) and len(value) == 3 and not np.isscalar(value[2]):
        coords, _, shape = value
        coords = np.asarray(coords).reshape(-1, len(operand.indices))
        return coordinate_prefix_counts([coords[:, a] for a in axes], [shape[a] for a in axes]), len(coords)
    array = np.asarray(value)
    return dense_prefix_counts(array, axes), int(np.count_nonzero(array))


def _stores_levels(layout, operand: Operand) -> bool:
    """Whether a Tensor in ``layout`` stores ``operand``'s levels, one per physical index, in
    the operand's order: then its level statistics are the operand's counts."""
    try:
        levels, _ = storage_levels(layout, operand.indices, operand.name)
    except AutoscheduleError:
        return False
    return levels == operand.levels


def _shape(value, name: str) -> tuple[int, ...]:
    """The shape of a dense operand as users pass it (an array, a Tensor, a triple, scipy.sparse)."""
    if isinstance(value, Tensor):
        return tuple(value.shape)
    if isinstance(value, tuple) and len(value) == 3 and not np.isscalar(value[2]):
        return tuple(value[2])
    try:
        return tuple(np.shape(value))
    except (ValueError, TypeError) as error:
        raise AutoscheduleError(f"select: cannot read operand {name}: {error}") from None


def operand_sizes(problem: Problem, tensors: Mapping[str, object]) -> dict[str, float]:
    """``I, J, ...`` from the shapes and ``nnz_B, nnz_B_i, ...`` from the stored entries."""
    sizes: dict[str, float] = {}
    known = {f.name: f for f in problem.factors}
    for name, value in tensors.items():
        if name not in known:
            if name == problem.output:
                continue
            raise AutoscheduleError(f"select: {name} is not an operand of {problem.expression}")
        operand = known[name]
        shape = _shape(value, name)
        if len(shape) != len(operand.indices):
            raise AutoscheduleError(f"select: {name} has shape {shape}, expected order {len(operand.indices)}")
        for index, extent in zip(operand.indices, shape):
            symbol = dimension_symbol(index)
            if symbol in sizes and sizes[symbol] != extent:
                raise AutoscheduleError(f"select: index {index} has extent {int(sizes[symbol])} elsewhere "
                                        f"but {extent} in {name}")
            sizes[symbol] = float(extent)
        if operand.sparse:
            try:
                counts, entries = _prefix_counts(value, operand)
            except (ValueError, TypeError, IndexError) as error:
                raise AutoscheduleError(f"select: cannot read operand {name}: {error}") from None
            for depth, count in enumerate(counts):
                symbols = count_symbols(operand, depth)
                if len(symbols) == 1 and symbols[0].startswith("nnz_"):
                    sizes[symbols[0]] = float(max(count, 1))
            sizes[f"sparsity_{name}"] = entries / max(1.0, float(np.prod(shape)))
    return sizes
