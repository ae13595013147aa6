"""What Advance and Defeat actions a hero may take against each monster, what they do, and each monster's Power
(HF-ACT-06..07, HF-MON-05): Dracula (HF-M-DRA) and the Invisible Man (HF-M-INV) here, the other four in `mats.py`."""

from __future__ import annotations

from itertools import combinations

from clix.engine.horrified import mats
from clix.engine.horrified.mats import spec_of
from clix.engine.horrified.people import (
    check_win,
    closest_person,
    frenzy_next,
    spend,
    step_toward,
)
from clix.engine.horrified.state import OFF_BOARD, Hero, HorrifiedState

MAX_SPENDS = 12
"""At most this many ways of paying one threshold are listed (the cheapest first); docs/rulings.md R-HF-05."""


def bonus(state: HorrifiedState, hero: Hero) -> int:
    """What each item this hero spends on Advance or Defeat counts more (the Scientist's `item-bonus`, assumed)."""
    spec = state.components.heroes[hero.id]
    return spec.amount if spec.special == "item-bonus" else 0


def payments(state: HorrifiedState, hero: Hero, colour: str, threshold: int) -> list[tuple[int, ...]]:
    """The ways to meet `threshold` with items of `colour` (strengths summed, HF-ITEM-02): minimal sets only (none
    can be left out), one per multiset of strengths, the least total strength first."""
    extra = bonus(state, hero)
    mine = sorted((state.item(u).strength + extra, u) for u in hero.items if state.item(u).colour == colour)
    found: dict[tuple[int, ...], tuple[int, ...]] = {}
    for size in range(1, len(mine) + 1):
        for combo in combinations(mine, size):
            total = sum(s for s, _ in combo)
            if total >= threshold and total - min(s for s, _ in combo) < threshold:
                key = tuple(s for s, _ in combo)
                found.setdefault(key, tuple(u for _, u in combo))
        if len(found) >= MAX_SPENDS:
            break
    ranked = sorted(found.items(), key=lambda kv: (sum(kv[0]), len(kv[0])))
    return [uids for _, uids in ranked[:MAX_SPENDS]]


def advance_options(state: HorrifiedState, hero: Hero) -> list[tuple[str, int, tuple[int, ...]]]:
    """(monster, spot, items) for each Advance the hero may take here (HF-ACT-06); `spot` is the coffin's or
    evidence's location, the Boat's next X, the Wolf Man's mat spot, or the moves or humanity the item gives."""
    found: list[tuple[str, int, tuple[int, ...]]] = []
    for piece in state.in_game():
        task = spec_of(state, piece.id).task
        if task.kind == "coffins" and hero.pos in piece.coffins:
            assert task.colour is not None
            found += [(piece.id, hero.pos, uids) for uids in payments(state, hero, task.colour, task.threshold)]
        elif task.kind == "evidence" and task.at is not None and hero.pos == state.components.board.index(task.at):
            for uid in sorted(hero.items):
                where = state.item(uid).location
                if where in evidence_spots(state, piece.id) and where not in piece.mat:
                    found.append((piece.id, where, (uid,)))
        elif task.kind == "boat":
            found += mats.boat_options(state, hero, piece)
        elif task.kind == "scarabs":
            found += mats.scarab_options(state, hero, piece, bonus(state, hero))
        elif task.kind == "cure" and not mats.cure_done(state, piece):
            found += mats.cure_options(state, hero, piece)
        elif task.kind == "humanity":
            found += mats.teach_options(state, hero, piece, bonus(state, hero))
    return found


def evidence_spots(state: HorrifiedState, monster: str) -> list[int]:
    board = state.components.board
    return [board.index(name) for name in state.components.monsters[monster].task.locations]


def task_done(state: HorrifiedState, monster: str) -> bool:
    """The monster's task complete (HF-GOAL-01): coffins all smashed, evidence spots all filled, the Boat on the Lair,
    the scarabs solved, the Cure found, both dials flipped."""
    piece = state.piece(monster)
    if piece is None:
        return True
    task = spec_of(state, monster).task
    if task.kind == "coffins":
        return not piece.coffins
    if task.kind == "evidence":
        return len(piece.mat) == len(evidence_spots(state, monster))
    if task.kind == "boat":
        return piece.progress == len(task.path)
    if task.kind == "scarabs":
        return mats.scarabs_done(piece)
    if task.kind == "cure":
        return mats.cure_done(state, piece)
    return mats.pair_done(state)


