"""A dense order-2 layout whose struct fields are not in the axes' order (an extent of
another width first, a scalar after the values pointer), shared by tests/codegen/c/test_structs.py
(the bytes the short call writes) and tests/runtime/test_short_call.py (kernels over it)."""

from pathlib import Path

PERMUTED = """layout {name}
description "dense order-2 tensor, row-major, its fields in another order than the axes"

field N1: {first} = shape[1]
field N0: int = shape[0]
field vals: double[N0][N1]
{after}
shape N0, N1
relation [p0, p1] -> [i0, i1] :
    0 <= p0 < N0 and 0 <= p1 < N1 and
    i0 = p0 and i1 = p1
values vals[p0][p1]
padded
"""


def permuted_layout_file(folder: Path, name: str, first: str = "int", after: str = "") -> Path:
    """The layout file ``folder/name.layout``: N1 of type ``first`` before N0, then ``after``."""
    path = folder / f"{name}.layout"
    path.write_text(PERMUTED.format(name=name, first=first, after=after))
    return path
