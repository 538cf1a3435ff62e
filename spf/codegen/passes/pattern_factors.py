"""Pattern factors: tensors a statement reads for where their entries are, never for their
values (a mask, spf.notation.masks).

A masked statement ``y(j) = A(i,j) * q(i)`` under ``mask="~v"`` is compiled as
``y(j) = A(i,j) * q(i) * v_mask(j)`` with ``v_mask`` in a mask layout (``Mask1``: the
positions whose ``keep`` is 1), so the iteration space holds only the kept outputs and
scanning tests ``keep`` where the loops bind the position: masked-out outputs are skipped
by the loops, not computed and dropped.  A mask in a sparse layout (``mask="M"``, M in
CSR) intersects the same way, found by the finds Z3 proves.  Once the nest is scanned,
the mask's factor is taken out of every product: ⊗ of a mask's value would be wrong under
most semirings (``min_plus``: ``+ 1``), and the read is wasted under all of them.
"""

from __future__ import annotations

from spf.codegen.loops import Compute, Node, walk


def drop_pattern_factors(nodes: list[Node], arrays: set[str]) -> None:
    """Remove the factors reading ``arrays`` (the pattern tensors' values arrays) from every
    statement in ``nodes``."""
    for node in walk(nodes):
        if isinstance(node, Compute):
            node.factors = [factor for factor in node.factors if factor[0] not in arrays]
