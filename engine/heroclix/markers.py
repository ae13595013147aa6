"""Terrain markers powers place (HX-PAC-10): each makes its square hindering (Smoke Cloud, HX-POWER-20) or blocking
(Barrier, HX-POWER-30) terrain for as long as it stays, and all a player's markers go at the beginning of that
player's next turn, even if the power has been lost (HX-PAC-17). A marker changes the map, so the game gets a new
`Geometry`; the square's own legend character is kept and put back when the marker goes (a barrier destroyed into
debris goes with the others, HX-POWER-30 OPEN)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import double_base
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.objects import layout_of
from clix.engine.heroclix.sides import team
from clix.engine.heroclix.state import HeroState

SMOKE = "smoke cloud"
BARRIER = "barrier"
LEGEND = {SMOKE: "h", BARRIER: "#"}
"""What each kind of marker makes its square: hindering or blocking terrain."""
SMOKE_PENALTY = 1
"""Attack lost by an opposing character occupying a Smoke Cloud marker (HX-POWER-20)."""


def lay(state: HeroState, user: Figure, squares: tuple[int, ...], kind: str) -> None:
    """`user` places a marker of `kind` on each of `squares` (checked by the power's rules)."""
    layout = layout_of(state)
    rows = [list(row) for row in layout.rows]
    for square in squares:
        x, y = state.geometry.xy(square)
        state.markers[square] = (user.controller, rows[y][x], kind)
        rows[y][x] = LEGEND[kind]
    state.geometry = geometry_of(layout.model_copy(update={"rows": ["".join(row) for row in rows]}))
    state.emit(EventKind.MARKERS, character=user.label, marker=kind, at=tuple(state.geometry.xy(s) for s in squares))


def clear(state: HeroState, player: int) -> None:
    """Remove every marker `player`'s characters placed, the squares as they were (HX-POWER-20, -30)."""
    mine = [square for square, (owner, _, _) in state.markers.items() if owner == player]
    if not mine:
        return
    layout = layout_of(state)
    rows = [list(row) for row in layout.rows]
    for square in mine:
        x, y = state.geometry.xy(square)
        rows[y][x] = state.markers.pop(square)[1]
    state.geometry = geometry_of(layout.model_copy(update={"rows": ["".join(row) for row in rows]}))
    state.emit(EventKind.MARKERS, player=player, removed=tuple(state.geometry.xy(s) for s in mine))


def smoke_penalty(state: HeroState, character: Figure) -> int:
    """What `character` loses from its attack value standing on a Smoke Cloud marker of an opposing player (a
    soaring character is above it) (HX-POWER-20); a double-base character on one with either square, once
    (HX-SPECIAL-02)."""
    if state.soars(character):
        return 0
    side = team(state, character.controller)
    for square in double_base.squares(state, character):
        placed = state.markers.get(square)
        if placed is not None and placed[2] == SMOKE and team(state, placed[0]) != side:
            return SMOKE_PENALTY
    return 0
