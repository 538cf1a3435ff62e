"""spf.runtime.derived_fields: packing fields without the scalars the shape and the arrays'
lengths determine gives the Tensor packed with them; what nothing determines is named."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import spf

RCOO = """\
# a coordinate list whose scalars are plain counts, none defined from the shape
layout RCOO

field numRows: int
field numCols: int
field nnz: int
field row: int[nnz]
field col: int[nnz]
field val: double[nnz]

shape numRows, numCols
relation [p] -> [i, j] : 0 <= p < nnz and i = row(p) and j = col(p)
values val[p]

property range(row, 0, numRows)
property range(col, 0, numCols)
"""

MATRIX = sp.random(7, 9, density=0.3, format="csr", random_state=np.random.default_rng(3))


def arrays_of(tensor: spf.Tensor) -> dict[str, np.ndarray]:
    return {key: value for key, value in tensor.fields.items() if isinstance(value, np.ndarray)}


def scalars_of(tensor: spf.Tensor) -> dict[str, int]:
    return {key: value for key, value in tensor.fields.items() if not isinstance(value, np.ndarray)}


def test_a_user_layouts_counts_and_shape_fields_are_derived(tmp_path):
    path = tmp_path / "RCOO.layout"
    path.write_text(RCOO)
    row, col, val = np.array([0, 1, 1]), np.array([2, 0, 1]), np.array([1.0, 2.0, 3.0])
    tensor = spf.pack(str(path), {"row": row, "col": col, "val": val}, shape=(2, 3))
    assert scalars_of(tensor) == {"numRows": 2, "numCols": 3, "nnz": len(val)}
    np.testing.assert_array_equal(tensor.to_dense(), sp.coo_matrix((val, (row, col)), shape=(2, 3)).toarray())


@pytest.mark.parametrize("layout", ["CSR", "CSC", "COO", "DCSR", "BCSR(R=2, C=3)", "DIA", "ELL"])
def test_a_built_in_layouts_scalars_are_derived(layout):
    """Every scalar of the packed Tensor left out: the shape and the arrays give them back."""
    packed = spf.pack(layout, MATRIX, name="A")
    again = spf.pack(layout, arrays_of(packed), name="A", shape=MATRIX.shape)
    assert scalars_of(again) == scalars_of(packed)
    np.testing.assert_array_equal(again.to_dense(), MATRIX.toarray())


def test_without_the_shape_the_arrays_still_give_the_counts():
    packed = spf.pack("CSR", MATRIX, name="A")
    fields = {key: value for key, value in packed.fields.items() if key not in ("nnz", "numRows")}
    again = spf.pack("CSR", fields, name="A")
    assert scalars_of(again) == scalars_of(packed)


def test_a_field_nothing_determines_is_named():
    packed = spf.pack("CSR", MATRIX, name="A")
    with pytest.raises(spf.PackError, match="tensor A: field 'numCols' of CSR is missing .*give it, or the shape"):
        spf.pack("CSR", arrays_of(packed), name="A")


def test_arrays_of_different_lengths_are_refused_naming_one():
    """nnz comes from the first array declared with it; a second of another length is refused."""
    with pytest.raises(spf.PackError, match="array 'col' has 2 elements"):
        spf.pack("COO", {"row": np.array([0, 1, 1]), "col": np.array([2, 0]), "val": np.ones(3)},
                 name="A", shape=(2, 3))


def test_a_given_field_is_kept_and_checked():
    packed = spf.pack("CSR", MATRIX, name="A")
    with pytest.raises(spf.PackError, match="nnz"):
        spf.pack("CSR", {**arrays_of(packed), "nnz": packed.fields["nnz"] + 1}, name="A", shape=MATRIX.shape)
