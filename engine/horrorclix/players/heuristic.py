"""Heuristic players: every option scored by the victory points it is expected to be worth.

One scoring serves every style; a style is a set of weights (`Weights`), so the analyzer can ask how a
result changes with play style. Every option is valued against the same baseline, the position as it
stands: ending the turn is worth 0 and a move is charged only the threat it adds to the threat of
staying put. The scores use the exact 2d6 distribution (with critical hits and misses, HC-COMBAT-12/-13),
the expected clicks and kill chance of an attack, the value of a victim (HC-END-07) and of the subplots
in play (HC-PLOT-04), the threat at a destination, the cost of a second action token (HC-TURN-01,
HC-TURN-04) and focus fire. Once the victims are gone the score decides how to play (HC-END-03, the
tie-break HC-END-09, the turns left): a side that trails hunts, a side that leads protects its lead.
Plot twists are played where they are worth more than holding them, and setup choices are scored.
Players only read the state and choose among the options the engine lists; they never read another
player's crypt (HC-PLOT-01).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from clix.engine.core import effects
from clix.engine.core.players.base import Decision
from clix.engine.horrorclix import plots
from clix.engine.horrorclix.actions import (
    AttackKind,
    ChooseVictim,
    Close,
    EndTurn,
    Frenzy,
    Move,
    MoveVictim,
    Ranged,
    SkipSuspense,
    Smash,
)
from clix.engine.horrorclix.options import MoveBlock, Options, VictimMoveBlock
from clix.engine.horrorclix.players import plot_values
from clix.engine.horrorclix.players.position import (  # noqa: F401  (re-exported: tests and other players read them here)
    _adjacent_xy,
    _areas,
    _attack_worth,
    _chosen_areas,
    _Context,
    _Danger,
    _Spots,
    _subplot_vp_now,
    distance_row,
    hit_chance,
    live_clicks_left,
)
from clix.engine.horrorclix.players.weights import (  # noqa: F401  (re-exported: the styles are named here)
    DEFAULT_STYLE,
    STYLES,
    TUNED,
    Weights,
    deviation,
    with_weights,
)
from clix.engine.horrorclix.state import SOARING, GameState, Monster, Victim


class HeuristicAgent:
    """Chooses the option with the highest expected victory points (plus a little seeded noise)."""

    def __init__(self, rng: np.random.Generator, weights: Weights | None = None, name: str = DEFAULT_STYLE) -> None:
        self.rng = rng
        self.weights = weights or STYLES[name]
        self.name = name

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as its generator, weights and name (all it holds)."""
        return (HeuristicAgent, (self.rng, self.weights, self.name))

    def choose(self, state: GameState, decision: Decision) -> int:
        if decision.kind != "action":
            return self._other(state, decision)
        scores = self._score_action(state, decision)
        noise = self.rng.random(len(scores))  # one draw per option, read or not, so the stream stays the same
        weight = self.weights.noise
        top = scores[0]
        for score in scores:  # not `max`: compiled, the builtin compares boxed floats one by one
            if score > top:
                top = score
        # Noise moves a score by less than `weight`: only options scored within it of the top can win. The margin keeps
        # rounding from ever excluding one that could; the winner is the first of equal best, as argmax.
        floor = top - abs(weight) - 1e-9 * (1.0 + abs(top))
        best, best_value = 0, -math.inf
        for index, score in enumerate(scores):
            if score >= floor:
                value = score + float(noise[index]) * weight
                if value > best_value:
                    best, best_value = index, value
        return best

    # --- decisions outside the hunting phase -----------------------------------------------------------

    def _other(self, state: GameState, decision: Decision) -> int:
        """Setup, plot twists and the other mid-action choices, each scored; the first of equal best wins."""
        kind = decision.kind
        if kind == "transform":
            return len(decision.options) - 1  # take a "may" transformation
        if kind == "edge":
            scores = self._edge_scores(state, decision)
        elif kind == "victim_space":
            scores = self._victim_space_scores(state, decision)
        elif kind == "object_space":
            scores = self._object_space_scores(state, decision)
        elif kind == "monster_space":
            scores = self._monster_space_scores(state, decision)
        elif kind == "flight":
            scores = self._flight_scores(state, decision)
        elif kind == "crossroads":
            scores = _crossroads_scores(decision)
        elif kind == plots.PLAY:
            scores = self._plot_twist_scores(state, decision)
        elif kind == plots.PLACE:
            scores = self._place_scores(state, decision)
        elif kind == plots.PATH:
            scores = self._path_scores(state, decision)
        else:
            return int(self.rng.integers(len(decision.options)))  # a choice this player has no opinion on
        return max(range(len(scores)), key=scores.__getitem__)

    def _edge_scores(self, state: GameState, decision: Decision) -> list[float]:
        """The starting area nearest the victim start spaces, on average (HC-SETUP-04)."""
        geo = state.geometry
        spots = geo.victim_spaces
        scores = []
        for label in decision.options:
            area = geo.starting_areas[label]
            scores.append(-sum(min(geo.distance(a, v) for a in area) for v in spots) / max(1, len(spots)))
        return scores

    def _victim_space_scores(self, state: GameState, decision: Decision) -> list[float]:
        """Victims nearer my starting area than the opponents' (HC-SETUP-05)."""
        mine, theirs = _areas(state, decision.player)
        return [theirs.nearest(pos) - mine.nearest(pos) for pos in decision.options]

    def _object_space_scores(self, state: GameState, decision: Decision) -> list[float]:
        """Tombstones and trees in the opponents' way (near their starting area, toward the victims); a portal
        between my starting area and the victims (HC-SETUP-06). Not placing scores below every space."""
        mine, theirs = _areas(state, decision.player)
        victims = _Spots(state.geometry, list(state.geometry.victim_spaces))
        scores = []
        for option in decision.options:
            if option is None:
                scores.append(-1000.0)
                continue
            pos = option[0]
            if decision.subject == "portal":
                scores.append(-float(mine.nearest(pos) + victims.nearest(pos)))
            else:
                scores.append(-float(2 * theirs.nearest(pos) + victims.nearest(pos)))
        return scores

    def _monster_space_scores(self, state: GameState, decision: Decision) -> list[float]:
        """Toward the middle of the map, where the victims are (HC-SETUP-08)."""
        geo = state.geometry
        centre = geo.index(geo.width // 2, geo.height // 2)
        return [-float(geo.distance(pos, centre)) for pos in decision.options]

    def _flight_scores(self, state: GameState, decision: Decision) -> list[float]:
        """Soaring for a monster that attacks at range (it ignores terrain and shoots over it, HC-MOVE-12,
        HC-COMBAT-20); hovering for one that fights up close, which soaring forbids (HC-COMBAT-24)."""
        monster = decision.context
        ranged = isinstance(monster, Monster) and monster.stats.range > 0
        return [1.0 if (mode == SOARING) == ranged else 0.0 for mode in decision.options]

    def _plot_twist_scores(self, state: GameState, decision: Decision) -> list[float]:
        """Pass (0), or each play: what it is worth now less what the card is worth kept for later."""
        window = decision.context
        ctx = _Context(state, decision.player, self.weights)
        scores = [0.0]
        for play in decision.options[1:]:
            card = plots.card(state, play.card)
            now = plot_values.play_value(self.weights, state, ctx, window, play, card)
            scores.append(now - self.weights.hold * plot_values.card_potential(state, ctx, card))
        return scores

    def _place_scores(self, state: GameState, decision: Decision) -> list[float]:
        """Where a stopped slaying or rescue puts the victim: near my monsters, away from the others'."""
        ctx = _Context(state, decision.player, self.weights)
        return self._victim_move_values(ctx, [place.pos for place in decision.options])

    def _path_scores(self, state: GameState, decision: Decision) -> list[float]:
        """A card moves a victim (toward my monsters) or one of my monsters (as a move of its own)."""
        ctx = _Context(state, decision.player, self.weights)
        piece = decision.context
        if isinstance(piece, Monster):
            ends = [path.spaces[-1] if path.spaces else piece.pos for path in decision.options]
            return self._move_values(ctx, piece, ends, free=True)
        start = piece.pos if isinstance(piece, Victim) else 0
        return self._victim_move_values(ctx, [path.spaces[-1] if path.spaces else start for path in decision.options])

    def _score_action(self, state: GameState, decision: Decision) -> list[float]:
        """Every option's value; a monster's plain moves are scored in bulk (they are most of the options)."""
        ctx = _Context(state, decision.player, self.weights)
        options = decision.options
        if not isinstance(options, Options):
            options = Options(list(options))
        scores: list[float] = []
        attacks: list[int] = []  # the options that attack, kept only when the score makes them a must
        must_attack = ctx.must_attack
        for part in options.parts:
            if type(part) is ChooseVictim:
                scores.append(self._choose_victim_value(ctx, state.victims[part.victim].pos))
            elif type(part) is MoveBlock:
                actor = state.monsters[part.monster]
                values = self._move_values(ctx, actor, part.ends)
                if part.target is not None:  # a frenzy, or a move power's free attack (both damage 1)
                    bonus = self._attack_value(state, ctx, actor, [part.target], AttackKind.FRENZY)
                    values = [value + bonus for value in values]
                    if must_attack:
                        attacks.extend(range(len(scores), len(scores) + len(values)))
                scores.extend(values)
            elif type(part) is VictimMoveBlock:
                scores.extend(self._victim_move_values(ctx, part.ends))
            else:
                if must_attack and isinstance(part, (Close, Ranged, Frenzy)):
                    attacks.append(len(scores))
                scores.append(self._action_value(state, ctx, part))
        if attacks:
            _attack_first(scores, attacks)
        return scores

    # --- the hunting and suspense phases ---------------------------------------------------------------

    def _action_value(self, state: GameState, ctx: _Context, action: object) -> float:
        if isinstance(action, (EndTurn, SkipSuspense)):
            return 0.0  # the baseline: the position as it stands
        if isinstance(action, MoveVictim):
            end = action.path[-1] if action.path else state.victims[action.victim].pos
            return self._victim_move_values(ctx, [end])[0]
        if isinstance(action, (Move, Frenzy)):
            return self._move_value(state, ctx, action)
        if isinstance(action, (Close, Ranged)):
            actor = state.monsters[action.monster]
            targets = [action.target] if isinstance(action, Close) else list(action.targets)
            kind = AttackKind.CLOSE if isinstance(action, Close) else AttackKind.RANGED
            return self._attack_value(state, ctx, actor, targets, kind) - self._tempo_cost(ctx, actor, actor.pos)
        if isinstance(action, Smash):
            return 0.05
        if isinstance(action, plots.PlayCard):
            card = plots.card(state, action.card)
            return 0.01 - self.weights.hold * plot_values.card_potential(state, ctx, card) * (len(card.windows) > 1)
        return 0.01  # an option this player has no opinion on (a power's action): slightly better than passing

    def _choose_victim_value(self, ctx: _Context, position: int) -> float:
        """Choosing a victim to move is worth more when the opponents are nearer to it than my monsters."""
        return self.weights.victims * 0.2 * (ctx.enemy_spots.nearest(position) < ctx.my_spots.nearest(position))

    def _move_value(self, state: GameState, ctx: _Context, action: Move | Frenzy) -> float:
        actor = state.monsters[action.monster]
        end = action.path[-1] if action.path else actor.pos
        value = self._move_values(ctx, actor, [end])[0]
        if isinstance(action, Frenzy) and action.target is not None:
            value += self._attack_value(state, ctx, actor, [action.target], AttackKind.FRENZY)
        return value

    def _move_values(self, ctx: _Context, actor: Monster, ends: Sequence[int], free: bool = False) -> list[float]:
        """The value of ending a move of `actor` in each space of `ends`: a victim taken, progress toward
        victims and enemies, less the threat it adds to the threat where it stands and the cost of a second
        action token (HC-TURN-04); a `free` move (a plot twist's) takes no victim and gives no token."""
        w = self.weights
        pos = actor.pos
        dangers = ctx.dangers(actor)
        threat_weight = w.threat * ctx.threat_scale
        here = ctx.threat_at(dangers, pos) if dangers else 0.0
        second = not free and actor.tokens >= 1  # a second action in a row: no action next turn (HC-TURN-01)
        lockout = ctx.lockout_cost(w) if second and ctx.last_able(actor) else 0.0
        chances = ctx.chances(actor)
        pressure_weight = w.pressure * w.kills * ctx.hunt_scale
        pressure_here = ctx.pressure_at(chances, pos) if chances else 0.0
        has_victims = bool(ctx.victim_positions)
        if has_victims:
            victims = ctx.victim_spots
            victim_row = victims.row  # 0 exactly where a victim stands
            victim_value = 0.0 if free else ctx.taking_value(actor) * w.victims
            approach_weight = w.approach * ctx.state.victim_vp
            victim_before = victims.nearest(pos)
            victim_scale = max(1, victim_before)
        has_enemies = bool(ctx.enemies)
        if has_enemies:
            enemies = ctx.enemy_spots
            enemy_row = enemies.row
            kill_weight = w.kills * w.approach * 0.3 * ctx.hunt_scale
            enemy_before = enemies.nearest(pos)
            enemy_scale = max(1, enemy_before)
        width = ctx.geo.width
        opponents = ctx.opponents
        values: list[float] = []
        # `_Spots.nearest`, `threat_at` and `pressure_at` spelled out: this loop runs for every destination
        for end in ends:
            x, y = end % width, end // width
            value = 0.0
            if has_victims:
                near = victim_row[end]
                if near == 0 and end != pos:  # staying put slays nothing
                    value = victim_value
                else:
                    value = approach_weight * (victim_before - (near if near < 99 else 99)) / victim_scale * 0.5
            if has_enemies:
                near = enemy_row[end]
                value += kill_weight * (enemy_before - (near if near < 99 else 99)) / enemy_scale
            danger = 0.0
            if dangers:
                total = 0.0
                for d in dangers:
                    if d.x_low <= x <= d.x_high and d.y_low <= y <= d.y_high:
                        total += d.expected
                danger = total / opponents
            value -= threat_weight * (danger - here)
            if second:  # it forgoes next turn's attack and is stuck through the next turn
                value -= w.tempo * (1.0 + pressure_weight * pressure_here + 0.5 * threat_weight * danger) + lockout
            elif chances:
                best = 0.0
                for c in chances:
                    if c.expected > best and c.x_low <= x <= c.x_high and c.y_low <= y <= c.y_high:
                        best = c.expected
                value += pressure_weight * (best - pressure_here)
            values.append(value)
        return values

    def _victim_move_values(self, ctx: _Context, ends: Sequence[int]) -> list[float]:
        """Pull the chosen victim toward my monsters and away from the opponents'."""
        weight = self.weights.victims * 0.1
        enemy_row, my_row = ctx.enemy_spots.row, ctx.my_spots.row
        values: list[float] = []
        for end in ends:  # `_Spots.nearest` spelled out: this runs for every space the victim may reach
            enemy, mine = enemy_row[end], my_row[end]
            values.append(weight * ((enemy if enemy < 99 else 99) - (mine if mine < 99 else 99)))
        return values

    def _attack_value(
        self, state: GameState, ctx: _Context, actor: Monster, targets: list[int], kind: AttackKind
    ) -> float:
        """Expected victory points of an attack: clicks dealt and kills, less a critical miss (once per decision)."""
        key = (actor.uid, tuple(targets), kind)
        found = ctx.attack_values.get(key)
        if found is None:
            found = ctx.attack_values[key] = self._expected_attack(state, ctx, actor, targets, kind)
        return found

    def _expected_attack(
        self, state: GameState, ctx: _Context, actor: Monster, targets: list[int], kind: AttackKind
    ) -> float:
        kills = self.weights.kills * ctx.kill_scale
        total = 0.0
        for uid in targets:
            target = state.monsters[uid]
            q = effects.Query(actor, target, kind)
            attack = effects.stat(state, actor, "attack", q)
            defense = effects.stat(state, target, "defense", q)
            chance = hit_chance(defense - attack)
            damage = 1 if kind == AttackKind.FRENZY else effects.stat(state, actor, "damage", q)
            if len(targets) > 1:
                damage = max(1, damage // len(targets))
            left = live_clicks_left(target)
            per_click = target.stats.points / max(1, target.stats.clicks - 1)
            expected_clicks = min(left, damage) * chance + (1 / 36) * (damage + 1 <= left)
            kill = chance if damage >= left else (1 / 36 if damage + 1 >= left else 0.0)
            focus = 1.0 + 0.5 * (target.click - target.start_line > 0)  # finish what others started
            worth = target.stats.points + ctx.kill_bonus(target)
            total += kills * (expected_clicks * per_click * 0.5 * focus + kill * worth)
            if kill:  # a dead enemy threatens no one next turn
                total += kill * self.weights.threat * ctx.threat_scale * ctx.threat_from(target)
        own_click = actor.stats.points / max(1, actor.stats.clicks - 1)
        return total - (1 / 36) * own_click * 0.5  # critical miss

    def _tempo_cost(self, ctx: _Context, actor: Monster, end: int) -> float:
        """Acting with a monster that already has a token: it cannot act next turn and is vulnerable there
        (HC-TURN-01, HC-TURN-04)."""
        if actor.tokens >= 1:
            w = self.weights
            chances = ctx.chances(actor)
            forgone = w.pressure * w.kills * ctx.hunt_scale * ctx.pressure_at(chances, end) if chances else 0.0
            lockout = ctx.lockout_cost(w) if ctx.last_able(actor) else 0.0
            stuck = 0.5 * w.threat * ctx.threat_scale * ctx.threat(actor, end)
            return w.tempo * (1.0 + forgone + stuck) + lockout
        return 0.0


def _crossroads_scores(decision: Decision) -> list[float]:
    """A crossroads card's starting side (HC-CARD-07): the side showing the most powers over the dial's live
    clicks from its starting line, a power for each click it shows on."""
    stats = decision.context
    scores = []
    for side in decision.options:
        start = stats.red_start if stats.side_starts_red[side] and stats.red_start is not None else stats.start
        shown = stats.powers[side]
        scores.append(float(sum(len(shown[c]) for c in range(start, len(shown)) if not stats.killed[c])))
    return scores


def _attack_first(scores: list[float], attacks: list[int]) -> None:
    """A side that trails once the victims are gone can only win by kills: when an attack is worth anything,
    every other option is scored below the best attack (more than the noise), so it attacks now rather than
    set up a better one the opponent may spoil."""
    best = max(scores[i] for i in attacks)
    if best <= 0:
        return
    ceiling = best - 0.5
    chosen = set(attacks)
    for index, score in enumerate(scores):
        if score > ceiling and index not in chosen:
            scores[index] = ceiling


def style_factory(name: str, weights: Weights | None = None):  # type: ignore[no-untyped-def]
    """A factory `rng -> HeuristicAgent` for a named style (optionally with other weights)."""
    chosen = weights or STYLES[name]

    def make(rng: np.random.Generator) -> HeuristicAgent:
        return HeuristicAgent(rng, chosen, name)

    return make
