"""Tiling (strip-mining) of a recipe: the space gains a tile variable, and a linear find
over a tiled, monotone array is guarded per tile (Fig. 8 of the core paper)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Sequence

from spf.space.expressions import Affine, And, Constraint

from spf.codegen.finds.find import Encoding, is_monotone
from spf.codegen.loops import Find, Guard, Loop, Node, TileGuard

if TYPE_CHECKING:
    from spf.space.iteration_space import StatementSpace
    from spf.space.properties import Property

    from spf.codegen.scanning.scan import FindSite


def tile_space(statement_space: StatementSpace, tiles: Sequence[tuple[str, int]]) -> StatementSpace:
    """The statement's space with a tile variable ``v_tile`` per tiled variable v:
    ``size * v_tile <= v <= size * v_tile + size - 1``."""
    from spf.space.sets import UFSet
    tiled = statement_space.set
    for variable, size in tiles:
        tile = f"{variable}_tile"
        block = Affine.of(tile).scale(size)
        formula = And((Constraint(block, "<=", Affine.of(variable)),
                       Constraint(Affine.of(variable), "<=", block + (size - 1))))
        tiled = tiled.product(UFSet.from_formula((tile, variable), formula))
    return dataclasses.replace(statement_space, set=tiled)


def add_tile_guard(nodes: list[Node], variable: str, sites: Sequence[tuple[FindSite, dict]],
                   properties: Sequence[Property]) -> None:
    """Fig. 8: wrap the loop over a tiled, linearly searched, monotone array in a tile guard
    that skips the tile when the array's values at its ends cannot bracket the key."""
    site = next((s for s, _ in sites if s.variable == variable), None)
    if site is None:
        return
    calls = dict(sites[[s for s, _ in sites].index(site)][1])
    encoding = Encoding(site, calls, properties)
    increasing = is_monotone(encoding, True, False)
    if not increasing and not is_monotone(encoding, False, False):
        return

    def wrap(items):
        for index, node in enumerate(items):
            if isinstance(node, Loop) and node.variable == variable:
                items[index] = TileGuard(variable, site.call, site.key, node.lower, node.upper,
                                         increasing, [node])
                return True
            if isinstance(node, (Loop, Guard, Find, TileGuard)) and wrap(node.body):
                return True
        return False

    wrap(nodes)
