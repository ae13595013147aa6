"""How an army (or a HeroClix force) is shown to people: by its file's `name:`, one function for every command.

An army's id is its file's stem (or its library id): what a user types and what machine outputs key on (CSV
`*_id` columns, JSON ids, folder names, the result store). Summaries, tables, plot labels and reports show its
`name:` instead, unless that name is only its id spelt out (`Butcher Shop` for `butcher-shop`: the sample armies),
when the id is shown as before, so what is shown can be typed back. Two different armies of one run that would be
shown alike (a copy `x.yaml` of `crimson-court` keeping `name: Crimson Court`) are told apart by their ids:
`Crimson Court (x)`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any


def slug(text: str) -> str:
    """`text` lower case, every run of other characters than letters and digits one hyphen (`Ashfang Pack` ->
    `ashfang-pack`)."""
    return re.sub(r"[^0-9a-z]+", "-", text.lower()).strip("-")


def declared_name(data: Any, army_id: str) -> str | None:
    """The `name:` of army `army_id` in a ruleset's data (a HorrorClix roster's `armies`, a HeroClix library's
    `forces`); None when the data has no such army."""
    for table in ("armies", "forces"):
        item = (getattr(data, table, None) or {}).get(army_id)
        if item is not None:
            name = getattr(item, "name", None)
            return name if isinstance(name, str) and name.strip() else None
    return None


def shown_name(army_id: str, name: str | None) -> str:
    """How army `army_id` named `name` is shown on its own: its name, or its id when the name only spells the id
    out (or it has none)."""
    if name is None or slug(name) == slug(army_id):
        return army_id
    return name.strip()


def army_names(data: Any, ids: Iterable[str]) -> dict[str, str]:
    """How each of the armies `ids` of one run is shown (`shown_name`), two different armies shown alike told
    apart by their ids (`Crimson Court (x)`); by id, in the order given."""
    return shown_names({army_id: declared_name(data, army_id) for army_id in ids})


def shown_names(declared: Mapping[str, str | None]) -> dict[str, str]:
    """`army_names` from each id's declared name (None: none)."""
    shown = {army_id: shown_name(army_id, name) for army_id, name in declared.items()}
    alike: dict[str, list[str]] = {}
    for army_id, text in shown.items():
        alike.setdefault(slug(text), []).append(army_id)
    for ids in alike.values():
        if len(ids) > 1:
            for army_id in ids:
                if shown[army_id] != army_id:
                    shown[army_id] = f"{shown[army_id]} ({army_id})"
    return shown


def side_names(data: Any, army_a: str, army_b: str) -> dict[str, str]:
    """How the two sides of a duel are shown, by side ("a", "b"); a mirror shows one army twice (its report and
    summary tell the sides apart)."""
    shown = army_names(data, [army_a, army_b])
    return {"a": shown[army_a], "b": shown[army_b]}


def settings_names(settings: Mapping[str, Any]) -> dict[str, str]:
    """The sides' names a duel's settings recorded (`army_a_name`, `army_b_name`), else its ids (a run recorded
    before names were)."""
    return {side: str(settings.get(f"army_{side}_name") or settings[f"army_{side}"]) for side in ("a", "b")}
