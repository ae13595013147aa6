"""Terminal views of roster data: figure cards and dials, listings, maps."""

from __future__ import annotations

from pathlib import Path

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from analyzer.errors import ClixError
from engine.registry import ABILITIES, POWERS
from engine.roster.dial import SLOTS, Click
from engine.roster.loader import Roster, load_roster
from engine.roster.models import CardSide, Figure, MapFile, MapLayout
from engine.roster.problems import did_you_mean
from engine.roster.yaml_lines import path_problem

# rich styles for the dial colours; gray/black get a visible background on dark terminals
STYLES = {
    "red": "bold red",
    "orange": "bold dark_orange",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
    "brown": "bold orange4",
    "gray": "bold grey62",
    "black": "bold white on grey23",
    "pink": "bold hot_pink",
}
SIDE_LABELS = {"start": "Start", "start_a": "Start A", "start_b": "Start B", "transformed": "Transformed"}


def listing(roster: Roster, what: str) -> Table:
    """A table of the names of one kind of roster item."""
    kind = what.replace("-", "_")
    if kind == "figures":
        table = _table("id", "name", "rank", "points", "classes", "cabal")
        for f in sorted(roster.figures.values(), key=lambda f: (f.name, f.points)):
            cabal = f"{f.cabal.name}{' (leader)' if f.cabal.leader else ''}" if f.cabal else ""
            table.add_row(f.id, f.name, f.rank, str(f.points), ", ".join(f.classes), cabal)
    elif kind == "plot_twists":
        table = _table("name", "kind", "when", "effect")
        for c in sorted(roster.plot_twists.values(), key=lambda c: (c.kind, c.name)):
            table.add_row(c.name, c.kind, ", ".join(c.windows), c.effect.name)
    elif kind == "victims":
        table = _table("archetype", "speed", "gender")
        for v in roster.victims.values():
            table.add_row(v.name, str(v.speed), v.gender)
    elif kind == "maps":
        table = _table("id", "name", "kind", "size")
        for m in roster.maps.values():
            table.add_row(m.id, m.name, m.kind, f"{m.width}x{m.height}")
    elif kind == "armies":
        table = _table("id", "name", "build total", "figures", "style")
        for key, a in sorted(roster.armies.items()):
            table.add_row(key, a.name, str(a.build_total), str(len(a.figures)), a.style or "")
    else:
        raise ClixError(f"cannot list '{what}'; choose figures, plot-twists, victims, maps or armies")
    return table


def figure_view(roster: Roster, figure_id: str) -> list[RenderableType]:
    """Everything about one figure: base data, card sides and the dial click by click."""
    figure = roster.figures.get(figure_id)
    if figure is None:
        raise ClixError(did_you_mean("figure", figure_id, roster.figures, "`clix roster list` shows every figure"))
    out: list[RenderableType] = [_header(figure)]
    for side_name, side in figure.card.sides().items():
        out.append(_side_view(side_name, side))
    out.append(dial_table(figure))
    return out


def _header(figure: Figure) -> Text:
    cabal = ""
    if figure.cabal:
        cabal = f"  cabal: {figure.cabal.name}{' (leader)' if figure.cabal.leader else ''}"
    ranged = f"range {figure.range}, {figure.bolts} bolt(s)" if figure.range else "no ranged attack (range 0)"
    lines = [
        Text(f"{figure.name}  [{figure.id}]", style="bold"),
        Text(f"{figure.set} #{figure.collector_number}, {figure.rank.replace('_', ' ')}, {figure.points} points"),
        Text(f"speed mode: {figure.speed_mode}, {ranged}"),
        Text(f"classes: {', '.join(figure.classes)}{cabal}"),
    ]
    if figure.grants_plot_twists:
        lines.append(Text(f"grants {figure.grants_plot_twists} extra plot twist(s) (HC-PLOT-03)"))
    lines.append(Text(f"provenance: {figure.provenance}", style="italic"))
    return Text("\n").join(lines)


