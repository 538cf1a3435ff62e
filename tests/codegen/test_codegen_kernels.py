"""End-to-end tests of compiled kernels (spf.compile): every kernel agrees with a dense or
scipy reference on random inputs (fixed seeds and hypothesis: empty rows, empty tensors,
one element, zero extents) and on the real matrices and tensors in ../shared/data.

Kernels: the dot product with every find, SpMV for every 2-D layout, SpMSpV with every
find and an x-driven loop order, SpMSpM, SDDMM, TTM, MTTKRP (order 3 and 4).  Besides the
numbers: the shape of the generated C for SeqIter and HashMap finds (Fig. 2(d), Fig. 9(b)),
refused finds, explain(), packed inputs, and the errors users see.  ``find="auto"`` compiles
one variant per proven template and picks one at run time; ``assert_every_variant`` runs
each.  The last section covers SpMSpM layout pairs beyond the issue's list (random data).

Every kernel is compiled once per module (``kernel()`` caches them; the shared libraries
are also cached on disk).  Real data is capped where a case would need a lot of memory or
time; each cap says why next to it.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spf
from conftest import (MATRICES, REAL_MATRICES, REAL_TENSORS, TENSORS, data_available, documented_finds, load_matrix,
                      load_tensor, require_data)
from spf.errors import FindRefused

FINDS = ("auto", "seqiter", "binary", "hashmap", "bitmap", "linear")

DOT = "a = b(i) * c(i)"
DOT3 = "v = A(i) * B(i) * C(i)"
SPMV = "y(i) = A(i,j) * x(j)"
SPMM = "C(i,j) = A(i,k) * B(k,j)"
SDDMM = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
TTM = "A(i,j,k) = B(i,j,l) * C(k,l)"
MTTKRP = "A(i,j) = B(i,k,l) * C(k,j) * D(l,j)"
MTTKRP4 = "A(i,j) = B(i,k,l,m) * C(k,j) * D(l,j) * E(m,j)"

SDDMM_LAYOUTS = {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}
TTM_LAYOUTS = {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}
MTTKRP_LAYOUTS = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
MTTKRP4_LAYOUTS = {"A": "Dense", "B": "CSF4", "C": "Dense", "D": "Dense", "E": "Dense"}

HYPOTHESIS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------- helpers

_kernels: dict = {}


def kernel(expression: str, layouts: dict, **options) -> spf.runtime.kernel.Kernel:
    """``spf.compile`` once per module for each (expression, layouts, options)."""
    key = (expression, tuple(sorted(layouts.items())), repr(sorted(options.items())))
    if key not in _kernels:
        _kernels[key] = spf.compile(expression, layouts=layouts, **options)
    return _kernels[key]


def every_variant(k, **inputs) -> list[tuple[str, object]]:
    """(label, result) of the kernel and of each compiled variant of its finds.

    ``find="auto"`` compiles every proven template and picks one at run time from a cost
    estimate, so one call runs one variant only: each variant is run here too.
    """
    results = [("chosen at run time", k(**inputs))]
    functions = getattr(k, "_functions", None) or []
    choices = getattr(k, "variant_choices", None) or [()] * len(functions)
    if len(functions) > 1 and hasattr(k, "bind"):
        for function, choice in zip(functions, choices):
            bound = k.bind(**inputs)
            bound.function = function
            results.append((" + ".join(str(c) for c in choice) or "variant", bound()))
    return results


def assert_every_variant(k, expected, **inputs) -> None:
    for label, result in every_variant(k, **inputs):
        if isinstance(result, spf.Tensor):
            result = result.to_dense()
        try:
            assert_close(result, expected)
        except AssertionError as error:
            raise AssertionError(f"{k.expression}, variant {label}: {error}") from None


def spmv_layouts(layout: str) -> dict:
    return {"A": layout, "x": "Dense", "y": "Dense"}


def spmspv_layouts(layout: str = "CSR") -> dict:
    return {"A": layout, "x": "SV", "y": "Dense"}


def spmm_layouts(a: str, b: str) -> dict:
    return {"A": a, "B": b, "C": "Dense"}


def tolerance(expected) -> float:
    """The absolute tolerance: 1e-10 relative to the magnitude of the reference."""
    expected = np.asarray(expected, dtype=float)
    return 1e-10 * max(1.0, float(np.abs(expected).max(initial=0.0)))


def assert_close(actual, expected) -> None:
    actual = np.asarray(actual, dtype=float)
    expected = np.asarray(expected, dtype=float)
    assert actual.shape == expected.shape
    np.testing.assert_allclose(actual, expected, rtol=1e-10, atol=tolerance(expected))


def assert_sparse_close(actual: sp.spmatrix, expected: sp.spmatrix) -> None:
    """Sparse comparison (the dense matrices would be too big)."""
    assert actual.shape == expected.shape
    scale = tolerance(expected.data if expected.nnz else 0.0)
    difference = (sp.csr_matrix(actual) - sp.csr_matrix(expected)).tocoo()
    reference = np.abs(np.asarray(sp.csr_matrix(expected)[difference.row, difference.col]).ravel()) \
        if difference.nnz else np.zeros(0)
    excess = np.abs(difference.data) - (scale + 1e-10 * reference)
    assert difference.nnz == 0 or excess.max() <= 0, \
        f"{int(np.sum(excess > 0))} entries differ, the largest by {np.abs(difference.data).max()}"


def tensor_to_scipy(tensor: spf.Tensor) -> sp.csr_matrix:
    coords, values, shape = tensor.to_coo()
    return sp.csr_matrix((values, (coords[:, 0], coords[:, 1])), shape=shape)


def sparse_vector(indices, values, n: int) -> tuple:
    """A sparse vector as (coords, values, shape)."""
    return np.asarray(indices, dtype=np.int64).reshape(-1, 1), np.asarray(values, dtype=float), (n,)


def dense_vector(vector: tuple) -> np.ndarray:
    coords, values, (n,) = vector
    dense = np.zeros(n)
    dense[coords[:, 0]] = values
    return dense


def random_values(rng, count: int) -> np.ndarray:
    """Non-zero values of both signs and several magnitudes."""
    return rng.uniform(0.5, 2.0, count) * rng.choice([-1.0, 1.0], count) * 10.0 ** rng.integers(-2, 3, count)


def random_sparse_vector(rng, n: int, count: int) -> tuple:
    indices = np.sort(rng.choice(n, size=min(count, n), replace=False))
    return sparse_vector(indices, random_values(rng, len(indices)), n)


def random_matrix(rows: int, cols: int, density: float, seed: int) -> sp.csr_matrix:
    rng = np.random.default_rng(seed)
    count = int(round(density * rows * cols))
    flat = rng.choice(rows * cols, size=count, replace=False) if rows * cols else np.zeros(0, dtype=int)
    return sp.csr_matrix((random_values(rng, count), (flat // max(cols, 1), flat % max(cols, 1))),
                         shape=(rows, cols))


def with_empty_rows_and_columns(matrix: sp.csr_matrix, rows, cols) -> sp.csr_matrix:
    matrix = matrix.tolil()
    for i in rows:
        matrix[i, :] = 0
    for j in cols:
        matrix[:, j] = 0
    matrix = matrix.tocsr()
    matrix.eliminate_zeros()
    return matrix


def thin_to_two_of_four(matrix: sp.spmatrix) -> sp.csr_matrix:
    """Keep the first two entries of each row in each aligned group of four columns (WARP24 data)."""
    coo = sp.coo_matrix(matrix)
    coo.sum_duplicates()  # sorted by row, then column
    groups = (coo.shape[1] + 3) // 4
    group = coo.row.astype(np.int64) * max(groups, 1) + coo.col // 4
    count = len(group)
    starts = np.ones(count, dtype=bool)
    starts[1:] = group[1:] != group[:-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(count), 0)) if count else np.zeros(0, dtype=int)
    keep = np.arange(count) - first < 2
    return sp.csr_matrix((coo.data[keep], (coo.row[keep], coo.col[keep])), shape=coo.shape)


def prepare(layout: str, matrix: sp.spmatrix):
    """The data a layout can hold: the lower triangle for LOWER_TRI, 2:4 thinning for WARP24."""
    matrix = sp.csr_matrix(matrix)
    if layout == "LOWER_TRI":
        return sp.tril(matrix).tocsr()
    if layout == "WARP24":
        return thin_to_two_of_four(matrix)
    return matrix


def random_tensor(shape, count: int, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))
    flat = rng.choice(size, size=min(count, size), replace=False) if size else np.zeros(0, dtype=int)
    coords = np.stack(np.unravel_index(flat, shape), axis=1).astype(np.int64) if len(flat) else \
        np.zeros((0, len(shape)), dtype=np.int64)
    return coords, random_values(rng, len(flat)), tuple(shape)


def dense_tensor(data: tuple) -> np.ndarray:
    coords, values, shape = data
    dense = np.zeros(shape)
    if len(values):
        np.add.at(dense, tuple(coords.T), values)
    return dense


# ----------------------------------------------------------------------------- random data (fixed seeds)

# Shapes that stress the loop bounds: 1x1, no entries, one entry, zero extents, empty rows
# and columns, tall, wide, nearly dense.
RANDOM_MATRICES = {
    "1x1": sp.csr_matrix(np.array([[2.5]])),
    "1x1 empty": sp.csr_matrix((1, 1)),
    "empty 4x6": sp.csr_matrix((4, 6)),
    "single 5x7": sp.csr_matrix(([-3.0], ([3], [4])), shape=(5, 7)),
    "single corner 6x6": sp.csr_matrix(([1.5], ([5], [5])), shape=(6, 6)),
    "0x4": sp.csr_matrix((0, 4)),
    "4x0": sp.csr_matrix((4, 0)),
    "empty rows and columns 9x11": with_empty_rows_and_columns(random_matrix(9, 11, 0.6, 1), [0, 4, 8], [0, 5, 10]),
    "tall 23x5": random_matrix(23, 5, 0.4, 2),
    "wide 6x31": random_matrix(6, 31, 0.3, 3),
    "dense 17x17": random_matrix(17, 17, 0.9, 4),
    "sparse 40x40": random_matrix(40, 40, 0.05, 5),
}
SQUARE_RANDOM = [name for name, m in RANDOM_MATRICES.items() if m.shape[0] == m.shape[1]]

VECTOR_CASES = {  # (n, number of entries of b, of c)
    "n=0": (0, 0, 0), "n=1 empty": (1, 0, 0), "n=1 one entry": (1, 1, 1), "empty b": (10, 0, 5),
    "empty c": (10, 5, 0), "one entry each": (10, 1, 1), "full": (12, 12, 12), "sparse": (200, 30, 40),
    "disjoint halves": (20, -1, -1),
}


def vector_case(name: str, seed: int = 0):
    n, count_b, count_c = VECTOR_CASES[name]
    rng = np.random.default_rng(seed)
    if count_b < 0:  # b on even indices, c on odd ones: the product is 0
        return sparse_vector(np.arange(0, n, 2), random_values(rng, n // 2), n), \
            sparse_vector(np.arange(1, n, 2), random_values(rng, n // 2), n)
    return random_sparse_vector(rng, n, count_b), random_sparse_vector(rng, n, count_c)


# ----------------------------------------------------------------------------- real data

def _real_names(directory, suffix: str) -> list[str]:
    if not data_available():
        return ["(no data)"]  # a test that calls require_data() and is skipped with the reason
    return sorted(path.name[:-len(suffix)] for path in directory.glob(f"*{suffix}"))


ALL_MATRICES = _real_names(MATRICES, ".mtx")
ALL_TENSORS = _real_names(TENSORS, ".tns")


def _matrix_sizes() -> dict[str, tuple[int, int, int]]:
    """rows, columns and stored entries (symmetric files: both triangles) from the headers."""
    sizes = {}
    for name in ALL_MATRICES:
        if not data_available():
            break
        rows, cols, entries, _, _, symmetry = scipy.io.mminfo(MATRICES / f"{name}.mtx")
        sizes[name] = (rows, cols, entries * (1 if symmetry == "general" else 2))
    return sizes


MATRIX_SIZES = _matrix_sizes()


def matrices_where(condition) -> list[str]:
    if not data_available():
        return ["(no data)"]
    return [name for name in ALL_MATRICES if condition(*MATRIX_SIZES[name])]


def real_matrix(name: str) -> sp.csr_matrix:
    require_data()
    return load_matrix(name)


# Dense storage (Dense, DIA, LOWER_TRI, WARP24, ELL) needs memory and Python packing time
# in rows*cols: those layouts run on the matrices with at most 4e6 cells (32 MB of doubles).
SMALL_DENSE = matrices_where(lambda rows, cols, nnz: rows * cols <= 4e6)
# SpMSpM's dense output of A * A^T has rows^2 cells; A and A^T with at most 50k entries.
SPMM_REAL = matrices_where(lambda rows, cols, nnz: nnz <= 50_000 and rows * rows <= 4e6)

_packed: dict = {}


def packed(layout: str, name: str) -> spf.Tensor:
    """A real matrix packed once per module (the CSR copy is reused by SpMV, SpMSpV and SDDMM)."""
    if (layout, name) not in _packed:
        _packed[(layout, name)] = spf.pack(layout, real_matrix(name), "A")
    return _packed[(layout, name)]


_tensors: dict = {}


def real_tensor(name: str):
    """(coords, values, shape) and the packed CSF tensor, once per module."""
    require_data()
    if name not in _tensors:
        data = load_tensor(name)
        _tensors[name] = data, spf.pack("CSF3" if len(data[2]) == 3 else "CSF4", data, "B")
    return _tensors[name]


def real_order(name: str) -> int:
    if not data_available():
        return 3
    with open(TENSORS / f"{name}.tns") as handle:
        return len(handle.readline().split()) - 1


TENSORS3 = [name for name in ALL_TENSORS if real_order(name) == 3]
TENSORS4 = [name for name in ALL_TENSORS if real_order(name) == 4] or ["(no 4-way tensor)"]


# ============================================================================= 1. dot products

def run_dot(find: str, layouts: tuple[str, str], b: tuple, c: tuple) -> float:
    k = kernel(DOT, {"b": layouts[0], "c": layouts[1]}, find=find)
    return k(b=b, c=c)


def check_dot(find: str, layouts: tuple[str, str], b: tuple, c: tuple) -> None:
    k = kernel(DOT, {"b": layouts[0], "c": layouts[1]}, find=find)
    assert_every_variant(k, dense_vector(b) @ dense_vector(c), b=b, c=c)


@pytest.mark.parametrize("find", FINDS)
@pytest.mark.parametrize("case", list(VECTOR_CASES))
def test_dot_sv_every_find(find, case):
    b, c = vector_case(case)
    assert isinstance(run_dot(find, ("SV", "SV"), b, c), float)
    check_dot(find, ("SV", "SV"), b, c)


def test_dot_sv_reports_the_requested_find():
    for find in FINDS[1:]:
        assert kernel(DOT, {"b": "SV", "c": "SV"}, find=find).reports[0].chosen.kind == find
    auto = kernel(DOT, {"b": "SV", "c": "SV"}, find="auto").reports[0]
    assert auto.chosen.kind == "seqiter"  # the first proven in the order direct, seqiter, hashmap, ...
    assert {"seqiter", "hashmap", "binary"} <= {choice.kind for choice in auto.valid}


VALID_FINDS = {
    ("SV_DEC", "SV_DEC"): FINDS,
    ("SV", "SV_UNSORTED"): ("auto", "hashmap", "linear"),
}


@pytest.mark.parametrize("layouts, find", [(layouts, find) for layouts, finds in VALID_FINDS.items()
                                           for find in finds])
@pytest.mark.parametrize("case", list(VECTOR_CASES))
def test_dot_other_vector_layouts(layouts, find, case):
    b, c = vector_case(case, seed=1)
    check_dot(find, layouts, b, c)


@pytest.mark.parametrize("find, failed", [("seqiter", "not proven strictly monotonic"),
                                          ("binary", "not proven monotonic")])
def test_dot_unsorted_refuses_ordered_finds(find, failed):
    with pytest.raises(FindRefused, match=failed) as raised:
        spf.compile(DOT, layouts={"b": "SV", "c": "SV_UNSORTED"}, find=find)
    assert "c_idx" in str(raised.value)
    assert isinstance(raised.value, spf.SpfError)


def test_every_documented_find_is_accepted():
    """Each value of find= in the README's table compiles SpMV (a dense x: no find at all)."""
    finds = documented_finds()
    assert set(finds) == {"auto", "direct", "seqiter", "hashmap", "bitmap", "binary", "linear"}
    A = sp.random(9, 7, density=0.3, format="csr", random_state=31)
    x = np.arange(1.0, 8.0)
    for find in finds:
        k = kernel(SPMV, {"A": "CSR", "x": "Dense", "y": "Dense"}, find=find)
        assert k.reports == []
        assert_close(k(A=A, x=x), A @ x)


