"""The tasks, defeats and powers of the Creature (HF-M-CRE), the Mummy (HF-M-MUM), the Wolf Man (HF-M-WOL) and
Frankenstein & the Bride (HF-M-FRB), and the Mummy's and Wolf Man's first events (docs/rulings.md R-HF-21..30).
`monsters.py` dispatches here by the task's kind (rosters/horrified/monsters.yaml)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import cache

from clix.engine.core import decisions
from clix.engine.horrified.library import PAIRED, Monster
from clix.engine.horrified.people import (
    check_win,
    frenzy_next,
    heroes_at,
    hit_hero,
    hit_villager,
    raise_terror,
    spend,
    step_toward,
    villagers_at,
)
from clix.engine.horrified.state import OFF_BOARD, Hero, HorrifiedState, MonsterPiece

DONE = "done"
"""The answer that ends a Mummy Advance's moves early (HF-M-MUM: the full number is not required)."""


def spec_of(state: HorrifiedState, monster: str) -> Monster:
    """The mat a figure belongs to: the Bride's is Frankenstein's (HF-M-FRB)."""
    return state.components.monsters[PAIRED.get(monster, monster)]


def weakest(state: HorrifiedState, hero: Hero, colour: str) -> int | None:
    """The hero's weakest item of `colour` (where strength does not matter, the one to give up), or None."""
    mine = sorted((state.item(u).strength, u) for u in hero.items if state.item(u).colour == colour)
    return mine[0][1] if mine else None


def by_strength(state: HorrifiedState, hero: Hero, colour: str) -> list[int]:
    """One item of `colour` per strength the hero holds (the same strength does the same), weakest first."""
    seen: dict[int, int] = {}
    for uid in sorted(hero.items):
        item = state.item(uid)
        if item.colour == colour:
            seen.setdefault(item.strength, uid)
    return [seen[s] for s in sorted(seen)]


# --- the Creature (HF-M-CRE) ---------------------------------------------------------------------------------


def next_x(path: Sequence[str], at: int, colour: str) -> int | None:
    """The next X of `colour` after X `at` on the lagoon path (X 1..len; 0 the Start), or None (HF-M-CRE)."""
    for k in range(at, len(path)):
        if path[k] == colour:
            return k + 1
    return None


def boat_options(state: HorrifiedState, hero: Hero, piece: MonsterPiece) -> list[tuple[str, int, tuple[int, ...]]]:
    """At the Camp, one item of a colour whose next X exists: (creature, that X, (the weakest such item,))."""
    task = spec_of(state, piece.id).task
    if task.at is None or hero.pos != state.components.board.index(task.at):
        return []
    found: list[tuple[str, int, tuple[int, ...]]] = []
    for colour in ("red", "blue", "yellow"):
        to, uid = next_x(task.path, piece.progress, colour), weakest(state, hero, colour)
        if to is not None and uid is not None:
            found.append((piece.id, to, (uid,)))
    return found


def sail(state: HorrifiedState, hero: Hero, piece: MonsterPiece, to: int, items: tuple[int, ...]) -> None:
    """The item is discarded and the Boat moves to the next X of its colour (HF-M-CRE)."""
    spend(state, hero, items)
    piece.progress = to
    state.emit("boat", x=to, lair=to == len(spec_of(state, piece.id).task.path))


def rock_the_boat(state: HorrifiedState, piece: MonsterPiece, faces: int) -> None:
    """Rock the Boat: back one X per Power face; at the Start nothing (HF-M-CRE)."""
    if piece.progress > 0:
        piece.progress = max(0, piece.progress - faces)
        state.emit("rock the boat", x=piece.progress)


def one_each(state: HorrifiedState, hero: Hero) -> tuple[int, ...] | None:
    """One red, one blue and one yellow item (strength irrelevant: the weakest of each), or None (HF-M-CRE)."""
    chosen = [weakest(state, hero, colour) for colour in ("red", "blue", "yellow")]
    return None if any(u is None for u in chosen) else tuple(sorted(u for u in chosen if u is not None))


