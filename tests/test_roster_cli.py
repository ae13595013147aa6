"""`clix roster check` end to end: one line per problem as `file:line: field: message`, exit codes, errors.

The dozen-mistakes fixture (tests/fixtures/dozen_mistakes) is what a player could have written by hand: a
figure, a map and an army with twelve different mistakes between them, checked against the mini roster.
"""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from clix.analyzer.cli import app
from typer.testing import CliRunner

REPO_ROOT = Path(__file__).resolve().parent.parent
DOZEN = Path("tests/fixtures/dozen_mistakes")  # relative to REPO_ROOT, as a player would type it
FIGURE = DOZEN / "figures/night-stalker-v.yaml"
MAP = DOZEN / "maps/foggy-swamp.yaml"
ARMY = DOZEN / "armies/dozen-army.yaml"
PROBLEM_LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<field>[^ :]+): (?P<message>.+)$")

# (file, line, field, text on that line of the file, words of the message); sorted as clix prints them.
DOZEN_PROBLEMS = [
    (ARMY, 6, "figures[0]", "grave-knight", "no figure named 'grave-knight'; did you mean 'grave-knight-u'?"),
    (ARMY, 8, "figures[2]", "demo-ghoul-d", "'demo-ghoul-d' is a demo figure, not legal in regular play (HC-SETUP-01)"),
    (ARMY, 13, "crypt[3]", "Try Again", "'Try Again' is in the crypt twice; no two cards in a crypt may be the same"),
    (FIGURE, 2, "id", "id: Night_Stalker", "id 'Night_Stalker' is not valid"),
    (FIGURE, 6, "rank", "rank: uncomon", "'uncomon' is not allowed here; use 'rookie', 'experienced'"),
    (FIGURE, 10, "bolt", "bolt: 2", "unknown field 'bolt'; did you mean 'bolts'?"),
    (
        FIGURE,
        16,
        "card.start.powers[0].name",
        "Blod Drinker",
        "the engine implements no power named 'Blod Drinker'; did you mean 'Blood Drinker'?",
    ),
    (FIGURE, 19, "dial[1]", '"7 10:rd 16 3"', "click 1: attack '10:rd': unknown colour 'rd'"),
    (FIGURE, 20, "dial[2]", '"7 9 16"', 'click 2: click "7 9 16" has 3 values; write four'),
    (MAP, 5, "name", "name: The Foggy Swamp", "key 'name' appears twice (first on line 3)"),
    (MAP, 15, "walls[0].side", "side: up", "'up' is not allowed here; use 'north', 'south', 'east' or 'west'"),
    (MAP, 17, "objects[0]", "kind: portal", "a portal needs 'side': the edge of its space where the doorway is"),
]


