"""Hooks through which powers change the rules, so no power is a special case inside the engine.

A power registers a `PowerHandler` under its registry name (engine.registry.powers); the engine
asks the handlers of the powers a monster shows at fixed points: attack and defense modifiers,
damage replacements and reductions, and events (hit, slay, kill, turn start). With no handler
registered a power changes nothing, and `unsupported_powers` says so, so reports can tell users.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.state import GameState, Monster

Params = dict[str, Any]


class PowerHandler:
    """Base handler: every hook does nothing. Subclasses override what their power changes."""

    def attack_modifier(self, state: GameState, attacker: Monster, target: Monster, kind: str, p: Params) -> int:
        return 0

    def defense_modifier(self, state: GameState, attacker: Monster, target: Monster, kind: str, p: Params) -> int:
        return 0

    def damage_replacement(
        self, state: GameState, attacker: Monster, target: Monster, kind: str, value: int, p: Params
    ) -> int | None:
        return None

    def damage_reduction(self, state: GameState, target: Monster, amount: int, p: Params) -> int:
        return 0

    def on_hit(self, state: GameState, attacker: Monster, target: Monster, kind: str, taken: int, p: Params) -> None:
        return None

    def on_slay(self, state: GameState, monster: Monster, p: Params) -> None:
        return None

    def on_kill(self, state: GameState, killer: Monster, killed: Monster, p: Params) -> None:
        return None

    def on_turn_start(self, state: GameState, monster: Monster, p: Params) -> None:
        return None


HANDLERS: dict[str, PowerHandler] = {}


def register(name: str):  # type: ignore[no-untyped-def]
    """Class decorator: `@register("Slash")` makes the class the handler of that power."""

    def wrap(cls: type[PowerHandler]) -> type[PowerHandler]:
        HANDLERS[name] = cls()
        return cls

    return wrap


def unsupported_powers(names: set[str]) -> set[str]:
    """Of `names`, the powers the engine plays with no effect yet."""
    return {n for n in names if n not in HANDLERS}


def rule_of_three(total: int) -> int:
    """Modifiers on one combat value together stay within -3..+3 (HC-VALUE-05)."""
    return max(-3, min(3, total))


def attack_modifiers(state: GameState, attacker: Monster, target: Monster, kind: str) -> int:
    total = 0
    for name, params in attacker.powers.items():
        handler = HANDLERS.get(name)
        if handler is not None:
            total += handler.attack_modifier(state, attacker, target, kind, params)
    return total


def defense_modifiers(state: GameState, attacker: Monster, target: Monster, kind: str) -> int:
    total = 0
    for name, params in target.powers.items():
        handler = HANDLERS.get(name)
        if handler is not None:
            total += handler.defense_modifier(state, attacker, target, kind, params)
    return total


def damage_value(state: GameState, attacker: Monster, target: Monster, kind: str, base: int) -> int:
    """The attacker's damage value after replacements from its powers (HC-VALUE-04: before modifiers)."""
    value = base
    for name, params in attacker.powers.items():
        handler = HANDLERS.get(name)
        if handler is not None:
            replaced = handler.damage_replacement(state, attacker, target, kind, value, params)
            if replaced is not None:
                value = replaced
    return value


def damage_reduction(state: GameState, target: Monster, amount: int) -> int:
    total = 0
    for name, params in target.powers.items():
        handler = HANDLERS.get(name)
        if handler is not None:
            total += handler.damage_reduction(state, target, amount, params)
    return total


def fire(state: GameState, monster: Monster, event: str, *args: Any) -> None:
    """Call `on_<event>` of every handler of the powers `monster` shows."""
    for name, params in list(monster.powers.items()):
        handler = HANDLERS.get(name)
        if handler is not None:
            getattr(handler, f"on_{event}")(state, monster, *args, params)
