"""The parts of a kernel that hand an assembled output's entries to its builder
(codegen.assembly): per-thread streams and workspaces, the hand-over after the nests,
and the two-phase kernel (count, prefix sum, fill)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from pycparser import c_ast

from spf.codegen.c.c_expressions import array_read, condition, lower_bound, upper_bound
from spf.codegen.c.c_syntax import (OUT_OF_MEMORY, UNSTORABLE, block, c_statements, c_text, call, const, conjunction,
                                    ident)
from spf.codegen.c.emit_loops import cut_search
from spf.codegen.loops import Chunks, walk

if TYPE_CHECKING:
    from spf.codegen.assembly.plan import TwoPhase, Workspace
    from spf.codegen.c.emit_statements import Emitter


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
    count_nodes: tuple = ()  # with two_phase: each scan's nest for the count phase (spf.codegen.scanning.projection)

    @property
    def rows(self) -> bool:
        """The workspace flushes into rows the builder may adopt as they stand."""
        return self.workspace is not None and self.workspace.direct is not None


def assembly_state(assembly: AssembledOutput, emitter: Emitter, parallel: bool) -> list:
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
        return body + emitter.thread_sinks(const(0))
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
    return body + emitter.thread_sinks(const(0))


def begin_assembly(assembly: AssembledOutput, output: str) -> list:
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


def two_phase_kernel(assembly: AssembledOutput, emitter: Emitter, emit_nests: Callable[..., list],
                     output: str, parallel: bool, scans: list = ()) -> list:
    """The body of a two-phase kernel (spf.codegen.assembly.plan.TwoPhase) after its checks.

    Serial: the nest counts each row's entries into the layout's pointer array (at
    ``r + 1``); a prefix sum; key and value arrays of exactly that length; the nest again
    puts each entry at ``pointer[r]++``, which leaves the end of row r there, and a shift
    by one makes it the pointer array again.  Parallel (the nest's parallel loop split
    into per-thread chunks, spf.codegen.passes.parallel.split_into_chunks): each chunk counts into
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
        first = c_text(lower_bound(chunks.lower, emitter.names))
        last = c_text(upper_bound(chunks.upper, emitter.names))
        outer_span, least = f"({last} - {first} + 1)", chunks.least_iterations
        # the work: the outer iterations, plus the segments they walk where a pointer says
        filled = next((node for scan in scans for node in walk(scan.nodes) if isinstance(node, Chunks)), chunks)
        pointer = filled.pointer
        segments = balance = ""
        if pointer is not None:
            variable = emitter.names.name(filled.variable)
            read = c_text(array_read(pointer, emitter.names))
            guards = [condition(c, emitter.names) for scan in scans[:1] for c in scan.entry_guards]
            runs = c_text(conjunction(guards)) if guards else "1"
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
                    {cut_search(variable, read, "spf_team", "spf_cuts[spf_k - 1]", "")}
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
