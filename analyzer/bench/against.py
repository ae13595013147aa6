"""`clix bench --against CHECKOUT`: this build and another checkout of clix playing the reference duel side by
side in one run, so that two builds are compared on the same minutes of a machine whose speed drifts.

Each build plays in worker processes of its own (the other checkout first on the worker's search path), both
on this library's roster files, so that both play the same games. Timed: rounds of a batch of games each,
the two builds taking turns and alternating which goes first, each batch in a new worker process and its
processor time read there; the ratio of the two builds' speeds is taken round by round (neighbours in time) and summarised with
a 95% interval. Counted (`--instructions`): the instructions each build executes for the games, under
valgrind's callgrind, which do not drift at all: the count of `warm-up + N` games subtracted from that of
`warm-up + 2N` leaves N games without the interpreter's start-up.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clix.analyzer.bench.command import spread
from clix.analyzer.common.errors import ClixError
from rich.console import Console
from scipy import stats

WORKER = r"""
import hashlib, json, sys, time
import clix
try:
    from clix.analyzer.play.runner import Matchup, play_one
except ImportError:  # a checkout from before the analyzer's packages (issue 33)
    from clix.analyzer.runner import Matchup, play_one
from clix.engine import compiled

army_a, army_b, map_name, warm_up, count, layers = sys.argv[1:7]
library = tuple(__import__("pathlib").Path(p) for p in json.loads(layers))
if len(sys.argv) > 8:  # another ruleset's reference duel, and the style both sides play (or each side's)
    style_b = sys.argv[9] if len(sys.argv) > 9 else sys.argv[8]
    matchup = Matchup(library, army_a, army_b, map_name, sys.argv[8], style_b, ruleset=sys.argv[7])
else:
    matchup = Matchup(library, army_a, army_b, map_name)
OUTCOME = ("winner", "vp_a", "vp_b", "rounds", "victims_a", "victims_b", "end_reason")


def batch(seed, games):
    rows = [play_one(matchup, seed, index)[0] for index in range(games)]
    outcomes = [[row.get(key) for key in OUTCOME] for row in rows]
    return hashlib.sha256(json.dumps(outcomes).encode()).hexdigest()


for index in range(int(warm_up)):
    play_one(matchup, 0, index)
if int(count):  # counted under valgrind: play, report and stop
    print(json.dumps({"digest": batch(1, int(count))}), flush=True)
    raise SystemExit(0)
print(json.dumps({"engine": compiled.status, "clix": clix.__file__}), flush=True)
for line in sys.stdin:
    seed, games = map(int, line.split())
    cpu, wall = time.process_time(), time.perf_counter()
    digest = batch(seed, games)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(json.dumps({"cpu": cpu, "wall": wall, "digest": digest}), flush=True)
"""
"""What a worker runs: only what every clix checkout since the `clix/` package root has (`Matchup` and `play_one`
from the runner, wherever its checkout keeps it, and `compiled.status`), so that older builds can be measured."""

WARM_UP_GAMES = 10
"""Games each worker plays before its timed batch (the per-map caches fill as games are played)."""

SEARCH_WARM_UP_GAMES = 1
"""Games each worker plays before timing search games (each costs seconds; the caches fill in the first)."""


def warm_up_games(reference: Sequence[str]) -> int:
    """The games a timing worker plays first: fewer for a duel of two styles (the search player's)."""
    return SEARCH_WARM_UP_GAMES if len(reference) > 5 else WARM_UP_GAMES


def duel_text(reference: Sequence[str]) -> str:
    """How the report names the games played: the reference duel, and its players when not the default ones."""
    army_a, army_b, map_name = reference[:3]
    players = f", {reference[4]} vs {reference[5]}" if len(reference) > 5 else ""
    return f"the reference duel ({army_a} vs {army_b} on {map_name}{players})"


COUNT_WARM_UP = 1
"""Games played before the counted ones under valgrind (the per-map caches of the first game)."""


@dataclass
class Build:
    """One side of the comparison: a clix checkout (None: this build) and what its rounds measured."""

    label: str
    checkout: Path | None
    engine: str = ""
    rates: list[float] = field(default_factory=list)
    """Games per second of processor time, round by round."""
    wall_rates: list[float] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)


