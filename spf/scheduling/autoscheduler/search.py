"""Generating schedule trees: the fast dynamic program and the exhaustive reference.

Both explore the same space, SparseAuto's (section 5): a statement is either one
loop nest (a :class:`Leaf`) or split into a producer of a dense temporary and a
consumer of it (every choice of producer factors), fused on any set of the
temporary's indices that can be ordered validly, with producer and consumer
scheduled the same way inside the fused loops.  Temporaries of rank 3 or more are
never built (stage 1 of the pruning, applied while generating).

* :func:`exhaustive` lists every tree (and every loop order of every section).  It
  is the reference, for small kernels.
* :func:`frontier` is a dynamic program over sub-statements ``(factors, target,
  bound loops)`` in the manner of SpTTN's Algorithm 1: each sub-statement is solved
  once per set of enclosing loops and what their order means to it (memoised: the
  order matters only through which enclosing loop reuses a dense operand's elements,
  :func:`_reuse_signature`) and keeps its *promising* trees, the few cheapest in work
  at each of a set of representative sizes and the one of least memory
  (:mod:`probes`).  Work and memory compose monotonically (fused trips times the
  parts; a sum), so the trees are reached without enumerating the space (tests compare
  with :func:`exhaustive`), and a branch none of whose trees can be promising is left out
  of its sub-statement's table before it is built (:func:`_may_be_promising`).  Loop
  orders inside a section change the work (the innermost loop decides whether a body
  vectorises and which reads are strided): up to :data:`MOST_ORDERS` of them are priced,
  the locality order (:func:`leaf_order`) first, each once per level state and what its
  body reads (:func:`machine_cost.body_reads`), of whichever sub-statement.
"""

from __future__ import annotations

import bisect
import collections
import contextlib
import functools
import gc
import itertools
import time

import numpy as np
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from spf.errors import AutoscheduleError, ScheduleError

from spf.scheduling.autoscheduler.cost import Cost, memory_of
from spf.scheduling.autoscheduler.machine_cost import (DEFAULT_CONSTANTS, body_reads, body_work_of, branch_work,
                                                      leaf_work, walk_work, zeroing_work)
from spf.scheduling.autoscheduler.probes import KEPT_PER_PROBE, ProbeTable, size_probes
from spf.scheduling.autoscheduler.problem import Operand, Problem
from spf.scheduling.autoscheduler.tree import Branch, Leaf, Node, Statement, loop_trips, temporary_name

MAX_TEMPORARY_RANK = 2
"""Stage 1: temporaries of rank 3 or more are not built (SparseAuto's memory-depth threshold)."""


@dataclass(frozen=True)
class Scored:
    """A schedule (sub)tree with its costs relative to the enclosing loops."""

    node: Node
    time: Cost
    memory: Cost
    loop_depth: int
    memory_depth: int
    work: Cost = Cost.zero()  # machine_cost: the iterations weighted by what they cost


def _factor_order(problem: Problem) -> list[str]:
    return [f.name for f in problem.factors]


def _sparse(factors: Sequence[Operand], problem: Problem) -> list[Operand]:
    order = _factor_order(problem)
    return sorted((f for f in factors if f.sparse), key=lambda f: order.index(f.name))


def _state(factors: Sequence[Operand], bound: Sequence[str]) -> dict[str, int]:
    return {f.name: sum(1 for level in f.levels if level in bound) for f in factors if f.sparse}


