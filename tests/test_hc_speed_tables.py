"""The per-map tables and bit helpers that make HorrorClix's reference duel cheaper (issue 38) give what the
plain computation gives: bitsets read back to spaces, single-space bitsets, the distance table (HC-MOVE-03)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from clix.engine.core.geometry import Geometry
from clix.engine.horrorclix import move_tables
from clix.engine.horrorclix.matchups import roster_at
from clix.engine.horrorclix.players import position

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("width", [0, 1, 8, 384, 4096, 4104, 5000])
def test_spaces_of_reads_every_set_bit_in_order(width):
    rng = np.random.default_rng(width)
    for _ in range(20):
        spaces = sorted(int(s) for s in rng.choice(max(width, 1), size=min(width, 30), replace=False))
        bits = move_tables.bits_of(spaces) if width else 0
        assert move_tables.spaces_of(bits) == (spaces if width else [])
    assert move_tables.spaces_of(0) == []


@pytest.mark.parametrize("space", [0, 1, 63, 4095, 4096, 5000])
def test_single_bit_is_the_shifted_one(space):
    assert move_tables.single_bit(space) == 1 << space


def test_the_distance_table_holds_every_distance_of_the_map(monkeypatch):
    """Row `a`, column `b`: the spaces counted from `a` to `b` (HC-MOVE-03), as `Geometry.distance` counts them;
    the distance and nearest-piece rows read from it equal those computed without it (a map past the limit)."""
    roster = roster_at(ROOT / "rosters" / "horrorclix")
    geo = Geometry(roster.maps["graveyard"])
    table = position.distance_table(geo)
    assert table.shape == (geo.size, geo.size) and table.dtype == np.uint8
    rng = np.random.default_rng(3)
    for a in rng.choice(geo.size, size=40, replace=False):
        assert [int(d) for d in table[a]] == [geo.distance(int(a), b) for b in range(geo.size)]
        assert position.distance_row(geo, int(a)) == position._distance_row(geo, int(a))
    picks = [[int(p) for p in rng.choice(geo.size, size=k, replace=False)] for k in (2, 3, 6)]
    with_table = [position._nearest_row(geo, positions) for positions in picks]
    monkeypatch.setattr(position, "DISTANCE_TABLE_MAX", geo.size - 1)
    bare = Geometry(roster.maps["graveyard"])
    assert position.distance_table(bare) is None
    assert [position._nearest_row(bare, positions) for positions in picks] == with_table


def test_terrain_profile_is_the_named_tuple_of_its_flags_made_once():
    flags = [(g, le, so, h, sw) for g in (0, 1) for le in (0, 1) for so in (0, 1) for h in (0, 1) for sw in (0, 1)]
    for ghost, leap, soaring, hovering, swimming in flags:
        args = (bool(ghost), bool(leap), bool(soaring), bool(hovering), bool(swimming))
        profile = move_tables.terrain_profile(*args)
        assert profile == move_tables.TerrainProfile(*args) and not profile.victim
        assert move_tables.terrain_profile(*args) is profile
