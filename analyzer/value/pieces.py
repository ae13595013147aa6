"""A ruleset's armies as `clix value` and `clix build` handle them: the figures (HeroClix: characters) a random or
built army may field, their costs, drawing a random near-full army, taking a figure out, checking a built army
legal and the matchup of two armies given as data. The value model, its design, the swap test and the build race
are written once against this; `pieces_of` gives a ruleset's pieces from its library's data (a HorrorClix
`Roster`, a HeroClix `Library`), so both rulesets run the same code path.

HorrorClix (`HorrorPieces`): armies of figures with a crypt of plot twists, victims and objects; random armies by
engine/horrorclix/armybuilder.py. HeroClix (`HeroPieces`): forces of characters (no crypt: `cards` is empty),
random and built forces by engine/heroclix/armybuilder.py (HX-BUILD-01/03/04); games with nobody defeated are draws
(`HERO_TIES`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.experiment import given_matchup
from clix.analyzer.play.runner import Matchup
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET, ruleset_named

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster
    from clix.engine.horrorclix.roster.models import Army

HERO_TIES = "draw"
"""How a HeroClix design game ends on equal VP or with nobody defeated: a draw. HX-END-11 gives such a game to the
force built with fewer points, a rule against points by construction: in games with few knockouts it, not the
characters, would decide most games and turn the cost line upside down."""


def builder(ruleset: str = DEFAULT_RULESET) -> ModuleType:
    """The army (force) builder of the ruleset called `ruleset`, reached through the core's registry
    (`Ruleset.part`): engine/horrorclix/armybuilder.py, engine/heroclix/armybuilder.py."""
    return ruleset_named(ruleset).part("armies")


def pool_roster(roster: Roster, pool: Sequence[str], budget: int) -> Roster:
    """The roster whose figures are the pool's (all legal ones when the pool is empty); a ClixError names an
    unknown figure or a pool with no figure that fits the budget."""
    for name in pool:
        if name not in roster.figures:
            raise ClixError(
                "--pool: " + did_you_mean("figure", name, roster.figures, "`clix roster list` shows every figure")
            )
    figures = {k: f for k, f in roster.figures.items() if (not pool or k in pool) and f.rank != "demo"}
    if not any(f.points <= budget for f in figures.values()):
        raise ClixError(f"--budget {budget}: no figure of the pool costs {budget} points or less; raise --budget")
    return type(roster)(
        figures=figures,
        plot_twists=roster.plot_twists,
        victims=roster.victims,
        maps=roster.maps,
        armies=roster.armies,
        sources=roster.sources,
    )


def full_army(roster: Roster, budget: int, rng: np.random.Generator) -> Army:
    """A random legal army that spends its budget: `random_army`'s draw, then figures added (each chosen at
    random among those that still fit, a unique figure once) until none fits, so it spends more than the budget
    minus the cheapest figure it could still take. Cards granted by an added figure join the crypt (never a
    second subplot)."""
    army: Army = builder().random_army(roster, budget, rng)
    figures = list(army.figures)
    legal = sorted((f for f in roster.figures.values() if f.rank != "demo"), key=lambda f: f.id)
    spent = sum(roster.figures[e.figure].points for e in figures)
    uniques = {e.figure for e in figures if roster.figures[e.figure].unique}
    crypt = list(army.crypt)
    while True:
        fits = [f for f in legal if f.points <= budget - spent and f.id not in uniques]
        if not fits:
            break
        figure, entry = builder().draw_figure(fits, rng)
        figures.append(entry)
        spent += figure.points
        if figure.unique:
            uniques.add(figure.id)
        if figure.grants_plot_twists:
            free = sorted(c.name for c in roster.plot_twists.values() if c.kind != "subplot" and c.name not in crypt)
            crypt += [str(n) for n in rng.choice(free, size=min(figure.grants_plot_twists, len(free)), replace=False)]
    return army.model_copy(update={"figures": figures, "crypt": crypt})


class HorrorPieces:
    """HorrorClix's armies (a `Roster`)."""

    ruleset = DEFAULT_RULESET
    army_kind = "army"
    figure_word = "figure"
    ties = "break"
    has_cards = True
    exclusive = False
    """Whether figures may exclude each other beyond a unique figure once (HeroClix's archenemies)."""

    tables = ("figures", "armies")
    """Where the library data keeps its figures and its armies."""
    members = "figures"
    """The army's field listing its figures."""

    def __init__(self, roster: Any) -> None:
        self.data = roster

    @property
    def figures(self) -> Mapping[str, Any]:
        """Every figure of the library by id (demo figures too)."""
        return getattr(self.data, self.tables[0])  # type: ignore[no-any-return]

    @property
    def armies(self) -> Mapping[str, Any]:
        """The library's armies by id."""
        return getattr(self.data, self.tables[1])  # type: ignore[no-any-return]

    def playable(self, fid: str) -> bool:
        """Whether an army may field the figure (a demo figure may not, HC-SETUP-01)."""
        return bool(self.figures[fid].rank != "demo")

    def not_fielded(self, fid: str) -> str | None:
        """Why no army may field the figure, or None."""
        return None if self.playable(fid) else "a demo figure, not legal in an army"

    def points(self, fid: str) -> int:
        return int(self.figures[fid].points)

    def contents(self, army: Any) -> list[str]:
        """The army's figures by id, a figure once per copy."""
        return [e.figure for e in army.figures]

    def cards(self, army: Any) -> list[str]:
        return list(army.crypt)

    def fits(self, figure: Any, chosen: Sequence[str]) -> bool:
        """Whether `figure` may join an army fielding `chosen` (a unique figure once)."""
        return not (figure.unique and figure.id in chosen)

    def pooled(self, pool: Sequence[str], budget: int) -> HorrorPieces:
        """The pieces whose figures are the pool's (`pool_roster`)."""
        return HorrorPieces(pool_roster(self.data, pool, budget))

    def random_army(self, budget: int, rng: np.random.Generator) -> Any:
        """A random near-full legal army (`full_army`)."""
        return full_army(self.data, budget, rng)

    def removable(self, army: Any) -> list[int]:
        """The figures a handicap variant may leave out: never one that grants plot twists."""
        return [k for k, e in enumerate(army.figures) if not self.figures[e.figure].grants_plot_twists]

    def without(self, army: Any, drop: int, name: str) -> Any:
        """A copy of `army` named `name` without its figure number `drop`."""
        kept = [e for k, e in enumerate(getattr(army, self.members)) if k != drop]
        return army.model_copy(update={"name": name, self.members: kept})

    def legal(self, name: str, budget: int, figures: Sequence[str], like: Any, provenance: str) -> Any:
        """An army of `figures` with `like`'s crypt, victims and objects (a dict of those for a build), checked
        legal; a ClixError naming the breach if not."""
        armies = builder(self.ruleset)
        extras = (
            like if isinstance(like, dict) else {"crypt": like.crypt, "victims": like.victims, "objects": like.objects}
        )
        try:
            return armies.legal_army(
                self.data,
                name,
                budget,
                [self.figures[f] for f in figures],
                extras["crypt"],
                extras["victims"],
                extras["objects"],
                provenance,
            )
        except armies.IllegalArmy as exc:
            raise ClixError(str(exc)) from None

    def matchup(self, *where: Any, ties: str | None = None) -> Matchup:
        """`given_matchup(library, names, armies, map_name, styles, turns)` in the pieces' ruleset: two armies,
        each a library army or one of `armies` (given as data); `ties` (default the pieces' own): how equal VP end
        ("break" by the rules, or "draw")."""
        library, names, armies, map_name, styles, turns = where
        return given_matchup(library, names, armies, map_name, styles, turns, ties or self.ties, self.ruleset)

    def with_armies(self, armies: Mapping[str, Any]) -> HorrorPieces:
        """These pieces with `armies` added to the library's (replacing any of the same name)."""
        return HorrorPieces(builder(self.ruleset).with_armies(self.data, armies))

    def view(self, armies: Mapping[str, Any]) -> Any:
        """The data `play_cells` reads, with `armies` added (their figures' rows need them)."""
        return self.with_armies(armies).data

    def version(self) -> str:
        from clix.engine import RULESET_VERSION

        return RULESET_VERSION


