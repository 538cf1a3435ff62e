"""Kernels under semirings (spf.compile(..., semiring=...)): each output equals the entry-by-entry
reference (tests/semiring_reference.py) for every monoid and operator, matrix-vector and
vector-matrix products, products into dense matrices, element-wise sums and products,
reductions to a scalar, the sparse layouts an input may have, and 2 threads; and python-graphblas
agrees where it is installed.  What a semiring cannot compile yet is refused by name."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import spf
from spf.errors import SpfError
from spf.notation.semirings import semiring as semiring_named
from semiring_reference import reference

SEMIRINGS = ["plus_times", "min_plus", "max_plus", "max_times", "min_times", "lor_land", "any_pair", "plus_pair",
             "plus_first", "plus_second", "min_first", "max_second", "max_min", "min_max", "land_lor",
             "times_plus", "plus_minus"]


def matrix(rows: int, columns: int, seed: int, density: float = 0.25) -> sp.csr_matrix:
    """Random entries of both signs, none zero (a stored zero is an entry under a semiring)."""
    rng = np.random.default_rng(seed)
    A = sp.random(rows, columns, density=density, random_state=seed, format="csr")
    A.data = rng.choice([-1.0, 1.0], A.nnz) * rng.uniform(0.5, 2.0, A.nnz)
    return A


def check(result, expected, semiring: str) -> None:
    exact = semiring.split("_")[0] in ("min", "max", "lor", "land", "any") or semiring.endswith("_pair")
    if exact:
        np.testing.assert_array_equal(result, expected)
    else:
        np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("semiring", SEMIRINGS)
def test_matrix_vector_product_in_every_semiring(semiring):
    A, x = matrix(30, 20, 1), np.random.default_rng(2).standard_normal(20)
    A = sp.csr_matrix(sp.diags((np.arange(30) != 3).astype(float)) @ A)  # row 3 without entries: ⊕'s identity
    A.eliminate_zeros()
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, semiring=semiring)
    expected = reference("y(i) = A(i,j) * x(j)", semiring, (30,), A=A, x=x)
    check(kernel(A=A, x=x), expected, semiring)


@pytest.mark.parametrize("semiring", ["min_plus", "max_times", "plus_pair", "lor_land"])
@pytest.mark.parametrize("layout", ["CSR", "CSC", "DCSR", "COO"])
def test_vector_matrix_product_over_sparse_layouts(semiring, layout):
    A, x = matrix(25, 18, 3), np.random.default_rng(4).standard_normal(25)
    kernel = spf.compile("y(j) = x(i) * A(i,j)", {"A": layout, "x": "Dense1", "y": "Dense1"}, semiring=semiring)
    check(kernel(A=A, x=x), reference("y(j) = x(i) * A(i,j)", semiring, (18,), A=A, x=x), semiring)


@pytest.mark.parametrize("semiring", ["min_plus", "max_plus", "plus_first", "lor_land"])
def test_sparse_times_sparse_into_a_dense_matrix(semiring):
    A, B = matrix(12, 10, 5), matrix(10, 9, 6)
    kernel = spf.compile("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSR", "C": "Dense2"}, semiring=semiring)
    check(kernel(A=A, B=B), reference("C(i,k) = A(i,j) * B(j,k)", semiring, (12, 9), A=A, B=B), semiring)


@pytest.mark.parametrize("semiring", ["min_plus", "max_second", "plus_times"])
def test_sparse_times_dense_matrix(semiring):
    A, B = matrix(14, 11, 7), np.random.default_rng(8).standard_normal((11, 6))
    kernel = spf.compile("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "Dense2", "C": "Dense2"}, semiring=semiring)
    check(kernel(A=A, B=B), reference("C(i,k) = A(i,j) * B(j,k)", semiring, (14, 6), A=A, B=B), semiring)


@pytest.mark.parametrize("semiring", ["min_plus", "max_times", "lor_land", "plus_pair"])
def test_element_wise_sum_is_a_union_and_product_an_intersection(semiring):
    A, B = matrix(15, 12, 9), matrix(15, 12, 10)
    layouts = {"A": "CSR", "B": "CSR", "C": "Dense2"}
    union = spf.compile("C(i,j) = A(i,j) + B(i,j)", layouts, semiring=semiring)
    check(union(A=A, B=B), reference("C(i,j) = A(i,j) + B(i,j)", semiring, (15, 12), A=A, B=B), semiring)
    intersection = spf.compile("C(i,j) = A(i,j) * B(i,j)", layouts, semiring=semiring)
    check(intersection(A=A, B=B), reference("C(i,j) = A(i,j) * B(i,j)", semiring, (15, 12), A=A, B=B), semiring)


@pytest.mark.parametrize("semiring", ["min_plus", "max_times", "lor_land", "plus_times"])
@pytest.mark.parametrize("parallel", [False, True])
def test_reduction_to_a_scalar(semiring, parallel, openmp_threads):
    """In parallel (a recipe's loop over rows), OpenMP reduces the threads' values with ⊕'s
    own reduction (min, max, ||, +)."""
    A, B = matrix(400, 30, 11), matrix(400, 30, 12, density=0.5)
    layouts = {"A": "CSR", "B": "CSR"}
    recipe = spf.recipe("s = A(i,j) * B(i,j)", layouts).parallelize("pAi", "atomic") if parallel else None
    kernel = spf.compile("s = A(i,j) * B(i,j)", layouts, semiring=semiring, schedule=recipe)
    if parallel:
        assert f"reduction({semiring_named(semiring).add.openmp}: s_sum)" in kernel.c_source
    check(kernel(A=A, B=B), reference("s = A(i,j) * B(i,j)", semiring, (), A=A, B=B), semiring)


@pytest.mark.parametrize("semiring", ["min_plus", "max_times"])
def test_two_threads_over_many_pieces(semiring, openmp_threads):
    """Rows split among 2 threads (the kernel's parallel loop in several pieces): each row's
    reduction is one thread's, so the result is the serial one exactly."""
    A, x = matrix(3000, 2000, 13, density=0.01), np.random.default_rng(14).standard_normal(2000)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, semiring=semiring,
                         parallel=True)
    assert "omp parallel" in kernel.c_source
    check(kernel(A=A, x=x), reference("y(i) = A(i,j) * x(j)", semiring, (3000,), A=A, x=x), semiring)


def test_accumulating_statement_starts_from_the_identity():
    """``y(i) += ...`` into a new output: it starts at ⊕'s identity (+inf under min), not 0."""
    A, x = matrix(20, 15, 15), np.random.default_rng(16).standard_normal(15)
    kernel = spf.compile("y(i) += A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, semiring="min_plus")
    expected = reference("y(i) = A(i,j) * x(j)", "min_plus", (20,), A=A, x=x)
    for _ in range(2):  # the call's fast path, then the kept plan
        check(kernel(A=A, x=x), expected, "min_plus")


def test_padding_is_refused_where_it_would_count_and_kept_where_it_cannot():
    A, x = matrix(16, 16, 17), np.random.default_rng(18).standard_normal(16)
    layouts = {"A": "BCSR", "x": "Dense1", "y": "Dense1"}
    with pytest.raises(SpfError, match=r"input A in BCSR.* stores padding.*plus of a zero is not min's identity"):
        spf.compile("y(i) = A(i,j) * x(j)", layouts, semiring="min_plus")
    for semiring in ("lor_land", "plus_times"):  # 0 ⊗ x is ⊕'s identity: padding adds nothing
        kernel = spf.compile("y(i) = A(i,j) * x(j)", layouts, semiring=semiring)
        check(kernel(A=spf.pack("BCSR", A), x=x), reference("y(i) = A(i,j) * x(j)", semiring, (16,), A=A, x=x),
              semiring)


@pytest.mark.parametrize("expression, layouts, options, message", [
    ("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "BCSR"}, {},
     r"output C is assembled in BCSR\(R=4, C=4\), which stores padding: an entry of value 0"),
    ("y(i) = 2 * A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, {}, r"the term 2 \* A\(i,j\) \* x\(j\)"),
    ("C(i,j) = A(i,j) - B(i,j)", {"A": "CSR", "B": "CSR", "C": "Dense2"}, {}, r"has a coefficient"),
    ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, {"semiring": "min_divide"},
     r"unknown semiring 'min_divide': give <monoid>_<operator>"),
    ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, {"semiring": 3},
     r"semiring must be a str"),
])
def test_what_a_semiring_cannot_compile_is_refused_by_name(expression, layouts, options, message):
    with pytest.raises(SpfError, match=message):
        spf.compile(expression, layouts, **{"semiring": "min_plus", **options})


SPARSE_OUTPUTS = [  # statement, layouts: a workspace, an inner product's register, a merge, a reduction
    ("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSR", "C": "CSR"}),
    ("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSC", "C": "DCSR"}),
    ("C(i,k) = A(i,j) * B(j,k)", {"A": "COO", "B": "CSR", "C": "COO"}),
    ("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}),
    ("C(i,j) = A(i,j) + B(i,j)", {"A": "COO", "B": "Dense2", "C": "CSC"}),
    ("C(i,j) = A(i,j) * B(i,j)", {"A": "CSR", "B": "DCSR", "C": "DCSR"}),
    ("y(i) = A(i,j)", {"A": "CSC", "y": "SV"}),
]


