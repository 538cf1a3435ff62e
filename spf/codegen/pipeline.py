"""``spf.compile`` as a chain of passes, each a function from one stage to the next.

    options ─▶ iteration space (tiled by the recipe) ─▶ scan with find synthesis
      ─▶ variants (one per combination of proven finds) ─▶ parallel loops
      ─▶ a sum's nests fused (assembled outputs) ─▶ its terms merged by column ─▶ tile guards
      ─▶ dead assignments removed ─▶ a dense output zeroed by the loop that writes it
      ─▶ an assembled output's strategy (two phases, append, a
      workspace or the stream) ─▶ C ─▶ Kernel

A :class:`Compilation` holds what the passes have made so far; each pass returns a new
one, as loopy's transformations each return a new kernel.  The loop nests inside are
handed from pass to pass: a pass may rewrite the nests it is given in place (marking a
loop parallel, wrapping one in a tile guard), and nothing before it keeps using them.

An autoscheduled candidate enters the same passes after a first one that lowers its
schedule tree into one loop nest (:func:`codegen.fused.lower_schedule`); a pass that does
not apply to that nest says so by checking :attr:`Compilation.lowered`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from spf.errors import AssemblyRefused, RecipeError, ScanError, SpfError
from spf.notation.semirings import semiring as semiring_named
from spf.scheduling.recipe import Recipe
from spf.space.iteration_space import IterationSpace, complete_order, iteration_space

from spf.codegen.assembly.fusion import fuse_statement_nests
from spf.codegen.assembly.merge import appends_in_order, fills_in_order, merge_terms
from spf.codegen.assembly.plan import (AssemblyPlan, TwoPhase, Workspace, choose_two_phase, choose_workspace,
                                       direct_rows, plan_assembly, shape_scalars)
from spf.codegen.assembly.rows import plan_row_appends
from spf.codegen.c.c_syntax import OUT_OF_MEMORY, UNSTORABLE
from spf.codegen.c.emit_assembled import AssembledOutput
from spf.codegen.c.emit_assembly import FIRST_BAD, assembly_prefix, assembly_prototypes, assembly_source, report_length
from spf.codegen.c.emit_c import (KernelSource, array_ranges, kernel_function, kernel_names, library_source,
                                  release_function)
from spf.codegen.c.emit_semiring import user_operations_source
from spf.codegen.c.emit_stream import (combine_source, kernel_report_length, rows_source, stream_source,
                                      workspace_source)
from spf.codegen.c.fused_function import fused_function, scalar_temporaries
from spf.codegen.c.structs import parameter_order, struct_name
from spf.codegen.compiled import CompiledKernel, KernelTensor, compute_type
from spf.codegen.finds.auto import SiteModel, variants
from spf.codegen.finds.find import (FIND_POLICIES, FindReport, allowed_templates, refuse_unproven, synthesize,
                                    variant_templates)
from spf.codegen.finds.find_state import start_find_states
from spf.codegen.loops import Compute, remove_dead_assignments, walk
from spf.codegen.passes.early_exit import exiting_sites, mark_early_exits
from spf.codegen.passes.masked_lookup import mark_masked_lookups
from spf.codegen.passes.independent import mark_independent_loops
from spf.codegen.passes.jam import jam_register_sums
from spf.codegen.passes.parallel import (balance_parallel_loops, mark_parallel_loops, parallelize_fused,
                                         split_into_chunks)
from spf.codegen.passes.register_sum import keep_factors_inside, mark_register_sums
from spf.codegen.passes.pattern_factors import drop_pattern_factors
from spf.codegen.passes.semiring import refuse_for_semiring, stores_padding
from spf.codegen.passes.value_types import refuse_for_value_type
from spf.codegen.passes.specialize import specialized_extent
from spf.codegen.passes.split_sum import split_register_sums
from spf.codegen.passes.terminal_sum import mark_terminal_sums
from spf.codegen.passes.tiling import add_tile_guard, tile_space
from spf.codegen.passes.zeroing import OutputZeroing, fold_output_zeroing, plan_output_zeroing
from spf.codegen.scanning.projection import count_nest
from spf.codegen.scanning.scan import Scan, scan
from spf.codegen.toolchain.compiler import CFLAGS
from spf.codegen.toolchain.kernel_cache import kernel_key, lookup, store
from spf.codegen.verify import check_after_pass, check_lowered_schedule

if TYPE_CHECKING:
    from spf.scheduling.autoscheduler.candidate import Candidate

    from spf.codegen.fused import LoweredSchedule


@dataclass(frozen=True)
class Options:
    """What the user asked for, checked."""

    find: str = "auto"
    share: dict = field(default_factory=dict)
    parallel: bool = False
    order: tuple | None = None
    recipe: Recipe | None = None
    flags: tuple = tuple(CFLAGS)
    keep_zeros: bool = False  # an assembled output keeps entries that sum to zero (conversions do)
    infer_pattern: bool = False  # no share= given: the output shares an input's levels where proven
    candidate: Candidate | None = None  # an autoscheduled schedule tree to lower (codegen.fused)
    specialize: bool = True  # copies of the nests for common dense extents (spf.codegen.passes.specialize)
    semiring: str = "plus_times"  # what the statement's + and * mean (spf.notation.semirings)
    pattern: tuple = ()  # tensors read for their entries' positions only, never their values (a mask)


@dataclass(frozen=True)
class Compilation:
    """A kernel on its way from an expression to C."""

    expression: str
    layouts: dict
    options: Options
    space: IterationSpace | None = None
    order: tuple | None = None
    tensors: dict[str, KernelTensor] = field(default_factory=dict)  # in the C function's parameter order
    reports: list = field(default_factory=list)  # of find synthesis, one per find site
    sites: list = field(default_factory=list)  # (FindSite, its calls), one per find site
    variant_scans: list = field(default_factory=list)  # per variant, one Scan per statement
    combinations: list = field(default_factory=list)  # per variant, the find templates by site
    dependences: list = field(default_factory=list)  # explain()'s lines on parallel loops
    kernels: list = field(default_factory=list)  # per variant, its C function
    source: str = ""
    header: str = ""
    assembly: AssemblyPlan | None = None  # of an assembled output
    workspace: Workspace | None = None  # when the output's entries go through one
    two_phase: TwoPhase | None = None  # when the nest counts, then fills the rows
    count_nodes: tuple = ()  # with two_phase: each statement's nest for the count phase
    output_zeroing: tuple = ()  # per variant, how its dense output is zeroed first (spf.codegen.passes.zeroing), if it is
    # of a schedule tree (codegen.fused): its temporaries and leaves' scans; its one nest is variant_scans[0][0]
    lowered: LoweredSchedule | None = None
    # per variant, the extents (equal scalars) its nests are copied for at each of SPECIALIZED_EXTENTS
    # (spf.codegen.passes.specialize), or None
    specialized: tuple = ()

    @property
    def statements(self) -> list:
        return self.space.statements

    @property
    def digest(self) -> str:
        """Names the C functions: the same for the same expression, layouts and options
        (a schedule tree fixes the share and the loops of its kernel: it stands for them)."""
        options = self.options
        if options.candidate is not None:
            choices = f"{options.candidate.schedule}|{options.find}|{options.parallel}"
        else:
            choices = (f"{options.share or None}|{options.find}|{list(self.order) if self.order else None}|"
                       f"{options.parallel}|{options.recipe}" + ("|keep zeros" if options.keep_zeros else "")
                       + ("|inferred pattern" if self._inferred_pattern else "")
                       + (f"|pattern {sorted(options.pattern)}" if options.pattern else ""))
        text = f"{self.expression}|{sorted((k, v[0].spec) for k, v in self.tensors.items())}|{choices}"
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    @property
    def _inferred_pattern(self) -> bool:
        return self.space is not None and any(p.inferred for p in self.space.statements[0].placements.values())

    @property
    def function_name(self) -> str:
        """The C function of the kernel (its variants add ``_v1``, ...), named by the digest."""
        return f"{'spf_fused' if self.lowered is not None else 'spf_kernel'}_{self.digest}"


def _every_scan(compilation: Compilation) -> Iterator[Scan]:
    """Each statement's scanned nest in each variant: what most passes rewrite."""
    for group in compilation.variant_scans:
        yield from group


