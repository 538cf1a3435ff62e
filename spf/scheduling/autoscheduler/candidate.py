"""A candidate schedule: one schedule tree that survived the autoscheduler's compile-time
pruning, with its symbolic costs.  Plain data the compiler reads (``spf.compile(...,
schedule=candidate)``, :mod:`codegen.fused`) without the autoscheduler's run-time choice
(:mod:`spf.runtime.autoschedule`), which reads the operands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from spf.scheduling.autoscheduler.cost import Cost
from spf.scheduling.autoscheduler.problem import Problem
from spf.scheduling.autoscheduler.tree import Node, temporaries


@dataclass(frozen=True)
class Candidate:
    """One schedule tree that survived compile-time pruning, with its symbolic costs."""

    schedule: Node
    time: Cost
    memory: Cost
    loop_depth: int
    memory_depth: int
    problem: Problem = field(repr=False, compare=False)
    work: Cost = field(default_factory=Cost.zero)  # machine_cost: iterations weighted by what they cost
    # operands read from a copy in another mode order (mode_orders), ((name, permutation), ...);
    # ``problem`` is then the permuted one and ``source`` the user's
    mode_orders: tuple = ()
    source: Problem | None = field(default=None, repr=False, compare=False)

    @property
    def user_problem(self) -> Problem:
        """The problem as the user wrote it (``problem`` reads permuted copies, if any)."""
        return self.source if self.source is not None else self.problem

    @property
    def time_cost(self) -> sympy.Expr:
        """Iterations, over extents ``I, J, ...`` and stored counts ``nnz_B, nnz_B_i, ...``."""
        return self.time.to_sympy()

    @property
    def memory_cost(self) -> sympy.Expr:
        """Elements of the temporaries (a scalar counts 0)."""
        return self.memory.to_sympy()

    @property
    def work_cost(self) -> sympy.Expr:
        """Machine work: iterations weighted by the machine constants ``c_walk, c_vector, ...``."""
        return self.work.to_sympy()

    @property
    def temporaries(self) -> list:
        return temporaries(self.schedule)

    def __str__(self) -> str:
        copies = "".join(f"\n    mode order: {name} copied with its modes permuted {permutation}"
                         for name, permutation in self.mode_orders)
        return (f"{self.schedule}{copies}\n    time {self.time_cost}, memory {self.memory_cost}, "
                f"loop depth {self.loop_depth}, memory depth {self.memory_depth}")
