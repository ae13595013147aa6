"""Random legal armies from a roster, for conformance runs over many figures."""

from __future__ import annotations

from typing import Literal, cast

import numpy as np
from clix.engine.horrorclix.legality import CRYPT_SIZE, VICTIMS_PER_GAME
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.roster.models import Army, ArmyEntry, Figure


def random_army(roster: Roster, build_total: int, rng: np.random.Generator, players: int = 2) -> Army:
    """A legal army: figures drawn until nothing more fits, a crypt of distinct cards with at most one
    subplot, and this army's share of the victims (HC-SETUP-01/-02, HC-PLOT-01/-04, HC-VICTIM-02)."""
    legal = sorted((f for f in roster.figures.values() if f.rank != "demo"), key=lambda f: f.id)
    chosen: list[ArmyEntry] = []
    spent = 0
    uniques: set[str] = set()
    extra = 0
    while True:
        fits = [f for f in legal if f.points <= build_total - spent and f.id not in uniques]
        if not fits or (chosen and rng.random() < 0.15):
            break
        figure, entry = draw_figure(fits, rng)
        chosen.append(entry)
        spent += figure.points
        extra += figure.grants_plot_twists
        if figure.unique:
            uniques.add(figure.id)
    cards = sorted(roster.plot_twists.values(), key=lambda c: c.name)
    subplots = [c.name for c in cards if c.kind == "subplot"]
    others = [c.name for c in cards if c.kind != "subplot"]
    size = CRYPT_SIZE + extra
    crypt = [str(n) for n in rng.choice(others, size=size - 1, replace=False)]
    crypt.append(
        str(subplots[int(rng.integers(len(subplots)))])
        if rng.random() < 0.5
        else next(n for n in others if n not in crypt)
    )
    names = sorted(roster.victims)
    victims = [str(n) for n in rng.choice(names, size=VICTIMS_PER_GAME // players)]
    objects = [str(o) for o in rng.choice(["tombstone", "tree", "portal"], size=int(rng.integers(3)))]
    return Army(
        name=f"random {build_total}",
        build_total=build_total,
        players=players,
        figures=chosen,
        crypt=crypt,
        victims=victims,
        objects=cast(list[Literal["tombstone", "tree", "portal"]], objects),
        provenance="random army from the sample roster",
    )


def draw_figure(fits: list[Figure], rng: np.random.Generator) -> tuple[Figure, ArmyEntry]:
    """One of `fits` drawn at random, with a random starting side when its card is a crossroads (HC-SETUP-01)."""
    figure = fits[int(rng.integers(len(fits)))]
    side: Literal["start_a", "start_b"] | None = None
    if figure.card.crossroads:
        side = "start_b" if int(rng.integers(2)) else "start_a"
    return figure, ArmyEntry(figure=figure.id, side=side)
