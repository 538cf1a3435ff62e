"""The work model (spf.scheduling.autoscheduler.machine_cost): what it charges each loop
and body for, that the search composes it as the tree computes it, and that it keeps
and prefers the vector-temporary schedules iteration counts cannot tell apart."""

from __future__ import annotations

import pytest

import spf
from spf.scheduling.autoscheduler.cost import Cost
from spf.scheduling.autoscheduler.machine_cost import (DEFAULT_CONSTANTS, MISS, SCALAR, STREAM, STRIDED, VECTOR,
                                                       WALK, body_work, miss_symbol, seconds, swept_indices, walk_work,
                                                       work_cost)
from spf.scheduling.autoscheduler.problem import Operand

K6 = "A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)"
K6_LAYOUTS = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
VECTOR_TEMPORARY = "i, j < T_BD(m) ; k, m : T_BD(m) += B(i,j,k) * D(k,m) , l, m : A(i,l,m) += T_BD(m) * C(j,l) >"
SCALAR_TEMPORARY = "i, j, m < T_BD() ; k : T_BD() += B(i,j,k) * D(k,m) , l : A(i,l,m) += T_BD() * C(j,l) >"
# umls-like: 135 x 46 x 135, 6529 nonzeros in 1,200 (i,j) fibres, d = 128
UMLS = {"I": 135, "J": 46, "K": 135, "L": 128, "M": 128, "nnz_B_i": 135, "nnz_B_ij": 1200, "nnz_B": 6529}


def _terms(cost: Cost) -> dict[tuple, int]:
    return {monomial: coefficient for monomial, coefficient in cost.terms}


def test_a_dense_unit_stride_body_that_writes_its_target_is_a_vector_iteration():
    """Y(i,m) += X(k,m) over i, k, m: vectorised; between two uses of a Y element the m
    loop sweeps Y (k reuses it), between two uses of an X element k and m sweep X."""
    target = Operand("Y", ("i", "m"))
    x = Operand("X", ("k", "m"))
    assert body_work(("i", "k", "m"), target, (x,), walks=False) == Cost.of([VECTOR]) + Cost.of([STREAM, miss_symbol("m")]) \
        + Cost.of([STREAM, miss_symbol("km")])


def body_work_by_definition(loops, target, factors, walks, bound=()) -> Cost:
    """A body's work operand by operand: a vector iteration when nothing walks, the target
    moves with unit stride and no dense operand is strided nor sparse one moves; each
    strided operand; each moving dense operand's stream over what its loops sweep."""
    if not loops:
        return Cost.of([SCALAR])
    inner, path = loops[-1], tuple(bound) + tuple(loops)
    dense = [o for o in (target, *factors) if not o.sparse]
    moving = [o for o in dense if inner in o.indices]
    strided = [o for o in moving if o.indices[-1] != inner]
    vector = not walks and target.indices[-1:] == (inner,) and not strided and \
        not any(o.sparse and inner in o.indices for o in factors)
    work = Cost.of([VECTOR if vector else SCALAR])
    for _ in strided:
        work = work + Cost.of([STRIDED])
    for operand in moving:
        work = work + Cost.of([STREAM, miss_symbol(swept_indices(operand, path))])
    return work


def test_body_work_from_what_it_reads_is_the_definition():
    """body_work, computed from body_reads (what the search prices bodies by), charges every
    path of loops as the operand-by-operand definition does."""
    import itertools
    target = Operand("Y", ("i", "m"))
    factors = (Operand("X", ("k", "m")), Operand("W", ("m", "k", "j")), Operand("V", ("j",)),
               Operand("B", ("i", "j", "k"), levels=("i", "j", "k"), dense_levels=(True, False, False)))
    for length in range(0, 5):
        for path in itertools.permutations("ijkm", length):
            for split in range(len(path) + 1):
                for walks in (False, True):
                    bound, loops = path[:split], path[split:]
                    assert body_work(loops, target, factors, walks, bound) == \
                        body_work_by_definition(loops, target, factors, walks, bound)


