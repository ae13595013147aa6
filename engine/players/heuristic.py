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
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

import numpy as np
from clix.engine import effects, plots, subplots
from clix.engine.actions import ChooseVictim, Close, EndTurn, Frenzy, Move, MoveVictim, Ranged, SkipSuspense, Smash
from clix.engine.geometry import Geometry
from clix.engine.options import MoveBlock, Options, VictimMoveBlock
from clix.engine.players.base import Decision
from clix.engine.state import SOARING, GameState, Monster, Victim, VictimState


@dataclass(frozen=True)
class Weights:
    """How much a style values each kind of gain (all in expected victory points)."""

    victims: float = 1.0
    kills: float = 1.0
    threat: float = 1.0
    approach: float = 0.4
    noise: float = 0.05
    pressure: float = 0.5
    """The share of next turn's best attack (from where a monster ends) credited now: closing in on an enemy
    is worth what it sets up, as the threat it walks into is what it risks."""
    tempo: float = 0.2
    """The cost of a second action token, as a share of one action and of the attack it puts off: a monster
    that cannot act next turn (HC-TURN-01, HC-TURN-03) acts a turn later, stuck and vulnerable meanwhile
    (HC-TURN-04)."""
    lockout: float = 0.5
    """The cost of an action after which none of my monsters could act next turn (every one would carry two
    tokens, HC-TURN-03): a turn lost whole, in victims' worth per action of a turn (HC-TURN-02, HC-END-07)."""
    urgency: float = 1.0
    """How strongly the score reshapes play once the victims are gone: a side behind hunts, one ahead
    holds back (0: plays the same whatever the score)."""
    hold: float = 0.6
    """What keeping a plot twist for a later window is worth, as a share of what it can do there."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (Weights, tuple(getattr(self, f.name) for f in fields(self)))


TUNED = Weights(
    victims=0.8,
    kills=1.677,
    threat=0.541,
    approach=0.32,
    pressure=0.234,
    tempo=0.161,
    lockout=0.39,
    urgency=1.465,
    hold=0.445,
)
"""The weights found by self-play tuning (docs/tuning.md: the commands, their budget and their results)."""


def deviation(base: Weights, **factors: float) -> Weights:
    """`base` with some weights multiplied by the given factors (a style as a deliberate deviation)."""
    return replace(base, **{name: round(getattr(base, name) * factor, 3) for name, factor in factors.items()})


DEFAULT_STYLE = "tuned"
"""The style clix plays when none is named: the tuned weights."""

STYLES: dict[str, Weights] = {
    "tuned": TUNED,
    "balanced": Weights(),  # the hand-set weights the tuning started from, every gain at par
    # Deliberate deviations from the tuned weights, to see how a result depends on play style. Near the tuned
    # weights the landscape is flat (docs/tuning.md), so each moves far enough to play differently.
    "rusher": deviation(TUNED, victims=2.0, kills=0.5, threat=0.5, approach=2.0),  # victims first
    "hunter": deviation(TUNED, victims=0.5, kills=2.0, threat=0.6, pressure=2.0),  # kills first
}


@cache
def hit_chance(needed: int) -> float:
    """P(2d6 >= needed), with double 6 always hitting and double 1 always missing (HC-COMBAT-12, -13)."""
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if (a, b) == (6, 6) or ((a, b) != (1, 1) and a + b >= needed):
                hits += 1
    return hits / 36


def live_clicks_left(monster: Monster) -> int:
    """Clicks of damage the monster can still take before its dial shows skulls."""
    killed = monster.stats.killed
    for index in range(monster.click + 1, len(killed)):
        if killed[index]:
            return index - monster.click
    return len(killed) - monster.click


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
        top = max(scores)
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
            now = self._play_value(state, ctx, window, play, card)
            scores.append(now - self.weights.hold * self._card_potential(state, ctx, card))
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

    # --- plot twists -----------------------------------------------------------------------------------

    def _card_potential(self, state: GameState, ctx: _Context, card: plots.Card) -> float:
        """What a card in the crypt may still be worth in a later window (before the `hold` share)."""
        victims_left = len(ctx.victim_positions)
        victim_vp = state.victim_vp
        best = 0.0
        for window in card.windows:
            if window in ("slaying", "rescue"):
                value = victim_vp * min(1.0, victims_left / 3)
            elif window == "suspense":
                value = 0.3 * victim_vp * min(1.0, victims_left / 3)
            elif window == "attack_roll":
                value = 0.2 * victim_vp
            elif window == "preview":
                value = 0.0  # a ticking clock is worth the most the sooner it is in play
            else:
                value = 0.1 * victim_vp
            best = max(best, value)
        if card.rerolls:
            best = max(best, 0.2 * victim_vp)
        return best

    def _play_value(
        self, state: GameState, ctx: _Context, window: Any, play: plots.PlayCard, card: plots.Card
    ) -> float:
        """Expected victory points a play gains now, for the player making it (HC-PLOT-06..13)."""
        if window is None:
            return 0.0
        name = window.name
        effect, params = card.effect, card.params
        if name in ("slaying", "rescue") and window.actor is not None:
            at_stake = ctx.taking_value(window.actor)  # what the slayer's side would score
            if effect in ("prevent_slaying", "prevent_rescue", "spoil_victim"):
                return at_stake
            if effect == "damage_monster":
                hurt = self._damage_value(ctx, window.actor, params.get("amount", 1))
                return hurt + (at_stake if params.get("prevents") else 0.0)
            return 0.0
        if name == "attack_roll" and window.attacker is not None:
            return self._roll_play_value(state, ctx, window, play, card)
        if name == "suspense" and window.victim is not None:
            return self._suspense_value(state, ctx, window, play, card)
        if name == "preview" and effect == "ticking_clock":
            current = state.plot.clock[0] if state.plot is not None and state.plot.clock is not None else None
            before = self._clock_value(state, ctx, plots.card(state, current)) if current else 0.0
            return self._clock_value(state, ctx, card) - before
        return 0.0

    def _damage_value(self, ctx: _Context, target: Monster, amount: int) -> float:
        """Victory points `amount` damage to `target` is worth to this player (a kill scores, HC-END-15)."""
        left = live_clicks_left(target)
        per_click = target.stats.points / max(1, target.stats.clicks - 1)
        worth = (target.stats.points if amount >= left else min(left, amount) * per_click * 0.5) * self.weights.kills
        return worth if ctx.is_enemy(target) else -worth

    def _roll_play_value(
        self, state: GameState, ctx: _Context, window: Any, play: plots.PlayCard, card: plots.Card
    ) -> float:
        """A reroll or a defense boost right after an attack roll: the change in what the attack is worth to
        me, from whether it hits now to its chance of hitting after the card."""
        attacker: Monster = window.attacker
        targets: list[Monster] = list(window.targets)
        if not targets:
            return 0.0
        d1, d2 = window.dice
        kind = "ranged" if any(not _adjacent_xy(state, attacker.pos, t.pos) for t in targets) else "close"
        total = 0.0
        for target in targets:
            q = effects.Query(attacker, target, kind)
            attack = effects.stat(state, attacker, "attack", q)
            defense = effects.stat(state, target, "defense", q)
            hits_now = (d1, d2) == (6, 6) or ((d1, d2) != (1, 1) and d1 + d2 + attack >= defense)
            if window.name == "attack_roll" and card.rerolls and card.effect != "stat_modifier":
                after = hit_chance(defense - attack)
            elif card.effect == "stat_modifier" and card.params.get("stat") == "defense":
                boost = card.params.get("amount", 0)
                after = float((d1, d2) == (6, 6) or ((d1, d2) != (1, 1) and d1 + d2 + attack >= defense + boost))
            else:
                return 0.0
            damage = max(1, effects.stat(state, attacker, "damage", q) // len(targets))
            worth = self._damage_value(ctx, target, damage)  # + when the target is an enemy of mine
            total += (after - float(hits_now)) * worth
        return total

    def _suspense_value(
        self, state: GameState, ctx: _Context, window: Any, play: plots.PlayCard, card: plots.Card
    ) -> float:
        """A card when an opponent chose a victim to move: worth the victim when the opponent's monsters
        are closer to it than mine (they would pull it in to slay it), a little otherwise."""
        victim: Victim = window.victim
        enemy_gap = ctx.enemy_spots.nearest(victim.pos)
        my_gap = ctx.my_spots.nearest(victim.pos)
        danger = 0.5 if enemy_gap <= my_gap else 0.15
        victim_vp = state.victim_vp
        effect, params = card.effect, card.params
        if effect in ("freeze_victim", "protect_victim"):
            return danger * victim_vp
        if effect == "opponent_moves_victim":
            return danger * victim_vp + (0.2 * victim_vp if my_gap <= 6 else 0.0)
        if effect == "free_move":
            return 0.2 * victim_vp if my_gap <= params.get("reach", 3) + params.get("distance", 2) else 0.05
        if effect == "action_tokens":
            hit = plots.affected(state, window, play)
            return sum(self.weights.tempo * (1 + m.stats.points / 50) for m in hit if ctx.is_enemy(m))
        if effect == "damage_monster":
            hit = plots.affected(state, window, play)
            return sum(self._damage_value(ctx, m, params.get("amount", 1)) for m in hit)
        return 0.0

    def _clock_value(self, state: GameState, ctx: _Context, card: plots.Card) -> float:
        """A ticking clock in play: its modifier on every monster it reaches, + for mine, - for the others',
        scaled by the monster's points (HC-PLOT-05)."""
        params = card.params
        amount = params.get("amount", 0)
        stat_weight = {"speed": 0.5, "attack": 1.0, "defense": 1.0, "damage": 1.5}.get(params.get("stat", ""), 0.5)
        who, wanted = params.get("who", "all"), params.get("class")
        total = 0.0
        for monster in state.monsters:
            if not monster.alive or (wanted and wanted not in monster.stats.classes):
                continue
            mine = not ctx.is_enemy(monster)
            if who == "friendly" and not mine:
                continue
            if who == "opposing" and mine:
                continue
            total += (1 if mine else -1) * amount * stat_weight * monster.stats.points / 50
        return total

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
                    bonus = self._attack_value(state, ctx, actor, [part.target], "frenzy")
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
            kind = "close" if isinstance(action, Close) else "ranged"
            return self._attack_value(state, ctx, actor, targets, kind) - self._tempo_cost(ctx, actor, actor.pos)
        if isinstance(action, Smash):
            return 0.05
        if isinstance(action, plots.PlayCard):
            card = plots.card(state, action.card)
            return 0.01 - self.weights.hold * self._card_potential(state, ctx, card) * (len(card.windows) > 1)
        return 0.01  # an option this player has no opinion on (a power's action): slightly better than passing

    def _choose_victim_value(self, ctx: _Context, position: int) -> float:
        """Choosing a victim to move is worth more when the opponents are nearer to it than my monsters."""
        return self.weights.victims * 0.2 * (ctx.enemy_spots.nearest(position) < ctx.my_spots.nearest(position))

    def _move_value(self, state: GameState, ctx: _Context, action: Move | Frenzy) -> float:
        actor = state.monsters[action.monster]
        end = action.path[-1] if action.path else actor.pos
        value = self._move_values(ctx, actor, [end])[0]
        if isinstance(action, Frenzy) and action.target is not None:
            value += self._attack_value(state, ctx, actor, [action.target], "frenzy")
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
            victims, victim_spaces = ctx.victim_spots, ctx.victim_spaces
            victim_value = 0.0 if free else ctx.taking_value(actor) * w.victims
            approach_weight = w.approach * ctx.state.victim_vp
            victim_before = victims.nearest(pos)
            victim_scale = max(1, victim_before)
        has_enemies = bool(ctx.enemies)
        if has_enemies:
            enemies = ctx.enemy_spots
            kill_weight = w.kills * w.approach * 0.3 * ctx.hunt_scale
            enemy_before = enemies.nearest(pos)
            enemy_scale = max(1, enemy_before)
        values: list[float] = []
        for end in ends:
            value = 0.0
            if has_victims:
                if end in victim_spaces and end != pos:  # staying put slays nothing
                    value = victim_value
                else:
                    value = approach_weight * (victim_before - victims.nearest(end)) / victim_scale * 0.5
            if has_enemies:
                value += kill_weight * (enemy_before - enemies.nearest(end)) / enemy_scale
            danger = ctx.threat_at(dangers, end) if dangers else 0.0
            value -= threat_weight * (danger - here)
            if second:  # it forgoes next turn's attack and is stuck through the next turn
                value -= w.tempo * (1.0 + pressure_weight * pressure_here + 0.5 * threat_weight * danger) + lockout
            elif chances:
                value += pressure_weight * (ctx.pressure_at(chances, end) - pressure_here)
            values.append(value)
        return values

    def _victim_move_values(self, ctx: _Context, ends: Sequence[int]) -> list[float]:
        """Pull the chosen victim toward my monsters and away from the opponents'."""
        weight = self.weights.victims * 0.1
        enemies, mine = ctx.enemy_spots, ctx.my_spots
        return [weight * (enemies.nearest(end) - mine.nearest(end)) for end in ends]

    def _attack_value(self, state: GameState, ctx: _Context, actor: Monster, targets: list[int], kind: str) -> float:
        """Expected victory points of an attack: clicks dealt and kills, less a critical miss (once per decision)."""
        key = (actor.uid, tuple(targets), kind)
        found = ctx.attack_values.get(key)
        if found is None:
            found = ctx.attack_values[key] = self._expected_attack(state, ctx, actor, targets, kind)
        return found

    def _expected_attack(self, state: GameState, ctx: _Context, actor: Monster, targets: list[int], kind: str) -> float:
        kills = self.weights.kills * ctx.kill_scale
        total = 0.0
        for uid in targets:
            target = state.monsters[uid]
            q = effects.Query(actor, target, kind)
            attack = effects.stat(state, actor, "attack", q)
            defense = effects.stat(state, target, "defense", q)
            chance = hit_chance(defense - attack)
            damage = 1 if kind == "frenzy" else effects.stat(state, actor, "damage", q)
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


