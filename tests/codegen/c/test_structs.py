"""A dense layout's struct packed as bytes (spf.codegen.c.structs.DenseBytes) is the ctypes struct's bytes."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from spf.codegen.c.structs import dense_bytes, dense_plan, planned_dense_struct
from spf.layout_library import load_layout
from permuted_layouts import permuted_layout_file  # tests/ is on the path (pytest's rootdir)

def _permuted(tmp_path: Path, name: str, first: str = "int", after: str = "") -> object:
    return load_layout(str(permuted_layout_file(tmp_path, name, first, after)))


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (1, 2, 3, 2), (0, 4)])
def test_the_bytes_of_a_library_dense_layout_are_its_structs(shape):
    layout = load_layout(f"Dense{len(shape)}")
    values = np.random.default_rng(1).random(shape)
    plan = dense_plan(layout)
    assert dense_bytes(plan).of(values) == bytes(planned_dense_struct(plan, values))


@pytest.mark.parametrize("first, after", [
    ("int", ""),  # extents in the other order
    ("int64", ""),  # an 8-byte extent before a 4-byte one: padding before the pointer
    ("int", "field M: int = shape[0]"),  # a scalar after the values pointer
])
def test_the_bytes_follow_the_struct_s_fields_and_padding(tmp_path, first, after):
    layout = _permuted(tmp_path, f"Permuted{len(after)}{first}", first, after)
    plan = dense_plan(layout)
    packed = dense_bytes(plan)
    values = np.random.default_rng(2).random((3, 5))
    assert packed.of(values) == bytes(planned_dense_struct(plan, values))
    assert packed.axes is not None  # not the array's axis order


def test_a_read_only_array_is_packed_at_its_own_address():
    values = np.arange(6.0).reshape(2, 3)
    values.flags.writeable = False
    plan = dense_plan(load_layout("Dense2"))
    assert dense_bytes(plan).of(values) == bytes(planned_dense_struct(plan, values))
    assert values.ctypes.data.to_bytes(8, sys.byteorder) in dense_bytes(plan).of(values)


def test_a_layout_that_is_not_dense_has_no_bytes():
    assert dense_bytes(dense_plan(load_layout("CSR"))) is None


def _bytes_from_spec(spec: tuple, values: np.ndarray) -> bytes:
    """What spf/runtime/short_call.c writes from a DenseBytes.spec."""
    size, pointer_at, extents = spec
    written = bytearray(size)
    written[pointer_at:pointer_at + 8] = values.ctypes.data.to_bytes(8, sys.byteorder)
    for offset, width, axis in extents:
        written[offset:offset + width] = values.shape[axis].to_bytes(width, sys.byteorder)
    return bytes(written)


@pytest.mark.parametrize("first", ["int", "int64"])
def test_the_spec_for_the_c_short_call_writes_the_same_struct(tmp_path, first):
    plans = [dense_plan(_permuted(tmp_path, f"Spec{first}", first))] + [
        dense_plan(load_layout(f"Dense{order}")) for order in (1, 2, 3)]
    for plan in plans:
        order = len(plan[1])
        values = np.random.default_rng(3).random((3, 5, 2)[:order])
        assert _bytes_from_spec(dense_bytes(plan).spec, values) == bytes(planned_dense_struct(plan, values))
