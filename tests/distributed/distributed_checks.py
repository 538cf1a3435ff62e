"""Checks of spf.distributed that run under mpiexec (tests/distributed/test_distributed.py launches
this once per rank count): every distributed result against the same kernel run on the
whole data in one process, on random data and on every matrix and tensor of the real
data's manifest, and the errors of bad input on every rank.

Rank 0 prints one JSON object per check (``{"check", "ok", "detail"}``) and a last line
``{"done": true, ...}``; the ranks build identical dense operands from fixed seeds.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import numpy as np
import scipy.io
import scipy.sparse as sp

import spf
import spf.distributed as dist
from spf.runtime.user_data import coordinates_of

import spf.distributed.sending

spf.distributed.sending.PIECE_ENTRIES = 16  # small data too is sent and packed in several rounds
COMM = dist.world()
RANK = COMM.rank
R = 8  # the rank (columns) of dense factors

KERNELS = {
    "spmv-CSR": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"}, None),
    "spmv-CSC": ("y(i) = A(i,j) * x(j)", {"A": "CSC", "x": "Dense", "y": "Dense"}, None),
    "spmv-DCSR": ("y(i) = A(i,j) * x(j)", {"A": "DCSR", "x": "Dense", "y": "Dense"}, None),
    "spmv-COO": ("y(i) = A(i,j) * x(j)", {"A": "COO", "x": "Dense", "y": "Dense"}, None),
    "spmv-BCSR": ("y(i) = A(i,j) * x(j)", {"A": "BCSR(R=2, C=2)", "x": "Dense", "y": "Dense"}, None),
    "spmspv-CSR": ("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "SV", "y": "Dense"}, None),
    "spmspv-CSC": ("y(i) = A(i,j) * x(j)", {"A": "CSC", "x": "SV", "y": "Dense"}, None),
    "spmm": ("Y(i,r) = A(i,j) * X(j,r)", {"A": "CSR", "X": "Dense", "Y": "Dense"}, None),
    "sddmm": ("S(i,j) = A(i,j) * C(i,r) * D(r,j)", {"S": "CSR", "A": "CSR", "C": "Dense", "D": "Dense"},
              {"S": "A"}),
    "spgemm": ("C(i,j) = A(i,k) * B(k,j)", {"A": "CSR", "B": "CSR", "C": "CSR"}, None),
    "mttkrp3-0": ("M(i,r) = B(i,j,k) * C(j,r) * D(k,r)", {"M": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"},
                  None),
    "mttkrp3-1": ("M(j,r) = B(i,j,k) * C(i,r) * D(k,r)", {"M": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"},
                  None),
    "mttkrp3-2": ("M(k,r) = B(i,j,k) * C(i,r) * D(j,r)", {"M": "Dense", "B": "CSF3", "C": "Dense", "D": "Dense"},
                  None),
    "mttkrp3-0-COO3": ("M(i,r) = B(i,j,k) * C(j,r) * D(k,r)",
                       {"M": "Dense", "B": "COO3", "C": "Dense", "D": "Dense"}, None),
    "mttkrp4-0": ("M(i,r) = B(i,j,k,l) * C(j,r) * D(k,r) * E(l,r)",
                  {"M": "Dense", "B": "CSF4", "C": "Dense", "D": "Dense", "E": "Dense"}, None),
    "mttkrp4-1": ("M(j,r) = B(i,j,k,l) * C(i,r) * D(k,r) * E(l,r)",
                  {"M": "Dense", "B": "CSF4", "C": "Dense", "D": "Dense", "E": "Dense"}, None),
    "mttkrp4-2": ("M(k,r) = B(i,j,k,l) * C(i,r) * D(j,r) * E(l,r)",
                  {"M": "Dense", "B": "CSF4", "C": "Dense", "D": "Dense", "E": "Dense"}, None),
    "mttkrp4-3": ("M(l,r) = B(i,j,k,l) * C(i,r) * D(j,r) * E(k,r)",
                  {"M": "Dense", "B": "CSF4", "C": "Dense", "D": "Dense", "E": "Dense"}, None),
    "ttm3": ("T(i,j,r) = B(i,j,k) * C(k,r)", {"T": "CSF3_DENSE_LAST", "B": "CSF3", "C": "Dense"}, None),
    "ttm3-dense-0": ("T(j,k,r) = B(i,j,k) * C(i,r)", {"T": "Dense", "B": "CSF3", "C": "Dense"}, None),
    "dot": ("s = y(i) * w(i)", {"y": "Dense", "w": "Dense"}, None),
}


def compile_all() -> dict:
    """Rank 0 compiles (filling the kernel cache), then the others load from it."""
    kernels = {}
    for turn in (0, 1):
        if (RANK == 0) == (turn == 0):
            for name, (expression, layouts, share) in KERNELS.items():
                kernels[name] = spf.compile(expression, layouts, share=share, parallel=name.startswith("mttkrp"))
        COMM.Barrier()
    return kernels


KERNEL = compile_all()
results: list[dict] = []


def report(check: str, ok: bool, detail: str = "") -> None:
    if RANK == 0:
        results.append({"check": check, "ok": bool(ok), "detail": detail})
        print(json.dumps(results[-1]), flush=True)


def dense(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def sparse_vector(seed: int, n: int) -> spf.Tensor:
    rng = np.random.default_rng(seed)
    picked = np.flatnonzero(rng.random(n) < 0.2)
    return spf.pack("SV", (picked.reshape(-1, 1), rng.standard_normal(len(picked)), (n,)))


def same(got, want, exact: bool) -> tuple[bool, str]:
    """Whether a gathered result equals the single-process one: bit for bit where the
    split does not reorder any sum (a distributed output), else to 1e-12 of the scale."""
    if isinstance(want, spf.Tensor) and got.layout == want.layout and got.shape == want.shape:
        # one layout, one stored form: the index arrays must be equal, the values as below
        index_arrays = [f.name for f in want.layout.index_arrays]
        differ = [n for n in index_arrays if not np.array_equal(got.fields[n], want.fields[n])]
        if differ:
            return False, f"index arrays {differ} differ"
        got, want = got.values, want.values
    elif isinstance(want, spf.Tensor):
        (gc, gv, gs), (wc, wv, ws) = got.to_coo(), want.to_coo()
        if gs != ws or gc.shape != wc.shape or not np.array_equal(gc, wc):
            return False, f"pattern differs: {gc.shape} entries of shape {gs} against {wc.shape} of {ws}"
        got, want = gv, wv
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if got.shape != want.shape:
        return False, f"shape {got.shape} against {want.shape}"
    if exact:
        error = float(np.max(np.abs(got - want), initial=0.0))
        return bool(np.array_equal(got, want)), f"max difference {error:.3g} (bitwise expected)"
    scale = float(np.max(np.abs(want), initial=0.0)) or 1.0
    error = float(np.max(np.abs(got - want), initial=0.0))
    return error <= 1e-12 * scale * max(1, want.size) ** 0.5 + 1e-300, f"max difference {error:.3g}, scale {scale:.3g}"


def check(name: str, kernel: str, reference_operands, distributed_operands, reduce: str = "all") -> None:
    """``kernel`` over distributed operands (gathered on rank 0) against the kernel on whole ones."""
    try:
        result = dist.run(KERNEL[kernel], reduce=reduce, **distributed_operands)
        exact = isinstance(result, dist.DistributedTensor) and reduce == "all"
        got = result.gather(root=0) if isinstance(result, dist.DistributedTensor) else result
        if RANK == 0:
            want = KERNEL[kernel](**reference_operands())
            ok, detail = same(got, want, exact)
            report(name, ok, detail)
    except Exception as error:  # recorded, not fatal: the other checks go on
        report(name, False, f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=4)}")


SEMIRINGS = ("min_plus", "max_times", "times_plus", "lor_land", "land_second", "any_first", "absmax_times")


def define_user_monoids() -> None:
    """absmax (with numpy=: its partial outputs combine in numpy) and larger (without), on every rank."""
    spf.monoid("absmax", "fabs(a) > fabs(b) || (fabs(a) == fabs(b) && a > b) ? a : b", identity=0.0,
               numpy=lambda a, b: np.where((abs(a) > abs(b)) | ((abs(a) == abs(b)) & (a > b)), a, b))
    spf.monoid("larger", "a > b ? a : b", identity=-np.inf)


def semiring_checks() -> None:
    """Partial outputs combine by the kernel's ⊕, not by +: SpMV with A in CSC split by
    columns (a partial y per rank) and its scalar reduction, under semirings of every monoid,
    through MPI_Allreduce, MPI_Reduce_scatter and the row sum of a banded matrix."""
    n = 400
    random = sp.random(60, 60, density=0.15, format="csc", random_state=8)
    band = sp.diags([np.arange(1.0, n + 1), np.arange(1.0, n), np.arange(1.0, n)], [0, 1, -1], format="csc")
    for ring in SEMIRINGS:
        spmv = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSC", "x": "Dense", "y": "Dense"}, semiring=ring)
        total = spf.compile("s = A(i,j) * x(j)", {"A": "CSC", "x": "Dense"}, semiring=ring)
        for label, M in (("random", random), ("banded", band)):
            x = np.arange(M.shape[1], dtype=float) - 7  # negative, zero and positive values
            if ring.startswith("times"):  # terms near 1: a product of hundreds neither overflows nor vanishes
                M = M.copy()
                M.data = 1 + M.data / (1000 * M.data.max())
                x = x / (1000 * M.shape[1])
            A = dist.distribute("CSC", M, name="A")
            path = "row sum" if dist.plan(spmv, A=A, x=x).row_sum is not None else "Allreduce"
            for reduce in ("all", "scatter"):
                try:
                    got = dist.run(spmv, A=A, x=x, reduce=reduce)
                    got = got.gather(root=None) if isinstance(got, dist.DistributedTensor) else got
                    scalar = dist.run(total, A=A, x=x)
                    want, want_scalar = spmv(A=M, x=x), total(A=M, x=x)
                    if ring.startswith("any"):  # any keeps one of the values: where they are is what is fixed
                        ok = np.array_equal(got != 0, want != 0) and (scalar != 0) == (want_scalar != 0)
                        detail = "the same entries"
                    else:
                        ok, detail = same(got, want, ring.split("_")[0] in ("min", "max", "lor", "land", "absmax"))
                        ok = ok and bool(np.isclose(scalar, want_scalar, rtol=1e-12))
                        detail += f"; scalar {scalar} against {want_scalar}"
                except Exception as error:
                    ok, detail = False, f"{type(error).__name__}: {error}"
                report(f"{ring} SpMV over CSC split by columns, {label}, reduce={reduce} ({path})", ok, detail)


def mask_checks() -> None:
    """A masked kernel reads its mask in the layout the caller gave: sliced with the rows it
    masks (CSR split by rows), or passed whole (CSC split by columns: the output is summed)."""
    M = sp.random(60, 60, density=0.15, format="csr", random_state=9)
    x = np.arange(60.0) - 7
    visited = np.arange(60) % 3 == 0
    for layout in ("CSR", "CSC"):
        for mask_layout, mask in (("Dense1", visited), ("SV", spf.pack("SV", np.where(visited, 2.0, 0.0)))):
            for complemented in (False, True):
                name = "~m" if complemented else "m"
                layouts = {"A": layout, "x": "Dense", "y": "Dense", "m": mask_layout}
                kernel = spf.compile("y(i) = A(i,j) * x(j)", layouts, mask=name, semiring="min_plus")
                try:
                    got = dist.run(kernel, A=dist.distribute(layout, M, name="A"), x=x, m=mask)
                    got = got.gather(root=None) if isinstance(got, dist.DistributedTensor) else got
                    ok, detail = same(got, kernel(A=M, x=x, m=mask), True)
                except Exception as error:
                    ok, detail = False, f"{type(error).__name__}: {error}"
                report(f"mask={name!r} in {mask_layout}, A in {layout} (min_plus)", ok, detail)


def matrix_checks(label: str, matrix_on_root, distributed: dict, shape) -> None:
    """Every matrix kernel on one matrix; ``distributed[layout]`` is the matrix split in it."""
    rows, cols = shape
    x, X = dense(1, cols), dense(2, cols, R)
    C, D = dense(3, rows, R), dense(4, R, cols)
    xs = sparse_vector(5, cols)
    full = lambda: matrix_on_root  # noqa: E731
    for layout, A in distributed.items():
        check(f"{label} spmv {layout}", f"spmv-{layout}", lambda: {"A": full(), "x": x}, {"A": A, "x": x})
    check(f"{label} spmspv CSR", "spmspv-CSR", lambda: {"A": full(), "x": xs}, {"A": distributed["CSR"], "x": xs})
    check(f"{label} spmspv CSC (x sliced)", "spmspv-CSC", lambda: {"A": full(), "x": xs},
          {"A": distributed["CSC"], "x": xs})
    check(f"{label} spmm", "spmm", lambda: {"A": full(), "X": X}, {"A": distributed["CSR"], "X": X})
    check(f"{label} sddmm", "sddmm", lambda: {"A": full(), "C": C, "D": D}, {"A": distributed["CSR"], "C": C, "D": D})
    B = sp.random(cols, 4 * R, density=3 / (4 * R), format="csr", random_state=6)  # replicated, 3 per row
    check(f"{label} spgemm (assembled CSR rows)", "spgemm", lambda: {"A": full(), "B": B},
          {"A": distributed["CSR"], "B": B})


def tensor_checks(label: str, tensor_on_root, B, shape) -> None:
    order = len(shape)
    factors = [dense(10 + m, shape[m], R) for m in range(order)]
    names = ["C", "D", "E"]
    for mode in range(order):
        others = [m for m in range(order) if m != mode]
        operands = {names[n]: factors[m] for n, m in enumerate(others)}
        check(f"{label} mttkrp mode {mode}", f"mttkrp{order}-{mode}", lambda o=operands: {"B": tensor_on_root(), **o},
              {"B": B, **operands})
        if mode == 1:
            check(f"{label} mttkrp mode 1 (Reduce_scatter)", f"mttkrp{order}-1",
                  lambda o=operands: {"B": tensor_on_root(), **o}, {"B": B, **operands}, reduce="scatter")
    if order == 3:
        C = dense(20, shape[2], R)
        check(f"{label} ttm mode 2 (sparse output)", "ttm3", lambda: {"B": tensor_on_root(), "C": C}, {"B": B, "C": C})
        if shape[1] * shape[2] * R <= 2_000_000:
            C0 = dense(21, shape[0], R)
            check(f"{label} ttm mode 0 (dense, reduced)", "ttm3-dense-0", lambda: {"B": tensor_on_root(), "C": C0},
                  {"B": B, "C": C0})


def random_checks() -> None:
    rng = np.random.default_rng(7)
    for label, (rows, cols, density) in {"random 37x23": (37, 23, 0.15), "random 3x5 (fewer rows than ranks)":
                                         (3, 5, 0.5), "random 40x30 empty": (40, 30, 0.0),
                                         "random 64x48 (even, BCSR)": (64, 48, 0.1)}.items():
        M = sp.random(rows, cols, density=density, format="csr", random_state=rng)
        M.data[:] = np.round(M.data * 8) - 4  # explicit zeros among the entries
        layouts = ["CSR", "CSC", "DCSR", "COO"] + (["BCSR"] if rows % 2 == 0 and cols % 2 == 0 else [])
        distributed = {layout: dist.distribute(KERNELS[f"spmv-{layout}"][1]["A"], M, name="A",
                                               root=None if n % 2 else 0) for n, layout in enumerate(layouts)}
        matrix_checks(label, M, distributed, M.shape)
    for label, shape in {"random 30x20x10": (30, 20, 10), "random 2x9x7 (fewer slices than ranks)": (2, 9, 7)}.items():
        n = int(np.prod(shape) * 0.1)
        flat = rng.choice(int(np.prod(shape)), size=n, replace=False)
        coords = np.stack(np.unravel_index(flat, shape), axis=1)
        data = (coords, rng.standard_normal(n), shape)
        tensor_checks(label, lambda d=data: spf.pack("CSF3", d), dist.distribute("CSF3", data, name="B"), shape)
        M = dense(30, shape[1], R), dense(31, shape[2], R)
        check(f"{label} mttkrp mode 0 COO3", "mttkrp3-0-COO3", lambda d=data: {"B": spf.pack("COO3", d), "C": M[0],
              "D": M[1]}, {"B": dist.distribute("COO3", data, name="B", root=0), "C": M[0], "D": M[1]})
    shape4 = (6, 5, 4, 3)
    flat = rng.choice(int(np.prod(shape4)), size=80, replace=False)
    data4 = (np.stack(np.unravel_index(flat, shape4), axis=1), rng.standard_normal(80), shape4)
    tensor_checks("random 6x5x4x3", lambda: spf.pack("CSF4", data4), dist.distribute("CSF4", data4, name="B"), shape4)
    # a distributed dense result fed to the next kernel: the dot product of y with itself
    M = sp.random(50, 50, density=0.1, format="csr", random_state=rng)
    x = dense(40, 50)
    y = dist.run(KERNEL["spmv-CSR"], A=dist.distribute("CSR", M, name="A"), x=x)
    s = dist.run(KERNEL["dot"], y=y, w=y)
    want = float((M @ x) @ (M @ x))
    for layout in ("CSR", "CSC"):  # dist.bind: packed once, called twice (the reduced output's buffer reused)
        bound = dist.bind(KERNEL[f"spmv-{layout}"], A=dist.distribute(layout, M, name="A"), x=x)
        first = bound()
        first = np.array(first.gather(root=None) if isinstance(first, dist.DistributedTensor) else first)
        second = bound()
        second = second.gather(root=None) if isinstance(second, dist.DistributedTensor) else second
        report(f"dist.bind spmv {layout}, two calls", np.allclose(first, M @ x, rtol=1e-13) and
               np.array_equal(first, second), "")
    the_plan = dist.plan(KERNEL["spmv-CSC"], A=dist.distribute("CSC", M, name="A"), x=x)
    P = COMM.size
    model = (2 * (P - 1), round(2 * (P - 1) / P * 8 * 50)) if P > 1 else (0, 0)
    report("explain: a reduced SpMV output's bytes per call", the_plan.bytes_per_call() == model and
           "MPI_Allreduce" in the_plan.explain(), f"{the_plan.bytes_per_call()} against {model}")
    counted_checks(rng)
    support_checks(rng)
    wave_checks(rng)
    if BAD_TNS is not None:
        reading_checks(rng, BAD_TNS.parent)
    report("chained: y = A x distributed, then s = y.y (scalar Allreduce)", abs(s - want) <= 1e-12 * abs(want),
           f"{s} against {want}")


def reading_checks(rng, folder: Path) -> None:
    """dist.read_tns, dist.read_mtx (general and symmetric, with comments and duplicates)
    and dist.from_entries, gathered, against packing the whole data in one process."""
    shape = (41, 17, 13)
    flat = rng.choice(int(np.prod(shape)), size=900, replace=False)
    coords = np.stack(np.unravel_index(flat, shape), axis=1)
    values = np.round(rng.standard_normal(900), 6)
    tns, mtx, sym = folder / "random.tns", folder / "random.mtx", folder / "symmetric.mtx"
    M = sp.random(60, 45, density=0.2, format="coo", random_state=rng)
    S = sp.random(50, 50, density=0.1, format="coo", random_state=rng)
    S = sp.tril(S + S.T).tocoo()
    if RANK == 0:
        tns.write_text("# a comment\n" + "".join(f"{i + 1} {j + 1} {k + 1} {float(v)!r}\n" for (i, j, k), v in
                                                zip(coords, values)))
        lines = [f"{i + 1} {j + 1} {float(v)!r}" for i, j, v in zip(M.row, M.col, M.data)]
        lines.insert(len(lines) // 2, "% a comment between entries")
        lines.append(f"{M.row[0] + 1} {M.col[0] + 1} 1.5")  # a duplicate: summed, as scipy does
        mtx.write_text(f"%%MatrixMarket matrix coordinate real general\n% c\n60 45 {M.nnz + 1}\n" + "\n".join(lines))
        sym.write_text(f"%%MatrixMarket matrix coordinate real symmetric\n50 50 {S.nnz}\n" +
                       "".join(f"{i + 1} {j + 1} {float(v)!r}\n" for i, j, v in zip(S.row, S.col, S.data)))
    COMM.Barrier()
    for layout in ("CSF3", "COO3"):
        got = dist.read_tns(tns, layout=layout, name="B").gather(root=0)
        if RANK == 0:
            want = spf.pack(layout, (coords, values, shape))
            report(f"read_tns {layout} in rounds", *same(got, want, exact=True))
        got = dist.from_entries(layout, coords[RANK::COMM.size], values[RANK::COMM.size], shape,
                                name="B").gather(root=0)
        if RANK == 0:
            report(f"from_entries {layout} in rounds", *same(got, spf.pack(layout, (coords, values, shape)), True))
    with_duplicate = sp.coo_array((np.append(M.data, 1.5), (np.append(M.row, M.row[0]), np.append(M.col, M.col[0]))),
                                  shape=M.shape).tocsr()  # (scipy's mmread refuses comments between entries)
    for path, whole in ((mtx, with_duplicate), (sym, (S + sp.tril(S, -1).T).tocsr())):
        for layout in ("CSR", "CSC", "DCSR", "BCSR(R=2, C=2)", "ELL"):
            got = dist.read_mtx(path, layout=layout, name="A").gather(root=0)
            if RANK == 0:
                report(f"read_mtx {path.stem} {layout} in rounds", *same(got, spf.pack(layout, whole), exact=True))


def counted_checks(rng) -> None:
    """The bytes each rank hands MPI per dist.bind call, counted (dist.counting), equal the
    model (Plan.bytes_per_call, status_bytes_per_call); extents divisible by 1, 2 and 4
    ranks, so the ring's blocks are equal."""
    M = sp.random(48, 48, density=0.1, format="csr", random_state=rng)
    shape = (12, 20, 8)
    flat = rng.choice(int(np.prod(shape)), size=300, replace=False)
    B = dist.distribute("CSF3", (np.stack(np.unravel_index(flat, shape), axis=1), rng.standard_normal(300), shape),
                        name="B")
    runs = {"spmv CSC (Allreduce)": ("spmv-CSC", {"A": dist.distribute("CSC", M, name="A"), "x": dense(41, 48)}, "all"),
            "spmv CSR (distributed output)": ("spmv-CSR", {"A": dist.distribute("CSR", M, name="A"),
                                                           "x": dense(41, 48)}, "all"),
            "mttkrp mode 1 (Allreduce)": ("mttkrp3-1", {"B": B, "C": dense(42, 12, R), "D": dense(43, 8, R)}, "all"),
            "mttkrp mode 1 (Reduce_scatter)": ("mttkrp3-1", {"B": B, "C": dense(42, 12, R), "D": dense(43, 8, R)},
                                               "scatter")}
    for label, (kernel, operands, reduce) in runs.items():
        bound = dist.bind(KERNEL[kernel], reduce=reduce, **operands)
        with dist.counting() as traffic:
            bound()
            bound()
        model = tuple(2 * v for v in bound.plan.bytes_per_call())
        status = tuple(2 * v for v in bound.plan.status_bytes_per_call())
        counted = (traffic.messages.get("result", 0), traffic.sent.get("result", 0))
        counted_status = (traffic.messages.get("status", 0), traffic.sent.get("status", 0))
        ok = counted == model and counted_status == status and set(traffic.sent) <= {"result", "status"}
        if COMM.size > 1 and "distributed" not in label:
            ok = ok and model[1] > 0
        every = COMM.gather(ok, root=0)
        report(f"bytes counted per call equal the model: {label}", RANK != 0 or all(every),
               f"rank {RANK}: counted {counted} + status {counted_status}, model {model} + {status}, {traffic}")


