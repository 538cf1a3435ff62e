"""spf.codegen.assembly.rows: where a row's group opens and how a merge of a sum's terms steps."""

from __future__ import annotations

from spf.codegen.assembly.rows import plan_row_appends
from spf.codegen.loops import Assign, Bound, Compute, Guard, Loop, Merge, MergeArm
from spf.layout_library.model import Name
from spf.space.expressions import Affine, Constraint, UFCall


def arm(number: int, values: str = "val", guarded: bool = False) -> MergeArm:
    position = f"k{number}"
    append = Compute(None, [(values, (Name(position),), (Name("NNZ"),))], stream=("i", "j"),
                     padded=(values,) if values == "dense" else ())
    body = [Assign("j", UFCall("col", (Affine.of(position),))), append]
    if guarded:
        body = [Guard([Constraint(Affine.of("j"), ">=", Affine.of(0))], body)]
    loop = Loop(position, [Bound(Affine.of(UFCall("rowptr", (Affine.of("i"),))))],
                [Bound(Affine.of(UFCall("rowptr", (Affine.of("i") + 1,))) - 1)], body)
    return MergeArm([loop], loop)


def rows(*arms: MergeArm) -> Loop:
    merge = Merge("j", list(arms), "compare" if len(arms) == 2 else "least")
    return Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)], [merge])


def computes(nest: Loop) -> list[Compute]:
    return [a.loop.body[-1] for a in nest.body[0].arms]


def test_appended_rows_of_two_plain_terms_merge_without_branches():
    nest = rows(arm(0), arm(1))
    plan_row_appends([[nest]], "i", True)
    merge = nest.body[0]
    assert nest.opens_group and all(c.grouped for c in computes(nest))
    assert merge.steps == "branchless" and all(a.pushes for a in merge.arms)


def test_a_padded_second_term_is_summed_in_a_register():
    nest = rows(arm(0), arm(1, values="dense"))
    plan_row_appends([[nest]], "i", True)
    assert nest.body[0].steps == "held"


def test_a_padded_or_guarded_first_term_compares():
    for first in (arm(0, values="dense"), arm(0, guarded=True)):
        nest = rows(first, arm(1))
        plan_row_appends([[nest]], "i", True)
        assert nest.body[0].steps == "compare"


def test_a_workspace_groups_rows_but_neither_pushes_nor_merges_without_branches():
    nest = rows(arm(0), arm(1))
    plan_row_appends([[nest]], "i", False)
    merge = nest.body[0]
    assert nest.opens_group and all(c.grouped for c in computes(nest))
    assert merge.steps == "compare" and not any(a.pushes for a in merge.arms)


def test_three_terms_step_by_the_least_key():
    nest = rows(arm(0), arm(1), arm(2))
    plan_row_appends([[nest]], "i", True)
    assert nest.body[0].steps == "least"
    assert all(a.pushes for a in nest.body[0].arms)


def test_no_group_where_a_parallel_loop_lies_between_the_row_and_its_entries():
    inner = rows(arm(0), arm(1))
    inner.variable, inner.parallel = "r", True
    nest = Loop("i", [Bound(Affine.of(0))], [Bound(Affine.of("N") - 1)], [inner])
    plan_row_appends([[nest]], "i", True)
    assert not nest.opens_group and not any(c.grouped for c in computes(inner))
    assert inner.body[0].steps == "compare"


def test_no_group_when_another_statement_appends_outside_the_row():
    nest = rows(arm(0), arm(1))
    stray = Compute(None, [("val", (Name("k"),), (Name("NNZ"),))], stream=("i", "j"))
    plan_row_appends([[nest], [stray]], "i", True)
    assert not nest.opens_group and not stray.grouped and nest.body[0].steps == "compare"
