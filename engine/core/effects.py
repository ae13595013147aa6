"""How powers and lasting effects change the rules, so no power is a special case inside the engine.

A power's `PowerHandler` names the power it plays with `@handles`; a ruleset's loader gathers its handlers
(`handlers_in`) into the ruleset (`state.ruleset`, engine/core/ruleset.py), so two rulesets may each have their own
handler for one power name. The engine asks the handlers of the powers in effect at fixed points:

- `stat`: every combat value the rules read (speed, attack, defense, damage, range) goes through
  `stat(state, monster, name, ...)`: the dial value, then replacements from the monster's own powers
  (HC-VALUE-04), then the sum of modifiers from every monster's powers and from lasting effects,
  capped by the rule of 3 (HC-VALUE-05) and never below 0 (HC-VALUE-02).
- damage: `damage_dealt` (the attacker's powers), `reduce_damage` (the target's reducers, HC-COMBAT-29),
  `evades` (Dodge-like powers, HC-COMBAT-31), `hit_instead_of_damage` (Injection-like powers).
- events: `fire(state, monster, "hit" | "slay" | "kill" | "turn_start" | ...)`.

A power is in effect while its colour shows on the dial (HC-CARD-05); a dependant power (trigger
move, close or ranged) only during an action it was declared for (HC-CARD-08), recorded in
`state.declared`. A power its ruleset has no handler for changes nothing; `Ruleset.unsupported_powers` says so.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from dataclasses import replace as with_fields
from typing import TYPE_CHECKING, Any, ClassVar

from clix.engine.core.pieces import HOURGLASS
from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from clix.engine.core.pieces import Figure
    from clix.engine.core.ruleset import Ruleset
    from clix.engine.core.state import State

Params = dict[str, Any]
DEPENDANT = ("move", "close", "ranged")
"""The triggers of dependant powers: the kinds of action they are declared for (HC-CARD-08)."""


@dataclass(frozen=True, slots=True, init=False)
class Query:
    """What a combat value is read for: the acting monster, its target and the kind of action."""

    attacker: Figure | None = None
    target: Figure | None = None
    kind: str = ""  # move | close | frenzy | ranged | smash | "" (outside an action)

    def __init__(self, attacker: Figure | None = None, target: Figure | None = None, kind: str = "") -> None:
        object.__setattr__(self, "attacker", attacker)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "kind", kind)


@mypyc_attr(allow_interpreted_subclasses=True)  # a power's handler may live outside the compiled engine
class PowerHandler:
    """Base handler: every hook does nothing. Subclasses override what their power changes.

    `source` is the monster whose card carries the power; `subject` the monster whose value is read. A ruleset
    may call hooks of its own through `fire` and `any_handler` (HorrorClix: `on_slay` after a slaying or rescue,
    `instead_of_slaying` for Raise Minion, HC-SPECIAL-06); a handler answers such a hook only if it defines it.
    """

    power: ClassVar[str] = ""
    """The power's name in its ruleset's registry (`@handles`)."""
    grants_attack: ClassVar[bool] = False
    """A move power whose move action ends with a free close attack on a named target (Pounce): the
    rules check and list such a Move's `target` as they do a frenzy's (HC-SLAY-14)."""
    moves_victims: ClassVar[bool] = False
    """A move power used instead of moving, to move a victim (Lure): declared with a `LureVictim` action,
    which its `check` judges and its `actions` lists."""

    def check(self, state: State, source: Figure, action: Any, p: Params) -> str:
        """Why this dependant power cannot be declared for `action` ('' if it can) (HC-CARD-08)."""
        return ""

    def actions(self, state: State, source: Figure, name: str, p: Params, base: list[Any]) -> list[Any]:
        """The legal actions declaring this dependant power, given `base`, the monster's legal actions of
        the power's kind: by default each one with the power named, where `check` allows it."""
        found = []
        for action in base:
            declared = declaring(action, name)
            if not self.check(state, source, declared, p):
                found.append(declared)
        return found

    def on_declare(self, state: State, source: Figure, action: Any, p: Params) -> None:
        """When the action this dependant power was declared for begins (a penalty that outlasts it)."""

    def replace(self, state: State, source: Figure, stat: str, value: int, q: Query, p: Params) -> int | None:
        """A replacement for `source`'s own `stat` (HC-VALUE-02), or None."""
        return None

    def resolve(self, state: State, source: Figure, stat: str, value: int, q: Query, p: Params) -> int | None:
        """A replacement made only while an attack resolves, which may roll dice (Slash: a d6 replaces the
        damage value, HC-DATA-05), or None."""
        return None

    def modifier(self, state: State, source: Figure, subject: Figure, stat: str, q: Query, p: Params) -> int:
        """A modifier `source`'s power puts on `subject`'s `stat` (auras, cabal powers, own powers)."""
        return 0

    def reduce_damage(self, state: State, source: Figure, amount: int, p: Params) -> int:
        """How much of `amount` dealt to `source` its power stops (HC-COMBAT-29)."""
        return 0

    def evades(self, state: State, source: Figure, attacker: Figure, kind: str, p: Params) -> bool:
        """Whether `source` evades a hit (may roll dice) (HC-COMBAT-26, -31)."""
        return False

    def instead_of_damage(self, state: State, source: Figure, target: Figure, kind: str, p: Params) -> bool:
        """Whether `source`'s hit does something else to `target` instead of damage (done here) (Shriek)."""
        return False

    def ignores_hindering(self, state: State, source: Figure, kind: str, p: Params) -> bool:
        """Whether `source`'s ranged attack ignores the hindering +1 defense (HC-TERRAIN-06) (Sure Shot)."""
        return False

    def deals_no_damage(self, state: State, source: Figure, kind: str, p: Params) -> bool:
        """Whether `source`'s attack is a "no damage" attack (HC-COMBAT-07) whose hit does `on_hit` instead."""
        return False

    def penetrating(self, state: State, source: Figure, kind: str, p: Params) -> bool:
        """Whether damage `source` deals ignores damage reducers (HC-COMBAT-27)."""
        return False

    def unpreventable(self, state: State, source: Figure, kind: str, p: Params) -> bool:
        """Whether damage `source` deals is unpreventable (HC-COMBAT-09)."""
        return False

    def on_hit(self, state: State, source: Figure, target: Figure, kind: str, taken: int, p: Params) -> None:
        """After `source` hits `target` (`taken` clicks of damage, 0 for a no-damage attack)."""

    def on_damaged(self, state: State, source: Figure, attacker: Figure | None, taken: int, p: Params) -> None:
        """After `source` takes damage."""

    def on_kill(self, state: State, source: Figure, killed: Figure, p: Params) -> None:
        """After `source` kills a monster."""

    def on_turn_start(self, state: State, source: Figure, p: Params) -> None:
        """In the preview phase of `source`'s controller (HC-TURN-08)."""

    def on_any_kill(self, state: State, source: Figure, killer: Figure | None, killed: Figure, p: Params) -> None:
        """After any monster is killed, for powers that watch other monsters (cabal powers, HC-SPECIAL-05)."""

    def extra_action(self, state: State, source: Figure, actor: Figure, p: Params) -> bool:
        """Whether `source`'s power lets `actor` be given an action beyond the turn's actions (a cabal power
        granting members an extra action, HC-SPECIAL-16)."""
        return False


