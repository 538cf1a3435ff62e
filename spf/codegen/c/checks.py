"""The checks a C library runs on its arguments before its kernel (``NAME_check``).

The Python call path checks its operands when it packs or borrows them
(:func:`spf.runtime.packing.validate`) and then calls the kernel functions directly.  A C
program calling the library has no such step, so ``spf compile`` adds
``int NAME_check(...)``, taking the entry point's arguments, and ``NAME`` calls it
before the kernel.  The checks are generated from each tensor's layout (its scalar
fields, the shape, its arrays' declared lengths, its assumptions and index-array
properties, and its relation's stored positions where the properties do not already
bound them), so a user's layout file gets them too.  They only read, each array a few
times over its declared length, and return the first problem's code (docs/c-abi.md lists
the checks in their order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pycparser import c_generator, c_parser

from spf.errors import SpfError, SpfInternalError
from spf.layout_library.model import BinaryOp, Layout, Name, Negate, Number, ShapeRef
from spf.notation.statements import parse_statement
from spf.space.expressions import Affine, Constraint, UFCall, conjuncts
from spf.space.levels import read_levels
from spf.space.properties import CovaryingMonotonic, Monotonic, PeriodicMonotonic, Range, from_spec

from spf.codegen.c.c_syntax import SHAPE_MISMATCH
from spf.codegen.compiled import shared_fields

NULL_ARGUMENT = 4  # a struct pointer, an array of positive length, a scalar output or the handle is NULL
INCONSISTENT_FIELDS = 5  # a scalar field is negative, or disagrees with the shape or with a shared input's
BROKEN_PROPERTY = 6  # index arrays break an assumption or a property of their layout

_PARSE_PRELUDE = "typedef long int64_t; typedef int int32_t; typedef unsigned char uint8_t;\n"


@dataclass
class _Tensor:
    """One struct argument as the checks see it."""

    name: str
    layout: Layout
    role: str  # "input", "output" (dense, or sharing an input's index arrays) or "assembled"
    shared: dict = field(default_factory=dict)  # output field -> (the input whose field it shares, that field)

    def local(self, field_name: str) -> str:
        return f"{self.name}_{field_name}"

    def own(self, field_) -> bool:
        return field_.name not in self.shared

    def checked_arrays(self) -> list:
        """The arrays the kernel reads (an input's) or writes (an output's values)."""
        if self.role == "input":
            return list(self.layout.arrays)
        return [f for f in self.layout.arrays if self.own(f) and f.name == self.layout.values_field]


class _Arith:
    """Layout arithmetic (:mod:`spf.layout_library.model`) as C over a tensor's locals (and
    ``variables``: the C names of physical indices), collecting the divisors that must be
    positive before it is evaluated."""

    def __init__(self, tensor: _Tensor, variables: dict | None = None):
        self.tensor = tensor
        self.variables = variables or {}
        self.divisors: list[str] = []

    def __call__(self, expression) -> str:
        if isinstance(expression, Number):
            return str(expression.value) if expression.value >= 0 else f"({expression.value})"
        if isinstance(expression, Name):
            return self.variables.get(expression.name) or self.tensor.local(expression.name)
        if isinstance(expression, ShapeRef):
            extent = self.tensor.layout.shape[expression.index]
            if extent.shape_indices():
                raise SpfError(f"layout {self.tensor.layout.spec}: shape[{expression.index}] refers to the shape")
            return f"({self(extent)})"
        if isinstance(expression, Negate):
            return f"(-{self(expression.operand)})"
        if isinstance(expression, BinaryOp):
            left, right = self(expression.left), self(expression.right)
            if expression.op == "/":
                if not (isinstance(expression.right, Number) and expression.right.value > 0):
                    self.divisors.append(right)
                return f"spf_floord({left}, {right})"
            return f"({left} {expression.op} {right})"
        raise SpfInternalError(f"the C checks have no case for the layout arithmetic {expression!r}")


class _Reads:
    """Affine expressions (assumptions, property bounds, the relation) as C over a tensor's
    locals and ``variables``; a UF call reads its array, and ``guards`` collects the
    conditions that keep the reads inside the arrays' declared lengths (inner reads first)."""

    def __init__(self, tensor: _Tensor, variables: dict | None = None):
        self.tensor = tensor
        self.variables = variables or {}
        self.guards: list[str] = []

    def __call__(self, expression: Affine) -> str:
        text = ""
        for atom, coefficient in expression.terms:
            value = (self.read(atom) if isinstance(atom, UFCall)
                     else self.variables.get(atom) or self.tensor.local(atom))
            sign = "-" if coefficient < 0 else "+" if text else ""
            text += f" {sign} " + (value if abs(coefficient) == 1 else f"{abs(coefficient)} * {value}")
        if expression.constant or not text:
            text += f" {'-' if expression.constant < 0 else '+' if text else ''} {abs(expression.constant)}"
        return f"({text.strip()})"

    def read(self, call: UFCall) -> str:
        arith = _Arith(self.tensor)
        dimensions = [arith(d) for d in self.tensor.layout.field(call.function).dimensions]
        if len(dimensions) != len(call.arguments):
            raise SpfError(f"layout {self.tensor.layout.spec}: {call} does not index all the dimensions "
                           f"of {call.function}")
        self.guards += [f"{divisor} > 0" for divisor in arith.divisors]
        position = None
        for argument, dimension in zip(call.arguments, dimensions):
            index = self(argument)
            self.guards.append(f"{index} >= 0 && {index} < {dimension}")
            position = index if position is None else f"({position} * {dimension} + {index})"
        return f"(int64_t){self.tensor.local(call.function)}[{position}]"


