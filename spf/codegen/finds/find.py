"""Find synthesis: proving which algorithm may replace a loop over positions plus a guard.

A find condition asks for the positions x in ``[LB, UB]`` with ``U(x) == KEY``
(:class:`spf.codegen.scanning.scan.FindSite`).  Each template is used only when Z3 proves its
assumptions (appendix A of the core paper), in the context of the enclosing loops:
their bounds, assignments and guards (C2, C3), two instances of them ordered
lexicographically where state is shared (C1, A7), and the index-array properties
instantiated on the terms of the query (P5, P6).  Unproven ("unknown") is not proven.

* ``direct``: the match is a known position t (``U(x) = U(t)`` with U injective on the
  range gives ``x = t``; TTM and SDDMM outputs sharing an input's arrays).
* ``binary``: U strictly monotone on the range (weakly: the matches are a run).
* ``seqiter``: U strictly monotone, the keys move in one direction along the loop order
  among instances that share the position state, and those instances search the same
  range; the state indices (SIGMA) are found greedily (Algorithm 3).
* ``hashmap``: U injective on the range; instances sharing the table hash the same range.
* ``bitmap``: as hashmap, and a range property bounds U's values by expressions known at
  the kernel's entry: the table is direct-addressed (a bitmap of the present values and
  their positions), as GraphBLAS scatters a dense-ish operand.
* ``linear``: the loop with the guard, always valid.

A key may be *composite*: where a level matches several coordinates (a coordinate list's
``row(p) == i`` and ``col(p) == j``) and none alone finds a single position, binary search
and SeqIter compare the tuple lexicographically, proved from ``covarying_monotonic``
(:func:`synthesize`); tables and direct positions take one coordinate.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Collection, Sequence

import z3

from spf.errors import FindRefused, SpfInternalError
from spf.space.expressions import Affine, UFCall
from spf.space.properties import Range
from spf.space.smt import Encoder, unsatisfiable

from spf.codegen.loops import Bound, key_condition

if TYPE_CHECKING:
    from spf.space.properties import Property

    from spf.codegen.scanning.scan import FindSite

@dataclass(frozen=True)
class FindChoice:
    kind: str
    direction: int = 1  # seqiter: +1 walks up, -1 walks down
    keys_increasing: bool = True  # seqiter: keys grow along the loop order
    increasing: bool = True  # binary/seqiter: U grows with the position
    state: tuple[str, ...] = ()  # seqiter/hashmap: SIGMA
    position: Affine | None = None  # direct: the matching position
    in_range: bool = True  # direct: the position is proven inside the bounds
    multiple: bool = False  # binary: weakly monotone, matches form a run
    keyed: tuple[str, ...] = ()  # seqiter: state indices that are no loop (an array of positions)
    values: tuple[Affine, Affine] | None = None  # bitmap: U's values lie in [low, high)
    per_fused_iteration: bool = False  # seqiter under fused loops: the state restarts in each of their iterations
    keys: tuple[str, ...] = ()  # the dimensions the key is made of, major first, where not the site's default

    def __str__(self) -> str:
        if self.kind == "direct":
            return f"direct ({self.position})"
        if self.kind == "seqiter":
            return (f"seqiter (direction {'+1' if self.direction > 0 else '-1'}, "
                    f"state indices {{{', '.join(self.state)}}}"
                    + (f", positions kept per {', '.join(self.keyed)}" if self.keyed else "") + ")")
        if self.kind == "hashmap":
            return f"hashmap (state indices {{{', '.join(self.state)}}})"
        if self.kind == "bitmap":
            low, high = self.values
            return f"bitmap over [{low}, {high}) (state indices {{{', '.join(self.state)}}})"
        if self.kind == "binary":
            return "binary search" + (" (run of matches)" if self.multiple else "")
        return self.kind


LINEAR = FindChoice("linear")
TEMPLATES = ("direct", "seqiter", "hashmap", "bitmap", "binary", "linear")
FIND_POLICIES = ("auto", *TEMPLATES)  # auto: every proven template; else one, refused if not proven


@dataclass
class FindReport:
    """What synthesis decided at one find site, for explain()."""

    variable: str
    condition: str
    chosen: FindChoice
    valid: list[FindChoice] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)

    def __str__(self) -> str:
        lines = [f"find {self.variable} where {self.condition}: {self.chosen}"]
        for kind, reason in self.rejected:
            lines.append(f"  rejected {kind}: {reason}")
        return "\n".join(lines)


# ----------------------------------------------------------------------------- Z3 encoding


class Encoding(Encoder):
    """Z3 terms for one or two instances (suffixes ``""`` and ``"_2"``) of the loops
    enclosing a find, and the find itself: the context of the template checks."""

    def __init__(self, site: FindSite, calls: dict[str, UFCall], properties: Sequence[Property], fused: bool = False):
        local_names = {f.variable for f in site.outer if f.variable} | {site.variable}
        super().__init__(calls, local_names)
        self.site = site
        self.calls = calls
        self.properties = properties
        loops = [f for f in site.outer if f.kind in ("loop", "find") and f.variable]
        # Under fused loops the nest sees the fused variables as loops of its own, but they
        # run in the fused nest's order, which this space does not know.  Where that order
        # matters (SeqIter), two instances are compared within one fused iteration: the
        # fused variables are equal and the order is that of the nest's own loops.
        self.fused = fused
        self.pinned = [f.variable for f in site.outer if f.bound and f.variable] if fused else []
        self.loop_variables = [f.variable for f in loops if f.variable not in self.pinned]
        self._contexts: dict[str, tuple[list, dict]] = {}
        self.keyable: set[str] = set()  # variables with an extent: a state may be keyed by them

    def begin(self) -> None:
        """Start a new query: properties are instantiated on its own terms only."""
        self.applications = {}

    def bounds(self, variable: z3.ArithRef, lower: list[Bound], upper: list[Bound], suffix: str) -> list:
        facts = []
        for bound in lower:
            facts.append(bound.divisor * variable >= self.affine(bound.expression, suffix))
        for bound in upper:
            facts.append(bound.divisor * variable <= self.affine(bound.expression, suffix))
        return facts

    def context(self, suffix: str) -> list:
        """C2 and C3 for one instance: bounds, assignments and guards of the outer levels."""
        if suffix in self._contexts:
            facts, applications = self._contexts[suffix]
            for function, arguments in applications.items():
                self.applications.setdefault(function, set()).update(arguments)
            return list(facts)
        saved, self.applications = self.applications, {}
        facts = self._context(suffix)
        self._contexts[suffix] = (facts, {f: set(a) for f, a in self.applications.items()})
        for function, arguments in saved.items():
            self.applications.setdefault(function, set()).update(arguments)
        return list(facts)

    def _context(self, suffix: str) -> list:
        facts = []
        for level in self.site.outer:
            variable = z3.Int(level.variable + suffix) if level.variable else None
            if level.kind in ("loop", "find"):
                facts += self.bounds(variable, level.lower, level.upper, suffix)
            elif level.kind == "assign" and variable is not None and level.value is not None:
                facts.append(level.divisor * variable == self.affine(level.value, suffix))
            for guard in level.guards:
                facts.append(self.constraint(guard, suffix))
        return facts

    def range_facts(self, position: z3.ArithRef, suffix: str) -> list:
        return self.bounds(position, self.site.lower, self.site.upper, suffix)

    def unsat(self, facts: list) -> bool:
        return unsatisfiable(facts + self.property_instances(self.properties))


# ----------------------------------------------------------------------------- the templates


def _arguments_at(encoding: Encoding, site, position, suffix: str, searched: UFCall | None = None) -> tuple:
    """The searched call's (or ``searched``'s) arguments (z3) with the find variable at ``position``."""
    arguments = []
    for argument in (searched or site.call).arguments:
        total = z3.IntVal(argument.constant)
        for atom, coefficient in argument.terms:
            if atom == site.variable:
                term = position
            elif isinstance(atom, UFCall):
                term = encoding.call(atom, suffix)
            else:
                term = encoding.name(atom, suffix)
            total = total + coefficient * term
        arguments.append(total)
    return tuple(arguments)


def _call_at(encoding: Encoding, site, position, suffix: str):
    return encoding.apply(site.call.function, _arguments_at(encoding, site, position, suffix))


def _parts_at(encoding: Encoding, site, position, suffix: str) -> list:
    """The key's calls (major first) with the find variable at ``position``."""
    return [encoding.apply(part.call.function, _arguments_at(encoding, site, position, suffix, part.call))
            for part in site.parts]


