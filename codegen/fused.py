"""Lowering a schedule tree through the one code generator (DESIGN.md decision 5).

Each leaf of the tree is an SPF statement (``T(k) += B(i,j,k) * C(i,l)``, temporaries
stored Dense) with its own iteration space, scanned by the same scanner with the same
find synthesis as any kernel.  The tree decides how those nests nest:

* a branch's fused loops are the scan of their own space: the product of every operand
  below the branch that reads a fused index, scanned in the fused order up to the last
  fused index.  Each fused index is walked through the first sparse operand that stores
  it at its next level (the others find it there), else over its extent, as the cost
  model counts the loop (``loop_trips``), whichever leaves the operands sit in;
* in the scope that scan leaves go the branch's temporaries (zeroed there, where
  producer and consumer diverge), then the lowered producer and the lowered consumer;
* every leaf is scanned with the variables bound by the enclosing fused loops marked
  *bound*: the scanner emits no loops for them, only the rest, and finds the positions
  of its own sparse operands at the bound coordinates (co-iteration by the proven find
  templates).  A leaf runs once per fused iteration, so the state of its SeqIter finds
  restarts in each (``FindChoice.per_fused_iteration``): its space does not see the
  order in which the fused loops visit their coordinates.

Restricting a fused loop to the stored coordinates of the operands below it drops only
terms in which some factor of the product is zero, so every leaf computes what it would
unfused.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from pycparser import c_ast

from spf.errors import SpfError
from spf.autoscheduler.problem import Operand
from spf.autoscheduler.tree import Leaf, Node as ScheduleNode, leaves, temporaries
from spf.expressions import Affine
from spf.iteration_space import _definers, statement_space
from spf.layout_library.model import Number
from spf.notation import Access, Statement, Term, parse_statement

from .build import CFLAGS
from .emit_c import (OUT_OF_MEMORY, SHAPE_MISMATCH, INDEX, Emitter, KernelSource, affine, array_ranges, binary,
                     release_function,
                     block, call, conjunction, condition, const, declare, element_types, function_source, ident,
                     kernel_names,
                     library_source, tensor_parameters, _value_count, zero_output_first)
from .find import FIND_POLICIES, allowed_templates, refuse_unproven, synthesize
from .compiled import CompiledKernel
from .loops import Block, Compute, Guard, Temporary, remove_dead_assignments, render
from .find_state import start_find_states
from .parallel import balance_parallel_loops, parallelize_fused
from .register_sum import mark_register_sums
from .scan import scan
from .structs import parameter_order
from .zeroing import OutputZeroing
from .verify import check_lowered_schedule

if TYPE_CHECKING:
    from spf.autoscheduler.api import Candidate


@dataclass(frozen=True, kw_only=True)
class FusedKernel(CompiledKernel):
    """A kernel compiled from an autoscheduled tree: one C function, fused loop nests."""

    schedule: ScheduleNode | None = None
    nodes: list = field(default_factory=list)

    def explain(self, statistics: dict | None = None) -> str:
        parts = [f"schedule: {self.schedule}", "statements:"]
        parts.extend(f"  {space.statement}" for space in self.spaces)
        parts.append("loop nest:")
        parts.append(render(self.nodes, "  "))
        if self.reports:
            parts.append("finds:")
            parts.extend("  " + str(r).replace("\n", "\n  ") for r in self.reports)
        if self.dependences:
            parts.append("parallel:")
            parts.extend("  " + line for line in self.dependences)
        return "\n".join(parts)


def _access(operand) -> str:
    return f"{operand.name}({','.join(operand.indices)})" if operand.indices else operand.name


# the fused loops' statement writes nothing: its scan stops where the fused loops end
_FUSED_TARGET = Operand("spf_fused", (), temporary=True)


def _scalar_access(name: str) -> tuple:
    return (name, (Number(0),), (Number(1),))


class _Lowering:
    def __init__(self, problem, tree, find: str):
        self.problem = problem
        self.tree = tree
        self.find = find
        self.temporaries = {t.name: t for t in temporaries(tree)}
        self.leaves = list(leaves(tree))
        self.spaces: dict[int, object] = {}
        self.scans: list = []
        self.reports: list = []
        for leaf, _ in self.leaves:
            self.spaces[id(leaf)] = self._space(leaf)
        for branch in _fused_branches(tree):
            self.spaces[id(branch)] = self._fused_space(branch)

    # -- one statement per leaf
    def _space(self, leaf):
        statement = leaf.statement
        return self._statement_space(statement.target, statement.factors)

    def _statement_space(self, target, factors):
        text = f"{_access(target)} += {' * '.join(_access(f) for f in factors)}"
        layouts = {}
        for operand in (target, *factors):
            if operand.temporary:
                if operand.indices:
                    layouts[operand.name] = "Dense"
            elif operand.indices:
                layouts[operand.name] = self.problem.layouts[operand.name]
        share = {}
        if target.name == self.problem.output and self.problem.output in self.problem.share:
            share = {self.problem.output: self.problem.share[self.problem.output]}
        # Built directly: an output index bound by a fused loop may appear in no factor of
        # this leaf (the temporary it reads dropped it), which user statements may not do.
        statement_ = Statement(Access(target.name, target.indices),
                               (Term(1, tuple(Access(f.name, f.indices) for f in factors)),),
                               text, accumulate=True)
        return statement_space(statement_, layouts, share=share)

    def _fused_space(self, node):
        """The space of a branch's fused loops: the product of the operands below the branch
        that read a fused index.  Scanned in the fused order, each fused index is walked
        through the first sparse operand storing it at its next level (the others find
        it), else over its extent: the loops the cost model counts (``loop_trips``),
        whichever leaves those operands sit in."""
        fused = set(node.fused)
        below = [leaf.statement for leaf, _ in leaves(node)]
        operands: dict = {}
        for statement in below:
            for operand in statement.factors:
                if fused & set(operand.indices):
                    operands.setdefault(operand.name, operand)
        for statement in below:  # an index only an output reads (an extent, no restriction)
            target = statement.target
            if fused & set(target.indices) - {i for o in operands.values() for i in o.indices}:
                operands.setdefault(target.name, target)
        return self._statement_space(_FUSED_TARGET, tuple(operands.values()))

    def _sparse_first(self, space) -> list:
        """Placements in the order that decides which operand drives a loop."""
        order = [f.name for f in self.problem.factors]
        placements = list(space.placements.values())
        return sorted(placements, key=lambda p: order.index(p.tensor) if p.tensor in order else len(order))

    def scan_order(self, space, logical: tuple[str, ...], bound: list[str]) -> tuple[list[str], dict[str, int]]:
        """Scan variables for the logical loop order: a driver's position before its index,
        other operands' positions right after the coordinates they store (assignments or finds).

        Also returns, for each logical index, the position in the order after its segment."""
        variables = set(space.set.variables)
        order = [v for v in bound if v in variables]
        placed = set(order)
        placements = self._sparse_first(space)
        levels = {}
        for placement in placements:
            definers = _definers(placement.layout)
            defined = {}
            for logical_name, position in definers.items():
                index = placement.access.indices[placement.layout.logical.index(logical_name)]
                defined.setdefault(position, []).append(index)
            levels[placement.tensor] = [(placement.physical[k], defined.get(k, []))
                                        for k in range(len(placement.physical))]

        def next_position(tensor):
            for position, indices in levels[tensor]:
                if position not in placed:
                    return position, indices
            return None, None

        def settle():
            progress = True
            while progress:
                progress = False
                for placement in placements:
                    position, indices = next_position(placement.tensor)
                    if position is not None and all(i in placed for i in indices):
                        order.append(position)
                        placed.add(position)
                        progress = True

        settle()
        ends = {}
        for index in logical:
            if index not in placed and index in variables:
                for placement in placements:
                    position, indices = next_position(placement.tensor)
                    if position is not None and indices == [index] \
                            and not self._dense_level(placement, position):
                        order.append(position)
                        placed.add(position)
                        break
                order.append(index)
                placed.add(index)
                settle()
            ends[index] = len(order)
        order += [v for v in space.set.variables if v not in placed]
        return order, ends

    @staticmethod
    def _dense_level(placement, position: str) -> bool:
        from spf.iteration_space import _identity_physical
        physical = placement.layout.physical[placement.physical.index(position)]
        return any(_identity_physical(placement.layout, logical) == physical for logical in placement.layout.logical)

    def _choose(self, space, fused: bool):
        calls = space.set.call_table

        def choose(site):
            report = synthesize(site, calls, space.properties, allowed_templates(self.find), every_variant=False,
                                keyable=set(space.indices), fused=fused)
            self.reports.append(report)
            refuse_unproven(report, self.find)
            return report.chosen
        return choose

    def scan_leaf(self, leaf, logical, bound):
        scanned, order, ends = self._scan(self.spaces[id(leaf)], logical, bound)
        self._fix_computes(scanned.nodes, leaf)
        return scanned, order, ends

    def _scan(self, space, logical, bound, until: str | None = None):
        order, ends = self.scan_order(space, logical, bound)
        if until is not None:
            until = order[ends[until] - 1]  # the last position found at the last fused index
        scanned = scan(space, order, self._choose(space, fused=bool(bound)),
                       bound=[v for v in bound if v in set(space.set.variables)], until=until)
        self.scans.append(scanned)
        return scanned, order, ends

    def _fix_computes(self, nodes, leaf) -> None:
        """Scalar temporaries are not in iteration spaces: read and write them as ``T[0]``."""
        from .loops import walk
        statement = leaf.statement
        for node in walk(nodes):
            if not isinstance(node, Compute):
                continue
            if statement.target.temporary and not statement.target.indices:
                node.output, node.scalar_output = _scalar_access(statement.target.name), None
            for operand in statement.factors:
                if operand.temporary and not operand.indices:
                    node.factors.append(_scalar_access(operand.name))

    # -- the tree
    def lower(self, node, logical: tuple[str, ...], bound: list[str]) -> list:
        if isinstance(node, Leaf):
            scanned, _, _ = self.scan_leaf(node, logical + node.loops, bound)
            return [Block(_entry_guarded(scanned))]
        inner_logical = logical + node.fused
        if not node.fused:
            return [Block(self._temporaries(node) + self.lower(node.producer, inner_logical, bound)
                          + self.lower(node.consumer, inner_logical, bound))]
        scanned, order, ends = self._scan(self.spaces[id(node)], inner_logical, bound, until=node.fused[-1])
        inside = bound + [v for v in order[:ends[node.fused[-1]]] if v not in bound]
        scanned.hole.fused_iteration = True
        scanned.hole.body.extend(self._temporaries(node) + self.lower(node.producer, inner_logical, inside)
                                 + self.lower(node.consumer, inner_logical, inside))
        return [Block(_entry_guarded(scanned))]

    def _temporaries(self, node) -> list:
        temporary = node.temporary
        if not temporary.indices:
            return [Temporary(temporary.name)]
        return [Temporary(f"{temporary.name}_vals", Affine.of(f"{temporary.name}_size"))]


def _fused_branches(node):
    if isinstance(node, Leaf):
        return
    if node.fused:
        yield node
    yield from _fused_branches(node.producer)
    yield from _fused_branches(node.consumer)


def _entry_guarded(scanned) -> list:
    nodes = scanned.nodes
    return [Guard(list(scanned.entry_guards), nodes)] if scanned.entry_guards else nodes


def compile_schedule(candidate: Candidate, find: str = "auto", parallel: bool = False,
                     flags: Sequence[str] | None = None) -> FusedKernel:
    """Compile an autoscheduled candidate (``spf.compile(..., schedule=candidate)``)."""
    if find not in FIND_POLICIES:
        raise SpfError(f"unknown find {find!r}; choose one of {', '.join(FIND_POLICIES)}")
    started = time.perf_counter()
    problem, tree = candidate.problem, candidate.schedule
    lowering = _Lowering(problem, tree, find)
    nodes = remove_dead_assignments(lowering.lower(tree, (), []))
    spaces = list(lowering.spaces.values())
    # the statement writing the real output first: the kernel reads output indices from it
    spaces.sort(key=lambda s: s.statement.output.tensor != problem.output)

    tensors: dict = {}
    for space in spaces:
        for name, placement in space.placements.items():
            if name in lowering.temporaries:
                continue
            tensors.setdefault(name, (placement.layout, dict(placement.names), name == problem.output))
    tensors = parameter_order(parse_statement(problem.expression), tensors)
    if problem.output not in tensors:
        raise SpfError("autoscheduled kernels need an output tensor")

    scalars = {name: (Number(1),) for name, t in lowering.temporaries.items() if not t.indices}
    names = kernel_names(spaces, lowering.scans, scalars)

    digest = hashlib.sha256(f"{problem.expression}|{sorted((k, v[0].spec) for k, v in tensors.items())}|"
                            f"{tree}|{find}|{parallel}".encode()).hexdigest()[:10]
    function = f"spf_fused_{digest}"
    ranges = array_ranges(spaces)
    dependences = []
    if parallel:
        layout, mapping, _ = tensors[problem.output]
        dependences = parallelize_fused(nodes, spaces, mapping[layout.values_field])
    nodes = start_find_states(nodes)
    mark_register_sums(nodes)
    balance_parallel_loops(nodes)
    check_lowered_schedule(nodes, spaces, lowering.scans, lowering.temporaries)
    source = _function(function, nodes, lowering, tensors, names, ranges, problem)
    c_source, header = library_source([source], f"SPF_FUSED_{digest.upper()}_H", release=release_function(function))
    seconds = time.perf_counter() - started
    kernel = FusedKernel(expression=problem.expression, spaces=spaces, scans=lowering.scans, reports=lowering.reports,
                         kernels=[source], variant_choices=[()], site_models=[], c_source=c_source, header=header,
                         tensors=tensors, output=problem.output, flags=list(flags or CFLAGS), ranges=ranges,
                         codegen_seconds=seconds, dependences=dependences,
                         release_function=release_function(function), schedule=tree, nodes=nodes)
    return kernel


def _function(function_name, nodes, lowering, tensors, names, ranges, problem) -> KernelSource:
    emitter = Emitter(names, None, ranges)
    emitter.element_types = element_types(tensors)
    parameters, body = tensor_parameters(tensors)
    # a temporary's extent fields are defined from the extents below, not the other way
    temporary_fields = {f"{name}_N{k}" for name, t in lowering.temporaries.items() for k in range(len(t.indices))}
    defined = set()
    for scanned in lowering.scans:
        for extent, expression in scanned.extents.items():
            if extent in defined or expression.names() & temporary_fields:
                continue
            body.append(declare(extent, INDEX, affine(expression, names), const_=True))
            defined.add(extent)
    allocated = []
    for name, temporary in lowering.temporaries.items():
        if not temporary.indices:
            continue
        size = None
        for position, index in enumerate(temporary.indices):
            extent = next(space.extents[index] for space in lowering.spaces.values() if index in space.extents)
            body.append(declare(f"{name}_N{position}", INDEX, ident(extent), const_=True))
            size = ident(extent) if size is None else binary("*", size, ident(extent))
        body.append(declare(f"{name}_size", INDEX, size, const_=True))
        slices = binary("*", call("spf_threads"), binary("+", ident(f"{name}_size"), const(1)))
        element = c_ast.UnaryOp("sizeof", c_ast.Typename(
            None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["double"]))))
        body.append(declare(f"{name}_vals_all", "double", call("malloc", binary("*", element, slices)),
                            pointer=True))
        allocated.append(f"{name}_vals_all")
    frees = [c_ast.FuncCall(ident("free"), c_ast.ExprList([ident(a)])) for a in allocated]
    if allocated:
        check = None
        for a in allocated:
            test = binary("==", ident(a), ident("NULL"))
            check = test if check is None else binary("||", check, test)
        body.append(c_ast.If(check, block(frees + [c_ast.Return(const(OUT_OF_MEMORY))]), None))
    checks = [condition(c, names) for scanned in lowering.scans for c in scanned.shape_checks]
    if checks:
        body.append(c_ast.If(c_ast.UnaryOp("!", conjunction(checks)),
                             block(frees + [c_ast.Return(const(SHAPE_MISMATCH))]), None))
    layout, mapping, _ = tensors[problem.output]
    emitter.output_extent = (mapping[layout.values_field], _value_count(layout, mapping, names))
    if not problem.accumulate:
        body.extend(zero_output_first(OutputZeroing(), tensors, problem.output, names))  # whole, by one thread
    nest = emitter.nodes(nodes)
    body.extend(emitter.entry)
    body.extend(nest)
    body.extend(emitter.epilogue)
    body.extend(frees)
    body.append(c_ast.Return(const(0)))
    return function_source(function_name, parameters, body, tensors, emitter.state_count)
