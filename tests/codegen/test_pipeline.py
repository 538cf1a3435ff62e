"""The compiler as a chain of passes (spf/codegen/pipeline.py): which passes, in which order,
each verified after it runs; compile_kernel's refusals, its output (a plain CompiledKernel)
and its cache; a fused candidate lowered first, then the same passes.  (That the verifier
names a pass that breaks a nest is tests/codegen/test_verify.py's.)"""

from __future__ import annotations

import dataclasses

import pytest

import spf
import spf.codegen.pipeline as pipeline
from spf.codegen.compiled import CompiledKernel
from spf.codegen.pipeline import PASSES, Compilation, Options, compile_kernel, run_passes
from spf.errors import RecipeError, SpfError

SPMV = "y(i) = A(i,j) * x(j)"
CSR_DENSE = {"A": "CSR", "x": "Dense", "y": "Dense"}
CSR_SV = {"A": "CSR", "x": "SV", "y": "Dense"}


def names(passes) -> list[str]:
    return [step.__name__ for step in passes]


def test_the_passes_run_from_the_space_to_the_c():
    assert names(PASSES) == [
        "build_space", "plan_output_assembly", "check_semiring", "check_value_type", "synthesize_finds",
        "enumerate_variants", "parallelize",
        "fuse_nests", "merge_terms_by_coordinate", "guard_tiles", "drop_masks", "remove_dead_code", "fold_zeroing", "jam_loops",
        "mark_padded_factors", "choose_assembly", "place_find_states", "sum_in_registers",
        "mark_independent_iterations", "cut_parallel_loops", "plan_rows", "plan_zeroing", "mask_lookups", "stop_terminal_sums",
        "split_sums", "exit_exhausted_finds", "specialize_extents", "emit"]
    assert all(getattr(pipeline, step.__name__) is step for step in PASSES)  # each a public function of the module


def test_the_order_respects_what_each_pass_needs():
    order = names(PASSES)

    def before(first: str, second: str) -> bool:
        return order.index(first) < order.index(second)

    assert order[0] == "build_space" and order[-1] == "emit"  # the space first, the C last
    assert before("plan_output_assembly", "check_semiring")  # a semiring refuses an assembled output
    assert before("check_semiring", "synthesize_finds")  # and refuses it before any work is done
    assert before("synthesize_finds", "enumerate_variants")  # variants combine the proven finds
    assert before("enumerate_variants", "parallelize")  # each variant's nests are parallelized
    assert before("parallelize", "cut_parallel_loops")  # only parallel loops are cut
    assert before("merge_terms_by_coordinate", "remove_dead_code")  # dead assignments go once the nests are rewritten
    assert before("guard_tiles", "remove_dead_code")
    assert before("enumerate_variants", "place_find_states")  # states start where each variant's finds are
    assert before("sum_in_registers", "mark_independent_iterations")  # a register sum's loop is not marked
    assert before("jam_loops", "mark_independent_iterations")  # nor a jammed one
    assert before("sum_in_registers", "split_sums") and before("jam_loops", "split_sums")  # register sums, not jammed
    # an exit needs the loop's final body and flags: row groups, jams, parallel pieces, zeroing blocks
    assert before("mark_independent_iterations", "specialize_extents")  # the loops it specialises are marked
    assert before("sum_in_registers", "mask_lookups")  # a masked term is a register sum's
    assert before("mask_lookups", "split_sums")  # a masked lookup's term is split as a plain one
    assert all(before(step, "exit_exhausted_finds") for step in
               ("parallelize", "jam_loops", "cut_parallel_loops", "plan_rows", "plan_zeroing", "place_find_states"))


def test_run_passes_runs_each_in_order_and_verifies_after_each(monkeypatch):
    events = []

    def step(label):
        def run(compilation):
            events.append(("run", label))
            return dataclasses.replace(compilation, source=compilation.source + label)
        run.__name__ = label
        return run

    monkeypatch.setattr(pipeline, "_check_nests", lambda compilation, after: events.append(("check", after)))
    result = run_passes(Compilation(SPMV, CSR_DENSE, Options()), [step("a"), step("b"), step("c")])
    assert events == [("run", "a"), ("check", "a"), ("run", "b"), ("check", "b"), ("run", "c"), ("check", "c")]
    assert result.source == "abc"  # each pass is given the compilation the one before returned


