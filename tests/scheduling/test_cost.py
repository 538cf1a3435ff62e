"""Cost polynomials (spf.scheduling.autoscheduler.cost): products and sums stay canonical,
whichever operand has one term (the search's fast path) and whichever comes first."""

from __future__ import annotations

import itertools
import random

import pytest

from spf.scheduling.autoscheduler.cost import Cost

SYMBOLS = ["I", "K", "nnz_B", "nnz_B_i", "c_walk", "miss_K*L"]


def random_cost(generator: random.Random, terms: int) -> Cost:
    total = Cost.zero()
    for _ in range(terms):
        symbols = generator.sample(SYMBOLS, generator.randint(0, 3))
        divide = generator.sample(SYMBOLS, generator.randint(0, 1))
        monomial = Cost.of(symbols, divide)
        for _ in range(generator.randint(1, 3)):
            total = total + monomial
    return total


def expanded_product(first: Cost, second: Cost) -> dict:
    """The product term by term, as exponent dictionaries (no canonical form involved)."""
    result: dict = {}
    for (m1, c1), (m2, c2) in itertools.product(first.terms, second.terms):
        powers = dict(m1)
        for symbol, exponent in m2:
            powers[symbol] = powers.get(symbol, 0) + exponent
        key = frozenset((s, e) for s, e in powers.items() if e)
        result[key] = result.get(key, 0) + c1 * c2
    return {k: c for k, c in result.items() if c}


@pytest.mark.parametrize("seed", range(40))
def test_products_and_sums_are_canonical(seed):
    generator = random.Random(seed)
    a, b, c = (random_cost(generator, generator.choice([0, 1, 1, 2, 4])) for _ in range(3))
    assert a * b == b * a
    assert (a * b) * c == a * (b * c)
    assert (a + b) + c == a + (b + c) == c + (b + a)
    assert a * (b + c) == a * b + a * c
    product = a * b
    assert {frozenset(m): coefficient for m, coefficient in product.terms} == expanded_product(a, b)
    assert list(product.terms) == sorted(product.terms)
    assert all(coefficient > 0 for _, coefficient in product.terms)


def test_of_terms_drops_zero_coefficients_and_sorts():
    k, i = (("K", 1),), (("I", 1),)
    assert Cost.of_terms({k: 2, i: 0, (): 1}) == Cost.of() + Cost.of(["K"]) + Cost.of(["K"])
    assert Cost.of_terms({}) == Cost.zero()