def _tensors(tensors: dict, assembled: bool) -> list[_Tensor]:
    found = []
    for name, (layout, mapping, is_output) in tensors.items():
        role = "input" if not is_output else "assembled" if assembled else "output"
        shared = shared_fields(tensors, name) if role == "output" else {}
        found.append(_Tensor(name, layout, role, shared))
    return found


def _null_pointers(tensors: list[_Tensor], scalar_output: str | None, assembled: bool) -> list[str]:
    names = [t.name for t in tensors] + ([scalar_output] if scalar_output else [])
    names += ["spf_handle"] if assembled else []
    return [f"if (!{name}) return {NULL_ARGUMENT};" for name in names]


def _scalars(tensor: _Tensor) -> list[str]:
    """Locals of the scalar fields, and the checks that need no array: scalars not negative,
    divisors positive, fields defined from the shape equal to their definition, a shared
    output's scalars equal to its input's, the checked arrays' lengths not negative."""
    layout = tensor.layout
    lines = [f"const int64_t {tensor.local(f.name)} = {tensor.name}->{f.name};" for f in layout.scalars]
    negative = [f"{tensor.local(f.name)} < 0" for f in layout.scalars]
    if negative:
        lines.append(f"if ({' || '.join(negative)}) return {INCONSISTENT_FIELDS};")
    arith = _Arith(tensor)
    definitions = [(f, arith(f.definition)) for f in layout.scalars if f.definition is not None]
    lengths = [(f, " * ".join(arith(d) for d in f.dimensions)) for f in tensor.checked_arrays()]
    for extent in layout.shape:
        arith(extent)  # (its divisors: _shapes compares the extents)
    lines += [f"if (!({divisor} > 0)) return {INCONSISTENT_FIELDS};" for divisor in dict.fromkeys(arith.divisors)]
    lines += [f"if ({tensor.local(f.name)} != {value}) return {INCONSISTENT_FIELDS};"
              for f, value in definitions if value.strip("()") != tensor.local(f.name)]
    for own_field, (source, source_field) in tensor.shared.items():
        if layout.field(own_field).is_scalar:
            lines.append(f"if ({tensor.local(own_field)} != {source}->{source_field}) return {INCONSISTENT_FIELDS};")
    for f, length in lengths:
        lines.append(f"const int64_t {tensor.local(f.name)}__length = {length};")
        lines.append(f"if ({tensor.local(f.name)}__length < 0) return {INCONSISTENT_FIELDS};")
    return lines


