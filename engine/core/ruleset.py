"""A ruleset: what a game's rules are, as one object the core reaches through `state.ruleset` (issue 16).

The core (the state and its copies, the stepping and decisions, the game driver, the effect hooks) knows no
game's rules. It asks the state's ruleset which actions are legal and to apply one, and it looks up the powers
in effect in the ruleset's own registries. HorrorClix is one ruleset (`engine.horrorclix.ruleset.load`); a test builds
another (tests/duel_ruleset.py), and the two can hold the same power name with different texts.

Nothing registers itself on import: a ruleset's registries are built when it is loaded, by its loader.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from clix.engine.core.files.problems import InvalidFile, LineMap, Problem
from clix.engine.core.files.yaml_lines import YamlError, read_yaml


@dataclass(frozen=True)
class PowerSpec:
    """A power a ruleset knows by name, as simple rulesets describe one: the core reads its `trigger` (when its
    handler runs). A ruleset with parameters of its own (HorrorClix) has its own spec with a `trigger`."""

    name: str
    trigger: str
    summary: str
    source: str


PARTS = {
    "armies": "its army (force) builder: random, legal and default armies, an army's checks",
    "models": "its data models (the pydantic formats of its files), as `clix schema` and the library views read them",
    "loader": "its data loader: the library type, loading files and folders, the items that failed",
    "registry": "its tables of powers, abilities and card effects with their parameters",
    "legality": "its checks across files (names an item uses that the library lacks)",
    "scenario": "its scenario file format",
    "cards": "its card files (HeroClix: team abilities, feats, battlefield conditions)",
    "card_checks": "its cards' costs and checks (HeroClix: a feat's points)",
    "players": "its heuristic player: the style factory and the weights",
    "weights": "its heuristic players' weights by style",
    "matchups": "its matchup kit's module (the library cache by folders, a game's rows)",
    "game": "its game set-up and play loop, for the tuning and benchmarking tools",
}
"""The parts a ruleset may name (`Ruleset.parts`), each with what it holds; a ruleset names the ones it has."""


class Ruleset:
    """One game's rules: its phases, its turn flow, its scoring, its data formats and its registries.

    - `powers`: the powers a figure may carry, by name (each spec names its `trigger`); `handlers`: the
      `effects.PowerHandler` playing each of them (a power with no handler changes nothing).
    - `registries`: the ruleset's other named tables (abilities, plot-twist effects...), for its data formats.
    - `legal_actions(state)`, `apply(state, action, listed)`: what the driver asks (`engine.horrorclix.game`).
    - `begin_turn(state)`, `end_turn(state)`: the turn flow through `phases`.
    - `score(state)`: each team's victory points, as the game stands.
    - `roll_responders`: functions `(state, attacker, targets, dice) -> dice` called after each attack roll.
    - `load_roster(path)`: the ruleset's data format for figures, cards and maps.
    - the tools' entry points, each a function or a "module:function" imported when first asked for (so the
      rules a worker plays with do not import the tools): `load_library(layers)`, its data folders layered one
      over another (a homebrew folder over the sample data) as the analyzer loads them; `run_scenario(path,
      library)`, one scenario file played with forced dice and checked (`clix scenario run`); `check_game(layers,
      index, seed, turns)`, one random game checked against the ruleset's invariants (`clix selfcheck`);
      `matchups()`, the kit the analyzer plays matchups with (engine/core/matchups.py).
    - `parts`: the ruleset's modules the analyzer's tools read, by a name of the part (`PARTS`), each imported
      when first asked for (`part(name)`): the analyzer imports no ruleset, it reaches one through this registry.
    - `loader`: "module:function" returning this ruleset, so an unpickled state (in a worker process) finds
      the same object again.
    """

    def __init__(
        self,
        name: str,
        version: str,
        loader: str,
        phases: tuple[str, ...],
        powers: Mapping[str, Any],
        handlers: Mapping[str, Any],
        legal_actions: Callable[[Any], Sequence[Any]],
        apply: Callable[..., None],
        begin_turn: Callable[[Any], None],
        end_turn: Callable[[Any], None],
        score: Callable[[Any], dict[int, int]],
        roll_responders: Iterable[Callable[..., tuple[int, int]]] = (),
        registries: Mapping[str, Mapping[str, Any]] | None = None,
        load_roster: Callable[..., Any] | None = None,
        load_library: str | Callable[[list[Path]], tuple[Any, list[Problem]]] | None = None,
        run_scenario: str | Callable[[Path, Any], Any] | None = None,
        check_game: str | Callable[..., Any] | None = None,
        matchups: str | Callable[[], Any] | None = None,
        parts: Mapping[str, str] | None = None,
    ) -> None:
        unknown = sorted(set(handlers) - set(powers))
        if unknown:
            raise KeyError(f"ruleset {name}: handlers for powers it does not name: {', '.join(unknown)}")
        self.name = name
        self.version = version
        self.loader = loader
        self.phases = phases
        self.powers = dict(powers)
        self.handlers = dict(handlers)
        self.legal_actions = legal_actions
        self.apply = apply
        self.begin_turn = begin_turn
        self.end_turn = end_turn
        self.score = score
        self.roll_responders = tuple(roll_responders)
        self.registries = dict(registries or {})
        self.load_roster = load_roster
        self.library_loader = load_library
        self.scenario_runner = run_scenario
        self.game_checker = check_game
        self.matchup_kit = matchups
        self.parts = dict(parts or {})
        self.showing: dict[str | None, dict[int, tuple[Any, tuple[Any, ...]]]] = {}
        """`effects` keeps here, by hook and dial click, the handlers of the powers showing (a cache)."""

    def load_library(self, layers: list[Path]) -> tuple[Any, list[Problem]]:
        """This ruleset's data under the folders or files `layers`, a later one over an earlier, and every
        problem found."""
        return _entry(self, "load_library", self.library_loader)(layers)

    def run_scenario(self, path: Path, library: Any) -> Any:
        """The scenario file at `path` played and checked (a result with `name`, `passed` and `failures`);
        `library` is `load_library`'s data (None: none), for scenarios naming figures or maps from it. An
        invalid file raises InvalidFile."""
        return _entry(self, "run_scenario", self.scenario_runner)(path, library)

    def check_game(self, layers: tuple[Path, ...], index: int, seed: Any, turns: int) -> Any:
        """Random game `index` from `seed` on the library under `layers`, its invariants checked after every action:
        a result with `index`, `problems`, `end_reason` and `actions`."""
        return _entry(self, "check_game", self.game_checker)(layers, index, seed, turns)

    def matchups(self) -> Any:
        """The ruleset's `MatchupKit` (engine/core/matchups.py): how the analyzer sets up, plays and reads its games."""
        return _entry(self, "matchups", self.matchup_kit)()

    def part(self, name: str) -> ModuleType:
        """The ruleset's module for the part `name` (`PARTS`), imported when first asked for; a
        NotImplementedError when the ruleset has no such part."""
        module_name = self.parts.get(name)
        if module_name is None:
            raise NotImplementedError(f"ruleset {self.name} has no {name} part ({', '.join(sorted(self.parts))})")
        return importlib.import_module(module_name)

    def unsupported_powers(self, names: Iterable[str]) -> set[str]:
        """Of `names`, the powers this ruleset names but plays with no effect yet."""
        return {n for n in names if n not in self.handlers}

    def forget(self) -> None:
        """Drop the cache of handlers by dial click (after changing `handlers`, as a test may)."""
        self.showing.clear()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its loader, so every state unpickled in a process shares that process's ruleset."""
        return (load_ruleset, (self.loader,))

    def __repr__(self) -> str:
        return f"Ruleset({self.name!r}, {self.version!r})"


