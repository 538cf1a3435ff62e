"""Assembly: how a layout's arrays are built from a stream of coordinates and values.

An output (or a converted tensor) in a sparse layout has index arrays whose values
nobody knows in advance: they are uninterpreted functions the assembly must define
so that the layout's relation and properties hold.  This module reads the layout's
relation level by level (:mod:`spf.space.levels`) and decides, for each physical index,
how assembly establishes it:

* a **dense** level is determined by the coordinates (``pi = i``, or ``pI = i / R``
  with ``pii = i - R*pI`` when ``0 <= pii < R``): its position is computed;
* a **compressed** level is enumerated: the distinct values of its keys (the index
  arrays on it, ``colIdx(pj) = j``) under one parent position get consecutive
  positions, in the order the keys' properties require.  Its extent is either a
  segment ``g(q) <= p < g(q+1)`` (the pointer array g counts the level's nodes per
  parent and is their prefix sum) or a count field set by assembly (``0 <= p < nnz``).

The entries are put in storage order (the sort key of an entry lists, level by
level, the dense positions and the compressed levels' keys, negated where a key
decreases), equal entries are summed, and one pass over the sorted entries creates
a node of a compressed level wherever a key of that level or of an outer one
changes.  :mod:`spf.codegen.c.emit_assembly` writes that as C.

A layout whose levels are not of these kinds (a padded level of fixed width whose
positions are enumerated, as ELL's ``col(pi, pk)``) is refused with the level named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spf.errors import AssemblyRefused, SpfError
from spf.layout_library.model import Arith, BinaryOp, Layout, Name, Negate, Number, ShapeRef
from spf.space.expressions import Affine, UFCall
from spf.space.levels import LayoutLevels, Level, read_levels, remainder_fits
from spf.space.properties import CovaryingMonotonic, Monotonic, PeriodicMonotonic, Range, from_spec


@dataclass(frozen=True)
class Key:
    """One component of an entry's sort key: a C expression over the coordinates."""

    expression: str
    array: str | None = None  # the index array that stores it (compressed levels)
    sign: int = 1  # -1 for keys stored in decreasing order


@dataclass
class AssemblyLevel:
    """How assembly establishes one physical index."""

    index: str
    kind: str  # "dense" or "compressed"
    keys: list[Key]  # dense: one key, the position itself
    pointer: str | None = None  # compressed below a parent: the pointer array g of g(q) <= p < g(q+1)
    pointer_argument: str | None = None  # q as a C expression over outer positions
    count: str | None = None  # compressed at the root: the count field bounding it
    order: str = "sorted"  # "sorted" (by the keys' properties) or "any" (no order property)
    order_property: str | None = None  # the property that orders the keys, as the layout states it


@dataclass
class AssemblyPlan:
    """A layout's levels as assembly builds them, and the checks each entry must pass."""

    layout: Layout
    levels: list[AssemblyLevel]
    values_index: str  # flat position in the value array, a C expression over positions
    checks: list[tuple[str, str]] = field(default_factory=list)  # (C condition, what it means)
    coordinates: tuple[str, ...] = ()
    # count field -> (number of the compressed level among the compressed ones, minus what)
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    # every check holds for any entry whose coordinates lie in the shape (see checks_follow_from_shape)
    shape_checks_only: bool = False

    @property
    def compressed(self) -> list[AssemblyLevel]:
        return [level for level in self.levels if level.kind == "compressed"]

    @property
    def keys(self) -> list[Key]:
        return [key for level in self.levels for key in level.keys]

    def key_span(self, level_number: int) -> tuple[int, int]:
        """The positions of a level's keys in the sort key, as [start, end)."""
        start = sum(len(level.keys) for level in self.levels[:level_number])
        return start, start + len(self.levels[level_number].keys)

    def describe(self) -> list[str]:
        """One line per level: what assembly does there and the property that allows it."""
        lines = []
        for level in self.levels:
            if level.kind == "dense":
                lines.append(f"{level.index}: dense, computed from the coordinates: "
                             f"{level.index} = {readable(level.keys[0].expression)}")
                continue
            keys = ", ".join(f"{key.array}({level.index}) = {readable(key.expression)}" for key in level.keys)
            extent = (f"{level.pointer} counts them per {readable(level.pointer_argument)} and is their "
                      "prefix sum" if level.pointer else f"{level.count} counts them")
            order = (f"ordered as {level.order_property} requires" if level.order_property
                     else "in increasing order (no property asks for one; any order would do)")
            lines.append(f"{level.index}: compressed, one position per distinct {keys} under its parent, "
                         f"{order}; {extent}")
        return lines


