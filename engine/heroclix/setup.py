"""Setting up a HeroClix game from forces and a map (HX-SETUP-01..10), with every choice put to the players as
`engine.core.decisions` questions: the first player, the starting areas, the objects, where each character stands
and how each flier flies. Then the first player's turn begins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from clix.engine.core import decisions
from clix.engine.core.dice import Dice
from clix.engine.core.geometry import BLOCKING
from clix.engine.core.pieces import Figure, Player, Stats, stats_from_dial
from clix.engine.heroclix import card_play, double_base, rules
from clix.engine.heroclix.card_checks import feat_points
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.library import Character, Force, Library, MapFile, archenemies
from clix.engine.heroclix.maps import TERRAIN_CHARS, MapObject
from clix.engine.heroclix.movement_powers import earthbound
from clix.engine.heroclix.powers import power_named
from clix.engine.heroclix.ruleset import load
from clix.engine.heroclix.sides import team
from clix.engine.heroclix.state import HOVERING, SOARING, HeroState

DEFAULT_TURN_LIMIT = 10
"""Rounds of every player's turn before the game ends (HX-END-14 OPEN: the analyzer sets it)."""


class SetupError(ValueError):
    """Forces and a map that cannot be set up by the rules (a force that does not fit its starting area)."""


def new_game(
    library: Library,
    forces: Sequence[Force],
    layout: MapFile,
    rng: np.random.Generator,
    turn_limit: int | None = DEFAULT_TURN_LIMIT,
    teams: Sequence[int] = (),
) -> HeroState:
    """A new game, set up as far as the first question to a player (`state.waiting`); the dice come from `rng`.
    `teams`: each force's side (1 or 2) when allied players share one (HX-BUILD-07, HX-END-04); empty: every force
    for itself. Forces are seated in the order given (player 1, 2, ...), play passing clockwise (HX-TURN-01)."""
    if teams and (len(teams) != len(forces) or len(set(teams)) < 2):
        raise SetupError(f"teams {tuple(teams)}: one side per force, at least two sides, for {len(forces)} forces")
    if len(table_areas(layout, len(forces))) < len(forces):
        raise SetupError(f"map {layout.id} has {len(layout.starting_areas())} starting areas for {len(forces)} forces "
                         "(HX-SETUP-03 OPEN)")  # fmt: skip
    build_total = max(force.build_total for force in forces)
    built = [sum(library.characters[c].points for c in f.characters) + feat_points(library, f) for f in forces]
    state = HeroState(
        geometry_of(layout),
        Dice(rng),
        [Player(n, teams[n - 1] if teams else n, built[n - 1], force.name) for n, force in enumerate(forces, 1)],
        build_total=build_total,
        turn_limit=turn_limit,
        ruleset=load(),
    )
    decisions.perform(state, _set_up, (library, tuple(forces), layout))
    return state


def _set_up(state: HeroState, plan: tuple[Library, tuple[Force, ...], MapFile]) -> None:
    library, forces, layout = plan
    first = _first_player(state)
    order = [(first - 1 + k) % len(state.players) + 1 for k in range(len(state.players))]
    areas = _choose_areas(state, order, layout)
    layout = card_play.reveal(state, library, forces, layout)  # HX-SETUP-04: step 3, the battlefield conditions
    _place_objects(state, forces, order, areas, layout)
    for number in order:
        _place_characters(state, library, forces[number - 1], number, areas[number])
    card_play.assign(state, library, forces)  # team symbols and feats (HX-TEAM-01, HX-FEAT-02)
    _mark_archenemies(state, library)
    state.active = first
    state.turn = 1
    state.emit(EventKind.SETUP_DONE, first=first, areas=tuple(sorted(areas.items())))
    rules.begin_turn(state)


def _first_player(state: HeroState) -> int:
    """Each player rolls 2d6; the highest total goes first; only those tied for it roll again (HX-SETUP-01 OPEN)."""
    contenders = [p.number for p in state.players]
    while True:
        rolls = {n: decisions.d6(state) + decisions.d6(state) for n in contenders}
        best = max(rolls.values())
        contenders = [n for n, total in rolls.items() if total == best]
        if len(contenders) == 1:
            state.emit(EventKind.FIRST_PLAYER, player=contenders[0], rolls=tuple(sorted(rolls.items())))
            return contenders[0]


def table_areas(layout: MapFile, players: int) -> list[int]:
    """The starting areas a table of `players` chooses from (HX-SETUP-03 OPEN): a map numbers its areas for the
    table, 1 and 2 on opposite edges for two players, 3 and 4 on the other edges for three or four; a game of N
    players uses areas 1..N, or every area when the map does not number them so."""
    areas = sorted(layout.starting_areas())
    numbered = [a for a in areas if a <= players]
    return numbered if len(numbered) >= players else areas


def _choose_areas(state: HeroState, order: list[int], layout: MapFile) -> dict[int, int]:
    """From the player after the first, each chooses a starting area no one has chosen; the first player takes
    the last choice left to it (with two players, the area the other did not take: HX-SETUP-03)."""
    left = table_areas(layout, len(order))
    chosen: dict[int, int] = {}
    for number in [*order[1:], order[0]]:
        pick = decisions.ask(state, "area", number, left, always=len(left) > 1)
        chosen[number] = pick
        left.remove(pick)
    return chosen


