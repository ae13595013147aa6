"""`clix build`: the best legal army for a budget against a field, by racing candidates.

Candidates are maximal legal builds (nothing more fits) drawn from the legal space under the constraints
(--include, --exclude, --cabal, --class): every one when the space is small enough to list, else random
fills. With `clix value`'s estimates (--values value.json) half of them are the builds of highest predicted
value (a knapsack over the figures' values) and half are drawn at random, so the search both trusts and
checks the model.

Racing is successive halving with common random numbers: every candidate plays the same seeded games (a few
seat-swapped pairs against each field army on each map), the best third go on and play three times as many
(continuing the same games), until a few finalists are left. The finalists, and the field's own armies for
comparison, are then measured on fresh seeds (so the winner's estimate is not inflated by its selection) at
the precision asked; builds whose paired difference from the best includes 0 are shown as sidegrades. The
measured builds are named by rank on those seeds (build-01 the best), and the headline says whether build-01
beats every field army head to head, beats the field's best army by a paired difference, or names the field
army no build was found to beat.

The objective ranks the builds: `field` by the weighted mean score against the field, `maximin` by the worst
head-to-head score over the field's armies, `auto` (the default) by maximin when the field has a clearly dominant
army (its score against the rest of the field has its interval above 60%, in the first stage's reference games
of the field's armies against each other or in the final games) and by field otherwise: against an equal-weight
field with one dominant army, the mean rewards farming the weak armies. The headline says which and why.

A field is a list of armies with weights: army ids, files or folders (weight 1 each), or a field.json
{"source": ..., "budget": ..., "field": [{"army": id or file, "weight": w}, ...]} such as `clix meta` writes
for its Nash mixture. A candidate's score is the weighted mean of its scores against the field's armies.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clix.analyzer.build.candidates import Constraints, read_values
from clix.analyzer.build.field import field_entries, resolve_field
from clix.analyzer.build.race import REFERENCE_GAMES, BuildResult, Search, search_builds
from clix.analyzer.build.report import build_lines, document, write_build
from clix.analyzer.build.summary import OBJECTIVES
from clix.analyzer.common.checks import MAX_GAMES
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.jsonout import print_json
from clix.analyzer.common.text import print_lines, wrote
from clix.analyzer.play.result import ended_early, report_line, run_exit_code
from clix.analyzer.play.runner import PLAYER_STYLES, kit
from clix.analyzer.play.store import Store
from clix.analyzer.value.pieces import pieces_of
from clix.engine import compiled
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from rich.console import Console

__all__ = ["Constraints", "Search", "field_entries", "resolve_field", "run_build"]
"""What `clix build` (analyzer/cli/__init__.py) takes from here; the field, the candidates, the race, the measured builds
and the outputs live in build_field, build_candidates, build_race, build_summary and build_report."""


MAX_CANDIDATES = 5_000
"""`--candidates` at most: 5,000 builds against one army on one map play 20,000 games in the first stage alone
(at --first-games 4); the sample library's whole 100-point space holds about 2,100 maximal builds."""
MAX_ETA = 10
"""`--eta` at most: keeping less than a tenth of the candidates at each stage is no longer a race."""
MAX_FINALISTS = 50
"""`--finalists` at most (each is measured with --games games per field army and map)."""


# --- the command ----------------------------------------------------------------------------------------


def planned_games(search: Search, field: int) -> int:
    """The most games the race and the final measurement can play against a field of `field` armies (fewer
    when the legal space is smaller than --candidates, or games are in the store)."""
    per = field * len(search.maps)
    alive, done, games = search.candidates, 0, search.first + search.first % 2
    total = 0
    while True:
        total += alive * (games - done) * per
        keep = math.ceil(alive / search.eta)
        if keep <= search.finalists:
            break
        alive, done, games = keep, games, games * search.eta
    total += (min(alive, search.finalists) + field) * (search.final + search.final % 2) * per
    if search.objective == "auto" and field > 1:  # the first stage's reference games: the field against itself
        reference = max(REFERENCE_GAMES, search.first)
        total += field * (field - 1) * (reference + reference % 2) * len(search.maps)
    return total


def check_search(search: Search, field: int) -> None:
    """The race's numbers within their bounds, and all its games within a run's MAX_GAMES (ClixError if not)."""
    if not 1 <= search.candidates <= MAX_CANDIDATES:
        raise ClixError(f"--candidates takes 1 to {MAX_CANDIDATES:,} builds to race (got {search.candidates:,})")
    if not 2 <= search.eta <= MAX_ETA:
        raise ClixError(
            f"--eta takes 2 to {MAX_ETA} (got {search.eta:,}): the share of candidates kept at each stage is 1/eta"
        )
    if not 1 <= search.finalists <= MAX_FINALISTS:
        raise ClixError(f"--finalists takes 1 to {MAX_FINALISTS} (got {search.finalists:,})")
    total = planned_games(search, field)
    if total > MAX_GAMES:
        raise ClixError(
            f"--candidates {search.candidates:,} with --first-games {search.first:,}, --eta {search.eta} and "
            f"--games {search.final:,} against {field} field armies on {len(search.maps)} maps is up to "
            f"{total:,} games; a run plays at most {MAX_GAMES:,}: race fewer candidates or play fewer games"
        )