def support_checks(rng) -> None:
    """Summed outputs whose rows each rank's block reaches only in part
    (spf.distributed.support): a banded matrix split by columns (CSC), summed whole and
    scattered; MTTKRP mode 1 on a tensor whose j stays near its i; a matrix of one entry
    (every rank but one reaches no row); a uniform random matrix, whose blocks reach every
    row, summed as a large output is (Rabenseifner's Allreduce).  Each equals the
    single-process kernel, is summed over the reached rows when there are several ranks,
    and hands MPI the bytes its model says."""
    n, P = 96, COMM.size
    rows = np.repeat(np.arange(n), 5)
    M = sp.csr_matrix((rng.standard_normal(rows.size), (rows, np.clip(rows + rng.integers(-3, 4, rows.size), 0, n - 1))),
                      shape=(n, n))
    single = sp.csr_matrix(([2.5], ([40], [70])), shape=(n, n))
    x = dense(50, n)
    coords = np.stack([np.repeat(np.arange(40), 6), np.repeat(np.arange(40), 6) // 2 + rng.integers(0, 3, 240),
                       rng.integers(0, 8, 240)], axis=1)
    coords = np.unique(coords, axis=0)
    tensor = (coords, rng.standard_normal(len(coords)), (40, 24, 8))
    factors = {"C": dense(51, 40, R), "D": dense(52, 8, R)}
    cases = {
        "banded CSC spmv": ("spmv-CSC", lambda: {"A": M, "x": x}, lambda: {"A": dist.distribute("CSC", M, name="A"),
                                                                            "x": x}, "all"),
        "banded CSC spmv (scattered)": ("spmv-CSC", lambda: {"A": M, "x": x},
                                        lambda: {"A": dist.distribute("CSC", M, name="A"), "x": x}, "scatter"),
        "one-entry CSC spmv": ("spmv-CSC", lambda: {"A": single, "x": x},
                               lambda: {"A": dist.distribute("CSC", single, name="A"), "x": x}, "all"),
        "banded mttkrp mode 1": ("mttkrp3-1", lambda: {"B": spf.pack("CSF3", tensor), **factors},
                                 lambda: {"B": dist.distribute("CSF3", tensor, name="B"), **factors}, "all"),
    }
    uniform = sp.random(n, n, density=0.1, format="csr", random_state=rng)
    cases["every row reached, summed as a large output is (Rabenseifner)"] = (
        "spmv-CSC", lambda: {"A": uniform, "x": x}, lambda: {"A": dist.distribute("CSC", uniform, name="A"), "x": x},
        "all")
    from spf.distributed import support
    saved = support.LARGE
    for label, (kernel, whole, split, reduce) in cases.items():
        support.LARGE = 0 if "large" in label else saved  # the plan then takes every output for large
        try:
            check(f"rows reached: {label}", kernel, whole, split(), reduce=reduce)
            bound = dist.bind(KERNEL[kernel], reduce=reduce, **split())
        finally:
            support.LARGE = saved
        with dist.counting() as traffic:
            bound()
        counted = (traffic.messages.get("result", 0), traffic.sent.get("result", 0))
        status = (traffic.messages.get("status", 0), traffic.sent.get("status", 0))
        chosen = bound.plan.row_sum is not None
        ok = counted == bound.plan.bytes_per_call() and status == bound.plan.status_bytes_per_call() and \
            chosen == (P > 1) and \
            (P == 1 or "reach" in bound.plan.explain())
        every = COMM.gather(ok, root=0)
        report(f"rows reached: {label}: summed by rows reached, bytes as modelled", RANK != 0 or all(every),
               f"rank {RANK}: row sum {chosen}, counted {counted}, model {bound.plan.bytes_per_call()}")


