"""A UFSet printed back as text, its UF dimensions shown as the calls they stand for and
its hidden variables as ``e0, e1, ...`` (the form :meth:`spf.space.sets.UFSet.parse` reads)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Mapping, Sequence

import islpy as isl

from spf.space.expressions import Affine

if TYPE_CHECKING:
    from spf.space.sets import UFSet

PARAM = isl.dim_type.param


def hidden_names(uf_set: UFSet) -> dict[str, str]:
    """Display names of the hidden variables (e0, e1, ...)."""
    taken = set(uf_set.variables) | set(uf_set.parameters)
    shown = {}
    counter = itertools.count()
    for name in uf_set.hidden:
        candidate = f"e{next(counter)}"
        while candidate in taken:
            candidate = f"e{next(counter)}"
        shown[name] = candidate
    return shown


def call_texts(uf_set: UFSet) -> dict[str, str]:
    """Each UF dimension's call, printed with nested calls expanded."""
    table = uf_set.call_table
    hidden = hidden_names(uf_set)
    cache: dict[str, str] = {}

    def expand(dim: str) -> str:
        if dim not in cache:
            call = table[dim]
            mapping = {}
            for name in call.names():
                if name in table:
                    mapping[name] = expand(name)
                elif name in hidden:
                    mapping[name] = hidden[name]
            text = ", ".join(render_with(a, mapping) for a in call.arguments)
            cache[dim] = f"{call.function}({text})"
        return cache[dim]

    return {dim: expand(dim) for dim in table}


def constraints_text(uf_set: UFSet) -> str:
    """The formula with UF calls printed back (``false`` when empty)."""
    names = call_texts(uf_set)
    names.update(hidden_names(uf_set))
    disjuncts = [text for text in (basic_set_text(basic, names) for basic in uf_set.isl_set.get_basic_sets())
                 if text != "false"]
    if not disjuncts:
        return "false"
    text = " or ".join(f"({d})" for d in disjuncts) if len(disjuncts) > 1 else disjuncts[0]
    if uf_set.hidden:
        text = f"exists ({', '.join(names[h] for h in uf_set.hidden)} : {text})"
    return text


def set_text(uf_set: UFSet) -> str:
    """The set as text the parser reads back: parameters, tuple, constraints with the calls."""
    params = uf_set.parameters
    prefix = f"[{', '.join(params)}] -> " if params else ""
    body = constraints_text(uf_set)
    return f"{prefix}{{ {uf_set.describe_space()} : {body} }}"


def render_with(expression: Affine, mapping: Mapping[str, str]) -> str:
    """An affine expression as text, its names shown as ``mapping`` says."""
    text_terms = []
    for atom, coefficient in expression.terms:
        name = mapping.get(atom, str(atom)) if isinstance(atom, str) else str(atom)
        text_terms.append((name, coefficient))
    return linear_text(text_terms, expression.constant)


def linear_text(terms: Sequence[tuple[str, int]], constant: int) -> str:
    """``2*i - j + 3``: the (name, coefficient) terms and the constant, signs folded in."""
    parts: list[str] = []
    for name, coefficient in terms:
        magnitude = abs(coefficient)
        term = name if magnitude == 1 else f"{magnitude}*{name}"
        if not parts:
            parts.append(term if coefficient > 0 else "-" + term)
        else:
            parts.append(("+ " if coefficient > 0 else "- ") + term)
    if constant or not parts:
        if not parts:
            parts.append(str(constant))
        else:
            parts.append(("+ " if constant > 0 else "- ") + str(abs(constant)))
    return " ".join(parts)


def basic_set_text(basic: isl.BasicSet, names: Mapping[str, str]) -> str:
    """One conjunction's constraints as text (``names`` shows the calls and hidden
    variables), its integer divisions as existential variables; ``false`` when a
    constraint on no name is violated (isl writes an empty conjunction as ``1 = 0``)."""
    if basic.dim(isl.dim_type.div) > 0:
        # Integer divisions become existential variables (isl's own text would show
        # them as floor and mod, which the parser does not read back).
        lifted = basic.lift().flatten()
        count = lifted.dim(isl.dim_type.set)
        taken = set(lifted.get_var_names(PARAM)) | set(names.values())
        local: list[str] = []
        for candidate in (f"d{k}" for k in itertools.count()):
            if len(local) == count:
                break
            if candidate not in taken:
                local.append(candidate)
        for position, name in enumerate(local):
            lifted = lifted.set_dim_name(isl.dim_type.set, position, name)
        lifted = lifted.move_dims(PARAM, lifted.dim(PARAM), isl.dim_type.set, 0, count)
        return f"exists ({', '.join(local)} : {basic_set_text(lifted, names)})"
    parts = []
    for constraint in basic.get_constraints():
        coefficients = constraint.get_coefficients_by_name()
        constant = int(coefficients.pop(1, isl.Val(0)).to_python())
        positive = [(names.get(n, n), int(v.to_python())) for n, v in coefficients.items()
                    if v.to_python() > 0]
        negative = [(names.get(n, n), -int(v.to_python())) for n, v in coefficients.items()
                    if v.to_python() < 0]
        if not positive and not negative:
            if constant < 0 or (constant != 0 and constraint.is_equality()):
                return "false"
            continue
        # positive + constant >= negative (or =), printed with the constant where it reads best
        op = "=" if constraint.is_equality() else "<="
        left_constant, right_constant = (-constant, 0) if constant < 0 else (0, constant)
        if op == "<=" and left_constant > 0 and negative:
            op, left_constant = "<", left_constant - 1
        left = linear_text(negative, left_constant)
        right = linear_text(positive, right_constant)
        parts.append(f"{left} {op} {right}")
    return " and ".join(parts) if parts else "true"
