"""Timing the closest candidates (spf.runtime.schedule_trials, AutoSchedule.select(measure=)):
the winner is one of them and computes the product, it is remembered on disk for
operands of similar sizes and read back without timing, and bad requests are refused."""

from __future__ import annotations

import numpy as np
import pytest

import spf
from spf.errors import AutoscheduleError
from spf.runtime import autoschedule as autoschedule_module
from spf.runtime.schedule_trials import contenders, size_bucket, trial_key

K6 = "A(i,l,m) = B(i,j,k) * C(j,l) * D(k,m)"
K6_LAYOUTS = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}


def _operands(seed: int = 0, shape=(12, 9, 14), d: int = 8, density: float = 0.2):
    generator = np.random.default_rng(seed)
    dense_b = generator.random(shape) * (generator.random(shape) < density)
    coordinates = np.argwhere(dense_b)
    b = spf.pack("CSF3", (coordinates, dense_b[tuple(coordinates.T)], shape), name="B")
    c, d_ = generator.random((shape[1], d)), generator.random((shape[2], d))
    return dense_b, {"B": b, "C": c, "D": d_}


@pytest.fixture
def trials_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("SPF_CACHE_DIR", str(tmp_path))
    return tmp_path


def test_the_measured_winner_is_a_contender_and_computes_the_product(trials_folder):
    dense_b, operands = _operands()
    result = spf.autoschedule(K6, K6_LAYOUTS)
    closest = contenders(result.rank(**operands))
    assert len(closest) >= 2, "the test needs candidates the model cannot tell apart"
    winner = result.select(measure=True, **operands)
    assert str(winner.schedule) in {str(c.schedule) for c in closest}
    assert set(result.last_selection.measured) <= {str(c.schedule) for c in closest}
    assert len(result.last_selection.measured) >= 1
    kernel = spf.compile(K6, K6_LAYOUTS, schedule=winner)
    got = np.asarray(kernel(**operands))
    np.testing.assert_allclose(got, np.einsum("ijk,jl,km->ilm", dense_b, operands["C"], operands["D"]))
    assert list(trials_folder.glob("schedule-trial-*.json"))


def test_a_remembered_winner_is_read_without_timing(trials_folder, monkeypatch):
    _, operands = _operands()
    first = spf.autoschedule(K6, K6_LAYOUTS).select(measure=True, **operands)
    monkeypatch.setattr(autoschedule_module, "time_candidates",
                        lambda *a, **k: pytest.fail("timed again though the winner was remembered"))
    again = spf.autoschedule(K6, K6_LAYOUTS).select(measure=True, **operands)
    assert str(again.schedule) == str(first.schedule)


def test_the_key_separates_parallel_variants_and_size_buckets():
    result = spf.autoschedule(K6, K6_LAYOUTS)
    candidates = result.candidates[:2]
    sizes = {"I": 100, "J": 40}
    assert trial_key("e", candidates, sizes, False) == trial_key("e", candidates, dict(sizes), False)
    assert trial_key("e", candidates, sizes, False) != trial_key("e", candidates, sizes, True)
    assert trial_key("e", candidates, sizes, False) != trial_key("e", candidates, {"I": 400, "J": 40}, False)
    assert size_bucket({"I": 100}) == size_bucket({"I": 105})


@pytest.mark.parametrize("measure", [0, -1.0, "yes", None])
def test_a_bad_budget_is_refused(measure):
    _, operands = _operands()
    with pytest.raises(AutoscheduleError, match="measure"):
        spf.autoschedule(K6, K6_LAYOUTS).select(measure=measure, **operands)


def test_measuring_needs_the_operands():
    result = spf.autoschedule(K6, K6_LAYOUTS)
    sizes = {"I": 12, "J": 9, "K": 14, "L": 8, "M": 8, "nnz_B_i": 12, "nnz_B_ij": 80, "nnz_B": 300}
    with pytest.raises(AutoscheduleError, match="operands"):
        result.select(sizes=sizes, measure=True)


def test_each_candidate_is_warmed_once_then_timed_in_blocks_within_the_budget():
    from spf.runtime.schedule_trials import ROUNDS, time_candidates

    result = spf.autoschedule(K6, K6_LAYOUTS)
    candidates = result.candidates[:2]
    counts = {str(c.schedule): 0 for c in candidates}

    def call_of(candidate):
        def call():
            counts[str(candidate.schedule)] += 1
        return call

    times = time_candidates(candidates, call_of, budget=1e-12)  # no budget: the warm-up calls alone
    assert set(times) == set(counts) and all(n == 1 for n in counts.values())
    times = time_candidates(candidates, call_of, budget=60.0)
    # a call that does nothing is timed in blocks of many calls, every round
    assert all(n > 1 + ROUNDS for n in counts.values()), counts
    assert all(t >= 0 for t in times.values())


def test_select_times_the_closest_candidates_by_default_where_the_model_is_unsure(trials_folder, monkeypatch):
    _, operands = _operands()
    result = spf.autoschedule(K6, K6_LAYOUTS)
    assert len(contenders(result.rank(**operands))) >= 2
    monkeypatch.setenv("SPF_MEASURE", "never")  # as the tests run: the model's pick, nothing timed
    assert str(result.select(**operands).schedule) == str(result.rank(**operands)[0][0].schedule)
    assert not result.last_selection.measured
    monkeypatch.delenv("SPF_MEASURE")
    winner = result.select(**operands)
    assert result.last_selection.measured and str(winner.schedule) in result.last_selection.measured
    assert result.select(sizes=result.sizes(**operands)) is not None  # sizes alone: nothing to time, the model's


def test_a_candidate_that_cannot_run_is_left_out_of_the_timing():
    from spf.errors import OutOfMemoryError
    from spf.runtime.schedule_trials import time_candidates

    candidates = spf.autoschedule(K6, K6_LAYOUTS).candidates[:3]
    refused = str(candidates[0].schedule)

    def call_of(candidate):
        if str(candidate.schedule) == refused:
            raise OutOfMemoryError("its temporaries do not fit")
        return lambda: None

    assert set(time_candidates(candidates, call_of, budget=0.05)) == {str(c.schedule) for c in candidates[1:]}

    def nothing_runs(candidate):
        raise OutOfMemoryError("its temporaries do not fit")

    assert time_candidates(candidates, nothing_runs, budget=0.05) == {}


def test_select_keeps_the_models_pick_where_no_candidate_can_be_timed(trials_folder, monkeypatch):
    _, operands = _operands()
    result = spf.autoschedule(K6, K6_LAYOUTS)
    monkeypatch.setattr(autoschedule_module, "time_candidates", lambda *a, **k: {})
    chosen = result.select(measure=True, **operands)
    assert str(chosen.schedule) == str(result.rank(**operands)[0][0].schedule)
