"""Running fuzz cases: worker processes, the check of every variant against the oracle,
the classification of outcomes, minimization and reproducers.

Kernels run in spawned worker processes (:class:`WorkerPool`), so a kernel that kills
its process is counted as a crash and the pool goes on with a new worker.  A worker
reports what it is about to run (:func:`report`), which names the data set and the
variant of a crash or a hang.

Classes of a (kernel, data) case:

* ``ok``: every variant, every repetition agrees with the oracle;
* ``refused``: spf refused the kernel with an SpfError at compile time (its own refusal);
* ``slow``: a run stalled past the time limit, but the kernel is right on a quarter of the
  extents (a random loop order can raise a kernel's complexity; not a failure), or the
  kernel used up :data:`KERNEL_BUDGET` on earlier data sets and this one went unchecked;
* ``wrong``: a variant's result differs from the oracle (a sparse output spf assembles,
  or a conversion: also a result in another layout, fields its layout refuses, a stored
  zero, a coordinate stored twice, see :func:`compare_assembled`);
* ``crash``: the worker died (signal or exit) running the case;
* ``hang``: a run stalled past the time limit, and stalls again on a quarter of the extents;
* ``exception``: a public call raised something other than an SpfError;
* ``compile``: the C of a kernel spf accepted does not compile (an SpfError that says so);
* ``run-error``: an SpfError while packing valid data or running the kernel.

Everything but ``ok``, ``refused`` and ``slow`` is a failure.

A case whose kernel has ``damage`` (:func:`check_damaged_cache`) is checked twice, each
time in a new process on a cache folder of its own, damaged in between (libraries or
metadata truncated, emptied or overwritten): the second must compile again and compute
right; its death is a crash, a refusal of what compiled before the damage a run-error.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import os
import pickle
import re
import subprocess
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace
from multiprocessing.connection import wait
from pathlib import Path

import numpy as np

import spf
from fuzz_cases import (MASK_TENSOR, UNSORTED, Case, DataSpec, KernelSpec, accesses, assembled_output, compile_options,
                        einsum_terms, index_classes, is_padded, make_data, plan_schedule, result_value_type,
                        value_dtype)
from spf.notation.value_types import value_type as named_value_type
from spf.runtime.validation import validate

CLASSES = ("ok", "refused", "slow", "wrong", "crash", "hang", "exception", "compile", "run-error")
FAILURES = CLASSES[3:]
RTOL = 1e-9  # relative to the sum of the absolute values of the terms
RTOL_ASSEMBLED = 1e-12  # the same, for sparse outputs spf assembles (issue 11's acceptance)
RTOL_FLOAT32 = 4 * float(np.finfo(np.float32).eps)  # the same, for results stored as float32 (a few roundings)
LONG_RUN = 2.0  # seconds: a run this long keeps the threads busy together; it is not repeated
KERNEL_BUDGET = 240.0  # seconds of runs per kernel; its later data sets are then left unchecked (slow)
REPOSITORY_TESTS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Profile:
    """How much to generate: ``kernels`` x ``data_per_kernel`` cases, each parallel variant run ``repeats`` times."""

    kernels: int
    data_per_kernel: int
    repeats: int
    seed: int


PROFILES = {
    "short": Profile(kernels=240, data_per_kernel=3, repeats=3, seed=23),  # tests/fuzz/test_fuzz.py
    "long": Profile(kernels=2000, data_per_kernel=5, repeats=5, seed=1),  # before closing a codegen change
}

# ----------------------------------------------------------------------------- worker pool

_connection = None  # the worker's end of its pipe (None in the parent)


def report(progress) -> None:
    """Tell the parent what the worker is about to run (names a crash); a no-op in the parent."""
    if _connection is not None:
        _connection.send(("progress", progress))


def _serve(connection, cpus) -> None:
    global _connection
    _connection = connection
    if cpus:
        os.sched_setaffinity(0, cpus)  # OpenMP's threads, created later, inherit it
    connection.send(("ready", None))
    while True:
        try:
            task = connection.recv()
        except EOFError:
            return
        if task is None:
            return
        function, arguments = task
        try:
            connection.send(("done", function(*arguments)))
        except Exception:
            connection.send(("error", traceback.format_exc()))


@dataclass
class Outcome:
    """How a task ended: ``done`` (``value``), ``error`` (the harness failed: ``value`` is a
    traceback), ``died`` (``exitcode``) or ``timeout``; ``reports``: what it reported, in order."""

    kind: str
    value: object = None
    exitcode: int | None = None
    reports: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def progress(self):
        """The last report, naming what the task was doing."""
        return self.reports[-1] if self.reports else None


START_TIMEOUT = 300.0  # seconds a new worker may take to import spf before its task counts as stalled


class _Worker:
    def __init__(self, context, environment: dict, cpus):
        self.cpus = cpus
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, cpus), daemon=True)
        saved = {name: os.environ.get(name) for name in environment}
        os.environ.update(environment)  # a spawned child starts with the parent's environment
        try:
            self.process.start()
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        child.close()
        self.tasks = 0
        self.current = None  # (task index, started, progress, last progress)
        self.ready = False  # imported: until then a task's clock of "no progress" does not run

    def stop(self, kill: bool = False) -> int | None:
        if kill:
            self.process.kill()
        else:
            try:
                self.connection.send(None)
            except OSError:
                pass
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()
        return self.process.exitcode


def cpu_groups(count: int, size: int) -> list[set[int]]:
    """``count`` sets of ``size`` CPUs this process may use, consecutive, wrapping around
    when there are fewer than ``count * size``."""
    cpus = sorted(os.sched_getaffinity(0))
    size = min(size, len(cpus))
    return [{cpus[(n * size + k) % len(cpus)] for k in range(size)} for n in range(count)]


class WorkerPool:
    """``size`` spawned worker processes (no OpenMP or lock state inherited from the parent)
    with ``environment`` set before they start; a worker is replaced after it dies, hangs
    or has run ``tasks_per_worker`` tasks (compiled kernels stay loaded in a process).
    Workers verify the loop nests after every pass (``SPF_VERIFY=1``, codegen.verify) unless
    ``environment`` says otherwise: a malformed nest is an ``exception`` case.

    With ``load`` (Linux), each worker is bound to as many CPUs as it has OpenMP threads,
    and a busy process runs on each such group of CPUs.  Threads race only when they
    interleave at the wrong moment: on an idle machine a small kernel's threads barely
    overlap and a race shows once in many runs; preempted by another busy process, the
    same race shows in most runs (and on a machine of any size).
    """

    def __init__(self, size: int, environment: dict | None = None, tasks_per_worker: int = 150,
                 load: bool = True):
        self.context = multiprocessing.get_context("spawn")
        self.environment = {"SPF_VERIFY": "1", **(environment or {})}
        self.tasks_per_worker = tasks_per_worker
        threads = int(self.environment.get("OMP_NUM_THREADS", os.environ.get("OMP_NUM_THREADS", "2")))
        load = load and hasattr(os, "sched_setaffinity")
        self.groups = cpu_groups(size, threads) if load else [None] * size
        self.loads = []
        for cpus in {frozenset(g) for g in self.groups if g}:  # busy until this process ends, however it ends
            self.loads.append(subprocess.Popen(
                # the parent's pid is given, not read: a parent that died first would leave it spinning
                [sys.executable, "-c", f"import os; os.sched_setaffinity(0, {set(cpus)!r})\n"
                 f"while os.getppid() == {os.getpid()}: pass"]))
        self.workers = [_Worker(self.context, self.environment, cpus) for cpus in self.groups]

    def run(self, tasks, timeout: float):
        """Run ``(function, arguments)`` tasks; yield ``(index, Outcome)`` as they end.
        ``tasks`` may grow while this runs (a list the caller appends to).  A task that
        reports no progress (:func:`report`) for ``timeout`` seconds is stopped."""
        position = 0
        busy: dict[object, _Worker] = {}
        while position < len(tasks) or busy:
            for n, worker in enumerate(self.workers):
                if worker.current is None and position < len(tasks):
                    if worker.tasks >= self.tasks_per_worker:
                        worker.stop()
                        worker = self.workers[n] = _Worker(self.context, self.environment, worker.cpus)
                    worker.connection.send(tasks[position])
                    worker.current = [position, time.monotonic(), [], time.monotonic()]
                    worker.tasks += 1
                    busy[worker.connection] = worker
                    position += 1
            for connection in wait(list(busy), timeout=1.0):
                worker = busy[connection]
                index, started, reports, _ = worker.current
                try:
                    kind, value = connection.recv()
                except (EOFError, OSError):
                    exitcode = worker.stop(kill=True)
                    yield index, Outcome("died", exitcode=exitcode, reports=reports,
                                         seconds=time.monotonic() - started)
                    self._replace(worker, busy)
                    continue
                if kind in ("progress", "ready"):
                    if kind == "progress":
                        reports.append(value)
                    worker.ready = True
                    worker.current[3] = time.monotonic()
                    continue
                worker.current = None
                del busy[connection]
                yield index, Outcome(kind, value, reports=reports, seconds=time.monotonic() - started)
            now = time.monotonic()
            for worker in list(busy.values()):
                index, started, reports, last = worker.current
                if now - last > (timeout if worker.ready else max(timeout, START_TIMEOUT)):
                    worker.stop(kill=True)
                    yield index, Outcome("timeout", reports=reports, seconds=now - started)
                    self._replace(worker, busy)

    def _replace(self, worker: _Worker, busy: dict) -> None:
        busy.pop(worker.connection, None)
        self.workers[self.workers.index(worker)] = _Worker(self.context, self.environment, worker.cpus)

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        for process in self.loads:
            process.kill()
            process.wait()
        self.loads = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def openmp_threads() -> int:
    """The number of threads an OpenMP parallel region gets in this process."""
    import ctypes
    return ctypes.CDLL("libgomp.so.1").omp_get_max_threads()


# ----------------------------------------------------------------------------- checking in a worker


@dataclass
class Result:
    """The outcome of one (kernel, data) case."""

    kind: str
    message: str = ""
    where: str = ""  # innermost frame of an exception in spf's code
    max_error: float = 0.0
    runs: int = 0
    wrong_runs: int = 0
    variant: int | None = None  # the failing variant
    variants: int = 0
    choices: str = ""  # the failing variant's find templates
    parallel_c: bool = False  # the C has an OpenMP loop


@dataclass
class Checked:
    """What a worker returns for a kernel: its plan, the results per data set (by index),
    and whether C was compiled."""

    plan: tuple | None
    results: dict
    built: bool = False


def is_compile_failure(error: Exception) -> bool:
    return "C compilation of" in str(error)


def _where(error: BaseException) -> str:
    """file:line (function) of the innermost frame of the traceback inside the repository's packages."""
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if re.search(r"/(spf|codegen|layouts)/[^/]+\.py$", f.filename)]
    frame = (inside or frames or [None])[-1]
    if frame is None:
        return ""
    parts = frame.filename.split("/")
    return f"{'/'.join(parts[-2:])}:{frame.lineno} ({frame.name})"


