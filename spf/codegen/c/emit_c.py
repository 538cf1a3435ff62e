"""From scanned loop nests to C, as pycparser ``c_ast`` printed by its generator: the
printer's entry.

One kernel function per computation: it takes a pointer to each tensor's struct
(:mod:`spf.codegen.c.structs`; a scalar output is a ``double *``), copies the fields it uses
into locals (``A_rowPtr = A->rowPtr``), defines the index extents, checks that the
shapes agree (return 1), zeroes the output, runs each statement's loop nest and
returns 0.  Find templates become the code of the paper's listings: SeqIter keeps a
resumable position, HashMap a position table filled once per state, binary search a
lower bound.  A table that cannot be allocated returns 2.

This module makes the function (its arguments, prologue and epilogue) and the library
around it; the statements come from :class:`spf.codegen.c.emit_statements.Emitter`, the
expressions from spf.codegen.c.c_expressions, an assembled output's parts from
spf.codegen.c.emit_assembled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

from pycparser import c_ast, c_generator

from spf.errors import SpfInternalError
from spf.layout_library.model import Name
from spf.notation.semirings import PLUS_TIMES, Semiring
from spf.space.expressions import Affine
from spf.space.properties import Range

from spf.codegen.compiled import compute_type
from spf.codegen.c.c_expressions import Names, affine, arith, condition, lower_bound, upper_bound
from spf.codegen.c.c_syntax import (INDEX, KEPT, OUT_OF_MEMORY, SHAPE_MISMATCH, assign, binary, block, c_statements,
                                    c_text, conjunction, const, declare, ident)
from spf.codegen.c.emit_assembled import AssembledOutput, assembly_state, begin_assembly, two_phase_kernel
from spf.codegen.c.emit_loops import row_size
from spf.codegen.c.emit_statements import Emitter
from spf.codegen.c.runtime import PRELUDE
from spf.codegen.c.structs import header_text, struct_name
from spf.codegen.loops import Chunks, Compute, Loop, walk
from spf.codegen.passes.specialize import SPECIALIZED_EXTENTS
from spf.codegen.passes.zeroing import OutputZeroing
from spf.codegen.scanning.scan import readable_names

if TYPE_CHECKING:
    from spf.space.iteration_space import StatementSpace
    from spf.layout_library.model import Layout

    from spf.codegen.scanning.scan import Scan



@dataclass
class KernelSource:
    function: str
    definition: str  # the function alone (with the state it keeps between calls, if any)
    prototype: str
    layouts: list
    state_count: int = 0  # find state arrays kept between calls (see function_source)


def library_source(kernels: list[KernelSource], guard: str, support: str = "",
                   prototypes: tuple[str, ...] = (), release: str = "",
                   release_steps: tuple[str, ...] = ()) -> tuple[str, str]:
    """(C source, header) of a library holding several kernel functions over the same structs;
    ``support``: C the kernels call (an assembled output's stream and builder), with its
    public ``prototypes``.  ``release``: the name of ``void release(void)``, which frees the
    memory the kernels keep between calls (their find state, and what ``release_steps``,
    C statements, free)."""
    layouts = kernels[0].layouts
    definitions = [k.definition for k in kernels]
    if release:
        steps = [f"spf_state_release(&{kept_state_name(k.function)}, {k.state_count});"
                 for k in kernels if k.state_count] + list(release_steps)
        prototypes = (*prototypes, f"void {release}(void);")
        definitions.append(f"void {release}(void)\n{{\n" + "".join(f"  {step}\n" for step in steps) + "}\n")
    header = header_text(layouts, [*prototypes, *(k.prototype for k in kernels)], guard)
    structs = header_text(layouts, [], guard + "_STRUCTS")
    source = PRELUDE + "\n" + structs + "\n" + support + "\n" + "\n".join(definitions)
    return source, header


def element_types(tensors: dict) -> dict[str, str]:
    """The C element type of each array a kernel declares (its local name -> ``double``,
    ``float``, ``int``, ...): code that points at an array or copies it uses its own type."""
    return {mapping.get(field_.name, f"{tensor}_{field_.name}"): field_.c_type
            for tensor, (layout, mapping, _) in tensors.items() for field_ in layout.arrays}


def tensor_parameters(tensors: dict) -> tuple[list, list]:
    """One struct pointer parameter per tensor, and a local for each of its fields."""
    parameters: list = []
    body: list = []
    for tensor, (layout, mapping, _) in tensors.items():
        parameters.append(declare(tensor, f"struct {struct_name(layout)}", pointer=True))
        for field_ in layout.fields:
            local = mapping.get(field_.name, f"{tensor}_{field_.name}")
            if local != f"{tensor}_{field_.name}":
                continue  # shared: the source tensor's local serves
            member = c_ast.StructRef(ident(tensor), "->", ident(field_.name))
            if field_.is_scalar:
                body.append(declare(local, INDEX, member, const_=True))
            else:
                body.append(declare(local, field_.c_type, member, pointer=True, restrict=True))
    return parameters, body


def kernel_function(function_name: str, scans: list, statements: list, tensors: dict, names: Names,
                    ranges: dict, zero_output: bool, assembly: AssembledOutput | None = None,
                    zeroing: OutputZeroing = OutputZeroing(), specialized: tuple[str, ...] | None = None,
                    semiring: Semiring = PLUS_TIMES) -> KernelSource:
    """The C source of a kernel running each statement's scanned loop nest in turn.

    ``tensors``: name -> KernelTensor (spf.codegen.compiled) in parameter order.
    ``zero_output``: the output starts from zeros (a dense one zeroed as ``zeroing`` says).
    ``assembly``: an assembled output's builder: the kernel sets the output's scalars that
    the shape gives, the nests append their entries to a stream, and the builder's
    ``begin`` orders and counts them (the kernel takes ``spf_report`` and ``spf_handle``
    for the caller's ``fill``).
    ``specialized``: equal scalars whose common values get a copy of the nests each
    (spf.codegen.passes.specialize), where the nests keep no state.
    ``semiring``: what the statements' + and * print as (their identity: what "zeros" means).
    """
    output_name = statements[0].output.tensor
    scalar_output = output_name if output_name not in tensors else None
    emitter = Emitter(names, scalar_output, ranges, semiring)
    emitter.element_types = element_types(tensors)
    emitter.value_type = compute_type(tensors)
    parameters, body = tensor_parameters(tensors)
    if scalar_output:
        parameters.append(declare(scalar_output, emitter.value_c, pointer=True))
    parallel = any(isinstance(node, Loop) and node.parallel for scan in scans for node in walk(scan.nodes))
    if assembly:
        parameters.append(declare("spf_report", INDEX, pointer=True))
        parameters.append(c_ast.Decl("spf_handle", [], [], [], [], c_ast.PtrDecl([], c_ast.PtrDecl(
            [], c_ast.TypeDecl("spf_handle", [], None, c_ast.IdentifierType(["void"])))), None, None))
    defined = set()
    for scan in scans:
        for extent, expression in scan.extents.items():
            if extent not in defined:
                body.append(declare(extent, INDEX, affine(expression, names), const_=True))
                defined.add(extent)
    checks = [condition(c, names) for scan in scans for c in scan.shape_checks]
    if checks:
        body.append(c_ast.If(c_ast.UnaryOp("!", conjunction(checks)), c_ast.Return(const(SHAPE_MISMATCH)), None))
    if assembly:
        for field, value in assembly.scalars:
            body.extend(c_statements(f"{output_name}->{field} = {value};"))
        if assembly.two_phase is None:
            emitter.hand = any(isinstance(node, Compute) and node.grouped
                               for scan in scans for node in walk(scan.nodes))
            body.extend(assembly_state(assembly, emitter, parallel))
    elif not scalar_output:
        layout, mapping, _ = tensors[output_name]
        emitter.output_extent = (mapping[layout.values_field], value_count(layout, mapping, names))
    if assembly:
        pass  # the builder starts from nothing
    elif zero_output and scalar_output:
        body.append(declare(f"{scalar_output}_sum", emitter.value_c, emitter.identity()))
    elif zero_output:
        body.extend(zero_output_first(zeroing, tensors, output_name, names, emitter.identity()))
    elif scalar_output:
        body.append(declare(f"{scalar_output}_sum", emitter.value_c, c_ast.UnaryOp("*", ident(scalar_output))))
    for scan in scans:
        emitter.read_transposed(scan.nodes)

    def emit_nests(count: bool = False) -> list:
        nests: list = []
        for number, scan in enumerate(scans):
            nodes = assembly.count_nodes[number] if count else scan.nodes
            nest = emitter.nodes(nodes)
            guards = [condition(c, names) for c in scan.entry_guards]
            nests.extend([c_ast.If(conjunction(guards), block(nest), None)] if guards else nest)
        return nests

    if assembly and assembly.two_phase is not None:
        chunked = any(isinstance(node, Chunks) for scan in scans for node in walk(scan.nodes))
        body.extend(two_phase_kernel(assembly, emitter, emit_nests, output_name, chunked, scans))
        return function_source(function_name, parameters, body, tensors, emitter.state_count)
    nests = specialized_copies(emit_nests, emitter, specialized, names)
    body.extend(emitter.entry)
    body.extend(nests)
    if assembly and not parallel:
        body.extend(emitter.sinks_kept())  # (a parallel loop's threads keep theirs where their part ends)
    if scalar_output:
        body.append(assign(c_ast.UnaryOp("*", ident(scalar_output)), ident(f"{scalar_output}_sum")))
    if assembly:
        body.extend(begin_assembly(assembly, output_name))
    body.extend(emitter.epilogue)
    body.append(c_ast.Return(ident("spf_status") if assembly else const(0)))
    return function_source(function_name, parameters, body, tensors, emitter.state_count)


def specialized_copies(emit_nests: Callable[[], list], emitter: Emitter, specialized: tuple[str, ...] | None,
                       names: Names) -> list:
    """The nests, and where ``specialized`` names scalars (equal ones), ``if (X == 16 && Y ==
    16) {nests} else if (X == 32 ...) ... else {nests}`` (spf.codegen.passes.specialize):
    only when emitting them added nothing at the function's entry or exit and no find
    state, so the copies are alike and independent."""
    before = (len(emitter.entry), len(emitter.epilogue), emitter.state_count)
    nests = emit_nests()
    if not specialized or (len(emitter.entry), len(emitter.epilogue), emitter.state_count) != before:
        return nests
    chain = block(nests)
    for value in reversed(SPECIALIZED_EXTENTS):
        copy = emit_nests()
        test = conjunction([binary("==", affine(Affine.of(scalar), names), const(value)) for scalar in specialized])
        chain = c_ast.If(test, block(copy), chain)
    if (len(emitter.entry), len(emitter.epilogue), emitter.state_count) != before:
        raise SpfInternalError("a specialised copy of the nests added state, which the first did not")
    return [chain]


def function_source(function_name: str, parameters: list, body: list, tensors: dict,
                    state_count: int = 0) -> KernelSource:
    """``int function_name(parameters) { body }`` as C text, with its prototype.

    With ``state_count`` find state arrays (``Emitter.state_count``), the body becomes
    ``function_name_run``, taking the kernel's kept state as one more parameter, and
    ``function_name`` takes that state, runs the body and gives it back, whichever way the
    body returns."""
    generator = c_generator.CGenerator()

    def definition(name: str, parameter_list: list, items: list, storage: list) -> tuple:
        declarator = c_ast.FuncDecl(c_ast.ParamList(parameter_list),
                                    c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(["int"])))
        declaration = c_ast.Decl(name, [], [], storage, [], declarator, None, None)
        return declaration, generator.visit(c_ast.FileAST([c_ast.FuncDef(declaration, None, block(items))]))

    declaration, text = definition(function_name, parameters, body, [])
    prototype = generator.visit(declaration) + ";"
    if state_count:
        kept = kept_state_name(function_name)
        _, run = definition(f"{function_name}_run", parameters + [declare(KEPT, "spf_state", pointer=True)],
                            body, ["static"])
        arguments = ", ".join([p.name for p in parameters] + [KEPT])
        text = (f"static spf_state *{kept} = 0;\n\n{run}\n{prototype[:-1]}\n{{\n"
                f"  spf_state *const {KEPT} = spf_state_take(&{kept}, {state_count});\n"
                f"  if (!{KEPT}) return {OUT_OF_MEMORY};\n"
                f"  int spf_result = {function_name}_run({arguments});\n"
                f"  if (spf_state_failed({KEPT}, {state_count}) && spf_result == 0) spf_result = {OUT_OF_MEMORY};\n"
                f"  spf_state_put(&{kept}, {KEPT}, {state_count});\n"
                f"  return spf_result;\n}}\n")
    layouts = [layout for layout, _, _ in tensors.values()]
    return KernelSource(function_name, text, prototype, layouts, state_count)


def release_function(prefix: str) -> str:
    """The library function freeing what the kernels named ``prefix...`` keep between calls."""
    return f"{prefix}_release_state"


def kept_state_name(function_name: str) -> str:
    """The static pointer to the find state ``function_name`` keeps between calls."""
    return f"{function_name}_kept_state"


def zero_output_first(zeroing: OutputZeroing, tensors: dict, output: str, names: Names,
                      zero: c_ast.Node | None = None) -> list:
    """Zero the dense output before the nests as ``zeroing`` says: the rows its loop's
    blocks do not zero, or the whole output (by the kernel's threads where it says).
    ``zero``: the value zeroing writes (a semiring's identity; 0.0 by default)."""
    zero = const(0.0) if zero is None else zero
    if zeroing.rows is not None:
        return _zero_rows_not_reached(zeroing, names, c_text(zero))
    layout, mapping, _ = tensors[output]
    array = mapping[layout.values_field]
    size = value_count(layout, mapping, names)
    position = "spf_zero"
    loop = c_ast.For(c_ast.DeclList([declare(position, INDEX, const(0))]),
                     binary("<", ident(position), size), c_ast.UnaryOp("p++", ident(position)),
                     assign(c_ast.ArrayRef(ident(array), ident(position)), zero))
    if not zeroing.parallel:
        return [loop]
    team = c_generator.CGenerator().visit(size)
    return [c_ast.Pragma(f"omp parallel for schedule(static) num_threads(spf_team_for({team}))"), loop]


def _zero_rows_not_reached(plan: OutputZeroing, names: Names, zero: str) -> list:
    """Zero the output rows the nest's blocks do not zero themselves (spf.codegen.passes.zeroing):
    those outside its outermost loop's range, or all of them when the nest does not run."""
    loop = plan.rows
    zeroing = loop.zero_rows
    text = c_text
    extent = text(arith(zeroing.extent, names))
    inner = row_size(zeroing, names)
    guards = [condition(c, names) for c in plan.guards]
    runs = text(conjunction(guards)) if guards else "1"
    first, last = text(lower_bound(loop.lower, names)), text(upper_bound(loop.upper, names))
    if zeroing.pointer is not None:  # iteration v stores the entries [pointer(v), pointer(v + 1))
        first, last = f"{zeroing.pointer}[{first}]", f"{zeroing.pointer}[({last}) + 1] - 1"
    return c_statements(f"""
        {{
          const int64_t spf_row_size = {text(inner)};
          int64_t spf_reached_from = {extent}, spf_reached_to = {extent};
          if ({runs}) {{
            spf_reached_from = spf_min(spf_max({first}, 0), {extent});
            spf_reached_to = spf_max(spf_reached_from, spf_min({last} + 1, {extent}));
          }}
          for (int64_t spf_zero = 0; spf_zero < spf_reached_from * spf_row_size; spf_zero++)
            {zeroing.array}[spf_zero] = {zero};
          for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < {extent} * spf_row_size; spf_zero++)
            {zeroing.array}[spf_zero] = {zero};
        }}""")


def value_count(layout: Layout, mapping: dict, names: Names) -> c_ast.Node:
    """The number of entries of a layout's value array, as a C expression (``mapping``: the
    kernel's names of the tensor's fields): what a dense output's zeroing and bounds cover."""
    size = None
    for dimension in layout.field(layout.values_field).dimensions:
        term = arith(_renamed(dimension, mapping), names)
        size = term if size is None else binary("*", size, term)
    return size


def _renamed(expression, mapping):
    return expression.substitute({k: Name(v) for k, v in mapping.items()})


# ----------------------------------------------------------------------------- names


def kernel_names(statements: Sequence[StatementSpace], scans: Sequence[Scan],
                 extra_arrays: dict | None = None) -> Names:
    """C names for a kernel over these statement spaces: array dimensions (plus
    ``extra_arrays``, such as a fused kernel's scalar temporaries), readable names for
    the UF dimensions of ``scans`` and the extents."""
    arrays: dict[str, tuple] = {}
    for statement_space in statements:
        for placement in statement_space.placements.values():
            mapping = {k: Name(v) for k, v in placement.names.items()}
            for field_ in placement.layout.arrays:
                arrays.setdefault(placement.names[field_.name],
                                  tuple(d.substitute(mapping) for d in field_.dimensions))
    arrays.update(extra_arrays or {})
    taken = set(arrays)
    for statement_space in statements:
        taken |= set(statement_space.set.variables) | set(statement_space.set.parameters)
    readable: dict[str, str] = {}
    for scanned in scans:
        readable.update(readable_names(scanned.calls, taken | set(readable.values())))
    extents = {}
    for statement_space in statements:
        extents.update(statement_space.extents)
    return Names(arrays, readable, extents)


def array_ranges(statements: Sequence[StatementSpace]) -> dict[str, tuple[Affine, Affine]]:
    """``array -> (low, high)`` of every range property of these statement spaces (the
    value range a HashMap table covers)."""
    ranges = {}
    for statement_space in statements:
        for prop in statement_space.properties:
            if isinstance(prop, Range):
                ranges.setdefault(prop.arrays[0], (prop.low, prop.high))
    return ranges