def test_direct_find_where_proven():
    # an output sharing B by the names of its arrays (no proven prefix of B's levels): its positions are found
    by_name = str(Path(__file__).resolve().parents[1] / "data" / "CSR_BY_NAME.layout")
    k = kernel(SDDMM, {**SDDMM_LAYOUTS, "A": by_name}, share={"A": "B"}, find="direct")
    assert [report.chosen.kind for report in k.reports] == ["direct"]
    B = RANDOM_MATRICES["tall 23x5"]
    C, D = sddmm_factors(*B.shape, rank=3, seed=5)
    assert_close(k(B=B, C=C, D=D).to_dense(), B.multiply(C @ D).toarray())


@pytest.mark.parametrize("layouts", [{"b": "SV", "c": "SV"}, {"b": "SV", "c": "SV_UNSORTED"}])
def test_direct_find_is_refused_with_the_reason_where_not_proven(layouts):
    with pytest.raises(FindRefused, match=r"find='direct' is not valid for c_idx\(pc\) == b_idx\(pb\) "
                       r"\(find over pc\): direct: the key is not the same index array at a known position"):
        spf.compile(DOT, layouts=layouts, find="direct")


def test_dot_unsorted_auto_explains_the_rejections():
    report = kernel(DOT, {"b": "SV", "c": "SV_UNSORTED"}, find="auto").reports[0]
    assert report.chosen.kind == "hashmap"
    rejected = dict(report.rejected)
    assert "not proven strictly monotonic" in rejected["seqiter"]