def check_build(search: Search, field: int, ruleset: str = DEFAULT_RULESET) -> None:
    """The objective, the player style (of `ruleset`) and the race's numbers against a field of `field` armies (a
    ClixError naming the option if one is wrong)."""
    if search.objective not in OBJECTIVES:
        raise ClixError(f"--objective takes {', '.join(OBJECTIVES)} (got {search.objective!r})")
    known = PLAYER_STYLES if ruleset == DEFAULT_RULESET else kit(ruleset).styles
    if search.style not in known:
        raise ClixError("--players: " + did_you_mean("player style", search.style, known))
    check_search(search, field)


def finish_build(
    result: BuildResult,
    *,
    field_source: str,
    jobs: int | None,
    store: Path | None,
    values: Path | str | None,
    ruleset: str = DEFAULT_RULESET,
) -> None:
    """Add how the race was run to `result`'s settings (`values`: where the estimates came from, if any)."""
    result.settings |= {
        "field_source": field_source,
        "ruleset": ruleset_named(ruleset).version,
        "engine": compiled.status,
        "jobs": jobs or os.cpu_count(),
        "seconds": round(result.seconds, 1),
        "played": result.played,
        "from_store": result.from_store,
        "store": None if store is None else str(store),
        "values": None if values is None else str(values),
        "interrupted": result.interrupted,
        "failed_games": result.failed,
    }
    if ruleset != DEFAULT_RULESET:
        result.settings["army_kind"] = kit(ruleset).army_kind


def run_build(
    roster: Any,
    library: Path | tuple[Path, ...],
    constraints: Constraints,
    field_armies: list[tuple[str, float]],
    search: Search,
    *,
    field_source: str,
    jobs: int | None,
    out: Any,
    store: Path | None,
    values: Path | None,
    as_json: bool,
    console: Console,
    pdf: bool = False,
) -> int:
    """`clix build`: race, print the top builds (or JSON) and write build.json, builds.csv, games.csv,
    build.html (build.pdf with `pdf`) and each finalist's army file to `out`; return the exit code. `roster`: a
    ruleset's library data or its pieces (analyzer/value/pieces.py): a HeroClix `Library` builds forces."""
    from clix.analyzer.common.progress import progress_bar
    from clix.analyzer.duel.command import pdf_from
    from clix.analyzer.report.folder import Interrupted, claim_output

    ruleset = pieces_of(roster).ruleset
    check_build(search, len(field_armies), ruleset)
    estimates = read_values(values) if values is not None else None
    if pdf:
        from clix.analyzer.report.duel import check_pdf

        check_pdf()
    opened = Store.open(store) if store is not None else None
    bars: list[Any] = []

    def progress(label: str, total: int) -> Callable[[int], None] | None:
        if as_json:
            return None
        while bars:  # one live display at a time: the stage before is done
            bars.pop().__exit__(None, None, None)
        bar = progress_bar(console, label, total, False)
        advance = bar.__enter__()
        bars.append(bar)
        return advance

    with claim_output(out) as folder:
        try:
            result = search_builds(
                roster,
                library,
                constraints,
                field_armies,
                search,
                jobs=jobs,
                store=opened,
                values=estimates,
                progress=progress,
            )
        finally:
            for bar in reversed(bars):
                bar.__exit__(None, None, None)
        ended_early(len(result.games), "games", result.interrupted, result.stopped, len(result.failed), result.crashed)
        if result.games.empty and result.crashed and not result.interrupted:
            report_line("stopped at a game that crashed before the final measurement: nothing to report")
            return run_exit_code(False, True, True)
        if result.games.empty:
            raise Interrupted(
                "interrupted before the final measurement finished; nothing to report (the games played are kept in "
                "the store: the same command plays only the rest)"
                if store is not None
                else "interrupted before the final measurement finished; nothing to report"
            )
        finish_build(result, field_source=field_source, jobs=jobs, store=store, values=values, ruleset=ruleset)
        with folder.staged() as staging:
            written = write_build(staging, result, False)
            if pdf:
                written["pdf"] = pdf_from(written["report"], staging / "build.pdf")
        written = {k: folder.final(p) for k, p in written.items()}
    if as_json:
        payload = document(result) | {"outputs": {k: str(v) for k, v in written.items()}}
        print_json(payload)
    else:
        print_lines(console, build_lines(result))
        print_lines(console, [wrote(written.values())])
    return run_exit_code(result.interrupted, bool(result.failed), result.stopped)
