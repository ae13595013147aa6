"""The heuristic player on hand-built positions with a known best option (issue 12).

Each position is built with the scenario machinery (engine/horrorclix/scenario.py, docs/scenario-format.md) and put
to `HeuristicAgent` with its noise off, so what is checked is the scoring: every option valued in expected
victory points against the position as it stands (ending the turn is worth 0). Each test also shows that the
choice turns on what it claims to check: with the relevant weight off, or the score reversed, the choice
changes (or the score moves the right way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from clix.engine.core.players.base import Decision
from clix.engine.horrorclix import plots, rules
from clix.engine.horrorclix.actions import Close, EndTurn, Move
from clix.engine.horrorclix.matchups import roster_at
from clix.engine.horrorclix.players.heuristic import (
    DEFAULT_STYLE,
    STYLES,
    HeuristicAgent,
    Weights,
    _Context,
    live_clicks_left,
)
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.scenario import Scenario, build_state
from clix.engine.horrorclix.state import GameState, Monster

ROOT = Path(__file__).resolve().parent.parent
STYLE_NAMES = sorted(STYLES, key=lambda name: (name != DEFAULT_STYLE, name))
"""Every style: a position with one clearly best option is clear whatever the weights (the default first)."""


# --- building positions and asking the agent ---------------------------------------------------------


def _position(roster: Roster, **spec: Any) -> tuple[GameState, dict[str, Monster], dict[str, Any]]:
    """The state a scenario (without steps or expectations) describes, its monsters and victims by id."""
    scenario = Scenario.model_validate({"name": "heuristic position", "expect": {}, **spec})
    state, monster_ids, victim_ids = build_state(scenario, roster)
    monsters = {name: state.monsters[uid] for name, uid in monster_ids.items()}
    victims = {name: state.victims[uid] for name, uid in victim_ids.items()}
    return state, monsters, victims


def _weights(style: str, **changes: float) -> Weights:
    """A style's weights with the noise off (and any other changes)."""
    return replace(STYLES[style], noise=0.0, **changes)


def _agent(weights: Weights) -> HeuristicAgent:
    return HeuristicAgent(np.random.default_rng(0), weights, "position test")


class Choice:
    """The agent's pick among the legal actions of a position, with every option's score."""

    def __init__(self, state: GameState, weights: Weights) -> None:
        agent = _agent(weights)
        self.state = state
        self.options = rules.legal_actions(state)
        decision = Decision("action", state.active, self.options)
        self.scores = agent._score_action(state, decision)
        self.index = agent.choose(state, decision)
        self.chosen = self.options[self.index]

    def score_of(self, option: object) -> float:
        return next(self.scores[k] for k, o in enumerate(self.options) if o == option)

    def best_where(self, keep: Any) -> float:
        """The best score among the options `keep(option)` accepts."""
        return max(self.scores[k] for k, o in enumerate(self.options) if keep(o))

    def end_of(self, option: object, monster: Monster) -> int:
        """Where `monster` stands after `option` (a move's last space, else where it is)."""
        if isinstance(option, Move) and option.monster == monster.uid and option.path:
            return option.path[-1]
        return monster.pos

    def report(self, top: int = 5) -> str:
        ranked = sorted(range(len(self.scores)), key=lambda k: -self.scores[k])[:top]
        lines = [f"chose {self.chosen} ({self.scores[self.index]:.3f}); best options:"]
        lines += [f"  {self.scores[k]:8.3f}  {self.options[k]}" for k in ranked]
        for k, option in enumerate(self.options):
            if isinstance(option, (EndTurn, Close)) and k not in ranked:
                lines.append(f"  {self.scores[k]:8.3f}  {option}")
        return "\n".join(lines)


def _play_choice(
    state: GameState, weights: Weights, player: int, window: plots.Window, cards: Sequence[str]
) -> tuple[int, list[float]]:
    """The agent's answer to a plot-twist window (0: pass, k: play cards[k - 1]) and the scores."""
    agent = _agent(weights)
    decision = Decision(
        plots.PLAY, player, [None, *(plots.PlayCard(name, player) for name in cards)], window.name, window
    )
    return agent.choose(state, decision), agent._plot_twist_scores(state, decision)


