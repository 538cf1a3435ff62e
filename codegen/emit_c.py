"""From scanned loop nests to C, as pycparser ``c_ast`` printed by its generator.

One kernel function per computation: it takes a pointer to each tensor's struct
(:mod:`codegen.structs`; a scalar output is a ``double *``), copies the fields it uses
into locals (``A_rowPtr = A->rowPtr``), defines the index extents, checks that the
shapes agree (return 1), zeroes the output, runs each statement's loop nest and
returns 0.  Find templates become the code of the paper's listings: SeqIter keeps a
resumable position, HashMap a position table filled once per state, binary search a
lower bound.  A table that cannot be allocated returns 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pycparser import c_ast, c_generator

from spf.errors import SpfError, SpfInternalError
from spf.expressions import Affine, Constraint, UFCall

from .find import FindChoice
from .merge import arm_assignments, key_assignments
from .loops import (Assign, Block, Bound, Chunks, Compute, Find, Guard, Loop, Merge, Node, RegisterSum, StateInit,
                    Temporary, TileGuard, ZeroEntry, walk)
from .runtime import PRELUDE
from .scan import readable_names
from .structs import header_text, struct_name
from .zeroing import OutputZeroing

if TYPE_CHECKING:
    from .assembly import TwoPhase, Workspace
    from spf.layout_library.model import Layout

INDEX = "int64_t"
KEPT = "spf_kept"  # the kernel's find state kept between calls (spf_state slots), a parameter of its body
SHAPE_MISMATCH, OUT_OF_MEMORY = 1, 2


# ----------------------------------------------------------------------------- small c_ast helpers


def ident(name: str) -> c_ast.ID:
    return c_ast.ID(name)


def const(value: int | float) -> c_ast.Constant:
    if isinstance(value, float):
        return c_ast.Constant("double", repr(value))
    return c_ast.Constant("int", str(value)) if value >= 0 else c_ast.UnaryOp("-", c_ast.Constant("int", str(-value)))


def binary(op: str, left, right) -> c_ast.BinaryOp:
    return c_ast.BinaryOp(op, left, right)


def call(function: str, *arguments) -> c_ast.FuncCall:
    return c_ast.FuncCall(ident(function), c_ast.ExprList(list(arguments)))


def declare(name: str, c_type: str, value=None, pointer: bool = False, const_: bool = False,
            restrict: bool = False) -> c_ast.Decl:
    qualifiers = ["const"] if const_ else []
    declarator = c_ast.TypeDecl(name, qualifiers, None, c_ast.IdentifierType([c_type]))
    if pointer:
        declarator = c_ast.PtrDecl(["restrict"] if restrict else [], declarator)
    return c_ast.Decl(name, qualifiers, [], [], [], declarator, value, None)


def assign(target, value, op: str = "=") -> c_ast.Assignment:
    return c_ast.Assignment(op, target if not isinstance(target, str) else ident(target), value)


def block(items: list) -> c_ast.Compound:
    return c_ast.Compound(items)


def conjunction(conditions: list):
    result = None
    for condition in conditions:
        result = condition if result is None else binary("&&", result, condition)
    return result if result is not None else const(1)


# ----------------------------------------------------------------------------- expressions


@dataclass
class Names:
    """What the emitter needs to know about the names of an iteration space."""

    arrays: dict[str, tuple]  # array name -> its dimensions (Arith), for flattening
    readable: dict[str, str] = field(default_factory=dict)  # UF dimension -> C name
    extents: dict[str, str] = field(default_factory=dict)  # iteration index -> its extent constant

    def name(self, name: str) -> str:
        return self.readable.get(name, name)


def affine(expression: Affine, names: Names):
    result = None
    for atom, coefficient in expression.terms:
        term = array_read(atom, names) if isinstance(atom, UFCall) else ident(names.name(atom))
        if coefficient != 1 and coefficient != -1:
            term = binary("*", const(abs(coefficient)), term)
        if result is None:
            result = term if coefficient > 0 else c_ast.UnaryOp("-", term)
        else:
            result = binary("+" if coefficient > 0 else "-", result, term)
    if result is None:
        return const(expression.constant)
    if expression.constant:
        result = binary("+" if expression.constant > 0 else "-", result, const(abs(expression.constant)))
    return result


def arith(expression, names: Names):
    """An Arith tree (layout arithmetic: value positions, array dimensions) as C."""
    from spf.layout_library.model import BinaryOp, Name, Negate, Number
    if isinstance(expression, Number):
        return const(expression.value)
    if isinstance(expression, Name):
        return ident(names.name(expression.name))
    if isinstance(expression, Negate):
        return c_ast.UnaryOp("-", arith(expression.operand, names))
    if isinstance(expression, BinaryOp):
        return binary(expression.op, arith(expression.left, names), arith(expression.right, names))
    raise SpfError(f"cannot emit {expression} in a kernel")


def flat_index(indices: list, dimensions: tuple, names: Names):
    """Row-major position of ``indices`` (C expressions) in an array of ``dimensions`` (Arith)."""
    position = indices[0]
    for index, dimension in zip(indices[1:], dimensions[1:]):
        position = binary("+", binary("*", position, arith(dimension, names)), index)
    return position


def hash_table_length(entries: int) -> int:
    """The int64 length of a hash map's table for ``entries`` positions (spf_hash_fill)."""
    bits = 1
    while bits < 58 and (1 << bits) < 2 * entries:
        bits += 1
    return 2 + (1 << bits) // 2 + 3 * (1 << bits)


def array_read(uf_call: UFCall, names: Names):
    dimensions = names.arrays[uf_call.function]
    indices = [affine(a, names) for a in uf_call.arguments]
    return c_ast.ArrayRef(ident(uf_call.function), flat_index(indices, dimensions, names))


