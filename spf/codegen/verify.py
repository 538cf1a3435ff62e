"""The verifier between passes: every loop nest is well formed (loopy's ``check``, TACO's IR verifier).

A pass hands the next one loop nests (:mod:`codegen.loops`) that it may have rewritten in
place; a mistake there shows up much later, as C that does not compile or, worse, reads a
name it never set.  :func:`verify_nest` checks a nest where the mistake is made:

* every node is a node of :mod:`codegen.loops`, and no node object sits twice in the
  kernel's nests (passes rewrite nodes in place, so a shared one would be rewritten twice);
* every name a node reads is bound where it runs: by an enclosing loop, find or chunk, by
  an assignment or temporary before it in an enclosing scope, or by the kernel itself (a
  tensor's field, an extent, a scalar output); the same for the arrays a statement reads
  and writes, and those a UF call reads;
* no loop, find or chunk binds a variable that an enclosing one binds, and no assignment
  overwrites one;
* a loop and a find have bounds on both sides; divisors are positive; a guard has a
  condition; a statement has one destination;
* a find is a search (seqiter, hashmap, bitmap or binary), its call reads its variable, and its
  state indices and the names its state is keyed by are bound where it runs;
* a parallel loop carries the dependence pass's proof (``Loop.parallel_proof``) and holds
  no parallel loop or chunks; reduction, parts, thread state belong to parallel loops only,
  jamming to serial ones;
* a find's state starts (:class:`~codegen.loops.StateInit`) before its find, in a scope
  that holds it, from names bound there; once states are placed, every stateful find has
  exactly one start;
* a tile guard holds the loop it guards; each arm of a merge holds its loop on its path,
  and that loop binds the merged coordinate.

The checks are on in the tests (``tests/conftest.py``) and behind a flag otherwise
(:data:`ENABLED`, or ``SPF_VERIFY=1`` in the environment): a kernel's nests are walked
once per pass, a few milliseconds per compile.  A violation is a bug in spf, raised as
:class:`~spf.errors.SpfInternalError` naming the pass and the node.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Protocol, Sequence

from spf.errors import SpfInternalError
from spf.space.expressions import Affine, Constraint, UFCall

from spf.codegen.loops import (Assign, Block, Bound, Chunks, Compute, Find, Guard, Loop, Merge, Node, StateInit,
                               Temporary, TileGuard, ZeroEntry, render, walk)

if TYPE_CHECKING:
    from spf.space.iteration_space import StatementSpace

    from spf.codegen.scanning.scan import Scan

ENABLED = False  # verify the nests after every pass (tests set it; SPF_VERIFY=1 does too)
NODE_TYPES = (Loop, Assign, Guard, Find, Compute, ZeroEntry, StateInit, TileGuard, Block, Temporary, Chunks, Merge)
SEARCHES = ("seqiter", "hashmap", "bitmap", "binary")  # the find templates a Find node stands for (direct ones are assignments)
STATEFUL = ("seqiter", "hashmap", "bitmap")
REDUCTIONS = (None, "privatize", "atomic", "clause")
CHUNK_BOUNDS = ("spf_first", "spf_last")  # each thread's part of a Chunks range


def enabled() -> bool:
    """Whether the passes' nests are verified: :data:`ENABLED`, or ``SPF_VERIFY`` set (not 0)."""
    return ENABLED or os.environ.get("SPF_VERIFY", "") not in ("", "0")


# ----------------------------------------------------------------------------- what a node reads


def _expression_names(expression: Any) -> set[str]:
    """The names an expression reads: plain names and the arrays of its UF calls."""
    if isinstance(expression, Affine):
        return expression.names() | {call.function for call in expression.calls()}
    if isinstance(expression, UFCall):
        return expression.names() | {call.function for call in expression.calls()}
    if isinstance(expression, Bound):
        return _expression_names(expression.expression)
    if isinstance(expression, Constraint):
        return _expression_names(expression.left) | _expression_names(expression.right)
    if hasattr(expression, "names"):  # layout arithmetic (an array position or dimension)
        return set(expression.names())
    return set()


