"""The baseline player: uniformly random among the legal options."""

from __future__ import annotations

from typing import Any

import numpy as np
from clix.engine.core.players.base import Decision
from clix.engine.core.state import State


class RandomAgent:
    """Picks uniformly at random with its own seeded generator (so its choices replay from the seed)."""

    name = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __reduce__(self) -> tuple[Any, ...]:
        return (RandomAgent, (self.rng,))

    def choose(self, state: State, decision: Decision) -> int:
        return int(self.rng.integers(len(decision.options)))
