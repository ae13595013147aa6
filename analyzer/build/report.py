"""The outputs of `clix build`: the console report, and build.json, builds.csv, games.csv, build.html (build.pdf)
and each finalist's army file."""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from clix.analyzer.build.race import BuildResult
from clix.analyzer.build.summary import worst_case


def _pct(s: dict[str, Any]) -> str:
    return f"{100 * s['score']:.1f}% [{100 * s['low']:.1f}–{100 * s['high']:.1f}]"


def build_lines(result: BuildResult) -> list[str]:
    """The console report: the headline, the race, the top builds (named by rank) with their scores, figures and
    why they win (or fall short), the field's own armies."""
    s = result.settings
    shown = {f["army"]: f.get("name", f["army"]) for f in s["field"]}

    def name(army: str) -> str:
        return shown.get(army, army)

    field_text = ", ".join(f"{name(f['army'])} {100 * f['weight']:.0f}%" for f in s["field"])
    space = f"{s['legal_space']:,} maximal legal builds" if s["legal_space"] is not None else "too many builds to list"
    lines = [
        result.comparison.get("headline", ""),
        f"build at {s['budget']} points against {field_text} on {','.join(s['maps'])}, players {s['style']}, "
        f"seed {s['seed']} (engine {s['engine']}, {s['played']:,} games played, {s['from_store']:,} from the store, "
        f"{s['seconds']:.0f} s)",
        f"  {space}; {s['candidates']} candidates raced{' (half chosen by --values)' if s['guided'] else ''}"
        + (f"; crypt {', '.join(s['crypt'])}" if "crypt" in s else ""),
    ]
    for n, stage in enumerate(result.stages, 1):
        lines.append(
            f"  stage {n}: {stage.candidates} candidates x {stage.games} games per field army and map "
            f"(best {100 * stage.best:.1f}%)"
        )
    lines.append(f"  final: {len(result.builds)} builds x {s['final']} games per field army and map on fresh seeds")
    for row in result.builds:
        lines.append(
            f"  {row['name']} ({row['role']}): {_pct(row['score'])} against the field, {row['points']} points: "
            + ", ".join(row["figures"])
        )
        if s.get("objective_used") == "maximin" and (worst := worst_case(row)) is not None:
            lines.append(f"    worst head to head: {_pct(worst)} against {name(worst['opponent'])}")
        if "behind_best" in row:
            d = row["behind_best"]
            against = f" against {d['against']}, the best build's worst opponent" if d.get("against") else ""
            lines.append(
                f"    behind the best by {100 * d['difference']:.1f} points [{100 * d['low']:.1f}, {100 * d['high']:.1f}]"
                + against
            )
        lines.append("    " + "; ".join(f"vs {name(v['opponent'])} {_pct(v)}" for v in row["versus"]))
        w = row["why"]
        first = (
            ""
            if w["score_first"] is None or w["score_second"] is None
            else (f", {100 * w['score_first']:.0f}% going first vs {100 * w['score_second']:.0f}% second")
        )
        lines.append(f"    {why_heading(row)}: {why_text(w)}{first}")
    if result.references:
        kinds = "forces" if s.get("army_kind") == "force" else "armies"
        lines.append(f"  the field's own {kinds}, measured the same way on the same seeds:")
        for row in sorted(result.references, key=lambda r: -r["score"]["score"]):
            worst = worst_case(row)
            tail = f"; worst {_pct(worst)} against {name(worst['opponent'])}" if worst is not None else ""
            lines.append(f"    {name(row['name'])}: {_pct(row['score'])}{tail}")
    lines.append(
        "  score: wins + ½ draws against the field (weighted), 95% interval over seat-swapped pairs; sidegrade: its "
        "paired difference from the best includes 0; a build wins when its interval is above 50%; worst: the lowest "
        "head-to-head score over the field's armies (maximin ranks by it)"
    )
    return lines


