"""Index-array properties (Table 1 of the SPF co-iteration paper).

A property states what is known about the contents of index arrays, e.g. that
``colIdx`` is sorted within each segment ``[rowPtr(k), rowPtr(k+1))``.  Each
property is available in three forms:

(a) :meth:`Property.instances`: guard/consequence formulas on the UF calls present in
    a set, for the set algebra (:meth:`spf.space.sets.UFSet.with_properties`);
(b) :meth:`Property.z3_axiom` and :meth:`Property.z3_instances`: Z3 formulas for the
    find synthesis (quantified, and instantiated on given terms);
(c) :meth:`Property.check`: a run-time check of packed arrays, returning the first
    violation in words (None when the arrays satisfy the property).

For arrays with several dimensions (``meta(r, c)``), ordering properties compare
positions along the last dimension with the other indices equal.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

import numpy as np
import z3

from spf.errors import SpfInternalError
from spf.space.expressions import TRUE, Affine, And, Constraint, Exists, Formula, Or, UFCall

if TYPE_CHECKING:
    from spf.layout_library.model import PropertySpec

Guarded = tuple[Formula, Formula]


def _compare(left: Affine, op: str, right: Affine) -> Constraint:
    return Constraint(Affine.of(left), op, Affine.of(right))


def _order_ops(increasing: bool, strict: bool) -> str:
    """The relation f(a) OP f(b) required when a < b."""
    if increasing:
        return "<" if strict else "<="
    return ">" if strict else ">="


def _z3_compare(left, op: str, right):
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right,
            "=": left == right, "!=": left != right}[op]


def _numpy_compare(left: np.ndarray, op: str, right: np.ndarray) -> np.ndarray:
    return {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}[op](left, right)


def _same_leading(a: UFCall, b: UFCall) -> list[Formula]:
    return [_compare(x, "=", y) for x, y in zip(a.arguments[:-1], b.arguments[:-1])]


def _flat_rows(array: np.ndarray) -> np.ndarray:
    """View an array as rows along its last dimension (a vector is one row)."""
    array = np.asarray(array)
    if array.ndim <= 1:
        return array.reshape(1, -1)
    return array.reshape(int(np.prod(array.shape[:-1])), array.shape[-1])


def _position_text(array: np.ndarray, flat_row: int, column: int) -> str:
    if np.asarray(array).ndim <= 1:
        return f"[{column}]"
    leading = np.unravel_index(flat_row, np.asarray(array).shape[:-1])
    return "".join(f"[{int(k)}]" for k in leading) + f"[{column}]"


@dataclass(frozen=True)
class Property:
    """Base of the property kinds; ``arrays`` names the index arrays involved."""

    arrays: tuple[str, ...]

    @property
    def text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text

    def renamed(self, mapping: Mapping[str, str]) -> "Property":
        """The same property with arrays and constants renamed (e.g. per tensor)."""
        return replace(self, arrays=tuple(mapping.get(a, a) for a in self.arrays))

    def _calls_of(self, calls: Sequence[UFCall], name: str) -> list[UFCall]:
        return [c for c in calls if c.function == name]

    def instances(self, calls: Sequence[UFCall]) -> Iterator[Guarded]:
        raise NotImplementedError

    def z3_axiom(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        raise NotImplementedError

    def z3_instances(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef],
                     positions: Sequence[tuple], segments: Sequence = ()) -> list[z3.BoolRef]:
        raise NotImplementedError

    def check(self, arrays: Mapping[str, np.ndarray], scalars: Mapping[str, int]) -> tuple[str, str] | None:
        """None, or (array name, what is wrong) for the first violation."""
        raise NotImplementedError


def _z3_affine(expression: Affine, constants: Mapping[str, z3.ArithRef]):
    total = z3.IntVal(expression.constant)
    for atom, coefficient in expression.terms:
        total = total + coefficient * constants[atom]
    return total


@dataclass(frozen=True)
class Range(Property):
    """``low <= f(x) < high`` for every stored position x."""

    low: Affine = Affine()
    high: Affine = Affine()

    @property
    def text(self) -> str:
        return f"range({self.arrays[0]}, {self.low}, {self.high})"

    def renamed(self, mapping: Mapping[str, str]) -> "Range":
        substitution = {k: Affine.of(v) for k, v in mapping.items()}
        return replace(self, arrays=tuple(mapping.get(a, a) for a in self.arrays),
                       low=self.low.substitute(substitution), high=self.high.substitute(substitution))

    def instances(self, calls: Sequence[UFCall]) -> Iterator[Guarded]:
        for call in self._calls_of(calls, self.arrays[0]):
            value = Affine.of(call)
            yield TRUE, And((_compare(self.low, "<=", value), _compare(value, "<", self.high)))

    def z3_axiom(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        function = functions[self.arrays[0]]
        xs = [z3.Int(f"x{k}") for k in range(function.arity())]
        value = function(*xs)
        return z3.ForAll(xs, z3.And(_z3_affine(self.low, constants) <= value,
                                    value < _z3_affine(self.high, constants)))

    def z3_instances(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef],
                     positions: Sequence[tuple], segments: Sequence = ()) -> list[z3.BoolRef]:
        function = functions[self.arrays[0]]
        low, high = _z3_affine(self.low, constants), _z3_affine(self.high, constants)
        return [z3.And(low <= function(*p), function(*p) < high) for p in positions]

    def check(self, arrays: Mapping[str, np.ndarray], scalars: Mapping[str, int]) -> tuple[str, str] | None:
        values = np.asarray(arrays[self.arrays[0]])
        low = int(self.low.evaluate(scalars, {}))
        high = int(self.high.evaluate(scalars, {}))
        if not values.size or (values.min() >= low and values.max() < high):  # two reductions, no temporaries
            return None
        bad = np.flatnonzero((values < low) | (values >= high))
        if bad.size:
            index = np.unravel_index(bad[0], values.shape)
            where = "".join(f"[{int(k)}]" for k in index)
            return self.arrays[0], (f"value {int(values[index])} at {where} is outside "
                                    f"[{low}, {high})")
        return None


@dataclass(frozen=True)
class Monotonic(Property):
    """``x1 < x2 => f(x1) < f(x2)`` (or <=, >, >= for the other variants)."""

    increasing: bool = True
    strict: bool = True

    @property
    def text(self) -> str:
        direction = "increasing" if self.increasing else "decreasing"
        return f"monotonic({self.arrays[0]}, {direction}, {'strict' if self.strict else 'weak'})"

    @property
    def op(self) -> str:
        return _order_ops(self.increasing, self.strict)

    def instances(self, calls: Sequence[UFCall]) -> Iterator[Guarded]:
        own = self._calls_of(calls, self.arrays[0])
        for a, b in itertools.permutations(own, 2):
            guard = And(tuple(_same_leading(a, b)) + (_compare(a.arguments[-1], "<", b.arguments[-1]),))
            yield guard, _compare(Affine.of(a), self.op, Affine.of(b))

    def z3_axiom(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        function = functions[self.arrays[0]]
        lead = [z3.Int(f"r{k}") for k in range(function.arity() - 1)]
        x1, x2 = z3.Ints("x1 x2")
        return z3.ForAll(lead + [x1, x2], z3.Implies(
            x1 < x2, _z3_compare(function(*lead, x1), self.op, function(*lead, x2))))

    def z3_instances(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef],
                     positions: Sequence[tuple], segments: Sequence = ()) -> list[z3.BoolRef]:
        function = functions[self.arrays[0]]
        out = []
        for a, b in itertools.permutations(positions, 2):
            same = [x == y for x, y in zip(a[:-1], b[:-1])]
            out.append(z3.Implies(z3.And(*same, a[-1] < b[-1]),
                                  _z3_compare(function(*a), self.op, function(*b))))
        return out

    def check(self, arrays: Mapping[str, np.ndarray], scalars: Mapping[str, int]) -> tuple[str, str] | None:
        values = np.asarray(arrays[self.arrays[0]])
        rows = _flat_rows(values)
        if rows.shape[-1] < 2:
            return None
        ok = _numpy_compare(rows[:, :-1], self.op, rows[:, 1:])
        bad = np.argwhere(~ok)
        if bad.size:
            row, column = (int(v) for v in bad[0])
            first = _position_text(values, row, column)
            second = _position_text(values, row, column + 1)
            return self.arrays[0], (f"{self.arrays[0]}{first} = {rows[row, column]} and "
                                    f"{self.arrays[0]}{second} = {rows[row, column + 1]} are not "
                                    f"{'strictly ' if self.strict else ''}"
                                    f"{'increasing' if self.increasing else 'decreasing'}")
        return None


@dataclass(frozen=True)
class PeriodicMonotonic(Property):
    """Ordered within each segment: ``g(k) <= x1 < x2 < g(k+1) => f(x1) < f(x2)``.

    ``arrays`` is ``(f, g)`` for segments given by a pointer array g, or ``(f,)`` with
    ``period`` P for segments of P consecutive positions along the last dimension.
    """

    increasing: bool = True
    strict: bool = True
    period: int | None = None

    @property
    def text(self) -> str:
        segments = self.arrays[1] if self.period is None else str(self.period)
        direction = "increasing" if self.increasing else "decreasing"
        return (f"periodic_monotonic({self.arrays[0]}, {segments}, {direction}, "
                f"{'strict' if self.strict else 'weak'})")

    @property
    def op(self) -> str:
        return _order_ops(self.increasing, self.strict)

    def instances(self, calls: Sequence[UFCall]) -> Iterator[Guarded]:
        own = self._calls_of(calls, self.arrays[0])
        pairs = list(itertools.permutations(own, 2))
        if self.period is not None:
            for a, b in pairs:
                x1, x2 = a.arguments[-1], b.arguments[-1]
                k = "_segment"
                block = Affine.of(k).scale(self.period)
                in_block = And((_compare(block, "<=", x1), _compare(x2, "<", block + self.period)))
                guard = And(tuple(_same_leading(a, b)) + (_compare(x1, "<", x2), Exists((k,), in_block)))
                yield guard, _compare(Affine.of(a), self.op, Affine.of(b))
            return
        pointers = self._calls_of(calls, self.arrays[1])
        for start in pointers:
            end_argument = start.arguments[0] + 1
            if not any(p.arguments[0] == end_argument for p in pointers):
                continue
            end = UFCall(self.arrays[1], (end_argument,))
            for a, b in pairs:
                x1, x2 = a.arguments[0], b.arguments[0]
                guard = And((_compare(Affine.of(start), "<=", x1), _compare(x1, "<", x2),
                             _compare(x2, "<", Affine.of(end))))
                yield guard, _compare(Affine.of(a), self.op, Affine.of(b))

    def z3_axiom(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        function = functions[self.arrays[0]]
        x1, x2, k = z3.Ints("x1 x2 k")
        if self.period is not None:
            lead = [z3.Int(f"r{n}") for n in range(function.arity() - 1)]
            guard = z3.And(x1 < x2, self.period * k <= x1, x2 < self.period * k + self.period)
            return z3.ForAll(lead + [x1, x2, k], z3.Implies(
                guard, _z3_compare(function(*lead, x1), self.op, function(*lead, x2))))
        pointer = functions[self.arrays[1]]
        guard = z3.And(pointer(k) <= x1, x1 < x2, x2 < pointer(k + 1))
        return z3.ForAll([x1, x2, k], z3.Implies(guard, _z3_compare(function(x1), self.op, function(x2))))

    def z3_instances(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef],
                     positions: Sequence[tuple], segments: Sequence = ()) -> list[z3.BoolRef]:
        function = functions[self.arrays[0]]
        out = []
        for a, b in itertools.permutations(positions, 2):
            if self.period is not None:
                same = [x == y for x, y in zip(a[:-1], b[:-1])]
                # z3 terms, so that '/' is integer division for plain int positions too
                x1, x2 = (v if z3.is_expr(v) else z3.IntVal(v) for v in (a[-1], b[-1]))
                guard = z3.And(*same, x1 < x2, x1 / self.period == x2 / self.period)
                out.append(z3.Implies(guard, _z3_compare(function(*a), self.op, function(*b))))
                continue
            pointer = functions[self.arrays[1]]
            for k in segments:
                guard = z3.And(pointer(k) <= a[0], a[0] < b[0], b[0] < pointer(k + 1))
                out.append(z3.Implies(guard, _z3_compare(function(*a), self.op, function(*b))))
        return out

    def check(self, arrays: Mapping[str, np.ndarray], scalars: Mapping[str, int]) -> tuple[str, str] | None:
        name = self.arrays[0]
        values = np.asarray(arrays[name])
        if self.period is not None:
            rows = _flat_rows(values)
            width = rows.shape[-1]
            columns = np.arange(width - 1)
            same_segment = (columns // self.period) == ((columns + 1) // self.period)
            ok = _numpy_compare(rows[:, :-1], self.op, rows[:, 1:]) | ~same_segment
            bad = np.argwhere(~ok)
            if bad.size:
                row, column = (int(v) for v in bad[0])
                return name, (f"{name}{_position_text(values, row, column)} = {rows[row, column]} and "
                              f"{name}{_position_text(values, row, column + 1)} = "
                              f"{rows[row, column + 1]} break the order within a block of "
                              f"{self.period}")
            return None
        pointer = np.asarray(arrays[self.arrays[1]]).astype(np.int64)
        values = values.reshape(-1)
        if values.size < 2 or pointer.size < 2:
            return None
        # pair (x, x+1) is inside a segment unless a segment starts at x+1, or the pair
        # reaches outside [pointer[0], pointer[-1]), where no segment is (one pass, no
        # array of positions: this checks every CSR that packing shares with scipy)
        ok = _numpy_compare(values[:-1], self.op, values[1:])
        starts = pointer[(pointer > 0) & (pointer < values.size)]
        ok[starts - 1] = True
        ok[:max(int(pointer[0]), 0)] = True
        ok[max(int(pointer[-1]) - 1, 0):] = True
        if ok.all():
            return None
        bad = np.flatnonzero(~ok)
        if bad.size:
            x = int(bad[0])
            segment = int(np.searchsorted(pointer, x, side="right") - 1)
            return name, (f"{name}[{x}] = {values[x]} and {name}[{x + 1}] = {values[x + 1]} are "
                          f"not {'strictly ' if self.strict else ''}"
                          f"{'increasing' if self.increasing else 'decreasing'} within segment "
                          f"{segment} of {self.arrays[1]}")
        return None


@dataclass(frozen=True)
class Injective(Property):
    """``x1 != x2 => (f(x1), g(x1), ...) != (f(x2), g(x2), ...)``."""

    @property
    def text(self) -> str:
        return f"injective({', '.join(self.arrays)})"

    def _tuples(self, calls: Sequence[UFCall]) -> list[tuple[tuple[Affine, ...], tuple[UFCall, ...]]]:
        by_arguments: dict[tuple[Affine, ...], dict[str, UFCall]] = {}
        for call in calls:
            if call.function in self.arrays:
                by_arguments.setdefault(call.arguments, {})[call.function] = call
        return [(args, tuple(found[a] for a in self.arrays))
                for args, found in by_arguments.items() if len(found) == len(self.arrays)]

    def instances(self, calls: Sequence[UFCall]) -> Iterator[Guarded]:
        for (args_a, calls_a), (args_b, calls_b) in itertools.combinations(self._tuples(calls), 2):
            same_values = And(tuple(_compare(Affine.of(x), "=", Affine.of(y))
                                    for x, y in zip(calls_a, calls_b)))
            same_positions = And(tuple(_compare(x, "=", y) for x, y in zip(args_a, args_b)))
            yield same_values, same_positions

    def z3_axiom(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        arity = functions[self.arrays[0]].arity()
        a = [z3.Int(f"a{k}") for k in range(arity)]
        b = [z3.Int(f"b{k}") for k in range(arity)]
        same = z3.And(*[functions[n](*a) == functions[n](*b) for n in self.arrays])
        return z3.ForAll(a + b, z3.Implies(same, z3.And(*[x == y for x, y in zip(a, b)])))

    def z3_instances(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef],
                     positions: Sequence[tuple], segments: Sequence = ()) -> list[z3.BoolRef]:
        out = []
        for a, b in itertools.combinations(positions, 2):
            same = z3.And(*[functions[n](*a) == functions[n](*b) for n in self.arrays])
            out.append(z3.Implies(same, z3.And(*[x == y for x, y in zip(a, b)])))
        return out

    def check(self, arrays: Mapping[str, np.ndarray], scalars: Mapping[str, int]) -> tuple[str, str] | None:
        columns = [np.asarray(arrays[n]).reshape(-1) for n in self.arrays]
        if not columns[0].size:
            return None
        stacked = np.stack(columns, axis=1)
        order = np.lexsort(stacked.T[::-1])
        ordered = stacked[order]
        equal = np.all(ordered[1:] == ordered[:-1], axis=1)
        bad = np.flatnonzero(equal)
        if bad.size:
            first, second = sorted((int(order[bad[0]]), int(order[bad[0] + 1])))
            value = tuple(int(v) for v in ordered[bad[0]])
            shown = value[0] if len(value) == 1 else value
            return ", ".join(self.arrays), (f"positions {first} and {second} both hold {shown}")
        return None


@dataclass(frozen=True)
class CovaryingMonotonic(Property):
    """``x1 < x2 => (f(x1), g(x1), ...) <lex (f(x2), g(x2), ...)`` (sorted COO)."""

    increasing: bool = True

    @property
    def text(self) -> str:
        return f"covarying_monotonic({', '.join(self.arrays)}, " \
               f"{'increasing' if self.increasing else 'decreasing'})"

    def _lex_violation(self, left: Sequence[Affine], right: Sequence[Affine]) -> Formula:
        """(left) is not lexicographically before (right) in the property's direction."""
        after = ">" if self.increasing else "<"
        options: list[Formula] = []
        for depth in range(len(left)):
            prefix = tuple(_compare(left[k], "=", right[k]) for k in range(depth))
            last = ">=" if self.increasing else "<="
            op = last if depth == len(left) - 1 else after
            options.append(And(prefix + (_compare(left[depth], op, right[depth]),)))
        return Or(tuple(options))

    def instances(self, calls: Sequence[UFCall]) -> Iterator[Guarded]:
        tuples = Injective(self.arrays)._tuples(calls)
        for (args_a, calls_a), (args_b, calls_b) in itertools.permutations(tuples, 2):
            if len(args_a) != 1:
                continue
            guard = _compare(args_a[0], "<", args_b[0])
            left = [Affine.of(c) for c in calls_a]
            right = [Affine.of(c) for c in calls_b]
            yield And((guard, self._lex_violation(left, right))), Or(())

    def _z3_lex(self, left, right):
        before = (lambda x, y: x < y) if self.increasing else (lambda x, y: x > y)
        options = []
        for depth in range(len(left)):
            prefix = [left[k] == right[k] for k in range(depth)]
            options.append(z3.And(*prefix, before(left[depth], right[depth])))
        return z3.Or(*options)

    def z3_axiom(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef]) -> z3.BoolRef:
        x1, x2 = z3.Ints("x1 x2")
        left = [functions[n](x1) for n in self.arrays]
        right = [functions[n](x2) for n in self.arrays]
        return z3.ForAll([x1, x2], z3.Implies(x1 < x2, self._z3_lex(left, right)))

    def z3_instances(self, functions: Mapping[str, z3.FuncDeclRef], constants: Mapping[str, z3.ArithRef],
                     positions: Sequence[tuple], segments: Sequence = ()) -> list[z3.BoolRef]:
        out = []
        for a, b in itertools.permutations(positions, 2):
            left = [functions[n](*a) for n in self.arrays]
            right = [functions[n](*b) for n in self.arrays]
            out.append(z3.Implies(a[0] < b[0], self._z3_lex(left, right)))
        return out

    def check(self, arrays: Mapping[str, np.ndarray], scalars: Mapping[str, int]) -> tuple[str, str] | None:
        columns = [np.asarray(arrays[n]).reshape(-1).astype(np.int64) for n in self.arrays]
        if columns[0].size < 2:
            return None
        sign = 1 if self.increasing else -1
        before = np.zeros(columns[0].size - 1, dtype=bool)
        equal_so_far = np.ones_like(before)
        for column in columns:
            step = sign * (column[1:] - column[:-1])
            before |= equal_so_far & (step > 0)
            equal_so_far &= step == 0
        bad = np.flatnonzero(~before)
        if bad.size:
            x = int(bad[0])
            first = tuple(int(c[x]) for c in columns)
            second = tuple(int(c[x + 1]) for c in columns)
            order = "increasing" if self.increasing else "decreasing"
            return ", ".join(self.arrays), (f"entries {x} {first} and {x + 1} {second} are not in "
                                            f"strictly {order} lexicographic order")
        return None


KINDS = {
    "range": Range,
    "monotonic": Monotonic,
    "periodic_monotonic": PeriodicMonotonic,
    "injective": Injective,
    "covarying_monotonic": CovaryingMonotonic,
}


def from_spec(spec: PropertySpec) -> Property:
    """Build a property from a layout file's PropertySpec."""
    kind = spec.kind
    arrays = tuple(spec.arrays)
    if kind == "range":
        return Range(arrays[:1], low=Affine.of(spec.low), high=Affine.of(spec.high))
    if kind == "monotonic":
        return Monotonic(arrays[:1], increasing=spec.increasing, strict=spec.strict)
    if kind == "periodic_monotonic":
        if getattr(spec, "period_array", None):
            return PeriodicMonotonic((arrays[0], spec.period_array), spec.increasing, spec.strict)
        return PeriodicMonotonic(arrays[:1], spec.increasing, spec.strict, period=int(spec.period))
    if kind == "injective":
        return Injective(arrays)
    if kind == "covarying_monotonic":
        return CovaryingMonotonic(arrays, increasing=spec.increasing)
    raise SpfInternalError(f"a property of the unknown kind {kind!r} passed the layout reader")
