"""Semirings: what ``+`` and ``*`` of a statement mean (issue 29).

A statement ``y(i) = A(i,j) * x(j)`` sums products; under a semiring (⊕, ⊗) it reduces
with the monoid ⊕ the values ⊗ gives, with GraphBLAS's semantics: ⊗ applies where every
operand has an entry (a stored position of a sparse operand, any position of a dense
one), ⊕ reduces over those products, an output entry no product reaches holds ⊕'s
identity (a dense output; GraphBLAS would have no entry there).  ``plus_times`` is the
arithmetic spf computes by default.  Names follow GraphBLAS: ``<monoid>_<operator>``, with
the monoids plus, times, min, max, lor, land, any and the operators below; every
combination is a semiring spf compiles.

Where a layout stores padding (ELL's unused slots, BCSR's zeros inside a block), padding
is no entry, but the kernel reads it as a stored zero: it contributes nothing only where
``0 ⊗ x`` and ``x ⊗ 0`` are ⊕'s identity for every x, which :func:`padding_contributes`
asks Z3.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import z3

from spf.errors import SpfError


@dataclass(frozen=True)
class Monoid:
    """⊕: an associative, commutative reduction with its identity (the value of an empty
    reduction).  ``c_operator`` is C's infix operator for it, or None when the C helper
    ``c_function`` (spf_semiring.h) computes it; ``openmp``: OpenMP's reduction identifier."""

    name: str
    identity: float
    c_operator: str | None
    c_function: str | None
    openmp: str
    meaning: Callable  # (z3 a, z3 b) -> z3 term: the monoid over reals, for the proofs
    # a reduction holding a value this says ("nonzero", "zero") is final: ⊕ of anything leaves it
    # (GraphBLAS's terminal value), so a loop reducing into it may stop (spf.codegen.passes.terminal_sum)
    terminal: str | None = None
    truth: bool = False  # its result is a truth value, 0 or 1, even of one operand: identity ⊕ x is not x
    user: UserDefinition | None = None  # a monoid defined by spf.monoid: its C text (and numpy function)


@dataclass(frozen=True)
class Operator:
    """⊗: the binary operator applied to the operands' entries, left to right."""

    name: str
    c_operator: str | None
    c_function: str | None  # the helper in spf_semiring.h where C has no infix operator for it
    meaning: Callable  # (z3 a, z3 b) -> z3 term: the operator over reals, for the proofs
    user: UserDefinition | None = None  # an operator defined by spf.operator


@dataclass(frozen=True)
class UserDefinition:
    """A monoid or operator the user defined (spf.monoid, spf.operator): ``c`` is a C expression
    in ``a`` and ``b`` of the computation's type; ``numpy``, if given, computes it elementwise on
    numpy arrays (for what combines outside generated C: accumulate= into a dense output, the
    ranks of a distributed run)."""

    c: str
    numpy: Callable | None = None

    def text(self) -> str:
        return f"a, b -> {self.c}"

    def combine_into(self, target, value) -> None:
        """``target = target ⊕ value`` in place, by ``numpy`` (a numpy array ``target``; a result it
        cannot hold without rounding is numpy's TypeError)."""
        np.copyto(target, self.numpy(target, value), casting="same_kind")


def _truth(condition):
    return z3.If(condition, z3.RealVal(1), z3.RealVal(0))


MONOIDS = {monoid.name: monoid for monoid in (
    Monoid("plus", 0.0, "+", None, "+", lambda a, b: a + b),
    Monoid("times", 1.0, "*", None, "*", lambda a, b: a * b),
    Monoid("min", math.inf, None, "spf_min", "min", lambda a, b: z3.If(a <= b, a, b)),
    Monoid("max", -math.inf, None, "spf_max", "max", lambda a, b: z3.If(a >= b, a, b)),
    Monoid("lor", 0.0, None, "spf_lor", "||", lambda a, b: _truth(z3.Or(a != 0, b != 0)), "nonzero", truth=True),
    Monoid("land", 1.0, None, "spf_land", "&&", lambda a, b: _truth(z3.And(a != 0, b != 0)), "zero", truth=True),
    # any: one of the values reduced, whichever; the kernel keeps the first that is not 0, so
    # that 0 is its identity (an empty reduction, a register's start, a dense output's fill)
    Monoid("any", 0.0, None, "spf_any", "spf_any", lambda a, b: z3.If(a != 0, a, b), "nonzero"),
)}

OPERATORS = {operator.name: operator for operator in (
    Operator("times", "*", None, lambda a, b: a * b),
    Operator("plus", "+", None, lambda a, b: a + b),
    Operator("minus", "-", None, lambda a, b: a - b),
    Operator("first", None, "spf_first", lambda a, b: a),
    Operator("second", None, "spf_second", lambda a, b: b),
    Operator("pair", None, "spf_pair", lambda a, b: z3.RealVal(1)),
    Operator("min", None, "spf_min", lambda a, b: z3.If(a <= b, a, b)),
    Operator("max", None, "spf_max", lambda a, b: z3.If(a >= b, a, b)),
    Operator("land", None, "spf_land", lambda a, b: _truth(z3.And(a != 0, b != 0))),
    Operator("lor", None, "spf_lor", lambda a, b: _truth(z3.Or(a != 0, b != 0))),
)}


