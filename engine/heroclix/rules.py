"""HeroClix's rules on the core: which actions are legal (`why_not`, `legal_actions`), performing one (`apply`)
and the turn flow (HX-TURN). Movement, combat and scoring are their own modules.

This part plays characters on one level (no elevated terrain) that walk, swim or fly, on outdoor maps, without
powers, objects in hand, carrying or attacks on terrain: the scenario loader refuses what it does not play, by
name, rather than playing it as nothing. Cited rules: ../shared/rules/heroclix_rules.md.
"""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import (
    area_attacks,
    battlefield,
    combat,
    declarations,
    feats,
    free_actions,
    leadership,
    markers,
    mind_control,
    modifiers,
    movement,
    outwit,
    power_actions,
    scoring,
    sides,
    teams,
    telekinesis,
    terrain,
    throwing,
    transport,
)  # fmt: skip
from clix.engine.heroclix.declarations import Copy, Declared
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.powers import BLADES, INCAPACITATE, MIND_CONTROL, WILLPOWER
from clix.engine.heroclix.state import (
    PHASES,
    PUSHING,
    Action,
    Close,
    EndTurn,
    HeroState,
    Move,
    PowerAction,
    Ranged,
    Raze,
    Telekinesis,
    Throw,
)  # fmt: skip

WILLPOWER_AT = 5
"""The lowest d6 with which Willpower removes an action token (HX-POWER-32)."""
PUSHING_DAMAGE = 1
"""Clicks a character takes when its second action token is placed (HX-TURN-11, -12)."""


def why_not(state: HeroState, action: Action | Declared | Copy) -> str:
    """Why `action` is not legal now ("" when it is). It is judged before the action is given, on the map as it
    stands: a player may check targets, range and lines of fire before declaring (HX-COMBAT-10), and an action
    refused here rolls nothing, gives no token and spends none of the turn's actions. While characters are
    mind-controlled, one's move or attack is judged as such (`mind_control`), any other action as it will be made:
    once the control has ended."""
    if state.controlled and mind_control.controls(state, action):
        assert isinstance(action, Move | Close | Ranged)
        return mind_control.problem(state, action)
    if state.controlled:
        return mind_control.as_released(state, lambda: _why_not(state, action))
    return _why_not(state, action)


def _why_not(state: HeroState, action: Action | Declared | Copy) -> str:
    if isinstance(action, Declared | Copy):  # HX-TEAM-04, -07, HX-FEAT-05, -06
        return declarations.problem(state, action, _why_not)
    if isinstance(action, EndTurn):
        return "the game is over" if state.over else ""
    if isinstance(action, Move):
        character = state.monsters[action.character]
        after = len(action.path) if action.pick_up_after < 0 else action.pick_up_after
        pick_up = None if action.pick_up is None else (after, action.pick_up)
        problem = sides.cannot_act(state, character) or movement.step_problem(
            state, character, character.pos, action.path, action.mode, pick_up, rear=action.rear
        )
        if not problem and action.carry is not None:
            problem = movement.carry_problem(
                state, character, action.path, action.mode, action.carry, action.carry_to, action.rear
            )
        if not problem and action.attack is not None:
            problem = transport.problem(state, action)
        return problem
    if isinstance(action, Raze):
        return terrain.raze_problem(state, action)
    if isinstance(action, Throw):
        return throwing.throw_problem(state, action) or combat.knockback_problem(state, action)
    if isinstance(action, Telekinesis):
        return telekinesis.problem(state, action)
    if isinstance(action, PowerAction) and free_actions.grants(action.power):
        return free_actions.problem(state, action)
    if isinstance(action, PowerAction):
        return power_actions.problem(state, action)
    if area_attacks.area(action):
        return area_attacks.problem(state, action)
    return combat.attack_problem(state, action) or combat.knockback_problem(state, action)


def legal_actions(state: HeroState) -> list[Action]:
    """The actions the active player may take (`_legal_actions`); while characters are mind-controlled, their moves
    and attacks first (`mind_control.listed`), then the others as they will be made, once the control has ended."""
    if state.controlled:
        return [*mind_control.listed(state), *mind_control.as_released(state, lambda: _legal_actions(state))]
    return _legal_actions(state)


