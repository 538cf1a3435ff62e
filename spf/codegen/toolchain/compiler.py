"""Compiling generated C into shared libraries, caching them, and loading kernels with ctypes.

A library is cached in :func:`cache_directory` under a hash of its source, the flags
and the compiler (path and version), so the same kernel is compiled once per machine.
Builds write to a temporary file and rename it into place, so concurrent processes
never see a half-written library, and record its size and SHA-256 beside it: a library
that no longer matches its record (truncated, emptied, overwritten) is compiled again
before anything loads it.  :data:`SANITIZE_FLAGS` and
:func:`sanitizer_environment` let tests run kernels under AddressSanitizer and
UndefinedBehaviorSanitizer in a subprocess.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from spf.errors import SpfError

from spf.codegen.c import runtime
from spf.codegen.c.structs import sanitize_identifier
from spf.codegen.toolchain.cache_folder import cache_directory, configured, give_up
from spf.codegen.toolchain.cache_limit import prune_when_due, touch

ANNOUNCE_AFTER = 2.0  # seconds of compiling after which a line on standard error says so

# -ffp-contract=off: a multiply and an add stay two operations, as written.  A loop-carried
# sum (SpMV's row, a register sum) then waits on the adder alone; contracted into a fused
# multiply-add it waits on the FMA, whose latency is twice the add's on recent x86 cores
# (Golden Cove: 4 cycles against 2): BlogCatalog3's SpMV ran 1.5x slower contracted.  The
# results are also the ones the C source says, with no rounding left to the compiler.
# -falign-loops=64: each loop starts a 64-byte fetch block.  A short hot loop (SpMV's row)
# straddling two blocks ran 1.1-1.3x slower on this machine's Xeon, and where it fell
# changed with every unrelated edit of the source around it: SpMV at 2 threads measured
# 0.7-0.8 of the same loop compiled elsewhere on mid-sized matrices, parity aligned.
# -fcx-limited-range: a complex product is (ac - bd) + (ad + bc)i, as numpy, scipy and GraphBLAS
# compute it, rather than C's Annex G call into libgcc (__muldc3) that rescues infinities from
# NaN: complex128 SpMV made one call per nonzero and ran at 0.9x scipy.
CFLAGS = ["-O3", "-march=native", "-ffp-contract=off", "-falign-loops=64", "-fcx-limited-range", "-fopenmp",
          "-shared", "-fPIC"]
SANITIZE_FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
                  "-fno-sanitize-recover=all", "-shared", "-fPIC"]
ERROR_LINES = 20  # lines of compiler output quoted in a build error
RECORD_SUFFIX = ".sha256"  # beside a cached library: "<size> <SHA-256>" of the file as built


# ----------------------------------------------------------------------------- compiler

def compiler() -> str:
    """The C compiler command: ``$CC``, else ``cc``."""
    return os.environ.get("CC") or "cc"


def compiler_command() -> list[str]:
    """The compiler as an argument list with its executable resolved; SpfError when absent."""
    command = shlex.split(compiler())
    executable = shutil.which(command[0]) if command else None
    if executable is None:
        raise SpfError(f"C compiler {compiler()!r} not found (install one, or set $CC)")
    return [executable, *command[1:]]


@functools.lru_cache(maxsize=None)
def _version_line(command: tuple[str, ...], modified: int) -> str:
    """The first line of ``command --version`` (cached per executable and its mtime)."""
    try:
        result = subprocess.run([*command, "--version"], capture_output=True, text=True)
    except OSError as error:
        raise SpfError(f"cannot run the C compiler {command[0]}: {error}") from None
    return (result.stdout or result.stderr).partition("\n")[0].strip()


def _compiler_identity(command: Sequence[str]) -> list[str]:
    """What distinguishes one compiler from another: the command, executable path and version."""
    return [*command, _version_line(tuple(command), os.stat(command[0]).st_mtime_ns)]


# ----------------------------------------------------------------------------- cache

def _build_hash(source: str, flags: Sequence[str], command: Sequence[str]) -> str:
    """The cache key of a library: its source, the flags, the compiler and the run-time C
    files the source may include (a changed file builds every library again)."""
    key = json.dumps([source, list(flags), _compiler_identity(command), runtime.stamp()])
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def temporary_beside(path: Path) -> Path:
    """A fresh name in ``path``'s directory for writing before an atomic rename."""
    return path.with_name(f".{path.stem}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp{path.suffix}")


