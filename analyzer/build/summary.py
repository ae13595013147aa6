"""The measured builds of `clix build`: each one's score against the field and each field army with why it wins,
which builds are sidegrades of the best (a paired difference that includes 0), their names by rank, and the
headline comparing the best build with the field's own best army on the same seeds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from clix.analyzer.stats.scoring import game_scores, mean_interval
from clix.analyzer.value.pieces import pieces_of

WINS_ABOVE = 0.5
"""A build "wins" (its report says why it wins) when its score against the field has its interval's low end
above this; the others get "why it falls short"."""
OBJECTIVES = ("field", "maximin", "auto")
"""`--objective`: the weighted mean score against the field, the worst head-to-head score over the field's armies,
or maximin when the field has a clearly dominant army (DOMINANT_ABOVE) and field otherwise."""
DOMINANT_ABOVE = 0.6
"""A field army is clearly dominant when its score against the rest of the field has its interval's low end above
this (`auto` then ranks by the worst case: a build tuned to the average would farm the weak armies)."""


def _units(games: pd.DataFrame, name: str, field_armies: Sequence[tuple[str, float]]) -> pd.Series:
    """A build's weighted score per (map, pair) unit: the same seeds against every field army."""
    sub = games[games["build"] == name]
    scores = game_scores(sub, "A")
    per = scores.groupby([sub["opponent"], sub["map_played"], sub["pair"]]).mean()
    weight = dict(field_armies)
    weighted = per * per.index.get_level_values(0).map(weight).to_numpy()
    return weighted.groupby(level=[1, 2]).sum()


def summarize_builds(
    games: pd.DataFrame,
    names: Sequence[str],
    field_armies: Sequence[tuple[str, float]],
    roster: Any,
    estimates: dict[str, float],
) -> list[dict[str, Any]]:
    """Each measured army's score against the field and each field army, and why it wins (`why`). `roster`: a
    ruleset's library data or its pieces holding the measured armies (analyzer/value/pieces.py)."""
    pieces = pieces_of(roster)
    rows = []
    for name in names:
        sub = games[games["build"] == name]
        if sub.empty:
            continue
        overall = mean_interval(_units(games, name, field_armies).to_numpy())
        versus = []
        for opponent, weight in field_armies:
            part = sub[sub["opponent"] == opponent]
            pairs = game_scores(part, "A").groupby([part["map_played"], part["pair"]]).mean().to_numpy()
            versus.append({"opponent": opponent, "weight": weight, **mean_interval(pairs)})
        first = sub["first"] == "A"
        won = game_scores(sub, "A")
        army = pieces.armies[name]
        figures = pieces.contents(army)
        seats = {
            "score_first": float(won[first].mean()) if first.any() else None,
            "score_second": float(won[~first].mean()) if (~first).any() else None,
        }
        rows.append(
            {
                "name": name,
                "wins": bool(overall["low"] > WINS_ABOVE),
                "figures": figures,
                "points": sum(pieces.points(f) for f in figures),
                **({"crypt": pieces.cards(army)} if pieces.has_cards else {}),
                "score": overall,
                "race_estimate": estimates.get(name),
                "versus": versus,
                "why": (why_horror if pieces.has_cards else why_hero)(sub) | seats,
            }
        )
    return rows


def why_horror(sub: pd.DataFrame) -> dict[str, float]:
    """Where a HorrorClix army's VP come from: victims, kills, subplots, the field's VP, the first slay's round."""
    return {
        "vp_victims": float(sub["vp_a_victims"].mean()),
        "vp_kills": float(sub["vp_a_kills"].mean()),
        "vp_subplots": float(sub["vp_a_subplots"].mean()),
        "vp_against": float(sub["vp_b"].mean()),
        "first_slay_round": float(pd.to_numeric(sub["first_slay_a"], errors="coerce").mean()),
    }


