"""``spf.compile``: from an expression and layouts to a callable C kernel.

expression + layouts -> iteration spaces (one per term) -> scan with find synthesis
-> C (one function) -> shared library (cached) -> :class:`Kernel`, which packs its
inputs when needed, allocates the output, calls the C function and returns numpy for
dense outputs, an :class:`spf.Tensor` for outputs that share an input's sparsity, and
a float for scalar outputs.
"""

from __future__ import annotations

import ctypes
import hashlib
import time
from dataclasses import dataclass, field

import numpy as np

from spf.errors import ArgumentError, OutOfMemoryError, SpfError
from spf.expressions import Affine
from spf.iteration_space import iteration_space
from spf.memory import allocate, require
from spf.packing import Tensor, _validate, pack
from spf.properties import Range

from .build import CFLAGS, build_shared_library, load_function
from .auto import SiteModel, site_cost, variants
from .emit_c import OUT_OF_MEMORY, SHAPE_MISMATCH, KernelSource, Names, kernel_function, library_source
from .find import TEMPLATES, FindReport, synthesize
from .loops import remove_dead_assignments, render
from .scan import ScanError, readable_names, scan
from .structs import ctypes_struct, marshal, output_struct, parameter_order

FIND_POLICIES = ("auto", *TEMPLATES)  # auto: every proven template; else one, refused if not proven


class FindRefused(SpfError):
    """A requested find template that is not proven valid."""


