"""Free actions aimed at a character within range, counting at least 6, and line of fire (HX-PAC-03; usable next
to opponents, its OPEN: they are not ranged attacks): Perplex modifies the speed, attack, defense or range of
another character, friend or foe, by +1 or -1 until the beginning of its user's next turn (HX-POWER-46,
`modifiers`); Outwit counters one standard power of an opposing character until then (HX-POWER-47, HX-EFFECT-04,
`outwit`). Once per turn per character and power, as every free action (`free_actions`). The range every power
counts as at least 6 is here too (`power_range`, `within_power_range`; the power actions' `power_actions` use it),
below the free actions and the power actions both (the import contracts in pyproject.toml)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, double_base, modifiers, outwit
from clix.engine.heroclix.defenses import capped
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.modifiers import RANGE
from clix.engine.heroclix.powers import MINIMUM_RANGE, OUTWIT, POWERS
from clix.engine.heroclix.sides import at, bulky, opponents
from clix.engine.heroclix.state import HeroState, PowerAction

PERPLEX = modifiers.PERPLEX
AIMED = (PERPLEX, OUTWIT)
"""The free actions played here."""
PERPLEX_BY = (1, -1)
"""What Perplex adds to the value it modifies (HX-POWER-46)."""


def power_range(state: HeroState, user: Figure) -> int:
    """The range of a power that counts the user's range as at least 6 (HX-PAC-03), Perplex's modifier applied
    before the minimum (HX-POWER-46, HX-PAC-19: the minimum last)."""
    return max(MINIMUM_RANGE, user.stats.range + capped(modifiers.modifier(state, user, RANGE)))


def within_power_range(state: HeroState, user: Figure, square: int) -> str:
    """Why `square` is beyond the range of a power that counts the user's range as at least 6 (HX-PAC-03), counted
    from the user's nearest square (a double-base character's either, HX-SPECIAL-05); "" when it is within it."""
    reach = power_range(state, user)
    distance = double_base.distance_to(state, square, user)
    if distance > reach:
        return f"{at(state, square)} is {distance} squares from {user.label}; its range counts as {reach} (HX-PAC-03)"
    return ""


def in_sight(state: HeroState, user: Figure, target: Figure) -> str:
    """Why `user` may not aim a power at `target` within range (counting at least 6) and line of fire ("" if it
    may): a soaring user reaches only soaring, giant and big characters (HX-MOVE-15), no line joins an indoor
    square and a soaring character (HX-COMBAT-19 OPEN c), and Stealth hides as from any line of fire."""
    if state.soars(user) and not state.soars(target) and not bulky(state, target):
        return f"a soaring character affects only soaring, giant and big characters, not {target.label} (HX-MOVE-15)"
    indoor = state.geometry.indoor
    if state.soars(user) != state.soars(target) and (indoor[user.pos] or indoor[target.pos]):
        return "no line of fire between an indoor square and a soaring character (HX-COMBAT-19 OPEN c)"
    if all(within_power_range(state, user, square) for square in double_base.squares(state, target)):
        return within_power_range(state, user, target.pos)  # HX-SPECIAL-05: to either square of a double base
    if not combat.line_of_fire(state, user, target, within=power_range(state, user))[0]:
        return f"no clear line of fire from {user.label} to {target.label} (HX-PAC-03)"
    return ""


def problem(state: HeroState, user: Figure, action: PowerAction) -> str:
    """Why the aimed free action may not be taken ("" if it may); the checks every free action has are made."""
    if action.target is None:
        return f"{action.power} names the character it chooses ('target')"
    target = state.monsters[action.target]
    if not target.alive:
        return f"{target.label} is not on the map"
    if target.uid == user.uid:
        return f"{user.label} may not target itself with {action.power} (HX-EFFECT-07, HX-POWER-46)"
    if action.power == OUTWIT:
        if target not in opponents(state, user):
            return f"Outwit chooses an opposing character, not {target.label} (HX-POWER-47)"
        if action.chosen not in POWERS:
            return f"Outwit counters a standard power of the card ('counter'), not {action.chosen or 'nothing'} (HX-POWER-47)"
        return in_sight(state, user, target)
    if action.chosen not in modifiers.PERPLEXED:
        return (
            f"Perplex modifies speed, attack, defense or range ('value'), not {action.chosen or 'nothing'}: not "
            "damage (HX-POWER-46 OPEN)"
        )
    if action.amount not in PERPLEX_BY:
        return "Perplex modifies the value by +1 or -1 ('by', HX-POWER-46)"
    return in_sight(state, user, target)


def perform(state: HeroState, user: Figure, action: PowerAction) -> None:
    """The modifier or the counter, in force until the beginning of the user's player's next turn (HX-PAC-17)."""
    assert action.target is not None
    target = state.monsters[action.target]
    if action.power == OUTWIT:
        outwit.counter(state, target, action.chosen, user.controller)
        return
    modifiers.add(state, target, action.chosen, action.amount, user.controller)
    state.emit(EventKind.PERPLEXED, character=target.label, by=user.label, value=action.chosen, amount=action.amount)


def listed(state: HeroState, user: Figure) -> list[PowerAction]:
    """The aimed free actions `legal_actions` lists for `user`: Perplex's +1 to each value of each friend it may aim
    at and -1 to each value of each opponent; Outwit on each power an opponent it may aim at shows now (the others
    are legal, `problem`, but not listed)."""
    perplexing = PERPLEX in user.powers and (user.uid, PERPLEX) not in state.free_used
    outwitting = OUTWIT in user.powers and (user.uid, OUTWIT) not in state.free_used
    if not (perplexing or outwitting):
        return []
    found: list[PowerAction] = []
    foes = opponents(state, user)
    for target in state.standing():
        if target.uid == user.uid or in_sight(state, user, target):
            continue
        if perplexing:
            amount = -1 if target in foes else 1
            found.extend(
                PowerAction(user.uid, PERPLEX, target.uid, chosen=v, amount=amount) for v in modifiers.PERPLEXED
            )
        if outwitting and target in foes:
            found.extend(PowerAction(user.uid, OUTWIT, target.uid, chosen=p) for p in sorted(target.powers))
    return found
