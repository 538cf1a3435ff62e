"""Packing tensors into layouts (inspectors): :func:`pack` and :func:`borrow` of the user's
data, :func:`from_fields` of already packed arrays, and the reference packer's path.

Packing is derived from the layout file alone, so a new layout needs no new code: the
generated assembly (:mod:`spf.runtime.assemble`) builds the layouts it plans, the layout-reading
packer (:mod:`spf.runtime.packer`) the others; scipy matrices and numpy arrays already in a
layout's form are shared rather than copied (:mod:`spf.runtime.scipy_arrays`).

Whatever way the fields arrive (built here or given by the user), :mod:`spf.runtime.validation`
checks types, array lengths, the layout's assumptions, every property and that every
stored entry lies inside the shape before a Tensor exists, and names the tensor, the
array and the property when something is wrong.  A :class:`~spf.runtime.tensor.Tensor` is
therefore valid by construction, and its arrays are read-only, so kernels read it without
checking.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from spf import arguments
from spf.errors import ArgumentError, PackError, SpfError, UNNAMED, UnboundNameError
from spf.layout_library.layout_input import load_layout_argument, resolve_family
from spf.runtime.assemble import assemble, has_assembly
from spf.runtime.packer import Packer
from spf.runtime.stored_entries import unreadable_relation
from spf.runtime.tensor import Tensor
from spf.runtime.user_data import coordinates_of, entries_of, summed
from spf.runtime.validation import check_fields, check_scalar_types, shape_of
from spf.runtime.value_checks import (INDEX_DTYPE, check_narrowing, check_real, check_value_range, typed_layout,
                                      value_dtype)
from spf.space.expressions import Affine
from spf.space.levels import read_levels

if TYPE_CHECKING:
    from spf.arguments import LayoutLike
    from spf.layout_library.model import Layout


def pack(layout: LayoutLike, data: Any, name: str = UNNAMED, shape: Sequence[int] | None = None,
         copy: bool | None = None, cast: bool = False) -> Tensor:
    """Store ``data`` in ``layout`` (a name, ``"NAME(k=v)"``, a path or a Layout).

    ``data``: scipy.sparse, a pydata ``sparse`` array, a dense numpy array,
    ``(coords, values, shape)``, a :class:`Tensor`, or a dict of the layout's fields (already packed arrays, which
    are then only checked, and copied).  ``shape`` overrides the shape of coordinate data.
    Data the layout cannot hold (an entry above the diagonal for LOWER_TRI, three
    non-zeros in a group of four for WARP24) is refused with a PackError naming an entry;
    so are complex values, non-integer coordinates or extents, and arrays too large for
    this machine's memory (before they are allocated).

    ``copy`` is numpy's (``np.asarray``): by default (None) the Tensor shares memory with a
    scipy matrix whose own arrays already are the layout's (csr into CSR or CSR_UNSORTED,
    csc into CSC, coo into COO or COO_UNSORTED, or a layout file of the same form; the declared dtypes, int32
    for ``int``; C-contiguous; every property checked on the arrays, no duplicates), and
    then those arrays, in the scipy object too, become read-only, as a Tensor's arrays
    are: writing to them raises numpy's ValueError instead of corrupting the Tensor.
    Otherwise the data is copied as it is packed.  ``copy=True`` always copies, leaving the
    input writable; ``copy=False`` never copies, and raises a PackError saying why when it
    would have to.

    Values: a generic layout (the built-in ones: ``field data: value[nnz]``) stores them in
    their own type (float64, float32, int64, int32 or bool; spf.notation.value_types; data
    without a dtype, such as lists, as float64); a layout that declares its values' type
    stores them in it, and refuses data it would round (float64 into float32) unless ``cast=True``.
    """
    name = arguments.name(name)
    arguments.flag(cast, "cast")
    layout = typed_layout(load_layout_argument(layout), data, name, cast)
    return pack_into(layout, data, name, shape, copy, cast)


def pack_into(layout: LayoutLike, data: Any, name: str = UNNAMED, shape: Sequence[int] | None = None,
              copy: bool | None = None, cast: bool = False) -> Tensor:
    """:func:`pack` into ``layout`` as it is: a generic layout not specialised holds float64
    (what a kernel computing in float64 reads), whatever the data's type."""
    layout = load_layout_argument(layout)
    check_narrowing(layout, data, name, cast)
    if shape is not None:
        shape = arguments.shape(shape, name)
    if copy not in (None, True, False):
        raise ArgumentError(f"copy must be None, True or False, got {copy!r}")
    shared, reason = _shared_tensor(layout, data, name, shape, copy=copy is True)
    if shared is not None:
        return shared
    dense = _dense_target(layout, data) if shape in (None, getattr(data, "shape", None)) else None
    if dense is not None:
        return _dense_tensor(dense, data, name, copy)
    if copy is not True:
        if copy is False:
            raise PackError(f"tensor {name}: copy=False, but packing into {_spec(layout)} needs a copy: {reason}")
    if isinstance(data, Tensor):
        data = data.to_coo()
    if isinstance(data, Mapping) and not _scipy_sparse(data):  # scipy's dok_matrix is a dict too
        if hasattr(layout, "resolve"):
            if shape is None:
                raise PackError("a layout family (e.g. Dense) needs the tensor's order: pass its member "
                                "layout (e.g. Dense2) or shape= with a dict of fields")
            layout = layout.resolve(len(shape))
        return from_fields(layout, data, name, shape)
    if _complex_values(layout, data):
        return _complex_tensor(resolve_family(layout, len(_data_shape(data))), data, name, shape)
    columns, values, data_shape, duplicates = entries_of(data, name, narrow=True)
    if shape is not None:
        if len(shape) != len(data_shape) or any(s < d for s, d in zip(shape, data_shape)):
            raise PackError(f"tensor {name}: shape {shape} cannot hold data of shape {data_shape}")
        data_shape = shape
    layout = resolve_family(layout, len(data_shape))
    if layout.order != len(data_shape):
        raise PackError(f"tensor {name}: layout {layout.spec} stores order-{layout.order} tensors, "
                        f"the data has order {len(data_shape)}")
    scalars = layout.compute_scalars(data_shape)
    check_scalar_types(layout, scalars, name, f"the shape {data_shape}")
    if all(not (extent.names() - set(scalars)) for extent in layout.shape):
        extents = tuple(int(extent.evaluate(scalars)) for extent in layout.shape)
        if extents != data_shape:
            raise PackError(f"tensor {name}: layout {layout.spec} holds shape {extents}, not {data_shape}")
    check_value_range(values, value_dtype(layout), name)
    if has_assembly(layout):
        return assemble(layout, columns, values, data_shape, name,
                        duplicates="refuse" if duplicates == "refuse" else "sum")
    coords = np.stack(columns, axis=1).reshape(-1, len(data_shape)).astype(INDEX_DTYPE, copy=False) if columns \
        else np.zeros((len(values), 0), INDEX_DTYPE)
    return reference_pack(layout, coords, values, data_shape, name, duplicates)


