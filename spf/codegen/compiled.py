"""What the compiler makes of an expression: :class:`CompiledKernel`, a plain description of
the compiled kernel (its iteration spaces, find proofs, loop nests, C and the metadata a call
needs).  The compiler's one interface to the run time: the passes (:mod:`codegen.pipeline`,
:mod:`codegen.fused`) return it and the kernel cache keeps it, and the run time's
:class:`spf.runtime.kernel.Kernel` is built around it, so the compiler never imports the run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from spf.notation.semirings import semiring
from spf.notation.value_types import ValueType, result_type

from spf.codegen.loops import render

if TYPE_CHECKING:
    from spf.layout_library.model import Layout

    from spf.codegen.assembly.plan import AssemblyPlan, TwoPhase, Workspace
    from spf.codegen.finds.auto import SiteModel
    from spf.codegen.c.emit_c import KernelSource
    from spf.codegen.finds.find import FindReport
    from spf.codegen.passes.zeroing import OutputZeroing


class KernelTensor(NamedTuple):
    """One tensor of a kernel, as its C function takes it: its layout, the kernel's names of
    its fields and physical indices (``rowPtr`` -> ``A_rowPtr``), and whether it is the output."""

    layout: Layout
    names: dict[str, str]
    is_output: bool


def compute_type(tensors: dict[str, KernelTensor]) -> ValueType:
    """What a kernel computes in: numpy's result type of its inputs' values
    (spf.notation.value_types); the output stores the result in its own type."""
    return result_type([layout.value_type for layout, _, is_output in tensors.values() if not is_output])


def field_names(layout: Layout, mapping: dict) -> list[str]:
    """The kernel's names of a tensor's fields (a mapping also names its physical indices):
    ``A_rowPtr``, or ``B_rowPtr`` for an output sharing B's arrays."""
    return [mapping[field_.name] for field_ in layout.fields if field_.name in mapping]


def shared_fields(tensors: dict, output: str) -> dict[str, tuple[str, str]]:
    """The output's fields that are an input's (``share=``, or a prefix of its levels under
    other names, spf.space.patterns): output field -> (the input, that input's field)."""
    layout, mapping, _ = tensors[output]
    shared = {}
    for field_ in layout.fields:
        local = mapping.get(field_.name, f"{output}_{field_.name}")
        if local != f"{output}_{field_.name}":
            shared[field_.name] = next((other, theirs) for other, (_, names, _) in tensors.items()
                                       if other != output for theirs, mine in names.items() if mine == local)
    return shared


@dataclass(frozen=True, kw_only=True)
class CompiledKernel:
    """A compiled kernel as data: what :class:`spf.runtime.kernel.Kernel` calls and ``explain()`` prints."""

    expression: str
    spaces: list
    scans: list  # of the first variant
    reports: list[FindReport]
    kernels: list[KernelSource]  # one C function per variant of the finds
    variant_choices: list[tuple]  # the find choices of each variant, by site
    site_models: list[SiteModel]
    c_source: str
    header: str
    tensors: dict[str, KernelTensor]  # in the C function's parameter order
    output: str
    flags: list[str]
    codegen_seconds: float = 0.0
    dependences: list = field(default_factory=list)
    assembly: AssemblyPlan | None = None  # of an assembled output
    assembly_prefix: str | None = None
    workspace: Workspace | None = None  # of the assembled output, if any
    two_phase: TwoPhase | None = None  # of the assembled output, if any
    output_zeroing: OutputZeroing | None = None  # of a dense output the first variant zeroes
    release_function: str = ""  # the library's C function freeing what the kernels keep between calls
    cache_key: str = ""  # of the whole-kernel cache (spf.codegen.toolchain.kernel_cache)
    cached: str = ""  # "memory" or "disk" when this description came from that cache, else ""
    semiring: str = "plus_times"  # what + and * mean (spf.notation.semirings): a new output starts at its identity
    # inputs the C function reads as copies in another mode order, ((name, permutation), ...):
    # the copy's axis t is the given tensor's axis permutation[t] (spf.runtime.conversion.permuted)
    mode_orders: tuple = ()

    @property
    def function_name(self) -> str:
        """The C function of the first (statically preferred) variant."""
        return self.kernels[0].function

    def explain(self, statistics: dict | None = None) -> str:
        """The iteration space, the loop order, and each find with its chosen and rejected templates;
        ``statistics``: how often each run-time strategy of the assembly ran (a Kernel's calls so far)."""
        parts = []
        for space, scanned in zip(self.spaces, self.scans):
            parts.append(str(space))
            parts.append(f"  order: {', '.join(scanned.order)}")
            parts.append("loop nest:")
            parts.append("  " + render(scanned.nodes, "  ").lstrip() if scanned.nodes else
                         "  (fused: runs inside the first statement's loop, iteration by iteration)")
        if self.semiring != "plus_times":
            parts.append(f"semiring: {semiring(self.semiring).describe()}")
        generic = [name for name, tensor in self.tensors.items() if tensor.layout.unspecialised]
        parts.append(f"values: {compute_type(self.tensors).name} (numpy's result type of the inputs' values)"
                     + (f"; {', '.join(generic)} generic: a call with data of another type compiles a copy for it"
                        if generic else ""))
        if self.output_zeroing is not None:
            parts.append(f"zeroing: {self.output_zeroing.describe()}")
        if self.assembly is not None:
            layout = self.tensors[self.output].layout
            parts.append(f"assembly of {self.output} ({layout.spec}):")
            if self.workspace is not None:
                others = tuple(c for c in self.spaces[0].statement.output.indices if c != self.workspace.coordinate)
                parts.append("  " + self.workspace.describe(others))
            elif self.two_phase is not None:
                parts.append("  " + self.two_phase.describe())
            else:
                parts.append("  strategy: the loop nests append each entry (coordinates, value) to a stream")
            if self.two_phase is None:
                parts.append("  builder: begin puts the entries in storage order (one pass finds them already ordered, "
                             "else a counting sort on the first key and merge sorts of the groups out of order), "
                             "sums equal entries and counts each level's positions; fill writes the arrays the "
                             "counts size")
            parts.extend("  " + line for line in self.assembly.describe())
            if statistics:
                counts = ", ".join(f"{strategy} {count}" for strategy, count in statistics.items())
                parts.append(f"  run-time choices over the calls so far: {counts}")
        if self.dependences:
            parts.append("parallel:")
            parts.extend("  " + d for d in self.dependences)
        if self.reports:
            parts.append("finds:")
            parts.extend("  " + str(r).replace("\n", "\n  ") for r in self.reports)
        else:
            parts.append("finds: none (every index is a loop or an assignment)")
        return "\n".join(parts)