def run_check(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["roster", "check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output.splitlines()


def test_dozen_mistakes_give_twelve_problem_lines(mini, monkeypatch):
    """Twelve different mistakes in three files: twelve lines `file:line: field: message`, then a count; exit 2.

    Covers HC-SETUP-01 (demo), HC-PLOT-01 (duplicate card), HC-CARD-05 (unknown colour), HC-TERRAIN-12
    (wall side), HC-TERRAIN-14 (portal side), plus names, ids, ranks, fields, click notation and a repeated key.
    """
    monkeypatch.chdir(REPO_ROOT)
    code, lines = run_check(str(DOZEN), "--rosters", str(mini.root))
    assert code == 2
    problems, summary = lines[:-1], lines[-1]
    assert len(problems) == 12, "\n".join(lines)
    assert summary.startswith("12 problems in 3 files checked")
    for printed, (file, line, field, on_line, message) in zip(problems, DOZEN_PROBLEMS, strict=True):
        match = PROBLEM_LINE.match(printed)
        assert match, printed
        assert (match["file"], int(match["line"]), match["field"]) == (str(file), line, field), printed
        assert message in match["message"], printed
        assert on_line in (REPO_ROOT / file).read_text(encoding="utf-8").splitlines()[line - 1]


def test_dozen_mistakes_one_file_at_a_time(mini, monkeypatch):
    """Checking one file reports only that file's problems."""
    monkeypatch.chdir(REPO_ROOT)
    for file in (FIGURE, MAP, ARMY):
        code, lines = run_check(str(file), "--rosters", str(mini.root))
        expected = [p for p in DOZEN_PROBLEMS if p[0] == file]
        assert code == 2
        assert [line.split(": ", 1)[0] for line in lines[:-1]] == [f"{file}:{p[1]}" for p in expected]
        assert lines[-1].startswith(f"{len(expected)} problem{'s' if len(expected) != 1 else ''} in 1 file checked")


def test_valid_mini_roster_is_ok(mini):
    code, lines = run_check(str(mini.root), "--rosters", str(mini.root))
    assert code == 0
    assert lines == [
        "ok: 8 files valid (4 figures, 9 plot twists, 3 victim archetypes, 1 maps, 1 armies)",
    ]


def test_check_without_paths_checks_the_library(mini, monkeypatch):
    """No PATH: the library is checked, from --rosters or $CLIX_ROSTERS."""
    code, lines = run_check("--rosters", str(mini.root))
    assert (code, lines[0][:3]) == (0, "ok:")
    monkeypatch.setenv("CLIX_ROSTERS", str(mini.root))
    code, lines = run_check()
    assert (code, lines) == (0, [lines[0]])
    assert lines[0].startswith("ok: 8 files valid")


def test_army_checked_against_the_library(mini):
    """An army file on its own resolves its figures, plot twists and victims in --rosters; other files' problems
    in the library are not reported."""
    mini.edit("maps/graveyard-mini.yaml", '".v.v.v.v"', '"...v.v.v"')
    code, lines = run_check(str(mini.path("armies/legal-army.yaml")), "--rosters", str(mini.root))
    assert code == 0, lines
    assert lines[0].startswith("ok: 1 file valid")


def test_problem_line_uses_path_relative_to_working_directory(mini, monkeypatch):
    """Files under the working directory are printed relative to it, as the player typed them."""
    monkeypatch.chdir(mini.root)
    mini.edit("figures/grave-knight-u.yaml", "rank: unique", "rank: legendary")
    code, lines = run_check("figures", "--rosters", ".")
    assert code == 2
    assert lines[0] == (
        "figures/grave-knight-u.yaml:6: rank: 'legendary' is not allowed here; use 'rookie', 'experienced', "
        "'veteran', 'unique', 'limited_edition' or 'demo'"
    )
    assert lines[1].startswith("1 problem in 4 files checked")


def test_yaml_error_line_has_no_field(mini, monkeypatch):
    """A file that is not YAML prints `file:line: message`."""
    monkeypatch.chdir(mini.root)
    mini.write("figures/broken.yaml", "id: ghoul\n  name: Ghoul\n")
    code, lines = run_check("figures/broken.yaml", "--rosters", ".")
    assert code == 2
    assert lines[0].startswith("figures/broken.yaml:2: not valid YAML: mapping values are not allowed here")
    assert len(lines) == 2


def _commands() -> list:
    script = Path(sysconfig.get_path("scripts")) / "clix"
    return [
        pytest.param([sys.executable, "-m", "clix.analyzer.cli"], id="python-m"),
        pytest.param([str(script)], id="clix-script"),
    ]


@pytest.mark.parametrize("command", _commands())
def test_nonexistent_path_is_one_error_line(mini, tmp_path, command):
    """A path that does not exist: exit 2, one line `clix: error: ...` on stderr, no traceback."""
    missing = tmp_path / "no-such-army.yaml"
    result = subprocess.run(
        [*command, "roster", "check", str(missing), "--rosters", str(mini.root)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [f"clix: error: {missing}: no such file or directory"]
    assert result.stdout == ""


def test_real_script_reports_problems_with_exit_2(mini):
    """The console script prints the dozen problems the same way CliRunner sees them."""
    result = subprocess.run(
        [sys.executable, "-m", "clix.analyzer.cli", "roster", "check", str(DOZEN), "--rosters", str(mini.root)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 13
    assert all(PROBLEM_LINE.match(line) for line in lines[:12]), lines
