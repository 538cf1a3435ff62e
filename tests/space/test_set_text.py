"""Tests of spf.space.set_text: a UFSet printed back as text that UFSet.parse reads to
the same set, empty and universe sets included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spf.space.sets import UFSet
from tests.space.test_sets import BRUTE_FORCE, points, random_sets, tables

EMPTY_AFTER_PROJECTION = "{[x, y] : 0 <= x and 0 <= y and x < 4 and y < 4 and 0 > x + y}"


def test_empty_projection_prints_false():
    # isl keeps the projection as the conjunction "1 = 0", a constraint on no name
    projected = UFSet.parse(EMPTY_AFTER_PROJECTION).project_out(["x"])
    assert projected.is_empty()
    assert str(projected) == "{ [y] : false }"
    assert UFSet.parse(str(projected)).is_empty()


def test_universe_prints_true_and_parses_back():
    universe = UFSet.universe(["a", "b"])
    assert str(universe) == "{ [a, b] : true }"
    again = UFSet.parse(str(universe))
    assert not again.is_empty() and again.is_equal(universe)


def test_empty_disjunct_is_left_out():
    # one disjunct empty (after projection), the other not: only the other is printed
    empty = UFSet.parse(EMPTY_AFTER_PROJECTION).project_out(["x"])
    nonempty = UFSet.parse("{ [y] : 0 <= y < 2 }")
    union = empty.union(nonempty)
    assert "false" not in str(union)
    assert UFSet.parse(str(union)).is_equal(nonempty)


@settings(BRUTE_FORCE, max_examples=40)
@given(random_sets(depth=1, most=2), tables(), st.data())
def test_printed_text_parses_back_with_its_emptiness(drawn, functions, data):
    variables, _, uf_set = drawn
    projected_out = data.draw(st.lists(st.sampled_from(variables), unique=True, max_size=len(variables) - 1),
                              label="projected out")
    uf_set = uf_set.project_out(projected_out)
    again = UFSet.parse(str(uf_set))
    assert again.variables == uf_set.variables
    assert again.is_empty() == uf_set.is_empty()
    if not uf_set.hidden:  # is_subset is only sound (not exact) with existential variables
        assert again.is_equal(uf_set)
    assert points(again, functions) == points(uf_set, functions)
