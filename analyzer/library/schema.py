"""`clix schema`: a JSON Schema of each YAML format, for editors that validate and complete files.

The schemas come from the pydantic models the loader validates with. Where a model takes a shorter form
in the file than its own fields (a power or an army's figure as a bare name, a dial as compact strings, a
collector number as a number), the schema describes the file: it says what a file may hold, and the
loader stays the judge of the rest (cross-file names, dial consistency, army legality).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clix.analyzer.common.errors import ClixError
from clix.engine.core.ruleset import DEFAULT_RULESET, RULESET_KEY
from clix.engine.heroclix import library as hero
from clix.engine.heroclix.card_files import ConditionFile, FeatFile, TeamFile
from clix.engine.heroclix.scenario_format import Scenario as HeroScenario
from clix.engine.horrorclix.roster.models import Army, Figure, MapFile, PlotTwistFile, VictimFile
from clix.engine.horrorclix.scenario import Scenario
from pydantic import BaseModel

KINDS: dict[str, type[BaseModel]] = {
    "figure": Figure,
    "army": Army,
    "map": MapFile,
    "plot-twists": PlotTwistFile,
    "victims": VictimFile,
    "scenario": Scenario,
    "heroclix-character": hero.Character,
    "heroclix-map": hero.MapFile,
    "heroclix-force": hero.Force,
    "heroclix-teams": TeamFile,
    "heroclix-feats": FeatFile,
    "heroclix-conditions": ConditionFile,
    "heroclix-scenario": HeroScenario,
}
"""Each format by the name `clix schema` gives it (files: `clix-<kind>.schema.json`); HeroClix's carry their
`ruleset: heroclix-2005` in the model itself."""

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DIAL_CLICK = {
    "type": "string",
    "description": "One click in compact notation: speed attack defense damage, each value optionally "
    "followed by :colour, 'h' for an hourglass damage value, or 'x' for the killed click "
    '(e.g. "7 10:red 17:orange 3"; docs/data-formats.md)',
}


def schema_for(kind: str) -> dict[str, Any]:
    """The JSON Schema of the `kind` format (see `KINDS`)."""
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


def write_schemas(folder: Path) -> list[Path]:
    """Write every format's schema into `folder`; return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in KINDS:
        path = folder / f"clix-{kind}.schema.json"
        path.write_text(json.dumps(schema_for(kind), indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written
