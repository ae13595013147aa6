"""Movement: which spaces a monster may move through and end in, by the rules of HC-MOVE and HC-TERRAIN.

One step rule (`MoveContext.step`) checks a given path (`check_path`, for scenario steps and "why
not"); listing every destination (`search`, for the legal actions) reads the same rule's per-map step
tables as bitsets (engine/horrorclix/move_tables.py), and tests/test_movement_tables.py holds the two to agreeing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from clix.engine.core import effects
from clix.engine.core.geometry import BLOCKING
from clix.engine.horrorclix import combat
from clix.engine.horrorclix.actions import AttackKind
from clix.engine.horrorclix.move_tables import (
    Bits,
    TerrainProfile,
    bits_of,
    search_tables,
    single_bit,
    spaces_of,
    terrain_bits,
    terrain_profile,
    terrain_step,
)
from clix.engine.horrorclix.state import ON_MAP, SOARING, GameState, Monster


@dataclass(frozen=True, slots=True)
class Step:
    """The outcome of one step: allowed or not (with the reason), and whether the move must end there."""

    allowed: bool
    must_stop: bool = False
    reason: str = ""


class MoveContext:
    """Everything one move needs to know, gathered once before the monster starts moving."""

    def __init__(self, state: GameState, monster: Monster, broke_away: Iterable[int] = (), flight: int | None = None):
        self.state = state
        self.geo = state.geometry
        self.monster = monster
        self.flight = monster.flight if flight is None else flight
        abilities = monster.abilities
        self.ghost = "Ghost" in abilities
        self.leap = "Leap/Climb" in abilities
        self.flying = monster.stats.speed_mode == "wing"
        self.soaring = self.flying and self.flight == SOARING
        self.hovering = self.flying and not self.soaring
        self.swimming = monster.stats.speed_mode == "fin"
        self.profile = terrain_profile(self.ghost, self.leap, self.soaring, self.hovering, self.swimming)
        # Soaring ignores all terrain and objects (HC-MOVE-12, -20), walls and portals included; Ghost
        # ignores walls and portals (HC-DATA-16).
        self.through_walls = self.ghost or self.soaring
        # HC-MOVE-18 / HC-CARD-10: "ignores monsters" treats them as not there (no stop, pass through).
        self.ignores_monsters = self.flying or self.ghost or self.leap
        broke = set(broke_away)
        self.friendly: set[int] = set()
        self.opposing: set[int] = set()
        self.stop_spaces: set[int] = set()
        players = state.players
        team = players[monster.controller - 1].team
        for other in state.monsters:
            if not other.alive or other is monster:
                continue
            if players[other.controller - 1].team != team:  # state.opposing, inlined: this runs for every move
                self.opposing.add(other.pos)
                if other.uid not in broke and engages(self.flight, other):
                    # HC-MOVE-04, HC-MOVE-07; adjacency as pieces have it, the mover not closing doorways it
                    # passes (HC-TERRAIN-27, -28)
                    self.stop_spaces.update(combat.neighbours(state, other.pos, moving=monster))
            else:
                self.friendly.add(other.pos)
        self.victims = {v.pos for v in state.victims if v.state == ON_MAP}
        self.objects = {o.pos for o in state.objects if o.alive and o.kind != "portal"}
        # Doorway edges this monster may not cross: an opposing monster or a victim on either side (HC-TERRAIN-15);
        # Ghost and soaring monsters ignore portals.
        self.shut_doors: set[tuple[int, int]] = set()
        if not self.through_walls:
            for o in state.objects:
                if (
                    o.alive
                    and o.kind == "portal"
                    and any(s in self.opposing or s in self.victims for s in (o.pos, o.across))
                ):
                    self.shut_doors.add((min(o.pos, o.across), max(o.pos, o.across)))
        # The same facts as bitsets over the spaces, for `search`.
        opposing_bits = bits_of(self.opposing)
        self.blocked_bits: Bits = 0
        self.stop_bits: Bits = 0
        if not self.ignores_monsters:
            self.blocked_bits = opposing_bits
            self.stop_bits = bits_of(self.victims | self.stop_spaces)
        unendable = opposing_bits | bits_of(self.friendly | self.objects)
        self.end_bits: Bits = ~(unendable | terrain_bits(self.geo, BLOCKING))

    def hindering_like(self, space: int) -> bool:
        return self.profile.hindering_like(self.geo, space)

    def can_cross_blocking(self, space: int) -> bool:
        return self.profile.can_cross_blocking(self.geo, space)

    def budget(self, start: int, changes_flight: bool) -> int:
        """Spaces this move may cover: speed, halved (round up) from hindering, -1 per flight change."""
        # Halving from hindering is a replacement (HC-TERRAIN-04, HC-VALUE-01/-07), the elevation change a
        # modifier (HC-MOVE-10); powers and lasting effects add theirs.
        return effects.stat(
            self.state,
            self.monster,
            "speed",
            effects.Query(self.monster, None, AttackKind.MOVE),
            extra=-1 if changes_flight else 0,
            halve=self.hindering_like(start),
        )

    def step(self, here: int, there: int) -> Step:
        """Whether the monster may step from `here` to the adjacent `there`, and must stop there."""
        geo = self.geo
        if there not in (geo.all_neighbour_sets[here] if self.through_walls else geo.neighbour_sets[here]):
            return Step(False, reason="not an adjacent space (or a wall is in the way)")
        if self.soaring and geo.indoor[there]:
            return Step(False, reason="a soaring monster cannot enter an indoor space (HC-MOVE-21)")
        reason, terrain_stop = terrain_step(self, here, there)
        if reason:
            return Step(False, reason=reason)
        if self.shut_doors and (min(here, there), max(here, there)) in self.shut_doors:
            return Step(False, reason="a closed portal with an opposing monster or a victim at it (HC-TERRAIN-15)")
        if there in self.opposing and not self.ignores_monsters:
            return Step(False, reason="an opposing monster is there (HC-MOVE-05)")
        must_stop = False
        if there in self.victims and not self.ignores_monsters:
            must_stop = True  # ending here slays (HC-SLAY-04); only flyers, Ghost, Leap/Climb pass victims
        if there in self.stop_spaces and not self.ignores_monsters:
            must_stop = True  # HC-MOVE-04
        return Step(True, must_stop or terrain_stop)

    def endable(self, space: int, start: int) -> str:
        """Why the move may not end in `space` ('' if it may)."""
        if space == start:
            return ""
        if space in self.friendly or space in self.opposing:
            return "another monster is there (HC-MOVE-05)"
        if space in self.objects:
            return "a tombstone or Tree of the Damned is there (HC-TERRAIN-17, -32)"
        if self.geo.terrain[space] == BLOCKING:
            return "a monster cannot end its move in blocking terrain (HC-MOVE-20)"
        return ""


class VictimContext:
    """A victim moved in the suspense phase (HC-VICTIM-04, HC-VICTIM-08, HC-TERRAIN-31)."""

    ghost = False
    soaring = False
    through_walls = False

    def __init__(self, state: GameState, victim_uid: int) -> None:
        self.geo = state.geometry
        self.monsters = {m.pos for m in state.monsters if m.alive}
        self.occupied = self.monsters | {
            v.pos for v in state.victims if v.state == ON_MAP and v.uid != victim_uid
        }
        self.objects = {o.pos for o in state.objects if o.alive and o.kind != "portal"}
        # HC-TERRAIN-31: any monster on either side of a doorway closes it to the chosen victim.
        self.shut_doors: set[tuple[int, int]] = {
            (min(o.pos, o.across), max(o.pos, o.across))
            for o in state.objects
            if o.alive and o.kind == "portal" and (o.pos in self.monsters or o.across in self.monsters)
        }
        self.blocked_bits: Bits = bits_of(self.occupied)
        self.stop_bits: Bits = 0
        self.end_bits: Bits = ~bits_of(self.objects)

    profile: ClassVar[TerrainProfile] = TerrainProfile(victim=True)  # ClassVar: mypyc would make one per instance

    def hindering_like(self, space: int) -> bool:
        return self.profile.hindering_like(self.geo, space)

    def can_cross_blocking(self, space: int) -> bool:
        return False

    def budget(self, start: int, speed: int) -> int:
        return (speed + 1) // 2 if self.hindering_like(start) else speed

    def step(self, here: int, there: int) -> Step:
        if there not in self.geo.neighbour_sets[here]:
            return Step(False, reason="not an adjacent space (or a wall is in the way)")
        reason, terrain_stop = terrain_step(self, here, there)
        if reason:
            return Step(False, reason=reason)
        if self.shut_doors and (min(here, there), max(here, there)) in self.shut_doors:
            return Step(False, reason="a closed portal with a monster at it (HC-TERRAIN-31)")
        if there in self.occupied:
            return Step(False, reason="a victim never moves through a monster or another victim (HC-VICTIM-04)")
        return Step(True, terrain_stop)

    def endable(self, space: int, start: int) -> str:
        if space in self.objects:
            return "a victim cannot end on a tombstone or Tree of the Damned (HC-VICTIM-08)"
        return ""


def engages(flight: int, other: Monster) -> bool:
    """Adjacency engages only at the same elevation: soaring with soaring, grounded/hovering with
    grounded/hovering (HC-MOVE-22 OPEN, decided in docs/rulings.md)."""
    return (flight == SOARING) == (other.flight == SOARING)


def check_path(ctx: MoveContext | VictimContext, start: int, path: list[int], budget: int) -> str:
    """Why `path` (spaces entered, in order) is not a legal move from `start` ('' if it is)."""
    if len(path) > budget:
        return f"the path is {len(path)} spaces but the monster may move only {budget} (HC-MOVE-03)"
    here = start
    for number, there in enumerate(path, 1):
        step = ctx.step(here, there)
        if not step.allowed:
            return f"step {number} to {list(ctx.geo.xy(there))}: {step.reason}"
        if step.must_stop and number < len(path):
            return (
                f"the move must end at step {number} {list(ctx.geo.xy(there))} (opposing monster adjacent, "
                "hindering terrain or a victim), but the path goes on (HC-MOVE-04, HC-TERRAIN-03)"
            )
        here = there
    reason = ctx.endable(here, start)
    return f"cannot end at {list(ctx.geo.xy(here))}: {reason}" if reason else ""


def destinations(ctx: MoveContext | VictimContext, start: int, budget: int) -> dict[int, list[int]]:
    """Every space the move may end in, with a shortest legal path to it (the start space is not listed)."""
    reach = search(ctx, start, budget)
    return {end: reach.path(end) for end in reach.ends()}


def search(ctx: MoveContext | VictimContext, start: int, budget: int) -> Reach:
    """Every space the move may end in (`Reach.ends`), with a shortest legal path to any of them on demand.

    A breadth-first search over bitsets of the spaces, one layer per step: from the spaces reached free to go
    on, each of the eight directions steps through the map's step table (`step_masks`), then the pieces
    decide (opposing monsters block, victims and engaging monsters stop the move). While a doorway is shut
    to the mover, the full step rule decides each step instead (`_slow_search`).
    """
    if ctx.shut_doors:
        return _slow_search(ctx, start, budget)
    masks, up, down, high, space_bits = search_tables(ctx.geo, ctx.profile)
    (u0, m0), (u1, m1), (u2, m2), (u3, m3) = up
    (d0, n0), (d1, n1), (d2, n2), (d3, n3) = down
    passable: Bits = ~ctx.blocked_bits
    stop_bits: Bits = ctx.stop_bits
    open_spaces: Bits = space_bits & passable
    go_on: Bits = open_spaces & ~stop_bits  # entered freely, the move may go on
    stop_at: Bits = open_spaces & stop_bits  # entered freely, but a piece there stops the move
    free: Bits = 1 << start
    go_on_unreached: Bits = go_on & ~free  # where a free step may still go on to: not yet reached free
    seen: Bits = free
    layers: list[tuple[Bits, Bits]] = [(free, 0)]
    for _ in range(budget):
        both: Bits = free | free << high  # the free spaces twice: once for steps going on, once for steps stopping
        reached: Bits = (  # every direction at once, spelled out: this is the engine's innermost loop
            (both & m0) << u0
            | (both & m1) << u1
            | (both & m2) << u2
            | (both & m3) << u3
            | (both & n0) >> d0
            | (both & n1) >> d1
            | (both & n2) >> d2
            | (both & n3) >> d3
        )
        stop_to: Bits = reached >> high & passable
        if stop_bits:
            stop_to |= reached & stop_at
        free = reached & go_on_unreached
        go_on_unreached ^= free
        stopped: Bits = stop_to & ~seen
        seen |= free | stopped
        layers.append((free, stopped))
        if not free:
            break
    return Reach(start, seen & ctx.end_bits & ~(1 << start), layers, masks, stop_bits)


class Reach:
    """The outcome of one destination search: the spaces a move may end in, and a shortest path to each."""

    __slots__ = ("_layers", "_masks", "_paths", "_stop_bits", "end_bits", "start")

    def __init__(
        self,
        start: int,
        end_bits: Bits,
        layers: list[tuple[Bits, Bits]],
        masks: tuple[tuple[int, Bits, Bits], ...] = (),
        stop_bits: Bits = 0,
        paths: dict[int, list[int]] | None = None,
    ) -> None:
        self.start = start
        self.end_bits = end_bits
        """The destinations as a bitset (bit i: space i)."""
        self._layers = layers
        """Per step taken: (spaces first reached free to go on, spaces first reached where the move stops)."""
        self._masks = masks
        self._stop_bits = stop_bits
        self._paths = paths

    def ends(self) -> list[int]:
        """The destinations, in space order."""
        return spaces_of(self.end_bits)

    def __contains__(self, space: int) -> bool:
        return space >= 0 and bool(self.end_bits & single_bit(space))

    def path(self, end: int) -> list[int]:
        """A shortest legal path (spaces entered, in order) from the start to the destination `end` (the start
        itself: staying put, an empty path)."""
        if end == self.start:
            return []
        if self._paths is not None:
            return self._paths[end]
        layers = self._layers
        bit: Bits = single_bit(end)
        step = 0
        for free, stopped in layers:  # a loop, not `next` over a generator: compiled, a generator is an object
            if free & bit or stopped & bit:
                break
            step += 1
        as_free = bool(layers[step][0] & bit)
        path = [end]
        here = end
        while step > 1:
            here = self._parent(here, step, as_free)
            path.append(here)
            step -= 1
            as_free = True
        return path[::-1]

    def _parent(self, space: int, step: int, as_free: bool) -> int:
        """A space reached free at `step - 1` from which one step enters `space` as it was reached."""
        before = self._layers[step - 1][0]
        dynamic_stop = bool(self._stop_bits & single_bit(space))
        # bits tested against a kept single-bit int, not shifted down: a shift makes a new map-sized int
        for offset, go_free, go_stop in self._masks:
            parent = space - offset
            if parent < 0:
                continue
            bit: Bits = single_bit(parent)
            if not before & bit:
                continue
            if as_free:
                if go_free & bit:
                    return parent
            elif go_stop & bit or (dynamic_stop and go_free & bit):
                return parent
        raise AssertionError(f"no parent for space {space} at step {step}")  # the layers say there is one


def _slow_search(ctx: MoveContext | VictimContext, start: int, budget: int) -> Reach:
    """`search` by the full step rule, one step at a time (while a doorway is shut to the mover)."""
    paths = _search_by_steps(ctx, start, budget, lambda here: _slow_steps(ctx, here))
    return Reach(start, bits_of(paths), [], paths=paths)


def _search_by_steps(ctx: MoveContext | VictimContext, start: int, budget: int, steps) -> dict[int, list[int]]:  # type: ignore[no-untyped-def]
    """Breadth-first search calling `steps(here)` for the allowed steps; destinations with a shortest path each."""
    # Two nodes per space: reached and free to go on, or reached where the move must stop. A stop node never
    # goes on, so every node's parent is a free node and one parent space per node is enough.
    unseen = -2
    free_parent = [unseen] * ctx.geo.size
    stop_parent = [unseen] * ctx.geo.size
    free_parent[start] = -1
    order: list[tuple[int, bool]] = []  # nodes in the order reached: each space's first is its shortest path
    frontier = [start]
    for _ in range(budget):
        nxt = []
        for here in frontier:
            for there, stop in steps(here):
                if stop:
                    if stop_parent[there] == unseen and free_parent[there] == unseen:
                        stop_parent[there] = here
                        order.append((there, True))
                elif free_parent[there] == unseen:
                    free_parent[there] = here
                    nxt.append(there)
                    order.append((there, False))
        frontier = nxt
    found: dict[int, list[int]] = {}
    for space, stop in order:
        if space == start or space in found or ctx.endable(space, start):
            continue
        path = [space]
        node = stop_parent[space] if stop else free_parent[space]
        while node != start:
            path.append(node)
            node = free_parent[node]
        found[space] = path[::-1]
    return found


def _slow_steps(ctx: MoveContext | VictimContext, here: int) -> list[tuple[int, bool]]:
    """Every allowed step from `here` by the full step rule (used while a doorway is shut to the mover)."""
    found = []
    for there in ctx.geo.all_neighbours[here] if ctx.through_walls else ctx.geo.neighbours[here]:
        step = ctx.step(here, there)
        if step.allowed:
            found.append((there, step.must_stop))
    return found