def handles(name: str):  # type: ignore[no-untyped-def]
    """Class decorator: `@handles("Slash")` names the power a handler class plays. It registers nothing: a
    ruleset's loader gathers its handlers (`handlers_in`) when the ruleset is loaded (`engine.core.ruleset`)."""

    def wrap(cls: type[PowerHandler]) -> type[PowerHandler]:
        cls.power = name
        return cls

    return wrap


def handlers_in(*modules: Any) -> dict[str, PowerHandler]:
    """One handler of each power the classes defined in `modules` handle (`@handles`), by power name."""
    found: dict[str, PowerHandler] = {}
    for module in modules:
        for cls in vars(module).values():
            if (
                isinstance(cls, type)
                and issubclass(cls, PowerHandler)
                and getattr(cls, "__module__", "") == module.__name__
                and cls.power
            ):
                if cls.power in found:
                    raise KeyError(f"two handlers for the power '{cls.power}' ({module.__name__}.{cls.__name__})")
                found[cls.power] = cls()
    return found


def rule_of_three(total: int) -> int:
    """Modifiers on one combat value together stay within -3..+3 (HC-VALUE-05)."""
    return max(-3, min(3, total))


def in_effect(state: State, monster: Figure, hook: str | None = None) -> Iterator[tuple[PowerHandler, Params, str]]:
    """The handlers of the powers `monster` has in effect now, with their parameters and names (with `hook`:
    only the handlers that override that hook, the others answering nothing there)."""
    declared = state.declared.get(monster.uid)
    for handler, params, name, dependant in _handlers_showing(state.ruleset, monster.powers, hook):
        if not dependant or name == declared:
            yield handler, params, name


def _handlers_showing(ruleset: Ruleset, powers: dict[str, Params], hook: str | None) -> tuple:
    """The handlers of a dial click's powers (with `hook`: those overriding it), with their parameters, names
    and whether the power is dependant; computed once per ruleset and click, since a compiled dial never changes.
    Kept in `ruleset.showing` by hook, then by id of the powers dict; the dict is kept alongside so its id stays
    its own."""
    by_powers = ruleset.showing.get(hook)
    if by_powers is None:
        by_powers = ruleset.showing[hook] = {}
    found = by_powers.get(id(powers))
    if found is None or found[0] is not powers:
        handlers = ruleset.handlers
        entries = tuple(
            (handler, params, name, ruleset.powers[name].trigger in DEPENDANT)
            for name, params in powers.items()
            if (handler := handlers.get(name)) is not None
            and (hook is None or getattr(type(handler), hook, None) is not getattr(PowerHandler, hook, None))
        )
        found = by_powers[id(powers)] = (powers, entries)
    return found[1]


