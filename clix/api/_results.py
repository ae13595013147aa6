"""`clix.results`: the runs recorded in a result store, as `clix results` lists, shows and exports them
(analyzer/results)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from clix.analyzer.common.errors import ClixError
from clix.api import _common as common
from clix.api._common import Result
from clix.api._duel import DuelResult
from clix.api._horrified import HorrifiedResult
from clix.api._melee import FieldResult, MeleeResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FLAGS = {"--store": "store", "--out": "path", "--format": "format", "--figures": "figures"}


@dataclass(repr=False, eq=False)
class Results(Result):
    """The runs of a result store (`clix duel` and `clix.duel(store=...)` record theirs): one row each, and each
    run's duel as a `DuelResult` (`run`), its rows as a file (`export`)."""

    runs: pd.DataFrame
    """One row per run, oldest first: id, when it started, its kind (duel, melee, field, horrified), what it played
    (`label`, as `clix results list` shows it), its settings, its games (played and taken from the store) and A's
    score with its 95% interval (a melee's or a field's: army A's win share; a Horrified run's: the win rate)."""
    store: Path

    @property
    def headline(self) -> str:
        count = len(self.runs)
        if not count:
            return f"no run recorded in {self.store} yet"
        last = self.runs.iloc[-1]
        score = "" if pd.isna(last["score"]) else f": A scores {100 * last['score']:.1f}%"
        where = f" on {last['map']}" if last["map"] else ""
        return (
            f"{count} run{'s' if count > 1 else ''} in {self.store}; the last, #{last['id']}, "
            f"{last['label']}{where} ({last['games']} games){score}"
        )

    def table(self) -> pd.DataFrame:
        shown = self.runs.tail(12)
        return pd.DataFrame(
            {
                "run": shown["id"],
                "started": shown["started"].dt.strftime("%Y-%m-%d %H:%M"),
                "played": shown["label"],
                "map": shown["map"],
                "players": shown["players"],
                "games": shown["games"],
                "A's score [95%]": [common.percent(r) for r in shown.to_dict("records")],
            }
        )

    def _record(self, run: int | str) -> Any:
        from clix.analyzer.play.store import Store
        from clix.analyzer.results.command import find_run

        with common.python_errors(FLAGS | {"`clix results list` shows every run": "Results.runs lists every run"}):
            opened = Store.existing(self.store)
            try:
                return find_run(opened, str(run))
            except ClixError as exc:
                raise ClixError(f"run: {exc}") from None

    def run(self, run: int | str = "last") -> DuelResult | MeleeResult | HorrifiedResult:
        """The recorded run `run` (its id, or "last") as the result its command returned, from the store: a duel's
        `DuelResult` (its summary, settings and tables), a melee's `MeleeResult` (a field's `FieldResult`), a
        Horrified run's `HorrifiedResult` (its summary and games; its report is in the run's folder)."""
        from clix.analyzer.play.store import Store
        from clix.analyzer.results.command import horrified_games, horrified_settings, melee_settings, run_tables

        record = self._record(run)
        damaged = ClixError(f"run {record.id}: its summary in {self.store} is damaged")
        try:
            document = json.loads(record.document)
            settings = document.pop("settings")
        except (TypeError, ValueError, KeyError, AttributeError):
            raise damaged from None
        horrified, melee = horrified_settings(record), melee_settings(record)
        with common.python_errors(FLAGS):
            if horrified is not None:
                games = horrified_games(Store.existing(self.store), record, horrified)
                return HorrifiedResult(games=games, summary=document, folder=Path(record.out))
            stored = run_tables(Store.existing(self.store), record)
        if melee is not None:
            frame = stored.game_table.compact()
            games = frame.frame.astype(frame.types.to_dict())
            kind = FieldResult if melee.get("pods") else MeleeResult
            return kind(games=games, summary=document | {"settings": settings})
        try:
            provenance = document.pop("provenance")
        except KeyError:
            raise damaged from None
        tables = [table.compact() for table in (stored.game_table, stored.figure_table)]
        games, figures = (rows.frame.astype(rows.types.to_dict()) for rows in tables)
        return DuelResult(games, figures, document, settings, provenance)

    def export(self, run: int | str, path: str | Path, figures: bool = False, format: str | None = None) -> Path:
        """Write the run's game rows (with `figures`, its figure rows) to `path` as CSV or Parquet (`format`, or
        from the file's suffix); return the path."""
        from clix.analyzer.play.store import Store
        from clix.analyzer.results.command import export_run

        self._record(run)  # an unknown run named in the API's words
        with common.python_errors(FLAGS):
            written, _ = export_run(Store.existing(self.store), str(run), format, Path(path), figures)
        return written

    def plot(self) -> Figure:
        """Each run's A score with its 95% interval, oldest at the top."""
        from matplotlib.figure import Figure

        rows = self.runs.to_dict("records")
        fig = Figure(figsize=(7, 0.35 * max(len(rows), 1) + 1.6), dpi=100, layout="constrained")
        ax = fig.subplots()
        for y, r in enumerate(rows):
            if not pd.isna(r["low"]):
                xerr = [[100 * (r["score"] - r["low"])], [100 * (r["high"] - r["score"])]]
                ax.errorbar(100 * r["score"], y, xerr=xerr, fmt="o", color="#b23a48", capsize=4, lw=2)
        ax.axvline(50, color="#555555", ls="--", lw=1)
        ax.set_yticks(range(len(rows)), [f"#{r['id']} {r['label']}" for r in rows])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlim(0, 100)
        ax.set_xlabel("A's score (wins + ½ draws; a melee's win share; Horrified's win rate), %, 95% interval")
        ax.grid(axis="x", alpha=0.3)
        return fig

    def _write(self, folder: Path, pdf: bool) -> dict[str, Path]:
        import base64
        import html
        import io

        from clix.analyzer.report.duel import write_pdf

        folder.mkdir(parents=True, exist_ok=True)
        image = io.BytesIO()
        self.plot().savefig(image, format="png")
        picture = base64.b64encode(image.getvalue()).decode("ascii")
        page = (
            '<!DOCTYPE html><html><head><meta charset="utf-8"><title>clix results</title></head><body>'
            f"<h1>Runs in {html.escape(str(self.store))}</h1><p>{html.escape(self.headline)}</p>"
            f'<img alt="each run\'s score" src="data:image/png;base64,{picture}">'
            + self.runs.drop(columns=["command"]).to_html(index=False, border=0, na_rep="–")
            + "</body></html>"
        )
        written = {"report": folder / "results.html"}
        written["report"].write_text(page, encoding="utf-8")
        if pdf:
            written["pdf"] = write_pdf(page, folder / "results.pdf")
        return written