def _failure(error: BaseException, spf_kind: str) -> Result:
    if isinstance(error, spf.SpfError):
        kind = "compile" if is_compile_failure(error) else spf_kind
        return Result(kind, str(error))
    return Result("exception", f"{type(error).__name__}: {error}", _where(error))


def _variant_choices(compiled, variant: int) -> str:
    """The find templates of a variant (a fused kernel has one variant: its reports' choices)."""
    choices = compiled.variant_choices[variant] or tuple(r.chosen for r in compiled.reports)
    return describe_choices(choices)


def describe_choices(choices) -> str:
    """A variant's find templates, e.g. ``hashmap, seqiter(keyed)``."""
    parts = []
    for choice in choices:
        text = getattr(choice, "kind", str(choice))
        if getattr(choice, "keyed", ()):
            text += "(keyed)"
        parts.append(text)
    return ", ".join(parts) or "no finds"


_kernels: dict = {}  # KernelSpec -> (plan, kernel or the error), per worker process


class _Conversion:
    """``spf.convert`` of a convert case's input into its output's layout, called as a
    compiled kernel of one variant is (``bind``, then the call)."""

    c_source = ""
    variant_choices = [()]
    reports = ()

    def __init__(self, kernel: KernelSpec):
        statement, inputs = accesses(kernel.expression)
        (self.source,) = inputs
        self.output = statement.output.tensor
        self.layout = kernel.layout_map[self.output]
        self._functions = [None]

    def bind(self, **inputs):
        return functools.partial(spf.convert, inputs[self.source], self.layout, name=self.output)


def _compiled(kernel: KernelSpec):
    if kernel not in _kernels:
        if len(_kernels) > 64:
            _kernels.clear()
        plan = None
        if kernel.convert:
            _kernels[kernel] = ((), _Conversion(kernel), None)
            return _kernels[kernel]
        try:
            plan = plan_schedule(kernel)
            compiled = spf.compile(kernel.expression, kernel.layout_map, **compile_options(kernel, plan))
            # the kernel a call with data of the value type runs (its variants are the ones run)
            compiled = compiled.specialised(named_value_type(kernel.value_type)).build()
            _kernels[kernel] = (plan, compiled, None)
        except Exception as error:  # classified by the caller
            _kernels[kernel] = (plan, None, error)
    return _kernels[kernel]


def compare(got, expected: np.ndarray, scale: np.ndarray) -> float | None:
    """The largest error relative to the tolerance's scale, or None for a result of the wrong shape.
    A result is right when this is at most :data:`RTOL`."""
    if isinstance(got, spf.Tensor):
        got = got.to_dense()
    got = np.asarray(got, dtype=complex if np.iscomplexobj(got) or np.iscomplexobj(expected) else float)
    if got.shape != expected.shape:
        return None
    if got.size == 0:
        return 0.0
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf where both are inf: equal, error 0
        error = np.where(got == expected, 0.0, np.abs(got - expected) / (np.asarray(scale) + 1e-300))
    return float(np.max(np.where(np.isnan(error), np.inf, error)))


