"""The machine constants of the autoscheduler's work model, measured once per machine.

:mod:`spf.scheduling.autoscheduler.machine_cost` prices a schedule in events (a sparse
level walked, a vectorised or scalar innermost iteration, a strided read, a find); the
seconds per event depend on the machine and the C compiler.  Six timings of five
micro-kernels (``calibration.c``, built with the kernels' flags) and one of a mode-order
copy measure them in about a second; the result is kept in the kernel cache folder, keyed
by the processor and the compiler build, so a machine calibrates once.

``SPF_CALIBRATION=defaults`` uses :data:`DEFAULT_CONSTANTS` instead (deterministic
choices, e.g. for tests); ``SPF_CALIBRATION=again`` measures again and replaces the
cached file.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import platform
import time
from pathlib import Path
from typing import Callable

import numpy as np

from spf.codegen.toolchain.cache_folder import cache_directory
from spf.codegen.toolchain.compiler import build_shared_library, load_library
from spf.errors import SpfError
from spf.runtime.conversion import permuted
from spf.runtime.packing import pack
from spf.scheduling.autoscheduler.machine_cost import (CONVERT, DEFAULT_CONSTANTS, FIND, SCALAR, STREAM, STRIDED,
                                                          VECTOR, WALK)

SOURCE = Path(__file__).with_name("calibration.c")
REPETITIONS = 5  # the minimum of these is kept: the machine's speed, not its load
SMALLEST = 0.05e-9  # seconds: a constant is never taken below this (a difference of two timings may be ~0)
_MEMORY: dict[str, tuple[dict[str, float], str]] = {}

_double_pointer = ctypes.POINTER(ctypes.c_double)
_int_pointer = ctypes.POINTER(ctypes.c_int32)


def _processor() -> str:
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _pointer(array: np.ndarray, kind):
    return array.ctypes.data_as(kind)


def _best_seconds(call: Callable[[], object], calls: int) -> float:
    """The fastest of :data:`REPETITIONS` timings of ``calls`` calls, per call."""
    call()  # warm: pages touched, caches filled
    best = float("inf")
    for _ in range(REPETITIONS):
        started = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, (time.perf_counter() - started) / calls)
    return best


def measure(library: ctypes.CDLL) -> dict[str, float]:
    """Seconds per event of each machine constant, from the micro-kernels."""
    generator = np.random.default_rng(0)
    int64 = ctypes.c_int64

    rows, width = 8192, 64
    a, x, y = generator.random(rows), generator.random(rows * width), np.zeros(width)
    function = library.spf_calibrate_vector
    function.restype = ctypes.c_double
    vector = _best_seconds(lambda: function(int64(rows), int64(width), _pointer(a, _double_pointer),
                                            _pointer(x, _double_pointer), _pointer(y, _double_pointer)), 10)
    vector /= rows * width

    length = 4 * 2**20  # 32 MiB an array: beyond the caches
    a, x, y = generator.random(1), generator.random(length), np.zeros(length)
    stream = _best_seconds(lambda: function(int64(1), int64(length), _pointer(a, _double_pointer),
                                            _pointer(x, _double_pointer), _pointer(y, _double_pointer)), 1)
    stream /= length

    count = 65536
    a, x = generator.random(count), generator.random(count)
    function = library.spf_calibrate_scalar
    function.restype = ctypes.c_double
    scalar = _best_seconds(lambda: function(int64(count), _pointer(a, _double_pointer),
                                            _pointer(x, _double_pointer)), 10) / count

    nrows, per_row, columns = 16384, 16, 131072
    pointers = (np.arange(nrows + 1) * per_row).astype(np.int32)
    coordinates = np.sort(generator.integers(0, columns, (nrows, per_row)), axis=1).astype(np.int32).ravel()
    values, dense = generator.random(nrows * per_row), generator.random(columns)
    function = library.spf_calibrate_walk
    function.restype = ctypes.c_double
    walk = _best_seconds(lambda: function(int64(nrows), _pointer(pointers, _int_pointer),
                                          _pointer(coordinates, _int_pointer), _pointer(values, _double_pointer),
                                          _pointer(dense, _double_pointer)), 3) / (nrows * per_row)

    count, stride = 16384, 64
    x = generator.random(count * stride)
    function = library.spf_calibrate_strided
    function.restype = ctypes.c_double
    strided = _best_seconds(lambda: function(int64(count), int64(stride), _pointer(x, _double_pointer)), 5) / count

    count, length = 65536, 64
    keys = generator.integers(0, 4 * length, count).astype(np.int32)
    segment = np.sort(generator.choice(4 * length, length, replace=False)).astype(np.int32)
    function = library.spf_calibrate_find
    function.restype = ctypes.c_int64
    find = _best_seconds(lambda: function(int64(count), _pointer(keys, _int_pointer), int64(length),
                                          _pointer(segment, _int_pointer)), 3) / count

    return {CONVERT: conversion_seconds(generator), VECTOR: max(vector, SMALLEST), SCALAR: max(scalar, SMALLEST), WALK: max(walk - scalar, SMALLEST),
            STRIDED: max(strided - scalar, SMALLEST), FIND: max(find, SMALLEST),
            STREAM: max((stream - vector) / 2, SMALLEST)}  # two operands stream: x read, y read and written


def conversion_seconds(generator: np.random.Generator) -> float:
    """Seconds per stored entry of copying a sparse operand in another mode order: a CSF3
    tensor of 2^16 random entries copied with its modes reversed (spf.runtime.conversion's
    generated copy kernel, compiled once per machine like the micro-kernels)."""
    extent, count = 256, 2**16
    coords = np.unique(generator.integers(0, extent, (count, 3)), axis=0)
    tensor = pack("CSF3", (coords, np.ones(len(coords)), (extent,) * 3))
    return max(_best_seconds(lambda: permuted(tensor, "CSF3", (2, 1, 0), "T"), 3) / len(coords), SMALLEST)


def _cache_file(library: Path) -> Path:
    processor = hashlib.sha256(_processor().encode()).hexdigest()[:12]
    return cache_directory() / f"calibration-{library.stem}-{processor}.json"


def _read(path: Path) -> dict[str, float] | None:
    try:
        constants = json.loads(path.read_text())["constants"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if set(constants) != set(DEFAULT_CONSTANTS) or not all(isinstance(v, float) and v > 0 for v in constants.values()):
        return None
    return constants


def machine_constants() -> tuple[dict[str, float], str]:
    """The constants for this machine and where they came from (calibrated, cached, defaults)."""
    setting = os.environ.get("SPF_CALIBRATION", "")
    if setting not in ("", "defaults", "again"):
        raise SpfError(f"SPF_CALIBRATION must be 'defaults' or 'again' (or unset), got {setting!r}")
    if setting == "defaults":
        return dict(DEFAULT_CONSTANTS), "defaults (SPF_CALIBRATION=defaults)"
    if setting != "again" and "machine" in _MEMORY:
        return _MEMORY["machine"]
    source = SOURCE.read_text()
    library_path = build_shared_library(source, name="calibration")
    cache = _cache_file(library_path)
    constants = None if setting == "again" else _read(cache)
    if constants is not None:
        result = (constants, f"calibrated, cached in {cache}")
    else:
        started = time.perf_counter()
        constants = measure(load_library(library_path))
        try:
            cache.write_text(json.dumps({"processor": _processor(), "constants": constants}, indent=1) + "\n")
            where = f"cached in {cache}"
        except OSError as error:
            where = f"not cached: {error}"
        result = (constants, f"calibrated in {time.perf_counter() - started:.1f} s, {where}")
    _MEMORY["machine"] = result
    return result
