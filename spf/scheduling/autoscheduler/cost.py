"""Symbolic costs of schedule trees (SparseAuto section 6).

Time is the number of loop iterations: the sum over the tree's leaves of the product
of the trip counts on the path to the leaf.  A dense loop over ``k`` runs ``K``
times.  A loop over level ``d`` of a sparse operand ``B`` runs, on average,
``count(B, d) / count(B, d - 1)`` times, where ``count(B, d)`` is the number of
stored prefixes of B's first ``d + 1`` levels: ``nnz_B`` for all levels,
``nnz_B_ij`` for the levels of ``i`` and ``j``, and the product of the extents when
every level up to ``d`` is dense (a CSR row level runs ``I`` times).  Walking a
tensor's levels one after another telescopes to the count of the deepest level.

Memory is the sum, over temporaries, of the product of their extents (a scalar
counts 0, as in SparseAuto's listing).

Costs are sums of monomials with positive integer coefficients, where a monomial may
divide (trip ratios).  :class:`Cost` keeps them exact and canonical so that equal
costs compare equal, and offers a sound, cheap *everywhere at most* test (every
coefficient of the difference is non-negative); sympy expressions are produced for
users and Z3 comparisons.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping

import sympy

if TYPE_CHECKING:
    from spf.scheduling.autoscheduler.problem import Operand

Monomial = tuple  # sorted ((symbol, exponent), ...) with exponents != 0


@functools.lru_cache(maxsize=1 << 16)
def _multiply(first: Monomial, second: Monomial) -> Monomial:
    """The product of two monomials (memoised: the search multiplies the same trips and
    machine constants over and over)."""
    if not first:
        return second
    if not second:
        return first
    powers = dict(first)
    for symbol, exponent in second:
        powers[symbol] = powers.get(symbol, 0) + exponent
    return tuple(sorted((s, e) for s, e in powers.items() if e))


@dataclass(frozen=True)
class Cost:
    """A sum of monomials with positive coefficients, canonical (``terms`` sorted)."""

    terms: tuple = ()  # ((monomial, coefficient), ...)

    @staticmethod
    def of(symbols: Iterable[str] = (), divide: Iterable[str] = ()) -> "Cost":
        powers: dict[str, int] = {}
        for s in symbols:
            powers[s] = powers.get(s, 0) + 1
        for s in divide:
            powers[s] = powers.get(s, 0) - 1
        return Cost((((tuple(sorted((s, e) for s, e in powers.items() if e))), 1),))

    @staticmethod
    def zero() -> "Cost":
        return Cost(())

    @staticmethod
    def of_terms(terms: Mapping[Monomial, int]) -> "Cost":
        """The canonical cost of monomials with their coefficients (zero ones dropped)."""
        return Cost(tuple(sorted((m, c) for m, c in terms.items() if c)))

    def _as_dict(self) -> dict:
        return dict(self.terms)

    def __add__(self, other: "Cost") -> "Cost":
        if not other.terms:
            return self
        if not self.terms:
            return other
        total = self._as_dict()
        for monomial, coefficient in other.terms:
            total[monomial] = total.get(monomial, 0) + coefficient
        return Cost.of_terms(total)

    def __mul__(self, other: "Cost") -> "Cost":
        if len(other.terms) == 1 and len(self.terms) > 1:
            return other * self
        if len(self.terms) == 1:
            # one monomial times a canonical sum: distinct monomials stay distinct
            m1, c1 = self.terms[0]
            return Cost.of_terms({_multiply(m1, m2): c1 * c2 for m2, c2 in other.terms})
        total: dict = {}
        for m1, c1 in self.terms:
            for m2, c2 in other.terms:
                m = _multiply(m1, m2)
                total[m] = total.get(m, 0) + c1 * c2
        return Cost.of_terms(total)

    def is_zero(self) -> bool:
        return not self.terms

    def at_most(self, other: "Cost") -> bool:
        """Sound test of ``self <= other`` for every positive value of the symbols."""
        difference = other._as_dict()
        for monomial, coefficient in self.terms:
            difference[monomial] = difference.get(monomial, 0) - coefficient
        return all(c >= 0 for c in difference.values())

    def evaluate(self, values: Mapping[str, float]) -> float:
        total = 0.0
        for monomial, coefficient in self.terms:
            term = float(coefficient)
            for symbol, exponent in monomial:
                term *= float(values[symbol]) ** exponent
            total += term
        return total

    def symbols(self) -> set[str]:
        return {s for m, _ in self.terms for s, _ in m}

    def to_sympy(self) -> sympy.Expr:
        expression = sympy.Integer(0)
        for monomial, coefficient in self.terms:
            term = sympy.Integer(coefficient)
            for symbol, exponent in monomial:
                term *= sympy.Symbol(symbol, positive=True) ** exponent
            expression += term
        return sympy.factor_terms(expression)

    def __str__(self) -> str:
        return str(self.to_sympy()) if self.terms else "0"


def dimension_symbol(index: str) -> str:
    """The extent of index ``k`` is ``K`` (SparseAuto's naming)."""
    return index.upper()


def count_symbols(operand: Operand, depth: int) -> tuple[str, ...]:
    """Symbols whose product counts the stored prefixes of ``operand``'s first ``depth + 1`` levels."""
    if depth < 0:
        return ()
    if all(operand.dense_levels[:depth + 1]):
        return tuple(dimension_symbol(i) for i in operand.levels[:depth + 1])
    if depth == len(operand.levels) - 1:
        return (f"nnz_{operand.name}",)
    return (f"nnz_{operand.name}_{''.join(operand.levels[:depth + 1])}",)


def level_trip(operand: Operand, depth: int) -> Cost:
    """Average trip count of the loop over level ``depth`` of a sparse operand."""
    return Cost.of(*level_trip_symbols(operand, depth))


def level_trip_symbols(operand: Operand, depth: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """:func:`level_trip` as the symbols it multiplies and those it divides by (a product of
    trips is one monomial: the symbols of all its trips)."""
    return count_symbols(operand, depth), count_symbols(operand, depth - 1)


def dense_trip(index: str) -> Cost:
    return Cost.of([dimension_symbol(index)])


def memory_of(indices: Iterable[str]) -> Cost:
    """Elements of a dense temporary over ``indices`` (a scalar counts 0)."""
    indices = list(indices)
    return Cost.of([dimension_symbol(i) for i in indices]) if indices else Cost.zero()
