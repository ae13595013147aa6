"""Probability Control (HX-POWER-42, read in 2005 terms): once per turn (HX-PAC-17: each player's turn), its
controller may make a character within range, counting at least 6, and line of fire of the Probability Control
character (HX-PAC-03; never itself, HX-EFFECT-07) reroll an attack roll or a break-away roll it has just made, its
own side's or an opponent's, in any player's turn; the new result stands. Played as the ruleset's roll responder
(`Ruleset.roll_responders`), which the attack roll (`combat.attack`) and the break-away roll (`movement.move`)
call as soon as they are rolled. The active player is asked first, then the others in turn order (HX-PAC-22), each
choosing one of its characters that may, or none; a roll is rerolled once at most (HX-POWER-42 OPEN a). Support's
and other rolls are not covered (OPEN b)."""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.core.pieces import Figure
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.powers import PROBABILITY_CONTROL
from clix.engine.heroclix.state import HeroState
from clix.engine.heroclix.targeted import in_sight

ATTACK_ROLL = "attack"
BREAK_AWAY_ROLL = "break_away"


def respond(state: HeroState, roller: Figure, targets: tuple[Figure, ...], dice: tuple[int, ...]) -> tuple[int, ...]:
    """The roll `roller` just made, `dice`, as it stands once each player has had the chance to have it rerolled:
    an attack roll against `targets`, or a break-away roll (no targets, one die)."""
    roll = ATTACK_ROLL if targets else BREAK_AWAY_ROLL
    numbers = sorted(p.number for p in state.players)
    at = numbers.index(state.active) if state.active in numbers else 0
    for player in numbers[at:] + numbers[:at]:
        users = [c.uid for c in rerollers(state, roller) if c.controller == player]
        if not users:
            continue
        pick = decisions.ask(state, "reroll", player, [None, *users], roller.label, (roller.uid, roll))
        if pick is None:
            continue
        state.free_used.add((pick, PROBABILITY_CONTROL))
        again = tuple(decisions.d6(state) for _ in dice)
        state.emit(EventKind.REROLL, character=roller.label, by=state.monsters[pick].label, roll=roll, dice=again)
        return again
    return dice


def rerollers(state: HeroState, roller: Figure) -> list[Figure]:
    """The characters that may make `roller` reroll now: showing Probability Control, not used this turn, able to
    use powers (not in a Pulse Wave), not `roller` itself, with `roller` within range and line of fire."""
    return [
        c
        for c in state.standing()
        if PROBABILITY_CONTROL in c.powers
        and c.uid != roller.uid
        and (c.uid, PROBABILITY_CONTROL) not in state.free_used
        and c.uid not in state.powerless
        and not in_sight(state, c, roller)
    ]
