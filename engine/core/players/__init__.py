"""Players choose among the options the engine lists; they never change the game state themselves. The core's
players: the interface every player implements and the random player."""

from clix.engine import compiled

compiled.extend(__path__, "core/players")

from clix.engine.core.players.base import Agent, Decision  # noqa: E402  (after the search path is set)
from clix.engine.core.players.random_player import RandomAgent  # noqa: E402

__all__ = ["Agent", "Decision", "RandomAgent"]
