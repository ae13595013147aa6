"""`clix.melee`: three or four armies at one table, as `clix melee` plays them (analyzer/melee/), returned as tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._common import Progress, Result, Source

if TYPE_CHECKING:
    from matplotlib.figure import Figure

API_RUN = "(clix.{}: no output folder)"
"""The folder the result store records for a run played from Python (it writes none)."""
FLAGS = common.flags_of("games", "players", "seed", "turns", "ties", "jobs", "teams", "game", "fresh") | {
    "--store": "store",
    "--map": "map",
    "--pods": "pods",
    "ARMIES": "armies",
}


@dataclass(repr=False, eq=False)
class MeleeResult(Result):
    """A melee's games (one row per game, as games.csv) and its summary (as `clix melee --json`)."""

    games: pd.DataFrame
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def headline(self) -> str:
        return str(self.summary["headline"])

    @property
    def armies(self) -> pd.DataFrame:
        """Per army: win share and mean placing with 95% block intervals, the equal share, VP, victims slain."""
        return pd.DataFrame(self.summary["armies"])

    def table(self) -> pd.DataFrame:
        return self.armies[["slot", "army", "win_share", "win_low", "win_high", "expected", "mean_place", "vp"]]

    def plot(self) -> Figure:
        """Each army's win share with its 95% interval, and the equal-strength share."""
        from matplotlib.figure import Figure

        table = self.armies
        figure = Figure(figsize=(6, 3))
        axes = figure.subplots()
        share = table["win_share"]
        errors = [share - table["win_low"], table["win_high"] - share]
        axes.errorbar(share, range(len(table)), xerr=errors, fmt="o")
        axes.axvline(float(table["expected"].iloc[0]), linestyle="--", color="grey")
        axes.set_yticks(range(len(table)), [f"{s} {a}" for s, a in zip(table["slot"], table["army"], strict=True)])
        axes.set_xlabel("win share (95% interval over blocks)")
        figure.tight_layout()
        return figure

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.melee.command import write_outputs

        if pdf:
            raise ClixError("pdf: a melee's report has no PDF yet; call report(path) without pdf")
        games, summary, report = write_outputs(folder, self.games, self.summary)
        return {"report": report, "games": games, "summary": summary}


@dataclass(repr=False, eq=False)
class FieldResult(MeleeResult):
    """A field in pods (`clix.melee(armies, pods=N)`, as `clix melee ARMIES --pods N`): its games (with their pod)
    and its summary; `armies` holds each army's Plackett-Luce rating with its 95% interval over pods."""

    @property
    def armies(self) -> pd.DataFrame:
        """Per army, best rated first: rating, low, high, its chance to win a pod of average armies, games, win
        share and mean place."""
        return pd.DataFrame(self.summary["armies"])

    def table(self) -> pd.DataFrame:
        return self.armies[["army", "rating", "low", "high", "pod_win", "games", "win_share", "mean_place"]]

    def plot(self) -> Figure:
        """Each army's rating with its 95% interval, and its win share against a pod's equal share."""
        from clix.analyzer.melee.field_report import ratings_figure

        return ratings_figure(self.summary)

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.melee.field_report import write_field

        paths = write_field(folder, self.games, self.summary, pdf)
        return {"report": paths[-1], **{p.stem + p.suffix.replace(".", "_"): p for p in paths[:-1]}}


