"""Running a compiled kernel on distributed operands: which index is split, what each
rank passes its kernel, how the per-rank results combine, and what that costs.

The distributed index is the index a :class:`DistributedTensor` operand is split along
(its ``mode``'s index in the expression).  Every other operand accessed with that index
is sliced to this rank's range along that axis (a numpy view for dense operands, a
re-based block for sparse ones); the rest are replicated (passed whole).  The kernel then
computes, on each rank, exactly the terms whose distributed coordinate lies in its
range, so:

* an output indexed by the distributed index is this rank's block of the result (a
  :class:`DistributedTensor`, gathered on request): no communication;
* an output not indexed by it is a partial sum over that index, summed across ranks
  with ``MPI_Allreduce``; every term must then read the distributed index (a term
  without it would be counted once per rank), and the output must be dense (or a scalar).
  Where the ranks' blocks reach only parts of its rows, only those parts move
  (:mod:`spf.distributed.support`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from mpi4py import MPI

from spf.errors import ArgumentError, DistributionError, SpfError
from spf.notation.semirings import semiring
from spf.notation.statements import parse_statement
from spf.runtime.masked import MaskedKernel
from spf.runtime.packing import pack
from spf.runtime.tensor import Tensor
from spf.runtime.user_data import coordinates_of
from spf.runtime.value_checks import INDEX_DTYPE

from spf.distributed import support
from spf.distributed.collective import agreed, allreduce, flag_max, reduce_scatter, same_everywhere
from spf.distributed.partition import outer_mode
from spf.distributed.reduction import combination
from spf.distributed.tensor import DistributedTensor, distribute

if TYPE_CHECKING:
    from spf.runtime.kernel import BoundKernel, Kernel

DOUBLE = 8


@dataclass(frozen=True)
class Role:
    """How one input reaches the kernel on each rank."""

    name: str
    how: str  # "distributed": its own block; "sliced": this rank's range along `axis`; "replicated": whole
    axis: int | None
    dense: bool
    shape: tuple[int, ...]  # global


@functools.lru_cache(maxsize=256)
def _statement(expression: str):
    return parse_statement(expression)


def input_layout(kernel: Kernel, name: str):
    """The layout a call reads input ``name`` in: a masked kernel's mask in the layout its
    caller gave (its data is sliced and passed as given; the kernel makes its keep array)."""
    if isinstance(kernel, MaskedKernel) and kernel.plan is not None and name == kernel.plan.mask.tensor:
        return kernel.mask_layout
    return kernel.tensors[name].layout


def _is_dense(layout) -> bool:
    return not layout.index_arrays


def _shape_of(value) -> tuple[int, ...]:
    if isinstance(value, (DistributedTensor, Tensor)):
        return tuple(value.shape)
    if isinstance(value, tuple) and len(value) == 3:
        return tuple(int(s) for s in value[2])
    shape = getattr(value, "shape", None)
    if shape is None:
        value = np.asarray(value)
        shape = value.shape
    return tuple(int(s) for s in shape)


class Plan:
    """A kernel over distributed operands on one rank: the roles, the local call, the combination."""

    def __init__(self, kernel: Kernel, operands: dict, comm: MPI.Comm | None = None, reduce: str = "all"):
        if reduce not in ("all", "scatter"):
            raise ArgumentError(f"reduce must be 'all' (Allreduce: every rank gets the summed output) or 'scatter' "
                                f"(Reduce_scatter: each rank gets a block of its rows), got {reduce!r}")
        self.reduce = reduce
        if not hasattr(kernel, "tensors") or not hasattr(kernel, "expression"):
            raise ArgumentError(f"kernel must be a compiled kernel (spf.compile), got {type(kernel).__name__}")
        self.kernel = kernel
        self.statement = statement = _statement(kernel.expression)
        inputs = [name for name, (_, _, is_output) in kernel.tensors.items() if not is_output]
        unknown = sorted(set(operands) - set(inputs))
        if unknown:
            raise SpfError(f"unknown argument(s) {unknown}; inputs are {inputs}")
        missing = [name for name in inputs if name not in operands]
        if missing:
            raise SpfError(f"missing input {', '.join(missing)}; inputs are {', '.join(inputs)}")
        self.operands = dict(operands)
        self.accesses = {name: [a for term in statement.terms for a in term.factors if a.tensor == name]
                         for name in inputs}
        distributed = {n: v for n, v in operands.items() if isinstance(v, DistributedTensor)}
        if not distributed:
            raise DistributionError("no operand is distributed: pass one as a DistributedTensor "
                                    "(spf.distributed.distribute, read_mtx or read_tns)")
        first_name, first = next(iter(distributed.items()))
        self.comm = comm if comm is not None else first.comm
        self.index = self._index_of(first_name, first)
        self.bounds = first.bounds
        self.extent = first.shape[first.mode]
        for name, tensor in distributed.items():
            if tensor.comm.size != self.comm.size:
                raise DistributionError(f"{name} is distributed over {tensor.comm.size} ranks, {first_name} over "
                                        f"{first.comm.size}")
            if self._index_of(name, tensor) != self.index or not np.array_equal(tensor.bounds, self.bounds):
                raise DistributionError(
                    f"{name} is split along index {self._index_of(name, tensor)} at {list(tensor.bounds)}, "
                    f"{first_name} along {self.index} at {list(self.bounds)}: distributed operands must share "
                    f"one split; gather {name} (.gather(root=None)) and pass it whole")
        self.roles = {name: self._role(name, input_layout(kernel, name), operands[name]) for name in inputs}
        self.output = statement.output
        self.output_layout = kernel.tensors[kernel.output].layout if kernel.output in kernel.tensors else None
        places = [p for p, index in enumerate(self.output.indices) if index == self.index]
        if len(places) > 1:
            raise DistributionError(f"output {self.output} repeats the distributed index {self.index}")
        self.output_axis = places[0] if places else None
        if self.output_axis is None:
            if self.output_layout is not None and not _is_dense(self.output_layout):
                raise DistributionError(
                    f"output {self.output} is not indexed by the distributed index {self.index}, so each rank "
                    f"holds a partial sum; spf.distributed sums dense outputs only, and "
                    f"{self.output_layout.spec} is sparse: compute a dense output, or split another index")
            if reduce == "scatter" and not self.output.indices:
                raise DistributionError(f"output {self.output} is a scalar: it has no rows to scatter; use "
                                        "reduce='all'")
            for term in statement.terms:
                if self.index not in term.indices:
                    raise DistributionError(
                        f"term {term} does not read the distributed index {self.index}: its value would be "
                        f"added once per rank to the partial sums of {self.output}; split an index every term reads")
        # how the ranks' partial outputs combine: the kernel's ⊕ (a user's monoid without numpy= is refused here)
        self.combination = combination(semiring(getattr(kernel, "semiring", "plus_times")).add) \
            if self.output_axis is None else None
        self.row_sum: support.RowSum | None = None  # set by choose_row_sum
        self._reached = self._reached_rows()

    def _reached_rows(self) -> tuple[int, int] | None:
        """The rows of a summed dense output this rank's blocks reach (support.reached_rows),
        or None when the output is not summed, or is a scalar, or is added to (``+=``)."""
        if self.output_axis is not None or not self.output.indices or self.statement.accumulate:
            return None
        blocks = {name: value.local for name, value in self.operands.items()
                  if isinstance(value, DistributedTensor) and isinstance(value.local, Tensor)}
        return support.reached_rows(self.statement, blocks, self._output_extents()[0])

    def choose_row_sum(self) -> None:
        """Sum the output over the rows each rank reaches when that sends fewer bytes than
        the ring sum (support.choose).  Collective."""
        if self._reached is not None:
            extents = self._output_extents()
            self.row_sum = support.choose(self.comm, self._reached, extents[0],
                                          int(np.prod(extents[1:], dtype=np.int64)), self.reduce == "scatter")

    def _index_of(self, name: str, tensor: DistributedTensor) -> str:
        indices = {access.indices[tensor.mode] for access in self.accesses[name] if len(access.indices) > tensor.mode}
        if len(indices) != 1 or any(len(a.indices) != len(tensor.shape) for a in self.accesses[name]):
            raise DistributionError(f"{name} (order {len(tensor.shape)}, split along mode {tensor.mode}) is accessed "
                                    f"as {', '.join(map(str, self.accesses[name]))}: its split mode must carry one "
                                    "index in every access")
        index = next(iter(indices))
        for access in self.accesses[name]:
            if access.indices.count(index) > 1:
                raise DistributionError(f"{access} repeats the distributed index {index}")
        return index

    def _role(self, name: str, layout, value) -> Role:
        dense = _is_dense(layout)
        shape = _shape_of(value)
        if isinstance(value, DistributedTensor):
            if not value.dense and value.layout != layout:
                raise DistributionError(f"{name} is distributed in {value.layout.spec} but the kernel reads it as "
                                        f"{layout.spec}: distribute it in {layout.spec}")
            return Role(name, "distributed", value.mode, dense, shape)
        places = {tuple(p for p, index in enumerate(a.indices) if index == self.index) for a in self.accesses[name]}
        if places == {()}:
            return Role(name, "replicated", None, dense, shape)
        if len(places) != 1 or len(next(iter(places))) != 1:
            raise DistributionError(f"{name} is accessed as {', '.join(map(str, self.accesses[name]))}: the "
                                    f"distributed index {self.index} must sit at one place in every access")
        axis = next(iter(places))[0]
        if len(shape) <= axis or shape[axis] != self.extent:
            raise DistributionError(f"{name} has shape {shape}, but index {self.index} has extent {self.extent} "
                                    f"(the distributed operand's)")
        return Role(name, "sliced", axis, dense, shape)

    # -- running
    @property
    def lo(self) -> int:
        return int(self.bounds[self.comm.rank])

    @property
    def hi(self) -> int:
        return int(self.bounds[self.comm.rank + 1])

    def signature(self) -> tuple:
        """What every rank must agree on: the kernel, each operand's role and global shape, and
        the value type the kernel computes in (numpy's result type of the operands' values: a
        rank computing in another type would hand MPI other bytes to sum)."""
        return (self.kernel.expression, tuple((r.name, r.how, r.axis, r.shape) for r in self.roles.values()),
                tuple(self.bounds), self.kernel.compute_type(self.operands).name)

    def local_operands(self) -> dict:
        """This rank's operands for the kernel."""
        local = {}
        for name, role in self.roles.items():
            value = self.operands[name]
            layout = input_layout(self.kernel, name)
            if role.how == "distributed":
                local[name] = value.local
            elif role.how == "replicated":
                local[name] = value
            elif role.dense:
                array = value.values.reshape(value.shape) if isinstance(value, Tensor) and _is_dense(value.layout) \
                    else np.asarray(value) if isinstance(value, np.ndarray) else pack(layout, value, name=name).values
                index = [slice(None)] * array.ndim
                index[role.axis] = slice(self.lo, self.hi)
                local[name] = array[tuple(index)]
            else:
                coords, values, shape = coordinates_of(value.to_coo() if isinstance(value, Tensor) else value, name)
                keep = (coords[:, role.axis] >= self.lo) & (coords[:, role.axis] < self.hi)
                coords, values = coords[keep].copy(), values[keep]
                coords[:, role.axis] -= self.lo
                local_shape = tuple(self.hi - self.lo if a == role.axis else s for a, s in enumerate(shape))
                local[name] = pack(layout, (coords.astype(INDEX_DTYPE), values, local_shape), name=name)
        return local

    def combine(self, result: np.ndarray | Tensor | float) -> DistributedTensor | np.ndarray | float:
        """The per-rank result made global: a block of a distributed output, or the sum
        across ranks of a partial one (Allreduce) by the kernel's ⊕ (a min_plus kernel's
        partial outputs combine by min).  Collective."""
        if self.output_axis is not None:
            layout = self.output_layout
            if isinstance(result, np.ndarray):
                from spf.layout_library import load_layout
                layout = load_layout(f"Dense{result.ndim}")
            shape = list(result.shape)
            shape[self.output_axis] = self.extent
            return DistributedTensor(self.comm, layout, tuple(shape), self.output_axis, self.bounds, result,
                                     self.output.tensor)
        if isinstance(result, np.ndarray) and self.row_sum is not None:
            summed = self.row_sum(self.comm, result, self.combination.into)
            return self._row_blocks(result.shape, self.row_sum.bounds, summed) if self.reduce == "scatter" else summed
        if isinstance(result, np.ndarray) and self.reduce == "scatter":
            return self._reduce_scatter(result)
        if isinstance(result, np.ndarray):
            allreduce(self.comm, result, self.combination.mpi(result.dtype))
            return result
        scalar = np.array([result])  # in the kernel's type (a Python float for float64)
        allreduce(self.comm, scalar, self.combination.mpi(scalar.dtype))
        return float(scalar[0]) if isinstance(result, float) else scalar[0]

    def _reduce_scatter(self, result: np.ndarray) -> DistributedTensor:
        """The summed output's rows split evenly over the ranks, each rank receiving its
        block only (MPI_Reduce_scatter)."""
        P, rows = self.comm.size, result.shape[0]
        bounds = support.even_bounds(rows, P)
        per_row = int(np.prod(result.shape[1:], dtype=np.int64))
        counts = np.diff(bounds) * per_row
        local = np.empty((int(bounds[self.comm.rank + 1] - bounds[self.comm.rank]), *result.shape[1:]),
                         dtype=result.dtype)
        reduce_scatter(self.comm, np.ascontiguousarray(result), local, counts, self.combination.mpi(result.dtype))
        return self._row_blocks(result.shape, bounds, local)

    def _row_blocks(self, shape: tuple[int, ...], bounds: np.ndarray, local: np.ndarray) -> DistributedTensor:
        """A summed dense output of ``shape`` kept as this rank's block of rows ``local``."""
        from spf.layout_library import load_layout
        return DistributedTensor(self.comm, load_layout(f"Dense{len(shape)}"), shape, 0, bounds, local,
                                 self.output.tensor)

    # -- cost
    def explain(self) -> str:
        """Where each operand lives and the bytes this rank sends per call (an alpha-beta
        statement: messages and bytes of each collective, by the algorithm's textbook count)."""
        P = self.comm.size
        lines = [f"distributed run of {self.kernel.expression} over {P} rank(s)",
                 f"  split index {self.index} (extent {self.extent}) at {list(map(int, self.bounds))}; "
                 f"rank {self.comm.rank} holds {self.index} in [{self.lo}, {self.hi})"]
        for role in self.roles.values():
            value = self.operands[role.name]
            if role.how == "distributed":
                what = f"its own block ({value.local_nnz()} stored entries, {_nbytes(value.local)} bytes)"
            elif role.how == "sliced":
                what = f"sliced to this rank's range along axis {role.axis} (no communication)"
            else:
                what = f"replicated: every rank passes it whole (shape {role.shape})"
            lines.append(f"  {role.name}: {what}")
        messages, sent = self.bytes_per_call()
        if self.output_axis is not None:
            lines.append(f"  output {self.output}: stays distributed along axis {self.output_axis} "
                         f"(gather on request: each rank sends its block once)")
        else:
            n = self.reduced_elements()
            if self.row_sum is not None:
                low, high = (int(v) for v in self.row_sum.reached[self.comm.rank])
                how = ("the rows each rank's blocks reach: MPI_Alltoallv of the parts of those rows in other "
                       f"ranks' blocks of rows (this rank reaches rows [{low}, {high})), then "
                       + ("each rank keeps its block" if self.reduce == "scatter" else
                          "MPI_Allgatherv of the summed blocks"))
            else:
                how = ("MPI_Reduce_scatter (each rank keeps a block of its rows)" if self.reduce == "scatter"
                       else "MPI_Allreduce")
            by = "" if self.combination.monoid == "plus" else f" (by {self.combination.monoid}, the kernel's ⊕)"
            lines.append(f"  output {self.output}: partial sums of {n} float64 ({n * DOUBLE} bytes) summed by "
                         f"{how}{by}")
        status_messages, status = self.status_bytes_per_call()
        lines.append(f"  per call this rank sends {sent} bytes in {messages} message(s) for the result "
                     "(ring Allreduce: 2(P-1) messages of n/P elements each; ring Reduce_scatter: half that; "
                     "by reached rows: one message per other rank whose block this rank's rows reach, then a ring "
                     f"Allgatherv's P-1; 0 for a distributed output), plus {status} bytes in {status_messages} "
                     "message(s) agreeing "
                     "that no rank failed (dist.bind: an Allreduce of one int32 by recursive doubling; dist.run "
                     "instead allgathers the operands' roles and shapes and each rank's outcome, a few hundred "
                     "bytes)")
        return "\n".join(lines)

    def reduced_elements(self) -> int:
        """Elements of the output summed across ranks per call (0 for a distributed output)."""
        if self.output_axis is not None:
            return 0
        return int(np.prod(self._output_extents(), dtype=np.int64)) if self.output.indices else 1

    def _output_extents(self) -> list[int]:
        """The output's extents, read off the inputs indexed alike."""
        extents = {}
        for name, role in self.roles.items():
            for access in self.accesses[name]:
                for index, extent in zip(access.indices, role.shape):
                    extents.setdefault(index, extent)
        return [int(extents[i]) for i in self.output.indices]

    def bytes_per_call(self) -> tuple[int, int]:
        """``(messages, bytes)`` this rank sends per call for the result, by the ring
        algorithms' counts: Allreduce ``2(P-1)`` messages of ``n/P`` doubles, Reduce_scatter
        ``P-1``."""
        P = self.comm.size
        n = self.reduced_elements()
        if n == 0 or P == 1:
            return 0, 0
        if self.row_sum is not None:
            return self.row_sum.bytes_per_call(self.comm.rank)
        steps = P - 1 if self.reduce == "scatter" else 2 * (P - 1)
        return steps, int(round(steps / P * n * DOUBLE))


    def status_bytes_per_call(self) -> tuple[int, int]:
        """``(messages, bytes)`` this rank sends per :class:`BoundRun` call to agree that no rank
        failed: an Allreduce of one int32, by recursive doubling (``ceil(log2 P)`` steps)."""
        steps = (self.comm.size - 1).bit_length()
        return steps, 4 * steps


