"""Masks and accumulation (spf.runtime.masked, spf.notation.masks): GraphBLAS's
``C<M> accum= A ⊕.⊗ B`` against the entry-by-entry reference (tests/semiring_reference.py)
and python-graphblas."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import spf
from spf.errors import SpfError
from semiring_reference import IDENTITIES, reference

SEMIRINGS = ["plus_times", "min_plus", "max_times", "lor_land", "any_pair", "plus_pair", "min_second"]


def matrix(rows: int, columns: int, seed: int, density: float = 0.3) -> sp.csr_matrix:
    rng = np.random.default_rng(seed)
    A = sp.random(rows, columns, density=density, random_state=seed, format="csr")
    A.data = rng.choice([-1.0, 1.0], A.nnz) * rng.uniform(0.5, 2.0, A.nnz)
    return A


def entries_of(mask, values: bool) -> np.ndarray:
    """The mask's entries as a dense bool array: stored positions, or nonzero values."""
    if isinstance(mask, np.ndarray):
        return mask != 0 if values else np.ones(mask.shape, dtype=bool)
    coo = sp.coo_matrix(mask) if mask.ndim == 2 else None
    if coo is None:
        raise TypeError(mask)
    present = np.zeros(mask.shape, dtype=bool)
    keep = coo.data != 0 if values else np.ones(coo.nnz, dtype=bool)
    present[coo.row[keep], coo.col[keep]] = True
    return present


def masked_reference(expression, semiring, shape, kept: np.ndarray, **operands) -> np.ndarray:
    """The reference's output where ``kept``, ⊕'s identity elsewhere."""
    full = reference(expression, semiring, shape, **operands)
    return np.where(kept, full, IDENTITIES[semiring.split("_")[0]])


def check(result, expected, semiring: str) -> None:
    if semiring.split("_")[0] in ("min", "max", "lor", "land", "any") or semiring.endswith("_pair"):
        np.testing.assert_array_equal(result, expected)
    else:
        np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


def sparse_vector_mask(n: int, seed: int) -> tuple[sp.csr_matrix, tuple]:
    """A sparse vector with stored zeros among its entries, as (coords, values, shape) for SV."""
    rng = np.random.default_rng(seed)
    indices = np.flatnonzero(rng.random(n) < 0.5)
    values = rng.choice([0.0, 1.0, -2.0], indices.size)
    return indices, (indices[:, None], values, (n,))


@pytest.mark.parametrize("semiring", SEMIRINGS)
@pytest.mark.parametrize("complemented", [False, True])
@pytest.mark.parametrize("layout", ["CSR", "CSC", "DCSR", "COO"])
def test_matrix_vector_product_under_a_dense_mask(semiring, complemented, layout):
    A, x = matrix(30, 20, 1), np.random.default_rng(2).standard_normal(20)
    v = (np.random.default_rng(3).random(30) < 0.5).astype(np.int64) * 3  # its nonzeros are the entries
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "Dense1", "v": "Dense1", "y": "Dense1"},
                         semiring=semiring, mask="~v" if complemented else "v")
    kept = (v == 0) if complemented else (v != 0)
    check(kernel(A=A, x=x, v=v), masked_reference("y(i) = A(i,j) * x(j)", semiring, (30,), kept, A=A, x=x), semiring)


@pytest.mark.parametrize("semiring", ["plus_times", "min_plus", "lor_land"])
@pytest.mark.parametrize("complemented", [False, True])
@pytest.mark.parametrize("values", [False, True])
def test_a_sparse_vector_mask_by_its_pattern_or_its_values(semiring, complemented, values):
    A, x = matrix(24, 18, 4), np.random.default_rng(5).standard_normal(24)
    indices, data = sparse_vector_mask(18, 6)
    kernel = spf.compile("y(j) = x(i) * A(i,j)", {"A": "CSR", "x": "Dense1", "m": "SV", "y": "Dense1"},
                         semiring=semiring, mask="~m" if complemented else "m", mask_values=values)
    present = np.zeros(18, dtype=bool)
    present[indices[data[1] != 0] if values else indices] = True
    kept = ~present if complemented else present
    expected = masked_reference("y(j) = x(i) * A(i,j)", semiring, (18,), kept, A=A, x=x)
    check(kernel(A=A, x=x, m=spf.pack("SV", data)), expected, semiring)


