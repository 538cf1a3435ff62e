"""``spf.einsum``: NumPy's einsum on scipy, pydata, spf and numpy operands.

A call parses the subscripts into index notation (:mod:`spf.notation.subscripts`), reads
each operand's kind and layout and picks the result's layout
(:mod:`spf.runtime.operand_layouts`), compiles the kernel once per signature (statement,
layouts, options: a repeated call costs a dictionary lookup plus the kernel's call), runs
it and hands the result back in the inputs' kind.  A product of three or more operands with
a dense result goes through the autoscheduler, whose pick for the operands' sizes is
remembered per signature and sizes.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import sparse

from spf import arguments
from spf.errors import ArgumentError, AutoscheduleError, SpfError
from spf.notation.semirings import semiring
from spf.notation.subscripts import OUTPUT, Subscripts, operand_name, parse_subscripts
from spf.runtime.kernel import Kernel, callable_kernel
from spf.runtime.operand_layouts import (Operand, ResultForm, in_kind, operand, output_is_dense, output_layout,
                                         result_form)
from spf.runtime.pydata_arrays import is_pydata
from spf.runtime.tensor import Tensor
from spf.scheduling.autoscheduler.problem import storage_levels
from spf.space.iteration_space import load_tensor_layout

if TYPE_CHECKING:
    from spf.runtime.autoschedule import AutoSchedule, Candidate

MOST_KERNELS = 256
"""Kernels (and autoschedules) kept per process; the least recently used goes first."""

NAMES = tuple(operand_name(position) for position in range(2))  # the operands' names on the short path
_calls: OrderedDict[tuple, tuple[Kernel, ResultForm]] = OrderedDict()  # per _call_key
_kernels: OrderedDict[tuple, Kernel] = OrderedDict()
_searches: OrderedDict[tuple, AutoSchedule | None] = OrderedDict()  # per signature
_picks: OrderedDict[tuple, Candidate] = OrderedDict()  # per signature and operand sizes


def einsum(subscripts: str, *operands: Any, out_layout: Any = None, find: str = "auto",
           parallel: bool = False, semiring: str = "plus_times") -> Any:
    """NumPy's ``einsum`` over sparse and dense operands, compiled.

    ``spf.einsum("ij,jk->ik", A, B)``, ``spf.einsum("ijk,k->ij", T, c)``, ``spf.einsum("ij,ij->", A, B)``:
    letters name indices, a letter absent from the output is summed over, and without
    ``->`` the output is the letters used once, in alphabetical order.  Operands: scipy.sparse
    arrays and matrices of every format, pydata ``sparse`` arrays, :class:`spf.Tensor`, numpy
    arrays (up to 4 axes).  Values are computed in numpy's result type of the operands'.

    The result is dense (numpy) when an output index belongs to no sparse operand, or, for
    scipy operands, as scipy's own products are (a contraction with a dense operand, and
    every result of order 1); a float for order 0; otherwise sparse, in CSR for matrices
    (CSC when every sparse operand is column-major), SV for vectors, CSF3 and CSF4 beyond,
    handed back as the inputs are: a scipy array (a matrix for scipy matrices), a pydata COO
    (GCXS for GCXS operands) or an :class:`spf.Tensor`.  ``out_layout`` names another layout.
    ``find``, ``parallel`` and ``semiring`` are :func:`spf.compile`'s: under ``semiring="min_plus"``
    a summed letter reduces by min the sums of the operands' stored entries (GraphBLAS's
    semantics: a sparse result's entries are where products reach, a dense result holds min's
    identity, inf, where none does).  Kernels are cached per signature, so a repeated call
    compiles nothing; :func:`einsum_kernel` returns the kernel itself.
    """
    key = _call_key(subscripts, operands, out_layout, find, parallel, semiring)
    known = _calls.get(key) if key is not None else None
    if known is None:
        kernel, items, form = _prepared(subscripts, operands, out_layout, find, parallel, semiring)
        if key is not None:
            _remember(_calls, key, (kernel, form))
        named = {operand_name(position): item.value for position, item in enumerate(items)}
    else:
        _calls.move_to_end(key)
        kernel, form = known
        named = dict(zip(NAMES, operands))
    return in_kind(kernel(**named), form)


def einsum_kernel(subscripts: str, *operands: Any, out_layout: Any = None, find: str = "auto",
                  parallel: bool = False, semiring: str = "plus_times") -> Kernel:
    """The kernel :func:`einsum` runs for these operands (for ``explain()``, ``c_source`` or
    ``bind``): its inputs are named A, B, ... in the operands' order and its output ``out``."""
    return _prepared(subscripts, operands, out_layout, find, parallel, semiring)[0]


def _call_key(subscripts: Any, operands: tuple, out_layout: Any, find: Any, parallel: Any,
              semiring: Any) -> tuple | None:
    """What decides a call's kernel and result form, read cheaply off the operands (their types,
    shapes, and a BSR's blocks, a GCXS's compressed axes or a Tensor's layout), for calls that
    have been prepared before; None where that is not enough to know (an operand numpy must
    first read, three or more operands, whose schedule follows their stored counts)."""
    if len(operands) > 2 or not isinstance(subscripts, str):
        return None
    described = []
    for value in operands:
        kind = type(value)
        if kind is np.ndarray:
            described.append((kind, value.shape))
        elif kind is Tensor:
            described.append((kind, value.shape, value.layout))
        elif sparse.issparse(value):
            described.append((kind, value.shape, value.blocksize if value.format == "bsr" else None))
        elif is_pydata(value):
            described.append((kind, value.shape, getattr(value, "compressed_axes", None)))
        else:
            return None
    key = (subscripts, tuple(described), out_layout, find, parallel, semiring)
    try:
        hash(key)
    except TypeError:  # an unhashable out_layout or find: prepared, which names it
        return None
    return key


