"""Tests of the layout library: the built-in layout files, the loader and its errors."""

import importlib.util
import sys
from pathlib import Path

try:
    import spf.layout_library  # noqa: F401  (installed package)
except ImportError:  # source tree: layouts/ is spf.layout_library once pip-installed
    _folder = Path(__file__).resolve().parents[2] / "layouts"
    _spec = importlib.util.spec_from_file_location(
        "spf.layout_library", _folder / "__init__.py", submodule_search_locations=[str(_folder)])
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["spf.layout_library"] = _module
    _spec.loader.exec_module(_module)

import itertools

import numpy as np
import pytest
import scipy.sparse

from spf.errors import ArgumentError, IterationSpaceError, LayoutError, SpfError, UnknownLayoutError
from spf.layout_library import Layout, LayoutFamily, LayoutSpecError, available_layouts, load_layout, parse_layout_text
from spf.notation.value_types import value_type as named_value_type
from spf.space.expressions import And, Constraint, Not, Or, formula_calls, formula_names

BUILTIN_NAMES = [
    "BCSR", "COO", "COO3", "COO4", "COO_UNSORTED", "CSC", "CSF3", "CSF3_DENSE_LAST", "CSF4", "CSR",
    "CSR_UNSORTED", "DCSC", "DCSR", "DIA", "Dense", "Dense1", "Dense2", "Dense3", "Dense4", "ELL", "LOWER_TRI", "SV",
    "SV_DEC", "SV_UNSORTED", "WARP24",
]


# ----------------------------------------------------------------------------- built-ins

def test_available_layouts_lists_every_builtin():
    assert available_layouts() == sorted(BUILTIN_NAMES)


@pytest.mark.parametrize("name", [n for n in BUILTIN_NAMES if n != "Dense"])
def test_builtin_layout_loads_and_is_consistent(name):
    layout = load_layout(name)
    assert isinstance(layout, Layout)
    assert layout.name == name and layout.order == len(layout.logical)
    assert layout.field(layout.values_field).type == "value" and layout.generic  # the data gives the type
    assert len(layout.values_index) == len(layout.field(layout.values_field).dimensions)
    declared = set(layout.physical) | set(layout.logical) | {f.name for f in layout.scalars}
    assert formula_names(layout.relation) <= declared
    for call in formula_calls(layout.relation):
        assert len(call.arguments) == len(layout.field(call.function).dimensions)
    assert layout.relation_text().startswith("{[")
    assert str(layout).startswith(f"layout {name}")


def test_csr_fields_relation_and_properties():
    csr = load_layout("CSR")
    assert [f.name for f in csr.fields] == ["numRows", "numCols", "nnz", "rowPtr", "colIdx", "data"]
    assert [f.name for f in csr.index_arrays] == ["rowPtr", "colIdx"]
    assert [f.name for f in csr.counts] == ["nnz"]
    assert csr.physical == ("pi", "pj") and csr.logical == ("i", "j")
    assert str(csr.assumptions) == "rowPtr(0) = 0 and rowPtr(numRows) = nnz"
    assert [p.text for p in csr.properties] == [
        "monotonic(rowPtr, increasing, weak)",
        "range(rowPtr, 0, nnz + 1)",
        "range(colIdx, 0, numCols)",
        "periodic_monotonic(colIdx, rowPtr, increasing, strict)",
    ]
    periodic = csr.properties[3]
    assert (periodic.kind, periodic.arrays, periodic.period_array) == (
        "periodic_monotonic", ("colIdx",), "rowPtr")
    assert periodic.increasing and periodic.strict
    assert not csr.padded


def test_property_details_of_other_layouts():
    warp = load_layout("WARP24")
    periodic = [p for p in warp.properties if p.kind == "periodic_monotonic"][0]
    assert periodic.period == 2 and periodic.period_array is None
    assert warp.field("meta").numpy_dtype == np.uint8 and warp.field("meta").c_type == "uint8_t"
    coo = load_layout("COO")
    covarying = coo.properties[-1]
    assert covarying.kind == "covarying_monotonic" and covarying.arrays == ("row", "col")
    assert load_layout("SV_DEC").properties[1].increasing is False
    dia_range = load_layout("DIA").properties[1]
    assert str(dia_range.low) == "-numRows + 1" and str(dia_range.high) == "numCols"
    assert load_layout("COO_UNSORTED").properties[-1].arrays == ("row", "col")


