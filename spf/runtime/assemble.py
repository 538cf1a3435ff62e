"""Tensors built by generated assembly from coordinates (packing; conversion between layouts
is :mod:`spf.runtime.conversion`, whose copy kernels assemble their output the same way).

For each layout, :mod:`codegen.assembly` plans how its arrays are established and
:mod:`spf.codegen.c.emit_assembly` writes the builder as C (compiled once, cached like
every kernel).  :func:`assemble` runs it on a stream of coordinates and values:
``begin`` checks and orders the entries and counts each compressed level's nodes,
Python allocates the arrays the counts size, ``fill`` writes them.  The result is
valid by construction (the builder establishes the layout's properties), so it
becomes a Tensor without a second check.
"""

from __future__ import annotations

import ctypes
import struct as struct_module
from dataclasses import dataclass, field
from math import prod
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from spf.codegen.assembly.plan import direct_rows, plan_assembly
from spf.codegen.c.emit_assembly import BAD_CHECK, DUPLICATES, FIRST_BAD, assembly_source, report_length
from spf.codegen.c.structs import ctypes_struct, point_at, sanitize_identifier, struct_name
from spf.codegen.toolchain.compiler import build_shared_library, load_function
from spf.errors import AssemblyRefused, OutOfMemoryError, PackError, SpfError, UNNAMED
from spf.layout_library.model import BinaryOp, Name, Number
from spf.runtime.memory import allocate, require
from spf.runtime.tensor import Tensor

if TYPE_CHECKING:
    from spf.codegen.assembly.plan import AssemblyPlan
    from spf.layout_library.model import Layout

INDEX_DTYPE = np.int64
FLAGS: list[str] | None = None
"""Compiler flags of the builders and conversion kernels (None: the defaults); the
sanitizer tests set ``SANITIZE_FLAGS`` here so packing runs sanitized too."""


@dataclass
class Builder:
    """A layout's compiled assembly: its plan and the C functions ``begin``, ``fill``, ``free``."""

    plan: AssemblyPlan
    begin: Callable[..., Any] | None  # the C functions (ctypes); a kernel begins the builder itself
    fill: Callable[..., int]
    free: Callable[..., None]
    take: Callable[..., int] | None = None  # a kernel's NAME_take, when its workspace hands rows over (DirectRows)
    # struct type -> how take() reads it (take_plan), worked out at the first call: the builder
    # is its layout's, so no call hashes the layout to find it
    take_plans: dict = field(default_factory=dict)
    finish_plans: dict = field(default_factory=dict)  # struct type -> how finish() sizes the arrays (FinishPlan)

    @property
    def compressed(self) -> list:
        return self.plan.compressed


class AssemblyCache:
    """The process's generated assembly, per layout: ``builders`` (layout, compiler flags,
    int32 columns) -> the compiled :class:`Builder`; ``plans`` layout -> its AssemblyPlan, or
    None when assembly does not build it.  Layouts are keys by content (hashed by name, path and
    parameters, equal field by field), never by id().  Entries stay for the process: each
    is compiled or worked out once, and a layout file edited on disk loads as another key."""

    def __init__(self) -> None:
        self.builders: dict[tuple, Builder] = {}
        self.plans: dict[Layout, AssemblyPlan | None] = {}


ASSEMBLY_CACHE = AssemblyCache()  # one per process: the point is compiling each builder once


