"""Who is whose in a HeroClix game, and who stands next to whom: friends and opponents (HX-CHAR-11), adjacency
with walls, corners and flight layers (HX-MOVE-03), and whether a character may be given an action now."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.state import HeroState

POINTS_PER_ACTION = 100
"""One action a turn per 100 points of the build total (HX-TURN-02)."""


def team(state: HeroState, player: int) -> int:
    """The side `player` plays on (allies share one, HX-BUILD-07)."""
    return next((p.team for p in state.players if p.number == player), player)


def opponents(state: HeroState, character: Figure) -> list[Figure]:
    """The opposing characters on the map (HX-CHAR-11: allies are friendly)."""
    side = team(state, character.controller)
    return [c for c in state.standing() if team(state, c.controller) != side]


def adjacent_opponents(
    state: HeroState, character: Figure, at: int | None = None, soaring: bool | None = None
) -> list[Figure]:
    """Opposing characters adjacent to `character` (standing at `at`, soaring or not as `soaring` says): touching
    squares not cut apart by walls or by blocking terrain round a corner (HX-MOVE-03, HX-TERRAIN-16, -17), in
    the same layer (a soaring character is adjacent only to soaring ones, HX-MOVE-03, -16, -17) and, below
    soaring, at the same elevation (HX-ELEV-05)."""
    square = character.pos if at is None else at
    layer = state.soars(character) if soaring is None else soaring
    near = state.geometry.piece_neighbours[square]
    level = levels_of(state.geometry).level
    return [
        c
        for c in opponents(state, character)
        if c.pos in near and state.soars(c) == layer and (layer or level[c.pos] == level[square])
    ]


def cannot_act(state: HeroState, character: Figure) -> str:
    """Why `character` may not be given a non-free action now ("" if it may)."""
    if state.over:
        return "the game is over"
    if not character.alive:
        return f"{character.label} was knocked out"
    if character.controller != state.active:
        return f"{character.label} is not the active player's (player {state.active})"
    if character.acted:
        return f"{character.label} was already given an action this turn (HX-TURN-06)"
    if character.uid in state.carried:
        return f"{character.label} was carried this turn and may take no action until the next (HX-MOVE-26)"
    if character.tokens >= 2:
        return f"{character.label} has two action tokens and may take no action this turn (HX-TURN-06, -13)"
    if state.actions_left <= 0:
        per_turn = state.build_total // POINTS_PER_ACTION
        return f"no action left this turn: {per_turn} per turn at {state.build_total} points (HX-TURN-02)"
    return ""


def at(state: HeroState, square: int) -> str:
    """A square as players read it: [x, y]."""
    x, y = state.geometry.xy(square)
    return f"[{x}, {y}]"
