"""Maps drawn for people: as text for a terminal (`map_text`) and as a PNG picture (`draw_map_png`).

Coordinates follow the scenario format: x the column from the left, y the row from the top, both from 0.
Walls come from `engine.core.board.wall_edges`, so `walls` and `wall_lines` draw the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from clix.engine.core.board import Edge, is_indoor, wall_edges

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.models import MapLayout

OBJECT_CHARS = {"tombstone": "T", "tree": "Y", "portal": "P"}
PORTAL_SIDE_CHARS = {"north": "n", "south": "s", "east": "e", "west": "w"}
INDOOR_MARK = ":"
KIND_NOTES = {
    "outdoor": "outdoor (no indoor spaces)",
    "indoor": "indoor (every space is indoors and follows the indoor rules)",
    "indoor_outdoor": "indoor_outdoor (':' marks the indoor spaces; the rest is outdoors)",
}


def _cells(layout: MapLayout) -> list[list[str]]:
    """Two characters per space: the terrain or object, then the portal's side or the indoor mark."""
    objects = {obj.at: obj for obj in layout.objects}
    shade = layout.kind == "indoor_outdoor"
    grid: list[list[str]] = []
    for y, row in enumerate(layout.rows):
        line = []
        for x, char in enumerate(row):
            obj = objects.get((x, y))
            if obj is not None:
                char = OBJECT_CHARS[obj.kind]
            if obj is not None and obj.side is not None:
                line.append(char + PORTAL_SIDE_CHARS[obj.side])
            elif shade and is_indoor(layout, x, y):
                line.append(char + INDOOR_MARK)
            else:
                line.append(char + " ")
        grid.append(line)
    return grid


def _corner(walls: set[Edge], x: int, y: int) -> str:
    """The character at grid point (x, y): where walls meet, run through or end."""
    up = ((x - 1, y - 1), (x, y - 1)) in walls
    down = ((x - 1, y), (x, y)) in walls
    left = ((x - 1, y - 1), (x - 1, y)) in walls
    right = ((x, y - 1), (x, y)) in walls
    if (up or down) and (left or right):
        return "+"
    if up or down:
        return "|"
    if left or right:
        return "-"
    return " "


def map_text(layout: MapLayout) -> str:
    """The map as text: column numbers, row numbers, one 3-character cell per space, walls, a legend, the kind.

    Each space is drawn as its character and a second character (a portal's doorway side, or ':' for an
    indoor space of an indoor_outdoor map), with a separator column between spaces that shows `|` where a wall
    runs along that edge. When the map has walls, a line between every two rows shows `--` under each space
    whose south edge is a wall, with `+`, `|` or `-` at the grid points where walls meet or end.
    """
    walls = wall_edges(layout)
    cells = _cells(layout)
    width, height = layout.width, layout.height
    header = "   " + "".join(f" {x:<2}" for x in range(width))
    lines = [header.rstrip()]

    def between_rows(y: int) -> str:
        parts = []
        for x in range(width):
            parts.append(_corner(walls, x, y))
            parts.append("--" if ((x, y - 1), (x, y)) in walls else "  ")
        parts.append(_corner(walls, width, y))
        return ("   " + "".join(parts)).rstrip()

    for y in range(height):
        if walls and (y > 0 or between_rows(0)):  # the lines above and below the map only when walls show there
            lines.append(between_rows(y))
        parts = []
        for x in range(width):
            parts.append("|" if ((x - 1, y), (x, y)) in walls else " ")
            parts.append(cells[y][x])
        parts.append("|" if ((width - 1, y), (width, y)) in walls else " ")
        lines.append((f"{y:>2} " + "".join(parts)).rstrip())
    if walls and between_rows(height):
        lines.append(between_rows(height))
    lines.extend(_legend(layout, walls))
    return "\n".join(lines)


def _legend(layout: MapLayout, walls: set[Edge]) -> list[str]:
    areas = sorted(layout.starting_areas())
    legend = [
        "",
        "legend: . clear   h hindering   ~ water   # blocking   v victim start space",
        "        " + (" ".join(str(n) for n in areas) + " starting areas" if areas else "(no starting areas)"),
        "        T tombstone   Y Tree of the Damned",
        "        Pn Ps Pe Pw portal, its doorway on its north/south/east/west edge",
        "        | -- walls along grid lines (+ where walls meet)" if walls else "        (no walls)",
    ]
    if layout.kind == "indoor_outdoor":
        legend.append("        x: a ':' after a space's character marks an indoor space")
    legend.append(f"size:   {layout.width} x {layout.height} spaces (x from the left, y from the top, from 0)")
    legend.append(f"kind:   {KIND_NOTES[layout.kind]}")
    return legend


