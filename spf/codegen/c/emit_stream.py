"""The kernel's side of assembly in C: the stream of an assembled output's entries, and
Gustavson's workspace that merges and orders them group by group before they enter it.

The stream is a growable list of (coordinates, value), handed to the output's builder
(:mod:`spf.codegen.c.emit_assembly`) when the loop nests are done.  With a workspace
(:class:`spf.codegen.assembly.plan.Workspace`), the statement adds into a dense accumulator over
one coordinate; whenever the other coordinates change, the touched coordinates are put
in order (a sort, or a scan of the accumulator when they are dense in their range) and
flushed to the stream, each once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spf.codegen.c import runtime
from spf.codegen.c.emit_assembly import report_length

if TYPE_CHECKING:
    from spf.codegen.assembly.plan import AssemblyPlan, TwoPhase, Workspace
    from spf.notation.semirings import Monoid


def combine_source(monoid: Monoid) -> str:
    """How the values of an assembled output's entries at one position combine
    (``spf_combine.h``): nothing to define under +, else ``SPF_COMBINE`` as ``monoid`` on the
    doubles the entries carry to the builder (spf_semiring.h's ``spf_min_float64``, ...)."""
    if monoid.c_operator == "+":
        return ""
    if monoid.c_operator is not None:
        return f"#define SPF_COMBINE(a, b) ((a) {monoid.c_operator} (b))\n"
    return f"#define SPF_COMBINE(a, b) {monoid.c_function}_float64((a), (b))\n"


def stream_source(order: int) -> str:
    """The growable stream of an assembled output's entries (coordinates and values):
    ``spf_stream.h`` for entries of ``order`` coordinates."""
    return runtime.include("spf_stream.h", {
        "SPF_STREAM_ORDER": order,
        "SPF_STREAM_COORDINATES(X)": " ".join(f"X({k})" for k in range(order))})


def workspace_source(order: int, position: int, direction: int) -> str:
    """``spf_workspace_add_<order>`` and ``spf_workspace_flush_<order>`` (``spf_workspace.h``):
    the accumulator over coordinate number ``position``, flushed in increasing
    (``direction`` 1) or decreasing order; the other coordinates name the group."""
    others = [k for k in range(order) if k != position]
    coordinates = " ".join(f"KEY({k})" if k == position else f"OTHER({k}, {others.index(k)})" for k in range(order))
    return runtime.include("spf_workspace.h", {
        "SPF_WORKSPACE_FORWARD": int(direction > 0),
        "SPF_WORKSPACE_COORDINATES(OTHER, KEY)": coordinates})


ROW_STRATEGIES = ("groups handed over as the arrays", "groups through the builder",
                  "groups already in order or merged from two sorted runs",
                  "groups read in order from a bitmap of the coordinates touched",
                  "groups radix-sorted", "groups sorted by comparisons")


TWO_PHASE_STRATEGIES = ("rows filled in storage order", "rows sorted after the fill",
                        "chunks counted and filled by threads of their own")


def run_time_strategies(workspace: Workspace | None, two_phase: TwoPhase | None = None) -> tuple[str, ...]:
    """The run-time choices a kernel counts after the builder's report, in that order."""
    if two_phase is not None:
        return TWO_PHASE_STRATEGIES
    return ROW_STRATEGIES if workspace is not None and workspace.direct else ()


def kernel_report_length(plan: AssemblyPlan, workspace: Workspace | None, two_phase: TwoPhase | None = None) -> int:
    """The length of a kernel's report: the builder's, then how often each run-time choice ran."""
    return report_length(plan) + len(run_time_strategies(workspace, two_phase))


def rows_source(position: int, prefix: str, struct: str, key_type: str, first_bad: int,
                statistics: int, out_of_memory: int, unstorable: int) -> str:
    """The workspace flushing into rows (:class:`spf.codegen.assembly.plan.DirectRows`,
    ``spf_rows.h``, after :func:`workspace_source`): per stream, the keys (of ``key_type``,
    the C type of the layout's key array) and values of each group and the group's outer
    coordinate, handed at the end to the builder ``prefix`` (its ``adopt_rows`` when the
    groups arrived in storage order, else its ``begin``).  It writes how often each
    strategy ran (:data:`ROW_STRATEGIES`) at ``report[statistics]``."""
    return runtime.include("spf_rows.h", {
        "SPF_ROWS_POSITION": position, "SPF_ROWS_KEY": key_type, "SPF_ROWS_OUTPUT": struct,
        "SPF_ROWS_ADOPT": f"{prefix}_adopt_rows", "SPF_ROWS_BEGIN": f"{prefix}_begin",
        "SPF_ROWS_FIRST_BAD": first_bad, "SPF_ROWS_STATISTICS": statistics,
        "SPF_ROWS_OUT_OF_MEMORY": out_of_memory, "SPF_ROWS_UNSTORABLE": unstorable})