def _side_view(side_name: str, side: CardSide) -> Table:
    title = SIDE_LABELS[side_name] + (f": {side.title}" if side.title else "")
    if side.starts_on == "red":
        title += " (dial starts on the red line)"
    table = Table(title=title, title_justify="left", show_header=True, header_style="bold")
    table.add_column("circle")
    table.add_column("power")
    table.add_column("what it does")
    for power in side.powers:
        params = ", ".join(f"{k}={v}" for k, v in power.params.items())
        name = f"{power.name} ({params})" if params else power.name
        spec = POWERS[power.name]
        table.add_row(
            Text(f"{power.colour} {power.slot}", style=STYLES[power.colour]),
            name,
            Text(f"({spec.trigger}) {spec.summary}"),
        )
    for ability in side.abilities:
        table.add_row("ability", ability.name, ABILITIES[ability.name].summary)
    if side.transform:
        t = side.transform
        table.add_row(
            "transform",
            f"{t.mode} flip after {t.count} {t.trigger.replace('_', ' ')}",
            f"card turns to its transformed side; dial goes to {t.dial_to.replace('_', ' ')}",
        )
    return table


def dial_table(figure: Figure) -> Table:
    """The dial as a table: one row per click, values coloured and named, powers listed per click."""
    table = Table(title="Dial", title_justify="left", header_style="bold")
    for column in ("click", *SLOTS, "powers on this click", "line"):
        table.add_column(column)
    circles = _circle_names(figure)
    for index, click in enumerate(figure.dial):
        line = " ".join(
            label for label, at in (("GREEN START", figure.start), ("RED START", figure.red_start)) if at == index
        )
        if click.killed:
            table.add_row(str(index), "☠", "☠", "☠", "☠", "killed", line)
            continue
        cells = [_value_cell(click, slot) for slot in SLOTS]
        powers = [circles[(slot, v.colour)] for slot, v in zip(SLOTS, click.values or (), strict=False) if v.colour]
        table.add_row(str(index), *cells, "; ".join(powers), line)
    return table


def _value_cell(click: Click, slot: str) -> Text:
    value = click.value(slot)
    text = "⧗" if value.hourglass else str(value.number)
    if value.hourglass:
        text += {"speed": " immovable", "attack": " incapable", "defense": " intangible"}.get(slot, "")
    if value.colour:
        return Text(f"{text} {value.colour}", style=STYLES[value.colour])
    return Text(text)


def _circle_names(figure: Figure) -> dict[tuple[str, str], str]:
    """Power name per (slot, colour); on multi-sided cards, prefixed by the side where they differ."""
    by_circle: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for side_name, side in figure.card.sides().items():
        for power in side.powers:
            by_circle.setdefault((power.slot, power.colour), []).append((SIDE_LABELS[side_name], power.name))
    names = {}
    for key, entries in by_circle.items():
        distinct = {name for _, name in entries}
        names[key] = (
            entries[0][1]
            if len(distinct) == 1 and len(entries) == len(figure.card.sides())
            else " / ".join(f"{side}: {name}" for side, name in entries)
        )
    return names


def find_map(roster: Roster, name: str) -> MapLayout:
    """A map by roster id, or from a map file path."""
    if name in roster.maps:
        return roster.maps[name]
    path = Path(name)
    if path.suffix in (".yaml", ".yml") and not path.is_file() and (path.is_symlink() or path.exists()):
        # a folder, a broken or looping link named like a map file: say what it is, not "no map named"
        raise ClixError(f"{name}: {path_problem(path) or 'not a map file'}")
    if path.suffix in (".yaml", ".yml") and path.is_file():
        loaded, problems = load_roster([path])
        if problems:
            raise ClixError(f"{problems[0]}")
        if loaded.maps:
            return next(iter(loaded.maps.values()))
        raise ClixError(f"{name}: not a map file (a map has 'rows')")
    raise ClixError(did_you_mean("map", name, roster.maps, "`clix roster list maps` shows every map"))


def map_text(game_map: MapLayout) -> str:
    """The map drawn as text, with its name when it has one."""
    from analyzer.mapdraw import map_text as draw

    title = f"{game_map.name} [{game_map.id}]\n" if isinstance(game_map, MapFile) else ""
    return title + draw(game_map)


def _table(*columns: str) -> Table:
    table = Table(header_style="bold")
    for column in columns:
        table.add_column(column, no_wrap=column in ("id", "name"))
    return table