def builder(layout: Layout, narrow: bool = False) -> Builder:
    """The compiled assembly of ``layout`` (cached per layout), reading int64 coordinate
    columns, or int32 ones with ``narrow`` (scipy's index arrays as they are: widening
    20M of them first cost 0.3 s and 320 MB of new pages); AssemblyRefused when it has none."""
    builders = ASSEMBLY_CACHE.builders
    key = (layout, tuple(FLAGS or ()), narrow)
    if key not in builders:
        plan = plan_assembly(layout)
        prefix = "spf_assemble_" + sanitize_identifier(layout.name) + ("_i32" if narrow else "")
        source = assembly_source(plan, prefix, coordinate="int32_t" if narrow else "int64_t")
        library = build_shared_library(source, FLAGS, name=prefix)
        struct = ctypes.POINTER(ctypes_struct(layout))
        pointer_array = ctypes.POINTER(ctypes.c_void_p)
        begin = load_function(library, f"{prefix}_begin",
                              [struct, ctypes.c_int64, pointer_array, ctypes.c_void_p, ctypes.c_void_p,
                               ctypes.c_void_p, ctypes.c_int, ctypes.c_int], ctypes.c_void_p)
        fill = load_function(library, f"{prefix}_fill", [ctypes.c_void_p, struct])
        free = load_function(library, f"{prefix}_free", [ctypes.c_void_p], None)
        take = load_function(library, f"{prefix}_take", [ctypes.c_void_p, struct]) \
            if direct_rows(plan) is not None else None
        builders[key] = Builder(plan, begin, fill, free, take)
    return builders[key]


def has_assembly(layout: Layout) -> bool:
    """Whether generated assembly builds ``layout`` (else packing falls back to the Python packer)."""
    plans = ASSEMBLY_CACHE.plans
    if layout not in plans:
        try:
            plans[layout] = plan_assembly(layout)
        except AssemblyRefused:
            plans[layout] = None
    return plans[layout] is not None


def _column(array: np.ndarray) -> tuple[int, int]:
    """(address, stride in elements) of a 1-D int64 or int32 array or view."""
    size = array.dtype.itemsize
    if array.dtype not in (INDEX_DTYPE, np.int32) or array.ndim != 1 or array.strides[0] % size:
        raise SpfError("assembly reads int64 or int32 coordinate columns")
    return array.ctypes.data, array.strides[0] // size if len(array) > 1 else 1


def assemble(layout: Layout, columns: Sequence[np.ndarray], values: np.ndarray, shape: tuple[int, ...],
             name: str = UNNAMED, duplicates: str = "sum") -> Tensor:
    """The Tensor of ``layout`` holding the entries ``(columns[k][e] for k) -> values[e]``.

    ``columns``: one int64 array (or strided view) per coordinate, or int32 arrays all of
    them, every entry inside ``shape``; ``values``: float64.  Entries may come in any order; equal coordinates
    are summed (``duplicates="sum"``) or refused (``"refuse"``).  An entry the layout
    cannot hold (above LOWER_TRI's diagonal) is refused with a PackError naming it.
    """
    columns = [np.asarray(c) for c in columns]
    narrow = bool(columns) and all(c.dtype == np.int32 for c in columns)
    build = builder(layout, narrow)
    plan = build.plan
    n = len(values)
    values = np.ascontiguousarray(values, dtype=np.float64)
    scalars = dict(layout.compute_scalars(shape))
    # the builder's own arrays: sort keys it computes, the order, one byte per entry
    computed = len(plan.keys) if narrow else \
        sum(1 for key in plan.keys if key.sign < 0 or not key.expression.startswith("(x_")
            or key.expression.count("x_") != 1)
    require((max(n, 1) * (8 * (computed + 2) + 1),), np.uint8, f"tensor {name}: assembly into {layout.spec}")
    struct_type = ctypes_struct(layout)
    struct = struct_type()
    for field in layout.scalars:
        setattr(struct, field.name, int(scalars.get(field.name, 0)))
    addresses = (ctypes.c_void_p * max(len(columns), 1))()
    strides = np.ones(max(len(columns), 1), dtype=np.int64)
    for k, column in enumerate(columns):
        addresses[k], strides[k] = _column(column)
    report = np.zeros(report_length(plan), dtype=np.int64)
    handle = build.begin(ctypes.byref(struct), n, addresses, strides.ctypes.data, values.ctypes.data,
                         report.ctypes.data, 0, 0)
    if not handle:
        raise failure(layout, plan, report, name, n)
    if duplicates == "refuse" and report[len(build.compressed) + DUPLICATES]:
        return finish(layout, build, handle, report, struct, tuple(shape), name, duplicates)  # raises
    taken = take(layout, build, handle, struct, tuple(shape), name)
    return taken if taken is not None else finish(layout, build, handle, report, struct, tuple(shape), name,
                                                  duplicates)


