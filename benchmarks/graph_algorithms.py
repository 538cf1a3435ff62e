"""Graph algorithms over semirings (issue 29): spf's kernels against python-graphblas.

    python benchmarks/graph_algorithms.py                      # every real square matrix of >= 100k nonzeros
    python benchmarks/graph_algorithms.py --least 10000 --rounds 3
    python benchmarks/graph_algorithms.py --algorithms bfs     # one algorithm (or a few)

Each algorithm runs to its end on each graph, written as a user of each system would write it
(spf's: the functions of ``examples/graphs/graphs.py``),
and its total time is compared (graphblas seconds / spf seconds: above 1, spf is faster), at 1 and
at 2 threads (spf's OpenMP team, SuiteSparse's ``nthreads``):

* **SSSP**, Bellman-Ford from vertex 0 with min_plus over positive weights (deterministic from
  the graph: 1 + (i + j) mod 7): spf relaxes ``y(j) = A(i,j) * d(i)`` with A in CSC (a pull
  over columns, parallel) on a dense distance vector, then ``np.minimum``; graphblas
  ``d(min) << d.vxm(A, min_plus)`` on a sparse vector, until nothing changes;
* **triangles**, ``C<L> = L plus_pair L'`` summed (L the strict lower triangle): spf
  ``C(i,j) = L(i,k) * M(j,k)`` with C sharing L's pattern (a masked product) and M = L, in the
  order each entry (i, j) of L, then M's row j, each k looked up in L's row i (find="auto":
  the bitmap on these graphs);
  graphblas ``C(L.S) << L.mxm(L.T, plus_pair)``, ``C.reduce_scalar()``;
* **PageRank** in float32 (damping 0.85, until the ranks move less than 1e-6 in total): spf pulls
  ``y(j) = A(i,j) * w(i)`` over float32 data (the generic layouts' float32 kernel), A in CSC;
  graphblas ``w.vxm(A, plus_times)`` over FP32 vectors and matrix, the same rounds;
* **BFS** levels from vertex 0 over the boolean pattern: spf's direction-optimizing
  ``bfs_levels``, each level a push ``y(j) = q(i) * A(i,j)`` (any_pair; the frontier a sparse
  vector, the last push's output or packed after a pull, A in CSR, the output a sparse vector) or a pull ``y(j) = A(i,j) * q(i)`` (lor_second, stopping at a first
  parent; a dense 0/1 frontier, A in CSC, parallel), both masked by ``~visited``, by a cost
  model (``graphs.pull_is_cheaper``); graphblas ``q(~v.S, replace=True) << q.vxm(A, any_pair)``
  (SuiteSparse chooses push or pull itself), until the frontier is empty.  spf's direction rule
  is timed against pushing at every level and pulling at every level: its regret is its time
  over the faster of those two.

Results are checked against scipy (shortest paths: scipy.sparse.csgraph.dijkstra; triangles:
the trace of A^3 / 6; PageRank: the same iteration in float64, to 1e-4 in total; BFS:
csgraph.shortest_path, unweighted).  Each system is timed in blocks of whole runs, interleaved, medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse
from scipy.sparse import csgraph

import spf
from assembly import openmp
from common import geometric_mean, manifest_names, triad_line
from parallel import idle_load

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "graphs"))
from graphs import (Kernels, bfs_levels, out_degrees, pagerank, scipy_bfs_levels, scipy_pagerank,  # noqa: E402
                    shortest_paths, symmetric_pattern, triangles, weighted)

ALGORITHMS = ["sssp", "triangles", "pagerank", "bfs"]
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def graphs(least: int) -> list[tuple[str, sparse.csr_matrix]]:
    """Each real square matrix of at least ``least`` nonzeros, as a symmetric pattern
    without its diagonal, values 1."""
    found = []
    for name in manifest_names(DATA, "matrix", least):
        A = scipy.io.mmread(DATA / "matrices" / f"{name}.mtx")
        if A.shape[0] == A.shape[1]:
            found.append((name, symmetric_pattern(A)))
    return found


def graphblas_sssp(gb, A, n: int) -> np.ndarray:
    d = gb.Vector(gb.dtypes.FP64, n)
    d[0] = 0.0
    for _ in range(n):
        before = d.dup()
        d(gb.binary.min) << d.vxm(A, gb.semiring.min_plus)
        if d.isequal(before):
            break
    result = np.full(n, np.inf)
    indices, values = d.to_coo()
    result[indices] = values
    return result


def graphblas_triangles(gb, L) -> float:
    C = gb.Matrix(gb.dtypes.INT64, L.nrows, L.ncols)
    C(L.S) << L.mxm(L.T, gb.semiring.plus_pair)
    return float(C.reduce_scalar().new().value)


def graphblas_pagerank(gb, A, degrees: np.ndarray, damping: float = 0.85, tolerance: float = 1e-6,
                       rounds: int = 100) -> np.ndarray:
    """:func:`graphs.pagerank` in python-graphblas, FP32 throughout (A: the FP32 pattern)."""
    n = A.nrows
    dangling = degrees == 0
    inverse = gb.Vector.from_dense(np.where(dangling, 0, 1 / np.maximum(degrees, 1)).astype(np.float32))
    rank = gb.Vector.from_dense(np.full(n, 1 / n, dtype=np.float32))
    for _ in range(rounds):
        weights = rank.ewise_mult(inverse, gb.binary.times).new()
        pulled = weights.vxm(A, gb.semiring.plus_times).new(dtype=gb.dtypes.FP32)
        ranks = rank.to_dense(fill_value=np.float32(0))
        spread = np.float32(damping * ranks[dangling].sum() / n + (1 - damping) / n)
        new = gb.Vector.from_dense(np.float32(damping) * pulled.to_dense(fill_value=np.float32(0)) + spread)
        if np.abs(new.to_dense(fill_value=np.float32(0)) - ranks).sum() < tolerance:
            return new.to_dense(fill_value=np.float32(0))
        rank = new
    return rank.to_dense(fill_value=np.float32(0))


def graphblas_bfs(gb, A, source: int = 0) -> np.ndarray:
    """python-graphblas's BFS: the frontier's level, then its unvisited neighbours
    (``q(~v.S, replace=True) << q.vxm(A, any_pair)``); SuiteSparse picks push or pull itself."""
    levels, frontier = gb.Vector(gb.dtypes.INT64, A.nrows), gb.Vector(gb.dtypes.BOOL, A.nrows)
    frontier[source] = True
    level = 0
    while frontier.nvals:
        levels(frontier.S) << level
        frontier(~levels.S, replace=True) << frontier.vxm(A, gb.semiring.any_pair)
        level += 1
    return levels.to_dense(fill_value=-1)


def timed(systems: dict, rounds: int, seconds: float) -> dict[str, float]:
    """Median seconds of one whole run of each system: blocks of runs lasting about
    ``seconds``, each system's block in turn, ``rounds`` times.  ``systems``: name ->
    (set up, run) where set up fixes the thread counts before the block."""
    blocks = {}
    for name, (setup, run) in systems.items():
        setup()
        started = time.perf_counter()
        run()
        blocks[name] = max(1, min(100, int(seconds / max(time.perf_counter() - started, 1e-6))))
    samples: dict[str, list[float]] = {name: [] for name in systems}
    for _ in range(rounds):
        for name, (setup, run) in systems.items():
            setup()
            started = time.perf_counter()
            for _ in range(blocks[name]):
                run()
            samples[name].append((time.perf_counter() - started) / blocks[name])
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--least", type=int, default=100_000, help="the graphs' least number of nonzeros")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--block", type=float, default=0.2, help="seconds of runs per system and round")
    parser.add_argument("--wait-idle", type=float, default=0.0)
    parser.add_argument("--algorithms", nargs="+", choices=ALGORITHMS, default=ALGORITHMS,
                        help="the algorithms to time (default: all)")
    arguments = parser.parse_args()
    try:
        import graphblas as gb
    except ImportError:
        sys.exit("python-graphblas is not installed (pip install '.[bench]')")
    gb.init("suitesparse", blocking=True)
    load = idle_load(DATA, arguments.wait_idle)
    print(f"# python benchmarks/graph_algorithms.py {' '.join(sys.argv[1:])}")
    print(triad_line(), flush=True)
    omp = openmp()
    kernels = Kernels()
    load.lap()
    ratios: dict[tuple[str, int], list[float]] = {}
    regrets: dict[tuple[str, int], list[float]] = {}
    print(f"{'graph':<16} {'nnz':>8} {'algorithm':<10} {'threads':>7} {'spf ms':>9} {'graphblas ms':>12} "
          f"{'gb/spf':>7}")
    for name, A in graphs(arguments.least):
        n = A.shape[0]
        W = weighted(A)
        L = sparse.tril(A, -1).tocsr()
        L.sort_indices()
        expected_distances = csgraph.dijkstra(W, indices=0)
        expected_triangles = round((A @ A).multiply(A).sum() / 6)
        spf_W, spf_L, spf_A = spf.pack("CSC", W), spf.pack("CSR", L), spf.pack("CSC", A.astype(np.float32))
        spf_W_rows = spf.pack("CSR", W)
        gb_W, gb_L, gb_A = gb.io.from_scipy_sparse(W), gb.io.from_scipy_sparse(L), \
            gb.io.from_scipy_sparse(A.astype(np.float32))
        expected_ranks, degrees = scipy_pagerank(A), out_degrees(spf_A)
        pattern = A.astype(bool)
        spf_P, spf_Q, gb_P = spf.pack("CSR", pattern), spf.pack("CSC", pattern), gb.io.from_scipy_sparse(pattern)
        expected_levels = scipy_bfs_levels(A)
        running = [1]  # the thread count being timed (BFS's direction rule weighs a pull by it)
        runs = {
            "sssp": (lambda: shortest_paths(kernels, spf_W, A_rows=spf_W_rows), lambda: graphblas_sssp(gb, gb_W, n),
                     lambda result: np.array_equal(result, expected_distances)),
            "triangles": (lambda: triangles(kernels, spf_L), lambda: graphblas_triangles(gb, gb_L),
                          lambda result: result == expected_triangles),
            "pagerank": (lambda: pagerank(kernels, spf_A), lambda: graphblas_pagerank(gb, gb_A, degrees),
                         lambda result: result.dtype == np.float32 and np.abs(result - expected_ranks).sum() < 1e-4),
            "bfs": (lambda: bfs_levels(kernels, spf_P, spf_Q, threads=running[0]), lambda: graphblas_bfs(gb, gb_P),
                    lambda result: np.array_equal(result, expected_levels)),
        }
        # the alternatives of a choice spf's run makes, timed beside it: BFS's direction rule against
        # pushing at every level and pulling at every level (its regret: rule / the faster of the two)
        alternatives = {"bfs": {direction: (lambda direction=direction: bfs_levels(kernels, spf_P, spf_Q,
                                                                                   direction=direction))
                                for direction in ("push", "pull")}}
        for algorithm, (ours, theirs, right) in runs.items():
            if algorithm not in arguments.algorithms:
                continue
            for threads in (1, 2):
                running[0] = threads
                omp.set_threads(threads)
                gb.ss.config["nthreads"] = threads
                for system, run in (("spf", ours), ("graphblas", theirs)):
                    if not right(run()):
                        sys.exit(f"{system} {algorithm} on {name}: wrong result")

                def setup(count=threads):
                    omp.set_threads(count)
                    gb.ss.config["nthreads"] = count

                others = alternatives.get(algorithm, {})
                for choice, run in others.items():
                    if not right(run()):
                        sys.exit(f"spf {algorithm} ({choice}) on {name}: wrong result")
                medians = timed({"spf": (setup, ours), "graphblas": (setup, theirs),
                                 **{choice: (setup, run) for choice, run in others.items()}},
                                arguments.rounds, arguments.block)
                ratio = medians["graphblas"] / medians["spf"]
                ratios.setdefault((algorithm, threads), []).append(ratio)
                regret = ""
                if others:
                    best = min(others, key=medians.get)
                    regrets.setdefault((algorithm, threads), []).append(medians["spf"] / medians[best])
                    regret = (f"  regret {medians['spf'] / medians[best]:.2f} (" + ", ".join(
                        f"{choice} {medians[choice] * 1e3:.2f} ms" for choice in others) + ")")
                print(f"{name:<16} {A.nnz:>8} {algorithm:<10} {threads:>7} {medians['spf'] * 1e3:>9.2f} "
                      f"{medians['graphblas'] * 1e3:>12.2f} {ratio:>7.2f}{regret}", flush=True)
    omp.set_threads(1)
    print("\ngraphblas / spf, geometric mean (least) per algorithm and thread count:")
    for (algorithm, threads), values in ratios.items():
        print(f"  {algorithm:<10} {threads} thread(s): {geometric_mean(values):.2f} ({min(values):.2f})")
    for (algorithm, threads), values in regrets.items():
        print(f"  {algorithm} direction rule's regret, {threads} thread(s): geometric mean {geometric_mean(values):.2f}, "
              f"most {max(values):.2f} (time / the faster of always pushing and always pulling)")
    load.report("graph algorithms")


if __name__ == "__main__":
    main()
