"""The C ABI of kernels: one struct per layout, its header text, and its ctypes mirror.

Every layout becomes ``struct spf_NAME`` (parameters appended: ``spf_BCSR_R2_C3``)
with one member per field of the layout file, in declaration order: scalars as their
C type, arrays as pointers to their element type.  Multi-dimensional arrays are one
flat row-major block.  :func:`marshal` and :func:`output_struct` fill the ctypes
mirror from a packed :class:`spf.Tensor` or from arrays the caller allocated.
"""

from __future__ import annotations

import ctypes
import struct as pystruct
import hashlib
import re
from math import prod
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import numpy as np
from pycparser import c_ast, c_generator

from spf.errors import SpfError
from spf.layout_library import load_layout

if TYPE_CHECKING:
    from spf.layout_library.model import Layout, LayoutFamily
    from spf.notation.statements import Statement
    from spf.runtime.tensor import Tensor

# ----------------------------------------------------------------------------- names

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]")


def sanitize_identifier(text: str) -> str:
    """``text`` with every character outside ``[A-Za-z0-9_]`` replaced by ``_``."""
    identifier = _NOT_IDENTIFIER.sub("_", text)
    if not identifier or identifier[0].isdigit():
        identifier = "_" + identifier
    return identifier


def struct_name(layout: str | Layout) -> str:
    """The C struct tag of a layout: ``spf_CSR``, ``spf_BCSR_R2_C3`` (parameters in declaration
    order), ``spf_CSR_float32`` (a generic layout holding float32 values)."""
    layout = as_layout(layout)
    known = CACHE.names.get(layout)
    if known is not None:
        return known
    bound = "".join(f"_{key}{value}" for key, value in layout.parameters.items())
    if layout.generic and not layout.unspecialised:
        bound += f"_{layout.value_type.name}"
    name = _NOT_IDENTIFIER.sub("_", f"spf_{layout.name}{bound}")
    CACHE.names[layout] = name
    return name


class StructCache:
    """What this module makes once per layout and keeps for the process: each layout's
    struct name (``names``), its ctypes Structure class (``classes``) and its dense plan
    (``dense_plans``, None for a layout that is not dense), all keyed by the Layout itself
    (equal layouts, such as one loaded again from the kernel cache, share an entry);
    and the Structure classes by (struct name, members) (``structures``), so layouts with
    one struct share one class."""

    def __init__(self) -> None:
        self.names: dict[Layout, str] = {}
        self.classes: dict[Layout, type[ctypes.Structure]] = {}
        self.structures: dict[tuple, type[ctypes.Structure]] = {}
        self.dense_plans: dict[Layout, tuple | None] = {}


CACHE = StructCache()


def as_layout(layout: str | Layout | LayoutFamily) -> Layout:
    """A :class:`Layout` from a Layout or a spec string; families are refused."""
    if isinstance(layout, str):
        layout = load_layout(layout)
    if not hasattr(layout, "fields"):
        raise SpfError(f"{layout} is a layout family; pick one member (e.g. with .resolve(order))")
    return layout


# ----------------------------------------------------------------------------- arguments

def parameter_order(statement: Statement, tensors: Mapping[str, object]) -> dict:
    """``tensors`` (name -> anything) reordered as every kernel's arguments: the inputs in
    the order they first appear in ``statement``'s text, then the output.

    The one place that orders a kernel's parameters: the C prototypes, the library's
    entry point and the Python side's argument types all follow the dict it returns.
    """
    order = [*statement.inputs, statement.output.tensor]
    stray = sorted(set(tensors) - set(order))
    if stray:
        raise SpfError(f"tensor(s) {stray} are not in {statement}")
    return {name: tensors[name] for name in order if name in tensors}


# ----------------------------------------------------------------------------- C declarations

def _type_decl(name: str, c_type: str) -> c_ast.TypeDecl:
    return c_ast.TypeDecl(name, [], None, c_ast.IdentifierType([c_type]))


def _member(field) -> c_ast.Decl:
    """``int numRows;`` for a scalar, ``double *data;`` for an array."""
    declarator = _type_decl(field.name, field.c_type)
    if field.is_array:
        declarator = c_ast.PtrDecl([], declarator)
    return c_ast.Decl(field.name, [], [], [], [], declarator, None, None)


def struct_declaration(layout: str | Layout) -> c_ast.Decl:
    """``struct NAME { ... };``: one member per field, in the layout file's order."""
    layout = as_layout(layout)
    members = [_member(field) for field in layout.fields]
    struct = c_ast.Struct(struct_name(layout), members)
    return c_ast.Decl(None, [], [], [], [], struct, None, None)