def melee(
    armies: Sequence[str],
    *,
    games: int = 480,
    teams: str | None = None,
    map: str | None = None,
    players: str | Sequence[str] | None = None,
    seed: int = 0,
    turns: int = 15,
    ties: str = "break",
    jobs: int = 0,
    rosters: Source = None,
    store: str | Path | None = None,
    fresh: bool = False,
    progress: Progress = None,
    pods: int | None = None,
    ruleset: str | None = None,
) -> MeleeResult:
    """Play three or four armies (ids) at one table, every army in every seat over blocks of games sharing a seed,
    as `clix melee` does with the same arguments (for any `jobs`); `teams` as "AB:CD" plays two teams of two.
    `games` is rounded up to whole blocks (a warning says so). With a result `store` (a DuckDB file, as `clix melee
    --store`) its games of this melee are taken from it (unless `fresh`) and the others added. With `pods` (3 or 4):
    a field of that many armies or more played in pods (`games` counts the field's games), returned as a
    `FieldResult` with Plackett-Luce ratings (`clix melee ARMIES --pods N`); its `map` may name several maps,
    comma-separated, and every pod plays on each. HeroClix forces play HeroClix (their ruleset, or
    `ruleset="heroclix-2005"`, as `--ruleset`). Mistakes raise `clix.ClixError`."""
    from clix.analyzer.melee.command import build_melee, games_frame, play_games, requested_games
    from clix.analyzer.melee.keep import MeleeKeeper
    from clix.analyzer.melee.stats import summarize

    common.games(games, minimum=1)
    common.turns(turns)
    common.seed(seed)
    cores = common.jobs(jobs)
    with common.python_errors(FLAGS):
        if pods is not None:
            from clix.analyzer.melee.field import check_pod_size

            check_pod_size(pods)
        spec = build_melee(
            common.layers(rosters),
            common.names(list(armies) if not isinstance(armies, str) else armies, "armies"),
            None if map is None else str(map),
            None if players is None else common.players(players),
            teams,
            turns,
            ties,
            field=pods or 0,
            ruleset=ruleset,
        )
        if pods is not None:
            return _field(spec, pods, games, seed, cores, store, fresh, progress)
        played, note = requested_games(games, spec)
        if note is not None:
            common.note(common.speak_python(note, FLAGS))
        keeper = None if store is None else MeleeKeeper(Path(store), spec, seed, played, fresh)
        counter = common.Counter(progress, played)
        rows, ended = play_games(spec, played, seed, cores, counter.step, keeper=keeper)
        table = games_frame(rows, spec)
    summary = summarize(table) | {"seed": seed, "map": spec.map_name, "ended": ended}
    if keeper is not None:
        from clix.analyzer.melee.command import melee_command
        from clix.analyzer.melee.keep import run_settings

        command = melee_command(spec, played, seed)
        recorded = summary | {"store": str(store), "settings": run_settings(spec, summary, command)}
        keeper.record(spec, recorded, [int(i) for i in table["game"]], command, API_RUN.format("melee"))
    return MeleeResult(games=table, summary=summary)


def _field(
    spec: Any,
    pods: int,
    games: int,
    seed: int,
    jobs: int,
    store: str | Path | None,
    fresh: bool,
    progress: Progress,
) -> FieldResult:
    """`melee(..., pods=N)`: the field's games (whole pods) and summary, as `clix melee ARMIES --pods N --json`."""
    from clix.analyzer.melee.field import build_field, field_key, play_field, summarize_field
    from clix.analyzer.melee.keep import MeleeKeeper

    field = build_field(spec, games, seed, pods)
    played = field.games
    keeper = None if store is None else MeleeKeeper(Path(store), spec, seed, played, fresh, field_key(field, seed))
    rows, ended = play_field(field, seed, jobs, common.Counter(progress, played).step, keeper)
    table = pd.DataFrame(rows)
    table = table[table.groupby("pod")["game"].transform("size") == field.pod_games].reset_index(drop=True)
    if table.empty:
        raise ClixError("no whole pod of games finished: nothing to report")
    summary = summarize_field(field, table, seed) | {"ended": ended}
    if keeper is not None:
        from clix.analyzer.melee.field import field_command
        from clix.analyzer.melee.keep import run_settings

        command = field_command(field, played, seed)
        recorded = summary | {"store": str(store), "settings": run_settings(spec, summary, command)}
        keeper.record(spec, recorded, [int(i) for i in table["game"]], command, API_RUN.format("melee"))
    return FieldResult(games=table, summary=summary)