def checkout_path(value: Path) -> Path:
    """`--against`: a folder holding a clix checkout (its `clix/` package root and `engine/`)."""
    folder = value.expanduser().resolve()
    if not folder.is_dir():
        raise ClixError(
            f"--against {value}: no such folder (give a clix checkout, e.g. `git worktree add ../base main`)"
        )
    if not (folder / "clix" / "__init__.py").is_file() or not (
        (folder / "engine" / "__init__.py").is_file() or (folder / "clix" / "engine" / "__init__.py").is_file()
    ):
        raise ClixError(
            f"--against {value}: not a clix checkout (no clix/__init__.py and engine/ in it); "
            "make one with `git worktree add ../base REF`"
        )
    return folder


def worker_environment(checkout: Path | None, counting: bool = False) -> dict[str, str]:
    """The environment of a worker: the other checkout first on the search path; when counting, a fixed hash
    seed and a single BLAS thread (an idle BLAS thread pool spinning would be counted too)."""
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(checkout), env.get("PYTHONPATH", "")) if p)
    if counting:
        env["PYTHONHASHSEED"] = "0"
        env["OPENBLAS_NUM_THREADS"] = "1"
    return env


def worker_command(reference: Sequence[str], library: Sequence[Path], warm_up: int, count: int) -> list[str]:
    """The worker's command line: the reference duel's armies and map (then, for a ruleset other than HorrorClix,
    the ruleset and the style both sides play: `command.reference_duel`; or the ruleset and each side's style:
    `command.search_duel`)."""
    army_a, army_b, map_name = reference[:3]
    layers = json.dumps([str(Path(p).resolve()) for p in library])
    return [sys.executable, "-c", WORKER, army_a, army_b, map_name, str(warm_up), str(count), layers, *reference[3:]]


