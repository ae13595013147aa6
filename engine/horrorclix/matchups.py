"""How the analyzer plays HorrorClix matchups (the core's `MatchupKit`, engine/core/matchups.py): the players by
style (the tuned heuristic and its styles, random, the search player), the roster library loaded once per process,
a game of two armies on a map from a seed (`game.start_game`), and a finished game read from its log into the
flat rows of games.csv and figures.csv (victory points by source, victim rush, how the AI played, plot twists)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from clix.engine.core.driver import Watch, play
from clix.engine.core.matchups import LibraryCache, heuristic_player
from clix.engine.core.players import Agent
from clix.engine.horrorclix.game import start_game
from clix.engine.horrorclix.players.heuristic import DEFAULT_STYLE, STYLES, style_factory
from clix.engine.horrorclix.players.search import search_factory
from clix.engine.horrorclix.roster.loader import Roster, load_layers
from clix.engine.horrorclix.roster.models import Army
from clix.engine.horrorclix.state import GameState

ROSTERS: LibraryCache[Roster] = LibraryCache(load_layers)
"""The roster libraries loaded in this process."""


def roster_at(library: Path | tuple[Path, ...]) -> Roster:
    """The roster library at `library` (a folder, or layers: later ones replace items of earlier ones by
    name), loaded once per process (joblib workers reuse it)."""
    return ROSTERS.get((library,) if isinstance(library, Path) else library)


@functools.lru_cache(maxsize=4096)
def given_army(data: str) -> Army:
    """An army given as JSON (a random army, a candidate build), parsed once per process."""
    return Army.model_validate_json(data)


class HorrorClixMatchups:
    """HorrorClix's `MatchupKit` (see the module)."""

    styles = ("random", *STYLES)
    default_style = DEFAULT_STYLE

    def player_factory(self, style: str) -> Callable[..., Agent]:
        return heuristic_player(style, self.styles, STYLES, style_factory, search_factory, "player style")

    def library(self, layers: tuple[Path, ...]) -> Roster:
        return roster_at(layers)

    def adopt(self, layers: tuple[Path, ...], library: Roster) -> None:
        ROSTERS.adopt(layers, library)

    army_kind = "army"
    default_map = "graveyard"
    """The map a matchup plays on when none is named."""

    def armies(self, library: Roster) -> dict[str, Army]:
        return library.armies

    def maps(self, library: Roster) -> dict[str, Any]:
        return dict(library.maps)

    def needs(self, library: Roster, armies: Sequence[str], map_name: str | None) -> list[tuple[str, str]]:
        """Each army with its figures, crypt and victims, then the map."""
        wanted: list[tuple[str, str]] = []
        for name in armies:
            wanted.append(("army", name))
            army = library.armies.get(name)
            if army is not None:
                wanted += [("figure", entry.figure) for entry in army.figures]
                wanted += [("plot twist", card) for card in army.crypt]
                wanted += [("victim archetype", victim) for victim in army.victims]
        if map_name is not None:
            wanted.append(("map", map_name))
        return list(dict.fromkeys(wanted))

    def source(self, library: Roster, kind: str, name: str) -> str | None:
        table = {"army": "armies", "figure": "figures", "plot twist": "plot_twists", "victim archetype": "victims"}
        found = library.sources.get((table.get(kind, "maps"), name))
        return None if found is None else found.file

    def start(
        self,
        library: Roster,
        armies: Sequence[str],
        given: dict[str, str],
        map_name: str,
        factories: Sequence[Callable[..., Agent]],
        seed: Any,
        turn_limit: int,
        tie_break: bool,
        watch: Watch | None = None,
    ) -> tuple[GameState, list[Agent]]:
        return start_game(
            library,
            [given_army(given[n]) if n in given else library.armies[n] for n in armies],
            library.maps[map_name],
            factories,
            seed,
            turn_limit,
            army_names=list(armies),
            tie_break=tie_break,
            watch=watch,
        )

    def play(self, state: GameState, agents: Sequence[Agent], watch: Watch | None = None) -> GameState:
        return play(state, agents, watch=watch)

    def game_rows(
        self, state: GameState, head: dict[str, Any], swapped: bool
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One flat row for the game (from army A's point of view, `head` first) and one row per figure."""
        return game_rows(state, head, swapped)

    def data_document(
        self, library: Roster, armies: Sequence[str], given: dict[str, str], map_name: str
    ) -> dict[str, Any]:
        """The armies, every figure they field, the plot twists in their crypts, the victims they bring and the
        map (their pydantic models as JSON)."""
        army = {name: given_army(given[name]) if name in given else library.armies[name] for name in armies}
        chosen = list(army.values())

        def dump(table: dict[str, Any], names: set[str]) -> dict[str, Any]:
            return {name: table[name].model_dump(mode="json") for name in sorted(names) if name in table}

        return {
            "armies": {name: army[name].model_dump(mode="json") for name in sorted(army)},
            "figures": dump(library.figures, {entry.figure for army in chosen for entry in army.figures}),
            "plot_twists": dump(library.plot_twists, {card for army in chosen for card in army.crypt}),
            "victims": dump(library.victims, {victim for army in chosen for victim in army.victims}),
            "map": library.maps[map_name].model_dump(mode="json"),
        }

    def style_weights(self, style: str) -> dict[str, float] | None:
        return asdict(STYLES[style]) if style in STYLES else None


MATCHUPS = HorrorClixMatchups()


def matchups() -> HorrorClixMatchups:
    """The kit the HorrorClix `Ruleset` names as its `matchups` entry point."""
    return MATCHUPS


def game_rows(state: GameState, head: dict[str, Any], swapped: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One flat row for the game (from army A's point of view; `head`'s columns first) and one row per figure."""
    seat = {"A": 2 if swapped else 1, "B": 1 if swapped else 2}
    side_of = {seat["A"]: "A", seat["B"]: "B"}
    players = len(state.players)
    first = next((e.get("player") for e in state.log if e.kind == "first_player"), 1)
    last_turn = max((e.turn for e in state.log if e.kind == "turn_start"), default=1)
    rounds = (last_turn - 1) // players + 1
    row: dict[str, Any] = {
        **head,
        "first": side_of.get(first, "A"),
        "winner": side_of.get(state.winner, "draw") if state.winner is not None else "draw",
        "rounds": rounds,
        "end_reason": state.end_reason,
        "timeout": state.end_reason == "turn limit",
    }
    per_figure: dict[str, dict[str, Any]] = {}
    for m in state.monsters:
        if m.minion:
            continue
        per_figure[m.label] = {
            "game": head["game"],
            "side": side_of.get(m.owner, "?"),
            "army": row[f"army_{side_of.get(m.owner, 'a').lower()}"],
            "figure": m.stats.id,
            "points": m.stats.points,
            "damage_dealt": 0,
            "damage_taken": m.damage_taken,
            "kills": 0,
            "kill_vp": 0,
            "victims": 0,
            "victim_vp": 0,
            "survived": m.alive,
        }
    slays: dict[str, list[int]] = {"A": [], "B": []}
    rescues = {"A": 0, "B": 0}
    cards = {"A": 0, "B": 0}
    first_turns: dict[str, int] = {}
    # how the AI played (issue 12): per side [turns, idle, turns with victims, idle with victims], then the idle
    # turns split (issue 32): [passed, passed with victims, no legal action, no legal action with victims]
    turns = {"A": [0] * 8, "B": [0] * 8}
    attacks = {"A": {"close": 0, "ranged": 0, "frenzy": 0}, "B": {"close": 0, "ranged": 0, "frenzy": 0}}
    after_victims = {"A": 0, "B": 0}
    windows: dict[str, dict[str, int]] = {"A": {}, "B": {}}
    played_cards: dict[str, list[str]] = {"A": [], "B": []}  # "card@window" in play order (clix meta, issue 18)
    turn_side: str | None = None  # whose turn is running; None once it is tallied
    turn_victims = 0
    acted = ended = False
    could_act: bool | None = None  # an idle turn's turn_end says whether a monster could have acted (older logs: None)
    last_attack: tuple | None = None

    def tally(side: str) -> None:
        counts = turns[side]
        counts[0] += 1
        counts[1] += not acted
        passed = not acted and could_act is True
        stuck = not acted and could_act is False
        counts[4] += passed
        counts[6] += stuck
        if turn_victims:
            counts[2] += 1
            counts[3] += not acted
            counts[5] += passed
            counts[7] += stuck

    for event in state.log:
        kind = event.kind
        if kind == "turn_start":
            if turn_side is not None:
                tally(turn_side)
            turn_side = side_of.get(event.player)
            turn_victims = event.get("victims", 0)
            acted = ended = False
            could_act = None
            last_attack = None
        elif kind == "action":
            acted = True
            last_attack = None
        elif kind == "attack":
            # a ranged attack at several targets logs one event per target: count the resolution once
            attack_key = (event.turn, event.get("attacker"), event.get("action"))
            if attack_key != last_attack:
                last_attack = attack_key
                side = side_of.get(event.player, "?")
                if side in attacks and attack_key[2] in attacks[side]:
                    attacks[side][attack_key[2]] += 1
                    after_victims[side] += turn_victims == 0
        elif kind == "turn_end":
            ended = True
            could_act = event.get("could_act")
        elif kind == "game_over" and not ended and not acted:
            turn_side = None  # the game ended before the player could act: not a turn they played
        elif kind == "damage":
            by = per_figure.get(event.get("by") or "")
            if by is not None:
                by["damage_dealt"] += event.get("amount", 0)
        elif kind == "killed":
            by = per_figure.get(event.get("by") or "")
            if by is not None and event.get("player") is not None:
                by["kills"] += 1
                by["kill_vp"] += event.get("vp", 0)
        elif kind in ("slain", "rescued"):
            side = side_of.get(event.get("player"), "?")
            monster = per_figure.get(event.get("monster") or "")
            if monster is not None:
                monster["victims"] += 1
                monster["victim_vp"] += event.get("vp", 0)
            if side in slays:
                slays[side].append((event.turn - 1) // players + 1)
                first_turns[side] = min(first_turns.get(side, event.turn), event.turn)
                rescues[side] += kind == "rescued"
        elif kind.startswith("plot_twist") or kind == "card_played":
            side = side_of.get(event.get("player", event.player), "?")
            if side in cards:
                cards[side] += 1
                window = event.get("window") or "?"
                windows[side][window] = windows[side].get(window, 0) + 1
                if event.get("card"):
                    played_cards[side].append(f"{event.get('card')}@{window}")
    if turn_side is not None:
        tally(turn_side)
    for side in ("A", "B"):
        player = seat[side]
        vp = state.vp[player]
        key = side.lower()
        row[f"vp_{key}"] = sum(vp.values())
        for part in ("kills", "victims", "subplots"):
            row[f"vp_{key}_{part}"] = vp[part]
        row[f"points_{key}"] = state.player(player).army_points
        row[f"area_{key}"] = state.areas.get(player)  # the starting area it chose or was given (HC-SETUP-04)
        row[f"victims_{key}"] = len(slays[side])
        row[f"rescued_{key}"] = rescues[side]
        row[f"first_slay_{key}"] = min(slays[side]) if slays[side] else None
        row[f"first_slay_turn_{key}"] = first_turns.get(side)
        row[f"slay_rounds_{key}"] = " ".join(map(str, sorted(slays[side])))
        row[f"plot_twists_{key}"] = cards[side]
        row[f"survivors_{key}"] = sum(1 for m in state.monsters if m.alive and m.owner == player and not m.minion)
        played, idle, with_victims, idle_with_victims, passed, passed_wv, stuck, stuck_wv = turns[side]
        row[f"turns_{key}"] = played
        row[f"idle_turns_{key}"] = idle
        row[f"turns_with_victims_{key}"] = with_victims
        row[f"idle_turns_with_victims_{key}"] = idle_with_victims
        # idle = passed (a monster could act) + no legal action (none could: action tokens, HC-TURN-03/13)
        row[f"passed_turns_{key}"] = passed
        row[f"passed_turns_with_victims_{key}"] = passed_wv
        row[f"no_action_turns_{key}"] = stuck
        row[f"no_action_turns_with_victims_{key}"] = stuck_wv
        for attack_kind, count in attacks[side].items():
            row[f"attacks_{attack_kind}_{key}"] = count
        row[f"attacks_after_victims_{key}"] = after_victims[side]
        row[f"plot_twist_windows_{key}"] = " ".join(f"{w}:{n}" for w, n in sorted(windows[side].items()))
        row[f"plot_twist_cards_{key}"] = "; ".join(played_cards[side])
    # decided by HC-END-09: equal VP, yet a winner (the cheaper army)
    row["tie_break"] = row["vp_a"] == row["vp_b"] and row["winner"] != "draw"
    return row, list(per_figure.values())