# ----------------------------------------------------------------------------- the passes


def kernel_tensors(space: IterationSpace, temporaries: Iterable[str] = ()) -> dict:
    """The kernel's tensors (name -> KernelTensor) in the order of
    the C ABI (spf.codegen.c.structs.parameter_order): each one the statements place, but a
    schedule tree's ``temporaries`` (the kernel's own arrays); an assembled output in the
    layout the builder fills."""
    skipped = set(temporaries)
    output = space.expression.output.tensor
    tensors: dict = {}
    for statement_space in space.statements:
        for name, placement in statement_space.placements.items():
            if name not in skipped:
                tensors.setdefault(name, KernelTensor(placement.layout, dict(placement.names), name == output))
    assembled = space.statements[0].assembled
    if assembled is not None:
        tensors[output] = KernelTensor(assembled, {f.name: f"{output}_{f.name}" for f in assembled.fields}, True)
    return parameter_order(space.expression, tensors)


def build_space(compilation: Compilation) -> Compilation:
    """The iteration space of each statement (tiled as the recipe says) and the tensors
    in the order of the C ABI; a lowered schedule tree's spaces are the lowering's."""
    if compilation.lowered is not None:
        return dataclasses.replace(compilation, tensors=kernel_tensors(compilation.space,
                                                                       compilation.lowered.temporaries))
    options = compilation.options
    space = iteration_space(compilation.expression, compilation.layouts, share=options.share or None,
                            infer_pattern=options.infer_pattern)
    order = complete_order(space.statements[0], options.order) if options.order else None
    recipe = options.recipe
    if recipe is not None and recipe.tiles:
        space.statements[0] = tile_space(space.statements[0], recipe.tiles)
        order = order or tuple(recipe.variables)
    return dataclasses.replace(compilation, space=space, order=order, tensors=kernel_tensors(space))


