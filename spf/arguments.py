"""Checking the arguments of the public functions before they are used.

A wrong type passed to ``spf.compile``, ``spf.pack`` and the others would otherwise
fail deep inside as an AttributeError or a TypeError that names nothing the caller
wrote.  Each check here raises :class:`~spf.errors.ArgumentError` naming the argument,
what it must be and what was given, and returns the value in the form the callers use.
"""

from __future__ import annotations

import numbers
import os
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from spf.errors import ArgumentError

if TYPE_CHECKING:
    from typing import Union

    from spf.layout_library.model import Layout, LayoutFamily

    LayoutLike = Union[str, os.PathLike, Layout, LayoutFamily]  # what a layout argument may be

LARGEST_EXTENT = 2**63 - 1
"""Extents are stored in 64-bit integers (and each layout's fields bound them further)."""


def _given(value: object) -> str:
    """``value`` as error messages quote it: short, with its type."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def text(value: object, argument: str, what: str) -> str:
    """``value`` when it is a str, else an ArgumentError naming ``argument`` (``what`` it should hold)."""
    if not isinstance(value, str):
        hint = " (decode bytes first)" if isinstance(value, (bytes, bytearray)) else ""
        raise ArgumentError(f"{argument} must be a str: {what}; got {_given(value)}{hint}")
    return value


def flag(value: object, argument: str) -> bool:
    """``value`` as a bool; only True and False (numpy's included) are accepted."""
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"{argument} must be True or False, got {_given(value)}")
    return bool(value)


def name(value: object, argument: str = "name") -> str:
    """A tensor name as messages use it: a non-empty str."""
    if not isinstance(value, str) or not value:
        raise ArgumentError(f"{argument} must be a non-empty str, got {_given(value)}")
    return value


def is_layout(value: object) -> bool:
    """Whether ``value`` can name a layout: a spec or path, or a loaded Layout or family."""
    from spf.layout_library.model import Layout, LayoutFamily
    return isinstance(value, (str, os.PathLike, Layout, LayoutFamily))


def layout(value: object, argument: str) -> LayoutLike:
    """``value`` when it names a layout (see :func:`is_layout`)."""
    if not is_layout(value):
        raise ArgumentError(f"{argument} must be a layout name such as 'CSR', 'NAME(k=v)', a path to a "
                            f".layout file or a loaded layout, got {_given(value)}")
    return value


def layout_mapping(value: object) -> dict:
    """``layouts=``: a mapping from tensor names to layouts, checked entry by entry."""
    if not isinstance(value, Mapping):
        raise ArgumentError("layouts must be a dict from tensor names to layouts, e.g. "
                            f"{{'A': 'CSR', 'x': 'Dense', 'y': 'Dense'}}; got {_given(value)}")
    for tensor, spec in value.items():
        if not isinstance(tensor, str):
            raise ArgumentError(f"layouts: tensor names must be str, got the key {_given(tensor)}")
        layout(spec, f"layouts[{tensor!r}]")
    return dict(value)


def share_mapping(value: object) -> dict:
    """``share=``: None, or a mapping from the output's name to an input's name."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ArgumentError(f"share must be a dict from the output to an input, e.g. {{'A': 'B'}}; "
                            f"got {_given(value)}")
    for target, source in value.items():
        if not isinstance(target, str) or not isinstance(source, str):
            raise ArgumentError(f"share: names must be str, got {_given(target)}: {_given(source)}")
    return dict(value)


def names(value: object, argument: str, what: str) -> list[str] | None:
    """None, or a list or tuple of str (a loop order, constraints)."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise ArgumentError(f"{argument} must be a list of str ({what}), got {_given(value)}")
    for item in value:
        if not isinstance(item, str):
            raise ArgumentError(f"{argument} must be a list of str ({what}); it holds {_given(item)}")
    return list(value)


def extent(value: object, position: int, tensor: str) -> int:
    """One extent of a shape: an integer (not a bool, not a float), at least 0."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
        raise ArgumentError(f"tensor {tensor}: extent {position} of the shape must be an integer, "
                            f"got {_given(value)}")
    value = int(value)
    if value < 0:
        raise ArgumentError(f"tensor {tensor}: extent {position} of the shape is negative ({value})")
    if value > LARGEST_EXTENT:
        raise ArgumentError(f"tensor {tensor}: extent {position} of the shape ({value}) exceeds "
                            f"{LARGEST_EXTENT}, the largest 64-bit integer")
    return value


def shape(value: object, tensor: str) -> tuple[int, ...]:
    """A shape: a tuple or list (or 1-d integer array) of extents (see :func:`extent`)."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        value = value.tolist() if value.dtype.kind in "iu" else list(value)
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise ArgumentError(f"tensor {tensor}: the shape must be a tuple of integers, got {_given(value)}")
    return tuple(extent(item, position, tensor) for position, item in enumerate(value))