def reached(expression: str, shape: tuple, **operands) -> np.ndarray:
    """Where a product reaches the output: the positions of its entries under a semiring (a
    sparse operand's entries are its stored ones, a dense one's every position)."""
    def ones(value):
        if sp.issparse(value):
            value = sp.csr_matrix(value, copy=True)
            value.data[:] = 1.0
            return value
        return np.ones(np.shape(value))
    return reference(expression, "lor_pair", shape, **{name: ones(value) for name, value in operands.items()}) != 0


@pytest.mark.parametrize("semiring", ["min_plus", "max_times", "lor_land", "plus_pair", "min_first", "max_second",
                                      "land_lor", "times_plus"])
@pytest.mark.parametrize("expression, layouts", SPARSE_OUTPUTS)
def test_an_assembled_output_has_an_entry_where_a_product_reaches(semiring, expression, layouts):
    """GraphBLAS's pattern (every position some product reaches, whatever its value), each
    entry ⊕ of its products: through a workspace, a register, a merge or the builder."""
    A, B = matrix(18, 14, 24), matrix(14 if "j) * B(j" in expression else 18, 14, 25)
    operands = {"A": A}
    if "B(" in expression:
        operands["B"] = B.toarray() if layouts["B"].startswith("Dense") else B
    output = spf.parse_statement(expression).output
    shape = (18,) if len(output.indices) == 1 else (18, 14)
    kernel = spf.compile(expression, layouts, semiring=semiring)
    result = kernel(**operands)
    coordinates, values, _ = result.to_coo()
    where = reached(expression, shape, **operands)
    assert {tuple(c) for c in coordinates.tolist()} == {tuple(c) for c in np.argwhere(where).tolist()}
    check(values, reference(expression, semiring, shape, **operands)[tuple(coordinates.T)], semiring)


