"""Transformation recipes: a chainable, immutable description of how to schedule a kernel.

    r = (spf.recipe("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"})
         .permute("pAi", "i", "py0", "pAj", "j", "px")
         .find("x", "hashmap")
         .tile("pAi", 64)
         .parallelize("pAi_tile"))
    kernel = spf.compile(r.expression, r.layouts, schedule=r)

Each step returns a new recipe and checks what it can at once (names, templates, a find
over a tensor that has index arrays to search);
legality is checked when the kernel is compiled: the loop order must scan, a requested
find template must be proven, and a parallel loop must carry no dependence unless a
reduction strategy is given (``"privatize"``: per-thread copies of the output merged
at the end; ``"atomic"``: atomic updates).  A refusal names the step and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Mapping

from spf.errors import RecipeError

if TYPE_CHECKING:
    from spf.arguments import LayoutLike

REDUCTIONS = (None, "privatize", "atomic")


@dataclass(frozen=True)
class Recipe:
    expression: str
    layouts: tuple[tuple[str, LayoutLike], ...]  # as spf.compile takes them
    share: tuple[tuple[str, str], ...] = ()
    order: tuple[str, ...] | None = None
    finds: tuple[tuple[str, str], ...] = ()  # (tensor or find variable, template)
    parallel: tuple[tuple[str, str | None], ...] = ()  # (loop variable, reduction strategy)
    tiles: tuple[tuple[str, int], ...] = ()  # (variable, tile size): strip-mining
    schedule: str = "dynamic,32"  # OpenMP schedule of the parallel loop
    _variables: tuple[str, ...] = field(default=(), compare=False, repr=False)
    _plain: tuple[tuple[str, str], ...] | None = field(default=None, compare=False, repr=False)
    """(tensor, layout) of the tensors stored without index arrays (dense): no find is over them."""

    # -- construction
    @property
    def layout_map(self) -> dict:
        return dict(self.layouts)

    @property
    def share_map(self) -> dict:
        return dict(self.share)

    @property
    def variables(self) -> tuple[str, ...]:
        """The iteration space's variables (what permute and parallelize name)."""
        return self._variables

    def permute(self, *order: str) -> "Recipe":
        """Scan the variables in this order (all of them, each once)."""
        if len(order) == 1 and isinstance(order[0], (list, tuple)):
            order = tuple(order[0])
        for variable in order:
            _name(variable, "permute", "each variable")
        unknown = [v for v in order if v not in self.variables]
        missing = [v for v in self.variables if v not in order]
        repeated = sorted({v for v in order if order.count(v) > 1})
        if unknown or missing or repeated:
            raise RecipeError(f"permute: the order must list each of {', '.join(self.variables)} once"
                              + (f"; unknown {unknown}" if unknown else "")
                              + (f"; missing {missing}" if missing else "")
                              + (f"; repeated {repeated}" if repeated else ""))
        return replace(self, order=tuple(order))

    def find(self, target: str, template: str) -> "Recipe":
        """Use ``template`` for the finds over ``target`` (a tensor, or a find's variable)."""
        _name(template, "find", "the template")
        from spf.codegen.finds.find import TEMPLATES
        if template not in TEMPLATES:
            raise RecipeError(f"find: unknown template {template!r}; choose one of {', '.join(TEMPLATES)}")
        if not isinstance(target, str):
            raise RecipeError(f"find: the target must be a tensor or variable name (a str), got {target!r}")
        if target not in self.layout_map and target not in self.variables:
            raise RecipeError(f"find: {target!r} is neither a tensor of the statement nor a variable "
                              f"of its iteration space")
        plain = dict(self._plain or ())
        if target in plain:
            searchable = [name for name in self.layout_map if name not in plain]
            raise RecipeError(f"find: tensor {target} is stored in {plain[target]}, which has no index arrays: "
                              f"no find searches it (a find matches coordinates against a sparse tensor's "
                              f"index arrays; here {', '.join(searchable) or 'none'})")
        return replace(self, finds=self.finds + ((target, template),))

    def parallelize(self, variable: str, reduction: str | None = None, schedule: str = "dynamic,32") -> "Recipe":
        """Run loop ``variable`` in parallel (OpenMP); ``reduction`` allows updates to shared
        output entries: "privatize" (per-thread copies, merged) or "atomic".  ``schedule`` is
        OpenMP's (``"static"`` suits a loop over nonzeros, where chunks of 32 cost too much)."""
        import re
        _name(variable, "parallelize", "the loop variable")
        if reduction is not None:
            _name(reduction, "parallelize", "the reduction")
        if not isinstance(schedule, str) or not re.fullmatch(r"(static|dynamic|guided)(,\s*[1-9][0-9]*)?", schedule):
            raise RecipeError(f"parallelize: schedule {schedule!r} is not 'static', 'dynamic' or 'guided', "
                              "optionally with ',CHUNK'")
        if variable not in self.variables:
            raise RecipeError(f"parallelize: {variable!r} is not a variable of the iteration space "
                              f"({', '.join(self.variables)})")
        if reduction not in REDUCTIONS:
            raise RecipeError(f"parallelize: unknown reduction {reduction!r}; choose 'privatize' or 'atomic'")
        if self.parallel:
            raise RecipeError(f"parallelize: loop {self.parallel[0][0]} is already parallel; "
                              "nested parallel loops are not supported")
        return replace(self, parallel=self.parallel + ((variable, reduction),), schedule=schedule)

    def tile(self, variable: str, size: int) -> "Recipe":
        """Strip-mine ``variable`` into tiles of ``size``: a new loop ``<variable>_tile`` right
        outside it (``size*t <= variable < size*t + size``).  A find over a tiled monotone
        array gets the paper's tile guard (Fig. 8): a tile whose first and last values cannot
        bracket the key is skipped whole."""
        _name(variable, "tile", "the loop variable")
        if variable not in self.variables:
            raise RecipeError(f"tile: {variable!r} is not a variable of the iteration space "
                              f"({', '.join(self.variables)})")
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise RecipeError(f"tile: the tile size must be a positive integer, got {size!r}")
        tile = f"{variable}_tile"
        if tile in self.variables:
            raise RecipeError(f"tile: {variable} is already tiled")
        position = self.variables.index(variable)
        variables = self.variables[:position] + (tile,) + self.variables[position:]
        order = self.order
        if order is not None:
            position = order.index(variable)
            order = order[:position] + (tile,) + order[position:]
        return replace(self, tiles=self.tiles + ((variable, size),), order=order, _variables=variables)

    def find_policy(self, site_variable: str, tensor_of: Mapping[str, str]) -> str | None:
        """The template asked for a find over ``site_variable`` (latest step wins)."""
        chosen = None
        for target, template in self.finds:
            if target == site_variable or tensor_of.get(site_variable) == target:
                chosen = template
        return chosen

    def __str__(self) -> str:
        steps = [f"recipe({self.expression!r})"]
        if self.order:
            steps.append(f"permute({', '.join(self.order)})")
        steps += [f"tile({v!r}, {size})" for v, size in self.tiles]
        steps += [f"find({t!r}, {template!r})" for t, template in self.finds]
        steps += [f"parallelize({v!r}" + (f", reduction={r!r}" if r else "")
                  + (f", schedule={self.schedule!r})" if self.schedule != "dynamic,32" else ")")
                  for v, r in self.parallel]
        return ".".join(steps)


def _name(value: object, step: str, what: str) -> None:
    """Refuse a step's argument that is not a str (a name or a keyword)."""
    if not isinstance(value, str):
        raise RecipeError(f"{step}: {what} must be a str, got {value!r}")


def recipe(expression: str, layouts: Mapping[str, object], share: Mapping[str, str] | None = None) -> Recipe:
    """A recipe for ``expression`` with these layouts (one statement: sums are not supported)."""
    from spf.space.iteration_space import iteration_space
    from spf import arguments
    space = iteration_space(expression, layouts, share=share, infer_pattern=True)
    layouts, share = arguments.layout_mapping(layouts), arguments.share_mapping(share)
    if len(space) != 1:
        raise RecipeError("recipes schedule one product term; this expression has "
                          f"{len(space)} terms")
    plain = tuple((tensor, placement.layout.spec) for tensor, placement in space[0].placements.items()
                  if all(f.name == placement.layout.values_field for f in placement.layout.arrays))
    return Recipe(expression, tuple(layouts.items()), tuple((share or {}).items()),
                  _variables=space[0].variables, _plain=plain)
