"""Iteration spaces, checked point by point against brute force over the dense space.

Each space is evaluated on concrete packed tensors (its UFs taken from the packed
arrays) by the level-by-level enumerator, and must give exactly the iteration points
where every tensor of the product stores an entry, found by testing every point of
the dense iteration box.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.errors import IterationSpaceError, NotationError
from tests.conftest import load_matrix, load_tensor

MATRIX_LAYOUTS = ["CSR", "CSC", "DCSR", "DCSC", "COO", "COO_UNSORTED", "BCSR(R=2, C=3)",
                  "BCSR(R=4, C=4)", "LOWER_TRI", "DIA", "ELL", "WARP24", "Dense"]


# ----------------------------------------------------------------------------- helpers


def stored_mask(tensor: spf.Tensor) -> np.ndarray:
    """Dense boolean array: True where the tensor stores an entry (padding included)."""
    mask = np.zeros(tensor.shape, dtype=bool)
    coords, _ = tensor.stored()
    inside = np.all((coords >= 0) & (coords < np.asarray(tensor.shape)), axis=1)
    coords = coords[inside]
    if len(coords):
        mask[tuple(coords.T)] = True
    return mask


def brute_force(statement: spf.Statement, tensors: dict[str, spf.Tensor], extents: dict[str, int],
                participants: list[str]) -> set[tuple[int, ...]]:
    """Points of the dense iteration box where every participant stores an entry."""
    indices = statement.indices
    box = np.ones([extents[i] for i in indices], dtype=bool)
    accesses = {a.tensor: a for a in statement.terms[0].factors}
    accesses[statement.output.tensor] = statement.output
    for name in participants:
        access = accesses[name]
        mask = stored_mask(tensors[name])
        # view the tensor's mask over the whole box (repeated indices take the diagonal)
        letters = {index: chr(ord("a") + k) for k, index in enumerate(indices)}
        source = "".join(letters[i] for i in access.indices)
        target = "".join(letters[i] for i in indices if i in access.indices)
        view = np.einsum(f"{source}->{target}", mask.astype(np.int64)) > 0 if source != target else mask
        shape = [extents[i] if i in access.indices else 1 for i in indices]
        box &= view.reshape(shape)
    return {tuple(int(v) for v in point) for point in np.argwhere(box)}


def space_points(space: spf.StatementSpace, tensors: dict[str, spf.Tensor]) -> set[tuple[int, ...]]:
    constants, functions = space.uf_tables(tensors)
    points = space.set.points(constants, functions)
    positions = [space.variables.index(i) for i in space.indices]
    projected = [tuple(p[k] for k in positions) for p in points]
    # every layout is injective: one physical tuple per iteration point
    assert len(projected) == len(set(projected))
    return set(projected)


def check_space(expression: str, layouts: dict, tensors: dict[str, spf.Tensor], share=None) -> int:
    space = spf.iteration_space(expression, layouts, share=share)
    assert len(space) == 1
    statement_space = space[0]
    statement = statement_space.statement
    extents = {}
    for access in list(statement.terms[0].factors) + [statement.output]:
        if access.tensor in tensors:
            for index, extent in zip(access.indices, tensors[access.tensor].shape):
                extents[index] = extent
    output = statement.output
    if output.indices and output.tensor not in tensors:  # a dense output to write into
        shape = tuple(extents[i] for i in output.indices)
        tensors = {**tensors, output.tensor: spf.pack(layouts[output.tensor], np.zeros(shape), output.tensor)}
    participants = [a.tensor for a in statement.terms[0].factors if a.indices]
    if share:
        participants.append(statement.output.tensor)
    expected = brute_force(statement, tensors, extents, participants)
    assert space_points(statement_space, tensors) == expected
    return len(expected)


def random_matrix(rows: int, columns: int, density: float, seed: int) -> sparse.csr_matrix:
    matrix = sparse.random(rows, columns, density=density, random_state=seed, format="csr")
    matrix.data += 1.0  # no explicit zeros
    return matrix


def fit_layout(layout: str, matrix: sparse.spmatrix) -> sparse.spmatrix:
    """The part of a matrix a layout can hold (lower triangle, 2 of every 4 columns)."""
    matrix = sparse.csr_matrix(matrix)
    if layout == "LOWER_TRI":
        size = min(matrix.shape)
        return sparse.tril(matrix[:size, :size]).tocsr()
    if layout == "WARP24":
        coo = matrix.tocoo()
        order = np.lexsort((coo.col, coo.row))
        row, col, data = coo.row[order], coo.col[order], coo.data[order]
        group = row.astype(np.int64) * ((matrix.shape[1] + 3) // 4) + col // 4
        first = np.r_[True, group[1:] != group[:-1]]
        start = np.maximum.accumulate(np.where(first, np.arange(len(group)), 0))
        keep = (np.arange(len(group)) - start) < 2
        return sparse.csr_matrix((data[keep], (row[keep], col[keep])), shape=matrix.shape)
    return matrix


def pack_all(data: dict[str, object], layouts: dict[str, str]) -> dict[str, spf.Tensor]:
    return {name: spf.pack(layouts[name], value, name=name) for name, value in data.items()}


# ----------------------------------------------------------------------------- kernels, random data


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dot_product_of_sparse_vectors(seed):
    rng = np.random.default_rng(seed)
    b = np.where(rng.random(40) < 0.3, rng.random(40) + 1, 0)
    c = np.where(rng.random(40) < 0.3, rng.random(40) + 1, 0)
    layouts = {"a": "Dense", "b": "SV", "c": "SV"}
    tensors = pack_all({"b": b, "c": c}, layouts)
    count = check_space("a = b(i) * c(i)", layouts, tensors)
    assert count == int(np.count_nonzero((b != 0) & (c != 0)))


@pytest.mark.parametrize("layout_b, layout_c", [("SV_DEC", "SV_UNSORTED"), ("SV", "Dense")])
def test_dot_product_variants(layout_b, layout_c):
    rng = np.random.default_rng(7)
    b = np.where(rng.random(30) < 0.4, 1.0, 0)
    c = np.where(rng.random(30) < 0.4, 2.0, 0)
    layouts = {"a": "Dense", "b": layout_b, "c": layout_c}
    check_space("a = b(i) * c(i)", layouts, pack_all({"b": b, "c": c}, layouts))


@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
@pytest.mark.parametrize("shape", [(13, 17), (16, 16), (1, 5)])
def test_spmv_for_every_matrix_layout(layout, shape):
    matrix = fit_layout(layout, random_matrix(*shape, 0.25, seed=shape[0]))
    x = np.arange(1, matrix.shape[1] + 1, dtype=float)
    layouts = {"A": layout, "x": "Dense", "y": "Dense"}
    tensors = pack_all({"A": matrix, "x": x}, layouts)
    check_space("y(i) = A(i,j) * x(j)", layouts, tensors)


def test_spmv_with_empty_matrix_and_empty_rows():
    layouts = {"A": "CSR", "x": "Dense", "y": "Dense"}
    empty = sparse.csr_matrix((6, 4))
    assert check_space("y(i) = A(i,j) * x(j)", layouts, pack_all({"A": empty, "x": np.ones(4)}, layouts)) == 0
    rows = sparse.csr_matrix(([1.0, 2.0], ([0, 5], [1, 3])), shape=(6, 4))
    assert check_space("y(i) = A(i,j) * x(j)", layouts, pack_all({"A": rows, "x": np.ones(4)}, layouts)) == 2


@pytest.mark.parametrize("seed", [0, 1])
def test_spmspv_csr_times_sparse_vector(seed):
    matrix = random_matrix(25, 30, 0.2, seed)
    x = np.where(np.random.default_rng(seed).random(30) < 0.3, 1.5, 0)
    layouts = {"A": "CSR", "x": "SV", "y": "Dense"}
    check_space("y(i) = A(i,j) * x(j)", layouts, pack_all({"A": matrix, "x": x}, layouts))


SPMSPM_PAIRS = [(a, b) for a in ("COO", "CSR", "DCSR") for b in ("COO", "CSR", "DCSR")] + \
    [("BCSR(R=2, C=2)", "BCSR(R=2, C=2)"), ("BCSR(R=2, C=3)", "BCSR(R=3, C=2)"), ("BCSR(R=2, C=2)", "COO")]


@pytest.mark.parametrize("layout_a, layout_b", SPMSPM_PAIRS)
def test_spmspm_layout_pairs(layout_a, layout_b):
    a = random_matrix(12, 14, 0.2, seed=1)
    b = random_matrix(14, 11, 0.2, seed=2)
    layouts = {"A": layout_a, "B": layout_b, "C": "Dense"}
    check_space("C(i,j) = A(i,k) * B(k,j)", layouts, pack_all({"A": a, "B": b}, layouts))


def test_sddmm_with_output_sharing_the_sparse_input():
    b = random_matrix(9, 8, 0.3, seed=4)
    c = np.random.default_rng(0).random((9, 5))
    d = np.random.default_rng(1).random((5, 8))
    layouts = {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}
    tensors = pack_all({"B": b, "C": c, "D": d}, layouts)
    pattern = b.tocoo()
    tensors["A"] = spf.pack("CSR", (np.stack([pattern.row, pattern.col], 1), np.ones(pattern.nnz), b.shape), "A")
    count = check_space("A(i,j) = B(i,j) * C(i,k) * D(k,j)", layouts, tensors, share={"A": "B"})
    assert count == b.nnz * 5


def ttm_tensors(coords, values, shape, rank: int):
    layouts = {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}
    tensors = {"B": spf.pack("CSF3", (coords, values, shape), "B"),
               "C": spf.pack("Dense", np.random.default_rng(0).random((rank, shape[2])) + 1, "C")}
    pairs = np.unique(coords[:, :2], axis=0)
    output = np.array([(i, j, k) for i, j in pairs for k in range(rank)]).reshape(-1, 3)
    tensors["A"] = spf.pack("CSF3_DENSE_LAST", (output, np.ones(len(output)), (shape[0], shape[1], rank)), "A")
    return layouts, tensors


def random_tensor(shape, count, seed):
    rng = np.random.default_rng(seed)
    flat = rng.choice(int(np.prod(shape)), size=count, replace=False)
    coords = np.stack(np.unravel_index(np.sort(flat), shape), axis=1)
    return coords, rng.random(count) + 1, shape


def test_ttm_with_csf_input_and_shared_dense_last_output():
    coords, values, shape = random_tensor((6, 5, 7), 40, seed=3)
    layouts, tensors = ttm_tensors(coords, values, shape, rank=3)
    check_space("A(i,j,k) = B(i,j,l) * C(k,l)", layouts, tensors, share={"A": "B"})


def test_mttkrp_on_csf3():
    coords, values, shape = random_tensor((5, 6, 7), 35, seed=5)
    layouts = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
    tensors = {"B": spf.pack("CSF3", (coords, values, shape), "B"),
               "C": spf.pack("Dense", np.ones((6, 3)), "C"), "D": spf.pack("Dense", np.ones((7, 3)), "D")}
    check_space("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)", layouts, tensors)


# ----------------------------------------------------------------------------- real data


REAL_SPMV = ["494_bus", "west0479", "Franz6_id1959_aug", "email-Eu-core", "gre_1107", "ca-GrQc"]


@pytest.mark.parametrize("name", REAL_SPMV)
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_spmv_on_real_matrices(name, layout):
    matrix = load_matrix(name)
    if layout == "Dense" and matrix.shape[0] * matrix.shape[1] > 2_000_000:
        pytest.skip(f"Dense would store all {matrix.shape[0]}x{matrix.shape[1]} entries; kept to smaller matrices")
    matrix = fit_layout(layout, matrix)
    matrix.eliminate_zeros()
    layouts = {"A": layout, "x": "Dense", "y": "Dense"}
    tensors = pack_all({"A": matrix, "x": np.ones(matrix.shape[1])}, layouts)
    stored = tensors["A"].values.size
    if stored > 2_000_000:
        pytest.skip(f"{layout} stores {stored} values (padding included) for {name}; kept to smaller ones")
    check_space("y(i) = A(i,j) * x(j)", layouts, tensors)


@pytest.mark.parametrize("name", ["494_bus", "west0479", "email-Eu-core", "gre_1107", "Franz6_id1959_aug"])
def test_spmspv_on_real_matrices(name):
    matrix = load_matrix(name)
    x = np.zeros(matrix.shape[1])
    x[np.random.default_rng(0).choice(matrix.shape[1], size=12, replace=False)] = 1.0
    layouts = {"A": "CSR", "x": "SV", "y": "Dense"}
    check_space("y(i) = A(i,j) * x(j)", layouts, pack_all({"A": matrix, "x": x}, layouts))


@pytest.mark.parametrize("name", ["494_bus", "west0479", "gre_1107"])
@pytest.mark.parametrize("layout_a, layout_b", [("CSR", "CSR"), ("COO", "DCSR"), ("DCSR", "COO"),
                                                ("BCSR(R=2, C=2)", "BCSR(R=2, C=2)")])
def test_spmspm_on_real_matrices(name, layout_a, layout_b):
    matrix = load_matrix(name)
    size = min(matrix.shape[0], 300)  # the dense brute-force box is size^3
    block = matrix[:size, :size]
    layouts = {"A": layout_a, "B": layout_b, "C": "Dense"}
    check_space("C(i,j) = A(i,k) * B(k,j)", layouts, pack_all({"A": block, "B": block.T.tocsr()}, layouts))


@pytest.mark.parametrize("name", ["494_bus", "gre_1107", "west0479"])
def test_sddmm_on_real_matrices(name):
    b = load_matrix(name)
    b.eliminate_zeros()
    layouts = {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}
    tensors = pack_all({"B": b, "C": np.ones((b.shape[0], 2)), "D": np.ones((2, b.shape[1]))}, layouts)
    pattern = b.tocoo()
    tensors["A"] = spf.pack("CSR", (np.stack([pattern.row, pattern.col], 1), np.ones(pattern.nnz), b.shape), "A")
    check_space("A(i,j) = B(i,j) * C(i,k) * D(k,j)", layouts, tensors, share={"A": "B"})


@pytest.mark.parametrize("name", ["nations", "umls", "kinship"])
def test_ttm_and_mttkrp_on_real_tensors(name):
    coords, values, shape = load_tensor(name)
    layouts, tensors = ttm_tensors(coords, values, shape, rank=2)
    check_space("A(i,j,k) = B(i,j,l) * C(k,l)", layouts, tensors, share={"A": "B"})
    layouts = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
    tensors = {"B": tensors["B"], "C": spf.pack("Dense", np.ones((shape[1], 2)), "C"),
               "D": spf.pack("Dense", np.ones((shape[2], 2)), "D")}
    check_space("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)", layouts, tensors)


# ----------------------------------------------------------------------------- structure and errors


def test_default_order_puts_each_physical_index_before_the_indices_it_defines():
    space = spf.iteration_space("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"})[0]
    # the dense output's position follows its index at once
    assert space.variables == ("pAi", "i", "py0", "pAj", "j", "px")
    blocked = spf.iteration_space("y(i) = A(i,j) * x(j)", {"A": "BCSR(R=2, C=2)", "x": "Dense", "y": "Dense"})[0]
    order = blocked.variables
    assert order.index("i") > order.index("pAii") > order.index("pAI")
    assert order.index("j") > order.index("pAjj") > order.index("pAJ")


@pytest.mark.parametrize("expression, layouts", [
    ("C(i,j,k,l) = A(i,j,k,l) * B(i,j,k,l)", {"A": "Dense4", "B": "COO4", "C": "Dense4"}),
    ("C(i,j) = A(i,j) * B(i,j)", {"A": "CSR", "B": "COO", "C": "Dense"}),
    ("C(i,j) = A(i,k) * B(k,j)", {"A": "Dense", "B": "COO_UNSORTED", "C": "Dense"}),
    ("M(i,r) = C(j,r) * B(i,j,k) * D(k,r)", {"M": "Dense", "B": "COO3", "C": "Dense", "D": "Dense"}),
])
def test_default_order_iterates_a_coordinate_list_first(expression, layouts):
    """A coordinate list's positions are reached by no find but a scan of them all: the
    default order iterates them outermost, whatever the expression's order of operands,
    so no loop scans them inside another operand's loops."""
    coordinate_list = next(name for name, spec in layouts.items() if spec.startswith("COO"))
    space = spf.iteration_space(expression, layouts)[0]
    assert space.variables[0] == space.placements[coordinate_list].physical[0]