def is_monotone(encoding: Encoding, increasing: bool, strict: bool) -> bool:
    """Whether the find site's call (its key's calls, lexicographically) is monotone over
    its range (increasing or decreasing, strictly or weakly), proved by Z3: no two
    positions q < r order the values otherwise."""
    site = encoding.site
    encoding.begin()
    q, r = z3.Ints("find_q find_r")
    facts = encoding.context("") + encoding.range_facts(q, "") + encoding.range_facts(r, "") + [q < r]
    first, second = _parts_at(encoding, site, q, ""), _parts_at(encoding, site, r, "")
    if not increasing:
        first, second = second, first
    if len(first) == 1:
        bad = first[0] >= second[0] if strict else first[0] > second[0]
    else:
        bad = z3.Not(_lexicographically_before(first, second)) if strict \
            else _lexicographically_before(second, first)
    return encoding.unsat(facts + [bad])


def _injective(encoding: Encoding) -> bool:
    site = encoding.site
    encoding.begin()
    q, r = z3.Ints("find_q find_r")
    facts = encoding.context("") + encoding.range_facts(q, "") + encoding.range_facts(r, "") + [q < r]
    return encoding.unsat(facts + [_call_at(encoding, site, q, "") == _call_at(encoding, site, r, "")])


def _lexicographically_before(first: list, second: list):
    options = []
    for depth in range(len(first)):
        prefix = [first[k] == second[k] for k in range(depth)]
        options.append(z3.And(*prefix, first[depth] < second[depth]))
    return z3.Or(*options) if options else z3.BoolVal(False)