def test_a_sum_of_zero_is_an_entry_under_a_semiring_and_none_under_plus_times():
    A = sp.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
    B = sp.csr_matrix(np.array([[-1.0, 4.0], [0.0, -3.0]]))
    layouts = {"A": "CSR", "B": "CSR", "C": "CSR"}
    under_plus_first = spf.compile("C(i,j) = A(i,j) + B(i,j)", layouts, semiring="plus_first")(A=A, B=B).to_scipy()
    assert under_plus_first.nnz == 4 and under_plus_first[0, 0] == 0 and under_plus_first[1, 1] == 0
    assert spf.compile("C(i,j) = A(i,j) + B(i,j)", layouts)(A=A, B=B).to_scipy().nnz == 2


def test_a_monoid_of_truth_values_gives_one_value_its_truth():
    """lor ⊕ one entry is its truth (0 or 1), as in a dense output: the builder and workspace
    take a position's first value as it is, so the kernel appends identity ⊕ value."""
    A = sp.csr_matrix(np.array([[3, 0], [-2, 5]], dtype=np.int64))
    B = sp.csr_matrix(np.array([[0, 7], [4, 0]], dtype=np.int64))
    kernel = spf.compile("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, semiring="lor_land")
    result = kernel(A=A, B=B).to_scipy()
    assert result.dtype == np.int64
    np.testing.assert_array_equal(result.toarray(), [[1, 1], [1, 1]])


@pytest.mark.parametrize("semiring", ["min_plus", "max_times"])
def test_an_assembled_product_on_two_threads_over_many_pieces(semiring, openmp_threads):
    A, B = matrix(2000, 300, 26, density=0.02), matrix(300, 400, 27, density=0.02)
    kernel = spf.compile("C(i,k) = A(i,j) * B(j,k)", {"A": "CSR", "B": "CSR", "C": "CSR"}, semiring=semiring,
                         parallel=True)
    assert "omp parallel" in kernel.c_source
    coordinates, values, _ = kernel(A=A, B=B).to_coo()
    expected = reference("C(i,k) = A(i,j) * B(j,k)", semiring, (2000, 400), A=A, B=B)
    where = reached("C(i,k) = A(i,j) * B(j,k)", (2000, 400), A=A, B=B)
    assert len(coordinates) == where.sum() and where[tuple(coordinates.T)].all()
    check(values, expected[tuple(coordinates.T)], semiring)


def test_a_recipe_reduction_is_refused():
    layouts = {"A": "CSR", "x": "Dense1", "y": "Dense1"}
    recipe = spf.recipe("y(j) = x(i) * A(i,j)", layouts).parallelize("pAi", reduction="atomic")
    with pytest.raises(SpfError, match=r"runs pAi in parallel with the 'atomic' reduction, which adds"):
        spf.compile("y(j) = x(i) * A(i,j)", layouts, schedule=recipe, semiring="max_plus")


def test_a_fused_schedule_is_refused():
    layouts = {"A": "CSR", "B": "Dense2", "C": "Dense2", "D": "Dense2"}
    expression = "D(i,l) = A(i,j) * B(j,k) * C(k,l)"
    candidate = spf.autoschedule(expression, layouts).default()
    with pytest.raises(SpfError, match=r"semiring='min_plus' with a fused schedule is not supported yet"):
        spf.compile(expression, layouts, schedule=candidate, semiring="min_plus")


def test_kernels_of_two_semirings_are_two_kernels():
    layouts = {"A": "CSR", "x": "Dense1", "y": "Dense1"}
    plus = spf.compile("y(i) = A(i,j) * x(j)", layouts, build=False)
    least = spf.compile("y(i) = A(i,j) * x(j)", layouts, semiring="min_plus", build=False)
    assert plus.c_source != least.c_source and "spf_min_float64" in least.c_source


@pytest.mark.parametrize("semiring", ["min_plus", "max_times", "plus_pair", "lor_land", "min_second"])
def test_python_graphblas_agrees(semiring):
    gb = pytest.importorskip("graphblas", reason="python-graphblas (the bench extra) is not installed")
    A, x = matrix(40, 35, 19), np.random.default_rng(20).standard_normal(35)
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, semiring=semiring)
    product = gb.io.from_scipy_sparse(A).mxv(gb.Vector.from_dense(x), getattr(gb.semiring, semiring)).new()
    indices, values = product.to_coo()
    expected = np.full(40, reference("y(i) = A(i,j) * x(j)", semiring, (40,), A=sp.csr_matrix((40, 35)),
                                     x=np.zeros(35))[0])  # ⊕'s identity where graphblas has no entry
    expected[indices] = values
    check(kernel(A=A, x=x), expected, semiring)


