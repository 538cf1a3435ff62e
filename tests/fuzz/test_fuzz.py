"""The differential fuzzer (tests/fuzz/fuzz_cases.py, tests/fuzz/fuzz_harness.py, tests/fuzz/fuzz.py).

1. The short profile: a few hundred (kernel, data) cases drawn with a fixed seed, every
   variant of every kernel compared with numpy.einsum, parallel kernels on data that
   spans several OpenMP chunks with two threads, repeated, sparse outputs spf assembles
   checked for their layout, fields and stored entries; no case may be wrong, crash,
   hang, raise something other than an SpfError, or fail to compile.
2. The generator: deterministic in its seed, covering every built-in layout, every find
   policy, orders, recipes, autoscheduled candidates and parallel kernels; its data fits
   the layouts (LOWER_TRI, WARP24) and the oracle masks shared outputs.
3. The harness sees each class of failure: a wrong value, a dead worker (the results
   before it kept, the data after it run), a hung worker, a slow one, C that does not
   compile, a refusal; its workers run OpenMP with two threads beside a busy process;
   minimization drops what a failure does not need; its reproducers run.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time
from dataclasses import replace

import numpy as np
import pytest

import spf
from fuzz_cases import (CACHE_DAMAGE, CACHE_ENTRIES, FAMILIES, FINDS, LOWER_OUTPUTS, MATRIX_OUTPUTS, SPARSE_VECTORS, TENSOR3_OUTPUTS,
                        TENSOR4_OUTPUTS, USER_LAYOUTS, Case, DataSpec, KernelSpec, accesses, assembled_output, cancellable,
                        generate, inferred_source, make_data, plan_schedule)
from spf.runtime.assemble import has_assembly
from fuzz_harness import (CLASSES, FAILURES, PROFILES, RTOL, RTOL_ASSEMBLED, RTOL_FLOAT32, Failure, Result, WorkerPool,
                          check_kernel, compare, compare_assembled, damage_cache, minimize, openmp_threads, report,
                          reproducer, result_tolerance, run_cases)
from fuzz import group_failures

SHORT = PROFILES["short"]


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2, {"OMP_NUM_THREADS": "2"}) as workers:
        yield workers


@pytest.fixture(scope="module")
def short_cases():
    return generate(SHORT.kernels, SHORT.seed, SHORT.data_per_kernel)


# ============================================================================= 1. the short profile


def test_short_profile_has_no_failure(pool, short_cases):
    tally = run_cases(short_cases, repeats=SHORT.repeats, timeout=120.0, pool=pool)
    groups = group_failures(tally.failures)
    report = [tally.summary()]
    for cause, failures in groups:
        report.append(f"\n{len(failures)} x {cause}\n{reproducer(failures[0])}")
    assert not tally.failures, "\n".join(report)
    # the run checked something: most kernels compiled, and parallel kernels ran repeatedly
    assert tally.cases["ok"] >= len(short_cases) * SHORT.data_per_kernel // 3, report[0]
    assert tally.kernels["built"] >= len(short_cases) // 2, report[0]
    assert tally.runs > tally.cases["ok"], report[0]
    # sparse outputs spf assembles (kernels and conversions) were checked, not only refused
    assert tally.assembled["ok"] >= len(short_cases) * SHORT.data_per_kernel // 6, report[0]
    assert tally.assembled["parallel C"] >= 10, report[0]  # threads with their own streams, run under load
    # kernels compiled again in a new process after their cache was damaged (fuzz_harness.check_damaged_cache)
    assert tally.damaged["ok"] >= SHORT.data_per_kernel, report[0]


# ============================================================================= 2. the generator


def test_generation_is_deterministic_in_the_seed():
    assert generate(25, 3, 2) == generate(25, 3, 2)
    assert generate(25, 3, 2) != generate(25, 4, 2)
    assert generate(10, 3, 2) == generate(25, 3, 2)[:10]  # a case does not depend on the count


def test_generation_does_not_depend_on_the_literals_of_spfs_source(tmp_path, monkeypatch):
    """Hypothesis also draws literals of the local modules loaded: an edit of spf (a
    constant added or removed) must not change the cases a seed names."""
    before = generate(120, 3, 2)
    (tmp_path / "spf_fuzz_literals.py").write_text(
        "LITERALS = [" + ", ".join(str(k) for k in range(-3, 200)) + "]\n"
        "WORDS = [" + ", ".join(repr(w) for w in ("CSR", "CSC", "COO", "DIA", "random", "holes", "large")) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "spf_fuzz_literals", raising=False)
    __import__("spf_fuzz_literals")
    assert generate(120, 3, 2) == before


def test_one_case_in_sixty_damages_the_kernel_cache():
    damaged = [case.kernel.damage for case in generate(400, 5, 2) if case.kernel.damage]
    assert 2 <= len(damaged) <= 16 and {entries for _, entries in damaged} == set(CACHE_ENTRIES)
    assert {how for how, _ in damaged} == set(CACHE_DAMAGE)


def test_short_profile_covers_what_users_write(short_cases):
    kernels = [case.kernel for case in short_cases]
    used = {layout.split("(")[0].rsplit("/", 1)[-1].removesuffix(".layout")
            for kernel in kernels for _, layout in kernel.layouts}
    assert set(spf.layouts()) <= used, f"layouts never drawn: {sorted(set(spf.layouts()) - used)}"
    user_files = {layout for kernel in kernels for _, layout in kernel.layouts if layout.endswith(".layout")}
    assert set(USER_LAYOUTS.values()) <= user_files  # user layout files, read from their paths
    assert not set(USER_LAYOUTS) & set(spf.layouts())  # none of which is a built-in
    assert set(FINDS) == {kernel.find for kernel in kernels}
    assert {"default", "order", "recipe", "autoschedule"} == {kernel.schedule for kernel in kernels}
    assert {True, False} == {kernel.parallel for kernel in kernels}
    assert any(kernel.share for kernel in kernels) and any("+=" in kernel.expression for kernel in kernels)
    assert any(inferred_source(kernel) for kernel in kernels)  # outputs in a prefix of an input's levels
    assert any(" * " in kernel.expression.split("=")[1].split("(")[0] for kernel in kernels)  # coefficients
    families = {kernel.family for kernel in kernels}
    assert len(families) >= len({f.name for f in FAMILIES}) - 4, sorted({f.name for f in FAMILIES} - families)
    data = [d for case in short_cases for d in case.data]
    assert any(0 in d.extent_map.values() for d in data)
    assert any(set(d.extent_map.values()) == {1} for d in data)
    assert any(pattern == "zero" for d in data for _, pattern in d.patterns)
    assert any(pattern == "one" for d in data for _, pattern in d.patterns)
    # parallel kernels get data sets whose outer loop spans several chunks of schedule(dynamic,32)
    assert any(min(d.extent_map.values()) > 64 for case in short_cases if case.kernel.parallel for d in case.data)


def _name(layout: str) -> str:
    return layout.split("(")[0].rsplit("/", 1)[-1].removesuffix(".layout")


def test_short_profile_covers_sparse_outputs_spf_assembles(short_cases):
    """Assembled outputs in every layout the assembly builds (and the two it refuses), from
    products, sums, element-wise products, transposes, copies and mode permutations with the
    usual options, on data with explicit zeros and cancelling terms; conversions both ways."""
    assembled = [case for case in short_cases if assembled_output(case.kernel) and not case.kernel.convert]
    outputs = {_name(assembled_output(case.kernel)[1]) for case in assembled}
    every = set(MATRIX_OUTPUTS + LOWER_OUTPUTS + SPARSE_VECTORS + TENSOR3_OUTPUTS + TENSOR4_OUTPUTS)
    assert outputs == every, f"output layouts never assembled: {sorted(every - outputs)}"
    assert {"ELL", "WARP24"} <= outputs and not has_assembly(spf.load_layout("ELL"))  # refusals, drawn too
    families = {case.kernel.family for case in assembled}  # (an inferred-* family's layouts that match no prefix)
    assert {f.name for f in FAMILIES if f.name.startswith("assembled-")} <= families, families
    assert all(family.startswith(("assembled-", "inferred-")) for family in families), families
    kernels = [case.kernel for case in assembled]
    assert {"default", "order", "recipe"} == {kernel.schedule for kernel in kernels}
    assert {True, False} == {kernel.parallel for kernel in kernels} and len({k.find for k in kernels}) > 3
    assert any("+=" in kernel.expression for kernel in kernels)  # refused: an assembled output starts anew
    patterns = {pattern for case in assembled for d in case.data for _, pattern in d.patterns}
    assert {"zeros", "cancel", "zero", "one"} <= patterns
    # an index of over a million: the first key's range exceeds the builders' counting sort (merge sort)
    assert any(max(d.extent_map.values(), default=0) > 2**20 for case in assembled for d in case.data)
    conversions = [case.kernel for case in short_cases if case.kernel.convert]
    assert len({_name(k.layouts[0][1]) for k in conversions} | {_name(k.layouts[1][1]) for k in conversions}) >= 12
    assert {len(accesses(k.expression)[0].output.indices) for k in conversions} >= {1, 2, 3}


def test_data_fits_the_layouts_and_the_oracle_masks_shared_outputs():
    kernel = KernelSpec("masked", "A(i,j) = B(i,j) * C(i,j)", (("B", "WARP24"), ("C", "LOWER_TRI"), ("A", "WARP24")),
                        share=(("A", "B"),))
    data = make_data(kernel, DataSpec((("i", 9), ("j", 9)), 0.9, seed=1))
    B, C = data.dense["B"], data.dense["C"]
    assert np.all(np.triu(C, 1) == 0) and np.count_nonzero(C) > 9
    groups = (B != 0).reshape(9, -1)[:, :8].reshape(9, 2, 4).sum(axis=2)
    assert groups.max() == 2  # at most two of each group of four columns, and the limit is reached
    stored = data.inputs["B"].stored()[0]
    mask = np.zeros((9, 9), dtype=bool)
    mask[tuple(stored[np.all(stored < 9, axis=1)].T)] = True
    np.testing.assert_array_equal(data.expected, B * C * mask)
    unsorted = make_data(KernelSpec("dot", "a = x(i) * y(i)", (("x", "SV_UNSORTED"), ("y", "Dense"))),
                         DataSpec((("i", 40),), 0.8, seed=2))
    indices = unsorted.inputs["x"].fields["idx"]
    assert np.any(np.diff(indices) < 0)  # really unsorted
    assert unsorted.expected == pytest.approx(float(unsorted.dense["x"] @ unsorted.dense["y"]))
    user = make_data(KernelSpec("inner3", "a = B(i,j,k) * C(i,j,k)", (("B", USER_LAYOUTS["COO3_UNSORTED"]),
                                                                       ("C", "COO3"))),
                     DataSpec((("i", 6), ("j", 5), ("k", 4)), 0.8, seed=3))
    fields = user.inputs["B"].fields
    keys = fields["idx0"] * 20 + fields["idx1"] * 4 + fields["idx2"]
    assert np.any(np.diff(keys) < 0)  # the user layout's entries are really unsorted
    assert user.expected == pytest.approx(float(np.sum(user.dense["B"] * user.dense["C"])))


def test_data_has_explicit_zeros_cancelling_terms_and_a_conversions_entries():
    kernel = KernelSpec("assembled-sum", "C(i,j) = A(i,j) - 2 * B(i,j) + D(i,j)",
                        (("A", "CSR"), ("B", "COO"), ("D", "DCSR"), ("C", "CSR")))
    assert cancellable(kernel) == ["B", "D"]  # the single factors of the later terms
    assert cancellable(replace(kernel, expression="C(i,j) = A(i,k) * B(k,j) + D(i,j)")) == ["D"]
    data = make_data(kernel, DataSpec((("i", 9), ("j", 9)), 0.5, seed=1, patterns=(("A", "zeros"), ("B", "cancel"))))
    A, B = data.dense["A"], data.dense["B"]
    cancelled = (A != 0) & (A - 2 * B == 0)
    assert cancelled.sum() >= 5 and np.all(data.expected[cancelled] == data.dense["D"][cancelled])
    coords, values, _ = data.inputs["A"].to_coo()
    assert np.count_nonzero(values == 0) >= 3 and len(values) == len(data.coords["A"])  # stored explicit zeros
    for target, zeros in [("CSC", True), ("BCSR(R=2, C=2)", False)]:  # a padded layout has no explicit zeros
        convert = KernelSpec("convert", "B(i,j) = A(i,j)", (("A", "COO"), ("B", target)), convert=True)
        entries = make_data(convert, DataSpec((("i", 9), ("j", 9)), 0.5, seed=1, patterns=(("A", "zeros"),))).entries
        assert any(v == 0 for v in entries.values()) == zeros and sum(v != 0 for v in entries.values()) >= 20
    lower = KernelSpec("assembled-spgemm", "C(i,j) = A(i,k) * B(k,j)", (("A", "CSR"), ("B", "CSC"), ("C", "LOWER_TRI")))
    data = make_data(lower, DataSpec((("i", 7), ("j", 7), ("k", 7)), 0.9, seed=2))
    assert np.count_nonzero(data.expected) > 7 and not np.any(np.triu(data.expected, 1))  # what LOWER_TRI holds


def test_float32_layouts_are_read_and_compared_as_they_store_values():
    """The oracle reads a float32 input's rounded values; a float32 result is right within a
    few float32 roundings of the terms' magnitude, and wrong beyond; a conversion into a
    float32 layout must store each value rounded once."""
    single, wide = USER_LAYOUTS["CSR_F32"], USER_LAYOUTS["DCSR64_F32"]
    kernel = KernelSpec("assembled-sum", "C(i,j) = A(i,j) + B(i,j)", (("A", single), ("B", "CSR"), ("C", wide)))
    data = make_data(kernel, DataSpec((("i", 9), ("j", 9)), 0.6, seed=4))
    A, B = data.dense["A"], data.dense["B"]
    assert np.count_nonzero(A) > 9 and np.array_equal(A, A.astype(np.float32))  # what A's Tensor holds
    assert not np.array_equal(B, B.astype(np.float32))  # B is double
    np.testing.assert_array_equal(data.inputs["A"].to_dense(), A)
    assert result_tolerance(kernel) == RTOL_FLOAT32 < 1e-6
    assert result_tolerance(replace(kernel, layouts=(("A", single), ("B", "CSR"), ("C", "CSR")))) == RTOL_FLOAT32
    assert result_tolerance(replace(kernel, layouts=(("A", "CSC"), ("B", "CSR"), ("C", "CSR")))) == RTOL_ASSEMBLED
    assert result_tolerance(replace(kernel, layouts=(("A", "CSC"), ("B", "CSR"), ("C", "Dense")))) == RTOL
    got = spf.pack(wide, data.expected, cast=True)  # the right result, rounded to float32
    assert compare_assembled(got, wide, data.expected, data.scale, tolerance=RTOL_FLOAT32) == (
        compare(got, data.expected, data.scale), "")
    assert 0 < compare(got, data.expected, data.scale) <= RTOL_FLOAT32
    assert compare_assembled(got, wide, data.expected, data.scale)[0] > RTOL_ASSEMBLED  # a double's tolerance
    off = spf.pack(wide, data.expected * (1 + 1e-5), cast=True)
    assert "with other values" in compare_assembled(off, wide, data.expected, data.scale, tolerance=RTOL_FLOAT32)[1]
    convert = KernelSpec("convert", "B(i,j) = A(i,j)", (("A", "COO"), ("B", single)), convert=True)
    entries = make_data(convert, DataSpec((("i", 9), ("j", 9)), 0.5, seed=1)).entries
    assert len(entries) > 9 and all(value == float(np.float32(value)) for value in entries.values())


def test_orders_and_recipes_are_plans_over_the_iteration_space():
    kernel = KernelSpec("spmv", "y(i) = A(i,j) * x(j)", (("A", "CSR"), ("x", "SV"), ("y", "Dense")),
                        schedule="order", schedule_seed=5)
    variables = spf.iteration_space(kernel.expression, kernel.layout_map).statements[0].variables
    kind, order = plan_schedule(kernel)
    assert kind == "order" and sorted(order) == sorted(variables)
    assert plan_schedule(kernel) == plan_schedule(kernel)
    recipes = [plan_schedule(KernelSpec("spmv", kernel.expression, kernel.layouts, schedule="recipe",
                                        schedule_seed=seed)) for seed in range(30)]
    steps = {step[0] for _, plan in recipes for step in plan}
    assert steps == {"permute", "find", "tile", "parallelize"}


# ============================================================================= 3. the harness


def test_comparison_sees_a_wrong_value_a_wrong_shape_and_nan():
    expected = np.array([[1.0, -2.0], [0.0, 3.0]])
    scale = np.abs(expected) + 1.0
    assert compare(expected.copy(), expected, scale) == 0.0
    assert compare(expected + 1e-14, expected, scale) <= RTOL
    assert compare(expected + np.array([[0, 0], [1e-6, 0]]), expected, scale) > RTOL
    assert compare(expected[:1], expected, scale) is None
    assert compare(np.where(expected == 0, np.nan, expected), expected, scale) == np.inf
    assert compare(2.0, np.float64(2.0), np.float64(2.0)) == 0.0


def test_the_oracle_of_assembled_outputs_sees_each_broken_claim():
    A = spf.pack("CSR", (np.array([[0, 1], [2, 0]]), np.array([1.5, -2.0]), (3, 3)), name="A")
    expected = A.to_dense()
    scale = np.abs(expected) + 1.0
    fields = dict(A.fields)

    def built(layout="CSR", **changed):  # what a builder might return (not checked)
        return spf.Tensor._from_checked(spf.load_layout(layout), (3, 3), {**fields, **changed}, "C")

    assert compare_assembled(A, "CSR", expected, scale) == (0.0, "")
    problems = {
        "not a Tensor in CSR": compare_assembled(expected, "CSR", expected, scale),
        "a Tensor in CSR, not in CSC": compare_assembled(A, "CSC", expected, scale),
        "shape (3, 3), expected (3, 4)": compare_assembled(A, "CSR", np.zeros((3, 4)), np.ones((3, 4))),
        "field colIdx is int64": compare_assembled(built(colIdx=np.array([1, 0])), "CSR", expected, scale),
        "its fields break the layout": compare_assembled(built(colIdx=np.array([2, 5], dtype=np.int32)), "CSR",
                                                         expected, scale),
        "stores an explicit zero at (1, 1)": compare_assembled(
            spf.pack("CSR", (np.array([[0, 1], [1, 1], [2, 0]]), np.array([1.5, 0.0, -2.0]), (3, 3))), "CSR",
            expected, scale),
        "1 missing (first (1, 2) = 4.0)": compare_assembled(A, "CSR", expected + np.eye(3, k=1) * [0, 0, 4], scale),
        "1 with other values (first (0, 1): 1.5, expected 1.0)": compare_assembled(
            A, "CSR", expected - np.eye(3, k=1) * [0, 0.5, 0], scale),
        "1 missing (first (1, 1) = 0.0)": compare_assembled(A, "CSR", expected, scale,
                                                             {(0, 1): 1.5, (1, 1): 0.0, (2, 0): -2.0}),
        "stores 7.0 at (3, 3), outside the shape": compare_assembled(spf.Tensor._from_checked(
            spf.load_layout("BCSR(R=2, C=2)"), (3, 3), {"numRows": 3, "numCols": 3, "numBlockRows": 2,
                                                         "numBlockCols": 2, "nnzBlocks": 1,
                                                         "rowPtr": np.array([0, 0, 1], dtype=np.int32),
                                                         "col": np.array([1], dtype=np.int32),
                                                         "val": np.array([[[1.0, 0.0], [0.0, 7.0]]])}, "C"),
            "BCSR(R=2, C=2)", np.eye(3, k=0) * [0, 0, 1], np.ones((3, 3))),
    }
    for problem, (error, message) in problems.items():
        assert error > RTOL_ASSEMBLED and problem in message, (problem, message)
    assert compare_assembled(A, "CSR", expected * (1 + 1e-13), scale)[0] <= RTOL_ASSEMBLED  # rounding
    assert "2 with other values" in compare_assembled(A, "CSR", expected * (1 + 1e-10), scale)[1]


def test_workers_run_openmp_with_two_threads(pool):
    (_, outcome), = pool.run([(openmp_threads, ())], timeout=60)
    assert outcome.kind == "done" and outcome.value == 2


def test_workers_share_their_cpus_with_a_busy_process(pool):
    """Races show when the kernel's threads are preempted (see WorkerPool)."""
    outcomes = dict(pool.run([(os.sched_getaffinity, (0,)), (os.sched_getaffinity, (0,))], timeout=60))
    assert {frozenset(o.value) for o in outcomes.values()} <= {frozenset(g) for g in pool.groups}
    assert all(len(g) == min(2, len(os.sched_getaffinity(0))) for g in pool.groups)
    assert pool.loads and all(process.poll() is None for process in pool.loads)


