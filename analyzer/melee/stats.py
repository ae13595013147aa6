"""Statistics of a melee from its games table (one row per game, `design.game_row`): per army its win share and
mean placing with 95% block intervals against the equal-strength share, VP and victims slain; win share by seat and
by turn position (the first-player effect); attack spread over opponents; king-making (docs/statistics.md, "Melee").

The unit of every interval is the block (every seat order once, one seed): blocks are independent, games within a
block are not. A slot's block value is its mean over the block's games; the interval is a Wilson score interval over the
block values with their effective number of games (`block_interval`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.stats.scoring import CONFIDENCE, pair_interval
from scipy import stats as st

SLOTS = "ABCD"


def slots_of(games: pd.DataFrame) -> str:
    """The slot letters a games table has columns for."""
    return "".join(x for x in SLOTS if f"army_{x}" in games.columns)


def block_interval(games: pd.DataFrame, values: pd.Series) -> dict[str, Any]:
    """The mean of `values` (one per game, in [0, 1]) with its 95% interval over block means: a Wilson score
    interval on the mean with the blocks' effective number of games, n = p(1 - p) / (s² / B) (p the mean, s² the
    block means' variance, B blocks), and t(B - 1) in place of z (`wilson_blocks`).

    A t interval over the block means covered 94.4-95.0% in block bootstraps of real 3- and 4-player mirrors but
    is symmetric, so it leaks on the side of a share near 0 or 1 with few blocks; the score interval bends toward
    the middle as a binomial share's does. When every block agrees (no spread to measure) the duel's pair interval
    is used, so no interval has zero width (docs/statistics.md, "Melee")."""
    means = values.groupby(games["block"]).mean().to_numpy(dtype=float)
    blocks = len(means)
    if blocks < 2 or float(np.std(means)) == 0.0:
        found = pair_interval(means)
        return {"share": found["score"], "low": found["low"], "high": found["high"], "blocks": blocks}
    low, high = wilson_blocks(means)
    return {"share": float(means.mean()), "low": low, "high": high, "blocks": blocks}


def wilson_blocks(means: np.ndarray) -> tuple[float, float]:
    """The 95% Wilson score interval of the mean of block means in [0, 1] (two or more, not all equal), counting
    p(1 - p) / (s² / B) effective games and using t(B - 1) for z. Where the block means vary as much as
    independent games would, it is the Wilson interval on the games; where the design makes them steadier (seats
    rotated in a block), it is narrower, and with few blocks the t quantile widens it as a t interval's."""
    blocks = len(means)
    p = float(means.mean())
    variance = float(means.var(ddof=1)) / blocks
    z = float(st.t.ppf(0.5 + CONFIDENCE / 2, blocks - 1))
    if p * (1 - p) == 0.0:  # every block 0 or every block 1 was caught before; a mean at 0 or 1 has no spread
        return p, p
    n = p * (1 - p) / variance
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def armies(games: pd.DataFrame) -> list[dict[str, Any]]:
    """Per slot: army, win share and mean placing with intervals, the equal-strength share, VP, victims slain."""
    slots = slots_of(games)
    size = len(slots)
    teams = bool(_teams(games))
    rows = []
    for x in slots:
        win = block_interval(games, games[f"win_{x}"].astype(float))
        scaled = (games[f"place_{x}"].astype(float) - 1) / (size - 1)
        place = block_interval(games, scaled)
        rows.append(
            {
                "slot": x,
                "army": str(games[f"army_{x}"].iloc[0]),
                "win_share": win["share"],
                "win_low": win["low"],
                "win_high": win["high"],
                "expected": 0.5 if teams else 1 / size,
                "mean_place": 1 + place["share"] * (size - 1),
                "place_low": 1 + place["low"] * (size - 1),
                "place_high": 1 + place["high"] * (size - 1),
                "vp": float(games[f"vp_{x}"].mean()),
                "victims": float(games[f"victims_{x}"].mean()),
                "eliminated": float(games[f"eliminated_{x}"].astype(float).mean()),
                "idle_turns": _share(games, f"idle_turns_{x}", f"turns_{x}"),
            }
        )
    return rows


