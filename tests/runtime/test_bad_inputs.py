"""Malformed inputs of every kind: layout files, API arguments, data, command lines.

Each case must be refused with an :class:`spf.SpfError` (or subclass) whose message
names the problem (a substring a generic message would not contain), and must change
nothing: the inputs it was given are the same afterwards.  The command line prints
exactly one ``spf: error:`` line and no traceback.  The last tests run sequences of
public calls that used to crash the interpreter in a subprocess, where a crash cannot
take pytest down with it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sparse

import spf
from spf.cli.commands import main

EXAMPLE_LAYOUTS = Path(__file__).resolve().parents[2] / "examples" / "layouts"

# ----------------------------------------------------------------------------- helpers


def snapshot(value):
    """A deep copy of ``value`` for :func:`assert_unchanged` (arrays, scipy matrices, containers)."""
    if isinstance(value, np.ndarray):
        return ("array", value.copy(), value.dtype, value.flags.writeable)
    if sparse.issparse(value):
        return ("sparse", value.copy(), value.format, value.dtype)
    if isinstance(value, dict):
        return ("dict", {key: snapshot(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [snapshot(item) for item in value])
    return ("value", value)


def assert_unchanged(before, value, where: str = "input") -> None:
    kind = before[0]
    if kind == "array":
        _, array, dtype, writeable = before
        assert isinstance(value, np.ndarray) and value.dtype == dtype and value.flags.writeable == writeable, where
        equal_nan = dtype.kind in "fc"
        assert np.array_equal(value, array, equal_nan=equal_nan), f"{where} was modified"
    elif kind == "sparse":
        _, matrix, layout, dtype = before
        assert value.format == layout and value.dtype == dtype, where
        assert value.shape == matrix.shape and (value != matrix).nnz == 0, f"{where} was modified"
    elif kind == "dict":
        assert isinstance(value, dict) and set(value) == set(before[1]), f"{where}: keys changed"
        for key, item in before[1].items():
            assert_unchanged(item, value[key], f"{where}[{key!r}]")
    elif kind in ("list", "tuple"):
        assert type(value).__name__ == kind and len(value) == len(before[1]), where
        for number, (item_before, item) in enumerate(zip(before[1], value)):
            assert_unchanged(item_before, item, f"{where}[{number}]")
    else:
        assert value is before[1] or value == before[1], f"{where} changed"


def refuse(call, words: str, error: type = spf.SpfError):
    """Run ``call``; it must raise ``error`` (an SpfError) whose message contains ``words``."""
    assert issubclass(error, spf.SpfError)
    with pytest.raises(error) as caught:
        call()
    message = str(caught.value)
    assert words in message, message
    return caught.value


# ----------------------------------------------------------------------------- data the cases use

MATRIX = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0], [4.0, 0.0, 0.0]])


@dataclass
class Inputs:
    """Every object a case is given; all of them are compared before and after each case."""

    A: sparse.csr_matrix
    A_complex: sparse.csr_matrix
    x: np.ndarray
    x_complex: np.ndarray
    x_objects: np.ndarray
    x_strings: np.ndarray
    x_wrong_size: np.ndarray
    x_big_integers: np.ndarray
    coords: np.ndarray
    values: np.ndarray
    csr_fields: dict
    sv_fields: dict
    layouts: dict

    def watched(self) -> dict:
        return dict(vars(self))


def inputs() -> Inputs:
    csr = sparse.csr_matrix(MATRIX)
    return Inputs(
        A=csr, A_complex=csr.astype(np.clongdouble) * (1 + 1j),  # complex256: no value type of spf's
        x=np.array([1.0, 2.0, 3.0]), x_complex=np.array([1 + 1j, 2, 3], dtype=np.clongdouble),
        x_objects=np.array([object(), 1, 2], dtype=object), x_strings=np.array(["1", "2", "3"]),
        x_wrong_size=np.ones(4), x_big_integers=np.array([2**60 + 1, 0, 0], dtype=np.int64),
        coords=np.array([[0, 0], [1, 2]]), values=np.array([1.0, 2.0]),
        csr_fields={"numRows": 3, "numCols": 3, "nnz": 4, "rowPtr": np.array([0, 2, 3, 4], dtype=np.int32),
                    "colIdx": np.array([0, 2, 2, 0], dtype=np.int32), "data": np.array([1.0, 2.0, 3.0, 4.0])},
        sv_fields={"n": 5, "len": 3, "idx": np.array([1, 3, 4]), "val": np.array([1.0, 2.0, 3.0])},
        layouts={"A": "CSR", "x": "Dense", "y": "Dense"})


def with_arrays(matrix, **arrays):
    """A copy of the scipy matrix with arrays replaced after construction (scipy checks them only then)."""
    matrix = matrix.copy()
    for attribute, value in arrays.items():
        setattr(matrix, attribute, value)
    return matrix


def changed(fields: dict, **changes) -> dict:
    """A copy of ``fields`` with ``changes`` (None removes a field)."""
    copy = {key: value.copy() if isinstance(value, np.ndarray) else value for key, value in fields.items()}
    for key, value in changes.items():
        if value is None:
            copy.pop(key)
        else:
            copy[key] = value
    return copy


@pytest.fixture(scope="module")
def kernels():
    """SpMV with a dense x, SpMSpV with a sorted sparse x searched sequentially, and SDDMM."""
    layouts = {"A": "CSR", "x": "Dense", "y": "Dense"}
    return {
        "spmv": spf.compile(SPMV, layouts),
        "spmspv": spf.compile(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, find="seqiter"),
        "sddmm": spf.compile("A(i,j) = B(i,j) * C(i,k) * D(k,j)",
                             {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, share={"A": "B"}),
    }


SPMV = "y(i) = A(i,j) * x(j)"
SDDMM = ("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"}, None, {"A": "B"})


def run_case(call, words, error, kernels=None):
    data = inputs()
    before = snapshot(data.watched())
    refuse(lambda: call(data, kernels) if kernels is not None else call(data), words, error)
    assert_unchanged(before, data.watched())


# ----------------------------------------------------------------------------- layout files

BASE = """layout L
field numRows: int = shape[0]
field numCols: int = shape[1]
field nnz: int
field rowPtr: int[numRows + 1]
field colIdx: int[nnz]
field data: double[nnz]
shape numRows, numCols
relation [pi, pj] -> [i, j] :
    0 <= pi < numRows and rowPtr(pi) <= pj < rowPtr(pi + 1) and i = pi and j = colIdx(pj)
