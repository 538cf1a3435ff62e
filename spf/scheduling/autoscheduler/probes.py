"""Representative sizes at which the search compares schedule trees.

Works are polynomials in the extents and stored counts; two trees' works rarely
compare coefficient by coefficient (``nnz_B*K`` against ``nnz_B_i*K*L``), so a
frontier of trees no other beats for *every* size keeps hundreds of trees (K2: 2,405).
Instead the search keeps, for each sub-statement, the trees among the few cheapest at
some *probe*: a point of sizes drawn log-uniformly over what real operands span
(extents 4 to 10^5, dense dimensions 4 to 512, each sparse level holding between one
stored entry per parent and the whole extent), consistent with the layouts (the
constraints :func:`prune.inferred_constraints` states).  Work composes monotonically
(a branch costs its fused trips times the sum of its parts), so the cheapest tree at a
probe is built from the cheapest parts at that probe: keeping each part's few cheapest
per probe keeps every tree that is cheapest somewhere in the probed range.
"""

from __future__ import annotations

import zlib
from typing import Mapping

import numpy as np

from spf.scheduling.autoscheduler.cost import Cost, count_symbols, dimension_symbol
from spf.scheduling.autoscheduler.machine_cost import MISS, miss_extents
from spf.scheduling.autoscheduler.prune import ELEMENT_BYTES, FALLBACK_L2_BYTES
from spf.scheduling.autoscheduler.problem import Problem

PROBES = 48  # points of sizes
KEPT_PER_PROBE = 3  # trees kept per sub-statement and probe (the cheapest ones)
REFERENCE_CACHE_BYTES = FALLBACK_L2_BYTES  # the L2 the probes' cache conditions assume


def size_probes(problem: Problem, count: int = PROBES) -> list[dict[str, float]]:
    """``count`` points of sizes for the problem's symbols, the same for the same problem."""
    generator = np.random.default_rng(zlib.crc32(problem.expression.encode()))
    sparse_indices = {i for f in problem.sparse_factors for i in f.levels}
    probes = []
    for _ in range(count):
        sizes: dict[str, float] = {}
        for index in problem.indices:
            low, high = (4, 1e5) if index in sparse_indices else (4, 512)
            sizes[dimension_symbol(index)] = float(round(np.exp(generator.uniform(np.log(low), np.log(high)))))
        for operand in problem.sparse_factors:
            parent = 1.0
            for depth, index in enumerate(operand.levels):
                extent = sizes[dimension_symbol(index)]
                symbols = count_symbols(operand, depth)
                if operand.dense_levels[depth]:
                    parent = parent * extent
                else:
                    per_parent = float(np.exp(generator.uniform(0.0, np.log(extent))))
                    parent = max(parent, round(parent * per_parent))
                if len(symbols) == 1 and symbols[0].startswith("nnz_"):
                    sizes[symbols[0]] = parent
        probes.append(sizes)
    return probes


class ProbeTable(dict):
    """Each symbol's values at the probes (an array), the machine constants and cache
    conditions included, to evaluate many works at once."""

    def __init__(self, probes: list[dict[str, float]], constants: Mapping[str, float]):
        super().__init__()
        self.probes = probes
        self.constants = constants
        self.evaluated: dict[Cost, np.ndarray] = {}
        self.terms: dict[tuple, np.ndarray] = {}

    def __missing__(self, symbol: str) -> np.ndarray:
        if symbol in self.constants:
            values = np.full(len(self.probes), float(self.constants[symbol]))
        elif symbol.startswith(MISS):
            names = miss_extents(symbol)
            footprint = ELEMENT_BYTES * np.prod([[p.get(n, 1.0) for n in names] for p in self.probes], axis=1)
            values = (footprint > REFERENCE_CACHE_BYTES).astype(float)
        else:
            values = np.array([p.get(symbol, 1.0) for p in self.probes], dtype=float)
        self[symbol] = values
        return values

    def evaluate(self, cost: Cost) -> np.ndarray:
        """The cost at every probe (kept: the search prices the same parts many times)."""
        total = self.evaluated.get(cost)
        if total is None:
            total = np.zeros(len(self.probes))
            for term in cost.terms:
                total += self._term(term)
            self.evaluated[cost] = total
        return total

    def _term(self, term: tuple) -> np.ndarray:
        """One term (monomial, coefficient) at every probe, computed once: works share most
        of their terms.  The same arithmetic in the same order as for one cost, so a work's
        values do not depend on what was priced before it."""
        values = self.terms.get(term)
        if values is None:
            monomial, coefficient = term
            values = np.full(len(self.probes), float(coefficient))
            for symbol, exponent in monomial:
                values = values * self[symbol] ** exponent
            self.terms[term] = values
        return values
