"""The user's data read as entries: scipy.sparse, pydata ``sparse`` arrays, dense numpy,
``(coords, values, shape)`` triples and FROSTT ``.tns`` files, as checked coordinate columns
and values, with what their duplicates mean.  (scipy is imported where it is used: loading
it takes longer than ``import spf`` does.)
"""

from __future__ import annotations

import os
from typing import Any, Mapping

import numpy as np

from spf import arguments
from spf.errors import ArgumentError, PackError, SpfError, UNNAMED
from spf.runtime.pydata_arrays import coordinates, is_pydata
from spf.runtime.value_checks import EXACT_INTEGERS, INDEX_DTYPE, as_array, check_real, integer_coordinates, real_values


def coordinates_of(data: Any, name: str = UNNAMED) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """``(coords, values, shape)`` of scipy.sparse, dense numpy, or a (coords, values, shape) triple,
    in lexicographic order without duplicates (scipy's are summed, a triple's refused)."""
    columns, values, shape, duplicates = entries_of(data, name)
    coords = np.stack(columns, axis=1).reshape(-1, len(shape)) if columns else np.zeros((len(values), 0), INDEX_DTYPE)
    if duplicates == "sum":
        import scipy.sparse as sparse
        matrix = sparse.coo_array((values, tuple(coords.T)), shape=shape)
        matrix.sum_duplicates()
        coords = np.stack(matrix.coords, axis=1).astype(INDEX_DTYPE).reshape(-1, len(shape))
        return coords, np.asarray(matrix.data, dtype=np.float64), shape
    order = np.lexsort(coords.T[::-1]) if len(values) else np.arange(0)
    coords, values = coords[order], values[order]
    if len(values) > 1:
        same = np.flatnonzero(np.all(coords[1:] == coords[:-1], axis=1))
        if same.size:
            bad = tuple(int(c) for c in coords[same[0]])
            raise PackError(f"tensor {name}: coordinate {bad} appears more than once")
    return coords, values, shape


def _pydata_coordinates(data, name: str = UNNAMED) -> tuple | None:
    """``(coords[order, nnz], values, shape)`` of a pydata ``sparse`` array (COO, DOK, GCXS,
    ...: :mod:`spf.runtime.pydata_arrays`), or None for anything else.  Its duplicates are summed,
    its own rule."""
    return coordinates(data, name) if is_pydata(data) else None


def entries_of(data: Any, name: str = UNNAMED, narrow: bool = False) -> tuple[list[np.ndarray], np.ndarray,
                                                                          tuple[int, ...], str]:
    """``(columns, values, shape, duplicates)`` of the user's data, checked, in any order:
    one int64 array (or strided view) of coordinates per mode, float64 values; with
    ``narrow``, scipy's int32 index arrays as they are (the generated assembly reads them).

    ``duplicates`` says what equal coordinates mean: ``"sum"`` for scipy.sparse (its own
    rule), ``"refuse"`` for a (coords, values, shape) triple, ``"none"`` for dense arrays.
    """
    import scipy.sparse as sparse

    if sparse.issparse(data):
        from spf.runtime.scipy_arrays import check_structure
        check_structure(data, name)
        if data.format in ("csr", "csc", "bsr") and data.indptr[-1] < len(data.indices):
            data = data.copy()
            data.prune()  # scipy's conversions would read the entries past indptr's end
        try:
            matrix = sparse.coo_array(data) if data.ndim != 2 else sparse.coo_matrix(data)
        except ValueError as error:  # scipy's own checks: a coordinate outside the shape, ...
            raise PackError(f"tensor {name}: scipy cannot read the {data.format} matrix: {error}") from None
        check_real(np.asarray(matrix.data), name)
        values = np.asarray(matrix.data).astype(np.float64, copy=False)
        columns = [np.asarray(c) for c in (getattr(matrix, "coords", None) or (matrix.row, matrix.col))]
        if not (narrow and all(c.dtype == np.int32 for c in columns)):
            columns = [c.astype(INDEX_DTYPE, copy=False) for c in columns]
        return columns, values, tuple(int(s) for s in matrix.shape), "sum"
    pydata = _pydata_coordinates(data, name)
    if pydata is not None:
        coords, values, shape = pydata
        columns, values, shape, _ = entries_of((coords.T, values, shape), name)
        return columns, values, shape, "sum"
    if isinstance(data, tuple) and len(data) == 3:
        coords, values, shape = data
        shape = arguments.shape(shape, name)
        coords = as_array(coords, name, "the coordinates")
        values = real_values(as_array(values, name, "the values"), name).reshape(-1)
        if coords.size == 0:
            coords = coords.reshape(0, len(shape))
        if coords.ndim == 1 and len(shape) == 1:
            coords = coords.reshape(-1, 1)
        if coords.ndim != 2 or coords.shape[1] != len(shape):
            raise PackError(f"tensor {name}: coordinates must have shape (nnz, {len(shape)}), "
                            f"got {coords.shape}")
        if len(values) != coords.shape[0]:
            raise PackError(f"tensor {name}: {coords.shape[0]} coordinates but {len(values)} values")
        coords = integer_coordinates(coords, name)
        outside = np.flatnonzero(np.any((coords < 0) | (coords >= np.asarray(shape, dtype=INDEX_DTYPE)), axis=1)) \
            if len(values) else np.zeros(0, dtype=int)
        if outside.size:
            bad = tuple(int(c) for c in coords[outside[0]])
            raise PackError(f"tensor {name}: coordinate {bad} (entry {int(outside[0])}) is outside "
                            f"the shape {shape}")
        return [coords[:, k] for k in range(len(shape))], values.astype(np.float64, copy=False), shape, "refuse"
    if isinstance(data, np.ma.MaskedArray):
        raise PackError(f"tensor {name}: a masked array's masked entries would be read as numbers; "
                        "fill them first (e.g. .filled(0))")
    if isinstance(data, (str, bytes, Mapping)) or data is None:
        raise PackError(f"tensor {name}: cannot read {type(data).__name__} as a tensor; give scipy.sparse, "
                        "a numpy array, (coords, values, shape) or a dict of layout fields")
    array = as_array(data, name, type(data).__name__)
    if array.dtype == object:
        raise PackError(f"tensor {name}: cannot read {type(data).__name__} of Python objects as a tensor; give "
                        "scipy.sparse, a numpy array of numbers, (coords, values, shape) or a dict of layout fields")
    if array.ndim == 0:
        raise PackError(f"tensor {name}: got a single number ({type(data).__name__}); layouts store tensors "
                        "of order 1 or more: give an array")
    check_real(array, name)
    coords = np.argwhere(array != 0).astype(INDEX_DTYPE).reshape(-1, array.ndim)
    return ([coords[:, k] for k in range(array.ndim)], array[tuple(coords.T)].astype(np.float64),
            tuple(int(s) for s in array.shape), "none")


