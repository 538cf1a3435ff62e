"""Packing by generated assembly (spf/runtime/assemble.py; the plans are tested in test_assembly.py).

Every layout the assembly plans is built from coordinates in random order, with
duplicates, empty rows, empty and one-entry tensors, and compared field by field with
the reference Python packer; the result must also pass the full check of
``spf.validate`` (the assembly claims validity by construction).  Refusals name the
level or the entry.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import spf
from conftest import REAL_MATRICES, REAL_TENSORS, data_available, load_matrix, load_tensor
from spf.runtime.assemble import assemble, builder, has_assembly
import spf.runtime.conversion
from spf.codegen.assembly.plan import plan_assembly
from spf.runtime.packing import reference_pack
from spf.runtime.validation import validate

EXAMPLES = "examples/layouts"
MATRIX_LAYOUTS = ["COO", "COO_UNSORTED", "CSR", "CSR_UNSORTED", "CSC", "DCSR", "DCSC", "DIA", "Dense2",
                  "BCSR(R=2, C=2)", "BCSR(R=4, C=4)", "BCSR(R=3, C=1)"]
VECTOR_LAYOUTS = ["SV", "SV_DEC", "SV_UNSORTED", "Dense1"]
TENSOR3_LAYOUTS = ["CSF3", "CSF3_DENSE_LAST", "COO3", "Dense3"]
TENSOR4_LAYOUTS = ["CSF4", "COO4", "Dense4"]


def _layout(name):
    layout = spf.load_layout(name)
    return layout


def assert_same_as_reference(layout_name, coords, values, shape, duplicates="sum", dtype=np.int64):
    """``dtype``: the coordinate columns' (int32: the builder reading scipy's index arrays as
    they are, without widening them)."""
    layout = _layout(layout_name)
    columns = [np.ascontiguousarray(coords[:, k], dtype=dtype) for k in range(len(shape))]
    got = assemble(layout, columns, values, shape, "T", duplicates=duplicates)
    expected = reference_pack(layout, coords, values, shape, "T", duplicates=duplicates)
    assert got.layout == expected.layout and got.shape == expected.shape
    for field in expected.fields:
        np.testing.assert_array_equal(np.asarray(got.fields[field]), np.asarray(expected.fields[field]),
                                      err_msg=f"{layout_name}: field {field}")
        if isinstance(expected.fields[field], np.ndarray):
            assert got.fields[field].dtype == expected.fields[field].dtype, field
    validate(layout, dict(got.fields), "T", shape)  # the assembly's claim: valid by construction
    return got


def _random_entries(rng, shape, count, duplicates=True):
    coords = np.stack([rng.integers(0, max(s, 1), count) for s in shape], axis=1).astype(np.int64) \
        if count and all(shape) else np.zeros((0, len(shape)), dtype=np.int64)
    if not duplicates and len(coords):
        coords = np.unique(coords, axis=0)
        coords = coords[rng.permutation(len(coords))]
    return coords, rng.standard_normal(len(coords))


# ----------------------------------------------------------------------------- against the reference


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("layout", MATRIX_LAYOUTS)
def test_matrix_layouts_match_the_reference_packer(layout, dtype):
    rng = np.random.default_rng(7)
    for shape, count in [((37, 23), 200), ((1, 1), 1), ((5, 9), 0), ((0, 4), 0), ((64, 64), 1500)]:
        coords, values = _random_entries(rng, shape, count)
        assert_same_as_reference(layout, coords, values, shape, dtype=dtype)


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("layout", VECTOR_LAYOUTS)
def test_vector_layouts_match_the_reference_packer(layout, dtype):
    rng = np.random.default_rng(8)
    for shape, count in [((50,), 30), ((1,), 1), ((7,), 0)]:
        coords, values = _random_entries(rng, shape, count)
        assert_same_as_reference(layout, coords, values, shape, dtype=dtype)


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("layout", TENSOR3_LAYOUTS + TENSOR4_LAYOUTS + [f"{EXAMPLES}/COO3_UNSORTED.layout"])
def test_higher_order_layouts_match_the_reference_packer(layout, dtype):
    rng = np.random.default_rng(9)
    order = 4 if layout in TENSOR4_LAYOUTS else 3
    for shape, count in [((6, 5, 4, 3)[:order], 80), ((1,) * order, 1), ((3,) * order, 0)]:
        coords, values = _random_entries(rng, shape, count)
        assert_same_as_reference(layout, coords, values, shape, dtype=dtype)


def test_lower_triangular_holds_the_lower_triangle_and_refuses_an_entry_above_it():
    rng = np.random.default_rng(10)
    coords, values = _random_entries(rng, (20, 20), 90)
    lower = coords[coords[:, 1] <= coords[:, 0]]
    assert_same_as_reference("LOWER_TRI", lower, values[:len(lower)], (20, 20))
    with pytest.raises(spf.PackError, match=r"entry \(2, 5\) cannot be stored \(pj <= pi"):
        assemble(_layout("LOWER_TRI"), [np.array([1, 2]), np.array([0, 5])], np.ones(2), (20, 20), "T")


def test_duplicates_are_summed_or_refused():
    columns = [np.array([2, 0, 2, 1]), np.array([1, 0, 1, 1])]
    summed = assemble(_layout("CSR"), columns, np.array([1.0, 2.0, 3.0, 4.0]), (3, 2), "T")
    np.testing.assert_array_equal(summed.to_dense(), [[2, 0], [0, 4], [0, 4]])
    with pytest.raises(spf.PackError, match=r"coordinate \(2, 1\) appears more than once"):
        assemble(_layout("CSR"), columns, np.ones(4), (3, 2), "T", duplicates="refuse")
    with pytest.raises(spf.PackError, match="appears more than once"):
        spf.pack("CSR", (np.array([[2, 1], [2, 1]]), np.ones(2), (3, 2)))


def test_orders_sorted_unsorted_and_beyond_a_counting_range():
    """Already sorted (no move), unsorted rows (counting sort, then groups merge-sorted),
    and first keys spread wider than a counting array (one merge sort of everything)."""
    rng = np.random.default_rng(11)
    coords, values = _random_entries(rng, (300, 300), 3000, duplicates=False)
    ordered = np.lexsort(coords.T[::-1])
    assert_same_as_reference("CSR", coords[ordered], values[ordered], (300, 300))
    assert_same_as_reference("CSR", coords, values, (300, 300))
    assert_same_as_reference("CSC", coords[ordered], values[ordered], (300, 300))
    wide = (10**8, 10**8)
    coords = rng.integers(0, 10**8, (500, 2)).astype(np.int64)
    got = assemble(_layout("COO"), [coords[:, 0].copy(), coords[:, 1].copy()], np.arange(500.0), wide, "T")
    order = np.lexsort(coords.T[::-1])
    np.testing.assert_array_equal(got.fields["row"], coords[order, 0])
    np.testing.assert_array_equal(got.fields["col"], coords[order, 1])
    np.testing.assert_array_equal(got.fields["val"], np.arange(500.0)[order])


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("layout", ["CSR", "CSC", "CSR_UNSORTED"])
def test_rows_come_from_one_counting_sort_and_become_the_arrays(layout, dtype):
    """A layout of one dense and one compressed level: a counting sort on the outer
    coordinate puts the entries in their segments, segments out of order are sorted and
    their duplicates summed, and the kernel's arrays become the Tensor's (no copy).  A
    dense level far longer than the entries takes the general path."""
    rng = np.random.default_rng(12)
    coords, values = _random_entries(rng, (200, 150), 4000)  # duplicates, rows in any order
    got = assert_same_as_reference(layout, coords, values, (200, 150), dtype=dtype)
    owner = got.fields["data"]
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    assert owner.base is not None and not isinstance(owner.base, np.ndarray)  # the kernel's malloc'd memory
    zeros = assemble(_layout(layout), [np.array([1, 1, 0]), np.array([2, 2, 0])], np.array([1.0, -1.0, 0.0]),
                     (3, 3), "T")
    assert zeros.fields["nnz"] == 2 and list(zeros.fields["data"]) == [0.0, 0.0]  # packing keeps zeros
    tall = (10**7, 5) if layout != "CSC" else (5, 10**7)
    few = np.array([[4, 1], [2, 3], [4, 0]]) if layout != "CSC" else np.array([[1, 4], [3, 2], [0, 4]])
    assert_same_as_reference(layout, few, np.array([1.0, 2.0, 3.0]), tall, dtype=dtype)  # (the sort path)


def test_strided_coordinate_columns_are_read_in_place():
    rng = np.random.default_rng(12)
    coords, values = _random_entries(rng, (40, 30), 300, duplicates=False)
    got = assemble(_layout("DCSR"), [coords[:, 0], coords[:, 1]], values, (40, 30), "T")  # views, stride 2
    np.testing.assert_array_equal(got.to_dense(), sp.coo_matrix((values, tuple(coords.T)), (40, 30)).toarray())


@settings(max_examples=60)
@given(st.sampled_from(MATRIX_LAYOUTS + ["LOWER_TRI"]), st.integers(0, 12), st.integers(1, 12),
       st.integers(0, 60), st.integers(0, 2**32), st.sampled_from([np.int64, np.int32]))
def test_hypothesis_matrices(layout, rows, columns, count, seed, dtype):
    if layout == "LOWER_TRI":
        columns = rows
    rng = np.random.default_rng(seed)
    coords, values = _random_entries(rng, (rows, columns), count)
    if layout == "LOWER_TRI":
        keep = coords[:, 1] <= coords[:, 0]
        coords, values = coords[keep], values[keep]
    assert_same_as_reference(layout, coords, values, (rows, columns), dtype=dtype)


def test_scipys_int32_coordinates_are_read_as_they_are():
    """pack reads a scipy matrix's int32 index arrays through the builder compiled for
    int32 columns (no widened copies), duplicates summed as scipy sums them."""
    from spf.runtime import assemble as assembling
    rng = np.random.default_rng(13)
    rows, cols = rng.integers(0, 90, 2000).astype(np.int32), rng.integers(0, 70, 2000).astype(np.int32)
    matrix = sp.coo_matrix((rng.standard_normal(2000), (rows, cols)), shape=(90, 70))
    assert matrix.row.dtype == np.int32
    for layout in ("CSR", "DCSR", "BCSR(R=2, C=3)", "COO"):
        assembling.ASSEMBLY_CACHE.builders.clear()
        packed = spf.pack(layout, matrix, name="A", copy=True)
        np.testing.assert_allclose(packed.to_dense(), matrix.toarray(), rtol=1e-12, atol=1e-12)
        validate(packed.layout, dict(packed.fields), "A", (90, 70))
        assert [key[-1] for key in assembling.ASSEMBLY_CACHE.builders] == [True], layout  # the int32 builder alone


def test_pack_goes_through_assembly_and_scipy_duplicates_are_summed():
    matrix = sp.coo_matrix((np.array([1.0, 2.0, 5.0]), (np.array([0, 0, 2]), np.array([1, 1, 0]))), shape=(3, 3))
    packed = spf.pack("CSR", matrix)
    np.testing.assert_array_equal(packed.fields["colIdx"], [1, 0])
    np.testing.assert_array_equal(packed.fields["data"], [3.0, 5.0])
    np.testing.assert_array_equal(packed.fields["rowPtr"], [0, 1, 1, 2])


@pytest.mark.parametrize("order", [3, 4])
def test_coordinate_lists_of_order_3_and_4_pack_by_generated_code(order, monkeypatch):
    """spf.pack("COO3", data) is built by the assembly, never by the Python packer."""
    layout = _layout(f"COO{order}")
    assert has_assembly(layout)
    assert [level.kind for level in plan_assembly(layout).levels] == ["compressed"]
    monkeypatch.setattr(spf.runtime.packing, "reference_pack", lambda *args, **kwargs: pytest.fail("Python packer used"))
    coords, values = _random_entries(np.random.default_rng(13), (7, 6, 5, 4)[:order], 120, duplicates=False)
    packed = spf.pack(f"COO{order}", (coords, values, (7, 6, 5, 4)[:order]))
    ordered = np.lexsort(coords.T[::-1])
    for mode in range(order):
        np.testing.assert_array_equal(packed.fields[f"idx{mode}"], coords[ordered, mode])
    np.testing.assert_array_equal(packed.fields["val"], values[ordered])


def test_builders_are_compiled_once_per_layout():
    first = builder(_layout("CSR"))
    assert builder(_layout("CSR")) is first


# ----------------------------------------------------------------------------- conversion kernels


def _same_csc(tensor, matrix):
    got, want = tensor.to_scipy(), sp.csc_matrix(matrix)
    assert np.array_equal(got.indptr, want.indptr) and np.array_equal(got.indices, want.indices)
    assert np.array_equal(got.data, want.data)


def test_a_conversion_kernel_is_compiled_once_and_reused(monkeypatch):
    """spf.convert keeps each pair's kernel in the process: a second call, another Tensor
    in the same layout, an equal layout given as an object, and a new name all reuse it."""
    first = sp.random(30, 20, density=0.2, format="csr", random_state=1)
    second = sp.random(30, 25, density=0.3, format="csr", random_state=2)
    _same_csc(spf.convert(spf.pack("CSR", first, "A"), "CSC"), first)  # compiles (or loads) the kernel
    def no_compile(*args, **kwargs):
        raise AssertionError("a conversion kernel was compiled again")

    monkeypatch.setattr(spf.runtime.conversion, "callable_kernel", no_compile)
    for matrix, name in [(first, "A"), (second, "B"), (first, "C")]:
        tensor = spf.pack("CSR", matrix, name)
        converted = spf.convert(tensor, "CSC")
        assert converted.name == name and converted.layout.spec == "CSC" and converted.shape == matrix.shape
        _same_csc(converted, matrix)
        _same_csc(spf.convert(tensor, spf.load_layout("CSC"), name="D"), matrix)
        assert spf.convert(tensor, "CSC", name="E").name == "E"
    again = spf.convert(spf.pack("CSR", first), "CSC")
    assert not again.fields["data"].flags.writeable  # handed over: read-only for good
    with pytest.raises(ValueError):
        again.fields["data"].flags.writeable = True


def test_a_cached_conversion_still_refuses_bad_input():
    tensor = spf.pack("CSR", sp.eye(4, format="csr"), "M")
    spf.convert(tensor, "CSC")  # the pair's kernel is known from here on
    broken = sp.csr_matrix(sp.eye(4))
    broken.indices[2] = 9  # a column outside the shape
    with pytest.raises(spf.SpfError):
        spf.convert(broken, "CSC")
    with pytest.raises(spf.PackError, match="order-3"):
        spf.convert(tensor, "CSF3")
    with pytest.raises(spf.UnknownLayoutError):
        spf.convert(tensor, "NO_SUCH_LAYOUT")
    with pytest.raises(spf.ArgumentError, match="name"):
        spf.convert(tensor, "CSC", name="")
    _same_csc(spf.convert(tensor, "CSC"), sp.eye(4))


# ----------------------------------------------------------------------------- real data


@pytest.mark.skipif(not data_available(), reason="../shared/data is not beside the project")
@pytest.mark.parametrize("matrix", REAL_MATRICES)
def test_real_matrices_match_the_reference_packer(matrix):
    A = load_matrix(matrix).tocoo()
    coords = np.stack([A.row, A.col], axis=1).astype(np.int64)
    for layout in ["CSR", "CSC", "DCSR", "COO", "BCSR(R=4, C=4)"]:
        assert_same_as_reference(layout, coords, A.data.astype(np.float64), A.shape)


@pytest.mark.skipif(not data_available(), reason="../shared/data is not beside the project")
@pytest.mark.parametrize("tensor", REAL_TENSORS)
def test_real_tensors_match_the_reference_packer(tensor):
    coords, values, shape = load_tensor(tensor)
    for layout in (TENSOR3_LAYOUTS[:-1] if len(shape) == 3 else TENSOR4_LAYOUTS[:-1]):  # all but Dense
        assert_same_as_reference(layout, coords, values, shape)


@pytest.mark.parametrize("spec", MATRIX_LAYOUTS + VECTOR_LAYOUTS + TENSOR3_LAYOUTS + TENSOR4_LAYOUTS +
                         ["ELL", "WARP24", "LOWER_TRI"])
def test_a_handed_over_struct_is_read_as_ctypes_reads_it(spec):
    """take() reads a kernel's output struct in one unpack: every scalar and address it
    reads equals the member ctypes gives, and each array's length its dimensions give."""
    import ctypes

    from spf.runtime.assemble import _field_value, take_plan
    from spf.codegen.c.structs import ctypes_struct
    from spf.layout_library.layout_input import load_layout_argument, resolve_family

    base = load_layout_argument(spec)
    layout = resolve_family(base, base.order if base.order is not None else 2)
    struct_type = ctypes_struct(layout)
    struct = struct_type()
    rng = np.random.default_rng(len(spec))
    for name, kind in struct_type._fields_:
        if issubclass(kind, ctypes._Pointer):
            setattr(struct, name, ctypes.cast(ctypes.c_void_p(int(rng.integers(1, 2**40)) * 8), kind))
        else:
            setattr(struct, name, int(rng.integers(0, 1000)))
    plan = take_plan(layout, struct_type)
    assert type(getattr(plan.unpack, "__self__", None)).__name__ == "Struct"  # one unpack, not ctypes per member
    values = plan.unpack(struct)
    names = plan.scalars + tuple(field for field, *_ in plan.arrays)
    assert values == tuple(_field_value(struct, name) for name in names)
    scalars = dict(zip(plan.scalars, values))
    for field, _, length, _, _ in plan.arrays:
        dimensions = next(f.dimensions for f in layout.fields if f.name == field)
        assert length(scalars) == int(np.prod([int(d.evaluate(scalars)) for d in dimensions]))


