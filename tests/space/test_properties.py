"""Tests of spf.space.properties: run-time checks of packed arrays, the Z3 axioms and their
instances, and renaming."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from spf.space.expressions import Affine, UFCall, parse_affine_text
from spf.space.properties import CovaryingMonotonic, Injective, Monotonic, PeriodicMonotonic, Range

RANDOM_ARRAYS = settings(max_examples=100, deadline=None)


def array(*values) -> np.ndarray:
    return np.array(values, dtype=np.int64)


# ----------------------------------------------------------------------------- check(): examples


class TestRangeCheck:
    prop = Range(("col",), Affine.of(0), Affine.of("n"))

    def test_values_inside_pass(self):
        assert self.prop.check({"col": array(0, 4, 2, 4)}, {"n": 5}) is None

    @pytest.mark.parametrize("values, message", [
        (array(0, 2, 5, 1), "value 5 at [2] is outside [0, 5)"),
        (array(0, -1, 7), "value -1 at [1] is outside [0, 5)"),
        (np.array([[0, 1], [5, 2]]), "value 5 at [1][0] is outside [0, 5)"),
    ])
    def test_value_outside_is_reported_with_position(self, values, message):
        assert self.prop.check({"col": values}, {"n": 5}) == ("col", message)

    def test_bounds_are_evaluated_with_the_scalars(self):
        bounds = Range(("col",), parse_affine_text("lo - 1"), parse_affine_text("2*n"))
        assert bounds.check({"col": array(1, 9)}, {"lo": 2, "n": 5}) is None
        assert bounds.check({"col": array(1, 10)}, {"lo": 2, "n": 5}) == (
            "col", "value 10 at [1] is outside [1, 10)")

    def test_empty_array_passes(self):
        assert self.prop.check({"col": array()}, {"n": 0}) is None


class TestMonotonicCheck:
    @pytest.mark.parametrize("increasing, strict, good, bad, message", [
        (True, True, array(0, 2, 5), array(0, 2, 2), "r[1] = 2 and r[2] = 2 are not strictly increasing"),
        (True, False, array(0, 2, 2), array(0, 2, 1), "r[1] = 2 and r[2] = 1 are not increasing"),
        (False, True, array(5, 2, 0), array(5, 2, 2), "r[1] = 2 and r[2] = 2 are not strictly decreasing"),
        (False, False, array(5, 2, 2), array(5, 2, 3), "r[1] = 2 and r[2] = 3 are not decreasing"),
    ])
    def test_variants(self, increasing, strict, good, bad, message):
        prop = Monotonic(("r",), increasing=increasing, strict=strict)
        assert prop.check({"r": good}, {}) is None
        assert prop.check({"r": bad}, {}) == ("r", message)

    def test_first_violation_is_reported(self):
        assert Monotonic(("r",)).check({"r": array(0, 3, 1, 0)}, {}) == (
            "r", "r[1] = 3 and r[2] = 1 are not strictly increasing")

    def test_two_dimensional_arrays_are_ordered_along_the_last_dimension(self):
        prop = Monotonic(("m",))
        # row 1 starts below where row 0 ends: rows are independent
        assert prop.check({"m": np.array([[0, 1, 2], [0, 3, 4]])}, {}) is None
        assert prop.check({"m": np.array([[0, 1, 2], [3, 3, 4]])}, {}) == (
            "m", "m[1][0] = 3 and m[1][1] = 3 are not strictly increasing")
        # columns need not be ordered
        assert prop.check({"m": np.array([[5, 6], [0, 1]])}, {}) is None

    @pytest.mark.parametrize("values", [array(), array(7), np.zeros((3, 0), dtype=np.int64),
                                        np.zeros((0, 4), dtype=np.int64)])
    def test_empty_and_single_entries_pass(self, values):
        assert Monotonic(("r",)).check({"r": values}, {}) is None


class TestPeriodicMonotonicCheck:
    csr = PeriodicMonotonic(("col", "rowPtr"))
    row_pointer = array(0, 2, 2, 5)  # rows of 2, 0 and 3 entries

    def test_sorted_within_rows_passes_even_when_rows_restart(self):
        assert self.csr.check({"col": array(1, 3, 0, 2, 4), "rowPtr": self.row_pointer}, {}) is None

    def test_violation_names_positions_values_and_segment(self):
        assert self.csr.check({"col": array(1, 3, 0, 4, 2), "rowPtr": self.row_pointer}, {}) == (
            "col", "col[3] = 4 and col[4] = 2 are not strictly increasing within segment 2 of rowPtr")

    def test_weak_and_decreasing_variants(self):
        weak = PeriodicMonotonic(("col", "rowPtr"), strict=False)
        assert weak.check({"col": array(1, 1, 0, 0, 4), "rowPtr": self.row_pointer}, {}) is None
        assert self.csr.check({"col": array(1, 1, 0, 0, 4), "rowPtr": self.row_pointer}, {})[0] == "col"
        decreasing = PeriodicMonotonic(("col", "rowPtr"), increasing=False)
        assert decreasing.check({"col": array(3, 1, 4, 2, 0), "rowPtr": self.row_pointer}, {}) is None
        assert decreasing.check({"col": array(3, 1, 4, 2, 2), "rowPtr": self.row_pointer}, {}) == (
            "col", "col[3] = 2 and col[4] = 2 are not strictly decreasing within segment 2 of rowPtr")

    def test_positions_outside_every_segment_are_free(self):
        # the only segment is [1, 3): positions 0 and 3.. belong to none
        pointer = array(1, 3)
        assert self.csr.check({"col": array(9, 0, 1, 0, -5), "rowPtr": pointer}, {}) is None
        assert self.csr.check({"col": array(9, 1, 0, 0), "rowPtr": pointer}, {}) == (
            "col", "col[1] = 1 and col[2] = 0 are not strictly increasing within segment 0 of rowPtr")

    @pytest.mark.parametrize("values, pointer", [(array(), array(0)), (array(), array(0, 0)),
                                                 (array(4), array(0, 1)), (array(3, 2, 1), array(0))])
    def test_empty_arrays_and_no_segments_pass(self, values, pointer):
        assert self.csr.check({"col": values, "rowPtr": pointer}, {}) is None

    def test_constant_period_one_dimensional(self):
        blocks = PeriodicMonotonic(("v",), period=3)
        assert blocks.check({"v": array(0, 1, 2, 0, 1, 5, 3)}, {}) is None
        assert blocks.check({"v": array(0, 1, 2, 0, 1, 1)}, {}) == (
            "v", "v[4] = 1 and v[5] = 1 break the order within a block of 3")

    def test_constant_period_two_dimensional(self):
        pairs = PeriodicMonotonic(("meta",), period=2)
        assert pairs.check({"meta": np.array([[0, 1, 0, 1], [0, 5, -3, 0]])}, {}) is None
        assert pairs.check({"meta": np.array([[0, 1, 0, 1], [1, 0, 0, 1]])}, {}) == (
            "meta", "meta[1][0] = 1 and meta[1][1] = 0 break the order within a block of 2")

    def test_constant_period_weak_decreasing(self):
        prop = PeriodicMonotonic(("v",), increasing=False, strict=False, period=2)
        assert prop.check({"v": np.array([[1, 1, 3, 0]])}, {}) is None
        assert prop.check({"v": np.array([[1, 1, 0, 3]])}, {}) == (
            "v", "v[0][2] = 0 and v[0][3] = 3 break the order within a block of 2")

    def test_constant_period_empty(self):
        assert PeriodicMonotonic(("v",), period=2).check({"v": array()}, {}) is None


class TestInjectiveCheck:
    def test_single_array(self):
        prop = Injective(("perm",))
        assert prop.check({"perm": array(3, 0, 2, 1)}, {}) is None
        assert prop.check({"perm": array(0, 5, 1, 5)}, {}) == ("perm", "positions 1 and 3 both hold 5")

    def test_coordinate_tuples(self):
        prop = Injective(("row", "col"))
        assert prop.check({"row": array(0, 0, 1, 1), "col": array(0, 1, 0, 1)}, {}) is None
        assert prop.check({"row": array(0, 0, 1, 0), "col": array(1, 2, 1, 2)}, {}) == (
            "row, col", "positions 1 and 3 both hold (0, 2)")

    def test_empty_arrays_pass(self):
        assert Injective(("row", "col")).check({"row": array(), "col": array()}, {}) is None


class TestCovaryingMonotonicCheck:
    def test_sorted_coordinates_pass(self):
        prop = CovaryingMonotonic(("row", "col"))
        assert prop.check({"row": array(0, 0, 1, 1), "col": array(1, 2, 0, 1)}, {}) is None

    @pytest.mark.parametrize("rows, cols, message", [
        (array(0, 0, 1, 1), array(1, 2, 1, 1),
         "entries 2 (1, 1) and 3 (1, 1) are not in strictly increasing lexicographic order"),
        (array(0, 1, 0), array(5, 0, 9),
         "entries 1 (1, 0) and 2 (0, 9) are not in strictly increasing lexicographic order"),
        (array(0, 0), array(2, 1),
         "entries 0 (0, 2) and 1 (0, 1) are not in strictly increasing lexicographic order"),
    ])
    def test_violations(self, rows, cols, message):
        assert CovaryingMonotonic(("row", "col")).check({"row": rows, "col": cols}, {}) == (
            "row, col", message)

    def test_decreasing(self):
        prop = CovaryingMonotonic(("row", "col"), increasing=False)
        assert prop.check({"row": array(1, 1, 0), "col": array(2, 0, 5)}, {}) is None
        assert prop.check({"row": array(1, 1, 0), "col": array(0, 2, 5)}, {}) == (
            "row, col", "entries 0 (1, 0) and 1 (1, 2) are not in strictly decreasing lexicographic order")

    @pytest.mark.parametrize("size", [0, 1])
    def test_short_arrays_pass(self, size):
        prop = CovaryingMonotonic(("row", "col"))
        assert prop.check({"row": np.zeros(size, np.int64), "col": np.zeros(size, np.int64)}, {}) is None


# ----------------------------------------------------------------------------- check(): agrees with loops


def holds(left, op, right) -> bool:
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]


def order_op(increasing: bool, strict: bool) -> str:
    return ("<" if strict else "<=") if increasing else (">" if strict else ">=")


small_values = st.integers(-3, 3)
one_dimensional = st.lists(small_values, max_size=12).map(lambda v: np.array(v, dtype=np.int64))


@st.composite
def matrices(draw):
    rows, columns = draw(st.integers(0, 4)), draw(st.integers(0, 6))
    values = draw(st.lists(small_values, min_size=rows * columns, max_size=rows * columns))
    return np.array(values, dtype=np.int64).reshape(rows, columns)


@RANDOM_ARRAYS
@given(st.one_of(one_dimensional, matrices()), st.integers(-3, 1), st.integers(0, 4))
def test_range_check_agrees_with_loop(values, low, width):
    high = low + width
    outside = [index for index in np.ndindex(values.shape) if not low <= values[index] < high]
    result = Range(("a",), Affine.of(low), Affine.of(high)).check({"a": values}, {})
    if not outside:
        assert result is None
    else:
        position = "".join(f"[{k}]" for k in outside[0])
        assert result == ("a", f"value {values[outside[0]]} at {position} is outside [{low}, {high})")


@RANDOM_ARRAYS
@given(st.one_of(one_dimensional, matrices()), st.booleans(), st.booleans())
def test_monotonic_check_agrees_with_loop(values, increasing, strict):
    op = order_op(increasing, strict)
    rows = values.reshape(1, -1) if values.ndim == 1 else values
    violations = [(r, c) for r in range(rows.shape[0]) for c in range(rows.shape[1] - 1)
                  if not holds(rows[r, c], op, rows[r, c + 1])]
    result = Monotonic(("a",), increasing, strict).check({"a": values}, {})
    if not violations:
        assert result is None
    else:
        r, c = violations[0]
        where = (lambda k: f"[{k}]") if values.ndim == 1 else (lambda k: f"[{r}][{k}]")
        assert result[0] == "a"
        assert result[1].startswith(f"a{where(c)} = {rows[r, c]} and a{where(c + 1)} = {rows[r, c + 1]} ")


@RANDOM_ARRAYS
@given(st.one_of(one_dimensional, matrices()), st.integers(1, 4), st.booleans(), st.booleans())
def test_constant_period_check_agrees_with_loop(values, period, increasing, strict):
    op = order_op(increasing, strict)
    rows = values.reshape(1, -1) if values.ndim == 1 else values
    violations = [(r, c) for r in range(rows.shape[0]) for c in range(rows.shape[1] - 1)
                  if c // period == (c + 1) // period and not holds(rows[r, c], op, rows[r, c + 1])]
    result = PeriodicMonotonic(("a",), increasing, strict, period=period).check({"a": values}, {})
    if not violations:
        assert result is None
    else:
        r, c = violations[0]
        assert result[0] == "a" and f"break the order within a block of {period}" in result[1]
        assert f"= {rows[r, c]} and " in result[1]


@st.composite
def segmented_arrays(draw):
    """Values and a nondecreasing pointer array inside [0, len(values)] (it need not start
    at 0 nor end at the last position)."""
    values = draw(one_dimensional)
    pointer = sorted(draw(st.lists(st.integers(0, len(values)), max_size=6)))
    return values, np.array(pointer, dtype=np.int64)


@RANDOM_ARRAYS
@given(segmented_arrays(), st.booleans(), st.booleans())
def test_pointer_period_check_agrees_with_loop(arrays, increasing, strict):
    values, pointer = arrays
    op = order_op(increasing, strict)
    violations = sorted((x, k) for k in range(len(pointer) - 1)
                        for x in range(pointer[k], pointer[k + 1] - 1)
                        if not holds(values[x], op, values[x + 1]))
    result = PeriodicMonotonic(("a", "p"), increasing, strict).check({"a": values, "p": pointer}, {})
    if not violations:
        assert result is None
    else:
        x, segment = violations[0]
        assert result[0] == "a"
        assert result[1].startswith(f"a[{x}] = {values[x]} and a[{x + 1}] = {values[x + 1]} ")
        assert result[1].endswith(f"within segment {segment} of p")


@st.composite
def coordinate_columns(draw, count):
    size = draw(st.integers(0, 10))
    return [np.array(draw(st.lists(st.integers(0, 2), min_size=size, max_size=size)), dtype=np.int64)
            for _ in range(count)]


@RANDOM_ARRAYS
@given(st.integers(1, 3).flatmap(coordinate_columns))
def test_injective_check_agrees_with_loop(columns):
    names = ("a", "b", "c")[: len(columns)]
    tuples = list(zip(*columns))
    has_duplicate = len(set(tuples)) != len(tuples)
    result = Injective(names).check(dict(zip(names, columns)), {})
    if not has_duplicate:
        assert result is None
        return
    assert result[0] == ", ".join(names)
    first, second = (int(n) for n in re.match(r"positions (\d+) and (\d+) both hold", result[1]).groups())
    assert first < second and tuples[first] == tuples[second]
    shown = tuples[first][0] if len(names) == 1 else tuple(int(v) for v in tuples[first])
    assert result[1].endswith(f"both hold {shown}")


@RANDOM_ARRAYS
@given(st.integers(1, 3).flatmap(coordinate_columns), st.booleans())
def test_covarying_check_agrees_with_loop(columns, increasing):
    names = ("a", "b", "c")[: len(columns)]
    tuples = [tuple(int(v) for v in t) for t in zip(*columns)]
    violations = [x for x in range(len(tuples) - 1)
                  if not (tuples[x] < tuples[x + 1] if increasing else tuples[x] > tuples[x + 1])]
    result = CovaryingMonotonic(names, increasing).check(dict(zip(names, columns)), {})
    if not violations:
        assert result is None
    else:
        x = violations[0]
        assert result == (", ".join(names),
                          f"entries {x} {tuples[x]} and {x + 1} {tuples[x + 1]} are not in strictly "
                          f"{'increasing' if increasing else 'decreasing'} lexicographic order")


# ----------------------------------------------------------------------------- Z3


INT = z3.IntSort()


def z3_function(name: str, arity: int = 1) -> z3.FuncDeclRef:
    return z3.Function(name, *([INT] * arity), INT)


def argument(k: int) -> z3.ExprRef:
    """The k-th argument inside a function definition (for z3.substitute_funs)."""
    return z3.Var(k, INT)


def table(values, otherwise) -> z3.ExprRef:
    """A function body: ``values`` (keyed by argument or argument tuple), else ``otherwise``."""
    body = otherwise
    for key, value in values.items():
        key = key if isinstance(key, tuple) else (key,)
        body = z3.If(z3.And(*[argument(k) == v for k, v in enumerate(key)]), value, body)
    return body


def window(values, otherwise) -> z3.ExprRef:
    """``values`` on positions 0..len-1."""
    return table(dict(enumerate(values)), otherwise)


def is_valid(formula, definitions) -> bool:
    """Whether ``formula`` holds for every integer once the functions are defined."""
    formula = z3.substitute_funs(formula, *definitions.items())
    solver = z3.Solver()
    solver.set("rlimit", 1_000_000)  # a resource count, not a time: the same answer under any load
    solver.add(z3.Not(formula))
    result = solver.check()
    assert result != z3.unknown, solver.reason_unknown()
    return result == z3.unsat


# Outside the windows below, values continue far away so that the property holds for
# every integer (the axioms quantify over all of them).
X = argument(0)
INCREASING_OUTSIDE = z3.If(X < 0, X - 100, X + 100)
DECREASING_OUTSIDE = z3.If(X < 0, 100 - X, -100 - X)

f, g = z3_function("f"), z3_function("g")
m = z3_function("m", 2)
row_pointer = z3_function("rowPtr")
ROW_POINTER = z3.If(X < 0, 0, z3.If(X > 3, 5, window((0, 2, 2, 5), 0)))  # rows of 2, 0, 3


Z3_CASES = {
    "monotonic strict increasing": (
        Monotonic(("f",)), {},
        {f: window((1, 3, 4, 7), INCREASING_OUTSIDE)},
        {f: window((1, 3, 3, 7), INCREASING_OUTSIDE)}),
    "monotonic weak increasing": (
        Monotonic(("f",), strict=False), {},
        {f: window((1, 3, 3, 7), INCREASING_OUTSIDE)},
        {f: window((1, 3, 2, 7), INCREASING_OUTSIDE)}),
    "monotonic strict decreasing": (
        Monotonic(("f",), increasing=False), {},
        {f: window((7, 4, 3, 1), DECREASING_OUTSIDE)},
        {f: window((7, 4, 4, 1), DECREASING_OUTSIDE)}),
    "monotonic along the last dimension": (
        Monotonic(("m",)), {},
        # row 1 lies below row 0: only the order within a row matters
        {m: table({(0, 0): 5, (0, 1): 6, (0, 2): 9, (1, 0): 0, (1, 1): 1, (1, 2): 2},
                  z3.If(argument(1) < 0, argument(1) - 100, argument(1) + 100))},
        {m: table({(0, 0): 5, (0, 1): 6, (0, 2): 9, (1, 0): 0, (1, 1): 2, (1, 2): 1},
                  z3.If(argument(1) < 0, argument(1) - 100, argument(1) + 100))}),
    "periodic within pointer segments": (
        PeriodicMonotonic(("f", "rowPtr")), {},
        {f: window((1, 3, 0, 2, 4), 0), row_pointer: ROW_POINTER},
        {f: window((1, 3, 0, 4, 2), 0), row_pointer: ROW_POINTER}),
    "periodic weak decreasing within pointer segments": (
        PeriodicMonotonic(("f", "rowPtr"), increasing=False, strict=False), {},
        {f: window((3, 1, 4, 4, 0), 0), row_pointer: ROW_POINTER},
        {f: window((1, 3, 4, 4, 0), 0), row_pointer: ROW_POINTER}),
    "periodic with a constant period": (
        PeriodicMonotonic(("m",), period=2), {},
        # blocks [0, 2), [2, 4) of each row; elsewhere the position modulo 2
        {m: table({(0, 0): 0, (0, 1): 5, (0, 2): 1, (0, 3): 2, (1, 0): 3, (1, 1): 4, (1, 2): -1, (1, 3): 0},
                  argument(1) % 2)},
        {m: table({(0, 0): 0, (0, 1): 5, (0, 2): 1, (0, 3): 2, (1, 0): 4, (1, 1): 3, (1, 2): -1, (1, 3): 0},
                  argument(1) % 2)}),
    "injective": (
        Injective(("f",)), {},
        {f: window((2, 0, 3, 1), X)},
        {f: window((2, 0, 2, 1), X)}),
    "injective pairs": (
        Injective(("f", "g")), {},
        {f: window((0, 0, 1, 0), INCREASING_OUTSIDE), g: window((1, 2, 1, 0), 0)},
        {f: window((0, 0, 1, 0), INCREASING_OUTSIDE), g: window((1, 2, 1, 1), 0)}),
    "covarying increasing": (
        CovaryingMonotonic(("f", "g")), {},
        {f: window((0, 0, 1, 1), INCREASING_OUTSIDE), g: window((1, 2, 0, 3), 0)},
        {f: window((0, 0, 1, 1), INCREASING_OUTSIDE), g: window((1, 1, 0, 3), 0)}),
    "covarying decreasing": (
        CovaryingMonotonic(("f", "g"), increasing=False), {},
        {f: window((1, 1, 0, 0), DECREASING_OUTSIDE), g: window((3, 0, 2, 1), 0)},
        {f: window((1, 1, 0, 0), DECREASING_OUTSIDE), g: window((3, 0, 1, 2), 0)}),
    "range": (
        Range(("f",), Affine.of(0), Affine.of("n")), {"n": z3.IntVal(3)},
        {f: window((0, 2, 1, 2), 1)},
        {f: window((0, 2, 3, 2), 1)}),
}


@pytest.mark.parametrize("name", list(Z3_CASES))
def test_z3_axiom_holds_exactly_for_tables_with_the_property(name):
    prop, constants, good, bad = Z3_CASES[name]
    functions = {decl.name(): decl for decl in good}
    axiom = prop.z3_axiom(functions, constants)
    assert is_valid(axiom, good)
    assert not is_valid(axiom, bad)


def positions_for(prop) -> list[tuple[int, ...]]:
    if prop.arrays == ("m",):
        return [(r, c) for r in range(2) for c in range(4)]
    return [(x,) for x in range(5)]


@pytest.mark.parametrize("name", list(Z3_CASES))
def test_z3_instances_hold_on_good_tables_and_catch_bad_ones(name):
    prop, constants, good, bad = Z3_CASES[name]
    functions = {decl.name(): decl for decl in good}
    instances = prop.z3_instances(functions, constants, positions_for(prop), segments=range(3))
    assert instances
    assert all(is_valid(instance, good) for instance in instances)
    assert not is_valid(z3.And(*instances), bad)


def test_z3_instances_with_plain_integer_positions_respect_blocks():
    # positions 0 and 1 share a block of 2, positions 1 and 2 do not
    instances = PeriodicMonotonic(("f",), period=2).z3_instances({"f": f}, {}, [(0,), (1,), (2,)])
    assert not is_valid(z3.And(*instances), {f: window((0, 0, 5), 0)})  # f(0) < f(1) broken
    assert is_valid(z3.And(*instances), {f: window((0, 1, 0), 0)})


def test_z3_instances_on_symbolic_positions_support_reasoning():
    a, b = z3.Ints("a b")
    solver = z3.Solver()
    solver.set("rlimit", 1_000_000)  # a resource count, not a time: the same answer under any load
    solver.add(Monotonic(("f",)).z3_instances({"f": f}, {}, [(a,), (b,)]))
    solver.add(a < b, f(a) >= f(b))
    assert solver.check() == z3.unsat

    solver = z3.Solver()
    solver.add(Injective(("f", "g")).z3_instances({"f": f, "g": g}, {}, [(a,), (b,)]))
    solver.add(a != b, f(a) == f(b), g(a) == g(b))
    assert solver.check() == z3.unsat

    solver = z3.Solver()
    solver.add(PeriodicMonotonic(("f", "rowPtr")).z3_instances(
        {"f": f, "rowPtr": row_pointer}, {}, [(a,), (b,)], segments=[z3.Int("k")]))
    k = z3.Int("k")
    solver.add(row_pointer(k) <= a, a < b, b < row_pointer(k + 1), f(a) >= f(b))
    assert solver.check() == z3.unsat


# ----------------------------------------------------------------------------- renaming and text


def test_renamed_renames_arrays_and_range_constants():
    prop = Range(("col",), Affine.of(0), parse_affine_text("n + 1"))
    renamed = prop.renamed({"col": "A_col", "n": "A_n"})
    assert renamed.arrays == ("A_col",)
    assert renamed.low == Affine.of(0)
    assert renamed.high == parse_affine_text("A_n + 1")
    assert str(renamed) == "range(A_col, 0, A_n + 1)"
    assert renamed.check({"A_col": array(0, 3)}, {"A_n": 3}) is None
    assert renamed.check({"A_col": array(0, 3)}, {"A_n": 2}) == (
        "A_col", "value 3 at [1] is outside [0, 3)")
    assert prop.arrays == ("col",)  # the original is unchanged


def test_renamed_keeps_the_other_fields():
    prop = PeriodicMonotonic(("col", "rowPtr"), increasing=False, strict=False)
    renamed = prop.renamed({"col": "B_col", "rowPtr": "B_rowPtr"})
    assert renamed == PeriodicMonotonic(("B_col", "B_rowPtr"), increasing=False, strict=False)
    blocks = PeriodicMonotonic(("meta",), period=4).renamed({"meta": "C_meta"})
    assert (blocks.arrays, blocks.period) == (("C_meta",), 4)
    assert Monotonic(("r",), strict=False).renamed({"r": "s"}) == Monotonic(("s",), strict=False)
    # names missing from the mapping stay
    assert Injective(("row", "col")).renamed({"col": "c2"}).arrays == ("row", "c2")
    assert CovaryingMonotonic(("row", "col"), False).renamed({"row": "r2"}) == \
        CovaryingMonotonic(("r2", "col"), False)


@pytest.mark.parametrize("prop, text", [
    (Range(("col",), Affine.of(0), Affine.of("n")), "range(col, 0, n)"),
    (Monotonic(("rowIdx",)), "monotonic(rowIdx, increasing, strict)"),
    (Monotonic(("r",), increasing=False, strict=False), "monotonic(r, decreasing, weak)"),
    (PeriodicMonotonic(("col", "rowPtr")), "periodic_monotonic(col, rowPtr, increasing, strict)"),
    (PeriodicMonotonic(("meta",), strict=False, period=2), "periodic_monotonic(meta, 2, increasing, weak)"),
    (Injective(("row", "col")), "injective(row, col)"),
    (CovaryingMonotonic(("row", "col")), "covarying_monotonic(row, col, increasing)"),
])
def test_text(prop, text):
    assert str(prop) == text


# ----------------------------------------------------------------------------- instances for the set algebra


def calls(*texts: str) -> list[UFCall]:
    """UF calls from their text, e.g. ``calls("f(i)", "rowPtr(k + 1)")``."""
    return [parse_affine_text(text).terms[0][0] for text in texts]


def test_monotonic_instances_order_every_pair_of_calls():
    instances = list(Monotonic(("f",)).instances(calls("f(i)", "f(j)", "g(i)")))
    assert [(str(guard), str(consequence)) for guard, consequence in instances] == [
        ("i < j", "f(i) < f(j)"), ("j < i", "f(j) < f(i)")]


def test_pointer_segments_need_both_ends_of_the_segment():
    prop = PeriodicMonotonic(("col", "rowPtr"))
    assert list(prop.instances(calls("col(a)", "col(b)", "rowPtr(k)"))) == []
    instances = list(prop.instances(calls("col(a)", "col(b)", "rowPtr(k)", "rowPtr(k + 1)")))
    assert [str(consequence) for _, consequence in instances] == ["col(a) < col(b)", "col(b) < col(a)"]
    assert str(instances[0][0]) == "rowPtr(k) <= a and a < b and b < rowPtr(k + 1)"


def test_range_instances_bound_every_call():
    prop = Range(("col",), Affine.of(0), Affine.of("n"))
    instances = list(prop.instances(calls("col(p)", "col(q)", "row(p)")))
    assert [str(consequence) for _, consequence in instances] == ["0 <= col(p) and col(p) < n",
                                                                  "0 <= col(q) and col(q) < n"]
