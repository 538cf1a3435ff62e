"""The physical levels of a layout, read off its relation.

A layout relation such as CSR's
``0 <= pi < numRows and rowPtr(pi) <= pj < rowPtr(pi + 1) and i = pi and j = colIdx(pj)``
says, for each physical index in order, between which bounds it runs (affine in
earlier indices, constants and calls on earlier indices), which logical coordinate
each equality defines, and which constraints are left as guards.  Packing
(:mod:`spf.runtime.packing`) and enumeration of stored entries use this reading.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from spf.space.expressions import Affine, Constraint, UFCall, conjuncts

if TYPE_CHECKING:
    from spf.layout_library.model import Layout


@dataclass(frozen=True)
class Bound:
    """``index >= expression`` (lower) or ``index <= expression`` (upper), inclusive."""

    expression: Affine
    lower: bool


@dataclass
class Level:
    """One physical index: its bounds and the UF calls first computable at it."""

    index: str
    position: int
    lower: list[Affine] = field(default_factory=list)
    upper: list[Affine] = field(default_factory=list)  # inclusive
    calls: list[UFCall] = field(default_factory=list)

    def segment(self) -> tuple[UFCall, UFCall] | None:
        """``(g(q), g(q+1))`` when the index runs over a pointer-delimited segment."""
        if len(self.lower) != 1 or len(self.upper) != 1:
            return None
        low, high = self.lower[0], self.upper[0] + 1
        if len(low.terms) == 1 and low.constant == 0 and isinstance(low.terms[0][0], UFCall) \
                and len(high.terms) == 1 and high.constant == 0 and isinstance(high.terms[0][0], UFCall):
            start, end = low.terms[0][0], high.terms[0][0]
            if start.function == end.function and len(start.arguments) == 1 \
                    and end.arguments[0] == start.arguments[0] + 1:
                return start, end
        return None


@dataclass
class LayoutLevels:
    """A layout relation read as levels, coordinate definitions and guards."""

    levels: list[Level]
    definitions: dict[str, Affine]  # logical coordinate -> expression over physical indices
    guards: list[Constraint]


def remainder_fits(unknown: list[tuple[object, int]], divisor: int,
                   range_of: Callable[[object], tuple[int, int] | None]) -> bool:
    """Whether ``sum(coefficient * atom)`` over the ``unknown`` terms stays within
    ``[0, divisor)`` for every value the atoms may take (``range_of(atom)``: an inclusive
    constant range, or None when unknown), so ``c = divisor*p + rest`` gives ``p = c / divisor``."""
    low = high = 0
    for atom, coefficient in unknown:
        extent = range_of(atom)
        if extent is None:
            return False
        a, b = coefficient * extent[0], coefficient * extent[1]
        low, high = low + min(a, b), high + max(a, b)
    return low >= 0 and high <= divisor - 1


def _innermost(names: set[str], physical: tuple[str, ...]) -> int:
    positions = [physical.index(n) for n in names if n in physical]
    return max(positions, default=-1)


def _call_level(call: UFCall, physical: tuple[str, ...]) -> int:
    return _innermost(call.names(), physical)


@functools.lru_cache(maxsize=256)
def read_levels(layout: Layout) -> LayoutLevels:
    """Classify each conjunct of the layout's relation (once per layout: validating a Tensor's
    fields reads them, and a small Tensor made each call of a loop paid this every time)."""
    physical: tuple[str, ...] = tuple(layout.physical)
    logical = set(layout.logical)
    levels = [Level(index, position) for position, index in enumerate(physical)]
    definitions: dict[str, Affine] = {}
    guards: list[Constraint] = []
    seen_calls: set[UFCall] = set()
    for part in conjuncts(layout.relation):
        if not isinstance(part, Constraint):
            raise layout.error("relation", f"layout {layout.name}: packing reads relations that are "
                               f"conjunctions of constraints (no 'or', 'not' or 'exists'), found {part}")
        for expression in (part.left, part.right):
            for call in expression.calls():
                if call not in seen_calls:
                    seen_calls.add(call)
                    level = _call_level(call, physical)
                    if level < 0:
                        continue
                    levels[level].calls.append(call)
        difference = part.left - part.right  # difference OP 0
        names = difference.names()
        if names & logical:
            definition = _as_definition(part, logical, physical)
            if definition is not None and definition[0] not in definitions:
                definitions[definition[0]] = definition[1]
            else:
                guards.append(part)
            continue
        bound = _as_bound(difference, part.op, physical)
        if bound is None:
            guards.append(part)
            continue
        index, bounds = bound
        level = levels[physical.index(index)]
        for item in bounds:
            (level.lower if item.lower else level.upper).append(item.expression)
    for coordinate in layout.logical:
        if coordinate not in definitions:
            raise layout.error(coordinate, f"layout {layout.name}: no equality defines logical coordinate "
                               f"{coordinate} from the physical indices (write {coordinate} = ... in the "
                               "relation)")
    for level in levels:
        if not level.lower or not level.upper:
            raise layout.error(level.index, f"layout {layout.name}: physical index {level.index} needs a "
                               "lower and an upper bound in the relation (such as 0 <= "
                               f"{level.index} < n)")
    return LayoutLevels(levels, definitions, guards)


def _as_definition(constraint: Constraint, logical: set[str], physical) -> tuple[str, Affine] | None:
    if constraint.op != "=":
        return None
    difference = constraint.left - constraint.right
    coordinates = [(a, c) for a, c in difference.terms if isinstance(a, str) and a in logical]
    if len(coordinates) != 1 or abs(coordinates[0][1]) != 1:
        return None
    coordinate, coefficient = coordinates[0]
    rest = difference - Affine.of(coordinate).scale(coefficient)
    if rest.names() & logical:
        return None
    return coordinate, rest.scale(-coefficient)


def _as_bound(difference: Affine, op: str, physical) -> tuple[str, list[Bound]] | None:
    """Read ``difference OP 0`` as bounds on its innermost physical index."""
    plain = {a: c for a, c in difference.terms if isinstance(a, str) and a in physical}
    if not plain:
        return None
    index = max(plain, key=physical.index)
    coefficient = plain[index]
    position = physical.index(index)
    if abs(coefficient) != 1:
        return None
    for call in difference.calls():
        if _call_level(call, physical) >= position:
            return None
    rest = difference - Affine.of(index).scale(coefficient)  # coefficient*index + rest OP 0
    # index OP' -rest/coefficient
    solved = rest.scale(-coefficient)
    if coefficient < 0:
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!="}[op]
    if op == "!=":
        return None
    bounds = {
        "<": [Bound(solved - 1, False)],
        "<=": [Bound(solved, False)],
        ">": [Bound(solved + 1, True)],
        ">=": [Bound(solved, True)],
        "=": [Bound(solved, True), Bound(solved, False)],
    }[op]
    return index, bounds
