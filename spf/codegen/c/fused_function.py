"""The C function of a lowered schedule tree (codegen.fused): its one nest, with the
temporaries it allocates around it.

The emit pass (codegen.pipeline) calls it for a fused compilation where it calls
``kernel_function`` for the others.  Apart from the nest it declares every leaf's extents
(those of a temporary's own fields come from the sizes below), allocates each array
temporary once per thread (``T_vals_all``: one slice per thread, each starting a cache line, so a parallel loop's
iterations each zero and fill their own), frees them on every way out, and zeroes a dense
output before the nest as the zeroing pass planned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from pycparser import c_ast

from spf.layout_library.model import Number

from spf.codegen.c.c_expressions import Names, affine, condition
from spf.codegen.c.c_syntax import (INDEX, OUT_OF_MEMORY, SHAPE_MISMATCH, binary, block, call, conjunction, const,
                                    declare, ident)
from spf.codegen.compiled import compute_type
from spf.codegen.c.emit_c import (KernelSource, element_types, function_source, specialized_copies,
                                  tensor_parameters, value_count, zero_output_first)
from spf.codegen.c.emit_statements import Emitter
from spf.codegen.loops import Node
from spf.codegen.passes.zeroing import OutputZeroing

if TYPE_CHECKING:
    from spf.scheduling.autoscheduler.problem import Operand

    from spf.codegen.fused import LoweredSchedule
    from spf.codegen.scanning.scan import Scan


def scalar_temporaries(temporaries: Mapping[str, Operand]) -> dict[str, tuple]:
    """The scalar temporaries as one-entry arrays (``T[0]``), for the kernel's names."""
    return {name: (Number(1),) for name, temporary in temporaries.items() if not temporary.indices}


LINE_DOUBLES = 8  # doubles in a 64-byte cache line


def fused_function(function_name: str, nodes: list[Node], lowered: LoweredSchedule, tensors: dict, output: str,
                   names: Names, ranges: dict, zero_output: bool, zeroing: OutputZeroing,
                   specialized: tuple[str, ...] | None = None) -> KernelSource:
    """``int function_name(tensors...)`` running the lowered nest ``nodes``; ``lowered``
    gives its temporaries and the leaves' and fused branches' scans inside it;
    ``specialized``: the (equal) scalars whose common values get a copy of the nest each
    (spf.codegen.passes.specialize)."""
    emitter = Emitter(names, None, ranges)
    emitter.element_types = element_types(tensors)
    emitter.value_type = compute_type(tensors)
    parameters, body = tensor_parameters(tensors)
    body.extend(_extents(lowered.scans, lowered.temporaries, names))
    allocated = []
    for name, extents in lowered.temporary_extents.items():
        body.extend(_allocation(name, extents, emitter.value_c))
        allocated.append(f"{name}_vals_all")
    frees = [c_ast.FuncCall(ident("free"), c_ast.ExprList([ident(array)])) for array in allocated]
    if allocated:
        check = None
        for array in allocated:
            test = binary("==", ident(array), ident("NULL"))
            check = test if check is None else binary("||", check, test)
        body.append(c_ast.If(check, block(frees + [c_ast.Return(const(OUT_OF_MEMORY))]), None))
    checks = [condition(c, names) for scanned in lowered.scans for c in scanned.shape_checks]
    if checks:
        body.append(c_ast.If(c_ast.UnaryOp("!", conjunction(checks)),
                             block(frees + [c_ast.Return(const(SHAPE_MISMATCH))]), None))
    layout, mapping, _ = tensors[output]
    emitter.output_extent = (mapping[layout.values_field], value_count(layout, mapping, names))
    if zero_output:
        body.extend(zero_output_first(zeroing, tensors, output, names))
    nest = specialized_copies(lambda: emitter.nodes(nodes), emitter, specialized, names)
    body.extend(emitter.entry)
    body.extend(nest)
    body.extend(emitter.epilogue)
    body.extend(frees)
    body.append(c_ast.Return(const(0)))
    return function_source(function_name, parameters, body, tensors, emitter.state_count)


def _extents(scans: Sequence[Scan], temporaries: Mapping[str, Operand], names: Names) -> list:
    """The leaves' extents, each once; a temporary's extent fields are defined from the
    extents (by :func:`_allocation`), not the other way."""
    temporary_fields = {f"{name}_N{k}" for name, t in temporaries.items() for k in range(len(t.indices))}
    declarations = []
    defined = set()
    for scanned in scans:
        for extent, expression in scanned.extents.items():
            if extent in defined or expression.names() & temporary_fields:
                continue
            declarations.append(declare(extent, INDEX, affine(expression, names), const_=True))
            defined.add(extent)
    return declarations


def _allocation(name: str, extents: Sequence[str], value_c: str) -> list:
    """An array temporary's extent fields and size (``extents``: the extent of each of its
    indices), and its values (of C type ``value_c``): one slice per thread."""
    declarations = []
    size = None
    for position, extent in enumerate(extents):
        declarations.append(declare(f"{name}_N{position}", INDEX, ident(extent), const_=True))
        size = ident(extent) if size is None else binary("*", size, ident(extent))
    declarations.append(declare(f"{name}_size", INDEX, size, const_=True))
    # each thread's slice starts a cache line of its own: threads adding into neighbouring
    # slices would otherwise pass a line they share between them on every update
    stride = binary("*", binary("+", binary("/", ident(f"{name}_size"), const(LINE_DOUBLES)), const(1)),
                    const(LINE_DOUBLES))
    declarations.append(declare(f"{name}_vals_stride", INDEX, stride, const_=True))
    element = c_ast.UnaryOp("sizeof", c_ast.Typename(
        None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType([value_c]))))
    slices = binary("*", call("spf_threads"), ident(f"{name}_vals_stride"))
    declarations.append(declare(f"{name}_vals_all", value_c,
                                call("aligned_alloc", const(LINE_DOUBLES * 8), binary("*", element, slices)),
                                pointer=True))
    return declarations
