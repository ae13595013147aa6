"""clix rules engine: HorrorClix data model, rules and game state."""

RULESET_VERSION = "horrorclix-001-faq"
