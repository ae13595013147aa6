"""The rules as queries and changes on a `GameState`: why an action is not allowed, which actions
are, and what an action does. Turn flow (preview, suspense, hunting, hourglass) and the end of the
game live here too. Players only choose among `legal_actions(state)`.
"""

from __future__ import annotations

from typing import Final

from clix.engine.core import decisions, effects
from clix.engine.horrorclix import cards, combat, plots, subplots
from clix.engine.horrorclix.actions import (
    Action,
    AttackKind,
    ChooseVictim,
    Close,
    EndTurn,
    Frenzy,
    LureVictim,
    Move,
    MoveVictim,
    Ranged,
    SkipSuspense,
    Smash,
)
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.legal import (
    IllegalAction,
    close_reach,
    legal_actions,
    monster,
    monster_could_act,
    why_not,
    why_not_victim,
)
from clix.engine.horrorclix.options import Option
from clix.engine.horrorclix.state import GROUNDED, ON_MAP, GameState, Monster, Phase, Victim, VictimState

# --- applying ---------------------------------------------------------------------------------------


def apply(state: GameState, action: Option, listed: bool = False) -> None:
    """Perform `action`, or raise IllegalAction saying why it is not allowed. `listed`: the action was just
    read from `legal_actions(state)`, which builds every option from the checks `why_not` makes, so they
    are not made again (tests/test_legal_actions.py holds the two to agreeing)."""
    if not listed:
        reason = why_not(state, action)
        if reason:
            raise IllegalAction(reason)
    decisions.perform(state, _apply_listed, action)


def _apply_listed(state: GameState, action: Option) -> None:
    """The step `apply` runs: perform an allowed action (it may wait for players' answers on the way)."""
    if isinstance(action, EndTurn):
        end_turn(state)
        return
    if isinstance(action, SkipSuspense):
        state.phase = Phase.HUNTING
        return
    if isinstance(action, ChooseVictim):
        _choose_victim(state, action.victim)
        return
    if isinstance(action, MoveVictim):
        if state.chosen_victim is None:
            _choose_victim(state, action.victim)
            if _chosen_victim(state) is None or why_not_victim(state, action):
                return  # a plot twist moved or froze it, or changed the board under the path (HC-VICTIM-03)
        _move_victim(state, action)
        return
    if isinstance(action, plots.PlayCard):
        plots.play_hunting(state, action)  # no action used, no token (HC-PLOT-07)
        check_end(state)
        return
    state.phase = Phase.HUNTING  # acting with a monster ends an unused suspense phase
    actor = monster(state, action.monster)
    actor.acted = True
    state.emit(EventKind.ACTION, monster=actor.label, action=type(action).__name__.lower())
    granter = cards.extra_action_source(state, actor)
    if granter is None:
        state.actions_left -= 1
    else:  # a member's extra action, used before the turn's own actions (HC-SPECIAL-16)
        state.extra_actions_used.add(granter.uid)
        state.emit(EventKind.EXTRA_ACTION, monster=actor.label, granted_by=granter.label)
    if not isinstance(action, (Smash, Frenzy)) and action.power is not None:
        _declare(state, actor, action.power, action)  # in effect for this action only (HC-CARD-08)
    if isinstance(action, (Move, Frenzy)):
        _move(state, actor, action)
    elif isinstance(action, LureVictim):
        _lure(state, actor, action)
    elif isinstance(action, Close):
        combat.attack(state, actor, [monster(state, action.target)], AttackKind.CLOSE)
    elif isinstance(action, Ranged):
        combat.attack(
            state, actor, [monster(state, uid) for uid in action.targets], AttackKind.RANGED, dict(action.split) or None
        )
    elif isinstance(action, Smash):
        _smash(state, actor, action.at)
    state.declared.pop(actor.uid, None)
    plots.end_action(state)  # plot-twist modifiers for this action end (HC-VALUE-03)
    # HC-TURN-01, HC-TURN-03 (a frenzy earns one token: HC-SLAY-08); two at most (a plot twist may have added one)
    actor.tokens = min(2, actor.tokens + 1)
    check_end(state)


def _declare(state: GameState, actor: Monster, power: str, action: Action) -> None:
    """Put a dependant power in effect for the action it was declared with (HC-CARD-08)."""
    state.declared[actor.uid] = power
    handler = state.ruleset.handlers.get(power)
    if handler is not None:
        handler.on_declare(state, actor, action, actor.powers[power])


def _lure(state: GameState, actor: Monster, action: LureVictim) -> None:
    """Instead of moving, the monster moves a face-up victim (Lure); nothing is slain (HC-CARD-08)."""
    victim = state.victims[action.victim]
    if action.path:
        victim.pos = action.path[-1]
    state.emit(EventKind.VICTIM_LURED, monster=actor.label, victim=victim.label, to=state.geometry.xy(victim.pos))


