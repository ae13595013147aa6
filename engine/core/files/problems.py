"""Problems found in a ruleset's data and scenario files: where (file, line, field) and what is wrong."""

from __future__ import annotations

import difflib
import os
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

Loc = tuple[str | int, ...]


@dataclass(frozen=True, order=True)
class Problem:
    """One mistake in one file, printed as `file:line: field: message`."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class InvalidFile(Exception):
    """A file that is not valid (a scenario, a data file asked for by name); carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems


def field_text(loc: Loc) -> str:
    """Render a location as players read it: `card.start.powers[0].name`."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


class LineMap:
    """Line numbers of the values in one YAML file, by their path of keys and indexes."""

    def __init__(self, lines: dict[Loc, int] | None = None) -> None:
        self.lines = lines or {}

    def line(self, loc: Loc) -> int:
        """The line of the value at `loc`, or of its nearest enclosing value the file has."""
        for end in range(len(loc), -1, -1):
            found = self.lines.get(_normal(loc[:end]))
            if found:
                return found
        return 0


def _normal(loc: Loc) -> Loc:
    return tuple(p if isinstance(p, int) else str(p) for p in loc)


def from_validation_error(
    path: str, error: ValidationError, lines: LineMap, model: type[BaseModel], prefix: Loc = ()
) -> list[Problem]:
    """Turn a pydantic error into one Problem per mistake, with friendly messages and line numbers."""
    problems: list[Problem] = []
    short_tuples: set[Loc] = set()
    for item in error.errors():
        loc = prefix + _clean_loc(model, tuple(item["loc"]))
        if item["type"] == "missing" and loc and isinstance(loc[-1], int):
            if loc[:-1] in short_tuples:
                continue  # pydantic reports each missing item of a short tuple; the first says it all
            short_tuples.add(loc[:-1])
        for sub_loc, message in _messages(model, loc[len(prefix) :], dict(item)):
            full = prefix + sub_loc
            problems.append(Problem(path, lines.line(full), field_text(full), message))
    return problems


def _messages(model: type[BaseModel], loc: Loc, item: dict[str, Any]) -> list[tuple[Loc, str]]:
    kind = item["type"]
    msg: str = item["msg"]
    value = item.get("input")
    if kind == "value_error":
        text = msg.removeprefix("Value error, ")
        out = []
        for line in text.split("\n"):
            field, sep, message = line.partition("::")
            if not sep:
                out.append((loc, line))
                continue
            extra = tuple(int(p) if p.isdigit() else p for p in field.split(".") if p)
            out.append((loc + extra, message))
        return out
    if kind == "missing" and isinstance(loc[-1], int):  # a tuple such as [x, y] given too few numbers
        return [
            (
                loc[:-1],
                f"this list is too short: it has {loc[-1]} value(s) where more are needed (a space is "
                "[x, y]; a wall line or a rectangle is [x1, y1, x2, y2])",
            )
        ]
    if kind == "missing":
        return [(loc, f"required field '{loc[-1]}' is missing; add it")]
    if kind == "extra_forbidden":
        allowed = _fields_at(model, loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'?" if close else f"allowed fields: {', '.join(allowed)}"
        return [(loc, f"unknown field '{loc[-1]}'; {hint}")]
    if kind == "literal_error":
        expected = msg.removeprefix("Input should be ")
        return [(loc, f"{value!r} is not allowed here; use {expected}")]
    return [(loc, f"{msg} (got {value!r})" if value is not None and not isinstance(value, dict | list) else msg)]


def _clean_loc(model: type[BaseModel], loc: Loc) -> Loc:
    """Drop the type tags pydantic puts into locations of union members (e.g. 'str', 'function-after')."""
    cleaned: list[str | int] = []
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            cleaned.append(part)  # list index: the element has the list's model
            continue
        if part == "[key]":
            continue  # pydantic's tag for a mapping's key (e.g. a player number); the key itself is the place
        fields = _model_fields(current)
        if (
            fields is not None
            and part not in fields
            and ("[" in part or "-" in part or part[:1].isupper() or part in ("str", "int"))
        ):
            continue
        cleaned.append(part)
        current = _field_model(current, part)
    return tuple(cleaned)


def _model_fields(current: Any) -> dict[str, Any] | None:
    return current.model_fields if isinstance(current, type) and issubclass(current, BaseModel) else None


def _field_model(current: Any, name: str) -> Any:
    fields = _model_fields(current)
    if fields is None or name not in fields:
        return None
    return _unwrap(fields[name].annotation)


def _unwrap(annotation: Any) -> Any:
    """The model class inside Optional[...] / list[...] annotations, if any; else the annotation."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (list, typing.Union, types.UnionType, tuple):
        for arg in typing.get_args(annotation):
            found = _unwrap(arg)
            if isinstance(found, type) and issubclass(found, BaseModel):
                return found
    return None


def _fields_at(model: type[BaseModel], loc: Loc) -> list[str]:
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        current = _field_model(current, str(part))
    fields = _model_fields(current)
    return sorted(fields) if fields else []


def did_you_mean(what: str, name: str, known: typing.Iterable[str], listing: str = "") -> str:
    """A message for an unknown name, suggesting the closest known one."""
    known = list(known)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'?" if close else listing or f"known: {', '.join(sorted(known))}"
    return f"no {what} named '{name}'; {hint}"


def relative(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when possible.

    Only a file's link is followed: a link to a folder, a device, nothing or itself keeps its own name."""
    try:
        full = path.resolve() if path.is_file() else Path(os.path.abspath(path)).parent.resolve() / path.name
        return str(full.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)