def _entry(ruleset: Ruleset, what: str, target: str | Callable[..., Any] | None) -> Callable[..., Any]:
    """The function an entry point names (imported when it is a "module:function" string)."""
    if target is None:
        raise NotImplementedError(f"ruleset {ruleset.name} has no {what} yet")
    if isinstance(target, str):
        module_name, _, function = target.partition(":")
        found: Callable[..., Any] = getattr(importlib.import_module(module_name), function)
        return found
    return target


RULESETS: dict[str, str] = {
    "horrorclix": "clix.engine.horrorclix.ruleset:load",
    "heroclix-2005": "clix.engine.heroclix.ruleset:load",
    "horrified": "clix.engine.horrified.ruleset:load",
}
"""Every ruleset clix plays, by name: its loader ("module:function"). A name, not an import: the core imports no
ruleset, and a ruleset is imported only when one is asked for."""
DEFAULT_RULESET = "horrorclix"
"""The ruleset of a file or command that names none (every file written before there were two)."""


def ruleset_named(name: str = DEFAULT_RULESET) -> Ruleset:
    """The ruleset called `name` (`RULESETS`), loaded once per process; a KeyError names the ones there are."""
    loader = RULESETS.get(name)
    if loader is None:
        raise KeyError(f"no ruleset is called {name!r}; clix plays {', '.join(sorted(RULESETS))}")
    return load_ruleset(loader)


def load_ruleset(loader: str) -> Ruleset:
    """The ruleset a "module:function" loader returns (the loader caches it: one object per process)."""
    module_name, _, function = loader.partition(":")
    found = getattr(importlib.import_module(module_name), function)()
    if not isinstance(found, Ruleset):
        raise TypeError(f"{loader} returned {type(found).__name__}, not a Ruleset")
    return found


RULESET_KEY = "ruleset"
"""The top-level key by which a data or scenario file names its ruleset (none: `DEFAULT_RULESET`)."""


def named_ruleset(data: object, lines: LineMap, file: str) -> str:
    """The ruleset a file's top-level mapping `data` names (`RULESET_KEY`; `DEFAULT_RULESET` when it names none,
    or is not a mapping: its own loader then says what is wrong); an InvalidFile when it names one clix does
    not play."""
    if not isinstance(data, Mapping) or RULESET_KEY not in data:
        return DEFAULT_RULESET
    value = data[RULESET_KEY]
    if isinstance(value, str) and value in RULESETS:
        return value
    plays = f"clix plays {', '.join(sorted(RULESETS))} (a file without '{RULESET_KEY}' is {DEFAULT_RULESET})"
    message = (
        f"'{value}' is not a ruleset clix plays; {plays}"
        if isinstance(value, str)
        else f"'{RULESET_KEY}' is the name of a ruleset; {plays}"
    )
    raise InvalidFile([Problem(file, lines.line((RULESET_KEY,)), RULESET_KEY, message)])


def file_ruleset(path: Path, file: str | None = None) -> str:
    """The ruleset the file at `path` names (`named_ruleset`); a file that cannot be read as YAML is left to
    the default ruleset's loader, which says what is wrong with it. `file` is how problems name it."""
    try:
        data, lines, _ = read_yaml(path)
    except (YamlError, OSError):
        return DEFAULT_RULESET
    return named_ruleset(data, lines, str(path) if file is None else file)