def _attack_worth(attack: int, damage: int, target: Monster) -> float:
    """Expected victory points one attack (dial values `attack`, `damage`) takes from `target`: half a
    click's share of its points per click dealt, and all of them if it dies (HC-END-04)."""
    chance = hit_chance(target.defense - attack)
    left = live_clicks_left(target)
    per_click = target.stats.points / max(1, target.stats.clicks - 1)
    return chance * (min(left, damage) * per_click * 0.5 + (target.stats.points if damage >= left else 0.0))


def _adjacent_xy(state: GameState, a: int, b: int) -> bool:
    return state.geometry.distance(a, b) <= 1


def _areas(state: GameState, player: int) -> tuple[_Spots, _Spots]:
    """The starting-area spaces of `player` and of the others (every area where not chosen yet)."""
    geo = state.geometry
    mine: list[int] = []
    theirs: list[int] = []
    chosen = _chosen_areas(state)
    for number, label in chosen.items():
        (mine if number == player else theirs).extend(geo.starting_areas[label])
    if not mine or not theirs:
        every = [s for spaces in geo.starting_areas.values() for s in spaces]
        mine, theirs = mine or every, theirs or every
    return _Spots(geo, mine), _Spots(geo, theirs)


def _chosen_areas(state: GameState) -> dict[int, Any]:
    return state.areas