def test_a_struct_with_other_members_is_read_member_by_member():
    import ctypes

    from spf.runtime.assemble import _struct_reader

    class Odd(ctypes.Structure):
        _fields_ = [("n", ctypes.c_int), ("scale", ctypes.c_double), ("idx", ctypes.POINTER(ctypes.c_int))]

    odd = Odd(7, 0.5, ctypes.cast(ctypes.c_void_p(4096), ctypes.POINTER(ctypes.c_int)))
    assert _struct_reader(Odd, ("n", "idx"))(odd) == (7, 4096)
    assert _struct_reader(Odd, ("idx", "n"))(odd) == (4096, 7)  # members out of offset order


def assert_kept_struct_is_the_tensors(tensor):
    """The struct a Tensor made by assembly keeps is the one marshalling its fields gives (each
    scalar, each array's address), and it keeps those arrays alive without the Tensor."""
    import ctypes
    import gc

    from spf.codegen.c.structs import marshal, struct_name
    from spf.runtime.tensor import Tensor

    kept, alive = tensor._structs[struct_name(tensor.layout)]
    fresh, _ = marshal(Tensor._from_handed_over(tensor.layout, tensor.shape, tensor.fields, tensor.name))
    expected = {}
    for name, kind in type(kept)._fields_:
        value, other = getattr(kept, name), getattr(fresh, name)
        if issubclass(kind, ctypes._Pointer):
            value, other = ctypes.cast(value, ctypes.c_void_p).value, ctypes.cast(other, ctypes.c_void_p).value
        assert value == other, name
        expected[name] = value
    arrays = [np.array(a, copy=True) for a in alive]
    del tensor, fresh
    gc.collect()
    assert {a.ctypes.data for a in alive} >= {v for n, v in expected.items()
                                              if issubclass(dict(type(kept)._fields_)[n], ctypes._Pointer)}
    for before, after in zip(arrays, alive):
        np.testing.assert_array_equal(before, after)


