"""Packing tensors into layouts (inspectors), checking them, and reading them back.

Packing is derived from the layout file alone, so a new layout needs no new code.
The relation is read level by level (:mod:`spf.levels`).  A physical index is either

* *determined* by the coordinates: some definition ``c = a*p + rest`` can be solved
  for it, exactly or as a floor division when the unknown rest stays within
  ``[0, a)`` (``i = 2*pI + pii`` with ``0 <= pii < 2`` gives ``pI = i / 2``); or
* *enumerated*: entries with equal outer positions form a group, and the distinct
  values of the level's *keys* (the UF calls on it, such as ``colIdx(pj) = j``) get
  consecutive positions, ordered as the keys' properties require.  A level bounded by
  ``g(q) <= p < g(q+1)`` fills the pointer array g; a level bounded by a count field
  sets that count; a level of fixed width is padded.

Whatever way the fields arrive (built here or given by the user), :func:`validate`
checks types, array lengths, the layout's assumptions, every property and that every
stored entry lies inside the shape before a Tensor exists, and names the tensor, the
array and the property when something is wrong.  A :class:`Tensor` is therefore valid
by construction, and its arrays are read-only, so kernels read it without checking.
"""

from __future__ import annotations

import functools

import os
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from spf import arguments
from spf.errors import ArgumentError, PackError, PropertyViolation, SpfError, UnboundNameError
from spf.expressions import Affine, Constraint, UFCall, conjuncts
from spf.levels import LayoutLevels, read_levels, remainder_fits
from spf.memory import allocate, require
from spf.properties import CovaryingMonotonic, Monotonic, PeriodicMonotonic, Range, from_spec

if TYPE_CHECKING:
    from scipy import sparse

    from spf.arguments import LayoutLike
    from spf.layout_library.model import Layout

INDEX_DTYPE = np.int64
EXACT_INTEGERS = 2**53
"""Integers up to this magnitude are exactly doubles (values) and exactly float coordinates."""


# ----------------------------------------------------------------------------- Tensor


class Tensor:
    """A tensor stored in a layout: the layout's fields by name, and the logical shape.

    Valid by construction: ``Tensor(layout, shape, fields, name)`` checks the fields as
    :func:`validate` does (types, lengths, assumptions, every declared property, every
    stored entry inside the shape) and keeps read-only copies of the arrays; ``fields``
    is a read-only mapping and the attributes cannot be reassigned.  A kernel can
    therefore use a Tensor without checking it again.
    """

    __slots__ = ("layout", "shape", "fields", "name", "_structs")

    def __init__(self, layout: LayoutLike, shape: Sequence[int], fields: Mapping[str, object], name: str = "tensor"):
        name = arguments.name(name)
        shape = arguments.shape(shape, name)
        layout = _resolve(_load_layout(layout), len(shape))
        checked, _ = _validate(layout, fields, name, shape, owned=False)
        self._settle(layout, shape, checked, name)

    @classmethod
    def _from_checked(cls, layout, shape: tuple[int, ...], fields: dict[str, object], name: str,
                      written: str | None = None, borrowed: bool = False) -> "Tensor":
        """A Tensor from fields :func:`_validate` has just accepted and nothing else
        references (the packer's own arrays): no second check, no copy.  ``written``: a
        field a kernel keeps writing (an output's values), read-only only in this Tensor.
        ``borrowed``: every array is read-only only in this Tensor (:func:`borrow`)."""
        tensor = cls.__new__(cls)
        tensor._settle(layout, tuple(shape), fields, name, written, borrowed)
        return tensor

    @classmethod
    def _from_handed_over(cls, layout, shape: tuple[int, ...], fields: Mapping[str, object], name: str) -> "Tensor":
        """A Tensor over fields whose arrays are already read-only for good (memory a kernel
        handed over, or empty read-only arrays), kept as they are: a sparse output's every
        call, and a Tensor renamed.  The slots are set through their descriptors."""
        tensor = cls.__new__(cls)
        _set_layout(tensor, layout)
        _set_shape(tensor, tuple(shape))
        _set_fields(tensor, fields if isinstance(fields, MappingProxyType) else MappingProxyType(fields))
        _set_name(tensor, name)
        _set_structs(tensor, {})
        return tensor

    def _renamed(self, name: str) -> "Tensor":
        """The same Tensor (layout, shape, the very same read-only fields) under another name."""
        return type(self)._from_handed_over(self.layout, self.shape, self.fields, name)

    def _settle(self, layout, shape: tuple[int, ...], fields: dict[str, object], name: str,
                written: str | None = None, borrowed: bool = False) -> None:
        frozen = {key: _read_only(value, key != written and not borrowed) if isinstance(value, np.ndarray)
                  else value for key, value in fields.items()}
        # _structs: the C structs kernels read this Tensor through, made once (codegen.structs.marshal)
        for attribute, value in (("layout", layout), ("shape", shape),
                                 ("fields", MappingProxyType(frozen)), ("name", name), ("_structs", {})):
            object.__setattr__(self, attribute, value)

    def __setattr__(self, attribute: str, value) -> None:
        raise AttributeError(f"a Tensor is read-only (valid by construction): cannot set {attribute}; "
                             "pack or build a new Tensor instead")

    def __delattr__(self, attribute: str) -> None:
        raise AttributeError(f"a Tensor is read-only (valid by construction): cannot delete {attribute}")

    @property
    def order(self) -> int:
        return len(self.shape)

    @property
    def values(self) -> np.ndarray:
        return self.fields[self.layout.values_field]

    def stored(self) -> tuple[np.ndarray, np.ndarray]:
        """Every stored position's coordinates and value, padding included, in storage order."""
        return enumerate_stored(self.layout, self.fields, self.shape, name=self.name)

    def to_coo(self) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
        """``(coords[nnz, order], values[nnz], shape)`` in lexicographic coordinate order.

        Padded layouts (dense blocks, padding slots) drop their stored zeros; other
        layouts return every stored entry, explicit zeros included.  A padded layout's
        slots may far outnumber its entries (DIA's diagonals over a mesh: 83M slots for
        92k entries), so its entries come from a generated copy kernel into a coordinate
        list, which reads each slot once and keeps only entries, rather than from the
        coordinates of every slot.
        """
        coordinate_list = _COORDINATE_LISTS.get(len(self.shape))
        if self.layout.padded and coordinate_list is not None:
            from spf.assemble import convert
            return convert(self, coordinate_list).to_coo()
        coords, values = self.stored()
        inside = np.all((coords >= 0) & (coords < np.asarray(self.shape, dtype=INDEX_DTYPE)), axis=1) \
            if coords.size else np.ones(len(values), dtype=bool)
        keep = inside & (values != 0) if self.layout.padded else inside
        coords, values = coords[keep], values[keep]
        order = np.lexsort(coords.T[::-1]) if len(values) else np.arange(0)
        return coords[order], values[order], tuple(self.shape)

    def to_scipy(self) -> sparse.sparray:
        """An order-1 or order-2 tensor as a scipy.sparse array: ``csr_array`` (``csc_array``,
        ``coo_array``) over this Tensor's own read-only arrays when the layout is CSR (CSC,
        a coordinate list) in form, with scipy's canonical flags set from its properties;
        otherwise a new ``coo_array`` of :meth:`to_coo`'s entries (:mod:`spf.scipy_arrays`)."""
        from spf.scipy_arrays import to_scipy
        return to_scipy(self)

    def to_dense(self) -> np.ndarray:
        coords, values, shape = self.to_coo()
        dense = allocate(shape, np.result_type(values.dtype, np.float64), f"tensor {self.name}: to_dense()")
        if len(values):
            np.add.at(dense, tuple(coords.T), values)
        return dense

    @property
    def nnz(self) -> int:
        return len(self.to_coo()[1])

    def __repr__(self) -> str:
        return f"Tensor({self.name}: {self.layout.spec}, shape={self.shape})"