def _two_instances(encoding: Encoding, state: tuple[str, ...]) -> list:
    """C1, C2, C3 for two instances x, x' sharing the state indices (A7)."""
    encoding.begin()
    loops = encoding.loop_variables
    first = [z3.Int(v) for v in loops]
    second = [z3.Int(v + "_2") for v in loops]
    facts = encoding.context("") + encoding.context("_2")
    facts.append(_lexicographically_before(first, second))
    for name in (*encoding.pinned, *state):
        facts.append(z3.Int(name) == z3.Int(name + "_2"))
    return facts


def _same_search(encoding: Encoding, state: tuple[str, ...]) -> bool:
    """Instances sharing state search the same range (H3) of the same array entries.

    The second half matters where the searched call has arguments besides the find
    variable (``meta(pi, 2*pg + pk)`` in WARP24): positions or a table kept for one
    group of entries say nothing about another group searched over the same range.
    """
    site = encoding.site
    facts = _two_instances(encoding, state)
    differs = []
    for bounds in (site.lower, site.upper):
        for bound in bounds:
            differs.append(encoding.affine(bound.expression, "") != encoding.affine(bound.expression, "_2"))
    position = z3.Int("find_t")
    for part in site.parts:
        first = _arguments_at(encoding, site, position, "", part.call)
        second = _arguments_at(encoding, site, position, "_2", part.call)
        differs += [a != b for a, b in zip(first, second)]
    return encoding.unsat(facts + [z3.Or(*differs)])