def _nbytes(local) -> int:
    if isinstance(local, np.ndarray):
        return int(local.nbytes)
    return int(sum(v.nbytes for v in local.fields.values() if isinstance(v, np.ndarray)))


SIGNATURE = "the kernel, its operands' shapes or the value type it computes in"


def plan(kernel: Kernel, comm: MPI.Comm | None = None, reduce: str = "all", **operands: Any) -> Plan:
    """The :class:`Plan` of ``kernel`` on these operands (no kernel runs); ``.explain()``
    states the split and the bytes each rank sends per call.  Collective."""
    comm = _communicator_of(operands, comm)
    the_plan = agreed(comm, lambda: Plan(kernel, operands, comm, reduce), "planning the run")
    the_plan.choose_row_sum()
    return the_plan


def _communicator_of(operands: dict, comm):
    if comm is not None:
        return comm
    for value in operands.values():
        if isinstance(value, DistributedTensor):
            return value.comm
    return MPI.COMM_WORLD


def _auto_distributed(kernel, operands: dict, comm) -> dict:
    """With no DistributedTensor among the operands, the first sparse input in the
    expression is distributed (every rank passed it whole)."""
    if any(isinstance(v, DistributedTensor) for v in operands.values()):
        return operands
    statement = _statement(kernel.expression)
    for name in statement.inputs:
        layout = input_layout(kernel, name)
        if name in operands and not _is_dense(layout):
            try:
                outer_mode(layout)
            except DistributionError:
                continue
            operands = dict(operands)
            operands[name] = distribute(layout, operands[name], comm=comm, name=name)
            return operands
    raise DistributionError(f"no operand of {kernel.expression} can be distributed: pass a DistributedTensor, "
                            "or a sparse operand in a layout whose outer level is a range of one mode")