def _legal_actions(state: HeroState) -> list[Action]:
    """The actions the active player may take: a move to each square its characters may reach (in their flight
    modes), a close attack on each adjacent opponent, a ranged attack on each opponent in range and line of fire
    (one target, all the damage), each hurl of an object by Telekinesis, two close attacks with Flurry, a close
    attack with Blades/Claws/Fangs, close and ranged attacks with Incapacitate, the attacks whose targets a power
    picks (`area_attacks.listed`), the power actions of `power_actions.listed`, the free actions of
    `free_actions.listed` (even for characters that may take no other action), and ending the turn. Attacks on
    terrain, flight-mode changes, moving an object or a character by Telekinesis, Charge, Running Shot and a
    transporter's attack on the move are legal (`why_not`) but not listed: the players this lists for never choose
    them."""
    if state.over:
        return []
    found: list[Action] = []
    for character in state.standing():
        if character.controller == state.active:
            found.extend(free_actions.listed(state, character))  # HX-TURN-16: even after acting, or with two tokens
        if sides.cannot_act(state, character):
            continue
        for path in movement.reachable_paths(state, character):
            found.append(Move(character.uid, path))
        reached = [t for t in sides.adjacent_opponents(state, character) if sides.in_close_reach(state, character, t)]
        for target in reached:
            found.append(Close(character.uid, target.uid))
            if INCAPACITATE in character.powers:  # HX-POWER-18: a token in place of damage
                found.append(Close(character.uid, target.uid, use=INCAPACITATE))
            if BLADES in character.powers:  # HX-POWER-13: the d6 in place of the damage value
                found.append(Close(character.uid, target.uid, use=BLADES))
            if combat.FLURRY in character.powers:  # HX-POWER-01: a second attack, on the same or another target
                found.extend(Close(character.uid, target.uid, then=(other.uid,)) for other in reached)
        for target in sides.opponents(state, character):
            shot = Ranged(character.uid, (target.uid,))
            if not combat.attack_problem(state, shot):
                found.append(shot)
                if INCAPACITATE in character.powers:
                    found.append(Ranged(character.uid, (target.uid,), use=INCAPACITATE))
        found.extend(area_attacks.listed(state, character))
        found.extend(mind_control.attacks(state, character))
        found.extend(telekinesis.hurls(state, character))
        found.extend(power_actions.listed(state, character))
    found.append(EndTurn())
    return found


def apply(state: HeroState, action: Action | Declared | Copy, listed: bool = False) -> None:
    """Perform `action` (checked unless `listed`: taken from `legal_actions`)."""
    if not listed:
        problem = why_not(state, action)
        if problem:
            raise ValueError(f"{action} is not legal: {problem}")
    decisions.perform(state, _perform, action)


def _perform(state: HeroState, action: Action | Declared | Copy) -> None:
    if state.controlled and mind_control.controls(state, action):  # HX-POWER-06: a free action, no token
        assert isinstance(action, Move | Close | Ranged)
        mind_control.act(state, action)
        _token(state, mind_control.ended(state))
        return
    if state.controlled:  # any other action comes once the Mind Control action has resolved
        _token(state, mind_control.end(state))
        if state.over:
            return
    if isinstance(action, Declared | Copy):
        declarations.perform(state, action, _perform)
        return
    if isinstance(action, EndTurn):
        end_turn(state)
        return
    character = state.monsters[action.character]
    if isinstance(action, PowerAction) and free_actions.grants(action.power):
        free_actions.perform(state, character, action)  # HX-TURN-16: no token, not one of the turn's actions
        return
    if isinstance(action, Move) and action.attack is not None:
        transport.perform(state, character, action)
    elif isinstance(action, Move):
        movement.move(
            state, character, action.path, action.mode, action.pick_up, action.carry, action.carry_to, rear=action.rear
        )
    elif isinstance(action, Raze):
        terrain.raze(state, character, action)
    elif isinstance(action, Telekinesis):
        telekinesis.perform(state, character, action)
    elif isinstance(action, PowerAction):
        power_actions.perform(state, character, action)
    elif isinstance(action, Close | Ranged) and action.use == MIND_CONTROL:
        mind_control.seize(state, character, action)
    elif isinstance(action, Close | Ranged) and area_attacks.area(action):
        area_attacks.perform(state, character, action)
    elif isinstance(action, Close):
        combat.close_attacks(state, character, action)
    else:
        combat.attack(state, character, action)
    _after_action(state, character)


def _after_action(state: HeroState, character: Figure) -> None:
    """The action counted, then its token (`_token`) once it has resolved, knockback included; a Mind Control
    action resolves only when the characters it took over are done (HX-POWER-06, HX-TURN-04)."""
    state.actions_left -= 1
    character.acted = True
    if state.controlling != character.uid:
        _token(state, character.uid)


