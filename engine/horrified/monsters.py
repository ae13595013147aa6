"""The monsters of the first slice: Dracula (HF-M-DRA) and the Invisible Man (HF-M-INV): what Advance and Defeat
actions a hero may take against each, what they do, and each monster's Power (HF-MON-05)."""

from __future__ import annotations

from itertools import combinations

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
    """(monster, spot, items) for each Advance the hero may take here (HF-ACT-06)."""
    found: list[tuple[str, int, tuple[int, ...]]] = []
    for piece in state.in_game():
        spec = state.components.monsters[piece.id]
        task = spec.task
        if task.kind == "coffins" and hero.pos in piece.coffins:
            assert task.colour is not None
            found += [(piece.id, hero.pos, uids) for uids in payments(state, hero, task.colour, task.threshold)]
        elif task.kind == "evidence" and task.at is not None and hero.pos == state.components.board.index(task.at):
            for uid in sorted(hero.items):
                where = state.item(uid).location
                if where in evidence_spots(state, piece.id) and where not in piece.mat:
                    found.append((piece.id, where, (uid,)))
    return found


def evidence_spots(state: HorrifiedState, monster: str) -> list[int]:
    board = state.components.board
    return [board.index(name) for name in state.components.monsters[monster].task.locations]


def task_done(state: HorrifiedState, monster: str) -> bool:
    """Dracula: all 4 coffins smashed; the Invisible Man: all 5 spots filled (HF-GOAL-01)."""
    piece = state.piece(monster)
    if piece is None:
        return True
    if state.components.monsters[monster].task.kind == "coffins":
        return not piece.coffins
    return len(piece.mat) == len(evidence_spots(state, monster))


def defeat_options(state: HorrifiedState, hero: Hero) -> list[tuple[str, tuple[int, ...]]]:
    """(monster, items) for each Defeat the hero may take here: in the monster's space, its task done (HF-ACT-07)."""
    found: list[tuple[str, tuple[int, ...]]] = []
    for piece in state.in_game():
        if piece.pos != hero.pos or not task_done(state, piece.id):
            continue
        defeat = state.components.monsters[piece.id].defeat
        found += [(piece.id, uids) for uids in payments(state, hero, defeat.colour, defeat.threshold)]
    return found


def advance(state: HorrifiedState, hero: Hero, monster: str, spot: int, items: tuple[int, ...]) -> None:
    """Smash a coffin (HF-M-DRA: the red items are discarded) or place evidence on the mat (HF-M-INV)."""
    piece = state.piece(monster)
    assert piece is not None
    if state.components.monsters[monster].task.kind == "coffins":
        spend(state, hero, items)
        piece.coffins.remove(spot)
        state.emit("coffin smashed", at=state.components.board.names[spot], left=len(piece.coffins))
    else:
        hero.items.remove(items[0])
        piece.mat[spot] = items[0]
        state.emit("evidence", at=state.components.board.names[spot], filled=len(piece.mat))


def defeat(state: HorrifiedState, hero: Hero, monster: str, items: tuple[int, ...]) -> None:
    """The monster leaves the game: items on its mat to the discard pile, the frenzy marker passed on (HF-DEF-01)."""
    piece = state.piece(monster)
    assert piece is not None
    spend(state, hero, items)
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
    kind = state.components.monsters[monster].power
    if kind == "dark-charm":  # HF-M-DRA: the current player's hero to Dracula's space (off the board: nothing)
        hero = state.current
        if hero.pos != OFF_BOARD and hero.pos != piece.pos:
            hero.pos = piece.pos
            state.emit("dark charm", hero=hero.id)
    elif kind == "stalk-unseen":  # HF-M-INV: 2 spaces per face toward the closest villager
        goal = closest_person(state, piece.pos, False, villagers_only=True)
        if goal is None:
            return
        for _ in range(faces * state.components.monsters[monster].power_amount):
            if piece.pos == goal:
                break
            piece.pos = step_toward(state, piece.pos, goal, False)
        state.emit("stalks", monster=monster, to=state.components.board.names[piece.pos])
