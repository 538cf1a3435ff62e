"""Iteration spaces of tensor index notation statements (Section 4 of the core paper).

For one product term, each tensor T contributes ``I_T = Range(A_T^-1 o R_T)`` with its
layout indices kept as set variables: ``R_T`` is T's layout relation (physical
positions -> logical coordinates) and ``A_T`` its access (iteration -> coordinates).
The factors of a product intersect; an output whose sparsity is known (``share``)
adds its own layout; every index gets dense bounds.  A sum is split into one
statement per term.

Naming inside a space: tensor T's physical index ``pi`` becomes ``pTi`` (``p`` then
the tensor then the rest), its fields become ``T_field`` (``A_rowPtr``), and the
extent of index ``i`` is the constant ``N_i``.  An output that shares a tensor's
sparsity uses that tensor's names for its index arrays and their sizes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

from spf.errors import IterationSpaceError, SpfError
from spf.notation.statements import Access, Statement, parse_statement
from spf.space.expressions import Affine, Constraint, Formula, conjuncts
from spf.space.patterns import PrefixMatch, infer_share, match_prefix
from spf.space.properties import Property, from_spec
from spf.space.sets import UFSet

if TYPE_CHECKING:
    from spf.layout_library.model import Layout


@dataclass(frozen=True)
class TensorPlacement:
    """How one tensor of a statement enters the space: its layout and its names there."""

    tensor: str
    layout: Layout
    access: Access
    physical: tuple[str, ...]  # renamed physical indices, in layout order
    names: Mapping[str, str]  # layout name (fields, physical indices) -> name in the space
    shared_with: str | None = None
    shared_levels: PrefixMatch | None = None  # when the shared arrays are a prefix of the source's levels
    inferred: str = ""  # why the output shares them without share= (spf.space.patterns)

    @property
    def values(self) -> str:
        return self.names[self.layout.values_field]


@dataclass
class StatementSpace:
    """The iteration space of one statement (one product term)."""

    statement: Statement
    set: UFSet
    placements: dict[str, TensorPlacement]
    extents: dict[str, str]  # index -> constant bounding it
    properties: list[Property] = field(default_factory=list)
    assumptions: UFSet | None = None
    assembled: Layout | None = None  # the output's layout when assembly builds its pattern

    @property
    def output_coordinates(self) -> tuple[str, ...]:
        """The indices of the output's access: the coordinates of the entries it produces."""
        return tuple(self.statement.output.indices)

    @property
    def variables(self) -> tuple[str, ...]:
        return self.set.variables

    @property
    def indices(self) -> tuple[str, ...]:
        return self.statement.indices

    def context(self) -> UFSet:
        """Facts that hold for every valid input: assumptions and property instances."""
        facts = UFSet.universe(self.set.variables).intersect(self.set)
        if self.assumptions is not None:
            facts = facts.intersect(self.assumptions)
        return facts.with_properties(self.properties)

    def uf_tables(self, tensors: Mapping[str, object]) -> tuple[dict[str, int], dict[str, object]]:
        """Constants and UF tables of concrete packed tensors, named as in this space."""
        constants: dict[str, int] = {}
        functions: dict[str, object] = {}
        for name, placement in self.placements.items():
            tensor = tensors[name]
            for field_ in placement.layout.fields:
                renamed = placement.names.get(field_.name, field_.name)
                value = tensor.fields[field_.name]
                if field_.is_scalar:
                    constants[renamed] = int(value)
                else:
                    functions[renamed] = value
            for index, extent in zip(placement.access.indices, tensor.shape):
                constants[self.extents[index]] = int(extent)
        return constants, functions

    def __str__(self) -> str:
        lines = [f"statement {self.statement}"]
        for name, placement in self.placements.items():
            shared = f" (shares {placement.shared_with}'s index arrays)" if placement.shared_with else ""
            if placement.shared_levels is not None:
                shared = (f" (shares the index arrays of {placement.shared_with}'s first "
                          f"{placement.shared_levels.levels} level(s), written at its positions)")
            lines.append(f"  {name}: {placement.layout.spec}{shared}, "
                         f"physical indices {', '.join(placement.physical)}")
            if placement.inferred:
                lines.append(f"    pattern inferred (no share= given): {placement.inferred}")
        if self.assembled is not None:
            lines.append(f"  {self.statement.output.tensor}: {self.assembled.spec}, assembled from the "
                         f"entries ({', '.join(self.output_coordinates)}) the space produces")
        lines.append(f"  variables: {', '.join(self.variables)} (the default loop order)")
        lines.append("  space: " + _wrap_text(str(self.set), "         "))
        if self.properties:
            lines.append("  properties: " + "; ".join(str(p) for p in self.properties))
        return "\n".join(lines)


