"""The numbers a layout stores: index and value types, and the checks that refuse values
that would be silently wrong in them (complex numbers, integers beyond 2**53, finite values
beyond a float32 layout's largest, text).  Shared by reading the user's data
(:mod:`spf.runtime.user_data`), checking packed fields (:mod:`spf.runtime.validation`) and packing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import numpy as np

from spf.errors import PackError, SpfError
from spf.notation.value_types import ValueType, narrows, of_dtype

if TYPE_CHECKING:
    from spf.layout_library.model import Layout

INDEX_DTYPE = np.int64
EXACT_INTEGERS = 2**53
"""Integers up to this magnitude are exactly doubles (values) and exactly float coordinates."""


def as_array(data: object, name: str, what: str) -> np.ndarray:
    """``np.asarray(data)``, with numpy's refusals (ragged nesting, ...) as PackError."""
    try:
        return np.asarray(data)
    except (ValueError, TypeError, OverflowError) as error:
        raise PackError(f"tensor {name}: cannot read {what} as an array: {error}") from None


def check_real(values: np.ndarray, name: str, what: str = "values", into: np.dtype | None = None) -> None:
    """Refuse values that would be silently wrong as doubles: complex numbers (the imaginary
    part would be dropped) unless they go ``into`` a complex type, integers beyond 2**53
    (rounded), and anything that is not a number (strings, Python objects, dates)."""
    kind = values.dtype.kind
    if kind == "c" and values.dtype.itemsize > 16:
        raise PackError(f"tensor {name}: {what} are {values.dtype}, which spf does not support (its complex types "
                        "are complex64 and complex128); convert with .astype(np.complex128)")
    if kind == "c" and (into is None or np.dtype(into).kind != "c"):
        where = f"a layout of {np.dtype(into)} values" if into is not None else \
            "this path, which stores real numbers (complex values are kept in a dense layout, or in CSR/CSC " \
            "from scipy's own arrays)"
        raise PackError(f"tensor {name}: {what} are complex ({values.dtype}), which {where} would not hold; "
                        "pass .real or .imag, or use a generic layout or one of complex values")
    if kind == "c":
        return
    if kind not in "biuf":
        raise PackError(f"tensor {name}: {what} must be real numbers, got dtype {values.dtype}")
    if kind in "iu" and values.size and max(abs(int(values.min())), abs(int(values.max()))) > EXACT_INTEGERS:
        flat = values.reshape(-1)
        bad = flat[np.flatnonzero((flat > EXACT_INTEGERS) | (flat < -EXACT_INTEGERS))[0]]
        raise PackError(f"tensor {name}: {what}: {bad} is not exactly a double (integers beyond 2**53 "
                        "would be rounded)")


def check_value_range(values: np.ndarray, dtype: np.dtype, name: str, what: str = "values") -> None:
    """Refuse finite values beyond the largest number of ``dtype`` (a layout's value type:
    float32 would make them infinite); the rest round to ``dtype`` as numpy rounds them."""
    dtype = np.dtype(dtype)
    if values.dtype.kind != "f" or dtype.kind != "f" or values.dtype.itemsize <= dtype.itemsize or not values.size:
        return  # integers are exact doubles (check_real) and far below the largest float32
    largest = np.finfo(dtype).max
    flat = values.reshape(-1)
    finite = np.isfinite(flat)
    beyond = np.flatnonzero(finite & (np.abs(np.where(finite, flat, 0)) > largest))
    if beyond.size:
        raise PackError(f"tensor {name}: {what}: {flat[beyond[0]]} is beyond the largest {dtype} "
                        f"({largest:.6g}), the layout's value type")


def value_dtype(layout: Layout) -> np.dtype:
    """The numpy type of a layout's values (float64 for ``double``, float32 for ``float``)."""
    return layout.field(layout.values_field).numpy_dtype


def real_values(values: np.ndarray, name: str, what: str = "values") -> np.ndarray:
    """``values`` as float64 after :func:`check_real`."""
    check_real(values, name, what)
    return values.astype(np.float64)


def integer_coordinates(coords: np.ndarray, name: str) -> np.ndarray:
    """Coordinates as int64: integers, or floats with integral values (as text files give)."""
    kind = coords.dtype.kind
    if kind == "f" and coords.size:
        finite = np.isfinite(coords)
        whole = finite & (np.mod(np.where(finite, coords, 0), 1) == 0) & (np.abs(np.where(finite, coords, 0))
                                                                          <= EXACT_INTEGERS)
        if not whole.all():
            bad = coords.reshape(-1)[np.flatnonzero(~whole.reshape(-1))[0]]
            raise PackError(f"tensor {name}: coordinates must be integers, got {bad}")
    elif kind not in "iuf":
        raise PackError(f"tensor {name}: coordinates must be integers, got dtype {coords.dtype}")
    return coords.astype(INDEX_DTYPE)


def given_value_type(data: object) -> ValueType | None:
    """The value type of the user's data, when it says one: a Tensor's layout's, a numpy,
    scipy or pydata array's dtype, a (coords, values, shape) triple's values'; None for data
    without a dtype (lists: read as float64) or of a dtype spf has no value type for (the
    packing checks then say what is wrong with it)."""
    layout = getattr(data, "layout", None)
    if layout is not None and hasattr(layout, "value_type"):
        return layout.value_type
    if isinstance(data, tuple) and len(data) == 3:
        data = data[1]
    dtype = getattr(data, "dtype", None)
    if not isinstance(dtype, np.dtype):
        return None
    try:
        return of_dtype(dtype, "data")
    except SpfError:
        return None


def typed_layout(layout, data: object, name: str, cast: bool = False):
    """``layout`` for ``data``'s values: a generic layout (or family) takes their type
    (spf.notation.value_types); a layout that declares a type keeps it, and data it would
    narrow (float64 into float32, float into int) is refused unless ``cast``."""
    if isinstance(data, Mapping) and hasattr(layout, "values_field") and not hasattr(data, "tocoo"):
        data = data.get(layout.values_field)  # a dict of fields (not scipy's dok): its values array's type
    given = given_value_type(data)
    if given is not None and (getattr(layout, "unspecialised", False)
                              or (hasattr(layout, "resolve") and layout.value_type is None)):
        return layout.with_value_type(given)
    check_narrowing(layout, data, name, cast)
    return layout


def check_narrowing(layout, data: object, name: str, cast: bool = False) -> None:
    """Refuse ``data`` whose values ``layout`` would store in a narrower type (float64 into
    float32, floats into integers), unless ``cast``: never silently rounded; complex data
    into real values always."""
    given = given_value_type(data)
    declared = getattr(layout, "value_type", None)
    if given is not None and isinstance(declared, ValueType) and given.is_complex and not declared.is_complex:
        spec = getattr(layout, "spec", layout)
        raise PackError(f"tensor {name}: {given.name} data into layout {spec}, whose values are {declared.name}, "
                        "would drop their imaginary parts (cast=True does not); pass .real or .imag, or use a "
                        "generic layout")
    if given is not None and isinstance(declared, ValueType) and not cast and narrows(given, declared):
        spec = getattr(layout, "spec", layout)
        raise PackError(f"tensor {name}: {given.name} data into layout {spec}, whose values are "
                        f"{declared.name}, would round them; pass {declared.name} data, or pack with cast=True")