def _complex_values(layout, data) -> bool:
    """Whether complex data goes into a layout of complex values by a path that builds its arrays."""
    kind = getattr(getattr(data, "dtype", None), "kind", None)
    if isinstance(data, tuple) and len(data) == 3:
        kind = np.asarray(data[1]).dtype.kind
    if kind != "c":
        return False
    if hasattr(layout, "resolve"):
        layout = resolve_family(layout, len(_data_shape(data)))
    return layout.value_type.is_complex


def _data_shape(data) -> tuple:
    """The shape of scipy, numpy or (coords, values, shape) data."""
    return tuple(data[2]) if isinstance(data, tuple) else tuple(np.shape(data))


def _complex_tensor(layout, data, name: str, shape) -> Tensor:
    """Complex data in a sparse layout of complex values: the builders carry real values, so
    the real and imaginary parts are packed apart, at the same coordinates (explicit zeros
    kept), and their values joined; the two packs' index arrays must agree."""
    if _scipy_sparse(data):
        data = data.tocoo()
        coords, values, data_shape = np.stack([data.row, data.col], axis=1), data.data, data.shape
    elif isinstance(data, tuple):
        coords, values, data_shape = np.asarray(data[0]), np.asarray(data[1]), data[2]
    else:  # a numpy array: its nonzeros
        array = np.asarray(data)
        coords = np.argwhere(array != 0)
        values, data_shape = array[tuple(coords.T)], array.shape
    real_layout = layout.with_values("float64")
    real = pack_into(real_layout, (coords, values.real.astype(np.float64), data_shape), name, shape, True)
    imaginary = pack_into(real_layout, (coords, values.imag.astype(np.float64), data_shape), name, shape, True)
    fields = dict(real.fields)
    if any(not np.array_equal(fields[f], imaginary.fields[f]) for f in fields if f != layout.values_field):
        raise PackError(f"tensor {name}: the real and imaginary parts of complex data packed into different "
                        f"patterns in {_spec(layout)}; pack it into a dense layout, or CSR/CSC from scipy")
    values = np.empty(fields[layout.values_field].shape, dtype=layout.value_type.dtype)
    values.real, values.imag = fields[layout.values_field], imaginary.fields[layout.values_field]
    fields[layout.values_field] = values
    return Tensor(layout, real.shape, fields, name)


