"""HeroClix forces through the analyses (issue 36, part 2): `clix ladder` and `clix meta` play HeroClix forces
(named, or `--ruleset heroclix-2005`) with the kit's player styles, report HeroClix's columns and never a word of
victims or plot twists; arguments of two rulesets are one line naming both. Written against whatever styles the
HeroClix kit lists (`kit.styles`, `kit.default_style`), never a style name but "random"."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from clix.analyzer.ladder.command import ladder_games, run_cells
from clix.analyzer.play.runner import Matchup, kit
from clix.engine.core.ruleset import ruleset_named
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters"
HERO = ROSTERS / "heroclix"
FORCES = HERO / "forces"
HEROCLIX = "heroclix-2005"
FAST = ["--turns", "3", "--jobs", "1"]


def _no_horror_words(text: str) -> None:
    assert "victim" not in text.lower() and "plot twist" not in text.lower() and "plot_twist" not in text.lower()


# --- ladder ------------------------------------------------------------------------------------------------------


def test_a_heroclix_ladder_ranks_the_kits_styles_on_forces(tmp_path, capsys, monkeypatch):
    """With two styles or more the ladder plays every pair of them on each force's mirror; with one (the random
    player alone) it says in one line that a ladder needs two and which the HeroClix players are."""
    monkeypatch.chdir(tmp_path)
    styles = kit(HEROCLIX).styles
    args = ["ladder", "--ruleset", HEROCLIX, "--armies", "dawn-patrol", "--maps", "chemical-plant", "--games", "2"]
    code, out, err = run_main([*args, *FAST, "--json", "--out", "ladder"], capsys)
    if len(styles) < 2:
        assert code == 2 and out == ""
        assert err.strip() == (
            f"clix: error: --players: a ladder needs at least two styles (the {HEROCLIX} players are "
            f"{', '.join(styles)})"
        )
        return
    assert code == 0, err
    result = json.loads(out)
    pairs = len(styles) * (len(styles) - 1) // 2
    assert result["settings"]["players"] == list(styles) and result["settings"]["armies"] == ["dawn-patrol"]
    assert result["settings"]["games"] == 2 * pairs and result["settings"]["cells"] == pairs
    assert result["settings"]["ruleset"] == ruleset_named(HEROCLIX).version
    games = pd.read_csv(tmp_path / "ladder" / "games.csv")
    assert len(games) == 2 * pairs and "kos_a" in games.columns and set(games["army"]) == {"dawn-patrol"}
    _no_horror_words((tmp_path / "ladder" / "ladder.html").read_text(encoding="utf-8"))
    assert "the same force on both sides" in (tmp_path / "ladder" / "ladder.html").read_text(encoding="utf-8")


def test_ladder_cells_of_heroclix_forces_play_the_asked_games():
    """The ladder's cells through the HeroClix kit (the random player against itself: one style is enough)."""
    matchups = [
        Matchup((HERO,), force, force, "harbor-district", "random", "random", 3, ruleset=HEROCLIX)
        for force in ("dawn-patrol", "night-shift")
    ]
    played = run_cells(matchups, 2, 7, jobs=1)
    assert played.complete == [True, True] and not played.failed
    games = ladder_games(matchups, played)
    assert list(games["army"]) == ["dawn-patrol"] * 2 + ["night-shift"] * 2
    assert set(games["ruleset"]) == {ruleset_named(HEROCLIX).version} and "kos_b" in games.columns
    again = ladder_games(matchups, run_cells(matchups, 2, 7, jobs=1))
    assert games.drop(columns=["engine"]).equals(again.drop(columns=["engine"]))


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--armies", "dawn-patrol,butcher-shop"],
         f"--armies dawn-patrol is a {HEROCLIX} force, --armies butcher-shop a horrorclix army"),
        (["--armies", "dawn-patrol", "--maps", "graveyard"],
         f"--armies dawn-patrol is a {HEROCLIX} force, --maps graveyard a horrorclix map"),
        (["--armies", "dawn-patrol", "--ruleset", "horrorclix"],
         f"--ruleset horrorclix: --armies dawn-patrol is a {HEROCLIX} force"),
        (["--armies", str(FORCES / "night-shift.yaml"), "--ruleset", "horrorclix"],
         f"night-shift.yaml is a {HEROCLIX} force"),
    ],
)  # fmt: skip
def test_a_ladder_of_two_rulesets_is_one_line(args, line, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["ladder", *args, "--games", "2", *FAST, "--rosters", str(ROSTERS)], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("clix: error: ") and line in lines[0] and "one ruleset" in lines[0]


def test_ladder_mistakes_on_heroclix_are_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = ["ladder", "--games", "2", *FAST, "--rosters", str(ROSTERS)]
    code, _, err = run_main([*base, "--ruleset", HEROCLIX, "--armies", "dawn-patrl"], capsys)
    assert (
        code == 2 and err.strip() == f"clix: error: no {HEROCLIX} force named 'dawn-patrl'; did you mean 'dawn-patrol'?"
    )
    code, _, err = run_main([*base, "--armies", "dawn-patrol", "--maps", "harbour"], capsys)
    assert code == 2 and err.startswith(f"clix: error: --maps: no {HEROCLIX} map named 'harbour'")
    code, _, err = run_main([*base, "--ruleset", "nope"], capsys)
    assert code == 2 and err.strip().startswith("clix: error: --ruleset: no ruleset is called 'nope'")
    code, _, err = run_main([*base, "--ruleset", HEROCLIX, "--players", "random,genius"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "'genius'" in err