def read_tns(path: str | os.PathLike) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """Read a FROSTT ``.tns`` file: ``i j k ... value`` per line, 1-based indices.

    Returns 0-based ``(coords, values, shape)``, the shape being the largest index per mode.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError(f"read_tns: path must be a str or a path, got {path!r}")
    path = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            content = handle.read()
    except OSError as error:
        raise SpfError(f"cannot read {path}: {error.strerror}") from None
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        line = content.count(b"\n", 0, error.start) + 1
        raise SpfError(f"{path}:{line}: not a text file (byte 0x{content[error.start]:02x} is not UTF-8)") from None
    numbered = [(number, line) for number, line in enumerate(text.splitlines(), 1)
                if line.strip() and not line.lstrip().startswith("#")]
    if not numbered:
        raise SpfError(f"{path}: no entries")
    first_number, first = numbered[0]
    width = len(first.split())
    if width < 2:
        raise SpfError(f"{path}:{first_number}: expected indices and a value, found {first!r}")
    tokens = " ".join(line for _, line in numbered).split()
    if len(tokens) != width * len(numbered):
        for number, line in numbered:
            if len(line.split()) != width:
                raise SpfError(f"{path}:{number}: line {number} has {len(line.split())} fields, expected "
                               f"{width} (as on the first entry line)")
    try:
        table = np.array(tokens, dtype=np.float64).reshape(len(numbered), width)
    except ValueError as error:
        raise SpfError(f"{path}: not a number: {error}") from None
    indices = table[:, :-1]
    finite = np.where(np.isfinite(indices), indices, 0.5)
    bad = (indices < 1) | (np.mod(finite, 1) != 0) | (indices > EXACT_INTEGERS)
    if bad.any():
        row = int(np.flatnonzero(np.any(bad, axis=1))[0])
        raise SpfError(f"{path}:{numbered[row][0]}: indices must be positive integers (1-based) up to 2**53, "
                       f"found {numbered[row][1].split()[:width - 1]}")
    coords = indices.astype(INDEX_DTYPE) - 1
    shape = tuple(int(m) + 1 for m in coords.max(axis=0))
    return coords, table[:, -1].copy(), shape


def summed(coords: np.ndarray, values: np.ndarray,
           shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """(coords, values, shape) with equal coordinates summed, as scipy.sparse does."""
    if not len(values):
        return coords, values, shape
    unique, inverse = np.unique(coords, axis=0, return_inverse=True)
    return unique, np.bincount(inverse.reshape(-1), weights=values, minlength=len(unique)), shape
