"""The heuristic player's setup choices (issue 12): where it places its pieces, the crossroads side it starts a
card on, and the one row of distances it reads the nearest piece from (the positions of play are in
tests/test_heuristic_positions.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from clix.engine.core.players.base import Decision
from clix.engine.horrorclix.figures import compile_figure
from clix.engine.horrorclix.game import settle
from clix.engine.horrorclix.matchups import roster_at
from clix.engine.horrorclix.players.heuristic import DEFAULT_STYLE, STYLES, HeuristicAgent
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.setup import new_game
from clix.engine.horrorclix.state import GameState

ROOT = Path(__file__).resolve().parent.parent
STYLE_NAMES = sorted(STYLES, key=lambda name: (name != DEFAULT_STYLE, name))
SETUP_KINDS = ("edge", "victim_space", "object_space", "monster_space", "flight")


@pytest.fixture(scope="module")
def library() -> Roster:
    """The sample roster library."""
    return roster_at(ROOT / "rosters" / "horrorclix")


# --- 6. setup choices ---------------------------------------------------------------------------------


class _SetupWitness:
    """Plays as `agent`; at each setup decision also asks `other` (another seed) and records both answers."""

    def __init__(self, agent: Any, other: Any) -> None:
        self.agent = agent
        self.other = other
        self.name = getattr(agent, "name", "witness")
        self.seen: list[tuple[str, int, int]] = []

    def choose(self, state: GameState, decision: Decision) -> int:
        pick = self.agent.choose(state, decision)
        if decision.kind in SETUP_KINDS:
            self.seen.append((decision.kind, pick, self.other.choose(state, decision)))
        return pick


class _RandomSetup:
    """A player that picks setup options at random (what the heuristic must not do)."""

    name = "random setup"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, state: GameState, decision: Decision) -> int:
        return int(self.rng.integers(len(decision.options)))


def _set_up(library: Roster, make: Any) -> list[tuple[str, int, int]]:
    """Set up Ashfang Pack against Lantern Watch (both with flyers and objects) on the graveyard."""
    witnesses = [_SetupWitness(make(2 * n), make(2 * n + 101)) for n in range(2)]
    armies = [library.armies[name] for name in ("ashfang-pack", "lantern-watch")]
    settle(new_game(library, armies, library.maps["graveyard"], np.random.default_rng(7), turn_limit=6), witnesses)
    return [record for witness in witnesses for record in witness.seen]


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_setup_choices_are_scored_not_random(library: Roster, style: str) -> None:
    """HC-SETUP-04, HC-SETUP-05, HC-SETUP-06, HC-SETUP-08: the starting edge, the victim spaces, the
    objects, the monsters' spaces and the flight modes are scored, so two agents of one style with different
    random seeds make the same choice at every setup decision of a real game setup; players choosing at
    random would not."""
    seen = _set_up(library, lambda seed: HeuristicAgent(np.random.default_rng(seed), STYLES[style], style))
    kinds = {kind for kind, _, _ in seen}
    assert {"edge", "victim_space", "flight"} <= kinds, kinds
    differing = [(kind, a, b) for kind, a, b in seen if a != b]
    assert differing == [], differing

    random = _set_up(library, lambda seed: _RandomSetup(np.random.default_rng(seed)))
    assert any(a != b for _, a, b in random)


# --- the crossroads side and the nearest piece ------------------------------------------------------


def test_crossroads_side_is_put_to_the_player_and_scored(library: Roster) -> None:
    """HC-CARD-07, HC-SETUP-03: an army entry that names no side lets its player choose a crossroads card's
    starting side; the heuristic takes the side showing powers on more live clicks, whatever its seed."""
    stats = compile_figure(library.figures["hedge-witch-morrow-u"])
    sides = list(stats.start_sides)
    counts = {
        side: sum(len(stats.powers[side][c]) for c in range(stats.start, len(stats.killed)) if not stats.killed[c])
        for side in sides
    }
    best = max(counts, key=counts.__getitem__)
    assert len(set(counts.values())) == 2  # the sides differ, so the choice means something

    asked: list[str] = []

    class Recorder:
        """Answers as the heuristic does, noting the crossroads decisions it is asked."""

        name = "recorder"

        def __init__(self, seed: int) -> None:
            self.agent = HeuristicAgent(np.random.default_rng(seed), STYLES[DEFAULT_STYLE])

        def choose(self, state: GameState, decision: Decision) -> int:
            if decision.kind == "crossroads":
                asked.append(decision.subject)
            return self.agent.choose(state, decision)

    haunting = library.armies["haunting"]
    entry = type(haunting.figures[0])(figure="hedge-witch-morrow-u")  # no side named: the player chooses
    army = haunting.model_copy(update={"figures": [*haunting.figures, entry]})
    for seed in range(3):
        asked.clear()
        agents = [Recorder(seed), Recorder(seed + 10)]
        state = new_game(
            library, [army, library.armies["butcher-shop"]], library.maps["graveyard"], np.random.default_rng(3)
        )
        settle(state, agents)
        witch = next(m for m in state.monsters if m.stats.id == "hedge-witch-morrow-u")
        assert asked == ["hedge-witch-morrow-u"]
        assert witch.side == best


def test_the_nearest_piece_is_read_from_one_row_kept_with_the_map(monkeypatch):
    """`_Spots.nearest` (spaces counted as in HC-MOVE-03) reads the minimum of the pieces' distance rows, kept
    by their positions: the same as the nearest piece counted one by one, 99 with no piece or all farther."""
    from clix.engine.core import geometry as geometry_module
    from clix.engine.horrorclix.players import position

    roster = roster_at(ROOT / "rosters" / "horrorclix")
    geo = geometry_module.Geometry(roster.maps["graveyard"])
    rng = np.random.default_rng(7)
    for count in (0, 1, 2, 5, 12):
        positions = [int(p) for p in rng.choice(geo.size, size=count, replace=False)]
        spots = position._Spots(geo, positions)
        for space in range(geo.size):
            expected = min([geo.distance(space, p) for p in positions] + [99])
            assert spots.nearest(space) == expected
        assert position._Spots(geo, positions).row is spots.row  # kept with the map
    monkeypatch.setattr(position, "NEAREST_ROWS_KEPT", 2)
    kept = geo.caches[position.NEAREST_ROWS]
    position.nearest_row(geo, [3, 4])
    assert len(kept) <= 2  # full: started again
