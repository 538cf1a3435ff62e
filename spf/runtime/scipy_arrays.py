"""scipy.sparse arrays that are a layout's arrays, both ways: :meth:`spf.Tensor.to_scipy`,
and :func:`spf.pack` of scipy data without a copy.

Where the layout's relation *is* one of scipy's formats, the two share their arrays.  That
is read off the relation level by level (:mod:`spf.space.levels`), not off the layout's name, so
a user layout of the same form shares its arrays too:

* CSR (CSC): a dense level over the rows (columns), then a level delimited by a
  pointer array ``g(p) <= q < g(p + 1)`` whose index array gives the other coordinate;
* COO: one level of positions whose index arrays give every coordinate.

To scipy (:func:`to_scipy`): by default the array's arrays are copies the caller owns (scipy's
in-place methods work; the Tensor, read by kernels unchecked, and whatever shares its arrays
stay valid); ``copy=False`` hands scipy the Tensor's read-only arrays.  BCSR (blocks dividing
the shape) is a ``bsr_array``, DIA a ``dia_array`` (:func:`padded_form`).  Shared arrays
follow these rules: scipy sorts a compressed array's indices *in place* unless it knows they are
sorted, which read-only arrays forbid; so a compressed layout shares its arrays only when
its properties say each segment is strictly increasing (``periodic_monotonic(F, g,
increasing, strict)``), and then scipy is told (``has_canonical_format``).  scipy's COO
operations build new arrays, so every coordinate list of order 2 shares; it is canonical
when its coordinates are declared lexicographically increasing (``covarying_monotonic``).
A sparse vector shares only when declared strictly increasing (a 1-D ``coo_array``
converts to CSR over the same arrays, then sorts them in place).  Any other layout
(padded, blocked, doubly compressed, unsorted segments, ...) goes through its stored
entries, as :meth:`~spf.Tensor.to_coo` gives them, into a new ``coo_array``.

From scipy (:func:`shared_fields`): the scipy object's arrays become the layout's fields
when they already are them: the same format, each array of the field's declared dtype,
C-contiguous, in memory numpy owns (so it can be made read-only) or that a kernel handed
over read-only (a Tensor's, back from :meth:`~spf.Tensor.to_scipy`), and, checked here on the
arrays themselves (scipy's ``has_sorted_indices`` and ``has_canonical_format`` flags are not
trusted), scipy's meaning is the layout's (pointers from 0 to nnz, non-decreasing;
coordinates inside the shape; no coordinate stored twice, which scipy would sum) and every
property and assumption of the layout holds.  Each check is a vectorised pass over the
arrays, sorting only to look for duplicates in unsorted input.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

import numpy as np
import scipy
from scipy import sparse

from spf.errors import PackError, SpfError, UNNAMED
from spf.runtime.read_only import handed_over
from spf.runtime.validation import holds
from spf.space.expressions import Affine, Constraint, UFCall, conjuncts
from spf.space.levels import Level, read_levels
from spf.space.properties import CovaryingMonotonic, Injective, Monotonic, PeriodicMonotonic, Range, from_spec

if TYPE_CHECKING:
    from spf.layout_library.model import Layout
    from spf.runtime.tensor import Tensor


@dataclass(frozen=True)
class Form:
    """How a layout's relation is one of scipy's formats.

    ``format``: "csr", "csc" or "coo"; ``pointer``: the field that is ``indptr`` (csr, csc);
    ``coordinates``: the fields that are ``indices`` (csr, csc) or the coordinates in mode
    order (coo); ``values``: the field that is ``data``; ``level``: the level whose bounds
    must be ``[0, extent)``, the dense level (csr, csc) or the positions (coo); ``mode``:
    the coordinate the dense level gives (csr, csc).
    """

    format: str
    pointer: str | None
    coordinates: tuple[str, ...]
    values: str
    level: Level
    mode: int | None = None


@functools.lru_cache(maxsize=256)
def form(layout: Layout) -> Form | None:
    """The scipy format ``layout``'s relation is, or None (read once per layout)."""
    if layout.padded:
        return None
    try:
        reading = read_levels(layout)
    except SpfError:
        return None
    if reading.guards or [str(index) for index in layout.values_index] != [reading.levels[-1].index]:
        return None
    if len(reading.levels) == 2 and layout.order == 2:
        outer, inner = reading.levels
        dense = [mode for mode, name in enumerate(layout.logical)
                 if reading.definitions[name] == Affine.of(outer.index)]
        segment = inner.segment()
        if len(dense) != 1 or segment is None or segment[0].arguments != (Affine.of(outer.index),):
            return None
        indices = _array_at(reading.definitions[layout.logical[1 - dense[0]]], inner.index)
        if indices is None:
            return None
        return Form("csr" if dense[0] == 0 else "csc", segment[0].function, (indices,), layout.values_field,
                    outer, dense[0])
    if len(reading.levels) == 1:
        level = reading.levels[0]
        arrays = tuple(_array_at(reading.definitions[name], level.index) for name in layout.logical)
        if None in arrays or len(set(arrays)) != len(arrays):
            return None
        return Form("coo", None, arrays, layout.values_field, level)
    return None