def condition(constraint: Constraint, names: Names):
    left, right = affine(constraint.left, names), affine(constraint.right, names)
    if constraint.op == "%":
        return binary("==", binary("%", left, right), const(0))
    return binary({"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[constraint.op],
                  left, right)


def _bound(bounds: list[Bound], names: Names, rounding: str, combine: str):
    result = None
    for bound in bounds:
        value = affine(bound.expression, names)
        if bound.divisor != 1:
            value = call(rounding, value, const(bound.divisor))
        result = value if result is None else call(combine, result, value)
    return result


def lower_bound(bounds: list[Bound], names: Names):
    """max of the lower bounds (each rounded up)."""
    return _bound(bounds, names, "spf_ceild", "spf_max")


def upper_bound(bounds: list[Bound], names: Names):
    """min of the upper bounds (each rounded down)."""
    return _bound(bounds, names, "spf_floord", "spf_min")


# ----------------------------------------------------------------------------- statements


class Emitter:
    """Lowers one kernel's loop nests to a C function."""

    def __init__(self, names: Names, scalar_output: str | None, ranges: dict):
        self.names = names
        self.scalar_output = scalar_output
        self.ranges = ranges  # array -> (low, high) of its values, from range properties
        self.entry: list = []  # allocations at function entry
        self.epilogue: list = []  # frees before returning
        self.counter = 0
        self.accumulator: str | None = None  # a register sum standing for the output entry
        self.accumulated: str | None = None  # set when the register sum received a term (exact writes)
        self.hoisted: set[int] = set()  # the statement's factors that multiply the register sum after its loop
        self.atomic = False  # inside a loop parallelised with atomic updates
        self.output_extent: tuple | None = None  # output array name and its length (C expression)
        self.workspace: str | None = None  # the add of the workspace an assembled output's entries go through
        self.stream_type: str | None = None  # the C type of an assembled output's per-thread streams
        self.phase: str | None = None  # two phases (codegen.assembly.TwoPhase): "count" or "fill"
        self.two_phase = None  # the TwoPhase strategy, with phase
        self.drop_zeros = True  # an assembled output stores no entry whose value is zero
        self.rows_extent: str | None = None  # two phases: the C name of the rows' extent
        self.rows_outer: str | None = None  # an assembled output's rows: their outer coordinate
        self.append_mode: str | None = None  # in a Merge: "push" (a new key), "hold"/"add_held" (both terms)
        self.held = "spf_held"  # the register "hold" and "add_held" put a Merge arm's value in
        self.appends = False  # rows appended in storage order, no workspace (codegen.merge.appends_in_order)
        self.merge_ranges: dict[int, tuple[str, str]] = {}  # a Merge arm's loop -> its range's C names
        self.state_count = 0  # find state arrays kept between calls (slots of KEPT)
        self.state_names: dict[int, str] = {}  # a SeqIter or HashMap find -> the C name of its state
        self.transposed: dict[str, tuple[str, str, str, str]] = {}  # input -> read pointer, strides, copy
        self.element_types: dict[str, str] = {}  # array -> its C element type (double when not listed)

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}_{self.counter}"

    def nodes(self, nodes: list[Node]) -> list:
        items = []
        for node in nodes:
            items.extend(self.node(node))
        return items

    def node(self, node: Node) -> list:
        names = self.names
        if isinstance(node, Assign):
            return [self._declaration(node)] + self._group_at(node)
        if isinstance(node, Guard):
            conditions = [condition(c, names) for c in node.conditions]
            otherwise = block(self.nodes(node.otherwise)) if node.otherwise else None
            return [c_ast.If(conjunction(conditions), block(self.nodes(node.body)), otherwise)]
        if isinstance(node, ZeroEntry):
            return [assign(self._output_reference(node), const(0.0))]
        if isinstance(node, Loop) and id(node) in self.merge_ranges:  # a Merge arm's loop: its range only
            low, high = self.merge_ranges[id(node)]
            return [assign(ident(low), lower_bound(node.lower, names)),
                    assign(ident(high), upper_bound(node.upper, names))]
        if isinstance(node, Merge):
            return self.merge(node)
        if isinstance(node, Loop):
            copies = self._transposed_first(node) if node.transposed else []
            return copies + (self._jammed(node) if node.jam > 1 else self._plain_loop(node))
        if isinstance(node, Find):
            return self.find(node)
        if isinstance(node, Compute):
            return self.compute(node)
        if isinstance(node, StateInit):
            return self.state_init(node)
        if isinstance(node, Block):
            return [block(self.nodes(node.body))]
        if isinstance(node, Chunks):
            return self.chunks(node)
        if isinstance(node, Temporary):
            return self.temporary(node)
        if isinstance(node, TileGuard):
            return self.tile_guard(node)
        raise SpfInternalError(f"the C printer has no case for the node {node!r}")

    def _plain_loop(self, node: Loop) -> list:
        """A loop as its marks say: a register sum around it, split into pieces, zeroing its
        rows by blocks, parallel with per-thread copies of the output or a clause, or plain."""
        names = self.names
        register_sum = node.register_sum
        target = register_sum.target if register_sum is not None else None
        if target is not None:
            self.accumulator = self.fresh("sum")
            self.hoisted = register_sum.hoisted
            self.accumulated = self.fresh("added") if register_sum.counts_terms else None
        added = self.accumulated
        variable = names.name(node.variable)
        init = c_ast.DeclList([declare(variable, INDEX, lower_bound(node.lower, names))])
        test = binary("<=", ident(variable), upper_bound(node.upper, names))
        atomic_before = self.atomic
        self.atomic = self.atomic or node.reduction == "atomic"
        thread_state = self.nodes(node.thread_state)  # names the states the body uses
        mine = self._thread_sinks(call("spf_thread")) if node.parallel else []
        kept = self._cursor_kept() if node.parallel else []
        inner = self._group_at(node) + self.nodes(node.body)
        body = block(mine + inner + kept)
        loop = c_ast.For(init, test, c_ast.UnaryOp("p++", ident(variable)), body)
        self.atomic = atomic_before
        if node.pieces is not None:
            return self._balanced(node, thread_state, block(inner), kept)
        if node.zero_rows is not None and not node.parallel:
            stop = binary("+", upper_bound(node.upper, names), const(1))
            return self._zeroing_blocks(node, lower_bound(node.lower, names), stop, body)
        clause = self._schedule_clause(node) + self._reduction_clause(node)
        if node.parallel and node.reduction == "privatize":
            return self._privatized(node, thread_state, loop)
        if node.parallel and node.thread_state:
            region = block(thread_state + [c_ast.Pragma("omp for" + clause), loop])
            return [c_ast.Pragma("omp parallel"), region]
        if node.parallel:
            return [c_ast.Pragma("omp parallel for" + clause), loop]
        if target is None:
            return [loop]
        # the output position does not change inside the loop: sum in a register
        total, self.accumulator, self.accumulated, self.hoisted = self.accumulator, None, None, set()
        return [declare(total, "double", const(0.0))] + \
            ([declare(added, "int", const(0))] if added else []) + [loop, self._sum_written(register_sum, total, added)]

    def merge(self, node: Merge) -> list:
        """The arms' ranges (each arm's path run, its loop's bounds kept; an arm whose
        guards fail keeps an empty range), then their positions advanced by the least
        coordinate: two arms as the two-pointer merge (one ahead, the other, or both) with
        its two tails, more as one loop over every arm's current coordinate."""
        names, tag = self.names, self.fresh("spf_merge")
        count = len(node.arms)
        low, high = [f"{tag}_low{k}" for k in range(count)], [f"{tag}_high{k}" for k in range(count)]
        at, key = [f"{tag}_at{k}" for k in range(count)], [f"{tag}_key{k}" for k in range(count)]
        items = []
        for k, arm in enumerate(node.arms):
            items += [declare(low[k], INDEX, const(0)), declare(high[k], INDEX, const(-1))]
            self.merge_ranges[id(arm.loop)] = (low[k], high[k])
            items += self.nodes(arm.path)
            del self.merge_ranges[id(arm.loop)]
        items += [declare(at[k], INDEX, ident(low[k])) for k in range(count)]

        def position(k: int) -> list:  # the arm's position variable and the path's values its body reads
            arm = node.arms[k]
            return ([declare(names.name(arm.loop.variable), INDEX, ident(at[k]), const_=True)] +
                    [self._declaration(a) for a in arm_assignments(arm)])

        def coordinate(k: int):  # key[k] = the arm's coordinate at its position
            keys = key_assignments(node.arms[k].loop, node.coordinate)
            return block(position(k) + [self._declaration(a) for a in keys] +
                         [assign(ident(key[k]), ident(names.name(node.coordinate)))])

        def run(k: int, mode: str | None = None):  # the arm's body at its position, then the next position
            saved, self.append_mode = self.append_mode, mode
            body = self.nodes(node.arms[k].loop.body)
            self.append_mode = saved
            return block(position(k) + body + [c_ast.UnaryOp("p++", ident(at[k]))])

        def active(k: int):
            return binary("<=", ident(at[k]), ident(high[k]))

        if node.steps == "least":
            return [block(items + self._least_merge(node, tag, key, coordinate, run, active))]
        if count != 2:
            raise SpfError(f"a merge of {count} terms cannot step as {node.steps!r} (two terms only)")
        if node.steps == "branchless":
            return [block(items + self._branchless_merge(node, at, high, key, coordinate, position, run, active))]
        # three cases, as scipy's merge: each emitted body then sees one outcome of its tests
        # an arm that pushes appends its key new to the group (the merge advanced every
        # arm past the keys before it); otherwise the cursor compares
        new = ["push" if arm.pushes else None for arm in node.arms]
        if node.steps == "held":
            # both at one key: the terms summed in a register, then one push (no store read back)
            both = block([declare("spf_held", "double", const(0.0)), run(0, "hold"), run(1, "add_held"),
                          call("spf_cursor_push", ident("&spf_my_cursor"), ident("spf_my_stream"),
                               ident(key[0]), ident("spf_held"))])
        else:
            both = block([run(0, new[0]), run(1, None)])
        step = [declare(key[0], INDEX), declare(key[1], INDEX), coordinate(0), coordinate(1),
                c_ast.If(binary("<", ident(key[0]), ident(key[1])), run(0, new[0]),
                         c_ast.If(binary("<", ident(key[1]), ident(key[0])), run(1, new[1]), both))]
        items += [c_ast.While(binary("&&", active(0), active(1)), block(step)),
                  c_ast.While(active(0), run(0, new[0])), c_ast.While(active(1), run(1, new[1]))]
        return [block(items)]

    @staticmethod
    def _least_merge(node: Merge, tag: str, key, coordinate, run, active) -> list:
        """One loop over the arms' current keys: each step runs every arm at the least."""
        count, least = len(node.arms), f"{tag}_least"
        step = []
        for k in range(count):
            step += [declare(key[k], INDEX, ident("INT64_MAX")), c_ast.If(active(k), coordinate(k), None)]
        step.append(declare(least, INDEX, ident(key[0])))
        step += [c_ast.If(binary("<", ident(key[k]), ident(least)), assign(ident(least), ident(key[k])), None)
                 for k in range(1, count)]
        step.append(c_ast.If(binary("==", ident(least), ident("INT64_MAX")), c_ast.Break(), None))
        step += [c_ast.If(binary("==", ident(key[k]), ident(least)), run(k), None) for k in range(count)]
        return [c_ast.For(None, None, None, block(step))]

    def _branchless_merge(self, node: Merge, at, high, key, coordinate, position, run, active) -> list:
        """The two-pointer merge with no branch on which key is less: each step reads both
        arms' keys and values (each arm's iteration is assignments and one entry, unguarded:
        its position is in range while both arms are), stores the least key with the sum of
        the values at it (the other's masked to zero), keeps the entry when it is not zero
        (an assembled output stores none) and advances each arm whose key was the least
        (codegen.rows says why).  The cursor's fields are copied into locals for the loop
        (stores to the rows cannot then make the compiler reload them); the tails run as
        before."""
        terms = [f"{key[k]}_term" for k in range(2)]
        steps = [declare(key[0], INDEX), declare(key[1], INDEX), coordinate(0), coordinate(1),
                 declare(terms[0], "double"), declare(terms[1], "double")]
        for k in range(2):
            saved, self.append_mode, self.held = self.append_mode, "hold", terms[k]
            steps.append(block(position(k) + self.nodes(node.arms[k].loop.body)))
            self.append_mode, self.held = saved, "spf_held"
        kept = "spf_value != 0.0" if self.drop_zeros else "1"
        room = c_statements(f"""
            if (__builtin_expect(spf_n == spf_capacity, 0)) {{
              spf_my_cursor.n = spf_n;
              if (!spf_cursor_room(&spf_my_cursor, spf_my_stream)) {{ {at[0]} = {high[0]} + 1; {at[1]} = {high[1]} + 1; break; }}
              spf_keys = spf_my_cursor.key; spf_values = spf_my_cursor.v; spf_capacity = spf_my_cursor.capacity;
            }}""")
        steps += c_statements(f"""
            const int spf_take0 = {key[0]} <= {key[1]}, spf_take1 = {key[1]} <= {key[0]};
            const double spf_value = spf_masked({terms[0]}, spf_take0) + spf_masked({terms[1]}, spf_take1);
            spf_keys[spf_n] = {key[0]} < {key[1]} ? {key[0]} : {key[1]};
            spf_values[spf_n] = spf_value;
            spf_n += {kept};
            {at[0]} += spf_take0; {at[1]} += spf_take1;""")
        head = c_statements("""
            spf_cursor_key *spf_keys = spf_my_cursor.key;
            double *spf_values = spf_my_cursor.v;
            int64_t spf_n = spf_my_cursor.n, spf_capacity = spf_my_cursor.capacity;""")
        loop = c_ast.While(binary("&&", active(0), active(1)), block(room + steps))
        tails = [c_ast.While(active(k), run(k, "push")) for k in range(2)]
        return [block(head + [loop] + c_statements("spf_my_cursor.n = spf_n;"))] + tails

    def _declaration(self, node: Assign):
        if isinstance(node.value, UFCall):
            value = array_read(node.value, self.names)
        else:
            value = affine(node.value, self.names)
            if node.divisor != 1:
                value = binary("/", value, const(node.divisor))
        return declare(self.names.name(node.variable), INDEX, value, const_=True)

    def temporary(self, node: Temporary) -> list:
        """Zero a temporary of a fused schedule (declaring it here when it is a scalar)."""
        if node.size is None:
            array = c_ast.ArrayDecl(c_ast.TypeDecl(node.name, [], None, c_ast.IdentifierType(["double"])),
                                    const(1), [])
            return [c_ast.Decl(node.name, [], [], [], [], array, c_ast.InitList([const(0.0)]), None)]
        # each thread owns one slice of the temporary's allocation (spf_thread() is 0 outside
        # parallel loops), so temporaries inside a parallel loop are private
        size = affine(node.size, self.names)
        start = binary("+", ident(f"{node.name}_all"), binary("*", call("spf_thread"), size))
        pointer = declare(node.name, "double", start, pointer=True, restrict=True)
        position = self.fresh("spf_zero")
        return [pointer, c_ast.For(c_ast.DeclList([declare(position, INDEX, const(0))]),
                          binary("<", ident(position), affine(node.size, self.names)),
                          c_ast.UnaryOp("p++", ident(position)),
                          assign(c_ast.ArrayRef(ident(node.name), ident(position)), const(0.0)))]

    def tile_guard(self, node: TileGuard) -> list:
        names = self.names
        low, high, key = self.fresh("tile_low"), self.fresh("tile_high"), self.fresh("key")
        first, last = self._read_at(node, low), self._read_at(node, high)
        if not node.increasing:
            first, last = last, first
        condition = conjunction([binary("<=", ident(low), ident(high)),
                                 binary("<=", first, ident(key)), binary(">=", last, ident(key))])
        return [block([declare(low, INDEX, lower_bound(node.lower, names), const_=True),
                       declare(high, INDEX, upper_bound(node.upper, names), const_=True),
                       declare(key, INDEX, affine(node.key, names), const_=True),
                       c_ast.If(condition, block(self.nodes(node.body)), None)])]

    def chunks(self, node: Chunks) -> list:
        """A two-phase kernel's parallel loop: chunk t of the range (its own counters,
        ``spf_my``) on one thread; the count and the fill split it the same way, at the
        cuts ``spf_cuts`` made once before both (:func:`_chunk_cuts`)."""
        extent = self.rows_extent
        head = c_statements(f"""
            const int64_t spf_first = spf_cuts[spf_chunk], spf_last = spf_cuts[spf_chunk + 1] - 1;
            spf_pointer_type *const spf_my = spf_counts + spf_chunk * ({extent} + 1);""")
        loop = c_ast.For(c_ast.DeclList([declare("spf_chunk", INDEX, const(0))]),
                         binary("<", ident("spf_chunk"), ident("spf_team")), c_ast.UnaryOp("p++", ident("spf_chunk")),
                         block(head + self.nodes(node.body)))
        zeros = " reduction(|: spf_zeros)" if self.phase == "fill" and self.drop_zeros else ""
        return [c_ast.Pragma(f"omp parallel for schedule(static, 1) num_threads(spf_team){zeros}"), loop]

    @staticmethod
    def _c_text(expression) -> str:
        return c_generator.CGenerator().visit(expression)

    def _balanced(self, node: Loop, thread_state: list, body, kept: list = ()) -> list:
        """A parallel loop split into contiguous pieces (_balanced_pieces) holding equal
        work (``Loop.pieces``): iteration ``p`` weighs 1 plus its segment's length
        ``pointer(p + 1) - pointer(p)`` (the trip count of the loop below) times the
        pieces' weight, so each split is a binary search over ``p + pointer(p)``.  A running maximum keeps the parts disjoint
        and in order whatever the pointer holds: only the balance relies on it being monotonic.
        With ``parts_at`` (f, increasing), each split then moves on to the first position
        where the monotonic ``f`` changes (a binary search too), so no value of ``f`` is in
        two parts.  The team is as large as the work pays for (``spf_team_for``).  ``kept``
        ends each piece (an appending cursor's state back into the piece's stream)."""
        variable, pieces = self.names.name(node.variable), node.pieces
        read = self._c_text(array_read(pieces.pointer, self.names)) if pieces.pointer is not None else "0"
        first = self._c_text(lower_bound(node.lower, self.names))
        last = self._c_text(upper_bound(node.upper, self.names))
        work = c_statements(f"""
            const int64_t spf_first = {first}, spf_last = {last};
            int64_t spf_base = 0, spf_total = 0;
            if (spf_first <= spf_last) {{
              {{ const int64_t {variable} = spf_first; spf_base = {read}; }}
              {{ const int64_t {variable} = spf_last + 1; spf_total = spf_last + 1 - spf_first + ({read} - spf_base); }}
            }}
            const int64_t spf_work = spf_total * {pieces.weight};
            const int spf_want = spf_team_for(spf_work);""")
        boundary = ""
        if node.parts_at is not None:
            function, increasing = node.parts_at
            changed = ">" if increasing else "<"
            at = self._c_text(array_read(UFCall(function, (Affine.of(node.variable),)), self.names))
            boundary = f"""
                if (spf_low > spf_first && spf_low <= spf_last) {{
                  int64_t spf_before, spf_after = spf_last + 1;
                  {{ const int64_t {variable} = spf_low - 1; spf_before = {at}; }}
                  while (spf_low < spf_after) {{
                    const int64_t spf_middle = spf_low + (spf_after - spf_low) / 2;
                    int64_t spf_value;
                    {{ const int64_t {variable} = spf_middle; spf_value = {at}; }}
                    if (spf_value {changed} spf_before) spf_after = spf_middle; else spf_low = spf_middle + 1;
                  }}
                }}"""
        if node.zero_rows is not None:
            loop = self._zeroing_blocks(node, ident("spf_from"), ident("spf_to"), body)
        else:
            loop = [c_ast.For(c_ast.DeclList([declare(variable, INDEX, ident("spf_from"))]),
                              binary("<", ident(variable), ident("spf_to")), c_ast.UnaryOp("p++", ident(variable)),
                              body)]
        count = "spf_most_pieces(spf_want)" if pieces.most else "spf_pieces_for(spf_want, spf_work)"
        if self.stream_type is None:
            return self._balanced_pieces(work, thread_state, loop, variable, read, boundary, count)  # (no sinks)
        # an assembled output: each piece appends to the stream spf_piece_take names (a
        # thread's own pieces one stream, another's each its own), the thread's workspace
        # flushed into it when the piece ends; the streams joined by index keep the loop's order
        flush = ([call(self.workspace.replace("_add_", "_flush_"), ident("spf_my_accumulator"),
                       ident("spf_my_stream"))] if self.workspace else [])
        sinks = self._thread_sinks(call("spf_thread"), ident("spf_stream_index"))
        return self._balanced_pieces(work, thread_state, loop, variable, read, boundary, count, sinks,
                                     flush + list(kept))

    def _balanced_pieces(self, work: list, thread_state: list, loop: list, variable: str, read: str,
                         boundary: str, pieces: str, begin: list = (), end: list = ()) -> list:
        """The loop cut into ``pieces`` (a C expression: up to 4 of equal work per thread) once,
        before the parallel region, each thread taking its own run of them in order and
        then the last pieces of the others' (``spf_piece_take``).  A thread that starts
        late, or loses its core to another process for a while, then holds up at most one
        piece: the others run its share instead of waiting for it (a cliff of one scheduler
        time slice).  Each piece starts with ``begin`` and ends with ``end`` (an assembled
        output's stream ``spf_stream_index``, and its workspace flushed there).  A team of one
        runs the loop without a parallel region, into stream 0."""
        cuts = c_statements(f"""
            const int spf_pieces = {pieces};
            int64_t spf_cuts[SPF_MOST_PIECES + 1];
            spf_cuts[0] = spf_first;
            spf_cuts[spf_pieces] = spf_last + 1;
            for (int spf_k = 1; spf_k < spf_pieces; spf_k++) {{
              {_cut_search(variable, read, "spf_pieces", "spf_cuts[spf_k - 1]", boundary)}
              spf_cuts[spf_k] = spf_low;
            }}""")
        cuts += c_statements("""
            const int spf_runs_count = spf_want < SPF_MOST_PIECES ? spf_want : SPF_MOST_PIECES;
            spf_run spf_runs[SPF_MOST_PIECES];
            spf_runs_init(spf_runs, spf_runs_count, spf_pieces);""")
        piece = c_statements("""
            const int64_t spf_from = spf_cuts[spf_piece], spf_to = spf_cuts[spf_piece + 1];""")
        # find state starts again with each piece (valid wherever it starts: a superset of
        # its valid state indices), so a piece may run after a later one on a thread
        taking = c_statements("""
            const int spf_me = spf_thread(), spf_present = spf_team_size();
            int spf_piece, spf_stream_index;
            while ((spf_piece = spf_piece_take(spf_runs, spf_runs_count, spf_present, spf_me, spf_pieces,
                                               &spf_stream_index)) >= 0)
              spf_loop_body();""")
        _replace_marker(taking, "spf_loop_body", block(piece + thread_state + list(begin) + loop + list(end)))
        region = block(taking)
        # a team of one runs the loop as it stands: no region to enter, nothing to cut or share
        alone = block(thread_state + c_statements("""
            const int64_t spf_from = spf_first, spf_to = spf_last + 1;
            const int spf_stream_index = 0;""") + list(begin) + loop + list(end))
        shared = block(cuts + [c_ast.Pragma("omp parallel num_threads(spf_want)"), region])
        return [block(work + [c_ast.If(binary("==", ident("spf_want"), const(1)), alone, shared)])]

    def _zeroing_blocks(self, node: Loop, start, stop, body) -> list:
        """The loop over ``[start, stop)`` in blocks, each zeroing the output rows it is
        about to write (codegen.zeroing), so they are zeroed while in cache; a plain loop
        where its iterations store their entries."""
        zeroing, names = node.zero_rows, self.names
        variable = names.name(node.variable)
        if zeroing.stores:  # every iteration stores its entry: nothing to zero
            return [c_ast.For(c_ast.DeclList([declare(variable, INDEX, start)]), binary("<", ident(variable), stop),
                              c_ast.UnaryOp("p++", ident(variable)), body)]
        extent = self._c_text(arith(zeroing.extent, names))
        inner_text = self._c_text(_row_size(zeroing, names))
        skeleton = c_statements(f"""
            {{
              const int64_t spf_row_size = {inner_text};
              const int64_t spf_block_rows = spf_row_size > 0 && spf_row_size < {zeroing.block_entries}
                                             ? {zeroing.block_entries} / spf_row_size : 1;
              const int64_t spf_stop = {self._c_text(stop)};
              for (int64_t spf_block = {self._c_text(start)}; spf_block < spf_stop; spf_block += spf_block_rows) {{
                const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                const int64_t spf_zero_to = spf_min(spf_block_end, {extent}) * spf_row_size;
                for (int64_t spf_zero = spf_max(spf_block, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                  {zeroing.array}[spf_zero] = 0.0;
                for (int64_t {variable} = spf_block; {variable} < spf_block_end; {variable}++)
                  spf_loop_body();
              }}
            }}""")
        _replace_marker(skeleton, "spf_loop_body", body)
        return skeleton

    @staticmethod
    def _schedule_clause(node: Loop) -> str:
        """``schedule(...)``, monotonic where the loop says (``Loop.monotonic``)."""
        return f" schedule({'monotonic: ' if node.monotonic else ''}{node.schedule})"

    def _reduction_clause(self, node: Loop) -> str:
        """``reduction(+: ...)`` where the loop's reduction is OpenMP's, over a scalar output's sum."""
        return f" reduction(+: {self.scalar_output}_sum)" if node.parallel and node.reduction == "clause" else ""

    def _privatized(self, node: Loop, thread_state: list, loop) -> list:
        """Per-thread copies of the output on the heap (an OpenMP array reduction would put
        them on each thread's stack, which overflows for large outputs), merged after."""
        array, size = self.output_extent
        copies, shared, position, thread = (self.fresh("copies"), self.fresh("shared"),
                                            self.fresh("q"), self.fresh("t"))
        double = c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["double"]))
        allocation = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.PtrDecl([], double)),
                                call("calloc", binary("*", c_ast.Cast(c_ast.Typename(
                                    None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["size_t"]))),
                                    call("spf_threads")), size),
                                     c_ast.UnaryOp("sizeof", c_ast.Typename(None, [], None, double))))
        own = binary("+", ident(copies), binary("*", c_ast.Cast(c_ast.Typename(
            None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["size_t"]))),
            call("spf_thread")), size))
        region = block(thread_state + [declare(array, "double", own, pointer=True, restrict=True),
                                       c_ast.Pragma("omp for" + self._schedule_clause(node)), loop])
        total = self.fresh("sum")
        merge = c_ast.For(c_ast.DeclList([declare(position, INDEX, const(0))]),
                          binary("<", ident(position), size), c_ast.UnaryOp("p++", ident(position)),
                          block([declare(total, "double", const(0.0)),
                                 c_ast.For(c_ast.DeclList([declare(thread, INDEX, const(0))]),
                                           binary("<", ident(thread), call("spf_threads")),
                                           c_ast.UnaryOp("p++", ident(thread)),
                                           assign(total, c_ast.ArrayRef(ident(copies), binary(
                                               "+", binary("*", ident(thread), size), ident(position))), "+=")),
                                 assign(c_ast.ArrayRef(ident(shared), ident(position)), ident(total), "+=")]))
        return [block([
            declare(shared, self.element_types.get(array, "double"), ident(array), pointer=True),
            declare(copies, "double", allocation, pointer=True),
            c_ast.If(binary("==", ident(copies), ident("NULL")),
                     block(list(self.epilogue) + [c_ast.Return(const(OUT_OF_MEMORY))]), None),
            c_ast.Pragma("omp parallel"), region,
            c_ast.Pragma("omp parallel for schedule(static)"), merge,
            call("free", ident(copies))])]

    def state_init(self, node: StateInit) -> list:
        """Start a find's state: a SeqIter position (a scalar, or an array of positions per
        value of a keyed index) or a HashMap table filled from the searched range."""
        find, names = node.find, self.names
        low, high = lower_bound(find.lower, names), upper_bound(find.upper, names)
        if find.template.kind == "seqiter":
            state = self.state_names[id(find)] = self.fresh(f"{names.name(find.variable)}_position")
            start = low if find.template.direction > 0 else high
            if not find.template.keyed:
                return [declare(state, INDEX, start)]
            # positions kept per value of a reduced state index (COO: per row)
            (key,) = find.template.keyed
            size = ident(names.extents[key])
            fill = self.fresh("start")
            return self._state_array(state, binary("+", size, const(1)), node.per_thread) + [
                c_ast.For(c_ast.DeclList([declare(fill, INDEX, const(0))]),
                          binary("<", ident(fill), size), c_ast.UnaryOp("p++", ident(fill)),
                          assign(c_ast.ArrayRef(ident(state), ident(fill)), start))]
        # hashmap: a table from the searched array's values to positions (spf_hash_*), kept
        # between calls, sized by the range each fill puts (so a few entries of a wide value
        # range make a small table), and emptied by the next fill through its touched list.
        table = self.state_names[id(find)] = self.fresh(f"{names.name(find.variable)}_table")
        slot = self._state_slot(table, node.per_thread)
        fill = self.fresh("fill")
        return c_statements(f"""
            int64_t *const {table} = spf_hash_fill({slot}, ({self._c_text(high)}) - ({self._c_text(low)}) + 1);
            for (int64_t {fill} = {self._c_text(low)}; {fill} <= {self._c_text(high)}; {fill}++)
              spf_hash_put({table}, {self._c_text(self._read_at(find, fill))}, {fill});""")

    def _state_slot(self, name: str, per_thread: bool) -> str:
        """The kept state (a C ``spf_state *`` expression) of one more find, taken at function
        entry; ``per_thread``: the running thread's own sub-state."""
        slot = f"&{KEPT}[{self.state_count}]"
        self.state_count += 1
        if not per_thread:
            return slot
        threads = f"{name}_threads"
        self.entry.extend(c_statements(f"""
            spf_state *const {threads} = spf_state_threads({slot}, spf_threads());""") + [
            c_ast.If(binary("==", ident(threads), ident("NULL")),
                     block(list(self.epilogue) + [c_ast.Return(const(OUT_OF_MEMORY))]), None)])
        return f"&{threads}[spf_thread()]"

    def _state_array(self, name: str, length, per_thread: bool) -> list:
        """An int64 array of ``length`` entries for find state, taken at function entry from
        the state the kernel keeps between calls (``spf_state_array``: as a previous call
        left it, or new and zeroed when it was shorter).  ``per_thread``: one slice per
        thread, and the returned declaration points ``name`` at the running thread's slice."""
        storage = f"{name}_all" if per_thread else name
        slot = c_ast.UnaryOp("&", c_ast.ArrayRef(ident(KEPT), const(self.state_count)))
        self.state_count += 1
        count = binary("*", call("spf_threads"), length) if per_thread else length
        self.entry.extend([
            declare(storage, INDEX, call("spf_state_array", slot, count), pointer=True),
            c_ast.If(binary("==", ident(storage), ident("NULL")),
                     block(list(self.epilogue) + [c_ast.Return(const(OUT_OF_MEMORY))]), None)])
        if not per_thread:
            return []
        slice_ = binary("+", ident(storage), binary("*", call("spf_thread"), length))
        return [declare(name, INDEX, slice_, pointer=True)]

    def _sum_written(self, register_sum: RegisterSum, total: str, added: str | None):
        """The update of the output by the register sum ``total`` after its loop (only when
        ``added`` is set, if given), the factors taken out multiplied in."""
        target = register_sum.target
        value = ident(total)
        for position in sorted(register_sum.hoisted, reverse=True):
            value = binary("*", self._factor(target.factors[position]), value)
        if target.stream is not None:
            update = self._append(target, value)
        elif target.stores:
            update = assign(self._output_reference(target), value)
        else:
            update = self._update(self._output_reference(target), value)
        otherwise = assign(self._output_reference(target), const(0.0)) if target.stores else None
        if register_sum.repeated:
            update = block([self._declaration(a) for a in register_sum.repeated] + [update])
            if otherwise is not None:  # the output's position is one of the repeated assignments
                otherwise = block([self._declaration(a) for a in register_sum.repeated] + [otherwise])
        return update if added is None else c_ast.If(ident(added), update, otherwise)

    def read_transposed(self, nodes: list[Node]) -> None:
        """Every input a loop of the nest copies transposed (codegen.jam.Transposition) is
        read through a pointer and two strides, declared when the call starts: the input
        itself, row by row, until the loop that decides makes the copy; the copy is freed
        when the call returns."""
        for node in walk(nodes):
            for transposition in node.transposed if isinstance(node, Loop) else ():
                array = transposition.array
                if array in self.transposed:
                    continue
                names = [f"spf_read_{array}", f"spf_{array}_row_stride", f"spf_{array}_column_stride",
                         f"spf_{array}_transposed"]
                self.transposed[array] = tuple(names)
                columns = self._c_text(arith(transposition.dimensions[1], self.names))
                element = self.element_types.get(array, "double")  # a float layout's values are float
                self.entry.extend(c_statements(f"""
                    const {element} * restrict {names[0]} = {array};
                    int64_t {names[1]} = {columns}, {names[2]} = 1;
                    {element} *{names[3]} = 0;"""))
                self.epilogue.extend(c_statements(f"free({names[3]});"))

    def _transposed_first(self, node: Loop) -> list:
        """Before ``node``: the call's entries in the segments of the pointer its jammed loop
        walks (the same pointer for every input it copies), then each input copied
        transposed when they number at least ``reuse`` times its columns (then read through
        the copy, down its rows)."""
        names = self.names
        variable = names.name(node.variable)
        (pointer,) = {transposition.pointer for transposition in node.transposed}
        at = self._c_text(array_read(UFCall(pointer, (Affine.of(node.variable),)), names))
        first, last = self._c_text(lower_bound(node.lower, names)), self._c_text(upper_bound(node.upper, names))
        copies = ""
        for transposition in node.transposed:
            read, row_stride, column_stride, copy = self.transposed[transposition.array]
            rows, columns = (self._c_text(arith(d, names)) for d in transposition.dimensions)
            element = self.element_types.get(transposition.array, "double")
            copies += f"""
                  if ({copy} == 0 && {rows} > 1 && spf_reads >= (int64_t){transposition.reuse} * {columns}) {{
                    {copy} = ({element} *)spf_malloc_large((size_t)({rows} * {columns}) * sizeof({element}));
                    if ({copy}) {{
                      for (int64_t spf_column = 0; spf_column < {columns}; spf_column++)
                        for (int64_t spf_row = 0; spf_row < {rows}; spf_row++)
                          {copy}[spf_column * {rows} + spf_row] = {transposition.array}[spf_row * {columns} + spf_column];
                      {read} = {copy}; {row_stride} = 1; {column_stride} = {rows};
                    }}
                  }}"""
        decisions = c_statements(f"""
                {{
                  const int64_t spf_first = {first}, spf_last = {last};
                  int64_t spf_reads = 0;
                  if (spf_first <= spf_last) {{
                    {{ const int64_t {variable} = spf_last + 1; spf_reads = {at}; }}
                    {{ const int64_t {variable} = spf_first; spf_reads -= {at}; }}
                  }}{copies}
                }}""")
        return decisions

    def _jammed(self, node: Loop) -> list:
        """``node`` jammed (codegen.jam): ``node.jam`` iterations at a time, each binding its
        values under names of its own (lane ``w``: ``<name>_lane<w>``), one pass of the inner
        loop adding each lane's term to the lane's register, then the lanes' updates in
        order; the iterations left over run through the plain loop."""
        names, width = self.names, node.jam
        *prologue, inner = node.body
        register_sum = inner.register_sum
        variable = names.name(node.variable)
        start = self.fresh("spf_jam")
        upper = upper_bound(node.upper, names)
        lane_names = []
        for lane in range(width):
            readable = dict(names.readable)
            for bound in [node.variable] + [a.variable for a in prologue]:
                readable[bound] = f"{names.name(bound)}_lane{lane}"
            lane_names.append(Names(names.arrays, readable, names.extents))
        lanes = [(self.fresh("sum"), self.fresh("added") if register_sum.counts_terms else None)
                 for _ in range(width)]
        body: list = []
        for lane, lane_name in enumerate(lane_names):
            body.append(declare(lane_name.name(node.variable), INDEX, binary("+", ident(start), const(lane))))
            self.names = lane_name
            body.extend(self.nodes(prologue))
        for total, added in lanes:
            body.append(declare(total, "double", const(0.0)))
            if added:
                body.append(declare(added, "int", const(0)))
        terms = []
        self.hoisted = register_sum.hoisted
        for lane_name, (total, added) in zip(lane_names, lanes):
            self.names, self.accumulator, self.accumulated = lane_name, total, added
            terms.append(block(self.nodes(inner.body)))
        self.names, self.accumulator, self.accumulated, self.hoisted = names, None, None, set()
        inner_variable = names.name(inner.variable)
        body.append(c_ast.For(c_ast.DeclList([declare(inner_variable, INDEX, lower_bound(inner.lower, names))]),
                              binary("<=", ident(inner_variable), upper_bound(inner.upper, names)),
                              c_ast.UnaryOp("p++", ident(inner_variable)), block(terms)))
        for lane_name, (total, added) in zip(lane_names, lanes):
            self.names = lane_name
            body.append(block([self._sum_written(register_sum, total, added)]))
        self.names = names
        jammed = c_ast.For(None, binary("<=", binary("+", ident(start), const(width - 1)), upper),
                           assign(ident(start), const(width), "+="), block(body))
        (plain,) = self._plain_loop(node)  # a serial loop that is not a register sum itself: one for statement
        plain.init = c_ast.DeclList([declare(variable, INDEX, ident(start))])
        return [block([declare(start, INDEX, lower_bound(node.lower, names)), jammed, plain])]

    def compute(self, node: Compute) -> list:
        product = None
        for position, factor in enumerate(node.factors):
            if self.accumulator and position in self.hoisted:
                continue  # multiplied into the register sum once, after its loop
            read = self._factor(factor)
            product = read if product is None else binary("*", product, read)
        if node.coefficient != 1.0:
            product = binary("*", const(float(node.coefficient)), product)
        if self.accumulator:
            added = [assign(ident(self.accumulated), const(1))] if self.accumulated else []
            return self._padding_skipped(node, [assign(ident(self.accumulator), product, "+=")] + added)
        if node.stream is not None:
            return self._padding_skipped(node, [self._append(node, product)])
        if node.output is None:
            return [assign(ident(f"{node.scalar_output}_sum"), product, "+=")]
        if node.stores:
            return [assign(self._output_reference(node), product)]
        return [self._update(self._output_reference(node), product)]

    def _factor(self, factor: tuple):
        array, indices, dimensions = factor
        if array in self.transposed:  # through the pointer and strides the call set (codegen.jam.Transposition)
            read, row_stride, column_stride, _ = self.transposed[array]
            row, column = (arith(i, self.names) for i in indices)
            return c_ast.ArrayRef(ident(read), binary("+", binary("*", row, ident(row_stride)),
                                                      binary("*", column, ident(column_stride))))
        return c_ast.ArrayRef(ident(array), flat_index([arith(i, self.names) for i in indices],
                                                       dimensions, self.names))

    def _padding_skipped(self, node: Compute, items: list) -> list:
        """An entry appended only where its ``padded`` factors are not zero."""
        if node.stream is None:
            return items
        zeros = [binary("!=", c_ast.ArrayRef(ident(array), flat_index([arith(i, self.names) for i in indices],
                                                                      dimensions, self.names)), const(0.0))
                 for array, indices, dimensions in node.factors if array in node.padded]
        return [c_ast.If(conjunction(zeros), block(items), None)] if zeros else items

    def _thread_sinks(self, thread, stream=None) -> list:
        """Pointers to stream ``stream`` (by default ``thread``'s) and thread ``thread``'s
        workspace of an assembled output, declared once per function and again in each
        parallel loop's body (or piece of it), not looked up per entry."""
        if self.stream_type is None:
            return []
        sinks = [declare("spf_my_stream", self.stream_type, c_ast.UnaryOp(
            "&", c_ast.ArrayRef(ident("spf_streams"), thread if stream is None else stream)), pointer=True)]
        if self.workspace:
            sinks.append(declare("spf_my_accumulator", "spf_workspace", c_ast.UnaryOp(
                "&", c_ast.ArrayRef(ident("spf_accumulators"), thread)), pointer=True))
        if self.appends:  # kept back into the rows where its scope ends (_cursor_kept)
            sinks.append(declare("spf_my_cursor", "spf_cursor", call("spf_cursor_of", ident("spf_my_stream"))))
        return sinks

    def _cursor_kept(self) -> list:
        """Where a scope of _thread_sinks ends: the appending cursor's state back into its rows."""
        return [call("spf_cursor_keep", ident("&spf_my_cursor"), ident("spf_my_stream"))] if self.appends else []

    def _group_at(self, node: Assign | Loop) -> list:
        """Where a node opens its row's group (``opens_group``): start it (see _append)."""
        if not node.opens_group:
            return []
        if self.appends:
            return [call("spf_cursor_open", ident("&spf_my_cursor"), ident("spf_my_stream"),
                         ident(self.names.name(node.variable)))]
        return [call("spf_workspace_group_rows", ident("spf_my_accumulator"), ident("spf_my_stream"),
                     ident(self.names.name(node.variable)))]

    def _append(self, node: Compute, value):
        """Append the entry (its coordinates, ``value``) to the assembled output's stream,
        through the workspace when there is one; an entry of a group its row opened
        (``grouped``), only the inner coordinate."""
        if self.phase is not None:
            return self._two_phase_entry(node, value)
        coordinates = [ident(self.names.name(index)) for index in node.stream]
        if self.appends:
            inner = ident(self.names.name(next(index for index in node.stream if index != self.rows_outer)))
            if not node.grouped:  # no group opened where the row is bound: each entry names it
                return call("spf_cursor_add", ident("&spf_my_cursor"), ident("spf_my_stream"),
                            ident(self.names.name(self.rows_outer)), inner, value)
            if self.append_mode in ("hold", "add_held"):
                return assign(ident(self.held), value, "=" if self.append_mode == "hold" else "+=")
            put = "spf_cursor_push" if self.append_mode == "push" else "spf_cursor_put"
            return call(put, ident("&spf_my_cursor"), ident("spf_my_stream"), inner, value)
        if node.grouped:
            inner = next(index for index in node.stream if index != self.rows_outer)
            return call("spf_workspace_put", ident("spf_my_accumulator"), ident(self.names.name(inner)), value)
        if self.workspace:
            return call(self.workspace, ident("spf_my_accumulator"), ident("spf_my_stream"), *coordinates, value)
        return call(f"spf_append_{len(node.stream)}", ident("spf_my_stream"), *coordinates, value)

    def _two_phase_entry(self, node: Compute, value):
        """An entry of a two-phase kernel: counted in its row (``count``), or put at its
        row's next position (``fill``).  Zeros are counted and put too (no test on the
        hot path); the fill only notes that one was seen, and the builder drops them."""
        outer = self.names.name(self.two_phase.outer)
        inner = self.names.name(self.two_phase.inner)
        if self.phase == "count":
            return block(c_statements(f"spf_my[{outer} + 1]++;"))
        text = (f"const int64_t spf_at = spf_my[{outer}]++; spf_keys[spf_at] = (spf_key){inner}; "
                "spf_values[spf_at] = spf_value;" + (" spf_zeros |= spf_value == 0.0;" if self.drop_zeros else ""))
        return block([declare("spf_value", "double", value, const_=True)] + c_statements(text))

    def _update(self, target, value):
        """``target += value``, atomically inside a loop parallelised with atomics."""
        update = assign(target, value, "+=")
        return block([c_ast.Pragma("omp atomic"), update]) if self.atomic else update

    def _output_reference(self, node: Compute):
        array, indices, dimensions = node.output
        return c_ast.ArrayRef(ident(array), flat_index([arith(i, self.names) for i in indices],
                                                       dimensions, self.names))

    # -- finds
    def find(self, node: Find) -> list:
        template: FindChoice = node.template
        if template.kind == "binary":
            return self.binary_search(node, template)
        if template.kind == "seqiter":
            return self.sequential(node, template)
        if template.kind == "hashmap":
            return self.hashmap(node, template)
        raise SpfInternalError(f"a find with the template {template.kind!r}, which the C printer has no case for")

    def _match_body(self, node: Find, position) -> list:
        names = self.names
        return ([declare(names.name(node.variable), INDEX, position, const_=True),
                 declare(names.name(node.dimension), INDEX, affine(node.key, names), const_=True)]
                + self.nodes(node.body))

    def _read_at(self, node: Find, position: str):
        """U(position): the find's call with its variable replaced by the C variable ``position``."""
        substituted = UFCall(node.call.function, tuple(
            a.substitute({node.variable: Affine.of(position)}) for a in node.call.arguments))
        return array_read(substituted, self.names)

    def binary_search(self, node: Find, template: FindChoice) -> list:
        names = self.names
        low, high, key = self.fresh("lo"), self.fresh("hi"), self.fresh("key")
        middle, end = self.fresh("mid"), self.fresh("end")
        before = "<" if template.increasing else ">"
        items = [declare(key, INDEX, affine(node.key, names), const_=True),
                 declare(low, INDEX, lower_bound(node.lower, names)),
                 declare(end, INDEX, binary("+", upper_bound(node.upper, names), const(1)), const_=True),
                 declare(high, INDEX, ident(end))]
        search_body = block([
            declare(middle, INDEX, binary("+", ident(low), binary("/", binary("-", ident(high), ident(low)),
                                                                    const(2))), const_=True),
            c_ast.If(binary(before, self._read_at(node, middle), ident(key)),
                     assign(low, binary("+", ident(middle), const(1))), assign(high, ident(middle)))])
        items.append(c_ast.While(binary("<", ident(low), ident(high)), search_body))
        matches = binary("&&", binary("<", ident(low), ident(end)),
                         binary("==", self._read_at(node, low), ident(key)))
        if template.multiple:
            position = self.fresh("p")
            loop = c_ast.For(c_ast.DeclList([declare(position, INDEX, ident(low))]),
                             binary("&&", binary("<", ident(position), ident(end)),
                                    binary("==", self._read_at(node, position), ident(key))),
                             c_ast.UnaryOp("p++", ident(position)),
                             block(self._match_body(node, ident(position))))
            items.append(loop)
        else:
            items.append(c_ast.If(matches, block(self._match_body(node, ident(low))), None))
        return [block(items)]

    def sequential(self, node: Find, template: FindChoice) -> list:
        names = self.names
        state = self.state_names[id(node)]
        key = self.fresh("key")
        saved = []
        if template.keyed:
            (key_variable,) = template.keyed
            slot = c_ast.ArrayRef(ident(self.state_names[id(node)]), ident(names.name(key_variable)))
            state = self.fresh("position")
            saved = [assign(slot, ident(state))]
        low, high = lower_bound(node.lower, names), upper_bound(node.upper, names)
        inside = binary("&&", binary(">=", ident(state), low), binary("<=", ident(state), high))
        advance = binary("<" if template.keys_increasing else ">", self._read_at(node, state), ident(key))
        step = c_ast.UnaryOp("p++" if template.direction > 0 else "p--", ident(state))
        items = [declare(key, INDEX, affine(node.key, names), const_=True)]
        if template.keyed:
            items.append(declare(state, INDEX, saved[0].lvalue))
        items.append(c_ast.While(binary("&&", inside, advance), step))
        matched = binary("&&", inside, binary("==", self._read_at(node, state), ident(key)))
        items.append(c_ast.If(matched, block(self._match_body(node, ident(state)) + [step]), None))
        return [block(items + saved)]

    def hashmap(self, node: Find, template: FindChoice) -> list:
        position = self.fresh("q")
        lookup = call("spf_hash_get", ident(self.state_names[id(node)]), affine(node.key, self.names))
        return [block([declare(position, INDEX, lookup, const_=True),
                       c_ast.If(binary(">=", ident(position), const(0)),
                                block(self._match_body(node, ident(position))), None)])]


