"""Shared fixtures: the real data in ../shared/data (skipped with a reason when absent),
each built-in layout loaded once, two OpenMP threads for parallel kernels, a runner
for every compiled variant of a kernel, and hypothesis settings that measure no time."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# No test depends on the machine's speed: hypothesis's 200 ms deadline per example and
# its too-slow health check measure wall-clock time, and fail on a loaded machine.
# Tests that pass their own settings(...) inherit these (they are the default profile
# by the time the test modules are imported).
# Parallel kernels split their loops among threads even for the tests' small inputs (by
# default a thread needs 4096 units of work, so inputs this size would run on one).
os.environ.setdefault("SPF_PARALLEL_GRAIN", "1")
# The loop nests are verified after every pass (codegen.verify): a malformed nest fails the
# test that compiled it, as a bug in spf (set here, so processes the tests start verify too).
os.environ.setdefault("SPF_VERIFY", "1")
# The autoscheduler's run-time choice prices schedules with this machine's measured constants
# (spf.runtime.calibration); the tests use the fixed defaults so that a choice is the same on
# every machine and every run (tests/runtime/test_calibration.py measures).
os.environ.setdefault("SPF_CALIBRATION", "defaults")
# For the same reason select() keeps the model's pick where it is unsure instead of timing
# the closest candidates (a choice by timing differs between runs; the tests that time set
# measure= themselves, and test_schedule_trials.py checks the default with this unset).
os.environ.setdefault("SPF_MEASURE", "never")

# The default run is deterministic: every hypothesis test draws the same examples on every
# machine and every run (derandomize), so the README's test command is green or red for
# the code, not for the draw.  Random exploration is the "explore" profile
# (SPF_HYPOTHESIS=explore, or pytest's --hypothesis-profile=explore), whose finds become
# fixed tests.
settings.register_profile("spf", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True,
                          database=None)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("SPF_HYPOTHESIS", "spf"))

# ``-n auto`` (the README's command) runs one worker per core, at most four: a worker's
# peak memory is a few GB, and more workers than that only wait for the C compiler.
MOST_WORKERS = 4


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config) -> int:
    return max(1, min(MOST_WORKERS, len(os.sched_getaffinity(0))))


REPOSITORY = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SPF_DATA", REPOSITORY.parent / "shared" / "data"))
MATRICES = DATA / "matrices"
TENSORS = DATA / "tensors"

# A spread of real matrices (square and rectangular, symmetric and general, small to
# large) and tensors, used where a test runs per file.
REAL_MATRICES = ["494_bus", "west0479", "Franz6_id1959_aug", "bcsstk13", "ca-GrQc",
                 "email-Eu-core", "lp_e226", "olm1000", "cage10", "gre_1107"]
REAL_TENSORS = ["nations", "umls", "kinship", "dnc-email-daily", "collegemsg-daily"]


def data_available() -> bool:
    return MATRICES.is_dir() and TENSORS.is_dir()


def require_data() -> None:
    if not data_available():
        pytest.skip(f"real data not found at {DATA} (set SPF_DATA or place ../shared/data beside the repository)")


def matrix_path(name: str) -> Path:
    require_data()
    path = MATRICES / f"{name}.mtx"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    return path


def tensor_path(name: str) -> Path:
    require_data()
    path = TENSORS / f"{name}.tns"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    return path


def documented_finds() -> list[str]:
    """The values of ``find=`` in the README's table (auto included), in its order."""
    import re
    text = (REPOSITORY / "README.md").read_text()
    table = text[text.index("`find=` chooses how a find is done"):]
    table = table[:table.index("\n\n", table.index("|"))]
    return re.findall(r"^\| `(\w+)`", table, re.MULTILINE)


_matrix_cache: dict[str, object] = {}
_tensor_cache: dict[str, object] = {}


def load_matrix(name: str):
    """A copy of a real matrix as scipy CSR (symmetric files expanded), read once per session."""
    if name not in _matrix_cache:
        import scipy.io
        import scipy.sparse
        _matrix_cache[name] = scipy.sparse.csr_matrix(scipy.io.mmread(matrix_path(name)))
    return _matrix_cache[name].copy()  # callers may modify their copy


def load_tensor(name: str):
    """A real tensor as (coords, values, shape), read once per session."""
    if name not in _tensor_cache:
        import spf
        _tensor_cache[name] = spf.read_tns(tensor_path(name))
    coords, values, shape = _tensor_cache[name]
    return coords.copy(), values.copy(), shape


@pytest.fixture(scope="session")
def layout_library():
    """Every built-in layout, loaded once: name -> Layout or LayoutFamily."""
    import spf
    return {name: spf.load_layout(name) for name in spf.layouts()}


OPENMP_THREADS = 2


@pytest.fixture(scope="session")
def openmp_threads() -> int:
    """Parallel kernels run with 2 OpenMP threads (races need at least two), whatever
    OMP_NUM_THREADS says and whichever kernel loaded the runtime first: the count is set
    through the runtime itself (one libgomp per process, shared by every kernel)."""
    name = ctypes.util.find_library("gomp") or "libgomp.so.1"
    try:
        runtime = ctypes.CDLL(name)
    except OSError:
        pytest.fail(f"the OpenMP runtime ({name}) that parallel kernels link cannot be loaded")
    runtime.omp_set_num_threads(OPENMP_THREADS)
    runtime.omp_get_max_threads.restype = ctypes.c_int
    assert runtime.omp_get_max_threads() == OPENMP_THREADS
    return OPENMP_THREADS


def run_variants(kernel, **inputs) -> list[tuple[str, object]]:
    """(choice, result) for each compiled variant of the kernel's finds (one unless find="auto")."""
    results = []
    for function, choice in zip(kernel.build()._functions, kernel.variant_choices):
        bound = kernel.bind(**inputs)
        bound.function = function
        result = bound()
        results.append((" + ".join(str(c) for c in choice) or "single variant", result))
    return results
