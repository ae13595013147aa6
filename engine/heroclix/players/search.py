"""HeroClix's search player: the core's playout search (`engine.core.players.search`) with the tuned heuristic as
prior and playout player, and a static evaluation in expected victory points (issue 36).

At each action decision it takes the heuristic's best few options and plays each out, every later choice (its
own, the opponents') made by tuned heuristic players, to a horizon (by default the end of the next player's
turn). HeroClix hides nothing (the dials, the map and the tokens are on the table), so a playout's world is the
position itself, copied through the core's contract; the playouts differ only by their dice. Each ends in
`evaluate`: the victory points scored so far (HX-END-05, -06, -08), each standing character's clicks left to its
KO at its points per click (survivors score their points at the end, HX-END-07), and the threat and pressure
terms of the heuristic. The candidates share their dice (common random numbers), successive halving spends the
budget on the better ones, and the heuristic's own choice stands unless another beats it by `confidence`
standard errors of the paired differences. Every other decision (setup, a power's choices) is the heuristic's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from clix.engine.core.pieces import Figure
from clix.engine.core.players.base import Decision
from clix.engine.core.players.search import HeuristicSearch
from clix.engine.core.players.search import search_factory as core_search_factory
from clix.engine.heroclix import sides
from clix.engine.heroclix.players.heuristic import TUNED, HeuristicAgent, Weights
from clix.engine.heroclix.players.position import Context, click_value, clicks_left
from clix.engine.heroclix.state import HeroState

WIN = 100.0
"""What winning is worth over the victory-point margin, in victory points: the games are scored by who wins."""


@dataclass(frozen=True)
class Evaluation:
    """The weights of the static evaluation (victory points per unit)."""

    material: float = 1.0
    """The share of a standing character's points lost per click of damage, at its points per click (a damaged
    character is a KO in waiting, and survives with its points, HX-END-07)."""
    threat: float = TUNED.threat
    """The share of what the opponents can deal my characters next turn that counts against the position."""
    pressure: float = TUNED.pressure
    """The share of my characters' best attacks next turn that counts for the position."""


def live_worth(figure: Figure) -> float:
    """A standing character's points less its damage: its clicks left to a KO at its points per click, at most
    its points (HX-DAMAGE-06, HX-END-07)."""
    return min(float(figure.stats.points), clicks_left(figure) * click_value(figure))


def evaluate(state: HeroState, player: int, weights: Evaluation, heuristic: Weights = TUNED) -> float:
    """The position for `player` in victory points: the margin scored so far (KOs, HX-END-05, -06, -08), a won
    or lost game, each side's standing characters at their live worth (HX-END-07), less what the opponents
    threaten my characters with where they stand and plus what mine threaten them with (the heuristic's terms)."""
    me = sides.team(state, player)
    value = 0.0
    for seat, scored in state.points.items():
        value += scored if sides.team(state, seat) == me else -scored
    if state.over:
        if state.winner is not None:
            value += WIN if state.winner == me else -WIN  # the winner is a side (HX-END-04: a player's own)
        return value
    ctx = Context(state, player, heuristic)
    material = weights.material
    for figure in ctx.mine:
        worth = live_worth(figure)
        value += figure.stats.points - material * (figure.stats.points - worth)
        value -= weights.threat * ctx.caution * ctx.threat(figure, figure.pos)
        value += weights.pressure * ctx.hunt * ctx.pressure(figure, figure.pos)
    for figure in ctx.enemies:
        worth = live_worth(figure)
        value -= figure.stats.points - material * (figure.stats.points - worth)
    return value


class SearchAgent(HeuristicSearch):
    """Chooses an action by playing out the tuned heuristic's best options (see the module)."""

    heuristic = HeuristicAgent
    tuned = TUNED
    settings = Evaluation
    weights: Weights
    evaluation: Evaluation
    prior: HeuristicAgent

    def prior_scores(self, state: HeroState, decision: Decision) -> list[float]:
        return self.prior.scores(state, decision)

    def sampled_world(self, root: HeroState, player: int, rng: np.random.Generator) -> HeroState:
        """The position itself (each playout plays a copy of it): HeroClix hides nothing from a player."""
        return root

    def evaluate(self, state: HeroState, player: int) -> float:
        return evaluate(state, player, self.evaluation, self.weights)


search_factory = functools.partial(core_search_factory, SearchAgent)
"""A factory `rng -> SearchAgent` with the given budget (playouts per decision) and name."""
