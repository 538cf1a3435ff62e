"""Assembly plans (spf/codegen/assembly/plan.py) and the kernels whose outputs they build.

A kernel whose output is in a sparse layout without ``share`` appends each entry it
produces to a stream; the output's builder orders, sums and stores them.  Checked
here against scipy / numpy: products (SpGEMM into every matrix layout the assembly
builds), sums and differences co-iterated as unions, element-wise products,
coefficients, transposes and mode permutations, conversions between layouts, order 3,
empty and one-entry operands, hypothesis cases, real matrices; and the refusals.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import spf
from conftest import REAL_MATRICES, REPOSITORY, data_available, load_matrix
from spf.codegen.assembly.plan import plan_assembly
from spf.errors import AssemblyRefused
from spf.runtime.assemble import has_assembly
from spf.runtime.validation import validate

MATRIX_OUTPUTS = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR(R=2, C=2)", "BCSR(R=4, C=4)",
                  "DIA"]
MATRIX_INPUTS = ["CSR", "CSC", "DCSR", "COO", "BCSR(R=2, C=2)", "Dense2"]


def by_coordinates(coords, values) -> tuple[np.ndarray, np.ndarray]:
    """Entries as arrays sorted by coordinates, the last of repeated coordinates kept (as a
    dict of them keeps it): the real matrices' products have about a million entries."""
    values = np.asarray(values, dtype=float)
    coords = np.asarray(coords, dtype=np.int64)
    if not len(values):
        return coords.reshape(0, coords.shape[-1] if coords.ndim == 2 else 0), values
    coords = coords.reshape(len(values), -1)
    order = np.lexsort(coords.T[::-1])  # stable: repeated coordinates stay in their order
    coords, values = coords[order], values[order]
    last = np.ones(len(values), dtype=bool)
    last[:-1] = np.any(coords[1:] != coords[:-1], axis=1)
    return coords[last], values[last]


def stored_entries(tensor) -> tuple[np.ndarray, np.ndarray]:
    """The entries a Tensor stores (padding of padded layouts dropped), sorted by coordinates."""
    coords, values, _ = tensor.to_coo()
    return by_coordinates(coords, values)


def stored(tensor) -> dict[tuple, float]:
    """The entries a Tensor stores (padding of padded layouts dropped), by coordinates."""
    coords, values = stored_entries(tensor)
    return dict(zip(map(tuple, coords.tolist()), values.tolist()))


