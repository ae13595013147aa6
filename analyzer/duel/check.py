"""`clix duel --check-with search:N`: does a stronger, slower player reach the same verdict? (issue 17)

The first games of the duel (same master seed, so the same seeds, armies, map and seats) are played again with
the checking style on both sides, and the two verdicts compared: which army is favoured (the score's 95%
interval over seat-swapped pairs excludes 50%, on one side), and the intervals themselves. A verdict the check
does not share is a warning in the duel's summary and report: the fast players' answer rests on their play.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.runner import Matchup, player_factory, run_matchup
from clix.analyzer.stats.scoring import paired_score
from clix.engine.core.ruleset import DEFAULT_RULESET

if TYPE_CHECKING:
    import pandas as pd

CHECK_GAMES = 100
"""Games the check replays at most (the duel's first ones): a 100-game check of a 100-point duel takes minutes."""


def check_style(spec: str | None, ruleset: str = DEFAULT_RULESET) -> str | None:
    """The checking style of `--check-with` (None when not asked), checked before any game: one the ruleset's kit
    has a player for."""
    if spec is None:
        return None
    style = spec.strip()
    if not style:
        raise ClixError("--check-with: name a player style, as search:200")
    try:
        player_factory(style, ruleset)  # an unknown style or a bad budget is a one-line error
    except ClixError as exc:
        raise ClixError(str(exc).replace("--players:", "--check-with:", 1)) from None
    return style


def favoured(score: dict[str, Any]) -> str:
    """'a' or 'b' when the score's interval excludes 50% on that side, else 'none'."""
    if score.get("score") is None:
        return "none"
    if score["low"] > 0.5:
        return "a"
    if score["high"] < 0.5:
        return "b"
    return "none"


def run_check(
    matchup: Matchup,
    duel_games: pd.DataFrame,
    style: str,
    seed: int,
    jobs: int | None,
    games: int = CHECK_GAMES,
    progress: Any = None,
) -> dict[str, Any]:
    """Play the duel's first `games` games (at most, in pairs) with `style` on both sides and compare verdicts:
    {style, games, score, favoured, fast: {score over the same games, favoured (whole duel)}, agrees,
    warning}. Failed or interrupted check games shrink the sample; none at all is a ClixError."""
    count = min(games, len(duel_games))
    count -= count % 2
    if count < 2:
        raise ClixError("--check-with: the duel has no seat-swapped pair to check")
    checked = replace(matchup, style_a=style, style_b=style)
    played = run_matchup(checked, count, seed, jobs, progress=progress)
    if not played.games:
        raise ClixError("--check-with: no check game finished")
    frame = played.games_frame()
    score = paired_score(frame)
    fast_all = paired_score(duel_games)
    same = duel_games[duel_games["game"].isin(frame["game"])] if "game" in duel_games else duel_games.head(count)
    fast_same = paired_score(same)
    mine, theirs = favoured(score), favoured(fast_all)
    agrees = mine == theirs
    result: dict[str, Any] = {
        "style": style,
        "games": len(frame),
        "score": score,
        "favoured": mine,
        "fast": {"score": fast_all, "same_games": fast_same, "favoured": theirs},
        "agrees": agrees,
        "warning": None,
        "interrupted": played.interrupted,
        "failed": len(played.failed),
    }
    if not agrees:
        result["warning"] = _warning(style, mine, theirs)
    return result


def _side(side: str) -> str:
    return {"a": "A is favoured", "b": "B is favoured"}.get(side, "neither army is shown to be favoured")


def _warning(style: str, mine: str, theirs: str) -> str:
    return (
        f"the verdict depends on the players: with {style} on both sides {_side(mine)}, with the duel's players "
        f"{_side(theirs)}; treat the duel's verdict as the fast players' only"
    )


def summary_lines(check: dict[str, Any], names: dict[str, str]) -> list[str]:
    """The check's lines of the duel's text summary (the warning first when the verdicts differ)."""

    def pct(score: dict[str, Any]) -> str:
        if score.get("score") is None:
            return "–"
        return f"{100 * score['score']:.1f}% [{100 * score['low']:.1f}–{100 * score['high']:.1f}]"

    lines = []
    if check["warning"]:
        lines.append(f"  warning: {check['warning']}")
    verdict = "agrees" if check["agrees"] else "DISAGREES"
    lines.append(
        f"  check with {check['style']} on both sides ({check['games']} games): {names['a']} (A) scores "
        f"{pct(check['score'])} ({_side(check['favoured'])}); the duel's players {pct(check['fast']['same_games'])} "
        f"on the same games, {pct(check['fast']['score'])} on all: the verdict {verdict}"
    )
    return lines
