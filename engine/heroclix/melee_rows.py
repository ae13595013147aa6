"""What a HeroClix game at a table of three or four tells a melee's row (analyzer/melee/design.py): the first
player, the rounds played, each player's victory points and build total, who hit whom and who knocked out whose
characters, who was eliminated, and the turns each took and how many of them were idle. The analyzer's melee puts
these in its columns as it does HorrorClix's."""

from __future__ import annotations

from typing import Any

from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.state import KNOCKBACK, HeroState

ACTION_EVENTS = frozenset(
    {
        EventKind.MOVE, EventKind.ATTACK, EventKind.POWER, EventKind.TELEKINESIS, EventKind.TERRAIN_ATTACK,
        EventKind.BREAK_AWAY, EventKind.CARRIED, EventKind.PICKED_UP, EventKind.SUPPORT_ROLL,
    }
)  # fmt: skip
"""The events that show the active player took an action in its turn (a turn without any is idle)."""
DEALT_BY_ATTACKER = frozenset({"attack", KNOCKBACK, "poison"})
"""The causes of damage credited to the character whose attack (or power) dealt it."""


def melee_facts(state: HeroState) -> dict[str, Any]:
    """The facts of a finished game by player number (see the module).

    `vp`: each player's victory points (HX-END-04..08); `rank_vp`: the VP placings are read from, every player's
    alike when nobody was defeated (HX-END-11: then the force built with the fewest points wins, whatever the VP);
    `attacks[(by, at)]`: attack rolls of player `by`'s characters that hit one of player `at`'s (the log names the
    characters hit, not those missed); `kills[(by, at)]`: KOs of `at`'s characters dealt by `by`'s (HX-END-05; a KO by
    pushing damage or a critical miss credits no character, HX-END-08); `turns` and `idle`: turns taken, and those
    with no action."""
    owner = {c.label: c.owner for c in state.monsters}
    players = [p.number for p in state.players]
    first = next((e.get("player") for e in state.log if e.kind == EventKind.FIRST_PLAYER), players[0])
    attacks: dict[tuple[int, int], int] = {}
    kills: dict[tuple[int, int], int] = {}
    acted: dict[int, set[int]] = {p: set() for p in players}
    actor: str | None = None
    last_hurt: dict[str, int | None] = {}
    for event in state.log:
        kind = event.kind
        if kind in ACTION_EVENTS and event.player in acted and event.turn >= 1:
            acted[event.player].add(event.turn)
        if kind in (EventKind.ATTACK, EventKind.TERRAIN_ATTACK):
            actor = event.get("attacker")
            if kind == EventKind.ATTACK and actor in owner:
                for hit in event.get("hit") or ():
                    pair = (owner[actor], owner.get(hit, 0))
                    if pair[1] and pair[0] != pair[1]:
                        attacks[pair] = attacks.get(pair, 0) + 1
        elif kind in (EventKind.POWER, EventKind.TELEKINESIS):
            actor = event.get("character")
        elif kind == EventKind.DAMAGE:
            hurt, cause = event.get("character"), event.get("cause")
            by = owner.get(actor or "") if cause in DEALT_BY_ATTACKER else None
            last_hurt[hurt] = by if by is not None and by != owner.get(hurt) else None
        elif kind == EventKind.KO:
            gone = event.get("character")
            by = last_hurt.get(gone)
            if by is not None and gone in owner:
                kills[by, owner[gone]] = kills.get((by, owner[gone]), 0) + 1
    standing = {c.owner for c in state.standing()}
    vp = {p: state.points.get(p, 0.0) for p in players}
    nobody_defeated = all(c.alive for c in state.monsters)
    turns = {p: state.turns_taken.get(p, 0) for p in players}
    if state.over and state.end_reason != "turn limit" and state.turn in acted.get(state.active, set()):
        turns[state.active] += 1  # the turn the game ended in, once its player acted (as a duel's rows count it)
    rounds = max(1, *turns.values())
    return {
        "first": first,
        "rounds": rounds,
        "end_reason": state.end_reason,
        "vp": vp,
        "rank_vp": dict.fromkeys(players, 0.0) if nobody_defeated else vp,
        "points": {p.number: p.army_points for p in state.players},
        "attacks": attacks,
        "kills": kills,
        "eliminated": {p: p not in standing for p in players},
        "turns": turns,
        "idle": {p: max(0, turns[p] - len(acted[p])) for p in players},
    }
