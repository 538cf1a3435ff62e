"""``find="auto"``: every proven find variant is compiled; the run-time choice uses a cost
estimate from cheap statistics of the operands (array lengths and scalars, and one value of
a searched array).

For a find site with the proven template t, let

* E be how often the find runs (iterations of the innermost enclosing loop),
* R the length of the searched range,
* S how often its state starts anew (iterations of the innermost loop of its state
  indices; 1 when the state lives through the whole kernel).

Then ``linear = E*R``; ``binary = E*(1 + log2(R+1))`` (its last compare and branch
besides the halvings: with R = 1 it costs two table probes); ``seqiter = E*f*SEQITER_STEP + S*R``
(each restart may walk the range again; f = 1, or, where the loop stops once the position
is exhausted (spf.codegen.passes.early_exit), the fraction of the keys up to the searched
array's last value, read at the call: :func:`seqiter_reach`); ``bitmap = E*(1 + m) + 2*S*R`` (each restart empties
what the last fill put and fills the range; m: a cache miss per probe where the bitmap
outgrows CACHE_BYTES); ``hashmap = E*(HASH_PROBE + HASH_HIT*h) + 3*S*R`` (a probe hashes
and checks a filter; a hit, with probability h = R over the searched array's value
range, follows a slot chain; the table is kept between calls and sized by the range);
``direct = E``.  The weights of binary, hashmap and bitmap are fitted to SpMSpV on the
real matrices (benchmarks/spmv_spmspv.py reports auto's regret per density).  A loop's
iteration count is the length of an array indexed by its variable alone
(``colIdx(pAj)``: nnz), or its trip count times the enclosing loop's.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from spf.space.expressions import Affine, UFCall

if TYPE_CHECKING:
    from spf.codegen.finds.find import FindChoice

MAX_VARIANTS = 8
HASH_PROBE = 1.15  # a hash-map probe against a bitmap probe
SEQITER_STEP = 2.5  # a SeqIter's compare and step against a bitmap probe (a byte and a position, spf_hash.h)
HASH_HIT = 2.5  # what a hit adds to a hash-map probe (the slot chain, a random read)
CACHE_BYTES = 1 << 20  # a bitmap's marks larger than this miss the cache on most probes


@dataclass
class SiteModel:
    """What the cost estimate of one find site needs, in the space's names."""

    loops: list[tuple[str, list, list]]  # enclosing loops outer to inner: (variable, lower, upper)
    lower: list
    upper: list
    call: UFCall
    calls: dict[str, UFCall]
    values: tuple | None = None  # (low, high) of a range property of the searched array
    # its loop does nothing else, so a SeqIter there stops the loop once it is exhausted
    # (spf.codegen.passes.early_exit): the walk reaches only the keys up to the searched range's last value
    exits_early: bool = False


def evaluate(expression: Affine, stats: Mapping[str, float]) -> float | None:
    """``expression``'s value over the operands' statistics, or None when a name has none."""
    total = float(expression.constant)
    for atom, coefficient in expression.terms:
        if not isinstance(atom, str) or atom not in stats:
            return None
        total += coefficient * stats[atom]
    return total


def _array_length(variable: str, calls: dict[str, UFCall], lengths: Mapping[str, int]) -> float | None:
    for call in calls.values():
        if len(call.arguments) == 1 and call.arguments[0] == Affine.of(variable) and call.function in lengths:
            return float(lengths[call.function])
    return None


def _bounds(lower: list, upper: list, stats) -> tuple[float, float] | None:
    """(max of the lower bounds, min of the upper ones) over the statistics, or None when one is unknown."""
    lows = [evaluate(b.expression, stats) for b in lower]
    highs = [evaluate(b.expression, stats) for b in upper]
    if any(v is None for v in lows + highs) or not lows or not highs:
        return None
    return max(lows), min(highs)


def _trip(lower: list, upper: list, stats) -> float | None:
    bounds = _bounds(lower, upper, stats)
    return None if bounds is None else max(0.0, bounds[1] - bounds[0] + 1)


def _iterations(model: SiteModel, depth: int, stats, lengths) -> float:
    """Total iterations of the loop at ``depth`` (outer to inner) over the whole kernel."""
    if depth < 0:
        return 1.0
    variable, lower, upper = model.loops[depth]
    length = _array_length(variable, model.calls, lengths)
    if length is not None:
        segment = _segment(model, lower, lengths)
        if segment is None or segment[1] >= depth - 1:
            return max(length, 1.0)
        # a loop between the segment's own and this one walks each segment again per iteration
        # (triangle counting: row i of L once per entry of row i)
        return _iterations(model, depth - 1, stats, lengths) * max(length / segment[0], 1.0)
    trip = _trip(lower, upper, stats)
    outer = _iterations(model, depth - 1, stats, lengths)
    return outer * (trip if trip is not None else 1.0)