def _all_names(expressions: Iterable[Any]) -> set[str]:
    found: set[str] = set()
    for expression in expressions:
        found |= _expression_names(expression)
    return found


def _access_names(access: tuple) -> set[str]:
    """An access ``(array, indices, dimensions)``: the array and what its position reads."""
    array, indices, dimensions = access
    return {array} | _all_names(indices) | _all_names(dimensions)


def _search_reads(find: Find) -> set[str]:
    """What a search reads besides its key: its bounds and the searched call but for the
    find's own variable (a table is filled from it, where the state starts)."""
    names = _all_names(find.lower + find.upper)
    for part in find.parts:
        names |= _expression_names(part.call) - {find.variable}
    return names


def reads(node: Node) -> set[str]:
    """The names ``node`` reads itself, where it stands (not what its body reads)."""
    if isinstance(node, (Loop, Chunks)):
        return _all_names(node.lower + node.upper)
    if isinstance(node, Assign):
        return _expression_names(node.value)
    if isinstance(node, Guard):
        return _all_names(node.conditions)
    if isinstance(node, Find):  # and the names its kept positions are per (an array of them)
        keys = set().union(*(_expression_names(part.key) for part in node.parts))
        return _search_reads(node) | keys | set(getattr(node.template, "keyed", ()))
    if isinstance(node, TileGuard):
        return _all_names(node.lower + node.upper) | _expression_names(node.key) | \
            (_expression_names(node.call) - {node.variable})
    if isinstance(node, Temporary):
        return _expression_names(node.size) if node.size is not None else set()
    if isinstance(node, ZeroEntry):
        return _access_names(node.output)
    if isinstance(node, Compute):
        found = _access_names(node.output) if node.output is not None else set()
        for factor in node.factors:
            found |= _access_names(factor)
        return found | set(node.stream or ()) | ({node.scalar_output} if node.scalar_output else set())
    if isinstance(node, StateInit):  # outside the loops that set the names its positions are kept per
        return _search_reads(node.find)
    return set()


# ----------------------------------------------------------------------------- the walk


@dataclass
class _Scope:
    """The names bound where a node runs: name -> what binds it ("kernel", "loop", "find",
    "chunk", "assignment", "temporary"), and whether a parallel loop or chunks encloses it."""

    bound: dict[str, str]
    parallel: bool = False

    def inner(self, names: Mapping[str, str] | None = None, parallel: bool = False) -> "_Scope":
        return _Scope({**self.bound, **(names or {})}, self.parallel or parallel)


LOOP_KINDS = ("loop", "find", "chunk")