# ----------------------------------------------------------------------------- to scipy


def to_scipy(tensor: Tensor, copy: bool = True) -> sparse.sparray:
    """``tensor`` as a ``csr_array``, ``csc_array``, ``bsr_array``, ``dia_array`` or
    ``coo_array`` (1-D for order 1).  With ``copy`` its arrays are new and writable (the
    caller's: scipy's in-place methods work, the Tensor is untouched); without, a CSR, CSC,
    BSR or coordinate-list form shares the Tensor's read-only arrays."""
    if tensor.order not in (1, 2):
        raise SpfError(f"tensor {tensor.name}: to_scipy() returns scipy.sparse arrays of order 1 or 2; this "
                       f"tensor has order {tensor.order} (to_coo() gives its coordinates and values)")
    if tensor.order == 1 and not one_dimensional_arrays():
        raise SpfError(f"tensor {tensor.name}: to_scipy() of an order-1 tensor needs 1-D sparse arrays, which "
                       f"scipy {scipy.__version__} does not have (scipy 1.13 or later has them)")
    shared = _shared(tensor) if not tensor.layout.padded else _blocked(tensor)
    if shared is None and tensor.layout.padded:
        shared = _diagonals(tensor)  # new arrays whatever copy says
    if shared is not None:
        return _owned(shared) if copy and not isinstance(shared, sparse.dia_array) else shared
    coords, values, shape = tensor.to_coo()  # new arrays (lexicographic, padding dropped)
    array = sparse.coo_array((values, tuple(coords.T)), shape=shape)
    array.has_canonical_format = not (len(values) > 1 and np.any(np.all(coords[1:] == coords[:-1], axis=1)))
    return array


def _owned(shared: sparse.sparray) -> sparse.sparray:
    """A copy of ``shared`` in new, writable arrays, scipy told it is canonical as ``shared`` is."""
    owned = shared.copy()
    owned.has_canonical_format = shared.has_canonical_format
    return owned


def one_dimensional_arrays() -> bool:
    """Whether the installed scipy has 1-D sparse arrays."""
    try:
        return sparse.coo_array((np.ones(1), (np.zeros(1, dtype=np.int32),)), shape=(1,)).ndim == 1
    except (AttributeError, TypeError, ValueError):
        return False


def _shared(tensor) -> sparse.sparray | None:
    """The scipy array over the tensor's own arrays, or None when the layout is none of scipy's formats."""
    found = form(tensor.layout)
    if found is None:
        return None
    scalars = {name: value for name, value in tensor.fields.items() if not isinstance(value, np.ndarray)}
    if found.format == "coo":
        return _coordinates(tensor, found, scalars)
    return _compressed(tensor, found, scalars)


def _compressed(tensor, found: Form, scalars) -> sparse.sparray | None:
    extent = tensor.shape[found.mode]
    if _bounds(found.level, scalars) != (0, extent - 1):
        return None
    if not _sorted_segments(tensor.layout, found):
        return None  # scipy would sort unsorted segments in place
    values = tensor.fields[found.values]
    pointers, indices = tensor.fields[found.pointer], tensor.fields[found.coordinates[0]]
    if pointers.shape != (extent + 1,) or pointers[0] != 0 or not pointers[-1] == len(indices) == len(values):
        return None
    kind = sparse.csr_array if found.format == "csr" else sparse.csc_array
    array = kind((values, indices, pointers), shape=tensor.shape, copy=False)
    array.has_canonical_format = True  # sorted, no duplicates: scipy never sorts in place
    return array