def test_a_dead_worker_is_reported_and_replaced(pool):
    outcomes = dict(pool.run([(os.abort, ()), (openmp_threads, ())], timeout=60))
    assert outcomes[0].kind == "died" and outcomes[0].exitcode == -6
    assert outcomes[1].kind == "done"


SPMV = KernelSpec("spmv", "y(i) = A(i,j) * x(j)", (("A", "CSR"), ("x", "Dense"), ("y", "Dense")))
TWO_DATA_SETS = (DataSpec((("i", 3), ("j", 3)), 1.0, seed=1), DataSpec((("i", 4), ("j", 5)), 0.5, seed=2))


def _crash_on_the_second_data_set(kernel, data, repeats, first):
    if first == 0:
        check_kernel(kernel, data[:1], repeats)  # reports the first data set's result
        report(("run", 1, 1, 0))
        ctypes.string_at(1)  # reads address 1: the process dies as a crashing kernel would
    return check_kernel(kernel, data, repeats, first)


def _hang_on_the_first_data_set(kernel, data, repeats, first):
    report(("run", 0, 0, 0))
    time.sleep(60)


def test_a_crash_is_counted_the_results_before_it_kept_and_the_next_data_set_run_in_a_new_worker(pool):
    data = TWO_DATA_SETS + (DataSpec((("i", 5), ("j", 2)), 0.5, seed=3),)
    tally = run_cases([Case(SPMV, data)], pool=pool, check=_crash_on_the_second_data_set)
    assert (tally.cases["crash"], tally.cases["ok"]) == (1, 2) and tally.kernels["built"] == 1
    crash = tally.failures[0]
    assert crash.data == data[1] and crash.result.variant == 1 and crash.plan == ()
    assert "signal 11" in crash.result.message and "while running the kernel" in crash.result.message