def _share(games: pd.DataFrame, part: str, whole: str) -> float | None:
    """The sum of column `part` over the sum of column `whole` (None without the columns or with nothing)."""
    if part not in games.columns or whole not in games.columns:
        return None
    total = float(games[whole].sum())
    return float(games[part].sum()) / total if total else None


def by_position(games: pd.DataFrame, column: str) -> list[dict[str, Any]]:
    """The win share of whoever held each value of `column` ("seat": seat number; "position": turn position, 1 the
    first player), with block intervals."""
    slots = slots_of(games)
    out = []
    for value in range(1, len(slots) + 1):
        credit = sum(games[f"win_{x}"].astype(float) * (games[f"{column}_{x}"] == value) for x in slots)
        found = block_interval(games, credit)
        out.append({column: value, "win_share": found["share"], "low": found["low"], "high": found["high"]})
    return out


def attack_spread(games: pd.DataFrame) -> list[dict[str, Any]]:
    """Per slot: the share of its attacks on each opponent (teammates are not), against an equal share."""
    slots = slots_of(games)
    team_of = _teams(games)
    out = []
    for x in slots:
        others = [y for y in slots if y != x and team_of.get(y) != team_of.get(x, x)]
        counts = {y: int(games[f"attacks_{x}{y}"].sum()) for y in others}
        total = sum(counts.values())
        out.append(
            {
                "slot": x,
                "attacks": total,
                "equal_share": 1 / len(others),
                "shares": {y: (counts[y] / total if total else None) for y in others},
            }
        )
    return out


def targeted(games: pd.DataFrame) -> list[dict[str, Any]]:
    """Per slot: the share of its opponents' attacks that went to it ("everyone's target"), against the share an
    even spread would give it (each opponent's attacks split equally over that opponent's own opponents; in a 2v2
    each army has two opponents, each with two opponents of its own: 50%)."""
    slots = slots_of(games)
    team_of = _teams(games)

    def opponents(x: str) -> list[str]:
        return [y for y in slots if y != x and team_of.get(y) != team_of.get(x, x)]

    made = {x: {y: int(games[f"attacks_{x}{y}"].sum()) for y in opponents(x)} for x in slots}
    out = []
    for x in slots:
        attackers = opponents(x)
        total = sum(sum(made[y].values()) for y in attackers)
        received = sum(made[y][x] for y in attackers)
        even = sum(sum(made[y].values()) / len(opponents(y)) for y in attackers)
        out.append(
            {
                "slot": x,
                "received": received,
                "share": received / total if total else None,
                "equal_share": even / total if total else None,
            }
        )
    return out


def _teams(games: pd.DataFrame) -> dict[str, str]:
    """Each slot's team (its letters, as in "AB:CD"); none in a free-for-all."""
    text = games["teams"].iloc[0] if "teams" in games.columns and len(games) else ""
    text = text if isinstance(text, str) else ""  # read back from a CSV, an empty text is NaN
    return {x: team for team in text.split(":") if team for x in team}


TEAM_KING_MAKING = (
    "not counted in team games: with two sides every army plays for its own side's win, so no army outside the "
    "race can hand the win to one of two others; see who each side's attacks went to instead"
)
"""Why a 2v2 has no king-making count (docs/statistics.md, "Melee")."""


