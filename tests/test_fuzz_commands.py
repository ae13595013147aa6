"""Broken files a command needs (issue 31, parts 4 and 7): every command that plays resolves what it needs
before the first game, so a broken file the sample army uses stops it in one line naming that file (exit 2).

Each case copies the sample library to a temporary folder (and a second layer, `mine/`, holding an override
of one of the army's figures), breaks one file the army `butcher-shop` uses (or makes `figures/`
unreadable), and runs a command that would play that army with every game entry point patched to fail the
test. Every fault meets `clix duel`; each other command meets three of them.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from clix.analyzer.library.load import load_library
from clix.analyzer.play import pool, runner
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "rosters" / "horrorclix"
ARMY = "butcher-shop"  # meatlocker-butcher-v and crimson-thrall-e; its crypt and victims in the list files
FIGURE = "figures/meatlocker-butcher-v.yaml"
TARGETS = {
    "figure": f"lib/{FIGURE}",
    "plot_twists": "lib/plot_twists.yaml",
    "victims": "lib/victims.yaml",
    "army": f"lib/armies/{ARMY}.yaml",
    "layer": "mine/meatlocker-butcher-v.yaml",  # the second --rosters layer's override of the army's figure
}
FOLDER = "lib/figures"
VALIDATION = {  # an edit each file's model refuses, on an item the army uses
    "figure": ("points: 60", "points: lots"),
    "layer": ("points: 60", "points: lots"),
    "plot_twists": ("windows: [slaying]", "windows: 7"),  # the first card is Trip, in the army's crypt
    "victims": ('{name: "Jock", speed: 6', '{name: "Jock", speed: fast'),
    "army": ("build_total: 100", "build_total: lots"),
}
PLAY = ["--games", "2", "--turns", "2", "--jobs", "1"]
SMALL_BUILD = ["--first-games", "2", "--final-games", "2", "--turns", "2", "--jobs", "1"]
COMMANDS = {
    "duel": ["duel", ARMY, "firing-line", *PLAY, "--out", "out"],
    "meta": ["meta", ARMY, "firing-line", "--maps", "graveyard", *PLAY, "--out", "out"],
    "value-swap": ["value", "--swap", "crimson-thrall-e", "--in", ARMY, "--against", "firing-line", *PLAY],
    "build": ["build", "--field", f"{ARMY},firing-line", "--candidates", "3", *SMALL_BUILD, "--out", "out"],
    "ladder": ["ladder", "--players", "random,tuned", "--armies", ARMY, "--maps", "graveyard", *PLAY, "--out", "out"],
    "replay": ["replay", ARMY, "firing-line", "--turns", "2"],
    "sweep": ["duel", ARMY, "firing-line", "--players", "sweep", "--games", "2", "--turns", "2", "--out", "out"],
    # the commands that pick their armies from the library when none is named (every 100-point army, every army)
    "meta-budget": ["meta", "--budget", "100", "--maps", "graveyard", *PLAY, "--out", "out"],
    "value-swap-field": ["value", "--swap", "cinder-magus-v", "--in", "firing-line", *PLAY],
    "build-library-field": ["build", "--budget", "100", "--candidates", "3", *SMALL_BUILD, "--out", "out"],
    "ladder-every-army": ["ladder", "--players", "random,tuned", "--maps", "graveyard", *PLAY, "--out", "out"],
}


# --- the faults ----------------------------------------------------------------------------------------


def _refuse(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Make `path` unreadable: mode 000, or (as root, who reads it anyway) opening or listing it fails."""
    path.chmod(0)
    if not os.access(path, os.R_OK):
        return
    real = path.resolve()

    def refused(name: object) -> bool:
        try:
            return Path(os.fsdecode(name)).resolve() == real  # type: ignore[arg-type]
        except (OSError, RuntimeError, TypeError):
            return False

    def denied(name: object) -> PermissionError:
        return PermissionError(13, "Permission denied", str(name))

    if path.is_dir():
        scandir, listdir = os.scandir, os.listdir

        def fake_scandir(name: object = ".") -> object:
            if refused(name):
                raise denied(name)
            return scandir(name)  # type: ignore[arg-type]

        def fake_listdir(name: object = ".") -> list[str]:
            if refused(name):
                raise denied(name)
            return listdir(name)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "scandir", fake_scandir)
        monkeypatch.setattr(os, "listdir", fake_listdir)
    else:
        open_path = Path.open

        def fake_open(self: Path, *args: object, **kwargs: object) -> object:
            if refused(self):
                raise denied(self)
            return open_path(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Path, "open", fake_open)


def _bytes(edit: Callable[[bytes], bytes]) -> Callable[[Path, str, pytest.MonkeyPatch], None]:
    return lambda path, target, monkeypatch: path.write_bytes(edit(path.read_bytes()))


def _append(extra: str) -> Callable[[Path, str, pytest.MonkeyPatch], None]:
    return _bytes(lambda raw: raw.rstrip(b"\n") + b"\n" + extra.encode("utf-8"))