# ----------------------------------------------------------------------------- the function


@dataclass
class KernelSource:
    function: str
    definition: str  # the function alone (with the state it keeps between calls, if any)
    prototype: str
    layouts: list
    state_count: int = 0  # find state arrays kept between calls (see function_source)


def library_source(kernels: list[KernelSource], guard: str, support: str = "",
                   prototypes: tuple[str, ...] = (), release: str = "",
                   release_steps: tuple[str, ...] = ()) -> tuple[str, str]:
    """(C source, header) of a library holding several kernel functions over the same structs;
    ``support``: C the kernels call (an assembled output's stream and builder), with its
    public ``prototypes``.  ``release``: the name of ``void release(void)``, which frees the
    memory the kernels keep between calls (their find state, and what ``release_steps``,
    C statements, free)."""
    layouts = kernels[0].layouts
    definitions = [k.definition for k in kernels]
    if release:
        steps = [f"spf_state_release(&{kept_state_name(k.function)}, {k.state_count});"
                 for k in kernels if k.state_count] + list(release_steps)
        prototypes = (*prototypes, f"void {release}(void);")
        definitions.append(f"void {release}(void)\n{{\n" + "".join(f"  {step}\n" for step in steps) + "}\n")
    header = header_text(layouts, [*prototypes, *(k.prototype for k in kernels)], guard)
    structs = header_text(layouts, [], guard + "_STRUCTS")
    source = PRELUDE + "\n" + structs + "\n" + support + "\n" + "\n".join(definitions)
    return source, header