@dataclass
class Kernel:
    """A compiled kernel: ``kernel(A=..., x=...)`` runs it; ``c_source`` is its C."""

    expression: str
    spaces: list
    scans: list  # of the first variant
    reports: list[FindReport]
    kernels: list[KernelSource]  # one C function per variant of the finds
    variant_choices: list[tuple]  # the find choices of each variant, by site
    site_models: list[SiteModel]
    c_source: str
    header: str
    tensors: dict  # name -> (layout, placement names, is_output)
    output: str
    flags: list[str]
    ranges: dict
    codegen_seconds: float = 0.0
    dependences: list = field(default_factory=list)
    _functions: list = field(default_factory=list, repr=False)

    @property
    def function_name(self) -> str:
        """The C function of the first (statically preferred) variant."""
        return self.kernels[0].function

    def build(self) -> "Kernel":
        """Compile the C (cached by a hash of source and flags) and load every variant."""
        if not self._functions:
            path = build_shared_library(self.c_source, self.flags, name=self.function_name)
            argument_types = [ctypes.POINTER(ctypes_struct(layout)) for layout, _, _ in self.tensors.values()]
            if self.output not in self.tensors:
                argument_types.append(ctypes.POINTER(ctypes.c_double))
            self._functions = [load_function(path, k.function, argument_types) for k in self.kernels]
        return self

    def _statistics(self, fields: dict[str, dict]) -> tuple[dict[str, float], dict[str, int]]:
        """The operands' scalar fields and array lengths, by their names in the space."""
        stats: dict[str, float] = {}
        lengths: dict[str, int] = {}
        for name, (layout, mapping, _) in self.tensors.items():
            for field_name, value in fields[name].items():
                local = mapping.get(field_name, f"{name}_{field_name}")
                if isinstance(value, np.ndarray):
                    lengths.setdefault(local, value.shape[0] if value.ndim else 1)
                else:
                    stats.setdefault(local, float(value))
        return stats, lengths

    def _table_size(self, model, choice, stats: dict[str, float]) -> float:
        """Entries of a hash-map find's table (its array's value range), 0 for other templates."""
        if choice.kind == "hashmap" and model.call.function in self.ranges:
            low, high = self.ranges[model.call.function]
            from .auto import _evaluate
            size = _evaluate(high - low, stats)
            return size if size is not None else 0.0
        return 0.0

    def choose_variant(self, fields: dict[str, dict]) -> int:
        """The variant with the lowest estimated cost for these operands (see codegen.auto)."""
        if len(self.kernels) == 1:
            return 0
        stats, lengths = self._statistics(fields)
        costs = []
        for choices in self.variant_choices:
            total = 0.0
            for model, choice in zip(self.site_models, choices):
                total += site_cost(model, choice, stats, lengths, self._table_size(model, choice, stats))
            costs.append(total)
        return int(np.argmin(costs))

    def _require_find_state(self, variant: int, fields: dict[str, dict], extents: dict[str, int]) -> None:
        """Refuse find state the C kernel would allocate beyond this machine's memory: a hash
        map's table spans its array's value range, kept positions span an index's extent."""
        stats, _ = self._statistics(fields)
        for model, choice in zip(self.site_models, self.variant_choices[variant]):
            entries = self._table_size(model, choice, stats)
            if entries:
                require((int(entries) + 1,), np.int64, f"the hash-map table of the find over {model.call.function}")
            for index in getattr(choice, "keyed", ()):
                if index in extents:
                    require((extents[index] + 1,), np.int64, f"the positions the find over {model.call.function} "
                            f"keeps per {index}")

    def explain(self) -> str:
        """The iteration space, the loop order, and each find with its chosen and rejected templates."""
        parts = []
        for space, scanned in zip(self.spaces, self.scans):
            parts.append(str(space))
            parts.append(f"  order: {', '.join(scanned.order)}")
            parts.append("loop nest:")
            parts.append("  " + render(scanned.nodes, "  ").lstrip())
        if self.dependences:
            parts.append("parallel:")
            parts.extend("  " + d for d in self.dependences)
        if self.reports:
            parts.append("finds:")
            parts.extend("  " + str(r).replace("\n", "\n  ") for r in self.reports)
        else:
            parts.append("finds: none (every index is a loop or an assignment)")
        return "\n".join(parts)

    # -- running
    def __call__(self, *positional, **arguments):
        return self.bind(*positional, **arguments)()

    def bind(self, *positional, **arguments) -> "BoundKernel":
        """Pack and marshal the inputs and allocate the output once; calling the result
        runs only the C function (what an application linking the library pays).

        A Tensor in the kernel's layout is used as it is (a Tensor is valid by construction
        and read-only); anything else is packed, which checks it."""
        expected = [name for name, (_, _, is_output) in self.tensors.items() if not is_output]
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
        self.build()
        inputs = {}
        for name, (layout, _, is_output) in self.tensors.items():
            if is_output:
                continue
            value = arguments[name]
            if isinstance(value, Tensor) and (value.layout is layout or value.layout == layout):
                inputs[name] = value
            else:
                inputs[name] = pack(layout, value, name=name)
        extents = self._extents(inputs)
        structs, keep_alive = [], []
        result = None
        outputs = {}
        for name, (layout, mapping, is_output) in self.tensors.items():
            if is_output:
                fields, result = self._allocate_output(name, layout, mapping, inputs, extents)
                outputs[name] = fields
                struct, alive = output_struct(layout, fields, name)
            else:
                struct, alive = marshal(inputs[name], layout)
            structs.append(ctypes.byref(struct))
            keep_alive.extend(alive)
            keep_alive.append(struct)
        scalar = None
        if self.output not in self.tensors:
            scalar = ctypes.c_double(0.0)
            structs.append(ctypes.byref(scalar))
        fields = {name: inputs[name].fields for name in inputs}
        fields.update(outputs)
        variant = self.choose_variant(fields)
        self._require_find_state(variant, fields, extents)
        return BoundKernel(self._functions[variant], structs, keep_alive, result, scalar,
                           self.variant_choices[variant])

    def _extents(self, inputs: dict) -> dict[str, int]:
        extents: dict[str, tuple[int, str]] = {}
        statement = self.spaces[0].statement
        accesses = [a for space in self.spaces for a in space.statement.terms[0].factors]
        for access in accesses:
            tensor = inputs.get(access.tensor)
            if tensor is None:
                continue
            if len(tensor.shape) != len(access.indices):
                raise SpfError(f"{access.tensor} has order {len(tensor.shape)}, the expression uses "
                               f"{len(access.indices)} indices")
            for index, extent in zip(access.indices, tensor.shape):
                if index in extents and extents[index][0] != extent:
                    other_extent, other = extents[index]
                    raise SpfError(f"index {index} has extent {extent} in {access.tensor} but "
                                   f"{other_extent} in {other}")
                extents.setdefault(index, (extent, access.tensor))
        missing = [i for i in statement.output.indices if i not in extents]
        if missing:
            raise SpfError(f"no input gives the extent of output index {missing}")
        return {index: value for index, (value, _) in extents.items()}

    def _allocate_output(self, name, layout, mapping, inputs, extents):
        statement = self.spaces[0].statement
        shape = tuple(extents[i] for i in statement.output.indices)
        fields: dict[str, object] = dict(layout.compute_scalars(shape))
        shared_source = None
        for field_ in layout.fields:
            local = mapping.get(field_.name, "")
            if not local.startswith(f"{name}_"):
                source = local.split("_", 1)[0]
                shared_source = source
                fields[field_.name] = inputs[source].fields[field_.name]
        for field_ in layout.fields:
            if field_.name in fields:
                continue
            if field_.name == layout.values_field:
                dimensions = tuple(int(d.evaluate(fields)) for d in field_.dimensions)
                fields[field_.name] = allocate(dimensions, field_.numpy_dtype,
                                               f"output {name}: array {field_.name} of {layout.spec} ({field_})")
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
        if source_layout is layout or source_layout == layout:
            # the shared arrays were validated for this very layout
            return fields, Tensor._from_checked(layout, shape, fields, name, written=layout.values_field)
        checked, _ = _validate(layout, fields, name, shape, owned=True)
        return fields, Tensor._from_checked(layout, shape, checked, name, written=layout.values_field)


