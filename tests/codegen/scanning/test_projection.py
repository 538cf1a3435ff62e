"""The count phase's nest (spf/codegen/scanning/projection.py): CSR's loops over rows and over each
row's segment become one loop over the positions, only where that is exact."""

from __future__ import annotations

import scipy.sparse as sp

import spf
from conftest import REPOSITORY
from spf.codegen.loops import Compute, Loop, render, walk
from spf.codegen.scanning.projection import count_nest


def loops(nodes) -> list[str]:
    return [node.variable for node in walk(nodes) if isinstance(node, Loop)]


def test_a_rows_segments_become_one_loop_over_the_positions():
    k = spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})
    nodes = k.scans[0].nodes
    assert loops(nodes) == ["pAi", "pAj"]
    counted = count_nest(nodes, "j", k.spaces[0].properties)
    assert loops(counted) == ["pAj"]
    text = render(counted)
    assert "A_rowPtr(0)" in text and "A_rowPtr(A_numRows)" in text and "append (j)" in text
    assert loops(nodes) == ["pAi", "pAj"]  # the kernel's own nest is left as it was


def test_no_collapse_where_the_parent_is_still_used_or_the_pointer_may_decrease(tmp_path):
    blocked = spf.compile("B(j,i) = A(i,j)", {"A": "BCSR(R=2, C=2)", "B": "CSR"})
    (entry,) = [node for node in walk(blocked.scans[0].nodes) if isinstance(node, Compute)]
    assert entry.padded == ("A_val",)  # (codegen.pipeline.mark_padded_factors)
    counted = count_nest(blocked.scans[0].nodes, "j", blocked.spaces[0].properties)
    assert loops(counted)[:2] == ["pAI", "pAJ"]  # the block row bounds the rows inside a block
    assert "A_val" in render(counted)  # padding zeros are no entries: the count reads them too
    path = tmp_path / "CSR_ANY_POINTER.layout"
    path.write_text((REPOSITORY / "layouts" / "CSR.layout").read_text()
                    .replace("layout CSR", "layout CSR_ANY_POINTER")
                    .replace("property monotonic(rowPtr, increasing, weak)\n", ""))
    k = spf.compile("B(j,i) = A(i,j)", {"A": str(path), "B": "CSR"})
    assert loops(count_nest(k.scans[0].nodes, "j", k.spaces[0].properties)) == ["pAi", "pAj"]
    a = sp.random(30, 20, density=0.2, format="csr", random_state=5)
    for kernel in (k, spf.compile("B(j,i) = A(i,j)", {"A": "CSR", "B": "CSR"})):
        assert (kernel(A=a).to_scipy() != a.T.tocsr()).nnz == 0
    b = sp.random(30, 20, density=0.2, format="bsr", random_state=6).tobsr((2, 2))
    assert abs(blocked(A=b).to_scipy() - b.T).max() == 0