# ----------------------------------------------------------------------------- C text of terms


def readable(expression: str) -> str:
    """A C expression of the plan as the layout's vocabulary writes it (for explain)."""
    import re
    text = expression.replace("x_", "").replace("p_", "").replace("s_", "")
    text = re.sub(r"spf_floord\(([^,]*), (\d+)\)", r"floor(\1 / \2)", text)
    text = re.sub(r"\((\w+)\)", r"\1", text)
    text = re.sub(r"\((\w+)\)", r"\1", text)
    return text[1:-1] if text.startswith("(") and text.endswith(")") and text.count("(") == 1 else text


def shape_scalars(layout: Layout, tensor: str, extents: tuple[str, ...]) -> list[tuple[str, str]]:
    """(field, C expression) for each scalar field the shape defines (``numRows = shape[0]``),
    over the C names of the extents and the tensor's struct (``C->numRows``)."""
    naming = {f.name: f"{tensor}->{f.name}" for f in layout.scalars}
    return [(f.name, arith_c(rename(f.definition, naming), extents)) for f in layout.scalars
            if f.definition is not None]


def coordinate_name(coordinate: str) -> str:
    return f"x_{coordinate}"


def position_name(index: str) -> str:
    return f"p_{index}"


def scalar_name(name: str) -> str:
    return f"s_{name}"


def arith_c(expression: Arith, shape: tuple[str, ...] = ()) -> str:
    """A layout-file expression (dimensions, values index, a field's definition) as C over
    positions and scalars; ``shape[k]`` becomes ``shape[k]``'s C name when given."""
    if isinstance(expression, ShapeRef) and expression.index < len(shape):
        return shape[expression.index]
    if isinstance(expression, Number):
        return str(expression.value)
    if isinstance(expression, Name):
        return expression.name  # replaced by the caller's naming
    if isinstance(expression, Negate):
        return f"(-{arith_c(expression.operand, shape)})"
    if isinstance(expression, BinaryOp):
        op, left, right = expression.op, arith_c(expression.left, shape), arith_c(expression.right, shape)
        if op == "/":
            return f"spf_floord({left}, {right})"
        if op == "%":
            return f"({left} - ({right}) * spf_floord({left}, {right}))"
        return f"({left} {op} {right})"
    if isinstance(expression, ShapeRef):
        raise AssemblyRefused(f"cannot assemble an expression over shape[{expression.index}]")
    raise AssemblyRefused(f"cannot assemble the expression {expression}")


def rename(expression: Arith, naming: dict[str, str]) -> Arith:
    return expression.substitute({name: Name(naming[name]) for name in expression.names() if name in naming})


# ----------------------------------------------------------------------------- the solver


