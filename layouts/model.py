"""The data model of a parsed layout file.

A :class:`Layout` is one storage format bound to concrete parameter values: its
fields (scalars and arrays), the logical shape, the relation from physical positions
to logical coordinates, where values live, assumptions and index-array properties.
A :class:`LayoutFamily` names one layout per tensor order (``Dense`` -> ``Dense2``).

Integer arithmetic that is not affine (array lengths, shape, value indices such as
``pi*(pi+1)/2 + pj``) is an :class:`Arith` tree.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

import numpy as np

from spf.errors import ArgumentError, IterationSpaceError, LayoutError, SpfError, UnboundNameError
from spf.notation.value_types import GENERIC, SPELLINGS, ValueType, value_type
from spf.space.expressions import TRUE, Affine, Formula

INTEGER_TYPES = ("int", "int64", "uint8")
VALUE_TYPE_NAMES = tuple(name for name in SPELLINGS if name not in INTEGER_TYPES) + ("int64",)
"""What a values field may be declared as (spf.notation.value_types; ``int`` and ``int64``
are integer values there, index arrays anywhere else)."""
SCALAR_TYPES = ("int", "int64")
ARRAY_TYPES = tuple(dict.fromkeys(INTEGER_TYPES + VALUE_TYPE_NAMES))

NUMPY_DTYPES = {
    "int": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "uint8": np.dtype(np.uint8),
}
C_TYPES = {"int": "int", "int64": "int64_t", "uint8": "uint8_t"}


# ----------------------------------------------------------------------------- arithmetic

class Arith:
    """An integer expression: numbers, names, ``shape[k]``, ``+ - * /`` and negation.

    ``/`` is floor division when evaluated and C's ``/`` when printed; the two agree
    because layouts only divide non-negative quantities (sizes and positions).
    """

    precedence = 3  # 0: + -, 1: * /, 2: unary minus, 3: atoms

    def evaluate(self, env: Mapping[str, object]) -> Any:
        """The value, with names from ``env`` and ``shape[k]`` from ``env["shape"]``.

        Values may be numpy integer arrays; the result is then computed element-wise.
        """
        raise NotImplementedError

    def names(self) -> set[str]:
        """Every name used (``shape`` references not included)."""
        raise NotImplementedError

    def shape_indices(self) -> set[int]:
        """Every ``k`` of a ``shape[k]`` reference."""
        raise NotImplementedError

    def substitute(self, mapping: Mapping[str, "Arith | int"]) -> "Arith":
        """Replace names; constant sub-expressions are folded."""
        raise NotImplementedError

    def to_affine(self) -> Affine | None:
        """The same expression as an :class:`Affine`, or None when it is not affine."""
        raise NotImplementedError

    @property
    def is_constant(self) -> bool:
        return isinstance(self, Number)


@dataclass(frozen=True)
class Number(Arith):
    value: int

    @property
    def precedence(self) -> int:  # type: ignore[override]
        return 3 if self.value >= 0 else 2

    def evaluate(self, env: Mapping[str, object]) -> Any:
        return self.value

    def names(self) -> set[str]:
        return set()

    def shape_indices(self) -> set[int]:
        return set()

    def substitute(self, mapping: Mapping[str, Arith | int]) -> Arith:
        return self

    def to_affine(self) -> Affine | None:
        return Affine.of(self.value)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Name(Arith):
    name: str

    def evaluate(self, env: Mapping[str, object]) -> Any:
        try:
            return env[self.name]
        except KeyError:
            raise UnboundNameError(self.name, self) from None

    def names(self) -> set[str]:
        return {self.name}

    def shape_indices(self) -> set[int]:
        return set()

    def substitute(self, mapping: Mapping[str, Arith | int]) -> Arith:
        replacement = mapping.get(self.name)
        if replacement is None:
            return self
        return Number(replacement) if isinstance(replacement, int) else replacement

    def to_affine(self) -> Affine | None:
        return Affine.of(self.name)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class ShapeRef(Arith):
    """``shape[index]``: one extent of the tensor stored in the layout."""

    index: int

    def evaluate(self, env: Mapping[str, object]) -> Any:
        try:
            return env["shape"][self.index]
        except (KeyError, IndexError):
            raise SpfError(f"no value for shape[{self.index}] when evaluating an expression") from None

    def names(self) -> set[str]:
        return set()

    def shape_indices(self) -> set[int]:
        return {self.index}

    def substitute(self, mapping: Mapping[str, Arith | int]) -> Arith:
        return self

    def to_affine(self) -> Affine | None:
        return None

    def __str__(self) -> str:
        return f"shape[{self.index}]"


@dataclass(frozen=True)
class Negate(Arith):
    operand: Arith
    precedence = 2

    def evaluate(self, env: Mapping[str, object]) -> Any:
        return -self.operand.evaluate(env)

    def names(self) -> set[str]:
        return self.operand.names()

    def shape_indices(self) -> set[int]:
        return self.operand.shape_indices()

    def substitute(self, mapping: Mapping[str, Arith | int]) -> Arith:
        return negate(self.operand.substitute(mapping))

    def to_affine(self) -> Affine | None:
        inner = self.operand.to_affine()
        return None if inner is None else -inner

    def __str__(self) -> str:
        inner = str(self.operand)
        return f"-({inner})" if self.operand.precedence < 3 else f"-{inner}"


_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv}
_PRECEDENCE = {"+": 0, "-": 0, "*": 1, "/": 1}


@dataclass(frozen=True)
class BinaryOp(Arith):
    op: str
    left: Arith
    right: Arith

    @property
    def precedence(self) -> int:  # type: ignore[override]
        return _PRECEDENCE[self.op]

    def evaluate(self, env: Mapping[str, object]) -> Any:
        left, right = self.left.evaluate(env), self.right.evaluate(env)
        if self.op == "/" and np.ndim(right) == 0 and right == 0:
            raise SpfError(f"{self} divides by zero ({self.right} is 0)")
        return _OPERATORS[self.op](left, right)

    def names(self) -> set[str]:
        return self.left.names() | self.right.names()

    def shape_indices(self) -> set[int]:
        return self.left.shape_indices() | self.right.shape_indices()

    def substitute(self, mapping: Mapping[str, Arith | int]) -> Arith:
        return binary(self.op, self.left.substitute(mapping), self.right.substitute(mapping))

    def to_affine(self) -> Affine | None:
        left, right = self.left.to_affine(), self.right.to_affine()
        if left is None or right is None:
            return None
        if self.op == "+":
            return left + right
        if self.op == "-":
            return left - right
        if self.op == "*" and (left.is_constant or right.is_constant):
            return right.scale(left.constant) if left.is_constant else left.scale(right.constant)
        if self.op == "/" and right.is_constant and right.constant == 1:
            return left
        return None

    def __str__(self) -> str:
        left = str(self.left)
        right = str(self.right)
        if self.left.precedence < self.precedence:
            left = f"({left})"
        if self.right.precedence <= self.precedence:
            right = f"({right})"
        return f"{left} {self.op} {right}"


def negate(operand: Arith) -> Arith:
    """``-operand``, folded when the operand is a number."""
    if isinstance(operand, Number):
        return Number(-operand.value)
    return Negate(operand)


def binary(op: str, left: Arith, right: Arith) -> Arith:
    """``left op right``, folded when both sides are numbers (no folding of ``x / 0``)."""
    if isinstance(left, Number) and isinstance(right, Number):
        if not (op == "/" and right.value == 0):
            return Number(_OPERATORS[op](left.value, right.value))
    return BinaryOp(op, left, right)


# ----------------------------------------------------------------------------- fields

@dataclass(frozen=True)
class Field:
    """A named piece of the stored data: a scalar (count or computed) or an array."""

    name: str
    type: str
    dimensions: tuple[Arith, ...] = ()
    definition: Arith | None = None
    line: int = 0
    holds_values: bool = False  # the layout's values field (an integer type there is values, not indices)

    @property
    def is_array(self) -> bool:
        return bool(self.dimensions)

    @property
    def is_scalar(self) -> bool:
        return not self.dimensions

    @property
    def is_count(self) -> bool:
        """A scalar whose value packing determines (``field nnz: int``)."""
        return self.is_scalar and self.definition is None

    @property
    def is_integer(self) -> bool:
        """An index array or integer scalar (integer values are no index array)."""
        return self.type in INTEGER_TYPES and not self.holds_values

    @property
    def value_type(self) -> ValueType:
        """The type of the values it holds (a generic field: float64 until specialised)."""
        return value_type(self.type)

    @property
    def is_index_array(self) -> bool:
        return self.is_array and self.is_integer

    @property
    def numpy_dtype(self) -> np.dtype:
        return NUMPY_DTYPES[self.type] if self.is_integer or self.is_scalar else self.value_type.dtype

    @property
    def c_type(self) -> str:
        return C_TYPES[self.type] if self.is_integer or self.is_scalar else self.value_type.c_type

    def __str__(self) -> str:
        text = f"{self.name}: {self.type}" + "".join(f"[{d}]" for d in self.dimensions)
        if self.definition is not None:
            text += f" = {self.definition}"
        return text


# ----------------------------------------------------------------------------- properties

PROPERTY_KINDS = ("range", "injective", "monotonic", "periodic_monotonic", "covarying_monotonic")


@dataclass(frozen=True)
class PropertySpec:
    """One declared index-array property (Table 1 of the paper).

    ``arrays`` are the constrained arrays; ``period_array`` / ``period`` give the
    segments of ``periodic_monotonic``; ``low`` / ``high`` the bounds of ``range``
    (``low <= F(x) < high``).  ``text`` is the canonical source text.
    """

    kind: str
    arrays: tuple[str, ...]
    increasing: bool = True
    strict: bool = True
    period_array: str | None = None
    period: int | None = None
    low: Affine | None = None
    high: Affine | None = None
    text: str = ""
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        return self.text


# ----------------------------------------------------------------------------- layouts

def _frozen_mapping(values: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(values))


class _PicklableMappings:
    """Pickling for a frozen dataclass holding read-only mappings (a compiled kernel
    cached on disk holds its layouts): the mappings travel as dicts and are frozen again."""

    _MAPPINGS = ("parameters", "locations")

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_typed", None)  # copies per value type (Layout.with_value_type), made again on demand
        state.pop("_hash", None)  # str hashes differ between processes
        for name in ("arrays", "index_arrays", "scalars", "counts"):  # cached properties, made again on demand
            state.pop(name, None)
        for name in self._MAPPINGS:
            state[name] = dict(state[name])
        return state

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, MappingProxyType(dict(value)) if name in self._MAPPINGS else value)


@dataclass(frozen=True)
class Layout(_PicklableMappings):
    """A storage format with its parameters bound (``BCSR(R=2, C=3)``).

    Parameter values are substituted everywhere: in ``relation``, ``assumptions``,
    property bounds, field lengths, the shape and the value index.
    """

    name: str
    path: str
    description: str
    parameters: Mapping[str, int]
    fields: tuple[Field, ...]
    shape: tuple[Arith, ...]
    physical: tuple[str, ...]
    logical: tuple[str, ...]
    relation: Formula
    values_field: str
    values_index: tuple[Arith, ...]
    assumptions: Formula = TRUE
    properties: tuple[PropertySpec, ...] = ()
    padded: bool = False
    generic: bool = False  # the file leaves the values' type generic (``value``): see with_value_type
    # file (line, column) of each field, tuple variable and of the shape, relation and values
    locations: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", _frozen_mapping(self.parameters))
        object.__setattr__(self, "locations", MappingProxyType(dict(self.locations)))

    def error(self, where: str, message: str) -> LayoutError:
        """A LayoutError at ``where`` in the layout file: a field, a tuple variable, or
        ``"shape"``, ``"relation"``, ``"values"`` (the file's first line when unknown)."""
        line, column = self.locations.get(where, self.locations.get("relation", (1, 1)))
        return LayoutError(self.path, line, column, message)

    def __hash__(self) -> int:
        known = self.__dict__.get("_hash")  # made once: layouts key the struct and kernel caches of every call
        if known is None:
            known = hash((self.name, self.path, tuple(sorted(self.parameters.items()))))
            object.__setattr__(self, "_hash", known)
        return known

    def __eq__(self, other) -> bool:
        """Equal when every compared field is (the generated comparison, through a text of
        them made once per object: a kernel compares its layouts with its inputs' on every
        call, and a layout loaded from the kernel cache is another object than the loader's)."""
        if self is other:
            return True
        if not isinstance(other, Layout):
            return NotImplemented
        return hash(self) == hash(other) and self._comparison_text() == other._comparison_text()

    def _comparison_text(self) -> str:
        text = self.__dict__.get("_comparison")
        if text is None:
            text = repr(self)  # every field that compares (locations do not) and nothing else
            object.__setattr__(self, "_comparison", text)
        return text

    @property
    def order(self) -> int:
        return len(self.shape)

    def field(self, name: str) -> Field:
        for candidate in self.fields:
            if candidate.name == name:
                return candidate
        known = ", ".join(f.name for f in self.fields)
        raise ArgumentError(f"layout {self.name} has no field {name!r}; its fields are {known}")

    @functools.cached_property
    def arrays(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.is_array)

    @functools.cached_property
    def index_arrays(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.is_index_array)

    @functools.cached_property
    def scalars(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.is_scalar)

    @functools.cached_property
    def counts(self) -> tuple[Field, ...]:
        """Scalar fields whose values packing determines."""
        return tuple(f for f in self.fields if f.is_count)

    @property
    def spec(self) -> str:
        if not self.parameters:
            return self.name
        bound = ", ".join(f"{key}={value}" for key, value in self.parameters.items())
        return f"{self.name}({bound})"

    @property
    def value_type(self) -> ValueType:
        """The type of the values (a generic layout not yet specialised: float64)."""
        return self.field(self.values_field).value_type

    @property
    def unspecialised(self) -> bool:
        """A generic layout whose values' type no data has given yet (it computes as float64)."""
        return self.generic and self.field(self.values_field).type == GENERIC

    def with_value_type(self, given: ValueType) -> "Layout":
        """This generic layout for values of type ``given`` (itself for float64, what a
        generic layout holds anyway); a layout that declares its values' type is itself."""
        if not self.generic or given.name == "float64":
            return self
        return self.with_values(given.name)

    def with_values(self, type_name: str) -> "Layout":
        """This layout with its values of type ``type_name`` whatever its file declares, as a
        generic layout specialised (its C struct named by the type): a mask read as bool, the
        real parts of complex data packed apart.  Made once per type and kept with the layout:
        a call compares layouts through their text, made once per object."""
        typed = self.__dict__.get("_typed")
        if typed is None:
            typed = {}
            object.__setattr__(self, "_typed", typed)
        made = typed.get(type_name)
        if made is None:
            values = self.field(self.values_field)
            fields = tuple(dataclasses.replace(f, type=type_name) if f is values else f for f in self.fields)
            made = typed[type_name] = dataclasses.replace(self, fields=fields, generic=True)
        return made

    def compute_scalars(self, shape: tuple[int, ...]) -> dict[str, int]:
        """The values of the scalar fields defined from the shape."""
        env: dict[str, object] = {"shape": tuple(shape)}
        computed: dict[str, int] = {}
        for candidate in self.fields:
            if candidate.definition is not None:
                try:
                    computed[candidate.name] = env[candidate.name] = candidate.definition.evaluate(env)
                except SpfError as error:
                    raise self.error(candidate.name, f"field {candidate.name} = {candidate.definition} "
                                     f"cannot be computed for the shape {tuple(shape)}: {error}") from None
        return computed

    def relation_text(self) -> str:
        return (f"{{[{', '.join(self.physical)}] -> [{', '.join(self.logical)}]"
                f" : {self.relation}}}")

    def values_text(self) -> str:
        return self.values_field + "".join(f"[{index}]" for index in self.values_index)

    def __str__(self) -> str:
        lines = [f"layout {self.spec}"]
        if self.description:
            lines.append(f"  {self.description}")
        lines.append(f"  shape: {', '.join(str(extent) for extent in self.shape)}")
        lines.append("  fields:")
        lines.extend(f"    {f}" for f in self.fields)
        lines.append(f"  relation: {self.relation_text()}")
        lines.append(f"  values: {self.values_text()}")
        if self.assumptions != TRUE:
            lines.append(f"  assume: {self.assumptions}")
        if self.properties:
            lines.append("  properties:")
            lines.extend(f"    {p.text}" for p in self.properties)
        if self.padded:
            lines.append("  padded")
        return "\n".join(lines)


@dataclass(frozen=True)
class LayoutFamily(_PicklableMappings):
    """Layouts chosen by tensor order: ``resolve(2)`` of ``Dense`` is ``Dense2``."""

    name: str
    path: str
    members: tuple[str, ...]
    member_paths: tuple[str, ...] = ()
    description: str = ""
    parameters: Mapping[str, int] = field(default_factory=dict)
    # file (line, column) of each member's name in the family directive
    locations: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    # loads a member's file with parameters: the loader's load_layout, given by the loader
    # when it builds the family (this module cannot import the loader, which imports it)
    load_member: Callable[..., Layout | LayoutFamily] | None = field(default=None, compare=False, repr=False)
    value_type: str | None = None  # the members' values' type, when data has given one (Layout.with_value_type)

    def with_value_type(self, given: ValueType) -> "LayoutFamily":
        """The family whose generic members hold values of type ``given``."""
        return self if given.name == "float64" else dataclasses.replace(self, value_type=given.name)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", _frozen_mapping(self.parameters))
        object.__setattr__(self, "locations", MappingProxyType(dict(self.locations)))

    def __hash__(self) -> int:
        return hash((self.name, self.path, self.members, tuple(sorted(self.parameters.items()))))

    def layouts(self, **parameters: int) -> tuple[Layout, ...]:
        """Every member layout, loaded with the family's and the given parameters."""
        if self.load_member is None:
            raise LayoutError(self.path, 1, 1, f"family {self.name} was not loaded through spf.load_layout, "
                              "which knows how to load its members")
        bound = {**self.parameters, **parameters}
        loaded = []
        for member, member_path in zip(self.members, self.member_paths):
            layout = self.load_member(member_path, **bound)
            if not isinstance(layout, Layout):
                line, column = self.locations.get(member, (1, 1))
                raise LayoutError(self.path, line, column, f"family {self.name}: member {member} "
                                  f"({member_path}) is itself a family; members are layouts")
            loaded.append(layout)
        return tuple(loaded)

    def resolve(self, order: int, **parameters: int) -> Layout:
        """The member layout for tensors of ``order`` dimensions."""
        members = self.layouts(**parameters)
        for layout in members:
            if layout.order == order:
                return layout.with_value_type(value_type(self.value_type)) if self.value_type else layout
        available = ", ".join(f"{layout.order} ({layout.name})" for layout in members)
        raise IterationSpaceError(
            f"layout family {self.name} has no layout for order {order}; "
            f"available orders: {available}")

    def __str__(self) -> str:
        return f"family {self.name}: {', '.join(self.members)}"