def test_the_sweep_between_reuses_includes_the_enclosing_loops_inside_the_reusing_one():
    """A(l,m,n) in ``i, m < ... , l, n : A(l,m,n) += ...``: i reuses A, and between two of its
    iterations m, l and n sweep all of A; with the reusing loop j inside l (``l, j, m, n``),
    only the m, n slab."""
    a = Operand("A", ("l", "m", "n"))
    assert swept_indices(a, ("i", "m", "l", "n")) == ["m", "l", "n"]
    assert swept_indices(a, ("l", "j", "m", "n")) == ["m", "n"]
    assert swept_indices(a, ("l", "m", "n")) == ["l", "m", "n"]  # no reuse: each element once
    assert swept_indices(a, ("i", "j")) == []


def test_a_reduction_into_a_scalar_is_a_scalar_iteration_and_a_strided_read_costs_more():
    target = Operand("T", ())
    x = Operand("X", ("k", "m"))  # moves with stride M along k
    work = body_work(("k",), target, (x,), walks=True)
    assert _terms(work)[((SCALAR, 1),)] == 1
    assert _terms(work)[((STRIDED, 1),)] == 1
    assert ((VECTOR, 1),) not in _terms(work)


def test_a_compressed_level_is_charged_at_every_iteration_a_dense_one_is_not():
    problem = spf.autoschedule("y(i) = A(i,j) * x(j)", {"y": "Dense", "A": "CSR", "x": "Dense"}).problem
    tree = spf.schedule("i, j : y(i) += A(i,j) * x(j)", "y(i) = A(i,j) * x(j)",
                        {"y": "Dense", "A": "CSR", "x": "Dense"}).schedule
    work = _terms(work_cost(tree, [f.name for f in problem.factors]))
    assert work[(("c_walk", 1), ("nnz_A", 1))] == 1  # the row level is dense: no walk over I
    assert not any(symbol == WALK and ("I", 1) in monomial for monomial in work for symbol, _ in monomial)


def test_the_search_composes_the_work_the_tree_computes():
    result = spf.autoschedule(K6, K6_LAYOUTS)
    order = [f.name for f in result.problem.factors]
    assert result.generated
    for candidate in result.generated:
        assert candidate.work == work_cost(candidate.schedule, order), str(candidate.schedule)


def test_the_vector_temporary_survives_and_is_predicted_faster_than_the_scalar_one():
    result = spf.autoschedule(K6, K6_LAYOUTS)
    texts = {str(c.schedule): c for c in result.candidates}
    vector, scalar = spf.schedule(VECTOR_TEMPORARY, K6, K6_LAYOUTS), spf.schedule(SCALAR_TEMPORARY, K6, K6_LAYOUTS)
    assert str(vector.schedule) in texts  # iteration counts tie; memory alone used to drop it
    assert vector.time == scalar.time
    cache = 512 * 1024
    assert seconds(vector.work, UMLS, DEFAULT_CONSTANTS, cache) < seconds(scalar.work, UMLS, DEFAULT_CONSTANTS, cache) / 4
    assert str(result.select(sizes=UMLS).schedule) == str(vector.schedule)


def test_a_sweep_larger_than_the_cache_streams():
    work = Cost.of([STREAM, miss_symbol("lmn")]) + Cost.of([VECTOR])
    sizes = {"L": 128, "M": 128, "N": 128}
    constants = dict(DEFAULT_CONSTANTS)
    small = seconds(work, sizes, constants, cache_bytes=64 * 2**20)
    large = seconds(work, sizes, constants, cache_bytes=2**20)
    assert small == pytest.approx(constants[VECTOR])
    assert large == pytest.approx(constants[VECTOR] + constants[STREAM])
    assert miss_symbol("nml").startswith(MISS) and miss_symbol("nml") == miss_symbol("lmn")


def test_a_walk_s_trips_are_the_product_of_its_loops_trips():
    """walk_work builds its trips as one monomial: the product loop_trips multiplies loop by
    loop, for every valid order of loops and level state."""
    import itertools
    from spf.scheduling.autoscheduler.tree import loop_trips
    b = Operand("B", ("i", "j", "k"), levels=("i", "j", "k"), dense_levels=(True, False, False))
    c = Operand("C", ("j", "k", "l"), levels=("j", "k", "l"), dense_levels=(False, False, False))
    for sparse in ([], [b], [b, c]):
        for length in range(5):
            for loops in itertools.permutations("ijklm", length):
                for state in ({}, {"B": 1}, {"B": 1, "C": 1}):
                    try:
                        trips, _ = loop_trips(loops, sparse, state)
                    except spf.errors.ScheduleError:
                        continue
                    assert walk_work(loops, sparse, state)[1] == trips
