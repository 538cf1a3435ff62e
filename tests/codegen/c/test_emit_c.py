"""The C printer prints the decisions the passes wrote into the loop nests, and makes none.

Each test builds a small loop nest by hand with one decision set, prints it with the
:class:`spf.codegen.c.emit_c.Emitter` and checks that the C shows it, and that the same nest
without the decision prints without it.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest
from pycparser import c_ast, c_generator

from spf.codegen.c.c_expressions import Names
from spf.codegen.c.c_syntax import ident
from spf.codegen.c.emit_assembled import two_phase_kernel
from spf.codegen.c.emit_assembled import AssembledOutput
from spf.codegen.c.emit_c import zero_output_first
from spf.codegen.c.emit_statements import Emitter
from spf.codegen.finds.find import FindChoice
from spf.codegen.loops import Assign, Bound, Chunks, Compute, Find, Loop, Merge, MergeArm, Pieces, RegisterSum, render
from spf.codegen.passes.jam import Transposition
from spf.codegen.passes.zeroing import OutputZeroing, RowZeroing
from spf.errors import SpfError
from spf.layout_library.model import Name
from spf.space.expressions import Affine, Constraint, UFCall

ARRAYS = {"rowptr": (Name("N"),), "col": (Name("NNZ"),), "val": (Name("NNZ"),), "x": (Name("M"),),
          "y": (Name("N"),), "B": (Name("M"), Name("K")), "C": (Name("N"), Name("K")),
          "colptr": (Name("N"),), "row": (Name("NNZ"),), "rows2": (Name("NNZ"),)}


def at(uf: str, index: str, plus: int = 0) -> Affine:
    return Affine.of(UFCall(uf, (Affine.of(index) + plus,)))


def spmv(output: str = "y", scalar: str | None = None, pointer: str = "rowptr", column: str = "col") -> Loop:
    """for i in [0, N-1]: for k in [pointer(i), pointer(i+1)-1]: j = column(k); output[i] += val[k] * x[j]."""
    compute = Compute(None if scalar else (output, (Name("i"),), (Name("N"),)),
                      [("val", (Name("k"),), (Name("NNZ"),)), ("x", (Name("j"),), (Name("M"),))],
                      scalar_output=scalar)
    inner = Loop("k", [Bound(at(pointer, "i"))], [Bound(at(pointer, "i", 1) - 1)],
                 [Assign("j", UFCall(column, (Affine.of("k"),))), compute])
    return Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)], [inner])


def printed(nodes: list, scalar: str | None = None, **state) -> str:
    """The C of ``nodes`` (after the declarations they need at function entry)."""
    emitter = Emitter(Names(dict(ARRAYS)), scalar, {})
    for name, value in state.items():
        setattr(emitter, name, value)
    emitter.read_transposed(nodes)
    items = emitter.nodes(nodes)
    return c_generator.CGenerator().visit(c_ast.Compound(list(emitter.entry) + items))


def test_a_plain_nest_prints_as_its_loops():
    text = printed([spmv()])
    assert "for (int64_t i = 0; i <= (N - 1); i++)" in text
    assert "y[i] += val[k] * x[j];" in text
    assert "#pragma" not in text and "sum_" not in text


def test_register_sum_is_printed_where_the_loop_says():
    nest = spmv()
    inner = nest.body[0]
    inner.register_sum = RegisterSum(target=inner.body[1], repeated=[], hoisted=set())
    text = printed([nest])
    assert "double sum_1 = 0.0;" in text and "sum_1 += val[k] * x[j];" in text and "y[i] += sum_1;" in text
    assert "added_" not in text
    inner.register_sum = dataclasses.replace(inner.register_sum, counts_terms=True)
    counted = printed([nest])
    assert "int added_2 = 0;" in counted and "if (added_2)" in counted


def test_hoisted_factor_multiplies_the_register_sum_once():
    nest = spmv()
    inner = nest.body[0]
    inner.register_sum = RegisterSum(target=inner.body[1], repeated=[], hoisted={1})
    text = printed([nest])
    assert "sum_1 += val[k];" in text and "y[i] += x[j] * sum_1;" in text


def test_parallel_loop_prints_its_schedule_and_monotonic_mark():
    nest = spmv()
    nest.parallel = True
    assert "#pragma omp parallel for schedule(dynamic,32)" in printed([nest])
    nest.schedule, nest.monotonic = "static", True
    assert "#pragma omp parallel for schedule(monotonic: static)" in printed([nest])


def test_pieces_are_printed_as_the_loop_says():
    nest = spmv()
    nest.parallel = True
    nest.pieces = Pieces(pointer=UFCall("rowptr", (Affine.of("i"),)), weight=3)
    text = printed([nest])
    assert "spf_piece_take" in text and "spf_pieces_for(spf_want, spf_work)" in text
    assert "spf_total * 3" in text and "spf_base = rowptr[i]" in text
    assert "#pragma omp parallel for" not in text
    nest.pieces = Pieces(pointer=None, most=True)
    most = printed([nest])
    assert "spf_most_pieces(spf_want)" in most and "spf_base = 0" in most
    nest.pieces = None
    assert "spf_piece_take" not in printed([nest])


def test_parts_at_moves_each_cut_to_where_the_function_changes():
    nest = spmv()
    nest.parallel, nest.parts_at = True, ("row", True)
    nest.pieces = Pieces(pointer=None, most=True)
    text = printed([nest])
    assert "spf_value > spf_before" in text and "row[i]" in text
    nest.parts_at = ("row", False)
    assert "spf_value < spf_before" in printed([nest])


def test_zeroing_blocks_are_as_large_as_the_loop_says():
    nest = spmv()
    nest.zero_rows = RowZeroing("y", Name("N"), ())
    text = printed([nest])
    assert "spf_block_rows" in text and "2048 / spf_row_size" in text and "y[spf_zero] = 0.0;" in text
    nest.zero_rows = RowZeroing("y", Name("N"), (), block_entries=512)
    assert "512 / spf_row_size" in printed([nest])
    nest.zero_rows = RowZeroing("y", Name("N"), (), stores=True)
    stored = printed([nest])
    assert "spf_block" not in stored and "spf_zero" not in stored
    nest.zero_rows = None
    assert "spf_block" not in printed([nest])


def test_the_output_is_zeroed_as_the_plan_says():
    layout = SimpleNamespace(values_field="vals", field=lambda name: SimpleNamespace(dimensions=(Name("N"),)))
    tensors = {"y": (layout, {"vals": "y"}, True)}

    def zeroed(plan: OutputZeroing) -> str:
        return c_generator.CGenerator().visit(c_ast.Compound(zero_output_first(plan, tensors, "y", Names(ARRAYS))))

    whole = zeroed(OutputZeroing())
    assert "for (int64_t spf_zero = 0; spf_zero < N; spf_zero++)" in whole and "#pragma" not in whole
    assert "#pragma omp parallel for schedule(static) num_threads(spf_team_for(N))" in zeroed(
        OutputZeroing(parallel=True))
    nest = spmv()
    nest.zero_rows = RowZeroing("y", Name("N"), ())
    rows = zeroed(OutputZeroing(nest, (Constraint(Affine.of("N"), ">", Affine.of(0)),)))
    assert "spf_reached_from" in rows and "if (N > 0)" in rows and "spf_zero < N" not in rows


def test_a_scalar_reduction_uses_the_clause_the_loop_names():
    nest = spmv(scalar="s")
    nest.parallel = True
    assert "reduction" not in printed([nest], "s")
    nest.reduction = "clause"
    text = printed([nest], "s")
    assert "#pragma omp parallel for schedule(dynamic,32) reduction(+: s_sum)" in text
    assert "s_sum += val[k] * x[j];" in text


def test_privatized_reduction_prints_per_thread_copies():
    nest = spmv()
    nest.parallel = True
    nest.reduction = "privatize"
    text = printed([nest], output_extent=("y", ident("N")))
    assert "calloc" in text and "spf_thread()" in text and "free(copies_1)" in text
    assert "#pragma omp for schedule(dynamic,32)" in text
    nest.reduction = "atomic"
    atomic = printed([nest], output_extent=("y", ident("N")))
    assert "calloc" not in atomic and "#pragma omp atomic" in atomic
    nest.reduction = None
    plain = printed([nest], output_extent=("y", ident("N")))
    assert "calloc" not in plain and "atomic" not in plain


def dense_times_dense() -> Loop:
    """C[i, c] += val[k] * B[j, c], c inside k: a jammed loop's inner loop reads B down a column."""
    compute = Compute(("C", (Name("i"), Name("c")), (Name("N"), Name("K"))),
                      [("val", (Name("k"),), (Name("NNZ"),)), ("B", (Name("j"), Name("c")), (Name("M"), Name("K")))])
    inner = Loop("c", [Bound(Affine.of(0))], [Bound(Affine.of("K") - 1)], [compute])
    middle = Loop("k", [Bound(at("rowptr", "i"))], [Bound(at("rowptr", "i", 1) - 1)],
                  [Assign("j", UFCall("col", (Affine.of("k"),))), inner])
    return Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)], [middle])


