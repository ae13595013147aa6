"""`clix melee` (issue 39): the seat design, multiplayer games to the end, reproducibility, replay, one-line errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.melee.command import build_melee, games_frame, play_games
from clix.analyzer.melee.design import Melee, placings, play_state, seat_orders, seed_path
from clix.analyzer.melee.keep import MeleeKeeper, melee_key
from clix.analyzer.melee.replay import replay_row
from clix.analyzer.melee.stats import king_making, summarize, targeted
from helpers import run_main

FOUR = ["butcher-shop", "firing-line", "haunting", "midnight-rush"]


def melee_of(armies: list[str], teams: str | None = None, turns: int = 6) -> Melee:
    return build_melee(None, armies, None, None, teams, turns, "break")


@pytest.mark.parametrize("size", [3, 4])
def test_a_block_puts_every_army_in_every_seat_equally_often(size: int) -> None:
    orders = seat_orders(size)
    assert len(orders) == [6, 24][size - 3]
    for seat in range(size):
        assert Counter(order[seat] for order in orders) == {slot: len(orders) // size for slot in range(size)}


def test_team_orders_seat_the_teams_alternately_and_every_army_in_every_seat() -> None:
    teams = (1, 1, 2, 2)  # AB:CD (HC-SPECIAL-11)
    orders = seat_orders(4, teams)
    assert len(orders) == 8
    for order in orders:
        assert [teams[s] for s in order] in ([1, 2, 1, 2], [2, 1, 2, 1])
    for seat in range(4):
        assert Counter(order[seat] for order in orders) == dict.fromkeys(range(4), 2)


def test_a_block_shares_one_seed_unless_two_armies_are_alike() -> None:
    distinct = melee_of(FOUR[:3])
    assert {seed_path(distinct, i) for i in range(6)} == {(0,)}
    assert seed_path(distinct, 6) == (1,)
    mirror = melee_of(["haunting"] * 3)
    assert len({seed_path(mirror, i) for i in range(6)}) == 6


def test_placings_rank_by_vp_then_the_cheaper_army_and_ties_share() -> None:
    assert placings([10, 30, 20], [100, 100, 100], True) == [3, 1, 2]
    assert placings([30, 30, 5], [98, 96, 100], True) == [2, 1, 3]  # HC-END-09: the cheaper army
    assert placings([30, 30, 5], [98, 96, 100], False) == [1.5, 1.5, 3]
    assert placings([7, 7, 7, 7], [1, 1, 1, 1], True) == [2.5] * 4


@pytest.mark.parametrize("size", [3, 4])
def test_multiplayer_games_play_to_the_end_with_every_seat_taking_turns(size: int) -> None:
    melee = melee_of(FOUR[:size])
    for index in range(3):
        state, _order = play_state(melee, 5, index)
        assert state.over and state.end_reason in ("turn limit", "one side left")
        players = {e.player for e in state.log if e.kind == "turn_start"}
        assert players == set(range(1, size + 1))
        victims = Counter(v.owner for v in state.victims)
        assert sum(victims.values()) == 12 and set(victims.values()) == {12 // size}  # HC-VICTIM-02


def test_teammates_never_attack_each_other_and_share_the_win() -> None:
    melee = melee_of(FOUR, teams="AC:BD")
    rows, _ = play_games(melee, 8, 3, 1)
    for row in rows:
        assert row["attacks_AC"] == row["attacks_CA"] == row["attacks_BD"] == row["attacks_DB"] == 0  # HC-SPECIAL-11
        assert row["win_A"] == row["win_C"] and row["win_B"] == row["win_D"]
        assert row["win_A"] + row["win_B"] == 1


def test_a_melee_is_the_same_on_one_or_two_workers() -> None:
    melee = melee_of(FOUR[:3])
    one, _ = play_games(melee, 12, 11, 1)
    two, _ = play_games(melee, 12, 11, 2)
    assert pd.DataFrame(one).equals(pd.DataFrame(two))
    assert sorted(r["order"] for r in one[:6]) == ["ABC", "ACB", "BAC", "BCA", "CAB", "CBA"]
    first_seat = {r["seat_" + r["first"]] for r in one[:6]}
    assert len(first_seat) == 1  # the block's shared dice give the same seat the first turn (HC-SETUP-03)


def test_replaying_game_n_gives_its_row() -> None:
    melee = melee_of(FOUR)
    rows, _ = play_games(melee, 24, 2, 1)
    again = replay_row(melee, 2, 17)
    assert again == rows[17]


def test_the_summary_has_a_win_share_per_army_summing_to_one() -> None:
    melee = melee_of(FOUR[:3])
    rows, _ = play_games(melee, 12, 4, 1)
    summary = summarize(games_frame(rows, melee))
    shares = [a["win_share"] for a in summary["armies"]]
    assert sum(shares) == pytest.approx(1)
    assert all(a["win_low"] <= a["win_share"] <= a["win_high"] for a in summary["armies"])
    assert [a["expected"] for a in summary["armies"]] == [pytest.approx(1 / 3)] * 3
    assert sum(p["win_share"] for p in summary["positions"]) == pytest.approx(1)
    assert summary["blocks"] == 2 and summary["headline"]


def test_the_command_prints_a_headline_and_writes_its_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = ["-o", str(tmp_path / "run"), "--store", str(tmp_path / "store.duckdb")]
    code, out, err = run_main(
        ["melee", *FOUR[:3], "--games", "10", "--turns", "6", "--jobs", "1", "--json", *where], capsys
    )
    assert code == 0, err
    assert "rounded up to 12" in err
    summary = json.loads(out)
    assert summary["games"] == 12 and len(summary["armies"]) == 3
    games = pd.read_csv(tmp_path / "run" / "games.csv")
    report = (tmp_path / "run" / "report.html").read_text()
    assert summary["outputs"][-1] == str(tmp_path / "run" / "report.html")
    assert "King-making" in report or summary["king_making"]["games"] == 0
    assert "Seats and turn order" in report and "butcher-shop" in report
    assert len(games) == 12 and set(games["order"]) == {"ABC", "ACB", "BAC", "BCA", "CAB", "CBA"}
    assert summarize(games)["headline"] == summary["headline"]
    assert summary["ended"]["from_store"] == 0
    code, _, err = run_main(["melee", *FOUR[:3], "--games", "12", "--turns", "6", *where], capsys)
    assert code == 2 and "--force" in err  # an earlier run's folder is replaced only with --force
    code, out, err = run_main(
        ["melee", *FOUR[:3], "--games", "12", "--turns", "6", "--json", "--force", *where], capsys
    )
    assert code == 0 and json.loads(out)["ended"]["from_store"] == 12 and json.loads(out)["armies"] == summary["armies"]
    code, out, err = run_main(["melee", *FOUR[:3], "--turns", "6", "--game", "7"], capsys)
    row = games[games["game"] == 7].iloc[0]
    assert code == 0 and f"winner {row['winner']}" in out
    code, again, err = run_main(["replay", "--run", str(tmp_path / "run"), "--game", "7"], capsys)
    assert code == 0 and again == out, err  # the folder alone replays the game (its summary.json's settings)
    changed = games.copy()
    changed.loc[changed["game"] == 7, "place_A"] = 9.0
    changed.to_csv(tmp_path / "run" / "games.csv", index=False)
    code, again, err = run_main(["replay", "--run", str(tmp_path / "run"), "--game", "7"], capsys)
    assert code == 1 and "replay differs" in again and "place_A is" in again
    code, _, err = run_main(["replay", "--run", str(tmp_path / "run"), "--game", "12"], capsys)
    assert code == 2 and err.count("\n") == 1 and "holds games 0 to 11" in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (FOUR[:2], "a melee seats 3 or 4 armies (got 2)"),
        ([*FOUR, "crimson-court"], "five players are not supported"),
        (["butcher-shop", "firing-lin", "haunting"], "did you mean 'firing-line'"),
        ([*FOUR[:3], "--teams", "AB:CD"], "--teams: team games seat two teams of two, so four armies"),
        ([*FOUR, "--teams", "AB:CC"], "--teams: 'AB:CC' is not two teams of two"),
        ([*FOUR, "--teams", "ABC:D"], "write it like AB:CD"),
        ([*FOUR[:3], "--players", "fuzzy"], "--players"),
        ([*FOUR[:3], "--ties", "coin"], "--ties takes break or draw"),
    ],
)
def test_bad_input_is_one_line(args: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_main(["melee", *args, "--games", "6", "--jobs", "1", "--store", str(tmp_path / "s")], capsys)
    assert code == 2
    assert says in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_heuristic_counts_a_teammates_area_as_friendly_and_shares_threats_among_opponents_only() -> None:
    from clix.engine.horrorclix.players.position import _areas, _Context

    melee = melee_of(FOUR, teams="AB:CD")
    state, _ = play_state(melee, 1, 0)
    mate = next(n for n in range(2, 5) if state.player(n).team == state.player(1).team)
    mine, theirs = _areas(state, 1)
    geo = state.geometry
    for space in geo.starting_areas[state.areas[mate]]:
        assert mine.nearest(space) == 0 and theirs.nearest(space) > 0
    assert _Context(state, 1).opponents == 2  # the other team's two players, not three (HC-SPECIAL-11)
    free_for_all, _ = play_state(melee_of(FOUR), 1, 0)
    assert _Context(free_for_all, 1).opponents == 3


def test_the_store_gives_back_the_games_it_has_and_plays_only_the_rest(tmp_path: Path) -> None:
    melee = melee_of(FOUR[:3])
    store = tmp_path / "clix.duckdb"
    first, ended = play_games(melee, 12, 8, 1, keeper=MeleeKeeper(store, melee, 8, 12, fresh=False))
    assert ended["from_store"] == 0
    again, ended = play_games(melee, 18, 8, 1, keeper=MeleeKeeper(store, melee, 8, 18, fresh=False))
    assert ended["from_store"] == 12 and again[:12] == first and len(again) == 18
    fresh, ended = play_games(melee, 12, 8, 1, keeper=MeleeKeeper(store, melee, 8, 12, fresh=True))
    assert ended["from_store"] == 0 and fresh == first
    assert melee_key(melee, 8) != melee_key(melee, 9)
    assert melee_key(melee, 8) != melee_key(melee_of(FOUR[:3], turns=7), 8)
    assert melee_key(melee_of(FOUR, teams="AB:CD"), 8) != melee_key(melee_of(FOUR), 8)


def test_idle_turns_are_counted_per_army() -> None:
    melee = melee_of(FOUR[:3])
    rows, _ = play_games(melee, 6, 1, 1)
    for row in rows:
        for x in "ABC":
            assert 0 <= row[f"idle_turns_{x}"] <= row[f"turns_{x}"] <= melee.turn_limit
        assert sum(row[f"turns_{x}"] for x in "ABC") >= 3 * (row["rounds"] - 1)


def test_results_list_and_show_a_melee_run_beside_a_duel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A melee played with a store is one of its recorded runs (issue 39): `results list` names it a melee with its
    armies and A's win share, `results show` prints its headline, `results export` writes its games."""
    store = ["--store", str(tmp_path / "s.duckdb")]
    code, out, err = run_main(
        [
            "melee",
            *FOUR[:3],
            "--games",
            "6",
            "--turns",
            "6",
            "--jobs",
            "1",
            "--json",
            "-o",
            str(tmp_path / "m"),
            *store,
        ],
        capsys,
    )
    assert code == 0, err
    summary = json.loads(out)
    code, _, err = run_main(
        ["duel", *FOUR[:2], "--games", "4", "--turns", "6", "--jobs", "1", "-o", str(tmp_path / "d"), *store], capsys
    )
    assert code == 0, err
    code, listing, err = run_main(["results", "list", *store], capsys)
    assert code == 0, err
    rows = [line for line in listing.splitlines() if line[:3].strip().isdigit()]
    assert "2 runs in" in listing and max(len(line) for line in rows) <= 80
    assert "melee:" in rows[0] and "vs" in rows[1] and "melee:" not in rows[1]
    assert rows[0].split()[-1] == f"{100 * summary['armies'][0]['win_share']:.1f}%"
    assert rows[0].split()[-2] == "12"  # two whole blocks at least
    code, shown, err = run_main(["results", "show", "1", *store], capsys)
    assert code == 0, err
    assert "clix melee butcher-shop firing-line haunting" in shown
    assert summary["headline"] in " ".join(shown.split())
    code, _, err = run_main(["results", "export", "1", "--out", str(tmp_path / "g.csv"), *store], capsys)
    assert code == 0, err
    games = pd.read_csv(tmp_path / "g.csv")
    assert len(games) == 12 and set(games["order"]) == {"ABC", "ACB", "BAC", "BCA", "CAB", "CBA"}


