"""spf: a compiler for sparse tensor algebra built on the sparse polyhedral framework.

The public interface (DESIGN.md):

* :func:`layouts`, :func:`load_layout`: the declarative layout library;
* :func:`pack`, :class:`Tensor`, :func:`read_tns`: packing data into layouts (inspectors);
* :func:`convert`: a Tensor in another layout, by a generated copy kernel and assembly;
* :func:`parse_statement`: tensor index notation;
* :func:`iteration_space`: the iteration space of a statement over its layouts;
* :class:`UFSet`: integer sets and relations with uninterpreted functions on islpy;
* :func:`compile`: C kernels from expressions and layouts (:mod:`spf.codegen`);
* :func:`einsum`: NumPy's einsum on scipy, pydata, spf and numpy operands, layouts inferred.
"""

from __future__ import annotations

import os as _os
from typing import TYPE_CHECKING, Any, Sequence

# Parallel kernels' threads spin briefly, then sleep, while they wait (libgomp reads this
# once, when the first parallel kernel loads it; what the user set is kept).  Spinning
# long (libgomp's default, milliseconds) made a parallel kernel beside another busy
# process 5-30x slower than its serial run; sleeping at once costs 50-130 us per parallel
# region on a VM (waking a sleeping virtual CPU), more than many kernels' work.  3000
# spins cover the gap between calls made back to back (30-100 us here).
if "OMP_WAIT_POLICY" not in _os.environ and "GOMP_SPINCOUNT" not in _os.environ:
    _os.environ["OMP_WAIT_POLICY"] = "passive"
    _os.environ["GOMP_SPINCOUNT"] = "3000"

from spf import arguments
from spf.errors import (ArgumentError, CacheWarning, IterationSpaceError, LayoutError, LayoutSpecError, NotationError,
                        OutOfMemoryError, PackError, ParseError, PropertyViolation, RecipeError, ShortCallWarning,
                        SpfError, SpfInternalError, UnknownLayoutError)
from spf.notation.statements import Statement, parse_statement
from spf.runtime.conversion import convert
from spf.runtime.einsum import einsum, einsum_kernel
from spf.runtime.kernel import Kernel, callable_kernel
from spf.runtime.masked import MaskedKernel, masked_kernel
from spf.runtime.packing import from_fields, pack
from spf.runtime.tensor import Tensor
from spf.runtime.threads import available_threads
from spf.runtime.user_semirings import monoid, operator
from spf.runtime.user_data import read_tns
from spf.scheduling.recipe import Recipe, recipe
from spf.space.iteration_space import IterationSpace, StatementSpace, iteration_space
from spf.space.sets import UFSet

if TYPE_CHECKING:
    from spf.runtime.autoschedule import AutoSchedule, Candidate
    from spf.layout_library.model import Layout, LayoutFamily


def compile(expression: str, layouts: dict, find: str = "auto", share: dict | None = None,
            parallel: bool = False, schedule: Recipe | Candidate | None = None,
            order: Sequence[str] | None = None, build: bool = True, semiring: str = "plus_times",
            mask: str | None = None, mask_values: bool | None = None, accumulate: str | None = None) -> Kernel:
    """Compile ``expression`` for one layout per tensor into a callable C kernel.

    ``find``: "auto" (every proven template in the order direct, seqiter, hashmap,
    bitmap, binary, linear, one variant each, picked per call by cost), or one of "direct",
    "seqiter", "binary", "hashmap", "bitmap", "linear" (refused with the failed assumption where
    it is not proven valid; a find whose match is a known position is always direct).  ``share={"C": "A"}``: the output C
    uses input A's index arrays, so the result is computed *restricted to A's
    pattern* (a masked product, GraphBLAS's ``C<A> = ...``: entries outside the
    pattern are dropped, entries of it that no term reaches are stored zeros); every
    term must read A (A's prefix of levels, when C's layout is one: DCSR from CSF3).  Without
    ``share``, a sparse output whose layout provably is a prefix of the one sparse input's
    levels shares them as if ``share`` named it (TTV into DCSR from CSF3, SDDMM into CSR;
    ``explain()`` says so); ``share={}`` assembles it instead.  For SDDMM (``share={"A": "B"}``) that is the whole result; for
    triangle counting, ``C(i,j) = A(i,k) * B(k,j)`` with ``share={"C": "A"}`` on a
    graph's adjacency G (``A=G, B=G``) counts the paths i-k-j of each edge i-j, and
    their sum is six times the triangles.  ``order``: a loop order (all variables of
    the iteration space, e.g. to drive SpMSpV from x's nonzeros).  ``schedule``: a
    recipe (:func:`recipe`): loop order, find templates per tensor, parallel loops.
    ``parallel=True``: OpenMP on the outermost loop the dependence test proves free of
    dependences.  ``schedule`` may also be a fused candidate from
    :func:`autoschedule` (``autoschedule(...).select(**tensors)``).
    ``build=True`` (the default) compiles the C, the assembly of a sparse output included,
    before returning, so the first call compiles nothing (a compile over 2 s says so on
    standard error); ``build=False`` leaves that to the first call (or ``kernel.build()``),
    for a caller that only reads ``c_source`` or ``explain()``.
    ``semiring``: what ``+`` and ``*`` mean, ``"<monoid>_<operator>"`` as GraphBLAS names it
    (``"min_plus"``, ``"lor_land"``, ``"plus_pair"``, ...; spf.notation.semirings): ⊗ applies
    where the operands have entries, ⊕ reduces the products, and a dense output's entry no
    product reaches holds ⊕'s identity (+inf under min).  For now into dense or scalar
    outputs (or one sharing an input's pattern), without coefficients or fused schedules.
    ``mask``: ``"M"`` computes the output only at M's entries, ``"~M"`` only where M has none
    (GraphBLAS's ``C<M>``, ``C<¬M>``; M is a tensor of ``layouts``, passed at call by its name).
    M's entries are its stored positions, or with ``mask_values=True`` its nonzero values
    (the default for a layout without index arrays: a numpy array's nonzeros).  The loops skip
    masked-out outputs rather than compute and drop them (spf.notation.masks); a dense
    output's masked-out entries hold ⊕'s identity.  ``accumulate``: a monoid (⊕'s name:
    ``"plus"``, ``"min"``, ...) by which a dense output the call passes by its name is updated
    in place, ``y = y ⊕ result`` where the result has entries (``accum=`` in GraphBLAS); a
    sparse output passed by its name is merged with the result into a new Tensor (their
    union, the monoid of both where both have an entry), by any monoid.
    """
    arguments.layout_mapping(layouts)
    arguments.share_mapping(share)
    arguments.flag(parallel, "parallel")
    arguments.text(find, "find", "auto, seqiter, binary, hashmap, bitmap or linear")
    arguments.names(order, "order", "every variable of the iteration space, e.g. ['pAi', 'i', 'pAj', 'j']")
    arguments.flag(build, "build")
    arguments.text(semiring, "semiring", "a semiring name such as plus_times, min_plus or lor_land")
    if mask is not None:
        arguments.text(mask, "mask", 'a tensor name, or ~ and a tensor name: mask="M", mask="~M"')
    if mask_values is not None:
        arguments.flag(mask_values, "mask_values")
        if mask is None:
            raise ArgumentError("mask_values= says what a mask's entries are; give the mask too (mask=\"M\")")
    if accumulate is not None:
        arguments.text(accumulate, "accumulate", "a monoid name such as plus, min or max")
    if mask is not None or accumulate is not None:
        kernel = masked_kernel(expression, layouts, mask, mask_values, accumulate, find=find, share=share,
                               parallel=parallel, schedule=schedule, order=order, semiring=semiring)
    else:
        kernel = callable_kernel(expression, layouts, find=find, share=share, parallel=parallel,
                                 schedule=schedule, order=order, semiring=semiring)
    return kernel.build() if build else kernel


