"""What the map alone says about moving (HC-MOVE, HC-TERRAIN): terrain's step rule (`terrain_step`), and per
map and terrain profile, the step tables and their bitsets that `movement.search` reads. Nothing here looks at
pieces except through the mover's shut doorways, so each table is computed once per map (`Geometry.cached`)."""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any, Final, NamedTuple, Protocol, TypeAlias

from clix.engine.core.geometry import BLOCKING, HINDERING, WATER, Geometry

Bits: TypeAlias = Any
"""A set of spaces as an int, bit i for space i. Typed `Any` on purpose: compiled, an `int` goes through
mypyc's machine-word fast path, which a map-sized int never takes and which adds a conversion to every
operation (about 40% on `search`); as `Any` it gets CPython's integer operations directly."""


class TerrainProfile(NamedTuple):
    """How terrain treats one kind of mover; everything here depends only on the map, never on pieces,
    so each profile's step table is computed once per map (`step_table`). A named tuple, since it keys the
    map's tables on every search and a tuple hashes fast."""

    ghost: bool = False
    leap: bool = False
    soaring: bool = False
    hovering: bool = False
    swimming: bool = False
    victim: bool = False

    @property
    def through_walls(self) -> bool:
        # Soaring ignores all terrain and objects (HC-MOVE-12, -20); Ghost ignores walls (HC-DATA-16).
        return self.ghost or self.soaring

    @property
    def ignores_hindering(self) -> bool:
        return self.soaring or self.hovering or self.ghost or self.leap

    def hindering_like(self, geo: Geometry, space: int) -> bool:
        """Terrain that stops the mover on entry and halves its speed (HC-TERRAIN-03/-04/-09, HC-MOVE-13,
        HC-VICTIM-08: water is hindering for victims, docs/rulings.md)."""
        if self.ignores_hindering:
            return False
        terrain = geo.terrain[space]
        return terrain == HINDERING or (terrain == WATER and not self.swimming)

    def can_cross_blocking(self, geo: Geometry, space: int) -> bool:
        """Whether the mover may pass over blocking terrain in `space` (HC-MOVE-11/-12/-20, HC-DATA-16/-17)."""
        if self.victim:
            return False
        if self.soaring:
            return True
        if self.hovering or self.leap:
            return not geo.indoor[space]
        return self.ghost and geo.indoor[space]


def terrain_profile(ghost: bool, leap: bool, soaring: bool, hovering: bool, swimming: bool) -> TerrainProfile:
    """The monster's `TerrainProfile` of these flags, made once per process: every move asks for one, and a
    named tuple's constructor runs interpreted even in the compiled engine."""
    key = (1 if ghost else 0) | (2 if leap else 0) | (4 if soaring else 0) | (8 if hovering else 0)
    key |= 16 if swimming else 0
    found = _PROFILES[key]
    if found is None:
        found = _PROFILES[key] = TerrainProfile(ghost, leap, soaring, hovering, swimming)
    return found


_PROFILES: Final[list[TerrainProfile | None]] = [None] * 32
"""A monster's terrain profile by its five flags as bits (`terrain_profile`)."""


class TerrainMover(Protocol):
    """What terrain's rules read of a mover: a monster's or a victim's move (engine/horrorclix/movement.py), or a map-only
    mover (for the step tables)."""

    @property
    def geo(self) -> Geometry: ...

    @property
    def soaring(self) -> bool: ...

    @property
    def through_walls(self) -> bool: ...

    @property
    def shut_doors(self) -> Set[tuple[int, int]]: ...

    def hindering_like(self, space: int) -> bool: ...

    def can_cross_blocking(self, space: int) -> bool: ...


def step_table(geo: Geometry, profile: TerrainProfile) -> list[tuple[tuple[int, bool], ...]]:
    """For every space, the steps terrain allows this profile (no doorway shut), each with whether it ends
    the move: computed once per map and profile by the same `terrain_step` the full step rule uses."""
    return geo.cached(("steps", profile), lambda: _step_table(geo, profile))


def _step_table(geo: Geometry, profile: TerrainProfile) -> list[tuple[tuple[int, bool], ...]]:
    plain = _StaticMover(geo, profile)
    table = []
    for here in range(geo.size):
        row = []
        for there in geo.all_neighbours[here] if profile.through_walls else geo.neighbours[here]:
            if profile.soaring and geo.indoor[there]:
                continue
            reason, stop = terrain_step(plain, here, there)
            if not reason:
                row.append((there, stop))
        table.append(tuple(row))
    return table