def _keys_ordered(encoding: Encoding, state: tuple[str, ...], increasing: bool) -> bool:
    """Along the loop order, among instances sharing state, the keys strictly move one way."""
    site = encoding.site
    facts = _two_instances(encoding, state)
    keys = [encoding.affine(part.key, "") for part in site.parts]
    keys_2 = [encoding.affine(part.key, "_2") for part in site.parts]
    if not increasing:
        keys, keys_2 = keys_2, keys
    if len(keys) == 1:
        return encoding.unsat(facts + [keys[0] >= keys_2[0]])
    return encoding.unsat(facts + [z3.Not(_lexicographically_before(keys, keys_2))])


def _reduced_candidates(encoding: Encoding) -> dict[str, list[str]]:
    """For each enclosing loop, the keyable variables assigned from it (``i = row(p)`` for p)."""
    candidates: dict[str, list[str]] = {}
    current = None
    for level in encoding.site.outer:
        if level.kind in ("loop", "find"):
            current = level.variable
        elif level.kind == "assign" and current and level.variable in encoding.keyable:
            candidates.setdefault(current, []).append(level.variable)
    return candidates


def _state_indices(encoding: Encoding, valid, reduce: bool = False) -> tuple[str, ...]:
    """Algorithm 3: start from every enclosing loop index and drop indices inner to outer;
    with ``reduce``, where an index cannot go, try a reduced index defined from it (COO:
    the row of p)."""
    loops = encoding.loop_variables
    reduced = _reduced_candidates(encoding) if reduce else {}
    state = tuple(loops)  # always valid: two instances equal on every loop index are one (C1)
    for variable in reversed(loops):
        trial = tuple(v for v in state if v != variable)
        if valid(trial):
            state = trial
            continue
        for candidate in reduced.get(variable, []):
            if valid(trial + (candidate,)):
                state = trial + (candidate,)
                break
    return state


def _every_search_fresh(encoding: Encoding, state: tuple[str, ...]) -> bool:
    """No two different searches share this state: it would restart every time."""
    if not encoding.loop_variables:
        return encoding.fused  # one search per fused iteration
    return encoding.unsat(_two_instances(encoding, state))


def _available_before(encoding: Encoding, state: tuple[str, ...]) -> set[str]:
    """Names bound where the state starts: before the first enclosing loop inside the
    innermost loop of the state."""
    loops = encoding.loop_variables
    innermost = max((loops.index(v) for v in state if v in loops), default=-1)
    start = loops[innermost + 1] if innermost + 1 < len(loops) else None
    available: set[str] = set()
    for level in encoding.site.outer:
        if level.kind in ("loop", "find") and level.variable == start:
            break
        if level.variable:
            available.add(level.variable)
        available |= set(level.calls)
    return available


def _initial_state_known(encoding: Encoding, state: tuple[str, ...]) -> bool:
    """The search range's bounds, and the searched call's arguments other than the find
    variable (a table is filled there), can be evaluated where the state starts."""
    site = encoding.site
    local = encoding.local_names | set(encoding.dimensions)
    available = _available_before(encoding, state) | {site.variable}
    names = set().union(*(part.call.names() for part in site.parts))
    for bound in site.lower + site.upper:
        names |= bound.expression.names()
    return all(name in available or name not in local for name in names)


def _placeable(state: tuple[str, ...], loops: list[str], keyable) -> bool:
    """Indices that are no loop must be keyable (an array of positions per value).

    A state starts right inside its innermost loop index, so it effectively holds every
    loop index outside that one too: a superset of a valid state, hence valid.
    """
    return all(v in loops or v in keyable for v in state)