# ----------------------------------------------------------------------------- parameters

def test_bcsr_parameters_are_substituted_into_the_relation():
    bcsr = load_layout("BCSR(R=2, C=3)")
    assert bcsr.parameters == {"R": 2, "C": 3}
    assert bcsr.spec == "BCSR(R=2, C=3)"
    relation = str(bcsr.relation)
    assert "i = 2*pI + pii" in relation and "3*col(pJ)" in relation
    assert "pii < 2" in relation and "pjj < 3" in relation
    assert not {"R", "C"} & formula_names(bcsr.relation)
    assert str(bcsr.field("val")) == "val: value[nnzBlocks][2][3]"


def test_parameters_from_keywords_defaults_and_loose_spacing():
    assert load_layout("BCSR", R=2, C=3).parameters == {"R": 2, "C": 3}
    assert load_layout("  BCSR ( R = 2 , C=3 ) ").spec == "BCSR(R=2, C=3)"
    assert load_layout("BCSR").parameters == {"R": 4, "C": 4}
    assert load_layout("BCSR()").spec == "BCSR(R=4, C=4)"


def test_loading_is_cached():
    assert load_layout("CSR") is load_layout("CSR")
    assert load_layout("BCSR(R=2, C=3)") is load_layout("BCSR", C=3, R=2)


# ----------------------------------------------------------------------------- arithmetic

def test_arithmetic_evaluates_on_numbers_and_numpy_arrays():
    bcsr = load_layout("BCSR(R=2, C=3)")
    assert bcsr.compute_scalars((5, 7)) == {
        "numRows": 5, "numCols": 7, "numBlockRows": 3, "numBlockCols": 3}
    triangle = load_layout("LOWER_TRI")
    index = triangle.values_index[0]
    assert str(index) == "pi * (pi + 1) / 2 + pj"
    positions = index.evaluate({"pi": np.array([0, 1, 2, 2]), "pj": np.array([0, 1, 0, 2])})
    assert positions.tolist() == [0, 2, 3, 5]
    assert str(triangle.field("val").dimensions[0]) == "N * (N + 1) / 2"


# ----------------------------------------------------------------------------- user files and families

def test_user_file_loads_by_path(tmp_path):
    path = tmp_path / "MyVec.layout"
    path.write_text(
        "# MyVec: a sparse vector with a blocking parameter\n"
        "layout MyVec\n"
        "param B = 8\n"
        "field n: int = shape[0]\n"
        "field len: int\n"
        "field idx: int[len]\n"
        "field val: float[len]\n"
        "shape n\n"
        "relation [p] -> [i] : 0 <= p < len and i = idx(p) and i < B*n\n"
        "values val[p]\n"
        "property range(idx, 0, n)\n")
    by_path = load_layout(path)
    assert isinstance(by_path, Layout) and by_path.parameters == {"B": 8}
    assert load_layout(str(path), B=2).relation == parse_layout_text(
        path.read_text(), str(path), {"B": 2}).relation
    assert "i < 2*n" not in str(by_path.relation)
    assert by_path.field("val").numpy_dtype == np.float32


def test_family_resolves_by_order():
    dense = load_layout("Dense")
    assert isinstance(dense, LayoutFamily)
    assert dense.members == ("Dense1", "Dense2", "Dense3", "Dense4")
    assert dense.resolve(2).name == "Dense2"
    assert dense.resolve(4).order == 4
    with pytest.raises(IterationSpaceError, match=r"no layout for order 5; available orders: 1 "):
        dense.resolve(5)


