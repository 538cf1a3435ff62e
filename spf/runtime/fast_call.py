"""The short call path of a kernel: ``kernel(A=tensor, x=array)`` in a few microseconds.

A plain call binds its arguments anew every time (:meth:`Kernel._bind`): it checks the
names, borrows or packs each input, works out the extents, allocates the output, picks a
variant and sizes the find state.  For the common case none of that needs the general
machinery: every input is a Tensor already in the kernel's layout (valid by construction,
its C struct made once and kept with it) or a float64 C-ordered numpy array for a
row-major dense layout, the output is a dense array of its own, and the kernel has one
variant and no find state.  :class:`CallPlan` works out once, per kernel, what such a call
does, and runs it with only the checks it still needs (names, orders, extents).  An
assembled output (a sparse result whose pattern the kernel computes) takes the same path:
a new output struct for the call's shape, then the assembly's own run.  Anything else,
and any call the C function refuses, goes the long way, which raises the error.

A scipy matrix already in the kernel's layout (CSR indices for a CSR operand: what a plain
call borrows, checked, in place) takes it too: the checked borrow and its struct are
remembered for that matrix while its arrays are the same (:class:`BorrowedInputs`: the
same array objects of the same shapes, and scipy's own flags), so a repeated call with it
costs a few lookups, as with a Tensor.  Values changed in place are read as they are;
index arrays rewritten in place, behind scipy's back, are not checked again.

The plan's common case (Tensors and dense arrays in, a dense array out) runs in C first
(spf.runtime.short_call); this module takes what that leaves, and machines without the
extension.
"""

from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

import numpy as np

from spf.errors import SpfError
from spf.runtime.memory import allocate
from spf.runtime.packing import borrow_in_place, row_major
from spf.runtime.tensor import Tensor

from spf.codegen.c.structs import DenseBytes, dense_bytes, dense_plan, marshal, struct_name
from spf.codegen.compiled import field_names

if TYPE_CHECKING:
    from spf.layout_library.model import Layout
    from spf.runtime.kernel import Kernel

SMALL_OUTPUT_BYTES = 1 << 26  # outputs above this are allocated through spf.runtime.memory.allocate (its memory check)
MOST_BORROWED = 16  # scipy matrices remembered per kernel (the oldest forgotten first)
SCIPY_ARRAYS = ("indptr", "indices", "data", "row", "col", "offsets")
FLOAT64 = np.dtype(np.float64)  # numpy's one native float64 dtype: other float64 dtypes (byte order, metadata) go the long way


def _is_scipy_sparse(value: Any) -> bool:
    """A scipy.sparse matrix or array, without importing scipy."""
    return type(value).__module__.startswith("scipy.sparse") and hasattr(value, "format")


def _arrays(value: Any) -> tuple:
    """A scipy matrix's arrays (the objects themselves) with their shapes."""
    found = []
    for name in SCIPY_ARRAYS:
        array = getattr(value, name, None)
        if isinstance(array, np.ndarray):
            found.append((name, array, array.shape))
    return tuple(found)


def _flags(value: Any) -> tuple:
    """scipy's own knowledge of a matrix's indices (sorted, canonical), as it caches it."""
    flags = value.__dict__
    return flags.get("_has_sorted_indices"), flags.get("_has_canonical_format")


def _unchanged(value: Any, shape: tuple, arrays: tuple, flags: tuple) -> bool:
    """Whether ``value`` still has the shape, the very array objects (of the same shapes)
    and the flags it had when it was checked."""
    if value.shape != shape or _flags(value) != flags:
        return False
    for name, array, array_shape in arrays:
        if getattr(value, name) is not array or array.shape != array_shape:
            return False
    return True


