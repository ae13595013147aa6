"""The field of `clix build`: army ids, files or folders (weight 1 each) or a field.json such as `clix meta`
writes, resolved to army ids with weights that sum to 1."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.load import is_file_argument
from clix.engine.core.files.folders import YAML_SUFFIXES


@dataclass(frozen=True)
class FieldEntry:
    """One army of the field as the user named it (an id or a file path), with its weight."""

    army: str
    weight: float


def field_entries(specs: Sequence[str]) -> tuple[list[FieldEntry], str]:
    """The field `--field` names: army ids, army files, folders of army files, or a field.json; with a
    one-line description of where it came from."""
    entries: list[FieldEntry] = []
    sources = []
    for spec in specs:
        for part in [p.strip() for p in spec.split(",") if p.strip()]:
            path = Path(part)
            if part.endswith(".json"):
                found, source = read_field_json(path)
                entries += found
                sources.append(source)
            elif path.is_dir():
                files = sorted(p for p in path.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file())
                if not files:
                    raise ClixError(f"--field {part}: the folder holds no army file (*.yaml)")
                entries += [FieldEntry(str(f), 1.0) for f in files]
                sources.append(part)
            else:
                entries.append(FieldEntry(part, 1.0))
                sources.append(part)
    if not entries:
        raise ClixError("--field: name at least one army (ids, files, a folder, or a field.json)")
    return entries, ", ".join(sources)


def read_field_json(path: Path) -> tuple[list[FieldEntry], str]:
    """A weighted field file: {"source": ..., "budget": ..., "field": [{"army": ..., "weight": ...}, ...]}. A
    relative army path is taken from the file's folder when it exists there."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ClixError(f"--field {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ClixError(f"--field {path}: cannot read it ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ClixError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(document, dict) or not isinstance(document.get("field"), list) or not document["field"]:
        raise ClixError(f"{path}: field: a field file holds a non-empty list 'field' of {{army, weight}} entries")
    entries = []
    for n, item in enumerate(document["field"]):
        if not isinstance(item, dict) or not isinstance(item.get("army"), str) or not item["army"].strip():
            raise ClixError(f"{path}: field.{n}.army: each entry needs 'army', an army id or file path")
        weight = item.get("weight", 1.0)
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
            raise ClixError(f"{path}: field.{n}.weight: a weight is a number 0 or more (got {weight!r})")
        army = item["army"].strip()
        if is_file_argument(army) and not Path(army).is_absolute() and (path.parent / army).is_file():
            army = str(path.parent / army)
        if weight > 0:
            entries.append(FieldEntry(army, float(weight)))
    if not entries:
        raise ClixError(f"{path}: field: every weight is 0; give at least one army a weight above 0")
    return entries, f"{path} ({document.get('source', 'field file')})"


def resolve_field(entries: Sequence[FieldEntry], ids: Callable[[str], str]) -> list[tuple[str, float]]:
    """The field as (army id, weight), weights summing to 1; an army named twice adds its weights."""
    total: dict[str, float] = {}
    for entry in entries:
        key = ids(entry.army)
        total[key] = total.get(key, 0.0) + entry.weight
    weight = sum(total.values())
    return [(k, w / weight) for k, w in total.items()]
