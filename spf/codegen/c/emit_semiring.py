"""The C of the monoids and operators a user defined (spf.monoid, spf.operator), as
spf_semiring.h has it for the built-in ones: one static inline function per real value type,
``spf_monoid_<name>_<type>(a, b)`` or ``spf_operator_<name>_<type>(a, b)`` returning the user's
expression, and for a monoid the OpenMP reduction a parallel scalar output names."""

from __future__ import annotations

import math

from pycparser import c_ast

from spf.notation.semirings import Monoid, Operator, Semiring
from spf.notation.value_types import VALUE_TYPES, ValueType

from spf.codegen.c.c_syntax import c_text, const, ident

REAL_TYPES = tuple(value_type for value_type in VALUE_TYPES.values() if not value_type.is_complex)
"""The value types a user's expression is compiled for (complex values are refused under it)."""


def monoid_function(name: str) -> str:
    return f"spf_monoid_{name}"


def operator_function(name: str) -> str:
    return f"spf_operator_{name}"


def user_operations_source(ring: Semiring) -> str:
    """The C a kernel under ``ring`` needs for what the user defined in it ("" for none)."""
    parts = [part for part in (ring.add, ring.multiply) if part.user is not None]
    return "".join(_operation_source(part) for part in parts)


def _operation_source(part: Monoid | Operator) -> str:
    monoid = isinstance(part, Monoid)
    function = part.c_function
    kind = "monoid" if monoid else "operator"
    lines = [f"/* the user's {kind} {part.name} (spf.{kind}): a, b -> {part.user.c}"
             + (f", identity {part.identity!r}" if monoid else "") + " */"]
    for value_type in REAL_TYPES:
        c = value_type.c_type
        lines.append(f"static inline {c} {function}_{value_type.name}({c} a, {c} b) "
                     f"{{ (void)a; (void)b; return ({c})({part.user.c}); }}")
    if monoid:
        lines.append("#ifdef _OPENMP")
        for value_type in REAL_TYPES:  # (float32's double register sums take float64's)
            lines.append(f"#pragma omp declare reduction({part.openmp} : {value_type.c_type} : omp_out = "
                         f"{function}_{value_type.name}(omp_out, omp_in)) initializer(omp_priv = "
                         f"{c_text(identity_constant(part.identity, value_type))})")
        lines.append("#endif")
    return "\n".join(lines) + "\n\n"


def identity_constant(identity: float, value_type: ValueType) -> c_ast.Node:
    """A monoid's ``identity`` as a C constant of ``value_type``: the infinities as INFINITY, or as
    INT64_MAX and INT64_MIN in an integer type (spf_semiring.h names them)."""
    value = value_type.identity(identity)
    if isinstance(value, float) and math.isinf(value):
        return ident("INFINITY") if value > 0 else c_ast.UnaryOp("-", ident("INFINITY"))
    if value_type.is_integer and abs(value) > 2**31:
        return ident("INT64_MAX") if value > 0 else ident("INT64_MIN")
    return const(value)
