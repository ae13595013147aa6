"""Battle Fury (HX-POWER-38, read in 2005 terms), a compulsory power: the character makes no ranged attacks and is
given no ranged combat actions (no throwing, no ranged attack on terrain, no Telekinesis attack, and, by the
checklist's suggestion, no power action that includes a ranged attack); it cannot be carried (movement's
`carry_problem`), given action tokens by opposing effects, or targeted by Mind Control (SAFEGUARD, HX-PAC-27); when
it attacks, opposing characters cannot use Shape Change. Mind Control, Shape Change and Incapacitate are played
elsewhere: the helpers here are what they ask."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix.powers import BATTLE_FURY, MIND_CONTROL
from clix.engine.heroclix.sides import team
from clix.engine.heroclix.state import Close, HeroState, Ranged

SAFEGUARDED = (MIND_CONTROL,)
"""The effects a Battle Fury character cannot be targeted by (SAFEGUARD: Mind Control, HX-PAC-27)."""


def no_ranged(character: Figure) -> str:
    """Why `character` may make no ranged attack now: it shows Battle Fury ("" if it may)."""
    if BATTLE_FURY in character.powers:
        return f"{character.label} shows Battle Fury: no ranged attacks or ranged combat actions (HX-POWER-38)"
    return ""


def attack_refusal(state: HeroState, attacker: Figure, action: Close | Ranged) -> str:
    """Why Battle Fury forbids this combat action ("" if it does not): a ranged one by a Battle Fury character, or
    one using a safeguarded power (Mind Control) on a Battle Fury target (HX-POWER-38)."""
    if isinstance(action, Ranged):
        why = no_ranged(attacker)
        if why:
            return why
    if action.use not in SAFEGUARDED:
        return ""
    targets = action.targets if isinstance(action, Ranged) else (action.target, *action.then)
    for uid in targets:
        target = state.monsters[uid]
        if BATTLE_FURY in target.powers:
            return f"{target.label} shows Battle Fury and cannot be targeted by {action.use} (HX-POWER-38, HX-PAC-27)"
    return ""


def may_give_token(state: HeroState, character: Figure, giver: int) -> bool:
    """Whether an effect of player `giver`'s may give `character` an action token (Incapacitate, HX-POWER-18): not
    an opponent's effect on a Battle Fury character (HX-POWER-38)."""
    opposing = team(state, giver) != team(state, character.controller)
    return not (opposing and BATTLE_FURY in character.powers)


def shape_change_allowed(attacker: Figure) -> bool:
    """Whether the targets of `attacker`'s attack may use Shape Change (HX-POWER-43): not against Battle Fury
    (HX-POWER-38)."""
    return BATTLE_FURY not in attacker.powers
