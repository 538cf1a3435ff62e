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


def _kept_and_anew(monkeypatch, expression: str, layouts: dict, orders: tuple, replaced: dict) -> tuple:
    """:func:`_trees_and_counts` of the search, then of the search whose functions of
    search.py named in ``replaced`` are replaced, so that a memo key is a value equal to no
    other: nothing shared."""
    import spf.scheduling.autoscheduler.search as search
    layouts = {name: "Dense" for name in "ABCDZ" if name in expression} | layouts
    problem = permuted_problem(make_problem(expression, layouts), orders)
    kept = _trees_and_counts(problem, monkeypatch)
    for name, function in replaced.items():
        monkeypatch.setattr(search, name, function)
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
        monkeypatch, expression, layouts, orders, {"_reuse_signature": lambda contexts, bound_order: object()})
    assert shared == anew
    assert shared_solves < anew_solves


@pytest.mark.parametrize("expression, layouts, orders", [
    ("Z(d,l) = T(i,j,k,l) * A(i,a) * B(a,j,b) * C(b,k,d)", {"T": "CSF4"}, ()),
    ("Z(d,l) = T(i,j,k,l) * A(i,a) * B(a,j,b) * C(b,k,d)", {"T": "CSF4"}, (("T", (3, 0, 1, 2)),)),
])
def test_a_linear_section_priced_once_per_loops_state_and_body_reads_changes_no_tree(
        monkeypatch, expression, layouts, orders):
    """Sections with the same loops, level state and body reads (machine_cost.body_reads), of
    one sub-statement under enclosing loops that sweep each dense operand alike or of
    different sub-statements, are priced once: every tree and cost is that of the search
    pricing each anew, with fewer sections priced."""
    from spf.scheduling.autoscheduler.machine_cost import body_reads, body_work_of
    (kept, _, kept_priced), (anew, _, anew_priced) = _kept_and_anew(
        monkeypatch, expression, layouts, orders,
        {"body_reads": lambda *section: (object(), body_reads(*section)),
         "body_work_of": lambda reads, walks: body_work_of(reads[1], walks)})
    assert kept == anew
    assert kept_priced < anew_priced


def _orders_told_apart(contexts, bound: str) -> set[frozenset]:
    """The classes of orders of the loops ``bound`` that :func:`_reuse_signature` tells apart."""
    import itertools
    from spf.scheduling.autoscheduler.search import _reuse_signature
    classes: dict = {}
    for order in itertools.permutations(bound):
        classes.setdefault(_reuse_signature(tuple(contexts), order), set()).add(order)
    return {frozenset(c) for c in classes.values()}


def _contexts(count: int, seed: int) -> list[tuple[frozenset, frozenset]]:
    """``count`` reuse contexts over the indices i..m drawn at random (a leaf's relevant loops,
    a dense operand's indices among them)."""
    generator = np.random.default_rng(seed)
    contexts = []
    for _ in range(count):
        relevant = frozenset(i for i in "ijklm" if generator.random() < 0.7)
        contexts.append((relevant, frozenset(i for i in relevant if generator.random() < 0.5)))
    return contexts


@pytest.mark.parametrize("seed", range(6))
def test_contexts_within_the_enclosing_loops_tell_apart_the_same_orders(seed):
    """A group's contexts reduced to its enclosing loops (and those every order reads alike
    dropped) share solutions between exactly the orders the full contexts share them."""
    from spf.scheduling.autoscheduler.search import _within
    contexts = _contexts(8, seed)
    for bound in ("ijkl", "ikm", "jl"):
        assert _orders_told_apart(_within(set(contexts), frozenset(bound)), bound) == \
            _orders_told_apart(contexts, bound)


@pytest.mark.parametrize("seed", range(6))
def test_a_part_reads_the_loops_outside_its_fused_ones_through_the_contexts_seen_through(seed):
    """Two orders of the loops enclosing a branch give a part inside the fused loops the same
    signature exactly when the contexts seen through the fused loops do."""
    import itertools
    from spf.scheduling.autoscheduler.search import _reuse_signature, _seen_through
    contexts = _contexts(6, seed)
    for outer, fused in (("ij", "k"), ("ik", "lm"), ("jkl", "i"), ("ijk", "")):
        seen = tuple(_seen_through(contexts, fused))
        for first, second in itertools.combinations(itertools.permutations(outer), 2):
            for order in itertools.permutations(fused):
                assert (_reuse_signature(tuple(contexts), first + order) ==
                        _reuse_signature(tuple(contexts), second + order)) == \
                    (_reuse_signature(seen, first) == _reuse_signature(seen, second))


