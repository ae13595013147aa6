"""What must hold in every state of every Horrified game, checked after every action (`clix selfcheck --ruleset
horrified`, the ruleset's `check_game` entry point): random line-ups played by random players (even games) and the
heuristic team (odd games, which win some)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from clix.engine.core.dice import Dice, child_seeds
from clix.engine.core.players import RandomAgent
from clix.engine.core.selfcheck import GameCheck, play_checked
from clix.engine.horrified.components import Components
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.mats import cure_done, pair, spec_of
from clix.engine.horrified.players import TeamPlayer
from clix.engine.horrified.setup import new_game
from clix.engine.horrified.state import OFF_BOARD, OVER, HorrifiedState


def violations(state: HorrifiedState) -> list[str]:
    """Every invariant `state` breaks, one message each (empty when all hold)."""
    found: list[str] = []
    c = state.components
    board = c.board
    places: list[int] = [*state.bag, *state.discard]
    for items in state.at.values():
        places += items
    for hero in state.heroes:
        places += hero.items
    for piece in state.pieces:
        places += piece.mat.values()
    if sorted(places) != list(range(len(c.items))):
        found.append(f"items lost or doubled: {len(places)} placed of {len(c.items)}, {len(set(places))} distinct")
    for where, items in state.at.items():
        if any(state.item(u).location != where for u in items):
            found.append(f"an item lies away from its location at {board.names[where]}")
    if sorted([*state.deck, *state.played]) != list(range(len(c.cards))):
        found.append("monster cards lost or doubled")
    held = [p for h in state.heroes for p in h.perks]
    if len(held) + len(state.perk_deck) + len(state.perk_discard) > len(c.perks):
        found.append("more perk cards than the deck has")
    if not 0 <= state.terror <= c.skull:
        found.append(f"terror {state.terror} outside 0..{c.skull}")
    if state.terror >= c.skull and not (state.over and state.end_reason == "terror"):
        found.append("terror at the skull but the game goes on")
    for hero in state.heroes:
        if hero.pos == OFF_BOARD:
            if hero.id not in state.defeated_heroes and not state.over and state.heroes[state.active - 1] is hero:
                found.append(f"{hero.id} is off the board during its own hero phase")
        elif board.is_water(hero.pos):
            found.append(f"{hero.id} stands in water at {board.names[hero.pos]}")
    for v, at in state.villagers.items():
        if board.is_water(at):
            found.append(f"villager {c.villagers[v][0]} stands in water")
        if at == c.villagers[v][1] and not state.over:
            found.append(f"villager {c.villagers[v][0]} is at its safe location but still on the board")
    for piece in state.in_game():
        if board.is_water(piece.pos) and piece.id != "creature":
            found.append(f"{piece.id} is in water at {board.names[piece.pos]}")
    found += monster_violations(state)
    alive = state.in_game()
    if alive and state.frenzied not in {m.id for m in alive}:
        found.append(f"the frenzy marker is on {state.frenzied}, not on a monster in the game")
    if state.over != (state.phase == OVER):
        found.append(f"over={state.over} but the phase is {state.phase}")
    if state.over and (state.winner is not None) != (not alive):
        found.append("the game is won with monsters left, or lost with none")
    if not state.over and state.actions_left < 0:
        found.append(f"{state.actions_left} actions left")
    return found


def monster_violations(state: HorrifiedState) -> list[str]:
    """The mats' invariants: the Boat on its path, the tablet a full set of scarabs, the Cure held only once found
    and by one hero, the Wolf Man's spots holding blue items of their strength, the pair apart (HF-M-*)."""
    found: list[str] = []
    for piece in state.in_game():
        task = spec_of(state, piece.id).task
        if task.kind == "boat" and not 0 <= piece.progress <= len(task.path):
            found.append(f"the Boat is on X {piece.progress}, off its path of {len(task.path)}")
        if task.kind == "scarabs" and sorted(abs(s) for s in piece.tablet) != list(range(len(task.start))):
            found.append(f"the Mummy's tablet lost or doubled a scarab: {piece.tablet}")
        if task.kind == "cure":
            for spot, uid in piece.mat.items():
                if state.item(uid).colour != "blue" or state.item(uid).strength != task.strengths[spot]:
                    found.append(f"the Wolf Man's spot {spot} holds an item that does not match it")
    holders = [h.id for h in state.heroes if h.cure]
    wolf = state.piece("wolf-man")
    if len(holders) > 1 or (holders and (wolf is None or not cure_done(state, wolf))):
        found.append(f"the Cure is held by {holders} before it is found or after the Wolf Man is gone")
    both = pair(state)
    if both is not None and both[0].pos == both[1].pos and not state.over:
        found.append("Frankenstein and the Bride share a space and the game goes on")
    return found


def random_lineup(components: Components, rng: np.random.Generator) -> tuple[list[str], list[str]]:
    """1 to all 6 monsters (beyond the rules' 4: the invariants hold regardless) and 1-4 heroes drawn at random (no
    Courier solo)."""
    monsters = sorted(components.monsters)
    chosen = [str(m) for m in rng.permutation(monsters)[: int(rng.integers(1, len(monsters) + 1))]]
    players = int(rng.integers(1, 5))
    pool = sorted(h for h, spec in components.heroes.items() if spec.solo or players > 1)
    return chosen, [str(h) for h in rng.permutation(pool)[:players]]


def check_game(layers: Path | tuple[Path, ...], index: int, seed: np.random.SeedSequence, turn_limit: int) -> GameCheck:
    """Game `index` from `seed` (random line-up; random players, or the team in odd games), its invariants checked;
    `turn_limit` is unused (the monster deck ends every game, HF-GOAL-03)."""
    components = components_at(layers)
    lineup_seed, dice_seed, *player_seeds = child_seeds(seed, 6)
    monsters, heroes = random_lineup(components, np.random.default_rng(lineup_seed))
    player = TeamPlayer if index % 2 else RandomAgent  # the team wins games, so defeats and wins are checked too
    agents = [player(np.random.default_rng(s)) for s in player_seeds[: len(heroes)]]
    return play_checked(
        index,
        lambda: new_game(components, monsters, heroes, Dice(np.random.default_rng(dice_seed))),
        agents,
        violations,  # type: ignore[arg-type]
        check_setup=True,
    )
