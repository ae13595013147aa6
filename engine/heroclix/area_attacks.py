"""Attacks whose targets a power picks (HX-POWER, read in 2005 terms): Quake's close attack on every adjacent
opposing character (HX-POWER-16); Energy Explosion's ranged attack, whose targets' adjacent characters become
targets too (HX-POWER-14); Pulse Wave's ranged attack on every other character within half its range, none of
whom may use powers during it (HX-POWER-15). One attack roll is compared with each target's defense
(HX-COMBAT-23); each character hit is dealt a fixed damage in place of the damage value (Quake and Pulse Wave:
with two or more targets), undivided, modifiers then applying (HX-PAC-02); knockback on doubles as any attack,
farthest first (HX-PAC-08, HX-KNOCK-05). The roll, the defenders' powers and the damage are `combat.attack`'s."""

from __future__ import annotations

from dataclasses import replace

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import combat, double_base
from clix.engine.heroclix.defenses import capped
from clix.engine.heroclix.knockback import directions_problem
from clix.engine.heroclix.modifiers import RANGE, modifier
from clix.engine.heroclix.powers import ENERGY_EXPLOSION, PULSE_WAVE, QUAKE
from clix.engine.heroclix.sides import adjacency, bulky, cannot_act, in_close_reach, opponents
from clix.engine.heroclix.state import Close, HeroState, Ranged

AREA_USES = (QUAKE, ENERGY_EXPLOSION, PULSE_WAVE)
"""The powers (`use`) whose attacks are played here."""
QUAKE_DAMAGE = 2
"""What Quake deals each character hit when it has two or more targets (HX-POWER-16)."""
EXPLOSION_DAMAGE = 2
"""What Energy Explosion deals each character hit (HX-POWER-14)."""
PULSE_DAMAGE = 1
"""What Pulse Wave deals each character hit when it has two or more targets (HX-POWER-15)."""
SEVERAL = 2
"""How many targets bring in the fixed damage (HX-POWER-15, -16 OPEN: "1+" in the extract read as 2+)."""


def area(action: Close | Ranged) -> bool:
    """Whether `action` is one of these attacks."""
    return action.use in AREA_USES


def named(action: Close | Ranged) -> list[int]:
    """The targets a Quake or Pulse Wave step names; none when it names none (a Quake's `target` is then the
    attacker itself)."""
    if isinstance(action, Ranged):
        return list(action.targets)
    return [] if action.target == action.character else [action.target, *action.then]


def _chosen_problem(
    state: HeroState, attacker: Figure, action: Close | Ranged, everyone: list[Figure], what: str
) -> str:
    """Why the targets a step names are not exactly those the power picks (`what`), or a knockback direction is
    wrong."""
    chosen = named(action)
    if chosen and sorted(chosen) != sorted(c.uid for c in everyone):
        names = ", ".join(c.label for c in everyone)
        return f"{action.use} targets {what}, not a choice of them: {names}"
    return directions_problem(state, attacker, tuple(c.uid for c in everyone), action.knockback)


def quake_targets(state: HeroState, attacker: Figure) -> list[Figure]:
    """Every opposing character in `attacker`'s close reach, a giant's two squares included (HX-POWER-16,
    HX-SPECIAL-10), in the order the characters were placed."""
    return [c for c in opponents(state, attacker) if in_close_reach(state, attacker, c)]


def splashed(state: HeroState, attacker: Figure, action: Ranged) -> list[Figure]:
    """The characters Energy Explosion adds to its targets: every other character, friend or foe but not the
    attacker, adjacent to one of the targets by the 2005 rules (not across walls or levels; HX-POWER-14 OPEN)."""
    aimed = [state.monsters[u] for u in action.targets]
    return [
        c
        for c in state.standing()
        if c.uid != attacker.uid
        and c.uid not in action.targets
        and any(adjacency(state, target, c) == 1 for target in aimed)
    ]


def pulse_range(attacker: Figure) -> int:
    """Pulse Wave's range: the range value halved, rounded up (HX-POWER-15, HX-VALUE-04, -08)."""
    return (attacker.stats.range + 1) // 2


def pulse_targets(state: HeroState, attacker: Figure) -> list[Figure]:
    """Every other character, friend or foe, within Pulse Wave's range and a line of fire that characters do not
    block (HX-POWER-15 OPEN b); soaring ones only as a ranged attack could reach them: from the ground at half
    that range again, from soaring only soaring, giant and big ones, none across an indoor square (HX-POWER-15
    OPEN c, HX-COMBAT-18, -19)."""
    found = []
    indoor = state.geometry.indoor
    for other in state.standing():
        if other.uid == attacker.uid:
            continue
        apart = state.soars(attacker) != state.soars(other)
        if state.soars(attacker) and not state.soars(other) and not bulky(state, other):
            continue
        if apart and (indoor[attacker.pos] or indoor[other.pos]):
            continue
        reach = pulse_range(attacker)
        if state.soars(other) and not state.soars(attacker) and not bulky(state, attacker):
            reach = (reach + 1) // 2
        reach = max(0, reach + capped(modifier(state, attacker, RANGE)))  # HX-POWER-46, after halving (HX-VALUE-06)
        if double_base.distance(state, attacker, other) > reach:  # HX-SPECIAL-05: from and to either square
            continue
        if combat.line_of_fire(state, attacker, other, through=True, within=reach)[0]:
            found.append(other)
    return found


