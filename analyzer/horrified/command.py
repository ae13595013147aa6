"""`clix horrified`: play the games a question needs, then print text or JSON and write games.csv."""

from __future__ import annotations

import csv
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.progress import progress_bar
from clix.analyzer.horrified.games import Cell, play_cells, seeds
from clix.analyzer.horrified.report import focus, headline
from clix.analyzer.horrified.summary import ends_by_turn, percent, signed, summarize, win_rate
from clix.analyzer.horrified.tables import difficulty_cells, difficulty_table, hero_cells, hero_table, sensitivity_table
from rich.console import Console

if TYPE_CHECKING:
    from clix.analyzer.horrified.keep import HorrifiedKeeper

SHORT = {"win rate": "rate", "commoner loss": "loss"}
"""The verdicts as the sensitivity table's last column names them."""
TABLES = ("lineup", "difficulty", "heroes", "sensitivity")
CHECKED = ("difficulty", "heroes")
"""The tables whose verdicts `--sensitivity` re-measures in every assumed world (analyzer/horrified/robust.py)."""
NOTE = "a model: assumed components (docs/horrified.md), the {style} player"


def planned(plan: Plan) -> int:
    """The most games the plan plays (the progress bar's total): its cells' games and, with `sensitivity`, its
    check's (robust.planned_games)."""
    from clix.analyzer.horrified.robust import planned_games

    cells = cells_for(plan.table, plan.base)
    check = plan.sensitivity and plan.table in CHECKED
    return plan.games * cells + (planned_games(plan.table, cells, plan.base, plan.games) if check else 0)


def cells_for(table: str, base: Cell) -> int:
    """How many cells `table` plays (for the progress bar's total)."""
    if table == "difficulty":
        return len(difficulty_cells(base)[0])
    if table == "heroes":
        return 1 + len(hero_cells(base))
    if table == "sensitivity":
        from clix.analyzer.horrified.games import kit

        return 1 + sum(len(a["values"]) for a in kit().assumptions(base.layers))
    return 1


@dataclass(frozen=True)
class Plan:
    """What a run plays: `table` of the line-up `base` (its difficulty's id, or 'custom'), `games` per cell from
    the master `seed`."""

    table: str
    base: Cell
    difficulty: str
    games: int
    seed: int
    sensitivity: bool = True
    """A difficulty or hero table's verdicts re-measured in every assumed world (robust.py)."""


@dataclass
class Measured:
    """A run's numbers: the summary (as --json prints it), its cells and their game rows, and the label of the cell
    whose ends by turn the summary holds (the table's baseline)."""

    summary: dict[str, Any]
    cells: list[Cell]
    found: list[list[dict[str, Any]]]
    focus: str
    score: float | None = None
    """The focus cell's win rate (what `clix results list` shows of the run)."""


def run(
    plan: Plan,
    jobs: int,
    out: Path,
    as_json: bool,
    console: Console,
    pdf: bool = False,
    store: Path | None = None,
    fresh: bool = False,
) -> dict[str, Any]:
    """Play the plan's cells on the same seeds, report, write `out`/games.csv and the report (horrified.html,
    ends.png; horrified.pdf with `pdf`); the summary. With a result `store`, the games it has are read, not
    played (unless `fresh`), those played are added as they finish, and the run is recorded in its `runs`; a
    Ctrl-C keeps the games finished (`Interrupted` says so)."""
    from clix.analyzer.horrified.keep import HorrifiedKeeper

    keeper = None if store is None else HorrifiedKeeper(store, plan.seed, plan.games, fresh)
    total = planned(plan)
    try:
        with progress_bar(console, f"horrified {plan.table}", total, as_json or console.quiet) as advance:
            measured = measure(plan, jobs, advance, keeper)
    except KeyboardInterrupt:
        if keeper is None:
            raise
        from clix.analyzer.report.folder import Interrupted

        raise Interrupted(
            f"interrupted: the {keeper.played} games finished are kept in the result store {keeper.store.path} "
            f"({keeper.from_store} were there already); the same command again plays only the rest"
        ) from None
    written = write_outputs(out, measured, plan.base.layers, pdf)
    summary = measured.summary
    kept: dict[str, Any] = {}
    if keeper is not None:
        keeper.record(summary, measured.score, summary["command"], str(out.resolve()))
        kept = {"path": str(keeper.store.path), "run": keeper.run_id, "from_store": keeper.from_store,
                "played": keeper.played, "fresh": fresh}  # fmt: skip
    if as_json:
        print_json({**summary, "games_csv": str(written["games"]), **({"store": kept} if kept else {})})
    else:
        for line in lines(summary) + ([store_line(kept)] if kept else []):
            console.print(line, markup=False, highlight=False)
        for path in written.values():
            console.print(f"wrote {path}", markup=False, highlight=False)
    return summary


