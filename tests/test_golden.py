"""Golden games: every recorded playthrough in tests/golden/ plays again identically (every decision, every die,
the result), on whichever engine runs the suite; a difference names the game and its first differing step.

Re-recording (`PYTHONPATH=. python -m tests.golden.record`) is only for an intended change of play:
docs/golden-games.md.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from clix.analyzer.duel.replay import replay_seed
from clix.analyzer.play.runner import kit
from clix.engine.core.dice import Dice
from clix.engine.core.ruleset import DEFAULT_RULESET
from clix.engine.horrorclix.actions import EndTurn, Move
from golden.record import (
    DICE,
    GOLDEN_DIR,
    HEROCLIX,
    LIBRARY,
    DiceWatch,
    GoldenGame,
    describe,
    difference,
    golden_files,
    parse,
    play,
    render,
    selection,
)

REPO = GOLDEN_DIR.parent.parent
FILES = golden_files()
GAMES = [(path, game) for path in FILES for game in parse(path)]


def source(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


@pytest.mark.parametrize(("path", "game"), GAMES, ids=[game.test_id for _, game in GAMES])
def test_golden_game_plays_identically(path: Path, game: GoldenGame) -> None:
    problem = difference(game, play(game), source(path))
    if problem is not None:
        pytest.fail(problem, pytrace=False)


# --- the recorded set -------------------------------------------------------------------------------------------


def test_the_files_hold_the_whole_selection() -> None:
    """One file per ruleset and sample map holding its games of `selection()` in order: a new army or map, or a
    changed selection, needs a re-record (and an empty folder cannot pass as "every game replays")."""
    recorded = [dataclasses.replace(game, lines=(), file_line=0) for _, game in GAMES]
    in_order = {(game.ruleset, game.number): game for game in recorded}
    assert len(in_order) == len(recorded)
    assert [in_order[key] for key in sorted(in_order)] == sorted(selection(), key=lambda g: (g.ruleset, g.number))
    assert {path.stem for path in FILES} == {game.file_stem for game in recorded}
    assert all(game.file_stem == path.stem for path, game in GAMES)


@pytest.mark.parametrize(("ruleset", "armies"), [(DEFAULT_RULESET, 9), (HEROCLIX, 11)])
def test_every_pairing_map_and_style_is_covered(ruleset: str, armies: int) -> None:
    """Each ruleset's games: every pair of its sample armies (forces) on both its maps, every fast style of its
    players in both seats, ties both ways."""
    games = [game for _, game in GAMES if game.ruleset == ruleset]
    pairs = {(game.map_name, *sorted((game.army_a, game.army_b))) for game in games}
    maps = {game.map_name for game in games}
    assert len({game.army_a for game in games} | {game.army_b for game in games}) == armies and len(maps) == 2
    assert len(pairs) == len(games) == len(maps) * armies * (armies + 1) // 2
    seats: Counter[tuple[str, int]] = Counter()
    for game in games:
        first, second = (game.style_b, game.style_a) if game.number % 2 else (game.style_a, game.style_b)
        seats[first, 1] += 1
        seats[second, 2] += 1
    for style in kit(ruleset).styles:
        assert seats[style, 1] >= 3 and seats[style, 2] >= 3, (style, seats)
    assert {game.ties for game in games} == {"break", "draw"}


def test_the_files_are_what_the_recorder_writes() -> None:
    """Parsing and rendering give the file back byte for byte: no hand edits, no stray lines."""
    for path in FILES:
        assert render(path.stem, parse(path)) == path.read_text(encoding="utf-8")


def test_the_records_hold_no_memory_addresses() -> None:
    for path in FILES:
        assert re.search(r"0x[0-9a-f]{6,}", path.read_text(encoding="utf-8")) is None


def test_the_records_end_both_ways_and_roll_dice() -> None:
    """The set is worth replaying: HorrorClix's games end at the turn limit and with one side left, HeroClix's KO
    characters, and steps of play roll dice in both."""
    horrorclix = [game for _, game in GAMES if game.ruleset == DEFAULT_RULESET]
    ends = Counter(game.lines[-1].split('"reason": "')[1].split('"')[0] for game in horrorclix)
    assert ends["turn limit"] > 0 and ends["one side left"] > 0
    assert sum(DICE in line for game in horrorclix for line in game.lines) > 1000
    heroclix = [game for _, game in GAMES if game.ruleset == HEROCLIX]
    knocked_out = [game for game in heroclix if json.loads(game.lines[-1].removeprefix("end "))["kod"]]
    assert len(knocked_out) >= len(heroclix) // 4, f"{len(knocked_out)} of {len(heroclix)} HeroClix games KO anyone"
    assert sum(DICE in line for game in heroclix for line in game.lines) > 200


# --- the comparison can fail ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def replayed() -> tuple[GoldenGame, list[str]]:
    """A recorded game of two different armies with dice after some decision, and the record of its replay
    (identical)."""
    game = next(
        g for _, g in GAMES if g.army_a != g.army_b and any(DICE in line and line.startswith("t") for line in g.lines)
    )
    got = play(game)
    assert difference(game, got) is None
    return game, got


def changed(game: GoldenGame, index: int, line: str) -> GoldenGame:
    lines = list(game.lines)
    lines[index] = line
    return dataclasses.replace(game, lines=tuple(lines))


def reported_step(message: str | None) -> int:
    assert message is not None
    found = re.search(r"first difference at step (\d+) of", message)
    assert found is not None, message
    return int(found.group(1))


def test_a_changed_die_is_reported_at_its_step(replayed) -> None:
    game, got = replayed
    index = next(k for k, line in enumerate(game.lines) if DICE in line and line.startswith("t"))
    step, dice = game.lines[index].split(DICE)
    values = dice.split()
    values[-1] = str(int(values[-1]) % 6 + 1)
    wrong = f"{step}{DICE}{' '.join(values)}"
    message = difference(changed(game, index, wrong), got, "tests/golden/x.txt")
    assert reported_step(message) == index
    assert message is not None
    assert game.title in message
    assert f"expected {wrong}\n" in message and f"got      {game.lines[index]}\n" in message
    assert f"tests/golden/x.txt:{game.file_line + index}" in message


def test_a_changed_action_is_reported_at_its_step(replayed) -> None:
    game, got = replayed
    index = next(k for k, line in enumerate(game.lines) if " action " in line)
    when, player, kind, chosen, option = game.lines[index].split(DICE)[0].split(" ", 4)
    picked, count = map(int, chosen.split("/"))
    wrong = f"{when} {player} {kind} {(picked + 1) % count}/{count} {option}"
    message = difference(changed(game, index, wrong), got)
    assert reported_step(message) == index
    assert message is not None and f"got      {game.lines[index]}" in message


def test_a_changed_result_is_reported_at_the_end(replayed) -> None:
    game, got = replayed
    last = len(game.lines) - 1
    wrong = re.sub(r'"kills": (\d+)', lambda m: f'"kills": {int(m.group(1)) + 1}', game.lines[last], count=1)
    assert wrong != game.lines[last]
    assert reported_step(difference(changed(game, last, wrong), got)) == last


def test_a_game_that_ends_sooner_or_later_is_reported(replayed) -> None:
    game, got = replayed
    middle = len(game.lines) // 2
    shorter = dataclasses.replace(game, lines=game.lines[:middle] + game.lines[middle + 1 :])
    message = difference(shorter, got)
    assert reported_step(message) == middle
    longer = difference(game, got[:-1])
    assert reported_step(longer) == len(game.lines) - 1
    assert longer is not None and "got      (nothing: the record ends)" in longer


def test_a_changed_matchup_is_reported_at_step_zero(replayed) -> None:
    game, got = replayed
    wrong = game.lines[0].replace('"seed": 16', '"seed": 17')
    assert wrong != game.lines[0]
    assert reported_step(difference(changed(game, 0, wrong), got)) == 0


def test_the_replay_command_in_a_message_plays_the_recorded_game(replayed) -> None:
    game, _ = replayed
    words = shlex.split(game.replay_command)
    assert words[:4] == ["clix", "replay", game.army_a, game.army_b]
    option = dict(zip(words[4::2], words[5::2], strict=True))
    shown = replay_seed(
        LIBRARY,
        game.army_a,
        game.army_b,
        map_name=option["--map"],
        seed=int(option["--seed"]),
        players=option["--players"],
        turns=int(option["--turns"]),
        ties=option["--ties"],
        game=int(option["--game"]),
    )
    seats = json.loads(game.lines[0].removeprefix("game "))["seats"]
    vp = json.loads(game.lines[-1].removeprefix("end "))["vp"]
    total = {army: sum(vp[f"P{n}"].values()) for n, army in enumerate(seats, start=1)}
    assert shown.lines[-1] == f"final VP {game.army_a} {total[game.army_a]}, {game.army_b} {total[game.army_b]}"


# --- the recorder's parts ---------------------------------------------------------------------------------------


def test_describe_is_short_and_stable() -> None:
    assert describe(Move(2, (3, 4))) == "Move(2,(3,4))"
    assert describe(Move(2, (3,), None, None, 7)) == "Move(2,(3,),None,None,7)"
    assert describe(EndTurn()) == "EndTurn()"
    assert describe([np.int64(5), "Terror Sprint", None, True]) == "[5,'Terror Sprint',None,True]"
    with pytest.raises(TypeError, match="no stable text"):
        describe(object())


def test_dice_watch_reads_every_die_across_batches() -> None:
    """The values the watch reports are the values `Dice.d6` returned, in order, across new batches, with the
    generator also drawn from directly between looks (as the setup's victim shuffle does)."""
    seed = np.random.SeedSequence(42)
    dice = Dice(np.random.default_rng(seed))
    watch = DiceWatch(seed)
    rolled: list[int] = []
    seen: list[int] = []
    rolled += [dice.d6(), dice.d6()]
    dice.rng.permutation(12)  # drawn after the first batch, like the setup's shuffle
    seen += watch.since(dice)
    for chunk in (0, 1, 37, 200, 19, 64, 255, 3):
        rolled += [dice.d6() for _ in range(chunk)]
        seen += watch.since(dice)
    assert len(rolled) > 2 * dice.BATCH
    assert seen == rolled


def test_dice_watch_refuses_dice_it_cannot_account_for() -> None:
    """A draw from the dice generator it did not see, before a new batch, is caught instead of recorded wrong."""
    seed = np.random.SeedSequence(7)
    dice = Dice(np.random.default_rng(seed))
    watch = DiceWatch(seed)
    dice.d6()
    watch.since(dice)
    dice.rng.integers(6, size=3)
    for _ in range(dice.BATCH):
        dice.d6()
    with pytest.raises(RuntimeError, match="not the ones the watch worked out"):
        watch.since(dice)
