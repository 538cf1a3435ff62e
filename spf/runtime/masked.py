"""Calling a kernel with a mask, or one that accumulates into an existing output (GraphBLAS's
``C<M> accum= A ⊕.⊗ B``; spf.notation.masks says how a mask is compiled).

:class:`MaskedKernel` wraps the compiled kernel: each call turns the mask's data into what
the kernel reads for it (a 0/1 ``keep`` array, or the mask's sparse entries, its stored
zeros dropped when its values are the entries), runs the kernel, and, with ``accumulate``,
merges the result into the output the call passed, by the accumulating monoid: where the
kernel reached no entry (masked out, or no product) its result holds ⊕'s identity, which
leaves the output's entry as it was.  Into a sparse output a second kernel makes the union of
the output passed and the result (:func:`accumulating_kernel`), a new Tensor.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from spf.errors import SpfError
from spf.layout_library import load_layout
from spf.layout_library.layout_input import load_layout_argument, resolve_family
from spf.notation.masks import MaskPlan, masked_statement, parse_mask, plan_mask
from spf.notation.semirings import USER_MONOIDS, all_monoids, semiring
from spf.notation.statements import parse_statement
from spf.runtime.kernel import callable_kernel
from spf.runtime.packing import pack
from spf.runtime.tensor import Tensor

ACCUMULATORS = {"plus": np.add, "times": np.multiply, "min": np.minimum, "max": np.maximum,
                "lor": np.logical_or, "land": np.logical_and}
"""The monoids an output accumulates by, as numpy's ufuncs."""


def accumulator(name: str, add: str, output_kind: str, output: str) -> str:
    """``accumulate=`` checked (``output_kind`` "dense", "sparse" or "scalar"): into a dense
    output, the semiring's ⊕ (whose identity is what the result holds where it has no entry);
    into a sparse output, any monoid (the result has entries only where products reach); else
    an SpfError saying why not."""
    if output_kind == "sparse":
        if name not in all_monoids():
            raise SpfError(f"accumulate={name!r}: expected a monoid, one of {', '.join(all_monoids())}")
        return name
    user = USER_MONOIDS.get(name)
    if user is not None and user.user.numpy is None and output_kind == "dense":
        raise SpfError(f"accumulate={name!r} into a dense output: numpy merges it, so define the monoid with "
                       f"numpy= (a function of two arrays computing {user.user.c} elementwise)")
    if name not in ACCUMULATORS and user is None:
        raise SpfError(f"accumulate={name!r}: expected a monoid, one of {', '.join({**ACCUMULATORS, **USER_MONOIDS})}")
    if output_kind == "scalar":
        raise SpfError(f"accumulate={name!r}: the output {output} is a scalar, which a call returns as a number; "
                       f"add it yourself ({output} {name} the result)")
    if name != add:
        raise SpfError(f"accumulate={name!r} under a semiring whose ⊕ is {add!r}: into a dense output only ⊕ "
                       f"itself accumulates (accumulate={add!r}), as the result's entries without a product hold "
                       f"{add}'s identity, which {name} would not leave unchanged; a sparse output accumulates by "
                       "any monoid")
    return name


def accumulate_into(name: str, existing: np.ndarray, result: np.ndarray) -> None:
    """``existing = existing ⊕ result`` in place, by numpy: its ufunc, or a user monoid's ``numpy=``."""
    if name in ACCUMULATORS:
        ACCUMULATORS[name](existing, result, out=existing)
    else:
        USER_MONOIDS[name].user.combine_into(existing, result)


def merged_names(output: str) -> tuple[str, str]:
    """The accumulating kernel's names for the output passed and the result."""
    return f"{output}_existing", f"{output}_result"


def accumulating_kernel(output: str, indices: tuple[str, ...], layout: Any, monoid: str, ring: str,
                        parallel: bool) -> Any:
    """The kernel merging a result into the existing sparse output: the union of their entries,
    ``monoid`` of both where both have one (GraphBLAS's accum=), in the output's layout.  Under
    plus_times, plus drops the sums that cancel, as the result's own entries do."""
    subscript = ",".join(indices)
    existing, result = merged_names(output)
    union = "plus_times" if monoid == "plus" and ring == "plus_times" else f"{monoid}_first"
    return callable_kernel(f"{output}({subscript}) = {existing}({subscript}) + {result}({subscript})",
                           {existing: layout, result: layout, output: layout}, semiring=union, parallel=parallel)


