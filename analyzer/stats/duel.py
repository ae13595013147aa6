"""Statistics of a duel from its per-game and per-figure tables: A's score over seat-swapped pairs, win rates
with confidence intervals, victory points, point efficiency with bootstrap intervals, game length, the tie-break
share, the first-player and seat effects and how the AI played (docs/statistics.md); the victim rush of a
HorrorClix duel, the knockouts (who is KO'd when) of a HeroClix one, each when the rows have its columns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from clix.analyzer.stats.figures import figure_efficiency
from clix.analyzer.stats.scoring import CONFIDENCE, game_scores, pair_interval, pair_means
from scipy import stats as st

Z = float(st.norm.ppf(0.5 + CONFIDENCE / 2))


def proportion(successes: int, trials: int, method: str = "wilson") -> dict[str, Any]:
    """A rate with its 95% confidence interval (Wilson score by default, or exact Clopper-Pearson)."""
    if trials == 0:
        return {"rate": None, "low": None, "high": None, "n": 0}
    ci = st.binomtest(successes, trials).proportion_ci(
        confidence_level=CONFIDENCE, method="wilson" if method == "wilson" else "exact"
    )
    return {"rate": successes / trials, "low": float(ci.low), "high": float(ci.high), "n": trials}


def pair_score(games: pd.DataFrame, side: str = "A", pair_key: str | Sequence[str] = "pair") -> dict[str, Any]:
    """`side`'s mean score with its 95% pair interval (`pair_interval`) over seat-swapped pairs: {score, low,
    high, pairs, games}, the keys of `clix.analyzer.stats.scoring.paired_score`."""
    found = pair_interval(pair_means(games, side, pair_key))
    return {k: found[k] for k in ("score", "low", "high", "pairs")} | {"games": len(games)}


def naive_interval(scores: pd.Series | np.ndarray) -> tuple[float | None, float | None]:
    """The interval of a mean score if every game were independent: the pair interval with games as the unit."""
    found = pair_interval(np.asarray(scores, dtype=float))
    return found["low"], found["high"]


def score(games: pd.DataFrame) -> dict[str, Any]:
    """Army A's score (wins + ½ draws) with its 95% interval over seat-swapped pairs (`pair_interval`).

    Also the interval that takes games as independent (`naive_low`, `naive_high`), for comparison, and
    whether the pair interval leaves out 50% (`excludes_half`): then one army is favoured.
    """
    result = pair_score(games, "A")
    result["naive_low"], result["naive_high"] = naive_interval(game_scores(games, "A"))
    result["excludes_half"] = result["score"] is not None and bool(result["low"] > 0.5 or result["high"] < 0.5)
    return result


def _pair_scores(games: pd.DataFrame, side: str) -> pd.Series:
    """`side`'s mean score in each pair, indexed by pair."""
    return game_scores(games, side).groupby(games["pair"], sort=True).mean()