def element_types(tensors: dict) -> dict[str, str]:
    """The C element type of each array a kernel declares (its local name -> ``double``,
    ``float``, ``int``, ...): code that points at an array or copies it uses its own type."""
    return {mapping.get(field_.name, f"{tensor}_{field_.name}"): field_.c_type
            for tensor, (layout, mapping, _) in tensors.items() for field_ in layout.arrays}


def tensor_parameters(tensors: dict) -> tuple[list, list]:
    """One struct pointer parameter per tensor, and a local for each of its fields."""
    parameters: list = []
    body: list = []
    for tensor, (layout, mapping, _) in tensors.items():
        parameters.append(declare(tensor, f"struct {struct_name(layout)}", pointer=True))
        for field_ in layout.fields:
            local = mapping.get(field_.name, f"{tensor}_{field_.name}")
            if local != f"{tensor}_{field_.name}":
                continue  # shared: the source tensor's local serves
            member = c_ast.StructRef(ident(tensor), "->", ident(field_.name))
            if field_.is_scalar:
                body.append(declare(local, INDEX, member, const_=True))
            else:
                body.append(declare(local, field_.c_type, member, pointer=True, restrict=True))
    return parameters, body


def kernel_function(function_name: str, scans: list, statements: list, tensors: dict, names: Names,
                    ranges: dict, zero_output: bool, assembly: AssembledOutput | None = None,
                    zeroing: OutputZeroing = OutputZeroing()) -> KernelSource:
    """The C source of a kernel running each statement's scanned loop nest in turn.

    ``tensors``: name -> (layout, placement names, is_output) in parameter order.
    ``zero_output``: the output starts from zeros (a dense one zeroed as ``zeroing`` says).
    ``assembly``: an assembled output's builder: the kernel sets the output's scalars that
    the shape gives, the nests append their entries to a stream, and the builder's
    ``begin`` orders and counts them (the kernel takes ``spf_report`` and ``spf_handle``
    for the caller's ``fill``).
    """
    output_name = statements[0].output.tensor
    scalar_output = output_name if output_name not in tensors else None
    emitter = Emitter(names, scalar_output, ranges)
    emitter.element_types = element_types(tensors)
    parameters, body = tensor_parameters(tensors)
    if scalar_output:
        parameters.append(declare(scalar_output, "double", pointer=True))
    parallel = any(isinstance(node, Loop) and node.parallel for scan in scans for node in walk(scan.nodes))
    if assembly:
        parameters.append(declare("spf_report", INDEX, pointer=True))
        parameters.append(c_ast.Decl("spf_handle", [], [], [], [], c_ast.PtrDecl([], c_ast.PtrDecl(
            [], c_ast.TypeDecl("spf_handle", [], None, c_ast.IdentifierType(["void"])))), None, None))
    defined = set()
    for scan in scans:
        for extent, expression in scan.extents.items():
            if extent not in defined:
                body.append(declare(extent, INDEX, affine(expression, names), const_=True))
                defined.add(extent)
    checks = [condition(c, names) for scan in scans for c in scan.shape_checks]
    if checks:
        body.append(c_ast.If(c_ast.UnaryOp("!", conjunction(checks)), c_ast.Return(const(SHAPE_MISMATCH)), None))
    if assembly:
        for field, value in assembly.scalars:
            body.extend(c_statements(f"{output_name}->{field} = {value};"))
        if assembly.two_phase is None:
            body.extend(_assembly_state(assembly, emitter, parallel))
    elif not scalar_output:
        layout, mapping, _ = tensors[output_name]
        emitter.output_extent = (mapping[layout.values_field], value_count(layout, mapping, names))
    if assembly:
        pass  # the builder starts from nothing
    elif zero_output and scalar_output:
        body.append(declare(f"{scalar_output}_sum", "double", const(0.0)))
    elif zero_output:
        body.extend(zero_output_first(zeroing, tensors, output_name, names))
    elif scalar_output:
        body.append(declare(f"{scalar_output}_sum", "double", c_ast.UnaryOp("*", ident(scalar_output))))
    for scan in scans:
        emitter.read_transposed(scan.nodes)

    def emit_nests(count: bool = False) -> list:
        nests: list = []
        for number, scan in enumerate(scans):
            nodes = assembly.count_nodes[number] if count else scan.nodes
            nest = emitter.nodes(nodes)
            guards = [condition(c, names) for c in scan.entry_guards]
            nests.extend([c_ast.If(conjunction(guards), block(nest), None)] if guards else nest)
        return nests

    if assembly and assembly.two_phase is not None:
        chunked = any(isinstance(node, Chunks) for scan in scans for node in walk(scan.nodes))
        body.extend(_two_phase_kernel(assembly, emitter, emit_nests, output_name, chunked, scans))
        return function_source(function_name, parameters, body, tensors, emitter.state_count)
    nests = emit_nests()
    body.extend(emitter.entry)
    body.extend(nests)
    if assembly and not parallel:
        body.extend(emitter._cursor_kept())  # (a parallel loop's threads keep theirs where their part ends)
    if scalar_output:
        body.append(assign(c_ast.UnaryOp("*", ident(scalar_output)), ident(f"{scalar_output}_sum")))
    if assembly:
        body.extend(_begin_assembly(assembly, output_name))
    body.extend(emitter.epilogue)
    body.append(c_ast.Return(ident("spf_status") if assembly else const(0)))
    return function_source(function_name, parameters, body, tensors, emitter.state_count)


