"""HorrorClix's figures compiled for play (`core.pieces.Stats`): dial values as per-click lists, powers per side
and click as name sets.

Compiled once per figure (and cached), so the engine's hot path reads lists instead of parsing dials.
"""

from __future__ import annotations

from typing import Any

from clix.engine.core.dial import SLOTS
from clix.engine.core.pieces import Stats, dial_columns
from clix.engine.horrorclix.roster.models import Figure

_COMPILED: dict[int, Stats] = {}


def compile_figure(figure: Figure) -> Stats:
    """Compile a roster figure for play (once per figure object)."""
    found = _COMPILED.get(id(figure))
    if found is not None and found.figure is figure:
        return found
    stats = _compile(figure)
    _COMPILED[id(figure)] = stats
    return stats


def _compile(figure: Figure) -> Stats:
    columns = dial_columns(figure.dial)
    sides = figure.card.sides()
    powers: dict[str, tuple[dict[str, dict[str, Any]], ...]] = {}
    for side_name, side in sides.items():
        by_circle: dict[tuple[str, str], Any] = {(p.slot, p.colour): p for p in side.powers}
        per_click = []
        for click in figure.dial:
            showing: dict[str, dict[str, Any]] = {}
            for slot, value in zip(SLOTS, click.values or (), strict=False):
                power = by_circle.get((slot, value.colour)) if value.colour else None
                if power is not None:
                    showing[power.name] = dict(power.params)
            per_click.append(showing)
        powers[side_name] = tuple(per_click)
    return Stats(
        id=figure.id,
        name=figure.name,
        points=figure.points,
        speed_mode=figure.speed_mode,
        range=figure.range,
        bolts=figure.bolts,
        classes=frozenset(figure.classes),
        speed=columns["speed"],
        attack=columns["attack"],
        defense=columns["defense"],
        damage=columns["damage"],
        killed=tuple(c.killed for c in figure.dial),
        hourglass=tuple(c.hourglass for c in figure.dial),
        start=figure.start,
        red_start=figure.red_start,
        powers=powers,
        abilities={name: frozenset(a.name for a in side.abilities) for name, side in sides.items()},
        start_sides=tuple(figure.card.start_side_names()),
        side_starts_red={name: side.starts_on == "red" for name, side in sides.items()},
        figure=figure,
        cabal=figure.cabal.name if figure.cabal is not None else None,
        compiler=compile_figure,
    )