def difference_interval(
    x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> dict[str, Any]:
    """mean(x) − mean(y) for two independent samples of scores in [0, 1], with Newcombe's interval built from
    each one's `pair_interval`: {difference, low, high}; None without data."""
    fx, fy = pair_interval(x, confidence), pair_interval(y, confidence)
    if fx["score"] is None or fy["score"] is None:
        return {"difference": None, "low": None, "high": None}
    d = fx["score"] - fy["score"]
    below = float(np.hypot(fx["score"] - fx["low"], fy["high"] - fy["score"]))
    above = float(np.hypot(fx["high"] - fx["score"], fy["score"] - fy["low"]))
    return {"difference": d, "low": max(-1.0, d - below), "high": min(1.0, d + above)}


def paired_difference_interval(d: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE) -> dict[str, Any]:
    """The mean of paired differences of scores, each in [-1, 1], with the pair interval of (d + 1) / 2 mapped
    back: {difference, low, high}; None without data."""
    found = pair_interval((np.asarray(d, dtype=float) + 1) / 2, confidence)
    if found["score"] is None:
        return {"difference": None, "low": None, "high": None}
    return {"difference": 2 * found["score"] - 1, "low": 2 * found["low"] - 1, "high": 2 * found["high"] - 1}


def score_difference(games_x: pd.DataFrame, games_y: pd.DataFrame, side: str = "A") -> dict[str, Any]:
    """The difference of `side`'s score, x − y, between two sets of games, with its 95% interval.

    When both hold the same pairs (two runs with the same master seed, or the two games of every pair) the
    pairs are matched: the pair interval over the per-pair differences (`paired_difference_interval`), so the
    dice they share cancel out. Otherwise the two are independent samples: Newcombe's interval from each one's
    pair interval (`difference_interval`). Within [-1, 1]; with a single pair on a side, all of it.
    """
    x, y = _pair_scores(games_x, side), _pair_scores(games_y, side)
    result: dict[str, Any] = {"difference": None, "low": None, "high": None, "paired": False}
    result |= {"pairs_x": len(x), "pairs_y": len(y)}
    if x.empty or y.empty:
        return result
    paired = x.index.equals(y.index)
    if paired:
        found = paired_difference_interval((x - y).to_numpy(dtype=float))
    else:
        found = difference_interval(x.to_numpy(dtype=float), y.to_numpy(dtype=float))
        if len(x) == 1 or len(y) == 1:  # one pair on a side: its spread cannot be estimated
            found |= {"low": -1.0, "high": 1.0}
    result |= found | {"paired": paired}
    return result


def tie_break(games: pd.DataFrame) -> dict[str, Any]:
    """The share of games decided by HC-END-09 (equal VP, the cheaper army wins), and how equal VP was played."""
    n = len(games)
    ties = str(games["ties"].iloc[0]) if n and "ties" in games else "break"
    equal = games["vp_a"] == games["vp_b"]
    decided = games["tie_break"].astype(bool) if "tie_break" in games else equal & (games["winner"] != "draw")
    count = int(decided.sum())
    return {"share": count / n if n else None, "count": count, "games": n, "equal_vp": int(equal.sum()), "ties": ties}


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


VP_PARTS = ("kills", "victims", "subplots", "kos", "survivors")
"""The parts of a side's victory points a game row may give (`vp_a_kills`...): HorrorClix's kills, victims and
subplots; HeroClix's knockouts and its own survivors' points."""


def victory_points(games: pd.DataFrame) -> dict[str, Any]:
    """Victory points per side: distribution of the total and the mean of each part the rows give."""
    result: dict[str, Any] = {}
    for side in ("a", "b"):
        parts = [part for part in VP_PARTS if f"vp_{side}_{part}" in games]
        result[side] = {
            "total": _describe(games[f"vp_{side}"]),
            **{part: float(games[f"vp_{side}_{part}"].mean()) for part in parts},
            "per_army_point": float((games[f"vp_{side}"] / games[f"points_{side}"]).mean()),
        }
    return result


def victim_rush(games: pd.DataFrame, rounds: int) -> dict[str, Any]:
    """How fast and how many victims each side slays: first slay, the curve by round, share, first-slay wins."""
    result: dict[str, Any] = {"curve_rounds": list(range(1, rounds + 1))}
    for side in ("a", "b"):
        first = pd.to_numeric(games[f"first_slay_{side}"], errors="coerce")
        counts = np.zeros((len(games), rounds), dtype=np.int16)  # exact, and an eighth of floats' memory
        for i, text in enumerate(games[f"slay_rounds_{side}"]):
            for r in (int(x) for x in str(text).split() if x):
                if r <= rounds:
                    counts[i, r - 1 :] += 1
        mean = counts.mean(axis=0) if len(games) else np.zeros(rounds)
        half = (
            st.t.ppf(0.975, max(1, len(games) - 1))
            * np.array([counts[:, r].std(ddof=1) for r in range(rounds)])  # a round at a time: 8 bytes a game
            / np.sqrt(max(1, len(games)))
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
    a_first = games["winner"][a_turn.notna() & ((a_turn < b_turn) | b_turn.isna())]
    b_first = games["winner"][b_turn.notna() & ((b_turn < a_turn) | a_turn.isna())]
    result["a"]["win_when_first"] = proportion(int((a_first == "A").sum()), len(a_first))
    result["b"]["win_when_first"] = proportion(int((b_first == "B").sum()), len(b_first))
    return result


def knockouts(games: pd.DataFrame, rounds: int) -> dict[str, Any]:
    """Who is KO'd when (HeroClix): per side, the opposing characters it KO'd per game, the round of its first KO,
    how often it KO'd none, the mean count of its KOs by each round (with 95% t intervals), how often it lost its
    whole force, and how often it won the games in which it scored the first KO."""
    result: dict[str, Any] = {"curve_rounds": list(range(1, rounds + 1))}
    n = len(games)
    for side in ("a", "b"):
        other = "b" if side == "a" else "a"
        first = pd.to_numeric(games[f"first_ko_{side}"], errors="coerce")
        counts = np.zeros((n, rounds), dtype=np.int16)
        for i, text in enumerate(games[f"ko_rounds_{side}"]):
            for r in (int(x) for x in str(text).split() if x.isdigit()):
                if r <= rounds:
                    counts[i, r - 1 :] += 1
        mean = counts.mean(axis=0) if n else np.zeros(rounds)
        half = (
            st.t.ppf(0.975, max(1, n - 1))
            * np.array([counts[:, r].std(ddof=1) for r in range(rounds)])
            / np.sqrt(max(1, n))
            if n > 1
            else np.zeros(rounds)
        )
        result[side] = {
            "kos_per_game": float(games[f"kos_{side}"].mean()) if n else None,
            "first_ko": _describe(first),
            "never_kos": float(first.isna().mean()) if n else None,
            "first_ko_histogram": {
                int(k): int(v) for k, v in first.dropna().astype(int).value_counts().sort_index().items()
            },
            "curve_mean": mean.round(4).tolist(),
            "curve_low": (mean - half).round(4).tolist(),
            "curve_high": (mean + half).round(4).tolist(),
            "eliminated_share": float((games[f"survivors_{side}"] == 0).mean()) if n else None,
            "lost_per_game": float(games[f"kos_{other}"].mean()) if n else None,
        }
    a_turn = pd.to_numeric(games["first_ko_turn_a"], errors="coerce")
    b_turn = pd.to_numeric(games["first_ko_turn_b"], errors="coerce")
    a_first = games["winner"][a_turn.notna() & ((a_turn < b_turn) | b_turn.isna())]
    b_first = games["winner"][b_turn.notna() & ((b_turn < a_turn) | a_turn.isna())]
    result["a"]["win_when_first"] = proportion(int((a_first == "A").sum()), len(a_first))
    result["b"]["win_when_first"] = proportion(int((b_first == "B").sum()), len(b_first))
    result["no_ko_games_share"] = float(((games["kos_a"] + games["kos_b"]) == 0).mean()) if n else None
    return result


COMBAT_COLUMNS = (
    "attacks",
    "object_attacks",
    "damage_dealt",
    "damage_taken",
    "pushes",
    "pushing_damage",
    "knockbacks",
    "knockback_damage",
    "healed",
)
"""A HeroClix side's per-game counts the summary averages (`combat_play`)."""


def combat_play(games: pd.DataFrame) -> dict[str, Any]:
    """How the AI played each side of a HeroClix duel: its idle turns (no action taken; Wilson interval over turns,
    which are not quite independent), and per game its attacks (those made with an object held: thrown or swung),
    the damage it dealt and took, its pushes and their damage, the knockbacks its characters suffered and their
    damage, the clicks healed; how often it made no attack, and how often neither side did."""
    n = len(games)
    result: dict[str, Any] = {}
    for side in ("a", "b"):
        per_game = {f"{c}_per_game": float(games[f"{c}_{side}"].mean()) for c in COMBAT_COLUMNS}
        result[side] = {
            "turns_per_game": float(games[f"turns_{side}"].mean()),
            "idle_share": proportion(int(games[f"idle_turns_{side}"].sum()), int(games[f"turns_{side}"].sum())),
            **per_game,
            "no_attack_share": float((games[f"attacks_{side}"] == 0).mean()),
        }
    result["no_attack_games_share"] = float(((games["attacks_a"] + games["attacks_b"]) == 0).mean()) if n else None
    return result


def first_player(games: pd.DataFrame) -> dict[str, Any]:
    """How often the side that took the first turn won (HC-SETUP-03), games as independent (Wilson)."""
    first_won = ((games["first"] == "A") & (games["winner"] == "A")) | (
        (games["first"] == "B") & (games["winner"] == "B")
    )
    return proportion(int(first_won.sum()), len(games))


def first_player_effects(games: pd.DataFrame) -> dict[str, Any]:
    """The first player's score (either army) over pairs, each army's score going first and second with the
    first-player effect (first − second), and A's score in seat 1 and seat 2 with the seat effect.

    An army's effect is the same number for both armies: a game A loses going first is one B wins going
    second. Where every pair has A first in exactly one game (a shared seed) the effect is paired.
    """
    games = games[["winner", "first", "pair", "seat_a"]]  # the subsets below copy these columns, not every one
    winner, first = games["winner"], games["first"]
    scores = (winner == first).astype(float) + 0.5 * (winner == "draw").astype(float)
    found = pair_interval(scores.groupby(games["pair"], sort=True).mean().to_numpy(dtype=float))
    result: dict[str, Any] = {k: found[k] for k in ("score", "low", "high", "pairs")} | {"games": len(games)}
    by_army = {}
    for side in ("A", "B"):
        went_first = first == side
        by_army[side.lower()] = {
            "first": pair_score(games[went_first], side),
            "second": pair_score(games[~went_first], side),
            "effect": score_difference(games[went_first], games[~went_first], side),
        }
    seat_1 = games["seat_a"] == 1
    result["by_army"] = by_army
    result["seat"] = {
        "seat_1": pair_score(games[seat_1], "A"),
        "seat_2": pair_score(games[~seat_1], "A"),
        "effect": score_difference(games[seat_1], games[~seat_1], "A"),
    }
    return result


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


def _idle_split(games: pd.DataFrame, side: str) -> dict[str, Any]:
    """A side's idle turns split into passed and no-legal-action shares, over the games whose rows count them (a
    row from before the split has no such column, or a blank cell)."""
    found: dict[str, Any] = {}
    for name, column in (("passed", "passed_turns"), ("no_action", "no_action_turns")):
        for suffix, turns in (("", "turns"), ("_with_victims", "turns_with_victims")):
            counted = games.get(f"{column}{suffix}_{side}")
            if counted is None:
                return {}
            known = counted.notna()
            found[f"{name}_share{suffix}"] = proportion(
                int(counted[known].sum()), int(games.loc[known, f"{turns}_{side}"].sum())
            )
    return found


def play_style(games: pd.DataFrame) -> dict[str, Any]:
    """How the AI played each side: idle turns, attacks by kind, attacks once no victim is left, rescues,
    plot twists by window, and how often a game (or a side) made no attack at all (issue 12).

    Idle shares pool every turn of every game (idle turns / turns); their Wilson interval treats turns as
    independent, which they are not quite (one game's turns share a board), so it is a little optimistic.
    An idle turn is split (issue 32): `passed_share`, a monster could act and none did (the AI's choice, the share
    the 15% goal is about), and `no_action_share`, no monster could legally act (action tokens, HC-TURN-03/13);
    both over all turns, so they add up to the idle share. Tables from before the split have neither key.
    """
    n = len(games)
    if not n or "turns_a" not in games:
        return {}
    if "attacks_close_a" not in games:  # HeroClix's rows: attacks, pushes, knockback, healing
        return combat_play(games)
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
            **_idle_split(games, side),
            "attacks_per_game": {**{k: float(v.mean()) for k, v in per_kind.items()}, "total": float(total.mean())},
            "attacks_after_victims_per_game": float(games[f"attacks_after_victims_{side}"].mean()),
            "rescues_per_game": float(games[f"rescued_{side}"].mean()),
            "plot_twists_per_window": {w: windows[w] / n for w in sorted(windows)},
            "no_attack_share": float((total == 0).mean()),
        }
    result["no_attack_games_share"] = float(((totals["a"] + totals["b"]) == 0).mean())
    return result


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    """A table's rows as dicts, an undefined number (a share of nothing) as None so the JSON stays valid."""
    return [
        {k: None if isinstance(v, float) and np.isnan(v) else v for k, v in row.items()}
        for row in table.to_dict(orient="records")
    ]


def summarize(games: pd.DataFrame, figures: pd.DataFrame, seed: int | None = None) -> dict[str, Any]:
    """Every statistic of the duel report, JSON-ready.

    `seed` seeds the figures' bootstrap; by default the run's master seed (0 when the table has none).
    """
    if "pair" not in games:
        games = games.assign(pair=(games["game"].to_numpy() if "game" in games else np.arange(len(games))) // 2)
    if seed is None:
        seed = int(games["master_seed"].iloc[0]) if len(games) and "master_seed" in games else 0
    rounds = int(games["turn_limit"].max()) if len(games) else 0
    found: dict[str, Any] = {
        "score": score(games),
        "outcome": outcome(games),
        "tie_break": tie_break(games),
        "victory_points": victory_points(games),
    }
    if "first_slay_a" in games:  # HorrorClix's victims
        found["victim_rush"] = victim_rush(games, rounds)
    if "first_ko_a" in games:  # HeroClix's knockouts
        found["knockouts"] = knockouts(games, rounds)
    return found | {
        "game_length": {"rounds": _describe(games["rounds"]), "timeouts": float(games["timeout"].mean())},
        "first_player": first_player_effects(games),
        "first_player_wins": first_player(games),
        "figures": _records(figure_efficiency(figures, games, seed=seed)),
        "play": play_style(games),
    }
