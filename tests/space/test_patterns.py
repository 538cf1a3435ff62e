"""Output patterns inferred by proof (spf.space.patterns): which layouts match a prefix of
an input's levels, and the kernels that then write the input's pattern, checked against
numpy / scipy on random and real data."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.notation.statements import parse_statement
from spf.space.iteration_space import load_tensor_layout
from spf.space.patterns import infer_share, match_prefix
from tests.conftest import load_tensor

TTV = "A(i,j) = B(i,j,k) * c(k)"
TTV_LAYOUTS = {"A": "DCSR", "B": "CSF3", "c": "Dense"}

# a user's layout: DCSR's relation with CSF3's names; a prefix match needs no compiler change
RENAMED_DCSR = """
layout RENAMED_DCSR
field n0: int = shape[0]
field n1: int = shape[1]
field count0: int
field count1: int
field rows: int[count0]
field starts: int[count0 + 1]
field columns: int[count1]
field values: double[count1]
shape n0, n1
relation [q0, q1] -> [r, s] :
    0 <= q0 < count0 and r = rows(q0) and starts(q0) <= q1 < starts(q0 + 1) and s = columns(q1)
values values[q1]
assume starts(0) = 0 and starts(count0) = count1
property monotonic(rows, increasing, strict)
property range(rows, 0, n0)
property monotonic(starts, increasing, weak)
property range(starts, 0, count1 + 1)
property range(columns, 0, n1)
property periodic_monotonic(columns, starts, increasing, strict)
"""


def inference(expression: str, layouts: dict):
    statement = parse_statement(expression)
    loaded = {t: load_tensor_layout(spec, statement.tensors[t], t) for t, spec in layouts.items()}
    return infer_share(statement, loaded)


@pytest.mark.parametrize("expression, layouts, source, arrays", [
    (TTV, TTV_LAYOUTS, "B", {"rowIdx": "idx0", "rowPtr": "ptr0", "colIdx": "idx1"}),
    ("A(i,j,l) = B(i,j,k) * C(k,l)", {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}, "B",
     {"idx0": "idx0", "ptr0": "ptr0", "idx1": "idx1"}),
    ("A(i,j,k) = B(i,j,k,l) * c(l)", {"A": "CSF3", "B": "CSF4", "c": "Dense"}, "B",
     {"idx0": "idx0", "ptr1": "ptr1", "idx2": "idx2"}),
    ("A(i,j) = B(i,j,k,l) * C(k,l)", {"A": "DCSR", "B": "CSF4", "C": "Dense"}, "B",
     {"rowIdx": "idx0", "rowPtr": "ptr0", "colIdx": "idx1"}),
    ("y(i) = A(i,j) * x(j)", {"y": "SV", "A": "DCSR", "x": "Dense"}, "A", {"idx": "rowIdx"}),
    ("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, "B",
     {"rowPtr": "rowPtr", "colIdx": "colIdx"}),
    ("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSC"}, "A", {"colPtr": "rowPtr", "rowIdx": "colIdx"}),
    ("B(i,j) = A(i,j) * c", {"A": "BCSR(R=2, C=3)", "B": "BCSR(R=2, C=3)"}, "A", {"rowPtr": "rowPtr", "col": "col"}),
    ("B(i,j) = A(i,j)", {"A": "CSR", "B": "CSR_UNSORTED"}, "A", {"colIdx": "colIdx"}),  # a weaker property
    ("A(i,j) = B(i,j) * x(j) + B(i,j)", {"A": "COO", "B": "COO", "x": "Dense"}, "B", {"row": "row", "col": "col"}),
])
def test_an_output_stored_in_a_prefix_of_one_sparse_inputs_levels_is_inferred(expression, layouts, source, arrays):
    found = inference(expression, layouts)
    assert found is not None and found.source == source
    statement = parse_statement(expression)
    output = statement.output
    access = next(a for term in statement.terms for a in term.factors if a.tensor == source)
    match = match_prefix(load_tensor_layout(layouts[output.tensor], len(output.indices), output.tensor), output,
                         source, load_tensor_layout(layouts[source], statement.tensors[source], source), access)
    assert arrays.items() <= dict(match.fields).items()


@pytest.mark.parametrize("expression, layouts, why", [
    (TTV, {"A": "CSR", "B": "CSF3", "c": "Dense"}, "CSR's rows are dense, B's first level is not"),
    ("A(j,i) = B(i,j,k) * c(k)", TTV_LAYOUTS, "A's first level would be B's second"),
    ("B(i,j) = A(i,j)", {"A": "CSR_UNSORTED", "B": "CSR"}, "CSR's sorted columns do not follow"),
    ("B(i,j) = A(i,j)", {"A": "CSR", "B": "LOWER_TRI"}, "another relation"),
    ("B(i,j) = A(i,j)", {"A": "CSR", "B": "CSC"}, "another order of levels"),
    ("B(i,j) = A(i,j)", {"A": "BCSR(R=2, C=2)", "B": "BCSR(R=4, C=4)"}, "other blocks"),
    ("y(i) = A(i,j) * x(j)", {"y": "SV", "A": "CSR", "x": "Dense"}, "CSR's rows are dense"),
    ("A(i,j) = B(i,j) * C(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, "two sparse factors: an intersection"),
    ("A(i,j) = B(i,j) * x(j) + C(i,j)", {"A": "CSR", "B": "CSR", "x": "Dense", "C": "CSR"}, "a union"),
    ("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "DCSR", "x": "Dense"}, "a dense output"),
    ("A(i,i) = B(i,i)", {"A": "CSR", "B": "CSR"}, "a repeated output index"),
])
def test_no_pattern_is_inferred_where_none_is_proven(expression, layouts, why):
    try:
        found = inference(expression, layouts)
    except spf.SpfError:
        return  # the statement itself is refused
    assert found is None, why


def test_a_users_layout_with_its_own_names_matches_the_prefix_it_describes(tmp_path):
    path = tmp_path / "RENAMED_DCSR.layout"
    path.write_text(RENAMED_DCSR)
    found = inference(TTV, {**TTV_LAYOUTS, "A": str(path)})
    assert found is not None and "rows = B.idx0, starts = B.ptr0, columns = B.idx1" in found.reason
    stronger = tmp_path / "STRONGER.layout"  # claims strictly increasing starts: B's ptr0 does not promise it
    stronger.write_text(RENAMED_DCSR.replace("layout RENAMED_DCSR", "layout STRONGER")
                        .replace("monotonic(starts, increasing, weak)", "monotonic(starts, increasing, strict)"))
    assert inference(TTV, {**TTV_LAYOUTS, "A": str(stronger)}) is None


# ----------------------------------------------------------------------------- kernels


def random_tensor(shape, count, seed):
    rng = np.random.default_rng(seed)
    coords = np.unique(np.stack([rng.integers(0, n, count) for n in shape], axis=1), axis=0)
    return coords, rng.random(len(coords)) + 0.5, shape


def ttv_reference(coords, values, shape, c) -> np.ndarray:
    dense = np.zeros(shape)
    dense[tuple(coords.T)] = values
    return np.einsum("ijk,k->ij", dense, c)


def test_ttv_writes_b_s_fibres_in_place_and_shares_b_s_levels():
    coords, values, shape = random_tensor((30, 40, 50), 3000, 1)
    B = spf.pack("CSF3", (coords, values, shape))
    c = np.random.default_rng(2).random(shape[2])
    kernel = spf.compile(TTV, TTV_LAYOUTS)
    explained = kernel.explain()
    assert "pattern inferred (no share= given): A's DCSR is the first 2 level(s) of B's CSF3" in explained
    assert "assembly of" not in explained  # no workspace, stream or builder
    A = kernel(B=B, c=c)
    np.testing.assert_allclose(A.to_dense(), ttv_reference(coords, values, shape, c), rtol=1e-13)
    assert np.shares_memory(A.fields["colIdx"], B.fields["idx1"])
    assert A.fields["nnz"] == B.fields["nnz1"]
    assembled = spf.compile(TTV, TTV_LAYOUTS, share={})  # share={}: assemble, infer nothing
    assert "assembly of A (DCSR)" in assembled.explain()
    np.testing.assert_allclose(assembled(B=B, c=c).to_dense(), A.to_dense(), rtol=1e-13)


def test_an_inferred_pattern_keeps_the_entries_whose_sum_is_zero_as_share_does():
    coords, values, shape = random_tensor((6, 7, 8), 120, 3)
    B = spf.pack("CSF3", (coords, values, shape))
    c = np.zeros(shape[2])
    A = spf.compile(TTV, TTV_LAYOUTS)(B=B, c=c)
    assert A.fields["nnz"] == B.fields["nnz1"] and not A.fields["data"].any()
    assert spf.compile(TTV, TTV_LAYOUTS, share={})(B=B, c=c).fields["nnz"] == 0


def test_transposing_csr_into_csc_takes_the_arrays_as_they_are():
    A = sparse.random(40, 30, density=0.1, format="csr", random_state=np.random.default_rng(4))
    kernel = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSC"})
    B = kernel(A=A)
    np.testing.assert_array_equal(B.to_dense(), A.T.toarray())
    assert B.layout.name == "CSC"


def test_row_sums_of_dcsr_into_a_sparse_vector_and_the_opt_out():
    A = sparse.random(50, 40, density=0.05, format="csr", random_state=np.random.default_rng(5))
    A = spf.pack("DCSR", A)
    x = np.random.default_rng(6).random(40)
    y = spf.compile("y(i) = A(i,j) * x(j)", {"y": "SV", "A": "DCSR", "x": "Dense"})(A=A, x=x)
    np.testing.assert_allclose(y.to_dense(), A.to_scipy() @ x, rtol=1e-13)
    assert y.fields["len"] == A.fields["nnzRows"]


def test_an_order_or_a_recipe_need_not_name_the_inferred_outputs_positions():
    coords, values, shape = random_tensor((10, 12, 14), 400, 7)
    B = spf.pack("CSF3", (coords, values, shape))
    c = np.random.default_rng(8).random(shape[2])
    expected = ttv_reference(coords, values, shape, c)
    ordered = spf.compile(TTV, TTV_LAYOUTS, order=["pB0", "i", "pB1", "j", "pB2", "k", "pc0"])
    np.testing.assert_allclose(ordered(B=B, c=c).to_dense(), expected, rtol=1e-13)
    recipe = spf.recipe(TTV, TTV_LAYOUTS)
    assert "pAi" in recipe.variables
    np.testing.assert_allclose(spf.compile(TTV, TTV_LAYOUTS, schedule=recipe)(B=B, c=c).to_dense(), expected,
                               rtol=1e-13)


def test_a_parallel_ttv_on_two_threads_over_many_chunks(openmp_threads):
    coords, values, shape = random_tensor((400, 60, 70), 60000, 9)
    B = spf.pack("CSF3", (coords, values, shape))
    c = np.random.default_rng(10).random(shape[2])
    kernel = spf.compile(TTV, TTV_LAYOUTS, parallel=True)
    assert "loop pB0 runs in parallel" in kernel.explain()
    expected = ttv_reference(coords, values, shape, c)
    for _ in range(3):
        np.testing.assert_allclose(kernel(B=B, c=c).to_dense(), expected, rtol=1e-13)


@pytest.mark.parametrize("name", ["nations", "umls", "collegemsg-daily"])
def test_ttv_and_ttm_on_real_tensors(name):
    coords, values, shape = load_tensor(name)
    B = spf.pack("CSF3", (coords, values, shape))
    rng = np.random.default_rng(11)
    c, C = rng.random(shape[2]), rng.random((shape[2], 5))
    A = spf.compile(TTV, TTV_LAYOUTS)(B=B, c=c)
    np.testing.assert_allclose(A.to_dense(), ttv_reference(coords, values, shape, c), rtol=1e-12)
    T = spf.compile("A(i,j,l) = B(i,j,k) * C(k,l)", {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"})(B=B, C=C)
    dense = np.zeros(shape)
    dense[tuple(coords.T)] = values
    np.testing.assert_allclose(T.to_dense(), np.einsum("ijk,kl->ijl", dense, C), rtol=1e-12)


def test_share_names_a_prefix_of_levels_and_still_refuses_a_layout_with_nothing_in_common():
    coords, values, shape = random_tensor((12, 9, 7), 300, 12)
    B = spf.pack("CSF3", (coords, values, shape))
    c = np.random.default_rng(13).random(shape[2])
    shared = spf.compile(TTV, TTV_LAYOUTS, share={"A": "B"})  # DCSR's arrays from CSF3's under other names
    assert "shares the index arrays of B's first 2 level(s)" in shared.explain()
    assert "pattern inferred" not in shared.explain()
    np.testing.assert_allclose(shared(B=B, c=c).to_dense(), ttv_reference(coords, values, shape, c), rtol=1e-13)
    with pytest.raises(spf.SpfError, match="no index array in common"):
        spf.compile(TTV, {**TTV_LAYOUTS, "A": "CSR"}, share={"A": "B"})
