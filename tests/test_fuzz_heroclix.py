"""Broken HeroClix files (issue 34, "the fuzz suite covers the new file kinds"): each case breaks one character,
map, force or scenario file of `ruleset: heroclix-2005` one fault at a time and runs the command a player would
(`clix roster check` on a copy of the sample library, `clix scenario run` on a scenario). Every case must end with
exit code 2 and exactly one problem line naming the broken file, no traceback, in time (the checks of
tests/test_fuzz_files.py)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from test_fuzz_files import assert_one_line, run_cli

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters"
CHARACTER = "heroclix/characters/lumen-r.yaml"  # in no sample force, so only its own file is blamed
MAP = "heroclix/maps/harbor-district.yaml"
FORCE = "heroclix/forces/dawn-patrol.yaml"
FEAT_FORCE = "heroclix/forces/iron-syndicate.yaml"  # Forced March on syndicate-trooper-e
FOG_FORCE = "heroclix/forces/heavy-hitters.yaml"  # battlefield_condition: Thick Fog
TEAMS = "heroclix/teams.yaml"
FEATS = "heroclix/feats.yaml"  # Deflector Stance and Close Formation are in no sample force
CONDITIONS = "heroclix/battlefield.yaml"  # Paved Streets is in no sample force
SCENARIO = """\
ruleset: heroclix-2005
name: a move and a close attack (the base of the HeroClix fuzz cases)
map:
  kind: outdoor
  rows: ["......", "......", "......"]
characters:
  - {id: A, player: 1, dial: ["6 9 16 2", "6 9 16 2", "x"], at: [1, 1]}
  - {id: B, player: 2, dial: ["6 8 15 2", "6 8 15 2", "x"], at: [3, 1]}
dice: [4, 5]
steps:
  - {move: A, path: [[2, 1]]}
  - {end_turn: true}
  - {close: B, target: A}
expect:
  characters:
    A: {at: [2, 1], click: 2}
