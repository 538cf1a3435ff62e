"""Integer sets and relations whose constraints call uninterpreted functions, on islpy.

isl has no uninterpreted functions (UFs).  Following DESIGN.md decision 1, each
distinct call ``f(args)`` gets a fresh isl dimension (a *UF dimension*) and a side
table records which call it stands for.  isl then does the set algebra exactly on
the enlarged space; this module adds what isl cannot know:

* functional consistency: calls of one function with provably equal arguments have
  equal values (added exactly, as ``args equal => values equal``);
* index-array properties (:mod:`spf.space.properties`), instantiated on pairs of calls;
* printing back with the calls.

Every dimension is kept as a *named* isl parameter (the isl set has no set
dimensions), so isl aligns operands by name.  Which names are tuple variables,
existential variables that UF arguments still need (*hidden* variables), UF
dimensions or symbolic constants is this module's bookkeeping.

A relation ``{[a] -> [b] : ...}`` is a :class:`UFSet` whose tuple is ``a + b`` and
that remembers how many variables are inputs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping, Sequence

import islpy as isl

from spf.errors import SpfError
from spf.space.enumeration import enumerate_points, scan_order
from spf.space.expressions import (Affine, And, Constraint, Exists, Formula, Not, Or, UFCall, formula_calls,
                                   formula_names, parse_set_text)
from spf.space.isl_basic import parameter_list
from spf.space.set_text import call_texts, constraints_text, hidden_names, set_text

PARAM = isl.dim_type.param
_fresh_counter = itertools.count()
ISL_RESERVED = {"min", "max", "floor", "ceil", "mod", "infty", "rat", "and", "or", "not",
                "exists", "true", "false", "implies", "xor"}


def _fresh(prefix: str) -> str:
    return f"_{prefix}{next(_fresh_counter)}"


def _is_internal(name: str) -> bool:
    return name.startswith("_")


# ----------------------------------------------------------------------------- isl text


def _affine_to_isl(expression: Affine, dims: Mapping[UFCall, str]) -> str:
    return str(expression.substitute({call: Affine.of(name) for call, name in dims.items()}))


def formula_to_isl(formula: Formula) -> str:
    """isl text of a formula whose UF calls were already replaced by dimension names."""
    if isinstance(formula, Constraint):
        return f"{formula.left} {formula.op} {formula.right}"
    if isinstance(formula, And):
        return " and ".join(f"({formula_to_isl(p)})" for p in formula.parts) if formula.parts else "true"
    if isinstance(formula, Or):
        return " or ".join(f"({formula_to_isl(p)})" for p in formula.parts) if formula.parts else "false"
    if isinstance(formula, Not):
        return f"not ({formula_to_isl(formula.part)})"
    return f"exists ({', '.join(formula.variables)} : {formula_to_isl(formula.body)})"


def _param_set(formula_text: str, names: Iterable[str]) -> isl.Set:
    return isl.Set(f"{parameter_list(names)} -> {{ : {formula_text} }}")


def _universe(names: Iterable[str]) -> isl.Set:
    return _param_set("true", names)


def _pinned(isl_set: isl.Set, names: Sequence[str]) -> isl.Set:
    """``isl_set`` with the dimensions ``names`` fixed to 0."""
    if not names:
        return isl_set
    return isl_set.intersect(_param_set(" and ".join(f"{n} = 0" for n in names), names))


def _param_names(isl_set: isl.Set) -> list[str]:
    return isl_set.get_var_names(PARAM)


def _project_names(isl_set: isl.Set, names: Iterable[str]) -> isl.Set:
    for name in names:
        position = isl_set.find_dim_by_name(PARAM, name)
        if position >= 0:
            isl_set = isl_set.project_out(PARAM, position, 1)
    return isl_set


def _rename_isl(isl_set: isl.Set, renaming: Mapping[str, str]) -> isl.Set:
    # Two steps through fresh names so that swaps (a->b, b->a) work.
    temporary = {old: _fresh("t") for old in renaming}
    for step in (temporary, {temporary[old]: new for old, new in renaming.items()}):
        for old, new in step.items():
            position = isl_set.find_dim_by_name(PARAM, old)
            if position >= 0:
                isl_set = isl_set.set_dim_name(PARAM, position, new)
    return isl_set


# ----------------------------------------------------------------------------- UFSet


@dataclass(frozen=True)
class UFSet:
    """A set (``n_in`` None) or relation of integer tuples with UF calls.

    ``calls`` maps each UF dimension to the call it stands for; arguments are affine
    in tuple variables, hidden variables, symbolic constants and other UF dimensions.
    """

    isl_set: isl.Set
    variables: tuple[str, ...]
    n_in: int | None = None
    hidden: tuple[str, ...] = ()
    calls: tuple[tuple[str, UFCall], ...] = ()

    # -- construction
    @staticmethod
    def parse(text: str) -> "UFSet":
        """Parse ``[params] -> { [vars] (-> [vars])? : formula }`` with UF calls."""
        from spf.arguments import text as text_argument
        parsed = parse_set_text(text_argument(text, "the set", "isl syntax such as '{ [i] : 0 <= i < n }'"))
        if parsed.output is None:
            return UFSet.from_formula(parsed.input, parsed.formula)
        return UFSet.from_formula(parsed.input + parsed.output, parsed.formula, n_in=len(parsed.input))

    @staticmethod
    def from_formula(variables: Sequence[str], formula: Formula, n_in: int | None = None) -> "UFSet":
        """Build from a formula over ``variables``; other free names are symbolic constants."""
        variables = tuple(variables)
        for name in set(variables) | formula_names(formula):
            if name in ISL_RESERVED or _is_internal(name):
                raise SpfError(f"{name!r} cannot be used as a variable or constant name")
        if len(set(variables)) != len(variables):
            raise SpfError(f"repeated variable in tuple {variables}")
        formula, hidden = _lift_existentials(formula)
        free = set(variables) | set(hidden) | formula_names(formula)
        for call in formula_calls(formula):
            bound = call.names() - free
            if bound:
                # One UF dimension cannot stand for a call whose value varies with a
                # variable quantified inside (an exists under a negation).
                raise SpfError(f"call {call} uses {sorted(bound)[0]!r}, which is quantified "
                               f"under a negation; UF calls may only use free or "
                               f"existential (positive) variables")
        dims: dict[UFCall, str] = {}
        for call in formula_calls(formula):
            canonical = call.substitute({c: Affine.of(n) for c, n in dims.items()})
            if canonical not in dims:
                dims[canonical] = _fresh("u")
            dims.setdefault(call, dims[canonical])
        canonical_calls = {}
        for call, name in dims.items():
            canonical_calls.setdefault(name, call.substitute(
                {c: Affine.of(n) for c, n in dims.items() if n != name}))
        text = formula_to_isl(_replace_calls(formula, dims))
        names = set(variables) | set(hidden) | set(canonical_calls) | formula_names(formula)
        isl_set = _param_set(text, names)
        result = UFSet(isl_set, variables, n_in, tuple(hidden), tuple(canonical_calls.items()))
        return result._consistent()._drop_unused_internals()

    @staticmethod
    def universe(variables: Sequence[str], n_in: int | None = None) -> "UFSet":
        return UFSet(_universe(variables), tuple(variables), n_in)

    # -- bookkeeping
    @property
    def is_relation(self) -> bool:
        return self.n_in is not None

    @property
    def input(self) -> tuple[str, ...]:
        return self.variables[: self.n_in] if self.is_relation else self.variables

    @property
    def output(self) -> tuple[str, ...]:
        return self.variables[self.n_in:] if self.is_relation else ()

    @property
    def call_table(self) -> dict[str, UFCall]:
        return dict(self.calls)

    @property
    def parameters(self) -> list[str]:
        """The symbolic constants (names that are no variable and no internal dimension)."""
        own = set(self.variables) | set(self.hidden) | set(self.call_table)
        return sorted(n for n in _param_names(self.isl_set) if n not in own)

    def _replace(self, **changes) -> "UFSet":
        fields = dict(isl_set=self.isl_set, variables=self.variables, n_in=self.n_in,
                      hidden=self.hidden, calls=self.calls)
        fields.update(changes)
        return UFSet(**fields)

    def rename(self, renaming: Mapping[str, str]) -> "UFSet":
        """Rename tuple variables (and symbolic constants); calls follow."""
        renaming = {old: new for old, new in renaming.items() if old != new}
        if not renaming:
            return self
        substitution = {old: Affine.of(new) for old, new in renaming.items()}
        return self._replace(
            isl_set=_rename_isl(self.isl_set, renaming),
            variables=tuple(renaming.get(v, v) for v in self.variables),
            calls=tuple((dim, call.substitute(substitution)) for dim, call in self.calls),
        )

    def reorder(self, variables: Sequence[str]) -> "UFSet":
        """The same set with its tuple variables listed in another order."""
        if sorted(variables) != sorted(self.variables) or self.is_relation:
            raise SpfError(f"reorder needs a permutation of {self.variables}, got {tuple(variables)}")
        return self._replace(variables=tuple(variables))

    def _freshen_internals(self) -> "UFSet":
        renaming = {name: _fresh(name[1]) for name in self.hidden + tuple(self.call_table)}
        substitution = {old: Affine.of(new) for old, new in renaming.items()}
        return UFSet(
            _rename_isl(self.isl_set, renaming),
            self.variables,
            self.n_in,
            tuple(renaming[h] for h in self.hidden),
            tuple((renaming[d], c.substitute(substitution)) for d, c in self.calls),
        )

    # -- combination
    def _aligned(self, other: "UFSet") -> tuple["UFSet", "UFSet", tuple[tuple[str, UFCall], ...]]:
        if len(self.variables) != len(other.variables) or self.n_in != other.n_in:
            raise SpfError(f"cannot combine {self.describe_space()} with {other.describe_space()}")
        other = other._freshen_internals().rename(dict(zip(other.variables, self.variables)))
        calls = self.calls + other.calls
        return self, other, calls

    def _combined(self, isl_set: isl.Set, other: "UFSet", calls) -> "UFSet":
        result = UFSet(isl_set, self.variables, self.n_in, self.hidden + other.hidden, calls)
        return result._merge_identical_calls()._consistent()._drop_unused_internals()

    def intersect(self, other: "UFSet") -> "UFSet":
        first, second, calls = self._aligned(other)
        return self._combined(first.isl_set.intersect(second.isl_set), second, calls)

    def union(self, other: "UFSet") -> "UFSet":
        first, second, calls = self._aligned(other)
        # Each operand's own internal dimensions are unconstrained in the other's part,
        # which is right: they are existential (hidden) or determined by their call.
        # Hidden variables are pinned to 0 there all the same, so that every one stays
        # bounded (scanning and points() need bounds; the set does not change).
        left = _pinned(first.isl_set, second.hidden)
        right = _pinned(second.isl_set, first.hidden)
        return self._combined(left.union(right).coalesce(), second, calls)

    def subtract(self, other: "UFSet") -> "UFSet":
        """Points of self not in other (exact when other has no hidden variables)."""
        first, second, calls = self._aligned(other)
        if second.hidden:
            raise SpfError("subtracting a set with existential variables is not supported")
        return self._combined(first.isl_set.subtract(second.isl_set), second, calls)

    def constrain(self, formula: Formula | str) -> "UFSet":
        """Intersect with a formula over this set's variables and constants."""
        if isinstance(formula, str):
            from spf.space.expressions import parse_formula_text
            formula = parse_formula_text(formula)
        return self.intersect(UFSet.from_formula(self.variables, formula, self.n_in))

    # -- projection
    def project_out(self, names: Iterable[str]) -> "UFSet":
        """Existentially quantify tuple variables.

        A variable that a UF argument still mentions becomes a hidden variable rather
        than being projected, so the set keeps meaning what it says.
        """
        names = [n for n in names if n in self.variables]
        if not names:
            return self
        needed = self._names_needed_by_calls()
        renaming = {n: _fresh("h") for n in names if n in needed}
        substitution = {old: Affine.of(new) for old, new in renaming.items()}
        isl_set = _rename_isl(self.isl_set, renaming)
        isl_set = _project_names(isl_set, [n for n in names if n not in renaming])
        variables = tuple(v for v in self.variables if v not in names)
        n_in = None
        if self.is_relation:
            n_in = sum(1 for v in self.input if v not in names)
        result = UFSet(
            isl_set, variables, n_in, self.hidden + tuple(renaming.values()),
            tuple((d, c.substitute(substitution)) for d, c in self.calls),
        )
        return result._drop_unused_internals()

    def _names_needed_by_calls(self) -> set[str]:
        needed: set[str] = set()
        for _, call in self.calls:
            needed |= call.names()
        return needed

    def _eliminate_defined_hidden(self) -> "UFSet":
        """Replace a hidden variable that equals an expression of other names by it.

        ``exists h : i = h and f(h) = j`` becomes ``f(i) = j``.
        """
        result = self
        for name in self.hidden:
            definition = _defining_expression(result.isl_set, name, result)
            if definition is None:
                continue
            substitution = {name: definition}
            isl_set = _project_names(result.isl_set, [name])
            calls = tuple((d, c.substitute(substitution)) for d, c in result.calls)
            result = UFSet(isl_set, result.variables, result.n_in,
                           tuple(h for h in result.hidden if h != name), calls)
        if result is self:
            return self
        return result._merge_identical_calls()._consistent()

    def _drop_unused_internals(self) -> "UFSet":
        """Project out UF dimensions no constraint uses and hidden variables no call uses."""
        if self.hidden:
            self = self._eliminate_defined_hidden()
        isl_set = self.isl_set
        calls = dict(self.calls)
        hidden = list(self.hidden)
        changed = True
        while changed:
            changed = False
            needed = set()
            for call in calls.values():
                needed |= call.names()
            for dim in list(calls):
                if dim in needed:
                    continue
                position = isl_set.find_dim_by_name(PARAM, dim)
                if position < 0 or not isl_set.involves_dims(PARAM, position, 1):
                    if position >= 0:
                        isl_set = isl_set.project_out(PARAM, position, 1)
                    del calls[dim]
                    changed = True
            for name in list(hidden):
                if name in needed:
                    continue
                isl_set = _project_names(isl_set, [name])
                hidden.remove(name)
                changed = True
        return self._replace(isl_set=isl_set, hidden=tuple(hidden), calls=tuple(calls.items()))

    # -- functional consistency
    def _merge_identical_calls(self) -> "UFSet":
        """Give structurally identical calls one dimension."""
        result = self
        while True:
            seen: dict[UFCall, str] = {}
            duplicate = None
            for dim, call in result.calls:
                if call in seen:
                    duplicate = (seen[call], dim)
                    break
                seen[call] = dim
            if duplicate is None:
                return result
            keep, drop = duplicate
            isl_set = result.isl_set.intersect(_param_set(f"{keep} = {drop}", [keep, drop]))
            isl_set = _project_names(isl_set, [drop])
            substitution = {drop: Affine.of(keep)}
            calls = tuple((d, c.substitute(substitution)) for d, c in result.calls if d != drop)
            result = result._replace(isl_set=isl_set, calls=calls)

    def _consistent(self, exact: bool = False) -> "UFSet":
        """Functional consistency: ``args(a) = args(b) => a = b`` for calls of one function.

        By default only where the set implies equal arguments, which keeps sets small
        (the UF dimensions are then an over-approximation that concrete UF tables make
        exact).  ``exact`` adds every implication, splitting the set where needed; the
        decision procedures (emptiness, inclusion) use it.
        """
        isl_set = self.isl_set
        for (dim_a, call_a), (dim_b, call_b) in itertools.combinations(self.calls, 2):
            if call_a.function != call_b.function or len(call_a.arguments) != len(call_b.arguments):
                continue
            equal_arguments = " and ".join(
                f"{a} = {b}" for a, b in zip(call_a.arguments, call_b.arguments))
            isl_set = _add_implication(isl_set, equal_arguments, f"{dim_a} = {dim_b}", exact=exact)
        return self._replace(isl_set=isl_set)

    def with_properties(self, properties: Iterable["object"]) -> "UFSet":
        """Add the affine consequences of index-array properties for the calls present."""
        isl_set = self.isl_set
        calls = [(dim, call) for dim, call in self.calls]
        dims = {call: dim for dim, call in calls}
        for prop in properties:
            for guard, consequence in prop.instances([call for _, call in calls]):
                guard, consequence = _replace_calls(guard, dims), _replace_calls(consequence, dims)
                isl_set = _add_implication(isl_set, formula_to_isl(guard), formula_to_isl(consequence),
                                           formula_names(guard) | formula_names(consequence))
        return self._replace(isl_set=isl_set)

    # -- relations
    def inverse(self) -> "UFSet":
        if not self.is_relation:
            raise SpfError("inverse of a set")
        return self._replace(variables=self.output + self.input, n_in=len(self.output))

    def domain(self) -> "UFSet":
        self._require_relation("domain")
        result = self.project_out(self.output)
        return result._replace(n_in=None)

    def range(self) -> "UFSet":
        self._require_relation("range")
        result = self.project_out(self.input)
        return result._replace(n_in=None)

    def wrap(self) -> "UFSet":
        """The relation as a set over its input and output variables together."""
        self._require_relation("wrap")
        return self._replace(n_in=None)

    def apply_range(self, other: "UFSet") -> "UFSet":
        """``other o self``: first self, then other (isl's apply_range)."""
        self._require_relation("apply_range")
        other._require_relation("apply_range")
        if len(self.output) != len(other.input):
            raise SpfError(f"cannot compose {self.describe_space()} with {other.describe_space()}")
        middle = [_fresh("m") for _ in self.output]
        left = self.rename(dict(zip(self.output, middle)))
        left = left.rename({v: _fresh("a") for v in left.input})
        right = other._freshen_internals().rename(dict(zip(other.input, middle)))
        right = right.rename({v: _fresh("c") for v in right.output})
        joined = left._extend(right)
        result = joined.project_out(middle)
        result = result._replace(n_in=len(left.input))
        outputs = _distinct_from(other.output, self.input)
        return result.rename(dict(zip(result.variables, self.input + outputs)))

    def compose(self, other: "UFSet") -> "UFSet":
        """``self o other``: first other, then self."""
        return other.apply_range(self)

    def apply(self, target: "UFSet") -> "UFSet":
        """Image of the set ``target`` under this relation."""
        self._require_relation("apply")
        if target.is_relation or len(target.variables) != len(self.input):
            raise SpfError(f"cannot apply {self.describe_space()} to {target.describe_space()}")
        as_relation = target.rename(dict(zip(target.variables, self.input)))
        restricted = self.intersect(as_relation._extend_with_universe(self.output, self.n_in))
        return restricted.range()

    def _extend_with_universe(self, names: Sequence[str], n_in: int | None) -> "UFSet":
        return self._replace(variables=self.variables + tuple(names), n_in=n_in)

    def _extend(self, other: "UFSet") -> "UFSet":
        """Conjunction of two sets over the concatenation of their tuples (shared names meet)."""
        variables = self.variables + tuple(v for v in other.variables if v not in self.variables)
        result = UFSet(self.isl_set.intersect(other.isl_set), variables, None,
                       self.hidden + other.hidden, self.calls + other.calls)
        return result._merge_identical_calls()._consistent()

    def product(self, other: "UFSet") -> "UFSet":
        """Conjunction over the union of both tuples: variables with one name are one variable."""
        return self._extend(other._freshen_internals())._drop_unused_internals()

    def _require_relation(self, what: str) -> None:
        if not self.is_relation:
            raise SpfError(f"{what} needs a relation, got a set {self.describe_space()}")

    # -- tests
    def is_empty(self) -> bool:
        """Emptiness for every interpretation of the UFs (exact)."""
        return self._consistent(exact=True).isl_set.is_empty()

    def is_subset(self, other: "UFSet") -> bool:
        """Inclusion for every interpretation of the UFs.

        Exact when ``other`` has no hidden variables; otherwise sound (it may answer
        False for an inclusion that holds).
        """
        left, right = self._joint(other)
        return left.isl_set.is_subset(right)

    def _joint(self, other: "UFSet") -> tuple["UFSet", isl.Set]:
        """Both operands over one space: shared calls share a dimension, and self
        carries functional consistency with every call of either operand."""
        first, second, calls = self._aligned(other)
        left = UFSet(first.isl_set.intersect(_universe(_param_names(second.isl_set))),
                     first.variables, first.n_in, first.hidden + second.hidden, calls)
        left = left._merge_identical_calls()._consistent(exact=True)
        right = _rename_merged(second.isl_set, _identical_call_renaming(calls))
        return left, right

    def is_equal(self, other: "UFSet") -> bool:
        return self.is_subset(other) and other.is_subset(self)

    # -- simplification and printing
    def simplify(self) -> "UFSet":
        isl_set = self.isl_set.detect_equalities().remove_redundancies().coalesce()
        return self._replace(isl_set=isl_set)._drop_unused_internals()

    def gist(self, context: "UFSet") -> "UFSet":
        """Constraints of self that context does not already imply."""
        left, right = self._joint(context)
        return left._replace(isl_set=left.isl_set.gist(right))._drop_unused_internals()

    def describe_space(self) -> str:
        if self.is_relation:
            return f"[{', '.join(self.input)}] -> [{', '.join(self.output)}]"
        return f"[{', '.join(self.variables)}]"

    def hidden_text(self) -> dict[str, str]:
        """Display names of the hidden variables (e0, e1, ...)."""
        return hidden_names(self)

    def call_text(self) -> dict[str, str]:
        """Each UF dimension's call, printed with nested calls expanded."""
        return call_texts(self)

    def constraints_text(self) -> str:
        """The formula with UF calls printed back (``false`` when empty)."""
        return constraints_text(self)

    def __str__(self) -> str:
        return set_text(self)

    __repr__ = __str__

    # -- evaluation with concrete UF tables
    def contains(self, point: Mapping[str, int], functions: Mapping[str, object],
                 constants: Mapping[str, int] = {}) -> bool:
        """Whether a concrete point belongs, given tables for the UFs and constant values.

        Hidden variables are searched in ``hidden_ranges`` of the point when present.
        """
        values = dict(constants)
        values.update(point)
        return _contains(self, values, functions)

    def points(self, constants: Mapping[str, int], functions: Mapping[str, object],
               order: Sequence[str] | None = None) -> list[tuple[int, ...]]:
        """Every point, by scanning the variables in ``order`` with bounds from isl.

        Used by tests to compare against brute force; requires bounded variables once
        the UF values are known (true for iteration spaces of finite tensors).
        """
        try:
            return enumerate_points(self, constants, functions, order)
        except SpfError as error:
            if "integer divisions" not in str(error):
                raise
        return sorted(_enumerate(self, constants, functions, order or (self.hidden + self.variables)))