@dataclass
class BorrowedInputs:
    """Checked borrows of scipy matrices, per (input, matrix), while their arrays are the same."""

    # (input name, id) -> (weak reference, shape, arrays, flags, struct, tensor)
    entries: dict = field(default_factory=dict)

    def struct(self, argument: "Argument", value: Any):
        """The C struct of ``value`` borrowed for ``argument``, or None when it is not the
        layout's form (or not valid: the long way packs it or says what is wrong); either
        answer is remembered while the matrix is unchanged, so a matrix that must be packed
        is not checked twice per call."""
        key = (argument.name, id(value))
        known = self.entries.get(key)
        if known is not None and known[0]() is value and _unchanged(value, *known[1:4]):
            return known[4]
        try:
            tensor = borrow_in_place(argument.layout, value, argument.name)
        except SpfError:
            tensor = None
        struct = marshal(tensor, argument.layout)[0] if tensor is not None else None
        if len(self.entries) >= MOST_BORROWED:
            del self.entries[next(iter(self.entries))]
        try:
            self.entries[key] = (weakref.ref(value), value.shape, _arrays(value), _flags(value), struct, tensor)
        except TypeError:  # a class without weak references: not remembered
            pass
        return struct


class Argument(NamedTuple):
    """One input of the kernel, in the C function's argument order (a tuple: a call unpacks it)."""

    name: str
    layout: Layout
    struct: str  # the C struct name a Tensor's kept struct is filed under
    dense: DenseBytes | None  # a row-major dense layout's struct bytes: a numpy array is read in place
    order: int  # the number of axes
    # id -> a layout object found equal to ``layout`` (kept alive, so its id stays its own)
    equal_layouts: dict
    dtype: np.dtype = FLOAT64  # a dense layout's values' (numpy's one native dtype of it: others go the long way)


@dataclass(frozen=True)
class CallPlan:
    """What a call of an eligible kernel does (see the module's docstring)."""

    arguments: tuple[Argument, ...]
    # (argument, axis, argument, axis) of each pair of axes read with one index: equal extents
    same_extents: tuple[tuple[int, int, int, int], ...]
    output_extents: tuple[tuple[int, int], ...]  # (argument, axis) whose extent each output axis has
    output_position: int  # where the output's struct goes among the C function's arguments
    output_bytes: DenseBytes | None  # a dense output's struct bytes
    accumulates: bool  # the statement adds to its output (+=): the output starts from zeros
    output_description: str  # for an allocation refused: "output y: array vals of Dense1"
    same_layout: Callable  # Kernel._same_layout: an input's layout object is the kernel's, or equals it
    assembled: Callable | None = None  # Kernel._run_assembled, for an assembled output
    borrowed: BorrowedInputs = field(default_factory=BorrowedInputs, compare=False)
    output_dtype: np.dtype = FLOAT64  # a dense output's values

    def run(self, function: Callable[..., int], values: dict) -> np.ndarray | Tensor | None:
        """The output of one call, or None when this call must go the long way.
        ``function``: the kernel's C function loaded with every argument a ``void *``
        (``Kernel._functions``), given a kept struct's address or a dense struct's
        bytes: the plan checks the arguments itself, and ctypes' check of a typed pointer
        cost a short call as much as the rest of the path."""
        if len(values) != len(self.arguments):
            return None
        addresses, shapes, alive = [], [], []
        for argument in self.arguments:
            name, layout, struct_key, dense, order, equal_layouts, dtype = argument
            value = values.get(name)
            kind = type(value)
            if kind is Tensor:
                given = value.layout
                if given is not layout and equal_layouts.get(id(given)) is not given:
                    if not self.same_layout(given, layout):
                        return None
                    equal_layouts[id(given)] = given
                kept = value._structs.get(struct_key)  # the Tensor keeps its struct alive
                if kept is None:
                    kept = marshal(value, layout)
                    alive.append(kept)
                addresses.append(_addressof(kept[0]))
            elif kind is np.ndarray and dense is not None:
                if value.dtype is not dtype or value.ndim != order or not value.flags.c_contiguous:
                    return None
                addresses.append(dense.of(value))
            elif dense is None and _is_scipy_sparse(value):
                struct = self.borrowed.struct(argument, value)
                if struct is None:
                    return None
                addresses.append(_addressof(struct))
                alive.append(struct)  # while the call runs, though a newer borrow may push it out of the memo
            else:
                return None
            shapes.append(value.shape)
        for first, first_axis, second, second_axis in self.same_extents:
            if shapes[first][first_axis] != shapes[second][second_axis]:
                return None  # the long way names the disagreement
        shape = tuple([shapes[argument][axis] for argument, axis in self.output_extents])
        if self.assembled is not None:
            return self.assembled(function, addresses, self.output_position, shape)
        dtype = self.output_dtype
        size = dtype.itemsize
        for extent in shape:
            size *= extent
        if size > SMALL_OUTPUT_BYTES:
            output = allocate(shape, dtype, self.output_description)
        else:  # the kernel zeroes or stores every entry of an output it assigns (=)
            output = np.zeros(shape, dtype) if self.accumulates else np.empty(shape, dtype)
        addresses.insert(self.output_position, self.output_bytes.of(output))
        if function(*addresses) != 0:
            return None  # the long way raises the kernel's error (it checks shapes before anything else)
        return output


