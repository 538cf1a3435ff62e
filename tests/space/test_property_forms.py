"""Each index-array property in its three forms agrees on concrete tables.

(a) affine instances for the set algebra, (b) Z3 instances, (c) the run-time check:
for random tables, the run-time check accepts exactly the tables with the property, the
Z3 instances over every pair of positions are satisfiable exactly then, and the set
algebra derives the emptiness the property implies.
"""

from __future__ import annotations

import itertools

import numpy as np
import z3
from hypothesis import given, settings, strategies as st

from spf.space.expressions import Affine
from spf.space.properties import CovaryingMonotonic, Injective, Monotonic, PeriodicMonotonic, Range
from spf.space.sets import UFSet

values = st.lists(st.integers(-3, 6), min_size=0, max_size=7)


def holds_by_definition(prop, arrays) -> bool:
    """The property's definition (Table 1), by brute force over positions."""
    f = arrays[prop.arrays[0]]
    positions = range(len(f))
    if isinstance(prop, Range):
        return all(0 <= f[x] < 5 for x in positions)
    if isinstance(prop, Injective):
        tuples = list(zip(*(arrays[a] for a in prop.arrays)))
        return len(set(tuples)) == len(tuples)
    if isinstance(prop, CovaryingMonotonic):
        tuples = list(zip(*(arrays[a] for a in prop.arrays)))
        ordered = all((a < b) if prop.increasing else (a > b) for a, b in zip(tuples, tuples[1:]))
        return ordered
    ok = (lambda a, b: a < b) if prop.increasing and prop.strict else \
         (lambda a, b: a <= b) if prop.increasing else \
         (lambda a, b: a > b) if prop.strict else (lambda a, b: a >= b)
    if isinstance(prop, Monotonic):
        return all(ok(f[x], f[y]) for x, y in itertools.combinations(positions, 2))
    pointer = arrays[prop.arrays[1]]
    return all(ok(f[x], f[y]) for k in range(len(pointer) - 1)
               for x, y in itertools.combinations(range(pointer[k], pointer[k + 1]), 2))


def z3_consistent(prop, arrays) -> bool:
    """The Z3 instances over all positions, with the table's values asserted, are satisfiable."""
    functions = {name: z3.Function(name, z3.IntSort(), z3.IntSort()) for name in prop.arrays}
    solver = z3.Solver()
    for name in prop.arrays:
        for position, value in enumerate(arrays[name]):
            solver.add(functions[name](position) == int(value))
    positions = [(z3.IntVal(p),) for p in range(len(arrays[prop.arrays[0]]))]
    segments = [z3.IntVal(k) for k in range(len(arrays[prop.arrays[1]]) - 1)] \
        if isinstance(prop, PeriodicMonotonic) else []
    constants = {}
    solver.add(*prop.z3_instances(functions, constants, positions, segments))
    return solver.check() == z3.sat


def check_all_forms(prop, arrays):
    expected = holds_by_definition(prop, arrays)
    assert (prop.check(arrays, {}) is None) == expected
    assert z3_consistent(prop, arrays) == expected


KINDS = [Monotonic(("f",), True, True), Monotonic(("f",), True, False), Monotonic(("f",), False, True),
         Monotonic(("f",), False, False), Injective(("f",)), Range(("f",), Affine.of(0), Affine.of(5))]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(values, st.sampled_from(KINDS))
def test_single_array_properties(table, prop):
    check_all_forms(prop, {"f": np.array(table, dtype=np.int64)})


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=6), st.booleans())
def test_pair_properties(pairs, increasing):
    rows = np.array([p[0] for p in pairs], dtype=np.int64)
    columns = np.array([p[1] for p in pairs], dtype=np.int64)
    arrays = {"row": rows, "col": columns}
    check_all_forms(Injective(("row", "col")), arrays)
    check_all_forms(CovaryingMonotonic(("row", "col"), increasing), arrays)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(0, 5), max_size=3), min_size=1, max_size=4), st.booleans(), st.booleans())
def test_periodic_with_pointer_array(segments, increasing, strict):
    pointer = np.array([0] + list(itertools.accumulate(len(s) for s in segments)), dtype=np.int64)
    column = np.array([v for s in segments for v in s], dtype=np.int64)
    check_all_forms(PeriodicMonotonic(("col", "ptr"), increasing, strict), {"col": column, "ptr": pointer})


def test_set_algebra_instances_give_the_implied_emptiness():
    dependence = UFSet.parse("[n] -> { [p, q] : 0 <= p < q < n and rowIdx(p) = rowIdx(q) }")
    assert not dependence.is_empty()
    assert dependence.with_properties([Monotonic(("rowIdx",))]).is_empty()
    assert dependence.with_properties([Injective(("rowIdx",))]).is_empty()
    segment = UFSet.parse("{ [k, a, b] : rowPtr(k) <= a < b < rowPtr(k + 1) and col(a) >= col(b) }")
    assert segment.with_properties([PeriodicMonotonic(("col", "rowPtr"))]).is_empty()
    pairs = UFSet.parse("{ [r, a, b] : 0 <= a < b < 2 and meta(r, a) >= meta(r, b) }")
    assert pairs.with_properties([PeriodicMonotonic(("meta",), period=2)]).is_empty()
    across = UFSet.parse("{ [r, a, b] : 1 <= a < b < 3 and meta(r, a) >= meta(r, b) }")
    assert not across.with_properties([PeriodicMonotonic(("meta",), period=2)]).is_empty()
    coo = UFSet.parse("{ [a, b] : a < b and row(a) = row(b) and col(a) >= col(b) }")
    assert coo.with_properties([CovaryingMonotonic(("row", "col"))]).is_empty()
    bounded = UFSet.parse("{ [a] : f(a) >= 5 }").with_properties([Range(("f",), Affine.of(0), Affine.of(5))])
    assert bounded.is_empty()


def test_quantified_axioms_are_valid_formulas():
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    solver = z3.Solver()
    solver.add(Monotonic(("f",)).z3_axiom({"f": f}, {}))
    solver.add(f(1) >= f(2))
    assert solver.check() == z3.unsat
    renamed = Range(("colIdx",), Affine.of(0), Affine.of("numCols")).renamed({"colIdx": "A_colIdx",
                                                                           "numCols": "A_numCols"})
    assert renamed.text == "range(A_colIdx, 0, A_numCols)"
