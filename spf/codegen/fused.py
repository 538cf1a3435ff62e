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

:func:`lower_schedule` is the first pass of a fused compile: it leaves the nest and the
spaces where codegen.pipeline's passes (the same PASSES as any kernel's) take them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spf.errors import SpfError
from spf.layout_library.model import Number
from spf.notation.statements import Access, Statement, Term, parse_statement
from spf.scheduling.autoscheduler.problem import Operand
from spf.scheduling.autoscheduler.tree import Leaf, Node as ScheduleNode, leaves, temporaries
from spf.space.expressions import Affine
from spf.space.iteration_space import IterationSpace, coordinate_definers, identity_physical, statement_space

from spf.codegen.c.emit_c import release_function
from spf.codegen.compiled import CompiledKernel
from spf.codegen.finds.find import allowed_templates, refuse_unproven, synthesize
from spf.codegen.loops import Block, Compute, Guard, Temporary, remove_dead_assignments, render, walk
from spf.codegen.scanning.scan import Scan, scan

if TYPE_CHECKING:
    from spf.codegen.pipeline import Compilation


@dataclass(frozen=True)
class LoweredSchedule:
    """What lowering a schedule tree leaves the later passes besides the nest itself (the
    compilation's one variant, one Scan holding the whole nest)."""

    tree: ScheduleNode
    temporaries: dict[str, Operand]  # name -> its operand, as the tree declares them
    temporary_extents: dict[str, tuple[str, ...]]  # an array temporary's name -> the extent of each index
    scans: list[Scan]  # each leaf's and fused branch's, inside the nest: extents, shape checks, C names


@dataclass(frozen=True, kw_only=True)
class FusedKernel(CompiledKernel):
    """A kernel compiled from an autoscheduled tree: one C function, fused loop nests."""

    schedule: ScheduleNode | None = None
    nodes: list = field(default_factory=list)

    def explain(self, statistics: dict | None = None) -> str:
        parts = [f"schedule: {self.schedule}"]
        parts.extend(f"mode order: {name} is read from a copy whose axis t is the given {name}'s axis "
                     f"{list(permutation)}[t] (made when the kernel is called or bound)"
                     for name, permutation in self.mode_orders)
        parts.append("statements:")
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
    """One schedule tree's lowering: a statement space per leaf and per fused branch, each
    scanned (its finds proven under the ``find`` policy) as :meth:`lower` walks the tree."""

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
            definers = coordinate_definers(placement.layout)
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
        physical = placement.layout.physical[placement.physical.index(position)]
        return any(identity_physical(placement.layout, logical) == physical for logical in placement.layout.logical)

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


def lower_schedule(compilation: Compilation) -> Compilation:
    """The first pass of a fused compile (codegen.pipeline.compile_schedule): the
    candidate's tree lowered into one loop nest, each leaf scanned with its finds proven,
    without the assignments nothing reads (the dependence test reads the nest as it will
    run); the statement spaces with the output's first (the kernel reads the output's
    indices from it).  codegen.pipeline's PASSES take it from there."""
    options = compilation.options
    problem, tree = options.candidate.problem, options.candidate.schedule
    lowering = _Lowering(problem, tree, options.find)
    nodes = remove_dead_assignments(lowering.lower(tree, (), []))
    spaces = list(lowering.spaces.values())
    spaces.sort(key=lambda s: s.statement.output.tensor != problem.output)
    if not any(problem.output in space.placements for space in spaces):
        raise SpfError("autoscheduled kernels need an output tensor")
    lowered = LoweredSchedule(tree, lowering.temporaries, _temporary_extents(lowering), lowering.scans)
    nest = Scan(nodes, extents={}, shape_checks=[], entry_guards=[], calls={}, order=[])
    return dataclasses.replace(compilation, space=IterationSpace(parse_statement(problem.expression), spaces),
                               lowered=lowered, reports=lowering.reports, variant_scans=[[nest]],
                               combinations=[()])


def _temporary_extents(lowering: _Lowering) -> dict[str, tuple[str, ...]]:
    """Each array temporary's extents: of each index, the first statement's that has it."""
    return {name: tuple(next(space.extents[index] for space in lowering.spaces.values() if index in space.extents)
                        for index in temporary.indices)
            for name, temporary in lowering.temporaries.items() if temporary.indices}


def fused_kernel(compilation: Compilation, seconds: float) -> FusedKernel:
    """The callable kernel of a fused compilation that went through every pass."""
    lowered = compilation.lowered
    statements = compilation.statements
    return FusedKernel(expression=compilation.expression, spaces=statements, scans=lowered.scans,
                       reports=compilation.reports, kernels=compilation.kernels, variant_choices=[()], site_models=[],
                       c_source=compilation.source, header=compilation.header, tensors=compilation.tensors,
                       output=compilation.space.expression.output.tensor, flags=list(compilation.options.flags),
                       codegen_seconds=seconds, dependences=compilation.dependences,
                       release_function=release_function(compilation.function_name), schedule=lowered.tree,
                       nodes=compilation.variant_scans[0][0].nodes)