@pytest.mark.parametrize("semiring", ["min_plus", "max_times", "plus_pair"])
def test_an_output_sharing_an_inputs_pattern_is_masked_by_it(semiring):
    """SDDMM ``A(i,j) = B(i,j) * C(i,k) * D(k,j)`` with A sharing B's pattern: GraphBLAS's
    ``A<B> = B .* (C ⊕.⊗ D)``, each of B's entries reduced over k."""
    B = matrix(20, 15, 21, density=0.2)
    C, D = np.random.default_rng(22).standard_normal((20, 6)), np.random.default_rng(23).standard_normal((6, 15))
    expression = "A(i,j) = B(i,j) * C(i,k) * D(k,j)"
    kernel = spf.compile(expression, {"A": "CSR", "B": "CSR", "C": "Dense2", "D": "Dense2"}, share={"A": "B"},
                         semiring=semiring)
    result = kernel(B=B, C=C, D=D).to_scipy()
    expected = reference(expression, semiring, (20, 15), B=B, C=C, D=D)
    np.testing.assert_array_equal(result.indices, B.indices)
    check(result.data, expected[B.nonzero()], semiring)


EXPRESSIONS = {  # statement -> each operand's indices
    "y(i) = A(i,j) * x(j)": {"A": "ij", "x": "j"},
    "y(j) = x(i) * A(i,j)": {"A": "ij", "x": "i"},
    "C(i,k) = A(i,j) * B(j,k)": {"A": "ij", "B": "jk"},
    "C(i,j) = A(i,j) + B(i,j)": {"A": "ij", "B": "ij"},
    "C(i,j) = A(i,j) * B(i,j) + A(i,j)": {"A": "ij", "B": "ij"},
    "y(i) = A(i,j) * B(i,j)": {"A": "ij", "B": "ij"},
    "s = A(i,j) * x(j)": {"A": "ij", "x": "j"},
}
MATRIX_LAYOUTS = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "LOWER_TRI", "Dense2"]


