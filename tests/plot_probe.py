"""Text inside the reports' plots, checked as matplotlib draws it (issue 37, item 5: "plots legible at print size").

`python tests/plot_probe.py FACTS ARGS...` runs `clix ARGS` with every `Figure.savefig` watched: before a figure is
saved, it is drawn once with the renderer's `draw_text` recording each text it really draws (tick labels outside
the axes' limits are never drawn, so they are never counted), and one JSON line per saved figure is appended to the
file FACTS: the texts drawn, the pairs of them that overlap, the texts that run off the figure (unless it is saved
with `bbox_inches="tight"`, which grows the image to hold them) and the smallest font size in points."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def text_facts(figure: Any, tight: bool) -> dict[str, Any]:
    """What `figure` draws in text (see the module)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg

    drawn: list[Any] = []
    real = RendererAgg.draw_text

    def recording(self: Any, gc: Any, x: float, y: float, s: str, prop: Any, angle: float, *args: Any, **kw: Any):
        mtext = kw.get("mtext")
        if mtext is not None and s.strip() and all(mtext is not seen for seen in drawn):
            drawn.append(mtext)
        return real(self, gc, x, y, s, prop, angle, *args, **kw)

    canvas = figure.canvas if isinstance(figure.canvas, FigureCanvasAgg) else FigureCanvasAgg(figure)
    RendererAgg.draw_text = recording  # type: ignore[method-assign]
    try:
        canvas.draw()
    finally:
        RendererAgg.draw_text = real  # type: ignore[method-assign]
    renderer = canvas.get_renderer()
    boxes = [(text.get_text(), text.get_window_extent(renderer), text.get_rotation()) for text in drawn]
    overlaps = []
    for i, (one, a, turn_a) in enumerate(boxes):
        for other, b, turn_b in boxes[i + 1 :]:
            across = min(a.x1, b.x1) - max(a.x0, b.x0)
            down = min(a.y1, b.y1) - max(a.y0, b.y0)
            if turn_a % 90 or turn_b % 90:  # a slanted text's box is wider than its letters: only a clear overlap
                across, down = across - 0.25 * min(a.width, b.width), down - 0.25 * min(a.height, b.height)
            if across > 1 and down > 1:
                overlaps.append([one, other])
    page = figure.bbox
    off = [
        text
        for text, box, _ in boxes
        if not tight and (box.x0 < page.x0 - 1 or box.y0 < page.y0 - 1 or box.x1 > page.x1 + 1 or box.y1 > page.y1 + 1)
    ]
    sizes = [text.get_fontsize() for text in drawn]
    return {"texts": len(drawn), "overlaps": overlaps, "off": off, "smallest": min(sizes, default=None)}


def watch(facts: Path) -> None:
    """Make every `Figure.savefig` of this process append its figure's `text_facts` to `facts` first."""
    from matplotlib.figure import Figure

    real = Figure.savefig

    def savefig(self: Any, fname: Any, *args: Any, **kwargs: Any) -> Any:
        found = text_facts(self, tight=kwargs.get("bbox_inches") == "tight")
        with facts.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"file": str(fname), **found}) + "\n")
        return real(self, fname, *args, **kwargs)

    Figure.savefig = savefig  # type: ignore[method-assign]


def read(facts: Path) -> list[dict[str, Any]]:
    """The figures a watched run saved, one dict each (`watch`)."""
    if not facts.exists():
        return []
    return [json.loads(line) for line in facts.read_text(encoding="utf-8").splitlines() if line.strip()]


if __name__ == "__main__":
    watch(Path(sys.argv[1]))
    sys.argv = ["clix", *sys.argv[2:]]
    from clix.launch import main

    main()
