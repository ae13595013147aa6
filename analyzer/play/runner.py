"""Playing many seeded games of one matchup in parallel and turning each into flat rows.

Per-game seeds are derived in the parent from one master seed (`engine.horrorclix.game.child_seeds`), and
games come in pairs sharing a seed with the armies' seats swapped (the usual way to cut variance and
to measure the first-player advantage). Results are identical for any number of jobs and any batch
size, and when a dead worker's games are played again (`analyzer.play.pool`): each game depends only on its
own index and seed.
"""

from __future__ import annotations

import atexit
import functools
import gc
import math
import os
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.conformance import roster_at
from clix.analyzer.play.pool import Outcome, run_items
from clix.analyzer.play.result import GameRows, RunResult, report_line
from clix.engine import RULESET_VERSION, compiled
from clix.engine.core.dice import child_seed
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.players import Agent, RandomAgent
from clix.engine.core.players.search import DEFAULT_BUDGET
from clix.engine.horrorclix.game import Watch, play, start_game
from clix.engine.horrorclix.players.heuristic import DEFAULT_STYLE, STYLES, style_factory
from clix.engine.horrorclix.players.search import search_factory
from clix.engine.horrorclix.roster.models import Army
from clix.engine.horrorclix.state import GameState
from numpy.random import SeedSequence

if TYPE_CHECKING:
    pass

SEARCH = "search"
"""The lookahead player (`engine.horrorclix.players.search`); `search:N` searches N playouts a decision."""
PLAYER_STYLES = ("random", *STYLES)
"""The fast styles (a ladder's default, the golden games' pairings); `search` and `search:N` are named on demand."""


def player_factory(style: str) -> Callable:
    """The factory `rng -> agent` of a named player style."""
    if style == "random":
        return RandomAgent
    if style in STYLES:
        return style_factory(style)
    if style == SEARCH or style.startswith(SEARCH + ":"):
        return search_factory(search_budget(style), name=style)
    raise ClixError("--players: " + did_you_mean("player style", style, (*PLAYER_STYLES, SEARCH)))


def search_budget(style: str) -> int:
    """The playouts a decision of a `search` or `search:N` style (the default budget for `search`)."""
    if style == SEARCH:
        return DEFAULT_BUDGET
    text = style[len(SEARCH) + 1 :]
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise ClixError(
            f"--players: '{style}': a search budget is a number of playouts from 1 to 100000, as search:200"
        )
    return int(text)


@dataclass(frozen=True)
class Matchup:
    """Everything that decides a game except its seed."""

    library: Path | tuple[Path, ...]
    """The roster library: a folder, or layers (later ones replace items of earlier ones by name)."""
    army_a: str
    army_b: str
    map_name: str
    style_a: str = DEFAULT_STYLE
    style_b: str = DEFAULT_STYLE
    turn_limit: int = 15
    ties: str = "break"
    """Equal VP: "break" applies HC-END-09 (the cheaper army wins), "draw" makes it a draw."""
    given: tuple[tuple[str, str], ...] = ()
    """Armies given as data rather than by the library, as (name, the army's JSON): random armies and candidate
    builds (`clix value`, `clix build`). A name here is used instead of the library's army of that name."""


def game_seed_path(matchup: Matchup, index: int) -> tuple[int, ...]:
    """The spawn key of game `index`'s seed below the master seed (docs/statistics.md, "Pairs").

    The two games of a pair share the pair's seed, seats swapped, so the pair measures the seat and the
    first player rather than the dice. When both sides are identical (same army, same style) the swap would
    replay the same game, so the second game gets a seed of its own, (pair, 1)."""
    pair = index // 2
    if index % 2 == 1 and matchup.army_a == matchup.army_b and matchup.style_a == matchup.style_b:
        return (pair, 1)
    return (pair,)


def game_seed(master_seed: int, path: Sequence[int]) -> int | SeedSequence:
    """The seed of the game at spawn key `path` below the master seed (`game_seed_path`)."""
    seed: int | SeedSequence = master_seed
    for key in path:
        seed = child_seed(seed, key)
    return seed