class HeroPieces(HorrorPieces):
    """HeroClix's forces (a `Library`): characters, no cards, draws when nobody is defeated."""

    ruleset = "heroclix-2005"
    army_kind = "force"
    figure_word = "character"
    ties = HERO_TIES
    has_cards = False
    exclusive = True
    tables = ("characters", "forces")
    members = "characters"

    def playable(self, fid: str) -> bool:
        return True

    def contents(self, army: Any) -> list[str]:
        return list(army.characters)

    def cards(self, army: Any) -> list[str]:
        return []

    def fits(self, figure: Any, chosen: Sequence[str]) -> bool:
        """A Unique once (HX-BUILD-03), no archenemy of one chosen (HX-BUILD-04)."""
        return bool(builder(self.ruleset).fits([figure], [self.figures[c] for c in chosen], figure.points))

    def pooled(self, pool: Sequence[str], budget: int) -> HeroPieces:
        """The pieces whose characters are the pool's (all when it is empty)."""
        for name in pool:
            if name not in self.figures:
                raise ClixError("--pool: " + did_you_mean("character", name, self.figures))
        if not pool:
            return self
        kept = {k: c for k, c in self.figures.items() if k in pool}
        if not any(c.points <= budget for c in kept.values()):
            raise ClixError(
                f"--budget {budget}: no character of the pool costs {budget} points or less; raise --budget"
            )
        return HeroPieces(dataclasses.replace(self.data, characters=kept))

    def random_army(self, budget: int, rng: np.random.Generator) -> Any:
        """A random legal force spending its build total (engine/heroclix/armybuilder.py `random_force`)."""
        forces = builder(self.ruleset)
        try:
            return forces.random_force(self.data, budget, rng)
        except forces.IllegalForce as exc:
            raise ClixError(f"--budget {budget}: {exc}") from None

    def removable(self, army: Any) -> list[int]:
        return list(range(len(army.characters)))

    def legal(self, name: str, budget: int, figures: Sequence[str], like: Any, provenance: str) -> Any:
        """A force of `figures` with `like`'s objects (a force, or a dict with "objects"), checked legal
        (HX-BUILD-01/03/04); a ClixError naming the breach if not."""
        forces = builder(self.ruleset)
        objects = (like.get("objects") if isinstance(like, dict) else like.objects) or ("light", "light", "heavy")
        characters = [self.figures[f] for f in figures]
        try:
            return forces.legal_force(self.data, name, budget, characters, objects, provenance)
        except forces.IllegalForce as exc:
            raise ClixError(str(exc)) from None

    def with_armies(self, armies: Mapping[str, Any]) -> HorrorPieces:
        return HeroPieces(dataclasses.replace(self.data, forces={**self.data.forces, **armies}))

    def view(self, armies: Mapping[str, Any]) -> Any:
        """The library as it is: a game reads given forces from its matchup."""
        return self.data

    def version(self) -> str:
        return ruleset_named(self.ruleset).version


Pieces = HorrorPieces
"""Either ruleset's pieces (`HeroPieces` is a `HorrorPieces` with HeroClix's answers)."""


def pieces_of(data: Any) -> HorrorPieces:
    """The pieces of a ruleset's library data: a HorrorClix `Roster`, a HeroClix `Library`, or pieces already."""
    if isinstance(data, HorrorPieces):
        return data
    hero = ruleset_named(HeroPieces.ruleset).part("models")
    return HeroPieces(data) if isinstance(data, hero.Library) else HorrorPieces(data)