@dataclass
class _Verifier:
    after: str
    where: str = ""
    seen: set[int] = field(default_factory=set)  # ids of the nodes met in the kernel's nests
    starts: dict[int, int] = field(default_factory=dict)  # id of a find -> how many StateInits start it
    finds: list[Find] = field(default_factory=list)

    def fail(self, node: Any, problem: str) -> None:
        place = f", {self.where}" if self.where else ""
        raise SpfInternalError(f"after pass {self.after}{place}: {problem} (at {_describe(node)})")

    def nest(self, nodes: list[Node], scope: _Scope) -> None:
        self.sequence(nodes, scope)
        if self.starts:  # the find states are placed: every stateful find has its one start
            for find in self.finds:
                count = self.starts.get(id(find), 0)
                if getattr(find.template, "kind", None) in STATEFUL and count != 1:
                    self.fail(find, f"the {find.template.kind} find over {find.variable} has {count} state "
                                    "starts, not one")

    def sequence(self, items: Any, scope: _Scope) -> None:
        """A body: each item runs with the names bound before it in the body."""
        if not isinstance(items, list):
            self.fail(items, f"a body that is a {type(items).__name__}, not a list of nodes")
        scope = scope.inner()
        for index, item in enumerate(items):
            if not isinstance(item, NODE_TYPES):
                self.fail(item, f"a {type(item).__name__} where a loop-nest node belongs")
            if id(item) in self.seen:
                self.fail(item, "the same node object is in the nests twice (a pass would rewrite it twice)")
            self.seen.add(id(item))
            self.unbound(item, reads(item), scope)
            if isinstance(item, StateInit):
                self.state_start(item, items[index + 1:])
            self.node(item, scope)

    def unbound(self, node: Node, names: set[str], scope: _Scope) -> None:
        missing = sorted(name for name in names if name not in scope.bound)
        if missing:
            self.fail(node, f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} read but not bound there")

    def binds(self, node: Node, variable: str, scope: _Scope) -> None:
        """``node`` binds ``variable`` for its body: not a variable an enclosing loop binds."""
        if scope.bound.get(variable) in LOOP_KINDS:
            self.fail(node, f"{variable} is bound again inside the {scope.bound[variable]} that binds it")

    def node(self, node: Node, scope: _Scope) -> None:
        if isinstance(node, Loop):
            self.loop(node, scope)
        elif isinstance(node, Assign):
            if node.divisor < 1:
                self.fail(node, f"divisor {node.divisor}")
            if scope.bound.get(node.variable) in LOOP_KINDS:
                self.fail(node, f"assigns {node.variable}, which an enclosing {scope.bound[node.variable]} binds")
            scope.bound[node.variable] = "assignment"
        elif isinstance(node, Guard):
            if not node.conditions:
                self.fail(node, "a guard without a condition")
            self.sequence(node.body, scope)
            self.sequence(node.otherwise, scope)
        elif isinstance(node, Find):
            self.find(node, scope)
        elif isinstance(node, TileGuard):
            self.bounds(node, node.lower, node.upper)
            if not any(isinstance(item, Loop) and item.variable == node.variable for item in node.body):
                self.fail(node, f"a tile guard that holds no loop over {node.variable}")
            self.sequence(node.body, scope)
        elif isinstance(node, Block):
            self.sequence(node.body, scope)
        elif isinstance(node, Chunks):
            self.bounds(node, node.lower, node.upper)
            if scope.parallel:
                self.fail(node, "chunks of a parallel loop inside another parallel loop")
            for name in CHUNK_BOUNDS:
                self.binds(node, name, scope)
            self.sequence(node.body, scope.inner({name: "chunk" for name in CHUNK_BOUNDS}, parallel=True))
        elif isinstance(node, Temporary):
            scope.bound[node.name] = "temporary"
        elif isinstance(node, Compute):
            destinations = [d for d in (node.output, node.scalar_output, node.stream) if d is not None]
            if len(destinations) != 1:
                self.fail(node, f"a statement with {len(destinations)} destinations (output, scalar, stream)")
            if node.stores and node.output is None:
                self.fail(node, "a statement that stores (=) but has no output array")
        elif isinstance(node, Merge):
            self.merge(node, scope)

    def bounds(self, node: Node, lower: list, upper: list) -> None:
        if not lower or not upper:
            self.fail(node, f"no {'lower' if not lower else 'upper'} bound")
        for bound in lower + upper:
            if not isinstance(bound, Bound) or bound.divisor < 1:
                self.fail(node, f"the bound {bound!r} is not a Bound with a positive divisor")

    def loop(self, loop: Loop, scope: _Scope) -> None:
        self.bounds(loop, loop.lower, loop.upper)
        self.binds(loop, loop.variable, scope)
        if loop.parallel:
            if not loop.parallel_proof:
                self.fail(loop, f"loop {loop.variable} is parallel, but the dependence pass recorded no proof "
                                "that it may be")
            if scope.parallel:
                self.fail(loop, f"loop {loop.variable} is parallel inside a parallel loop")
            if loop.jam > 1:
                self.fail(loop, f"loop {loop.variable} is parallel and jammed")
        else:
            kept = [name for name, value in (("a reduction", loop.reduction), ("parts", loop.parts_at),
                                             ("thread state", loop.thread_state)) if value]
            if kept:
                self.fail(loop, f"serial loop {loop.variable} has {' and '.join(kept)}, which only parallel "
                                "loops have")
        if loop.reduction not in REDUCTIONS:
            self.fail(loop, f"unknown reduction {loop.reduction!r}")
        if loop.jam < 1:
            self.fail(loop, f"jam {loop.jam}")
        inside = {id(item) for item in walk(loop.body)}
        for start in loop.thread_state:  # started for each thread where the loop's part starts
            if not isinstance(start, StateInit):
                self.fail(loop, f"thread state {start!r} that is no StateInit")
            if id(start.find) not in inside:
                self.fail(start, f"a thread's state start of loop {loop.variable} for a find outside it")
            self.unbound(start, reads(start), scope)
            self.starts[id(start.find)] = self.starts.get(id(start.find), 0) + 1
        self.sequence(loop.body, scope.inner({loop.variable: "loop"}, parallel=loop.parallel))

    def find(self, find: Find, scope: _Scope) -> None:
        self.bounds(find, find.lower, find.upper)
        kind = getattr(find.template, "kind", None)
        if kind not in SEARCHES:
            self.fail(find, f"a find node with template {find.template!r}, not one of {', '.join(SEARCHES)}")
        for part in find.parts:
            if find.variable not in part.call.names():
                self.fail(find, f"the searched call {part.call} does not read the find's variable {find.variable}")
        state = set(getattr(find.template, "state", ())) - {find.variable}
        self.unbound(find, state, scope)
        self.binds(find, find.variable, scope)
        self.finds.append(find)
        self.sequence(find.body, scope.inner({find.variable: "find", **{part.dimension: "find" for part in find.parts}}))

    def state_start(self, start: StateInit, later: list[Node]) -> None:
        """A state starts before its find, which runs later in the same body."""
        if not isinstance(start.find, Find):
            self.fail(start, f"the start of the state of {start.find!r}, which is no find")
        if not any(item is start.find for item in walk(later)):
            self.fail(start, f"the state of the find over {start.find.variable} starts where the find does not "
                             "follow")
        self.starts[id(start.find)] = self.starts.get(id(start.find), 0) + 1

    def merge(self, merge: Merge, scope: _Scope) -> None:
        if len(merge.arms) < 2:
            self.fail(merge, f"a merge of {len(merge.arms)} term(s)")
        for number, arm in enumerate(merge.arms, 1):
            if not any(item is arm.loop for item in walk(arm.path)):
                self.fail(merge, f"term {number}'s loop is not on its path")
            if not any(isinstance(item, Assign) and item.variable == merge.coordinate for item in arm.loop.body):
                self.fail(arm.loop, f"term {number}'s loop does not bind the merged coordinate {merge.coordinate}")
            self.sequence(arm.path, scope)