def failure(layout: Layout, plan: AssemblyPlan, report: np.ndarray, name: str, entries: int) -> SpfError:
    """The error of a ``begin`` that returned no handle: an entry the layout cannot hold, or memory."""
    slots = sum(1 for level in plan.levels if level.kind == "compressed")
    if report[slots + FIRST_BAD] >= 0:
        entry = tuple(int(c) for c in report[slots + 4:slots + 4 + len(plan.coordinates)])
        check = plan.checks[int(report[slots + BAD_CHECK])][1]
        return PackError(f"tensor {name}: the pattern does not fit layout {layout.spec}: entry {entry} "
                         f"cannot be stored ({check} does not hold)")
    return OutOfMemoryError(f"tensor {name}: out of memory while assembling {entries} entries into {layout.spec}")


def finish(layout: Layout, build: Builder, handle: int, report: np.ndarray, struct: ctypes.Structure,
           shape: tuple[int, ...], name: str, duplicates: str = "sum") -> Tensor:
    """After ``begin``: allocate the arrays its counts size, ``fill`` them, and make the Tensor."""
    slots = len(build.compressed)
    try:
        if duplicates == "refuse" and report[slots + DUPLICATES]:
            d = len(build.plan.coordinates)
            entry = tuple(int(c) for c in report[slots + 4 + d:slots + 4 + 2 * d])
            raise PackError(f"tensor {name}: coordinate {entry} appears more than once")
        sizing = build.finish_plans.get(type(struct))
        if sizing is None:
            sizing = build.finish_plans[type(struct)] = FinishPlan(layout, build.plan, type(struct))
        fields = sizing.allocate(report[:slots], shape, name)
        sizing.point(struct, fields)
    except BaseException:
        build.free(handle)
        raise
    build.fill(handle, ctypes.byref(struct))  # frees the handle
    return _keeping_struct(Tensor._from_checked(layout, shape, fields, name), struct)


def _keeping_struct(tensor: Tensor, struct: ctypes.Structure) -> Tensor:
    """``tensor`` keeping a copy of ``struct`` (the builder's, over its very arrays) as the one
    kernels read it through, with the arrays it points at (a caller may keep the struct and
    not the Tensor): a result passed on to the next call (a BFS's frontier) is not marshalled
    again.  A copy, as a bound kernel's calls write their results into one struct."""
    arrays = [value for value in tensor.fields.values() if isinstance(value, np.ndarray)]
    tensor._structs[struct_name(tensor.layout)] = (type(struct).from_buffer_copy(struct), arrays)
    return tensor


def take(layout: Layout, build: Builder, handle: int, struct: ctypes.Structure, shape: tuple[int, ...],
         name: str) -> Tensor | None:
    """After ``begin``, the Tensor over the handle's own arrays when ``NAME_take`` can give
    them (rows handed over as they stand: no copy, no second allocation), else None (the
    handle is untouched; :func:`finish` fills arrays allocated here instead)."""
    if build.take is None or build.take(handle, ctypes.byref(struct)) != 0:
        return None
    plan = build.take_plans.get(type(struct))
    if plan is None:
        plan = build.take_plans[type(struct)] = take_plan(layout, type(struct))
    values = plan.unpack(struct)
    fields = dict(zip(plan.scalars, values))
    owner = _Malloced([values[at] for at in plan.pointers])
    for (field, at, length, typestr, dtype) in plan.arrays:
        address, count = values[at], length(fields)
        fields[field] = _Adopted.array(address, count, typestr, owner) if address and count else _empty(dtype)
    tensor = Tensor._from_handed_over(layout, shape, fields, name)
    # an empty array's pointer may be NULL in the struct: such a Tensor is marshalled when read
    return _keeping_struct(tensor, struct) if all(values[at] for at in plan.pointers) else tensor


