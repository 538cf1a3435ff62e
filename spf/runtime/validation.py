"""Checking a layout's fields, however they arrive (built by packing or given by the user):
types, array lengths, the layout's assumptions, every property, and every stored entry
inside the shape, naming the tensor, the array and the property when something is wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from spf import arguments
from spf.errors import PackError, PropertyViolation, SpfError, UNNAMED
from spf.layout_library.layout_input import load_layout_argument
from spf.runtime.derived_fields import derive_scalars
from spf.runtime.stored_entries import StoredArrays, enumerate_stored
from spf.runtime.value_checks import INDEX_DTYPE, as_array, check_real
from spf.space.expressions import Affine, Constraint, conjuncts
from spf.space.properties import from_spec

if TYPE_CHECKING:
    from spf.layout_library.model import Layout
    from spf.arguments import LayoutLike


def validate(layout: LayoutLike, fields: Mapping[str, object], name: str = UNNAMED,
             shape: Sequence[int] | None = None) -> dict[str, object]:
    """Check fields against the layout: presence, types, lengths, assumptions, properties,
    and that every stored entry lies inside the shape (unless the layout is padded).

    Returns copies of the fields converted to the declared numpy types.
    """
    name = arguments.name(name)
    if shape is not None:
        shape = arguments.shape(shape, name)
    return check_fields(load_layout_argument(layout), fields, name, shape, owned=False)[0]


def check_scalar_types(layout: Layout, scalars: Mapping[str, int], name: str, source: str) -> None:
    """Every scalar field fits its declared C type (``int`` is 32 bits in the kernels' structs)."""
    for declared in layout.scalars:
        value = scalars.get(declared.name)
        if value is None:
            continue
        info = np.iinfo(declared.numpy_dtype)
        if not info.min <= value <= info.max:
            raise PackError(f"tensor {name}: field {declared.name!r} of {layout.spec} would be {value} "
                            f"(from {source}), beyond the largest {declared.type} ({info.max})")


def shape_of(layout: Layout, scalars: Mapping[str, object], name: str) -> tuple[int, ...]:
    """The logical shape that the scalar fields give."""
    try:
        return tuple(int(extent.evaluate(scalars)) for extent in layout.shape)
    except (SpfError, ZeroDivisionError) as error:
        raise PackError(f"tensor {name}: the fields do not give the shape of {layout.spec}: {error}") from None


def _array_of(value, declared, layout, name: str, owned: bool) -> np.ndarray:
    """One array field as a C-contiguous array of its declared type (a copy unless ``owned``),
    refusing what the conversion would silently change: floats or booleans for integers,
    integers beyond the type's range, complex or non-numeric values."""
    what = f"array {declared.name!r}"
    array = as_array(value, name, what)
    dtype = declared.numpy_dtype
    if np.issubdtype(dtype, np.integer):
        if array.size and array.dtype.kind not in "iu":
            raise PackError(f"tensor {name}: {what} must hold integers, got {array.dtype}")
        if array.size:
            info = np.iinfo(dtype)
            if int(array.min()) < info.min or int(array.max()) > info.max:
                raise PackError(f"tensor {name}: {what} has values outside the range of {declared.type}")
    else:
        check_real(array, name, f"the values of {what}", into=dtype)
        if dtype.itemsize < 8 and array.size and array.dtype.kind == "f":
            finite = np.isfinite(array)
            if np.any(finite & (np.abs(np.where(finite, array, 0)) > np.finfo(dtype).max)):
                raise PackError(f"tensor {name}: {what} has values beyond the largest {declared.type}")
    if owned:
        return np.ascontiguousarray(array, dtype=dtype)
    return np.array(array, dtype=dtype, order="C", copy=True)


def check_fields(layout: Layout, fields: Mapping[str, object], name: str, shape: Sequence[int] | None,
              owned: bool) -> tuple[dict[str, object], tuple[np.ndarray, np.ndarray]]:
    """:func:`validate`, also returning the enumeration of the stored positions it made.

    ``owned``: the arrays belong to the caller alone (the packer's), so they need no copy.
    """
    if not isinstance(fields, Mapping):
        raise PackError(f"tensor {name}: fields must be a dict from field names to values, got "
                        f"{type(fields).__name__}")
    unknown = [key for key in fields if key not in {f.name for f in layout.fields}]
    if unknown:
        raise PackError(f"tensor {name}: {layout.spec} has no field(s) {unknown!r}; its fields are "
                        f"{', '.join(f.name for f in layout.fields)}")
    fields = derive_scalars(layout, fields, shape)
    checked: dict[str, object] = {}
    for declared in layout.scalars:
        if declared.name not in fields:
            raise PackError(f"tensor {name}: field {declared.name!r} of {layout.spec} is missing (neither the "
                            f"shape nor an array's length determines it: give it, or the shape)")
        value = fields[declared.name]
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value.item()
        if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
            raise PackError(f"tensor {name}: field {declared.name!r} must be an integer, got {value!r}")
        if value < 0:
            raise PackError(f"tensor {name}: field {declared.name!r} is negative ({value})")
        checked[declared.name] = int(value)
    check_scalar_types(layout, checked, name, "the fields")
    given_shape = shape is not None
    if shape is None:
        shape = shape_of(layout, checked, name)
    expected = layout.compute_scalars(tuple(shape))
    for key, value in expected.items():
        if checked[key] != value:
            source = f"the shape {tuple(shape)}" if given_shape else f"the other fields (shape {tuple(shape)})"
            raise PackError(f"tensor {name}: field {key!r} is {checked[key]} but {source} needs {value}")
    extents = shape_of(layout, checked, name)
    if extents != tuple(shape):
        raise PackError(f"tensor {name}: layout {layout.spec} holds shape {extents}, not {tuple(shape)}")
    for declared in layout.arrays:
        if declared.name not in fields:
            raise PackError(f"tensor {name}: array {declared.name!r} of {layout.spec} is missing")
        try:
            expected_shape = tuple(int(d.evaluate(checked)) for d in declared.dimensions)
        except SpfError as error:
            raise PackError(f"tensor {name}: cannot size array {declared.name!r} ({declared}): {error}") from None
        if any(extent < 0 for extent in expected_shape):
            raise PackError(f"tensor {name}: array {declared.name!r} would have the negative shape "
                            f"{expected_shape} ({declared} of {layout.spec})")
        array = _array_of(fields[declared.name], declared, layout, name, owned)
        if array.size != int(np.prod(expected_shape, dtype=object)) or \
                (array.ndim > 1 and array.shape != expected_shape):
            raise PackError(f"tensor {name}: array {declared.name!r} has {array.size} elements "
                            f"(shape {array.shape}) but {declared} needs shape {expected_shape}")
        checked[declared.name] = array.reshape(expected_shape)
    for spec in layout.properties:
        prop = from_spec(spec)
        found = prop.check(checked, checked)
        if found is not None:
            array, detail = found
            raise PropertyViolation(name, array, prop.text, detail)
    for constraint in conjuncts(layout.assumptions):
        if isinstance(constraint, Constraint) and not holds(constraint, checked):
            raise PackError(f"tensor {name}: assumption {constraint} of {layout.spec} does not hold "
                            f"({constraint.left} is {_value(constraint.left, checked)}, "
                            f"{constraint.right} is {_value(constraint.right, checked)})")
    # Every UF call of the relation must stay inside its array for the stored positions.
    stored = enumerate_stored(layout, checked, None, name=name)
    if not layout.padded and len(stored[1]):
        coords = stored[0]
        outside = np.flatnonzero(np.any((coords < 0) | (coords >= np.asarray(shape, dtype=INDEX_DTYPE)), axis=1))
        if outside.size:
            raise PackError(f"tensor {name}: stored entry {int(outside[0])} has coordinates "
                            f"{tuple(int(c) for c in coords[outside[0]])} outside the shape {tuple(shape)} "
                            f"(layout {layout.spec} is not padded: every stored position is an entry)")
    return checked, stored


def _value(expression: Affine, fields: Mapping[str, object]):
    try:
        return int(expression.evaluate(fields, StoredArrays(fields, UNNAMED)))
    except PackError:
        return "out of bounds"


def holds(constraint: Constraint, fields: Mapping[str, object]) -> bool:
    """Whether a layout's assumption holds over its fields (False where it reads outside an array)."""
    try:
        left = int(constraint.left.evaluate(fields, StoredArrays(fields, UNNAMED)))
        right = int(constraint.right.evaluate(fields, StoredArrays(fields, UNNAMED)))
    except PackError:
        return False
    return {"=": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
            ">": left > right, ">=": left >= right}[constraint.op]