def expected_entries(matrix, zeros: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """scipy's entries of ``matrix`` sorted by coordinates; its explicit zeros only with
    ``zeros`` (a kernel's assembled output stores nonzeros, as scipy's products and sums
    do; a conversion keeps them)."""
    coo = sp.coo_matrix(matrix)
    coo.sum_duplicates()
    keep = slice(None) if zeros else coo.data != 0
    return by_coordinates(np.column_stack([coo.row, coo.col])[keep], coo.data[keep])


def expected(matrix, zeros: bool = False) -> dict[tuple, float]:
    """:func:`expected_entries` by coordinates."""
    coords, values = expected_entries(matrix, zeros)
    return dict(zip(map(tuple, coords.tolist()), values.tolist()))


def assert_entries(tensor, want: dict | tuple[np.ndarray, np.ndarray], padded: bool = False):
    """The tensor stores exactly ``want``'s coordinates (a dict by coordinates, or
    :func:`expected_entries`), each value within pytest.approx's bound
    max(1e-12 |want|, 1e-13), infinite values equal; compared as arrays."""
    coords, values = stored_entries(tensor)
    if padded:  # padding slots hold zeros; compare where the reference has entries
        coords, values = coords[values != 0], values[values != 0]
    if isinstance(want, dict):
        want = by_coordinates(list(want), list(want.values()))
    wanted_coords, wanted = want
    if len(coords) != len(wanted_coords) or (len(coords) and not np.array_equal(coords, wanted_coords)):
        differ = set(map(tuple, coords.tolist())) ^ set(map(tuple, wanted_coords.tolist()))
        raise AssertionError(f"pattern: {len(differ)} entries differ")
    with np.errstate(invalid="ignore"):  # an infinite value must be equal, as approx wants it
        close = (values == wanted) | (np.isfinite(wanted)
                                      & (np.abs(values - wanted) <= np.maximum(1e-12 * np.abs(wanted), 1e-13)))
    if not close.all():
        first = int(np.flatnonzero(~close)[0])
        raise AssertionError(f"{tuple(coords[first].tolist())}: stored {values[first]!r}, expected "
                             f"{wanted[first]!r} (and {int((~close).sum()) - 1} more)")


def random(rows, cols, density, seed):
    return sp.random(rows, cols, density=density, format="csr", random_state=seed)


A, B = random(40, 30, 0.15, 1), random(30, 35, 0.15, 2)
A2, D = random(40, 30, 0.2, 3), random(40, 35, 0.1, 4)


# ----------------------------------------------------------------------------- the plan


def test_plan_reads_each_level_kind():
    csr = plan_assembly(spf.load_layout("CSR"))
    assert [(level.index, level.kind, level.pointer) for level in csr.levels] == \
        [("pi", "dense", None), ("pj", "compressed", "rowPtr")]
    assert csr.counts == {"nnz": (0, 0)}
    coo = plan_assembly(spf.load_layout("COO"))
    assert [(l.kind, l.count, [k.array for k in l.keys]) for l in coo.levels] == \
        [("compressed", "nnz", ["row", "col"])]
    bcsr = plan_assembly(spf.load_layout("BCSR(R=2, C=3)"))
    assert [level.kind for level in bcsr.levels] == ["dense", "compressed", "dense", "dense"]
    assert "spf_floord((x_j), 3)" in bcsr.levels[1].keys[0].expression
    assert plan_assembly(spf.load_layout("SV_DEC")).levels[0].keys[0].sign == -1
    dia = plan_assembly(spf.load_layout("DIA"))
    assert dia.levels[0].count == "ndiag" and "x_j" in dia.levels[0].keys[0].expression
    csf = plan_assembly(spf.load_layout("CSF3"))
    assert csf.counts == {"nnz0": (0, 0), "nnz1": (1, 0), "nnz2": (2, 0)}
    lines = csr.describe()
    assert lines[0] == "pi: dense, computed from the coordinates: pi = i"
    assert "periodic_monotonic(colIdx, rowPtr, increasing, strict)" in lines[1]
    assert "rowPtr counts them per pi and is their prefix sum" in lines[1]


@pytest.mark.parametrize("name, level", [("ELL", "pk"), ("WARP24", "pk")])
def test_fixed_width_levels_are_refused_with_the_level(name, level):
    with pytest.raises(AssemblyRefused, match=f"level {level}.*fixed width"):
        plan_assembly(spf.load_layout(name))
    assert not has_assembly(spf.load_layout(name))


def test_an_array_no_level_fills_is_refused(tmp_path):
    path = tmp_path / "EXTRA.layout"
    path.write_text(
        "layout EXTRA\nfield n: int = shape[0]\nfield len: int\nfield idx: int[len]\nfield tag: int[len]\n"
        "field val: double[len]\nshape n\nrelation [p] -> [i] : 0 <= p < len and i = idx(p)\n"
        "values val[p]\nproperty range(idx, 0, n)\n")
    with pytest.raises(AssemblyRefused, match="array tag"):
        plan_assembly(spf.load_layout(str(path)))


# ----------------------------------------------------------------------------- kernels with assembled outputs


@pytest.mark.parametrize("output", MATRIX_OUTPUTS)
def test_spgemm_into_every_matrix_layout(output):
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": output})
    C = k(A=A, B=B)
    assert isinstance(C, spf.Tensor) and C.layout.spec == spf.load_layout(output).spec
    assert_entries(C, expected(A @ B), padded=C.layout.padded)
    validate(C.layout, dict(C.fields), "C", C.shape)  # the builder's claim: valid by construction


@pytest.mark.parametrize("left, right", [(a, b) for a in MATRIX_INPUTS for b in MATRIX_INPUTS][::3])
def test_sums_differences_and_products_over_layout_pairs(left, right):
    layouts = {"A": left, "B": right, "C": "CSR"}
    assert_entries(spf.compile("C(i,j) = A(i,j) + B(i,j)", layouts)(A=A, B=A2), expected(A + A2))
    assert_entries(spf.compile("C(i,j) = A(i,j) - 3 * B(i,j)", layouts)(A=A, B=A2), expected(A - 3 * A2))
    # share={}: assembled (a dense A times B into B's layout is otherwise B's pattern, inferred)
    assert_entries(spf.compile("C(i,j) = A(i,j) * B(i,j)", layouts, share={})(A=A, B=A2), expected(A.multiply(A2)))


def test_a_sum_takes_the_union_of_its_terms_patterns():
    """B is A with a random subset of entries removed and new ones added (the issue's case)."""
    rng = np.random.default_rng(5)
    coo = A.tocoo()
    keep = rng.random(coo.nnz) < 0.6
    extra = random(40, 30, 0.05, 6).tocoo()
    other = sp.coo_matrix((np.concatenate([coo.data[keep], extra.data]),
                           (np.concatenate([coo.row[keep], extra.row]), np.concatenate([coo.col[keep], extra.col]))),
                          shape=A.shape).tocsr()
    k = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert_entries(k(A=A, B=other), expected(A + other))


def test_products_plus_a_matrix_and_sparse_vectors():
    k = spf.compile("C(i,j) = A(i,k) * B(k,j) + D(i,j)", {"A": "CSR", "B": "CSR", "D": "CSR", "C": "CSR"})
    assert_entries(k(A=A, B=B, D=D), expected(A @ B + D))
    x = random(30, 1, 0.3, 7).toarray().ravel()
    z = random(40, 1, 0.3, 8).toarray().ravel()
    k = spf.compile("y(i) = A(i,j) * x(j) + z(i)", {"A": "CSR", "x": "SV", "z": "SV", "y": "SV"})
    y = k(A=A, x=x, z=z)
    reference = A @ x + z
    structural = (abs(A) @ (x != 0) + (z != 0)) > 0
    assert set(y.fields["idx"]) == set(np.flatnonzero(structural))
    np.testing.assert_allclose(y.to_dense(), reference, rtol=1e-12, atol=1e-13)
    for layout in ["SV", "SV_DEC", "SV_UNSORTED"]:
        k = spf.compile("z(i) = x(i) + y(i)", {"x": "SV", "y": "SV", "z": layout})
        w = k(x=x[:30], y=x[::-1].copy())
        np.testing.assert_array_equal(w.to_dense(), x[:30] + x[::-1])


def test_transposes_conversions_and_coefficients():
    assert_entries(spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})(A=A), expected(A.T))
    assert_entries(spf.compile("B(j,i) = A(i,j)", {"A": "COO", "B": "DCSC"})(A=A), expected(A.T))
    for source in MATRIX_INPUTS:
        for target in ["CSR", "CSC", "DCSR", "DCSC", "COO", "BCSR(R=2, C=2)", "DIA"]:
            k = spf.compile("B(i,j) = A(i,j)", {"A": source, "B": target})
            assert_entries(k(A=A), expected(A), padded=spf.load_layout(target).padded)
    assert_entries(spf.compile("B(i,j) = 2.5 * A(i,j)", {"A": "CSR", "B": "COO"})(A=A), expected(2.5 * A))


