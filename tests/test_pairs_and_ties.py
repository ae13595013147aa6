"""Seat-swapped pairs carry information (issue 13) and the tie-break can be turned into a draw (HC-END-09)."""

from __future__ import annotations

from pathlib import Path

from clix.analyzer.play.runner import Matchup, game_rows, game_seed_path, play_one, play_state, run_matchup
from clix.engine.horrorclix import rules
from clix.engine.horrorclix.matchups import roster_at
from clix.engine.horrorclix.scenario import Scenario, build_state

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "rosters" / "horrorclix"


def _log_of(matchup: Matchup, index: int) -> list[str]:
    """The event log of game `index` of a run with master seed 5."""
    state, _ = play_state(matchup, 5, index)
    return [str(event) for event in state.log]


def test_mirror_pairs_are_two_different_games() -> None:
    """Same army and style on both sides: the seat swap alone would replay the pair's first game with the
    labels swapped, so the second game has a seed of its own and differs."""
    mirror = Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", "tuned", "tuned", turn_limit=6)
    for pair in range(4):
        assert game_seed_path(mirror, 2 * pair) == (pair,)
        assert game_seed_path(mirror, 2 * pair + 1) == (pair, 1)
        assert _log_of(mirror, 2 * pair) != _log_of(mirror, 2 * pair + 1)
    rows = run_matchup(mirror, 8, 5, jobs=1).games
    assert [row["seed_path"] for row in rows] == ["0", "0:1", "1", "1:1", "2", "2:1", "3", "3:1"]


def test_pairs_that_differ_share_the_seed() -> None:
    """Different armies (or styles): both games of a pair use the pair's seed, seats swapped."""
    duel = Matchup(LIBRARY, "butcher-shop", "firing-line", "graveyard", turn_limit=6)
    mixed = Matchup(LIBRARY, "butcher-shop", "butcher-shop", "graveyard", "tuned", "hunter", turn_limit=6)
    for matchup in (duel, mixed):
        assert [game_seed_path(matchup, i) for i in range(4)] == [(0,), (0,), (1,), (1,)]
    row, _ = play_one(duel, 5, 1)
    assert row["seed_path"] == "0" and row["seat_a"] == 2


def _tied_state(tie_break: bool):  # type: ignore[no-untyped-def]
    scenario = Scenario.model_validate(
        {
            "name": "tie",
            "expect": {},
            "monsters": [
                {"id": "A", "player": 1, "dial": ["6 9 16 2", "x"], "at": [0, 0], "points": 60},
                {"id": "B", "player": 2, "dial": ["6 9 16 2", "x"], "at": [11, 11], "points": 40},
            ],
        }
    )
    state, _, _ = build_state(scenario, roster_at(LIBRARY))
    state.tie_break = tie_break
    for player, points in ((1, 60), (2, 40)):
        state.player(player).army_points = points
        state.vp[player]["victims"] = 10
    return state


def test_equal_vp_goes_to_the_cheaper_army_or_is_a_draw() -> None:
    """HC-END-09: equal VP, the cheaper army wins; with ties played as draws, nobody wins."""
    with_break = _tied_state(True)
    rules.finish(with_break, "turn limit")
    assert with_break.winner == 2
    as_draw = _tied_state(False)
    rules.finish(as_draw, "turn limit")
    assert as_draw.winner is None


def test_game_rows_mark_the_games_the_tie_break_decided() -> None:
    """`tie_break` marks a game decided by HC-END-09 (equal VP, a winner); with ties played as draws the
    same game is a draw and not marked."""
    matchup = Matchup(LIBRARY, "butcher-shop", "firing-line", "graveyard")
    for tie_break, winner, marked in ((True, "B", True), (False, "draw", False)):
        state = _tied_state(tie_break)
        rules.finish(state, "turn limit")
        row, _ = game_rows(state, matchup, 0, 0, False)
        assert (row["winner"], row["tie_break"]) == (winner, marked)