def store_line(kept: dict[str, Any]) -> str:
    """Where the run's games went: '  store: run 3 in clix-out/clix.duckdb; 400 games from the store, 0 played'."""
    taken = "--fresh: no games read" if kept["fresh"] else f"{kept['from_store']} games from the store"
    return f"  store: run {kept['run']} in {kept['path']}; {taken}, {kept['played']} played"


def write_outputs(out: Path, measured: Measured, layers: tuple[Path, ...], pdf: bool = False) -> dict[str, Path]:
    """games.csv, horrified.html and ends.png in `out` (horrified.pdf with `pdf`); the paths by kind."""
    from clix.analyzer.horrified.report import write_report
    from clix.analyzer.report.folder import writing

    out.mkdir(parents=True, exist_ok=True)
    with writing(out / "games.csv"):
        write_games(out / "games.csv", measured.cells, measured.found)
    return {"games": out / "games.csv", **write_report(out, measured.summary, layers, measured.focus, pdf)}


def measure(
    plan: Plan, jobs: int, advance: Callable[[int], None] | None = None, keeper: HorrifiedKeeper | None = None
) -> Measured:
    """Play the plan's cells `games` times each on the same seeds (`advance(n)` as games finish), taking the games
    the result store has (`keeper`) and storing those played: the summary with its headline and the ends by turn
    of the table's baseline, the cells and their game rows."""
    table, base, games, seed = plan.table, plan.base, plan.games, plan.seed
    game_seeds = seeds(seed, games)

    def play(cells: Sequence[Cell], indexes: range | None = None) -> list[list[dict[str, Any]]]:
        chosen = range(games) if indexes is None else indexes
        if keeper is None:
            return play_cells(cells, game_seeds, jobs, advance, [list(chosen)] * len(cells))
        known = keeper.known(cells, chosen, check=indexes is not None)
        if advance is not None:
            advance(sum(len(rows) for rows in known))
        wanted = [[k for k in chosen if k not in rows] for rows in known]
        try:
            played = play_cells(cells, game_seeds, jobs, advance, wanted, lambda c, rows: keeper.add(cells[c], rows))
        finally:
            keeper.close()
        return [
            sorted([*rows.values(), *new], key=lambda row: row["game"]) for rows, new in zip(known, played, strict=True)
        ]

    if table == "lineup":
        cells = [base]
        found = play(cells)
        result: dict[str, Any] = {"table": "lineup", **summarize(found[0])}
    elif table == "difficulty":
        result, found, cells = difficulty_table(base, play)
    elif table == "heroes":
        result, found, cells = hero_table(base, play)
    else:
        result, found, cells = sensitivity_table(base, play)
    if plan.sensitivity and table in CHECKED:
        from clix.analyzer.horrified.robust import check_difficulty, check_heroes

        if table == "difficulty":
            result["sensitivity"] = check_difficulty(result, cells, base, games, play, advance)
        else:
            result["sensitivity"] = check_heroes(result, cells[1:], base, games, play)
    head = {"ruleset": "horrified", "monsters": list(base.monsters), "heroes": list(base.heroes),
            "players": len(base.heroes), "difficulty": plan.difficulty, "style": base.style, "games": games,
            "seed": seed, "data": [str(p) for p in base.layers[1:]], "note": NOTE.format(style=base.style)}  # fmt: skip
    label, rows = focus(cells, found, base)
    command = command_line(table, base, games, seed) + (
        "" if plan.sensitivity or table not in CHECKED else " --no-sensitivity"
    )
    summary = {**head, **result, "command": command, "ends_by_turn": ends_by_turn(rows)}
    score = win_rate(rows)["rate"]
    return Measured({**summary, "headline": headline(summary)}, list(cells), found, label, score)


def command_line(table: str, base: Cell, games: int, seed: int) -> str:
    """The `clix horrified` command that plays this run again."""
    data = "".join(f" --data {path}" for path in base.layers[1:])
    return (
        f"clix horrified --table {table} --monsters {','.join(base.monsters)} --heroes {','.join(base.heroes)} "
        f"--players {base.style} --games {games} --seed {seed}{data}"
    )


GAME_FIELDS = ["monsters", "heroes", "assumption", "value", "game", "won", "end", "turns", "terror", "monsters_left"]
"""games.csv's columns."""