@dataclass
class IterationSpace:
    """All statements of a computation (one per term of a sum)."""

    expression: Statement
    statements: list[StatementSpace]

    def __str__(self) -> str:
        return "\n".join(str(s) for s in self.statements)

    def __iter__(self):
        return iter(self.statements)

    def __len__(self) -> int:
        return len(self.statements)

    def __getitem__(self, index: int) -> StatementSpace:
        return self.statements[index]


def _wrap_text(text: str, indent: str, width: int = 100) -> str:
    words = text.split(" ")
    lines, current = [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return ("\n" + indent).join(lines)


# ----------------------------------------------------------------------------- naming


def physical_name(tensor: str, index: str) -> str:
    """``pi`` of tensor A is ``pAi``; a name not starting with p gets ``A_`` in front."""
    return f"p{tensor}{index[1:]}" if index.startswith("p") else f"{tensor}_{index}"


def _placement(tensor: str, layout, access: Access, shared_with=None, shared_layout=None,
               prefix: PrefixMatch | None = None) -> TensorPlacement:
    """A tensor's names in the space; a shared output's index arrays and counts take its
    source's names: those of the prefix it matches, else the fields of the same name."""
    names: dict[str, str] = {}
    for field_ in layout.fields:
        names[field_.name] = f"{tensor}_{field_.name}"
    if prefix is not None:
        names.update({name: f"{shared_with}_{source}" for name, source in prefix.fields.items()})
    elif shared_with is not None:
        shared_fields = {f.name: f for f in shared_layout.fields}
        for field_ in layout.fields:
            other = shared_fields.get(field_.name)
            if other is None or field_.type != other.type or field_.name == layout.values_field:
                continue
            if field_.is_index_array or (field_.is_scalar and field_.definition is None):
                names[field_.name] = f"{shared_with}_{field_.name}"
    physical = tuple(physical_name(tensor, p) for p in layout.physical)
    names.update(zip(layout.physical, physical))
    return TensorPlacement(tensor, layout, access, physical, names, shared_with, prefix)


def _rename_formula(formula: Formula, names: Mapping[str, str]) -> Formula:
    """Rename plain names and UF functions of a layout formula."""
    from spf.space.expressions import UFCall

    def rename_affine(expression: Affine) -> Affine:
        terms = {}
        for atom, coefficient in expression.terms:
            if isinstance(atom, UFCall):
                atom = UFCall(names.get(atom.function, atom.function),
                              tuple(rename_affine(a) for a in atom.arguments))
            else:
                atom = names.get(atom, atom)
            terms[atom] = terms.get(atom, 0) + coefficient
        return Affine.build(terms, expression.constant)

    return _map_constraints(formula, lambda c: Constraint(rename_affine(c.left), c.op, rename_affine(c.right)))


def _map_constraints(formula: Formula, function) -> Formula:
    from spf.space.expressions import And, Exists, Not, Or
    if isinstance(formula, Constraint):
        return function(formula)
    if isinstance(formula, And):
        return And(tuple(_map_constraints(p, function) for p in formula.parts))
    if isinstance(formula, Or):
        return Or(tuple(_map_constraints(p, function) for p in formula.parts))
    if isinstance(formula, Not):
        return Not(_map_constraints(formula.part, function))
    return Exists(formula.variables, _map_constraints(formula.body, function))


# ----------------------------------------------------------------------------- construction


def load_tensor_layout(layout_spec: object, order: int, tensor: str) -> Layout:
    """The layout of ``tensor`` (a spec, a path or a Layout) resolved for ``order`` indices,
    or the reason it cannot be used with that many (a layout family resolves to its order)."""
    from spf.arguments import layout as layout_argument
    from spf.layout_library import load_layout
    layout_argument(layout_spec, f"the layout of tensor {tensor}")
    layout = load_layout(layout_spec) if isinstance(layout_spec, (str,)) or hasattr(layout_spec, "__fspath__") \
        else layout_spec
    if hasattr(layout, "resolve"):
        layout = layout.resolve(order)
    if layout.order != order:
        raise IterationSpaceError(
            f"tensor {tensor} is used with {order} indices but layout {layout.spec} has order {layout.order}")
    return layout


def tensor_space(placement: TensorPlacement, iteration: Sequence[str]) -> UFSet:
    """``Range(A_T^-1 o R_T)`` with T's physical indices kept: a set over physical + iteration."""
    layout = placement.layout
    taken = set(iteration) | set(placement.names.values())
    coordinates = []
    for k in range(layout.order):
        name = f"c{k}"
        while name in taken:
            name += "c"
        taken.add(name)
        coordinates.append(name)
    names = dict(placement.names)
    names.update(zip(layout.logical, coordinates))
    relation = UFSet.from_formula(placement.physical + tuple(coordinates),
                                  _rename_formula(layout.relation, names), n_in=len(layout.physical))
    access_formula = [Constraint(Affine.of(c), "=", Affine.of(i))
                      for c, i in zip(coordinates, placement.access.indices)]
    from spf.space.expressions import And
    access = UFSet.from_formula(tuple(iteration) + tuple(coordinates), And(tuple(access_formula)),
                                n_in=len(iteration))
    return relation.apply_range(access.inverse()).wrap()


def _default_order(placements: Sequence[TensorPlacement], indices: Sequence[str]) -> list[str]:
    """Each tensor's physical indices in layout order, each followed by the indices it defines."""
    order: list[str] = []
    for placement in placements:
        layout = placement.layout
        definers = coordinate_definers(layout)
        for position, physical in enumerate(layout.physical):
            renamed = placement.physical[position]
            if renamed not in order:
                order.append(renamed)
            for logical_position, logical in enumerate(layout.logical):
                index = placement.access.indices[logical_position]
                if index not in order and definers.get(logical, -1) <= position:
                    order.append(index)
    order.extend(i for i in indices if i not in order)
    # A physical index equal to a logical one (a dense level: p = i) follows that index
    # at once, so the positions of dense operands and outputs are known as early as
    # possible (an output position fixed outside a loop lets its sum stay in a register).
    for placement in placements:
        for logical_position, logical in enumerate(placement.layout.logical):
            physical = identity_physical(placement.layout, logical)
            if physical is None:
                continue
            renamed = placement.names[physical]
            index = placement.access.indices[logical_position]
            if order.index(index) < order.index(renamed):
                order.remove(renamed)
                order.insert(order.index(index) + 1, renamed)
    return order


def _least_discordant_order(placements: dict[str, TensorPlacement], output: Access,
                            indices: Sequence[str]) -> list[str]:
    """The default loop order: the placements' order (:func:`_placements_in_default_order`), or
    that order led by a sparse input at exactly the output's indices (a mask, C<L> = L * L')
    where that leaves fewer sparse inputs walked against their storage order.  Triangle
    counting ``C(i,j) = L(i,k) * M(j,k) * L_mask(i,j)`` in statement order loops i, k, j,
    scanning every row of M for each entry of L; led by the mask it loops i, j, k: each entry
    of the mask, then L's row i merged with M's row j."""
    ordered = _placements_in_default_order(placements, output.tensor)
    order = _default_order(ordered, indices)
    least = _discordant(ordered, order, output.tensor)
    for lead in ordered[1:]:
        if lead.tensor == output.tensor or not lead.layout.index_arrays or lead.access.indices != output.indices:
            continue
        candidate = _default_order([lead] + [p for p in ordered if p is not lead], indices)
        discordant = _discordant(ordered, candidate, output.tensor)
        if discordant < least:
            order, least = candidate, discordant
    return order


def _discordant(placements: Sequence[TensorPlacement], order: Sequence[str], output: str) -> int:
    """How many sparse inputs the loop order ``order`` visits in another order of their
    coordinates than their storage levels define them (each such input is scanned, not walked)."""
    position = {variable: k for k, variable in enumerate(order)}
    count = 0
    for placement in placements:
        if placement.tensor == output or not placement.layout.index_arrays:
            continue
        definers = coordinate_definers(placement.layout)
        stored = sorted(range(len(placement.access.indices)),
                        key=lambda k: definers.get(placement.layout.logical[k], k))
        visits = [position[placement.access.indices[k]] for k in stored]
        count += visits != sorted(visits)
    return count


def _placements_in_default_order(placements: dict[str, TensorPlacement], output: str) -> list[TensorPlacement]:
    """The placements in the order the default loop order takes them: the inputs stored as
    coordinate lists first, the rest as the statement gives them, but a dense input (no index
    arrays) after the sparse ones: ``y(j) = d(i) * A(i,j)`` with A in CSC looped over i
    first and searched each column for it (n x columns finds, 300x slower than walking A's
    columns and reading d directly).  A coordinate list's
    positions (COO's ``p``, which defines ``i`` and ``j`` at once) are reached by no find
    but a scan of them all, so nested inside another operand's loops it would be scanned
    once per outer iteration (a dense operand first made ``Dense4 * COO4`` cost N^4 * nnz);
    iterated first, each of its entries is visited once and the other operands are found
    from its coordinates."""
    def leads(placement: TensorPlacement) -> bool:
        return placement.tensor != output and _coordinate_list(placement.layout)
    def dense_input(placement: TensorPlacement) -> bool:
        return placement.tensor != output and not placement.layout.index_arrays

    ordered = sorted(placements.values(), key=lambda placement: not leads(placement))
    last_sparse = max((k for k, placement in enumerate(ordered)
                       if placement.tensor != output and placement.layout.index_arrays), default=-1)
    head = ordered[:last_sparse + 1]
    return [p for p in head if not dense_input(p)] + [p for p in head if dense_input(p)] + ordered[last_sparse + 1:]


def _coordinate_list(layout) -> bool:
    """Whether the layout's first physical index alone defines two coordinates or more."""
    positions = coordinate_definers(layout).values()
    return len(layout.physical) > 0 and sum(1 for position in positions if position == 0) >= 2


def identity_physical(layout: Layout, logical: str) -> str | None:
    """The physical index p when the relation says ``logical = p`` (a dense level), else None."""
    for constraint in conjuncts(layout.relation):
        if isinstance(constraint, Constraint) and constraint.op == "=":
            sides = {str(constraint.left), str(constraint.right)}
            if logical in sides:
                other = (sides - {logical}).pop() if len(sides) == 2 else None
                if other in layout.physical:
                    return other
    return None


def logical_definitions(layout: Layout) -> Iterator[tuple[str, Affine, Affine]]:
    """Each equality of the layout's relation read as a definition of a logical coordinate:
    ``(coordinate, side, other)`` where ``side`` is the coordinate alone (coefficient 1, maybe
    plus a constant) and ``other`` the other side (``j = B_idx0(pB0)``: j, j, B_idx0(pB0))."""
    for constraint in conjuncts(layout.relation):
        if not isinstance(constraint, Constraint) or constraint.op != "=":
            continue
        for side, other in ((constraint.left, constraint.right), (constraint.right, constraint.left)):
            if len(side.terms) == 1 and side.terms[0][1] == 1 and side.terms[0][0] in layout.logical:
                yield side.terms[0][0], side, other


def coordinate_definers(layout: Layout) -> dict[str, int]:
    """For each logical coordinate, the position of the last physical index defining it
    (the storage level at which a scan knows that coordinate)."""
    result: dict[str, int] = {}
    for logical, _, other in logical_definitions(layout):
        used = [layout.physical.index(n) for n in other.names() if n in layout.physical]
        if not (other.names() & set(layout.logical)):
            result.setdefault(logical, max(used, default=-1))
    for logical in layout.logical:
        result.setdefault(logical, len(layout.physical) - 1)
    return result


def _extent_names(indices: Sequence[str], taken: set[str]) -> dict[str, str]:
    extents = {}
    for index in indices:
        name = f"N_{index}"
        while name in taken:
            name = "_" + name
        extents[index] = name
    return extents


def statement_space(statement: Statement, layouts: Mapping[str, object],
                    share: Mapping[str, str] | None = None, order: Sequence[str] | None = None,
                    inferred: str = "") -> StatementSpace:
    """The iteration space of a single-term statement (``inferred``: why ``share`` was
    inferred, when it was)."""
    share = dict(share or {})
    if len(statement.terms) != 1:
        raise IterationSpaceError("statement_space takes one product term; use iteration_space for sums")
    term = statement.terms[0]
    orders = statement.tensors
    for tensor, tensor_order in orders.items():
        if tensor not in layouts and tensor_order > 0:
            raise IterationSpaceError(f"no layout given for tensor {tensor}")
    for tensor in layouts:
        if tensor not in orders:
            raise IterationSpaceError(f"layout given for {tensor}, which the statement does not use")
    scalars = {t for t, tensor_order in orders.items() if tensor_order == 0}
    loaded = {t: load_tensor_layout(layouts[t], orders[t], t) for t in orders if t not in scalars}

    output = statement.output
    assembled = None
    placements: dict[str, TensorPlacement] = {}
    seen_accesses: set[str] = set()
    for access in term.factors:
        if access.tensor in scalars:
            continue  # a scalar factor adds no index and no constraint
        if access.tensor in seen_accesses:
            raise IterationSpaceError(f"tensor {access.tensor} appears twice in one product; "
                                      "give the second use its own name")
        seen_accesses.add(access.tensor)
        placements[access.tensor] = _placement(access.tensor, loaded[access.tensor], access)
    output_layout = loaded.get(output.tensor)
    output_is_dense = output_layout is None or not any(f.is_index_array for f in output_layout.fields)
    for target, source in share.items():
        if target != output.tensor:
            raise IterationSpaceError(f"share: only the output ({output.tensor}) can share index "
                                      f"arrays, not {target}")
        if source not in placements:
            raise IterationSpaceError(f"share: {target} shares {source}'s index arrays, but {source} "
                                      "is no input of this product")
    same_positions: list[Constraint] = []
    if output.tensor in share:
        source = share[output.tensor]
        prefix = match_prefix(output_layout, output, source, loaded[source], placements[source].access)
        placement = _placement(output.tensor, output_layout, output, source, loaded[source], prefix)
        placement = dataclasses.replace(placement, inferred=inferred)
        if prefix is not None:  # each entry of the source writes the output at its own positions
            source_names = placements[source].names
            same_positions = [Constraint(Affine.of(placement.names[mine]), "=", Affine.of(source_names[theirs]))
                              for mine, theirs in prefix.positions]
        if not any(placement.names[f.name].startswith(source + "_") for f in output_layout.index_arrays):
            raise IterationSpaceError(
                f"share: {output.tensor} ({output_layout.spec}) has no index array in common with "
                f"{source} ({loaded[source].spec})")
        placements[output.tensor] = placement
    elif not output_is_dense:
        assembled = output_layout  # its pattern is what the inputs produce (notation checked every
        # output index appears in the term)
    elif output_layout is not None:
        placements[output.tensor] = _placement(output.tensor, output_layout, output)

    indices = statement.indices
    taken = {n for p in placements.values() for n in p.names.values()} | set(indices)
    extents = _extent_names(indices, taken)
    space: UFSet | None = None
    for placement in placements.values():
        part = tensor_space(placement, indices)
        space = part if space is None else space.product(part)
    bounds = list(same_positions)
    for index in indices:
        bounds.append(Constraint(Affine.of(0), "<=", Affine.of(index)))
        bounds.append(Constraint(Affine.of(index), "<", Affine.of(extents[index])))
    for placement in placements.values():
        layout = placement.layout
        for position, index in enumerate(placement.access.indices):
            extent = layout.shape[position].to_affine()
            if extent is None:
                continue
            renamed = _rename_formula(Constraint(extent, "=", Affine.of(extents[index])), placement.names)
            bounds.append(renamed)
    from spf.space.expressions import And
    space = space.intersect(UFSet.from_formula(space.variables, And(tuple(bounds))))

    variable_order = list(order) if order else _least_discordant_order(placements, output, indices)
    missing = set(space.variables) - set(variable_order)
    unknown = set(variable_order) - set(space.variables)
    if missing or unknown:
        raise IterationSpaceError(f"order must list exactly the variables {sorted(space.variables)}; "
                                  f"missing {sorted(missing)}, unknown {sorted(unknown)}")
    space = space.reorder(variable_order)

    properties: list[Property] = []
    assumption_parts: list[Formula] = []
    for placement in placements.values():
        if placement.shared_with is not None:
            continue  # its shared arrays' facts come from the source tensor
        for spec in placement.layout.properties:
            properties.append(from_spec(spec).renamed(placement.names))
        assumption_parts.append(_rename_formula(placement.layout.assumptions, placement.names))
    assumptions = UFSet.from_formula(space.variables, And(tuple(assumption_parts)))
    return StatementSpace(statement, space, placements, extents, properties, assumptions, assembled)


def complete_order(space: StatementSpace, order: Sequence[str]) -> tuple[str, ...]:
    """``order`` with the positions of an output that shares a prefix of an input's levels
    appended where it leaves them out (they are the input's: a user's order need not name
    the positions of an output whose pattern was inferred)."""
    placement = space.placements.get(space.statement.output.tensor)
    if placement is None or placement.shared_levels is None:
        return tuple(order)
    return tuple(order) + tuple(p for p in placement.physical if p not in order)


def _loaded_layouts(statement: Statement, layouts: Mapping[str, object]) -> dict:
    """Each tensor's layout for its order (a layout that does not load is left out: the
    space's construction reports it)."""
    loaded = {}
    for tensor, order in statement.tensors.items():
        if tensor in layouts and order > 0:
            try:
                loaded[tensor] = load_tensor_layout(layouts[tensor], order, tensor)
            except SpfError:
                pass
    return loaded


def iteration_space(expression: str | Statement, layouts: Mapping[str, object],
                    share: Mapping[str, str] | None = None, infer_pattern: bool = False) -> IterationSpace:
    """The iteration space of ``expression`` with one layout per tensor (names, specs or Layouts).

    ``share`` maps the output to the input whose index arrays it uses (known sparsity),
    e.g. ``{"A": "B"}`` for SDDMM.  A sum is split into one statement per term.
    ``infer_pattern`` (with ``share`` None): share where the output's layout provably is
    a prefix of the only sparse input's levels (spf.space.patterns.infer_share).
    """
    from spf import arguments
    statement = expression if isinstance(expression, Statement) else parse_statement(expression)
    layouts = arguments.layout_mapping(layouts)
    inferred = ""
    if share is None and infer_pattern:
        inference = infer_share(statement, _loaded_layouts(statement, layouts))
        if inference is not None:
            share, inferred = {inference.target: inference.source}, inference.reason
    share = arguments.share_mapping(share)
    for target, source in share.items():
        if source not in statement.inputs:
            raise IterationSpaceError(f"share: {target} shares {source}'s index arrays, but {source} "
                                      "is no input of the statement")
    parts = statement.split()
    spaces = []
    for part in parts:
        used = set(part.tensors)
        source = (share or {}).get(statement.output.tensor)
        if source is not None and source not in used:
            raise IterationSpaceError(
                f"share: {statement.output.tensor} shares {source}'s index arrays, which restricts every "
                f"term to {source}'s pattern by reading {source}; the term {part.terms[0]} does not read "
                f"{source} (multiply it by a tensor with that pattern, or use a Dense output without share)")
        part_layouts = {t: l for t, l in layouts.items() if t in used}
        part_share = {t: s for t, s in (share or {}).items() if s in used}
        spaces.append(statement_space(part, part_layouts, part_share, inferred=inferred))
    unknown = set(layouts) - set(statement.tensors)
    if unknown:
        raise IterationSpaceError(f"layouts given for {sorted(unknown)}, which the statement does not use")
    if spaces and spaces[0].assembled is not None and statement.accumulate:
        output = statement.output.tensor
        raise IterationSpaceError(
            f"output {output} ({spaces[0].assembled.spec}) is assembled anew by each call: '+=' needs an "
            f"output whose pattern is known (a Dense output, or share={{'{output}': ...}})")
    return IterationSpace(statement, spaces)