def _coordinates(tensor, found: Form, scalars) -> sparse.sparray | None:
    bounds = _bounds(found.level, scalars)
    if bounds is None or bounds[0] != 0:
        return None
    count = bounds[1] + 1
    values = tensor.fields[found.values]
    coordinates = [tensor.fields[name] for name in found.coordinates]
    if any(array.shape != (count,) for array in coordinates + [values]):
        return None
    canonical = any((p.kind == "covarying_monotonic" and p.arrays == found.coordinates and p.increasing)
                    or (p.kind == "monotonic" and p.arrays == found.coordinates and p.increasing and p.strict)
                    for p in tensor.layout.properties)
    if tensor.order == 1 and not canonical:
        return None  # a 1-D coo_array's tocsr() keeps its arrays, then sorts them in place
    array = sparse.coo_array((values, tuple(coordinates)), shape=tensor.shape, copy=False)
    array.has_canonical_format = canonical
    return array


@dataclass(frozen=True)
class PaddedForm:
    """How a padded layout's relation is scipy's BSR (``format`` "bsr": ``pointer`` is
    ``indptr``, ``coordinates`` the block columns, blocks of ``block`` rows and columns) or
    DIA ("dia": ``coordinates`` the diagonals' offsets, ``values[d][i]`` the entry ``(i, i +
    offsets[d])``); ``extents``: the scalar fields bounding the outer level(s)."""

    format: str
    pointer: str | None
    coordinates: str
    values: str
    block: tuple[int, int]
    extents: tuple[Affine, ...]


@functools.lru_cache(maxsize=256)
def padded_form(layout: Layout) -> PaddedForm | None:
    """The scipy format (BSR or DIA) a padded layout's relation is, or None."""
    if not layout.padded or layout.order != 2:
        return None
    try:
        reading = read_levels(layout)
    except SpfError:
        return None
    levels, definitions = reading.levels, reading.definitions
    row, column = (definitions[name] for name in layout.logical)
    values_index = [str(index) for index in layout.values_index]
    if len(levels) == 4 and not reading.guards:
        blocks, stored, within_row, within_column = levels
        segment = stored.segment()
        sizes = [_constant_extent(level) for level in (within_row, within_column)]
        if segment is None or segment[0].arguments != (Affine.of(blocks.index),) or None in sizes \
                or _zero_based(blocks) is None or values_index != [stored.index, within_row.index, within_column.index]:
            return None
        r, c = sizes
        if row != Affine.build({blocks.index: r, within_row.index: 1}, 0):
            return None
        column_array = _array_at(column - Affine.of(within_column.index), stored.index, scale=c)
        if column_array is None:
            return None
        return PaddedForm("bsr", segment[0].function, column_array, layout.values_field, (r, c),
                          (_zero_based(blocks),))
    if len(levels) == 2 and values_index == [levels[0].index, levels[1].index]:
        diagonals, rows = levels
        offsets = _array_at(column - Affine.of(rows.index), diagonals.index)
        if offsets is None or row != Affine.of(rows.index) or None in (_zero_based(diagonals), _zero_based(rows)):
            return None
        return PaddedForm("dia", None, offsets, layout.values_field, (1, 1),
                          (_zero_based(diagonals), _zero_based(rows)))
    return None


def _constant_extent(level) -> int | None:
    """``n`` when the level runs over ``0 <= index < n`` for a constant ``n``."""
    if len(level.lower) == 1 and len(level.upper) == 1 and level.lower[0] == Affine.of(0) \
            and not level.upper[0].terms:
        return level.upper[0].constant + 1
    return None


def _zero_based(level) -> Affine | None:
    """``n`` (over scalar fields) when the level runs over ``0 <= index < n``."""
    if len(level.lower) == 1 and len(level.upper) == 1 and level.lower[0] == Affine.of(0) \
            and not any(True for _ in level.upper[0].calls()):
        return level.upper[0] + 1
    return None