def _scipy_sparse(data) -> bool:
    import scipy.sparse as sparse
    return sparse.issparse(data)


def borrow(layout: LayoutLike, data: Any, name: str = UNNAMED) -> Tensor:
    """For the span of one kernel call: a Tensor over the caller's own arrays when they
    already are the layout's (a scipy matrix in form, as :func:`pack` would share it; a
    float64 C-ordered numpy array for a row-major dense layout), checked as packing
    checks them but left writable for the caller (read-only only in this Tensor), so the
    call neither copies nor freezes them; anything else is packed into a copy.  Not for
    a Tensor that outlives the call: the caller may change the arrays afterwards."""
    if not (hasattr(layout, "fields") or hasattr(layout, "resolve")):  # a kernel's layouts are loaded
        layout = load_layout_argument(layout)
    dense = _dense_target(layout, data)
    if dense is not None and data.dtype == value_dtype(dense) and data.flags.c_contiguous:
        return _dense_tensor(dense, data, name, copy=False, borrowed=True)
    if dense is None:
        shared = borrow_in_place(layout, data, name)
        if shared is not None:
            return shared
    return pack_into(layout, data, name=name, copy=True)


def borrow_in_place(layout: Layout, data: Any, name: str = "tensor") -> Tensor | None:
    """A checked Tensor over a scipy matrix's own arrays when they are ``layout``'s form
    (:func:`borrow`), else None."""
    shared, _ = _shared_tensor(layout, data, name, None, borrowed=True)
    return shared


def _dense_target(layout, data):
    """The row-major dense layout (:func:`row_major`) ``layout`` is for a numpy array
    ``data`` of its order, or None."""
    if not isinstance(data, np.ndarray) or isinstance(data, np.ma.MaskedArray) or data.ndim < 1 \
            or data.dtype == object:
        return None
    resolved = resolve_family(layout, data.ndim)
    return resolved if resolved.order == data.ndim and row_major(resolved) else None


