"""The engine's core: what every ruleset's game runs on and nothing of any one game.

The state and its copies (`state`), the pieces (`pieces`), the stepping and decisions, the driver, the dice,
grid geometry and walls (`geometry`, `board`), the dial notation (`dial`), the effect hooks (`effects`), the
`Ruleset` object a game's rules come as (`ruleset`), and the players every game has (`players`: the player
interface and the random player). A ruleset (`engine.horrorclix`, tests/duel_ruleset.py) imports the core; the
core imports no ruleset (the import contract in pyproject.toml, docs/architecture.md).
"""

from clix.engine import compiled

compiled.extend(__path__, "core")
