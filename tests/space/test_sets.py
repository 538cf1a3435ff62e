"""Tests of spf.space.sets: integer sets and relations whose constraints call uninterpreted
functions (UFs).

Most checks compare with brute force: a set is built from a random formula over a few
variables in a small box, random concrete tables are chosen for the UFs, and every
integer point of the box is tested by evaluating the formula directly in Python.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from spf.errors import ParseError, SpfError
from spf.space.expressions import Affine, And, Constraint, Exists, Not, Or, UFCall
from spf.space.properties import CovaryingMonotonic, Injective, Monotonic, PeriodicMonotonic, Range
from spf.space.sets import UFSet

BOX = 4
"""Every generated variable lies in [0, BOX)."""
VARIABLES = ("x", "y", "z")
FUNCTIONS = ("f", "g")
OPERATORS = ("=", "!=", "<", "<=", ">", ">=")

BRUTE_FORCE = settings(max_examples=60, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow])
MANY_EXAMPLES = settings(BRUTE_FORCE, max_examples=150)  # for the quicker checks


# ----------------------------------------------------------------------------- UF tables and brute force
# UF tables are callables defined on every integer, so every argument has a value.


@dataclass(frozen=True)
class CyclicTable:
    """A UF over all integers: ``values[v mod len(values)]``."""

    values: tuple[int, ...]

    def __call__(self, v: int) -> int:
        return self.values[v % len(self.values)]


def cyclic(*values: int) -> CyclicTable:
    return CyclicTable(tuple(values))


@dataclass(frozen=True)
class ExtendedTable:
    """``values`` on [low, low + len), continued linearly by ``step`` on both sides."""

    values: tuple[int, ...]
    low: int
    step: int

    def __call__(self, v: int) -> int:
        high = self.low + len(self.values)
        if v < self.low:
            return self.values[0] - (self.low - v) * self.step
        if v >= high:
            return self.values[-1] + (v - high + 1) * self.step
        return self.values[v - self.low]


@dataclass(frozen=True)
class BlockTable:
    """``within[v mod P] + offsets[(v div P) mod len(offsets)]``: ordered within blocks of P."""

    within: tuple[int, ...]
    offsets: tuple[int, ...]

    def __call__(self, v: int) -> int:
        period = len(self.within)
        return self.within[v % period] + self.offsets[(v // period) % len(self.offsets)]


@dataclass(frozen=True)
class WindowTable:
    """``values`` on [0, len); elsewhere ``default`` when given, else ``v - below`` for
    negative v and ``v + above`` past the end."""

    values: tuple[int, ...]
    below: int
    above: int
    default: int | None = None

    def __call__(self, v: int) -> int:
        if 0 <= v < len(self.values):
            return self.values[v]
        if self.default is not None:
            return self.default
        return v - self.below if v < 0 else v + self.above


def compare(left: int, op: str, right: int) -> bool:
    return {"=": left == right, "!=": left != right, "<": left < right,
            "<=": left <= right, ">": left > right, ">=": left >= right}[op]


def holds(formula, values, functions) -> bool:
    """Evaluate a formula at one point; ``exists`` searches the box (bodies bound their
    variables to it)."""
    if isinstance(formula, Constraint):
        return compare(formula.left.evaluate(values, functions), formula.op,
                       formula.right.evaluate(values, functions))
    if isinstance(formula, And):
        return all(holds(part, values, functions) for part in formula.parts)
    if isinstance(formula, Or):
        return any(holds(part, values, functions) for part in formula.parts)
    if isinstance(formula, Not):
        return not holds(formula.part, values, functions)
    assert isinstance(formula, Exists)
    return any(holds(formula.body, {**values, **dict(zip(formula.variables, choice))}, functions)
               for choice in itertools.product(range(BOX), repeat=len(formula.variables)))


def brute_force(variables, formula, functions, constants=None) -> set[tuple[int, ...]]:
    """Every point of the box satisfying the formula."""
    constants = constants or {}
    return {point for point in itertools.product(range(BOX), repeat=len(variables))
            if holds(formula, {**constants, **dict(zip(variables, point))}, functions)}


def points(uf_set: UFSet, functions, constants=None, order=None) -> set[tuple[int, ...]]:
    found = uf_set.points(constants or {}, functions, order)
    assert len(found) == len(set(found)), "points() repeated a point"
    return set(found)


def keep(point_set, positions) -> set[tuple[int, ...]]:
    return {tuple(point[k] for k in positions) for point in point_set}


# ----------------------------------------------------------------------------- strategies


@st.composite
def affine_expressions(draw, variables, depth):
    """A small affine expression, with a UF call (possibly nested) when depth > 0."""
    coefficients = {}
    for name in draw(st.lists(st.sampled_from(variables), max_size=2, unique=True)):
        coefficients[name] = draw(st.sampled_from([-2, -1, 1, 2]))
    if depth > 0 and draw(st.booleans()):
        coefficients[draw(uf_calls(variables, depth - 1))] = draw(st.sampled_from([-1, 1]))
    return Affine.build(coefficients, draw(st.integers(-3, 3)))


@st.composite
def uf_calls(draw, variables, depth):
    return UFCall(draw(st.sampled_from(FUNCTIONS)), (draw(affine_expressions(variables, depth)),))


@st.composite
def comparisons(draw, variables, depth):
    return Constraint(draw(affine_expressions(variables, depth)), draw(st.sampled_from(OPERATORS)),
                      draw(affine_expressions(variables, depth)))


def box(variables) -> tuple[Constraint, ...]:
    return tuple(Constraint(Affine.of(0), "<=", Affine.of(v)) for v in variables) + \
        tuple(Constraint(Affine.of(v), "<", Affine.of(BOX)) for v in variables)


@st.composite
def formulas(draw, variables, depth=2, most=3):
    """The box and 1..most random comparisons, disjunctions of two or negations."""
    parts = list(box(variables))
    for _ in range(draw(st.integers(1, most))):
        kind = draw(st.sampled_from(["comparison", "comparison", "or", "not"]))
        if kind == "comparison":
            parts.append(draw(comparisons(variables, depth)))
        elif kind == "or":
            parts.append(Or((draw(comparisons(variables, depth)), draw(comparisons(variables, depth)))))
        else:
            parts.append(Not(draw(comparisons(variables, depth))))
    return And(tuple(parts))


@st.composite
def tables(draw):
    """Concrete tables for f and g, defined on every integer."""
    return {name: CyclicTable(tuple(draw(st.lists(st.integers(0, BOX), min_size=5, max_size=5))))
            for name in FUNCTIONS}


@st.composite
def random_sets(draw, depth=2, most=3, largest=3):
    """(variables, formula, UFSet) for 1..largest variables."""
    variables = VARIABLES[: draw(st.integers(1, largest))]
    formula = draw(formulas(variables, depth, most))
    note(f"formula over {variables}: {formula}")
    return variables, formula, UFSet.from_formula(variables, formula)


@st.composite
def random_pairs(draw, depth=2, most=3):
    """Two random sets over the same variables."""
    variables = VARIABLES[: draw(st.integers(1, 3))]
    first, second = draw(formulas(variables, depth, most)), draw(formulas(variables, depth, most))
    note(f"first: {first}")
    note(f"second: {second}")
    return variables, first, second


# ----------------------------------------------------------------------------- parsing and printing

CSR = "[n] -> { [pi, pj] : 0 <= pi < n and rowPtr(pi) <= pj < rowPtr(pi + 1) }"


def test_printing_shows_calls_and_constants():
    text = str(UFSet.parse(CSR))
    assert text.startswith("[n] -> { [pi, pj] : ")
    assert "rowPtr(pi)" in text and "rowPtr(pi + 1)" in text
    assert "_" not in text  # no internal dimension names leak


def test_printing_nested_calls():
    uf_set = UFSet.parse("{ [i, j] : j = f(g(i) + 1) }")
    assert "f(g(i) + 1)" in str(uf_set)
    assert sorted(call.function for call in uf_set.call_table.values()) == ["f", "g"]


def test_printing_relation_and_empty_set():
    relation = UFSet.parse("{ [i] -> [j] : 0 <= i < 5 and j = col(i) }")
    assert str(relation).startswith("{ [i] -> [j] : ")
    assert "col(i)" in str(relation)
    assert str(UFSet.parse("{ [i] : 0 <= i < 5 and i > 7 }")) == "{ [i] : false }"


def test_repeated_call_gets_one_dimension():
    uf_set = UFSet.parse("{ [i] : f(i) >= 0 and f(i) < 3 and g(f(i)) = i }")
    assert len(uf_set.calls) == 2
    assert sorted(uf_set.call_text().values()) == ["f(i)", "g(f(i))"]


@pytest.mark.parametrize("text", [
    CSR,
    "{ [i, j] : 0 <= i < 4 and j = f(g(i) + 1) }",
    "{ [i] -> [j] : 0 <= i < 4 and col(i) <= j < col(i + 1) }",
    "{ [i, k] : 0 <= i < 4 and 0 <= k < 3 and m(i, k) != m(k, i) }",
    "{ [i] : 0 <= i < 4 and (f(i) = 0 or f(i + 1) = 2) }",
    "{ [j] : exists (p : 0 <= p < 4 and j = f(p)) }",
])
def test_printed_text_parses_back_to_the_same_set(text):
    uf_set = UFSet.parse(text)
    again = UFSet.parse(str(uf_set))
    assert again.variables == uf_set.variables and again.n_in == uf_set.n_in
    if not uf_set.hidden:  # is_subset is only sound (not exact) with existential variables
        assert again.is_equal(uf_set)
    functions = {"f": cyclic(0, 2, 1), "g": cyclic(1, 1, 0), "col": cyclic(0, 3, 2, 3),
                 "rowPtr": ExtendedTable((0, 2, 2, 5), 0, 0), "m": lambda r, c: (r * c) % 3}
    assert points(again, functions, {"n": 3}) == points(uf_set, functions, {"n": 3})


def test_projection_with_integer_division_prints_as_exists_and_parses_back():
    # projecting y out of x = 2y - 1 leaves "x is odd", an integer division in isl
    projected = UFSet.parse("{ [x, y] : 0 <= x < 8 and 0 <= y < 8 and x = 2y - 1 }").project_out(["y"])
    text = str(projected)
    assert "exists" in text and "mod" not in text and "floor" not in text
    assert points(UFSet.parse(text), {}) == {(1,), (3,), (5,), (7,)}


@pytest.mark.parametrize("text, column, fragment", [
    ("{ [i] : i < }", 13, "expected a number, a name or a call"),
    ("{ [i] : f(i + ) = 0 }", 15, "expected a number, a name or a call"),
    ("{ [i] : f(i = 0 }", 13, "',' or ')'"),
    ("{ [i, i] : i = 0 }", 7, "appears twice"),
    ("{ [i] : i = 0 ", 15, "'}'"),
    ("{ [i] : i * j = 0 }", 13, "not affine"),
    ("{ [i] : i / 2 = 0 }", 11, "division"),
    ("{ [i] : i = 0 } x", 17, "end of text"),
    ("[n] { [i] : i < n }", 5, "'->'"),
    ("{ [i] : i # 0 }", 11, "unexpected character"),
    ("{ [i] : 0 <= i and\n  f(i) = = 0 }", 10, "expected a number, a name or a call"),
])
def test_parse_errors_name_the_column(text, column, fragment):
    with pytest.raises(ParseError) as caught:
        UFSet.parse(text)
    assert caught.value.column == column
    assert fragment in caught.value.message
    assert str(caught.value).startswith(f"column {column}: ")


def test_parse_error_on_second_line_counts_lines():
    with pytest.raises(ParseError) as caught:
        UFSet.parse("{ [i] : 0 <= i and\n  f(i) = = 0 }")
    assert caught.value.line == 2


@pytest.mark.parametrize("text", ["{ [_i] : _i = 0 }", "{ [i] : i < min }", "{ [i] : i < _n }"])
def test_reserved_and_internal_names_are_refused(text):
    with pytest.raises(SpfError):
        UFSet.parse(text)


def test_call_using_a_variable_quantified_under_negation_is_refused():
    with pytest.raises(SpfError, match="negation"):
        UFSet.parse("{ [x] : 0 <= x < 4 and not (exists (w : 0 <= w < 4 and f(w + x) = 0)) }")


# ----------------------------------------------------------------------------- operations on examples


def test_intersect():
    zeros = UFSet.parse("{ [i] : 0 <= i < 10 and f(i) = 0 }")
    upper = UFSet.parse("{ [k] : 5 <= k < 20 }")  # another variable name: aligned by position
    both = zeros.intersect(upper)
    assert both.variables == ("i",)
    assert points(both, {"f": cyclic(0, 1)}) == {(6,), (8,)}
    assert "f(i) = 0" in str(both) or "0 = f(i)" in str(both)


def test_union_and_subtract():
    zeros = UFSet.parse("{ [i] : 0 <= i < 6 and f(i) = 0 }")
    small = UFSet.parse("{ [i] : 0 <= i < 2 }")
    functions = {"f": cyclic(0, 1, 1)}
    assert points(zeros.union(small), functions) == {(0,), (1,), (3,)}
    assert points(zeros.subtract(small), functions) == {(3,)}
    assert points(small.subtract(zeros), functions) == {(1,)}


def test_subtracting_a_set_with_existential_variables_is_refused():
    projected = UFSet.parse("{ [i, p] : 0 <= p < 4 and i = f(p) }").project_out(["p"])
    with pytest.raises(SpfError):
        UFSet.parse("{ [i] : 0 <= i < 4 }").subtract(projected)


def test_combining_different_spaces_is_refused():
    with pytest.raises(SpfError):
        UFSet.parse("{ [i] : i = 0 }").intersect(UFSet.parse("{ [i, j] : i = j }"))
    with pytest.raises(SpfError):
        UFSet.parse("{ [i] -> [j] : i = j }").union(UFSet.parse("{ [i, j] : i = j }"))


def test_project_out_a_call_argument_becomes_existential():
    projected = UFSet.parse(CSR).project_out(["pi"])
    text = str(projected)
    assert projected.variables == ("pj",)
    assert text.startswith("[n] -> { [pj] : exists (e0 : ")
    assert "rowPtr(e0)" in text and "rowPtr(e0 + 1)" in text
    row_pointer = np.array([0, 2, 2, 5])
    assert points(projected, {"rowPtr": row_pointer}, {"n": 3}) == {(p,) for p in range(5)}


def test_project_out_a_plain_variable_leaves_no_existential():
    projected = UFSet.parse("{ [i, j] : 0 <= i < 4 and 0 <= j <= i and f(j) = 1 }").project_out(["i"])
    assert "exists" not in str(projected)
    assert points(projected, {"f": cyclic(1, 0)}) == {(0,), (2,)}


def test_project_out_a_defined_variable_substitutes_its_definition():
    projected = UFSet.parse("{ [i, j] : i = j + 1 and 0 <= j < 4 and f(i) = 0 }").project_out(["i"])
    assert "exists" not in str(projected)
    assert "f(j + 1)" in str(projected)
    assert points(projected, {"f": cyclic(0, 1)}) == {(1,), (3,)}


CSR_RELATION = "[n] -> { [i, p] -> [r, j] : 0 <= i < n and rowPtr(i) <= p < rowPtr(i + 1) " \
               "and r = i and j = col(p) }"
CSR_TABLES = {"rowPtr": np.array([0, 2, 2, 5]), "col": np.array([1, 3, 0, 2, 3])}
CSR_ENTRIES = {(0, 1), (0, 3), (2, 0), (2, 2), (2, 3)}
CSR_POSITIONS = {(0, 0), (0, 1), (2, 2), (2, 3), (2, 4)}


def row_position_column(entries: UFSet) -> tuple[str, ...]:
    """Scanning order row, position, column for (row, column) pairs with a hidden position:
    the position's bounds need the row, and the column needs the position."""
    (position,) = entries.hidden
    row, column = entries.variables
    return row, position, column