def _c_text(nodes: Sequence[c_ast.Node]) -> str:
    return c_generator.CGenerator().visit(c_ast.FileAST(list(nodes)))


def _comment(lines: Iterable[str]) -> str:
    body = "\n".join(f" * {line}".rstrip() for line in lines)
    return f"/*\n{body}\n */\n"


ABI_COMMENT = (
    "ABI of the kernels declared below:",
    "",
    "- one struct per layout, with exactly the layout file's fields in its order:",
    "  scalars by value (int, int64_t), arrays as pointers to their elements;",
    "- a multi-dimensional array is one flat block in row-major order",
    "  (a[i][j] of a [n][m] array is a[i*m + j]);",
    "- arguments: the inputs in the order they first appear in the expression,",
    "  then the output (a scalar output is a double *);",
    "- the caller allocates and frees every array, the output's included; an",
    "  output that shares an input's sparsity points at that input's index arrays;",
    "- '=' overwrites the output (it is zeroed first), '+=' adds to it;",
    "- kernels return 0 on success and a nonzero error code otherwise: 1 when",
    "  the tensors' shapes disagree (nothing is written), 2 when a temporary",
    "  (a find's table or positions, a per-thread copy of the output, a fused",
    "  kernel's temporary, an assembled output's entries) cannot be allocated,",
    "  3 when an entry of an assembled output cannot be stored in its layout;",
    "- a library's entry point NAME first runs NAME_check on its arguments",
    "  (it reads, never writes), which returns 4 for a NULL argument, 5 for",
    "  inconsistent scalar fields, 1 for shapes that disagree and 6 for index",
    "  arrays that break their layout's assumptions or properties (the",
    "  variants spf_kernel_* do not: call NAME_check before them);",
    "- an assembled output (a sparse output whose pattern the kernel computes)",
    "  takes two more arguments and two more calls: see its kernel's comment;",
    "- kernels do not keep any pointer after they return, and free none (an",
    "  assembled output's handle is freed by NAME_fill or NAME_free);",
    "- kept memory: each kernel keeps one set of find state (hash-map tables,",
    "  positions kept per value; the largest a call has needed) and an assembled",
    "  output's scratch (its workspace and rows, at most 64 MiB) for its next",
    "  call, taken and given back atomically (a concurrent call makes its own);",
    "  NAME_release_state() frees them;",
    "- thread-safety: a kernel may be called concurrently on different outputs.",
)


def _struct_comment(layout) -> str:
    lines = [f"{layout.spec}: {layout.description}" if layout.description else layout.spec]
    flattened = [field for field in layout.fields if len(field.dimensions) > 1]
    for field in flattened:
        lines.append(f"  {field.name}: {field.c_type}"
                     + "".join(f"[{extent}]" for extent in field.dimensions)
                     + ", flattened row-major")
    return _comment(lines)


def _prototype_text(prototype: c_ast.Decl | str) -> str:
    if isinstance(prototype, c_ast.Node):
        return _c_text([prototype])
    text = prototype.strip()
    return text if text.endswith(";") else text + ";"


def definition_guard(layout: Layout, declaration: str) -> str:
    """The macro guarding one struct's definition in headers: ``SPF_STRUCT_CSR_<digest>``, the
    struct's name (parameters included) and a digest of its declaration.  Two libraries'
    headers define an identical struct once; a struct of one name but other members (a user
    layout file named as a built-in one) is defined twice, which C refuses, naming it."""
    digest = hashlib.sha256(declaration.encode()).hexdigest()[:8].upper()
    return f"SPF_STRUCT_{struct_name(layout).removeprefix('spf_')}_{digest}"


def header_text(layouts: Iterable, kernel_prototypes: Sequence[c_ast.Decl] | Sequence[str] = (),
                guard: str = "SPF_KERNEL_H") -> str:
    """A complete header: include guard, ``<stdint.h>``, the ABI comment, each struct once
    (under its own :func:`definition_guard`, so headers of several libraries compile in one
    translation unit), prototypes."""
    guard = sanitize_identifier(guard)
    parts = [f"#ifndef {guard}\n#define {guard}\n\n#include <stdint.h>\n\n", _comment(ABI_COMMENT), "\n"]
    seen: set[str] = set()
    for layout in map(as_layout, layouts):
        if struct_name(layout) in seen:
            continue
        seen.add(struct_name(layout))
        declaration = _c_text([struct_declaration(layout)])
        struct_guard = definition_guard(layout, declaration)
        parts += [f"#ifndef {struct_guard}\n#define {struct_guard}\n", _struct_comment(layout), declaration,
                  f"#endif /* {struct_guard} */\n", "\n"]
    parts += [_prototype_text(prototype).rstrip("\n") + "\n" for prototype in kernel_prototypes]
    parts.append(f"\n#endif /* {guard} */\n")
    return "".join(parts)


