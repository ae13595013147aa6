"""The meta's outputs: the console summary, and summary.json, field.json, the cells and games tables, the plots
and meta.html (meta.pdf) written to the output folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
from clix.analyzer.ladder.command import text_table
from clix.analyzer.report.folder import writing
from clix.analyzer.stats.duel import _records

WIDTH = 100


def _pct(s: dict[str, Any] | None) -> str:
    if not s or s.get("score") is None:
        return "–"
    return f"{100 * s['score']:.0f}% [{100 * s['low']:.0f}-{100 * s['high']:.0f}]"


def _points(d: dict[str, Any] | None) -> str:
    if not d or d.get("difference") is None:
        return "–"
    return f"{100 * d['difference']:+.0f} [{100 * d['low']:+.0f}, {100 * d['high']:+.0f}]"


def shown(summary: dict[str, Any]) -> Any:
    """How the field's armies are shown: a function of an army's id (`summary["names"]`, from
    `analyzer.common.names`; a summary without names shows ids)."""
    names = summary.get("names") or {}
    return lambda army: names.get(army, army)


def meta_headline(summary: dict[str, Any], settings: dict[str, Any], kind: str = "army") -> str:
    """The run's answer in one sentence, with its size: the army that scores best against the field (or that none
    stands out: its interval holds 50%), and the Nash mixture."""
    kinds = "armies" if kind == "army" else f"{kind}s"
    name = shown(summary)
    best = max(summary["field"], key=lambda row: row["score"])
    text = f"{name(best['army'])}, {100 * best['score']:.0f}% [{100 * best['low']:.0f}–{100 * best['high']:.0f}]"
    mixture = ", ".join(f"{name(row['army'])} {row['weight']:.2f}" for row in summary["nash"]["support"])
    size = f"{len(summary['armies'])} {kinds} on {len(settings['maps'])} maps, {settings['games']} games"
    if best["low"] > 0.5:
        return f"Best against the field: {text}; the Nash mixture plays {mixture} ({size})."
    return f"No {kind} stands out against the field: the best, {text}, holds 50%; the Nash mixture plays {mixture} ({size})."


def meta_lines(summary: dict[str, Any], settings: dict[str, Any], kind: str = "army") -> list[str]:
    """The console summary: the matrix, the field table (score, rating, Nash weight), outliers, dominated
    armies (saying whether the intervals show it or only the point estimates), first player, draws, maps, the
    plot twists with the largest played-minus-held differences (an association), and the style range. A HeroClix
    field (`kind` "force") has its knockouts and victory points instead of plot twists."""
    kinds = "armies" if kind == "army" else f"{kind}s"
    armies = summary["armies"]
    name = shown(summary)
    number = {a: str(i + 1) for i, a in enumerate(armies)}
    settled = summary["cells_settled"]
    how = ", ".join(f"{n} {k}" for k, n in sorted(settled.items()))
    lines = [
        f"meta of {len(armies)} {kinds} on {', '.join(settings['maps'])}, players {', '.join(settings['players'])}: "
        f"{settings['cells']} cells, {settings['games']} games ({settings['played']} played, "
        f"{settings['from_store']} from the store), seed {settings['seed']}, {settings['seconds']} s, engine {settings['engine']}",
        f"  {meta_headline(summary, settings, kind)}",
        f"  cells: {how}"
        + (
            f" (target ±{100 * settings['target_ci']:.1f} points, up to {settings['games_cap']} games a cell)"
            if settings["target_ci"]
            else ""
        ),
        f"  score of the row {kind} against the column {kind} (wins + ½ draws; 95% intervals in cells.csv and the report):",
    ]
    matrix = [["", *[number[a] for a in armies]]]
    for a in armies:
        matrix.append(
            [
                f"{number[a]} {name(a)}",
                *("·" if b == a else f"{100 * summary['matrix'][a][b]['score']:.0f}" for b in armies),
            ]
        )
    lines += ["  " + line for line in text_table(matrix, 1)]
    head = [kind, "vs field [95%]", "rating [95%]", "Nash", "in support", "first-second"]
    first = {r["army"]: r for r in summary["first_player"]["by_army"]}
    body = [
        [
            f"{number[r['army']]} {name(r['army'])}",
            _pct(r),
            f"{r['rating']:+.0f} [{r['rating_low']:+.0f}, {r['rating_high']:+.0f}]",
            f"{r['nash_weight']:.2f}",
            "–" if r["support_frequency"] is None else f"{100 * r['support_frequency']:.0f}%",
            _points(first[r["army"]]["effect"]),
        ]
        for r in sorted(summary["field"], key=lambda r: -r["rating"])
    ]
    lines += ["  " + line for line in text_table([head, *body])]
    if "knockouts" in summary:
        from clix.analyzer.meta.knockouts import knockout_lines

        lines += knockout_lines(summary["knockouts"], number, kind, name)
    support = ", ".join(f"{name(s['army'])} {s['weight']:.2f}" for s in summary["nash"]["support"])
    lines.append(
        f"  Nash mixture of the matchup game: {support} (in support: share of {settings['resamples']} bootstrap resamples)"
    )
    if summary["outliers"]:
        lines.append(
            "  outliers (field score interval wholly above 60% or below 40%): "
            + ", ".join(f"{name(o['army'])} {_pct(o)}" for o in summary["outliers"])
        )
    else:
        lines.append("  outliers: none (no field score interval wholly above 60% or below 40%)")
    proven = [d for d in summary["dominated"] if d["by_intervals"]]
    guessed = [d for d in summary["dominated"] if not d["by_intervals"]]
    if proven:
        lines.append(
            f"  dominated (another {kind} scores higher against every {kind}, each 95% interval above 0): "
            + ", ".join(f"{name(d['army'])} (by {name(d['by'])})" for d in proven)
        )
    if guessed:
        lines.append(
            "  dominated on point estimates (the intervals do not show it): "
            + ", ".join(f"{name(d['army'])} (by {name(d['by'])})" for d in guessed)
        )
    fp = summary["first_player"]["overall"]
    lines.append(
        f"  first player scores {_pct(fp)}; draws {100 * summary['draws']['share']:.1f}%, decided by the tie-break "
        f"{100 * summary['draws']['tie_break_share']:.1f}%"
    )
    for m in summary["maps"]:
        areas = ", ".join(f"area {a['area']} {_pct(a)}" for a in m["areas"])
        lines.append(f"  map {m['map']}: first player {_pct(m['first_player'])}, {m['games']} games; {areas}")
    cards = [c for c in summary.get("plot_twists", {"cards": []})["cards"] if c["effect"]["difference"] is not None]
    cards.sort(key=lambda c: -abs(c["effect"]["difference"]))
    if cards:
        lines.append(
            "  plot twists: score when played vs held or not drawn, within army (association, not effect: a card "
            "played when winning looks strong); the largest differences, all in the report:"
        )
        for c in cards[:5]:
            windows = " ".join(f"{w}:{n}" for w, n in c["windows"].items()) or "never played"
            lines.append(
                f"    {c['card']}: played in {100 * c['played_share']:.0f}% of games ({windows}), "
                f"score {_points(c['effect'])} points"
            )
    for r in summary["styles_range"]:
        by = ", ".join(f"{s} {_pct(v)}" for s, v in r["by_style"].items())
        lines.append(f"  {name(r['army'])} by style: {by}; range {100 * (r['range'] or 0):.0f} points")
    if settings["interrupted"]:
        lines.append("  the run was interrupted: these results cover only the games finished")
    return lines


def write_meta(
    out: Path,
    summary: dict[str, Any],
    cells: pd.DataFrame,
    games: pd.DataFrame,
    settings: dict[str, Any],
    field_doc: dict[str, Any],
    pdf: bool = False,
    kind: str = "army",
) -> dict[str, Path]:
    """Write summary.json, field.json, cells.csv/.parquet, games.csv/.parquet, heatmap.png and meta.html (and
    meta.pdf with `pdf`) to `out`; return the paths. `kind`: what the ruleset calls an army."""
    from clix.analyzer.meta.plots import heatmap_png, nash_png
    from clix.analyzer.report.duel import TEMPLATES, _data_uri, write_pdf
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    out.mkdir(parents=True, exist_ok=True)
    written = {
        "summary": out / "summary.json",
        "field": out / "field.json",
        "cells_csv": out / "cells.csv",
        "cells_parquet": out / "cells.parquet",
        "games_csv": out / "games.csv",
        "games_parquet": out / "games.parquet",
    }
    with writing(written["summary"]):
        written["summary"].write_text(
            json.dumps({"settings": settings, **summary}, indent=1, default=str), encoding="utf-8"
        )
    with writing(written["field"]):
        written["field"].write_text(json.dumps(field_doc, indent=1) + "\n", encoding="utf-8")
    with writing(written["cells_csv"]):
        cells.to_csv(written["cells_csv"], index=False)
    with writing(written["cells_parquet"]):
        cells.to_parquet(written["cells_parquet"], index=False)
    with writing(written["games_csv"]):
        games.to_csv(written["games_csv"], index=False)
    with writing(written["games_parquet"]):
        games.to_parquet(written["games_parquet"], index=False)
    written["heatmap"] = heatmap_png(summary, out / "heatmap.png", kind)
    written["nash_plot"] = nash_png(summary, out / "nash.png")
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("meta.html.j2").render(
        headline=meta_headline(summary, settings, kind),
        summary=summary,
        settings=settings,
        pct=_pct,
        points=_points,
        name=shown(summary),
        cells=_records(cells),
        heatmap=_data_uri(written["heatmap"]),
        nash_plot=_data_uri(written["nash_plot"]),
        kind=kind,
        kinds="armies" if kind == "army" else f"{kind}s",
    )
    written["report"] = out / "meta.html"
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        written["pdf"] = write_pdf(html, out / "meta.pdf")
    return written