def check_semiring(compilation: Compilation) -> Compilation:
    """The reason a semiring other than (+, *) cannot compile this kernel yet, if there is one
    (spf.notation.semirings): a coefficient, padding that a product
    would read as an entry, or a recipe's reduction by atomics or per-thread copies."""
    ring = semiring_named(compilation.options.semiring)
    if ring.arithmetic:
        return compilation
    refuse_for_semiring(ring, compilation.statements, compilation.options.recipe, compilation.options.pattern)
    return compilation


def check_value_type(compilation: Compilation) -> Compilation:
    """The reason the kernel's value type (its inputs' result type) cannot compile it yet, if
    there is one (spf.codegen.passes.value_types)."""
    refuse_for_value_type(compute_type(compilation.tensors), semiring_named(compilation.options.semiring),
                          compilation.statements)
    return compilation


def plan_output_assembly(compilation: Compilation) -> Compilation:
    """How the builder establishes an assembled output's arrays (codegen.assembly), or
    the reason its layout cannot be assembled."""
    layout = compilation.statements[0].assembled
    if layout is None:
        return compilation
    output = compilation.space.expression.output.tensor
    try:
        plan = plan_assembly(layout)
    except AssemblyRefused as refusal:
        raise AssemblyRefused(f"output {output} cannot be assembled in {layout.spec}: {refusal} "
                              f"(use a layout assembly builds, a Dense output, or share={{'{output}': ...}})") \
            from None
    return dataclasses.replace(compilation, assembly=plan)


def synthesize_finds(compilation: Compilation) -> Compilation:
    """Scan each statement in the loop order, proving a template for every find (a
    schedule tree's leaves were scanned, and their finds proven, as it was lowered)."""
    if compilation.lowered is not None:
        return compilation
    options, recipe = compilation.options, compilation.options.recipe
    reports: list[FindReport] = []
    sites: list = []
    scans = []
    used_targets: set[str] = set()
    for statement_space in compilation.statements:
        calls = statement_space.set.call_table
        tensor_of = {p: name for name, placement in statement_space.placements.items() for p in placement.physical}

        def choose(site, calls=calls, statement_space=statement_space, tensor_of=tensor_of):
            if recipe:
                used_targets.update(t for t, _ in recipe.finds
                                    if t == site.variable or t == tensor_of.get(site.variable))
            policy = (recipe.find_policy(site.variable, tensor_of) if recipe else None) or options.find
            report = synthesize(site, calls, statement_space.properties, allowed_templates(policy),
                                every_variant=policy == "auto", keyable=set(statement_space.indices))
            reports.append(report)
            sites.append((site, calls))
            refuse_unproven(report, policy)
            return report.chosen

        try:
            scans.append(scan(statement_space, compilation.order, choose))
        except ScanError as error:
            if recipe is not None and recipe.order is not None:
                raise RecipeError(f"permute({', '.join(recipe.order)}) cannot be scanned: {error}") from None
            raise
    if recipe is not None:
        unused = [f"find({t!r}, {template!r})" for t, template in recipe.finds if t not in used_targets]
        if unused:
            raise RecipeError(f"{', '.join(unused)}: no find searches that tensor's positions in this "
                              "loop order (its positions are looped over or assigned)")
    return dataclasses.replace(compilation, reports=reports, sites=sites, variant_scans=[scans],
                               combinations=[tuple(r.chosen for r in reports)])


def enumerate_variants(compilation: Compilation) -> Compilation:
    """One loop nest per combination of proven templates (find="auto" keeps them all;
    the run time picks one per call), the statically preferred first.  A lowered schedule
    tree keeps one nest: its leaves, scanned inside its fused loops, are not scanned again."""
    if compilation.lowered is not None:
        return compilation
    reports = compilation.reports
    valid = [variant_templates(r) if len(r.valid) > 1 else [r.chosen] for r in reports]
    combinations = variants(valid)
    if combinations == compilation.combinations:
        return compilation

    def rescan(choices):
        queue = list(choices)
        return [scan(s, compilation.order, lambda site: queue.pop(0)) for s in compilation.statements]

    first = compilation.variant_scans[0] if combinations[0] == compilation.combinations[0] \
        else rescan(combinations[0])
    variant_scans = [first] + [rescan(choices) for choices in combinations[1:]]
    return dataclasses.replace(compilation, variant_scans=variant_scans, combinations=combinations)