def triangle_entries(values: np.ndarray) -> sp.csr_matrix:
    """A lower triangle's every position as an entry, zeros included (what LOWER_TRI stores)."""
    rows, columns = np.nonzero(np.tri(*values.shape, dtype=bool))
    return sp.csr_matrix((values[rows, columns], (rows, columns)), shape=values.shape)


@st.composite
def semiring_kernels(draw):
    """A statement, a semiring, one layout per matrix (a vector is dense), the extents, and
    operands with stored zeros among their entries (a stored zero is an entry)."""
    expression = draw(st.sampled_from(sorted(EXPRESSIONS)))
    ring = draw(st.sampled_from([s for s in SEMIRINGS if not s.startswith("any_") or s == "any_pair"]))
    size = {"i": draw(st.integers(1, 9)), "k": draw(st.integers(1, 6))}
    size["j"] = size["i"] if draw(st.booleans()) else draw(st.integers(1, 9))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    layouts, operands = {}, {}
    for name, indices in EXPRESSIONS[expression].items():
        shape = tuple(size[index] for index in indices)
        values = rng.choice([0.0, -2.0, -1.0, 0.5, 1.0, 3.0], size=shape)
        layout = "Dense1" if len(shape) == 1 else draw(st.sampled_from(MATRIX_LAYOUTS))
        if layout == "LOWER_TRI" and shape[0] != shape[1]:
            layout = "CSR"
        layouts[name] = layout
        if layout.startswith("Dense"):
            operands[name] = values
            continue
        pattern = rng.random(shape) < draw(st.sampled_from([0.0, 0.3, 0.7]))
        rows, columns = np.nonzero(pattern)
        operands[name] = sp.csr_matrix((values[rows, columns], (rows, columns)), shape=shape)  # zeros kept
        if layout == "LOWER_TRI":  # a layout without index arrays has an entry at every position it stores
            operands[name] = triangle_entries(np.where(pattern, values, 0.0))
    output = spf.parse_statement(expression).output
    if output.indices:
        layouts[output.tensor] = f"Dense{len(output.indices)}"
    shape = tuple(size[index] for index in output.indices)
    return expression, ring, layouts, operands, shape, draw(st.booleans())