def _shapes(expression: str, tensors: list[_Tensor]) -> list[str]:
    """Every index has one extent: each tensor's axes against the first axis with its index."""
    statement = parse_statement(expression)
    by_name = {t.name: t for t in tensors if t.role != "assembled"}
    accesses = [statement.output] + [a for term in statement.terms for a in term.factors]
    first: dict[str, str] = {}
    lines = []
    for access in accesses:
        tensor = by_name.get(access.tensor)
        if tensor is None:
            continue
        for axis, index in enumerate(access.indices):
            extent = _Arith(tensor)(tensor.layout.shape[axis])
            known = first.setdefault(index, extent)
            if known != extent:
                lines.append(f"if ({extent} != {known}) return {SHAPE_MISMATCH};")
    return lines


def _null_arrays(tensor: _Tensor) -> list[str]:
    lines = []
    for f in tensor.checked_arrays():
        lines.append(f"if ({tensor.local(f.name)}__length > 0 && !{tensor.name}->{f.name}) return {NULL_ARGUMENT};")
    return lines


def _assumptions(tensor: _Tensor) -> list[str]:
    lines = []
    for constraint in conjuncts(tensor.layout.assumptions):
        if not isinstance(constraint, Constraint):
            continue  # (a disjunction: spf.runtime.packing does not check it either)
        reads = _Reads(tensor)
        left, right = reads(constraint.left), reads(constraint.right)
        if constraint.op == "%":
            holds = f"{right} != 0 && {left} % {right} == 0"
        else:
            holds = f"{left} {'==' if constraint.op == '=' else constraint.op} {right}"
        for guard in reads.guards:
            lines.append(f"if (!({guard})) return {BROKEN_PROPERTY};")
        lines.append(f"if (!({holds})) return {BROKEN_PROPERTY};")
    return lines


