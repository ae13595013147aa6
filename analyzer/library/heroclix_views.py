"""What `clix roster list/show` and `clix map show` print for HeroClix's files (`ruleset: heroclix-2005`): tables
of characters, maps and forces, one character's base and dial, one force, and a map with its elevation, in text
and as a PNG."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.text import counted
from clix.engine.core.board import wall_edges
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import ruleset_named
from rich.table import Table

if TYPE_CHECKING:
    from clix.engine.heroclix.library import Character, Force, Library, MapFile

RULESET = "heroclix-2005"
"""The ruleset these views show, found through the core's registry."""

TABLES = ("characters", "forces", "teams", "feats", "conditions")
"""The HeroClix tables `clix roster list` names (maps are listed with HorrorClix's): characters, forces, team
abilities, feats and battlefield conditions."""
TERRAIN_COLOURS = {"clear": "#f4f1e8", "hindering": "#9ccc8a", "water": "#7fb3e0", "blocking": "#8a6d4b"}


def listing(library: Library, what: str) -> Table:
    """A table of HeroClix's characters, forces or maps."""
    if what == "characters":
        table = Table("id", "name", "points", "rank", "speed mode", "range", "bolts", "team", "clicks")
        for c in sorted(library.characters.values(), key=lambda c: (c.name, c.points)):
            clicks = sum(1 for click in c.clicks() if not click.killed)
            table.add_row(c.id, c.name, str(c.points), c.rank, c.speed_mode, str(c.range), str(c.bolts),
                          c.team or "-", str(clicks))  # fmt: skip
        return table
    if what == "forces":
        table = Table("force", "name", "build total", "points", "characters", "style")
        for name, force in sorted(library.forces.items()):
            spent = sum(library.characters[c].points for c in force.characters if c in library.characters)
            spent += (
                ruleset_named(RULESET).part("card_checks").feat_points(library, force)
            )  # its feats' too (HX-FEAT-01)
            table.add_row(name, force.name, str(force.build_total), str(spent), str(len(force.characters)), force.style)
        return table
    if what in ("teams", "feats", "conditions"):
        return _cards(library, what)
    table = Table("map", "name", "kind", "size", "levels", "starting areas")
    for name, game_map in sorted(library.maps.items()):
        levels = sorted({int(d) for row in (game_map.elevation or ["0"]) for d in row})
        table.add_row(name, game_map.name, game_map.kind, f"{game_map.width} x {game_map.height}",
                      ", ".join(map(str, levels)), str(len(game_map.starting_areas())))  # fmt: skip
    return table


def _cards(library: Library, what: str) -> Table:
    """A table of the team abilities, feats or battlefield conditions."""
    if what == "teams":
        table = Table("team", "members in the library", "text")
        for name, ability in sorted(library.teams.items()):
            members = sum(1 for c in library.characters.values() if c.team == name)
            table.add_row(name, str(members), ability.text)
        return table
    if what == "feats":
        table = Table("feat", "points", "characters", "text")
        for name, feat in sorted(library.feats.items()):
            chosen = "none" if feat.characters == 0 else f"up to {feat.characters}"
            cost = f"{feat.points} each" if feat.per_character else str(feat.points)
            table.add_row(name, cost, chosen, feat.text)
        return table
    table = Table("condition", "text")
    for name, condition in sorted(library.conditions.items()):
        table.add_row(name, condition.text)
    return table


def show_character(character: Character) -> str:
    """A character's base and its dial, click by click."""
    lines = [
        f"{character.name} ({character.id}): {character.points} points, {character.rank}, {character.set} "
        f"#{character.collector_number}",
        f"speed mode {character.speed_mode}, range {character.range} with {counted(character.bolts, 'bolt')}, size "
        f"{character.size}, team {character.team or 'none'}, base {character.base_colour}",
        f"provenance: {character.provenance}",
        "dial (speed attack defense damage):",
    ]
    for index, (entry, click) in enumerate(zip(character.dial, character.clicks(), strict=True)):
        mark = " <- start" if index == character.start else ""
        shown = "KO" if click.killed else str(click)
        powers = "" if isinstance(entry, str) or not entry.powers else f"  [{', '.join(entry.powers)}]"
        lines.append(f"  {index:2d}  {shown}{powers}{mark}")
    return "\n".join(lines)


def show_force(library: Library, name: str, force: Force) -> str:
    """A force: its characters with their points, its total and its objects."""
    lines = [f"{force.name} ({name}): build total {force.build_total}; {force.style}".rstrip("; ")]
    total = 0
    for character_id in force.characters:
        character = library.characters.get(character_id)
        points = character.points if character else 0
        total += points
        lines.append(f"  {character_id:24s} {points:4d}  {character.name if character else '(unknown)'}")
    for choice in force.feats:
        feat = library.feats.get(choice.feat)
        points = feat.cost(len(choice.named())) if feat else 0
        total += points
        lines.append(f"  {'feat ' + choice.feat:24s} {points:4d}  {', '.join(choice.named()) or 'no character'}")
    lines.append(f"  {'total':24s} {total:4d}")
    lines.append(f"battlefield condition: {force.battlefield_condition or 'none'}")
    lines.append(f"objects: {', '.join(force.objects) or 'none'}")
    return "\n".join(lines)


def find(library: Library, name: str) -> tuple[str, Any]:
    """The character, force or map called `name` and what it is; a ClixError names the closest known one."""
    for table in ("characters", "forces", "maps"):
        if name in getattr(library, table):
            return table, getattr(library, table)[name]
    known = [*library.characters, *library.forces, *library.maps]
    raise ClixError(did_you_mean("HeroClix character, force or map", name, known, "`clix roster list characters`"))