def test_transposed_copy_is_made_at_the_reuse_the_loop_says():
    nest = dense_times_dense()
    nest.transposed = (Transposition("B", (Name("M"), Name("K")), nest, "rowptr", reuse=8),)
    text = printed([nest])
    assert "spf_reads >= (((int64_t) 8) * K)" in text and "spf_malloc_large" in text
    assert "spf_read_B[(j * spf_B_row_stride) + (c * spf_B_column_stride)]" in text
    assert "free(spf_B_transposed)" not in text  # (the epilogue frees it when the call returns)
    nest.transposed = ()
    plain = printed([nest])
    assert "spf_read_B" not in plain and "B[(j * K) + c]" in plain


def test_a_jammed_loop_prints_its_lanes():
    nest = spmv()
    inner = nest.body[0]
    inner.register_sum = RegisterSum(target=inner.body[1], repeated=[], hoisted=set())
    nest.body = [Assign("p", Affine.of("i")), inner]  # a jammed loop: assignments, then the register sum
    nest.jam = 4
    text = printed([nest])
    assert "i_lane3" in text and "spf_jam_1 += 4" in text
    nest.jam = 1
    assert "_lane" not in printed([nest])


def rows_nest(arms: int = 2, opens_group: bool = True, grouped: bool = True) -> Loop:
    """Rows of an assembled output: for i: merge of ``arms`` terms' loops over column j."""
    merge_arms = []
    for number in range(arms):
        pointer, position = ("rowptr", "colptr", "rowptr")[number], f"k{number}"
        append = Compute(None, [("val", (Name(position),), (Name("NNZ"),))], stream=("i", "j"), grouped=grouped)
        loop = Loop(position, [Bound(at(pointer, "i"))], [Bound(at(pointer, "i", 1) - 1)],
                    [Assign("j", UFCall(("col", "row", "rows2")[number], (Affine.of(position),))), append])
        merge_arms.append(MergeArm([loop], loop))
    return Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)], [Merge("j", merge_arms)],
                opens_group=opens_group)


