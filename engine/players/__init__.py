"""Players choose among the options the engine lists; they never change the game state themselves."""

from engine.players.base import Agent, Decision
from engine.players.random_player import RandomAgent

__all__ = ["Agent", "Decision", "RandomAgent"]