def test_order_three_copies_permutations_and_ttm_into_a_dense_last_level():
    rng = np.random.default_rng(9)
    coords = np.unique(rng.integers(0, 6, (70, 3)), axis=0)
    values = rng.standard_normal(len(coords))
    dense = np.zeros((6, 6, 6))
    dense[tuple(coords.T)] = values
    X = spf.pack("CSF3", (coords, values, (6, 6, 6)))
    for expression, want in [("B(i,j,k) = A(i,j,k)", dense), ("B(k,i,j) = A(i,j,k)", dense.transpose(2, 0, 1)),
                             ("B(j,k,i) = A(i,j,k)", dense.transpose(1, 2, 0))]:
        B3 = spf.compile(expression, {"A": "CSF3", "B": "CSF3"})(A=X)
        np.testing.assert_array_equal(B3.to_dense(), want)
    U = rng.standard_normal((4, 6))
    Y = spf.compile("Y(i,j,r) = X(i,j,k) * U(r,k)", {"X": "CSF3", "U": "Dense", "Y": "CSF3_DENSE_LAST"})(X=X, U=U)
    np.testing.assert_allclose(Y.to_dense(), np.einsum("ijk,rk->ijr", dense, U), rtol=1e-12, atol=1e-13)
    fibers = {tuple(c[:2]) for c in coords}
    assert int(Y.fields["nnz1"]) == len(fibers)  # one dense fiber per (i, j) with an entry


def test_empty_and_single_entry_operands():
    empty = sp.csr_matrix((5, 4))
    one = sp.csr_matrix(([2.0], ([3], [1])), shape=(5, 4))
    for layout in ["CSR", "DCSR", "COO", "CSC"]:
        k = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": layout})
        assert stored(k(A=empty, B=empty)) == {}
        assert stored(k(A=one, B=empty)) == {(3, 1): 2.0}
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    C = k(A=empty, B=sp.csr_matrix((4, 0)))
    assert C.shape == (5, 0) and C.fields["nnz"] == 0 and list(C.fields["rowPtr"]) == [0] * 6


@settings(max_examples=40)
@given(st.sampled_from(MATRIX_INPUTS), st.sampled_from(MATRIX_INPUTS), st.sampled_from(MATRIX_OUTPUTS),
       st.integers(0, 9), st.integers(1, 9), st.integers(1, 9), st.floats(0, 0.6), st.integers(0, 2**31))
def test_hypothesis_products_and_sums(left, right, output, rows, inner, cols, density, seed):
    a, b = random(rows, inner, density, seed), random(inner, cols, density, seed + 1)
    c = random(rows, inner, density, seed + 2)
    padded = spf.load_layout(output).padded
    product = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": left, "B": right, "C": output})
    assert_entries(product(A=a, B=b), expected(a @ b), padded=padded)
    total = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": left, "B": right, "C": output})
    assert_entries(total(A=a, B=c), expected(a + c), padded=padded)


@pytest.mark.parametrize("matrix", REAL_MATRICES[:6])
def test_real_matrices_products_and_transposes(matrix):
    if not data_available():
        pytest.skip("../shared/data is not beside the project")
    M = load_matrix(matrix)
    if M.shape[0] == M.shape[1]:
        k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
        assert_entries(k(A=M, B=M), expected_entries(M @ M))
    k = spf.compile("C(i,j) = A(i,k) * B(j,k)", {"A": "CSR", "B": "CSR", "C": "DCSR"})
    assert_entries(k(A=M, B=M), expected_entries(M @ M.T))
    assert_entries(spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})(A=M), expected_entries(M.T))
    packed = spf.pack("CSR", M)
    for layout in ["CSC", "DCSR", "DCSC", "COO", "BCSR(R=4, C=4)"]:
        converted = spf.convert(packed, layout)
        padded = converted.layout.padded
        assert_entries(converted, expected_entries(M, zeros=not padded), padded=padded)


# ----------------------------------------------------------------------------- conversion

CONVERTIBLE = ["COO", "COO_UNSORTED", "CSR", "CSC", "DCSR", "DCSC", "BCSR(R=2, C=2)", "BCSR(R=4, C=4)", "ELL",
               "DIA", "Dense2"]


@pytest.mark.parametrize("source", CONVERTIBLE)
def test_convert_between_every_pair_of_matrix_layouts(source):
    matrix = random(23, 17, 0.2, 11)
    matrix.data[:4] = 0.0  # explicit zeros: a conversion keeps them (padded layouts cannot tell them)
    original = spf.pack(source, matrix, name="M")
    for target in CONVERTIBLE:
        converted = spf.convert(original, target)
        assert converted.layout == spf.load_layout(target)
        assert converted.name == "M" and converted.shape == (23, 17)
        np.testing.assert_array_equal(converted.to_dense(), matrix.toarray())
        assert stored(converted) == stored(original) or original.layout.padded or converted.layout.padded
    assert spf.convert(original, source) is original


def test_convert_order_three_and_user_layouts():
    rng = np.random.default_rng(12)
    coords = np.unique(rng.integers(0, 5, (40, 3)), axis=0)
    data = (coords, rng.standard_normal(len(coords)), (5, 5, 5))
    csf = spf.pack("CSF3", data)
    for target in ["COO3", "examples/layouts/COO3_UNSORTED.layout", "CSF3_DENSE_LAST", "Dense3"]:
        converted = spf.convert(csf, target)
        np.testing.assert_array_equal(converted.to_dense(), csf.to_dense())
        np.testing.assert_array_equal(spf.convert(converted, "CSF3").to_dense(), csf.to_dense())
    with pytest.raises(spf.PackError, match="stores order-2 tensors"):
        spf.convert(csf, "CSR")
    assert spf.convert(sp.eye(3, format="csr"), "COO").layout.spec == "COO"  # data as spf.pack takes it


# ----------------------------------------------------------------------------- refusals and explain


