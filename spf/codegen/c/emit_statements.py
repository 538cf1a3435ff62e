"""The statement and loop printer: one kernel's loop nests (codegen.loops) as pycparser
``c_ast`` statements.  Each node prints as its fields say; the marks the passes set
(register sums, parallel loops, zeroing, jams, merges, finds' state) print through the
parts in spf.codegen.c.emit_loops, spf.codegen.c.emit_merge and spf.codegen.c.emit_finds."""

from __future__ import annotations

from pycparser import c_ast

from spf.errors import SpfInternalError
from spf.notation.semirings import PLUS_TIMES, Semiring
from spf.notation.value_types import FLOAT64
from spf.space.expressions import UFCall

from spf.codegen.c.c_expressions import (Names, affine, arith, array_read, condition, flat_index, lower_bound,
                                         upper_bound)
from spf.codegen.c.c_syntax import INDEX, assign, binary, block, c_statements, call, const, conjunction, declare, ident
from spf.codegen.c.emit_finds import FindPrinter
from spf.codegen.c.emit_semiring import identity_constant
from spf.codegen.c.emit_loops import LoopPrinter
from spf.codegen.c.emit_merge import MergePrinter
from spf.codegen.loops import (Assign, Block, Chunks, Compute, Find, Guard, Loop, Merge, Node, RegisterSum, StateInit,
                               Temporary, TileGuard, ZeroEntry)