class _StaticMover:
    """A mover with no doorway shut: what terrain alone says (for building step tables)."""

    shut_doors: frozenset[tuple[int, int]] = frozenset()

    def __init__(self, geo: Geometry, profile: TerrainProfile) -> None:
        self.geo = geo
        self.profile = profile
        self.soaring = profile.soaring
        self.through_walls = profile.through_walls

    def hindering_like(self, space: int) -> bool:
        return self.profile.hindering_like(self.geo, space)

    def can_cross_blocking(self, space: int) -> bool:
        return self.profile.can_cross_blocking(self.geo, space)


def terrain_step(mover: TerrainMover, here: int, there: int) -> tuple[str, bool]:
    """Terrain's say on one step: why it is not allowed ('' if allowed), and whether it ends the move."""
    geo = mover.geo
    if geo.terrain[there] == BLOCKING and not mover.can_cross_blocking(there):
        return "blocking terrain (HC-TERRAIN-10)", False
    diagonal = geo.diagonal_flanks.get((here, there))
    if diagonal is not None and not mover.soaring:
        f1, f2 = diagonal
        w1, w2 = geo.diagonal_walls[(here, there)]
        terrain, doors = geo.terrain, mover.shut_doors
        if (
            (w1 or terrain[f1] == BLOCKING or doors)
            and (w2 or terrain[f2] == BLOCKING or doors)
            and _way_shut(mover, here, there, f1, w1)
            and _way_shut(mover, here, there, f2, w2)
        ):
            return "between two diagonal blocking spaces, walls or closed portals (HC-TERRAIN-10, -12)", False
    if mover.hindering_like(here):
        return "", False
    if mover.hindering_like(there):
        return "", True  # HC-TERRAIN-03
    if diagonal is not None and mover.hindering_like(diagonal[0]) and mover.hindering_like(diagonal[1]):
        return "", True  # HC-TERRAIN-03: through the corner between diagonal hindering spaces
    return "", False


def _way_shut(mover: TerrainMover, here: int, there: int, flank: int, walled: bool) -> bool:
    """Whether the way round a diagonal step's corner by `flank` is shut to this mover: blocking terrain it
    may not cross, or a wall on either edge (walls have all effects of blocking terrain, HC-TERRAIN-12, so a
    wall meeting blocking terrain at a corner closes the diagonal like two blocking spaces, HC-TERRAIN-10)."""
    if walled and not mover.through_walls:
        return True
    if mover.geo.terrain[flank] == BLOCKING and not mover.can_cross_blocking(flank):
        return True
    doors = mover.shut_doors  # a closed doorway is blocking terrain along its edge (HC-TERRAIN-15, -31)
    return (min(here, flank), max(here, flank)) in doors or (min(flank, there), max(flank, there)) in doors


def bits_of(spaces: Iterable[int]) -> Bits:
    """The bitset of `spaces` (bit i: space i)."""
    found: Bits = 0
    single = _SINGLE_BITS
    for space in spaces:
        found |= single[space] if space < _SINGLE_BITS_KEPT else _ONE << space
    return found


_SINGLE_BITS_KEPT: Final = 4096
_SINGLE_BITS: Final[tuple[Bits, ...]] = tuple(1 << space for space in range(_SINGLE_BITS_KEPT))
"""The bitset of each single space of maps up to 4096 spaces (looked up, as a shift builds a new int)."""
_ONE: Final[Bits] = 1


def single_bit(space: int) -> Bits:
    """The bitset of the one space `space` (kept for maps up to 4096 spaces: a shift makes a new int)."""
    return _SINGLE_BITS[space] if space < _SINGLE_BITS_KEPT else _ONE << space


def spaces_of(bits: Bits) -> list[int]:
    """The spaces of a bitset, in order: a byte at a time, each byte's spaces copied from a tuple kept by the
    byte's place and value (`_BYTE_SPACES`), so no space's int is made again."""
    found: list[int] = []
    raw: bytes = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
    if len(raw) > _BYTE_SPACES_PLACES:
        return _spaces_of_bytes(raw)
    kept = _BYTE_SPACES
    if len(kept) < 256 * len(raw):
        kept.extend([None] * (256 * len(raw) - len(kept)))
    at = 0  # 256 x the byte's place
    for byte in raw:
        if byte:
            spaces = kept[at + byte]
            if spaces is None:
                spaces = kept[at + byte] = _byte_spaces(at >> 5, byte)
            found.extend(spaces)
        at += 256
    return found