def test_layouts_assembly_cannot_build_are_refused_with_the_reason():
    with pytest.raises(AssemblyRefused, match=r"output C cannot be assembled in ELL: .*level pk"):
        spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "ELL"})
    with pytest.raises(spf.SpfError, match=r"'\+=' needs an output whose pattern is known"):
        spf.compile("C(i,j) += A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})


LOWER_CSR = REPOSITORY / "tests" / "data" / "LOWER_CSR.layout"  # CSR restricted to j <= i


def test_an_entry_the_output_layout_cannot_hold_is_named():
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": str(LOWER_CSR)})
    upper = sp.csr_matrix(([1.0], ([0], [2])), shape=(3, 3))
    with pytest.raises(spf.PackError, match=r"entry \(0, 2\) cannot be stored \(j <= i does not hold\)"):
        k(A=upper, B=sp.eye(3, format="csr"))
    lower = sp.csr_matrix(([1.0, 2.0], ([2, 1], [0, 1])), shape=(3, 3))
    assert_entries(k(A=lower, B=sp.eye(3, format="csr")), expected(lower))


def test_explain_shows_the_assembly():
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    text = k.explain()
    assert "assembly of C (CSR):" in text
    assert "pj: compressed, one position per distinct colIdx(pj) = j" in text
    # a serial kernel: no parallel loop (the rows' hand-over copies in parallel only for several threads)
    assert "#pragma omp" not in k.c_source[k.c_source.index("int spf_kernel_"):]
    np.testing.assert_allclose(k(A=A, B=B).to_dense(), (A @ B).toarray(), rtol=1e-12)


# ----------------------------------------------------------------------------- the workspace


def test_spgemm_goes_through_a_workspace_and_sums_through_the_stream():
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert "strategy: workspace over j" in k.explain() and '#include "spf_workspace.h"' in k.c_source
    assert "spf_workspace_hand_put(" in k.c_source
    total = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSC", "C": "CSR"})  # B: j first
    assert "strategy: the loop nests append each entry" in total.explain()
    assert '#include "spf_workspace.h"' not in total.c_source and "spf_workspace_" not in total.c_source
    assert_entries(total(A=A2, B=sp.csr_matrix(A2 * 2 + sp.eye(40, 30))), expected(A2 * 3 + sp.eye(40, 30)))
    # j bound before i: no workspace, the stream and the builder's sort
    column_first = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSC", "B": "CSC", "C": "CSR"})
    assert '#include "spf_workspace.h"' not in column_first.c_source and "spf_workspace_" not in column_first.c_source
    assert_entries(column_first(A=A, B=B), expected(A @ B))


@pytest.mark.parametrize("left", ["COO_UNSORTED", "DCSR", "COO", "CSR"])
def test_workspace_groups_that_repeat_or_arrive_out_of_order_are_merged_by_the_builder(left):
    """Rows of an unsorted COO come in any order and repeat: the workspace flushes a row
    each time it is left, the builder sums the pieces (and drops what sums to zero)."""
    a = random(25, 20, 0.3, 13)
    b = random(20, 30, 0.3, 14)
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": left, "B": "CSR", "C": "CSR"})
    assert_entries(k(A=a, B=b), expected(a @ b))
    assert k.assembly_statistics["groups through the builder"] == 0  # packed: rows in order
    if left == "COO_UNSORTED":  # rows shuffled: they repeat and come back
        coo = a.tocoo()
        order = np.random.default_rng(0).permutation(coo.nnz)
        shuffled = spf.Tensor(left, a.shape, {"numRows": 25, "numCols": 20, "nnz": coo.nnz, "row": coo.row[order],
                                              "col": coo.col[order], "val": coo.data[order]})
        assert_entries(k(A=shuffled, B=b), expected(a @ b))
        assert k.assembly_statistics["groups through the builder"] > 0
    cancel = sp.vstack([a, -a]).tocsr()  # C's lower half is minus its upper half
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": left, "B": "CSR", "C": "DCSR"})
    assert_entries(k(A=cancel, B=b), expected(cancel @ b))


def test_a_dense_row_is_read_in_order_from_the_accumulator():
    dense_rows = sp.csr_matrix(np.ones((3, 40)))
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    C = k(A=dense_rows, B=sp.csr_matrix(np.eye(40)[::-1]))
    assert_entries(C, expected(dense_rows @ np.eye(40)[::-1]))
    assert list(C.fields["colIdx"][:40]) == list(range(40))


# ----------------------------------------------------------------------------- parallel


@pytest.mark.parametrize("output", ["CSR", "DCSR", "COO", "CSC", "BCSR(R=2, C=2)"])
def test_parallel_assembled_outputs_on_two_threads(openmp_threads, output):
    """Each thread appends to its own stream (and workspace) over one contiguous part of
    the rows, the parts split by A's row lengths (A's rowPtr read at pAi and pAi + 1); the
    streams, joined in thread order, go to one builder.  400 rows: both threads work."""
    a, b = random(400, 300, 0.05, 15), random(300, 350, 0.05, 16)
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": output}, parallel=True)
    assert "spf_weight = (spf_middle - spf_first) + (A_rowPtr[pAi] - spf_base)" in k.c_source
    assert "for (int64_t pAi = spf_from; pAi < spf_to; pAi++)" in k.c_source
    assert "loop pAi runs in parallel: each thread hands its entries of C to its own stream" in k.explain()
    padded = spf.load_layout(output).padded
    for _ in range(5):
        assert_entries(k(A=a, B=b), expected(a @ b), padded=padded)
    if output == "CSR":  # each thread's rows follow the previous thread's: handed over as they stand
        assert k.assembly_statistics["groups handed over as the arrays"] > 0
        assert k.assembly_statistics["groups through the builder"] == 0
    total = spf.compile("C(i,j) = A(i,j) - B(i,j)", {"A": "CSR", "B": "COO_UNSORTED", "C": output},
                        parallel=True)
    c = random(400, 300, 0.05, 17)
    for _ in range(3):
        assert_entries(total(A=a, B=c), expected(a - c), padded=padded)


def test_parallel_rows_become_the_arrays_over_calls_of_changing_sizes(openmp_threads):
    """Thread 0's rows become the result's arrays and the other thread's are copied after
    them in blocks of 65536 entries (several here); the next call reserves what the last
    one needed, so calls alternate larger and smaller results, halves left empty, the
    work in a few rows (the parts split by work), and fewer rows than threads."""
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, parallel=True)
    big = random(2000, 1500, 0.01, 81)
    small = random(300, 1500, 0.02, 82)
    top = sp.vstack([big[:1000], sp.csr_matrix((1000, 1500))]).tocsr()  # thread 1's rows all empty
    bottom = sp.vstack([sp.csr_matrix((1000, 1500)), big[1000:]]).tocsr()  # thread 0's rows all empty
    b = random(1500, 1800, 0.01, 83)
    assert (big[1000:] @ b).nnz > 3 * 65536
    skewed = sp.vstack([random(20, 1500, 0.5, 84), random(1980, 1500, 0.001, 85)]).tocsr()  # work in 20 rows
    for a in (big, small, big, top, bottom, sp.csr_matrix((2000, 1500)), big, skewed, small, skewed[:1]):
        C = k(A=a, B=b)
        assert_entries(C, expected(a @ b))
        validate(C.layout, dict(C.fields), "C", C.shape)
    assert k.assembly_statistics["groups through the builder"] == 0


