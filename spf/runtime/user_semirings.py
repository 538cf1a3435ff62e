"""``spf.monoid`` and ``spf.operator``: semirings of the user's own operations, given as C.

``spf.monoid("absmax", "fabs(a) >= fabs(b) ? a : b", identity=0.0)`` and
``spf.operator("absdiff", "fabs(a - b)")`` join the built-in monoids and operators by name:
``semiring="absmax_times"``, ``"min_absdiff"``, ``"absmax_absdiff"``.  The expression, in ``a``
and ``b`` of the kernel's value type (``<math.h>`` is included), is compiled once when it is
defined, for every real value type, so that a mistake is an SpfError here and not a compile
error later; then into each kernel that uses it (spf.codegen.c.emit_semiring), and into the
kernel cache's key.  A monoid must be associative and commutative with ``identity`` as its
identity: spf reduces in any order, on several threads, and starts every reduction from the
identity.  Those laws are tried, in float64, on every pair and triple of a few values with ties
among them (:data:`PROBES`): a monoid that breaks one there is refused, naming the values; one
that holds there is trusted for all others.  Z3 knows nothing of what the expression
computes, so nothing that needs a proof about it is done: a layout that stores padding is
refused under it, and no reduction stops early.  ``numpy=`` (a function of two numpy arrays,
elementwise) lets results combine outside generated C: ``accumulate=`` into a dense output
and the ranks of a distributed run; without it those are refused.  Definitions last for the
process.
"""

from __future__ import annotations

import ctypes
import math
import numbers
import re
from typing import Callable

from spf.codegen.c.emit_semiring import monoid_function, operator_function, user_operations_source
from spf.codegen.toolchain.compiler import CFLAGS, build_shared_library, load_function
from spf.errors import SpfError
from spf.notation.semirings import (MONOIDS, OPERATORS, USER_MONOIDS, USER_OPERATORS, Monoid, Operator, Semiring,
                                    UserDefinition, user_meaning)

MONOID_NAME = re.compile(r"[a-z][a-z0-9]*\Z")  # no "_": a semiring's name splits at its first
OPERATOR_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


def monoid(name: str, c: str, identity: float, numpy: Callable | None = None) -> Monoid:
    """Define the monoid ``name``: ``a ⊕ b`` is the C expression ``c``, with ``identity`` its
    identity (see the module's docstring).  Defining it again the same way is allowed."""
    _check_name(name, MONOID_NAME, "monoid", MONOIDS, "lowercase letters and digits, no '_'")
    if isinstance(identity, bool) or not isinstance(identity, numbers.Real) or math.isnan(identity):
        raise SpfError(f"monoid {name!r}: identity must be a real number (inf and -inf allowed), got {identity!r}")
    made = Monoid(name, float(identity), None, monoid_function(name), monoid_function(name),
                  user_meaning(monoid_function(name)), user=UserDefinition(c, numpy))
    kept = _kept(USER_MONOIDS, made, "monoid", lambda kept: kept.identity == made.identity)
    if kept is None:
        _check_laws(made, _compiled(made, "monoid"))
        kept = USER_MONOIDS[name] = made
    return kept


def operator(name: str, c: str, numpy: Callable | None = None) -> Operator:
    """Define the operator ``name``: ``a ⊗ b`` is the C expression ``c``."""
    _check_name(name, OPERATOR_NAME, "operator", OPERATORS, "lowercase letters, digits and '_'")
    made = Operator(name, None, operator_function(name), user_meaning(operator_function(name)),
                    user=UserDefinition(c, numpy))
    kept = _kept(USER_OPERATORS, made, "operator", lambda kept: True)
    if kept is None:
        _compiled(made, "operator")
        kept = USER_OPERATORS[name] = made
    return kept


def _check_name(name: str, pattern: re.Pattern, kind: str, built_in: dict, spelled: str) -> None:
    if not isinstance(name, str) or not pattern.match(name):
        raise SpfError(f"{kind} name {name!r}: use {spelled}, starting with a letter")
    if name in built_in:
        raise SpfError(f"{kind} {name!r} is built in; give yours another name")