def parallelize(compilation: Compilation) -> Compilation:
    """Mark the parallel loops (spf.codegen.passes.parallel decides which, and why not others; of a
    lowered schedule tree, its outermost loop, tested on the statement writing the output)."""
    output = compilation.space.expression.output.tensor
    output_array = None
    if output in compilation.tensors:
        layout, mapping, _ = compilation.tensors[output]
        output_array = mapping[layout.values_field]
    options = compilation.options
    if compilation.lowered is not None:
        if not options.parallel:
            return compilation
        nest = compilation.variant_scans[0][0].nodes
        return dataclasses.replace(compilation, dependences=parallelize_fused(nest, compilation.statements,
                                                                              output_array))
    tested = mark_parallel_loops(compilation.statements, compilation.variant_scans, output_array,
                                 options.recipe, options.parallel)
    return dataclasses.replace(compilation, dependences=tested)


def fuse_nests(compilation: Compilation) -> Compilation:
    """One loop for a sum's statements into an assembled output (spf.codegen.assembly.fusion), so its
    rows arrive once each, the union of the terms co-iterated row by row."""
    if compilation.assembly is None or len(compilation.statements) < 2:
        return compilation
    indices = tuple(compilation.space.expression.output.indices)
    groups = [fuse_statement_nests(group, indices) for group in compilation.variant_scans]
    if any(group is None for group in groups):
        return compilation
    return dataclasses.replace(compilation, variant_scans=groups)


def merge_terms_by_coordinate(compilation: Compilation) -> Compilation:
    """A fused sum's terms co-iterated by the output's inner coordinate where each term's
    loop walks it strictly increasing (spf.codegen.assembly.merge): a row's entries then arrive in
    storage order, each coordinate's terms side by side."""
    plan = compilation.assembly
    if plan is None or len(compilation.statements) < 2:
        return compilation
    rows = direct_rows(plan)
    output = tuple(compilation.space.expression.output.indices)
    if rows is None or len(output) != len(plan.coordinates):
        return compilation
    inner = dict(zip(plan.coordinates, output))[rows.inner]
    properties = [space.properties for space in compilation.statements]
    for group in compilation.variant_scans:
        merge_terms(group[0].nodes, inner, properties)
    return compilation


def guard_tiles(compilation: Compilation) -> Compilation:
    """Fig. 8's tile guards around linear finds over tiled, monotone arrays."""
    recipe = compilation.options.recipe
    if recipe is not None:
        properties = compilation.statements[0].properties
        for variable, _ in recipe.tiles:
            for group in compilation.variant_scans:
                add_tile_guard(group[0].nodes, variable, compilation.sites, properties)
    return compilation


def drop_masks(compilation: Compilation) -> Compilation:
    """Take the pattern tensors (a mask) out of every product: their entries shaped the
    iteration space, their values are no factor (spf.codegen.passes.pattern_factors)."""
    if compilation.options.pattern:
        arrays = {mapping[layout.values_field] for name, (layout, mapping, _) in compilation.tensors.items()
                  if name in compilation.options.pattern}
        for scanned in _every_scan(compilation):
            drop_pattern_factors(scanned.nodes, arrays)
    return compilation


def remove_dead_code(compilation: Compilation) -> Compilation:
    """Drop the assignments nothing reads."""
    for scanned in _every_scan(compilation):
        scanned.nodes = remove_dead_assignments(scanned.nodes)
    return compilation


def fold_zeroing(compilation: Compilation) -> Compilation:
    """A dense output zeroed by the blocks of the loop that writes it (spf.codegen.passes.zeroing)
    rather than by a pass of its own, where the nest's outer loop runs over its rows."""
    output = compilation.space.expression.output.tensor
    if compilation.assembly is not None or compilation.space.expression.accumulate \
            or output not in compilation.tensors:
        return compilation
    layout, mapping, _ = compilation.tensors[output]
    for group in compilation.variant_scans:
        if len(group) == 1:
            fold_output_zeroing(group[0].nodes, mapping[layout.values_field])
    return compilation


def jam_loops(compilation: Compilation) -> Compilation:
    """Loops around a register sum take several iterations per pass of it (spf.codegen.passes.jam);
    not in a kernel that assembles its output (its entries go through a stream).  A lowered
    schedule tree's nest is jammed without transposed copies of inputs (its C function,
    spf.codegen.c.fused_function, makes none: an operand it reads may be a temporary of the
    nest)."""
    if compilation.assembly is None:
        for scanned in _every_scan(compilation):
            jam_register_sums(scanned.nodes, transpose=compilation.lowered is None)
    return compilation


