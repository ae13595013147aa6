"""`clix ladder` and `clix duel --players sweep`: paired scores, Bradley-Terry ratings, cells equal to single
runs with the same seed, the sweep's verdict, and the CLI end to end (tiny numbers: few games, 4 turns, 1 job)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.duel.command import run_duel
from clix.analyzer.duel.sweep import (
    COMPARABLE_ELO,
    DEPENDS,
    ROBUST,
    STYLE_RATINGS,
    score_range,
    sweep_lines,
    sweep_verdict,
    weaker_styles,
)
from clix.analyzer.ladder.command import fit_ratings, ladder_matchups, ladder_summary, run_cells, run_ladder
from clix.analyzer.library.load import load_checked
from clix.analyzer.play.runner import Matchup, run_matchup
from clix.analyzer.stats.scoring import game_scores, pair_interval, paired_score
from clix.engine.horrorclix.players.heuristic import DEFAULT_STYLE, STYLES
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters" / "horrorclix"
ARMY, OTHER, MAP, TURNS, GAMES = "butcher-shop", "firing-line", "graveyard", 4, 4


def frame(winners_by_pair: list[tuple[str, str]]) -> pd.DataFrame:
    """Games from army A's point of view, two per pair."""
    rows = [
        {"pair": pair, "game": 2 * pair + k, "winner": w}
        for pair, winners in enumerate(winners_by_pair)
        for k, w in enumerate(winners)
    ]
    return pd.DataFrame(rows)


def quiet() -> Console:
    return Console(quiet=True)


# --- paired_score -----------------------------------------------------------------------------------------


def test_paired_score_takes_the_pair_as_the_unit():
    pairs = [("A", "A"), ("A", "B"), ("draw", "B"), ("A", "draw"), ("B", "B"), ("A", "A")]
    means = np.array([1.0, 0.5, 0.25, 0.75, 0.0, 1.0])
    result = paired_score(frame(pairs), "A")
    expected = pair_interval(means)  # the pair means, not the 12 games, are the observations
    assert result["score"] == pytest.approx(means.mean())
    assert (result["low"], result["high"]) == pytest.approx((expected["low"], expected["high"]))
    by_games = pair_interval(game_scores(frame(pairs), "A").to_numpy())
    assert (result["low"], result["high"]) != pytest.approx((by_games["low"], by_games["high"]))
    assert (result["pairs"], result["games"]) == (6, 12)
    b = paired_score(frame(pairs), "B")
    assert b["score"] == pytest.approx(1 - result["score"])
    assert b["high"] - b["low"] == pytest.approx(result["high"] - result["low"])


def test_paired_score_all_equal_pairs_keep_a_width_and_pair_keys_can_be_several_columns():
    # every pair split one win each: the games vary, the pairs do not, and the interval still has a width
    split = paired_score(frame([("A", "B"), ("B", "A"), ("draw", "draw"), ("A", "B")]), "A")
    assert split["score"] == 0.5 and split["low"] < 0.5 < split["high"]
    # two cells whose pair numbers repeat: without the cell columns they would merge into one pair each
    games = pd.concat(
        [frame([("A", "A"), ("B", "B")]).assign(army="x"), frame([("B", "B"), ("A", "A")]).assign(army="y")]
    )
    merged = paired_score(games, "A")
    separate = paired_score(games, "A", ("army", "pair"))
    assert merged["pairs"] == 2 and merged["score"] == 0.5
    assert separate["pairs"] == 4 and separate["score"] == 0.5 and separate["low"] < 0.5 < separate["high"]
    assert separate["high"] - separate["low"] > merged["high"] - merged["low"]  # pairs that vary are less sure
    clipped = paired_score(frame([("A", "A"), ("A", "A"), ("A", "B")]), "A")
    assert 0.0 <= clipped["low"] < clipped["score"] < clipped["high"] <= 1.0


# --- Bradley-Terry --------------------------------------------------------------------------------------


def test_bradley_terry_recovers_known_strengths():
    truth = np.array([-300.0, -100.0, 0.0, 150.0, 250.0])
    truth -= truth.mean()
    rng = np.random.default_rng(7)
    n = 600
    wins = np.zeros((5, 5))
    games = np.zeros((5, 5))
    for i in range(5):
        for j in range(i + 1, 5):
            p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
            won = rng.binomial(n, p)
            wins[i, j], wins[j, i] = won, n - won
            games[i, j] = games[j, i] = n
    elo = fit_ratings(wins, games)
    assert list(np.argsort(elo)) == list(np.argsort(truth))
    assert elo.mean() == pytest.approx(0, abs=1e-9)
    assert np.max(np.abs(elo - truth)) < 40


