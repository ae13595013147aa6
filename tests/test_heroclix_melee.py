"""HeroClix at a table of three or four (issue 39): the sample maps' four starting areas, setup of N forces and of
two teams, the end and victory rules with several opponents (scenarios end/14-18, mutation-tested), the heuristic
that adds each opposing player's threat, and `clix melee` / `clix meta --pods` playing HeroClix forces."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.melee.command import build_melee
from clix.analyzer.melee.design import play_row
from clix.analyzer.melee.keep import melee_key
from clix.engine.core.driver import play, settle
from clix.engine.core.players.base import Decision
from clix.engine.heroclix import rules, scoring, sides
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.matchups import MATCHUPS, library_at
from clix.engine.heroclix.players.heuristic import STYLES, HeuristicAgent
from clix.engine.heroclix.players.search import Evaluation, evaluate
from clix.engine.heroclix.scenario import build_state
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.setup import new_game, table_areas
from clix.engine.heroclix.state import Close
from helpers import run_main
from heroclix_checks import fails_when_changed, mutation_rows

SAMPLE = (Path(__file__).resolve().parent.parent / "rosters" / "heroclix",)
HUNDREDS = ["dawn-patrol", "harbor-watch", "night-shift", "syndicate-squad"]
"""The sample's 100-point forces."""


def _old_round_limit(state, following: int) -> bool:
    """The limit as turns of every seat, eliminated or not (turn > limit x players): wrong at a table of three."""
    return state.turn_limit is not None and state.turn > state.turn_limit * len(state.players)


MUTANTS = [
    # sides ignored (every player for itself): allies' VP no longer added, so player 2 alone wins
    ("HX-END-04", scoring, "team", lambda state, player: player, "end/15-teams-allies-vp-added-together"),
    # sides ignored: the opposing side gone, two players of one side left, yet the game goes on
    ("HX-END-01 sides", scoring, "team", lambda state, player: player, "end/16-teams-last-opposing-character"),
    # sides ignored: a teammate counts as an opponent and may be attacked
    ("HX-CHAR-11", sides, "team", lambda state, player: player, "end/17-teams-no-attack-on-a-teammate"),
    ("HX-END-14", rules, "out_of_rounds", _old_round_limit, "end/18-three-players-round-limit-counts-players-left"),
    # the first condition of HX-END-01 read literally: the game ends as soon as one player has no character left
    ("HX-END-01", scoring, "one_side_left",
     lambda state: any(not any(c.owner == p.number for c in state.standing()) for p in state.players),
     "end/14-three-players-eliminated-player-skipped"),
]  # fmt: skip
"""(rule, module, name, wrong value or function, the scenario that must then fail)."""


@pytest.mark.parametrize(("rule", "module", "name", "value", "scenario"), mutation_rows(MUTANTS))
def test_a_changed_multiplayer_rule_fails_its_scenario(rule, module, name, value, scenario, monkeypatch):
    fails_when_changed(rule, module, name, value, scenario, monkeypatch)


@pytest.mark.parametrize("map_name", ["chemical-plant", "harbor-district"])
def test_the_sample_maps_have_four_areas_and_a_duel_keeps_areas_1_and_2(map_name: str) -> None:
    """HX-SETUP-03 OPEN: a game of N players chooses among areas 1..N, so a duel on a four-area map is as before."""
    layout = library_at(SAMPLE).maps[map_name]
    assert sorted(layout.starting_areas()) == [1, 2, 3, 4]
    assert all(len(squares) >= 8 for squares in layout.starting_areas().values())
    assert table_areas(layout, 2) == [1, 2] and table_areas(layout, 3) == [1, 2, 3]
    assert table_areas(layout, 4) == [1, 2, 3, 4]


@pytest.mark.parametrize(("map_name", "size"), [("chemical-plant", 3), ("harbor-district", 4)])
def test_n_forces_are_seated_each_in_its_own_area_and_play_to_the_end(map_name: str, size: int) -> None:
    """HX-SETUP-03, -08: each force in an area of its own, 1..N; HX-TURN-01: play passes among them; HX-END-01,
    -14: the game ends at the round limit or with one force left."""
    library = library_at(SAMPLE)
    forces = [library.forces[n] for n in HUNDREDS[:size]]
    state = new_game(library, forces, library.maps[map_name], np.random.default_rng(5), turn_limit=3)
    agents = [MATCHUPS.player_factory("tuned")(np.random.default_rng(k)) for k in range(size)]
    settle(state, agents)
    areas = dict(next(e.get("areas") for e in state.log if e.kind == EventKind.SETUP_DONE))
    assert sorted(areas.values()) == list(range(1, size + 1))
    for figure in state.monsters:
        xy = state.geometry.xy(figure.pos)
        assert list(xy) in [list(s) for s in library.maps[map_name].starting_areas()[areas[figure.owner]]]
    play(state, agents)
    assert state.over
    left = {c.owner for c in state.standing()}
    assert state.end_reason == "turn limit" or len(left) <= 1
    assert all(state.turns_taken.get(p, 0) <= 3 for p in range(1, size + 1))


