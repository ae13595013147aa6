"""Terminal views of roster data: figure cards and dials, armies, listings, the engine's powers, maps."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.text import counted
from clix.engine.core.dial import SLOTS, Click
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.files.yaml_lines import path_problem
from clix.engine.core.ruleset import DEFAULT_RULESET, Ruleset, ruleset_named
from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from clix.engine.horrorclix.registry import AbilitySpec, ParamSpec, PowerSpec
    from clix.engine.horrorclix.roster.loader import Roster
    from clix.engine.horrorclix.roster.models import CardSide, Figure, MapLayout


def horrorclix() -> Ruleset:
    """HorrorClix (the ruleset these views show), found through the core's registry: its tables of powers,
    abilities and plot-twist effects, its data models and its loader."""
    return ruleset_named(DEFAULT_RULESET)


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
CARD_KIND_STYLES = {"normal": "", "subplot": "bold cyan", "ticking_clock": "bold yellow"}
SIDE_LABELS = {"start": "Start", "start_a": "Start A", "start_b": "Start B", "transformed": "Transformed"}


@dataclass(frozen=True)
class FigureFilter:
    """Filters for the figure listing; None (or empty) means "any"."""

    classes: tuple[str, ...] = ()
    min_points: int | None = None
    max_points: int | None = None
    cabal: str | None = None
    rank: str | None = None

    def active(self) -> bool:
        return bool(self.classes) or any(
            v is not None for v in (self.min_points, self.max_points, self.cabal, self.rank)
        )


def filter_figures(roster: Roster, wanted: FigureFilter) -> list[Figure]:
    """The roster's figures that pass every filter (names compared case-insensitively), by name and points."""
    known_classes = {c.casefold(): c for f in roster.figures.values() for c in f.classes}
    for name in wanted.classes:
        if name.casefold() not in known_classes:
            raise ClixError(did_you_mean("class", name, sorted(known_classes.values())))
    cabals = {f.cabal.name.casefold(): f.cabal.name for f in roster.figures.values() if f.cabal}
    if wanted.cabal is not None and wanted.cabal.casefold() not in cabals:
        raise ClixError(did_you_mean("cabal", wanted.cabal, sorted(cabals.values())))
    ranks = get_args(horrorclix().part("models").Rank)
    rank = wanted.rank.casefold().replace("-", "_").replace(" ", "_") if wanted.rank is not None else None
    if rank is not None and rank not in ranks:
        raise ClixError(did_you_mean("rank", wanted.rank or "", ranks))
    if wanted.min_points is not None and wanted.max_points is not None and wanted.min_points > wanted.max_points:
        raise ClixError(f"--min-points {wanted.min_points} is above --max-points {wanted.max_points}")
    classes = {c.casefold() for c in wanted.classes}
    chosen = [
        f
        for f in roster.figures.values()
        if classes <= {c.casefold() for c in f.classes}
        and (wanted.min_points is None or f.points >= wanted.min_points)
        and (wanted.max_points is None or f.points <= wanted.max_points)
        and (wanted.cabal is None or (f.cabal is not None and f.cabal.name.casefold() == wanted.cabal.casefold()))
        and (rank is None or f.rank == rank)
    ]
    return sorted(chosen, key=lambda f: (f.name, f.points))