@functools.lru_cache(maxsize=256)
def row_major(layout: Layout) -> bool:
    """Whether ``layout`` stores a numpy array as it is: its only array holds the values,
    one dimension per mode, the extents the shape's, indexed by positions equal to the
    coordinates in order (Dense1..Dense4 and layout files of that form)."""
    if not getattr(layout, "padded", False) or len(layout.fields) != layout.order + 1 or len(layout.arrays) != 1:
        return False
    values = layout.arrays[0]
    if values.name != layout.values_field or len(values.dimensions) != layout.order:
        return False
    try:
        reading = read_levels(layout)
    except SpfError:
        return False
    if reading.guards or any(level.calls for level in reading.levels):
        return False
    physical = tuple(layout.physical)
    if [str(index) for index in layout.values_index] != list(physical):
        return False
    scalars = {field.name: field.definition for field in layout.scalars}
    for mode, (coordinate, position) in enumerate(zip(layout.logical, physical)):
        if reading.definitions.get(coordinate) != Affine.of(position):
            return False
        level = reading.levels[mode]
        if [str(bound) for bound in level.lower] != ["0"] or len(level.upper) != 1:
            return False
        extent = str(layout.shape[mode])
        if str(level.upper[0]) != f"{extent} - 1" or str(values.dimensions[mode]) != extent \
                or str(scalars.get(extent)) != f"shape[{mode}]":
            return False
    return True


def _dense_tensor(layout, array: np.ndarray, name: str, copy: bool | None, borrowed: bool = False) -> Tensor:
    """A numpy array in a row-major dense layout (:func:`row_major`): its values in the
    layout's value type (float64 or float32), copied (``copy=False``: shared when already
    of that type and C-contiguous, then read-only; ``borrowed``, read-only only in the
    Tensor: :func:`borrow`)."""
    dtype = value_dtype(layout)
    check_real(array, name, into=dtype)
    check_value_range(array, dtype, name)
    shape = tuple(int(extent) for extent in array.shape)
    if copy is False:
        if array.dtype != dtype or not array.flags.c_contiguous:
            raise PackError(f"tensor {name}: copy=False, but packing into {_spec(layout)} needs a copy: the array "
                            f"is {array.dtype}{'' if array.flags.c_contiguous else ', not C-contiguous'}, "
                            f"not {dtype} in C order")
        values = array
    else:
        values = np.array(array, dtype=dtype, order="C", copy=True)
    fields = {**layout.compute_scalars(shape), layout.values_field: values}
    return Tensor._from_checked(layout, shape, fields, name, borrowed=borrowed)


def _shared_tensor(layout, data, name: str, shape: tuple[int, ...] | None,
                   copy: bool = False, borrowed: bool = False) -> tuple[Tensor | None, str]:
    """``(Tensor over the arrays of the scipy object data, "")``, or ``(None, why not)``;
    with ``copy``, over copies of them (checked as they are: no repacking needed); with
    ``borrowed``, over them but read-only only in the Tensor (:func:`borrow`)."""
    import scipy.sparse as sparse
    from spf.runtime.scipy_arrays import shared_fields

    if not sparse.issparse(data):
        return None, f"only scipy.sparse data is shared, not {type(data).__name__}"
    data_shape = tuple(int(extent) for extent in data.shape)
    if shape is not None and shape != data_shape:
        return None, f"shape {shape} is not the data's {data_shape}"
    layout = resolve_family(layout, len(data_shape))
    fields, reason = shared_fields(layout, data, name)
    if fields is None:
        return None, reason
    if copy:
        fields = {key: np.array(value, copy=True) if isinstance(value, np.ndarray) else value
                  for key, value in fields.items()}
    return Tensor._from_checked(layout, data_shape, fields, name, borrowed=borrowed), ""


def _spec(layout) -> str:
    return getattr(layout, "spec", None) or layout.name


def reference_pack(layout: Layout, coords: np.ndarray, values: np.ndarray, shape: tuple[int, ...], name: str,
                   duplicates: str = "refuse") -> Tensor:
    """Packing by the layout-reading Python packer (:class:`Packer`), then a full check.

    The reference the generated assembly is tested against, and the path of layouts it
    does not assemble yet (padded levels of fixed width: ELL, WARP24).
    """
    coords, values, _ = coordinates_of((coords, values, shape), name) if duplicates != "sum" else \
        coordinates_of(summed(coords, values, shape), name)
    try:
        fields = Packer(layout, name).pack(coords, values, shape)
    except UnboundNameError as error:
        raise unreadable_relation(layout, error, name) from None
    checked, stored = check_fields(layout, fields, name, shape, owned=True)
    _require_input_stored(layout, stored, coords, values, shape, name)
    return Tensor._from_checked(layout, shape, checked, name)


