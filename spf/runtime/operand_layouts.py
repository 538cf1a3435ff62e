"""What an einsum operand is (its kind and the layout it is read in), which layout the
result gets, and the result handed back in the inputs' kind.

Kinds: ``"scipy"`` (scipy.sparse arrays and matrices), ``"pydata"`` (pydata ``sparse``
arrays, read through their attributes: that package is not a dependency), ``"tensor"``
(:class:`spf.Tensor`) and ``"numpy"`` (anything numpy reads as an array).

Layouts: a scipy matrix is read in its own format's layout (csr -> CSR, csc -> CSC, coo ->
COO, bsr -> BCSR with its blocks, dia -> DIA; lil and dok, which have no layout, as CSR);
pydata COO and DOK as COO of their order (SV for vectors), GCXS of order 2 as CSR or CSC
by its compressed axis; a Tensor in its own layout; numpy in DenseK.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from spf.codegen.c.structs import dense_plan
from spf.errors import ArgumentError, SpfError
from spf.runtime.pydata_arrays import is_pydata
from spf.runtime.tensor import Tensor
from spf.space.iteration_space import coordinate_definers, load_tensor_layout

SPARSE_BY_ORDER = {1: "SV", 2: "CSR", 3: "CSF3", 4: "CSF4"}
"""The layout of a sparse result by its order (order 2: CSC when every sparse operand is column-major)."""
COORDINATES_BY_ORDER = {1: "SV", 2: "COO", 3: "COO3", 4: "COO4"}
"""pydata COO and DOK operands' layouts by order."""
MOST_DENSE_AXES = 4
KINDS = ("scipy", "pydata", "tensor", "numpy")  # a mixed call's result takes the first kind given


@dataclass(frozen=True)
class Operand:
    """One operand as einsum reads it: ``value`` (numpy data made an array), its ``kind``,
    the ``layout`` it is read in (a name, ``"BCSR(R=.., C=..)"`` or a Tensor's Layout),
    whether that layout is ``dense``, and whether it is a scipy ``matrix`` (not array)."""

    value: Any
    kind: str
    layout: Any
    dense: bool
    matrix: bool = False
    shape: tuple[int, ...] = ()


def operand(value: Any, name: str) -> Operand:
    """``value`` read as an einsum operand named ``name``; an ArgumentError for what is none."""
    if isinstance(value, Tensor):
        return Operand(value, "tensor", value.layout, dense_plan(value.layout) is not None, shape=tuple(value.shape))
    if sparse.issparse(value):
        return Operand(value, "scipy", _scipy_layout(value), False, matrix=sparse.isspmatrix(value),
                       shape=tuple(value.shape))
    if is_pydata(value):
        return Operand(value, "pydata", _pydata_layout(value, name), False, shape=tuple(value.shape))
    try:
        array = np.asarray(value)
    except Exception as error:  # numpy's own refusal, whatever its type
        raise ArgumentError(f"einsum: operand {name} ({type(value).__name__}) is neither a scipy or pydata sparse "
                            f"array, an spf.Tensor nor array-like: {error}") from None
    if array.dtype == object or not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
        raise ArgumentError(f"einsum: operand {name} ({type(value).__name__}) holds {array.dtype} values, "
                            "not numbers")
    if array.ndim == 0:
        raise ArgumentError(f"einsum: operand {name} is a scalar: multiply the result by it instead")
    if array.ndim > MOST_DENSE_AXES:
        raise ArgumentError(f"einsum: operand {name} has {array.ndim} axes; dense layouts have at most "
                            f"{MOST_DENSE_AXES}")
    return Operand(array, "numpy", f"Dense{array.ndim}", True, shape=array.shape)


def _scipy_layout(value: Any) -> str:
    """The layout a scipy matrix is read in."""
    form = value.format
    if form == "bsr":
        rows, columns = value.blocksize
        return f"BCSR(R={rows}, C={columns})"
    if form == "coo" and value.ndim == 1:
        return "SV"
    return {"csr": "CSR", "csc": "CSC", "coo": "COO", "dia": "DIA"}.get(form, "CSR")


def _pydata_layout(value: Any, name: str) -> str:
    """The layout a pydata array is read in."""
    order = len(value.shape)
    if order not in COORDINATES_BY_ORDER:
        raise ArgumentError(f"einsum: operand {name} is a pydata array of {order} axes; spf's coordinate "
                            f"layouts have 1 to {max(COORDINATES_BY_ORDER)}")
    compressed = getattr(value, "compressed_axes", None)
    if order == 2 and compressed is not None:
        return "CSC" if tuple(compressed) == (1,) else "CSR"
    return COORDINATES_BY_ORDER[order]