def run(kernel: Kernel, comm: MPI.Comm | None = None, reduce: str = "all",
        **operands: Any) -> DistributedTensor | np.ndarray | float:
    """Run ``kernel`` on every rank over distributed operands and combine the results:
    an output indexed by the distributed index comes back as a :class:`DistributedTensor`
    (``.gather()``), any other output as the sum over ranks (numpy, or a float), the same
    on every rank.  Operands that are not DistributedTensors are passed by every rank
    whole (the same on each); with none, the first sparse input is distributed first
    (each call: prefer :func:`spf.distributed.distribute` once).  ``reduce="scatter"``:
    a summed output comes back as a DistributedTensor of its rows split evenly
    (MPI_Reduce_scatter, half the Allreduce's traffic) instead of whole on every rank.
    ``comm`` and ``reduce`` are no operand names.  Collective."""
    comm = _communicator_of(operands, comm)
    operands = _auto_distributed(kernel, operands, comm)
    the_plan = plan(kernel, comm=comm, reduce=reduce, **operands)
    same_everywhere(comm, the_plan.signature(), SIGNATURE)
    result = agreed(comm, lambda: kernel(**the_plan.local_operands()), f"running {kernel.expression}")
    return the_plan.combine(result)


class BoundRun:
    """A kernel bound to distributed operands (packed and marshalled once); each call runs
    the C function on every rank and combines.  Collective."""

    def __init__(self, the_plan: Plan, bound: BoundKernel):
        self.plan, self._bound = the_plan, bound
        self._flag = np.zeros(1, dtype=np.int32)

    def __call__(self) -> DistributedTensor | np.ndarray | float:
        try:
            result, failure = self._bound(), None
        except SpfError as error:
            result, failure = None, error
        self._flag[0] = failure is not None
        flag_max(self.plan.comm, self._flag)
        if failure is not None:
            raise failure
        if self._flag[0]:
            raise SpfError(f"running {self.plan.kernel.expression} failed on another rank")
        return self.plan.combine(result)

    def explain(self) -> str:
        return self.plan.explain()


def bind(kernel: Kernel, comm: MPI.Comm | None = None, reduce: str = "all", **operands: Any) -> BoundRun:
    """:func:`run` with the per-rank operands packed and marshalled once
    (``kernel.bind``): calling the result runs only the C function and the combination."""
    comm = _communicator_of(operands, comm)
    operands = _auto_distributed(kernel, operands, comm)
    the_plan = plan(kernel, comm=comm, reduce=reduce, **operands)
    same_everywhere(comm, the_plan.signature(), SIGNATURE)
    bound = agreed(comm, lambda: kernel.bind(**the_plan.local_operands()), f"binding {kernel.expression}")
    return BoundRun(the_plan, bound)
