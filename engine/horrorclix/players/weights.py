"""The heuristic players' styles: the weights one scoring is played with (`Weights`), the tuned default
(docs/tuning.md) and the deliberate deviations from it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from clix.engine.core.players.weighted import deviation, weights_reduce


@dataclass(frozen=True)
class Weights:
    """How much a style values each kind of gain (all in expected victory points)."""

    victims: float = 1.0
    kills: float = 1.0
    threat: float = 1.0
    approach: float = 0.4
    noise: float = 0.05
    pressure: float = 0.5
    """The share of next turn's best attack (from where a monster ends) credited now: closing in on an enemy
    is worth what it sets up, as the threat it walks into is what it risks."""
    tempo: float = 0.2
    """The cost of a second action token, as a share of one action and of the attack it puts off: a monster
    that cannot act next turn (HC-TURN-01, HC-TURN-03) acts a turn later, stuck and vulnerable meanwhile
    (HC-TURN-04)."""
    lockout: float = 0.5
    """The cost of an action after which none of my monsters could act next turn (every one would carry two
    tokens, HC-TURN-03): a turn lost whole, in victims' worth per action of a turn (HC-TURN-02, HC-END-07)."""
    urgency: float = 1.0
    """How strongly the score reshapes play once the victims are gone: a side behind hunts, one ahead
    holds back (0: plays the same whatever the score)."""
    hold: float = 0.6
    """What keeping a plot twist for a later window is worth, as a share of what it can do there."""

    def __reduce__(self) -> tuple[Any, ...]:
        return weights_reduce(self)


TUNED = Weights(
    victims=0.8,
    kills=1.677,
    threat=0.541,
    approach=0.32,
    pressure=0.234,
    tempo=0.161,
    lockout=0.39,
    urgency=1.465,
    hold=0.445,
)
"""The weights found by self-play tuning (docs/tuning.md: the commands, their budget and their results)."""


DEFAULT_STYLE = "tuned"
"""The style clix plays when none is named: the tuned weights."""

STYLES: dict[str, Weights] = {
    "tuned": TUNED,
    "balanced": Weights(),  # the hand-set weights the tuning started from, every gain at par
    # Deliberate deviations from the tuned weights, to see how a result depends on play style. Near the tuned
    # weights the landscape is flat (docs/tuning.md), so each moves far enough to play differently.
    "rusher": deviation(TUNED, victims=2.0, kills=0.5, threat=0.5, approach=2.0),  # victims first
    "hunter": deviation(TUNED, victims=0.5, kills=2.0, threat=0.6, pressure=2.0),  # kills first
}


@cache
def with_weights(name: str, **changes: float) -> Weights:
    """A style's weights with some changed (for sensitivity runs)."""
    return replace(STYLES[name], **changes)
