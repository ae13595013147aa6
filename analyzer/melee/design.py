"""A melee's design and its games: which army sits in which seat in each game of a block, each game's seed, and one
HorrorClix game of 3 or 4 armies (free-for-all or two teams of two, HC-SPECIAL-11) played and read into a flat row.

The design (docs/statistics.md, "Melee"): a block holds every seat order of the armies (3 armies: 6 games, 4: 24;
teams: the 8 orders that seat the teams alternately), so each army sits in each seat equally often. The games of a
block share the block's seed, as a duel's pair shares its seed: the dice that decide the first player (HC-SETUP-03)
are then the same in every game of the block, so the first seat rotates with the seat order. When two armies are
the same (a mirror), two orders would replay one game: each game of such a block gets a seed of its own.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clix.analyzer.play.runner import engine_name, game_seed, player_factory, settle_collector, table_seed
from clix.engine.core.driver import Watch, play
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named

SLOTS = "ABCD"
"""The letters of a melee's armies, in the order they were named."""


@dataclass(frozen=True)
class Melee:
    """Everything that decides a melee's games except the master seed."""

    library: tuple[Path, ...]
    armies: tuple[str, ...]
    """The armies by id, in the order named (slot A, B, C, D)."""
    map_name: str
    styles: tuple[str, ...]
    """Each army's player style, in slot order."""
    teams: tuple[int, ...] = ()
    """Each slot's team (1 or 2) in a team game; empty: every army for itself."""
    turn_limit: int = 15
    ties: str = "break"
    rotations: bool = False
    """A field's pod (analyzer/melee/field.py): its block is the N cyclic rotations of the seats (each army in
    each seat once) rather than every order."""
    ruleset: str = DEFAULT_RULESET
    """The game played: HorrorClix, or heroclix-2005 (its forces and maps, played through its matchup kit)."""

    @property
    def size(self) -> int:
        return len(self.armies)

    @property
    def slots(self) -> str:
        return SLOTS[: self.size]

    @property
    def orders(self) -> list[tuple[int, ...]]:
        """The block's seat orders: each a tuple of slot indexes, seat 1 first."""
        if self.rotations:
            return [tuple((s + k) % self.size for s in range(self.size)) for k in range(self.size)]
        return seat_orders(self.size, self.teams)

    @property
    def block_size(self) -> int:
        return len(self.orders)

    @property
    def mirrored(self) -> bool:
        """Two slots alike (army and style): a block's orders would replay the same game under one seed."""
        sides = list(zip(self.armies, self.styles, strict=True))
        return len(set(sides)) < len(sides)


def seat_orders(size: int, teams: Sequence[int] = ()) -> list[tuple[int, ...]]:
    """Every order of `size` slots in the seats; with `teams`, only those seating the two teams alternately."""
    orders = list(itertools.permutations(range(size)))
    if teams:
        orders = [o for o in orders if all(teams[o[s]] != teams[o[s + 1]] for s in range(size - 1))]
    return orders


def rounded_games(games: int, block: int) -> int:
    """`games` rounded up to whole blocks (at least two: an interval needs two blocks)."""
    return max(2, math.ceil(games / block)) * block


def horrorclix_part(name: str) -> Any:
    """HorrorClix's part `name` (its game, matchups, players), found through the core's registry."""
    return ruleset_named(DEFAULT_RULESET).part(name)


def melee_part(melee: Melee, name: str) -> Any:
    """The part `name` of the ruleset `melee` plays (its matchups kit: `melee_part(m, "matchups").MATCHUPS`)."""
    return ruleset_named(melee.ruleset).part(name)


def _kit_state(melee: Melee, seed: Any, order: tuple[int, ...], watch: Watch | None) -> Any:
    """A game of another ruleset than HorrorClix's (HeroClix) at the table, set up through its matchup kit."""
    kit = melee_part(melee, "matchups").MATCHUPS
    state, agents = kit.start(
        kit.library(melee.library),
        [melee.armies[s] for s in order],
        {},
        melee.map_name,
        [kit.player_factory(melee.styles[s]) for s in order],
        seed,
        melee.turn_limit,
        melee.ties != "draw",
        watch=watch,
        teams=[melee.teams[s] for s in order] if melee.teams else (),
    )
    return kit.play(state, agents, watch=watch)


