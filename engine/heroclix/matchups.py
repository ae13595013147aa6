"""How the analyzer plays HeroClix matchups (the core's `MatchupKit`, engine/core/matchups.py): two forces of the
library on one of its maps, set up by the rules from a seed (every setup choice a player's), played by the core's
driver, and read into flat rows: who won and why, victory points, knockouts, pushing, knockback and attacks per
side. Its players: the heuristic's styles (engine/heroclix/players, `tuned` by default), `random`, and the search
player (`search`, `search:N`: N playouts a decision; not among `styles`, which are the fast ones)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
from clix.engine.core.dice import child_seeds
from clix.engine.core.driver import Watch, play, settle
from clix.engine.core.matchups import LibraryCache, heuristic_player
from clix.engine.core.players import Agent
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.library import Force, Library, load_library
from clix.engine.heroclix.melee_rows import ACTION_EVENTS, DEALT_BY_ATTACKER, melee_facts
from clix.engine.heroclix.players.heuristic import DEFAULT_STYLE, STYLES, style_factory
from clix.engine.heroclix.players.search import search_factory
from clix.engine.heroclix.setup import new_game
from clix.engine.heroclix.state import KNOCKBACK, PUSHING, HeroState

LIBRARIES: LibraryCache[Library] = LibraryCache(load_library)
"""The HeroClix libraries loaded in this process."""


def library_at(layers: tuple[Path, ...]) -> Library:
    """The HeroClix library under `layers` (later over earlier), loaded once per process."""
    return LIBRARIES.get(layers)


class HeroClixMatchups:
    """HeroClix's `MatchupKit` (see the module)."""

    styles = ("tuned", "balanced", "brawler", "cautious", "random")
    default_style = DEFAULT_STYLE

    def player_factory(self, style: str) -> Callable[..., Agent]:
        return heuristic_player(style, self.styles, STYLES, style_factory, search_factory, "HeroClix player style")

    def library(self, layers: tuple[Path, ...]) -> Library:
        return library_at(layers)

    def adopt(self, layers: tuple[Path, ...], library: Library) -> None:
        LIBRARIES.adopt(layers, library)

    army_kind = "force"
    default_map = "chemical-plant"
    """The map a matchup plays on when none is named (the library's first map by name when it lacks this one)."""

    def armies(self, library: Library) -> dict[str, Force]:
        return library.forces

    def maps(self, library: Library) -> dict[str, Any]:
        return dict(library.maps)

    def needs(self, library: Library, armies: Sequence[str], map_name: str | None) -> list[tuple[str, str]]:
        """Each force with its characters, then the map."""
        wanted: list[tuple[str, str]] = []
        for name in armies:
            wanted.append(("force", name))
            force = library.forces.get(name)
            if force is not None:
                wanted += [("character", c) for c in force.characters]
        if map_name is not None:
            wanted.append(("map", map_name))
        return list(dict.fromkeys(wanted))

    def source(self, library: Library, kind: str, name: str) -> str | None:
        found = library.lines.get(({"force": "forces", "character": "characters", "map": "maps"}[kind], name))
        return None if found is None else found[0]

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
        teams: Sequence[int] = (),
    ) -> tuple[HeroState, list[Agent]]:
        """A game of the `armies` (two for a duel, three or four for a melee, seated in this order; `teams`: each
        one's side in a team game), set up from `seed`, with one agent per army."""
        forces = [Force.model_validate_json(given[n]) if n in given else library.forces[n] for n in armies]
        dice_seed, *player_seeds = child_seeds(seed, 1 + len(forces))
        agents = [factory(np.random.default_rng(s)) for factory, s in zip(factories, player_seeds, strict=True)]
        layout = library.maps[map_name]
        state = new_game(library, forces, layout, np.random.default_rng(dice_seed), turn_limit, teams)
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
        return asdict(STYLES[style]) if style in STYLES else None

    def melee_facts(self, state: HeroState) -> dict[str, Any]:
        """A finished game at a table of three or four, read for a melee's row (`melee_rows.melee_facts`)."""
        return melee_facts(state)


MATCHUPS = HeroClixMatchups()


def matchups() -> HeroClixMatchups:
    """The kit the HeroClix `Ruleset` names as its `matchups` entry point."""
    return MATCHUPS


