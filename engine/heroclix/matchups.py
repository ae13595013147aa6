"""How the analyzer plays HeroClix matchups (the core's `MatchupKit`, engine/core/matchups.py): two forces of the
library on one of its maps, set up by the rules from a seed (every setup choice a player's), played by the core's
driver, and read into flat rows: who won and why, victory points, knockouts, pushing, knockback and attacks per
side. Its only player so far is `random` (a heuristic HeroClix player comes with the analyses, issue 36)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from clix.engine.core.dice import child_seeds
from clix.engine.core.driver import Watch, play, settle
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.matchups import LibraryCache, UnknownStyle
from clix.engine.core.players import Agent, RandomAgent
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.library import Force, Library, load_library
from clix.engine.heroclix.setup import new_game
from clix.engine.heroclix.state import KNOCKBACK, PUSHING, HeroState

LIBRARIES: LibraryCache[Library] = LibraryCache(load_library)
"""The HeroClix libraries loaded in this process."""


def library_at(layers: tuple[Path, ...]) -> Library:
    """The HeroClix library under `layers` (later over earlier), loaded once per process."""
    return LIBRARIES.get(layers)


class HeroClixMatchups:
    """HeroClix's `MatchupKit` (see the module)."""

    styles = ("random",)
    default_style = "random"

    def player_factory(self, style: str) -> Callable[..., Agent]:
        if style == "random":
            return RandomAgent
        raise UnknownStyle(did_you_mean("HeroClix player style", style, self.styles))

    def library(self, layers: tuple[Path, ...]) -> Library:
        return library_at(layers)

    def adopt(self, layers: tuple[Path, ...], library: Library) -> None:
        LIBRARIES.adopt(layers, library)

    def start(
        self,
        library: Library,
        armies: Sequence[str],
        given: dict[str, str],
        map_name: str,
        factories: Sequence[Callable[..., Agent]],
        seed: Any,
        turn_limit: int,
        tie_break: bool,
        watch: Watch | None = None,
    ) -> tuple[HeroState, list[Agent]]:
        forces = [Force.model_validate_json(given[n]) if n in given else library.forces[n] for n in armies]
        dice_seed, *player_seeds = child_seeds(seed, 1 + len(forces))
        agents = [factory(np.random.default_rng(s)) for factory, s in zip(factories, player_seeds, strict=True)]
        state = new_game(library, forces, library.maps[map_name], np.random.default_rng(dice_seed), turn_limit)
        state.tie_break = tie_break
        settle(state, agents, watch=watch)
        return state, agents

    def play(self, state: HeroState, agents: Sequence[Agent], watch: Watch | None = None) -> HeroState:
        return play(state, agents, watch=watch)

    def game_rows(
        self, state: HeroState, head: dict[str, Any], swapped: bool
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return game_rows(state, head, swapped)

    def data_document(
        self, library: Library, armies: Sequence[str], given: dict[str, str], map_name: str
    ) -> dict[str, Any]:
        """The forces, every character they field and the map (their pydantic models as JSON)."""
        force = {n: Force.model_validate_json(given[n]) if n in given else library.forces[n] for n in armies}
        fielded = sorted({c for f in force.values() for c in f.characters if c in library.characters})
        return {
            "forces": {name: force[name].model_dump(mode="json") for name in sorted(force)},
            "characters": {c: library.characters[c].model_dump(mode="json") for c in fielded},
            "map": library.maps[map_name].model_dump(mode="json"),
        }

    def style_weights(self, style: str) -> dict[str, float] | None:
        return None  # only the random player so far


MATCHUPS = HeroClixMatchups()


def matchups() -> HeroClixMatchups:
    """The kit the HeroClix `Ruleset` names as its `matchups` entry point."""
    return MATCHUPS


def game_rows(state: HeroState, head: dict[str, Any], swapped: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One flat row for the game (from force A's point of view; `head`'s columns first) and one row per character.

    A tie on victory points, or a game in which nobody was defeated, goes to the force built with fewer points
    (HX-END-11) unless the matchup plays ties as draws; `tie_break` says when that rule decided the game."""
    seat = {"A": 2 if swapped else 1, "B": 1 if swapped else 2}
    side_of = {seat["A"]: "A", seat["B"]: "B"}
    label_side = {c.label: side_of.get(c.owner, "?") for c in state.monsters}
    first = next((e.get("player") for e in state.log if e.kind == EventKind.FIRST_PLAYER), 1)
    vp = {side: state.points.get(seat[side], 0.0) for side in seat}
    winner = side_of.get(state.winner, "draw") if state.winner is not None else "draw"
    decided_by_points = vp["A"] == vp["B"] or all(c.alive for c in state.monsters)
    row: dict[str, Any] = {
        **head,
        "first": side_of.get(first, "A"),
        "winner": winner,
        "rounds": (state.turn - 1) // max(1, len(state.players)) + 1,
        "end_reason": state.end_reason,
        "timeout": state.end_reason == "turn limit",
    }
    attacks = {"A": 0, "B": 0}
    for event in state.log:
        if event.kind == EventKind.ATTACK:
            side = label_side.get(event.get("attacker") or "", "?")
            if side in attacks:
                attacks[side] += 1
    for side in ("A", "B"):
        key = side.lower()
        mine = [c for c in state.monsters if c.owner == seat[side]]
        row[f"vp_{key}"] = vp[side]
        row[f"points_{key}"] = state.player(seat[side]).army_points
        row[f"kos_{key}"] = sum(1 for c in state.monsters if c.owner != seat[side] and not c.alive)
        row[f"survivors_{key}"] = sum(1 for c in mine if c.alive)
        row[f"pushing_damage_{key}"] = sum(state.tally(c, PUSHING) for c in mine)
        row[f"knockback_damage_{key}"] = sum(state.tally(c, KNOCKBACK) for c in mine)
        row[f"attacks_{key}"] = attacks[side]
    row["tie_break"] = decided_by_points and winner != "draw"
    figures = [
        {
            "game": head["game"],
            "side": side_of.get(c.owner, "?"),
            "army": head[f"army_{side_of.get(c.owner, 'A').lower()}"],
            "figure": c.stats.id,
            "points": c.stats.points,
            "damage_taken": c.damage_taken,
            "survived": c.alive,
        }
        for c in state.monsters
    ]
    return row, figures