def _move(state: GameState, actor: Monster, action: Move | Frenzy) -> None:
    geo = state.geometry
    moved = True
    if combat.must_break_away(state, actor) and not combat.auto_breaks_away(actor):
        roll = decisions.d6(state)
        moved = roll >= combat.BREAK_AWAY
        state.emit(EventKind.BREAK_AWAY, monster=actor.label, roll=roll, success=moved)
    if moved:
        if action.fly is not None:
            actor.flight = action.fly
            state.emit(EventKind.FLIGHT, monster=actor.label, mode=action.fly)
        for space in action.path:
            combat.flip_victims_near(state, space, actor)
        if action.path:
            end = action.path[-1]
            state.emit(EventKind.MOVE, monster=actor.label, to=geo.xy(end), steps=len(action.path))
            victim = state.victim_at(end)
            actor.pos = end
            if victim is not None:
                slay(state, actor, victim)
    if action.target is not None and actor.alive:
        target = monster(state, action.target)
        frenzy = isinstance(action, Frenzy)
        # HC-SLAY-13: a frenzy needs the monster still blooded; HC-SLAY-14: a power's free attack needs the
        # power still showing
        still = actor.blooded if frenzy else action.power in actor.powers
        if still and target.alive and close_reach(state, actor, target, actor.pos, actor.flight):
            # a plot twist in the slaying window may have turned the dial so the power no longer shows
            if frenzy and action.power is not None and action.power in actor.powers:
                _declare(state, actor, action.power, action)  # the one close power of the frenzy attack (HC-SLAY-12)
            combat.attack(
                state, actor, [target], AttackKind.FRENZY if frenzy else AttackKind.CLOSE
            )  # HC-SLAY-07..10, HC-SLAY-13


def slay(state: GameState, actor: Monster, victim: Victim) -> None:
    """End a move on a victim: slay it, or rescue it if the monster is benevolent (HC-SLAY-04, -06, -11)."""
    spoiled = plots.before_slay(state, actor, victim)  # one opponent's plot twist (HC-SLAY-01, HC-PLOT-06)
    if spoiled == "stopped":
        return
    if effects.any_handler(state, actor, "instead_of_slaying", victim):
        return  # a power did something else with the victim: a minion (HC-SPECIAL-06, HC-SLAY-16)
    victim.state = VictimState.RESCUED if actor.rescuer else VictimState.SLAIN
    victim.by = actor.uid
    actor.victims.append(victim.uid)
    vp = 0 if spoiled == "no_vp" else state.victim_vp
    state.vp[actor.controller]["victims"] += vp  # HC-END-07
    state.emit(EventKind(victim.state), monster=actor.label, victim=victim.label, player=actor.controller, vp=vp)
    for obj in state.objects:
        if obj.alive and obj.kind == "tree" and state.geometry.adjacent(obj.pos, victim.pos):
            state.actions_left += 1  # HC-TERRAIN-19
            state.emit(EventKind.TREE_EXTRA_ACTION, player=state.active)
            break
    effects.fire(state, actor, "slay")
    if victim.state == VictimState.SLAIN:
        cards.after_slay(state, actor)  # a slaying toward the card's transformation (HC-CARD-01, -09, -12)


def _smash(state: GameState, actor: Monster, at: int) -> None:
    obj = next(o for o in state.objects if o.alive and o.pos == at)
    if combat.smash(state, actor, obj.kind):
        obj.alive = False


def _chosen_victim(state: GameState) -> int | None:
    """`state.chosen_victim`, read after a call that may have changed it: mypy keeps an attribute narrowed
    across calls, and the compiled engine checks the narrowed type (engine/compiled.py)."""
    return state.chosen_victim


def _choose_victim(state: GameState, uid: int) -> None:
    victim = state.victims[uid]
    state.chosen_victim = uid
    state.emit(EventKind.VICTIM_CHOSEN, victim=victim.label)
    if not victim.face_up:
        victim.face_up = True  # HC-VICTIM-03: the chosen victim is flipped face up
        state.emit(EventKind.VICTIM_FLIPPED, victim=victim.label, archetype=victim.archetype)
    if plots.suspense(state, victim):  # the opponent to the left may play one card (HC-VICTIM-03, HC-PLOT-07)
        check_end(state)


def _move_victim(state: GameState, action: MoveVictim) -> None:
    victim = state.victims[action.victim]
    state.chosen_victim = None
    if action.path:
        victim.pos = action.path[-1]
    state.emit(EventKind.VICTIM_MOVED, victim=victim.label, to=state.geometry.xy(victim.pos))
    state.phase = Phase.HUNTING


# --- turns and the end ------------------------------------------------------------------------------


def begin_turn(state: GameState) -> None:
    """Preview phase effects, then the suspense phase (HC-TURN-07, HC-TURN-08)."""
    state.phase = Phase.PREVIEW
    state.actions_left = state.actions_per_turn
    # victims still on the map: the analyzer tells play while victims remain from play after (issue 12)
    state.emit(EventKind.TURN_START, victims=sum(1 for v in state.victims if v.state == ON_MAP))
    # HC-TURN-08 (1): effects lasting "until the beginning of your turn" end
    state.lasting = [e for e in state.lasting if e.until_turn_of != state.active]
    plots.expire(state)  # plot twists' "this turn" effects and holds on victims
    state.extra_actions_used.clear()
    cards.pass_control(state)  # insane monsters: to the active player, or back to their owner (HC-SPECIAL-08)
    for m in state.monsters:
        if m.alive and m.controller == state.active:
            effects.fire(state, m, "turn_start")
    check_end(state)
    if not state.over:
        plots.preview(state)  # the active player may play one ticking clock (HC-PLOT-05, HC-PLOT-10)
        has_victims = any(v.state == ON_MAP for v in state.victims)
        state.phase = Phase.SUSPENSE if has_victims else Phase.HUNTING