def _segment(model: SiteModel, lower: list, lengths) -> tuple[float, int] | None:
    """For a loop over a segment of a pointer array (``rowPtr(pLi) .. rowPtr(pLi + 1) - 1``):
    how many segments there are, and the depth of the deepest enclosing loop the pointer's
    argument reads (-1: none); None for a loop of another kind."""
    depths = {variable: k for k, (variable, _, _) in enumerate(model.loops)}
    for bound in lower:
        terms = bound.expression.terms
        if len(terms) != 1 or terms[0][0] not in model.calls:
            continue
        pointer = model.calls[terms[0][0]]
        if pointer.function in lengths and lengths[pointer.function] > 1:
            names = {atom for argument in pointer.arguments for atom, _ in argument.terms if isinstance(atom, str)}
            return lengths[pointer.function] - 1, max((depths[n] for n in names if n in depths), default=-1)
    return None


def _range_length(model: SiteModel, stats, lengths) -> float:
    trip = _trip(model.lower, model.upper, stats)
    if trip is not None:
        return max(trip, 1.0)
    if model.call.function in lengths:
        # a segment of a pointer array: the searched array's length over the segments
        pointers = [b.expression.terms[0][0] for b in model.lower
                    if len(b.expression.terms) == 1 and b.expression.terms[0][0] in model.calls]
        for dimension in pointers:
            pointer = model.calls[dimension].function
            if pointer in lengths and lengths[pointer] > 1:
                return max(lengths[model.call.function] / (lengths[pointer] - 1), 1.0)
        return float(lengths[model.call.function])
    return 1.0


def site_cost(model: SiteModel, choice: FindChoice, stats: Mapping[str, float], lengths: Mapping[str, int],
              reach: float = 1.0) -> float:
    """The estimated cost of the site with the template ``choice`` (the module's docstring);
    ``reach``: the fraction of its executions a SeqIter that exits early walks (:func:`seqiter_reach`)."""
    executions = _iterations(model, len(model.loops) - 1, stats, lengths)
    searched = _range_length(model, stats, lengths)
    if choice.kind == "direct":
        return executions
    if choice.kind == "linear":
        return executions * searched
    if choice.kind == "binary":
        return executions * (1 + math.log2(searched + 1))
    state_depth = max((k for k, (v, _, _) in enumerate(model.loops) if v in choice.state), default=-1)
    restarts = _iterations(model, state_depth, stats, lengths)
    if choice.kind == "seqiter":
        if model.exits_early and not choice.keyed:
            executions *= reach
        return executions * SEQITER_STEP + restarts * searched
    if choice.kind == "bitmap":
        extent = value_extent(choice.values, stats)
        missing = 1.0 if extent is not None and extent > CACHE_BYTES else 0.0  # a byte of marks per value
        return executions * (1 + missing) + 2 * restarts * searched
    extent = value_extent(model.values, stats)
    hits = min(1.0, searched / extent) if extent else 0.0
    return executions * (HASH_PROBE + HASH_HIT * hits) + 3 * restarts * searched  # hashmap


def seqiter_reach(model: SiteModel, choice: FindChoice, stats: Mapping[str, float],
                  arrays: Mapping[str, object]) -> float:
    """The fraction of a site's executions a SeqIter walks before it exits (1.0 without an
    exit or where unknown).  Its position leaves the range past the value at the end it
    walks to (the searched array's last value walking up); the keys, taken as spread evenly
    over the array's value range, reach that value after this fraction of them.  Known when
    the searched range does not depend on the loops (SpMSpV's whole of x), the array is read
    at the position itself and has a range property."""
    if not model.exits_early or choice.keyed or choice.kind != "seqiter" or model.values is None:
        return 1.0
    bounds = _bounds(model.lower, model.upper, stats)
    smallest, extent = evaluate(model.values[0], stats), value_extent(model.values, stats)
    array = arrays.get(model.call.function)
    (position,) = model.call.arguments if len(model.call.arguments) == 1 else (None,)
    if bounds is None or smallest is None or extent is None or array is None or position is None \
            or position.constant != 0 or len(position.terms) != 1 or position.terms[0][1] != 1:
        return 1.0
    first, last = int(bounds[0]), int(bounds[1])
    if not 0 <= first <= last < len(array):
        return 1.0
    edge = float(array[last] if choice.direction > 0 else array[first])
    walked = edge - smallest + 1 if choice.keys_increasing else smallest + extent - edge
    return min(1.0, max(walked, 1.0) / extent)


def value_extent(values: tuple | None, stats: Mapping[str, float]) -> float | None:
    """How many values lie in ``values`` = (low, high) (a range property's extent) for
    these operands, or None when unknown."""
    if values is None:
        return None
    extent = evaluate(values[1] - values[0], stats)
    return extent if extent is not None and extent > 0 else None


def variants(valid_per_site: list[list]) -> list[tuple]:
    """Combinations of one proven template per site (at most MAX_VARIANTS, best-first order)."""
    combinations = list(itertools.islice(itertools.product(*valid_per_site), MAX_VARIANTS))
    return combinations or [()]
