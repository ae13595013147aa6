"""Setting up a game from armies and a map (HC-SETUP-03..09), with every choice put to the players (as
`engine.core.decisions` questions: the setup is the game's first step)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from clix.engine.core import decisions
from clix.engine.core.board import STEPS
from clix.engine.core.dice import Dice
from clix.engine.core.geometry import CLEAR, Geometry
from clix.engine.horrorclix import rules, subplots
from clix.engine.horrorclix import ruleset as horrorclix
from clix.engine.horrorclix.events import EventKind
from clix.engine.horrorclix.figures import compile_figure
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.roster.models import OPPOSITE_EDGE, Army, MapLayout, area_edge
from clix.engine.horrorclix.state import HOVERING, SOARING, GameState, MapObject, Monster, Phase, Player, Victim
from clix.engine.horrorclix.zones import portal_sites, starting_zone

VICTIM_TOKENS = 12
"""Victim tokens in every game, each player contributing an equal share (HC-VICTIM-02)."""

DEFAULT_TURN_LIMIT = 15
"""Turns per player when none is given: the rules' 60-minute game (HC-END-01 b), see docs/rulings.md."""

_GEOMETRY: dict[int, tuple[Geometry, list[tuple[int, str]], frozenset[int]]] = {}


def geometry_for(layout: MapLayout) -> Geometry:
    """The geometry of a map, computed once per map object and shared by every game on it."""
    return _map_facts(layout)[0]


def map_of(geometry: Geometry) -> MapLayout:
    """The HorrorClix map a geometry was built from (the core reads any ruleset's map as a `board.Layout`)."""
    return cast(MapLayout, geometry.layout)


def _map_facts(layout: MapLayout) -> tuple[Geometry, list[tuple[int, str]], frozenset[int]]:
    """Geometry, portal sites and the no-object zone of a map, computed once per map object."""
    found = _GEOMETRY.get(id(layout))
    if found is None or found[0].layout is not layout:
        geo = Geometry(layout)
        sites = [(geo.index(x, y), side) for (x, y), side in portal_sites(layout)]
        zone = frozenset(geo.index(x, y) for x, y in starting_zone(layout))
        found = _GEOMETRY[id(layout)] = (geo, sites, zone)
    return found


def new_game(
    roster: Roster,
    armies: Sequence[Army],
    layout: MapLayout,
    rng: np.random.Generator,
    turn_limit: int | None = DEFAULT_TURN_LIMIT,
    army_names: Sequence[str] = (),
    tie_break: bool = True,
    teams: Sequence[int] = (),
) -> GameState:
    """A new game, set up as far as the first question to a player (`state.waiting`): seats, first player,
    starting areas, victims, objects, monsters; then turn 1 begins. The dice are drawn from `rng`.
    `tie_break` False plays equal VP as a draw instead of HC-END-09's cheaper-army rule. `teams`: each seat's
    team number (teammates' monsters friendly, their VP summed, HC-SPECIAL-11); none: every player alone."""
    if teams and len(teams) != len(armies):
        raise ValueError(f"{len(teams)} team numbers for {len(armies)} armies")
    geometry = geometry_for(layout)
    players = [
        Player(
            number=n,
            team=teams[n - 1] if teams else n,
            army_points=sum(roster.figures[e.figure].points for e in army.figures),
            army_name=(army_names[n - 1] if n - 1 < len(army_names) else army.name),
            hidden_cards=list(army.crypt),
        )
        for n, army in enumerate(armies, 1)
    ]
    build_total = max(a.build_total for a in armies)
    state = GameState(
        geometry=geometry,
        dice=Dice(rng),
        players=players,
        build_total=build_total,
        turn_limit=turn_limit,
        phase=Phase.SETUP,
        cards=roster.plot_twists,
        tie_break=tie_break,
        ruleset=horrorclix.load(),
    )
    decisions.perform(state, _set_up, (roster, tuple(armies)))
    return state


def _set_up(state: GameState, plan: tuple[Roster, tuple[Army, ...]]) -> None:
    """The setup step: first player, areas, victims, objects, monsters; then the first turn begins."""
    roster, armies = plan
    first = _first_player(state)
    areas = _choose_areas(state, first)
    order = [(first - 1 + k) % len(state.players) + 1 for k in range(len(state.players))]
    _place_victims(state, armies, order, roster)
    _place_objects(state, armies, order, areas)
    for number in order:
        _place_monsters(state, roster, armies[number - 1], number, areas[number])
    state.active = first
    state.turn = 1
    subplots.reveal_subplots(state)  # step 7 (HC-SETUP-09, HC-PLOT-04)
    state.emit(EventKind.SETUP_DONE, first=first, areas=tuple(sorted(areas.items())))
    rules.begin_turn(state)


def _first_player(state: GameState) -> int:
    """Each player rolls a d6; the highest is first, ties reroll (HC-SETUP-03)."""
    contenders = [p.number for p in state.players]
    while True:
        rolls = {n: decisions.d6(state) for n in contenders}
        best = max(rolls.values())
        contenders = [n for n, r in rolls.items() if r == best]
        if len(contenders) == 1:
            state.emit(EventKind.FIRST_PLAYER, player=contenders[0], rolls=tuple(sorted(rolls.items())))
            return contenders[0]


