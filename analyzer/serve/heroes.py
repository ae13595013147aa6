"""HeroClix in the builder of `clix serve` (issue 41): a force from the page's form, checked by HeroClix's own
force-building checks (`armies.force_breaches`, HX-BUILD-08: HX-BUILD-01 points, HX-BUILD-03 a Unique once,
HX-BUILD-04 no archenemies; the force file's format by its pydantic model), reached through the core's registry
(`ruleset_named("heroclix-2005").part(...)`: the analyzer never imports the ruleset's modules), and saved as a
force file (the format of rosters/heroclix/forces) only when it is legal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.rulesets import ruleset_layers
from clix.analyzer.serve.builder import PROVENANCE, Checked, edited, error_lines, write_file
from clix.engine.core.ruleset import ruleset_named
from pydantic import ValidationError

HEROCLIX = "heroclix-2005"
BUDGETS = (100, 200, 300)
"""The build totals offered (HX-BUILD-01: multiples of 100)."""
OBJECTS = ("light", "heavy")
DEFAULT_OBJECTS = ("light", "light", "heavy")
"""The three object tokens a force brings (HX-SETUP-05), as the sample forces bring them."""


def load(layers: Sequence[Path]) -> Any:
    """The HeroClix library under the page's layers (HorrorClix's sample library standing for HeroClix's own)."""
    data, _ = ruleset_named(HEROCLIX).load_library(list(ruleset_layers(tuple(layers), HEROCLIX)))
    return data


@dataclass
class HeroDraft:
    """The force the page holds, before it is checked."""

    name: str = "My force"
    build_total: int = 100
    characters: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=lambda: list(DEFAULT_OBJECTS))

    @classmethod
    def of_form(cls, form: Any) -> HeroDraft:
        """The draft a submitted form holds (`add` and `remove` edit its characters), fields checked for type."""
        build_total, characters = edited(form, "character", "a character in the force", BUDGETS)
        objects = [str(v) for v in form.getlist("object")] or list(DEFAULT_OBJECTS)
        return cls(str(form.get("name", "")).strip()[:80], build_total, characters, objects)

    @classmethod
    def of_force(cls, force: Any, name: str | None = None) -> HeroDraft:
        """A library force as a draft (renamed to `name` when given: a copy)."""
        return cls(name or force.name, force.build_total, list(force.characters), list(force.objects))


HeroChecked = Checked
"""A HeroClix draft checked: builder.py's `Checked`, its `army` the HeroClix force."""


def check(draft: HeroDraft, library: Any) -> HeroChecked:
    """The draft against the force file's format and HeroClix's force-building rules (HX-BUILD-01, -03, -04, -08),
    as `clix roster check` reports a force file's."""
    points = sum(library.characters[c].points for c in draft.characters if c in library.characters)
    data = {"ruleset": HEROCLIX, "name": draft.name, "build_total": draft.build_total,
            "characters": draft.characters, "objects": draft.objects, "provenance": PROVENANCE}  # fmt: skip
    try:
        force = _part("models").Force.model_validate(data)
    except ValidationError as exc:
        empty = "characters: the force has no character; add one from the list (HX-BUILD-01)"
        return HeroChecked(draft, None, points, error_lines(exc, "force", empty))
    problems = [f"characters: {breach}" for breach in _part("armies").force_breaches(library, force)]
    return HeroChecked(draft, force, points, problems)


def force_text(force: Any) -> str:
    """The force file's text, in the form of the sample forces."""
    data = {"ruleset": HEROCLIX, "name": force.name, "build_total": force.build_total,
            "characters": list(force.characters), "objects": list(force.objects), "provenance": force.provenance}  # fmt: skip
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def save(checked: HeroChecked, folder: Path, name: str, overwrite: bool) -> Path:
    """Write the checked force to `folder`/NAME.yaml; a ClixError, nothing written, unless it is legal (and the
    name plain, and the file new or `overwrite` on)."""
    if not checked.legal:
        first = checked.problems[0] if checked.problems else "the force is not complete"
        raise ClixError(f"save: the force is not legal ({first}); fix it before saving")
    return write_file(folder, name, force_text(checked.army), overwrite)


def filter_characters(library: Any, text: str = "", max_points: int | None = None) -> list[Any]:
    """The library's characters whose id or name holds `text`, at most `max_points`, cheapest first."""
    found = [
        c
        for c in library.characters.values()
        if text.lower() in f"{c.id} {c.name}".lower() and (max_points is None or c.points <= max_points)
    ]
    return sorted(found, key=lambda c: (c.points, c.id))


def _part(name: str) -> Any:
    """HeroClix's part `name` (its force model, its force-building checks), through the core's registry."""
    return ruleset_named(HEROCLIX).part(name)
