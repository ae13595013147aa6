"""How the AI played (issue 12): per-game columns recounted from the event log, the summary's shares on a known
table, and the duel's JSON, report and printed summary carrying them. Idle turns split into passed (a monster could
act) and no legal action (issue 32), recounted from the options the players were offered."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.common.jsonout import rounded
from clix.analyzer.duel.console import print_summary
from clix.analyzer.play.runner import Matchup, game_rows, play_one, play_state, start_state
from clix.analyzer.stats.duel import play_style
from clix.engine.core.pending import Decision
from clix.engine.horrorclix import rules
from clix.engine.horrorclix.actions import EndTurn, SkipSuspense
from clix.engine.horrorclix.legal import legal_actions, monster_could_act
from clix.engine.horrorclix.state import Event, GameState, Phase
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
MATCHUP = Matchup(
    library=ROOT / "rosters" / "horrorclix",
    army_a="butcher-shop",
    army_b="firing-line",
    map_name="graveyard",
    turn_limit=6,
)
SEED = 3
COUNTED = (
    "turns",
    "idle_turns",
    "turns_with_victims",
    "idle_turns_with_victims",
    "passed_turns",
    "passed_turns_with_victims",
    "no_action_turns",
    "no_action_turns_with_victims",
    "attacks_close",
    "attacks_ranged",
    "attacks_frenzy",
    "attacks_after_victims",
)


def replay(matchup: Matchup, index: int, could_act: dict[int, bool] | None = None) -> tuple[GameState, dict[int, str]]:
    """Game `index` of a run played again (the runner's own `play_state`), and the side ("a"/"b") of each seat.
    `could_act`, if given, is filled per turn: whether the options the player ended the turn from held a monster's
    action (a turn ended with no choice, only ending it being legal, is not in it)."""

    def watch(state: GameState, decision: Decision, choice: int) -> None:
        if could_act is not None and decision.kind == "action" and isinstance(decision.options[choice], EndTurn):
            could_act[state.turn] = any(hasattr(part, "monster") for part in decision.options.parts)

    state, swapped = play_state(matchup, SEED, index, watch=watch)
    return state, ({1: "b", 2: "a"} if swapped else {1: "a", 2: "b"})


def recount(state: GameState, side_of: dict[int, str], could_act: dict[int, bool] | None = None) -> dict[str, object]:
    """The play columns counted another way: events grouped by turn number, attacks by the action they follow,
    idle turns split by the options offered when the turn was ended (`replay`'s `could_act`; without it, by the
    log's turn_end events)."""
    starts = {e.turn: e for e in state.log if e.kind == "turn_start"}
    kinds: dict[int, set[str]] = defaultdict(set)
    for e in state.log:
        kinds[e.turn].add(e.kind)
    counts = {side: Counter({name: 0 for name in COUNTED}) for side in "ab"}
    for turn, start in starts.items():
        if "game_over" in kinds[turn] and not kinds[turn] & {"turn_end", "action"}:
            continue  # the game ended before the player could act
        c = counts[side_of[start.player]]
        idle = "action" not in kinds[turn]
        if could_act is not None:
            could = could_act.get(turn, False) if "turn_end" in kinds[turn] else None
        else:
            could = next((e.get("could_act") for e in state.log if e.turn == turn and e.kind == "turn_end"), None)
        passed, stuck = idle and could is True, idle and could is False
        c["turns"] += 1
        c["idle_turns"] += idle
        c["passed_turns"] += passed
        c["no_action_turns"] += stuck
        if start.get("victims") > 0:
            c["turns_with_victims"] += 1
            c["idle_turns_with_victims"] += idle
            c["passed_turns_with_victims"] += passed
            c["no_action_turns_with_victims"] += stuck
    resolutions = set()
    action = -1
    for i, e in enumerate(state.log):
        if e.kind == "action":
            action = i
        elif e.kind == "attack":
            resolutions.add((action, e.get("attacker"), e.get("action"), e.turn, e.player))
    for _, _, kind, turn, player in resolutions:
        c = counts[side_of[player]]
        c[f"attacks_{kind}"] += 1
        c["attacks_after_victims"] += starts[turn].get("victims") == 0
    windows = {side: Counter() for side in "ab"}
    for e in state.log:
        if e.kind == "plot_twist":
            windows[side_of[e.get("player")]][e.get("window")] += 1
    result: dict[str, object] = {}
    for side in "ab":
        result.update({f"{name}_{side}": counts[side][name] for name in COUNTED})
        result[f"plot_twist_windows_{side}"] = " ".join(f"{w}:{n}" for w, n in sorted(windows[side].items()))
    return result


def test_play_columns_match_a_recount_of_the_event_log():
    attacks = twists = 0
    for index in range(6):
        row, _ = play_one(MATCHUP, SEED, index)
        could_act: dict[int, bool] = {}
        state, side_of = replay(MATCHUP, index, could_act)
        expected = recount(state, side_of, could_act)
        assert {k: row[k] for k in expected} == expected, index
        for side in "ab":
            assert row[f"idle_turns_{side}"] == row[f"passed_turns_{side}"] + row[f"no_action_turns_{side}"]
            assert row[f"idle_turns_{side}"] <= row[f"turns_{side}"]
            assert row[f"idle_turns_with_victims_{side}"] <= row[f"turns_with_victims_{side}"] <= row[f"turns_{side}"]
            total = sum(row[f"attacks_{k}_{side}"] for k in ("close", "ranged", "frenzy"))
            assert row[f"attacks_after_victims_{side}"] <= total
            assert (
                sum(int(p.split(":")[1]) for p in row[f"plot_twist_windows_{side}"].split())
                == row[f"plot_twists_{side}"]
            )
            attacks += total
            twists += row[f"plot_twists_{side}"]
        # every player's turn is counted once, bar one the game ended in before any action
        starts = sum(1 for e in state.log if e.kind == "turn_start")
        assert starts - 1 <= row["turns_a"] + row["turns_b"] <= starts
    assert attacks > 0 and twists > 0  # the games exercise what is counted


def test_multi_target_attacks_free_attacks_and_unplayed_turns_on_a_made_up_log():
    state, _ = replay(MATCHUP, 0)

    def ev(kind: str, turn: int, active: int, /, **detail: object) -> Event:
        return Event(kind, turn, active, tuple(detail.items()))

    state.log = [
        ev("turn_start", 1, 1, victims=2),
        ev("action", 1, 1, monster="P1.x", action="ranged"),
        ev("attack", 1, 1, attacker="P1.x", target="P2.y", action="ranged"),
        ev("attack", 1, 1, attacker="P1.x", target="P2.z", action="ranged"),  # the same attack, second target
        ev("action", 1, 1, monster="P1.w", action="move"),
        ev("attack", 1, 1, attacker="P1.w", target="P2.y", action="close"),  # a power's free attack
        ev("plot_twist", 1, 1, card="Trip", player=2, window="slaying"),
        ev("turn_end", 1, 1),
        ev("turn_start", 2, 2, victims=1),
        ev("plot_twist", 2, 2, card="Broad Daylight", player=2, window="preview"),
        ev("turn_end", 2, 2, could_act=True),  # idle, though a monster could have acted: passed
        ev("turn_start", 3, 1, victims=0),
        ev("action", 3, 1, monster="P1.x", action="frenzy"),
        ev("attack", 3, 1, attacker="P1.x", target="P2.y", action="frenzy"),
        ev("action", 3, 1, monster="P1.x", action="close"),
        ev("attack", 3, 1, attacker="P1.x", target="P2.y", action="close"),
        ev("turn_end", 3, 1),
        ev("turn_start", 4, 2, victims=0),
        ev("game_over", 4, 2, reason="one side left"),  # before player 2 could act: not a turn played
    ]
    row, _ = game_rows(state, MATCHUP, SEED, 0, swapped=False)
    assert [row[f"{name}_a"] for name in COUNTED] == [2, 0, 1, 0, 0, 0, 0, 0, 2, 1, 1, 2]
    assert [row[f"{name}_b"] for name in COUNTED] == [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    assert row["plot_twist_windows_a"] == "" and row["plot_twist_windows_b"] == "preview:1 slaying:1"
    assert recount(state, {1: "a", 2: "b"}) == {k: row[k] for k in recount(state, {1: "a", 2: "b"})}


def known_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "turns_a": [10, 10],
            "idle_turns_a": [2, 3],
            "turns_with_victims_a": [6, 4],
            "idle_turns_with_victims_a": [1, 0],
            "passed_turns_a": [1, 0],
            "passed_turns_with_victims_a": [0, 0],
            "no_action_turns_a": [1, 3],
            "no_action_turns_with_victims_a": [1, 0],
            "attacks_close_a": [2, 0],
            "attacks_ranged_a": [1, 0],
            "attacks_frenzy_a": [0, 0],
            "attacks_after_victims_a": [1, 0],
            "rescued_a": [1, 0],
            "plot_twist_windows_a": ["slaying:2 preview:1", ""],
            "turns_b": [10, 9],
            "idle_turns_b": [0, 9],
            "turns_with_victims_b": [5, 4],
            "idle_turns_with_victims_b": [0, 4],
            "passed_turns_b": [0, 6],
            "passed_turns_with_victims_b": [0, 3],
            "no_action_turns_b": [0, 3],
            "no_action_turns_with_victims_b": [0, 1],
            "attacks_close_b": [0, 0],
            "attacks_ranged_b": [3, 0],
            "attacks_frenzy_b": [1, 0],
            "attacks_after_victims_b": [2, 0],
            "rescued_b": [0, 2],
            "plot_twist_windows_b": ["", "hunting:1"],
        }
    )


@pytest.mark.parametrize("via_csv", [False, True])
def test_play_style_on_a_known_table(via_csv, tmp_path):
    games = known_table()
    if via_csv:  # blank window cells come back as NaN
        games.to_csv(tmp_path / "games.csv", index=False)
        games = pd.read_csv(tmp_path / "games.csv")
    play = play_style(games)
    a, b = play["a"], play["b"]
    assert a["idle_share"]["rate"] == pytest.approx(5 / 20) and a["idle_share"]["n"] == 20
    assert a["idle_share"]["low"] < 0.25 < a["idle_share"]["high"]
    assert a["idle_share_with_victims"]["rate"] == pytest.approx(1 / 10)
    assert b["idle_share"]["rate"] == pytest.approx(9 / 19)
    assert b["idle_share_with_victims"]["rate"] == pytest.approx(4 / 9)
    # the idle share split (issue 32): shares of all turns, adding up to the idle share
    assert a["passed_share"]["rate"] == pytest.approx(1 / 20) and a["passed_share"]["n"] == 20
    assert a["no_action_share"]["rate"] == pytest.approx(4 / 20)
    assert a["passed_share_with_victims"]["rate"] == 0 and a["no_action_share_with_victims"]["rate"] == pytest.approx(
        1 / 10
    )
    assert b["passed_share"]["rate"] == pytest.approx(6 / 19) and b["no_action_share"]["rate"] == pytest.approx(3 / 19)
    assert b["passed_share_with_victims"]["rate"] == pytest.approx(3 / 9)
    assert b["no_action_share_with_victims"]["rate"] == pytest.approx(1 / 9)
    for side in (a, b):
        assert side["passed_share"]["rate"] + side["no_action_share"]["rate"] == pytest.approx(
            side["idle_share"]["rate"]
        )
    assert a["attacks_per_game"] == pytest.approx({"close": 1.0, "ranged": 0.5, "frenzy": 0.0, "total": 1.5})
    assert b["attacks_per_game"] == pytest.approx({"close": 0.0, "ranged": 1.5, "frenzy": 0.5, "total": 2.0})
    assert a["attacks_after_victims_per_game"] == 0.5 and b["attacks_after_victims_per_game"] == 1.0
    assert a["rescues_per_game"] == 0.5 and b["rescues_per_game"] == 1.0
    assert a["plot_twists_per_window"] == {"preview": 0.5, "slaying": 1.0}
    assert b["plot_twists_per_window"] == {"hunting": 0.5}
    assert a["no_attack_share"] == 0.5 and b["no_attack_share"] == 0.5
    assert play["no_attack_games_share"] == 0.5
    one_sided = games.assign(attacks_close_a=[2, 1])
    assert play_style(one_sided)["no_attack_games_share"] == 0.0


def test_play_style_reads_tables_from_before_the_split():
    """A table without the passed / no-action columns (an older run) has no split shares; one whose older rows leave
    them blank counts the split over the rows that have them."""
    games = known_table()
    old = games.drop(columns=[c for c in games if c.startswith(("passed_", "no_action_"))])
    play = play_style(old)
    assert "passed_share" not in play["a"] and play["a"]["idle_share"]["rate"] == pytest.approx(5 / 20)
    mixed = pd.concat([games, old.iloc[:1]], ignore_index=True)
    a = play_style(mixed)["a"]
    assert a["passed_share"]["n"] == 20 and a["passed_share"]["rate"] == pytest.approx(1 / 20)
    assert a["idle_share"]["n"] == 30


def hunting_turn() -> tuple[GameState, str]:
    """Game 0 of the test matchup set up, its first player in the hunting phase before any action (an unused
    suspense phase skipped), and that player's side ("a"/"b")."""
    state, _ = start_state(MATCHUP, SEED, 0, swapped=False)
    assert state.waiting is None and not state.over
    if state.phase == Phase.SUSPENSE:
        rules.apply(state, SkipSuspense())
    assert state.phase == Phase.HUNTING
    return state, {1: "a", 2: "b"}[state.active]


def end_first_turn(state: GameState) -> dict[str, object]:
    """End the turn as the player would (EndTurn), then count the game so far."""
    rules.apply(state, EndTurn())
    row, _ = game_rows(state, MATCHUP, SEED, 0, swapped=False)
    return row


def monster_options(state: GameState) -> bool:
    """Whether the legal actions hold a monster's action (anything beside ending the turn and playing cards); and
    `monster_could_act`, the engine's own check, says the same without rolling a die or changing the game."""
    found = any(hasattr(part, "monster") for part in legal_actions(state).parts)
    rolled, log, tokens = state.dice.rolled, len(state.log), [m.tokens for m in state.monsters]
    assert monster_could_act(state) is found
    assert (state.dice.rolled, len(state.log), [m.tokens for m in state.monsters]) == (rolled, log, tokens)
    return found


def test_a_side_whose_monsters_all_carry_two_tokens_has_no_legal_action():
    state, side = hunting_turn()
    for m in state.monsters:
        if m.controller == state.active:
            m.tokens = 2  # HC-TURN-13: a monster with two action tokens cannot act
    assert not monster_options(state)
    row = end_first_turn(state)
    end = next(e for e in state.log if e.kind == "turn_end")
    assert end.get("could_act") is False
    counted = [row[f"{name}_{side}"] for name in ("turns", "idle_turns", "passed_turns", "no_action_turns")]
    assert counted == [1, 1, 0, 1]


def test_ending_the_turn_with_a_monster_free_to_act_is_a_passed_turn():
    state, side = hunting_turn()
    assert monster_options(state)
    tokens = [m.tokens for m in state.monsters]
    row = end_first_turn(state)
    end = next(e for e in state.log if e.kind == "turn_end")
    assert end.get("could_act") is True
    counted = [row[f"{name}_{side}"] for name in ("turns", "idle_turns", "passed_turns", "no_action_turns")]
    assert counted == [1, 1, 1, 0]
    assert tokens == [0] * len(tokens)  # nothing had acted before: the tokens were not what kept the side still


def test_one_monster_with_a_single_token_can_still_act():
    state, side = hunting_turn()
    mine = [m for m in state.monsters if m.controller == state.active and m.alive]
    for m in mine:
        m.tokens = 2
    mine[0].tokens = 1
    assert monster_options(state)  # its one token leaves it an action (a second token, HC-TURN-03)
    row = end_first_turn(state)
    assert next(e for e in state.log if e.kind == "turn_end").get("could_act") is True
    assert row[f"passed_turns_{side}"] == 1 and row[f"no_action_turns_{side}"] == 0


SPLIT_MATCHUPS = [
    Matchup(library=ROOT / "rosters" / "horrorclix", army_a=a, army_b=b, map_name="graveyard", turn_limit=15)
    for a, b in (("haunting", "lantern-watch"), ("butcher-shop", "crimson-court"), ("drowned-choir", "firing-line"))
]


def test_idle_turns_split_as_the_offered_options_say():
    """In whole games, each idle turn is passed exactly when the options the player ended it from held a monster's
    action, and no legal action otherwise; the games hold turns of both kinds."""
    totals = Counter()
    for matchup in SPLIT_MATCHUPS:
        for index in range(2):
            row, _ = play_one(matchup, SEED, index)
            could_act: dict[int, bool] = {}
            state, side_of = replay(matchup, index, could_act)
            expected = recount(state, side_of, could_act)
            assert {k: row[k] for k in expected} == expected, (matchup.army_a, index)
            for side in "ab":
                assert row[f"idle_turns_{side}"] == row[f"passed_turns_{side}"] + row[f"no_action_turns_{side}"]
                assert row[f"idle_turns_with_victims_{side}"] == (
                    row[f"passed_turns_with_victims_{side}"] + row[f"no_action_turns_with_victims_{side}"]
                )
                totals["passed"] += row[f"passed_turns_{side}"]
                totals["no_action"] += row[f"no_action_turns_{side}"]
    assert totals["passed"] > 0 and totals["no_action"] > 0, totals


def test_duel_json_report_and_summary_show_how_the_ai_played(tmp_path):
    out = tmp_path / "duel"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clix.analyzer.cli",
            "duel",
            "butcher-shop",
            "firing-line",
            "--games",
            "4",
            "--turns",
            "5",
            "--jobs",
            "1",
            "--json",
            "--out",
            str(out),
            "--rosters",
            str(ROOT / "rosters" / "horrorclix"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    play = summary["play"]
    for side in "ab":
        assert 0 <= play[side]["idle_share"]["rate"] <= 1 and play[side]["idle_share"]["n"] > 0
        assert set(play[side]["attacks_per_game"]) == {"close", "ranged", "frenzy", "total"}
    assert 0 <= play["no_attack_games_share"] <= 1
    assert rounded(json.loads((out / "summary.json").read_text(encoding="utf-8"))["play"]) == play  # --json rounds
    games = pd.read_parquet(out / "games.parquet")
    assert {f"{name}_{side}" for name in (*COUNTED, "plot_twist_windows") for side in "ab"} <= set(games.columns)
    assert "How the AI played" in (out / "report.html").read_text(encoding="utf-8")

    text = io.StringIO()
    names = {"a": "butcher-shop", "b": "firing-line"}
    print_summary(Console(file=text, width=300), summary, summary["settings"], names, "provenance", out / "report.html")
    lines = text.getvalue().splitlines()
    shown = [i for i, line in enumerate(lines) if line.startswith("  how the AI played")]
    assert len(shown) == 1
    first = shown[0]
    assert lines[first + 1].startswith("    butcher-shop: passed ") and lines[first + 2].startswith(
        "    firing-line: passed "
    )
    assert "no legal action" in lines[first + 1] and "15%" in lines[first]
    assert all(len(line) <= 120 for line in lines[first : first + 3])
    for side in "ab":
        assert {"passed_share", "no_action_share"} <= set(play[side])
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "passed (could act)" in report and "no legal action" in report

    # a summary from before the split still prints its idle share
    old = json.loads(json.dumps(summary))
    for side in "ab":
        for key in [k for k in old["play"][side] if k.startswith(("passed_", "no_action_"))]:
            del old["play"][side][key]
    text = io.StringIO()
    print_summary(Console(file=text, width=300), old, old["settings"], names, "provenance", out / "report.html")
    assert "    butcher-shop: idle " in text.getvalue()
