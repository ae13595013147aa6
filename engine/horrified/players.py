"""Horrified's players: the core's random player, and a heuristic co-operative team (one greedy policy every seat
shares): defeat, advance, pick up and rescue when it can, else walk toward what it needs next (HF-AMB-05)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from clix.engine.core.pending import Decision
from clix.engine.horrified import mats
from clix.engine.horrified.mats import DONE, spec_of
from clix.engine.horrified.monsters import payments, task_done
from clix.engine.horrified.rules import Advance, Defeat, EndPhase, Guide, Move, PickUp, PlayPerk, Special
from clix.engine.horrified.state import OFF_BOARD, Hero, HorrifiedState, MonsterPiece

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
        elif decision.kind == "scarab":
            scores = scarab_scores(state, list(decision.options))
        elif decision.kind == "steer":
            scores = steer_scores(state, list(decision.options))
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
            return advance_score(state, option)
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
    """Where the hero should walk: a monster it can defeat, a place where it can advance a task with what it holds
    (a coffin, the Precinct, the Camp, the Museum, the Laboratory, Frankenstein or the Bride), else the nearest
    location with items."""
    board = state.components.board
    if hero.pos == OFF_BOARD:
        return None
    wanted: list[int] = []
    for piece in state.in_game():
        spec = spec_of(state, piece.id)
        task = spec.task
        if task.kind == "humanity":  # HF-M-FRB: teach an unflipped figure, or steer the pair together once both are
            if (mats.pair_done(state) or not mats.flipped(state, piece)) and mats.teach_options(
                state, hero, replace(piece, pos=hero.pos), 0
            ):
                wanted.append(piece.pos)
        elif task_done(state, piece.id):
            if can_defeat(state, hero, piece.id) and not board.is_water(piece.pos):
                wanted.append(piece.pos)
        elif task.kind == "coffins" and task.colour is not None:
            if payments(state, hero, task.colour, task.threshold):
                wanted += piece.coffins
        elif task.kind == "evidence" and task.at is not None:
            spots = {board.index(n) for n in task.locations} - set(piece.mat)
            if any(state.item(u).location in spots for u in hero.items):
                wanted.append(board.index(task.at))
        elif task.at is not None and _can_advance_at(state, hero, piece):
            wanted.append(board.index(task.at))
    if not wanted:
        wanted = [at for at, items in state.at.items() if items]
    if not wanted:
        return None
    return min(wanted, key=lambda at: (board.distance(hero.pos, at), at))


def _can_advance_at(state: HorrifiedState, hero: Hero, piece: MonsterPiece) -> bool:
    """Whether the hero, standing at the task's location, could Advance the Creature, Mummy or Wolf Man."""
    task = spec_of(state, piece.id).task
    assert task.at is not None
    there = replace(hero, pos=state.components.board.index(task.at))
    if task.kind == "boat":
        return bool(mats.boat_options(state, there, piece))
    if task.kind == "scarabs":
        return bool(mats.scarab_options(state, there, piece, 0))
    return task.kind == "cure" and bool(mats.cure_options(state, there, piece))


def can_defeat(state: HorrifiedState, hero: Hero, monster: str) -> bool:
    """Whether the hero holds what defeating the monster costs (the Wolf Man: the Cure too)."""
    spec = spec_of(state, monster)
    if spec.task.kind == "cure" and not hero.cure:
        return False
    if spec.defeat.kind == "one-each":
        return mats.one_each(state, hero) is not None
    colour = spec.defeat.colour
    return colour is not None and bool(payments(state, hero, colour, spec.defeat.threshold))


def advance_score(state: HorrifiedState, option: Advance) -> float:
    """An Advance that helps: the Boat as far as it goes, a tablet move per strength up to what is left, humanity
    while the dial is unflipped (or to steer the pair together once both are); a wasted one scores -1."""
    task = spec_of(state, option.monster).task
    piece = state.piece(option.monster)
    assert piece is not None
    if task.kind == "boat":
        return 900.0 + option.spot
    if task.kind == "scarabs":
        return 900.0 - abs(option.spot - mats.tablet_distance(state, piece.id, piece.tablet)) / 10
    if task.kind == "humanity":
        if mats.pair_done(state):
            return 900.0 + option.spot
        return 900.0 - option.spot / 100 if not mats.flipped(state, piece) else -1.0
    return 900.0 - len(option.items)


def scarab_scores(state: HorrifiedState, options: list[Any]) -> list[float]:
    """A tablet move that brings the solution nearer (HF-M-MUM); when none does, done."""
    piece = state.piece("mummy")
    if piece is None:
        return [1.0 if o == DONE else 0.0 for o in options]
    now = mats.tablet_distance(state, piece.id, piece.tablet)
    return [0.0 if o == DONE else float(now - mats.tablet_distance(state, piece.id, mats.after_move(piece.tablet, o)))
            for o in options]  # fmt: skip


def steer_scores(state: HorrifiedState, options: list[Any]) -> list[float]:
    """Where an Advance sends Frankenstein or the Bride: together once both dials are flipped, else far apart
    (HF-M-FRB); staying put (the first option) wins ties."""
    both = mats.pair(state)
    if both is None:
        return [1.0 if k == 0 else 0.0 for k in range(len(options))]
    board = state.components.board
    moved = next((p for p in both if p.pos == options[0]), both[0])
    other = both[1] if moved is both[0] else both[0]
    sign = -1.0 if mats.pair_done(state) else 1.0
    return [sign * board.distance(int(o), other.pos) + (0.5 if k == 0 else 0.0) for k, o in enumerate(options)]


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
