"""`clix melee`: three or four armies at one table (free-for-all, or two teams of two), over blocks of games that
put every army in every seat (analyzer/melee/design.py), summarized per army (analyzer/melee/stats.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.melee.design import SLOTS, Melee, horrorclix_part, play_row, rounded_games, seed_path
from clix.analyzer.melee.keep import MeleeKeeper, run_settings
from clix.analyzer.play.pool import run_items
from clix.analyzer.play.result import report_line
from clix.analyzer.play.runner import batch_size_for, player_factory
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET

MIN_ARMIES, MAX_ARMIES = 3, 4


def check_armies(armies: Sequence[str], known: Sequence[str] | None, field: int = 0) -> None:
    """3 or 4 armies (a `field` in pods of `field`: that many or more, all different), each one the library has
    (`known`; None: the count alone), one line otherwise."""
    if field and (len(armies) < field or len(set(armies)) < len(armies)):
        raise ClixError(
            f"ARMIES: --pods {field} plays {field} or more different armies in pods of {field} (got {len(armies)}, "
            f"{len(set(armies))} different); name each army once"
        )
    if not field and not MIN_ARMIES <= len(armies) <= MAX_ARMIES:
        raise ClixError(
            f"ARMIES: a melee seats 3 or 4 armies (got {len(armies)}); for two armies use `clix duel A B`"
            + (
                "; five players are not supported (HC-VICTIM-02: 12 victims do not divide by 5)"
                if len(armies) > 4
                else ""
            )
        )
    if known is None:
        return
    for name in armies:
        if name not in known:
            raise ClixError(did_you_mean("army", name, known, "`clix roster list armies` shows every army"))


def check_map(roster: Any, map_id: str, size: int) -> None:
    """A map with a starting area for each player (HC-SETUP-04)."""
    if map_id not in roster.maps:
        raise ClixError(did_you_mean("map", map_id, sorted(roster.maps), "`clix roster list maps` shows every map"))
    areas = len(roster.maps[map_id].starting_areas())
    if areas < size:
        raise ClixError(
            f"--map: {map_id} has {areas} starting areas and the melee seats {size} players (HC-SETUP-04); "
            "choose a map with one for each"
        )


def parse_teams(spec: str | None, size: int) -> tuple[int, ...]:
    """`--teams AB:CD` as each slot's team number (1 or 2); () for none. Two teams of two, every army in one."""
    if spec is None or not spec.strip():
        return ()
    if size != 4:
        raise ClixError(f"--teams: team games seat two teams of two, so four armies (got {size}); name a fourth army")
    letters = SLOTS[:size]
    parts = [p.strip().upper() for p in spec.split(":")]
    used = "".join(parts)
    if size != 4 or len(parts) != 2 or any(len(p) != 2 for p in parts) or sorted(used) != list(letters):
        raise ClixError(
            f"--teams: {spec!r} is not two teams of two naming each of the four armies once (A, B, C, D in the order "
            "named); write it like AB:CD or AC:BD"
        )
    return tuple(1 if letters[i] in parts[0] else 2 for i in range(size))


def parse_styles(spec: str | None, size: int, default: str, ruleset: str = DEFAULT_RULESET) -> tuple[str, ...]:
    """`--players`: one style for every army, or one per army in order; each a known style."""
    names = [n.strip() for n in (spec or default).split(",") if n.strip()]
    if len(names) == 1:
        names *= size
    if len(names) != size:
        raise ClixError(f"--players takes one style, or {size} separated by commas, one per army (got {spec!r})")
    for name in names:
        player_factory(name, ruleset)
    return tuple(names)


def build_melee(
    rosters: Sequence[Path] | None,
    armies: Sequence[str],
    map_name: str | None,
    players: str | None,
    teams: str | None,
    turns: int,
    ties: str,
    warn: Callable[[str], None] | None = None,
    field: int = 0,
    ruleset: str | None = None,
) -> Melee:
    """The melee the command line or the API asks for, every argument checked (one line for the first wrong one);
    `field`: a field in pods of that many armies (`analyzer.melee.field`), 0 for one table. A field may name
    several maps, comma-separated: the melee's map is then their ids joined by commas (`field.build_field` plays
    every pod on each). The armies say their ruleset (HeroClix forces: heroclix-2005), else `ruleset` (--ruleset),
    else HorrorClix."""
    from clix.analyzer.library.load import load_library
    from clix.analyzer.library.rulesets import Argument, arguments_ruleset

    named = [Argument("ARMIES", a) for a in armies] + ([Argument("--map", map_name, "maps")] if map_name else [])
    chosen = arguments_ruleset(list(rosters) if rosters else None, named, ruleset)
    if chosen != DEFAULT_RULESET:
        return _kit_melee(rosters, armies, map_name, players, teams, turns, ties, warn, field, chosen)
    DEFAULT_STYLE = horrorclix_part("players").DEFAULT_STYLE
    if ties not in ("break", "draw"):
        raise ClixError(f"--ties takes break or draw (got {ties!r})")
    check_armies(armies, None, field)
    maps = list(dict.fromkeys(m.strip() for m in (map_name or "graveyard").split(",") if m.strip())) or ["graveyard"]
    if len(maps) > 1 and not field:
        raise ClixError(
            f"--map {map_name}: a melee at one table plays on one map; several maps are for a field in pods (--pods)"
        )
    library = load_library(list(rosters) if rosters else None, armies=armies, maps=maps, warn=warn)
    roster = library.roster
    ids = [library.id(a) for a in armies]
    check_armies(ids, sorted(roster.armies), field)
    map_ids = [library.id(m) for m in maps]
    for map_id in map_ids:
        check_map(roster, map_id, field or min(len(ids), MAX_ARMIES))
    return Melee(
        library=tuple(library.layers),
        armies=tuple(ids),
        map_name=",".join(map_ids),
        styles=parse_styles(players, len(ids), DEFAULT_STYLE),
        teams=parse_teams(teams, len(ids)),
        turn_limit=turns,
        ties=ties,
    )


