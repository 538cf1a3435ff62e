"""Shared fixtures: the real data in ../shared/data (skipped with a reason when absent)
and each built-in layout loaded once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SPF_DATA", REPOSITORY.parent / "shared" / "data"))
MATRICES = DATA / "matrices"
TENSORS = DATA / "tensors"

# A spread of real matrices (square and rectangular, symmetric and general, small to
# large) and tensors, used where a test runs per file.
REAL_MATRICES = ["494_bus", "west0479", "Franz6_id1959_aug", "bcsstk13", "ca-GrQc",
                 "email-Eu-core", "lp_e226", "olm1000", "cage10", "gre_1107"]
REAL_TENSORS = ["nations", "umls", "kinship", "dnc-email-daily", "collegemsg-daily"]


def data_available() -> bool:
    return MATRICES.is_dir() and TENSORS.is_dir()


def require_data() -> None:
    if not data_available():
        pytest.skip(f"real data not found at {DATA} (set SPF_DATA or place ../shared/data beside the repository)")


def matrix_path(name: str) -> Path:
    require_data()
    path = MATRICES / f"{name}.mtx"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    return path


def tensor_path(name: str) -> Path:
    require_data()
    path = TENSORS / f"{name}.tns"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    return path


_matrix_cache: dict[str, object] = {}
_tensor_cache: dict[str, object] = {}


def load_matrix(name: str):
    """A copy of a real matrix as scipy CSR (symmetric files expanded), read once per session."""
    if name not in _matrix_cache:
        import scipy.io
        import scipy.sparse
        _matrix_cache[name] = scipy.sparse.csr_matrix(scipy.io.mmread(matrix_path(name)))
    return _matrix_cache[name].copy()  # callers may modify their copy


def load_tensor(name: str):
    """A real tensor as (coords, values, shape), read once per session."""
    if name not in _tensor_cache:
        import spf
        _tensor_cache[name] = spf.read_tns(tensor_path(name))
    coords, values, shape = _tensor_cache[name]
    return coords.copy(), values.copy(), shape


@pytest.fixture(scope="session")
def layout_library():
    """Every built-in layout, loaded once: name -> Layout or LayoutFamily."""
    import spf
    return {name: spf.load_layout(name) for name in spf.layouts()}