def why_hero(sub: pd.DataFrame) -> dict[str, float]:
    """Where a HeroClix force's VP come from (HX-END-06): knockouts and its own survivors, the knockouts it scores
    and suffers, the field's VP, the round of its first knockout (NaN: it never scored one), and the share of its
    games the tie-break decided (HX-END-11: equal VP or nobody defeated, the force of fewer points wins)."""
    return {
        "vp_kos": float(sub["vp_a_kos"].mean()),
        "vp_survivors": float(sub["vp_a_survivors"].mean()),
        "kos": float(sub["kos_a"].mean()),
        "kos_against": float(sub["kos_b"].mean()),
        "vp_against": float(sub["vp_b"].mean()),
        "first_ko_round": float(pd.to_numeric(sub["first_ko_a"], errors="coerce").mean()),
        "tie_break": float(sub["tie_break"].astype(bool).mean()) if "tie_break" in sub else 0.0,
    }


def worst_case(row: dict[str, Any]) -> dict[str, Any] | None:
    """A measured army's worst head-to-head score over the field's armies of positive weight (not its own mirror):
    {opponent, score, low, high, pairs}, or None when it met none."""
    heads = [v for v in row["versus"] if v["opponent"] != row["name"] and v.get("weight", 1) > 0]
    worst = min(heads, key=lambda v: (v["score"], v["opponent"]), default=None)
    return None if worst is None else {k: worst[k] for k in ("opponent", "score", "low", "high", "pairs") if k in worst}


def objective_score(row: dict[str, Any], objective: str) -> float:
    """The number the builds are ranked by: the score against the field (`field`) or the worst head-to-head score
    (`maximin`)."""
    if objective == "maximin":
        worst = worst_case(row)
        return worst["score"] if worst is not None else row["score"]["score"]
    return float(row["score"]["score"])


def rest_scores(games: pd.DataFrame, field_armies: Sequence[tuple[str, float]]) -> dict[str, dict[str, Any]]:
    """Each field army's score against the rest of the field (the other armies, their weights renormalized), with
    its 95% interval over the (map, pair) units, from the games in which it is the `build` column's army."""
    found = {}
    for name, _ in field_armies:
        rest = [(a, w) for a, w in field_armies if a != name and w > 0]
        total = sum(w for _, w in rest)
        sub = games[(games["build"] == name) & games["opponent"].isin([a for a, _ in rest])] if total else games[:0]
        if sub.empty:
            continue
        units = _units(sub, name, [(a, w / total) for a, w in rest])
        found[name] = mean_interval(units.to_numpy())
    return found


def dominant_army(games: pd.DataFrame, field_armies: Sequence[tuple[str, float]]) -> dict[str, Any] | None:
    """The field army of highest score against the rest of the field when that score's interval is above
    DOMINANT_ABOVE ({army, score, low, high, pairs}), else None."""
    scores = rest_scores(games, field_armies) if not games.empty else {}
    if not scores:
        return None
    name = max(scores, key=lambda a: (scores[a]["score"], a))
    return {"army": name, **scores[name]} if scores[name]["low"] > DOMINANT_ABOVE else None