@dataclass
class BoundKernel:
    """A kernel with its arguments in place: each call runs the C function once and
    returns the (reused) output."""

    function: object
    structs: list
    keep_alive: list
    result: object
    scalar: ctypes.c_double | None
    choices: tuple = ()  # the find templates of the chosen variant

    def __call__(self):
        status = self.function(*self.structs)
        if status == SHAPE_MISMATCH:
            raise SpfError("the kernel found that the tensors' shapes disagree")
        if status == OUT_OF_MEMORY:
            raise OutOfMemoryError("the kernel could not allocate a temporary (a find's table or positions, "
                                   "a per-thread copy of the output, a fused kernel's temporary)")
        if status != 0:
            raise SpfError(f"the kernel returned error code {status}")
        return self.scalar.value if self.scalar is not None else self.result


# ----------------------------------------------------------------------------- compile


def _allowed(policy: str) -> tuple[str, ...]:
    """The templates a policy may use: a known position (direct) always beats the one asked for."""
    if policy == "auto":
        return TEMPLATES
    return tuple(dict.fromkeys(("direct", policy)))


def refuse_unproven(report: FindReport, policy: str) -> None:
    """FindRefused, with the failed assumptions, when the template ``policy`` asks for is not proven."""
    if report.chosen.kind == "linear" and policy not in ("auto", "linear"):
        reasons = "; ".join(f"{kind}: {reason}" for kind, reason in report.rejected)
        raise FindRefused(f"find={policy!r} is not valid for {report.condition} "
                          f"(find over {report.variable}): {reasons}")


