"""Value types: the numbers a tensor's values are (issue 29).

A layout's values field declares one (``field data: float32[nnz]``) or leaves it generic
(``field data: value[nnz]``): a generic layout takes the type of the data it is given, and
a kernel over generic layouts is specialised per value type at the call, as numpy's
``result_type`` of its inputs' values says (float32 with float32 gives float32; int32 with
float64 gives float64).  A kernel computes in that type: registers, sums and a dense or
scalar result are of it.  Until a call says otherwise, generic values are float64 (C's
``double``), which is what every kernel computed before value types existed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from spf.errors import SpfError

GENERIC = "value"
"""The type name a layout file gives generic values."""


@dataclass(frozen=True)
class ValueType:
    """One value type: its name (numpy's), its C type and numpy dtype."""

    name: str
    c_type: str
    dtype: np.dtype
    sum_c_type: str = ""  # the C type a register sum adds in, when not c_type

    @property
    def register_c_type(self) -> str:
        """The C type of a register sum over these values: ``sum_c_type`` or ``c_type``."""
        return self.sum_c_type or self.c_type

    @property
    def is_float(self) -> bool:
        return self.dtype.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self.dtype.kind in "iu"

    @property
    def is_complex(self) -> bool:
        return self.dtype.kind == "c"

    def largest(self) -> float | int:
        """The largest value (+inf for floating types): min's identity."""
        if self.is_float or self.is_complex:
            return math.inf
        if self.dtype.kind == "b":
            return 1
        return int(np.iinfo(self.dtype).max)

    def smallest(self) -> float | int:
        """The smallest value (-inf for floating types): max's identity."""
        if self.is_float or self.is_complex:
            return -math.inf
        if self.dtype.kind == "b":
            return 0
        return int(np.iinfo(self.dtype).min)

    def identity(self, monoid_identity: float) -> float | int:
        """A monoid's identity (0, 1, +inf or -inf as spf.notation.semirings gives it) in this type:
        the infinities become the type's largest and smallest values."""
        if monoid_identity == math.inf:
            return self.largest()
        if monoid_identity == -math.inf:
            return self.smallest()
        return monoid_identity if self.is_float or self.is_complex else int(monoid_identity)


VALUE_TYPES = {value_type.name: value_type for value_type in (
    ValueType("float64", "double", np.dtype(np.float64)),
    # float32 sums in double registers, rounded once when stored: gcc 12 vectorises a float row
    # sum over an index array with gathers (microcoded on AMD Zen 3), which it declines for
    # doubles; SpMV on BlogCatalog3 took 0.41 ms summing in float, 0.26 ms in double (float64
    # values: 0.29 ms), and the double sums were 10x nearer the exact result
    ValueType("float32", "float", np.dtype(np.float32), "double"),
    ValueType("int64", "int64_t", np.dtype(np.int64)),
    ValueType("int32", "int32_t", np.dtype(np.int32)),
    ValueType("bool", "bool", np.dtype(np.bool_)),
    # C99's complex types, laid out as numpy's (real, imaginary) pairs
    ValueType("complex128", "double _Complex", np.dtype(np.complex128)),
    ValueType("complex64", "float _Complex", np.dtype(np.complex64), "double _Complex"),  # as float32
)}
FLOAT64 = VALUE_TYPES["float64"]

SPELLINGS = {"double": "float64", "float": "float32", "int": "int32", GENERIC: "float64",
             **{name: name for name in VALUE_TYPES}}
"""Each type name a layout file may give its values field, and the value type it means
(``double`` and ``float`` as C spells them; a generic field holds float64 until specialised)."""


def value_type(name: str) -> ValueType:
    """The value type a layout file's type name or numpy's name means, or an SpfError listing them."""
    spelled = SPELLINGS.get(name)
    if spelled is None:
        raise SpfError(f"unknown value type {name!r}; value types are {', '.join(VALUE_TYPES)} "
                       f"(or {GENERIC!r}: the type of the data given)")
    return VALUE_TYPES[spelled]


def of_dtype(dtype: np.dtype, what: str) -> ValueType:
    """The value type of numpy data of ``dtype``: the exact type when spf has it, else an
    SpfError naming it (complex values, unsigned integers, text, objects).  ``what`` names
    the data in the message."""
    dtype = np.dtype(dtype)
    for candidate in VALUE_TYPES.values():
        if candidate.dtype == dtype:
            return candidate
    if dtype.kind in "iu":  # int8, uint16, uint32, ...: the type numpy promotes them to with int32 holds them
        return of_dtype(np.promote_types(dtype, np.int32), what)
    if dtype.kind == "f" and dtype.itemsize < 4:
        return VALUE_TYPES["float32"]
    if dtype.kind == "f":
        raise SpfError(f"{what}: values of type {dtype} are not supported (value types are "
                       f"{', '.join(VALUE_TYPES)}); convert with .astype(np.float64)")
    if dtype.kind == "c":  # complex256
        raise SpfError(f"{what}: values of type {dtype} are not supported (value types are "
                       f"{', '.join(VALUE_TYPES)}); convert with .astype(np.complex128)")
    raise SpfError(f"{what}: values must be numbers, got dtype {dtype}")


def result_type(types: list[ValueType]) -> ValueType:
    """The type a kernel over values of ``types`` computes in: numpy's result type of them
    (float64 when there are none)."""
    if not types:
        return FLOAT64
    return of_dtype(np.result_type(*[t.dtype for t in types]), "the kernel's values")


def narrows(source: ValueType, target: ValueType) -> bool:
    """Whether storing ``source`` values as ``target`` can change them (numpy's safe casting says no)."""
    return not np.can_cast(source.dtype, target.dtype, casting="safe")