def _blocked(tensor) -> sparse.bsr_array | None:
    """A BSR layout as a ``bsr_array`` over the Tensor's arrays, or None (another layout,
    block columns not declared sorted, or a shape scipy cannot block: its extents must be
    multiples of the blocks')."""
    found = padded_form(tensor.layout)
    if found is None or found.format != "bsr" or any(n % b for n, b in zip(tensor.shape, found.block)):
        return None
    scalars = {name: value for name, value in tensor.fields.items() if not isinstance(value, np.ndarray)}
    pointers, columns = tensor.fields[found.pointer], tensor.fields[found.coordinates]
    values = tensor.fields[found.values].reshape(-1, *found.block)
    block_rows = int(found.extents[0].evaluate(scalars, {}))
    if pointers.shape != (block_rows + 1,) or pointers[0] != 0 or not pointers[-1] == len(columns) == len(values):
        return None
    if not any(p.kind == "periodic_monotonic" and p.arrays == (found.coordinates,) and p.period_array == found.pointer
               and p.increasing and p.strict for p in tensor.layout.properties):
        return None  # scipy would sort unsorted block columns in place
    array = sparse.bsr_array((values, columns, pointers), shape=tensor.shape, blocksize=found.block, copy=False)
    array.has_canonical_format = True
    return array


def _diagonals(tensor) -> sparse.dia_array | None:
    """A DIA layout as a new ``dia_array`` (scipy keeps a diagonal's entries by column, spf
    by row, so the slots are copied), or None (another layout, or an offset stored twice)."""
    found = padded_form(tensor.layout)
    if found is None or found.format != "dia":
        return None
    offsets = np.asarray(tensor.fields[found.coordinates], dtype=np.int64)
    rows, columns = tensor.shape
    data = tensor.fields[found.values]
    if data.size != len(offsets) * rows or len(np.unique(offsets)) != len(offsets):
        return None
    data = data.reshape(len(offsets), rows)
    slots = np.zeros((len(offsets), columns), dtype=data.dtype)
    for diagonal, offset in enumerate(offsets.tolist()):
        first, last = max(0, -offset), min(rows, columns - offset)  # rows whose column is inside
        if first < last:
            slots[diagonal, first + offset:last + offset] = data[diagonal, first:last]
    return sparse.dia_array((slots, offsets), shape=tensor.shape)


def _sorted_segments(layout, found: Form) -> bool:
    """Whether the layout declares each segment of its compressed level strictly increasing."""
    return any(p.kind == "periodic_monotonic" and p.arrays == found.coordinates and p.period_array == found.pointer
               and p.increasing and p.strict for p in layout.properties)


def _array_at(expression: Affine, index: str, scale: int = 1) -> str | None:
    """``F`` when ``expression`` is exactly ``scale * F(index)``."""
    if expression.constant == 0 and len(expression.terms) == 1:
        atom, coefficient = expression.terms[0]
        if isinstance(atom, UFCall) and coefficient == scale and atom.arguments == (Affine.of(index),):
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


# ----------------------------------------------------------------------------- from scipy


def check_structure(data: sparse.spmatrix | sparse.sparray, name: str = UNNAMED) -> None:
    """Refuse (PackError) a compressed scipy matrix (csr, csc, bsr) whose ``indptr`` or
    ``indices`` do not describe a matrix of its shape.  scipy checks them when the matrix is
    built, not after its arrays are changed, and its conversions trust them: an ``indptr``
    that runs past the entries makes ``tocoo()`` write out of bounds."""
    if data.format not in ("csr", "csc", "bsr"):
        return
    major, minor = (1, data.shape[0]) if data.ndim == 1 else \
        (data.shape[::-1] if data.format == "csc" else data.shape)
    if data.format == "bsr":
        major, minor = major // data.blocksize[0], minor // data.blocksize[1]
    indptr, indices = np.asarray(data.indptr), np.asarray(data.indices)
    problem = ""
    if indptr.ndim != 1 or indices.ndim != 1 or indptr.dtype.kind not in "iu" or indices.dtype.kind not in "iu":
        problem = f"indptr ({indptr.dtype}, {indptr.ndim}-D) and indices ({indices.dtype}, {indices.ndim}-D) " \
                  "must be 1-D integer arrays"
    elif len(indptr) != major + 1:
        problem = f"indptr has {len(indptr)} elements, the shape {data.shape} needs {major + 1}"
    elif indptr[0] != 0 or not 0 <= indptr[-1] <= min(len(indices), len(data.data)):
        problem = (f"indptr runs from {indptr[0]} to {indptr[-1]}, not from 0 to at most the "
                   f"{min(len(indices), len(data.data))} stored entries")
    elif np.any(indptr[1:] < indptr[:-1]):
        position = int(np.flatnonzero(indptr[1:] < indptr[:-1])[0])
        problem = f"indptr decreases: indptr[{position}] = {indptr[position]} > indptr[{position + 1}] = " \
                  f"{indptr[position + 1]}"
    else:
        stored = indices[:indptr[-1]]
        if stored.size and (stored.min() < 0 or stored.max() >= minor):  # two reductions, no temporaries
            outside = np.flatnonzero((stored < 0) | (stored >= minor))
            problem = f"indices[{int(outside[0])}] = {stored[outside[0]]} is outside [0, {minor})"
    if problem:
        raise PackError(f"tensor {name}: the scipy {data.format} matrix is malformed: {problem}")


