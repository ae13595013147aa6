"""Golden games: seeded playthroughs of the sample library recorded as text, to prove a change keeps games identical.

Every game of `selection()` is played the way `clix duel` plays it (`analyzer.play.runner.play_state`), with each
player's choices watched so that every decision put to it is written down (decision kind, the option chosen and how many
there were), together with every die the game rolled after it, the setup's shuffle of the victims and the final
result. `tests/test_golden.py` plays them again and names the first step that differs.

    PYTHONPATH=. python -m tests.golden.record     # re-record (only for an intended change of play)

docs/golden-games.md describes the format and when re-recording is allowed.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from clix.analyzer.play.runner import Matchup, game_seed, game_seed_path, kit, play_state
from clix.engine.core.dice import Dice, child_seed
from clix.engine.core.players.base import Decision
from clix.engine.core.ruleset import DEFAULT_RULESET
from clix.engine.core.state import State

GOLDEN_DIR = Path(__file__).resolve().parent
ROSTERS = GOLDEN_DIR.parent.parent / "rosters"
LIBRARY = ROSTERS / "horrorclix"
HEROCLIX = "heroclix-2005"
LIBRARIES = {DEFAULT_RULESET: LIBRARY, HEROCLIX: ROSTERS / "heroclix"}
"""The sample library each ruleset's golden games are played from."""
FILE_PREFIX = {DEFAULT_RULESET: "", HEROCLIX: "heroclix-"}
"""A golden file is named after its map, with this prefix for the ruleset (HorrorClix's files kept their names)."""
MASTER_SEED = 16
"""The duels' master seed (issue 16 asked for the golden games)."""
TURNS = 10
"""Turns per player (the default is 15): long enough for games to end both ways (turn limit, one side left), short
enough to keep the files a few hundred KB."""
RECORD_COMMAND = "PYTHONPATH=. python -m tests.golden.record"
DICE = " | dice "
"""Separates a step from the dice rolled after it."""

HEADER = """\
# Golden games on the {map} map: {count} seeded games of the sample library ({library}), each played as
# `clix duel` plays game "game" of the duel with these armies, players, turns, ties and master seed.
# Written by tests/golden/record.py; tests/test_golden.py replays every game and names the first step that
# differs. Do not edit by hand. Re-record with `{command}` (from the repository's top)
# ONLY for an intended change of play, and explain every game that changed in the commit message
# (docs/golden-games.md).
#
# Per game: a `game` line (the matchup; "seats" are the armies of players 1 and 2); `start`: the dice rolled
# before the first decision; `victims`: the victims in the order the setup's shuffle drew them (owner); one
# line per decision put to a player: when (setup, or turn N), who (P1/P2), the decision's kind, the option
# chosen as index/number of options, the option, then the dice rolled after it until the next decision;
# `end`: the final turn, why the game ended, the winner (null: a draw) and each player's victory points.
"""


