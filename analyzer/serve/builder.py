"""The army builder of `clix serve` (issue 41, part 2): an army from the page's form, checked by the army-building
rules the command line applies (HorrorClix's `legality.army_problems`, reached through the core's registry like
every ruleset module the analyzer uses: each problem with its fix), and saved as
an army file (the format of rosters/horrorclix/armies) only when it is legal."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from clix.analyzer.common.errors import ClixError
from clix.analyzer.serve.security import file_name
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named
from pydantic import ValidationError

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster
    from clix.engine.horrorclix.roster.models import Army, Figure

PROVENANCE = "built with clix serve"
BUDGETS = (100, 200, 300)
"""The build totals the builder offers (HC-SETUP-02: multiples of 100)."""
SIDES = ("start_a", "start_b")


@dataclass
class Draft:
    """The army the page holds: its fields as the form sends them, before they are checked."""

    name: str = "My army"
    build_total: int = 100
    figures: list[str] = field(default_factory=list)
    """Figure ids, a crossroads figure's as "id@start_a" or "id@start_b" (HC-CARD-07)."""
    crypt: list[str] = field(default_factory=list)
    victims: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)

    @classmethod
    def of_form(cls, form: Any) -> Draft:
        """The draft a submitted form holds (`add`, `remove` and `side` edit its figures), fields checked for type."""
        build_total, figures = edited(form, "figure", "a figure in the army", BUDGETS)
        return cls(
            name=str(form.get("name", "")).strip()[:80],
            build_total=build_total,
            figures=figures,
            crypt=[str(v) for v in form.getlist("crypt")],
            victims=_victims(form),
            objects=[str(v) for v in form.getlist("object")],
        )

    @classmethod
    def of_army(cls, army: Army, name: str | None = None) -> Draft:
        """A library army as a draft (renamed to `name` when given: a copy)."""
        figures = [entry.figure + (f"@{entry.side}" if entry.side else "") for entry in army.figures]
        return cls(
            name or army.name, army.build_total, figures, list(army.crypt), list(army.victims), list(army.objects)
        )

    def entries(self) -> list[Any]:
        """The figures as an army file lists them (a crossroads figure's side as a mapping)."""
        found: list[Any] = []
        for text in self.figures:
            figure, _, side = text.partition("@")
            found.append({"figure": figure, "side": side} if side else figure)
        return found


def edited(form: Any, key: str, what: str, budgets: Sequence[int]) -> tuple[int, list[str]]:
    """The form's build total (one of `budgets`) and its list `key` (figure ids, character ids) with the click
    applied: `remove` (a position in the list, `what` naming it in the error) taken out, then `add` appended."""
    total_text = str(form.get("build_total", "100")).strip()
    if not total_text.isdigit() or int(total_text) not in budgets:
        raise ClixError(f"build_total: {total_text!r} is not a budget; choose one of {', '.join(map(str, budgets))}")
    items = [str(v) for v in form.getlist(key)]
    remove = str(form.get("remove", "")).strip()
    if remove:
        if not remove.isdigit() or int(remove) >= len(items):
            raise ClixError(f"remove: {remove!r} is not the position of {what}")
        del items[int(remove)]
    add = str(form.get("add", "")).strip()
    if add:
        items.append(add)
    return int(total_text), items


def _victims(form: Any) -> list[str]:
    """The victims ticked, each followed by its further copies (`more:NAME`, 0-5; HC-VICTIM-02 lets an army bring
    an archetype more than once)."""
    ticked = [str(v) for v in form.getlist("victim")]
    victims: list[str] = []
    for name in ticked:
        victims.append(name)
        text = str(form.get(f"more:{name}", "0")).strip() or "0"
        if not text.isdigit() or int(text) > 5:
            raise ClixError(f"victims: {text!r} more copies of {name} is not a number from 0 to 5")
        victims += [name] * int(text)
    return victims


@dataclass
class Checked:
    """A draft checked: its army (None when a field cannot make one), points used, and every problem with its fix.
    The HeroClix builder's too (heroes.py): its draft a `HeroDraft`, its army a HeroClix force."""

    draft: Any
    """A `Draft` (or a `HeroDraft`): what the page holds, with its `build_total`."""
    army: Any
    """The `Army` (or HeroClix force) the draft makes, or None."""
    points: int
    problems: list[str]

    @property
    def left(self) -> int:
        return self.draft.build_total - self.points

    @property
    def legal(self) -> bool:
        return self.army is not None and not self.problems


