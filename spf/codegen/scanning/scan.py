"""Polyhedral scanning of an iteration space with UF dimensions (the paper's Algorithm 1).

The variables are visited outer to inner.  At each level isl projects the inner
variables out and gists against the outer levels, leaving the constraints new at
this level, which are classified:

* an equality that gives the variable from outer values is an assignment;
* inequalities on the variable are loop bounds;
* the UF dimensions whose arguments are now bound become array reads;
* an equality ``U(x) = KEY`` between such a read and outer values is a *find
  condition*: which positions x have ``U(x) == KEY``; :mod:`spf.codegen.finds.find` chooses how
  to find them (a proven template or the plain loop with a guard);
* everything else is a guard.

Constraints on the constants alone define the index extents (``N_i = A_numRows``),
check that the tensors' shapes agree, or say when the space is empty.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

import islpy as isl

from spf.errors import ScanError, SpfInternalError
from spf.layout_library.model import Name
from spf.space.enumeration import scan_order
from spf.space.expressions import Affine, Constraint, UFCall
from spf.space.isl_basic import constraints, parameter_list, project as _project
from spf.space.properties import Range

from spf.codegen.finds.find import LINEAR
from spf.codegen.loops import Assign, Block, Bound, Compute, Find, Guard, KeyPart, Loop, Node

if TYPE_CHECKING:
    from spf.codegen.finds.find import FindChoice
    from spf.space.iteration_space import StatementSpace

PARAM = isl.dim_type.param


@dataclass
class LevelFacts:
    """What scanning established at one level, for the find synthesis (Z3 context)."""

    variable: str | None
    kind: str  # "loop", "assign", "find"
    lower: list[Bound] = field(default_factory=list)
    upper: list[Bound] = field(default_factory=list)
    value: Affine | None = None
    divisor: int = 1
    calls: dict[str, UFCall] = field(default_factory=dict)
    guards: list[Constraint] = field(default_factory=list)
    bound: bool = False  # set by the fused loops around this nest, not by a loop of its own


@dataclass
class FindSite:
    """A find condition: positions ``variable`` in the bounds with ``call == key`` (and,
    for a composite key, each ``minor`` part's call equal to its key, lexicographically after)."""

    variable: str
    dimension: str
    call: UFCall
    key: Affine
    lower: list[Bound]
    upper: list[Bound]
    outer: list[LevelFacts]
    other_guards: list[Constraint]
    minor: tuple[KeyPart, ...] = ()
    # every equality U(variable) = KEY at the level, with its index among the level's UF
    # constraints (``conditions``): the parts a key may be made of (the first is the default)
    candidates: tuple[tuple[int, KeyPart], ...] = ()
    conditions: tuple[Constraint, ...] = ()

    @property
    def parts(self) -> tuple[KeyPart, ...]:
        """The key's parts, major first."""
        return (KeyPart(self.dimension, self.call, self.key), *self.minor)

    def keyed_by(self, dimensions: Sequence[str]) -> FindSite:
        """The site whose key is the candidate parts of these dimensions, in this order
        (major first); the level's other conditions stay guards of the positions found."""
        by_dimension = {part.dimension: (index, part) for index, part in self.candidates}
        chosen = [by_dimension[d] for d in dimensions]
        used = {index for index, _ in chosen}
        guards = [c for index, c in enumerate(self.conditions) if index not in used]
        major = chosen[0][1]
        return dataclasses.replace(self, dimension=major.dimension, call=major.call, key=major.key,
                                   other_guards=guards, minor=tuple(part for _, part in chosen[1:]))


@dataclass
class Scan:
    """The scanned loop nest of one statement and what the kernel needs around it."""

    nodes: list[Node]
    extents: dict[str, Affine]  # extent constant -> expression in tensor scalars
    shape_checks: list[Constraint]
    entry_guards: list[Constraint]
    calls: dict[str, UFCall]  # UF dimension -> call (arguments over variables and dimensions)
    order: list[str]
    finds: list[tuple[FindSite, FindChoice]] = field(default_factory=list)
    hole: Block | None = None  # with ``until``: the empty scope where the nest goes on


# ----------------------------------------------------------------------------- isl helpers


def _gist(level_set: isl.BasicSet, outer_set: isl.BasicSet) -> isl.BasicSet:
    """The constraints of level_set that outer_set does not imply (as one basic set)."""
    # Set.gist aligns the parameters of its operands; BasicSet.gist does not.
    gisted = isl.Set.from_basic_set(level_set).gist(isl.Set.from_basic_set(outer_set))
    basics = gisted.get_basic_sets()
    if len(basics) != 1:
        raise ScanError(f"a level of the loop nest splits into {len(basics)} cases")
    basic = basics[0]
    return basic.remove_divs() if basic.dim(isl.dim_type.div) else basic


def _intersect_basic(first: isl.BasicSet, second: isl.BasicSet) -> isl.BasicSet:
    """Conjunction of two basic sets whose parameters may differ."""
    joined = isl.Set.from_basic_set(first).intersect(isl.Set.from_basic_set(second))
    basics = joined.get_basic_sets()
    return basics[0] if len(basics) == 1 else first


def _equality(first: str, second: str) -> isl.BasicSet:
    return isl.BasicSet(f"[{first}, {second}] -> {{ : {first} = {second} }}")


def _range_facts(space, calls: dict[str, UFCall]) -> isl.BasicSet | None:
    """``low <= d < high`` for every UF dimension whose array has a range property."""
    parts, names = [], set()
    for prop in space.properties:
        if not isinstance(prop, Range):
            continue
        for dimension, call in calls.items():
            if call.function == prop.arrays[0]:
                parts.append(f"{prop.low} <= {dimension} < {prop.high}")
                names |= {dimension} | prop.low.names() | prop.high.names()
    if not parts:
        return None
    return isl.BasicSet(f"{parameter_list(names)} -> {{ : {' and '.join(parts)} }}")


def _aliases(level_set: isl.BasicSet, dims, calls, outer_names) -> dict[str, str]:
    """Level dimensions equal to an outer dimension by functional consistency."""
    aliases = {}
    outer_dimensions = [n for n in outer_names if n in calls]
    whole = isl.Set.from_basic_set(level_set)
    for dimension in dims:
        call = calls[dimension]
        for other in outer_dimensions:
            candidate = calls[other]
            if candidate.function != call.function or len(candidate.arguments) != len(call.arguments):
                continue
            equal = " and ".join(f"{a} = {b}" for a, b in zip(call.arguments, candidate.arguments))
            names = set(whole.get_var_names(PARAM)) | call.names() | candidate.names()
            condition = isl.Set(f"{parameter_list(names)} -> {{ : {equal} }}")
            if whole.is_subset(condition):
                aliases[dimension] = other
                break
    return aliases


def _constraints(basic: isl.BasicSet) -> list[tuple[dict[str, int], int, bool]]:
    """The constraints that involve some name (constant-only ones say nothing new)."""
    return constraints(basic, keep_constant_only=False)


def _affine(coefficients: dict[str, int], constant: int) -> Affine:
    return Affine.build(coefficients, constant)


def _as_constraint(coefficients: dict[str, int], constant: int, equality: bool) -> Constraint:
    """Readable form: negative terms on the left, positive on the right."""
    positive = {k: v for k, v in coefficients.items() if v > 0}
    negative = {k: -v for k, v in coefficients.items() if v < 0}
    left = Affine.build(negative, -constant if constant < 0 else 0)
    right = Affine.build(positive, constant if constant > 0 else 0)
    return Constraint(left, "=" if equality else "<=", right)


# ----------------------------------------------------------------------------- the scanner


def scan(space: StatementSpace, order: Sequence[str] | None = None,
         choose_find: Callable[[FindSite], FindChoice] | None = None, bound: Sequence[str] = (),
         until: str | None = None) -> Scan:
    """Scan one statement's iteration space into a loop nest.

    ``choose_find(site)`` returns a template for a find condition (default: the plain
    loop with a guard).  ``bound`` variables (first in the order) are set by code
    around this nest, the fused loops of a schedule tree: their levels emit neither
    loops nor guards, only the array reads that inner levels need.  With ``until`` the
    nest stops once that variable is bound (the fused loops themselves): in its place
    is an empty :attr:`Scan.hole`.
    """
    uf_set = space.set
    order = list(order) if order else list(uf_set.variables)
    bound_variables = set(bound)
    if bound_variables and set(order[:len(bound_variables)]) != bound_variables:
        raise SpfInternalError("scan: the bound variables (of the fused loops) must come first in the order")
    if sorted(order) != sorted(uf_set.variables):
        raise ScanError(f"a loop order must list each of {', '.join(uf_set.variables)} once")
    basics = uf_set.isl_set.get_basic_sets()
    if len(basics) != 1:
        raise ScanError("the scanner handles iteration spaces that are one conjunction; this one "
                        f"has {len(basics)} disjuncts")
    if basics[0].dim(isl.dim_type.div):
        raise ScanError("iteration space with existentially quantified divisions")
    scanner = _Scanner(space, basics[0], scan_order(uf_set, order), choose_find or (lambda site: LINEAR),
                       bound_variables, until)
    nodes = scanner.build(0, scanner.parameter_set)
    return Scan(nodes, scanner.extents, scanner.shape_checks, scanner.entry_guards, uf_set.call_table, order,
                scanner.finds, scanner.hole)


@dataclass
class _LevelConstraints:
    """The constraints new at one level (the level's set gisted against the outer ones),
    classified as Algorithm 1 does."""

    lower: list[Bound] = field(default_factory=list)  # on the level's variable
    upper: list[Bound] = field(default_factory=list)
    equalities: list[tuple[Affine, int]] = field(default_factory=list)  # divisor * variable = value
    uf_constraints: list[tuple[dict[str, int], int, bool]] = field(default_factory=list)  # on its UF dimensions
    outer_guards: list[Constraint] = field(default_factory=list)  # on outer values only

    @property
    def uf_guards(self) -> list[Constraint]:
        return [_as_constraint(*c) for c in self.uf_constraints]


def _classify(new: isl.BasicSet, variable: str | None, own: set[str]) -> _LevelConstraints:
    """Sort the level's new constraints: those on its UF dimensions, the variable's
    equalities and bounds, and guards on outer values."""
    found = _LevelConstraints()
    for coefficients, constant, equality in _constraints(new):
        if set(coefficients) & own:
            found.uf_constraints.append((coefficients, constant, equality))
            continue
        if variable and variable in coefficients:
            a = coefficients.pop(variable)
            rest = _affine(coefficients, constant)  # a*x + rest (>= | =) 0
            if equality:
                found.equalities.append((rest.scale(-1) if a > 0 else rest, abs(a)))
            elif a > 0:
                found.lower.append(Bound(rest.scale(-1), a))
            else:
                found.upper.append(Bound(rest, -a))
            continue
        found.outer_guards.append(_as_constraint(coefficients, constant, equality))
    return found


class _Scanner:
    """One scan (Algorithm 1): the levels outer to inner, each level's projection (the
    inner names projected out), the facts established at the levels around the one being
    built (for find synthesis), and the finds chosen."""

    def __init__(self, space: StatementSpace, basic: isl.BasicSet, levels: list,
                 choose: Callable[[FindSite], FindChoice], bound_variables: set[str], until: str | None):
        self.space, self.basic, self.levels, self.choose = space, basic, levels, choose
        self.bound_variables = bound_variables
        self.stop = len(levels) if until is None else 1 + next(d for d, (v, _) in enumerate(levels) if v == until)
        self.hole = Block([]) if until is not None else None
        self.calls = space.set.call_table
        self.names_by_level = [([v] if v else []) + dims for v, dims in levels]
        self.projections = [_project(basic, self._inner_names(depth)) for depth in range(len(levels))]
        self.parameter_set = _project(basic, [n for names in self.names_by_level for n in names])
        self.extents, self.shape_checks, self.entry_guards = _parameter_facts(self.parameter_set, space)
        self.known_ranges = _range_facts(space, self.calls)
        self.finds: list[tuple[FindSite, FindChoice]] = []
        self.facts: list[LevelFacts] = []

    def _inner_names(self, depth: int) -> list[str]:
        return [n for later in self.names_by_level[depth + 1:] for n in later]

    def refine(self, depth: int, fact: Constraint) -> None:
        """Add a proven fact to the levels from ``depth`` in."""
        text = f"{fact.left} {fact.op} {fact.right}"
        names = set(self.basic.get_var_names(PARAM)) | fact.left.names() | fact.right.names()
        self.basic = _intersect_basic(self.basic, isl.BasicSet(f"{parameter_list(names)} -> {{ : {text} }}"))
        for inner_depth in range(depth, len(self.levels)):
            self.projections[inner_depth] = _project(self.basic, self._inner_names(inner_depth))

    def build(self, depth: int, outer_set: isl.BasicSet) -> list[Node]:
        """The nodes of level ``depth`` and those inside it, within ``outer_set``."""
        if depth == self.stop and self.hole is not None:
            return [self.hole]
        if depth == len(self.levels):
            return [compute_node(self.space)]
        variable, dims = self.levels[depth]
        level_set = self.projections[depth]
        aliases = _aliases(level_set, dims, self.calls, [n for names in self.names_by_level[:depth] for n in names])
        context = outer_set
        if self.known_ranges is not None:
            context = _intersect_basic(context, self.known_ranges)
        for dimension, alias in aliases.items():
            context = _intersect_basic(context, _equality(dimension, alias))
        found = _classify(_gist(level_set, context), variable, set(dims))
        level_facts = LevelFacts(variable, "loop", calls={d: self.calls[d] for d in dims})
        reads = [Assign(d, Affine.of(aliases[d]) if d in aliases else self.calls[d]) for d in dims]
        inner_set = level_set
        for dimension, alias in aliases.items():
            inner_set = _intersect_basic(inner_set, _equality(dimension, alias))
        if variable in self.bound_variables:
            return reads + self._bound_level(depth, found, level_facts, inner_set)
        if not variable:
            level_facts.kind = "assign"
            level_facts.guards = found.outer_guards
            inner = self._inside(depth, level_facts, inner_set)
            return reads + _guarded(found.outer_guards + found.uf_guards, inner)
        if found.equalities:
            return self._assignment_level(depth, variable, found, level_facts, reads, inner_set)
        if not found.lower or not found.upper:
            raise ScanError(f"variable {variable} has no {'lower' if not found.lower else 'upper'} "
                            "bound at its level of the loop order; choose another order")
        site = _find_site(variable, dims, self.calls, found.uf_constraints, found.lower, found.upper, self.facts)
        if site is not None:
            template = self.choose(site)
            if template.keys:
                site = site.keyed_by(template.keys)
            self.finds.append((site, template))
            if template is not LINEAR and template.kind == "direct":
                # Proven: a match can only be at the position.  With that fact the
                # level scans as an assignment (and its guards).
                self.refine(depth, Constraint(Affine.of(variable), "=", template.position))
                return self.build(depth, outer_set)
            if template is not LINEAR:
                return self._find_level(depth, site, template, found, level_facts, reads, inner_set)
        level_facts.lower, level_facts.upper = found.lower, found.upper
        level_facts.guards = found.uf_guards
        inner = self._inside(depth, level_facts, inner_set)
        loop = Loop(variable, found.lower, found.upper, reads + _guarded(found.uf_guards, inner))
        return _guarded(found.outer_guards, [loop])

    def _inside(self, depth: int, level_facts: LevelFacts, inner_set: isl.BasicSet) -> list[Node]:
        """The levels inside ``depth``, with its facts known to them."""
        self.facts.append(level_facts)
        inner = self.build(depth + 1, inner_set)
        self.facts.pop()
        return inner

    def _bound_level(self, depth: int, found: _LevelConstraints, level_facts: LevelFacts,
                     inner_set: isl.BasicSet) -> list[Node]:
        """A level the fused loops around the nest bind: no loop and no guard of its own."""
        level_facts.kind = "loop" if not found.equalities else "assign"
        level_facts.bound = True
        level_facts.lower, level_facts.upper = found.lower, found.upper
        if found.equalities:
            level_facts.value, level_facts.divisor = min(found.equalities, key=lambda e: e[1])
        return self._inside(depth, level_facts, inner_set)

    def _assignment_level(self, depth: int, variable: str, found: _LevelConstraints, level_facts: LevelFacts,
                          reads: list[Node], inner_set: isl.BasicSet) -> list[Node]:
        """A variable an equality gives: its assignment (divisible where it has a divisor),
        the other equalities and its bounds as guards."""
        value, divisor = min(found.equalities, key=lambda e: e[1])
        guards = list(found.outer_guards)
        for other, other_divisor in found.equalities:
            if (other, other_divisor) != (value, divisor):
                guards.append(Constraint(Affine.of(variable).scale(other_divisor), "=", other))
        if divisor != 1:
            guards.insert(0, Constraint(value, "%", Affine.of(divisor)))
        for bound in found.lower:
            guards.append(Constraint(bound.expression, "<=", Affine.of(variable).scale(bound.divisor)))
        for bound in found.upper:
            guards.append(Constraint(Affine.of(variable).scale(bound.divisor), "<=", bound.expression))
        level_facts.kind = "assign"
        level_facts.value, level_facts.divisor = value, divisor
        level_facts.guards = guards + found.uf_guards
        inner = self._inside(depth, level_facts, inner_set)
        after = reads + _guarded(found.uf_guards, inner)
        return _guarded(guards[:1] if divisor != 1 else [], [Assign(variable, value, divisor)]
                        + _guarded(guards[1:] if divisor != 1 else guards, after))

    def _find_level(self, depth: int, site: FindSite, template: FindChoice, found: _LevelConstraints,
                    level_facts: LevelFacts, reads: list[Assign], inner_set: isl.BasicSet) -> list[Node]:
        """A find condition with a proven template: the Find node in place of the loop."""
        level_facts.kind = "find"
        level_facts.lower, level_facts.upper = found.lower, found.upper
        # inner levels run only at matches (C4 of this find, for the finds inside)
        level_facts.guards = site.other_guards + [Constraint(Affine.of(part.dimension), "=", part.key)
                                                  for part in site.parts]
        inner = self._inside(depth, level_facts, inner_set)
        matched = {part.dimension for part in site.parts}
        other_reads = [r for r in reads if r.variable not in matched]
        node = Find(site.variable, site.dimension, site.call, site.key, found.lower, found.upper,
                    template, other_reads + _guarded(site.other_guards, inner), minor=site.minor)
        return _guarded(found.outer_guards, [node])


def _guarded(conditions: list[Constraint], body: list[Node]) -> list[Node]:
    return [Guard(conditions, body)] if conditions else body


def _find_site(variable, dims, calls, uf_constraints, lower, upper, facts) -> FindSite | None:
    """The find condition at this level, if a constraint is ``U(variable) = KEY``: keyed by
    the first such, the others kept as the parts a composite key may use."""
    candidates: list[tuple[int, KeyPart]] = []
    for index, (coefficients, constant, equality) in enumerate(uf_constraints):
        if not equality:
            continue
        own = [d for d in dims if d in coefficients]
        if len(own) != 1 or abs(coefficients[own[0]]) != 1 or variable in coefficients:
            continue
        dimension = own[0]
        call = calls[dimension]
        if variable not in call.names() or any(part.dimension == dimension for _, part in candidates):
            continue
        sign = coefficients[dimension]
        rest = {k: v for k, v in coefficients.items() if k != dimension}
        candidates.append((index, KeyPart(dimension, call, _affine(rest, constant).scale(-sign))))  # dimension = key
    if not candidates:
        return None
    conditions = tuple(_as_constraint(*c) for c in uf_constraints)
    first = candidates[0][1]
    site = FindSite(variable, first.dimension, first.call, first.key, lower, upper, list(facts), [],
                    candidates=tuple(candidates), conditions=conditions)
    return site.keyed_by([first.dimension])


def _parameter_facts(parameter_set: isl.BasicSet, space):
    """Extents defined from tensor scalars, equalities to check, and emptiness guards."""
    extents: dict[str, Affine] = {}
    extent_names = set(space.extents.values())
    checks: list[Constraint] = []
    guards: list[Constraint] = []
    pending = _constraints(parameter_set)
    progress = True
    while progress:
        progress = False
        for item in list(pending):
            coefficients, constant, equality = item
            if not equality:
                continue
            unknown = [n for n in coefficients if n in extent_names and n not in extents]
            if len(unknown) == 1 and abs(coefficients[unknown[0]]) == 1:
                name = unknown[0]
                sign = coefficients[name]
                rest = {k: v for k, v in coefficients.items() if k != name}
                extents[name] = _affine(rest, constant).scale(-sign).substitute(
                    {k: v for k, v in extents.items()})
                pending.remove(item)
                progress = True
    for coefficients, constant, equality in pending:
        constraint = _as_constraint(coefficients, constant, equality)
        substitution = {k: v for k, v in extents.items()}
        constraint = Constraint(constraint.left.substitute(substitution), constraint.op,
                                constraint.right.substitute(substitution))
        if equality:
            checks.append(constraint)
        else:
            guards.append(constraint)
    missing = extent_names - set(extents)
    if missing:
        raise ScanError(f"no tensor gives the extent of {sorted(missing)}")
    return extents, checks, guards


# ----------------------------------------------------------------------------- the statement


def compute_node(space: StatementSpace) -> Compute:
    """``output[...] += coefficient * inputs[...]`` from the layouts' value positions."""
    statement = space.statement
    term = statement.terms[0]

    def access(tensor: str) -> tuple[str, tuple, tuple]:
        placement = space.placements[tensor]
        layout = placement.layout
        mapping = {name: Name(new) for name, new in placement.names.items()}
        value_field = layout.field(layout.values_field)
        index = tuple(i.substitute(mapping) for i in layout.values_index)
        dims = tuple(d.substitute(mapping) for d in value_field.dimensions)
        return placement.names[layout.values_field], index, dims

    factors = [access(a.tensor) for a in term.factors if a.tensor in space.placements]
    output = statement.output
    if output.tensor in space.placements:
        return Compute(access(output.tensor), factors, float(term.coefficient))
    if space.assembled is not None:
        return Compute(None, factors, float(term.coefficient), stream=space.output_coordinates)
    return Compute(None, factors, float(term.coefficient), scalar_output=output.tensor)


def readable_names(calls: dict[str, UFCall], taken: set[str]) -> dict[str, str]:
    """C-friendly names for UF dimensions: ``A_rowPtr(pAi + 1)`` -> ``A_rowPtr_pAi_1``."""
    names: dict[str, str] = {}
    used = set(taken)
    for dimension, call in calls.items():
        text = str(call)
        for inner, shown in names.items():
            text = text.replace(inner, shown)
        base = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")
        candidate = base
        count = 1
        while candidate in used:
            count += 1
            candidate = f"{base}_{count}"
        used.add(candidate)
        names[dimension] = candidate
    return names
