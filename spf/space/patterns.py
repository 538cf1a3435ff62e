"""Output patterns inferred by proof: an output stored in a prefix of an input's levels.

TTV ``A(i,j) = B(i,j,k) * c(k)`` with B in CSF3 and A in DCSR writes exactly B's
(i, j) fibres: A's relation is, up to renaming its index arrays and counts, the
first two levels of B's (``idx0, ptr0, idx1`` for ``rowIdx, rowPtr, colIdx``).  When
that holds, A uses those arrays (as ``share=`` does) and each entry of B writes A's
value at B's own position of that level, with no workspace, stream or builder.

A match is a renaming of the output layout's names into the source layout's under
which every conjunct of the output's relation *is* a conjunct of the source's, so the
source's relation implies the output's: each stored entry of the source at positions
``(p0, ..., pn)`` has its output coordinates stored in the output at ``(p0, ..., pk)``.
The output's remaining levels, if any, must be dense (no index array): TTM's
CSF3_DENSE_LAST output over B's first two levels.  The output's assumptions,
array sizes and properties must follow from the source's, so the arrays the output
takes are valid for its own layout without a check at run time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Mapping

from spf.layout_library.model import Name, ShapeRef
from spf.notation.statements import Access, Statement
from spf.space.expressions import Affine, Constraint, Formula, UFCall, conjuncts
from spf.space.properties import from_spec

if TYPE_CHECKING:
    from spf.layout_library.model import Layout

Renaming = dict  # output layout's name -> source layout's name


@dataclass(frozen=True)
class PrefixMatch:
    """The output's layout as the first ``levels`` levels of the source's."""

    source: str
    fields: Mapping[str, str]  # output field (index array or count) -> source field
    positions: tuple[tuple[str, str], ...]  # output physical index -> source physical index
    dense_levels: int = 0  # the output's levels after the prefix, all dense

    @property
    def levels(self) -> int:
        return len(self.positions)

    def describe(self, output: str, output_layout: Layout, source_layout: Layout) -> str:
        arrays = ", ".join(f"{name} = {self.source}.{self.fields[name]}"
                           for name in (f.name for f in output_layout.index_arrays))
        dense = f", then {self.dense_levels} dense level(s) of its own" if self.dense_levels else ""
        return (f"{output}'s {output_layout.spec} is the first {self.levels} level(s) of {self.source}'s "
                f"{source_layout.spec} ({arrays}){dense}")


@dataclass(frozen=True)
class Inference:
    """``share={target: source}`` found by proof, and why."""

    target: str
    source: str
    reason: str


# ----------------------------------------------------------------------------- canonical facts


def _canonical(constraint: Constraint) -> tuple[str, Affine] | None:
    """``expression >= 0``, ``= 0`` or ``!= 0`` (integers: ``a < b`` is ``b - a - 1 >= 0``)."""
    difference = constraint.left - constraint.right
    op = constraint.op
    if op == ">=":
        return "ge", difference
    if op == ">":
        return "ge", difference - 1
    if op == "<=":
        return "ge", -difference
    if op == "<":
        return "ge", -difference - 1
    if op == "=":
        return "eq", difference
    if op == "!=":
        return "ne", difference
    return None


def _facts(formula: Formula) -> list[tuple[str, Affine]] | None:
    """The conjuncts of a formula as canonical facts, or None when one is not a constraint."""
    facts = []
    for part in conjuncts(formula):
        if not isinstance(part, Constraint):
            return None
        fact = _canonical(part)
        if fact is None:
            return None
        facts.append(fact)
    return facts


# ----------------------------------------------------------------------------- unification


@dataclass(frozen=True)
class _Roles:
    """Which names of the output's layout the unifier may rename, and to what."""

    arrays: Mapping[str, str]  # output index array -> its element type
    counts: frozenset  # output scalars set by packing
    source_arrays: Mapping[str, str]
    source_counts: frozenset


def _unify_atom(left, right, renaming: Renaming, roles: _Roles) -> Iterator[Renaming]:
    if isinstance(left, str) and isinstance(right, str):
        if left in renaming:
            if renaming[left] == right:
                yield renaming
        elif left in roles.counts and right in roles.source_counts and right not in renaming.values():
            yield {**renaming, left: right}
        return
    if isinstance(left, UFCall) and isinstance(right, UFCall) and len(left.arguments) == len(right.arguments):
        function = left.function
        if function in renaming:
            if renaming[function] != right.function:
                return
            extended = renaming
        elif roles.arrays.get(function) is not None \
                and roles.arrays[function] == roles.source_arrays.get(right.function) \
                and right.function not in renaming.values():
            extended = {**renaming, function: right.function}
        else:
            return
        yield from _unify_sequence(left.arguments, right.arguments, extended, roles)