def wave_checks(rng) -> None:
    """Buffers beyond MPI's int counts move in waves (spf.distributed.collective): with the
    limit lowered to a few elements, distributing, exchanging and gathering (sparse blocks,
    and a dense output to every rank and to one) give what one MPI call gives."""
    from spf.distributed import collective
    M = sp.random(45, 38, density=0.2, format="csr", random_state=rng)
    x = dense(44, 38)
    plain = {layout: dist.distribute(layout, M, name="A") for layout in ("CSR", "CSC")}
    y_plain = dist.run(KERNEL["spmv-CSR"], A=plain["CSR"], x=x).gather(root=None)
    n = 60  # a banded matrix in CSC: its sum over the rows reached moves in waves too
    band_rows = np.repeat(np.arange(n), 4)
    banded = sp.csr_matrix((rng.standard_normal(band_rows.size),
                            (band_rows, np.clip(band_rows + rng.integers(-2, 3, band_rows.size), 0, n - 1))),
                           shape=(n, n))
    xb = dense(45, n)
    by_rows = {reduce: dist.run(KERNEL["spmv-CSC"], A=dist.distribute("CSC", banded, name="A"), x=xb,
                                reduce=reduce) for reduce in ("all", "scatter")}
    saved = collective.INT_COUNT, collective.WAVE_ELEMENTS
    collective.INT_COUNT, collective.WAVE_ELEMENTS = 7, 5
    try:
        waved = {layout: dist.distribute(layout, M, name="A", root=None if layout == "CSR" else 0)
                 for layout in ("CSR", "CSC")}
        y_everywhere = dist.run(KERNEL["spmv-CSR"], A=waved["CSR"], x=x).gather(root=None)
        y_root = dist.run(KERNEL["spmv-CSR"], A=waved["CSR"], x=x).gather(root=0)
        gathered = {layout: (waved[layout].gather(root=0), waved[layout].gather(root=None)) for layout in waved}
        by_rows_waved = {reduce: dist.run(KERNEL["spmv-CSC"], A=dist.distribute("CSC", banded, name="A"), x=xb,
                                          reduce=reduce) for reduce in ("all", "scatter")}
    finally:
        collective.INT_COUNT, collective.WAVE_ELEMENTS = saved
    for layout in ("CSR", "CSC"):
        want = plain[layout].gather(root=None)
        to_root, everywhere = gathered[layout]
        ok, detail = same(everywhere, want, exact=True)
        if RANK == 0:
            ok_root, detail_root = same(to_root, want, exact=True)
            ok, detail = ok and ok_root, detail + detail_root
        every = COMM.gather(ok, root=0)
        report(f"distribute and gather {layout} in waves beyond the int count", RANK != 0 or all(every), detail)
    ok = np.array_equal(y_everywhere, y_plain) and (RANK != 0 or np.array_equal(y_root, y_plain))
    every = COMM.gather(bool(ok), root=0)
    report("a dense output gathered in waves beyond the int count", RANK != 0 or all(every), "")
    ok = np.array_equal(by_rows["all"], by_rows_waved["all"]) and \
        np.array_equal(by_rows["scatter"].local, by_rows_waved["scatter"].local)
    every = COMM.gather(bool(ok), root=0)
    report("a sum over the rows reached, in waves beyond the int count", RANK != 0 or all(every), "")


