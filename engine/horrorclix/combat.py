"""Combat: attack rolls, hits, damage layers, kills, healing and line of fire (HC-COMBAT, HC-VALUE)."""

from __future__ import annotations

from clix.engine.core import decisions, effects
from clix.engine.core.geometry import BLOCKING, HINDERING
from clix.engine.core.pieces import divide_damage
from clix.engine.horrorclix import cards
from clix.engine.horrorclix.actions import AttackKind
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.state import HOVERING, ON_MAP, SOARING, GameState, Monster, VictimState

SMASH_TARGET = 13  # HC-TERRAIN-16, HC-TERRAIN-18


def roll_2d6(state: GameState) -> tuple[int, int]:
    return decisions.d6(state), decisions.d6(state)


def neighbours(state: GameState, pos: int, moving: Monster | None = None) -> tuple[int, ...] | list[int]:
    """Spaces whose pieces are adjacent to a piece at `pos` (geometry's `piece_neighbours`), leaving out
    those a closed doorway cuts off: a closed doorway is blocking terrain, so pieces on its two sides are
    not adjacent (HC-TERRAIN-28), nor pieces diagonal across its end where blocking terrain or a wall shuts
    the other way round (001 §6, designers via TDO 09/07/06). `moving` (a monster still on its way) does not
    close doorways: it occupies a space only when its move ends (HC-TERRAIN-27)."""
    geo = state.geometry
    found = geo.piece_neighbours[pos]
    if not state.portals():
        return found
    # Only a doorway with a side within one space of `pos` can cut one of its adjacencies.
    portals = [
        o
        for o in state.objects
        if o.kind == "portal" and o.alive and min(geo.distance(pos, o.pos), geo.distance(pos, o.across)) <= 1
    ]
    if not portals:
        return found
    occupied = {m.pos for m in state.monsters if m.alive and m is not moving}
    occupied.update(v.pos for v in state.victims if v.state == ON_MAP)
    doors = {(min(o.pos, o.across), max(o.pos, o.across)) for o in portals if o.pos in occupied or o.across in occupied}
    if not doors:
        return found
    return [n for n in found if not geo.separated(pos, n, doors)]


def adjacent(state: GameState, a: int, b: int) -> bool:
    return b in neighbours(state, a)


def engaged(state: GameState, monster: Monster) -> list[Monster]:
    """Opposing monsters adjacent at the same elevation (HC-COMBAT-15, HC-MOVE-22 as decided)."""
    near = neighbours(state, monster.pos)
    soaring = monster.flight == SOARING
    return [
        m
        for m in state.monsters
        if m.alive and m.pos in near and (m.flight == SOARING) == soaring and state.opposing(monster, m)
    ]


def line_of_fire(state: GameState, attacker: Monster, target: Monster) -> tuple[bool, bool, str]:
    """(clear, hindering modifier applies, why blocked) for a ranged attack (HC-COMBAT-18..21)."""
    geo = state.geometry
    ray = geo.ray(attacker.pos, target.pos)
    if attacker.soaring or target.soaring:
        # HC-COMBAT-20: only soaring monsters block lines to or from a soaring monster; terrain,
        # grounded monsters and victims do not. Hindering counts only in a grounded target's own space.
        blockers = {m.pos for m in _blockers(state, attacker, target) if m.soaring}
        if any(c in blockers for c in ray.cells) or any(a in blockers and b in blockers for a, b in ray.corners):
            return False, False, "a soaring monster blocks the line of fire (HC-COMBAT-20)"
        return True, not target.soaring and geo.terrain[target.pos] == HINDERING, ""
    if ray.walled:
        return False, False, "a wall blocks the line of fire (HC-TERRAIN-12)"
    if ray.blocked_by_terrain:
        return False, False, "blocking terrain blocks the line of fire (HC-TERRAIN-10, -11)"
    pieces = {m.pos for m in _blockers(state, attacker, target) if not m.soaring}
    pieces.update(v.pos for v in state.victims if v.state == ON_MAP)
    if any(c in pieces for c in ray.cells):
        return False, False, "a monster or victim blocks the line of fire (HC-COMBAT-18)"
    if any(a in pieces and b in pieces for a, b in ray.corners):
        return False, False, "the line passes between two adjacent pieces (HC-COMBAT-19)"
    if any(p in pieces for p in ray.blocking_corner_partners):
        return False, False, "the line passes between blocking terrain and a piece (HC-TERRAIN-11)"
    for obj in state.objects:
        if not obj.alive:
            continue
        if obj.kind == "portal":
            edge = (min(obj.pos, obj.across), max(obj.pos, obj.across))
            if edge in ray.edges and portal_closed(state, obj.pos, obj.across):
                return False, False, "a closed portal blocks the line of fire (HC-TERRAIN-15)"
        elif state.geometry.adjacent(obj.pos, target.pos) and (
            obj.pos in ray.cells or any(_corner_blocked(state, obj.pos, c, pieces, target.pos) for c in ray.corners)
        ):
            return False, False, f"the {obj.kind} next to the target blocks the line of fire (HC-TERRAIN-17, -32)"
    hindering = ray.hindering or any(p in pieces for p in ray.hindering_corner_partners)
    return True, hindering, ""