def king_making(games: pd.DataFrame) -> dict[str, Any]:
    """How often the last-placed player took sides between the two leaders: of the games with one winner, one
    runner-up and one last-placed player (3 or more players), the share in which last place killed monsters of
    one of the top two and not of the other, and whether it was the runner-up's (helping the winner)."""
    slots = slots_of(games)
    if _teams(games):
        return {"games": 0, "took_sides": None, "helped_winner": None, "not_counted": TEAM_KING_MAKING}
    if len(slots) < 3:
        return {"games": 0, "took_sides": None, "helped_winner": None}
    counted = took = helped = 0
    for _, game in games.iterrows():
        place = {x: float(game[f"place_{x}"]) for x in slots}
        ranked = sorted(slots, key=lambda x: place[x])
        first, second, last = ranked[0], ranked[1], ranked[-1]
        if place[first] != 1 or place[second] != 2 or place[last] != len(slots):
            continue  # a tie at the top or at the bottom
        counted += 1
        on_winner, on_runner = game[f"kills_{last}{first}"], game[f"kills_{last}{second}"]
        if bool(on_winner) != bool(on_runner):
            took += 1
            helped += bool(on_runner)
    return {
        "games": counted,
        "took_sides": took / counted if counted else None,
        "helped_winner": helped / counted if counted else None,
    }


HEROCLIX_PREFIX = "heroclix"
"""The start of HeroClix's ruleset version in a game row's `ruleset` (its pieces are characters; it has no
victims)."""


def table_words(games: pd.DataFrame) -> dict[str, Any]:
    """The words a melee's text and report use for its ruleset (from the rows' `ruleset`): what a player's pieces
    are called and whether victims are counted (HorrorClix's monsters slay victims; HeroClix's characters do not)."""
    version = str(games["ruleset"].iloc[0]) if "ruleset" in games.columns and len(games) else ""
    hero = version.startswith(HEROCLIX_PREFIX)
    return {"pieces": "characters" if hero else "monsters", "defeated": "knocked out" if hero else "killed",
            "victims": not hero}  # fmt: skip


def summarize(games: pd.DataFrame) -> dict[str, Any]:
    """Everything `clix melee` reports, JSON-able."""
    slots = slots_of(games)
    per_army = armies(games)
    rounds = games["rounds"].astype(float)
    summary: dict[str, Any] = {
        "games": len(games),
        "blocks": int(games["block"].nunique()),
        "players": len(slots),
        "teams": ":".join(dict.fromkeys(_teams(games).values())),
        "armies": per_army,
        "seats": by_position(games, "seat"),
        "positions": by_position(games, "position"),
        "attack_spread": attack_spread(games),
        "targeted": targeted(games),
        "words": table_words(games),
        "king_making": king_making(games),
        "rounds": float(rounds.mean()) if len(games) else None,
        "timeouts": float((games["end_reason"] == "turn limit").mean()) if len(games) else None,
        "draws": float((games["winner"] == "draw").mean()) if len(games) else None,
    }
    summary["headline"] = headline(summary)
    return summary


def headline(summary: dict[str, Any]) -> str:
    """One line: the army with the highest win share, against the equal share, and whether its interval is clear."""
    per_army = summary["armies"]
    if not per_army or per_army[0]["win_share"] is None:
        return "no games"
    if summary["teams"]:
        team_a = per_army[0]
        verdict = _verdict(team_a)
        return (
            f"team {summary['teams'].split(':')[0]} scores {team_a['win_share']:.0%} "
            f"[{team_a['win_low']:.0%}-{team_a['win_high']:.0%}] against 50% for equal teams ({verdict})"
        )
    best = max(per_army, key=lambda a: a["win_share"])
    verdict = _verdict(best)
    return (
        f"{best['army']} ({best['slot']}) wins {best['win_share']:.0%} [{best['win_low']:.0%}-{best['win_high']:.0%}] "
        f"of {summary['players']}-player games against {best['expected']:.0%} for equal armies ({verdict}), "
        f"mean place {best['mean_place']:.2f}"
    )


def _verdict(army: dict[str, Any]) -> str:
    if army["win_low"] > army["expected"]:
        return "stronger"
    if army["win_high"] < army["expected"]:
        return "weaker"
    return "not shown different"
