"""HorrorClix's players: the heuristic (`heuristic`, its weights and position features) and the search player
(`search`, over the heuristic's best options, with `lookahead`)."""

from clix.engine import compiled

compiled.extend(__path__, "horrorclix/players")