_COORDINATE_LISTS = {2: "COO", 3: "COO3", 4: "COO4"}  # a sorted coordinate list per order


# the slots' own setters: Tensor.__setattr__ refuses every assignment once it exists
_set_layout, _set_shape, _set_fields, _set_name, _set_structs = (
    getattr(Tensor, slot).__set__ for slot in Tensor.__slots__)


def handed_over(array: np.ndarray) -> bool:
    """Whether ``array`` is numpy over memory a kernel handed over, declared read-only: numpy
    refuses to make it or any view of it writable, and only the kernel's owner frees it."""
    return not array.flags.writeable and \
        bool(getattr(array.base, "__array_interface__", {}).get("data", (0, False))[1])


def _read_only(array: np.ndarray, freeze_memory: bool = True) -> np.ndarray:
    """A read-only view of ``array``.  With ``freeze_memory``, ``array`` and every array it is
    a view of, up to the one that owns the memory, are made read-only too: the view's flag
    cannot be set back (numpy refuses to make a view writable when its base is not), and
    whoever holds ``array`` (a scipy matrix whose arrays :func:`pack` shares) cannot write
    through it (numpy checks only the written array's own flag)."""
    if handed_over(array):
        return array  # no view can be made writable
    view = array.view()
    if freeze_memory:
        link = array
        while isinstance(link, np.ndarray):
            link.flags.writeable = False
            link = link.base
    view.flags.writeable = False
    return view


# ----------------------------------------------------------------------------- input


def _load_layout(layout):
    from spf.layout_library import load_layout
    arguments.layout(layout, "layout")
    if isinstance(layout, (str, os.PathLike)):
        return load_layout(layout)
    return layout


def _resolve(layout, order: int):
    if hasattr(layout, "resolve"):
        return layout.resolve(order)
    return layout


def _as_array(data, name: str, what: str) -> np.ndarray:
    """``np.asarray(data)``, with numpy's refusals (ragged nesting, ...) as PackError."""
    try:
        return np.asarray(data)
    except (ValueError, TypeError, OverflowError) as error:
        raise PackError(f"tensor {name}: cannot read {what} as an array: {error}") from None


def check_real(values: np.ndarray, name: str, what: str = "values") -> None:
    """Refuse values that would be silently wrong as doubles: complex numbers (the imaginary
    part would be dropped), integers beyond 2**53 (rounded), and anything that is not a
    number (strings, Python objects, dates)."""
    kind = values.dtype.kind
    if kind == "c":
        raise PackError(f"tensor {name}: {what} are complex ({values.dtype}); layouts store real numbers "
                        "(pass .real or .imag explicitly)")
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


def _value_dtype(layout) -> np.dtype:
    """The numpy type of a layout's values (float64 for ``double``, float32 for ``float``)."""
    return layout.field(layout.values_field).numpy_dtype


def real_values(values: np.ndarray, name: str, what: str = "values") -> np.ndarray:
    """``values`` as float64 after :func:`check_real`."""
    check_real(values, name, what)
    return values.astype(np.float64)


def _integer_coordinates(coords: np.ndarray, name: str) -> np.ndarray:
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


def coordinates_of(data: Any, name: str = "tensor") -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """``(coords, values, shape)`` of scipy.sparse, dense numpy, or a (coords, values, shape) triple,
    in lexicographic order without duplicates (scipy's are summed, a triple's refused)."""
    columns, values, shape, duplicates = entries_of(data, name)
    coords = np.stack(columns, axis=1).reshape(-1, len(shape)) if columns else np.zeros((len(values), 0), INDEX_DTYPE)
    if duplicates == "sum":
        import scipy.sparse as sparse
        matrix = sparse.coo_array((values, tuple(coords.T)), shape=shape)
        matrix.sum_duplicates()
        coords = np.stack(matrix.coords, axis=1).astype(INDEX_DTYPE).reshape(-1, len(shape))
        return coords, np.asarray(matrix.data, dtype=np.float64), shape
    order = np.lexsort(coords.T[::-1]) if len(values) else np.arange(0)
    coords, values = coords[order], values[order]
    if len(values) > 1:
        same = np.flatnonzero(np.all(coords[1:] == coords[:-1], axis=1))
        if same.size:
            bad = tuple(int(c) for c in coords[same[0]])
            raise PackError(f"tensor {name}: coordinate {bad} appears more than once")
    return coords, values, shape


def _pydata_coordinates(data, name: str = "tensor") -> tuple | None:
    """``(coords[order, nnz], values, shape)`` of a pydata ``sparse`` array (COO, DOK, GCXS,
    ...: :mod:`spf.pydata_arrays`), or None for anything else.  Its duplicates are summed,
    its own rule."""
    from spf.pydata_arrays import coordinates, is_pydata
    return coordinates(data, name) if is_pydata(data) else None


