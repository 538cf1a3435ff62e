"""Assembled outputs on every real matrix and tensor in ../shared/data, checked against scipy / numpy.

    .venv/bin/python tests/codegen/assembly/sweep_assembly.py                           # everything (45 minutes here)
    .venv/bin/python tests/codegen/assembly/sweep_assembly.py --only '^(karate|lp_afiro)$' --check 'A\\*A'
    .venv/bin/python tests/codegen/assembly/sweep_assembly.py --sanitize --only '^(karate|west0067|nations)$'

Issue 11's first acceptance item, run by hand (pytest does not collect it;
tests/codegen/assembly/test_sweep_assembly.py runs it on two small matrices and a tensor).  The data are
the files listed in ../shared/data/MANIFEST.tsv (or $SPF_DATA), smallest first; nothing
is copied or written.  Per matrix A:

* A*A (square A) and A*A^T into CSR, CSC, DCSR and COO, where nnz(C) <= --max-nnz
  (flops first; when they exceed it, the exact count of a row-chunked scipy product);
* A+B, A-B and A.*B into CSR, B being A with a random 40% of its entries removed and
  5% new random ones added (A's values kept, so A-B cancels exactly where B kept them);
* the transposition B(j,i) = A(i,j) into CSR;
* spf.pack into, and spf.convert between, every pair of COO, CSR, CSC, DCSR, DCSC,
  BCSR(2,2), BCSR(4,4), ELL, DIA, and from each into CSR_UNSORTED; a pair is skipped
  when ELL's or DIA's arrays would exceed --max-bytes.

Per tensor (order 3 and 4): spf.pack into COO3/CSF3 (COO4/CSF4), spf.convert between
them, the permuted copies B(p(i,j,k)) = A(i,j,k) for every mode order p, from each
layout into each; for order 3, TTM A(i,j,l) = B(i,j,k) * C(k,l) into CSF3_DENSE_LAST
without share (C dense with 4 columns).

Each result is validated against its layout's properties (spf.runtime.packing.validate: sorted
rows, strictly increasing coordinates, ...) and its entries compared with the
reference as sorted canonical lists: exactly the same coordinates, values within
rtol 1e-12 (atol 1e-14 * the largest reference value).  Kernels store nonzeros (as
scipy's products and sums do), conversions every stored entry; padded layouts (BCSR,
ELL, DIA, CSF3_DENSE_LAST) are compared on their nonzero entries.

One line per (data, check): OK, FAIL (what differs) or SKIP(reason), and the seconds it
took; a summary with counts, the failures with reproducers, the skips by reason.
Exit status 1 on any FAIL.  --sanitize compiles every kernel, builder and conversion
with the sanitizer flags (as tests/codegen/c/test_codegen_sanitize.py does) and runs the checks
in a child process that preloads the ASan/UBSan runtimes, its kernels in a temporary
cache; a sanitizer report fails the check that was running and the child resumes after it.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import re
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: conftest's data helpers

import spf  # noqa: E402
import spf.runtime.assemble  # noqa: E402
from conftest import DATA, MATRICES, TENSORS, load_matrix, load_tensor  # noqa: E402
from spf.runtime.validation import validate  # noqa: E402

RTOL = 1e-12
ATOL_SCALE = 1e-14
MATRIX_LAYOUTS = ["COO", "CSR", "CSC", "DCSR", "DCSC", "BCSR(R=2, C=2)", "BCSR(R=4, C=4)", "ELL", "DIA"]
PRODUCT_OUTPUTS = ["CSR", "CSC", "DCSR", "COO"]
TENSOR_LAYOUTS = {3: ["COO3", "CSF3"], 4: ["COO4", "CSF4"]}
INDICES = "ijkl"
TTM_COLUMNS = 4
# Tensor.to_coo and validate enumerate every DIA slot, with ~100 bytes of temporaries
# each (8.6 GB and 38 s for 4elt's 666 MB of arrays): DIA results with more slots are
# read here by diagonals instead, and their properties (the offsets') checked here.
DIA_ENUMERATION_LIMIT = 1_000_000
MARK = "@@"  # a sanitized child's lines to its parent


class Skip(Exception):
    """The check does not apply or would not fit; the message says why."""


class Mismatch(Exception):
    """spf's result differs from the reference; the message says where."""


