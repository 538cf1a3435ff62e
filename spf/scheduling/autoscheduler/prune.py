"""Pruning the candidates: SparseAuto's stages 1 and 3 at compile time, 4-5 at run time.

1. memory depth: temporaries of rank 3 or more are never generated (see search);
2. SparseAuto's depth poset (keep the schedules whose (loop depth, memory depth) pair
   is not beaten in both) is not applied: depths stand in for costs the work model
   (machine_cost) prices, and the poset drops rank-2 temporaries whatever the sizes,
   though measured they are often the fastest (K5 on umls, d=128: 84 ms against
   827 ms for the best the poset kept).  :func:`depth_poset` stays for studies;
3. Pareto pruning of the (work, memory) buckets under the range, inferred and user
   constraints.  We implement the reading of SparseAuto's prose, not the weaker
   encoding of its Listing 1: bucket ``s1`` goes only if another bucket is at least
   as good in both costs for *every* admissible size and better for some.  Listing 1
   also drops a schedule that is faster in part of the range but always uses more
   memory (it would drop the two-level schedules SparseAuto itself reports for
   kernels 2 and 5, which trade a vector temporary for time); the run-time stage 4 is
   the one that should weigh memory against the cache.  A dominated bucket is not
   used to remove others (domination is transitive, so nothing is lost), a query that
   exceeds its resource limit removes nothing, and the solver is asked at most
   :data:`MOST_SOLVER_QUERIES` times;
4. at run time, with the actual extents and per-level counts: drop the schedules
   whose temporaries take half the last-level cache or more, and rank the rest by
   predicted seconds (work at the sizes, with the machine's calibrated constants;
   if nothing fits, the least memory);
5. tie-break by the stride of the innermost loops' accesses, then by agreement of
   loop orders with operands' index orders, then by the order found (deterministic).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Iterable, Mapping, Sequence

import sympy
from sympy.parsing.sympy_parser import parse_expr
from tokenize import TokenError
import z3

from spf.errors import AutoscheduleError

from spf.scheduling.autoscheduler.cost import Cost, count_symbols, dimension_symbol
from spf.scheduling.autoscheduler.problem import Problem
from spf.scheduling.autoscheduler.tree import Leaf, Node, leaves

# Z3's resource count (rlimit), not a wall-clock timeout: an answer that depended on the
# machine's load would change which candidates survive.  The test suite's largest
# pruning query counts about 53,000; Z3 counts about 0.4-2 million a second.
SOLVER_RESOURCE_LIMIT = 2_000_000
# Stage 3's solver queries per autoschedule (each takes ~10-30 ms): the Pareto pruning
# is worth a second, not minutes; what it leaves, the run-time choice prices.
MOST_SOLVER_QUERIES = 16
ELEMENT_BYTES = 8  # temporaries hold doubles
FALLBACK_LLC_BYTES = 8 * 1024 * 1024
FALLBACK_L2_BYTES = 512 * 1024


# ----------------------------------------------------------------------------- stage 2


def depth_poset(items: Sequence, depths: Callable[[Any], tuple[int, int]]) -> list:
    """Items whose (loop depth, memory depth) no other item beats in one and ties or beats in the other."""
    cells = {depths(item) for item in items}
    front = {c for c in cells
             if not any((o[0] < c[0] and o[1] <= c[1]) or (o[0] <= c[0] and o[1] < c[1]) for o in cells)}
    return [item for item in items if depths(item) in front]


# ----------------------------------------------------------------------------- constraints


def _z3_expression(expression: sympy.Expr, variables: dict[str, z3.ArithRef]):
    if expression.is_Symbol:
        name = str(expression)
        if name not in variables:
            variables[name] = z3.Real(name)
        return variables[name]
    if expression.is_Number:
        return z3.RealVal(str(sympy.nsimplify(expression)))
    if expression.is_Add:
        return z3.Sum([_z3_expression(a, variables) for a in expression.args])
    if expression.is_Mul:
        result = None
        for a in expression.args:
            term = _z3_expression(a, variables)
            result = term if result is None else result * term
        return result
    if expression.is_Pow and expression.exp.is_Integer:
        base = _z3_expression(expression.base, variables)
        exponent = int(expression.exp)
        if exponent > 0:
            result = base
            for _ in range(exponent - 1):
                result = result * base
            return result
        result = base
        for _ in range(-exponent - 1):
            result = result * base
        return 1 / result
    raise AutoscheduleError(f"autoschedule: cannot use {expression} in a constraint (only + - * / and integer powers)")


_RELATION = re.compile(r"(<=|>=|==|=|<|>)")
# What a side of a constraint may hold: names, numbers, + - * / ** and parentheses
# (nothing that Python's eval inside parse_expr could read as an attribute, a string or a subscript).
_SIDE = re.compile(r"(?:[A-Za-z_][A-Za-z_0-9]*|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|\*\*|[-+*/()])*")


def _parse(text: str) -> sympy.Expr:
    """A sympy expression in which every name is a positive symbol (``I`` is not sqrt(-1))."""
    names = {n: sympy.Symbol(n, positive=True) for n in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)}
    return parse_expr(text, local_dict=names, global_dict={"Integer": sympy.Integer, "Float": sympy.Float,
                                                            "Rational": sympy.Rational, "Symbol": sympy.Symbol})


def parse_constraint(text: str) -> list[sympy.Basic]:
    """``"16 <= K <= 128"``, ``"10*J < K"``, ``"nnz_B <= 0.01*I*J"`` as sympy relations."""
    if not isinstance(text, str):
        raise AutoscheduleError(f"autoschedule: a constraint must be a str such as '16 <= K <= 128', got {text!r}")
    parts = _RELATION.split(text.replace(" ", ""))
    if len(parts) < 3 or len(parts) % 2 == 0:
        raise AutoscheduleError(f"autoschedule: constraint {text!r} must compare expressions with <, <=, =, >=, >")
    for side in parts[::2]:
        if not side or not _SIDE.fullmatch(side):
            raise AutoscheduleError(f"autoschedule: cannot read constraint {text!r}: {side!r} is not an expression "
                                    "of names and numbers with + - * / ** and parentheses")
    try:
        sides = [_parse(p) for p in parts[::2]]
    except (sympy.SympifyError, SyntaxError, TypeError, TokenError, ValueError, ZeroDivisionError) as error:
        raise AutoscheduleError(f"autoschedule: cannot read constraint {text!r}: {error}") from None
    relations = []
    for left, op, right in zip(sides, parts[1::2], sides[1:]):
        relations.append({"<": sympy.StrictLessThan, "<=": sympy.LessThan, ">": sympy.StrictGreaterThan,
                          ">=": sympy.GreaterThan, "=": sympy.Eq, "==": sympy.Eq}[op](left, right, evaluate=False))
    return relations


def inferred_constraints(problem: Problem) -> list[str]:
    """What the sizes must satisfy whatever the data: extents >= 1, and for each sparse
    operand, each level's count between its parent's and its parent's times the extent."""
    facts = [f"{dimension_symbol(i)} >= 1" for i in problem.indices]
    for operand in problem.sparse_factors:
        previous = "1"
        for depth, index in enumerate(operand.levels):
            count = "*".join(count_symbols(operand, depth))
            facts.append(f"{count} <= ({previous})*{dimension_symbol(index)}")
            if not operand.dense_levels[depth]:
                # a stored prefix has at least one stored entry below it (no empty fibers) only
                # if its parent is compressed; a dense parent may have empty rows
                if depth == 0 or not operand.dense_levels[depth - 1]:
                    facts.append(f"{count} >= {previous}")
                else:
                    facts.append(f"{count} >= 1")
            previous = count
        facts.append(f"sparsity_{operand.name} * {'*'.join(dimension_symbol(i) for i in operand.indices)} "
                     f"= nnz_{operand.name}" if not all(operand.dense_levels) else "1 >= 0")
    return facts


