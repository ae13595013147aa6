"""What the rules allow now: `why_not` says why an action is not allowed ('' if it is), and
`legal_actions` lists every allowed action, built from the same checks (`engine.horrorclix.rules` performs them)."""

from __future__ import annotations

from typing import Any

from clix.engine.core import effects
from clix.engine.horrorclix import cards, combat, plots
from clix.engine.horrorclix.actions import (
    VICTIM_TARGET,
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
from clix.engine.horrorclix.movement import MoveContext, Reach, VictimContext, check_path, search
from clix.engine.horrorclix.options import Block, MoveBlock, Option, Options, Part, VictimMoveBlock
from clix.engine.horrorclix.state import HOVERING, ON_MAP, SOARING, GameState, MapObject, Monster, Phase, Victim


class IllegalAction(Exception):
    """An action the rules do not allow; the message says why."""


# --- looking up -------------------------------------------------------------------------------------


def monster(state: GameState, uid: int) -> Monster:
    return state.monsters[uid]


# --- why not ----------------------------------------------------------------------------------------


def why_not(state: GameState, action: Option) -> str:
    """Why `action` is not allowed now ('' if it is)."""
    if state.over:
        return "the game is over"
    if isinstance(action, EndTurn):
        return "" if state.phase in (Phase.SUSPENSE, Phase.HUNTING) else f"no turn to end in the {state.phase} phase"
    if isinstance(action, plots.PlayCard):
        return plots.why_not_play(state, action)  # HC-PLOT-07: a card of its player's own hunting phase
    if isinstance(action, (SkipSuspense, ChooseVictim, MoveVictim)):
        if state.phase != Phase.SUSPENSE:
            return f"victims move only in the suspense phase (now: {state.phase}) (HC-VICTIM-03)"
        if isinstance(action, SkipSuspense):
            return "" if state.chosen_victim is None else "a victim was chosen; it must now be moved"
        return why_not_victim(state, action)
    if state.phase not in (Phase.SUSPENSE, Phase.HUNTING):
        return f"monsters act only in the hunting phase (now: {state.phase})"
    if state.chosen_victim is not None:
        return "the chosen victim must be moved first (HC-VICTIM-03)"
    return _why_not_monster_action(state, action)


def _why_not_monster_action(state: GameState, action: Move | LureVictim | Frenzy | Close | Ranged | Smash) -> str:
    if not 0 <= action.monster < len(state.monsters):
        return "no such monster"
    actor = monster(state, action.monster)
    if not actor.alive:
        return f"{actor.label} has been killed"
    if actor.controller != state.active:
        return f"{actor.label} is not controlled by the active player {state.active}"
    if cards.owner_barred(actor):
        return f"{actor.label} is insane: its owner cannot give it actions this turn (HC-SPECIAL-08)"
    if state.actions_left <= 0 and cards.extra_action_source(state, actor) is None:
        return f"player {state.active} has no actions left this turn (HC-TURN-02)"
    if actor.acted:
        return f"{actor.label} was already given an action this turn (HC-TURN-09)"
    if actor.tokens >= 2:
        return f"{actor.label} has two action tokens and cannot be given an action (HC-TURN-03)"
    if not isinstance(action, Smash) and action.power is not None:
        reason = _why_not_power(state, actor, action)
        if reason:
            return reason
    if isinstance(action, (Move, Frenzy)):
        return _why_not_move(state, actor, action)
    if isinstance(action, LureVictim):
        return _why_not_lure(state, actor, action)
    if actor.incapable:
        return f"{actor.label} is incapable (hourglass on attack) and cannot attack (HC-HOURGLASS-07)"
    if isinstance(action, Close):
        return _why_not_close(state, actor, action.target)
    if isinstance(action, Ranged):
        return _why_not_ranged(state, actor, action)
    return _why_not_smash(state, actor, action)


def _why_not_move(state: GameState, actor: Monster, action: Move | Frenzy) -> str:
    if actor.immovable:
        return f"{actor.label} is immovable (hourglass on speed) (HC-HOURGLASS-02)"
    if isinstance(action, Frenzy) and not actor.blooded:
        return f"{actor.label} is not blooded and cannot frenzy (HC-SLAY-02, HC-SLAY-13)"
    flight = actor.flight
    if action.fly is not None:
        if actor.stats.speed_mode != "wing":
            return f"{actor.label} cannot fly (HC-MOVE-08)"
        if action.fly not in (HOVERING, SOARING) or action.fly == actor.flight:
            return f"{actor.label} is already in that flight mode"
        if action.fly == SOARING and state.geometry.indoor[actor.pos]:
            return "no monster may soar indoors (HC-MOVE-11, HC-TERRAIN-22)"
        flight = action.fly
    ctx = MoveContext(state, actor, broke_away=[m.uid for m in combat.engaged(state, actor)], flight=flight)
    reason = check_path(ctx, actor.pos, list(action.path), ctx.budget(actor.pos, action.fly is not None))
    if reason:
        return reason
    if action.path and action.path[-1] in plots.blocked_ends(state, actor):
        card = plots.protection(state, actor, action.path[-1])
        return f"{card} protects the victim there: {actor.label} cannot end its move on it (HC-SLAY-04, HC-SLAY-06)"
    if action.target is not None:
        if isinstance(action, Move) and not (action.power and _grants_attack(state, action.power)):
            return "a move action makes no attack unless a declared power grants one (HC-CARD-08, HC-SLAY-07)"
        if actor.incapable:
            return f"{actor.label} is incapable and cannot make the frenzy attack (HC-HOURGLASS-11)"
        end = action.path[-1] if action.path else actor.pos
        target, reason = _lookup_target(state, actor, action.target)
        if target is None or reason:
            return reason
        if not (close_reach(state, actor, target, end, flight) or close_reach(state, actor, target, actor.pos, flight)):
            return f"{target.label} will not be adjacent for the frenzy attack (HC-SLAY-07)"
    return ""


DEPENDANT_KIND = {
    Move: AttackKind.MOVE,
    LureVictim: AttackKind.MOVE,
    Frenzy: AttackKind.CLOSE,
    Close: AttackKind.CLOSE,
    Ranged: AttackKind.RANGED,
}


def _why_not_power(state: GameState, actor: Monster, action: Move | LureVictim | Frenzy | Close | Ranged) -> str:
    """A declared dependant power must show now and match the action (HC-CARD-05, HC-CARD-08, HC-SLAY-12),
    and its own conditions must hold (its handler's `check`)."""
    power = action.power
    need = DEPENDANT_KIND[type(action)]
    if power not in actor.powers:
        return f"{actor.label} does not show {power} now (HC-CARD-05)"
    if state.ruleset.powers[power].trigger != need:
        return f"{power} is not a {need} dependant power, so it cannot be declared for this action (HC-CARD-08)"
    handler = state.ruleset.handlers.get(power)
    return handler.check(state, actor, action, actor.powers[power]) if handler else ""


def _grants_attack(state: GameState, power: str) -> bool:
    handler = state.ruleset.handlers.get(power)
    return handler is not None and handler.grants_attack


def _why_not_lure(state: GameState, actor: Monster, action: LureVictim) -> str:
    """A move action that moves a victim instead of the monster needs a power that says so; the power's
    `check` has judged the victim and its path (HC-CARD-08)."""
    handler = state.ruleset.handlers.get(action.power) if action.power else None
    if handler is None or not handler.moves_victims:
        return "moving a victim instead of the monster needs a declared move power that allows it (HC-CARD-08)"
    if actor.immovable:
        return f"{actor.label} is immovable (hourglass on speed) and cannot be given a move action (HC-HOURGLASS-02)"
    return ""


def _why_not_target(state: GameState, actor: Monster, target: Monster) -> str:
    if target is actor:
        return "a monster never targets itself (HC-COMBAT-03)"
    if not target.alive:
        return f"{target.label} has been killed"
    if not state.opposing(actor, target):
        return f"{target.label} is friendly; a monster may not target a friendly monster (HC-COMBAT-03)"
    if target.intangible:
        return f"{target.label} is intangible and cannot be targeted (HC-HOURGLASS-04)"
    return ""


def close_reach(state: GameState, actor: Monster, target: Monster, pos: int, flight: int) -> bool:
    """Adjacent and at an elevation close combat allows (HC-COMBAT-14, HC-COMBAT-24, HC-COMBAT-32)."""
    return combat.adjacent(state, pos, target.pos) and (flight == SOARING) == target.soaring


def _lookup_target(state: GameState, actor: Monster, uid: int) -> tuple[Monster | None, str]:
    """The monster an attack names, or why it cannot be targeted (victims never can: HC-COMBAT-03, -17)."""
    if uid == VICTIM_TARGET:
        return None, "a victim can never be targeted by an attack (HC-COMBAT-03, HC-COMBAT-17)"
    if not 0 <= uid < len(state.monsters):
        return None, "no such target"
    target = monster(state, uid)
    return target, _why_not_target(state, actor, target)


def _why_not_close(state: GameState, actor: Monster, target_uid: int) -> str:
    target, reason = _lookup_target(state, actor, target_uid)
    if target is None or reason:
        return reason
    if not combat.adjacent(state, actor.pos, target.pos):
        return f"{target.label} is not adjacent (HC-COMBAT-14)"
    if actor.soaring != target.soaring:
        return "close combat needs both monsters soaring or both not soaring (HC-COMBAT-24, HC-COMBAT-32)"
    return ""


def _why_not_ranged(state: GameState, actor: Monster, action: Ranged) -> str:
    if actor.stats.range == 0:
        return f"{actor.label} has range 0 and cannot make ranged attacks (HC-COMBAT-16)"
    if combat.engaged(state, actor):
        return f"{actor.label} is adjacent to an opposing monster and cannot make a ranged attack (HC-COMBAT-15)"
    if not action.targets:
        return "a ranged attack needs at least one target"
    if len(action.targets) > actor.stats.bolts:
        return f"{actor.label} has {actor.stats.bolts} bolt(s): at most that many targets (HC-COMBAT-22)"
    if len(set(action.targets)) != len(action.targets):
        return "no monster may be targeted twice in one action (HC-COMBAT-22)"
    for uid in action.targets:
        target, reason = _lookup_target(state, actor, uid)
        if target is None or reason:
            return reason
        reason = _why_not_ranged_target(state, actor, target)
        if reason:
            return reason
    if action.split:
        if any(uid not in action.targets for uid, _ in action.split):
            return "the damage split names a monster that is not a target"
        if any(amount < 0 for _, amount in action.split) or sum(a for _, a in action.split) != actor.damage:
            return f"the damage split must divide {actor.label}'s damage {actor.damage} in whole numbers (HC-COMBAT-23)"
    return ""


def _why_not_ranged_target(state: GameState, actor: Monster, target: Monster) -> str:
    """Why `actor` may not target `target` with a ranged attack, the target being one it may target at all."""
    geo = state.geometry
    if combat.adjacent(state, actor.pos, target.pos) or geo.distance(actor.pos, target.pos) < 2:
        return f"{target.label} is adjacent; ranged attacks are against non-adjacent monsters (HC-TURN-09)"
    reach = effects.stat(state, actor, "range", effects.Query(actor, target, AttackKind.RANGED))
    if geo.distance(actor.pos, target.pos) > reach:
        return (
            f"{target.label} is {geo.distance(actor.pos, target.pos)} spaces away, beyond range {reach} (HC-COMBAT-16)"
        )
    if actor.soaring and not target.soaring and geo.indoor[target.pos]:
        return f"{target.label} is indoors and cannot be targeted by a soaring monster (HC-COMBAT-21)"
    if target.soaring and not actor.soaring and geo.indoor[actor.pos]:
        return "a monster indoors cannot target a soaring monster (HC-COMBAT-21)"
    clear, _, why = combat.line_of_fire(state, actor, target)
    if not clear:
        return f"no line of fire to {target.label}: {why}"
    return ""


def _why_not_smash(state: GameState, actor: Monster, action: Smash) -> str:
    for obj in state.objects:
        if obj.alive and obj.pos == action.at:
            return _why_not_smash_object(state, actor, obj)
    return "there is no portal or tombstone there"


def _why_not_smash_object(state: GameState, actor: Monster, obj: MapObject) -> str:
    if obj.kind == "portal":
        if actor.pos in (obj.pos, obj.across):
            return ""
        return "to smash a portal a monster must stand in one of its doorway spaces (HC-TERRAIN-16)"
    if obj.kind == "tombstone":
        if state.geometry.adjacent(actor.pos, obj.pos):
            return ""
        return "the tombstone is not adjacent (HC-TERRAIN-18)"
    return f"a {obj.kind} cannot be smashed"


def why_not_victim(state: GameState, action: ChooseVictim | MoveVictim) -> str:
    if not 0 <= action.victim < len(state.victims):
        return "no such victim"
    victim = state.victims[action.victim]
    if victim.state != ON_MAP:
        return f"{victim.label} is not on the map"
    if state.chosen_victim is not None and state.chosen_victim != victim.uid:
        return f"{state.victims[state.chosen_victim].label} was chosen; only it moves this phase (HC-VICTIM-03)"
    if state.chosen_victim is None and plots.frozen(state, victim.uid):
        return f"{plots.frozen(state, victim.uid)} holds {victim.label}: no one may move it (HC-VICTIM-03)"
    if isinstance(action, ChooseVictim):
        return "" if state.chosen_victim is None else "a victim was already chosen"
    ctx = VictimContext(state, victim.uid)
    return check_path(ctx, victim.pos, list(action.path), ctx.budget(victim.pos, victim.speed))


# --- legal actions ----------------------------------------------------------------------------------


def legal_actions(state: GameState) -> Options:
    """Every action the rules allow now, built from the same checks as `why_not` (plain moves listed as
    `MoveBlock`s, built into `Move`s when read)."""
    if state.over:
        return Options([])
    if state.phase == Phase.SUSPENSE:
        if state.chosen_victim is None:
            return Options(
                [SkipSuspense()]
                + [
                    ChooseVictim(v.uid)
                    for v in state.victims
                    if v.state == ON_MAP and not plots.frozen(state, v.uid)
                ]
            )
        return Options(_victim_moves(state, state.victims[state.chosen_victim]))
    if state.phase != Phase.HUNTING:
        return Options([])
    actions: list[Part] = [EndTurn(), *plots.hunting_plays(state)]  # cards cost no action (HC-PLOT-07)
    extra_only = state.actions_left <= 0  # only actions a power grants beyond the turn's (HC-SPECIAL-16)
    for actor in state.monsters:
        if _may_act(state, actor, extra_only):
            actions.extend(_with_dependant_powers(state, actor, _monster_actions(state, actor)))
    return Options(actions)


def _may_act(state: GameState, actor: Monster, extra_only: bool) -> bool:
    """Whether the active player may act with `actor` at all now (its actions are then looked for): alive,
    controlled, not yet acted this turn, fewer than two action tokens (HC-TURN-03, HC-TURN-13)."""
    if not actor.alive or actor.controller != state.active or actor.acted or actor.tokens >= 2:
        return False
    # HC-SPECIAL-08: an owner cannot act with its insane monster; HC-SPECIAL-16: extra actions only
    return not (cards.owner_barred(actor) or (extra_only and cards.extra_action_source(state, actor) is None))


def monster_could_act(state: GameState) -> bool:
    """Whether some monster of the active player has a legal action in the hunting phase now (a move, an attack, a
    lure...: what `legal_actions` lists beside ending the turn and playing cards). A query: it changes nothing and
    rolls no die. It stops at the first monster with an action."""
    extra_only = state.actions_left <= 0
    for actor in state.monsters:
        if _may_act(state, actor, extra_only) and len(
            Options(_with_dependant_powers(state, actor, _monster_actions(state, actor)))
        ):
            return True
    return False


def _monster_actions(state: GameState, actor: Monster) -> list[Action | MoveBlock]:
    found: list[Action | MoveBlock] = []
    flights: list[int | None] = [None]
    if actor.stats.speed_mode == "wing":
        other = HOVERING if actor.flight == SOARING else SOARING
        if not (other == SOARING and state.geometry.indoor[actor.pos]):
            flights.append(other)
    engaged = combat.engaged(state, actor)
    # the monsters it may attack (none if incapable, HC-HOURGLASS-07), for frenzies and attacks alike
    targets = [] if actor.incapable else [m for m in state.monsters if not _why_not_target(state, actor, m)]
    if not actor.immovable:
        broke = [m.uid for m in engaged]
        protected = plots.blocked_ends(state, actor)  # victims a plot twist protects from it (HC-SLAY-04, -06)
        attack_powers = [
            n for n in actor.powers if state.ruleset.powers[n].trigger == "move" and _grants_attack(state, n)
        ]
        for fly in flights:
            flight = actor.flight if fly is None else fly
            ctx = MoveContext(state, actor, broke_away=broke, flight=flight)
            reach = search(ctx, actor.pos, ctx.budget(actor.pos, fly is not None))
            ends = reach.ends()
            if protected:
                ends = [end for end in ends if end not in protected]
            if fly is not None:
                found.append(Move(actor.uid, (), fly))
            found.append(MoveBlock(actor.uid, fly, reach, ends))
            if actor.blooded or attack_powers:
                frenzies = _frenzies(state, actor, targets, reach, protected, fly, flight)
                if actor.blooded:
                    found.extend(frenzies)
                for name in attack_powers:  # a move then a free close attack the power grants (Pounce)
                    found.extend(MoveBlock(f.monster, f.fly, f.reach, f.ends, name, f.target) for f in frenzies)
    if actor.incapable:
        return found
    for target in targets:
        if close_reach(state, actor, target, actor.pos, actor.flight):
            found.append(Close(actor.uid, target.uid))
    if actor.stats.range and not engaged:
        in_range = [t.uid for t in targets if not _why_not_ranged_target(state, actor, t)]
        found.extend(Ranged(actor.uid, (uid,)) for uid in in_range)
        if actor.stats.bolts > 1 and len(in_range) > 1:
            found.append(Ranged(actor.uid, tuple(in_range[: actor.stats.bolts])))
    for obj in state.objects:
        if obj.alive and obj.kind in ("portal", "tombstone") and not _why_not_smash_object(state, actor, obj):
            found.append(Smash(actor.uid, obj.pos))
    return found


def _with_dependant_powers(
    state: GameState, actor: Monster, actions: list[Action | MoveBlock]
) -> list[Action | MoveBlock]:
    """Each action, plus the variants declaring each dependant power the monster shows for it, as the
    power's handler lists them (HC-CARD-08); a move power granting an attack was listed with its targets."""
    dependant = [n for n in actor.powers if state.ruleset.powers[n].trigger in effects.DEPENDANT]
    if not dependant:
        return actions
    found = list(actions)
    for power in dependant:
        kind = state.ruleset.powers[power].trigger
        handler = state.ruleset.handlers.get(power)
        if handler is not None and handler.grants_attack:
            continue
        blocks = [a for a in actions if isinstance(a, MoveBlock) and a.kind == kind and a.power is None]
        base: list[Any] = [
            a for a in actions if DEPENDANT_KIND.get(type(a)) == kind and getattr(a, "power", None) is None
        ]
        if handler is None:
            found.extend(a.declaring(power) for a in base)
            found.extend(b.declaring(power) for b in blocks)
        else:  # the handler judges each action: build the blocks' moves for it
            base.extend(move for b in blocks for move in b.actions())
            found.extend(handler.actions(state, actor, power, actor.powers[power], base))
    return found


def _frenzies(
    state: GameState,
    actor: Monster,
    targets: list[Monster],
    reach: Reach,
    protected: frozenset[int] | set[int],
    fly: int | None,
    flight: int,
) -> list[MoveBlock]:
    """Per target, the frenzy moves that end next to it (with the attack), and the attack from where the
    monster stands (HC-SLAY-07)."""
    found: list[MoveBlock] = []
    for target in targets:
        if (flight == SOARING) != target.soaring:
            continue  # HC-COMBAT-24, HC-COMBAT-32
        near = combat.neighbours(state, target.pos)  # adjacency is symmetric
        ends = [end for end in sorted(near) if end in reach and end not in protected]
        if actor.pos in near:
            ends.insert(0, actor.pos)
        if ends:
            found.append(MoveBlock(actor.uid, fly, reach, ends, target=target.uid, frenzy=True))
    return found


def _victim_moves(state: GameState, victim: Victim) -> list[Action | Block]:
    """Where the chosen victim may go, staying put included ("up to its speed")."""
    ctx = VictimContext(state, victim.uid)
    reach = search(ctx, victim.pos, ctx.budget(victim.pos, victim.speed))
    return [MoveVictim(victim.uid, ()), VictimMoveBlock(victim.uid, reach, reach.ends())]
