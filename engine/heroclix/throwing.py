"""Whether a character may throw the object it holds (HX-OBJECT-11): the ranged combat action's own rules, the
line of fire and everything else of an attack being `combat`'s."""

from __future__ import annotations

from clix.engine.heroclix import double_base
from clix.engine.heroclix.battle_fury import no_ranged
from clix.engine.heroclix.combat import line_of_fire
from clix.engine.heroclix.objects import THROW_DISTANCE
from clix.engine.heroclix.shape_change import barred
from clix.engine.heroclix.sides import bulky, cannot_act, opponents, touching_opponents
from clix.engine.heroclix.state import HeroState, Throw


def throw_problem(state: HeroState, action: Throw) -> str:
    """Why the character may not throw its object at the target: it needs one in hand, and the throw is a ranged
    attack on one opposing character within 6 squares (light) or 4 (heavy), whatever its range, halved from
    below at a soaring target, with a clear line of fire, not while adjacent to an opponent (HX-OBJECT-11 and
    its OPEN a)."""
    attacker = state.monsters[action.character]
    problem = cannot_act(state, attacker) or no_ranged(attacker)  # HX-POWER-38: no throwing
    if problem:
        return problem
    kind = state.holding.get(attacker.uid)
    if kind is None:
        return f"{attacker.label} holds no object to throw (HX-OBJECT-11)"
    target = state.monsters[action.target]
    if not target.alive or target not in opponents(state, attacker):
        return f"{target.label} is not an opposing character on the map (HX-OBJECT-11)"
    if barred(state, attacker, target):
        return barred(state, attacker, target)
    if touching_opponents(state, attacker):
        return f"{attacker.label} is adjacent to an opposing character (HX-COMBAT-09, HX-OBJECT-11)"
    if state.soars(attacker) and not state.soars(target) and not bulky(state, target):
        return f"a soaring character shoots only soaring, giant and big characters, not {target.label} (HX-COMBAT-18)"
    reach_ = THROW_DISTANCE[kind]
    if state.soars(target) and not state.soars(attacker) and not bulky(state, attacker):
        reach_ = (reach_ + 1) // 2
    distance = double_base.distance(state, attacker, target)  # HX-SPECIAL-05
    if distance > reach_:
        return f"{target.label} is {distance} squares away; a {kind} object flies {reach_} (HX-OBJECT-11)"
    if not line_of_fire(state, attacker, target, within=reach_)[0]:
        return f"no clear line of fire from {attacker.label} to {target.label} (HX-COMBAT-11)"
    return ""