UNSTORABLE = 3  # an assembled output: an entry its layout cannot hold (report names it)


@dataclass(frozen=True)
class AssembledOutput:
    """What a kernel needs to hand its entries to the output's builder."""

    prefix: str  # of the builder's functions
    first_bad: int  # where the builder's report says which entry the layout cannot hold
    drop_zeros: bool  # entries summing to zero are not stored
    report_length: int
    scalars: tuple = ()  # (output field, C expression over the kernel's extents) the shape determines
    workspace: Workspace | None = None  # or None: entries go to the stream directly
    workspace_extent: str | None = None  # C name of the extent the workspace's accumulator spans
    order: int = 0  # the output's number of coordinates
    two_phase: TwoPhase | None = None  # the nest counts, then fills the rows
    rows_extent: str | None = None  # with two_phase: C name of the extent of the rows' outer coordinate
    key_type: str = "int64_t"  # with two_phase: the C type of the layout's key array
    pointer_type: str = "int64_t"  # with two_phase: the C type of the layout's pointer array
    statistics: int = 0  # with two_phase: where in the report the run-time choices are counted
    count_nodes: tuple = ()  # with two_phase: each scan's nest for the count phase (codegen.projection)

    @property
    def rows(self) -> bool:
        """The workspace flushes into rows the builder may adopt as they stand."""
        return self.workspace is not None and self.workspace.direct is not None