def sum_tolerance(kernel: KernelSpec, data: DataSpec, tolerance: float) -> float:
    """``tolerance``, or for a kernel computing in float32 the rounding of each of its additions:
    a sum of n products is right within about n float32 roundings of the terms' magnitude
    (the scale :func:`compare` divides by), n the product of the reduced indices' extents per term."""
    if kernel.value_type not in ("float32", "complex64"):
        return tolerance
    statement, _ = accesses(kernel.expression)
    extents = data.extent_map
    reduced = {i for term in statement.terms for f in term.factors for i in f.indices} - set(statement.output.indices)
    length = math.prod(extents[i] for i in reduced) * len(statement.terms)
    return max(tolerance, float(np.finfo(np.float32).eps) * (length + 4))


def result_tolerance(kernel: KernelSpec) -> float:
    """The largest error :func:`compare` may give a right result: :data:`RTOL_FLOAT32` when a
    layout of the kernel stores float32 values (a float32 output is rounded; the product of
    float32 values is computed in float32, as C computes it), else :data:`RTOL_ASSEMBLED` for
    a Tensor whose pattern spf computes and :data:`RTOL` for the rest."""
    statement, inputs = accesses(kernel.expression)
    orders = {**{tensor: len(indices) for tensor, indices in inputs.items()},
              statement.output.tensor: len(statement.output.indices)}
    if kernel.value_type in ("float32", "complex64") or any(value_dtype(layout, orders[tensor]) == np.float32
                                             for tensor, layout in kernel.layouts if tensor in orders):
        return RTOL_FLOAT32
    return RTOL if assembled_output(kernel) is None else RTOL_ASSEMBLED


def result_type(got) -> np.dtype:
    """The type of a result's values: a Tensor's layout's, an array's or a numpy scalar's."""
    return got.layout.value_type.dtype if isinstance(got, spf.Tensor) else np.asarray(got).dtype


def compare_assembled(got, layout: str, expected: np.ndarray, scale: np.ndarray,
                      entries: dict | None = None, tolerance: float = RTOL_ASSEMBLED,
                      value_type: str = "float64", reached: np.ndarray | None = None) -> tuple[float, str]:
    """For a result whose pattern spf computed (an assembled output, a conversion): the
    largest error as :func:`compare` gives it, or ``inf`` with the first problem found.

    The result must be a Tensor in ``layout`` of the expected shape whose fields have the
    declared types and pass :func:`spf.runtime.packing.validate` (the builder claims validity by
    construction), with each coordinate stored once and no value outside the shape; it
    stores exactly the oracle's nonzeros: an entry whose terms sum to exactly zero is not
    stored (a padded layout's stored zeros are no entries, as ``to_coo()`` drops them).
    A conversion (``entries``) stores exactly the source's entries, values unchanged,
    explicit zeros included where neither layout is padded.  Under a semiring (``reached``)
    it stores an entry exactly where a product reaches, whatever its value (GraphBLAS's
    pattern), and ``expected`` holds ⊕'s identity elsewhere.
    """
    if not isinstance(got, spf.Tensor):
        return math.inf, f"returned {type(got).__name__}, not a Tensor in {layout}"
    wanted = spf.load_layout(layout)
    wanted = wanted.resolve(expected.ndim) if hasattr(wanted, "resolve") else wanted
    wanted = wanted.with_value_type(named_value_type(value_type))
    if got.layout != wanted:
        return math.inf, f"a Tensor in {got.layout.spec}, not in {wanted.spec}"
    if tuple(got.shape) != expected.shape:
        return math.inf, f"shape {tuple(got.shape)}, expected {expected.shape}"
    for declared in got.layout.fields:
        value = got.fields.get(declared.name)
        if not declared.is_scalar and (not isinstance(value, np.ndarray) or value.dtype != declared.numpy_dtype
                                       or not value.flags.c_contiguous):
            return math.inf, (f"field {declared.name} is {getattr(value, 'dtype', type(value).__name__)}, "
                              f"declared {declared}")
    try:
        validate(got.layout, dict(got.fields), "result", got.shape)
    except spf.SpfError as error:
        return math.inf, f"its fields break the layout: {error}"
    positions, stored_values = got.stored()
    if len(positions):
        outside = ~np.all((positions >= 0) & (positions < np.asarray(expected.shape)), axis=1) & (stored_values != 0)
        if outside.any():
            at = np.flatnonzero(outside)[0]
            return math.inf, f"stores {float(stored_values[at])!r} at {tuple(positions[at].tolist())}, outside the shape"
    coords, values, _ = got.to_coo()  # in lexicographic order: a coordinate stored twice is adjacent
    twice = np.flatnonzero(np.all(coords[1:] == coords[:-1], axis=1)) if len(coords) > 1 else ()
    if len(twice):
        return math.inf, f"stores coordinate {tuple(coords[twice[0]].tolist())} more than once"

    def stored() -> dict:
        return dict(zip(map(tuple, coords.tolist()), values.tolist()))

    def nonzero() -> dict:
        return {key: expected[key] for key in map(tuple, np.argwhere(expected != 0).tolist())}

    if entries is not None:
        return (0.0, "") if stored() == entries else (math.inf, _entry_difference(stored(), entries))
    if reached is not None:
        wanted = {key: expected[key] for key in map(tuple, np.argwhere(reached).tolist())}
        if set(stored()) != set(wanted):
            return math.inf, "not the positions products reach: " + _entry_difference(stored(), wanted)
        dense = np.array(expected, dtype=np.result_type(expected, values))  # ⊕'s identity where none reaches
        if len(coords):
            dense[tuple(coords.T)] = values
        error = compare(dense, expected, scale)
        return (error, "") if error is not None and error <= tolerance else (error, _entry_difference(stored(), wanted))
    if not got.layout.padded and np.any(values == 0):
        at = tuple(coords[np.flatnonzero(values == 0)[0]].tolist())
        return math.inf, (f"stores an explicit zero at {at} (terms summing to zero are not stored); "
                          + _entry_difference(stored(), nonzero()))
    error = compare(got, expected, scale)
    if error is None:
        return math.inf, "result of the wrong shape"
    return (error, "") if error <= tolerance else (error, _entry_difference(stored(), nonzero()))


def _entry_difference(stored: dict, wanted: dict) -> str:
    """How stored entries differ from the wanted ones: the first missing, extra and different entry."""
    missing = sorted(set(wanted) - set(stored))
    extra = sorted(set(stored) - set(wanted))
    different = sorted(key for key in set(stored) & set(wanted) if stored[key] != wanted[key])
    parts = [f"{len(missing)} missing (first {missing[0]} = {float(wanted[missing[0]])!r})"] if missing else []
    if extra:
        parts.append(f"{len(extra)} not expected (first {extra[0]} = {float(stored[extra[0]])!r})")
    if different:
        key = different[0]
        parts.append(f"{len(different)} with other values (first {key}: {float(stored[key])!r}, expected "
                     f"{float(wanted[key])!r})")
    return "; ".join(parts) or "the same entries"


