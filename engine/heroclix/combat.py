"""HeroClix combat: who may attack whom (HX-COMBAT-07..22), lines of fire in their layers (HX-COMBAT-11..20,
HX-TERRAIN-07..12), the attack roll with its criticals, the damage divided (HX-COMBAT-02..04, -23, -24), and
knockback on doubles (HX-KNOCK-01, played by `knockback`)."""

from __future__ import annotations

from functools import partial

from clix.engine.core import decisions
from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Figure, divide_damage
from clix.engine.heroclix import cards, double_base
from clix.engine.heroclix.battle_fury import attack_refusal
from clix.engine.heroclix.damage_powers import boost, expert_bonus, exploits, floored, senses_handicap, steal_energy
from clix.engine.heroclix.defenses import capped, defense_bonus, defense_value, evades, reduced, shrugs_off
from clix.engine.heroclix.elevated_lines import elevated_line
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.knockback import directions_problem, knock_back, way_from
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.markers import smoke_penalty
from clix.engine.heroclix.mastermind import substitute
from clix.engine.heroclix.modifiers import ATTACK, DEFENSE, RANGE
from clix.engine.heroclix.modifiers import modifier as perplexed
from clix.engine.heroclix.objects import CLOSE_BONUS, THROWN_DAMAGE, lift
from clix.engine.heroclix.powers import BLADES, FLURRY, INCAPACITATE, MIND_CONTROL, MINIMUM_RANGE, PSYCHIC_BLAST
from clix.engine.heroclix.scoring import take_damage
from clix.engine.heroclix.shape_change import barred, screen
from clix.engine.heroclix.sides import (
    BIG,
    GIANT,
    bulky,
    cannot_act,
    in_close_reach,
    is_opponent,
    size,
    touching_opponents,
)  # fmt: skip
from clix.engine.heroclix.state import HOVERING, Close, HeroState, Ranged, Telekinesis, Throw
from clix.engine.heroclix.stealth import hidden
from clix.engine.heroclix.tokens import give_token

HINDERED_DEFENSE = 1
"""Defense added when a line of fire crosses hindering terrain (HX-TERRAIN-07)."""
CRITICAL_HIT_DAMAGE = 1
"""Damage added to each target of a critical hit (HX-COMBAT-04)."""
CRITICAL_MISS_CLICKS = 1
"""Clicks the attacker takes on a critical miss (HX-COMBAT-03)."""


def line_of_fire(
    state: HeroState, attacker: Figure, target: Figure, stealth: bool = True, through: bool = False, within: int = -1
) -> tuple[bool, bool]:
    """Whether the line of fire from `attacker` to `target` is clear, and whether it is hindered (+1 defense).

    Between two grounded characters it is blocked by walls and blocking terrain (HX-COMBAT-11, HX-TERRAIN-11,
    -12, -16), by elevated terrain it crosses (HX-ELEV-07), by another grounded character in a square it crosses
    or diagonal to blocking terrain at a corner it passes, and between two of them on a diagonal (HX-COMBAT-12,
    -14); hindering terrain it crosses hinders it (HX-TERRAIN-07..09). Between two elevated characters, and
    between a grounded and an elevated one, see `elevated_line`. Between two soaring characters only other
    soaring characters block it (HX-COMBAT-14, -20). Between a soaring character and one that does not soar only
    elevated blocking terrain blocks it, and nothing hinders it (HX-COMBAT-19 and its OPEN).

    Giants and big characters (HX-SPECIAL-14..16): a soaring character and a giant or big one draw their line as
    two soaring characters (HX-COMBAT-20); a giant and an elevated character as two elevated ones; standard
    characters do not block a line to or from a giant; giants and big characters block lines between others,
    and big characters block every line, between soaring characters too. A hindered line to a character showing
    Stealth is blocked, unless `stealth` is False (HX-POWER-11). `through`: no character blocks it (Pulse Wave,
    HX-POWER-15 OPEN b).

    To or from a double-base character, the best line from and to either of its squares, those `within` squares
    apart or closer (-1: any) (HX-SPECIAL-05); its two squares block lines like any character's, and Stealth blocks
    only when every line in range is hindered."""
    if attacker.uid in state.rears or target.uid in state.rears:  # HX-SPECIAL-05: either square
        found = double_base.best_line(state, attacker, target, within, partial(line_from, through=through))
    else:
        found = line_from(state, attacker, attacker.pos, target, target.pos, through)
    if stealth and found[1] and hidden(state, attacker, target):  # HX-POWER-11: hindered becomes blocked
        return False, False
    return found


