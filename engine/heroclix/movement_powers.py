"""Powers that change how characters move (HX-POWER, read in 2005 terms): Plasticity's break-away numbers
(HX-POWER-07), Phasing/Teleport's passage through walls and blocking terrain (HX-POWER-03; the terrain and
characters it ignores besides are movement's `strides` and `leaps`), and Earthbound/Neutralized, which leaves a
character the boot speed mode while it shows: no flight, no swimming, no carrying, no transporter attack on the
move (HX-POWER-04)."""

from __future__ import annotations

from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import double_base
from clix.engine.heroclix.powers import EARTHBOUND, LEAP_CLIMB, PHASING, PLASTICITY
from clix.engine.heroclix.sides import GIANT, adjacent_opponents, size
from clix.engine.heroclix.state import HOVERING, HeroState

HYPERSONIC_SPEED = "Hypersonic Speed"
"""A power played elsewhere, named by Plasticity's text (HX-POWER-07, -10)."""
PLASTIC_BREAK_AWAY = 2
"""The lowest d6 with which a Plasticity character breaks away (HX-POWER-07)."""
HELD_BREAK_AWAY = 6
"""The lowest d6 with which a character next to an opposing Plasticity character breaks away (HX-POWER-07)."""
SLIPPERY = (PHASING, PLASTICITY, LEAP_CLIMB, HYPERSONIC_SPEED)
"""The powers that free a character from an opponent's Plasticity (HX-POWER-07)."""
WING = "wing"
BOOT = "boot"


def break_away_needed(state: HeroState, mover: Figure, usual: int) -> int:
    """The lowest d6 with which `mover` breaks away, `usual` without Plasticity about (4; a giant's 3): 2 with
    its own Plasticity; 6 when an adjacent opponent shows Plasticity, unless `mover` shows one of `SLIPPERY` or is
    a giant (HX-POWER-07, HX-SPECIAL-13), one such opponent among several being enough (HX-POWER-07 OPEN)."""
    if PLASTICITY in mover.powers:
        return min(usual, PLASTIC_BREAK_AWAY)
    if size(state, mover) == GIANT or any(power in mover.powers for power in SLIPPERY):
        return usual
    if any(PLASTICITY in foe.powers for foe in adjacent_opponents(state, mover)):
        return max(usual, HELD_BREAK_AWAY)
    return usual


def phases(character: Figure) -> bool:
    """Phasing/Teleport: its moves pass walls and blocking terrain, indoors too, though they never end on
    blocking terrain (HX-POWER-03 OPEN, the checklist's reading; HX-TERRAIN-20, -22)."""
    return PHASING in character.powers


def earthbound(character: Figure) -> bool:
    """Whether Earthbound/Neutralized shows on `character`'s dial (HX-POWER-04)."""
    return EARTHBOUND in character.powers


def speed_mode(character: Figure) -> str:
    """The speed mode `character` moves with now: the boot while Earthbound/Neutralized shows (HX-POWER-04 OPEN),
    else its own (HX-CHAR-07)."""
    return BOOT if earthbound(character) else character.stats.speed_mode


def settle_flight(state: HeroState, character: Figure) -> None:
    """A flier's flight as its dial now reads (after damage or healing, and as a position is set up): grounded
    while Earthbound/Neutralized shows, its flight mode taken away; a flier soaring above a square it cannot
    occupy (blocking terrain) lands on the nearest one it can, the first in reading order where several are as
    near (HX-POWER-04, HX-PAC-21: the opponent's choice, read so); a double-base flier lands both halves, its rear
    on the first square by index beside its new front (HX-SPECIAL-04). Once it no longer shows, the flier hovers in its
    square (HX-MOVE-12, -14)."""
    if character.stats.speed_mode != WING or not character.alive:
        return
    if not earthbound(character):
        if character.uid not in state.flight:
            state.flight[character.uid] = HOVERING
        return
    if character.uid not in state.flight:
        return
    del state.flight[character.uid]
    geometry = state.geometry
    if any(geometry.terrain[s] == BLOCKING for s in double_base.squares(state, character)):
        taken = double_base.spots(state, (c for c in state.standing() if c.uid != character.uid))
        free = [s for s in range(len(geometry.terrain)) if geometry.terrain[s] != BLOCKING and s not in taken]
        double = character.uid in state.rears  # HX-SPECIAL-04: both halves land, side by side at one elevation
        if double:
            free = [s for s in free if double_base.partners(state, s, free)]
        if free:
            front = min(free, key=lambda s: (geometry.distance(character.pos, s), s))
            double_base.put(state, character, front, double_base.partners(state, front, free)[0] if double else -1)