def end_turn(state: GameState) -> None:
    """The hourglass phase, then the next player's turn (HC-TURN-11, HC-HOURGLASS-05/-06/-09/-10).

    A turn in which no monster acted logs whether one could have (`could_act` on its turn_end event, read before the
    hourglass phase clears tokens): the analyzer tells a turn passed with something to do from a turn in which
    nothing could legally act (action tokens, HC-TURN-03/13; issue 32). A query only: play is unchanged."""
    idle = not _acted_this_turn(state)
    could_act = idle and monster_could_act(state)
    state.phase = Phase.HOURGLASS
    state.in_hourglass_phase = True
    mine = [m for m in state.monsters if m.alive and m.controller == state.active]
    for m in mine:
        if not m.acted:
            m.tokens = 0
    for m in mine:
        if m.alive and m.in_hourglass_state:
            state.emit(EventKind.HOURGLASS_DAMAGE, monster=m.label)
            combat.take_damage(state, m, 1, source=None, unpreventable=True)
    combat.puppets_in_hourglass_phase(state)  # HC-SPECIAL-10
    for m in mine:
        m.acted = False
    cards.end_possession(state)  # HC-SPECIAL-09: puppets go back at the end of the possessor's turn
    state.in_hourglass_phase = False
    if idle:
        state.emit(EventKind.TURN_END, could_act=could_act)
    else:
        state.emit(EventKind.TURN_END)
    check_end(state)
    if state.over:
        return
    _next_player(state)


def _acted_this_turn(state: GameState) -> bool:
    """Whether a monster action was logged since the turn began."""
    for event in reversed(state.log):
        kind = event.kind
        if kind == _ACTION:
            return True
        if kind == _TURN_START:
            return False
    return False


_ACTION: Final[str] = EventKind.ACTION
_TURN_START: Final[str] = EventKind.TURN_START
"""Module constants, not enum reads: under Python 3.11 a member read through its enum class goes through the
enum metaclass's attribute hook, and `_acted_this_turn` reads them for every event of a turn."""


def _next_player(state: GameState) -> None:
    count = len(state.players)
    for _ in range(count):
        state.active = state.active % count + 1
        state.turn += 1
        if state.turn_limit is not None and state.turn > state.turn_limit * count:
            finish(state, "turn limit")  # HC-END-01 (b)
            return
        if not state.player(state.active).eliminated:
            break
    begin_turn(state)


def check_end(state: GameState) -> None:
    """End the game when one side controls every monster left (HC-END-01 a); mark eliminated players."""
    if state.over:
        return
    for player in state.players:
        if not player.eliminated and not any(m.alive and m.owner == player.number for m in state.monsters):
            player.eliminated = True
            state.emit(EventKind.ELIMINATED, player=player.number)
    # HC-END-12: an insane monster its owner may not act with counts for nobody, so a 2-player game whose
    # one side's monsters all went insane ends at once; HC-END-11: its owner is not eliminated
    teams = {state.player(m.controller).team for m in state.monsters if m.alive and not cards.owner_barred(m)}
    if len(teams) <= 1:
        finish(state, "one side left")


def finish(state: GameState, reason: str) -> None:
    """Score and name the winner: most VP, then the cheaper army (unless the game plays ties as draws), else a
    draw (HC-END-03, HC-END-09)."""
    state.over = True
    state.phase = Phase.OVER
    state.end_reason = reason
    subplots.score_subplots(state)  # HC-PLOT-04, HC-END-08, HC-END-10
    totals = team_vp(state)
    points: dict[int, int] = {}
    for p in state.players:
        points[p.team] = points.get(p.team, 0) + p.army_points
    best = max(totals.values())
    leaders = [t for t, vp in totals.items() if vp == best]
    if len(leaders) > 1 and state.tie_break:
        cheapest = min(points[t] for t in leaders)
        leaders = [t for t in leaders if points[t] == cheapest]
    state.winner = leaders[0] if len(leaders) == 1 else None
    state.emit(EventKind.GAME_OVER, reason=reason, winner=state.winner, vp=tuple(sorted(totals.items())))


def team_vp(state: GameState) -> dict[int, int]:
    """Each team's victory points as the game stands: kills, victims and scored subplots (HC-END-03)."""
    totals: dict[int, int] = {}
    for p in state.players:
        totals[p.team] = totals.get(p.team, 0) + state.total_vp(p.number)
    return totals


__all__ = [
    "GROUNDED",
    "IllegalAction",
    "apply",
    "begin_turn",
    "check_end",
    "end_turn",
    "legal_actions",
    "team_vp",
    "why_not",
]
