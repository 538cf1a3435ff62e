"""Semirings by name (spf.notation.semirings) and the proof of when padding adds nothing."""

from __future__ import annotations

import math

import pytest

from spf.errors import SpfError
from spf.notation.semirings import MONOIDS, OPERATORS, padding_contributes, semiring


def test_every_monoid_and_operator_combine():
    for monoid in MONOIDS:
        for operator in OPERATORS:
            ring = semiring(f"{monoid}_{operator}")
            assert (ring.add.name, ring.multiply.name) == (monoid, operator)
    assert semiring("plus_times").arithmetic and not semiring("min_plus").arithmetic


def test_identities_are_graphblas_ones():
    assert semiring("min_plus").add.identity == math.inf
    assert semiring("max_times").add.identity == -math.inf
    assert semiring("plus_times").add.identity == 0.0 and semiring("land_lor").add.identity == 1.0


@pytest.mark.parametrize("name", ["min", "min_", "_plus", "minplus", "min_divide", "plus_times_x"])
def test_an_unknown_name_lists_the_parts(name):
    with pytest.raises(SpfError, match=r"unknown semiring .*monoid one of plus, times, min"):
        semiring(name)


@pytest.mark.parametrize("name, contributes", [
    ("plus_times", False), ("lor_land", False), ("plus_land", False), ("lor_times", False), ("any_times", False),
    ("min_plus", True), ("max_times", True), ("plus_pair", True), ("plus_first", True), ("plus_min", True),
    ("times_times", True), ("land_lor", True), ("max_plus", True),
])
def test_padding_contributes_unless_zero_annihilates_into_the_identity(name, contributes):
    """plus_min: min(0, x) is 0 only for x >= 0, so Z3 finds an x that breaks it; any keeps
    the first value that is not 0, so a padding's product 0 is passed over."""
    assert padding_contributes(semiring(name)) is contributes


def test_terminal_values_are_proven_final_and_only_where_they_are():
    from spf.notation.semirings import MONOIDS, Monoid, terminal_proven
    assert {name for name, monoid in MONOIDS.items() if terminal_proven(monoid)} == {"any", "lor", "land"}
    wrong = Monoid("plus", 0.0, "+", None, "+", lambda a, b: a + b, "nonzero")  # a nonzero sum still changes
    assert not terminal_proven(wrong)