def test_relation_domain_range_inverse_wrap():
    relation = UFSet.parse(CSR_RELATION)
    assert relation.is_relation and relation.input == ("i", "p") and relation.output == ("r", "j")
    constants = {"n": 3}
    assert points(relation.domain(), CSR_TABLES, constants) == CSR_POSITIONS
    entries = relation.range()
    assert "exists" in str(entries)  # p is still needed by col(p)
    assert points(entries, CSR_TABLES, constants, row_position_column(entries)) == CSR_ENTRIES
    inverse = relation.inverse()
    assert inverse.input == ("r", "j") and inverse.output == ("i", "p")
    entries = inverse.domain()
    assert points(entries, CSR_TABLES, constants, row_position_column(entries)) == CSR_ENTRIES
    wrapped = relation.wrap()
    assert not wrapped.is_relation and wrapped.variables == ("i", "p", "r", "j")
    column = CSR_TABLES["col"]
    assert points(wrapped, CSR_TABLES, constants) == {(i, p, i, column[p]) for i, p in CSR_POSITIONS}


def test_relation_operations_need_relations():
    a_set = UFSet.parse("{ [i] : 0 <= i < 3 }")
    for operation in (a_set.domain, a_set.range, a_set.inverse, a_set.wrap):
        with pytest.raises(SpfError):
            operation()
    with pytest.raises(SpfError):
        a_set.apply_range(UFSet.parse("{ [i] -> [j] : i = j }"))