class _Solver:
    """Expresses physical indices and index-array values through the coordinates."""

    def __init__(self, layout, reading, scalars: set[str]):
        self.layout = layout
        self.reading = reading
        self.scalars = scalars
        self.properties = [from_spec(s) for s in layout.properties]
        # atom -> C expression over the coordinates (and scalars)
        self.known: dict[object, str] = {}

    def atom_c(self, atom) -> str | None:
        if atom in self.known:
            return self.known[atom]
        if isinstance(atom, str) and atom in self.scalars:
            return scalar_name(atom)
        return None

    def affine_c(self, expression: Affine, value_of) -> str | None:
        parts = [str(expression.constant)] if expression.constant or not expression.terms else []
        for atom, coefficient in expression.terms:
            value = value_of(atom)
            if value is None:
                return None
            parts.append(f"{coefficient} * ({value})" if coefficient != 1 else f"({value})")
        return "(" + " + ".join(parts) + ")"

    def constant_range(self, atom) -> tuple[int, int] | None:
        """Inclusive range of an unknown atom when it is a compile-time constant."""
        if isinstance(atom, UFCall):
            for prop in self.properties:
                if isinstance(prop, Range) and prop.arrays[0] == atom.function \
                        and prop.low.is_constant and prop.high.is_constant:
                    return prop.low.constant, prop.high.constant - 1
            return None
        level = next((l for l in self.reading.levels if l.index == atom), None)
        if level is None or not all(e.is_constant for e in level.lower + level.upper):
            return None
        return max(e.constant for e in level.lower), min(e.constant for e in level.upper)

    def solve(self, target) -> tuple[str, bool] | None:
        """(C expression, exact) of ``target`` from a definition, or None.

        Exact when every other term of the definition is known; a floor division when
        the unknown rest lies within ``[0, coefficient)`` for every value it may take.
        """
        for coordinate, expression in self.reading.definitions.items():
            coefficients = dict(expression.terms)
            if target not in coefficients:
                continue
            own = coefficients.pop(target)
            known = [f"{coordinate_name(coordinate)}"]
            if expression.constant:
                known.append(str(-expression.constant))
            unknown = []
            for atom, coefficient in coefficients.items():
                value = self.atom_c(atom)
                if value is None:
                    unknown.append((atom, coefficient))
                else:
                    known.append(f"{-coefficient} * ({value})")
            sign = 1
            if own < 0:
                own, sign = -own, -1
                unknown = [(a, -c) for a, c in unknown]
            numerator = " + ".join(known)
            numerator = f"({numerator})" if sign > 0 else f"(-({numerator}))"
            if not unknown:
                return (numerator, True) if own == 1 else (f"spf_floord({numerator}, {own})", False)
            if remainder_fits(unknown, own, self.constant_range):
                return (f"spf_floord({numerator}, {own})" if own != 1 else numerator), False
        return None

    def fill_exact(self) -> None:
        """Solve every physical index a definition gives exactly (``pi = i``), repeatedly."""
        progress = True
        while progress:
            progress = False
            for level in self.reading.levels:
                if level.index in self.known:
                    continue
                solved = self.solve(level.index)
                if solved is not None and solved[1]:
                    self.known[level.index] = solved[0]
                    progress = True

    def order_of(self, call: UFCall) -> tuple[str | None, int]:
        """(the property ordering a key array, or None; the sign of its order)."""
        for spec, prop in zip(self.layout.properties, self.properties):
            if prop.arrays and prop.arrays[0] == call.function and isinstance(
                    prop, (Monotonic, PeriodicMonotonic, CovaryingMonotonic)):
                return spec.text, (1 if prop.increasing else -1)
        return None, 1


# ----------------------------------------------------------------------------- the plan


