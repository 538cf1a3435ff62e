"""spf.distributed: the split of layouts into blocks (in this process), and every
distributed kernel against the single-process one under real ``mpiexec -n 1``, ``-n 2``
and ``-n 4`` (tests/distributed/distributed_checks.py, one launch per rank count running every
check), on random data and on every matrix and tensor of the real data's manifest."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import spf

from conftest import DATA, data_available

HERE = Path(__file__).resolve().parent
MPI_MISSING = importlib.util.find_spec("mpi4py") is None
MPIEXEC = shutil.which("mpiexec", path=str(Path(sys.executable).parent)) or shutil.which("mpiexec")
needs_mpi = pytest.mark.skipif(MPI_MISSING, reason="mpi4py is not installed (pip install -e '.[mpi]')")


def test_import_spf_does_not_import_mpi4py():
    code = "import sys, spf; print('mpi4py' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_without_mpi4py_the_error_says_how_to_install_the_extra():
    code = ("import sys; sys.modules['mpi4py'] = None\n"
            "import spf\n"
            "try:\n    import spf.distributed\nexcept spf.SpfError as error:\n    print('SpfError:', error)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("SpfError:") and "pip install -e '.[mpi]'" in out


@needs_mpi
@pytest.mark.parametrize("layout, mode, granule", [
    ("CSR", 0, 1), ("CSC", 1, 1), ("DCSR", 0, 1), ("DCSC", 1, 1), ("COO", 0, 1), ("COO3", 0, 1),
    ("CSF3", 0, 1), ("CSF4", 0, 1), ("CSF3_DENSE_LAST", 0, 1), ("BCSR(R=3, C=2)", 0, 3), ("ELL", 0, 1),
    ("SV", 0, 1), ("SV_DEC", 0, 1)])
def test_outer_mode_is_read_off_the_layout(layout, mode, granule):
    from spf.distributed import outer_mode
    assert outer_mode(spf.load_layout(layout)) == (mode, granule)


@needs_mpi
@pytest.mark.parametrize("layout", ["DIA", "COO_UNSORTED", "SV_UNSORTED", "Dense2"])
def test_layouts_whose_outer_level_is_no_range_are_refused(layout):
    from spf.distributed import DistributionError, outer_mode
    with pytest.raises(DistributionError, match="outer storage level|dense"):
        outer_mode(spf.load_layout(layout))


@needs_mpi
def test_balanced_bounds_split_nonzeros_evenly_at_granule_multiples():
    from spf.distributed.partition import balanced_bounds, histogram
    rng = np.random.default_rng(0)
    rows = rng.zipf(1.5, 20000) % 1000  # skewed rows
    for parts in (1, 2, 3, 4, 7):
        for granule in (1, 4):
            counts, width = histogram(rows, 1000, granule)
            bounds = balanced_bounds(counts, width, 1000, parts)
            assert bounds[0] == 0 and bounds[-1] == 1000 and np.all(np.diff(bounds) >= 0)
            assert np.all((bounds[1:-1] % granule) == 0)
            per_part = np.histogram(rows, bins=bounds)[0] if parts > 1 else np.array([len(rows)])
            heaviest = np.bincount(rows // granule).max()  # a cut cannot split one granule
            assert per_part.max() <= len(rows) / parts + heaviest
    even = balanced_bounds(np.zeros(10, np.int64), 1, 10, 4)  # no entries: the extent split evenly
    assert even[0] == 0 and even[-1] == 10 and np.all(np.abs(even - np.arange(5) * 2.5) <= 0.5)


def _launch(ranks: int, tmp_path: Path) -> list[dict]:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # Open MPI refuses root unless told
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    data = str(DATA) if data_available() else ""
    command = [MPIEXEC, "-n", str(ranks), "--oversubscribe", sys.executable, str(HERE / "distributed_checks.py"),
               data, str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and lines and lines[-1].get("done"), \
        f"mpiexec -n {ranks} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return lines


@pytest.mark.skipif(MPI_MISSING or MPIEXEC is None,
                    reason="mpi4py or mpiexec is missing (pip install -e '.[mpi]' installs both)")
@pytest.mark.parametrize("ranks", [1, 2, 4])
def test_distributed_kernels_equal_the_single_process_kernel(ranks, tmp_path):
    lines = _launch(ranks, tmp_path)
    summary, checks = lines[-1], lines[:-1]
    failed = [c for c in checks if not c["ok"]]
    assert not failed, "\n".join(f"{c['check']}: {c['detail']}" for c in failed)
    assert summary["ranks"] == ranks
    names = {c["check"] for c in checks}
    for kernel in ("spmv CSR", "spmv CSC", "spmspv CSR", "spmspv CSC (x sliced)", "spmm", "sddmm",
                   "mttkrp mode 0", "mttkrp mode 1", "mttkrp mode 2", "ttm mode 2 (sparse output)",
                   "spgemm (assembled CSR rows)", "blocks balanced by nonzeros",
                   "bytes counted per call equal the model: spmv CSC (Allreduce)",
                   "bytes counted per call equal the model: mttkrp mode 1 (Allreduce)"):
        assert any(name.endswith(kernel) for name in names), kernel
    assert sum(name.startswith("error:") for name in names) >= (10 if ranks > 1 else 8)
    if not data_available():
        pytest.skip(f"random data and errors checked; real data not found at {DATA}, so not checked")
    manifest = [line.split("\t")[0] for line in (DATA / "MANIFEST.tsv").read_text().splitlines()[1:] if line]
    assert summary["files"] == len(manifest)
    for file in manifest:
        assert any(name.startswith(Path(file).stem + " ") for name in names), f"{file} was not checked"


def _mpi_environment() -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


@pytest.mark.skipif(MPI_MISSING or MPIEXEC is None,
                    reason="mpi4py or mpiexec is missing (pip install -e '.[mpi]' installs both)")
def test_cp_als_example_converges_to_the_same_answer_under_1_2_and_4_ranks(tmp_path):
    rng = np.random.default_rng(3)
    shape = (40, 30, 20)
    flat = rng.choice(np.prod(shape), size=3000, replace=False)
    coords = np.stack(np.unravel_index(flat, shape), axis=1) + 1
    path = tmp_path / "tensor.tns"
    path.write_text("".join(f"{i} {j} {k} {v:.6f}\n" for (i, j, k), v in zip(coords, rng.random(3000) + 0.5)))
    script = str(HERE.parents[1] / "examples" / "cp_als" / "cp_als.py")
    options = [str(path), "--rank", "5", "--iterations", "8"]
    subprocess.run([sys.executable, script, *options, "--out", str(tmp_path / "one.npz")], check=True,
                   env=_mpi_environment(), timeout=300, capture_output=True)
    one = np.load(tmp_path / "one.npz")
    assert one["fits"][-1] > one["fits"][0] > 0  # it converges
    for ranks in (1, 2, 4):
        out = tmp_path / f"ranks{ranks}.npz"
        done = subprocess.run([MPIEXEC, "-n", str(ranks), "--oversubscribe", sys.executable, script, *options,
                               "--distributed", "--out", str(out)], env=_mpi_environment(), timeout=300,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        got = np.load(out)
        for key in ("fits", "weights", "A0", "A1", "A2"):
            assert np.allclose(got[key], one[key], rtol=1e-9, atol=1e-12), (ranks, key)


@needs_mpi
@pytest.mark.parametrize("layout, shape", [
    ("CSR", (37, 23)), ("CSC", (37, 23)), ("DCSR", (37, 23)), ("DCSC", (37, 23)), ("COO", (37, 23)),
    ("BCSR(R=3, C=2)", (37, 23)), ("SV", (50,)), ("COO3", (13, 9, 7)), ("CSF3", (13, 9, 7)), ("CSF4", (6, 5, 4, 3)),
    ("CSF3_DENSE_LAST", (13, 9, 7))])
def test_pieces_of_a_block_join_into_the_block_packed_whole(layout, shape):
    from spf.distributed.joining import Joiner
    from spf.distributed.partition import outer_mode
    loaded = spf.load_layout(layout)
    mode, granule = outer_mode(loaded)
    joiner = Joiner.of(loaded, mode, shape, granule)
    assert joiner is not None
    rng = np.random.default_rng(1)
    for trial in range(4):
        n = int(np.prod(shape) * 0.15)
        flat = rng.choice(int(np.prod(shape)), size=n, replace=False)
        coords, values = np.stack(np.unravel_index(flat, shape), axis=1), rng.standard_normal(n)
        inner = rng.integers(0, shape[mode] // granule + 1, 3 + trial) * granule
        cuts = sorted({0, shape[mode], *(int(c) for c in inner if c < shape[mode])})
        joining = joiner.start(shape, n)
        for start, stop in zip(cuts, cuts[1:]):  # empty pieces among them
            keep = (coords[:, mode] >= start) & (coords[:, mode] < stop)
            local = coords[keep].copy()
            local[:, mode] -= start
            joining.add(spf.pack(loaded, (local, values[keep],
                                          tuple(stop - start if m == mode else s for m, s in enumerate(shape)))))
        joined, whole = joining.finish("B"), spf.pack(loaded, (coords, values, shape))
        assert joined.shape == whole.shape
        for field, value in whole.fields.items():
            assert np.array_equal(np.asarray(joined.fields[field]), np.asarray(value)), (layout, cuts, field)


@needs_mpi
@pytest.mark.parametrize("layout", ["ELL", "SV_DEC"])
def test_layouts_whose_pieces_do_not_join_are_packed_whole(layout):
    from spf.distributed.joining import Joiner
    from spf.distributed.partition import outer_mode
    loaded = spf.load_layout(layout)
    mode, granule = outer_mode(loaded)
    assert Joiner.of(loaded, mode, (40, 30)[:loaded.order], granule) is None


@needs_mpi
def test_balanced_bounds_do_not_depend_on_the_window_of_the_prefix_sums(monkeypatch):
    import spf.distributed.partition as partition
    rng = np.random.default_rng(4)
    for trial in range(200):
        counts = rng.integers(0, 5, int(rng.integers(1, 80))) * (rng.random() < 0.9)
        width = int(rng.integers(1, 4))
        extent = len(counts) * width - int(rng.integers(0, width))
        parts = int(rng.integers(1, 8))
        monkeypatch.setattr(partition, "COUNT_WINDOW", 1 << 18)
        whole = partition.balanced_bounds(counts, width, extent, parts)
        monkeypatch.setattr(partition, "COUNT_WINDOW", int(rng.integers(1, 9)))
        assert np.array_equal(partition.balanced_bounds(counts.astype(np.int32), width, extent, parts), whole)


@needs_mpi
def test_waves_cut_every_peer_count_into_contiguous_parts():
    """Sender and receiver cut a peer's count the same way: the waves' parts of each count
    are contiguous, in order, and add up to it; a count below the int limit is one wave."""
    from spf.distributed.collective import INT_COUNT, WAVE_ELEMENTS, wave_slices
    counts = np.array([0, 1, 7, 1000, 3 * WAVE_ELEMENTS + 5], dtype=np.int64)
    for waves in (1, 2, 3, 7):
        at = np.zeros_like(counts)
        for wave in range(waves):
            low, part = wave_slices(counts, wave, waves)
            assert np.array_equal(low, at) and (part >= 0).all()
            at += part
        assert np.array_equal(at, counts)
    assert WAVE_ELEMENTS < INT_COUNT


def _three_entries():
    import scipy.sparse as sp
    return sp.csr_matrix(([1.0, 2.0, 3.0], ([5, 12, 30], [7, 20, 3])), shape=(40, 32))


@needs_mpi
@pytest.mark.parametrize("layout, ranges", [
    ("CSR", [None, (3, 21)]), ("CSC", [(5, 31), None]), ("DCSR", [(5, 31), (3, 21)]), ("COO", [(5, 31), (3, 21)]),
    ("BCSR(R=2, C=2)", [None, (2, 22)]), ("BCSR(R=4, C=4)", [None, (0, 24)]), ("DIA", [None, None])])
def test_coordinate_ranges_are_read_off_the_index_arrays(layout, ranges):
    """A coordinate defined by an index array spans that array's values (BCSR's column
    blocks their C columns); one defined by a level with non-constant bounds is unknown."""
    from spf.distributed.support import coordinate_range
    tensor = spf.pack(layout, _three_entries())
    assert [coordinate_range(tensor, mode) for mode in range(2)] == ranges


@needs_mpi
def test_rows_reached_are_the_hull_over_terms_of_each_terms_intersection():
    import scipy.sparse as sp
    from spf.distributed.support import coordinate_range, reached_rows
    from spf.notation.statements import parse_statement
    A = spf.pack("CSC", _three_entries())
    B = spf.pack("CSC", sp.csr_matrix(([1.0], ([20], [4])), shape=(40, 32)))
    assert coordinate_range(spf.pack("CSC", sp.csr_matrix((40, 32))), 0) == (0, 0)  # no entries: no rows
    product = parse_statement("y(i) = A(i,j) * B(i,j) * x(j)")
    assert reached_rows(product, {"A": A, "B": B}, 40) == (20, 21)  # A's rows [5, 31) meet B's [20, 21)
    assert reached_rows(product, {"A": A}, 40) == (5, 31)  # B replicated: any row
    total = parse_statement("y(i) = A(i,j) * x(j) + B(i,j) * x(j)")
    assert reached_rows(total, {"B": B}, 40) == (0, 40)  # A's term: any row
    assert reached_rows(parse_statement("y(i) = A(i,j) * x(j)"), {"A": spf.pack("CSC", sp.csr_matrix((40, 32)))},
                        40) == (0, 0)


@needs_mpi
def test_row_sum_counts_each_ranks_parts_and_the_ring_allgather():
    """Rank r sends its reached rows lying in other ranks' blocks, then every block but
    its successor's; the sum is taken only when its largest sender saves a quarter."""
    from spf.distributed.support import WORTH, RowSum, even_bounds, ring_bytes
    bounds = even_bounds(100, 2)
    banded = RowSum(np.array([[0, 55], [45, 100]]), bounds, 3, scatter=False)
    assert list(banded.send_counts(0)) == [0, 15] and list(banded.receive_counts(0)) == [0, 15]
    assert banded.bytes_per_call(0) == (2, (15 + 150) * 8)  # rows 50..54 to rank 1, then its own block
    scattered = RowSum(np.array([[0, 55], [45, 100]]), bounds, 3, scatter=True)
    assert scattered.bytes_per_call(1) == (1, 15 * 8)
    assert ring_bytes(100, 3, 0, 2, scatter=False) == 300 * 8 and ring_bytes(100, 3, 0, 2, scatter=True) == 150 * 8
    assert banded.bytes_per_call(0)[1] <= WORTH * ring_bytes(100, 3, 0, 2, False)
    full = RowSum(np.array([[0, 100], [0, 100]]), bounds, 3, scatter=False)
    assert full.bytes_per_call(0)[1] == ring_bytes(100, 3, 0, 2, False)  # reaching every row saves nothing


