"""`clix replay`: one game of a duel played again from its seed and printed turn by turn.

A game is named either by a duel's output folder and its index (`--run DIR --game N`, settings from
summary.json, the game's row from games.csv), or by the duel's inputs (`ARMY_A ARMY_B --seed S --game N`).
Both play it exactly as `clix duel` did: same seed path, same seats, same players (`analyzer.play.runner.play_state`,
the code that plays every duel game), and the row is computed by the duel's own `game_rows`.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clix.analyzer.common.checks import MAX_TURNS
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.names import side_names
from clix.analyzer.library.rulesets import MAPS, Argument, matchup_library, ruleset_of_version
from clix.analyzer.play.runner import (
    DEFAULT_STYLE,
    Matchup,
    game_rows,
    game_seed_path,
    kit,
    library_at,
    play_state,
    player_factory,
)
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named

# the columns of a game row the replay needs, with the type to read them as
ROW_COLUMNS: dict[str, Callable[[Any], Any]] = {
    "game": int,
    "master_seed": int,
    "seed_path": str,
    "seat_a": int,
    "army_a": str,
    "army_b": str,
    "map": str,
    "players_a": str,
    "players_b": str,
    "turn_limit": int,
    "ties": str,
    "first": str,
    "winner": str,
    "vp_a": float,
    "vp_b": float,
}


@dataclass
class Replay:
    """What `clix replay` prints: the game's lines, one-line warnings (stderr) and the exit code."""

    lines: list[str]
    warnings: list[str] = field(default_factory=list)
    exit_code: int = 0


def parse_styles(spec: str | None, ruleset: str = DEFAULT_RULESET) -> tuple[str, str]:
    """ "STYLE_A,STYLE_B" (or one style for both; None: the ruleset's default style), each a style `clix duel`
    knows in `ruleset`."""
    if spec is None:
        default = kit(ruleset).default_style
        return default, default
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise ClixError(f"--players takes two styles separated by a comma, like tuned,rusher (got {spec!r})")
    for name in names:
        player_factory(name, ruleset)
    return names[0], names[1]


def parse_seed_path(text: str) -> tuple[int, ...]:
    """A games.csv `seed_path` ("17" or "17:1") as the spawn key below the master seed."""
    try:
        path = tuple(int(part) for part in str(text).split(":"))
    except ValueError:
        path = (-1,)
    if any(part < 0 for part in path):
        raise ClixError(f"seed_path {text!r} in games.csv is not like 17 or 17:1")
    return path


def check_names(matchup: Matchup) -> None:
    """The matchup's armies (or forces) and map exist in its ruleset's library."""
    rules = kit(matchup.ruleset)
    library = library_at(matchup)
    armies, maps, kind = rules.armies(library), rules.maps(library), str(rules.army_kind)
    listing = "armies" if kind == "army" else f"{kind}s"
    for army in (matchup.army_a, matchup.army_b):
        if army not in armies:
            raise ClixError(did_you_mean(kind, army, armies, f"`clix roster list {listing}` shows every {kind}"))
    if matchup.map_name not in maps:
        raise ClixError("--map: " + did_you_mean("map", matchup.map_name, maps))


def side_labels(matchup: Matchup) -> dict[str, str]:
    """How each side is named: its army as every command shows it (its `name:`, common/names.py), with A/B added
    when both sides play the same army."""
    shown = side_names(library_at(matchup), matchup.army_a, matchup.army_b)
    if matchup.army_a == matchup.army_b:
        return {"A": f"{shown['a']} (A)", "B": f"{shown['b']} (B)"}
    return {"A": shown["a"], "B": shown["b"]}


def game_lines(state: Any, matchup: Matchup, swapped: bool) -> list[str]:
    """The game's events grouped by turn; each turn headed by the player who acts in it."""
    label = side_labels(matchup)
    side_of = {2 if swapped else 1: "A", 1 if swapped else 2: "B"}
    players = len(state.players)
    if not any(e.kind == "turn_start" for e in state.log):  # a ruleset that logs no turns (HeroClix): by event
        return _lines_by_turn(state, label, side_of)
    last_end = max((i for i, e in enumerate(state.log) if e.kind == "turn_end"), default=-1)
    last_start = max((i for i, e in enumerate(state.log) if e.kind == "turn_start"), default=-1)
    lines = ["-- setup"]
    for i, event in enumerate(state.log):
        if event.kind == "turn_start":
            side = side_of.get(event.player, "?")
            round_ = (event.turn - 1) // players + 1
            lines.append(f"-- turn {event.turn} (round {round_}): player {event.player}, {label.get(side, '?')}")
        elif i == last_end + 1 and last_end > last_start:
            lines.append("-- end of game")
        detail = " ".join(f"{k}={v}" for k, v in event.detail)
        lines.append(f"   {event.kind} {detail}".rstrip())
    return lines