class Worker:
    """A build's worker process, playing batches of games on request."""

    def __init__(self, build: Build, reference: Sequence[str], library: Sequence[Path]) -> None:
        self.build = build
        self.process = subprocess.Popen(
            worker_command(reference, library, warm_up_games(reference), 0),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=worker_environment(build.checkout),
            cwd=build.checkout or Path.cwd(),
        )
        hello = self._read()
        build.engine = hello["engine"]
        if build.checkout is not None and not Path(hello["clix"]).resolve().is_relative_to(build.checkout):
            self.close()
            raise ClixError(
                f"--against {build.label}: the worker imported clix from {hello['clix']}, not from that checkout"
            )

    def play(self, seed: int, games: int) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{seed} {games}\n")
        self.process.stdin.flush()
        return self._read()

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise ClixError(f"{self.build.label}: its worker stopped: {_last_line(self._stderr())}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def _stderr(self) -> str:
        self.close()
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def ratio_interval(this: Sequence[float], other: Sequence[float]) -> tuple[float, float, float]:
    """This build's speed over the other's: the geometric mean of the rounds' ratios, with a 95% t interval
    on their logarithms (nan bounds with a single round)."""
    logs = [math.log(a / b) for a, b in zip(this, other, strict=True)]
    centre = statistics.fmean(logs)
    if len(logs) < 2:
        return math.exp(centre), math.nan, math.nan
    half = stats.t.ppf(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(centre), math.exp(centre - half), math.exp(centre + half)


def run_timed(
    other: Path,
    library: Sequence[Path],
    reference: Sequence[str],
    games: int,
    rounds: int,
    console: Console,
) -> int:
    """Time the reference duel on this build and on `other` in alternating rounds; print both speeds and
    their ratio; return the exit code."""
    builds = [Build("this build", None), Build(str(other), other)]
    interrupted = False
    worker: Worker | None = None
    try:
        for round_index in range(rounds):
            for build in builds if round_index % 2 == 0 else builds[::-1]:
                # A new process each round: a process's own luck (its hash seed, where its memory lies) moved
                # one build's speed by up to 8% for a whole run, which rounds within one process cannot show.
                worker = Worker(build, reference, library)
                result = worker.play(round_index + 1, games)
                worker.close()
                build.rates.append(games / result["cpu"])
                build.wall_rates.append(games / result["wall"])
                build.digests.append(result["digest"])
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if worker is not None:
            worker.close()
    finished = min(len(build.rates) for build in builds)
    if not finished:
        console.print("interrupted before the first round finished: nothing to report", markup=False)
        return 130
    for build in builds:
        del build.rates[finished:], build.wall_rates[finished:], build.digests[finished:]
    _print_timed(builds, reference, games, finished, console)
    return 130 if interrupted else 0


def _print_timed(builds: list[Build], reference: Sequence[str], games: int, rounds: int, console: Console) -> None:
    this, other = builds
    console.print(
        f"side by side: this build and {other.label}, {duel_text(reference)}, "
        f"{games} games a round, {rounds} round{'s' if rounds > 1 else ''}, the builds taking turns "
        "(which goes first alternating), each batch in a new process",
        markup=False,
    )
    width = max(len(b.label) for b in builds)
    for build in builds:
        console.print(
            f"  {build.label:<{width}}  {build.engine}: {spread(build.rates)} games/s of processor time, "
            f"{spread(build.wall_rates)} by the clock",
            markup=False,
        )
    estimate, low, high = ratio_interval(this.rates, other.rates)
    interval = "" if math.isnan(low) else f" [{low:.2f}-{high:.2f}]"
    console.print(
        f"  this build plays {estimate:.2f}{interval} of {other.label}'s games/s (processor time; geometric mean "
        "of the rounds' ratios, 95% interval)",
        markup=False,
    )
    differing = sum(a != b for a, b in zip(this.digests, other.digests, strict=True))
    if differing:
        console.print(
            f"  same games: no, the outcomes differ in {differing} of {rounds} rounds (a change of play between "
            "the builds, or different roster data)",
            markup=False,
        )
    else:
        console.print(f"  same games: yes, outcome for outcome ({games * rounds:,} games each)", markup=False)


# --- counted ----------------------------------------------------------------------------------------------

COLLECTED = re.compile(r"Collected\s*:\s*([\d,]+)")


def count_instructions(
    checkout: Path | None, library: Sequence[Path], reference: Sequence[str], games: int
) -> tuple[int, str]:
    """Instructions executed by `games` games of the reference duel on a build, under callgrind: a run of
    COUNT_WARM_UP + `games` games subtracted from one of COUNT_WARM_UP + 2 x `games` (the same first games),
    and the digest of the later run's games."""
    counts: list[int] = []
    digest = ""
    for count in (games, 2 * games):
        command = [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            *worker_command(reference, library, COUNT_WARM_UP, count),
        ]
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=worker_environment(checkout, counting=True),
            cwd=checkout or Path.cwd(),
            check=False,
        )
        found = COLLECTED.search(done.stderr)
        if done.returncode != 0 or found is None:
            label = checkout or "this build"
            raise ClixError(f"{label}: the counted run failed: {_last_line(done.stderr)}")
        counts.append(int(found.group(1).replace(",", "")))
        digest = json.loads(done.stdout.strip().splitlines()[-1])["digest"]
    return counts[1] - counts[0], digest


def run_counted(other: Path, library: Sequence[Path], reference: Sequence[str], games: int, console: Console) -> int:
    """Count the instructions of the reference duel's games on this build and on `other` (both at once, a
    core each); print both and their ratio; return the exit code."""
    if shutil.which("valgrind") is None:
        raise ClixError("--instructions counts with valgrind, which is not installed (apt-get install valgrind)")
    labels = ("this build", str(other))
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(count_instructions, c, library, reference, games) for c in (None, other)]
        (this_count, this_digest), (other_count, other_digest) = (f.result() for f in futures)
    engine = "pure Python" if os.environ.get("CLIX_PURE") else "each build's engine as built"
    console.print(
        f"counted side by side (valgrind callgrind): {games} games of {duel_text(reference)} "
        f"after {COUNT_WARM_UP} warm-up game, {engine}",
        markup=False,
    )
    width = max(len(label) for label in labels)
    for label, count in zip(labels, (this_count, other_count), strict=True):
        console.print(f"  {label:<{width}}  {count / games / 1e6:,.2f} million instructions a game", markup=False)
    console.print(
        f"  this build plays {other_count / this_count:.3f} of {other}'s games per instruction",
        markup=False,
    )
    same = "yes, outcome for outcome" if this_digest == other_digest else "no (a change of play, or other data)"
    console.print(f"  same games: {same}", markup=False)
    return 0