# ----------------------------------------------------------------------------- helpers


def _lift_existentials(formula: Formula) -> tuple[Formula, list[str]]:
    """Turn ``exists`` variables (at positive positions) into hidden variables."""
    hidden: list[str] = []

    def walk(node: Formula) -> Formula:
        if isinstance(node, Exists):
            renaming = {v: Affine.of(_fresh("h")) for v in node.variables}
            hidden.extend(str(a) for a in renaming.values())
            return walk(node.body.substitute(renaming))
        if isinstance(node, And):
            return And(tuple(walk(p) for p in node.parts))
        if isinstance(node, Or):
            parts, introduced = [], []
            for part in node.parts:
                before = len(hidden)
                parts.append(walk(part))
                introduced.append(hidden[before:])
            # A disjunct does not use the others' variables; pin them to 0 there so
            # that every hidden variable stays bounded (the set does not change).
            pinned = []
            for k, part in enumerate(parts):
                pins = tuple(Constraint(Affine.of(h), "=", Affine.of(0))
                             for j, names in enumerate(introduced) if j != k for h in names)
                pinned.append(And((part,) + pins) if pins else part)
            return Or(tuple(pinned))
        return node  # under Not, isl handles exists itself

    return walk(formula), hidden


def _replace_calls(formula: Formula, dims: Mapping[UFCall, str]) -> Formula:
    mapping = {call: Affine.of(name) for call, name in dims.items()}
    return formula.substitute(mapping)


