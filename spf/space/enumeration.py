"""Enumerating the points of a UF set with concrete UF tables, level by level, in numpy.

This is the reference interpreter of an iteration space: it scans the variables in
order as generated code would (bounds from isl projections, UF dimensions evaluated as
soon as their arguments are bound, the remaining constraints as filters), but on whole
columns of candidate points at once.  Tests compare it with brute-force loops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import islpy as isl
import numpy as np

from spf.errors import SpfError
from spf.space.expressions import UFCall
from spf.space.isl_basic import constraints as _constraints, position as _position, project as _project

if TYPE_CHECKING:
    from spf.space.sets import UFSet

PARAM = isl.dim_type.param
INTEGER = np.int64


def _linear(coefficients: Mapping[str, int], constant: int, columns: Mapping[str, np.ndarray], rows: int):
    total = np.full(rows, constant, dtype=INTEGER)
    for name, coefficient in coefficients.items():
        total = total + coefficient * columns[name]
    return total


def _evaluate_call(call: UFCall, columns, functions, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Values of a call on every row, and which rows have arguments inside the table."""
    arguments = [np.broadcast_to(np.asarray(a.evaluate(columns, {}), dtype=INTEGER), (rows,))
                 for a in call.arguments]
    table = functions[call.function]
    if callable(table):
        values = np.array([table(*point) for point in zip(*arguments)], dtype=INTEGER).reshape(rows)
        return values, np.ones(rows, dtype=bool)
    table = np.asarray(table)
    valid = np.ones(rows, dtype=bool)
    clipped = []
    for axis, argument in enumerate(arguments):
        valid &= (argument >= 0) & (argument < table.shape[axis])
        clipped.append(np.clip(argument, 0, max(table.shape[axis] - 1, 0)))
    if table.size == 0:
        return np.zeros(rows, dtype=INTEGER), np.zeros(rows, dtype=bool)
    return table[tuple(clipped)].astype(INTEGER), valid


def scan_order(uf_set: UFSet, order: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Levels for scanning: each variable with the UF dimensions it completes.

    Hidden variables are scanned right after the tuple variables, in their own order,
    unless listed in ``order``; a UF dimension is evaluated as soon as its arguments
    are all bound.
    """
    variables = list(order) + [v for v in uf_set.hidden if v not in order]
    missing = [v for v in uf_set.variables if v not in variables]
    variables += missing
    table = uf_set.call_table
    bound: set[str] = set(uf_set.parameters)
    remaining = dict(table)
    levels: list[tuple[str, list[str]]] = []

    def ready() -> list[str]:
        done = []
        progress = True
        while progress:
            progress = False
            for dim, call in list(remaining.items()):
                if call.names() <= bound:
                    done.append(dim)
                    bound.add(dim)
                    del remaining[dim]
                    progress = True
        return done

    constant_calls = ready()
    if constant_calls:
        levels.append(("", constant_calls))
    for variable in variables:
        bound.add(variable)
        levels.append((variable, ready()))
    if remaining:
        raise SpfError(f"calls {list(remaining.values())} depend on unknown names")
    return levels


def enumerate_points(uf_set: UFSet, constants: Mapping[str, int], functions: Mapping[str, object],
                     order: Sequence[str] | None = None) -> list[tuple[int, ...]]:
    """Every point of ``uf_set`` (its tuple variables), given constants and UF tables."""
    if order is None:
        # Tuple variables first (a hidden position bounded by rowPtr(row) needs the row);
        # where that leaves one unbounded, existential variables first (y = f(e) needs e).
        try:
            return enumerate_points(uf_set, constants, functions, uf_set.variables + uf_set.hidden)
        except SpfError as error:
            if "unbounded" not in str(error):
                raise
            order = uf_set.hidden + uf_set.variables
    order = list(order)
    levels = scan_order(uf_set, order)
    table = uf_set.call_table
    missing = [p for p in uf_set.parameters if p not in constants]
    if missing:
        raise SpfError(f"no values given for the constants {missing}")
    found: list[np.ndarray] = []
    for basic in uf_set.isl_set.get_basic_sets():
        points = _enumerate_basic(basic, levels, table, constants, functions, uf_set.variables)
        if points is not None:
            found.append(points)
    if not found:
        return []
    stacked = np.unique(np.concatenate(found, axis=0), axis=0)
    return [tuple(int(v) for v in row) for row in stacked]


def _enumerate_basic(basic, levels, table, constants, functions, variables):
    if basic.dim(isl.dim_type.div) > 0:
        raise SpfError("enumeration of sets with integer divisions is not supported")
    for name, value in constants.items():
        position = _position(basic, name)
        if position >= 0:
            basic = basic.fix_val(PARAM, position, isl.Val(int(value)))
    if basic.is_empty():
        return None
    rows = 1
    columns: dict[str, np.ndarray] = {k: np.full(1, int(v), dtype=INTEGER) for k, v in constants.items()}
    level_names = [[n for n in ([variable] if variable else []) + dims] for variable, dims in levels]
    for depth, (variable, dims) in enumerate(levels):
        inner = [n for later in level_names[depth + 1:] for n in later]
        # Projections may need integer divisions (2*pI <= i <= 2*pI + 1); dropping the
        # constraints on them only widens the intermediate levels, and the last level
        # filters with the full set.
        level_set = _project(basic, inner).remove_divs()
        if variable:
            bounds_set = _project(level_set, dims).remove_divs()
            low = high = None
            for coefficients, constant, equality in _constraints(bounds_set):
                own = coefficients.pop(variable, 0)
                if own == 0:
                    continue
                rest = _linear(coefficients, constant, columns, rows)
                # own*x + rest >= 0 (or = 0)
                if own > 0 or equality:
                    magnitude = abs(own)
                    value = -rest if own > 0 else rest
                    candidate = -((-value) // magnitude)  # ceil(value / magnitude)
                    low = candidate if low is None else np.maximum(low, candidate)
                if own < 0 or equality:
                    magnitude = abs(own)
                    value = rest if own < 0 else -rest
                    candidate = value // magnitude
                    high = candidate if high is None else np.minimum(high, candidate)
            if low is None or high is None:
                raise SpfError(f"variable {variable!r} is unbounded; cannot enumerate")
            counts = np.maximum(high - low + 1, 0)
            total = int(counts.sum())
            for key in columns:
                columns[key] = np.repeat(np.broadcast_to(columns[key], (rows,)), counts)
            starts = np.repeat(low, counts)
            offsets = np.arange(total, dtype=INTEGER) - np.repeat(np.cumsum(counts) - counts, counts)
            columns[variable] = starts + offsets
            rows = total
        keep = np.ones(rows, dtype=bool)
        for dim in dims:
            values, valid = _evaluate_call(table[dim], columns, functions, rows)
            columns[dim] = values
            keep &= valid
        for coefficients, constant, equality in _constraints(level_set):
            value = _linear(coefficients, constant, columns, rows)
            keep &= (value == 0) if equality else (value >= 0)
        if not keep.all():
            for key in columns:
                columns[key] = np.broadcast_to(columns[key], (rows,))[keep]
            rows = int(keep.sum())
        if rows == 0:
            return None
    return np.stack([np.broadcast_to(columns[v], (rows,)) for v in variables], axis=1)