def test_apply_range_and_compose_chain_two_relations():
    rows_to_positions = UFSet.parse("[n] -> { [i] -> [p] : 0 <= i < n and rowPtr(i) <= p < rowPtr(i + 1) }")
    positions_to_columns = UFSet.parse("{ [p] -> [j] : j = col(p) }")
    chained = rows_to_positions.apply_range(positions_to_columns)
    assert chained.input == ("i",) and chained.output == ("j",)
    assert "exists" in str(chained) and "col(e0)" in str(chained)
    assert points(chained, CSR_TABLES, {"n": 3}, row_position_column(chained)) == CSR_ENTRIES
    composed = positions_to_columns.compose(rows_to_positions)
    assert points(composed, CSR_TABLES, {"n": 3}, row_position_column(composed)) == CSR_ENTRIES


def test_apply_range_with_clashing_output_name():
    first = UFSet.parse("{ [i] -> [j] : 0 <= i < 3 and j = f(i) }")
    second = UFSet.parse("{ [j] -> [i] : i = j + 1 }")
    chained = first.apply_range(second)
    assert len(set(chained.variables)) == 2
    assert points(chained, {"f": cyclic(2, 0, 1)}) == {(0, 3), (1, 1), (2, 2)}


def test_apply_maps_a_set():
    relation = UFSet.parse("{ [p] -> [j] : j = col(p) }")
    positions = UFSet.parse("{ [q] : 1 <= q < 4 }")
    image = relation.apply(positions)
    assert image.variables == ("j",)
    assert points(image, CSR_TABLES) == {(3,), (0,), (2,)}
    with pytest.raises(SpfError):
        relation.apply(UFSet.parse("{ [a, b] : a = b }"))