def _lines_by_turn(state: Any, label: dict[str, str], side_of: dict[int, str]) -> list[str]:
    """The game's events, a heading before each turn's first event: its number, round and player (each event
    records the turn and the active player; a turn with no event is not shown)."""
    players = max(1, len(state.players))
    lines = ["-- setup"]
    turn = 0
    for event in state.log:
        if event.kind == "game_over":
            lines.append("-- end of game")
        elif event.turn != turn and event.kind not in ("first_player", "setup_done"):
            turn = event.turn
            side = side_of.get(event.player, "?")
            round_ = (turn - 1) // players + 1
            lines.append(f"-- turn {turn} (round {round_}): player {event.player}, {label.get(side, '?')}")
        detail = " ".join(f"{k}={v}" for k, v in event.detail)
        lines.append(f"   {event.kind} {detail}".rstrip())
    return lines


def _result_lines(matchup: Matchup, row: dict[str, Any], end_reason: str) -> list[str]:
    label = side_labels(matchup)
    winner = "a draw" if row["winner"] == "draw" else f"{label[row['winner']]} wins"
    rule = TIE_BREAKS.get(matchup.ruleset, "the cheaper army (HC-END-09)")
    tie = f" on the tie-break, {rule}" if row.get("tie_break") else ""
    return [f"result: {winner} ({end_reason}){tie}"]


TIE_BREAKS = {"heroclix-2005": "the force built with fewer points (HX-END-11)"}
"""How a replay names the tie-break of a ruleset other than HorrorClix (HC-END-09: the cheaper army)."""


def _vp_text(label: dict[str, str], row: dict[str, Any]) -> str:
    return f"final VP {label['A']} {row['vp_a']}, {label['B']} {row['vp_b']}"


def _intro(matchup: Matchup, swapped: bool, index: int, source: str, master_seed: int, path: tuple[int, ...]) -> str:
    seat_a, seat_b = (2, 1) if swapped else (1, 2)
    label = {side: text.removesuffix(f" ({side})") for side, text in side_labels(matchup).items()}
    return (
        f"A {label['A']} ({matchup.style_a}) as player {seat_a} vs B {label['B']} ({matchup.style_b}) as "
        f"player {seat_b} on {matchup.map_name}: game {index} of {source}; master seed {master_seed}, seed path "
        f"{':'.join(map(str, path))}, turn limit {matchup.turn_limit}, ties {matchup.ties}"
    )


def replay_seed(
    library: Path | tuple[Path, ...],
    army_a: str,
    army_b: str,
    *,
    map_name: str = "graveyard",
    seed: int = 0,
    players: str | None = f"{DEFAULT_STYLE},{DEFAULT_STYLE}",
    turns: int = 15,
    ties: str = "break",
    game: int = 0,
    ruleset: str = DEFAULT_RULESET,
) -> Replay:
    """Game `game` of `clix duel ARMY_A ARMY_B --seed SEED` with these settings, printed turn by turn (`players`
    None: the ruleset's default style on both sides)."""
    if ties not in ("break", "draw"):
        raise ClixError(f"--ties takes 'break' (the cheaper army wins, HC-END-09) or 'draw' (got {ties!r})")
    if game < 0:
        raise ClixError(f"--game takes a game index of the duel, 0 or more (got {game})")
    style_a, style_b = parse_styles(players, ruleset)
    matchup = Matchup(library, army_a, army_b, map_name, style_a, style_b, turns, ties, ruleset=ruleset)
    check_names(matchup)
    path = game_seed_path(matchup, game)
    state, swapped = play_state(matchup, seed, game, path)
    row, _ = game_rows(state, matchup, seed, game, swapped)
    command = (
        f"`clix duel {army_a} {army_b} --map {map_name} --players {style_a},{style_b} --seed {seed} --turns {turns}"
        + (" --ties draw`" if ties == "draw" else "`")
    )
    lines = [_intro(matchup, swapped, game, command, seed, path)]
    lines += game_lines(state, matchup, swapped)
    lines += _result_lines(matchup, row, state.end_reason)
    lines.append(_vp_text(side_labels(matchup), row))
    return Replay(lines)


