"""Mode orders: MTTKRP of every mode from one stored CSF3, against the best stored order.

Run: python benchmarks/mode_orders.py [--tensors nations,umls,...] [--dims 16,32] [--calls 10]
         [--measure] [--output FILE] [--data DIR]

For each real order-3 tensor (benchmarks/autoschedule.py's TENSORS), rank d and mode m,
``A(m,a) = B(i,j,k) * C(.,a) * D(.,a)`` with B in CSF3 is timed (bound kernels, 1 thread):

* *stored orders*: B stored in each of its 6 mode orders (the data permuted beforehand, as
  if the file had been written that way), each with the autoscheduler's pick for it
  (``mode_orders=False``); the fastest is what a user who can store B as she likes gets;
* *pick*: B as the file stores it, (i,j,k), and the autoscheduler free to copy it in another
  mode order (``mode_orders=True, calls=--calls``; ``--measure``: ``select(measure=True)``):
  its kernel's time plus, when it copies B, the copy's measured time over ``--calls``.

Per row: every stored order's time, the pick (and its copy), and best stored / pick (1.0 or
more: the pick is at least as fast as storing B in the best order).  Timing: interleaved
rounds, each schedule called in a block of about 20 ms per round, medians of per-call
times.  The best of six noisy medians is biased low (on a row whose pick is one of the
stored orders' schedules, the least of the six read 0.69-0.89 of the pick's time at 5-30 us
a call), so the best stored order is *chosen* by the medians of the first half of the
rounds and compared with the pick over the second half (``best/pick``); ``biased`` is the
old figure, all rounds, the least of the six.  The header gives the load average at start
and end (``machine not idle`` above 0.5) and a triad's memory bandwidth from the same run.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import spf
from autoschedule import DATA, TENSORS, load_tensor
from common import block_time, geometric_mean, triad_line
from spf.runtime.conversion import permuted

INDICES = "ijk"
ROUNDS = 10  # the first half chooses the best stored order, the second half times it against the pick
BLOCK_SECONDS = 0.02
LAYOUTS = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}


def expression(mode: int, stored: tuple[int, ...]) -> str:
    """MTTKRP of ``mode`` with B's access in the stored order ``stored`` (B's axis t is mode stored[t])."""
    others = [m for m in range(3) if m != mode]
    access = ",".join(INDICES[axis] for axis in stored)
    return f"A({INDICES[mode]},a) = B({access}) * C({INDICES[others[0]]},a) * D({INDICES[others[1]]},a)"


def copy_seconds(tensor, permutation) -> float:
    """The median seconds of copying ``tensor`` in another mode order, as a call's bind does."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        permuted(tensor, "CSF3", permutation, "B")
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def row(name: str, coords, values, shape, mode: int, d: int, calls: int, measure: bool) -> tuple[list[str], float]:
    generator = np.random.default_rng(d)
    others = [m for m in range(3) if m != mode]
    C, D = generator.random((shape[others[0]], d)), generator.random((shape[others[1]], d))
    dense_operands = {"C": C, "D": D}
    bound, reference = {}, None
    for stored in itertools.permutations(range(3)):
        B = spf.pack("CSF3", (coords[:, list(stored)], values, tuple(shape[a] for a in stored)))
        text = expression(mode, stored)
        pick = spf.autoschedule(text, LAYOUTS, mode_orders=False).select(B=B, **dense_operands)
        call = spf.compile(text, LAYOUTS, schedule=pick).bind(B=B, **dense_operands)
        result = call()
        reference = result if reference is None else reference
        assert np.allclose(result, reference), f"{name} mode {mode}: stored order {stored} disagrees"
        bound["".join(INDICES[a] for a in stored)] = call
    B = spf.pack("CSF3", (coords, values, shape))
    schedules = spf.autoschedule(expression(mode, (0, 1, 2)), LAYOUTS, calls=calls)
    pick = schedules.select(measure=measure, B=B, **dense_operands)
    call = spf.compile(expression(mode, (0, 1, 2)), LAYOUTS, schedule=pick).bind(B=B, **dense_operands)
    assert np.allclose(call(), reference), f"{name} mode {mode}: the pick disagrees"
    bound["pick"] = call
    samples = {key: [] for key in bound}
    for _ in range(ROUNDS):
        for key, call in bound.items():
            samples[key].append(block_time(call, BLOCK_SECONDS))
    half = ROUNDS // 2
    times = {key: statistics.median(values) for key, values in samples.items()}
    chosen = min((k for k in bound if k != "pick"), key=lambda k: statistics.median(samples[k][:half]))
    copy = sum(copy_seconds(B, permutation) for _, permutation in pick.mode_orders)
    per_call = copy / calls
    ratio = statistics.median(samples[chosen][half:]) / (statistics.median(samples["pick"][half:]) + per_call)
    biased = min(v for k, v in times.items() if k != "pick") / (times["pick"] + per_call)
    stored_cells = "  ".join(f"{k} {v * 1e3:7.3f}" for k, v in times.items() if k != "pick")
    copies = ",".join(f"{n}{tuple(p)}" for n, p in pick.mode_orders) or "-"
    return ([f"   {name:<17} {len(values):>7} {d:>4} {mode:>4}  {stored_cells}  pick {times['pick'] * 1e3:7.3f}"
             f" + copy {copy * 1e3:6.2f}/{calls}  copies {copies:<12} best {chosen} best/pick {ratio:5.2f}"
             f"  biased {biased:5.2f}"]), ratio, biased


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tensors", default=",".join(TENSORS))
    parser.add_argument("--dims", default="16,32")
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--measure", action="store_true")
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--output", default=str(Path(__file__).parent / "results" / "mode_orders.txt"))
    arguments = parser.parse_args()
    data = Path(arguments.data)
    if not data.is_dir():
        sys.exit(f"no data folder {data}: the benchmark reads real tensors (set --data or SPF_DATA)")
    load = os.getloadavg()
    lines = [f"# python benchmarks/mode_orders.py {' '.join(sys.argv[1:])}",
             f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average at start "
             f"{load[0]:.2f}{'  (machine not idle)' if load[0] > 0.5 else ''}; 1 thread; times in ms",
             f"# {triad_line()}",
             "   input                 nnz    d mode  stored orders (times)  pick + copy/calls  best stored order "
             "(chosen by the first half of the rounds) / pick over the second half, and the biased least of six"]
    print("\n".join(lines), flush=True)
    ratios, biased_ratios = [], []
    for name in [n for n in arguments.tensors.split(",") if n]:
        coords, values, shape = load_tensor(data, name)
        for d in [int(x) for x in arguments.dims.split(",")]:
            for mode in range(3):
                text, ratio, biased = row(name, coords, values, shape, mode, d, arguments.calls, arguments.measure)
                ratios.append(ratio)
                biased_ratios.append(biased)
                lines += text
                print("\n".join(text), flush=True)
    summary = (f"summary: best stored order / pick geometric mean {geometric_mean(ratios):.2f}, least "
               f"{min(ratios):.2f}, {sum(r < 0.9 for r in ratios)} of {len(ratios)} rows under 0.9 (the least of "
               f"all rounds' six medians: {geometric_mean(biased_ratios):.2f}, least {min(biased_ratios):.2f}, "
               f"{sum(r < 0.9 for r in biased_ratios)} under 0.9); load average at end {os.getloadavg()[0]:.2f}")
    lines.append(summary)
    print(summary)
    Path(arguments.output).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