def synthesize(site: FindSite, calls: dict[str, UFCall], properties: Sequence[Property],
               allowed: Sequence[str] = TEMPLATES, every_variant: bool = False,
               keyable: Collection[str] = frozenset(), fused: bool = False) -> FindReport:
    """Prove which templates may implement a find; the first valid one in ``allowed`` wins.

    Templates after the first valid one are only tried with ``every_variant`` (for
    ``find="auto"``, which keeps every proven variant).  ``fused``: the nest runs inside
    the fused loops of a schedule tree, once per fused iteration, so a SeqIter position
    restarts in each (a hash table, valid for any order of its searches, need not).

    Where the level matches several coordinates (a coordinate list's row and column) and
    the site's first one finds no single position, the others are tried as the key, then
    every order of all of them as a composite key (searched lexicographically); the first
    key that finds a single position wins, else the best found.
    """
    first = _synthesize_keyed(site, calls, properties, allowed, every_variant, keyable, fused)
    if len(site.candidates) < 2 or _single_position(first.chosen):
        return first
    report = first
    for dimensions in _other_keys(site):
        keyed = _synthesize_keyed(site.keyed_by(dimensions), calls, properties, allowed, every_variant,
                                  keyable, fused)
        keyed.valid = [dataclasses.replace(choice, keys=tuple(dimensions)) for choice in keyed.valid]
        keyed.chosen = keyed.valid[0] if keyed.valid else LINEAR
        if _rank(keyed.chosen) > _rank(report.chosen):
            report = keyed
            if _single_position(keyed.chosen):
                break
    if report is not first:  # what the first coordinate alone could not do, for explain()
        alone = _readable(str(site.call), calls)
        report.rejected += [(kind, f"keyed by {alone} alone: {reason}") for kind, reason in first.rejected]
    return report


def _single_position(choice: FindChoice) -> bool:
    """The template goes to the one matching position (not a run, not the plain loop)."""
    return choice.kind != "linear" and not choice.multiple


def _rank(choice: FindChoice) -> int:
    return 0 if choice.kind == "linear" else 1 if not _single_position(choice) else 2


def _other_keys(site: FindSite) -> list[tuple[str, ...]]:
    """The keys to try after the site's first coordinate: each other coordinate alone, then
    every order of all of them."""
    dimensions = [part.dimension for _, part in site.candidates]
    return [(d,) for d in dimensions[1:]] + list(itertools.permutations(dimensions))


def _synthesize_keyed(site: FindSite, calls: dict[str, UFCall], properties: Sequence[Property],
                      allowed: Sequence[str], every_variant: bool, keyable: Collection[str],
                      fused: bool) -> FindReport:
    """synthesize for the site's key as it stands."""
    encoding = Encoding(site, calls, properties)
    encoding.keyable = set(keyable)
    condition = key_condition(site.parts)
    report = FindReport(site.variable, _readable(condition, calls), LINEAR)
    loops = encoding.loop_variables
    monotone = {}
    tables: dict = {}  # what hashmap and bitmap share: injectivity and the state indices

    def strictly(increasing: bool) -> bool:
        if increasing not in monotone:
            monotone[increasing] = is_monotone(encoding, increasing, True)
        return monotone[increasing]

    for kind in allowed:
        if kind == "direct":
            choice, reason = _direct(encoding, calls)
        elif kind == "binary":
            choice, reason = None, f"{site.call.function} is not proven monotonic on the search range"
            for increasing in (True, False):
                if strictly(increasing):
                    choice = FindChoice("binary", increasing=increasing)
                    break
            else:
                for increasing in (True, False):
                    if is_monotone(encoding, increasing, False):
                        choice = FindChoice("binary", increasing=increasing, multiple=True)
                        break
        elif kind in ("hashmap", "bitmap"):
            choice, reason = _table(encoding, kind, tables, loops)
        elif kind == "seqiter":  # the one template that depends on the order of the searches
            ordered = encoding
            if fused:
                ordered = Encoding(site, calls, properties, fused=True)
                ordered.keyable = set(keyable)
            choice, reason = _seqiter(ordered, strictly, ordered.loop_variables)
        elif kind == "linear":
            choice, reason = LINEAR, ""
        else:
            raise SpfInternalError(f"find synthesis asked for the unknown template {kind!r}")
        if choice is not None:
            report.valid.append(choice)
            if not every_variant or choice.kind == "direct":
                break  # a known position beats any search
        else:
            report.rejected.append((kind, reason))
    report.chosen = report.valid[0] if report.valid else LINEAR
    return report