@pytest.fixture(scope="module")
def library() -> Roster:
    """The sample roster library (the plot twists in the crypts)."""
    return roster_at(ROOT / "rosters" / "horrorclix")


# --- 1. attack the enemy that would otherwise kill us ------------------------------------------------


def _duel_at_the_edge(
    library: Roster, z_points: int = 50, more: Sequence[dict[str, Any]] = ()
) -> tuple[GameState, dict[str, Monster]]:
    """Our A (60 points) on its last live click, beside an enemy Z also on its last live click whose next
    attack would kill A; the one victim is far across the map (out of A's reach this turn)."""
    monsters = [
        {"id": "A", "player": 1, "dial": ["6 9 16 3", "6 9 16 3", "x"], "click": 1, "at": [9, 2], "points": 60},
        {
            "id": "Z",
            "player": 2,
            "dial": ["6 10 16 3", "6 10 15 3", "x"],
            "click": 1,
            "at": [10, 2],
            "points": z_points,
        },
        *more,
    ]
    state, pieces, _ = _position(library, monsters=monsters, victims=[{"id": "V1", "at": [0, 11]}])
    return state, pieces


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_attacks_the_enemy_that_would_otherwise_kill_us(library: Roster, style: str) -> None:
    """HC-COMBAT-04, HC-COMBAT-05, HC-END-04, HC-TURN-04: an adjacent enemy on its last live click, whose
    next attack would kill our monster, is attacked rather than left standing while we walk toward a far
    victim or end the turn. Without the worth of kills and of the threat a kill removes (kills = threat = 0) the same position sends the monster
    toward the victim instead: the choice is the scoring of the kill."""
    state, m = _duel_at_the_edge(library)
    a, z = m["A"], m["Z"]
    assert live_clicks_left(z) == 1 and live_clicks_left(a) == 1
    assert _Context(state, 1).threat(a, a.pos) > 0  # Z reaches A next turn
    assert state.geometry.distance(a.pos, state.victims[0].pos) > a.speed + 1  # no victim within reach

    choice = Choice(state, _weights(style))
    assert choice.chosen == Close(a.uid, z.uid), choice.report()
    assert choice.scores[choice.index] > choice.best_where(lambda o: o != choice.chosen) + 1.0, choice.report()

    blind = Choice(state, _weights(style, kills=0.0, threat=0.0))
    assert isinstance(blind.chosen, Move), blind.report()
    assert blind.end_of(blind.chosen, a) != a.pos


# hunter is left out on purpose: its deliberate deviation (kills x2, threat x0.6) prefers the richer target
@pytest.mark.parametrize("style", [name for name in STYLE_NAMES if name != "hunter"])
def test_attacks_the_enemy_that_would_kill_us_over_a_richer_one_that_cannot_strike(library: Roster, style: str) -> None:
    """HC-TURN-01, HC-TURN-04, HC-END-04, HC-END-01 (a): as above with Z worth 30 points, and a second enemy
    Y (200 points, 5 live clicks) beside A too, which with two action tokens cannot act next turn. Hitting Y
    deals it 3 clicks and scores nothing now, and then Z kills A (60 points, our only monster: the game ends)
    on a 26-in-36 roll; hitting Z kills it (30 points) on the same odds and saves A. Z is clearly the target."""
    state, m = _duel_at_the_edge(
        library,
        z_points=30,
        more=[{"id": "Y", "player": 2, "dial": ["6 10 16 3"] * 5 + ["x"], "at": [8, 2], "points": 200, "tokens": 2}],
    )
    a, z = m["A"], m["Z"]
    choice = Choice(state, _weights(style))
    assert choice.chosen == Close(a.uid, z.uid), choice.report()


# --- 2. the tie-break: the side that would lose it attacks ------------------------------------------