def plan_assembly(layout: Layout) -> AssemblyPlan:
    """The assembly of ``layout``, or :class:`AssemblyRefused` naming the level it cannot build."""
    try:
        reading = read_levels(layout)
    except SpfError as error:
        raise AssemblyRefused(str(error)) from None
    counts = {f.name for f in layout.counts}
    scalars = {f.name for f in layout.scalars}
    solver = _Solver(layout, reading, scalars - counts)
    arrays = {f.name: f for f in layout.arrays}
    levels: list[AssemblyLevel] = []
    for level in reading.levels:
        solver.fill_exact()
        if level.index in solver.known:
            levels.append(AssemblyLevel(level.index, "dense", [Key(solver.known[level.index])]))
            continue
        solved = solver.solve(level.index)
        if solved is not None:
            solver.known[level.index] = solved[0]
            levels.append(AssemblyLevel(level.index, "dense", [Key(solved[0])]))
            continue
        levels.append(_compressed_level(layout, level, reading, solver, counts))
    solver.fill_exact()
    naming = {index: position_name(index) for index in layout.physical}
    naming.update({name: scalar_name(name) for name in scalars})
    value_field = arrays[layout.values_field]
    values_index = _flat_index(layout.values_index, value_field.dimensions, naming, layout)
    filled = {key.array for level in levels for key in level.keys if key.array} \
        | {level.pointer for level in levels if level.pointer} | {layout.values_field}
    for array in layout.arrays:
        if array.name not in filled:
            raise AssemblyRefused(f"layout {layout.spec}: array {array.name} is neither an index array of a "
                                  "level, nor a level's pointer array, nor the values: assembly cannot fill it")
    checks = _checks(layout, reading, levels, solver)
    plan = AssemblyPlan(layout, levels, values_index, checks, tuple(layout.logical))
    plan.counts = _count_fields(layout, plan, counts)
    plan.shape_checks_only = checks_follow_from_shape(plan, reading, solver)
    return plan


def checks_follow_from_shape(plan: AssemblyPlan, reading: LayoutLevels, solver: _Solver) -> bool:
    """Whether an entry passes every check of a :class:`DirectRows` plan as soon as each
    coordinate lies in ``[0, shape[k])``: no guard over the coordinates (LOWER_TRI's
    ``j <= i`` is one), the dense level's bounds exactly ``0 .. shape[outer] - 1`` and the
    key's range exactly ``[0, shape[inner])`` (its other checks, ``i = pi``, are identities
    of the solved positions).  An iteration space bounds every index by its extent, which
    the kernel makes the output's shape, so a kernel's entries need no check then."""
    rows = direct_rows(plan)
    if rows is None or reading.guards:
        return False
    layout = plan.layout
    position = {c: k for k, c in enumerate(plan.coordinates)}
    shape = {f.name: f.definition.index for f in layout.scalars if isinstance(f.definition, ShapeRef)}

    def is_shape(expression: Affine, coordinate: str, minus: int) -> bool:
        """``expression`` is ``shape[coordinate's position] - minus``."""
        if len(expression.terms) != 1 or expression.constant != -minus:
            return False
        (name, coefficient), = expression.terms
        return coefficient == 1 and shape.get(name) == position[coordinate]

    outer_level, inner_level = plan.levels
    dense = next(level for level in reading.levels if level.index == outer_level.index)
    if len(dense.lower) != 1 or dense.lower[0] != Affine() or len(dense.upper) != 1 \
            or not is_shape(dense.upper[0], rows.outer, 1):
        return False
    key = inner_level.keys[0].array
    ranges = [prop for prop in solver.properties if isinstance(prop, Range) and prop.arrays[0] == key]
    return any(prop.low == Affine() and is_shape(prop.high, rows.inner, 0) for prop in ranges)


def _count_fields(layout, plan: AssemblyPlan, counts: set[str]) -> dict[str, tuple[int, int]]:
    """How each count field follows from the levels' numbers of positions: a root level's
    bound (``0 <= p < nnz0``), or an index array's length (``colIdx: int[nnz]``)."""
    found: dict[str, tuple[int, int]] = {}
    for slot, level in enumerate(plan.compressed):
        if level.count is not None:
            found.setdefault(level.count, (slot, 0))
        for key in level.keys:
            dimension = layout.field(key.array).dimensions[0].to_affine()
            unknown = [a for a in dimension.names() if a in counts and a not in found]
            if len(unknown) == 1 and dict(dimension.terms)[unknown[0]] == 1:
                found[unknown[0]] = (slot, dimension.constant)
    missing = sorted(counts - set(found))
    if missing:
        raise AssemblyRefused(f"layout {layout.spec}: assembly cannot tell the count field(s) {missing} "
                              "from the numbers of positions of its levels")
    return found