def check(draft: Draft, roster: Roster) -> Checked:
    """The draft against the army file's format (pydantic) and the army-building rules (HC-SETUP-01, HC-SETUP-02,
    HC-PLOT-01, HC-PLOT-04, HC-CARD-07, HC-VICTIM-02), as `clix roster check` reports them."""
    points = sum(
        roster.figures[f.partition("@")[0]].points for f in draft.figures if f.partition("@")[0] in roster.figures
    )
    data: dict[str, Any] = {
        "name": draft.name,
        "build_total": draft.build_total,
        "figures": draft.entries(),
        "crypt": draft.crypt,
        "victims": draft.victims,
        "provenance": PROVENANCE,
    }
    if draft.objects:
        data["objects"] = draft.objects
    try:
        army = _part("models").Army.model_validate(data)
    except ValidationError as exc:
        return Checked(
            draft, None, points, error_lines(exc, "army", "figures: the army has no figure; add one from the list")
        )
    problems = [
        f"{'.'.join(map(str, where))}: {message}" for where, message in _part("legality").army_problems(army, roster)
    ]
    return Checked(draft, army, points, problems)


def error_lines(exc: ValidationError, whole: str, empty: str) -> list[str]:
    """The file format's complaints about a draft, one line each (`FIELD: what is wrong`; `whole` names the file
    when no field does); an empty list of figures or characters (the list's first field) is the line `empty`."""
    lines = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"]) or whole
        empty_list = where == empty.partition(":")[0] and error["type"] == "too_short"
        lines.append(empty if empty_list else f"{where}: {error['msg'].removeprefix('Value error, ')}")
    return lines


def army_text(army: Army) -> str:
    """The army file's text, in the form of the sample armies (a figure by its id, a crossroads one with its side)."""
    figures = [
        entry.figure if entry.side is None else {"figure": entry.figure, "side": entry.side} for entry in army.figures
    ]
    data: dict[str, Any] = {"name": army.name, "build_total": army.build_total, "figures": figures}
    data |= {"crypt": list(army.crypt), "victims": list(army.victims)}
    if army.objects:
        data["objects"] = list(army.objects)
    data["provenance"] = army.provenance
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def save(checked: Checked, folder: Path, name: str, overwrite: bool) -> Path:
    """Write the checked army to `folder`/NAME.yaml (NAME a plain file name) and return the path; a ClixError, with
    nothing written, when the army is not legal, the name is not plain, or the file exists and `overwrite` is off."""
    if checked.army is None or checked.problems:
        first = checked.problems[0] if checked.problems else "the army is not complete"
        raise ClixError(f"save: the army is not legal ({first}); fix it before saving")
    return write_file(folder, name, army_text(checked.army), overwrite)


def write_file(folder: Path, name: str, text: str, overwrite: bool) -> Path:
    """Write `text` to `folder`/NAME.yaml at once (staged, then renamed); a ClixError, nothing written, when NAME is
    not a plain file name or the file exists and `overwrite` is off."""
    stem = file_name(name, "file")
    target = folder / f"{stem}.yaml"
    if target.exists() and not overwrite:
        raise ClixError(f"file: {target} exists; tick 'replace' to overwrite it, or choose another name")
    folder.mkdir(parents=True, exist_ok=True)
    fd, staging = tempfile.mkstemp(prefix=f".{stem}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(staging, target)
    except BaseException:
        Path(staging).unlink(missing_ok=True)
        raise
    return target


@dataclass
class FigureQuery:
    """The figure list's filters (the page's search fields)."""

    text: str = ""
    klass: str = ""
    cabal: str = ""
    power: str = ""
    max_points: int | None = None


def figure_powers(figure: Figure) -> list[str]:
    """The names of the powers and abilities on a figure's card, every side."""
    names: list[str] = []
    card = figure.card
    for side in (card.start, card.start_a, card.start_b, card.transformed):
        if side is None:
            continue
        names += [power.name for power in side.powers] + [str(getattr(a, "name", a)) for a in side.abilities]
    return list(dict.fromkeys(names))


def filter_figures(roster: Roster, query: FigureQuery) -> list[Figure]:
    """The library's figures that pass the filters, cheapest first."""
    found = []
    for figure in roster.figures.values():
        if query.text and query.text.lower() not in f"{figure.id} {figure.name}".lower():
            continue
        if query.klass and query.klass not in figure.classes:
            continue
        if query.cabal and (figure.cabal is None or figure.cabal.name != query.cabal):
            continue
        if query.power and query.power not in figure_powers(figure):
            continue
        if query.max_points is not None and figure.points > query.max_points:
            continue
        found.append(figure)
    return sorted(found, key=lambda f: (f.points, f.id))


def choices(roster: Roster) -> dict[str, Sequence[str]]:
    """The values of the figure filters: classes, cabals and powers in the library."""
    figures: Iterable[Figure] = roster.figures.values()
    return {
        "classes": sorted({c for f in figures for c in f.classes}),
        "cabals": sorted({f.cabal.name for f in roster.figures.values() if f.cabal is not None}),
        "powers": sorted({p for f in roster.figures.values() for p in figure_powers(f)}),
    }


def _part(name: str) -> Any:
    """HorrorClix's part `name` (its army models, its legality checks), found through the core's registry."""
    return ruleset_named(DEFAULT_RULESET).part(name)