def compile_kernel(expression: str, layouts: dict, find: str = "auto", share: dict | None = None,
                   parallel: bool = False, schedule=None, order=None, flags=None) -> Kernel:
    """Compile ``expression`` for the given layouts (see ``spf.compile``)."""
    if find not in FIND_POLICIES:
        raise SpfError(f"unknown find {find!r}; choose one of {', '.join(FIND_POLICIES)}")
    from spf.recipe import Recipe, RecipeError
    recipe = None
    from spf.autoscheduler.api import AutoSchedule, Candidate
    if isinstance(schedule, AutoSchedule):
        raise SpfError("schedule= takes one candidate: pass autoschedule(...).select(**tensors) "
                       "(or .default() when the sizes are unknown)")
    if isinstance(schedule, Candidate):
        from spf.autoscheduler.problem import make_problem
        if make_problem(expression, layouts, share) != schedule.problem:
            raise SpfError("the autoscheduled candidate was made for another expression, layouts or share: "
                           f"{schedule.problem.expression!r}")
        if order is not None:
            raise SpfError("order= does not apply to an autoscheduled candidate (its tree fixes the loops)")
        from .fused import compile_schedule
        return compile_schedule(schedule, find=find, parallel=parallel, flags=flags)
    if schedule is not None:
        if not isinstance(schedule, Recipe):
            raise SpfError(f"schedule must be a recipe (spf.recipe(...)), got {type(schedule).__name__}")
        recipe = schedule
        if recipe.expression != expression or recipe.layout_map != dict(layouts) \
                or recipe.share_map != dict(share or {}):
            raise RecipeError("the recipe was made for another expression, layouts or share: "
                              f"{recipe.expression!r} with {recipe.layout_map}")
        if order is not None and recipe.order is not None:
            raise RecipeError("give the loop order either as order= or in the recipe, not both")
        order = order or recipe.order
    started = time.perf_counter()
    space = iteration_space(expression, layouts, share=share)
    if recipe is not None and recipe.tiles:
        space.statements[0] = _tiled(space.statements[0], recipe.tiles)
        order = order or recipe.variables
    reports: list[FindReport] = []
    sites: list = []
    scans = []
    used_targets: set[str] = set()
    for statement_space in space.statements:
        calls = statement_space.set.call_table
        tensor_of = {p: name for name, placement in statement_space.placements.items() for p in placement.physical}

        def choose(site, calls=calls, statement_space=statement_space, tensor_of=tensor_of):
            if recipe:
                used_targets.update(t for t, _ in recipe.finds
                                    if t == site.variable or t == tensor_of.get(site.variable))
            policy = (recipe.find_policy(site.variable, tensor_of) if recipe else None) or find
            report = synthesize(site, calls, statement_space.properties, _allowed(policy),
                                every_variant=policy == "auto", keyable=set(statement_space.indices))
            reports.append(report)
            sites.append((site, calls))
            refuse_unproven(report, policy)
            return report.chosen

        try:
            scans.append(scan(statement_space, order, choose))
        except ScanError as error:
            if recipe is not None and recipe.order is not None:
                raise RecipeError(f"permute({', '.join(recipe.order)}) cannot be scanned: {error}") from None
            raise
    if recipe is not None:
        unused = [f"find({t!r}, {template!r})" for t, template in recipe.finds if t not in used_targets]
        if unused:
            raise RecipeError(f"{', '.join(unused)}: no find searches that tensor's positions in this "
                              "loop order (its positions are looped over or assigned)")
    every = any(len(r.valid) > 1 for r in reports)
    tensors: dict = {}
    for statement_space in space.statements:
        for name, placement in statement_space.placements.items():
            is_output = name == space.expression.output.tensor
            tensors.setdefault(name, (placement.layout, dict(placement.names), is_output))
    output = space.expression.output.tensor
    tensors = parameter_order(space.expression, tensors)
    ranges = array_ranges(space.statements)
    digest = hashlib.sha256(f"{expression}|{sorted((k, v[0].spec) for k, v in tensors.items())}|"
                            f"{share}|{find}|{order}".encode()).hexdigest()[:10]
    zero = not space.expression.accumulate
    statements = [s.statement for s in space.statements]

    # one variant per combination of proven templates (auto), else the chosen one
    valid = [_auto_candidates(r) if len(r.valid) > 1 else [r.chosen] for r in reports]
    combinations = variants(valid)
    variant_scans = [scans]
    for choices in combinations[1:]:
        queue = list(choices)
        variant_scans.append([scan(s, order, lambda site: queue.pop(0)) for s in space.statements])
    if every and combinations[0] != tuple(r.chosen for r in reports):
        queue = list(combinations[0])
        variant_scans[0] = [scan(s, order, lambda site: queue.pop(0)) for s in space.statements]
    dependences = _parallelize(space.statements, variant_scans, tensors, recipe, parallel)
    if recipe is not None:
        for variable, _ in recipe.tiles:
            for group in variant_scans:
                _add_tile_guard(group[0].nodes, variable, sites, space.statements[0].properties)
    for group in variant_scans:
        for scanned in group:
            scanned.nodes = remove_dead_assignments(scanned.nodes)
    names = kernel_names(space.statements, [s for group in variant_scans for s in group])
    kernels = [kernel_function(f"spf_kernel_{digest}" + (f"_v{k}" if len(combinations) > 1 else ""),
                               group, statements, tensors, names, ranges, zero)
               for k, group in enumerate(variant_scans)]
    source, header = library_source(kernels, f"SPF_KERNEL_{digest.upper()}_H")
    models = [SiteModel([(f.variable, f.lower, f.upper) for f in site.outer
                         if f.kind in ("loop", "find") and f.variable],
                        site.lower, site.upper, site.call, calls) for site, calls in sites]
    seconds = time.perf_counter() - started
    return Kernel(expression, list(space.statements), variant_scans[0], reports, kernels, combinations,
                  models, source, header, tensors, output, list(flags or CFLAGS), ranges, seconds,
                  dependences)



