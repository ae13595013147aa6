"""The duel's statistics a tournament organizer can defend (issue 13): the score over seat-swapped pairs, the
difference of two scores, the tie-break share, the first-player and seat effects and the figures' intervals."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.common.jsonout import rounded
from clix.analyzer.duel.console import print_summary
from clix.analyzer.stats.duel import (
    difference_interval,
    first_player_effects,
    pair_interval,
    paired_difference_interval,
    score,
    score_difference,
    tie_break,
)
from clix.analyzer.stats.figures import figure_efficiency
from rich.console import Console
from scipy import stats as st

ROOT = Path(__file__).resolve().parent.parent


def pairs_of(*pairs: tuple[str, str], first: str = "AB") -> pd.DataFrame:
    """A game table from pairs of winners (seat-swapped: A in seat 1, then seat 2); `first` names who went
    first in the pair's two games."""
    winners = [w for pair in pairs for w in pair]
    n = len(winners)
    return pd.DataFrame(
        {
            "game": range(n),
            "pair": [i // 2 for i in range(n)],
            "seat_a": [1 + i % 2 for i in range(n)],
            "first": [first[i % 2] for i in range(n)],
            "winner": winners,
        }
    )


def test_score_and_its_paired_interval_on_a_known_table() -> None:
    games = pairs_of(("A", "A"), ("A", "draw"), ("B", "A"), ("A", "A"))
    result = score(games)
    means = np.array([1.0, 0.75, 0.5, 1.0])
    expected = pair_interval(means)
    assert result["score"] == pytest.approx(0.8125)
    assert (result["low"], result["high"]) == pytest.approx((expected["low"], expected["high"]))
    assert 0.8125 < result["high"] < 1.0  # not clipped at 100%, as the t interval was: 4 pairs leave room above
    assert (result["pairs"], result["games"]) == (4, 8)
    per_game = np.array([1, 1, 1, 0.5, 0, 1, 1, 1])
    naive = pair_interval(per_game)  # the same interval with games as the unit
    assert (result["naive_low"], result["naive_high"]) == pytest.approx((naive["low"], naive["high"]))
    assert result["excludes_half"] is False  # 4 pairs are too few: the interval reaches below 50%
    assert score(pairs_of(*[("A", "A")] * 8, ("A", "B")))["excludes_half"] is True


def test_paired_interval_is_narrower_than_the_naive_one_on_correlated_pairs() -> None:
    """A favoured army (62.5%) whose pairs mostly split: the shared dice favour a seat, so A's two games pull
    opposite ways and the pair mean varies less than two independent games would."""
    games = pairs_of(*[("A", "B")] * 30, *[("A", "A")] * 10)
    result = score(games)
    assert result["score"] == pytest.approx(0.625)
    paired = result["high"] - result["low"]
    naive = result["naive_high"] - result["naive_low"]
    assert paired < 0.7 * naive
    means = np.array([0.5] * 30 + [1.0] * 10)
    t_half = st.t.ppf(0.975, 39) * means.std(ddof=1) / np.sqrt(40)
    assert paired / 2 == pytest.approx(t_half, rel=0.1)  # pairs that vary: close to the t interval


def test_score_difference_of_two_runs_with_the_same_pairs() -> None:
    x = pairs_of(("A", "A"), ("A", "B"), ("draw", "draw"), ("B", "B"))  # pair means 1, .5, .5, 0
    y = pairs_of(("A", "B"), ("A", "B"), ("B", "B"), ("B", "B"))  # .5, .5, 0, 0
    result = score_difference(x, y)
    d = np.array([0.5, 0.0, 0.5, 0.0])
    assert result["paired"] is True and (result["pairs_x"], result["pairs_y"]) == (4, 4)
    assert result["difference"] == pytest.approx(0.25)
    expected = paired_difference_interval(d)
    assert (result["low"], result["high"]) == pytest.approx((expected["low"], expected["high"]))
    assert result["low"] < 0 < result["high"]
    same = score_difference(x, x)
    # every pair's difference is 0: still an interval around 0, not a certainty
    assert same["difference"] == 0.0 and -1 < same["low"] < 0 < same["high"] < 1
    assert score_difference(y, x)["difference"] == pytest.approx(-0.25)


def test_score_difference_when_pairs_do_not_line_up_is_independent() -> None:
    x = pairs_of(("A", "A"), ("A", "B"), ("draw", "draw"), ("B", "B"))  # pair means 1, .5, .5, 0
    y = pairs_of(("A", "B"), ("B", "B"), ("B", "B"), ("B", "B"), ("A", "A"), ("A", "draw"))  # .5, 0, 0, 0, 1, .75
    result = score_difference(x, y)
    mx, my = np.array([1, 0.5, 0.5, 0]), np.array([0.5, 0, 0, 0, 1, 0.75])
    expected = difference_interval(mx, my)  # Newcombe's, from each side's pair interval
    assert result["paired"] is False and (result["pairs_x"], result["pairs_y"]) == (4, 6)
    assert result["difference"] == pytest.approx(0.5 - 2.25 / 6)
    assert (result["low"], result["high"]) == pytest.approx((expected["low"], expected["high"]))
    assert result["low"] < result["difference"] < result["high"]
    # the same games with their pairs matched: the dice shared by a pair cancel, the interval is narrower
    shared = pairs_of(("A", "B"), ("A", "B"), ("B", "B"), ("B", "B"))
    renamed = shared.assign(pair=shared["pair"] + 100)
    assert score_difference(x, shared)["paired"] and not score_difference(x, renamed)["paired"]
    matched, independent = score_difference(x, shared), score_difference(x, renamed)
    assert matched["difference"] == pytest.approx(independent["difference"])
    assert matched["high"] - matched["low"] < independent["high"] - independent["low"]
    empty = score_difference(x, x.iloc[0:0])
    assert empty["difference"] is None and empty["low"] is None


def test_tie_break_share() -> None:
    games = pd.DataFrame(
        {
            "winner": ["A", "B", "B", "A", "draw"] * 2,
            "vp_a": [10, 10, 5, 15, 10] * 2,
            "vp_b": [10, 10, 10, 5, 10] * 2,
            "ties": ["break"] * 10,
        }
    )
    games["tie_break"] = (games["vp_a"] == games["vp_b"]) & (games["winner"] != "draw")
    result = tie_break(games)
    assert result == {"share": 0.4, "count": 4, "games": 10, "equal_vp": 6, "ties": "break"}
    assert tie_break(games.drop(columns=["tie_break", "ties"])) == result  # recomputed from VP when absent
    as_draws = games.assign(winner=["draw", "draw", "B", "A", "draw"] * 2, tie_break=False, ties="draw")
    assert tie_break(as_draws) == {"share": 0.0, "count": 0, "games": 10, "equal_vp": 6, "ties": "draw"}


def test_first_player_effect_when_the_first_player_always_wins() -> None:
    """In every pair each army goes first once and the first player wins: +100 points for both armies."""
    rows = []
    for pair in range(20):
        a_first_in_seat_1 = pair % 2 == 0  # half the pairs A goes first in seat 1, half in seat 2
        for seat_a in (1, 2):
            first = "A" if (seat_a == 1) == a_first_in_seat_1 else "B"
            rows.append({"game": len(rows), "pair": pair, "seat_a": seat_a, "first": first, "winner": first})
    games = pd.DataFrame(rows)
    result = first_player_effects(games)
    # every pair agrees, yet the interval keeps a width: 20 pairs all won are consistent with ~83% (issue 32)
    assert (result["score"], result["high"], result["pairs"]) == (1.0, 1.0, 20)
    assert result["low"] == pytest.approx(0.832, abs=0.005)
    for side in ("a", "b"):
        army = result["by_army"][side]
        assert (army["first"]["score"], army["second"]["score"]) == (1.0, 0.0)
        effect = army["effect"]
        assert (effect["difference"], effect["high"], effect["paired"]) == (1.0, 1.0, True)
        assert (effect["pairs_x"], effect["pairs_y"]) == (20, 20)
        assert 0.5 < effect["low"] < 0.9
    seat = result["seat"]
    assert seat["seat_1"]["score"] == seat["seat_2"]["score"] == 0.5
    assert seat["effect"]["paired"] and seat["effect"]["difference"] == 0.0
    assert seat["effect"]["low"] < 0 < seat["effect"]["high"]


def test_first_player_effect_falls_back_to_independent_samples() -> None:
    """Mirror pairs have a seed per game: A may go first in both games of a pair, so pairs do not line up."""
    games = pairs_of(("A", "A"), ("B", "A"), ("A", "B"), ("B", "B"), ("A", "draw"), first="AB")
    games.loc[games["pair"] == 0, "first"] = "A"
    games.loc[games["pair"] == 3, "first"] = "B"
    effect = first_player_effects(games)["by_army"]["a"]["effect"]
    assert effect["paired"] is False and (effect["pairs_x"], effect["pairs_y"]) == (4, 4)
    assert -1 <= effect["low"] <= effect["difference"] <= effect["high"] <= 1


def random_figures(seed: int, pairs: int = 25) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A made-up run: army A has a cheap and a dear figure, army B one figure in two copies."""
    rng = np.random.default_rng(seed)
    games = pd.DataFrame({"game": range(2 * pairs), "pair": [g // 2 for g in range(2 * pairs)]})
    rows = []
    for game in games["game"]:
        for side, figure, points in (("A", "cheap", 40), ("A", "dear", 60), ("B", "twin", 50), ("B", "twin", 50)):
            victims = int(rng.integers(0, 3))
            rows.append(
                {
                    "game": game,
                    "side": side,
                    "army": side.lower(),
                    "figure": figure,
                    "points": points,
                    "damage_dealt": int(rng.integers(0, 4)),
                    "damage_taken": int(rng.integers(0, 4)),
                    "kills": 0,
                    "kill_vp": 0,
                    "victims": victims,
                    "victim_vp": 5 * victims,
                    "survived": bool(rng.integers(0, 2)),
                }
            )
    return pd.DataFrame(rows), games


def test_figure_bootstrap_is_reproducible_and_contains_the_estimate() -> None:
    figures, games = random_figures(3)
    table = figure_efficiency(figures, games, seed=7)
    again = figure_efficiency(figures, games, seed=7)
    pd.testing.assert_frame_equal(table, again)
    other = figure_efficiency(figures, games, seed=8)
    assert not np.allclose(table["vp_low"], other["vp_low"])
    assert {"damage_dealt", "kills_per_point", "vp", "vp_per_point", "survival", "copies"} <= set(table.columns)
    for name in ("vp", "vp_per_point", "vp_share", "damage_share"):
        assert (table[f"{name}_low"] <= table[name]).all() and (table[name] <= table[f"{name}_high"]).all(), name
        spread = table[table["side"] == "A"]  # B has one figure: its shares are 1 in every resample
        assert (spread[f"{name}_low"] < spread[f"{name}_high"]).all(), name
    assert np.allclose(table["vp_per_point_low"], table["vp_low"] / table["points"])
    rows = figures.assign(vp=figures["victim_vp"])
    for row in table.itertuples():
        own = rows[(rows["side"] == row.side) & (rows["figure"] == row.figure)]
        army = rows[rows["side"] == row.side]
        assert row.vp == pytest.approx(own["vp"].mean())
        assert row.vp_share == pytest.approx(own["vp"].sum() / army["vp"].sum())
        assert row.damage_share == pytest.approx(own["damage_dealt"].sum() / army["damage_dealt"].sum())
    assert table.groupby("side")["vp_share"].sum().tolist() == pytest.approx([1.0, 1.0])
    assert table.loc[table["figure"] == "twin", "vp_share"].item() == 1.0  # an army of one figure (two copies)


def test_figure_bootstrap_resamples_whole_pairs() -> None:
    """The bootstrap draws the two games of a pair together: calling every game a pair of its own changes the
    intervals but not the estimates."""
    figures, games = random_figures(5, pairs=40)
    by_pair = figure_efficiency(figures, games, seed=0)
    by_game = figure_efficiency(figures, games.assign(pair=games["game"]), seed=0)
    assert not np.allclose(by_pair["vp_low"], by_game["vp_low"])
    assert by_pair["vp"].tolist() == by_game["vp"].tolist()


@pytest.fixture(scope="module")
def duel_json(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    out = tmp_path_factory.mktemp("duel")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clix.analyzer.cli",
            "duel",
            "butcher-shop",
            "firing-line",
            "--games",
            "6",
            "--turns",
            "4",
            "--jobs",
            "1",
            "--json",
            "--out",
            str(out),
            "--rosters",
            str(ROOT / "rosters" / "horrorclix"),
        ],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), out


def test_duel_json_carries_score_tie_break_first_player_and_figure_intervals(duel_json: tuple[dict, Path]) -> None:
    summary, out = duel_json
    sc = summary["score"]
    assert set(sc) == {"score", "low", "high", "pairs", "games", "naive_low", "naive_high", "excludes_half"}
    assert 0 <= sc["low"] <= sc["score"] <= sc["high"] <= 1 and (sc["pairs"], sc["games"]) == (3, 6)
    outcome = summary["outcome"]
    assert sc["score"] == pytest.approx(outcome["win"]["rate"] + outcome["draw"]["rate"] / 2)
    assert set(summary["tie_break"]) == {"share", "count", "games", "equal_vp", "ties"}
    assert summary["tie_break"]["ties"] == "break" and summary["tie_break"]["games"] == 6
    fp = summary["first_player"]
    assert {"score", "low", "high", "pairs", "games", "by_army", "seat"} <= set(fp)
    for side in ("a", "b"):
        assert set(fp["by_army"][side]) == {"first", "second", "effect"}
        assert fp["by_army"][side]["effect"]["paired"] is True  # different armies: every pair shares its seed
    assert fp["by_army"]["a"]["effect"]["difference"] == pytest.approx(fp["by_army"]["b"]["effect"]["difference"])
    assert set(fp["seat"]) == {"seat_1", "seat_2", "effect"}
    assert "first_player_wins" in summary
    for figure in summary["figures"]:
        for name in ("vp", "vp_per_point", "vp_share", "damage_share"):
            assert {f"{name}_low", f"{name}_high"} <= set(figure), name
        assert figure["vp_low"] <= figure["vp"] <= figure["vp_high"]
    saved = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    for key in ("score", "tie_break", "first_player", "figures"):
        assert rounded(saved[key]) == summary[key], key  # --json rounds its floats to six significant digits
    html = (out / "report.html").read_text(encoding="utf-8")
    for text in ("First player and seats", "<h2>Pairs</h2>", "VP per point favours cheap figures", "share of its army"):
        assert text in html, text


def test_text_summary_leads_with_the_score(duel_json: tuple[dict, Path]) -> None:
    summary, out = duel_json
    text = io.StringIO()
    names = {"a": "butcher-shop", "b": "firing-line"}
    print_summary(Console(file=text, width=300), summary, summary["settings"], names, "provenance", out / "r.html")
    lines = text.getvalue().splitlines()
    assert lines[1].startswith("  butcher-shop scores ") and "seat-swapped pairs" in lines[1]
    assert lines[2].startswith("    wins ") and "draws" in lines[2] and "loses" in lines[2]
    assert lines[3].startswith("  the score's interval ") and "50%" in lines[3]
    assert not any("sign test" in line for line in lines)
    assert any(line.startswith("  decided by the tie-break (equal VP, cheaper army wins): ") for line in lines)
    going_first = next(i for i, line in enumerate(lines) if line.startswith("  going first (HC-SETUP-03)"))
    assert lines[going_first + 1].startswith("    butcher-shop: ") and "effect" in lines[going_first + 1]
    assert lines[going_first + 2].startswith("    firing-line: ")
    assert lines[going_first + 3].startswith("    seats: butcher-shop ")
    assert all(len(line) <= 120 for line in [*lines[1:4], *lines[going_first : going_first + 4]])
    draws = {**summary, "tie_break": {**summary["tie_break"], "ties": "draw"}}
    text = io.StringIO()
    print_summary(Console(file=text, width=300), draws, summary["settings"], names, "provenance", out / "r.html")
    assert "  ties played as draws: " in text.getvalue()


def test_figure_groups_and_means_are_pandas_groupby() -> None:
    """The figures' table groups its rows without pandas's groupby (a million games' key codes took 200 MB, issue
    31): the same groups in the same order, the same counts and means as `groupby(...).agg`, for text keys and for
    the compact rows' categoricals alike."""
    rng = np.random.default_rng(5)
    n = 600
    figures = pd.DataFrame(
        {
            "game": np.sort(rng.integers(0, 150, n)),
            "side": rng.choice(["A", "B"], n),
            "army": rng.choice(["zeta", "alpha"], n),
            "figure": rng.choice(["ghoul", "bat", "witch", "Zombie"], n),
            "points": rng.choice([9, 30, 120], n),
            **{c: rng.integers(0, 6, n) for c in ("damage_dealt", "damage_taken", "kills", "kill_vp", "victims")},
            "victim_vp": rng.integers(0, 3, n),
            "survived": rng.random(n) < 0.5,
        }
    )
    keys = ["side", "army", "figure", "points"]
    compact = figures.astype({k: "category" for k in ("side", "army", "figure")})
    for frame in (figures, compact):
        expected = frame.groupby(keys, as_index=False).agg(
            games=("game", "nunique"),
            copies=("game", "size"),
            damage_dealt=("damage_dealt", "mean"),
            damage_taken=("damage_taken", "mean"),
            kills=("kills", "mean"),
            kill_vp=("kill_vp", "mean"),
            victims=("victims", "mean"),
            victim_vp=("victim_vp", "mean"),
            survival=("survived", "mean"),
        )
        table = figure_efficiency(frame, resamples=10).sort_values(keys).reset_index(drop=True)
        pd.testing.assert_frame_equal(table[list(expected.columns)], expected, check_exact=False, check_dtype=False)
        assert len(table) == len(expected) > 20
