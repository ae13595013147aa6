"""The Creature, the Mummy, the Wolf Man and Frankenstein & the Bride (issue 40; HF-M-CRE, HF-M-MUM, HF-M-WOL,
HF-M-FRB): what their scenarios (tests/scenarios/horrified/hf_m_*) cannot show, their data's one-line problems,
and the team player finishing each task."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from clix.analyzer.horrified.games import kit
from clix.engine.core import decisions
from clix.engine.core.dice import Dice
from clix.engine.core.driver import play
from clix.engine.horrified.library import load_library
from clix.engine.horrified.matchups import SAMPLE, components_at
from clix.engine.horrified.mats import after_move, scarab_moves, tablet_distance
from clix.engine.horrified.players import TeamPlayer
from clix.engine.horrified.rules import Advance, apply
from clix.engine.horrified.setup import SetupError, new_game
from clix.engine.horrified.state import OFF_BOARD
from horrified_helpers import BLANK, HIT, POWER, at, card, end_phase, force, game, give, with_cards


def test_setup_places_all_six_monsters_and_the_bride_hf_setup_02():
    """HF-SETUP-02, HF-FRZ-01: mats by Frenzy Order (Dracula 1 ... the Wolf Man 6), the Bride with Frankenstein, the
    frenzy marker on the lowest; the tablet as printed (all face up); the Creature may start in water (HF-M-CRE)."""
    state = game(("wolf-man", "mummy", "creature", "frankenstein"))
    assert [m.id for m in state.pieces] == ["frankenstein", "bride", "creature", "mummy", "wolf-man"]
    assert state.frenzied == "frankenstein"
    assert state.piece("creature").pos == at(state, "lagoon") and state.piece("creature").progress == 0
    assert state.piece("mummy").tablet == [0, 5, 4, 6, 2, 3, 1]
    assert state.piece("bride").pos == at(state, "tower")
    with pytest.raises(SetupError, match="the bride comes with frankenstein"):
        new_game(components_at(), ["bride", "dracula"], ["mayor"], None)


def test_a_face_down_scarab_cannot_slide_and_distance_counts_flips_hf_m_mum():
    """HF-M-MUM: a face-down scarab cannot be moved (only flipped); the fewest moves are the slides plus one flip per
    face-down scarab; the printed start is 12 moves from solved."""
    state = game(("mummy",))
    piece = state.piece("mummy")
    piece.tablet = [1, 0, 2, 3, 4, 5, 6]  # scarab 1 in the centre, its spot empty
    assert "slide:0-1" in scarab_moves(state, piece) and tablet_distance(state, "mummy", piece.tablet) == 1
    piece.tablet = [-1, 0, 2, 3, 4, 5, 6]
    moves = scarab_moves(state, piece)
    assert "slide:0-1" not in moves and "flip:0" in moves and "slide:2-1" in moves
    assert tablet_distance(state, "mummy", piece.tablet) == 2
    assert after_move(piece.tablet, "flip:0") == [1, 0, 2, 3, 4, 5, 6]
    assert tablet_distance(state, "mummy", [0, 5, 4, 6, 2, 3, 1]) == 12


def test_a_lured_hero_off_the_board_takes_the_sign_but_nobody_moves_r_hf_22():
    """R-HF-22 (HF-M-MUM, HF-M-WOL): the first event's sign goes to the current player even when the hero is off
    the board; the Wolf Man then has nobody to move toward."""
    state = game(("wolf-man",))
    wolf = state.piece("wolf-man")
    start = wolf.pos
    state.heroes[0].pos = OFF_BOARD
    state.defeated_heroes.append(state.heroes[0].id)
    with_cards(state, card(state, (), event="wolf-man", kind="move", amount=2))
    end_phase(state)
    assert wolf.holder == "mayor" and wolf.pos == start


def test_vicious_bite_spares_a_hero_the_attack_defeated_hf_hit_01():
    """HF-M-WOL, HF-HIT-01: the attacked hero defeated by the hit is off the board, so the bite hits only the others
    in the space (here a villager: +1 terror more)."""
    state = game(("wolf-man",))
    wolf = state.piece("wolf-man")
    wolf.pos = state.heroes[0].pos
    state.villagers[0] = wolf.pos
    with_cards(state, card(state, ("wolf-man",), dice=2))
    force(state, HIT, POWER)
    end_phase(state)
    assert state.heroes[0].pos == OFF_BOARD
    assert state.terror == 2 and 0 not in state.villagers


def test_the_pairs_event_card_keeps_both_from_striking_r_hf_26():
    """R-HF-26 (HF-MON-02): on a Frankenstein event card neither he nor the Bride strikes on their own symbol."""
    state = game(("frankenstein", "dracula"))
    state.frenzied = "dracula"
    bride = state.piece("bride")
    bride.pos = at(state, "dungeon")
    state.heroes[1].pos = at(state, "tower")
    with_cards(state, card(state, ("bride", "frankenstein"), event="frankenstein", kind="frenzy"))
    force(state, BLANK, BLANK)
    end_phase(state)
    assert bride.pos == at(state, "dungeon") and state.frenzied == "frankenstein"


def test_the_pair_defeated_passes_the_frenzy_marker_on_hf_frz_01():
    """HF-FRZ-01, HF-M-FRB: the pair defeated by meeting while frenzied pass the marker to the next monster."""
    state = game(("frankenstein", "dracula"))
    state.frenzied = "frankenstein"
    monster, bride = state.piece("frankenstein"), state.piece("bride")
    monster.progress, bride.progress = 11, 8
    monster.pos = state.heroes[0].pos
    bride.pos = at(state, "bridge-east")  # next to the Theatre, the Mayor's start
    give(state, 0, "yellow", 1)
    apply(state, Advance("frankenstein", 1, tuple(state.heroes[0].items)))
    decisions.answer(state, list(state.waiting.options).index(at(state, "bridge-east")))
    assert state.piece("frankenstein") is None and state.piece("bride") is None
    assert state.frenzied == "dracula" and not state.over


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "horrified"
    shutil.copytree(SAMPLE, folder)
    return folder


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("red, yellow, blue]}", "red, yellow, red]}", "the Lair is the last X of the boat's path and it is blue"),
        ("start: [0, 5, 4, 6, 2, 3, 1]", "start: [0, 5, 4, 6, 2, 3, 3]", "`start` puts scarabs 1-6 once each"),
        ("strengths: [1, 1, 2, 2, 3, 4]", "at: laboratory", "a cure task needs `strengths`"),
        ("sent_to: graveyard", "sent_to: grave", "'grave' is not a location of the board"),
    ],
)
def test_a_mat_mistake_is_one_line(tmp_path, old, new, said):
    """The mats' data (rosters/horrified/monsters.yaml): each mistake is one problem naming file, line and field."""
    folder = _copy(tmp_path)
    path = folder / "monsters.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1).replace("at: laboratory, at: laboratory", "at: laboratory"))
    problems = [str(p) for p in load_library([folder])[1]]
    assert len(problems) == 1 and said in problems[0] and "monsters.yaml:" in problems[0], problems