def _token(state: HeroState, uid: int) -> None:
    """Character `uid`'s action token, and pushing damage when it is the second (HX-TURN-09, -11, -12); none for
    uid -1 (no action resolving) or a character knocked out."""
    character = state.monsters[uid] if uid >= 0 else None
    if character is None or not character.alive or state.over:
        return
    feat_pushing = feats.pushing(state, character)  # HX-FEAT-08: before a second token's (HX-TURN-12)
    if feat_pushing:
        scoring.take_damage(state, character, feat_pushing, PUSHING, None)
        if not character.alive or state.over:
            return
    character.tokens += 1
    if character.tokens == 2:
        scoring.take_damage(state, character, PUSHING_DAMAGE, PUSHING, None)  # HX-TURN-14 OPEN: never reduced


def begin_turn(state: HeroState, effects: bool = True) -> None:
    """A turn's actions: one per 100 points of the build total (HX-TURN-02); then the effects of the beginning of
    the turn (HX-TURN-03): the terrain markers the player's characters placed go (HX-POWER-20, -30), the
    modifiers its Perplex made and the powers its Outwit countered come back (HX-POWER-46, -47), then each of
    the active player's characters showing Willpower (or using it by its team ability) with an action token rolls
    a d6 and loses a token on 5-6 (HX-POWER-32), in the order the characters were placed, then the Leadership
    rolls (HX-POWER-48); then the battlefield conditions that roll, one die each (HX-BFC-03); last, one more
    action if a character of the player shows Leadership. `effects`: False for a position set up in the middle of
    a turn (a scenario's start: Leadership's extra action counts)."""
    state.phase = PHASES[0]
    state.actions_left = state.build_total // sides.POINTS_PER_ACTION
    if effects:
        markers.clear(state, state.active)  # HX-TURN-03: what lasts until the beginning of the turn ends first
        modifiers.expire(state, state.active)
        outwit.expire(state, state.active)
        for character in state.standing():
            willpower = WILLPOWER in character.powers or teams.grants(state, character, WILLPOWER)  # HX-TEAM-10 OPEN
            if character.controller == state.active and character.tokens and willpower:
                roll = decisions.d6(state)
                state.emit(EventKind.WILLPOWER_ROLL, character=character.label, roll=roll)
                if roll >= WILLPOWER_AT:
                    character.tokens -= 1
        leadership.roll_for_tokens(state)
        battlefield.begin_turn(state)  # HX-BFC-03: after the characters' own effects
    state.actions_left += leadership.extra_actions(state)  # HX-POWER-48 OPEN: once the beginning is over


def end_turn(state: HeroState) -> None:
    """Clear the tokens of the active player's characters given no action this turn (HX-TURN-10, -13); the next
    player with characters on the map takes its turn (HX-TURN-01), unless the game ends: at the turn limit, or as
    the scenario it is played under says (Showdown, HX-END-03, HX-SCEN-02, -03)."""
    for character in state.monsters:
        if character.controller == state.active:
            if not character.acted:
                character.tokens = 0
            character.acted = False
    state.carried.clear()
    state.lifted.clear()
    state.moved.clear()
    state.free_used.clear()
    state.barred.clear()
    teams.turn_over(state)  # HX-TEAM-04: canceled team abilities come back
    state.turn += 1
    state.turns_taken[state.active] = state.turns_taken.get(state.active, 0) + 1
    if state.game_scenario == scoring.SHOWDOWN:  # HX-END-03: the scenario's end replaces the standard ones
        scoring.showdown(state)
        if state.over:
            return
    order = sorted(p.number for p in state.players)
    at = order.index(state.active) if state.active in order else -1
    following = state.active
    for step in range(1, len(order) + 1):
        player = order[(at + step) % len(order)]
        if any(c.controller == player for c in state.standing()):
            following = player
            break
    if state.game_scenario != scoring.SHOWDOWN and out_of_rounds(state, following):
        scoring.finish(state, "turn limit")
        return
    state.active = following
    begin_turn(state)


def out_of_rounds(state: HeroState, following: int) -> bool:
    """Whether the round limit is reached before `following`'s turn (HX-END-14 OPEN: a round is one turn of every
    player still in the game): it has taken `turn_limit` turns already, so every player still in the game has.
    With two players, the end of turn 2 x `turn_limit`."""
    return state.turn_limit is not None and state.turns_taken.get(following, 0) >= state.turn_limit


def score(state: HeroState) -> dict[int, int]:
    """Each player's victory points as the game stands, rounded down."""
    return scoring.score(state)
