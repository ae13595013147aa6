"""`clix schema`: a JSON Schema of each YAML format, for editors that validate and complete files.

The schemas come from the pydantic models the loader validates with. Where a model takes a shorter form
in the file than its own fields (a power or an army's figure as a bare name, a dial as compact strings, a
collector number as a number), the schema describes the file: it says what a file may hold, and the
loader stays the judge of the rest (cross-file names, dial consistency, army legality).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.engine.core.ruleset import DEFAULT_RULESET, RULESET_KEY, ruleset_named
from pydantic import BaseModel

HEROCLIX = "heroclix-2005"


def _model(ruleset: str, part: str, name: str) -> type[BaseModel]:
    """The pydantic model `name` of the ruleset's `part` (`Ruleset.part`), found through the core's registry."""
    found: type[BaseModel] = getattr(ruleset_named(ruleset).part(part), name)
    return found


KINDS: dict[str, type[BaseModel]] = {
    "figure": _model(DEFAULT_RULESET, "models", "Figure"),
    "army": _model(DEFAULT_RULESET, "models", "Army"),
    "map": _model(DEFAULT_RULESET, "models", "MapFile"),
    "plot-twists": _model(DEFAULT_RULESET, "models", "PlotTwistFile"),
    "victims": _model(DEFAULT_RULESET, "models", "VictimFile"),
    "scenario": _model(DEFAULT_RULESET, "scenario", "Scenario"),
    "heroclix-character": _model(HEROCLIX, "models", "Character"),
    "heroclix-map": _model(HEROCLIX, "models", "MapFile"),
    "heroclix-force": _model(HEROCLIX, "models", "Force"),
    "heroclix-teams": _model(HEROCLIX, "cards", "TeamFile"),
    "heroclix-feats": _model(HEROCLIX, "cards", "FeatFile"),
    "heroclix-conditions": _model(HEROCLIX, "cards", "ConditionFile"),
    "heroclix-scenario": _model(HEROCLIX, "scenario", "Scenario"),
}
"""Each format by the name `clix schema` gives it (files: `clix-<kind>.schema.json`); HeroClix's carry their
`ruleset: heroclix-2005` in the model itself."""

LIBRARY_FIELDS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "army": (("ArmyEntry", "figure", "figures"), ("Army", "crypt", "plot_twists"), ("Army", "victims", "victims")),
    "scenario": (
        ("ScenarioMonster", "figure", "figures"),
        ("Scenario", "map", "maps"),
        ("Scenario", "crypts", "plot_twists"),
    ),
    "heroclix-character": (("Character", "team", "teams"),),
    "heroclix-force": (
        ("Force", "characters", "characters"),
        ("FeatChoice", "feat", "feats"),
        ("Force", "battlefield_condition", "conditions"),
    ),
    "heroclix-feats": (("Prerequisites", "team", "teams"),),
    "heroclix-scenario": (
        ("ScenarioCharacter", "team", "teams"),
        ("ScenarioCharacter", "copying", "teams"),
        ("ExpectCharacter", "copying", "teams"),
        ("ScenarioFeat", "feat", "feats"),
        ("ScenarioCondition", "condition", "conditions"),
    ),
}
"""The fields that name something of the library, by format: (model, field, the library's table of names).
With `clix schema --rosters` their strings take an enum of those names, so an editor completes them."""
LibraryNames = dict[str, list[str]]
"""A library's names by table: figures, plot_twists, victims, maps (HorrorClix); characters, teams, feats,
conditions (HeroClix)."""

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DIAL_CLICK = {
    "type": "string",
    "description": "One click in compact notation: speed attack defense damage, each value optionally "
    "followed by :colour, 'h' for an hourglass damage value, or 'x' for the killed click "
    '(e.g. "7 10:red 17:orange 3"; docs/data-formats.md)',
}


def schema_for(kind: str, names: LibraryNames | None = None) -> dict[str, Any]:
    """The JSON Schema of the `kind` format (see `KINDS`); with a library's `names`, the fields that name
    something of it (`LIBRARY_FIELDS`) list those names as an enum (a table without names is left open)."""
    if kind not in KINDS:
        raise ClixError(f"no format named '{kind}'; clix has schemas for: {', '.join(KINDS)}")
    model = KINDS[kind]
    schema = model.model_json_schema()
    definitions = schema.get("$defs", {})
    for definition in (schema, *definitions.values()):
        _file_forms(definition)
    if not kind.startswith("heroclix-"):
        _horrorclix_ruleset(schema)
    _drop_unused(schema)
    for title, key, table in LIBRARY_FIELDS.get(kind, ()):
        listed = sorted((names or {}).get(table, ()))
        if listed:
            _name_enum(schema if schema.get("title") == title else definitions[title], key, listed)
    schema = {"$schema": SCHEMA_DIALECT, "$id": f"clix-{kind}.schema.json", **schema}
    return schema


def _horrorclix_ruleset(schema: dict[str, Any]) -> None:
    """HorrorClix's formats may say `ruleset: horrorclix` (or nothing)."""
    schema.setdefault("properties", {})[RULESET_KEY] = {
        "type": "string",
        "enum": [DEFAULT_RULESET],
        "description": f"The game this file is for: these formats are {DEFAULT_RULESET}'s, and a file without it is "
        f"{DEFAULT_RULESET} too (docs/data-formats.md)",
    }


def _drop_unused(schema: dict[str, Any]) -> None:
    """Drop the definitions no property refers to any more (the figure's parsed dial, once `_file_forms` has
    replaced it by the file's strings)."""
    definitions = schema.get("$defs", {})
    while True:
        text = json.dumps({key: value for key, value in schema.items() if key != "$defs"})
        text += json.dumps(definitions)
        unused = [name for name in definitions if f'"#/$defs/{name}"' not in text]
        if not unused:
            break
        for name in unused:
            del definitions[name]
    if "$defs" in schema and not definitions:
        del schema["$defs"]


def _file_forms(definition: dict[str, Any]) -> None:
    """Widen one model's schema to the shorter forms its file may use."""
    properties = definition.get("properties", {})
    required = set(definition.get("required", []))
    title = definition.get("title", "")
    if title == "Figure":
        described = {key: properties[key]["description"] for key in ("dial", "collector_number")}
        properties["dial"] = {"type": "array", "items": DIAL_CLICK, "minItems": 1, "title": "Dial"}
        properties["collector_number"] = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        for key, description in described.items():
            properties[key]["description"] = description
    # a named thing whose name is all it needs (a power with no parameters, an army's figure by id)
    if definition.get("type") == "object" and required in ({"name"}, {"figure"}):
        shape = dict(definition)
        definition.clear()
        definition["anyOf"] = [{"type": "string", "description": f"the {title.lower() or 'item'} by name"}, shape]
        for key in ("title", "description"):
            if key in shape:
                definition[key] = shape[key]


def library_names(layers: Sequence[Path]) -> tuple[LibraryNames, int]:
    """The names the library in `layers` defines, for `schema_for`, and how many problems its files have (an
    item whose file has problems is left out). The sample library stands for each ruleset's own sample, as it
    does for every command (`rulesets.ruleset_layers`)."""
    from clix.analyzer.library.rulesets import ruleset_layers

    roster, problems = ruleset_named(DEFAULT_RULESET).load_library(list(layers))
    hero_layers = list(ruleset_layers(tuple(layers), HEROCLIX))
    heroes, hero_problems = ruleset_named(HEROCLIX).load_library(hero_layers)
    tables = {
        "figures": roster.figures,
        "plot_twists": roster.plot_twists,
        "victims": roster.victims,
        "maps": roster.maps,
        "characters": heroes.characters,
        "teams": heroes.teams,
        "feats": heroes.feats,
        "conditions": heroes.conditions,
    }
    return {table: list(items) for table, items in tables.items()}, len(problems) + len(hero_problems)


def _name_enum(definition: dict[str, Any], key: str, names: list[str]) -> None:
    """Give the strings of `definition`'s field `key` (in a list or mapping, or beside null or an inline
    object) the enum `names`; a definition written as a bare name (`_file_forms`) names its one field."""
    shape, bare = definition, None
    for branch in definition.get("anyOf", ()):
        if branch.get("type") == "object":
            shape = branch
        elif branch.get("type") == "string":
            bare = branch
    if bare is not None and shape.get("required") == [key]:
        bare["enum"] = names
    _strings(shape["properties"][key], names)


def _strings(node: dict[str, Any], names: list[str]) -> None:
    """Add the enum to every string a property's schema allows, through lists, mappings and unions."""
    if node.get("type") == "string":
        node["enum"] = names
    for branch in (*node.get("anyOf", ()), *node.get("oneOf", ())):
        _strings(branch, names)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            _strings(node[key], names)


def write_schemas(folder: Path, names: LibraryNames | None = None) -> list[Path]:
    """Write every format's schema (with a library's `names`, see `schema_for`) into `folder`; return the files
    written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        path = folder / f"clix-{kind}.schema.json"
        path.write_text(json.dumps(schema_for(kind, names), indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written