def seed_path(melee: Melee, index: int) -> tuple[int, ...]:
    """The spawn key of game `index`'s seed below the master seed: its block, and in a mirror its place in it."""
    block, k = divmod(index, melee.block_size)
    return (block, k) if melee.mirrored else (block,)


def play_state(melee: Melee, master_seed: int, index: int, watch: Watch | None = None) -> tuple[Any, tuple[int, ...]]:
    """Game `index` of a melee played to its end: its final state and its seat order (slot index per seat)."""
    settle_collector()
    order = melee.orders[index % melee.block_size]
    seed = game_seed(master_seed, seed_path(melee, index))
    if melee.ruleset != DEFAULT_RULESET:
        return _kit_state(melee, seed, order, watch), order
    start_game = horrorclix_part("game").start_game
    roster = horrorclix_part("matchups").roster_at(melee.library)
    names = [melee.armies[s] for s in order]
    state, agents = start_game(
        roster,
        [roster.armies[n] for n in names],
        roster.maps[melee.map_name],
        [player_factory(melee.styles[s]) for s in order],
        seed,
        melee.turn_limit,
        army_names=names,
        tie_break=melee.ties != "draw",
        watch=watch,
        teams=[melee.teams[s] for s in order] if melee.teams else (),
    )
    return play(state, agents, watch=watch), order


def play_row(melee: Melee, master_seed: int, index: int) -> dict[str, Any]:
    """Game `index` of a melee played and read into its row (`game_row`)."""
    state, order = play_state(melee, master_seed, index)
    return game_row(state, melee, master_seed, index, order)


def placings(vp: Sequence[float], points: Sequence[int], tie_break: bool) -> list[float]:
    """Each player's placing (1 best) by victory points, then the cheaper army (HC-END-09, when `tie_break`);
    players equal on both share the mean of the places they span."""
    keys = [(-v, p if tie_break else 0) for v, p in zip(vp, points, strict=True)]
    return [sum(1 for o in keys if o < k) + (1 + sum(1 for o in keys if o == k)) / 2 for k in keys]


def game_row(state: Any, melee: Melee, master_seed: int, index: int, order: tuple[int, ...]) -> dict[str, Any]:
    """One flat row: the game's columns, then per slot X its seat, turn position, VP, placing, win share,
    victims slain, kills and elimination, and the attacks and kills it made on each other slot."""
    size = melee.size
    seat_of = {slot: seat for seat, slot in enumerate(order, 1)}  # slot index -> seat (player number)
    letter = {seat: SLOTS[slot] for slot, seat in seat_of.items()}  # player number -> slot letter
    seats = list(range(1, size + 1))
    facts = _facts(state, melee, seats)
    first = facts["first"]
    row: dict[str, Any] = {
        "game": index,
        "block": index // melee.block_size,
        "master_seed": table_seed(master_seed),
        "seed_path": ":".join(map(str, seed_path(melee, index))),
        "order": "".join(SLOTS[s] for s in order),
        "map": melee.map_name,
        "teams": teams_text(melee),
        "first": letter[first],
        "rounds": facts["rounds"],
        "end_reason": state.end_reason,
        "ruleset": ruleset_named(melee.ruleset).version,
        "engine": engine_name(),
        "turn_limit": melee.turn_limit,
        "ties": melee.ties,
    }
    vp, points, ranked = facts["vp"], facts["points"], facts["rank_vp"]
    places = dict(
        zip(seats, placings([ranked[s] for s in seats], [points[s] for s in seats], state.tie_break), strict=True)
    )
    if melee.teams:
        winner = state.winner  # a team number (HC-SPECIAL-11)
        share = {s: (1.0 if winner == state.player(s).team else 0.0) if winner is not None else 0.5 for s in seats}
        row["winner"] = (
            f"team {''.join(SLOTS[i] for i in range(size) if melee.teams[i] == winner)}" if winner else "draw"
        )
    else:
        best = [s for s in seats if places[s] == min(places.values())]
        share = {s: (1.0 / len(best) if s in best else 0.0) for s in seats}
        row["winner"] = letter[best[0]] if len(best) == 1 else "draw"
    attacks = {(letter[by], letter[at]): n for (by, at), n in facts["attacks"].items() if by in letter and at in letter}
    kills = {(letter[by], letter[at]): n for (by, at), n in facts["kills"].items() if by in letter and at in letter}
    victims, turns, idle = facts["victims"], facts["turns"], facts["idle"]
    for slot, x in enumerate(melee.slots):
        seat = seat_of[slot]
        row[f"army_{x}"] = melee.armies[slot]
        row[f"players_{x}"] = melee.styles[slot]
        row[f"seat_{x}"] = seat
        row[f"position_{x}"] = (seat - first) % size + 1  # 1: the first player (HC-SETUP-03, HC-TURN-06)
        row[f"vp_{x}"] = vp[seat]
        row[f"points_{x}"] = points[seat]
        row[f"place_{x}"] = places[seat]
        row[f"win_{x}"] = share[seat]
        row[f"victims_{x}"] = victims[seat]
        row[f"eliminated_{x}"] = facts["eliminated"][seat]
        row[f"turns_{x}"] = turns[seat]
        row[f"idle_turns_{x}"] = idle[seat]  # how the AI played: turns with no action (passed or none legal)
        for y in melee.slots:
            if y != x:
                row[f"attacks_{x}{y}"] = attacks.get((x, y), 0)
                row[f"kills_{x}{y}"] = kills.get((x, y), 0)
    return row


