"""What a schedule tree costs on a machine, not only how many iterations it runs.

Iteration counts (:mod:`cost`) cannot tell apart two schedules that run the same
iterations differently: a vector temporary with the dense loop innermost
(``k, m : T(m) += B(i,j,k) * D(k,m)``: unit-stride reads the C compiler vectorises)
against a scalar temporary with the dense loop outside the sparse walk
(``i, j, m < T() ; k : T() += B(i,j,k) * D(k,m)``: each fibre re-walked ``M`` times
through its index arrays, ``D`` read with stride ``M``).  SpTTN-Cyclops (section 7,
"impact of dense loops") measures exactly this gap; SparseAuto lists cache effects
among what its model leaves out.

The *work* of a tree is a :class:`Cost` each of whose monomials carries one machine
constant (seconds per event, calibrated by :mod:`calibration`):

* ``c_walk``: one iteration of a loop over a compressed level (a coordinate read,
  the bounds of the level below), at every depth of the nest;
* ``c_find``: locating the coordinate in each further sparse operand co-iterated by
  that loop;
* ``c_vector``: one innermost iteration the compiler vectorises: a dense loop in which
  the target and every dense operand that moves move with unit stride;
* ``c_scalar``: any other innermost iteration (a sparse walk's body, a reduction into
  a scalar, which the compiler does not vectorise without reassociating sums);
* ``c_strided``: each dense operand the innermost loop reads or writes with a stride
  other than one (a new cache line per iteration);
* ``c_stream``: each dense operand the innermost loop moves through, per iteration,
  when the part of it the section's own loops sweep is larger than the cache
  closest to the core that holds data across iterations (the L2): then every
  iteration of the enclosing loops streams it from farther away.  The condition is a
  0/1 symbol ``miss_L*M*N`` (sweep of extents L*M*N), set at run time from the sizes;
* zeroing a temporary at the top of each iteration of its fused loops, per element,
  at ``c_vector``.

The search compares works at representative sizes on the default constants
(:mod:`probes`); the run-time choice evaluates them at the operands' sizes with this
machine's calibrated constants.
"""

from __future__ import annotations

from typing import Callable, Collection, Mapping, Sequence

import numpy as np

from spf.scheduling.autoscheduler.cost import Cost, dimension_symbol, level_trip_symbols, memory_of
from spf.scheduling.autoscheduler.problem import Operand
from spf.scheduling.autoscheduler.prune import ELEMENT_BYTES
from spf.scheduling.autoscheduler.tree import Branch, Leaf, Node, operands, sparse_in

WALK, FIND, VECTOR, SCALAR, STRIDED, STREAM = "c_walk", "c_find", "c_vector", "c_scalar", "c_strided", "c_stream"
CONVERT = "c_convert"  # per stored entry of an operand copied in another mode order (mode_orders)
MACHINE_CONSTANTS = (WALK, FIND, VECTOR, SCALAR, STRIDED, STREAM, CONVERT)
MISS = "miss_"  # prefix of the 0/1 symbols: does a sweep over these extents overflow the cache

# Seconds per event on a machine of the 2020s at ~3 GHz, used until (or unless) the
# machine is calibrated; their ratios matter more than their values.
DEFAULT_CONSTANTS = {WALK: 0.1e-9, FIND: 25e-9, VECTOR: 0.25e-9, SCALAR: 1.2e-9, STRIDED: 1.0e-9, STREAM: 0.8e-9,
                     CONVERT: 500e-9}


def _constant(name: str) -> Cost:
    return Cost.of([name])