def _describe(node: Any) -> str:
    """The node's kind and its first line in explain()'s pseudo-code (a loop's header)."""
    if isinstance(node, NODE_TYPES):
        try:
            text = render([node]).strip().splitlines()
        except Exception:  # a malformed node may not render: its fields say enough
            text = []
        if not text:
            return repr(node)[:200]
        # a loop's decisions are printed above its header: name it by the header
        header = next((line for line in text if line.strip().startswith("for ")), text[0]) \
            if isinstance(node, Loop) else text[0]
        return f"{type(node).__name__} `{header.strip()}`"
    return repr(node)[:200]


# ----------------------------------------------------------------------------- entry points


def verify_nest(nodes: list[Node], parameters: Iterable[str], after: str, where: str = "") -> None:
    """Check one loop nest (see the module's docstring); ``parameters`` are the names the
    kernel binds around it.  Raises SpfInternalError naming ``after`` (the pass) and the node."""
    verifier = _Verifier(after, where)
    verifier.nest(nodes, _Scope({name: "kernel" for name in parameters}))


def tensor_names(tensors: Mapping[str, tuple]) -> set[str]:
    """The kernel's locals for the tensors' fields (name -> (layout, placement names, is
    output), as spf.codegen.c.emit_c.tensor_parameters declares them)."""
    return {mapping.get(f.name, f"{tensor}_{f.name}") for tensor, (layout, mapping, _) in tensors.items()
            for f in layout.fields}


