"""`clix replay`: a game replayed from its seed and printed turn by turn."""

from __future__ import annotations

from analyzer.errors import ClixError
from engine.game import play_game
from engine.players import RandomAgent
from engine.roster.loader import Roster
from engine.roster.problems import did_you_mean

PLAYER_STYLES = {"random": RandomAgent}


def player_factories(spec: str) -> list:
    """Player factories from "STYLE_A,STYLE_B"."""
    names = [n.strip() for n in spec.split(",")]
    if len(names) != 2:
        raise ClixError(f"--players takes two styles separated by a comma, like random,random (got {spec!r})")
    for name in names:
        if name not in PLAYER_STYLES:
            raise ClixError("--players: " + did_you_mean("player style", name, PLAYER_STYLES))
    return [PLAYER_STYLES[n] for n in names]


def replay_game(roster: Roster, army_a: str, army_b: str, map_name: str, seed: int, players: str, turns: int) -> str:
    """The game's log, grouped by turn, with the result."""
    for army in (army_a, army_b):
        if army not in roster.armies:
            raise ClixError(did_you_mean("army", army, roster.armies, "`clix roster list armies` shows every army"))
    if map_name not in roster.maps:
        raise ClixError(did_you_mean("map", map_name, roster.maps))
    state = play_game(
        roster,
        [roster.armies[army_a], roster.armies[army_b]],
        roster.maps[map_name],
        player_factories(players),
        seed,
        turns,
        army_names=(army_a, army_b),
    )
    lines = [f"{army_a} (P1) vs {army_b} (P2) on {map_name}, seed {seed}, players {players}, turn limit {turns}"]
    turn = None
    for event in state.log:
        if event.turn != turn:
            turn = event.turn
            lines.append(f"-- turn {turn}, player {event.player}")
        detail = " ".join(f"{k}={v}" for k, v in event.detail)
        lines.append(f"   {event.kind} {detail}".rstrip())
    vp = {p.number: state.total_vp(p.number) for p in state.players}
    winner = f"player {state.winner}" if state.winner else "a draw"
    lines.append(f"result: {winner} ({state.end_reason}); victory points {vp}")
    return "\n".join(lines)