@pytest.mark.parametrize("semiring", ["plus_times", "min_plus", "plus_pair"])
@pytest.mark.parametrize("mask", ["M", "~M"])
@pytest.mark.parametrize("mask_layout", ["CSR", "DCSR", "Dense2"])
def test_a_product_into_a_dense_matrix_under_a_matrix_mask(semiring, mask, mask_layout):
    A, B = matrix(16, 12, 7), matrix(12, 14, 8)
    M = matrix(16, 14, 9, density=0.4)
    operand = M.toarray() if mask_layout == "Dense2" else M
    kernel = spf.compile("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSR", "M": mask_layout, "C": "Dense2"},
                         semiring=semiring, mask=mask)
    present = entries_of(operand, values=mask_layout == "Dense2")
    kept = ~present if mask.startswith("~") else present
    expected = masked_reference("C(i,k) = A(i,j) * B(j,k)", semiring, (16, 14), kept, A=A, B=B)
    check(kernel(A=A, B=B, M=operand), expected, semiring)


@pytest.mark.parametrize("mask", ["M", "~M"])
def test_an_assembled_output_holds_only_the_kept_entries(mask):
    A, B, M = matrix(20, 15, 10), matrix(15, 18, 11), matrix(20, 18, 12, density=0.35)
    kernel = spf.compile("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSR", "M": "CSR", "C": "CSR"}, mask=mask)
    present = entries_of(M, values=False)
    kept = ~present if mask.startswith("~") else present
    result = kernel(A=A, B=B, M=M).to_scipy()
    expected = np.where(kept, (A @ B).toarray(), 0.0)
    np.testing.assert_allclose(result.toarray(), expected, rtol=1e-12, atol=1e-12)
    assert not np.any(result.toarray()[~kept])


def test_triangles_with_the_graph_as_its_own_mask():
    """``C<L> = L plus_pair L'``: the mask is also an operand (it is read twice, under two names)."""
    G = sp.random(40, 40, density=0.2, random_state=13, format="csr")
    G = ((G + G.T) != 0).astype(float)
    G.setdiag(0)
    G.eliminate_zeros()
    L = sp.tril(G, -1).tocsr()
    L.sort_indices()
    kernel = spf.compile("C(i,j) = L(i,k) * M(j,k)", {"L": "CSR", "M": "CSR", "C": "Dense2"},
                         semiring="plus_pair", mask="L")
    counts = kernel(L=L, M=L)
    assert counts.sum() == round((G @ G).multiply(G).sum() / 6)
    np.testing.assert_array_equal(counts, np.where(L.toarray() != 0, (L @ L.T).toarray(), 0))
    assert "L_mask" in kernel.explain()


def test_a_complemented_mask_skips_whole_columns_of_a_pull():
    """The keep test sits where the column is bound, outside the walk of its entries."""
    kernel = spf.compile("y(j) = A(i,j) * q(i)", {"A": "CSC", "q": "Dense1", "v": "Dense1", "y": "Dense1"},
                         semiring="lor_land", mask="~v", build=False)
    nest = kernel.explain().split("loop nest:")[1]
    assert nest.index("v_keep") < nest.index("for pAi")
    assert "mask ~v: the output is computed only at the positions without v's nonzero values" in kernel.explain()


