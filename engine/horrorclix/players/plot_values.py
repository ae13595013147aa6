"""What a plot twist is worth to the heuristic players (HC-PLOT-05..13): a play now, in victory points for the
player making it, and a card kept in the crypt for a later window. Read only through the options the engine
lists and the card's own text; never another player's crypt (HC-PLOT-01)."""

from __future__ import annotations

from typing import Any

from clix.engine.core import effects
from clix.engine.horrorclix import plots
from clix.engine.horrorclix.actions import AttackKind
from clix.engine.horrorclix.players.position import _adjacent_xy, _Context, hit_chance, live_clicks_left
from clix.engine.horrorclix.players.weights import Weights
from clix.engine.horrorclix.state import GameState, Monster, Victim


def card_potential(state: GameState, ctx: _Context, card: plots.PlotCard) -> float:
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


def play_value(
    weights: Weights, state: GameState, ctx: _Context, window: Any, play: plots.PlayCard, card: plots.PlotCard
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
            hurt = damage_value(weights, ctx, window.actor, params.get("amount", 1))
            return hurt + (at_stake if params.get("prevents") else 0.0)
        return 0.0
    if name == "attack_roll" and window.attacker is not None:
        return roll_play_value(weights, state, ctx, window, play, card)
    if name == "suspense" and window.victim is not None:
        return suspense_value(weights, state, ctx, window, play, card)
    if name == "preview" and effect == "ticking_clock":
        current = state.plot.clock[0] if state.plot is not None and state.plot.clock is not None else None
        before = clock_value(state, ctx, plots.card(state, current)) if current else 0.0
        return clock_value(state, ctx, card) - before
    return 0.0


def damage_value(weights: Weights, ctx: _Context, target: Monster, amount: int) -> float:
    """Victory points `amount` damage to `target` is worth to this player (a kill scores, HC-END-15)."""
    left = live_clicks_left(target)
    per_click = target.stats.points / max(1, target.stats.clicks - 1)
    worth = (target.stats.points if amount >= left else min(left, amount) * per_click * 0.5) * weights.kills
    return worth if ctx.is_enemy(target) else -worth


def roll_play_value(
    weights: Weights, state: GameState, ctx: _Context, window: Any, play: plots.PlayCard, card: plots.PlotCard
) -> float:
    """A reroll or a defense boost right after an attack roll: the change in what the attack is worth to
    me, from whether it hits now to its chance of hitting after the card."""
    attacker: Monster = window.attacker
    targets: list[Monster] = list(window.targets)
    if not targets:
        return 0.0
    d1, d2 = window.dice
    kind = AttackKind.RANGED if any(not _adjacent_xy(state, attacker.pos, t.pos) for t in targets) else AttackKind.CLOSE
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
        worth = damage_value(weights, ctx, target, damage)  # + when the target is an enemy of mine
        total += (after - float(hits_now)) * worth
    return total


def suspense_value(
    weights: Weights, state: GameState, ctx: _Context, window: Any, play: plots.PlayCard, card: plots.PlotCard
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
        return sum(weights.tempo * (1 + m.stats.points / 50) for m in hit if ctx.is_enemy(m))
    if effect == "damage_monster":
        hit = plots.affected(state, window, play)
        return sum(damage_value(weights, ctx, m, params.get("amount", 1)) for m in hit)
    return 0.0


def clock_value(state: GameState, ctx: _Context, card: plots.PlotCard) -> float:
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