def _facts(state: Any, melee: Melee, seats: list[int]) -> dict[str, Any]:
    """What the row reads off a finished game, by player number: HorrorClix's from its log and state here, another
    ruleset's from its kit (`melee_facts`: HeroClix names no victims, so it counts none)."""
    if melee.ruleset != DEFAULT_RULESET:
        facts = dict(melee_part(melee, "matchups").MATCHUPS.melee_facts(state))
        facts.setdefault("victims", dict.fromkeys(seats, 0))
        return facts
    owner = {m.label: m.owner for m in state.monsters}
    last_turn = max((e.turn for e in state.log if e.kind == "turn_start"), default=1)
    attacks: dict[tuple[int, int], int] = {}
    kills: dict[tuple[int, int], int] = {}
    victims = dict.fromkeys(seats, 0)
    for event in state.log:
        if event.kind == "attack":
            by, at = owner.get(event.get("attacker") or ""), owner.get(event.get("target") or "")
            if by in victims and at in victims:
                attacks[by, at] = attacks.get((by, at), 0) + 1
        elif event.kind == "killed":
            by, at = owner.get(event.get("by") or ""), owner.get(event.get("monster") or "")
            if by in victims and at in victims:
                kills[by, at] = kills.get((by, at), 0) + 1
        elif event.kind == "slain" and event.get("player") in victims:
            victims[event.get("player")] += 1
    turns, idle = _turns(state.log, seats)
    vp = {p.number: state.total_vp(p.number) for p in state.players}
    return {
        "first": next((e.get("player") for e in state.log if e.kind == "first_player"), 1),
        "rounds": (last_turn - 1) // melee.size + 1,
        "vp": vp,
        "rank_vp": vp,
        "points": {p.number: p.army_points for p in state.players},
        "attacks": attacks,
        "kills": kills,
        "victims": victims,
        "eliminated": {s: state.player(s).eliminated for s in seats},
        "turns": turns,
        "idle": idle,
    }


def _turns(log: Sequence[Any], seats: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    """Turns each player took and how many of them had no action; a turn the game ended in before its player
    acted is not counted (as in a duel's rows)."""
    turns, idle = dict.fromkeys(seats, 0), dict.fromkeys(seats, 0)
    player: int | None = None
    acted = ended = False
    for event in log:
        if event.kind == "turn_start":
            if player is not None:
                turns[player] += 1
                idle[player] += not acted
            player, acted, ended = event.player, False, False
        elif event.kind == "action":
            acted = True
        elif event.kind == "turn_end":
            ended = True
        elif event.kind == "game_over" and not ended and not acted:
            player = None
    if player is not None:
        turns[player] += 1
        idle[player] += not acted
    return turns, idle


def teams_text(melee: Melee) -> str:
    """The teams as `--teams` writes them ("AB:CD"), or "" for a free-for-all."""
    if not melee.teams:
        return ""
    return ":".join("".join(SLOTS[i] for i in range(melee.size) if melee.teams[i] == t) for t in (1, 2))
