"""`clix.duel`: one army against another, as `clix duel` plays it (analyzer/duel/command.py), returned as tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._common import ArmyArgument, Progress, Result, Source

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from clix.engine.horrorclix.roster.loader import Roster

FLAGS = common.flags_of("games", "players", "seed", "turns", "ties", "target_ci", "margin", "check_with", "jobs") | {
    "--map": "map",
    "--store": "store",
    "--fresh": "fresh",
}
API_RUN = "(clix.duel: no output folder)"
"""What the result store records as a duel's folder when the API played it."""


@dataclass(repr=False, eq=False)
class DuelResult(Result):
    """A duel's tables and summary (the numbers of `clix duel --json`), its plot and its report."""

    games: pd.DataFrame
    """One row per game (games.csv)."""
    figures: pd.DataFrame
    """One row per figure per game (figures.csv)."""
    summary: dict[str, Any]
    """Every statistic of the report: score, outcome, victory points, victim rush, first player, figures, ..."""
    settings: dict[str, Any]
    """What was asked and how it was played (summary.json's settings; `command` is the command line)."""
    provenance: str = ""
    """Where the numbers come from (sample data or not, powers the engine does not model)."""
    roster: Roster | None = field(default=None)
    """The library the duel was played with (for the report's army lists and map)."""
    views: Any = field(default=None)
    """A HeroClix duel's views of its data for the report (`duel.command.DuelViews`); None for HorrorClix."""

    @property
    def names(self) -> dict[str, str]:
        """The sides' armies as shown (their `name:`), by side ("a", "b")."""
        from clix.analyzer.common.names import settings_names

        return settings_names(self.settings)

    @property
    def score(self) -> tuple[float, float, float]:
        """Army A's score (wins + half of the draws) and its 95% interval over seat-swapped pairs, as fractions."""
        found = self.summary["score"]
        return float(found["score"]), float(found["low"]), float(found["high"])

    @property
    def headline(self) -> str:
        """The report's headline: who is favoured, by how much, with the interval."""
        from clix.analyzer.report.duel import verdict

        return verdict(self.summary, self.settings, self.names)

    def table(self) -> pd.DataFrame:
        """Each army's score, wins, victory points and points per army point."""
        outcome, vp = self.summary["outcome"], self.summary["victory_points"]
        score = self.summary["score"]
        other = None if score["score"] is None else {"score": 1 - score["score"], "low": 1 - score["high"]}
        if other is not None:
            other["high"] = 1 - score["low"]
        return pd.DataFrame(
            [
                {
                    "army": f"{side.upper()}: {self.names[side]}",
                    "score [95%]": common.percent(score if side == "a" else other),
                    "wins": f"{100 * outcome['win' if side == 'a' else 'loss']['rate']:.0f}%",
                    "draws": f"{100 * outcome['draw']['rate']:.0f}%",
                    "VP (mean)": round(vp[side]["total"]["mean"], 1),
                    "VP per army point": round(vp[side]["per_army_point"], 3),
                }
                for side in ("a", "b")
            ]
        )

    def plot(self) -> Figure:
        """A's score overall, by seat and going first or second, with 95% intervals (the report's first plot)."""
        from clix.analyzer.report.charts import score_figure

        return score_figure(self.summary, self.names)

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.duel.command import pdf_from
        from clix.analyzer.library.views import army_contents
        from clix.analyzer.report.duel import write_outputs

        if self.views is not None:
            written = write_outputs(
                folder, self.games, self.figures, self.summary, self.settings, self.names, self.provenance,
                armies=self.views.armies, draw_map=self.views.draw_map,
            )  # fmt: skip
            if pdf:
                written["pdf"] = pdf_from(written["report"], folder / "report.pdf")
            return written
        roster = self.roster if self.roster is not None else _library_of(self.settings)
        written = write_outputs(
            folder,
            self.games,
            self.figures,
            self.summary,
            self.settings,
            self.names,
            self.provenance,
            armies={side: army_contents(roster, self.settings[f"army_{side}"]) for side in ("a", "b")},
            layout=roster.maps.get(self.settings["map"]),
        )
        if pdf:
            written["pdf"] = pdf_from(written["report"], folder / "report.pdf")
        return written


def _library_of(settings: dict[str, Any]) -> Roster:
    """The library a recorded duel was played with (its layers, as its settings name them)."""
    from clix.analyzer.library.load import load_library

    layers = [Path(p) for p in settings.get("rosters", []) if Path(p).exists()]
    return load_library(layers or None, everything=False).roster