def output_is_dense(inputs: tuple[str, ...], output: str, operands: list[Operand], kind: str) -> bool:
    """Whether the result is dense: an output index no sparse operand has makes it dense along
    that axis (SpMM's columns); for scipy's kind also, as scipy's own products are, a
    contraction with a dense operand (``A @ x``) and every result of order 0 or 1."""
    sparse_letters = {letter for letters, item in zip(inputs, operands) if not item.dense for letter in letters}
    if not sparse_letters or any(letter not in sparse_letters for letter in output):
        return True
    if kind != "scipy":
        return len(output) == 0
    if len(output) <= 1:
        return True
    contracted = {letter for letters in inputs for letter in letters} - set(output)
    return any(item.dense and contracted & set(letters) for letters, item in zip(inputs, operands))


def output_layout(order: int, dense: bool, operands: list[Operand]) -> str:
    """The result's layout: ``Dense`` (of its order) when dense, else by order (SPARSE_BY_ORDER),
    CSC for a matrix whose sparse operands are all column-major."""
    if dense:
        return "Dense" if order == 0 else f"Dense{order}"
    if order not in SPARSE_BY_ORDER:
        raise ArgumentError(f"einsum: a sparse result of {order} axes has no default layout; pass out_layout=")
    sparse_layouts = [item.layout for item in operands if not item.dense]
    if order == 2 and sparse_layouts and all(_column_major(layout) for layout in sparse_layouts):
        return "CSC"
    return SPARSE_BY_ORDER[order]


def _column_major(layout: Any) -> bool:
    """Whether a layout stores a matrix column by column: its column coordinate is known at
    an earlier storage level than its row (CSC, DCSC, a user's column-major layout)."""
    try:
        loaded = load_tensor_layout(layout, 2, "operand")
    except SpfError:  # not a matrix layout
        return False
    known_at = coordinate_definers(loaded)
    row, column = loaded.logical
    return known_at[column] < known_at[row]


@dataclass(frozen=True)
class ResultForm:
    """How a kernel's result is handed back: its ``kind``; for scipy, whether as a matrix (every
    scipy operand is one); for pydata, the package's module and whether as GCXS (every
    pydata operand is)."""

    kind: str
    matrix: bool = False
    package: Any = None
    gcxs: bool = False


def result_form(operands: list[Operand]) -> ResultForm:
    """How the result of a call on these operands is handed back: in scipy's kind if any
    operand is scipy, else pydata's, else as a Tensor, else numpy."""
    kinds = {item.kind for item in operands}
    kind = next(kind for kind in KINDS if kind in kinds)
    if kind == "scipy":
        return ResultForm(kind, matrix=all(item.matrix for item in operands if item.kind == "scipy"))
    if kind == "pydata":
        given = [item.value for item in operands if item.kind == "pydata"]
        package = importlib.import_module(type(given[0]).__module__.split(".")[0])
        return ResultForm(kind, package=package,
                          gcxs=all(getattr(value, "compressed_axes", None) is not None for value in given))
    return ResultForm(kind)


def in_kind(result: Any, form: ResultForm) -> Any:
    """The kernel's result handed back in ``form``: numpy and floats as they are; a sparse
    result as a scipy array (or matrix; an n-dimensional ``coo_array`` beyond two axes), a
    pydata COO (or GCXS), or the Tensor itself."""
    if not isinstance(result, Tensor) or form.kind == "tensor":
        return result
    if form.kind == "scipy":
        if result.order > 2:
            return _scipy_coordinates(result)
        array = result.to_scipy()
        return getattr(sparse, f"{array.format}_matrix")(array) if form.matrix else array
    if form.kind == "pydata":
        indices, values, shape = result.to_coo()
        array = form.package.COO(np.asarray(indices).reshape(-1, len(shape)).T, values, shape=shape)
        return array.asformat("gcxs") if form.gcxs else array
    return result.to_dense()


def _scipy_coordinates(result: Tensor) -> Any:
    """A result of three or more axes as scipy's n-dimensional ``coo_array`` (scipy 1.15 and
    later), or the Tensor itself where this scipy has none."""
    indices, values, shape = result.to_coo()
    try:
        return sparse.coo_array((values, tuple(np.asarray(indices).reshape(-1, len(shape)).T)), shape=shape)
    except (TypeError, ValueError):  # a scipy whose coo_array is two-dimensional only
        return result


__all__ = ["Operand", "ResultForm", "in_kind", "operand", "output_is_dense", "output_layout", "result_form"]
