"""A Horrified game set up (HF-SETUP-01..04, HF-SOLO-01, HF-DIFF-01): monsters at their starts, heroes at theirs, a
perk each, 12 items placed, the decks shuffled with the game's one generator; ready for the first player's action."""

from __future__ import annotations

from collections.abc import Sequence

from clix.engine.core import decisions
from clix.engine.core.dice import Dice
from clix.engine.core.pieces import Player
from clix.engine.horrified.components import Components
from clix.engine.horrified.library import PAIRED, PLAYED_MONSTERS
from clix.engine.horrified.people import place_items
from clix.engine.horrified.rules import begin_turn
from clix.engine.horrified.ruleset import load
from clix.engine.horrified.state import Hero, HorrifiedState, MonsterPiece


class SetupError(ValueError):
    """A line-up the rules or this slice do not allow; the message says which and what to choose instead."""


def check_lineup(components: Components, monsters: Sequence[str], heroes: Sequence[str]) -> None:
    """One line per mistake: 1-4 players (one hero each), known and distinct heroes and monsters, monsters this
    slice plays, no Courier solo (HF-SOLO-01)."""
    if not 1 <= len(heroes) <= 4:
        raise SetupError(f"Horrified is for 1 to 4 players (one hero each), not {len(heroes)}")
    for hero in heroes:
        if hero not in components.heroes:
            raise SetupError(f"no hero is called {hero!r}; choose from {', '.join(sorted(components.heroes))}")
    if len(set(heroes)) != len(heroes):
        raise SetupError("each player plays a different hero")
    if len(heroes) == 1 and not components.heroes[heroes[0]].solo:
        raise SetupError(f"the {heroes[0]} cannot play solo (HF-SOLO-01); choose another hero")
    if not monsters or len(set(monsters)) != len(monsters):
        raise SetupError("choose one or more different monsters")
    for monster in monsters:
        if monster in PAIRED:
            owner = PAIRED[monster]
            raise SetupError(f"the {monster} comes with {owner} (one mat, HF-M-FRB); choose {owner}")
        if monster not in components.monsters:
            playable = ", ".join(m for m in PLAYED_MONSTERS if m in components.monsters)
            raise SetupError(f"the monster {monster!r} is not played yet; choose from {playable}")


def new_game(
    components: Components,
    monsters: Sequence[str],
    heroes: Sequence[str],
    dice: Dice | None,
) -> HorrifiedState:
    """A game of `heroes` (one per player, in seat order) against `monsters`, set up with `dice`'s generator."""
    check_lineup(components, monsters, heroes)
    players = [Player(k + 1, 1) for k in range(len(heroes))]
    state = HorrifiedState(components, dice, players, ruleset=load())
    decisions.perform(state, _setup, (tuple(monsters), tuple(heroes)))
    return state


def _setup(state: HorrifiedState, lineup: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
    monsters, heroes = lineup
    c = state.components
    board = c.board
    state.terror = c.solo_start if len(heroes) == 1 else 0  # HF-SETUP-01, HF-SOLO-01
    order = sorted(monsters, key=lambda m: c.monsters[m].frenzy_order)  # HF-SETUP-02
    for monster in order:
        spec = c.monsters[monster]
        task = spec.task
        coffins = [board.index(n) for n in task.locations] if task.kind == "coffins" else []
        tablet = list(task.start) if task.kind == "scarabs" else []  # HF-M-MUM: all face up (R-HF-24)
        state.pieces.append(MonsterPiece(monster, board.index(spec.start), coffins=coffins, tablet=tablet))
        if task.partner is not None:  # HF-M-FRB: the Bride comes with Frankenstein
            state.pieces.append(MonsterPiece(task.partner.id, board.index(task.partner.start)))
    state.frenzied = order[0]
    state.heroes = [Hero(h, k + 1, c.heroes[h].start) for k, h in enumerate(heroes)]  # HF-SETUP-03
    perks = [k for k, p in enumerate(c.perks) if p.solo or len(heroes) > 1]  # HF-PERK-02
    state.perk_deck = [perks[k] for k in decisions.shuffle(state, len(perks))]
    for hero in state.heroes:
        if state.perk_deck:
            hero.perks.append(state.perk_deck.pop())
    state.bag = list(decisions.shuffle(state, len(c.items)))  # HF-SETUP-04
    place_items(state, c.initial_draw)
    state.deck = list(decisions.shuffle(state, len(c.cards)))  # HF-SETUP-01
    state.emit("setup", monsters=tuple(order), heroes=heroes)
    begin_turn(state)
