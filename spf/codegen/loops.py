"""The loop nest that scanning produces, before it becomes C.

Expressions are :class:`~spf.space.expressions.Affine` over variables, constants and UF
dimensions; a UF dimension is computed by an :class:`Assign` of a
:class:`~spf.space.expressions.UFCall` (an array read).  Bounds are inclusive and may
divide: ``Bound(e, 2)`` is ``ceil(e / 2)`` as a lower bound, ``floor(e / 2)`` as an
upper one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Sequence, Union

from spf.space.expressions import Affine, Constraint, UFCall

if TYPE_CHECKING:
    from spf.layout_library.model import Arith

    from spf.codegen.finds.find import FindChoice
    from spf.codegen.passes.independent import IndependentIterations
    from spf.codegen.passes.jam import Transposition
    from spf.codegen.passes.zeroing import RowZeroing


@dataclass(frozen=True)
class Bound:
    expression: Affine
    divisor: int = 1

    def __str__(self) -> str:
        return str(self.expression) if self.divisor == 1 else f"({self.expression}) / {self.divisor}"


@dataclass
class Loop:
    """``for variable in [max(lower), min(upper)]``."""

    variable: str
    lower: list[Bound]
    upper: list[Bound]
    body: list["Node"] = field(default_factory=list)
    parallel: bool = False
    thread_state: list["Node"] = field(default_factory=list)  # find states each thread starts (parallel)
    # a parallel loop updating shared output entries: "privatize" (per-thread copies of the output
    # array), "atomic", or "clause" (a scalar output: OpenMP's reduction clause over its sum)
    reduction: str | None = None
    schedule: str = "dynamic,32"  # OpenMP schedule of a parallel loop
    monotonic: bool = False  # parallel: each thread runs its iterations in order (a SeqIter position carries over)
    parts_at: tuple[str, bool] | None = None  # (UF f, increasing): parallel parts cut where f(variable) changes
    zero_rows: RowZeroing | None = None  # spf.codegen.passes.zeroing: blocks of iterations zero their output rows first
    jam: int = 1  # iterations sharing one pass of the register sum inside (spf.codegen.passes.jam)
    transposed: tuple[Transposition, ...] = ()  # spf.codegen.passes.jam: inputs copied transposed before this loop, where it pays
    register_sum: "RegisterSum | None" = None  # its terms summed in a register (spf.codegen.passes.register_sum)
    pieces: "Pieces | None" = None  # parallel: cut into pieces of equal work (spf.codegen.passes.parallel)
    opens_group: bool = False  # each iteration opens the group of an assembled output's row (spf.codegen.assembly.rows)
    parallel_proof: str | None = None  # with parallel: why the dependence pass (spf.codegen.passes.parallel) allowed it
    independent: "IndependentIterations | None" = None  # no iteration touches what another writes (spf.codegen.passes.independent)
    # a static parallel loop over a dense nest: (lower, upper) of each of its loops; the team is as
    # large as their product of iterations pays for (spf.codegen.passes.parallel.balance_parallel_loops)
    dense_trips: tuple[tuple[list[Bound], list[Bound]], ...] = ()


@dataclass(frozen=True)
class Pieces:
    """A parallel loop cut once per call into contiguous pieces holding equal work, each
    thread taking its own run of them in order, then the last pieces of the others'.
    Iteration ``v`` weighs 1 plus ``weight`` times the length ``pointer(v + 1) - pointer(v)``
    of the segment it walks (1 alone without a pointer; then ``Loop.parts_at`` asks for
    the pieces).  The team is as large as the work pays for; ``most``: the most pieces
    whatever the work (the weights say little of an iteration's work, the threads even it
    out by taking pieces), else up to 4 a thread as the work allows."""

    pointer: UFCall | None
    weight: int = 1
    most: bool = False


@dataclass
class RegisterSum:
    """A loop whose statement writes one output position throughout: its terms are summed in
    a register and added to the output once after the loop (TACO's scalar temporary)."""

    target: "Compute"
    repeated: list["Assign"]  # assignments in the loop that the update needs: their values do not change in it
    hoisted: set[int]  # the statement's factors that do not change in the loop: they multiply the sum once
    counts_terms: bool = False  # a flag notes that a term was added, and the update runs only then
    # "nonzero" or "zero": the value at which ⊕ is final, and the loop stops (spf.codegen.passes.terminal_sum)
    terminal: str | None = None
    lanes: int = 1  # registers a long loop's terms are split among (spf.codegen.passes.split_sum) ...
    least_trips: int = 0  # ... when it runs at least this many iterations

    @property
    def reads_arrays(self) -> bool:
        """Whether the update reads an index array (then only after a term was added: the read is valid)."""
        return any(isinstance(a.value, UFCall) for a in self.repeated)


@dataclass
class Assign:
    """``variable = value``: an affine expression, or a UF call (an array read)."""

    variable: str
    value: Union[Affine, UFCall]
    divisor: int = 1  # value / divisor, exact (a guard checks divisibility)
    opens_group: bool = False  # opens the group of an assembled output's row (spf.codegen.assembly.rows)


@dataclass
class Guard:
    """``if (all conditions) body else otherwise``."""

    conditions: list[Constraint]
    body: list["Node"] = field(default_factory=list)
    otherwise: list["Node"] = field(default_factory=list)


@dataclass(frozen=True)
class KeyPart:
    """One coordinate a find matches: ``dimension = call == key``."""

    dimension: str
    call: UFCall
    key: Affine


@dataclass
class Find:
    """Positions ``variable`` in ``[max(lower), min(upper)]`` where ``call == key``.

    ``template`` says how (a :class:`spf.codegen.finds.find.FindChoice`); ``body`` runs once per
    match with ``variable`` (and the call's dimension ``dimension``) bound.  With ``minor``
    parts the key is composite: ``(call, minor calls...) == (key, minor keys...)``, the
    positions searched in that lexicographic order (a sorted coordinate list's (row, col)).
    """

    variable: str
    dimension: str
    call: UFCall
    key: Affine
    lower: list[Bound]
    upper: list[Bound]
    template: FindChoice
    body: list["Node"] = field(default_factory=list)
    # the enclosing loop stops once this SeqIter's position has left its range: nothing
    # else in its iterations has an effect (spf.codegen.passes.early_exit)
    exit_when_exhausted: bool = False
    # a Bitmap find whose body is its loop's register-sum term: looked up and added without
    # a branch, the term masked by the hit (spf.codegen.passes.masked_lookup)
    masked: bool = False
    minor: tuple[KeyPart, ...] = ()

    @property
    def parts(self) -> tuple[KeyPart, ...]:
        """The key's parts, major first."""
        return (KeyPart(self.dimension, self.call, self.key), *self.minor)


@dataclass
class Compute:
    """The statement: ``output[position] (+)= coefficient * product of inputs``."""

    output: tuple[str, tuple, tuple] | None  # (array, indices, array dimensions); None: scalar or stream
    factors: list[tuple[str, tuple, tuple]]
    coefficient: float = 1.0
    scalar_output: str | None = None
    stream: tuple[str, ...] | None = None  # an assembled output: the coordinates of the entry produced
    stores: bool = False  # ``=`` rather than ``+=``: the nest writes each output entry once (spf.codegen.passes.zeroing)
    grouped: bool = False  # the entry goes to the group its row opened, naming only its key (spf.codegen.assembly.rows)
    # an entry: its factors' arrays whose zeros are a padded layout's unstored entries (a BCSR
    # block's, a dense operand's), no terms: the entry is appended only where they are not zero
    padded: tuple[str, ...] = ()


@dataclass
class ZeroEntry:
    """``output[position] = 0``: an entry that no term reaches, in a nest that stores each
    output entry once instead of zeroing the output first (spf.codegen.passes.zeroing)."""

    output: tuple[str, tuple, tuple]  # (array, indices, array dimensions), as Compute.output


@dataclass
class TileGuard:
    """Fig. 8: run the tile's loop only if ``call`` at the tile's ends brackets ``key``
    (``call`` monotone in ``variable``, proven), since no position inside can match otherwise."""

    variable: str
    call: UFCall
    key: Affine
    lower: list[Bound]
    upper: list[Bound]
    increasing: bool
    body: list["Node"] = field(default_factory=list)


@dataclass
class Block:
    """A nested scope (a C compound statement): fused sections re-read arrays in their own scope."""

    body: list["Node"] = field(default_factory=list)
    fused_iteration: bool = False  # one iteration of a schedule tree's fused loops: find state below restarts here


@dataclass
class Chunks:
    """A parallel loop's iterations ``[max(lower), min(upper)]`` split into one contiguous
    chunk per thread, in order: chunk t runs the body with ``spf_first``..``spf_last``
    its own part of the range (a two-phase kernel counts and fills the same chunks).

    The chunks hold equal work where ``pointer`` is read at the loop's variable and the
    next (an iteration weighs 1 plus its segment's length), else equal counts.  The team
    shrinks so that each chunk holds ``least_iterations`` iterations at least, and to one
    thread where the chunks' counters (one per row each) would pass ``2**counters_log2``."""

    lower: list[Bound]
    upper: list[Bound]
    body: list["Node"] = field(default_factory=list)
    pointer: UFCall | None = None
    least_iterations: int = 2048
    counters_log2: int = 26
    variable: str | None = None  # the chunked loop's variable, which ``pointer`` is read at


@dataclass
class Temporary:
    """A dense temporary of a fused schedule, zeroed here: a scalar (``size`` None) is
    declared here too; an array (``size`` elements) is allocated once per kernel call."""

    name: str
    size: Affine | None = None


@dataclass
class MergeArm:
    """One term of a :class:`Merge`: ``path`` (guards and assignments down to, and
    holding, ``loop``) runs once per iteration of the enclosing loop; ``loop`` walks the
    term's positions with the merged coordinate strictly increasing (proven)."""

    path: list["Node"]
    loop: Loop
    pushes: bool = False  # an iteration appends one entry, at a key new to its row's group (spf.codegen.assembly.rows)


@dataclass
class Merge:
    """The terms' loops co-iterated by ``coordinate`` (the union of their coordinates in
    increasing order, TACO's merge of sorted lists): each value of the coordinate runs
    the body of every arm whose loop is at it, in arm order, then those arms advance."""

    coordinate: str
    arms: list[MergeArm]
    # two arms step comparing their keys ("compare"), also summing both terms at one key in a
    # register ("held"), or taking the less key by masks, without a branch ("branchless";
    # spf.codegen.assembly.rows); any number of arms, by the least of their keys ("least"; spf.codegen.assembly.merge)
    steps: str = "compare"


@dataclass
class StateInit:
    """Where a SeqIter position or a HashMap table starts (before the loops it outlives).

    ``per_thread``: the state is an array (a table, positions kept per value) written
    inside a parallel loop, so each thread fills and uses its own slice."""

    find: Find
    per_thread: bool = False


Node = Union[Loop, Assign, Guard, Find, Compute, ZeroEntry, StateInit, TileGuard, Block, Temporary, Chunks, Merge]


def copied_from(index: Arith, nodes: list[Node]) -> str | None:
    """The variable an index (an Arith name, as in an output position) equals: followed
    back through the nodes' assignments of one variable to another (``py0 = i``, ``i = pAi``)."""
    from spf.layout_library.model import Name
    if not isinstance(index, Name):
        return None
    copies = {}
    for node in walk(nodes):
        if isinstance(node, Assign) and isinstance(node.value, Affine) and node.divisor == 1:
            value = node.value
            if value.constant == 0 and len(value.terms) == 1 and value.terms[0][1] == 1 \
                    and isinstance(value.terms[0][0], str):
                copies[node.variable] = value.terms[0][0]
    name, seen = index.name, set()
    while name in copies and name not in seen:
        seen.add(name)
        name = copies[name]
    return name


def outer_loops(nodes: list[Node], guards: tuple = ()) -> Iterator[tuple[Loop, tuple]]:
    """The loops no other loop encloses, in order, each with the conditions of the guards
    around it: a nest's outermost loop, or a fused nest's phases (a root temporary's
    producer, then its consumer)."""
    for node in nodes:
        if isinstance(node, Loop):
            yield node, guards
        elif isinstance(node, Guard):
            yield from outer_loops(node.body, guards + tuple(node.conditions))
        elif isinstance(node, Block):
            yield from outer_loops(node.body, guards)


def walk(nodes: list[Node]) -> Iterator[Node]:
    for node in nodes:
        yield node
        if isinstance(node, (Loop, Guard, Find, TileGuard, Block, Chunks)):
            yield from walk(node.body)
        if isinstance(node, Guard):
            yield from walk(node.otherwise)
        if isinstance(node, Merge):
            for arm in node.arms:
                yield from walk(arm.path)


def expression_names(value: object) -> set[str]:
    """The names an expression of a node reads (an affine expression, a UF call and its
    function, a bound, a constraint, layout arithmetic); the empty set for anything else."""
    if isinstance(value, (Affine, UFCall)):
        return value.names() | ({value.function} if isinstance(value, UFCall) else set())
    if isinstance(value, Bound):
        return value.expression.names()
    if isinstance(value, Constraint):
        return value.left.names() | value.right.names()
    if hasattr(value, "names"):  # layout arithmetic
        return value.names()
    return set()


def used_names(node: Node) -> set[str]:
    """Names a node reads itself (not counting its body)."""
    used: set[str] = set()
    if isinstance(node, (Loop, Chunks)):
        for bound in node.lower + node.upper:
            used |= expression_names(bound)
    elif isinstance(node, Guard):
        for constraint in node.conditions:
            used |= expression_names(constraint)
    elif isinstance(node, Find):
        for part in node.parts:
            used |= expression_names(part.key) | expression_names(part.call)
        used |= set(getattr(node.template, "keyed", ()))  # positions kept per value of these
        for bound in node.lower + node.upper:
            used |= expression_names(bound)
    elif isinstance(node, TileGuard):
        used |= expression_names(node.key) | (expression_names(node.call) - {node.variable})
        for bound in node.lower + node.upper:
            used |= expression_names(bound)
    elif isinstance(node, Temporary) and node.size is not None:
        used |= expression_names(node.size)
    elif isinstance(node, ZeroEntry):
        for expression in list(node.output[1]) + list(node.output[2]):
            used |= expression_names(expression)
    elif isinstance(node, Compute):
        for access in ([node.output] if node.output else []) + list(node.factors):
            for expression in list(access[1]) + list(access[2]):
                used |= expression_names(expression)
        used |= set(node.stream or ())
    return used


def remove_dead_assignments(nodes: list[Node]) -> list[Node]:
    """Drop assignments whose variable nothing reads (the paper's dead-code elimination)."""
    assignments: dict[str, list[Assign]] = {}  # a fused nest may assign one name in several scopes
    for node in walk(nodes):
        if isinstance(node, Assign):
            assignments.setdefault(node.variable, []).append(node)
    live: set[str] = set()
    for node in walk(nodes):
        if not isinstance(node, Assign):
            live |= used_names(node)
    pending = [name for name in live if name in assignments]
    while pending:
        name = pending.pop()
        for assignment in assignments[name]:
            for used in expression_names(assignment.value):
                if used in assignments and used not in live:
                    live.add(used)
                    pending.append(used)
        live.add(name)

    def prune(items: list[Node]) -> list[Node]:
        kept = []
        for item in items:
            if isinstance(item, Assign) and item.variable not in live:
                continue
            if isinstance(item, (Loop, Guard, Find, TileGuard, Block, Chunks)):
                item.body = prune(item.body)
            if isinstance(item, Guard):
                item.otherwise = prune(item.otherwise)
            if isinstance(item, Merge):
                for arm in item.arms:
                    arm.path = prune(arm.path)
            kept.append(item)
        return kept

    return prune(nodes)


def _target(compute: Compute) -> str:
    """What a statement writes, as render shows it."""
    if compute.stream is not None:
        return f"the entry ({', '.join(compute.stream)})"
    if compute.output is None:
        return str(compute.scalar_output)
    return f"{compute.output[0]}[{', '.join(str(i) for i in compute.output[1])}]"


def _loop_notes(loop: Loop) -> list[str]:
    """The decisions the passes wrote on a loop, one line each (shown before it)."""
    notes = [f"{t.array} read through a transposed copy when the call's {t.pointer} segments hold >= "
             f"{t.reuse} x its columns" for t in loop.transposed]
    if loop.opens_group:
        notes.append(f"loop {loop.variable}: each iteration opens row {loop.variable}'s group")
    zeroing = loop.zero_rows
    if zeroing is not None:
        if zeroing.pointer is not None and zeroing.stores:
            notes.append(f"loop {loop.variable} stores each entry of {zeroing.array} in its {zeroing.pointer} "
                         "segment once: no zeroing")
        elif zeroing.pointer is not None:
            notes.append(f"loop {loop.variable} runs in blocks of iterations, each zeroing the rows of "
                         f"{zeroing.array} in its {zeroing.pointer} segments first")
        elif zeroing.stores:
            notes.append(f"loop {loop.variable} stores each of its rows of {zeroing.array} once: no zeroing")
        else:
            notes.append(f"loop {loop.variable} runs in blocks of rows of about {zeroing.block_entries} entries of "
                         f"{zeroing.array}, each block zeroing its rows first")
    summed = loop.register_sum
    if summed is not None:
        hoisted = ", ".join(summed.target.factors[k][0] for k in sorted(summed.hoisted))
        notes.append(f"loop {loop.variable} sums its terms in a register, added to {_target(summed.target)} once "
                     f"after it" + (f" (times {hoisted}, taken out of the sum)" if hoisted else "")
                     + (", if a term was added" if summed.counts_terms else "")
                     + (f"; it stops once the sum is {summed.terminal} (⊕'s terminal value)"
                        if summed.terminal else ""))
    if loop.pieces is not None:
        notes.append(_pieces_note(loop))
    elif loop.parallel:
        notes.append(f"loop {loop.variable} shares its iterations by OpenMP's schedule("
                     f"{'monotonic: ' if loop.monotonic else ''}{loop.schedule})"
                     + {None: "", "privatize": ", each thread adding into its own copy of the output (summed after)",
                        "atomic": ", its updates atomic", "clause": ", each thread summing apart (OpenMP's reduction)"
                        }[loop.reduction])
    return notes


def _pieces_note(loop: Loop) -> str:
    pieces = loop.pieces
    weight = "1"
    if pieces.pointer is not None:
        times = "" if pieces.weight == 1 else f"{pieces.weight} x "
        weight = f"1 + {times}the length of its {pieces.pointer.function} segment"
    cut = f", each cut moved to where {loop.parts_at[0]}({loop.variable}) changes" if loop.parts_at else ""
    count = "the most pieces" if pieces.most else "up to 4 pieces a thread as the work allows"
    return (f"loop {loop.variable} cut into pieces of equal work (an iteration weighs {weight}){cut}: "
            f"{count}, each thread taking its own in order, then the others' last")


def render(nodes: list[Node], indent: str = "") -> str:
    """A readable pseudo-code view of a loop nest (for explain and tests)."""
    lines: list[str] = []
    for node in nodes:
        if isinstance(node, Loop):
            low = ", ".join(str(b) for b in node.lower)
            high = ", ".join(str(b) for b in node.upper)
            low = low if len(node.lower) == 1 else f"max({low})"
            high = high if len(node.upper) == 1 else f"min({high})"
            pragma = " (parallel)" if node.parallel else f" (jammed by {node.jam})" if node.jam > 1 else ""
            if node.register_sum is not None and node.register_sum.lanes > 1:
                pragma += (f" (summed in {node.register_sum.lanes} registers from "
                           f"{node.register_sum.least_trips} iterations)")
            if node.independent is not None:
                pragma += " (independent iterations)"
            lines.extend(f"{indent}{note}" for note in _loop_notes(node))
            lines.append(f"{indent}for {node.variable} in {low} .. {high}{pragma}:")
            lines.append(render(node.body, indent + "  "))
        elif isinstance(node, Assign):
            value = str(node.value) if node.divisor == 1 else f"({node.value}) / {node.divisor}"
            opens = f"  (opens row {node.variable}'s group)" if node.opens_group else ""
            lines.append(f"{indent}{node.variable} = {value}{opens}")
        elif isinstance(node, Guard):
            lines.append(f"{indent}if {' and '.join(str(c) for c in node.conditions)}:")
            lines.append(render(node.body, indent + "  "))
            if node.otherwise:
                lines.append(f"{indent}else:")
                lines.append(render(node.otherwise, indent + "  "))
        elif isinstance(node, ZeroEntry):
            lines.append(f"{indent}{node.output[0]}[{', '.join(str(i) for i in node.output[1])}] = 0")
        elif isinstance(node, Find):
            low = ", ".join(str(b) for b in node.lower)
            high = ", ".join(str(b) for b in node.upper)
            lines.append(f"{indent}find {node.variable} in {low} .. {high} where {key_condition(node.parts)} "
                         f"[{node.template}]:")
            lines.append(render(node.body, indent + "  "))
        elif isinstance(node, TileGuard):
            lines.append(f"{indent}if the tile's first and last {node.call} bracket {node.key} (Fig. 8):")
            lines.append(render(node.body, indent + "  "))
        elif isinstance(node, Block):
            lines.append(render(node.body, indent))
        elif isinstance(node, Chunks):
            low = ", ".join(str(b) for b in node.lower)
            high = ", ".join(str(b) for b in node.upper)
            weighed = f"equal work, an iteration weighing 1 + its {node.pointer.function} segment's length" \
                if node.pointer is not None else "equal counts"
            lines.append(f"{indent}chunks of {weighed}, {node.least_iterations} iterations at least, one chunk "
                         f"alone beyond 2**{node.counters_log2} counters")
            lines.append(f"{indent}for each thread's chunk spf_first .. spf_last of {low} .. {high} (parallel):")
            lines.append(render(node.body, indent + "  "))
        elif isinstance(node, Merge):
            steps = {"compare": "", "held": "; both terms at one key summed in a register and pushed once",
                     "branchless": "; steps without a branch, the less key taken by masks",
                     "least": "; each step runs the terms at the least key"}[node.steps]
            lines.append(f"{indent}merge the {len(node.arms)} terms' loops by {node.coordinate} (their union, "
                         f"in increasing {node.coordinate}{steps}):")
            for number, arm in enumerate(node.arms, 1):
                pushes = " (pushes each key, new to its row's group)" if arm.pushes else ""
                lines.append(f"{indent}  term {number}{pushes}:")
                lines.append(render(arm.path, indent + "    "))
        elif isinstance(node, Temporary):
            size = "a scalar" if node.size is None else f"{node.size} elements"
            lines.append(f"{indent}{node.name} = 0  ({size})")
        elif isinstance(node, StateInit):
            lines.append(f"{indent}start the state of find {node.find.variable} [{node.find.template}]")
        elif isinstance(node, Compute):
            factors = " * ".join(f"{a}[{', '.join(str(i) for i in idx)}]" for a, idx, _ in node.factors)
            coefficient = "" if node.coefficient == 1 else f"{node.coefficient} * "
            if node.stream is not None:
                sink = "its row's group" if node.grouped else "the stream"
                where = f" where {' and '.join(f'{a} is not 0' for a in node.padded)}" if node.padded else ""
                lines.append(f"{indent}append ({', '.join(node.stream)}) -> {coefficient}{factors} to {sink}{where}")
                continue
            target = _target(node)
            if node.stores:
                lines.append(f"{indent}{target} = the sum of {coefficient}{factors} over the loop (stored once)")
            else:
                lines.append(f"{indent}{target} += {coefficient}{factors}")
    return "\n".join(line for line in lines if line)


def key_condition(parts: Sequence[KeyPart]) -> str:
    """``call == key``, or ``(call, call2) == (key, key2)`` for a composite key."""
    if len(parts) == 1:
        return f"{parts[0].call} == {parts[0].key}"
    return f"({', '.join(str(p.call) for p in parts)}) == ({', '.join(str(p.key) for p in parts)})"