def check_kernel(kernel: KernelSpec, data: tuple, repeats: int, first: int = 0) -> Checked:
    """Compile the kernel and check every variant on data sets ``first, first+1, ...``
    (each repetition of a parallel kernel separately); the classes are in ``CLASSES``."""
    if kernel.damage:
        return check_damaged_cache(kernel, data, repeats, first)
    report(("compile", first))
    plan, compiled, error = _compiled(kernel)
    report(("plan", plan))
    results: dict[int, Result] = {}
    if error is not None:
        result = _failure(error, "refused")
        return Checked(plan, {n: result for n in range(first, len(data))})
    functions = compiled._functions  # one C function per variant of the finds (Kernel.build)
    parallel_c = "#pragma omp parallel" in compiled.c_source
    assembled = assembled_output(kernel)  # (output, layout) of a Tensor whose pattern spf computes
    tolerance = result_tolerance(kernel)
    runs = repeats if parallel_c else 1
    started = time.monotonic()
    for n in range(first, len(data)):
        if time.monotonic() - started > KERNEL_BUDGET:
            results[n] = Result("slow", f"not checked: the kernel ran {KERNEL_BUDGET:.0f} s on the data sets "
                                "before this one")
            report(("result", n, results[n]))
            continue
        report(("data", n))
        try:
            prepared = make_data(kernel, data[n])
        except Exception as error:
            results[n] = _failure(error, "run-error")
            results[n].message = "making the data: " + results[n].message
            report(("result", n, results[n]))
            continue
        result = Result("ok", variants=len(functions), parallel_c=parallel_c)
        for variant, function in enumerate(functions):
            wrong, worst, ran, problem = 0, 0.0, 0, ""
            for attempt in range(runs):
                report(("run", n, variant, attempt))
                try:
                    bound = compiled.bind(**prepared.inputs)
                    bound.function = function
                    run_started = time.monotonic()
                    got = bound()
                    long_run = time.monotonic() - run_started > LONG_RUN
                except Exception as error:
                    failed = _failure(error, "run-error")
                    result = replace(failed, variant=variant, variants=len(functions), parallel_c=parallel_c,
                                     choices=_variant_choices(compiled, variant), runs=attempt + 1)
                    break
                allowed = sum_tolerance(kernel, data[n], tolerance)
                if assembled is None:
                    error_value, found = compare(got, prepared.expected, prepared.scale), ""
                else:
                    error_value, found = compare_assembled(got, assembled[1], prepared.expected, prepared.scale,
                                                           prepared.entries, allowed, result_value_type(kernel),
                                                           prepared.reached)
                if kernel.value_type != "float64" and result_type(got) != kernel.dtype:
                    error_value, found = math.inf, f"a result of {result_type(got)}, not {kernel.value_type}"
                result.runs += 1
                ran += 1
                if error_value is None or error_value > allowed:
                    wrong += 1
                    worst = math.inf if error_value is None else max(worst, error_value)
                    problem = problem or found
                if long_run:
                    break
            else:
                if wrong and result.kind == "ok":
                    result = replace(result, kind="wrong", max_error=worst, wrong_runs=wrong, variant=variant,
                                     choices=_variant_choices(compiled, variant),
                                     message=(f"wrong in {wrong} of {ran} runs, largest error {worst:.3g} "
                                              "of the terms' magnitude" if worst != math.inf
                                              else "result of the wrong shape" if not problem
                                              else f"wrong in {wrong} of {ran} runs")
                                     + (f": {problem}" if problem else ""))
                continue
            break
        results[n] = result
        report(("result", n, result))  # kept by the parent if the worker dies later
    return Checked(plan, results, built=True)


# ----------------------------------------------------------------------------- a damaged kernel cache


def damage_cache(folder: Path, how: str, entries: str) -> list[Path]:
    """Damage the cache ``folder``'s ``entries`` ("libraries": the ``*.so``; "metadata":
    the kernels' pickles and the libraries' records) as ``how`` says: "truncate" (to half
    their length), "empty" or "garbage" (random bytes, the same length); the files damaged."""
    from spf.codegen.toolchain.compiler import RECORD_SUFFIX
    if entries == "libraries":
        paths = sorted(folder.glob("*.so"))
    else:
        paths = sorted(folder.glob("kernels/*.pickle")) + sorted(folder.glob(f"*.so{RECORD_SUFFIX}"))
    rng = np.random.default_rng(len(paths))
    for path in paths:
        size = path.stat().st_size
        if how == "garbage":
            path.write_bytes(rng.integers(0, 256, max(size, 1), dtype=np.uint8).tobytes())
        else:
            os.truncate(path, size // 2 if how == "truncate" else 0)
    return paths


def check_damaged_cache(kernel: KernelSpec, data: tuple, repeats: int, first: int = 0) -> Checked:
    """A case with ``kernel.damage``: the kernel checked (as :func:`check_kernel` does) in a
    new process on a cache folder of its own, which fills it; the cache damaged; then
    checked again in another new process, which must compile (rebuilding what is
    damaged) and compute right.  A new process that dies is a crash; a refusal after the
    damage of what compiled before it, a run-error."""
    import tempfile
    how, entries = kernel.damage
    plain = replace(kernel, damage=())
    with tempfile.TemporaryDirectory(prefix="spf-fuzz-cache-") as folder:
        before = _check_in_a_new_process(plain, data, repeats, first, Path(folder), results=False)
        damaged = damage_cache(Path(folder), how, entries)
        after = _check_in_a_new_process(plain, data, repeats, first, Path(folder), results=True)
    what = f"the cache's {entries} damaged ({how}, {len(damaged)} files)"
    results = {}
    for n in range(first, len(data)):
        earlier, result = before.results[n], after.results[n]
        if earlier.kind in FAILURES:
            results[n] = replace(earlier, message=f"before {what}: {earlier.message}")
        elif result.kind == "refused" and earlier.kind != "refused":  # spf refused what it had compiled
            results[n] = replace(result, kind="run-error", message=f"after {what}: {result.message}")
        else:
            results[n] = result if result.kind in ("ok", "refused", "slow") else \
                replace(result, message=f"after {what}: {result.message}")
    return Checked(after.plan, results, built=after.built)


class _Lines:
    """Stands for the worker's pipe in a new process: each report a line of hex pickle."""

    def __init__(self, stream):
        self.stream = stream

    def send(self, message) -> None:
        self.stream.write(pickle.dumps(message).hex() + "\n")
        self.stream.flush()


def _check_in_a_new_process(kernel: KernelSpec, data: tuple, repeats: int, first: int, folder: Path,
                            results: bool) -> Checked:
    """:func:`check_kernel` in a new Python process with ``folder`` as its kernel cache; its
    reports are passed on (its results too, with ``results``); its death is a crash of
    every data set it did not check."""
    task = folder / ".fuzz-task.pickle"
    task.write_bytes(pickle.dumps((kernel, data, repeats, first)))
    errors = folder / ".fuzz-stderr.txt"
    program = (f"import sys; sys.path.insert(0, {str(REPOSITORY_TESTS)!r}); import fuzz_harness; "
               f"fuzz_harness._serve_one({str(task)!r}, {os.getpid()})")
    checked, reported, stage = None, {}, ("compile", first)
    with open(errors, "w") as error_stream:
        process = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE, stderr=error_stream,
                                   text=True, env={**os.environ, "SPF_CACHE_DIR": str(folder)})
        for line in process.stdout:
            try:
                kind, value = pickle.loads(bytes.fromhex(line.strip()))
            except (ValueError, pickle.UnpicklingError, EOFError):
                continue
            if kind == "done":
                checked = value
            elif value[0] == "result":
                reported[value[1]] = value[2]
                if results:
                    report(value)
            else:
                stage = value if value[0] in ("compile", "data", "run") else stage
                report(value)
        status = process.wait()
    if checked is not None and status == 0:
        return checked
    signal = f" (signal {-status})" if status < 0 else ""
    last = errors.read_text()[-1500:] if status > 0 else ""
    doing = {"compile": "compiling", "data": "packing the data", "run": "running the kernel"}[stage[0]]
    message = f"a new process on its cache exited with status {status}{signal} while {doing}" + \
        (f":\n{last}" if last else "")
    kind = "crash" if status < 0 else "exception"
    died = Result(kind, message, variant=stage[2] if stage[0] == "run" else None)
    return Checked(None, {n: reported.get(n, died) for n in range(first, len(data))})