def _parallelize(statements, variant_scans, tensors, recipe, parallel: bool) -> list[str]:
    """Mark the parallel loop of every variant (the recipe's, or with ``parallel`` the
    outermost one that shares nothing unsafely); the lines of the tests made."""
    from spf.recipe import RecipeError
    from .parallel import find_loop, mark_parallel, parallel_loop, shared_writes
    output = statements[0].statement.output.tensor
    output_array = None
    if output in tensors:
        layout, mapping, _ = tensors[output]
        output_array = mapping[layout.values_field]
    tested: list[str] = []
    if recipe is not None and recipe.parallel:
        (variable, reduction), = recipe.parallel
        loop_node, outer = find_loop(variant_scans[0][0].nodes, variable)
        if loop_node is None:
            raise RecipeError(f"parallelize({variable!r}): {variable} is not a loop in this order "
                              "(it is assigned or found)")
        from spf.dependences import carried_dependence
        dependence = carried_dependence(statements[0], variable, outer)
        tested.append(str(dependence))
        if dependence.carried and reduction is None:
            raise RecipeError(f"parallelize({variable!r}) is forbidden by the dependence: {dependence}; "
                              "give reduction='privatize' or 'atomic' to combine the updates")
        shared = shared_writes(loop_node, output_array)
        if shared:
            raise RecipeError(f"parallelize({variable!r}): its iterations write {', '.join(shared)}, "
                              "declared outside it")
        for group in variant_scans:
            mark_parallel(group[0].nodes, variable, reduction if dependence.carried else None, recipe.schedule)
    elif parallel:
        for k, statement_space in enumerate(statements):
            loop, lines = parallel_loop(statement_space, variant_scans[0][k].nodes, output_array)
            tested += lines
            if loop is not None:
                for group in variant_scans:
                    mark_parallel(group[k].nodes, loop)
    return tested


def _tiled(statement_space, tiles):
    """The statement's space with a tile variable ``v_tile`` per tiled variable v."""
    import dataclasses
    from spf.expressions import And, Constraint
    from spf.sets import UFSet
    tiled = statement_space.set
    for variable, size in tiles:
        tile = f"{variable}_tile"
        block = Affine.of(tile).scale(size)
        formula = And((Constraint(block, "<=", Affine.of(variable)),
                       Constraint(Affine.of(variable), "<=", block + (size - 1))))
        tiled = tiled.product(UFSet.from_formula((tile, variable), formula))
    return dataclasses.replace(statement_space, set=tiled)


def _add_tile_guard(nodes, variable, sites, properties) -> None:
    """Fig. 8: wrap the loop over a tiled, linearly searched, monotone array in a tile guard."""
    from .find import Encoding, _monotone
    from .loops import Find, Guard, Loop, TileGuard
    site = next((s for s, _ in sites if s.variable == variable), None)
    if site is None:
        return
    calls = dict(sites[[s for s, _ in sites].index(site)][1])
    encoding = Encoding(site, calls, properties)
    increasing = _monotone(encoding, True, False)
    if not increasing and not _monotone(encoding, False, False):
        return

    def wrap(items):
        for index, node in enumerate(items):
            if isinstance(node, Loop) and node.variable == variable:
                items[index] = TileGuard(variable, site.call, site.key, node.lower, node.upper,
                                         increasing, [node])
                return True
            if isinstance(node, (Loop, Guard, Find, TileGuard)) and wrap(node.body):
                return True
        return False

    wrap(nodes)


def _auto_candidates(report: FindReport) -> list:
    """Proven templates worth a variant: direct alone when valid; linear only as a last resort."""
    kinds = [c.kind for c in report.valid]
    if "direct" in kinds:
        return [report.valid[kinds.index("direct")]]
    searching = [c for c in report.valid if c.kind != "linear"]
    return searching or [report.chosen]


def kernel_names(statements, scans, extra_arrays: dict | None = None) -> Names:
    """C names for a kernel over these statement spaces: array dimensions (plus
    ``extra_arrays``, such as a fused kernel's scalar temporaries), readable names for
    the UF dimensions of ``scans`` and the extents."""
    arrays: dict[str, tuple] = {}
    from spf.layout_library.model import Name
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


def array_ranges(statements) -> dict[str, tuple[Affine, Affine]]:
    """``array -> (low, high)`` of every range property of these statement spaces."""
    ranges = {}
    for statement_space in statements:
        for prop in statement_space.properties:
            if isinstance(prop, Range):
                ranges.setdefault(prop.arrays[0], (prop.low, prop.high))
    return ranges
