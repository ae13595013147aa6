"""HeroClix's data files (issue 34, part 2 of its list): characters, maps and forces that say `ruleset:
heroclix-2005`, validated one problem a line with file, line and field; force building (HX-BUILD-01, -03, -04,
-08); the sample library; and `clix roster check` reaching HeroClix's loader through the core's registry."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from clix.engine.core.ruleset import ruleset_named
from clix.engine.heroclix.library import load_library
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "rosters" / "heroclix"

HERO = {
    "ruleset": "heroclix-2005",
    "id": "night-warden-e",
    "name": "Night Warden",
    "points": 40,
    "rank": "experienced",
    "set": "test set",
    "collector_number": 1,
    "range": 5,
    "bolts": 1,
    "dial": ["7 9 16 2", "7 9 16 2", "6 8 15 2", "6 8 15 1", "x"],
    "provenance": "test data",
}
FORCE = {"ruleset": "heroclix-2005", "name": "Wardens", "build_total": 100, "characters": ["night-warden-e"],
         "provenance": "test data"}  # fmt: skip


def _library(folder: Path, files: dict[str, dict]) -> Path:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return folder


def _problems(folder: Path, files: dict[str, dict]) -> list[str]:
    _, problems = load_library([_library(folder, files)])
    return [str(p) for p in problems]


def test_a_valid_character_and_force_load(tmp_path):
    library, problems = load_library([_library(tmp_path, {"hero.yaml": HERO, "wardens.yaml": FORCE})])
    assert problems == []
    assert list(library.characters) == ["night-warden-e"] and list(library.forces) == ["wardens"]
    assert library.characters["night-warden-e"].clicks()[-1].killed


@pytest.mark.parametrize(
    ("files", "said"),
    [
        ({"hero.yaml": HERO | {"powers": ["Heat Vision"]}}, "powers: the power Heat Vision is not implemented yet"),
        ({"hero.yaml": HERO | {"size": "colossal"}}, "'standard', 'giant', 'big' or 'double-base'"),
        ({"hero.yaml": HERO | {"dial": ["7 9 16 2", "6 8 15 2"]}}, "the last click is the KO click 'x'"),
        ({"hero.yaml": HERO | {"start": 4}}, "start 4 is not a click with values"),
        ({"hero.yaml": HERO | {"dial": ["7 9:red 16 2", "x"]}}, "powers are named"),
        ({"hero.yaml": HERO | {"rank": "legendary"}}, "rank"),
        ({"hero.yaml": HERO, "f.yaml": FORCE | {"characters": ["night-warden-e"] * 3}},
         "the characters cost 120 points, over the build total 100 (HX-BUILD-01)"),
        ({"hero.yaml": HERO, "f.yaml": FORCE | {"characters": ["nobody"]}}, "no character has the id 'nobody'"),
        ({"hero.yaml": HERO | {"rank": "unique"}, "f.yaml": FORCE | {"build_total": 200,
          "characters": ["night-warden-e", "night-warden-e"]}}, "is Unique and may be in a force once (HX-BUILD-03)"),
        ({"a.yaml": HERO | {"base_colour": "red"}, "b.yaml": HERO | {"id": "day-warden-e", "name": "Day Warden",
          "base_colour": "red"}, "f.yaml": FORCE | {"characters": ["night-warden-e", "day-warden-e"], "build_total": 100}},
         "are archenemies and may not share a force (HX-BUILD-04)"),
        ({"f.yaml": FORCE | {"build_total": 150}}, "multiple of 100"),
        ({"a.yaml": HERO, "b.yaml": HERO}, "'night-warden-e' is already defined"),
    ],
)  # fmt: skip
def test_each_mistake_is_one_line_naming_the_file(tmp_path, files, said):
    problems = _problems(tmp_path, files)
    assert any(said in line for line in problems), problems
    assert all(line.startswith(str(tmp_path)) or line.startswith(Path(tmp_path).name) or ":" in line
               for line in problems)  # fmt: skip


def test_horrorclix_files_beside_heroclix_ones_are_left_to_horrorclix(tmp_path):
    horror = (ROOT / "rosters" / "horrorclix" / "figures").iterdir().__next__()
    (tmp_path / "horror.yaml").write_text(horror.read_text(encoding="utf-8"), encoding="utf-8")
    library, problems = load_library([_library(tmp_path, {"hero.yaml": HERO})])
    assert problems == [] and [Path(f).name for f in library.files] == ["hero.yaml"]


def test_the_ruleset_loads_its_library_through_the_registry(tmp_path):
    library, problems = ruleset_named("heroclix-2005").load_library([_library(tmp_path, {"hero.yaml": HERO})])
    assert problems == [] and "night-warden-e" in library.characters


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data yet")
def test_the_sample_library_is_valid_and_marked_sample():
    library, problems = load_library([SAMPLE])
    assert problems == [], [str(p) for p in problems]
    assert len(library.characters) >= 30 and len(library.maps) >= 2 and len(library.forces) >= 8
    for item in [*library.characters.values(), *library.maps.values(), *library.forces.values()]:
        assert "sample" in item.provenance
    totals = sorted(force.build_total for force in library.forces.values())
    assert {100, 200, 300} <= set(totals)
    assert any(m.elevation for m in library.maps.values())
    assert {m.kind for m in library.maps.values()} >= {"outdoor", "indoor"}


def test_the_sample_characters_carry_every_power_played():
    """Each power of the registry shows on some click of a sample character (issue 35), so the sample forces and
    `clix selfcheck` can meet it."""
    from clix.engine.heroclix.powers import POWERS, power_named

    library, _ = load_library([SAMPLE])
    carried = {power_named(name) for character in library.characters.values() for name in character.all_powers()}
    assert set(POWERS) - carried == set()


def test_roster_check_reports_heroclix_files_through_its_loader(tmp_path, capsys):
    folder = _library(tmp_path, {"hero.yaml": HERO, "wardens.yaml": FORCE})
    code, out, _ = run_main(["roster", "check", str(folder), "--rosters", str(folder)], capsys)
    assert code == 0, out
    assert "heroclix-2005: 1 characters, 0 maps, 1 forces" in out
    _library(tmp_path, {"wardens.yaml": FORCE | {"characters": ["nobody"]}})
    code, out, _ = run_main(["roster", "check", str(folder), "--rosters", str(folder)], capsys)
    assert code == 2
    assert "wardens.yaml" in out and "no character has the id 'nobody'" in out


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data yet")
def test_the_sample_files_and_scenarios_satisfy_their_json_schemas():
    """`clix schema heroclix-...`: what an editor validates against accepts every sample file and scenario, and
    refuses what the loader refuses."""
    import jsonschema
    from clix.analyzer.library.schema import schema_for

    validators = {
        kind: jsonschema.Draft202012Validator(schema_for(f"heroclix-{kind}"))
        for kind in ("character", "map", "force", "scenario")
    }
    folders = {"characters": "character", "maps": "map", "forces": "force"}
    checked = 0
    for folder, kind in folders.items():
        for path in sorted((SAMPLE / folder).glob("*.yaml")):
            errors = [e.message for e in validators[kind].iter_errors(yaml.safe_load(path.read_text()))]
            assert not errors, f"{path}: {errors[:3]}"
            checked += 1
    for path in sorted((ROOT / "tests" / "scenarios" / "heroclix").rglob("*.yaml")):
        errors = [e.message for e in validators["scenario"].iter_errors(yaml.safe_load(path.read_text()))]
        assert not errors, f"{path}: {errors[:3]}"
        checked += 1
    for kind, name in (("teams", "teams.yaml"), ("feats", "feats.yaml"), ("conditions", "battlefield.yaml")):
        validator = jsonschema.Draft202012Validator(schema_for(f"heroclix-{kind}"))
        data = yaml.safe_load((SAMPLE / name).read_text())
        assert not list(validator.iter_errors(data)), name
        assert list(validator.iter_errors(data | {kind: []})), f"{name}: an empty list passes"
        checked += 1
    assert checked > 200
    assert list(validators["character"].iter_errors(HERO | {"rank": "legendary"}))
    assert list(validators["force"].iter_errors(FORCE | {"build_total": 150}))


@pytest.mark.skipif(not SAMPLE.exists(), reason="no HeroClix sample data yet")
def test_roster_list_show_and_map_show_read_heroclix_files(tmp_path, capsys):
    """`clix roster list characters|forces|maps`, `clix roster show ID` and `clix map show MAP --png` for
    HeroClix's files, found through the core's registry."""
    rosters = ["--rosters", str(ROOT / "rosters")]
    code, out, _ = run_main(["roster", "list", "forces", *rosters], capsys)
    assert code == 0 and "dawn-patrol" in out
    code, out, _ = run_main(["roster", "list", "maps", *rosters], capsys)
    assert code == 0 and "graveyard" in out and "harbor-" in out
    only = ["--rosters", str(SAMPLE)]  # a HeroClix-only library: the default listing is its characters
    code, out, _ = run_main(["roster", "list", *only], capsys)
    assert code == 0 and "team" in out and "bolts" in out and "cabal" not in out
    code, out, _ = run_main(["roster", "list", "armies", *only], capsys)
    assert code == 0 and "dawn-patrol" in out
    code, out, _ = run_main(["roster", "show", "lumen-r", *rosters], capsys)
    assert code == 0 and "Lumen (lumen-r): 28 points" in out and "<- start" in out and "KO" in out
    code, out, _ = run_main(["roster", "show", "dawn-patrol", *rosters], capsys)
    assert code == 0 and "total                      91" in out
    png = tmp_path / "harbor.png"
    code, out, _ = run_main(["map", "show", "harbor-district", "--png", str(png), *rosters], capsys)
    assert code == 0 and "elevation" in out and "22222" not in out.splitlines()[0]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, err = run_main(["roster", "show", "lumen-q", *rosters], capsys)
    assert code == 2 and "lumen-r" in err
