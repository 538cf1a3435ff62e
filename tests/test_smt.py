"""spf.smt: Z3 questions are bounded by a resource count, so their answers do not
depend on how loaded the machine is (the dependence tests built on them are in
test_dependences.py)."""

from __future__ import annotations

import z3

from spf.smt import RESOURCE_LIMIT, unsatisfiable


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
