"""SpMV at 1 thread on the real matrices with at least 100k nonzeros: spf against the best
of scipy, GraphBLAS and MKL, and the split register sums against one chain.

Run: python benchmarks/spmv.py [--least-nonzeros 100000] [--rounds 9] [--output FILE] [--data DIR]

``y(i) = A(i,j) * x(j)``, A in CSR (sorted), x dense.  Per matrix, interleaved rounds of
~10 ms blocks of calls per system (GraphBLAS's wheel ships its own OpenMP runtime: blocks,
not single alternating calls), medians:

* **spf**: the kernel as spf compiles it (rows of at least 16 entries summed in 4
  registers, spf.codegen.passes.split_sum), through a bound call;
* **one chain**: the same kernel compiled with the split turned off (every row one chain
  of additions, what spf emitted before): the alternative of the decision, for its regret;
* **scipy** ``A @ x``; **GraphBLAS** ``A.mxv(x)`` (one thread, A in CSR);
  **MKL** ``sparse_dot_mkl.dot_product_mkl(A, x)`` where sparse_dot_mkl installs (one thread);
* **TACO-shaped**: TACO's loop (benchmarks/suite.py's ``spmv_reference``, 32-bit indices), at 1 thread.

Columns give best-of-peers / spf (the acceptance: >= 1.0 on every matrix) and the regret of
the split (spf / the faster of spf and one chain).  Every result is checked against scipy.
The header has the load average at start and end and a triad's bandwidth from the same run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sparse

import spf
import spf.codegen.passes.split_sum as split_sum
import spf.codegen.pipeline as pipeline
from common import geometric_mean, interleaved_blocks, load_line, manifest_names, serial_graphblas, triad_line
from suite import References

HERE = Path(__file__).parent
DATA = Path(os.environ.get("SPF_DATA", HERE.parent.parent / "shared" / "data"))
EXPRESSION = "y(i) = A(i,j) * x(j)"
LAYOUTS = {"y": "Dense", "A": "CSR", "x": "Dense"}
BLOCK_SECONDS = 0.01


def one_chain_kernel():
    """The SpMV kernel compiled with no split register sums, outside the kernel cache (its
    key does not see the pass's setting)."""
    lanes, lookup, store = split_sum.SPLIT_LANES, pipeline.lookup, pipeline.store
    split_sum.SPLIT_LANES, pipeline.lookup, pipeline.store = 1, (lambda key: None), (lambda key, kernel: None)
    try:
        kernel = spf.compile(EXPRESSION, LAYOUTS)
    finally:
        split_sum.SPLIT_LANES, pipeline.lookup, pipeline.store = lanes, lookup, store
    assert "spf_split" not in kernel.c_source
    return kernel


def mkl_product():
    """sparse_dot_mkl's product at one thread, or None when it does not install here
    (``pip install sparse_dot_mkl mkl``)."""
    if "MKL_RT" not in os.environ:  # the mkl wheel puts libmkl_rt.so.N in the environment's lib/
        found = sorted(Path(sys.prefix, "lib").glob("libmkl_rt.so*"))
        if found:
            os.environ["MKL_RT"] = str(found[-1])
    try:
        import sparse_dot_mkl
        sparse_dot_mkl.mkl_set_num_threads(1)
        return sparse_dot_mkl.dot_product_mkl
    except Exception as error:  # not installed, or no MKL runtime it can load
        print(f"# MKL column skipped: sparse_dot_mkl unavailable ({type(error).__name__}: {error})")
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--least-nonzeros", type=int, default=100_000)
    parser.add_argument("--matrices", default="")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--output", default=str(HERE / "results" / "spmv.txt"))
    arguments = parser.parse_args()
    data = Path(arguments.data)
    if not data.is_dir():
        sys.exit(f"no data folder {data}: the benchmark reads real matrices (set --data or SPF_DATA)")
    names = [n for n in arguments.matrices.split(",") if n] or manifest_names(data, "matrix", arguments.least_nonzeros)
    gb = serial_graphblas()
    references = References()
    references.omp.verify(1)
    # bind the reference's OpenMP calls to libgomp before MKL brings its own runtime (libiomp5
    # also defines GOMP_*: a first call after it loads could bind to it, at its default threads)
    tiny = sparse.identity(4, format="csr")
    references.spmv_call(tiny, np.ones(4), np.zeros(4))()
    mkl = mkl_product()
    references.omp.verify(1)
    kernel, chain = spf.compile(EXPRESSION, LAYOUTS), one_chain_kernel()
    assert "spf_split" in kernel.c_source
    lines = [f"# python benchmarks/spmv.py {' '.join(sys.argv[1:])}",
             f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load_line('at start')}; 1 thread; "
             f"times in ms (medians of {arguments.rounds} interleaved rounds of {BLOCK_SECONDS * 1e3:.0f} ms blocks)",
             f"# {triad_line()}",
             f"   {'matrix':<22} {'nnz':>8} {'nnz/row':>7}  {'spf':>7} {'1 chain':>7} {'scipy':>7} {'GrB':>7} "
             f"{'MKL':>7} {'TACO':>7}  best-peer/spf  TACO/spf  regret"]
    print("\n".join(lines), flush=True)
    peer_ratios, taco_ratios, regrets = [], [], []
    for name in names:
        matrix = sparse.csr_matrix(scipy.io.mmread(data / "matrices" / f"{name}.mtx"), dtype=np.float64)
        matrix.sum_duplicates()
        matrix.sort_indices()
        x = np.random.default_rng(matrix.nnz).random(matrix.shape[1]) + 0.5
        expected = matrix @ x
        A = spf.pack("CSR", matrix)
        calls = {"spf": kernel.bind(A=A, x=x), "chain": chain.bind(A=A, x=x), "scipy": lambda: matrix @ x}
        y = np.zeros(matrix.shape[0])
        calls["taco"] = references.spmv_call(matrix, x, y)
        if gb is not None:
            gA, gx = gb.io.from_scipy_sparse(matrix), gb.Vector.from_dense(x)
            calls["grb"] = lambda: gA.mxv(gx).new()
        if mkl is not None:
            calls["mkl"] = lambda: mkl(matrix, x)
        for label, call in calls.items():
            result = call()
            result = y if label == "taco" else result.to_dense(0.0) if label == "grb" else np.asarray(result)
            if not np.allclose(result, expected, rtol=1e-10, atol=1e-12):
                raise AssertionError(f"{name}: {label} differs from scipy")
        references.omp.verify(1)
        times = interleaved_blocks(calls, arguments.rounds, BLOCK_SECONDS)
        peers = [times[k] for k in ("scipy", "grb", "mkl") if k in times]
        peer, taco = min(peers) / times["spf"], times["taco"] / times["spf"]
        regret = times["spf"] / min(times["spf"], times["chain"])
        peer_ratios.append(peer)
        taco_ratios.append(taco)
        regrets.append(regret)
        cell = lambda key: f"{times[key] * 1e3:7.3f}" if key in times else f"{'-':>7}"  # noqa: E731
        line = (f"   {name:<22} {matrix.nnz:>8} {matrix.nnz / matrix.shape[0]:7.1f}  {cell('spf')} {cell('chain')} "
                f"{cell('scipy')} {cell('grb')} {cell('mkl')} {cell('taco')}  {peer:13.2f}  {taco:8.2f}  {regret:6.2f}")
        lines.append(line)
        print(line, flush=True)
    lines.append(f"   geomean best-peer / spf {geometric_mean(peer_ratios):.2f} (min {min(peer_ratios):.2f}); "
                 f"TACO-shaped / spf {geometric_mean(taco_ratios):.2f} (min {min(taco_ratios):.2f}); "
                 f"regret of the split {geometric_mean(regrets):.2f} (worst {max(regrets):.2f})")
    lines.append(f"# {load_line('at end')}")
    print("\n".join(lines[-2:]))
    Path(arguments.output).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
