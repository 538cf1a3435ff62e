"""spf's semiring, mask and accumulation kernels against python-graphblas on the real matrices
(issue 29's acceptance): not a timing benchmark, a check that needs ../shared/data and GraphBLAS.

Run: python benchmarks/graphblas_agreement.py [--least 1000] [--most 300000] [--limit 5]
     [--matrices NAME,...] [--types float64,float32,int64] [--typed-limit 2] [--block 1000]
     [--ops mxv,...] [--semirings min_plus,...] [--layouts CSR,...] [--only KEY] [--data DIR]

For square real matrices with ``--least`` to ``--most`` nonzeros (``--limit`` of them, spread
over that range, smallest first; or ``--matrices``), every combination of

* operation: ``mxv`` ``y(i) = A(i,j) * x(j)``, ``vxm`` ``y(j) = x(i) * A(i,j)``, ``reduce_rows``
  ``y(i) = A(i,j)``, ``reduce_scalar`` ``s = A(i,j)``, and into a dense matrix ``mxm``
  ``C(i,k) = A(i,j) * B(j,k)``, ``ewise_add`` ``C(i,j) = A(i,j) + B(i,j)`` (⊕ over the union, as
  GraphBLAS's eWiseAdd with the monoid ⊕) and ``ewise_mult`` ``C(i,j) = A(i,j) * B(i,j)`` (⊗ over
  the intersection, eWiseMult with ⊗), the dense ones on the matrix's leading ``--block`` x
  ``--block`` block; the same three into CSR on the whole matrix (``*_csr``; mxm_csr on the
  block beyond ``--csr-extent`` or ``--csr-flops``: CSC x CSC into CSR takes seconds there),
  whose entries under a semiring other than plus_times are where the products are, whatever
  their values, as GraphBLAS's;
* semiring: the twelve of issue 29's item 2;
* mask: none, ``"M"`` and ``"~M"`` with M a random subset of positions, for a vector output as
  SV (its stored positions, a third of them holding zeros: GraphBLAS's ``M.S``) or Dense1 (its
  nonzero values, ``M.V``), for a matrix output as CSR (``M.S``) or Dense2 (``M.V``); a scalar
  output has no mask (GraphBLAS's reduce to a scalar takes none);
* accumulation: none, or ⊕ into an output both systems start from (``accum=⊕``): dense, or into
  CSR the matrix mask's positions with values drawn from A's (spf returns the union, a new
  Tensor);
* layout of the matrix operands (A and B alike): CSR, CSC, DCSR, COO, BCSR;

is compiled (the kernel cache keeps every kernel: a second run compiles nothing) and called,
and the result compared with python-graphblas's, densified with ⊕'s identity where GraphBLAS has
no entry (what spf's dense outputs hold there).  A combination spf refuses to compile (BCSR's
padding that would count as entries, accumulating into a scalar output, accumulating a dense
output by ``any``) is counted as refused, by its reason.

Values: float64 (the data's, or ``1 + (i+j) mod 7`` for pattern matrices; x, the masks and
the accumulated outputs drawn from the matrix's values), B a second matrix from A (its
transpose with values shuffled and 30% of entries dropped, plus 10% of a permuted copy's).
Then float32 (A's values cast) and int64 (``(i + 2j) mod 9 - 4``: stored zeros among the
entries) for the ``--typed-limit`` smallest matrices over CSR, DCSR and BCSR and a subset of
the masks (their values in the operands' type, and once a sparse mask of float64 values,
``M:SV(float64)`` / ``M:CSR(float64)``: a mask's type should not change the result's).
lor_land computes on the values' truth (GraphBLAS's lor_land is boolean: its operands are
cast to BOOL, spf's result is 0/1 in the values' type).

Agreement: exact for the min, max, lor, land and any monoids, the pair semirings and
integers; under plus (plus_times, plus_first, ...) on floats, ``|spf - graphblas| <= rtol *
m`` with m the same computation on the operands' absolute values (plus the accumulated
output's), rtol 1e-12 for float64 and 1e-5 for float32: a relative error of the sum that
cancellation does not turn into a false alarm.  Under ``any`` GraphBLAS may keep any one of
the reduced values and spf keeps the first that is not 0, so a result agrees when each entry
is one of the values reduced into it (the row's values for reduce, A's or B's for ewise_add,
every product for a product: all 1 under any_pair), and ⊕'s identity (0) where nothing is
reduced; an entry holding 0 cannot tell "no entry" from "an entry 0" (the densified output
holds 0 for both), so presence is checked where a nonzero value was reduced.

An assembled (CSR) output under plus_times whose pattern lacks exactly GraphBLAS's entries of
value 0, its values agreeing, counts as "documented": spf does not store an entry whose terms
sum to exactly zero there (README, "Entries that sum to exactly zero are not stored"), as
scipy, and GraphBLAS keeps it.  Under any, a CSR output's entry agrees when it is one of the
values reduced into it, as for a dense output.  A Dense2 mask
is given to GraphBLAS as the sparse matrix of its nonzeros (the same mask by value):
SuiteSparse:GraphBLAS 9.4.5 crashes on ``C<M.V> += A ⊕.⊗ B`` with M a full matrix and C full.

The table: combinations checked, agreed, documented, refused (by reason), errors and
disagreements (grouped over the layouts, each with the command that reruns it alone,
``--only KEY``, and the first differing entries).  Exit status 1 when anything disagreed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp

import spf
from spf.errors import SpfError

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("SPF_DATA", HERE.parent.parent / "shared" / "data"))

SEMIRINGS = ["plus_times", "min_plus", "max_plus", "max_times", "min_times", "lor_land", "any_pair", "plus_pair",
             "plus_first", "plus_second", "min_first", "max_second"]
LAYOUTS = ["CSR", "CSC", "DCSR", "COO", "BCSR"]
TYPED_LAYOUTS = ["CSR", "DCSR", "BCSR"]
EXACT_MONOIDS = {"min", "max", "lor", "land", "any"}
RTOL = {"float64": 1e-12, "float32": 1e-5}
DOCUMENTED_ZEROS = ("spf's assembled (CSR) outputs do not store an entry whose terms sum to exactly zero (README: "
                    "\"Entries that sum to exactly zero are not stored, as scipy's products and sums do\"); GraphBLAS "
                    "keeps such an entry, of value 0: the patterns differ by exactly those entries, the values agree")


@dataclass(frozen=True)
class Operation:
    name: str
    expression: str
    output: str  # the output's layout: Dense1, Dense2, CSR, or "" for a scalar
    block: bool = False  # on the leading block (a dense matrix output)

    @property
    def kind(self) -> str:
        return "scalar" if not self.output else ("vector" if self.output == "Dense1" else "matrix")

    @property
    def output_name(self) -> str:
        return self.expression.split("(")[0].split("=")[0].strip()

    @property
    def base(self) -> str:
        return self.name.removesuffix("_csr")


OPERATIONS = [
    Operation("mxv", "y(i) = A(i,j) * x(j)", "Dense1"),
    Operation("vxm", "y(j) = x(i) * A(i,j)", "Dense1"),
    Operation("reduce_rows", "y(i) = A(i,j)", "Dense1"),
    Operation("reduce_scalar", "s = A(i,j)", ""),
    Operation("mxm", "C(i,k) = A(i,j) * B(j,k)", "Dense2", block=True),
    Operation("ewise_add", "C(i,j) = A(i,j) + B(i,j)", "Dense2", block=True),
    Operation("ewise_mult", "C(i,j) = A(i,j) * B(i,j)", "Dense2", block=True),
    Operation("mxm_csr", "C(i,k) = A(i,j) * B(j,k)", "CSR"),
    Operation("ewise_add_csr", "C(i,j) = A(i,j) + B(i,j)", "CSR"),
    Operation("ewise_mult_csr", "C(i,j) = A(i,j) * B(i,j)", "CSR"),
]


@dataclass(frozen=True)
class MaskCase:
    layout: str  # "" for no mask
    complemented: bool = False
    foreign: bool = False  # the mask's values are float64 while the operands are of another type

    def __str__(self) -> str:
        if not self.layout:
            return "none"
        return f"{'~' if self.complemented else ''}M:{self.layout}{'(float64)' if self.foreign else ''}"


NO_MASK = MaskCase("")


def mask_cases(operation: Operation, typed: bool) -> list[MaskCase]:
    if operation.kind == "scalar":
        return [NO_MASK]
    if operation.kind == "vector":
        layouts = ["SV", "Dense1"]
    elif operation.output == "CSR":
        layouts = ["CSR"]
    else:
        layouts = ["CSR", "Dense2"]
    cases = [NO_MASK] + [MaskCase(layout, complemented) for layout in layouts for complemented in (False, True)]
    if typed:  # a subset for the float32 and int64 passes, and a sparse mask of float64 values
        cases = [NO_MASK, MaskCase(layouts[0], False), MaskCase(layouts[-1], True),
                 MaskCase(layouts[0], False, foreign=True)]
    return cases


def key_of(matrix: str, dtype: str, operation: str, ring: str, layout: str, mask: MaskCase, accumulate: bool) -> str:
    return f"{matrix}/{dtype}/{operation}/{ring}/{layout}/{mask}/{'accum' if accumulate else 'noaccum'}"


# ------------------------------------------------------------------------------------------ inputs


def manifest_matrices(data: Path, least: int, most: int) -> list[tuple[int, str]]:
    """(nnz, name) of the square matrices with least..most nonzeros, smallest first."""
    rows = []
    for line in (data / "MANIFEST.tsv").read_text().splitlines()[1:]:
        cells = line.split("\t")
        if cells[1] != "matrix":
            continue
        extents = cells[4].split("x")
        if len(extents) == 2 and extents[0] == extents[1] and least <= int(cells[5]) <= most:
            rows.append((int(cells[5]), Path(cells[0]).stem))
    return sorted(rows)


def spread(names: list[str], limit: int) -> list[str]:
    """``limit`` of ``names`` evenly spread (first and last included)."""
    if limit >= len(names):
        return names
    if limit <= 1:
        return names[:limit]
    return [names[round(k * (len(names) - 1) / (limit - 1))] for k in range(limit)]


def load(path: Path) -> tuple[sp.csr_matrix, bool]:
    """The matrix as CSR (sorted, duplicates summed, symmetric files expanded), float64 values
    (``1 + (i+j) mod 7`` for a pattern file), and whether the file is a pattern."""
    with open(path) as handle:
        pattern = "pattern" in handle.readline()
    A = sp.csr_matrix(scipy.io.mmread(path)).astype(np.float64)
    A.sum_duplicates()
    A.sort_indices()
    if pattern:
        rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
        A.data = 1.0 + (rows + A.indices) % 7
    return A, pattern


def csr(matrix) -> sp.csr_matrix:
    matrix = sp.csr_matrix(matrix)
    matrix.sum_duplicates()
    matrix.sort_indices()
    return matrix


def second_matrix(A: sp.csr_matrix, rng: np.random.Generator) -> sp.csr_matrix:
    """B: Aᵀ with its values shuffled and 30% of its entries dropped, with 10% of a row- and
    column-permuted copy of A added (so that B has entries A lacks and lacks some A has)."""
    n = A.shape[0]
    T = sp.coo_matrix(A.T)
    keep = rng.random(T.nnz) < 0.7
    values = rng.permutation(T.data)[keep]
    P = sp.coo_matrix(A)
    permutation = rng.permutation(n)
    sample = rng.random(P.nnz) < 0.1
    rows = np.concatenate([T.row[keep], permutation[P.row[sample]]])
    columns = np.concatenate([T.col[keep], permutation[P.col[sample]]])
    data = np.concatenate([values, P.data[sample]])
    B = sp.coo_matrix((data, (rows, columns)), shape=A.shape).tocsr()  # duplicates summed
    return csr(B)


def retype(A: sp.csr_matrix, dtype: str) -> sp.csr_matrix:
    if dtype == "float64":
        return A
    if dtype == "float32":
        return A.astype(np.float32)
    rows = np.repeat(np.arange(A.shape[0]), np.diff(A.indptr))
    out = A.copy().astype(np.int64)
    out.data = (rows + 2 * A.indices) % 9 - 4
    return out


def draw(values: np.ndarray, size, rng: np.random.Generator, dtype) -> np.ndarray:
    """``size`` values drawn from ``values`` (a matrix's; ones when it has none)."""
    pool = values if values.size else np.ones(1, dtype=dtype)
    return rng.choice(pool, size).astype(dtype)


class Problem:
    """One matrix in one value type: the operands, masks, accumulated outputs, and their
    packed spf tensors and GraphBLAS objects (made once, on first use)."""

    def __init__(self, name: str, A64: sp.csr_matrix, dtype: str, block: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.name, self.dtype = name, dtype
        B64 = second_matrix(A64, rng)
        self.np_dtype = np.dtype(dtype)
        self.full = {"A": retype(A64, dtype), "B": retype(B64, dtype)}
        m = min(block, A64.shape[0])
        self.block_extent = m
        self.block = {"A": csr(self.full["A"][:m, :m]), "B": csr(self.full["B"][:m, :m])}
        A = self.full["A"]
        n = A.shape[0]
        self.n = n
        self.x = draw(A.data, n, rng, self.np_dtype) if dtype != "int64" else rng.integers(-3, 4, n).astype(np.int64)
        # vector masks: SV (stored positions, a third of them zeros) and Dense1 (nonzero values)
        chosen = np.flatnonzero(rng.random(n) < 0.5)
        sv_values = draw(A64.data, chosen.size, rng, np.float64)
        sv_values[rng.random(chosen.size) < 1 / 3] = 0.0
        dense_mask = np.zeros(n)
        dense_mask[rng.random(n) < 0.5] = 1.0
        dense_mask *= draw(np.abs(A64.data) + 1.0, n, rng, np.float64)
        self.vector_masks = {"SV": (chosen, sv_values), "Dense1": dense_mask}
        self.vector_start = {"": draw(A.data, n, rng, self.np_dtype), "bool": (rng.random(n) < 0.5)}
        # matrix masks: half of A's and B's positions and a few random ones, as CSR (its stored
        # positions, a third of them zeros) and Dense2 (nonzero values) on the block
        self.matrix_masks = {"full": self.matrix_mask(self.full, rng), "block": self.matrix_mask(self.block, rng)}
        self.matrix_start = {}
        for where, operands in (("full", self.full), ("block", self.block)):
            k = operands["A"].shape[0]
            self.matrix_start[where] = {"": None, "bool": None, "extent": k}
            if where == "block":
                self.matrix_start[where][""] = draw(A.data, (k, k), rng, self.np_dtype)
                self.matrix_start[where]["bool"] = rng.random((k, k)) < 0.5
        self._packed: dict = {}
        self._graphblas: dict = {}

    @staticmethod
    def matrix_mask(operands: dict, rng: np.random.Generator) -> sp.csr_matrix:
        A, B = sp.coo_matrix(operands["A"]), sp.coo_matrix(operands["B"])
        k = A.shape[0]
        extra = max(1, A.nnz // 10)
        rows = np.concatenate([A.row, B.row, rng.integers(0, k, extra)])
        columns = np.concatenate([A.col, B.col, rng.integers(0, k, extra)])
        pick = rng.random(rows.size) < 0.5
        positions = np.unique(np.stack([rows[pick], columns[pick]]), axis=1)
        values = rng.uniform(1.0, 3.0, positions.shape[1])  # nonzero in every type
        values[rng.random(values.size) < 1 / 3] = 0.0
        M = sp.csr_matrix((values, (positions[0], positions[1])), shape=(k, k))
        M.sort_indices()
        return M

    def operands(self, operation: Operation) -> dict:
        return self.block if operation.block else self.full

    def packed(self, which: str, where: str, layout: str):
        key = (which, where, layout)
        if key not in self._packed:
            matrix = (self.block if where == "block" else self.full)[which]
            self._packed[key] = spf.pack(layout, matrix)
        return self._packed[key]

    def spf_mask(self, operation: Operation, mask: MaskCase):
        """The mask as spf is given it: its values in the operands' type (float64 if ``foreign``)."""
        dtype = np.float64 if mask.foreign else self.np_dtype
        where = "block" if operation.block else "full"
        key = ("M", mask.layout, where, np.dtype(dtype).name)
        if key in self._packed:
            return self._packed[key]
        if mask.layout == "SV":
            chosen, values = self.vector_masks["SV"]
            value = spf.pack("SV", (chosen[:, None], values.astype(dtype), (self.n,)))
        elif mask.layout == "Dense1":
            value = self.vector_masks["Dense1"].astype(dtype)
        elif mask.layout == "Dense2":
            value = self.matrix_masks[where].toarray().astype(dtype)
        else:
            value = spf.pack("CSR", self.matrix_masks[where].astype(dtype))
        self._packed[key] = value
        return value

    def kept(self, operation: Operation, mask: MaskCase, shape) -> np.ndarray | None:
        """The positions the output is computed at (a dense bool array), None without a mask."""
        if not mask.layout:
            return None
        key = ("kept", str(mask), operation.block)
        if key not in self._packed:
            self._packed[key] = self._kept(operation, mask, shape)
        return self._packed[key]

    def _kept(self, operation: Operation, mask: MaskCase, shape) -> np.ndarray:
        if mask.layout == "SV":
            present = np.zeros(shape, dtype=bool)
            present[self.vector_masks["SV"][0]] = True
        elif mask.layout == "Dense1":
            present = self.vector_masks["Dense1"] != 0
        else:
            M = self.matrix_masks["block" if operation.block else "full"]
            if mask.layout == "Dense2":
                present = M.toarray() != 0
            else:
                present = np.zeros(shape, dtype=bool)
                coo = sp.coo_matrix(M)
                present[coo.row, coo.col] = True
        return ~present if mask.complemented else present

    def start(self, operation: Operation, boolean: bool) -> np.ndarray | sp.csr_matrix:
        """The output an accumulating call starts from (0/1 under lor and land): dense, or for
        a CSR output the matrix mask's positions holding values drawn from A's."""
        if operation.output == "CSR":
            pattern = self.matrix_masks["block" if operation.block else "full"]
            rng = np.random.default_rng(pattern.nnz)
            values = (rng.random(pattern.nnz) < 0.5) if boolean else draw(self.full["A"].data, pattern.nnz, rng,
                                                                           self.np_dtype)
            return sp.csr_matrix((values.astype(self.np_dtype), pattern.indices, pattern.indptr), pattern.shape)
        if operation.kind == "vector":
            value = self.vector_start["bool" if boolean else ""]
        else:
            value = self.matrix_start["block"]["bool" if boolean else ""]
        return value.astype(self.np_dtype) if boolean else value


# ------------------------------------------------------------------------------------------ GraphBLAS


def boolean(ring: str) -> bool:
    monoid, operator = ring.split("_", 1)
    return monoid in ("lor", "land") or operator in ("lor", "land")


def identity(monoid: str, dtype: np.dtype):
    if monoid in ("plus", "lor", "any"):
        return dtype.type(0)
    if monoid in ("times", "land"):
        return dtype.type(1)
    if dtype.kind == "f":
        return dtype.type(np.inf if monoid == "min" else -np.inf)
    info = np.iinfo(dtype)
    return dtype.type(info.max if monoid == "min" else info.min)


class GraphBLAS:
    """python-graphblas's results for a Problem, densified as spf's outputs are."""

    def __init__(self, gb, problem: Problem):
        self.gb, self.problem = gb, problem
        self._objects: dict = {}

    def matrix(self, which: str, operation: Operation, as_bool: bool, absolute: bool = False):
        where = "block" if operation.block else "full"
        key = (which, where, as_bool, absolute)
        if key not in self._objects:
            matrix = self.problem.operands(operation)[which]
            if absolute:
                matrix = abs(matrix)
            if as_bool:
                matrix = matrix.astype(bool)
            self._objects[key] = self.gb.io.from_scipy_sparse(matrix)
        return self._objects[key]

    def vector(self, as_bool: bool, absolute: bool = False):
        key = ("x", as_bool, absolute)
        if key not in self._objects:
            x = self.problem.x
            if absolute:
                x = np.abs(x)
            self._objects[key] = self.gb.Vector.from_dense(x != 0 if as_bool else x)
        return self._objects[key]

    def mask(self, operation: Operation, mask: MaskCase):
        if not mask.layout:
            return None
        gb, problem = self.gb, self.problem
        key = ("M", mask.layout, operation.block)
        if key not in self._objects:
            if mask.layout == "SV":
                chosen, values = problem.vector_masks["SV"]
                self._objects[key] = gb.Vector.from_coo(chosen, values, size=problem.n).S
            elif mask.layout == "Dense1":
                self._objects[key] = gb.Vector.from_dense(problem.vector_masks["Dense1"]).V
            else:
                M = problem.matrix_masks["block" if operation.block else "full"]
                # a Dense2 mask by its values: given to GraphBLAS as the sparse matrix of its nonzeros
                # (the same mask): SuiteSparse:GraphBLAS 9.4.5 crashes on C<M.V> += A*B with M full
                nonzeros = M.copy()
                nonzeros.eliminate_zeros()
                self._objects[key] = gb.io.from_scipy_sparse(M).S if mask.layout == "CSR" \
                    else gb.io.from_scipy_sparse(nonzeros).V
        return ~self._objects[key] if mask.complemented else self._objects[key]

    def expression(self, operation: Operation, ring: str, as_bool: bool, absolute: bool = False,
                   monoid: str | None = None, operator: str | None = None):
        gb = self.gb
        add, multiply = ring.split("_", 1)
        add, multiply = monoid or add, operator or multiply
        A = self.matrix("A", operation, as_bool, absolute)
        semiring = getattr(gb.semiring, f"{add}_{multiply}")
        base = operation.base
        if base == "mxv":
            return A.mxv(self.vector(as_bool, absolute), semiring)
        if base == "vxm":
            return self.vector(as_bool, absolute).vxm(A, semiring)
        if base == "reduce_rows":
            return A.reduce_rowwise(getattr(gb.monoid, add))
        if base == "reduce_scalar":
            return A.reduce_scalar(getattr(gb.monoid, add))
        B = self.matrix("B", operation, as_bool, absolute)
        if base == "mxm":
            return A.mxm(B, semiring)
        if base == "ewise_add":
            return A.ewise_add(B, getattr(gb.monoid, add))
        if base == "ewise_mult":
            return A.ewise_mult(B, getattr(gb.binary, multiply))
        raise ValueError(operation.name)

    def result(self, operation: Operation, ring: str, mask: MaskCase, accumulate: bool, start=None,
               absolute: bool = False, monoid: str | None = None, operator: str | None = None):
        """The result as spf gives it: a dense array with ⊕'s identity where GraphBLAS has no
        entry (a float for a scalar), or scipy CSR for a CSR output.  Kept when unmasked and not
        accumulated (the tolerances' magnitudes and any's bounds, asked for each layout)."""
        if not mask.layout and not accumulate:
            key = ("result", operation.name, ring, absolute, monoid, operator)
            if key not in self._objects:
                self._objects[key] = self._result(operation, ring, mask, False, None, absolute, monoid, operator)
            return self._objects[key]
        return self._result(operation, ring, mask, accumulate, start, absolute, monoid, operator)

    def _result(self, operation: Operation, ring: str, mask: MaskCase, accumulate: bool, start, absolute: bool,
                monoid: str | None, operator: str | None):
        gb, problem = self.gb, self.problem
        add = monoid or ring.split("_", 1)[0]
        as_bool = boolean(ring)
        expression = self.expression(operation, ring, as_bool, absolute, monoid, operator)
        dtype = problem.np_dtype
        fill = identity(add, dtype)
        if operation.kind == "scalar":
            value = expression.new().value
            return fill if value is None else dtype.type(value)
        result_type = gb.dtypes.BOOL if as_bool else gb.dtypes.lookup_dtype(dtype)
        if accumulate and operation.output == "CSR":
            out = gb.io.from_scipy_sparse(start.astype(bool) if as_bool else start)
        elif accumulate:
            out = (gb.Vector if operation.kind == "vector" else gb.Matrix).from_dense(
                start != 0 if as_bool else start, dtype=result_type)
        elif operation.kind == "vector":
            out = gb.Vector(result_type, problem.n)
        else:
            k = problem.operands(operation)["A"].shape[0]
            out = gb.Matrix(result_type, k, k)
        accum = getattr(gb.binary, add) if accumulate else None
        out(mask=self.mask(operation, mask), accum=accum) << expression
        if operation.output == "CSR":
            return csr(gb.io.to_scipy_sparse(out, "csr"))
        dense = out.to_dense(fill_value=bool(fill) if as_bool else fill)
        return dense.astype(dtype)


# ------------------------------------------------------------------------------------------ comparing


@dataclass
class Outcome:
    status: str  # agreed, refused, error, disagreed
    detail: str = ""


def first_differences(got: np.ndarray, expected: np.ndarray, bad: np.ndarray, count: int = 3) -> str:
    positions = np.argwhere(bad)[:count]
    parts = [f"at {tuple(int(p) for p in position)}: spf {got[tuple(position)]!r}, graphblas "
             f"{expected[tuple(position)]!r}" for position in positions]
    return f"{int(bad.sum())} of {bad.size} entries differ; " + "; ".join(parts)


def stored_at(matrix: sp.csr_matrix, pattern: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Whether ``matrix`` has an entry at each of ``pattern``'s entries, in their order, and its
    value there (0 where it has none)."""
    columns = matrix.shape[1]
    keys = np.repeat(np.arange(matrix.shape[0]), np.diff(matrix.indptr)) * columns + matrix.indices
    wanted = np.repeat(np.arange(pattern.shape[0]), np.diff(pattern.indptr)) * columns + pattern.indices
    if not keys.size:
        return np.zeros(wanted.size, dtype=bool), np.zeros(wanted.size)
    at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
    has = keys[at] == wanted
    return has, np.where(has, matrix.data[at], 0).astype(np.float64)


def values_at(matrix: sp.csr_matrix, pattern: sp.csr_matrix) -> np.ndarray:
    """``matrix``'s absolute values at ``pattern``'s entries, in their order (0 where it has none)."""
    return np.abs(stored_at(matrix, pattern)[1])


def same_pattern(a: sp.csr_matrix, b: sp.csr_matrix) -> bool:
    return np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)


def tolerance_bad(got, expected, magnitude, rtol: float) -> np.ndarray:
    return ~(np.abs(got.astype(np.float64) - expected.astype(np.float64)) <= rtol * magnitude)


def compare(problem: Problem, gbl: GraphBLAS, operation: Operation, ring: str, mask: MaskCase,
            accumulate: bool, got, expected, start) -> Outcome:
    add, multiply = ring.split("_", 1)
    dtype = problem.dtype
    products = operation.base in ("mxv", "vxm", "mxm", "ewise_mult")  # ⊗ applies (reduce and ewise_add: ⊕ only)
    exact = add in EXACT_MONOIDS or (multiply == "pair" and products) or problem.np_dtype.kind in "iub"
    if operation.output == "CSR":
        got = csr(got.to_scipy())
        note = ""
        if got.shape == expected.shape and not same_pattern(got, expected):
            # spf's assembled outputs do not store an entry whose terms sum to exactly zero
            # (README, "Entries that sum to exactly zero are not stored"); GraphBLAS keeps it
            nonzero = expected.copy()
            nonzero.eliminate_zeros()
            if same_pattern(got, nonzero) and not (got.data == 0).any():
                note = f"{expected.nnz - nonzero.nnz} entries of value 0 graphblas keeps are not stored by spf"
                expected = nonzero
        if got.dtype != problem.np_dtype:
            return Outcome("disagreed", f"spf's result is {got.dtype}, the operands' type is {problem.np_dtype} "
                                        "(GraphBLAS's is theirs)")
        if got.shape != expected.shape or not same_pattern(got, expected):
            difference = abs((got != 0).astype(int) - (expected != 0).astype(int)).sum()
            return Outcome("disagreed", f"patterns differ: spf {got.nnz} entries, graphblas {expected.nnz}; "
                                        f"{difference} positions differ in nonzeros")
        if add == "any" and (multiply != "pair" or operation.base == "ewise_add" or accumulate):
            bad = any_bad_stored(problem, gbl, operation, ring, got, start if accumulate else None)
        elif exact:
            bad = got.data != expected.data
        else:
            magnitude = values_at(gbl.result(operation, ring, NO_MASK, False, absolute=True), got)
            if accumulate:
                magnitude = magnitude + values_at(start, got)
            bad = tolerance_bad(got.data, expected.data, np.maximum(magnitude, np.abs(expected.data)), RTOL[dtype])
        if bad.any():
            return Outcome("disagreed", first_differences(got.data, expected.data, bad))
        return Outcome("documented", note) if note else Outcome("agreed")
    got = np.asarray(got)
    if got.shape != np.shape(expected):
        return Outcome("disagreed", f"shapes differ: spf {got.shape}, graphblas {np.shape(expected)}")
    if got.dtype != problem.np_dtype:
        with np.errstate(invalid="ignore"):  # ⊕'s float identity (inf) into an integer
            cast = got.astype(problem.np_dtype)
        values = compare(problem, gbl, operation, ring, mask, accumulate, cast, expected, start)
        agree = "its values agree" if values.status == "agreed" else f"values: {values.detail}"
        return Outcome("disagreed", f"spf's result is {got.dtype}, the operands' type is {problem.np_dtype} "
                                    f"(GraphBLAS's is theirs); {agree}")
    if add == "any" and (multiply != "pair" or operation.base in ("reduce_rows", "reduce_scalar", "ewise_add")):
        bad = any_bad(problem, gbl, operation, ring, mask, got)
    elif exact:
        bad = ~((got == expected) | (np.isnan(got) & np.isnan(expected)) if got.dtype.kind == "f"
                else got == expected)
    else:
        magnitude = np.abs(gbl.result(operation, ring, NO_MASK, False, absolute=True)).astype(np.float64)
        if accumulate:
            magnitude = magnitude + np.abs(start).astype(np.float64)
        magnitude = np.maximum(magnitude, np.abs(expected).astype(np.float64))
        bad = tolerance_bad(got, expected, magnitude, RTOL[dtype])
    bad = np.atleast_1d(bad)
    if bad.any():
        return Outcome("disagreed", first_differences(np.atleast_1d(got), np.atleast_1d(expected), bad))
    return Outcome("agreed")


def any_bad_stored(problem: Problem, gbl: GraphBLAS, operation: Operation, ring: str,
                   got: sp.csr_matrix, start: sp.csr_matrix | None = None) -> np.ndarray:
    """Under the any monoid, into CSR (whose pattern agreed with GraphBLAS's): where a stored
    entry is not one of the values reduced into it (A's or B's there for ewise_add, between
    the least and the greatest product for a product, or the accumulated output's own value
    there, ``start``), as a bool array over got's entries."""
    got_values = got.data.astype(np.float64)
    if operation.base == "ewise_add":
        operands = problem.operands(operation)
        (a_has, a), (b_has, b) = stored_at(operands["A"], got), stored_at(operands["B"], got)
        ok = (a_has & (got_values == a)) | (b_has & (got_values == b))
    else:
        reached, low = stored_at(gbl.result(operation, ring, NO_MASK, False, monoid="min"), got)
        high = stored_at(gbl.result(operation, ring, NO_MASK, False, monoid="max"), got)[1]
        ok = reached & (low <= got_values) & (got_values <= high)
    if start is not None:
        start_has, started = stored_at(start, got)
        ok |= start_has & (got_values == started)
    return ~ok


def any_bad(problem: Problem, gbl: GraphBLAS, operation: Operation, ring: str, mask: MaskCase, got) -> np.ndarray:
    """Under the any monoid: where each entry is not one of the values reduced into it (⊕'s
    identity 0 where nothing is), as a bool array."""
    operands = problem.operands(operation)
    A = operands["A"]
    base = operation.base
    if base == "reduce_scalar":
        ok = (got.item() in set(A.data.tolist())) if A.nnz else got == 0
        return np.array([not ok])
    if base == "reduce_rows":
        counts = np.diff(A.indptr)
        rows = np.repeat(np.arange(A.shape[0]), counts)
        match = A.data == got[rows]
        hit = np.zeros(A.shape[0], dtype=bool)
        nonempty = counts > 0
        hit[nonempty] = np.logical_or.reduceat(match, A.indptr[:-1][nonempty])
        ok = np.where(nonempty, hit, got == 0)
    elif base == "ewise_add":
        B = operands["B"]
        a_has = sp.csr_matrix((np.ones(A.nnz, dtype=bool), A.indices, A.indptr), A.shape).toarray()
        b_has = sp.csr_matrix((np.ones(B.nnz, dtype=bool), B.indices, B.indptr), B.shape).toarray()
        a, b = A.toarray(), B.toarray()
        ok = (a_has & (got == a)) | (b_has & (got == b)) | (~a_has & ~b_has & (got == 0))
    else:  # a product under any_⊗: between the least and the greatest product (exact for pair)
        low = gbl.result(operation, ring, NO_MASK, False, monoid="min")
        high = gbl.result(operation, ring, NO_MASK, False, monoid="max")
        reached = np.isfinite(low)
        ok = np.where(reached, (low <= got) & (got <= high), got == 0)
    kept = problem.kept(operation, mask, got.shape)
    if kept is not None:
        ok = np.where(kept, ok, got == 0)
    return ~ok


# ------------------------------------------------------------------------------------------ running


def refusal_reason(message: str) -> str:
    if "stores padding" in message:
        return "BCSR stores padding that would count as entries (0 ⊗ x is not ⊕'s identity)"
    if "is a scalar, which a call returns" in message:
        return "accumulating into a scalar output (a call returns it as a number)"
    if "expected a monoid" in message:
        return "accumulate='any': no accumulator for the any monoid"
    return message.split("\n")[0][:160]


def run_case(problem: Problem, gbl: GraphBLAS, operation: Operation, ring: str, layout: str, mask: MaskCase,
             accumulate: bool, expected, start) -> Outcome:
    add = ring.split("_", 1)[0]
    layouts = {"A": layout}
    if "B(" in operation.expression:
        layouts["B"] = layout
    if "x(" in operation.expression:
        layouts["x"] = "Dense1"
    if operation.output:
        layouts[operation.output_name] = operation.output
    options = {"semiring": ring}
    if mask.layout:
        layouts["M"] = mask.layout
        options["mask"] = "~M" if mask.complemented else "M"
    if accumulate:
        options["accumulate"] = add
    try:
        kernel = spf.compile(operation.expression, layouts, **options)
    except SpfError as error:
        reason = refusal_reason(str(error))
        if "padding" in reason and operation.base in ("reduce_rows", "reduce_scalar", "ewise_add") \
                and add in ("plus", "lor", "any"):
            reason = ("BCSR's padding, refused although it could not count here (each term has one factor, so ⊗ "
                      "never applies, and a zero is ⊕'s identity)")
        return Outcome("refused", reason)
    where = "block" if operation.block else "full"
    arguments = {"A": problem.packed("A", where, layout)}
    if "B" in layouts:
        arguments["B"] = problem.packed("B", where, layout)
    if "x" in layouts:
        arguments["x"] = problem.x
    if mask.layout:
        arguments["M"] = problem.spf_mask(operation, mask)
    if accumulate:
        arguments[operation.output_name] = start.copy()
    try:
        got = kernel(**arguments)
    except Exception as error:  # a call that fails is reported, not raised
        return Outcome("error", f"{type(error).__name__}: {str(error).splitlines()[0][:200]}")
    if expected is None:
        return Outcome("error", "graphblas could not compute it")
    return compare(problem, gbl, operation, ring, mask, accumulate, got, expected, start)


@dataclass
class Tally:
    checked: int = 0
    agreed: int = 0
    refused: Counter = None
    errors: list = None
    disagreed: list = None
    by_operation: dict = None

    def __post_init__(self):
        self.refused, self.errors, self.disagreed = Counter(), [], []
        self.documented = defaultdict(set)  # reason -> matrices
        self.by_operation = defaultdict(Counter)

    def add(self, key: str, operation: str, outcome: Outcome) -> None:
        self.checked += 1
        self.by_operation[operation][outcome.status] += 1
        if outcome.status == "agreed":
            self.agreed += 1
        elif outcome.status == "documented":
            self.documented[DOCUMENTED_ZEROS].add(key.split("/")[0])
        elif outcome.status == "refused":
            self.refused[outcome.detail] += 1
        elif outcome.status == "error":
            self.errors.append((key, outcome.detail))
        else:
            self.disagreed.append((key, outcome.detail))


def run_problem(gb, problem: Problem, tally: Tally, operations, semirings, layouts, typed: bool,
                only: str | None, csr_flops: int, csr_extent: int, verbose: bool) -> None:
    gbl = GraphBLAS(gb, problem)
    for operation in operations:
        if operation.output == "CSR" and operation.base == "mxm":
            A, B = problem.full["A"], problem.full["B"]
            flops = int(np.dot(np.diff(sp.csc_matrix(A).indptr), np.diff(B.indptr)))
            if flops > csr_flops or problem.n > csr_extent:  # CSC x CSC into CSR takes seconds on large n
                print(f"  {problem.name}: mxm_csr on the leading block ({flops} products, --csr-flops {csr_flops}; "
                      f"extent {problem.n}, --csr-extent {csr_extent})")
                operation = replace(operation, block=True)
        started = time.perf_counter()
        for ring in semirings:
            add = ring.split("_", 1)[0]
            for mask in mask_cases(operation, typed):
                for accumulate in (False, True):
                    keys = {layout: key_of(problem.name, problem.dtype, operation.name, ring, layout, mask, accumulate)
                            for layout in layouts}
                    if only is not None:
                        keys = {layout: key for layout, key in keys.items() if key == only}
                        if not keys:
                            continue
                    start = None
                    if accumulate and operation.kind != "scalar":
                        start = problem.start(operation, add in ("lor", "land"))
                    expected = None
                    for layout, key in keys.items():
                        if expected is None:
                            try:
                                expected = gbl.result(operation, ring, mask, accumulate and start is not None, start)
                            except Exception as error:  # noqa: BLE001 - a combination GraphBLAS cannot do
                                print(f"  graphblas failed on {key}: {type(error).__name__}: {error}")
                        outcome = run_case(problem, gbl, operation, ring, layout, mask, accumulate, expected, start)
                        tally.add(key, operation.name, outcome)
                        if verbose or only is not None or outcome.status in ("disagreed", "error"):
                            print(f"  {outcome.status:9} {key}  {outcome.detail}")
        print(f"  {operation.name}: {time.perf_counter() - started:.1f} s", flush=True)


def reproducer(key: str) -> str:
    matrix, dtype = key.split("/")[:2]
    return f"python benchmarks/graphblas_agreement.py --matrices {matrix} --types {dtype} --only '{key}'"


STATUSES = ("agreed", "documented", "refused", "error", "disagreed")


def print_table(tally: Tally, seconds: float) -> None:
    print()
    print(f"{'operation':16} {'checked':>8} " + " ".join(f"{status:>10}" for status in STATUSES))
    total = Counter()
    for name, counts in tally.by_operation.items():
        total.update(counts)
        print(f"{name:16} {sum(counts.values()):8} " + " ".join(f"{counts[status]:10}" for status in STATUSES))
    print(f"{'total':16} {tally.checked:8} " + " ".join(f"{total[status]:10}" for status in STATUSES))
    print(f"\n{tally.checked} combinations checked in {seconds:.0f} s: {total['agreed']} agreed, "
          f"{total['documented']} agreed up to a documented difference, {total['refused']} refused by spf, "
          f"{total['error']} errors, {total['disagreed']} disagreed")
    for reason, matrices in tally.documented.items():
        print(f"\ndocumented difference ({total['documented']}, on {', '.join(sorted(matrices))}): {reason}")
    if tally.refused:
        print("\nrefused, by reason:")
        for reason, count in tally.refused.most_common():
            print(f"  {count:6}  {reason}")
    for title, rows in (("errors", tally.errors), ("disagreements", tally.disagreed)):
        if not rows:
            continue
        print(f"\n{title} (grouped over the layouts):")
        groups = defaultdict(list)
        for key, detail in rows:
            parts = key.split("/")
            groups["/".join(parts[:4] + ["*"] + parts[5:])].append((parts[4], key, detail))
        for group, members in groups.items():
            layouts = ", ".join(layout for layout, _, _ in members)
            _, key, detail = members[0]
            print(f"  {group} [{layouts}]: {detail}\n    rerun: {reproducer(key)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--least", type=int, default=1000, help="least nonzeros of a matrix")
    parser.add_argument("--most", type=int, default=300_000, help="most nonzeros of a matrix")
    parser.add_argument("--limit", type=int, default=5, help="how many matrices, spread over the range")
    parser.add_argument("--matrices", default="", help="comma-separated names instead of the range")
    parser.add_argument("--types", default="float64,float32,int64")
    parser.add_argument("--typed-limit", type=int, default=2, help="matrices (the smallest) of the float32/int64 passes")
    parser.add_argument("--block", type=int, default=1000,
                        help="extent of the leading block the dense matrix outputs are computed on")
    parser.add_argument("--csr-flops", type=int, default=3_000_000,
                        help="most products of an mxm into CSR on the whole matrix (else on the block)")
    parser.add_argument("--csr-extent", type=int, default=6000,
                        help="largest extent of an mxm into CSR on the whole matrix (else on the block)")
    parser.add_argument("--ops", default="", help="comma-separated operations (default: all)")
    parser.add_argument("--semirings", default="", help="comma-separated semirings (default: issue 29's twelve)")
    parser.add_argument("--layouts", default="", help="comma-separated layouts (default: CSR,CSC,DCSR,COO,BCSR)")
    parser.add_argument("--only", default=None, help="one combination's key, as the table prints it")
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--verbose", action="store_true", help="print every combination's outcome")
    options = parser.parse_args(argv)
    try:
        import graphblas as gb
    except ImportError:
        print("python-graphblas is not installed (pip install '.[bench]'): nothing to compare with")
        return 2
    gb.init("suitesparse", blocking=True)
    gb.ss.config["nthreads"] = 1
    data = Path(options.data)
    if not (data / "MANIFEST.tsv").exists():
        print(f"no real data at {data} (set SPF_DATA or place ../shared/data beside the repository)")
        return 2
    if options.matrices:
        names = options.matrices.split(",")
    else:
        names = spread([name for _, name in manifest_matrices(data, options.least, options.most)], options.limit)
    operations = [op for op in OPERATIONS if not options.ops or op.name in options.ops.split(",")]
    semirings = options.semirings.split(",") if options.semirings else SEMIRINGS
    layouts = options.layouts.split(",") if options.layouts else LAYOUTS
    types = options.types.split(",")
    only = options.only
    if only is not None:
        names, types = [only.split("/")[0]], [only.split("/")[1]]
    tally = Tally()
    started = time.perf_counter()
    print(f"matrices: {', '.join(names)}; types {', '.join(types)}; dense matrix outputs on the leading "
          f"{options.block} x {options.block} block")
    for dtype in types:
        typed = dtype != "float64"
        chosen = names[:options.typed_limit] if typed and only is None else names
        for name in chosen:
            A, pattern = load(data / "matrices" / f"{name}.mtx")
            problem = Problem(name, A, dtype, options.block)
            print(f"{name} ({A.shape[0]}x{A.shape[1]}, {A.nnz} entries{', pattern' if pattern else ''}) {dtype}: "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
            run_problem(gb, problem, tally, operations, semirings, TYPED_LAYOUTS if typed and not options.layouts
                        else layouts, typed, only, options.csr_flops, options.csr_extent, options.verbose)
    print_table(tally, time.perf_counter() - started)
    return 1 if tally.disagreed or tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
