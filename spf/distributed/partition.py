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

from spf.errors import SpfError
from spf.expressions import Affine, UFCall
from spf.levels import read_levels, remainder_fits

MAX_BINS = 1 << 20
"""At most this many bins in the histogram of outer coordinates that places the cuts
(8 MiB of counts reduced across ranks); a longer mode is binned more coarsely."""


class DistributionError(SpfError):
    """A tensor, kernel or operand that spf.distributed cannot split correctly."""


def outer_mode(layout) -> tuple[int, int]:
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
    width = granule * max(1, -(-extent // (granule * MAX_BINS)))
    bins = max(1, -(-extent // width))
    counts = np.bincount(np.asarray(coordinates, dtype=np.int64) // width, minlength=bins).astype(np.int64)
    return counts[:bins], width


def balanced_bounds(counts: np.ndarray, width: int, extent: int, parts: int) -> np.ndarray:
    """Cut points ``0 = b[0] <= ... <= b[parts] = extent`` at bin boundaries such that block
    ``r`` (coordinates ``b[r] <= c < b[r+1]``) holds about ``1/parts`` of the counts (an even
    split of the extent when there are none)."""
    counts = np.asarray(counts, dtype=np.int64)
    candidates = np.minimum(np.arange(len(counts) + 1, dtype=np.int64) * width, extent)
    total = int(counts.sum())
    if total == 0:
        targets = np.arange(parts + 1) * (extent / parts)
        cuts = np.abs(candidates[None, :] - targets[:, None]).argmin(axis=1)
    else:
        prefix = np.concatenate(([0], np.cumsum(counts)))
        targets = np.arange(parts + 1) * (total / parts)
        above = np.clip(np.searchsorted(prefix, targets, side="left"), 0, len(prefix) - 1)
        below = np.clip(above - 1, 0, len(prefix) - 1)
        cuts = np.where(np.abs(prefix[below] - targets) <= np.abs(prefix[above] - targets), below, above)
    bounds = candidates[np.maximum.accumulate(cuts)]
    bounds[0], bounds[-1] = 0, extent
    return bounds.astype(np.int64)
