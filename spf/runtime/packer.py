"""The layout-reading Python packer: a layout's fields built from sorted, duplicate-free
coordinates, level by level (:mod:`spf.space.levels`).  A physical index is either

* *determined* by the coordinates: some definition ``c = a*p + rest`` can be solved
  for it, exactly or as a floor division when the unknown rest stays within
  ``[0, a)`` (``i = 2*pI + pii`` with ``0 <= pii < 2`` gives ``pI = i / 2``); or
* *enumerated*: entries with equal outer positions form a group, and the distinct
  values of the level's *keys* (the UF calls on it, such as ``colIdx(pj) = j``) get
  consecutive positions, ordered as the keys' properties require.  A level bounded by
  ``g(q) <= p < g(q+1)`` fills the pointer array g; a level bounded by a count field
  sets that count; a level of fixed width is padded.

The reference the generated assembly is tested against, and the path of layouts it does
not assemble (:func:`spf.runtime.packing.reference_pack`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from spf.errors import PackError, SpfError
from spf.runtime.memory import allocate
from spf.runtime.value_checks import INDEX_DTYPE
from spf.space.expressions import UFCall
from spf.space.levels import LayoutLevels, read_levels, remainder_fits
from spf.space.properties import CovaryingMonotonic, Monotonic, PeriodicMonotonic, Range, from_spec

if TYPE_CHECKING:
    from spf.layout_library.model import Layout


class Packer:
    """Builds a layout's fields from sorted, duplicate-free coordinates."""

    def __init__(self, layout, name: str):
        self.layout = layout
        self.name = name
        self.reading: LayoutLevels = read_levels(layout)
        self.properties = [from_spec(s) for s in layout.properties]

    def fail(self, message: str) -> PackError:
        return PackError(f"tensor {self.name}: {message}")

    def layout_error(self, where: str, message: str) -> SpfError:
        """A problem of the layout file that packing found, at ``where`` in the file."""
        return self.layout.error(where, f"layout {self.layout.spec}: {message} (packing tensor {self.name})")

    def _what(self, declared) -> str:
        """What an allocation is for, as a refusal names it."""
        return f"tensor {self.name}: array {declared.name} of {self.layout.spec} ({declared})"

    # -- what is known about unknown terms
    def _range_of(self, atom, scalars) -> tuple[int, int] | None:
        """Inclusive value range of a later physical index or a call, when constant."""
        if isinstance(atom, UFCall):
            for prop in self.properties:
                if isinstance(prop, Range) and prop.arrays[0] == atom.function:
                    try:
                        return int(prop.low.evaluate(scalars, {})), int(prop.high.evaluate(scalars, {})) - 1
                    except (KeyError, SpfError):
                        return None
            return None
        level = next(l for l in self.reading.levels if l.index == atom)
        try:
            low = max(int(e.evaluate(scalars, {})) for e in level.lower)
            high = min(int(e.evaluate(scalars, {})) for e in level.upper)
        except (KeyError, SpfError, TypeError):
            return None
        return low, high

    def _solve(self, target, env: dict, scalars, rows: int) -> np.ndarray | None:
        """Values of ``target`` (a physical index or a call) from the definitions, or None."""
        for coordinate, expression in self.reading.definitions.items():
            coefficients = dict(expression.terms)
            if target not in coefficients:
                continue
            own = coefficients.pop(target)
            known = env[coordinate] - expression.constant
            unknown = []
            for atom, coefficient in coefficients.items():
                value = self._known(atom, env, scalars)
                if value is None:
                    unknown.append((atom, coefficient))
                else:
                    known = known - coefficient * value
            if own < 0:
                own, known = -own, -known
                unknown = [(a, -c) for a, c in unknown]
            if not unknown:
                if np.any(known % own):
                    continue
                return np.broadcast_to(known // own, (rows,)).astype(INDEX_DTYPE)
            if remainder_fits(unknown, own, lambda atom: self._range_of(atom, scalars)):
                return np.broadcast_to(known // own, (rows,)).astype(INDEX_DTYPE)
        return None

    def _known(self, atom, env, scalars):
        if isinstance(atom, UFCall):
            return env.get(atom)
        if atom in env:
            return env[atom]
        if atom in scalars:
            return scalars[atom]
        return None

    def _fill_direct(self, env, scalars, rows: int) -> None:
        """Solve every later index that a definition gives exactly (``pi = i``)."""
        progress = True
        while progress:
            progress = False
            for level in self.reading.levels:
                if level.index in env:
                    continue
                value = self._solve(level.index, env, scalars, rows)
                if value is not None and self._exact(level.index, env, scalars):
                    env[level.index] = value
                    progress = True

    def _exact(self, index: str, env, scalars) -> bool:
        for coordinate, expression in self.reading.definitions.items():
            coefficients = dict(expression.terms)
            if index in coefficients and all(
                    a == index or self._known(a, env, scalars) is not None for a in coefficients):
                return True
        return False

    def _order(self, call: UFCall) -> tuple[bool, bool]:
        """(has an order, decreasing) for a key array from its properties."""
        for prop in self.properties:
            if prop.arrays and prop.arrays[0] == call.function and isinstance(
                    prop, (Monotonic, PeriodicMonotonic, CovaryingMonotonic)):
                return True, not prop.increasing
        return False, False

    # -- the levels
    def pack(self, coords: np.ndarray, values: np.ndarray, shape: tuple[int, ...]) -> dict[str, object]:
        layout = self.layout
        scalars: dict[str, int] = dict(layout.compute_scalars(shape))
        rows = len(values)
        env: dict = {c: coords[:, k].astype(INDEX_DTYPE) for k, c in enumerate(layout.logical)}
        fields: dict[str, object] = {}
        arrays_by_name = {f.name: f for f in layout.arrays}
        for level in self.reading.levels:
            # level-wide entries of the full dense range exist for determined levels
            determined = self._solve(level.index, env, scalars, rows)
            if determined is not None:
                env[level.index] = determined
                self._fill_direct(env, scalars, rows)
                continue
            self._fill_direct(env, scalars, rows)
            keys = [c for c in level.calls if any(c in dict(e.terms) for e in self.reading.definitions.values())]
            if not keys:
                raise self.layout_error(level.index, f"cannot pack physical index {level.index}: it is "
                                        "neither determined by the coordinates nor keyed by an index array")
            key_values = []
            for key in keys:
                value = self._solve(key, env, scalars, rows)
                if value is None:
                    raise self.layout_error(key.function, f"cannot derive {key} from the coordinates")
                key_values.append(value)
                env[key] = value
            self._enumerate_level(level, keys, key_values, env, scalars, fields, rows)
            self._fill_direct(env, scalars, rows)
        missing_counts = [f.name for f in layout.counts if f.name not in scalars]
        if missing_counts:
            raise self.layout_error(missing_counts[0], f"packing did not determine {missing_counts}")
        value_field = arrays_by_name[layout.values_field]
        value_shape = tuple(int(d.evaluate(scalars)) for d in value_field.dimensions)
        value_array = allocate(value_shape, value_field.numpy_dtype, self._what(value_field))
        positions = tuple(np.broadcast_to(np.asarray(index.evaluate({**scalars, **env}), dtype=INDEX_DTYPE),
                                          (rows,)) for index in layout.values_index)
        if rows:
            outside = np.zeros(rows, dtype=bool)
            for axis, position in enumerate(positions):
                outside |= (position < 0) | (position >= value_shape[axis])
            if outside.any():
                entry = tuple(int(c) for c in coords[np.flatnonzero(outside)[0]])
                raise self.fail(f"the pattern does not fit layout {layout.spec}: entry {entry} "
                                "cannot be stored")
            value_array[positions] = values
        fields[layout.values_field] = value_array
        for declared in layout.arrays:
            if declared.name not in fields:
                shape_ = tuple(int(d.evaluate(scalars)) for d in declared.dimensions)
                if int(np.prod(shape_, dtype=object)) == 0:
                    fields[declared.name] = allocate(shape_, declared.numpy_dtype, self._what(declared))
                else:
                    raise self.layout_error(declared.name, f"packing did not fill array {declared.name}")
        fields.update(scalars)
        return fields

    def _enumerate_level(self, level, keys, key_values, env, scalars, fields, rows) -> None:
        layout = self.layout
        prefix = [l.index for l in self.reading.levels[:level.position]]
        prefix_columns = [env[p] for p in prefix]
        ordered, decreasing = self._order(keys[0])
        sign = -1 if decreasing else 1
        # group entries by (prefix, key); rank keys within each prefix group
        columns = prefix_columns + [sign * k for k in key_values]
        if rows:
            order = np.lexsort(columns[::-1]) if columns else np.arange(rows)
            sorted_columns = [c[order] for c in columns]
            new_key = np.ones(rows, dtype=bool)
            new_group = np.ones(rows, dtype=bool)
            if rows > 1:
                differs_prefix = np.zeros(rows - 1, dtype=bool)
                for c in sorted_columns[:len(prefix)]:
                    differs_prefix |= c[1:] != c[:-1]
                differs_key = differs_prefix.copy()
                for c in sorted_columns[len(prefix):]:
                    differs_key |= c[1:] != c[:-1]
                new_group[1:] = differs_prefix
                new_key[1:] = differs_key
            key_number = np.cumsum(new_key) - 1
            group_start_key = np.maximum.accumulate(np.where(new_group, key_number, 0))
            rank_sorted = key_number - group_start_key
            rank = np.empty(rows, dtype=INDEX_DTYPE)
            rank[order] = rank_sorted
            group_sizes = np.bincount(np.cumsum(new_group) - 1, weights=new_key).astype(INDEX_DTYPE)
        else:
            rank = np.zeros(0, dtype=INDEX_DTYPE)
            group_sizes = np.zeros(0, dtype=INDEX_DTYPE)
        largest = int(group_sizes.max()) if group_sizes.size else 0
        segment = level.segment()
        if segment is not None:
            start, _ = segment
            pointer = arrays_by_name(layout)[start.function]
            length = int(pointer.dimensions[0].evaluate(scalars))
            q = np.asarray(start.arguments[0].evaluate({**scalars, **env}, {}), dtype=INDEX_DTYPE)
            q = np.broadcast_to(q, (rows,))
            if rows and (q.min() < 0 or q.max() >= length - 1):
                raise self.layout_error(start.function, f"segment index {start.arguments[0]} runs outside "
                                        f"{start.function}")
            pointer_values = allocate((length,), INDEX_DTYPE, self._what(pointer))
            counts = np.bincount(q[_first_per_key(rank, env, prefix, rows)], minlength=length - 1) \
                if rows else np.zeros(length - 1, dtype=INDEX_DTYPE)
            pointer_values[1:] = np.cumsum(counts)
            fields[start.function] = pointer_values
            position = pointer_values[q] + rank
            total = int(pointer_values[-1])
            padding_width = None
        else:
            low = max(int(e.evaluate({**scalars}, {})) if not (e.names() - set(scalars)) else 0
                      for e in level.lower)
            width_expressions = [e for e in level.upper]
            counts_named = [n for e in width_expressions for n in e.names()
                            if n in {f.name for f in layout.counts} and n not in scalars]
            if counts_named:
                # the level's extent is a count the packing decides
                extent = largest if prefix else (int(key_number[-1]) + 1 if rows else 0)
                for expression in width_expressions:
                    for count in expression.names():
                        if count in counts_named:
                            # expression = count + c  (inclusive upper bound count - 1)
                            scalars[count] = extent - 1 - int(expression.constant) + low
                capacity = extent
            else:
                high = min(int(e.evaluate(scalars, {})) for e in level.upper)
                capacity = high - low + 1
                if largest > capacity:
                    raise self.fail(f"the pattern does not fit layout {layout.spec}: a group has "
                                    f"{largest} entries where {level.index} has room for {capacity}")
            position = low + rank
            total = capacity
            padding_width = capacity if prefix else None
        env[level.index] = np.asarray(position, dtype=INDEX_DTYPE)
        # counts sized by this level (e.g. colIdx: int[nnz] sets nnz)
        for key in keys:
            declared = arrays_by_name(layout)[key.function]
            if len(declared.dimensions) == 1:
                for count in declared.dimensions[0].names():
                    if count not in scalars and count in {f.name for f in layout.counts}:
                        scalars[count] = total - int(declared.dimensions[0].to_affine().constant)
        # key arrays
        for key, value in zip(keys, key_values):
            declared = arrays_by_name(layout)[key.function]
            array_shape = tuple(int(d.evaluate(scalars)) for d in declared.dimensions)
            fill = self._padding_value(key, scalars)
            array = allocate(array_shape, INDEX_DTYPE, self._what(declared), fill)
            where = tuple(np.broadcast_to(np.asarray(a.evaluate({**scalars, **env}, {}), dtype=INDEX_DTYPE), (rows,))
                          for a in key.arguments)
            if rows:
                for axis, index in enumerate(where):
                    if index.min() < 0 or index.max() >= array_shape[axis]:
                        raise self.layout_error(key.function, f"the relation puts {key} at index "
                                                f"{int(index.max())} of {key.function}, outside its "
                                                f"declared {array_shape[axis]} elements ({declared})")
                array[where] = value
            if padding_width is not None and ordered:
                array = self._pad_ordered(key, array, level, env, scalars, rows, value, decreasing)
            fields[key.function] = array
        if padding_width is not None and ordered and rows:
            # positions moved when padding keys were sorted in: find each entry's slot again
            array = fields[keys[0].function]
            env[level.index] = self._slot_of(keys[0], array, env, scalars, rows, key_values[0], level)

    def _padding_value(self, key: UFCall, scalars) -> int:
        extent = self._range_of(key, scalars)
        return extent[0] if extent is not None else -1

    def _pad_ordered(self, key, array, level, env, scalars, rows, value, decreasing):
        """Fill padding slots of an ordered key with unused values, keeping the order."""
        extent = self._range_of(key, scalars)
        if extent is None:
            raise self.layout_error(key.function, f"{key.function} is ordered and padded but "
                                    "has no range property to choose padding values from")
        if array.size == 0:
            return array
        # slots of one group lie along the last argument, in blocks of the level's capacity
        rows_view = array.reshape(-1, array.shape[-1])
        where = tuple(np.broadcast_to(np.asarray(a.evaluate({**scalars, **env}, {}), dtype=INDEX_DTYPE), (rows,))
                      for a in key.arguments)
        marker = np.zeros(array.shape, dtype=bool)
        if rows:
            marker[where] = True
        used = marker.reshape(rows_view.shape)
        capacity = self._capacity(level, scalars)
        if rows_view.shape[1] % capacity:
            raise self.layout_error(key.function, f"the slots of {key.function} do not split "
                                    f"into groups of {capacity}")
        blocks = rows_view.reshape(-1, capacity)
        real = used.reshape(-1, capacity)
        missing = capacity - real.sum(axis=1)
        # A block's padding is its smallest unused values: at most `capacity` values are used,
        # so these are among the first `capacity` candidates.
        candidates = np.arange(extent[0], min(extent[1] + 1, extent[0] + capacity), dtype=INDEX_DTYPE)
        taken = np.any((blocks[:, :, None] == candidates[None, None, :]) & real[:, :, None], axis=1)
        spare = ~taken & (np.cumsum(~taken, axis=1) <= missing[:, None])
        if np.any(spare.sum(axis=1) < missing):
            raise self.fail(f"layout {self.layout.spec}: no unused {key.function} values left "
                            "to pad a group")
        unused = np.iinfo(INDEX_DTYPE).max  # sorts after the `capacity` real and spare values
        combined = np.sort(np.concatenate([np.where(real, blocks, unused),
                                           np.where(spare, candidates[None, :], unused)], axis=1),
                           axis=1)[:, :capacity]
        need = missing > 0
        blocks[need] = combined[need][:, ::-1] if decreasing else combined[need]
        return blocks.reshape(array.shape)

    def _capacity(self, level, scalars) -> int:
        low = max(int(e.evaluate(scalars, {})) for e in level.lower)
        high = min(int(e.evaluate(scalars, {})) for e in level.upper)
        return high - low + 1

    def _slot_of(self, key, array, env, scalars, rows, value, level):
        """For each entry, the position along ``level`` whose key holds the entry's value."""
        low = max(int(e.evaluate(scalars, {})) for e in level.lower)
        capacity = self._capacity(level, scalars)
        result = np.full(rows, -1, dtype=INDEX_DTYPE)
        for slot in range(low, low + capacity):
            trial = dict(env)
            trial[level.index] = np.full(rows, slot, dtype=INDEX_DTYPE)
            where = tuple(np.broadcast_to(np.asarray(a.evaluate({**scalars, **trial}, {}), dtype=INDEX_DTYPE), (rows,))
                          for a in key.arguments)
            match = array[where] == value
            result = np.where((result < 0) & match, slot, result)
        return result


def arrays_by_name(layout: Layout) -> dict:
    return {f.name: f for f in layout.arrays}


def _first_per_key(rank, env, prefix, rows) -> np.ndarray:
    """Mask of one entry per distinct (prefix, rank)."""
    if not rows:
        return np.zeros(0, dtype=bool)
    columns = [env[p] for p in prefix] + [rank]
    stacked = np.stack(columns, axis=1)
    _, first = np.unique(stacked, axis=0, return_index=True)
    mask = np.zeros(rows, dtype=bool)
    mask[first] = True
    return mask
