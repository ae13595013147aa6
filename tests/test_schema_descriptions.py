"""`clix schema` for editors (issue 37, item 6): every property of every format says what it means, and
`--rosters` lists the library's names where a field names something of it, so an editor completes values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from clix.analyzer.library.schema import KINDS, LIBRARY_FIELDS, library_names, schema_for
from helpers import run_main

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = ROOT / "rosters"
SAMPLE_FIGURE = "countess-vey-v"


def undescribed(node: Any, where: str = "") -> list[str]:
    """Every property under `node` (its $defs, inline objects, unions and lists included) without a
    description, as `where.property`."""
    missing: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties":
                for name, schema in value.items():
                    if not (isinstance(schema, dict) and schema.get("description", "").strip()):
                        missing.append(f"{where}.{name}")
                    missing += undescribed(schema, f"{where}.{name}")
            elif key == "$defs":
                missing += [m for name, schema in value.items() for m in undescribed(schema, name)]
            else:
                missing += undescribed(value, where)
    elif isinstance(node, list):
        missing += [m for item in node for m in undescribed(item, where)]
    return missing


def properties(node: Any) -> int:
    """How many properties `node` declares, at any depth."""
    if isinstance(node, dict):
        own = len(node["properties"]) if isinstance(node.get("properties"), dict) else 0
        return own + sum(properties(value) for value in node.values())
    return sum(properties(item) for item in node) if isinstance(node, list) else 0


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_of_every_format_has_a_description(kind):
    """A new field needs a docstring under it (the models take use_attribute_docstrings), so the editor can say
    what it means."""
    schema = schema_for(kind)
    assert properties(schema) > 0
    assert undescribed(schema) == [], f"clix schema {kind}: properties without a description"


def test_the_walk_finds_a_missing_description():
    assert undescribed({"$defs": {"A": {"properties": {"x": {"type": "string"}}}}}) == ["A.x"]
    assert undescribed({"properties": {"y": {"description": "y", "properties": {"z": {}}}}}) == [".y.z"]


@pytest.fixture(scope="module")
def sample_names() -> dict[str, list[str]]:
    names, problems = library_names([ROSTERS])
    assert problems == 0
    return names


def test_rosters_lists_the_librarys_names_and_sample_armies_still_validate(sample_names):
    schema = schema_for("army", sample_names)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == jsonschema.Draft202012Validator.META_SCHEMA["$id"]
    entry = schema["$defs"]["ArmyEntry"]
    by_name, shape = entry["anyOf"]
    assert SAMPLE_FIGURE in by_name["enum"] and SAMPLE_FIGURE in shape["properties"]["figure"]["enum"]
    assert "Cold Spot" in schema["properties"]["crypt"]["items"]["enum"]
    assert "Jock" in schema["properties"]["victims"]["items"]["enum"]
    validator = jsonschema.Draft202012Validator(schema)
    armies = sorted((ROSTERS / "horrorclix" / "armies").glob("*.yaml"))
    assert armies
    for path in armies:
        assert not list(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))), path.name
    assert list(validator.iter_errors({**yaml.safe_load(armies[0].read_text()), "figures": ["no-such-figure"]}))


@pytest.mark.parametrize("kind", LIBRARY_FIELDS)
def test_every_named_field_gets_an_enum_and_sample_files_of_the_kind_still_validate(kind, sample_names):
    plain, named = schema_for(kind), schema_for(kind, sample_names)
    jsonschema.Draft202012Validator.check_schema(named)
    assert json.dumps(named).count('"enum"') > json.dumps(plain).count('"enum"')
    plain_validator, validator = jsonschema.Draft202012Validator(plain), jsonschema.Draft202012Validator(named)
    checked = 0
    for path in sorted(ROSTERS.glob("**/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not list(plain_validator.iter_errors(data)):
            assert not list(validator.iter_errors(data)), path
            checked += 1
    assert checked or kind.endswith("scenario")


def test_without_rosters_the_schema_names_nothing_of_the_library(sample_names):
    """A user's own figures stay valid: names are listed only when asked for."""
    figure = schema_for("army")["$defs"]["ArmyEntry"]["anyOf"][1]["properties"]["figure"]
    assert "enum" not in figure
    assert schema_for("army") != schema_for("army", sample_names)


def test_schema_command_takes_rosters(capsys):
    code, out, err = run_main(["schema", "heroclix-force", "--rosters", "sample"], capsys)
    assert code == 0, err
    characters = json.loads(out)["properties"]["characters"]["items"]
    assert "enum" in characters and characters["enum"] == sorted(characters["enum"])
    code, out, _ = run_main(["schema", "heroclix-force"], capsys)
    assert code == 0 and "enum" not in json.loads(out)["properties"]["characters"]["items"]
    code, out, err = run_main(["schema", "army", "--rosters", "sample"], capsys)
    assert code == 0, err
    assert SAMPLE_FIGURE in json.loads(out)["$defs"]["ArmyEntry"]["anyOf"][0]["enum"]