@pytest.mark.parametrize("semiring, monoid", [("plus_times", "plus"), ("min_plus", "min"), ("max_times", "max")])
@pytest.mark.parametrize("mask", [None, "v", "~v"])
def test_accumulating_into_the_output_the_call_passes(semiring, monoid, mask):
    A, x = matrix(25, 20, 14), np.random.default_rng(15).standard_normal(20)
    v = np.random.default_rng(16).random(25) < 0.4
    y = np.random.default_rng(17).standard_normal(25)
    before = y.copy()
    layouts = {"A": "CSR", "x": "Dense1", "y": "Dense1", **({"v": "Dense1"} if mask else {})}
    kernel = spf.compile("y(i) = A(i,j) * x(j)", layouts, semiring=semiring, mask=mask, accumulate=monoid)
    result = kernel(A=A, x=x, y=y, **({"v": v} if mask else {}))
    kept = np.ones(25, dtype=bool) if mask is None else (~v if mask == "~v" else v)
    product = masked_reference("y(i) = A(i,j) * x(j)", semiring, (25,), kept, A=A, x=x)
    expected = {"plus": np.add, "min": np.minimum, "max": np.maximum}[monoid](before, product)
    assert result is y
    check(y, expected, semiring)
    fresh = kernel(A=A, x=x, **({"v": v} if mask else {}))  # without the output: a new one
    check(fresh, product, semiring)


def test_two_threads_over_many_pieces_under_a_complemented_mask(openmp_threads):
    A = matrix(3000, 2500, 18, density=0.004)
    q = np.random.default_rng(19).random(3000) < 0.3
    v = np.random.default_rng(20).random(2500) < 0.5
    kernel = spf.compile("y(j) = A(i,j) * q(i)", {"A": "CSC", "q": "Dense1", "v": "Dense1", "y": "Dense1"},
                         semiring="lor_land", mask="~v", parallel=True)
    assert "omp parallel" in kernel.c_source
    result = kernel(A=A, q=q, v=v)
    expected = np.where(~v, (A.T @ q.astype(float)) != 0, False)
    np.testing.assert_array_equal(result != 0, expected)


def test_python_graphblas_agrees_with_masks_and_accumulation():
    gb = pytest.importorskip("graphblas", reason="python-graphblas (the bench extra) is not installed")
    A, x = matrix(40, 35, 21), np.random.default_rng(22).standard_normal(35)
    m_indices = np.flatnonzero(np.random.default_rng(23).random(40) < 0.5)
    GA, gx = gb.io.from_scipy_sparse(A), gb.Vector.from_dense(x)
    gm = gb.Vector.from_coo(m_indices, np.ones(m_indices.size), size=40)
    m = spf.pack("SV", (m_indices[:, None], np.ones(m_indices.size), (40,)))
    for complemented in (False, True):
        kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "m": "SV", "y": "Dense1"},
                             semiring="min_plus", mask="~m" if complemented else "m", accumulate="min")
        start = np.random.default_rng(24).standard_normal(40)
        gy = gb.Vector.from_dense(start)
        gy(~gm.S if complemented else gm.S, accum=gb.binary.min) << GA.mxv(gx, gb.semiring.min_plus)
        np.testing.assert_array_equal(kernel(A=A, x=x, m=m, y=start.copy()), gy.to_dense())


@pytest.mark.parametrize("options, message", [
    ({"mask": "~ 1M"}, "expected a tensor name"),
    ({"mask": "w"}, "w has no layout"),
    ({"mask": "y"}, "cannot be its own mask"),
    ({"mask": "v", "accumulate": "minus"}, "expected a monoid"),
    ({"mask": "v", "accumulate": "min"}, "only ⊕ itself accumulates"),
    ({"mask": "v", "schedule": spf.recipe("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"})},
     "do not take a schedule"),
])
def test_what_a_mask_cannot_do_is_refused_by_name(options, message):
    with pytest.raises(SpfError, match=message):
        spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "v": "Dense1", "y": "Dense1"}, **options)