def problem(state: HeroState, action: Close | Ranged) -> str:
    """Why the attack may not be given ("" if it may)."""
    attacker = state.monsters[action.character]
    why = cannot_act(state, attacker)
    if why:
        return why
    if action.use not in attacker.powers:
        return f"{attacker.label} does not show {action.use} now"
    if isinstance(action, Close) and action.use == QUAKE:
        everyone = quake_targets(state, attacker)
        if not everyone:
            return f"no opposing character is adjacent to {attacker.label} (HX-POWER-16)"
        return _chosen_problem(state, attacker, action, everyone, "every adjacent opposing character (HX-POWER-16)")
    if isinstance(action, Ranged) and action.use == ENERGY_EXPLOSION:
        if action.split:
            return "Energy Explosion deals 2 to each character hit: its damage is not divided (HX-POWER-14)"
        why = combat.attack_problem(state, replace(action, use="", knockback=()))  # every ranged rule, each target
        if why:
            return why
        aimed = (*action.targets, *(c.uid for c in splashed(state, attacker, action)))
        return directions_problem(state, attacker, aimed, action.knockback)
    if isinstance(action, Ranged) and action.use == PULSE_WAVE:
        if attacker.stats.range <= 0:
            return f"{attacker.label} has range 0 and makes no ranged attacks (HX-COMBAT-09)"
        if action.split:
            return "Pulse Wave deals its damage to each character hit: it is not divided (HX-POWER-15)"
        everyone = pulse_targets(state, attacker)
        if not any(c in opponents(state, attacker) for c in everyone):
            return f"no opposing character is within {attacker.label}'s halved range and line of fire (HX-POWER-15)"
        return _chosen_problem(state, attacker, action, everyone, "every character in range and line of fire")
    return f"{action.use} is not used with a {'close' if isinstance(action, Close) else 'ranged'} attack"


def perform(state: HeroState, attacker: Figure, action: Close | Ranged) -> None:
    """The attack on the targets the power picks (see the module)."""
    if isinstance(action, Close):
        chosen = named(action)
        targets = [state.monsters[u] for u in chosen] if chosen else quake_targets(state, attacker)
        each = QUAKE_DAMAGE if len(targets) >= SEVERAL else -1
        combat.attack(state, attacker, action, aimed=targets, each=each)
    elif action.use == ENERGY_EXPLOSION:
        splash = splashed(state, attacker, action)
        targets = [*(state.monsters[u] for u in action.targets), *splash]
        unlined = frozenset(c.uid for c in splash)  # HX-POWER-14 OPEN: no line of fire drawn, so never hindered
        combat.attack(state, attacker, action, aimed=targets, each=EXPLOSION_DAMAGE, unlined=unlined)
    elif action.use == PULSE_WAVE:
        chosen = named(action)
        targets = [state.monsters[u] for u in chosen] if chosen else pulse_targets(state, attacker)
        reach = max(0, pulse_range(attacker) + capped(modifier(state, attacker, RANGE)))  # HX-POWER-46
        near = double_base.distance  # HX-SPECIAL-05: either square of a double-base character
        state.powerless = {
            c.uid for c in state.standing() if c.uid != attacker.uid and near(state, attacker, c) <= reach
        }
        try:  # HX-POWER-15: unmodified defense, never hindered, no powers for those in range during the action
            each = PULSE_DAMAGE if len(targets) >= SEVERAL else -1
            combat.attack(state, attacker, action, aimed=targets, each=each, unlined=frozenset(c.uid for c in targets))
        finally:
            state.powerless = set()


def listed(state: HeroState, attacker: Figure) -> list[Close | Ranged]:
    """The attacks `legal_actions` lists for `attacker`: Quake when it reaches an opponent (with one, it is an
    ordinary close attack), Energy Explosion on each opponent it may shoot, and Pulse Wave."""
    found: list[Close | Ranged] = []
    if QUAKE in attacker.powers:
        quake = Close(attacker.uid, attacker.uid, use=QUAKE)
        if not problem(state, quake):
            found.append(quake)
    if ENERGY_EXPLOSION in attacker.powers:
        for target in opponents(state, attacker):
            explosion = Ranged(attacker.uid, (target.uid,), use=ENERGY_EXPLOSION)
            if not problem(state, explosion):
                found.append(explosion)
    if PULSE_WAVE in attacker.powers:
        pulse = Ranged(attacker.uid, (), use=PULSE_WAVE)
        if not problem(state, pulse):
            found.append(pulse)
    return found