def _stall_on_large_data(kernel, data, repeats, first):
    if max(data[first].extent_map.values()) > 3:
        report(("run", first, 0, 0))
        time.sleep(60)
    return check_kernel(kernel, data, repeats, first)


def test_a_hang_is_counted_and_larger_data_sets_are_skipped(pool):
    started = time.monotonic()
    tally = run_cases([Case(SPMV, TWO_DATA_SETS)], pool=pool, timeout=3, check=_hang_on_the_first_data_set)
    assert tally.cases["hang"] == 1 and tally.skipped == 1 and time.monotonic() - started < 60
    assert tally.failures[0].data == TWO_DATA_SETS[0]
    assert run_cases([Case(SPMV, TWO_DATA_SETS)], pool=pool).cases["ok"] == 2


def test_a_kernel_that_stalls_on_large_data_but_is_right_on_smaller_data_is_slow(pool):
    large = DataSpec((("i", 12), ("j", 14)), 0.5, seed=3)
    # compiled first, without the short timeout: a cold compile on a loaded machine can
    # take longer than 3 s and would be a hang of the compile, not of the data
    assert run_cases([Case(SPMV, TWO_DATA_SETS[:1])], pool=pool).cases["ok"] == 1
    tally = run_cases([Case(SPMV, (large, TWO_DATA_SETS[0]))], pool=pool, timeout=3, check=_stall_on_large_data)
    assert (tally.cases["slow"], tally.cases["ok"], tally.skipped) == (1, 1, 0) and not tally.failures, \
        (tally.cases, [f.result.message for f in tally.failures])