def _write_atomically(path: Path, text: str) -> None:
    temporary = temporary_beside(path)
    try:
        temporary.write_text(text)
        os.replace(temporary, path)
    finally:
        _remove(temporary)


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def record_path(library: Path) -> Path:
    """Where the size and SHA-256 of ``library`` as it was built are recorded."""
    return library.with_name(library.name + RECORD_SUFFIX)


def _digest(handle) -> tuple[int, str]:
    """(size, SHA-256) of what an open binary file holds."""
    digest, size = hashlib.sha256(), 0
    for block in iter(lambda: handle.read(1 << 20), b""):
        digest.update(block)
        size += len(block)
    return size, digest.hexdigest()


class Libraries:
    """This process's shared libraries: ``verified`` library path -> (device, inode, size) of
    the file :func:`intact` found intact (checked once per process); ``loaded`` resolved path
    -> its CDLL.  Entries stay for the process (a loaded library cannot be unloaded safely;
    a file replaced on disk has another inode, so it is checked again)."""

    def __init__(self) -> None:
        self.verified: dict[str, tuple[int, int, int]] = {}
        self.loaded: dict[str, ctypes.CDLL] = {}


LIBRARIES = Libraries()  # one per process: dlopen loads a library once per process anyway


def intact(library: Path) -> bool:
    """Whether ``library`` is the file that was built: its size and SHA-256 are those
    recorded beside it (a file checked once per process).  A truncated, emptied,
    overwritten or unrecorded library is not, and is compiled again rather than loaded:
    dlopen maps a truncated library past the end of its file, and the process dies with
    SIGBUS when it touches those pages."""
    try:
        with open(library, "rb") as handle:
            status = os.fstat(handle.fileno())
            identity = (status.st_dev, status.st_ino, status.st_size)
            if LIBRARIES.verified.get(str(library)) == identity:
                return True
            recorded = record_path(library).read_text().split()
            if len(recorded) != 2 or recorded[0] != str(status.st_size) or _digest(handle) != (status.st_size,
                                                                                              recorded[1]):
                return False
    except (OSError, UnicodeDecodeError):
        return False
    LIBRARIES.verified[str(library)] = identity
    return True


def _run_compiler(command: list[str], c_file: Path, flags: Sequence[str], output: Path) -> None:
    """Compile ``c_file`` into ``output`` (SpfError when the compiler fails or cannot run),
    finding the run-time C files it includes (spf.codegen.c.runtime)."""
    try:
        result = subprocess.run([*command, str(c_file), *flags, f"-I{runtime.DIRECTORY}", "-o", str(output)],
                                capture_output=True, text=True)
    except OSError as error:
        raise SpfError(f"cannot run the C compiler {command[0]} on {c_file}: {error}") from None
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).splitlines()
        quoted = "\n".join(lines[:ERROR_LINES])
        more = f"\n... ({len(lines) - ERROR_LINES} more lines)" if len(lines) > ERROR_LINES else ""
        raise SpfError(f"C compilation of {c_file} failed "
                       f"({Path(command[0]).name} exited with {result.returncode}):\n{quoted}{more}")


def compile_file(command: list[str], c_file: Path, flags: Sequence[str], library: Path) -> None:
    """Compile ``c_file`` into ``library`` through a temporary file renamed into place
    (``spf compile``'s libraries; SpfError when that fails)."""
    temporary = temporary_beside(library)
    try:
        _run_compiler(command, c_file, flags, temporary)
        os.replace(temporary, library)
    except OSError as error:
        raise SpfError(f"cannot write {library}: {error.strerror or error}") from None
    finally:
        _remove(temporary)


def _build(command: list[str], source: str, flags: Sequence[str], library: Path) -> None:
    """Write ``source`` beside ``library`` and compile it into ``library``, recorded.

    The library is compiled into a temporary file, its record written (atomically), then
    the library renamed into place, so another process never loads half a library; one
    that reads the record of one build and the library of another (two processes building
    at once, a compiler whose output differs between runs) finds them unequal and builds
    again.  OSError: the folder cannot be written."""
    c_file = library.with_suffix(".c")
    _write_atomically(c_file, source)
    temporary = temporary_beside(library)
    try:
        _run_compiler(command, c_file, flags, temporary)
        with open(temporary, "rb") as handle:
            size, digest = _digest(handle)
        _write_atomically(record_path(library), f"{size} {digest}\n")
        os.replace(temporary, library)
    finally:
        _remove(temporary)


