"""`clix.value`: what each figure and plot twist is worth in points, as `clix value` measures it (analyzer/value)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._common import ArmyArgument, Names, Progress, Result, Source

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from clix.analyzer.value.measure import ValueResult as Measured

FLAGS = common.flags_of(
    "budget",
    "armies",
    "opponents",
    "games",
    "maps",
    "players",
    "pool",
    "resamples",
    "holdout",
    "holdout_games",
    "predict",
    "seed",
    "turns",
    "jobs",
    "store",
    "ruleset",
)


@dataclass(repr=False, eq=False)
class ValueResult(Result):
    """The value of every figure and plot twist in points with 95% intervals, the fitted model, the holdout check
    and the games."""

    values: pd.DataFrame
    """One row per figure and card (value.csv): cost, times fielded, value [low, high], residual (value - cost)
    with its interval, and the verdict (under-costed, over-costed, leans ..., fair within the data)."""
    games: pd.DataFrame
    """The design's games (games.csv)."""
    model: dict[str, Any]
    """The fit: logits per point of cost, the seat effect, the verdicts' stability, ..."""
    holdout: dict[str, Any] | None
    """The check on armies the fit never saw: each pairing's measured score against the predicted one."""
    prediction: dict[str, Any] | None
    """With `predict=(A, B)`: A's predicted score against B with its 95% interval."""
    settings: dict[str, Any]
    measured: Measured
    """What `clix value` writes its outputs from."""

    @property
    def headline(self) -> str:
        """The report's one-sentence verdict with the run's size (as `clix value` and value.html open)."""
        from clix.analyzer.value.report import value_headline

        return value_headline(self.measured)

    def table(self) -> pd.DataFrame:
        """The figures by residual (value - cost), most under-costed first."""
        figures = self.values[self.values["kind"] == "figure"].sort_values("residual", ascending=False)
        return pd.DataFrame(
            {
                "figure": figures["name"],
                "cost": figures["cost"],
                "value [95%]": [_interval(r, "value", "low", "high") for _, r in figures.iterrows()],
                "residual": [
                    _interval(r, "residual", "residual_low", "residual_high", "{:+.0f}") for _, r in figures.iterrows()
                ],
                "verdict": figures["verdict"],
            }
        )

    def plot(self) -> Figure:
        """Value against cost per figure, with 95% intervals and the line value = cost (the report's first plot)."""
        from clix.analyzer.value.report import value_figure

        figure: Figure = value_figure(self.measured.rows)
        return figure

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.value.report import write_value

        return write_value(folder, self.measured, pdf)


def _interval(row: Any, key: str, low: str, high: str, form: str = "{:.0f}") -> str:
    if row[key] is None or pd.isna(row[key]):
        return "–"
    bounds = "" if pd.isna(row[low]) else f" [{form.format(row[low])}, {form.format(row[high])}]"
    return form.format(row[key]) + bounds


def value(
    *,
    budget: int = 100,
    armies: int = 1500,
    opponents: int = 6,
    games: int = 2,
    maps: Names = None,
    players: Names = None,
    pool: Names = None,
    resamples: int = 200,
    holdout: int = 16,
    holdout_games: int | None = None,
    predict: tuple[ArmyArgument, ArmyArgument] | None = None,
    seed: int = 0,
    turns: int = 15,
    jobs: int = 0,
    rosters: Source = None,
    store: str | Path | None = None,
    progress: Progress = None,
    ruleset: str | None = None,
) -> ValueResult:
    """`armies` random near-full legal armies of `budget` points (from the figures of `pool`, default all) each
    play `opponents` others, `games` per matchup (in seat-swapped pairs) on each map and player style; an additive
    model of army strength is fitted and calibrated so a point of cost is worth a point on average. Each figure's
    value has a bootstrap interval over `resamples` resamples; `holdout` armies outside the design check the fit
    (`holdout_games` per pairing; 0: no check); `predict=(A, B)` also predicts A's score against B. As
    `clix value` (its swap test, `--swap`, is the command line's only); `store`, `jobs`, `progress` as in
    `clix.duel`. `maps` and `players` default to the ruleset's (HorrorClix: graveyard, tuned). HeroClix forces in
    `predict` (or `ruleset="heroclix-2005"`) value HeroClix characters over random legal forces."""
    from clix.analyzer.play.store import Store
    from clix.analyzer.value.command import Design, check_styles, finish_value, value_numbers
    from clix.analyzer.value.design import design_games
    from clix.analyzer.value.measure import measure_values
    from clix.analyzer.value.report import value_table
    from clix.engine.core.ruleset import DEFAULT_RULESET

    common.turns(turns)
    common.seed(seed)
    common.budget(budget)
    for number, name in ((armies, "armies"), (opponents, "opponents"), (resamples, "resamples"), (holdout, "holdout")):
        common.whole(number, name)
    cores = common.jobs(jobs)
    map_names = common.names(maps, "maps")
    styles = tuple(common.names(players, "players"))
    if predict is not None and (isinstance(predict, str) or len(predict) != 2):
        raise ClixError(f"predict must be two armies, (A, B) (got {predict!r})")
    with common.army_folder() as folder, common.python_errors(FLAGS):
        pair = [common.army_argument(a, folder, "predict") for a in predict or ()]
        named = [("predict", a, False) for a in pair] + [("maps", m, True) for m in map_names]
        chosen = common.ruleset_of(rosters, named, ruleset)
        if chosen != DEFAULT_RULESET:
            other = common.ruleset_library(
                rosters, chosen, [("predict", a) for a in pair], [("maps", m) for m in map_names]
            )
            data, layers, ident = other.data, other.layers, other.id
            map_names = map_names or [""]  # "": the ruleset's default map
            styles = styles or (other.kit.default_style,)
        else:
            map_names = map_names or ["graveyard"]
            styles = styles or ("tuned",)
        per_matchup, per_holdout = value_numbers(
            budget=budget,
            armies=armies,
            opponents=opponents,
            games=common.games(games, "games"),
            cells=len(map_names) * len(styles),
            resamples=resamples,
            holdout=holdout,
            holdout_games=holdout_games,
            predict=predict is not None,
        )
        if chosen == DEFAULT_RULESET:
            library = common.load(
                rosters,
                {name: "maps" for name in map_names} | {a: "predict" for a in pair},
                maps=map_names,
                armies=pair,
            )
            data, layers, ident = library.roster, library.layers, library.id
        design = Design(
            budget=budget,
            armies=armies,
            opponents=opponents,
            games=per_matchup,
            maps=tuple(ident(m) for m in map_names),
            styles=styles,
            turns=turns,
            seed=seed,
            pool=tuple(common.names(pool, "pool")),
            holdout=holdout,
            holdout_games=per_holdout,
        )
        check_styles(design, chosen)
        kept = None if store is None else Path(store)
        counter = common.Counter(progress, design_games(data, design))
        measured = measure_values(
            data,
            layers,
            design,
            jobs=cores,
            store=None if kept is None else Store.open(kept),
            resamples=resamples,
            progress=counter.step,
        )
        assert measured.played is not None
        if measured.played.interrupted:
            raise KeyboardInterrupt
        if not measured.rows:
            raise ClixError("too few games finished to fit the values (each failure is named above)")
        ids = (ident(pair[0]), ident(pair[1])) if pair else None
        finish_value(data, measured, design, jobs=cores, store=kept, predict=ids)
    return ValueResult(
        value_table(measured),
        measured.games,
        measured.model,
        measured.holdout,
        measured.prediction,
        measured.settings,
        measured,
    )
