"""The generated C of the golden corpus (tests/golden_c.py) is what tests/golden/ holds.

A difference fails with its first lines; when the change is intended, regenerate with
``.venv/bin/python tests/golden_c.py`` and commit the files with the change.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from golden_c import GOLDEN, corpus, path_of

KERNELS = corpus()


def test_the_corpus_is_large_and_every_file_belongs_to_a_kernel():
    assert len(KERNELS) >= 100
    assert {p.name for p in GOLDEN.glob("*.c")} == {path_of(k).name for k in KERNELS}
    refused = [k.name for k in KERNELS if path_of(k).read_text().startswith("/* refused")]
    assert len(refused) <= len(KERNELS) // 10, refused  # the corpus is C, not refusals


@pytest.mark.parametrize("kernel", KERNELS, ids=[k.name for k in KERNELS])
def test_generated_c_is_unchanged(kernel):
    expected = path_of(kernel).read_text()
    got = kernel.source()
    if got != expected:
        diff = list(difflib.unified_diff(expected.splitlines(), got.splitlines(), "golden", "generated",
                                         lineterm="", n=2))
        pytest.fail(f"the C of {kernel.name} changed ({len(diff)} diff lines); if intended, run "
                    f".venv/bin/python tests/golden_c.py {kernel.name} and commit it:\n" + "\n".join(diff[:60]))


def test_the_c_does_not_depend_on_what_the_process_compiled_before(tmp_path):
    """The corpus compiled last to first in a new process with an empty kernel cache gives
    the same files: in one process, fresh internal names numbered by earlier compiles once
    changed which of two equal dimensions isl kept (sddmm-CSR after an SpMV)."""
    script = Path(__file__).with_name("golden_c.py")
    environment = dict(os.environ, SPF_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, str(script), "--check-reversed"], capture_output=True, text=True,
                          env=environment, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
