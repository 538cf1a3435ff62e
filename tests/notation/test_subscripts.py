"""NumPy einsum subscripts as index notation (spf.notation.subscripts)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from spf.errors import NotationError
from spf.notation.subscripts import parse_subscripts


@pytest.mark.parametrize("subscripts, orders, statement", [
    ("ij,j->i", (2, 1), "out(i) = A(i,j) * B(j)"),
    ("ij,jk", (2, 2), "out(i,k) = A(i,j) * B(j,k)"),       # implicit: letters used once, sorted
    ("ji,jk", (2, 2), "out(i,k) = A(j,i) * B(j,k)"),
    ("ij,ij->", (2, 2), "out = A(i,j) * B(i,j)"),
    ("ii->i", (2,), "out(i) = A(i,i)"),
    ("ii", (2,), "out = A(i,i)"),                          # implicit: i is used twice, so summed
    ("Ij, jK -> IK", (2, 2), "out(ii,kk) = A(ii,j) * B(j,kk)"),  # spaces; upper case doubled
])
def test_statement(subscripts, orders, statement):
    assert parse_subscripts(subscripts, orders).statement == statement


@pytest.mark.parametrize("subscripts, orders, message", [
    ("ij,j->i", (2,), "2 operands in the subscripts, 1 given"),
    ("ij,j->i", (2, 2), "operand B has 2 axes but 1 subscript 'j'"),
    ("ij,j->k", (2, 1), "output subscript 'k' is not an operand's"),
    ("ij->ii", (2,), "output subscript 'i' appears more than once"),
    ("...ij->ij", (2,), "ellipsis"),
    ("i1->i", (2,), "'1' is not a subscript"),
    ("ij->i->j", (2,), "more than one '->'"),
    ("ij->i,j", (2,), "the output after '->' is one tensor"),
])
def test_refused(subscripts, orders, message):
    with pytest.raises(NotationError, match=message):
        parse_subscripts(subscripts, orders)


letters = st.text(alphabet="abcdeABC", min_size=0, max_size=3)


@given(st.lists(letters, min_size=1, max_size=3))
def test_implicit_output_is_numpys(inputs):
    """Without '->' the output is numpy's: the letters used once, in ASCII order."""
    shapes = {letter: 2 for letter in "".join(inputs)}
    arrays = [np.ones([shapes[letter] for letter in piece]) for piece in inputs]
    subscripts = ",".join(inputs)
    expected = np.einsum(subscripts, *arrays).ndim
    output = parse_subscripts(subscripts, tuple(len(piece) for piece in inputs)).output
    assert len(output) == expected
    assert output == "".join(sorted(letter for letter in set(output)))
    assert all("".join(inputs).count(letter) == 1 for letter in output)