def _assembly_state(assembly: AssembledOutput, emitter, parallel: bool) -> list:
    """Declare the per-thread streams (and workspaces) the nests append to, and free them
    in the epilogue: a parallel loop's threads append apart (one of each without one)."""
    stream = "spf_rows" if assembly.rows else "spf_stream"
    threads = "spf_threads()" if parallel else "1"
    emitter.drop_zeros = assembly.drop_zeros
    if assembly.rows:  # workspaces and rows from the library's scratch, given back at the end
        emitter.workspace = "spf_workspace_add_rows"
        emitter.appends, emitter.rows_outer = assembly.workspace.appends, assembly.workspace.outer
        extent = "0" if assembly.workspace.appends else assembly.workspace_extent  # appending sums in no accumulator
        body = c_statements(f"""
            const int spf_thread_count = {threads}, spf_stream_count = spf_most_pieces(spf_thread_count);
            spf_scratch *spf_call_scratch = spf_scratch_get(spf_stream_count, spf_thread_count, {extent},
                                                            {int(assembly.drop_zeros)}, {int(assembly.workspace.sorted)});
            if (!spf_call_scratch) return {OUT_OF_MEMORY};
            spf_rows *spf_streams = spf_call_scratch->rows;
            spf_workspace *spf_accumulators = spf_call_scratch->workspaces;""")
        emitter.epilogue.append(call("spf_scratch_put", ident("spf_call_scratch")))
        emitter.stream_type = stream
        return body + emitter._thread_sinks(const(0))
    body = c_statements(f"""
        const int spf_thread_count = {threads}, spf_stream_count = spf_most_pieces(spf_thread_count);
        {stream} *spf_streams = ({stream} *)calloc((size_t)spf_stream_count, sizeof({stream}));
        if (!spf_streams) return {OUT_OF_MEMORY};
        spf_stream spf_entries = {{0}};""")
    emitter.epilogue.append(c_statements("""
        for (int spf_t = 0; spf_t < spf_stream_count; spf_t++) spf_stream_release(&spf_streams[spf_t]);""")[0])
    emitter.epilogue.append(call("free", ident("spf_streams")))
    emitter.epilogue.append(call("spf_stream_release", c_ast.UnaryOp("&", ident("spf_entries"))))
    if assembly.workspace is not None:
        emitter.workspace = f"spf_workspace_add_{assembly.order}"
        body.extend(c_statements(f"""
            spf_workspaces *spf_call_workspaces = spf_workspaces_take(spf_thread_count, {assembly.workspace_extent},
                                                                      {int(assembly.drop_zeros)},
                                                                      {int(assembly.workspace.sorted)});
            if (!spf_call_workspaces) {{
              free(spf_streams);
              return {OUT_OF_MEMORY};
            }}
            spf_workspace *spf_accumulators = spf_call_workspaces->w;"""))
        emitter.epilogue.append(call("spf_workspaces_put", ident("spf_call_workspaces")))
    emitter.stream_type = stream
    return body + emitter._thread_sinks(const(0))


