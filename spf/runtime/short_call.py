"""The short call path in C: :class:`spf.runtime.fast_call.CallPlan`'s common case without Python.

A call through the Python plan still runs ~50 Python operations (unpacking each argument,
comparing layouts, packing a dense array's struct, allocating the output, ctypes' call):
~2.5 µs, half again a small SpMV's bound call.  ``short_call.c`` does the same work as a
Python extension type, ``ShortCall``, that holds the plan in C and calls the kernel's C
function through its address: Tensors in the kernel's layout (their kept struct's
address) and float64 C-ordered numpy arrays for row-major dense layouts (a struct written
on the stack), a dense output.  Anything else it answers with None and the Python plan
takes the call; so a machine without Python's headers, or ``SPF_SHORT_CALL=python``, runs
exactly as before, only slower (an extension that fails to build or load says so once, with
a ShortCallWarning).

The extension is compiled once per machine like a kernel (the kernel cache, keyed by the
source, the flags, Python's and numpy's include folders and numpy's version) and loaded
with importlib.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from spf.codegen.toolchain.compiler import build_shared_library
from spf.errors import ShortCallWarning, SpfError
from spf.runtime.fast_call import SMALL_OUTPUT_BYTES
from spf.runtime.tensor import Tensor

if TYPE_CHECKING:
    from spf.runtime.fast_call import CallPlan

SOURCE = Path(__file__).with_name("short_call.c")
MODULE = "spf_short_call"  # the name its PyInit_ function is made for
FLAGS = ["-O2", "-shared", "-fPIC", "-fno-strict-aliasing"]
"""Compiler flags besides the include folders (the sanitizer tests set SANITIZE_FLAGS here)."""


class _Loaded:
    module: Any = None
    tried = False
    unavailable = ""  # why the extension is not used, for a user who asks (spf.runtime.short_call.unavailable())


def _flags() -> list[str]:
    """The compiler flags: Python's and numpy's headers (their folders and numpy's version
    make the cache key, so another interpreter or numpy builds its own copy)."""
    version = f"{sys.implementation.cache_tag}-numpy{np.__version__}"
    return [*FLAGS, f"-I{sysconfig.get_paths()['include']}", f"-I{np.get_include()}",
            f"-DSPF_BUILT_FOR=\"{version}\""]


def _load() -> Any:
    """The extension module, compiled and loaded on first use; None when it cannot be."""
    if _Loaded.tried:
        return _Loaded.module
    _Loaded.tried = True
    if os.environ.get("SPF_SHORT_CALL", "").lower() == "python":
        _Loaded.unavailable = "SPF_SHORT_CALL=python"
        return None
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        _Loaded.unavailable = f"no {headers} (Python's development headers are not installed)"
        return None
    try:
        path = build_shared_library(SOURCE.read_text(), _flags(), name=MODULE)
        loader = importlib.machinery.ExtensionFileLoader(MODULE, str(path))
        spec = importlib.util.spec_from_loader(MODULE, loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
    except (SpfError, OSError, ImportError) as error:
        _Loaded.unavailable = f"the extension could not be built or loaded: {error}"
        warnings.warn(ShortCallWarning(f"spf: calls take the Python path, a few microseconds slower: "
                                       f"{_Loaded.unavailable}"), stacklevel=2)
        return None
    _Loaded.module = module
    return module


def unavailable() -> str:
    """Why calls do not take the C short call path ("" when they do)."""
    _load()
    return _Loaded.unavailable


def short_call(plan: CallPlan, function: Callable[..., int]) -> Callable[[dict], Any] | None:
    """A ``ShortCall`` running ``plan``'s common case with the kernel's C ``function``
    (ctypes, loaded with void* arguments): called with the call's keyword arguments as a
    dict, it returns the dense output or None.  None when the plan's output is assembled,
    the kernel is outside the extension's limits, or the extension is unavailable."""
    if plan.assembled is not None or plan.output_bytes is None:
        return None
    module = _load()
    if module is None:
        return None
    inputs = tuple((argument.name, argument.layout, argument.equal_layouts, argument.struct, argument.order,
                    argument.dense.spec if argument.dense is not None else None, argument.dtype.num)
                   for argument in plan.arguments)
    address = ctypes.cast(function, ctypes.c_void_p).value
    try:
        return module.ShortCall(address, Tensor, inputs, plan.same_extents, plan.output_extents,
                                plan.output_position, plan.accumulates, SMALL_OUTPUT_BYTES, plan.output_bytes.spec,
                                plan.output_dtype.num, plan.output_dtype.itemsize)
    except (ValueError, TypeError, OverflowError):  # more arguments, axes or struct bytes than it holds
        return None
