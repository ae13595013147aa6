"""`clix meta --pods N`: the meta's field (armies named and `--budget`'s) played in pods of N at one table by the
field code of `clix melee ARMIES --pods N` (analyzer/melee/field.py), so both commands give the same games, ratings
and report for the same field, map, players and seed (issue 39)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.engine.core.ruleset import DEFAULT_RULESET


@dataclass(frozen=True)
class PodsAsked:
    """What `clix meta --pods N` was asked (its options as the command line took them)."""

    armies: list[str]
    budget: int | None
    maps: list[str]
    players: str
    games: int
    seed: int
    jobs: int
    turns: int
    ties: str
    resamples: int
    pdf: bool
    store: Path | None
    fresh: bool
    rosters: list[Path] | None
    ruleset: str | None
    pods: int


def pod_style(players: str) -> str | None:
    """`--players` of a field in pods: the default or one style for every army (a sweep or a list is refused)."""
    names = [n.strip() for n in players.split(",") if n.strip()]
    if not names or names == ["default"]:
        return None
    if len(names) > 1 or names == ["sweep"]:
        raise ClixError(
            f"--players {players}: a field in pods plays one style for every army; name one style (or leave out "
            "--players for the tuned default)"
        )
    return names[0]


def pods_ruleset(asked: PodsAsked) -> str:
    """The ruleset the field plays: its named armies' (HeroClix forces: heroclix-2005), else --ruleset, else
    HorrorClix."""
    from clix.analyzer.library.rulesets import Argument, arguments_ruleset

    named = [Argument("--armies", a) for a in asked.armies] + [Argument("--maps", m, "maps") for m in asked.maps]
    return arguments_ruleset(asked.rosters, named, asked.ruleset)


def meta_field(asked: PodsAsked, field_armies: Callable[..., list[str]], warn: Any = None) -> list[str]:
    """The field's armies by id: those named, then with --budget every library army (or HeroClix force) of that
    build total (the meta's `field_armies`, handed in by the command line: melee and meta do not import each
    other)."""
    from clix.analyzer.library.load import load_library

    ruleset = pods_ruleset(asked)
    if ruleset != DEFAULT_RULESET:
        from clix.analyzer.library.rulesets import Argument, analysis_library

        loaded = analysis_library(
            asked.rosters, ruleset, [Argument("--armies", a) for a in asked.armies],
            [Argument("--maps", m, "maps") for m in asked.maps], warn=warn,
        )  # fmt: skip
        kit = loaded.kit
        known = kit.armies(loaded.data)
        return field_armies(None, [loaded.id(a) for a in asked.armies], asked.budget, known, kit.army_kind)
    library = load_library(asked.rosters, armies=asked.armies, maps=asked.maps, warn=warn)
    return field_armies(library.roster, [library.id(a) for a in asked.armies], asked.budget)


def pod_maps(asked: PodsAsked, warn: Any = None) -> str | None:
    """The maps every pod plays on, comma-separated (`command.build_melee` checks them): those named, else every
    map of the library with a starting area for each seat of a pod (HC-SETUP-04, HX-SETUP-03), as a meta plays
    every map (none: the ruleset's default map)."""
    from clix.analyzer.library.load import load_library

    if asked.maps:
        return ",".join(asked.maps)
    ruleset = pods_ruleset(asked)
    if ruleset != DEFAULT_RULESET:
        from clix.analyzer.library.rulesets import analysis_library

        loaded = analysis_library(asked.rosters, ruleset, [], [], warn=warn)
        known = loaded.kit.maps(loaded.data)
    else:
        known = load_library(asked.rosters, warn=warn).roster.maps
    fitting = [m for m in sorted(known) if len(known[m].starting_areas()) >= asked.pods]
    return ",".join(fitting) or None


def run_meta_pods(
    asked: PodsAsked, field_armies: Callable[..., list[str]], out: Any, as_json: bool, console: Any, warn: Any
) -> int:
    """Play and report the field in pods (`field.run_field`); the exit code. `warn` prints a warning line."""
    from clix.analyzer.melee.command import build_melee
    from clix.analyzer.melee.field import FieldPlay, check_pod_size, run_field

    check_pod_size(asked.pods)

    field = meta_field(asked, field_armies, warn)
    melee = build_melee(
        asked.rosters,
        field,
        pod_maps(asked, warn),
        pod_style(asked.players),
        None,
        asked.turns,
        asked.ties,
        warn=warn,
        field=asked.pods,
        ruleset=pods_ruleset(asked),
    )
    play = FieldPlay(
        asked.games, asked.seed, asked.jobs, asked.pods, asked.resamples, asked.store, asked.fresh, asked.pdf
    )
    return run_field(melee, play, out, as_json, console)
