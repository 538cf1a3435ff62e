"""UF sets against brute force: random constraints with UF calls, random UF tables.

Every set here lives in the box 0 <= x, y < BOX; a point belongs when the formula,
evaluated with the concrete tables, holds.  The set algebra must agree point for point.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from spf.space.expressions import And, Constraint, Exists, Not, Or, UFCall, parse_formula_text
from spf.space.sets import UFSet

BOX = 5
VARIABLES = ("x", "y")
TABLE_SIZE = 3 * BOX + 4  # arguments stay within [-BOX, 2*BOX + 3]
OFFSET = BOX  # table index = argument + OFFSET


def table_function(values):
    return lambda argument: int(values[int(argument) + OFFSET])


terms = st.sampled_from(["x", "y", "x + 1", "y - 1", "2*x", "x + y", "1", "0", "3"])
calls = st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["f", "g"]), terms)
nested = st.builds(lambda a: f"f(g({a}))", st.sampled_from(["x", "y"]))
sides = st.one_of(terms, calls, nested)
relations = st.sampled_from(["=", "!=", "<", "<=", ">", ">="])
atoms = st.builds(lambda l, op, r: f"{l} {op} {r}", sides, relations, sides)
conjunctions = st.lists(atoms, min_size=1, max_size=3).map(" and ".join)
formulas = st.lists(conjunctions, min_size=1, max_size=2).map(lambda parts: " or ".join(f"({p})" for p in parts))
tables = st.lists(st.integers(-2, 6), min_size=TABLE_SIZE, max_size=TABLE_SIZE)


def evaluate(formula, values: dict, functions: dict) -> bool:
    """The formula's truth at a point, computed directly (the reference)."""
    if isinstance(formula, Constraint):
        left = formula.left.evaluate(values, functions)
        right = formula.right.evaluate(values, functions)
        return {"=": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
                ">": left > right, ">=": left >= right}[formula.op]
    if isinstance(formula, And):
        return all(evaluate(p, values, functions) for p in formula.parts)
    if isinstance(formula, Or):
        return any(evaluate(p, values, functions) for p in formula.parts)
    if isinstance(formula, Not):
        return not evaluate(formula.part, values, functions)
    raise AssertionError(f"no reference evaluation for {type(formula).__name__}")


def in_box(text: str) -> str:
    return f"0 <= x < {BOX} and 0 <= y < {BOX} and ({text})"


def brute_force(text: str, functions: dict) -> set:
    formula = parse_formula_text(in_box(text))
    return {point for point in itertools.product(range(BOX), repeat=2)
            if evaluate(formula, dict(zip(VARIABLES, point)), functions)}


def points(uf_set: UFSet, functions: dict) -> set:
    return set(uf_set.points({}, functions))


def build(text: str) -> UFSet:
    return UFSet.parse(f"{{ [x, y] : {in_box(text)} }}")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(formulas, tables, tables)
def test_points_match_brute_force(text, f_values, g_values):
    functions = {"f": table_function(f_values), "g": table_function(g_values)}
    assert points(build(text), functions) == brute_force(text, functions)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(formulas, formulas, tables, tables)
def test_intersect_union_subtract(first, second, f_values, g_values):
    functions = {"f": table_function(f_values), "g": table_function(g_values)}
    a, b = build(first), build(second)
    expected_a, expected_b = brute_force(first, functions), brute_force(second, functions)
    assert points(a.intersect(b), functions) == expected_a & expected_b
    assert points(a.union(b), functions) == expected_a | expected_b
    assert points(a.subtract(b), functions) == expected_a - expected_b


@settings(max_examples=40, deadline=None, derandomize=True)
@given(formulas, tables, tables)
def test_projection_keeps_existential_meaning(text, f_values, g_values):
    functions = {"f": table_function(f_values), "g": table_function(g_values)}
    as_relation = UFSet.parse(f"{{ [x] -> [y] : {in_box(text)} }}")
    expected = brute_force(text, functions)
    assert {p for (p,) in as_relation.domain().points({}, functions)} == {x for x, _ in expected}
    assert {p for (p,) in as_relation.range().points({}, functions)} == {y for _, y in expected}
    projected = build(text).project_out(["y"])
    assert {p for (p,) in projected.points({}, functions)} == {x for x, _ in expected}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(formulas, formulas, tables, tables)
def test_inclusion_is_sound(first, second, f_values, g_values):
    """When is_subset says yes, inclusion holds for every table, this one included."""
    functions = {"f": table_function(f_values), "g": table_function(g_values)}
    if build(first).is_subset(build(second)):
        assert brute_force(first, functions) <= brute_force(second, functions)
    if build(first).is_empty():
        assert not brute_force(first, functions)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(tables)
def test_composition_with_uf_relation(f_values):
    """apply_range through a UF relation equals composing the point relations."""
    functions = {"f": table_function(f_values)}
    shift = UFSet.parse(f"{{ [x] -> [y] : 0 <= x < {BOX} and y = f(x) }}")
    square = UFSet.parse(f"{{ [y] -> [z] : 0 <= y < {BOX} and 0 <= z <= y }}")
    composed = shift.apply_range(square)
    expected = {(x, z) for x in range(BOX) for z in range(BOX)
                if 0 <= functions["f"](x) < BOX and 0 <= z <= functions["f"](x)}
    assert set(composed.points({}, functions)) == expected
    image = shift.apply(UFSet.parse(f"{{ [x] : 1 <= x < 3 }}"))
    assert {y for (y,) in image.points({}, functions)} == \
        {functions["f"](x) for x in (1, 2)}


def test_functional_consistency_decides_emptiness():
    assert UFSet.parse("{ [x, y] : x = y and f(x) != f(y) }").is_empty()
    assert UFSet.parse("{ [x, y] : x = y + 1 and f(x - 1) != f(y) }").is_empty()
    assert not UFSet.parse("{ [x, y] : f(x) != f(y) }").is_empty()
    assert UFSet.parse("{ [x, y] : x = y and f(g(x)) != f(g(y)) }").is_empty()
    assert UFSet.parse("{ [x, y] : f(x) = 0 and x = y }").is_subset(UFSet.parse("{ [x, y] : f(y) = 0 }"))
    # only a case split shows this one: x = y or not, and f is a function either way
    assert UFSet.parse("{ [x, y] : 0 <= x <= 1 and y = 1 and f(x) > f(y) and f(x) < f(1) }").is_empty()


def test_printing_shows_calls_and_existentials():
    csr = UFSet.parse("[n] -> { [pi, pj] -> [i, j] : 0 <= pi < n and rowPtr(pi) <= pj < rowPtr(pi + 1) "
                      "and i = pi and j = colIdx(pj) }")
    text = str(csr.range())
    assert "exists" in text and "colIdx(e0) = j" in text and "rowPtr(i + 1)" in text
    assert "rowPtr(pi)" in str(csr)


def test_enumeration_uses_array_tables():
    csr = UFSet.parse("[n] -> { [pi, pj, i, j] : 0 <= pi < n and rowPtr(pi) <= pj < rowPtr(pi + 1) "
                      "and i = pi and j = colIdx(pj) }")
    row_pointer, column = np.array([0, 2, 2, 3]), np.array([1, 3, 0])
    found = csr.points({"n": 3}, {"rowPtr": row_pointer, "colIdx": column})
    assert [(p[2], p[3]) for p in found] == [(0, 1), (0, 3), (2, 0)]