class Emitter(LoopPrinter, MergePrinter, FindPrinter):
    """Lowers one kernel's loop nests to C statements, node by node, as the nodes and
    their marks say (no decision of its own); the marked loops, merges and finds print
    through its parts (LoopPrinter, MergePrinter, FindPrinter)."""

    def __init__(self, names: Names, scalar_output: str | None, ranges: dict, semiring: Semiring = PLUS_TIMES):
        self.names = names
        self.semiring = semiring  # what the statement's + and * print as (spf.notation.semirings)
        self.scalar_output = scalar_output
        self.ranges = ranges  # array -> (low, high) of its values, from range properties
        self.entry: list = []  # allocations at function entry
        self.epilogue: list = []  # frees before returning
        self.counter = 0
        self.accumulator: str | None = None  # a register sum standing for the output entry
        self.accumulated: str | None = None  # set when the register sum received a term (exact writes)
        self.hoisted: set[int] = set()  # the statement's factors that multiply the register sum after its loop
        self.lookup_mask: str | None = None  # a masked lookup's hit: the register sum's term is masked by it
        self.atomic = False  # inside a loop parallelised with atomic updates
        self.output_extent: tuple | None = None  # output array name and its length (C expression)
        self.workspace: str | None = None  # the add of the workspace an assembled output's entries go through
        self.stream_type: str | None = None  # the C type of an assembled output's per-thread streams
        self.phase: str | None = None  # two phases (spf.codegen.assembly.plan.TwoPhase): "count" or "fill"
        self.two_phase = None  # the TwoPhase strategy, with phase
        self.drop_zeros = True  # an assembled output stores no entry whose value is zero
        self.rows_extent: str | None = None  # two phases: the C name of the rows' extent
        self.rows_outer: str | None = None  # an assembled output's rows: their outer coordinate
        self.append_mode: str | None = None  # in a Merge: "push" (a new key), "hold"/"add_held" (both terms)
        self.held = "spf_held"  # the register "hold" and "add_held" put a Merge arm's value in
        self.appends = False  # rows appended in storage order, no workspace (spf.codegen.assembly.merge.appends_in_order)
        self.hand = False  # groups open where the row is bound: the open group is a local (spf_workspace_hand)
        self.merge_ranges: dict[int, tuple[str, str]] = {}  # a Merge arm's loop -> its range's C names
        self.state_count = 0  # find state arrays kept between calls (slots of KEPT)
        self.state_names: dict[int, str] = {}  # a SeqIter or HashMap find -> the C name of its state
        self.transposed: dict[str, tuple[str, str, str, str]] = {}  # input -> read pointer, strides, copy
        self.element_types: dict[str, str] = {}  # array -> its C element type (double when not listed)
        self.value_type = FLOAT64  # what the kernel computes in (spf.notation.value_types): sums, registers
        self.invariant_reads: dict[int, str] = {}  # in an independent loop: factors read once before it

    @property
    def value_c(self) -> str:
        """The C type of the values the kernel computes (``double``, ``float``, ``int64_t``, ...)."""
        return self.value_type.c_type

    def identity(self) -> c_ast.Node:
        """⊕'s identity (0.0 for +): what a sum, and an output entry no term reaches, starts from."""
        return identity_constant(self.semiring.add.identity, self.value_type)

    def _applied(self, operation, left, right) -> c_ast.Node:
        """A semiring's monoid or operator on two values: C's infix operator, else its helper
        for the kernel's value type (spf_semiring.h: ``spf_min_float32``, ...)."""
        return binary(operation.c_operator, left, right) if operation.c_operator else \
            call(f"{operation.c_function}_{self.value_type.name}", left, right)

    def reduced(self, left, right) -> c_ast.Node:
        """``left ⊕ right``."""
        return self._applied(self.semiring.add, left, right)

    def multiplied(self, left, right) -> c_ast.Node:
        """``left ⊗ right``."""
        return self._applied(self.semiring.multiply, left, right)

    def reduce_into(self, target, value) -> c_ast.Node:
        """``target ⊕= value`` (``+=`` under +)."""
        operator = self.semiring.add.c_operator
        return assign(target, value, f"{operator}=") if operator else assign(target, self.reduced(target, value))

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
            return [assign(self._output_reference(node), self.identity())]
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
        mine = self.thread_sinks(call("spf_thread")) if node.parallel else []
        kept = self.sinks_kept() if node.parallel else []
        invariant = self._invariant_reads(node)
        inner = self._group_at(node) + self.nodes(node.body)
        if target is not None and register_sum.terminal is not None:  # spf.codegen.passes.terminal_sum
            final = binary("!=" if register_sum.terminal == "nonzero" else "==", ident(self.accumulator), const(0))
            inner.append(c_ast.If(final, c_ast.Break(), None))
        self.invariant_reads = {}
        body = block(mine + inner + kept)
        loop = c_ast.For(init, test, c_ast.UnaryOp("p++", ident(variable)), body)
        if target is not None and register_sum.lanes > 1:
            loop = self._split_sum(node, register_sum, loop)
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
        if node.independent is not None:
            return self._independent(node, loop, invariant)
        if target is None:
            return [loop]
        # the output position does not change inside the loop: sum in a register
        total, self.accumulator, self.accumulated, self.hoisted = self.accumulator, None, None, set()
        return [declare(total, self.value_type.register_c_type, self.identity())] + \
            ([declare(added, "int", const(0))] if added else []) + [loop, self._sum_written(register_sum, total, added)]

    def _split_sum(self, node: Loop, register_sum: RegisterSum, loop: c_ast.For) -> c_ast.Compound:
        """A register sum split among ``lanes`` registers (spf.codegen.passes.split_sum): where
        the loop runs at least ``least_trips`` iterations, lane ``k`` adds iterations
        ``k, k + lanes, ...`` into its own register, the registers are added pairwise into the
        sum; the iterations left over (all of a shorter loop) then run through ``loop``, the
        plain loop, from where the lanes stopped."""
        names, total, lanes = self.names, self.accumulator, register_sum.lanes
        variable = names.name(node.variable)
        start = self.fresh("spf_split")
        lower, upper = lower_bound(node.lower, names), upper_bound(node.upper, names)
        registers = [total] + [self.fresh("sum") for _ in range(lanes - 1)]
        steps = []
        for lane, register in enumerate(registers):
            self.accumulator = register
            steps.append(block([declare(variable, INDEX, binary("+", ident(start), const(lane)), const_=True)]
                               + self.nodes(node.body)))
        self.accumulator = total
        split = c_ast.For(None, binary("<=", binary("+", ident(start), const(lanes - 1)), upper),
                          assign(ident(start), const(lanes), "+="), block(steps))
        sums = [ident(register) for register in registers]
        while len(sums) > 1:
            sums = [self.reduced(sums[k], sums[k + 1]) if k + 1 < len(sums) else sums[k]
                    for k in range(0, len(sums), 2)]
        long_enough = binary(">=", binary("-", upper, ident(start)), const(register_sum.least_trips - 1))
        lanes_first = c_ast.If(long_enough, block([declare(r, self.value_type.register_c_type, self.identity())
                                                   for r in registers[1:]]
                                                  + [split, assign(ident(total), sums[0])]), None)
        loop.init = c_ast.DeclList([declare(variable, INDEX, ident(start))])
        return block([declare(start, INDEX, lower), lanes_first, loop])

    def _invariant_reads(self, node: Loop) -> list:
        """An independent loop's reads of the factors that do not change in it, as
        declarations; the statement inside then names them (``invariant_reads``)."""
        if node.independent is None:
            return []
        statement = next(n for n in node.body if isinstance(n, Compute)) if node.independent.invariant_factors \
            else None
        declarations = []
        for position in node.independent.invariant_factors:
            name = self.fresh("factor")
            declarations.append(declare(name, self.value_c, self._factor(statement.factors[position]), const_=True))
            self.invariant_reads[position] = name
        return declarations

    def _independent(self, node: Loop, loop: c_ast.For, invariant: list) -> list:
        """An independent loop (spf.codegen.passes.independent): gcc is told its iterations
        do not depend on each other; the factors it does not change are read before it, only
        when it runs (a read the loop would not have made is not made)."""
        independent = [c_ast.Pragma("GCC ivdep"), loop]
        if not invariant:
            return independent
        runs = binary("<=", lower_bound(node.lower, self.names), upper_bound(node.upper, self.names))
        return [c_ast.If(runs, block(invariant + independent), None)]

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
            array = c_ast.ArrayDecl(c_ast.TypeDecl(node.name, [], None, c_ast.IdentifierType([self.value_c])),
                                    const(1), [])
            return [c_ast.Decl(node.name, [], [], [], [], array, c_ast.InitList([self.identity()]), None)]
        # each thread owns one slice of the temporary's allocation (spf_thread() is 0 outside
        # parallel loops), so temporaries inside a parallel loop are private
        size = affine(node.size, self.names)
        start = binary("+", ident(f"{node.name}_all"), binary("*", call("spf_thread"), ident(f"{node.name}_stride")))
        pointer = declare(node.name, self.value_c, start, pointer=True, restrict=True)
        position = self.fresh("spf_zero")
        return [pointer, c_ast.For(c_ast.DeclList([declare(position, INDEX, const(0))]),
                          binary("<", ident(position), affine(node.size, self.names)),
                          c_ast.UnaryOp("p++", ident(position)),
                          assign(c_ast.ArrayRef(ident(node.name), ident(position)), self.identity()))]

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

    def _sum_written(self, register_sum: RegisterSum, total: str, added: str | None):
        """The update of the output by the register sum ``total`` after its loop (only when
        ``added`` is set, if given), the factors taken out multiplied in."""
        target = register_sum.target
        value = ident(total)
        for position in sorted(register_sum.hoisted, reverse=True):
            value = self.multiplied(self._factor(target.factors[position]), value)
        if target.stream is not None:
            update = self._append(target, value)
        elif target.stores:
            update = assign(self._output_reference(target), value)
        else:
            update = self._update(self._output_reference(target), value)
        otherwise = assign(self._output_reference(target), self.identity()) if target.stores else None
        if register_sum.repeated:
            update = block([self._declaration(a) for a in register_sum.repeated] + [update])
            if otherwise is not None:  # the output's position is one of the repeated assignments
                otherwise = block([self._declaration(a) for a in register_sum.repeated] + [otherwise])
        return update if added is None else c_ast.If(ident(added), update, otherwise)

    def compute(self, node: Compute) -> list:
        product = None
        for position, factor in enumerate(node.factors):
            if self.accumulator and position in self.hoisted:
                continue  # multiplied into the register sum once, after its loop
            read = ident(self.invariant_reads[position]) if position in self.invariant_reads else \
                self._factor(factor)
            product = read if product is None else self.multiplied(product, read)
        if node.coefficient != 1.0:
            product = binary("*", const(float(node.coefficient)), product)
        if self.accumulator and self.lookup_mask:
            product = call("spf_masked", product, ident(self.lookup_mask))
        if self.accumulator:
            added = [assign(ident(self.accumulated), const(1))] if self.accumulated else []
            return self._padding_skipped(node, [self.reduce_into(ident(self.accumulator), product)] + added)
        if node.stream is not None:
            return self._padding_skipped(node, [self._append(node, product)])
        if node.output is None:
            return [self.reduce_into(ident(f"{node.scalar_output}_sum"), product)]
        if node.stores:
            return [assign(self._output_reference(node), product)]
        return [self._update(self._output_reference(node), product)]

    def _factor(self, factor: tuple):
        array, indices, dimensions = factor
        if array in self.transposed:  # through the pointer and strides the call set (spf.codegen.passes.jam.Transposition)
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

    def thread_sinks(self, thread: c_ast.Node, stream: c_ast.Node | None = None) -> list:
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
        if self.appends:  # kept back into the rows where its scope ends (sinks_kept)
            sinks.append(declare("spf_my_cursor", "spf_cursor", call("spf_cursor_of", ident("spf_my_stream"))))
        elif self.hand:  # kept back into the workspace likewise
            sinks.append(declare("spf_my_hand", "spf_workspace_hand",
                                 call("spf_workspace_hand_of", ident("spf_my_accumulator"))))
        return sinks

    def sinks_kept(self) -> list:
        """Where a scope of thread_sinks ends: the appending cursor's state back into its
        rows, or the open group's into its workspace (before the workspace is flushed)."""
        if self.appends:
            return [call("spf_cursor_keep", ident("&spf_my_cursor"), ident("spf_my_stream"))]
        if self.hand:
            return [call("spf_workspace_hand_keep", ident("&spf_my_hand"), ident("spf_my_accumulator"))]
        return []

    def _group_at(self, node: Assign | Loop) -> list:
        """Where a node opens its row's group (``opens_group``): start it (see _append)."""
        if not node.opens_group:
            return []
        if self.appends:
            return [call("spf_cursor_open", ident("&spf_my_cursor"), ident("spf_my_stream"),
                         ident(self.names.name(node.variable)))]
        return [call("spf_workspace_hand_group_rows", ident("&spf_my_hand"), ident("spf_my_accumulator"),
                     ident("spf_my_stream"), ident(self.names.name(node.variable)))]

    def _append(self, node: Compute, value):
        """Append the entry (its coordinates, ``value``) to the assembled output's stream,
        through the workspace when there is one; an entry of a group its row opened
        (``grouped``), only the inner coordinate.  Under a monoid of truth values (lor, land)
        the value is ``identity ⊕ value``, 0 or 1, as an entry one value reaches holds: a
        workspace or builder takes a position's first value as it is (spf_combine.h)."""
        if self.semiring.add.truth:
            value = self.reduced(self.identity(), value)
        if self.phase is not None:
            return self._two_phase_entry(node, value)
        coordinates = [ident(self.names.name(index)) for index in node.stream]
        if self.appends:
            inner = ident(self.names.name(next(index for index in node.stream if index != self.rows_outer)))
            if not node.grouped:  # no group opened where the row is bound: each entry names it
                return call("spf_cursor_add", ident("&spf_my_cursor"), ident("spf_my_stream"),
                            ident(self.names.name(self.rows_outer)), inner, value)
            if self.append_mode == "hold":
                return assign(ident(self.held), value)
            if self.append_mode == "add_held":
                return self.reduce_into(ident(self.held), value)
            put = "spf_cursor_push" if self.append_mode == "push" else "spf_cursor_put"
            return call(put, ident("&spf_my_cursor"), ident("spf_my_stream"), inner, value)
        if node.grouped:
            inner = next(index for index in node.stream if index != self.rows_outer)
            return call("spf_workspace_hand_put", ident("&spf_my_hand"), ident(self.names.name(inner)), value)
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
        return block([declare("spf_value", self.value_c, value, const_=True)] + c_statements(text))

    def _update(self, target, value):
        """``target ⊕= value``, atomically inside a loop parallelised with atomics (under +:
        spf.codegen.passes.semiring refuses atomics for other semirings)."""
        update = self.reduce_into(target, value)
        return block([c_ast.Pragma("omp atomic"), update]) if self.atomic else update

    def _output_reference(self, node: Compute):
        array, indices, dimensions = node.output
        return c_ast.ArrayRef(ident(array), flat_index([arith(i, self.names) for i in indices],
                                                       dimensions, self.names))
