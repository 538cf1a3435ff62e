"""The run-time choice's operand sizes (issue 27, item 6): ``res.sizes`` and ``res.select``
on large operands, against counting the stored prefixes with ``np.unique`` (how
``operand_sizes`` counted them before level statistics).

Run: python benchmarks/operand_sizes.py [--repeat 5]

MTTKRP ``A(i,j) = B(i,k,l) * C(k,j) * D(l,j)`` with B in CSF3 on the largest real order-3
tensor in ../shared/data (fb13), and ``A(i,l) = B(i,j) * C(j,k) * D(k,l)`` with B in CSR
and DCSR on a random 50000 x 50000 matrix of 1M entries and on BlogCatalog3 (668k), as a
scipy CSR, a scipy COO and a Tensor.  Prints the first call (a Tensor computes its level
statistics there), the median of the calls and of ``select``, and the np.unique count's
time on the same entries; checks that both give the same sizes.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
from spf.scheduling.autoscheduler.cost import count_symbols

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
WIDTH = 32


def timed(function, repeat: int) -> tuple[float, float]:
    """(first call, median of the calls) in milliseconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1e3)
    return times[0], statistics.median(times)


def unique_counts(problem, name: str, coords: np.ndarray) -> dict[str, float]:
    """The stored counts by np.unique over the prefixes (the definition)."""
    operand = next(f for f in problem.factors if f.name == name)
    columns = [operand.indices.index(level) for level in operand.levels]
    counts = {}
    for depth in range(len(operand.levels)):
        symbols = count_symbols(operand, depth)
        if len(symbols) == 1 and symbols[0].startswith("nnz_"):
            counts[symbols[0]] = float(max(len(np.unique(coords[:, columns[:depth + 1]], axis=0)), 1))
    return counts


def measure(label: str, result, inputs: dict, coords: np.ndarray, repeat: int) -> None:
    first, median = timed(lambda: result.sizes(**inputs), repeat)
    _, select = timed(lambda: result.select(**inputs), repeat)
    sizes = result.sizes(**inputs)
    started = time.perf_counter()
    expected = unique_counts(result.problem, "B", coords)
    unique = (time.perf_counter() - started) * 1e3
    same = all(sizes[key] == value for key, value in expected.items())
    print(f"{label:42s} sizes first {first:8.2f} ms, median {median:8.2f} ms; select median {select:8.2f} ms; "
          f"np.unique {unique:8.1f} ms; same counts: {same}", flush=True)


def random_csr(rows: int, columns: int, entries: int) -> sparse.csr_matrix:
    rng = np.random.default_rng(1)
    return sparse.coo_matrix((rng.random(entries), (rng.integers(0, rows, entries), rng.integers(0, columns, entries))),
                             shape=(rows, columns)).tocsr()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    rng = np.random.default_rng(0)
    quiet = {"progress": lambda line: None}

    coords, values, shape = spf.read_tns(DATA / "tensors" / "fb13.tns")
    mttkrp = spf.autoschedule("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)",
                              {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}, **quiet)
    tensor = spf.pack("CSF3", (coords, values, shape), name="B")
    inputs = {"C": rng.random((shape[1], WIDTH)), "D": rng.random((shape[2], WIDTH))}
    measure(f"MTTKRP fb13 ({len(values)}) CSF3 Tensor", mttkrp, dict(inputs, B=tensor), tensor.to_coo()[0], repeat)

    chains = {layout: spf.autoschedule("A(i,l) = B(i,j) * C(j,k) * D(k,l)",
                                       {"A": "Dense", "B": layout, "C": "Dense", "D": "Dense"}, **quiet)
              for layout in ["CSR", "DCSR"]}
    matrices = {"random 1M": random_csr(50000, 50000, 1_000_000),
                "BlogCatalog3": sparse.csr_matrix(scipy.io.mmread(DATA / "matrices" / "BlogCatalog3.mtx"))}
    for label, matrix in matrices.items():
        coo = matrix.tocoo()
        coords = np.stack([coo.row, coo.col], axis=1)
        inputs = {"C": rng.random((matrix.shape[1], WIDTH)), "D": rng.random((WIDTH, WIDTH))}
        for layout, result in chains.items():
            forms = {"scipy csr": matrix, "scipy coo": matrix.tocoo(),
                     f"{layout} Tensor": spf.pack(layout, matrix, name="B", copy=True)}
            for form, operand in forms.items():
                measure(f"B({layout}) {label} ({matrix.nnz}) {form}", result, dict(inputs, B=operand), coords, repeat)


if __name__ == "__main__":
    main()
