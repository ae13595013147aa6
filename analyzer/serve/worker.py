"""The worker process of a duel started from `clix serve` (issue 41, part 3): `clix duel`'s own `run_duel` with the
same library, runner, store and report, one job, its progress on stderr as `PROGRESS` lines the server reads, its
summary on stdout as `clix duel --json` prints it. SIGTERM (the page's cancel) stops it as Ctrl-C stops `clix duel`:
the finished games stay in the store and are reported.

    python -m clix.analyzer.serve.worker '{"army_a": ..., "army_b": ..., "games": 20, ...}'
"""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROGRESS = "clix-serve-progress"
"""The head of a progress line: `clix-serve-progress DONE`."""


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _progress() -> Callable[[int], None]:
    """A run's progress callback: it adds the games finished and writes the count so far as a `PROGRESS` line."""
    done = [0]

    def progress(games: int) -> None:
        done[0] += games
        sys.stderr.write(f"{PROGRESS} {done[0]}\n")
        sys.stderr.flush()

    return progress


def play(request: dict[str, Any]) -> int:
    """Play the duel (or, with `"kind": "row"`, the meta row) `request` names and return its command's exit code."""
    if request.get("kind") == "row":
        return play_row(request)
    from clix.analyzer.duel.command import run_duel
    from clix.analyzer.library.rulesets import MAPS, Argument, matchup_library
    from clix.analyzer.report.folder import Target
    from rich.console import Console

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    rosters = [Path(p) for p in request["rosters"]]
    library = matchup_library(
        rosters,
        [Argument("army A", request["army_a"]), Argument("army B", request["army_b"])],
        Argument("map", request.get("map"), MAPS),
        warn=lambda line: err.print(line, markup=False),
        ruleset=request.get("ruleset"),
    )
    army_a, army_b = library.id(request["army_a"]), library.id(request["army_b"])
    map_name = library.id(request.get("map") or "")
    return run_duel(
        library.data,
        library.layers,
        army_a,
        army_b,
        games=int(request["games"]),
        map_name=map_name,
        players=request.get("players"),
        seed=int(request.get("seed", 0)),
        jobs=1,
        turns=int(request.get("turns", 15)),
        out=Target(Path(request["out"]) / f"{army_a}-vs-{army_b}", new_run=True),
        as_json=True,
        console=Console(highlight=False, soft_wrap=True),
        target_ci=request.get("target_ci"),
        store=Path(request["store"]),
        ruleset=library.ruleset,
        progress=_progress(),
    )


def play_row(request: dict[str, Any]) -> int:
    """Play the meta row `request` names (`clix meta --row ARMY FIELD...`: the same cells, runner, store keys and
    report) and return `clix meta`'s exit code."""
    from clix.analyzer.library.load import load_library
    from clix.analyzer.library.rulesets import MAPS, Argument, analysis_library
    from clix.analyzer.meta.command import MetaOptions
    from clix.analyzer.meta.field import field_styles
    from clix.analyzer.meta.row import run_meta_row
    from clix.analyzer.report.folder import Target
    from clix.engine.core.ruleset import DEFAULT_RULESET
    from rich.console import Console

    ruleset = request.get("ruleset") or DEFAULT_RULESET
    field = [request["army"], *request["field"]]
    rosters = [Path(p) for p in request["rosters"]]
    if ruleset == DEFAULT_RULESET:
        library = load_library(rosters, armies=field, maps=request["maps"])
        data, layers, maps = library.roster, library.layers, list(request["maps"]) or sorted(library.roster.maps)
    else:  # HeroClix forces: the library `clix meta --row` reads for them, through the ruleset's kit
        other = analysis_library(
            rosters, ruleset, [Argument("army", a) for a in field], [Argument("maps", m, MAPS) for m in request["maps"]]
        )
        data, layers, maps = other.data, other.layers, list(request["maps"]) or sorted(other.kit.maps(other.data))
    options = MetaOptions(
        games=int(request["games"]),
        seed=int(request.get("seed", 0)),
        jobs=1,
        turns=int(request.get("turns", 15)),
        target_ci=request.get("target_ci"),
        store=Path(request["store"]),
        ruleset=ruleset,
    )
    return run_meta_row(
        data,
        layers,
        field,
        maps,
        field_styles(request.get("players"), ruleset),
        options,
        out=Target(Path(request["out"]) / f"{request['army']}-vs-field", new_run=True),
        as_json=True,
        console=Console(highlight=False, soft_wrap=True),
        progress=_progress(),
    )


def main() -> None:
    """Run the duel of argv[1] (JSON); a mistake is one `clix: error:` line on stderr and exit code 2."""
    from clix.analyzer.common.errors import ClixError

    signal.signal(signal.SIGTERM, _terminate)
    try:
        code = play(json.loads(sys.argv[1]))
    except ClixError as exc:
        sys.stderr.write(f"clix: error: {exc}\n")
        code = 2
    except KeyboardInterrupt:
        sys.stderr.write("clix: interrupted\n")
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    main()