def _validation(path: Path, target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = VALIDATION[target]
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


FAULTS: dict[str, Callable[[Path, str, pytest.MonkeyPatch], None]] = {
    "bad-utf8": _bytes(lambda raw: raw.replace(b"\n", b"\n# caf\xe9\n", 1)),
    "utf16-bom": _bytes(lambda raw: raw.decode("utf-8").encode("utf-16")),
    "nul-byte": _append("# a NUL \x00 byte\n"),
    "tab-indent": _append("fuzz:\n\tindented: with a tab\n"),
    "unclosed-quote": _append('fuzz: "never closed\n'),
    "python-tag": _append("fuzz: !!python/object:os.system {}\n"),
    "anchor": _append("fuzz: &shared 1\n"),
    "mode-000": lambda path, target, monkeypatch: _refuse(monkeypatch, path),
    "validation": _validation,
}


@dataclass(frozen=True)
class Case:
    command: str
    target: str  # a TARGETS key, or "folder"
    fault: str

    @property
    def id(self) -> str:
        return f"{self.command}-{self.target}" + (f"-{self.fault}" if self.target != "folder" else "")


def cases() -> Iterator[Case]:
    for target in TARGETS:
        for fault in FAULTS:
            yield Case("duel", target, fault)
    yield Case("duel", "folder", "mode-000")
    others = {
        "meta": [("figure", "bad-utf8"), ("layer", "validation"), ("plot_twists", "mode-000")],
        "value-swap": [("army", "validation"), ("folder", "mode-000"), ("victims", "tab-indent")],
        "build": [("figure", "mode-000"), ("plot_twists", "validation"), ("layer", "anchor")],
        "ladder": [("victims", "validation"), ("army", "unclosed-quote"), ("layer", "mode-000")],
        "replay": [("figure", "nul-byte"), ("folder", "mode-000"), ("layer", "utf16-bom")],
        "sweep": [("army", "python-tag"), ("plot_twists", "bad-utf8"), ("figure", "validation")],
        "meta-budget": [("figure", "bad-utf8"), ("layer", "validation"), ("army", "validation")],
        "value-swap-field": [("figure", "mode-000"), ("layer", "anchor")],
        "build-library-field": [("figure", "tab-indent"), ("layer", "validation")],
        "ladder-every-army": [("figure", "nul-byte"), ("layer", "validation")],
    }
    for command, pairs in others.items():
        for target, fault in pairs:
            yield Case(command, target, fault)


CASES = list(cases())


# --- fixtures --------------------------------------------------------------------------------------------


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any game played fails the test: the pool's entry point, one game's, and every module's copy of them
    (modules imported later copy the patched ones: they get the originals back afterwards, so a later test in the
    same process plays)."""

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    originals = {"run_items": pool.run_items, "play_state": runner.play_state, "play_one": runner.play_one}
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("clix."):
            for name, original in originals.items():
                if getattr(module, name, None) is original:
                    monkeypatch.setattr(module, name, played)
    yield
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("clix."):
            for name, original in originals.items():
                if getattr(module, name, None) is played:
                    setattr(module, name, original)


@pytest.fixture
def layers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """lib/: a copy of the sample library; mine/: a second layer with the army's figure (unchanged, passed
    only for the faults of that layer); the working directory is their folder."""
    shutil.copytree(SAMPLE, tmp_path / "lib")
    (tmp_path / "mine").mkdir()
    shutil.copy(SAMPLE / FIGURE, tmp_path / TARGETS["layer"])
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for path in (tmp_path / FOLDER, *(tmp_path / t for t in TARGETS.values())):
        if path.exists():
            path.chmod(0o755 if path.is_dir() else 0o644)  # so pytest can clean up after a mode-000 case


# --- tests -----------------------------------------------------------------------------------------------


def test_case_count() -> None:
    """Every fault meets duel on every target; every other command meets three."""
    assert len({c.id for c in CASES}) == len(CASES)
    assert {(c.target, c.fault) for c in CASES if c.command == "duel"} >= {(t, f) for t in TARGETS for f in FAULTS}
    assert {c.command for c in CASES} == set(COMMANDS)


def test_the_unbroken_copy_loads_clean(layers: Path) -> None:
    """The copy the cases break is whole: what every command needs resolves, with no warning, and the
    second layer's figure is the one played."""
    library = load_library(
        [Path("lib"), Path("mine")],
        armies=[ARMY, "firing-line"],
        maps=["graveyard"],
        figures=["crimson-thrall-e"],
    )
    assert library.warnings == []
    assert library.roster.sources[("figures", "meatlocker-butcher-v")].file == TARGETS["layer"]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_meets_the_patched_entry_points(
    command: str, layers: Path, no_games: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The unbroken copy gets as far as a game in every command, where `no_games` stops it: the cases below
    would notice a game played."""
    with pytest.raises(AssertionError, match="a game was played"):
        run_main([*COMMANDS[command], "--rosters", "lib"], capsys)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_broken_file_the_command_needs_stops_it_before_any_game(
    case: Case, layers: Path, no_games: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 2, one line on stderr naming the broken file (or folder), nothing on stdout, no game, no output."""
    named = layers / (FOLDER if case.target == "folder" else TARGETS[case.target])
    FAULTS[case.fault](named, case.target, monkeypatch)
    second = ["--rosters", "mine"] if case.target == "layer" else []
    code, out, err = run_main([*COMMANDS[case.command], "--rosters", "lib", *second], capsys)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert "Traceback" not in err
    assert len(lines) == 1 and lines[0].startswith(f"clix: error: {named.relative_to(layers)}"), err
    assert out == ""
    assert not (layers / "out").exists()
    assert not (layers / "clix-out").exists()