def entries_of(data: Any, name: str = "tensor", narrow: bool = False) -> tuple[list[np.ndarray], np.ndarray,
                                                                          tuple[int, ...], str]:
    """``(columns, values, shape, duplicates)`` of the user's data, checked, in any order:
    one int64 array (or strided view) of coordinates per mode, float64 values; with
    ``narrow``, scipy's int32 index arrays as they are (the generated assembly reads them).

    ``duplicates`` says what equal coordinates mean: ``"sum"`` for scipy.sparse (its own
    rule), ``"refuse"`` for a (coords, values, shape) triple, ``"none"`` for dense arrays.
    """
    import scipy.sparse as sparse

    if sparse.issparse(data):
        from spf.scipy_arrays import check_structure
        check_structure(data, name)
        if data.format in ("csr", "csc", "bsr") and data.indptr[-1] < len(data.indices):
            data = data.copy()
            data.prune()  # scipy's conversions would read the entries past indptr's end
        try:
            matrix = sparse.coo_array(data) if data.ndim != 2 else sparse.coo_matrix(data)
        except ValueError as error:  # scipy's own checks: a coordinate outside the shape, ...
            raise PackError(f"tensor {name}: scipy cannot read the {data.format} matrix: {error}") from None
        check_real(np.asarray(matrix.data), name)
        values = np.asarray(matrix.data).astype(np.float64, copy=False)
        columns = [np.asarray(c) for c in (getattr(matrix, "coords", None) or (matrix.row, matrix.col))]
        if not (narrow and all(c.dtype == np.int32 for c in columns)):
            columns = [c.astype(INDEX_DTYPE, copy=False) for c in columns]
        return columns, values, tuple(int(s) for s in matrix.shape), "sum"
    pydata = _pydata_coordinates(data, name)
    if pydata is not None:
        coords, values, shape = pydata
        columns, values, shape, _ = entries_of((coords.T, values, shape), name)
        return columns, values, shape, "sum"
    if isinstance(data, tuple) and len(data) == 3:
        coords, values, shape = data
        shape = arguments.shape(shape, name)
        coords = _as_array(coords, name, "the coordinates")
        values = real_values(_as_array(values, name, "the values"), name).reshape(-1)
        if coords.size == 0:
            coords = coords.reshape(0, len(shape))
        if coords.ndim == 1 and len(shape) == 1:
            coords = coords.reshape(-1, 1)
        if coords.ndim != 2 or coords.shape[1] != len(shape):
            raise PackError(f"tensor {name}: coordinates must have shape (nnz, {len(shape)}), "
                            f"got {coords.shape}")
        if len(values) != coords.shape[0]:
            raise PackError(f"tensor {name}: {coords.shape[0]} coordinates but {len(values)} values")
        coords = _integer_coordinates(coords, name)
        outside = np.flatnonzero(np.any((coords < 0) | (coords >= np.asarray(shape, dtype=INDEX_DTYPE)), axis=1)) \
            if len(values) else np.zeros(0, dtype=int)
        if outside.size:
            bad = tuple(int(c) for c in coords[outside[0]])
            raise PackError(f"tensor {name}: coordinate {bad} (entry {int(outside[0])}) is outside "
                            f"the shape {shape}")
        return [coords[:, k] for k in range(len(shape))], values.astype(np.float64, copy=False), shape, "refuse"
    if isinstance(data, np.ma.MaskedArray):
        raise PackError(f"tensor {name}: a masked array's masked entries would be read as numbers; "
                        "fill them first (e.g. .filled(0))")
    if isinstance(data, (str, bytes, Mapping)) or data is None:
        raise PackError(f"tensor {name}: cannot read {type(data).__name__} as a tensor; give scipy.sparse, "
                        "a numpy array, (coords, values, shape) or a dict of layout fields")
    array = _as_array(data, name, type(data).__name__)
    if array.dtype == object:
        raise PackError(f"tensor {name}: cannot read {type(data).__name__} of Python objects as a tensor; give "
                        "scipy.sparse, a numpy array of numbers, (coords, values, shape) or a dict of layout fields")
    if array.ndim == 0:
        raise PackError(f"tensor {name}: got a single number ({type(data).__name__}); layouts store tensors "
                        "of order 1 or more: give an array")
    check_real(array, name)
    coords = np.argwhere(array != 0).astype(INDEX_DTYPE).reshape(-1, array.ndim)
    return ([coords[:, k] for k in range(array.ndim)], array[tuple(coords.T)].astype(np.float64),
            tuple(int(s) for s in array.shape), "none")


