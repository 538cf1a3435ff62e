"""How the ranks' partial outputs combine: by the kernel's ⊕ (spf.notation.semirings), not
always by +.  A rank's partial output holds ⊕'s identity where none of its products reach, so
⊕ over the ranks gives the single-process result: MPI's own op where it has one (SUM, PROD,
MIN, MAX; lor and land as MAX and MIN over their 0/1 values, or LOR and LAND over booleans),
a user-defined op for any; and the same ⊕ in numpy where a rank combines the parts it
received itself (support.RowSum)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from mpi4py import MPI
from mpi4py.util import dtlib

from spf.errors import DistributionError
from spf.notation.semirings import Monoid


def _keep_first_nonzero(target: np.ndarray, incoming: np.ndarray) -> None:
    """any's combination: where ``target`` holds 0 (no value yet), ``incoming``'s."""
    np.copyto(target, incoming, where=target == 0)


_CREATED: dict[str, MPI.Op] = {}  # the ops spf made, by monoid, each at its first use (MPI initialised by then)


def _created(name: str, into: Callable[[np.ndarray, np.ndarray], None]) -> MPI.Op:
    """An MPI op (commutative) that reduces by ``into(target, incoming)`` over numpy views of its buffers."""
    if name not in _CREATED:
        def reduce(incoming, target, datatype) -> None:
            dtype = dtlib.to_numpy_dtype(datatype)
            into(np.frombuffer(target, dtype=dtype), np.frombuffer(incoming, dtype=dtype))
        _CREATED[name] = MPI.Op.Create(reduce, commute=True)
    return _CREATED[name]


@dataclass(frozen=True)
class Combination:
    """⊕ across ranks: ``op(dtype)`` for MPI's reductions, ``into(target, incoming)`` in numpy."""

    monoid: str
    mpi: Callable[[np.dtype], MPI.Op]
    into: Callable[[np.ndarray, np.ndarray], None]


COMBINATIONS = {
    "plus": Combination("plus", lambda dtype: MPI.SUM, lambda t, i: np.add(t, i, out=t)),
    "times": Combination("times", lambda dtype: MPI.PROD, lambda t, i: np.multiply(t, i, out=t)),
    "min": Combination("min", lambda dtype: MPI.MIN, lambda t, i: np.minimum(t, i, out=t)),
    "max": Combination("max", lambda dtype: MPI.MAX, lambda t, i: np.maximum(t, i, out=t)),
    "lor": Combination("lor", lambda dtype: MPI.LOR if dtype == np.bool_ else MPI.MAX,
                       lambda t, i: np.maximum(t, i, out=t)),
    "land": Combination("land", lambda dtype: MPI.LAND if dtype == np.bool_ else MPI.MIN,
                        lambda t, i: np.minimum(t, i, out=t)),
    "any": Combination("any", lambda dtype: _created("any", _keep_first_nonzero), _keep_first_nonzero),
}


def combination(monoid: Monoid) -> Combination:
    """How partial outputs reduced by ``monoid`` combine across ranks (a user's monoid by its
    ``numpy=`` function; DistributionError without one)."""
    if monoid.user is None:
        return COMBINATIONS[monoid.name]
    if monoid.user.numpy is None:
        raise DistributionError(f"monoid {monoid.name!r} is the user's C ({monoid.user.c}): its ranks' partial "
                                "outputs combine in numpy, so define it with numpy= (a function of two arrays)")
    into = monoid.user.combine_into
    return Combination(monoid.name, lambda dtype: _created(monoid.name, into), into)