def _subplot_vp_now(state: GameState, number: int) -> float:
    """The victory points `number`'s revealed subplots would score if the game ended now (HC-PLOT-04)."""
    plot = state.plot
    if plot is None or number not in plot.subplots or state.player(number).eliminated:
        return 0.0
    total = 0.0
    for name in plot.subplots[number]:
        params = plots.card(state, name).params
        per_100 = state.build_total // 100 if params.get("per_100_build") else 1
        total += params["vp"] * per_100 * subplots.CONDITIONS[params["condition"]](state, number)
    return total


class _Spots:
    """Where some pieces stand, for the distance from any space to the nearest of them (spaces counted as
    in HC-MOVE-03; 99 if there are none or all are farther)."""

    __slots__ = ("rows",)

    def __init__(self, geo: Geometry, positions: list[int]) -> None:
        self.rows = [distance_row(geo, pos) for pos in positions]

    def nearest(self, pos: int) -> int:
        best = 99
        for row in self.rows:  # scoring a decision asks this for every destination
            distance = row[pos]
            if distance < best:
                best = distance
        return best


def distance_row(geo: Geometry, pos: int) -> bytes:
    """Spaces apart from `pos` to every space of the map (HC-MOVE-03; from 255 on, 255), kept with the map:
    a byte a space, so the rows of a whole map stay small enough for the processor's caches."""
    key = ("distance_row", pos)
    found: bytes | None = geo.caches.get(key)  # type: ignore[assignment]
    if found is not None:  # read before making the closure below
        return found

    def compute() -> bytes:
        spaces = np.arange(geo.size)
        across = np.abs(spaces % geo.width - pos % geo.width)
        down = np.abs(spaces // geo.width - pos // geo.width)
        return np.minimum(np.maximum(across, down), 255).astype(np.uint8).tobytes()

    return geo.cached(key, compute)


class _Danger:
    """An enemy able to act next turn, as one monster's threat reads it: where it stands (x, y), how far it
    reaches, and the expected victory points one of its attacks takes from that monster."""

    __slots__ = ("expected", "reach", "x", "y")

    def __init__(self, x: int, y: int, reach: int, expected: float) -> None:
        self.x = x
        self.y = y
        self.reach = reach
        self.expected = expected


class _Context:
    """What one decision's scoring reads repeatedly (the pieces, where they stand, the enemies' threat to
    each monster, the score), gathered once per decision and only on first use, since many decisions need
    one or two."""

    def __init__(self, state: GameState, player: int, weights: Weights | None = None) -> None:
        self.state = state
        self.geo = state.geometry
        self.player = player
        self.team = state.player(player).team
        self.opponents = max(1, len(state.players) - 1)
        self._dangers: dict[int, list[_Danger]] = {}
        self._chances: dict[int, list[_Danger]] = {}
        self._threats: list[tuple[int, int, int, int, int]] | None = None
        self.attack_values: dict[tuple[int, tuple[int, ...], str], float] = {}
        self._mine: list[Monster] | None = None
        self._enemies: list[Monster] | None = None
        self._victim_positions: list[int] | None = None
        self._victim_spots: _Spots | None = None
        self._victim_spaces: frozenset[int] | None = None
        self._enemy_spots: _Spots | None = None
        self._my_spots: _Spots | None = None
        self.threat_scale = 1.0
        self.kill_scale = 1.0
        self.hunt_scale = 1.0
        self._must_attack = False
        self._read_the_score(weights or Weights())

    def _read_the_score(self, weights: Weights) -> None:
        """How the game stands reshapes play (HC-END-01 b, HC-END-03, HC-END-09): once the victims are gone a
        side behind must kill to win, so it hunts and takes risks; a side ahead holds back. The threat of a
        move counts only if an opponent has a turn left to act on it."""
        state = self.state
        players = len(state.players)
        last = state.turn_limit is not None and state.turn >= state.turn_limit * players
        if self.victim_positions and not last:
            return
        urgency = weights.urgency
        if self.margin() < 0:
            self._must_attack = not self.victim_positions
            self.kill_scale = 1.0 + 0.5 * urgency
            self.threat_scale = max(0.25, 1.0 - 0.5 * urgency)
            self.hunt_scale = 1.0 + 2.0 * urgency
        else:
            self.threat_scale = 1.0 + 0.5 * urgency
            self.hunt_scale = max(0.0, 1.0 - urgency)
        if last:
            self.threat_scale = 0.0  # the game's last turn: no one acts after it

    @property
    def must_attack(self) -> bool:
        """Victims gone and behind on the score: only kills can still win (HC-END-03, HC-END-09)."""
        return self._must_attack

    def margin(self) -> float:
        """My team's victory points (subplots counted as they stand) less the best other team's; a tie
        counts ±0.5 for the tie-break, the cheaper army winning (HC-END-09), and -0.25 if still tied (a draw)."""
        state = self.state
        vp: dict[int, float] = {}
        points: dict[int, int] = {}
        for p in state.players:
            vp[p.team] = vp.get(p.team, 0.0) + state.total_vp(p.number) + _subplot_vp_now(state, p.number)
            points[p.team] = points.get(p.team, 0) + p.army_points
        mine = vp.pop(self.team, 0.0)
        if not vp:
            return mine
        best_team = max(vp, key=lambda t: (vp[t], -points[t]))
        margin = mine - vp[best_team]
        if margin == 0:
            if not state.tie_break:
                return -0.25  # a draw
            if points[self.team] < points[best_team]:
                return 0.5
            return -0.5 if points[self.team] > points[best_team] else -0.25
        return margin

    def last_able(self, actor: Monster) -> bool:
        """Whether `actor` is the last of my monsters able to act next turn: each other one has acted this
        turn and carries two tokens (a monster that does not act this turn sheds its tokens, HC-TURN-03)."""
        for m in self.mine:
            if m is not actor and not m.immovable and not m.incapable and not (m.acted and m.tokens >= 2):
                return False
        return True

    def lockout_cost(self, weights: Weights) -> float:
        """What losing every action of my next turn is worth (HC-TURN-02, HC-END-07)."""
        return weights.lockout * self.state.victim_vp * self.state.actions_per_turn

    def is_enemy(self, monster: Monster) -> bool:
        return self.state.player(monster.controller).team != self.team

    def taking_value(self, actor: Monster) -> float:
        """The victory points a slaying (or rescue) by `actor` swings toward its side: the victim's value
        (HC-END-07) and every subplot it moves (HC-PLOT-04), its side's gains less the others'."""
        state = self.state
        swing = float(state.victim_vp)
        plot = state.plot
        if plot is None or not plot.subplots:
            return swing
        side = state.player(actor.controller).team
        per_100 = state.build_total // 100
        for number, names in plot.subplots.items():
            sign = 1.0 if state.player(number).team == side else -1.0
            for name in names:
                params = plots.card(state, name).params
                vp = params["vp"] * (per_100 if params.get("per_100_build") else 1)
                condition = params["condition"]
                if condition == "each_victim_slain" and not actor.rescuer:
                    swing += sign * vp
                elif condition == "each_victim_not_slain" and not actor.rescuer:
                    swing -= sign * vp
                elif condition in ("each_victim_on_master", "each_victim_rescued_by_you"):
                    on_master = condition == "each_victim_on_master" and plot.master.get(number) == actor.uid
                    rescued = actor.rescuer and number == actor.controller and condition != "each_victim_on_master"
                    swing += sign * vp * (on_master or rescued)
        return swing

    def kill_bonus(self, target: Monster) -> float:
        """Subplot victory points a kill of `target` by my monsters adds (my rival, HC-PLOT-04)."""
        plot = self.state.plot
        if plot is None or not plot.subplots:
            return 0.0
        bonus = 0.0
        per_100 = self.state.build_total // 100
        for name in plot.subplots.get(self.player, ()):
            params = plots.card(self.state, name).params
            if params["condition"] == "rival_killed" and plot.rival.get(self.player) == target.uid:
                bonus += params["vp"] * (per_100 if params.get("per_100_build") else 1)
        return bonus

    @property
    def mine(self) -> list[Monster]:
        if self._mine is None:
            self._mine = [m for m in self.state.monsters if m.alive and m.controller == self.player]
        return self._mine

    @property
    def enemies(self) -> list[Monster]:
        if self._enemies is None:
            state = self.state
            team = state.player(self.player).team
            self._enemies = [m for m in state.monsters if m.alive and state.player(m.controller).team != team]
        return self._enemies

    @property
    def victim_positions(self) -> list[int]:
        if self._victim_positions is None:
            self._victim_positions = [v.pos for v in self.state.victims if v.state == VictimState.ON_MAP]
        return self._victim_positions

    @property
    def victim_spots(self) -> _Spots:
        if self._victim_spots is None:
            self._victim_spots = _Spots(self.geo, self.victim_positions)
        return self._victim_spots

    @property
    def victim_spaces(self) -> frozenset[int]:
        if self._victim_spaces is None:
            self._victim_spaces = frozenset(self.victim_positions)
        return self._victim_spaces

    @property
    def enemy_spots(self) -> _Spots:
        if self._enemy_spots is None:
            self._enemy_spots = _Spots(self.geo, [e.pos for e in self.enemies])
        return self._enemy_spots

    @property
    def my_spots(self) -> _Spots:
        if self._my_spots is None:
            self._my_spots = _Spots(self.geo, [m.pos for m in self.mine])
        return self._my_spots

    def threat(self, monster: Monster, pos: int) -> float:
        """Expected victory points the opponents can take from `monster` standing at `pos` next turn."""
        return self.threat_at(self.dangers(monster), pos)

    def dangers(self, monster: Monster) -> list[_Danger]:
        """The enemies able to act next turn, as `monster`'s threat reads them (once per decision and monster)."""
        found = self._dangers.get(monster.uid)
        if found is None:
            found = self._dangers[monster.uid] = self._dangers_to(monster)
        return found

    def _dangers_to(self, monster: Monster) -> list[_Danger]:
        if self._threats is None:  # the enemies able to act next turn: where each reaches, and its attack
            able = [e for e in self.enemies if e.tokens < 2 and not e.incapable]
            width = self.geo.width
            self._threats = [
                (
                    e.pos % width,
                    e.pos // width,
                    max(e.speed + 1 if not e.immovable else 1, e.stats.range),
                    e.attack,
                    e.damage,
                )
                for e in able
            ]
        return [
            _Danger(x, y, reach, _attack_worth(attack, damage, monster))
            for x, y, reach, attack, damage in self._threats
        ]

    def chances(self, monster: Monster) -> list[_Danger]:
        """The enemies `monster` could attack next turn, each with what one attack of it is expected to take
        (from the dials as they stand; once per decision and monster)."""
        found = self._chances.get(monster.uid)
        if found is None:
            found = self._chances[monster.uid] = self._chances_of(monster)
        return found

    def _chances_of(self, monster: Monster) -> list[_Danger]:
        if monster.incapable or not self.enemies:
            return []
        reach = max(monster.speed + 1 if not monster.immovable else 1, monster.stats.range)
        attack, damage = monster.attack, monster.damage
        width = self.geo.width
        return [
            _Danger(enemy.pos % width, enemy.pos // width, reach, _attack_worth(attack, damage, enemy))
            for enemy in self.enemies
        ]

    def pressure_at(self, chances: list[_Danger], pos: int) -> float:
        """The best attack `chances` offer from `pos` next turn (one attack per monster and turn)."""
        width = self.geo.width
        x, y = pos % width, pos // width
        best = 0.0
        for chance in chances:
            reach = chance.reach
            if chance.expected > best and -reach <= x - chance.x <= reach and -reach <= y - chance.y <= reach:
                best = chance.expected
        return best

    def threat_from(self, enemy: Monster) -> float:
        """Expected victory points `enemy` can take from my monsters next turn (its best attack on one of
        those it reaches), what killing it now saves."""
        if enemy.tokens >= 2 or enemy.incapable:
            return 0.0
        reach = max(enemy.speed + 1 if not enemy.immovable else 1, enemy.stats.range)
        width = self.geo.width
        ex, ey = enemy.pos % width, enemy.pos // width
        best = 0.0
        for mine in self.mine:
            if -reach <= mine.pos % width - ex <= reach and -reach <= mine.pos // width - ey <= reach:
                best = max(best, _attack_worth(enemy.attack, enemy.damage, mine))
        return best / self.opponents

    def threat_at(self, dangers: list[_Danger], pos: int) -> float:
        """`threat` from the monster's `dangers`: the sum over the enemies that reach `pos` (spaces counted as
        in HC-MOVE-03), shared among the opponents."""
        width = self.geo.width
        x, y = pos % width, pos // width
        total = 0.0
        for danger in dangers:
            reach = danger.reach
            if -reach <= x - danger.x <= reach and -reach <= y - danger.y <= reach:
                total += danger.expected
        return total / self.opponents


def style_factory(name: str, weights: Weights | None = None):  # type: ignore[no-untyped-def]
    """A factory `rng -> HeuristicAgent` for a named style (optionally with other weights)."""
    chosen = weights or STYLES[name]

    def make(rng: np.random.Generator) -> HeuristicAgent:
        return HeuristicAgent(rng, chosen, name)

    return make


def with_weights(name: str, **changes: float) -> Weights:
    """A style's weights with some changed (for sensitivity runs)."""
    return replace(STYLES[name], **changes)