def read_tns(path: str | os.PathLike) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """Read a FROSTT ``.tns`` file: ``i j k ... value`` per line, 1-based indices.

    Returns 0-based ``(coords, values, shape)``, the shape being the largest index per mode.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError(f"read_tns: path must be a str or a path, got {path!r}")
    path = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            content = handle.read()
    except OSError as error:
        raise SpfError(f"cannot read {path}: {error.strerror}") from None
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        line = content.count(b"\n", 0, error.start) + 1
        raise SpfError(f"{path}:{line}: not a text file (byte 0x{content[error.start]:02x} is not UTF-8)") from None
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        raise SpfError(f"{path}: no entries")
    first_number, first = numbered[0]
    width = len(first.split())
    if width < 2:
        raise SpfError(f"{path}:{first_number}: expected indices and a value, found {first!r}")
    tokens = " ".join(line for _, line in numbered).split()
    if len(tokens) != width * len(numbered):
        for number, line in numbered:
            if len(line.split()) != width:
                raise SpfError(f"{path}:{number}: line {number} has {len(line.split())} fields, expected "
                               f"{width} (as on the first entry line)")
    try:
        table = np.array(tokens, dtype=np.float64).reshape(len(numbered), width)
    except ValueError as error:
        raise SpfError(f"{path}: not a number: {error}") from None
    indices = table[:, :-1]
    finite = np.where(np.isfinite(indices), indices, 0.5)
    bad = (indices < 1) | (np.mod(finite, 1) != 0) | (indices > EXACT_INTEGERS)
    if bad.any():
        row = int(np.flatnonzero(np.any(bad, axis=1))[0])
        raise SpfError(f"{path}:{numbered[row][0]}: indices must be positive integers (1-based) up to 2**53, "
                       f"found {numbered[row][1].split()[:width - 1]}")
    coords = indices.astype(INDEX_DTYPE) - 1
    shape = tuple(int(m) + 1 for m in coords.max(axis=0))
    return coords, table[:, -1].copy(), shape


# ----------------------------------------------------------------------------- pack


def pack(layout: LayoutLike, data: Any, name: str = "tensor", shape: Sequence[int] | None = None,
         copy: bool | None = None) -> Tensor:
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
    """
    name = arguments.name(name)
    layout = _load_layout(layout)
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
    columns, values, data_shape, duplicates = entries_of(data, name, narrow=True)
    if shape is not None:
        if len(shape) != len(data_shape) or any(s < d for s, d in zip(shape, data_shape)):
            raise PackError(f"tensor {name}: shape {shape} cannot hold data of shape {data_shape}")
        data_shape = shape
    layout = _resolve(layout, len(data_shape))
    if layout.order != len(data_shape):
        raise PackError(f"tensor {name}: layout {layout.spec} stores order-{layout.order} tensors, "
                        f"the data has order {len(data_shape)}")
    scalars = layout.compute_scalars(data_shape)
    _check_scalar_types(layout, scalars, name, f"the shape {data_shape}")
    if all(not (extent.names() - set(scalars)) for extent in layout.shape):
        extents = tuple(int(extent.evaluate(scalars)) for extent in layout.shape)
        if extents != data_shape:
            raise PackError(f"tensor {name}: layout {layout.spec} holds shape {extents}, not {data_shape}")
    check_value_range(values, _value_dtype(layout), name)
    from spf.assemble import assemble, has_assembly
    if has_assembly(layout):
        return assemble(layout, columns, values, data_shape, name,
                        duplicates="refuse" if duplicates == "refuse" else "sum")
    coords = np.stack(columns, axis=1).reshape(-1, len(data_shape)).astype(INDEX_DTYPE, copy=False) if columns \
        else np.zeros((len(values), 0), INDEX_DTYPE)
    return reference_pack(layout, coords, values, data_shape, name, duplicates)


def _scipy_sparse(data) -> bool:
    import scipy.sparse as sparse
    return sparse.issparse(data)


def borrow(layout: LayoutLike, data: Any, name: str = "tensor") -> Tensor:
    """For the span of one kernel call: a Tensor over the caller's own arrays when they
    already are the layout's (a scipy matrix in form, as :func:`pack` would share it; a
    float64 C-ordered numpy array for a row-major dense layout), checked as packing
    checks them but left writable for the caller (read-only only in this Tensor), so the
    call neither copies nor freezes them; anything else is packed into a copy.  Not for
    a Tensor that outlives the call: the caller may change the arrays afterwards."""
    if not (hasattr(layout, "fields") or hasattr(layout, "resolve")):  # a kernel's layouts are loaded
        layout = _load_layout(layout)
    dense = _dense_target(layout, data)
    if dense is not None and data.dtype == _value_dtype(dense) and data.flags.c_contiguous:
        return _dense_tensor(dense, data, name, copy=False, borrowed=True)
    if dense is None:
        shared, _ = _shared_tensor(layout, data, name, None, borrowed=True)
        if shared is not None:
            return shared
    return pack(layout, data, name=name, copy=True)


def _dense_target(layout, data):
    """The row-major dense layout (:func:`_row_major`) ``layout`` is for a numpy array
    ``data`` of its order, or None."""
    if not isinstance(data, np.ndarray) or isinstance(data, np.ma.MaskedArray) or data.ndim < 1 \
            or data.dtype == object:
        return None
    resolved = _resolve(layout, data.ndim)
    return resolved if resolved.order == data.ndim and _row_major(resolved) else None


@functools.lru_cache(maxsize=256)
def _row_major(layout) -> bool:
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
    """A numpy array in a row-major dense layout (:func:`_row_major`): its values in the
    layout's value type (float64 or float32), copied (``copy=False``: shared when already
    of that type and C-contiguous, then read-only; ``borrowed``, read-only only in the
    Tensor: :func:`borrow`)."""
    check_real(array, name)
    dtype = _value_dtype(layout)
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
    from spf.scipy_arrays import shared_fields

    if not sparse.issparse(data):
        return None, f"only scipy.sparse data is shared, not {type(data).__name__}"
    data_shape = tuple(int(extent) for extent in data.shape)
    if shape is not None and shape != data_shape:
        return None, f"shape {shape} is not the data's {data_shape}"
    layout = _resolve(layout, len(data_shape))
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
    """Packing by the layout-reading Python packer (:class:`_Packer`), then a full check.

    The reference the generated assembly is tested against, and the path of layouts it
    does not assemble yet (padded levels of fixed width: ELL, WARP24).
    """
    coords, values, _ = coordinates_of((coords, values, shape), name) if duplicates != "sum" else \
        coordinates_of(_summed(coords, values, shape), name)
    try:
        fields = _Packer(layout, name).pack(coords, values, shape)
    except UnboundNameError as error:
        raise _unreadable(layout, error, name) from None
    checked, stored = _validate(layout, fields, name, shape, owned=True)
    _require_input_stored(layout, stored, coords, values, shape, name)
    return Tensor._from_checked(layout, shape, checked, name)


def _summed(coords: np.ndarray, values: np.ndarray, shape: tuple[int, ...]):
    """(coords, values, shape) with equal coordinates summed, as scipy.sparse does."""
    if not len(values):
        return coords, values, shape
    unique, inverse = np.unique(coords, axis=0, return_inverse=True)
    return unique, np.bincount(inverse.reshape(-1), weights=values, minlength=len(unique)), shape


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


def from_fields(layout: LayoutLike, fields: Mapping[str, object], name: str = "tensor",
                shape: Sequence[int] | None = None) -> Tensor:
    """A Tensor from already packed fields, after :func:`validate` (the arrays are copied)."""
    name = arguments.name(name)
    layout = _load_layout(layout)
    if shape is not None:
        shape = arguments.shape(shape, name)
    if hasattr(layout, "resolve"):
        if shape is None:
            raise PackError(f"tensor {name}: a layout family ({layout.name}) needs the tensor's order: pass "
                            "its member layout or shape=")
        layout = layout.resolve(len(shape))
    checked, _ = _validate(layout, fields, name, shape, owned=False)
    return Tensor._from_checked(layout, _shape_of(layout, checked, name), checked, name)


