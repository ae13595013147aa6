"""Conformance checks that must hold in every state of every game (run over thousands of random games)."""

from __future__ import annotations

from clix.engine.core.geometry import BLOCKING
from clix.engine.horrorclix.state import ON_MAP, GameState, Phase


def violations(state: GameState) -> list[str]:
    """Every invariant `state` breaks, one message each (empty when all hold)."""
    found: list[str] = []
    seen: dict[int, str] = {}
    pieces = [(m.label, m.pos) for m in state.monsters if m.alive]
    pieces += [(v.label, v.pos) for v in state.victims if v.state == ON_MAP]
    for label, pos in pieces:
        if pos in seen:
            found.append(f"{label} and {seen[pos]} share space {state.geometry.xy(pos)}")
        seen[pos] = label
        if not 0 <= pos < state.geometry.size:
            found.append(f"{label} is off the map ({pos})")
        elif state.geometry.terrain[pos] == BLOCKING:
            found.append(f"{label} stands in blocking terrain at {state.geometry.xy(pos)}")
    for m in state.monsters:
        if not 0 <= m.click < m.stats.clicks:
            found.append(f"{m.label} dial at click {m.click}, outside 0..{m.stats.clicks - 1}")
        elif m.alive and m.stats.killed[m.click]:
            found.append(f"{m.label} shows a killed click but is still in play")
        if not 0 <= m.tokens <= 2:
            found.append(f"{m.label} has {m.tokens} action tokens")
    explained = {p.number: {"kills": 0, "victims": 0} for p in state.players}
    for event in state.log:
        player = event.get("player")
        if event.kind == "killed" and player is not None:
            explained[player]["kills"] += event.get("vp", 0)
        elif event.kind in ("slain", "rescued"):
            explained[player]["victims"] += event.get("vp", 0)
    for number, parts in explained.items():
        for part, points in parts.items():
            if state.vp[number][part] != points:
                found.append(f"player {number} has {state.vp[number][part]} {part} VP but the log explains {points}")
    if state.over and state.phase != Phase.OVER:
        found.append("the game is over but its phase is " + state.phase)
    return found