def test_product_joins_shared_variables():
    rows = UFSet.parse("[n] -> { [i, p] : 0 <= i < n and rowPtr(i) <= p < rowPtr(i + 1) }")
    columns = UFSet.parse("{ [p, j] : j = col(p) }")
    product = rows.product(columns)
    assert product.variables == ("i", "p", "j")
    assert points(product, CSR_TABLES, {"n": 3}) == {
        (0, 0, 1), (0, 1, 3), (2, 2, 0), (2, 3, 2), (2, 4, 3)}


def test_redundant_constraints_are_not_printed():
    text = str(UFSet.parse("{ [i] : 0 <= i < 10 and i < 20 and -5 <= i and f(i) = 1 }"))
    assert "20" not in text and "5" not in text


def test_simplify_merges_disjuncts():
    halves = UFSet.parse("{ [i] : 0 <= i < 5 and f(i) = 1 }").union(
        UFSet.parse("{ [i] : 5 <= i < 10 and f(i) = 1 }"))
    simplified = halves.simplify()
    assert " or " not in str(simplified)
    functions = {"f": cyclic(0, 1)}
    assert points(simplified, functions) == points(halves, functions) == {(i,) for i in range(1, 10, 2)}


def test_gist_keeps_only_what_the_context_does_not_imply():
    uf_set = UFSet.parse("{ [i] : 0 <= i < 10 and f(i) = 0 }")
    gist = uf_set.gist(UFSet.parse("{ [i] : 0 <= i < 10 }"))
    assert str(gist) in ("{ [i] : f(i) = 0 }", "{ [i] : 0 = f(i) }")


