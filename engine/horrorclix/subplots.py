"""Subplots: revealed at setup, scored at the end of the game (HC-PLOT-04, HC-END-08, HC-END-10)."""

from __future__ import annotations

from collections.abc import Callable

from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.plot_table import (
    card,
    table,
)
from clix.engine.horrorclix.state import GameState, VictimState

# --- subplots ---------------------------------------------------------------------------------------


def reveal_subplots(state: GameState) -> None:
    """Setup step 7: the subplots in the crypts are revealed face up at once (HC-SETUP-09, HC-PLOT-04); each
    player's rival and master are the monsters with the most points at this moment (docs/rulings.md)."""
    plot = None
    for player in state.players:
        for name in [n for n in player.hidden_cards if card(state, n).kind == "subplot"]:
            plot = plot or table(state)
            player.hidden_cards.remove(name)
            plot.subplots.setdefault(player.number, []).append(name)
            state.emit(EventKind.SUBPLOT_REVEALED, player=player.number, card=name)
    if plot is None:
        return
    plot.slain_before = frozenset(v.label for v in state.victims if v.state == VictimState.SLAIN)
    for number in plot.subplots:
        team = state.player(number).team
        rivals = [m for m in state.monsters if m.alive and state.player(m.controller).team != team]
        own = [m for m in state.monsters if m.alive and m.owner == number]
        if rivals:
            plot.rival[number] = max(rivals, key=lambda m: (m.stats.points, -m.uid)).uid
        if own:
            plot.master[number] = max(own, key=lambda m: (m.stats.points, -m.uid)).uid


def score_subplots(state: GameState) -> None:
    """At the end: each subplot whose condition holds scores (HC-PLOT-04, HC-END-08); a subplot whose player
    was eliminated is removed and scores nothing (HC-END-10)."""
    plot = state.plot
    if plot is None or not plot.subplots:
        return
    for number, names in plot.subplots.items():
        for name in names:
            if state.player(number).eliminated:
                state.emit(EventKind.SUBPLOT_REMOVED, player=number, card=name)
                continue
            p = card(state, name).params
            count = CONDITIONS[p["condition"]](state, number)
            vp = p["vp"] * count * (state.build_total // 100 if p.get("per_100_build") else 1)
            state.vp[number]["subplots"] += vp
            state.emit(EventKind.SUBPLOT_SCORED, player=number, card=name, vp=vp)


def _slain(state: GameState) -> set[str]:
    """Labels of the victims slain (a victim removed with its slayer's card was slain all the same)."""
    found = {e.get("victim") for e in state.log if e.kind == "slain"}
    found.update(v.label for v in state.victims if v.state == VictimState.SLAIN)
    return found | table(state).slain_before


def _last_army_standing(state: GameState, number: int) -> int:
    team = state.player(number).team
    alive = [m for m in state.monsters if m.alive]
    return int(bool(alive) and all(state.player(m.controller).team == team for m in alive))


def _each_not_slain(state: GameState, number: int) -> int:
    """Victims not slain: rescued by anyone, still on the map, or removed unslain (HC-PLOT-09)."""
    slain = _slain(state)
    return sum(1 for v in state.victims if v.label not in slain)


def _each_slain(state: GameState, number: int) -> int:
    slain = _slain(state)
    return sum(1 for v in state.victims if v.label in slain)


def _rival_killed(state: GameState, number: int) -> int:
    rival = table(state).rival.get(number)
    if rival is None:
        return 0
    label = state.monsters[rival].label
    return int(
        any(
            e.kind == "killed" and e.get("monster") == label and e.get("by") is not None and e.get("player") == number
            for e in state.log
        )
    )


def _each_on_master(state: GameState, number: int) -> int:
    master = table(state).master.get(number)
    if master is None or not state.monsters[master].alive:
        return 0
    return len(state.monsters[master].victims)


def _each_rescued_by_you(state: GameState, number: int) -> int:
    return sum(1 for e in state.log if e.kind == "rescued" and e.get("player") == number)


CONDITIONS: dict[str, Callable[[GameState, int], int]] = {
    "last_army_standing": _last_army_standing,
    "each_victim_not_slain": _each_not_slain,
    "each_victim_slain": _each_slain,
    "rival_killed": _rival_killed,
    "each_victim_on_master": _each_on_master,
    "each_victim_rescued_by_you": _each_rescued_by_you,
}
"""Every subplot condition of the registry (SUBPLOT_CONDITIONS): how many times it holds for a player."""