@dataclass(frozen=True)
class TakePlan:
    """How :func:`take` reads a layout's struct: every field in one unpack (scalars first,
    then the arrays' addresses), and each array's length from the scalars."""

    unpack: Callable[[Any], tuple]  # struct -> (scalar values..., addresses...)
    scalars: tuple[str, ...]
    pointers: tuple[int, ...]  # where the addresses are in the unpacked tuple
    arrays: tuple[tuple, ...]  # (field, where its address is, length(scalars), typestr, dtype)


def take_plan(layout: Layout, struct_type: type) -> TakePlan:
    """How :func:`take` reads ``layout``'s struct (worked out once per builder and struct
    type: :attr:`Builder.take_plans`)."""
    scalars = tuple(f.name for f in layout.fields if f.is_scalar)
    arrays = [f for f in layout.fields if not f.is_scalar]
    names = scalars + tuple(f.name for f in arrays)
    unpack = _struct_reader(struct_type, names)
    where = {name: at for at, name in enumerate(names)}
    planned = tuple((f.name, where[f.name], _length_function(f.dimensions), np.dtype(f.numpy_dtype).str,
                     np.dtype(f.numpy_dtype)) for f in arrays)
    return TakePlan(unpack, scalars, tuple(where[f.name] for f in arrays), planned)


def _struct_reader(struct_type, names: tuple[str, ...]):
    """A function reading ``names`` of a ctypes struct as Python ints (addresses for
    pointers, 0 for NULL) in one ``struct.unpack_from``, or through ctypes field by field
    where the struct's members are not all integers and pointers."""
    codes = {ctypes.c_int8: "b", ctypes.c_int16: "h", ctypes.c_int32: "i", ctypes.c_int64: "q",
             ctypes.c_uint8: "B", ctypes.c_uint16: "H", ctypes.c_uint32: "I", ctypes.c_uint64: "Q"}
    members = dict(struct_type._fields_)
    pieces, at = [], 0
    for name in names:
        kind, offset = members[name], getattr(struct_type, name).offset
        code = "P" if issubclass(kind, ctypes._Pointer) or kind is ctypes.c_void_p else codes.get(kind)
        if code is None or offset < at:
            return lambda struct: tuple(_field_value(struct, name) for name in names)
        pieces.append(f"{offset - at}x{code}" if offset > at else code)
        at = offset + ctypes.sizeof(kind)
    reader = struct_module.Struct("=" + "".join(pieces).replace("P", "Q" if ctypes.sizeof(ctypes.c_void_p) == 8 else "I"))
    return reader.unpack_from


def _field_value(struct, name: str) -> int:
    value = getattr(struct, name)
    return ctypes.cast(value, ctypes.c_void_p).value or 0 if isinstance(value, ctypes._Pointer) else int(value)


def _length_function(dimensions):
    """The element count of an array with these dimensions, as a function of the scalars:
    generated Python for sums, differences and products of names and numbers, else the
    dimensions' own evaluation."""
    def source(d) -> str | None:
        if isinstance(d, Number):
            return repr(int(d.value))
        if isinstance(d, Name):
            return f"s[{d.name!r}]"
        if isinstance(d, BinaryOp) and d.op in ("+", "-", "*"):
            left, right = source(d.left), source(d.right)
            return None if left is None or right is None else f"({left} {d.op} {right})"
        return None

    parts = [source(d) for d in dimensions]
    if all(part is not None for part in parts):
        return eval("lambda s: " + (" * ".join(f"int({part})" for part in parts) or "1"))  # noqa: S307 (our own text)
    return lambda s: prod(int(d.evaluate(s)) for d in dimensions)


def _empty(dtype: np.dtype) -> np.ndarray:
    array = np.empty(0, dtype=dtype)
    array.flags.writeable = False
    return array


class _Adopted:
    """A read-only numpy array over memory a kernel allocated, keeping ``owner`` (which
    frees it) alive as the array's base: numpy refuses to make such an array writable."""

    __slots__ = ("__array_interface__", "owner")

    @staticmethod
    def array(address: int, length: int, typestr: str, owner: "_Malloced") -> np.ndarray:
        adopted = object.__new__(_Adopted)  # no __init__: this runs for every array of every result
        adopted.__array_interface__ = {"data": (address, True), "shape": (length,), "typestr": typestr,
                                       "version": 3}
        adopted.owner = owner
        return np.asarray(adopted)