def _blockers(state: GameState, attacker: Monster, target: Monster) -> list[Monster]:
    """Monsters that can block a line of fire; an intangible one does not (HC-HOURGLASS-04)."""
    return [m for m in state.monsters if m.alive and not m.intangible and m is not attacker and m is not target]


def _corner_blocked(state: GameState, space: int, corner: tuple[int, int], pieces: set[int], target: int) -> bool:
    """A tombstone or Tree next to the target is blocking terrain for the line (HC-TERRAIN-17, -32), so a line
    through the corner between it and a piece or other blocking terrain is blocked (HC-TERRAIN-11)."""
    if space not in corner:
        return False
    other = corner[1] if corner[0] == space else corner[0]
    return (
        other in pieces
        or state.geometry.terrain[other] == BLOCKING
        or any(
            o.alive and o.kind != "portal" and o.pos == other and state.geometry.adjacent(other, target)
            for o in state.objects
        )
    )


def portal_closed(state: GameState, a: int, b: int) -> bool:
    """A portal is closed while a monster or victim occupies either doorway space (HC-TERRAIN-14, -26)."""
    return any(m.alive and m.pos in (a, b) for m in state.monsters) or any(
        v.state == ON_MAP and v.pos in (a, b) for v in state.victims
    )


def attack(
    state: GameState, attacker: Monster, targets: list[Monster], kind: str, split: dict[int, int] | None = None
) -> None:
    """Resolve one attack roll against one or more targets (HC-COMBAT-04, -12, -13, -22, -23).

    `kind` is close, frenzy or ranged. `split` divides the damage among ranged targets by uid.
    """
    dice = effects.after_attack_roll(state, attacker, targets, roll_2d6(state))  # reroll cards (HC-PLOT-12)
    d1, d2 = dice
    critical_hit = d1 == 6 and d2 == 6
    critical_miss = d1 == 1 and d2 == 1
    no_damage = effects.any_handler(state, attacker, "deals_no_damage", kind)  # HC-COMBAT-07
    hits: list[Monster] = []
    for target in targets:
        q = effects.Query(attacker, target, kind)
        soaring_bonus = (
            2 if kind == AttackKind.RANGED and target.soaring and not attacker.soaring else 0
        )  # HC-COMBAT-25
        value = effects.stat(state, attacker, "attack", q, extra=soaring_bonus)
        hindering = (
            kind == AttackKind.RANGED
            and line_of_fire(state, attacker, target)[1]
            and not effects.any_handler(state, attacker, "ignores_hindering", kind)  # Sure Shot
        )
        defense = effects.stat(state, target, "defense", q, extra=1 if hindering else 0)  # HC-TERRAIN-06
        hit = critical_hit or (not critical_miss and d1 + d2 + value >= defense)
        state.emit(
            EventKind.ATTACK,
            attacker=attacker.label,
            target=target.label,
            action=kind,
            dice=(d1, d2),
            attack=value,
            defense=defense,
            hit=hit,
        )
        if hit and effects.any_handler(state, target, "evades", attacker, kind):  # HC-COMBAT-26, -31
            state.emit(EventKind.EVADED, monster=target.label, attacker=attacker.label)
            hit = False
        if hit:
            hits.append(target)
    if critical_hit:
        state.emit(EventKind.CRITICAL_HIT, attacker=attacker.label)
    if critical_miss:
        state.emit(EventKind.CRITICAL_MISS, attacker=attacker.label)
        if not no_damage:
            take_damage(state, attacker, 1, source=None, unpreventable=True)  # HC-COMBAT-12
    if not hits:
        return
    if no_damage:
        for target in hits:
            effects.fire(state, attacker, "hit", target, kind, 0)
        return
    q = effects.Query(attacker, hits[0], kind)
    base = 1 if kind == AttackKind.FRENZY else None  # HC-SLAY-08: frenzy damage becomes 1, powers may change it
    damage = effects.stat(state, attacker, "damage", q, base=base, resolving=True)
    shares = divide_damage([t.uid for t in hits], damage, split)
    penetrating = effects.any_handler(state, attacker, "penetrating", kind)
    unpreventable = effects.any_handler(state, attacker, "unpreventable", kind)
    for target in hits:
        dealt = shares[target.uid] + (1 if critical_hit else 0)  # HC-COMBAT-13
        if not target.alive:
            continue
        if any(h.instead_of_damage(state, attacker, target, kind, p) for h, p, _ in effects.in_effect(state, attacker)):
            continue  # the hit does something else instead of damage (Shriek)
        if unpreventable:
            taken = take_damage(state, target, dealt, source=attacker, unpreventable=True)
        else:
            taken = deal_damage(state, target, dealt, source=attacker, penetrating=penetrating)
        if kind == AttackKind.RANGED and target.soaring and not attacker.soaring and taken > 0 and target.alive:
            take_damage(state, target, 1, source=attacker, unpreventable=True)  # HC-COMBAT-25
            target.flight = HOVERING
            state.emit(EventKind.KNOCKED_TO_HOVERING, monster=target.label)
        if taken > 0 and attacker.alive:
            effects.fire(state, attacker, "hit", target, kind, taken)


