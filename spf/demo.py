"""The demo: load a layout, pack a matrix, derive and check an iteration space.

With no file it builds its own input (the 5-point Laplacian of a small grid), so it
runs from a fresh install with nothing else present.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sparse

import spf


def laplacian_2d(size: int) -> sparse.csr_matrix:
    """The 5-point Laplacian of a size x size grid (size^2 rows)."""
    line = sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(size, size))
    identity = sparse.identity(size)
    return sparse.csr_matrix(sparse.kron(identity, line) + sparse.kron(line, identity))


def read_matrix(path: str) -> sparse.csr_matrix:
    import scipy.io
    try:
        return sparse.csr_matrix(scipy.io.mmread(path))
    except (OSError, ValueError) as error:
        raise spf.SpfError(f"cannot read Matrix Market file {path}: {error}") from None


def run(matrix_path: str | None = None, layout: str = "CSR", grid: int = 8, out=print) -> None:
    """Print each step of the pipeline for one matrix and one layout."""
    loaded = spf.load_layout(layout)
    if hasattr(loaded, "resolve"):
        loaded = loaded.resolve(2)
    if loaded.order != 2:
        raise spf.SpfError(f"the demo packs a matrix; layout {loaded.spec} has order {loaded.order}")
    if matrix_path:
        matrix, source = read_matrix(matrix_path), matrix_path
    else:
        matrix, source = laplacian_2d(grid), f"5-point Laplacian of a {grid}x{grid} grid"
    out(f"input: {source}: {matrix.shape[0]} x {matrix.shape[1]}, {matrix.nnz} nonzeros")
    out("")
    out(str(loaded))

    started = time.perf_counter()
    tensor = spf.pack(loaded, matrix, name="A")
    elapsed = time.perf_counter() - started
    out("")
    out(f"packed A into {loaded.spec} in {elapsed * 1e3:.1f} ms:")
    for name, value in tensor.fields.items():
        if isinstance(value, np.ndarray):
            preview = np.array2string(value.reshape(-1)[:8], separator=", ")
            more = " ..." if value.size > 8 else ""
            out(f"  {name:<12} {str(value.dtype):<8} {value.size:>9} elements  {preview}{more}")
        else:
            out(f"  {name:<12} {value}")
    coords, values, _ = tensor.to_coo()
    reference = matrix.tocoo()
    reference.sum_duplicates()
    if loaded.padded:
        reference.eliminate_zeros()
    expected = np.lexsort((reference.col, reference.row))
    same = (len(values) == reference.nnz
            and np.array_equal(coords[:, 0], reference.row[expected])
            and np.array_equal(coords[:, 1], reference.col[expected])
            and np.array_equal(values, reference.data[expected]))
    out(f"to_coo() gives back the input exactly: {'yes' if same else 'NO'}")

    expression = "y(i) = A(i,j) * x(j)"
    layouts = {"A": loaded, "x": "SV", "y": "Dense"}
    started = time.perf_counter()
    space = spf.iteration_space(expression, layouts)
    elapsed = time.perf_counter() - started
    out("")
    out(f"iteration space of {expression} with A in {loaded.spec}, x a sorted sparse vector "
        f"(derived in {elapsed * 1e3:.1f} ms):")
    out(str(space))

    x = np.zeros(matrix.shape[1])
    x[np.arange(0, matrix.shape[1], max(1, matrix.shape[1] // 10))] = 1.0
    tensors = {"A": tensor, "x": spf.pack("SV", x, name="x"),
               "y": spf.pack("Dense", np.zeros(matrix.shape[0]), name="y")}
    constants, functions = space[0].uf_tables(tensors)
    points = space[0].set.points(constants, functions)
    positions = [space[0].variables.index(i) for i in ("i", "j")]
    found = {tuple(p[k] for k in positions) for p in points}
    stored = tensor.stored()[0]
    inside = (stored[:, 0] < matrix.shape[0]) & (stored[:, 1] < matrix.shape[1])  # blocks may overhang
    expected_points = {(int(i), int(j)) for i, j in stored[inside] if x[j] != 0}
    out("")
    out(f"evaluated on the packed arrays, the space has {len(found)} points; a brute-force "
        f"loop finds {len(expected_points)}: {'they agree' if found == expected_points else 'MISMATCH'}")