# ----------------------------------------------------------------------------- ctypes

SCALAR_CTYPES = {"int": ctypes.c_int, "int64": ctypes.c_int64}


def element_ctype(dtype: np.dtype) -> type:
    """The ctypes type of one value of ``dtype``: numpy's, or for a complex type a Structure of
    its real and imaginary parts (C99's layout; ``.value`` is the Python complex)."""
    dtype = np.dtype(dtype)
    if dtype.kind != "c":
        return np.ctypeslib.as_ctypes_type(dtype)
    return COMPLEX_CTYPES[dtype.itemsize]


def _complex_ctype(part: type) -> type:
    class Complex(ctypes.Structure):
        _fields_ = [("real", part), ("imag", part)]

        def __init__(self, value: complex = 0):
            super().__init__(value.real, value.imag)

        @property
        def value(self) -> complex:
            return complex(self.real, self.imag)
    return Complex


COMPLEX_CTYPES = {16: _complex_ctype(ctypes.c_double), 8: _complex_ctype(ctypes.c_float)}


def _ctype(field) -> type:
    if field.is_array:
        return ctypes.POINTER(element_ctype(field.numpy_dtype))
    return SCALAR_CTYPES[field.type]


def ctypes_struct(layout: str | Layout) -> type[ctypes.Structure]:
    """The ctypes Structure matching :func:`struct_declaration` (one class per struct name and fields)."""
    known = CACHE.classes.get(layout) if not isinstance(layout, str) else None
    if known is not None:
        return known
    layout = as_layout(layout)
    members = tuple((field.name, _ctype(field)) for field in layout.fields)
    key = (struct_name(layout), members)
    if key not in CACHE.structures:
        CACHE.structures[key] = type(struct_name(layout), (ctypes.Structure,), {"_fields_": list(members)})
    CACHE.classes[layout] = CACHE.structures[key]
    return CACHE.structures[key]


# ----------------------------------------------------------------------------- marshalling