def deal_damage(
    state: GameState, target: Monster, amount: int, source: Monster | None, penetrating: bool = False
) -> int:
    """Damage dealt, reduced by the target's reducers unless penetrating (HC-COMBAT-27, -29); returns taken."""
    if not penetrating:
        amount = effects.reduce_damage(state, target, amount)
    return take_damage(state, target, max(0, amount), source)


def take_damage(
    state: GameState, target: Monster, amount: int, source: Monster | None, unpreventable: bool = False
) -> int:
    """Click the dial once per point taken; three skulls kill (HC-COMBAT-05, -11)."""
    taken = 0
    for _ in range(amount):
        if not target.alive:
            break
        target.click += 1
        target.damage_taken += 1
        taken += 1
        if target.minion or target.stats.killed[target.click]:
            kill(state, target, source)
    if taken:
        state.emit(
            EventKind.DAMAGE,
            monster=target.label,
            amount=taken,
            unpreventable=unpreventable,
            by=source.label if source else None,
        )
    if taken and target.alive:
        effects.fire(state, target, "damaged", source, taken)
    return taken


def kill(state: GameState, monster: Monster, killer: Monster | None) -> None:
    """Remove a killed monster and the victims on its card; score its points (HC-END-04, -05, -14)."""
    monster.alive = False
    for victim in state.victims:
        if victim.uid in monster.victims:
            victim.state = VictimState.REMOVED
    points = 0
    scorer = None
    if killer is not None and not state.in_hourglass_phase and state.opposing(killer, monster):
        scorer = killer.controller
    elif killer is None and state.scoring_player is not None:
        # HC-END-15 OPEN: a plot twist's damage scores for the card's player (docs/rulings.md)
        team = state.player(state.scoring_player).team
        scorer = state.scoring_player if state.player(monster.controller).team != team else None
    if scorer is not None:
        # HC-SPECIAL-06 OPEN: minions score 0; HC-END-06: an insane or possessed monster scores 0
        points = 0 if monster.minion or monster.insane or monster.puppet_of is not None else monster.stats.points
        state.vp[scorer]["kills"] += points
    state.emit(EventKind.KILLED, monster=monster.label, by=killer.label if killer else None, player=scorer, vp=points)
    if killer is not None and killer.alive:
        effects.fire(state, killer, "kill", monster)
    cards.after_kill(state, killer, monster)  # a kill toward the killer's transformation (HC-CARD-09)
    effects.fire_all(state, "any_kill", killer, monster)  # cabal powers that watch their members (Cabal Feast)


