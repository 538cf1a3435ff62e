"""The graph algorithms of examples/graphs/graphs.py against scipy: the direction-optimizing
BFS (masked push and pull kernels; each direction forced on its own, and the automatic choice
on a graph where it takes both), and shortest paths by pushing and pulling rounds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sparse
from scipy.sparse import csgraph

import spf

GRAPHS = Path(__file__).resolve().parents[1] / "examples" / "graphs" / "graphs.py"


@pytest.fixture(scope="module")
def graphs():
    spec = importlib.util.spec_from_file_location("graphs_example", GRAPHS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def kernels(graphs):
    return graphs.Kernels()


def expected_levels(A: sparse.csr_matrix, source: int) -> np.ndarray:
    hops = csgraph.shortest_path(A, unweighted=True, indices=source)
    return np.where(np.isinf(hops), -1, hops).astype(np.int64)


def random_graph(n: int, degree: float, seed: int, directed: bool) -> sparse.csr_matrix:
    """A random pattern of about ``degree`` edges per vertex, no self-loops, values True;
    the last tenth of the vertices has no edge (unreachable)."""
    rng = np.random.default_rng(seed)
    count = int(n * degree)
    live = n - n // 10
    rows, columns = rng.integers(0, live, count), rng.integers(0, live, count)
    keep = rows != columns
    A = sparse.coo_matrix((np.ones(keep.sum(), dtype=bool), (rows[keep], columns[keep])), shape=(n, n)).tocsr()
    if not directed:
        A = (A + A.T).tocsr()
    A.sum_duplicates()
    A.sort_indices()
    return A


class Counted:
    """A kernel that counts its calls."""

    def __init__(self, kernel) -> None:
        self.kernel, self.calls = kernel, 0

    def __call__(self, **arguments):
        self.calls += 1
        return self.kernel(**arguments)


@pytest.mark.parametrize("direction", ["push", "pull", "auto"])
@pytest.mark.parametrize("directed", [False, True])
def test_bfs_levels_match_scipy(graphs, kernels, direction, directed):
    A = random_graph(400, 3.0, seed=7, directed=directed)
    A_csr, A_csc = spf.pack("CSR", A), spf.pack("CSC", A)
    for source in (0, 5, 399):  # 399: an isolated vertex, nothing else reached
        levels = graphs.bfs_levels(kernels, A_csr, A_csc, source, direction=direction)
        assert levels.dtype == np.int64
        assert np.array_equal(levels, expected_levels(A, source)), (direction, source)


def test_automatic_direction_pushes_and_pulls(graphs, kernels, monkeypatch):
    """A random graph large enough that pulling every unvisited vertex costs (by the example's
    cost model, on 1 thread) twice a push's fixed cost with the frontier packed: the first level
    pushes the source, the middle ones, whose frontiers hold most vertices, pull."""
    n = int(2 * (graphs.PUSH_FIXED + graphs.PUSH_PACKING) / graphs.PULL_PER_UNVISITED)
    A = random_graph(n, 3.0, seed=3, directed=False)
    push, pull = Counted(kernels.bfs_push), Counted(kernels.bfs_pull)
    monkeypatch.setattr(kernels, "bfs_push", push)
    monkeypatch.setattr(kernels, "bfs_pull", pull)
    source = int(np.argmax(np.diff(A.indptr) > 0))
    levels = graphs.bfs_levels(kernels, spf.pack("CSR", A), spf.pack("CSC", A), source, threads=1)
    assert np.array_equal(levels, expected_levels(A, source))
    assert push.calls and pull.calls, (push.calls, pull.calls)


def test_the_direction_rule_weighs_a_pull_by_its_threads_and_a_push_by_packing(graphs):
    """A level the rule pushes on 1 thread it pulls on 2 (the pull runs in parallel, the push
    does not), and a push that must pack the frontier first costs that much more."""
    vertices = int(graphs.PUSH_FIXED / graphs.PULL_PER_UNVISITED)
    level = dict(vertices=vertices, unvisited=vertices, unvisited_edges=4 * vertices, frontier=10, frontier_edges=40)
    assert not graphs.pull_is_cheaper(**level, threads=1)
    assert graphs.pull_is_cheaper(**level, threads=2)
    assert graphs.pull_is_cheaper(**level, threads=1, packed=False)


def test_direction_is_checked(graphs, kernels):
    A = random_graph(10, 1.0, seed=1, directed=True)
    with pytest.raises(ValueError, match="direction must be"):
        graphs.bfs_levels(kernels, spf.pack("CSR", A), spf.pack("CSC", A), direction="sideways")


def test_bfs_over_a_float_pattern(graphs, kernels):
    """A graph packed with float64 ones: the kernels compute in float64, the levels are the same."""
    A = random_graph(300, 4.0, seed=11, directed=True).astype(np.float64)
    for direction in ("push", "pull"):
        levels = graphs.bfs_levels(kernels, spf.pack("CSR", A), spf.pack("CSC", A), 1, direction=direction)
        assert np.array_equal(levels, expected_levels(A, 1)), direction


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("rows", [False, True])
def test_shortest_paths_match_dijkstra(graphs, kernels, directed, rows):
    """Pull only (no CSR given), or pushing from the changed vertices while they have few edges."""
    pattern = random_graph(3000, 3.0, 7, directed)
    W = pattern.astype(np.float64).tocoo()
    W.data = 1.0 + (W.row * 7 + W.col * 3) % 11
    W = W.tocsr()
    expected = csgraph.dijkstra(W, indices=0)
    got = graphs.shortest_paths(kernels, spf.pack("CSC", W), A_rows=spf.pack("CSR", W) if rows else None)
    np.testing.assert_array_equal(got, expected)
    isolated = W.shape[0] - 1  # the last tenth has no edge: only itself is reached
    got = graphs.shortest_paths(kernels, spf.pack("CSC", W), source=isolated,
                                A_rows=spf.pack("CSR", W) if rows else None)
    assert got[isolated] == 0 and np.isinf(np.delete(got, isolated)).all()