ROWS = dict(appends=True, rows_outer="i", stream_type="spf_rows", workspace="spf_workspace_add_rows")


def test_a_row_group_opens_where_the_loop_says():
    text = printed([rows_nest()], **ROWS)
    assert "spf_cursor_open(&spf_my_cursor, spf_my_stream, i);" in text
    assert "spf_cursor_put(&spf_my_cursor, spf_my_stream, j, val[k0]);" in text
    ungrouped = printed([rows_nest(opens_group=False, grouped=False)], **ROWS)
    assert "spf_cursor_open" not in ungrouped
    assert "spf_cursor_add(&spf_my_cursor, spf_my_stream, i, j, val[k0]);" in ungrouped


def test_an_entry_is_appended_only_where_its_padded_factors_are_not_zero():
    nest = rows_nest(arms=1)
    (merge,) = nest.body
    loop = merge.arms[0].loop
    loop.body[-1].factors.append(("x", (Name("j"),), (Name("M"),)))
    nest.body = [loop]  # one term: no merge
    plain = printed([nest], **ROWS)
    assert "spf_cursor_put(&spf_my_cursor, spf_my_stream, j, val[k0] * x[j]);" in plain and "!= 0.0" not in plain
    loop.body[-1].padded = ("x",)
    assert "if (x[j] != 0.0)" in printed([nest], **ROWS)
    assert "where x is not 0" in render([nest])


def test_a_workspace_group_opens_where_the_loop_says():
    state = dict(ROWS, appends=False)
    text = printed([rows_nest()], **state)
    assert "spf_workspace_hand_group_rows(&spf_my_hand, spf_my_accumulator, spf_my_stream, i);" in text
    assert "spf_workspace_hand_put(&spf_my_hand, j, val[k0]);" in text
    ungrouped = printed([rows_nest(opens_group=False, grouped=False)], **state)
    assert "spf_workspace_add_rows(spf_my_accumulator, spf_my_stream, i, j, val[k0]);" in ungrouped


def test_merge_steps_are_printed_as_the_merge_says():
    nest = rows_nest()
    (merge,) = nest.body
    compared = printed([nest], **ROWS)
    assert "while ((spf_merge_1_at0 <= spf_merge_1_high0) && (spf_merge_1_at1 <= spf_merge_1_high1))" in compared
    assert "spf_masked" not in compared and "spf_held" not in compared and "spf_cursor_push" not in compared
    merge.arms[0].pushes = True
    assert "spf_cursor_push(&spf_my_cursor, spf_my_stream, j, val[k0]);" in printed([nest], **ROWS)
    merge.steps = "held"
    held = printed([nest], **ROWS)
    assert "spf_held = val[k0];" in held and "spf_held += val[k1];" in held
    assert "spf_cursor_push(&spf_my_cursor, spf_my_stream, spf_merge_1_key0, spf_held);" in held
    merge.steps = "branchless"
    branchless = printed([nest], **ROWS)
    assert "spf_masked(spf_merge_1_key0_term, spf_take0)" in branchless and "spf_held" not in branchless
    assert "spf_n += spf_value != 0.0;" in branchless
    assert "spf_n += 1;" in printed([nest], drop_zeros=False, **ROWS)