def _property(tensor: _Tensor, prop) -> list[str]:
    """The C check of one property over the arrays' declared lengths (no lines for a
    property with no check linear in the arrays' lengths: injective).  The loops gather a
    flag and test it once at the end, so that they vectorise."""
    local, length = tensor.local, (lambda name: f"{tensor.local(name)}__length")
    if isinstance(prop, Range):
        reads = _Reads(tensor)
        low, high = reads(prop.low), reads(prop.high)
        value = f"{local(prop.arrays[0])}[spf_x]"
        return _flagged([f"if (!({guard})) return {BROKEN_PROPERTY};" for guard in reads.guards]
                        + [f"const int64_t spf_low = {low}, spf_high = {high};",
                           f"for (int64_t spf_x = 0; spf_x < {length(prop.arrays[0])}; spf_x++)",
                           f"  spf_bad |= ({value} < spf_low) | ({value} >= spf_high);"])
    if isinstance(prop, Monotonic) or (isinstance(prop, PeriodicMonotonic) and prop.period is not None):
        array = prop.arrays[0]
        broken = f"!({local(array)}[spf_x] {prop.op} {local(array)}[spf_x + 1])"
        dimensions = tensor.layout.field(array).dimensions
        if len(dimensions) == 1 and not isinstance(prop, PeriodicMonotonic):
            return _flagged([f"for (int64_t spf_x = 0; spf_x + 1 < {length(array)}; spf_x++) spf_bad |= {broken};"])
        # along the last dimension, the other indices equal (within blocks of the period)
        inside = f"((spf_c + 1) % {prop.period} != 0) & " if isinstance(prop, PeriodicMonotonic) else ""
        return _flagged([f"const int64_t spf_width = {_Arith(tensor)(dimensions[-1])};",
                         f"if (spf_width > 1) for (int64_t spf_r = 0; spf_r < {length(array)} / spf_width; spf_r++)",
                         "  for (int64_t spf_c = 0; spf_c + 1 < spf_width; spf_c++) {",
                         "    const int64_t spf_x = spf_r * spf_width + spf_c;",
                         f"    spf_bad |= {inside}{broken};",
                         "  }"])
    if isinstance(prop, PeriodicMonotonic):
        array, pointer = prop.arrays
        values, starts, count = local(array), local(pointer), length(pointer)
        ordered = (lambda x, y: f"({values}[{x}] {prop.op} {values}[{y}])")
        # The pairs inside [pointer[0], pointer[last]) that break the order, less those
        # across a segment boundary (each distinct boundary once): two passes that
        # vectorise, for a non-decreasing pointer.  Otherwise each segment, clamped to the
        # array and to what earlier ones covered (every pair compared at most once).
        return _flagged([f"if ({count} > 1) {{",
                         f"  const int64_t spf_from = spf_max({starts}[0], 0), "
                         f"spf_to = spf_min({starts}[{count} - 1], {length(array)});",
                         "  int spf_sorted = 1;",
                         f"  for (int64_t spf_k = 1; spf_k < {count}; spf_k++) "
                         f"spf_sorted &= {starts}[spf_k - 1] <= {starts}[spf_k];",
                         "  if (spf_sorted) {",
                         "    int64_t spf_broken = 0;",
                         f"    for (int64_t spf_x = spf_from; spf_x + 1 < spf_to; spf_x++) "
                         f"spf_broken += !{ordered('spf_x', 'spf_x + 1')};",
                         f"    for (int64_t spf_k = 1; spf_k + 1 < {count}; spf_k++) {{",
                         f"      const int64_t spf_b = {starts}[spf_k];",
                         f"      if (spf_b > spf_from && spf_b < spf_to && spf_b != {starts}[spf_k - 1]) "
                         f"spf_broken -= !{ordered('spf_b - 1', 'spf_b')};",
                         "    }",
                         "    spf_bad = spf_broken != 0;",
                         "  } else {",
                         "    int64_t spf_covered = 0;",
                         f"    for (int64_t spf_k = 0; spf_k + 1 < {count}; spf_k++) {{",
                         f"      const int64_t spf_start = spf_max({starts}[spf_k], spf_covered);",
                         f"      const int64_t spf_end = spf_min({starts}[spf_k + 1], {length(array)});",
                         "      for (int64_t spf_x = spf_start; spf_x + 1 < spf_end; spf_x++) "
                         f"spf_bad |= !{ordered('spf_x', 'spf_x + 1')};",
                         "      spf_covered = spf_max(spf_covered, spf_end);",
                         "    }",
                         "  }",
                         "}"])
    if isinstance(prop, CovaryingMonotonic):
        before = "<" if prop.increasing else ">"
        ordered = "0"
        for array in reversed(prop.arrays):
            a, b = f"{local(array)}[spf_x]", f"{local(array)}[spf_x + 1]"
            ordered = f"({a} != {b} ? {a} {before} {b} : {ordered})"
        count = " ".join(f"spf_n = spf_min(spf_n, {length(a)});" for a in prop.arrays[1:])
        return _flagged([f"int64_t spf_n = {length(prop.arrays[0])}; {count}",
                         f"for (int64_t spf_x = 0; spf_x + 1 < spf_n; spf_x++) spf_bad |= !{ordered};"])
    return []


def _flagged(lines: list[str]) -> list[str]:
    """A block gathering ``spf_bad`` over ``lines``, returning the property code when set."""
    return ["{ int spf_bad = 0;"] + [f"  {line}" for line in lines] + [f"  if (spf_bad) return {BROKEN_PROPERTY}; }}"]