def _kit_melee(
    rosters: Sequence[Path] | None,
    armies: Sequence[str],
    map_name: str | None,
    players: str | None,
    teams: str | None,
    turns: int,
    ties: str,
    warn: Callable[[str], None] | None,
    field: int,
    ruleset: str,
) -> Melee:
    """`build_melee` for another ruleset than HorrorClix's (HeroClix): its library and styles through its kit."""
    from clix.analyzer.library.rulesets import Argument, matchup_library

    if ties not in ("break", "draw"):
        raise ClixError(f"--ties takes break or draw (got {ties!r})")
    check_armies(armies, None, field)
    maps = list(dict.fromkeys(m.strip() for m in (map_name or "").split(",") if m.strip()))
    if len(maps) > 1 and not field:
        raise ClixError(
            f"--map {map_name}: a melee at one table plays on one map; several maps are for a field in pods (--pods)"
        )
    loaded = matchup_library(
        list(rosters) if rosters else None,
        [Argument("ARMIES", a) for a in armies],
        Argument("--map", maps[0] if maps else None),
        ruleset=ruleset,
        warn=warn,
        more_maps=[Argument("--map", m, "maps") for m in maps[1:]],
    )
    kit = loaded.kit
    ids = [loaded.id(a) for a in armies]
    check_armies(ids, sorted(kit.armies(loaded.data)), field)
    map_ids = [loaded.ids[""], *(loaded.id(m) for m in maps[1:])]
    seats = field or min(len(ids), MAX_ARMIES)
    for map_id in map_ids:
        areas = len(kit.maps(loaded.data)[map_id].starting_areas())
        if areas < seats:
            raise ClixError(
                f"--map: {map_id} has {areas} starting areas and the melee seats {seats} players "
                "(HX-SETUP-03 OPEN); choose a map with one for each"
            )
    return Melee(
        library=tuple(loaded.layers),
        armies=tuple(ids),
        map_name=",".join(map_ids),
        styles=parse_styles(players, len(ids), kit.default_style, ruleset),
        teams=parse_teams(teams, len(ids)),
        turn_limit=turns,
        ties=ties,
        ruleset=ruleset,
    )


