"""The folder spf caches kernels in, and what happens when it cannot be written.

``$SPF_CACHE_DIR``, else ``$XDG_CACHE_HOME/spf``, else ``~/.cache/spf``, created on
demand.  A folder that cannot be made or written (the variable names a file, the path
runs through one, a folder the user may not write, a read-only file system) does not
stop a compile: the process caches in a temporary folder of its own instead (removed
when it exits), after a :class:`~spf.errors.CacheWarning` naming the variable and why,
so compiling works, only later processes compile again.  Whether a folder can be
written is tried once per process (a file created and removed in it); a write that
fails later (:func:`give_up`) moves the process to the temporary folder too.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from spf import errors
from spf.errors import CacheWarning, SpfError

_usable: set[Path] = set()  # folders written to in this process
_refused: dict[Path, str] = {}  # folder -> why it cannot be used
_temporary: Path | None = None  # this process's own folder, once a configured one was refused


def configured() -> tuple[Path, str]:
    """The configured cache folder and the variable that names it (not created here)."""
    if os.environ.get("SPF_CACHE_DIR"):
        return Path(os.environ["SPF_CACHE_DIR"]).expanduser(), "SPF_CACHE_DIR"
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]).expanduser() / "spf", "XDG_CACHE_HOME"
    return Path.home() / ".cache" / "spf", "HOME"


def cache_directory() -> Path:
    """The folder to cache in: the configured one (created on demand) when it can be
    written, else this process's temporary folder (see the module docstring)."""
    folder, variable = configured()
    if folder in _usable:
        return folder
    if folder not in _refused:
        problem = _unwritable(folder)
        if problem is None:
            _usable.add(folder)
            return folder
        _refuse(folder, variable, problem)
    return _temporary_folder(folder, variable)


def give_up(folder: Path, error: OSError) -> Path:
    """After writing into ``folder`` failed with ``error``: the folder to use from now on
    (this process's temporary folder, with a CacheWarning), or an SpfError when ``folder``
    already was that folder."""
    _, variable = configured()
    if folder == _temporary:
        raise SpfError(f"spf cannot write its temporary kernel folder {folder}: {_describe(error)}; "
                       "set SPF_CACHE_DIR to a folder you can write") from None
    _usable.discard(folder)
    if folder not in _refused:
        _refuse(folder, variable, _describe(error))
    return _temporary_folder(folder, variable)


def _unwritable(folder: Path) -> str | None:
    """Why ``folder`` cannot be made or written, or None when a file was created in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor, probe = tempfile.mkstemp(prefix=".probe-", dir=folder)
        os.close(descriptor)
        os.unlink(probe)
    except OSError as error:
        return _describe(error)
    return None


def _describe(error: OSError) -> str:
    if isinstance(error, FileExistsError):
        return f"{error.filename} is a file, not a folder"
    if isinstance(error, NotADirectoryError):
        return f"a part of the path is a file, not a folder ({error.strerror})"
    return error.strerror or str(error)


def _refuse(folder: Path, variable: str, problem: str) -> None:
    _refused[folder] = problem
    warnings.warn(CacheWarning(
        f"spf cannot cache kernels in {folder} (from ${variable}): {problem}; compiling without that "
        "cache, in a temporary folder removed at exit: set SPF_CACHE_DIR to a folder you can write to keep "
        "compiled kernels for later processes"), stacklevel=_caller_level())


def _caller_level() -> int:
    """The ``stacklevel`` that makes a warning issued by this function's caller point at
    the first frame outside spf (the user's line that compiled)."""
    inside = tuple(str(Path(module.__file__).resolve().parent) + os.sep for module in (errors, sys.modules[__name__]))
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(inside):
        level, frame = level + 1, frame.f_back
    return level


def _temporary_folder(folder: Path, variable: str) -> Path:
    global _temporary
    if _temporary is None:
        try:
            _temporary = Path(tempfile.mkdtemp(prefix="spf-cache-"))
        except OSError as error:
            raise SpfError(f"spf cannot cache kernels in {folder} (from ${variable}: {_refused.get(folder)}) "
                           f"nor in a temporary folder ({_describe(error)}): set SPF_CACHE_DIR to a folder you "
                           "can write") from None
        atexit.register(_remove, _temporary, os.getpid())
    return _temporary


def _remove(folder: Path, owner: int) -> None:
    if os.getpid() == owner:  # not in a forked child that exits normally
        shutil.rmtree(folder, ignore_errors=True)