def line_from(
    state: HeroState, attacker: Figure, source: int, target: Figure, aim: int, through: bool = False
) -> tuple[bool, bool]:
    """`line_of_fire` from `attacker` on `source` to `target` on `aim`, Stealth aside."""
    ends = tuple(c.uid for c in state.standing()) if through else (attacker.uid, target.uid)
    high, aim_high = state.soars(attacker), state.soars(target)
    if high != aim_high and (bulky(state, attacker) or bulky(state, target)):
        high = aim_high = True
    giant_end = GIANT in (size(state, attacker), size(state, target))
    level = levels_of(state.geometry).level
    as_elevated = giant_end and not high and bool(level[source] or level[aim])
    return line_between(state, source, high, aim, aim_high, ends, giant_end, as_elevated)


def line_between(
    state: HeroState,
    source: int,
    source_soars: bool,
    aim: int,
    aim_soars: bool,
    ends: tuple[int, ...],
    giant_end: bool = False,
    as_elevated: bool = False,
) -> tuple[bool, bool]:
    """`line_of_fire` between two squares, each end soaring or not, the characters `ends` (by uid) not counted as
    in the way: a character's line to a square (Telekinesis, HX-OBJECT-13, -16) as well as to a character.
    `giant_end`: a giant is at one end (standard characters do not block it); `as_elevated`: drawn as between two
    elevated characters (a giant and an elevated character, HX-SPECIAL-14)."""
    ray = state.geometry.ray(source, aim)
    high = source_soars
    level = levels_of(state.geometry).level
    big = {c.pos: state.sizes[c.uid] for c in state.standing() if c.uid not in ends and c.uid in state.sizes}
    if high != aim_soars:  # HX-COMBAT-19 OPEN (a): blocking terrain inside an elevated area blocks; HX-SPECIAL-15
        blocked = any((level[s] and state.geometry.terrain[s] == BLOCKING) or s in big for s in ray.cells)
        return not blocked, False
    if not high and (level[source] or level[aim] or as_elevated):
        return elevated_line(state, source, aim, ends, big, giant_end, as_elevated)
    if not high and (ray.walled or ray.blocked_by_terrain or any(level[s] for s in ray.cells)):
        return False, False
    if high:  # HX-COMBAT-20: other soaring characters block; big characters block every line (HX-SPECIAL-16)
        others = double_base.spots(state, (c for c in state.standing() if c.uid not in ends and state.soars(c)))
        others |= {pos for pos, kind in big.items() if kind == BIG}
    else:
        others = set(big)
        if not giant_end:  # HX-SPECIAL-14: standard characters do not block a line to or from a giant
            others |= double_base.spots(
                state, (c for c in state.standing() if c.uid not in ends and not state.soars(c) and not level[c.pos])
            )
    if any(square in others for square in ray.cells):
        return False, False
    if not high and any(square in others for square in ray.blocking_corner_partners):
        return False, False
    if any(a in others and b in others for a, b in ray.corners):
        return False, False
    if high:
        return True, False
    hindered = ray.hindering or any(square in others for square in ray.hindering_corner_partners)
    return True, hindered


def reach(state: HeroState, attacker: Figure, target: Figure) -> int:
    """`attacker`'s range against `target`: halved, rounded up, from below against a soaring target, and for an
    attacker whose range a power halves (HX-COMBAT-19, HX-VALUE-04, -08)."""
    value = attacker.stats.range
    if attacker.uid in state.short_range:  # Hypersonic Speed (HX-POWER-10, HX-VALUE-08)
        value = (value + 1) // 2
    if state.soars(target) and not state.soars(attacker) and not bulky(state, attacker):  # HX-SPECIAL-14, -16
        value = (value + 1) // 2
    return max(0, value + capped(perplexed(state, attacker, RANGE)))  # HX-POWER-46: after the halving (HX-VALUE-06)