def autoschedule(expression: str, layouts: dict, constraints: Sequence[str] | None = None, share: dict | None = None,
                 **options: Any) -> AutoSchedule:
    """Fused schedules with temporaries for a product of several tensors.

    Returns an :class:`spf.runtime.autoschedule.AutoSchedule`: ``.candidates`` (each with
    ``.time_cost`` and ``.memory_cost``, sympy expressions over ``I, J, ...`` and
    ``nnz_B, nnz_B_i, ...``), ``.select(**tensors)`` (the run-time choice, to pass as
    ``schedule=`` to :func:`compile`) and ``.explain()``.  ``constraints``: relations
    such as ``"16 <= K <= 128"`` or ``"nnz_B <= 0.01*I*J"`` used to prune.  The search is
    kept in the kernel cache folder: the same kernel autoscheduled again reads it
    (``cache=False`` searches anew); the other options are
    :func:`spf.runtime.autoschedule.autoschedule`'s.
    """
    from spf.runtime.autoschedule import autoschedule as _autoschedule
    return _autoschedule(expression, layouts, constraints=constraints, share=share, **options)


def schedule(text: str, expression: str, layouts: dict, share: dict | None = None,
             mode_orders: dict | None = None) -> Candidate:
    """A fused schedule written by hand, in the notation ``explain()`` prints:
    ``"i, j < T(m) ; k, m : T(m) += B(i,j,k) * D(k,m) , l, m : A(i,l,m) += T(m) * C(j,l) >"``.

    Checked (each sparse operand's levels in storage order, every input read once) and
    costed like the autoscheduler's candidates; pass it as ``schedule=`` to :func:`compile`.
    ``mode_orders={"C": (1, 0, 2)}``: the tree reads C from a copy whose axis t is C's axis
    permutation[t], written with the copy's indices.
    """
    from spf.runtime.autoschedule import schedule as _schedule
    return _schedule(text, expression, layouts, share=share, mode_orders=mode_orders)


def layouts() -> list[str]:
    """The names of the built-in layouts."""
    from spf.layout_library import available_layouts
    return available_layouts()


def load_layout(spec: str | _os.PathLike, **parameters: int) -> Layout | LayoutFamily:
    """A layout by name, ``"NAME(k=v, ...)"`` for parameters, or a path to a layout file."""
    from spf.layout_library import load_layout as _load
    return _load(spec, **parameters)


__all__ = [
    "ArgumentError", "IterationSpace", "IterationSpaceError", "LayoutError", "NotationError", "PackError",
    "LayoutSpecError", "OutOfMemoryError", "ParseError", "PropertyViolation", "SpfError", "SpfInternalError", "Statement", "StatementSpace", "Tensor",
    "Recipe", "RecipeError", "UFSet", "autoschedule", "schedule", "UnknownLayoutError", "compile", "einsum", "einsum_kernel", "recipe", "from_fields", "iteration_space", "layouts", "load_layout",
    "pack", "parse_statement", "available_threads", "monoid", "operator", "read_tns", "convert", "CacheWarning", "ShortCallWarning",
]
