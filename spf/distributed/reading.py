"""Reading a Matrix Market (.mtx) or FROSTT (.tns) file in parallel: each rank parses
the lines that start in its byte range of the file, the ranks count the entries of each
outer coordinate (a histogram summed with Allreduce) to cut the outer mode into blocks
holding equal numbers of nonzeros, and send each entry to the rank owning its outer
coordinate (Alltoallv, in rounds: :mod:`.sending`).  The text is parsed in chunks of
:data:`CHUNK_BYTES` and kept as compact arrays (int32 coordinates where they fit), so no
rank ever holds more than its byte range's entries and its block, and never the text
of more than a chunk.  :func:`from_entries` is that exchange for entries a program made itself.
"""

from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING, Sequence

import numpy as np
from mpi4py import MPI

from spf import arguments
from spf.errors import ArgumentError, SpfError, UNNAMED
from spf.layout_library.layout_input import load_layout_argument, resolve_family
from spf.runtime.memory import give_back
from spf.runtime.value_checks import EXACT_INTEGERS, INDEX_DTYPE

from spf.distributed.collective import agreed
from spf.distributed.partition import balanced_bounds, binning, count_into, outer_mode
from spf.distributed.sending import SELECT, Entries, plan_rounds, send_and_pack
from spf.distributed.tensor import DistributedTensor, communicator

if TYPE_CHECKING:
    from spf.arguments import LayoutLike

READ_BLOCK = 1 << 16
CHUNK_BYTES = 1 << 20
"""Text parsed at once: the chunk, its table of float64 and its entries are the parsing's temporaries."""


def read_mtx(path: str | os.PathLike, layout: LayoutLike = "CSR", comm: MPI.Comm | None = None,
             name: str = "A") -> DistributedTensor:
    """A Matrix Market coordinate file (real, integer or pattern; general, symmetric or
    skew-symmetric, whose other triangle is added) distributed in ``layout``.
    Duplicate entries are summed, as scipy does.  Collective."""
    comm = communicator(comm)
    path = _path(path, "read_mtx")
    header = agreed(comm, lambda: _mtx_header(path) if comm.rank == 0 else None, f"reading {path}")
    header = comm.bcast(header, root=0)
    (rows, cols, declared), field, symmetry, start = header
    shape = (rows, cols)

    def check_and_expand(coords, values):
        if field == "pattern":
            values = np.ones(len(coords))
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

    def parsed():
        chunks, found, _ = _parse_range(path, start, comm, "%", 2 if field == "pattern" else 3, 2, check_and_expand)
        return chunks, found

    chunks, found = agreed(comm, parsed, f"reading {path}")
    found = comm.allreduce(found, op=MPI.SUM)
    if found != declared:
        raise SpfError(f"{path}: the size line declares {declared} entries, the file holds {found}")
    return _distribute(comm, layout, Entries(chunks, 2, owned=True), shape, name, "sum")


def read_tns(path: str | os.PathLike, layout: LayoutLike = "COO3", comm: MPI.Comm | None = None,
             name: str = "B") -> DistributedTensor:
    """A FROSTT ``.tns`` file (``i j k ... value`` per line, 1-based; the shape is the
    largest index per mode) distributed in ``layout``, as ``spf.pack(layout,
    spf.read_tns(path))`` would store it whole.  Duplicate coordinates are refused.  Collective."""
    comm = communicator(comm)
    path = _path(path, "read_tns")
    chunks, _, width = agreed(comm, lambda: _parse_range(path, 0, comm, "#", None, None), f"reading {path}")
    widths = {w for w in comm.allgather(width) if w is not None}
    if not widths:
        raise SpfError(f"{path}: no entries")
    if len(widths) > 1:
        raise SpfError(f"{path}: lines have {' and '.join(map(str, sorted(widths)))} fields in different parts "
                       "of the file; every entry line needs the same")
    width = widths.pop()
    order = width - 1
    largest = np.full(order, -1, dtype=np.int64)
    for coords, _ in chunks:
        if len(coords):
            np.maximum(largest, coords.max(axis=0), out=largest)
    comm.Allreduce(MPI.IN_PLACE, largest, op=MPI.MAX)
    shape = tuple(int(m) + 1 for m in largest)
    return _distribute(comm, layout, Entries(chunks, order, owned=True), shape, name, "refuse")


def from_entries(layout: LayoutLike, coords: np.ndarray, values: np.ndarray, shape: Sequence[int],
                 comm: MPI.Comm | None = None, name: str = UNNAMED,
                 duplicates: str = "refuse") -> DistributedTensor:
    """A DistributedTensor from entries spread over the ranks in any way (each rank passes
    some: 0-based ``coords[n, order]`` and ``values[n]`` inside ``shape``): the outer mode
    is cut where the summed histogram of its coordinates balances the nonzeros, and each
    entry is sent to the rank owning it.  ``duplicates``: "refuse" or "sum".  Collective."""
    comm = communicator(comm)
    if duplicates not in ("refuse", "sum"):
        raise ArgumentError(f"duplicates must be 'refuse' or 'sum', got {duplicates!r}")
    shape = arguments.shape(shape, name)

    def checked():
        array = np.asarray(coords)
        if array.dtype.kind not in "iu":  # integers are used as they are (no copy); others become int64
            array = array.astype(INDEX_DTYPE)
        array = array.reshape(-1, len(shape))
        numbers = np.ascontiguousarray(np.asarray(values), dtype=np.float64).reshape(-1)
        if len(numbers) != len(array):
            raise SpfError(f"tensor {name}: {len(array)} coordinates but {len(numbers)} values")
        extents = np.asarray(shape)
        for start in range(0, len(array), SELECT):
            window = array[start:start + SELECT]
            outside = np.flatnonzero(np.any((window < 0) | (window >= extents), axis=1))
            if len(outside):
                raise SpfError(f"tensor {name}: coordinate {tuple(int(c) for c in window[outside[0]])} is outside "
                               f"the shape {shape}")
        return array, numbers

    coords, values = agreed(comm, checked, f"reading the entries of {name}")
    return _distribute(comm, layout, Entries([(coords, values)], len(shape), owned=False), shape, name, duplicates)