def _add_implication(isl_set: isl.Set, guard: str, consequence: str,
                     names: Iterable[str] = (), exact: bool = True) -> isl.Set:
    """``isl_set and (guard => consequence)``; without ``exact``, only where the guard
    holds everywhere in the set (no case split)."""
    names = set(_param_names(isl_set)) | set(names)
    guard_set = _param_set(guard, names).intersect(isl_set)
    if guard_set.is_empty():
        return isl_set
    consequence_set = _param_set(consequence, names)
    if isl_set.is_subset(_param_set(guard, names)):
        return isl_set.intersect(consequence_set)
    if not exact:
        return isl_set
    if guard_set.is_subset(consequence_set):
        return isl_set
    violation = guard_set.subtract(consequence_set)
    return isl_set.subtract(violation).coalesce()


def _distinct_from(names: Sequence[str], taken: Sequence[str]) -> tuple[str, ...]:
    """``names`` with a suffix added where they clash with ``taken``."""
    result = []
    used = set(taken)
    for name in names:
        candidate = name
        while candidate in used:
            candidate += "_out"
        used.add(candidate)
        result.append(candidate)
    return tuple(result)


def _identical_call_renaming(calls) -> dict[str, str]:
    seen: dict[UFCall, str] = {}
    renaming: dict[str, str] = {}
    changed = True
    table = list(calls)
    while changed:
        changed = False
        seen.clear()
        for index, (dim, call) in enumerate(table):
            if call in seen and seen[call] != dim:
                renaming[dim] = seen[call]
                substitution = {dim: Affine.of(seen[call])}
                # Drop the merged entry, or it is found again on the next pass forever.
                table = [(d, c.substitute(substitution)) for d, c in table if d != dim]
                changed = True
                break
            seen[call] = dim
    # resolve chains
    for key in list(renaming):
        target = renaming[key]
        while target in renaming:
            target = renaming[target]
        renaming[key] = target
    return renaming


