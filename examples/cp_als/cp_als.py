"""CP-ALS (a rank-R canonical polyadic decomposition by alternating least squares) of an
order-3 sparse tensor, on one process or over MPI ranks with spf.distributed.

    python examples/cp_als/cp_als.py tensor.tns --rank 8 --iterations 10            # one process
    mpiexec -n 4 python examples/cp_als/cp_als.py tensor.tns --rank 8 --distributed  # 4 ranks

Each iteration solves for one factor per mode: the MTTKRP of that mode (an spf kernel on
the tensor in CSF3), then a solve with the Hadamard product of the other factors' Gram
matrices.  Distributed, the tensor is split by blocks of its first mode (read in
parallel, :func:`spf.distributed.read_tns`); the first factor's rows stay with their
block (its MTTKRP is a distributed output, its Gram matrix an Allreduce of the blocks'),
the other two factors are replicated (their MTTKRPs are summed with Allreduce).  The fit
per iteration and the factors (``--out``) are the same as the one-process run up to the
rounding of the reductions' order.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import spf

MTTKRP = {
    0: "M(i,r) = B(i,j,k) * C(j,r) * D(k,r)",
    1: "M(j,r) = B(i,j,k) * C(i,r) * D(k,r)",
    2: "M(k,r) = B(i,j,k) * C(i,r) * D(j,r)",
}
LAYOUTS = {"M": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}


class OneProcess:
    """The whole tensor and every factor in this process."""

    def __init__(self, path: str, kernels: dict):
        self.tensor = spf.pack("CSF3", spf.read_tns(path), name="B")
        self.shape, self.kernels = self.tensor.shape, kernels
        self.norm_squared = float(np.sum(self.tensor.values ** 2))

    def initial(self, mode: int, factor: np.ndarray):
        return factor

    def mttkrp(self, mode: int, factors: list):
        others = [factors[m] for m in range(3) if m != mode]
        return self.kernels[mode](B=self.tensor, C=others[0], D=others[1])

    def rows(self, array):
        """This process's rows of a first-mode array (all of them)."""
        return array

    def sum(self, array: np.ndarray) -> np.ndarray:
        return array

    def first_factor(self, rows: np.ndarray):
        return rows


class Distributed(OneProcess):
    """The tensor split by blocks of mode 0; the first factor's rows with their block."""

    def __init__(self, path: str, kernels: dict):
        import spf.distributed as dist
        from mpi4py import MPI
        self.dist, self.MPI = dist, MPI
        self.tensor = dist.read_tns(path, layout="CSF3", name="B")
        self.shape, self.kernels, self.comm = self.tensor.shape, kernels, self.tensor.comm
        self.norm_squared = self.comm.allreduce(float(np.sum(self.tensor.local.values ** 2)), op=MPI.SUM)

    def initial(self, mode: int, factor: np.ndarray):
        return self.first_factor(factor[self.tensor.lo:self.tensor.hi]) if mode == 0 else factor

    def mttkrp(self, mode: int, factors: list):
        others = [factors[m] for m in range(3) if m != mode]
        result = self.dist.run(self.kernels[mode], B=self.tensor, C=others[0], D=others[1])
        return result.local if mode == 0 else result  # mode 0: this block's rows

    def rows(self, array):
        return array.local if isinstance(array, self.dist.DistributedTensor) else array

    def sum(self, array: np.ndarray) -> np.ndarray:
        array = np.ascontiguousarray(array)
        self.comm.Allreduce(self.MPI.IN_PLACE, array, op=self.MPI.SUM)
        return array

    def first_factor(self, rows: np.ndarray):
        """A first-mode factor as the kernels take it: this block's rows, split as the tensor is."""
        T = self.tensor
        return self.dist.DistributedTensor(T.comm, spf.load_layout("Dense2"), (T.shape[0], rows.shape[1]), 0,
                                           T.bounds, np.ascontiguousarray(rows), "A0")


def cp_als(run: OneProcess, rank: int, iterations: int, seed: int):
    """``(fits, weights, factors)``; factors[0] is the first factor's rows on this process."""
    rng = np.random.default_rng(seed)
    initial = [rng.random((extent, rank)) for extent in run.shape]  # the same on every rank
    factors = [run.initial(mode, initial[mode]) for mode in range(3)]
    grams = [run.sum(run.rows(factors[0]).T @ run.rows(factors[0]))] + [f.T @ f for f in factors[1:]]
    fits, weights = [], np.ones(rank)
    for _ in range(iterations):
        for mode in range(3):
            M = run.mttkrp(mode, factors)
            V = np.ones((rank, rank))
            for other in range(3):
                if other != mode:
                    V *= grams[other]
            solved = np.linalg.solve(V.T, M.T).T if np.linalg.cond(V) < 1e12 else M @ np.linalg.pinv(V)
            gram = run.sum(solved.T @ solved) if mode == 0 else solved.T @ solved
            weights = np.sqrt(np.diag(gram))
            weights[weights == 0] = 1.0
            solved = solved / weights
            grams[mode] = gram / np.outer(weights, weights)
            factors[mode] = run.first_factor(solved) if mode == 0 else solved
        # fit = 1 - |X - model| / |X|, from the last mode's MTTKRP (Kolda and Bader's identity)
        inner = float(np.sum((M * factors[2]) @ weights))
        model = float(weights @ (grams[0] * grams[1] * grams[2]) @ weights)
        residual = max(run.norm_squared + model - 2 * inner, 0.0) ** 0.5
        fits.append(1 - residual / run.norm_squared ** 0.5)
    return fits, weights, factors


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tensor", help="a FROSTT .tns file of order 3")
    parser.add_argument("--rank", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--distributed", action="store_true", help="split the tensor over the MPI ranks")
    parser.add_argument("--out", help="write the fits, weights and factors to this .npz (from rank 0)")
    options = parser.parse_args(argv)
    kernels = {mode: spf.compile(expression, LAYOUTS, parallel=True) for mode, expression in MTTKRP.items()}
    try:
        run = (Distributed if options.distributed else OneProcess)(options.tensor, kernels)
        fits, weights, factors = cp_als(run, options.rank, options.iterations, options.seed)
    except spf.SpfError as error:
        print(f"cp_als: error: {error}", file=sys.stderr)
        return 1
    first = run.rows(factors[0])
    if options.distributed:
        first = factors[0].gather(root=0)
    if not options.distributed or run.comm.rank == 0:
        for iteration, fit in enumerate(fits, 1):
            print(f"iteration {iteration}: fit {fit:.10f}")
        if options.out:
            np.savez(options.out, fits=np.array(fits), weights=weights, A0=first, A1=factors[1], A2=factors[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
