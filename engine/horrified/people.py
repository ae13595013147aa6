"""What happens to people and things: moving toward someone along a shortest path (ties to the current player), the
closest person, hits on heroes and villagers, terror, items drawn and placed, perks drawn, frenzy passed on, and the
end of the game (HF-MON-03..06, HF-HIT, HF-GOAL, HF-FRZ, HF-ITEM-03, HF-VILL-01)."""

from __future__ import annotations

from clix.engine.core import decisions
from clix.engine.horrified.board import UNREACHABLE
from clix.engine.horrified.state import OFF_BOARD, OVER, Hero, HorrifiedState

TAKE_THE_HIT = "take the hit"


def finish(state: HorrifiedState, won: bool, reason: str) -> None:
    """The game ends at once (HF-GOAL-01..03): the team (seat 1 stands for it) wins or every seat loses."""
    if state.over:
        return
    state.over = True
    state.phase = OVER
    state.winner = 1 if won else None
    state.end_reason = reason
    state.emit("game over", won=won, reason=reason)


def raise_terror(state: HorrifiedState, why: str) -> None:
    """+1 terror; at the skull the players lose (HF-GOAL-02)."""
    state.terror += 1
    state.emit("terror", level=state.terror, why=why)
    if state.terror >= state.components.skull:
        finish(state, False, "terror")


def check_win(state: HorrifiedState) -> None:
    """Every monster defeated: the players win at once (HF-GOAL-01)."""
    if not state.in_game():
        finish(state, True, "all monsters defeated")


# --- items and perks ------------------------------------------------------------------------------


def draw_item(state: HorrifiedState) -> int | None:
    """One item from the bag; an empty bag is refilled from the discard pile, shuffled (HF-ITEM-03). None: both empty."""
    if not state.bag and state.discard:
        order = decisions.shuffle(state, len(state.discard))
        state.bag = [state.discard[k] for k in order]
        state.discard = []
        state.emit("bag refilled", items=len(state.bag))
    return state.bag.pop() if state.bag else None


def place_items(state: HorrifiedState, count: int) -> None:
    """Draw `count` items and put each at the location printed on it (HF-SETUP-04, HF-MON-01)."""
    for _ in range(count):
        uid = draw_item(state)
        if uid is None:
            state.emit("no item to draw")
            return
        where = state.item(uid).location
        state.at.setdefault(where, []).append(uid)


def spend(state: HorrifiedState, hero: Hero, uids: tuple[int, ...] | list[int]) -> None:
    """Items used go to the discard pile (HF-ITEM-03)."""
    for uid in uids:
        hero.items.remove(uid)
        state.discard.append(uid)


def draw_perk(state: HorrifiedState, hero: Hero) -> None:
    """The hero's player draws a perk (HF-VILL-01); none left: nothing (docs/rulings.md R-HF-06)."""
    if state.perk_deck:
        hero.perks.append(state.perk_deck.pop())


def check_safe(state: HorrifiedState, villager: int) -> None:
    """A villager at its safe location leaves the board and the current player draws a perk (HF-VILL-01)."""
    name, safe = state.components.villagers[villager]
    if state.villagers.get(villager) == safe:
        del state.villagers[villager]
        state.emit("villager safe", villager=name)
        draw_perk(state, state.current)


# --- frenzy ---------------------------------------------------------------------------------------


def frenzy_next(state: HorrifiedState) -> None:
    """The frenzy marker to the monster of the next higher Frenzy Order in the game, wrapping to the lowest; with one
    monster left it stays (HF-FRZ-01)."""
    mats = state.components.monsters  # the Bride is on Frankenstein's mat: only he is frenzied (HF-M-FRB)
    left = sorted((m for m in state.in_game() if m.id in mats), key=lambda m: mats[m.id].frenzy_order)
    if not left:
        return
    orders = [state.components.monsters[m.id].frenzy_order for m in left]
    mine = state.components.monsters[state.frenzied].frenzy_order if state.frenzied in state.components.monsters else 0
    higher = [m for m, order in zip(left, orders, strict=True) if order > mine]
    state.frenzied = (higher[0] if higher else left[0]).id
    state.emit("frenzy", monster=state.frenzied)