def test_a_scalar_output_is_refused():
    with pytest.raises(SpfError, match="is a scalar"):
        spf.compile("s = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "v": "Dense1"}, mask="v")
    with pytest.raises(SpfError, match="expected a monoid, one of plus, times, min"):
        spf.compile("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSR", "C": "CSR"}, accumulate="first")
    with pytest.raises(SpfError, match="the output s is a scalar"):
        spf.compile("s = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1"}, accumulate="plus")
    with pytest.raises(spf.ArgumentError, match="give the mask too"):
        spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, mask_values=True)
    with pytest.raises(SpfError, match="order 1 and 2"):
        spf.compile("C(i,j,k) = B(i,j,k) * x(k)", {"B": "CSF3", "x": "Dense1", "M": "Dense3", "C": "Dense3"},
                    mask="~M")


@pytest.mark.parametrize("semiring, monoid, layout, mask", [
    ("min_plus", "min", "CSR", "M"), ("min_plus", "plus", "DCSR", "~M"), ("plus_times", "plus", "CSR", None),
    ("max_times", "max", "COO", None), ("lor_land", "lor", "CSR", "M"), ("plus_pair", "max", "CSC", "~M")])
def test_a_sparse_output_accumulates_by_any_monoid_into_a_new_tensor(semiring, monoid, layout, mask,
                                                                      openmp_threads):
    """``C<M> accum= A ⊕.⊗ B`` into CSR, DCSR, COO, CSC: the union of the output passed and the
    result, ``monoid`` of both where both have an entry; where the result has none (masked out,
    no product) the output's entry is as it was.  Any monoid: the result has entries only where
    products reach, so none holds an identity ``monoid`` would not leave unchanged."""
    A, B, C, M = matrix(40, 30, 41), matrix(30, 35, 42), matrix(40, 35, 43), matrix(40, 35, 44, density=0.5)
    layouts = {"A": "CSR", "B": "CSR", "C": layout, **({"M": "CSR"} if mask else {})}
    options = {"mask": mask} if mask else {}
    kernel = spf.compile("C(i,k) = A(i,j) * B(j,k)", layouts, semiring=semiring, accumulate=monoid, parallel=True,
                         **options)
    assert f"accumulate {monoid}: the result is merged with the output the call passes into a new C" in \
        kernel.explain()
    arguments = {"A": A, "B": B, "C": C, **({"M": M} if mask else {})}
    coordinates, values, _ = kernel(**arguments).to_coo()
    expected = reference("C(i,k) = A(i,j) * B(j,k)", semiring, (40, 35), A=A, B=B)
    ones = lambda m: sp.csr_matrix((np.ones(m.nnz), m.indices, m.indptr), m.shape)  # noqa: E731
    reached = reference("C(i,k) = A(i,j) * B(j,k)", "lor_pair", (40, 35), A=ones(A), B=ones(B)) != 0
    if mask:
        kept = entries_of(M, values=False)
        reached &= ~kept if mask.startswith("~") else kept
    existing = C.toarray() != 0
    combine = {"min": np.fmin, "max": np.fmax, "plus": np.add, "lor": np.logical_or}[monoid]
    truth = semiring.startswith("lor")
    result = np.where(reached, (expected != 0) if truth else expected, 0.0)
    merged = np.where(existing & reached, combine(C.toarray(), result), np.where(existing, C.toarray(), result))
    if monoid == "lor":  # a monoid of truth values gives every entry its truth, as a dense output's np.logical_or
        merged = (merged != 0).astype(float)
    where = existing | reached
    assert {tuple(c) for c in coordinates.tolist()} == {tuple(c) for c in np.argwhere(where).tolist()} \
        or semiring == "plus_times"  # plus_times drops sums of exactly zero: none arise here
    np.testing.assert_allclose(values, merged[tuple(coordinates.T)].astype(float), rtol=1e-13)


