"""The built-in layout library and the loader of layout files (``spf.layout_library``).

Each storage format is a text file ``NAME.layout`` (see README.md in this folder):
its fields, shape, the relation from physical positions to logical coordinates,
where values live and the properties of its index arrays.
"""

from spf.layout_library.builder import LayoutSpecError
from spf.layout_library.loader import available_layouts, load_layout, parse_layout_text, parse_spec
from spf.layout_library.model import (Arith, BinaryOp, Field, Layout, LayoutFamily, Name, Negate, Number, PropertySpec,
                                      ShapeRef)

__all__ = [
    "Arith", "BinaryOp", "Field", "Layout", "LayoutFamily", "LayoutSpecError", "Name",
    "Negate", "Number", "PropertySpec", "ShapeRef", "available_layouts", "load_layout",
    "parse_layout_text", "parse_spec",
]