def test_parallel_recipe_on_an_assembled_output(openmp_threads):
    a, b = random(300, 200, 0.05, 18), random(200, 250, 0.05, 19)
    layouts = {"A": "CSR", "B": "CSR", "C": "CSR"}
    recipe = spf.recipe("C(i,j) = A(i,k) * B(k,j)", layouts).parallelize("pAi")
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", layouts, schedule=recipe)
    assert "for (int64_t pAi = spf_from; pAi < spf_to; pAi++)" in k.c_source
    coo = spf.compile("C(i,j) = A(i,k) * B(k,j)", dict(layouts, A="COO"), parallel=True)
    assert "#pragma omp parallel for schedule(static)" in coo.c_source  # no pointer to weigh by
    for _ in range(3):
        assert_entries(coo(A=a, B=b), expected(a @ b))
    for _ in range(3):
        assert_entries(k(A=a, B=b), expected(a @ b))


def test_a_rows_group_starts_where_its_row_is_bound_unless_a_parallel_loop_is_between(openmp_threads):
    """The workspace's group test moves to where the nest binds i, and each entry only
    adds; a parallel loop inside the row (each thread its own workspace) keeps the test
    per entry, since the thread that adds is not the one that bound i."""
    layouts = {"A": "CSR", "B": "CSR", "C": "CSR"}
    a, b = random(400, 150, 0.05, 61), random(150, 120, 0.05, 62)
    kernel = spf.compile("C(i,j) = A(i,k) * B(k,j)", layouts)
    body = kernel.c_source[kernel.c_source.index("int spf_kernel_"):]
    assert "spf_workspace_hand_group_rows(&spf_my_hand, spf_my_accumulator, spf_my_stream, i)" in body
    assert "spf_workspace_hand_put(&spf_my_hand, j," in body
    inner = spf.compile("C(i,j) = A(i,k) * B(k,j)", layouts,
                        schedule=spf.recipe("C(i,j) = A(i,k) * B(k,j)", layouts).parallelize("pAj"))
    body = inner.c_source[inner.c_source.index("int spf_kernel_"):]
    assert "spf_workspace_hand" not in body and "spf_workspace_add_rows(spf_my" in body
    for k in (kernel, inner):
        for _ in range(3):
            assert_entries(k(A=a, B=b), expected(a @ b))


