"""SpMSpV with a very sparse x over wider and wider matrices: does a call's time grow
with the column count?  (Issue 12, find state that lasts.)

Run: python benchmarks/spmspv_state.py [--nnz 400000] [--rows 40000]
     [--columns 40000,400000,4000000] [--x-nonzeros 10] [--finds hashmap,auto,seqiter]
     [--rounds 31] [--parallel]

Each matrix has the same rows and nonzeros (columns uniformly at random) and only its
column count changes; x holds ``--x-nonzeros`` entries.  ``y(i) = A(i,j) * x(j)`` runs
with A in CSR and x a sorted sparse vector (SV) through a bound kernel (inputs packed
once: the C call alone).  A hash-map find's table spans x's value range, the column
count: a kernel that allocates and zeroes it on every call pays O(columns) per call, one
that keeps it between calls pays it once.  Rounds are interleaved (one call per matrix
per round, after a warm-up call each) and each time is the median over the rounds; a
fresh x pattern is drawn every round, so a table left with stale entries is exercised
(and each result is checked against scipy).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import scipy.sparse as sparse

import spf


def random_matrix(rows: int, columns: int, nonzeros: int, seed: int) -> sparse.csr_matrix:
    rng = np.random.default_rng(seed)
    matrix = sparse.csr_matrix((rng.random(nonzeros) + 0.5, (rng.integers(0, rows, nonzeros),
                                                             rng.integers(0, columns, nonzeros))),
                               shape=(rows, columns))
    matrix.sum_duplicates()
    matrix.sort_indices()
    return matrix


def sparse_x(columns: int, nonzeros: int, rng) -> sparse.coo_array:
    places = np.sort(rng.choice(columns, size=nonzeros, replace=False))
    return sparse.coo_array((rng.random(nonzeros) + 0.5, (places,)), shape=(columns,))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nnz", type=int, default=400_000)
    parser.add_argument("--rows", type=int, default=40_000)
    parser.add_argument("--columns", default="40000,400000,4000000")
    parser.add_argument("--x-nonzeros", type=int, default=10)
    parser.add_argument("--finds", default="hashmap,auto,seqiter")
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--parallel", action="store_true")
    arguments = parser.parse_args()
    widths = [int(c) for c in arguments.columns.split(",")]
    finds = arguments.finds.split(",")
    layouts = {"y": "Dense", "A": "CSR", "x": "SV"}
    kernels = {find: spf.compile("y(i) = A(i,j) * x(j)", layouts, find=find, parallel=arguments.parallel)
               for find in finds}
    matrices = {n: random_matrix(arguments.rows, n, arguments.nnz, seed=n) for n in widths}
    packed = {n: spf.pack("CSR", matrices[n]) for n in widths}
    rng = np.random.default_rng(7)
    times: dict[tuple[str, int], list[float]] = {(f, n): [] for f in finds for n in widths}
    for round_ in range(arguments.rounds + 1):  # round 0 warms up
        for n in widths:
            x = sparse_x(n, arguments.x_nonzeros, rng)
            expected = matrices[n] @ x.toarray()
            x_packed = spf.pack("SV", x)
            for find in finds:
                bound = kernels[find].bind(A=packed[n], x=x_packed)
                begin = time.perf_counter()
                y = bound()
                elapsed = time.perf_counter() - begin
                if not np.allclose(y, expected):
                    raise SystemExit(f"wrong result: find={find}, {n} columns, round {round_}")
                if round_:
                    times[(find, n)].append(elapsed)
    print(f"y(i) = A(i,j) * x(j), A CSR {arguments.rows} rows, {arguments.nnz} nonzeros; "
          f"x SV with {arguments.x_nonzeros} nonzeros; parallel={arguments.parallel}; "
          f"median of {arguments.rounds} interleaved rounds (us per call)")
    print(f"{'find':<10}" + "".join(f"{n:>12}" for n in widths) + f"{'last/first':>12}")
    for find in finds:
        medians = [statistics.median(times[(find, n)]) * 1e6 for n in widths]
        print(f"{find:<10}" + "".join(f"{m:>12.1f}" for m in medians) + f"{medians[-1] / medians[0]:>12.2f}")


if __name__ == "__main__":
    main()
