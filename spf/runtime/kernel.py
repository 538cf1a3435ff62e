"""Compiled kernels at run time: :class:`Kernel` packs its inputs when needed, allocates
the output, picks a variant of the finds for the operands, calls the C function and
returns numpy for dense outputs, an :class:`spf.Tensor` for outputs that share an
input's sparsity, and a float for scalar outputs.  Each is built around the description
the compiler (:mod:`codegen.pipeline`) returns, :class:`codegen.compiled.CompiledKernel`.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

import numpy as np

from spf.errors import ArgumentError, OutOfMemoryError, SpfError, SpfInternalError
from spf.notation.semirings import semiring
from spf.notation.value_types import ValueType, result_type
from spf.runtime.memory import allocate, require
from spf.runtime.packing import borrow, pack_into
from spf.runtime.tensor import Tensor
from spf.runtime.validation import check_fields
from spf.runtime.value_checks import given_value_type

from spf.runtime.assemble import Builder, failure, finish, take

from spf.codegen.assembly.plan import direct_rows
from spf.codegen.c.c_syntax import OUT_OF_MEMORY, SHAPE_MISMATCH, UNSTORABLE
from spf.codegen.c.emit_finds import bitmap_table_length, hash_table_length
from spf.codegen.c.emit_stream import kernel_report_length, run_time_strategies
from spf.codegen.c.structs import ctypes_struct, dense_plan, element_ctype, marshal, output_struct, struct_name
from spf.codegen.compiled import CompiledKernel, field_names, shared_fields
from spf.codegen.finds.auto import evaluate, seqiter_reach, site_cost, value_extent
from spf.codegen.pipeline import compile_kernel
from spf.codegen.toolchain.compiler import build_shared_library, load_function
from spf.runtime.fast_call import call_plan
from spf.runtime.short_call import short_call

if TYPE_CHECKING:
    from spf.layout_library.model import Layout

__all__ = ["BoundKernel", "Kernel", "callable_kernel"]


def callable_kernel(expression: str, layouts: dict, **options: Any) -> Kernel:
    """``expression`` compiled for ``layouts`` (:func:`codegen.pipeline.compile_kernel`, which
    takes ``options``), as a Kernel to call: the run time calls the compiler, never the reverse.
    Where every input declares its values' type, a generic output takes the type they compute in."""
    kernel = Kernel(compiled=compile_kernel(expression, layouts, **options), source=(expression, options))
    if not kernel.generic_inputs:
        return kernel.specialised(kernel.compute_type({}))
    return kernel