def _score(document: str) -> dict[str, Any]:
    """The 95% interval of the score a run shows: a duel's score, a melee's army A win share, a Horrified run's
    win rate (a field has none: its armies are rated, not scored)."""
    try:
        summary = json.loads(document)
        if "score" in summary:
            score = summary["score"]
        elif "win_rate" in summary:
            score = summary["win_rate"]
        else:
            first = next(a for a in summary["armies"] if a.get("slot") == "A")
            score = {"low": first["win_low"], "high": first["win_high"]}
        return {"low": score["low"], "high": score["high"]}
    except (TypeError, ValueError, KeyError, StopIteration, AttributeError):
        return {"low": None, "high": None}


def _kind(horrified: dict[str, Any] | None, melee: dict[str, Any] | None) -> str:
    if horrified is not None:
        return "horrified"
    if melee is not None:
        return "field" if melee.get("pods") else "melee"
    return "duel"


def results(store: str | Path | None = None) -> Results:
    """The runs recorded in the result store `store` (default: clix-out/clix.duckdb, where `clix duel` keeps its
    games), as `clix results list` lists them. A store that does not exist is a `clix.ClixError`."""
    from clix.analyzer.play.store import DEFAULT_STORE, Store, local_time
    from clix.analyzer.results.command import horrified_settings, melee_settings, record_names, run_label

    path = Path(store) if store is not None else DEFAULT_STORE
    with common.python_errors(FLAGS):
        records = Store.existing(path).runs()
    rows = [
        {
            "id": r.id,
            "started": local_time(r.started).replace(tzinfo=None),
            "kind": _kind(horrified_settings(r), melee_settings(r)),
            "label": run_label(r),
            "army_a": r.army_a,
            "army_b": r.army_b,
            "army_a_name": record_names(r)["a"],
            "army_b_name": record_names(r)["b"],
            "map": r.map,
            "players": r.players,
            "seed": r.seed,
            "turns": r.turns,
            "ties": r.ties,
            "games": r.games,
            "played": r.played,
            "from_store": r.from_store,
            "interrupted": r.interrupted,
            "score": r.score,
            **_score(r.document),
            "seconds": r.seconds,
            "command": r.command,
        }
        for r in records
    ]
    columns = [
        "id",
        "started",
        "kind",
        "label",
        "army_a",
        "army_b",
        "army_a_name",
        "army_b_name",
        "map",
        "players",
        "seed",
        "turns",
    ]
    columns += ["ties", "games", "played"]
    columns += ["from_store", "interrupted", "score", "low", "high", "seconds", "command"]
    runs = pd.DataFrame(rows, columns=columns)
    runs["started"] = pd.to_datetime(runs["started"])
    return Results(runs, path)