def _prepared(subscripts: str, operands: tuple, out_layout: Any, find: str,
              parallel: bool, ring: str) -> tuple[Kernel, list[Operand], ResultForm]:
    """The kernel for these operands (compiled on the signature's first call), the operands
    as read, and how the result is handed back."""
    if not isinstance(subscripts, str):
        arguments.text(subscripts, "subscripts", "numpy's einsum subscripts such as 'ij,jk->ik'")
    if not operands:
        raise ArgumentError("einsum: no operands: pass one array per operand of the subscripts")
    arguments.text(find, "find", "auto, seqiter, binary, hashmap, bitmap or linear")
    arguments.flag(parallel, "parallel")
    ring = semiring(ring).name  # an unknown name: the SpfError listing the monoids and operators
    if out_layout is not None:
        arguments.layout(out_layout, "out_layout")
    items = [operand(value, operand_name(position)) for position, value in enumerate(operands)]
    parsed = parse_subscripts(subscripts, tuple(len(item.shape) for item in items))
    _check_extents(parsed, items)
    form = result_form(items)
    if out_layout is None:
        out_layout = output_layout(len(parsed.output),
                                   output_is_dense(parsed.inputs, parsed.output, items, form.kind), items)
    layouts = {operand_name(position): item.layout for position, item in enumerate(items)}
    layouts[OUTPUT] = out_layout
    key = (parsed.statement, tuple(layouts.items()), find, bool(parallel), ring)
    # fused schedules compute (+, *) only (spf.compile refuses semiring= with schedule=)
    schedule = _schedule(key, parsed, layouts, items, out_layout) if len(items) >= 3 and ring == "plus_times" \
        else None
    kernel_key = key + ((str(schedule.schedule), schedule.mode_orders) if schedule is not None else (),)
    kernel = _kernels.get(kernel_key)
    if kernel is None:
        kernel = callable_kernel(parsed.statement, layouts, find=find, parallel=bool(parallel), schedule=schedule,
                                 semiring=ring)
        _remember(_kernels, kernel_key, kernel)
    else:
        _kernels.move_to_end(kernel_key)
    return kernel, items, form


def _check_extents(parsed: Subscripts, items: list[Operand]) -> None:
    """Every letter has one extent across the operands (numpy's broadcasting of size-1 axes is not done)."""
    extents: dict[str, tuple[int, int]] = {}
    for position, (letters, item) in enumerate(zip(parsed.inputs, items)):
        for axis, letter in enumerate(letters):
            extent = int(item.shape[axis])
            seen = extents.setdefault(letter, (extent, position))
            if seen[0] != extent:
                raise ArgumentError(f"einsum: subscript {letter!r} has extent {seen[0]} in operand "
                                    f"{operand_name(seen[1])} (argument {seen[1] + 1}) and {extent} in operand "
                                    f"{operand_name(position)} (argument {position + 1})")


def _schedule(key: tuple, parsed: Subscripts, layouts: dict, items: list[Operand], out_layout: Any):
    """The autoscheduler's pick for a product of three or more operands with a dense result
    (fused schedules write dense outputs), for these operands' sizes; None (the plain
    loop nest) for a sparse result or where no fused schedule exists."""
    if not _stores_every_position(out_layout, len(parsed.output)):
        return None
    if key not in _searches:
        from spf.runtime.autoschedule import autoschedule  # sympy and the search: loaded when first needed
        try:
            searched = autoschedule(parsed.statement, layouts, progress=lambda line: None)
        except AutoscheduleError:
            searched = None
        _remember(_searches, key, searched)
    searched = _searches[key]
    if searched is None:
        return None
    sizes_key = key + tuple((item.shape, _stored(item.value)) for item in items)
    if sizes_key not in _picks:
        tensors = {operand_name(position): item.value for position, item in enumerate(items)}
        _remember(_picks, sizes_key, searched.select(**tensors))
    return _picks[sizes_key]


def _stores_every_position(layout: Any, order: int) -> bool:
    """Whether a result's layout is dense as the autoscheduler sees it (every storage level
    dense, whatever the layout's name), which fused schedules write without assembly."""
    try:
        loaded = load_tensor_layout(layout, order, OUTPUT)
        return storage_levels(loaded, loaded.logical, OUTPUT)[0] == ()
    except SpfError:  # a layout the autoscheduler cannot read level by level
        return False


def _stored(value: Any) -> int:
    """How many entries an operand stores (its size when dense): the sizes a pick is remembered for."""
    if isinstance(value, Tensor):
        return int(value.values.size)
    stored = getattr(value, "nnz", None)
    return int(stored) if stored is not None else int(getattr(value, "size", 0))


def _remember(cache: OrderedDict, key: tuple, value: Any) -> None:
    """``value`` under ``key``, dropping the least recently used beyond MOST_KERNELS."""
    cache[key] = value
    while len(cache) > MOST_KERNELS:
        cache.popitem(last=False)


__all__ = ["einsum", "einsum_kernel"]
