"""Allocations sized by users' numbers: refused beyond physical memory, before numpy tries."""

from __future__ import annotations

import numpy as np
import pytest

import spf
from spf.runtime import memory


def test_describe_sizes():
    assert memory.describe(512) == "512 bytes"
    assert memory.describe(3 * 1024**3) == "3.0 GiB"
    assert memory.describe(24 * 10**12) == "21.8 TiB"


def test_allocate_fills_and_refuses_beyond_physical_memory(monkeypatch):
    array = memory.allocate((2, 3), np.int32, "test", fill=-1)
    assert array.dtype == np.int32 and array.shape == (2, 3) and (array == -1).all()
    assert memory.allocate((4,), np.float64, "test").sum() == 0
    monkeypatch.setattr(memory, "physical_memory", lambda: 1000)
    assert memory.allocate((125,), np.float64, "test").nbytes == 1000  # exactly the memory: allowed
    with pytest.raises(spf.OutOfMemoryError, match=r"^values of T would need 1008 bytes \(shape \(126,\) of "
                                                   r"float64\), more than this machine's 1000 bytes of memory$"):
        memory.allocate((126,), np.float64, "values of T")


def test_the_refusal_is_both_an_spf_error_and_a_memory_error():
    with pytest.raises(MemoryError):
        memory.require((2**40, 2**40), np.float64, "huge")
    with pytest.raises(spf.SpfError, match=r"huge: negative extent -1 in the shape \(3, -1\)"):
        memory.require((3, -1), np.float64, "huge")


def test_a_failed_allocation_is_an_spf_error(monkeypatch):
    def failing(*arguments, **options):
        raise MemoryError()
    monkeypatch.setattr(np, "zeros", failing)
    with pytest.raises(spf.OutOfMemoryError, match=r"^T: cannot allocate 80 bytes"):
        memory.allocate((10,), np.float64, "T")
