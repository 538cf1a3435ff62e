"""spf: a compiler for sparse tensor algebra built on the sparse polyhedral framework.

The public interface (DESIGN.md):

* :func:`layouts`, :func:`load_layout`: the declarative layout library;
* :func:`pack`, :class:`Tensor`, :func:`read_tns`: packing data into layouts (inspectors);
* :func:`parse_statement`: tensor index notation;
* :func:`iteration_space`: the iteration space of a statement over its layouts;
* :class:`UFSet`: integer sets and relations with uninterpreted functions on islpy.
"""

from spf.errors import (IterationSpaceError, LayoutError, LayoutSpecError, NotationError, PackError, ParseError,
                        PropertyViolation, SpfError, UnknownLayoutError)
from spf.iteration_space import IterationSpace, StatementSpace, iteration_space
from spf.notation import Statement, parse_statement
from spf.packing import Tensor, from_fields, pack, read_tns
from spf.sets import UFSet


def layouts() -> list[str]:
    """The names of the built-in layouts."""
    from spf.layout_library import available_layouts
    return available_layouts()


def load_layout(spec, **parameters):
    """A layout by name, ``"NAME(k=v, ...)"`` for parameters, or a path to a layout file."""
    from spf.layout_library import load_layout as _load
    return _load(spec, **parameters)


__all__ = [
    "IterationSpace", "IterationSpaceError", "LayoutError", "NotationError", "PackError",
    "ParseError", "PropertyViolation", "SpfError", "Statement", "StatementSpace", "Tensor",
    "UFSet", "UnknownLayoutError", "from_fields", "iteration_space", "layouts", "load_layout",
    "pack", "parse_statement", "read_tns",
]
