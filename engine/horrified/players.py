"""Horrified's players: the core's random player, and a heuristic co-operative team (one greedy policy every seat
shares): defeat, advance, pick up and rescue when it can, pool items in one hero's hands when together they can do
what neither can alone (Share, HF-ACT-05), else walk toward what it needs next (HF-AMB-05)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from clix.engine.core.pending import Decision
from clix.engine.horrified import mats
from clix.engine.horrified.mats import DONE, spec_of
from clix.engine.horrified.monsters import evidence_spots, payments, task_done
from clix.engine.horrified.rules import Advance, Defeat, EndPhase, Guide, Move, PickUp, PlayPerk, Share, Special
from clix.engine.horrified.state import OFF_BOARD, Hero, HorrifiedState, MonsterPiece


@dataclass(frozen=True)
class TeamWeights:
    """The team player's numbers (issue 40): an action's score by kind, the best taken. The defaults are the
    hand-set ones (`HAND_SET`) with `leap`, `carry` and `escort` tuned by self-play (`clix.engine.horrified.tuning`:
    +6.4 points of win rate [+4.8, +8.0] on 4,000 fresh games, docs/tuning.md)."""

    defeat: float = 1000.0
    """A Defeat (HF-ACT-07)."""
    advance: float = 900.0
    """An Advance that helps (HF-ACT-06), adjusted a little by `advance_score`."""
    pick_up: float = 500.0
    """Picking up the items here (HF-ACT-04)."""
    pick_up_adjacent: float = 450.0
    """A special action picking up the items next door (HF-ACT-03)."""
    rescue: float = 400.0
    """A Move or Guide that brings a villager to its safe place (HF-VILL-01)."""
    share: float = 350.0
    """A Share that lets one hero do what none here can alone (HF-ACT-05), plus `share_job` per thing gained."""
    share_job: float = 1.0
    extra_actions: float = 300.0
    """An extra-actions perk once the actions are used up (HF-PERK-01)."""
    items_perk: float = 100.0
    """A perk placing items for each player."""
    walk: float = 50.0
    """A Move nearer the hero's goal (`goal_of`), plus `walk_step` per space gained, less `carry` per villager
    brought along and plus `escort` per one of them brought nearer its safe place."""
    walk_step: float = 10.0
    carry: float = 0.0
    escort: float = 5.0
    leap: float = 70.0
    """A special move (anywhere, to a hero or to a monster) gaining two spaces or more toward the goal, plus
    `walk_step` per space beyond the first."""
    guide: float = -1.0
    """A Guide bringing a villager nearer its safe place without reaching it (HF-ACT-02); below 0: never."""
    defeat_reach: float = 0.0
    """In choosing the goal, a monster the hero can defeat counts as this many spaces nearer than a task."""


DEFAULT_WEIGHTS = TeamWeights()
HAND_SET = TeamWeights(carry=1.0, escort=0.0, leap=45.0)
"""The weights as first set by hand (what the tuning race started from)."""


class TeamPlayer:
    """A greedy co-operative seat: scores each option and takes the best, ties broken by its own generator."""

    name = "team"

    def __init__(self, rng: np.random.Generator, weights: TeamWeights = DEFAULT_WEIGHTS) -> None:
        self.rng = rng
        self.weights = weights

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as its generator and weights."""
        return (type(self), (self.rng, self.weights))

    def choose(self, state: HorrifiedState, decision: Decision) -> int:
        if decision.kind == "action":
            scores = self.scores(state, decision.options)
        elif decision.kind == "defend":
            scores = [defend_score(state, option) for option in decision.options]
        elif decision.kind == "target":  # a hero who can defend before one who cannot
            scores = [_target_score(state, option) for option in decision.options]
        elif decision.kind == "scarab":
            scores = scarab_scores(state, list(decision.options))
        elif decision.kind == "steer":
            scores = steer_scores(state, list(decision.options))
        elif decision.kind == "share":
            scores = share_scores(state, list(decision.options))
        else:
            scores = [1.0 if k == 0 else 0.0 for k in range(len(decision.options))]
        best = max(scores)
        tied = [k for k, s in enumerate(scores) if s == best]
        return int(tied[int(self.rng.integers(len(tied)))]) if len(tied) > 1 else tied[0]

    def scores(self, state: HorrifiedState, options: Sequence[Any]) -> list[float]:
        """Every action's score, the hero's goal (`goal_of`) found once, when a walk first needs it."""
        memo: list[int | None] = []
        return [self.score(state, option, memo) for option in options]

    def score(self, state: HorrifiedState, option: Any, memo: list[int | None] | None = None) -> float:
        """One action's score (`TeamWeights`); `memo` (empty, or holding the goal) shares `goal_of` between one
        decision's options."""
        w = self.weights
        hero = state.current
        board = state.components.board
        if isinstance(option, Defeat):
            return w.defeat
        if isinstance(option, Advance):
            return advance_score(state, option, w.advance)
        if isinstance(option, PickUp):
            return w.pick_up
        if isinstance(option, Special) and option.kind == "pick-up-adjacent":
            return w.pick_up_adjacent
        if isinstance(option, Guide | Move) and _rescues(state, option):
            return w.rescue
        if isinstance(option, Share):
            pooled = share_gain(state)
            return w.share + w.share_job * len(pooled) if pooled else -1.0
        if isinstance(option, PlayPerk):
            effect = state.components.perks[option.perk].effect
            if effect == "extra-actions" and state.actions_left == 0:
                return w.extra_actions
            if effect == "items-each-player":
                return w.items_perk
            return -1.0
        if isinstance(option, EndPhase):
            return 0.0
        if isinstance(option, Guide):
            return w.guide if _nearer_safety(state, option.villager, option.to) else -1.0
        if memo is None:
            memo = []
        if not memo:
            memo.append(goal_of(state, hero, w.defeat_reach))
        goal = memo[0]
        if goal is None:
            return -1.0
        if isinstance(option, Move):
            gained = board.distance(hero.pos, goal) - board.distance(option.to, goal)
            if gained <= 0:
                return -1.0
            escorted = sum(_nearer_safety(state, v, option.to) for v in option.villagers) if w.escort else 0
            return w.walk + w.walk_step * gained - w.carry * len(option.villagers) + w.escort * escorted
        if isinstance(option, Special) and option.kind in ("move-anywhere", "move-to-hero", "move-to-monster"):
            gained = board.distance(hero.pos, goal) - board.distance(option.to, goal)
            return w.leap + w.walk_step * (gained - 1) if gained > 1 else -1.0
        return -1.0


