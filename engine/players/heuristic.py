"""Heuristic players: every option scored by the victory points it is expected to be worth.

One scoring serves every style; a style is a set of weights (`Weights`), so the analyzer can ask how a
result changes with play style. The scores use the exact 2d6 distribution (with critical hits and
misses, HC-COMBAT-12/-13), the expected clicks and kill chance of an attack, the value of a victim
(HC-END-07), the threat a destination exposes the monster to, vulnerability (HC-TURN-04) and focus
fire. Players only read the state and choose among the options the engine lists.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from engine import effects
from engine.actions import ChooseVictim, Close, EndTurn, Frenzy, Move, MoveVictim, Ranged, SkipSuspense, Smash
from engine.geometry import Geometry
from engine.options import MoveBlock, Options, VictimMoveBlock
from engine.players.base import Decision
from engine.state import GameState, Monster


@dataclass(frozen=True)
class Weights:
    """How much a style values each kind of gain (all in expected victory points)."""

    victims: float = 1.0
    kills: float = 1.0
    threat: float = 1.0
    approach: float = 0.4
    noise: float = 0.05


DEFAULT_STYLE = "balanced"
"""The style clix plays when none is named."""

STYLES: dict[str, Weights] = {
    "balanced": Weights(),
    "rusher": Weights(victims=1.6, kills=0.6, threat=0.5, approach=0.6),
    "hunter": Weights(victims=0.6, kills=1.6, threat=0.8, approach=0.3),
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

    def __init__(self, rng: np.random.Generator, weights: Weights | None = None, name: str = "balanced") -> None:
        self.rng = rng
        self.weights = weights or STYLES[name]
        self.name = name

    def choose(self, state: GameState, decision: Decision) -> int:
        if decision.kind != "action":
            return self._default(state, decision)
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

    def _default(self, state: GameState, decision: Decision) -> int:
        """Setup and other choices: a sensible pick where one is obvious, else random."""
        options = decision.options
        if decision.kind == "monster_space":
            centre = state.geometry.index(state.geometry.width // 2, state.geometry.height // 2)
            return min(range(len(options)), key=lambda i: state.geometry.distance(options[i], centre))
        if decision.kind in ("transform",):
            return len(options) - 1  # take a "may" transformation
        if decision.kind.startswith("plot_twist"):
            return self._respond(state, decision)
        return int(self.rng.integers(len(options)))

    def _respond(self, state: GameState, decision: Decision) -> int:
        """Plot twists where they matter most: always against an opponent's slaying or rescue and to save
        an attack that missed; a ticking clock when it helps; in the suspense phase half the time; and
        every follow-up choice of a card already played (where to put a victim...) at random."""
        options = decision.options
        if len(options) < 2:
            return 0
        if decision.kind != "plot_twist":
            return int(self.rng.integers(len(options)))
        window = decision.subject
        if window in ("slaying", "rescue", "attack_roll", "preview"):
            return 1 + int(self.rng.integers(len(options) - 1))
        return 0 if self.rng.random() < 0.5 else 1 + int(self.rng.integers(len(options) - 1))

    def _score_action(self, state: GameState, decision: Decision) -> list[float]:
        """Every option's value; a monster's plain moves are scored in bulk (they are most of the options)."""
        ctx = _Context(state, decision.player)
        options = decision.options
        if not isinstance(options, Options):
            options = Options(list(options))
        scores: list[float] = []
        for part in options.parts:
            if type(part) is ChooseVictim:
                scores.append(self._choose_victim_value(ctx, state.victims[part.victim].pos))
            elif type(part) is MoveBlock:
                actor = state.monsters[part.monster]
                values = self._move_values(ctx, actor, part.ends)
                if part.target is not None:  # a frenzy, or a move power's free attack (both damage 1)
                    bonus = self._attack_value(state, ctx, actor, [part.target], "frenzy")
                    values = [value + bonus for value in values]
                scores.extend(values)
            elif type(part) is VictimMoveBlock:
                scores.extend(self._victim_move_values(ctx, part.ends))
            else:
                scores.append(self._action_value(state, ctx, part))
        return scores

    # --- the hunting and suspense phases ---------------------------------------------------------------

    def _action_value(self, state: GameState, ctx: _Context, action: object) -> float:
        if isinstance(action, EndTurn):
            return 0.0
        if isinstance(action, SkipSuspense):
            return 0.0
        if isinstance(action, MoveVictim):
            end = action.path[-1] if action.path else state.victims[action.victim].pos
            return self._victim_move_values(ctx, [end])[0]
        if isinstance(action, (Move, Frenzy)):
            return self._move_value(state, ctx, action)
        if isinstance(action, (Close, Ranged)):
            actor = state.monsters[action.monster]
            targets = [action.target] if isinstance(action, Close) else list(action.targets)
            kind = "close" if isinstance(action, Close) else "ranged"
            return self._attack_value(state, ctx, actor, targets, kind) - self._vulnerability(ctx, actor, actor.pos)
        if isinstance(action, Smash):
            return 0.05
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

    def _move_values(self, ctx: _Context, actor: Monster, ends: Sequence[int]) -> list[float]:
        """The value of ending a move of `actor` in each space of `ends`: a victim slain, progress toward
        victims and enemies, less the threat there and the cost of becoming vulnerable (HC-TURN-04)."""
        w = self.weights
        pos = actor.pos
        dangers = ctx.dangers(actor)
        vulnerable = actor.tokens >= 1  # a second action in a row leaves it vulnerable (HC-TURN-04)
        has_victims = bool(ctx.victim_positions)
        if has_victims:
            victims, victim_spaces = ctx.victim_spots, ctx.victim_spaces
            victim_value = w.victims * ctx.state.victim_vp
            approach_weight = w.approach * ctx.state.victim_vp
            victim_before = victims.nearest(pos)
            victim_scale = max(1, victim_before)
        has_enemies = bool(ctx.enemies)
        if has_enemies:
            enemies = ctx.enemy_spots
            kill_weight = w.kills * w.approach * 0.3
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
            danger = ctx.threat_at(dangers, end)
            value -= w.threat * danger
            if vulnerable:
                value -= w.threat * (0.5 + danger)
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
            found = ctx.attack_values[key] = self._expected_attack(state, actor, targets, kind)
        return found

    def _expected_attack(self, state: GameState, actor: Monster, targets: list[int], kind: str) -> float:
        w = self.weights
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
            total += w.kills * (expected_clicks * per_click * 0.5 * focus + kill * target.stats.points)
        own_click = actor.stats.points / max(1, actor.stats.clicks - 1)
        return total - (1 / 36) * own_click * 0.5  # critical miss

    def _vulnerability(self, ctx: _Context, actor: Monster, end: int) -> float:
        """Acting with a monster that already has a token leaves it vulnerable (HC-TURN-04)."""
        if actor.tokens >= 1:
            return self.weights.threat * (0.5 + ctx.threat(actor, end))
        return 0.0


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

    def compute() -> bytes:
        spaces = np.arange(geo.size)
        across = np.abs(spaces % geo.width - pos % geo.width)
        down = np.abs(spaces // geo.width - pos // geo.width)
        return np.minimum(np.maximum(across, down), 255).astype(np.uint8).tobytes()

    return geo.cached(("distance_row", pos), compute)


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
    each monster), gathered once per decision and only on first use, since many decisions need one or two."""

    def __init__(self, state: GameState, player: int) -> None:
        self.state = state
        self.geo = state.geometry
        self.player = player
        self.opponents = max(1, len(state.players) - 1)
        self._dangers: dict[int, list[_Danger]] = {}
        self._threats: list[tuple[int, int, int, int, int]] | None = None
        self.attack_values: dict[tuple[int, tuple[int, ...], str], float] = {}
        self._mine: list[Monster] | None = None
        self._enemies: list[Monster] | None = None
        self._victim_positions: list[int] | None = None
        self._victim_spots: _Spots | None = None
        self._victim_spaces: frozenset[int] | None = None
        self._enemy_spots: _Spots | None = None
        self._my_spots: _Spots | None = None

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
            self._victim_positions = [v.pos for v in self.state.victims if v.state == "on_map"]
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
        per_click = monster.stats.points / max(1, monster.stats.clicks - 1)
        defense = monster.defense
        return [
            _Danger(x, y, reach, hit_chance(defense - attack) * damage * per_click * 0.5)
            for x, y, reach, attack, damage in self._threats
        ]

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