@dataclass
class Check:
    data: str
    label: str
    reproducer: str
    run: Callable[[], str]  # returns a short note (sizes), raises Skip or Mismatch


@dataclass
class Record:
    data: str
    label: str
    status: str  # OK, FAIL or SKIP
    seconds: float
    detail: str
    reproducer: str

    def line(self) -> str:
        outcome = {"OK": f"OK ({self.detail})", "FAIL": f"FAIL: {self.detail}", "SKIP": f"SKIP({self.detail})"}
        return f"{self.data:26s} {self.label:44s} {self.seconds:7.2f} s  {outcome[self.status]}"


# ----------------------------------------------------------------------------- the data


def manifest() -> list[tuple[str, str, int]]:
    """(kind, name, nnz) of every matrix and tensor in the manifest: matrices, then tensors, each smallest first."""
    with open(DATA / "MANIFEST.tsv", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    items = [("matrix" if row["kind"] == "matrix" else "tensor", Path(row["file"]).stem, int(row["nnz"]))
             for row in rows]
    return sorted(items, key=lambda item: (item[0] != "matrix", item[2], item[1]))


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


def perturbed(matrix: sp.csr_matrix, seed: int) -> sp.csr_matrix:
    """``matrix`` with a random 40% of its entries removed and 5% new random ones added."""
    rng = np.random.default_rng(seed)
    coo = matrix.tocoo()
    keep = rng.random(coo.nnz) >= 0.4
    extra = max(1, round(0.05 * coo.nnz))
    rows = np.concatenate([coo.row[keep], rng.integers(0, matrix.shape[0], extra)])
    cols = np.concatenate([coo.col[keep], rng.integers(0, matrix.shape[1], extra)])
    values = np.concatenate([coo.data[keep], rng.uniform(-1, 1, extra)])
    return sp.csr_matrix((values, (rows, cols)), shape=matrix.shape)


def product_size(left: sp.csr_matrix, right: sp.csr_matrix, limit: int) -> tuple[int, int | None]:
    """(flops, nnz) of left @ right; nnz is None when the flops are within ``limit`` (it is then
    too), else the pattern's exact count, computed over chunks of rows of about ``limit`` flops."""
    row_work = np.diff(right.indptr).astype(np.int64)
    flops = int(np.dot(np.bincount(left.indices, minlength=left.shape[1]).astype(np.int64), row_work))
    if flops <= limit:
        return flops, None
    left_pattern = sp.csr_matrix((np.ones(left.nnz), left.indices, left.indptr), shape=left.shape)
    right_pattern = sp.csr_matrix((np.ones(right.nnz), right.indices, right.indptr), shape=right.shape)
    work = np.cumsum(left_pattern @ row_work.astype(np.float64))  # flops up to and including each row
    count, start = 0, 0
    while start < left.shape[0] and count <= limit:
        base = work[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(work, base + limit, side="right")))
        count += (left_pattern[start:stop] @ right_pattern).nnz
        start = stop
    return flops, count


def footprint(layout: str, matrix: sp.csr_matrix) -> int:
    """Bytes of ELL's or DIA's arrays for ``matrix`` (0 for the other layouts, whose arrays grow with nnz)."""
    rows = matrix.shape[0]
    if layout == "ELL":
        width = int(np.diff(matrix.indptr).max(initial=0))
        return rows * width * (8 + 8)
    if layout == "DIA":
        coo = matrix.tocoo()
        diagonals = len(np.unique(coo.col.astype(np.int64) - coo.row))
        return diagonals * (rows + 1) * 8
    return 0


# ----------------------------------------------------------------------------- comparison