def mark_padded_factors(compilation: Compilation) -> Compilation:
    """An assembled output's entries name their factors read from a padded layout
    (``Compute.padded``): a zero there is an unstored entry, no term.  Under a semiring other
    than (+, *) a layout without index arrays (Dense1..4) stores no padding: each of its
    positions is an entry, zeros too, as in a full GraphBLAS matrix."""
    if compilation.assembly is None:
        return compilation
    padding = (lambda layout: layout.padded) if semiring_named(compilation.options.semiring).arithmetic \
        else stores_padding
    padded = {mapping[layout.values_field] for layout, mapping, is_output in compilation.tensors.values()
              if padding(layout) and not is_output}
    for scanned in _every_scan(compilation):
        for node in walk(scanned.nodes):
            if isinstance(node, Compute) and node.stream is not None:
                node.padded = tuple(array for array, _, _ in node.factors if array in padded)
    return compilation


def choose_assembly(compilation: Compilation) -> Compilation:
    """How an assembled output's entries reach its arrays: two phases where they apply
    (a copy or permutation: no entry summed from several iterations; the nest's parallel
    loop, if any, split into per-thread chunks, and the count phase's nest projected,
    spf.codegen.scanning.projection), else a workspace where it pays (appending, no accumulator, where the entries
    provably arrive in order: spf.codegen.assembly.merge), else the stream into the builder."""
    plan = compilation.assembly
    if plan is None:
        return compilation
    two_phase = choose_two_phase(plan, compilation.statements, compilation.variant_scans)
    if two_phase is None:
        workspace = choose_workspace(plan, compilation.statements,
                                     [scanned.order for scanned in compilation.variant_scans[0]])
        if workspace is not None and workspace.direct is not None and all(
                appends_in_order(scanned.nodes, workspace.outer, workspace.coordinate, space.properties)
                for group in compilation.variant_scans for scanned, space in zip(group, compilation.statements)):
            workspace = dataclasses.replace(workspace, appends=True)
        if workspace is not None and workspace.direct is not None:
            workspace = dataclasses.replace(workspace, trusted=plan.shape_checks_only)
        return dataclasses.replace(compilation, workspace=workspace)
    for scanned in compilation.variant_scans[0]:
        scanned.nodes = split_into_chunks(scanned.nodes)
    count_nodes = tuple(count_nest(scanned.nodes, two_phase.outer, space.properties)
                        for scanned, space in zip(compilation.variant_scans[0], compilation.statements))
    trusted = plan.shape_checks_only and all(
        fills_in_order(scanned.nodes, two_phase.outer, two_phase.inner, space.properties)
        for scanned, space in zip(compilation.variant_scans[0], compilation.statements))
    two_phase = dataclasses.replace(two_phase, trusted=trusted)
    return dataclasses.replace(compilation, two_phase=two_phase, count_nodes=count_nodes)


def place_find_states(compilation: Compilation) -> Compilation:
    """Where each find's state starts, and each parallel loop's threads' own (spf.codegen.finds.find_state)."""
    for scanned in _every_scan(compilation):
        scanned.nodes = start_find_states(scanned.nodes)
    count_nodes = tuple(start_find_states(list(nodes)) for nodes in compilation.count_nodes)
    return dataclasses.replace(compilation, count_nodes=count_nodes)


def sum_in_registers(compilation: Compilation) -> Compilation:
    """Loops whose statement writes one output position throughout sum their terms in a
    register (spf.codegen.passes.register_sum); not in a two-phase kernel, whose nests count and put
    every entry."""
    if compilation.two_phase is None:
        arithmetic = semiring_named(compilation.options.semiring).arithmetic
        for scanned in _every_scan(compilation):
            mark_register_sums(scanned.nodes)
            if not arithmetic:
                keep_factors_inside(scanned.nodes)
    return compilation


def exit_exhausted_finds(compilation: Compilation) -> Compilation:
    """A loop whose iterations do nothing but one SeqIter find stops once its position has
    left the searched range (spf.codegen.passes.early_exit)."""
    for scanned in _every_scan(compilation):
        mark_early_exits(scanned.nodes)
    return compilation


def mask_lookups(compilation: Compilation) -> Compilation:
    """A bitmap find whose body is its loop's register-sum term is looked up and added
    without a branch, the term masked by the hit (spf.codegen.passes.masked_lookup): under
    (+, *) only, where a masked term adds +0.0."""
    if not semiring_named(compilation.options.semiring).arithmetic:
        return compilation
    for scanned in _every_scan(compilation):
        mark_masked_lookups(scanned.nodes)
    return compilation


def specialize_extents(compilation: Compilation) -> Compilation:
    """Per variant, the extent of its innermost dense loops it runs a copy of its nests for
    at each common value (spf.codegen.passes.specialize); a lowered schedule tree's one nest
    too (its temporaries are allocated before the nest, which every copy uses alike)."""
    if compilation.assembly is not None or not compilation.options.specialize:
        return compilation
    return dataclasses.replace(compilation, specialized=tuple(
        specialized_extent([scanned.nodes for scanned in group]) for group in compilation.variant_scans))


