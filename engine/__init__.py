"""clix rules engine: HorrorClix data model, rules and game state."""

from clix.engine import compiled as _compiled

RULESET_VERSION = "horrorclix-001-faq"

_compiled.activate(__path__)  # the compiled modules, when built and matching these sources (engine/compiled.py)