def test_calls_that_miss_the_mask_or_pass_the_output_wrongly_are_refused():
    A, x = matrix(10, 8, 25), np.ones(8)
    layouts = {"A": "CSR", "x": "Dense1", "v": "Dense1", "y": "Dense1"}
    kernel = spf.compile("y(i) = A(i,j) * x(j)", layouts, mask="v")
    with pytest.raises(SpfError, match="the mask v is missing"):
        kernel(A=A, x=x)
    with pytest.raises(SpfError, match="by name"):
        kernel(A, x, np.ones(10))
    with pytest.raises(SpfError, match="only to a kernel compiled with accumulate"):
        kernel(A=A, x=x, v=np.ones(10), y=np.zeros(10))
    accumulating = spf.compile("y(i) = A(i,j) * x(j)", layouts, mask="v", accumulate="plus")
    with pytest.raises(SpfError, match="writable, C-ordered numpy array"):
        accumulating(A=A, x=x, v=np.ones(10), y=[0.0] * 10)
    with pytest.raises(SpfError, match="the result is float64, which the output y \\(int64\\) cannot hold"):
        accumulating(A=A, x=x, v=np.ones(10), y=np.zeros(10, dtype=np.int64))
    with pytest.raises(SpfError, match="shapes|extent|disagree"):
        kernel(A=A, x=x, v=np.ones(11))


@st.composite
def masked_kernels(draw):
    """A statement, a semiring, a mask of one layout (complemented or not, by pattern or values)."""
    expression, output_shape = draw(st.sampled_from([("y(i) = A(i,j) * x(j)", (9,)),
                                                      ("C(i,k) = A(i,j) * B(j,k)", (9, 7)),
                                                      ("C(i,j) = A(i,j) + B(i,j)", (9, 7))]))
    ring = draw(st.sampled_from(SEMIRINGS))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    shapes = {"A": (9, 7) if "B(j,k)" in expression or "x" in expression else (9, 7),
              "B": (7, 7) if "B(j,k)" in expression else (9, 7), "x": (7,)}
    operands, layouts = {}, {}
    for name in ("A", "B", "x"):
        if f"{name}(" not in expression:
            continue
        shape = shapes[name]
        if len(shape) == 1:
            operands[name], layouts[name] = rng.standard_normal(shape), "Dense1"
            continue
        pattern = rng.random(shape) < draw(st.sampled_from([0.2, 0.6]))
        rows, columns = np.nonzero(pattern)
        operands[name] = sp.csr_matrix((rng.choice([-1.0, 0.5, 2.0], rows.size), (rows, columns)), shape=shape)
        layouts[name] = draw(st.sampled_from(["CSR", "CSC", "DCSR", "COO"]))
    output = spf.parse_statement(expression).output
    layouts[output.tensor] = f"Dense{len(output_shape)}"
    mask_layout = draw(st.sampled_from(["Dense", "sparse"]))
    values = rng.choice([0.0, 1.0, 2.0], output_shape) * (rng.random(output_shape) < 0.6)
    if mask_layout == "Dense":
        mask, layouts["M"] = values, f"Dense{len(output_shape)}"
    else:
        stored = rng.random(output_shape) < 0.6
        coords = np.argwhere(stored)
        layouts["M"] = "SV" if len(output_shape) == 1 else "COO"
        mask = spf.pack(layouts["M"], (coords, values[stored], output_shape))
    complemented, by_values = draw(st.booleans()), draw(st.sampled_from([None, True, False]))
    present = (values != 0) if (by_values if by_values is not None else mask_layout == "Dense") else \
        (np.ones(output_shape, dtype=bool) if mask_layout == "Dense" else stored)
    if mask_layout != "Dense" and by_values:
        present = stored & (values != 0)
    kept = ~present if complemented else present
    return expression, ring, layouts, operands, output_shape, ("~M" if complemented else "M"), by_values, mask, kept