def _wrong_when_i_reaches_3(kernel, data, repeats, first):
    checked = check_kernel(kernel, data, repeats, first)
    for n in checked.results:
        if data[n].extent_map["i"] >= 3:
            checked.results[n] = Result("wrong", "pretend", runs=1, variant=0, variants=1)
    return checked


def test_minimization_drops_what_the_failure_does_not_need(pool):
    kernel = replace(SPMV, parallel=True, schedule="recipe",
                     plan=("recipe", (("tile", "pAi", 8), ("parallelize", "pAi_tile", None, "dynamic,32"))))
    data = DataSpec((("i", 40), ("j", 30)), 0.3, seed=5)
    failure = run_cases([Case(kernel, (data,))], pool=pool, check=_wrong_when_i_reaches_3).failures[0]
    smaller = minimize(failure, pool, repeats=1, timeout=60, budget=30, check=_wrong_when_i_reaches_3)
    assert smaller.kernel.parallel is False and smaller.plan == ()
    assert 3 <= smaller.data.extent_map["i"] <= 5 and smaller.data.extent_map["j"] == 1 and smaller.data.integers
    script = reproducer(smaller)
    assert "parallel" not in script and "make_data" not in script  # small enough to be written out


def test_c_that_does_not_compile_is_a_compile_failure_not_a_refusal(tmp_path):
    kernel = KernelSpec("spmv", "y(i) = A(i,j) * x(j)", (("A", "CSR"), ("x", "Dense"), ("y", "Dense")))
    environment = {"CC": "false", "SPF_CACHE_DIR": str(tmp_path), "OMP_NUM_THREADS": "2"}
    with WorkerPool(1, environment) as failing:
        tally = run_cases([Case(kernel, (DataSpec((("i", 2), ("j", 2)), 1.0, seed=1),))], pool=failing)
    assert tally.cases["compile"] == 1 and tally.failures[0].cause.startswith("compile:")