def test_a_section_reads_the_enclosing_order_only_through_its_own_contexts():
    """Orders of the enclosing loops with the same signature over a sub-statement's own
    contexts (:func:`_reuse_contexts`) give each of its sections the same body reads (what
    the search prices a section's body by)."""
    import itertools
    from spf.scheduling.autoscheduler.machine_cost import body_reads
    from spf.scheduling.autoscheduler.problem import Operand
    from spf.scheduling.autoscheduler.search import _reuse_contexts, _reuse_signature
    from spf.scheduling.autoscheduler.tree import Statement
    statement = Statement(Operand("Z", ("i", "l")), (Operand("C", ("j", "k", "l")), Operand("D", ("i", "j", "l")),
                                                     Operand("E", ("k", "m"))))
    relevant = frozenset(statement.indices())
    for loops in ("l", "jl", "k", "m", "km"):
        bound = [i for i in "ijklm" if i not in loops]
        contexts = tuple(_reuse_contexts(statement, relevant, frozenset(loops)))
        for first, second in itertools.combinations(itertools.permutations(bound), 2):
            if _reuse_signature(contexts, first) != _reuse_signature(contexts, second):
                continue
            for order in itertools.permutations(loops):
                assert body_reads(order, statement.target, statement.factors, first) == \
                    body_reads(order, statement.target, statement.factors, second)


def test_branches_drop_only_fused_loops_without_a_valid_order():
    """_may_visit_in_order, which _branches asks before a fused set is made a branch, is
    false only for sets of loops with no valid order, and exactly then with one sparse
    factor."""
    import itertools
    from spf.scheduling.autoscheduler.problem import Operand
    from spf.scheduling.autoscheduler.search import _may_visit_in_order, _next_levels, valid_orders
    b = Operand("B", ("i", "j", "k"), levels=("i", "j", "k"), dense_levels=(True, False, False))
    c = Operand("C", ("k", "j", "l"), levels=("k", "j", "l"), dense_levels=(False, False, False))
    d = Operand("D", ("a", "b"))
    for factors in ([d], [b, d], [b, c], [c]):
        for bound in ((), ("i",), ("j",), ("i", "j"), ("k",)):
            levels = _next_levels(factors, bound)
            for size in range(5):
                for loops in itertools.combinations([i for i in "abijkl" if i not in bound], size):
                    ordered = any(True for _ in valid_orders(loops, factors, bound))
                    assert _may_visit_in_order(loops, levels) or not ordered
                    if sum(f.sparse for f in factors) == 1:
                        assert _may_visit_in_order(loops, levels) == ordered


@pytest.mark.parametrize("seed", range(8))
def test_pairs_left_out_of_a_table_change_no_promising_row(seed):
    """The table of the pairs _may_be_promising keeps has the promising rows of the whole
    table (the same trees, in the same order), on random parts with ties and infinities."""
    from spf.scheduling.autoscheduler.search import _may_be_promising, _Solved, _tables
    generator = np.random.default_rng(seed)
    probes = 5

    def solved() -> _Solved:
        rows = int(generator.integers(1, 5))
        works = generator.integers(1, 6, (rows, probes)).astype(float)
        memories = generator.integers(0, 4, (rows, probes)).astype(float)
        works[generator.random(works.shape) < 0.05] = np.inf
        return _Solved([None] * rows, works, memories)
    parts = [solved() for _ in range(6)]
    for _ in range(20):
        sections = [generator.integers(5, 40, probes).astype(float) for _ in range(generator.integers(0, 3))]
        pairs = [(parts[generator.integers(6)], parts[generator.integers(6)],
                  generator.integers(0, 3, probes).astype(float), generator.integers(1, 4, probes).astype(float),
                  generator.integers(0, 2, probes).astype(float), generator.integers(0, 3, probes).astype(float))
                 for _ in range(generator.integers(1, 30))]
        rows = [(None, k) for k in range(len(sections))] + \
            [(p, k) for p, (first, second, *_) in enumerate(pairs) for k in range(len(first.works) * len(second.works))]
        kept = [rows[k] for k in _promising(*_tables(sections, pairs, probes))]
        chosen = _may_be_promising(sections, pairs)
        left = [(None, k) for k in range(len(sections))] + \
            [(p, k) for p in chosen for k in range(len(pairs[p][0].works) * len(pairs[p][1].works))]
        assert [left[k] for k in _promising(*_tables(sections, [pairs[p] for p in chosen], probes))] == kept
