"""Horrified's players: the core's random player, and a heuristic co-operative team (one greedy policy every seat
shares): defeat, advance, pick up and rescue when it can, else walk toward what it needs next (HF-AMB-05)."""

from __future__ import annotations

from typing import Any

import numpy as np
from clix.engine.core.pending import Decision
from clix.engine.horrified.monsters import payments, task_done
from clix.engine.horrified.rules import Advance, Defeat, EndPhase, Guide, Move, PickUp, PlayPerk, Special
from clix.engine.horrified.state import OFF_BOARD, Hero, HorrifiedState

UNREACHABLE = 10_000


class TeamPlayer:
    """A greedy co-operative seat: scores each option and takes the best, ties broken by its own generator."""

    name = "team"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, state: HorrifiedState, decision: Decision) -> int:
        if decision.kind == "action":
            scores = [self.score(state, option) for option in decision.options]
        elif decision.kind == "defend":
            scores = [defend_score(state, option) for option in decision.options]
        elif decision.kind == "target":  # a hero who can defend before one who cannot
            scores = [_target_score(state, option) for option in decision.options]
        else:
            scores = [1.0 if k == 0 else 0.0 for k in range(len(decision.options))]
        best = max(scores)
        tied = [k for k, s in enumerate(scores) if s == best]
        return int(tied[int(self.rng.integers(len(tied)))]) if len(tied) > 1 else tied[0]

    def score(self, state: HorrifiedState, option: Any) -> float:
        hero = state.current
        board = state.components.board
        if isinstance(option, Defeat):
            return 1000.0
        if isinstance(option, Advance):
            return 900.0 - len(option.items)
        if isinstance(option, PickUp):
            return 500.0
        if isinstance(option, Special) and option.kind == "pick-up-adjacent":
            return 450.0
        if isinstance(option, Guide | Move) and _rescues(state, option):
            return 400.0
        if isinstance(option, PlayPerk):
            effect = state.components.perks[option.perk].effect
            if effect == "extra-actions" and state.actions_left == 0:
                return 300.0
            if effect == "items-each-player":
                return 100.0
            return -1.0
        if isinstance(option, EndPhase):
            return 0.0
        goal = goal_of(state, hero)
        if goal is None:
            return -1.0
        if isinstance(option, Move):
            gained = board.distance(hero.pos, goal) - board.distance(option.to, goal)
            return 50.0 + 10 * gained - len(option.villagers) if gained > 0 else -1.0
        if isinstance(option, Special) and option.kind in ("move-anywhere", "move-to-hero", "move-to-monster"):
            gained = board.distance(hero.pos, goal) - board.distance(option.to, goal)
            return 45.0 + 10 * (gained - 1) if gained > 1 else -1.0
        return -1.0


def goal_of(state: HorrifiedState, hero: Hero) -> int | None:
    """Where the hero should walk: a monster it can defeat, a coffin it can smash, the evidence desk if it carries
    evidence, else the nearest location with items."""
    board = state.components.board
    if hero.pos == OFF_BOARD:
        return None
    wanted: list[int] = []
    for piece in state.in_game():
        spec = state.components.monsters[piece.id]
        if task_done(state, piece.id):
            if payments(state, hero, spec.defeat.colour, spec.defeat.threshold) and not board.is_water(piece.pos):
                wanted.append(piece.pos)
        elif spec.task.kind == "coffins" and spec.task.colour is not None:
            if payments(state, hero, spec.task.colour, spec.task.threshold):
                wanted += piece.coffins
        elif spec.task.at is not None:
            spots = {board.index(n) for n in spec.task.locations} - set(piece.mat)
            if any(state.item(u).location in spots for u in hero.items):
                wanted.append(board.index(spec.task.at))
    if not wanted:
        wanted = [at for at, items in state.at.items() if items]
    if not wanted:
        return None
    return min(wanted, key=lambda at: (board.distance(hero.pos, at), at))


def _rescues(state: HorrifiedState, option: Guide | Move) -> bool:
    safe = state.components.villagers
    if isinstance(option, Guide):
        return safe[option.villager][1] == option.to
    return any(safe[v][1] == option.to for v in option.villagers)


def defend_score(state: HorrifiedState, option: Any) -> float:
    """Always ignore a hit when it can (terror ends games), spending the weakest item."""
    if isinstance(option, str):
        return 0.0
    return 10.0 - state.item(int(option)).strength


def _target_score(state: HorrifiedState, option: Any) -> float:
    kind, _, who = str(option).partition(":")
    if kind != "hero":
        return 0.0
    return float(len(next(h for h in state.heroes if h.id == who).items))
