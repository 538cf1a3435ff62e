"""Tests of the tensor index notation parser (spf.notation.statements)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spf.errors import NotationError, ParseError
from spf.notation.statements import MAX_NESTING, MAX_TERMS, Access, Statement, Term, parse_statement

EXAMPLES = [
    "C(i,j) = A(i,k) * B(k,j)",
    "a = b(i) * c(i)",
    "y(i) = A(i,j) * x(j) + z(i)",
    "A(i,j) = B(i,j) * C(i,k) * D(k,j)",
    "A(i,j,k) = B(i,j,l) * C(k,l)",
    "A(i,j) = B(i,k,l) * C(k,j) * D(l,j)",
    "v = A(i) * B(i) * C(i)",
    "y(i) = 2 * A(i,j) * x(j) - z(i)",
    "y(i) += A(i,j)*x(j)",
]


# -- structure of the examples


@pytest.mark.parametrize(
    "text, tensors, inputs, indices, reductions",
    [
        ("C(i,j) = A(i,k) * B(k,j)", {"C": 2, "A": 2, "B": 2}, ("A", "B"), ("i", "j", "k"), [("k",)]),
        ("a = b(i) * c(i)", {"a": 0, "b": 1, "c": 1}, ("b", "c"), ("i",), [("i",)]),
        ("y(i) = A(i,j) * x(j) + z(i)", {"y": 1, "A": 2, "x": 1, "z": 1}, ("A", "x", "z"), ("i", "j"), [("j",), ()]),
        ("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": 2, "B": 2, "C": 2, "D": 2}, ("B", "C", "D"), ("i", "j", "k"), [("k",)]),
        ("A(i,j,k) = B(i,j,l) * C(k,l)", {"A": 3, "B": 3, "C": 2}, ("B", "C"), ("i", "j", "k", "l"), [("l",)]),
        ("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)", {"A": 2, "B": 3, "C": 2, "D": 2}, ("B", "C", "D"), ("i", "j", "k", "l"), [("k", "l")]),
        ("v = A(i) * B(i) * C(i)", {"v": 0, "A": 1, "B": 1, "C": 1}, ("A", "B", "C"), ("i",), [("i",)]),
        ("y(i) = 2 * A(i,j) * x(j) - z(i)", {"y": 1, "A": 2, "x": 1, "z": 1}, ("A", "x", "z"), ("i", "j"), [("j",), ()]),
        ("y(i) += A(i,j)*x(j)", {"y": 1, "A": 2, "x": 1}, ("A", "x"), ("i", "j"), [("j",)]),
    ],
)
def test_examples(text, tensors, inputs, indices, reductions):
    statement = parse_statement(text)
    assert statement.tensors == tensors
    assert list(statement.tensors) == list(tensors)  # output first, then order of appearance
    assert statement.inputs == inputs
    assert statement.indices == indices
    assert [statement.reduction_indices(term) for term in statement.terms] == reductions


def test_matrix_multiply_structure():
    statement = parse_statement("C(i,j) = A(i,k) * B(k,j)")
    assert statement.output == Access("C", ("i", "j"))
    assert statement.terms == (Term(1, (Access("A", ("i", "k")), Access("B", ("k", "j")))),)
    assert statement.terms[0].indices == ("i", "k", "j")
    assert not statement.accumulate
    assert statement.text == "C(i,j) = A(i,k) * B(k,j)"


def test_offsets_point_at_tensor_names():
    statement = parse_statement("C(i,j) = A(i,k) * B(k,j)")
    assert statement.output.offset == 0
    assert [access.offset for access in statement.terms[0].factors] == [9, 18]
    assert statement.output.index_offsets == (2, 4)


def test_coefficients_and_signs():
    statement = parse_statement("y(i) = 2 * A(i,j) * x(j) - z(i)")
    assert [term.coefficient for term in statement.terms] == [2, -1]
    assert statement.terms[1].factors == (Access("z", ("i",)),)
    assert parse_statement("y(i) = -x(i)").terms[0].coefficient == -1
    assert parse_statement("y(i) = x(i) * 0.5 * 4").terms[0].coefficient == 2.0
    assert parse_statement("a = 3").terms == (Term(3, ()),)


def test_accumulate():
    assert parse_statement("y(i) += A(i,j)*x(j)").accumulate
    assert not parse_statement("y(i) = A(i,j)*x(j)").accumulate


def test_scalar_forms():
    assert parse_statement("a() = b()") == parse_statement("a = b")
    assert parse_statement("a() = b()").output == Access("a", ())


def test_repeated_index_on_the_right_is_allowed():
    statement = parse_statement("a = A(i,i)")
    assert statement.terms[0].factors[0].indices == ("i", "i")
    assert statement.reduction_indices(statement.terms[0]) == ("i",)


def test_whitespace_is_ignored():
    assert parse_statement(" y ( i )\t=\nA( i , j )*x(j) ") == parse_statement("y(i)=A(i,j)*x(j)")


def test_parentheses_are_distributed():
    statement = parse_statement("a = -(b + 2*c) * (d - 0.5*e)")
    assert [(term.coefficient, [f.tensor for f in term.factors]) for term in statement.terms] == [
        (-1, ["b", "d"]),
        (0.5, ["b", "e"]),
        (-2, ["c", "d"]),
        (1.0, ["c", "e"]),
    ]
    assert str(statement) == "a = -b * d + 0.5 * b * e - 2 * c * d + 1.0 * c * e"
    assert statement.inputs == ("b", "c", "d", "e")  # the text's order, not the terms' (b, d, e, c)


def test_split_one_statement_per_term():
    first, second = parse_statement("A(i,j) = B(i,j) + C(i,j)").split()
    assert str(first) == "A(i,j) = B(i,j)"
    assert str(second) == "A(i,j) += C(i,j)"
    assert (first.accumulate, second.accumulate) == (False, True)


def test_split_keeps_accumulate_and_signs():
    parts = parse_statement("y(i) += 2 * A(i,j) * x(j) - z(i)").split()
    assert [str(part) for part in parts] == ["y(i) += 2 * A(i,j) * x(j)", "y(i) += -z(i)"]
    assert all(part.accumulate for part in parts)
    (only,) = parse_statement("C(i,j) = A(i,k) * B(k,j)").split()
    assert only == parse_statement("C(i,j) = A(i,k) * B(k,j)")


def test_canonical_printing():
    assert str(parse_statement("y(i)+=A(i,j)*x(j)")) == "y(i) += A(i,j) * x(j)"
    assert str(parse_statement("y(i) = -2*x(i) - z(i) + 1.5 * w(i)")) == "y(i) = -2 * x(i) - z(i) + 1.5 * w(i)"
    assert str(parse_statement("a = 1 - 1")) == "a = 1 - 1"
    assert str(parse_statement("a = -0.0 * b")) == "a = -0.0 * b"


@pytest.mark.parametrize("text", EXAMPLES)
def test_examples_round_trip(text):
    statement = parse_statement(text)
    assert parse_statement(str(statement)) == statement


# -- errors, each at an exact column


@pytest.mark.parametrize(
    "text, column, message",
    [
        # syntax
        ("", 1, "empty statement"),
        ("   ", 4, "empty statement"),
        ("2 = x", 1, "expected the output tensor name, found '2'"),
        ("y(i)", 5, "expected '=' or '+=' after the output, found the end of the statement"),
        ("y(i) x(i)", 6, "expected '=' or '+='"),
        ("y(i) + = x(i)", 6, "expected '=' or '+='"),
        ("y(i) = ", 8, "expected a tensor, a number or '('"),
        ("y(i) = x(i) * * z(i)", 15, "expected a tensor, a number or '('"),
        ("y(i) = x(i) * -z(i)", 15, "expected a tensor, a number or '('"),
        ("y(i) = x(i", 11, "expected ',' or ')' after index 'i'"),
        ("y(i j) = x(i)", 5, "expected ',' or ')' after index 'i', found 'j'"),
        ("y(,) = x", 3, "expected an index name"),
        ("y(i) = x(2)", 10, "expected an index name, found '2'"),
        ("y(i) = (x(i)", 13, "expected ')' to close the '(' at column 8"),
        ("y(i) = x(i))", 12, "expected '+', '-', '*' or the end of the statement, found ')'"),
        ("y(i) = x(i) z(i)", 13, "found 'z'"),
        ("y(i) = x(i) $", 13, "unexpected character '$'"),
        ("y(i) = x(i) .", 13, "unexpected character '.'"),
        ("a = 1e999 * b", 5, "number out of range"),
        ("a = " + "9" * 400 + " * b", 5, "number out of range"),
        ("a = " + "9" * 5000 + " * b", 5, "number out of range"),
        ("a = 1e200 * 1e200 * b", 13, "coefficient out of range"),
        # a tensor used with different orders
        ("y(i) = A(i,j) * A(j)", 17, "tensor 'A' has order 1 here but order 2 at column 8"),
        ("y(i) = A(i,j) * x(j) + A(i)", 24, "tensor 'A' has order 1 here but order 2 at column 8"),
        ("a = b * b(i)", 9, "tensor 'b' has order 1 here but order 0 at column 5"),
        # the output on the right-hand side
        ("y(i) = y(i)", 8, "the output tensor 'y' also appears on the right-hand side"),
        ("y(i) = x(i) + 2 * y(i)", 19, "the output tensor 'y' also appears on the right-hand side"),
        ("y(i) = y(i,j) * x(j)", 8, "the output tensor 'y' also appears"),
        # an output index missing from a term
        ("y(i) = x(j)", 8, "output index 'i' does not appear in this term"),
        ("y(i) = A(i,j) * x(j) + 3 * z(k)", 24, "output index 'i' does not appear in this term"),
        ("y(i) = A(i,j) * x(j) - z(k)", 24, "output index 'i' does not appear in this term"),
        ("y(i) = 2", 8, "output index 'i' does not appear in this term"),
        ("C(i,j) = A(i,k) * B(k,i)", 10, "output index 'j' does not appear in this term"),
        # an index repeated in the output
        ("A(i,i) = B(i)", 5, "index 'i' is repeated in the output A(i,i)"),
        ("A(i,j,j) = B(i,j)", 7, "index 'j' is repeated in the output"),
        # an index named like a tensor
        ("y(i) = i(j) * x(i)", 8, "'i' is used as a tensor here but as an index at column 3"),
        ("y(i) = A(i,A)", 12, "'A' is used as an index here but as a tensor at column 8"),
        ("y(y) = x(y)", 3, "'y' is used as an index here but as a tensor at column 1"),
    ],
)
def test_errors(text, column, message):
    with pytest.raises(NotationError) as raised:
        parse_statement(text)
    assert raised.value.column == column
    assert message in raised.value.message


def test_error_on_a_later_line_reports_its_column():
    with pytest.raises(NotationError) as raised:
        parse_statement("y(i) =\n  x(j)")
    assert (raised.value.line, raised.value.column) == (2, 3)


def test_error_renders_column_source_and_caret():
    with pytest.raises(ParseError) as raised:
        parse_statement("y(i) = x(j)")
    assert str(raised.value) == (
        "column 8: output index 'i' does not appear in this term\n  y(i) = x(j)\n         ^"
    )


def test_nesting_limit():
    text = "a = " + "(" * (MAX_NESTING + 1) + "b" + ")" * (MAX_NESTING + 1)
    with pytest.raises(NotationError, match="nested too deeply") as raised:
        parse_statement(text)
    assert raised.value.column == 4 + MAX_NESTING + 1
    deepest_allowed = "a = " + "(" * MAX_NESTING + "b" + ")" * MAX_NESTING
    assert parse_statement(deepest_allowed) == parse_statement("a = b")


def test_expansion_limit():
    factors = 1
    while 2**factors <= MAX_TERMS:
        factors += 1
    text = "a = " + " * ".join(["(b + c)"] * factors)
    with pytest.raises(NotationError, match="more than") as raised:
        parse_statement(text)
    assert raised.value.offset == text.rfind("*")


# -- property tests

INDEX_NAMES = ["i", "j", "k", "l", "m", "n"]
INPUT_NAMES = ["A", "B", "x", "val", "T_2"]
SEPARATORS = st.sampled_from(["", " ", "  ", "\t", "\n"])


def access_tokens(name: str, indices: list[str], empty_parentheses: bool) -> list[str]:
    if not indices:
        return [name, "(", ")"] if empty_parentheses else [name]
    tokens = [name, "("]
    for position, index in enumerate(indices):
        tokens += ([","] if position else []) + [index]
    return tokens + [")"]


@st.composite
def well_formed_statements(draw) -> tuple[str, int]:
    """Text of a random valid statement (as a token list joined by random spaces), and its term count."""
    orders = {name: draw(st.integers(0, 3)) for name in INPUT_NAMES}
    output_indices = draw(st.lists(st.sampled_from(INDEX_NAMES), unique=True, max_size=3))
    tokens = access_tokens(draw(st.sampled_from(["y", "Out", "s_1"])), output_indices, draw(st.booleans()))
    tokens.append(draw(st.sampled_from(["=", "+="])))
    term_count = draw(st.integers(1, 4))
    for position in range(term_count):
        factors: list[list[str]] = []
        covered: set[str] = set()
        for name in draw(st.lists(st.sampled_from(INPUT_NAMES), max_size=3)):
            indices = draw(st.lists(st.sampled_from(INDEX_NAMES), min_size=orders[name], max_size=orders[name]))
            factors.append(access_tokens(name, indices, draw(st.booleans())))
            covered.update(indices)
        for index in output_indices:
            if index not in covered:  # every term must define every output index
                factors.append(access_tokens("v", [index], False))
        coefficient = draw(
            st.one_of(
                st.none(),
                st.integers(0, 10**6),
                st.floats(0, 1e6, allow_nan=False, allow_infinity=False),
            )
        )
        if coefficient is not None or not factors:
            place = draw(st.integers(0, len(factors)))
            factors.insert(place, [repr(coefficient if coefficient is not None else 1)])
        negative = draw(st.booleans())
        if position > 0:
            tokens.append("-" if negative else "+")
        elif negative:
            tokens.append("-")
        for number, factor in enumerate(factors):
            tokens += (["*"] if number else []) + factor
    text = ""
    for token in tokens:
        text += draw(SEPARATORS) + token
    return text + draw(SEPARATORS), term_count


@settings(deadline=None, max_examples=300)
@given(well_formed_statements())
def test_random_statements_parse_and_round_trip(generated):
    text, term_count = generated
    statement = parse_statement(text)
    assert len(statement.terms) == term_count
    printed = str(statement)
    again = parse_statement(printed)
    assert again == statement
    assert str(again) == printed
    assert set(statement.inputs) <= set(INPUT_NAMES) | {"v"}
    for term in statement.terms:
        assert set(statement.output.indices) <= set(term.indices)
    parts = statement.split()
    assert [part.terms for part in parts] == [(term,) for term in statement.terms]
    assert [part.accumulate for part in parts][1:] == [True] * (term_count - 1)


SCALARS = ["p", "q", "r", "s"]


@st.composite
def scalar_expressions(draw, depth: int = 0) -> tuple[str, int]:
    """A random parenthesized expression over scalar tensors, with its value at VALUES."""
    text, total = "", 0
    for position in range(draw(st.integers(1, 3))):
        term_text, term_value = "", 1
        for number in range(draw(st.integers(1, 2))):
            kind = draw(st.sampled_from(["tensor", "number", "parentheses"] if depth < 2 else ["tensor", "number"]))
            if kind == "tensor":
                name = draw(st.sampled_from(SCALARS))
                factor_text, factor_value = name, VALUES[name]
            elif kind == "number":
                factor_value = draw(st.integers(0, 9))
                factor_text = str(factor_value)
            else:
                inner_text, factor_value = draw(scalar_expressions(depth + 1))
                factor_text = f"({inner_text})"
            term_text += (" * " if number else "") + factor_text
            term_value *= factor_value
        negative = draw(st.booleans())
        if position == 0:
            text = ("-" if negative else "") + term_text
        else:
            text += (" - " if negative else " + ") + term_text
        total += -term_value if negative else term_value
    return text, total


VALUES = {"p": 2, "q": -3, "r": 5, "s": 7}


@settings(deadline=None)
@given(scalar_expressions())
def test_distributing_parentheses_keeps_the_value(generated):
    text, value = generated
    statement = parse_statement("out = " + text)
    expanded = sum(term.coefficient * math.prod(VALUES[f.tensor] for f in term.factors) for term in statement.terms)
    assert expanded == value
    assert all(not term.indices for term in statement.terms)
    assert parse_statement(str(statement)) == statement


def expect_notation_error_or_round_trip(text: str) -> None:
    try:
        statement = parse_statement(text)
    except NotationError as error:
        assert 0 <= error.offset <= len(text)
        assert str(error).startswith(f"column {error.column}: ")
    else:
        assert isinstance(statement, Statement)
        assert parse_statement(str(statement)) == statement


@settings(deadline=None, max_examples=500)
@given(st.text(max_size=60))
def test_garbage_text_only_raises_notation_error(text):
    expect_notation_error_or_round_trip(text)


TOKEN_SOUP = st.sampled_from(
    ["A", "x", "y", "i", "j", "(", ")", ",", "=", "+=", "+", "-", "*", "2", "0.5", "1e3", ".", " ", "$", "\n"]
)


@settings(deadline=None, max_examples=500)
@given(st.lists(TOKEN_SOUP, max_size=25).map("".join))
def test_token_soup_only_raises_notation_error(text):
    expect_notation_error_or_round_trip(text)
