"""`clix value`'s numbers checked before any game (by the command line and the Python API alike): the games per
matchup and per holdout pairing, the armies, opponents, resamples and holdout, and all the design's games within a
run's limit. Light to import: the command line's help shows the limits."""

from __future__ import annotations

from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError

MIN_RESAMPLES = 10
MAX_RESAMPLES = 10_000
"""`clix value --resamples`: the bootstrap refits the model once per resample; 10,000 give intervals to a tenth of a
point, more only cost time (as `clix meta --resamples`)."""
MAX_HOLDOUT = 200
"""`clix value --holdout` at most: the check's armies play around a ring, one pairing per army."""
HOLDOUT_GAMES = 100
"""`clix value --holdout-games` by default: a pairing measured to about ±7 points, so the check's miss is mostly
the model's (at 40 games measurement noise alone missed by 6 points)."""


def value_numbers(
    *,
    budget: int,
    armies: int,
    opponents: int,
    games: int | None,
    cells: int,
    resamples: int,
    holdout: int,
    holdout_games: int | None,
    predict: bool,
) -> tuple[int, int]:
    """The games per matchup (default 2) and per holdout pairing (default: about a fifth of the design's games
    spread over the holdout, 2 to HOLDOUT_GAMES), every number checked (a ClixError naming the option if not);
    `cells`, the maps times the player styles; `predict`, whether a prediction is asked (it needs the holdout)."""
    per_matchup = checks.games(2 if games is None else games, what="per matchup")
    checks.budget(budget)
    if armies < 3:
        raise ClixError(f"--armies takes 3 or more (got {armies})")
    if opponents < 1:
        raise ClixError(f"--opponents takes 1 or more (got {opponents})")
    if not MIN_RESAMPLES <= resamples <= MAX_RESAMPLES:
        raise ClixError(
            f"--resamples takes {MIN_RESAMPLES} to {MAX_RESAMPLES:,} bootstrap resamples (got {resamples:,})"
        )
    if holdout == 1 or not 0 <= holdout <= MAX_HOLDOUT:
        raise ClixError(f"--holdout takes 0 (no check) or 2 to {MAX_HOLDOUT} armies (got {holdout:,})")
    if holdout_games is None:  # at most about a fifth of the design's games (ring and handicap matchups), 2 to 100
        fifth = armies * ((opponents + 1) // 2 + 1) * per_matchup // (5 * max(holdout, 1))
        holdout_games = min(HOLDOUT_GAMES, max(2, fifth))
    elif holdout:
        holdout_games = checks.games(holdout_games, "--holdout-games", what="per holdout pairing")
    checks.cells_games(per_matchup, armies * ((opponents + 1) // 2) * cells, what="matchups", one="matchup")
    if predict and holdout == 0:
        raise ClixError("--predict takes its model error from the holdout: leave out --holdout 0")
    return per_matchup, holdout_games