class Context:
    """Z3 context for comparing costs: range, inferred and user constraints."""

    def __init__(self, problem: Problem, user: Iterable[str] = (), also: Iterable[Problem] = ()):
        """``also``: problems whose candidates are compared too (copies in other mode orders),
        whose inferred constraints hold as well."""
        self.variables: dict[str, z3.ArithRef] = {}
        self.assertions = []
        self.user = list(user)
        inferred = list(inferred_constraints(problem))
        for other in also:
            inferred += [fact for fact in inferred_constraints(other) if fact not in inferred]
        for text in inferred + self.user:
            for relation in parse_constraint(text):
                left = _z3_expression(relation.lhs, self.variables)
                right = _z3_expression(relation.rhs, self.variables)
                self.assertions.append({sympy.StrictLessThan: left < right, sympy.LessThan: left <= right,
                                        sympy.StrictGreaterThan: left > right, sympy.GreaterThan: left >= right,
                                        sympy.Eq: left == right}[type(relation)])
        for name, variable in self.variables.items():
            self.assertions.append(variable > 0)
        solver = z3.Solver()
        solver.set("rlimit", SOLVER_RESOURCE_LIMIT)
        solver.add(*self.assertions)
        if solver.check() == z3.unsat:
            raise AutoscheduleError("autoschedule: the constraints contradict each other (or the sizes the "
                                    "layouts imply): " + "; ".join(self.user))

    def term(self, cost: Cost) -> z3.ArithRef:
        return _z3_expression(cost.to_sympy(), self.variables) if not cost.is_zero() else z3.RealVal(0)

    def check(self, formula: z3.BoolRef) -> bool | None:
        solver = z3.Solver()
        solver.set("rlimit", SOLVER_RESOURCE_LIMIT)
        solver.add(*self.assertions)
        solver.add(formula)
        answer = solver.check()
        return None if answer == z3.unknown else answer == z3.sat