def stop_terminal_sums(compilation: Compilation) -> Compilation:
    """A register sum under a monoid with a terminal value (any, lor, land) stops its loop once
    it holds it (spf.codegen.passes.terminal_sum)."""
    add = semiring_named(compilation.options.semiring).add
    for scanned in _every_scan(compilation):
        mark_terminal_sums(scanned.nodes, add)
    return compilation


def split_sums(compilation: Compilation) -> Compilation:
    """Register sums over the rows of a top-level loop add, in long rows, into several
    registers, then pairwise (spf.codegen.passes.split_sum): the adder's throughput rather
    than its latency."""
    for scanned in _every_scan(compilation):
        split_register_sums(scanned.nodes)
    return compilation


def mark_independent_iterations(compilation: Compilation) -> Compilation:
    """Innermost loops whose iterations write distinct output entries and read nothing the
    loop writes vectorise without a run-time overlap test (spf.codegen.passes.independent)."""
    for scanned in _every_scan(compilation):
        mark_independent_loops(scanned.nodes)
    return compilation


def cut_parallel_loops(compilation: Compilation) -> Compilation:
    """How each balanced parallel loop is split among the threads (spf.codegen.passes.parallel)."""
    for scanned in _every_scan(compilation):
        balance_parallel_loops(scanned.nodes)
    return compilation


def plan_rows(compilation: Compilation) -> Compilation:
    """Where each row's group opens and how merges step, where an assembled output's
    entries go to rows (spf.codegen.assembly.rows)."""
    workspace = compilation.workspace
    if workspace is None or workspace.direct is None:
        return compilation
    for group in compilation.variant_scans:
        plan_row_appends([scanned.nodes for scanned in group], workspace.outer, workspace.appends)
    return compilation


def plan_zeroing(compilation: Compilation) -> Compilation:
    """How each variant zeroes a dense output that starts from zeros (spf.codegen.passes.zeroing)."""
    output = compilation.space.expression.output.tensor
    if compilation.assembly is not None or compilation.space.expression.accumulate \
            or output not in compilation.tensors:
        return compilation
    return dataclasses.replace(compilation, output_zeroing=tuple(
        plan_output_zeroing(group) for group in compilation.variant_scans))


def emit(compilation: Compilation) -> Compilation:
    """One C function per variant (a lowered schedule tree's one, spf.codegen.c.fused_function),
    in one library source with its header."""
    function = compilation.function_name
    if compilation.lowered is not None:
        kernels, support, prototypes, release_steps = [_fused_kernel_function(compilation, function)], "", (), ()
    else:
        kernels, support, prototypes, release_steps = _variant_functions(compilation, function)
    source, header = library_source(kernels, f"{function.upper()}_H", support, prototypes,
                                    release_function(function), release_steps)
    return dataclasses.replace(compilation, kernels=kernels, source=source, header=header)


def _fused_kernel_function(compilation: Compilation, function: str) -> KernelSource:
    """The C function of a lowered schedule tree's nest."""
    lowered = compilation.lowered
    statements = compilation.statements
    names = kernel_names(statements, lowered.scans, scalar_temporaries(lowered.temporaries))
    zeroing = compilation.output_zeroing[0] if compilation.output_zeroing else OutputZeroing()
    return fused_function(function, compilation.variant_scans[0][0].nodes, lowered, compilation.tensors,
                          compilation.space.expression.output.tensor, names, array_ranges(statements),
                          not compilation.space.expression.accumulate, zeroing,
                          compilation.specialized[0] if compilation.specialized else None)