@settings(max_examples=40, deadline=None)  # each draw compiles a kernel
@given(masked_kernels())
def test_masked_kernels_equal_the_reference(drawn):
    expression, ring, layouts, operands, shape, mask, by_values, mask_value, kept = drawn
    kernel = spf.compile(expression, layouts, semiring=ring, mask=mask, mask_values=by_values)
    inputs = {name: spf.pack(layouts[name], value) if sp.issparse(value) else value
              for name, value in operands.items()}
    check(kernel(M=mask_value, **inputs), masked_reference(expression, ring, shape, kept, **operands), ring)


@st.composite
def sparse_output_kernels(draw):
    """:func:`masked_kernels` into a sparse output, accumulating (by a monoid) into an existing
    one of random entries, or not."""
    expression, ring, layouts, operands, shape, mask, by_values, mask_value, kept = draw(masked_kernels())
    output = spf.parse_statement(expression).output.tensor
    layouts[output] = draw(st.sampled_from(["SV"] if len(shape) == 1 else ["CSR", "DCSR", "COO", "CSC"]))
    monoid = draw(st.sampled_from([None, "plus", "min", "max", "lor"]))
    existing = None
    if monoid is not None:
        rng = np.random.default_rng(draw(st.integers(0, 2**16)))
        stored = rng.random(shape) < 0.4
        existing = np.where(stored, rng.choice([-1.0, 3.0, 0.5], shape), 0.0)
    return expression, ring, layouts, operands, shape, mask, by_values, mask_value, kept, monoid, existing


def ones(value):
    """An operand's entries with value 1 (a dense array's every position)."""
    if sp.issparse(value):
        return sp.csr_matrix((np.ones(value.nnz), value.indices, value.indptr), value.shape)
    return np.ones(np.shape(value))


@settings(max_examples=25, deadline=None)  # each draw compiles a kernel (two with accumulate)
@given(sparse_output_kernels())
def test_masked_kernels_into_sparse_outputs_equal_the_reference(drawn):
    """An entry exactly where a product reaches and the mask keeps (plus_times: not where the
    sum is exactly zero), its value ⊕ of the products; accumulating, the union with the
    output passed, the monoid of both where both have an entry."""
    expression, ring, layouts, operands, shape, mask, by_values, mask_value, kept, monoid, existing = drawn
    options = {"accumulate": monoid} if monoid else {}
    kernel = spf.compile(expression, layouts, semiring=ring, mask=mask, mask_values=by_values, **options)
    output = spf.parse_statement(expression).output.tensor
    given_output = {output: spf.pack(layouts[output], existing)} if monoid else {}
    coordinates, values, _ = kernel(M=mask_value, **operands, **given_output).to_coo()
    expected = reference(expression, ring, shape, **operands)
    where = (reference(expression, "lor_pair", shape, **{n: ones(v) for n, v in operands.items()}) != 0) & kept
    if ring == "plus_times":
        where &= expected != 0
    if monoid:
        has = existing != 0
        combine = {"min": np.fmin, "max": np.fmax, "plus": np.add, "lor": np.logical_or}[monoid]
        expected = np.where(has & where, combine(existing, expected), np.where(has, existing, expected))
        where = where | has
        if monoid == "lor":  # a monoid of truth values gives every entry its truth
            expected = (expected != 0).astype(float)
        if monoid == "plus" and ring == "plus_times":  # the union drops sums of exactly zero too
            where &= expected != 0
    assert {tuple(c) for c in coordinates.tolist()} == {tuple(c) for c in np.argwhere(where).tolist()}
    exact = ring.split("_")[0] in ("min", "max", "lor", "land", "any") or ring.endswith("_pair")
    check(values, expected[tuple(coordinates.T)], ring if exact and monoid in (None, "min", "max", "lor")
          else "plus_times")