def _rename_merged(isl_set: isl.Set, renaming: Mapping[str, str]) -> isl.Set:
    """Rename UF dimensions that were merged into another one."""
    for old, new in renaming.items():
        position = isl_set.find_dim_by_name(PARAM, old)
        if position < 0:
            continue
        if isl_set.find_dim_by_name(PARAM, new) >= 0:
            isl_set = isl_set.intersect(_param_set(f"{old} = {new}", [old, new]))
            isl_set = _project_names(isl_set, [old])
        else:
            isl_set = isl_set.set_dim_name(PARAM, position, new)
    return isl_set


def _defining_expression(isl_set: isl.Set, name: str, uf_set: UFSet) -> Affine | None:
    """An affine expression ``name`` equals in every point, avoiding calls that use it."""
    basic_sets = isl_set.get_basic_sets()
    if len(basic_sets) != 1 or basic_sets[0].dim(isl.dim_type.div) > 0:
        return None
    dependent: set[str] = set()  # dimensions whose call needs ``name``, directly or through calls
    changed = True
    while changed:
        changed = False
        for dimension, call in uf_set.calls:
            if dimension not in dependent and (name in call.names() or call.names() & dependent):
                dependent.add(dimension)
                changed = True
    for constraint in basic_sets[0].get_constraints():
        if not constraint.is_equality():
            continue
        coefficients = {k: int(v.to_python()) for k, v in constraint.get_coefficients_by_name().items()}
        own = coefficients.pop(name, 0)
        if abs(own) != 1 or dependent & set(coefficients) or name in coefficients:
            continue
        constant = coefficients.pop(1, 0)
        # own*name + sum + constant = 0  =>  name = -(sum + constant)/own
        return Affine.build({k: -v * own for k, v in coefficients.items()}, -constant * own)
    return None


