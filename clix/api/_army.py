"""`clix.Army`: an army made from plain names, for notebooks (the data model `Army` of army files, with a
constructor that takes names and fills in what an army file must say)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from clix.analyzer.common.errors import ClixError
from clix.api._common import Source, load
from clix.engine.horrorclix.roster.models import Army as ArmyModel

MADE_IN_PYTHON = "made in Python with clix.Army"


def _readable(exc: ValidationError, name: str) -> str:
    """A pydantic error as one line: each problem's field and message."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"]) or "army"
        parts.append(f"{where}: {error['msg'].removeprefix('Value error, ')}")
    return f"Army {name!r}: " + "; ".join(parts)


class Army(ArmyModel):
    """An army, as an army file holds it, made from plain names:

        >>> night = clix.Army("Night Shift", ["meatlocker-butcher-v", "crimson-thrall-e"], crypt=["Trip"])
        >>> clix.duel(night, "firing-line", games=20)
        >>> lighter = night.replace(figures=["meatlocker-butcher-v"])

    `figures` are figure ids (`clix.load_library().figures`), `crypt` plot-twist names, `victims` victim
    archetypes; `build_total` is 100 unless given. An army is checked against the library (its figures known,
    its points within its build total) when it is played; its id there is its name in lower case with dashes
    ("night-shift"). Armies are immutable: `replace` makes a changed copy, `Army.load` reads one from the library
    or a file. A mistake (a build total of 150, no figures) raises `clix.ClixError`."""

    def __init__(
        self,
        name: str,
        figures: Sequence[Any] = (),
        *,
        crypt: Sequence[str] = (),
        victims: Sequence[str] = (),
        build_total: int = 100,
        objects: Sequence[str] = (),
        provenance: str = MADE_IN_PYTHON,
        **more: Any,
    ) -> None:
        if isinstance(figures, str):
            figures = [figures]
        try:
            super().__init__(
                name=name,
                figures=list(figures),
                crypt=list(crypt),
                victims=list(victims),
                build_total=build_total,
                objects=list(objects),
                provenance=provenance,
                **more,
            )
        except ValidationError as exc:
            raise ClixError(_readable(exc, str(name))) from None

    @classmethod
    def load(cls, army: str | Path, rosters: Source = None) -> Army:
        """The army `army` (an id in the library `rosters`, or the path of an army file) as an `Army` to change."""
        from clix.api._common import army_argument, army_folder

        with army_folder() as folder:
            argument = army_argument(army, folder, "army")
            library = load(rosters, {argument: "army"}, armies=[argument])
            found = library.roster.armies[library.id(argument)]
        return cls.of(found)

    @classmethod
    def of(cls, army: ArmyModel) -> Army:
        """An army of the data model (as `clix.load_library().armies` holds them) as an `Army`."""
        data = army.model_dump(exclude_none=True)
        return cls(
            data.pop("name"), [entry for entry in army.figures], **{k: v for k, v in data.items() if k != "figures"}
        )

    def replace(self, **changes: Any) -> Army:
        """A copy with `changes` (any field: name, figures, crypt, victims, build_total, ...), checked again."""
        data = self.model_dump(exclude_none=True) | changes
        figures = changes.get("figures", self.figures)
        return type(self)(data.pop("name"), figures, **{k: v for k, v in data.items() if k != "figures"})

    @property
    def id(self) -> str:
        """The army's id when it is played: its name in lower case with dashes."""
        import re

        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") or "army"

    def to_yaml(self) -> str:
        """The army as an army file holds it."""
        return yaml.safe_dump(self.model_dump(mode="json", exclude_none=True), sort_keys=False)

    def save(self, path: str | Path) -> Path:
        """Write the army file (for `clix duel` and the other commands); return its path."""
        path = Path(path)
        path.write_text(self.to_yaml(), encoding="utf-8")
        return path

    def __repr__(self) -> str:
        figures = [entry.figure for entry in self.figures]
        return f"Army({self.name!r}, {figures!r}, build_total={self.build_total})"

    __str__ = __repr__