def test_default_order_iterates_each_coordinate_list_entry_once():
    """Dense4 * COO4 element-wise: the kernel visits the stored entries (the loop over
    them is outermost and nothing scans them again), and its result is numpy's."""
    shape = (6, 5, 4, 3)
    rng = np.random.default_rng(3)
    flat = rng.choice(int(np.prod(shape)), size=40, replace=False)
    coords = np.stack(np.unravel_index(flat, shape), axis=1)
    values = rng.standard_normal(40)
    A = rng.standard_normal(shape)
    k = spf.compile("C(i,j,k,l) = A(i,j,k,l) * B(i,j,k,l)", {"A": "Dense4", "B": "COO4", "C": "Dense4"})
    assert k.c_source.count("pB <= (B_nnz - 1)") == 1 and k.c_source.index("pB") < k.c_source.index("pA0 =")
    B = np.zeros(shape)
    B[tuple(coords.T)] = values
    np.testing.assert_allclose(k(A=A, B=spf.pack("COO4", (coords, values, shape))), A * B, rtol=1e-13)


@pytest.mark.parametrize("expression, layouts, sparse", [
    ("y(j) = d(i) * A(i,j)", {"A": "CSC", "d": "Dense1", "y": "Dense1"}, "A"),
    ("y(i) = x(j) * A(i,j)", {"A": "CSR", "x": "Dense1", "y": "Dense1"}, "A"),
    ("A(i,j) = C(i,k) * D(k,j) * B(i,j)", {"A": "Dense2", "B": "DCSR", "C": "Dense2", "D": "Dense2"}, "B"),
])
def test_default_order_iterates_a_sparse_input_before_a_dense_one(expression, layouts, sparse):
    """A dense input first would loop over each of its positions and search the sparse input
    for it (``d(i) * A(i,j)`` with A in CSC: a find of i in every column, for every i); the
    sparse input's levels come first, so the dense one is read at the coordinates they give."""
    space = spf.iteration_space(expression, layouts)[0]
    assert space.variables[0] == space.placements[sparse].physical[0]
    kernel = spf.compile(expression, layouts, build=False)
    assert not kernel.reports, kernel.explain()  # no find: every input read at known positions


