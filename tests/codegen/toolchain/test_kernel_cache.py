"""The whole-kernel cache (spf/codegen/toolchain/kernel_cache.py): a repeated compile is a lookup, in
the process and in a new one; anything that decides the kernel is part of the key."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp

import spf
from conftest import REPOSITORY
from spf.codegen.toolchain import kernel_cache

SPMV = "y(i) = A(i,j) * x(j)"
LAYOUTS = {"A": "CSR", "x": "Dense1", "y": "Dense1"}


def test_a_repeated_compile_is_a_kernel_of_its_own_from_memory():
    first = spf.compile(SPMV, LAYOUTS)
    again = spf.compile(SPMV, LAYOUTS)
    assert again.cached == "memory" and again is not first and again.c_source == first.c_source
    a, x = sp.random(40, 30, density=0.2, format="csr", random_state=1), np.arange(30.0)
    np.testing.assert_allclose(again(A=a, x=x), a @ x)
    transpose = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})
    transpose(A=a)
    other = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})
    assert other.assembly_statistics == {}  # statistics are each kernel's own
    assert sum(transpose.assembly_statistics.values()) > 0


def test_the_options_are_part_of_the_key():
    serial = spf.compile(SPMV, LAYOUTS)
    parallel = spf.compile(SPMV, LAYOUTS, parallel=True)
    assert "omp parallel" in parallel.c_source and "omp parallel" not in serial.c_source
    binary = spf.compile(SPMV, {"A": "CSR", "x": "SV", "y": "Dense1"}, find="binary")
    hashed = spf.compile(SPMV, {"A": "CSR", "x": "SV", "y": "Dense1"}, find="hashmap")
    assert binary.c_source != hashed.c_source


def test_a_new_process_loads_the_kernel_from_disk(tmp_path):
    program = ("import spf; k = spf.compile('y(i) = A(i,j) * x(j)', {'A': 'CSR', 'x': 'SV', 'y': 'Dense1'}); "
               "import numpy as np, scipy.sparse as sp; a = sp.random(20, 10, density=0.3, format='csr', random_state=2); "
               "x = ((np.array([[1], [4]]), np.array([2.0, -1.0]), (10,))); "
               "assert np.allclose(k(A=a, x=x), a @ np.array([0, 2.0, 0, 0, -1.0, 0, 0, 0, 0, 0])); print(repr(k.cached))")
    environment = {**os.environ, "SPF_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment,
                           cwd=REPOSITORY) for _ in range(2)]
    assert [run.stdout.strip() for run in runs] == ["''", "'disk'"], [run.stderr[-2000:] for run in runs]
    entries = list((tmp_path / "kernels").glob("*.pickle"))
    assert len(entries) == 1
    entries[0].write_bytes(b"not a pickle")  # a damaged entry is compiled again and replaced
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment,
                         cwd=REPOSITORY)
    assert run.stdout.strip() == "''", run.stderr[-2000:]
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment,
                         cwd=REPOSITORY)
    assert run.stdout.strip() == "'disk'", run.stderr[-2000:]


def test_an_edited_layout_file_is_compiled_again(tmp_path):
    path = tmp_path / "MY_CSR.layout"
    text = (REPOSITORY / "layouts" / "CSR.layout").read_text().replace("layout CSR", "layout MY_CSR")
    path.write_text(text)
    layouts = {"A": str(path), "x": "Dense1", "y": "Dense1"}
    first = spf.compile(SPMV, layouts)
    assert spf.compile(SPMV, layouts).cached == "memory"
    path.write_text(text.replace("property monotonic(rowPtr, increasing, weak)\n", ""))
    edited = spf.compile(SPMV, layouts)
    assert edited.cached == "" and "monotonic(A_rowPtr" in first.explain()
    assert "monotonic(A_rowPtr" not in edited.explain()


def test_the_source_stamp_covers_spfs_modules_and_layout_files():
    stamp = kernel_cache.source_stamp()
    assert len(stamp) == 64 and stamp == kernel_cache.source_stamp()


# ----------------------------------------------------------------------------- a damaged or unwritable cache

PROGRAM = ("import warnings, numpy as np, scipy.sparse as sp, spf\n"
           "warnings.simplefilter('always')\n"
           "k = spf.compile('y(i) = A(i,j) * x(j)', {'A': 'CSR', 'x': 'Dense1', 'y': 'Dense1'})\n"
           "a = sp.random(30, 40, density=0.1, format='csr', random_state=3)\n"
           "assert np.allclose(k(A=a, x=np.arange(40.0)), a @ np.arange(40.0))\n"
           "print(repr(k.cached))\n")


def _compile_in_a_new_process(cache, user: list[str] = ()) -> subprocess.CompletedProcess:
    """PROGRAM run with ``cache`` as SPF_CACHE_DIR (by the command ``user`` that runs it as another user)."""
    environment = {**os.environ, "SPF_CACHE_DIR": str(cache)}
    return subprocess.run([*user, sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=environment,
                          cwd=REPOSITORY, timeout=300)


def _cached(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 0, f"exit status {run.returncode}\n{run.stderr[-3000:]}"
    return run.stdout.strip()


DAMAGE = {
    "truncated": lambda path: os.truncate(path, path.stat().st_size // 2),
    "zero-length": lambda path: path.write_bytes(b""),
    "garbage": lambda path: path.write_bytes(np.random.default_rng(1).integers(
        0, 256, max(path.stat().st_size, 64), dtype=np.uint8).tobytes()),
}


@pytest.fixture(scope="module")
def whole_cache(tmp_path_factory):
    """A cache folder a new process compiled PROGRAM's kernel into (it found nothing there),
    made once: each damage is done to a copy of it."""
    folder = tmp_path_factory.mktemp("whole-cache")
    assert _cached(_compile_in_a_new_process(folder)) == "''"
    return folder


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("entries", ["libraries", "metadata"])
def test_a_damaged_cache_is_compiled_again_in_a_new_process(tmp_path, whole_cache, entries, damage):
    """Libraries (``*.so``) or metadata (the kernels' pickles, the libraries' records)
    truncated, emptied or overwritten between two processes: the next compile rebuilds
    what was damaged and computes right (a truncated library used to be mapped past its
    end: SIGBUS), and the one after it finds the cache whole again."""
    cache = tmp_path / "cache"
    shutil.copytree(whole_cache, cache)
    libraries = sorted(cache.glob("*.so"))
    damaged = libraries if entries == "libraries" else \
        sorted(cache.glob("kernels/*.pickle")) + sorted(cache.glob("*.so.sha256"))
    assert libraries and damaged
    for path in damaged:
        DAMAGE[damage](path)
    # a damaged library is rebuilt under the kernel loaded from disk; a damaged pickle is compiled again
    assert _cached(_compile_in_a_new_process(cache)) == ("'disk'" if entries == "libraries" else "''")
    assert _cached(_compile_in_a_new_process(cache)) == "'disk'"
    from spf.codegen.toolchain.compiler import intact
    assert all(intact(library) for library in libraries)


NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]  # util-linux


@pytest.mark.parametrize("problem", ["a file", "under a file", "no write permission"])
def test_an_unwritable_cache_folder_compiles_without_the_cache(tmp_path, problem):
    """The cache folder names a file, runs through one, or may not be written: the compile
    succeeds (in a temporary folder of the process) with a warning naming the variable."""
    (tmp_path / "file").write_text("")
    user = []
    if problem == "a file":
        folder = tmp_path / "file"
    elif problem == "under a file":
        folder = tmp_path / "file" / "cache"
    else:
        folder = tmp_path / "read-only"
        folder.mkdir(mode=0o555)
        if os.geteuid() == 0:  # root writes any folder: compile as nobody, who may not write this one
            tmp_path.chmod(0o755)
            user = NOBODY
            try:
                check = subprocess.run([*user, sys.executable, "-c", "import spf"], capture_output=True, text=True,
                                       cwd=REPOSITORY)
            except OSError as error:
                check = subprocess.CompletedProcess([], 1, "", str(error))
            if check.returncode != 0:
                pytest.skip("running as root, and user nobody cannot run spf here (through setpriv) to try a "
                            f"folder it may not write: {check.stderr[-300:]}")
    for _ in range(2):  # nothing is kept: the second process compiles again
        run = _compile_in_a_new_process(folder, user)
        assert _cached(run) == "''"
        assert "CacheWarning" in run.stderr and "set SPF_CACHE_DIR to a folder you can write" in run.stderr, run.stderr
        assert str(folder) in run.stderr
    assert (tmp_path / "file").read_text() == ""
    if problem == "no write permission":
        assert not list(folder.iterdir())