def expect_error(label: str, action, kind=spf.SpfError, words: str = "") -> None:
    """``action`` must raise ``kind`` on every rank (none may hang or pass)."""
    try:
        action()
        outcome = "no error"
    except kind as error:
        outcome = "ok" if words in str(error) else f"message without {words!r}: {error}"
    except Exception as error:
        outcome = f"{type(error).__name__}: {error}"
    outcomes = COMM.gather(outcome, root=0)
    if RANK == 0:
        bad = [(r, o) for r, o in enumerate(outcomes) if o != "ok"]
        report(f"error: {label}", not bad, "; ".join(f"rank {r}: {o}" for r, o in bad) or "raised on every rank")


def error_checks() -> None:
    M = sp.random(20, 20, density=0.2, format="csr", random_state=3)
    A = dist.distribute("CSR", M, name="A")
    x = np.ones(20)
    expect_error("a CSR block given to a CSC kernel", lambda: dist.run(KERNEL["spmv-CSC"], A=A, x=x),
                 dist.DistributionError, "distribute it in CSC")
    expect_error("DIA has no outer level that is a range of one mode", lambda: dist.distribute("DIA", M),
                 dist.DistributionError, "outer storage level")
    expect_error("COO_UNSORTED neither", lambda: dist.distribute("COO_UNSORTED", M), dist.DistributionError,
                 "outer storage level")
    if COMM.size > 1:  # (with one rank nothing can differ)
        expect_error("a replicated operand whose shape differs between ranks",
                     lambda: dist.run(KERNEL["spmm"], A=A, X=np.ones((20, 3 + RANK))), spf.SpfError,
                     "differs between ranks")
        expect_error("operands whose value types make ranks compute in different types",
                     lambda: dist.run(KERNEL["spmv-CSR"], A=A, x=np.ones(20, dtype=np.complex128 if RANK else float)),
                     spf.SpfError, "value type it computes in differs between ranks")
        expect_error("data that differs between ranks", lambda: dist.distribute("CSR", M * (1 + RANK)),
                     spf.SpfError, "differs between ranks")
    expect_error("an operand whose extent disagrees with the split one",
                 lambda: dist.run(KERNEL["sddmm"], A=A, C=np.ones((21, R)), D=np.ones((R, 20))),
                 dist.DistributionError, "extent 20")
    Acsc = dist.distribute("CSC", M, name="A")
    larger = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSC", "x": "Dense", "y": "Dense"}, semiring="larger_times")
    expect_error("a user's monoid without numpy= summing partial outputs", lambda: dist.run(larger, A=Acsc, x=x),
                 dist.DistributionError, "numpy=")
    spgemm = spf.compile("C(i,j) = A(i,k) * B(k,j)", {"A": "CSC", "B": "CSR", "C": "CSR"})
    expect_error("a sparse output summed across ranks", lambda: dist.run(spgemm, A=Acsc, B=M),
                 dist.DistributionError, "sparse")
    plus = spf.compile("y(i) = A(i,j) * x(j) + z(i)", {"A": "CSC", "x": "Dense", "z": "Dense", "y": "Dense"})
    expect_error("a term without the split index under a sum", lambda: dist.run(plus, A=Acsc, x=x, z=x),
                 dist.DistributionError, "once per rank")
    expect_error("a kernel that fails on one rank only",
                 lambda: dist.run(KERNEL["spmv-CSR"], A=A,
                                  x=np.ones(20) if RANK else np.ones(20, dtype=np.clongdouble)),  # complex256
                 spf.SpfError, "")
    expect_error("a file that is no Matrix Market file", lambda: dist.read_mtx(BAD_TNS), spf.SpfError,
                 "not a Matrix Market file")
    expect_error("a malformed .tns line", lambda: dist.read_tns(BAD_TNS), spf.SpfError, ":3:")


