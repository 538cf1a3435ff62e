"""Z3 encodings of UF sets: the decision procedure for questions with properties.

isl decides the set algebra exactly, but adding index-array properties as guarded
implications splits sets into many cases.  Questions that need the properties (is a
dependence set empty once ``rowIdx`` is known to be strictly increasing?) go to Z3
instead: each UF becomes a Z3 function, each constraint of the set a linear
(in)equality over Z3 terms, and each property is instantiated on the applications that
occur (quantifier-free, as appendix A of the core paper does).
"""

from __future__ import annotations

from typing import Iterable, Mapping

import islpy as isl
import z3

from spf.expressions import Affine, UFCall

TIMEOUT_MS = 5000


class Encoder:
    """Z3 terms for one or more renamed copies of UF sets."""

    def __init__(self):
        self.functions: dict[str, z3.FuncDeclRef] = {}
        self.names: dict[str, z3.ArithRef] = {}
        self.applications: dict[str, set] = {}

    def name(self, name: str) -> z3.ArithRef:
        if name not in self.names:
            self.names[name] = z3.Int(name)
        return self.names[name]

    def function(self, name: str, arity: int) -> z3.FuncDeclRef:
        if name not in self.functions:
            self.functions[name] = z3.Function(name, *([z3.IntSort()] * arity), z3.IntSort())
        return self.functions[name]

    def affine(self, expression: Affine, dimensions: Mapping[str, UFCall]) -> z3.ArithRef:
        total = z3.IntVal(expression.constant)
        for atom, coefficient in expression.terms:
            if isinstance(atom, UFCall):
                term = self.call(atom, dimensions)
            elif atom in dimensions:
                term = self.call(dimensions[atom], dimensions)
            else:
                term = self.name(atom)
            total = total + coefficient * term
        return total

    def call(self, call: UFCall, dimensions: Mapping[str, UFCall]) -> z3.ArithRef:
        arguments = tuple(self.affine(a, dimensions) for a in call.arguments)
        self.applications.setdefault(call.function, set()).add(arguments)
        return self.function(call.function, len(arguments))(*arguments)

    def uf_set(self, uf_set) -> z3.BoolRef:
        """The set's formula (UF dimensions as applications, hidden variables as free names)."""
        dimensions = uf_set.call_table
        disjuncts = []
        for basic in uf_set.isl_set.get_basic_sets():
            if basic.dim(isl.dim_type.div):
                raise ValueError("sets with integer divisions are not encoded for Z3")
            parts = []
            for constraint in basic.get_constraints():
                coefficients = {k: int(v.to_python()) for k, v in constraint.get_coefficients_by_name().items()}
                constant = coefficients.pop(1, 0)
                value = self.affine(Affine.build(coefficients, constant), dimensions)
                parts.append(value == 0 if constraint.is_equality() else value >= 0)
            disjuncts.append(z3.And(*parts))
        return z3.Or(*disjuncts) if disjuncts else z3.BoolVal(False)

    def property_instances(self, properties: Iterable) -> list:
        """Every property instantiated on the applications collected so far."""
        from spf.properties import PeriodicMonotonic, Range
        facts = []
        for prop in properties:
            if any(a not in self.functions for a in prop.arrays[:1]):
                continue
            positions = sorted(self.applications.get(prop.arrays[0], ()),
                               key=lambda t: tuple(x.get_id() for x in t))
            segments = []
            if isinstance(prop, PeriodicMonotonic) and prop.period is None:
                if prop.arrays[1] not in self.functions:
                    continue
                segments = [a[0] for a in self.applications.get(prop.arrays[1], ())]
                segments += [s - 1 for s in segments]
            if isinstance(prop, Range):
                for name in prop.low.names() | prop.high.names():
                    self.name(name)
            if any(a not in self.functions for a in prop.arrays):
                continue
            facts += prop.z3_instances(self.functions, self.names, positions, segments)
        return facts


def unsatisfiable(facts: list, timeout_ms: int = TIMEOUT_MS) -> bool:
    """True only when Z3 proves the facts contradictory (unknown counts as satisfiable)."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*facts)
    return solver.check() == z3.unsat