def _variant_functions(compilation: Compilation, function: str) -> tuple[list, str, tuple, tuple]:
    """Each variant's C function, and the support C, prototypes and release steps an
    assembled output's builder adds to the library."""
    statements = compilation.statements
    names = kernel_names(statements, [s for group in compilation.variant_scans for s in group])
    ranges = array_ranges(statements)
    zero = not compilation.space.expression.accumulate
    digest = compilation.digest
    several = len(compilation.variant_scans) > 1
    ring = semiring_named(compilation.options.semiring)
    assembly, support, prototypes = None, "", ()
    workspace, two_phase = compilation.workspace, compilation.two_phase
    if compilation.assembly is not None:
        plan = compilation.assembly
        prefix = assembly_prefix(digest)
        output = compilation.space.expression.output
        extents = tuple(compilation.statements[0].extents[index] for index in output.indices)
        order = len(plan.coordinates)
        first_bad = len(plan.compressed) + FIRST_BAD
        key_type = pointer_type = "int64_t"
        if two_phase is not None:
            key_type = plan.layout.field(plan.levels[-1].keys[0].array).c_type
            pointer_type = plan.layout.field(two_phase.rows.pointer).c_type
        assembly = AssembledOutput(prefix, first_bad, not compilation.options.keep_zeros,
                                   kernel_report_length(plan, workspace, two_phase),
                                   tuple(shape_scalars(plan.layout, output.tensor, extents)),
                                   workspace, extents[workspace.position] if workspace else None, order,
                                   two_phase, extents[output.indices.index(two_phase.outer)] if two_phase else None,
                                   key_type, pointer_type, report_length(plan), compilation.count_nodes)
        support = (combine_source(ring.add) + stream_source(order)
                   + assembly_source(plan, prefix, standalone=False))
        if workspace is not None:
            support += workspace_source(order, workspace.position, workspace.order)
        if assembly.rows:
            key_type = plan.layout.field(plan.levels[-1].keys[0].array).c_type
            support += rows_source(workspace.position, prefix, f"struct {struct_name(plan.layout)}", key_type,
                                   first_bad, report_length(plan), OUT_OF_MEMORY, UNSTORABLE)
        prototypes = assembly_prototypes(plan, prefix)
    kernels = [kernel_function(function + (f"_v{k}" if several else ""), group,
                               [s.statement for s in statements], compilation.tensors, names, ranges, zero,
                               assembly, compilation.output_zeroing[k] if compilation.output_zeroing else
                               OutputZeroing(), compilation.specialized[k] if compilation.specialized else None,
                               ring)
               for k, group in enumerate(compilation.variant_scans)]
    support = user_operations_source(ring) + support
    # the workspaces (spf.codegen.c.emit_stream) are kept between calls too
    release_steps = ()
    if workspace is not None:
        release_steps = ("spf_scratch_release();" if assembly.rows else "spf_workspaces_release();",)
    return kernels, support, prototypes, release_steps


PASSES = (build_space, plan_output_assembly, check_semiring, check_value_type, synthesize_finds, enumerate_variants,
          parallelize, fuse_nests,
          merge_terms_by_coordinate, guard_tiles, drop_masks, remove_dead_code, fold_zeroing, jam_loops,
          mark_padded_factors, choose_assembly,
          place_find_states, sum_in_registers, mark_independent_iterations, cut_parallel_loops, plan_rows,
          plan_zeroing, mask_lookups, stop_terminal_sums, split_sums, exit_exhausted_finds, specialize_extents, emit)


def run_passes(compilation: Compilation, passes: Sequence) -> Compilation:
    """Each pass in turn, the nests verified after each (codegen.verify, when enabled)."""
    for step in passes:
        compilation = step(compilation)
        _check_nests(compilation, step.__name__)
    return compilation


def _check_nests(compilation: Compilation, after: str) -> None:
    """Verify the nests after the pass ``after``: a lowered schedule tree's one nest binds
    its temporaries itself (codegen.verify.schedule_parameters)."""
    lowered = compilation.lowered
    if lowered is None:
        check_after_pass(compilation, after)
    else:
        check_lowered_schedule(compilation.variant_scans[0][0].nodes, compilation.statements, lowered.scans,
                               lowered.temporaries, after)


def to_kernel(compilation: Compilation, seconds: float) -> CompiledKernel:
    """The description of the kernel a compilation that went through every pass makes (the
    run time's Kernel is built around it: spf.runtime.kernel)."""
    ranges = array_ranges(compilation.statements)
    exiting = set().union(*(exiting_sites(scanned.nodes) for scanned in compilation.variant_scans[0]))
    models = [SiteModel([(f.variable, f.lower, f.upper) for f in site.outer
                         if f.kind in ("loop", "find") and f.variable],
                        site.lower, site.upper, site.call, calls, ranges.get(site.call.function),
                        (site.call.function, site.variable) in exiting)
              for site, calls in compilation.sites]
    statements = compilation.statements
    return CompiledKernel(expression=compilation.expression, spaces=list(statements),
                          scans=compilation.variant_scans[0], reports=compilation.reports,
                          kernels=compilation.kernels, variant_choices=compilation.combinations, site_models=models,
                          c_source=compilation.source, header=compilation.header, tensors=compilation.tensors,
                          output=compilation.space.expression.output.tensor, flags=list(compilation.options.flags),
                          codegen_seconds=seconds,
                          dependences=compilation.dependences, assembly=compilation.assembly,
                          workspace=compilation.workspace, two_phase=compilation.two_phase,
                          output_zeroing=compilation.output_zeroing[0] if compilation.output_zeroing else None,
                          assembly_prefix=assembly_prefix(compilation.digest) if compilation.assembly else None,
                          release_function=release_function(f"spf_kernel_{compilation.digest}"),
                          semiring=compilation.options.semiring)


# ----------------------------------------------------------------------------- the entry point


