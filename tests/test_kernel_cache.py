"""The whole-kernel cache (codegen/kernel_cache.py): a repeated compile is a lookup, in
the process and in a new one; anything that decides the kernel is part of the key."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import scipy.sparse as sp

import spf
from conftest import REPOSITORY
from spf.codegen import kernel_cache

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
