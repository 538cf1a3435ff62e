"""MTTKRP on CSF3 tensors at R = 16 and 32, against the loop TACO emits.

Run: python benchmarks/mttkrp.py [--tensors fb13,...] [--ranks 16,32] [--rounds 9] [--output FILE]

``A(i,r) = B(i,j,k) * C(j,r) * D(k,r)`` with B in CSF3 (a real order-3 tensor of
../shared/data) and A, C, D dense.  Per tensor and rank, bound calls at 1 thread,
interleaved rounds of ~10 ms blocks per system, medians; both write into the same
output array (spf's), so that its pages (huge or not) are the same for both:

* **spf**: ``spf.compile`` with its default schedule;
* **TACO-shaped**: benchmarks/references/mttkrp.c, TACO's loop for this statement (B's
  levels, the dense r loop innermost, 32-bit indices and positions);
* **general copy**: the same kernel compiled without its copies for R = 16, 32, 64
  (spf.codegen.passes.specialize): the alternative to the choice spf makes by R.

The column TACO/spf is the acceptance's ratio (>= 1.0 on every tensor); "regret" is spf's
time over the faster of spf and its general copy (1.00: the specialisation never lost).  Every result is
checked against numpy.  The header has the load average at start and end and a triad's
bandwidth from the same run.
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import time
from pathlib import Path

import numpy as np

import spf
from common import geometric_mean, interleaved_blocks, load_line, triad_line
from spf.codegen.toolchain.compiler import build_shared_library, load_function
from spf.runtime.kernel import callable_kernel
from ttv import DATA, HERE, order3_tensors, pointer

EXPRESSION = "A(i,r) = B(i,j,k) * C(j,r) * D(k,r)"
LAYOUTS = {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"}
BLOCK_SECONDS = 0.01


class Reference:
    """benchmarks/references/mttkrp.c, compiled with spf's flags."""

    def __init__(self) -> None:
        library = build_shared_library((HERE / "references" / "mttkrp.c").read_text(), name="mttkrp_reference")
        int_p, double_p = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_double)
        i32 = ctypes.c_int32
        self.function = load_function(library, "mttkrp_taco",
                                      [i32, i32, i32] + [int_p] * 5 + [double_p, i32, double_p, i32, double_p,
                                                                         double_p], None)

    def call(self, B: spf.Tensor, C: np.ndarray, D: np.ndarray, A: np.ndarray):
        f = {name: np.ascontiguousarray(B.fields[name], dtype=np.int32)
             for name in ("idx0", "ptr0", "idx1", "ptr1", "idx2")}
        values = np.ascontiguousarray(B.fields["val"], dtype=np.float64)
        int_p, double_p = ctypes.c_int32, ctypes.c_double
        arguments = (A.shape[0], A.shape[1], int(B.fields["nnz0"]),
                     *(pointer(f[n], int_p) for n in ("idx0", "ptr0", "idx1", "ptr1", "idx2")),
                     pointer(values, double_p), C.shape[1], pointer(C, double_p), D.shape[1],
                     pointer(D, double_p), pointer(A, double_p))
        keep = (f, values, C, D, A)

        def call(keep=keep):
            self.function(*arguments)
        return call


def expected(coords: np.ndarray, values: np.ndarray, shape, C: np.ndarray, D: np.ndarray) -> np.ndarray:
    A = np.zeros((shape[0], C.shape[1]))
    np.add.at(A, coords[:, 0], values[:, None] * C[coords[:, 1]] * D[coords[:, 2]])
    return A


def check(label: str, result: np.ndarray, truth: np.ndarray) -> None:
    if not np.allclose(result, truth, rtol=1e-10, atol=1e-12):
        raise AssertionError(f"{label} differs from numpy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tensors", default="")
    parser.add_argument("--ranks", default="16,32")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--output", default=str(HERE / "results" / "mttkrp.txt"))
    arguments = parser.parse_args()
    data = Path(arguments.data)
    if not data.is_dir():
        sys.exit(f"no data folder {data}: the benchmark reads real tensors (set --data or SPF_DATA)")
    names = [n for n in arguments.tensors.split(",") if n] or order3_tensors(data)
    ranks = [int(r) for r in arguments.ranks.split(",")]
    reference = Reference()
    kernel = spf.compile(EXPRESSION, LAYOUTS)
    general = callable_kernel(EXPRESSION, LAYOUTS, specialize=False).build()
    lines = [f"# python benchmarks/mttkrp.py {' '.join(sys.argv[1:])}",
             f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load_line('at start')}; 1 thread; "
             f"times in ms (medians of {arguments.rounds} interleaved rounds)",
             f"# {triad_line()}",
             f"   {'tensor':<17} {'nnz':>8} {'R':>3}  {'spf':>8} {'TACO-shaped':>11}  TACO/spf  {'general':>8}  regret"]
    print("\n".join(lines), flush=True)
    ratios: dict[int, list[float]] = {rank: [] for rank in ranks}
    regrets: dict[int, list[float]] = {rank: [] for rank in ranks}
    for name in names:
        coords, values, shape = spf.read_tns(data / "tensors" / f"{name}.tns")
        B = spf.pack("CSF3", (coords, values, shape))
        for rank in ranks:
            rng = np.random.default_rng(rank)
            C, D = rng.random((shape[1], rank)), rng.random((shape[2], rank))
            truth = expected(coords, values, shape, C, D)
            spf_call = kernel.bind(B=B, C=C, D=D)
            A = spf_call()  # the reference writes into spf's output: the same memory for both
            check(f"{name} R={rank} spf", A, truth)
            A[:] = np.nan
            taco_call = reference.call(B, C, D, A)
            taco_call()
            check(f"{name} R={rank} TACO-shaped", A, truth)
            general_call = general.bind(B=B, C=C, D=D)
            check(f"{name} R={rank} general copy", general_call(), truth)
            times = interleaved_blocks({"spf": spf_call, "taco": taco_call, "general": general_call},
                                       arguments.rounds, BLOCK_SECONDS)
            ratio = times["taco"] / times["spf"]
            ratios[rank].append(ratio)
            regrets[rank].append(times["spf"] / min(times["spf"], times["general"]))
            line = (f"   {name:<17} {len(values):>8} {rank:>3}  {times['spf'] * 1e3:8.3f} "
                    f"{times['taco'] * 1e3:11.3f}  {ratio:8.2f}  {times['general'] * 1e3:8.3f}  {regrets[rank][-1]:6.2f}")
            lines.append(line)
            print(line, flush=True)
    for rank in ranks:
        lines.append(f"   R={rank}: geomean TACO-shaped / spf {geometric_mean(ratios[rank]):.2f} "
                     f"(min {min(ratios[rank]):.2f}); specialisation's regret geomean "
                     f"{geometric_mean(regrets[rank]):.2f} (worst {max(regrets[rank]):.2f})")
    lines.append(f"# {load_line('at end')}")
    print("\n".join(lines[-len(ranks) - 1:]))
    Path(arguments.output).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