def test_each_way_of_ordering_a_group_of_the_workspace():
    """Rows of C with more than 128 entries spread wide take the radix sort, dense ones the
    scan of marks, rows touched in order (or as two ascending runs, a sum's) a merge; shorter
    ones are ranked (each key placed by the count of those below it: in registers on AVX-512,
    else by the rank sort where they are not dense or in runs), up to 4 keys a network.  Every
    group comes out in storage order."""
    rng = np.random.default_rng(20)
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})

    def ordered_by(A, B) -> dict[str, int]:
        before = dict(k.assembly_statistics)
        C = k(A=A, B=B)
        want = (A @ B).tocsr()
        want.sort_indices()
        assert np.array_equal(C.fields["rowPtr"], want.indptr) and np.array_equal(C.fields["colIdx"], want.indices)
        assert_entries(C, expected(A @ B))
        return {name: count - before.get(name, 0) for name, count in k.assembly_statistics.items()
                if count != before.get(name, 0)}

    ones = sp.csr_matrix(np.ones((2, 60)))
    spread = sp.random(60, 200_000, density=5 / 200_000, format="csr", random_state=rng)
    assert ordered_by(ones, spread)["groups radix-sorted"] == 2
    few = sp.random(60, 200_000, density=1 / 200_000, format="csr", random_state=rng)
    assert ordered_by(ones, few)["groups sorted by comparisons"] == 2
    interleaved = sp.csr_matrix(([1.0] * 300, ([c % 3 for c in range(300)], list(range(300)))), shape=(3, 300))
    assert ordered_by(sp.csr_matrix(np.ones((2, 3))), interleaved) == {
        "groups read in order from a bitmap of the coordinates touched": 2, "groups handed over as the arrays": 2}
    backwards = sp.csr_matrix(np.eye(200)[::-1])
    assert ordered_by(sp.csr_matrix(np.ones((2, 200))), backwards)[
        "groups read in order from a bitmap of the coordinates touched"] == 2
    two_runs = sp.csr_matrix(([1.0] * 300, ([0] * 150 + [1] * 150, list(range(1, 300, 2)) + list(range(0, 300, 2)))),
                             shape=(2, 300))
    assert ordered_by(sp.csr_matrix(np.array([[1.0, 1.0]])), two_runs)[
        "groups already in order or merged from two sorted runs"] == 1
    short = ordered_by(sp.csr_matrix(np.array([[1.0, 1.0]])), sp.csr_matrix(np.array([[0, 1.0, 0, 1], [1, 0, 1, 0]])))
    assert short.get("groups sorted by comparisons", 0) + short.get(
        "groups already in order or merged from two sorted runs", 0) == 1
    assert "run-time choices over the calls so far: groups handed over as the arrays 10" in k.explain()


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_rows_of_every_length_come_out_in_storage_order(parallel, openmp_threads):
    """Rows of 1 to 300 entries, touched in scrambled order from several rows of B (the
    lengths a network sorts, 2 to 4, those ranked in registers, 5 to 128, and longer), some sums
    cancelling to zero (dropped): C's arrays equal scipy's sorted canonical product, at 1 and
    at 2 threads."""
    rng = np.random.default_rng(33)
    rows, inner, cols = 600, 400, 5000
    lengths = np.concatenate([np.arange(1, 301), rng.integers(1, 140, rows - 300)])
    B = sp.random(inner, cols, density=0.004, format="csr", random_state=rng)
    B.data = np.floor(B.data * 4) + 1  # small integers: sums that cancel are exact
    A_rows, A_cols, A_vals = [], [], []
    for i, length in enumerate(lengths):
        picked = rng.choice(inner, size=min(max(1, length // 20), inner), replace=False)
        A_rows += [i] * len(picked)
        A_cols += picked.tolist()
        A_vals += rng.choice([-1.0, 1.0, 2.0], size=len(picked)).tolist()
    A = sp.csr_matrix((A_vals, (A_rows, A_cols)), shape=(rows, inner))
    want = (A @ B).tocsr()
    want.eliminate_zeros()
    want.sort_indices()
    assert (abs(A) @ B).nnz > want.nnz + 50  # some sums cancel (75 here)
    counts = np.diff(want.indptr)
    assert counts.max() > 128 and ((counts > 2) & (counts <= 128)).sum() > 100
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, parallel=parallel)
    for _ in range(2):
        C = k(A=A, B=B)
        assert np.array_equal(C.fields["rowPtr"], want.indptr)
        assert np.array_equal(C.fields["colIdx"], want.indices)
        assert np.array_equal(C.fields["data"], want.data)


@pytest.mark.parametrize("output", ["CSR", "CSC", "CSR_UNSORTED"])
def test_rows_in_storage_order_are_handed_over_as_the_layouts_arrays(output):
    """A workspace whose groups are a compressed level's segments (CSR's rows, CSC's
    columns) under a loop order that visits them increasing: no builder pass at all."""
    inputs = "CSC" if output == "CSC" else "CSR"  # the loop order binds C's outer coordinate first
    order = ["pBj", "j", "pBi", "k", "pAj", "pAi", "i"] if output == "CSC" else None
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": inputs, "B": inputs, "C": output}, order=order)
    assert "then the groups straight into" in k.explain()
    a, b = random(60, 45, 0.1, 31), random(45, 50, 0.1, 32)
    a = sp.vstack([a[:3], sp.csr_matrix((1, 45)), a[4:]]).tocsr()  # row 3 empty
    C = k(A=a, B=b)
    assert_entries(C, expected(a @ b))
    validate(C.layout, dict(C.fields), "C", C.shape)
    assert k.assembly_statistics["groups through the builder"] == 0
    assert k.assembly_statistics["groups handed over as the arrays"] == (a @ b).tocsr().getnnz(
        axis=0 if output == "CSC" else 1).astype(bool).sum()
    if output == "CSR_UNSORTED":
        assert "in the order first touched" in k.explain()
        assert sum(v for s, v in k.assembly_statistics.items() if "sort" in s or "read in order" in s) == 0
    empty = k(A=sp.csr_matrix((60, 45)), B=b)
    assert empty.fields["nnz"] == 0 and not np.any(empty.fields["rowPtr" if output != "CSC" else "colPtr"])


@pytest.mark.parametrize("expression, terms", [
    ("C(i,j) = A(i,j) + B(i,j)", lambda a, b, d: a + b),
    ("C(i,j) = A(i,j) - B(i,j)", lambda a, b, d: a - b),
    ("C(i,j) = A(i,j) + B(i,j) + D(i,j)", lambda a, b, d: a + b + d),
    ("C(i,j) = 2 * A(i,j) - D(i,j)", lambda a, b, d: 2 * a - d),
])
@pytest.mark.parametrize("parallel", [False, True])
def test_a_sums_nests_are_fused_so_each_row_arrives_once(openmp_threads, expression, terms, parallel):
    """spf.codegen.assembly.fusion: the statements' loops over the rows become one, the workspace sees
    each row of C whole, and the rows are handed over without the builder."""
    a, b, d = random(500, 300, 0.03, 41), random(500, 300, 0.03, 42), random(500, 300, 0.03, 43)
    b = sp.csr_matrix(b + a.multiply(sp.random(500, 300, density=0.5, random_state=44).astype(bool)) * -1.0)
    layouts = {name: "CSR" for name in "ABCD"}
    k = spf.compile(expression, {n: l for n, l in layouts.items() if f"{n}(" in expression}, parallel=parallel)
    assert "(fused: runs inside the first statement's loop" in k.explain()
    for _ in range(3 if parallel else 1):
        assert_entries(k(**{n: m for n, m in zip("ABD", (a, b, d)) if f"{n}(" in expression}), expected(terms(a, b, d)))
    assert k.assembly_statistics["groups through the builder"] == 0
    assert k.assembly_statistics["groups handed over as the arrays"] > 0


@pytest.mark.parametrize("semiring", ["plus_times", "plus_first"])
def test_two_terms_over_one_tensor_fuse_into_one_walk_of_it(openmp_threads, semiring):
    """Both statements' loops walk B with the variable pBi: the fused body of the second needs no
    ``pBi = pBi`` (declared as a new const from itself, it would read an uninitialised
    value).  Under plus_first the output is assembled (no pattern inferred) and fused."""
    b, x = random(400, 300, 0.03, 48), np.random.default_rng(49).standard_normal(300)
    k = spf.compile("A(i,j) = B(i,j) * x(j) + B(i,j)", {"B": "CSR", "x": "Dense1", "A": "CSR"}, parallel=True,
                    semiring=semiring)
    result = k(B=b, x=x).to_scipy()
    if semiring == "plus_first":
        assert "(fused: runs inside the first statement's loop" in k.explain()
        np.testing.assert_array_equal(result.indices, b.indices)
        np.testing.assert_allclose(result.data, 2 * b.data, rtol=1e-15)
    else:
        np.testing.assert_allclose(result.toarray(), (b.multiply(x[None, :]) + b).toarray(), rtol=1e-14)


def test_a_product_plus_a_matrix_fuses_and_nests_with_finds_do_not():
    a, b, d = random(60, 40, 0.1, 45), random(40, 50, 0.1, 46), random(60, 50, 0.1, 47)
    k = spf.compile("C(i,j) = A(i,k) * B(k,j) + D(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR", "D": "CSR"})
    assert "(fused: runs inside" in k.explain()
    assert_entries(k(A=a, B=b, D=d), expected(a @ b + d))
    assert k.assembly_statistics["groups through the builder"] == 0
    # an element-wise product searches B's row for A's columns: a find, so no fusion
    product = spf.compile("C(i,j) = A(i,j) * B(i,j) + D(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR", "D": "CSR"})
    assert "(fused" not in product.explain()
    assert_entries(product(A=a @ b, B=d, D=d), expected((a @ b).multiply(d) + d))


