"""The workspace's choice of how to put each group in order, against the policies it chooses among.

Run: python benchmarks/group_order.py [--only uk,cti] [--matrices N] [--rounds 7] [--wait-idle 30]
(results/group_order.txt: ``--wait-idle 30``, about 3 minutes)

Gustavson's workspace flushes each row of an assembled output as a *group*: the columns it
touched, in the order first touched.  Into a sorted layout every group is put in order at run
time, and spf picks per group how (``spf_workspace_order`` in spf/codegen/c/runtime/
spf_workspace.h, ``spf_workspace_write_short_rows`` in spf_rows.h): eight keys or fewer by a
network in registers; up to 128 ranked in AVX-512 registers where the build has them; longer ones kept when in order, merged when two runs, read from byte marks
when dense in their range, else rank- or radix-sorted.  This times, on the groups of SpGEMM
C = A·Aᵀ over the real square matrices (benchmarks/assembly.py's set), the choice and each
fixed policy (``benchmarks/group_order.c``, built with the kernels' flags against the run-time
C):

* ``surveyed``: no registers; the run test, then merge / marks / rank sort / radix (the choice
  on a machine without AVX-512);
* ``ranks``: every group of up to 128 keys ranked in registers, longer ones radix-sorted;
* ``radix``, ``marks``: radix sort (marks where dense, else radix) for every group;
* ``rank sort``: the rank sort up to 128 keys, else radix.

Each policy writes the groups to rows as the kernels do: the choice where the next row opens
(``spf_workspace_hand_group_rows``, which writes a group of eight keys or fewer there, with no
call into the general writer) and through their flush (``spf_workspace_flush_rows``, which puts a ranked group's keys
straight at their places and reads a dense one's marks straight into the rows); a fixed
policy through a call per group (so on short groups the choice's inline write counts in its
favour: the regret is of the choice as the kernels run it). A policy's cost is its time beyond
writing the groups as touched (the same flush into an unsorted layout), in ns per entry of C;
the choice's *regret* is its cost over the least of every policy's.  Each policy's groups are
checked strictly increasing.  Rounds interleave the policies; a time is the median over rounds
of each round's best of three passes.  The header gives the machine's load and a triad's
bandwidth from the same run.
"""

from __future__ import annotations

import argparse
import ctypes
import statistics
import sys
from pathlib import Path

import numpy as np

from assembly import DATA, square_matrices
from common import geometric_mean, triad_line
from parallel import idle_load
from spf.codegen.toolchain.compiler import build_shared_library, load_function

POLICIES = ["as touched", "choice", "surveyed", "ranks", "radix", "marks", "rank sort"]
SOURCE = Path(__file__).resolve().parent / "group_order.c"


def library():
    """time_policy and ranks_in_registers from group_order.c."""
    built = build_shared_library(SOURCE.read_text(), name="group_order")
    pointer = ctypes.POINTER(ctypes.c_int32)
    time_policy = load_function(built, "time_policy",
                                [pointer, pointer, pointer, pointer, ctypes.c_int64, ctypes.c_int64, ctypes.c_int,
                                 ctypes.c_int, ctypes.POINTER(ctypes.c_int64)], ctypes.c_double)
    return time_policy, load_function(built, "ranks_in_registers", [], ctypes.c_int)()


def policy_costs(time_policy, A, rounds: int) -> tuple[dict[str, float], int]:
    """Median seconds of each policy over ``rounds`` interleaved rounds (None where the build
    lacks it), and the entries of A·Aᵀ."""
    At = A.T.tocsr()
    arrays = [np.ascontiguousarray(x, dtype=np.int32) for x in (A.indptr, A.indices, At.indptr, At.indices)]
    pointers = [x.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)) for x in arrays]
    times: dict[str, list[float]] = {policy: [] for policy in POLICIES}
    for _ in range(rounds):
        for number, policy in enumerate(POLICIES):
            unordered = ctypes.c_int64(0)
            seconds = time_policy(*pointers, A.shape[0], At.shape[1], number, 3, ctypes.byref(unordered))
            if seconds == 0.0:
                sys.exit("out of memory in group_order.c")
            if seconds > 0 and policy != "as touched" and unordered.value:
                sys.exit(f"policy {policy!r} left {unordered.value} pairs out of order")
            times[policy].append(seconds)
    entries = (A @ At).nnz
    return {policy: statistics.median(values) if values[0] > 0 else None for policy, values in times.items()}, entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help="comma-separated matrix names")
    parser.add_argument("--matrices", type=int, default=None, help="the N smallest matrices")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--wait-idle", type=float, default=0.0)
    arguments = parser.parse_args()
    load = idle_load(DATA, arguments.wait_idle)
    time_policy, registers = library()
    print(f"group order benchmark; {triad_line()}; ranks in registers (AVX-512): {'yes' if registers else 'no'}")
    matrices = square_matrices(arguments.matrices, set(arguments.only.split(",")) if arguments.only else None)
    load.lap()
    costs = [p for p in POLICIES if p != "as touched"]
    print("\nordering cost per entry of A*At (ns; time beyond writing the groups to the rows as touched), "
          "and the choice's regret (its cost / the least)")
    print("  " + "  ".join(f"{c:>12s}" for c in ["matrix", "nnz(C)", "touched ms", *costs, "regret", "best"]))
    regrets = []
    for name, A in matrices:
        times, entries = policy_costs(time_policy, A, arguments.rounds)
        base = times["as touched"]
        cost = {p: max(times[p] - base, 0.0) / entries * 1e9 for p in costs if times[p] is not None}
        best = min(cost, key=cost.get)
        regret = cost["choice"] / cost[best] if cost[best] > 0 else 1.0
        regrets.append(regret)
        print("  " + "  ".join([f"{name:>12s}", f"{entries:>12d}", f"{base * 1e3:>12.3f}",
                                *(f"{cost[p]:>12.2f}" if p in cost else f"{'-':>12s}" for p in costs),
                                f"{regret:>12.2f}", f"{best:>12s}"]), flush=True)
    print(f"  regret of the choice: geometric mean {geometric_mean(regrets):.3f}, worst {max(regrets):.2f}")
    load.report("group order")


if __name__ == "__main__":
    main()