def test_readable_print_shows_calls_and_layouts():
    text = str(spf.iteration_space("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"}))
    assert "A_rowPtr(pAi)" in text and "A_colIdx(pAj)" in text and "x_idx(px)" in text
    assert "A: CSR" in text and "x: SV" in text


def test_sum_is_split_into_one_statement_per_term():
    space = spf.iteration_space("y(i) = A(i,j) * x(j) + z(i)", {"A": "CSR", "x": "Dense", "z": "SV", "y": "Dense"})
    assert len(space) == 2
    assert [str(s.statement) for s in space] == ["y(i) = A(i,j) * x(j)", "y(i) += z(i)"]


def test_shared_output_uses_the_inputs_index_arrays():
    space = spf.iteration_space("A(i,j) = B(i,j) * C(i,k) * D(k,j)",
                                {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, share={"A": "B"})[0]
    text = str(space.set)
    assert "B_rowPtr(pAi)" in text or "B_rowPtr(pBi)" in text
    assert "A_rowPtr" not in text and "A_colIdx" not in text


def test_context_derives_the_identity_of_shared_positions():
    by_name = str(Path(__file__).resolve().parents[1] / "data" / "CSR_BY_NAME.layout")  # shared by names
    space = spf.iteration_space("A(i,j) = B(i,j) * C(i,k) * D(k,j)",
                                {"A": by_name, "B": "CSR", "C": "Dense", "D": "Dense"}, share={"A": "B"})[0]
    context = space.context()
    different = context.constrain("pAj != pBj")
    assert different.is_empty()
    assert not space.set.constrain("pAj != pBj").is_empty()  # only the properties prove it


def test_an_output_sharing_a_prefix_of_levels_is_at_the_sources_positions():
    space = spf.iteration_space("A(i,j) = B(i,j) * C(i,k) * D(k,j)",
                                {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, share={"A": "B"})[0]
    assert space.set.constrain("pAj != pBj").is_empty()  # the match writes it into the space


@pytest.mark.parametrize("expression, layouts, share, message", [
    ("y(i) = A(i,j) * x(j)", {"A": "CSR", "y": "Dense"}, None, "no layout given for tensor x"),
    ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense", "q": "SV"}, None, "does not use"),
    ("y(i) = A(i,j) * x(j)", {"A": "SV", "x": "SV", "y": "Dense"}, None, "order 1"),
    ("C(i,j) += A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, None,
     r"output C \(CSR\) is assembled anew by each call: '\+=' needs an output whose pattern is known"),
    ("A(i,j) = B(i,j) * C(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, {"B": "C"}, "only the output"),
    ("A(i,j) = B(i,j) * C(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, {"A": "Z"}, "no input"),
    ("A(i,j) = B(i,j) * C(i,j)", {"A": "Dense", "B": "CSR", "C": "CSR"}, {"A": "B"}, "no index array in common"),
    ("C(i,j) = A(i,k) * B(k,j) - 2 * D(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR", "D": "CSR"}, {"C": "A"},
     r"the term -2 \* D\(i,j\) does not read A"),
    ("C(i,j) = D(i,j) + A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR", "D": "CSR"}, {"C": "A"},
     r"^share: C shares A's index arrays, which restricts every term to A's pattern by reading A; "
     r"the term D\(i,j\) does not read A"),
])
def test_errors_name_the_problem(expression, layouts, share, message):
    with pytest.raises(IterationSpaceError, match=message):
        spf.iteration_space(expression, layouts, share=share)


def test_bad_expression_reports_the_column():
    with pytest.raises(NotationError) as caught:
        spf.iteration_space("y(i) = A(i,j) * * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"})
    assert caught.value.column == 17
