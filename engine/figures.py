"""Figures compiled for play: dial values as per-click lists, powers per side and click as name sets.

Compiled once per figure (and cached), so the engine's hot path reads lists instead of parsing dials.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from clix.engine.roster.dial import SLOTS, Click
from clix.engine.roster.models import Figure

HOURGLASS: Final = -1
"""A dial value that is an hourglass (HC-HOURGLASS-02..04)."""


@dataclass(frozen=True)
class Stats:
    """A monster's printed data in the form the engine reads in its inner loop."""

    id: str
    name: str
    points: int
    speed_mode: str
    range: int
    bolts: int
    classes: frozenset[str]
    speed: tuple[int, ...]
    attack: tuple[int, ...]
    defense: tuple[int, ...]
    damage: tuple[int, ...]
    killed: tuple[bool, ...]
    hourglass: tuple[bool, ...]
    start: int
    red_start: int | None
    powers: dict[str, tuple[dict[str, dict[str, Any]], ...]]
    """Per card side, per click: the powers showing, by name, with their parameters."""
    abilities: dict[str, frozenset[str]]
    """Per card side: its abilities (Ghost, Leap/Climb, Rescuer...)."""
    start_sides: tuple[str, ...]
    side_starts_red: dict[str, bool]
    figure: Figure | None = None
    cabal: str | None = None
    """The cabal whose symbol the figure bears (HC-SPECIAL-05), if any."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its figure (compiled again, once per process and figure object) when it has one."""
        if self.figure is not None:
            return (compile_figure, (self.figure,))
        return (Stats, tuple(getattr(self, f.name) for f in fields(self)))

    @property
    def clicks(self) -> int:
        return len(self.killed)


def _columns(dial: list[Click]) -> dict[str, tuple[int, ...]]:
    """The dial's values slot by slot (hourglass as HOURGLASS, killed clicks as 0)."""
    columns: dict[str, list[int]] = {slot: [] for slot in SLOTS}
    for click in dial:
        for slot in SLOTS:
            number = None if click.killed else click.value(slot).number
            columns[slot].append(0 if click.killed else HOURGLASS if number is None else number)
    return {slot: tuple(values) for slot, values in columns.items()}


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
    columns = _columns(figure.dial)
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
    )


def stats_from_dial(
    label: str,
    dial: list[Click],
    *,
    start: int = 0,
    red_start: int | None = None,
    range_: int = 0,
    bolts: int = 1,
    speed_mode: str = "boot",
    points: int = 50,
    powers: dict[str, dict[str, Any]] | None = None,
    abilities: frozenset[str] = frozenset(),
) -> Stats:
    """Stats for a scenario's inline dial; its `powers` show on every click of its one card side."""
    columns = _columns(dial)
    showing = dict(powers or {})
    return Stats(
        id=label,
        name=label,
        points=points,
        speed_mode=speed_mode,
        range=range_,
        bolts=bolts,
        classes=frozenset(),
        speed=columns["speed"],
        attack=columns["attack"],
        defense=columns["defense"],
        damage=columns["damage"],
        killed=tuple(c.killed for c in dial),
        hourglass=tuple(c.hourglass for c in dial),
        start=start,
        red_start=red_start,
        powers={"start": tuple(showing for _ in dial)},
        abilities={"start": abilities},
        start_sides=("start",),
        side_starts_red={"start": False},
    )