def _require_input_stored(layout, stored, coords: np.ndarray, values: np.ndarray,
                          shape: tuple[int, ...], name: str) -> None:
    """Refuse input entries the packed tensor does not hold (the layout cannot represent them).

    ``stored`` is the enumeration of every stored position; its entries (as :meth:`Tensor.to_coo`
    keeps them) must be exactly the input's, values compared in the layout's value type.
    """
    stored_coords, stored_values = stored
    inside = np.all((stored_coords >= 0) & (stored_coords < np.asarray(shape, dtype=INDEX_DTYPE)), axis=1) \
        if len(stored_values) else np.zeros(0, dtype=bool)
    values = values.astype(stored_values.dtype)
    kept = inside & (stored_values != 0) if layout.padded else inside
    wanted = values != 0 if layout.padded else np.ones(len(values), dtype=bool)
    kept_coords, kept_values = stored_coords[kept], stored_values[kept]
    order = np.lexsort(kept_coords.T[::-1]) if len(kept_values) else np.arange(0)
    kept_coords, kept_values = kept_coords[order], kept_values[order]
    matches = np.array_equal(kept_coords, coords[wanted]) and \
        np.array_equal(kept_values, values[wanted], equal_nan=True)
    if matches and wanted.all():
        return
    # A mismatch, or explicit zeros given to a padded layout: each input entry needs a place.
    unstorable = _rows_missing(stored_coords[inside], coords)
    if unstorable.size:
        entry = tuple(int(c) for c in coords[unstorable[0]])
        raise PackError(f"tensor {name}: the pattern does not fit layout {layout.spec}: entry {entry} "
                        "cannot be stored")
    if matches:
        return
    lost = _rows_missing(kept_coords, coords[wanted])
    if lost.size:
        entry = tuple(int(c) for c in coords[wanted][lost[0]])
        raise PackError(f"tensor {name}: the pattern does not fit layout {layout.spec}: entry {entry} "
                        "is not held after packing (another entry took its place)")
    raise PackError(f"tensor {name}: the pattern does not fit layout {layout.spec}: the stored entries "
                    "differ from the input")


def _rows_missing(present: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Indices (increasing) of the rows of ``wanted`` that are not rows of ``present``."""
    if not len(wanted):
        return np.zeros(0, dtype=INDEX_DTYPE)
    both = np.concatenate([present.reshape(-1, wanted.shape[1]), wanted]).astype(INDEX_DTYPE)
    tag = np.concatenate([np.zeros(len(both) - len(wanted), dtype=INDEX_DTYPE),
                          np.ones(len(wanted), dtype=INDEX_DTYPE)])
    order = np.lexsort((tag,) + tuple(both.T[::-1]))  # equal rows: present (tag 0) first
    rows, tags = both[order], tag[order]
    starts = np.ones(len(rows), dtype=bool)
    starts[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    run_tag = tags[starts][np.cumsum(starts) - 1]  # the tag of the first row of each run
    return np.sort(order[(tags == 1) & (run_tag == 1)] - (len(both) - len(wanted)))


def from_fields(layout: LayoutLike, fields: Mapping[str, object], name: str = UNNAMED,
                shape: Sequence[int] | None = None) -> Tensor:
    """A Tensor from already packed fields, after :func:`spf.runtime.validation.validate` (the arrays are copied)."""
    name = arguments.name(name)
    layout = load_layout_argument(layout)
    if shape is not None:
        shape = arguments.shape(shape, name)
    if hasattr(layout, "resolve"):
        if shape is None:
            raise PackError(f"tensor {name}: a layout family ({layout.name}) needs the tensor's order: pass "
                            "its member layout or shape=")
        layout = layout.resolve(len(shape))
    checked, _ = check_fields(layout, fields, name, shape, owned=False)
    return Tensor._from_checked(layout, shape_of(layout, checked, name), checked, name)