def _scalar(value, field, tensor: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise SpfError(f"tensor {tensor}: field {field.name} must be an integer, got {value!r}")
    bits = 8 * ctypes.sizeof(SCALAR_CTYPES[field.type])
    if not -(1 << (bits - 1)) <= int(value) < (1 << (bits - 1)):
        raise SpfError(f"tensor {tensor}: field {field.name} = {value} does not fit in {field.c_type}")
    return int(value)


def _scalars(layout, fields: Mapping[str, object], tensor: str) -> dict[str, int]:
    values = {}
    for field in layout.scalars:
        if field.name not in fields:
            raise SpfError(f"tensor {tensor}: field {field.name} of layout {layout.spec} is missing")
        values[field.name] = _scalar(fields[field.name], field, tensor)
    return values


def _length(field, scalars: Mapping[str, int], shape: Sequence[int] | None, tensor: str) -> int:
    """The number of elements of an array field (product of its evaluated dimensions)."""
    env: dict[str, object] = dict(scalars)
    if shape is not None:
        env["shape"] = tuple(shape)
    try:
        return prod(int(extent.evaluate(env)) for extent in field.dimensions)
    except SpfError as error:
        raise SpfError(f"tensor {tensor}: cannot size field {field.name}: {error}") from None


def _shape(layout, scalars: Mapping[str, int]) -> tuple[int, ...] | None:
    """The logical shape from the scalar fields, or None when they do not determine it."""
    try:
        return tuple(int(extent.evaluate(scalars)) for extent in layout.shape)
    except SpfError:
        return None


def _fill(layout, fields: Mapping[str, object], tensor: str, shape: Sequence[int] | None,
          convert) -> tuple[ctypes.Structure, list[np.ndarray]]:
    """The struct of ``layout`` from ``fields``; ``convert(array, field)`` gives the flat array to point at."""
    scalars = _scalars(layout, fields, tensor)
    if shape is None:
        shape = _shape(layout, scalars)
    struct = ctypes_struct(layout)()
    keep_alive: list[np.ndarray] = []
    for field in layout.fields:
        if field.is_scalar:
            setattr(struct, field.name, scalars[field.name])
            continue
        if field.name not in fields:
            raise SpfError(f"tensor {tensor}: field {field.name} of layout {layout.spec} is missing")
        array = convert(fields[field.name], field)
        expected = _length(field, scalars, shape, tensor)
        if array.size != expected:
            raise SpfError(f"tensor {tensor}: field {field.name} has {array.size} elements, "
                           f"layout {layout.spec} needs {expected}")
        keep_alive.append(array)
        setattr(struct, field.name, array.ctypes.data_as(_ctype(field)))
    return struct, keep_alive


def dense_plan(layout: Layout) -> tuple | None:
    """For a dense row-major layout (each scalar field ``shape[k]``, the values an array
    of exactly those extents, no index array): its struct class, the axis of each scalar
    field, the values field, and the byte offset of its pointer in the struct; else None.
    Its struct is then filled from the values array alone, without evaluating the layout's
    expressions on every call."""
    if layout in CACHE.dense_plans:
        return CACHE.dense_plans[layout]
    plan = None
    if not layout.index_arrays and layout.values_field is not None:
        probe = tuple(range(2, 2 + layout.order * 3, 3))  # distinct extents, one per axis
        try:
            scalars = layout.compute_scalars(probe)
        except SpfError:
            scalars = {}
        values = layout.field(layout.values_field)
        axes = {name: probe.index(value) for name, value in scalars.items() if value in probe}
        if scalars and len(axes) == len(layout.scalars) == len(scalars) \
                and tuple(int(d.evaluate(scalars)) for d in values.dimensions) == probe:
            struct_class = ctypes_struct(layout)
            plan = (struct_class, tuple(axes.items()), values.name, getattr(struct_class, values.name).offset)
    CACHE.dense_plans[layout] = plan
    return plan


def dense_struct(layout: Layout, values: np.ndarray) -> ctypes.Structure | None:
    """The struct of a dense row-major layout over a C-contiguous array of the layout's value
    type and order (its shape gives the scalar fields), or None when either is not so."""
    plan = dense_plan(layout)
    if plan is None or values.dtype != layout.value_type.dtype or not values.flags.c_contiguous \
            or values.ndim != layout.order:
        return None
    return planned_dense_struct(plan, values)


def planned_dense_struct(plan: tuple, values: np.ndarray) -> ctypes.Structure:
    """:func:`dense_struct` with the layout's :func:`dense_plan` at hand and the array
    already checked (the bytes of this struct are what :class:`DenseBytes` packs)."""
    struct_class, axes, _, offset = plan
    struct = struct_class()
    for name, axis in axes:
        setattr(struct, name, values.shape[axis])
    point_at(struct, offset, values)
    return struct


def point_at(struct: ctypes.Structure, offset: int, array: np.ndarray) -> None:
    """Point the struct's pointer field at ``offset`` at a C-contiguous ``array``: its address
    written into the field's bytes, a third of ctypes.data_as's cost, which was the largest
    part of a short call's own time (SpMV on 11k nonzeros)."""
    _POINTER.pack_into(struct, offset, _address(array))


_POINTER = pystruct.Struct("@P")
_STANDARD_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}  # struct's codes of "=" (standard sizes) by size


class DenseBytes:
    """The bytes of a dense layout's struct over one array, made by one ``pack``: the short
    call path (spf.runtime.fast_call) hands them to the C function as the struct itself,
    which a kernel only reads (it writes a dense output through the values pointer)."""

    def __init__(self, plan: tuple) -> None:
        struct_class, axes, values_field, _ = plan
        axis_of = dict(axes)
        fields = sorted(((getattr(struct_class, name).offset, name, ctype) for name, ctype in struct_class._fields_))
        layout, order, position = ["="], [], 0
        extents = []
        for offset, name, ctype in fields:
            layout.append("x" * (offset - position))
            size = ctypes.sizeof(ctype)
            if name == values_field:
                layout.append(_STANDARD_CODES[size].upper())
            else:
                code = _STANDARD_CODES[size]
                layout.append(code.upper() if ctype._type_.isupper() else code)
                order.append(axis_of[name])
                extents.append((offset, size, axis_of[name]))
            position = offset + size
        layout.append("x" * (ctypes.sizeof(struct_class) - position))
        self.packer = pystruct.Struct("".join(layout))
        self.axes = None if order == list(range(len(order))) else tuple(order)  # None: the array's own order
        self.pointer_at = [name for _, name, _ in fields].index(values_field)
        self.pointer_last = self.pointer_at == len(fields) - 1
        # (struct size, the values pointer's offset, (offset, width, axis) per extent): the
        # same struct for spf.runtime.short_call.c, which writes it itself
        self.spec = (ctypes.sizeof(struct_class), getattr(struct_class, values_field).offset, tuple(extents))

    def of(self, values: np.ndarray) -> bytes:
        """The struct's bytes over ``values`` (float64, C-contiguous, of the layout's order)."""
        address = _address(values)
        shape = values.shape if self.axes is None else tuple(values.shape[axis] for axis in self.axes)
        if self.pointer_last:
            return self.packer.pack(*shape, address)
        scalars = list(shape)
        scalars.insert(self.pointer_at, address)
        return self.packer.pack(*scalars)