def duel(
    army_a: ArmyArgument,
    army_b: ArmyArgument,
    *,
    games: int = 1000,
    map: str | Path | None = None,
    players: str | Sequence[str] | None = None,
    seed: int = 0,
    turns: int = 15,
    ties: str = "break",
    target_ci: float | None = None,
    margin: float | None = None,
    check_with: str | None = None,
    jobs: int = 0,
    rosters: Source = None,
    store: str | Path | None = None,
    fresh: bool = False,
    progress: Progress = None,
) -> DuelResult:
    """Play `games` seeded games of army A against army B (seats swapped in pairs) and summarize them: the games
    `clix duel` plays with the same arguments, for any `jobs`.

    An army is an id in the library, the path of an army file, or a `clix.Army`; the map an id or a path (default:
    graveyard); `players` the two styles ("tuned,rusher", or ("tuned", "rusher"), or one for both; default: tuned
    for both). Two HeroClix forces (ids or files) play HeroClix: on chemical-plant by default, with the HeroClix
    players (default: its default style), knockouts and pushes in place of victims. `target_ci` plays pairs
    until A's score is known to ± that much (`games` is then the cap), `margin` adds the test of a balance within
    ± margin of 50%, `check_with` replays the first games with a stronger style (as "search:48") to check the
    verdict. `jobs`: worker processes, 0 for every core (the command line's default), 1 to play in this process.
    With a result `store` (a DuckDB file, as `clix duel --store`) its games for this duel are taken from it (unless
    `fresh`), the others added to it, and the run recorded (`clix.results`). `progress(done, planned)` is told of
    the games as they finish. Nothing is printed or written otherwise; mistakes raise `clix.ClixError`."""
    from clix.analyzer.common.names import side_names
    from clix.analyzer.duel.command import (
        check_duel_options,
        duel_matchup,
        duel_settings,
        duel_views,
        play_duel,
        summarize_duel,
    )
    from clix.analyzer.duel.keeper import DuelKeeper
    from clix.analyzer.report.duel import provenance_line
    from clix.engine.core.ruleset import DEFAULT_RULESET

    common.games(games)
    common.turns(turns)
    common.seed(seed)
    cores = common.jobs(jobs)
    spec = None if players is None else common.players(players)
    if spec is not None and spec.strip() == "sweep":
        raise ClixError(
            "players: 'sweep' is the command line's (clix duel --players sweep); call clix.duel per pairing"
        )
    counter = common.Counter(progress, games + games % 2)
    with common.army_folder() as folder, common.python_errors(FLAGS):
        arguments = [
            common.army_argument(army, folder, name) for army, name in ((army_a, "army_a"), (army_b, "army_b"))
        ]
        named = [("army_a", arguments[0], False), ("army_b", arguments[1], False)]
        ruleset = common.ruleset_of(rosters, named + ([("map", str(map), True)] if map is not None else []))
        if ruleset == DEFAULT_RULESET:
            map_text = "graveyard" if map is None else str(map)
            library = common.load(
                rosters,
                {arguments[0]: "army_a", arguments[1]: "army_b", map_text: "map"},
                armies=arguments,
                maps=[map_text],
            )
            roster, layers, ids = library.roster, library.layers, [library.id(a) for a in (*arguments, map_text)]
        else:
            other = common.ruleset_library(rosters, ruleset, named_pairs(named), [("map", str(map))] if map else [])
            roster, layers = other.data, other.layers
            ids = [other.id(arguments[0]), other.id(arguments[1]), other.id("" if map is None else str(map))]
        check_duel_options(ties, target_ci, margin)
        matchup, checker = duel_matchup(
            roster,
            layers,
            ids[0],
            ids[1],
            map_name=ids[2],
            players=spec,
            ruleset=ruleset,
            turns=turns,
            ties=ties,
            check_with=check_with,
            note=common.note,
        )
        kept = None if store is None else Path(store)
        keeper = None if kept is None else DuelKeeper.start(kept, roster, matchup, seed, games + games % 2, fresh)
        try:
            result, precision = play_duel(
                matchup,
                games,
                seed,
                cores,
                quiet=True,
                console=common.QUIET,
                target=target_ci,
                known=keeper.known if keeper else None,
                on_result=keeper.writer.add if keeper else None,
                on_batch=keeper.writer.tick if keeper else None,
                progress=counter.step,
            )
        finally:
            if keeper is not None:
                keeper.writer.close()
        if result.interrupted:
            raise KeyboardInterrupt("interrupted: the games finished are kept in the store" if keeper else "")
        if not result.count:
            raise ClixError("no game of the duel finished (each failure is named above)")
        game_rows, figure_rows, summary = summarize_duel(
            result,
            precision,
            matchup,
            margin=margin,
            checker=checker,
            seed=seed,
            jobs=cores,
            console=common.QUIET,
            quiet=True,
        )
        settings = duel_settings(
            matchup,
            side_names(roster, matchup.army_a, matchup.army_b),
            result,
            game_rows.frame,
            games=games,
            seed=seed,
            jobs=cores,
            target_ci=target_ci,
            margin=margin,
            checker=checker,
            store=kept,
            fresh=fresh,
            run=None if keeper is None else keeper.run_id,
        )
        views = None
        if ruleset == DEFAULT_RULESET:
            provenance = provenance_line(roster, [matchup.army_a, matchup.army_b])
        else:
            views = duel_views(ruleset, roster, matchup.army_a, matchup.army_b, matchup.map_name)
            provenance = views.provenance
        if keeper is not None:
            keeper.record(result, {"settings": settings, "provenance": provenance, **summary}, Path(API_RUN))
    games_df = game_rows.frame.astype(game_rows.types.to_dict())
    figures_df = figure_rows.frame.astype(figure_rows.types.to_dict())
    return DuelResult(games_df, figures_df, summary, settings, provenance, None if views else roster, views)


def named_pairs(named: Sequence[tuple[str, str, bool]]) -> list[tuple[str, str]]:
    """(parameter, argument) of each of `named` (`common.ruleset_of`'s arguments)."""
    return [(label, text) for label, text, _ in named]