def keys_of(coords: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Row-major linear positions of the coordinates (lexicographic order is numeric order)."""
    coords = np.asarray(coords, dtype=np.int64).reshape(-1, len(shape))
    if not len(coords):
        return np.zeros(0, np.int64)
    outside = np.any((coords < 0) | (coords >= np.asarray(shape)), axis=1)
    if outside.any():
        raise Mismatch(f"entry {tuple(coords[np.flatnonzero(outside)[0]])} lies outside the shape {shape}")
    return np.ravel_multi_index(tuple(coords.T), shape).astype(np.int64)


def scipy_entries(matrix, zeros: bool) -> tuple[np.ndarray, np.ndarray]:
    """scipy's sorted canonical CSR of ``matrix`` as (keys, values); explicit zeros only with ``zeros``."""
    canonical = sp.csr_matrix(matrix, dtype=np.float64, copy=True)
    canonical.sum_duplicates()
    if not zeros:
        canonical.eliminate_zeros()
    rows = np.repeat(np.arange(canonical.shape[0], dtype=np.int64), np.diff(canonical.indptr))
    return rows * canonical.shape[1] + canonical.indices, canonical.data


def numpy_entries(coords: np.ndarray, values: np.ndarray, shape: tuple[int, ...],
                  zeros: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The (keys, values) of coordinate data, duplicates summed, sorted."""
    keys, inverse = np.unique(keys_of(coords, shape), return_inverse=True)
    summed = np.zeros(len(keys))
    np.add.at(summed, inverse.ravel(), values)
    return (keys, summed) if zeros else (keys[summed != 0], summed[summed != 0])


def diagonal_entries(tensor) -> tuple[np.ndarray, np.ndarray]:
    """A DIA tensor's nonzero entries read diagonal by diagonal, its offsets checked (see DIA_ENUMERATION_LIMIT)."""
    rows, cols = tensor.shape
    offsets = np.asarray(tensor.fields["offsets"], dtype=np.int64)
    if np.any(np.diff(offsets) <= 0) or np.any(offsets <= -rows) or np.any(offsets >= cols):
        raise Mismatch("DIA offsets are not strictly increasing within (-numRows, numCols)")
    data = np.asarray(tensor.fields["data"]).reshape(len(offsets), rows)
    keys, values = [], []
    for d, offset in enumerate(offsets):
        first, last = max(0, -offset), min(rows, cols - offset)
        stored = data[d, first:last]
        nonzero = np.flatnonzero(stored)
        keys.append((nonzero + first) * cols + nonzero + first + offset)
        values.append(stored[nonzero])
    keys, values = np.concatenate(keys or [np.zeros(0, np.int64)]), np.concatenate(values or [np.zeros(0)])
    order = np.argsort(keys, kind="stable")
    return keys[order], values[order]


def spf_entries(tensor) -> tuple[np.ndarray, np.ndarray]:
    """The Tensor's entries as sorted (keys, values) after validating its fields against its layout."""
    if tensor.layout.name == "DIA" and tensor.values.size > DIA_ENUMERATION_LIMIT:
        return diagonal_entries(tensor)
    validate(tensor.layout, dict(tensor.fields), tensor.name, tensor.shape)
    coords, values, shape = tensor.to_coo()
    return keys_of(coords, shape), np.asarray(values, dtype=np.float64)


def compare(tensor, want: tuple[np.ndarray, np.ndarray], shape: tuple[int, ...]) -> str:
    """Raise Mismatch unless the Tensor holds exactly the reference's entries; the note says how many."""
    if tuple(tensor.shape) != tuple(shape):
        raise Mismatch(f"shape {tensor.shape}, expected {shape}")
    got_keys, got_values = spf_entries(tensor)
    want_keys, want_values = want
    if np.any(np.diff(got_keys) == 0):
        duplicate = got_keys[np.flatnonzero(np.diff(got_keys) == 0)[0]]
        raise Mismatch(f"{int(np.sum(np.diff(got_keys) == 0))} duplicate entries, first at "
                       f"{np.unravel_index(duplicate, shape)}")
    if not np.array_equal(got_keys, want_keys):
        extra = np.setdiff1d(got_keys, want_keys)
        missing = np.setdiff1d(want_keys, got_keys)

        def first(keys, source_keys, source_values):
            if not len(keys):
                return ""
            coords = tuple(int(c) for c in np.unravel_index(keys[0], shape))
            return f" (first {coords} = {float(source_values[np.searchsorted(source_keys, keys[0])])!r})"
        raise Mismatch(f"pattern: {len(got_keys)} entries, expected {len(want_keys)}; {len(extra)} only in spf"
                       f"{first(extra, got_keys, got_values)}, {len(missing)} only in the reference"
                       f"{first(missing, want_keys, want_values)}")
    atol = ATOL_SCALE * float(np.abs(want_values).max(initial=0.0))
    bad = ~np.isclose(got_values, want_values, rtol=RTOL, atol=atol)
    if bad.any():
        worst = int(np.argmax(np.abs(got_values - want_values) * bad))
        raise Mismatch(f"values: {int(bad.sum())} of {len(want_keys)} entries differ beyond rtol {RTOL:g}; worst at "
                       f"{tuple(int(c) for c in np.unravel_index(want_keys[worst], shape))}: spf "
                       f"{float(got_values[worst])!r}, reference {float(want_values[worst])!r}")
    return f"{len(want_keys)} entries"


# ----------------------------------------------------------------------------- kernels

SANITIZE = False  # set in a sanitized child: every kernel, builder and conversion built with SANITIZE_FLAGS
_kernels: dict[tuple, object] = {}


def kernel(expression: str, layouts: dict):
    """spf.compile(expression, layouts), once per process (with the sanitizer flags under --sanitize)."""
    key = (expression, tuple(sorted(layouts.items())))
    if key not in _kernels:
        if SANITIZE:
            from spf.codegen.toolchain.compiler import SANITIZE_FLAGS
            from spf.runtime.kernel import callable_kernel
            _kernels[key] = callable_kernel(expression, layouts, flags=list(SANITIZE_FLAGS))
        else:
            _kernels[key] = spf.compile(expression, layouts)
    return _kernels[key]


def call(expression: str, layouts: dict, data: str) -> str:
    return f"spf.compile({expression!r}, {layouts!r}) on {data}"


def skipped(reason: str) -> Callable[[], str]:
    def run() -> str:
        raise Skip(reason)
    return run


class Memo:
    """Values computed on first use; an exception is remembered and raised again as a Skip."""

    def __init__(self, make: Callable):
        self.make, self.values = make, {}

    def __call__(self, key):
        if key not in self.values:
            try:
                self.values[key] = ("ok", self.make(key))
            except Exception as error:  # noqa: BLE001 - reported by the check that made it
                self.values[key] = ("error", error)
                raise
        status, value = self.values[key]
        if status == "error":
            raise Skip(f"packing into {key} failed: {type(value).__name__}")
        return value

    def drop(self, key) -> None:
        self.values.pop(key, None)


# ----------------------------------------------------------------------------- matrix checks


def matrix_checks(name: str, options) -> Iterator[Check]:
    state: dict = {}

    def matrix() -> sp.csr_matrix:
        if "matrix" not in state:
            state["matrix"] = load_matrix(name).astype(np.float64)
        return state["matrix"]

    def other() -> sp.csr_matrix:
        if "other" not in state:
            state["other"] = perturbed(matrix(), seed_of(name))
        return state["other"]

    packed = Memo(lambda layout: spf.pack(layout, matrix(), name="A"))
    sizes: dict[str, int] = {}

    def product(transposed: bool, output: str) -> Callable[[], str]:
        def run() -> str:
            M = matrix()
            if not transposed and M.shape[0] != M.shape[1]:
                raise Skip(f"A is {M.shape[0]}x{M.shape[1]}, not square")
            right = sp.csr_matrix(M.T) if transposed else M
            if ("size", transposed) not in state:  # the same for the four outputs
                state["size", transposed] = product_size(M, right, options.max_nnz)
            flops, nnz = state["size", transposed]
            if nnz is not None and nnz > options.max_nnz:
                raise Skip(f"nnz(C) = {nnz:,} > {options.max_nnz:,} (flops {flops:,})")
            expression = f"C(i,j) = A(i,k) * B({'j,k' if transposed else 'k,j'})"
            C = kernel(expression, {"A": "CSR", "B": "CSR", "C": output})(A=packed("CSR"), B=packed("CSR"))
            if ("product", transposed) not in state:  # scipy's product once for the four outputs
                state.pop(("product", not transposed), None)
                state["product", transposed] = scipy_entries(M @ right, zeros=False)
            return compare(C, state["product", transposed], (M.shape[0], right.shape[1]))
        return run

    for transposed in (False, True):
        for output in PRODUCT_OUTPUTS:
            expression = f"C(i,j) = A(i,k) * B({'j,k' if transposed else 'k,j'})"
            yield Check(name, f"A*A{'^T' if transposed else ''} into {output}",
                        call(expression, {"A": "CSR", "B": "CSR", "C": output}, f"{name} (A = B = the matrix)"),
                        product(transposed, output))

    def elementwise(operator: str) -> Callable[[], str]:
        def run() -> str:
            M, N = matrix(), other()
            expression = f"C(i,j) = A(i,j) {operator} B(i,j)"
            B = spf.pack("CSR", N, name="B")
            C = kernel(expression, {"A": "CSR", "B": "CSR", "C": "CSR"})(A=packed("CSR"), B=B)
            reference = {"+": M + N, "-": M - N, "*": M.multiply(N)}[operator]
            return compare(C, scipy_entries(reference, zeros=False), M.shape)
        return run

    for operator, label in [("+", "A+B"), ("-", "A-B"), ("*", "A.*B")]:
        yield Check(name, f"{label} into CSR",
                    call(f"C(i,j) = A(i,j) {operator} B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"},
                         f"{name}, B = perturbed(A, seed_of({name!r})) in tests/codegen/assembly/sweep_assembly.py"),
                    elementwise(operator))

    def transpose() -> str:
        M = matrix()
        B = kernel("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})(A=packed("CSR"))
        return compare(B, scipy_entries(M.T, zeros=False), (M.shape[1], M.shape[0]))

    yield Check(name, "B(j,i) = A(i,j) into CSR", call("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"}, name), transpose)

    def fits(layout: str) -> None:
        if layout not in sizes:
            sizes[layout] = footprint(layout, matrix())
        if sizes[layout] > options.max_bytes:
            raise Skip(f"{layout} arrays would take {sizes[layout] / 1e9:.1f} GB > {options.max_bytes / 1e9:g} GB")

    def pack(layout: str) -> Callable[[], str]:
        def run() -> str:
            fits(layout)
            padded = spf.load_layout(layout).padded
            return compare(packed(layout), scipy_entries(matrix(), zeros=not padded), matrix().shape)
        return run

    def convert(source: str, target: str) -> Callable[[], str]:
        def run() -> str:
            fits(source)
            fits(target)
            converted = spf.convert(packed(source), target)
            if converted.layout.spec != spf.load_layout(target).spec:
                raise Mismatch(f"the result is in {converted.layout.spec}, not {target}")
            zeros = not (spf.load_layout(source).padded or converted.layout.padded)
            return compare(converted, scipy_entries(matrix(), zeros=zeros), matrix().shape)
        return run

    for source in MATRIX_LAYOUTS:  # grouped by source, so each packed source is dropped after its group
        yield Check(name, f"pack {source}", f"spf.pack({source!r}, {name})", pack(source))
        for target in MATRIX_LAYOUTS + ["CSR_UNSORTED"]:
            if target != source:
                yield Check(name, f"convert {source} -> {target}",
                            f"spf.convert(spf.pack({source!r}, {name}), {target!r})", convert(source, target))
        yield Check(name, "", "", lambda source=source: packed.drop(source))  # housekeeping, not reported


# ----------------------------------------------------------------------------- tensor checks


def tensor_checks(name: str, options) -> Iterator[Check]:
    state: dict = {}

    def data():
        if "data" not in state:
            state["data"] = load_tensor(name)
        return state["data"]

    order = len(next(line for line in open(TENSORS / f"{name}.tns") if line.strip() and line[0] != "#").split()) - 1
    layouts = TENSOR_LAYOUTS.get(order)
    if layouts is None:
        yield Check(name, "tensor checks", "", skipped(f"order {order}: no COO and CSF layouts of this order"))
        return
    packed = Memo(lambda layout: spf.pack(layout, data(), name="A"))
    indices = INDICES[:order]

    def reference(permutation=None, zeros=True):
        coords, values, shape = data()
        permutation = permutation or tuple(range(order))
        shape = tuple(shape[p] for p in permutation)
        return numpy_entries(coords[:, permutation], values, shape, zeros), shape

    def pack(layout: str) -> str:
        want, shape = reference()
        return compare(packed(layout), want, shape)

    def convert(source: str, target: str) -> str:
        want, shape = reference()
        return compare(spf.convert(packed(source), target), want, shape)

    def permute(permutation, source: str, target: str) -> Callable[[], str]:
        def run() -> str:
            expression = f"B({','.join(indices[p] for p in permutation)}) = A({','.join(indices)})"
            result = kernel(expression, {"A": source, "B": target})(A=packed(source))
            want, shape = reference(permutation, zeros=False)
            return compare(result, want, shape)
        return run

    for layout in layouts:
        yield Check(name, f"pack {layout}", f"spf.pack({layout!r}, spf.read_tns({name}))",
                    lambda layout=layout: pack(layout))
    for source, target in itertools.permutations(layouts, 2):
        yield Check(name, f"convert {source} -> {target}",
                    f"spf.convert(spf.pack({source!r}, spf.read_tns({name})), {target!r})",
                    lambda source=source, target=target: convert(source, target))
    for permutation in itertools.permutations(range(order)):
        expression = f"B({','.join(indices[p] for p in permutation)}) = A({','.join(indices)})"
        for source, target in itertools.product(layouts, layouts):
            yield Check(name, f"{expression} {source} -> {target}",
                        call(expression, {"A": source, "B": target}, name), permute(permutation, source, target))

    def ttm() -> str:
        if order != 3:
            raise Skip(f"order {order}: TTM into CSF3_DENSE_LAST is for order 3")
        coords, values, shape = data()
        factor = np.random.default_rng(seed_of(name)).uniform(-1, 1, (shape[2], TTM_COLUMNS))
        expression = "A(i,j,l) = B(i,j,k) * C(k,l)"
        result = kernel(expression, {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"})(B=packed("CSF3"), C=factor)
        fibers, fiber_of = np.unique(keys_of(coords[:, :2], shape[:2]), return_inverse=True)
        products = sp.csr_matrix((values, (fiber_of.ravel(), coords[:, 2])), shape=(len(fibers), shape[2])) @ factor
        rows, columns = np.nonzero(products)
        out_shape = (shape[0], shape[1], TTM_COLUMNS)
        want = (fibers[rows] * TTM_COLUMNS + columns, products[rows, columns])  # (i*n1 + j)*L + l, row-major
        note = compare(result, want, out_shape)
        if int(result.fields["nnz1"]) != len(fibers):
            raise Mismatch(f"{int(result.fields['nnz1'])} stored (i, j) fibers, expected {len(fibers)}")
        return f"{note}, {len(fibers)} fibers"

    yield Check(name, "TTM into CSF3_DENSE_LAST",
                call("A(i,j,l) = B(i,j,k) * C(k,l)", {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"},
                     f"{name}, C = uniform(-1, 1, (n2, {TTM_COLUMNS}))"), ttm)


# ----------------------------------------------------------------------------- running


def checks(options) -> Iterator[Check]:
    for kind, name, _ in manifest():
        if options.only and not re.search(options.only, name):
            continue
        path = (MATRICES / f"{name}.mtx") if kind == "matrix" else (TENSORS / f"{name}.tns")
        if not path.exists():
            yield Check(name, "all checks", "", skipped(f"{path} is missing"))
            continue
        made = matrix_checks(name, options) if kind == "matrix" else tensor_checks(name, options)
        for check in made:
            if not check.label or not options.check or re.search(options.check, check.label):
                yield check


def run_check(check: Check) -> Record:
    started = time.perf_counter()
    try:
        status, detail = "OK", check.run()
    except Skip as skip:
        status, detail = "SKIP", str(skip)
    except Mismatch as mismatch:
        status, detail = "FAIL", str(mismatch)
    except Exception as error:  # noqa: BLE001 - any error is a failure of the check
        status, detail = "FAIL", f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    return Record(check.data, check.label, status, time.perf_counter() - started, detail, check.reproducer)


def run_here(options, report: Callable[[Record], None], resume: int = 0) -> None:
    """Run the checks in this process, from the ``resume``-th on (counting reported checks)."""
    index = 0
    for check in checks(options):
        if not check.label:
            check.run()
            continue
        if index >= resume:
            if SANITIZE:
                print(f"{MARK}begin {index}", flush=True)
            report(run_check(check))
        index += 1


def run_sanitized(options, argv: list[str], report: Callable[[Record], None]) -> None:
    """Run the checks in a child with the sanitizer runtimes preloaded, restarted after each report."""
    from spf.codegen.toolchain.compiler import sanitizer_environment
    try:
        environment = sanitizer_environment()
    except spf.SpfError as error:
        print(f"--sanitize: no sanitizer runtime (libasan/libubsan) for the C compiler: {error}")
        sys.exit(2)
    with tempfile.TemporaryDirectory(prefix="spf-sweep-sanitized-") as cache:
        environment["SPF_CACHE_DIR"] = cache
        environment.pop("PYTHONHASHSEED", None)
        child = [a for a in argv if a != "--sanitize"]
        resume = 0
        while True:
            with tempfile.TemporaryFile(mode="w+") as errors:
                process = subprocess.Popen([sys.executable, __file__, *child, "--sanitized-child", str(resume)],
                                           env=environment, stdout=subprocess.PIPE, stderr=errors, text=True)
                running, began = None, time.perf_counter()
                for line in process.stdout:
                    if line.startswith(f"{MARK}begin "):
                        running, began = int(line.split()[1]), time.perf_counter()
                    elif line.startswith(f"{MARK}record "):
                        report(Record(**json.loads(line[len(f"{MARK}record "):])))
                        running = None
                    else:
                        print(line, end="", flush=True)
                process.wait()
                if process.returncode == 0:
                    return
                errors.seek(0)
                text = errors.read()
            lines = text.strip().splitlines()
            reports = [line.strip() for line in lines if line.startswith("SUMMARY:") or "runtime error:" in line]
            cause = reports[0] if reports else f"the child exited with status {process.returncode}"
            start = next((n for n, line in enumerate(lines) if "ERROR:" in line or "runtime error:" in line), 0)
            if running is None:
                report(Record("(sanitized child)", "between checks", "FAIL", 0.0, cause, ""))
                print("\n".join("    " + line for line in lines[-20:]))
                return
            check = next(itertools.islice((c for c in checks(options) if c.label), running, None))
            report(Record(check.data, check.label, "FAIL", time.perf_counter() - began, f"sanitizer: {cause}",
                          check.reproducer))
            print("\n".join("    " + line for line in lines[start:start + 16]), flush=True)
            resume = running + 1


def summary(records: list[Record], seconds: float) -> str:
    counts = Counter(r.status for r in records)
    lines = [f"\nsummary: {len(records)} checks on {len({r.data for r in records})} data sets: "
             f"{counts['OK']} OK, {counts['FAIL']} FAIL, {counts['SKIP']} SKIP in {seconds:.0f} s"]
    skips = Counter((r.data, r.detail) for r in records if r.status == "SKIP")
    if skips:
        lines.append("skips (data: reason, checks):")
        lines += [f"  {data}: {reason}  x{count}" for (data, reason), count in skips.items()]
    failures = [r for r in records if r.status == "FAIL"]
    if failures:
        lines.append("failures:")
        for r in failures:
            lines.append(f"  {r.data}: {r.label}: {r.detail}")
            if r.reproducer:
                lines.append(f"      reproduce: {r.reproducer}")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--only", help="only data whose name matches this regular expression")
    parser.add_argument("--check", help="only checks whose label matches this regular expression")
    parser.add_argument("--sanitize", action="store_true",
                        help="kernels, builders and conversions built and run under ASan and UBSan")
    parser.add_argument("--max-nnz", type=int, default=20_000_000, help="largest product computed (default 20M)")
    parser.add_argument("--max-bytes", type=float, default=2e9,
                        help="largest ELL or DIA arrays built, in bytes (default 2e9)")
    parser.add_argument("--sanitized-child", type=int, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    global SANITIZE
    argv = sys.argv[1:] if argv is None else list(argv)
    options = parser().parse_args(argv)
    if options.sanitized_child is not None:
        from spf.codegen.toolchain.compiler import SANITIZE_FLAGS
        SANITIZE = True
        spf.runtime.assemble.FLAGS = list(SANITIZE_FLAGS)  # packing's builders and conversions run sanitized too
        run_here(options, lambda r: print(f"{MARK}record {json.dumps(asdict(r))}", flush=True),
                 options.sanitized_child)
        return 0
    if not (MATRICES.is_dir() and TENSORS.is_dir() and (DATA / "MANIFEST.tsv").exists()):
        print(f"skipped: no real data at {DATA} (set SPF_DATA or place ../shared/data beside the repository)")
        return 0
    records: list[Record] = []

    def report(record: Record) -> None:
        records.append(record)
        print(record.line(), flush=True)

    started = time.perf_counter()
    print(f"data: {DATA}; sanitizers: {'on' if options.sanitize else 'off'}; nnz(C) <= {options.max_nnz:,}; "
          f"ELL/DIA arrays <= {options.max_bytes / 1e9:g} GB", flush=True)
    if options.sanitize:
        run_sanitized(options, argv, report)
    else:
        run_here(options, report)
    print(summary(records, time.perf_counter() - started))
    return 1 if any(r.status == "FAIL" for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
