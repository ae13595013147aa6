"""`clix.build`: the best legal army for a budget against a field, as `clix build` races candidates
(analyzer/build)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._army import Army
from clix.api._common import ArmyArgument, Names, Progress, Result, Source

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from clix.analyzer.build.race import BuildResult as Raced
    from clix.api._meta import MetaResult
    from clix.api._value import ValueResult

FLAGS = common.flags_of(
    "budget",
    "field",
    "include",
    "exclude",
    "cabal",
    "crypt",
    "ruleset",
    "maps",
    "players",
    "values",
    "candidates",
    "first_games",
    "eta",
    "finalists",
    "objective",
    "final_games",
    "seed",
    "turns",
    "jobs",
    "store",
) | {"--class": "figure_class"}
PREPARING = ("listing", "checking")
"""The race's steps that play no game (their progress is not the progress callback's)."""
Field = Sequence[ArmyArgument] | Mapping[str, float] | str | Path | None
"""A field: armies (ids, files, folders, `clix.Army`), armies with weights ({id: weight}), a field.json, or a
`clix.meta` result (its Nash mixture)."""


@dataclass(repr=False, eq=False)
class BuildResult(Result):
    """The measured builds (by rank: build-01 the best) and the field's own armies, their armies, the headline
    comparison and the final games."""

    builds: pd.DataFrame
    """One row per measured build and field army (builds.csv): its score against the field with its interval."""
    armies: dict[str, Any]
    """The measured builds' armies by name (build-01 the best), to play or to change: `Army` objects (HeroClix: its
    `Force` models, as a force file holds them)."""
    games: pd.DataFrame
    """The final measurement's games (games.csv)."""
    comparison: dict[str, Any]
    """The headline's numbers: the best build against the field's own armies on the same seeds."""
    settings: dict[str, Any]
    raced: Raced
    """What `clix build` writes its outputs from (the stages of the race, each build's why, ...)."""

    @property
    def best(self) -> Any:
        """The best build (build-01)."""
        return self.armies[min(self.armies)]

    @property
    def headline(self) -> str:
        return str(self.comparison.get("headline") or "no build was measured")

    def table(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "build": self.builds["name"],
                "role": self.builds["role"],
                "points": self.builds["points"],
                "vs field [95%]": [common.percent(r) for r in self.builds.to_dict("records")],
                "figures": self.builds["figures"],
            }
        )

    def plot(self) -> Figure:
        """Each measured build's and field army's score against the field, with its 95% interval."""
        from matplotlib.figure import Figure

        rows = self.builds.to_dict("records")
        fig = Figure(figsize=(7, 0.4 * len(rows) + 1.8), dpi=100, layout="constrained")
        ax = fig.subplots()
        for y, r in enumerate(rows):
            colour = "#2f6690" if r["role"] != "field army" else "#777777"
            xerr = [[100 * (r["score"] - r["low"])], [100 * (r["high"] - r["score"])]]
            ax.errorbar(100 * r["score"], y, xerr=xerr, fmt="o", color=colour, capsize=4, lw=2)
        ax.axvline(50, color="#555555", ls="--", lw=1)
        ax.set_yticks(range(len(rows)), [r["name"] for r in rows])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlabel("score against the field (wins + ½ draws), %, 95% interval; grey: the field's own armies")
        ax.grid(axis="x", alpha=0.3)
        return fig

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        from clix.analyzer.build.report import write_build
        from clix.analyzer.duel.command import pdf_from

        written = write_build(folder, self.raced, False)
        if pdf:
            written["pdf"] = pdf_from(written["report"], folder / "build.pdf")
        return written


def _field(field: Any, folder: Path) -> tuple[list[Any], str]:
    """The field's entries (`analyzer.build.field.FieldEntry`) and where it came from."""
    from clix.analyzer.build.field import FieldEntry, field_entries
    from clix.api._meta import MetaResult

    if isinstance(field, MetaResult):
        entries = [FieldEntry(e["army"], float(e["weight"])) for e in field.field_document["field"]]
        return entries, f"the Nash mixture of {field.field_document['source']}"
    if isinstance(field, Mapping):
        weighted = [FieldEntry(common.army_argument(a, folder, "field"), float(w)) for a, w in field.items()]
        return [e for e in weighted if e.weight > 0], ", ".join(f"{e.army} {e.weight:g}" for e in weighted)
    given = [field] if isinstance(field, str | Path) or not isinstance(field, Sequence) else list(field)
    return field_entries([common.army_argument(a, folder, "field") for a in given])


