"""Leadership (HX-POWER-48, read in 2005 terms): (a) while one of its characters shows Leadership, a player's
action total is +1, once however many show it (HX-PAC-15; HX-POWER-48 OPEN: checked at the beginning of the turn,
after the effects of the beginning, so an extra action lasts the turn even if the power is lost, and an unused one
is lost like any other, HX-TURN-07); (b) at the beginning of its controller's turn each Leadership character rolls
a d6 and on 5-6 removes an action token from an adjacent friendly character with fewer points (HX-PAC-12: points
only), its player choosing which."""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.core.pieces import Figure
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.powers import LEADERSHIP
from clix.engine.heroclix.sides import adjacency, team
from clix.engine.heroclix.state import HeroState

EXTRA_ACTIONS = 1
"""Actions a turn added while a character of the player shows Leadership (HX-POWER-48 (a))."""
LEADERSHIP_AT = 5
"""The lowest d6 with which Leadership removes an action token (HX-POWER-48 (b))."""


def extra_actions(state: HeroState) -> int:
    """The actions Leadership adds to the active player's turn now: one when any of its characters shows it."""
    leads = any(c.controller == state.active and LEADERSHIP in c.powers for c in state.standing())
    return EXTRA_ACTIONS if leads else 0


def helped(state: HeroState, leader: Figure) -> list[Figure]:
    """The characters `leader`'s roll may take a token from: friendly, adjacent (one square, as for Support),
    fewer points, holding a token; in the order the characters were placed."""
    side = team(state, leader.controller)
    return [
        c
        for c in state.standing()
        if c.uid != leader.uid
        and c.tokens
        and team(state, c.controller) == side
        and c.stats.points < leader.stats.points
        and adjacency(state, leader, c) == 1
    ]


def roll_for_tokens(state: HeroState) -> None:
    """Each of the active player's Leadership characters with a character to help rolls a d6, in the order the
    characters were placed; on 5-6 its player chooses one of them, which loses an action token (HX-POWER-48 (b))."""
    for leader in state.standing():
        if leader.controller != state.active or LEADERSHIP not in leader.powers:
            continue
        friends = helped(state, leader)
        if not friends:
            continue
        roll = decisions.d6(state)
        state.emit(EventKind.LEADERSHIP_ROLL, character=leader.label, roll=roll, succeeded=roll >= LEADERSHIP_AT)
        if roll >= LEADERSHIP_AT:
            options = [c.uid for c in friends]
            chosen = decisions.ask(state, "leadership", state.active, options, leader.label, leader.uid, always=True)
            state.monsters[chosen].tokens -= 1
