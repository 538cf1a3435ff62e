"""spf.einsum against numpy's einsum: values, patterns, and the kind of the result."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import spf
from spf.errors import ArgumentError, NotationError

EXTENTS = {"i": 6, "j": 7, "k": 5, "l": 4, "r": 3, "I": 6, "K": 5}


def sparse_dense(letters: str, seed: int, density: float = 0.35) -> np.ndarray:
    """A dense array with random positive entries at about ``density`` of its places (positive,
    so no product cancels and a result's pattern is where its dense value is non-zero)."""
    generator = np.random.default_rng(seed)
    shape = [EXTENTS[letter] for letter in letters]
    values = generator.uniform(0.5, 2.0, shape)
    return np.where(generator.random(shape) < density, values, 0.0)


def as_operand(array: np.ndarray, kind: str):
    """``array`` as an einsum operand: 'd' numpy; 's' scipy csr for a matrix, an spf.Tensor
    (SV, CSF3) otherwise."""
    if kind == "d":
        return array
    if array.ndim == 2:
        return sp.csr_array(array)
    return spf.pack({1: "SV", 3: "CSF3"}[array.ndim], array)


def dense(result) -> np.ndarray:
    if sp.issparse(result):
        return result.toarray() if result.ndim <= 2 else result.todense()
    if isinstance(result, spf.Tensor):
        return result.to_dense()
    return np.asarray(result)


def stored_pattern(result) -> np.ndarray | None:
    """Where a sparse result stores entries (None for a dense one)."""
    if sp.issparse(result):
        coo = sp.coo_array(result)
        pattern = np.zeros(coo.shape, dtype=bool)
        pattern[tuple(coo.coords)] = True
        return pattern
    if isinstance(result, spf.Tensor):
        coords, _, shape = result.to_coo()
        pattern = np.zeros(shape, dtype=bool)
        pattern[tuple(coords.T)] = True
        return pattern
    return None


# (subscripts, the kind of each operand: s sparse, d dense, what the result is: dense or sparse)
CASES = [
    ("ij,j->i", "sd", "dense"),          # SpMV
    ("ij,i->j", "sd", "dense"),          # x A
    ("ij,j", "sd", "dense"),             # implicit output
    ("ij,jk->ik", "ss", "sparse"),       # SpGEMM
    ("ij,jk", "ss", "sparse"),
    ("ji,jk", "ss", "sparse"),           # A^T B, implicit
    ("ij,kj->ik", "ss", "sparse"),       # A B^T
    ("ij,ik->jk", "ss", "sparse"),
    ("ij,jk->ki", "ss", "sparse"),       # the product transposed
    ("ij,jk->ik", "sd", "dense"),        # SpMM
    ("ij,jk->ik", "ds", "dense"),
    ("ij,ij->ij", "ss", "sparse"),       # element-wise product
    ("ij,ij->ij", "sd", "sparse"),       # masked by A's pattern
    ("ij,j->ij", "sd", "sparse"),        # column scaling
    ("ij,i->ij", "sd", "sparse"),        # row scaling
    ("ij,ij->", "ss", "dense"),          # inner product
    ("ij,ij->i", "sd", "dense"),
    ("ij->", "s", "dense"),              # sum
    ("ij->i", "s", "dense"),             # row sums
    ("ij->j", "s", "dense"),
    ("ij->ji", "s", "sparse"),           # transposition
    ("ii->i", "s", "dense"),             # diagonal
    ("ii->", "s", "dense"),              # trace
    ("ii", "s", "dense"),
    ("Ij,jK->IK", "ss", "sparse"),       # upper-case letters
    ("ij,jk,k->i", "ssd", "dense"),      # three operands: autoscheduled
    ("ij,jk,kl->il", "sdd", "dense"),
    ("ij,ij,ij->ij", "ssd", "sparse"),
    ("ik,jk,kkj->i", "sss", "dense"),    # a diagonal among three (no copy in another mode order)
    ("k,jk,k->", "sds", "dense"),        # three operands into a scalar: not fused
    ("i,i->", "sd", "dense"),            # sparse vector
    ("i,i->i", "sd", "sparse"),
    ("i,j->ij", "ss", "sparse"),         # outer product
    ("i,j->ij", "sd", "dense"),
    ("ijk,k->ij", "sd", "sparse"),       # TTV
    ("ijk,kl->ijl", "sd", "dense"),      # TTM
    ("ijk,jr,kr->ir", "sdd", "dense"),   # MTTKRP
    ("ijk->i", "s", "sparse"),
    ("ijk,ijk->", "ss", "dense"),
    ("ijk->ikj", "s", "sparse"),
]


def _letters(subscripts: str) -> list[str]:
    return [piece.strip() for piece in subscripts.split("->")[0].split(",")]


@pytest.mark.parametrize("subscripts, kinds, expected", CASES, ids=[case[0] + ":" + case[1] for case in CASES])
def test_matches_numpy(subscripts, kinds, expected):
    """Values equal numpy's einsum on the dense arrays; a sparse result stores exactly the
    non-zeros of the dense one (positive data: no product cancels)."""
    arrays = [sparse_dense(letters, seed) if kind == "s" else
              np.random.default_rng(seed).uniform(0.5, 2.0, [EXTENTS[letter] for letter in letters])
              for seed, (letters, kind) in enumerate(zip(_letters(subscripts), kinds))]
    operands = [as_operand(array, kind) for array, kind in zip(arrays, kinds)]
    result = spf.einsum(subscripts, *operands)
    reference = np.einsum(subscripts, *arrays)
    np.testing.assert_allclose(dense(result), reference, rtol=1e-12, atol=1e-12)
    pattern = stored_pattern(result)
    assert (pattern is None) == (expected == "dense"), type(result)
    if pattern is not None:
        np.testing.assert_array_equal(pattern, reference != 0)


def test_kernel_is_compiled_once():
    """A repeated call (and a call on other data of the same kind) reuses the kernel."""
    A = sp.csr_array(sparse_dense("ij", 1))
    first = spf.einsum_kernel("ij,j->i", A, np.ones(7))
    spf.einsum("ij,j->i", A, np.ones(7))
    other = sp.csr_array(sparse_dense("ij", 2))
    np.testing.assert_allclose(spf.einsum("ij,j->i", other, np.arange(7.0)), other @ np.arange(7.0))
    assert spf.einsum_kernel("ij,j->i", other, np.ones(7)) is first
    assert "out(i) = A(i,j) * B(j)" in first.explain()


def _scipy_kinds():
    kinds = {}
    for name in ("csr", "csc", "coo", "lil", "dok", "dia"):
        kinds[f"{name}_array"] = getattr(sp, f"{name}_array")
        kinds[f"{name}_matrix"] = getattr(sp, f"{name}_matrix")
    kinds["bsr_array"] = lambda a: sp.bsr_array(a, blocksize=(a.shape[0], 1))  # blocks must divide the shape
    kinds["bsr_matrix"] = lambda a: sp.bsr_matrix(a, blocksize=(1, a.shape[1]))
    return kinds


SCIPY_KINDS = _scipy_kinds()


@pytest.mark.parametrize("kind", sorted(SCIPY_KINDS))
def test_scipy_kinds(kind):
    """Every scipy format in, scipy out: arrays give arrays, matrices matrices; SpMV dense."""
    left, right = sparse_dense("ij", 3), sparse_dense("jk", 4)
    A, B = SCIPY_KINDS[kind](left), SCIPY_KINDS[kind](right)
    product = spf.einsum("ij,jk->ik", A, B)
    assert sp.issparse(product) and sp.isspmatrix(product) == sp.isspmatrix(A)
    np.testing.assert_allclose(product.toarray(), left @ right, rtol=1e-12)
    product.eliminate_zeros()  # the caller owns the result
    product.sort_indices()
    product.data *= 2
    x = np.arange(7.0)
    y = spf.einsum("ij,j->i", A, x)
    assert isinstance(y, np.ndarray)
    np.testing.assert_allclose(y, left @ x, rtol=1e-12)


def test_column_major_result():
    """Column-major operands give a column-major result, as scipy's csc @ csc does."""
    A, B = sp.csc_array(sparse_dense("ij", 5)), sp.csc_array(sparse_dense("jk", 6))
    product = spf.einsum("ij,jk->ik", A, B)
    assert product.format == "csc"
    np.testing.assert_allclose(product.toarray(), (A @ B).toarray(), rtol=1e-12)


def test_column_major_by_the_layout_not_its_name():
    """A Tensor in DCSC (or any layout storing columns first) also gives a CSC result;
    one in a row-major layout does not."""
    left, right = sparse_dense("ij", 5), sparse_dense("jk", 6)
    by_columns = spf.einsum("ij,jk->ik", spf.pack("DCSC", left), spf.pack("CSC", right))
    assert by_columns.layout.name == "CSC"
    np.testing.assert_allclose(by_columns.to_dense(), left @ right, rtol=1e-12)
    mixed = spf.einsum("ij,jk->ik", spf.pack("DCSC", left), spf.pack("DCSR", right))
    assert mixed.layout.name == "CSR"


def test_a_dense_out_layout_given_as_an_object_is_autoscheduled(monkeypatch):
    """Three operands with a dense result are autoscheduled whether the result's layout is
    named or given as a Layout (its levels decide, not its name)."""
    from spf.layout_library import load_layout
    from spf.runtime import einsum as einsum_module
    picks = []
    schedule = einsum_module._schedule
    monkeypatch.setattr(einsum_module, "_schedule", lambda *given: picks.append(schedule(*given)) or picks[-1])
    A, B = sp.csr_array(sparse_dense("ij", 8)), sp.csr_array(sparse_dense("jk", 9))
    z = np.arange(1.0, 1.0 + EXTENTS["k"])
    for out_layout in ("Dense1", load_layout("Dense1")):
        np.testing.assert_allclose(spf.einsum("ij,jk,k->i", A, B, z, out_layout=out_layout),
                                   A @ (B @ z), rtol=1e-12)
    sparse_result = spf.einsum("ij,jk,k->ij", spf.pack("CSR", A), spf.pack("CSR", B), z)
    np.testing.assert_allclose(sparse_result.to_dense(), A.toarray() * (B @ z), rtol=1e-12)
    assert [pick is not None for pick in picks] == [True, True, False]  # a sparse result: assembled, unfused


def test_tensor_kind_and_out_layout():
    """spf.Tensor in, Tensor out; out_layout overrides the result's layout."""
    A = spf.pack("DCSR", sparse_dense("ij", 7))
    x = np.arange(7.0)
    scaled = spf.einsum("ij,j->ij", A, x)
    assert isinstance(scaled, spf.Tensor)
    np.testing.assert_allclose(scaled.to_dense(), A.to_dense() * x)
    as_coo = spf.einsum("ij,j->ij", A, x, out_layout="COO")
    assert as_coo.layout.name == "COO"
    np.testing.assert_allclose(as_coo.to_dense(), A.to_dense() * x)
    y = spf.einsum("ij,j->i", A, x, out_layout="Dense1")
    np.testing.assert_allclose(y, A.to_dense() @ x)


def test_numpy_operands_stay_numpy():
    """Dense operands only (lists included) give numpy, as numpy's einsum does."""
    a = np.random.default_rng(8).random((6, 7))
    np.testing.assert_allclose(spf.einsum("ij,jk->ik", a, a.T.tolist()), a @ a.T, rtol=1e-12)


def pydata():
    return pytest.importorskip("sparse", reason="pydata sparse is not installed (it is no dependency of spf; "
                                                "pip install sparse to run these tests)")


@pytest.mark.parametrize("form", ["coo", "gcxs", "dok"])
def test_pydata_kinds(form):
    """pydata operands give pydata results (COO; GCXS for GCXS operands)."""
    package = pydata()
    left, right = sparse_dense("ij", 9), sparse_dense("jk", 10)
    A, B = package.COO.from_numpy(left).asformat(form), package.COO.from_numpy(right).asformat(form)
    product = spf.einsum("ij,jk->ik", A, B)
    assert type(product).__name__ == ("GCXS" if form == "gcxs" else "COO")
    np.testing.assert_allclose(product.todense(), left @ right, rtol=1e-12)
    T = package.COO.from_numpy(sparse_dense("ijk", 11))
    c = np.arange(5.0)
    ttv = spf.einsum("ijk,k->ij", T, c)
    assert type(ttv).__name__ == "COO"
    np.testing.assert_allclose(ttv.todense(), np.einsum("ijk,k->ij", T.todense(), c), rtol=1e-12)


@pytest.mark.parametrize("call, error, message", [
    (lambda A: spf.einsum("ij,jk->ik", A, np.ones((6, 2))), ArgumentError,
     "subscript 'j' has extent 7 in operand A \\(argument 1\\) and 6 in operand B"),
    (lambda A: spf.einsum("ij->i"), ArgumentError, "no operands"),
    (lambda A: spf.einsum("ij,j->i", A, 2.0), ArgumentError, "operand B is a scalar"),
    (lambda A: spf.einsum("ij,j->i", A, np.array(["a"] * 7)), spf.SpfError, "not numbers|must be real numbers"),
    (lambda A: spf.einsum("ijk->i", A), NotationError, "operand A has 2 axes but 3 subscripts"),
    (lambda A: spf.einsum(b"ij->i", A), ArgumentError, "subscripts must be a str"),
    (lambda A: spf.einsum("ij,j->i", A, np.ones(7), find="fast"), spf.SpfError, "fast"),
    (lambda A: spf.einsum("ij,ijklm->i", A, np.ones((6, 7, 1, 1, 1))), ArgumentError, "at most 4"),
    (lambda A: spf.einsum("ij,j->i", A, np.ones(7), find=["auto"]), ArgumentError, "find must be a str"),
    (lambda A: spf.einsum("ij,j->i", A, np.ones(7), out_layout={"y": "Dense1"}), ArgumentError,
     "out_layout must be a layout name"),
    (lambda A: spf.einsum("ij,j->i", A, np.ones(7), parallel="yes"), ArgumentError, "parallel must be True or False"),
])
def test_refusals(call, error, message):
    """Bad calls get an SpfError naming the problem."""
    with pytest.raises(error, match=message):
        call(sp.csr_array(sparse_dense("ij", 12)))


@pytest.mark.parametrize("name", ["watt_2", "p2p-Gnutella08", "cage10"])
def test_real_matrices(name):
    """On real matrices (../shared/data): SpMV, A Aᵀ, row sums, transposition and the
    element-wise product against scipy, the sparse results' patterns included."""
    from conftest import load_matrix
    A = load_matrix(name)
    A.sum_duplicates()
    x = np.random.default_rng(0).random(A.shape[1])
    np.testing.assert_allclose(spf.einsum("ij,j->i", A, x), A @ x, rtol=1e-12)
    product = spf.einsum("ij,kj->ik", A, A)
    expected = (A @ A.T).tocsr()
    expected.sort_indices()
    assert sp.isspmatrix_csr(product)
    np.testing.assert_array_equal(product.indptr, expected.indptr)
    np.testing.assert_array_equal(product.indices, expected.indices)
    np.testing.assert_allclose(product.data, expected.data, rtol=1e-12)
    sums = spf.einsum("ij->i", A)  # rows that cancel differ by rounding: compared against the sum of |entries|
    scale = np.asarray(abs(A).sum(axis=1)).ravel()
    assert np.all(np.abs(sums - np.asarray(A.sum(axis=1)).ravel()) <= 1e-12 * scale)
    transposed = spf.einsum("ij->ji", A)
    assert (transposed != A.T).nnz == 0
    assert (spf.einsum("ij,ij->ij", A, A) != A.multiply(A)).nnz == 0


@st.composite
def einsum_calls(draw):
    """Subscripts over one or two operands of 1-3 axes from the letters i, j, k (repeats
    included), each operand sparse or dense, and an output of distinct letters they use."""
    count = draw(st.integers(1, 2))
    inputs = [draw(st.text(alphabet="ijk", min_size=1, max_size=3)) for _ in range(count)]
    kinds = "".join(draw(st.sampled_from("sd")) for _ in range(count))
    used = sorted(set("".join(inputs)))
    output = draw(st.permutations(used).flatmap(lambda order: st.integers(0, len(order)).map(
        lambda size: "".join(order[:size]))))
    return ",".join(inputs) + "->" + output, kinds


@settings(max_examples=12, deadline=None)  # each draw compiles a kernel: the fuzz profile explores more
@given(einsum_calls(), st.integers(0, 2**16))
def test_drawn_subscripts_match_numpy(call, seed):
    """Any subscripts spf compiles give numpy's values; a refusal is an SpfError."""
    subscripts, kinds = call
    arrays = [sparse_dense(letters, seed + position) if kind == "s" else
              np.random.default_rng(seed + position).uniform(0.5, 2.0, [EXTENTS[letter] for letter in letters])
              for position, (letters, kind) in enumerate(zip(_letters(subscripts), kinds))]
    if any(kind == "s" and array.ndim > 3 for array, kind in zip(arrays, kinds)):
        return
    operands = [as_operand(array, kind) for array, kind in zip(arrays, kinds)]
    result = spf.einsum(subscripts, *operands)
    np.testing.assert_allclose(dense(result), np.einsum(subscripts, *arrays), rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- semiring=

SEMIRING_CASES = [  # (subscripts, the statement spf.einsum makes of them, operand kinds)
    ("ij,j->i", "out(i) = A(i,j) * B(j)", "sd"),
    ("ij,jk->ik", "out(i,k) = A(i,j) * B(j,k)", "ss"),
    ("ij,jk,k->i", "out(i) = A(i,j) * B(j,k) * C(k)", "ssd"),
    ("ij,ij->", "out = A(i,j) * B(i,j)", "ss"),
]


@pytest.mark.parametrize("ring", ["min_plus", "max_times", "lor_land", "plus_pair", "min_first"])
@pytest.mark.parametrize("subscripts, statement, kinds", SEMIRING_CASES)
def test_semiring_einsum_equals_the_entry_by_entry_reference(ring, subscripts, statement, kinds):
    """Under a semiring, einsum reduces by ⊕ the ⊗ of the stored entries (GraphBLAS's semantics):
    a dense result holds ⊕'s identity where nothing reaches, a sparse one has entries exactly
    where products reach (zeros included)."""
    from semiring_reference import reference

    letters = [part for part in subscripts.split("->")[0].split(",")]
    arrays = [sparse_dense(part, seed) - 0.75 * (part == "j") for seed, part in enumerate(letters)]  # some < 0
    operands = [as_operand(array, kind) for array, kind in zip(arrays, kinds)]
    output = subscripts.split("->")[1]
    shape = tuple(EXTENTS[letter] for letter in output)
    want = reference(statement, ring, shape, **{name: operand for name, operand in zip("ABC", operands)})
    got = spf.einsum(subscripts, *operands, semiring=ring)
    if sp.issparse(got):
        reached = reference(statement, "lor_pair", shape, **dict(zip("ABC", operands))) != 0
        coo = sp.coo_array(got)
        stored = np.zeros(shape, dtype=bool)
        stored[coo.row, coo.col] = True
        assert np.array_equal(stored, reached)  # the pattern: where products reach, whatever their values
        got = np.where(reached, got.toarray(), want)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_semiring_einsum_keeps_its_kernels_apart_and_names_a_bad_semiring():
    A = sp.csr_array(sparse_dense("ij", 1))
    x = np.arange(7.0)
    plain, tropical = spf.einsum("ij,j->i", A, x), spf.einsum("ij,j->i", A, x, semiring="min_plus")
    np.testing.assert_allclose(plain, A @ x, rtol=1e-12)
    assert not np.allclose(plain, tropical)  # the cached plain kernel is not reused under min_plus
    assert spf.einsum_kernel("ij,j->i", A, x, semiring="min_plus").semiring == "min_plus"
    with pytest.raises(spf.SpfError, match="unknown semiring 'mean_times'"):
        spf.einsum("ij,j->i", A, x, semiring="mean_times")
