"""Mode orders (spf/scheduling/autoscheduler/mode_orders.py): which copies the search
proposes, the permuted problem a copy's candidates compute, and the conversion's work."""

from __future__ import annotations

import pytest

import spf
from spf.errors import AutoscheduleError
from spf.scheduling.autoscheduler.mode_orders import (check_orders, conversion_work, counting_problem,
                                                      mode_order_choices, permuted_problem, proposed_orders)
from spf.scheduling.autoscheduler.problem import make_problem

DENSE = {"A": "Dense", "C": "Dense", "D": "Dense"}
CHAIN = "R(i,j,k) = A(i,p,q) * B(j,p,r) * C(q,k,r) * D(j,k,r)"
CHAIN_LAYOUTS = {"R": "Dense", "A": "CSF3", "B": "CSF3", "C": "CSF3", "D": "CSF3"}


def test_output_indices_first():
    """MTTKRP of mode 1 from B stored (i,j,k): the copy stores j, the output's index, first."""
    problem = make_problem("A(j,a) = B(i,j,k) * C(i,a) * D(k,a)", {**DENSE, "B": "CSF3"})
    assert proposed_orders(problem, problem.factors[0]) == [(1, 0, 2)]
    assert mode_order_choices(problem) == [(("B", (1, 0, 2)),)]


def test_stored_order_that_already_fits_proposes_nothing():
    for expression in ["A(i,a) = B(i,j,k) * C(j,a) * D(k,a)", "A(l,m) = B(i,j,k) * C(i,l) * D(j,m)"]:
        problem = make_problem(expression, {**DENSE, "B": "CSF3"})
        assert mode_order_choices(problem) == []


def test_chain_copies_c_with_its_output_index_first():
    problem = make_problem(CHAIN, CHAIN_LAYOUTS)
    assert mode_order_choices(problem) == [(("C", (1, 0, 2)),)]
    permuted = permuted_problem(problem, (("C", (1, 0, 2)),))
    copy = next(f for f in permuted.factors if f.name == "C")
    assert copy.indices == ("k", "q", "r") and copy.levels == ("k", "q", "r")
    assert permuted.expression == "R(i,j,k) = A(i,p,q) * B(j,p,r) * C(k,q,r) * D(j,k,r)"
    assert make_problem(permuted.expression, CHAIN_LAYOUTS) == permuted
    counting = counting_problem(permuted, problem)
    assert next(f for f in counting.factors if f.name == "C").indices == ("q", "k", "r")


def test_opposite_orders_of_two_operands():
    """Two CSR operands storing i and j in opposite orders: each copied in the other's order."""
    problem = make_problem("y(i) = A(i,j) * B(j,i) * x(j)", {"y": "Dense", "A": "CSR", "B": "CSR", "x": "Dense"})
    choices = mode_order_choices(problem)
    assert (("A", (1, 0)),) in choices and (("B", (1, 0)),) in choices
    # with either copy one loop nest walks both (with the stored orders only through a temporary)
    generated = spf.autoschedule("y(i) = A(i,j) * B(j,i) * x(j)",
                                 {"y": "Dense", "A": "CSR", "B": "CSR", "x": "Dense"}).generated
    copies = {c.mode_orders for c in generated if not c.temporaries}
    assert (("A", (1, 0)),) in copies and (("B", (1, 0)),) in copies and () not in copies


def test_conversion_work_is_amortised_over_calls():
    work = conversion_work((("B", (1, 0, 2)),))
    assert work.evaluate({"c_convert": 2.0, "nnz_B": 10.0, "calls": 4.0}) == 5.0
    assert conversion_work(()).is_zero()


def test_check_orders_refuses_what_is_not_a_permutation():
    problem = make_problem("A(j,a) = B(i,j,k) * C(i,a) * D(k,a)", {**DENSE, "B": "CSF3"})
    assert check_orders(problem, (("B", (0, 1, 2)),)) == ()
    with pytest.raises(AutoscheduleError, match="not a permutation"):
        check_orders(problem, (("B", (0, 0, 2)),))
    with pytest.raises(AutoscheduleError, match="C is not a sparse input"):
        check_orders(problem, (("C", (1, 0)),))


def test_autoschedule_options():
    expression, layouts = "A(j,a) = B(i,j,k) * C(i,a) * D(k,a)", {**DENSE, "B": "CSF3"}
    assert not any(c.mode_orders for c in spf.autoschedule(expression, layouts, mode_orders=False).generated)
    assert any(c.mode_orders == (("B", (1, 0, 2)),)
               for c in spf.autoschedule(expression, layouts, mode_orders={"B": (1, 0, 2)}).generated)
    with pytest.raises(AutoscheduleError, match="calls must be a positive integer"):
        spf.autoschedule(expression, layouts, calls=0)
    with pytest.raises(AutoscheduleError, match="mode_orders must be"):
        spf.autoschedule(expression, layouts, mode_orders="yes")
    with pytest.raises(AutoscheduleError, match="permutations such as"):
        spf.autoschedule(expression, layouts, mode_orders={"B": 3})


def test_more_calls_favour_the_copy():
    """The copy's candidates cost the conversion over ``calls``: with many calls the model's
    order puts a copy's candidate within reach of the stored order's, with one call far behind."""
    expression, layouts = "A(j,a) = B(i,j,k) * C(i,a) * D(k,a)", {**DENSE, "B": "CSF3"}
    sizes = {"I": 1000, "J": 1000, "K": 100, "A": 32, "nnz_B_i": 900, "nnz_B_ij": 20000, "nnz_B": 40000,
             "sparsity_B": 4e-4, "nnz_B_j": 950, "nnz_B_ji": 20000}

    def copy_gap(calls):
        ranked = spf.autoschedule(expression, layouts, calls=calls).rank(sizes=sizes)
        stored = min(p for c, p in ranked if not c.mode_orders)
        copied = min(p for c, p in ranked if c.mode_orders)
        return copied - stored

    assert copy_gap(1) > copy_gap(1000)
    del sizes["nnz_B_j"], sizes["nnz_B_ji"]  # sizes without the copy's counts price the stored orders only
    assert not any(c.mode_orders for c, _ in spf.autoschedule(expression, layouts).rank(sizes=sizes))