@pytest.mark.parametrize("output", ["CSR", "DCSR"])
def test_the_scratch_of_one_call_serves_the_next_and_concurrent_calls_get_their_own(output):
    """The workspaces (and, into CSR, the rows) a call used are kept by the library for the
    next call (wider, narrower, emptier operands), freed by release_state between them,
    and taken atomically, so threads calling the same kernel at once never share them.
    (Into DCSR the workspace flushes into the builder's stream: spf_workspaces_take.)"""
    import threading
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": output})
    assert ("spf_scratch_get(spf_stream_count, spf_thread_count" in k.c_source) == (output == "CSR")
    assert ("spf_workspaces_take(spf_thread_count" in k.c_source) == (output == "DCSR")
    shapes = [(300, 200, 250), (5, 7, 3), (300, 200, 900), (1, 1, 1), (0, 4, 5), (120, 80, 900)]
    operands = [(random(m, n, 0.05, m + n), random(n, q, 0.05, n + q)) for m, n, q in shapes]
    for number, (a, b) in enumerate(operands + operands[::-1]):
        assert_entries(k(A=a, B=b), expected(a @ b))
        if number % 4 == 3:
            k.release_state()
    failures = []

    def worker(seed):
        a, b = random(200, 150, 0.05, seed), random(150, 300, 0.05, seed + 1)
        bound = k.bind(A=a, B=b)
        for _ in range(30):
            if stored(bound()) != expected(a @ b):
                failures.append(seed)

    threads = [threading.Thread(target=worker, args=(50 + 2 * t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


def test_a_permuted_output_names_the_workspace_by_the_expressions_indices():
    """The layout's coordinates are the output access's indices by position: C(j,i) into
    CSC has its columns keyed by the expression's i.  B(j,i) = A(i,j) into CSR binds the
    output's row (j) last, so no workspace groups by it (once a wrong grouping that the
    rows' hand-over turned into A itself)."""
    a, b = random(50, 40, 0.1, 71), random(40, 30, 0.1, 72)
    k = spf.compile("C(j,i) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSC"})
    assert "workspace over j" in k.explain() and "when (i) arrives strictly increasing" in k.explain()
    assert_entries(k(A=a, B=b), expected((a @ b).T))
    assert k.assembly_statistics["groups handed over as the arrays"] > 0
    explicit = sp.csr_matrix(a)
    explicit.data[::3] = 0.0  # explicit zeros are no entries of a kernel's result
    transpose = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})
    assert "strategy: two phases" in transpose.explain() and "workspace" not in transpose.explain()
    assert_entries(transpose(A=explicit), expected(explicit.T))


def test_a_layout_of_another_shape_keeps_the_builder():
    k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "DCSR"})
    assert "strategy: workspace over j" in k.explain() and "then the groups straight into" not in k.explain()
    assert "spf_rows" not in k.c_source


# ----------------------------------------------------------------------------- two phases


def sorted_rows(tensor) -> bool:
    """Whether every row (column, for CSC) of a CSR-shaped result holds strictly increasing keys."""
    matrix = tensor.to_scipy()
    pointer, keys = matrix.indptr, matrix.indices
    return all(np.all(np.diff(keys[pointer[r]:pointer[r + 1]]) > 0) for r in range(len(pointer) - 1))


@pytest.mark.parametrize("shape, density, seed", [((60, 45), 0.1, 81), ((1, 1), 1.0, 82), ((30, 70), 0.0, 83),
                                                  ((200, 3), 0.5, 84), ((3, 200), 0.5, 85)])
def test_two_phases_transpose_and_convert(shape, density, seed):
    """The transposition into CSR and the conversion CSR -> CSC count, then fill the rows
    (spf.codegen.assembly.plan.TwoPhase): scipy's entries, rows sorted; a kernel drops explicit
    zeros, a conversion keeps them."""
    a = random(*shape, density, seed)
    if a.nnz:
        a.data[::4] = 0.0
    transpose = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})
    assert transpose.two_phase is not None and transpose.workspace is None
    result = transpose(A=a)
    assert_entries(result, expected(a.T))
    assert sorted_rows(result)
    validate(result.layout, dict(result.fields), "B", result.shape)
    assert transpose.assembly_statistics["rows sorted after the fill"] == 0
    assert transpose.assembly_statistics["rows filled in storage order"] == shape[1]
    converted = spf.convert(spf.pack("CSR", a), "CSC")
    assert_entries(converted, expected(a, zeros=True))
    assert sorted_rows(converted) and converted.to_scipy().nnz == a.nnz
    to_csr = spf.compile("B(j,i) = A(i,j)", {"A": "CSC", "B": "CSC"})  # A's columns are B's rows
    assert_entries(to_csr(A=a.tocsc()), expected(a.T))


