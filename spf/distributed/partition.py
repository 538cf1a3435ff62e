"""Which mode of a layout its outer storage level orders, and where to cut that mode into
blocks holding equal numbers of nonzeros.

A block of a layout's outer level is the same layout over a sub-range of one logical
mode when that level's positions run in the order of that mode: CSR's ``i = pi``, CSC's
``j = pj``, DCSR's and CSF's ``i = idx0(p0)`` with ``idx0`` monotonic, COO's
``i = row(p)`` with ``row`` monotonic, BCSR's ``i = R*pI + pii`` (a block of block rows:
cuts at multiples of R).  Layouts whose outer level is no range of a mode (DIA's
diagonals, an unsorted coordinate list) cannot be split so, and are refused.
"""

from __future__ import annotations

import numpy as np
from typing import TYPE_CHECKING

from spf.errors import DistributionError
from spf.space.expressions import Affine, UFCall
from spf.space.levels import read_levels, remainder_fits

if TYPE_CHECKING:
    from spf.layout_library.model import Layout

MAX_BINS = 1 << 20
"""At most this many bins in the histogram of outer coordinates that places the cuts
(8 MiB of counts reduced across ranks); a longer mode is binned more coarsely."""


def outer_mode(layout: Layout) -> tuple[int, int]:
    """``(mode, granule)``: the logical mode whose ranges are the blocks of the layout's
    outer storage level, and the multiple of which a cut must be (BCSR's R, else 1)."""
    if not layout.index_arrays:
        raise DistributionError(f"layout {layout.spec} is dense: dense operands are replicated or sliced, "
                                "not distributed; distribute the sparse operand")
    levels = read_levels(layout)
    outer = layout.physical[0]
    ordered = {spec.arrays[0] for spec in layout.properties if spec.kind == "monotonic"}
    found = []
    for mode, coordinate in enumerate(layout.logical):
        definition = levels.definitions[coordinate]
        granule = _granule(definition, outer, ordered, layout, levels)
        if granule is not None:
            found.append((mode, granule))
    if len(found) != 1:
        why = ("no logical coordinate is a monotone function of it" if not found else
               f"it orders several coordinates ({', '.join(layout.logical[m] for m, _ in found)})")
        raise DistributionError(f"layout {layout.spec}: its outer storage level {outer} is no range of one "
                                f"mode ({why}), so a block of it is no sub-tensor; convert the tensor to a "
                                "layout whose outer level is (CSR, CSC, DCSR, COO, CSF3, COO3, ...)")
    return found[0]


def _granule(definition: Affine, outer: str, ordered: set[str], layout, levels) -> int | None:
    """The cut granule when ``definition`` runs in the order of the outer index ``outer``
    (``a*outer + rest`` with the rest within ``[0, a)``, or a monotone array of ``outer``)."""
    coefficients = definition.coefficients()
    if outer in coefficients:
        step = coefficients[outer]
        rest = [(atom, c) for atom, c in definition.terms if atom != outer]
        if step <= 0 or definition.constant:
            return None
        if not rest:
            return step
        if any(not isinstance(atom, str) for atom, _ in rest):
            return None
        bounds = {level.index: level for level in levels.levels}

        def range_of(atom):
            level = bounds.get(atom)
            if level is None or len(level.lower) != 1 or len(level.upper) != 1:
                return None
            low, high = level.lower[0], level.upper[0]
            if not (low.is_constant and high.is_constant):
                return None
            return low.constant, high.constant
        return step if remainder_fits(rest, step, range_of) else None
    if len(definition.terms) == 1 and definition.constant == 0 and definition.terms[0][1] == 1:
        atom = definition.terms[0][0]
        if isinstance(atom, UFCall) and atom.function in ordered and len(atom.arguments) == 1 \
                and atom.arguments[0] == Affine.of(outer):
            return 1
    return None


def histogram(coordinates: np.ndarray, extent: int, granule: int) -> tuple[np.ndarray, int]:
    """Counts of ``coordinates`` per bin, and the bin width (a multiple of ``granule``,
    wide enough that there are at most :data:`MAX_BINS` bins)."""
    bins, width = binning(extent, granule)
    counts = np.zeros(bins, dtype=np.int64)
    count_into(counts, coordinates, width)
    return counts, width


def binning(extent: int, granule: int) -> tuple[int, int]:
    """``(bins, width)`` of the histogram of a mode of ``extent``: the width a multiple of
    ``granule``, wide enough that there are at most :data:`MAX_BINS` bins."""
    width = granule * max(1, -(-extent // (granule * MAX_BINS)))
    return max(1, -(-extent // width)), width


def _crossings(counts: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each target t: the first i with ``prefix[i] >= t`` (``prefix[i]``: the sum of the
    first i counts; the last i if none), ``prefix[i]`` and ``prefix[i-1]`` (``prefix[0]``
    when i is 0).  The prefix sums are made a window at a time, not for the whole histogram."""
    above = np.full(len(targets), len(counts), dtype=np.int64)
    at_above = np.full(len(targets), float(counts.sum(dtype=np.int64)))
    at_below = at_above.copy()
    found = targets <= 0
    above[found], at_above[found], at_below[found] = 0, 0.0, 0.0
    base = 0
    for start in range(0, len(counts), COUNT_WINDOW):
        local = np.cumsum(counts[start:start + COUNT_WINDOW], dtype=np.int64) + base
        here = ~found & (targets <= local[-1])
        if here.any():
            index = np.searchsorted(local, targets[here], side="left")
            above[here] = start + 1 + index
            at_above[here] = local[index]
            at_below[here] = np.where(index > 0, local[np.maximum(index - 1, 0)], base)
            found |= here
        base = int(local[-1])
    return above, at_above, at_below


COUNT_WINDOW = 1 << 16
"""Coordinates binned at once (their bin numbers are the only temporary)."""


def count_into(counts: np.ndarray, coordinates: np.ndarray, width: int) -> None:
    """Add the number of ``coordinates`` in each bin of ``width`` to ``counts``."""
    for start in range(0, len(coordinates), COUNT_WINDOW):
        window = coordinates[start:start + COUNT_WINDOW]
        np.add.at(counts, window // width if width > 1 else window, 1)


def balanced_bounds(counts: np.ndarray, width: int, extent: int, parts: int) -> np.ndarray:
    """Cut points ``0 = b[0] <= ... <= b[parts] = extent`` at bin boundaries such that block
    ``r`` (coordinates ``b[r] <= c < b[r+1]``) holds about ``1/parts`` of the counts (an even
    split of the extent when there are none)."""
    counts = np.asarray(counts)  # int32 or int64: not copied
    total = int(counts.sum(dtype=np.int64))
    if total == 0:  # the bin boundary nearest to each even split of the extent
        targets = np.arange(parts + 1) * (extent / parts)
        cuts = np.clip(np.ceil(targets / width - 0.5).astype(np.int64), 0, len(counts))  # ties: the lower
        last = len(counts)  # the last boundary is the extent, which may be nearer than a full bin
        cuts = np.where(np.abs(extent - targets) < np.abs(cuts * width - targets), last, cuts)
    else:
        targets = np.arange(parts + 1) * (total / parts)
        above, at_above, at_below = _crossings(counts, targets)
        below = np.maximum(above - 1, 0)
        cuts = np.where(np.abs(at_below - targets) <= np.abs(at_above - targets), below, above)
    bounds = np.minimum(np.maximum.accumulate(cuts).astype(np.int64) * width, extent)
    bounds[0], bounds[-1] = 0, extent
    return bounds.astype(np.int64)
