"""TTV into DCSR with the output pattern inferred, against TACO's loop and spf's assembly.

Run: python benchmarks/ttv.py [--tensors fb13,nell-995,...] [--rounds 9] [--output FILE] [--data DIR]

``A(i,j) = B(i,j,k) * c(k)`` with B in CSF3 (a real order-3 tensor of ../shared/data) and
A in DCSR, no ``share=``: spf proves A's layout is B's first two levels
(spf.space.patterns) and writes each (i, j) fibre's sum at B's position of it.  Per
tensor, bound calls at 1 thread, interleaved rounds of ~10 ms blocks per system, medians:

* **spf**: the kernel with the pattern inferred (``spf.compile(...)``);
* **assembled**: the same kernel with ``share={}`` (the output assembled generically:
  workspace, stream, builder), what spf did before the inference;
* **TACO-shaped**: benchmarks/references/ttv.c, the loop TACO emits for this pattern:
  B's first two levels copied into A's arrays, then one sum per fibre written at B's
  position (32-bit indices);
* **pattern given**: the same walk without the copy (the least a TTV into B's pattern does).

Columns give TACO-shaped / spf (the acceptance: >= 1.2 in geomean) and assembled / spf.
Then the largest tensor: the serial kernel, and the parallel kernel (``parallel=True``) at
1 and 2 threads (OpenMP's thread count set through libgomp, checked in a parallel region).  Every
result is checked against scipy.  The header has the load average at start and end and a
triad's bandwidth from the same run.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sparse

import spf
from common import block_time, geometric_mean, interleaved_blocks, load_line, manifest_names, triad_line
from parallel import TRIAD_SOURCE, OpenMP
from spf.codegen.toolchain.compiler import build_shared_library, load_function

HERE = Path(__file__).parent
DATA = Path(os.environ.get("SPF_DATA", HERE.parent.parent / "shared" / "data"))
EXPRESSION = "A(i,j) = B(i,j,k) * c(k)"
LAYOUTS = {"A": "DCSR", "B": "CSF3", "c": "Dense"}
BLOCK_SECONDS = 0.01


def order3_tensors(data: Path) -> list[str]:
    """The manifest's order-3 tensors, smallest first."""
    return manifest_names(data, "tensor3d")


def pointer(array: np.ndarray, c_type):
    return array.ctypes.data_as(ctypes.POINTER(c_type))


class Reference:
    """benchmarks/references/ttv.c, compiled with spf's flags."""

    def __init__(self) -> None:
        library = build_shared_library((HERE / "references" / "ttv.c").read_text(), name="ttv_reference")
        int_p, double_p = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_double)
        self.copy_levels = load_function(library, "ttv_copy_levels",
                                         [ctypes.c_int32, ctypes.c_int32] + [int_p] * 5 + [double_p] * 2
                                         + [int_p] * 3 + [double_p], None)
        self.pattern_given = load_function(library, "ttv_pattern_given",
                                           [ctypes.c_int32] + [int_p] * 3 + [double_p] * 3, None)

    def calls(self, B: spf.Tensor, c: np.ndarray):
        """(TACO-shaped call, pattern-given call, A's values each writes)."""
        f = {name: np.ascontiguousarray(B.fields[name], dtype=np.int32)
             for name in ("idx0", "ptr0", "idx1", "ptr1", "idx2")}
        values = np.ascontiguousarray(B.fields["val"], dtype=np.float64)
        nnz0, nnz1 = int(B.fields["nnz0"]), int(B.fields["nnz1"])
        rows, ptr, cols = np.empty(nnz0, np.int32), np.empty(nnz0 + 1, np.int32), np.empty(nnz1, np.int32)
        copied, given = np.empty(nnz1), np.empty(nnz1)
        keep = (f, values, c, rows, ptr, cols)
        int_p, double_p = ctypes.c_int32, ctypes.c_double
        copy_arguments = (nnz0, nnz1, *(pointer(f[n], int_p) for n in ("idx0", "ptr0", "idx1", "ptr1", "idx2")),
                          pointer(values, double_p), pointer(c, double_p), pointer(rows, int_p),
                          pointer(ptr, int_p), pointer(cols, int_p), pointer(copied, double_p))
        given_arguments = (nnz0, pointer(f["ptr0"], int_p), pointer(f["ptr1"], int_p), pointer(f["idx2"], int_p),
                           pointer(values, double_p), pointer(c, double_p), pointer(given, double_p))

        def copy_call(keep=keep):
            self.copy_levels(*copy_arguments)

        def given_call(keep=keep):
            self.pattern_given(*given_arguments)
        return copy_call, given_call, copied, given


def expected(coords: np.ndarray, values: np.ndarray, shape, c: np.ndarray) -> sparse.csr_matrix:
    matrix = sparse.coo_matrix((values * c[coords[:, 2]], (coords[:, 0], coords[:, 1])), shape=shape[:2])
    return matrix.tocsr()