def _no_victims_left(library: Roster, mine: int, theirs: int) -> tuple[GameState, dict[str, Monster]]:
    """No victims on the map, 0-0 in victory points; our A (50 points, one action token from last turn,
    so an action now is its second in a row and it cannot act next turn) beside a tougher enemy Z. The army
    totals are set after building (the scenario format has no field for them)."""
    state, pieces, _ = _position(
        library,
        turn=3,
        turn_limit=10,
        monsters=[
            {"id": "A", "player": 1, "dial": ["6 9 14 3"] * 4 + ["x"], "at": [5, 5], "points": 50, "tokens": 1},
            {"id": "Z", "player": 2, "dial": ["6 11 18 3"] * 5 + ["x"], "at": [6, 5], "points": 60},
        ],
    )
    state.player(1).army_points, state.player(2).army_points = mine, theirs
    return state, pieces


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_tie_break_trailing_side_attacks_after_the_victims_are_gone(library: Roster, style: str) -> None:
    """HC-END-03, HC-END-09: with the victory points tied, the cheaper army wins the tie-break, so the side
    whose army costs more is behind once the victims are gone: it must make the attack (worth victory points
    on average) rather than end the turn. The score reads -0.5 for it and +0.5 for the cheaper side, and the
    same attack is worth less to the side that would win the tie as things stand."""
    state, m = _no_victims_left(library, mine=60, theirs=50)
    a, z = m["A"], m["Z"]
    assert not state.victims and state.total_vp(1) == state.total_vp(2) == 0
    weights = _weights(style)
    trailing = _Context(state, 1, weights)
    assert trailing.margin() == -0.5
    assert trailing.kill_scale > 1 and trailing.hunt_scale > 1 and trailing.threat_scale < 1

    choice = Choice(state, weights)
    attack = Close(a.uid, z.uid)
    assert choice.chosen == attack, choice.report()
    assert choice.score_of(attack) > choice.score_of(EndTurn()) + 0.5, choice.report()

    cheaper, _ = _no_victims_left(library, mine=40, theirs=50)
    leading = _Context(cheaper, 1, weights)
    assert leading.margin() == 0.5
    assert leading.hunt_scale == 0 and leading.threat_scale > 1
    ahead = Choice(cheaper, weights)
    assert ahead.score_of(attack) < choice.score_of(attack) - 1.0, ahead.report()


def test_tie_break_leading_side_keeps_its_monster_fresh(library: Roster) -> None:
    """HC-END-09, HC-TURN-01: with the hand-set weights (`Weights()`, every gain at par), the same attack
    that the side losing the tie-break makes is not worth a second action token to the side winning it,
    which ends the turn: the choice turns on the score alone."""
    weights = replace(Weights(), noise=0.0)
    behind, m = _no_victims_left(library, mine=60, theirs=50)
    attack = Close(m["A"].uid, m["Z"].uid)
    assert Choice(behind, weights).chosen == attack
    ahead, _ = _no_victims_left(library, mine=40, theirs=50)
    choice = Choice(ahead, weights)
    assert choice.chosen == EndTurn(), choice.report()
    assert choice.score_of(attack) < -0.25, choice.report()


# --- 3. a side ahead holds back ---------------------------------------------------------------------


def _ahead_or_behind(library: Roster, lead: int, turn: int = 3) -> tuple[GameState, dict[str, Monster]]:
    """No victims left; our A (speed 5, reach 6) at the west edge and a stronger enemy Z (speed 6, reach 7)
    nine spaces east: every space from which A could strike Z next turn is within Z's reach, so the only
    aggressive move is a step into Z's reach. `lead`: our victory points less theirs (from kills)."""
    state, pieces, _ = _position(
        library,
        turn=turn,
        turn_limit=10,
        monsters=[
            {"id": "A", "player": 1, "dial": ["5 9 16 2"] * 4 + ["x"], "at": [1, 5], "points": 60},
            {"id": "Z", "player": 2, "dial": ["6 10 17 3"] * 5 + ["x"], "at": [10, 5], "points": 70},
        ],
    )
    state.vp[1 if lead > 0 else 2]["kills"] = abs(lead)
    return state, pieces