def build(
    *,
    budget: int = 100,
    field: Field | MetaResult = None,
    include: Names = None,
    exclude: Names = None,
    cabal: Names = None,
    figure_class: Names = None,
    crypt: Names = None,
    maps: Names = None,
    players: str = "tuned",
    values: ValueResult | str | Path | None = None,
    candidates: int = 243,
    first_games: int = 4,
    eta: int = 3,
    finalists: int = 4,
    objective: str = "auto",
    final_games: int = 1000,
    seed: int = 0,
    turns: int = 15,
    jobs: int = 0,
    rosters: Source = None,
    store: str | Path | None = None,
    progress: Progress = None,
    ruleset: str | None = None,
) -> BuildResult:
    """The best legal army of `budget` points against `field` (default: the library's armies of that budget):
    `candidates` builds race in stages (`first_games` per field army and map, the best 1/`eta` going on with `eta`
    times the games) to `finalists`, measured with the field's own armies on fresh seeds (`final_games`). Builds
    must field `include` and not `exclude`, only of `cabal` and `figure_class` when given, and play `crypt`;
    `values` (a `clix.value` result or a value.json) guides half the candidates; `objective` ranks by the score
    against the field ("field"), the worst head to head ("maximin") or "auto". As `clix build`; `store`, `jobs`,
    `progress` as in `clix.duel`. A field of HeroClix forces (or `ruleset="heroclix-2005"`) builds HeroClix forces
    (random legal forces, HX-BUILD-01/03/04; no `cabal`, `figure_class` or `crypt`)."""
    from clix.analyzer.build.candidates import Constraints, read_values, value_estimates
    from clix.analyzer.build.command import Search, check_build, finish_build, planned_games, resolve_field
    from clix.analyzer.build.race import search_builds
    from clix.analyzer.play.store import Store
    from clix.analyzer.value.pieces import pieces_of
    from clix.api._value import ValueResult
    from clix.engine.core.ruleset import DEFAULT_RULESET

    common.budget(budget)
    common.turns(turns)
    common.seed(seed)
    common.games(first_games, "first_games")
    common.games(final_games, "final_games")
    for number, name in ((candidates, "candidates"), (eta, "eta"), (finalists, "finalists")):
        common.whole(number, name)
    cores = common.jobs(jobs)
    map_names = common.names(maps, "maps")
    with common.army_folder() as folder, common.python_errors(FLAGS):
        entries, source = (None, "") if field is None else _field(field, folder)
        named = [("field", e.army, False) for e in entries or ()] + [("maps", m, True) for m in map_names]
        chosen = common.ruleset_of(rosters, named, ruleset)
        if chosen != DEFAULT_RULESET:  # HeroClix: its library (analyzer/value/pieces.py), no cabal, class or crypt
            for given, name in ((cabal, "cabal"), (figure_class, "figure_class"), (crypt, "crypt")):
                if common.names(given, name):
                    raise ClixError(f"{name}: {chosen} forces have no {name.replace('figure_', '')}; leave it out")
            other = common.ruleset_library(
                rosters, chosen, [("field", e.army) for e in entries or ()], [("maps", m) for m in map_names]
            )
            data, layers, ident = other.data, other.layers, other.id
        else:
            library = common.load(
                rosters,
                {e.army: "field" for e in entries or ()} | {m: "maps" for m in map_names},
                armies=[e.army for e in entries or ()],
                maps=map_names,
                choose=lambda roster: {
                    "armies": [] if entries else sorted(a for a, x in roster.armies.items() if x.build_total == budget),
                    "maps": [] if map_names else sorted(roster.maps),
                },
            )
            data, layers, ident = library.roster, library.layers, library.id
        pieces = pieces_of(data)
        kinds = "armies" if pieces.army_kind == "army" else "forces"
        if entries is None:
            found = sorted(a for a, x in pieces.armies.items() if x.build_total == budget)
            if not found:
                raise ClixError(f"field: the library has no {pieces.army_kind} of {budget} points; name the field")
            field_armies, source = [(a, 1 / len(found)) for a in found], f"the library's {budget}-point {kinds}"
        else:
            field_armies = resolve_field(entries, ident)
        constraints = Constraints(
            budget=budget,
            include=tuple(common.names(include, "include")),
            exclude=tuple(common.names(exclude, "exclude")),
            cabals=tuple(common.names(cabal, "cabal")),
            classes=tuple(common.names(figure_class, "figure_class")),
            crypt=tuple(common.names(crypt, "crypt")),
        )
        for card in constraints.crypt:
            if card not in data.plot_twists:
                from clix.engine.core.files.problems import did_you_mean

                raise ClixError("crypt: " + did_you_mean("plot twist", card, data.plot_twists))
        search = Search(
            candidates=candidates,
            first=first_games,
            eta=eta,
            finalists=finalists,
            final=final_games,
            maps=tuple(ident(m) for m in map_names) or tuple(sorted(data.maps)),
            style=players.strip(),
            turns=turns,
            seed=seed,
            objective=objective.strip(),
        )
        check_build(search, len(field_armies), chosen)
        estimates: dict[str, dict[str, float]] | None
        values_source: str | None
        if isinstance(values, ValueResult):
            estimates, values_source = value_estimates(values.measured.rows), "a clix.value result"
        else:
            estimates = None if values is None else read_values(Path(values))
            values_source = None if values is None else str(values)
        kept = None if store is None else Path(store)
        counter = common.Counter(progress, planned_games(search, len(field_armies)))
        raced = search_builds(
            data,
            layers,
            constraints,
            field_armies,
            search,
            jobs=cores,
            store=None if kept is None else Store.open(kept),
            values=estimates,
            progress=None
            if progress is None
            else lambda label, total: None if label.startswith(PREPARING) else counter.step,
        )
        if raced.interrupted:
            raise KeyboardInterrupt
        if raced.games.empty:
            raise ClixError("stopped before the final measurement finished (each failure is named above)")
        finish_build(raced, field_source=source, jobs=cores, store=kept, values=values_source, ruleset=chosen)
    from clix.analyzer.build.report import builds_table

    armies = {name: Army.of(army) if chosen == DEFAULT_RULESET else army for name, army in raced.armies.items()}
    return BuildResult(builds_table(raced), armies, raced.games, raced.comparison, raced.settings, raced)
