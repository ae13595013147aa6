"""The outputs of `clix value`: the console report, and value.csv, value.json, games.csv, the plots and
value.html (value.pdf)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.common.text import counted
from clix.analyzer.report.labels import place_labels
from clix.analyzer.value.measure import ValueResult


def _num(x: float | None, form: str = "{:+.0f}") -> str:
    return "–" if x is None or not np.isfinite(x) else form.format(x)


def value_lines(result: ValueResult) -> list[str]:
    """The console report: the headline, heading, the figures' table, the cards' table, a legend."""
    s, m = result.settings, result.model
    word, kind = words(s)
    lines = [
        value_headline(result),
        f"value of {word}s at {s['budget']} points: {s['armies_played']} random {plural(kind)}, {s['matchups']} matchups x "
        f"{s['games']} games on {','.join(s['maps'])}, players {','.join(s['styles'])} ({m['games']} games, "
        f"seed {s['seed']}, engine {s['engine']})",
        f"  one point of cost = {m['logits_per_point']:.4f} logits [{m['logits_per_point_low']:.4f}, "
        f"{m['logits_per_point_high']:.4f}]: a 10-point edge wins {100 * m['ten_points_edge']:.0f}% of games",
    ]
    if s.get("near_full"):
        lines.append(
            f"  near-full {plural(kind)}: {s['near_full']} ({word}s are added while any still fits; spent "
            f"{m['armies_spent']['min']:.0f}-{m['armies_spent']['max']:.0f}, mean {m['armies_spent']['mean']:.0f})"
        )
    if m.get("verdicts_compared"):
        lines.append(
            f"  stability: {m['verdicts_differ']} of {m['verdicts_compared']} verdicts contradict each other between "
            "two halves of the data (each half has half the games: a rerun of the whole changes fewer)"
        )
    lines += holdout_lines(result.holdout, plural(kind))
    lines += prediction_lines(result.prediction)
    styles = s["styles"] if len(s["styles"]) > 1 else []
    head = [word, "cost", "fielded", "value [95%]", "residual [95%]", "verdict"] + (["styles range"] if styles else [])
    body = []
    for r in result.rows:
        if r["kind"] != "figure":
            continue
        cells = [r["name"], str(r["cost"]), str(r["fielded"])]
        if r["value"] is None:
            cells += ["–", "–", r["verdict"]]
        else:
            cells += [
                f"{r['value']:.0f} [{_num(r['low'], '{:.0f}')}, {_num(r['high'], '{:.0f}')}]",
                f"{r['residual']:+.0f} [{_num(r['residual_low'])}, {_num(r['residual_high'])}]",
                r["verdict"],
            ]
        if styles:
            rng = r.get("style_range")
            cells.append("–" if not rng else f"{rng[0]:.0f}–{rng[1]:.0f}")
        body.append(cells)
    lines += ["  " + line for line in _table([head, *body])]
    cards = [r for r in result.rows if r["kind"] == "plot twist"]
    if cards:
        cards = sorted(cards, key=lambda r: -r["value"])
        lines.append("  plot twists (points-equivalent of holding the card instead of an average card):")
        table = [["card", "held", "value [95%]", "verdict"]] + [
            [r["name"], str(r["fielded"]), f"{r['value']:+.1f} [{r['low']:+.1f}, {r['high']:+.1f}]", r["verdict"]]
            for r in cards
        ]
        lines += ["  " + line for line in _table(table)]
    lines += [
        f"  value: a {word}'s worth in points (one point of cost is worth one point on average); residual: value -",
        f"  cost (over 0: under-costed); 95% intervals from a bootstrap over the random {plural(kind)} (another draw of "
        f"{plural(kind)}",
        f"  moves the values too); a verdict needs the estimate {m.get('strong_at', 3):g} standard errors from 0, "
        "'leans' only the 95% interval",
    ]
    return lines


def words(settings: dict[str, Any]) -> tuple[str, str]:
    """What the run's ruleset calls a figure and an army: ("figure", "army"), HeroClix ("character", "force")."""
    return str(settings.get("figure_word", "figure")), str(settings.get("army_kind", "army"))


def plural(word: str) -> str:
    return "armies" if word == "army" else f"{word}s"