def reach_for(state: HeroState, attacker: Figure, target: Figure, use: str) -> int:
    """`reach` for a ranged attack using `use`: Mind Control's range counts as at least 6 (HX-POWER-06, HX-PAC-03)."""
    return max(MINIMUM_RANGE, reach(state, attacker, target)) if use == MIND_CONTROL else reach(state, attacker, target)


def attack_problem(state: HeroState, action: Close | Ranged, free: bool = False) -> str:
    """Why a combat action may not be given ("" if it may); `free`: as a free part of an action under way, whoever
    may act now (the other target of a Shape Change, HX-POWER-43)."""
    attacker = state.monsters[action.character]
    problem = ("" if free else cannot_act(state, attacker)) or attack_refusal(state, attacker, action)  # HX-POWER-38
    if problem:
        return problem
    problem = one_effect(action)
    if problem:
        return problem
    declared = (BLADES, INCAPACITATE, MIND_CONTROL) if isinstance(action, Close) else (INCAPACITATE, MIND_CONTROL)
    if action.use and action.use not in declared:
        return f"{action.use} is not used with this attack (HX-POWER-13: Blades/Claws/Fangs, close attacks only)"
    if action.use and action.use not in attacker.powers:
        return f"{attacker.label} does not show {action.use} now"
    if isinstance(action, Close):
        if action.then and (FLURRY not in attacker.powers or len(action.then) > 1):
            return f"{attacker.label} makes one close attack an action; two with Flurry (HX-POWER-01)"
        for uid in (action.target, *action.then):
            target = state.monsters[uid]
            if not target.alive or not is_opponent(state, attacker, target):
                return f"{target.label} is not an opposing character on the map"
            if barred(state, attacker, target):
                return barred(state, attacker, target)
            if not in_close_reach(state, attacker, target):
                return f"{target.label} is not adjacent to {attacker.label} (HX-COMBAT-07, -08, HX-SPECIAL-10)"
        return ""
    controlling = action.use == MIND_CONTROL  # HX-POWER-06: its range counts as at least 6 (HX-PAC-03)
    if attacker.stats.range <= 0 and not controlling:
        return f"{attacker.label} has range 0 and makes no ranged attacks (HX-COMBAT-09)"
    if not action.targets or len(action.targets) > attacker.stats.bolts:
        return f"{attacker.label} may target 1 to {attacker.stats.bolts} characters (HX-COMBAT-21)"
    if len(set(action.targets)) != len(action.targets):
        return "no character may be targeted twice in one attack (HX-COMBAT-21)"
    targets = [state.monsters[uid] for uid in action.targets]
    close_by = touching_opponents(state, attacker)
    for target in targets:
        if not target.alive or not is_opponent(state, attacker, target):
            return f"{target.label} is not an opposing character on the map"
        if barred(state, attacker, target):
            return barred(state, attacker, target)
        if state.soars(attacker) and not state.soars(target) and not bulky(state, target):
            return (
                f"a soaring character shoots only soaring, giant and big characters, not {target.label} (HX-COMBAT-18)"
            )
        indoor = state.geometry.indoor
        if state.soars(attacker) != state.soars(target) and (indoor[attacker.pos] or indoor[target.pos]):
            return "no attack between an indoor square and a soaring character (HX-COMBAT-19 OPEN c)"
        if close_by and not state.soars(attacker) and not _may_shoot_while_adjacent(state, attacker, target, close_by):
            return f"{attacker.label} is adjacent to an opposing character (HX-COMBAT-09, -17)"
        distance = double_base.distance(state, attacker, target)  # HX-SPECIAL-05: from and to either square
        limit = reach_for(state, attacker, target, action.use)
        if distance > limit:
            return (
                f"{target.label} is {distance} squares away; {attacker.label}'s range against it is {limit} "
                "(HX-COMBAT-15, -19, HX-PAC-03)"
            )
        if not line_of_fire(state, attacker, target, within=limit)[0]:
            return f"no clear line of fire from {attacker.label} to {target.label} (HX-COMBAT-11, -12, -14)"
    if action.split and action.use in (INCAPACITATE, MIND_CONTROL):
        return f"{action.use} deals no damage: there is none to divide (HX-POWER-18, -06)"
    for uid, amount in action.split:
        if uid not in action.targets or amount < 0:
            return "damage is divided in whole numbers among the targets (HX-COMBAT-24)"
    value = attacker.damage + damage_modifier(state, attacker, action)
    if action.split and sum(a for _, a in action.split) != value:
        return f"the damage divided must add up to {attacker.label}'s damage value {value} (HX-COMBAT-24)"
    return ""


