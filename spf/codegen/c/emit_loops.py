"""Printing the loop forms the passes marked (spf.codegen.passes.parallel, spf.codegen.passes.zeroing, spf.codegen.passes.jam):
a parallel loop cut into balanced pieces, a two-phase kernel's chunks, per-thread copies
of the output, rows zeroed in blocks, jammed iterations, inputs copied transposed.  The
printer follows each mark; the passes made every decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pycparser import c_ast

from spf.space.expressions import Affine, UFCall

from spf.codegen.c.c_expressions import Names, affine, arith, array_read, lower_bound, upper_bound
from spf.codegen.c.c_syntax import (INDEX, OUT_OF_MEMORY, assign, binary, block, c_statements, c_text, call, const,
                                    declare, ident, replace_marker)
from spf.codegen.loops import Chunks, Loop, Node, walk

if TYPE_CHECKING:
    from spf.codegen.passes.zeroing import RowZeroing


class LoopPrinter:
    """The Emitter's printing of marked loops (a part of :class:`spf.codegen.c.emit_statements.Emitter`,
    whose state it reads: names, stream_type, workspace, phase, drop_zeros, output_extent, ...)."""

    def chunks(self, node: Chunks) -> list:
        """A two-phase kernel's parallel loop: chunk t of the range (its own counters,
        ``spf_my``) on one thread; the count and the fill split it the same way, at the
        cuts ``spf_cuts`` made once before both (:func:`spf.codegen.c.emit_assembled.two_phase_kernel`)."""
        extent = self.rows_extent
        head = c_statements(f"""
            const int64_t spf_first = spf_cuts[spf_chunk], spf_last = spf_cuts[spf_chunk + 1] - 1;
            spf_pointer_type *const spf_my = spf_counts + spf_chunk * ({extent} + 1);""")
        loop = c_ast.For(c_ast.DeclList([declare("spf_chunk", INDEX, const(0))]),
                         binary("<", ident("spf_chunk"), ident("spf_team")), c_ast.UnaryOp("p++", ident("spf_chunk")),
                         block(head + self.nodes(node.body)))
        zeros = " reduction(|: spf_zeros)" if self.phase == "fill" and self.drop_zeros else ""
        return [c_ast.Pragma(f"omp parallel for schedule(static, 1) num_threads(spf_team){zeros}"), loop]

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
        read = c_text(array_read(pieces.pointer, self.names)) if pieces.pointer is not None else "0"
        first = c_text(lower_bound(node.lower, self.names))
        last = c_text(upper_bound(node.upper, self.names))
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
            at = c_text(array_read(UFCall(function, (Affine.of(node.variable),)), self.names))
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
        sinks = self.thread_sinks(call("spf_thread"), ident("spf_stream_index"))
        return self._balanced_pieces(work, thread_state, loop, variable, read, boundary, count, sinks,
                                     list(kept) + flush)

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
              {cut_search(variable, read, "spf_pieces", "spf_cuts[spf_k - 1]", boundary)}
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
        replace_marker(taking, "spf_loop_body", block(piece + thread_state + list(begin) + loop + list(end)))
        region = block(taking)
        # a team of one runs the loop as it stands: no region to enter, nothing to cut or share
        alone = block(thread_state + c_statements("""
            const int64_t spf_from = spf_first, spf_to = spf_last + 1;
            const int spf_stream_index = 0;""") + list(begin) + loop + list(end))
        shared = block(cuts + [c_ast.Pragma("omp parallel num_threads(spf_want)"), region])
        return [block(work + [c_ast.If(binary("==", ident("spf_want"), const(1)), alone, shared)])]

    def _zeroing_blocks(self, node: Loop, start, stop, body) -> list:
        """The loop over ``[start, stop)`` in blocks, each zeroing the output rows it is
        about to write (spf.codegen.passes.zeroing), so they are zeroed while in cache; a plain loop
        where its iterations store their entries."""
        zeroing, names = node.zero_rows, self.names
        variable = names.name(node.variable)
        if zeroing.stores:  # every iteration stores its entry: nothing to zero
            return [c_ast.For(c_ast.DeclList([declare(variable, INDEX, start)]), binary("<", ident(variable), stop),
                              c_ast.UnaryOp("p++", ident(variable)), body)]
        extent = c_text(arith(zeroing.extent, names))
        inner_text = c_text(row_size(zeroing, names))
        # the rows blocks [b, e) of iterations own: b .. e - 1, or pointer(b) .. pointer(e) - 1
        first_row, end_row = ("spf_block", "spf_block_end") if zeroing.pointer is None else \
            (f"{zeroing.pointer}[spf_block]", f"{zeroing.pointer}[spf_block_end]")
        skeleton = c_statements(f"""
            {{
              const int64_t spf_row_size = {inner_text};
              const int64_t spf_block_rows = spf_row_size > 0 && spf_row_size < {zeroing.block_entries}
                                             ? {zeroing.block_entries} / spf_row_size : 1;
              const int64_t spf_stop = {c_text(stop)};
              for (int64_t spf_block = {c_text(start)}; spf_block < spf_stop; spf_block += spf_block_rows) {{
                const int64_t spf_block_end = spf_min(spf_block + spf_block_rows, spf_stop);
                const int64_t spf_zero_to = spf_min({end_row}, {extent}) * spf_row_size;
                for (int64_t spf_zero = spf_max({first_row}, 0) * spf_row_size; spf_zero < spf_zero_to; spf_zero++)
                  {zeroing.array}[spf_zero] = {c_text(self.identity())};
                for (int64_t {variable} = spf_block; {variable} < spf_block_end; {variable}++)
                  spf_loop_body();
              }}
            }}""")
        replace_marker(skeleton, "spf_loop_body", body)
        return skeleton

    def _schedule_clause(self, node: Loop) -> str:
        """``schedule(...)``, monotonic where the loop says (``Loop.monotonic``), and a dense
        nest's team (``Loop.dense_trips``): as many threads as its iterations pay for."""
        clause = f" schedule({'monotonic: ' if node.monotonic else ''}{node.schedule})"
        if node.dense_trips:
            work = None
            for lower, upper in node.dense_trips:
                if len(lower) == len(upper) == 1:
                    trips = affine(upper[0].expression - lower[0].expression + 1, self.names)
                else:
                    trips = binary("+", binary("-", upper_bound(upper, self.names), lower_bound(lower, self.names)),
                                   const(1))
                work = trips if work is None else binary("*", work, trips)
            clause += f" num_threads(spf_team_for({c_text(work)}))"
        return clause

    def _reduction_clause(self, node: Loop) -> str:
        """``reduction(+: ...)`` where the loop's reduction is OpenMP's, over a scalar output's
        sum (``min``, ``max``, ... as the semiring's ⊕ is)."""
        if not (node.parallel and node.reduction == "clause"):
            return ""
        return f" reduction({self.semiring.add.openmp}: {self.scalar_output}_sum)"

    def _privatized(self, node: Loop, thread_state: list, loop) -> list:
        """Per-thread copies of the output on the heap (an OpenMP array reduction would put
        them on each thread's stack, which overflows for large outputs), merged after."""
        array, size = self.output_extent
        copies, shared, position, thread = (self.fresh("copies"), self.fresh("shared"),
                                            self.fresh("q"), self.fresh("t"))
        double = c_ast.TypeDecl(None, [], None, c_ast.IdentifierType([self.value_c]))
        allocation = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.PtrDecl([], double)),
                                call("calloc", binary("*", c_ast.Cast(c_ast.Typename(
                                    None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["size_t"]))),
                                    call("spf_threads")), size),
                                     c_ast.UnaryOp("sizeof", c_ast.Typename(None, [], None, double))))
        own = binary("+", ident(copies), binary("*", c_ast.Cast(c_ast.Typename(
            None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["size_t"]))),
            call("spf_thread")), size))
        region = block(thread_state + [declare(array, self.value_c, own, pointer=True, restrict=True),
                                       c_ast.Pragma("omp for" + self._schedule_clause(node)), loop])
        total = self.fresh("sum")
        merge = c_ast.For(c_ast.DeclList([declare(position, INDEX, const(0))]),
                          binary("<", ident(position), size), c_ast.UnaryOp("p++", ident(position)),
                          block([declare(total, self.value_c, const(0.0)),
                                 c_ast.For(c_ast.DeclList([declare(thread, INDEX, const(0))]),
                                           binary("<", ident(thread), call("spf_threads")),
                                           c_ast.UnaryOp("p++", ident(thread)),
                                           assign(total, c_ast.ArrayRef(ident(copies), binary(
                                               "+", binary("*", ident(thread), size), ident(position))), "+=")),
                                 assign(c_ast.ArrayRef(ident(shared), ident(position)), ident(total), "+=")]))
        return [block([
            declare(shared, self.element_types.get(array, "double"), ident(array), pointer=True),
            declare(copies, self.value_c, allocation, pointer=True),
            c_ast.If(binary("==", ident(copies), ident("NULL")),
                     block(list(self.epilogue) + [c_ast.Return(const(OUT_OF_MEMORY))]), None),
            c_ast.Pragma("omp parallel"), region,
            c_ast.Pragma("omp parallel for schedule(static)"), merge,
            call("free", ident(copies))])]

    def read_transposed(self, nodes: list[Node]) -> None:
        """Every input a loop of the nest copies transposed (spf.codegen.passes.jam.Transposition) is
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
                columns = c_text(arith(transposition.dimensions[1], self.names))
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
        at = c_text(array_read(UFCall(pointer, (Affine.of(node.variable),)), names))
        first, last = c_text(lower_bound(node.lower, names)), c_text(upper_bound(node.upper, names))
        copies = ""
        for transposition in node.transposed:
            read, row_stride, column_stride, copy = self.transposed[transposition.array]
            rows, columns = (c_text(arith(d, names)) for d in transposition.dimensions)
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
        """``node`` jammed (spf.codegen.passes.jam): ``node.jam`` iterations at a time, each binding its
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
            body.append(declare(total, self.value_type.register_c_type, self.identity()))
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


def cut_search(variable: str, read: str, parts: str, start: str, boundary: str) -> str:
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


def row_size(zeroing: RowZeroing, names: Names) -> c_ast.Node:
    """Entries per output row of a RowZeroing: the product of the output's other dimensions."""
    size = const(1)
    for dimension in zeroing.inner:
        size = binary("*", size, arith(dimension, names))
    return size