def test_a_compile_goes_through_every_pass_verified(monkeypatch):
    monkeypatch.setattr(pipeline, "lookup", lambda key: None)
    monkeypatch.setattr(pipeline, "store", lambda key, kernel: None)
    checked = []
    real = pipeline._check_nests
    monkeypatch.setattr(pipeline, "_check_nests", lambda c, after: (checked.append(after), real(c, after)))
    compile_kernel(SPMV, CSR_DENSE)
    assert checked == names(PASSES)


def test_compile_kernel_returns_a_frozen_keyword_only_description():
    kernel = compile_kernel(SPMV, CSR_DENSE)
    assert type(kernel) is CompiledKernel
    assert kernel.expression == SPMV and kernel.output == "y"
    assert set(kernel.tensors) == {"A", "x", "y"} and kernel.tensors["y"][2] and not kernel.tensors["A"][2]
    assert kernel.function_name and f"{kernel.function_name}(" in kernel.c_source
    assert len(kernel.scans) == 1 and kernel.scans[0].nodes  # one statement, its nest
    with pytest.raises(dataclasses.FrozenInstanceError):
        kernel.c_source = ""
    fields = {f.name: getattr(kernel, f.name) for f in dataclasses.fields(CompiledKernel)}
    with pytest.raises(TypeError):
        CompiledKernel(*fields.values())
    assert CompiledKernel(**fields) == kernel


def test_an_unknown_find_is_refused_naming_the_choices():
    with pytest.raises(SpfError, match=r"unknown find 'fastest'; choose one of auto, .*binary"):
        compile_kernel(SPMV, CSR_SV, find="fastest")


def test_a_recipe_for_another_expression_or_a_second_order_is_refused():
    other = spf.recipe(SPMV, CSR_DENSE)
    with pytest.raises(RecipeError, match="made for another expression"):
        compile_kernel(SPMV, CSR_SV, schedule=other)
    with pytest.raises(RecipeError, match="made for another expression"):
        compile_kernel("y(i) = A(i,j) * x(j) + y(i)", CSR_DENSE, schedule=other)
    ordered = spf.recipe(SPMV, CSR_DENSE).permute(*spf.recipe(SPMV, CSR_DENSE).variables)
    with pytest.raises(RecipeError, match="either as order= or in the recipe"):
        compile_kernel(SPMV, CSR_DENSE, schedule=ordered, order=ordered.order)


def test_a_schedule_that_is_neither_recipe_nor_candidate_is_refused():
    with pytest.raises(SpfError, match="schedule must be a recipe"):
        compile_kernel(SPMV, CSR_DENSE, schedule="i, j")


def test_the_kernel_cache_returns_an_equal_description_for_the_same_compile():
    first = compile_kernel(SPMV, CSR_SV, find="binary")
    again = compile_kernel(SPMV, CSR_SV, find="binary")
    assert again.cached in ("memory", "disk") and again.cache_key
    assert dataclasses.replace(again, cached="", codegen_seconds=0) == \
        dataclasses.replace(first, cached="", cache_key=again.cache_key, codegen_seconds=0)
    other = compile_kernel(SPMV, CSR_SV, find="linear")
    assert other.cache_key != again.cache_key and other.c_source != again.c_source


def test_a_fused_candidate_is_lowered_first_then_goes_through_the_same_passes(monkeypatch):
    from spf.codegen.fused import FusedKernel, lower_schedule
    candidate = spf.schedule("i, j : y(i) += A(i,j) * x(j)", SPMV, CSR_DENSE)
    seen = []
    real = pipeline.run_passes
    monkeypatch.setattr(pipeline, "run_passes", lambda c, passes: (seen.append(tuple(passes)), real(c, passes))[1])
    kernel = compile_kernel(SPMV, CSR_DENSE, schedule=candidate)
    (passes,) = seen
    assert passes == (lower_schedule, *PASSES)
    assert isinstance(kernel, FusedKernel) and isinstance(kernel, CompiledKernel)
    assert kernel.function_name and f"{kernel.function_name}(" in kernel.c_source
    with pytest.raises(SpfError, match="order= does not apply"):
        compile_kernel(SPMV, CSR_DENSE, schedule=candidate, order=("i", "j"))
