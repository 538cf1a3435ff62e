"""Masked lookups: a Bitmap find whose body is only its loop's register-sum term is looked up
and added without a branch.

SpMSpV ``y(i) = A(i,j) * x(j)`` with a bitmap of x's indices tests, per entry of A, whether
x has its column.  At x densities of a few percent and more the test's outcome is random,
and a mispredicted branch per hit made the lookup 2-9x slower than dense SpMV (0.28x
GraphBLAS on bcsstk13 at density .5).  Masked, every probe reads the table's mark and
position and the term ``A(i,j) * x(p)`` at that position, and adds the term with its bits
cleared where the mark is 0 (``spf_masked``, spf_base.h): exactly the sum of the present terms, as a
register sum starts at +0.0 and ``s + +0.0 == s``, whatever a masked term holds (inf, NaN).

Masking costs a load of the table's position and of the term on every probe, where a
predicted branch costs nothing: it pays off only when hits are frequent.  So the kernel
decides per fill (``spf_bitmap.masked``, the same for every key: a branch that is always
predicted): masked where the fill put at least 1/SPF_BITMAP_MASKED_SHARE of the table's
capacity, the branch on the hit otherwise.  Reading the term where the key is absent is
safe because every position of the table is 0 or a position the current fill put
(spf_bitmap_fill), and, the fill having put a value, both are positions of the
searched arrays'.  The find qualifies (:func:`maskable`) when

* its template is a bitmap and its body is exactly one Compute, the register sum's term
  of the loop whose body it is in, and the sum
  has no flag of terms added (which would need the hit too) and no stream;
* its key is a value of an index array read in the loop (``_u = A_colIdx(pAj)``), which
  the array's range property keeps inside the table; a key computed from loops (WARP24's
  ``j - 4*g`` under a dense operand's columns) may fall outside it;
* no factor reads at the find's dimension (the key): a factor read at the key is a read the
  find did not prove in bounds for an absent key (the find's position is; so are the
  enclosing loops' variables, read whether or not the key is present).
"""

from __future__ import annotations

from spf.space.expressions import UFCall

from spf.codegen.loops import Assign, Compute, Find, Loop, Node, walk


def mark_masked_lookups(nodes: list[Node]) -> None:
    """Set ``Find.masked`` on every bitmap find that is its loop's register-sum term (see
    the module's docstring)."""
    for loop in walk(nodes):
        if isinstance(loop, Loop):
            for find in loop.body:
                if isinstance(find, Find) and maskable(loop, find):
                    find.masked = True


def maskable(loop: Loop, find: Find) -> bool:
    """Whether ``find``, in the body of ``loop``, may be looked up masked."""
    register_sum = loop.register_sum
    if find.template.kind != "bitmap" or register_sum is None or register_sum.counts_terms:
        return False
    if len(find.body) != 1 or find.body[0] is not register_sum.target:
        return False
    compute: Compute = find.body[0]
    if compute.stream is not None or compute.output is None or not key_is_an_index_value(loop, find):
        return False
    return not any(find.dimension in index.names() for _, indices, _ in compute.factors for index in indices)


def key_is_an_index_value(loop: Loop, find: Find) -> bool:
    """Whether the find's key is a value of an index array read in the loop (``_u =
    A_colIdx(pAj)``), which the array's range property bounds to the table's values.  A key
    computed from loops (WARP24's ``j - 4*g``) may fall outside the table, which a masked
    lookup reads unchecked (a segfault the fuzzer found)."""
    key = find.key
    if key.constant != 0 or len(key.terms) != 1 or key.terms[0][1] != 1:
        return False
    name = key.terms[0][0]
    return any(isinstance(node, Assign) and node.variable == name and isinstance(node.value, UFCall)
               for node in loop.body)
