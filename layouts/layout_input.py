"""A layout as the user gives it (a name, ``"NAME(k=v)"``, a path or a Layout), checked and
loaded, and a family (``Dense``) resolved to the member of one order.  Below packing, the
kernel cache and the distributed tensors, which all take layouts this way.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from spf import arguments
from spf.layout_library import load_layout

if TYPE_CHECKING:
    from spf.arguments import LayoutLike
    from spf.layout_library.model import Layout, LayoutFamily


def load_layout_argument(layout: LayoutLike) -> Layout | LayoutFamily:
    """``layout`` checked (ArgumentError for anything but a name, path or Layout) and loaded;
    a Layout or family given as one is returned as it is."""
    arguments.layout(layout, "layout")
    if isinstance(layout, (str, os.PathLike)):
        return load_layout(layout)
    return layout


def resolve_family(layout: Layout | LayoutFamily, order: int) -> Layout:
    """The member of a family (``Dense``) for tensors of ``order``; a Layout itself."""
    if hasattr(layout, "resolve"):
        return layout.resolve(order)
    return layout