def _choose_areas(state: GameState, first: int) -> dict[int, int]:
    """Starting with the player left of the first player, each picks a different edge (HC-SETUP-04).

    With two players the areas must be on opposite edges: the second player picks and the first takes
    the opposite one (HC-SETUP-04 OPEN, docs/rulings.md).
    """
    geo = state.geometry
    areas = geo.starting_areas
    edges: dict[int, str | None] = geo.cached(  # the map's alone: worked out once per map
        "area_edges",
        lambda: {label: area_edge(map_of(geo), [geo.xy(s) for s in spaces]) for label, spaces in areas.items()},
    )
    count = len(state.players)
    chosen: dict[int, int] = {}
    if count == 2:
        second = first % 2 + 1
        options = sorted(a for a in areas if any(edges[b] == OPPOSITE_EDGE.get(edges[a] or "") for b in areas))
        pick = decisions.ask(state, "edge", second, options, always=True)
        chosen[second] = pick
        chosen[first] = next(b for b in sorted(areas) if edges[b] == OPPOSITE_EDGE.get(edges[pick] or ""))
        state.areas.update(chosen)
        return chosen
    for k in range(1, count + 1):
        number = (first - 1 + k) % count + 1
        options = sorted(a for a in areas if a not in chosen.values())
        chosen[number] = decisions.ask(state, "edge", number, options, always=True)
        state.areas[number] = chosen[number]
    return chosen


def _place_victims(state: GameState, armies: Sequence[Army], order: list[int], roster: Roster) -> None:
    """The contributed victims, shuffled face down, placed in turn on victim start spaces (HC-SETUP-05). Each
    army contributes its share of the 12 (HC-VICTIM-02): its first 12 / players listed victims, so an army built
    for two players brings 4 of its 6 to a 3-player game, 3 to a 4-player one (docs/rulings.md)."""
    share = VICTIM_TOKENS // len(armies)
    pool = [(name, n) for n, army in enumerate(armies, 1) for name in army.victims[:share]]
    shuffled = [pool[i] for i in decisions.shuffle(state, len(pool))]
    free = list(state.geometry.victim_spaces)
    for k, (name, owner) in enumerate(shuffled):
        if not free:
            break
        number = order[k % len(order)]
        choice = free.index(decisions.ask(state, "victim_space", number, free, always=True))
        archetype = roster.victims[name]
        state.victims.append(
            Victim(
                uid=len(state.victims),
                label=f"V{len(state.victims) + 1}",
                archetype=name,
                speed=archetype.speed,
                gender=archetype.gender,
                pos=free.pop(choice),
                owner=owner,
            )
        )


def _place_objects(state: GameState, armies: Sequence[Army], order: list[int], areas: dict[int, int]) -> None:
    """Each player may place up to two objects on clear terrain away from starting areas (HC-SETUP-06)."""
    geo, sites, zone = _map_facts(map_of(state.geometry))
    taken = {v.pos for v in state.victims}
    for obj in map_of(geo).objects:  # objects printed on the map
        _add_object(state, obj.kind, geo.index(*obj.at), obj.side)
    for number in order:
        for kind in armies[number - 1].objects:
            taken |= {o.pos for o in state.objects}
            if kind == "portal":
                options: list[tuple[int, str | None] | None] = [
                    (pos, side) for pos, side in sites if pos not in zone and pos not in taken
                ]
            else:  # tombstones and trees only outdoors (HC-TERRAIN-17, -19)
                options = [
                    (pos, None)
                    for pos in range(geo.size)
                    if geo.terrain[pos] == CLEAR and not geo.indoor[pos] and pos not in zone and pos not in taken
                ]
            options.append(None)
            pick = decisions.ask(state, "object_space", number, options, kind, always=True)
            if pick is not None:
                _add_object(state, kind, pick[0], pick[1])


def _add_object(state: GameState, kind: str, pos: int, side: str | None) -> None:
    across = -1
    if kind == "portal" and side is not None:
        x, y = state.geometry.xy(pos)
        dx, dy = STEPS[side]
        across = state.geometry.index(x + dx, y + dy)
    state.objects.append(MapObject(len(state.objects), kind, pos, across))
    state.emit(EventKind.OBJECT_PLACED, object=kind, at=state.geometry.xy(pos))


def _place_monsters(state: GameState, roster: Roster, army: Army, number: int, area: int) -> None:
    """Dials to their starting lines; monsters into the starting area, overflow to adjacent clear spaces
    (HC-SETUP-07, HC-SETUP-08); flyers choose hovering or soaring."""
    geo = state.geometry
    for entry in army.figures:
        figure = roster.figures[entry.figure]
        stats = compile_figure(figure)
        side = entry.side or stats.start_sides[0]
        if entry.side is None and len(stats.start_sides) > 1:  # a crossroads card (HC-CARD-07, HC-SETUP-03)
            sides = list(stats.start_sides)
            side = decisions.ask(state, "crossroads", number, sides, figure.id, stats, always=True)
        start = stats.red_start if stats.side_starts_red[side] and stats.red_start is not None else stats.start
        occupied = state.occupied()
        blocked = {o.pos for o in state.objects if o.alive and o.kind != "portal"}
        area_spaces = [s for s in geo.starting_areas[area] if s not in occupied and s not in blocked]
        if not area_spaces:
            area_spaces = sorted(
                {
                    n
                    for s in geo.starting_areas[area]
                    for n in geo.neighbours[s]
                    if geo.terrain[n] == CLEAR and n not in occupied and n not in blocked
                }
            )
        pos = decisions.ask(state, "monster_space", number, area_spaces, figure.id, always=True)
        monster = Monster(
            uid=len(state.monsters),
            label=f"P{number}.{figure.id}#{len(state.monsters) + 1}",
            stats=stats,
            owner=number,
            controller=number,
            pos=pos,
            click=start,
            side=side,
            start_line=start,
        )
        if stats.speed_mode == "wing":
            modes = [HOVERING] if geo.indoor[pos] or geo.kind == "indoor" else [HOVERING, SOARING]
            monster.flight = decisions.ask(state, "flight", number, modes, figure.id, monster, always=True)
        state.monsters.append(monster)