def one_effect(action: Close | Ranged) -> str:
    """Why `action` would activate more than one effect: Flurry's second attack (`then`) with a power declared for
    the attack as well (`use`). A given action activates one effect; powers that need no activation (an expert's
    +1, a damage reducer) apply as usual (HX-TURN-05 and its OPEN, HX-EFFECT-03)."""
    if isinstance(action, Close) and action.then and action.use:
        return f"a given action may activate only one effect: Flurry's two attacks or {action.use} (HX-TURN-05)"
    return ""


def _may_shoot_while_adjacent(state: HeroState, attacker: Figure, target: Figure, close_by: list[Figure]) -> bool:
    """While adjacent to an opponent, a hovering attacker may shoot only adjacent opponents, and one that does
    not fly only adjacent hovering opponents (HX-COMBAT-17 and its OPEN: every target adjacent)."""
    if not any(c.uid == target.uid for c in close_by):  # by uid: `in` compares figures field by field
        return False
    if state.flight.get(attacker.uid) == HOVERING:
        return True
    return state.flight.get(target.uid) == HOVERING


def knockback_problem(state: HeroState, action: Close | Ranged | Throw | Telekinesis) -> str:
    """Why a named knockback direction is not one the attacker may choose (HX-KNOCK-04 OPEN, docs/rulings.md)."""
    targets = action.targets if isinstance(action, Ranged) else (action.target,)
    return directions_problem(state, state.monsters[action.character], targets, action.knockback)


