"""What the autoscheduler sees of a computation: operands, their storage levels, extents.

An expression ``out(...) = F1(...) * F2(...) * ...`` (one product, SparseAuto's
Einsum form) becomes a :class:`Problem`.  Each sparse operand carries its *levels*,
read off its layout relation: the logical index each physical index defines, in
storage order, and whether that level is dense (``i = p``) or compressed.  A loop
nest must visit a sparse operand's levels in that order (the sparse access
constraint); dense operands and temporaries constrain nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from spf.errors import AutoscheduleError
from spf.notation.statements import Statement, parse_statement
from spf.space.iteration_space import coordinate_definers, identity_physical, load_tensor_layout
from spf.space.patterns import infer_share

if TYPE_CHECKING:
    from spf.layout_library.model import Layout


@dataclass(frozen=True)
class Operand:
    """A factor of the product: an input tensor or a temporary.

    ``levels`` lists, for a sparse operand, the logical index of each storage level
    in order, with ``dense_levels`` saying which levels are dense; both are empty for
    a dense operand.  ``contains`` names the input tensors a temporary folds together
    (for an input, just its own name), which identifies a temporary's contents.
    """

    name: str
    indices: tuple[str, ...]
    levels: tuple[str, ...] = ()
    dense_levels: tuple[bool, ...] = ()
    contains: frozenset = field(default_factory=frozenset)
    temporary: bool = False

    @property
    def sparse(self) -> bool:
        return bool(self.levels)

    def index_set(self) -> frozenset:
        return frozenset(self.indices)

    def __str__(self) -> str:
        return f"{self.name}({','.join(self.indices)})"


@dataclass(frozen=True)
class Problem:
    """The product to schedule: ``output(output_indices) = prod(factors)``."""

    expression: str
    output: str
    output_indices: tuple[str, ...]
    factors: tuple[Operand, ...]
    layouts: Mapping[str, object]
    share: Mapping[str, str]
    accumulate: bool = False

    @functools.cached_property
    def indices(self) -> tuple[str, ...]:
        seen = list(self.output_indices)
        for factor in self.factors:
            seen += [i for i in factor.indices if i not in seen]
        return tuple(seen)

    @property
    def sparse_factors(self) -> tuple[Operand, ...]:
        return tuple(f for f in self.factors if f.sparse)

    @property
    def shared_output_source(self) -> str | None:
        """The input whose index arrays a sparse output shares (it must be written with it)."""
        return self.share.get(self.output)


def storage_levels(layout: Layout, access_indices: tuple[str, ...],
                   tensor: str) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The logical index and denseness of each storage level of ``tensor``'s layout.

    A layout all of whose levels are dense (``i = p`` over the full extent) is a dense
    operand and gets no levels.  Layouts where one physical index defines several
    coordinates (COO) or a coordinate needs several physical indices (BCSR, DIA) are
    refused: the schedule trees here bind one index per loop.
    """
    definers = coordinate_definers(layout)
    by_level: dict[int, list[str]] = {}
    for logical, position in definers.items():
        by_level.setdefault(position, []).append(logical)
    rename = dict(zip(layout.logical, access_indices))
    levels: list[str] = []
    dense: list[bool] = []
    for position, physical in enumerate(layout.physical):
        defined = by_level.get(position, [])
        if len(defined) != 1:
            what = "no coordinate" if not defined else f"coordinates {', '.join(defined)} together"
            raise AutoscheduleError(
                f"autoschedule: tensor {tensor} in layout {layout.spec}: physical index {physical} defines "
                f"{what}; the autoscheduler needs one coordinate per storage level "
                "(e.g. Dense, CSR, CSC, DCSR, DCSC, SV, CSF3, CSF4, CSF3_DENSE_LAST)")
        levels.append(rename[defined[0]])
        dense.append(identity_physical(layout, defined[0]) == physical)
    if all(dense):
        return (), ()
    return tuple(levels), tuple(dense)


def make_problem(expression: str | Statement, layouts: Mapping[str, object],
                 share: Mapping[str, str] | None = None) -> Problem:
    """Read the expression and the layouts into a :class:`Problem` (or explain why not)."""
    from spf import arguments
    statement = expression if isinstance(expression, Statement) else parse_statement(expression)
    layouts = arguments.layout_mapping(layouts)
    given_share = share
    share = arguments.share_mapping(share)
    if len(statement.terms) != 1:
        raise AutoscheduleError("autoschedule: the expression must be one product of tensors "
                                f"(got {len(statement.terms)} terms)")
    term = statement.terms[0]
    if term.coefficient != 1:
        raise AutoscheduleError("autoschedule: constant coefficients are not supported; fold them into a tensor")
    names = [a.tensor for a in term.factors]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise AutoscheduleError(f"autoschedule: tensor {repeated[0]} appears twice in the product")
    output = statement.output
    if not output.indices:
        raise AutoscheduleError(f"autoschedule: the output {output.tensor} is a scalar; fused schedules write an "
                                "output with indices (compile the product without a schedule)")
    diagonal = next((access for access in term.factors if len(set(access.indices)) < len(access.indices)), None)
    if diagonal is not None:
        raise AutoscheduleError(f"autoschedule: tensor {diagonal.tensor} is read on a diagonal "
                                f"({diagonal.tensor}({','.join(diagonal.indices)})), which the search does not "
                                "model (compile the product without a schedule)")
    missing = [t for t in [output.tensor, *names] if t not in layouts]
    if missing:
        raise AutoscheduleError(f"autoschedule: no layout given for tensor {missing[0]}")
    share = dict(share or {})
    factors = []
    loaded = {}
    for access in term.factors:
        layout = loaded[access.tensor] = load_tensor_layout(layouts[access.tensor], len(access.indices),
                                                            access.tensor)
        levels, dense = storage_levels(layout, access.indices, access.tensor)
        factors.append(Operand(access.tensor, access.indices, levels, dense, frozenset([access.tensor])))
    if output.indices:
        layout = loaded[output.tensor] = load_tensor_layout(layouts[output.tensor], len(output.indices),
                                                            output.tensor)
        levels, _ = storage_levels(layout, output.indices, output.tensor)
        if levels and output.tensor not in share and given_share is None:
            inference = infer_share(statement, loaded)  # as spf.compile does (spf.space.patterns)
            if inference is not None:
                share[output.tensor] = inference.source
        if levels and output.tensor not in share:
            raise AutoscheduleError(
                f"autoschedule: the output {output.tensor} is sparse ({layout.spec}) and fused schedules "
                f"write dense or shared outputs, and its pattern is no prefix of the one sparse input's levels; "
                f"compile it without a schedule (spf.compile assembles its pattern), give it a dense layout, or "
                f"share= the index arrays of the input with its sparsity")
    if len(set(output.indices)) != len(output.indices):
        raise AutoscheduleError("autoschedule: an output index is repeated")
    text = str(statement) if not isinstance(expression, str) else expression
    return Problem(text, output.tensor, tuple(output.indices), tuple(factors), dict(layouts), share,
                   statement.accumulate)