def test_constrain_with_text_and_formula():
    uf_set = UFSet.parse("{ [i] : 0 <= i < 6 }")
    functions = {"f": cyclic(0, 1, 2)}
    assert points(uf_set.constrain("f(i) > 0"), functions) == {(1,), (2,), (4,), (5,)}
    formula = Constraint(Affine.of(UFCall("f", (Affine.of("i"),))), "=", Affine.of(2))
    assert points(uf_set.constrain(formula), functions) == {(2,), (5,)}


def test_decisions_on_examples():
    small = UFSet.parse("{ [i] : 0 <= i < 3 }")
    large = UFSet.parse("{ [i] : 0 <= i < 5 }")
    zeros = UFSet.parse("{ [i] : 0 <= i < 5 and f(i) = 0 }")
    assert small.is_subset(large) and not large.is_subset(small)
    assert zeros.is_subset(large) and not large.is_subset(zeros)
    assert not zeros.is_subset(small)
    assert zeros.is_equal(zeros) and not zeros.is_equal(large)
    assert zeros.is_equal(UFSet.parse("{ [j] : 0 = f(j) and j >= 0 and 4 >= j }"))
    assert UFSet.parse("{ [i] : 0 <= i < 5 and f(i) > f(i) }").is_empty()
    assert not zeros.is_empty()


def test_points_with_numpy_tables_and_contains():
    csr = UFSet.parse("[n] -> { [i, p, j] : 0 <= i < n and rowPtr(i) <= p < rowPtr(i + 1) and j = col(p) }")
    found = points(csr, CSR_TABLES, {"n": 3})
    assert {(i, j) for i, _, j in found} == CSR_ENTRIES
    assert csr.contains({"i": 2, "p": 3, "j": 2}, CSR_TABLES, {"n": 3})
    assert not csr.contains({"i": 2, "p": 3, "j": 3}, CSR_TABLES, {"n": 3})
    assert not csr.contains({"i": 1, "p": 2, "j": 0}, CSR_TABLES, {"n": 3})


# ----------------------------------------------------------------------------- functional consistency


def test_equal_arguments_give_equal_values():
    assert UFSet.parse("{ [x, y] : x = y and f(x) != f(y) }").is_empty()
    assert not UFSet.parse("{ [x, y] : f(x) != f(y) }").is_empty()
    assert not UFSet.parse("{ [x, y] : x = y and f(x) != g(y) }").is_empty()


def test_consistency_makes_inclusion_hold():
    value_at_x = UFSet.parse("{ [x, y] : f(x) = 0 and x = y }")
    value_at_y = UFSet.parse("{ [x, y] : f(y) = 0 }")
    assert value_at_x.is_subset(value_at_y)
    assert not value_at_y.is_subset(value_at_x)


def test_consistency_through_nested_calls():
    assert UFSet.parse("{ [x, y] : x = y and f(g(x)) != f(g(y)) }").is_empty()
    assert UFSet.parse("{ [x, y] : g(x) = g(y) and f(g(x)) != f(g(y)) }").is_empty()
    assert UFSet.parse("{ [x, y] : x + 1 = y and f(x + 1) != f(y) }").is_empty()
    assert not UFSet.parse("{ [x, y] : x = y + 1 and f(g(x)) != f(g(y)) }").is_empty()
    nested = UFSet.parse("{ [x, y] : f(g(x)) = 0 and x = y }")
    assert nested.is_subset(UFSet.parse("{ [x, y] : f(g(y)) = 0 }"))


def test_consistency_with_several_arguments():
    assert UFSet.parse("{ [r, c, s, d] : r = s and c = d and m(r, c) != m(s, d) }").is_empty()
    assert not UFSet.parse("{ [r, c, s, d] : r = s and m(r, c) != m(s, d) }").is_empty()


# ----------------------------------------------------------------------------- brute force, hypothesis


@MANY_EXAMPLES
@given(random_sets(), tables())
def test_points_match_brute_force(case, functions):
    variables, formula, uf_set = case
    expected = brute_force(variables, formula, functions)
    assert points(uf_set, functions) == expected
    printed = str(uf_set)
    note(f"printed: {printed}")
    assert points(UFSet.parse(printed), functions) == expected


@BRUTE_FORCE
@given(random_pairs(), tables())
def test_intersect_union_subtract_simplify_match_brute_force(case, functions):
    variables, first_formula, second_formula = case
    first = UFSet.from_formula(variables, first_formula)
    second = UFSet.from_formula(variables, second_formula)
    first_points = brute_force(variables, first_formula, functions)
    second_points = brute_force(variables, second_formula, functions)
    assert points(first.intersect(second), functions) == first_points & second_points
    assert points(first.union(second), functions) == first_points | second_points
    assert points(first.subtract(second), functions) == first_points - second_points
    assert points(first.simplify(), functions) == first_points