def validate(layout: LayoutLike, fields: Mapping[str, object], name: str = "tensor",
             shape: Sequence[int] | None = None) -> dict[str, object]:
    """Check fields against the layout: presence, types, lengths, assumptions, properties,
    and that every stored entry lies inside the shape (unless the layout is padded).

    Returns copies of the fields converted to the declared numpy types.
    """
    name = arguments.name(name)
    if shape is not None:
        shape = arguments.shape(shape, name)
    return _validate(_load_layout(layout), fields, name, shape, owned=False)[0]


def _check_scalar_types(layout, scalars: Mapping[str, int], name: str, source: str) -> None:
    """Every scalar field fits its declared C type (``int`` is 32 bits in the kernels' structs)."""
    for declared in layout.scalars:
        value = scalars.get(declared.name)
        if value is None:
            continue
        info = np.iinfo(declared.numpy_dtype)
        if not info.min <= value <= info.max:
            raise PackError(f"tensor {name}: field {declared.name!r} of {layout.spec} would be {value} "
                            f"(from {source}), beyond the largest {declared.type} ({info.max})")


def _shape_of(layout, scalars: Mapping[str, object], name: str) -> tuple[int, ...]:
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
    array = _as_array(value, name, what)
    dtype = declared.numpy_dtype
    if np.issubdtype(dtype, np.integer):
        if array.size and array.dtype.kind not in "iu":
            raise PackError(f"tensor {name}: {what} must hold integers, got {array.dtype}")
        if array.size:
            info = np.iinfo(dtype)
            if int(array.min()) < info.min or int(array.max()) > info.max:
                raise PackError(f"tensor {name}: {what} has values outside the range of {declared.type}")
    else:
        check_real(array, name, f"the values of {what}")
        if dtype.itemsize < 8 and array.size and array.dtype.kind == "f":
            finite = np.isfinite(array)
            if np.any(finite & (np.abs(np.where(finite, array, 0)) > np.finfo(dtype).max)):
                raise PackError(f"tensor {name}: {what} has values beyond the largest {declared.type}")
    if owned:
        return np.ascontiguousarray(array, dtype=dtype)
    return np.array(array, dtype=dtype, order="C", copy=True)


def _validate(layout, fields: Mapping[str, object], name: str, shape: Sequence[int] | None,
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
    checked: dict[str, object] = {}
    for declared in layout.scalars:
        if declared.name not in fields:
            raise PackError(f"tensor {name}: field {declared.name!r} of {layout.spec} is missing")
        value = fields[declared.name]
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value.item()
        if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
            raise PackError(f"tensor {name}: field {declared.name!r} must be an integer, got {value!r}")
        if value < 0:
            raise PackError(f"tensor {name}: field {declared.name!r} is negative ({value})")
        checked[declared.name] = int(value)
    _check_scalar_types(layout, checked, name, "the fields")
    given_shape = shape is not None
    if shape is None:
        shape = _shape_of(layout, checked, name)
    expected = layout.compute_scalars(tuple(shape))
    for key, value in expected.items():
        if checked[key] != value:
            source = f"the shape {tuple(shape)}" if given_shape else f"the other fields (shape {tuple(shape)})"
            raise PackError(f"tensor {name}: field {key!r} is {checked[key]} but {source} needs {value}")
    extents = _shape_of(layout, checked, name)
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
        if isinstance(constraint, Constraint) and not _holds(constraint, checked):
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
        return int(expression.evaluate(fields, _Arrays(fields, "tensor")))
    except PackError:
        return "out of bounds"


def _holds(constraint: Constraint, fields: Mapping[str, object]) -> bool:
    try:
        left = int(constraint.left.evaluate(fields, _Arrays(fields, "tensor")))
        right = int(constraint.right.evaluate(fields, _Arrays(fields, "tensor")))
    except PackError:
        return False
    return {"=": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
            ">": left > right, ">=": left >= right}[constraint.op]


class _Arrays(Mapping):
    """Array lookup for UF evaluation that reports out-of-bounds reads as PackError."""

    def __init__(self, fields: Mapping[str, object], tensor: str):
        self.fields = fields
        self.tensor = tensor

    def __getitem__(self, name: str):
        array = np.asarray(self.fields[name])

        def lookup(*arguments):
            indices = tuple(np.asarray(a, dtype=INDEX_DTYPE) for a in arguments)
            for axis, index in enumerate(indices):
                if index.size and (index.min() < 0 or index.max() >= array.shape[axis]):
                    bad = int(index[(index < 0) | (index >= array.shape[axis])].reshape(-1)[0])
                    raise PackError(f"tensor {self.tensor}: the layout reads {name} at index {bad}, "
                                    f"outside its {array.shape[axis]} elements")
            return array[indices]
        return lookup

    def __iter__(self):
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)


# ----------------------------------------------------------------------------- enumeration


def _unreadable(layout, error: UnboundNameError, name: str) -> SpfError:
    """The LayoutError of a relation that packing or enumeration reads in an order where
    ``error.name`` has no value yet (a bound or definition the levels cannot compute)."""
    where = error.name if error.name in layout.locations else "relation"
    return layout.error(where, f"layout {layout.spec}: packing cannot read the relation level by level: "
                               f"{error} (each physical index's bounds and each definition may use only "
                               f"earlier physical indices, params, scalar fields and index arrays; tensor {name})")


def enumerate_stored(layout: Layout, fields: Mapping[str, object], shape: Sequence[int],
                     name: str = "tensor") -> tuple[np.ndarray, np.ndarray]:
    """Coordinates and values of every stored position, level by level (vectorised)."""
    try:
        return _enumerate_stored(layout, fields, name)
    except UnboundNameError as error:
        raise _unreadable(layout, error, name) from None