def _serve_one(task: str, parent: int) -> None:
    """In a new process: :func:`check_kernel` of the pickled task, reports and result as
    lines on the original standard output (anything else printed goes to stderr).  Dies
    with its parent (a worker the pool killed)."""
    global _connection
    import ctypes
    import signal
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)
    channel = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    _connection = _Lines(channel)
    kernel, data, repeats, first = pickle.loads(Path(task).read_bytes())
    _connection.send(("done", check_kernel(kernel, data, repeats, first)))


# ----------------------------------------------------------------------------- the driver


@dataclass
class Failure:
    kernel: KernelSpec
    data: DataSpec
    plan: tuple | None
    result: Result

    @property
    def cause(self) -> str:
        return cause(self)


@dataclass
class Tally:
    cases: Counter = field(default_factory=Counter)  # class -> (kernel, data) cases
    assembled: Counter = field(default_factory=Counter)  # class -> cases of an assembled output or a conversion
    damaged: Counter = field(default_factory=Counter)  # class -> cases checked after damaging the kernel cache
    kernels: Counter = field(default_factory=Counter)  # "specs", "built", "refused", "failed", "distinct C"
    runs: int = 0  # kernel calls compared with the oracle
    refusals: Counter = field(default_factory=Counter)  # first line of each refusal
    failures: list = field(default_factory=list)
    skipped: int = 0  # data sets not run after a hang of their kernel
    slowest: list = field(default_factory=list)  # (seconds, kernel spec) of the slowest tasks
    seconds: float = 0.0

    def summary(self) -> str:
        total = sum(self.cases.values())
        lines = [f"{total} cases ((kernel, data) checks), {self.runs} kernel runs compared with numpy.einsum, "
                 f"{self.seconds:.0f} s"]
        lines.append("  " + ", ".join(f"{kind} {self.cases[kind]}" for kind in CLASSES))
        if self.assembled:
            lines.append("  of which sparse outputs spf assembles (kernels, spf.convert): "
                         + ", ".join(f"{kind} {self.assembled[kind]}" for kind in CLASSES if self.assembled[kind])
                         + f" ({self.assembled['parallel C']} ok with an OpenMP loop)")
        if self.damaged:
            lines.append("  of which checked in a new process after damaging the kernel cache: "
                         + ", ".join(f"{kind} {self.damaged[kind]}" for kind in CLASSES if self.damaged[kind]))
        lines.append(f"  kernels: {self.kernels['specs']} specs, {self.kernels['built']} compiled and run "
                     f"({self.kernels['distinct C']} distinct C sources, {self.kernels['semiring']} under a semiring "
                     f"other than plus_times, {self.kernels['typed']} over values other than float64, "
                     f"{self.kernels['masked']} masked), {self.kernels['refused']} refused, "
                     f"{self.kernels['failed']} failed to compile or raised"
                 + (f"; {self.skipped} data sets not run after a hang" if self.skipped else ""))
        return "\n".join(lines)


def _refusal_line(message: str) -> str:
    line = message.strip().splitlines()[0] if message.strip() else ""
    return re.sub(r"\d+", "N", line)[:140]


def _stage_message(outcome: Outcome, stage: tuple, timeout: float) -> str:
    if outcome.kind == "died":
        message = f"worker died with exit code {outcome.exitcode}"
        if (outcome.exitcode or 0) < 0:
            message += f" (signal {-outcome.exitcode})"
    else:
        message = f"no progress in {timeout:.0f} s"
    return message + {"compile": " while compiling", "data": " while packing the data",
                      "run": " while running the kernel"}[stage[0]]


