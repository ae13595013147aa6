"""The parts of `clix value` and `clix build` that do not depend on how the engine plays: the value model on
simulated outcomes, the design's pairings, the legal space of builds, field files, the store's keys and the
commands' one-line errors."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from clix.analyzer.build.candidates import Constraints, enumerate_builds
from clix.analyzer.build.field import read_field_json, resolve_field
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import load_library
from clix.analyzer.play.experiment import given_matchup, matchup_key
from clix.analyzer.play.runner import Matchup
from clix.analyzer.play.store import game_key
from clix.analyzer.value.design import pairings
from clix.analyzer.value.model import Features, GameTable, fit_values, predict_scores
from clix.engine.horrorclix.legality import army_problems
from clix.engine.horrorclix.roster.models import Army, ArmyEntry
from helpers import run_main
from value_library import ARMY, planted_library


def test_the_value_model_recovers_known_figure_values_from_simulated_games() -> None:
    rng = np.random.default_rng(7)
    costs = np.array([20.0, 30.0, 40.0, 40.0, 50.0])
    truth = np.array([20.0, 30.0, 40.0, 70.0, 50.0])  # the fourth figure is under-costed by 30 points
    lam = 0.03  # logits per point
    armies = 150
    counts = rng.integers(0, 3, size=(armies, len(costs))).astype(float)
    crypts = np.zeros((armies, 0))
    features = Features([f"a{i}" for i in range(armies)], [f"f{i}" for i in range(5)], [], costs, counts, crypts)
    a = rng.integers(0, armies, 6000)
    b = (a + rng.integers(1, armies, 6000)) % armies
    strength = lam * counts @ truth
    p = 1 / (1 + np.exp(-(strength[a] - strength[b])))
    score = (rng.random(6000) < p).astype(float)
    table = GameTable(a, b, np.ones(6000), score, np.arange(6000) // 2, np.full(6000, "tuned"))
    fit = fit_values(features, table, resamples=60, seed=1)
    # calibrated: the fielded points are worth as many points, so the truth is scaled the same way
    used = counts.sum(axis=0)
    scale = np.sum(used * truth) / np.sum(used * costs)
    assert fit.figure_values == pytest.approx(truth / scale, abs=5.0)
    low, high = np.nanpercentile(fit.figure_draws, [2.5, 97.5], axis=0)
    assert np.all(high - low < 15) and np.all(low < fit.figure_values) and np.all(fit.figure_values < high)
    residual_low = np.nanpercentile(fit.figure_draws - costs, 2.5, axis=0)
    assert residual_low[3] > 0  # the under-costed figure is found
    assert fit.lam == pytest.approx(lam * scale, rel=0.25)


def test_pairings_give_every_army_its_opponents_and_no_pair_twice() -> None:
    pairs = pairings(11, 4, seed=3)
    met = {i: 0 for i in range(11)}
    for i, j in pairs:
        assert i != j
        met[i] += 1
        met[j] += 1
    assert set(met.values()) == {4}
    assert len({frozenset(p) for p in pairs}) == len(pairs) == 22
    assert pairings(11, 4, seed=3) == pairs
    with pytest.raises(ClixError, match="--armies 4"):
        pairings(4, 4, seed=0)


def test_the_legal_space_is_every_maximal_legal_build(tmp_path: Path) -> None:
    roster = load_library([planted_library(tmp_path / "lib")], everything=True).roster
    found = enumerate_builds(roster, Constraints(100))
    assert found is not None
    figures = sorted(roster.figures)
    brute = set()
    for n in range(1, 5):
        for combo in itertools.combinations_with_replacement(figures, n):
            cost = sum(roster.figures[f].points for f in combo)
            fits = any(cost + roster.figures[f].points <= 100 for f in figures)
            if cost <= 100 and not fits:
                brute.add(tuple(sorted(combo)))
    assert set(found) == brute and len(found) == 6
    for build in found:
        army = Army(name="x", figures=[ArmyEntry(figure=f) for f in build], **ARMY)
        assert army_problems(army, roster) == []
    assert enumerate_builds(roster, Constraints(100, include=("champion", "champion"))) == [("champion", "champion")]
    assert enumerate_builds(roster, Constraints(100), limit=3) is None


def test_a_weighted_field_file_is_read_and_normalized(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text("x")
    path = tmp_path / "field.json"
    path.write_text(
        json.dumps(
            {
                "source": "clix meta",
                "budget": 100,
                "field": [
                    {"army": "a", "weight": 3},
                    {"army": "mine.yaml", "weight": 1.0},
                    {"army": "b", "weight": 0},
                    {"army": "a", "weight": 1},
                ],
            }
        )
    )
    entries, source = read_field_json(path)
    assert [e.army for e in entries] == ["a", str(tmp_path / "mine.yaml"), "a"]
    assert "clix meta" in source
    field = resolve_field(entries, lambda name: Path(name).stem)
    assert field == [("a", pytest.approx(0.8)), ("mine", pytest.approx(0.2))]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("{", "not valid JSON"),
        ('{"field": []}', "non-empty list 'field'"),
        ('{"field": [{"weight": 1}]}', "field.0.army"),
        ('{"field": [{"army": "a", "weight": -1}]}', "field.0.weight"),
        ('{"field": [{"army": "a", "weight": "heavy"}]}', "field.0.weight"),
        ('{"field": [{"army": "a", "weight": 0}]}', "every weight is 0"),
    ],
)
def test_a_broken_field_file_is_one_line(tmp_path: Path, document: str, message: str) -> None:
    path = tmp_path / "field.json"
    path.write_text(document)
    with pytest.raises(ClixError, match=message) as caught:
        read_field_json(path)
    assert "\n" not in str(caught.value)


def test_the_key_of_a_matchup_is_the_duels_key_whether_its_armies_are_given_or_in_the_library() -> None:
    loaded = load_library(None, everything=True)
    roster = loaded.roster
    library = Matchup(loaded.layers, "butcher-shop", "firing-line", "graveyard")
    assert matchup_key(roster, library, 5) == game_key(roster, library, 5)
    army = roster.armies["butcher-shop"]
    given = given_matchup(
        loaded.layers, ("butcher-shop", "firing-line"), {"butcher-shop": army}, "graveyard", ("tuned", "tuned"), 15
    )
    assert matchup_key(roster, given, 5) == game_key(roster, library, 5)
    other = army.model_copy(update={"crypt": [*army.crypt[:-1], "Cold Spot"]})
    changed = given_matchup(
        loaded.layers, ("butcher-shop", "firing-line"), {"butcher-shop": other}, "graveyard", ("tuned", "tuned"), 15
    )
    assert matchup_key(roster, changed, 5) != game_key(roster, library, 5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["value", "--budget", "150"], "--budget takes a build total of 100, 200"),
        (["value", "--swap", "crypt-rat-swarm-r"], "--swap FIGURE and --in ARMY go together"),
        (["value", "--swap", "crypt-rat-swarm-r", "--in", "butcher-shop"], "butcher-shop does not field it"),
        (["value", "--armies", "2"], "--armies takes 3 or more"),
        (["value", "--pool", "no-such-figure"], "--pool: "),
        (["value", "--players", "tuned,sleepy"], "--players: "),
        (["value", "--predict", "butcher-shop", "no-such-army"], "no-such-army"),
        (["value", "--predict", "butcher-shop", "firing-line", "--holdout", "0"], "--predict takes its model error"),
        (["build", "--field", "missing.json"], "--field missing.json: no such file"),
        (["build", "--include", "crypt-rat-swarm"], "did you mean"),
        (["build", "--include", "gravemaw-u"], "over --budget 100"),
        (["build", "--budget", "300"], "has no army of 300 points"),
        (["build", "--cabal", "Nobody"], "--cabal: "),
        (["build", "--crypt", "Trip,Tirp"], "--crypt: "),
        (["build", "--eta", "1"], "--eta takes 2 to 10 (got 1)"),
        (["build", "--values", "nowhere.json"], "--values nowhere.json: no such file"),
    ],
)
def test_mistakes_are_one_line_errors(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, stderr = run_main([*args, "--out", str(tmp_path / "out"), "--store", str(tmp_path / "s.duckdb")], capsys)
    assert code == 2
    assert stderr.startswith("clix: error: ") and message in stderr
    assert stderr.count("\n") == 1


def test_value_estimates_guide_half_of_the_candidates(tmp_path: Path) -> None:
    from clix.analyzer.build.candidates import candidate_builds, choose_crypt, read_values

    roster = load_library([planted_library(tmp_path / "lib")], everything=True).roster
    path = tmp_path / "value.json"
    rows = [
        {"kind": "figure", "name": "champion", "value": 120.0},
        {"kind": "figure", "name": "dud", "value": 5.0},
        {"kind": "figure", "name": "rat", "value": 20.0},
        {"kind": "figure", "name": "gravemaw", "value": None},
        {"kind": "plot twist", "name": "Cold Spot", "value": 9.0},
        {"kind": "plot twist", "name": "Trip", "value": -3.0},
    ]
    path.write_text(json.dumps({"settings": {}, "values": rows}))
    values = read_values(path)
    assert values["figures"] == {"champion": 120.0, "dud": 5.0, "rat": 20.0}
    builds, space = candidate_builds(roster, Constraints(100), 4, seed=0, values=values["figures"])
    assert space == 6 and len(builds) == 4
    # the two builds of highest predicted value are always raced
    assert {("champion", "champion"), ("champion", "rat", "rat")} <= set(builds)
    crypt = choose_crypt(roster, [("dud-rats", 1.0)], values["cards"])
    assert crypt[:2] == ["Cold Spot", "Trip"]
    path.write_text("[]")
    with pytest.raises(ClixError, match=r"not a value\.json"):
        read_values(path)


def test_the_design_draws_near_full_legal_armies_and_a_holdout_of_its_own() -> None:
    from clix.analyzer.value.design import Design, design_games, handicap_armies, random_armies

    roster = load_library([Path(__file__).resolve().parent.parent / "rosters" / "horrorclix"], everything=True).roster
    design = Design(budget=100, armies=40, opponents=4, games=2, seed=5, holdout=6, holdout_games=4)
    armies = random_armies(roster, design)
    extra = random_armies(roster, design, holdout=True)
    assert len(armies) == 40 and list(extra) == [f"holdout-0{i}" for i in range(1, 7)]
    for army in [*armies.values(), *extra.values()]:
        assert army_problems(army, roster) == []
        spent = sum(roster.figures[e.figure].points for e in army.figures)
        fielded = {e.figure for e in army.figures}
        # nothing more fits: every figure it could still take costs more than is left
        assert all(
            f.points > 100 - spent
            for f in roster.figures.values()
            if f.rank != "demo" and not (f.unique and f.id in fielded)
        )
    # the holdout is drawn from its own seed stream: no army of the design again
    assert not {a.model_dump_json(exclude={"name", "provenance"}) for a in extra.values()} & {
        a.model_dump_json(exclude={"name", "provenance"}) for a in armies.values()
    }
    short = handicap_armies(roster, armies, design)
    for name, army in short.items():
        whole = armies[name.removesuffix("-less")]
        assert len(army.figures) == len(whole.figures) - 1 and army_problems(army, roster) == []
    assert design_games(roster, design) == 2 * (40 * 2 + len(short)) + 4 * 6
    assert random_armies(roster, design) == armies


def _simulated(seed: int, armies: int = 120, games: int = 4000) -> tuple[Features, GameTable, np.ndarray]:
    rng = np.random.default_rng(seed)
    costs = np.array([20.0, 30.0, 40.0, 40.0, 50.0])
    truth = np.array([20.0, 30.0, 40.0, 80.0, 50.0]) * 0.03  # logits; the fourth figure is under-costed
    counts = rng.integers(0, 3, size=(armies, len(costs))).astype(float)
    features = Features(
        [f"a{i}" for i in range(armies)], [f"f{i}" for i in range(5)], [], costs, counts, np.zeros((armies, 0))
    )
    a = rng.integers(0, armies, games)
    b = (a + rng.integers(1, armies, games)) % armies
    strength = counts @ truth
    score = (rng.random(games) < 1 / (1 + np.exp(-(strength[a] - strength[b])))).astype(float)
    table = GameTable(a, b, np.ones(games), score, np.arange(games) // 2, np.full(games, "tuned"))
    return features, table, strength


def test_the_halves_split_the_pairs_and_count_the_verdicts_that_contradict() -> None:
    from clix.analyzer.value.model import half_verdicts, split_halves

    features, table, _ = _simulated(3)
    one, two = split_halves(table, seed=1)
    assert len(one.score) + len(two.score) == len(table.score)
    assert abs(int(one.unit.max()) - int(two.unit.max())) <= 1  # half the pairs each, renumbered
    pairs_one = {(int(x), int(y)) for x, y in zip(one.a[::2], one.b[::2], strict=True)}
    pairs_two = {(int(x), int(y)) for x, y in zip(two.a[::2], two.b[::2], strict=True)}
    assert len(pairs_one) + len(pairs_two) >= len(pairs_one | pairs_two)
    stability = half_verdicts(features, table, resamples=30, seed=1)
    assert stability.compared == 5 and 0 <= stability.differ <= 5
    assert all(h is not None and h["f3"] == "under-costed" for h in stability.halves)  # 40 points under-costed


@pytest.mark.parametrize(
    ("one", "two", "contradict"),
    [
        ("under-costed", "under-costed", False),
        ("under-costed", "leans under-costed", False),  # the evidence differs, not the answer
        ("leans over-costed", "fair (within the data)", False),  # neither is a finding
        ("under-costed", "fair (within the data)", True),
        ("fair (within the data)", "over-costed", True),
        ("leans under-costed", "leans over-costed", True),  # opposite ways
        ("better than the average card", "not told from the average card", True),
        ("worse than the average card", "leans worse than the average card", False),
    ],
)
def test_two_verdicts_contradict_when_a_finding_is_not_leaned_to_or_they_point_opposite_ways(
    one: str, two: str, contradict: bool
) -> None:
    from clix.analyzer.value.model import contradicts

    assert contradicts(one, two) is contradict
    assert contradicts(two, one) is contradict


def test_a_finding_needs_three_standard_errors_and_the_95_interval_alone_only_leans() -> None:
    from clix.analyzer.value.model import STRONG, Z95, card_verdict, verdict

    sd = 2.0  # a 95% interval of ±1.96 sd
    assert verdict(STRONG * sd - Z95 * sd, STRONG * sd + Z95 * sd, STRONG * sd) == "under-costed"
    assert verdict(2.5 * sd - Z95 * sd, 2.5 * sd + Z95 * sd, 2.5 * sd) == "leans under-costed"
    assert verdict(-1.0, 3.0, 1.0) == "fair (within the data)"
    assert verdict(-4 * sd - Z95 * sd, -4 * sd + Z95 * sd, -4 * sd) == "over-costed"
    assert card_verdict(-2.5 * sd - Z95 * sd, -2.5 * sd + Z95 * sd, -2.5 * sd) == "leans worse than the average card"
    assert card_verdict(-1.0, 1.0, 0.0) == "not told from the average card"


def test_the_bootstrap_draws_an_army_with_its_variants_and_weighs_a_game_by_both_armies_draws() -> None:
    """An army and its variant a figure short form one group; a bootstrap over armies (not pairs) moves the
    values as another draw of armies would."""
    from clix.analyzer.value.model import army_features, game_weights

    roster = load_library([Path(__file__).resolve().parent.parent / "rosters" / "horrorclix"], everything=True).roster
    names = sorted(roster.armies)[:3]
    armies = {name: roster.armies[name] for name in names} | {f"{names[0]}-less": roster.armies[names[0]]}
    features = army_features(roster, armies, {f"{names[0]}-less": names[0]})
    assert features.groups is not None and features.groups.tolist() == [0, 1, 2, 0]
    picked = np.array([2.0, 0.0, 3.0])
    first, second = np.array([0, 0, 1, 2]), np.array([0, 2, 2, 2])
    assert game_weights(picked, first, second).tolist() == [2.0, 6.0, 0.0, 3.0]


def test_predicted_scores_follow_the_model_link_and_carry_a_bootstrap_interval() -> None:
    from clix.analyzer.value.model import pair_score

    features, table, strength = _simulated(4)
    fit = fit_values(features, table, resamples=40, seed=2)
    roster = load_library([Path(__file__).resolve().parent.parent / "rosters" / "horrorclix"], everything=True).roster
    figures = sorted(roster.figures)[:5]  # stand-ins named as the fit's figures
    features.figures[:] = figures
    army = [
        Army.model_validate(
            {
                **ARMY,
                "name": f"x{i}",
                "figures": [figures[j] for j in range(5) for _ in range(int(features.counts[i, j]))] or [figures[0]],
            }
        )
        for i in range(6)
    ]
    pairs = [(army[0], army[1]), (army[2], army[3]), (army[4], army[5])]
    found = predict_scores(roster, fit, pairs)
    truth = pair_score(np.array([strength[0] - strength[1], strength[2] - strength[3], strength[4] - strength[5]]), 0.0)
    assert np.all(found["low"] <= found["score"]) and np.all(found["score"] <= found["high"])
    assert np.all(found["high"] - found["low"] > 0)
    assert found["score"] == pytest.approx(truth, abs=0.08)
    assert np.all((found["cost"] > 0) & (found["cost"] < 1))


def test_the_model_error_is_what_the_misses_hold_beyond_noise_and_the_fit() -> None:
    """`model_error` recovers an error the model makes on purpose (sd 0.08 on top of measurement noise of sd
    0.04), gives 0 when noise explains the misses, and a prediction interval nests the bootstrap and widens by it."""
    from clix.analyzer.value.model import model_error, prediction_interval

    rng = np.random.default_rng(5)
    predicted = rng.uniform(0.3, 0.7, 4000)
    se = np.full(4000, 0.04)
    spread = np.full(4000, 0.02)
    truth = predicted + rng.normal(0, 0.08, 4000) + rng.normal(0, 0.02, 4000)
    measured = truth + rng.normal(0, 0.04, 4000)
    assert model_error(predicted, measured, se, spread) == pytest.approx(0.08, abs=0.005)
    noisy = predicted + rng.normal(0, 0.04, 4000)
    assert model_error(predicted, noisy, se, spread) < 0.01
    assert np.isnan(model_error(np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0)))
    low, high = prediction_interval(0.6, 0.5, 0.65, 0.08, 0.04)
    assert low < 0.5 and high > 0.65 and (0.6 - low) > (high - 0.6)  # the bootstrap's skew kept
    assert prediction_interval(0.6, 0.5, 0.65, float("nan")) == (0.5, 0.65)
    assert prediction_interval(0.97, 0.9, 0.99, 0.1)[1] == 1.0
    covered = [prediction_interval(p, p - 1.96 * 0.02, p + 1.96 * 0.02, 0.08, 0.04) for p in predicted[:1000]]
    inside = np.mean([lo <= m <= hi for (lo, hi), m in zip(covered, measured[:1000], strict=True)])
    assert 0.93 <= inside <= 0.97
