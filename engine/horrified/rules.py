"""The hero phase and the turn (HF-TURN-01, HF-ACT-01..07, HF-PERK-01): the legal actions the engine lists, each
applied as one step of the core's contract; ending the hero phase runs the monster phase and passes the turn."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from clix.engine.core import decisions
from clix.engine.horrified.mats import check_pair
from clix.engine.horrified.monsters import advance, advance_options, defeat, defeat_options
from clix.engine.horrified.people import check_safe, place_items, villagers_at
from clix.engine.horrified.state import HERO_PHASE, MONSTER_PHASE, OFF_BOARD, HorrifiedState
from clix.engine.horrified.strike import monster_phase

MAX_CARRIED = 4
"""With more villagers than this in the hero's space, a Move lists alone, all, or each one (not every subset)."""


@dataclass(frozen=True)
class Move:
    to: int
    villagers: tuple[int, ...] = ()


@dataclass(frozen=True)
class Guide:
    villager: int
    to: int


@dataclass(frozen=True)
class PickUp:
    pass


@dataclass(frozen=True)
class Share:
    pass


@dataclass(frozen=True)
class Advance:
    monster: str
    spot: int
    items: tuple[int, ...]


@dataclass(frozen=True)
class Defeat:
    monster: str
    items: tuple[int, ...]


@dataclass(frozen=True)
class Special:
    kind: str
    to: int
    hero: int = -1
    """move-other-hero: the index of the hero moved."""


@dataclass(frozen=True)
class PlayPerk:
    holder: int
    """The index of the hero whose player holds the perk."""
    perk: int


@dataclass(frozen=True)
class EndPhase:
    pass


Action = Move | Guide | PickUp | Share | Advance | Defeat | Special | PlayPerk | EndPhase


def legal_actions(state: HorrifiedState) -> list[Action]:
    """Every action the active player may take now: perks (any player's, free, HF-PERK-01), ending the hero phase,
    and with actions left the hero's actions (HF-ACT-01..07)."""
    if state.over:
        return []
    found: list[Action] = [EndPhase()]
    for k, hero in enumerate(state.heroes):
        found += [PlayPerk(k, perk) for perk in sorted(set(hero.perks))]
    hero = state.current
    if state.actions_left <= 0 or hero.pos == OFF_BOARD:
        return found
    board = state.components.board
    here = villagers_at(state, hero.pos)
    for to in board.land[hero.pos]:
        found += [Move(to, group) for group in _groups(here)]
    for v in here:
        found += [Guide(v, to) for to in board.land[hero.pos]]
    for to in board.land[hero.pos]:
        found += [Guide(v, hero.pos) for v in villagers_at(state, to)]
    if state.at.get(hero.pos):
        found.append(PickUp())
    together = [h for h in state.heroes if h.pos == hero.pos]
    if len(together) > 1 and any(h.items or h.cure for h in together):
        found.append(Share())
    found += [Advance(m, spot, items) for m, spot, items in advance_options(state, hero)]
    found += [Defeat(m, items) for m, items in defeat_options(state, hero)]
    found += _specials(state)
    return found


def _groups(villagers: list[int]) -> list[tuple[int, ...]]:
    """The villagers a Move may bring along (HF-ACT-01): every subset, or alone/each/all when there are many."""
    if len(villagers) <= MAX_CARRIED:
        return [g for size in range(len(villagers) + 1) for g in combinations(villagers, size)]
    return [(), *((v,) for v in villagers), tuple(villagers)]


def _specials(state: HorrifiedState) -> list[Action]:
    """The hero's special action (HF-ACT-03) as its badge's effect kind (heroes.yaml; docs/horrified.md)."""
    hero = state.current
    spec = state.components.heroes[hero.id]
    board = state.components.board
    kind = spec.special
    if kind == "pick-up-adjacent":
        return [Special(kind, to) for to in board.land[hero.pos] if state.at.get(to)]
    if kind == "move-to-hero" and len(state.heroes) > 1:
        return [Special(kind, to) for to in sorted({h.pos for h in state.heroes if h.pos not in (OFF_BOARD, hero.pos)})]
    if kind == "move-anywhere":
        return [Special(kind, to) for to in range(board.size) if not board.is_water(to) and to != hero.pos]
    if kind == "move-to-monster":
        places = {m.pos for m in state.in_game() if not board.is_water(m.pos)}
        return [Special(kind, to) for to in sorted(places - {hero.pos})]
    if kind == "move-other-hero":
        return [
            Special(kind, to, k)
            for k, other in enumerate(state.heroes)
            if other is not hero and other.pos != OFF_BOARD
            for to in board.land[other.pos]
        ]
    return []


def apply(state: HorrifiedState, action: Action, listed: bool = False) -> None:
    """Take `action` (one listed by `legal_actions`; unlisted ones are checked) as one step of the game."""
    if not listed and action not in legal_actions(state):
        raise ValueError(f"{action} is not legal now")
    decisions.perform(state, _act, action)