def test_two_phases_sort_rows_that_come_out_of_order_and_sum_duplicates(tmp_path):
    """From a shuffled COO_UNSORTED the rows' keys arrive out of order: those rows are
    sorted after the fill.  From a coordinate list that may repeat coordinates (a user
    layout without COO_UNSORTED's ``injective``) equal keys are summed too, and sums that
    cancel are dropped."""
    rng = np.random.default_rng(86)
    a = random(30, 20, 0.3, 86).tocoo()
    order = rng.permutation(a.nnz)
    shuffled = spf.Tensor("COO_UNSORTED", a.shape, {"numRows": 30, "numCols": 20, "nnz": a.nnz,
                                                    "row": a.row[order], "col": a.col[order], "val": a.data[order]})
    k = spf.compile("B(j,i) = A(i,j)", {"A": "COO_UNSORTED", "B": "CSR"})
    assert k.two_phase is not None
    result = k(A=shuffled)
    assert_entries(result, expected(a.T))
    assert sorted_rows(result)
    validate(result.layout, dict(result.fields), "B", result.shape)
    assert k.assembly_statistics["rows sorted after the fill"] > 0

    path = tmp_path / "COO_REPEATS.layout"
    path.write_text((REPOSITORY / "layouts" / "COO_UNSORTED.layout").read_text()
                    .replace("layout COO_UNSORTED", "layout COO_REPEATS")
                    .replace("property injective(row, col)", ""))
    rows = np.concatenate([a.row, a.row[:10], a.row[10:15]])
    cols = np.concatenate([a.col, a.col[:10], a.col[10:15]])
    values = np.concatenate([a.data, a.data[:10], -a.data[10:15]])  # 10 doubled, 5 cancelled
    repeats = spf.Tensor(str(path), a.shape, {"numRows": 30, "numCols": 20, "nnz": len(rows),
                                              "row": rows, "col": cols, "val": values})
    k = spf.compile("B(j,i) = A(i,j)", {"A": str(path), "B": "CSR"})
    result = k(A=repeats)
    reference = sp.coo_matrix((values, (rows, cols)), shape=a.shape).tocsr()
    reference.sum_duplicates()
    assert_entries(result, expected(reference.T))
    assert len(stored(result)) == a.nnz - 5
    assert sorted_rows(result)


def test_two_phases_check_the_layout_entry_by_entry(tmp_path):
    """A user layout of CSR's shape whose guard relates row and key (strictly lower
    triangular): a transposition into it checks every entry, and names the first one it
    cannot hold."""
    path = tmp_path / "STRICT_LOWER_CSR.layout"
    path.write_text((REPOSITORY / "layouts" / "CSR.layout").read_text()
                    .replace("layout CSR", "layout STRICT_LOWER_CSR")
                    .replace("i = pi and j = colIdx(pj)", "i = pi and j = colIdx(pj) and j < i"))
    k = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": str(path)})
    assert k.two_phase is not None
    upper = sp.triu(random(40, 40, 0.2, 87), k=1, format="csr")
    assert_entries(k(A=upper), expected(upper.T))
    lower = sp.tril(random(40, 40, 0.2, 88), k=-1, format="csr")
    first = sp.csr_matrix(lower.T)
    row = int(np.flatnonzero(np.diff(first.indptr))[0])
    entry = (row, int(first.indices[first.indptr[row]]))  # the first in storage order
    with pytest.raises(spf.SpfError, match=rf"entry \({entry[0]}, {entry[1]}\) cannot be stored \(j < i does not hold"):
        k(A=lower)


def test_two_phases_are_not_chosen_where_they_do_not_apply():
    """Summed indices (each iteration is not one entry), a sum's statements, and finds
    keep the workspace or the stream."""
    product = spf.compile("C(j,i) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert product.two_phase is None
    total = spf.compile("C(j,i) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert total.two_phase is None
    a, b = random(30, 20, 0.2, 89), random(30, 20, 0.2, 90)
    assert_entries(total(A=a, B=b), expected((a + b).T))
    masked = spf.compile("C(j,i) = A(i,j) * B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
    assert_entries(masked(A=a, B=b), expected(a.multiply(b).T))


@pytest.mark.parametrize("layout, follows", [("CSR", True), ("CSC", True), ("CSR_UNSORTED", True),
                                             ("LOWER_TRI", False), ("DCSR", False), ("COO", False)])
def test_checks_that_follow_from_the_shape(layout, follows):
    """A kernel's entries lie in the shape, so a rows layout whose checks are only the shape's
    skips them (checks_follow_from_shape); LOWER_TRI's j <= i is a check of its own."""
    assert plan_assembly(spf.load_layout(layout)).shape_checks_only == follows




@pytest.mark.parametrize("expression", ["C(i,j) = A(i,j) + B(i,j)", "C(j,i) = A(i,j)"])
def test_a_rows_layout_with_a_check_of_its_own_still_checks_every_entry(expression):
    """A user's CSR whose relation keeps j <= i (the sum appended, the transposition in two
    phases): the kernel's entries lie in the shape, but that is not all its layout checks,
    so none is trusted; an entry above the diagonal is refused naming it, one below is
    stored."""
    assert not plan_assembly(spf.load_layout(str(LOWER_CSR))).shape_checks_only
    layouts = {"A": "CSR", "C": str(LOWER_CSR)} | ({"B": "CSR"} if "B(" in expression else {})
    k = spf.compile(expression, layouts)
    operands = {"A": sp.csr_matrix(([1.0], ([0], [3])), shape=(4, 4))}
    if "B(" in expression:
        operands["B"] = operands["A"]
    wrong, right = (operands, {n: m.T.tocsr() for n, m in operands.items()}) if "C(i,j)" in expression \
        else ({n: m.T.tocsr() for n, m in operands.items()}, operands)
    with pytest.raises(spf.PackError, match=r"cannot be stored \(j <= i does not hold\)"):
        k(**wrong)
    want = sum(right.values()) if "C(i,j)" in expression else right["A"].T
    assert_entries(k(**right), expected(want))