@dataclass
class MaskedKernel:
    """A kernel with a mask and/or an accumulating output: call it as the kernel, with the
    mask passed by its name (``k(A=..., x=..., M=mask)``) and, when it accumulates, the
    output to update by the output's name (``k(..., y=y)``: y is updated in place and
    returned).  Everything else is the compiled kernel's (``c_source``, ``build()``, ...)."""

    kernel: Any  # the spf.runtime.kernel.Kernel compiled with the mask's factor
    plan: MaskPlan | None
    accumulate: str | None = None
    output: str = ""
    mask_layout: Any = None  # the layout the caller gave the mask (loaded)
    merge: Any = None  # a sparse output's accumulating kernel (accumulating_kernel)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("kernel", "plan"):
            raise AttributeError(name)
        return getattr(self.kernel, name)

    def explain(self) -> str:
        lines = []
        if self.plan is not None:
            lines.append(self.plan.describe())
        if self.merge is not None:
            lines.append(f"accumulate {self.accumulate}: the result is merged with the output the call passes into "
                         f"a new {self.output} (the union of their entries, {self.accumulate} of both where both "
                         "have one)")
        elif self.accumulate is not None:
            lines.append(f"accumulate {self.accumulate}: the result is merged into the output the call passes "
                         f"({self.output}={self.output} ⊕ result, where the result has no entry: unchanged)")
        return "\n".join(lines + [self.kernel.explain()])

    def build(self) -> "MaskedKernel":
        self.kernel.build()
        return self

    def specialised(self, value_type) -> "MaskedKernel":
        """The kernel compiled for ``value_type`` (a generic kernel's copy), with the same mask."""
        return dataclasses.replace(self, kernel=self.kernel.specialised(value_type))

    def __call__(self, *positional: Any, **arguments: Any):
        if positional:
            raise SpfError("a kernel with mask= or accumulate= takes its tensors by name: k(A=..., x=..., "
                           f"{self.plan.mask.tensor if self.plan else self.output}=...)")
        existing = self._existing_output(arguments)
        result = self.kernel(**self._arguments(arguments))
        if existing is None:
            return result
        if self.merge is not None:
            existing_name, result_name = merged_names(self.output)
            return self.merge(**{existing_name: existing, result_name: result})
        try:
            accumulate_into(self.accumulate, existing, result)
        except TypeError:  # numpy's UFuncTypeError: the result's type does not cast into the output's
            raise SpfError(f"accumulate={self.accumulate!r}: the result is {result.dtype}, which the output "
                           f"{self.output} ({existing.dtype}) cannot hold without rounding; pass an output of "
                           f"{result.dtype}") from None
        return existing

    def bind(self, **arguments: Any):
        """The kernel bound to these arguments (the mask's keep array made once: a bound
        kernel reads its arguments as they were when bound); not with accumulate."""
        if self.accumulate is not None:
            raise SpfError("a kernel with accumulate= cannot be bound: each call merges into the output it is given")
        return self.kernel.bind(**self._arguments(arguments, reuse=False))

    def _existing_output(self, arguments: dict) -> np.ndarray | None:
        """The output a call accumulates into (taken out of ``arguments``), checked."""
        if self.output not in arguments:
            return None
        value = arguments.pop(self.output)
        if self.accumulate is None:
            raise SpfError(f"{self.output} is the output; pass it only to a kernel compiled with accumulate=")
        if self.merge is not None:  # a sparse output: packed in its layout by the merging kernel's call
            return value
        if not isinstance(value, np.ndarray) or not value.flags.writeable or not value.flags.c_contiguous:
            raise SpfError(f"accumulate={self.accumulate!r}: the output {self.output} must be a writable, C-ordered "
                           f"numpy array to update in place, got {type(value).__name__}")
        return value

    @functools.cached_property
    def _keep_buffers(self) -> "KeepBuffers":
        return KeepBuffers(self.plan)

    def _arguments(self, arguments: dict, reuse: bool = True) -> dict:
        """The kernel's arguments: the mask's data turned into what the kernel reads for it."""
        plan = self.plan
        if plan is None:
            return arguments
        name = plan.mask.tensor
        if name not in arguments:
            raise SpfError(f"the mask {name} is missing: pass it by its name ({name}=...)")
        given = dict(arguments)
        value = given[name] if name in self.kernel.tensors else given.pop(name)
        if plan.keeps:
            given[plan.factor] = keep_tensor(plan, self.mask_layout, value, self._keep_buffers if reuse else None)
        else:
            tensor = value if isinstance(value, Tensor) and value.layout.with_values("bool") == self.kernel.tensors[
                plan.factor].layout else pack(self.mask_layout, value, name=name)
            if plan.drops_zeros:
                tensor = without_zeros(tensor)
            given[plan.factor] = pattern_tensor(tensor, plan.factor)
        return given


def present(layout, value: Any, values: bool, name: str) -> np.ndarray:
    """A dense bool array of the mask's entries: its stored positions, or (``values``) those
    holding a nonzero value; a layout without index arrays stores every position."""
    tensor = value if isinstance(value, Tensor) else pack(layout, value, name=name)
    if not tensor.layout.index_arrays:
        dense = tensor.to_dense()
        return dense != 0 if values else np.ones(dense.shape, dtype=bool)
    coords, stored, shape = tensor.to_coo()
    entries = np.zeros(shape, dtype=bool)
    if values:
        coords = coords[stored != 0]
    entries[tuple(coords.T)] = True
    return entries


