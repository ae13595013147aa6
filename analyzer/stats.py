"""Statistics of a duel from its per-game and per-figure tables: win rates with confidence intervals,
victory points, point efficiency, victim rush, game length, the first-player advantage and how the AI played."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st

CONFIDENCE = 0.95


def proportion(successes: int, trials: int, method: str = "wilson") -> dict[str, Any]:
    """A rate with its 95% confidence interval (Wilson score by default, or exact Clopper-Pearson)."""
    if trials == 0:
        return {"rate": None, "low": None, "high": None, "n": 0}
    ci = st.binomtest(successes, trials).proportion_ci(
        confidence_level=CONFIDENCE, method="wilson" if method == "wilson" else "exact"
    )
    return {"rate": successes / trials, "low": float(ci.low), "high": float(ci.high), "n": trials}


def outcome(games: pd.DataFrame) -> dict[str, Any]:
    """Win / draw / loss for army A with intervals, and whether A's edge over B is significant.

    Significance is a two-sided exact binomial (sign) test of A's wins against B's wins, draws left out:
    under "no difference" each decided game is a coin flip.
    """
    n = len(games)
    wins = int((games["winner"] == "A").sum())
    losses = int((games["winner"] == "B").sum())
    draws = n - wins - losses
    decided = wins + losses
    p_value = float(st.binomtest(wins, decided, 0.5).pvalue) if decided else 1.0
    return {
        "games": n,
        "win": proportion(wins, n),
        "draw": proportion(draws, n),
        "loss": proportion(losses, n),
        "p_value": p_value,
        "significant": p_value < 1 - CONFIDENCE,
    }


def _describe(values: pd.Series) -> dict[str, float]:
    values = values.dropna().astype(float)
    if values.empty:
        return {
            "mean": float("nan"),
            "sd": float("nan"),
            "median": float("nan"),
            "p10": float("nan"),
            "p90": float("nan"),
        }
    return {
        "mean": float(values.mean()),
        "sd": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
        "median": float(values.median()),
        "p10": float(values.quantile(0.1)),
        "p90": float(values.quantile(0.9)),
    }


def victory_points(games: pd.DataFrame) -> dict[str, Any]:
    """Victory points per side: distribution of the total and the mean of each part."""
    result: dict[str, Any] = {}
    for side in ("a", "b"):
        result[side] = {
            "total": _describe(games[f"vp_{side}"]),
            **{part: float(games[f"vp_{side}_{part}"].mean()) for part in ("kills", "victims", "subplots")},
            "per_army_point": float((games[f"vp_{side}"] / games[f"points_{side}"]).mean()),
        }
    return result


def figure_efficiency(figures: pd.DataFrame) -> pd.DataFrame:
    """Per figure (and side): damage, kills and victory points per point of its cost, and survival rate."""
    grouped = figures.groupby(["side", "army", "figure", "points"], as_index=False).agg(
        games=("game", "nunique"),
        copies=("game", "size"),
        damage_dealt=("damage_dealt", "mean"),
        damage_taken=("damage_taken", "mean"),
        kills=("kills", "mean"),
        kill_vp=("kill_vp", "mean"),
        victims=("victims", "mean"),
        victim_vp=("victim_vp", "mean"),
        survival=("survived", "mean"),
    )
    grouped["vp"] = grouped["kill_vp"] + grouped["victim_vp"]
    for column in ("damage_dealt", "kills", "vp"):
        grouped[f"{column}_per_point"] = grouped[column] / grouped["points"]
    return grouped.sort_values(["side", "vp_per_point"], ascending=[True, False]).reset_index(drop=True)


def victim_rush(games: pd.DataFrame, rounds: int) -> dict[str, Any]:
    """How fast and how many victims each side slays: first slay, the curve by round, share, first-slay wins."""
    result: dict[str, Any] = {"curve_rounds": list(range(1, rounds + 1))}
    for side in ("a", "b"):
        first = pd.to_numeric(games[f"first_slay_{side}"], errors="coerce")
        counts = np.zeros((len(games), rounds))
        for i, text in enumerate(games[f"slay_rounds_{side}"]):
            for r in (int(x) for x in str(text).split() if x):
                if r <= rounds:
                    counts[i, r - 1 :] += 1
        mean = counts.mean(axis=0) if len(games) else np.zeros(rounds)
        half = (
            st.t.ppf(0.975, max(1, len(games) - 1)) * counts.std(axis=0, ddof=1) / np.sqrt(max(1, len(games)))
            if len(games) > 1
            else np.zeros(rounds)
        )
        result[side] = {
            "first_slay": _describe(first),
            "never_slays": float(first.isna().mean()),
            "first_slay_histogram": {
                int(k): int(v) for k, v in first.dropna().astype(int).value_counts().sort_index().items()
            },
            "curve_mean": mean.round(4).tolist(),
            "curve_low": (mean - half).round(4).tolist(),
            "curve_high": (mean + half).round(4).tolist(),
            "share_of_victims": float(games[f"victims_{side}"].mean() / 12),
        }
    # who slew first is decided by the exact turn (both sides often slay in the same round)
    # a side that never slays leaves a column of None; as numbers it becomes NaN
    a_turn = pd.to_numeric(games["first_slay_turn_a"], errors="coerce")
    b_turn = pd.to_numeric(games["first_slay_turn_b"], errors="coerce")
    a_first = games[a_turn.notna() & ((a_turn < b_turn) | b_turn.isna())]
    b_first = games[b_turn.notna() & ((b_turn < a_turn) | a_turn.isna())]
    result["a"]["win_when_first"] = proportion(int((a_first["winner"] == "A").sum()), len(a_first))
    result["b"]["win_when_first"] = proportion(int((b_first["winner"] == "B").sum()), len(b_first))
    return result


def first_player(games: pd.DataFrame) -> dict[str, Any]:
    """How often the side that took the first turn won (HC-SETUP-03)."""
    first_won = ((games["first"] == "A") & (games["winner"] == "A")) | (
        (games["first"] == "B") & (games["winner"] == "B")
    )
    return proportion(int(first_won.sum()), len(games))


ATTACK_KINDS = ("close", "ranged", "frenzy")


def _windows(text: Any) -> dict[str, int]:
    """Parse a game's plot twists by window, "slaying:2 preview:1", into a dict (a blank CSV cell is NaN)."""
    if not isinstance(text, str):
        return {}
    counts: dict[str, int] = {}
    for part in text.split():
        window, _, count = part.rpartition(":")
        counts[window] = counts.get(window, 0) + int(count)
    return counts