def test_bradley_terry_keeps_a_style_that_never_scores_finite():
    wins = np.array([[0.0, 0.0], [10.0, 0.0]])
    games = np.array([[0.0, 10.0], [10.0, 0.0]])
    elo = fit_ratings(wins, games)
    assert np.isfinite(elo).all() and elo[1] > elo[0]


def test_ladder_summary_orders_styles_by_rating():
    rows = []
    strong = {("weak", "mid"): "B", ("weak", "top"): "B", ("mid", "top"): "B"}
    for (a, b), winner in strong.items():
        for pair in range(4):
            for k in range(2):
                # the stronger side wins, except one game in each cell's first pair
                w = ("A" if winner == "B" else "B") if (pair, k) == (0, 0) else winner
                rows.append({"style_a": a, "style_b": b, "army": "x", "map": "m", "pair": pair, "winner": w})
    summary = ladder_summary(pd.DataFrame(rows), ["weak", "mid", "top"], seed=0, resamples=50)
    assert summary["styles"] == ["top", "mid", "weak"]
    top = summary["ratings"][0]
    assert top["low"] <= top["rating"] <= top["high"]
    assert summary["matrix"]["top"]["weak"]["score"] == pytest.approx(7 / 8)
    assert summary["matrix"]["weak"]["top"]["score"] == pytest.approx(1 / 8)


# --- cells equal single runs with the same seed ---------------------------------------------------------


def same_games(cell: pd.DataFrame, single: pd.DataFrame) -> None:
    assert len(cell) == len(single) > 0
    for column in ("game", "pair", "winner", "vp_a", "vp_b", "first"):
        assert list(cell[column]) == list(single[column]), column


def test_ladder_cell_equals_a_separate_run(tmp_path, capsys):
    styles = ["random", DEFAULT_STYLE]
    roster = load_checked(ROSTERS)
    code = run_ladder(
        roster,
        ROSTERS,
        players=",".join(styles),
        armies=ARMY,
        maps=MAP,
        games=GAMES,
        seed=11,
        jobs=1,
        turns=TURNS,
        out=tmp_path,
        as_json=True,
        console=quiet(),
        resamples=20,
    )
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["pairs"][0]["games"] == GAMES
    ladder_games = pd.read_csv(tmp_path / "games.csv")
    single = pd.DataFrame(run_matchup(Matchup(ROSTERS, ARMY, ARMY, MAP, *styles, TURNS), GAMES, 11, jobs=1).games)
    cell = ladder_games[(ladder_games["style_a"] == styles[0]) & (ladder_games["style_b"] == styles[1])]
    same_games(cell.reset_index(drop=True), single)
    ladder_csv = pd.read_csv(tmp_path / "ladder.csv")
    assert list(ladder_csv.columns) == ["style_a", "style_b", "games", "pairs", "score", "low", "high"]
    assert (tmp_path / "ladder.html").read_text(encoding="utf-8").count("<table>") == 2


def test_cells_do_not_depend_on_the_batches():
    matchups = ladder_matchups(ROSTERS, ["random", DEFAULT_STYLE], [ARMY], [MAP], TURNS)
    small = run_cells(matchups, GAMES, 3, jobs=1, batch_size=1)
    large = run_cells(matchups, GAMES, 3, jobs=1, batch_size=5)
    assert all(small.complete) and not small.interrupted
    same_games(pd.DataFrame(small.games[0]), pd.DataFrame(large.games[0]))