def _place_objects(
    state: HeroState, forces: Sequence[Force], order: list[int], areas: dict[int, int], layout: MapFile
) -> None:
    """The forces' object tokens in one shuffled pile; from the first player round the table, each draws one and
    places it on clear terrain outside every chosen starting area, one object a square (HX-SETUP-05, -07 and its
    OPEN). The map then holds them, as hindering terrain for movement and lines of fire (HX-OBJECT-03)."""
    pile = [kind for force in forces for kind in force.objects]
    if not pile:
        return
    mixed = [pile[i] for i in decisions.shuffle(state, len(pile))]
    starting = layout.starting_areas()  # read off the rows once, not once per area
    taken_areas = {xy for number in areas.values() for xy in starting[number]}
    clear = [  # the clear squares outside the chosen areas, row by row: the map's rows are read once, not per object
        (x, y)
        for y, row in enumerate(layout.rows)
        for x, char in enumerate(row)
        if TERRAIN_CHARS[char] == "clear" and (x, y) not in taken_areas
    ]
    placed = list(layout.objects)
    for k, kind in enumerate(mixed):
        number = order[k % len(order)]
        used = {o.at for o in placed}
        free = [xy for xy in clear if xy not in used]
        if not free:
            break
        at = decisions.ask(state, "object", number, free, kind, always=True)
        placed.append(MapObject(kind=kind, at=at))
    state.geometry = geometry_of(layout.model_copy(update={"objects": placed}))


def _place_characters(state: HeroState, library: Library, force: Force, number: int, area: int) -> None:
    """The player places each of its characters on a free square of its starting area that it may occupy, and
    sets each flier hovering or soaring, hovering indoors (HX-SETUP-08, -09). A double-base character takes two
    such squares, its front and then its rear half next to it (HX-SPECIAL-04)."""
    geometry = state.geometry
    squares = geometry.starting_areas[area]
    for index, name in enumerate(force.characters):
        character = library.characters[name]
        taken = double_base.spots(state, state.monsters)
        free = [s for s in squares if s not in taken and geometry.terrain[s] != BLOCKING]
        double = character.size == double_base.DOUBLE_BASE
        if double:
            free = [s for s in free if double_base.partners(state, s, free)]
        if not free:
            raise SetupError(f"force {force.name} does not fit its starting area (HX-SETUP-08 OPEN)")
        square = decisions.ask(state, "place", number, free, name, always=True)
        figure = _figure(len(state.monsters), f"{number}:{index}:{name}", character, number, square)
        state.monsters.append(figure)
        if double:
            rears = double_base.partners(state, square, free)
            state.rears[figure.uid] = decisions.ask(state, "place rear", number, rears, name, always=True)
        elif character.size != "standard":
            state.sizes[figure.uid] = character.size
        if character.transporter:
            state.transporters = state.transporters | {figure.uid}
        if character.speed_mode == "wing" and not earthbound(figure):  # HX-POWER-04: grounded
            indoors = any(geometry.indoor[s] for s in double_base.squares(state, figure))
            modes = [HOVERING] if indoors else [HOVERING, SOARING]
            state.flight[figure.uid] = decisions.ask(state, "flight", number, modes, name)


def _mark_archenemies(state: HeroState, library: Library) -> None:
    """Each character's archenemies among the opposing characters (HX-BUILD-04), for the double VP of
    HX-END-06; a character's `stats.id` is its library id."""
    found: dict[int, set[int]] = {}
    for one in state.monsters:
        for other in state.monsters:
            if team(state, one.controller) != team(state, other.controller) and archenemies(
                library.characters[one.stats.id], library.characters[other.stats.id]
            ):
                found.setdefault(one.uid, set()).add(other.uid)
    state.archenemies = {uid: frozenset(rivals) for uid, rivals in found.items()}


def _figure(uid: int, label: str, character: Character, player: int, square: int) -> Figure:
    return Figure(uid, label, character_stats(character), player, player, square, character.start, "start",
                  character.start)  # fmt: skip


STATS_KEPT = 256
"""How many characters' `Stats` a process keeps (`character_stats`); all are dropped when it is full."""

_stats: dict[tuple[object, ...], Stats] = {}


def character_stats(character: Character) -> Stats:
    """`character`'s dial as the engine reads it (HX-CHAR-05): parsed once per process, not once per game, and
    shared by its figures, as `State.copy` shares stats (nothing changes a `Stats`: Outwit puts another in its
    place). Kept by everything it is made from, so a changed character gets its own."""
    dial = tuple(e if isinstance(e, str) else (e.values, tuple(e.powers)) for e in character.dial)
    key = (character.id, dial, tuple(character.powers), character.start, character.range, character.bolts,
           character.speed_mode, character.points)  # fmt: skip
    found = _stats.get(key)
    if found is None:
        if len(_stats) >= STATS_KEPT:
            _stats.clear()
        found = _stats[key] = _parsed_stats(character)
    return found


def _parsed_stats(character: Character) -> Stats:
    stats = stats_from_dial(
        character.id, character.clicks(), start=character.start, range_=character.range, bolts=character.bolts,
        speed_mode=character.speed_mode, points=character.points,
    )  # fmt: skip
    everywhere = [power_named(p) for p in character.powers]
    showing: tuple[dict[str, dict[str, object]], ...] = tuple(
        {name: {} for name in [*everywhere, *(power_named(p) for p in ([] if isinstance(e, str) else e.powers))]}
        for e in character.dial
    )
    return replace(stats, powers={"start": showing})


__all__ = ["DEFAULT_TURN_LIMIT", "SetupError", "character_stats", "new_game", "table_areas"]
