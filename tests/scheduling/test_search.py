"""The search's choice of promising trees (spf.scheduling.autoscheduler.search): the
vectorised selection keeps exactly the rows the per-probe definition keeps."""

from __future__ import annotations

import numpy as np
import pytest

from spf.scheduling.autoscheduler.probes import KEPT_PER_PROBE
from spf.scheduling.autoscheduler.search import _promising


def promising_by_definition(works: np.ndarray, memories: np.ndarray) -> list[int]:
    """Per probe: the KEPT_PER_PROBE cheapest rows (ties: the earlier row), and the row of
    least memory (ties: the cheaper, then the earlier)."""
    if len(works) <= KEPT_PER_PROBE:
        return list(range(len(works)))
    kept = set()
    for column in range(works.shape[1]):
        rows = sorted(range(len(works)), key=lambda row: (works[row, column], row))
        kept.update(rows[:KEPT_PER_PROBE])
        kept.add(min(range(len(works)), key=lambda row: (memories[row, column], works[row, column], row)))
    return sorted(kept)


@pytest.mark.parametrize("seed", range(40))
def test_promising_rows_are_the_cheapest_at_some_probe_or_the_least_memory(seed):
    generator = np.random.default_rng(seed)
    rows, probes = int(generator.integers(1, 40 if seed < 20 else 400)), int(generator.integers(1, 12))
    # few distinct values: many ties, which the selection must break by row
    works = generator.integers(0, 4, size=(rows, probes)).astype(float)
    memories = generator.integers(0, 3, size=(rows, probes)).astype(float)
    assert _promising(works, memories) == promising_by_definition(works, memories)


def test_infinite_works_and_memories_are_compared_as_the_rest():
    works = np.array([[np.inf, 1.0], [np.inf, np.inf], [2.0, np.inf], [np.inf, 0.0], [np.inf, np.inf]])
    memories = np.array([[0.0, 5.0], [0.0, 5.0], [1.0, np.inf], [np.inf, 5.0], [0.0, 1.0]])
    assert _promising(works, memories) == promising_by_definition(works, memories)