def dense_bytes(plan: tuple | None) -> DenseBytes | None:
    """A :class:`DenseBytes` for a :func:`dense_plan`, or None when there is no plan or its
    struct has a field that is neither an extent nor the values pointer."""
    if plan is None:
        return None
    struct_class, axes, values_field, _ = plan
    if {name for name, _ in struct_class._fields_} != {name for name, _ in axes} | {values_field}:
        return None
    return DenseBytes(plan)


def _address(values: np.ndarray) -> int:
    """The address of a C-contiguous array's first element (through the buffer protocol where
    the array is writable and not empty, numpy's ctypes interface otherwise)."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(values))
    except (TypeError, ValueError):  # read-only or empty
        return values.ctypes.data


def marshal(tensor: Tensor, layout: Layout | None = None) -> tuple[ctypes.Structure, list[np.ndarray]]:
    """The struct of a Tensor (arrays converted to the declared dtype, flattened) and the arrays to keep alive.

    ``layout`` defaults to the tensor's; a different struct than the tensor's is refused.
    A Tensor's struct is made once and kept with it (kernels only read an input's struct).
    """
    layout = as_layout(layout) if layout is not None else tensor.layout
    name = struct_name(layout)
    if name != struct_name(tensor.layout):
        raise SpfError(f"tensor {tensor.name} is stored in {tensor.layout.spec}, not {layout.spec}")
    made = getattr(tensor, "_structs", None)  # a Tensor is read-only: its struct is made once
    if made is not None and name in made:
        return made[name]
    values = tensor.fields.get(layout.values_field)
    if isinstance(values, np.ndarray) and values.shape == tuple(tensor.shape):
        struct = dense_struct(layout, values)
        if struct is not None:
            if made is not None:
                made[name] = (struct, [values])
            return struct, [values]

    def convert(value, field) -> np.ndarray:
        try:
            return np.ascontiguousarray(value, dtype=field.numpy_dtype).reshape(-1)
        except (TypeError, ValueError) as error:
            raise SpfError(f"tensor {tensor.name}: field {field.name} is not a {field.type} array: "
                           f"{error}") from None

    marshalled = _fill(layout, tensor.fields, tensor.name, tensor.shape, convert)
    if made is not None:
        made[name] = marshalled
    return marshalled


def output_struct(layout: Layout, fields: Mapping[str, object], name: str = "output"
                  ) -> tuple[ctypes.Structure, list[np.ndarray]]:
    """The struct of an output whose arrays the caller allocated; the kernel writes its values.

    Each array must already be a C-contiguous numpy array of the field's dtype, and the
    values array writable: anything else is refused (a copy would hide the kernel's
    writes).  Index arrays an output shares with an input (read-only Tensors) are only read.
    """
    layout = as_layout(layout)

    def convert(value, field) -> np.ndarray:
        problem = None
        if not isinstance(value, np.ndarray):
            problem = f"is a {type(value).__name__}, not a numpy array"
        elif value.dtype != field.numpy_dtype:
            problem = f"has dtype {value.dtype}, not {field.numpy_dtype}"
        elif not value.flags.c_contiguous:
            problem = "is not C-contiguous"
        elif not value.flags.writeable and field.name == layout.values_field:
            problem = "is read-only"
        if problem:
            raise SpfError(f"tensor {name}: output field {field.name} {problem}")
        return value.reshape(-1)  # a view: contiguous

    values = fields.get(layout.values_field)
    if isinstance(values, np.ndarray) and values.flags.writeable:
        struct = dense_struct(layout, values)
        if struct is not None and all(fields.get(field) == getattr(struct, field) for field, _ in dense_plan(layout)[1]):
            return struct, [values]
    return _fill(layout, fields, name, None, convert)
