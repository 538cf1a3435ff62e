"""The Tensor: a tensor stored in a layout, valid by construction and read-only, so kernels
read it without checking it again.  Its fields are checked by :mod:`spf.runtime.validation` when it
is made from anything but arrays just checked or handed over by a kernel.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, ClassVar, Mapping, Sequence

import numpy as np

from spf.errors import UNNAMED
from spf import arguments
from spf.layout_library.layout_input import load_layout_argument, resolve_family
from spf.runtime.memory import allocate
from spf.runtime.level_statistics import LevelStatistics, level_statistics
from spf.runtime.read_only import frozen, read_only
from spf.runtime.stored_entries import enumerate_stored
from spf.runtime.validation import check_fields
from spf.runtime.value_checks import INDEX_DTYPE

if TYPE_CHECKING:
    from scipy import sparse

    from spf.arguments import LayoutLike


class Tensor:
    """A tensor stored in a layout: the layout's fields by name, and the logical shape.

    Valid by construction: ``Tensor(layout, shape, fields, name)`` checks the fields as
    :func:`spf.runtime.validation.validate` does (types, lengths, assumptions, every declared property, every
    stored entry inside the shape) and keeps read-only copies of the arrays; ``fields``
    is a read-only mapping and the attributes cannot be reassigned.  A kernel can
    therefore use a Tensor without checking it again.
    """

    __slots__ = ("layout", "shape", "fields", "name", "_structs", "_statistics")

    converter: ClassVar[Callable[[Tensor, str], Tensor]]
    """``spf.convert``, through which a padded layout's :meth:`to_coo` copies into a coordinate
    list: set by :mod:`spf.runtime.conversion` when it loads (which ``import spf`` does), as conversion
    sits above Tensor (it compiles and runs a kernel, and kernels return Tensors)."""

    def __init__(self, layout: LayoutLike, shape: Sequence[int], fields: Mapping[str, object], name: str = UNNAMED):
        name = arguments.name(name)
        shape = arguments.shape(shape, name)
        layout = resolve_family(load_layout_argument(layout), len(shape))
        checked, _ = check_fields(layout, fields, name, shape, owned=False)
        self._settle(layout, shape, checked, name)

    @classmethod
    def _from_checked(cls, layout, shape: tuple[int, ...], fields: dict[str, object], name: str,
                      written: str | None = None, borrowed: bool = False) -> "Tensor":
        """A Tensor from fields :func:`check_fields` has just accepted and nothing else
        references (the packer's own arrays): no second check, no copy.  ``written``: a
        field a kernel keeps writing (an output's values), read-only only in this Tensor.
        ``borrowed``: every array is read-only only in this Tensor (:func:`borrow`)."""
        tensor = cls.__new__(cls)
        tensor._settle(layout, tuple(shape), fields, name, written, borrowed)
        return tensor

    @classmethod
    def _from_handed_over(cls, layout, shape: tuple[int, ...], fields: Mapping[str, object], name: str) -> "Tensor":
        """A Tensor over fields whose arrays are already read-only for good (memory a kernel
        handed over, or empty read-only arrays), kept as they are: a sparse output's every
        call, and a Tensor renamed.  The slots are set through their descriptors."""
        tensor = cls.__new__(cls)
        _set_layout(tensor, layout)
        _set_shape(tensor, tuple(shape))
        _set_fields(tensor, fields if isinstance(fields, MappingProxyType) else MappingProxyType(fields))
        _set_name(tensor, name)
        _set_structs(tensor, {})
        _set_statistics(tensor, None)
        return tensor

    def _renamed(self, name: str) -> "Tensor":
        """The same Tensor (layout, shape, the very same read-only fields) under another name."""
        return type(self)._from_handed_over(self.layout, self.shape, self.fields, name)

    def _settle(self, layout, shape: tuple[int, ...], fields: dict[str, object], name: str,
                written: str | None = None, borrowed: bool = False) -> None:
        frozen = {key: read_only(value, key != written and not borrowed) if isinstance(value, np.ndarray)
                  else value for key, value in fields.items()}
        # _structs: the C structs kernels read this Tensor through, made once (spf.codegen.c.structs.marshal);
        # _statistics: level_statistics(), computed once
        for attribute, value in (("layout", layout), ("shape", shape), ("fields", MappingProxyType(frozen)),
                                 ("name", name), ("_structs", {}), ("_statistics", None)):
            object.__setattr__(self, attribute, value)

    def __setattr__(self, attribute: str, value) -> None:
        raise AttributeError(f"a Tensor is read-only (valid by construction): cannot set {attribute}; "
                             "pack or build a new Tensor instead")

    def __delattr__(self, attribute: str) -> None:
        raise AttributeError(f"a Tensor is read-only (valid by construction): cannot delete {attribute}")

    @property
    def order(self) -> int:
        return len(self.shape)

    @property
    def values(self) -> np.ndarray:
        return self.fields[self.layout.values_field]

    def stored(self) -> tuple[np.ndarray, np.ndarray]:
        """Every stored position's coordinates and value, padding included, in storage order."""
        return enumerate_stored(self.layout, self.fields, self.shape, name=self.name)

    def to_coo(self) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
        """``(coords[nnz, order], values[nnz], shape)`` in lexicographic coordinate order.

        Padded layouts (dense blocks, padding slots) drop their stored zeros; other
        layouts return every stored entry, explicit zeros included.  A padded layout's
        slots may far outnumber its entries (DIA's diagonals over a mesh: 83M slots for
        92k entries), so its entries come from a generated copy kernel into a coordinate
        list, which reads each slot once and keeps only entries, rather than from the
        coordinates of every slot.
        """
        coordinate_list = COORDINATE_LISTS.get(len(self.shape))
        if self.layout.padded and coordinate_list is not None and not self.layout.value_type.is_complex:
            return Tensor.converter(self, coordinate_list).to_coo()  # (a conversion's builder carries real values)
        coords, values = self.stored()
        inside = np.all((coords >= 0) & (coords < np.asarray(self.shape, dtype=INDEX_DTYPE)), axis=1) \
            if coords.size else np.ones(len(values), dtype=bool)
        keep = inside & (values != 0) if self.layout.padded else inside
        coords, values = coords[keep], values[keep]
        order = np.lexsort(coords.T[::-1]) if len(values) else np.arange(0)
        return coords[order], values[order], tuple(self.shape)

    def to_scipy(self, copy: bool = True) -> sparse.sparray:
        """An order-1 or order-2 tensor as a scipy.sparse array the caller owns: ``csr_array``
        (``csc_array``, ``bsr_array``, ``dia_array``, ``coo_array``) when the layout is CSR
        (CSC, BCSR with blocks that divide the shape, DIA, a coordinate list) in form, with
        scipy's canonical flags set from its properties; otherwise a ``coo_array`` of
        :meth:`to_coo`'s entries (:mod:`spf.runtime.scipy_arrays`).

        With ``copy`` (the default) the arrays are new and writable, so scipy's in-place
        methods (``eliminate_zeros()``, ``sort_indices()``, ``data *= 2``) work, and this
        Tensor, which kernels read without checking it, and whatever it shares arrays with
        (a scipy input :func:`spf.pack` shared, an input a ``share=`` output shares index
        arrays with) stay as they are.  ``copy=False`` shares this Tensor's read-only arrays
        where the format allows (CSR, CSC, BSR, coordinate lists): no copy, for reading, but
        in-place methods raise numpy's read-only ``ValueError``."""
        from spf.runtime.scipy_arrays import to_scipy
        return to_scipy(self, copy)

    def to_dense(self) -> np.ndarray:
        coords, values, shape = self.to_coo()
        dense = allocate(shape, values.dtype, f"tensor {self.name}: to_dense()")  # the values' own type, as scipy's
        if len(values):
            np.add.at(dense, tuple(coords.T), values)
        return dense

    def level_statistics(self) -> LevelStatistics:
        """The distinct stored prefixes of each storage level (:mod:`spf.runtime.level_statistics`),
        which the autoscheduler's run-time choice reads: computed from the index arrays on the
        first call and kept, as the arrays are read-only (computed again on each call only
        while someone may write an array's memory, as a kernel writes its output's values)."""
        if self._statistics is not None:
            return self._statistics
        statistics = level_statistics(self.layout, self.fields, self.shape, self.name)
        if all(frozen(value) for value in self.fields.values() if isinstance(value, np.ndarray)):
            _set_statistics(self, statistics)
        return statistics

    @property
    def nnz(self) -> int:
        return len(self.to_coo()[1])

    def __repr__(self) -> str:
        return f"Tensor({self.name}: {self.layout.spec}, shape={self.shape})"


COORDINATE_LISTS = {2: "COO", 3: "COO3", 4: "COO4"}  # a sorted coordinate list per order


# the slots' own setters: Tensor.__setattr__ refuses every assignment once it exists
_set_layout, _set_shape, _set_fields, _set_name, _set_structs, _set_statistics = (
    getattr(Tensor, slot).__set__ for slot in Tensor.__slots__)
