"""spf.space.smt: Z3 questions are bounded by a resource count, so their answers do not
depend on how loaded the machine is (the dependence tests built on them are in
test_dependences.py)."""

from __future__ import annotations

import pytest
import z3

from spf.errors import IterationSpaceError
from spf.space.sets import UFSet
from spf.space.smt import RESOURCE_LIMIT, Encoder, unsatisfiable


def test_contradictions_are_proven_and_satisfiable_facts_are_not():
    x, y = z3.Ints("x y")
    assert unsatisfiable([x > y, y > x])
    assert not unsatisfiable([x > y, y > 0])


def test_the_limit_is_a_resource_count():
    """Beyond the limit Z3 answers unknown, which counts as satisfiable (not proven), the
    same on every run; a wall-clock timeout would make it depend on the load."""
    x, y = z3.Ints("x y")
    contradiction = [x > y, y > x]
    assert unsatisfiable(contradiction, resource_limit=RESOURCE_LIMIT)
    assert [unsatisfiable(contradiction, resource_limit=1) for _ in range(3)] == [False] * 3


def test_a_set_with_integer_divisions_is_refused_as_an_iteration_space_error():
    """A stride (an integer division in isl) has no Z3 encoding here: a refusal, not a ValueError."""
    strided = UFSet.parse("{[i] : exists(k : 0 <= i < N and i = 2 k)}")
    with pytest.raises(IterationSpaceError, match="integer divisions"):
        Encoder().uf_set(strided)
