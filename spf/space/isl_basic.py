"""Small helpers on isl basic sets whose dimensions are all named parameters.

Scanning (:mod:`spf.codegen.scanning.scan`) and enumeration (:mod:`spf.space.enumeration`) both walk the
constraints of one conjunction at a time; these read and project them by name.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

import islpy as isl

PARAM = isl.dim_type.param
_INTERNAL_NAME = re.compile(r"_([a-z]+)(\d+)")  # spf.space.sets' fresh names: _u12, _h3, ...


def _name_order(name: str) -> str:
    """Names in text order, but internal ones by their number (``_u9`` before ``_u10``)."""
    match = _INTERNAL_NAME.fullmatch(name)
    return f"_{match[1]}{int(match[2]):020d}" if match else name


def parameter_list(names: Iterable[str]) -> str:
    """isl's ``[a, b, ...]`` of the distinct ``names`` in a fixed order.

    Fresh internal names are numbered by a process-wide counter; ordering them by number,
    not as text, keeps the order (and so what isl keeps of equal dimensions, and the C
    printed from it) the same whatever earlier compiles in the process took.
    """
    return "[" + ", ".join(sorted(set(names), key=_name_order)) + "]"


def position(basic: isl.BasicSet, name: str) -> int:
    """The parameter position of ``name``, or -1."""
    names = basic.get_var_names(PARAM)
    return names.index(name) if name in names else -1


def project(basic: isl.BasicSet, names: Sequence[str]) -> isl.BasicSet:
    """Existentially quantify the named dimensions that the basic set has."""
    for name in names:
        where = position(basic, name)
        if where >= 0:
            basic = basic.project_out(PARAM, where, 1)
    return basic


def constraints(basic: isl.BasicSet, keep_constant_only: bool = True) -> list[tuple[dict[str, int], int, bool]]:
    """(coefficients by name, constant, is_equality) of ``sum + constant >= 0`` (or ``= 0``)."""
    result = []
    for constraint in basic.get_constraints():
        coefficients = {k: int(v.to_python()) for k, v in constraint.get_coefficients_by_name().items()}
        constant = coefficients.pop(1, 0)
        if coefficients or keep_constant_only:
            result.append((coefficients, constant, constraint.is_equality()))
    return result