def test_a_merge_steps_by_the_least_key_where_it_says():
    nest = rows_nest(arms=3)
    nest.body[0].steps = "least"
    text = printed([nest], **ROWS)
    assert "INT64_MAX" in text and "spf_merge_1_least" in text and "spf_merge_1_key2" in text
    two = rows_nest(arms=2)
    assert "INT64_MAX" not in printed([two], **ROWS)
    two.body[0].steps = "least"
    assert "spf_merge_1_least" in printed([two], **ROWS)


def test_a_merge_of_three_terms_cannot_step_as_two():
    with pytest.raises(SpfError, match="merge of 3 terms cannot step as 'compare'"):
        printed([rows_nest(arms=3)], **ROWS)


def test_find_prints_its_template():
    body = [Compute(("y", (Name("i"),), (Name("N"),)), [("val", (Name("q"),), (Name("NNZ"),))])]
    find = Find("q", "jq", UFCall("col", (Affine.of("q"),)), Affine.of("i"),
                [Bound(Affine.of(0))], [Bound(Affine.of("NNZ") - 1)], FindChoice("binary"), body)
    text = printed([find])
    assert "while (lo_1 < hi_2)" in text and "if ((lo_1 < end_5) && (col[lo_1] == key_3))" in text
    find.template = FindChoice("binary", multiple=True)
    assert "for (int64_t p_6 = lo_1; (p_6 < end_5) && (col[p_6] == key_3); p_6++)" in printed([find])


def two_phase(chunks: Chunks) -> str:
    """The C of a two-phase kernel over ``chunks`` (a parallel loop split per thread)."""
    emitter = Emitter(Names(dict(ARRAYS)), None, {})
    plan = SimpleNamespace(outer="i", inner="j", trusted=False)
    assembly = AssembledOutput("spf_out", 5, True, 8, two_phase=plan, rows_extent="N", count_nodes=([chunks],))
    scans = [SimpleNamespace(nodes=[chunks], entry_guards=[])]

    def emit_nests(count: bool = False) -> list:
        return emitter.nodes([chunks])

    items = two_phase_kernel(assembly, emitter, emit_nests, "out", True, scans)
    return c_generator.CGenerator().visit(c_ast.Compound(items))


def chunked_rows(**decisions) -> Chunks:
    append = Compute(None, [("val", (Name("k"),), (Name("NNZ"),))], stream=("j", "i"))
    inner = Loop("k", [Bound(at("rowptr", "i"))], [Bound(at("rowptr", "i", 1) - 1)],
                 [Assign("j", UFCall("col", (Affine.of("k"),))), append])
    loop = Loop("i", [Bound(Affine.of("spf_first"))], [Bound(Affine.of("spf_last"))], [inner])
    return Chunks([Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)], [loop], variable="i", **decisions)


def test_two_phase_chunks_are_cut_as_the_chunks_say():
    text = two_phase(chunked_rows(pointer=UFCall("rowptr", (Affine.of("i"),)), least_iterations=100,
                                  counters_log2=20))
    assert "((int64_t) 1) << 20" in text and "< (100 * spf_team)" in text
    assert "spf_work += rowptr[i];" in text and "spf_cuts[spf_k] = spf_low;" in text
    assert "spf_my[i + 1]++;" in text and "spf_keys[spf_at] = (spf_key) j;" in text
    counted = two_phase(chunked_rows())
    assert "((int64_t) 1) << 26" in counted and "< (2048 * spf_team)" in counted
    assert "spf_work += rowptr" not in counted and "spf_low" not in counted


def test_explain_shows_the_decisions():
    nest = rows_nest()
    nest.body[0].steps = "branchless"
    nest.body[0].arms[1].pushes = True
    shown = render([nest])
    assert "loop i: each iteration opens row i's group" in shown
    assert "steps without a branch" in shown and "term 2 (pushes each key" in shown
    assert "to its row's group" in shown
    nest.body[0].steps = "least"
    assert "each step runs the terms at the least key" in render([nest])
    nest.opens_group = False
    assert "opens" not in render([nest])
    assign = Assign("i", Affine.of("p"), opens_group=True)
    assert "(opens row i's group)" in render([assign])
    assert "opens" not in render([Assign("i", Affine.of("p"))])
