"""What the benchmark scripts share: summaries, inputs, and GraphBLAS set up like spf.

The scripts are run directly (``python benchmarks/NAME.py``), so they import this module
as ``common``.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from pathlib import Path

import numpy as np


def geometric_mean(values: list[float]) -> float:
    """Geometric mean of the positive, finite values (nan when there are none)."""
    values = [v for v in values if v > 0 and math.isfinite(v)]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def manifest_names(data, kind: str, least_nonzeros: int = 0) -> list[str]:
    """The names of ``data``'s MANIFEST.tsv entries of ``kind`` (``matrix``, ``tensor3d``)
    with at least ``least_nonzeros`` nonzeros, smallest first."""
    rows = []
    for line in (data / "MANIFEST.tsv").read_text().splitlines()[1:]:
        cells = line.split("\t")
        if cells[1] == kind and int(cells[5]) >= least_nonzeros:
            rows.append((int(cells[5]), os.path.splitext(os.path.basename(cells[0]))[0]))
    return [name for _, name in sorted(rows)]


def sparse_vector(size: int, density: float, seed: int) -> np.ndarray:
    """A dense array with ``max(1, size*density)`` nonzeros in [0.5, 1.5) at random places."""
    rng = np.random.default_rng(seed)
    count = max(1, int(round(size * density)))
    vector = np.zeros(size)
    vector[rng.choice(size, size=count, replace=False)] = rng.random(count) + 0.5
    return vector


def serial_graphblas():
    """python-graphblas on SuiteSparse with one thread (spf's kernels here are serial), or
    None with a message when it is not installed."""
    try:
        import graphblas as gb
    except ImportError:
        print("python-graphblas is not installed (pip install '.[bench]'): GraphBLAS columns skipped")
        return None
    gb.init("suitesparse", blocking=True)
    gb.ss.config["nthreads"] = 1
    return gb


def load_line(when: str) -> str:
    """The load average, flagged where the machine is not idle (timings then mean less)."""
    load = os.getloadavg()[0]
    return f"load average {when}: {load:.2f}" + ("  (machine not idle)" if load > 0.5 else "")


def triad_line() -> str:
    """A triad's memory bandwidth (numpy, one thread), printed next to the kernels' times."""
    n = 1 << 24
    b, c = np.ones(n), np.full(n, 2.0)
    a = np.empty(n)
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        np.multiply(c, 3.0, out=a)
        np.add(a, b, out=a)
        best = min(best, time.perf_counter() - started)
    return f"triad a = b + 3c over 3 x 2^24 doubles (numpy, two passes): {4 * 8 * n / best / 1e9:.1f} GB/s"


def block_time(call, seconds: float, most: int = 10_000_000) -> float:
    """Seconds per call over a block of calls lasting about ``seconds`` (one warm call first,
    which sizes the block; at least one call and at most ``most``)."""
    started = time.perf_counter()
    call()
    once = max(time.perf_counter() - started, 1e-7)
    count = max(1, min(most, int(seconds / once)))
    started = time.perf_counter()
    for _ in range(count):
        call()
    return (time.perf_counter() - started) / count


def interleaved_blocks(calls: dict, rounds: int, seconds: float, setups: dict | None = None,
                       most: int = 10_000_000) -> dict[str, float]:
    """Each call's median seconds over ``rounds`` rounds, each round a block of each call in
    turn; ``setups``: name -> what runs before each of that call's blocks (a thread count)."""
    setups = setups or {}
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            if name in setups:
                setups[name]()
            samples[name].append(block_time(call, seconds, most))
    return {name: statistics.median(values) for name, values in samples.items()}


class Report:
    """A benchmark's output: each line printed as it comes and kept for its results file, the
    first ones saying how it was run (the command, the time, the load, how it times, and a
    triad's bandwidth from this run)."""

    def __init__(self, script: str, timing: str) -> None:
        import sys
        self.lines: list[str] = []
        self.say(f"# python benchmarks/{script} {' '.join(sys.argv[1:])}".rstrip())
        self.say(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load_line('at start')}; {timing}")
        self.say(f"# {triad_line()}")

    def say(self, line: str) -> None:
        print(line, flush=True)
        self.lines.append(line)

    def close(self, others: float, stolen: float, output) -> None:
        """The load while timing (other processes' CPUs, steal) and at the end; the file written."""
        self.say(f"# while timing, other processes kept {others:.2f} CPUs busy on average (steal {stolen:.2f}); "
                 f"{load_line('at end')}")
        output.write_text("\n".join(self.lines) + "\n")


def timing_arguments(parser, data, output, rounds: int, block: float) -> None:
    """The options every interleaved-blocks benchmark takes: thread counts, rounds, block
    seconds, waiting for an idle machine, the data folder and the results file."""
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--block", type=float, default=block, help="seconds of calls per system and round")
    parser.add_argument("--wait-idle", type=float, default=0.0)
    parser.add_argument("--data", type=Path, default=data)
    parser.add_argument("--output", type=Path, default=output)
