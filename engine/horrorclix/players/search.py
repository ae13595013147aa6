"""The search player: a lookahead over the current turn and the next, with the tuned heuristic as prior and
playout policy (issue 17).

At each action of its hunting and suspense phases it takes the heuristic's best few options and plays each out
in sampled worlds: the opponents' hidden crypts drawn from the cards they could hold (`lookahead.sampled_world`,
HC-PLOT-01), the dice rolled from its own generator, every later choice (its own, the opponents' responses) made
by heuristic players, up to a horizon (by default the end of the next player's turn). Each playout ends in a
static evaluation (`lookahead.evaluate`). The candidates share their worlds and dice (common random numbers),
successive halving spends the budget (`budget` playouts a decision) on the better ones, and the heuristic's own
choice stands unless another beats it by `confidence` standard errors of the paired differences.

A plot twist in a hunting-phase window (slaying, rescue, attack roll) is kept or played by playouts of the
position as the view shows it, with and without the card. The other decisions (setup, preview and suspense
windows, a card's targets) are the heuristic's: a view of a paused action cannot be resumed without the hidden
state it came from, so those are not searched.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from clix.engine.core.dice import Dice
from clix.engine.core.players.base import Decision
from clix.engine.horrorclix import game, plots, rules
from clix.engine.horrorclix.players import plot_values
from clix.engine.horrorclix.players.heuristic import TUNED, HeuristicAgent, Weights, _Context
from clix.engine.horrorclix.players.lookahead import Evaluation, evaluate, sampled_world
from clix.engine.horrorclix.state import GameState

DEFAULT_BUDGET = 48
"""Playouts per decision when none is named (`search` = `search:48`)."""
CANDIDATES = 6
"""How many of the heuristic's best options are searched."""
CONFIDENCE = 1.0
"""How many standard errors the playouts must put an option above the heuristic's choice to take it instead.
Against tuned over the 18 sample mirrors (seeds 23, 29, 31; 2,160 games each) 2 scored as 1 did (+0.6 points
[-2.0, +3.1], paired), 3 worse (57% on seed 23), 0 (the playouts' best taken outright) about 50%. (Measured
before the heuristic's choice was kept in every round of the halving.)"""
TURN = "turn"
ROUND = "round"
HORIZONS = (TURN, ROUND)