def defeat_options(state: HorrifiedState, hero: Hero) -> list[tuple[str, tuple[int, ...]]]:
    """(monster, items) for each Defeat the hero may take here: in the monster's space, its task done (HF-ACT-07);
    the Wolf Man only by the hero holding the Cure; Frankenstein and the Bride never (they are defeated by meeting)."""
    found: list[tuple[str, tuple[int, ...]]] = []
    for piece in state.in_game():
        if piece.pos != hero.pos or not task_done(state, piece.id):
            continue
        spec = spec_of(state, piece.id)
        defeat = spec.defeat
        if spec.task.kind == "cure" and not hero.cure:
            continue
        if defeat.kind == "one-each":
            chosen = mats.one_each(state, hero)
            found += [(piece.id, chosen)] if chosen is not None else []
        elif defeat.kind == "threshold" and defeat.colour is not None:
            found += [(piece.id, uids) for uids in payments(state, hero, defeat.colour, defeat.threshold)]
    return found


def advance(state: HorrifiedState, hero: Hero, monster: str, spot: int, items: tuple[int, ...]) -> None:
    """Smash a coffin (HF-M-DRA: the red items are discarded), place evidence on the mat (HF-M-INV), or the other
    monsters' Advance (`mats.py`)."""
    piece = state.piece(monster)
    assert piece is not None
    kind = spec_of(state, monster).task.kind
    if kind == "coffins":
        spend(state, hero, items)
        piece.coffins.remove(spot)
        state.emit("coffin smashed", at=state.components.board.names[spot], left=len(piece.coffins))
    elif kind == "evidence":
        hero.items.remove(items[0])
        piece.mat[spot] = items[0]
        state.emit("evidence", at=state.components.board.names[spot], filled=len(piece.mat))
    elif kind == "boat":
        mats.sail(state, hero, piece, spot, items)
    elif kind == "scarabs":
        mats.break_the_curse(state, hero, piece, spot, items)
    elif kind == "cure":
        mats.test_ingredient(state, hero, piece, spot, items)
    else:
        mats.teach(state, hero, piece, spot, items)


def defeat(state: HorrifiedState, hero: Hero, monster: str, items: tuple[int, ...]) -> None:
    """The monster leaves the game: items on its mat to the discard pile, the frenzy marker passed on (HF-DEF-01)."""
    piece = state.piece(monster)
    assert piece is not None
    spend(state, hero, items)
    if spec_of(state, monster).task.kind == "cure":
        hero.cure = False  # HF-M-WOL: the Cure is discarded with the red items
    had_frenzy = state.frenzied == monster
    piece.defeated = True
    state.discard.extend(piece.mat[k] for k in sorted(piece.mat))
    piece.mat = {}
    state.emit("monster defeated", monster=monster, hero=hero.id)
    if had_frenzy:
        frenzy_next(state)
    check_win(state)


def power(state: HorrifiedState, monster: str, faces: int) -> None:
    """The monster's Power, once per Power face, after the hits (docs/rulings.md R-HF-02)."""
    piece = state.piece(monster)
    if piece is None or faces <= 0:
        return
    spec = spec_of(state, monster)
    kind = spec.power
    if kind == "dark-charm":  # HF-M-DRA: the current player's hero to Dracula's space (off the board: nothing)
        hero = state.current
        if hero.pos != OFF_BOARD and hero.pos != piece.pos:
            hero.pos = piece.pos
            state.emit("dark charm", hero=hero.id)
    elif kind == "stalk-unseen":  # HF-M-INV: 2 spaces per face toward the closest villager
        goal = closest_person(state, piece.pos, False, villagers_only=True)
        if goal is None:
            return
        for _ in range(faces * spec.power_amount):
            if piece.pos == goal:
                break
            piece.pos = step_toward(state, piece.pos, goal, False)
        state.emit("stalks", monster=monster, to=state.components.board.names[piece.pos])
    elif kind == "rock-the-boat":
        mats.rock_the_boat(state, piece, faces)
    elif kind == "fortify-the-curse":
        mats.fortify_the_curse(state, piece, faces)
    elif kind == "vicious-bite":
        mats.vicious_bite(state, piece, faces)
    else:
        mats.here_comes_the_bride(state, faces)
