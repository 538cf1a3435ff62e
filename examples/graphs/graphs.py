"""Graph algorithms as sparse linear algebra over semirings (``spf.compile(..., semiring=)``).

    python examples/graphs/graphs.py graph.mtx            # a Matrix Market file (its pattern)
    python examples/graphs/graphs.py                      # a random graph of 20,000 vertices

* Single-source shortest paths, Bellman-Ford: with d the distances so far, each round relaxes
  the edges of the vertices whose distance changed in the last one: while they have few edges
  it pushes from them (``y(j) = min_i d_f(i) + A(i,j)``, d_f their distances as a sparse vector,
  A in CSR), else it pulls over every column (``y(j) = min_i A(i,j) + d(i)``, A in CSC so each
  thread pulls over its own columns); then ``d = min(d, y)``, until nothing changes.
* Triangles: with L the strict lower triangle of the symmetric pattern, ``C<L> = L plus_pair L'``
  counts, for each edge (i, j) of L, the k < j adjacent to both; the sum of C is the number of
  triangles.  C shares L's pattern (the mask), and the loop order walks each entry (i, j) of L,
  then row j of L, looking each k up in row i: ``find="auto"`` compiles a SeqIter, a hash map,
  a bitmap and a binary search and takes, per call, the least estimated cost, on the real
  graphs the bitmap (row i's columns marked once per row, a lookup a load): 2x faster than
  the loop order that merges row i with row j, whose branches on a few keys mispredict.
* PageRank in float32: each round ``y(j) = A(i,j) * w(i)`` with w the ranks divided by the
  out-degrees, A in CSC (each thread pulls over its own columns); the data is float32, so the
  kernel (over the generic built-in layouts) is compiled for float32 and sums in it.  Dangling
  vertices' rank is spread evenly; rounds stop when the ranks move less than 1e-6 in total.
* Breadth-first search, direction-optimizing, with masks (``spf.compile(..., mask="~v")``): each
  level either pushes the frontier q, a sparse vector, along its rows of A,
  ``y(j) = q(i) * A(i,j)`` (any_pair, A in CSR, y a sparse vector: the next push's q as it is),
  or pulls over the column of each unvisited vertex, ``y(j) = A(i,j) * q(i)`` (lor_second, q a
  dense 0/1 vector, A in CSC, parallel); the mask ~visited skips the visited vertices, so y is
  the next frontier.  A cost model measured
  on real graphs picks the direction (see :func:`pull_is_cheaper`).

Each result is checked against scipy (``csgraph.dijkstra``; ``trace(A^3) / 6``; PageRank by
scipy's own float64 products; BFS levels by ``csgraph.shortest_path``, unweighted) and, where it
is installed, python-graphblas (triangles and BFS).  ``benchmarks/graph_algorithms.py`` times these functions
against python-graphblas on real graphs.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import scipy.io
import scipy.sparse as sparse
from scipy.sparse import csgraph

import spf


class Kernels:
    """The kernels, compiled once (kept in spf's kernel cache between runs)."""

    def __init__(self) -> None:
        self.relax = spf.compile("y(j) = A(i,j) * d(i)", {"A": "CSC", "d": "Dense1", "y": "Dense1"},
                                 semiring="min_plus", parallel=True)
        # SSSP's push: the changed vertices' distances (a sparse vector) relaxed along their rows
        self.relax_push = spf.compile("y(j) = d(i) * A(i,j)", {"d": "SV", "A": "CSR", "y": "Dense1"},
                                      semiring="min_plus")
        self.triangles = spf.compile("C(i,j) = L(i,k) * M(j,k)", {"L": "CSR", "M": "CSR", "C": "CSR"},
                                     share={"C": "L"}, semiring="plus_pair", parallel=True,
                                     order=["pLi", "i", "pCi", "pCj", "j", "pMi", "pMj", "k", "pLj"])
        self.pull = spf.compile("y(j) = A(i,j) * w(i)", {"A": "CSC", "w": "Dense1", "y": "Dense1"}, parallel=True)
        # BFS: a push walks the frontier's rows of A (CSR), a pull each unvisited vertex's column (CSC);
        # both skip the visited vertices (the mask ~v)
        # the push's output is the next frontier as a sparse vector (SV, assembled under any_pair): the
        # next push reads it as it is, no frontier packed and no scan of a dense output over every vertex
        self.bfs_push = spf.compile("y(j) = q(i) * A(i,j)", {"q": "SV", "A": "CSR", "v": "Dense1", "y": "SV"},
                                    semiring="any_pair", mask="~v")
        # lor_second: y(j) = OR of q(i) over column j's pattern: q's zeros do not count, A's values are
        # not read (a stored zero is an edge, as for any_pair), and the sum stops at the first parent
        # (lor's terminal value); over bool data lor_land, lor_second and any_second were within 5%,
        # max_second and plus_times (then > 0; no terminal value) up to 2x slower, float64 up to 1.3x
        self.bfs_pull = spf.compile("y(j) = A(i,j) * q(i)", {"A": "CSC", "q": "Dense1", "v": "Dense1", "y": "Dense1"},
                                    semiring="lor_second", mask="~v", parallel=True)
        self.frontier = spf.load_layout("SV")  # loaded once: a push after a pull packs the frontier into it


def shortest_paths(kernels: Kernels, A: spf.Tensor, source: int = 0, A_rows: spf.Tensor | None = None) -> np.ndarray:
    """Distances from ``source`` over the weighted graph A (a CSC Tensor), inf where unreached.

    Bellman-Ford by rounds.  Given A in CSR too (``A_rows``), a round whose changed vertices
    have few edges pushes from them alone (``y(j) = min_i d_f(i) + A(i,j)`` with d_f a sparse
    vector of the changed distances, A's rows walked from each), else it pulls over every
    column; only a changed vertex can improve another, so both give the round's minimum."""
    n = A.shape[0]
    d = np.full(n, np.inf)
    d[source] = 0.0
    changed = np.array([source], dtype=np.int64)
    row_lengths = np.diff(A_rows.fields["rowPtr"]) if A_rows is not None else None
    edges = int(A.fields["nnz"]) if "nnz" in A.fields else len(A.fields["rowIdx"])
    for _ in range(n):
        frontier_edges = int(row_lengths[changed].sum()) if row_lengths is not None else edges
        if frontier_edges == 0:  # the changed vertices have no edge to relax: nothing changes any more
            break
        if PUSH_SHARE * frontier_edges < edges:
            frontier = spf.pack(kernels.frontier, (changed[:, None], d[changed], (n,)))
            reached = kernels.relax_push(d=frontier, A=A_rows)
        else:
            reached = kernels.relax(A=A, d=d)
        changed = np.flatnonzero(reached < d)
        if not len(changed):
            break
        d[changed] = reached[changed]
    return d


# A push round costs its frontier's edges plus a fixed ~0.1-0.2 ms (packing the frontier, the
# call); a pull round every edge.  Push while the changed vertices' edges are under 1/PUSH_SHARE
# of all (Beamer's rule for BFS uses 1/14 of the unexplored edges).
PUSH_SHARE = 10


def triangles(kernels: Kernels, L: spf.Tensor) -> int:
    """The triangles of the graph whose strict lower triangle is L (a CSR Tensor)."""
    return int(kernels.triangles(L=L, M=L).fields["data"].sum())


def pagerank(kernels: Kernels, A: spf.Tensor, damping: float = 0.85, tolerance: float = 1e-6,
             rounds: int = 100) -> np.ndarray:
    """The PageRank of the graph A (a float32 CSC Tensor of its pattern, edge i -> j at (i, j)),
    in float32: r = (1 - damping) / n + damping * (A' (r / out-degree) + dangling rank / n)."""
    n = A.shape[0]
    degrees = out_degrees(A)
    dangling = degrees == 0
    inverse = np.where(dangling, 0, 1 / np.maximum(degrees, 1)).astype(np.float32)
    rank = np.full(n, 1 / n, dtype=np.float32)
    for _ in range(rounds):
        pulled = kernels.pull(A=A, w=rank * inverse)
        spread = np.float32(damping * rank[dangling].sum() / n + (1 - damping) / n)
        new = np.float32(damping) * pulled + spread
        if np.abs(new - rank).sum() < tolerance:
            return new
        rank = new
    return rank


def bfs_levels(kernels: Kernels, A_csr: spf.Tensor, A_csc: spf.Tensor, source: int = 0,
               direction: str = "auto", threads: int | None = None) -> np.ndarray:
    """The BFS level of each vertex from ``source`` (-1 where unreached) over the graph A (edge
    i -> j at (i, j)), given in CSR and in CSC.  Direction-optimizing: each level either pushes
    the frontier (a sparse vector: the last push's output, or packed after a pull) along its
    rows of A into the next one, or pulls, for each unvisited
    vertex, over its column of A (the frontier a dense 0/1 vector), whichever
    :func:`pull_is_cheaper` expects to be faster on ``threads`` (by default ``spf.available_threads()``);
    ``direction`` "push" or "pull" forces one."""
    if direction not in ("auto", "push", "pull"):
        raise ValueError(f"direction must be 'auto', 'push' or 'pull', got {direction!r}")
    threads = spf.available_threads() if threads is None else threads
    n = A_csr.shape[0]
    row_lengths, column_lengths = np.diff(A_csr.fields["rowPtr"]), np.diff(A_csc.fields["colPtr"])
    levels = np.full(n, -1, dtype=np.int64)
    visited = np.zeros(n, dtype=bool)
    ones = np.ones(n, dtype=bool)  # the frontier's values when it is packed
    frontier = np.array([source], dtype=np.int64)
    dense = None  # the frontier as a dense 0/1 vector, once a pull has computed one
    packed = None  # the frontier as a sparse vector (SV), once a push has computed one
    unvisited, unvisited_edges = n, int(column_lengths.sum())
    level = 0
    while len(frontier):
        levels[frontier] = level
        visited[frontier] = True
        unvisited -= len(frontier)
        unvisited_edges -= int(column_lengths[frontier].sum())
        if direction == "pull" or direction == "auto" and pull_is_cheaper(
                n, unvisited, unvisited_edges, len(frontier), int(row_lengths[frontier].sum()), threads,
                packed is not None):
            if dense is None:
                dense = np.zeros(n, dtype=bool)
                dense[frontier] = True
            dense = kernels.bfs_pull(A=A_csc, q=dense, v=visited)
            frontier, packed = np.flatnonzero(dense), None  # the mask left 0 at every visited vertex
        else:
            if packed is None:
                packed = spf.pack(kernels.frontier, (frontier[:, None], ones[:len(frontier)], (n,)))
            packed = kernels.bfs_push(q=packed, A=A_csr, v=visited)
            frontier, dense = packed.fields["idx"], None  # the mask kept no visited vertex
        level += 1
    return levels


# The direction rule: a cost model of one level, in ns, fitted (least squares on the relative
# error) to both directions timed at every level of BFS from vertex 0 on the real graphs of
# benchmarks/graph_algorithms.py (4k-68k vertices, 140k-670k edges), 1 thread
# (benchmarks/bfs_directions.py --fit refits every constant and prints the rule's regret).
# A pull tests the mask at every vertex and walks each unvisited vertex's column until its
# first parent (the lor sum stops at true): about min(its in-degree, 1 / p) edges, p ~ m_f / m_u
# the share of its in-edges that come from the frontier (an undirected graph's unvisited vertex
# has no visited neighbour outside the frontier); its fit is rough (median error 21% over 259
# levels).  A push scatters the frontier, a sparse vector, along its rows into the next one, a
# sparse vector assembled by the kernel: its fixed cost (32 us: the call, the keep array over
# the n vertices, the output's assembly; the frontier is the last push's result, which keeps
# its C struct; median error 2%) was 80 us before results kept their structs and 180 us when
# each push packed the frontier and scanned a dense output over every vertex.  A push after a
# pull (or at the first level) first packs the frontier (PUSH_PACKING, the median measured).
# Unlike Beamer's rule (pull once the frontier's edges pass 1/14 of the unexplored ones), the
# fixed costs weigh most on these graphs: the crossover is where the unvisited vertices cost
# about as much as a push's fixed cost.  The two estimates are compared with the pull's
# weighed by PULL_WEIGHT, the weight that gives the least regret over the graphs (the fits
# minimise errors in time, the rule needs the right side of the crossover).  On 2 threads a pull
# (parallel) is cheaper and a push (serial) is not: the pull's 1-thread estimate divided by
# PULL_SPEEDUP plus PULL_PARALLEL_FIXED, fitted on the same levels at 2 threads
# (bfs_directions.py --threads 2 --fit).  The rule's regret (the simulated rule, packing
# included, against the least total any choice per level takes): 1.037 at 1 thread (most
# 1.26, EX5), 1.038 at 2 (most 1.15, BlogCatalog3).
PULL_FIXED, PULL_PER_VERTEX, PULL_PER_UNVISITED, PULL_PER_SCANNED_EDGE = 1_700, 0.38, 5.5, 0.074
PUSH_FIXED, PUSH_PER_FRONTIER, PUSH_PER_FRONTIER_EDGE = 32_000, 9.8, 0.6
PUSH_PACKING = 59_000  # packing the frontier into a sparse vector (the first level, and after a pull)
PULL_WEIGHT = 1.2  # the pull's estimate against the push's: the weight of least regret (bfs_directions.py --fit)
PULL_SPEEDUP, PULL_PARALLEL_FIXED = 1.99, 5_100  # a pull on 2 threads: its 1-thread cost / speedup + fixed


def pull_is_cheaper(vertices: int, unvisited: int, unvisited_edges: int, frontier: int,
                    frontier_edges: int, threads: int = 1, packed: bool = True) -> bool:
    """Whether a pull is expected to beat a push at a level (the cost model above): the pull on
    ``threads`` threads (the push is serial), the push packing the frontier unless ``packed``."""
    scanned = unvisited_edges * min(1.0, unvisited / max(frontier_edges, 1))
    pull = PULL_FIXED + PULL_PER_VERTEX * vertices + PULL_PER_UNVISITED * unvisited + PULL_PER_SCANNED_EDGE * scanned
    if threads > 1:  # fitted at 2 threads (this machine's cores), extrapolated linearly beyond
        pull = pull / (1 + (PULL_SPEEDUP - 1) * (threads - 1)) + PULL_PARALLEL_FIXED
    push = PUSH_FIXED + PUSH_PER_FRONTIER * frontier + PUSH_PER_FRONTIER_EDGE * frontier_edges
    return PULL_WEIGHT * pull < push + (0 if packed else PUSH_PACKING)


def out_degrees(A: spf.Tensor) -> np.ndarray:
    """The stored entries of each row of A (a CSC Tensor)."""
    return np.bincount(A.fields["rowIdx"], minlength=A.shape[0])


def scipy_pagerank(A: sparse.csr_matrix, damping: float = 0.85, tolerance: float = 1e-6,
                   rounds: int = 100) -> np.ndarray:
    """The same iteration in float64 with scipy's products: the reference."""
    n = A.shape[0]
    degrees = np.diff(A.indptr)
    dangling = degrees == 0
    inverse = np.where(dangling, 0, 1 / np.maximum(degrees, 1))
    rank = np.full(n, 1 / n)
    for _ in range(rounds):
        new = damping * (A.T @ (rank * inverse)) + damping * rank[dangling].sum() / n + (1 - damping) / n
        if np.abs(new - rank).sum() < tolerance:
            return new
        rank = new
    return rank


def scipy_bfs_levels(A: sparse.spmatrix, source: int = 0) -> np.ndarray:
    """The BFS levels by scipy (unweighted shortest paths), -1 where unreached: the reference."""
    hops = csgraph.shortest_path(A, unweighted=True, indices=source)
    return np.where(np.isinf(hops), -1, hops).astype(np.int64)


def symmetric_pattern(A: sparse.spmatrix) -> sparse.csr_matrix:
    """A's pattern made symmetric, without its diagonal, values 1 and sorted indices."""
    A = ((A != 0) + (A != 0).T).astype(np.float64).tocsr()
    A.setdiag(0)
    A.eliminate_zeros()
    A.sort_indices()
    return A


def weighted(A: sparse.csr_matrix) -> sparse.csr_matrix:
    """A with the weight 1 + (i + j) mod 7 on edge (i, j): positive and symmetric."""
    W = A.tocoo()
    W.data = 1.0 + (W.row + W.col) % 7
    return W.tocsr()


def main() -> None:
    if len(sys.argv) > 1:
        A = symmetric_pattern(scipy.io.mmread(sys.argv[1]))
    else:
        A = symmetric_pattern(sparse.random(20_000, 20_000, density=5e-4, random_state=1, format="csr"))
    W, L = weighted(A), sparse.tril(A, -1).tocsr()
    kernels = Kernels()
    started = time.perf_counter()
    distances = shortest_paths(kernels, spf.pack("CSC", W), A_rows=spf.pack("CSR", W))
    middle = time.perf_counter()
    count = triangles(kernels, spf.pack("CSR", L))
    ended = time.perf_counter()
    ranks = pagerank(kernels, spf.pack("CSC", A.astype(np.float32)))
    ranked = time.perf_counter()
    pattern = A.astype(bool)
    levels = bfs_levels(kernels, spf.pack("CSR", pattern), spf.pack("CSC", pattern))
    searched = time.perf_counter()
    reached = np.isfinite(distances)
    print(f"{A.shape[0]} vertices, {A.nnz // 2} edges")
    print(f"shortest paths from 0: {reached.sum()} vertices reached, farthest {distances[reached].max():.0f} "
          f"({(middle - started) * 1e3:.1f} ms)")
    print(f"triangles: {count} ({(ended - middle) * 1e3:.1f} ms)")
    print(f"PageRank (float32): largest {ranks.max():.3g} at vertex {ranks.argmax()} ({(ranked - ended) * 1e3:.1f} ms)")
    print(f"BFS from 0: {(levels >= 0).sum()} vertices reached in {levels.max() + 1} levels "
          f"({(searched - ranked) * 1e3:.1f} ms)")
    assert ranks.dtype == np.float32 and np.abs(ranks - scipy_pagerank(A)).sum() < 1e-4, "PageRank differs"
    assert np.array_equal(distances, csgraph.dijkstra(W, indices=0)), "shortest paths differ from scipy's"
    assert count == round((A @ A).multiply(A).sum() / 6), "triangles differ from trace(A^3) / 6"
    assert np.array_equal(levels, scipy_bfs_levels(A)), "BFS levels differ from scipy's"
    try:
        import graphblas as gb
    except ImportError:
        print("checked against scipy (python-graphblas is not installed)")
        return
    G = gb.io.from_scipy_sparse(L)
    C = gb.Matrix(gb.dtypes.INT64, *L.shape)
    C(G.S) << G.mxm(G.T, gb.semiring.plus_pair)
    assert count == C.reduce_scalar().new().value, "triangles differ from python-graphblas"
    G = gb.io.from_scipy_sparse(A)
    depth, frontier = gb.Vector(gb.dtypes.INT64, A.shape[0]), gb.Vector(gb.dtypes.BOOL, A.shape[0])
    frontier[0] = True
    level = 0
    while frontier.nvals:  # python-graphblas's BFS: the frontier's level, then its unvisited neighbours
        depth(frontier.S) << level
        frontier(~depth.S, replace=True) << frontier.vxm(G, gb.semiring.any_pair)
        level += 1
    assert np.array_equal(levels, depth.to_dense(fill_value=-1)), "BFS levels differ from python-graphblas"
    print("checked against scipy and python-graphblas")


if __name__ == "__main__":
    main()