def _compressed_level(layout, level: Level, reading, solver: _Solver, counts: set[str]) -> AssemblyLevel:
    keys: list[Key] = []
    ordering: str | None = None
    for call in level.calls:
        if not any(call in dict(e.terms) for e in reading.definitions.values()):
            continue
        if len(call.arguments) != 1 or call.arguments[0] != Affine.of(level.index):
            raise AssemblyRefused(
                f"layout {layout.spec}: level {level.index} is keyed by {call}, whose argument is not "
                f"{level.index} itself: assembly builds index arrays with one entry per position "
                f"(a padded level of fixed width, as ELL's, is not assembled yet)")
        solved = solver.solve(call)
        if solved is None:
            raise AssemblyRefused(f"layout {layout.spec}: cannot derive {call} from the coordinates")
        ordered, sign = solver.order_of(call)
        ordering = ordering or ordered
        solver.known[call] = solved[0]
        keys.append(Key(solved[0], call.function, sign))
    if not keys:
        raise AssemblyRefused(f"layout {layout.spec}: physical index {level.index} is neither determined "
                              "by the coordinates nor keyed by an index array")
    segment = level.segment()
    if segment is not None:
        start, _ = segment
        argument = start.arguments[0]
        if any(True for _ in argument.calls()):
            raise AssemblyRefused(f"layout {layout.spec}: the segment {start} of level {level.index} "
                                  "is indexed through an index array")
        naming = {index: position_name(index) for index in layout.physical}
        for name in argument.names():
            if name not in naming and name not in solver.scalars:
                raise AssemblyRefused(f"layout {layout.spec}: the segment {start} of level {level.index} "
                                      f"uses {name}, unknown during assembly")
        text = solver.affine_c(argument, lambda atom: naming.get(atom) or solver.atom_c(atom))
        return AssemblyLevel(level.index, "compressed", keys, pointer=start.function, pointer_argument=text,
                             order="sorted" if ordering else "any", order_property=ordering)
    # 0 <= p < count with a count field that assembly sets
    upper_counts = [n for e in level.upper for n in e.names() if n in counts]
    if all(e.is_constant and e.constant == 0 for e in level.lower) and len(level.upper) == 1 \
            and upper_counts and level.upper[0] == Affine.of(upper_counts[0]) - 1:
        return AssemblyLevel(level.index, "compressed", keys, count=upper_counts[0],
                             order="sorted" if ordering else "any", order_property=ordering)
    raise AssemblyRefused(
        f"layout {layout.spec}: level {level.index} is enumerated (keyed by "
        f"{', '.join(k.array for k in keys)}) but bounded neither by a pointer array "
        f"(g(q) <= {level.index} < g(q+1)) nor by a count field (0 <= {level.index} < n): "
        "a padded level of fixed width is not assembled yet")


def _flat_index(indices, dimensions, naming: dict[str, str], layout) -> str:
    """Row-major flat position of ``array[indices...]`` with the declared dimensions."""
    text = None
    for index, dimension in zip(indices, dimensions):
        term = arith_c(rename(index, naming))
        text = term if text is None else f"({text}) * ({arith_c(rename(dimension, naming))}) + {term}"
    if text is None:
        raise AssemblyRefused(f"layout {layout.spec}: the values have no index")
    return text