@dataclass(frozen=True)
class GoldenGame:
    """One recorded game: the matchup that decides it, and its record (`lines`, empty before recording)."""

    number: int
    """Its index in the golden set, also its game index in the duel (seed path and seats follow from it)."""
    army_a: str
    army_b: str
    map_name: str
    style_a: str
    style_b: str
    turns: int = TURNS
    ties: str = "break"
    seed: int = MASTER_SEED
    lines: tuple[str, ...] = ()
    """The record, one step a line: the `game` line, start, victims, one line per decision, end."""
    file_line: int = 0
    """The line of its `game` line in its file (1-based; 0 when it was not read from a file)."""
    ruleset: str = DEFAULT_RULESET

    @property
    def matchup(self) -> Matchup:
        return Matchup(
            LIBRARIES[self.ruleset],
            self.army_a,
            self.army_b,
            self.map_name,
            self.style_a,
            self.style_b,
            self.turns,
            self.ties,
            ruleset=self.ruleset,
        )

    @property
    def file_stem(self) -> str:
        """The golden file it is recorded in: its map's name, with its ruleset's prefix."""
        return FILE_PREFIX[self.ruleset] + self.map_name

    def header(self, seats: Sequence[str]) -> str:
        """The `game` line: the matchup, and the seed path and the seats (the armies of players 1 and 2) the
        runner gave the game."""
        fields = {
            "game": self.number,
            "armies": [self.army_a, self.army_b],
            "map": self.map_name,
            "players": [self.style_a, self.style_b],
            "turns": self.turns,
            "ties": self.ties,
            "seed": self.seed,
            "seed_path": list(game_seed_path(self.matchup, self.number)),
            "seats": list(seats),
        }
        if self.ruleset != DEFAULT_RULESET:  # HorrorClix's records say nothing of it (they were written before)
            fields["ruleset"] = self.ruleset
        return "game " + json.dumps(fields)

    @property
    def title(self) -> str:
        return (
            f"{self.map_name} game {self.number} ({self.army_a} vs {self.army_b}, players {self.style_a} vs "
            f"{self.style_b})"
        )

    @property
    def test_id(self) -> str:
        return f"{self.file_stem}-{self.number:02d}-{self.army_a}-{self.army_b}-{self.style_a}-{self.style_b}"

    @property
    def replay_command(self) -> str:
        """The `clix replay` command that prints this game turn by turn."""
        return (
            f"clix replay {self.army_a} {self.army_b} --game {self.number} --seed {self.seed} --map {self.map_name} "
            f"--players {self.style_a},{self.style_b} --turns {self.turns} --ties {self.ties}"
        )


HEROCLIX_TURNS = 6
"""Turns per player of HeroClix's golden games: its heuristic weighs hundreds of moves a decision in pure Python,
and six turns each see forces meet, push, and KO characters."""


def selection(ruleset: str | None = None) -> list[GoldenGame]:
    """The golden set (of one ruleset, or of every ruleset with golden games: HorrorClix's, then HeroClix's): every
    unordered pair of sample armies (mirrors included) on every sample map, each game with one ordered pairing of
    the ruleset's fast player styles, rotating through all of them (so every style plays both seats several times);
    every fourth game plays equal VP as a draw. Each ruleset's games are numbered from 0."""
    if ruleset is None:
        return [game for name in LIBRARIES for game in selection(name)]
    matchups = kit(ruleset)
    library = matchups.library((LIBRARIES[ruleset],))
    armies, maps = sorted(matchups.armies(library)), sorted(matchups.maps(library))
    pairings = list(itertools.product(matchups.styles, repeat=2))
    turns = TURNS if ruleset == DEFAULT_RULESET else HEROCLIX_TURNS
    games = []
    for map_name in maps:
        for army_a, army_b in itertools.combinations_with_replacement(armies, 2):
            number = len(games)
            style_a, style_b = pairings[number % len(pairings)]
            ties = "draw" if number % 4 == 3 else "break"
            games.append(GoldenGame(number, army_a, army_b, map_name, style_a, style_b, turns, ties, ruleset=ruleset))
    return games


# --- recording a game ----------------------------------------------------------------------------------------


def describe(value: Any) -> str:
    """A stable text for an option: no memory addresses, the same on both engines. A record (an action, a plot
    twist play, a place) shows as `Name(v1,v2,...)` with its fields in order and trailing defaults left out."""
    if value is None or isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ",".join(map(describe, value)) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ",".join(map(describe, value)) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        values = [getattr(value, f.name) for f in fields]
        while fields and fields[-1].default is not dataclasses.MISSING and values[-1] == fields[-1].default:
            fields, values = fields[:-1], values[:-1]
        return f"{type(value).__name__}(" + ",".join(map(describe, values)) + ")"
    raise TypeError(f"golden: no stable text for an option of type {type(value).__name__}; teach describe() it")