def listing(roster: Roster, what: str, wanted: FigureFilter | None = None) -> Table:
    """A table of one kind of roster item; figures may be filtered."""
    kind = what.replace("-", "_")
    if wanted is not None and wanted.active() and kind != "figures":
        raise ClixError(f"--class, --min-points, --max-points, --cabal and --rank filter figures, not {what}")
    if kind == "figures":
        figures = filter_figures(roster, wanted or FigureFilter())
        # fixed widths and no vertical rules: the table fits 80 columns and folds rather than cuts
        table = Table(header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("id", overflow="fold", width=min(22, max((len(f.id) for f in figures), default=2)))
        table.add_column("name", overflow="fold", width=16)
        table.add_column("rank", overflow="fold", width=11)
        table.add_column("pts", justify="right", width=3)
        table.add_column("classes; cabal", overflow="fold", width=16)
        for f in figures:
            cabal = f"\n{f.cabal.name}{' (leader)' if f.cabal.leader else ''}" if f.cabal else ""
            table.add_row(f.id, f.name, f.rank.replace("_", " "), str(f.points), ", ".join(f.classes) + cabal)
    elif kind == "plot_twists":
        table = _table("name", "kind", "when", "text")
        table.expand = True
        for column, ratio in zip(table.columns, (2, 1, 2, 5), strict=True):
            column.ratio = ratio
        for c in sorted(roster.plot_twists.values(), key=lambda c: (c.kind, c.name)):
            table.add_row(c.name, c.kind.replace("_", " "), ", ".join(c.windows), " ".join(c.text.split()))
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


def show_view(roster: Roster, name: str) -> list[RenderableType]:
    """A figure or an army by id; an unknown id gets one "did you mean" over both."""
    if name in roster.figures:
        return figure_view(roster, name)
    if name in roster.armies:
        return army_view(roster, name)
    raise ClixError(
        did_you_mean(
            "figure or army",
            name,
            [*roster.figures, *roster.armies],
            "`clix roster list figures` and `clix roster list armies` show every id",
        )
    )


def army_view(roster: Roster, army_id: str) -> list[RenderableType]:
    """An army: build total and points used, figures, crypt, victims, objects and provenance."""
    army = roster.armies.get(army_id)
    if army is None:
        raise ClixError(did_you_mean("army", army_id, roster.armies, "`clix roster list armies` shows every army"))
    contents = army_contents(roster, army_id)
    used = contents.used
    header = [
        Text(f"{army.name}  [{army_id}]", style="bold"),
        Text(
            f"build total {army.build_total}: {used} points used, {army.build_total - used} left"
            + (f"; {army.players} players" if army.players != 2 else "")
            + (f"; style: {army.style}" if army.style else "")
        ),
    ]
    figures = Table(title="Figures", title_justify="left", header_style="bold")
    figures.add_column("figure", overflow="fold")
    figures.add_column("name", overflow="fold")
    figures.add_column("side")
    figures.add_column("points", justify="right")
    for row in contents.figures:
        if row.name is None:
            figures.add_row(row.figure, Text("not in the roster", style="italic"), row.side, "?")
        else:
            figures.add_row(row.figure, row.name, row.side, str(row.points))
    figures.add_row("", Text("total", style="bold"), "", Text(f"{used} of {army.build_total}", style="bold"))
    crypt = Table(title="Crypt", title_justify="left", header_style="bold")
    crypt.add_column("plot twist", overflow="fold")
    crypt.add_column("kind")
    for card in contents.crypt:
        kind = card.kind or "not in the roster"
        crypt.add_row(card.name, Text(kind.replace("_", " "), style=CARD_KIND_STYLES.get(kind, "italic")))
    footer = [
        Text(f"victims: {', '.join(army.victims) or 'none'}"),
        Text(f"objects: {', '.join(army.objects) or 'none'}"),
    ]
    if army.notes:
        footer.append(Text(f"notes: {' '.join(army.notes.split())}"))
    footer.append(Text(f"provenance: {army.provenance}", style="italic"))
    return [Text("\n").join(header), figures, crypt, Text("\n").join(footer)]


@dataclass(frozen=True)
class FigureRow:
    """One figure of an army: its id, name and points (None when it is not in the roster), crossroads side."""

    figure: str
    name: str | None
    points: int | None
    side: str


@dataclass(frozen=True)
class CardRow:
    """One plot twist of a crypt and its kind (None when it is not in the roster)."""

    name: str
    kind: str | None


@dataclass(frozen=True)
class ArmyContents:
    """What an army holds, as data for views and reports."""

    id: str
    name: str
    build_total: int
    used: int
    figures: list[FigureRow]
    crypt: list[CardRow]
    victims: list[str]


def army_contents(roster: Roster, army_id: str) -> ArmyContents:
    """An army's figures with their points, the points used of its build total, its crypt and its victims."""
    army = roster.armies[army_id]
    figures = []
    for entry in army.figures:
        figure = roster.figures.get(entry.figure)
        side = SIDE_LABELS[entry.side] if entry.side else ""
        figures.append(
            FigureRow(entry.figure, figure.name if figure else None, figure.points if figure else None, side)
        )
    crypt = [CardRow(name, card.kind if (card := roster.plot_twists.get(name)) else None) for name in army.crypt]
    used = army_points(roster, army_id)
    return ArmyContents(army_id, army.name, army.build_total, used, figures, crypt, list(army.victims))


def army_points(roster: Roster, army_id: str) -> int:
    """Points used by an army: the sum of its figures' points (figures missing from the roster count 0)."""
    return sum(f.points for e in roster.armies[army_id].figures if (f := roster.figures.get(e.figure)))


def powers_view() -> list[RenderableType]:
    """Every power, ability and plot-twist effect the engine implements, with parameters and text."""
    powers = _wide_table("Powers (a coloured circle on the dial)", "power", "when", "parameters", "what it does")
    rules = horrorclix()
    for spec in sorted(rules.powers.values(), key=lambda p: p.name):
        powers.add_row(spec.name, spec.trigger.replace("_", " "), _params_text(spec.params), _with_source(spec))
    abilities = _wide_table("Abilities (the whole card side)", "ability", "parameters", "what it does")
    for ability in sorted(rules.registries["abilities"].values(), key=lambda a: a.name):
        abilities.add_row(ability.name, _params_text(ability.params), _with_source(ability))
    effects = _wide_table("Plot-twist effects", "effect", "windows", "parameters", "what it does")
    for effect in sorted(rules.registries["plot_effects"].values(), key=lambda e: e.name):
        effects.add_row(effect.name, ", ".join(effect.windows), _params_text(effect.params), effect.summary)
    return [powers, abilities, effects]


def ruleset_powers_view(name: str) -> list[RenderableType]:
    """The powers the ruleset called `name` plays (its registry, found through the core's), with their text."""
    powers = _wide_table(f"Powers {name} plays", "power", "kind", "what it does")
    for spec in sorted(ruleset_named(name).powers.values(), key=lambda p: p.name):
        powers.add_row(spec.name, spec.trigger, _with_source(spec))
    return [powers]


def _params_text(params: dict[str, ParamSpec]) -> str:
    lines = []
    for key, spec in params.items():
        optional = "" if spec.required else " (optional)"
        help_text = f": {spec.help}" if spec.help and spec.help != "how much" else ""
        lines.append(f"{key}{optional}: {spec.describe()}{help_text}")
    return "\n".join(lines) or "none"


def _with_source(spec: PowerSpec | AbilitySpec) -> Text:
    text = Text(spec.summary)
    text.append(f"\nsource: {spec.source}", style="italic")
    return text


def _wide_table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", header_style="bold", show_lines=True, expand=True)
    for column in columns:
        table.add_column(column, overflow="fold", ratio={"what it does": 4, "parameters": 3}.get(column, 2))
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
    ranged = f"range {figure.range}, {counted(figure.bolts, 'bolt')}" if figure.range else "no ranged attack (range 0)"
    lines = [
        Text(f"{figure.name}  [{figure.id}]", style="bold"),
        Text(f"{figure.set} #{figure.collector_number}, {figure.rank.replace('_', ' ')}, {figure.points} points"),
        Text(f"speed mode: {figure.speed_mode}, {ranged}"),
        Text(f"classes: {', '.join(figure.classes)}{cabal}"),
    ]
    if figure.grants_plot_twists:
        lines.append(Text(f"grants {counted(figure.grants_plot_twists, 'extra plot twist')} (HC-PLOT-03)"))
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
        spec = horrorclix().powers[power.name]
        table.add_row(
            Text(f"{power.colour} {power.slot}", style=STYLES[power.colour]),
            name,
            Text(f"({spec.trigger}) {spec.summary}"),
        )
    for ability in side.abilities:
        table.add_row("ability", ability.name, horrorclix().registries["abilities"][ability.name].summary)
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
        loaded, problems = horrorclix().part("loader").load_roster([path])
        if problems:
            raise ClixError(f"{problems[0]}")
        if loaded.maps:
            return next(iter(loaded.maps.values()))
        raise ClixError(f"{name}: not a map file (a map has 'rows')")
    raise ClixError(did_you_mean("map", name, roster.maps, "`clix roster list maps` shows every map"))


def map_text(game_map: MapLayout) -> str:
    """The map drawn as text, with its name when it has one."""
    from clix.analyzer.library.mapdraw import map_text as draw

    title = f"{game_map.name} [{game_map.id}]\n" if isinstance(game_map, horrorclix().part("models").MapFile) else ""
    return title + draw(game_map)


def _table(*columns: str) -> Table:
    """A listing table whose cells fold rather than being cut to "…" on a narrow terminal."""
    table = Table(header_style="bold")
    for column in columns:
        table.add_column(column, overflow="fold")
    return table