def _begin_assembly(assembly: AssembledOutput, output: str) -> list:
    """Hand the stream to the builder's ``begin`` (which owns it from then on), or the
    rows to ``spf_rows_hand_over``."""
    if assembly.rows:  # (a parallel loop's pieces flushed their workspaces where they ended)
        close = ("for (int spf_t = 0; spf_t < spf_stream_count; spf_t++) spf_rows_close(&spf_streams[spf_t]);"
                 if assembly.workspace.appends else
                 "for (int spf_t = 0; spf_t < spf_thread_count; spf_t++) "
                 "spf_workspace_flush_rows(&spf_accumulators[spf_t], &spf_streams[spf_t]);")
        return c_statements(f"""
            {close}
            int64_t spf_own_report[{assembly.report_length}];
            if (!spf_report) spf_report = spf_own_report;
            int spf_status = 0;
            *spf_handle = spf_rows_hand_over({output}, spf_streams, spf_stream_count, spf_accumulators,
                                             spf_thread_count, spf_report,
                                             {int(assembly.drop_zeros)}, {int(assembly.workspace.trusted)},
                                             &spf_status);""")
    flush = (f"for (int spf_t = 0; spf_t < spf_thread_count; spf_t++) "
             f"spf_workspace_flush_{assembly.order}(&spf_accumulators[spf_t], &spf_streams[spf_t]);"
             if assembly.workspace is not None else "")
    return c_statements(f"""
        {flush}
        int64_t spf_own_report[{assembly.report_length}];
        if (!spf_report) spf_report = spf_own_report;
        int spf_status = spf_streams_join(spf_streams, spf_stream_count, &spf_entries) ? 0 : {OUT_OF_MEMORY};
        if (!spf_status) {{
          *spf_handle = {assembly.prefix}_begin({output}, spf_entries.n, (const int64_t *const *)spf_entries.x,
                                                spf_unit_strides, spf_entries.v, spf_report, 1,
                                                {int(assembly.drop_zeros)});
          spf_stream_forget(&spf_entries);
          if (!*spf_handle)
            spf_status = spf_report[{assembly.first_bad}] >= 0 ? {UNSTORABLE} : {OUT_OF_MEMORY};
        }}""")


def _two_phase_kernel(assembly: AssembledOutput, emitter, emit_nests, output: str, parallel: bool,
                      scans: list = ()) -> list:
    """The body of a two-phase kernel (codegen.assembly.TwoPhase) after its checks.

    Serial: the nest counts each row's entries into the layout's pointer array (at
    ``r + 1``); a prefix sum; key and value arrays of exactly that length; the nest again
    puts each entry at ``pointer[r]++``, which leaves the end of row r there, and a shift
    by one makes it the pointer array again.  Parallel (the nest's parallel loop split
    into per-thread chunks, codegen.parallel.split_into_chunks): each chunk counts into
    its own counters; the prefix sum over rows, then chunks, turns each chunk's counters
    into the positions where its entries of each row start (chunk t's after chunk t-1's:
    the serial order) and gives the pointer array; each chunk fills from its own.  Then
    the builder's ``adopt_pointer`` makes the handle."""
    emitter.two_phase, emitter.drop_zeros = assembly.two_phase, assembly.drop_zeros
    extent = assembly.rows_extent
    emitter.rows_extent = extent
    setup = c_statements(f"""
        typedef {assembly.key_type} spf_key;
        typedef {assembly.pointer_type} spf_pointer_type;
        int64_t spf_own_report[{assembly.report_length}];
        if (!spf_report) spf_report = spf_own_report;
        spf_pointer_type *spf_pointer = (spf_pointer_type *)calloc((size_t){extent} + 2, sizeof(spf_pointer_type));
        if (!spf_pointer) return {OUT_OF_MEMORY};""")
    if parallel:  # counters per chunk and iterations per chunk as the Chunks say
        chunks = next(node for scan_nodes in assembly.count_nodes for node in walk(list(scan_nodes))
                      if isinstance(node, Chunks))
        first = emitter._c_text(lower_bound(chunks.lower, emitter.names))
        last = emitter._c_text(upper_bound(chunks.upper, emitter.names))
        outer_span, least = f"({last} - {first} + 1)", chunks.least_iterations
        # the work: the outer iterations, plus the segments they walk where a pointer says
        filled = next((node for scan in scans for node in walk(scan.nodes) if isinstance(node, Chunks)), chunks)
        pointer = filled.pointer
        segments = balance = ""
        if pointer is not None:
            variable = emitter.names.name(filled.variable)
            read = emitter._c_text(array_read(pointer, emitter.names))
            guards = [condition(c, emitter.names) for scan in scans[:1] for c in scan.entry_guards]
            runs = emitter._c_text(conjunction(guards)) if guards else "1"
            segments = f"""
                if (({runs}) && {last} >= {first}) {{
                  {{ const int64_t {variable} = {last} + 1; spf_work += {read}; }}
                  {{ const int64_t {variable} = {first}; spf_work -= {read}; }}
                }}"""
            balance = f"""
                if (({runs}) && spf_team > 1 && spf_last >= spf_first) {{
                  int64_t spf_base, spf_total;
                  {{ const int64_t {variable} = spf_first; spf_base = {read}; }}
                  {{ const int64_t {variable} = spf_last + 1; spf_total = spf_span + ({read} - spf_base); }}
                  for (int64_t spf_k = 1; spf_k < spf_team; spf_k++) {{
                    {_cut_search(variable, read, "spf_team", "spf_cuts[spf_k - 1]", "")}
                    spf_cuts[spf_k] = spf_low;
                  }}
                }}"""
        # the chunks' cuts: equal counts of iterations, or equal work (iterations plus the
        # segments they walk) where a pointer says; the count and the fill both use them
        setup += c_statements(f"""
            int64_t spf_team = spf_threads();
            if (spf_team * ({extent} + 1) > ((int64_t)1 << {chunks.counters_log2})) spf_team = 1;
            if (spf_team > 1 && {outer_span} < {least} * spf_team) spf_team = spf_max(1, {outer_span} / {least});
            int64_t spf_work = {outer_span};
            {segments}
            if (spf_team > 1) spf_team = spf_min(spf_team, spf_team_for(spf_work));
            int64_t *spf_cuts = (int64_t *)malloc((size_t)(spf_team + 1) * sizeof(int64_t));
            if (!spf_cuts) {{ free(spf_pointer); return {OUT_OF_MEMORY}; }}
            {{
              const int64_t spf_first = {first}, spf_last = {last};
              const int64_t spf_span = spf_last - spf_first + 1;
              for (int64_t spf_k = 0; spf_k <= spf_team; spf_k++)
                spf_cuts[spf_k] = spf_first + (spf_span > 0 ? spf_span * spf_k / spf_team : 0);
              {balance}
            }}
            spf_pointer_type *spf_counts = (spf_pointer_type *)calloc((size_t)(spf_team * ({extent} + 1)),
                                                                      sizeof(spf_pointer_type));
            if (!spf_counts) {{ free(spf_pointer); free(spf_cuts); return {OUT_OF_MEMORY}; }}""")
        prefix = c_statements(f"""
            int64_t spf_n = 0;
            for (int64_t spf_r = 0; spf_r < {extent}; spf_r++) {{
              for (int64_t spf_c = 0; spf_c < spf_team; spf_c++) {{
                spf_pointer_type *const spf_counted = spf_counts + spf_c * ({extent} + 1);
                const int64_t spf_here = spf_counted[spf_r + 1];
                spf_counted[spf_r] = (spf_pointer_type)spf_n;
                spf_n += spf_here;
              }}
              spf_pointer[spf_r + 1] = (spf_pointer_type)spf_n;
            }}""")
        release = "free(spf_counts); free(spf_cuts);"
    else:
        setup += c_statements("spf_pointer_type *const spf_my = spf_pointer;")
        prefix = c_statements(f"""
            int64_t spf_n = 0;
            for (int64_t spf_r = 1; spf_r <= {extent}; spf_r++) {{
              spf_n += spf_pointer[spf_r];
              spf_pointer[spf_r] = (spf_pointer_type)spf_n;
            }}""")
        release = ""
    emitter.phase = "count"
    count = emit_nests(count=True)
    middle = c_statements(f"""
        if (spf_n != (int64_t)(spf_pointer_type)spf_n) {{
          free(spf_pointer); {release}
          for (int spf_k = 0; spf_k < {assembly.report_length}; spf_k++) spf_report[spf_k] = 0;
          spf_report[{assembly.first_bad}] = -1;
          return {OUT_OF_MEMORY};
        }}
        spf_key *spf_keys = (spf_key *)spf_malloc_large((size_t)(spf_n > 0 ? spf_n : 1) * sizeof(spf_key));
        double *spf_values = (double *)spf_malloc_large((size_t)(spf_n > 0 ? spf_n : 1) * sizeof(double));
        if (!spf_keys || !spf_values) {{ free(spf_keys); free(spf_values); free(spf_pointer); {release} return {OUT_OF_MEMORY}; }}
        int spf_zeros = 0;""")
    emitter.phase = "fill"
    fill = emit_nests()
    emitter.phase = None
    shift = "" if parallel else f"""
        memmove(spf_pointer + 1, spf_pointer, (size_t){extent} * sizeof(spf_pointer_type));
        spf_pointer[0] = 0;"""
    end = c_statements(f"""{shift}
        {release}
        *spf_handle = {assembly.prefix}_adopt_pointer({output}, spf_keys, spf_values, spf_pointer, {extent},
                                                      spf_report, {int(assembly.drop_zeros)}, spf_zeros,
                                                      spf_report + {assembly.statistics},
                                                      {int(assembly.two_phase.trusted)});
        const int spf_status = *spf_handle ? 0 : spf_report[{assembly.first_bad}] >= 0 ? {UNSTORABLE} : {OUT_OF_MEMORY};
        if (*spf_handle) spf_report[{assembly.statistics} + 2] = {"spf_team > 1 ? spf_team : 0" if parallel else "0"};""")
    return (setup + emitter.entry + [block(count)] + prefix + middle + [block(fill)] + end + emitter.epilogue
            + [c_ast.Return(ident("spf_status"))])

