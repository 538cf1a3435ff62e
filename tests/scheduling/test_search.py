"""The search (spf.scheduling.autoscheduler.search): the vectorised selection of promising
trees keeps exactly the rows the per-probe definition keeps; solutions shared between loop
orders change no tree."""

from __future__ import annotations

import numpy as np
import pytest

from spf.scheduling.autoscheduler.mode_orders import permuted_problem
from spf.scheduling.autoscheduler.probes import KEPT_PER_PROBE
from spf.scheduling.autoscheduler.problem import make_problem
from spf.scheduling.autoscheduler.search import _promising, frontier


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


def _trees_and_counts(problem, monkeypatch) -> tuple[list[tuple[str, str, str]], int, int]:
    """The frontier's trees with their costs, how many sub-statements the search solved and
    how many linear sections it priced."""
    import spf.scheduling.autoscheduler.search as search
    solved, priced, tick, leaf_work = [0], [0], search.Progress.tick, search.leaf_work

    def counted_tick(self, what):
        solved[0] += what == "sub-statements solved"
        return tick(self, what)

    def counted(*arguments, **options):
        priced[0] += 1
        return leaf_work(*arguments, **options)
    monkeypatch.setattr(search.Progress, "tick", counted_tick)
    monkeypatch.setattr(search, "leaf_work", counted)
    trees = [(str(s.node), str(s.work), str(s.memory)) for s in frontier(problem)]
    monkeypatch.setattr(search.Progress, "tick", tick)
    monkeypatch.setattr(search, "leaf_work", leaf_work)
    return trees, solved[0], priced[0]


def _kept_and_anew(monkeypatch, expression: str, layouts: dict, orders: tuple, key: str, unique) -> tuple:
    """:func:`_trees_and_counts` of the search, then of the search whose memo key ``key`` (a
    function of search.py) is ``unique``, a value equal to no other: nothing shared."""
    import spf.scheduling.autoscheduler.search as search
    layouts = {name: "Dense" for name in "ABCDZ" if name in expression} | layouts
    problem = permuted_problem(make_problem(expression, layouts), orders)
    kept = _trees_and_counts(problem, monkeypatch)
    monkeypatch.setattr(search, key, unique)
    return kept, _trees_and_counts(problem, monkeypatch)


@pytest.mark.parametrize("expression, layouts, orders", [
    ("A(i,a) = B(i,j,k) * C(j,a) * D(k,a)", {"B": "CSF3"}, ()),  # MTTKRP
    ("A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)", {"B": "CSF3"}, ()),  # TTMc3
    ("A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)", {"B": "CSF3"}, (("B", (2, 0, 1)),)),  # B copied as (k,i,j)
    ("Z(d,l) = T(i,j,k,l) * A(i,a) * B(a,j,b) * C(b,k,d)", {"T": "CSF4"}, ()),  # a 4-way chain
    ("Z(d,l) = T(i,j,k,l) * A(i,a) * B(a,j,b) * C(b,k,d)", {"T": "CSF4"}, (("T", (3, 0, 1, 2)),)),
])
def test_sharing_solutions_between_loop_orders_changes_no_tree(monkeypatch, expression, layouts, orders):
    """A sub-statement inside the same loops in another order takes the solution of an
    order with the same reuse signature: every tree and its costs are those of the search
    that solves each order anew, with fewer sub-statements solved."""
    (shared, shared_solves, _), (anew, anew_solves, _) = _kept_and_anew(
        monkeypatch, expression, layouts, orders, "_reuse_signature", lambda contexts, bound_order: object())
    assert shared == anew
    assert shared_solves < anew_solves


@pytest.mark.parametrize("expression, layouts, orders", [
    ("A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)", {"B": "CSF3"}, ()),  # TTMc3
    ("Z(d,l) = T(i,j,k,l) * A(i,a) * B(a,j,b) * C(b,k,d)", {"T": "CSF4"}, (("T", (3, 0, 1, 2)),)),
])
def test_a_linear_section_priced_once_per_sweeps_changes_no_tree(monkeypatch, expression, layouts, orders):
    """The same loops of a sub-statement under enclosing loops that sweep each dense operand
    alike are priced once: every tree and cost is that of the search pricing each anew, with
    fewer sections priced."""
    (kept, _, kept_priced), (anew, _, anew_priced) = _kept_and_anew(
        monkeypatch, expression, layouts, orders, "_sweeps", lambda dense, path: object())
    assert kept == anew
    assert kept_priced < anew_priced


def test_sweeps_are_what_body_work_reads():
    """_sweeps gives, for each dense operand the innermost loop indexes, machine_cost.swept_indices."""
    import itertools
    from spf.scheduling.autoscheduler.machine_cost import swept_indices
    from spf.scheduling.autoscheduler.problem import Operand
    from spf.scheduling.autoscheduler.search import _sweeps
    operands = [Operand("C", ("j", "l")), Operand("D", ("k", "l", "m")), Operand("E", ("i",))]
    for length in range(1, 5):
        for path in itertools.permutations("ijklm", length):
            expected = tuple(tuple(swept_indices(o, path)) if path[-1] in o.indices else None for o in operands)
            assert _sweeps([frozenset(o.indices) for o in operands], path) == expected
