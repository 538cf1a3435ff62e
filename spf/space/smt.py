"""Z3 encodings of UF sets: the decision procedure for questions with properties.

isl decides the set algebra exactly, but adding index-array properties as guarded
implications splits sets into many cases.  Questions that need the properties (is a
dependence set empty once ``rowIdx`` is known to be strictly increasing?) go to Z3
instead: each UF becomes a Z3 function, each constraint of the set a linear
(in)equality over Z3 terms, and each property is instantiated on the applications that
occur (quantifier-free, as appendix A of the core paper does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

import islpy as isl
import z3

from spf.errors import IterationSpaceError
from spf.space.expressions import Affine, Constraint, UFCall

if TYPE_CHECKING:
    from spf.space.sets import UFSet

# Z3's resource count (rlimit), not a wall-clock timeout: the same query gets the same
# answer however loaded the machine is, so the generated code (which finds are proven,
# which loops are parallel) does not depend on it.  The test suite's largest queries
# count about 50,000 (finds, 35 ms) and 52,000 (dependences, 23 ms); Z3 counts about
# 0.4-2 million a second, so this bounds a query to a few seconds.
RESOURCE_LIMIT = 5_000_000


def _term_ids(arguments: tuple) -> tuple[int, ...]:
    """A deterministic order for argument tuples without printing them (printing is slow)."""
    return tuple(term.get_id() for term in arguments)


class Encoder:
    """Z3 terms for UF expressions, the one encoder of spf (dependence tests, find synthesis).

    ``dimensions`` maps UF dimensions (the set variables that stand for calls) to their
    calls.  A query may hold several instances of the same variables: a name in
    ``local_names`` gets the instance's ``suffix`` (``pA`` and ``pA_2``); other names
    (tensor scalars, extents) are shared by every instance.  Each application of a UF is
    recorded, so that :meth:`property_instances` instantiates the properties on exactly
    the terms of the query (quantifier-free, as appendix A of the core paper does).
    """

    def __init__(self, dimensions: Mapping[str, UFCall] | None = None, local_names: Iterable[str] = ()):
        self.dimensions: dict[str, UFCall] = dict(dimensions or {})
        self.local_names = set(local_names)
        self.functions: dict[str, z3.FuncDeclRef] = {}
        self.names: dict[str, z3.ArithRef] = {}
        self.applications: dict[str, set] = {}  # function -> argument tuples (z3)
        self._instances: dict[tuple, list] = {}  # property instances already built

    def name(self, name: str, suffix: str = "") -> z3.ArithRef:
        if name in self.dimensions:
            return self.call(self.dimensions[name], suffix)
        key = name + suffix if name in self.local_names else name
        if key not in self.names:
            self.names[key] = z3.Int(key)
        return self.names[key]

    def function(self, name: str, arity: int) -> z3.FuncDeclRef:
        if name not in self.functions:
            self.functions[name] = z3.Function(name, *([z3.IntSort()] * arity), z3.IntSort())
        return self.functions[name]

    def affine(self, expression: Affine, suffix: str = "") -> z3.ArithRef:
        total = z3.IntVal(expression.constant)
        for atom, coefficient in expression.terms:
            term = self.call(atom, suffix) if isinstance(atom, UFCall) else self.name(atom, suffix)
            total = total + coefficient * term
        return total

    def apply(self, function: str, arguments: tuple) -> z3.ArithRef:
        """``function(arguments)`` (z3 terms), recorded for the property instances."""
        self.applications.setdefault(function, set()).add(arguments)
        return self.function(function, len(arguments))(*arguments)

    def call(self, call: UFCall, suffix: str = "") -> z3.ArithRef:
        return self.apply(call.function, tuple(self.affine(a, suffix) for a in call.arguments))

    def constraint(self, constraint: Constraint, suffix: str = "") -> z3.BoolRef:
        left, right = self.affine(constraint.left, suffix), self.affine(constraint.right, suffix)
        if constraint.op == "%":
            return left % right == 0
        return {"=": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
                ">": left > right, ">=": left >= right}[constraint.op]

    def uf_set(self, uf_set: UFSet) -> z3.BoolRef:
        """The set's formula (UF dimensions as applications, hidden variables as free names)."""
        self.dimensions.update(uf_set.call_table)
        disjuncts = []
        for basic in uf_set.isl_set.get_basic_sets():
            if basic.dim(isl.dim_type.div):
                raise IterationSpaceError("an iteration space with integer divisions (a stride, as from exists) "
                                         "cannot be encoded for Z3, so its dependences cannot be tested")
            parts = []
            for constraint in basic.get_constraints():
                coefficients = {k: int(v.to_python()) for k, v in constraint.get_coefficients_by_name().items()}
                constant = coefficients.pop(1, 0)
                value = self.affine(Affine.build(coefficients, constant))
                parts.append(value == 0 if constraint.is_equality() else value >= 0)
            disjuncts.append(z3.And(*parts))
        return z3.Or(*disjuncts) if disjuncts else z3.BoolVal(False)

    def property_instances(self, properties: Iterable) -> list:
        """Every property instantiated on the applications recorded so far."""
        from spf.space.properties import PeriodicMonotonic, Range
        facts = []
        for prop in properties:
            if prop.arrays[0] not in self.functions:
                continue
            positions = sorted(self.applications.get(prop.arrays[0], ()), key=_term_ids)
            segments = []
            if isinstance(prop, PeriodicMonotonic) and prop.period is None and prop.arrays[1] in self.functions:
                segments = [a[0] for a in sorted(self.applications.get(prop.arrays[1], ()), key=_term_ids)]
                segments += [s - 1 for s in segments]
            if isinstance(prop, Range):
                for name in prop.low.names() | prop.high.names():
                    self.name(name)
            if any(a not in self.functions for a in prop.arrays):
                continue
            key = (id(prop), tuple(_term_ids(p) for p in positions), tuple(s.get_id() for s in segments))
            if key not in self._instances:
                self._instances[key] = prop.z3_instances(self.functions, self.names, positions, segments)
            facts += self._instances[key]
        return facts


def unsatisfiable(facts: list, resource_limit: int = RESOURCE_LIMIT) -> bool:
    """True only when Z3 proves the facts contradictory within ``resource_limit``
    (unknown counts as satisfiable)."""
    solver = z3.Solver()
    solver.set("rlimit", resource_limit)
    solver.add(*facts)
    return solver.check() == z3.unsat