def _checks(layout, reading, levels: list[AssemblyLevel], solver: _Solver) -> list[tuple[str, str]]:
    """Conditions every entry must satisfy for the layout to hold it, as C over its positions.

    The bounds of dense levels (LOWER_TRI's ``pj <= pi``), the guards over coordinates and
    dense positions (DIA's ``0 <= j < numCols``), the ranges of the keys, and every
    definition recomputed from the solved terms (a floor division that loses a remainder
    shows up there).
    """
    naming = {index: position_name(index) for index in layout.physical}
    dense = {level.index for level in levels if level.kind == "dense"}

    def value_of(atom):
        if isinstance(atom, str) and atom in dense:
            return naming[atom]
        if isinstance(atom, str) and atom in layout.logical:
            return coordinate_name(atom)
        return solver.atom_c(atom)

    checks: list[tuple[str, str]] = []
    for level in reading.levels:
        if level.index not in dense:
            continue
        for bound, op in [(e, ">=") for e in level.lower] + [(e, "<=") for e in level.upper]:
            text = solver.affine_c(bound, value_of)
            if text is not None:
                checks.append((f"{naming[level.index]} {op} {text}",
                               f"{level.index} {op} {bound}"))
    for guard in reading.guards:
        left = solver.affine_c(guard.left, value_of)
        right = solver.affine_c(guard.right, value_of)
        if left is not None and right is not None:
            op = "==" if guard.op == "=" else guard.op
            checks.append((f"{left} {op} {right}", str(guard)))
    for level in levels:
        for key in level.keys:
            if key.array is None:
                continue
            for prop in solver.properties:
                if isinstance(prop, Range) and prop.arrays[0] == key.array:
                    low = solver.affine_c(prop.low, value_of)
                    high = solver.affine_c(prop.high, value_of)
                    if low is not None and high is not None:
                        checks.append((f"{key.expression} >= {low} && {key.expression} < {high}",
                                       f"{prop.text}"))
    for coordinate, expression in reading.definitions.items():
        text = solver.affine_c(expression, value_of)
        if text is not None:
            checks.append((f"{coordinate_name(coordinate)} == {text}", f"{coordinate} = {expression}"))
    return checks


# ----------------------------------------------------------------------------- strategy


@dataclass(frozen=True)
class Workspace:
    """Gustavson's workspace for the output's last level: entries are summed into a dense
    accumulator over one coordinate, grouped by the others, and each group is flushed
    to the stream once, in the order of the level's key, equal coordinates merged."""

    coordinate: str  # the output index (the expression's name) the accumulator spans
    position: int  # its place among the output's coordinates
    order: int  # +1 / -1: the key's storage order (also +1 when no property asks for one)
    sorted: bool = True  # False when the layout asks no order of the key: groups flush as touched
    direct: "DirectRows | None" = None  # the groups can go straight into the layout's arrays
    outer: str | None = None  # with direct: the expression's index that is the rows' outer coordinate
    appends: bool = False  # with direct: entries arrive in storage order (spf.codegen.assembly.merge): appended, no accumulator
    trusted: bool = False  # with direct: the layout checks only the shape, which every entry lies in

    def describe(self, others: tuple[str, ...]) -> str:
        if self.appends:
            return (f"strategy: append: each {self.outer}'s entries arrive with {self.coordinate} in storage order, "
                    f"equal {self.coordinate} side by side (the loop walking them is proven to keep "
                    f"{self.coordinate} strictly increasing, or merges such loops), so they go straight into "
                    f"the rows, equal neighbours summed, without a workspace; then the groups straight into "
                    f"{self.direct.pointer} and the keys and values as they stand when ({self.outer}) arrives "
                    "strictly increasing and no key descends (tested at run time), else through the builder below")
        grouped = f"whenever ({', '.join(others)}) changes" if others else "once at the end"
        ordering = (f"in {'increasing' if self.order > 0 else 'decreasing'} order, chosen per group at run "
                    "time: four keys or fewer by a sorting network; up to 128 ranked in vector registers where "
                    "the machine has AVX-512 (each key placed by the count of keys below it); longer ones kept "
                    "when touched in order, merged when two ascending runs, read from marks when their range "
                    "spans a block of 64 per 4 keys or fewer, else radix- or comparison-sorted" if self.sorted
                    else "in the order first touched (the layout asks no order of the key)")
        text = (f"strategy: workspace over {self.coordinate} (a dense accumulator with the list of the "
                f"coordinates touched, flushed {grouped}, {ordering})")
        if self.direct is None:
            return text + ", then the builder below"
        return text + ", then " + self.direct.describe(self.outer)