@BRUTE_FORCE
@given(random_pairs(), tables(), st.data())
def test_project_out_matches_brute_force(case, functions, data):
    variables, first_formula, second_formula = case
    dropped = data.draw(st.lists(st.sampled_from(variables), unique=True, max_size=len(variables) - 1))
    kept = [k for k, name in enumerate(variables) if name not in dropped]
    projected = UFSet.from_formula(variables, first_formula).project_out(dropped)
    assert projected.variables == tuple(variables[k] for k in kept)
    expected = keep(brute_force(variables, first_formula, functions), kept)
    assert points(projected, functions) == expected
    printed = str(projected)
    note(f"printed: {printed}")
    assert points(UFSet.parse(printed), functions) == expected
    # projected sets (with their existential variables) combine correctly
    other = UFSet.from_formula(variables, second_formula).project_out(dropped)
    other_expected = keep(brute_force(variables, second_formula, functions), kept)
    assert points(projected.intersect(other), functions) == expected & other_expected
    assert points(projected.union(other), functions) == expected | other_expected


@BRUTE_FORCE
@given(random_pairs(depth=1, most=2), tables())
def test_decisions_are_sound(case, functions):
    """is_subset, is_equal and is_empty hold for every UF table, so for this one."""
    variables, first_formula, second_formula = case
    first = UFSet.from_formula(variables, first_formula)
    second = UFSet.from_formula(variables, second_formula)
    first_points = brute_force(variables, first_formula, functions)
    second_points = brute_force(variables, second_formula, functions)
    if first.is_subset(second):
        assert first_points <= second_points
    if first.is_equal(second):
        assert first_points == second_points
    if first.is_empty():
        assert not first_points
    # inclusions that hold whatever the tables
    assert first.is_subset(first)
    assert first.intersect(second).is_subset(first)
    assert first.is_subset(first.union(second))
    assert first.subtract(second).is_subset(first)
    # gist: what the context does not imply, so gist and context give self and context
    gist = first.gist(second)
    assert points(gist.intersect(second), functions) == first_points & second_points


@st.composite
def relation_shapes(draw):
    """(inputs, middle, outputs) with at most three variables per relation."""
    inputs = draw(st.integers(1, 2))
    middle = draw(st.integers(1, 3 - inputs))
    return inputs, middle, draw(st.integers(1, 3 - middle))


@BRUTE_FORCE
@given(relation_shapes(), tables(), st.data())
def test_relation_operations_match_brute_force(shape, functions, data):
    n_in, n_middle, n_out = shape
    first_variables, second_variables = VARIABLES[: n_in + n_middle], VARIABLES[: n_middle + n_out]
    first_formula = data.draw(formulas(first_variables), label="first relation")
    second_formula = data.draw(formulas(second_variables), label="second relation")
    first = UFSet.from_formula(first_variables, first_formula, n_in=n_in)
    second = UFSet.from_formula(second_variables, second_formula, n_in=n_middle)
    first_points = brute_force(first_variables, first_formula, functions)
    second_points = brute_force(second_variables, second_formula, functions)

    assert points(first, functions) == first_points
    assert points(first.domain(), functions) == {p[:n_in] for p in first_points}
    assert points(first.range(), functions) == {p[n_in:] for p in first_points}
    inverse = first.inverse()
    assert (inverse.n_in, len(inverse.variables)) == (n_middle, n_in + n_middle)
    assert points(inverse, functions) == {p[n_in:] + p[:n_in] for p in first_points}
    assert points(first.wrap(), functions) == first_points

    chained_points = {a[:n_in] + b[n_middle:] for a in first_points for b in second_points
                      if a[n_in:] == b[:n_middle]}
    chained = first.apply_range(second)
    assert (chained.n_in, len(chained.variables)) == (n_in, n_in + n_out)
    assert points(chained, functions) == chained_points
    assert points(second.compose(first), functions) == chained_points
    printed = str(chained)
    note(f"chained: {printed}")
    again = UFSet.parse(printed)
    assert again.n_in == n_in and points(again, functions) == chained_points

    source_formula = data.draw(formulas(VARIABLES[:n_in]), label="applied set")
    source = UFSet.from_formula(VARIABLES[:n_in], source_formula)
    source_points = brute_force(VARIABLES[:n_in], source_formula, functions)
    assert points(first.apply(source), functions) == {p[n_in:] for p in first_points
                                                      if p[:n_in] in source_points}


@BRUTE_FORCE
@given(tables(), st.data())
def test_product_matches_brute_force(functions, data):
    left_formula = data.draw(formulas(("x", "y")), label="over x, y")
    right_formula = data.draw(formulas(("y", "z")), label="over y, z")
    product = UFSet.from_formula(("x", "y"), left_formula).product(
        UFSet.from_formula(("y", "z"), right_formula))
    assert product.variables == ("x", "y", "z")
    left_points = brute_force(("x", "y"), left_formula, functions)
    right_points = brute_force(("y", "z"), right_formula, functions)
    assert points(product, functions) == {(x, y, z) for x, y in left_points
                                          for y2, z in right_points if y == y2}