def _positions_implied(layout, reading) -> bool:
    """Whether the layout's range properties (checked before) keep every array read of its
    relation (bounds, coordinate definitions, guards), the values index and, unless the
    layout is padded, every coordinate inside the arrays and the shape: interval bounds of
    each physical index, proved when a difference is a non-negative constant."""
    ranges: dict[str, list[tuple[Affine, Affine]]] = {}
    for spec in layout.properties:
        prop = from_spec(spec)
        if isinstance(prop, Range):
            ranges.setdefault(prop.arrays[0], []).append((prop.low, prop.high - 1))
    scalars = {f.name for f in layout.scalars}
    spans: dict[str, list[tuple[Affine, Affine]]] = {}

    def span(expression: Affine) -> list[tuple[Affine, Affine]] | None:
        """(low, high) pairs, each bounding ``expression`` (inclusive); None when unknown."""
        found = [(Affine.of(expression.constant), Affine.of(expression.constant))]
        for atom, coefficient in expression.terms:
            if isinstance(atom, UFCall):
                if not read_inside(atom) or atom.function not in ranges:
                    return None
                options = ranges[atom.function]
            elif atom in spans:
                options = spans[atom]
            elif atom in scalars:
                options = [(Affine.of(atom), Affine.of(atom))]
            else:
                return None
            found = [(low + (a if coefficient > 0 else b).scale(coefficient),
                      high + (b if coefficient > 0 else a).scale(coefficient))
                     for low, high in found for a, b in options][:16]
        return found

    def inside(expression: Affine, extent) -> bool:
        """0 <= expression < extent (an Arith) for every value the atoms may take."""
        found, limit = span(expression), extent.to_affine()
        if found is None or limit is None:
            return False
        return (any(low.is_constant and low.constant >= 0 for low, _ in found)
                and any((d := limit - high - 1).is_constant and d.constant >= 0 for _, high in found))

    def read_inside(call: UFCall) -> bool:
        dimensions = layout.field(call.function).dimensions
        return len(dimensions) == len(call.arguments) and all(
            inside(argument, dimension) for argument, dimension in zip(call.arguments, dimensions))

    for level in reading.levels:
        lows, highs = [span(e) for e in level.lower], [span(e) for e in level.upper]
        if any(found is None for found in lows + highs):
            return False
        spans[level.index] = [(low, high) for found in lows for low, _ in found
                              for other in highs for _, high in other][:16]
    for axis, coordinate in enumerate(layout.logical):
        definition = reading.definitions[coordinate]
        if (span(definition) is None if layout.padded else not inside(definition, layout.shape[axis])):
            return False
        spans[coordinate] = span(definition)
    if any(span(side) is None for guard in reading.guards for side in (guard.left, guard.right)):
        return False
    dimensions = layout.field(layout.values_field).dimensions
    return all(index.to_affine() is not None and inside(index.to_affine(), dimension)
               for index, dimension in zip(layout.values_index, dimensions))


def _stored_positions(tensor: _Tensor) -> list[str]:
    """The enumeration of an input's stored positions that spf.runtime.packing.validate makes:
    every array read of the relation and the values index inside their arrays and, unless
    the layout is padded, every stored entry (its guards holding) inside the shape.  No
    lines when the range properties imply all of it (every built-in layout but LOWER_TRI)."""
    layout = tensor.layout
    reading = read_levels(layout)
    if _positions_implied(layout, reading):
        return []
    fail = f"return {BROKEN_PROPERTY};"
    variables = {name: f"spf_{name}" for name in (*layout.physical, *layout.logical)}
    lines, depth = [], 0
    for level in reading.levels:
        reads = _Reads(tensor, variables)
        low, high = [reads(e) for e in level.lower], [reads(e) for e in level.upper]
        lines += [f"if (!({guard})) {fail}" for guard in reads.guards]
        first = low[0] if len(low) == 1 else f"spf_max({', '.join(low[:2])})"
        for more in low[2:]:
            first = f"spf_max({first}, {more})"
        last = high[0] if len(high) == 1 else f"spf_min({', '.join(high[:2])})"
        for more in high[2:]:
            last = f"spf_min({last}, {more})"
        variable = variables[level.index]
        lines.append(f"for (int64_t {variable} = {first}; {variable} <= {last}; {variable}++) {{")
        depth += 1
    reads = _Reads(tensor, variables)
    definitions = [(variables[c], reads(reading.definitions[c])) for c in layout.logical]
    held = [f"{reads(g.left)} {'==' if g.op == '=' else g.op} {reads(g.right)}" for g in reading.guards]
    lines += [f"if (!({guard})) {fail}" for guard in reads.guards]
    used = set(re.findall(r"\w+", " ".join(held))) | (set(variables.values()) if not layout.padded else set())
    lines += [f"const int64_t {variable} = {value};" for variable, value in definitions if variable in used]
    arith = _Arith(tensor, variables)
    positions = [arith(index) for index in layout.values_index]
    dimensions = [arith(d) for d in layout.field(layout.values_field).dimensions]
    lines += [f"if (!({divisor} > 0)) {fail}" for divisor in dict.fromkeys(arith.divisors)]
    lines += [f"if ({position} < 0 || {position} >= {dimension}) {fail}"
              for position, dimension in zip(positions, dimensions)]
    if not layout.padded:
        extents = [_Arith(tensor)(extent) for extent in layout.shape]
        outside = " || ".join(f"{variable} < 0 || {variable} >= {extent}"
                              for (variable, _), extent in zip(definitions, extents))
        condition = " && ".join([f"({h})" for h in held] + [f"({outside})"])
        lines.append(f"if ({condition}) {fail}")
    return ["{"] + lines + ["}"] * depth + ["}"]