def play_state(
    matchup: Matchup,
    master_seed: int,
    index: int,
    path: tuple[int, ...] | None = None,
    swapped: bool | None = None,
    players: Sequence[Callable] | None = None,
    watch: Watch | None = None,
) -> tuple[GameState, bool]:
    """Play game `index` of a run (pair index // 2, seats swapped on odd indexes, seed from `game_seed_path`);
    return its final state and whether the seats were swapped. `path` and `swapped` default to what the index
    gives (a replay passes a game row's own); `players`, the agent factories of sides A and B, default to the
    matchup's styles; `watch` is told of every choice made (tests/golden records them)."""
    settle_collector()
    if swapped is None:
        swapped = index % 2 == 1
    state, agents = start_state(matchup, master_seed, index, path, swapped, players, watch)
    return play(state, agents, watch=watch), swapped


COLLECTOR_THRESHOLD = 10_000
"""Allocations between young-generation collections while games are played (Python's default: 700)."""


@functools.cache
def settle_collector() -> None:
    """Once per process, before its first game: collect, freeze what is left (the libraries, the rosters and
    maps) out of the garbage collector's sight, and collect the young generation less often. A game makes
    and drops many small objects, and with the defaults the collector kept walking the long-lived heap: settled,
    games ran about 4% faster side by side (1,500-game runs, 2026-11-24). Objects are freed as before, and games
    stay the same: nothing in a game depends on when the collector runs."""
    gc.collect()
    gc.freeze()
    atexit.register(_thaw_collector)
    gc.set_threshold(COLLECTOR_THRESHOLD, *gc.get_threshold()[1:])


def _thaw_collector() -> None:
    """At exit: hand the frozen heap back and collect it while the modules are still whole, so that what it
    held is finalized then, not during the interpreter's teardown (when finalizers find modules gone)."""
    gc.unfreeze()
    gc.collect()


def start_state(
    matchup: Matchup,
    master_seed: int,
    index: int,
    path: tuple[int, ...] | None = None,
    swapped: bool | None = None,
    players: Sequence[Callable] | None = None,
    watch: Watch | None = None,
) -> tuple[GameState, list[Agent]]:
    """Game `index` of a run (as `play_state` plays it) set up and ready for its first action, with its
    players by seat."""
    roster = roster_at(matchup.library)
    if swapped is None:
        swapped = index % 2 == 1
    seed = game_seed(master_seed, path if path is not None else game_seed_path(matchup, index))
    names = [matchup.army_a, matchup.army_b]
    factories = (
        list(players) if players is not None else [player_factory(matchup.style_a), player_factory(matchup.style_b)]
    )
    if swapped:
        names.reverse()
        factories.reverse()
    given = dict(matchup.given)
    return start_game(
        roster,
        [given_army(given[n]) if n in given else roster.armies[n] for n in names],
        roster.maps[matchup.map_name],
        factories,
        seed,
        matchup.turn_limit,
        army_names=names,
        tie_break=matchup.ties != "draw",
        watch=watch,
    )


@functools.lru_cache(maxsize=4096)
def given_army(data: str) -> Army:
    """An army given as JSON (`Matchup.given`), parsed once per process."""
    return Army.model_validate_json(data)


def engine_name() -> str:
    """The engine this process plays on, as a game row records it: "compiled" or "pure"."""
    return "compiled" if compiled.status == compiled.COMPILED else "pure"