def game_rows(cells: Sequence[Cell], found: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One row per game: its cell (monsters, heroes, the assumed number changed) and its outcome."""
    return [
        {
            "monsters": "+".join(cell.monsters),
            "heroes": "+".join(cell.heroes),
            "assumption": cell.knob or "",
            "value": cell.value if cell.knob else "",
            **row,
        }
        for cell, rows in zip(cells, found, strict=True)
        for row in rows
    ]


def write_games(path: Path, cells: Sequence[Cell], found: Sequence[Sequence[dict[str, Any]]]) -> None:
    """games.csv: `game_rows`."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=GAME_FIELDS)
        writer.writeheader()
        writer.writerows(game_rows(cells, found))


def lines(summary: dict[str, Any]) -> list[str]:
    """The summary as text (each line under 80 columns)."""
    table = summary["table"]
    title = f"Horrified {'+'.join(summary['monsters'])} ({summary['difficulty']})"
    found = [title, f"  {summary['games']} games per cell, seed {summary['seed']}, {summary['style']} players"]
    if table == "lineup":
        ends = summary["ends"]
        turns = summary["turns"]
        found += [
            f"  heroes: {', '.join(summary['heroes'])} ({summary['players']} players)",
            f"  win rate {percent(summary['win_rate'])} (95% Wilson interval)",
            f"  ends: {ends['win']} won, {ends['terror']} terror, {ends['deck out']} deck out",
            f"  turns: mean {turns['mean']:.1f} (won games {_num(turns['mean_won'])}), {turns['min']}-{turns['max']}",
        ]
    elif table == "difficulty":
        check = "sensitivity" in summary
        found.append(f"  {'difficulty, monsters':<48} n  {'win rate [95%]':<14}" + (" check" if check else ""))
        level = None
        for row in summary["cells"]:
            if row["difficulty"] != level:
                level = row["difficulty"]
                found.append(f"  {level}")
            mark = f" {_short(row['mark'])}" if check else ""
            found.append(f"    {'+'.join(row['monsters']):<46} {row['players']}  {percent(row['win_rate']):<14}{mark}")
        for row in summary["lacking"]:
            found.append(f"  {row['difficulty']:<12} ({row['monsters']} monsters: no line-up the engine plays yet)")
        found.append("  n: players" + ("; check: survives, FLIPS or unsettled in the assumed worlds" if check else ""))
    elif table == "heroes":
        found.append(f"  baseline {', '.join(summary['heroes'])}: {percent(summary['baseline']['win_rate'])}")
        check = "sensitivity" in summary
        found.append(
            "  swap (seat: out -> in)           win rate [95%]   change, paired" + ("    check" if check else "")
        )
        for row in summary["swaps"]:
            swap = f"{row['seat']}: {row['out']} -> {row['in']}"
            mark = f" {_short(row['mark'])}" if check else ""
            found.append(f"  {swap:<32} {percent(row['win_rate']):<16} {signed(row['change']):<17}{mark}")
    else:
        verdicts = summary["verdicts"]
        found.append(f"  baseline {', '.join(summary['heroes'])}: {percent(summary['baseline']['win_rate'])}")
        found.append(f"  verdicts: win rate {verdicts['win rate']}, commoner loss {verdicts['commoner loss']}")
        found.append("  assumption        value  win rate [95%]   change, paired    verdicts")
        for row in summary["variants"]:
            mark = "FLIPS " + "+".join(SHORT[k] for k in row["flips"]) if row["flips"] else "survive"
            found.append(f"  {row['assumption']:<16} {row['value']:>3}/{row['baseline']:<3}"
                         f"{percent(row['win_rate']):<16} {signed(row['change']):<17} {mark}")  # fmt: skip
        for key, kept in summary["survives"].items():
            found.append(f"  {key}: {'survives every plausible value' if kept else 'FLIPS under a plausible value'}")
    if "sensitivity" in summary:
        from clix.analyzer.horrified.robust import sentence

        found += textwrap.wrap(sentence(summary["sensitivity"], table), 78, initial_indent="  ", subsequent_indent="  ")
    if table != "lineup":  # what ended the games of the cell the plot of ends shows (report.focus)
        by_end = {end: sum(summary["ends_by_turn"].get(end, [])) for end in ("win", "terror", "deck out")}
        found.append(f"  ends of the cell the report plots: {by_end['win']} won, {by_end['terror']} terror, "
                     f"{by_end['deck out']} deck out")  # fmt: skip
    found += textwrap.wrap(summary["headline"], 78, initial_indent="  ", subsequent_indent="  ")
    found.append(f"  ({summary['note']})")
    return found


def _short(mark: str) -> str:
    """A verdict's check as the text table shows it: survives, FLIPS or unsettled (the report has it whole)."""
    return "FLIPS" if mark.startswith("flips") else "unsettled" if mark.startswith("not settled") else mark


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