def goal_of(state: HorrifiedState, hero: Hero, defeat_reach: float = 0.0) -> int | None:
    """Where the hero should walk: a monster it can defeat, a place where it can advance a task with what it holds
    (a coffin, the Precinct, the Camp, the Museum, the Laboratory, Frankenstein or the Bride), else the nearest
    location with items; a defeat counts as `defeat_reach` spaces nearer (`TeamWeights`)."""
    board = state.components.board
    if hero.pos == OFF_BOARD:
        return None
    wanted: list[int] = []
    defeats: set[int] = set()
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
                defeats.add(piece.pos)
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
    return min(wanted, key=lambda at: (board.distance(hero.pos, at) - (defeat_reach if at in defeats else 0), at))


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


def advance_score(state: HorrifiedState, option: Advance, base: float = 900.0) -> float:
    """An Advance that helps: the Boat as far as it goes, a tablet move per strength up to what is left, humanity
    while the dial is unflipped (or to steer the pair together once both are); a wasted one scores -1."""
    task = spec_of(state, option.monster).task
    piece = state.piece(option.monster)
    assert piece is not None
    if task.kind == "boat":
        return base + option.spot
    if task.kind == "scarabs":
        return base - abs(option.spot - mats.tablet_distance(state, piece.id, piece.tablet)) / 10
    if task.kind == "humanity":
        if mats.pair_done(state):
            return base + option.spot
        return base - option.spot / 100 if not mats.flipped(state, piece) else -1.0
    return base - len(option.items)


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


def _nearer_safety(state: HorrifiedState, villager: int, to: int) -> bool:
    """Whether `to` is nearer the villager's safe place than where it stands (HF-VILL-01)."""
    board = state.components.board
    safe = state.components.villagers[villager][1]
    return bool(board.distance(to, safe) < board.distance(state.villagers[villager], safe))


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


Transfer = tuple[int, int | str]
"""One item (its uid, or "cure" for the Cure) leaving hero `giver` (an index into `state.heroes`)."""