def play_one(matchup: Matchup, master_seed: int, index: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play game `index` of a run and turn it into its game row and figure rows."""
    state, swapped = play_state(matchup, master_seed, index)
    return game_rows(state, matchup, master_seed, index, swapped)


INT64_MAX = 2**63 - 1


def table_seed(seed: int) -> int | str:
    """A master seed as a table stores it: seeds beyond int64 (Parquet's widest integer) as decimal text."""
    return seed if seed <= INT64_MAX else str(seed)


def describe_game(matchup: Matchup, index: int) -> str:
    """How a failed game is named: "game 12 (seed path 6)", enough for `clix replay` to play it again."""
    return f"game {index} (seed path {':'.join(map(str, game_seed_path(matchup, index)))})"


def batch_size_for(games: int, jobs: int) -> int:
    """About eight batches per worker, all of one size: the workers finish together (a last odd batch would
    leave one idle) and dispatch costs nothing beside a batch's games."""
    return max(2, min(64, math.ceil(games / (8 * max(1, jobs)))))


def run_matchup(
    matchup: Matchup,
    games: int,
    master_seed: int,
    jobs: int | None = None,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    first: int = 0,
    report: Callable[[str], None] | None = None,
    stop_on_error: bool = False,
    known: Mapping[int, GameRows] | RunResult | None = None,
    on_result: Callable[[int, GameRows], None] | None = None,
    on_batch: Callable[[], None] | None = None,
    stop_on_raise: bool = True,
) -> RunResult:
    """Play games `first` .. `games - 1` (`games` rounded up to whole seat-swapped pairs; `first` even) and
    collect their rows (read in game order); a longer run continues a shorter one with the same games.

    Games found in `known` (index -> rows, or the packed `RunResult` of `Store.load_packed`: from the result
    store) are taken from it, not played;
    `on_result(index, rows)` is told of each game played as it finishes (in this process), `on_batch()` after
    each batch of them (a store's writer flushes there). Rows are packed as they come (`RowTable`), so memory
    grows by about the size of the output table, not by the dicts.

    A KeyboardInterrupt stops the run but keeps every game already finished (`interrupted` is set). A game
    whose worker dies is played again alone; if it dies again it is listed in `failed` and named on `report`
    (stderr by default), and the run goes on (or stops, with `stop_on_error`). A game that raises is a bug or
    bad data: it is named with its seed path and the run stops there (`stopped` and `crashed`), keeping the
    games finished, unless `stop_on_raise` is False (then it is listed in `failed` and the run goes on).
    """
    games += games % 2
    cores = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    result, indexes = _take_known(known, first, games)
    started = time.perf_counter()
    outcome = Outcome()

    def keep(position: int, rows: GameRows) -> None:
        result.add(indexes[position], rows)
        if on_result is not None:
            on_result(indexes[position], rows)

    if indexes:
        outcome = run_items(
            partial(play_one, matchup, master_seed),
            indexes,
            cores,
            batch_size or batch_size_for(len(indexes), cores),
            describe=lambda position: describe_game(matchup, indexes[position]),
            report=report or report_line,
            progress=progress,
            stop_on_error=stop_on_error,
            on_result=keep,
            stop_on_raise=stop_on_raise,
            on_batch=on_batch,
            keep=False,
        )
    result.interrupted, result.stopped, result.crashed = outcome.interrupted, outcome.stopped, outcome.crashed
    result.failed = [
        {"game": indexes[p], "seed_path": ":".join(map(str, game_seed_path(matchup, indexes[p]))), "reason": why}
        for p, why in sorted(outcome.failed.items())
    ]
    result.seconds = time.perf_counter() - started
    return result


def _take_known(known: Mapping[int, GameRows] | RunResult | None, first: int, games: int) -> tuple[RunResult, array]:
    """A run's start: the games of `first` .. `games - 1` that `known` has (taken from the result store), and the
    indexes of the others, to play."""
    import numpy as np

    result = RunResult()
    if isinstance(known, RunResult):  # packed (`Store.load_packed`): taken whole, never unpacked
        result.extend(known.between(first, games))
        wanted = np.arange(first, max(first, games), dtype=np.int64)
        have = np.frombuffer(result.indexes, dtype=np.int64) if len(result.indexes) else np.zeros(0, dtype=np.int64)
        indexes = array("q", wanted[~np.isin(wanted, have)].tobytes())
    else:
        known = known or {}
        indexes = array("q")
        for i in range(first, games):
            found = known.get(i)
            if found is None:
                indexes.append(i)
            else:
                result.add(i, found)
    result.from_store = result.count
    return result, indexes


def game_rows(
    state: GameState, matchup: Matchup, master_seed: int, index: int, swapped: bool
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One flat row for the game (from army A's point of view) and one row per figure."""
    seat = {"A": 2 if swapped else 1, "B": 1 if swapped else 2}
    side_of = {seat["A"]: "A", seat["B"]: "B"}
    players = len(state.players)
    first = next((e.get("player") for e in state.log if e.kind == "first_player"), 1)
    last_turn = max((e.turn for e in state.log if e.kind == "turn_start"), default=1)
    rounds = (last_turn - 1) // players + 1
    row: dict[str, Any] = {
        "game": index,
        "pair": index // 2,
        "master_seed": table_seed(master_seed),
        "seed_path": ":".join(map(str, game_seed_path(matchup, index))),
        "seat_a": seat["A"],
        "army_a": matchup.army_a,
        "army_b": matchup.army_b,
        "map": matchup.map_name,
        "players_a": matchup.style_a,
        "players_b": matchup.style_b,
        "ruleset": RULESET_VERSION,
        "engine": engine_name(),
        "turn_limit": matchup.turn_limit,
        "ties": matchup.ties,
        "first": side_of.get(first, "A"),
        "winner": side_of.get(state.winner, "draw") if state.winner is not None else "draw",
        "rounds": rounds,
        "end_reason": state.end_reason,
        "timeout": state.end_reason == "turn limit",
    }
    per_figure: dict[str, dict[str, Any]] = {}
    for m in state.monsters:
        if m.minion:
            continue
        per_figure[m.label] = {
            "game": index,
            "side": side_of.get(m.owner, "?"),
            "army": row[f"army_{side_of.get(m.owner, 'a').lower()}"],
            "figure": m.stats.id,
            "points": m.stats.points,
            "damage_dealt": 0,
            "damage_taken": m.damage_taken,
            "kills": 0,
            "kill_vp": 0,
            "victims": 0,
            "victim_vp": 0,
            "survived": m.alive,
        }
    slays: dict[str, list[int]] = {"A": [], "B": []}
    rescues = {"A": 0, "B": 0}
    cards = {"A": 0, "B": 0}
    first_turns: dict[str, int] = {}
    # how the AI played (issue 12): per side [turns, idle, turns with victims, idle with victims], then the idle
    # turns split (issue 32): [passed, passed with victims, no legal action, no legal action with victims]
    turns = {"A": [0] * 8, "B": [0] * 8}
    attacks = {"A": {"close": 0, "ranged": 0, "frenzy": 0}, "B": {"close": 0, "ranged": 0, "frenzy": 0}}
    after_victims = {"A": 0, "B": 0}
    windows: dict[str, dict[str, int]] = {"A": {}, "B": {}}
    played_cards: dict[str, list[str]] = {"A": [], "B": []}  # "card@window" in play order (clix meta, issue 18)
    turn_side: str | None = None  # whose turn is running; None once it is tallied
    turn_victims = 0
    acted = ended = False
    could_act: bool | None = None  # an idle turn's turn_end says whether a monster could have acted (older logs: None)
    last_attack: tuple | None = None

    def tally(side: str) -> None:
        counts = turns[side]
        counts[0] += 1
        counts[1] += not acted
        passed = not acted and could_act is True
        stuck = not acted and could_act is False
        counts[4] += passed
        counts[6] += stuck
        if turn_victims:
            counts[2] += 1
            counts[3] += not acted
            counts[5] += passed
            counts[7] += stuck

    for event in state.log:
        kind = event.kind
        if kind == "turn_start":
            if turn_side is not None:
                tally(turn_side)
            turn_side = side_of.get(event.player)
            turn_victims = event.get("victims", 0)
            acted = ended = False
            could_act = None
            last_attack = None
        elif kind == "action":
            acted = True
            last_attack = None
        elif kind == "attack":
            # a ranged attack at several targets logs one event per target: count the resolution once
            attack_key = (event.turn, event.get("attacker"), event.get("action"))
            if attack_key != last_attack:
                last_attack = attack_key
                side = side_of.get(event.player, "?")
                if side in attacks and attack_key[2] in attacks[side]:
                    attacks[side][attack_key[2]] += 1
                    after_victims[side] += turn_victims == 0
        elif kind == "turn_end":
            ended = True
            could_act = event.get("could_act")
        elif kind == "game_over" and not ended and not acted:
            turn_side = None  # the game ended before the player could act: not a turn they played
        elif kind == "damage":
            by = per_figure.get(event.get("by") or "")
            if by is not None:
                by["damage_dealt"] += event.get("amount", 0)
        elif kind == "killed":
            by = per_figure.get(event.get("by") or "")
            if by is not None and event.get("player") is not None:
                by["kills"] += 1
                by["kill_vp"] += event.get("vp", 0)
        elif kind in ("slain", "rescued"):
            side = side_of.get(event.get("player"), "?")
            monster = per_figure.get(event.get("monster") or "")
            if monster is not None:
                monster["victims"] += 1
                monster["victim_vp"] += event.get("vp", 0)
            if side in slays:
                slays[side].append((event.turn - 1) // players + 1)
                first_turns[side] = min(first_turns.get(side, event.turn), event.turn)
                rescues[side] += kind == "rescued"
        elif kind.startswith("plot_twist") or kind == "card_played":
            side = side_of.get(event.get("player", event.player), "?")
            if side in cards:
                cards[side] += 1
                window = event.get("window") or "?"
                windows[side][window] = windows[side].get(window, 0) + 1
                if event.get("card"):
                    played_cards[side].append(f"{event.get('card')}@{window}")
    if turn_side is not None:
        tally(turn_side)
    for side in ("A", "B"):
        player = seat[side]
        vp = state.vp[player]
        key = side.lower()
        row[f"vp_{key}"] = sum(vp.values())
        for part in ("kills", "victims", "subplots"):
            row[f"vp_{key}_{part}"] = vp[part]
        row[f"points_{key}"] = state.player(player).army_points
        row[f"area_{key}"] = state.areas.get(player)  # the starting area it chose or was given (HC-SETUP-04)
        row[f"victims_{key}"] = len(slays[side])
        row[f"rescued_{key}"] = rescues[side]
        row[f"first_slay_{key}"] = min(slays[side]) if slays[side] else None
        row[f"first_slay_turn_{key}"] = first_turns.get(side)
        row[f"slay_rounds_{key}"] = " ".join(map(str, sorted(slays[side])))
        row[f"plot_twists_{key}"] = cards[side]
        row[f"survivors_{key}"] = sum(1 for m in state.monsters if m.alive and m.owner == player and not m.minion)
        played, idle, with_victims, idle_with_victims, passed, passed_wv, stuck, stuck_wv = turns[side]
        row[f"turns_{key}"] = played
        row[f"idle_turns_{key}"] = idle
        row[f"turns_with_victims_{key}"] = with_victims
        row[f"idle_turns_with_victims_{key}"] = idle_with_victims
        # idle = passed (a monster could act) + no legal action (none could: action tokens, HC-TURN-03/13)
        row[f"passed_turns_{key}"] = passed
        row[f"passed_turns_with_victims_{key}"] = passed_wv
        row[f"no_action_turns_{key}"] = stuck
        row[f"no_action_turns_with_victims_{key}"] = stuck_wv
        for attack_kind, count in attacks[side].items():
            row[f"attacks_{attack_kind}_{key}"] = count
        row[f"attacks_after_victims_{key}"] = after_victims[side]
        row[f"plot_twist_windows_{key}"] = " ".join(f"{w}:{n}" for w, n in sorted(windows[side].items()))
        row[f"plot_twist_cards_{key}"] = "; ".join(played_cards[side])
    # decided by HC-END-09: equal VP, yet a winner (the cheaper army)
    row["tie_break"] = row["vp_a"] == row["vp_b"] and row["winner"] != "draw"
    return row, list(per_figure.values())
