"""The Horrified team player's self-play tuning (issue 40, docs/tuning.md): the default weights play the very games of
the style `team`, candidates play the same games (paired), the paired gain's interval, the dev-then-fresh race."""

from __future__ import annotations

import numpy as np
import pytest
from clix.engine.core.ruleset import ruleset_named
from clix.engine.horrified import tuning
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.players import DEFAULT_WEIGHTS, HAND_SET, TeamWeights


def test_the_default_weights_play_the_games_of_the_team_style():
    """Game k of a line-up from the same seed: won or lost alike by `play_one` and `clix horrified`'s `team`."""
    kit = ruleset_named("horrified").matchups()
    lineup = tuning.LINEUPS[0]
    seeds = np.random.SeedSequence(9501).spawn(12)
    ours = [tuning.play_one(DEFAULT_WEIGHTS, lineup, s) for s in seeds]
    theirs = [kit.play_game(components_at(), *lineup, "team", s)["won"] for s in seeds]
    assert ours == theirs and 0 < sum(ours) < 12


def test_a_candidate_is_the_start_with_its_changes():
    assert tuning.weights_of({}) == TeamWeights() == DEFAULT_WEIGHTS
    assert tuning.weights_of({"share": 45.0}) == TeamWeights(share=45.0)
    assert tuning.weights_of({"leap": 70.0}, HAND_SET) == TeamWeights(leap=70.0, carry=1.0, escort=0.0)


def test_the_defaults_are_the_hand_set_weights_with_the_race_s_winner():
    """The recorded race (docs/tuning.md) started from the hand-set weights; its winner changed leap, carry, escort."""
    changed = {f for f in TeamWeights.__dataclass_fields__ if getattr(HAND_SET, f) != getattr(DEFAULT_WEIGHTS, f)}
    assert changed == {"leap", "carry", "escort"}
    assert tuning.weights_of({"leap": 70.0, "carry": 0.0, "escort": 5.0}, HAND_SET) == DEFAULT_WEIGHTS
    assert all(set(changes) <= set(TeamWeights.__dataclass_fields__) for changes in tuning.CANDIDATES.values())


def test_the_paired_gain_and_its_interval():
    """Game-by-game differences: their mean, and mean +- 1.96 standard errors."""
    new, old = np.array([1, 1, 0, 0, 1.0]), np.array([0, 1, 0, 0, 0.0])
    gain, low, high = tuning.paired_gain(new, old)
    half = 1.959964 * np.std([1, 0, 0, 0, 1], ddof=1) / np.sqrt(5)
    assert gain == pytest.approx(0.4) and (low, high) == pytest.approx((0.4 - half, 0.4 + half))
    assert tuning.paired_gain(old, old) == (0.0, 0.0, 0.0)


def test_the_best_changes_together_one_per_weight():
    candidates = {"a": {"share": 1.0}, "b": {"share": 2.0, "carry": 3.0}, "c": {"guide": 4.0}, "d": {"leap": 5.0}}
    gains = {"a": 0.03, "b": 0.02, "c": -0.01, "d": 0.01}
    assert tuning.combined(candidates, gains) == {"share": 1.0, "carry": 3.0, "leap": 5.0}


def test_the_race_chooses_on_dev_seeds_and_confirms_on_fresh_ones(monkeypatch, capsys):
    """A small race (two candidates, one line-up): it names the dev winner and, if not the defaults, the paired
    gain on the fresh seeds with its verdict."""
    monkeypatch.setattr(tuning, "LINEUPS", tuning.LINEUPS[:1])
    monkeypatch.setattr(tuning, "CANDIDATES", {"start": {}, "share late": {"share": 45.0}})
    tuning.main(["--games", "6", "--confirm", "6", "--dev", "1", "--fresh", "2"])
    out = capsys.readouterr().out
    assert "dev winner:" in out
    assert ("keep them" in out) or ("paired gain" in out and ("adopt it" in out or "keep the starting weights" in out))