@settings(max_examples=40, deadline=None)  # each draw compiles a kernel
@given(semiring_kernels())
def test_semiring_kernels_equal_the_reference(drawn):
    expression, ring, layouts, operands, shape, parallel = drawn
    kernel = spf.compile(expression, layouts, semiring=ring, parallel=parallel)
    inputs = {name: spf.pack(layouts[name], value) if sp.issparse(value) else value
              for name, value in operands.items()}
    check(kernel(**inputs), reference(expression, ring, shape, **operands), ring)


def test_any_keeps_a_value_that_a_later_empty_reduction_would_overwrite():
    """Found by the fuzzer: TTV with k outermost sums over B's entries in a register for each
    (k, i, j), most of them empty; A(i,j) = A(i,j) any sum must leave A(i,j) as it was when the
    sum is empty (any keeps its first value that is not 0, so 0 is its identity)."""
    B = spf.pack("COO3", {"n0": 2, "n1": 1, "n2": 5, "nnz": 1, "idx0": np.array([1]), "idx1": np.array([0]),
                          "idx2": np.array([1]), "val": np.array([-3.0])})
    c = np.array([0.0, -1.0, 0.0, -2.0, 0.0])
    kernel = spf.compile("A(i,j) = B(i,j,k) * c(k)", {"B": "COO3", "c": "Dense1", "A": "Dense2"}, semiring="any_pair",
                         order=["k", "pA1", "i", "pA0", "j", "pB", "pc0"])
    np.testing.assert_array_equal(kernel(B=B, c=c), [[0.0], [1.0]])


@pytest.mark.parametrize("parallel", [False, True])
def test_any_reduces_a_scalar_to_one_of_its_values(parallel, openmp_threads):
    """A scalar under any_first over 2 threads (OpenMP's reduction declared in spf_semiring.h):
    one of the products, not the 0 of a thread that saw none."""
    A = matrix(400, 30, 24, density=0.02)
    layouts = {"A": "CSR", "B": "CSR"}
    recipe = spf.recipe("s = A(i,j) * B(i,j)", layouts).parallelize("pAi", "atomic") if parallel else None
    kernel = spf.compile("s = A(i,j) * B(i,j)", layouts, semiring="any_first", schedule=recipe)
    assert kernel(A=A, B=A) in set(A.data)


@pytest.mark.parametrize("semiring, refused", [("plus_pair", False), ("lor_land", False), ("any_pair", False),
                                               ("min_plus", True), ("max_times", True)])
def test_padding_in_a_term_of_one_factor_is_refused_only_where_zero_changes_the_reduction(semiring, refused):
    """``y(i) = A(i,j)``: no ⊗ applies, BCSR's padded zeros are reduced as they are, which
    plus, lor and any leave unchanged (min and max would not)."""
    A = matrix(12, 10, 50)
    layouts = {"A": "BCSR(R=2, C=2)", "y": "Dense1"}
    if refused:
        with pytest.raises(SpfError, match="stores padding"):
            spf.compile("y(i) = A(i,j)", layouts, semiring=semiring)
        return
    kernel = spf.compile("y(i) = A(i,j)", layouts, semiring=semiring)
    result, expected = kernel(A=spf.pack("BCSR(R=2, C=2)", A)), reference("y(i) = A(i,j)", semiring, (12,), A=A)
    np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)  # plus adds the values: no ⊗ applies