def play_games(
    melee: Melee,
    games: int,
    seed: int,
    jobs: int,
    progress: Callable[[int], None] | None = None,
    stop_on_error: bool = False,
    keeper: MeleeKeeper | None = None,
    play: Callable[[int], dict[str, Any]] | None = None,
    describe: Callable[[int], str] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Play games 0 .. `games` - 1 (whole blocks) on `jobs` processes with the duel's worker pool, taking those the
    result store has (`keeper`) and storing those played: the rows in game order, and how the run ended
    ({interrupted, stopped, failed, from_store}). `play` (a picklable callable of the game index; default the
    melee's `play_row`) and `describe` (a game's label in messages) serve a field's pods."""
    rows: dict[int, dict[str, Any]] = {i: r for i, r in (keeper.known if keeper else {}).items() if i < games}
    indexes = [i for i in range(games) if i not in rows]

    def keep(position: int, row: dict[str, Any]) -> None:
        rows[indexes[position]] = row
        if keeper is not None:
            keeper.add(indexes[position], row)

    try:
        outcome = run_items(
            play or partial(play_row, melee, seed),
            indexes,
            jobs,
            batch_size_for(max(1, len(indexes)), jobs),
            describe=lambda p: (describe or partial(_seed_path_text, melee))(indexes[p]),
            report=report_line,
            progress=progress,
            stop_on_error=stop_on_error,
            stop_on_raise=True,
            on_result=keep,
            on_batch=keeper.writer.tick if keeper is not None else None,
            keep=False,
        )
    finally:
        if keeper is not None:
            keeper.close()
    ended = {
        "interrupted": outcome.interrupted,
        "stopped": outcome.stopped,
        "failed": [{"game": indexes[p], "reason": why} for p, why in sorted(outcome.failed.items())],
        "from_store": games - len(indexes),
    }
    return [rows[i] for i in sorted(rows)], ended


def _seed_path_text(melee: Melee, index: int) -> str:
    return f"game {index} (seed path {':'.join(map(str, seed_path(melee, index)))})"


def games_frame(rows: list[dict[str, Any]], melee: Melee) -> Any:
    """The games as a pandas table; only whole blocks are kept (an interrupted run's last block is left out)."""
    import pandas as pd

    table = pd.DataFrame(rows)
    if table.empty:
        return table
    whole = table.groupby("block")["game"].transform("size") == melee.block_size
    return table[whole].reset_index(drop=True)


def write_outputs(out: Path, games: Any, summary: dict[str, Any]) -> list[Path]:
    """games.csv, summary.json and report.html (self-contained, reports/melee.html.j2) in `out`."""
    import json

    from clix.analyzer.common.jsonout import rounded
    from clix.analyzer.report.duel import TEMPLATES
    from clix.analyzer.report.folder import writing
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "games.csv", out / "summary.json", out / "report.html"]
    with writing(paths[0]):
        games.to_csv(paths[0], index=False)
    with writing(paths[1]):
        paths[1].write_text(json.dumps(rounded(summary), default=str, indent=1) + "\n")
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("melee.html.j2").render(summary=summary, pct=_pct)
    with writing(paths[2]):
        paths[2].write_text(html, encoding="utf-8")
    return paths


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def melee_command(melee: Melee, games: int, seed: int) -> str:
    """The command line that plays this melee again (as `clix results list` records it)."""
    from clix.analyzer.melee.design import teams_text

    parts = ["clix melee", *melee.armies, f"--games {games}", f"--map {melee.map_name}", f"--seed {seed}"]
    styles = melee.styles[0] if len(set(melee.styles)) == 1 else ",".join(melee.styles)
    parts.append(f"--players {styles}")
    parts += [f"--turns {melee.turn_limit}", f"--ties {melee.ties}"]
    if melee.teams:
        parts.append(f"--teams {teams_text(melee)}")
    return " ".join(parts)


def requested_games(games: int, melee: Melee) -> tuple[int, str | None]:
    """`--games` rounded up to whole blocks, and the note saying so (None when nothing was rounded)."""
    played = rounded_games(games, melee.block_size)
    if played == games:
        return played, None
    return played, (
        f"note: --games {games} rounded up to {played}: {played // melee.block_size} whole blocks of "
        f"{melee.block_size} games (every seat order once)"
    )


def run_melee(
    melee: Melee,
    games: int,
    seed: int,
    jobs: int,
    out: Any,
    as_json: bool,
    console: Any,
    err: Any,
    stop_on_error: bool = False,
    store: Path | None = None,
    fresh: bool = False,
) -> int:
    """Play the melee, print its summary (text, or one line of JSON) and write games.csv, summary.json and
    report.html to `out` (a `report.folder.Target`: claimed before the games, written whole or not at all; None
    writes nothing); the exit code."""
    from contextlib import nullcontext

    from clix.analyzer.common.jsonout import print_json
    from clix.analyzer.common.progress import progress_bar
    from clix.analyzer.melee.console import print_summary
    from clix.analyzer.melee.stats import summarize
    from clix.analyzer.play.pool import close_pool
    from clix.analyzer.play.result import run_exit_code
    from clix.analyzer.report.folder import claim_output

    played, note = requested_games(games, melee)
    if note is not None:
        err.print(note, markup=False)
    with claim_output(out) if out is not None else nullcontext() as claimed:
        keeper = None if store is None else MeleeKeeper(store, melee, seed, played, fresh)
        try:
            done = len(keeper.known) if keeper is not None else 0
            with progress_bar(console, "melee", played, as_json or console.quiet, done) as advance:
                rows, ended = play_games(melee, played, seed, jobs, advance, stop_on_error, keeper)
        finally:
            close_pool()
        table = games_frame(rows, melee)
        if table.empty:
            raise ClixError(
                "no whole block of games finished: nothing to report (play more games, or see the lines above)"
            )
        summary = summarize(table) | {"seed": seed, "map": melee.map_name, "ended": ended, "store": str(store or "")}
        summary["settings"] = run_settings(melee, summary, melee_command(melee, played, seed))
        if claimed is not None:
            with claimed.staged() as staging:
                written = write_outputs(staging, table, summary)
            summary["outputs"] = [str(claimed.final(p)) for p in written]
        if keeper is not None:
            folder = str(Path(summary["outputs"][0]).resolve().parent) if "outputs" in summary else ""
            keeper.record(melee, summary, [int(i) for i in table["game"]], summary["settings"]["command"], folder)
    if as_json:
        print_json(summary)
    else:
        print_summary(summary, console)
        if "outputs" in summary:
            console.print(f"report: {summary['outputs'][-1]}", markup=False)
    return run_exit_code(ended["interrupted"], bool(ended["failed"]), ended["stopped"])
