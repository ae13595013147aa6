"""HorrorClix (000/001 with the FAQ and errata) as a ruleset of the engine's core: its state, rules, legality,
movement, combat, plot twists, cards, subplots, monsters and victims, setup, powers and registries, its data
formats (`roster`), its scenario harness and its players (the heuristic and the search). `ruleset.load()`
builds the `Ruleset` object the core reaches it through."""

from clix.engine import compiled

compiled.extend(__path__, "horrorclix")