# --- the Mummy (HF-M-MUM) ------------------------------------------------------------------------------------


@cache
def _slide_distances(grooves: tuple[tuple[int, int], ...], size: int) -> dict[tuple[int, ...], int]:
    """Slides from every arrangement to the solved one (spot k holds scarab k, spot 0 empty): a search backwards
    from the solution over every arrangement the grooves reach (7 spots: 5,040 arrangements, once per process)."""
    joined: dict[int, list[int]] = {k: [] for k in range(size)}
    for a, b in grooves:
        joined[a].append(b)
        joined[b].append(a)
    goal = tuple(range(size))
    seen = {goal: 0}
    queue: deque[tuple[int, ...]] = deque([goal])
    while queue:
        here = queue.popleft()
        empty = here.index(0)
        for spot in joined[empty]:
            there = list(here)
            there[empty], there[spot] = there[spot], 0
            key = tuple(there)
            if key not in seen:
                seen[key] = seen[here] + 1
                queue.append(key)
    return seen


def tablet_distance(state: HorrifiedState, monster: str, tablet: list[int]) -> int:
    """The fewest moves that solve the tablet: every face-down scarab flipped (one move each, and needed before it
    slides) plus the fewest slides (HF-M-MUM); a large number when the grooves cannot solve it."""
    task = spec_of(state, monster).task
    slides = _slide_distances(tuple(task.grooves), len(task.start))
    return sum(1 for s in tablet if s < 0) + slides.get(tuple(abs(s) for s in tablet), 1000)


def scarab_moves(state: HorrifiedState, piece: MonsterPiece) -> list[str]:
    """One move's options: done, flip a face-down scarab up (`flip:SPOT`), or slide a face-up scarab along a groove
    into the empty spot (`slide:FROM-TO`) (HF-M-MUM)."""
    tablet = piece.tablet
    empty = tablet.index(0)
    found = [DONE] + [f"flip:{k}" for k, s in enumerate(tablet) if s < 0]
    for a, b in spec_of(state, piece.id).task.grooves:
        for src, dst in ((a, b), (b, a)):
            if dst == empty and tablet[src] > 0:
                found.append(f"slide:{src}-{dst}")
    return found


def scarab_options(
    state: HorrifiedState, hero: Hero, piece: MonsterPiece, extra: int
) -> list[tuple[str, int, tuple[int, ...]]]:
    """At the Museum, one yellow item (one per strength) while the tablet is unsolved: (mummy, its moves, (item,))."""
    task = spec_of(state, piece.id).task
    if task.at is None or hero.pos != state.components.board.index(task.at) or scarabs_done(piece):
        return []
    return [(piece.id, state.item(u).strength + extra, (u,)) for u in by_strength(state, hero, "yellow")]


def break_the_curse(state: HorrifiedState, hero: Hero, piece: MonsterPiece, moves: int, items: tuple[int, ...]) -> None:
    """The yellow item is discarded, then up to `moves` moves, each a decision `scarab` of the current player."""
    spend(state, hero, items)
    for _ in range(moves):
        choice = str(decisions.ask(state, "scarab", state.active, scarab_moves(state, piece), subject="a scarab move"))
        if choice == DONE:
            break
        piece.tablet = after_move(piece.tablet, choice)
    state.emit("scarabs", tablet=tuple(piece.tablet), solved=scarabs_done(piece))


def after_move(tablet: list[int], move: str) -> list[int]:
    """The tablet after one move (`flip:SPOT` or `slide:FROM-TO`, `scarab_moves`)."""
    kind, _, where = move.partition(":")
    after = list(tablet)
    if kind == "flip":
        after[int(where)] = abs(after[int(where)])
    elif kind == "slide":
        src, _, dst = where.partition("-")
        after[int(dst)], after[int(src)] = after[int(src)], 0
    return after


def scarabs_done(piece: MonsterPiece) -> bool:
    """Every scarab face up on the spot of its number (HF-M-MUM)."""
    return all(s == k for k, s in enumerate(piece.tablet))