@dataclass(frozen=True)
class Semiring:
    """(⊕, ⊗) by name: ``add`` reduces, ``multiply`` combines the operands' entries."""

    name: str
    add: Monoid
    multiply: Operator

    @property
    def arithmetic(self) -> bool:
        """The default (+, ×): every pass and C form of spf applies as it stands."""
        return self.add.name == "plus" and self.multiply.name == "times"

    def describe(self) -> str:
        """explain()'s line: the two operations, the identity outputs start from, and what
        spf does differently from (+, *)."""
        defined = "".join(f"; {part.name} is the user's: {part.user.text()} (Z3 proves nothing of it)"
                          for part in (self.add, self.multiply) if part.user is not None)
        return (f"{self.name}: ⊕ = {self.add.name} (identity {self.add.identity}, what an output entry no "
                f"product reaches holds), ⊗ = {self.multiply.name}; factors stay inside each reduction "
                f"(no distributivity assumed), bitmap lookups branch (no masked term){defined}")


USER_MONOIDS: dict[str, Monoid] = {}  # spf.monoid's, by name, for this process
USER_OPERATORS: dict[str, Operator] = {}  # spf.operator's


def all_monoids() -> dict[str, Monoid]:
    """The built-in monoids and those spf.monoid defined, by name."""
    return {**MONOIDS, **USER_MONOIDS}


def all_operators() -> dict[str, Operator]:
    """The built-in operators and those spf.operator defined, by name."""
    return {**OPERATORS, **USER_OPERATORS}


def semiring(name: str) -> Semiring:
    """The semiring ``<monoid>_<operator>`` (``min_plus``, ``lor_land``, ``plus_pair``, ...; the
    monoid or the operator may be one the user defined), or an SpfError listing them."""
    if not isinstance(name, str):
        raise SpfError(f"semiring must be a name such as 'min_plus', got {type(name).__name__}")
    monoid, _, operator = name.partition("_")
    monoids, operators = all_monoids(), all_operators()
    if monoid not in monoids or operator not in operators:
        raise SpfError(f"unknown semiring {name!r}: give <monoid>_<operator> with the monoid one of "
                       f"{', '.join(monoids)} and the operator one of {', '.join(operators)} "
                       "(e.g. plus_times, min_plus, lor_land, plus_pair; spf.monoid and spf.operator define more)")
    return Semiring(name, monoids[monoid], operators[operator])


def semiring_key(name: str) -> str:
    """What names a semiring's meaning in a cache key: its name, and the C text of what the user
    defined in it (another process may define the same name otherwise)."""
    ring = semiring(name)
    defined = [f"{part.name}: {part.user.text()} ({getattr(part, 'identity', '')})"
               for part in (ring.add, ring.multiply) if part.user is not None]
    return name if not defined else f"{name} [{'; '.join(defined)}]"


def user_meaning(name: str) -> Callable:
    """A user-defined operation's meaning for the proofs: an uninterpreted function of two reals
    (Z3 then proves nothing that depends on what it computes).  ``name`` tells a monoid and an
    operator of one name apart: Z3 takes functions of one name to be one."""
    function = z3.Function(name, z3.RealSort(), z3.RealSort(), z3.RealSort())
    return lambda a, b: function(a, b)


PLUS_TIMES = semiring("plus_times")


@functools.cache
def zero_changes_reduction(monoid: Monoid) -> bool:
    """Whether a stored zero reduced as it is (a term of one factor: no ⊗ applies) can change a
    reduction: unless Z3 proves ``y ⊕ 0 == y`` for every value y it can hold (plus, lor, any)."""
    if math.isinf(monoid.identity):
        return True
    held = monoid.meaning(z3.RealVal(monoid.identity), z3.Real("z"))
    return not _proven(monoid.meaning(held, z3.RealVal(0)) == held)


def padding_contributes(ring: Semiring) -> bool:
    """Whether a stored zero that is no entry (padding) can change a reduction: unless Z3
    proves, for every real x and every value y the reduction can hold (``identity ⊕ z``),
    ``y ⊕ (0 ⊗ x) == y ⊕ (x ⊗ 0) == y``.  (An infinite identity is no real value, so
    nothing is proven for min and max.)"""
    identity = ring.add.identity
    if math.isinf(identity):
        return True
    x, z = z3.Reals("x z")
    zero = z3.RealVal(0)
    add, multiply = ring.add.meaning, ring.multiply.meaning
    held = add(z3.RealVal(identity), z)
    return not _proven(z3.And(add(held, multiply(zero, x)) == held, add(held, multiply(x, zero)) == held))


@functools.cache
def terminal_proven(monoid: Monoid) -> bool:
    """Whether Z3 proves the monoid's ``terminal`` final: for every value ``a ⊕ b`` that meets
    it (nonzero, or zero), ``(a ⊕ b) ⊕ x == a ⊕ b`` for every real x."""
    if monoid.terminal is None or math.isinf(monoid.identity):
        return False
    a, b, x = z3.Reals("a b x")
    held = monoid.meaning(a, b)
    meets = held != 0 if monoid.terminal == "nonzero" else held == 0
    return _proven(z3.Implies(meets, monoid.meaning(held, x) == held))


def _proven(claim) -> bool:
    """Whether Z3 proves ``claim`` for every value of its variables (its negation unsatisfiable
    within a resource limit; unknown is no proof)."""
    solver = z3.Solver()
    solver.set("rlimit", 200_000)
    solver.add(z3.Not(claim))
    return solver.check() == z3.unsat