def shared_fields(layout: Layout, data: sparse.spmatrix | sparse.sparray,
                  name: str = UNNAMED) -> tuple[dict[str, object] | None, str]:
    """``(fields, "")``: ``layout``'s fields over the arrays of the scipy object ``data``
    themselves, checked as :func:`spf.runtime.validation.validate` would; or ``(None, why not)``.
    A malformed compressed matrix is refused (:func:`check_structure`)."""
    check_structure(data, name)
    found = form(layout)
    if found is None:
        return None, f"layout {layout.spec} is none of scipy's formats (CSR, CSC, COO) in form"
    if data.format != found.format or data.ndim != layout.order:
        return None, (f"the data is a {data.ndim}-D {data.format} {type(data).__name__}, layout {layout.spec} "
                      f"is {found.format} of order {layout.order}")
    if found.format == "coo":
        coordinates = getattr(data, "coords", None) or (data.row, data.col)
        given = dict(zip(found.coordinates, coordinates))
    else:
        given = {found.pointer: data.indptr, found.coordinates[0]: data.indices}
    given[found.values] = data.data
    declared = {field.name: field for field in layout.arrays}
    if set(declared) != set(given):
        return None, f"layout {layout.spec} has arrays besides scipy's ({', '.join(sorted(set(declared) - set(given)))})"
    for field, array in given.items():
        reason = _unsharable(array, declared[field])
        if reason:
            return None, f"array {field}: {reason}"
    shape = tuple(int(extent) for extent in data.shape)
    scalars = _scalars(layout, shape, given)
    if isinstance(scalars, str):
        return None, scalars
    extents = tuple(int(extent.evaluate(scalars)) for extent in layout.shape)
    if extents != shape:
        return None, f"layout {layout.spec} holds shape {extents}, not {shape}"
    for field, array in given.items():
        expected = tuple(int(d.evaluate(scalars)) for d in declared[field].dimensions)
        if array.shape != expected:
            return None, f"array {field} has shape {array.shape}, {declared[field]} needs {expected}"
    fields = {**scalars, **given}
    reason, established = _scipy_meaning(found, fields, scalars, shape)
    reason = reason or _layout_holds(layout, fields, scalars, established)
    return (None, reason) if reason else (fields, "")


def _unsharable(array: np.ndarray, declared) -> str:
    """Why ``array`` cannot be the field ``declared`` as it is (empty when it can)."""
    if array.dtype != declared.numpy_dtype:
        return f"dtype {array.dtype}, the layout declares {declared.type} ({declared.numpy_dtype})"
    if array.ndim != len(declared.dimensions) or not array.flags.c_contiguous or not array.flags.aligned:
        return "not a C-contiguous, aligned array of the declared shape"

    owner = array
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    if (owner.base is not None or not owner.flags.owndata) and not handed_over(owner):
        return (f"its memory belongs to a {type(owner.base).__name__}, not to a numpy array, so it cannot be "
                "made read-only")
    return ""


def _scalars(layout, shape: tuple[int, ...], given: Mapping[str, np.ndarray]) -> dict[str, int] | str:
    """The scalar fields: from the shape, and each count from the length of an array it sizes."""
    try:
        scalars = dict(layout.compute_scalars(shape))
    except SpfError as error:
        return str(error)
    for field in layout.arrays:
        length = field.dimensions[0].to_affine() if len(field.dimensions) == 1 else None
        if length is not None and len(length.terms) == 1 and length.terms[0][1] == 1 \
                and length.terms[0][0] not in scalars:  # count + constant
            scalars[length.terms[0][0]] = len(given[field.name]) - length.constant
    for field in layout.scalars:
        if field.name not in scalars:
            return f"field {field.name} is not given by the shape or an array's length"
        info = np.iinfo(field.numpy_dtype)
        if not max(0, info.min) <= scalars[field.name] <= info.max:
            return f"field {field.name} = {scalars[field.name]} does not fit in {field.type}"
    return scalars


