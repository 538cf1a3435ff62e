"""Masks: GraphBLAS's ``C<M> = ...`` and ``C<¬M> = ...`` (issue 29, item 3).

``mask="M"`` restricts the output to M's entries, ``mask="~M"`` to the positions where M
has none.  An entry of M is a stored position of a sparse layout, or, with
``mask_values=True``, a stored position whose value is not zero; a layout without index
arrays (Dense1, ...) stores every position, so its entries are its nonzero values unless
``mask_values=False`` says otherwise.

A mask is compiled as one more factor of every term, read for where its entries are and
never for its value (a *pattern* factor: spf.codegen.passes.pattern_factors).  How it is
stored decides how the loops meet it (:func:`mask_layout`): a sparse mask's own layout
intersects (``C<L> = L * L'`` walks L's entries); a complemented one, or one of values,
becomes a 0/1 ``keep`` array in a mask layout (``Mask1``, ``Mask2``) whose relation
keeps the positions where it is 1, so scanning tests it where the loops bind the output
position and skips the rest (a pull over a CSC matrix skips masked-out columns whole).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from spf.errors import SpfError
from spf.layout_library.loader import BUILTIN_DIRECTORY
from spf.notation.statements import Access, Statement

MASK_DIRECTORY = BUILTIN_DIRECTORY / "masks"
KEEP_LAYOUTS = {order: MASK_DIRECTORY / f"Mask{order}.layout" for order in (1, 2)}
"""The mask layout of each output order: a dense 0/1 ``keep`` array (layouts/masks/Mask1.layout;
not among the built-ins users pack data into, as only a mask's call makes its keep array)."""

_MASK = re.compile(r"\s*(~?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*")


@dataclass(frozen=True)
class Mask:
    """``mask=`` as given: the tensor, whether complemented (``~M``), and whether its entries
    are its nonzero values (True), its stored positions (False) or as its layout says (None)."""

    tensor: str
    complemented: bool = False
    values: bool | None = None

    def __str__(self) -> str:
        return ("~" if self.complemented else "") + self.tensor


def parse_mask(text: str, values: bool | None = None) -> Mask:
    """``"M"`` or ``"~M"`` as a :class:`Mask`, or an SpfError saying what a mask looks like."""
    match = _MASK.fullmatch(text)
    if match is None:
        raise SpfError(f"mask={text!r}: expected a tensor name, or ~ and a tensor name for its complement "
                       "(mask=\"M\", mask=\"~M\")")
    return Mask(match.group(2), bool(match.group(1)), values)


@dataclass(frozen=True)
class MaskPlan:
    """How a kernel meets its mask: the name of the tensor the compiled statement reads for it
    (``factor``), in which layout (the mask's own, or a mask layout of ``keep``), and whether
    the call turns the mask's data into a ``keep`` array (``keeps``) or drops its stored zeros
    (``drops_zeros``) first."""

    mask: Mask
    factor: str
    layout: object  # the mask's own layout as given (a spec or a Layout), or a KEEP_LAYOUTS path
    values: bool  # the mask's entries are its nonzero values
    keeps: bool  # the call computes the 0/1 keep array

    @property
    def drops_zeros(self) -> bool:
        """A sparse mask of values, intersected: its stored zeros are no entries."""
        return self.values and not self.keeps

    def describe(self) -> str:
        """explain()'s line: what the mask keeps, and how the loops meet it."""
        entries = "nonzero values" if self.values else "stored positions"
        kept = f"the positions without {self.mask.tensor}'s {entries}" if self.mask.complemented \
            else f"{self.mask.tensor}'s {entries}"
        layout = getattr(self.layout, "spec", None) or getattr(self.layout, "stem", None) or self.layout
        how = (f"a 0/1 keep array {self.factor} in {layout}, tested where the loops bind the output's "
               "position (masked-out outputs are skipped)") if self.keeps else \
            f"intersected with {self.mask.tensor}'s entries in its layout {layout}"
        return f"mask {self.mask}: the output is computed only at {kept}; {how}"


def plan_mask(mask: Mask, statement: Statement, layouts: dict, dense: bool, padded: bool = False) -> MaskPlan:
    """How ``statement`` meets ``mask`` whose layout (``layouts[mask.tensor]``) is ``dense``
    (no index arrays) or ``padded`` (its stored zeros are no entries: BCSR, ELL, ...: a keep
    array is made of its entries), or an SpfError naming what does not fit."""
    output = statement.output
    if mask.tensor not in layouts:
        raise SpfError(f"mask={str(mask)!r}: {mask.tensor} has no layout; give it one in layouts "
                       f"(e.g. {mask.tensor!r}: 'Dense1' for a numpy array)")
    if mask.tensor == output.tensor:
        raise SpfError(f"mask={str(mask)!r}: the output {output.tensor} cannot be its own mask")
    if not output.indices:
        raise SpfError(f"mask={str(mask)!r}: the output {output.tensor} is a scalar, which a mask cannot restrict")
    if len(set(output.indices)) != len(output.indices):
        raise SpfError(f"mask={str(mask)!r}: the output {output} repeats an index")
    for term in statement.terms:
        if not term.factors:
            raise SpfError(f"mask={str(mask)!r}: the term {term} reads no tensor, so it has no entries to mask")
    values = dense if mask.values is None else mask.values
    keeps = mask.complemented or dense or padded
    if keeps and len(output.indices) not in KEEP_LAYOUTS:
        raise SpfError(f"mask={str(mask)!r}: a complemented mask, or one of a dense layout, is supported for outputs "
                       f"of order {' and '.join(map(str, KEEP_LAYOUTS))}; {output} has order {len(output.indices)}")
    # the mask's own name, unless the statement reads it as an operand too (C<L> = L * L')
    factor = _fresh(f"{mask.tensor}_mask", {*statement.tensors, *layouts}) if mask.tensor in statement.tensors \
        else mask.tensor
    layout = KEEP_LAYOUTS[len(output.indices)] if keeps else layouts[mask.tensor]
    return MaskPlan(mask, factor, layout, values, keeps)


def masked_statement(statement: Statement, plan: MaskPlan) -> Statement:
    """``statement`` with the mask's factor, at the output's indices, in every term."""
    access = Access(plan.factor, statement.output.indices)
    terms = tuple(replace(term, factors=term.factors + (access,)) for term in statement.terms)
    masked = replace(statement, terms=terms)
    return replace(masked, text=str(masked))


def _fresh(base: str, taken) -> str:
    """``base``, or ``base_2``, ... : a tensor name the statement does not use."""
    name, count = base, 1
    while name in taken:
        count += 1
        name = f"{base}_{count}"
    return name