def _into_reach(state: GameState, weights: Weights, choice: Choice, a: Monster) -> tuple[float, float]:
    """The threat to A where the chosen option leaves it, and where it stands now."""
    ctx = _Context(state, 1, weights)
    return ctx.threat(a, choice.end_of(choice.chosen, a)), ctx.threat(a, a.pos)


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_leading_side_holds_back_once_the_victims_are_gone(library: Roster, style: str) -> None:
    """HC-END-01 (b), HC-END-03: once the victims are gone a side ahead on victory points wins by keeping its
    lead: it stops hunting (hunt_scale 0) and weighs threats more, so it does not walk into a stronger
    enemy's reach (it ends the turn or stays out of reach). With the score reversed, the side behind steps in
    to hunt. On the game's last turn no one acts after it, so the threat of a move counts for nothing."""
    weights = _weights(style)
    state, m = _ahead_or_behind(library, lead=10)
    a = m["A"]
    ctx = _Context(state, 1, weights)
    assert ctx.margin() == 10
    assert ctx.hunt_scale == 0 and ctx.threat_scale > 1
    assert ctx.threat(a, a.pos) == 0

    choice = Choice(state, weights)
    after, now = _into_reach(state, weights, choice, a)
    assert now == 0 and after == 0, choice.report()
    reaching = _Context(state, 1, weights)
    in_reach = choice.best_where(lambda o: isinstance(o, Move) and reaching.threat(a, choice.end_of(o, a)) > 0)
    assert in_reach < -1.0, choice.report()

    behind_state, behind_m = _ahead_or_behind(library, lead=-10)
    behind = Choice(behind_state, weights)
    after, _ = _into_reach(behind_state, weights, behind, behind_m["A"])
    assert after > 0, behind.report()

    last, _ = _ahead_or_behind(library, lead=10, turn=20)  # turn limit 10 rounds of 2 players
    assert _Context(last, 1, weights).threat_scale == 0


# --- 4. and 5. plot twists held for what they can stop ----------------------------------------------


