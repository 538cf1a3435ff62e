"""BFS's direction rule (examples/graphs/graphs.py, ``pull_is_cheaper``): each level timed both
ways on the real graphs, the push's cost model fitted, and the rule's regret per level.

Run: python benchmarks/bfs_directions.py [--least 100000] [--repeats 7] [--threads 1] [--fit]

For each square real matrix of at least ``--least`` nonzeros (a symmetric pattern, as
benchmarks/graph_algorithms.py), BFS from vertex 0 runs level by level; at each level both
directions are run on the same state ``--repeats`` times (medians): the push
``y(j) = q(i) * A(i,j)`` from the frontier as a sparse vector into a sparse vector, and the pull
``y(j) = A(i,j) * q(i)`` from the dense 0/1 frontier, both masked by ~visited.  Per level it
records the model's features (vertices, unvisited vertices and their edges, the frontier and
its edges) and both times; per graph it prints the time of the rule's choices, of the faster
direction at every level (the least any rule could take) and of always pushing / pulling.
``--fit`` fits the push's three constants (fixed, per frontier vertex, per frontier edge; ns)
and the pull's four (fixed, per vertex, per unvisited vertex, per edge scanned) by least
squares on the relative error over every level, then the weight of the pull's estimate
against the push's that gives the rule the least regret over the graphs; with ``--threads
2`` it fits the pull's speedup and fixed cost there instead.  The rule is simulated as it
runs (a push after a pull, or at the first level, packs the frontier: timed too), and the best
total over both directions at every level is the least of the two states a level may end in.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sparse

import spf
from assembly import openmp
from common import geometric_mean, load_line, triad_line
from graph_algorithms import graphs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "graphs"))
import graphs as example  # noqa: E402


def median_time(run, repeats: int) -> tuple[float, object]:
    """Median seconds of ``repeats`` runs, and the last run's result."""
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def levels(kernels: example.Kernels, A: sparse.csr_matrix, repeats: int) -> list[dict]:
    """Each level of BFS from vertex 0: the features and both directions' times (ns)."""
    A_csr, A_csc = spf.pack("CSR", A.astype(bool)), spf.pack("CSC", A.astype(bool))
    n = A.shape[0]
    rows, columns = np.diff(A_csr.fields["rowPtr"]), np.diff(A_csc.fields["colPtr"])
    visited = np.zeros(n, dtype=bool)
    frontier = np.array([0], dtype=np.int64)
    unvisited, unvisited_edges = n, int(columns.sum())
    found = []
    while len(frontier):
        visited[frontier] = True
        unvisited -= len(frontier)
        unvisited_edges -= int(columns[frontier].sum())
        dense = np.zeros(n, dtype=bool)
        dense[frontier] = True
        def pack():
            return spf.pack(kernels.frontier, (frontier[:, None], np.ones(len(frontier), dtype=bool), (n,)))
        packing, _ = median_time(pack, repeats)
        pull, pulled = median_time(lambda: kernels.bfs_pull(A=A_csc, q=dense, v=visited), repeats)
        # each push reads a Tensor it has not seen (as in BFS, the last push's output): its struct is made anew
        fresh = [pack() for _ in range(repeats)]
        push, pushed = median_time(lambda: kernels.bfs_push(q=fresh.pop(), A=A_csr, v=visited), repeats)
        following = np.flatnonzero(pulled)
        if not np.array_equal(following, pushed.fields["idx"]):
            sys.exit("push and pull reached different vertices")
        found.append({"vertices": n, "unvisited": unvisited, "unvisited_edges": unvisited_edges,
                      "frontier": len(frontier), "frontier_edges": int(rows[frontier].sum()),
                      "push": push * 1e9, "pull": pull * 1e9, "packing": packing * 1e9})
        frontier = following
    return found


def rule_pulls(level: dict, threads: int, packed: bool) -> bool:
    return example.pull_is_cheaper(level["vertices"], level["unvisited"], level["unvisited_edges"],
                                   level["frontier"], level["frontier_edges"], threads, packed)


def rule_time(found: list[dict], threads: int) -> tuple[float, int]:
    """The rule's total (ns) and its pulls: a push after a pull (or first) packs the frontier."""
    total, pulls, packed = 0.0, 0, False
    for level in found:
        if rule_pulls(level, threads, packed):
            total, pulls, packed = total + level["pull"], pulls + 1, False
        else:
            total, packed = total + level["push"] + (0 if packed else level["packing"]), True
    return total, pulls


def rule_regret(per_graph: list[list[dict]], constants: dict, threads: int = 1) -> float:
    """The rule's regret (geometric mean over the graphs) with the example's constants set to ``constants``."""
    kept = {name: getattr(example, name) for name in constants}
    try:
        for name, value in constants.items():
            setattr(example, name, value)
        return geometric_mean([rule_time(found, threads)[0] / best_time(found) for found in per_graph])
    finally:
        for name, value in kept.items():
            setattr(example, name, value)


def best_time(found: list[dict]) -> float:
    """The least total any choice of directions takes (ns): over the two states a level ends
    in, the frontier packed (after a push) or not (after a pull)."""
    unpacked, packed = 0.0, float("inf")
    for level in found:
        pushed = min(unpacked + level["packing"], packed) + level["push"]
        unpacked, packed = min(unpacked, packed) + level["pull"], pushed
    return min(unpacked, packed)