@pytest.mark.parametrize("monster", ["creature", "mummy", "wolf-man", "frankenstein"])
def test_the_team_finishes_each_task_and_defeats_the_monster(monster):
    """The heuristic team (players.py) advances each new monster's task to the end and defeats it: alone against it,
    two heroes win most of 6 seeded games (a team that never finished a task would win none)."""
    components = components_at()
    won = 0
    for k in range(6):
        dice_seed, *seats = np.random.SeedSequence(k).spawn(3)
        state = new_game(components, [monster], ["mayor", "archaeologist"], Dice(np.random.default_rng(dice_seed)))
        play(state, [TeamPlayer(np.random.default_rng(s)) for s in seats])
        won += state.winner is not None
    assert won >= 4


def test_a_later_event_that_reads_the_sign_draws_the_holder_again_r_hf_22():
    """R-HF-22 (assumed `sign_events`): once the mayor holds the Soul sign, a Mummy event that reads it draws the
    mayor `lure` (2) spaces toward the Mummy again, though the inspector is the current player; the generated deck
    marks that many of the Mummy's and the Wolf Man's event cards, and none of another monster's."""
    state = game(("mummy",))
    mummy, mayor = state.piece("mummy"), state.heroes[0]
    mayor.pos = at(state, "inn")
    board = state.components.board
    start = board.distance(mayor.pos, mummy.pos)
    with_cards(
        state, card(state, (), event="mummy", kind="move", amount=2), card(state, (), event="mummy", kind="sign")
    )
    end_phase(state)
    assert mummy.holder == "mayor" and board.distance(mayor.pos, mummy.pos) == start - 2
    end_phase(state)
    assert board.distance(mayor.pos, mummy.pos) == max(0, start - 4) and mummy.holder == "mayor"
    for marked in (0, 1, 2):
        cards = kit().components((), "sign-events", marked).cards if marked else kit().components(()).cards
        by_owner = {
            o: sum(c.event == o and c.event_kind == "sign" for c in cards) for o in ("mummy", "wolf-man", "dracula")
        }
        assert by_owner == {"mummy": marked, "wolf-man": marked, "dracula": 0}