def map_text(game_map: MapFile) -> str:
    """The map as text: its terrain and its elevation side by side, then its walls, ladders and objects."""
    objects = {o.at: o.kind for o in game_map.objects}
    lines = [f"{game_map.name} ({game_map.id}): {game_map.kind}, {game_map.width} x {game_map.height}"]
    lines.append("terrain (. clear, h hindering, ~ water, # blocking, 1-4 starting areas, o/O light/heavy object)"
                 "   elevation")  # fmt: skip
    for y, row in enumerate(game_map.rows):
        cells = "".join(
            ("o" if objects[(x, y)] == "light" else "O") if (x, y) in objects else char for x, char in enumerate(row)
        )
        levels = game_map.elevation[y] if game_map.elevation else "0" * game_map.width
        lines.append(f"  {y:2d} {cells}   {levels}")
    lines.append(f"walls: {len(wall_edges(game_map))} square edges")
    lines += [f"ladder: {list(ladder.bottom)} up to {list(ladder.top)}" for ladder in game_map.ladders]
    lines.append(f"provenance: {game_map.provenance}")
    return "\n".join(lines)


def force_contents(library: Library, name: str) -> dict[str, Any]:
    """A force as a duel's report lists it: its characters (id, name, points, rank), the points spent of its build
    total and its objects."""
    force = library.forces[name]
    characters = [
        {
            "id": c,
            "name": library.characters[c].name if c in library.characters else None,
            "points": library.characters[c].points if c in library.characters else None,
            "rank": library.characters[c].rank if c in library.characters else None,
        }
        for c in force.characters
    ]
    return {
        "id": name,
        "name": force.name,
        "build_total": force.build_total,
        "used": sum(c["points"] or 0 for c in characters),
        "characters": characters,
        "objects": list(force.objects),
        "style": force.style,
    }


def provenance_line(library: Library, names: list[str]) -> str:
    """Where a HeroClix duel's numbers come from: sample characters or not. Every power on a loaded character is
    played (the library refuses a character naming a power the engine does not play yet)."""
    fielded = {c for n in names for c in library.forces[n].characters if c in library.characters}
    sample = sorted(c for c in fielded if "sample" in library.characters[c].provenance.lower())
    if sample:
        first = (
            f"These results rest on clix's sample data ({len(sample)} of {len(fielded)} characters are sample "
            "designs, not official dials), so they show how the forces play in clix's model, not how the real "
            "figures perform."
        )
    else:
        first = "All characters carry their own provenance (no sample data)."
    played = (
        " Every power on these characters is played by the engine (a character naming one it does not play yet is "
        "refused when the library loads)."
    )
    return first + played


def draw_map_png(game_map: MapFile, path: Path, notes: Mapping[int, str] | None = None) -> None:
    """The map as a PNG: terrain colours, raised squares darker with their level, walls, ladders, objects and
    starting areas; `notes` (area -> a short note, as "A 20") is written beside each starting area it names."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width, height = game_map.width, game_map.height
    figure, ax = plt.subplots(figsize=(max(4, width * 0.4), max(3, height * 0.4)))
    for y in range(height):
        for x in range(width):
            level = game_map.level(x, y)
            ax.add_patch(plt.Rectangle((x, y), 1, 1, facecolor=TERRAIN_COLOURS[game_map.printed(x, y)],
                                       edgecolor="#cccccc", linewidth=0.3))  # fmt: skip
            if level:  # raised ground: a darker red tint, deeper for higher levels, and its level
                ax.add_patch(plt.Rectangle((x, y), 1, 1, facecolor="#7a1f1f", alpha=0.12 * min(level, 4)))
                ax.text(x + 0.5, y + 0.5, str(level), ha="center", va="center", fontsize=7, color="#7a1f1f")
            char = game_map.rows[y][x]
            if char.isdigit():
                ax.text(x + 0.15, y + 0.3, char, fontsize=6, color="#6a3d9a")
    for (ax_, ay), (bx, by) in wall_edges(game_map):
        if ax_ == bx:  # a horizontal edge between rows
            ax.plot([ax_, ax_ + 1], [max(ay, by)] * 2, color="black", linewidth=2.5)
        else:
            ax.plot([max(ax_, bx)] * 2, [ay, ay + 1], color="black", linewidth=2.5)
    for ladder in game_map.ladders:
        (x1, y1), (x2, y2) = ladder.bottom, ladder.top
        ax.annotate("", (x2 + 0.5, y2 + 0.5), (x1 + 0.5, y1 + 0.5), arrowprops={"arrowstyle": "->", "color": "#d95f02"})
    for thing in game_map.objects:
        x, y = thing.at
        ax.add_patch(plt.Circle((x + 0.5, y + 0.5), 0.3, facecolor="white",
                                edgecolor="#e6ab02" if thing.kind == "light" else "#d7301f", linewidth=2))  # fmt: skip
    for area, note in (notes or {}).items():
        squares = [(x, y) for y, row in enumerate(game_map.rows) for x, char in enumerate(row) if char == str(area)]
        if squares:
            middle = (sum(s[0] for s in squares) / len(squares) + 0.5, sum(s[1] for s in squares) / len(squares) + 0.5)
            ax.text(*middle, note, ha="center", va="center", fontsize=7, color="#6a3d9a", fontweight="bold",
                    bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "#6a3d9a", "pad": 1.5})  # fmt: skip
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, width, 2))
    ax.set_yticks(range(0, height, 2))
    ax.set_title(f"{game_map.name} ({game_map.kind}; numbers: elevation)", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