def compile_kernel(expression: str, layouts: dict, find: str = "auto", share: dict | None = None,
                   parallel: bool = False, schedule: Recipe | Candidate | None = None,
                   order: Sequence[str] | None = None, flags: Sequence[str] | None = None,
                   keep_zeros: bool = False, specialize: bool = True,
                   semiring: str = "plus_times", pattern: Sequence[str] = ()) -> CompiledKernel:
    """Compile ``expression`` for the given layouts (see ``spf.compile``) into the kernel's
    description (the run time calls it through spf.runtime.kernel.Kernel).

    An assembled output stores the result's nonzeros, as scipy.sparse's products and sums
    do; ``keep_zeros`` stores every entry the inputs produce, explicit zeros included
    (what a conversion between layouts must do, and what a semiring other than (+, *) does:
    GraphBLAS's entries are where the products are, whatever their values; so such a
    kernel assembles its output rather than infer that it has an input's pattern, which
    holds positions no product may reach).  ``specialize=False`` leaves out the copies
    of the nests for common dense extents (benchmarks time the general copy against them).
    ``semiring``: what + and * mean (spf.notation.semirings; checked by check_semiring).
    ``pattern``: tensors read only for where their entries are (a mask: spf.notation.masks)."""
    if find not in FIND_POLICIES:
        raise SpfError(f"unknown find {find!r}; choose one of {', '.join(FIND_POLICIES)}")
    ring = semiring_named(semiring)
    if schedule is not None and not isinstance(schedule, Recipe):
        if not ring.arithmetic:
            raise SpfError(f"semiring={semiring!r} with a fused schedule is not supported yet: its temporaries "
                           "assume (+, *); compile the expression without schedule=")
        return _compile_candidate(expression, layouts, find, share, parallel, schedule, order, flags)
    recipe = None
    if schedule is not None:
        recipe = schedule
        if recipe.expression != expression or recipe.layout_map != dict(layouts) \
                or recipe.share_map != dict(share or {}):
            raise RecipeError("the recipe was made for another expression, layouts or share: "
                              f"{recipe.expression!r} with {recipe.layout_map}")
        if order is not None and recipe.order is not None:
            raise RecipeError("give the loop order either as order= or in the recipe, not both")
        order = order or recipe.order
    options = Options(find, dict(share or {}), parallel, tuple(order) if order else None, recipe,
                      tuple(flags or CFLAGS), keep_zeros or not ring.arithmetic,
                      infer_pattern=share is None and not keep_zeros and ring.arithmetic,
                      specialize=specialize, semiring=ring.name, pattern=tuple(sorted(pattern)))
    try:
        key = kernel_key(expression, layouts, options)
    except SpfError:  # a layout that does not load: the passes say what is wrong with it
        key = None
    cached = lookup(key) if key else None
    if cached is not None:
        return cached
    started = time.perf_counter()
    compilation = run_passes(Compilation(expression, layouts, options), PASSES)
    kernel = to_kernel(compilation, time.perf_counter() - started)
    if key:
        store(key, kernel)
    return kernel


def _compile_candidate(expression: str, layouts: dict, find: str, share, parallel: bool, schedule, order, flags):
    """An autoscheduled candidate's kernel (codegen.fused), or the reason ``schedule`` is
    neither a candidate nor a recipe.  (Imported here: the autoscheduler loads sympy,
    which a compile from the kernel cache does not need.)"""
    from spf.scheduling.autoscheduler.candidate import Candidate
    if not isinstance(schedule, Candidate):
        raise SpfError(f"schedule must be a recipe (spf.recipe(...)) or one autoscheduled candidate "
                       f"(autoschedule(...).select(**tensors), or .default() when the sizes are unknown), "
                       f"got {type(schedule).__name__}")
    from spf.scheduling.autoscheduler.problem import make_problem
    if make_problem(expression, layouts, share) != schedule.user_problem:
        raise SpfError("the autoscheduled candidate was made for another expression, layouts or share: "
                       f"{schedule.user_problem.expression!r}")
    if order is not None:
        raise SpfError("order= does not apply to an autoscheduled candidate (its tree fixes the loops)")
    return compile_schedule(schedule, find=find, parallel=parallel, flags=flags)


def compile_schedule(candidate: Candidate, find: str = "auto", parallel: bool = False,
                     flags: Sequence[str] | None = None) -> CompiledKernel:
    """An autoscheduled candidate's kernel: its tree lowered into one nest
    (codegen.fused.lower_schedule), then the same passes as any kernel.  (Imported here:
    the autoscheduler loads sympy, which a compile from the kernel cache does not need.)"""
    from spf.codegen.fused import fused_kernel, lower_schedule
    started = time.perf_counter()
    problem = candidate.problem
    options = Options(find, dict(problem.share), parallel, flags=tuple(flags or CFLAGS), candidate=candidate)
    compilation = run_passes(Compilation(problem.expression, dict(problem.layouts), options),
                             (lower_schedule, *PASSES))
    kernel = fused_kernel(compilation, time.perf_counter() - started)
    return dataclasses.replace(kernel, mode_orders=candidate.mode_orders) if candidate.mode_orders else kernel