# --- PNG -----------------------------------------------------------------------------------------

TERRAIN_COLOURS = {"clear": "#f4f1e8", "hindering": "#7fbf6a", "water": "#6fa8dc", "blocking": "#8b5a2b"}
INDOOR_COLOUR = "#d9d2c3"
AREA_COLOURS = {1: "#8e44ad", 2: "#c0392b", 3: "#d68910", 4: "#1f618d"}
UNUSED_COLOUR = "#9a9a9a"


def draw_map_png(
    layout: MapLayout, path: Path, areas_used: Mapping[int, str] | None = None, legend_below: bool = False
) -> None:
    """Draw the map to a PNG file: terrain colours, indoor shading, walls, starting areas, victim spaces, objects.

    With `areas_used` (area label -> a short note, e.g. "A 20\\nB 20") the starting areas it names are drawn
    with their note under the label and the others faded, as unused. `legend_below` puts the legend under the
    map, for a page where the picture is shrunk to the text's width (larger print for the same width)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Patch, Polygon, Rectangle

    width, height = layout.width, layout.height
    scale = 0.42 if not legend_below else 0.34
    size = (width * scale + 1.0, height * scale + 2.4) if legend_below else (width * scale + 2.2, height * scale + 1.2)
    fig = Figure(figsize=size, dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_aspect("equal")

    for y in range(height):
        for x in range(width):
            terrain = layout.terrain(x, y)
            colour = TERRAIN_COLOURS[terrain]
            if terrain == "clear" and layout.kind == "indoor_outdoor" and is_indoor(layout, x, y):
                colour = INDOOR_COLOUR
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, edgecolor="#b8b2a4", linewidth=0.4))

    for x1, y1, x2, y2 in layout.indoor:
        ax.add_patch(
            Rectangle(
                (x1, y1), x2 - x1 + 1, y2 - y1 + 1, fill=False, edgecolor="#d4ac0d", linewidth=1.6, linestyle="--"
            )
        )

    areas = layout.starting_areas()
    for label, spaces in sorted(areas.items()):
        used = areas_used is None or label in areas_used
        colour = AREA_COLOURS.get(label, "#8e44ad") if used else UNUSED_COLOUR
        for x, y in spaces:
            ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, alpha=0.18 if used else 0.08, edgecolor="none"))
        _outline(ax, set(spaces), colour, "-" if used else ":")
        xs = [x for x, _ in spaces]
        ys = [y for _, y in spaces]
        centre = ((min(xs) + max(xs) + 1) / 2, (min(ys) + max(ys) + 1) / 2)
        note = areas_used.get(label) if areas_used else None
        ax.text(
            *centre,
            str(label) + (f"\n{note}" if note else ""),
            ha="center",
            va="center",
            fontsize=9 if note else 13,
            fontweight="bold",
            color=colour,
            linespacing=1.1,
        )

    for x, y in layout.victim_spaces():
        ax.add_patch(Circle((x + 0.5, y + 0.5), 0.28, facecolor="#b03a2e", edgecolor="white", linewidth=0.8))
        ax.text(x + 0.5, y + 0.52, "v", ha="center", va="center", fontsize=7, color="white", fontweight="bold")

    for obj in layout.objects:
        x, y = obj.at
        if obj.kind == "tombstone":
            ax.add_patch(Rectangle((x + 0.28, y + 0.22), 0.44, 0.62, facecolor="#7f8c8d", edgecolor="black"))
            ax.text(x + 0.5, y + 0.55, "T", ha="center", va="center", fontsize=7, color="white")
        elif obj.kind == "tree":
            ax.add_patch(Polygon([(x + 0.5, y + 0.1), (x + 0.12, y + 0.85), (x + 0.88, y + 0.85)], facecolor="#1e3d1a"))
            ax.text(x + 0.5, y + 0.62, "Y", ha="center", va="center", fontsize=7, color="white")
        else:
            ax.add_patch(Rectangle((x + 0.1, y + 0.1), 0.8, 0.8, facecolor="#f5b041", edgecolor="black"))
            ax.text(x + 0.5, y + 0.5, "P", ha="center", va="center", fontsize=8, fontweight="bold")
            (ax_x, ax_y), (bx, by) = _side_segment(x, y, obj.side or "north")
            ax.plot([ax_x, bx], [ax_y, by], color="#e67e22", linewidth=4, solid_capstyle="butt")

    for a, b in wall_edges(layout):
        (x1, y1), (x2, y2) = _edge_segment(a, b)
        ax.plot([x1, x2], [y1, y2], color="black", linewidth=3.2, solid_capstyle="projecting", clip_on=False)

    ax.set_xticks([x + 0.5 for x in range(width)])
    ax.set_xticklabels([str(x) for x in range(width)], fontsize=7)
    ax.set_yticks([y + 0.5 for y in range(height)])
    ax.set_yticklabels([str(y) for y in range(height)], fontsize=7)
    ax.tick_params(length=0, top=True, labeltop=True)
    ax.set_xlabel("x (column from the left)")
    ax.set_ylabel("y (row from the top)")
    name = getattr(layout, "name", None)
    ax.set_title(f"{name} ({layout.kind})" if name else f"map ({layout.kind})", fontsize=11)

    handles = [Patch(facecolor=TERRAIN_COLOURS[t], edgecolor="#777", label=t) for t in TERRAIN_COLOURS]
    if layout.kind == "indoor_outdoor":
        handles.append(Patch(facecolor=INDOOR_COLOUR, edgecolor="#d4ac0d", linestyle="--", label="indoor"))
    handles.append(Patch(facecolor="#b03a2e", label="victim start"))
    if areas_used is None:
        handles.append(Patch(facecolor="none", edgecolor=AREA_COLOURS[1], linewidth=2, label="starting area"))
    else:
        handles.append(Patch(facecolor="none", edgecolor=AREA_COLOURS[1], linewidth=2, label="starting area used"))
        if set(areas) - set(areas_used):
            handles.append(
                Patch(
                    facecolor="none",
                    edgecolor=UNUSED_COLOUR,
                    linewidth=2,
                    linestyle=":",
                    label="starting area not used",
                )
            )
    handles.append(Patch(facecolor="black", label="wall"))
    kinds = {obj.kind for obj in layout.objects}
    if "tombstone" in kinds:
        handles.append(Patch(facecolor="#7f8c8d", edgecolor="black", label="tombstone (T)"))
    if "tree" in kinds:
        handles.append(Patch(facecolor="#1e3d1a", label="Tree of the Damned (Y)"))
    if "portal" in kinds:
        handles.append(Patch(facecolor="#f5b041", edgecolor="black", label="portal (orange edge: doorway)"))
    if legend_below:
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=4, fontsize=8, frameon=False)
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
    fig.savefig(path, format="png", bbox_inches="tight")


def _edge_segment(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The grid-line segment between two orthogonally adjacent spaces (either may be off the map)."""
    (ax_, ay), (bx, by) = sorted((a, b))
    if ay == by:  # side by side: a vertical segment at x = bx
        return (bx, ay), (bx, ay + 1)
    return (ax_, by), (ax_ + 1, by)  # one above the other: a horizontal segment at y = by


def _side_segment(x: int, y: int, side: str) -> tuple[tuple[int, int], tuple[int, int]]:
    return {
        "north": ((x, y), (x + 1, y)),
        "south": ((x, y + 1), (x + 1, y + 1)),
        "west": ((x, y), (x, y + 1)),
        "east": ((x + 1, y), (x + 1, y + 1)),
    }[side]


def _outline(ax: object, spaces: set[tuple[int, int]], colour: str, style: str = "-") -> None:
    """Draw the boundary of a set of spaces: every edge with a space of the set on one side only."""
    for x, y in spaces:
        for (nx, ny), segment in (
            ((x, y - 1), ((x, y), (x + 1, y))),
            ((x, y + 1), ((x, y + 1), (x + 1, y + 1))),
            ((x - 1, y), ((x, y), (x, y + 1))),
            ((x + 1, y), ((x + 1, y), (x + 1, y + 1))),
        ):
            if (nx, ny) not in spaces:
                (x1, y1), (x2, y2) = segment
                ax.plot([x1, x2], [y1, y2], color=colour, linewidth=2.0, linestyle=style)  # type: ignore[attr-defined]