@pytest.mark.parametrize("semiring", ["lor_land", "any_pair", "land_lor"])
def test_a_terminal_sum_stops_its_loop_with_the_same_result(semiring):
    """``any`` and ``lor`` are final once nonzero, ``land`` once zero: the pull stops there."""
    A = matrix(200, 150, 26, density=0.1)
    q = (np.random.default_rng(27).random(200) < 0.2).astype(float)
    v = np.random.default_rng(28).random(150) < 0.3
    kernel = spf.compile("y(j) = A(i,j) * q(i)", {"A": "CSC", "q": "Dense1", "v": "Dense1", "y": "Dense1"},
                         semiring=semiring, mask="~v")
    assert "break;" in kernel.c_source and "stops once the sum is" in kernel.explain()
    expected = masked_reference("y(j) = A(i,j) * q(i)", semiring, (150,), ~v, A=A, q=q)
    check(kernel(A=A, q=q, v=v), expected, semiring)


def test_the_mask_values_type_does_not_change_the_kernels():
    """float32 operands under a float64 sparse mask and an int64 dense one compute in float32."""
    A = matrix(30, 20, 29).astype(np.float32)
    x = np.random.default_rng(30).standard_normal(20).astype(np.float32)
    indices, data = sparse_vector_mask(30, 31)
    for layout, mask in (("SV", spf.pack("SV", data)), ("Dense1", np.arange(30) % 3)):
        kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "m": layout, "y": "Dense1"},
                             mask="m")
        result = kernel(A=A, x=x, m=mask)
        assert result.dtype == np.float32
        kept = entries_of(np.arange(30) % 3, values=True) if layout == "Dense1" else np.isin(np.arange(30), indices)
        np.testing.assert_allclose(result, np.where(kept, A @ x, 0), rtol=1e-5, atol=1e-5)


def test_calls_from_two_threads_each_read_their_own_mask():
    """A call writes its keep array into its thread's buffer: concurrent calls with different
    masks do not see each other's, and a bound kernel keeps the mask it was bound with."""
    import threading
    A, x = matrix(300, 200, 32, density=0.05), np.random.default_rng(33).standard_normal(200)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "v": "Dense1", "y": "Dense1"},
                         mask="~v")
    masks = [np.random.default_rng(seed).random(300) < 0.5 for seed in (34, 35)]
    bound = kernel.bind(A=A, x=x, v=masks[0])
    wrong = []

    def run(mask):
        for _ in range(200):
            if not np.allclose(kernel(A=A, x=x, v=mask), np.where(~mask, A @ x, 0)):
                wrong.append(mask)

    threads = [threading.Thread(target=run, args=(mask,)) for mask in masks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    np.testing.assert_allclose(bound(), np.where(~masks[0], A @ x, 0))


def test_a_mask_of_another_order_than_the_output_is_refused():
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "v": "Dense1", "y": "Dense1"},
                         mask="~v")
    with pytest.raises(SpfError, match="the mask v has order 2; the output has order 1"):
        kernel(A=matrix(5, 4, 36), x=np.ones(4), v=np.ones((1, 5)))


def test_a_padded_mask_and_padding_under_a_mask():
    """A BCSR mask's padded zeros are no entries (its keep array is made of its entries), and a
    BCSR operand's padding in a term of one factor compiles under plus whatever the mask."""
    A, M = matrix(12, 10, 37), matrix(12, 10, 38, density=0.4)
    summed = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "BCSR(R=2, C=2)", "B": "CSR", "M": "BCSR(R=2, C=2)",
                                                      "C": "Dense2"}, semiring="plus_pair", mask="M")
    assert "keep array" in summed.explain()
    kept = M.toarray() != 0
    expected = np.where(kept, reference("C(i,j) = A(i,j) + B(i,j)", "plus_pair", (12, 10), A=A, B=M), 0)
    result = summed(A=spf.pack("BCSR(R=2, C=2)", A), B=M, M=spf.pack("BCSR(R=2, C=2)", M))
    np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)