def declaring(action: Any, power: str) -> Any:
    """`action` declaring the dependant power `power` (HC-CARD-08): by its own `declaring` where it has one
    (a ruleset's action records do: `dataclasses.replace` runs interpreted, slowly, and this runs in every
    listing of the legal actions), else a copy with `power` set."""
    method = getattr(action, "declaring", None)
    return method(power) if method is not None else with_fields(action, power=power)


NO_QUERY = Query()


def base_value(monster: Figure, stat: str) -> int:
    if stat == "range":
        return monster.stats.range
    value = getattr(monster.stats, stat)[monster.click]
    return 0 if value == HOURGLASS else value


def stat(
    state: State,
    monster: Figure,
    name: str,
    q: Query = NO_QUERY,
    extra: int = 0,
    base: int | None = None,
    halve: bool = False,
    resolving: bool = False,
) -> int:
    """A combat value as the rules read it: dial, replacements, then modifiers (rule of 3), at least 0.

    `base` replaces the dial value first (a frenzy's damage 1, HC-SLAY-08); `halve` halves it rounding
    up (hindering terrain, HC-TERRAIN-04); both are replacements, applied before modifiers (HC-VALUE-04,
    -07), and so are the powers' own replacements. `resolving` is set only while an attack resolves,
    letting replacements roll dice. `extra` adds the base rules' own modifiers (hindering +1 defense,
    +2 against a soaring target, the elevation -1 speed), which count toward the rule of 3 like any other.
    """
    value = base_value(monster, name) if base is None else base
    ruleset = state.ruleset
    if _handlers_showing(ruleset, monster.powers, "replace"):  # most dials replace nothing: skip the generator
        for handler, params, _ in in_effect(state, monster, "replace"):
            replaced = handler.replace(state, monster, name, value, q, params)
            if replaced is not None:
                value = replaced
    if resolving:  # after every fixed replacement, so a frenzy's restored damage is still Slashed (HC-SLAY-12)
        for handler, params, _ in in_effect(state, monster, "resolve"):
            replaced = handler.resolve(state, monster, name, value, q, params)
            if replaced is not None:
                value = replaced
    if halve:
        value = (value + 1) // 2
    total = extra
    source: Figure  # typed, so the compiled loop reads the figure's fields directly
    for source in state.monsters:
        if source.alive:
            modifiers = _handlers_showing(ruleset, source.powers, "modifier")
            if modifiers:  # most powers modify nothing: skip the generator for them
                for handler, params, _ in in_effect(state, source, "modifier"):
                    total += handler.modifier(state, source, monster, name, q, params)
    for lasting in state.lasting:
        if lasting.stat == name and lasting.applies(state, monster):
            total += lasting.amount
    return max(0, value + rule_of_three(total) if total else value)


def reduce_damage(state: State, target: Figure, amount: int) -> int:
    """Damage dealt to `target` after its damage reducers (HC-COMBAT-29)."""
    for handler, params, _ in in_effect(state, target, "reduce_damage"):
        amount -= handler.reduce_damage(state, target, amount, params)
    return max(0, amount)


def any_handler(state: State, monster: Figure, hook: str, *args: Any) -> bool:
    """Whether any power `monster` has in effect answers yes to `hook`."""
    return any(getattr(h, hook)(state, monster, *args, p) for h, p, _ in in_effect(state, monster, hook))


def fire(state: State, monster: Figure, event: str, *args: Any) -> None:
    """Call `on_<event>` of every handler of the powers `monster` has in effect."""
    hook = f"on_{event}"
    for handler, params, _ in list(in_effect(state, monster, hook)):
        getattr(handler, hook)(state, monster, *args, params)


def fire_all(state: State, event: str, *args: Any) -> None:
    """`fire` for every monster in play: powers that act on what other monsters do (cabal powers)."""
    figure: Figure
    for figure in list(state.monsters):
        if figure.alive:
            fire(state, figure, event, *args)


def after_attack_roll(
    state: State, attacker: Figure, targets: Sequence[Figure], dice: tuple[int, int]
) -> tuple[int, int]:
    """The attack roll after the ruleset's responders, in order: the attack-roll window where reroll plot
    twists are played (HC-PLOT-07, HC-PLOT-12)."""
    for respond in state.ruleset.roll_responders:
        dice = respond(state, attacker, targets, dice)
    return dice