def _scipy_meaning(found: Form, fields, scalars, shape: tuple[int, ...]) -> tuple[str, list]:
    """Why scipy's reading of the arrays differs from the layout's (empty when it does not):
    the level bounds, entries beyond the pointers' end, coordinates outside the shape, a
    coordinate stored twice; and the properties these checks established (the layout's
    need not be checked again: :func:`_layout_holds`).  (:func:`check_structure` has
    checked csr's and csc's pointers and indices.)"""
    values = fields[found.values]
    if found.format == "coo":
        if _bounds(found.level, scalars) != (0, len(values) - 1):
            return f"the positions of the coordinate list do not run over [0, {len(values)})", []
        inside = [Range((array,), low=Affine.of(0), high=Affine.of(extent))
                  for array, extent in zip(found.coordinates, shape)]
        for bound in inside:
            broken = bound.check(fields, scalars)
            if broken:
                return f"{broken[0]}: {broken[1]}", []
        in_order = CovaryingMonotonic(found.coordinates)
        if in_order.check(fields, scalars) is None:
            return "", inside + [in_order]  # lexicographically increasing: no coordinate twice
        broken = Injective(found.coordinates).check(fields, scalars)
        return (f"{broken[0]}: {broken[1]} (scipy sums them)" if broken else ""), inside
    pointer, indices = fields[found.pointer], fields[found.coordinates[0]]
    if _bounds(found.level, scalars) != (0, shape[found.mode] - 1):
        return f"the {found.format} level does not run over [0, {shape[found.mode]})", []
    if pointer[-1] != len(indices) or len(indices) != len(values):
        return (f"{found.pointer} ends at {pointer[-1]}, before the {len(indices)} indices and "
                f"{len(values)} values (scipy ignores the rest)"), []
    # check_structure: indptr from 0, not decreasing; every index inside the other extent
    inside = [Monotonic((found.pointer,), increasing=True, strict=False),
              Range((found.coordinates[0],), low=Affine.of(0), high=Affine.of(shape[1 - found.mode]))]
    in_order = PeriodicMonotonic((found.coordinates[0], found.pointer), increasing=True, strict=True)
    if in_order.check(fields, scalars) is None:
        return "", inside + [in_order]  # strictly increasing within each segment: no coordinate twice
    segment = np.repeat(np.arange(len(pointer) - 1), np.diff(pointer))
    broken = Injective(("segment", found.coordinates[0])).check({**fields, "segment": segment}, scalars)
    return (f"{broken[0]}: {broken[1]} (scipy sums them)" if broken else ""), inside


def _implied(wanted, established: list, scalars) -> bool:
    """Whether a property already established implies ``wanted``: the same property, or a
    range of the same array within ``wanted``'s bounds."""
    for known in established:
        if known == wanted:
            return True
        if isinstance(known, Range) and isinstance(wanted, Range) and known.arrays == wanted.arrays:
            try:
                if wanted.low.evaluate(scalars, {}) <= known.low.evaluate(scalars, {}) and \
                        known.high.evaluate(scalars, {}) <= wanted.high.evaluate(scalars, {}):
                    return True
            except SpfError:  # (a bound naming no scalar: checked as it stands)
                continue
    return False


def _layout_holds(layout, fields, scalars, established: list = ()) -> str:
    """Why the layout's properties or assumptions do not hold of ``fields`` (empty when they
    do); a property that one of ``established`` implies is not checked again."""

    for spec in layout.properties:
        wanted = from_spec(spec)
        if _implied(wanted, established, scalars):
            continue
        broken = wanted.check(fields, scalars)
        if broken:
            return f"array {broken[0]} breaks property {spec.text}: {broken[1]}"
    for constraint in conjuncts(layout.assumptions):
        if isinstance(constraint, Constraint) and not holds(constraint, fields):
            return f"assumption {constraint} of {layout.spec} does not hold"
    return ""
