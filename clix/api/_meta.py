"""`clix.meta`: balance across a field of armies, as `clix meta` plays it (analyzer/meta)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._common import ArmyArgument, Names, Progress, Result, Source

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FLAGS = common.flags_of(
    "budget", "maps", "players", "games", "target_ci", "seed", "turns", "ties", "resamples", "jobs", "store", "fresh",
    "ruleset",
)  # fmt: skip
MAX_RESAMPLES = 10_000
"""`clix meta --resamples` at most."""


@dataclass(repr=False, eq=False)
class MetaResult(Result):
    """A meta's tables (each army against the field, the score matrix, the cells, the games), its summary and the
    Nash mixture as a field `clix.build` takes."""

    field: pd.DataFrame
    """One row per army: its score against the field with its 95% interval, its rating, its Nash weight, ..."""
    matrix: pd.DataFrame
    """The row army's score against the column army (wins + half the draws), averaged over maps and styles."""
    cells: pd.DataFrame
    """One row per cell (army pair, map, style): its score with its interval, games and how it settled (cells.csv)."""
    games: pd.DataFrame
    """Every game of every cell (games.csv)."""
    summary: dict[str, Any]
    """Every summary of the report: matrix, field, Nash mixture, dominated armies, outliers, first player, maps, ..."""
    settings: dict[str, Any]
    field_document: dict[str, Any]
    """field.json: the Nash mixture's support, as `clix.build(field=...)` takes it (the result itself does too)."""

    @property
    def nash(self) -> pd.Series:
        """Each army's weight in the Nash mixture of the matchup game (0 outside its support)."""
        return pd.Series({r["army"]: r["nash_weight"] for r in self.summary["field"]}, name="nash_weight")

    @property
    def headline(self) -> str:
        from clix.analyzer.meta.report import shown

        name = shown(self.summary)
        rows = sorted(self.summary["field"], key=lambda r: -r["score"])
        top, bottom = rows[0], rows[-1]
        mixture = ", ".join(f"{name(s['army'])} {s['weight']:.2f}" for s in self.summary["nash"]["support"])
        outliers = len(self.summary["outliers"])
        return (
            f"meta of {len(rows)} {'armies' if common.army_kind(self.settings) == 'army' else 'forces'} ({self.settings['games']} games): {name(top['army'])} scores "
            f"{common.percent(top)} against the field, {name(bottom['army'])} {common.percent(bottom)}; "
            f"Nash mixture {mixture}; {outliers or 'no'} outlier{'s' if outliers != 1 else ''}"
        )

    def table(self) -> pd.DataFrame:
        from clix.analyzer.meta.report import shown

        name = shown(self.summary)
        return pd.DataFrame(
            [
                {
                    "army": name(r["army"]),
                    "vs field [95%]": common.percent(r),
                    "rating [95%]": f"{r['rating']:+.0f} [{r['rating_low']:+.0f}, {r['rating_high']:+.0f}]",
                    "Nash weight": round(r["nash_weight"], 2),
                }
                for r in sorted(self.summary["field"], key=lambda r: -r["score"])
            ]
        )

    def plot(self) -> Figure:
        """The score matrix as a heatmap, hatched where a cell's interval holds 50% (the report's heatmap)."""
        from clix.analyzer.meta.plots import heatmap_figure

        return heatmap_figure(self.summary, common.army_kind(self.settings))

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.meta.report import write_meta

        kind = common.army_kind(self.settings)
        return write_meta(
            folder, self.summary, self.cells, self.games, self.settings, self.field_document, pdf=pdf, kind=kind
        )


