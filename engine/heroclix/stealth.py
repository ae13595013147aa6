"""Stealth (HX-POWER-11, read in 2005 terms): when it is not its controller's turn, a line of fire drawn to a
Stealth character by a character not adjacent to it, that would be hindered, is blocked instead, for attacks and
targeted powers alike. "Hindered" is the 2005 hindering terrain modifier (HX-PAC-05), so a soaring character, an
attacker firing from the edge of its own hindering square, and an elevated attacker whose target stands outside
hindering terrain are not hindered, and Stealth does not block them."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import teams
from clix.engine.heroclix.powers import STEALTH
from clix.engine.heroclix.sides import adjacency
from clix.engine.heroclix.state import HeroState


def hidden(state: HeroState, viewer: Figure, target: Figure) -> bool:
    """Whether Stealth blocks a hindered line of fire from `viewer` to `target`: `target` shows Stealth or its team
    ability lets it use Stealth (HX-TEAM-10 OPEN), it is not its controller's turn, and `viewer` is not adjacent
    to it (as for ranged combat: one square, HX-SPECIAL-10)."""
    stealthy = STEALTH in target.powers or teams.grants(state, target, STEALTH)
    return stealthy and state.active != target.controller and adjacency(state, viewer, target) != 1