def pareto_buckets(buckets: Sequence[tuple[Cost, Cost]], context: Context,
                   most_queries: int = MOST_SOLVER_QUERIES) -> tuple[list[int], int]:
    """Stage 3: indices of the buckets kept, and the number of solver queries.

    Bucket ``s1`` goes when another bucket ``s2`` is at least as good in both costs
    for every admissible size and strictly better for some.  Costs whose coefficients
    already compare (:meth:`Cost.at_most`, true for every positive size) are settled
    without the solver; the solver, which also knows the constraints, decides the
    rest until ``most_queries`` queries have been asked (keeping a bucket is always
    safe: the run-time choice prices every candidate).
    """
    removed: set[int] = set()
    for a, (t1, m1) in enumerate(buckets):
        for b, (t2, m2) in enumerate(buckets):
            if a != b and b not in removed and t2.at_most(t1) and m2.at_most(m1):
                removed.add(a)  # distinct buckets: b is strictly better somewhere
                break
    queries = 0
    terms: dict[int, tuple] = {}
    for a in range(len(buckets)):
        if a in removed:
            continue
        for b in range(len(buckets)):
            if a == b or b in removed:
                continue
            if queries + 2 > most_queries:
                return [k for k in range(len(buckets)) if k not in removed], queries
            for k in (a, b):
                if k not in terms:
                    terms[k] = (context.term(buckets[k][0]), context.term(buckets[k][1]))
            (t1, m1), (t2, m2) = terms[a], terms[b]
            queries += 1
            if context.check(z3.Or(t1 < t2, m1 < m2)) is not False:
                continue
            queries += 1
            if context.check(z3.Or(t1 > t2, m1 > m2)) is True:
                removed.add(a)
                break
    return [k for k in range(len(buckets)) if k not in removed], queries


# ----------------------------------------------------------------------------- stages 4 and 5


def _reported_caches() -> list[tuple[int, int]]:
    """(level, bytes) of each data or unified cache the operating system reports for CPU 0."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    units = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
    caches = []
    try:
        for entry in sorted(os.listdir(base)):
            if not entry.startswith("index"):
                continue
            with open(os.path.join(base, entry, "size")) as handle:
                text = handle.read().strip()
            with open(os.path.join(base, entry, "type")) as handle:
                kind = handle.read().strip()
            with open(os.path.join(base, entry, "level")) as handle:
                level = int(handle.read().strip())
            if kind == "Instruction":
                continue
            caches.append((level, int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)))
    except (OSError, ValueError):
        return []
    return caches


def last_level_cache_bytes() -> tuple[int, str]:
    """The largest CPU cache the operating system reports, and where it came from."""
    best = max((size for _, size in _reported_caches()), default=0)
    if best:
        return best, "/sys/devices/system/cpu/cpu0/cache"
    try:
        value = os.sysconf("SC_LEVEL3_CACHE_SIZE")
        if value > 0:
            return int(value), "sysconf(SC_LEVEL3_CACHE_SIZE)"
    except (ValueError, OSError, AttributeError):
        pass
    return FALLBACK_LLC_BYTES, "fallback (the operating system did not report a cache size)"


def core_cache_bytes() -> int:
    """The level-2 cache (the largest private one on most machines), which the work
    model's sweeps must fit to be reused across iterations."""
    second = [size for level, size in _reported_caches() if level == 2]
    return max(second) if second else FALLBACK_L2_BYTES


def stride_cost(schedule: Node, sizes: Mapping[str, float]) -> float:
    """Stage 5: for each leaf's innermost loop, the stride at which each dense operand moves."""
    total = 0.0
    for leaf, _ in leaves(schedule):
        if not isinstance(leaf, Leaf) or not leaf.loops:
            continue
        inner = leaf.loops[-1]
        for operand in (leaf.statement.target, *leaf.statement.factors):
            if operand.sparse or inner not in operand.indices:
                continue
            after = operand.indices[operand.indices.index(inner) + 1:]
            stride = 1.0
            for index in after:
                stride *= sizes.get(dimension_symbol(index), 1.0)
            total += 0.0 if not after else stride
    return total


def order_disagreement(schedule: Node) -> int:
    """Stage 5: pairs of a dense operand's indices that the loops visit in the other order."""
    count = 0
    for leaf, bound in leaves(schedule):
        order = list(bound) + list(leaf.loops)
        for operand in (leaf.statement.target, *leaf.statement.factors):
            if operand.sparse:
                continue
            positions = [order.index(i) for i in operand.indices if i in order]
            count += sum(1 for a in range(len(positions)) for b in range(a + 1, len(positions))
                         if positions[a] > positions[b])
    return count
