"""What the search player (`engine.horrorclix.players.search`) needs besides the search itself: a sampled world to search
in (the opponents' hidden crypts drawn, HC-PLOT-01) and a static evaluation of the position a simulation
stops at, both built from what a player's view shows.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass

import numpy as np
from clix.engine.horrorclix.players.heuristic import TUNED, Weights, _Context, live_clicks_left
from clix.engine.horrorclix.state import GameState, Monster

WIN = 100.0
"""What winning is worth over the victory-point margin, in victory points: the games are scored by who wins."""


@dataclass(frozen=True)
class Evaluation:
    """The weights of the static evaluation (victory points per unit)."""

    material: float = 0.5
    """The share of a monster's points its live clicks are worth (a damaged monster is a kill in waiting)."""
    threat: float = TUNED.threat
    """The share of the opponents' expected take next turn that counts against the position."""
    pressure: float = TUNED.pressure
    """The share of my monsters' best attacks next turn that counts for the position."""
    approach: float = TUNED.approach
    """The share of a victim's worth credited to the side nearer it (in a victim's worth per victim)."""


def sampled_world(
    view: GameState, player: int, rng: np.random.Generator, pool: Counter[str] | None = None
) -> GameState:
    """A copy of `view` without dice, the other players' crypts replaced by cards drawn from those they could
    hold: every plot twist of the game, less `player`'s own crypt, the cards seen played and the subplots
    revealed (`pool`, when the caller has counted them already: `unseen_cards`). The cards the view shows
    for the others are never read, only how many they hold."""
    world = view.copy_without_dice()
    if pool is None:
        pool = unseen_cards(view, player)
    names = sorted(pool)
    for seat in world.players:
        if seat.number == player or not seat.hidden_cards:
            continue
        count = len(seat.hidden_cards)
        weights = [float(pool[name]) for name in names]
        if sum(weights) >= count:
            drawn = []
            for _ in range(count):
                k = _weighted_index(rng, weights)
                drawn.append(names[k])
                weights[k] -= 1
        else:  # fewer unseen cards than hidden ones (a hand-built game): any card of the game
            every = sorted(view.cards)
            drawn = [every[int(i)] for i in rng.integers(len(every), size=count)]
        seat.hidden_cards = drawn
    return world


def _weighted_index(rng: np.random.Generator, weights: list[float]) -> int:
    """`rng.choice(len(weights), p=weights / sum(weights))` without numpy's arrays (a tenth of its cost): the
    same arithmetic (the probabilities' running sum, scaled by its last) and the same single uniform draw, so
    the same index (tests/test_search_speed.py checks the two against each other)."""
    total = sum(weights)
    cdf = []
    running = 0.0
    for weight in weights:
        running += weight / total
        cdf.append(running)
    last = cdf[-1]
    return bisect.bisect_right([edge / last for edge in cdf], rng.random())


def unseen_cards(view: GameState, player: int) -> Counter[str]:
    """The plot twists not known to be elsewhere: one of each card of the game, less what `player` holds,
    what was played (the log) and the revealed subplots."""
    pool: Counter[str] = Counter({name: 1 for name in view.cards})
    pool.subtract(view.player(player).hidden_cards)
    for event in view.log:
        if event.kind == "plot_twist":
            pool[event.get("card")] -= 1
    if view.plot is not None:
        for names in view.plot.subplots.values():
            pool.subtract(names)
    return +pool


def evaluate(state: GameState, player: int, weights: Evaluation, heuristic: Weights = TUNED) -> float:
    """The position for `player` in victory points: the margin (subplots as they stand, the tie-break),
    a won or lost game, the monsters' live clicks, and what each side threatens next (the heuristic's
    threat and pressure terms) and how near each side is to the victims left."""
    ctx = _Context(state, player, heuristic)
    value = ctx.margin()
    if state.over:
        team = state.player(player).team
        if state.winner is not None:
            value += WIN if state.player(state.winner).team == team else -WIN
        return value
    for monster in ctx.mine:
        value += weights.material * _live_worth(monster)
        value -= weights.threat * ctx.threat_scale * ctx.threat(monster, monster.pos)
        value += weights.pressure * ctx.pressure_at(ctx.chances(monster), monster.pos)
    for monster in ctx.enemies:
        value -= weights.material * _live_worth(monster)
    if ctx.victim_positions:
        worth = weights.approach * state.victim_vp
        mine, theirs = ctx.my_spots, ctx.enemy_spots
        for pos in ctx.victim_positions:
            value += worth * (_nearness(mine.nearest(pos)) - _nearness(theirs.nearest(pos)))
    return value


def _live_worth(monster: Monster) -> float:
    """The monster's points, scaled by the share of its live clicks it has left."""
    full = max(1, monster.stats.clicks - 1)
    return monster.stats.points * min(1.0, live_clicks_left(monster) / full)


def _nearness(distance: int) -> float:
    """1 next to a victim, falling to 0 at 12 spaces (two moves of a fast monster)."""
    return max(0.0, 1.0 - distance / 12)
