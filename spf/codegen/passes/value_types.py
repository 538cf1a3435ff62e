"""What a kernel over integer, boolean or complex values cannot compute (spf.notation.value_types).

A kernel computes in the type numpy's ``result_type`` gives its inputs' values; the
registers, sums and dense or scalar outputs are of it.  (An assembled output's entries pass
through its builder as doubles, which hold every integer of magnitude up to 2**53 exactly:
packing refuses integer data beyond that.)  Refused here, first and by name, is a
coefficient an integer or boolean kernel cannot hold: a fraction (numpy would compute in
float64), and a difference of booleans (numpy refuses ``-`` on booleans, and with (+, -) over
booleans a sum would depend on the order of its terms), under a semiring too (``plus_minus``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spf.errors import SpfError
from spf.notation.semirings import Semiring
from spf.notation.value_types import ValueType

if TYPE_CHECKING:
    from spf.space.iteration_space import StatementSpace


def refuse_for_value_type(value_type: ValueType, ring: Semiring, statements: list[StatementSpace]) -> None:
    """An SpfError naming the first thing of the kernel ``value_type`` cannot compute."""
    if value_type.is_complex:
        refuse_for_complex(value_type, ring, statements)
    if value_type.is_float or value_type.is_complex:
        return
    if value_type.dtype.kind == "b" and ring.multiply.name == "minus":
        raise SpfError(f"bool values: semiring={ring.name!r} subtracts, which numpy refuses for booleans; "
                       "use integer data")
    text = statements[0].statement.text or str(statements[0].statement)
    for space in statements:
        for term in space.statement.terms:
            coefficient = term.coefficient
            if coefficient != int(coefficient):
                raise SpfError(f"{value_type.name} values: the term {term} of {text!r} has the coefficient "
                               f"{coefficient}, which {value_type.name} cannot hold (numpy would compute in "
                               "float64: pass float data)")
            if value_type.dtype.kind == "b" and coefficient < 0:
                raise SpfError(f"bool values: the term {term} of {text!r} subtracts, which numpy refuses for "
                               "booleans; use lor (semiring=) or integer data")


ORDERED = ("min", "max", "lor", "land")
"""Monoids and operators that order values or take their truth: no meaning for complex numbers."""


def refuse_for_complex(value_type: ValueType, ring: Semiring, statements: list[StatementSpace]) -> None:
    """An SpfError for what complex values cannot do: a semiring that orders them (min, max) or
    takes their truth (lor, land), and an assembled output (its builder carries doubles)."""
    for part, operation in (("monoid", ring.add), ("operator", ring.multiply)):
        if operation.user is not None:
            raise SpfError(f"{value_type.name} values under semiring={ring.name!r}: its {part} {operation.name} is "
                           f"the user's C ({operation.user.c}), compiled for real types only; use real data")
        name = operation.name
        if name in ORDERED:
            raise SpfError(f"{value_type.name} values under semiring={ring.name!r}: its {part} {name} "
                           f"{'orders' if name in ('min', 'max') else 'takes the truth of'} values, which complex "
                           "numbers do not have; use a semiring of plus, times, any, first, second or pair, "
                           "or real data")
    first = statements[0]
    if first.assembled is not None:
        raise SpfError(f"{value_type.name} values: output {first.statement.output.tensor} is assembled in "
                       f"{first.assembled.spec}, whose builder carries real values; give it a dense layout "
                       "(or share= an input's pattern) for now")
