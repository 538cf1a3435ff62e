"""Reading a Matrix Market (.mtx) or FROSTT (.tns) file in parallel: each rank parses
the lines that start in its byte range of the file, the ranks count the entries of each
outer coordinate (a histogram summed with Allreduce) to cut the outer mode into blocks
holding equal numbers of nonzeros, and send each entry to the rank owning its outer
coordinate (Alltoallv).  No rank ever holds more than its byte range's entries and its
block.  :func:`from_entries` is that exchange for entries a program made itself.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
from mpi4py import MPI

from spf import arguments
from spf.errors import ArgumentError, SpfError
from spf.packing import EXACT_INTEGERS, INDEX_DTYPE, _load_layout, _resolve

from .collective import agreed
from .partition import balanced_bounds, histogram, outer_mode
from .tensor import DistributedTensor, _communicator, block, exchange

READ_BLOCK = 1 << 16


def read_mtx(path, layout="CSR", comm=None, name: str = "A") -> DistributedTensor:
    """A Matrix Market coordinate file (real, integer or pattern; general, symmetric or
    skew-symmetric, whose other triangle is added) distributed in ``layout``.
    Duplicate entries are summed, as scipy does.  Collective."""
    comm = _communicator(comm)
    path = _path(path, "read_mtx")
    header = agreed(comm, lambda: _mtx_header(path) if comm.rank == 0 else None, f"reading {path}")
    header = comm.bcast(header, root=0)
    (rows, cols, declared), field, symmetry, start = header
    coords, values, _ = agreed(comm, lambda: _parse_range(path, start, comm, "%", 2 if field == "pattern" else 3,
                                                          2), f"reading {path}")
    if field == "pattern":
        values = np.ones(len(coords))
    found = comm.allreduce(len(values), op=MPI.SUM)
    if found != declared:
        raise SpfError(f"{path}: the size line declares {declared} entries, the file holds {found}")
    shape = (rows, cols)

    def check_and_expand():
        outside = np.flatnonzero((coords[:, 0] >= rows) | (coords[:, 1] >= cols))
        if outside.size:
            bad = coords[outside[0]] + 1
            raise SpfError(f"{path}: entry ({bad[0]}, {bad[1]}) lies outside the declared size {rows} x {cols}")
        if symmetry == "general":
            return coords, values
        if symmetry == "skew-symmetric" and np.any(coords[:, 0] == coords[:, 1]):
            raise SpfError(f"{path}: a skew-symmetric file stores no diagonal entries")
        off = coords[:, 0] != coords[:, 1]
        mirrored = coords[off][:, ::-1]
        sign = -1.0 if symmetry == "skew-symmetric" else 1.0
        return np.concatenate([coords, mirrored]), np.concatenate([values, sign * values[off]])

    coords, values = agreed(comm, check_and_expand, f"reading {path}")
    return from_entries(layout, coords, values, shape, comm=comm, name=name, duplicates="sum")


def read_tns(path, layout="COO3", comm=None, name: str = "B") -> DistributedTensor:
    """A FROSTT ``.tns`` file (``i j k ... value`` per line, 1-based; the shape is the
    largest index per mode) distributed in ``layout``, as ``spf.pack(layout,
    spf.read_tns(path))`` would store it whole.  Duplicate coordinates are refused.  Collective."""
    comm = _communicator(comm)
    path = _path(path, "read_tns")
    coords, values, width = agreed(comm, lambda: _parse_range(path, 0, comm, "#", None, None), f"reading {path}")
    widths = {w for w in comm.allgather(width) if w is not None}
    if not widths:
        raise SpfError(f"{path}: no entries")
    if len(widths) > 1:
        raise SpfError(f"{path}: lines have {' and '.join(map(str, sorted(widths)))} fields in different parts "
                       "of the file; every entry line needs the same")
    width = widths.pop()
    order = width - 1
    if coords is None:
        coords, values = np.zeros((0, order), dtype=INDEX_DTYPE), np.zeros(0)
    largest = coords.max(axis=0) if len(coords) else np.full(order, -1, dtype=INDEX_DTYPE)
    comm.Allreduce(MPI.IN_PLACE, largest, op=MPI.MAX)
    shape = tuple(int(m) + 1 for m in largest)
    return from_entries(layout, coords, values, shape, comm=comm, name=name)


def from_entries(layout, coords: np.ndarray, values: np.ndarray, shape, comm=None, name: str = "tensor",
                 duplicates: str = "refuse") -> DistributedTensor:
    """A DistributedTensor from entries spread over the ranks in any way (each rank passes
    some: 0-based ``coords[n, order]`` and ``values[n]`` inside ``shape``): the outer mode
    is cut where the summed histogram of its coordinates balances the nonzeros, and each
    entry is sent to the rank owning it.  ``duplicates``: "refuse" or "sum".  Collective."""
    comm = _communicator(comm)
    if duplicates not in ("refuse", "sum"):
        raise ArgumentError(f"duplicates must be 'refuse' or 'sum', got {duplicates!r}")
    shape = arguments.shape(shape, name)

    def checked():
        array = np.ascontiguousarray(np.asarray(coords), dtype=INDEX_DTYPE).reshape(-1, len(shape))
        numbers = np.ascontiguousarray(np.asarray(values), dtype=np.float64).reshape(-1)
        if len(numbers) != len(array):
            raise SpfError(f"tensor {name}: {len(array)} coordinates but {len(numbers)} values")
        outside = np.flatnonzero(np.any((array < 0) | (array >= np.asarray(shape)), axis=1)) if len(array) else []
        if len(outside):
            raise SpfError(f"tensor {name}: coordinate {tuple(int(c) for c in array[outside[0]])} is outside "
                           f"the shape {shape}")
        return array, numbers

    coords, values = agreed(comm, checked, f"reading the entries of {name}")

    def layout_mode():
        loaded = _resolve(_load_layout(layout), len(shape))
        if loaded.order != len(shape):
            raise SpfError(f"tensor {name}: layout {loaded.spec} stores order-{loaded.order} tensors, the data "
                           f"has order {len(shape)}")
        return (loaded, *outer_mode(loaded))

    loaded, mode, granule = agreed(comm, layout_mode, f"distributing {name}")
    counts, width = histogram(coords[:, mode], shape[mode], granule)
    comm.Allreduce(MPI.IN_PLACE, counts, op=MPI.SUM)
    bounds = balanced_bounds(counts, width, shape[mode], comm.size)
    owner = np.searchsorted(bounds, coords[:, mode], side="right") - 1
    coords, values = exchange(comm, coords, values, owner)
    return block(comm, loaded, coords, values, shape, mode, bounds, name, duplicates)


def _path(path, function: str) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError(f"{function}: path must be a str or a path, got {path!r}")
    return os.fspath(path)


def _open(path: str):
    try:
        return open(path, "rb")
    except OSError as error:
        raise SpfError(f"cannot read {path}: {error.strerror}") from None


def _mtx_header(path: str):
    """``((rows, cols, entries), field, symmetry, data offset)`` of a Matrix Market file."""
    with _open(path) as handle:
        banner = handle.readline()
        words = banner.decode("ascii", "replace").lower().split()
        if len(words) != 5 or words[0] != "%%matrixmarket" or words[1] != "matrix":
            raise SpfError(f"{path}:1: not a Matrix Market file (expected '%%MatrixMarket matrix coordinate "
                           f"real general' or the like, found {banner[:60]!r})")
        _, _, form, field, symmetry = words
        if form != "coordinate":
            raise SpfError(f"{path}:1: a Matrix Market {form} (dense) file; read_mtx reads coordinate files")
        if field not in ("real", "integer", "pattern", "double"):
            raise SpfError(f"{path}:1: {field} values are not stored by spf's layouts (real numbers only)")
        if symmetry not in ("general", "symmetric", "skew-symmetric"):
            raise SpfError(f"{path}:1: {symmetry} matrices are not read (general, symmetric, skew-symmetric)")
        number = 1
        while True:
            offset = handle.tell()
            line = handle.readline()
            number += 1
            if not line:
                raise SpfError(f"{path}: no size line after the banner")
            if line.strip() and not line.lstrip().startswith(b"%"):
                break
        parts = line.split()
        try:
            size = tuple(int(p) for p in parts)
        except ValueError:
            size = ()
        if len(size) != 3 or min(size) < 0:
            raise SpfError(f"{path}:{number}: expected the size line 'rows columns entries', found {line[:60]!r}")
        return size, field, symmetry, handle.tell()


def _line_start_at_or_after(handle, position: int, start: int, size: int) -> int:
    """The offset of the first line that starts at or after ``position`` (lines start at
    ``start`` and after each newline)."""
    if position <= start:
        return start
    if position >= size:
        return size
    handle.seek(position - 1)
    scanned = position - 1
    while True:
        chunk = handle.read(READ_BLOCK)
        if not chunk:
            return size
        found = chunk.find(b"\n")
        if found >= 0:
            return scanned + found + 1
        scanned += len(chunk)


def _parse_range(path: str, start: int, comm, comment: str, width: int | None, order: int | None):
    """The entries on the lines that start in this rank's share of ``path`` from ``start``:
    ``(coords 0-based, values, width)``; ``width``: fields per line (None: as the first line has)."""
    with _open(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        span = size - start
        a = _line_start_at_or_after(handle, start + span * comm.rank // comm.size, start, size)
        b = _line_start_at_or_after(handle, start + span * (comm.rank + 1) // comm.size, start, size)
        handle.seek(a)
        text = handle.read(b - a)
    marker = comment.encode()
    lines = numbers = None
    if marker in text or b"\r" in text or b"\n\n" in text or text.startswith(b"\n"):
        lines, numbers = _entry_lines(text, marker)
        body, count = b"\n".join(lines), len(lines)
    else:
        body, count = text, text.count(b"\n") + (0 if not text or text.endswith(b"\n") else 1)
    if count == 0:
        if width is None:
            return None, None, None
        return np.zeros((0, order), dtype=INDEX_DTYPE), np.zeros(0), width
    first = body[:body.find(b"\n")] if b"\n" in body else body
    if width is None:
        width = len(first.split())
        if width < 2:
            lines, numbers = _entry_lines(text, marker)
            raise SpfError(f"{path}:{_line_number(path, a, numbers[0])}: expected indices and a value, "
                           f"found {first[:60].decode('ascii', 'replace')!r}")
    table = _numbers(body)
    if table.size != width * count:
        if lines is None:  # a line of blanks only, or a malformed one: read line by line
            lines, numbers = _entry_lines(text, marker)
            body, count = b"\n".join(lines), len(lines)
            table = _numbers(body)
        if table.size != width * count:
            _locate_bad_line(path, a, lines, numbers, width)
    table = table.reshape(count, width)
    order = order if order is not None else width - 1
    indices = table[:, :order]
    finite = np.where(np.isfinite(indices), indices, 0.5)
    bad = (indices < 1) | (np.mod(finite, 1) != 0) | (indices > EXACT_INTEGERS)
    if bad.any():
        row = int(np.flatnonzero(np.any(bad, axis=1))[0])
        if lines is None:
            lines, numbers = _entry_lines(text, marker)
        found = lines[row].split()[:order]
        raise SpfError(f"{path}:{_line_number(path, a, numbers[row])}: indices must be positive integers "
                       f"(1-based) up to 2**53, found {[f.decode('ascii', 'replace') for f in found]}")
    coords = indices.astype(INDEX_DTYPE) - 1
    values = table[:, order].copy() if width > order else np.ones(count)
    return coords, values, width


def _numbers(body: bytes) -> np.ndarray:
    """The numbers of whitespace-separated text (an empty array when some token is none)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return np.fromstring(body, dtype=np.float64, sep=" ")
        except ValueError:  # numpy 2: a token that is no number
            return np.zeros(0)


def _entry_lines(text: bytes, marker: bytes) -> tuple[list[bytes], list[int]]:
    """The lines holding entries (not blank, not comments) and their numbers from 0."""
    raw = text.splitlines()
    numbers = [n for n, line in enumerate(raw) if line.strip() and not line.lstrip().startswith(marker)]
    return [raw[n] for n in numbers], numbers


def _locate_bad_line(path: str, offset: int, lines: list, numbers: list, width: int) -> None:
    for line, number in zip(lines, numbers):
        fields = line.split()
        if len(fields) != width:
            raise SpfError(f"{path}:{_line_number(path, offset, number)}: line has {len(fields)} fields, "
                           f"expected {width} (as on the first entry line)")
        try:
            [float(f) for f in fields]
        except ValueError:
            raise SpfError(f"{path}:{_line_number(path, offset, number)}: not a number in "
                           f"{line.decode('ascii', 'replace')!r}") from None
    raise SpfError(f"{path}: could not read the entries after byte {offset}")


def _line_number(path: str, offset: int, relative: int) -> int:
    """The 1-based number in the file of the ``relative``-th line after byte ``offset``;
    only for error messages: reads the file up to there."""
    with _open(path) as handle:
        return handle.read(offset).count(b"\n") + 1 + relative