@st.composite
def formulas_with_exists_and_constant(draw, variables):
    """The box, an ``exists w`` (positive, negated or in a disjunction) and maybe ``x < n``."""
    parts = list(box(variables))
    kind = draw(st.sampled_from(["positive", "negated", "disjunct"]))
    if kind == "negated":
        # calls under a negated exists may not use w (see the refusal test above)
        body = box(("w",)) + (Constraint(Affine.of("w"), draw(st.sampled_from(OPERATORS)),
                                          draw(affine_expressions(variables, 1))),)
        parts.append(Not(Exists(("w",), And(body))))
    else:
        body = box(("w",)) + tuple(draw(st.lists(comparisons(variables + ("w",), 1),
                                                 min_size=1, max_size=2)))
        exists = Exists(("w",), And(body))
        parts.append(exists if kind == "positive" else Or((exists, draw(comparisons(variables, 1)))))
    if draw(st.booleans()):
        parts.append(Constraint(Affine.of(variables[0]), "<", Affine.of("n")))
    formula = And(tuple(parts))
    note(f"formula: {formula}")
    return formula


@BRUTE_FORCE
@given(st.integers(1, 3), st.integers(0, BOX + 1), tables(), st.data())
def test_exists_and_symbolic_constants_match_brute_force(size, n, functions, data):
    variables = VARIABLES[:size]
    formula = data.draw(formulas_with_exists_and_constant(variables))
    uf_set = UFSet.from_formula(variables, formula)
    expected = brute_force(variables, formula, functions, {"n": n})
    assert points(uf_set, functions, {"n": n}) == expected
    assert points(UFSet.parse(str(uf_set)), functions, {"n": n}) == expected


# ----------------------------------------------------------------------------- properties


def ordered_steps(strict: bool, count: int):
    return st.lists(st.integers(1 if strict else 0, 2), min_size=count, max_size=count)


@st.composite
def monotonic_tables(draw):
    increasing, strict = draw(st.booleans()), draw(st.booleans())
    values = list(itertools.accumulate(draw(ordered_steps(strict, 20)), initial=draw(st.integers(-3, 3))))
    sign = 1 if increasing else -1
    table = ExtendedTable(tuple(sign * v for v in values), -10, sign * (1 if strict else 0))
    return Monotonic(("f",), increasing, strict), {"f": table}


@st.composite
def periodic_tables(draw):
    increasing, strict = draw(st.booleans()), draw(st.booleans())
    period = draw(st.integers(1, 3))
    sign = 1 if increasing else -1
    within = tuple(sign * v for v in itertools.accumulate(draw(ordered_steps(strict, period))))
    offsets = tuple(draw(st.lists(st.integers(-3, 3), min_size=4, max_size=4)))
    return (PeriodicMonotonic(("f",), increasing, strict, period=period),
            {"f": BlockTable(within, offsets)})


@st.composite
def segmented_tables(draw):
    """f ordered within each segment [g(k), g(k+1)); g a nondecreasing pointer array."""
    increasing, strict = draw(st.booleans()), draw(st.booleans())
    lengths = draw(st.lists(st.integers(0, 4), min_size=1, max_size=5))
    pointer = tuple(itertools.accumulate(lengths, initial=0))
    sign = 1 if increasing else -1
    values: list[int] = []
    for length in lengths:
        start = draw(st.integers(0, 3))
        values += [sign * v for v in itertools.accumulate(draw(ordered_steps(strict, length)),
                                                          initial=start)][1:]
    functions = {"f": WindowTable(tuple(values), 0, 0, default=draw(st.integers(-2, 5))),
                 "g": ExtendedTable(pointer, 0, 0)}
    return PeriodicMonotonic(("f", "g"), increasing, strict), functions


@st.composite
def injective_tables(draw):
    permutation = tuple(draw(st.permutations(range(12))))
    return Injective(("f",)), {"f": WindowTable(permutation, 0, 0)}


@st.composite
def pair_tables(draw, sort: bool):
    """(f, g) give distinct pairs on [0, N); sorted for CovaryingMonotonic."""
    pairs = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), unique=True, max_size=12))
    if sort:
        pairs.sort()
    functions = {"f": WindowTable(tuple(p[0] for p in pairs), 100, 100),
                 "g": WindowTable(tuple(p[1] for p in pairs), 0, 0, default=0)}
    return (CovaryingMonotonic(("f", "g")) if sort else Injective(("f", "g"))), functions


@st.composite
def range_tables(draw):
    low = draw(st.integers(-2, 2))
    high = low + draw(st.integers(1, 4))
    values = tuple(draw(st.lists(st.integers(low, high - 1), min_size=5, max_size=5)))
    return Range(("f",), Affine.of(low), Affine.of(high)), {"f": CyclicTable(values)}


@st.composite
def tables_with_a_property(draw):
    """A property and tables for f and g that have it (g arbitrary unless it takes part)."""
    prop, functions = draw(st.one_of(monotonic_tables(), periodic_tables(), segmented_tables(),
                                     injective_tables(), pair_tables(sort=False),
                                     pair_tables(sort=True), range_tables()))
    functions.setdefault("g", CyclicTable(tuple(draw(st.lists(st.integers(-2, 5), min_size=5,
                                                              max_size=5)))))
    note(f"property: {prop}")
    return prop, functions