def keep_tensor(plan: MaskPlan, layout, value: Any, buffers: "KeepBuffers | None" = None) -> Tensor:
    """The mask layout's Tensor whose keep array is 1 where the output is computed: written into
    this thread's buffer of that shape when ``buffers`` are given (a call: the Tensor and its C
    struct are made once), else new (a bound kernel keeps its own)."""
    buffers = buffers or KeepBuffers(plan)
    dense = isinstance(value, np.ndarray) and not layout.index_arrays
    entries = value if dense else present(layout, value, plan.values, plan.mask.tensor)
    if entries.ndim != buffers.layout.order:
        raise SpfError(f"the mask {plan.mask.tensor} has order {entries.ndim}; the output has order "
                       f"{buffers.layout.order}")
    tensor, keep = buffers.get(entries.shape)
    if dense and not plan.values:  # a dense layout stores every position: each is an entry
        keep.fill(not plan.mask.complemented)
    elif entries.dtype == np.bool_:  # not compared with 0, which numpy does in int64 (a BFS's visited set)
        np.logical_not(entries, out=keep) if plan.mask.complemented else np.copyto(keep, entries)
    elif plan.mask.complemented:
        np.equal(entries, 0, out=keep)
    else:
        np.not_equal(entries, 0, out=keep)
    return tensor


class KeepBuffers:
    """Each thread's keep array and mask-layout Tensor per shape (a call writes the keep array
    anew; kernels run concurrently from several threads each read their own)."""

    def __init__(self, plan: MaskPlan):
        self.layout = load_layout(plan.layout)
        self.name = plan.factor
        self.local = threading.local()

    def get(self, shape: tuple) -> tuple[Tensor, np.ndarray]:
        cache = self.local.__dict__.setdefault("tensors", {})
        made = cache.get(shape)
        if made is None:
            keep = np.zeros(shape, dtype=bool)
            shown = keep.view()
            shown.flags.writeable = False  # the Tensor's arrays are read-only; the call writes through keep
            fields = {f"N{axis}": extent for axis, extent in enumerate(shape)}
            fields.update(keep=shown.view(np.uint8), vals=shown)
            made = cache[shape] = (Tensor._from_handed_over(self.layout, shape, fields, self.name), keep)
        return made


def without_zeros(tensor: Tensor) -> Tensor:
    """The sparse mask in its layout without its stored zeros (its entries are its values)."""
    coords, stored, shape = tensor.to_coo()
    nonzero = stored != 0
    if nonzero.all():
        return tensor
    return pack(tensor.layout, (coords[nonzero], stored[nonzero], shape), name=tensor.name)


def pattern_tensor(tensor: Tensor, name: str) -> Tensor:
    """The sparse mask's index arrays (shared, not copied) in its layout with bool values, all
    true: what the kernel reads for it, whatever the type of the mask's own values."""
    layout = tensor.layout.with_values("bool")
    fields = dict(tensor.fields)
    values = np.ones(np.shape(fields[layout.values_field]), dtype=bool)
    values.flags.writeable = False
    fields[layout.values_field] = values
    return Tensor._from_handed_over(layout, tensor.shape, fields, name)


def masked_kernel(expression: str, layouts: dict, mask: str | None, mask_values: bool | None,
                  accumulate: str | None, **options: Any) -> MaskedKernel:
    """``expression`` compiled with its mask's pattern factor (spf.notation.masks), wrapped
    so that calls pass the mask and the output to accumulate into (spf.compile's mask=,
    mask_values=, accumulate=)."""
    statement = parse_statement(expression)
    output = statement.output
    plan, mask_layout, compiled_layouts, pattern = None, None, dict(layouts), ()
    if options.get("schedule") is not None:
        raise SpfError("mask= and accumulate= do not take a schedule= yet: compile without it (the default "
                       "loop order, or order=)")
    if mask is not None:
        given = parse_mask(mask, mask_values)
        if given.tensor in layouts:  # else plan_mask says it is missing
            mask_layout = resolve_family(load_layout_argument(layouts[given.tensor]), len(output.indices))
        plan = plan_mask(given, statement, layouts, dense=mask_layout is not None and not mask_layout.index_arrays,
                         padded=mask_layout is not None and mask_layout.padded)
        if plan.factor == given.tensor:
            del compiled_layouts[given.tensor]
        # a sparse mask's values are never read: declared bool, they widen no computation
        compiled_layouts[plan.factor] = plan.layout if plan.keeps else mask_layout.with_values("bool")
        expression, pattern = masked_statement(statement, plan).text, (plan.factor,)
    kernel = callable_kernel(expression, compiled_layouts, pattern=pattern, **options)
    merge = None
    if accumulate is not None:
        ring = semiring(options.get("semiring", "plus_times"))
        layout = kernel.tensors[output.tensor].layout if output.tensor in kernel.tensors else None
        kind = "scalar" if layout is None else "sparse" if layout.index_arrays else "dense"
        accumulator(accumulate, ring.add.name, kind, output.tensor)
        if kind == "sparse":
            merge = accumulating_kernel(output.tensor, tuple(output.indices), layouts[output.tensor], accumulate,
                                        ring.name, bool(options.get("parallel")))
    return MaskedKernel(kernel, plan, accumulate, output.tensor, mask_layout, merge)