def _quartered(data: DataSpec) -> DataSpec:
    return replace(data, extents=tuple((i, max(1, e // 4) if e else 0) for i, e in data.extents))


def _work(data: DataSpec) -> int:
    return math.prod(max(1, e) for _, e in data.extents)


def _plan_in_parent(kernel: KernelSpec) -> tuple | None:
    """The plan of a kernel whose worker died before returning it (for the reproducer)."""
    try:
        return plan_schedule(kernel)
    except Exception:
        return None


def run_cases(cases: list[Case], jobs: int = 2, repeats: int = 3, timeout: float = 90.0, threads: int = 2,
              progress=None, pool: WorkerPool | None = None, check=check_kernel) -> Tally:
    """Check every case in a pool of ``jobs`` workers with ``threads`` OpenMP threads each
    (or in ``pool``); ``check`` runs in the workers (:func:`check_kernel`).

    A worker that dies loses the data set it was running (a crash); the kernel's later data
    sets go to a new worker.  A worker that reports no progress for ``timeout`` seconds is
    stopped, and the data set is tried again at a quarter of its extents: a kernel that is
    right there was only slow (a bad loop order makes a kernel of higher complexity), one
    that stalls again hangs.  Later data sets as large go unrun after either."""
    started = time.monotonic()
    tally = Tally()
    own = pool is None
    pool = pool or WorkerPool(jobs, {"OMP_NUM_THREADS": str(threads), "SPF_PARALLEL_GRAIN": "1"})
    sources: set[int] = set()
    tasks = [(check, (case.kernel, case.data, repeats, 0)) for case in cases]
    retries: dict[int, tuple] = {}  # task -> (case, data index, message) of a retry at a quarter of the extents
    owners = list(range(len(cases)))  # task -> case
    tally.kernels["specs"] = len(cases)

    def record(case: Case, data: DataSpec, plan, result: Result) -> None:
        tally.cases[result.kind] += 1
        if case.kernel.damage:
            tally.damaged[result.kind] += 1
        if assembled_output(case.kernel) is not None:
            tally.assembled[result.kind] += 1
            tally.assembled["parallel C"] += result.kind == "ok" and result.parallel_c
        tally.runs += result.runs
        if result.kind == "refused":
            tally.refusals[_refusal_line(result.message)] += 1
        elif result.kind not in ("ok", "slow"):
            if plan is None and not at_compile_time(result):
                plan = _plan_in_parent(case.kernel)
            tally.failures.append(Failure(case.kernel, data, plan, result))

    done = 0
    try:
        for index, outcome in pool.run(tasks, timeout):
            case = cases[owners[index]]
            data, first = tasks[index][1][1], tasks[index][1][3]
            if outcome.kind == "error":
                raise RuntimeError(f"the fuzz harness failed in a worker:\n{outcome.value}")
            if index in retries:
                _, original, message = retries.pop(index)
                smaller = data[0]
                if outcome.kind == "done":
                    result = outcome.value.results[0]
                    if result.kind == "ok":
                        record(case, original, None, Result("slow", message + "; right at a quarter of "
                                                                  "the extents", runs=result.runs))
                    else:
                        record(case, smaller, outcome.value.plan, result)
                else:
                    stages = [r for r in outcome.reports if r[0] in ("compile", "data", "run")]
                    stage = stages[-1] if stages else ("compile", 0)
                    kind = "crash" if outcome.kind == "died" else "hang"
                    record(case, original if kind == "hang" else smaller, None,
                           Result(kind, message if kind == "hang" else _stage_message(outcome, stage, timeout),
                                  variant=stage[2] if stage[0] == "run" else None))
            elif outcome.kind == "done":
                checked: Checked = outcome.value
                for n, result in sorted(checked.results.items()):
                    record(case, data[n], checked.plan, result)
                if first == 0:
                    first_result = next(iter(checked.results.values()), None)
                    if checked.built:
                        tally.kernels["built"] += 1
                        tally.kernels["semiring"] += case.kernel.semiring != "plus_times"
                        tally.kernels["typed"] += case.kernel.value_type != "float64"
                        tally.kernels["masked"] += bool(case.kernel.mask)
                        sources.add(hash((case.kernel.expression, case.kernel.layouts, str(checked.plan),
                                          case.kernel.find, case.kernel.parallel, case.kernel.semiring,
                                          case.kernel.value_type, case.kernel.mask)))
                    elif first_result is not None and first_result.kind == "refused":
                        tally.kernels["refused"] += 1
                    else:
                        tally.kernels["failed"] += 1
            else:  # died or stalled: keep what it reported, then the rest in a new worker
                plans = [r[1] for r in outcome.reports if r[0] == "plan"]
                plan = plans[0] if plans else None
                for report_ in outcome.reports:
                    if report_[0] == "result":
                        record(case, data[report_[1]], plan, report_[2])
                stages = [r for r in outcome.reports if r[0] in ("compile", "data", "run")]
                stage = stages[-1] if stages else ("compile", first)
                message = _stage_message(outcome, stage, timeout)
                kind = "crash" if outcome.kind == "died" else "hang"
                if first == 0:
                    tally.kernels["failed" if stage[0] == "compile" else "built"] += 1
                if stage[0] == "compile":
                    for n in range(first, len(data)):
                        record(case, data[n], None, Result(kind, message))
                else:
                    at = stage[1]
                    variant = stage[2] if stage[0] == "run" else None
                    rest = data[at + 1:]
                    if kind == "crash":
                        record(case, data[at], plan, Result(kind, message, variant=variant))
                    else:
                        retries[len(tasks)] = (owners[index], data[at], message)
                        tasks.append((check, (case.kernel, (_quartered(data[at]),), repeats, 0)))
                        owners.append(owners[index])
                        kept = tuple(d for d in rest if _work(d) * 8 <= _work(data[at]))
                        tally.skipped += len(rest) - len(kept)
                        rest = kept
                    if rest:
                        # the kernel's later data sets, in a new worker (the list's head is never run again)
                        tasks.append((check, (case.kernel, data[:at + 1] + rest, repeats, at + 1)))
                        owners.append(owners[index])
            tally.slowest = sorted(tally.slowest + [(outcome.seconds, case.kernel)], key=lambda t: -t[0])[:10]
            done += 1
            if progress is not None:
                progress(done, len(tasks), tally)
    finally:
        if own:
            pool.close()
    tally.kernels["distinct C"] = len(sources)
    tally.seconds = time.monotonic() - started
    return tally


# ----------------------------------------------------------------------------- causes, minimization, reproducers


def _normalized(text: str) -> str:
    text = re.sub(r"/\S+/", "", text)
    text = re.sub(r"\b(spf_kernel|spf_fused)_\w+", r"\1_*", text)
    return re.sub(r"\d+(\.\d+)?", "N", text)


def _layout_name(spec: str) -> str:
    """A layout spec without its parameters or directory: BCSR(R=2, C=3) -> BCSR, a path -> its file's stem."""
    return spec.split("(")[0].rsplit("/", 1)[-1].removesuffix(".layout")


def cause(failure: Failure) -> str:
    """A key that groups failures that probably share a cause."""
    result, kernel = failure.result, failure.kernel
    if kernel.damage and result.message.startswith("after "):
        how, entries = kernel.damage
        return f"{result.kind}: after damaging the kernel cache's {entries} ({how}): {kernel.family}"
    if result.kind == "compile":
        errors = [line.split("error:", 1)[1].strip() for line in result.message.splitlines() if "error:" in line]
        return f"compile: {_normalized(errors[0]) if errors else _refusal_line(result.message)}"
    if result.kind == "exception":
        return f"exception: {_normalized(result.message.splitlines()[0])[:120]} at {result.where.split(':')[0]}"
    if result.kind == "run-error":
        return f"run-error: {_normalized(result.message.splitlines()[0])[:120]}"
    schedule = kernel.schedule
    if schedule == "recipe" and failure.plan:
        steps = [s for s in failure.plan[1]]
        schedule = "recipe " + " ".join(s[0] + (f"({s[2]})" if s[0] == "parallelize" and s[2] else "")
                                        for s in steps)
    parallel = "parallel C" if result.parallel_c else "serial C"
    family = kernel.family
    assembled = assembled_output(kernel)
    if kernel.convert:
        family += f" {_layout_name(kernel.layouts[0][1])} -> {_layout_name(assembled[1])}"
    elif assembled is not None:
        family += f" into {_layout_name(assembled[1])}"
    return f"{result.kind}: {family}, {parallel}, {schedule}, finds [{result.choices}]"


def at_compile_time(result: Result) -> bool:
    """Whether the case failed before any data was made (compiling, or planning the schedule)."""
    return result.variant is None and result.runs == 0 and not result.message.startswith("making the data") \
        and "while packing" not in result.message


def _smaller_data(data: DataSpec, kernel: KernelSpec) -> list[DataSpec]:
    """Data sets a step smaller than ``data``: all extents halved, then each index class halved."""
    extents = data.extent_map
    candidates = []
    if any(e > 1 for e in extents.values()):
        candidates.append(replace(data, extents=tuple((i, max(1, e // 2)) for i, e in data.extents)))
    for members in index_classes(kernel):
        if extents[members[0]] > 1:
            smaller = {**extents, **{i: max(1, extents[i] // 2) for i in members}}
            candidates.append(replace(data, extents=tuple(sorted(smaller.items()))))
    if not data.integers:
        candidates.append(replace(data, integers=True))
    return candidates


def _simpler_kernels(kernel: KernelSpec, plan: tuple | None) -> list[KernelSpec]:
    candidates = []
    if kernel.parallel:
        candidates.append(replace(kernel, parallel=False, plan=plan))
    if plan and plan[0] == "recipe":
        steps = plan[1]
        for n in range(len(steps)):
            candidates.append(replace(kernel, plan=("recipe", steps[:n] + steps[n + 1:])))
    if plan and plan[0] in ("order", "recipe"):
        candidates.append(replace(kernel, schedule="default", plan=()))
    if kernel.find != "auto":
        candidates.append(replace(kernel, find="auto", plan=plan))
    return candidates


def minimize(failure: Failure, pool: WorkerPool, repeats: int, timeout: float, budget: int = 16,
             check=check_kernel) -> Failure:
    """A smaller case that fails the same way (same kind of failure, same family), within
    ``budget`` re-runs: without ``parallel``, without each recipe step, with the default
    schedule or ``find``, then on smaller data (halved extents, integer values); a parallel
    kernel keeps its data, on which its threads overlap."""
    current = replace(failure, kernel=replace(failure.kernel, plan=failure.plan) if failure.plan is not None
                      else failure.kernel)
    target = failure.cause

    def attempt(kernel: KernelSpec, data: DataSpec) -> Failure | None:
        nonlocal budget
        budget -= 1
        tally = run_cases([Case(kernel, (data,))], repeats=repeats, timeout=timeout, pool=pool, check=check)
        for found in tally.failures:
            if found.cause.split(",")[0] == target.split(",")[0] and found.result.kind == failure.result.kind:
                return found
        return None

    # races show on data that keeps the threads busy: a parallel kernel keeps its data
    data_matters = not at_compile_time(failure.result) and not failure.result.parallel_c
    improved = True
    while improved and budget > 0:
        improved = False
        for kernel in _simpler_kernels(current.kernel, current.plan):
            if budget <= 0:
                break
            found = attempt(kernel, current.data)
            if found is not None:
                current = replace(found, kernel=replace(found.kernel, plan=found.plan))
                improved = True
                break
        if improved:
            continue
        for data in _smaller_data(current.data, current.kernel) if data_matters else ():
            if budget <= 0:
                break
            found = attempt(current.kernel, data)
            if found is not None:
                current = replace(found, kernel=replace(found.kernel, plan=found.plan))
                improved = True
                break
    return current


def _compile_call(kernel: KernelSpec, plan: tuple | None) -> list[str]:
    lines = []
    arguments = [repr(kernel.expression), repr(kernel.layout_map)]
    if kernel.find != "auto":
        arguments.append(f"find={kernel.find!r}")
    if kernel.share:
        arguments.append(f"share={kernel.share_map!r}")
    if kernel.parallel:
        arguments.append("parallel=True")
    if kernel.semiring != "plus_times":
        arguments.append(f"semiring={kernel.semiring!r}")
    if kernel.mask:
        arguments.append(f"mask={kernel.mask[0]!r}, mask_values={kernel.mask[1]!r}")
    if plan and plan[0] == "order":
        arguments.append(f"order={list(plan[1])!r}")
    elif plan and plan[0] == "recipe":
        recipe = f"spf.recipe({kernel.expression!r}, {kernel.layout_map!r}" + \
                 (f", share={kernel.share_map!r})" if kernel.share else ")")
        for step in plan[1]:
            if step[0] == "permute":
                recipe += f".permute({', '.join(repr(v) for v in step[1])})"
            elif step[0] == "find":
                recipe += f".find({step[1]!r}, {step[2]!r})"
            elif step[0] == "tile":
                recipe += f".tile({step[1]!r}, {step[2]})"
            else:
                recipe += f".parallelize({step[1]!r}" + (f", reduction={step[2]!r}" if step[2] else "") + \
                          (f", schedule={step[3]!r})" if step[3] != "dynamic,32" else ")")
        lines.append(f"r = {recipe}")
        arguments.append("schedule=r")
    elif plan and plan[0] in ("candidate", "tree"):
        listing = "candidates" if plan[0] == "candidate" else "generated"
        lines.append(f"c = spf.autoschedule({kernel.expression!r}, {kernel.layout_map!r}"
                     + (f", share={kernel.share_map!r}" if kernel.share else "")
                     + f").{listing}[{plan[1]}]   # {plan[2]}")
        arguments.append("schedule=c")
    elif plan and plan[0] == "written":
        lines.append(f"c = spf.schedule({plan[1]!r}, {kernel.expression!r}, {kernel.layout_map!r}"
                     + (f", share={kernel.share_map!r}" if kernel.share else "") + ")")
        arguments.append("schedule=c")
    lines.append(f"k = spf.compile({', '.join(arguments)})")
    if kernel.value_type != "float64":  # the variants a call with data of the type runs
        lines.append(f"k = k.specialised(spf.notation.value_types.value_type({kernel.value_type!r}))")
    return lines


LITERAL_ENTRIES = 40  # data with at most this many stored entries is written out in the reproducer


def _damaging_prologue(how: str, entries: str) -> list[str]:
    """Lines that run the rest of a reproducer twice in new processes on a cache of its own,
    damaging the cache between the two (a case with ``damage``)."""
    return ["import os, subprocess, sys, tempfile",
            "if 'SPF_FUZZ_DAMAGED' not in os.environ:  # fill a cache, damage it, run the rest again on it",
            "    environment = {**os.environ, 'SPF_CACHE_DIR': tempfile.mkdtemp(), 'SPF_FUZZ_DAMAGED': 'before'}",
            "    subprocess.run([sys.executable, __file__], env=environment, check=True)",
            f"    sys.path.insert(0, {str(REPOSITORY_TESTS)!r}); from pathlib import Path",
            "    from fuzz_harness import damage_cache",
            f"    damaged = damage_cache(Path(environment['SPF_CACHE_DIR']), {how!r}, {entries!r})",
            f"    print('damaged', len(damaged), 'files: {entries}, {how}', flush=True)",
            "    environment['SPF_FUZZ_DAMAGED'] = 'after'",
            "    sys.exit(subprocess.run([sys.executable, __file__], env=environment).returncode)"]


def reproducer(failure: Failure) -> str:
    """A few lines of Python that show the failure."""
    kernel, data, result, plan = failure.kernel, failure.data, failure.result, failure.plan
    header = f"# {result.kind.upper()}: {result.message.splitlines()[0] if result.message else ''}"
    if result.where:
        header += f" at {result.where}"
    lines = [header, "import numpy as np, spf"]
    if kernel.damage:
        lines += _damaging_prologue(*kernel.damage)
    if at_compile_time(result) and not kernel.convert:
        lines += _compile_call(kernel, plan)
        lines.append("k.build()  # compiles the C")
        return "\n".join(lines)
    statement, inputs = accesses(kernel.expression)
    try:
        prepared = make_data(kernel, data)
        entries = sum(int(np.count_nonzero(a)) for a in prepared.dense.values())
    except Exception:
        prepared, entries = None, LITERAL_ENTRIES + 1
    if prepared is not None and entries <= LITERAL_ENTRIES and max(data.extent_map.values(), default=0) <= 16:
        for tensor, packed in prepared.inputs.items():
            layout = kernel.layout_map[tensor]
            if layout in UNSORTED:
                fields = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in packed.fields.items()}
                lines.append(f"{tensor} = spf.pack({layout!r}, {{k: np.array(v) if isinstance(v, list) else v "
                             f"for k, v in {fields!r}.items()}}, name={tensor!r})")
            else:
                array = prepared.dense[tensor]
                coords = prepared.coords[tensor]  # explicit zeros included
                values = array[tuple(coords.T)] if len(coords) else np.zeros(0)
                lines.append(f"{tensor} = spf.pack({layout!r}, (np.array({coords.tolist()!r}, dtype=int).reshape(-1, "
                             f"{array.ndim}), np.array({values.tolist()!r}, dtype={kernel.value_type!r}), "
                             f"{array.shape!r}), name={tensor!r})")
    else:
        lines.insert(1, f"import sys; sys.path.insert(0, {str(REPOSITORY_TESTS)!r})")
        lines.append("from fuzz_cases import KernelSpec, DataSpec, make_data")
        lines.append(f"kernel = {kernel!r}")
        lines.append(f"inputs = make_data(kernel, {data!r}).inputs")
        names = list(inputs) + ([MASK_TENSOR] if kernel.mask else [])
        lines.append(f"{', '.join(names)}, = (inputs[name] for name in {names!r})")
    assembled = assembled_output(kernel)
    if not kernel.convert:
        lines += _compile_call(kernel, plan)
    if kernel.semiring != "plus_times":  # the oracle over the inputs' stored entries
        lines.insert(1, f"import sys; sys.path.insert(0, {str(REPOSITORY_TESTS)!r})")
        lines.append("from fuzz_cases import KernelSpec, semiring_oracle, semiring_reached")
        operands = f"{{{', '.join(f'{t!r}: {t}' for t in inputs)}}}"
        shape = tuple(data.extent_map[i] for i in statement.output.indices)
        lines.append(f"expected, _ = semiring_oracle({kernel!r}, {operands}, {shape!r})")
        if assembled is not None:  # its entries: where a product reaches, whatever the value
            lines.append(f"reached = semiring_reached({kernel!r}, {operands}, {shape!r})")
    else:
        terms = []
        for coefficient, subscripts, tensors in einsum_terms(statement):
            call = f"np.einsum({subscripts!r}, {', '.join(t + '.to_dense()' for t in tensors)})"
            terms.append(call if coefficient == 1 else f"{coefficient!r} * {call}")
        lines.append(f"expected = {' + '.join(terms)}")
    for output, source in kernel.share if kernel.semiring == "plus_times" else ():
        lines.append(f"mask = np.zeros(expected.shape, bool); c = {source}.stored()[0]")
        lines.append("mask[tuple(c[np.all(c < expected.shape, axis=1)].T)] = True; expected = expected * mask")
    if kernel.mask:  # the expected result where the mask keeps it
        lines.insert(1, f"import sys; sys.path.insert(0, {str(REPOSITORY_TESTS)!r})")
        lines.append("from fuzz_cases import KernelSpec, apply_mask, make_mask")
        lines.append(f"kept = make_mask({kernel!r}, expected.shape, {data.seed!r})[3]")
        lines.append(f"expected = apply_mask({kernel!r}, expected, kept)")
        if kernel.semiring != "plus_times" and assembled is not None:
            lines.append("reached = reached & kept")
    arguments = ", ".join(f"{t}={t}" for t in [*inputs, *([MASK_TENSOR] if kernel.mask else [])])
    variant = result.variant if result.variant is not None else 0
    if kernel.convert:
        body = [f"run = lambda: spf.convert({next(iter(inputs))}, {assembled[1]!r}, name={assembled[0]!r})"]
    else:
        body = [f"run = k.bind({arguments})"]
    if result.variants > 1:
        body.append(f"run.function = k._functions[{variant}]  # variant {variant} of {result.variants}: "
                    f"{result.choices}")
    if assembled is None:
        body += ["got = run(); got = got.to_dense() if isinstance(got, spf.Tensor) else np.asarray(got)",
                 "print(np.abs(got - expected).max())"]
    else:  # the Tensor's layout, its fields checked against it, the entries it stores against the nonzeros
        if kernel.convert:
            source = next(iter(inputs))
            body.append(f"c, v, _ = {source}.to_coo(); wanted = dict(zip(map(tuple, c.tolist()), v.tolist()))"
                        "  # the source's entries")
            if is_padded(assembled[1], len(statement.output.indices)):
                body.append("wanted = {key: value for key, value in wanted.items() if value != 0}  # padded target")
            if value_dtype(assembled[1], len(statement.output.indices)) == np.float32:
                body.append("wanted = {key: float(np.float32(value)) for key, value in wanted.items()}  # float32 target")
        elif kernel.semiring != "plus_times":
            body.append("wanted = {tuple(c): expected[tuple(c)] for c in np.argwhere(reached).tolist()}")
        else:
            body.append("wanted = {tuple(c): expected[tuple(c)] for c in np.argwhere(expected != 0).tolist()}")
        body += ["got = run(); print(got.layout.spec, got.shape)",
                 "from spf.runtime.validation import validate; validate(got.layout, dict(got.fields), 'got', got.shape)",
                 "c, v, _ = got.to_coo(); stored = dict(zip(map(tuple, c.tolist()), v.tolist()))",
                 "print(len(c) - len(stored), sorted(set(stored) ^ set(wanted))[:8],"
                 " max([abs(stored.get(key, 0) - wanted.get(key, 0)) for key in set(stored) | set(wanted)],"
                 " default=0.0))"]
    if result.parallel_c:
        # threads race when they are preempted mid-loop: another busy process makes that happen
        lines += ["import os, subprocess, sys",
                  "busy = 'import os\\nwhile os.getppid() == %d: pass' % os.getpid()  # ends with this script",
                  "load = subprocess.Popen([sys.executable, '-c', busy])  # races show under load",
                  "try:",
                  "    for attempt in range(20):"]
        lines += ["        " + line for line in body]
        lines += ["finally:", "    load.kill()  # also when the body raises: no busy process left behind"]
    else:
        lines += body
    return "\n".join(lines)