def game_rows(state: HeroState, head: dict[str, Any], swapped: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One flat row for the game (from force A's point of view; `head`'s columns first) and one row per character.

    A tie on victory points, or a game in which nobody was defeated, goes to the force built with fewer points
    (HX-END-11) unless the matchup plays ties as draws; `tie_break` says when that rule decided the game.

    Read from the log: the damage a character dealt (its attacks' damage and the knockback they caused, the
    damage of a power it used), the KOs it scored (it dealt the last damage) and when each character was KO'd
    (`ko_timeline`, round:side:character in order), pushes and their damage, knockbacks, clicks healed, attacks
    made with an object held (thrown or swung) and the turns a side took no action in (idle). A KO by pushing damage
    or a critical miss credits no character (its VP still go to a player, HX-END-08: in `vp_a_kos`)."""
    seat = {"A": 2 if swapped else 1, "B": 1 if swapped else 2}
    side_of = {seat["A"]: "A", seat["B"]: "B"}
    players = max(1, len(state.players))
    by_label = {c.label: c for c in state.monsters}
    label_side = {c.label: side_of.get(c.owner, "?") for c in state.monsters}
    first = next((e.get("player") for e in state.log if e.kind == EventKind.FIRST_PLAYER), 1)
    areas = dict(next((e.get("areas") for e in state.log if e.kind == EventKind.SETUP_DONE), ()) or ())
    vp = {side: state.points.get(seat[side], 0.0) for side in seat}
    winner = side_of.get(state.winner, "draw") if state.winner is not None else "draw"
    decided_by_points = vp["A"] == vp["B"] or all(c.alive for c in state.monsters)
    turns_played = state.turn - 1 if state.end_reason == "turn limit" else state.turn
    row: dict[str, Any] = {
        **head,
        "first": side_of.get(first, "A"),
        "winner": winner,
        "rounds": (max(1, turns_played) - 1) // players + 1,
        "end_reason": state.end_reason,
        "timeout": state.end_reason == "turn limit",
    }

    def round_of(turn: int) -> int:
        return (max(1, turn) - 1) // players + 1

    figures = {
        c.label: {
            "game": head["game"],
            "side": side_of.get(c.owner, "?"),
            "army": head[f"army_{side_of.get(c.owner, 'A').lower()}"],
            "figure": c.stats.id,
            "points": c.stats.points,
            "damage_dealt": 0,
            "damage_taken": c.damage_taken,
            "kos": 0,
            "ko_vp": 0.0,
            "survivor_vp": float(c.stats.points) if c.alive else 0.0,
            "attacks": 0,
            "pushes": 0,
            "pushing_damage": state.tally(c, PUSHING),
            "knockback_damage": state.tally(c, KNOCKBACK),
            "healed": 0,
            "ko_round": None,
            "survived": c.alive,
        }
        for c in state.monsters
    }
    count = {
        side: dict.fromkeys(("attacks", "pushes", "knockbacks", "healed", "object_attacks", "damage_dealt"), 0)
        for side in ("A", "B")
    }
    acted_turns: dict[str, set[int]] = {"A": set(), "B": set()}
    timeline: list[str] = []
    ko_rounds: dict[str, list[int]] = {"A": [], "B": []}
    first_ko_turn: dict[str, int] = {}
    actor: str | None = None  # the character whose attack or power is resolving
    last_hurt: dict[str, str | None] = {}  # per character: the opposing character that dealt its last damage, if any
    holding: set[str] = set()
    for event in state.log:
        kind = event.kind
        active = side_of.get(event.player)
        if kind in ACTION_EVENTS and active in acted_turns and event.turn >= 1:
            acted_turns[active].add(event.turn)
        if kind in (EventKind.ATTACK, EventKind.TERRAIN_ATTACK):
            actor = event.get("attacker")
            side = label_side.get(actor or "", "?")
            if side in count and kind == EventKind.ATTACK:
                count[side]["attacks"] += 1
                figures[actor]["attacks"] += 1  # type: ignore[index]
                if actor in holding:
                    count[side]["object_attacks"] += 1
                    holding.discard(actor)  # type: ignore[arg-type]
        elif kind in (EventKind.POWER, EventKind.TELEKINESIS):
            actor = event.get("character")
        elif kind == EventKind.PICKED_UP:
            holding.add(event.get("character"))
        elif kind == EventKind.DROPPED:
            holding.discard(event.get("character"))
        elif kind == EventKind.DAMAGE:
            hurt, clicks, cause = event.get("character"), event.get("clicks", 0), event.get("cause")
            by = actor if cause in DEALT_BY_ATTACKER else None
            opposed = by is not None and label_side.get(by) in count and label_side.get(by) != label_side.get(hurt)
            last_hurt[hurt] = by if opposed else None  # a KO is credited to the dealer of its last damage only
            if by is not None and opposed:
                figures[by]["damage_dealt"] += clicks
                count[label_side[by]]["damage_dealt"] += clicks
            elif cause == PUSHING and hurt in figures:
                figures[hurt]["pushes"] += 1
                if label_side.get(hurt) in count:
                    count[label_side[hurt]]["pushes"] += 1
        elif kind == EventKind.KNOCKED_BACK:
            side = label_side.get(event.get("character") or "", "?")
            if side in count:
                count[side]["knockbacks"] += 1
        elif kind == EventKind.HEALED:
            healed = event.get("character")
            if healed in figures:
                figures[healed]["healed"] += event.get("clicks", 0)
                count[label_side[healed]]["healed"] += event.get("clicks", 0)
        elif kind == EventKind.KO:
            gone = event.get("character")
            holding.discard(gone)
            if gone not in figures:
                continue
            figures[gone]["ko_round"] = round_of(event.turn)
            side = label_side[gone]
            timeline.append(f"{round_of(event.turn)}:{side}:{figures[gone]['figure']}")
            scorer = "B" if side == "A" else "A"  # an opposing side scores it (HX-END-05, -08)
            ko_rounds[scorer].append(round_of(event.turn))
            first_ko_turn.setdefault(scorer, event.turn)
            by = last_hurt.get(gone)
            if by is not None:
                figures[by]["kos"] += 1
                double = by_label[gone].uid in state.archenemies.get(by_label[by].uid, frozenset())
                figures[by]["ko_vp"] += float(figures[gone]["points"]) * (2 if double else 1)  # HX-END-06
    first_side = side_of.get(first, "A")
    for side in ("A", "B"):
        key = side.lower()
        mine = [c for c in state.monsters if c.owner == seat[side]]
        survivors = float(sum(c.stats.points for c in mine if c.alive)) if state.over else 0.0
        row[f"vp_{key}"] = vp[side]
        row[f"vp_{key}_kos"] = vp[side] - survivors
        row[f"vp_{key}_survivors"] = survivors
        row[f"points_{key}"] = state.player(seat[side]).army_points
        row[f"area_{key}"] = areas.get(seat[side])  # the starting area it chose or was left (HX-SETUP-03)
        row[f"kos_{key}"] = sum(1 for c in state.monsters if c.owner != seat[side] and not c.alive)
        row[f"first_ko_{key}"] = round_of(first_ko_turn[side]) if side in first_ko_turn else None
        row[f"first_ko_turn_{key}"] = first_ko_turn.get(side)
        row[f"ko_rounds_{key}"] = " ".join(map(str, sorted(ko_rounds[side])))
        row[f"survivors_{key}"] = sum(1 for c in mine if c.alive)
        row[f"damage_dealt_{key}"] = count[side]["damage_dealt"]
        row[f"damage_taken_{key}"] = sum(c.damage_taken for c in mine)
        row[f"pushes_{key}"] = count[side]["pushes"]
        row[f"pushing_damage_{key}"] = sum(state.tally(c, PUSHING) for c in mine)
        row[f"knockbacks_{key}"] = count[side]["knockbacks"]
        row[f"knockback_damage_{key}"] = sum(state.tally(c, KNOCKBACK) for c in mine)
        row[f"healed_{key}"] = count[side]["healed"]
        row[f"attacks_{key}"] = count[side]["attacks"]
        row[f"object_attacks_{key}"] = count[side]["object_attacks"]
        # a side's turns: the first player's are the odd ones (two players; a force with no one left has none)
        own = [t for t in range(1, turns_played + 1) if (t % 2 == 1) == (side == first_side)] if players == 2 else []
        row[f"turns_{key}"] = len(own)
        row[f"idle_turns_{key}"] = sum(1 for t in own if t not in acted_turns[side])
    row["ko_timeline"] = " ".join(timeline)
    row["tie_break"] = decided_by_points and winner != "draw"
    return row, list(figures.values())