def attack(
    state: HeroState,
    attacker: Figure,
    action: Close | Ranged | Throw | Telekinesis,
    modifier: int = 0,
    aimed: list[Figure] | None = None,
    each: int = -1,
    unlined: frozenset[int] = frozenset(),
) -> list[Figure]:
    """One attack roll against every target (HX-COMBAT-02, -23), criticals (HX-COMBAT-03, -04), the damage
    divided among the targets hit (HX-COMBAT-24), then knockback on doubles (HX-KNOCK-01). A held object is used
    in a close attack or thrown, and used up hit or miss (HX-OBJECT-09, -10, -11); an object hurled by Telekinesis
    is taken off the map first (it does not affect the line of fire) and strikes as a thrown one (HX-OBJECT-14,
    -15 OPEN: knockback away from the user). `modifier`: added to the attack value (a transporter's -2,
    HX-SPECIAL-08). `aimed`: the targets, when a power picks them (`area_attacks`); `each`: the damage dealt to
    each target hit in place of the damage value, undivided; `unlined`: targets no line of fire is drawn to (never
    hindered). Characters in `state.powerless` defend with their unmodified defense and no power (HX-POWER-15).
    Targets showing Shape Change roll first (HX-POWER-43). Returns the characters hit."""
    if aimed is not None:
        targets = aimed
    elif isinstance(action, Ranged):
        targets = [state.monsters[u] for u in action.targets]
    else:
        assert action.target is not None
        targets = [state.monsters[action.target]]
    targets, action = screen(state, attacker, action, targets, aimed is None, lambda s, a: attack_problem(s, a, True))
    if not targets:
        return []
    if isinstance(action, Telekinesis):
        held: str | None = lift(state, action.object_square)
    elif not isinstance(action, Ranged) and attacker.uid in state.holding:
        held = state.holding.pop(attacker.uid)
    else:
        held = None
    first, second = decisions.d6(state), decisions.d6(state)
    for respond in state.ruleset.roll_responders:  # HX-POWER-42: Probability Control may have it rerolled
        first, second = respond(state, attacker, tuple(targets), (first, second))
    critical_miss = first == second == 1
    critical_hit = first == second == 6
    close = isinstance(action, Close)
    expert = expert_bonus(attacker, action) + cards.modifier(state, attacker, cards.ATTACK, close)  # HX-FEAT-07
    smoke = smoke_penalty(state, attacker)  # HX-POWER-20: a modifier, under the rule of 3
    bonus = modifier + expert - smoke + perplexed(state, attacker, ATTACK)
    total = first + second + max(0, attacker.attack + capped(bonus))  # HX-VALUE-02, -05
    hits = []
    for target in targets:
        within = reach_for(state, attacker, target, action.use) if isinstance(action, Ranged) else -1  # HX-SPECIAL-05
        hindered = not close and target.uid not in unlined and line_of_fire(state, attacker, target, within=within)[1]
        defense = defense_value(state, target) + capped(  # HX-POWER-27: Defend replaces, then modifiers
            (HINDERED_DEFENSE if hindered else 0) + defense_bonus(target, close) + perplexed(state, target, DEFENSE)
            + cards.modifier(state, target, cards.DEFENSE, close)
        )  # fmt: skip
        defense = target.defense if target.uid in state.powerless else defense  # HX-PAC-04: unmodified
        if critical_hit or (not critical_miss and total >= defense):
            hits.append(target)
    state.emit(
        EventKind.ATTACK, attacker=attacker.label, dice=(first, second), total=total, hit=tuple(t.label for t in hits)
    )
    if critical_miss or critical_hit:
        state.emit(EventKind.CRITICAL_MISS if critical_miss else EventKind.CRITICAL_HIT, attacker=attacker.label)
    harmless = deals_no_damage(attacker, action)
    if critical_miss:
        if not harmless:  # HX-COMBAT-05, HX-DAMAGE-03: an attack that deals no damage does not backfire
            take_damage(state, attacker, CRITICAL_MISS_CLICKS, "critical miss", None)  # HX-COMBAT-03 OPEN
        return []
    hits = [  # HX-POWER-25: it misses it; -21: Precision Strike's -1; -15: no powers in a Pulse Wave
        t for t in hits if t.uid in state.powerless or not evades(state, t, senses_handicap(attacker))
    ]
    if not hits:
        return hits
    if harmless:  # no damage to modify, no critical +1, no knockback (HX-COMBAT-05, HX-DAMAGE-03, HX-POWER-06 OPEN)
        if isinstance(action, Close | Ranged) and action.use == INCAPACITATE:  # HX-POWER-18 OPEN: a token instead
            for target in hits:
                give_token(state, target, attacker)
        return hits  # Mind Control takes them over (`mind_control`)
    hits, instead = substitute(state, attacker, hits)  # HX-POWER-31: Mastermind, before any damage
    thrown = held if isinstance(action, (Throw, Telekinesis)) else None
    value = each if each >= 0 else THROWN_DAMAGE[thrown] if thrown else attacker.damage  # HX-OBJECT-06, HX-PAC-02
    if isinstance(action, Close) and action.use == BLADES and len(hits) == 1:  # HX-POWER-13: d6 for damage value
        value = max(decisions.d6(state), attacker.stats.damage[attacker.click] - 1)
    value += damage_modifier(state, attacker, action)  # a modifier to the damage value, before it is divided
    psychic = isinstance(action, (Ranged, Throw)) and PSYCHIC_BLAST in attacker.powers  # HX-POWER-19
    penetrating = psychic or exploits(attacker, close)  # HX-POWER-40
    named: dict[int, int] = {}
    for uid, amount in action.split if isinstance(action, Ranged) else ():  # a share goes with the hit passed on
        named[instead.get(uid, uid)] = named.get(instead.get(uid, uid), 0) + amount
    shares = divide_damage([t.uid for t in hits], value, named)
    shares = {t.uid: value for t in hits} if each >= 0 else shares  # no division (HX-POWER-14..16)
    bonus = CLOSE_BONUS[held] if isinstance(action, Close) and held else 0  # HX-OBJECT-10
    taken: dict[int, int] = {}
    for target in hits:
        dealt = shares[target.uid] + bonus + (CRITICAL_HIT_DAMAGE if critical_hit else 0)
        powerless = target.uid in state.powerless
        hurt = dealt if powerless else reduced(target, dealt, penetrating)  # HX-DAMAGE-01, HX-PAC-06
        if hurt and not penetrating and not powerless and shrugs_off(state, target):  # HX-POWER-34, -19 OPEN
            hurt = 0
        hurt = floored(attacker, dealt, hurt)  # HX-POWER-21: Precision Strike, after every reducer
        taken[target.uid] = take_damage(state, target, hurt, "attack", attacker)
    if first == second:
        chosen = dict(action.knockback)
        far_first = sorted(hits, key=lambda t: -double_base.distance(state, attacker, t))  # HX-KNOCK-05
        for target in far_first:  # HX-KNOCK-09: giants, big characters and transporters are not knocked back,
            # whoever the attacker (HX-PAC-28: not the card's "not by smaller characters")
            if (
                target.alive
                and taken[target.uid] > 0
                and not bulky(state, target)
                and target.uid not in state.transporters
            ):
                direction = way_from(state, attacker, target, chosen.get(target.uid))
                knock_back(state, attacker, target, taken[target.uid], direction)
    steal_energy(state, attacker, close and any(taken.values()))  # HX-POWER-23: once the attack has resolved
    return hits