def test_refusals_are_counted_and_are_not_failures(pool):
    kernel = KernelSpec("spmv", "y(i) = A(i,j) * x(j)", (("A", "CSR"), ("x", "SV_UNSORTED"), ("y", "Dense")),
                        find="seqiter")
    tally = run_cases([Case(kernel, (DataSpec((("i", 2), ("j", 2)), 1.0, seed=1),) * 2)], pool=pool)
    assert tally.cases["refused"] == 2 and not tally.failures
    assert any(line.startswith("find='seqiter' is not valid for x_idx(px)") for line in tally.refusals)
    assert set(FAILURES) == set(CLASSES) - {"ok", "refused", "slow"}


def test_damage_cache_truncates_empties_or_overwrites_the_entries(tmp_path):
    from spf.codegen.toolchain.compiler import RECORD_SUFFIX
    for name in ("a.so", f"a.so{RECORD_SUFFIX}", "kernels/k.pickle", "a.c"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(b"x" * 100)
    assert damage_cache(tmp_path, "truncate", "libraries") == [tmp_path / "a.so"]
    assert (tmp_path / "a.so").stat().st_size == 50
    assert damage_cache(tmp_path, "empty", "metadata") == [tmp_path / "kernels/k.pickle",
                                                           tmp_path / f"a.so{RECORD_SUFFIX}"]
    assert (tmp_path / "kernels/k.pickle").read_bytes() == b"" == (tmp_path / f"a.so{RECORD_SUFFIX}").read_bytes()
    damage_cache(tmp_path, "garbage", "libraries")
    assert len((tmp_path / "a.so").read_bytes()) == 50 != (tmp_path / "a.so").read_bytes().count(b"x")
    assert (tmp_path / "a.c").read_bytes() == b"x" * 100


def test_a_case_with_a_damaged_cache_is_checked_in_new_processes(pool):
    kernel = replace(SPMV, damage=("truncate", "libraries"))
    tally = run_cases([Case(kernel, TWO_DATA_SETS)], pool=pool)
    assert (tally.cases["ok"], tally.damaged["ok"]) == (2, 2) and not tally.failures, tally.summary()
    assert "after damaging the kernel cache: ok 2" in tally.summary()


def _damage_spf_cannot_see(kernel, data, repeats, first):
    """Truncates the libraries and records them as built, so spf loads them: a new
    process maps a library past its end and dies of SIGBUS, as before spf checked them."""
    import hashlib

    import fuzz_harness
    from spf.codegen.toolchain.compiler import record_path
    damage = fuzz_harness.damage_cache

    def forged(folder, how, entries):
        paths = damage(folder, how, entries)
        for path in paths:
            record_path(path).write_text(f"{path.stat().st_size} {hashlib.sha256(path.read_bytes()).hexdigest()}\n")
        return paths

    fuzz_harness.damage_cache = forged
    try:
        return check_kernel(kernel, data, repeats, first)
    finally:
        fuzz_harness.damage_cache = damage


def test_a_new_process_that_dies_on_a_damaged_cache_is_a_crash(pool):
    kernel = replace(SPMV, damage=("truncate", "libraries"))
    tally = run_cases([Case(kernel, TWO_DATA_SETS)], pool=pool, check=_damage_spf_cannot_see)
    assert tally.cases["crash"] == 2 and tally.damaged["crash"] == 2
    failure = tally.failures[0]
    assert "signal 7" in failure.result.message and "after the cache's libraries damaged" in failure.result.message
    assert failure.cause.startswith("crash: after damaging the kernel cache's libraries (truncate)")


def test_the_reproducer_of_a_damaged_cache_damages_it_between_two_processes(tmp_path):
    kernel = replace(SPMV, damage=("empty", "metadata"))
    failure = Failure(kernel, TWO_DATA_SETS[0], (), Result("wrong", "after damage: pretend", runs=1, variant=0,
                                                              variants=1))
    path = tmp_path / "reproducer.py"
    path.write_text(reproducer(failure))
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, path.read_text() + run.stderr
    before, damaged, after = run.stdout.splitlines()
    assert damaged.startswith("damaged ") and damaged.endswith("files: metadata, empty")
    assert float(before) < 1e-12 and float(after) < 1e-12


@pytest.mark.parametrize("extents, literal", [((("i", 4), ("j", 3)), True), ((("i", 90), ("j", 70)), False)],
                         ids=["literal data", "generated data"])
def test_reproducers_run(tmp_path, extents, literal):
    kernel = KernelSpec("sddmm", "A(i,j) = B(i,j) * C(i,k) * D(k,j)",
                        (("B", "COO_UNSORTED"), ("C", "Dense"), ("D", "Dense"), ("A", "COO_UNSORTED")),
                        share=(("A", "B"),), schedule="recipe", parallel=True,
                        plan=("recipe", (("parallelize", "pB", "atomic", "dynamic,32"),)))
    data = DataSpec(extents + (("k", 2),), 0.3, seed=4)
    result = Result("wrong", "pretend", runs=1, variant=0, variants=1, parallel_c=True)
    script = reproducer(Failure(kernel, data, kernel.plan, result))
    assert ("make_data" not in script) == literal
    path = tmp_path / "reproducer.py"
    path.write_text(script)
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "OMP_NUM_THREADS": "2"})
    assert run.returncode == 0, script + run.stderr
    errors = [float(line) for line in run.stdout.split()]
    assert len(errors) == 20 and max(errors) < 1e-9  # this kernel is right: the script measures, it does not judge