def fortify_the_curse(state: HorrifiedState, piece: MonsterPiece, faces: int) -> None:
    """Fortify the Curse: per face, the lowest-numbered face-up scarab flips face down; none up: nothing (HF-M-MUM)."""
    for _ in range(faces):
        up = [s for s in piece.tablet if s > 0]
        if not up:
            return
        spot = piece.tablet.index(min(up))
        piece.tablet[spot] = -piece.tablet[spot]
        state.emit("fortify the curse", scarab=min(up))


# --- the Wolf Man (HF-M-WOL) ---------------------------------------------------------------------------------


def cure_options(state: HorrifiedState, hero: Hero, piece: MonsterPiece) -> list[tuple[str, int, tuple[int, ...]]]:
    """At the Laboratory, a blue item whose strength matches an empty spot: (wolf-man, the first such spot, (item,))."""
    task = spec_of(state, piece.id).task
    if task.at is None or hero.pos != state.components.board.index(task.at):
        return []
    found: list[tuple[str, int, tuple[int, ...]]] = []
    for uid in by_strength(state, hero, "blue"):
        spots = [k for k, s in enumerate(task.strengths) if s == state.item(uid).strength and k not in piece.mat]
        if spots:
            found.append((piece.id, spots[0], (uid,)))
    return found


def test_ingredient(state: HorrifiedState, hero: Hero, piece: MonsterPiece, spot: int, items: tuple[int, ...]) -> None:
    """The blue item goes on its spot; the sixth one gives the current player's hero the Cure (HF-M-WOL)."""
    hero.items.remove(items[0])
    piece.mat[spot] = items[0]
    state.emit("ingredient", filled=len(piece.mat))
    if cure_done(state, piece):
        state.current.cure = True
        state.emit("cure", hero=state.current.id)


def cure_done(state: HorrifiedState, piece: MonsterPiece) -> bool:
    return len(piece.mat) == len(spec_of(state, piece.id).task.strengths)


def vicious_bite(state: HorrifiedState, piece: MonsterPiece, faces: int) -> None:
    """Vicious Bite: every hero and villager in his space takes one hit per face (HF-M-WOL, HF-HIT-01..02)."""
    state.emit("vicious bite", faces=faces)
    for hero in heroes_at(state, piece.pos):
        hit_hero(state, hero, faces, piece.id)
    for villager in villagers_at(state, piece.pos):
        if not state.over:
            hit_villager(state, villager, piece.id)


# --- first events: the Soul sign and the Hunted emblem -----------------------------------------------------------


def lure(state: HorrifiedState, piece: MonsterPiece) -> None:
    """The first Mummy or Wolf Man event: the current player takes the Soul sign / Hunted emblem for the game; their
    hero moves `lure` spaces toward the Mummy, or the Wolf Man `lure` spaces toward their hero (docs/rulings.md
    R-HF-22); a hero off the board moves nowhere and draws nobody."""
    hero = state.current
    piece.holder = hero.id
    state.emit("soul sign" if piece.id == "mummy" else "hunted", hero=hero.id)
    _draw_together(state, piece, hero)


def follow_sign(state: HorrifiedState, piece: MonsterPiece) -> None:
    """A later event that reads the sign (`MonsterDeck.sign_events`, assumed; R-HF-22): the holder's hero moves `lure`
    spaces toward the Mummy, or the Wolf Man `lure` spaces toward the holder's hero, as the first event did."""
    hero = next((h for h in state.heroes if h.id == piece.holder), None)
    if hero is None:
        return
    state.emit("sign read", monster=piece.id, hero=hero.id)
    _draw_together(state, piece, hero)


def _draw_together(state: HorrifiedState, piece: MonsterPiece, hero: Hero) -> None:
    """The hero `lure` spaces toward the Mummy, or the Wolf Man `lure` spaces toward the hero (lit paths, stopping on
    arrival); a hero off the board moves nowhere and draws nobody."""
    if hero.pos == OFF_BOARD:
        return
    for _ in range(spec_of(state, piece.id).lure):
        if hero.pos == piece.pos:
            break
        if piece.id == "mummy":
            hero.pos = step_toward(state, hero.pos, piece.pos, False)
        else:
            piece.pos = step_toward(state, piece.pos, hero.pos, False)


