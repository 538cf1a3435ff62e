"""spf.distributed (issue 13): strong and weak scaling over MPI ranks, 1 thread each.

Run: python benchmarks/distributed.py [--nnz 40e6] [--ranks 1 2] [--repeats 11] [--out FILE]

The driver launches ``mpiexec -n P`` of this file (``--worker``) for each P and prints one
table.  Each worker builds synthetic data without any rank holding all of it: every rank
draws 1/P of the entries at random coordinates and ``dist.from_entries`` sends each to the
rank owning its outer coordinate.  Strong scaling keeps ``--nnz`` fixed; weak scaling
(``--weak``) gives each rank ``--nnz`` entries.

* SpMV, ``y(i) = A(i,j) * x(j)``: a uniform random square matrix with 10 nonzeros per row,
  in CSR split by rows (y stays distributed: no communication) and in CSC split by
  columns (y summed with Allreduce every call);
* MTTKRP, ``M(i,r) = B(i,j,k) * C(j,r) * D(k,r)`` (mode 0, the split mode: no
  communication) and mode 1 (``M(j,r)``, summed with Allreduce), B in CSF3 of shape
  (nnz/40, 20000, 20000), R = 16.

Per kernel: the median over ``--repeats`` calls of the slowest rank's time per call
(``dist.bind``: the C function, then the combination), the median of the C function alone,
the bytes the model says each rank sends per call (``Plan.bytes_per_call``: ring
Allreduce), and each rank's peak resident memory against its block plus the replicated
operands.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

R = 16


def worker(options) -> None:
    import spf
    import spf.distributed as dist
    from mpi4py import MPI

    comm = dist.world()
    P, rank = comm.size, comm.rank
    total = int(options.nnz) * (P if options.weak else 1)
    rng = np.random.default_rng(1000 + rank)
    mine = total // P + (1 if rank < total % P else 0)
    results = []

    def measure(label, kernel, operands, replicated_bytes):
        bound = dist.bind(kernel, **operands)
        bound()  # warm: first touch of the output, find tables
        whole, local = [], []
        for _ in range(options.repeats):
            comm.Barrier()
            start = time.perf_counter()
            bound()
            whole.append(comm.allreduce(time.perf_counter() - start, op=MPI.MAX))
        for _ in range(options.repeats):
            comm.Barrier()
            start = time.perf_counter()
            bound._bound()
            local.append(comm.allreduce(time.perf_counter() - start, op=MPI.MAX))
        messages, sent = bound.plan.bytes_per_call()
        status_messages, status = bound.plan.status_bytes_per_call()
        with dist.counting() as traffic:
            bound()
        counted = comm.allreduce(sum(traffic.sent.values()), op=MPI.MAX)
        block = sum(v.nbytes for v in operands[next(iter(operands))].local.fields.values()
                    if isinstance(v, np.ndarray))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        peaks = comm.gather((peak, block + replicated_bytes), root=0)
        if rank == 0:
            results.append({"kernel": label, "ranks": P, "nnz": total, "call": statistics.median(whole),
                            "kernel_only": statistics.median(local), "model_bytes": sent + status,
                            "counted_bytes": counted, "messages": messages + status_messages,
                            "peak_over_share": max(p / s for p, s in peaks),
                            "peak_bytes": max(p for p, _ in peaks)})

    # SpMV on a uniform random square matrix, 10 nonzeros per row
    n = max(1, total // 10)
    coords = rng.integers(0, n, size=(mine, 2))
    values = rng.random(mine)
    x = np.random.default_rng(7).random(n)
    spmv = {layout: spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "Dense", "y": "Dense"})
            for layout in ("CSR", "CSC")}
    for layout, label in (("CSR", "spmv CSR (rows: y distributed)"), ("CSC", "spmv CSC (columns: y Allreduce)")):
        A = dist.from_entries(layout, coords, values, (n, n), name="A", duplicates="sum")
        measure(label, spmv[layout], {"A": A, "x": x}, x.nbytes + (n * 8 if layout == "CSC" else 0))
        del A
    del coords, values
    # MTTKRP on a CSF3 tensor
    shape = (max(1, total // 40), 20000, 20000)
    coords = np.stack([rng.integers(0, s, size=mine) for s in shape], axis=1)
    values = rng.random(mine)
    B = dist.from_entries("CSF3", coords, values, shape, name="B", duplicates="sum")
    del coords, values
    factors = [np.random.default_rng(20 + m).random((s, R)) for m, s in enumerate(shape)]
    layouts = {"M": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
    mode0 = spf.compile("M(i,r) = B(i,j,k) * C(j,r) * D(k,r)", layouts, parallel=True)
    mode1 = spf.compile("M(j,r) = B(i,j,k) * C(i,r) * D(k,r)", layouts, parallel=True)
    measure("mttkrp mode 0 (split mode: M distributed)", mode0, {"B": B, "C": factors[1], "D": factors[2]},
            factors[1].nbytes + factors[2].nbytes)
    measure("mttkrp mode 1 (M Allreduce)", mode1, {"B": B, "C": factors[0], "D": factors[2]},
            factors[0].nbytes // P + factors[2].nbytes + shape[1] * R * 8)
    if rank == 0:
        print(json.dumps(results), flush=True)


def driver(options) -> None:
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which("mpiexec")
    if mpiexec is None:
        sys.exit("mpiexec not found: pip install -e '.[mpi]'")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    rows = []
    for weak in ([False, True] if options.weak else [False]):
        for P in options.ranks:
            command = [mpiexec, "-n", str(P), "--oversubscribe", "--bind-to", "core" if P <= os.cpu_count() else
                       "none", sys.executable, __file__, "--worker", "--nnz", str(options.nnz),
                       "--repeats", str(options.repeats)] + (["--weak"] if weak else [])
            done = subprocess.run(command, capture_output=True, text=True, env=env)
            if done.returncode != 0:
                sys.exit(f"mpiexec -n {P} failed:\n{done.stderr[-3000:]}")
            for row in json.loads(done.stdout.strip().splitlines()[-1]):
                row["scaling"] = "weak" if weak else "strong"
                rows.append(row)
    lines = [f"spf.distributed, {os.cpu_count()} cores, 1 thread per rank, medians of {options.repeats} calls "
             f"(the slowest rank's time per call)", "",
             f"{'scaling':7} {'kernel':42} {'ranks':>5} {'nnz':>10} {'call ms':>9} {'C only ms':>9} "
             f"{'speedup':>7} {'model bytes/call':>16} {'peak/share':>10}"]
    for row in rows:
        base = next(r for r in rows if r["kernel"] == row["kernel"] and r["scaling"] == row["scaling"]
                    and r["ranks"] == options.ranks[0])
        if row["scaling"] == "strong":
            ratio = base["call"] / row["call"]  # speedup
        else:
            ratio = base["call"] / row["call"]  # weak-scaling efficiency (1 is perfect)
        lines.append(f"{row['scaling']:7} {row['kernel']:42} {row['ranks']:>5} {row['nnz']:>10} "
                     f"{row['call'] * 1e3:>9.2f} {row['kernel_only'] * 1e3:>9.2f} {ratio:>7.2f} "
                     f"{row['model_bytes']:>16} {row['peak_over_share']:>10.2f}")
    lines.append("")
    lines.append("speedup: the first rank count's time over this one's (strong); for weak scaling the same ratio is "
                 "the efficiency. peak/share: the largest rank's peak resident memory over its block plus the "
                 "replicated operands (includes the interpreter and spf, ~0.15 GB, which dominate small runs).")
    text = "\n".join(lines)
    print(text)
    if options.out:
        Path(options.out).write_text(text + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nnz", type=float, default=40e6)
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--weak", action="store_true", help="also weak scaling (--nnz per rank)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help="also write the table to this file")
    options = parser.parse_args()
    options.nnz = int(options.nnz)
    (worker if options.worker else driver)(options)


if __name__ == "__main__":
    main()