@dataclass(frozen=True)
class DirectRows:
    """A layout of one dense level over coordinate ``outer`` and, under it, one compressed
    level keyed by ``inner`` alone (CSR, CSC, an unsorted CSR): a workspace's groups, each
    one ``outer`` with its distinct ``inner`` keys in storage order, are the level's
    segments as they stand.  When the groups arrive with ``outer`` strictly increasing (a
    run-time test, one comparison per group: the loop order makes it hold or not), the
    kernel hands them over as the arrays; otherwise they go through the builder."""

    outer: str
    inner: str
    pointer: str  # the pointer array the group sizes fill

    def describe(self, outer: str | None = None) -> str:
        """``outer``: the expression's name of the outer coordinate (default the layout's)."""
        return (f"the groups straight into {self.pointer} and the keys and values as they stand when "
                f"({outer or self.outer}) arrives strictly increasing (tested per group at run time; the workspace "
                f"flushes each group's keys distinct, in the order the layout asks), else through the builder "
                f"below")


def direct_rows(plan: AssemblyPlan) -> DirectRows | None:
    """The plan as :class:`DirectRows`, or None when it has another shape."""
    if len(plan.levels) != 2 or len(plan.coordinates) != 2:
        return None
    outer_level, inner_level = plan.levels

    def coordinate_of(key: Key) -> str | None:
        text = key.expression.replace(" ", "").strip("()")
        return text[2:] if key.sign > 0 and text.startswith("x_") and text[2:] in plan.coordinates else None

    if outer_level.kind != "dense" or inner_level.kind != "compressed" or len(inner_level.keys) != 1:
        return None
    outer, inner = coordinate_of(outer_level.keys[0]), coordinate_of(inner_level.keys[0])
    if outer is None or inner is None or outer == inner or inner_level.pointer is None:
        return None
    if (inner_level.pointer_argument or "").replace(" ", "").strip("()") != position_name(outer_level.index):
        return None
    if plan.values_index.strip("()") != position_name(inner_level.index):
        return None
    return DirectRows(outer, inner, inner_level.pointer)


def choose_workspace(plan: AssemblyPlan, statements: list, orders: list[list[str]]) -> Workspace | None:
    """A workspace where it pays: every statement's loop order (``orders``, one per
    statement) binds every other output coordinate before the last level's key
    coordinate and before any summed index, and a last level keyed by that coordinate
    alone with the values at its positions.  (Always valid: the builder still orders and
    sums whatever the workspace flushes; the loop order only decides whether the flushed
    groups arrive in storage order, each once; a sum's statements do when their nests
    are fused, spf.codegen.assembly.fusion.)"""
    if not statements or not plan.levels:
        return None
    last = plan.levels[-1]
    if last.kind != "compressed" or len(last.keys) != 1:
        return None
    key = last.keys[0].expression.replace(" ", "").strip("()")
    coordinates = plan.coordinates
    if not key.startswith("x_") or key[2:] not in coordinates:
        return None
    coordinate = key[2:]
    if plan.values_index.strip("()") != position_name(last.index):
        return None
    others = [c for c in coordinates if c != coordinate]
    if any(coordinate_name(coordinate) in k.expression for level in plan.levels[:-1] for k in level.keys):
        return None
    # the layout's coordinates are the output access's indices, position by position
    # (B(j,i) = A(i,j): the layout's row is the expression's j)
    output = tuple(statements[0].statement.output.indices)
    if len(output) != len(coordinates):
        return None
    index_of = dict(zip(coordinates, output))
    index, other_indices = index_of[coordinate], [index_of[c] for c in others]
    for statement_space, order in zip(statements, orders):
        if index not in order or any(c not in order or order.index(c) > order.index(index) for c in other_indices):
            return None
        # a summed index bound before the other coordinates would flush a group per term
        last_other = max((order.index(c) for c in other_indices), default=-1)
        statement = statement_space.statement
        summed = set(statement.indices) - set(statement.output.indices)
        if any(i in order and order.index(i) < last_other for i in summed):
            return None
    direct = direct_rows(plan)
    direct = direct if direct is not None and direct.inner == coordinate else None
    return Workspace(index, coordinates.index(coordinate), last.keys[0].sign, sorted=last.order != "any",
                     direct=direct, outer=index_of[direct.outer] if direct is not None else None)


