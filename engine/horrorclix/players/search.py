"""HorrorClix's search player: the core's playout search (`engine.core.players.search`) over the current turn
and the next, with the tuned heuristic as prior and playout policy (issue 17).

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

import functools
from collections import Counter
from typing import Any

import numpy as np
from clix.engine.core.players.base import Decision
from clix.engine.core.players.search import CANDIDATES, CONFIDENCE, DEFAULT_BUDGET, ROUND, HeuristicSearch
from clix.engine.core.players.search import search_factory as core_search_factory
from clix.engine.horrorclix import plots
from clix.engine.horrorclix.players import plot_values
from clix.engine.horrorclix.players.heuristic import TUNED, HeuristicAgent, _Context
from clix.engine.horrorclix.players.lookahead import Evaluation, evaluate, sampled_world, unseen_cards
from clix.engine.horrorclix.state import GameState
from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # tests' probes
class SearchAgent(HeuristicSearch):
    """Chooses an action by playing out the heuristic's best options in sampled worlds (see the module)."""

    heuristic = HeuristicAgent
    tuned = TUNED
    settings = Evaluation
    # `weights` (Weights), `evaluation` (Evaluation) and `prior` (HeuristicAgent) are the core's attributes, typed
    # there as Any: a compiled subclass cannot narrow an attribute's type
    _pool_root: GameState | None = None
    """The root the unseen cards in `_pools` were counted in (kept so that it cannot be another)."""
    _pools: dict[int, Counter[str]]

    def __init__(
        self,
        rng: np.random.Generator,
        budget: int = DEFAULT_BUDGET,
        weights: Any = None,
        horizon: str = ROUND,
        candidates: int = CANDIDATES,
        evaluation: Any = None,
        name: str = "",
        confidence: float = CONFIDENCE,
    ) -> None:  # the core's arguments written out: compiled, `*args` passed on to a native `__init__` is misread
        super().__init__(rng, budget, weights, horizon, candidates, evaluation, name, confidence)
        self._pool_root = None
        self._pools = {}

    def prior_scores(self, state: GameState, decision: Decision) -> list[float]:
        return self.prior._score_action(state, decision)

    def sampled_world(self, root: GameState, player: int, rng: np.random.Generator) -> GameState:
        """`lookahead.sampled_world`, the unseen cards counted once a decision (the log read once, not once a
        sample): every world of a decision is drawn from the same root."""
        pool = self._pools.get(player) if self._pool_root is root else None
        if pool is None:
            if self._pool_root is not root:
                self._pool_root, self._pools = root, {}
            pool = self._pools[player] = unseen_cards(root, player)
        return sampled_world(root, player, rng, pool)

    def evaluate(self, state: GameState, player: int) -> float:
        return evaluate(state, player, self.evaluation, self.weights)

    def choose_other(self, state: GameState, decision: Decision) -> int | None:
        """A plot twist in a hunting-phase window is kept or played by playouts (`_search_play`)."""
        if decision.kind == plots.PLAY and _resumable(state, decision):
            return self._search_play(state, decision)
        return None

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
            world = self.sampled_world(root, player, np.random.default_rng([seed, 0]))
            for card in kinds:
                state = world.copy_without_dice()
                if card is not None:
                    state.player(player).hidden_cards.remove(card)
                totals[card] += self.playout(state, None, player, seed, turns)
        values = [now[k] + totals[spent[k]] / samples for k in range(len(options))]
        self.last = dict(enumerate(values))
        return max(range(len(values)), key=lambda k: (values[k], -k))


PLAYOUT_WINDOWS = frozenset({"slaying", "rescue", "attack_roll"})
"""The plot-twist windows searched: those of the hunting phase, where the position a view shows goes on as a
hunting phase (the player's next action); a preview or suspense window is in the middle of a turn's start."""


def _resumable(view: GameState, decision: Decision) -> bool:
    """Whether play can go on from the position `view` shows while the rules wait for `decision`."""
    window = decision.context
    return getattr(window, "name", None) in PLAYOUT_WINDOWS and view.phase == "hunting" and not view.over


search_factory = functools.partial(core_search_factory, SearchAgent)
"""A factory `rng -> SearchAgent` with the given budget (playouts per decision) and name."""