def walk_work(loops: Sequence[str], sparse: Sequence[Operand], state: dict[str, int]
              ) -> tuple[Cost, Cost, dict[str, int], bool]:
    """The work of running ``loops`` (outer to inner) around nothing, their trips, the
    new level state, and whether the innermost loop walks a sparse level.  The trips of
    the loops down to one are one monomial (:func:`level_trip_symbols`, a dense loop's
    extent), built when a compressed level needs them and at the end."""
    state = dict(state)
    multiplied: list[str] = []
    divided: list[str] = []
    terms: dict = {}
    walks = False
    for index in loops:
        walkers = []
        for operand in sparse:
            depth = state.get(operand.name, 0)
            if index in operand.levels and operand.levels.index(index) == depth:
                walkers.append((operand, depth))
                state[operand.name] = depth + 1
        compressed = [(o, d) for o, d in walkers if not o.dense_levels[d]]
        if walkers:
            numerator, denominator = level_trip_symbols(*walkers[0])
            multiplied += numerator
            divided += denominator
        else:
            multiplied.append(dimension_symbol(index))
        walks = bool(compressed)
        if compressed:
            # one walk of the level per trip, and a find in each further operand on it
            for constant, count in ((WALK, 1), (FIND, len(compressed) - 1)):
                if count:
                    (monomial, _), = Cost.of(multiplied + [constant], divided).terms
                    terms[monomial] = terms.get(monomial, 0) + count
    return Cost.of_terms(terms), Cost.of(multiplied, divided), state, walks


def miss_symbol(indices: Sequence[str]) -> str:
    """The 0/1 symbol for "a sweep over these indices' extents overflows the cache"."""
    return MISS + "*".join(dimension_symbol(i) for i in sorted(indices))


def miss_extents(symbol: str) -> list[str]:
    """The extent symbols a miss symbol multiplies (``miss_L*M*N``: L, M, N)."""
    return symbol[len(MISS):].split("*")


def swept_indices(operand: Operand, path: Sequence[str]) -> list[str]:
    """The operand's indices whose loops run between two uses of one of its elements: those
    inside the innermost enclosing loop that does not index it (the loop that reuses it),
    or all of them when every loop indexes it (each element is used once)."""
    return list(last_run(operand.indices, path))


def last_run(indices: Collection[str], path: Sequence[str]) -> tuple[str, ...]:
    """The last run of consecutive loops of ``path`` over ``indices`` (the loops after it
    index none of them): what :func:`swept_indices` reads, for the search's keys too."""
    end = len(path)
    while end > 0 and path[end - 1] not in indices:
        end -= 1
    start = end
    while start > 0 and path[start - 1] in indices:
        start -= 1
    return tuple(path[start:end])


def body_work(loops: Sequence[str], target: Operand, factors: Sequence[Operand], walks: bool,
              bound: Sequence[str] = ()) -> Cost:
    """The work of one innermost iteration of a linear section inside the loops ``bound``."""
    return body_work_of(body_reads(loops, target, factors, bound), walks)


def body_reads(loops: Sequence[str], target: Operand, factors: Sequence[Operand], bound: Sequence[str] = ()
               ) -> tuple | None:
    """What the work of a section's body reads of its statement and loops (``bound``, then
    its own), but whether the innermost loop walks a sparse level: whether the target moves
    with unit stride along the innermost loop, whether a sparse factor has that index, and
    for each dense operand it moves (target included), whether with unit stride and the
    indices swept between two uses of an element (:func:`swept_indices`, sorted), in sorted
    order (the work counts them).  None for a section without loops.  Sections of different
    statements that read the same have the same body: the search prices it once."""
    if not loops:
        return None
    inner = loops[-1]
    path = tuple(bound) + tuple(loops)
    moving = sorted((operand.indices[-1] == inner, tuple(sorted(swept_indices(operand, path))))
                    for operand in (target, *factors) if inner in operand.indices and not operand.sparse)
    return (target.indices[-1:] == (inner,), any(inner in o.indices and o.sparse for o in factors), tuple(moving))


def body_work_of(reads: tuple | None, walks: bool) -> Cost:
    """:func:`body_work` from what it reads (:func:`body_reads`) and whether the innermost loop
    walks a sparse level: a vector iteration when nothing walks, the target and every dense
    operand that moves move with unit stride and no sparse factor moves, else a scalar one;
    each strided operand, and each moving one's stream when its sweep overflows the cache."""
    if reads is None:
        return _constant(SCALAR)
    target_unit, sparse_inner, moving = reads
    strided = sum(1 for unit, _ in moving if not unit)
    vector = not walks and target_unit and strided == 0 and not sparse_inner
    # the monomials counted in one dict, made canonical once (the search prices thousands of bodies)
    terms = {((VECTOR if vector else SCALAR, 1),): 1}
    if strided:
        terms[((STRIDED, 1),)] = strided
    for _, swept in moving:
        monomial = ((STREAM, 1), (miss_symbol(swept), 1))
        terms[monomial] = terms.get(monomial, 0) + 1
    return Cost.of_terms(terms)