@pytest.mark.parametrize("layout", MATRIX_LAYOUTS[:-4] + VECTOR_LAYOUTS[:-1] + TENSOR3_LAYOUTS[:-1])
def test_a_packed_tensor_keeps_the_struct_assembly_filled(layout):
    """pack's result is read by a kernel through the struct the builder filled (no marshalling)."""
    rng = np.random.default_rng(len(layout))
    order = 1 if layout in VECTOR_LAYOUTS else 3 if layout in TENSOR3_LAYOUTS else 2
    dense = rng.random((5,) * order) * (rng.random((5,) * order) < 0.4)
    assert_kept_struct_is_the_tensors(spf.pack(layout, dense))


@pytest.mark.parametrize("output", ["CSR", "SV_output"])
def test_a_kernel_result_keeps_its_struct_and_feeds_the_next_call(output):
    """A sparse result (rows handed over by NAME_take for CSR; a workspace flushed into the
    builder for a vector) keeps its output struct; passed on as an input, it reads the same."""
    rng = np.random.default_rng(3)
    A = sp.random(40, 40, density=0.1, format="csr", random_state=4)
    if output == "CSR":
        k = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"})
        first = k(A=A, B=A)
        assert_kept_struct_is_the_tensors(first)
        second = k(A=first, B=A)
        np.testing.assert_allclose(second.to_dense(), (A @ A @ A).toarray(), rtol=1e-12)
        return
    k = spf.compile("y(j) = x(i) * A(i,j)", {"x": "SV", "A": "CSR", "y": "SV"})
    x = spf.pack("SV", np.where(rng.random(40) < 0.2, rng.random(40), 0))
    first = k(x=x, A=A)
    assert_kept_struct_is_the_tensors(first)
    second = k(x=first, A=A)
    np.testing.assert_allclose(second.to_dense(), A.T @ (A.T @ x.to_dense()), rtol=1e-12)


def test_a_bound_kernels_results_keep_structs_of_their_own():
    """A bound kernel's calls assemble into one output struct: each result keeps a copy."""
    A = sp.random(30, 30, density=0.2, format="csr", random_state=6)
    bound = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}).bind(A=A, B=A)
    first, second = bound(), bound()
    assert_kept_struct_is_the_tensors(first)
    assert_kept_struct_is_the_tensors(second)