def heal_floor(monster: Monster) -> int:
    """The furthest click healing may turn the dial back to: the starting line, never back over skulls
    (HC-COMBAT-10); a monster that started on its red line may heal up to its green line (issue 4:
    "not past the green line unless the card allows"; docs/rulings.md)."""
    floor = min(monster.start_line, monster.stats.start)
    for index in range(monster.click - 1, floor - 1, -1):
        if monster.stats.killed[index]:
            return index + 1
    return floor


def heal(state: GameState, monster: Monster, amount: int) -> int:
    """Heal up to `amount` clicks, never past the starting line nor back over skulls (HC-COMBAT-10)."""
    healed = max(0, min(amount, monster.click - heal_floor(monster)))
    monster.click -= healed
    monster.damage_taken -= healed
    if healed:
        state.emit(EventKind.HEALED, monster=monster.label, amount=healed)
    return healed


def smash(state: GameState, attacker: Monster, obj_label: str) -> bool:
    """Attack a portal or tombstone: a total of 13 or more smashes it (HC-TERRAIN-16, -18; crits per rulings)."""
    d1, d2 = roll_2d6(state)
    total = d1 + d2 + attacker.attack
    smashed = (d1 == 6 and d2 == 6) or (not (d1 == 1 and d2 == 1) and total >= SMASH_TARGET)
    state.emit(EventKind.SMASH, attacker=attacker.label, target=obj_label, dice=(d1, d2), total=total, smashed=smashed)
    if d1 == 1 and d2 == 1:
        state.emit(EventKind.CRITICAL_MISS, attacker=attacker.label)
        take_damage(state, attacker, 1, source=None, unpreventable=True)
    return smashed


# --- breaking away, and what a mover uncovers ------------------------------------------------------

BREAK_AWAY = 4  # a d6 of 4-6 breaks away (HC-MOVE-06)


def must_break_away(state: GameState, mover: Monster) -> list[Monster]:
    """Opposing monsters the mover must break away from before moving (HC-MOVE-06, HC-HOURGLASS-02)."""
    return [m for m in engaged(state, mover) if not m.immovable]


def auto_breaks_away(mover: Monster) -> bool:
    return bool(mover.abilities & {"Ghost", "Leap/Climb"})  # HC-MOVE-19


def flip_victims_near(state: GameState, space: int, mover: Monster | None = None) -> None:
    """Face-down victims flip as soon as a monster moves adjacent (HC-VICTIM-05): adjacent as pieces are, so
    not across a wall or a closed doorway (HC-MOVE-01, HC-TERRAIN-28)."""
    near = neighbours(state, space, moving=mover)
    for victim in state.victims:
        if victim.state == ON_MAP and not victim.face_up and (victim.pos in near or victim.pos == space):
            victim.face_up = True
            state.emit(EventKind.VICTIM_FLIPPED, victim=victim.label, archetype=victim.archetype)


def puppets_in_hourglass_phase(state: GameState) -> None:
    """In the active player's hourglass phase, after the hourglass damage: each puppet they control takes
    1 unpreventable damage and is given action tokens up to two (HC-SPECIAL-10)."""
    for m in state.monsters:
        if m.alive and m.puppet_of == state.active and m.controller == state.active:
            state.emit(EventKind.PUPPET_DAMAGE, monster=m.label)
            take_damage(state, m, 1, source=None, unpreventable=True)
            if m.alive:
                m.tokens = max(m.tokens, 2)