def _crypt_position(library: Roster, card: str, victims: bool) -> tuple[GameState, dict[str, Monster], dict[str, Any]]:
    """Player 2 is active. Our cheap C (10 points, 6 clicks) is beside Z; our A (120 points, last live click)
    beside X; player 2's Y stands next to victim V1. With `victims`, three victims are on the map; without,
    none is left. Our crypt holds `card`."""
    return _position(
        library,
        active_player=2,
        monsters=[
            {"id": "C", "player": 1, "dial": ["5 8 16 1"] * 5 + ["x"], "at": [5, 5], "points": 10},
            {"id": "A", "player": 1, "dial": ["6 9 16 3", "6 9 16 3", "x"], "click": 1, "at": [1, 1], "points": 120},
            {"id": "Z", "player": 2, "dial": ["6 10 17 1"] * 5 + ["x"], "at": [6, 5], "points": 60},
            {"id": "X", "player": 2, "dial": ["6 10 17 3"] * 5 + ["x"], "at": [2, 1], "points": 60},
            {"id": "Y", "player": 2, "dial": ["6 10 17 2"] * 5 + ["x"], "at": [8, 8], "points": 60},
        ],
        victims=(
            [{"id": "V1", "at": [9, 8]}, {"id": "V2", "at": [0, 11]}, {"id": "V3", "at": [11, 0]}] if victims else []
        ),
        crypts={1: [card]},
    )


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_plot_twist_held_for_the_slaying_it_can_stop(library: Roster, style: str) -> None:
    """HC-PLOT-06, HC-PLOT-07, HC-PLOT-12, HC-PLOT-13, HC-END-07: Stuck Door either prevents a slaying or
    rerolls any attack roll. With three victims still on the map, an opposing attack that hit our cheapest
    monster for one click is not worth the card (a reroll would likely hit again): the player passes,
    keeping it; when an opposing monster is about to slay a victim (5 victory points), it plays the card.
    Valuing the card kept for later at nothing (hold = 0) spends it on the reroll."""
    card = "Stuck Door"
    state, m, v = _crypt_position(library, card, victims=True)
    assert set(plots.card(state, card).windows) == {"slaying", "attack_roll"} and plots.card(state, card).rerolls
    assert state.player(1).hidden_cards == [card]
    weights = _weights(style)
    z, c = m["Z"], m["C"]
    roll = plots.Window("attack_roll", attacker=z, targets=(c,), dice=(4, 3))  # 7 + 10 >= 16: one click on C
    assert 4 + 3 + z.attack >= c.defense and live_clicks_left(c) > z.damage

    index, scores = _play_choice(state, weights, 1, roll, [card])
    assert index == 0 and scores[1] < -0.5, scores

    slaying = plots.Window("slaying", victim=v["V1"], actor=m["Y"])
    index, scores = _play_choice(state, weights, 1, slaying, [card])
    assert index == 1 and scores[1] > 0.5, scores

    index, scores = _play_choice(state, _weights(style, hold=0.0), 1, roll, [card])
    assert index == 1, scores

    missed = plots.Window("attack_roll", attacker=z, targets=(c,), dice=(2, 2))  # 4 + 10 < 16
    index, scores = _play_choice(state, _weights(style, hold=0.0), 1, missed, [card])
    assert index == 0, scores  # rerolling a miss against us can only hurt


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_reroll_saves_a_monster_when_nothing_else_is_left(library: Roster, style: str) -> None:
    """HC-PLOT-07, HC-PLOT-12, HC-END-04: no victims are left, so a card kept for a slaying has nothing
    left to stop; an opposing attack roll hits our 120-point monster on its last live click, killing it:
    the player plays Bad Luck to reroll it. Had the roll missed, it keeps the card."""
    card = "Bad Luck"
    state, m, _ = _crypt_position(library, card, victims=False)
    assert not state.victims
    weights = _weights(style)
    x, a = m["X"], m["A"]
    hit = plots.Window("attack_roll", attacker=x, targets=(a,), dice=(4, 3))  # 7 + 10 >= 16, damage 3: killed
    assert 4 + 3 + x.attack >= a.defense and x.damage >= live_clicks_left(a)
    index, scores = _play_choice(state, weights, 1, hit, [card])
    assert index == 1 and scores[1] > 10, scores

    missed = plots.Window("attack_roll", attacker=x, targets=(a,), dice=(2, 2))
    index, scores = _play_choice(state, weights, 1, missed, [card])
    assert index == 0, scores


# --- a trailing side attacks once the victims are gone -----------------------------------------------


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_trailing_side_attacks_whenever_an_attack_is_worth_anything(library: Roster, style: str) -> None:
    """HC-END-03, HC-END-09: no victims left and behind on VP, only kills can still win, so a small but
    positive attack (our A beside a sturdy Z: one click, no kill) beats any move, even one toward a
    wounded enemy W further off that would score more next turn. Ahead on VP, the same attack may wait."""
    monsters = [
        {"id": "A", "player": 1, "dial": ["8 10 16 2"] * 4 + ["x"], "at": [0, 0], "points": 60},
        {"id": "Z", "player": 2, "dial": ["4 9 17 1"] * 6 + ["x"], "at": [1, 0], "points": 40, "tokens": 2},
        {"id": "W", "player": 2, "dial": ["4 9 14 1", "x"], "at": [11, 11], "points": 90, "tokens": 2},
    ]
    state, m, _ = _position(library, monsters=monsters, turn=5)
    state.vp[2]["kills"] = 10  # we trail
    assert _Context(state, 1).must_attack
    trailing = Choice(state, _weights(style))
    attack = Close(m["A"].uid, m["Z"].uid)
    assert trailing.score_of(attack) > 0, trailing.report()
    assert isinstance(trailing.chosen, Close), trailing.report()
    assert trailing.score_of(attack) >= max(
        s for k, s in enumerate(trailing.scores) if not isinstance(trailing.options[k], Close)
    ), trailing.report()
    state.vp[1]["kills"] = 20  # now we lead: no must
    assert not _Context(state, 1).must_attack