values data[pj]
assume rowPtr(0) = 0 and rowPtr(numRows) = nnz
property monotonic(rowPtr, increasing, weak)
property range(colIdx, 0, numCols)
property periodic_monotonic(colIdx, rowPtr, increasing, strict)
"""


def edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


RELATION = ("relation [pi, pj] -> [i, j] :\n    0 <= pi < numRows and rowPtr(pi) <= pj < rowPtr(pi + 1) "
            "and i = pi and j = colIdx(pj)\n")
TOO_LARGE = "99999999999999999999"

# (what is wrong, file text, line:column reported, words of the message)
LAYOUT_FILES = [
    ("empty", "", "1:1", "empty layout file"),
    ("only comments", "# nothing here\n\n", "1:1", "empty layout file"),
    ("unknown directive", edit("field nnz: int", "fields nnz: int"), "4:1", "unknown directive 'fields'"),
    ("indented first line", "  " + BASE, "1:3", "an indented line continues the previous directive"),
    ("field before layout", BASE.split("\n", 1)[1] + "layout L\n", "1:1",
     "expected 'layout NAME' as the first directive, found 'field'"),
    ("name differs from the file", edit("layout L", "layout M"), "1:8", "layout name 'M' differs from the file name"),
    ("no shape", edit("shape numRows, numCols\n", ""), "1:1", "layout L has no 'shape' directive"),
    ("no relation", edit(RELATION, ""), "1:1", "layout L has no 'relation' directive"),
    ("no values", edit("values data[pj]\n", ""), "1:1", "layout L has no 'values' directive"),
    ("duplicate shape", edit("values data[pj]", "values data[pj]\nshape numRows, numCols"), "12:1",
     "duplicate 'shape' directive; the first is on line 8"),
    ("param default zero", edit("layout L\n", "layout L\nparam R = 0\n"), "2:11",
     "expected a positive integer default for parameter R, found '0'"),
    ("param default too large", edit("layout L\n", f"layout L\nparam R = {TOO_LARGE}\n"), "2:11",
     f"integer {TOO_LARGE} is too large"),
    ("param default missing", edit("layout L\n", "layout L\nparam R =\n"), "2:10",
     "expected a positive integer default for parameter R, found nothing"),
    ("unknown field type", edit("field data: double[nnz]", "field data: complex[nnz]"), "7:13",
     "unknown type 'complex'"),
    ("scalar field of type double", edit("field nnz: int", "field nnz: double"), "4:12",
     "a scalar field holds an integer"),
    ("length uses an unknown name", edit("field colIdx: int[nnz]", "field colIdx: int[nz]"), "6:19",
     "unknown name 'nz'; a length may use params and scalar fields declared above it"),
    ("length uses shape", edit("field colIdx: int[nnz]", "field colIdx: int[shape[1]]"), "6:19",
     "shape[1] is not allowed in a length"),
    ("length uses a later field", edit("field rowPtr: int[numRows + 1]", "field rowPtr: int[nnzRows + 1]\n"
                                       "field nnzRows: int"), "5:19", "unknown name 'nnzRows'"),
    ("duplicate field", edit("field data: double[nnz]", "field data: double[nnz]\nfield nnz: int"), "8:7",
     "duplicate name 'nnz': already a count field declared on line 4"),
    ("reserved word as a field name", edit("field nnz: int", "field int: int"), "4:7", "'int' is a reserved word"),
    ("division by zero in a definition", edit("field numCols: int = shape[1]", "field numCols: int = shape[1] / 0"),
     "3:33", "division by zero"),
    ("shape index out of range", edit("field numCols: int = shape[1]", "field numCols: int = shape[2]"), "3:22",
     "shape[2] is out of range: the shape has 2 extents"),
    ("call in a length", edit("field colIdx: int[nnz]", "field colIdx: int[rowPtr(0)]"), "6:19",
     "a call of 'rowPtr' is not allowed in integer arithmetic"),
    ("integer too large in a length", edit("field colIdx: int[nnz]", f"field colIdx: int[nnz + {TOO_LARGE}]"),
     "6:25", f"integer {TOO_LARGE} is too large"),
    ("relation in braces", edit("relation [pi, pj] -> [i, j] :", "relation { [pi, pj] -> [i, j] :"), "9:10",
     "write the relation without braces"),
    ("relation without an arrow", edit("relation [pi, pj] -> [i, j] :", "relation [pi, pj] :"), "9:10",
     "expected '->' and the logical tuple"),
    ("logical tuple longer than the shape", edit("-> [i, j] :", "-> [i, j, k] :"), "9:22",
     "the logical tuple has 3 variables but the shape has 2 extents"),
    ("relation calls an unknown array", edit("rowPtr(pi) <=", "rowPtrs(pi) <="), "10:27", "unknown array 'rowPtrs'"),
    ("relation call with too many arguments", edit("j = colIdx(pj)", "j = colIdx(pj, pi)"), "10:80",
     "'colIdx' has 1 dimension, so a call takes 1 argument; found 2"),
    ("relation calls the values array", edit("j = colIdx(pj)", "j = data(pj)"), "10:80",
     "'data' is a double array; only integer index arrays can be called"),
    ("relation uses an unknown name", edit("0 <= pi < numRows", "0 <= pi < rows"), "10:15", "unknown name 'rows'"),
    ("relation uses an array without a call", edit("0 <= pi < numRows", "0 <= pi < rowPtr"), "10:15",
     "'rowPtr' is an array field (call it as rowPtr(...) with 1 argument)"),
    ("tuple variable named as a field", edit("[pi, pj] -> [i, j]", "[nnz, pj] -> [i, j]"), "9:11",
     "tuple variable 'nnz' has the name of a count field"),
    ("tuple variable in both tuples", edit("[pi, pj] -> [i, j]", "[pi, pj] -> [pi, j]"), "9:23",
     "tuple variable 'pi' appears in both the physical and the logical tuple"),
    ("relation syntax error", edit("0 <= pi < numRows and", "0 <= pi < and"), "10:15",
     "expected a number, a name or a call, found 'and'"),
    ("relation with an unexpected character", edit("0 <= pi < numRows", "0 <= pi < numRows $"), "10:23",
     "unexpected character '$'"),
    ("relation integer too large", edit("0 <= pi < numRows", f"0 <= pi < {TOO_LARGE}"), "10:15",
     f"integer {TOO_LARGE} is too large"),
    ("relation nested 500 deep", edit("0 <= pi < numRows", "0 <= pi < " + "(" * 500 + "numRows" + ")" * 500),
     "10:115", "parentheses nested deeper than 100"),
    ("length nested 500 deep",
     edit("field colIdx: int[nnz]", "field colIdx: int[" + "(" * 500 + "nnz" + ")" * 500 + "]"),
     "6:119", "parentheses nested deeper than 100"),
    ("values in an unknown field", edit("values data[pj]", "values dat[pj]"), "11:8", "unknown field 'dat'"),
    ("values in an integer array", edit("values data[pj]", "values colIdx[pj]"), "11:8",
     "'colIdx' is an int array; values live in an array field of a value type (double, float, value, float64, "
     "float32, int32, bool, complex128, complex64, int64)"),
    ("values with an index too many", edit("values data[pj]", "values data[pj][pi]"), "11:8",
     "expected 1 [index] after it, found 2"),
    ("values index uses shape", edit("values data[pj]", "values data[shape[0]]"), "11:13",
     "shape[0] is not allowed in a values index"),
    ("values index uses a logical variable", edit("values data[pj]", "values data[j]"), "11:13",
     "'j' is a logical variable; a values index may use physical variables"),
    ("assume calls an unknown array", edit("assume rowPtr(0) = 0", "assume rowPtrs(0) = 0"), "12:8",
     "unknown array 'rowPtrs'"),
    ("assume syntax error", edit("assume rowPtr(0) = 0", "assume rowPtr(0) = = 0"), "12:20",
     "expected a number, a name or a call, found '='"),
    ("unknown property kind", edit("property monotonic(rowPtr, increasing, weak)", "property sorted(rowPtr)"),
     "13:10", "unknown property kind 'sorted'"),
    ("unknown property flag", edit("increasing, weak)", "increasing, loose)"), "13:40", "unknown flag 'loose'"),
    ("contradictory flags", edit("increasing, weak)", "increasing, decreasing)"), "13:40",
     "contradictory flags 'increasing' and 'decreasing'"),
    ("property of the values array", edit("range(colIdx, 0, numCols)", "range(data, 0, numCols)"), "14:16",
     "'data' is a double array; properties apply to integer index arrays"),
    ("empty range", edit("range(colIdx, 0, numCols)", "range(colIdx, 5, 5)"), "14:27",
     "empty range: the high bound 5 must exceed the low bound 5"),
    ("range with two arguments", edit("range(colIdx, 0, numCols)", "range(colIdx, 0)"), "14:10",
     "range takes 3 arguments, found 2"),
    ("range bound calls an array", edit("range(colIdx, 0, numCols)", "range(colIdx, 0, rowPtr(0))"), "14:27",
     "a range bound cannot call 'rowPtr'"),
    ("period zero", edit("periodic_monotonic(colIdx, rowPtr,", "periodic_monotonic(colIdx, 0,"), "15:37",
     "a period must be a positive integer"),
    ("monotonic in both directions", edit("property range(colIdx, 0, numCols)",
                                          "property monotonic(rowPtr, decreasing, weak)"), "14:20",
     "contradicts the monotonic property of 'rowPtr' on line 13"),
    ("property without parentheses", edit("range(colIdx, 0, numCols)", "range colIdx"), "14:16",
     "expected '(' after range"),
    ("unclosed property", edit("range(colIdx, 0, numCols)", "range(colIdx, 0, numCols"), "14:34",
     "expected ')' to close the argument list"),
    ("description not quoted", edit("layout L\n", "layout L\ndescription compressed rows\n"), "2:13",
     "expected a quoted description"),
    ("text after padded", BASE + "padded please\n", "16:8", "expected nothing after 'padded', found 'please'"),
    ("family with an unknown member", "family L: CSR, NOPE\n", "1:16", "unknown layout 'NOPE' in family L"),
    ("family with a field", "family L: Dense1, Dense2\nfield n: int\n", "2:1",
     "a family file holds only 'family' and 'description' directives"),
    ("family lists itself", "family L: L, CSR\n", "1:11", "member 'L' is listed twice or is the family itself"),
]

# Found when the layout is used to pack data, and reported at the layout file's line and column.
LAYOUTS_THAT_CANNOT_PACK = [
    ("no equality defines a coordinate", edit("j = colIdx(pj)", "j <= colIdx(pj) and j >= colIdx(pj)"), "9:26",
     "no equality defines logical coordinate j from the physical indices"),
    ("a disjunction in the relation", edit("j = colIdx(pj)", "(j = colIdx(pj) or j = colIdx(pj))"), "9:10",
     "packing reads relations that are conjunctions of constraints"),
    ("a physical index without an upper bound", edit("rowPtr(pi) <= pj < rowPtr(pi + 1)", "rowPtr(pi) <= pj"),
     "9:15", "physical index pj needs a lower and an upper bound"),
    ("a bound packing cannot evaluate", edit("rowPtr(pi) <= pj", "(pi) <= pj"), "9:11",
     "packing cannot read the relation level by level"),
    ("a keyed level without an index array", edit("j = colIdx(pj)", "j = pj - rowPtr(pi)"), "9:15",
     "cannot pack physical index pj: it is neither determined by the coordinates nor keyed"),
]


@pytest.mark.parametrize("text, location, words", [case[1:] for case in LAYOUT_FILES],
                         ids=[case[0] for case in LAYOUT_FILES])
def test_malformed_layout_files(tmp_path, text, location, words):
    path = tmp_path / "L.layout"
    path.write_text(text)
    error = refuse(lambda: spf.load_layout(path), words, spf.LayoutError)
    assert str(error).startswith(f"{path}:{location}: "), str(error)
    assert path.read_text() == text


@pytest.mark.parametrize("text, location, words", [case[1:] for case in LAYOUTS_THAT_CANNOT_PACK],
                         ids=[case[0] for case in LAYOUTS_THAT_CANNOT_PACK])
def test_layout_files_that_cannot_pack_are_reported_at_the_file(tmp_path, text, location, words):
    path = tmp_path / "L.layout"
    path.write_text(text)
    layout = spf.load_layout(path)
    matrix = sparse.csr_matrix(MATRIX)
    before = snapshot(matrix)
    error = refuse(lambda: spf.pack(layout, matrix), words, spf.LayoutError)
    assert str(error).startswith(f"{path}:{location}: layout L: "), str(error)
    assert_unchanged(before, matrix)


def test_a_definition_that_divides_by_zero_for_the_shape_is_reported_at_the_field(tmp_path):
    path = tmp_path / "L.layout"
    path.write_text(edit("field nnz: int", "field nnz: int\nfield perRow: int = shape[1] / shape[0]"))
    error = refuse(lambda: spf.pack(path, (np.zeros((0, 2), dtype=int), np.zeros(0), (0, 3))),
                   "perRow = shape[1] / shape[0] cannot be computed for the shape (0, 3)", spf.LayoutError)
    assert str(error).startswith(f"{path}:5:7: ")


@pytest.mark.parametrize("content, location", [
    (b"layout L\n\xff\xfe field", "2:1"),
    (b"layout L\nfield n: int = sh\xe9pe[0]\n", "2:18"),
], ids=["binary", "latin-1 text"])
def test_a_layout_file_that_is_not_utf8(tmp_path, content, location):
    path = tmp_path / "L.layout"
    path.write_bytes(content)
    error = refuse(lambda: spf.load_layout(path), "not a text file", spf.LayoutError)
    assert str(error).startswith(f"{path}:{location}: ")
    assert path.read_bytes() == content


# ----------------------------------------------------------------------------- API arguments

def _expression_cases():
    return [
        ("compile(None)", lambda d: spf.compile(None, d.layouts), "expression must be a str", spf.ArgumentError),
        ("compile(bytes)", lambda d: spf.compile(SPMV.encode(), d.layouts), "(decode bytes first)", spf.ArgumentError),
        ("compile(int)", lambda d: spf.compile(42, d.layouts), "got 42 (int)", spf.ArgumentError),
        ("compile(list)", lambda d: spf.compile([SPMV], d.layouts), "expression must be a str", spf.ArgumentError),
        ("compile: syntax error", lambda d: spf.compile("y(i) = A(i,j) *", d.layouts),
         "column 16: expected a tensor, a number or '('", spf.NotationError),
        ("compile: layouts a list", lambda d: spf.compile(SPMV, ["CSR", "Dense", "Dense"]),
         "layouts must be a dict from tensor names to layouts", spf.ArgumentError),
        ("compile: layouts None", lambda d: spf.compile(SPMV, None), "got None (NoneType)", spf.ArgumentError),
        ("compile: layouts a str", lambda d: spf.compile(SPMV, "CSR"), "got 'CSR' (str)", spf.ArgumentError),
        ("compile: a layout that is an int", lambda d: spf.compile(SPMV, {**d.layouts, "A": 3}),
         "layouts['A'] must be a layout name", spf.ArgumentError),
        ("compile: a layout that is None", lambda d: spf.compile(SPMV, {**d.layouts, "x": None}),
         "layouts['x'] must be a layout name", spf.ArgumentError),
        ("compile: a tensor name that is an int", lambda d: spf.compile(SPMV, {**d.layouts, 1: "CSR"}),
         "tensor names must be str", spf.ArgumentError),
        ("compile: an unknown layout", lambda d: spf.compile(SPMV, {**d.layouts, "A": "CRS"}),
         "unknown layout 'CRS' (did you mean CSR?)", spf.UnknownLayoutError),
        ("compile: no layout for a tensor", lambda d: spf.compile(SPMV, {"A": "CSR", "y": "Dense"}),
         "no layout given for tensor x", spf.IterationSpaceError),
        ("compile: a layout for an unused tensor", lambda d: spf.compile(SPMV, {**d.layouts, "z": "Dense"}),
         "the statement does not use", spf.IterationSpaceError),
        ("compile: a layout of the wrong order", lambda d: spf.compile(SPMV, {**d.layouts, "x": "CSR"}),
         "tensor x is used with 1 indices but layout CSR has order 2", spf.IterationSpaceError),
        ("compile: share a list", lambda d: spf.compile(SPMV, d.layouts, share=["y"]),
         "share must be a dict from the output to an input", spf.ArgumentError),
        ("compile: share to an int", lambda d: spf.compile(SPMV, d.layouts, share={"y": 3}),
         "share: names must be str", spf.ArgumentError),
        ("compile: share an unknown input", lambda d: spf.compile(SPMV, d.layouts, share={"y": "B"}),
         "B is no input of the statement", spf.IterationSpaceError),
        ("compile: parallel a str", lambda d: spf.compile(SPMV, d.layouts, parallel="yes"),
         "parallel must be True or False, got 'yes' (str)", spf.ArgumentError),
        ("compile: parallel an int", lambda d: spf.compile(SPMV, d.layouts, parallel=1),
         "parallel must be True or False", spf.ArgumentError),
        ("compile: order a str", lambda d: spf.compile(SPMV, d.layouts, order="pAi"),
         "order must be a list of str", spf.ArgumentError),
        ("compile: order of ints", lambda d: spf.compile(SPMV, d.layouts, order=[1, 2]),
         "it holds 1 (int)", spf.ArgumentError),
        ("compile: order missing variables", lambda d: spf.compile(SPMV, d.layouts, order=["pAi", "i"]),
         "a loop order must list each of", spf.SpfError),
        ("compile: unknown find", lambda d: spf.compile(SPMV, d.layouts, find="fast"),
         "unknown find 'fast'; choose one of auto", spf.SpfError),
        ("compile: find an int", lambda d: spf.compile(SPMV, d.layouts, find=3), "find must be a str",
         spf.ArgumentError),
        ("compile: find an array", lambda d: spf.compile(SPMV, d.layouts, find=np.array([])), "find must be a str",
         spf.ArgumentError),
        ("compile: schedule a str", lambda d: spf.compile(SPMV, d.layouts, schedule="fast"),
         "schedule must be a recipe", spf.SpfError),
        ("compile: a recipe for another expression",
         lambda d: spf.compile("y(i) = A(i,j) * x(j) * z(j)", {**d.layouts, "z": "Dense"},
                               schedule=spf.recipe(SPMV, d.layouts)),
         "the recipe was made for another expression", spf.RecipeError),
        ("iteration_space(None)", lambda d: spf.iteration_space(None, d.layouts), "expression must be a str",
         spf.ArgumentError),
        ("parse_statement(bytes)", lambda d: spf.parse_statement(b"y(i) = x(i)"), "(decode bytes first)",
         spf.ArgumentError),
        ("UFSet.parse(None)", lambda d: spf.UFSet.parse(None), "the set must be a str", spf.ArgumentError),
        ("UFSet.parse(bytes)", lambda d: spf.UFSet.parse(b"{ [i] : 0 <= i < n }"), "the set must be a str",
         spf.ArgumentError),
        ("UFSet.parse: parentheses nested 5000 deep",
         lambda d: spf.UFSet.parse("{ [i] : 0 <= i < " + "(" * 5000 + "n" + ")" * 5000 + " }"),
         "column 118: parentheses nested deeper than 100", spf.ParseError),
        ("compile: parentheses nested 5000 deep", lambda d: spf.compile("y(i) = " + "(" * 5000 + "x(i)" + ")" * 5000,
                                                                        {"x": "Dense", "y": "Dense"}),
         "column 108: parentheses are nested too deeply", spf.NotationError),
    ]


def _layout_argument_cases():
    return [
        ("load_layout(None)", lambda d: spf.load_layout(None), "expected a layout spec", spf.LayoutSpecError),
        ("load_layout(int)", lambda d: spf.load_layout(3), "got 3", spf.LayoutSpecError),
        ("load_layout(bytes)", lambda d: spf.load_layout(b"CSR"), "got b'CSR'", spf.LayoutSpecError),
        ("load_layout: unknown name", lambda d: spf.load_layout("DSCR"), "unknown layout 'DSCR' (did you mean",
         spf.UnknownLayoutError),
        ("load_layout: missing file", lambda d: spf.load_layout("/nonexistent/X.layout"),
         "no layout file at '/nonexistent/X.layout'", spf.UnknownLayoutError),
        ("load_layout: a parameter zero", lambda d: spf.load_layout("BCSR(R=0)"),
         "parameter R must be a positive integer", spf.LayoutSpecError),
        ("load_layout: a parameter not a number", lambda d: spf.load_layout("BCSR(R=x)"),
         "parameter R must be a positive integer, got 'x'", spf.LayoutSpecError),
        ("load_layout: an unknown parameter", lambda d: spf.load_layout("BCSR(Q=2)"),
         "has no parameter 'Q'; its parameters are R, C", spf.LayoutSpecError),
        ("load_layout: a parameter given twice", lambda d: spf.load_layout("BCSR(R=2, R=3)"),
         "gives parameter R twice", spf.LayoutSpecError),
        ("load_layout: an unclosed spec", lambda d: spf.load_layout("BCSR(R=2"), "malformed layout spec",
         spf.LayoutSpecError),
        ("load_layout: a parameter too large", lambda d: spf.load_layout(f"BCSR(R={TOO_LARGE})"),
         "is too large; the largest is 2**63 - 1", spf.LayoutSpecError),
        ("load_layout: a float keyword parameter", lambda d: spf.load_layout("BCSR", R=2.5),
         "parameter R must be a positive integer, got 2.5", spf.LayoutSpecError),
        ("load_layout: a boolean keyword parameter", lambda d: spf.load_layout("BCSR", R=True),
         "parameter R must be a positive integer, got True", spf.LayoutSpecError),
        ("load_layout: a parameter of a layout without any", lambda d: spf.load_layout("CSR(R=2)"),
         "layout CSR has no parameter 'R'; it takes no parameters", spf.LayoutSpecError),
        ("load_layout: keyword disagrees with the spec", lambda d: spf.load_layout("BCSR(R=2)", R=3),
         "parameter R is 2 in 'BCSR(R=2)' but 3 as a keyword argument", spf.LayoutSpecError),
        ("a family resolved to an order it lacks", lambda d: spf.load_layout("Dense").resolve(7),
         "layout family Dense has no layout for order 7", spf.IterationSpaceError),
    ]


def _recipe_and_autoschedule_cases():
    return [
        ("recipe(None)", lambda d: spf.recipe(None, d.layouts), "expression must be a str", spf.ArgumentError),
        ("recipe: layouts a list", lambda d: spf.recipe(SPMV, list(d.layouts)), "layouts must be a dict",
         spf.ArgumentError),
        ("recipe.find: target a list", lambda d: spf.recipe(SPMV, d.layouts).find(["x"], "hashmap"),
         "the target must be a tensor or variable name", spf.RecipeError),
        ("recipe.find: unknown template", lambda d: spf.recipe(SPMV, d.layouts).find("x", "fast"),
         "unknown template 'fast'", spf.RecipeError),
        ("recipe.find: unknown tensor", lambda d: spf.recipe(SPMV, d.layouts).find("B", "binary"),
         "'B' is neither a tensor of the statement nor a variable", spf.RecipeError),
        ("recipe.permute: a variable that is an array", lambda d: spf.recipe(SPMV, d.layouts).permute(np.array([])),
         "permute: each variable must be a str, got array([], dtype=float64)", spf.RecipeError),
        ("recipe.tile: variable None", lambda d: spf.recipe(SPMV, d.layouts).tile(None, 4),
         "tile: the loop variable must be a str, got None", spf.RecipeError),
        ("recipe.parallelize: reduction an array",
         lambda d: spf.recipe(SPMV, d.layouts).parallelize("pAi", reduction=np.array([])),
         "parallelize: the reduction must be a str", spf.RecipeError),
        ("recipe.parallelize: schedule an int", lambda d: spf.recipe(SPMV, d.layouts).parallelize("pAi", schedule=3),
         "schedule 3 is not 'static', 'dynamic' or 'guided'", spf.RecipeError),
        ("recipe.parallelize: unknown variable", lambda d: spf.recipe(SPMV, d.layouts).parallelize("q"),
         "'q' is not a variable of the iteration space", spf.RecipeError),
        ("recipe.parallelize: unknown reduction",
         lambda d: spf.recipe(SPMV, d.layouts).parallelize("pAi", reduction="sum"), "unknown reduction 'sum'",
         spf.RecipeError),
        ("recipe.tile: size zero", lambda d: spf.recipe(SPMV, d.layouts).tile("pAi", 0),
         "the tile size must be a positive integer, got 0", spf.RecipeError),
        ("recipe.tile: size a float", lambda d: spf.recipe(SPMV, d.layouts).tile("pAi", 2.5),
         "the tile size must be a positive integer, got 2.5", spf.RecipeError),
        ("recipe.permute: unknown variables", lambda d: spf.recipe(SPMV, d.layouts).permute("a", "b"),
         "unknown ['a', 'b']", spf.RecipeError),
        ("autoschedule(None)", lambda d: spf.autoschedule(None, d.layouts), "expression must be a str",
         spf.ArgumentError),
        ("autoschedule: layouts a list", lambda d: spf.autoschedule(SPMV, []), "layouts must be a dict",
         spf.ArgumentError),
        ("autoschedule: constraints an int", lambda d: spf.autoschedule(SPMV, d.layouts, constraints=3),
         "constraints must be a list of str", spf.ArgumentError),
        ("autoschedule: a constraint that is an int", lambda d: spf.autoschedule(SPMV, d.layouts, constraints=[3]),
         "it holds 3 (int)", spf.ArgumentError),
        ("autoschedule: a constraint without a comparison",
         lambda d: spf.autoschedule(SPMV, d.layouts, constraints=["K"]),
         "must compare expressions with <, <=, =, >=, >", spf.SpfError),
        ("autoschedule: a constraint with a missing side",
         lambda d: spf.autoschedule(SPMV, d.layouts, constraints=["K <="]), "cannot read constraint 'K <='",
         spf.SpfError),
        ("autoschedule: a constraint with Python attribute access",
         lambda d: spf.autoschedule(SPMV, d.layouts, constraints=["K <= (1).__class__"]),
         "is not an expression of names and numbers", spf.SpfError),
        ("autoschedule: a constraint with a string",
         lambda d: spf.autoschedule(SPMV, d.layouts, constraints=["K <= 'a'"]),
         "is not an expression of names and numbers", spf.SpfError),
        ("autoschedule: exhaustive_search a str",
         lambda d: spf.autoschedule(SPMV, d.layouts, exhaustive_search="yes"),
         "exhaustive_search must be True or False", spf.ArgumentError),
        ("autoschedule: progress not callable", lambda d: spf.autoschedule(SPMV, d.layouts, progress=3),
         "progress must be a function", spf.SpfError),
        ("autoschedule.select: a ragged sparse operand",
         lambda d: spf.autoschedule(*SDDMM).select(B=([[0, 0], [1]], [1.0, 2.0], (3, 3)), C=np.ones((3, 2)),
                                                   D=np.ones((2, 3))),
         "select: cannot read operand B", spf.SpfError),
        ("autoschedule.select: an unknown operand", lambda d: spf.autoschedule(*SDDMM).select(B=d.A, Q=d.x),
         "select: Q is not an operand", spf.SpfError),
        ("autoschedule: a sum of products", lambda d: spf.autoschedule("y(i) = A(i,j) * x(j) + x(i)", d.layouts),
         "the expression must be one product of tensors", spf.SpfError),
    ]


API_CASES = _expression_cases() + _layout_argument_cases() + _recipe_and_autoschedule_cases()


@pytest.mark.parametrize("call, words, error", [case[1:] for case in API_CASES], ids=[case[0] for case in API_CASES])
def test_malformed_api_arguments(call, words, error):
    run_case(call, words, error)


# ----------------------------------------------------------------------------- data: pack, Tensor, read_tns

def _pack_cases():
    return [
        ("pack: layout an int", lambda d: spf.pack(3, d.A), "layout must be a layout name", spf.ArgumentError),
        ("pack: layout None", lambda d: spf.pack(None, d.A), "got None (NoneType)", spf.ArgumentError),
        ("pack: name an int", lambda d: spf.pack("CSR", d.A, name=3), "name must be a non-empty str",
         spf.ArgumentError),
        ("pack: name empty", lambda d: spf.pack("CSR", d.A, name=""), "name must be a non-empty str",
         spf.ArgumentError),
        ("pack: shape a str", lambda d: spf.pack("CSR", d.A, shape="ab"), "the shape must be a tuple of integers",
         spf.ArgumentError),
        ("pack: shape too small", lambda d: spf.pack("CSR", d.A, shape=(2, 2)),
         "shape (2, 2) cannot hold data of shape (3, 3)", spf.PackError),
        ("pack: a str", lambda d: spf.pack("CSR", "abc"), "cannot read str as a tensor", spf.PackError),
        ("pack: bytes", lambda d: spf.pack("CSR", b"abc"), "cannot read bytes as a tensor", spf.PackError),
        ("pack: None", lambda d: spf.pack("CSR", None), "cannot read NoneType as a tensor", spf.PackError),
        ("pack: a number", lambda d: spf.pack("Dense", 3.0), "got a single number (float)", spf.PackError),
        ("pack: a ragged list", lambda d: spf.pack("Dense", [[1.0, 2.0], [3.0]]),
         "cannot read list as an array", spf.PackError),
        ("pack: Python objects", lambda d: spf.pack("Dense", d.x_objects), "of Python objects", spf.PackError),
        ("pack: strings", lambda d: spf.pack("Dense", d.x_strings), "values must be real numbers, got dtype <U1",
         spf.PackError),
        ("pack: dates", lambda d: spf.pack("Dense", np.array(["2024-01-01"], dtype="datetime64[D]")),
         "values must be real numbers, got dtype datetime64[D]", spf.PackError),
        ("pack: complex256 numpy", lambda d: spf.pack("Dense", d.x_complex), "values are complex256, which spf does "
         "not support", spf.PackError),
        ("pack: complex into float32 values", lambda d: spf.pack(str(EXAMPLE_LAYOUTS / "Dense1_F32.layout"),
                                                                 d.x_complex.astype(np.complex128)),
         "complex128 data into layout Dense1_F32, whose values are float32, would drop their imaginary parts",
         spf.PackError),
        ("pack: a coo matrix with a row outside the shape",
         lambda d: spf.pack("CSR", with_arrays(d.A.tocoo(), row=np.array([0, 0, 1, 3], dtype=np.int32))),
         "tensor (unnamed): scipy cannot read the coo matrix: axis 0 index 3 exceeds matrix dimension 3", spf.PackError),
        ("pack: a csr matrix with a column outside the shape",
         lambda d: spf.pack("CSR", with_arrays(d.A, indices=np.array([0, 2, 5, 0], dtype=np.int32))),
         "the scipy csr matrix is malformed: indices[2] = 5 is outside [0, 3)", spf.PackError),
        ("pack: copy=False of a dense array", lambda d: spf.pack("CSR", MATRIX, copy=False),
         "copy=False, but packing into CSR needs a copy: only scipy.sparse data is shared, not ndarray",
         spf.PackError),
        ("pack: copy=False of a csc matrix into CSR", lambda d: spf.pack("CSR", d.A.tocsc(), copy=False),
         "needs a copy: the data is a 2-D csc csc_matrix, layout CSR is csr of order 2", spf.PackError),
        ("pack: copy a str", lambda d: spf.pack("CSR", d.A, copy="yes"), "copy must be None, True or False, got 'yes'",
         spf.ArgumentError),
        ("pack: complex256 scipy", lambda d: spf.pack("CSR", d.A_complex), "values are complex256", spf.PackError),
        ("pack: complex256 values in a triple",
         lambda d: spf.pack("COO", (d.coords, d.values.astype(np.clongdouble) * 1j, (3, 3))),
         "values are complex256", spf.PackError),
        ("pack: integers beyond 2**53", lambda d: spf.pack("Dense", d.x_big_integers),
         "1152921504606846977 is not exactly a double", spf.PackError),
        ("pack: a float extent", lambda d: spf.pack("COO", (d.coords, d.values, (2.5, 3))),
         "extent 0 of the shape must be an integer, got 2.5 (float)", spf.ArgumentError),
        ("pack: a whole float extent", lambda d: spf.pack("COO", (d.coords, d.values, (3.0, 3))),
         "extent 0 of the shape must be an integer, got 3.0 (float)", spf.ArgumentError),
        ("pack: a NaN extent", lambda d: spf.pack("COO", (d.coords, d.values, (float("nan"), 3))),
         "got nan (float)", spf.ArgumentError),
        ("pack: a boolean extent", lambda d: spf.pack("COO", (d.coords, d.values, (True, 3))),
         "got True (bool)", spf.ArgumentError),
        ("pack: a negative extent", lambda d: spf.pack("COO", (d.coords, d.values, (-1, 3))),
         "extent 0 of the shape is negative (-1)", spf.ArgumentError),
        ("pack: an extent beyond int64", lambda d: spf.pack("COO", (d.coords, d.values, (2**64, 3))),
         "exceeds 9223372036854775807", spf.ArgumentError),
        ("pack: an extent beyond the layout's int fields", lambda d: spf.pack("CSR", (d.coords, d.values, (2**40, 3))),
         "field 'numRows' of CSR would be 1099511627776 (from the shape (1099511627776, 3)), beyond the largest int",
         spf.PackError),
        ("pack: a shape that is a str", lambda d: spf.pack("COO", (d.coords, d.values, "33")),
         "the shape must be a tuple of integers", spf.ArgumentError),
        ("pack: fractional coordinates", lambda d: spf.pack("COO", (d.coords + 0.5, d.values, (3, 3))),
         "coordinates must be integers, got 0.5", spf.PackError),
        ("pack: NaN coordinates", lambda d: spf.pack("COO", (np.array([[np.nan, 0.0]]), d.values[:1], (3, 3))),
         "coordinates must be integers, got nan", spf.PackError),
        ("pack: boolean coordinates", lambda d: spf.pack("COO", (d.coords > 0, d.values, (3, 3))),
         "coordinates must be integers, got dtype bool", spf.PackError),
        ("pack: string coordinates", lambda d: spf.pack("COO", (d.coords.astype(str), d.values, (3, 3))),
         "coordinates must be integers, got dtype <U", spf.PackError),
        ("pack: a coordinate outside the shape", lambda d: spf.pack("COO", (d.coords, d.values, (2, 2))),
         "coordinate (1, 2) (entry 1) is outside the shape (2, 2)", spf.PackError),
        ("pack: a repeated coordinate", lambda d: spf.pack("COO", (d.coords[[0, 0]], d.values, (3, 3))),
         "coordinate (0, 0) appears more than once", spf.PackError),
        ("pack: fewer values than coordinates", lambda d: spf.pack("COO", (d.coords, d.values[:1], (3, 3))),
         "2 coordinates but 1 values", spf.PackError),
        ("pack: coordinates of the wrong width", lambda d: spf.pack("COO", (d.coords, d.values, (3, 3, 3))),
         "coordinates must have shape (nnz, 3), got (2, 2)", spf.PackError),
        ("pack: a ragged coordinate list", lambda d: spf.pack("COO", ([[0, 0], [1]], d.values, (3, 3))),
         "cannot read the coordinates as an array", spf.PackError),
        ("pack: data of the wrong order", lambda d: spf.pack("CSR", d.x), "layout CSR stores order-2 tensors",
         spf.PackError),
        ("pack: a pattern the layout cannot hold", lambda d: spf.pack("LOWER_TRI", d.A),
         "entry (0, 2) cannot be stored",
         spf.PackError),
        ("pack: a dict for a family without shape", lambda d: spf.pack("Dense", {"N0": 3, "vals": d.x}),
         "a layout family (e.g. Dense) needs the tensor's order", spf.PackError),
        ("pack: BCSR with a block of 10**12 rows", lambda d: spf.pack("BCSR(R=1000000000000, C=1)", d.A),
         "would need 14.6 TiB (shape (2, 1000000000000, 1) of float64)", spf.OutOfMemoryError),
        ("pack: a dense layout of 10**7 x 10**7", lambda d: spf.pack("Dense", (d.coords, d.values, (10**7, 10**7))),
         "would need 727.6 TiB", spf.OutOfMemoryError),
        ("pack: a dense order-3 layout of 10**5 per side",
         lambda d: spf.pack("Dense3", (np.zeros((0, 3), dtype=int), np.zeros(0), (10**5,) * 3)),
         "would need 7.1 PiB (shape (100000, 100000, 100000) of float64)", spf.OutOfMemoryError),
    ]


def _field_cases():
    csr = "CSR"
    return [
        ("fields: not a dict", lambda d: spf.from_fields(csr, [1, 2, 3]),
         "fields must be a dict from field names to values, got list", spf.PackError),
        ("fields: an unknown field", lambda d: spf.from_fields(csr, changed(d.csr_fields, rowptr=np.zeros(4))),
         "CSR has no field(s) ['rowptr']", spf.PackError),
        ("fields: a missing scalar", lambda d: spf.from_fields(csr, changed(d.csr_fields, numCols=None)),
         "field 'numCols' of CSR is missing", spf.PackError),
        ("fields: a missing array", lambda d: spf.from_fields(csr, changed(d.csr_fields, colIdx=None)),
         "array 'colIdx' of CSR is missing", spf.PackError),
        ("fields: a float scalar", lambda d: spf.from_fields(csr, changed(d.csr_fields, nnz=4.0)),
         "field 'nnz' must be an integer, got 4.0", spf.PackError),
        ("fields: a boolean scalar", lambda d: spf.from_fields(csr, changed(d.csr_fields, numRows=True)),
         "field 'numRows' must be an integer, got True", spf.PackError),
        ("fields: a str scalar", lambda d: spf.from_fields(csr, changed(d.csr_fields, nnz="4")),
         "field 'nnz' must be an integer, got '4'", spf.PackError),
        ("fields: a negative scalar", lambda d: spf.from_fields(csr, changed(d.csr_fields, numCols=-3)),
         "field 'numCols' is negative (-3)", spf.PackError),
        ("fields: a scalar beyond int", lambda d: spf.from_fields(csr, changed(d.csr_fields, numCols=2**31)),
         "field 'numCols' of CSR would be 2147483648 (from the fields), beyond the largest int", spf.PackError),
        ("fields: float index array", lambda d: spf.from_fields(csr, changed(d.csr_fields,
                                                                              colIdx=np.array([0.0, 2, 2, 0]))),
         "array 'colIdx' must hold integers, got float64", spf.PackError),
        ("fields: fractional index array", lambda d: spf.from_fields(csr, changed(d.csr_fields,
                                                                                   colIdx=np.array([0.5, 2, 2, 0]))),
         "array 'colIdx' must hold integers, got float64", spf.PackError),
        ("fields: boolean index array", lambda d: spf.from_fields(csr, changed(d.csr_fields,
                                                                                colIdx=np.array([0, 1, 1, 0]) > 0)),
         "array 'colIdx' must hold integers, got bool", spf.PackError),
        ("fields: index array of str",
         lambda d: spf.from_fields(csr, changed(d.csr_fields, colIdx=["0", "2", "2", "0"])),
         "array 'colIdx' must hold integers, got <U1", spf.PackError),
        ("fields: index array beyond int", lambda d: spf.from_fields(csr, changed(d.csr_fields,
                                                                                   colIdx=np.array([0, 2, 2, 2**40]))),
         "array 'colIdx' has values outside the range of int", spf.PackError),
        ("fields: index array out of range",
         lambda d: spf.from_fields(csr, changed(d.csr_fields, colIdx=np.array([0, 2, 2, 50_000_000]))),
         "breaks property range(colIdx, 0, numCols)", spf.PropertyViolation),
        ("fields: index array negative", lambda d: spf.from_fields(csr, changed(d.csr_fields,
                                                                                 colIdx=np.array([0, 2, 2, -1]))),
         "breaks property range(colIdx, 0, numCols)", spf.PropertyViolation),
        ("fields: unsorted row", lambda d: spf.from_fields(csr, changed(d.csr_fields, colIdx=np.array([2, 0, 2, 0]))),
         "breaks property periodic_monotonic(colIdx, rowPtr, increasing, strict)", spf.PropertyViolation),
        ("fields: pointer past the end", lambda d: spf.from_fields(csr, changed(d.csr_fields,
                                                                                 rowPtr=np.array([0, 2, 3, 3]))),
         "assumption rowPtr(numRows) = nnz of CSR does not hold", spf.PackError),
        ("fields: array too short", lambda d: spf.from_fields(csr, changed(d.csr_fields, data=np.ones(3))),
         "array 'data' has 3 elements (shape (3,)) but data: value[nnz] needs shape (4,)", spf.PackError),
        ("fields: array of the wrong shape", lambda d: spf.from_fields(csr, changed(d.csr_fields,
                                                                                    data=np.ones((2, 2)))),
         "array 'data' has 4 elements (shape (2, 2)) but data: value[nnz] needs shape (4,)", spf.PackError),
        ("fields: complex256 values", lambda d: spf.from_fields(csr, changed(d.csr_fields, data=np.ones(
            4, dtype=np.clongdouble) * 1j)), "the values of array 'data' are complex256", spf.PackError),
        ("fields: values that are str", lambda d: spf.from_fields(csr, changed(d.csr_fields, data=["a"] * 4)),
         "the values of array 'data' must be real numbers", spf.PackError),
        ("fields: a ragged array", lambda d: spf.from_fields(csr, changed(d.csr_fields, rowPtr=[0, [2], 3, 4])),
         "cannot read array 'rowPtr' as an array", spf.PackError),
        ("fields: a shape the scalars disagree with",
         lambda d: spf.from_fields(csr, d.csr_fields, shape=(4, 3)),
         "field 'numRows' is 3 but the shape (4, 3) needs 4", spf.PackError),
        ("fields: a family without a shape", lambda d: spf.from_fields("Dense", {"N0": 3, "vals": d.x}),
         "a layout family (Dense) needs the tensor's order", spf.PackError),
        ("fields: unsorted SV", lambda d: spf.from_fields("SV", changed(d.sv_fields, idx=np.array([3, 1, 4]))),
         "breaks property monotonic(idx, increasing, strict)", spf.PropertyViolation),
        ("fields: float SV indices", lambda d: spf.from_fields("SV", changed(d.sv_fields, idx=np.array([1.0, 3, 4]))),
         "array 'idx' must hold integers, got float64", spf.PackError),
        ("fields: derived field inconsistent", lambda d: spf.from_fields("BCSR(R=2, C=2)", {
            "numRows": 2, "numCols": 2, "numBlockRows": 5, "numBlockCols": 1, "nnzBlocks": 1,
            "rowPtr": np.array([0, 1, 1, 1, 1, 1]), "col": np.array([0]), "val": np.ones((1, 2, 2))}),
         "field 'numBlockRows' is 5 but the other fields (shape (2, 2)) needs 1", spf.PackError),
        ("Tensor(...): out-of-range column", lambda d: spf.Tensor("CSR", (3, 3), changed(
            d.csr_fields, colIdx=np.array([0, 2, 2, 50_000_000])), "A"),
         "tensor A: array 'colIdx' breaks property range(colIdx, 0, numCols)", spf.PropertyViolation),
        ("Tensor(...): unsorted SV", lambda d: spf.Tensor(spf.load_layout("SV"), (5,), changed(
            d.sv_fields, idx=np.array([4, 1, 3])), "x"),
         "tensor x: array 'idx' breaks property monotonic(idx, increasing, strict)", spf.PropertyViolation),
        ("Tensor(...): shape the fields disagree with", lambda d: spf.Tensor("CSR", (3, 4), d.csr_fields, "A"),
         "field 'numCols' is 3 but the shape (3, 4) needs 4", spf.PackError),
        ("Tensor(...): a float shape", lambda d: spf.Tensor("CSR", (3.0, 3), d.csr_fields, "A"),
         "extent 0 of the shape must be an integer", spf.ArgumentError),
        ("Tensor(...): shape a str", lambda d: spf.Tensor("CSR", "33", d.csr_fields, "A"),
         "the shape must be a tuple of integers", spf.ArgumentError),
        ("Tensor(...): name None", lambda d: spf.Tensor("CSR", (3, 3), d.csr_fields, None),
         "name must be a non-empty str", spf.ArgumentError),
        ("Tensor(...): layout a list", lambda d: spf.Tensor(["CSR"], (3, 3), d.csr_fields, "A"),
         "layout must be a layout name", spf.ArgumentError),
        ("Tensor(...): a user layout without range, entry outside the shape",
         lambda d: spf.Tensor(Path(__file__).resolve().parents[1] / "data" / "CSR_NO_RANGE.layout", (3, 3),
                              changed(d.csr_fields, colIdx=np.array([0, 2, 2, 7])), "A"),
         "stored entry 3 has coordinates (2, 7) outside the shape (3, 3)", spf.PackError),
    ]


DATA_CASES = _pack_cases() + _field_cases()


@pytest.mark.parametrize("call, words, error", [case[1:] for case in DATA_CASES],
                         ids=[case[0] for case in DATA_CASES])
def test_malformed_data(call, words, error):
    run_case(call, words, error)


TNS_FILES = [
    ("binary", b"1 1 1 \xff\n", "bad.tns:1: not a text file (byte 0xff is not UTF-8)"),
    ("zero index", b"1 1 1 1.0\n0 1 1 2.0\n", "bad.tns:2: indices must be positive integers"),
    ("fractional index", b"1 1.5 1 1.0\n", "bad.tns:1: indices must be positive integers"),
    ("index beyond 2**53", b"1 1e300 1 1.0\n", "indices must be positive integers (1-based) up to 2**53"),
    ("infinite index", b"1 inf 1 1.0\n", "bad.tns:1: indices must be positive integers"),
    ("NaN index", b"nan 1 1 1.0\n", "bad.tns:1: indices must be positive integers"),
    ("ragged after a comment", b"# header\n1 1 1 1.0\n1 2 2.0\n", "bad.tns:3: line 3 has 3 fields, expected 4"),
    ("not a number", b"1 1 1 1.0\n1 x 1 2.0\n", "not a number"),
    ("a value only", b"\n2.0\n", "bad.tns:2: expected indices and a value"),
    ("empty", b"", "bad.tns: no entries"),
]


@pytest.mark.parametrize("content, words", [case[1:] for case in TNS_FILES], ids=[case[0] for case in TNS_FILES])
def test_malformed_tns_files(tmp_path, content, words):
    path = tmp_path / "bad.tns"
    path.write_bytes(content)
    refuse(lambda: spf.read_tns(path), words)
    assert path.read_bytes() == content


@pytest.mark.parametrize("path, words", [(None, "path must be a str or a path, got None"),
                                         (3, "path must be a str or a path, got 3"),
                                         ("/nonexistent/t.tns", "cannot read /nonexistent/t.tns: No such file"),
                                         ("/", "cannot read /: Is a directory")],
                         ids=["None", "int", "missing", "directory"])
def test_read_tns_arguments(path, words):
    refuse(lambda: spf.read_tns(path), words)


# ----------------------------------------------------------------------------- kernel calls and bind

KERNEL_CASES = [
    ("call: x a str", lambda d, k: k["spmv"](A=d.A, x="abc"), "tensor x: cannot read str as a tensor",
     spf.PackError),
    ("call: x None", lambda d, k: k["spmv"](A=d.A, x=None), "tensor x: cannot read NoneType", spf.PackError),
    ("call: x a number", lambda d, k: k["spmv"](A=d.A, x=3.0), "tensor x: got a single number", spf.PackError),
    ("call: x complex256", lambda d, k: k["spmv"](A=d.A, x=d.x_complex), "tensor x: values are complex256",
     spf.PackError),
    ("call: A complex256 scipy", lambda d, k: k["spmv"](A=d.A_complex, x=d.x), "tensor A: values are complex256",
     spf.PackError),
    ("call: x of Python objects", lambda d, k: k["spmv"](A=d.A, x=d.x_objects), "tensor x: cannot read ndarray of "
     "Python objects", spf.PackError),
    ("call: x of str", lambda d, k: k["spmv"](A=d.A, x=d.x_strings), "tensor x: values must be real numbers",
     spf.PackError),
    ("call: x of the wrong size", lambda d, k: k["spmv"](A=d.A, x=d.x_wrong_size),
     "index j has extent 4 in x but 3 in A", spf.SpfError),
    ("call: x of order 2", lambda d, k: k["spmv"](A=d.A, x=np.ones((3, 1))),
     "tensor x: layout Dense1 stores order-1 tensors, the data has order 2", spf.PackError),
    ("call: x a ragged list", lambda d, k: k["spmv"](A=d.A, x=[1.0, [2.0]]), "tensor x: cannot read list",
     spf.PackError),
    ("call: x integers beyond 2**53", lambda d, k: k["spmv"](A=d.A, x=d.x_big_integers),
     "is not exactly a double", spf.PackError),
    ("call: x a dict of wrong fields", lambda d, k: k["spmv"](A=d.A, x={"n": 3}), "tensor x: Dense1 has no field(s) "
     "['n']", spf.PackError),
    ("call: A a float CSR dict", lambda d, k: k["spmv"](A=changed(d.csr_fields, colIdx=np.array([0., 2, 2, 0])),
                                                        x=d.x), "array 'colIdx' must hold integers", spf.PackError),
    ("call: A a Tensor of another order", lambda d, k: k["spmv"](A=spf.pack("SV", d.x), x=d.x),
     "tensor A: layout CSR stores order-2 tensors, the data has order 1", spf.PackError),
    ("call: a missing input", lambda d, k: k["spmv"](A=d.A), "missing input x; inputs are A, x", spf.SpfError),
    ("call: an unknown argument", lambda d, k: k["spmv"](A=d.A, x=d.x, z=d.x), "unknown argument(s) ['z']",
     spf.SpfError),
    ("call: the output as an argument", lambda d, k: k["spmv"](A=d.A, x=d.x, y=d.x),
     "(y is the output, which the kernel allocates)", spf.SpfError),
    ("bind: x a str", lambda d, k: k["spmv"].bind(A=d.A, x="abc"), "tensor x: cannot read str", spf.PackError),
    ("bind: x complex256", lambda d, k: k["spmv"].bind(A=d.A, x=d.x_complex), "values are complex256",
     spf.PackError),
    ("bind: nothing", lambda d, k: k["spmv"].bind(), "missing input A, x", spf.SpfError),
    ("call: inputs by position", lambda d, k: k["spmv"](d.A, d.x), "give the inputs by name, e.g. kernel(A=..., x=...)",
     spf.ArgumentError),
    ("call: x a masked array", lambda d, k: k["spmv"](A=d.A, x=np.ma.masked_array(d.x, mask=[0, 1, 0])),
     "tensor x: a masked array's masked entries would be read as numbers", spf.PackError),
    ("call: x a structured array", lambda d, k: k["spmv"](A=d.A, x=np.zeros(3, dtype=[("a", "f8")])),
     "values must be real numbers, got dtype", spf.PackError),
    ("SpMSpV: x an unsorted SV dict", lambda d, k: k["spmspv"](A=sparse.csr_matrix(np.ones((3, 5))),
                                                               x=changed(d.sv_fields, idx=np.array([3, 1, 4]))),
     "tensor x: array 'idx' breaks property monotonic(idx, increasing, strict)", spf.PropertyViolation),
    ("SDDMM: a dense factor of the wrong shape", lambda d, k: k["sddmm"](B=d.A, C=np.ones((3, 2)), D=np.ones((3, 3))),
     "index k has extent 3 in D but 2 in C", spf.SpfError),
    ("SDDMM: B complex256", lambda d, k: k["sddmm"](B=d.A_complex, C=np.ones((3, 2)), D=np.ones((2, 3))),
     "tensor B: values are complex256", spf.PackError),
    ("SDDMM: a factor too large for memory",
     lambda d, k: k["sddmm"](B=(d.coords, d.values, (3, 3)),
                             C=(np.zeros((0, 2), int), np.zeros(0), (2**31 - 1, 2**31 - 1)), D=np.ones((2, 3))),
     "tensor C: array vals of Dense2", spf.OutOfMemoryError),
]


@pytest.mark.parametrize("call, words, error", [case[1:] for case in KERNEL_CASES],
                         ids=[case[0] for case in KERNEL_CASES])
def test_malformed_kernel_arguments(kernels, call, words, error):
    run_case(call, words, error, kernels)


def test_an_output_too_large_for_memory_is_refused_before_allocating():
    kernel = spf.compile("A(i,j) = B(i,k) * C(k,j)", {"A": "Dense", "B": "COO", "C": "COO"})
    huge = 10**7
    B = (np.array([[0, 0]]), np.array([1.0]), (huge, 1))
    C = (np.array([[0, 0]]), np.array([1.0]), (1, huge))
    refuse(lambda: kernel(B=B, C=C), "output A: array vals of Dense2", spf.OutOfMemoryError)


# ----------------------------------------------------------------------------- command lines

EXPRESSION = SPMV
KERNEL_OPTIONS = [EXPRESSION, "-l", "A=CSR", "-l", "x=Dense", "-l", "y=Dense"]

# (what is wrong, arguments, exit status, words of the one error line)
COMMAND_LINES = [
    ("no command", [], 2, "the following arguments are required: COMMAND"),
    ("unknown command", ["compiel"], 2, "invalid choice: 'compiel'"),
    ("compile without -o", ["compile", *KERNEL_OPTIONS], 2, "the following arguments are required: -o/--output"),
    ("compile without an expression", ["compile", "-o", "OUT/k"], 2, "the following arguments are required: EXPR"),
    ("-l without '='", ["compile", EXPRESSION, "-l", "A", "-o", "OUT/k"], 2, "-l 'A': no '='"),
    ("-l without a tensor", ["compile", EXPRESSION, "-l", "=CSR", "-o", "OUT/k"], 2, "nothing before '='"),
    ("-l without a layout", ["compile", EXPRESSION, "-l", "A=", "-o", "OUT/k"], 2, "nothing after '='"),
    ("a tensor given twice", ["compile", *KERNEL_OPTIONS, "-l", "A=COO", "-o", "OUT/k"], 2,
     "tensor A is already given (A=CSR)"),
    ("unknown find", ["compile", *KERNEL_OPTIONS, "--find", "fast", "-o", "OUT/k"], 2,
     "argument --find: invalid choice: 'fast'"),
    ("an empty name in --order", ["explain", *KERNEL_OPTIONS, "--order", "pAi,,i"], 2, "empty variable name"),
    ("--share without '='", ["explain", *KERNEL_OPTIONS, "--share", "y"], 2, "--share 'y': no '='"),
    ("-o not an identifier", ["compile", *KERNEL_OPTIONS, "-o", "OUT/my-kernel"], 2,
     "NAME must be a C identifier"),
    ("a malformed expression", ["compile", "y(i) = A(i,j) *", "-l", "A=CSR", "-o", "OUT/k"], 1,
     "expression: column 16: expected a tensor"),
    ("an unknown layout", ["compile", EXPRESSION, "-l", "A=CRS", "-l", "x=Dense", "-l", "y=Dense", "-o", "OUT/k"], 1,
     "unknown layout 'CRS' (did you mean CSR?)"),
    ("a layout file that is binary", ["explain", EXPRESSION, "-l", "A=BINARY", "-l", "x=Dense", "-l", "y=Dense"], 1,
     "not a text file: byte 0xff is not UTF-8"),
    ("a malformed layout file", ["explain", EXPRESSION, "-l", "A=MALFORMED", "-l", "x=Dense", "-l", "y=Dense"], 1,
     "L.layout:4:1: unknown directive 'fields'"),
    ("a layout of the wrong order", ["explain", EXPRESSION, "-l", "A=CSR", "-l", "x=CSR", "-l", "y=Dense"], 1,
     "tensor x is used with 1 indices but layout CSR has order 2"),
    ("a missing layout", ["explain", EXPRESSION, "-l", "A=CSR", "-l", "y=Dense"], 1, "no layout given for tensor x"),
    ("an order that misses variables", ["explain", *KERNEL_OPTIONS, "--order", "pAi,i"], 1,
     "a loop order must list each of"),
    ("a find that is not proven", ["explain", EXPRESSION, "-l", "A=CSR", "-l", "x=SV_UNSORTED", "-l", "y=Dense",
                                   "--find", "seqiter"], 1, "find='seqiter' is not valid"),
    ("a share without common arrays", ["explain", *KERNEL_OPTIONS, "--share", "y=A"], 1,
     "has no index array in common with A"),
    ("a bad layout parameter", ["show", "BCSR(R=0)"], 1, "parameter R must be a positive integer"),
    ("show an unknown layout", ["show", "NOPE"], 1, "unknown layout 'NOPE'"),
    ("show a missing file", ["show", "/nonexistent/X.layout"], 1, "no layout file at '/nonexistent/X.layout'"),
    ("show a binary file", ["show", "BINARY"], 1, "not a text file"),
    ("show two layouts", ["show", "CSR", "COO"], 2, "unrecognized arguments: COO"),
    ("layouts with an argument", ["layouts", "CSR"], 2, "unrecognized arguments: CSR"),
    ("demo with a grid of zero", ["demo", "--grid", "0"], 1, "grid must be at least 1"),
    ("demo with a grid that is not a number", ["demo", "--grid", "ten"], 2, "argument --grid: invalid int value"),
    ("demo with a missing file", ["demo", "/nonexistent/m.mtx"], 1, "cannot read /nonexistent/m.mtx: no such file"),
    ("demo with a file of another kind", ["demo", "MALFORMED"], 1, "expected a Matrix Market (.mtx) or FROSTT"),
    ("demo with a binary tensor", ["demo", "BINARY_TNS"], 1, "not a text file (byte 0xff is not UTF-8)"),
    ("demo with a complex matrix", ["demo", "COMPLEX_MTX"], 1, "values are complex"),
    ("demo with an unknown layout", ["demo", "--layout", "NOPE"], 1, "unknown layout 'NOPE'"),
    ("demo with a vector layout", ["demo", "--layout", "SV"], 1, "SpMV needs a matrix layout"),
    ("bench with --quick and --full", ["bench", "--quick", "--full"], 2, "not allowed with argument --quick"),
    ("bench writing into a file", ["bench", "--output", "A_FILE"], 1, "a_file: File exists"),
    ("compile writing under a file", ["compile", *KERNEL_OPTIONS, "-o", "A_FILE/sub/k"], 1, "cannot write"),
]


@pytest.fixture
def bad_files(tmp_path):
    """Files the command lines name by a placeholder."""
    binary = tmp_path / "binary" / "L.layout"
    binary.parent.mkdir()
    binary.write_bytes(b"layout L\n\xff\xfe")
    malformed = tmp_path / "L.layout"
    malformed.write_text(edit("field nnz: int", "fields nnz: int"))
    tensor = tmp_path / "bad.tns"
    tensor.write_bytes(b"1 1 1 \xff\n")
    matrix = tmp_path / "complex.mtx"
    matrix.write_text("%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 1 1.0 2.0\n")
    a_file = tmp_path / "a_file"
    a_file.write_text("not a directory")
    return {"BINARY": str(binary), "MALFORMED": str(malformed), "BINARY_TNS": str(tensor),
            "COMPLEX_MTX": str(matrix), "OUT": str(tmp_path / "out"), "A_FILE": str(a_file)}


def _substitute(argument: str, files: dict) -> str:
    for placeholder, value in files.items():
        if argument == placeholder or argument.startswith(f"{placeholder}/"):
            return value + argument[len(placeholder):]
        if argument.endswith(f"={placeholder}"):
            return argument[:-len(placeholder)] + value
    return argument


@pytest.mark.parametrize("arguments, status, words", [case[1:] for case in COMMAND_LINES],
                         ids=[case[0] for case in COMMAND_LINES])
def test_malformed_command_lines(capsys, bad_files, arguments, status, words):
    arguments = [_substitute(argument, bad_files) for argument in arguments]
    code = main(arguments)
    captured = capsys.readouterr()
    # a compile over two seconds says so first (spf.codegen.toolchain.compiler): progress, not an error
    lines = [line for line in captured.err.splitlines() if not line.startswith("spf: compiling ")]
    assert code == status, captured.err
    assert sum(line.startswith("spf: error: ") for line in lines) == 1, captured.err
    assert lines[0].startswith("spf: error: ") and all(line.startswith("  ") for line in lines[1:]), captured.err
    assert words in lines[0], captured.err
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    assert not Path(bad_files["OUT"]).exists()  # nothing was written


def test_the_command_reports_a_binary_layout_file_in_a_subprocess(tmp_path):
    """The issue's reproducer, as a user runs it: one line, status 1, no traceback."""
    path = tmp_path / "L.layout"
    path.write_bytes(b"layout L\n\xff\xfe\x00 field")
    result = subprocess.run([sys.executable, "-m", "spf", "show", str(path)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"spf: error: {path}:2:1: not a text file: byte 0xff is not UTF-8; "
                                          "a layout file is UTF-8 text"]


def test_an_unexpected_exception_is_one_internal_error_line(capsys, monkeypatch):
    """The last resort: a bug of spf is still reported as one line, naming the exception."""
    def broken(*arguments, **options):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(spf, "load_layout", broken)
    assert main(["show", "CSR"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == ["spf: error: internal error (a bug in spf, please report it; SPF_TRACEBACK=1 shows "
                                "where): ZeroDivisionError: a bug"]
    monkeypatch.setenv("SPF_TRACEBACK", "1")
    with pytest.raises(ZeroDivisionError):
        main(["show", "CSR"])


# ----------------------------------------------------------------------------- no public call crashes


def run_isolated(script: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run ``script`` in a fresh interpreter: a crash there is a failed test here, not a dead pytest."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "OMP_NUM_THREADS": "2"})


def assert_survived(result: subprocess.CompletedProcess) -> list[str]:
    assert result.returncode == 0, (f"the interpreter exited with {result.returncode}"
                                    f"{' (a crash: signal %d)' % -result.returncode if result.returncode < 0 else ''}"
                                    f"\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}")
    return result.stdout.splitlines()


def test_the_issue_reproducers_do_not_crash():
    result = run_isolated("""
        import numpy as np, scipy.sparse as sp, spf
        k = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
        T = spf.pack("CSR", sp.csr_matrix(np.eye(3)))
        attempts = [
            lambda: T.fields["colIdx"].__setitem__(0, 50_000_000),
            lambda: T.fields.__setitem__("colIdx", np.array([50_000_000, 1, 2], dtype=np.int32)),
            lambda: setattr(T.fields["colIdx"].flags, "writeable", True),
            lambda: setattr(T, "fields", {**T.fields, "colIdx": np.array([50_000_000, 1, 2])}),
            lambda: setattr(T, "shape", (3, 10**9)),
            lambda: np.copyto(T.fields["colIdx"], 50_000_000),
            lambda: T.fields["colIdx"].view().__setitem__(0, 50_000_000),
            lambda: T.fields["colIdx"].reshape(3).__setitem__(0, 50_000_000),
            lambda: T.values.__setitem__(0, 2.0),
        ]
        for attempt in attempts:
            try:
                attempt()
                print("ACCEPTED")
            except (ValueError, TypeError, AttributeError) as error:
                print("refused:", type(error).__name__)
        print("result", k(A=T, x=np.ones(3)).tolist())
        try:
            spf.Tensor(spf.load_layout("CSR"), (3, 3), {**T.fields, "colIdx": np.array([50_000_000, 1, 2])}, "A")
        except spf.PropertyViolation as error:
            print("refused hand-built:", "range(colIdx, 0, numCols)" in str(error))
    """)
    lines = assert_survived(result)
    assert "ACCEPTED" not in lines, lines
    assert lines.count("refused: ValueError") + lines.count("refused: TypeError") \
        + lines.count("refused: AttributeError") == 9
    assert "result [1.0, 1.0, 1.0]" in lines
    assert "refused hand-built: True" in lines


def test_a_scipy_matrix_with_a_corrupted_indptr_is_refused_before_scipy_reads_it():
    """scipy checks indptr when a matrix is built, not after its arrays change, and its
    conversions trust it: tocoo() of such a matrix wrote out of bounds (a crash, or a hang)."""
    result = run_isolated("""
        import numpy as np, scipy.sparse as sp, spf
        k = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
        for kind, layout in ((sp.csr_matrix, "CSR"), (sp.csc_array, "CSC"), (sp.csr_matrix, "DCSR")):
            for indptr in ([0, 2, 100, 4, 5], [0, 2, 3, 9, 5], [0, 2, 3], [1, 2, 3, 4, 5]):
                matrix = kind(sp.random(4, 4, density=0.4, format="csr", random_state=1))
                matrix.data[:] = 1.0
                matrix.indptr = np.array(indptr, dtype=matrix.indptr.dtype)
                for call in (lambda: spf.pack(layout, matrix, copy=None), lambda: spf.pack(layout, matrix, copy=True),
                             lambda: k(A=matrix, x=np.ones(4))):
                    try:
                        call()
                        print("ACCEPTED", layout, indptr)
                    except spf.PackError as error:
                        print("refused:", "matrix is malformed: indptr" in str(error))
    """)
    lines = assert_survived(result)
    assert lines == ["refused: True"] * 36, lines


def test_valid_tensors_from_corrupted_fields_never_crash_a_kernel():
    """Random corruptions of packed fields: each is refused at construction, or the Tensor is
    valid and every kernel over it matches its own to_dense() (no crash, no wrong result)."""
    result = run_isolated("""
        import numpy as np, scipy.sparse as sp, spf
        rng = np.random.default_rng(7)
        matrix = sp.random(6, 5, density=0.4, format="csr", random_state=3)
        matrix.data[:] = rng.integers(1, 9, matrix.nnz)
        x = rng.random(5)
        cases = {"CSR": "dense", "CSC": "dense", "COO": "dense", "DCSR": "dense", "ELL": "dense", "DIA": "dense",
                 "BCSR(R=2, C=2)": "dense", "COO_UNSORTED": "dense", "CSR#sv": "sv"}
        refused = accepted = 0
        for spec, kind in cases.items():
            layout = spec.split("#")[0]
            if kind == "sv":
                k = spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "SV", "y": "Dense"}, find="seqiter")
            else:
                k = spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "Dense", "y": "Dense"})
            packed = spf.pack(layout, matrix, name="A")
            good = {key: np.array(v) if isinstance(v, np.ndarray) else v for key, v in packed.fields.items()}
            arrays = [key for key, v in good.items() if isinstance(v, np.ndarray) and v.dtype.kind in "iu"]
            for trial in range(120):
                fields = {key: v.copy() if isinstance(v, np.ndarray) else v for key, v in good.items()}
                key = arrays[rng.integers(len(arrays))] if rng.random() < 0.8 else \\
                    [k2 for k2, v in good.items() if not isinstance(v, np.ndarray)][0]
                if isinstance(fields[key], np.ndarray):
                    flat = fields[key].reshape(-1)
                    if flat.size:
                        flat[rng.integers(flat.size)] = rng.choice([-1, 0, 1, 2, 5, 6, 7, 2**31 - 1, -2**31,
                                                                    flat.size, flat.size + 1, 50_000_000])
                else:
                    fields[key] = int(max(0, fields[key] + rng.choice([-2, -1, 1, 2])))
                try:
                    A = spf.Tensor(packed.layout, packed.shape, fields, "A")
                except spf.SpfError:
                    refused += 1
                    continue
                accepted += 1
                if kind == "sv":
                    sv = spf.pack("SV", x * (rng.random(5) < 0.5), name="x")
                    y, dense_x = k(A=A, x=sv), sv.to_dense()
                else:
                    y, dense_x = k(A=A, x=x), x
                expected = A.to_dense() @ dense_x
                if not np.allclose(y, expected):
                    print("WRONG", spec, key, fields[key])
        print("refused", refused, "accepted", accepted)
    """, timeout=1200)
    lines = assert_survived(result)
    assert not [line for line in lines if line.startswith("WRONG")], lines
    counts = lines[-1].split()
    assert int(counts[1]) > 100 and int(counts[3]) > 100, lines[-1]  # both outcomes were exercised


def test_a_find_table_too_large_for_memory_is_refused_before_the_kernel_allocates_it(monkeypatch):
    """A hash map over x holds x's positions: 2**20 of them take 2**21 slots, 56 MiB with
    the filter and the touched list (a wide x of one entry needs next to nothing)."""
    from spf.runtime import memory
    kernel = spf.compile(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, find="hashmap")
    n, count = 2**21, 2**20
    A = (np.array([[0, 6]]), np.array([1.0]), (1, n))
    x = (2 * np.arange(count).reshape(-1, 1), np.full(count, 2.0), (n,))
    monkeypatch.setattr(memory, "physical_memory", lambda: 2**25)
    refuse(lambda: kernel(A=A, x=x), "the hash-map table of the find over x_idx would need 56.0 MiB",
           spf.OutOfMemoryError)
    np.testing.assert_allclose(kernel(A=A, x=(np.array([[6]]), np.array([2.0]), (n,))), [2.0])
    monkeypatch.setattr(memory, "physical_memory", lambda: 2**35)
    np.testing.assert_allclose(kernel(A=A, x=x), [2.0])  # the same call where memory suffices