def check(label: str, result: spf.Tensor, reference: sparse.csr_matrix) -> None:
    got = result.to_scipy().tocsr()
    difference = abs(got - reference)
    if difference.nnz and difference.max() > 1e-9 * max(1.0, abs(reference).max()):
        raise AssertionError(f"{label}: wrong TTV result")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tensors", default="")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--output", default=str(HERE / "results" / "ttv.txt"))
    arguments = parser.parse_args()
    data = Path(arguments.data)
    if not data.is_dir():
        sys.exit(f"no data folder {data}: the benchmark reads real tensors (set --data or SPF_DATA)")
    names = [n for n in arguments.tensors.split(",") if n] or order3_tensors(data)
    reference = Reference()
    triad = build_shared_library(TRIAD_SOURCE, name="triad")
    omp = OpenMP(load_function(triad, "threads_in_parallel", [], ctypes.c_int))
    omp.verify(1)
    kernel = spf.compile(EXPRESSION, LAYOUTS)
    assembled = spf.compile(EXPRESSION, LAYOUTS, share={})
    parallel = spf.compile(EXPRESSION, LAYOUTS, parallel=True)
    lines = [f"# python benchmarks/ttv.py {' '.join(sys.argv[1:])}",
             f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load_line('at start')}; 1 thread; "
             f"times in ms (medians of {arguments.rounds} interleaved rounds)",
             f"# {triad_line()}",
             "# spf's pattern: " + kernel.explain().splitlines()[4].strip(),
             f"   {'tensor':<17} {'nnz':>8} {'fibres':>8}  {'spf':>8} {'assembled':>9} {'TACO-shaped':>11} "
             f"{'given':>8}  TACO/spf  assembled/spf"]
    print("\n".join(lines), flush=True)
    taco_ratios, assembled_ratios, largest = [], [], None
    for name in names:
        coords, values, shape = spf.read_tns(data / "tensors" / f"{name}.tns")
        B = spf.pack("CSF3", (coords, values, shape))
        c = np.random.default_rng(len(values)).random(shape[2]) + 0.5
        truth = expected(coords, values, shape, c)
        spf_call = kernel.bind(B=B, c=c)
        assembled_call = assembled.bind(B=B, c=c)
        check(f"{name} spf", spf_call(), truth)
        check(f"{name} assembled", assembled_call(), truth)
        copy_call, given_call, copied, given = reference.calls(B, c)
        copy_call()
        given_call()
        assert np.allclose(copied, spf_call().fields["data"]) and np.allclose(given, copied), name
        times = interleaved_blocks({"spf": spf_call, "assembled": assembled_call, "taco": copy_call,
                                    "given": given_call}, arguments.rounds, BLOCK_SECONDS)
        taco, slower = times["taco"] / times["spf"], times["assembled"] / times["spf"]
        taco_ratios.append(taco)
        assembled_ratios.append(slower)
        line = (f"   {name:<17} {len(values):>8} {int(B.fields['nnz1']):>8}  {times['spf'] * 1e3:8.3f} "
                f"{times['assembled'] * 1e3:9.3f} {times['taco'] * 1e3:11.3f} {times['given'] * 1e3:8.3f}  "
                f"{taco:8.2f}  {slower:13.2f}")
        lines.append(line)
        print(line, flush=True)
        if largest is None or len(values) > largest[0]:
            largest = (len(values), name, B, c, truth)
    lines.append(f"   geomean TACO-shaped / spf {geometric_mean(taco_ratios):.2f} (min {min(taco_ratios):.2f}); "
                 f"assembled / spf {geometric_mean(assembled_ratios):.2f}")
    _, name, B, c, truth = largest
    call, serial = parallel.bind(B=B, c=c), kernel.bind(B=B, c=c)
    for threads in (1, 2):
        omp.verify(threads)
        check(f"{name} parallel {threads}", call(), truth)
    samples: dict[str, list[float]] = {"serial": [], "1": [], "2": []}
    for _ in range(arguments.rounds):
        omp.verify(1)
        samples["serial"].append(block_time(serial, BLOCK_SECONDS))
        for threads in (1, 2):
            omp.verify(threads)
            samples[str(threads)].append(block_time(call, BLOCK_SECONDS))
    alone, one, two = (statistics.median(samples[k]) for k in ("serial", "1", "2"))
    lines.append(f"   {name}: serial kernel {alone * 1e3:.3f} ms; parallel kernel 1 thread {one * 1e3:.3f} ms, "
                 f"2 threads {two * 1e3:.3f} ms: {alone / two:.2f}x the serial kernel, {one / two:.2f}x its own "
                 "1-thread time")
    lines.append(f"# {load_line('at end')}")
    print("\n".join(lines[-3:]))
    Path(arguments.output).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