def _byte_spaces(base: int, byte: int) -> tuple[int, ...]:
    return tuple(base + bit for bit in _BYTE_BITS[byte])


def _spaces_of_bytes(raw: bytes) -> list[int]:
    """`spaces_of` for a bitset past `_BYTE_SPACES_PLACES` bytes, a bit at a time."""
    found: list[int] = []
    base = 0
    byte_bits = _BYTE_BITS
    for byte in raw:
        if byte:
            for bit in byte_bits[byte]:
                found.append(base + bit)
        base += 8
    return found


_BYTE_BITS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(bit for bit in range(8) if byte >> bit & 1) for byte in range(256)
)
"""For each byte value, its set bits (`spaces_of` reads a bitset a byte at a time)."""
_BYTE_SPACES_PLACES: Final = 512
"""Bytes of a bitset (maps up to 4096 spaces) whose spaces `spaces_of` keeps by byte value and place."""
_BYTE_SPACES: Final[list[tuple[int, ...] | None]] = []
"""At 256 x place + value: the spaces of that byte of a bitset (None until first met; at most 131,072)."""


def terrain_bits(geo: Geometry, terrain: int) -> Bits:
    """The spaces of one terrain type, as a bitset (once per map)."""
    key = ("terrain_bits", terrain)
    found: Bits | None = geo.caches.get(key)  # read before making the closure: this runs for every move
    if found is None:
        found = geo.cached(key, lambda: bits_of(i for i, t in enumerate(geo.terrain) if t == terrain))
    return found


def step_masks(geo: Geometry, profile: TerrainProfile) -> tuple[tuple[int, Bits, Bits], ...]:
    """The step table as bitsets, once per map and profile: for each of the eight directions, its index
    offset, the spaces a step that way leaves freely, and those where it enters a space that ends the move."""
    key = ("step_masks", profile)
    found: tuple[tuple[int, Bits, Bits], ...] | None = geo.caches.get(key)  # type: ignore[assignment]
    if found is None:
        found = geo.cached(key, lambda: _step_masks(geo, profile))
    return found


SearchTables = tuple[
    tuple[tuple[int, Bits, Bits], ...], tuple[tuple[int, Bits], ...], tuple[tuple[int, Bits], ...], int, Bits
]


def search_tables(geo: Geometry, profile: TerrainProfile) -> SearchTables:
    """What `search` needs of the map, once per map and profile: `step_masks`; the same with each direction's
    two masks in one integer, so one shift moves both (the spaces a step leaves freely in the low bits, those
    where it stops from bit `high` on, a gap wider than any step keeping them apart), split into directions
    raising the space index and those lowering it (as positive shifts); `high`; and the bits of all spaces."""
    key = ("search_tables", profile)
    found: SearchTables | None = geo.caches.get(key)  # type: ignore[assignment]
    if found is not None:  # read before making the closure below: this runs for every move
        return found

    def compute() -> SearchTables:
        masks = step_masks(geo, profile)
        high = geo.size + 2 * geo.width + 2
        paired = [(offset, go_free | go_stop << high) for offset, go_free, go_stop in masks]
        # a step goes to one of the eight spaces around: four raise the index, four lower it (padded with
        # no-ops where the map has no step that way, so `search` can spell the four out)
        up = tuple((offset, mask) for offset, mask in paired if offset > 0)
        down = tuple((-offset, mask) for offset, mask in paired if offset < 0)
        assert len(up) <= 4 and len(down) <= 4, "a step reaches only the eight spaces around"
        none = ((0, 0),)
        return masks, up + none * (4 - len(up)), down + none * (4 - len(down)), high, (1 << geo.size) - 1

    return geo.cached(key, compute)


def _step_masks(geo: Geometry, profile: TerrainProfile) -> tuple[tuple[int, Bits, Bits], ...]:
    by_offset: dict[int, list[int]] = {}
    for here, row in enumerate(step_table(geo, profile)):
        for there, stop in row:
            masks = by_offset.setdefault(there - here, [0, 0])
            masks[stop] |= 1 << here
    return tuple((offset, go[0], go[1]) for offset, go in sorted(by_offset.items()))