def test_sweep_cell_equals_a_separate_duel(tmp_path, capsys):
    roster = load_checked(ROSTERS)
    common = {"games": GAMES, "map_name": MAP, "seed": 5, "jobs": 1, "turns": TURNS, "as_json": True}
    assert (
        run_duel(roster, ROSTERS, ARMY, OTHER, players="sweep", out=tmp_path / "sweep", console=quiet(), **common) == 0
    )
    payload = json.loads(capsys.readouterr().out)
    styles = list(STYLES)
    assert [(c["style_a"], c["style_b"]) for c in payload["cells"]] == [(a, b) for a in styles for b in styles]
    assert {"label", "favoured", "disagreeing", "rule", "comparable", "weaker", "weaker_play"} <= set(
        payload["verdict"]
    )
    weaker = set(payload["verdict"]["weaker"])
    assert all(c["comparable"] == (not {c["style_a"], c["style_b"]} & weaker) for c in payload["cells"])
    assert set(payload["range"]) == {"low", "high", "low_pairing", "high_pairing"}
    s, t = styles[-1], styles[0]
    assert (
        run_duel(roster, ROSTERS, ARMY, OTHER, players=f"{s},{t}", out=tmp_path / "duel", console=quiet(), **common)
        == 0
    )
    capsys.readouterr()
    swept = pd.read_csv(tmp_path / "sweep" / "games.csv")
    cell = swept[(swept["style_a"] == s) & (swept["style_b"] == t)].reset_index(drop=True)
    same_games(cell, pd.read_csv(tmp_path / "duel" / "games.csv"))
    sweep_csv = pd.read_csv(tmp_path / "sweep" / "sweep.csv")
    assert len(sweep_csv) == len(styles) ** 2


# --- the sweep's verdict ----------------------------------------------------------------------------------


def cell(a: str, b: str, score: float, low: float, high: float) -> dict:
    return {"style_a": a, "style_b": b, "score": score, "low": low, "high": high, "games": 100}


def test_verdict_robust_when_every_interval_is_on_one_side():
    below = [cell("x", "x", 0.30, 0.25, 0.35), cell("x", "y", 0.40, 0.33, 0.47), cell("y", "x", 0.2, 0.1, 0.3)]
    verdict = sweep_verdict(below, "army-a", "army-b", default="x")
    assert (verdict["label"], verdict["favoured"], verdict["disagreeing"]) == (ROBUST, "army-b", [])
    assert verdict["weaker"] == [] and verdict["weaker_play"] is None  # unrated styles are never "weaker"
    assert "over every pairing" in verdict["rule"]
    above = [{**c, "score": 1 - c["score"], "low": 1 - c["high"], "high": 1 - c["low"]} for c in below]
    assert sweep_verdict(above, "army-a", "army-b", default="x")["favoured"] == "army-a"
    assert score_range(below) == {"low": 0.2, "high": 0.4, "low_pairing": "y vs x", "high_pairing": "x vs y"}


def test_verdict_depends_names_the_disagreeing_pairings():
    cells = [
        cell("x", "x", 0.30, 0.25, 0.35),  # the default pairing: army-b favoured
        cell("x", "y", 0.48, 0.40, 0.56),  # contains 50%
        cell("y", "x", 0.70, 0.62, 0.78),  # the other side
        cell("y", "y", 0.35, 0.30, 0.40),  # agrees
    ]
    verdict = sweep_verdict(cells, "army-a", "army-b", default="x")
    assert (verdict["label"], verdict["favoured"]) == (DEPENDS, "army-b")
    assert verdict["disagreeing"] == ["x vs y", "y vs x"]
    # when the default pairing itself straddles 50%, no army is favoured and every unsettled pairing disagrees
    unsettled = [cell("x", "x", 0.5, 0.4, 0.6), cell("x", "y", 0.3, 0.2, 0.4)]
    verdict = sweep_verdict(unsettled, "army-a", "army-b", default="x")
    assert verdict["label"] == DEPENDS and verdict["favoured"] is None
    assert verdict["disagreeing"] == ["x vs x", "x vs y"]


RATED = {"strong": 0.0, "close": -30.0, "weak": -80.0}