def why_text(w: dict[str, Any]) -> str:
    """Where a build's VP come from: HorrorClix's victims, kills and subplots and its first slay; HeroClix's
    knockouts and survivors (HX-END-06), the knockouts scored and suffered and its first knockout."""
    if "vp_victims" in w:
        return (
            f"VP from victims {w['vp_victims']:.1f}, kills {w['vp_kills']:.1f}, subplots {w['vp_subplots']:.1f} "
            f"(against {w['vp_against']:.1f}); first slay in round {w['first_slay_round']:.1f}"
        )
    first = "none" if math.isnan(w["first_ko_round"]) else f"round {w['first_ko_round']:.1f}"
    return (
        f"VP from knockouts {w['vp_kos']:.1f}, survivors {w['vp_survivors']:.1f} (against {w['vp_against']:.1f}); "
        f"knockouts {w['kos']:.2f} scored, {w['kos_against']:.2f} suffered a game; first knockout: {first}; "
        f"{100 * w['tie_break']:.0f}% of games decided by the tie-break (HX-END-11)"
    )


def build_size(result: BuildResult) -> str:
    """The run's size in one sentence (the report's second line)."""
    s = result.settings
    kinds = "forces" if s.get("army_kind") == "force" else "armies"
    return (
        f"{s['played']:,} games played ({s['from_store']:,} more from the store) in {s['seconds']:.0f} s: "
        f"{s['candidates']} candidates raced in {len(result.stages)} stage{'s' if len(result.stages) != 1 else ''}, "
        f"{len(result.builds)} finalists and {len(result.references)} field {kinds} measured with {s['final']} games "
        f"per field {kinds[:-1] if kinds == 'forces' else 'army'} and map on {', '.join(s['maps'])}."
    )


def why_heading(row: dict[str, Any]) -> str:
    """The heading of a build's VP breakdown: "why it wins" when its score against the field is above 50% with its
    interval's low end, else "why it falls short"."""
    return "why it wins" if row.get("wins") else "why it falls short"


def document(result: BuildResult) -> dict[str, Any]:
    """build.json (and `--json`'s payload without the outputs): the headline first."""
    return {
        "verdict": result.comparison.get("headline"),
        "headline": result.comparison.get("headline"),
        "comparison": result.comparison,
        "settings": result.settings,
        "stages": [asdict(s) for s in result.stages],
        "builds": result.builds,
        "references": result.references,
    }


def builds_table(result: BuildResult) -> pd.DataFrame:
    """builds.csv: one row per measured build (by rank) and field army, its score against the field."""
    return pd.DataFrame(
        [
            {
                "name": r["name"],
                "candidate": r.get("candidate"),
                "role": r.get("role", "field army"),
                "points": r["points"],
                "figures": " ".join(r["figures"]),
                "score": r["score"]["score"],
                "low": r["score"]["low"],
                "high": r["score"]["high"],
                "race_estimate": r.get("race_estimate"),
            }
            for r in result.builds + result.references
        ]
    )


def write_build(out: Path, result: BuildResult, pdf: bool = False) -> dict[str, Path]:
    """build.json, builds.csv, games.csv (the final games), build.html (build.pdf) and armies/NAME.yaml."""
    from clix.analyzer.report.folder import writing
    from clix.analyzer.value.report import _render

    out.mkdir(parents=True, exist_ok=True)
    written = {
        "build_json": out / "build.json",
        "builds_csv": out / "builds.csv",
        "games_csv": out / "games.csv",
        "report": out / "build.html",
    }
    with writing(written["build_json"]):
        written["build_json"].write_text(json.dumps(document(result), indent=1, default=str))
    table = builds_table(result)
    with writing(written["builds_csv"]):
        table.to_csv(written["builds_csv"], index=False)
    with writing(written["games_csv"]):
        result.games.to_csv(written["games_csv"], index=False)
    folder = out / "armies"
    folder.mkdir(exist_ok=True)
    for name, army in result.armies.items():
        path = folder / f"{name}.yaml"
        with writing(path):
            path.write_text(yaml.safe_dump(army.model_dump(mode="json", exclude_none=True), sort_keys=False))
        written[f"army_{name}"] = path
    kind = "force" if result.settings.get("army_kind") == "force" else "army"
    html = _render(
        "build.html.j2",
        result=result,
        lines=build_lines(result),
        size=build_size(result),
        kind=kind,
        kinds="forces" if kind == "force" else "armies",
        why=why_text,
    )
    with writing(written["report"]):
        written["report"].write_text(html, encoding="utf-8")
    if pdf:
        from clix.analyzer.report.duel import write_pdf

        written["pdf"] = write_pdf(html, out / "build.pdf")
    return written