def test_dot_decreasing_seqiter_walks_forward():
    """Both vectors decrease: walking b forward, the match in c moves forward too (Fig. 2(d))."""
    k = kernel(DOT, {"b": "SV_DEC", "c": "SV_DEC"}, find="seqiter")
    chosen = k.reports[0].chosen
    assert (chosen.kind, chosen.state, chosen.direction) == ("seqiter", (), 1)
    assert_fig_2d_shape(k)


@pytest.mark.parametrize("case", list(VECTOR_CASES))
def test_dot_three_way(case):
    rng = np.random.default_rng(7)
    a, b = vector_case(case, seed=2)
    n = a[2][0]
    c = random_sparse_vector(rng, n, max(n // 2, 1))
    c = (c[0][::-1].copy(), c[1][::-1].copy(), c[2])  # any order is fine for SV_UNSORTED
    k = kernel(DOT3, {"A": "SV", "B": "SV_DEC", "C": "SV_UNSORTED"})
    assert_every_variant(k, np.sum(dense_vector(a) * dense_vector(b) * dense_vector(c)), A=a, B=b, C=c)


@st.composite
def vector_pairs(draw):
    n = draw(st.integers(0, 40))
    indices = st.sets(st.integers(0, max(n - 1, 0)), max_size=n) if n else st.just(set())
    value = st.one_of(st.floats(0.25, 4.0), st.floats(-4.0, -0.25))
    vectors = []
    for _ in range(3):
        chosen = sorted(draw(indices))
        vectors.append(sparse_vector(chosen, draw(st.lists(value, min_size=len(chosen), max_size=len(chosen))), n))
    return vectors


@HYPOTHESIS
@given(vector_pairs())
def test_dot_hypothesis(vectors):
    b, c, d = vectors
    for find in FINDS:
        check_dot(find, ("SV", "SV"), b, c)
    for layouts, finds in VALID_FINDS.items():
        for find in finds:
            check_dot(find, layouts, b, c)
    k = kernel(DOT3, {"A": "SV", "B": "SV_DEC", "C": "SV_UNSORTED"})
    assert_every_variant(k, np.sum(dense_vector(b) * dense_vector(c) * dense_vector(d)), A=b, B=c, C=d)


# ----------------------------------------------------------------------------- the C of the finds

def function_body(k) -> str:
    """The kernel's C: its body (``NAME_run`` when it keeps find state, spf.codegen.c.emit_c.function_source) on."""
    source = k.c_source
    run = f"static int {k.function_name}_run("
    return source[source.index(run if run in source else f"int {k.function_name}("):]


def loop_lines(body: str) -> list[str]:
    """The C loops of a kernel, without the one that zeroes a dense output."""
    return [line.strip() for line in body.splitlines()
            if line.strip().startswith("for (") and "spf_zero" not in line]


def test_seqiter_dot_has_the_shape_of_fig_2d():
    assert_fig_2d_shape(kernel(DOT, {"b": "SV", "c": "SV"}, find="seqiter"))


def assert_fig_2d_shape(k) -> None:
    """One loop over b's positions; a position into c declared before it that only moves forward."""
    body = function_body(k)
    assert "malloc" not in body and "calloc" not in body
    loops = loop_lines(body)
    assert len(loops) == 1, loops
    assert "b_len" in loops[0] and "c_len" not in loops[0]
    declared = re.search(r"int64_t (\w*_position\w*) = 0;", body)
    assert declared, body
    position = declared.group(1)
    assert declared.start() < body.index("for (")
    assert "while" in body
    walk = re.search(r"while \((.*)\)\n\s*(.*);", body)
    assert walk and position in walk.group(1) and walk.group(2) == f"{position}++"
    assert f"{position}--" not in body and f"{position} -=" not in body
    assert re.search(rf"\b{position} = ", body[declared.end():]) is None  # never reset


def test_hashmap_dot_has_the_shape_of_fig_9b():
    """A fill loop over c's positions, then the loop over b with a table lookup, no search
    loop; the table is the kernel's kept state (no allocation in the kernel's body), which
    spf_hash_fill sizes by the range it fills and empties through the last fill's touched
    list, never zeroing it whole."""
    body = function_body(kernel(DOT, {"b": "SV", "c": "SV"}, find="hashmap"))
    assert "calloc" not in body and "free(" not in body and "memset" not in body
    table = re.search(r"int64_t \* const (\w+_table\w*) = spf_hash_fill\(&spf_kept\[0\], (.*)\);", body)
    assert table, body
    assert "c_len" in table.group(2)
    assert "while" not in body
    loops = loop_lines(body)
    assert len(loops) == 2, loops
    fill, outer = loops
    assert "c_len" in fill and "b_len" in outer
    assert body.index(table.group(0)) < body.index(fill) < body.index(outer)
    assert f"spf_hash_put({table.group(1)}," in body[body.index(fill):body.index(outer)]
    assert re.search(rf"= spf_hash_get\({table.group(1)},", body[body.index(outer):])


def test_linear_and_binary_dot_code():
    linear = function_body(kernel(DOT, {"b": "SV", "c": "SV"}, find="linear"))
    assert len(loop_lines(linear)) == 2 and "calloc" not in linear
    binary = function_body(kernel(DOT, {"b": "SV", "c": "SV"}, find="binary"))
    assert "calloc" not in binary and len(loop_lines(binary)) == 1


# ============================================================================= 3. SpMV

SPMV_LAYOUTS = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR(R=2,C=3)", "BCSR(R=4,C=4)",
                "LOWER_TRI", "DIA", "ELL", "WARP24", "Dense"]


def spmv_reference(matrix, x):
    return np.asarray(matrix @ x).ravel()


def run_spmv(layout: str, matrix, x):
    return kernel(SPMV, spmv_layouts(layout))(A=matrix, x=x)


@pytest.mark.parametrize("name", list(RANDOM_MATRICES))
@pytest.mark.parametrize("layout", SPMV_LAYOUTS)
def test_spmv_random(layout, name):
    matrix = RANDOM_MATRICES[name]
    if layout == "LOWER_TRI" and matrix.shape[0] != matrix.shape[1]:
        pytest.skip("LOWER_TRI holds square matrices only")
    matrix = prepare(layout, matrix)
    x = np.random.default_rng(11).uniform(-1, 1, matrix.shape[1])
    y = run_spmv(layout, matrix, x)
    assert isinstance(y, np.ndarray)
    assert_close(y, spmv_reference(matrix, x))


@st.composite
def sparse_matrices(draw, max_rows: int = 14, max_cols: int = 14, rows=None, cols=None):
    rows = draw(st.integers(0, max_rows)) if rows is None else rows
    cols = draw(st.integers(0, max_cols)) if cols is None else cols
    if rows * cols == 0:
        return sp.csr_matrix((rows, cols))
    cells = draw(st.sets(st.integers(0, rows * cols - 1), max_size=min(rows * cols, 60)))
    cells = np.array(sorted(cells), dtype=np.int64)
    value = st.one_of(st.floats(0.25, 4.0), st.floats(-4.0, -0.25))
    values = draw(st.lists(value, min_size=len(cells), max_size=len(cells)))
    return sp.csr_matrix((np.array(values, dtype=float), (cells // cols, cells % cols)), shape=(rows, cols))


@HYPOTHESIS
@given(sparse_matrices(), st.integers(0, 2 ** 32 - 1))
def test_spmv_hypothesis(matrix, seed):
    x = np.random.default_rng(seed).uniform(-2, 2, matrix.shape[1])
    expected = spmv_reference(matrix, x)
    for layout in ["CSR", "COO", "COO_UNSORTED", "BCSR(R=2,C=3)", "BCSR(R=4,C=4)"]:
        assert_close(run_spmv(layout, matrix, x), expected)


def real_spmv(layout: str, name: str, repack: bool = False):
    matrix = prepare(layout, real_matrix(name))
    x = np.random.default_rng(len(name)).uniform(-1, 1, matrix.shape[1])
    data = packed(layout, name) if layout == "CSR" and not repack else matrix
    assert_close(run_spmv(layout, data, x), spmv_reference(matrix, x))


# Every real matrix for the layouts of the list.
@pytest.mark.parametrize("name", ALL_MATRICES)
@pytest.mark.parametrize("layout", ["CSR", "CSC", "DCSR", "COO", "BCSR(R=4,C=4)"])
def test_spmv_real(layout, name):
    real_spmv(layout, name)


# The other sparse layouts (O(nnz) storage too) on every real matrix as well.
@pytest.mark.parametrize("name", ALL_MATRICES)
@pytest.mark.parametrize("layout", ["DCSC", "COO_UNSORTED", "BCSR(R=2,C=3)"])
def test_spmv_real_other_sparse_layouts(layout, name):
    real_spmv(layout, name)


def _fits_padded(layout: str, name: str) -> bool:
    """ELL stores rows * (longest row) slots, DIA rows * (stored diagonals): at most 4e6."""
    if not data_available():
        return True
    matrix = load_matrix(name)
    if layout == "ELL":
        return matrix.shape[0] * int(np.diff(matrix.indptr).max(initial=0)) <= 4e6
    if layout == "DIA":
        coo = matrix.tocoo()
        return matrix.shape[0] * len(np.unique(coo.col.astype(np.int64) - coo.row)) <= 4e6
    if layout == "LOWER_TRI":
        return matrix.shape[0] == matrix.shape[1]
    return True


PADDED_CASES = [(layout, name) for layout in ["Dense", "LOWER_TRI", "WARP24", "DIA", "ELL"]
                for name in SMALL_DENSE if _fits_padded(layout, name)]


@pytest.mark.parametrize("layout, name", PADDED_CASES)
def test_spmv_real_padded_layouts(layout, name):
    real_spmv(layout, name)


# ============================================================================= 4. SpMSpV

def spmspv_order() -> list[str]:
    """x's physical index and j first: SpMSpV driven by x's nonzeros (CSC)."""
    variables = spf.iteration_space(SPMV, spmspv_layouts("CSC"))[0].variables
    print("CSC SpMSpV variables (default order):", variables)
    assert set(variables) == {"px", "j", "pAj", "pAi", "i", "py0"}
    return ["px", "j", "pAj", "pAi", "i", "py0"]


SPMSPV_KERNELS = [("CSR", find, None) for find in FINDS] + [("CSC", "auto", None), ("CSC", "auto", "x-driven")]


def spmspv_kernel(layout: str, find: str, order):
    options = {"find": find}
    if order == "x-driven":
        options["order"] = spmspv_order()
    return kernel(SPMV, spmspv_layouts(layout), **options)


@pytest.mark.parametrize("layout, find, order", SPMSPV_KERNELS)
@pytest.mark.parametrize("name", [n for n in RANDOM_MATRICES if RANDOM_MATRICES[n].shape[1] > 0] + ["4x0"])
def test_spmspv_random(layout, find, order, name):
    matrix = RANDOM_MATRICES[name]
    rng = np.random.default_rng(3)
    k = spmspv_kernel(layout, find, order)
    n = matrix.shape[1]
    for count in sorted({0, 1, max(n // 3, 1), n}):
        x = random_sparse_vector(rng, n, count)
        assert_every_variant(k, spmv_reference(matrix, dense_vector(x)), A=matrix, x=x)


def test_spmspv_reports_and_explain():
    for find in FINDS:
        k = spmspv_kernel("CSR", find, None)
        assert len(k.reports) == 1
        assert k.reports[0].chosen.kind == ("seqiter" if find == "auto" else find)
    assert {"seqiter", "hashmap", "binary"} <= {c.kind for c in spmspv_kernel("CSR", "auto", None).reports[0].valid}
    text = spmspv_kernel("CSR", "auto", None).explain()
    assert "loop nest:" in text and "seqiter" in text
    assert re.search(r"for pAi in .*:\n\s+.*\n", text)
    assert "find px" in text


def test_spmspv_x_driven_order():
    default = spmspv_kernel("CSC", "auto", None)
    driven = spmspv_kernel("CSC", "auto", "x-driven")
    assert default.spaces[0].variables[0] != "px"
    nest = driven.explain().split("loop nest:")[1]
    first_loop = re.search(r"for (\w+) in", nest)
    assert first_loop.group(1) == "px"  # x's nonzeros drive the computation
    assert "for pAj" not in nest  # the column of A is the column of x's entry: no search
    body = function_body(driven)
    assert "x_len" in loop_lines(body)[0]


@HYPOTHESIS
@given(sparse_matrices(), st.data())
def test_spmspv_hypothesis(matrix, data):
    n = matrix.shape[1]
    chosen = sorted(data.draw(st.sets(st.integers(0, n - 1), max_size=n) if n else st.just(set())))
    x = sparse_vector(chosen, np.linspace(-1.5, 2.5, len(chosen)), n)
    expected = spmv_reference(matrix, dense_vector(x))
    for layout, find, order in SPMSPV_KERNELS:
        assert_every_variant(spmspv_kernel(layout, find, order), expected, A=matrix, x=x)


# The linear find costs nnz(A) * nnz(x): it runs where that is at most 3e8 operations.
def _spmspv_cost(name: str, density: float) -> float:
    rows, cols, nnz = MATRIX_SIZES.get(name, (1, 1, 1))
    return nnz * max(1, round(density * cols))


SPMSPV_REAL = [(find, density, name) for find in FINDS for density in (0.01, 0.1) for name in ALL_MATRICES
               if find != "linear" or _spmspv_cost(name, density) <= 3e8]


@pytest.mark.parametrize("find, density, name", SPMSPV_REAL)
def test_spmspv_real(find, density, name):
    A = packed("CSR", name)
    n = A.shape[1]
    rng = np.random.default_rng(int(density * 1000) + n)
    x = random_sparse_vector(rng, n, max(1, round(density * n)))
    expected = spmv_reference(real_matrix(name), dense_vector(x))
    assert_every_variant(spmspv_kernel("CSR", find, None), expected, A=A, x=x)


@pytest.mark.parametrize("name", ALL_MATRICES)
@pytest.mark.parametrize("order", [None, "x-driven"])
def test_spmspv_csc_real(order, name):
    matrix = real_matrix(name)
    n = matrix.shape[1]
    x = random_sparse_vector(np.random.default_rng(n), n, max(1, n // 20))
    k = spmspv_kernel("CSC", "auto", order)
    assert_close(k(A=matrix, x=x), spmv_reference(matrix, dense_vector(x)))


# ============================================================================= 5. SpMSpM

SPMM_PAIRS = [(a, b) for a in ("COO", "CSR", "DCSR") for b in ("COO", "CSR", "DCSR")] + \
    [("BCSR(R=2,C=2)", "BCSR(R=2,C=2)"), ("BCSR(R=4,C=4)", "COO")]

SPMM_RANDOM = [(name, inner) for name in RANDOM_MATRICES for inner in ("empty rows and columns 9x11", "wide")] + \
    [("single 5x7", "single 5x7 transposed"), ("dense 17x17", "dense 17x17")]


def spmm_right(left: sp.csr_matrix, kind: str) -> sp.csr_matrix:
    """A right operand whose row count is the left one's column count."""
    k = left.shape[1]
    if kind == "single 5x7 transposed":
        return sp.csr_matrix(RANDOM_MATRICES["single 5x7"].T)
    if kind == "dense 17x17":
        return RANDOM_MATRICES["dense 17x17"]
    if kind == "wide":
        return random_matrix(k, 13, 0.3, 17 + k)
    return with_empty_rows_and_columns(random_matrix(k, 11, 0.5, 23 + k), range(0, k, 3), [1, 6])


@pytest.mark.parametrize("a, b", SPMM_PAIRS)
@pytest.mark.parametrize("name, right", SPMM_RANDOM)
def test_spmspm_random(a, b, name, right):
    left = RANDOM_MATRICES[name]
    other = spmm_right(left, right)
    k = kernel(SPMM, spmm_layouts(a, b))
    assert_every_variant(k, (left @ other).toarray(), A=left, B=other)


@HYPOTHESIS
@given(st.data())
def test_spmspm_hypothesis(data):
    rows, inner, cols = (data.draw(st.integers(0, 10)) for _ in range(3))
    left = data.draw(sparse_matrices(rows=rows, cols=inner))
    right = data.draw(sparse_matrices(rows=inner, cols=cols))
    k = kernel(SPMM, spmm_layouts("CSR", "CSR"))
    assert_every_variant(k, (left @ right).toarray(), A=left, B=right)


@pytest.mark.parametrize("name", SPMM_REAL)
@pytest.mark.parametrize("a, b", SPMM_PAIRS)
def test_spmspm_real(a, b, name):
    matrix = real_matrix(name)
    transposed = sp.csr_matrix(matrix.T)
    k = kernel(SPMM, spmm_layouts(a, b))
    data_a = packed("CSR", name) if a == "CSR" else matrix
    assert_every_variant(k, (matrix @ transposed).toarray(), A=data_a, B=transposed)


# ============================================================================= 6. SDDMM

def sddmm_factors(rows: int, cols: int, rank: int, seed: int):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (rows, rank)), rng.uniform(-1, 1, (rank, cols))


@pytest.mark.parametrize("name", list(RANDOM_MATRICES))
def test_sddmm_random(name):
    matrix = RANDOM_MATRICES[name]
    C, D = sddmm_factors(*matrix.shape, rank=3, seed=5)
    result = kernel(SDDMM, SDDMM_LAYOUTS, share={"A": "B"})(B=matrix, C=C, D=D)
    assert isinstance(result, spf.Tensor) and result.layout.name == "CSR"
    assert_close(result.to_dense(), matrix.multiply(C @ D).toarray())


def innermost_loop(body: str) -> str:
    """The text of the kernel's last-opened loop, up to its closing brace."""
    start = body.rindex("for (")
    opening = body.index("{", start)
    depth, position = 0, opening
    while True:
        depth += {"{": 1, "}": -1}.get(body[position], 0)
        if depth == 0:
            return body[start:position + 1]
        position += 1


@pytest.mark.parametrize("parallel", [False, True])
def test_sddmm_sums_the_rank_loop_in_a_register_with_the_sampled_value_outside(parallel):
    """TACO's shape: the k loop only adds C * D into a register (A's position pA = pB is
    assigned in it but does not change there); B's value multiplies the sum once."""
    k = kernel(SDDMM, SDDMM_LAYOUTS, share={"A": "B"}, parallel=parallel)
    inner = innermost_loop(function_body(k))
    assert "C_vals[" in inner and "D_vals[" in inner, inner
    assert "A_data[" not in inner and "B_data[" not in inner, inner
    # stored, not added: each row's segment of A's values is written once (spf.codegen.passes.zeroing)
    assert re.search(r"A_data\[\w+\] = B_data\[\w+\] \* sum_\d+;", function_body(k))
    matrix = RANDOM_MATRICES[next(iter(RANDOM_MATRICES))]
    C, D = sddmm_factors(*matrix.shape, rank=5, seed=7)
    assert_close(k(B=matrix, C=C, D=D).to_dense(), matrix.multiply(C @ D).toarray())


@pytest.mark.parametrize("name", ALL_MATRICES)
def test_sddmm_real(name):
    B = packed("CSR", name)
    C, D = sddmm_factors(*B.shape, rank=4, seed=6)
    result = kernel(SDDMM, SDDMM_LAYOUTS, share={"A": "B"})(B=B, C=C, D=D)
    assert np.shares_memory(result.fields["colIdx"], B.fields["colIdx"]) or \
        np.array_equal(result.fields["colIdx"], B.fields["colIdx"])
    coo = real_matrix(name).tocoo()
    sampled = coo.data * np.einsum("pk,kp->p", C[coo.row], D[:, coo.col])
    assert_sparse_close(tensor_to_scipy(result), sp.csr_matrix((sampled, (coo.row, coo.col)), shape=coo.shape))


# ----------------------------------------------------------------------------- share= as a mask
#
# share={"C": "A"} computes the result restricted to A's pattern (GraphBLAS's C<A> = ...):
# the README documents it with triangle counting, C<A> = A*A then a sum.

MASKED_SPMM = "C(i,j) = A(i,k) * B(k,j)"
MASKED_LAYOUTS = {"A": "CSR", "B": "CSR", "C": "CSR"}


def undirected_graph(vertices: int, density: float, seed: int) -> sp.csr_matrix:
    """A symmetric 0/1 adjacency matrix without self-loops."""
    upper = sp.triu(sp.random(vertices, vertices, density=density, random_state=seed, format="csr"), 1)
    upper.data[:] = 1.0
    return (upper + upper.T).tocsr()


def test_readme_triangle_counting_example():
    from conftest import REPOSITORY
    blocks = re.findall(r"```python\n(.*?)```", (REPOSITORY / "README.md").read_text(), re.DOTALL)
    (example,) = [block for block in blocks if "triangles =" in block]
    namespace = {"np": np, "sp": sp, "spf": spf}
    exec(example, namespace)
    G = namespace["G"]
    assert namespace["triangles"] == (G @ G).multiply(G).sum() / 6 == 2


@pytest.mark.parametrize("vertices, density, seed", [(1, 0.0, 1), (12, 0.0, 2), (30, 0.3, 3), (80, 0.1, 4)])
def test_triangle_counting_with_a_masked_product(vertices, density, seed):
    G = undirected_graph(vertices, density, seed)
    expected = (G @ G).multiply(G)  # paths i-k-j for each stored i-j: scipy's C<G> = G*G
    for label, C in every_variant(kernel(MASKED_SPMM, MASKED_LAYOUTS, share={"C": "A"}), A=G, B=G):
        assert np.array_equal(C.fields["colIdx"], G.indices), label  # exactly G's pattern
        assert_close(C.to_dense(), expected.toarray())
        assert C.fields["data"].sum() / 6 == expected.sum() / 6, label


def test_masked_product_drops_what_lies_outside_the_pattern():
    A = sp.random(9, 7, density=0.3, format="csr", random_state=21)
    B = sp.random(7, 9, density=0.3, format="csr", random_state=22)
    M = sp.random(9, 9, density=0.3, format="csr", random_state=23)
    M.data[:] = 1.0
    full = A @ B
    masked = kernel("C(i,j) = M(i,j) * A(i,k) * B(k,j)", {"M": "CSR", **MASKED_LAYOUTS}, share={"C": "M"})
    result = masked(M=M, A=A, B=B)
    assert full.multiply(M).count_nonzero() < full.count_nonzero()  # the mask drops entries of A*B
    assert_close(result.to_dense(), full.multiply(M).toarray())
    transpose = kernel("C(i,j) = A(j,i)", {"A": "CSR", "C": "CSR"}, share={"C": "A"})
    square = sp.random(8, 8, density=0.3, format="csr", random_state=24)
    assert_close(transpose(A=square).to_dense(), square.T.multiply(square != 0).toarray())


# ============================================================================= 7. TTM, 8. MTTKRP

RANDOM_TENSORS = {
    "empty 3x4x5": ((3, 4, 5), 0),
    "one element 1x1x1": ((1, 1, 1), 1),
    "one element 4x5x6": ((4, 5, 6), 1),
    "sparse 6x7x8": ((6, 7, 8), 40),
    "dense 3x4x5": ((3, 4, 5), 60),
    "zero extent 3x0x2": ((3, 0, 2), 0),
}


def ttm_reference_fibers(data: tuple, C: np.ndarray):
    """TTM for the stored (i, j) fibers of B only, as scipy: (fiber coordinates, values[fiber, k])."""
    coords, values, _ = data
    fibers, fiber_of = np.unique(coords[:, :2], axis=0, return_inverse=True)
    fiber_of = fiber_of.ravel()
    by_fiber = sp.csr_matrix((values, (fiber_of, coords[:, 2])), shape=(len(fibers), C.shape[1]))
    return fibers, np.asarray(by_fiber @ C.T)


def check_ttm(data: tuple, C: np.ndarray, B=None, dense: bool = True):
    k = kernel(TTM, TTM_LAYOUTS, share={"A": "B"})
    result = k(B=data if B is None else B, C=C)
    assert isinstance(result, spf.Tensor) and result.layout.name == "CSF3_DENSE_LAST"
    shape = data[2]
    assert result.shape == (shape[0], shape[1], C.shape[0])
    if dense:
        assert_close(result.to_dense(), np.einsum("ijl,kl->ijk", dense_tensor(data), C))
    fibers, expected = ttm_reference_fibers(data, C)
    # The output has one dense row of k values per stored (i, j) fiber, in B's fiber order.
    fields = result.fields
    stored_i = np.repeat(fields["idx0"], np.diff(fields["ptr0"]))
    assert np.array_equal(np.stack([stored_i, fields["idx1"]], axis=1).reshape(-1, 2), fibers.reshape(-1, 2))
    assert_close(np.asarray(fields["val"]).reshape(len(fibers), C.shape[0]), expected)


@pytest.mark.parametrize("name", list(RANDOM_TENSORS))
def test_ttm_random(name):
    shape, count = RANDOM_TENSORS[name]
    data = random_tensor(shape, count, seed=8)
    C = np.random.default_rng(9).uniform(-1, 1, (5, shape[2]))
    check_ttm(data, C)


def mttkrp_reference(data: tuple, factors: list[np.ndarray]) -> np.ndarray:
    coords, values, shape = data
    rank = factors[0].shape[1]
    products = values[:, None] * np.ones((len(values), rank))
    for mode, factor in enumerate(factors, start=1):
        products = products * factor[coords[:, mode]]
    result = np.zeros((shape[0], rank))
    np.add.at(result, coords[:, 0], products)
    return result


def check_mttkrp(data: tuple, rank: int, seed: int, B=None, dense: bool = True, layout: str | None = None):
    """MTTKRP of order 3 or 4 against the reference; ``layout``: B's, if not CSF's."""
    shape = data[2]
    rng = np.random.default_rng(seed)
    factors = [rng.uniform(-1, 1, (extent, rank)) for extent in shape[1:]]
    names = ["C", "D", "E"][:len(factors)]
    if len(shape) == 3:
        k = kernel(MTTKRP, {**MTTKRP_LAYOUTS, **({"B": layout} if layout else {})})
        subscripts = "ikl,kj,lj->ij"
    else:
        k = kernel(MTTKRP4, {**MTTKRP4_LAYOUTS, **({"B": layout} if layout else {})})
        subscripts = "iklm,kj,lj,mj->ij"
    result = k(B=data if B is None else B, **dict(zip(names, factors)))
    assert isinstance(result, np.ndarray)
    expected = mttkrp_reference(data, factors)
    if dense:
        assert_close(expected, np.einsum(subscripts, dense_tensor(data), *factors))  # the reference itself
    assert_close(result, expected)


@pytest.mark.parametrize("name", list(RANDOM_TENSORS))
def test_mttkrp_random(name):
    shape, count = RANDOM_TENSORS[name]
    check_mttkrp(random_tensor(shape, count, seed=10), rank=4, seed=11)


RANDOM_TENSORS4 = {"empty 2x3x4x5": ((2, 3, 4, 5), 0), "one element 1x1x1x1": ((1, 1, 1, 1), 1),
                   "sparse 4x5x6x7": ((4, 5, 6, 7), 50), "dense 2x3x2x3": ((2, 3, 2, 3), 36)}


@pytest.mark.parametrize("name", list(RANDOM_TENSORS4))
def test_mttkrp4_random(name):
    shape, count = RANDOM_TENSORS4[name]
    check_mttkrp(random_tensor(shape, count, seed=12), rank=3, seed=13)


@pytest.mark.parametrize("name", TENSORS3)
def test_ttm_real(name):
    data, B = real_tensor(name)
    C = np.random.default_rng(14).uniform(-1, 1, (8, data[2][2]))
    check_ttm(data, C, B=B, dense=False)


@pytest.mark.parametrize("name", TENSORS3)
def test_mttkrp_real(name):
    data, B = real_tensor(name)
    check_mttkrp(data, rank=8, seed=15, B=B, dense=False)


@pytest.mark.parametrize("name", TENSORS4)
def test_mttkrp4_real(name):
    require_data()
    if name == "(no 4-way tensor)":
        pytest.skip(f"no 4-way tensor in {TENSORS}")
    data, B = real_tensor(name)
    check_mttkrp(data, rank=8, seed=16, B=B, dense=False)


# ----------------------------------------------------------------------------- coordinate lists (COO3, COO4)

TTV = "A(i,j) = B(i,j,k) * c(k)"
TTV4 = "A(i,j,k) = B(i,j,k,l) * c(l)"
DENSE_REFERENCE_LIMIT = 4_000_000  # elements: a real tensor this small is also checked by einsum over its dense copy


def ttv_reference(data: tuple, c: np.ndarray) -> np.ndarray:
    """The tensor times c along its last mode, summed entry by entry from the coordinates."""
    coords, values, shape = data
    result = np.zeros(shape[:-1])
    np.add.at(result, tuple(coords[:, :-1].T), values * c[coords[:, -1]])
    return result


def check_ttv(data: tuple, seed: int, vector: str = "Dense", B=None) -> None:
    """TTV over B in the coordinate list of its order, c dense or sparse (a find over c)."""
    coords, values, shape = data
    order = len(shape)
    rng = np.random.default_rng(seed)
    c = rng.uniform(-1, 1, shape[-1]) * (rng.random(shape[-1]) < (0.5 if vector == "SV" else 1.0))
    k = kernel(TTV if order == 3 else TTV4, {"A": "Dense", "B": f"COO{order}", "c": vector})
    expected = ttv_reference(data, c)
    if np.prod(shape, dtype=float) <= DENSE_REFERENCE_LIMIT:
        assert_close(expected, np.einsum("ijk,k->ij" if order == 3 else "ijkl,l->ijk", dense_tensor(data), c))
    assert_every_variant(k, expected, B=data if B is None else B, c=c if vector == "Dense" else
                         sparse_vector(np.flatnonzero(c), c[c != 0], len(c)))


@pytest.mark.parametrize("vector", ["Dense", "SV"])
@pytest.mark.parametrize("name", list(RANDOM_TENSORS))
def test_ttv_coo3_random(name, vector):
    shape, count = RANDOM_TENSORS[name]
    check_ttv(random_tensor(shape, count, seed=20), seed=21, vector=vector)


@pytest.mark.parametrize("vector", ["Dense", "SV"])
@pytest.mark.parametrize("name", list(RANDOM_TENSORS4))
def test_ttv_coo4_random(name, vector):
    shape, count = RANDOM_TENSORS4[name]
    check_ttv(random_tensor(shape, count, seed=22), seed=23, vector=vector)


@pytest.mark.parametrize("name", list(RANDOM_TENSORS))
def test_mttkrp_coo3_random(name):
    shape, count = RANDOM_TENSORS[name]
    check_mttkrp(random_tensor(shape, count, seed=24), rank=4, seed=25, layout="COO3")


@pytest.mark.parametrize("name", list(RANDOM_TENSORS4))
def test_mttkrp_coo4_random(name):
    shape, count = RANDOM_TENSORS4[name]
    check_mttkrp(random_tensor(shape, count, seed=26), rank=3, seed=27, layout="COO4")


def real_coordinate_list(name: str):
    """(coords, values, shape) of a real tensor and the tensor packed as spf.read_tns gives it."""
    require_data()
    data = load_tensor(name)
    return data, spf.pack(f"COO{len(data[2])}", spf.read_tns(TENSORS / f"{name}.tns"), "B")


@pytest.mark.parametrize("name", REAL_TENSORS)
def test_ttv_and_mttkrp_coo3_real(name):
    data, B = real_coordinate_list(name)
    assert B.layout.name == "COO3"
    check_ttv(data, seed=28, B=B)
    check_mttkrp(data, rank=8, seed=29, B=B, dense=np.prod(data[2], dtype=float) <= DENSE_REFERENCE_LIMIT,
                 layout="COO3")


@pytest.mark.parametrize("name", TENSORS4)
def test_mttkrp_coo4_real(name):
    require_data()
    if name == "(no 4-way tensor)":
        pytest.skip(f"no 4-way tensor in {TENSORS}")
    data, B = real_coordinate_list(name)
    assert B.layout.name == "COO4"
    check_mttkrp(data, rank=8, seed=30, B=B, dense=False, layout="COO4")


# ============================================================================= inputs and errors

def test_packed_inputs_are_used_directly(monkeypatch):
    matrix = RANDOM_MATRICES["empty rows and columns 9x11"]
    x = np.linspace(-1, 1, matrix.shape[1])
    k = kernel(SPMV, spmv_layouts("CSR"))
    A = spf.pack("CSR", matrix, "A")
    X = spf.pack("Dense", x, "x")
    before = {name: np.copy(value) for name, value in A.fields.items() if isinstance(value, np.ndarray)}

    def no_packing(*args, **kwargs):
        raise AssertionError("a packed input was packed again")

    monkeypatch.setattr(spf.runtime.kernel, "pack_into", no_packing)
    assert_close(k(A=A, x=X), matrix @ x)
    for name, value in before.items():
        assert np.array_equal(A.fields[name], value), f"the kernel changed input field {name}"
    monkeypatch.undo()
    # a Tensor in another layout is repacked into the kernel's
    assert_close(k(A=spf.pack("COO", matrix, "A"), x=x), matrix @ x)


def test_tensors_in_equal_layout_objects_are_used_directly(monkeypatch):
    """A Tensor whose layout equals the kernel's (another object: a layout file loaded
    again, a kernel from the cache) is read as it is, each input against its own layout;
    a Tensor in another layout is still packed into the kernel's."""
    import copy
    csr = spf.load_layout("CSR")
    other = copy.deepcopy(csr)
    assert other == csr and other is not csr
    a = sp.random(12, 9, density=0.3, format="csr", random_state=5)
    b = sp.random(12, 9, density=0.3, format="csr", random_state=6)
    k = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": csr, "B": other, "C": "CSR"})

    def no_packing(*args, **kwargs):
        raise AssertionError("a Tensor in the kernel's layout was packed again")

    monkeypatch.setattr(spf.runtime.kernel, "pack_into", no_packing)
    for first, second in [(csr, other), (other, csr), (other, other)]:
        for _ in range(2):  # the second call finds the equality remembered
            result = k(A=spf.pack(first, a, "A"), B=spf.pack(second, b, "B")).to_scipy()
            assert abs(result - (a + b)).max() == 0 and result.nnz == (a + b).nnz
    monkeypatch.undo()
    result = k(A=spf.pack("CSC", a, "A"), B=spf.pack(other, b, "B")).to_scipy()
    assert abs(result - (a + b)).max() == 0


def test_a_call_reads_the_callers_arrays_in_place_and_leaves_them_writable():
    """kernel(A=scipy_csr, x=numpy) checks A's and x's own arrays and reads them in place for
    that call: no copy, and the caller's arrays stay writable; bind() copies (a bound kernel
    runs again later, after the caller may have changed them); a malformed matrix is refused."""
    matrix = sp.random(60, 50, density=0.1, format="csr", random_state=4)
    x = np.linspace(-1, 1, 50)
    k = kernel(SPMV, spmv_layouts("CSR"))
    assert_close(k(A=matrix, x=x), matrix @ x)
    assert matrix.indices.flags.writeable and matrix.data.flags.writeable and x.flags.writeable
    bound = k.bind(A=matrix, x=x)
    matrix.data *= 2.0
    x[0] = 5.0
    assert_close(bound(), (matrix @ (x * 0 + np.linspace(-1, 1, 50))) / 2.0)  # bound to copies
    assert_close(k(A=matrix, x=x), matrix @ x)  # a new call reads the arrays as they are now
    unsorted = matrix.copy()
    unsorted.indices[[0, 1]] = unsorted.indices[[1, 0]]
    unsorted.has_sorted_indices = False
    assert_close(k(A=unsorted, x=x), unsorted @ x)  # not the layout's form: packed into a copy
    broken = matrix.copy()
    broken.indices[3] = 10**6
    with pytest.raises(spf.SpfError):
        k(A=broken, x=x)


@pytest.mark.parametrize("expression, layouts, arguments, index", [
    (SPMV, spmv_layouts("CSR"), {"A": sp.csr_matrix((5, 7)), "x": np.ones(6)}, "j"),
    (SPMM, spmm_layouts("CSR", "CSR"), {"A": sp.csr_matrix((3, 4)), "B": sp.csr_matrix((5, 2))}, "k"),
    (DOT, {"b": "SV", "c": "SV"}, {"b": sparse_vector([1], [1.0], 4), "c": sparse_vector([1], [1.0], 5)}, "i"),
    (SDDMM, SDDMM_LAYOUTS, {"B": sp.csr_matrix((3, 4)), "C": np.ones((3, 2)), "D": np.ones((2, 5))}, "j"),
    (MTTKRP, MTTKRP_LAYOUTS, {"B": random_tensor((3, 4, 5), 5, 0), "C": np.ones((4, 2)), "D": np.ones((6, 2))}, "l"),
])
def test_shape_mismatch_names_the_index(expression, layouts, arguments, index):
    share = {"A": "B"} if expression == SDDMM else None
    k = kernel(expression, layouts, **({"share": share} if share else {}))
    with pytest.raises(spf.SpfError, match=rf"\bindex {index}\b"):
        k(**arguments)


def test_missing_and_unknown_inputs():
    k = kernel(SPMV, spmv_layouts("CSR"))
    with pytest.raises(spf.SpfError, match=r"missing input x"):
        k(A=sp.csr_matrix((2, 2)))
    with pytest.raises(spf.SpfError, match=r"\bA\b"):
        k(x=np.ones(2))
    with pytest.raises(spf.SpfError, match=r"unknown"):
        k(A=sp.csr_matrix((2, 2)), x=np.ones(2), z=np.ones(2))


def test_explain_mentions_the_loop_nest():
    for expression, layouts, options in [(SPMV, spmv_layouts("CSR"), {}),
                                         (DOT, {"b": "SV", "c": "SV"}, {"find": "hashmap"}),
                                         (SDDMM, SDDMM_LAYOUTS, {"share": {"A": "B"}}),
                                         (MTTKRP, MTTKRP_LAYOUTS, {})]:
        text = kernel(expression, layouts, **options).explain()
        assert "loop nest:" in text and re.search(r"\bfor \w+ in ", text), expression
        assert "finds:" in text
    assert "hashmap" in kernel(DOT, {"b": "SV", "c": "SV"}, find="hashmap").explain()


def test_codegen_seconds_and_header():
    k = kernel(SPMV, spmv_layouts("CSR"))
    assert k.codegen_seconds > 0  # measured (benchmarks/codegen_time.py reports it; no limit here)
    assert "struct spf_CSR" in k.header
    assert k.function_name in k.c_source


def test_a_kernel_runs_again_on_other_operands():
    """Outputs are fresh arrays: a second call neither changes nor reuses the first result."""
    k = kernel(SPMV, spmv_layouts("CSR"))
    first, second = RANDOM_MATRICES["tall 23x5"], RANDOM_MATRICES["dense 17x17"]
    x1, x2 = np.linspace(-1, 1, first.shape[1]), np.linspace(2, 3, second.shape[1])
    y1 = k(A=first, x=x1)
    y1_copy = y1.copy()
    y2 = k(A=second, x=x2)
    assert_close(y1, y1_copy)
    assert_close(y2, second @ x2)
    assert not np.shares_memory(y1, y2)
    assert_close(k(A=first, x=x1), first @ x1)


# ============================================================================= beyond the list

# SpMSpM with B stored by columns (the find over B's rows sits inside the loop over its
# columns) and a few other pairs: random data only (real-data coverage is above).
EXTRA_SPMM_PAIRS = [(a, b) for b in ("CSC", "DCSC") for a in ("CSR", "COO", "COO_UNSORTED", "DIA", "ELL", "Dense")] + \
    [("CSC", "CSR"), ("DCSC", "COO"), ("COO_UNSORTED", "COO_UNSORTED"), ("ELL", "DIA"), ("DIA", "ELL"),
     ("Dense", "BCSR(R=2,C=2)")]


@pytest.mark.parametrize("a, b", EXTRA_SPMM_PAIRS)
def test_spmspm_other_pairs_random(a, b):
    k = kernel(SPMM, spmm_layouts(a, b))
    for name, right in SPMM_RANDOM[::3]:
        left = RANDOM_MATRICES[name]
        other = spmm_right(left, right)
        assert_every_variant(k, (left @ other).toarray(), A=left, B=other)
