"""A statement under a semiring, computed entry by entry in Python: the reference the
semiring tests compare spf's kernels with (independent of spf's C and of GraphBLAS).

Each operand is its entries, coordinates -> value: a scipy matrix's stored entries, every
position of a numpy array.  For each term, every assignment of the indices at which all
its factors have an entry gives the product of the factors' values (⊗ left to right);
the products reduce with ⊕ into the output's entry at the output's indices, and the terms
into one another.  A dense output's entry that nothing reaches holds ⊕'s identity.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from spf.notation.statements import parse_statement

MONOIDS = {
    "plus": lambda a, b: a + b,
    "times": lambda a, b: a * b,
    "min": lambda a, b: float(np.fmin(a, b)),
    "max": lambda a, b: float(np.fmax(a, b)),
    "lor": lambda a, b: float(bool(a) or bool(b)),
    "land": lambda a, b: float(bool(a) and bool(b)),
    "any": lambda a, b: a if a != 0 else b,  # spf's choice: the first value that is not 0
}
OPERATORS = {
    "times": lambda a, b: a * b,
    "plus": lambda a, b: a + b,
    "minus": lambda a, b: a - b,
    "first": lambda a, b: a,
    "second": lambda a, b: b,
    "pair": lambda a, b: 1.0,
    "min": lambda a, b: float(np.fmin(a, b)),
    "max": lambda a, b: float(np.fmax(a, b)),
    "land": lambda a, b: float(bool(a) and bool(b)),
    "lor": lambda a, b: float(bool(a) or bool(b)),
}
IDENTITIES = {"plus": 0.0, "times": 1.0, "min": math.inf, "max": -math.inf, "lor": 0.0, "land": 1.0, "any": 0.0}


def entries(value) -> dict[tuple, float]:
    """Coordinates -> value of each entry: a dict as it is, a sparse matrix's stored ones, an
    array's every one."""
    if isinstance(value, dict):
        return value
    if sp.issparse(value):
        coo = sp.coo_matrix(value)
        return {(int(i), int(j)): float(v) for i, j, v in zip(coo.row, coo.col, coo.data)}
    array = np.asarray(value, dtype=float)
    return {tuple(int(c) for c in index): float(array[index]) for index in np.ndindex(array.shape)}


def _products(factors, known: dict, multiply):
    """(index -> value, product) for every assignment at which each factor has an entry: the
    factors joined in order, each one's entries grouped by the indices bound before it."""
    bound: list[str] = []
    steps = []
    for access in factors:
        indices = tuple(access.indices)
        keys = tuple(k for k, index in enumerate(indices) if index in bound)
        groups: dict[tuple, list] = {}
        for coordinates, value in known[access.tensor].items():
            groups.setdefault(tuple(coordinates[k] for k in keys), []).append((coordinates, value))
        steps.append((indices, keys, groups))
        bound.extend(index for index in indices if index not in bound)

    def join(step: int, at: dict, product):
        if step == len(steps):
            yield at, product
            return
        indices, keys, groups = steps[step]
        for coordinates, value in groups.get(tuple(at[indices[k]] for k in keys), ()):
            inner = dict(at)
            if all(inner.setdefault(index, c) == c for index, c in zip(indices, coordinates)):  # A(i,i): i once
                yield from join(step + 1, inner, value if product is None else multiply(product, value))

    yield from join(0, {}, None)


def reference(expression: str, semiring: str, shape: tuple, magnitudes: bool = False, **operands):
    """The statement's output under ``semiring``: an array of ``shape`` (a float for a scalar
    output, ``shape == ()``), ⊕'s identity where no product reaches.  An operand is a numpy
    array, a scipy matrix or its entries (coordinates -> value).  ``magnitudes``: the sum of
    the products' absolute values instead (0 where none): a tolerance's scale."""
    monoid, operator = semiring.split("_", 1)
    add, multiply = MONOIDS[monoid], OPERATORS[operator]
    if magnitudes:
        monoid, add = "plus", lambda total, product: total + abs(product)
    statement = parse_statement(expression)
    known = {name: entries(value) for name, value in operands.items()}
    result = np.full(shape, IDENTITIES[monoid])
    for term in statement.terms:
        for at, product in _products(term.factors, known, multiply):
            position = tuple(at[i] for i in statement.output.indices)
            result[position] = add(result[position], product)
    return float(result) if shape == () else result