def choose_objective(
    asked: str,
    sources: Sequence[tuple[str, dict[str, Any] | None]],
    field_size: int,
    shown: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The objective used and why: {objective, asked, dominant, source, why}. `sources` are (where measured, the
    dominant army found there or None), e.g. the first stage's reference games and the final games; `auto` takes
    maximin when any source found a dominant army. `shown`: how each army is shown (common/names.py; default its
    id)."""
    found = next(((where, d) for where, d in sources if d is not None), None)
    chosen = {"asked": asked, "dominant": found[1] if found else None, "source": found[0] if found else None}
    if asked != "auto":
        what = "the worst head-to-head score over the field" if asked == "maximin" else "the score against the field"
        return chosen | {"objective": asked, "why": f"ranked by {what} (--objective {asked})"}
    if found is not None:
        where, d = found
        return chosen | {
            "objective": "maximin",
            "why": f"ranked by the worst head-to-head score over the field, as {_shown(shown, d['army'])} dominates it: "
            f"{_pct(d)} against the rest of the field ({where}), above {100 * DOMINANT_ABOVE:.0f}%",
        }
    looked = " or ".join(where for where, _ in sources) or "no games"
    reason = (
        "a field of one army"
        if field_size < 2
        else f"no field army's score against the rest has its interval above {100 * DOMINANT_ABOVE:.0f}% ({looked})"
    )
    return chosen | {"objective": "field", "why": f"ranked by the score against the field: {reason}"}


def _mark_sidegrades(
    builds: list[dict[str, Any]],
    games: pd.DataFrame,
    field_armies: Sequence[tuple[str, float]],
    objective: str = "field",
) -> None:
    """Sort the builds by the objective; a build whose paired difference from the best includes 0 is a sidegrade.
    Under maximin the difference is taken against the best build's worst opponent (a lower bound of the gap in
    worst cases: the other build scores at most that there)."""
    builds.sort(key=lambda r: (-objective_score(r, objective), -r["score"]["score"]))
    if not builds:
        return
    builds[0]["role"] = "best"
    worst = worst_case(builds[0]) if objective == "maximin" else None
    against = [(worst["opponent"], 1.0)] if worst is not None else list(field_armies)
    best = _units(games, builds[0]["name"], against)
    for row in builds[1:]:
        other = _units(games, row["name"], against)
        row["behind_best"] = paired_difference(best, other)
        if worst is not None:
            row["behind_best"]["against"] = worst["opponent"]
        gap = row["behind_best"]
        if worst is None:
            row["role"] = "sidegrade" if gap["low"] <= 0 else "worse"
            continue
        # Under maximin the gap against the best's worst opponent says nothing of the other build's own worst case,
        # which may lie elsewhere (a build better against that opponent ranks lower all the same): a sidegrade also
        # needs its worst case's interval to reach the best's.
        own = worst_case(row)
        overlap = own is None or own["high"] >= worst["low"]
        row["role"] = "sidegrade" if gap["low"] <= 0 and overlap else "worse"


def paired_difference(first: pd.Series, second: pd.Series) -> dict[str, Any]:
    """`first` minus `second` over the (map, pair) units both played, with its 95% interval: per-unit differences
    mapped to [0, 1] for `mean_interval`, then back: {difference, low, high, pairs}."""
    common = first.index.intersection(second.index)
    diff = mean_interval(((first[common] - second[common]) / 2 + 0.5).to_numpy())
    return {
        "difference": 2 * diff["score"] - 1,
        "low": 2 * diff["low"] - 1,
        "high": 2 * diff["high"] - 1,
        "pairs": diff["pairs"],
    }


def rank_names(taken: Sequence[str], count: int) -> list[str]:
    """The names of `count` builds by rank, build-01 the best (build-001... past 99), avoiding `taken` names
    (the field's armies: a field may hold an earlier run's build-01)."""
    width = max(2, len(str(count)))
    for prefix in ("build", "new-build", *(f"build-{n}" for n in range(2, 100))):
        names = [f"{prefix}-{k:0{width}d}" for k in range(1, count + 1)]
        if not set(names) & set(taken):
            return names
    raise AssertionError("no free build names")  # pragma: no cover - 100 prefixes all taken by the field


def name_by_rank(
    builds: list[dict[str, Any]], games: pd.DataFrame, armies: dict[str, Any], taken: Sequence[str]
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Rename the measured builds (sorted best first) by rank: build-01 is the best on the final seeds. Each row
    keeps its race name as `candidate`; returns the games and the armies under the new names."""
    names = dict(zip([row["name"] for row in builds], rank_names(taken, len(builds)), strict=True))
    for row in builds:
        row["candidate"] = row["name"]
        row["name"] = names[row["candidate"]]
    renamed = {new: armies[old].model_copy(update={"name": new}) for old, new in names.items()}
    if not games.empty:
        games = games.copy()
        for column in ("build", "army_a", "army_b"):
            if column in games:
                games[column] = games[column].replace(names)
    return games, renamed


def _pct(s: dict[str, Any]) -> str:
    return f"{100 * s['score']:.1f}% [{100 * s['low']:.1f}–{100 * s['high']:.1f}]"


def _points(d: dict[str, Any]) -> str:
    return f"{100 * d['difference']:+.1f} points [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"


def _shown(shown: Mapping[str, str] | None, army: str) -> str:
    """How `army` is shown: its entry in `shown`, else its id."""
    return (shown or {}).get(army, army)