def test_user_family_may_name_builtins_and_neighbours(tmp_path):
    (tmp_path / "Vec.layout").write_text(
        "layout Vec\nfield n: int = shape[0]\nfield v: double[n]\nshape n\n"
        "relation [p] -> [i] : 0 <= p < n and i = p\nvalues v[p]\n")
    (tmp_path / "Mine.layout").write_text("family Mine: Vec, CSR\n")
    family = load_layout(tmp_path / "Mine.layout")
    assert family.resolve(1).name == "Vec" and family.resolve(2).name == "CSR"


# ----------------------------------------------------------------------------- relation semantics

def holds(formula, values, functions) -> bool:
    """Evaluate a formula at integer values, with index arrays as functions."""
    if isinstance(formula, Constraint):
        left = formula.left.evaluate(values, functions)
        right = formula.right.evaluate(values, functions)
        return {"=": left == right, "!=": left != right, "<": left < right,
                "<=": left <= right, ">": left > right, ">=": left >= right}[formula.op]
    if isinstance(formula, And):
        return all(holds(part, values, functions) for part in formula.parts)
    if isinstance(formula, Or):
        return any(holds(part, values, functions) for part in formula.parts)
    assert isinstance(formula, Not)
    return not holds(formula.part, values, functions)


def stored_entries(layout, arrays, scalars, physical_box, shape):
    """{logical point: value} over every physical point of the box the relation maps."""
    entries = {}
    functions = {name: array for name, array in arrays.items()}
    for physical in itertools.product(*(range(extent) for extent in physical_box)):
        for logical in itertools.product(*(range(extent) for extent in shape)):
            values = {**scalars, **dict(zip(layout.physical, physical)),
                      **dict(zip(layout.logical, logical))}
            if holds(layout.relation, values, functions):
                index = tuple(i.evaluate(values) for i in layout.values_index)
                assert logical not in entries, "two positions store one coordinate"
                entries[logical] = arrays[layout.values_field][index]
    return entries


def test_csr_relation_maps_scipy_arrays_to_the_matrix():
    matrix = scipy.sparse.random(4, 5, density=0.4, format="csr", random_state=1)
    matrix.sort_indices()
    arrays = {"rowPtr": matrix.indptr, "colIdx": matrix.indices, "data": matrix.data}
    scalars = {"numRows": 4, "numCols": 5, "nnz": matrix.nnz}
    entries = stored_entries(load_layout("CSR"), arrays, scalars, (4, matrix.nnz), (4, 5))
    dense = matrix.toarray()
    assert entries == {(i, j): dense[i, j] for i, j in zip(*dense.nonzero())}


def test_bcsr_relation_maps_scipy_bsr_arrays_to_the_matrix():
    dense = np.zeros((4, 6))
    dense[0, 4], dense[3, 1], dense[2, 0] = 1.0, 2.0, 3.0
    blocked = scipy.sparse.bsr_matrix(dense, blocksize=(2, 3))
    arrays = {"rowPtr": blocked.indptr, "col": blocked.indices, "val": blocked.data}
    scalars = {"numRows": 4, "numCols": 6, "numBlockRows": 2, "numBlockCols": 2,
               "nnzBlocks": len(blocked.indices)}
    layout = load_layout("BCSR(R=2, C=3)")
    entries = stored_entries(layout, arrays, scalars, (2, len(blocked.indices), 2, 3), (4, 6))
    stored = {point: value for point, value in entries.items() if value != 0}
    assert stored == {(0, 4): 1.0, (3, 1): 2.0, (2, 0): 3.0}
    assert all(dense[point] == value for point, value in entries.items())


# ----------------------------------------------------------------------------- malformed files

BASE = """\
# Bad: a CSR-like layout used to test error messages.
layout Bad
param R = 2
field numRows: int = shape[0]
field numCols: int = shape[1]
field nnz: int
field rowPtr: int[numRows + 1]
field colIdx: int[nnz]
field data: double[nnz]
shape numRows, numCols
relation [pi, pj] -> [i, j] :
    0 <= pi < numRows and rowPtr(pi) <= pj < rowPtr(pi + 1) and
    i = pi and j = colIdx(pj)
values data[pj]
assume rowPtr(0) = 0 and rowPtr(numRows) = nnz
property monotonic(rowPtr, increasing, weak)
property periodic_monotonic(colIdx, rowPtr, increasing, strict)
"""


