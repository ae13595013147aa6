"""The handlers of HorrorClix's powers (engine.horrorclix.registry.powers). Importing them registers nothing: the HorrorClix
ruleset gathers them when it is loaded (`engine.horrorclix.ruleset.load`, through `handlers`)."""

from clix.engine.core.effects import PowerHandler, handlers_in
from clix.engine.horrorclix.powers import combat, special


def handlers() -> dict[str, PowerHandler]:
    """A handler of each HorrorClix power, by power name: Slash, Feast, Stamina... (combat), Insanity, Injection,
    Possession, Raise Minion, Grave and the cabal powers (special)."""
    return handlers_in(combat, special)