def test_targeted_shares_say_who_drew_the_attacks_against_an_even_spread() -> None:
    """Issue 39's "everyone's target": of B's and C's attacks (10 and 30), A drew 10 + 15; an even spread gives it
    half of each (20 of 40). In a 2v2 every army has two opponents, so the even share is half, and king-making is
    not counted (two sides: no army outside the race to hand the win to another), said in words."""
    row = {"army_A": "a", "army_B": "b", "army_C": "c", "teams": "",
           "attacks_AB": 4, "attacks_AC": 0, "attacks_BA": 10, "attacks_BC": 0, "attacks_CA": 15, "attacks_CB": 15}  # fmt: skip
    shares = {t["slot"]: t for t in targeted(pd.DataFrame([row]))}
    assert shares["A"]["received"] == 25 and shares["A"]["share"] == pytest.approx(25 / 40)
    assert shares["A"]["equal_share"] == pytest.approx(20 / 40)
    assert shares["C"]["received"] == 0 and shares["C"]["equal_share"] == pytest.approx(7 / 14)  # A 4 and B 10, halved
    team = {f"army_{x}": x.lower() for x in "ABCD"} | {"teams": "AC:BD"}
    team |= {f"attacks_{x}{y}": 1 + (x == "B") for x in "ABCD" for y in "ABCD" if x != y}
    games = pd.DataFrame([team])
    assert [t["equal_share"] for t in targeted(games)] == [pytest.approx(0.5)] * 4
    assert targeted(games)[0]["received"] == 3  # B's 2 and D's 1; C is A's teammate
    assert king_making(games)["games"] == 0 and "two sides" in king_making(games)["not_counted"]
