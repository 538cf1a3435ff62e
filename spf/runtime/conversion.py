"""Conversion between layouts (``spf.convert``): a Tensor stored in another layout by a
generated copy kernel ``B(i,j) = A(i,j)``, whose source loops produce the stored entries and
whose target's assembly stores them.  The run time calling the compiler: each pair of
layouts compiles once per process (:class:`Conversions`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spf import arguments
from spf.errors import PackError, UNNAMED
from spf.layout_library.layout_input import load_layout_argument, resolve_family
from spf.layout_library.loader import is_path
from spf.runtime import assemble
from spf.runtime.assemble import has_assembly
from spf.runtime.kernel import Kernel, callable_kernel
from spf.runtime.packing import pack
from spf.runtime.tensor import Tensor
from spf.runtime.value_checks import check_value_range

if TYPE_CHECKING:
    from spf.arguments import LayoutLike
    from spf.layout_library.model import Layout

INDICES = "ijklmnopqrstuvw"


class Conversions:
    """The process's conversion kernels and the built-in layouts they convert into.

    ``kernels``: (source layout, target layout, compiler flags) -> the compiled copy Kernel;
    ``by_spec``: (source layout, a built-in target's spec) -> (Kernel, target layout), so a
    conversion named by spec finds its kernel without loading the target; ``targets``: (a
    built-in's spec, order) -> its Layout (built-in files are part of the installation).
    Layouts are keys by their content (hash and equality), never by id().  Entries stay for
    the process: a layout file edited on disk loads as another Layout, hence another key.
    """

    def __init__(self) -> None:
        self.kernels: dict[tuple, Kernel] = {}
        self.by_spec: dict[tuple, tuple[Kernel, Layout]] = {}
        self.targets: dict[tuple, Layout] = {}

    def target(self, layout: LayoutLike, order: int) -> Layout:
        """The Layout of a conversion's target; built-in names are looked up once, paths and
        Layouts every time."""
        if not isinstance(layout, str) or is_path(layout):
            return resolve_family(load_layout_argument(layout), order)
        key = (layout, order)
        if key not in self.targets:
            self.targets[key] = resolve_family(load_layout_argument(layout), order)
        return self.targets[key]

    def kernel(self, source: Layout, target: Layout, order: int, permutation: tuple[int, ...] | None = None) -> Kernel:
        """The copy kernel from ``source`` into ``target`` (compiled the first time); with a
        ``permutation``, the copy's axis t is the source's axis permutation[t]
        (``B(j,i,k) = A(i,j,k)``)."""
        flags = tuple(assemble.FLAGS or ())
        permutation = tuple(permutation) if permutation is not None else tuple(range(order))
        key = (source, target, flags) if permutation == tuple(range(order)) else (source, target, flags, permutation)
        if key not in self.kernels:
            indices = ",".join(INDICES[:order])
            copied = ",".join(INDICES[axis] for axis in permutation)
            self.kernels[key] = callable_kernel(f"B({copied}) = A({indices})", {"A": source, "B": target},
                                                keep_zeros=True, flags=assemble.FLAGS)
        return self.kernels[key]


CONVERSIONS = Conversions()  # one per process: the point is compiling each pair once


def _check_values_fit(tensor: Tensor, target: Layout, name: str) -> None:
    """Refuse a conversion into narrower values (float64 into a ``float`` layout) that would
    make a finite value infinite; the others round as numpy rounds them."""
    values_field = getattr(target, "values_field", None)
    if values_field is not None:
        check_value_range(tensor.values, target.field(values_field).numpy_dtype, name)


def convert(tensor: Tensor, layout: LayoutLike, name: str | None = None) -> Tensor:
    """``tensor`` stored in ``layout`` (a name, ``"NAME(k=v)"``, a path or a Layout).

    A generated copy kernel ``B(i,j) = A(i,j)`` from the tensor's layout into the target:
    the source's loops produce its stored entries, the target's assembly stores them (its
    explicit zeros included; a padded source's padding is no entry).  Anything
    :func:`spf.pack` accepts may be given instead of a Tensor.
    """
    if name is None and isinstance(layout, str) and isinstance(tensor, Tensor):  # a pair converted before
        known = CONVERSIONS.by_spec.get((tensor.layout, layout))
        if known is not None:
            _check_values_fit(tensor, known[1], tensor.name)
            return known[0](A=tensor)._renamed(tensor.name)
    if not isinstance(tensor, Tensor):
        return pack(layout, tensor, name or UNNAMED, cast=True)  # the layout asked for: its type too
    name = arguments.name(name if name is not None else tensor.name)
    target = CONVERSIONS.target(layout, tensor.order)
    _check_values_fit(tensor, target, name)
    if target.order != tensor.order:
        raise PackError(f"tensor {name}: layout {target.spec} stores order-{target.order} tensors, "
                        f"{tensor.name} has order {tensor.order}")
    if target == tensor.layout:
        return tensor if name == tensor.name else Tensor._from_checked(target, tensor.shape, dict(tensor.fields),
                                                                       name)
    if not has_assembly(target) or not any(f.is_index_array for f in target.fields):
        return pack(target, tensor, name, cast=True)  # dense targets, and ELL/WARP24 through the reference packer
    if tensor.order > len(INDICES):
        raise PackError(f"tensor {name}: conversion handles order up to {len(INDICES)}")
    kernel = CONVERSIONS.kernel(tensor.layout, target, tensor.order)
    if isinstance(layout, str) and (layout, tensor.order) in CONVERSIONS.targets:  # a built-in's spec: for good
        CONVERSIONS.by_spec[(tensor.layout, layout)] = (kernel, target)
    return kernel(A=tensor)._renamed(name)


def permuted(data: object, layout: LayoutLike, permutation: tuple[int, ...], name: str = "tensor") -> Tensor:
    """``data`` (a Tensor, or anything :func:`spf.pack` takes, packed into ``layout`` first)
    copied into ``layout`` with its modes permuted: the copy's axis t is the data's axis
    ``permutation[t]``.  A generated copy kernel (``B(j,i,k) = A(i,j,k)``, compiled once per
    pair of layouts and permutation): what the autoscheduler's copies in other mode orders
    read (spf.scheduling.autoscheduler.mode_orders)."""
    tensor = data if isinstance(data, Tensor) else pack(layout, data, name)
    target = CONVERSIONS.target(layout, tensor.order)
    if sorted(permutation) != list(range(tensor.order)):
        raise PackError(f"tensor {name} has order {tensor.order}: {list(permutation)} does not permute its modes")
    if tensor.order > len(INDICES):
        raise PackError(f"tensor {name}: conversion handles order up to {len(INDICES)}")
    if list(permutation) == sorted(permutation):
        return convert(tensor, target, name)
    _check_values_fit(tensor, target, name)
    return CONVERSIONS.kernel(tensor.layout, target, tensor.order, tuple(permutation))(A=tensor)._renamed(name)


# Tensor.to_coo copies a padded layout into a coordinate list through this conversion,
# which sits above Tensor (it compiles and runs a kernel, and kernels return Tensors).
Tensor.converter = staticmethod(convert)
# A kernel reading an input's copy in another mode order makes it with this conversion, which
# compiles kernels (so it sits above Kernel).
Kernel.mode_order_copy = staticmethod(permuted)