def test_verdict_covers_styles_of_comparable_strength_and_shows_weaker_play_apart():
    cells = [
        cell("strong", "strong", 0.70, 0.62, 0.78),
        cell("strong", "close", 0.66, 0.58, 0.74),
        cell("close", "strong", 0.72, 0.64, 0.80),
        cell("close", "close", 0.68, 0.60, 0.76),
        cell("weak", "strong", 0.48, 0.40, 0.56),  # A played weakly: not a different plan, weaker play
        cell("strong", "weak", 0.93, 0.88, 0.98),
    ]
    verdict = sweep_verdict(cells, "army-a", "army-b", default="strong", ratings=RATED, distance=50)
    assert (verdict["label"], verdict["favoured"], verdict["disagreeing"]) == (ROBUST, "army-a", [])
    assert verdict["comparable"] == ["strong", "close"] and verdict["weaker"] == ["weak"]
    assert verdict["rule"] == "over the 4 pairings of styles within 50 Elo of strong (strong, close)"
    assert verdict["range"]["low"] == 0.66 and verdict["range"]["high"] == 0.72
    weaker = verdict["weaker_play"]
    assert weaker["pairings"] == 2 and weaker["other_side"] == ["weak vs strong"]
    assert (weaker["range"]["low"], weaker["range"]["high"]) == (0.48, 0.93)
    # over every pairing the same cells would depend on play style
    assert sweep_verdict(cells, "army-a", "army-b", default="strong", ratings={})["label"] == DEPENDS
    # a wider distance takes the weak style in
    wide = sweep_verdict(cells, "army-a", "army-b", default="strong", ratings=RATED, distance=100)
    assert wide["label"] == DEPENDS and wide["weaker_play"] is None and wide["disagreeing"] == ["weak vs strong"]


def test_verdict_without_a_comparable_pairing_falls_back_to_every_pairing():
    cells = [cell("weak", "strong", 0.30, 0.2, 0.4), cell("strong", "weak", 0.35, 0.3, 0.4)]
    verdict = sweep_verdict(cells, "army-a", "army-b", default="strong", ratings=RATED, distance=50)
    assert verdict["label"] == ROBUST and verdict["favoured"] == "army-b"
    assert verdict["rule"].startswith("over every pairing") and verdict["weaker_play"] is None


def test_weaker_styles_and_the_shipped_ratings():
    assert weaker_styles(["strong", "close", "weak", "new"], "strong", RATED, 50) == ["weak"]
    assert weaker_styles(["strong", "weak"], "unrated", RATED, 50) == []
    # every heuristic style has a measured rating, relative to the default, which tops them
    assert set(STYLE_RATINGS) == set(STYLES) and STYLE_RATINGS[DEFAULT_STYLE] == 0
    assert max(STYLE_RATINGS.values()) == STYLE_RATINGS[DEFAULT_STYLE] and COMPARABLE_ELO > 0


def test_sweep_lines_name_the_rule_and_the_weaker_play():
    cells = [
        cell("strong", "strong", 0.70, 0.62, 0.78),
        cell("strong", "weak", 0.93, 0.88, 0.98),
        cell("weak", "strong", 0.48, 0.40, 0.56),
        cell("weak", "weak", 0.71, 0.60, 0.80),
    ]
    verdict = sweep_verdict(cells, "army-a", "army-b", default="strong", ratings=RATED, distance=50)
    settings = {
        "army_a": "army-a",
        "army_b": "army-b",
        "map": "graveyard",
        "styles": ["strong", "weak"],
        "default_style": "strong",
        "style_ratings": {"strong": 0.0, "weak": -80.0},
        "ratings_source": "a test ladder",
        "games_per_pairing": 100,
        "seed": 0,
        "turns": 15,
        "interrupted": False,
    }
    text = "\n".join(sweep_lines(cells, {"range": score_range(cells), "verdict": verdict}, settings))
    assert "verdict: robust over the 1 pairing of styles within 50 Elo of strong (strong)" in text
    assert "against weaker play (weak, 3 pairings, not in the verdict)" in text
    assert "not favouring army-a: weak vs strong" in text
    assert "weak*" in text and "weak -80" in text and "ratings: a test ladder" in text


# --- the CLI --------------------------------------------------------------------------------------------


def clix(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_ladder_cli_writes_its_outputs_and_rejects_an_unknown_style(tmp_path):
    common = ["--armies", ARMY, "--maps", MAP, "--games", "2", "--turns", "4", "--jobs", "1"]
    common += ["--rosters", str(ROSTERS), "--out", str(tmp_path / "ladder")]
    done = clix("ladder", "--players", f"random,{DEFAULT_STYLE}", *common, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "rating" in done.stdout and DEFAULT_STYLE in done.stdout
    assert all(len(line) <= 100 for line in done.stdout.splitlines() if not line.startswith("wrote "))
    ladder_csv = pd.read_csv(tmp_path / "ladder" / "ladder.csv")
    assert len(ladder_csv) == 1 and ladder_csv["games"].tolist() == [2]
    bad = clix("ladder", "--players", f"random,{DEFAULT_STYLE}x", *common, cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and bad.stderr.startswith("clix: error: --players")
    assert "Traceback" not in bad.stderr