# --- where people are ----------------------------------------------------------------------------


def heroes_at(state: HorrifiedState, pos: int) -> list[Hero]:
    return [h for h in state.heroes if h.pos == pos and h.pos != OFF_BOARD]


def villagers_at(state: HorrifiedState, pos: int) -> list[int]:
    return sorted(v for v, at in state.villagers.items() if at == pos)


def someone_at(state: HorrifiedState, pos: int) -> bool:
    return bool(heroes_at(state, pos) or villagers_at(state, pos))


def closest_person(state: HorrifiedState, start: int, water: bool, villagers_only: bool = False) -> int | None:
    """The location of the closest person (HF-MON-03): a hero before a villager at equal distance, then the current
    player's choice (HF-MON-04, a decision `closest`); None when nobody can be reached."""
    board = state.components.board
    found: list[tuple[int, int, int]] = []  # (distance, a hero 0 / a villager 1, where)
    if not villagers_only:
        found += [(board.distance(start, h.pos, water), 0, h.pos) for h in state.heroes if h.pos != OFF_BOARD]
    found += [(board.distance(start, at, water), 1, at) for at in state.villagers.values()]
    found = [f for f in found if f[0] < UNREACHABLE]
    if not found:
        return None
    best = min(f[:2] for f in found)
    tied = sorted({f[2] for f in found if f[:2] == best})
    if len(tied) == 1:
        return tied[0]
    return int(decisions.ask(state, "closest", state.active, tied, subject="the person a monster moves toward"))


def step_toward(state: HorrifiedState, at: int, goal: int, water: bool) -> int:
    """One step along a shortest path from `at` to `goal`; several: the current player's choice (HF-MON-03, a
    decision `path`)."""
    steps = list(state.components.board.steps_toward(at, goal, water))
    if not steps:
        return at
    return int(decisions.ask(state, "path", state.active, steps, subject="which shortest path"))


def monster_water(monster: str) -> bool:
    """Only the Creature uses water spaces and paths (HF-M-CRE, HF-MON-03)."""
    return monster == "creature"


def move_monster_toward_person(state: HorrifiedState, monster: str, moves: int) -> None:
    """Up to `moves` spaces toward the closest person, stopping with a person; none when it starts with one
    (HF-MON-03)."""
    piece = state.piece(monster)
    if piece is None or someone_at(state, piece.pos):
        return
    water = monster_water(monster)
    goal = closest_person(state, piece.pos, water)
    if goal is None:
        return
    start = piece.pos
    for _ in range(moves):
        piece.pos = step_toward(state, piece.pos, goal, water)
        if someone_at(state, piece.pos) or piece.pos == goal:
            break
    if piece.pos != start:
        state.emit("monster moves", monster=monster, to=state.components.board.names[piece.pos])


# --- hits -----------------------------------------------------------------------------------------


def hit_hero(state: HorrifiedState, hero: Hero, hits: int, monster: str) -> None:
    """Each hit: discard one item (not the Cure) to ignore it, else the hero is defeated: +1 terror, off the board
    until its player's next turn, items and perks kept (HF-HIT-01; a decision `defend` for its player)."""
    for _ in range(hits):
        if hero.pos == OFF_BOARD or state.over:
            return
        options: list[object] = [TAKE_THE_HIT, *sorted(hero.items)]
        choice = decisions.ask(state, "defend", hero.player, options, subject=f"a hit by {monster}")
        if choice == TAKE_THE_HIT:
            hero.pos = OFF_BOARD
            state.defeated_heroes.append(hero.id)
            state.emit("hero defeated", hero=hero.id, monster=monster)
            raise_terror(state, f"{hero.id} defeated")
            return
        spend(state, hero, [int(choice)])  # type: ignore[call-overload]
        state.emit("hit ignored", hero=hero.id, item=int(choice))  # type: ignore[call-overload]


def hit_villager(state: HorrifiedState, villager: int, monster: str) -> None:
    """A villager hit is defeated: removed, +1 terror (HF-HIT-02)."""
    if villager in state.villagers:
        del state.villagers[villager]
        state.emit("villager defeated", villager=state.components.villagers[villager][0], monster=monster)
        raise_terror(state, "villager defeated")