@pytest.mark.parametrize("kernel", [
    KernelSpec("assembled-spgemm", "C(i,j) = A(i,k) * B(k,j)", (("A", "CSR"), ("B", "COO_UNSORTED"), ("C", "DCSC")),
               schedule="order", plan=("order", ("pAi", "i", "pAj", "k", "pB", "j"))),
    KernelSpec("convert", "B(i,j) = A(i,j)", (("A", "COO_UNSORTED"), ("B", "CSC")), convert=True)],
    ids=["assembled output", "conversion"])
def test_reproducers_of_sparse_outputs_show_their_layout_and_entries(tmp_path, kernel):
    data = DataSpec((("i", 5), ("j", 4), ("k", 4)), 0.5, seed=4, patterns=(("A", "zeros"),))
    script = reproducer(Failure(kernel, data, kernel.plan, Result("wrong", "pretend", runs=1, variant=0, variants=1)))
    path = tmp_path / "reproducer.py"
    path.write_text(script)
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, script + run.stderr
    layout, entries = run.stdout.splitlines()
    assert layout == f"{kernel.layouts[-1][1]} (5, 4)"
    assert entries == "0 [] 0.0"  # no coordinate twice, the wanted entries (explicit zeros of a conversion too)
    assert ("0.0" in script.split("spf.pack")[1]) and "validate(got.layout" in script