def _distribute(comm, layout, entries: Entries, shape: tuple[int, ...], name: str,
                duplicates: str) -> DistributedTensor:
    """The outer mode cut where the summed histogram of its coordinates balances the
    nonzeros, and each rank's block packed from the entries sent to it.  Collective."""
    def layout_mode():
        loaded = resolve_family(load_layout_argument(layout), len(shape))
        if loaded.order != len(shape):
            raise SpfError(f"tensor {name}: layout {loaded.spec} stores order-{loaded.order} tensors, the data "
                           f"has order {len(shape)}")
        return (loaded, *outer_mode(loaded))

    loaded, mode, granule = agreed(comm, layout_mode, f"distributing {name}")
    bins, width = binning(shape[mode], granule)
    total = comm.allreduce(len(entries), op=MPI.SUM)
    counts = np.zeros(bins, dtype=np.int32 if total < 2**31 else np.int64)  # (the largest array besides the entries)
    for outer in entries.outer(mode):
        count_into(counts, outer, width)
    for start in range(0, bins, SELECT):  # in slices: MPI's own buffers stay small
        comm.Allreduce(MPI.IN_PLACE, counts[start:start + SELECT], op=MPI.SUM)
    bounds = balanced_bounds(counts, width, shape[mode], comm.size)
    rounds = plan_rounds(loaded, mode, granule, shape, counts, width, bounds, comm.rank)
    del counts  # (the largest array besides the entries: freed before they are sent)
    return send_and_pack(comm, loaded, mode, shape, bounds, rounds, entries, name, duplicates)


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


def _parse_range(path: str, start: int, comm, comment: str, width: int | None, order: int | None,
                 then=None) -> tuple[list, int, int | None]:
    """The entries on the lines that start in this rank's share of ``path`` from ``start``,
    parsed :data:`CHUNK_BYTES` of text at a time: ``(chunks of (coords 0-based, values),
    entries in the file, width)``; ``width``: fields per line (None: as the first entry line
    has); ``then(coords, values)``: applied to each chunk's entries (checks, the mirrored
    triangle).  Coordinates are kept as int32 where they fit."""
    chunks, found = [], 0
    with _open(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        span = size - start
        a = _line_start_at_or_after(handle, start + span * comm.rank // comm.size, start, size)
        b = _line_start_at_or_after(handle, start + span * (comm.rank + 1) // comm.size, start, size)
        while a < b:
            end = min(b, _line_start_at_or_after(handle, a + CHUNK_BYTES, a, size))
            handle.seek(a)
            text = handle.read(end - a)
            coords, values, width = _parse_text(path, text, a, comment, width, order)
            del text
            if coords is not None:
                found += len(values)
                if then is not None:
                    coords, values = then(coords, values)
                small = len(coords) == 0 or int(coords.max()) < np.iinfo(np.int32).max
                chunks.append((coords.astype(np.int32) if small else coords, values))
                del coords, values
                give_back()
            a = end
    return chunks, found, width


def _parse_text(path: str, text: bytes, a: int, comment: str, width: int | None, order: int | None):
    """The entries of ``text`` (the bytes of ``path`` from offset ``a``): ``(coords, values,
    width)``, or ``(None, None, width)`` when it holds none."""
    marker = comment.encode()
    lines = numbers = None
    if marker in text or b"\r" in text or b"\n\n" in text or text.startswith(b"\n"):
        lines, numbers = _entry_lines(text, marker)
        body, count = b"\n".join(lines), len(lines)
    else:
        body, count = text, text.count(b"\n") + (0 if not text or text.endswith(b"\n") else 1)
    if count == 0:
        return None, None, width
    first = body[:body.find(b"\n")] if b"\n" in body else body
    if width is None:
        width = len(first.split())
        if width < 2:
            lines, numbers = _entry_lines(text, marker)
            raise SpfError(f"{path}:{_line_number(path, a, numbers[0])}: expected indices and a value, "
                           f"found {first[:60].decode('ascii', 'replace')!r}")
    table = _numbers(body)
    del body
    if table.size != width * count:
        if lines is None:  # a line of blanks only, or a malformed one: read line by line
            lines, numbers = _entry_lines(text, marker)
            count = len(lines)
            table = _numbers(b"\n".join(lines))
        if table.size != width * count:
            _locate_bad_line(path, a, lines, numbers, width)
    table = table.reshape(count, width)
    order = order if order is not None else width - 1
    indices = table[:, :order]
    finite = np.where(np.isfinite(indices), indices, 0.5)
    bad = (indices < 1) | (np.mod(finite, 1) != 0) | (indices > EXACT_INTEGERS)
    del finite
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