def valid_orders(indices: Sequence[str], factors: Sequence[Operand], bound: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Every order of ``indices`` that visits each sparse factor's levels in order."""
    yield from _orders_after((), frozenset(indices), _state(factors, bound), [f for f in factors if f.sparse])


def _orders_after(prefix: tuple[str, ...], remaining: frozenset, state: dict[str, int], sparse: list[Operand]
                  ) -> Iterator[tuple[str, ...]]:
    """The valid orders that begin with ``prefix`` and go on over ``remaining`` (sparse
    operands at level ``state``), in the order of the indices' names.  Not nested in
    :func:`valid_orders`: a nested function that calls itself refers to itself, a cycle per
    call that only the cyclic collector frees (tens of thousands per search)."""
    if not remaining:
        yield prefix
        return
    for index in sorted(remaining):
        new_state = dict(state)
        ok = True
        for f in sparse:
            if index in f.levels:
                if f.levels.index(index) != new_state[f.name]:
                    ok = False
                    break
                new_state[f.name] += 1
        if ok:
            yield from _orders_after(prefix + (index,), remaining - {index}, new_state, sparse)


def _locality_key(index: str, statement: Statement) -> tuple:
    """Outer first: levels of sparse operands, then indices early in dense operands' index lists."""
    sparse_level = min((f.levels.index(index) for f in statement.factors if f.sparse and index in f.levels),
                       default=None)
    positions = [f.indices.index(index) - len(f.indices) for f in (statement.target, *statement.factors)
                 if not f.sparse and index in f.indices]
    return (0 if sparse_level is not None else 1, sparse_level or 0,
            min(positions) if positions else 0, index)


def leaf_order(statement: Statement, bound: Sequence[str], problem: Problem) -> tuple[str, ...]:
    """One valid order of the section's loops, chosen for locality: sparse levels
    outermost and, for dense operands, their last index innermost (stride 1)."""
    indices = [i for i in statement.indices() if i not in bound]
    sparse = _sparse(statement.factors, problem)
    if not sparse:  # every loop is ready at every step: the order sorts them
        return tuple(sorted(indices, key=lambda i: _locality_key(i, statement)))
    state = _state(statement.factors, bound)
    order: list[str] = []
    remaining = set(indices)
    while remaining:
        ready = []
        for index in remaining:
            ok = all(f.levels.index(index) == state[f.name] for f in sparse if index in f.levels)
            if ok:
                ready.append(index)
        if not ready:
            raise ScheduleError(f"no valid loop order for '{statement}' inside {', '.join(bound) or 'nothing'}")
        index = min(ready, key=lambda i: _locality_key(i, statement))
        order.append(index)
        remaining.discard(index)
        for f in sparse:
            if index in f.levels:
                state[f.name] += 1
    return tuple(order)


def default_schedule(problem: Problem, order: Sequence[str] | None = None) -> Leaf:
    """TACO's default: one perfect nest over every index, no temporaries."""
    target = Operand(problem.output, problem.output_indices)
    statement = Statement(target, problem.factors)
    loops = tuple(order) if order else leaf_order(statement, (), problem)
    return Leaf(loops, statement)


class Progress:
    """Prints a line now and then while a search runs long."""

    def __init__(self, report: Callable[[str], None] | None, every: float = 2.0):
        self.report, self.every = report, every
        self.started = self.last = time.perf_counter()
        self.count = 0

    def tick(self, what: str) -> None:
        self.count += 1
        if self.report is None or self.count % 256:
            return
        now = time.perf_counter()
        if now - self.last >= self.every:
            self.last = now
            self.report(f"autoschedule: {self.count} {what} after {now - self.started:.1f} s")


def _splits(factors: tuple[Operand, ...], target: Operand, problem: Problem, bound: Sequence[str]):
    """Every producer/consumer partition of a statement's factors.

    A producer of a single operand must sum an index away: a plain copy only adds
    time and memory (and would let the splitting go on forever).  A producer's operands
    must be connected by shared indices: a temporary holding the outer product of
    unrelated operands is never built.
    """
    source = problem.shared_output_source if target.name == problem.output else None
    # the operands (target and factors) having each index: a factor alone sums the indices
    # no other has, but those of the enclosing loops
    having = collections.Counter(i for operand in (target, *factors) for i in set(operand.indices))
    for size in range(1, len(factors)):
        for chosen in itertools.combinations(range(len(factors)), size):
            if size == 1 and all(having[i] > 1 or i in bound for i in factors[chosen[0]].indices):
                continue  # a copy of one operand sums nothing and only costs
            producer = tuple(factors[k] for k in chosen)
            if source and any(source in f.contains and not f.temporary for f in producer):
                continue  # a sparse output is written beside the input whose index arrays it shares
            if size > 1 and not _connected(producer):
                continue  # an outer product of unrelated operands (opt_einsum's rule too)
            yield producer, tuple(f for k, f in enumerate(factors) if k not in chosen)  # a statement's factors differ


def _connected(operands: Sequence[Operand]) -> bool:
    """Whether the operands form one component when those sharing an index are linked: the
    first one's component, grown by every operand sharing an index with it, covers them all."""
    reached, left = set(operands[0].indices), list(operands[1:])
    grown = True
    while left and grown:
        grown = False
        for operand in list(left):
            if not reached.isdisjoint(operand.indices):
                reached.update(operand.indices)
                left.remove(operand)
                grown = True
    return not left


def _fusable(producer, consumer, target, bound: tuple[str, ...]):
    produced = {i for f in producer for i in f.indices}
    needed = {i for f in consumer for i in f.indices} | set(target.indices)
    return [i for i in sorted(produced & needed) if i not in bound]


def _branches(factors: tuple[Operand, ...], target: Operand, problem: Problem, bound: Sequence[str]):
    """The space's ways to split a statement: every producer/consumer partition and
    every set of the temporary's indices to fuse, leaving a temporary of rank at most
    2 (stage 1).  Both searches take their branches from here."""
    if len(factors) < 2:
        return
    levels = _next_levels(factors, bound)
    for producer, consumer in _splits(factors, target, problem, bound):
        fusable = _fusable(producer, consumer, target, bound)
        # every subset of the fusable indices, by size, that leaves at most 2 unfused
        for size in range(max(len(fusable) - MAX_TEMPORARY_RANK, 0), len(fusable) + 1):
            for fused_set in itertools.combinations(fusable, size):
                if levels and not _may_visit_in_order(fused_set, levels):
                    continue  # no order of these loops visits a sparse operand's levels in order
                shared = _ordered(set(fusable) - set(fused_set), problem)
                yield producer, consumer, fused_set, _temporary_order(shared, factors)


def _next_levels(factors: Sequence[Operand], bound: Sequence[str]) -> list[tuple[frozenset, tuple[str, ...]]]:
    """Per sparse factor, its levels and those loops inside ``bound`` may visit next, in order
    (from the level after as many as ``bound`` binds)."""
    state = _state(factors, bound)
    return [(frozenset(f.levels), f.levels[state[f.name]:]) for f in factors if f.sparse]


def _may_visit_in_order(loops: Sequence[str], levels: Sequence[tuple[frozenset, tuple[str, ...]]]) -> bool:
    """Whether the loops over the set ``loops`` may visit every sparse factor's levels in order
    (:func:`_next_levels`): those of its levels among them must be its next ones.  Needed for
    a valid order of them (:func:`valid_orders`), and enough with one sparse factor."""
    for every, following in levels:
        visited = every.intersection(loops)
        if visited and visited != set(following[:len(visited)]):
            return False
    return True


def _temporary_order(indices: Sequence[str], factors: Sequence[Operand]) -> tuple[str, ...]:
    """The temporary's storage order: indices that are levels of a sparse operand first
    (loops over them must run outside the dense ones), by level, then the others, so
    that the dense loops innermost read it with unit stride (K7's T(k,m) beside B(i,j,k):
    2.7-6.5x faster than T(m,k))."""
    if len(indices) < 2:
        return tuple(indices)

    def key(index: str) -> tuple:
        levels = [f.levels.index(index) for f in factors if f.sparse and index in f.levels]
        return (0, min(levels)) if levels else (1, 0)
    return tuple(sorted(indices, key=key))  # stable: ties keep the problem's index order


def _temporary(producer, indices: tuple[str, ...], taken: set[str]) -> Operand:
    contains = frozenset().union(*(f.contains for f in producer))
    return Operand(temporary_name(contains, taken), indices, contains=contains, temporary=True)


def _ordered(indices: set[str], problem: Problem) -> tuple[str, ...]:
    return tuple(sorted(indices, key=problem.indices.index))


# ----------------------------------------------------------------------------- the exhaustive reference


def exhaustive(problem: Problem, limit: int = 2_000_000, progress: Callable[[str], None] | None = None) -> list[Node]:
    """Every schedule tree of the space (stage 1 applied), every loop order included."""
    taken = {f.name for f in problem.factors} | {problem.output}
    ticker = Progress(progress)
    count = 0

    def generate(factors: tuple[Operand, ...], target: Operand, bound: tuple[str, ...]) -> list[Node]:
        nonlocal count
        statement = Statement(target, factors)
        indices = [i for i in statement.indices() if i not in bound]
        result: list[Node] = [Leaf(order, statement) for order in valid_orders(indices, factors, bound)]
        for producer, consumer, fused_set, shared in _branches(factors, target, problem, bound):
            for fused in valid_orders(fused_set, [f for f in factors if f.sparse], bound):
                temporary = _temporary(producer, shared, taken)
                producers = generate(tuple(producer), temporary, bound + fused)
                consumers = generate((temporary, *consumer), target, bound + fused)
                for p in producers:
                    for c in consumers:
                        result.append(Branch(fused, temporary, p, c))
                        count += 1
                        ticker.tick("schedules generated")
                        if count > limit:
                            raise AutoscheduleError(
                                f"autoschedule: the exhaustive enumeration passed {limit} schedules; "
                                "use the default search (exhaustive=False)")
        return result

    target = Operand(problem.output, problem.output_indices)
    return generate(problem.factors, target, ())


# ----------------------------------------------------------------------------- the dynamic program


MOST_ORDERS = 24
"""Loop orders of a linear section the search prices (every valid one up to 4 loops);
the innermost loop decides whether a body vectorises and which reads are strided."""


MOST_FUSED_ORDERS = 24
"""Orders of a branch's fused loops the search prices: each order solves the parts again
(which enclosing loop reuses an operand changes their work)."""


def _orders(statement: Statement, bound: Sequence[str], problem: Problem,
            valid: Sequence[tuple[str, ...]] | None = None) -> list[tuple[str, ...]]:
    """The locality order first (:func:`leaf_order`), then every other valid order up to
    :data:`MOST_ORDERS` (``valid``: the first of them, if the caller has them)."""
    try:
        first = leaf_order(statement, bound, problem)
    except ScheduleError:
        return []
    if valid is None:
        indices = [i for i in statement.indices() if i not in bound]
        valid = list(itertools.islice(valid_orders(indices, statement.factors, bound), MOST_ORDERS))
    return [first, *(order for order in valid if order != first)]


SORTED_UP_TO = 32
"""Tables of at most this many rows find each probe's cheapest rows by a stable sort (fewer
passes than the partition's, and a sort of a few rows is cheap)."""


def _promising(works: np.ndarray, memories: np.ndarray) -> list[int]:
    """Rows among the :data:`KEPT_PER_PROBE` cheapest in work at some probe (a column; ties:
    the earlier row), and the row with the least memory at each probe (ties: the cheaper,
    then the earlier), in order.  Every column at once, in passes over the table (no sort
    of a large table: TTTc's search selects from 40k tables); the ties' rule keeps the
    search deterministic.  Only the passes that find the candidates go over the whole table
    (most rows are at no probe among the cheapest nor of least memory); the ties are
    settled among those."""
    count = len(works)
    if count <= KEPT_PER_PROBE:
        return list(range(count))
    kept = np.zeros(count, dtype=bool)
    if count <= SORTED_UP_TO and not np.isnan(works).any():
        # the first rows of each column in a stable sort by work (NaN, never kept, sorts last)
        kept[np.argsort(works, axis=0, kind="stable")[:KEPT_PER_PROBE]] = True
    else:
        # every row below the column's KEPT_PER_PROBE-th least work, then the earliest rows
        # at that work until there are KEPT_PER_PROBE
        threshold = np.partition(works, KEPT_PER_PROBE - 1, axis=0)[KEPT_PER_PROBE - 1]
        candidates = np.flatnonzero((works <= threshold).any(axis=1))
        near = works[candidates]
        below, at = near < threshold, near == threshold
        room = KEPT_PER_PROBE - below.sum(axis=0)
        kept[candidates[(below | (at & (np.cumsum(at, axis=0) <= room))).any(axis=1)]] = True
    # the least memory: of the rows at each column's least, the first of the cheapest
    least = memories == memories.min(axis=0)
    candidates = np.flatnonzero(least.any(axis=1))
    if not candidates.size:
        candidates = np.arange(1)  # no column has a least row (NaN): argmax's row 0 for each
    least, near = least[candidates], works[candidates]
    cheapest = np.where(least, near, np.inf).min(axis=0)
    first = least & (near == cheapest)
    kept[np.where(first.any(axis=0), candidates[np.argmax(first, axis=0)], 0)] = True
    return np.flatnonzero(kept).tolist()


PRUNED_FROM = 8
"""Branches (in an order of their fused loops) from which a sub-statement's table leaves
out those that hold no promising tree (:func:`_may_be_promising`: a few passes over a row
per branch, which pay for themselves when there are many)."""


def _may_be_promising(sections: Sequence[np.ndarray], pairs: Sequence[tuple]) -> list[int]:
    """The pairs of :func:`_tables` that may hold a promising row (:func:`_promising`): the
    others hold none, and the promising rows of the table without them are the same, in
    the same order.  A pair's least work at a probe is the work of its parts' least ones
    (walk + trips x (zeroing + producer + consumer) does not decrease as a part's work
    grows, rounding included), a row of the table as each section is: the
    :data:`KEPT_PER_PROBE`-th least of these rows is at least the table's threshold, and a
    pair whose least work is above it at every probe has no row among the cheapest.  Its
    least memory likewise (producer + consumer + temporary): a pair above the least memory
    of all at every probe has no row of least memory."""
    producers, consumers = [first.least for first, *_ in pairs], [second.least for _, second, *_ in pairs]
    walking, trips, zeroing, size = (np.array([pair[k] for pair in pairs]) for k in range(2, 6))
    works = walking + trips * (zeroing + np.array([w for w, _ in producers]) + np.array([w for w, _ in consumers]))
    memories = np.array([m for _, m in producers]) + np.array([m for _, m in consumers]) + size
    rows = np.concatenate([np.reshape(sections, (-1, works.shape[1])), works])
    if len(rows) < KEPT_PER_PROBE:
        return list(range(len(pairs)))  # every row is among the cheapest
    threshold = np.partition(rows, KEPT_PER_PROBE - 1, axis=0)[KEPT_PER_PROBE - 1]
    least_memory = np.minimum(memories.min(axis=0), 0.0) if sections else memories.min(axis=0)  # a section: 0
    # NaN compares false: a NaN bound keeps every pair at its probe (a NaN row is never kept)
    for bounds, keeping in ((works, -np.inf), (memories, -np.inf), (threshold, np.inf), (least_memory, np.inf)):
        bounds[np.isnan(bounds)] = keeping
    return np.flatnonzero(((works <= threshold) | (memories <= least_memory)).any(axis=1)).tolist()


def _tables(sections: Sequence[np.ndarray], pairs: Sequence[tuple], probes: int) -> tuple[np.ndarray, np.ndarray]:
    """A sub-statement's works and memories at the probes, a row per tree: its linear
    sections' (``sections``: their works; no memory), then for each of ``pairs`` (a branch in
    an order of its fused loops: its producer's and consumer's solutions, the fused loops'
    walk and trips, the temporary's zeroing and size) each producer tree with each consumer
    tree, producer-major: walk + trips x (zeroing + producer + consumer) and producer +
    consumer + temporary.  Written into one table, each element's arithmetic in the same
    order as in those formulas."""
    count = len(sections) + sum(len(first.works) * len(second.works) for first, second, *_ in pairs)
    works, memories = np.empty((count, probes)), np.empty((count, probes))
    row = len(sections)
    if sections:
        works[:row] = sections
        memories[:row] = 0.0
    for first, second, walking, trips, zeroing, size in pairs:
        shape = (len(first.works), len(second.works), probes)
        end = row + shape[0] * shape[1]
        work = works[row:end].reshape(shape)
        np.add((zeroing + first.works)[:, None, :], second.works[None, :, :], out=work)
        work *= trips
        work += walking
        memory = memories[row:end].reshape(shape)
        np.add(first.memories[:, None, :], second.memories[None, :, :], out=memory)
        memory += size
        row = end
    return works, memories


class _Priced:
    """A sub-statement's tree (its works and memories at the probes are rows of its
    :class:`_Solved`'s tables, which the search compares); its symbolic costs
    (:class:`Scored`) are built only for the trees that reach the result, when first asked."""

    __slots__ = ("build", "_scored")

    def __init__(self, build: Callable[[], Scored]):
        self.build = build
        self._scored: Scored | None = None

    @property
    def scored(self) -> Scored:
        if self._scored is None:
            self._scored = self.build()
        return self._scored


@dataclass
class _Solved:
    """A sub-statement's promising trees, and their works and memories at the probes as
    tables (one row per tree) for pricing the branches that use them; ``reuse``: what of
    the enclosing loops' order its leaves read (its reuse contexts, :func:`_reuse_signature`)."""

    priced: list[_Priced]
    works: np.ndarray
    memories: np.ndarray
    reuse: tuple = ()

    @functools.cached_property
    def least(self) -> tuple[np.ndarray, np.ndarray]:
        """The least work and the least memory of its trees at each probe."""
        return self.works.min(axis=0), self.memories.min(axis=0)


def _reuse_contexts(statement: Statement, relevant: frozenset, loops: frozenset) -> set[tuple[frozenset, frozenset]]:
    """A sub-statement's own reuse contexts: ``(relevant, indices)`` per dense operand whose
    sweep in a linear section reaches the enclosing loops, where ``relevant`` filters the
    enclosing loops its leaves see and ``indices`` are the operand's.  ``loops``: the loops
    its sections run (every section runs all of them, in some order).  A sweep
    (:func:`machine_cost.swept_indices`) is the last run of loops over the operand's
    indices; it passes the section's own loops into the enclosing ones only if the operand
    has every one of them (a section's loop it lacks ends the run), so only those operands'
    contexts are read."""
    if not loops:
        return set()  # a section without loops of its own prices no sweep
    return {(relevant, frozenset(o.indices)) for o in (statement.target, *statement.factors)
            if not o.sparse and loops <= set(o.indices)}


def _seen_through(contexts: Sequence[tuple[frozenset, frozenset]], fused: Sequence[str]) -> set:
    """The reuse contexts of a part of a branch whose signature reads the loops enclosing
    the branch, the part being inside ``fused``: those whose operand has every fused loop the
    part sees.  The part's signature scans its enclosing loops from the innermost (the
    fused ones) and stops at the first that does not index the operand; a fused loop that
    stops it hides the loops outside, whose order then changes nothing in the part."""
    fused = frozenset(fused)
    return {(relevant, indices) for relevant, indices in contexts if fused & relevant <= indices}


def _within(contexts: set[tuple[frozenset, frozenset]], bound: frozenset) -> tuple:
    """Reuse contexts reduced to the loops ``bound`` of a set of enclosing loops, the same
    signature in fewer terms: a signature (:func:`_reuse_signature`) reads only those loops
    (a sub-statement's enclosing ones, and the loops enclosing a branch of which it is a
    part are among them), and a context whose operand has every such loop it sees reads
    them all in any order (the same signature for every order: dropped)."""
    return tuple({(relevant & bound, indices & bound) for relevant, indices in contexts
                  if not relevant & bound <= indices})


def _reuse_signature(contexts: tuple, bound_order: tuple[str, ...]) -> tuple:
    """What a sub-statement's costs read of the order of its enclosing loops: per context
    (the loops a leaf sees, a dense operand's indices), the innermost of those loops that
    index the operand with no other loop inside them.  A leaf's cost reads the enclosing
    order only through :func:`machine_cost.swept_indices` (which loops run between two
    uses of an operand's element), and that depends on the enclosing loops only through
    this set; the same sub-statement inside the same loops in two orders with the same
    signature has the same solution, whatever it holds below (its contexts include every
    leaf's it reaches whose sweep can reach these loops: :func:`_reuse_contexts`,
    :func:`_seen_through`)."""
    signature = []
    for relevant, indices in contexts:
        tail = []
        for index in reversed(bound_order):
            if index not in relevant:
                continue
            if index not in indices:
                break
            tail.append(index)
        signature.append(frozenset(tail))
    return tuple(signature)


@dataclass
class _SubStatement:
    """What the search knows of ``target += factors`` whatever loops enclose it: the
    indices it uses, its number (the memo's key, shared by the same factors in another
    order), its sparse factors, and its loop orders and branches per set of enclosing loops."""

    statement: Statement
    relevant: frozenset
    number: int
    sparse: list[Operand]
    shapes: dict


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused (if it ran): the search allocates hundreds of
    thousands of small objects and keeps most of them in its memo, which the collector
    would scan again and again (20-30% of the search's time on TTTc)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def frontier(problem: Problem, progress: Callable[[str], None] | None = None) -> list[Scored]:
    """The promising schedule trees (:mod:`probes`), by dynamic programming over sub-statements.

    A branch's work at the probes is composed from its parts' (fused walk + trips x
    (zeroing + producer + consumer)); symbolic costs are built only for the trees
    the search returns."""
    with _collector_paused():
        return _frontier(problem, progress)


def _frontier(problem: Problem, progress: Callable[[str], None] | None) -> list[Scored]:
    taken = {f.name for f in problem.factors} | {problem.output}
    memo: dict = {}
    groups: dict = {}  # (number, set of enclosing loops) -> (reuse contexts, {signature: _Solved})
    ticker = Progress(progress)
    table = ProbeTable(size_probes(problem), DEFAULT_CONSTANTS)
    walks: dict = {}
    leaves: dict = {}  # (loops, level state, body_reads) -> a linear section's work, and at the probes
    bodies: dict = {}  # (body_reads, walks) -> a body's work
    temporaries: dict = {}
    valid: dict = {}  # (indices, sparse operands and level state, most) -> the first valid orders
    sub_statements: dict = {}
    numbers: dict = {}

    def _walk(loops: Sequence[str], sparse: Sequence[Operand], state: dict[str, int], context: tuple = ()) -> tuple:
        """:func:`walk_work`, once per loops, sparse operands and level state (leaves and
        fused loops share many), with its work and trips at the probes; ``context``: the
        operands' names and the state as a key, if the caller has it.  Without sparse
        operands a walk is the product of the loops' extents, the same in any order."""
        key = (tuple(loops) if sparse else frozenset(loops),
               context or (tuple(o.name for o in sparse), tuple(sorted(state.items()))))
        walked = walks.get(key)
        if walked is None:
            walked = walk_work(loops, sparse, state)
            walked = walks[key] = (*walked, table.evaluate(walked[0]), table.evaluate(walked[1]))
        return walked

    def _temporary_of(producer, shared: tuple[str, ...]) -> tuple[Operand, Cost, np.ndarray, np.ndarray]:
        """The temporary, its size, and its size and zeroing at the probes (the same for the same parts)."""
        key = (producer, shared)
        made = temporaries.get(key)
        if made is None:
            temporary = _temporary(producer, shared, taken)
            size = memory_of(shared)
            made = temporaries[key] = (temporary, size, table.evaluate(size), table.evaluate(zeroing_work(temporary)))
        return made

    def leaf(order: tuple[str, ...], sub: _SubStatement, sparse: list[Operand], state: dict[str, int],
             bound_order: tuple[str, ...], context: tuple) -> tuple[Callable[[], Scored], np.ndarray]:
        """A linear section's tree and its work at the probes.  The work reads of the section
        its loops, the level state of its sparse operands and what its body reads
        (:func:`machine_cost.body_reads`): sections alike in these, of this sub-statement or
        of any other, are priced once, and bodies alike once.  Without sparse operands the
        walk is the product of the loops' extents: the set of loops is read, not their order."""
        reads = body_reads(order, sub.statement.target, sub.statement.factors, bound_order)
        key = (order if sparse else frozenset(order), context, reads)
        priced = leaves.get(key)
        if priced is None:
            def body(walks: bool) -> Cost:
                if (reads, walks) not in bodies:
                    bodies[reads, walks] = body_work_of(reads, walks)
                return bodies[reads, walks]
            work = leaf_work(Leaf(order, sub.statement), sparse, state, bound_order,
                             walk=lambda loops, sparse, state: _walk(loops, sparse, state, context)[:4], body=body)
            leaves[key] = priced = (work, table.evaluate(work))
        work, work_at = priced

        def build() -> Scored:
            trips, _ = loop_trips(order, sparse, state)
            return Scored(Leaf(order, sub.statement), trips, Cost.zero(), len(order), 0, work)
        return build, work_at

    def branch(fused: tuple[str, ...], temporary: Operand, size: Cost, shared: tuple[str, ...],
               sparse: list[Operand], state: dict[str, int], producer: _Priced, consumer: _Priced
               ) -> Callable[[], Scored]:
        def build() -> Scored:
            p, c = producer.scored, consumer.scored
            trips = _walk(fused, sparse, state)[1]
            return Scored(Branch(fused, temporary, p.node, c.node), trips * (p.time + c.time),
                          size + p.memory + c.memory, len(fused) + max(p.loop_depth, c.loop_depth),
                          max(len(shared), p.memory_depth, c.memory_depth),
                          branch_work(fused, temporary, sparse, state, p.work, c.work))
        return build

    def sub_statement(factors: tuple[Operand, ...], target: Operand) -> _SubStatement:
        """The one record of ``target += factors`` (a sub-statement with the same factors in
        another order shares its number, hence its solutions)."""
        record = sub_statements.get((factors, target))
        if record is None:
            number = numbers.setdefault((frozenset(factors), target), len(numbers))
            statement = Statement(target, factors)
            record = sub_statements[factors, target] = _SubStatement(
                statement, frozenset(statement.indices()), number, _sparse(factors, problem), {})
        return record

    def first_orders(indices: Sequence[str], sub: _SubStatement, bound_order: tuple[str, ...], context: tuple,
                     most: int) -> list[tuple[str, ...]]:
        """The first ``most`` :func:`valid_orders` of ``indices`` inside ``bound_order``: they
        depend only on the set of indices, the sparse operands and their level state
        (``context``), which the sections and fused loops of many sub-statements share."""
        key = (frozenset(indices), context, most)
        found = valid.get(key)
        if found is None:
            found = valid[key] = list(itertools.islice(valid_orders(indices, sub.sparse, bound_order), most))
        return found

    def shape(sub: _SubStatement, bound_order: tuple[str, ...], context: tuple) -> tuple[list, list]:
        """A sub-statement's loop orders and branches (their parts, temporaries and fused
        loops' orders): they depend on which loops enclose it, not on their order, so the
        sub-statement inside the same loops in other orders shares them."""
        key = frozenset(bound_order)
        if key not in sub.shapes:
            factors, target = sub.statement.factors, sub.statement.target
            branches = []
            for producer, consumer, fused_set, shared in _branches(factors, target, problem, bound_order):
                fused_orders = first_orders(fused_set, sub, bound_order, context, MOST_FUSED_ORDERS)
                if not fused_orders:
                    continue  # no order of the fused loops visits the sparse levels in order (TTTc: half)
                temporary, size, size_at, zeroing_at = _temporary_of(producer, shared)
                branches.append((sub_statement(tuple(producer), temporary),
                                 sub_statement((temporary, *consumer), target),
                                 temporary, size, shared, size_at, zeroing_at, fused_orders))
            remaining = [i for i in sub.statement.indices() if i not in key]
            sub.shapes[key] = (_orders(sub.statement, bound_order, problem,
                                       first_orders(remaining, sub, bound_order, context, MOST_ORDERS)), branches)
        return sub.shapes[key]

    def solve(sub: _SubStatement, bound_order: tuple[str, ...]) -> _Solved:
        # enclosing loops over indices this sub-statement does not use change nothing in it
        bound_order = tuple(filter(sub.relevant.__contains__, bound_order))
        # the enclosing loops' order matters (which of them reuses an operand's elements)
        key = (sub.number, bound_order)
        solved = memo.get(key)
        if solved is not None:
            return solved
        # the same loops in another order whose reuse signature is the same: the same solution
        group_key = (sub.number, frozenset(bound_order))
        group = groups.get(group_key)
        if group is not None:
            signature = _reuse_signature(group[0], bound_order)
            if signature in group[1]:
                memo[key] = group[1][signature]
                return memo[key]
        ticker.tick("sub-statements solved")
        statement, sparse = sub.statement, sub.sparse
        state = _state(statement.factors, bound_order)
        context = (tuple(o.name for o in sparse), tuple(sorted(state.items())))
        orders, branches = shape(sub, bound_order, context)
        pairs, builders = [], []  # per branch and order of its fused loops; a row of its -> builder
        # the contexts of a group are the same for all its members: collected by the first
        reuse = _reuse_contexts(statement, sub.relevant, frozenset(orders[0]) if orders else frozenset()) \
            if group is None else None
        sections = [leaf(order, sub, sparse, state, bound_order, context) for order in orders]
        for producer, consumer, temporary, size, shared, size_at, zeroing_at, fused_orders in branches:
            for fused in fused_orders:
                # the parts see the fused loops in this order (which of them reuses an operand);
                # their reuse contexts are their groups', the same for every order of these loops
                inside = bound_order + fused
                first = solve(producer, inside)
                if reuse is not None and fused is fused_orders[0]:
                    reuse.update(_seen_through(first.reuse, fused))
                if not first.priced:
                    continue
                second = solve(consumer, inside)
                if reuse is not None and fused is fused_orders[0]:
                    reuse.update(_seen_through(second.reuse, fused))
                if not second.priced:
                    continue
                pairs.append((first, second, *_walk(fused, sparse, state, context)[4:], zeroing_at, size_at))
                builders.append(lambda row, fused=fused, temporary=temporary, size=size, shared=shared,
                                parts=(first.priced, second.priced):
                                branch(fused, temporary, size, shared, sparse, state,
                                       parts[0][row // len(parts[1])], parts[1][row % len(parts[1])]))
        contexts = _within(reuse, group_key[1]) if group is None else group[0]

        def keep(solved: _Solved) -> _Solved:
            memo[key] = solved
            if group is None:
                groups[group_key] = (contexts, {_reuse_signature(contexts, bound_order): solved})
            else:
                group[1][signature] = solved
            return solved
        if not sections and not pairs:
            return keep(_Solved([], np.zeros((0, len(table.probes))), np.zeros((0, len(table.probes))), contexts))
        section_works = [work for _, work in sections]
        if len(pairs) > PRUNED_FROM:
            chosen = _may_be_promising(section_works, pairs)
            pairs, builders = [pairs[k] for k in chosen], [builders[k] for k in chosen]
        works_table, memories_table = _tables(section_works, pairs, len(table.probes))
        if sections:
            builders.insert(0, lambda row: sections[row][0])
        starts = list(itertools.accumulate([len(sections)] * bool(sections) +
                                           [len(first.priced) * len(second.priced) for first, second, *_ in pairs],
                                           initial=0))
        rows = _promising(works_table, memories_table)
        priced = []
        for k in rows:
            block = bisect.bisect_right(starts, k) - 1
            priced.append(_Priced(builders[block](k - starts[block])))
        if len(rows) < len(works_table):
            works_table, memories_table = works_table[rows], memories_table[rows]
        return keep(_Solved(priced, works_table, memories_table, contexts))

    target = Operand(problem.output, problem.output_indices)
    unique: dict = {}
    for priced in solve(sub_statement(problem.factors, target), ()).priced:
        unique.setdefault((priced.scored.work, priced.scored.memory, priced.scored.time), priced.scored)
    # the nested functions refer to each other (a cycle the collector alone frees), and so
    # to the tables and the probes' values: emptied here, they go now by reference counting,
    # not in one collection over millions of objects when the collector runs again (2 s on
    # TTTc; the probes' values of 10k costs, 20-30 ms)
    for kept in (memo, groups, walks, leaves, bodies, temporaries, valid, sub_statements, numbers, table.evaluated,
                 table.terms, table):
        kept.clear()
    return list(unique.values())