def value_headline(result: ValueResult) -> str:
    """The report's one-sentence verdict and the run's size: how many figures measured are under- or over-costed
    (or lean so), how well the fit predicted the holdout, from how many games of how many armies."""
    s, m = result.settings, result.model
    word, kind = words(s)
    measured = [r for r in result.rows if r["kind"] == "figure" and r["value"] is not None]
    costed = [r["name"] for r in measured if "costed" in r["verdict"]]
    found = (
        f"{len(costed)} of {len(measured)} {word}s measured {'is' if len(costed) == 1 else 'are'} under- or "
        f"over-costed (or lean{'s' if len(costed) == 1 else ''} so)"
        + (f": {', '.join(costed[:5])}{' ...' if len(costed) > 5 else ''}" if costed else "")
    )
    h = result.holdout
    check = (
        f"; on the holdout the fit misses by {h['mean_miss']:.1f} points (cost alone {h['cost_mean_miss']:.1f})"
        if h and h.get("mean_miss") is not None
        else ""
    )
    size = (
        f" ({m['games']:,} games of {s['armies_played']} random {plural(kind)} at {s['budget']} points, "
        f"seed {s['seed']})"
    )
    return found + check + size + "."


def holdout_lines(holdout: dict[str, Any] | None, armies: str = "armies") -> list[str]:
    """The holdout check in two lines (none without a holdout)."""
    if not holdout:
        return []
    if not holdout["measured"]:
        return [
            f"  holdout: {counted(holdout['pairings'], 'pairing')} of {holdout['armies']} {armies} outside the design, none played"
        ]
    return [
        f"  holdout: predicted vs measured, mean miss {holdout['mean_miss']:.1f} points (cost alone: "
        f"{holdout['cost_mean_miss']:.1f} points), {holdout['held']} of {holdout['measured']} measured "
        f"{'interval holds' if holdout['measured'] == 1 else 'intervals hold'} the prediction",
        f"    ({counted(holdout['measured'], 'pairing')} of {holdout['armies']} near-full {armies} outside the design, "
        f"{holdout['games_per_pairing']} games each; measurement noise alone would miss by about "
        f"{holdout['noise_miss']:.1f} points, largest miss {holdout['max_miss']:.1f})",
        *_prediction_line(holdout),
    ]


def prediction_lines(prediction: dict[str, Any] | None) -> list[str]:
    """`--predict A B`: A's predicted score against B with its interval, in one line (none without)."""
    if not prediction:
        return []
    p = prediction
    what = (
        "the fit's bootstrap and the model's own error on the holdout"
        if p["model_error"] is not None
        else "the fit's bootstrap alone: the holdout measured too little to add the model's own error"
    )
    return [
        f"  predicted: {p.get('army_a_name', p['army_a'])} scores {100 * p['score']:.0f}% [95% {100 * p['low']:.0f}–"
        f"{100 * p['high']:.0f}] against {p.get('army_b_name', p['army_b'])} ({what}; cost alone: {100 * p['cost_alone']:.0f}%)"
    ]


def _prediction_line(holdout: dict[str, Any]) -> list[str]:
    """How the model's own error and its prediction intervals fared on the holdout (none with too few pairings)."""
    checked = holdout.get("predictions_checked")
    if not checked or holdout.get("model_error") is None:
        return []
    return [
        f"    the model's own error beyond noise: {holdout['model_error']:.1f} points; 95% prediction intervals "
        f"(fit + model error + the pairing's noise, the error taken from the other pairings) hold "
        f"{holdout['predictions_held']} of {checked} measured scores"
    ]


def _table(rows: list[list[str]]) -> list[str]:
    from clix.analyzer.ladder.command import text_table

    return text_table(rows)


def write_value(out: Path, result: ValueResult, pdf: bool = False) -> dict[str, Path]:
    """value.csv (one row per figure and card), value.json, games.csv, the plots and value.html (value.pdf)."""
    from clix.analyzer.report.folder import writing

    out.mkdir(parents=True, exist_ok=True)
    written = {
        "value_csv": out / "value.csv",
        "value_json": out / "value.json",
        "games_csv": out / "games.csv",
        "report": out / "value.html",
    }
    table = value_table(result)
    with writing(written["value_csv"]):
        table.to_csv(written["value_csv"], index=False)
    with writing(written["value_json"]):
        written["value_json"].write_text(
            json.dumps(
                {
                    "settings": result.settings,
                    "model": result.model,
                    "values": result.rows,
                    "holdout": result.holdout,
                    "prediction": result.prediction,
                },
                indent=1,
                default=str,
            )
        )
    with writing(written["games_csv"]):
        result.games.to_csv(written["games_csv"], index=False)
    plots = {
        "scatter": value_plot(result.rows, out / "value-vs-cost.png"),
        "residuals": residual_plot(result.rows, out / "residuals.png"),
    }
    word, kind = words(result.settings)
    html = _render(
        "value.html.j2",
        result=result,
        plots={k: _data_uri(p) for k, p in plots.items()},
        lines=value_lines(result),
        headline=value_headline(result),
        word=word,
        kind=kind,
        kinds=plural(kind),
    )
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    written |= {f"{k}_png": p for k, p in plots.items()}
    if pdf:
        from clix.analyzer.report.duel import write_pdf

        written["pdf"] = write_pdf(html, out / "value.pdf")
    return written