def packed_arrays(prop, functions) -> dict[str, np.ndarray]:
    """The tables as packed arrays on positions 0..23 (a pointer array on 0..6)."""
    arrays = {name: np.array([functions[name](v) for v in range(24)]) for name in prop.arrays}
    if isinstance(prop, PeriodicMonotonic) and prop.period is None:
        pointer = prop.arrays[1]
        arrays[pointer] = np.array([functions[pointer](k) for k in range(7)])
    return arrays


@MANY_EXAMPLES
@given(tables_with_a_property(), st.data())
def test_properties_never_remove_points_of_tables_that_have_them(case, data):
    prop, functions = case
    assert prop.check(packed_arrays(prop, functions), {}) is None  # the tables have it
    variables, formula, uf_set = data.draw(random_sets(depth=1, most=2))
    expected = brute_force(variables, formula, functions)
    with_property = uf_set.with_properties([prop])
    assert points(with_property, functions) == expected
    if with_property.is_empty():
        assert not expected


@pytest.mark.parametrize("text, prop", [
    # DCSR: the row indices of stored rows are strictly increasing
    ("[n] -> { [p, q] : 0 <= p < q < n and rowIdx(p) = rowIdx(q) }", Monotonic(("rowIdx",))),
    ("{ [p, q] : p < q and rowIdx(p) <= rowIdx(q) }", Monotonic(("rowIdx",), increasing=False)),
    ("{ [p, q] : p < q and f(p) > f(q) }", Monotonic(("f",), strict=False)),
    ("{ [i] : rowPtr(i + 1) < rowPtr(i) }", Monotonic(("rowPtr",), strict=False)),
    # CSR: columns sorted within a row
    ("{ [k, a, b] : rowPtr(k) <= a < b < rowPtr(k + 1) and col(a) >= col(b) }",
     PeriodicMonotonic(("col", "rowPtr"))),
    ("{ [k, a, b] : rowPtr(k) <= a < b < rowPtr(k + 1) and col(a) > col(b) }",
     PeriodicMonotonic(("col", "rowPtr"), strict=False)),
    # a constant period, on a 2-D array along its last dimension
    ("{ [r, k, a, b] : 2k <= a < b < 2k + 2 and meta(r, a) >= meta(r, b) }",
     PeriodicMonotonic(("meta",), period=2)),
    ("{ [a, b] : 3 <= a < b < 6 and v(a) <= v(b) }", PeriodicMonotonic(("v",), increasing=False, period=3)),
    # sorted COO
    ("{ [p, q] : p < q and row(p) = row(q) and col(p) = col(q) }", CovaryingMonotonic(("row", "col"))),
    ("{ [p, q] : p < q and row(p) = row(q) and col(p) > col(q) }", CovaryingMonotonic(("row", "col"))),
    ("{ [p, q] : p < q and row(p) > row(q) and col(p) = col(q) }", CovaryingMonotonic(("row", "col"))),
    ("{ [p, q] : p < q and row(p) < row(q) }",
     CovaryingMonotonic(("row",), increasing=False)),
    # injective coordinates
    ("{ [p, q] : p != q and row(p) = row(q) and col(p) = col(q) }", Injective(("row", "col"))),
    ("{ [p, q] : p < q and perm(p) = perm(q) }", Injective(("perm",))),
    # range bounds
    ("[n] -> { [p] : col(p) >= n }", Range(("col",), Affine.of(0), Affine.of("n"))),
    ("[n] -> { [p] : col(p) < 0 }", Range(("col",), Affine.of(0), Affine.of("n"))),
])
def test_properties_make_known_contradictions_empty(text, prop):
    uf_set = UFSet.parse(text)
    assert not uf_set.is_empty()
    assert uf_set.with_properties([prop]).is_empty()


@pytest.mark.parametrize("text, prop", [
    ("[n] -> { [p, q] : 0 <= p < q < n and rowIdx(p) = rowIdx(q) }", Monotonic(("rowIdx",), strict=False)),
    ("{ [k, a, b] : rowPtr(k) <= a < b < rowPtr(k + 2) and col(a) >= col(b) }",
     PeriodicMonotonic(("col", "rowPtr"))),
    ("{ [a, b] : 1 <= a < b < 3 and v(a) >= v(b) }", PeriodicMonotonic(("v",), period=2)),
    ("{ [p, q] : p < q and row(p) < row(q) and col(p) > col(q) }", CovaryingMonotonic(("row", "col"))),
    ("{ [p, q] : p != q and row(p) = row(q) }", Injective(("row", "col"))),
    ("[n] -> { [p] : 0 <= col(p) < n }", Range(("col",), Affine.of(0), Affine.of("n"))),
])
def test_properties_keep_what_they_allow(text, prop):
    assert not UFSet.parse(text).with_properties([prop]).is_empty()


def test_properties_apply_only_to_their_arrays():
    uf_set = UFSet.parse("{ [p, q] : p < q and other(p) = other(q) }")
    assert not uf_set.with_properties([Monotonic(("rowIdx",))]).is_empty()