# --- Frankenstein & the Bride (HF-M-FRB) ---------------------------------------------------------------------


def flipped(state: HorrifiedState, piece: MonsterPiece) -> bool:
    """The dial turned over: humanity at or past the figure's target (11 Frankenstein, 8 the Bride)."""
    task = spec_of(state, piece.id).task
    target = task.partner.threshold if piece.id in PAIRED and task.partner else task.threshold
    return piece.progress >= target


def pair(state: HorrifiedState) -> tuple[MonsterPiece, MonsterPiece] | None:
    monster, bride = state.piece("frankenstein"), state.piece("bride")
    return (monster, bride) if monster is not None and bride is not None else None


def pair_done(state: HorrifiedState) -> bool:
    """Both dials flipped (HF-M-FRB)."""
    both = pair(state)
    return both is not None and flipped(state, both[0]) and flipped(state, both[1])


def teach_options(
    state: HorrifiedState, hero: Hero, piece: MonsterPiece, extra: int
) -> list[tuple[str, int, tuple[int, ...]]]:
    """In the figure's space, one item of its colour (yellow Frankenstein, blue the Bride), one per strength."""
    task = spec_of(state, piece.id).task
    colour = task.partner.colour if piece.id in PAIRED and task.partner else task.colour
    if piece.pos != hero.pos or colour is None:
        return []
    return [(piece.id, state.item(u).strength + extra, (u,)) for u in by_strength(state, hero, colour)]


def teach(state: HorrifiedState, hero: Hero, piece: MonsterPiece, amount: int, items: tuple[int, ...]) -> None:
    """Humanity +`amount`; then the figure may be moved up to `amount` spaces (a decision `steer` of the current
    player among the land locations that near, staying first; docs/rulings.md R-HF-27); then the pair may meet."""
    spend(state, hero, items)
    was = flipped(state, piece)
    piece.progress += amount
    state.emit("humanity", monster=piece.id, score=piece.progress)
    if flipped(state, piece) and not was:
        state.emit("dial flipped", monster=piece.id)
    board = state.components.board
    near = [k for k in range(board.size) if k != piece.pos and board.distance(piece.pos, k) <= amount]
    piece.pos = int(decisions.ask(state, "steer", state.active, [piece.pos, *near], subject=f"where {piece.id} goes"))
    check_pair(state)


def here_comes_the_bride(state: HorrifiedState, faces: int) -> None:
    """Here comes the Bride: after the hits, the Bride one space per face toward Frankenstein (HF-M-FRB)."""
    both = pair(state)
    if both is None:
        return
    monster, bride = both
    for _ in range(faces):
        if bride.pos == monster.pos:
            break
        bride.pos = step_toward(state, bride.pos, monster.pos, False)
    state.emit("here comes the bride", to=state.components.board.names[bride.pos])
    check_pair(state)


def check_pair(state: HorrifiedState) -> None:
    """Frankenstein and the Bride in one space: both dials flipped, they are defeated (no action); else +1 terror and
    they are sent to their places, Frankenstein the Graveyard, the Bride the Dungeon (HF-M-FRB, HF-GOAL-02)."""
    both = pair(state)
    if both is None or both[0].pos != both[1].pos or state.over:
        return
    monster, bride = both
    if flipped(state, monster) and flipped(state, bride):
        monster.defeated = bride.defeated = True
        state.emit("monster defeated", monster="frankenstein", hero=state.current.id)
        if state.frenzied == monster.id:
            frenzy_next(state)
        check_win(state)
        return
    task = spec_of(state, monster.id).task
    assert task.sent_to is not None and task.partner is not None
    board = state.components.board
    monster.pos, bride.pos = board.index(task.sent_to), board.index(task.partner.sent_to)
    state.emit("the pair meet too soon")
    raise_terror(state, "Frankenstein and the Bride met")
