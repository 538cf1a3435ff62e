"""spf.codegen.passes.register_sum: which loops sum their terms in a register, and when the update waits for a term."""

from __future__ import annotations

from spf.codegen.loops import Assign, Bound, Compute, Loop, Merge, MergeArm
from spf.codegen.passes.register_sum import changing_in, fixed_target, mark_register_sums
from spf.layout_library.model import Name
from spf.space.expressions import Affine, UFCall


def spmv(**compute) -> Loop:
    """for i: for k in rowptr(i) .. rowptr(i+1)-1: j = col(k); y[i] += val[k] * x[j]."""
    write = Compute(("y", (Name("i"),), (Name("N"),)),
                    [("val", (Name("k"),), (Name("NNZ"),)), ("x", (Name("j"),), (Name("M"),))], **compute)
    inner = Loop("k", [Bound(Affine.of(UFCall("rowptr", (Affine.of("i"),))))],
                 [Bound(Affine.of(UFCall("rowptr", (Affine.of("i") + 1,))) - 1)],
                 [Assign("j", UFCall("col", (Affine.of("k"),))), write])
    return Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)], [inner])


def test_the_row_loop_of_spmv_sums_in_a_register():
    nest = spmv()
    mark_register_sums([nest])
    inner = nest.body[0]
    assert nest.register_sum is None and inner.register_sum is not None
    assert inner.register_sum.target is inner.body[1] and not inner.register_sum.counts_terms
    assert changing_in(inner) >= {"k", "j"} and "i" not in changing_in(inner)


def test_a_loop_whose_output_position_changes_sums_nothing():
    nest = spmv()
    nest.body[0].body[1].output = ("y", (Name("j"),), (Name("N"),))  # y[j]: changes with k
    mark_register_sums([nest])
    assert fixed_target(nest.body[0]) is None and nest.body[0].register_sum is None


def test_a_parallel_loop_is_not_a_register_sum_and_exact_writes_count_terms():
    nest = spmv()
    nest.body[0].parallel = True
    mark_register_sums([nest])
    assert nest.body[0].register_sum is None
    exact = spmv()
    exact.parallel = True  # no reduction: every write must be one of the space's updates
    mark_register_sums([exact])
    assert exact.body[0].register_sum.counts_terms


def test_an_appended_entry_waits_for_a_term():
    nest = spmv(stream=("i",))
    nest.body[0].body[1].output = None
    mark_register_sums([nest])
    assert nest.body[0].register_sum.counts_terms


def test_a_merge_arms_loop_is_stepped_by_the_merge():
    nest = spmv()
    inner = nest.body[0]
    nest.body = [Merge("j", [MergeArm([inner], inner)])]
    mark_register_sums([nest])
    assert inner.register_sum is None