def _table_state(encoding: Encoding, tables: dict, loops) -> tuple[tuple[str, ...] | None, str]:
    """The state indices of a table from U's values to positions (hashmap, bitmap), or why none."""
    if "state" not in tables:
        site = encoding.site
        state, reason = None, f"{site.call.function} is not proven injective on the search range"
        if site.minor:
            reason = "a table is keyed by one coordinate, and this key has several"
        elif _injective(encoding):
            state = _state_indices(encoding, lambda s: _same_search(encoding, s))
            if not _placeable(state, loops, ()) or not _initial_state_known(encoding, state):
                state, reason = None, "no state placement keeps one table per search range"
            elif _every_search_fresh(encoding, state):
                state, reason = None, "the table would be rebuilt for every search"
        tables["state"] = (state, reason)
    return tables["state"]


def _table(encoding: Encoding, kind: str, tables: dict, loops):
    state, reason = _table_state(encoding, tables, loops)
    if state is None:
        return None, reason
    if kind == "hashmap":
        return FindChoice("hashmap", state=state), ""
    values = _value_range(encoding)
    if values is None:
        return None, (f"no range property bounds {encoding.site.call.function}'s values by sizes known "
                      "at the kernel's entry")
    return FindChoice("bitmap", state=state, values=values), ""


def _value_range(encoding: Encoding) -> tuple[Affine, Affine] | None:
    """[low, high) holding U's values on the search range, from a range property whose
    bounds are the kernel's scalars (a table of that extent is allocated at entry), proved
    by Z3 in the find's context."""
    site = encoding.site
    local = encoding.local_names | set(encoding.dimensions)
    for prop in encoding.properties:
        if not isinstance(prop, Range) or prop.arrays[0] != site.call.function:
            continue
        low, high = prop.low, prop.high
        if any(name in local for name in low.names() | high.names()):
            continue
        encoding.begin()
        q = z3.Int("find_q")
        value = _call_at(encoding, site, q, "")
        outside = z3.Or(value < encoding.affine(low, ""), value >= encoding.affine(high, ""))
        if encoding.unsat(encoding.context("") + encoding.range_facts(q, "") + [outside]):
            return low, high
    return None


def _seqiter(encoding: Encoding, strictly, loops):
    """The best proven SeqIter: a direction, and state indices where positions are reused."""
    site = encoding.site
    if not strictly(True) and not strictly(False):
        return None, f"{site.call.function} is not proven strictly monotonic on the search range"
    reason = (f"the keys {_readable(str(site.key), encoding.calls)} are not proven to move in one "
              "direction along the loop order for any state placement")
    candidates = []
    directions = []
    for keys_increasing in (True, False):
        # Validity is kept by supersets; the largest state that does not restart every
        # search keeps all loops but the innermost.  Where even that fails, only a
        # reduced index could help.
        widest = tuple(loops[:-1])
        directions.append((keys_increasing, bool(loops) and _keys_ordered(encoding, widest, keys_increasing)
                           and _same_search(encoding, widest)))
    for reduce in (False, True):
        for keys_increasing, promising in directions:
            if not promising and not reduce:
                continue
            state = _state_indices(encoding, lambda s: _keys_ordered(encoding, s, keys_increasing)
                                   and _same_search(encoding, s), reduce)
            keyed = tuple(v for v in state if v not in loops)
            if not _placeable(state, loops, encoding.keyable) or len(keyed) > 1:
                continue
            if not _initial_state_known(encoding, state):
                reason = "the search range is not known where the position state would start"
                continue
            fresh = _every_search_fresh(encoding, state) if keyed or not loops else loops[-1] in state
            if fresh:
                reason = "the position state would restart for every search"
                continue
            candidates.append((len(keyed), len(state), keys_increasing, state, keyed))
        if candidates:
            break  # reduced indices only where loop indices alone do not do
    if not candidates:
        return None, reason
    _, _, keys_increasing, state, keyed = min(candidates, key=lambda c: c[:2])
    increasing = strictly(True)
    direction = 1 if increasing == keys_increasing else -1
    return FindChoice("seqiter", direction=direction, keys_increasing=keys_increasing,
                      increasing=increasing, state=state, keyed=keyed,
                      per_fused_iteration=encoding.fused), ""


