"""The meta's columns from a HeroClix field's game rows (engine/heroclix/matchups.py `game_rows`): per force, the
knockouts it scored, the victory points it took (by KOs and by its survivors) and the round of its first KO, per
game over every game it played; they stand where a HorrorClix meta has victims and plot twists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

COLUMNS = {
    "kos": "kos_{}",
    "vp": "vp_{}",
    "vp_kos": "vp_{}_kos",
    "vp_survivors": "vp_{}_survivors",
    "first_ko_round": "first_ko_{}",
    "damage_dealt": "damage_dealt_{}",
}
"""A force's measure and its game row column (side `a` or `b`)."""


def knockout_rows(games: pd.DataFrame, armies: Sequence[str]) -> list[dict[str, Any]]:
    """Per force of the field, in its order: games played and the mean per game of each of `COLUMNS` (a first-KO
    round over the games it scored one in; None when a column is missing or never set)."""
    parts = []
    for side in ("a", "b"):
        part = pd.DataFrame({"army": games[f"army_{side}"].to_numpy()})
        for name, column in COLUMNS.items():
            found = games.get(column.format(side))
            part[name] = pd.to_numeric(found, errors="coerce").to_numpy() if found is not None else float("nan")
        parts.append(part)
    long = pd.concat(parts, ignore_index=True)
    rows = []
    for army in armies:
        mine = long[long["army"] == army]
        row: dict[str, Any] = {"army": army, "games": len(mine)}
        for name in COLUMNS:
            mean = mine[name].mean() if len(mine) else float("nan")
            row[name] = None if pd.isna(mean) else round(float(mean), 4)
        rows.append(row)
    return rows


def knockout_lines(
    rows: list[dict[str, Any]], number: dict[str, str], kind: str = "force", name: Any = None
) -> list[str]:
    """The console's table of `knockout_rows`: KOs, VP (from KOs, from survivors) and first KO round per game;
    `name` shows an army's id (default: the id)."""
    name = name or (lambda army: army)
    from clix.analyzer.ladder.command import text_table

    def cell(value: float | None, digits: int = 2) -> str:
        return "–" if value is None else f"{value:.{digits}f}"

    head = [kind, "KOs", "VP", "VP KOs", "VP left", "1st KO", "damage"]
    body = [
        [
            f"{number.get(r['army'], '')} {name(r['army'])}".strip(),
            cell(r["kos"]),
            cell(r["vp"], 1),
            cell(r["vp_kos"], 1),
            cell(r["vp_survivors"], 1),
            cell(r["first_ko_round"], 1),
            cell(r["damage_dealt"], 1),
        ]
        for r in rows
    ]
    return [
        "  per game over each force's games: KOs scored, VP (from KOs, from its characters left standing), round of",
        "  its first KO, damage dealt:",
    ] + ["  " + line for line in text_table([head, *body])]