def compare_with_field(
    builds: list[dict[str, Any]],
    references: list[dict[str, Any]],
    games: pd.DataFrame,
    field_armies: Sequence[tuple[str, float]],
    maps: Sequence[str],
    objective: dict[str, Any] | None = None,
    shown: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The headline: does the best build (builds sorted best first) beat the field's own armies, measured on the
    same fresh seeds? One of three forms ("beats every", "beats the best", "none beats"), with the paired
    difference from the best field army (by score against the field) and the head-to-head scores behind it;
    `objective` (`choose_objective`) adds which objective ranked the builds and why. The headline shows each field
    army as `shown` says (common/names.py: its `name:`; default its id); the other fields keep ids."""
    found = _compare(builds, references, games, field_armies, maps, shown or {})
    if objective is not None:
        found["objective"] = objective
        found["headline"] += f". Objective {objective['objective']}: {objective['why']}"
        if objective.get("race", objective["objective"]) != objective["objective"]:
            found["headline"] += f" (the race before the final games ranked by {objective['race']})"
        if objective["objective"] == "maximin" and builds and (worst := worst_case(builds[0])) is not None:
            found["worst"] = worst
            found["headline"] += (
                f"; {builds[0]['name']}'s worst: {_pct(worst)} against {_shown(shown, worst['opponent'])}"
            )
    return found


def _compare(
    builds: list[dict[str, Any]],
    references: list[dict[str, Any]],
    games: pd.DataFrame,
    field_armies: Sequence[tuple[str, float]],
    maps: Sequence[str],
    shown: Mapping[str, str],
) -> dict[str, Any]:
    """`compare_with_field` without the objective."""
    where = "on " + " and ".join(maps)
    if not builds:
        return {"form": "none measured", "headline": f"no build was measured {where}", "maps": list(maps)}
    best = builds[0]
    name = best["name"]
    heads = [v for v in best["versus"] if v["opponent"] != name]
    unbeaten = [v for v in heads if v["low"] <= 0.5]
    found: dict[str, Any] = {
        "best": name,
        "score": best["score"],
        "maps": list(maps),
        "unbeaten": [v["opponent"] for v in unbeaten],
        "best_field_army": None,
        "difference": None,
    }
    if references:
        top = max(references, key=lambda r: r["score"]["score"])
        found["best_field_army"] = top["name"]
        found["best_field_army_score"] = top["score"]
        found["difference"] = paired_difference(
            _units(games, name, field_armies), _units(games, top["name"], field_armies)
        )
    if heads and not unbeaten:
        found["form"] = "beats every"
        found["headline"] = f"{name} beats every field army head to head (each interval above 50%) {where}"
        return found
    worst = min(unbeaten or heads, key=lambda v: v["score"], default=None)
    difference = found["difference"]
    if difference is not None and difference["low"] > 0:
        found["form"] = "beats the best"
        found["headline"] = (
            f"{name} scores {_pct(best['score'])} against the field, {_points(difference)} above the best field "
            f"army {_shown(shown, found['best_field_army'])} {where}"
        )
        if worst is not None:
            found["headline"] += (
                f"; it does not beat {_shown(shown, worst['opponent'])} head to head: "
                f"{_shown(shown, worst['opponent'])} scores "
                f"{_pct(_other_side(worst))} against {name}"
            )
        return found
    found["form"] = "none beats"
    if worst is None:  # no field army measured: nothing to compare with
        found["headline"] = f"{name} scores {_pct(best['score'])} against the field {where} (no field army to compare)"
        return found
    found["headline"] = (
        f"no build found beats {_shown(shown, worst['opponent'])}: it scores {_pct(_other_side(worst))} against {name} head to head "
        f"{where}"
    )
    if difference is not None:
        found["headline"] += (
            f"; {name} scores {_pct(best['score'])} against the field, {_points(difference)} from the best field army "
            f"{_shown(shown, found['best_field_army'])}"
        )
    return found


def _other_side(versus: dict[str, Any]) -> dict[str, Any]:
    """A head-to-head score seen from the other army: 1 - score, the interval flipped."""
    return {"score": 1 - versus["score"], "low": 1 - versus["high"], "high": 1 - versus["low"]}
