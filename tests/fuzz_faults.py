"""The faults of the hostile-file tests (tests/test_fuzz_files.py): each kind of file clix reads, the files it
breaks in the sample library, and every fault one at a time (text, bytes and path faults), as `Case`s."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIG = "1000000000000"  # 10^12
HUGE = "99999999999999999999"

TARGETS = {
    "figure": "figures/countess-vey-v.yaml",  # in the Crimson Court army
    "plot_twists": "plot_twists.yaml",  # every army's crypt names its cards
    "victims": "victims.yaml",  # every army names its victims
    "map": "maps/graveyard.yaml",
    "army": "armies/crimson-court.yaml",
    "scenario": "scenarios/close-attack.yaml",
}
LIST_FOLDER = "lists"  # list files move here for the unreadable-folder fault (their usual folder is the library)


# --- the faults --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One kind of file with one fault: `apply` breaks the copy, returning the path the line must name."""

    kind: str
    fault: str
    variant: str
    apply: Callable[[Path, pytest.MonkeyPatch], Path]
    command: str = ""  # roster check (default for roster kinds), map show, scenario run

    @property
    def id(self) -> str:
        via = {"map show": "-map-show"}.get(self.command, "")
        return f"{self.kind}-{self.fault}-{self.variant}{via}"


def text_fault(kind: str, edit: Callable[[str], str]) -> Callable[[Path, pytest.MonkeyPatch], Path]:
    def apply(lib: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        path = lib / TARGETS[kind]
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
        return path

    return apply


def bytes_fault(kind: str, edit: Callable[[bytes], bytes]) -> Callable[[Path, pytest.MonkeyPatch], Path]:
    def apply(lib: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        path = lib / TARGETS[kind]
        path.write_bytes(edit(path.read_bytes()))
        return path

    return apply


def replace(old: str, new: str, count: int = 1) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, f"{old!r} not in the file"
        return text.replace(old, new, count)

    return edit


def sub(pattern: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        changed, count = re.subn(pattern, new, text, count=1, flags=re.MULTILINE | re.DOTALL)
        assert count == 1, f"{pattern!r} not in the file"
        return changed

    return edit


def append(extra: str) -> Callable[[str], str]:
    return lambda text: text.rstrip("\n") + "\n" + extra


def whole(new: str) -> Callable[[str], str]:
    return lambda text: new


# Faults any YAML file can have: the edit ignores what the file holds.
BILLION_LAUGHS = "".join(
    [
        "lol0: &l0 [lol]\n",
        *(f"lol{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n" for n in range(1, 10)),
    ]
)
DEPTH = 10_000
COMMON_TEXT_FAULTS: dict[str, dict[str, Callable[[str], str]]] = {
    "aliases": {
        "billion-laughs": append(BILLION_LAUGHS),
        "alias": append("fuzz: *undefined\n"),
        "anchor": replace("name: ", "name: &a "),
        "merge-key": append("fuzz_base: &b {a: 1}\nfuzz_merge: {<<: *b}\n"),
    },
    "deep-nesting": {
        "flow-list": append("fuzz: " + "[" * DEPTH + "]" * DEPTH + "\n"),
        "flow-mapping": append("fuzz: " + "{a: " * DEPTH + "1" + "}" * DEPTH + "\n"),
        "block-list": append("fuzz:\n  " + "- " * DEPTH + "x\n"),
        "1MB-flow-list": append("fuzz: " + "[" * 480_000 + "]" * 480_000 + "\n"),
    },
    "oversized": {
        "1.5MB": append("# " + "x" * 1_500_000 + "\n"),
    },
    "wrong-types": {
        "empty-file": whole(""),
        "not-a-mapping": whole("- just\n- a list\n"),
        "yaml-syntax": replace("name: ", 'name: "'),
    },
}
COMMON_BYTES_FAULTS: dict[str, dict[str, Callable[[bytes], bytes]]] = {
    "non-utf8": {
        "latin1-byte": lambda raw: raw.replace(b"name: ", b"name: Caf\xe9 ", 1),
        "utf16": lambda raw: raw.decode("utf-8").encode("utf-16"),
        "stray-continuation-byte": lambda raw: raw + b"# \x80\x80\n",
    },
}

# Faults that depend on what the file holds: (fault, variant, edit).
KIND_FAULTS: dict[str, list[tuple[str, str, Callable[[str], str]]]] = {
    "figure": [
        ("wrong-types", "points-text", replace("points: 74", "points: lots")),
        ("wrong-types", "classes-mapping", replace("classes: [Undead, Vampire]", "classes: {a: 1}")),
        ("wrong-types", "dial-string", sub(r"^dial:\n(  - .*?\n)+", 'dial: "8 10 17 3"\n')),
        ("wrong-types", "card-number", sub(r"^card:\n(  .*?\n)+", "card: 5\n")),
        ("wrong-types", "params-list", replace("params: {amount: 2}", "params: [2]")),
        (
            "out-of-bounds",
            "dial-value-huge",
            replace('"8 10:red 17:orange 3:blue"', f'"{HUGE} 10:red 17:orange 3:blue"'),
        ),
        ("out-of-bounds", "dial-value-31", replace('"6 9 15 2"', '"6 9 31 2"')),
        ("out-of-bounds", "points-huge", replace("points: 74", f"points: {BIG}")),
        ("out-of-bounds", "points-501", replace("points: 74", "points: 501")),
        ("out-of-bounds", "power-param-huge", replace("params: {amount: 2}", f"params: {{amount: {BIG}}}")),
        (
            "out-of-bounds",
            "20000-clicks",
            sub(r"^dial:\n(  - .*?\n)+", "dial:\n" + '  - "6 9 15 2"\n' * 19_999 + '  - "x"\n'),
        ),
        ("out-of-bounds", "range-99", replace("range: 0", "range: 99")),
        ("out-of-bounds", "start-huge", replace("start: 0\n", f"start: {BIG}\n")),
        ("oversized", "50MB", append("# " + "x" * 50_000_000 + "\n")),
        ("full-width-digits", "dial", replace('"8 10:red 17:orange 3:blue"', '"８ 10:red 17:orange 3:blue"')),
        ("full-width-digits", "points", replace("points: 74", "points: ７４")),
    ],
    "plot_twists": [
        ("wrong-types", "list-is-number", whole("plot_twists: 5\n")),
        ("wrong-types", "empty-list", whole("plot_twists: []\n")),
        ("wrong-types", "windows-string", replace("windows: [slaying]", "windows: 7")),
        ("wrong-types", "effect-list", replace("effect: {name: prevent_slaying, params: {tokens: 1}}", "effect: [a]")),
        ("out-of-bounds", "tokens-choice", replace("params: {tokens: 1}", "params: {tokens: 7}")),
        ("out-of-bounds", "distance-huge", replace("params: {distance: 2,", f"params: {{distance: {BIG},")),
        ("full-width-digits", "param", replace("params: {tokens: 1}", "params: {tokens: １}")),
    ],
    "victims": [
        ("wrong-types", "speed-text", replace("speed: 3", "speed: fast")),
        ("wrong-types", "gender-number", replace("gender: female", "gender: 7")),
        ("wrong-types", "empty-list", whole("victims: []\n")),
        ("wrong-types", "entry-is-text", sub(r"^  - \{name: \"Prom Queen\".*?\n", "  - Prom Queen\n")),
        ("out-of-bounds", "speed-huge", replace("speed: 3", f"speed: {BIG}")),
        ("out-of-bounds", "speed-0", replace("speed: 3", "speed: 0")),
        ("full-width-digits", "speed", replace("speed: 3", "speed: ３")),
    ],
    "map": [
        ("wrong-types", "rows-number", sub(r"^rows:.*?\n(  - .*?\n)+", "rows: 12\n")),
        ("wrong-types", "kind-list", replace("kind: indoor_outdoor", "kind: [x]")),
        ("wrong-types", "indoor-short", replace("  - [9, 5, 14, 10]", "  - [9, 5]")),
        ("wrong-types", "wall-line-text", replace("  - [9, 5, 15, 5]", "  - a wall")),
        ("out-of-bounds", "wall-line-huge", replace("  - [9, 5, 15, 5]", f"  - [9, 5, {BIG}, 5]")),
        (
            "out-of-bounds",
            "120-wide",
            lambda text: re.sub(r'^(  - ")([^"]{24})"', r"\1\2" + "." * 96 + '"', text, flags=re.M),
        ),
        ("out-of-bounds", "empty-rows", lambda text: re.sub(r'^(  - ")[^"]{24}"', r'\1"', text, flags=re.M)),
        ("out-of-bounds", "tree-far-away", replace("at: [4, 7]", f"at: [{BIG}, 7]")),
        ("full-width-digits", "rows", replace('"11.....#.........~~~.h22"', '"１１.....#.........~~~.h22"')),
    ],
    "army": [
        ("wrong-types", "build-total-text", replace("build_total: 200", "build_total: two hundred")),
        ("wrong-types", "figures-mapping", replace("figures: [lord-malvane-u, countess-vey-v]", "figures: {a: 1}")),
        ("wrong-types", "crypt-number", sub(r"^crypt: .*?\n", "crypt: 6\n")),
        ("wrong-types", "objects-text", replace("objects: [tombstone, tree]", "objects: [7]")),
        ("out-of-bounds", "build-total-huge", replace("build_total: 200", f"build_total: {BIG}")),
        ("out-of-bounds", "build-total-1100", replace("build_total: 200", "build_total: 1100")),
        ("out-of-bounds", "build-total-150", replace("build_total: 200", "build_total: 150")),
        ("out-of-bounds", "players-99", replace("build_total: 200", "build_total: 200\nplayers: 99")),
        ("full-width-digits", "build-total", replace("build_total: 200", "build_total: ２００")),
    ],
    "scenario": [
        ("wrong-types", "dice-text", replace("dice: [4, 4]", "dice: four")),
        ("wrong-types", "at-text", replace("at: [2, 1]", "at: here")),
        ("wrong-types", "step-text", replace("- {close: A, target: B}", "- close")),
        ("wrong-types", "map-rows-number", sub(r"^  rows:\n(    - .*?\n)+", "  rows: 3\n")),
        ("wrong-types", "teams-text", replace("teams: {1: 1, 2: 2}", "teams: {1: one}")),
        ("wrong-types", "unknown-inline-power", replace("name: Blood Drinker", "name: Blood Drinkr")),
        ("wrong-types", "step-path-text", replace("- {close: A, target: B}", "- {move: A, path: [[a, b]]}")),
        ("wrong-types", "step-path-short", replace("- {close: A, target: B}", "- {move: A, path: [[1]]}")),
        ("wrong-types", "step-to-three", replace("- {close: A, target: B}", "- {move: A, to: [1, 1, 1]}")),
        (
            "wrong-types",
            "step-damage-text",
            replace("- {close: A, target: B}", "- {ranged: A, targets: [B], damage: {B: x}}"),
        ),
        ("wrong-types", "step-actor-list", replace("- {close: A, target: B}", "- {close: [A], target: B}")),
        ("wrong-types", "step-player-text", replace("- {close: A, target: B}", "- {plot_twist: Trip, player: two}")),
        ("wrong-types", "unknown-inline-ability", replace("    click: 2\n", "    click: 2\n    abilities: [Gost]\n")),
        ("out-of-bounds", "die-7", replace("dice: [4, 4]", "dice: [4, 7]")),
        ("out-of-bounds", "build-total-huge", replace("build_total: 100", f"build_total: {BIG}")),
        ("out-of-bounds", "victims-slain-huge", replace("    click: 2\n", f"    click: 2\n    victims_slain: {BIG}\n")),
        ("out-of-bounds", "team-huge", replace("teams: {1: 1, 2: 2}", f"teams: {{1: 1, {BIG}: 2}}")),
        ("out-of-bounds", "crypt-player-huge", replace("dice: [4, 4]", f"crypts: {{{BIG}: []}}\ndice: [4, 4]")),
        (
            "out-of-bounds",
            "dial-value-huge",
            replace('"6 9 16 2", "6 9 16 2", "x"', f'"6 9 16 2", "6 {HUGE} 16 2", "x"'),
        ),
        ("out-of-bounds", "inline-power-param-huge", replace("params: {amount: 1}", f"params: {{amount: {BIG}}}")),
        ("out-of-bounds", "map-200-wide", replace('    - "......"\n', '    - "' + "." * 200 + '"\n', 3)),
        ("out-of-bounds", "20000-dice", replace("dice: [4, 4]", "dice: [" + ", ".join(["4"] * 20_000) + ", 9]")),
        ("full-width-digits", "dice", replace("dice: [4, 4]", "dice: [４, 4]")),
        (
            "full-width-digits",
            "dial",
            replace('"6 8 15 2", "6 8 15 2", "6 8 15 2"', '"６ 8 15 2", "6 8 15 2", "6 8 15 2"'),
        ),
    ],
}


def _rows_edit(edit: Callable[[list[list[str]]], None]) -> Callable[[str], str]:
    """Edit the graveyard map's rows as a grid of characters (x = column, y = row)."""

    def apply(text: str) -> str:
        pattern = re.compile(r'^(  - ")([^"]+)(")', re.MULTILINE)
        grid = [list(m.group(2)) for m in pattern.finditer(text)]
        edit(grid)
        rows = iter("".join(row) for row in grid)
        return pattern.sub(lambda m: m.group(1) + next(rows) + m.group(3), text)

    return apply


def _ring_area_2(grid: list[list[str]]) -> None:
    """Blocking terrain all round starting area 2 (columns 22-23, rows 4-11)."""
    for y in range(3, 13):
        for x in range(21, 24):
            if not (x >= 22 and 4 <= y <= 11):
                grid[y][x] = "#"


def _fence_victims(text: str) -> str:
    """Walls on all four sides of every victim space."""
    rows = re.findall(r'^  - "([^"]+)"', text, flags=re.MULTILINE)
    lines = []
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char == "v":
                lines += [[x, y, x + 1, y], [x, y + 1, x + 1, y + 1], [x, y, x, y + 1], [x + 1, y, x + 1, y + 1]]
    return text.replace("wall_lines:\n", "wall_lines:\n" + "".join(f"  - {line}\n" for line in lines))


def _block_round_victim(grid: list[list[str]]) -> None:
    """Blocking terrain on the eight spaces round the victim space at [4, 2]."""
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                grid[2 + dy][4 + dx] = "#"


UNREACHABLE: list[tuple[str, Callable[[str], str]]] = [
    (
        "walls-round-area-1",
        replace("wall_lines:\n", "wall_lines:\n  - [2, 4, 2, 12]\n  - [0, 4, 2, 4]\n  - [0, 12, 2, 12]\n"),
    ),
    ("blocking-round-area-2", _rows_edit(_ring_area_2)),
    ("walls-round-all-victims", _fence_victims),
    ("blocking-round-one-victim", _rows_edit(_block_round_victim)),
]


# Faults of the path rather than the text.
def _dir_like_file(lib: Path, kind: str) -> Path:
    path = lib / TARGETS[kind]
    path.unlink()
    path.mkdir()
    (path / "notes.txt").write_text("a folder named like a YAML file\n", encoding="utf-8")
    return path


def _dangling(lib: Path, kind: str) -> Path:
    path = lib / TARGETS[kind]
    path.unlink()
    path.symlink_to(path.with_name("gone-missing.yaml"))
    return path


def _loop(lib: Path, kind: str) -> Path:
    path = lib / TARGETS[kind]
    path.unlink()
    path.symlink_to(path.name)
    return path


def _loop_pair(lib: Path, kind: str) -> Path:
    path = lib / TARGETS[kind]
    other = path.with_name("zz-other.txt")  # not a roster file: only the link clix reads is reported
    path.unlink()
    other.symlink_to(path.name)
    path.symlink_to(other.name)
    return path


def _fifo(lib: Path, kind: str) -> Path:
    """A named pipe in place of the file: reading it would wait forever for a writer."""
    path = lib / TARGETS[kind]
    path.unlink()
    os.mkfifo(path)
    return path


def _folder_link_to_parent(lib: Path, kind: str) -> Path:
    link = (lib / TARGETS[kind]).parent / "loop"
    link.symlink_to("..", target_is_directory=True)
    return link


def _deny(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make `folder` unreadable: mode 000, or (as root, who reads everything) listing it fails."""
    if os.geteuid() != 0:
        folder.chmod(0)
        return
    real = folder.resolve()
    scandir, listdir = os.scandir, os.listdir

    def refuse(path: object) -> bool:
        try:
            return Path(os.fsdecode(path)).resolve() == real  # type: ignore[arg-type]
        except (OSError, RuntimeError, TypeError):
            return False

    def fake_scandir(path: object = ".") -> object:
        if refuse(path):
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)  # type: ignore[arg-type]

    def fake_listdir(path: object = ".") -> list[str]:
        if refuse(path):
            raise PermissionError(13, "Permission denied", str(path))
        return listdir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", fake_scandir)
    monkeypatch.setattr(os, "listdir", fake_listdir)


def _unreadable_folder(lib: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = lib / TARGETS[kind]
    if path.parent == lib:  # a list file: move it into a folder of its own
        folder = lib / LIST_FOLDER
        folder.mkdir()
        path.rename(folder / path.name)
    else:
        folder = path.parent
    _deny(monkeypatch, folder)
    return folder


def path_fault(kind: str, make: Callable[[Path, str], Path]) -> Callable[[Path, pytest.MonkeyPatch], Path]:
    return lambda lib, monkeypatch: make(lib, kind)


PATH_FAULTS: dict[str, Callable[[Path, str], Path]] = {
    "dir-like-file": _dir_like_file,
    "dangling-symlink": _dangling,
    "looping-symlink": _loop,
}


def cases() -> Iterator[Case]:
    for kind in TARGETS:
        commands = ["map show", ""] if kind == "map" else [""]
        text_faults = [(f, v, e) for f, variants in COMMON_TEXT_FAULTS.items() for v, e in variants.items()]
        text_faults += KIND_FAULTS[kind]
        if kind == "map":
            text_faults += [("unreachable", variant, edit) for variant, edit in UNREACHABLE]
        for command in commands:
            for fault, variant, edit in text_faults:
                yield Case(kind, fault, variant, text_fault(kind, edit), command)
            for fault, variants in COMMON_BYTES_FAULTS.items():
                for variant, raw in variants.items():
                    yield Case(kind, fault, variant, bytes_fault(kind, raw), command)
        for fault, make in PATH_FAULTS.items():
            yield Case(kind, fault, "1", path_fault(kind, make))
        if kind == "figure":
            yield Case(kind, "looping-symlink", "pair", path_fault(kind, _loop_pair))
            yield Case(kind, "looping-symlink", "folder-link-to-parent", path_fault(kind, _folder_link_to_parent))
        if kind in ("figure", "plot_twists", "scenario"):
            yield Case(kind, "special-file", "named-pipe", path_fault(kind, _fifo))
        yield Case(kind, "unreadable-folder", "1", lambda lib, mp, kind=kind: _unreadable_folder(lib, kind, mp))


CASES = list(cases())