def value_table(result: ValueResult) -> pd.DataFrame:
    """value.csv: one row per figure and card (each style's value in a column of its own)."""
    table = pd.DataFrame(result.rows)
    if "verdict_halves" in table:
        table["verdict_halves"] = [
            " / ".join(str(v) for v in h) if isinstance(h, list) else h for h in table["verdict_halves"]
        ]
    if "by_style" in table:
        for style in result.settings["styles"]:
            table[f"value_{style}"] = [(r.get("by_style") or {}).get(style) for r in result.rows]
        table = table.drop(columns=["by_style", "style_range"])
    return table


def _render(template: str, **context: Any) -> str:
    from clix.analyzer.report.duel import TEMPLATES
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    return env.get_template(template).render(**context)


def _data_uri(path: Path) -> str:
    import base64

    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def value_plot(rows: list[dict[str, Any]], path: Path) -> Path:
    """`value_figure` saved to `path`."""
    value_figure(rows).savefig(path)
    return path


def value_figure(rows: list[dict[str, Any]]) -> Any:
    """Value against cost per figure with 95% intervals, and the line value = cost (a matplotlib Figure)."""
    from matplotlib.figure import Figure as Plot

    shown = [r for r in rows if r["kind"] == "figure" and r["value"] is not None]
    fig = Plot(figsize=(7, 5), dpi=100)
    ax = fig.add_subplot()
    if shown:
        cost = np.array([r["cost"] for r in shown], dtype=float)
        value = np.array([r["value"] for r in shown])
        low = np.array([r["low"] for r in shown])
        high = np.array([r["high"] for r in shown])
        shades = {
            "under-costed": "#2f6690",
            "leans under-costed": "#8fb3d0",
            "over-costed": "#b23a48",
            "leans over-costed": "#dc9aa4",
        }
        colour = [shades.get(r["verdict"], "#777777") for r in shown]
        ax.errorbar(
            cost,
            value,
            yerr=[np.maximum(value - low, 0), np.maximum(high - value, 0)],
            fmt="none",
            ecolor="#bbbbbb",
            zorder=1,
        )
        ax.scatter(cost, value, c=colour, zorder=2, s=18)
        top = float(max(cost.max(), np.nanmax(high)))
        ax.plot([0, top], [0, top], color="#555555", lw=1, ls="--", label="value = cost")
        legend = ax.legend(loc="upper left", fontsize=8)
    ax.set_xlabel("cost (points)")
    ax.set_ylabel("value (points-equivalent, 95% interval)")
    ax.set_title("Value against cost (blue: under-costed, red: over-costed; pale: leans)", fontsize=10)
    fig.tight_layout()
    if shown:
        # the figures with a verdict first, then the farthest from value = cost; the rest are in the table
        order = sorted(
            range(len(shown)), key=lambda i: (shades.get(shown[i]["verdict"]) is None, -abs(value[i] - cost[i]))
        )
        points = [(shown[i]["name"], float(cost[i]), float(value[i])) for i in order]
        place_labels(fig, ax, points, fontsize=8, avoid=[legend], most=LABELLED)
    return fig


LABELLED = 10
"""At most this many figures are named in the scatter (those with a verdict first, then the farthest from value =
cost); every figure is in the report's table."""


def residual_plot(rows: list[dict[str, Any]], path: Path) -> Path:
    """Each figure's residual (value - cost) with its 95% interval, sorted."""
    from matplotlib.figure import Figure as Plot

    shown = sorted((r for r in rows if r["kind"] == "figure" and r["value"] is not None), key=lambda r: r["residual"])
    fig = Plot(figsize=(7, max(3, 0.22 * len(shown) + 1)), dpi=100)
    ax = fig.add_subplot()
    if shown:
        y = np.arange(len(shown))
        res = np.array([r["residual"] for r in shown])
        low = np.array([r["residual_low"] for r in shown])
        high = np.array([r["residual_high"] for r in shown])
        colour = ["#2f6690" if lo > 0 else "#b23a48" if hi < 0 else "#999999" for lo, hi in zip(low, high, strict=True)]
        ax.barh(y, res, color=colour)
        ax.errorbar(
            res, y, xerr=[np.maximum(res - low, 0), np.maximum(high - res, 0)], fmt="none", ecolor="black", lw=0.8
        )
        ax.set_yticks(y, [r["name"] for r in shown], fontsize=7)
    ax.axvline(0, color="#555555", lw=1)
    ax.set_xlabel("residual: value - cost (points, 95% interval)")
    ax.set_title("Cost-curve residuals")
    fig.tight_layout()
    fig.savefig(path)
    return path
