"""A Tensor of order 1 or 2 as a scipy.sparse array (:meth:`spf.Tensor.to_scipy`).

Where the layout's relation *is* one of scipy's formats, scipy gets the Tensor's own
read-only arrays, not copies.  That is read off the relation level by level
(:mod:`spf.levels`), so a user layout of the same form shares its arrays too:

* CSR (CSC): a dense level over the rows (columns), then a level delimited by a
  pointer array ``g(p) <= q < g(p + 1)`` whose index array gives the other coordinate;
* COO: one level of positions whose index arrays give every coordinate.

scipy sorts a compressed array's indices *in place* unless it knows they are sorted, which
read-only arrays forbid; so a compressed layout shares its arrays only when its properties
say each segment is strictly increasing (``periodic_monotonic(F, g, increasing, strict)``),
and then scipy is told (``has_canonical_format``).  scipy's COO operations build new arrays,
so every coordinate list of order 2 shares; it is canonical when its coordinates are
declared lexicographically increasing (``covarying_monotonic``).  A sparse vector shares
only when declared strictly increasing (a 1-D ``coo_array`` converts to CSR over the same
arrays, then sorts them in place).  Any other layout (padded, blocked,
doubly compressed, unsorted segments, ...) goes through its stored entries, as
:meth:`~spf.Tensor.to_coo` gives them, into a new ``coo_array``.
"""

from __future__ import annotations

import numpy as np
import scipy
from scipy import sparse

from spf.errors import SpfError
from spf.expressions import Affine, UFCall
from spf.levels import read_levels


def to_scipy(tensor) -> sparse.sparray:
    """``tensor`` as a ``csr_array``, ``csc_array`` or ``coo_array`` (1-D for order 1)."""
    if tensor.order not in (1, 2):
        raise SpfError(f"tensor {tensor.name}: to_scipy() returns scipy.sparse arrays of order 1 or 2; this "
                       f"tensor has order {tensor.order} (to_coo() gives its coordinates and values)")
    if tensor.order == 1 and not one_dimensional_arrays():
        raise SpfError(f"tensor {tensor.name}: to_scipy() of an order-1 tensor needs 1-D sparse arrays, which "
                       f"scipy {scipy.__version__} does not have (scipy 1.13 or later has them)")
    shared = _shared(tensor)
    if shared is not None:
        return shared
    coords, values, shape = tensor.to_coo()  # lexicographic, padding dropped
    array = sparse.coo_array((values, tuple(coords.T)), shape=shape)
    array.has_canonical_format = not (len(values) > 1 and np.any(np.all(coords[1:] == coords[:-1], axis=1)))
    return array


def one_dimensional_arrays() -> bool:
    """Whether the installed scipy has 1-D sparse arrays."""
    try:
        return sparse.coo_array((np.ones(1), (np.zeros(1, dtype=np.int32),)), shape=(1,)).ndim == 1
    except (AttributeError, TypeError, ValueError):
        return False


def _shared(tensor) -> sparse.sparray | None:
    """The scipy array over the tensor's own arrays, or None when the layout is none of scipy's formats."""
    layout = tensor.layout
    if layout.padded:
        return None
    reading = read_levels(layout)
    if reading.guards or [str(index) for index in layout.values_index] != [reading.levels[-1].index]:
        return None
    scalars = {name: value for name, value in tensor.fields.items() if not isinstance(value, np.ndarray)}
    values = tensor.fields[layout.values_field]
    if len(reading.levels) == 2 and tensor.order == 2:
        return _compressed(tensor, reading, scalars, values)
    if len(reading.levels) == 1:
        return _coordinates(tensor, reading, scalars, values)
    return None


def _compressed(tensor, reading, scalars, values) -> sparse.sparray | None:
    outer, inner = reading.levels
    dense = [mode for mode, name in enumerate(tensor.layout.logical)
             if reading.definitions[name] == Affine.of(outer.index)]
    segment = inner.segment()
    if len(dense) != 1 or segment is None or segment[0].arguments != (Affine.of(outer.index),):
        return None
    mode = dense[0]
    extent = tensor.shape[mode]
    if _bounds(outer, scalars) != (0, extent - 1):
        return None
    indices = _array_at(reading.definitions[tensor.layout.logical[1 - mode]], inner.index)
    pointer = segment[0].function
    if indices is None:
        return None
    if not any(p.kind == "periodic_monotonic" and p.arrays == (indices,) and p.period_array == pointer
               and p.increasing and p.strict for p in tensor.layout.properties):
        return None  # scipy would sort unsorted segments in place
    pointers, indices = tensor.fields[pointer], tensor.fields[indices]
    if pointers.shape != (extent + 1,) or pointers[0] != 0 or not pointers[-1] == len(indices) == len(values):
        return None
    kind = sparse.csr_array if mode == 0 else sparse.csc_array
    array = kind((values, indices, pointers), shape=tensor.shape, copy=False)
    array.has_canonical_format = True  # sorted, no duplicates: scipy never sorts in place
    return array


def _coordinates(tensor, reading, scalars, values) -> sparse.sparray | None:
    level = reading.levels[0]
    arrays = [_array_at(reading.definitions[name], level.index) for name in tensor.layout.logical]
    bounds = _bounds(level, scalars)
    if None in arrays or bounds is None or bounds[0] != 0 or len(set(arrays)) != len(arrays):
        return None
    count = bounds[1] + 1
    coordinates = [tensor.fields[name] for name in arrays]
    if any(array.shape != (count,) for array in coordinates + [values]):
        return None
    canonical = any((p.kind == "covarying_monotonic" and p.arrays == tuple(arrays) and p.increasing)
                    or (p.kind == "monotonic" and p.arrays == tuple(arrays) and p.increasing and p.strict)
                    for p in tensor.layout.properties)
    if tensor.order == 1 and not canonical:
        return None  # a 1-D coo_array's tocsr() keeps its arrays, then sorts them in place
    array = sparse.coo_array((values, tuple(coordinates)), shape=tensor.shape, copy=False)
    array.has_canonical_format = canonical
    return array


def _array_at(expression: Affine, index: str) -> str | None:
    """``F`` when ``expression`` is exactly ``F(index)``."""
    if expression.constant == 0 and len(expression.terms) == 1:
        atom, coefficient = expression.terms[0]
        if isinstance(atom, UFCall) and coefficient == 1 and atom.arguments == (Affine.of(index),):
            return atom.function
    return None


def _bounds(level, scalars) -> tuple[int, int] | None:
    """A level's first and last position when they are single bounds over scalar fields."""
    if len(level.lower) != 1 or len(level.upper) != 1:
        return None
    ends = []
    for bound in (level.lower[0], level.upper[0]):
        if any(True for _ in bound.calls()) or not bound.names() <= scalars.keys():
            return None
        ends.append(int(bound.evaluate(scalars, {})))
    return ends[0], ends[1]
