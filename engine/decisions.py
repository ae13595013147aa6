"""Choices the rules put to a player in the middle of resolving something (responses, "may" effects)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from clix.engine.players.base import Decision
from clix.engine.state import GameState

T = TypeVar("T")


def ask(state: GameState, kind: str, player: int, options: Sequence[T], subject: str = "", context: Any = None) -> T:
    """Put a choice to `player`; `options[0]` is the default (decline), taken when nobody is asked.
    `context` is what the choice is about (a timing window, the victim or monster moved), for players."""
    if len(options) == 1 or state.ask is None:
        return options[0]
    choice = state.ask(state, Decision(kind, player, list(options), subject, context))
    if not 0 <= choice < len(options):
        raise ValueError(f"decision {kind}: option {choice} of {len(options)}")
    return options[choice]


def responders(state: GameState, can_respond: Any) -> list[int]:
    """Who may respond, in order: the opponent to the active player's left first, then clockwise, passing
    over players who cannot (HC-PLOT-08, HC-PLOT-13); `can_respond(player)` says whether one can."""
    count = len(state.players)
    order = [(state.active - 1 + k) % count + 1 for k in range(1, count)]
    team = state.player(state.active).team
    return [p for p in order if state.player(p).team != team and not state.player(p).eliminated and can_respond(p)]