_addressof = ctypes.addressof


def _extents(accesses: list[tuple[str, ...]], output: tuple[str, ...]) -> tuple[tuple, tuple] | None:
    """The plan's ``same_extents`` and ``output_extents`` for inputs read with ``accesses``
    (their indices, in argument order), or None when an output index reads no input."""
    first: dict[str, tuple[int, int]] = {}
    same = []
    for argument, indices in enumerate(accesses):
        for axis, index in enumerate(indices):
            if index in first:
                same.append((*first[index], argument, axis))
            else:
                first[index] = (argument, axis)
    if any(index not in first for index in output):
        return None
    return tuple(same), tuple(first[index] for index in output)


def call_plan(kernel: Kernel) -> CallPlan | None:
    """The kernel's CallPlan, or None when its calls need the general path."""
    if kernel.output not in kernel.tensors or len(kernel.kernels) != 1 or kernel.site_models \
            or kernel._shared_sources:
        return None
    assembled = kernel.assembly is not None
    statement = kernel.spaces[0].statement
    if statement.accumulate and kernel.identity != 0:
        return None  # a new output starts from the semiring's identity: the long way fills it
    if statement.output.tensor != kernel.output or any(space.statement.output != statement.output
                                                       for space in kernel.spaces):
        return None
    indices: dict[str, tuple[str, ...]] = {}
    for space in kernel.spaces:
        for access in space.statement.terms[0].factors:
            if indices.setdefault(access.tensor, tuple(access.indices)) != tuple(access.indices):
                return None  # one tensor read with two index lists: the long way checks each
    arguments, accessed, output_position = [], [], None
    for position, (name, (layout, mapping, is_output)) in enumerate(kernel.tensors.items()):
        if is_output:
            if not assembled and (dense_bytes(dense_plan(layout)) is None or
                                  not all(local.startswith(f"{name}_") for local in field_names(layout, mapping))):
                return None
            output_position = position
            continue
        if name not in indices or len(indices[name]) != layout.order:
            return None
        dense = dense_bytes(dense_plan(layout)) if row_major(layout) else None
        arguments.append(Argument(name, layout, struct_name(layout), dense, layout.order, {},
                                  np.dtype(layout.value_type.dtype.name)))
        accessed.append(indices[name])
    extents = _extents(accessed, tuple(statement.output.indices))
    if extents is None:
        return None
    output_layout = kernel.tensors[kernel.output].layout
    if assembled:
        return CallPlan(tuple(arguments), *extents, output_position, None, False,
                        f"output {kernel.output} of {output_layout.spec}", kernel._same_layout,
                        kernel._run_assembled)
    output_plan = dense_plan(output_layout)
    return CallPlan(tuple(arguments), *extents, output_position, dense_bytes(output_plan),
                    bool(statement.accumulate),
                    f"output {kernel.output}: array {output_plan[2]} of {output_layout.spec}", kernel._same_layout,
                    output_dtype=output_layout.value_type.dtype)
