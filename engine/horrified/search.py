"""Horrified's search player: the core's playout search (`engine.core.players.search`) for the heroes' actions, with
the heuristic `TeamPlayer` as prior and as every seat's playout player, and a static evaluation of the position at
the horizon (issue 40).

At each action decision it takes the TeamPlayer's best few options (ranked by its scores, ties by option order) and
plays each out, every later choice made by TeamPlayers, to the horizon (by default two more turns begin: the end of
this hero's monster phase and of the next hero's turn). Every other decision (defend, target, scarab, steer, hurry)
is the TeamPlayer's.

Hidden information: the monster deck, the item bag and the perk deck lie face down. The view a player chooses from
(`HorrifiedState._refresh_rules`) shows their contents sorted, never their order, and the core's copy keeps a
list's order as it is (it re-draws nothing: draws from these piles are pops, not chance events). So
`sampled_world` shuffles the unseen monster cards, items and perks anew for each world with the world's own
generator (spawned from the search's one Generator), and the playouts never read the real order.

The static evaluation (`evaluate`, in "monsters" as the unit) of a position for the team:
  - a won game `WIN`, a lost one (terror, out of time) `-WIN`;
  - each monster defeated 1 (HF-DEF-01);
  - each monster still in play its task's progress, 0 to 1, times `TASK` (HF-ACT-06: coffins smashed, evidence
    placed, Boat X reached, scarab moves left, Cure spots filled, humanity to the flip);
  - the terror level as a share of the skull's, times `-TERROR` (HF-GOAL-02);
  - the villagers on the board `VILLAGER` each (a villager killed raises terror, one guided home is a perk);
  - the monster cards left as a share of the deck, times `CLOCK` (HF-GOAL-03: the deck running out loses);
  - the items the heroes hold `ITEM` each (what tasks and defeats are paid with).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from clix.engine.core.pending import Decision
from clix.engine.core.players.search import DEFAULT_BUDGET, ROUND, PlayoutSearch
from clix.engine.core.players.search import search_factory as core_search_factory
from clix.engine.horrified import mats
from clix.engine.horrified.mats import spec_of
from clix.engine.horrified.monsters import evidence_spots, task_done
from clix.engine.horrified.players import TeamPlayer
from clix.engine.horrified.state import HorrifiedState, MonsterPiece

WIN = 10.0
"""A game's end, won or lost, in monsters defeated."""
TASK = 0.5
"""A task done, in monsters defeated (half a defeat: the monster still has to be beaten)."""
TERROR = 1.5
"""The terror track at the skull (a lost game) less the start, in monsters defeated."""
VILLAGER = 0.05
CLOCK = 0.5
"""A whole deck left, in monsters defeated."""
ITEM = 0.02


def task_progress(state: HorrifiedState, piece: MonsterPiece) -> float:
    """How far the monster's task is done, 0 to 1 (HF-ACT-06, HF-M-*)."""
    if task_done(state, piece.id):
        return 1.0
    task = spec_of(state, piece.id).task
    if task.kind == "coffins":
        total = max(1, len(task.locations))
        return (total - len(piece.coffins)) / total
    if task.kind == "evidence":
        return len(piece.mat) / max(1, len(evidence_spots(state, piece.id)))
    if task.kind == "boat":
        return piece.progress / max(1, len(task.path))
    if task.kind == "scarabs":
        return 1.0 / (1.0 + mats.tablet_distance(state, piece.id, piece.tablet))
    if task.kind == "cure":
        return len(piece.mat) / max(1, len(task.strengths))
    target = max(1, task.threshold)
    return min(1.0, piece.progress / target) if not mats.flipped(state, piece) else 0.9


def evaluate(state: HorrifiedState) -> float:
    """The team's position in monsters defeated (see the module's docstring)."""
    if state.over:
        return WIN if state.winner is not None else -WIN
    value = 0.0
    for piece in state.pieces:
        value += 1.0 if piece.defeated else TASK * task_progress(state, piece)
    value -= TERROR * state.terror / max(1, state.components.skull)
    value += VILLAGER * len(state.villagers)
    value += CLOCK * len(state.deck) / max(1, len(state.components.cards))
    value += ITEM * sum(len(h.items) for h in state.heroes)
    return value


def sampled_world(root: HorrifiedState, rng: np.random.Generator) -> HorrifiedState:
    """A copy of `root` (a player's view) with the face-down piles shuffled by `rng`: the monster deck, the item
    bag and the perk deck drawn anew from their unseen contents (HF-SETUP-01, HF-ITEM-03)."""
    world = root.copy_without_dice()
    for pile in (world.deck, world.bag, world.perk_deck):
        seen = sorted(pile)  # the contents, never the order: the same worlds whatever order the pile lies in
        pile[:] = [seen[k] for k in rng.permutation(len(seen))]
    return world


class SearchPlayer(PlayoutSearch):
    """Chooses a hero's action by playing out the TeamPlayer's best options in sampled worlds (see the module)."""

    def __init__(
        self,
        rng: np.random.Generator,
        budget: int = DEFAULT_BUDGET,
        horizon: str = ROUND,
        candidates: int = 6,
        name: str = "",
        confidence: float = 1.0,
    ) -> None:
        super().__init__(rng, budget, horizon, candidates, name, confidence)
        self.prior = TeamPlayer(rng)

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as its generator and settings (all it holds)."""
        return (type(self), (self.rng, self.budget, self.horizon, self.candidates, self.name, self.confidence))

    def prior_choice(self, state: HorrifiedState, decision: Decision) -> int:
        return int(self.prior.choose(state, decision))

    def prior_scores(self, state: HorrifiedState, decision: Decision) -> Sequence[float]:
        return self.prior.scores(state, decision.options)

    def sampled_world(self, root: HorrifiedState, player: int, rng: np.random.Generator) -> HorrifiedState:
        """The view with the face-down piles shuffled anew (co-operative: nothing else is hidden)."""
        return sampled_world(root, rng)

    def playout_agent(self, rng: np.random.Generator) -> TeamPlayer:
        return TeamPlayer(rng)

    def evaluate(self, state: HorrifiedState, player: int) -> float:
        return evaluate(state)


search_factory = functools.partial(core_search_factory, SearchPlayer)
"""A factory `rng -> SearchPlayer` with the given budget (playouts per decision) and name."""
