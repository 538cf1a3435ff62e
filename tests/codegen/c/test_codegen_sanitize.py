"""Generated kernels under AddressSanitizer and UndefinedBehaviorSanitizer.

Several kernels (SpMV in seven layouts, SpMSpV with each find, the dot product of a
decreasing and an unsorted vector, SpMSpM, SDDMM, TTM, MTTKRP) are compiled with
``SANITIZE_FLAGS`` and run on real matrices and tensors and on empty ones, in a
subprocess that preloads the sanitizer runtimes (``sanitizer_environment``).  The run
must end with no report and every result must agree with scipy / numpy.  A negative
control (a kernel given an index out of bounds) shows that the harness does report.

The sanitized libraries go to a temporary SPF_CACHE_DIR, never the user's cache.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import spf
from conftest import MATRICES, TENSORS, data_available
from spf.codegen.toolchain.compiler import SANITIZE_FLAGS, sanitizer_environment

# Small real data: a square unsymmetric, a rectangular and a symmetric matrix; two
# 3-way tensors.  (Sanitized kernels run a few times slower; these keep the run short.)
REAL_MATRICES = ["west0479", "lp_e226", "494_bus"]
REAL_TENSORS = ["nations", "umls"]
REAL_TENSORS4 = ["jf17k-arity3"]

SCRIPT = textwrap.dedent('''
    """Run sanitized kernels on the data named in the JSON file argv[1]; print OK at the end."""
    import json
    import sys

    import numpy as np
    import scipy.io
    import scipy.sparse as sp

    import spf
    import spf.runtime.assemble
    import spf.runtime.short_call
    from spf.codegen.toolchain.compiler import SANITIZE_FLAGS
    from spf.runtime.kernel import callable_kernel

    spf.runtime.assemble.FLAGS = list(SANITIZE_FLAGS)  # packing's builders and conversions run sanitized too
    spf.runtime.short_call.FLAGS = list(SANITIZE_FLAGS)  # and the C call path
    config = json.load(open(sys.argv[1]))
    runs = 0
    kernels = {}


    def compiled(expression, layouts, **options):
        key = (expression, tuple(sorted(layouts.items())), repr(sorted(options.items())))
        if key not in kernels:
            k = callable_kernel(expression, layouts, flags=list(SANITIZE_FLAGS), **options)
            assert k.flags == list(SANITIZE_FLAGS), k.flags
            kernels[key] = k
        return kernels[key]


    def results(k, **inputs):
        """The kernel's result, and each variant's when find="auto" compiled several."""
        if k is None:
            return [inputs["converted"]]
        out = [k(**inputs)]
        functions = getattr(k, "_functions", None) or []
        if len(functions) > 1 and hasattr(k, "bind"):
            for function in functions:
                bound = k.bind(**inputs)
                bound.function = function
                out.append(bound())
        return out


    def check(what, k, expected, **inputs):
        global runs
        expected = np.asarray(expected, dtype=float)
        for result in results(k, **inputs):
            if isinstance(result, spf.Tensor):
                result = result.to_dense()
            result = np.asarray(result, dtype=float)
            scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
            if result.shape != expected.shape or not np.allclose(result, expected, rtol=1e-10, atol=1e-10 * scale):
                raise AssertionError(f"{what}: wrong result")
            runs += 1


    def thin(matrix):
        """At most two entries per row in each aligned group of four columns (WARP24)."""
        coo = sp.coo_matrix(matrix)
        coo.sum_duplicates()
        group = coo.row.astype(np.int64) * max((coo.shape[1] + 3) // 4, 1) + coo.col // 4
        starts = np.ones(len(group), dtype=bool)
        starts[1:] = group[1:] != group[:-1]
        first = np.maximum.accumulate(np.where(starts, np.arange(len(group)), 0)) if len(group) else group
        keep = np.arange(len(group)) - first < 2
        return sp.csr_matrix((coo.data[keep], (coo.row[keep], coo.col[keep])), shape=coo.shape)


    def sparse_vector(n, count, rng):
        indices = np.sort(rng.choice(n, size=min(count, n), replace=False))
        return indices.reshape(-1, 1), rng.uniform(-1, 1, len(indices)), (n,)


    def dense(vector):
        coords, values, shape = vector
        out = np.zeros(shape)
        out[tuple(coords.T)] = values
        return out


    SPMV = "y(i) = A(i,j) * x(j)"
    matrices = {name: sp.csr_matrix(scipy.io.mmread(path)) for name, path in config["matrices"].items()}
    matrices["empty 5x7"] = sp.csr_matrix((5, 7))
    matrices["empty 0x3"] = sp.csr_matrix((0, 3))
    matrices["one entry 1x1"] = sp.csr_matrix(np.array([[2.0]]))
    rng = np.random.default_rng(0)

    for name, matrix in matrices.items():
        rows, cols = matrix.shape
        x = rng.uniform(-1, 1, cols)
        for layout in ["CSR", "DCSR", "COO", "BCSR(R=4,C=4)", "DIA", "ELL", "WARP24", "CSC", "DCSC",
                       "COO_UNSORTED", "BCSR(R=2,C=3)", "LOWER_TRI", "Dense"]:
            if layout == "LOWER_TRI" and rows != cols:
                continue
            data = thin(matrix) if layout == "WARP24" else sp.tril(matrix).tocsr() if layout == "LOWER_TRI" else matrix
            k = compiled(SPMV, {"A": layout, "x": "Dense", "y": "Dense"})
            check(f"SpMV {layout} {name}", k, data @ x, A=data, x=x)
        for density in (0.01, 0.1, 1.0):
            v = sparse_vector(cols, max(1, round(density * cols)), rng)
            for find in ["seqiter", "binary", "hashmap", "bitmap", "auto"]:
                k = compiled(SPMV, {"A": "CSR", "x": "SV", "y": "Dense"}, find=find)
                check(f"SpMSpV {find} {name}", k, matrix @ dense(v), A=matrix, x=v)
            for order in [None, ["px", "j", "pAj", "pAi", "i", "py0"]]:  # driven by A's columns / x's entries
                k = compiled(SPMV, {"A": "CSC", "x": "SV", "y": "Dense"}, order=order)
                check(f"SpMSpV CSC order={order} {name}", k, matrix @ dense(v), A=matrix, x=v)
        transposed = sp.csr_matrix(matrix.T)
        pairs = [(a, b) for a in ("COO", "CSR", "DCSR") for b in ("COO", "CSR", "DCSR")] + \
            [("BCSR(R=2,C=2)", "BCSR(R=2,C=2)"), ("BCSR(R=4,C=4)", "COO")]
        for a, b in pairs:
            k = compiled("C(i,j) = A(i,k) * B(k,j)", {"A": a, "B": b, "C": "Dense"})
            check(f"SpMSpM {a} x {b} {name}", k, (matrix @ transposed).toarray(), A=matrix, B=transposed)
        C, D = rng.uniform(-1, 1, (rows, 4)), rng.uniform(-1, 1, (4, cols))
        k = compiled("A(i,j) = B(i,j) * C(i,k) * D(k,j)", {"A": "CSR", "B": "CSR", "C": "Dense", "D": "Dense"},
                     share={"A": "B"})
        check(f"SDDMM {name}", k, matrix.multiply(C @ D).toarray(), B=matrix, C=C, D=D)
        # assembled outputs: products, sums, transposes, conversions
        for output in ["CSR", "DCSR", "COO", "CSC", "BCSR(R=2,C=2)"]:
            k = compiled("C(i,j) = A(i,k) * B(j,k)", {"A": "CSR", "B": "CSR", "C": output})
            check(f"SpGEMM A*A^T into {output} {name}", k, (matrix @ matrix.T).toarray(), A=matrix, B=matrix)
        k = compiled("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, parallel=True)
        check(f"SpGEMM Gustavson parallel {name}", k, (matrix @ transposed).toarray(), A=matrix, B=transposed)
        other = sp.csr_matrix(matrix.multiply(rng.uniform(size=matrix.shape) < 0.7)) + sp.random(
            rows, cols, density=0.01, format="csr", random_state=1)
        k = compiled("C(i,j) = A(i,j) - B(i,j)", {"A": "CSR", "B": "CSC", "C": "CSR"})
        check(f"A - B {name}", k, (matrix - other).toarray(), A=matrix, B=other)
        # rows handed over (serial and unsorted), a sum's fused nests, rows out of order
        for output in ["CSR", "CSR_UNSORTED"]:
            k = compiled("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": output})
            check(f"SpGEMM rows into {output} {name}", k, (matrix @ transposed).toarray(), A=matrix, B=transposed)
        for parallel in (False, True):  # two terms merged by j (spf.codegen.assembly.merge), appended without a workspace
            k = compiled("C(i,j) = A(i,j) + B(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, parallel=parallel)
            check(f"A + B merged {name} parallel={parallel}", k, (matrix + other).toarray(), A=matrix, B=other)
        k = compiled("C(i,j) = A(i,j) + B(i,j) - 2 * D(i,j)", {"A": "CSR", "B": "CSR", "C": "CSR", "D": "CSR"})
        check(f"A + B - 2D fused {name}", k, (matrix + other - 2 * matrix).toarray(), A=matrix, B=other, D=matrix)
        k = compiled("C(i,j) = A(i,k) * B(k,j)", {"A": "COO_UNSORTED", "B": "CSR", "C": "CSR"})
        check(f"SpGEMM from COO_UNSORTED {name}", k, (matrix @ transposed).toarray(), A=matrix, B=transposed)
        doubled = sp.coo_matrix((np.concatenate([matrix.tocoo().data, -matrix.tocoo().data[::2]]),
                                 (np.concatenate([matrix.tocoo().row, matrix.tocoo().row[::2]]),
                                  np.concatenate([matrix.tocoo().col, matrix.tocoo().col[::2]]))), shape=matrix.shape)
        for layout in ["CSR", "CSC"]:  # duplicates summed in the rows' counting sort
            check(f"pack COO with duplicates into {layout} {name}", None, doubled.toarray(),
                  converted=spf.pack(layout, doubled))
        k = compiled("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})
        check(f"transpose {name}", k, matrix.T.toarray(), A=matrix)
        packed = spf.pack("COO", matrix)
        for layout in ["CSR", "CSC", "DCSC", "BCSR(R=4,C=4)", "DIA"]:
            check(f"convert COO to {layout} {name}", None, matrix.toarray(), converted=spf.convert(packed, layout))

    for n, count_b, count_c in [(0, 0, 0), (1, 1, 1), (10, 0, 4), (200, 30, 60), (1000, 500, 500)]:
        b, c = sparse_vector(n, count_b, rng), sparse_vector(n, count_c, rng)
        c = (c[0][::-1].copy(), c[1][::-1].copy(), c[2])  # unsorted
        for find in ["auto", "hashmap", "bitmap", "linear"]:
            k = compiled("a = b(i) * c(i)", {"b": "SV_DEC", "c": "SV_UNSORTED"}, find=find)
            check(f"dot SV_DEC x SV_UNSORTED {find} n={n}", k, dense(b) @ dense(c), b=b, c=c)
        for find in ["auto", "seqiter", "binary", "hashmap", "bitmap", "linear"]:
            k = compiled("a = b(i) * c(i)", {"b": "SV", "c": "SV"}, find=find)
            check(f"dot SV x SV {find} n={n}", k, dense(b) @ dense(c), b=b, c=c)
        a = sparse_vector(n, n // 2, rng)
        k = compiled("v = A(i) * B(i) * C(i)", {"A": "SV", "B": "SV_DEC", "C": "SV_UNSORTED"})
        check(f"3-way dot n={n}", k, np.sum(dense(a) * dense(b) * dense(c)), A=a, B=b, C=c)

    tensors = {name: spf.read_tns(path) for name, path in config["tensors"].items()}
    tensors["empty 3x4x5"] = (np.zeros((0, 3), dtype=np.int64), np.zeros(0), (3, 4, 5))
    tensors["one entry 1x1x1"] = (np.zeros((1, 3), dtype=np.int64), np.ones(1), (1, 1, 1))
    for name, data in tensors.items():
        coords, values, shape = data
        B = np.zeros(shape)
        np.add.at(B, tuple(coords.T), values)
        C = rng.uniform(-1, 1, (8, shape[2]))
        k = compiled("A(i,j,k) = B(i,j,l) * C(k,l)", {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"},
                     share={"A": "B"})
        check(f"TTM {name}", k, np.einsum("ijl,kl->ijk", B, C), B=data, C=C)
        k = compiled("A(i,j,k) = B(i,j,l) * C(k,l)", {"A": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"})
        check(f"TTM assembled {name}", k, np.einsum("ijl,kl->ijk", B, C), B=data, C=C)
        k = compiled("A(k,i,j) = B(i,j,k)", {"A": "CSF3", "B": "CSF3"})
        check(f"mode permutation {name}", k, B.transpose(2, 0, 1), B=data)
        C, D = rng.uniform(-1, 1, (shape[1], 8)), rng.uniform(-1, 1, (shape[2], 8))
        k = compiled("A(i,j) = B(i,k,l) * C(k,j) * D(l,j)", {"A": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"})
        check(f"MTTKRP {name}", k, np.einsum("ikl,kj,lj->ij", B, C, D), B=data, C=C, D=D)

    tensors = {name: spf.read_tns(path) for name, path in config["tensors4"].items()}
    tensors["empty 2x3x4x5"] = (np.zeros((0, 4), dtype=np.int64), np.zeros(0), (2, 3, 4, 5))
    tensors["random 4x5x6x7"] = (np.stack(np.unravel_index(rng.choice(840, 50, replace=False), (4, 5, 6, 7)),
                                          axis=1), rng.uniform(-1, 1, 50), (4, 5, 6, 7))
    for name, (coords, values, shape) in tensors.items():
        factors = [rng.uniform(-1, 1, (extent, 8)) for extent in shape[1:]]
        expected = np.zeros((shape[0], 8))
        np.add.at(expected, coords[:, 0], values[:, None] * factors[0][coords[:, 1]] * factors[1][coords[:, 2]]
                  * factors[2][coords[:, 3]])
        k = compiled("A(i,j) = B(i,k,l,m) * C(k,j) * D(l,j) * E(m,j)",
                     {"A": "Dense", "B": "CSF4", "C": "Dense", "D": "Dense", "E": "Dense"})
        check(f"MTTKRP4 {name}", k, expected, B=(coords, values, shape), C=factors[0], D=factors[1], E=factors[2])

    print(f"OK {len(kernels)} kernels, {runs} runs")
''')

# An SpMV kernel given a CSR tensor whose last column index is one past the end of x:
# AddressSanitizer must report the read.  spf.Tensor(...) refuses such fields, so the
# control builds the Tensor through the private constructor that skips the checks.
CONTROL = textwrap.dedent('''
    import numpy as np
    import spf
    from spf.codegen.toolchain.compiler import SANITIZE_FLAGS
    from spf.runtime.kernel import callable_kernel

    k = callable_kernel("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, flags=list(SANITIZE_FLAGS))
    n = 5000
    A = spf.Tensor._from_checked(spf.load_layout("CSR"), (2, n), {"numRows": 2, "numCols": n, "nnz": 2,
                   "rowPtr": np.array([0, 1, 2], dtype=np.int32), "colIdx": np.array([0, n], dtype=np.int32),
                   "data": np.ones(2)}, "A")
    x = spf.pack("Dense1", np.ones(n), "x")
    print(k(A=A, x=x))
''')


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory):
    """The environment of a sanitized subprocess, with its own kernel cache."""
    try:
        environment = sanitizer_environment()
    except spf.SpfError as error:
        pytest.skip(f"no sanitizer runtime (libasan/libubsan) for the C compiler: {error}")
    environment["SPF_CACHE_DIR"] = str(tmp_path_factory.mktemp("spf-sanitized-cache"))
    environment.pop("PYTHONHASHSEED", None)
    return environment


def run_script(environment, directory: Path, source: str, *arguments) -> subprocess.CompletedProcess:
    script = directory / "script.py"
    script.write_text(source)
    return subprocess.run([sys.executable, str(script), *arguments], env=environment, capture_output=True,
                          text=True, cwd=directory, timeout=600)


def assert_no_report(result: subprocess.CompletedProcess) -> None:
    tail = result.stderr[-4000:]
    assert "AddressSanitizer" not in result.stderr, tail
    assert "runtime error" not in result.stderr, tail
    assert "LeakSanitizer" not in result.stderr, tail
    assert result.returncode == 0, tail


def test_sanitized_kernels_on_real_data(sanitized, tmp_path):
    if not data_available():
        pytest.skip(f"real data not found at {MATRICES.parent} (set SPF_DATA or place ../shared/data beside "
                    "the repository)")
    matrices = {name: str(MATRICES / f"{name}.mtx") for name in REAL_MATRICES if (MATRICES / f"{name}.mtx").exists()}
    tensors = {name: str(TENSORS / f"{name}.tns") for name in REAL_TENSORS if (TENSORS / f"{name}.tns").exists()}
    if not matrices or not tensors:
        pytest.skip(f"none of {REAL_MATRICES} / {REAL_TENSORS} in {MATRICES.parent}")
    config = tmp_path / "data.json"
    tensors4 = {name: str(TENSORS / f"{name}.tns") for name in REAL_TENSORS4 if (TENSORS / f"{name}.tns").exists()}
    config.write_text(json.dumps({"matrices": matrices, "tensors": tensors, "tensors4": tensors4}))
    result = run_script(sanitized, tmp_path, SCRIPT, str(config))
    assert_no_report(result)
    lines = result.stdout.strip().splitlines()
    assert lines and lines[-1].startswith("OK "), result.stdout[-2000:] + result.stderr[-2000:]
    kernels, runs = (int(word) for word in lines[-1].split()[1::2])
    assert kernels >= 30 and runs > 300, lines[-1]
    # the kernels really were built with the sanitizers
    libraries = list(Path(sanitized["SPF_CACHE_DIR"]).glob("*.so"))
    assert len(libraries) >= kernels
    assert all(b"__asan_report" in library.read_bytes() for library in libraries)
    assert all(b"__ubsan_handle" in library.read_bytes() for library in libraries)


def test_sanitizer_reports_an_out_of_bounds_kernel_read(sanitized, tmp_path):
    """The negative control: the same harness does report a real error in a kernel."""
    result = run_script(sanitized, tmp_path, CONTROL)
    assert result.returncode != 0
    assert "AddressSanitizer" in result.stderr and "heap-buffer-overflow" in result.stderr, result.stderr[-3000:]
    assert SANITIZE_FLAGS  # the flags the kernels were compiled with