def _enumerate_stored(layout, fields: Mapping[str, object], name: str):
    reading = read_levels(layout)
    scalars = {k: v for k, v in fields.items() if not isinstance(v, np.ndarray)}
    arrays = _Arrays(fields, name)
    env: dict[str, np.ndarray] = {}
    rows = 1
    for level in reading.levels:
        low = _bound(level.lower, env, scalars, arrays, rows, np.maximum)
        high = _bound(level.upper, env, scalars, arrays, rows, np.minimum)
        counts = np.maximum(high - low + 1, 0)
        total = int(counts.sum())
        require((total, len(env) + 3), INDEX_DTYPE, f"tensor {name}: enumerating the stored positions")
        for key in env:
            env[key] = np.repeat(env[key], counts)
        starts = np.repeat(low, counts)
        offsets = np.arange(total, dtype=INDEX_DTYPE) - np.repeat(np.cumsum(counts) - counts, counts)
        env[level.index] = starts + offsets
        rows = total
    values_env = {**scalars, **env}
    coordinates = [np.broadcast_to(np.asarray(reading.definitions[c].evaluate(values_env, arrays),
                                              dtype=INDEX_DTYPE), (rows,)) for c in layout.logical]
    keep = np.ones(rows, dtype=bool)
    guard_env = dict(values_env)
    guard_env.update(zip(layout.logical, coordinates))
    for guard in reading.guards:
        keep &= _evaluate_constraint(guard, guard_env, arrays, rows)
    value_positions = tuple(np.broadcast_to(np.asarray(index.evaluate(values_env), dtype=INDEX_DTYPE), (rows,))
                            for index in layout.values_index)
    value_array = np.asarray(fields[layout.values_field])
    for axis, position in enumerate(value_positions):
        outside = (position < 0) | (position >= value_array.shape[axis])
        if rows and outside.any():
            bad = int(position[np.flatnonzero(outside)[0]])
            raise layout.error("values", f"layout {layout.spec}: the values index {layout.values_text()} reads "
                               f"{layout.values_field} at {bad} (axis {axis}), outside its "
                               f"{value_array.shape[axis]} elements (tensor {name})")
    values = value_array[value_positions][keep] if rows else np.zeros(0, dtype=value_array.dtype)
    coords = np.stack(coordinates, axis=1)[keep] if rows else np.zeros((0, layout.order), dtype=INDEX_DTYPE)
    return coords.astype(INDEX_DTYPE), values


def _bound(expressions: Sequence[Affine], env, scalars, arrays, rows: int, combine) -> np.ndarray:
    result = None
    for expression in expressions:
        value = np.broadcast_to(np.asarray(expression.evaluate({**scalars, **env}, arrays), dtype=INDEX_DTYPE),
                                (rows,))
        result = value if result is None else combine(result, value)
    return np.array(result, dtype=INDEX_DTYPE)


def _evaluate_constraint(constraint: Constraint, env, arrays, rows: int) -> np.ndarray:
    left = np.asarray(constraint.left.evaluate(env, arrays))
    right = np.asarray(constraint.right.evaluate(env, arrays))
    result = {"=": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
              ">": np.greater, ">=": np.greater_equal}[constraint.op](left, right)
    return np.broadcast_to(result, (rows,))


# ----------------------------------------------------------------------------- the packer