def _act(state: HorrifiedState, action: Action) -> None:
    hero = state.current
    if isinstance(action, EndPhase):
        end_turn(state)
        return
    if isinstance(action, PlayPerk):
        play_perk(state, action)
        check_pair(state)
        return
    state.actions_left -= 1
    if isinstance(action, Move):
        hero.pos = action.to
        for v in action.villagers:
            state.villagers[v] = action.to
            check_safe(state, v)
    elif isinstance(action, Guide):
        state.villagers[action.villager] = action.to
        check_safe(state, action.villager)
    elif isinstance(action, PickUp):
        hero.items.extend(state.at.pop(hero.pos, []))
    elif isinstance(action, Share):
        share(state)
    elif isinstance(action, Advance):
        advance(state, hero, action.monster, action.spot, action.items)
    elif isinstance(action, Defeat):
        defeat(state, hero, action.monster, action.items)
    elif isinstance(action, Special):
        special(state, action)
    check_pair(state)  # HF-M-FRB: a perk or an action may bring the pair together
    state.emit("action", action=type(action).__name__)


def share(state: HorrifiedState) -> None:
    """Heroes on the acting hero's space give and take items freely (HF-ACT-05): the current player moves one item at
    a time (a decision `share`, "done" first) until done, at most twice as many moves as there are items."""
    here = [k for k, h in enumerate(state.heroes) if h.pos == state.current.pos]
    limit = 2 * sum(len(state.heroes[k].items) + state.heroes[k].cure for k in here)
    for _ in range(limit):
        options: list[tuple[int, int, int | str] | str] = ["done"]
        for a in here:
            for b in here:
                if a != b:
                    options += [(a, b, uid) for uid in sorted(state.heroes[a].items)]
                    options += [(a, b, "cure")] if state.heroes[a].cure else []
        chosen = decisions.ask(state, "share", state.active, options, subject="give an item")
        if isinstance(chosen, str):
            return
        giver, taker, what = chosen
        if isinstance(what, str):
            state.heroes[giver].cure, state.heroes[taker].cure = False, True
        else:
            state.heroes[giver].items.remove(what)
            state.heroes[taker].items.append(what)


def special(state: HorrifiedState, action: Special) -> None:
    hero = state.current
    if action.kind == "pick-up-adjacent":
        hero.items.extend(state.at.pop(action.to, []))
    elif action.kind == "move-other-hero":
        state.heroes[action.hero].pos = action.to
    else:
        hero.pos = action.to


def play_perk(state: HorrifiedState, action: PlayPerk) -> None:
    """A perk: no action, discarded after use (HF-PERK-01); its effect is its kind (perks.yaml)."""
    holder = state.heroes[action.holder]
    holder.perks.remove(action.perk)
    state.perk_discard.append(action.perk)
    perk = state.components.perks[action.perk]
    state.emit("perk", perk=perk.id, holder=holder.id)
    board = state.components.board
    if perk.effect == "extra-actions":
        state.actions_left += perk.amount
    elif perk.effect == "skip-monster-phase":
        state.skip_monster_phase = True
        place_items(state, perk.amount)
    elif perk.effect == "items-each-player":
        place_items(state, perk.amount * len(state.heroes))
    elif perk.effect == "place-monster":
        piece = state.piece(perk.monster or "")
        if piece is not None:
            land = [k for k in range(board.size) if not board.is_water(k)]
            piece.pos = int(decisions.ask(state, "place", state.active, [piece.pos, *land], subject=perk.monster or ""))
    elif perk.effect == "move-monsters":
        for piece in state.in_game():
            for _ in range(perk.amount):
                ways = [piece.pos, *board.neighbours(piece.pos, piece.id == "creature")]
                piece.pos = int(decisions.ask(state, "push", state.active, ways, subject=piece.id))
    elif perk.effect == "move-heroes":
        for hero in state.heroes:
            for _ in range(perk.amount):
                if hero.pos == OFF_BOARD:
                    break
                hero.pos = int(decisions.ask(state, "hurry", hero.player, [hero.pos, *board.land[hero.pos]]))


def begin_turn(state: HorrifiedState) -> None:
    """The active player's hero phase: a hero defeated since its last turn comes back at the Hospital with its full
    actions (HF-HIT-01)."""
    state.phase = HERO_PHASE
    hero = state.current
    if hero.pos == OFF_BOARD:
        hero.pos = state.components.board.hospital
        state.emit("back from the hospital", hero=hero.id)
    state.actions_left = state.components.heroes[hero.id].actions


def end_turn(state: HorrifiedState) -> None:
    """The monster phase, then the next player clockwise (HF-TURN-01)."""
    state.phase = MONSTER_PHASE
    monster_phase(state)
    if state.over:
        return
    state.turn += 1
    state.active = state.active % len(state.heroes) + 1
    begin_turn(state)


def score(state: HorrifiedState) -> dict[int, int]:
    """Co-operative: every seat scores 1 for a win, 0 otherwise."""
    won = 1 if state.winner is not None else 0
    return {p.number: won for p in state.players}