def jobs(state: HorrifiedState, hero: Hero) -> frozenset[tuple[str, str]]:
    """What the hero could do with what it holds, wherever it stands: ("defeat", monster) for a monster whose task is
    done and whose defeat it can pay (HF-ACT-07; the Wolf Man: with the Cure too, HF-M-WOL), ("advance", monster) for
    a task it can advance (HF-ACT-06: a coffin paid, a piece of evidence, the Boat, the scarabs, an ingredient,
    humanity)."""
    found: set[tuple[str, str]] = set()
    for piece in state.in_game():
        task = spec_of(state, piece.id).task
        if task.kind == "humanity":
            if (mats.pair_done(state) or not mats.flipped(state, piece)) and mats.teach_options(
                state, replace(hero, pos=piece.pos), piece, 0
            ):
                found.add(("advance", piece.id))
        elif task_done(state, piece.id):
            if can_defeat(state, hero, piece.id):
                found.add(("defeat", piece.id))
        elif task.kind == "coffins" and task.colour is not None:
            if payments(state, hero, task.colour, task.threshold):
                found.add(("advance", piece.id))
        elif task.kind == "evidence":
            spots = set(evidence_spots(state, piece.id)) - set(piece.mat)
            if any(state.item(u).location in spots for u in hero.items):
                found.add(("advance", piece.id))
        elif task.at is not None and _can_advance_at(state, hero, piece):
            found.add(("advance", piece.id))
    return frozenset(found)


def _holding(state: HorrifiedState, receiver: int, moved: list[Transfer]) -> Hero:
    """Hero `receiver` as it would be after taking the `moved` items (and the Cure) from the others."""
    hero = state.heroes[receiver]
    items = list(hero.items) + [what for _, what in moved if not isinstance(what, str)]
    return replace(hero, items=items, cure=hero.cure or any(isinstance(what, str) for _, what in moved))


def _everyone(state: HorrifiedState) -> list[Transfer]:
    """Every item (and the Cure) held by the heroes on the current hero's space, by holder."""
    here = [k for k, h in enumerate(state.heroes) if h.pos == state.current.pos]
    found: list[Transfer] = [(g, uid) for g in here for uid in sorted(state.heroes[g].items)]
    return found + [(g, "cure") for g in here if state.heroes[g].cure]


def share_receiver(state: HorrifiedState, spare: int) -> tuple[int, frozenset[tuple[str, str]]]:
    """Who should hold the pooled items of the heroes on the current hero's space (HF-ACT-05), and what it could do
    then: the hero the pool serves best (the Scientist's bonus), then the current hero when it has `spare` actions
    left to use them, else the next to play."""
    current = state.active - 1
    everyone = _everyone(state)
    best: tuple[tuple[int, int], int, frozenset[tuple[str, str]]] | None = None
    for k, hero in enumerate(state.heroes):
        if hero.pos != state.current.pos:
            continue
        could = jobs(state, _holding(state, k, [t for t in everyone if t[0] != k]))
        turn = (k - current) % len(state.heroes) if k != current or spare > 0 else len(state.heroes)
        if best is None or (-len(could), turn) < best[0]:
            best = ((-len(could), turn), k, could)
    assert best is not None
    return best[1], best[2]


def share_plan(state: HorrifiedState, spare: int) -> tuple[int, list[Transfer]]:
    """The receiver (`share_receiver`) and the fewest of the others' items (and the Cure) it needs to do everything
    the pool can pay; the items are tried in order, the Cure last."""
    receiver, target = share_receiver(state, spare)
    moved = [t for t in _everyone(state) if t[0] != receiver]
    for t in list(moved):
        fewer = [m for m in moved if m != t]
        if target <= jobs(state, _holding(state, receiver, fewer)):
            moved = fewer
    return receiver, moved


def share_gain(state: HorrifiedState) -> frozenset[tuple[str, str]]:
    """What the heroes here could do after a Share that none of them can do now (empty: no reason to share)."""
    here = [h for h in state.heroes if h.pos == state.current.pos]
    if len(here) < 2:
        return frozenset()
    _, could = share_receiver(state, state.actions_left - 1)
    return could - frozenset().union(*(jobs(state, h) for h in here))


def share_scores(state: HorrifiedState, options: list[Any]) -> list[float]:
    """During a Share (HF-ACT-05): the plan's next item to its receiver, then done (the first option)."""
    receiver, moved = share_plan(state, state.actions_left)
    wanted = {(giver, receiver, what) for giver, what in moved}
    return [1.0 if k == 0 and not wanted else 2.0 if option in wanted else 0.0 for k, option in enumerate(options)]