@needs_mpi
def test_the_row_sum_is_taken_where_it_saves_a_quarter_or_the_output_is_large():
    from spf.distributed.support import LARGE, choose

    class TwoRanks:  # what choose asks of a communicator: the ranks' reached rows
        size, rank = 2, 0

        def __init__(self, ranges):
            self.ranges = ranges

        def allgather(self, value):
            return self.ranges

    small, large = 1000, LARGE // 8
    assert choose(TwoRanks([(0, 520), (480, 1000)]), (0, 520), small, 1, scatter=False) is not None  # banded
    assert choose(TwoRanks([(0, 1000), (0, 1000)]), (0, 1000), small, 1, scatter=False) is None  # every row
    assert choose(TwoRanks([(0, 1000), (0, 1000)]), (0, 1000), small, 1, scatter=True) is None
    whole = choose(TwoRanks([(0, large), (0, large)]), (0, large), large, 1, scatter=False)
    assert whole is not None and list(whole.bounds) == [0, large // 2, large]  # Rabenseifner's
    assert choose(TwoRanks([(0, large), (0, large)]), (0, large), large, 1, scatter=True) is None


RAISE_ON_ONE_RANK = """\
import numpy as np, scipy.sparse as sp
import spf, spf.distributed as dist
from mpi4py import MPI
k = spf.compile("y(i) = A(i,j) * x(j)", {"A": "CSR", "x": "Dense", "y": "Dense"})
A = dist.distribute("CSR", sp.random(40, 30, density=0.2, format="csr", random_state=1))
y = dist.run(k, A=A, x=np.ones(30))
if MPI.COMM_WORLD.rank == RANK:
    raise ValueError("the script's own error on rank " + str(RANK))
y.gather(root=None)  # the other ranks wait here for the rank that raised
print("finished on rank", MPI.COMM_WORLD.rank, flush=True)
"""


def _run_to_the_end(command: list[str], timeout: float, cwd: Path) -> tuple[int | None, str]:
    """(exit status, output) of ``command``, or (None, output) when it ran past ``timeout``
    seconds (then every process it started is killed)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=_mpi_environment(), cwd=cwd, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
        return process.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        output, _ = process.communicate()
        return None, output


@pytest.mark.skipif(MPI_MISSING or MPIEXEC is None,
                    reason="mpi4py or mpiexec is missing (pip install -e '.[mpi]' installs both)")
@pytest.mark.parametrize("ranks, rank", [(2, 0), (2, 1), (3, 1)])
def test_an_exception_on_one_rank_ends_the_job(tmp_path, ranks, rank):
    """An error the script raises on one rank between collectives used to leave the others
    waiting in the next one for ever: the job now ends, with a non-zero status and the
    error printed (spf.distributed calls MPI_Abort after the traceback)."""
    script = tmp_path / "raise.py"
    script.write_text(RAISE_ON_ONE_RANK.replace("RANK", str(rank)))
    status, output = _run_to_the_end([MPIEXEC, "-n", str(ranks), "--oversubscribe", sys.executable, str(script)],
                                     timeout=180, cwd=tmp_path)
    assert status is not None, f"mpiexec -n {ranks} still ran after 180 s (the other ranks waited):\n{output[-3000:]}"
    assert status != 0 and f"ValueError: the script's own error on rank {rank}" in output, output[-3000:]
    assert "finished on rank" not in output


@needs_mpi
def test_an_exception_in_a_single_process_ends_it_as_python_does(tmp_path):
    script = tmp_path / "raise.py"
    script.write_text(RAISE_ON_ONE_RANK.replace("RANK", "0"))
    status, output = _run_to_the_end([sys.executable, str(script)], timeout=180, cwd=tmp_path)
    assert status == 1 and "ValueError: the script's own error on rank 0" in output and "MPI_ABORT" not in output
