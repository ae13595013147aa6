"""Objects lying on the map and objects held (HX-OBJECT): the map's objects are hindering terrain (HX-OBJECT-03),
so lifting, laying down or destroying one changes the map, and the game gets a new `Geometry` of it."""

from __future__ import annotations

from typing import cast

from clix.engine.core.pieces import Figure
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.maps import HeroMap, MapObject
from clix.engine.heroclix.state import HeroState

SUPER_STRENGTH = "Super Strength"
THROW_DISTANCE = {"light": 6, "heavy": 4}
"""How far a thrown object flies, whatever the thrower's range (HX-OBJECT-11)."""
THROWN_DAMAGE = {"light": 2, "heavy": 3}
"""The damage a thrown object deals in place of the damage value (HX-OBJECT-06)."""
CLOSE_BONUS = {"light": 1, "heavy": 2}
"""Damage a held object adds to a close combat hit (HX-OBJECT-10)."""


def layout_of(state: HeroState) -> HeroMap:
    return cast(HeroMap, state.geometry.layout)


def strong(character: Figure) -> bool:
    """Whether `character` shows Super Strength now (HX-OBJECT-07)."""
    return SUPER_STRENGTH in character.powers


def lying_at(state: HeroState, square: int) -> str | None:
    """The kind of the object lying on `square`, if any."""
    x, y = state.geometry.xy(square)
    return next((o.kind for o in layout_of(state).objects if o.at == (x, y)), None)


def within_reach(state: HeroState, here: int, square: int) -> bool:
    """Whether `square` is `here` or touches it on the same level with no wall between (an object a character
    there may pick up or move with Telekinesis, HX-OBJECT-08, -12)."""
    if square == here:
        return True
    level = levels_of(state.geometry).level
    return square in state.geometry.neighbour_sets[here] and level[square] == level[here]


def lift(state: HeroState, square: int) -> str:
    """Take the object lying on `square` off the map; its kind."""
    layout = layout_of(state)
    at = state.geometry.xy(square)
    found = next(o for o in layout.objects if o.at == at)
    kept = [o for o in layout.objects if o is not found]
    state.geometry = geometry_of(layout.model_copy(update={"objects": kept}))
    return found.kind


def lay(state: HeroState, kind: str, square: int) -> None:
    """Put an object of `kind` on `square` (a KO'd holder's, HX-OBJECT-04, -07)."""
    layout = layout_of(state)
    placed = [*layout.objects, MapObject(kind=kind, at=state.geometry.xy(square))]  # type: ignore[arg-type]
    state.geometry = geometry_of(layout.model_copy(update={"objects": placed}))
