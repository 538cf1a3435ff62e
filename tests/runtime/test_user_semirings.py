"""spf.monoid and spf.operator (spf/runtime/user_semirings.py): semirings of the user's own C,
against the entry-by-entry reference (tests/semiring_reference.py) with the same operations in
Python; the errors of a bad definition; what needs a proof or numpy refused."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from spf.notation.semirings import USER_MONOIDS, USER_OPERATORS, semiring_key
import semiring_reference
from semiring_reference import reference


ABSMAX = "fabs(a) > fabs(b) || (fabs(a) == fabs(b) && a > b) ? a : b"  # a tie to the larger: commutative


def absmax(a, b):
    return np.where((np.abs(a) > np.abs(b)) | ((np.abs(a) == np.abs(b)) & (a > b)), a, b)


@pytest.fixture(scope="module", autouse=True)
def defined():
    """absmax (the value of larger magnitude, identity 0) and absdiff (|a - b|), also known to
    the reference under their names."""
    spf.monoid("absmax", ABSMAX, identity=0.0, numpy=absmax)
    spf.operator("absdiff", "fabs(a - b)", numpy=lambda a, b: np.abs(a - b))
    spf.monoid("larger", "a > b ? a : b", identity=-np.inf)  # no numpy=
    semiring_reference.MONOIDS["absmax"] = lambda a, b: float(absmax(a, b))
    semiring_reference.OPERATORS["absdiff"] = lambda a, b: abs(a - b)
    semiring_reference.IDENTITIES["absmax"] = 0.0
    yield
    semiring_reference.MONOIDS.pop("absmax")
    semiring_reference.IDENTITIES.pop("absmax")
    semiring_reference.OPERATORS.pop("absdiff")
    for name in ("absmax", "larger"):  # definitions last for the process: the other tests' see none
        USER_MONOIDS.pop(name)
    USER_OPERATORS.pop("absdiff")


MATRIX = sp.random(40, 30, density=0.15, format="csr", random_state=4)
MATRIX.data -= 0.5  # values of both signs
VECTOR = np.linspace(-3, 3, 30)


@pytest.mark.parametrize("ring", ["absmax_times", "min_absdiff", "absmax_absdiff", "plus_absdiff"])
@pytest.mark.parametrize("layout", ["CSR", "CSC", "COO", "DCSR"])
@pytest.mark.parametrize("parallel", [False, True])
def test_user_semirings_compute_as_the_reference(ring, layout, parallel):
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "Dense", "y": "Dense"}, semiring=ring,
                         parallel=parallel)
    want = reference("y(i) = A(i,j) * x(j)", ring, (40,), A=MATRIX, x=VECTOR)
    np.testing.assert_allclose(kernel(A=MATRIX, x=VECTOR), want, rtol=1e-12)
    total = spf.compile("s = A(i,j) * x(j)", {"A": layout, "x": "Dense"}, semiring=ring, parallel=parallel)
    np.testing.assert_allclose(total(A=MATRIX, x=VECTOR), reference("s = A(i,j) * x(j)", ring, (), A=MATRIX, x=VECTOR),
                               rtol=1e-12)


@pytest.mark.parametrize("output", ["CSR", "DCSR", "COO"])
def test_a_user_monoid_assembles_a_sparse_output(output):
    """Its entries combine by the monoid in the workspace and the builder (SPF_COMBINE)."""
    B = sp.random(30, 25, density=0.2, format="csr", random_state=5)
    B.data -= 0.5
    kernel = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": output}, semiring="absmax_times")
    got = kernel(A=MATRIX, B=B)
    reached = reference("C(i,j) = A(i,k) * B(k,j)", "lor_pair", (40, 25), A=MATRIX, B=B) != 0
    coords, values, _ = got.to_coo()
    stored = np.zeros((40, 25), dtype=bool)
    stored[tuple(coords.T)] = True
    assert np.array_equal(stored, reached)
    want = reference("C(i,j) = A(i,k) * B(k,j)", "absmax_times", (40, 25), A=MATRIX, B=B)
    np.testing.assert_allclose(got.to_dense(), np.where(reached, want, 0), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int32])
def test_a_user_semiring_over_other_value_types(dtype):
    A = sp.csr_array((np.arange(1, MATRIX.nnz + 1) % 7 - 3, MATRIX.indices, MATRIX.indptr), shape=MATRIX.shape)
    A = A.astype(dtype)
    x = (np.arange(30) % 5 - 2).astype(dtype)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, semiring="absmax_times")
    got = kernel(A=A, x=x)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, reference("y(i) = A(i,j) * x(j)", "absmax_times", (40,), A=A, x=x))


def test_accumulate_into_dense_needs_numpy_and_sparse_does_not():
    y = np.full(40, 0.25)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense", "m": "Dense1"},
                         semiring="absmax_times", mask="m", accumulate="absmax")
    mask = np.arange(40) % 2 == 0
    result = reference("y(i) = A(i,j) * x(j)", "absmax_times", (40,), A=MATRIX, x=VECTOR)
    want = np.where(mask, absmax(np.full(40, 0.25), result), 0.25)
    np.testing.assert_allclose(kernel(A=MATRIX, x=VECTOR, m=mask, y=y), want, rtol=1e-12)
    with pytest.raises(spf.SpfError, match="numpy="):
        spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, semiring="larger_times",
                    accumulate="larger")
    existing = spf.pack("CSR", sp.random(40, 40, density=0.05, format="csr", random_state=6))
    into_sparse = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"},
                              semiring="plus_times", accumulate="larger")
    merged = into_sparse(A=MATRIX, B=MATRIX.T.tocsr(), C=existing)
    union = (existing.to_dense() != 0) | ((MATRIX @ MATRIX.T).toarray() != 0)
    np.testing.assert_array_equal(merged.to_dense() != 0, union)


def test_what_needs_a_proof_about_it_is_refused():
    with pytest.raises(spf.SpfError, match="BCSR"):
        spf.compile("y(i) = A(i,j) * x(j)", {"A": "BCSR(R=2, C=2)", "x": "Dense", "y": "Dense"},
                    semiring="absmax_times")
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, semiring="absmax_times")
    with pytest.raises(spf.SpfError, match="the user's C"):
        kernel(A=MATRIX.astype(np.complex128), x=VECTOR)
    assert f"absmax is the user's: a, b -> {ABSMAX}" in kernel.explain()


def test_the_cache_key_holds_the_definition():
    assert semiring_key("min_plus") == "min_plus"
    assert ABSMAX in semiring_key("absmax_times")
    assert "fabs(a - b)" in semiring_key("min_absdiff")


@pytest.mark.parametrize("arguments, words", [
    (("max", "a > b ? a : b", 0.0), "built in"),
    (("abs_max", "a", 0.0), "no '_'"),
    (("absmax", "a > b ? a : b", 0.0), "defined already"),
    (("nocompile", "fabss(a) + b", 0.0), "does not compile"),
    (("twostatements", "a; return b", 0.0), "not one C expression"),
    (("noidentity", "a + b", float("nan")), "identity must be a real number"),
    (("empty", " ", 0.0), "C expression"),
    (("firstabs", "fabs(a) >= fabs(b) ? a : b", 0.0), "not commutative: -3.0 ⊕ 3.0 = -3.0 but 3.0 ⊕ -3.0 = 3.0"),
    (("skewed", "a + b + a * a * b * b", 0.0), "not associative"),
    (("offset", "a + b", 1.0), "1.0 is no identity"),
    (("truth", "(a != 0 || b != 0) ? 1 : 0", 0.0), "is no identity"),
])
def test_a_bad_definition_is_an_error_naming_it(arguments, words):
    with pytest.raises(spf.SpfError, match=words):
        spf.monoid(*arguments)


def test_defining_again_the_same_way_is_allowed_and_operators_are_checked_too():
    assert spf.monoid("absmax", ABSMAX, identity=0.0, numpy=absmax).name == "absmax"
    with pytest.raises(spf.SpfError, match="built in"):
        spf.operator("times", "a * b")
    with pytest.raises(spf.SpfError, match="does not compile"):
        spf.operator("broken", "a +* b")
    with pytest.raises(spf.SpfError, match="unknown semiring 'nosuch_times'"):
        spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, semiring="nosuch_times")


def test_einsum_takes_a_user_semiring():
    got = spf.einsum("ij,j->i", MATRIX, VECTOR, semiring="min_absdiff")
    np.testing.assert_allclose(got, reference("y(i) = A(i,j) * x(j)", "min_absdiff", (40,), A=MATRIX, x=VECTOR))