class _Malloced:
    """Arrays a kernel allocated with ``malloc`` and handed to numpy arrays: freed with
    ``free`` when the last of those arrays goes."""

    __slots__ = ("addresses",)
    _free = None

    def __init__(self, addresses: list[int | None]):
        self.addresses = addresses

    def __del__(self) -> None:
        if _Malloced._free is None:
            _Malloced._free = ctypes.CDLL(None).free
            _Malloced._free.argtypes = [ctypes.c_void_p]
            _Malloced._free.restype = None
        for address in self.addresses:
            if address:
                _Malloced._free(address)


class FinishPlan:
    """How :func:`finish` sizes a layout's arrays from the builder's node counts and points its
    struct at them, worked out once per builder and struct type: each count's node slot, each
    scalar's limit, each array's extents as functions of the scalars, and where its pointer
    sits in the struct (a short call's result is assembled without evaluating the layout's
    expressions again)."""

    def __init__(self, layout: Layout, plan: "AssemblyPlan", struct_type: type) -> None:
        self.layout = layout
        self.counts = tuple((count, slot, offset) for count, (slot, offset) in plan.counts.items())
        whole = {key.array for level in plan.compressed for key in level.keys}  # fill writes them whole
        self.scalars = tuple((f.name, 2**31 if f.type == "int" else 2**63) for f in layout.fields if f.is_scalar)
        self.arrays = tuple((f, tuple(_length_function((d,)) for d in f.dimensions), np.dtype(f.numpy_dtype),
                             f.name in whole, getattr(struct_type, f.name).offset)
                            for f in layout.fields if not f.is_scalar)
        self.shape_scalars: dict[tuple, dict] = {}  # the last few shapes' scalar fields

    def allocate(self, nodes, shape: tuple[int, ...], name: str) -> dict:
        """Every field: the counts from the node counts, then the arrays they size (the index
        arrays fill writes whole are left unzeroed)."""
        known = self.shape_scalars.get(shape)
        if known is None:
            if len(self.shape_scalars) >= 16:
                self.shape_scalars.clear()
            known = self.shape_scalars[shape] = dict(self.layout.compute_scalars(shape))
        scalars = dict(known)
        for count, slot, offset in self.counts:
            scalars[count] = int(nodes[slot]) - offset
        fields: dict[str, object] = {}
        for field_name, limit in self.scalars:
            value = int(scalars[field_name])
            if not -limit <= value < limit:
                raise PackError(f"tensor {name}: {field_name} = {value} does not fit in "
                                f"{self.layout.field(field_name).c_type} (layout {self.layout.spec})")
            fields[field_name] = value
        for field_, extents, dtype, whole, _ in self.arrays:
            array_shape = tuple(extent(scalars) for extent in extents)
            if 0 <= min(array_shape, default=0) and prod(array_shape) * dtype.itemsize <= _SMALL:
                fields[field_.name] = (np.empty if whole else np.zeros)(array_shape, dtype=dtype)
                continue
            what = f"tensor {name}: array {field_.name} of {self.layout.spec} ({field_})"
            if whole and prod(array_shape):
                require(array_shape, dtype, what)
                fields[field_.name] = np.empty(array_shape, dtype=dtype)
            else:
                fields[field_.name] = allocate(array_shape, dtype, what)
        return fields

    def point(self, struct: ctypes.Structure, fields: dict) -> None:
        """Write the scalars into ``struct`` and point its arrays at ``fields``' arrays."""
        for field_name, _ in self.scalars:
            setattr(struct, field_name, fields[field_name])
        for field_, _, _, _, offset in self.arrays:
            point_at(struct, offset, fields[field_.name])


_SMALL = 1 << 24  # bytes: an array below this needs no look at the machine's memory first
