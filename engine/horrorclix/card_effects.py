"""Every plot-twist card effect (HC-PLOT-05, HC-PLOT-06, HC-PLOT-12, HC-SPECIAL-02, HC-SPECIAL-13): what a played
card does, by the effect names of engine/horrorclix/registry/plot_effects.py. engine/horrorclix/plots.py opens the windows and calls
`EFFECTS[effect]` for the card played."""

from __future__ import annotations

from collections.abc import Callable

from clix.engine.core import decisions
from clix.engine.horrorclix import combat
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.movement import MoveContext, VictimContext, destinations
from clix.engine.horrorclix.plot_plays import (
    PATH,
    PLACE,
    Path,
    Place,
    PlayCard,
    Window,
    chosen,
    path_option,
    placements,
)
from clix.engine.horrorclix.plot_table import PlotCard, frozen, lasting_until, mark_victim, table
from clix.engine.horrorclix.state import GameState, Lasting, Monster, Victim, VictimState


def _prevent(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """prevent_slaying / prevent_rescue (HC-PLOT-06, HC-SLAY-06)."""
    _stop(state, w, play.player, c)


def _stop(state: GameState, w: Window, player: int, c: PlotCard) -> None:
    """Stop the slaying or rescue: the victim goes to an unoccupied adjacent space chosen by the opponent to
    the active player's left, or cannot be saved if there is none (HC-PLOT-06). The monster stays where its
    move ended, the victim's former space (HC-PLOT-06 OPEN, docs/rulings.md)."""
    victim, actor, p = w.victim, w.actor, c.params
    assert victim is not None and actor is not None
    spaces = placements(state, victim, p)
    if not spaces:
        state.emit(EventKind.NOT_PREVENTED, victim=victim.label, card=c.name)
        return
    chooser = player if p.get("placement") == "victim_start" else _left_opponent(state, player)
    geo = state.geometry
    place = decisions.ask(state, PLACE, chooser, [Place(s, geo.xy(s)) for s in spaces], c.name, victim)
    victim.pos = place.pos
    w.outcome = "stopped"
    state.emit(EventKind(f"{w.name}_prevented"), monster=actor.label, victim=victim.label, to=geo.xy(victim.pos))
    if p.get("tokens"):
        _give_tokens(state, actor, p["tokens"])
    if p.get("then_move") and not frozen(state, victim.uid):
        _move_victim(state, player, victim, p["then_move"], c.name)


def _left_opponent(state: GameState, default: int) -> int:
    """The opponent to the active player's left (HC-PLOT-06)."""
    order = decisions.responders(state, lambda p: True)
    return order[0] if order else default


def _spoil(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    victim = w.victim
    assert victim is not None
    if c.params["mode"] == "no_vp":
        w.outcome = "no_vp"
        state.emit(EventKind.VICTIM_SPOILED, victim=victim.label)
    else:
        victim.state = VictimState.REMOVED
        w.outcome = "stopped"
        state.emit(EventKind.VICTIM_REMOVED, victim=victim.label)


def _reroll(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """The attack roll is rolled again and the new roll is used (HC-PLOT-12)."""
    old = w.dice
    w.dice = (decisions.d6(state), decisions.d6(state))
    state.emit(EventKind.REROLL, attacker=w.attacker.label if w.attacker else None, dice=old, new=w.dice)


def _freeze(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    victim = w.victim
    assert victim is not None
    mark_victim(state, victim, "frozen", c.name, play.player, c.params["duration"])
    w.outcome = "done"
    state.emit(EventKind.VICTIM_FROZEN, victim=victim.label, card=c.name)


def _opponent_moves(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """The card's player moves the chosen victim instead of the active player (HC-VICTIM-04, HC-PLOT-11)."""
    victim, p = w.victim, c.params
    assert victim is not None
    _move_victim(state, play.player, victim, p.get("distance") or victim.speed + p.get("speed_bonus", 0), c.name)
    w.outcome = "done"


def _move_victim(state: GameState, player: int, victim: Victim, distance: int, subject: str) -> None:
    """`player` moves `victim` up to `distance` spaces by the victim movement rules (HC-VICTIM-04, -08)."""
    ctx = VictimContext(state, victim.uid)
    paths = destinations(ctx, victim.pos, ctx.budget(victim.pos, distance))
    options = [Path(())] + [path_option(state, path) for path in paths.values()]
    chosen = decisions.ask(state, PATH, player, options, subject, victim)
    if chosen.spaces:
        victim.pos = chosen.spaces[-1]
    state.emit(EventKind.VICTIM_MOVED, victim=victim.label, to=state.geometry.xy(victim.pos), player=player)


def _protect(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    victim, p = w.victim, c.params
    assert victim is not None
    against = p["against"]
    for kind, what in (("no_slaying", "slaying"), ("no_rescue", "rescue")):
        if against in (what, "both"):
            mark_victim(state, victim, kind, c.name, play.player, p["duration"])
    if p.get("frozen"):
        w.outcome = "done"
    state.emit(EventKind.VICTIM_PROTECTED, victim=victim.label, against=against)


def _damage(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """Plot-twist damage is not an attack, so intangible does not stop it (HC-COMBAT-30); 'deals' passes
    through damage reducers, 'takes' does not (HC-COMBAT-29); a kill scores for the card's player (HC-END-15)."""
    p = c.params
    amount = p["amount"]
    for m in chosen(state, w, play, p):
        if not m.alive:
            continue
        state.scoring_player = play.player
        try:
            if p.get("unpreventable"):
                combat.take_damage(state, m, amount, None, unpreventable=True)  # HC-COMBAT-09
            elif p["layer"] == "takes":
                combat.take_damage(state, m, amount, None)
            else:
                combat.deal_damage(state, m, amount, None)
        finally:
            state.scoring_player = None
    if p.get("prevents") and w.name in ("slaying", "rescue") and w.actor is not None and w.actor.alive:
        _stop(state, w, play.player, c)


def _modify(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """A modifier for a time; the rule of 3 and the floor of 0 apply when the value is read (HC-VALUE-05)."""
    p = c.params
    ends = lasting_until(state, play.player, p["duration"])
    for m in chosen(state, w, play, p):
        state.lasting.append(Lasting(p["stat"], p["amount"], source=c.name, monster=m.uid, **ends))
        state.emit(EventKind.PLOT_MODIFIER, monster=m.label, stat=p["stat"], amount=p["amount"], card=c.name)


def _give_tokens(state: GameState, m: Monster, count: int) -> None:
    """At most two action tokens in all; with two a monster is vulnerable (HC-TURN-03, HC-TURN-04)."""
    m.tokens = min(2, m.tokens + count)
    state.emit(EventKind.ACTION_TOKENS, monster=m.label, tokens=m.tokens)


def _tokens(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    for m in chosen(state, w, play, c.params):
        _give_tokens(state, m, c.params["count"])


def _heal(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """Never past the starting line (HC-COMBAT-10)."""
    for m in chosen(state, w, play, c.params):
        combat.heal(state, m, c.params["amount"])


def _free_move(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """A free action: no action token, no action used (HC-TURN-05); break-away rules apply (HC-MOVE-06) and
    the monster may not end in a victim's space."""
    assert play.target is not None
    m = state.monsters[play.target]
    ctx = MoveContext(state, m, broke_away=[o.uid for o in combat.engaged(state, m)])
    distance = c.params["distance"]
    budget = (distance + 1) // 2 if ctx.hindering_like(m.pos) else distance  # HC-TERRAIN-04
    ends = destinations(ctx, m.pos, budget)
    options = [Path(())] + [path_option(state, path) for end, path in ends.items() if state.victim_at(end) is None]
    chosen = decisions.ask(state, PATH, play.player, options, c.name, m)
    if not chosen.spaces:
        return
    if combat.must_break_away(state, m) and not combat.auto_breaks_away(m):
        roll = decisions.d6(state)
        state.emit(EventKind.BREAK_AWAY, monster=m.label, roll=roll, success=roll >= combat.BREAK_AWAY)
        if roll < combat.BREAK_AWAY:
            return
    for space in chosen.spaces:
        combat.flip_victims_near(state, space, m)
    m.pos = chosen.spaces[-1]
    state.emit(EventKind.FREE_MOVE, monster=m.label, to=state.geometry.xy(m.pos), steps=len(chosen.spaces), card=c.name)


def _ticking_clock(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    """A ticking clock stays in play, replacing the one in play, if any (HC-PLOT-05)."""
    plot = table(state)
    if plot.clock is not None:
        old, effect = plot.clock
        state.lasting = [e for e in state.lasting if e is not effect]
        state.emit(EventKind.TICKING_CLOCK_REPLACED, card=old)
    p = c.params
    who = p["who"]
    effect = Lasting(
        p["stat"],
        p["amount"],
        source=c.name,
        classes=frozenset([p["class"]]) if p.get("class") else frozenset(),
        team=None if who == "all" else state.player(play.player).team,
        opposing=who == "opposing",
    )
    state.lasting.append(effect)
    plot.clock = (c.name, effect)
    state.emit(EventKind.TICKING_CLOCK, card=c.name, player=play.player)


def _subplot(state: GameState, w: Window, play: PlayCard, c: PlotCard) -> None:
    raise ValueError(f"the subplot '{c.name}' is revealed at setup and scored at the end, never played (HC-PLOT-04)")


EFFECTS: dict[str, Callable[[GameState, Window, PlayCard, PlotCard], None]] = {
    "prevent_slaying": _prevent,
    "prevent_rescue": _prevent,
    "spoil_victim": _spoil,
    "reroll_attack": _reroll,
    "freeze_victim": _freeze,
    "opponent_moves_victim": _opponent_moves,
    "protect_victim": _protect,
    "damage_monster": _damage,
    "stat_modifier": _modify,
    "action_tokens": _tokens,
    "heal_monster": _heal,
    "free_move": _free_move,
    "ticking_clock": _ticking_clock,
    "subplot_vp": _subplot,  # scored by `score_subplots` through CONDITIONS
}
"""Every plot-twist effect of engine/horrorclix/registry/plot_effects.py, by name (tests check none is missing)."""
