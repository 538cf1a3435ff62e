"""Reading a packed tensor back: every stored position's coordinates and value, enumerated
level by level from the layout's relation (vectorised), with the layout's index arrays read
through :class:`StoredArrays`, which reports a read outside an array as a PackError.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from spf.errors import PackError, SpfError, UNNAMED, UnboundNameError
from spf.runtime.memory import require
from spf.runtime.value_checks import INDEX_DTYPE
from spf.space.expressions import Affine, Constraint
from spf.space.levels import LayoutLevels, Level, read_levels

if TYPE_CHECKING:
    from spf.layout_library.model import Layout


class StoredArrays(Mapping):
    """Array lookup for UF evaluation that reports out-of-bounds reads as PackError."""

    def __init__(self, fields: Mapping[str, object], tensor: str):
        self.fields = fields
        self.tensor = tensor

    def __getitem__(self, name: str):
        array = np.asarray(self.fields[name])

        def lookup(*arguments):
            indices = tuple(np.asarray(a, dtype=INDEX_DTYPE) for a in arguments)
            for axis, index in enumerate(indices):
                if index.size and (index.min() < 0 or index.max() >= array.shape[axis]):
                    bad = int(index[(index < 0) | (index >= array.shape[axis])].reshape(-1)[0])
                    raise PackError(f"tensor {self.tensor}: the layout reads {name} at index {bad}, "
                                    f"outside its {array.shape[axis]} elements")
            return array[indices]
        return lookup

    def __iter__(self):
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)


def unreadable_relation(layout: Layout, error: UnboundNameError, name: str) -> SpfError:
    """The LayoutError of a relation that packing or enumeration reads in an order where
    ``error.name`` has no value yet (a bound or definition the levels cannot compute)."""
    where = error.name if error.name in layout.locations else "relation"
    return layout.error(where, f"layout {layout.spec}: packing cannot read the relation level by level: "
                               f"{error} (each physical index's bounds and each definition may use only "
                               f"earlier physical indices, params, scalar fields and index arrays; tensor {name})")


def enumerate_stored(layout: Layout, fields: Mapping[str, object], shape: Sequence[int],
                     name: str = UNNAMED) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates and values of every stored position, level by level (vectorised)."""
    try:
        return _enumerate_stored(layout, fields, name)
    except UnboundNameError as error:
        raise unreadable_relation(layout, error, name) from None


def _enumerate_stored(layout, fields: Mapping[str, object], name: str):
    reading = read_levels(layout)
    scalars = {k: v for k, v in fields.items() if not isinstance(v, np.ndarray)}
    arrays = StoredArrays(fields, name)
    env: dict[str, np.ndarray] = {}
    rows = 1
    for level in reading.levels:
        low, counts = level_span(level, env, scalars, arrays, rows)
        rows = descend(env, level.index, low, counts, name)
    coords, values, keep = read_positions(layout, reading, env, scalars, arrays, rows, name)
    return coords[keep], values[keep]


def level_span(level: Level, env: Mapping[str, np.ndarray], scalars: Mapping[str, object],
               arrays: StoredArrays, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """For each of the ``rows`` listed prefixes: its first position at ``level`` and how
    many positions it has there (the level's bounds evaluated on the prefixes)."""
    low = _bound(level.lower, env, scalars, arrays, rows, np.maximum)
    high = _bound(level.upper, env, scalars, arrays, rows, np.minimum)
    return low, np.maximum(high - low + 1, 0)


def descend(env: dict[str, np.ndarray], index: str, low: np.ndarray, counts: np.ndarray, name: str) -> int:
    """List the positions of physical index ``index`` under each prefix in ``env`` (in place):
    each prefix repeated ``counts`` times, ``index`` running from ``low``.  The new number of rows."""
    total = int(counts.sum())
    require((total, len(env) + 3), INDEX_DTYPE, f"tensor {name}: enumerating the stored positions")
    for key in env:
        env[key] = np.repeat(env[key], counts)
    starts = np.repeat(low, counts)
    offsets = np.arange(total, dtype=INDEX_DTYPE) - np.repeat(np.cumsum(counts) - counts, counts)
    env[index] = starts + offsets
    return total


def read_positions(layout: Layout, reading: LayoutLevels, env: Mapping[str, np.ndarray],
                   scalars: Mapping[str, object], arrays: StoredArrays, rows: int,
                   name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Coordinates and value of each of the ``rows`` listed positions (every level listed),
    and which of them the relation's guards keep."""
    values_env = {**scalars, **env}
    coordinates = [np.broadcast_to(np.asarray(reading.definitions[c].evaluate(values_env, arrays),
                                              dtype=INDEX_DTYPE), (rows,)) for c in layout.logical]
    keep = np.ones(rows, dtype=bool)
    guard_env = dict(values_env)
    guard_env.update(zip(layout.logical, coordinates))
    for guard in reading.guards:
        keep &= _evaluate_constraint(guard, guard_env, arrays, rows)
    value_positions = tuple(np.broadcast_to(np.asarray(index.evaluate(values_env), dtype=INDEX_DTYPE), (rows,))
                            for index in layout.values_index)
    value_array = np.asarray(arrays.fields[layout.values_field])
    for axis, position in enumerate(value_positions):
        outside = (position < 0) | (position >= value_array.shape[axis])
        if rows and outside.any():
            bad = int(position[np.flatnonzero(outside)[0]])
            raise layout.error("values", f"layout {layout.spec}: the values index {layout.values_text()} reads "
                               f"{layout.values_field} at {bad} (axis {axis}), outside its "
                               f"{value_array.shape[axis]} elements (tensor {name})")
    values = value_array[value_positions] if rows else np.zeros(0, dtype=value_array.dtype)
    coords = np.stack(coordinates, axis=1) if rows else np.zeros((0, layout.order), dtype=INDEX_DTYPE)
    return coords.astype(INDEX_DTYPE), values, keep


def _bound(expressions: Sequence[Affine], env, scalars, arrays, rows: int, combine) -> np.ndarray:
    result = None
    for expression in expressions:
        value = np.broadcast_to(np.asarray(expression.evaluate({**scalars, **env}, arrays), dtype=INDEX_DTYPE),
                                (rows,))
        result = value if result is None else combine(result, value)
    return np.array(result, dtype=INDEX_DTYPE)


def _evaluate_constraint(constraint: Constraint, env, arrays, rows: int) -> np.ndarray:
    left = np.asarray(constraint.left.evaluate(env, arrays))
    right = np.asarray(constraint.right.evaluate(env, arrays))
    result = {"=": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
              ">": np.greater, ">=": np.greater_equal}[constraint.op](left, right)
    return np.broadcast_to(result, (rows,))
