"""spf.distributed (issue 13): strong and weak scaling over MPI ranks (1 thread each), the
bytes sent per call counted against the model, and each rank's peak memory against its share.

Run: python benchmarks/distributed.py [--nnz 40e6] [--ranks 1 2] [--repeats 11] [--launches 3] [--weak] [--out FILE]
     python benchmarks/distributed.py --files [--nnz 20e6] [--ranks 1 2]   (reading .mtx/.tns files)

The driver launches ``mpiexec -n P`` of this file (``--worker``) for each P and prints one
table.  Each worker builds synthetic data without any rank holding all of it: every rank
draws 1/P of the entries at random coordinates and ``dist.from_entries`` sends each to the
rank owning its outer coordinate.  Strong scaling keeps ``--nnz`` fixed; weak scaling
(``--weak``) gives each rank ``--nnz`` entries.

* SpMV, ``y(i) = A(i,j) * x(j)``: a uniform random matrix with 10 nonzeros per row
  (``--band W``: columns within W of the row's diagonal, so each rank reads its own part
  of x), in CSR split by rows (y stays distributed: no communication) and in CSC split by
  columns (y summed with Allreduce every call).  Strong scaling: square.  Weak scaling
  keeps each rank's problem the same: the split dimension grows with the ranks, the other
  (x's length for CSR, y's for CSC) stays at ``--nnz``/10; the square matrix, where x or y
  grows with the ranks, is measured beside it;
* MTTKRP, ``M(i,r) = B(i,j,k) * C(j,r) * D(k,r)`` (mode 0, the split mode: no
  communication) and mode 1 (``M(j,r)``, summed with Allreduce), B in CSF3 of shape
  (nnz/40, 20000, 20000), R = 16.

Per kernel: the median over ``--repeats`` calls of the slowest rank's time per call
(``dist.bind``: the C function, then the combination), the median of the C function alone,
the bytes each rank sends per call by the model (``Plan.bytes_per_call`` plus
``status_bytes_per_call``) and as counted (``dist.counting`` around one call; the largest
rank's), and the peak memory of the largest rank against its share (see MEMORY).

``--files`` writes a Matrix Market matrix and a FROSTT tensor of ``--nnz`` entries to
``--folder`` once (not into the project) and measures, each in a fresh ``mpiexec``, the peak
memory of ``dist.read_mtx`` and ``dist.read_tns`` against the block each rank keeps.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

R = 16
MEMORY = ("peak memory: a rank's resident memory at its highest (VmHWM, reset through /proc/self/clear_refs "
          "before each phase) minus its resident memory just before the phase (VmRSS, after a warm-up run of "
          "the same calls on small data, so that the interpreter, numpy, mpi4py, spf and the compiled kernels "
          "and assembly are in it, and freed heap pages handed back); read = dist.read_mtx/read_tns/"
          "from_entries, over the bytes of the block the rank keeps (the caller's own entry arrays, for "
          "from_entries, are in the baseline); run = dist.bind and the calls, plus the block and the replicated "
          "operands it was given, over the block, the replicated operands and this rank's output. "
          "Acceptance: at most 1.5.")


def _status(key: str) -> int:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {key} in /proc/self/status")


class Phase:
    """Peak resident memory over a phase, above the resident memory at its start."""

    def __enter__(self):
        from spf.runtime.memory import give_back
        give_back()
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")  # resets VmHWM to the current resident size
        self.start = _status("VmRSS:")
        return self

    def __exit__(self, *exc):
        self.extra = _status("VmHWM:") - self.start
        return False


def _block_bytes(tensor) -> int:
    local = tensor.local
    if isinstance(local, np.ndarray):
        return int(local.nbytes)
    return int(sum(v.nbytes for v in local.fields.values() if isinstance(v, np.ndarray)))


def worker(options) -> None:
    import spf
    import spf.distributed as dist
    from mpi4py import MPI

    comm = dist.world()
    P, rank = comm.size, comm.rank
    if options.files:
        return file_worker(options, comm)
    total = int(options.nnz) * (P if options.weak else 1)
    rng = np.random.default_rng(1000 + rank)
    mine = total // P + (1 if rank < total % P else 0)
    results = []

    def measure(label, kernel, operands, replicated, read_extra):
        block = _block_bytes(next(v for v in operands.values() if isinstance(v, dist.DistributedTensor)))
        with Phase() as run:
            bound = dist.bind(kernel, **operands)
            output = bound()  # warm: first touch of the output, find tables
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
            with dist.counting() as traffic:
                bound()
        output_bytes = _block_bytes(output) if isinstance(output, dist.DistributedTensor) else np.asarray(output).nbytes
        messages, sent = bound.plan.bytes_per_call()
        status_messages, status = bound.plan.status_bytes_per_call()
        counted = comm.allreduce(sum(traffic.sent.values()), op=MPI.MAX)
        model = comm.allreduce(sent + status, op=MPI.MAX)
        read_ratio = read_extra / block
        run_ratio = (run.extra + block + replicated) / (block + replicated + output_bytes)
        ratios = comm.gather((read_ratio, run_ratio), root=0)
        del bound, output
        if rank == 0:
            results.append({"kernel": label, "ranks": P, "nnz": total, "call": statistics.median(whole),
                            "kernel_only": statistics.median(local), "model_bytes": model,
                            "counted_bytes": counted, "read_peak": max(r for r, _ in ratios),
                            "run_peak": max(r for _, r in ratios)})

    def from_entries(layout, coords, values, shape):
        with Phase() as read:
            tensor = dist.from_entries(layout, coords, values, shape, name="T", duplicates="sum")
        return tensor, read.extra

    def matrix(shape, count, generator):
        if not options.band:
            return np.stack([generator.integers(0, s, size=count) for s in shape], axis=1), generator.random(count)
        rows = generator.integers(0, shape[0], size=count)  # columns within --band of the row's diagonal
        diagonal = rows * shape[1] // shape[0]
        columns = np.clip(diagonal + generator.integers(-options.band, options.band + 1, size=count), 0, shape[1] - 1)
        return np.stack([rows, columns], axis=1), generator.random(count)

    def tensor(shape, count, generator):
        return np.stack([generator.integers(0, s, size=count) for s in shape], axis=1), generator.random(count)

    spmv = {layout: spf.compile("y(i) = A(i,j) * x(j)", {"A": layout, "x": "Dense", "y": "Dense"})
            for layout in ("CSR", "CSC")}
    layouts = {"M": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
    mode0 = spf.compile("M(i,r) = B(i,j,k) * C(j,r) * D(k,r)", layouts, parallel=True)
    mode1 = spf.compile("M(j,r) = B(i,j,k) * C(i,r) * D(k,r)", layouts, parallel=True)
    # warm-up on small data: the compiled assembly and kernels, mpi4py's buffers, numpy's caches
    small = np.random.default_rng(5)
    for layout in ("CSR", "CSC"):
        A, _ = from_entries(layout, *matrix((1000, 1000), 5000, small), (1000, 1000))
        dist.bind(spmv[layout], A=A, x=np.ones(1000))()
    B, _ = from_entries("CSF3", *tensor((100, 50, 50), 5000, small), (100, 50, 50))
    for kernel, extents in ((mode0, (50, 50)), (mode1, (100, 50))):
        dist.bind(kernel, B=B, C=np.ones((extents[0], R)), D=np.ones((extents[1], R)))()
    del A, B

    # SpMV, 10 nonzeros per row.  Strong scaling: a square matrix.  Weak scaling: the split
    # dimension grows with the ranks and the other one (x's for CSR, y's for CSC) stays the
    # size one rank's share gives, so each rank's problem (its block, x, y) is the same at
    # every rank count; the square matrix is measured too, where x or y grows with the ranks.
    n = max(1, total // 10)
    fixed = max(1, int(options.nnz) // 10)
    shapes = [("CSR", "spmv CSR (rows: y distributed)", (n, n)), ("CSC", "spmv CSC (columns: y Allreduce)", (n, n))]
    if options.weak:
        shapes = [("CSR", "spmv CSR (rows: y distributed)", (n, fixed)),
                  ("CSC", "spmv CSC (columns: y Allreduce)", (fixed, n)),
                  ("CSR", "spmv CSR, square (x grows)", (n, n)),
                  ("CSC", "spmv CSC, square (y grows)", (n, n))]
    for layout, label, shape in shapes:
        x = np.random.default_rng(7).random(shape[1])
        coords, values = matrix(shape, mine, np.random.default_rng(1000 + rank))
        A, read_extra = from_entries(layout, coords, values, shape)
        del coords, values
        measure(label, spmv[layout], {"A": A, "x": x}, x.nbytes, read_extra)
        del A
    # MTTKRP on a CSF3 tensor
    shape = (max(1, total // 40), 20000, 20000)
    coords, values = tensor(shape, mine, rng)
    B, read_extra = from_entries("CSF3", coords, values, shape)
    del coords, values
    factors = [np.random.default_rng(20 + m).random((s, R)) for m, s in enumerate(shape)]
    measure("mttkrp mode 0 (split mode: M distributed)", mode0, {"B": B, "C": factors[1], "D": factors[2]},
            factors[1].nbytes + factors[2].nbytes, read_extra)
    measure("mttkrp mode 1 (M Allreduce)", mode1, {"B": B, "C": factors[0], "D": factors[2]},
            factors[0].nbytes + factors[2].nbytes, read_extra)
    if rank == 0:
        print(json.dumps(results), flush=True)


def file_worker(options, comm) -> None:
    """Peak memory of one parallel read (``--read KIND LAYOUT``) of the files in ``--folder``."""
    import spf.distributed as dist
    from mpi4py import MPI
    kind, layout = options.read
    folder = Path(options.folder)
    read = dist.read_mtx if kind == "mtx" else dist.read_tns
    read(folder / f"small.{kind}", layout=layout)  # warm-up: the layout's compiled assembly
    start = time.perf_counter()
    with Phase() as phase:
        tensor = read(folder / f"big.{kind}", layout=layout)
    seconds = comm.allreduce(time.perf_counter() - start, op=MPI.MAX)
    block = _block_bytes(tensor)
    rows = comm.gather({"rank": comm.rank, "extra": phase.extra, "block": block, "entries": tensor.local_nnz()},
                       root=0)
    if comm.rank == 0:
        print(json.dumps({"kind": kind, "layout": layout, "ranks": comm.size, "nnz": sum(r["entries"] for r in rows),
                          "seconds": seconds, "per_rank": rows}), flush=True)


def write_files(folder: Path, nnz: int) -> None:
    """big.mtx (a uniform random matrix, 10 nonzeros per row) and big.tns (shape nnz/40 x 20000 x
    20000, 40 entries per slice, no duplicates) of ``nnz`` entries, and small ones for warm-ups."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(5)
    for name, count in (("big", nnz), ("small", 1000)):
        if (folder / f"{name}.tns").exists() and (folder / f"{name}.mtx").exists():
            continue
        rows = max(1, count // 10)
        with open(folder / f"{name}.mtx", "w") as handle:
            handle.write(f"%%MatrixMarket matrix coordinate real general\n{rows} {rows} {count}\n")
            for start in range(0, count, 1_000_000):
                m = min(1_000_000, count - start)
                np.savetxt(handle, np.column_stack([rng.integers(1, rows + 1, m), rng.integers(1, rows + 1, m),
                                                    rng.random(m)]), fmt="%d %d %.6f")
        with open(folder / f"{name}.tns", "w") as handle:
            for start in range(0, count, 1_000_000):
                m = min(1_000_000, count - start)
                i = np.arange(start, start + m) // 40 + 1
                j, k = rng.integers(1, 20001, m), rng.integers(1, 20001, m)
                order = np.lexsort((k, j, i))
                i, j, k = i[order], j[order], k[order]
                keep = np.ones(m, dtype=bool)
                keep[1:] = (np.diff(i) != 0) | (np.diff(j) != 0) | (np.diff(k) != 0)
                np.savetxt(handle, np.column_stack([i[keep], j[keep], k[keep], rng.random(m)[keep]]),
                           fmt="%d %d %d %.6f")


def _launch(mpiexec: str, P: int, arguments: list[str]) -> str:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = [mpiexec, "-n", str(P), "--oversubscribe", "--bind-to", "core" if P <= os.cpu_count() else "none",
               sys.executable, __file__, "--worker", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"mpiexec -n {P} failed:\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


def driver(options) -> None:
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which("mpiexec")
    if mpiexec is None:
        sys.exit("mpiexec not found: pip install -e '.[mpi]'")
    text = files_driver(options, mpiexec) if options.files else scaling_driver(options, mpiexec)
    print(text)
    if options.out:
        Path(options.out).write_text(text + "\n")


def scaling_driver(options, mpiexec: str) -> str:
    launched = []  # one row per kernel, rank count and launch
    for scaling in options.scaling:
        for launch in range(options.launches):  # rank counts interleaved: 1, 2, 1, 2, ...
            for P in options.ranks:
                line = _launch(mpiexec, P, ["--nnz", str(options.nnz), "--repeats", str(options.repeats)] +
                               (["--weak"] if scaling == "weak" else []) +
                               (["--band", str(options.band)] if options.band else []))
                for row in json.loads(line):
                    launched.append(dict(row, scaling=scaling, launch=launch))
    rows = _over_launches(launched)
    matrix = f"columns within {options.band} of the row" if options.band else "uniform random columns"
    lines = [f"spf.distributed, {os.cpu_count()} cores, 1 thread per rank, medians of {options.repeats} calls "
             f"(the slowest rank's time per call), then the median over {options.launches} launch(es) of each rank "
             f"count, interleaved; SpMV's matrix: {matrix}", "",
             f"{'scaling':7} {'kernel':42} {'ranks':>5} {'nnz':>10} {'call ms':>9} {'C only ms':>9} "
             f"{'spd|eff':>7} {'model B/call':>12} {'counted':>10} {'ratio':>5} {'read peak':>9} {'run peak':>8}"]
    for row in rows:
        base = next(r for r in rows if _same_run(r, row) and r["ranks"] == options.ranks[0])
        ratio = base["call"] / row["call"]  # strong: the speedup; weak: the efficiency (1 is perfect)
        agreement = f"{row['counted_bytes'] / row['model_bytes']:.2f}" if row["model_bytes"] else \
            ("1.00" if row["counted_bytes"] == 0 else "inf")
        lines.append(f"{row['scaling']:7} {row['kernel']:42} {row['ranks']:>5} {row['nnz']:>10} "
                     f"{row['call'] * 1e3:>9.2f} {row['kernel_only'] * 1e3:>9.2f} {ratio:>7.2f} "
                     f"{row['model_bytes']:>12} {row['counted_bytes']:>10} {agreement:>5} "
                     f"{row['read_peak']:>9.2f} {row['run_peak']:>8.2f}")
    if options.launches > 1:
        lines += ["", "spd|eff of each launch (its own first rank count's time over this one's):"]
        for row in rows:
            if row["ranks"] != options.ranks[0]:
                each = [base["call"] / mine["call"] for base, mine in zip(
                    (r for r in launched if _same_run(r, row) and r["ranks"] == options.ranks[0]),
                    (r for r in launched if _same_run(r, row) and r["ranks"] == row["ranks"]))]
                lines.append(f"  {row['scaling']:7} {row['kernel']:42} {row['ranks']:>5}  "
                             + " ".join(f"{value:.2f}" for value in each))
    lines += ["", "spd|eff: the first rank count's time over this one's (strong scaling: --nnz in all; weak "
              "scaling: --nnz per rank, where the same ratio is the efficiency, acceptance >= 0.85).",
              "model B/call: the bytes the largest rank sends per call by Plan.bytes_per_call (ring Allreduce "
              "2(P-1)/P * 8n) plus status_bytes_per_call (the status flag); counted: the bytes it handed MPI in "
              "one call (dist.counting: the buffers given to each collective, counted as the model's algorithm "
              "sends them; what MPI's own algorithm sends is not seen); ratio: counted / model "
              "(acceptance: within 10%).",
              "read peak, run peak: the largest rank's " + MEMORY]
    return "\n".join(lines)


def _same_run(a: dict, b: dict) -> bool:
    return a["kernel"] == b["kernel"] and a["scaling"] == b["scaling"]


def _over_launches(launched: list[dict]) -> list[dict]:
    """One row per kernel and rank count: the median over launches of the times, the
    largest of the bytes and peaks (launches differ in how fast a kernel runs, which
    launch-to-launch memory placement changes, not in what they send)."""
    rows = []
    for row in launched:
        if row["launch"] != 0:
            continue
        alike = [r for r in launched if _same_run(r, row) and r["ranks"] == row["ranks"]]
        merged = dict(row)
        for key in ("call", "kernel_only"):
            merged[key] = statistics.median(r[key] for r in alike)
        for key in ("model_bytes", "counted_bytes", "read_peak", "run_peak"):
            merged[key] = max(r[key] for r in alike)
        rows.append(merged)
    return rows


def files_driver(options, mpiexec: str) -> str:
    folder = Path(options.folder)
    write_files(folder, options.nnz)
    lines = [f"spf.distributed: peak memory of parallel reads, {os.cpu_count()} cores, files in {folder} "
             f"({options.nnz} entries)", "",
             f"{'read':22} {'ranks':>5} {'nnz':>10} {'seconds':>8}  per rank: peak MB / block MB = ratio"]
    for kind, layout in (("mtx", "CSR"), ("mtx", "CSC"), ("tns", "CSF3"), ("tns", "COO3")):
        for P in options.ranks:
            row = json.loads(_launch(mpiexec, P, ["--files", "--read", kind, layout, "--folder", str(folder)]))
            ranks = "  ".join(f"{r['extra'] / 1e6:.0f}/{r['block'] / 1e6:.0f} = {r['extra'] / r['block']:.2f}"
                              for r in row["per_rank"])
            lines.append(f"{'read_' + kind + ' ' + layout:22} {P:>5} {row['nnz']:>10} {row['seconds']:>8.1f}  {ranks}")
    lines += ["", "peak: a rank's resident memory at its highest during the read (VmHWM, reset through "
              "/proc/self/clear_refs just before it) minus its resident memory just before it (VmRSS, after a "
              "warm-up read of a small file in the same layout, so that the interpreter, numpy, mpi4py, spf and "
              "the layout's compiled assembly are in it, and freed heap pages handed back); block: the bytes of "
              "the arrays of the block the rank keeps. Acceptance: at most 1.5."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nnz", type=float, default=40e6)
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--launches", type=int, default=1,
                        help="launch each rank count this many times, interleaved, and take the median")
    parser.add_argument("--scaling", nargs="+", choices=["strong", "weak"], default=["strong"])
    parser.add_argument("--weak", action="store_true", help="also weak scaling (--nnz per rank): --scaling strong weak")
    parser.add_argument("--band", type=int, default=0,
                        help="SpMV's matrix with its columns within this distance of the row (default: uniform)")
    parser.add_argument("--files", action="store_true", help="the peak memory of reading .mtx and .tns files")
    parser.add_argument("--folder", default="/tmp/spf-distributed-bench", help="where --files writes its files")
    parser.add_argument("--read", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", help="also write the table to this file")
    options = parser.parse_args()
    options.nnz = int(options.nnz)
    if options.weak and "weak" not in options.scaling:
        options.scaling = [*options.scaling, "weak"]
    (worker if options.worker else driver)(options)


if __name__ == "__main__":
    main()