class DiceWatch:
    """The dice a game rolled between two looks at its `Dice`, as the game used them.

    `Dice` draws its rolls from its generator in batches; the values already handed out are gone from its
    buffer, so the watch keeps the values still to come at each look, and the generator's state to redraw a
    batch taken in between (nothing else draws from the dice generator during play; the setup's victim shuffle
    does, after the first batch). Each look checks that what it worked out leaves exactly the buffer the game
    holds, so a change in how dice are drawn cannot slip past as a wrong record.
    """

    def __init__(self, seed: int | np.random.SeedSequence) -> None:
        self.pending: list[int] = []
        self.generator_state: dict[str, Any] = np.random.default_rng(seed).bit_generator.state
        self.rolled = 0

    def since(self, dice: Dice) -> list[int]:
        """The dice rolled since the last look, in the order rolled."""
        count = dice.rolled - self.rolled
        values = self.pending[:count]
        remaining = self.pending[count:]
        if len(values) < count:  # the game drew a new batch
            rng = np.random.default_rng()
            rng.bit_generator.state = self.generator_state
            batch = rng.integers(1, 7, size=dice.BATCH).tolist()
            needed = count - len(values)
            if needed > len(batch):
                raise RuntimeError(f"golden: {count} dice between two decisions, more than a batch of {len(batch)}")
            values += batch[:needed]
            remaining = batch[needed:]
        held = dice._buffer[::-1]  # Dice pops its buffer from the end
        if held != remaining:
            raise RuntimeError("golden: the dice left in the game's buffer are not the ones the watch worked out")
        self.pending = held
        self.generator_state = dice.rng.bit_generator.state
        self.rolled = dice.rolled
        return values


class _Recorder:
    """Collects one game's steps: each decision put to a player, and the dice rolled after it."""

    def __init__(self, dice_seed: int | np.random.SeedSequence) -> None:
        self.dice = DiceWatch(dice_seed)
        self.start: list[int] = []
        self.steps: list[tuple[str, list[int]]] = []

    def roll_up(self, state: State) -> None:
        """File the dice rolled since the last decision under it (or under `start`)."""
        rolled = self.dice.since(state.dice)
        (self.steps[-1][1] if self.steps else self.start).extend(rolled)

    def decided(self, state: State, decision: Decision, choice: int) -> None:
        self.roll_up(state)
        when = "setup" if state.phase == "setup" else f"t{state.turn}"
        option = describe(decision.options[choice])
        text = f"{when} P{decision.player} {decision.kind} {choice}/{len(decision.options)} {option}"
        self.steps.append((text, []))


def with_dice(text: str, dice: Sequence[int]) -> str:
    return text + DICE + " ".join(map(str, dice)) if dice else text


def play(game: GoldenGame) -> list[str]:
    """Play `game` as its duel does and return its record."""
    matchup = game.matchup
    path = game_seed_path(matchup, game.number)
    # play_game gives the dice the first child of the game's seed (and each player the next ones)
    recorder = _Recorder(child_seed(game_seed(game.seed, path), 0))
    state, _ = play_state(matchup, game.seed, game.number, watch=recorder.decided)
    recorder.roll_up(state)
    result: dict[str, Any] = {"turn": state.turn, "reason": state.end_reason, "winner": state.winner}
    if game.ruleset == DEFAULT_RULESET:
        victims = ", ".join(f"{v.archetype} (P{v.owner})" for v in state.victims)
        result["vp"] = {f"P{p.number}": dict(state.vp[p.number]) for p in state.players}
        opening = [f"victims {victims}"]
    else:  # HeroClix: victory points are the points of KO'd opponents (HX-END-04), and who was KO'd
        result["vp"] = {f"P{p.number}": state.points.get(p.number, 0.0) for p in state.players}
        result["kod"] = [c.label for c in state.monsters if not c.alive]
        opening = []
    return [
        game.header([p.army_name for p in state.players]),
        with_dice("start", recorder.start),
        *opening,
        *(with_dice(text, dice) for text, dice in recorder.steps),
        "end " + json.dumps(result),
    ]


def recorded(game: GoldenGame) -> GoldenGame:
    return dataclasses.replace(game, lines=tuple(play(game)))


# --- comparing -----------------------------------------------------------------------------------------------


def first_difference(expected: Sequence[str], got: Sequence[str]) -> tuple[int, str, str] | None:
    """The first step at which two records differ: (index, expected line, got line); a record that stops
    early shows "(nothing: the record ends)" there. None when they are the same."""
    for index, (want, have) in enumerate(itertools.zip_longest(expected, got)):
        if want != have:
            ended = "(nothing: the record ends)"
            return index, ended if want is None else want, ended if have is None else have
    return None