def build_shared_library(source: str, flags: Sequence[str] | None = None, name: str = "kernel") -> Path:
    """The shared library compiled from ``source`` with ``flags`` (default :data:`CFLAGS`).

    Cached as ``<cache>/<name>-<hash16>.so`` next to its ``.c`` and its record (size and
    SHA-256, :func:`intact`); reused when present and intact, compiled again otherwise.
    A cache folder that cannot be written is left for a temporary one, with a warning
    (spf.codegen.toolchain.cache_folder).  The cache is kept under a size limit, least recently used
    first (spf.codegen.toolchain.cache_limit).
    """
    flags = list(CFLAGS if flags is None else flags)
    command = compiler_command()
    stem = f"{sanitize_identifier(name)}-{_build_hash(source, flags, command)}"
    directory = cache_directory()
    library = directory / f"{stem}.so"
    if intact(library):
        touch(library)
        touch(record_path(library))  # the record goes with its library when the cache is pruned
        return library
    with _announced_when_slow(name, command[0]):
        try:
            _build(command, source, flags, library)
        except OSError as error:
            directory = give_up(directory, error)
            library = directory / f"{stem}.so"
            if not intact(library):
                try:
                    _build(command, source, flags, library)
                except OSError as again:
                    give_up(directory, again)  # raises: not even the temporary folder can be written
    prune_when_due(directory)
    return library


@contextlib.contextmanager
def _announced_when_slow(name: str, compiler: str) -> Iterator[None]:
    """A line on standard error if compiling takes over :data:`ANNOUNCE_AFTER` seconds (a
    large kernel, a loaded machine): the caller is waiting for gcc, not hung."""
    timer = threading.Timer(ANNOUNCE_AFTER, lambda: print(
        f"spf: compiling {name} with {compiler} (over {ANNOUNCE_AFTER:g} s so far; the library is cached "
        f"for later calls)", file=sys.stderr, flush=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


# ----------------------------------------------------------------------------- loading

def load_library(path: Path | str) -> ctypes.CDLL:
    """The library at ``path``, loaded once per process."""
    key = str(Path(path).resolve())
    if key not in LIBRARIES.loaded:
        try:
            LIBRARIES.loaded[key] = ctypes.CDLL(key)
        except OSError as error:
            folder = configured()[0]
            hint = (f" (the kernel cache may be damaged: delete {folder} to start afresh)"
                    if Path(key).parent == folder.resolve() else "")
            raise SpfError(f"cannot load {key}: {error}{hint}") from None
    return LIBRARIES.loaded[key]


def load_function(path: Path | str, function: str, argument_types: Sequence,
                  result_type: type | None = ctypes.c_int) -> Callable[..., Any]:
    """The C function ``function`` of the library at ``path``, with argtypes and restype set."""
    library = load_library(path)
    try:
        loaded = library[function]  # a new function object each time: its argtypes are its own
    except AttributeError:
        raise SpfError(f"{path} has no function {function!r}") from None
    loaded.argtypes = list(argument_types)
    loaded.restype = result_type
    return loaded


# ----------------------------------------------------------------------------- sanitizers

def sanitizer_runtime(library: str) -> Path:
    """The path of a sanitizer runtime of the compiler (``libasan.so``, ``libubsan.so``)."""
    command = compiler_command()
    result = subprocess.run([*command, f"-print-file-name={library}"], capture_output=True, text=True)
    path = Path(result.stdout.strip())
    if result.returncode != 0 or not path.is_absolute() or not path.exists():
        raise SpfError(f"the C compiler {compiler()!r} has no {library} (sanitizer runtime not installed)")
    return path


def sanitizer_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """An environment (``base``, default ``os.environ``) for a process that loads sanitized libraries.

    The sanitizer runtimes are preloaded, because an unsanitized python cannot load a
    library built with :data:`SANITIZE_FLAGS` otherwise; leaks are not reported (the
    interpreter has its own), and the first error aborts with a stack trace.
    """
    environment = dict(os.environ if base is None else base)
    preload = [str(sanitizer_runtime("libasan.so")), str(sanitizer_runtime("libubsan.so"))]
    if environment.get("LD_PRELOAD"):
        preload.append(environment["LD_PRELOAD"])
    environment["LD_PRELOAD"] = ":".join(preload)
    environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1"
    environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    return environment