def extent_names(statements: Sequence["StatementSpace"], scans: Iterable["Scan"]) -> set[str]:
    """The extents a kernel defines (``N_i``) for these statements and scans."""
    names = {name for scanned in scans for name in scanned.extents}
    return names | {name for space in statements for name in space.extents.values()}


class Compiled(Protocol):
    """What the verifier reads of a codegen.pipeline.Compilation."""

    @property
    def tensors(self) -> dict: ...

    @property
    def variant_scans(self) -> list: ...

    @property
    def count_nodes(self) -> tuple: ...

    @property
    def statements(self) -> list: ...

    @property
    def space(self) -> Any: ...


def compilation_parameters(compilation: Compiled) -> set[str]:
    """The names a pipeline kernel binds around its nests: the tensors' fields, a scalar
    output (a pointer parameter) and the extents."""
    parameters = tensor_names(compilation.tensors)
    output = compilation.space.expression.output.tensor
    if output not in compilation.tensors:
        parameters.add(output)
    scans = [scanned for group in compilation.variant_scans for scanned in group]
    return parameters | extent_names(compilation.statements, scans)


def verify_compilation(compilation: Compiled, after: str) -> None:
    """Check every nest of a compilation: each variant's statements, and the count phase's."""
    if not compilation.variant_scans:
        return
    verifier = _Verifier(after)
    scope = _Scope({name: "kernel" for name in compilation_parameters(compilation)})
    for number, group in enumerate(compilation.variant_scans):
        for statement, scanned in enumerate(group):
            verifier.where = f"variant {number}, statement {statement}"
            verifier.nest(scanned.nodes, scope)
    for statement, nodes in enumerate(compilation.count_nodes):
        verifier.where = f"the count phase, statement {statement}"
        verifier.nest(list(nodes), scope)


def check_after_pass(compilation: Compiled, after: str) -> None:
    """:func:`verify_compilation` when verification is :func:`enabled`."""
    if enabled():
        verify_compilation(compilation, after)


def schedule_parameters(nodes: list[Node], spaces: Sequence["StatementSpace"], scans: Iterable["Scan"],
                        temporaries: Mapping[str, Any]) -> set[str]:
    """The names a fused kernel (codegen.fused) binds around its nest: every field of the
    spaces' tensors, the extents and each array temporary's size (``temporaries``: name ->
    its operand); a temporary itself is bound by its :class:`~codegen.loops.Temporary` node."""
    parameters: set[str] = set()
    for space in spaces:
        for name, placement in space.placements.items():
            parameters |= tensor_names({name: (placement.layout, placement.names, False)})
    parameters |= extent_names(spaces, scans)
    parameters |= {f"{name}_size" for name, operand in temporaries.items() if operand.indices}
    return parameters - {node.name for node in walk(nodes) if isinstance(node, Temporary)}


def check_lowered_schedule(nodes: list[Node], spaces: Sequence["StatementSpace"], scans: Iterable["Scan"],
                           temporaries: Mapping[str, Any], after: str = "compile_schedule (codegen.fused)") -> None:
    """When :func:`enabled`, check a lowered schedule tree's nest (codegen.fused)."""
    if enabled():
        verify_nest(nodes, schedule_parameters(nodes, spaces, scans, temporaries), after)