def with_line(number: int, replacement: str) -> str:
    """BASE with line ``number`` (1-based) replaced; None deletes it."""
    lines = BASE.splitlines()
    lines[number - 1] = replacement
    return "\n".join(line for line in lines if line is not None) + "\n"


def without_lines(first: int, last: int) -> str:
    lines = BASE.splitlines()
    return "\n".join(lines[: first - 1] + lines[last:]) + "\n"


MALFORMED = [
    # (case, file text, line, column, expected message fragment)
    ("unknown directive", with_line(10, "shapes numRows, numCols"), 10, 1,
     "unknown directive 'shapes'; expected one of layout"),
    ("missing layout line", with_line(2, "# (no layout line)"), 3, 1,
     "expected 'layout NAME' as the first directive, found 'param'"),
    ("name differs from stem", with_line(2, "layout Good"), 2, 8,
     "layout name 'Good' differs from the file name; expected 'Bad'"),
    ("indented first line", "  layout Bad\n", 1, 3, "expected a directive at column 1"),
    ("bad default parameter", with_line(3, "param R = 0"), 3, 11,
     "expected a positive integer default for parameter R, found '0'"),
    ("duplicate field", with_line(8, "field rowPtr: int[nnz]"), 8, 7,
     "duplicate name 'rowPtr': already an array field declared on line 7"),
    ("unknown type", with_line(9, "field data: real[nnz]"), 9, 13,
     "unknown type 'real'; expected one of int, int64, uint8, double, float, value, float64, float32, int32, bool, "
     "complex128, complex64"),
    ("scalar of a float type", with_line(6, "field nnz: double"), 6, 12,
     "a scalar field holds an integer: expected int or int64"),
    ("bad length expression", with_line(7, "field rowPtr: int[numRows + ]"), 7, 29,
     "expected a number, a name, shape[k] or '(', found ']'"),
    ("unknown name in a length", with_line(8, "field colIdx: int[nnzz]"), 8, 19,
     "unknown name 'nnzz'; a length may use params and scalar fields declared above it"),
    ("shape index out of range", with_line(5, "field numCols: int = shape[2]"), 5, 22,
     "shape[2] is out of range: the shape has 2 extents"),
    ("relation syntax error on a continuation line",
     with_line(13, "    i = pi and and j = colIdx(pj)"), 13, 16,
     "expected a number, a name or a call, found 'and'"),
    ("relation written with braces", with_line(11, "relation { [pi, pj] -> [i, j] :"), 11, 10,
     "write the relation without braces"),
    ("undeclared name in relation",
     with_line(12, "    0 <= pi < numRowz and rowPtr(pi) <= pj < rowPtr(pi + 1) and"), 12, 15,
     "unknown name 'numRowz'; the relation may use its tuple variables, params and scalar fields"),
    ("position after a parameter is replaced",
     with_line(3, "param R = 12").replace("    i = pi and", "    i = R*pi + zz and"), 13, 16,
     "unknown name 'zz'"),
    ("call of a non-array", with_line(13, "    i = pi and j = nnz(pj)"), 13, 20,
     "'nnz' is a count field, not an array field"),
    ("call with the wrong number of arguments",
     with_line(13, "    i = pi and j = colIdx(pj, pi)"), 13, 20,
     "'colIdx' has 1 dimension, so a call takes 1 argument; found 2"),
    ("array used without a call", with_line(13, "    i = pi and j = colIdx"), 13, 20,
     "'colIdx' is an array field (call it as colIdx(...) with 1 argument)"),
    ("relation without a colon", with_line(11, "relation [pi, pj] -> [i, j]"), 12, 5,
     "expected ':' and the constraints, found '0'"),
    ("variable in both tuples", with_line(11, "relation [pi, pj] -> [pi, j] :"), 11, 23,
     "tuple variable 'pi' appears in both the physical and the logical tuple"),
    ("tuple size differs from shape", with_line(11, "relation [pi, pj] -> [i, j, k] :"), 11, 22,
     "the logical tuple has 3 variables but the shape has 2 extents"),
    ("tuple variable clashes with a field", with_line(11, "relation [pi, nnz] -> [i, j] :"), 11, 15,
     "tuple variable 'nnz' has the name of a count field declared on line 6"),
    ("values on an unknown field", with_line(14, "values dat[pj]"), 14, 8,
     "unknown field 'dat'; values live in an array field of a value type (double, float, value, float64, float32, "
     "int32, bool, complex128, complex64, int64)"),
    ("values with the wrong index count", with_line(14, "values data[pj][pi]"), 14, 8,
     "'data' has 1 dimension (data: double[nnz]); expected 1 [index] after it, found 2"),
    ("values in an integer array", with_line(14, "values colIdx[pj]"), 14, 8,
     "'colIdx' is an int array; values live in an array field of a value type (double, float, value, float64, "
     "float32, int32, bool, complex128, complex64, int64)"),
    ("values indexed by a logical variable", with_line(14, "values data[i]"), 14, 13,
     "'i' is a logical variable; a values index may use physical variables"),
    ("assumption over a tuple variable", with_line(15, "assume rowPtr(0) = pi"), 15, 20,
     "'pi' is a physical variable; an assumption may use params"),
    ("missing relation", without_lines(11, 13), 2, 1,
     "layout Bad has no 'relation' directive; expected 'relation [physical, ...] -> "
     "[logical, ...] : constraints'"),
    ("duplicate shape", with_line(14, "shape numRows"), 14, 1,
     "duplicate 'shape' directive; the first is on line 10"),
    ("unknown property kind", with_line(16, "property sorted(rowPtr)"), 16, 10,
     "unknown property kind 'sorted'; expected one of range, injective, monotonic"),
    ("property on an unknown array",
     with_line(16, "property monotonic(rowPointer, increasing, weak)"), 16, 20,
     "unknown array 'rowPointer'; expected an integer array field (one of rowPtr, colIdx)"),
    ("property on a double array", with_line(16, "property monotonic(data)"), 16, 20,
     "'data' is a double array; properties apply to integer index arrays"),
    ("bad flag", with_line(16, "property monotonic(rowPtr, increasing, loose)"), 16, 40,
     "unknown flag 'loose'; expected increasing, decreasing, strict or weak"),
    ("contradictory flags", with_line(16, "property monotonic(rowPtr, increasing, decreasing)"),
     16, 40, "contradictory flags 'increasing' and 'decreasing'"),
    ("range with too few arguments", with_line(16, "property range(colIdx, 0)"), 16, 10,
     "range takes 3 arguments, found 2: expected range(ARRAY, LOW, HIGH)"),
    ("range bound calling an array", with_line(16, "property range(colIdx, 0, rowPtr(1))"),
     16, 27, "a range bound cannot call 'rowPtr'"),
    ("zero period", with_line(17, "property periodic_monotonic(colIdx, R - 2)"), 17, 37,
     "a period must be a positive integer"),
]