def test_a_team_game_never_attacks_a_teammate_and_a_side_wins() -> None:
    """HX-CHAR-11: teammates are friendly, so no attack of the heuristic hits one; HX-END-04: the winner is a side
    whose allies' VP, added together, are the most."""
    library = library_at(SAMPLE)
    teams = [2, 1, 2, 1]  # seat 1 on side 2: a side number is not a seat
    for seed in range(2):
        state, agents = MATCHUPS.start(
            library, HUNDREDS, {}, "chemical-plant", [MATCHUPS.player_factory("tuned")] * 4, seed, 8, True,
            teams=teams,
        )  # fmt: skip
        play(state, agents)
        owner = {c.label: c.owner for c in state.monsters}
        hits = [(owner[e.get("attacker")], owner[h]) for e in state.log if e.kind == EventKind.ATTACK for h in
                e.get("hit")]  # fmt: skip
        assert hits and all(teams[a - 1] != teams[b - 1] for a, b in hits)
        totals = {t: sum(state.points.get(p, 0.0) for p in (1, 2, 3, 4) if teams[p - 1] == t) for t in (1, 2)}
        if state.winner is not None and totals[1] != totals[2]:
            assert state.winner == max(totals, key=lambda t: totals[t])
        if state.winner is not None:  # the search player scores the won game for each player of the side
            for player in (1, 2, 3, 4):
                won = teams[player - 1] == state.winner
                assert (evaluate(state, player, Evaluation()) > 0) == won


def _last_round(third: int) -> tuple[object, list[object]]:
    """The last round of five: player 1's Hero (60 VP scored) next to P1, a second opponent P2 three squares off;
    with `third` = 2 both belong to one opponent (a duel: 60 VP), with 3 to two (30 VP each)."""
    players = 3 if third == 3 else 2
    scenario = Scenario.model_validate(
        {
            "ruleset": "heroclix-2005", "name": "the last round", "turn": 4 * players + 1, "turn_limit": 5,
            "map": {"kind": "outdoor", "rows": ["." * 12] * 12}, "expect": {},
            "characters": [
                {"id": "Hero", "player": 1, "dial": ["8 9 17 2", "8 9 16 2", "7 9 16 2", "x"], "points": 50,
                 "at": [5, 6]},
                {"id": "P1", "player": 2, "dial": ["8 9 16 2", "8 9 16 2", "7 8 15 2", "x"], "points": 50,
                 "at": [6, 6]},
                {"id": "P2", "player": third, "dial": ["8 9 16 2", "8 9 16 2", "7 8 15 2", "x"], "points": 50,
                 "at": [9, 9]},
            ],
        }
    )  # fmt: skip
    state, _ = build_state(scenario)
    state.points = {1: 60.0, 2: 30.0, 3: 30.0} if third == 3 else {1: 60.0, 2: 60.0}
    options = rules.legal_actions(state)
    decision = Decision("action", 1, options)
    return state, [options[HeuristicAgent(np.random.default_rng(s), STYLES["tuned"], "tuned").choose(state, decision)]
                   for s in range(8)]  # fmt: skip


def test_with_three_forces_the_best_move_differs_from_the_two_force_one() -> None:
    """HX-END-04, -14, HX-TURN-01: in the last round, against one opponent holding both characters (60 VP to its 60
    and more survivors) the Hero is behind and attacks; against two opponents of 30 VP each it is ahead of either,
    and both take a turn before the game ends (their threats add up): it steps away rather than attack."""
    _, duel = _last_round(2)
    _, melee = _last_round(3)
    assert all(isinstance(c, Close) for c in duel)
    assert not any(isinstance(c, Close) for c in melee)