def _contains(uf_set: UFSet, values: dict, functions: Mapping[str, object]) -> bool:
    table = uf_set.call_table
    values = dict(values)
    pending = dict(table)
    hidden_free = [h for h in uf_set.hidden if h not in values]
    if hidden_free:
        raise SpfError("contains() needs values for the hidden variables; use points()")
    while pending:
        progressed = False
        for dim, call in list(pending.items()):
            if all(n in values for n in call.names()):
                values[dim] = int(call.evaluate(values, functions))
                del pending[dim]
                progressed = True
        if not progressed:
            raise SpfError(f"cannot evaluate calls {list(pending.values())}")
    isl_set = uf_set.isl_set
    for name in _param_names(isl_set):
        if name not in values:
            raise SpfError(f"no value given for {name!r}")
    return not _fix(isl_set, values).is_empty()


def _fix(isl_set: isl.Set, values: Mapping[str, int]) -> isl.Set:
    for name, value in values.items():
        position = isl_set.find_dim_by_name(PARAM, name)
        if position >= 0:
            isl_set = isl_set.fix_val(PARAM, position, isl.Val(int(value)))
    return isl_set


def _enumerate(uf_set: UFSet, constants: Mapping[str, int], functions, order) -> Iterator[tuple[int, ...]]:
    levels = scan_order(uf_set, order)
    table = uf_set.call_table
    all_dims = set(_param_names(uf_set.isl_set))
    base = _fix(uf_set.isl_set, {k: v for k, v in constants.items() if k in all_dims})
    # Project inner levels out once per level, as scanning does.
    projected: list[isl.Set] = []
    for depth in range(len(levels)):
        inner = [n for n, _ in levels[depth + 1:] if n]
        for _, dims in levels[depth + 1:]:
            inner.extend(dims)
        projected.append(_project_names(base, inner))
    seen: set[tuple[int, ...]] = set()

    def walk(depth: int, values: dict, current: list[isl.Set]):
        if depth == len(levels):
            point = tuple(values[v] for v in uf_set.variables)
            if point not in seen:
                seen.add(point)
                yield point
            return
        variable, dims = levels[depth]
        level_set = _fix(projected[depth], values)
        if variable:
            bounds = _project_names(level_set, dims)
            position = bounds.find_dim_by_name(PARAM, variable)
            as_set = bounds.move_dims(isl.dim_type.set, 0, PARAM, position, 1)
            if as_set.is_empty():
                return
            low = as_set.lexmin().sample_point()
            high = as_set.lexmax().sample_point()
            if low is None or high is None:
                raise SpfError(f"variable {variable!r} is unbounded; cannot enumerate")
            low_value = int(low.get_coordinate_val(isl.dim_type.set, 0).to_python())
            high_value = int(high.get_coordinate_val(isl.dim_type.set, 0).to_python())
            candidates = range(low_value, high_value + 1)
        else:
            candidates = [None]
        for value in candidates:
            local = dict(values)
            if variable:
                local[variable] = value
            for dim in dims:
                local[dim] = int(table[dim].evaluate(local, functions))
            if _fix(level_set, {k: local[k] for k in ([variable] if variable else []) + dims}).is_empty():
                continue
            yield from walk(depth + 1, local, current)

    yield from walk(0, dict(), [])