def _unify_sequence(lefts, rights, renaming: Renaming, roles: _Roles) -> Iterator[Renaming]:
    if not lefts:
        yield renaming
        return
    for extended in _unify_affine(lefts[0], rights[0], renaming, roles):
        yield from _unify_sequence(lefts[1:], rights[1:], extended, roles)


def _unify_affine(left: Affine, right: Affine, renaming: Renaming, roles: _Roles) -> Iterator[Renaming]:
    """Every extension of ``renaming`` under which ``left`` is ``right`` (terms in any order)."""
    if left.constant != right.constant or len(left.terms) != len(right.terms):
        return
    yield from _unify_terms(list(left.terms), list(right.terms), renaming, roles)


def _unify_terms(lefts: list, rights: list, renaming: Renaming, roles: _Roles) -> Iterator[Renaming]:
    if not lefts:
        yield renaming
        return
    (atom, coefficient), rest = lefts[0], lefts[1:]
    for index, (other, other_coefficient) in enumerate(rights):
        if other_coefficient != coefficient:
            continue
        for extended in _unify_atom(atom, other, renaming, roles):
            yield from _unify_terms(rest, rights[:index] + rights[index + 1:], extended, roles)


def _unify_fact(fact, other, renaming: Renaming, roles: _Roles) -> Iterator[Renaming]:
    kind, expression = fact
    other_kind, other_expression = other
    if kind != other_kind:
        return
    yield from _unify_affine(expression, other_expression, renaming, roles)
    if kind != "ge":  # e = 0 is -e = 0
        yield from _unify_affine(-expression, other_expression, renaming, roles)


def _unify_all(facts: list, others: list, renaming: Renaming, roles: _Roles) -> Iterator[Renaming]:
    """Extensions under which every fact is one of ``others``."""
    if not facts:
        yield renaming
        return
    for other in others:
        for extended in _unify_fact(facts[0], other, renaming, roles):
            yield from _unify_all(facts[1:], others, extended, roles)


# ----------------------------------------------------------------------------- layouts


def _shape_scalars(layout: Layout) -> dict[str, int]:
    """Scalars defined as one extent of the shape: name -> axis."""
    found = {}
    for field_ in layout.scalars:
        definition = field_.definition
        if isinstance(definition, ShapeRef):
            found[field_.name] = definition.index
    return found


def _defined_scalars(output_layout: Layout, source_layout: Layout, axes: Mapping[int, int]) -> Renaming:
    """The output's scalars computed from the shape named as the source's that are the
    same function of the same extents (``numBlockRows = (numRows + R - 1) / R``)."""
    renaming: Renaming = {}
    source_shape = {axis: name for name, axis in _shape_scalars(source_layout).items()}
    for name, axis in _shape_scalars(output_layout).items():
        if axis in axes and axes[axis] in source_shape:
            renaming[name] = source_shape[axes[axis]]
    source_defined = {str(f.definition.substitute(dict(source_layout.parameters))): f.name
                      for f in source_layout.scalars if f.definition is not None}
    changed = True
    while changed:
        changed = False
        for field_ in output_layout.scalars:
            if field_.definition is None or field_.name in renaming:
                continue
            definition = field_.definition.substitute(dict(output_layout.parameters))
            if not definition.names() <= set(renaming):
                continue
            renamed = str(definition.substitute({n: Name(renaming[n]) for n in definition.names()}))
            if renamed in source_defined and source_defined[renamed] not in renaming.values():
                renaming[field_.name] = source_defined[renamed]
                changed = True
    return renaming


def _dimension_facts(layout: Layout, names) -> list[tuple[str, Affine]] | None:
    facts = []
    for name in names:
        for dimension in layout.field(name).dimensions:
            affine = dimension.to_affine()
            if affine is None:
                return None
            facts.append(("eq", affine))
    return facts