"""

Edit = Callable[[str], str]


def swap(old: str, new: str) -> Edit:
    def edit(text: str) -> str:
        assert old in text, f"{old!r} not in the file"
        return text.replace(old, new, 1)

    return edit


def sub(pattern: str, new: str) -> Edit:
    def edit(text: str) -> str:
        changed, count = re.subn(pattern, new, text, count=1, flags=re.MULTILINE)
        assert count == 1, f"{pattern!r} not in the file"
        return changed

    return edit


def both(first: Edit, second: Edit) -> Edit:
    return lambda text: second(first(text))


def add(line: str) -> Edit:
    return lambda text: text + line + "\n"


ROSTER_CASES: dict[str, tuple[str, Edit]] = {
    "character-unknown-key": (CHARACTER, add("speeed: 5")),
    "character-negative-points": (CHARACTER, swap("points: 28", "points: -3")),
    "character-huge-points": (CHARACTER, swap("points: 28", "points: 99999999999999999999")),
    "character-unknown-rank": (CHARACTER, swap("rank: rookie", "rank: legendary")),
    "character-bad-click": (CHARACTER, swap('"7 9 15 2"      # 0', '"7 9 x 2"      # 0')),
    "character-no-ko-click": (CHARACTER, sub(r'^  - "x".*$', '  - "4 7 14 1"')),
    "character-start-past-dial": (CHARACTER, swap("start: 0", "start: 40")),
    "character-start-on-ko": (CHARACTER, swap("start: 0", "start: 5")),
    "character-unknown-speed-mode": (CHARACTER, swap("speed_mode: boot", "speed_mode: rocket")),
    "character-range-too-far": (CHARACTER, swap("range: 8", "range: 80")),
    "character-four-bolts": (CHARACTER, swap("bolts: 1", "bolts: 4")),
    "character-bad-id": (CHARACTER, swap("id: lumen-r", "id: Lumen R!")),
    "character-power-not-played": (CHARACTER, swap("powers: [Enhancement]", "powers: [Heat Vision]")),
    "character-unknown-size": (CHARACTER, swap("size: standard", "size: colossal")),
    "character-coloured-click": (CHARACTER, swap('"7 9 15 2"      # 0', '"7 9:red 15 2"  # 0')),
    "character-ruleset-typo": (CHARACTER, swap("ruleset: heroclix-2005", "ruleset: heroclix-2050")),
    "character-duplicate-key": (CHARACTER, add("points: 30")),
    "character-yaml-syntax": (CHARACTER, add("dial: [unclosed")),
    "character-dial-not-a-list": (CHARACTER, sub(r"^dial:.*$", 'dial: "7 9 15 2"')),
    "map-ragged-rows": (MAP, sub(r'^  - "(\S+)"(\s+# y 0)', r'  - "\1."\2')),
    "map-bad-legend": (MAP, sub(r'^  - "\.(\S+)"(\s+# y 0)', r'  - "Q\1"\2')),
    "map-elevation-shape": (MAP, sub(r"^elevation:.*$", "elevation:\n  - \"00\"")),
    "map-unknown-kind": (MAP, swap("kind: outdoor", "kind: underwater")),
    "map-ladder-apart": (MAP, swap("{bottom: [8, 7], top: [7, 7]}", "{bottom: [8, 7], top: [2, 2]}")),
    "map-ladder-upside-down": (MAP, swap("{bottom: [8, 7], top: [7, 7]}", "{bottom: [7, 7], top: [8, 7]}")),
    "map-wall-off-map": (MAP, swap("{at: [2, 4], side: east}", "{at: [200, 4], side: east}")),
    "map-wall-bad-side": (MAP, swap("{at: [2, 4], side: east}", "{at: [2, 4], side: up}")),
    "map-object-unknown-kind": (MAP, sub(r"kind: heavy", "kind: boulder")),
    "map-unknown-key": (MAP, add("weather: rain")),
    "force-unknown-character": (FORCE, swap("  - kestrel-r                  # 26\n", "  - kestrel-x                  # 26\n")),
    "force-over-build-total": (FORCE, swap("  - stormwarden-r              # 39", "  - solar-wraith-u")),
    "force-build-total-not-hundreds": (FORCE, swap("build_total: 100", "build_total: 150")),
    "force-unique-twice": (FORCE, both(swap("build_total: 100", "build_total: 300"),
                                       swap("  - stormwarden-r              # 39", "  - captain-meridian-u\n  - captain-meridian-u"))),
    "force-archenemies": (FORCE, both(swap("build_total: 100", "build_total: 200"),
                                      swap("  - kestrel-r                  # 26\n  - kestrel-r", "  - gale-reaver-e\n  - kestrel-r"))),
    "force-no-characters": (FORCE, sub(r"^characters:(.|\n)*?(?=^objects)", "characters: []\n")),
    "force-four-objects": (FORCE, swap("objects: [light, light, heavy]", "objects: [light, light, heavy, heavy]")),
    "force-bad-object": (FORCE, swap("objects: [light, light, heavy]", "objects: [light, light, anvil]")),
    "force-unknown-key": (FORCE, add("captain: stormwarden-r")),
    "force-feat-unknown": (FEAT_FORCE, swap("feat: Forced March", "feat: Forced Marhc")),
    "force-feat-prerequisite-not-met": (FEAT_FORCE, swap("character: syndicate-trooper-e}", "character: syndicate-trooper-r}")),
    "force-feat-not-in-force": (FEAT_FORCE, swap("character: syndicate-trooper-e}", "character: kestrel-r}")),
    "force-feat-second-copy-missing": (FEAT_FORCE, swap("character: syndicate-trooper-e}", "character: syndicate-trooper-e#2}")),
    "force-feat-twice-on-one-character": (FEAT_FORCE, both(swap("build_total: 200", "build_total: 300"), swap(
        "objects:", "  - {feat: Forced March, character: syndicate-trooper-e}\nobjects:"))),
    "force-feat-over-build-total": (FEAT_FORCE, swap("objects:", "  - {feat: Sharpshooter, character: magnate-vex-u}\nobjects:")),
    "force-feat-character-and-characters": (FEAT_FORCE, swap("character: syndicate-trooper-e}",
                                                             "character: syndicate-trooper-e, characters: [ironjaw-v]}")),
    "force-battlefield-condition-unknown": (FOG_FORCE, swap("battlefield_condition: Thick Fog", "battlefield_condition: Thik Fog")),
    "force-two-battlefield-conditions": (FOG_FORCE, swap("battlefield_condition: Thick Fog",
                                                         "battlefield_condition: [Thick Fog, Healing Rain]")),
    "teams-power-not-grantable": (TEAMS, swap("power: Willpower", "power: Flurry")),
    "teams-two-effects": (TEAMS, swap("    modifier: {value: defense, amount: 1, attacks: close}\n",
                                      "    modifier: {value: defense, amount: 1, attacks: close}\n    power: Stealth\n")),
    "teams-unknown-key": (TEAMS, add("leader: Captain Meridian")),
    "feats-negative-points": (FEATS, swap("points: 10\n    text: \"Choose a character with defense", "points: -1\n    text: \"Choose a character with defense")),
    "feats-prerequisite-power-unknown": (FEATS, swap("requires: {defense: 16}", "requires: {defense: 16, powers: [Flight]}")),
    "feats-team-prerequisite-typo": (FEATS, swap("requires: {team: Dawnguard}", "requires: {team: Dawngaurd}")),
    "feats-same-name-twice": (FEATS, swap("name: Close Formation", "name: Deflector Stance")),
    "feats-speed-modifier-for-attacks": (FEATS, swap("modifier: {value: defense, amount: 1, attacks: ranged}",
                                                     "modifier: {value: speed, amount: 1, attacks: ranged}")),
    "conditions-two-rules": (CONDITIONS, swap("    terrain: {hindering: clear}\n",
                                              "    terrain: {hindering: clear}\n    each_turn: {roll: 6, heal: 1}\n")),
    "conditions-roll-past-six": (CONDITIONS, swap("each_turn: {roll: 6, heal: 1}", "each_turn: {roll: 7, heal: 1}")),
}  # fmt: skip

SCENARIO_CASES: dict[str, Edit] = {
    "scenario-unknown-key": add("weather: rain"),
    "scenario-horrorclix-victims": add("victims: [{id: V, at: [0, 0]}]"),
    "scenario-horrorclix-step": swap("  - {end_turn: true}", "  - {frenzy: A}"),
    "scenario-bad-die": swap("dice: [4, 5]", "dice: [4, 7]"),
    "scenario-twice-the-same-id": swap("id: B, player: 2", "id: A, player: 2"),
    "scenario-unknown-character": swap("{close: B, target: A}", "{close: C, target: A}"),
    "scenario-power-not-played": swap('"x"], at: [1, 1]}', '"x"], at: [1, 1], powers: [Heat Vision]}'),
    "scenario-walker-flies": swap('"x"], at: [1, 1]}', '"x"], at: [1, 1], flight: soaring}'),
    "scenario-hourglass-click": swap('["6 9 16 2", "6 9 16 2", "x"]', '["6 9 h 2", "6 9 16 2", "x"]'),
    "scenario-shared-square": swap("at: [3, 1]}", "at: [1, 1]}"),
    "scenario-off-the-map": swap("at: [3, 1]}", "at: [30, 1]}"),
    "scenario-double-base-on-one-square": swap("at: [3, 1]}", "at: [3, 1], size: double-base}"),
    "scenario-double-base-apart": swap("at: [3, 1]}", "at: [[3, 1], [5, 1]], size: double-base}"),
    "scenario-from-without-double-base": swap("{move: A, path: [[2, 1]]}", "{move: A, from: [2, 1], path: []}"),
    "scenario-ruleset-typo": swap("ruleset: heroclix-2005", "ruleset: heroklix-2005"),
    "scenario-fly-without-move": swap("  - {end_turn: true}", "  - {fly: A, mode: soaring}\n  - {end_turn: true}"),
    "scenario-wrong-build-total": add("build_total: 150"),
    "scenario-unknown-event": swap("expect:\n", "expect:\n  events: [exploded]\n"),
    "scenario-power-step-not-played": swap(
        "  - {end_turn: true}", "  - {power: A, use: Heat Vision}\n  - {end_turn: true}"
    ),
    "scenario-telekinesis-without-object": swap(
        "  - {end_turn: true}", "  - {power: A, use: Telekinesis, target: B}\n  - {end_turn: true}"
    ),
    "scenario-unknown-feat": add("feats: [{feat: Sharpshootr, character: A}]"),
    "scenario-feat-prerequisite-not-met": add("feats: [{feat: Forced March, character: A}]"),
    "scenario-feat-twice-on-one-character": add("feats: [{feat: Sharpshooter, characters: [A, A]}]"),
    "scenario-unknown-condition": add("battlefield: [{condition: Thik Fog, player: 1}]"),
    "scenario-two-conditions-one-player": add(
        "battlefield: [{condition: Thick Fog, player: 1}, {condition: Healing Rain, player: 1}]"
    ),
    "scenario-copy-without-team": swap("  - {end_turn: true}", "  - {copy: A}\n  - {end_turn: true}"),
    "scenario-telekinesis-to-and-target": swap(
        "  - {end_turn: true}",
        "  - {power: A, use: Telekinesis, object: [0, 0], to: [0, 1], target: B}\n  - {end_turn: true}",
    ),
}


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A copy of the sample data of both rulesets."""
    copy = tmp_path / "rosters"
    shutil.copytree(ROSTERS, copy)
    return copy


def test_there_are_forty_cases_or_more():
    assert len(ROSTER_CASES) + len(SCENARIO_CASES) >= 40


def test_the_unbroken_files_pass(library: Path, tmp_path: Path) -> None:
    assert run_cli(["roster", "check", str(library), "--rosters", str(library)]).code == 0
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    run = run_cli(["scenario", "run", str(scenario), "--rosters", str(library)])
    assert run.code == 0, run.lines


@pytest.mark.parametrize("case", sorted(ROSTER_CASES))
def test_a_broken_heroclix_file_gives_one_line(case: str, library: Path) -> None:
    target, edit = ROSTER_CASES[case]
    path = library / target
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert_one_line(run_cli(["roster", "check", str(library), "--rosters", str(library)]), path)


@pytest.mark.parametrize("case", sorted(SCENARIO_CASES))
def test_a_broken_heroclix_scenario_gives_one_line(case: str, tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO_CASES[case](SCENARIO), encoding="utf-8")
    assert_one_line(run_cli(["scenario", "run", str(path), "--rosters", str(ROSTERS / "horrorclix")]), path)