def meta(
    armies: Sequence[ArmyArgument] | str | None = None,
    *,
    budget: int | None = None,
    maps: Names = None,
    players: Names = "default",
    games: int = 200,
    target_ci: float | None = None,
    seed: int = 0,
    turns: int = 15,
    ties: str = "break",
    resamples: int = 200,
    jobs: int = 0,
    rosters: Source = None,
    store: str | Path | None = None,
    fresh: bool = False,
    progress: Progress = None,
    ruleset: str | None = None,
) -> MetaResult:
    """Every pair of the field's armies plays on every map (default: all) with each player style ("default", a
    style, several, or "sweep"), `games` per cell with the same seed in every cell: a cell's games are
    `clix.duel`'s with that seed. The field: `armies` (ids, army files, folders of army files or `clix.Army`
    objects) and, with `budget`, every library army of that build total. `target_ci` plays each cell in growing
    looks until its interval is that narrow or wholly off 50% (`games` is then the cap). As `clix meta`; the
    `store`, `jobs` and `progress` as in `clix.duel`. A field of HeroClix forces (or `ruleset="heroclix-2005"`
    with a `budget`) plays HeroClix: its summary has `knockouts` (KOs and VP per force) in place of plot twists."""
    from clix.analyzer.meta.command import (
        MetaOptions,
        expand_army_arguments,
        field_armies,
        field_styles,
    )
    from clix.engine.core.ruleset import DEFAULT_RULESET

    common.games(games)
    common.turns(turns)
    common.seed(seed)
    if budget is not None:
        common.budget(budget)
    common.whole(resamples, "resamples")
    if not 0 <= resamples <= MAX_RESAMPLES:
        raise ClixError(f"resamples must be 0 to {MAX_RESAMPLES:,} (got {resamples:,})")
    cores = common.jobs(jobs)
    given = [armies] if isinstance(armies, str | Path) else list(armies or [])
    with common.army_folder() as folder, common.python_errors(FLAGS):
        named = expand_army_arguments([common.army_argument(a, folder, "armies") for a in given])
        map_names = common.names(maps, "maps")
        named_args = [("armies", a, False) for a in named] + [("maps", m, True) for m in map_names]
        chosen = common.ruleset_of(rosters, named_args, ruleset)
        if chosen != DEFAULT_RULESET:
            return _other_meta(
                chosen, named, map_names, budget, players, games, target_ci, seed, turns, ties, resamples, cores,
                rosters, store, fresh, progress,
            )  # fmt: skip
        library = common.load(
            rosters,
            {name: "armies" for name in named} | {name: "maps" for name in map_names},
            armies=named,
            maps=map_names,
            choose=lambda roster: {
                "armies": sorted(a for a, x in roster.armies.items() if x.build_total == budget) if budget else [],
                "maps": [] if map_names else sorted(roster.maps),
            },
        )
        roster = library.roster
        field = field_armies(roster, [library.id(a) for a in named], budget)
        maps_played = [library.id(m) for m in map_names] or sorted(roster.maps)
        styles = field_styles(common.comma(players, "players"))
        cells = len(field) * (len(field) - 1) // 2 * len(maps_played) * len(styles)
        from clix.analyzer.common import checks

        checks.cells_games(games, cells)
        kept = None if store is None else Path(store)
        options = MetaOptions(
            games=games,
            seed=seed,
            jobs=cores,
            turns=turns,
            ties=ties,
            target_ci=target_ci,
            budget=budget,
            resamples=resamples,
            store=kept,
            fresh=fresh,
        )
        return _play_meta(roster, library.layers, field, maps_played, styles, options, DEFAULT_RULESET, progress)


def _result(
    field: list[str],
    summary: dict[str, Any],
    cell_table: pd.DataFrame,
    played: pd.DataFrame,
    settings: dict[str, Any],
    field_doc: dict[str, Any],
) -> MetaResult:
    matrix = pd.DataFrame(
        {b: {a: summary["matrix"][a][b]["score"] if a != b else None for a in field} for b in field}, index=field
    )
    return MetaResult(pd.DataFrame(summary["field"]), matrix, cell_table, played, summary, settings, field_doc)


def _other_meta(
    ruleset: str,
    named: list[str],
    map_names: list[str],
    budget: int | None,
    players: Names,
    games: int,
    target_ci: float | None,
    seed: int,
    turns: int,
    ties: str,
    resamples: int,
    cores: int,
    rosters: Source,
    store: str | Path | None,
    fresh: bool,
    progress: Progress,
) -> MetaResult:
    """`meta` of a ruleset other than HorrorClix (its kit's forces, maps and styles)."""
    from clix.analyzer.common import checks
    from clix.analyzer.meta.command import (
        MetaOptions,
        field_armies,
        field_styles,
    )

    other = common.ruleset_library(rosters, ruleset, [("armies", a) for a in named], [("maps", m) for m in map_names])
    rules = other.kit
    known = rules.armies(other.data)
    field = field_armies(None, [other.id(a) for a in named], budget, known, rules.army_kind)
    maps_played = [other.id(m) for m in map_names] or sorted(rules.maps(other.data))
    styles = field_styles(common.comma(players, "players"), ruleset)
    checks.cells_games(games, len(field) * (len(field) - 1) // 2 * len(maps_played) * len(styles))
    kept = None if store is None else Path(store)
    options = MetaOptions(
        games=games, seed=seed, jobs=cores, turns=turns, ties=ties, target_ci=target_ci, budget=budget,
        resamples=resamples, store=kept, fresh=fresh, ruleset=ruleset,
    )  # fmt: skip
    return _play_meta(other.data, other.layers, field, maps_played, styles, options, ruleset, progress)


def _play_meta(
    data: Any,
    layers: Any,
    field: Any,
    maps_played: list[str],
    styles: list[str],
    options: Any,
    ruleset: str,
    progress: Progress,
) -> MetaResult:
    """Play a meta's field of `ruleset` on its library `data` with `options` (its store, if any, kept) and
    summarize it."""
    from clix.analyzer.meta.command import MetaStore, check_meta_options, meta_outcome, meta_runner, play_meta
    from clix.analyzer.meta.field import field_cells
    from clix.analyzer.meta.play import field_games

    check_meta_options(options)
    matchups = field_cells(layers, field, maps_played, styles, options.turns, options.ties, ruleset)
    runner = meta_runner(data, options)
    keeper = None if options.store is None else MetaStore.open(options.store, data, matchups, options)
    counter = common.Counter(progress)
    run = play_meta(matchups, options, runner, keeper, progress=counter.step, on_look=counter.plan)
    if run.interrupted:
        raise KeyboardInterrupt("interrupted: the games finished are kept in the store" if keeper else "")
    played = field_games(matchups, run)
    if played.empty:
        raise ClixError("no game of the meta finished (each failure is named above)")
    summary, cell_table, settings, field_doc = meta_outcome(
        data, layers, field, maps_played, styles, options, matchups, run, played
    )
    return _result(field, summary, cell_table, played, settings, field_doc)