def deals_no_damage(attacker: Figure, action: Close | Ranged | Throw | Telekinesis) -> bool:
    """Whether `attacker`'s attack is one that deals no damage (Incapacitate, HX-POWER-18; Mind Control, HX-POWER-06):
    nothing modifies its
    damage, and it deals neither critical-hit damage to a target nor the critical-miss click to the attacker
    (HX-DAMAGE-03, HX-COMBAT-05). An attacker whose damage value is 0 does not make such an attack: the 0 may be
    modified and the criticals apply; unmodified, it deals no damage (HX-DAMAGE-04)."""
    return isinstance(action, Close | Ranged) and action.use in (INCAPACITATE, MIND_CONTROL)


def damage_modifier(state: HeroState, attacker: Figure, action: Close | Ranged | Throw | Telekinesis) -> int:
    """The modifiers to the damage value of `attacker`'s attack, within the rule of 3 (HX-VALUE-05, -07): an
    expert's +1 (`damage_powers.expert_bonus`), adjacent friends' Empower or Enhancement (HX-POWER-37, -44, -45,
    -41) and the cards' (HX-FEAT-07, HX-TEAM, HX-BFC); a Telekinesis attack (a power action) has none."""
    close = isinstance(action, Close)
    friends = 0 if isinstance(action, Telekinesis) else boost(state, attacker, close)
    friends += 0 if isinstance(action, Telekinesis) else cards.modifier(state, attacker, cards.DAMAGE, close)
    return capped(expert_bonus(attacker, action) + friends)


def close_attacks(state: HeroState, attacker: Figure, action: Close) -> None:
    """A close combat action: one attack, and with Flurry a second on `then`, its own roll, if the attacker still
    shows Flurry and the target is still an opponent in reach once the first has resolved (HX-POWER-01 OPEN)."""
    attack(state, attacker, action)
    for uid in action.then:
        target = state.monsters[uid]
        if not attacker.alive or state.over or FLURRY not in attacker.powers:
            return
        reached = is_opponent(state, attacker, target) and in_close_reach(state, attacker, target)
        if target.alive and reached and not barred(state, attacker, target):  # HX-POWER-43: not after Shape Change
            attack(state, attacker, Close(attacker.uid, uid, action.knockback))