@pytest.mark.parametrize("text, line, column, message",
                         [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_malformed_layout_file_reports_line_column_and_expectation(
        tmp_path, text, line, column, message):
    path = tmp_path / "Bad.layout"
    path.write_text(text)
    with pytest.raises(LayoutError) as caught:
        load_layout(path)
    error = caught.value
    assert message in error.message
    assert (error.line, error.column) == (line, column), error.message
    assert error.path == str(path.resolve())
    assert str(error).startswith(f"{path.resolve()}:{line}:{column}: ")


def test_the_base_of_the_malformed_files_is_valid():
    layout = parse_layout_text(BASE, "Bad.layout")
    assert layout.name == "Bad" and layout.parameters == {"R": 2}


def test_malformed_family_file(tmp_path):
    path = tmp_path / "Fam.layout"
    path.write_text("family Fam: Dense1, Dense9\n")
    with pytest.raises(LayoutError) as caught:
        load_layout(path)
    assert (caught.value.line, caught.value.column) == (1, 21)
    assert "unknown layout 'Dense9' in family Fam" in caught.value.message


def test_empty_text_is_an_error():
    with pytest.raises(LayoutError, match="empty layout file"):
        parse_layout_text("# nothing here\n")


# ----------------------------------------------------------------------------- bad specs

@pytest.mark.parametrize("spec, parameters, error_type, message", [
    ("BCSR(R=0)", {}, LayoutSpecError, "parameter R must be a positive integer, got 0"),
    ("BCSR(R=two)", {}, LayoutSpecError, "parameter R must be a positive integer, got 'two'"),
    ("BCSR(Q=2)", {}, LayoutSpecError, "layout BCSR has no parameter 'Q'; its parameters are R, C"),
    ("CSR(R=2)", {}, LayoutSpecError, "layout CSR has no parameter 'R'; it takes no parameters"),
    ("BCSR(R=2", {}, LayoutSpecError, "malformed layout spec 'BCSR(R=2'"),
    ("BCSR(R=2, R=3)", {}, LayoutSpecError, "gives parameter R twice"),
    ("BCSR(R=2)", {"R": 3}, LayoutSpecError, "parameter R is 2 in 'BCSR(R=2)' but 3"),
    ("BCSR", {"R": 2.5}, LayoutSpecError, "parameter R must be a positive integer, got 2.5"),
    ("NOPE", {}, UnknownLayoutError, "unknown layout 'NOPE'; available layouts: BCSR, COO"),
    ("CRS", {}, UnknownLayoutError, "did you mean CSR?"),
    ("csr", {}, UnknownLayoutError, "unknown layout 'csr' (did you mean CSR?)"),
    ("dense2", {}, UnknownLayoutError, "did you mean Dense2?"),
    ("missing/File.layout", {}, UnknownLayoutError, "no layout file at 'missing/File.layout'"),
])
def test_bad_spec_raises_a_clear_spf_error(spec, parameters, error_type, message):
    with pytest.raises(error_type) as caught:
        load_layout(spec, **parameters)
    assert isinstance(caught.value, SpfError)
    assert message in str(caught.value)


def test_an_unknown_field_is_an_argument_error_naming_the_fields():
    csr = load_layout("CSR")
    with pytest.raises(ArgumentError, match="has no field 'nope'"):
        csr.field("nope")


@pytest.mark.parametrize("declared, value_type", [("double", "float64"), ("float", "float32"), ("int64", "int64"),
                                                  ("int32", "int32"), ("bool", "bool"), ("value", "float64")])
def test_a_values_field_declares_its_value_type(declared, value_type):
    """Any value type may hold values; an integer values field is values, not an index array,
    and ``value`` leaves the type to the data (float64 until specialised)."""
    layout = parse_layout_text(BASE.replace("field data: double[nnz]", f"field data: {declared}[nnz]"), "Bad.layout")
    assert layout.value_type.name == value_type
    assert [f.name for f in layout.index_arrays] == ["rowPtr", "colIdx"]
    assert layout.generic == (declared == "value")
    if layout.generic:
        float32 = layout.with_value_type(named_value_type("float32"))
        assert float32.value_type.name == "float32" and float32 != layout and not float32.unspecialised
        assert float32.field("data").numpy_dtype == np.float32


def test_the_relations_index_array_cannot_hold_the_values(tmp_path):
    path = tmp_path / "Bad.layout"
    path.write_text(BASE.replace("values data[pj]", "values colIdx[pj]"))
    with pytest.raises(LayoutError, match="'colIdx' is an int array; values live in an array field of a value type"):
        load_layout(path)
    text = BASE.replace("field colIdx: int[nnz]", "field colIdx: int64[nnz]").replace("values data[pj]",
                                                                                       "values colIdx[pj]")
    path.write_text(text)
    with pytest.raises(LayoutError, match="'colIdx' is an index array the relation calls"):
        load_layout(path)