@dataclass(kw_only=True)
class Kernel:
    """A compiled kernel at run time: ``kernel(A=..., x=...)`` runs it; ``c_source`` is its C.

    Built around the compiler's description (:class:`codegen.compiled.CompiledKernel`),
    whose fields read as the kernel's own (``kernel.c_source``, ``kernel.tensors``, ...);
    the kernel adds what calls need and change: the loaded C functions, an assembled
    output's builder and how often each run-time strategy of its assembly ran.
    """

    compiled: CompiledKernel
    _recent: "Kernel | None" = field(default=None, repr=False)  # the specialisation a call last ran
    # (expression, options) it was compiled from: a kernel over generic layouts compiles
    # again per value type its calls give (specialised)
    source: tuple | None = None
    # how often each run-time strategy of the assembly ran, over this kernel's calls so far
    assembly_statistics: dict = field(default_factory=dict)
    # the C function of each variant, each argument declared void*: calls pass the addresses
    # of structs they made and checked (or a dense struct's bytes), and ctypes' check of a
    # typed pointer cost a short call as much as the rest of its path
    _functions: list = field(default_factory=list, repr=False)
    _builder: Builder | None = field(default=None, repr=False)
    _report_length: int = field(default=0, repr=False)  # of an assembled output's report
    # (value, layout, permutation, name) -> the value's copy in that mode order: set by
    # spf.runtime.conversion, which compiles copy kernels and so sits above this module
    mode_order_copy: ClassVar[Callable[[Any, Any, tuple, str], Tensor]]

    def __getattr__(self, name: str) -> Any:
        """A field of the description (only names the Kernel itself lacks come here)."""
        if name.startswith("__") or name == "compiled":
            raise AttributeError(name)
        return getattr(self.compiled, name)

    @functools.cached_property
    def generic_inputs(self) -> tuple[str, ...]:
        """The inputs whose layouts leave the values' type to the data (spf.notation.value_types)."""
        return tuple(name for name, (layout, _, is_output) in self.tensors.items()
                     if not is_output and layout.unspecialised)

    def compute_type(self, arguments: dict) -> ValueType:
        """The type a call with ``arguments`` computes in: numpy's result type of the inputs'
        values (a generic input's from its data; data without a dtype counts as float64)."""
        types = []
        for name, (layout, _, is_output) in self.tensors.items():
            if not is_output:
                given = given_value_type(arguments.get(name)) if layout.unspecialised else None
                types.append(given or layout.value_type)
        return result_type(types)

    def specialised(self, value_type: ValueType) -> "Kernel":
        """This kernel for values of ``value_type``: its generic layouts hold them (compiled
        once per type and kept); itself where nothing is generic or the type is float64."""
        generic = [name for name, (layout, _, _) in self.tensors.items() if layout.unspecialised]
        if not generic or value_type.name == "float64":
            return self
        known = self._specialisations.get(value_type.name)
        if known is None:
            expression, options = self.source
            if options.get("schedule") is not None:
                raise SpfError(f"{value_type.name} values with schedule=: a schedule is made for the layouts it "
                               f"names; declare the values' type in the layouts ({', '.join(generic)} are generic)")
            layouts = {name: tensor.layout.with_value_type(value_type) for name, tensor in self.tensors.items()}
            known = callable_kernel(expression, layouts, **options)
            self._specialisations[value_type.name] = known
        return known

    @functools.cached_property
    def _specialisations(self) -> dict[str, "Kernel"]:
        return {}

    @functools.cached_property
    def _shared_fields(self) -> dict[str, tuple[str, str]]:
        """The output's fields that are an input's: field -> (input, its field)."""
        return shared_fields(self.tensors, self.output) if self.output in self.tensors else {}

    @functools.cached_property
    def _shared_sources(self) -> set[str]:
        """The inputs whose index arrays the output shares (``share=``): its result keeps them."""
        return {source for source, _ in self._shared_fields.values()}

    @functools.cached_property
    def _prefix_shared(self) -> bool:
        """The output shares a prefix of an input's levels (its properties follow from the input's)."""
        placement = self.spaces[0].placements.get(self.output)
        return placement is not None and placement.shared_levels is not None

    def build(self) -> "Kernel":
        """Compile the C (cached by a hash of source and flags) and load every variant."""
        if not self._functions:
            path = build_shared_library(self.c_source, self.flags, name=self.function_name)
            # a struct per tensor, a scalar output's double, an assembly's report and handle
            arguments = len(self.tensors) + (self.output not in self.tensors) + 2 * (self.assembly is not None)
            if self.assembly is not None:
                layout = self.tensors[self.output].layout
                struct = ctypes.POINTER(ctypes_struct(layout))
                take = (load_function(path, f"{self.assembly_prefix}_take", [ctypes.c_void_p, struct])
                        if direct_rows(self.assembly) is not None else None)
                self._report_length = kernel_report_length(self.assembly, self.workspace, self.two_phase)
                self._builder = Builder(self.assembly, None,
                                        load_function(path, f"{self.assembly_prefix}_fill", [ctypes.c_void_p, struct]),
                                        load_function(path, f"{self.assembly_prefix}_free", [ctypes.c_void_p], None),
                                        take)
            self._functions = [load_function(path, k.function, [ctypes.c_void_p] * arguments)
                               for k in self.kernels]
            self._short_call  # the C call path's extension too (spf.runtime.short_call): a first call compiles nothing
        return self

    def release_state(self) -> None:
        """Free the memory the compiled library keeps between calls: each variant's find
        state (a hash map's table and SeqIter positions kept per value, one set per variant,
        each array at the longest length a call has needed, one slice per thread in a
        parallel loop) and an assembled output's scratch.  The next call allocates again.
        Safe while other calls run: they keep their state until they return.  (Kernels
        compiled from the same source share one library, so this frees their state too.)"""
        if self.release_function:
            path = build_shared_library(self.build().c_source, self.flags, name=self.function_name)
            load_function(path, self.release_function, [], None)()

    def _local_fields(self, fields: dict[str, dict]):
        """(name in the space, value) of each operand's field (an assembled output has none yet)."""
        for name, (_, mapping, _) in self.tensors.items():
            for field_name, value in fields.get(name, {}).items():
                yield mapping.get(field_name, f"{name}_{field_name}"), value

    def _arrays(self, fields: dict[str, dict]) -> dict[str, np.ndarray]:
        """The operands' arrays, by their names in the space."""
        return {local: value for local, value in self._local_fields(fields) if isinstance(value, np.ndarray)}

    def _statistics(self, fields: dict[str, dict]) -> tuple[dict[str, float], dict[str, int]]:
        """The operands' scalar fields and array lengths, by their names in the space."""
        stats: dict[str, float] = {}
        lengths: dict[str, int] = {}
        for local, value in self._local_fields(fields):
            if isinstance(value, np.ndarray):
                lengths.setdefault(local, value.shape[0] if value.ndim else 1)
            else:
                stats.setdefault(local, float(value))
        return stats, lengths

    def choose_variant(self, fields: dict[str, dict]) -> int:
        """The variant with the lowest estimated cost for these operands (see spf.codegen.finds.auto)."""
        if len(self.kernels) == 1:
            return 0
        stats, lengths = self._statistics(fields)
        arrays = self._arrays(fields) if any(model.exits_early for model in self.site_models) else {}
        costs = [sum(site_cost(model, choice, stats, lengths, seqiter_reach(model, choice, stats, arrays))
                     for model, choice in zip(self.site_models, choices))
                 for choices in self.variant_choices]
        return int(np.argmin(costs))

    def _require_find_state(self, variant: int, fields: dict[str, dict], extents: dict[str, int]) -> None:
        """Refuse find state the C kernel would allocate beyond this machine's memory: a hash
        map's table holds as many positions as the searched array (no more than its value
        range), kept positions span an index's extent."""
        if not self.site_models:
            return  # no find, no state
        stats, lengths = self._statistics(fields)
        for model, choice in zip(self.site_models, self.variant_choices[variant]):
            if choice.kind == "hashmap":
                require((hash_table_length(self._table_entries(model, stats, lengths)),), np.int64,
                        f"the hash-map table of the find over {model.call.function}")
            if choice.kind == "bitmap":
                extent = value_extent(choice.values, stats)
                if extent is not None:
                    require((bitmap_table_length(int(extent)),), np.int64,
                            f"the bitmap table of the find over {model.call.function}")
            for index in getattr(choice, "keyed", ()):
                if index in extents:
                    require((extents[index] + 1,), np.int64, f"the positions the find over {model.call.function} "
                            f"keeps per {index}")

    def _table_entries(self, model, stats: dict[str, float], lengths: dict[str, int]) -> int:
        """The positions a hash map's table is sized for (spf.codegen.c.emit_c): the searched
        array's length, at most its value range."""
        entries = lengths.get(model.call.function, 0)
        if model.values is not None:
            low, high = model.values
            size = evaluate(high - low, stats)
            if size is not None:
                entries = min(entries, int(size) + 1)
        return max(int(entries), 0)

    def explain(self) -> str:
        """The iteration space, the loop order, each find with its chosen and rejected templates,
        and how often each run-time strategy of an assembled output ran over the calls so far."""
        return self.compiled.explain(self.assembly_statistics)

    # -- running
    def __call__(self, *positional: Any, **arguments: Any) -> np.ndarray | Tensor | float:
        native = self._short_call
        if native is not None and not positional:
            result = native(arguments)
            if result is not None:
                return result
            recent = self._recent  # the specialisation the last call of other values ran: its C path checks them
            if recent is not None and recent._short_call is not None:
                result = recent._short_call(arguments)
                if result is not None:
                    return result
        if self.compiled.mode_orders:  # read off the description directly: __getattr__ costs a short call 5%
            arguments = self._copies(arguments)
        if not positional and self._call_plan is not None:
            result = self._call_plan.run((self._functions or self.build()._functions)[0], arguments)
            if result is not None:
                return result
        if self.generic_inputs:
            kernel = self.specialised(self.compute_type(arguments))
            if kernel is not self:
                self._recent = kernel
                return kernel(*positional, **arguments)
        return self._bind(positional, arguments, borrow_inputs=True)()

    def _copies(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The arguments with each input the C function reads in another mode order
        (``mode_orders``) replaced by its copy in the kernel's layout (spf.runtime.conversion)."""
        copied = dict(arguments)
        for name, permutation in self.mode_orders:
            if name in copied:  # a missing input is reported by the argument check
                copied[name] = Kernel.mode_order_copy(copied[name], self.tensors[name].layout, permutation, name)
        return copied

    @functools.cached_property
    def _short_call(self):
        """The short call path in C (spf.runtime.short_call), when the plan's common case can take it."""
        if self._call_plan is None or self.compiled.mode_orders:
            return None
        return short_call(self._call_plan, self.build()._functions[0])

    @functools.cached_property
    def _call_plan(self):
        """The short call path (spf.runtime.fast_call), when this kernel's calls can take it."""
        return call_plan(self)

    def bind(self, *positional: Any, **arguments: Any) -> "BoundKernel":
        """Pack and marshal the inputs and allocate the output once; calling the result
        runs only the C function (what an application linking the library pays).

        A Tensor in the kernel's layout is used as it is (a Tensor is valid by construction
        and read-only); anything else is packed into a copy, which checks it and leaves the
        caller's arrays writable (``spf.pack`` first to share a scipy matrix's arrays).
        (A plain call ``kernel(A=...)`` instead reads a scipy matrix or numpy array that
        already is the layout's in place, checked, for that one call: spf.runtime.packing.borrow.)"""
        if self.mode_orders:
            arguments = self._copies(arguments)
        return self._bind(positional, arguments, borrow_inputs=False)

    @functools.cached_property
    def _signature(self) -> tuple:
        """What every call needs and no call changes: the inputs' names (in parameter
        order), each input's (name, layout, struct name), the output's shape indices, and
        each access's (tensor, indices) for the extents."""
        inputs = tuple((name, layout, struct_name(layout))
                       for name, (layout, _, is_output) in self.tensors.items() if not is_output)
        accesses = tuple((access.tensor, tuple(access.indices))
                         for space in self.spaces for access in space.statement.terms[0].factors)
        return (frozenset(name for name, _, _ in inputs), inputs, tuple(self.spaces[0].statement.output.indices),
                accesses)

    @functools.cached_property
    def _assembled_output(self) -> tuple:
        """An assembled output's struct class and the names of the run-time choices its kernel counts."""
        return ctypes_struct(self.tensors[self.output].layout), run_time_strategies(self.workspace, self.two_phase)

    def _output_struct(self, shape: tuple):
        """A new struct of the assembled output, its scalars those of ``shape`` (copied from
        a template kept for the last few shapes): the pointers a call's kernel hands over
        are that call's."""
        known = self._struct_by_shape
        template = known.get(shape)
        if template is None:
            template = self._assembled_output[0]()
            for field_, value in self.tensors[self.output].layout.compute_scalars(shape).items():
                setattr(template, field_, int(value))
            if len(known) >= 16:
                known.clear()
            known[shape] = template
        return type(template).from_buffer_copy(template)

    def _new_assembly(self, shape: tuple) -> "Assembly":
        """The assembled output of a bound kernel (its struct its own)."""
        return dataclasses.replace(self._assembly, struct=self._output_struct(shape), shape=shape)

    def _run_assembled(self, function, structs: list, position: int, shape: tuple) -> Tensor:
        """One call of an assembled output from the short path (spf.runtime.fast_call): the
        output's new struct goes in at ``position`` of the C function's arguments."""
        struct = self._output_struct(shape)
        structs.insert(position, ctypes.byref(struct))
        return self._assembly.run(function, structs, BoundKernel._check, struct, shape)

    @functools.cached_property
    def _assembly(self) -> "Assembly":
        """What every call of an assembled output shares (built: the builder exists)."""
        return Assembly(self.tensors[self.output].layout, self.build()._builder, None, (), self.output,
                        self._report_length, self.assembly_statistics, self._assembled_output[1])

    @functools.cached_property
    def _struct_by_shape(self) -> dict:
        return {}

    def _same_layout(self, given, layout) -> bool:
        """Whether an input's layout ``given`` is the kernel's ``layout`` (equal layouts are
        remembered by identity: a kernel from the cache holds other objects than the caller's)."""
        if given is layout:
            return True
        equal = self._equal_layouts
        known = equal.get((id(given), id(layout)))
        if known is not None and known[0] is given and known[1] is layout:
            return True
        if given == layout:
            equal[(id(given), id(layout))] = (given, layout)  # both kept alive: their ids stay their own
            return True
        return False

    @functools.cached_property
    def _equal_layouts(self) -> dict:
        return {}

    def _check_arguments(self, positional, arguments) -> None:
        """Refuse positional arguments, unknown names and missing inputs (with the inputs' names)."""
        expected = [name for name, _, _ in self._signature[1]]
        if positional:
            raise ArgumentError(f"give the inputs by name, e.g. kernel({', '.join(f'{n}=...' for n in expected)}); "
                                f"got {len(positional)} positional argument(s)")
        unknown = sorted(set(arguments) - set(expected))
        if unknown:
            output = f" ({self.output} is the output, which the kernel allocates)" if self.output in unknown else ""
            raise SpfError(f"unknown argument(s) {unknown}{output}; inputs are {expected}")
        missing = [name for name in expected if name not in arguments]
        if missing:
            raise SpfError(f"missing input {', '.join(missing)}; inputs are {', '.join(expected)}")

    def _bind(self, positional, arguments, borrow_inputs: bool) -> "BoundKernel":
        names, signature, _, _ = self._signature
        if positional or arguments.keys() != names:
            self._check_arguments(positional, arguments)
        if self.generic_inputs:
            kernel = self.specialised(self.compute_type(arguments))
            if kernel is not self:
                return kernel._bind(positional, arguments, borrow_inputs)
        self.build()
        inputs = {}
        input_structs = {}
        for name, layout, struct in signature:
            value = arguments[name]
            if isinstance(value, Tensor) and self._same_layout(value.layout, layout):
                inputs[name] = value
                input_structs[name] = value._structs.get(struct)  # marshalled once per Tensor
            elif borrow_inputs and name not in self._shared_sources:
                inputs[name] = borrow(layout, value, name=name)  # checked, read in place for this one call
            else:  # a copy (a bound kernel runs again later; a shared output keeps the arrays)
                inputs[name] = pack_into(layout, value, name=name, copy=True)
        extents = self._extents(inputs)
        structs, keep_alive = [], []
        result = None
        outputs = {}
        assembly = None
        for name, (layout, mapping, is_output) in self.tensors.items():
            if is_output and self.assembly is not None:
                assembly = self._new_assembly(tuple(extents[i] for i in self._signature[2]))
                struct, alive = assembly.struct, ()
            elif is_output:
                fields, result = self._allocate_output(name, layout, mapping, inputs, extents)
                outputs[name] = fields
                struct, alive = output_struct(layout, fields, name)
            else:
                made = input_structs.get(name)
                struct, alive = made if made is not None else marshal(inputs[name], layout)
            structs.append(ctypes.addressof(struct))
            keep_alive.extend(alive)
            keep_alive.append(struct)
        scalar = None
        if self.output not in self.tensors:
            scalar = element_ctype(self.output_type.dtype)(self.identity)
            structs.append(ctypes.addressof(scalar))
            keep_alive.append(scalar)
        variant = 0
        if len(self.kernels) > 1 or self.site_models:
            fields = {name: inputs[name].fields for name in inputs}
            fields.update(outputs)
            variant = self.choose_variant(fields)
            self._require_find_state(variant, fields, extents)
        scalar_type = float if self.output_type.name == "float64" else self.output_type.dtype.type
        return BoundKernel(self._functions[variant], structs, keep_alive, result, scalar,
                           self.variant_choices[variant], assembly, scalar_type)

    @functools.cached_property
    def output_type(self) -> ValueType:
        """The type of the output's values (a scalar output's: the type the kernel computes in)."""
        if self.output in self.tensors:
            return self.tensors[self.output].layout.value_type
        return self.compute_type({})

    @functools.cached_property
    def identity(self) -> float | int:
        """What a new output's entries start from: the identity of the semiring's ⊕ (0.0 under +)
        in the output's type, for a statement that adds to its output (``+=``); one that
        assigns writes each entry."""
        return self.output_type.identity(semiring(self.semiring).add.identity)

    def _extents(self, inputs: dict) -> dict[str, int]:
        extents: dict[str, tuple[int, str]] = {}
        _, _, output_indices, accesses = self._signature
        for name, indices in accesses:
            tensor = inputs.get(name)
            if tensor is None:
                continue
            if len(tensor.shape) != len(indices):
                raise SpfError(f"{name} has order {len(tensor.shape)}, the expression uses "
                               f"{len(indices)} indices")
            for index, extent in zip(indices, tensor.shape):
                known = extents.get(index)
                if known is None:
                    extents[index] = (extent, name)
                elif known[0] != extent:
                    raise SpfError(f"index {index} has extent {extent} in {name} but "
                                   f"{known[0]} in {known[1]}")
        missing = [i for i in output_indices if i not in extents]
        if missing:
            raise SpfError(f"no input gives the extent of output index {missing}")
        return {index: value for index, (value, _) in extents.items()}

    def _allocate_output(self, name, layout, mapping, inputs, extents):
        statement = self.spaces[0].statement
        shape = tuple(extents[i] for i in statement.output.indices)
        plan = dense_plan(layout)
        if plan is not None and all(local.startswith(f"{name}_") for local in field_names(layout, mapping)):
            # a dense row-major output of its own: the caller gets the array itself
            values = allocate(shape, layout.value_type.dtype, f"output {name}: array {plan[2]} of {layout.spec}",
                              self.identity)
            return {**{field_: shape[axis] for field_, axis in plan[1]}, plan[2]: values}, values
        fields: dict[str, object] = dict(layout.compute_scalars(shape))
        shared_source = None
        for own_field, (source, source_field) in self._shared_fields.items():
            shared_source = source
            fields[own_field] = inputs[source].fields[source_field]
        for field_ in layout.fields:
            if field_.name in fields:
                continue
            if field_.name == layout.values_field:
                dimensions = tuple(int(d.evaluate(fields)) for d in field_.dimensions)
                fields[field_.name] = allocate(dimensions, field_.numpy_dtype,
                                               f"output {name}: array {field_.name} of {layout.spec} ({field_})",
                                               self.identity)
            else:
                raise SpfError(f"output {name}: field {field_.name} of {layout.spec} is unknown "
                               "before the kernel runs")
        for field_ in layout.fields:
            if field_.is_array and field_.name != layout.values_field:
                fields[field_.name] = np.ascontiguousarray(fields[field_.name], dtype=field_.numpy_dtype)
        values = fields[layout.values_field]
        if shared_source is None and not layout.index_arrays and values.shape == shape:
            return fields, values  # a dense row-major output: the caller gets the array itself
        # The kernel keeps writing the values: the Tensor's view of them is read-only, their memory is not.
        source_layout = inputs[shared_source].layout if shared_source is not None else None
        if source_layout is layout or source_layout == layout or self._prefix_shared:
            # the shared arrays were validated for this very layout, or for one whose
            # properties imply this layout's (spf.space.patterns)
            return fields, Tensor._from_checked(layout, shape, fields, name, written=layout.values_field)
        checked, _ = check_fields(layout, fields, name, shape, owned=True)
        return fields, Tensor._from_checked(layout, shape, checked, name, written=layout.values_field)


@dataclass
class BoundKernel:
    """A kernel with its arguments in place: each call runs the C function once and
    returns the (reused) output."""

    function: Callable[..., int]  # the C function (ctypes), each argument void*
    structs: list  # the addresses of the arguments' structs (kept alive by keep_alive)
    keep_alive: list
    result: np.ndarray | None  # a dense output's values
    scalar: ctypes._SimpleCData | None
    choices: tuple = ()  # the find templates of the chosen variant
    assembly: "Assembly | None" = None  # an assembled output: a new Tensor per call
    scalar_type: type = float  # what a scalar output returns as: a Python float for float64, else numpy's scalar

    def __call__(self) -> np.ndarray | Tensor | float:
        if self.assembly is not None:
            return self.assembly.run(self.function, self.structs, self._check)
        self._check(self.function(*self.structs))
        if self.scalar is None:
            return self.result
        return self.scalar_type(self.scalar.value)

    @staticmethod
    def _check(status: int) -> None:
        if status == SHAPE_MISMATCH:
            raise SpfError("the kernel found that the tensors' shapes disagree")
        if status == OUT_OF_MEMORY:
            raise OutOfMemoryError("the kernel could not allocate a temporary (a find's table or positions, "
                                   "a per-thread copy of the output, a fused kernel's temporary)")
        if status != 0:
            raise SpfInternalError(f"the kernel returned the error code {status}, which no generated C returns")


@dataclass
class Assembly:
    """An assembled output of a bound kernel: the kernel appends its entries and ``begin``s
    the builder; then the arrays its counts size are allocated and filled."""

    layout: Layout
    builder: Builder
    struct: ctypes.Structure | None  # the output's struct (ctypes), each call's own
    shape: tuple
    name: str
    report_length: int
    statistics: dict  # strategy -> how often it ran, added to after each call
    strategies: tuple = ()  # the names of the run-time choices the kernel counts after the builder's report

    def run(self, function: Callable[..., int], structs: list, check: Callable[[int], None],
            struct: ctypes.Structure | None = None, shape: tuple | None = None) -> Tensor:
        """Call the kernel (``structs``: its arguments, the output's struct among them) and
        make the result; ``struct`` and ``shape``: this call's, when not the bound ones."""
        if struct is None:
            struct, shape = self.struct, self.shape
        report = (ctypes.c_int64 * self.report_length)()  # zeroed; read as Python ints, no numpy per call
        handle = ctypes.c_void_p()
        status = function(*structs, report, ctypes.byref(handle))
        if status == 0 and self.strategies:
            counts = report[self.report_length - len(self.strategies):]
            for strategy, count in zip(self.strategies, counts):
                self.statistics[strategy] = self.statistics.get(strategy, 0) + count
        if status == UNSTORABLE:
            raise failure(self.layout, self.builder.plan, report, self.name, 0)
        if status != 0:
            if handle.value:
                self.builder.free(handle)
            check(status)
        taken = take(self.layout, self.builder, handle, struct, shape, self.name)
        if taken is not None:
            return taken
        return finish(self.layout, self.builder, handle, report, struct, shape, self.name)
