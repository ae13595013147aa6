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
from collections.abc import Sequence
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

TURN_TERMS = "turn"
"""`Evaluation.terms`: the next turn's attacks, by the side to act (see `Evaluation`)."""
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
    terms: str = "every"
    """How the threat and pressure terms are read: "every" (the default) adds them for every standing character
    of mine, at `threat` and `pressure`; "turn" reads the next turn: the best attacks of the side to act next
    (its characters' pressure, or the opponents' threat on my most threatened character), as many as it has
    actions (HX-TURN-02), count at `now`, the other side's at `later`. Measured on dev seeds, not adopted
    (docs/tuning.md, HeroClix, "The search player's strength")."""
    now: float = 1.0
    """With `terms="turn"`: the share of the next turn's attacks counted (the side to act next)."""
    later: float = 0.5
    """With `terms="turn"`: the share of the turn after's attacks counted (the other side's)."""
    turns: int | None = None
    """How many more turns begin before a playout stops (None: the search's horizon, by default 2, to the end of
    the next player's turn)."""
    per_kind: bool = False
    """The options searched: False (the default) the prior's best; True the best option of each kind of action of
    each character first (a Move, Close, Ranged, PowerAction... of each), then the prior's next best. Measured on
    dev seeds, not adopted."""


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
    if weights.terms == TURN_TERMS:
        return value + _turn_terms(state, player, ctx, weights)
    for figure in ctx.mine:
        worth = live_worth(figure)
        value += figure.stats.points - material * (figure.stats.points - worth)
        value -= weights.threat * ctx.caution * ctx.threat(figure, figure.pos)
        value += weights.pressure * ctx.hunt * ctx.pressure(figure, figure.pos)
    for figure in ctx.enemies:
        worth = live_worth(figure)
        value -= figure.stats.points - material * (figure.stats.points - worth)
    return value


def _turn_terms(state: HeroState, player: int, ctx: Context, weights: Evaluation) -> float:
    """The material (as `evaluate`'s) and the next turn's attacks (`Evaluation.terms` "turn"): the side to act
    next, its best attacks, as many as it has actions (HX-TURN-02), at `now`; the other side's at `later`. My
    attacks: my characters' pressure from where they stand, those with two tokens left out (HX-TURN-06); theirs:
    the threat on my most threatened character (`Context.threat` counts their actions already)."""
    value = 0.0
    for figure in ctx.mine:
        worth = live_worth(figure)
        value += figure.stats.points - weights.material * (figure.stats.points - worth)
    for figure in ctx.enemies:
        worth = live_worth(figure)
        value -= figure.stats.points - weights.material * (figure.stats.points - worth)
    actions = max(1, state.build_total // sides.POINTS_PER_ACTION)
    mine = sorted((ctx.pressure(f, f.pos) for f in ctx.mine if f.tokens < 2), reverse=True)
    press = ctx.hunt * sum(mine[:actions])
    threat = ctx.caution * max((ctx.threat(f, f.pos) for f in ctx.mine), default=0.0)
    if sides.team(state, state.active) == sides.team(state, player):
        return value + weights.now * press - weights.later * threat
    return value + weights.later * press - weights.now * threat


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

    def shortlist(self, decision: Decision, scores: Sequence[float], count: int) -> list[int]:
        """`Evaluation.per_kind`: the best option of each kind of action of each character first (the prior's
        best among them), then the prior's next best; otherwise the core's (the prior's `count` best)."""
        if not self.evaluation.per_kind:
            return super().shortlist(decision, scores, count)
        ranked = sorted(range(len(scores)), key=lambda k: (-scores[k], k))
        kinds: set[tuple[str, object]] = set()
        first: list[int] = []
        rest: list[int] = []
        for k in ranked:
            option = decision.options[k]
            kind = (type(option).__name__, getattr(option, "character", None))
            (rest if kind in kinds else first).append(k)
            kinds.add(kind)
        chosen = set(first[:count] + rest[: max(0, count - len(first))])
        return [k for k in ranked if k in chosen]

    def playout(self, world: HeroState, action: object, player: int, seed: int, turns: int | None = None) -> float:
        """The core's playout, to `Evaluation.turns` more turns when set (else the horizon's)."""
        return super().playout(world, action, player, seed, self.evaluation.turns if turns is None else turns)


search_factory = functools.partial(core_search_factory, SearchAgent)
"""A factory `rng -> SearchAgent` with the given budget (playouts per decision) and name."""