def _direct(encoding: Encoding, calls):
    site = encoding.site
    key = site.key
    if site.minor:
        return None, "a known position is taken from one coordinate, and this key has several"
    if not (len(key.terms) == 1 and key.terms[0][1] == 1 and key.constant == 0
            and key.terms[0][0] in calls and calls[key.terms[0][0]].function == site.call.function):
        return None, "the key is not the same index array at a known position"
    other = calls[key.terms[0][0]]
    own = site.call
    if len(own.arguments) != len(other.arguments):
        return None, "argument counts differ"
    # the find variable is the last argument; the others must agree
    candidate = None
    for mine, theirs in zip(own.arguments, other.arguments):
        if site.variable in mine.names():
            coefficients = dict(mine.terms)
            if coefficients.get(site.variable) != 1 or len(mine.terms) != 1:
                return None, "the find variable is not a plain argument"
            candidate = theirs - (mine - Affine.of(site.variable))
    if candidate is None:
        return None, "the find variable is not an argument of the call"
    encoding.begin()
    x = z3.Int(site.variable)
    match = _call_at(encoding, site, x, "") == encoding.affine(key, "")
    # a match must pass the level's other guards too (a coordinate list's column beside its
    # row: the pair, not the row alone, is injective); they stay guards of the position
    guards = [encoding.constraint(guard, "") for guard in site.other_guards]
    facts = encoding.context("") + encoding.range_facts(x, "") + [match] + guards
    if not encoding.unsat(facts + [x != encoding.affine(candidate, "")]):
        return None, f"{site.call.function} is not proven injective on the search range"
    t = z3.Int("find_t")
    encoding.begin()
    inside = encoding.unsat(encoding.context("") + [t == encoding.affine(candidate, ""),
                                                    z3.Not(z3.And(*encoding.range_facts(t, "")))])
    return FindChoice("direct", position=candidate, in_range=inside), ""


def _readable(text: str, calls: dict[str, UFCall]) -> str:
    for dimension in sorted(calls, key=len, reverse=True):
        text = text.replace(dimension, str(calls[dimension]))
    return text


# ----------------------------------------------------------------------------- policies


def allowed_templates(policy: str) -> tuple[str, ...]:
    """The templates a policy may use: a known position (direct) always beats the one asked for."""
    if policy == "auto":
        return TEMPLATES
    return tuple(dict.fromkeys(("direct", policy)))


def refuse_unproven(report: FindReport, policy: str) -> None:
    """FindRefused, with the failed assumptions, when the template ``policy`` asks for is not proven."""
    if report.chosen.kind == "linear" and policy not in ("auto", "linear"):
        reasons = "; ".join(f"{kind}: {reason}" for kind, reason in report.rejected)
        raise FindRefused(f"find={policy!r} is not valid for {report.condition} "
                          f"(find over {report.variable}): {reasons}")


def variant_templates(report: FindReport) -> list[FindChoice]:
    """Proven templates worth a variant (find="auto"): direct alone when valid; linear only
    as a last resort."""
    kinds = [c.kind for c in report.valid]
    if "direct" in kinds:
        return [report.valid[kinds.index("direct")]]
    searching = [c for c in report.valid if c.kind != "linear"]
    return searching or [report.chosen]
