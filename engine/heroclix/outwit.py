"""Outwit's counters (HX-POWER-47, read in 2005 terms): a countered power is removed from the character's dial
until the beginning of the Outwit player's next turn (HX-EFFECT-04, HX-PAC-17), on every click, so a power not
showing when it was chosen stays off if it comes up later (HX-POWER-47 OPEN). Kept as the core's lasting effects
(`state.lasting`); the character's stats are swapped for a copy without the countered powers, its printed stats
kept in `state.printed` until the last counter on it ends. The countered power's effect ends at once (HX-EFFECT-04,
-05): a Super Strength character drops its object, an Earthbound/Neutralized flier hovers again."""

from __future__ import annotations

from dataclasses import replace

from clix.engine.core.pieces import Figure, Lasting
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.movement_powers import settle_flight
from clix.engine.heroclix.objects import lay, strong
from clix.engine.heroclix.powers import OUTWIT
from clix.engine.heroclix.state import HeroState

COUNTERED = "countered"
"""The `stat` of a lasting effect that counters a power (its `source` is the power's name)."""


def counter(state: HeroState, target: Figure, power: str, player: int) -> None:
    """Player `player`'s Outwit counters `power` on `target` until the beginning of its next turn."""
    state.lasting = [*state.lasting, Lasting(COUNTERED, 0, power, monster=target.uid, until_turn_of=player)]
    state.emit(EventKind.OUTWITTED, character=target.label, power=power, by=OUTWIT)
    _show(state, target)


def expire(state: HeroState, player: int) -> None:
    """At the beginning of `player`'s turn the powers its Outwit countered come back (HX-PAC-17, HX-TURN-03)."""
    ending = [m for m in state.lasting if m.stat == COUNTERED and m.until_turn_of == player]
    if not ending:
        return
    state.lasting = [m for m in state.lasting if not (m.stat == COUNTERED and m.until_turn_of == player)]
    for uid in sorted({m.monster for m in ending if m.monster is not None}):
        _show(state, state.monsters[uid])


def _show(state: HeroState, figure: Figure) -> None:
    """`figure`'s dial without the powers countered on it now, and what their loss ends (HX-EFFECT-04, -05)."""
    printed = state.printed.get(figure.uid, figure.stats)
    gone = {m.source for m in state.lasting if m.stat == COUNTERED and m.monster == figure.uid}
    if gone:
        state.printed[figure.uid] = printed
        tables = {
            side: tuple({name: spec for name, spec in click.items() if name not in gone} for click in clicks)
            for side, clicks in printed.powers.items()
        }
        figure.stats = replace(printed, powers=tables)
    else:
        state.printed.pop(figure.uid, None)
        figure.stats = printed
    if not figure.alive:
        return
    if figure.uid in state.holding and not strong(figure):  # HX-OBJECT-07: dropped where it stands
        lay(state, state.holding.pop(figure.uid), figure.pos)
        state.emit(EventKind.DROPPED, character=figure.label)
    settle_flight(state, figure)  # HX-POWER-04: Earthbound/Neutralized countered, or back
