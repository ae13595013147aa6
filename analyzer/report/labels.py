"""Labels beside a scatter's points that never cover one another (issue 37, item 5: plots legible at print size).

Each label is tried in turn at four places around its point (right and above first); the first place where it
overlaps no label already placed and stays inside the figure keeps it; a label with no such place is left out,
and the caller says where the unlabelled points are listed (a table of the report)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

OFFSETS = ((4, 3, "left", "bottom"), (4, -3, "left", "top"), (-4, 3, "right", "bottom"), (-4, -3, "right", "top"))
"""Where a label may sit, in points from its point: (x, y, horizontal alignment, vertical alignment)."""


def place_labels(
    figure: Any,
    axes: Any,
    points: Sequence[tuple[str, float, float]],
    fontsize: float,
    avoid: Sequence[Any] = (),
    most: int | None = None,
) -> list[str]:
    """Annotate `axes` with each (text, x, y) of `points` in order (most important first) where it fits, keeping
    clear of the artists `avoid` (a legend, a title) and placing at most `most`; returns the texts placed. Call it
    after the figure's layout is final (`tight_layout`): the places are measured in the figure as drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    renderer = canvas.get_renderer()
    page = figure.bbox
    taken: list[Any] = [artist.get_window_extent(renderer) for artist in avoid]
    placed: list[str] = []
    for text, x, y in points:
        if most is not None and len(placed) >= most:
            break
        for dx, dy, across, down in OFFSETS:
            label = axes.annotate(
                text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize, ha=across, va=down
            )
            box = label.get_window_extent(renderer)
            inside = page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1
            if inside and not any(box.overlaps(other) for other in taken):
                taken.append(box)
                placed.append(text)
                break
            label.remove()
    return placed
