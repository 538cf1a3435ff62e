"""Time of ``spf.autoschedule`` (the compile-time search) for each kernel of autoschedule.py.

Run: python benchmarks/autoschedule_time.py [--kernels K2,TTTc] [--repeat 3] [--dump FILE]

Each kernel runs in a process of its own (imports done, compiled kernels and calibration
as they are on disk): the *first* call is that process's first search, the *warm* figure
the median of ``--repeat`` further searches in the same process (``cache=False``: the
expression searched and pruned again), the *cached* figure the median of as many calls
that read the kept search and pruning (``cache=True`` after one call kept them;
spf.runtime.search_cache: what a repeated autoschedule costs).  Also printed: the schedules left after
each stage and the seconds of each stage (``AutoSchedule.counts`` / ``.seconds``) of the
last search.  Target (issue 27): at most 2 s warm for every kernel.

``--dump FILE`` writes, per kernel, ``str(schedule)`` of every candidate and of every
generated tree; ``--compare FILE`` reads such a dump (of another version of the search,
e.g. run from a checkout of main) and names each kernel whose lists differ: a faster
search must return the same.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import spf
from autoschedule import KERNELS, kernel_layouts


def measure(name: str, repeat: int) -> dict:
    """First and warm seconds of one kernel's search, its stage counts and its schedules."""
    kernel = KERNELS[name]
    _, _, _, layouts = kernel_layouts(kernel)

    def search(cache: bool):
        started = time.perf_counter()
        result = spf.autoschedule(kernel.expression, layouts=layouts, share=kernel.share, progress=lambda line: None,
                                  cache=cache)
        return result, time.perf_counter() - started

    result, first = search(False)
    warm = []
    for _ in range(repeat):
        result, elapsed = search(False)
        warm.append(elapsed)
    search(True)
    cached = [search(True)[1] for _ in range(max(repeat, 1))]
    return {"kernel": name, "first": first, "warm": statistics.median(warm) if warm else float("nan"),
            "cached": statistics.median(cached),
            "counts": result.counts,
            "seconds": result.seconds,
            "candidates": [str(c.schedule) for c in result.candidates],
            "generated": [str(c.schedule) for c in result.generated]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", default=",".join(KERNELS), help="comma-separated names from KERNELS")
    parser.add_argument("--repeat", type=int, default=3, help="warm calls whose median is reported (0: none)")
    parser.add_argument("--dump", help="write each kernel's candidates and generated trees here (JSON)")
    parser.add_argument("--compare", help="a dump of another version: report the kernels whose lists differ")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child process: one kernel, JSON on stdout
    arguments = parser.parse_args()
    if arguments.one:
        print(json.dumps(measure(arguments.one, arguments.repeat)))
        return

    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'kernel':<8} {'first s':>8} {'warm s':>8} {'cached s':>8}  stages (counts; seconds of the last search)")
    dumped = {}
    for name in arguments.kernels.split(","):
        child = subprocess.run([sys.executable, __file__, "--one", name, "--repeat", str(arguments.repeat)],
                               capture_output=True, text=True, check=True)
        row = json.loads(child.stdout.strip().splitlines()[-1])
        counts = ", ".join(f"{k} {v}" for k, v in row["counts"].items())
        seconds = ", ".join(f"{k} {v:.2f}" for k, v in row["seconds"].items())
        print(f"{name:<8} {row['first']:8.2f} {row['warm']:8.2f} {row['cached']:8.3f}  {counts}; {seconds}", flush=True)
        dumped[name] = {"candidates": row["candidates"], "generated": row["generated"]}
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if arguments.dump:
        with open(arguments.dump, "w") as handle:
            json.dump(dumped, handle, indent=1, sort_keys=True)
    if arguments.compare:
        with open(arguments.compare) as handle:
            other = json.load(handle)
        differing = [f"{name} {part}" for name in dumped for part in ("candidates", "generated")
                     if name in other and other[name][part] != dumped[name][part]]
        compared = sum(1 for name in dumped if name in other)
        print(f"compared with {arguments.compare}: {compared} kernel(s), "
              + (f"different: {', '.join(differing)}" if differing else "the same candidates and generated trees"))


if __name__ == "__main__":
    main()