def pull_features(level: dict) -> list[float]:
    """What a pull's 1-thread estimate weighs: 1, the vertices, the unvisited ones, the edges scanned."""
    scanned = level["unvisited_edges"] * min(1.0, level["unvisited"] / max(level["frontier_edges"], 1))
    return [1.0, level["vertices"], level["unvisited"], scanned]


def pull_model(level: dict) -> float:
    """The rule's estimate of a pull on 1 thread (ns)."""
    constants = (example.PULL_FIXED, example.PULL_PER_VERTEX, example.PULL_PER_UNVISITED, example.PULL_PER_SCANNED_EDGE)
    return sum(c * f for c, f in zip(constants, pull_features(level)))


def fit(features: list[list[float]], times: list[float]) -> tuple[float, ...]:
    """Non-negative constants weighing ``features`` into ``times``, least squares on the relative error."""
    features, times = np.array(features), np.array(times)
    weights = 1.0 / times
    solution, *_ = np.linalg.lstsq(features * weights[:, None], times * weights, rcond=None)
    return tuple(float(value) for value in np.maximum(solution, 0.0))


def fit_push(every: list[dict]) -> tuple[float, float, float]:
    """The push's constants (fixed, per frontier vertex, per frontier edge)."""
    return fit([[1.0, level["frontier"], level["frontier_edges"]] for level in every],
               [level["push"] for level in every])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--least", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--fit", action="store_true")
    arguments = parser.parse_args()
    print(f"# python benchmarks/bfs_directions.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load_line('at start')}; {triad_line()}")
    openmp().set_threads(arguments.threads)
    kernels = example.Kernels()
    every, regrets, per_graph = [], [], []
    print(f"{'graph':<16} {'levels':>6} {'rule ms':>8} {'best ms':>8} {'push ms':>8} {'pull ms':>8} {'regret':>6} "
          f"{'pulls':>5}")
    for name, A in graphs(arguments.least):
        found = levels(kernels, A, arguments.repeats)
        every += found
        per_graph.append(found)
        rule, pulled = rule_time(found, arguments.threads)
        best = best_time(found)
        pushes = sum(level["push"] for level in found) + found[0]["packing"]
        pulls = sum(level["pull"] for level in found)
        regrets.append(rule / best)
        print(f"{name:<16} {len(found):>6} {rule / 1e6:8.2f} {best / 1e6:8.2f} {pushes / 1e6:8.2f} {pulls / 1e6:8.2f} "
              f"{rule / best:6.2f} {pulled:>5}", flush=True)
    print(f"rule's regret against the faster direction at every level: geometric mean {geometric_mean(regrets):.3f}, "
          f"most {max(regrets):.3f}")
    if arguments.fit and arguments.threads > 1:
        features = np.array([[pull_model(level), 1.0] for level in every])
        times = np.array([level["pull"] for level in every])
        (inverse, fixed), *_ = np.linalg.lstsq(features / times[:, None], np.ones(len(times)), rcond=None)
        print(f"pull on {arguments.threads} threads fitted over {len(every)} levels: PULL_SPEEDUP {1 / inverse:.2f}, "
              f"PULL_PARALLEL_FIXED {fixed:.0f} (ns)")
    elif arguments.fit:
        fixed, per_vertex, per_edge = fit_push(every)
        errors = [abs(fixed + per_vertex * level["frontier"] + per_edge * level["frontier_edges"] - level["push"])
                  / level["push"] for level in every]
        print(f"push fitted over {len(every)} levels: PUSH_FIXED {fixed:.0f}, PUSH_PER_FRONTIER {per_vertex:.2f}, "
              f"PUSH_PER_FRONTIER_EDGE {per_edge:.3f} (ns); median relative error {statistics.median(errors):.1%}; "
              f"PUSH_PACKING {statistics.median(level['packing'] for level in every):.0f} (the median packing)")
        constants = fit([pull_features(level) for level in every], [level["pull"] for level in every])
        errors = [abs(sum(c * f for c, f in zip(constants, pull_features(level))) - level["pull"]) / level["pull"]
                  for level in every]
        print(f"pull fitted over {len(every)} levels: PULL_FIXED {constants[0]:.0f}, PULL_PER_VERTEX {constants[1]:.3f}, "
              f"PULL_PER_UNVISITED {constants[2]:.2f}, PULL_PER_SCANNED_EDGE {constants[3]:.3f} (ns); median relative "
              f"error {statistics.median(errors):.1%}")
        fitted = {"PUSH_FIXED": fixed, "PUSH_PER_FRONTIER": per_vertex, "PUSH_PER_FRONTIER_EDGE": per_edge,
                  "PUSH_PACKING": statistics.median(level["packing"] for level in every),
                  **dict(zip(("PULL_FIXED", "PULL_PER_VERTEX", "PULL_PER_UNVISITED", "PULL_PER_SCANNED_EDGE"), constants))}
        weight, regret = min(((weight, rule_regret(per_graph, {**fitted, "PULL_WEIGHT": weight}))
                              for weight in np.geomspace(0.4, 2.5, 41)), key=lambda pair: pair[1])
        print(f"with these constants, the pull's weight of least regret: PULL_WEIGHT {weight:.2f} (regret {regret:.3f}; "
              f"at 1.00: {rule_regret(per_graph, {**fitted, 'PULL_WEIGHT': 1.0}):.3f})")
    print(f"# {load_line('at end')}")


if __name__ == "__main__":
    main()