def difference(game: GoldenGame, got: Sequence[str], source: str = "") -> str | None:
    """What differs between a recorded game and the record of its replay, in one message naming the game and
    the first differing step (step 0 is the `game` line); None when they are identical."""
    found = first_difference(game.lines, got)
    if found is None:
        return None
    index, want, have = found
    where = f", {source}:{game.file_line + index}" if source and game.file_line else ""
    return (
        f"{game.title}: first difference at step {index} of {len(game.lines)}{where}\n"
        f"  expected {want}\n  got      {have}\n"
        f"  (replay it: {game.replay_command})"
    )


# --- files ---------------------------------------------------------------------------------------------------


def golden_path(file_stem: str) -> Path:
    return GOLDEN_DIR / f"{file_stem}.txt"


def render(file_stem: str, games: Sequence[GoldenGame]) -> str:
    """A golden file's text: the header, then each game's `game` line and record."""
    ruleset = games[0].ruleset if games else DEFAULT_RULESET
    map_name = file_stem.removeprefix(FILE_PREFIX[ruleset])
    library = LIBRARIES[ruleset].relative_to(ROSTERS.parent).as_posix() + "/"
    out = [HEADER.format(map=map_name, count=len(games), command=RECORD_COMMAND, library=library)]
    for game in games:
        out.extend(line + "\n" for line in game.lines)
    return "".join(out)


def parse(path: Path) -> list[GoldenGame]:
    """The games of a golden file, each with its record and where it starts."""
    games: list[GoldenGame] = []
    current: dict[str, Any] | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            games.append(GoldenGame(**current, lines=tuple(lines)))

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("#"):
            continue
        if line.startswith("game "):
            close()
            fields = json.loads(line.removeprefix("game "))
            army_a, army_b = fields["armies"]
            style_a, style_b = fields["players"]
            current = {
                "number": fields["game"],
                "army_a": army_a,
                "army_b": army_b,
                "map_name": fields["map"],
                "style_a": style_a,
                "style_b": style_b,
                "turns": fields["turns"],
                "ties": fields["ties"],
                "seed": fields["seed"],
                "file_line": number,
                "ruleset": fields.get("ruleset", DEFAULT_RULESET),
            }
            lines = [line]
        elif current is None:
            raise ValueError(f"{path}:{number}: a record line before the first `game` line")
        else:
            lines.append(line)
    close()
    return games


def golden_files() -> list[Path]:
    return sorted(GOLDEN_DIR.glob("*.txt"))


def record_all(games: Sequence[GoldenGame]) -> dict[str, list[GoldenGame]]:
    """Play every game; the recorded games by file (`file_stem`), in order."""
    by_file: dict[str, list[GoldenGame]] = {}
    for game in games:
        by_file.setdefault(game.file_stem, []).append(recorded(game))
    return by_file


def main(argv: Sequence[str] | None = None) -> int:
    """Re-record every golden game; print what changed against the files there were."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.golden.record",
        description="Re-record the golden games (tests/golden/*.txt). Only for an intended change of play: "
        "explain every changed game in the commit message (docs/golden-games.md).",
    )
    parser.parse_args(argv)
    from clix.engine import compiled

    print(f"engine: {compiled.status}")
    by_map = record_all(selection())
    for old in golden_files():
        if old.stem not in by_map:
            old.unlink()
            print(f"removed {old.name}: no such ruleset and map in the selection")
    for map_name, games in by_map.items():
        path = golden_path(map_name)
        before = {g.number: g for g in parse(path)} if path.exists() else {}
        changes = []
        for game in games:
            previous = before.pop(game.number, None)
            problem = "new" if previous is None else difference(previous, game.lines, path.name)
            if problem is not None:
                changes.append(f"{game.title}: {problem}" if previous is None else problem)
        changes.extend(f"{g.title}: no longer in the selection" for g in before.values())
        text = render(map_name, games)
        path.write_text(text, encoding="utf-8")
        steps = sum(len(g.lines) for g in games)
        print(f"wrote {path.name}: {len(games)} games, {steps} lines, {len(text.encode()) // 1024} KB")
        print("\n".join(changes) if changes else "  every game as before")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