def _cut_search(variable: str, read: str, parts: str, start: str, boundary: str) -> str:
    """C that sets ``spf_low`` to cut ``spf_k`` of ``parts`` equal shares of the work
    ``p - spf_first + (read(p) - spf_base)``: the first position from ``start`` (the cut
    before, so cuts never decrease) whose weight reaches the share, then moved on by
    ``boundary`` (parts_at) when given."""
    return f"""
        const int64_t spf_goal = spf_total / {parts} * spf_k + spf_total % {parts} * spf_k / {parts};
        int64_t spf_low = {start}, spf_high = spf_last + 1;
        while (spf_low < spf_high) {{
          const int64_t spf_middle = spf_low + (spf_high - spf_low) / 2;
          int64_t spf_weight;
          {{ const int64_t {variable} = spf_middle; spf_weight = spf_middle - spf_first + ({read} - spf_base); }}
          if (spf_weight >= spf_goal) spf_high = spf_middle; else spf_low = spf_middle + 1;
        }}
        {boundary}"""


def _replace_marker(items: list, marker: str, replacement) -> bool:
    """Put ``replacement`` where the parsed statements call ``marker()``, in place."""
    for node in items:
        for name, child in list(node.children()):
            if isinstance(child, c_ast.FuncCall) and isinstance(child.name, c_ast.ID) and child.name.name == marker:
                field, _, index = name.partition("[")
                if index:
                    getattr(node, field)[int(index[:-1])] = replacement
                else:
                    setattr(node, field, replacement)
                return True
            if _replace_marker([child], marker, replacement):
                return True
    return False


def c_statements(text: str) -> list:
    """C statements parsed from text (pycparser), for code that reads best as C."""
    from pycparser import c_parser
    prelude = ("typedef long int64_t; typedef int int32_t; typedef unsigned long size_t; typedef int spf_key; "
               "typedef int spf_cursor_key; "
               "typedef int spf_pointer_type; "
               "typedef struct spf_stream_ spf_stream; "
               "typedef struct spf_workspace_ spf_workspace; typedef struct spf_rows_ spf_rows; "
               "typedef struct spf_scratch_ spf_scratch; typedef struct spf_state_ spf_state; "
               "typedef struct spf_workspaces_ spf_workspaces; typedef struct spf_run_ spf_run;\n")
    unit = c_parser.CParser().parse(prelude + "void spf_snippet(void) {" + text + "}")
    return list(unit.ext[-1].body.block_items or [])





def function_source(function_name: str, parameters: list, body: list, tensors: dict,
                    state_count: int = 0) -> KernelSource:
    """``int function_name(parameters) { body }`` as C text, with its prototype.

    With ``state_count`` find state arrays (``Emitter.state_count``), the body becomes
    ``function_name_run``, taking the kernel's kept state as one more parameter, and
    ``function_name`` takes that state, runs the body and gives it back, whichever way the
    body returns."""
    generator = c_generator.CGenerator()

    def definition(name: str, parameter_list: list, items: list, storage: list) -> tuple:
        declarator = c_ast.FuncDecl(c_ast.ParamList(parameter_list),
                                    c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(["int"])))
        declaration = c_ast.Decl(name, [], [], storage, [], declarator, None, None)
        return declaration, generator.visit(c_ast.FileAST([c_ast.FuncDef(declaration, None, block(items))]))

    declaration, text = definition(function_name, parameters, body, [])
    prototype = generator.visit(declaration) + ";"
    if state_count:
        kept = kept_state_name(function_name)
        _, run = definition(f"{function_name}_run", parameters + [declare(KEPT, "spf_state", pointer=True)],
                            body, ["static"])
        arguments = ", ".join([p.name for p in parameters] + [KEPT])
        text = (f"static spf_state *{kept} = 0;\n\n{run}\n{prototype[:-1]}\n{{\n"
                f"  spf_state *const {KEPT} = spf_state_take(&{kept}, {state_count});\n"
                f"  if (!{KEPT}) return {OUT_OF_MEMORY};\n"
                f"  int spf_result = {function_name}_run({arguments});\n"
                f"  if (spf_state_failed({KEPT}, {state_count}) && spf_result == 0) spf_result = {OUT_OF_MEMORY};\n"
                f"  spf_state_put(&{kept}, {KEPT}, {state_count});\n"
                f"  return spf_result;\n}}\n")
    layouts = [layout for layout, _, _ in tensors.values()]
    return KernelSource(function_name, text, prototype, layouts, state_count)


def release_function(prefix: str) -> str:
    """The library function freeing what the kernels named ``prefix...`` keep between calls."""
    return f"{prefix}_release_state"


def kept_state_name(function_name: str) -> str:
    """The static pointer to the find state ``function_name`` keeps between calls."""
    return f"{function_name}_kept_state"


def zero_output_first(zeroing: OutputZeroing, tensors: dict, output: str, names: Names) -> list:
    """Zero the dense output before the nests as ``zeroing`` says: the rows its loop's
    blocks do not zero, or the whole output (by the kernel's threads where it says)."""
    if zeroing.rows is not None:
        return _zero_rows_not_reached(zeroing, names)
    layout, mapping, _ = tensors[output]
    array = mapping[layout.values_field]
    size = value_count(layout, mapping, names)
    position = "spf_zero"
    loop = c_ast.For(c_ast.DeclList([declare(position, INDEX, const(0))]),
                     binary("<", ident(position), size), c_ast.UnaryOp("p++", ident(position)),
                     assign(c_ast.ArrayRef(ident(array), ident(position)), const(0.0)))
    if not zeroing.parallel:
        return [loop]
    team = c_generator.CGenerator().visit(size)
    return [c_ast.Pragma(f"omp parallel for schedule(static) num_threads(spf_team_for({team}))"), loop]


def _row_size(zeroing, names: Names):
    """Entries per output row of a RowZeroing: the product of the output's other dimensions."""
    size = const(1)
    for dimension in zeroing.inner:
        size = binary("*", size, arith(dimension, names))
    return size


def _zero_rows_not_reached(plan: OutputZeroing, names: Names) -> list:
    """Zero the output rows the nest's blocks do not zero themselves (codegen.zeroing):
    those outside its outermost loop's range, or all of them when the nest does not run."""
    loop = plan.rows
    zeroing = loop.zero_rows
    text = Emitter._c_text
    extent = text(arith(zeroing.extent, names))
    inner = _row_size(zeroing, names)
    guards = [condition(c, names) for c in plan.guards]
    runs = text(conjunction(guards)) if guards else "1"
    return c_statements(f"""
        {{
          const int64_t spf_row_size = {text(inner)};
          int64_t spf_reached_from = {extent}, spf_reached_to = {extent};
          if ({runs}) {{
            spf_reached_from = spf_min(spf_max({text(lower_bound(loop.lower, names))}, 0), {extent});
            spf_reached_to = spf_max(spf_reached_from, spf_min({text(upper_bound(loop.upper, names))} + 1, {extent}));
          }}
          for (int64_t spf_zero = 0; spf_zero < spf_reached_from * spf_row_size; spf_zero++)
            {zeroing.array}[spf_zero] = 0.0;
          for (int64_t spf_zero = spf_reached_to * spf_row_size; spf_zero < {extent} * spf_row_size; spf_zero++)
            {zeroing.array}[spf_zero] = 0.0;
        }}""")


def value_count(layout: Layout, mapping: dict, names: Names) -> c_ast.Node:
    """The number of entries of a layout's value array, as a C expression (``mapping``: the
    kernel's names of the tensor's fields): what a dense output's zeroing and bounds cover."""
    size = None
    for dimension in layout.field(layout.values_field).dimensions:
        term = arith(_renamed(dimension, mapping), names)
        size = term if size is None else binary("*", size, term)
    return size


def _renamed(expression, mapping):
    from spf.layout_library.model import Name
    return expression.substitute({k: Name(v) for k, v in mapping.items()})


# ----------------------------------------------------------------------------- names


def kernel_names(statements, scans, extra_arrays: dict | None = None) -> Names:
    """C names for a kernel over these statement spaces: array dimensions (plus
    ``extra_arrays``, such as a fused kernel's scalar temporaries), readable names for
    the UF dimensions of ``scans`` and the extents."""
    from spf.layout_library.model import Name
    arrays: dict[str, tuple] = {}
    for statement_space in statements:
        for placement in statement_space.placements.values():
            mapping = {k: Name(v) for k, v in placement.names.items()}
            for field_ in placement.layout.arrays:
                arrays.setdefault(placement.names[field_.name],
                                  tuple(d.substitute(mapping) for d in field_.dimensions))
    arrays.update(extra_arrays or {})
    taken = set(arrays)
    for statement_space in statements:
        taken |= set(statement_space.set.variables) | set(statement_space.set.parameters)
    readable: dict[str, str] = {}
    for scanned in scans:
        readable.update(readable_names(scanned.calls, taken | set(readable.values())))
    extents = {}
    for statement_space in statements:
        extents.update(statement_space.extents)
    return Names(arrays, readable, extents)


def array_ranges(statements) -> dict[str, tuple[Affine, Affine]]:
    """``array -> (low, high)`` of every range property of these statement spaces (the
    value range a HashMap table covers)."""
    from spf.properties import Range
    ranges = {}
    for statement_space in statements:
        for prop in statement_space.properties:
            if isinstance(prop, Range):
                ranges.setdefault(prop.arrays[0], (prop.low, prop.high))
    return ranges
