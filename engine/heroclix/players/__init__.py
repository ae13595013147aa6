"""HeroClix's players: the heuristic (`heuristic`), its weights (`weights`) and what it reads off a position
(`position`)."""

from clix.engine import compiled

compiled.extend(__path__, "heroclix/players")
