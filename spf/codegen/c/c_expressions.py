"""Names and expressions as C: affine expressions, UF calls (flattened array reads),
layout arithmetic, constraints and loop bounds, over the C names of one kernel."""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from spf.errors import SpfError
from spf.layout_library.model import Arith, BinaryOp, Name, Negate, Number
from spf.space.expressions import Affine, Constraint, UFCall

from spf.codegen.c.c_syntax import binary, call, const, ident
from spf.codegen.loops import Bound


@dataclass
class Names:
    """What the emitter needs to know about the names of an iteration space."""

    arrays: dict[str, tuple]  # array name -> its dimensions (Arith), for flattening
    readable: dict[str, str] = field(default_factory=dict)  # UF dimension -> C name
    extents: dict[str, str] = field(default_factory=dict)  # iteration index -> its extent constant

    def name(self, name: str) -> str:
        return self.readable.get(name, name)


def affine(expression: Affine, names: Names) -> c_ast.Node:
    result = None
    for atom, coefficient in expression.terms:
        term = array_read(atom, names) if isinstance(atom, UFCall) else ident(names.name(atom))
        if coefficient != 1 and coefficient != -1:
            term = binary("*", const(abs(coefficient)), term)
        if result is None:
            result = term if coefficient > 0 else c_ast.UnaryOp("-", term)
        else:
            result = binary("+" if coefficient > 0 else "-", result, term)
    if result is None:
        return const(expression.constant)
    if expression.constant:
        result = binary("+" if expression.constant > 0 else "-", result, const(abs(expression.constant)))
    return result


def arith(expression: Arith, names: Names) -> c_ast.Node:
    """An Arith tree (layout arithmetic: value positions, array dimensions) as C."""
    if isinstance(expression, Number):
        return const(expression.value)
    if isinstance(expression, Name):
        return ident(names.name(expression.name))
    if isinstance(expression, Negate):
        return c_ast.UnaryOp("-", arith(expression.operand, names))
    if isinstance(expression, BinaryOp):
        return binary(expression.op, arith(expression.left, names), arith(expression.right, names))
    raise SpfError(f"cannot emit {expression} in a kernel")


def flat_index(indices: list, dimensions: tuple, names: Names) -> c_ast.Node:
    """Row-major position of ``indices`` (C expressions) in an array of ``dimensions`` (Arith)."""
    position = indices[0]
    for index, dimension in zip(indices[1:], dimensions[1:]):
        position = binary("+", binary("*", position, arith(dimension, names)), index)
    return position


def array_read(uf_call: UFCall, names: Names) -> c_ast.ArrayRef:
    dimensions = names.arrays[uf_call.function]
    indices = [affine(a, names) for a in uf_call.arguments]
    return c_ast.ArrayRef(ident(uf_call.function), flat_index(indices, dimensions, names))


def condition(constraint: Constraint, names: Names) -> c_ast.BinaryOp:
    left, right = affine(constraint.left, names), affine(constraint.right, names)
    if constraint.op == "%":
        return binary("==", binary("%", left, right), const(0))
    return binary({"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[constraint.op],
                  left, right)


def _bound(bounds: list[Bound], names: Names, rounding: str, combine: str) -> c_ast.Node:
    result = None
    for bound in bounds:
        value = affine(bound.expression, names)
        if bound.divisor != 1:
            value = call(rounding, value, const(bound.divisor))
        result = value if result is None else call(combine, result, value)
    return result


def lower_bound(bounds: list[Bound], names: Names) -> c_ast.Node:
    """max of the lower bounds (each rounded up)."""
    return _bound(bounds, names, "spf_ceild", "spf_max")


def upper_bound(bounds: list[Bound], names: Names) -> c_ast.Node:
    """min of the upper bounds (each rounded down)."""
    return _bound(bounds, names, "spf_floord", "spf_min")