def match_prefix(output_layout: Layout, output_access: Access, source: str, source_layout: Layout,
                 source_access: Access) -> PrefixMatch | None:
    """The renaming that makes ``output_layout`` a prefix of ``source_layout``'s levels for
    these accesses (the output's logical coordinates are the source's for the same
    indices), or None when there is none."""
    output_indices, source_indices = output_access.indices, source_access.indices
    if len(set(output_indices)) != len(output_indices) or not output_layout.index_arrays:
        return None
    axes = {}  # output axis -> source axis
    for axis, index in enumerate(output_indices):
        if source_indices.count(index) == 1:
            axes[axis] = source_indices.index(index)
        elif index in source_indices:
            return None
    if not axes:
        return None
    renaming: Renaming = {}
    for axis, target in axes.items():
        renaming[output_layout.logical[axis]] = source_layout.logical[target]
    renaming.update(_defined_scalars(output_layout, source_layout, axes))
    output_facts, source_facts = _facts(output_layout.relation), _facts(source_layout.relation)
    if output_facts is None or source_facts is None:
        return None
    # the prefix: the output's levels whose facts mention only mapped coordinates
    unmapped = {output_layout.logical[axis] for axis in range(len(output_indices)) if axis not in axes}
    physical = output_layout.physical
    levels = len(physical)
    for position, name in enumerate(physical):
        touching = [expression for _, expression in output_facts if name in expression.names()]
        if any(unmapped & expression.names() for expression in touching):
            levels = position
            break
    if levels == 0 or levels > len(source_layout.physical):
        return None
    suffix = set(physical[levels:])
    prefix_facts, suffix_facts = [], []
    for fact in output_facts:
        names = fact[1].names()
        (suffix_facts if names & (suffix | unmapped) else prefix_facts).append(fact)
    own_scalars = {f.name for f in output_layout.scalars if f.definition is not None}
    for _, expression in suffix_facts:  # a dense level: its own position, coordinate and extent only
        if any(True for _ in expression.calls()) or not expression.names() <= suffix | unmapped | own_scalars:
            return None
    for position in range(levels):
        renaming[physical[position]] = source_layout.physical[position]
    roles = _Roles(
        arrays={f.name: f.type for f in output_layout.index_arrays},
        counts=frozenset(f.name for f in output_layout.scalars if f.definition is None),
        source_arrays={f.name: f.type for f in source_layout.index_arrays},
        source_counts=frozenset(f.name for f in source_layout.scalars if f.definition is None))
    for found in _unify_all(prefix_facts, source_facts, renaming, roles):
        complete = _complete(found, output_layout, source_layout, roles)
        if complete is not None:
            fields = {name: complete[name] for name in (*roles.arrays, *roles.counts)}
            positions = tuple((physical[p], source_layout.physical[p]) for p in range(levels))
            return PrefixMatch(source, fields, positions, len(suffix))
    return None


def _complete(renaming: Renaming, output_layout: Layout, source_layout: Layout, roles: _Roles) -> Renaming | None:
    """The renaming extended by the arrays' sizes and the assumptions (every array and
    count of the output renamed), when the properties follow too; else None."""
    arrays = [name for name in roles.arrays if name in renaming]
    if len(arrays) != len(roles.arrays):
        return None
    sizes = _dimension_facts(output_layout, arrays)
    source_sizes = _dimension_facts(source_layout, [renaming[name] for name in arrays])
    if sizes is None or source_sizes is None or len(sizes) != len(source_sizes):
        return None
    assumptions = _facts(output_layout.assumptions)
    source_assumptions = _facts(source_layout.assumptions)
    if assumptions is None or source_assumptions is None:
        return None
    for extended in _unify_sequence([e for _, e in sizes], [e for _, e in source_sizes], renaming, roles):
        for complete in _unify_all(assumptions, source_assumptions, extended, roles):
            if all(name in complete for name in roles.counts) and _properties_follow(
                    output_layout, source_layout, complete):
                values = output_layout.field(output_layout.values_field)
                own = {f.name for f in output_layout.scalars if f.definition is not None}
                if all(d.names() <= set(complete) | own for d in values.dimensions):
                    return complete
    return None


def _properties_follow(output_layout: Layout, source_layout: Layout, renaming: Renaming) -> bool:
    """Every property of the output, renamed, is one of the source's (or a weaker form)."""
    source_properties = [from_spec(spec) for spec in source_layout.properties]
    for spec in output_layout.properties:
        wanted = from_spec(spec).renamed(renaming)
        if not any(_implies(given, wanted) for given in source_properties):
            return False
    return True


def _implies(given, wanted) -> bool:
    if given == wanted:
        return True
    strict = getattr(wanted, "strict", None)
    if strict is None or type(given) is not type(wanted):
        return False
    return given.strict and dataclasses.replace(given, strict=strict) == wanted


# ----------------------------------------------------------------------------- statements


def _dense(layout: Layout | None) -> bool:
    return layout is None or not layout.index_arrays


def infer_share(statement: Statement, layouts: Mapping[str, Layout]) -> Inference | None:
    """The input whose leading levels hold the output's pattern, when one provably does.

    The output must be sparse and each term of the statement must read the same
    input with the same access, every other factor dense: then the output's
    coordinates are that input's (a term's instances are the input's stored
    entries times dense ranges), and the match makes them a prefix of its levels."""
    output = statement.output
    output_layout = layouts.get(output.tensor)
    if _dense(output_layout) or statement.accumulate:
        return None
    candidates: dict[str, Access] | None = None
    for term in statement.terms:
        sparse = [access for access in term.factors
                  if access.tensor != output.tensor and access.indices and not _dense(layouts.get(access.tensor))]
        if len(sparse) != 1:
            return None
        access = sparse[0]
        if candidates is None:
            candidates = {access.tensor: access}
        elif candidates.get(access.tensor) != access:
            return None
    if not candidates:
        return None
    (source, access), = candidates.items()
    match = match_prefix(output_layout, output, source, layouts[source], access)
    if match is None:
        return None
    return Inference(output.tensor, source, match.describe(output.tensor, output_layout, layouts[source]))
