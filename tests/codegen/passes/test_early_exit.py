"""spf.codegen.passes.early_exit: which SeqIter finds stop their loop once exhausted, the C
they print, that the kernels so marked compute what scipy does, and the run-time cost
estimate that counts the walk they save (spf.codegen.finds.auto.seqiter_reach)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.codegen.loops import Bound, Find, Loop, walk
from spf.codegen.passes.early_exit import exhausting_find
from spf.space.expressions import Affine

SPMSPV = "y(i) = A(i,j) * x(j)"
LAYOUTS = {"A": "CSR", "x": "SV", "y": "Dense1"}


def finds(kernel) -> list[Find]:
    return [node for scanned in kernel.scans for node in walk(scanned.nodes) if isinstance(node, Find)]


def sparse_vector(size: int, indices) -> np.ndarray:
    vector = np.zeros(size)
    vector[list(indices)] = np.arange(1.0, len(indices) + 1)
    return vector


def test_spmspv_s_seqiter_stops_the_row_once_x_is_exhausted():
    kernel = spf.compile(SPMSPV, LAYOUTS, find="seqiter", build=False)
    (find,) = finds(kernel)
    assert find.exit_when_exhausted
    assert "break;" in kernel.c_source


@pytest.mark.parametrize("indices", [[], [0], [39], [3, 17], [0, 1, 2], list(range(0, 40, 3)), list(range(40))])
def test_the_exit_gives_scipy_s_result_wherever_x_s_entries_are(indices):
    kernel = spf.compile(SPMSPV, LAYOUTS, find="seqiter")
    A = sparse.random(60, 40, density=0.3, format="csr", random_state=len(indices))
    x = sparse_vector(40, indices)
    np.testing.assert_allclose(kernel(A=A, x=spf.pack("SV", x)), A @ x, rtol=1e-13)


def _row_loop(kernel) -> Loop:
    """The loop holding the kernel's one find."""
    (loop,) = [node for scanned in kernel.scans for node in walk(scanned.nodes)
               if isinstance(node, Loop) and any(isinstance(item, Find) for item in node.body)]
    return loop


@pytest.mark.parametrize("change", [
    {"parallel": True},  # break may not leave an OpenMP loop
    {"jam": 2},
    {"opens_group": True},  # each iteration opens an assembled output's row group
])
def test_a_loop_printed_otherwise_does_not_exit(change):
    loop = dataclasses.replace(_row_loop(spf.compile(SPMSPV, LAYOUTS, find="seqiter", build=False)), **change)
    assert exhausting_find(loop) is None


def test_another_effect_in_the_loop_or_a_range_moving_with_it_keeps_the_walk():
    loop = _row_loop(spf.compile(SPMSPV, LAYOUTS, find="seqiter", build=False))
    (find,) = [item for item in loop.body if isinstance(item, Find)]
    assert exhausting_find(loop) is find
    assert exhausting_find(dataclasses.replace(loop, body=loop.body + [find])) is None  # two finds
    moving = dataclasses.replace(find, upper=[Bound(Affine.of(loop.variable))])
    assert exhausting_find(dataclasses.replace(loop, body=[moving])) is None


def test_the_serial_dot_product_breaks_and_is_right():
    kernel = spf.compile("s = x(j) * z(j)", {"x": "SV", "z": "SV"}, find="seqiter")
    assert any(find.exit_when_exhausted for find in finds(kernel))
    x, z = sparse_vector(50, [1, 4, 9, 30]), sparse_vector(50, [4, 5, 30, 49])
    assert kernel(x=spf.pack("SV", x), z=spf.pack("SV", z)) == pytest.approx(float(x @ z), rel=1e-13)


def test_a_position_kept_per_key_is_not_exited():
    """COO's SeqIter keeps a position per row and writes it back after the find."""
    kernel = spf.compile("y(i) = A(i,j) * x(j)", {"A": "COO", "x": "SV", "y": "Dense1"}, find="seqiter",
                         build=False)
    keyed = [find for find in finds(kernel) if find.template.keyed]
    assert keyed and not any(find.exit_when_exhausted for find in keyed)


def test_an_assembled_output_s_find_exits_and_is_right():
    kernel = spf.compile("C(i,j) = A(i,j) * B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, find="seqiter")
    assert any(find.exit_when_exhausted for find in finds(kernel))
    A = sparse.random(30, 50, density=0.2, format="csr", random_state=1)
    B = sparse.random(30, 50, density=0.2, format="csr", random_state=2)
    np.testing.assert_allclose(kernel(A=A, B=B).to_dense(), A.multiply(B).toarray(), rtol=1e-13)


def _choice(kernel, A, x) -> str:
    """The template find="auto" picks for these operands."""
    fields = {"A": spf.pack("CSR", A).fields, "x": spf.pack("SV", x).fields}
    (choice,) = kernel.variant_choices[kernel.choose_variant(fields)]
    return choice.kind


def test_auto_counts_the_walk_an_exit_saves():
    """x's entries all at small indices: the SeqIter walks a sliver of each row and is
    picked; the same count of entries spread to the last column: the walk is the whole row
    and a table lookup is picked."""
    kernel = spf.compile(SPMSPV, LAYOUTS, find="auto")
    assert any(model.exits_early for model in kernel.site_models)
    A = sparse.random(400, 2000, density=0.05, format="csr", random_state=3)
    assert _choice(kernel, A, sparse_vector(2000, [2, 5])) == "seqiter"
    assert _choice(kernel, A, sparse_vector(2000, [2, 1999])) != "seqiter"
    assert np.allclose(kernel(A=A, x=spf.pack("SV", sparse_vector(2000, [2, 5]))),
                       A @ sparse_vector(2000, [2, 5]))
