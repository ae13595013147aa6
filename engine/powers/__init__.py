"""The handlers of the registered powers (engine.registry.powers): importing this package registers
every one of them with `engine.effects.register`, so the rules find them through the effect hooks."""

from clix.engine.powers import (
    combat,  # noqa: F401  Slash, Feast, Stamina, Dodge, Pounce, Lure...
    special,  # noqa: F401  Insanity, Injection, Possession, Raise Minion, Grave, cabal powers
)
