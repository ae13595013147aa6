"""Files name their ruleset (issue 33, part 3): a data or scenario file's top-level `ruleset` says which game it is
for; a file that names none is HorrorClix, so every file written before there were two games loads as it did.
`clix scenario run` picks each file's ruleset through the core's registry."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import duel_ruleset as duel
import jsonschema
import pytest
import yaml
from clix.analyzer.library.schema import KINDS, schema_for
from clix.analyzer.tools.scenarios import run_paths
from clix.engine.core import ruleset as core_ruleset
from clix.engine.horrorclix.roster.loader import load_roster
from rich.console import Console

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "scenarios" / "combat" / "01-no-heal-from-slaying-or-turn-end.yaml"
FIGURE = ROOT / "rosters" / "horrorclix" / "figures" / "ashen-gargoyle-v.yaml"


def _run(paths: list[Path]) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = run_paths(paths, (), False, Console(file=out, width=400))
    return code, out.getvalue().splitlines()


def _named(source: Path, folder: Path, ruleset: str | None, name: str | None = None) -> Path:
    """A copy of `source` in `folder` whose first line names `ruleset` (None: unchanged)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (name or source.name)
    text = source.read_text(encoding="utf-8")
    target.write_text((f"ruleset: {ruleset}\n" if ruleset else "") + text, encoding="utf-8")
    return target


def test_a_scenario_naming_horrorclix_plays_as_one_naming_none(tmp_path):
    plain = _named(SCENARIO, tmp_path / "plain", None)
    named = _named(SCENARIO, tmp_path / "named", "horrorclix")
    assert _run([plain]) == (
        0,
        [f"pass  {plain}: {yaml.safe_load(SCENARIO.read_text())['name']}", "1 passed, 0 failed"],
    )
    code, lines = _run([named])
    assert code == 0 and lines[-1] == "1 passed, 0 failed"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (
            "heroclix-2006",
            "'heroclix-2006' is not a ruleset clix plays; clix plays heroclix-2005, horrified, horrorclix (a file",
        ),
        ("horroclix", "'horroclix' is not a ruleset clix plays; clix plays heroclix-2005, horrified, horrorclix"),
        ("[1, 2]", "'ruleset' is the name of a ruleset"),
    ],
)
def test_a_scenario_naming_a_ruleset_clix_does_not_play_is_invalid(tmp_path, value, said):
    bad = _named(SCENARIO, tmp_path, value)
    code, lines = _run([bad])
    assert code == 2
    assert lines == [lines[0], "0 passed, 0 failed, 1 invalid"]
    assert lines[0].startswith(f"INVALID {bad}:1: ruleset: ") and said in lines[0]


@pytest.fixture
def two_rulesets(monkeypatch):
    """The duel test ruleset registered beside HorrorClix, with a scenario runner that records what it ran."""
    ran: list[Path] = []

    class Result:
        name, passed, failures = "a duel scenario", True, []

    def run_duel(path: Path, library: object) -> Result:
        ran.append(path)
        return Result()

    monkeypatch.setitem(core_ruleset.RULESETS, duel.NAME, "duel_ruleset:load")
    monkeypatch.setattr(duel.load(), "scenario_runner", run_duel)
    return ran


def test_scenario_run_picks_each_files_ruleset(tmp_path, two_rulesets):
    horror = _named(SCENARIO, tmp_path, None, "a-horrorclix.yaml")
    other = tmp_path / "b-duel.yaml"
    other.write_text(f"ruleset: {duel.NAME}\nname: a duel scenario\n", encoding="utf-8")
    code, lines = _run([tmp_path])
    assert code == 0, lines
    assert two_rulesets == [other]
    assert lines[-1] == "2 passed, 0 failed"
    assert lines[:2] == [
        f"pass  {horror}: {yaml.safe_load(SCENARIO.read_text())['name']}",
        f"pass  {other}: a duel scenario",
    ]


def test_horrorclix_cannot_play_another_rulesets_scenario(tmp_path, two_rulesets):
    from clix.engine.horrorclix.scenario import load_scenario

    other = _named(SCENARIO, tmp_path, duel.NAME)
    scenario, problems = load_scenario(other)
    assert scenario is None
    assert [str(p) for p in problems] == [
        f"{other}:1: ruleset: a {duel.NAME} scenario; HorrorClix cannot play it (`clix scenario run` picks each "
        "file's ruleset)"
    ]


def test_a_roster_file_naming_horrorclix_loads_as_one_naming_none(tmp_path):
    plain, _ = load_roster([_named(FIGURE, tmp_path / "plain", None)])
    named, problems = load_roster([_named(FIGURE, tmp_path / "named", "horrorclix")])
    assert problems == []
    assert named.figures == plain.figures and len(named.figures) == 1


def test_a_roster_file_naming_an_unknown_ruleset_is_one_problem(tmp_path):
    roster, problems = load_roster([_named(FIGURE, tmp_path, "horrorclicks")])
    assert roster.figures == {}
    assert len(problems) == 1
    assert (problems[0].line, problems[0].field) == (1, "ruleset")
    assert problems[0].message.startswith(
        "'horrorclicks' is not a ruleset clix plays; clix plays heroclix-2005, horrified, horrorclix"
    )


def test_another_rulesets_file_in_a_horrorclix_folder_is_not_read_as_horrorclix(tmp_path, two_rulesets):
    shutil.copy(FIGURE, tmp_path / FIGURE.name)
    _named(FIGURE, tmp_path, duel.NAME, "a-duel-figure.yaml")
    roster, problems = load_roster([tmp_path])
    assert problems == []
    assert list(roster.figures) == [yaml.safe_load(FIGURE.read_text())["id"]]
    assert [Path(f).name for f in roster.files] == [FIGURE.name]


@pytest.mark.parametrize("kind", [kind for kind in KINDS if not kind.startswith("heroclix-")])
def test_every_schema_lets_a_file_name_its_ruleset(kind):
    """These are HorrorClix's formats: the one ruleset their files may name is HorrorClix."""
    validator = jsonschema.Draft202012Validator(schema_for(kind))
    property_schema = schema_for(kind)["properties"]["ruleset"]
    assert property_schema["enum"] == ["horrorclix"]
    assert not list(jsonschema.Draft202012Validator(property_schema).iter_errors("horrorclix"))
    assert list(validator.iter_errors({"ruleset": "horroclix"}))
