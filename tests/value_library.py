"""Small synthetic roster libraries for the `clix value` and `clix build` tests: a few sample figures copied
under new ids, some with a changed dial or cost, with the sample plot twists, victims and graveyard map."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

ROSTERS = Path(__file__).resolve().parent.parent / "rosters" / "horrorclix"
ARMY = {
    "build_total": 100,
    "crypt": ["Trip", "Bad Luck", "Tricky Tricky Monster", "Look Left Dodge Right", "Fire Axe", "Broad Daylight"],
    "victims": ["Jock", "Cheerleader", "Pizza Guy", "Boyfriend", "Counselor", "Survivor"],
    "provenance": "test army",
}


def stronger(click: str, attack: int, defense: int, damage: int) -> str:
    """A dial click with its attack, defense and damage raised (a killed click stays as it is)."""
    parts = click.split()
    if len(parts) != 4:
        return click
    for slot, amount in ((1, attack), (2, defense), (3, damage)):
        parts[slot] = re.sub(r"^\d+", lambda m, a=amount: str(min(30, int(m.group()) + a)), parts[slot])
    return " ".join(parts)


def add_figure(
    root: Path, source: str, new_id: str, points: int | None = None, boost: tuple[int, int, int] = (0, 0, 0)
) -> None:
    """Copy the sample figure `source` as `new_id`, with another cost and a dial raised by `boost`."""
    data = yaml.safe_load((ROSTERS / "figures" / f"{source}.yaml").read_text())
    data["id"] = new_id
    data["name"] = new_id.replace("-", " ").title()
    if points is not None:
        data["points"] = points
    data["dial"] = [stronger(c, *boost) for c in data["dial"]]
    data.pop("cabal", None)
    (root / "figures").mkdir(parents=True, exist_ok=True)
    (root / "figures" / f"{new_id}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


def add_army(root: Path, army_id: str, figures: list[str]) -> Path:
    """A legal 100-point army of `figures` (the sample crypt and victims of Butcher Shop)."""
    (root / "armies").mkdir(parents=True, exist_ok=True)
    path = root / "armies" / f"{army_id}.yaml"
    path.write_text(yaml.safe_dump({"name": army_id.replace("-", " ").title(), **ARMY, "figures": figures}))
    return path


def base_library(root: Path) -> Path:
    """The shared parts: the sample plot twists, victims and the graveyard map."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROSTERS / "plot_twists.yaml", root / "plot_twists.yaml")
    shutil.copy(ROSTERS / "victims.yaml", root / "victims.yaml")
    (root / "maps").mkdir(exist_ok=True)
    shutil.copy(ROSTERS / "maps" / "graveyard.yaml", root / "maps" / "graveyard.yaml")
    return root


def value_library(root: Path) -> Path:
    """Five figures: a brawler, its twin under another id, a strictly better copy at the same cost, and two
    cheap fillers; one army."""
    base_library(root)
    add_figure(root, "meatlocker-butcher-r", "brawler", 40)
    add_figure(root, "meatlocker-butcher-r", "brawler-twin", 40)
    add_figure(root, "meatlocker-butcher-r", "brawler-plus", 40, boost=(3, 3, 2))
    add_figure(root, "crypt-rat-swarm-r", "rat", 20)
    add_figure(root, "shuffling-postman-r", "postman", 30)
    add_army(root, "brawlers", ["brawler", "brawler-twin", "rat"])
    return root


def planted_library(root: Path) -> Path:
    """A champion (50 points, a far better dial), a dud of the same cost and a weak rat: the best 100-point
    build is two champions. The field is one army of duds and rats."""
    base_library(root)
    add_figure(root, "meatlocker-butcher-v", "champion", 50, boost=(3, 3, 2))
    add_figure(root, "crypt-rat-swarm-r", "dud", 50)
    add_figure(root, "crypt-rat-swarm-r", "rat", 25)
    add_army(root, "dud-rats", ["dud", "rat", "rat"])
    add_army(root, "two-duds", ["dud", "dud"])
    return root