BAD_TNS = Path(sys.argv[2]) / "bad.tns" if len(sys.argv) > 2 else None


def manifest(data: Path) -> list[tuple[str, str]]:
    lines = (data / "MANIFEST.tsv").read_text().splitlines()[1:]
    return [(line.split("\t")[0], line.split("\t")[1]) for line in lines if line.strip()]


def real_checks(data: Path) -> None:
    for file, kind in manifest(data):
        path = data / file
        label = path.stem
        if kind == "matrix":
            whole = scipy.io.mmread(path).tocsr() if RANK == 0 else None
            shape = COMM.bcast(whole.shape if RANK == 0 else None, root=0)
            rows = dist.read_mtx(path, layout="CSR", name="A")
            counts = COMM.gather(rows.local_nnz(), root=0)
            if RANK == 0:  # balanced by nonzeros: no block exceeds its share by more than one row
                longest = int(np.diff(whole.indptr).max(initial=0))
                report(f"{label} blocks balanced by nonzeros", sum(counts) == whole.nnz and
                       max(counts) <= whole.nnz / COMM.size + longest, f"{counts}, longest row {longest}")
            distributed = {"CSR": rows, "CSC": dist.read_mtx(path, layout="CSC", name="A"),
                           "DCSR": rows.convert("DCSR"), "COO": rows.convert("COO")}
            matrix_checks(label, whole, distributed, shape)
        else:
            order = 4 if kind == "tensor4d" else 3
            layout = "CSF4" if order == 4 else "CSF3"
            B = dist.read_tns(path, layout=layout, name="B")
            whole = spf.pack(layout, spf.read_tns(path)) if RANK == 0 else None
            tensor_checks(label, lambda w=whole: w, B, B.shape)
            if RANK == 0:
                report(f"{label} read_tns block sizes", whole.shape == B.shape, f"{B.shape}")


if __name__ == "__main__":
    if BAD_TNS is not None and RANK == 0:
        BAD_TNS.write_text("1 1 1 1.0\n2 2 2 2.0\n3 x 3 3.0\n")
    COMM.Barrier()
    random_checks()
    define_user_monoids()
    semiring_checks()
    mask_checks()
    error_checks()
    data = Path(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else None
    if data is not None and (data / "MANIFEST.tsv").is_file():
        real_checks(data)
        files = len(manifest(data))
    else:
        files = 0
    if RANK == 0:
        print(json.dumps({"done": True, "ranks": COMM.size, "checks": len(results), "files": files}), flush=True)