def load_run(run: Path) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """A duel's output folder: the settings from summary.json, the game rows from games.csv (or
    games.parquet), each row with the columns the replay needs typed, and the table's file name."""
    if not run.is_dir():
        raise ClixError(f"--run {run}: no such directory (give the --out folder of a `clix duel`)")
    summary = run / "summary.json"
    if not summary.is_file():
        raise ClixError(f"--run {run}: no summary.json in it (give the --out folder of a `clix duel`)")
    try:
        settings = json.loads(summary.read_text(encoding="utf-8"))["settings"]
    except (ValueError, KeyError, TypeError):
        raise ClixError(f"{summary}: not a duel's summary (no settings in it)") from None
    if settings.get("players") == "sweep":
        raise ClixError(f"--run {run}: a --players sweep run; replay one of its games with the old form")
    if (run / "games.csv").is_file():
        with (run / "games.csv").open(newline="", encoding="utf-8") as handle:
            raw = list(csv.DictReader(handle))
        source = run / "games.csv"
    elif (run / "games.parquet").is_file():
        import pandas as pd

        raw = pd.read_parquet(run / "games.parquet").to_dict("records")
        source = run / "games.parquet"
    else:
        raise ClixError(f"--run {run}: no games.csv or games.parquet in it (give the --out folder of a `clix duel`)")
    missing = [c for c in ROW_COLUMNS if raw and c not in raw[0]]
    if missing:
        raise ClixError(f"{source}: no column {missing[0]} (a table from an older clix? run the duel again)")
    rows = []
    for record in raw:
        row = dict(record)
        for column, kind in ROW_COLUMNS.items():
            value = record[column]
            if kind is int:
                row[column] = _integer(value, column, source)
            elif kind is float:
                row[column] = _number(value, column, source)
            else:
                row[column] = kind(value)
        rows.append(row)
    return settings, rows, source.name


def _integer(value: Any, column: str, source: Path) -> int:
    """An integer cell of a games table: an int, a float from a column with gaps ("3.0"), or decimal text (seeds
    beyond int64 are stored as text, and a float would round them)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        pass
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not number.is_integer():
        raise ClixError(f"{source}: {column} {value!r} is not an integer")
    return int(number)


def _number(value: Any, column: str, source: Path) -> int | float:
    """A number cell of a games table: an integer when it is whole (HorrorClix's victory points), else the float
    (HeroClix's, split among opponents, HX-END-08)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ClixError(f"{source}: {column} {value!r} is not a number") from None
    return int(number) if number.is_integer() else number


def replay_run(
    rosters: Path | Sequence[Path] | None, run: Path, game: int, warn: Callable[[str], None] | None = None
) -> Replay:
    """Game `game` of the duel whose outputs are in `run`, printed turn by turn and checked against its row
    (exit code 1 when the replay differs). The roster library is `rosters`, else the one the run recorded."""
    settings, rows, table = load_run(run)
    if not rows:
        raise ClixError(f"--run {run}: {table} has no games")
    indexes = [r["game"] for r in rows]
    found = [r for r in rows if r["game"] == game]
    if not found:
        raise ClixError(f"--game {game}: out of range; {run} holds games {min(indexes)} to {max(indexes)}")
    if len(found) > 1:
        raise ClixError(f"--run {run}: {table} has {len(found)} games numbered {game} (not one duel's table)")
    row = found[0]
    warnings = []
    version = row.get("ruleset") or settings.get("ruleset")
    ruleset = ruleset_of_version(str(version)) if version else DEFAULT_RULESET
    current = ruleset_named(ruleset or DEFAULT_RULESET).version
    if version and version != current:
        warnings.append(
            f"warning: {run} was played with ruleset {version}, this clix plays {current}; the replay may differ"
        )
    recorded = [Path(p) for p in settings.get("rosters") or []]
    if not rosters and recorded and all(p.exists() for p in recorded):
        rosters = recorded
    library = matchup_library(
        rosters,
        [Argument("ARMY_A", row["army_a"]), Argument("ARMY_B", row["army_b"])],
        Argument("--map", row["map"], MAPS),
        ruleset=ruleset,
        warn=warn,
    )
    matchup = Matchup(
        library.layers,
        row["army_a"],
        row["army_b"],
        row["map"],
        row["players_a"],
        row["players_b"],
        row["turn_limit"],
        row["ties"],
        ruleset=library.ruleset,
    )
    check_names(matchup)
    if row["master_seed"] < 0 or not 1 <= row["turn_limit"] <= MAX_TURNS:
        raise ClixError(
            f"--run {run}: game {game} has master_seed {row['master_seed']} and turn_limit {row['turn_limit']} in "
            f"{table}; clix plays seeds 0 or more and turn limits 1 to {MAX_TURNS}"
        )
    path = parse_seed_path(row["seed_path"])
    state, swapped = play_state(matchup, row["master_seed"], game, path, swapped=row["seat_a"] == 2)
    replayed, _ = game_rows(state, matchup, row["master_seed"], game, swapped)
    lines = [_intro(matchup, swapped, game, f"run {run}", row["master_seed"], path)]
    lines += game_lines(state, matchup, swapped)
    lines += _result_lines(matchup, replayed, state.end_reason)
    label = side_labels(matchup)
    differ = [k for k in ("vp_a", "vp_b", "winner", "first") if replayed[k] != row[k]]
    if not differ:
        lines.append(f"{_vp_text(label, replayed)}: matches {table}")
        return Replay(lines, warnings)
    theirs = ", ".join(f"{k} {row[k]}" for k in differ)
    ours = ", ".join(f"{k} {replayed[k]}" for k in differ)
    lines.append(_vp_text(label, replayed))
    lines.append(f"mismatch with {table}: the replay gives {ours}; {table} says {theirs}")
    return Replay(lines, warnings, exit_code=1)
