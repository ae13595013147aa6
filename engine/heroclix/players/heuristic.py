"""The HeroClix heuristic player: every option scored in expected victory points against the position as it
stands (ending the turn is worth 0), one scoring for every style (`Weights`).

An attack is worth its exact 2d6 odds against the target's defense (HX-COMBAT-02..05) times the clicks it deals
and the KO it may score (HX-END-05, -06); acting with a character that already has a token costs the push
(HX-TURN-11..14); a move is worth the attacks it sets up for next turn and its approach, less the threat it walks
into (the opponents' range and reach, `Context.threat`). In the last rounds the score decides: behind takes
risks, ahead keeps out of reach (HX-END-07, -11). Players read only the position on the map and choose among the
options the engine lists."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from clix.engine.core.pieces import Figure
from clix.engine.core.players.base import Decision
from clix.engine.heroclix import area_attacks, combat, free_actions, power_actions
from clix.engine.heroclix.objects import THROWN_DAMAGE, layout_of
from clix.engine.heroclix.players.position import Context, attack_odds, click_value
from clix.engine.heroclix.players.weights import DEFAULT_STYLE, STYLES, TUNED, Weights, deviation
from clix.engine.heroclix.powers import BLADES, INCAPACITATE, MIND_CONTROL
from clix.engine.heroclix.state import HOVERING, Close, EndTurn, HeroState, Move, PowerAction, Ranged, Telekinesis

__all__ = ["DEFAULT_STYLE", "STYLES", "TUNED", "HeuristicAgent", "Weights", "deviation", "style_factory"]

HEALED = {power_actions.REGENERATION: 2.0, power_actions.SUPPORT: 2.0}
"""Expected clicks healed: Regeneration's half a d6 rounded up (HX-POWER-35); Support's d6 less 2, at least 1,
on a success (HX-POWER-39)."""
UNKNOWN = -1.0
"""An option this player has no opinion on: worse than ending the turn by more than the noise, so it is never
taken blindly."""


class HeuristicAgent:
    """Chooses the option with the highest expected victory points (plus a little seeded noise)."""

    def __init__(self, rng: np.random.Generator, weights: Weights | None = None, name: str = DEFAULT_STYLE) -> None:
        self.rng = rng
        self.weights = weights or STYLES[name]
        self.name = name

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as its generator, weights and name (all it holds)."""
        return (HeuristicAgent, (self.rng, self.weights, self.name))

    def choose(self, state: HeroState, decision: Decision) -> int:
        if decision.kind != "action":
            return self._other(state, decision)
        scores = self.scores(state, decision)
        noise = self.rng.random(len(scores))  # one draw per option, read or not, so the stream stays the same
        weight = self.weights.noise
        floor = max(scores) - abs(weight) - 1e-9
        best, best_value = len(scores) - 1, -math.inf
        for index, score in enumerate(scores):
            if score >= floor:
                value = score + float(noise[index]) * weight
                if value > best_value:
                    best, best_value = index, value
        return best

    # --- the action choice -----------------------------------------------------------------------------

    def scores(self, state: HeroState, decision: Decision) -> list[float]:
        """Every option's value; moves are scored per character from the context's lookups."""
        ctx = Context(state, decision.player, self.weights)
        moves: dict[int, Destinations] = {}
        scores: list[float] = []
        for action in decision.options:
            if type(action) is Move and action.carry is None and action.attack is None:
                scorer = moves.get(action.character)
                if scorer is None:
                    scorer = moves[action.character] = Destinations(ctx, state.monsters[action.character])
                scores.append(scorer.value(action.path[-1] if action.path else scorer.pos))
            else:
                scores.append(self.action_value(ctx, action))
        return scores

    def action_value(self, ctx: Context, action: object) -> float:
        """An option other than a plain move."""
        state = ctx.state
        if isinstance(action, EndTurn):
            return 0.0  # the baseline: the position as it stands
        character = getattr(action, "character", None)
        if character is None:
            return UNKNOWN
        actor = state.monsters[character]
        if isinstance(action, PowerAction) and free_actions.grants(action.power):
            return self._free_value(ctx, actor, action)  # HX-TURN-16: no token, no push
        pushed = ctx.push_cost(actor) if actor.tokens >= 1 else 0.0  # HX-TURN-11
        if isinstance(action, Close | Ranged):
            return self.attack_value(ctx, actor, action) - pushed
        if isinstance(action, Telekinesis) and action.target is not None:
            kind = next(
                (o.kind for o in layout_of(state).objects if state.geometry.index(*o.at) == action.object_square),
                "light",
            )
            target = state.monsters[action.target]
            return ctx.attack_value(actor, target, action, THROWN_DAMAGE.get(kind, 2)) - pushed  # HX-OBJECT-14, -15
        if isinstance(action, PowerAction):
            return self._power_value(ctx, actor, action) - pushed
        if isinstance(action, Move):  # carrying, or a transporter's attack on the way
            end = action.path[-1] if action.path else actor.pos
            return self.move_value(ctx, actor, end) + UNKNOWN
        return UNKNOWN - pushed

    def attack_value(self, ctx: Context, actor: Figure, action: Close | Ranged) -> float:
        """Expected victory points of a close or ranged combat action, area attacks and Flurry included."""
        state = ctx.state
        if action.use == MIND_CONTROL or action.use == INCAPACITATE:
            targets = [action.target] if isinstance(action, Close) else list(action.targets)
            value = 0.0
            for uid in targets:  # a hit takes the target's next action or turns it: worth a share of its attack
                target = state.monsters[uid]
                plain, critical, *_ = combat_odds(ctx, actor, target, action)
                share = 0.6 if action.use == MIND_CONTROL else 0.3
                value += (plain + critical) * share * ctx.best_attack(target)
            return value - (click_value(actor) if action.use == MIND_CONTROL else 0.0)
        close = isinstance(action, Close)
        if area_attacks.area(action):
            return self._area_value(ctx, actor, action)
        targets = [action.target, *action.then] if isinstance(action, Close) else list(action.targets)
        damage = float(actor.damage + combat.damage_modifier(state, actor, action))
        if action.use == BLADES:  # HX-POWER-13: a d6 in place of the damage value, at least the damage value less 1
            damage = max(3.5, damage - 1)
        value = 0.0
        for uid in targets:
            each = damage if len(targets) == 1 or close else max(1, damage // len(targets))  # HX-COMBAT-24
            value += ctx.attack_value(actor, state.monsters[uid], action, each)
        return value * (ctx.w.close if close else 1.0) * ctx.hunt

    def _area_value(self, ctx: Context, actor: Figure, action: Close | Ranged) -> float:
        """Quake, Energy Explosion and Pulse Wave: each target the power picks takes the power's damage."""
        state = ctx.state
        if action.use == area_attacks.QUAKE:
            hit, each = area_attacks.quake_targets(state, actor), area_attacks.QUAKE_DAMAGE
        elif action.use == area_attacks.PULSE_WAVE:
            hit, each = area_attacks.pulse_targets(state, actor), area_attacks.PULSE_DAMAGE
        else:
            assert isinstance(action, Ranged)
            hit, each = area_attacks.splashed(state, actor, action), area_attacks.EXPLOSION_DAMAGE
        value = 0.0
        for target in hit:
            sign = 1.0 if ctx.is_enemy(target) else -1.0  # friends in the blast count against it
            value += sign * ctx.attack_value(actor, target, action, each)
        return value * ctx.hunt

    def _power_value(self, ctx: Context, actor: Figure, action: PowerAction) -> float:
        state = ctx.state
        if action.power in HEALED:
            friend = actor if action.target is None else state.monsters[action.target]
            clicks = min(HEALED[action.power], friend.click - friend.start_line)
            chance = 1.0 if action.power == power_actions.REGENERATION else 0.75
            return ctx.w.heal * chance * clicks * click_value(friend)
        if action.power == power_actions.HYPERSONIC and action.attack is not None:
            end = action.then_path[-1] if action.then_path else action.path[-1] if action.path else actor.pos
            hit = self.attack_value(ctx, actor, action.attack)
            return hit + self.move_value(ctx, actor, end, acted=True) - self.move_value(ctx, actor, actor.pos, True)
        return UNKNOWN

    def _free_value(self, ctx: Context, actor: Figure, action: PowerAction) -> float:
        """Free actions (HX-TURN-16): Poison's click to each adjacent opponent, a Sidestep as a move that gives no
        token, Perplex and Outwit a little better than nothing when aimed the right way."""
        if action.power == free_actions.POISON:
            geo = ctx.geo
            return sum(ctx.worth(actor, e, 1) for e in ctx.enemies if geo.distance(e.pos, actor.pos) == 1)
        if action.power == free_actions.SIDESTEP and action.path:
            return self.move_value(ctx, actor, action.path[-1], free=True)
        if action.target is not None:
            target = ctx.state.monsters[action.target]
            friendly = ctx.is_mine(target)
            return 0.05 if (friendly == (action.amount > 0)) or action.power != "Perplex" else UNKNOWN
        return UNKNOWN

    def move_value(self, ctx: Context, actor: Figure, end: int, acted: bool = False, free: bool = False) -> float:
        """Ending a move of `actor` on `end`: the attack it sets up for next turn (less the push it would cost
        then), its approach when it has none, less the threat it adds, less pushing now (HX-TURN-11)."""
        w = ctx.w
        pos = actor.pos
        if end == pos and not acted:  # a move that goes nowhere only gives a token, and may push (HX-TURN-09, -11)
            return UNKNOWN - (ctx.push_cost(actor) if actor.tokens >= 1 and not free else 0.0)
        tokens = actor.tokens + (0 if free else 1)  # HX-TURN-09
        # staying put is the baseline: its tokens clear at the end of the turn (HX-TURN-10)
        best, push, now, before, threat_here, speed = ctx.here(actor)
        if tokens >= 2:
            later = 0.0  # no action next turn (HX-TURN-13)
        else:
            later = max(0.0, ctx.pressure(actor, end) - push) if tokens else ctx.pressure(actor, end)
        value = w.pressure * ctx.hunt * (later - now)
        if before > 0:
            value += w.approach * ctx.hunt * best * (before - ctx.gap(actor, end)) / max(1, speed)
        value -= w.threat * ctx.caution * (ctx.threat(actor, end) - threat_here)
        if actor.tokens >= 1 and not free:
            value -= push
        return value

    # --- the other decisions -----------------------------------------------------------------------------

    def _other(self, state: HeroState, decision: Decision) -> int:
        """Setup and mid-action choices, each picked cheaply; one this player does not know is drawn at random
        with its own generator."""
        kind, options = decision.kind, decision.options
        if not options:
            return 0
        if kind in ("place", "object"):  # HX-SETUP-05, -08: forward, toward the middle of the map
            geo = state.geometry
            centre = geo.index(geo.width // 2, geo.height // 2)
            best, nearest = 0, -1  # the first of the nearest, as `min` by distance: a typed loop, no key function
            for index, option in enumerate(options):
                square = geo.index(option[0], option[1]) if isinstance(option, tuple) else int(option)
                apart = geo.distance(square, centre)
                if nearest < 0 or apart < nearest:
                    best, nearest = index, apart
            return best
        if kind == "flight":  # HX-COMBAT-18: a soaring character shoots only soaring, giant and big ones
            return options.index(HOVERING) if HOVERING in options else 0
        if kind == "leadership":  # HX-POWER-48: the friend with the most tokens loses one
            return max(range(len(options)), key=lambda i: state.monsters[options[i]].tokens)
        if kind in ("place rear", "reroll", "mastermind", "shape_change"):
            return 0  # the first (declining, where None is offered)
        return int(self.rng.integers(len(options)))


class Destinations:
    """`HeuristicAgent.move_value` of one character's plain moves in a decision, the same floats worked out
    faster: what does not depend on the square once (`Context.here`, the weights' products, the opponents' squares
    and attack values), each square's pressure, gap and threat (`Context.pressure`, `gap`, `threat`) in one typed
    loop each, without a call and a cache entry per square and opponent (most of a decision's work: ~95 squares a
    character). Several opposing players' threats (`Context._threat_of_each`) and several actions a turn are
    left to `Context.threat`."""

    def __init__(self, ctx: Context, actor: Figure) -> None:
        self.ctx = ctx
        self.actor = actor
        self.pos = actor.pos
        w = ctx.w
        self.pushed = actor.tokens >= 1  # HX-TURN-11: moving now pushes
        self.stay = UNKNOWN - (ctx.push_cost(actor) if self.pushed else 0.0)  # as `move_value` of its own square
        best, push, now, before, threat_here, speed = ctx.here(actor)
        self.push, self.now, self.before, self.threat_here = push, now, before, threat_here
        self.pressure_scale = w.pressure * ctx.hunt
        self.approach_scale = w.approach * ctx.hunt * best
        self.speed = max(1, speed)
        self.threat_scale = w.threat * ctx.caution
        self.width = ctx.geo.width
        self.neighbours = ctx.geo.neighbour_sets
        self.reach = actor.stats.range
        self.gap_reach = max(1, actor.stats.range)
        self.targets = ctx._targets(actor) if not self.pushed else []  # the pressure counts only without a token
        self.enemy_squares = [e.pos for e in ctx.enemies]
        self.attackers = ctx._attackers(actor)
        self.single = ctx.rivals <= 1 and ctx.enemy_actions == 1  # else `Context.threat`'s general case

    def value(self, end: int) -> float:
        """`move_value(ctx, actor, end)`, worked out each time it is asked: a decision lists one plain move per
        square a character reaches (`movement.reachable`), so a table of the squares' values was filled and never
        read (a dict entry and a boxed float per square, 5% of a game)."""
        if end == self.pos:
            return self.stay
        later = 0.0  # with a token already, no action next turn (HX-TURN-13)
        if not self.pushed:
            later = self._pressure(end) - self.push
            if not later > 0.0:  # as max(0.0, later)
                later = 0.0
        value = self.pressure_scale * (later - self.now)
        if self.before > 0:
            value += self.approach_scale * (self.before - self._gap(end)) / self.speed
        threat = self._threat(end) if self.single else self.ctx.threat(self.actor, end)
        value -= self.threat_scale * (threat - self.threat_here)
        if self.pushed:
            value -= self.push
        return value

    def _pressure(self, end: int) -> float:
        """`Context.pressure(actor, end)`."""
        ctx = self.ctx
        width = self.width
        x, y = end % width, end // width
        reach = self.reach
        close = ranged = 0.0
        engaged = False
        for aim in self.targets:
            dx, dy = aim.pos % width - x, aim.pos // width - y
            apart = max(dx if dx >= 0 else -dx, dy if dy >= 0 else -dy)
            if apart == 1 and aim.pos in self.neighbours[end]:
                engaged = True
                if aim.close > close:  # as max(close, aim.close)
                    close = aim.close
            elif 0 < apart <= reach and aim.ranged > ranged and ctx._how(end, aim.pos, apart, reach) == 1:
                ranged = aim.ranged  # as max(ranged, aim.ranged); the line is traced only when it would count
        return close if engaged else ranged

    def _gap(self, end: int) -> int:
        """`Context.gap(actor, end)`."""
        width = self.width
        x, y = end % width, end // width
        best = -1
        for pos in self.enemy_squares:
            dx, dy = pos % width - x, pos // width - y
            apart = max(dx if dx >= 0 else -dx, dy if dy >= 0 else -dy) - self.gap_reach
            if apart < 0:
                apart = 0
            if best < 0 or apart < best:
                best = apart
        return best if best >= 0 else 0

    def _threat(self, end: int) -> float:
        """`Context.threat(actor, end)` with one opposing player of one action a turn: the best attack alone."""
        ctx = self.ctx
        width = self.width
        x, y = end % width, end // width
        most = -math.inf
        for foe in self.attackers:
            dx, dy = foe.x - x, foe.y - y
            apart = max(dx if dx >= 0 else -dx, dy if dy >= 0 else -dy)
            if apart > foe.reach:
                continue
            how = ctx._how(foe.pos, end, apart, foe.range) if apart <= foe.shoots else 0
            value = (foe.close if how == 2 else foe.ranged) if how else foe.far
            value = value * foe.pushed
            if value > most:  # as max(most, value)
                most = value
        return 0.0 + most if most > -math.inf else 0.0


def combat_odds(ctx: Context, actor: Figure, target: Figure, action: Close | Ranged) -> tuple[float, ...]:
    """`attack_odds` of an attack that deals no damage (HX-COMBAT-05)."""
    return attack_odds(ctx.state, actor, target, action, 0)


def style_factory(name: str, weights: Weights | None = None):  # type: ignore[no-untyped-def]
    """A factory `rng -> HeuristicAgent` for a named style (optionally with other weights)."""
    chosen = weights or STYLES[name]

    def make(rng: np.random.Generator) -> HeuristicAgent:
        return HeuristicAgent(rng, chosen, name)

    return make
