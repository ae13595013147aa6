"""The HeroClix heuristic's styles: the weights one scoring is played with (`Weights`), the tuned default
(docs/tuning.md, "HeroClix") and the deliberate deviations from it. Every weight scales a gain or a cost counted
in expected victory points (a character's point value, HX-END-05, -07)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clix.engine.core.players.weighted import deviation, weights_reduce


@dataclass(frozen=True)
class Weights:
    """How much a style values each kind of gain (all in expected victory points)."""

    damage: float = 1.0
    """Clicks dealt, each worth its share of the target's points (points over its live clicks): a wounded
    character fights with a weaker dial and is nearer its KO."""
    kills: float = 1.0
    """A KO: the target's points scored at once (HX-END-05; double for an archenemy, HX-END-06)."""
    threat: float = 1.0
    """What the opponents can deal next turn to a character where an option leaves it, from where they stand
    (their range or adjacency), less what they can deal where it stands now."""
    reach: float = 0.3
    """The share of the threat counted from opponents that must move first to reach a square (their speed plus
    range or adjacency): they can be there next turn and attack the turn after."""
    pressure: float = 0.5
    """The share of next turn's best attack, from where a character ends, credited now (less the pushing it
    would cost then, HX-TURN-11)."""
    approach: float = 0.3
    """Closing in on the nearest square from which a character can attack, when it cannot attack yet: a full
    move's progress is worth this share of its best attack."""
    close: float = 1.0
    """A multiplier on the value of close combat attacks (and on the pressure of standing adjacent)."""
    push: float = 1.0
    """The cost of pushing (HX-TURN-11, -12, -14): the click of pushing damage (the whole character when it is
    on its last click) and the action it then cannot take next turn (HX-TURN-13)."""
    tempo: float = 0.3
    """The share of a character's best attack lost when it cannot act next turn (two tokens, HX-TURN-06, -13)."""
    heal: float = 1.0
    """Clicks healed (Support, Regeneration), each worth its share of the character's points."""
    urgency: float = 1.0
    """How strongly the score reshapes play in the last rounds (HX-END-07, -11): a side behind takes risks, a
    side ahead keeps out of reach (0: plays the same whatever the score)."""
    noise: float = 0.3
    """Seeded noise, in victory points: options scored within it of the best may be chosen (it breaks ties)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return weights_reduce(self)


TUNED = Weights(
    damage=1.473,
    kills=0.604,
    threat=1.91,
    reach=0.184,
    pressure=0.449,
    approach=0.393,
    close=1.614,
    push=0.928,
    tempo=0.36,
    heal=0.987,
    urgency=0.824,
)
"""The weights found by self-play tuning (docs/tuning.md, "HeroClix": the commands, their budget and results)."""


DEFAULT_STYLE = "tuned"
"""The style clix plays HeroClix with when none is named: the tuned weights."""

STYLES: dict[str, Weights] = {
    "tuned": TUNED,
    "balanced": Weights(),  # the hand-set weights the tuning started from, every gain at par
    # Deliberate deviations from the tuned weights, to see how a result depends on play style.
    "brawler": deviation(TUNED, close=1.8, threat=0.4, reach=0.5, approach=2.5, pressure=1.5),
    "cautious": deviation(TUNED, threat=2.5, reach=2.5, approach=0.4, pressure=0.6),
}