def _compiled(part: Monoid | Operator, kind: str) -> Callable[[float, float], float]:
    """The operation compiled for every real value type (an SpfError when its C is not one
    expression or does not compile), and its float64 function to call from Python."""
    c = part.user.c
    if not isinstance(c, str) or not c.strip():
        raise SpfError(f"{kind} {part.name!r}: give a C expression in a and b, such as 'a > b ? a : b'")
    if any(mark in c for mark in (";", "{", "}", "#", "\n", "/*", "//")):
        raise SpfError(f"{kind} {part.name!r}: {c!r} is not one C expression (no ';', braces, comments, '#' or "
                       "new lines)")
    ring = Semiring(part.name, part, OPERATORS["times"]) if kind == "monoid" else \
        Semiring(part.name, MONOIDS["plus"], part)
    source = ("#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n\n" + user_operations_source(ring)
              + f"double spf_probe(double a, double b) {{ return {part.c_function}_float64(a, b); }}\n")
    try:
        # a misspelt function would only warn, and fail when a kernel loads: an error here
        library = build_shared_library(source, [*CFLAGS, "-Werror=implicit-function-declaration"],
                                       name=f"spf_{kind}_{part.name}")
    except SpfError as error:
        raise SpfError(f"{kind} {part.name!r}: the C expression {c!r} does not compile for every real value "
                       f"type:\n{error}") from None
    return load_function(library, "spf_probe", [ctypes.c_double, ctypes.c_double], ctypes.c_double)


PROBES = (-3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0)
"""Values a monoid's laws are tried on (ties of magnitude and sign among them)."""


def _check_laws(monoid: Monoid, apply: Callable[[float, float], float]) -> None:
    """An SpfError when the compiled monoid breaks a law spf relies on, on a pair or triple of
    :data:`PROBES` and its identity: the identity leaves a value as it is (a dense output starts
    from it, a sparse one from the first value), and the order of a reduction does not matter
    (threads and split registers reduce in other orders)."""
    values = (*PROBES, monoid.identity)
    e = monoid.identity
    for a in values:
        if not (_same(apply(e, a), a) and _same(apply(a, e), a)):
            raise _broken(monoid, f"{e!r} is no identity: with a = {a!r}, e ⊕ a = {apply(e, a)!r} and a ⊕ e = "
                                  f"{apply(a, e)!r}")
        for b in values:
            if not _same(apply(a, b), apply(b, a)):
                raise _broken(monoid, f"it is not commutative: {a!r} ⊕ {b!r} = {apply(a, b)!r} but {b!r} ⊕ {a!r} = "
                                      f"{apply(b, a)!r} (break ties the same way whatever the order)")
            for c in values:
                if not _same(apply(apply(a, b), c), apply(a, apply(b, c))):
                    raise _broken(monoid, f"it is not associative: ({a!r} ⊕ {b!r}) ⊕ {c!r} = "
                                          f"{apply(apply(a, b), c)!r} but {a!r} ⊕ ({b!r} ⊕ {c!r}) = "
                                          f"{apply(a, apply(b, c))!r}")


def _same(x: float, y: float) -> bool:
    return x == y or (math.isnan(x) and math.isnan(y))


def _broken(monoid: Monoid, what: str) -> SpfError:
    return SpfError(f"monoid {monoid.name!r} ({monoid.user.text()}, identity {monoid.identity!r}): {what}; spf "
                    "reduces in any order from the identity, so a monoid must be associative and commutative with "
                    "its identity")


def _kept(registry: dict, made, kind: str, same: Callable) -> Monoid | Operator | None:
    """The definition of ``made``'s name kept already when it is the same, None when there is
    none, an SpfError when it differs (definitions last for the process)."""
    kept = registry.get(made.name)
    if kept is not None and not (kept.user.c == made.user.c and same(kept)):
        raise SpfError(f"{kind} {made.name!r} is defined already ({kept.user.text()}); definitions last for the "
                       "process: give another name")
    return kept
