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


def meta_field(asked: PodsAsked, field_armies: Callable[..., list[str]], warn: Any = None) -> list[str]:
    """The field's armies by id: those named, then with --budget every library army of that build total (the
    meta's `field_armies`, handed in by the command line: melee and meta do not import each other)."""
    from clix.analyzer.library.load import load_library

    if asked.ruleset not in (None, DEFAULT_RULESET):
        raise ClixError(
            f"--ruleset {asked.ruleset}: fields in pods play HorrorClix armies only (HeroClix multiplayer is not "
            "there yet: docs/melee.md); leave out --pods for a HeroClix meta"
        )
    library = load_library(asked.rosters, armies=asked.armies, maps=asked.maps, warn=warn)
    return field_armies(library.roster, [library.id(a) for a in asked.armies], asked.budget)


def pod_maps(asked: PodsAsked, warn: Any = None) -> str:
    """The maps every pod plays on, comma-separated (`command.build_melee` checks them): those named, else every
    map of the library with a starting area for each seat of a pod (HC-SETUP-04), as a meta plays every map."""
    from clix.analyzer.library.load import load_library

    if asked.maps:
        return ",".join(asked.maps)
    roster = load_library(asked.rosters, warn=warn).roster
    fitting = [m for m in sorted(roster.maps) if len(roster.maps[m].starting_areas()) >= asked.pods]
    return ",".join(fitting) or "graveyard"


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
    )
    play = FieldPlay(
        asked.games, asked.seed, asked.jobs, asked.pods, asked.resamples, asked.store, asked.fresh, asked.pdf
    )
    return run_field(melee, play, out, as_json, console)