class SearchAgent:
    """Chooses an action by playing out the heuristic's best options in sampled worlds (see the module)."""

    def __init__(
        self,
        rng: np.random.Generator,
        budget: int = DEFAULT_BUDGET,
        weights: Weights = TUNED,
        horizon: str = ROUND,
        candidates: int = CANDIDATES,
        evaluation: Evaluation | None = None,
        name: str = "",
        confidence: float = CONFIDENCE,
    ) -> None:
        if budget < 1:
            raise ValueError(f"a search budget is at least 1 playout, not {budget}")
        if horizon not in HORIZONS:
            raise ValueError(f"horizon: {horizon!r} is not one of {', '.join(HORIZONS)}")
        self.rng = rng
        self.budget = budget
        self.weights = weights
        self.horizon = horizon
        self.candidates = candidates
        self.evaluation = evaluation or Evaluation()
        self.name = name or f"search:{budget}"
        self.confidence = confidence
        self.prior = HeuristicAgent(rng, weights, "tuned")
        self.last: dict[int, float] = {}
        """The mean value of each option searched at the last decision (by option index), for tests and traces."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            SearchAgent,
            (
                self.rng,
                self.budget,
                self.weights,
                self.horizon,
                self.candidates,
                self.evaluation,
                self.name,
                self.confidence,
            ),
        )

    def choose(self, state: GameState, decision: Decision) -> int:
        """The searched best action; any other decision as the heuristic answers it."""
        self.last = {}
        if len(decision.options) < 2:
            return self.prior.choose(state, decision)
        if decision.kind == plots.PLAY and _resumable(state, decision):
            return self._search_play(state, decision)
        if decision.kind != "action" or state.waiting is not None:
            return self.prior.choose(state, decision)
        scores = self.prior._score_action(state, decision)
        ranked = sorted(range(len(scores)), key=lambda k: (-scores[k], k))
        chosen = ranked[: max(1, min(self.candidates, self.budget, len(ranked)))]
        if len(chosen) == 1:
            return chosen[0]
        return self._search(state, decision, chosen)

    def _search(self, view: GameState, decision: Decision, chosen: list[int]) -> int:
        """Successive halving over `chosen` (best prior first), the playouts sharing worlds and dice by sample."""
        player = decision.player
        actions = [decision.options[k] for k in chosen]
        root = view.copy_without_dice()  # the driver reuses its view: never change it
        seeds: list[int] = []
        worlds: list[GameState] = []
        values: list[list[float]] = [[] for _ in chosen]
        totals = [0.0] * len(chosen)
        counts = [0] * len(chosen)
        alive = list(range(len(chosen)))
        rounds = max(1, math.ceil(math.log2(len(chosen))))
        spent = 0
        for done in range(rounds):
            per = max(1, (self.budget - spent) // (len(alive) * (rounds - done)))
            for k in alive:
                for j in range(counts[k], counts[k] + per):
                    while len(seeds) <= j:
                        seed = int(self.rng.integers(2**63))
                        seeds.append(seed)
                        worlds.append(sampled_world(root, player, np.random.default_rng([seed, 0])))
                    value = self._playout(worlds[j], actions[k], player, seeds[j])
                    values[k].append(value)
                    totals[k] += value
                counts[k] += per
            spent += per * len(alive)
            if len(alive) > 1:
                alive.sort(key=lambda k: (-totals[k] / counts[k], k))
                alive = alive[: math.ceil(len(alive) / 2)]
                if 0 not in alive:  # the heuristic's choice stays in to the end: the gate compares on every sample
                    alive.append(0)
        self.last = {chosen[k]: totals[k] / counts[k] for k in range(len(chosen))}
        best = min(alive, key=lambda k: (-totals[k] / counts[k], k))
        if best != 0 and not self._surely_better(values[best], values[0]):
            return chosen[0]
        return chosen[best]

    def _surely_better(self, found: list[float], prior: list[float]) -> bool:
        """Whether `found` beats the prior's choice by more than `confidence` standard errors of their paired
        differences (the samples both were played out in share worlds and dice)."""
        if self.confidence <= 0:
            return True
        n = min(len(found), len(prior))
        if n < 2:
            return False
        diffs = [found[j] - prior[j] for j in range(n)]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        return mean > self.confidence * spread

    def _search_play(self, view: GameState, decision: Decision) -> int:
        """A plot twist now or kept: what the heuristic says a play gains now, plus what the crypt left is worth
        in playouts through the next turn of each player (the position as the view shows it, the paused action
        left out: the same for every option). Each card is played out kept and spent in the same worlds."""
        player = decision.player
        options = decision.options
        ctx = _Context(view, player, self.weights)
        now = [0.0] + [
            plot_values.play_value(self.prior.weights, view, ctx, decision.context, play, plots.card(view, play.card))
            for play in options[1:]
        ]
        spent = [None, *(play.card for play in options[1:])]
        kinds = list(dict.fromkeys(spent))  # None (nothing spent) first, then each card once
        root = view.copy_without_dice()
        turns = 2 if view.active == player else 3
        totals = dict.fromkeys(kinds, 0.0)
        samples = max(1, self.budget // len(kinds))
        for _ in range(samples):
            seed = int(self.rng.integers(2**63))
            world = sampled_world(root, player, np.random.default_rng([seed, 0]))
            for card in kinds:
                state = world.copy_without_dice()
                if card is not None:
                    state.player(player).hidden_cards.remove(card)
                totals[card] += self._playout(state, None, player, seed, turns)
        values = [now[k] + totals[spent[k]] / samples for k in range(len(options))]
        self.last = dict(enumerate(values))
        return max(range(len(values)), key=lambda k: (values[k], -k))

    def _playout(self, world: GameState, action: Any, player: int, seed: int, turns: int | None = None) -> float:
        """`action` (if any) in a copy of `world`, then heuristic play until `turns` more turns have begun (the
        horizon's by default); the position's value for `player`."""
        rng = np.random.default_rng([seed, 1])
        state = world.copy_without_dice()
        dice = Dice(rng)
        state.dice = dice
        agents = [HeuristicAgent(rng, self.weights, "tuned") for _ in state.players]
        stop = state.turn + (turns if turns is not None else 1 if self.horizon == TURN else 2)
        if action is not None:
            rules.apply(state, action, listed=True)
        game.play(state, agents, dice, until_turn=stop)
        return evaluate(state, player, self.evaluation, self.weights)


PLAYOUT_WINDOWS = frozenset({"slaying", "rescue", "attack_roll"})
"""The plot-twist windows searched: those of the hunting phase, where the position a view shows goes on as a
hunting phase (the player's next action); a preview or suspense window is in the middle of a turn's start."""


def _resumable(view: GameState, decision: Decision) -> bool:
    """Whether play can go on from the position `view` shows while the rules wait for `decision`."""
    window = decision.context
    return getattr(window, "name", None) in PLAYOUT_WINDOWS and view.phase == "hunting" and not view.over


def search_factory(budget: int = DEFAULT_BUDGET, name: str = "", **options: Any):  # type: ignore[no-untyped-def]
    """A factory `rng -> SearchAgent` with the given budget (playouts per decision)."""

    def make(rng: np.random.Generator) -> SearchAgent:
        return SearchAgent(rng, budget, name=name, **options)

    return make