class _Packer:
    """Builds a layout's fields from sorted, duplicate-free coordinates."""

    def __init__(self, layout, name: str):
        self.layout = layout
        self.name = name
        self.reading: LayoutLevels = read_levels(layout)
        self.properties = [from_spec(s) for s in layout.properties]

    def fail(self, message: str) -> PackError:
        return PackError(f"tensor {self.name}: {message}")

    def layout_error(self, where: str, message: str):
        """A problem of the layout file that packing found, at ``where`` in the file."""
        return self.layout.error(where, f"layout {self.layout.spec}: {message} (packing tensor {self.name})")

    def _what(self, declared) -> str:
        """What an allocation is for, as a refusal names it."""
        return f"tensor {self.name}: array {declared.name} of {self.layout.spec} ({declared})"

    # -- what is known about unknown terms
    def _range_of(self, atom, scalars) -> tuple[int, int] | None:
        """Inclusive value range of a later physical index or a call, when constant."""
        if isinstance(atom, UFCall):
            for prop in self.properties:
                if isinstance(prop, Range) and prop.arrays[0] == atom.function:
                    try:
                        return int(prop.low.evaluate(scalars, {})), int(prop.high.evaluate(scalars, {})) - 1
                    except (KeyError, SpfError):
                        return None
            return None
        level = next(l for l in self.reading.levels if l.index == atom)
        try:
            low = max(int(e.evaluate(scalars, {})) for e in level.lower)
            high = min(int(e.evaluate(scalars, {})) for e in level.upper)
        except (KeyError, SpfError, TypeError):
            return None
        return low, high

    def _solve(self, target, env: dict, scalars, rows: int) -> np.ndarray | None:
        """Values of ``target`` (a physical index or a call) from the definitions, or None."""
        for coordinate, expression in self.reading.definitions.items():
            coefficients = dict(expression.terms)
            if target not in coefficients:
                continue
            own = coefficients.pop(target)
            known = env[coordinate] - expression.constant
            unknown = []
            for atom, coefficient in coefficients.items():
                value = self._known(atom, env, scalars)
                if value is None:
                    unknown.append((atom, coefficient))
                else:
                    known = known - coefficient * value
            if own < 0:
                own, known = -own, -known
                unknown = [(a, -c) for a, c in unknown]
            if not unknown:
                if np.any(known % own):
                    continue
                return np.broadcast_to(known // own, (rows,)).astype(INDEX_DTYPE)
            if remainder_fits(unknown, own, lambda atom: self._range_of(atom, scalars)):
                return np.broadcast_to(known // own, (rows,)).astype(INDEX_DTYPE)
        return None

    def _known(self, atom, env, scalars):
        if isinstance(atom, UFCall):
            return env.get(atom)
        if atom in env:
            return env[atom]
        if atom in scalars:
            return scalars[atom]
        return None

    def _fill_direct(self, env, scalars, rows: int) -> None:
        """Solve every later index that a definition gives exactly (``pi = i``)."""
        progress = True
        while progress:
            progress = False
            for level in self.reading.levels:
                if level.index in env:
                    continue
                value = self._solve(level.index, env, scalars, rows)
                if value is not None and self._exact(level.index, env, scalars):
                    env[level.index] = value
                    progress = True

    def _exact(self, index: str, env, scalars) -> bool:
        for coordinate, expression in self.reading.definitions.items():
            coefficients = dict(expression.terms)
            if index in coefficients and all(
                    a == index or self._known(a, env, scalars) is not None for a in coefficients):
                return True
        return False

    def _order(self, call: UFCall) -> tuple[bool, bool]:
        """(has an order, decreasing) for a key array from its properties."""
        for prop in self.properties:
            if prop.arrays and prop.arrays[0] == call.function and isinstance(
                    prop, (Monotonic, PeriodicMonotonic, CovaryingMonotonic)):
                return True, not prop.increasing
        return False, False

    # -- the levels
    def pack(self, coords: np.ndarray, values: np.ndarray, shape: tuple[int, ...]) -> dict[str, object]:
        layout = self.layout
        scalars: dict[str, int] = dict(layout.compute_scalars(shape))
        rows = len(values)
        env: dict = {c: coords[:, k].astype(INDEX_DTYPE) for k, c in enumerate(layout.logical)}
        fields: dict[str, object] = {}
        arrays_by_name = {f.name: f for f in layout.arrays}
        for level in self.reading.levels:
            # level-wide entries of the full dense range exist for determined levels
            determined = self._solve(level.index, env, scalars, rows)
            if determined is not None:
                env[level.index] = determined
                self._fill_direct(env, scalars, rows)
                continue
            self._fill_direct(env, scalars, rows)
            keys = [c for c in level.calls if any(c in dict(e.terms) for e in self.reading.definitions.values())]
            if not keys:
                raise self.layout_error(level.index, f"cannot pack physical index {level.index}: it is "
                                        "neither determined by the coordinates nor keyed by an index array")
            key_values = []
            for key in keys:
                value = self._solve(key, env, scalars, rows)
                if value is None:
                    raise self.layout_error(key.function, f"cannot derive {key} from the coordinates")
                key_values.append(value)
                env[key] = value
            self._enumerate_level(level, keys, key_values, env, scalars, fields, rows)
            self._fill_direct(env, scalars, rows)
        missing_counts = [f.name for f in layout.counts if f.name not in scalars]
        if missing_counts:
            raise self.layout_error(missing_counts[0], f"packing did not determine {missing_counts}")
        value_field = arrays_by_name[layout.values_field]
        value_shape = tuple(int(d.evaluate(scalars)) for d in value_field.dimensions)
        value_array = allocate(value_shape, value_field.numpy_dtype, self._what(value_field))
        positions = tuple(np.broadcast_to(np.asarray(index.evaluate({**scalars, **env}), dtype=INDEX_DTYPE),
                                          (rows,)) for index in layout.values_index)
        if rows:
            outside = np.zeros(rows, dtype=bool)
            for axis, position in enumerate(positions):
                outside |= (position < 0) | (position >= value_shape[axis])
            if outside.any():
                entry = tuple(int(c) for c in coords[np.flatnonzero(outside)[0]])
                raise self.fail(f"the pattern does not fit layout {layout.spec}: entry {entry} "
                                "cannot be stored")
            value_array[positions] = values
        fields[layout.values_field] = value_array
        for declared in layout.arrays:
            if declared.name not in fields:
                shape_ = tuple(int(d.evaluate(scalars)) for d in declared.dimensions)
                if int(np.prod(shape_, dtype=object)) == 0:
                    fields[declared.name] = allocate(shape_, declared.numpy_dtype, self._what(declared))
                else:
                    raise self.layout_error(declared.name, f"packing did not fill array {declared.name}")
        fields.update(scalars)
        return fields

    def _enumerate_level(self, level, keys, key_values, env, scalars, fields, rows) -> None:
        layout = self.layout
        prefix = [l.index for l in self.reading.levels[:level.position]]
        prefix_columns = [env[p] for p in prefix]
        ordered, decreasing = self._order(keys[0])
        sign = -1 if decreasing else 1
        # group entries by (prefix, key); rank keys within each prefix group
        columns = prefix_columns + [sign * k for k in key_values]
        if rows:
            order = np.lexsort(columns[::-1]) if columns else np.arange(rows)
            sorted_columns = [c[order] for c in columns]
            new_key = np.ones(rows, dtype=bool)
            new_group = np.ones(rows, dtype=bool)
            if rows > 1:
                differs_prefix = np.zeros(rows - 1, dtype=bool)
                for c in sorted_columns[:len(prefix)]:
                    differs_prefix |= c[1:] != c[:-1]
                differs_key = differs_prefix.copy()
                for c in sorted_columns[len(prefix):]:
                    differs_key |= c[1:] != c[:-1]
                new_group[1:] = differs_prefix
                new_key[1:] = differs_key
            key_number = np.cumsum(new_key) - 1
            group_start_key = np.maximum.accumulate(np.where(new_group, key_number, 0))
            rank_sorted = key_number - group_start_key
            rank = np.empty(rows, dtype=INDEX_DTYPE)
            rank[order] = rank_sorted
            group_sizes = np.bincount(np.cumsum(new_group) - 1, weights=new_key).astype(INDEX_DTYPE)
        else:
            rank = np.zeros(0, dtype=INDEX_DTYPE)
            group_sizes = np.zeros(0, dtype=INDEX_DTYPE)
        largest = int(group_sizes.max()) if group_sizes.size else 0
        segment = level.segment()
        if segment is not None:
            start, _ = segment
            pointer = arrays_by_name(layout)[start.function]
            length = int(pointer.dimensions[0].evaluate(scalars))
            q = np.asarray(start.arguments[0].evaluate({**scalars, **env}, {}), dtype=INDEX_DTYPE)
            q = np.broadcast_to(q, (rows,))
            if rows and (q.min() < 0 or q.max() >= length - 1):
                raise self.layout_error(start.function, f"segment index {start.arguments[0]} runs outside "
                                        f"{start.function}")
            pointer_values = allocate((length,), INDEX_DTYPE, self._what(pointer))
            counts = np.bincount(q[_first_per_key(rank, env, prefix, rows)], minlength=length - 1) \
                if rows else np.zeros(length - 1, dtype=INDEX_DTYPE)
            pointer_values[1:] = np.cumsum(counts)
            fields[start.function] = pointer_values
            position = pointer_values[q] + rank
            total = int(pointer_values[-1])
            padding_width = None
        else:
            low = max(int(e.evaluate({**scalars}, {})) if not (e.names() - set(scalars)) else 0
                      for e in level.lower)
            width_expressions = [e for e in level.upper]
            counts_named = [n for e in width_expressions for n in e.names()
                            if n in {f.name for f in layout.counts} and n not in scalars]
            if counts_named:
                # the level's extent is a count the packing decides
                extent = largest if prefix else (int(key_number[-1]) + 1 if rows else 0)
                for expression in width_expressions:
                    for count in expression.names():
                        if count in counts_named:
                            # expression = count + c  (inclusive upper bound count - 1)
                            scalars[count] = extent - 1 - int(expression.constant) + low
                capacity = extent
            else:
                high = min(int(e.evaluate(scalars, {})) for e in level.upper)
                capacity = high - low + 1
                if largest > capacity:
                    raise self.fail(f"the pattern does not fit layout {layout.spec}: a group has "
                                    f"{largest} entries where {level.index} has room for {capacity}")
            position = low + rank
            total = capacity
            padding_width = capacity if prefix else None
        env[level.index] = np.asarray(position, dtype=INDEX_DTYPE)
        # counts sized by this level (e.g. colIdx: int[nnz] sets nnz)
        for key in keys:
            declared = arrays_by_name(layout)[key.function]
            if len(declared.dimensions) == 1:
                for count in declared.dimensions[0].names():
                    if count not in scalars and count in {f.name for f in layout.counts}:
                        scalars[count] = total - int(declared.dimensions[0].to_affine().constant)
        # key arrays
        for key, value in zip(keys, key_values):
            declared = arrays_by_name(layout)[key.function]
            array_shape = tuple(int(d.evaluate(scalars)) for d in declared.dimensions)
            fill = self._padding_value(key, scalars)
            array = allocate(array_shape, INDEX_DTYPE, self._what(declared), fill)
            where = tuple(np.broadcast_to(np.asarray(a.evaluate({**scalars, **env}, {}), dtype=INDEX_DTYPE), (rows,))
                          for a in key.arguments)
            if rows:
                for axis, index in enumerate(where):
                    if index.min() < 0 or index.max() >= array_shape[axis]:
                        raise self.layout_error(key.function, f"the relation puts {key} at index "
                                                f"{int(index.max())} of {key.function}, outside its "
                                                f"declared {array_shape[axis]} elements ({declared})")
                array[where] = value
            if padding_width is not None and ordered:
                array = self._pad_ordered(key, array, level, env, scalars, rows, value, decreasing)
            fields[key.function] = array
        if padding_width is not None and ordered and rows:
            # positions moved when padding keys were sorted in: find each entry's slot again
            array = fields[keys[0].function]
            env[level.index] = self._slot_of(keys[0], array, env, scalars, rows, key_values[0], level)

    def _padding_value(self, key: UFCall, scalars) -> int:
        extent = self._range_of(key, scalars)
        return extent[0] if extent is not None else -1

    def _pad_ordered(self, key, array, level, env, scalars, rows, value, decreasing):
        """Fill padding slots of an ordered key with unused values, keeping the order."""
        extent = self._range_of(key, scalars)
        if extent is None:
            raise self.layout_error(key.function, f"{key.function} is ordered and padded but "
                                    "has no range property to choose padding values from")
        if array.size == 0:
            return array
        # slots of one group lie along the last argument, in blocks of the level's capacity
        rows_view = array.reshape(-1, array.shape[-1])
        where = tuple(np.broadcast_to(np.asarray(a.evaluate({**scalars, **env}, {}), dtype=INDEX_DTYPE), (rows,))
                      for a in key.arguments)
        marker = np.zeros(array.shape, dtype=bool)
        if rows:
            marker[where] = True
        used = marker.reshape(rows_view.shape)
        capacity = self._capacity(level, scalars)
        if rows_view.shape[1] % capacity:
            raise self.layout_error(key.function, f"the slots of {key.function} do not split "
                                    f"into groups of {capacity}")
        blocks = rows_view.reshape(-1, capacity)
        real = used.reshape(-1, capacity)
        missing = capacity - real.sum(axis=1)
        # A block's padding is its smallest unused values: at most `capacity` values are used,
        # so these are among the first `capacity` candidates.
        candidates = np.arange(extent[0], min(extent[1] + 1, extent[0] + capacity), dtype=INDEX_DTYPE)
        taken = np.any((blocks[:, :, None] == candidates[None, None, :]) & real[:, :, None], axis=1)
        spare = ~taken & (np.cumsum(~taken, axis=1) <= missing[:, None])
        if np.any(spare.sum(axis=1) < missing):
            raise self.fail(f"layout {self.layout.spec}: no unused {key.function} values left "
                            "to pad a group")
        unused = np.iinfo(INDEX_DTYPE).max  # sorts after the `capacity` real and spare values
        combined = np.sort(np.concatenate([np.where(real, blocks, unused),
                                           np.where(spare, candidates[None, :], unused)], axis=1),
                           axis=1)[:, :capacity]
        need = missing > 0
        blocks[need] = combined[need][:, ::-1] if decreasing else combined[need]
        return blocks.reshape(array.shape)

    def _capacity(self, level, scalars) -> int:
        low = max(int(e.evaluate(scalars, {})) for e in level.lower)
        high = min(int(e.evaluate(scalars, {})) for e in level.upper)
        return high - low + 1

    def _slot_of(self, key, array, env, scalars, rows, value, level):
        """For each entry, the position along ``level`` whose key holds the entry's value."""
        low = max(int(e.evaluate(scalars, {})) for e in level.lower)
        capacity = self._capacity(level, scalars)
        result = np.full(rows, -1, dtype=INDEX_DTYPE)
        for slot in range(low, low + capacity):
            trial = dict(env)
            trial[level.index] = np.full(rows, slot, dtype=INDEX_DTYPE)
            where = tuple(np.broadcast_to(np.asarray(a.evaluate({**scalars, **trial}, {}), dtype=INDEX_DTYPE), (rows,))
                          for a in key.arguments)
            match = array[where] == value
            result = np.where((result < 0) & match, slot, result)
        return result


def arrays_by_name(layout: Layout) -> dict:
    return {f.name: f for f in layout.arrays}


def _first_per_key(rank, env, prefix, rows) -> np.ndarray:
    """Mask of one entry per distinct (prefix, rank)."""
    if not rows:
        return np.zeros(0, dtype=bool)
    columns = [env[p] for p in prefix] + [rank]
    stacked = np.stack(columns, axis=1)
    _, first = np.unique(stacked, axis=0, return_index=True)
    mask = np.zeros(rows, dtype=bool)
    mask[first] = True
    return mask