@dataclass(frozen=True)
class TwoPhase:
    """Count, prefix sum, fill (scipy's ``tocsc``, TACO's assemble then compute) for a
    layout of :class:`DirectRows`' shape whose outer coordinate the loop nest does not
    bind first (a transposition, CSR to CSC): the nest runs once counting each row's
    entries into the pointer array's place, and once more putting every entry at its
    row's next position.  Valid whatever the order in which the nest produces the
    entries: a row whose keys do not come out strictly increasing (an input with
    duplicates, a loop order that does not give them sorted) is sorted and its equal keys
    summed afterwards, one test per entry deciding."""

    rows: DirectRows
    outer: str  # the expression's index that is the rows' outer coordinate
    inner: str  # the expression's index stored as the key
    trusted: bool = False  # proven: the fill puts each row's keys in order, every entry storable

    def describe(self) -> str:
        text = (f"strategy: two phases: the loop nest counts each {self.outer}'s entries, a prefix sum makes "
                f"{self.rows.pointer}, and the nest runs again putting each entry ({self.inner}, value) at its "
                f"{self.outer}'s next position; ")
        if self.trusted:
            return text + (f"the fill puts each row's {self.inner} strictly increasing (proven: the loop binding "
                           f"{self.inner} runs it increasing, and within one of its iterations {self.outer} strictly "
                           "increases), and every entry lies in the shape, which is all the layout checks: the "
                           "rows are the arrays as filled, no pass over them")
        return text + ("a row whose keys do not come out strictly increasing is then sorted and its equal keys "
                       "summed (tested per row at run time)")


def choose_two_phase(plan: AssemblyPlan, statements: list, scans: list[list]) -> TwoPhase | None:
    """Two phases where they apply: one statement, no summed index (each iteration is
    one entry, so counting iterations counts entries), a :class:`DirectRows` layout, and
    one loop nest without finds (it runs twice: its finds' state would be set up twice)
    whose parallel loop, if any, is outside every other loop and keeps no state per
    thread (the phases split it into the same chunks, spf.codegen.passes.parallel.split_into_chunks)."""
    from spf.codegen.loops import Find, Loop, StateInit, Temporary, walk
    rows = direct_rows(plan)
    if rows is None or len(statements) != 1 or len(scans) != 1 or len(scans[0]) != 1:
        return None
    statement = statements[0].statement
    output = tuple(statement.output.indices)
    if len(output) != 2 or set(statement.indices) != set(output) or len(set(output)) != 2:
        return None
    nodes = scans[0][0].nodes
    for node in walk(nodes):
        if isinstance(node, (Find, StateInit, Temporary)):
            return None
    parallel = [node for node in walk(nodes) if isinstance(node, Loop) and node.parallel]
    if parallel and (len(parallel) > 1 or parallel[0].thread_state or parallel[0].reduction is not None
                     or any(isinstance(node, Loop) for node in _outside(nodes, parallel[0]))):
        return None
    index_of = dict(zip(plan.coordinates, output))
    return TwoPhase(rows, index_of[rows.outer], index_of[rows.inner])


def _outside(nodes: list, target) -> list:
    """The nodes enclosing ``target`` in the nest."""
    from spf.codegen.loops import Block, Find, Guard, Loop, TileGuard
    for node in nodes:
        if node is target:
            return []
        if isinstance(node, (Loop, Guard, Find, TileGuard, Block)):
            found = _outside(node.body, target)
            if found is not None:
                return [node] + found
    return None