def play_style(games: pd.DataFrame) -> dict[str, Any]:
    """How the AI played each side: idle turns, attacks by kind, attacks once no victim is left, rescues,
    plot twists by window, and how often a game (or a side) made no attack at all (issue 12).

    Idle shares pool every turn of every game (idle turns / turns); their Wilson interval treats turns as
    independent, which they are not quite (one game's turns share a board), so it is a little optimistic.
    """
    n = len(games)
    if not n or "turns_a" not in games:
        return {}
    result: dict[str, Any] = {}
    totals: dict[str, pd.Series] = {}
    for side in ("a", "b"):
        per_kind = {k: games[f"attacks_{k}_{side}"].astype(float) for k in ATTACK_KINDS}
        total = sum(per_kind.values())
        totals[side] = total
        windows: dict[str, int] = {}
        for text in games[f"plot_twist_windows_{side}"]:
            for window, count in _windows(text).items():
                windows[window] = windows.get(window, 0) + count
        result[side] = {
            "turns_per_game": float(games[f"turns_{side}"].mean()),
            "idle_share": proportion(int(games[f"idle_turns_{side}"].sum()), int(games[f"turns_{side}"].sum())),
            "idle_share_with_victims": proportion(
                int(games[f"idle_turns_with_victims_{side}"].sum()), int(games[f"turns_with_victims_{side}"].sum())
            ),
            "attacks_per_game": {**{k: float(v.mean()) for k, v in per_kind.items()}, "total": float(total.mean())},
            "attacks_after_victims_per_game": float(games[f"attacks_after_victims_{side}"].mean()),
            "rescues_per_game": float(games[f"rescued_{side}"].mean()),
            "plot_twists_per_window": {w: windows[w] / n for w in sorted(windows)},
            "no_attack_share": float((total == 0).mean()),
        }
    result["no_attack_games_share"] = float(((totals["a"] + totals["b"]) == 0).mean())
    return result


def summarize(games: pd.DataFrame, figures: pd.DataFrame) -> dict[str, Any]:
    """Every statistic of the duel report, JSON-ready."""
    rounds = int(games["turn_limit"].max()) if len(games) else 0
    return {
        "outcome": outcome(games),
        "victory_points": victory_points(games),
        "victim_rush": victim_rush(games, rounds),
        "game_length": {"rounds": _describe(games["rounds"]), "timeouts": float(games["timeout"].mean())},
        "first_player_wins": first_player(games),
        "figures": figure_efficiency(figures).to_dict(orient="records"),
        "play": play_style(games),
    }