def unchecked_properties(layout: Layout) -> list[str]:
    """The properties of a layout that ``NAME_check`` leaves unchecked (as text)."""
    probe = _Tensor("T", layout, "input")
    return [spec.text for spec in layout.properties if not _property(probe, from_spec(spec))]


def check_function(prototype: str, expression: str, tensors: dict, output: str, assembled: bool) -> str:
    """The C definition of the function ``prototype`` declares (the entry point's, renamed):
    the checks of the entry point's arguments, returning 0 or the first problem's code.

    ``tensors``: name -> KernelTensor (spf.codegen.compiled) in parameter order, as a
    :class:`spf.runtime.kernel.Kernel` holds them; ``assembled``: the output is assembled.
    """
    checked = _tensors(tensors, assembled)
    scalar_output = output if output not in tensors else None
    body = _null_pointers(checked, scalar_output, assembled)
    for tensor in checked:
        if tensor.role != "assembled":
            body += _scalars(tensor)
    body += _shapes(expression, checked)
    for tensor in checked:
        if tensor.role != "assembled":
            body += _null_arrays(tensor)
    for tensor in checked:
        if tensor.role != "input":
            continue
        lines = _assumptions(tensor)
        for spec in tensor.layout.properties:
            lines += _property(tensor, from_spec(spec))
        lines += _stored_positions(tensor)
        used = set(re.findall(r"\w+", " ".join(lines)))
        body += [f"const {f.c_type} *const {tensor.local(f.name)} = {tensor.name}->{f.name};"
                 for f in tensor.layout.arrays if tensor.local(f.name) in used]
        body += lines
    body.append("return 0;")
    return _printed(prototype, body)


def fill_checks(output: str, layout: Layout) -> list[str]:
    """The lines ``NAME_fill`` runs first: the output struct and every array of positive
    length (by the scalars the kernel set) not NULL."""
    tensor = _Tensor(output, layout, "assembled")
    checks = []
    for f in layout.arrays:
        arith = _Arith(tensor)
        length = " * ".join(f"({arith(d)})" for d in f.dimensions)
        positive = " && ".join([f"{divisor} > 0" for divisor in arith.divisors] + [f"{length} > 0"])
        checks.append(f"if ({positive} && !{output}->{f.name}) return {NULL_ARGUMENT};")
    used = set(re.findall(r"\w+", " ".join(checks)))
    return ([f"if (!handle || !{output}) return {NULL_ARGUMENT};"]
            + [f"const int64_t {tensor.local(f.name)} = {output}->{f.name};" for f in layout.scalars
               if tensor.local(f.name) in used] + checks)


def _printed(prototype: str, body: list[str]) -> str:
    """The function as pycparser prints it (the text parsed first: malformed C fails here)."""
    text = prototype.rstrip().rstrip(";") + "\n{\n" + "\n".join(body) + "\n}\n"
    unit = c_parser.CParser().parse(_PARSE_PRELUDE + text)
    return c_generator.CGenerator().visit(unit.ext[-1]) + "\n"
