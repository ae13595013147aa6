"""Players choose among the options the engine lists; they never change the game state themselves."""

from clix.engine import compiled

compiled.extend(__path__, "players")

from clix.engine.players.base import Agent, Decision  # noqa: E402  (after the search path is set)
from clix.engine.players.random_player import RandomAgent  # noqa: E402

__all__ = ["Agent", "Decision", "RandomAgent"]