def leaf_work(leaf: Leaf, sparse: Sequence[Operand], state: dict[str, int], bound: Sequence[str] = (),
              walk: Callable[[Sequence[str], Sequence[Operand], dict[str, int]], tuple] | None = None,
              body: Callable[[bool], Cost] | None = None) -> Cost:
    """A linear section's work: its loops' walk, then its body per innermost iteration
    (``walk``: :func:`walk_work` or a memoised one, which the search passes; ``body``: the
    body's work given whether the innermost loop walks, :func:`body_work` or a memoised one)."""
    walking, trips, _, walks = (walk or walk_work)(leaf.loops, sparse, state)
    inner = body(walks) if body is not None else \
        body_work(leaf.loops, leaf.statement.target, leaf.statement.factors, walks, bound)
    return walking + trips * inner


def branch_work(fused: Sequence[str], temporary: Operand, sparse: Sequence[Operand], state: dict[str, int],
                producer_work: Cost, consumer_work: Cost) -> Cost:
    """A branch's work from its parts': its fused loops' walk, then per fused iteration
    the temporary's zeroing and the producer's and consumer's work."""
    walking, trips, _, _ = walk_work(fused, sparse, state)
    return walking + trips * (zeroing_work(temporary) + producer_work + consumer_work)


def zeroing_work(temporary: Operand) -> Cost:
    """Zeroing a temporary once (a scalar is set by its first product: nothing)."""
    return memory_of(temporary.indices) * _constant(VECTOR) if temporary.indices else Cost.zero()


def work_cost(node: Node, problem_order: Sequence[str], state: dict[str, int] | None = None,
              bound: tuple[str, ...] = ()) -> Cost:
    """The work of a subtree, relative to the enclosing loops ``bound`` (whose level state is given)."""
    state = state or {}
    if isinstance(node, Leaf):
        return leaf_work(node, sparse_in(node.statement.factors, problem_order), state, _relevant(node, bound))
    sparse = sparse_in(operands(node), problem_order)
    _, _, inner, _ = walk_work(node.fused, sparse, state)
    inside = bound + tuple(node.fused)
    return branch_work(node.fused, node.temporary, sparse, state,
                       work_cost(node.producer, problem_order, inner, inside),
                       work_cost(node.consumer, problem_order, inner, inside))


def _relevant(leaf: Leaf, bound: Sequence[str]) -> tuple[str, ...]:
    """The enclosing loops over indices the leaf's statement uses (the others change nothing
    in it; the search sees a section with those only)."""
    used = set(leaf.statement.indices())
    return tuple(index for index in bound if index in used)


def seconds(work: Cost, sizes: Mapping[str, float], constants: Mapping[str, float], cache_bytes: float,
            element_bytes: int = ELEMENT_BYTES) -> float:
    """The predicted seconds of a work at the given sizes on a machine's constants, whose
    sweeps overflow a cache of ``cache_bytes``."""
    values = dict(sizes)
    values.update(constants)
    for symbol in work.symbols():
        if symbol.startswith(MISS):
            extents = [sizes[name] for name in miss_extents(symbol)]
            footprint = element_bytes * float(np.prod(extents))
            values[symbol] = 1.0 if footprint > cache_bytes else 0.0
    return work.evaluate(values)


def runs_in_parallel(node: Node, output_indices: Sequence[str]) -> bool:
    """Whether a parallel kernel of the tree splits its work among threads: each of its
    phases (a loop outside every other: a root temporary's producer, then its consumer)
    has an outermost loop that indexes what the phase writes (each thread writes its own
    part), as the compiler's dependence test requires of a phase
    (spf.codegen.passes.parallel.parallelize_fused)."""
    if isinstance(node, Branch) and not node.fused:
        return runs_in_parallel(node.producer, node.temporary.indices) and \
            runs_in_parallel(node.consumer, output_indices)
    outer = node.fused if isinstance(node, Branch) else node.loops
    return bool(outer) and outer[0] in output_indices