def test_clix_melee_plays_heroclix_forces_and_replays_a_game(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 39: `clix melee` with HeroClix forces (their ruleset said by the forces), its rows like HorrorClix's,
    game K replayed by `--game K` with the placings of games.csv, the store key naming the ruleset."""
    melee = build_melee(None, HUNDREDS[:3], None, None, None, 4, "break")
    assert melee.ruleset == "heroclix-2005" and melee.map_name == "chemical-plant"
    assert melee_key(melee, 0).fields["ruleset"] == "heroclix-2005"
    args = ["melee", *HUNDREDS[:3], "--games", "6", "--turns", "4", "--jobs", "1", "--seed", "3"]
    code, _, err = run_main([*args, "-o", str(tmp_path / "a"), "--store", str(tmp_path / "s.duckdb")], capsys)
    assert code == 0, err
    games = pd.read_csv(tmp_path / "a" / "games.csv")
    assert len(games) == 12 and set(games["ruleset"].str.startswith("heroclix-2005")) == {True}
    assert sorted(games.loc[0, ["place_A", "place_B", "place_C"]]) == [1.0, 2.0, 3.0]
    assert games[["win_A", "win_B", "win_C"]].sum(axis=1).eq(1.0).all()
    code, printed, err = run_main([*args, "--game", "4", "--json", "--store", str(tmp_path / "s.duckdb")], capsys)
    assert code == 0, err
    row = json.loads(printed)
    assert [row[f"place_{x}"] for x in "ABC"] == list(games.loc[4, ["place_A", "place_B", "place_C"]])
    assert play_row(melee, 3, 1) == play_row(melee, 3, 1)


def test_a_heroclix_team_melee_and_meta_pods(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`--teams AB:CD` seats HeroClix teams alternately, the winner a team; `clix meta --pods 3 --ruleset
    heroclix-2005 --budget 100` plays the sample's 100-point forces in pods (once refused)."""
    code, printed, err = run_main(
        ["melee", *HUNDREDS, "--teams", "AC:BD", "--games", "8", "--turns", "3", "--jobs", "1", "--json",
         "-o", str(tmp_path / "t"), "--store", str(tmp_path / "s.duckdb")], capsys)  # fmt: skip
    assert code == 0, err
    games = pd.read_csv(tmp_path / "t" / "games.csv")
    assert set(games["teams"]) == {"AC:BD"} and set(games["winner"]) <= {"team AC", "team BD", "draw"}
    assert (games["win_A"] == games["win_C"]).all() and (games["win_B"] == games["win_D"]).all()
    code, printed, err = run_main(
        ["meta", "--pods", "3", "--budget", "100", "--ruleset", "heroclix-2005", "--games", "12", "--turns", "3",
         "--jobs", "1", "--json", "-o", str(tmp_path / "p"), "--store", str(tmp_path / "s.duckdb")], capsys)  # fmt: skip
    assert code == 0, err
    assert sorted(a["army"] for a in json.loads(printed)["armies"]) == sorted(HUNDREDS)


def test_the_api_plays_a_heroclix_melee() -> None:
    """`clix.melee(..., ruleset="heroclix-2005")` as `clix melee --ruleset heroclix-2005`: the same rows."""
    import clix

    result = clix.melee(HUNDREDS[:3], games=12, turns=3, jobs=1, seed=2, ruleset="heroclix-2005")
    melee = build_melee(None, HUNDREDS[:3], None, None, None, 3, "break")
    assert len(result.games) == 12
    assert result.games.loc[5, "vp_A"] == play_row(melee, 2, 5)["vp_A"]


def test_a_heroclix_table_speaks_of_characters_and_counts_no_victims() -> None:
    """Issue 36's reports that speak HeroClix, at a table too: a HeroClix melee's text has no victims column and its
    replayed placings name no victims; HorrorClix's words stay (monsters killed, victims slain)."""
    from io import StringIO

    from clix.analyzer.melee.command import games_frame
    from clix.analyzer.melee.console import summary_lines
    from clix.analyzer.melee.replay import print_row
    from clix.analyzer.melee.stats import summarize, table_words
    from rich.console import Console

    assert table_words(pd.DataFrame([{"ruleset": "heroclix-2005/part2-2"}])) == {
        "pieces": "characters", "defeated": "knocked out", "victims": False}  # fmt: skip
    assert table_words(pd.DataFrame([{"ruleset": "horrorclix-001-faq"}]))["victims"] is True
    melee = build_melee(None, HUNDREDS[:3], None, None, None, 2, "break", ruleset="heroclix-2005")
    rows = [play_row(melee, 0, i) for i in range(6)]
    summary = summarize(games_frame(rows, melee)) | {"seed": 0, "map": melee.map_name, "ended": {"failed": []}}
    text = "\n".join(summary_lines(summary))
    assert summary["words"]["pieces"] == "characters" and "slain" not in text and "victims" not in text
    out = StringIO()
    print_row(rows[0], melee.slots, 0, Console(file=out, width=200), as_json=False)
    assert "VP" in out.getvalue() and "victims" not in out.getvalue()
