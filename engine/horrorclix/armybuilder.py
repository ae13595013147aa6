"""Armies made by clix rather than read from a file: random legal armies (conformance runs, `clix value`'s
design) and armies of chosen figures with their crypt fitted (`clix build`'s candidates, `clix value --swap`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Literal, cast

import numpy as np
from clix.engine.horrorclix.legality import CRYPT_SIZE, VICTIMS_PER_GAME, army_problems
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


class IllegalArmy(ValueError):
    """An army clix made breaks an army-building rule (the message names the army and the rule)."""


def with_armies(roster: Roster, armies: Mapping[str, Army]) -> Roster:
    """The roster with `armies` added to its armies (replacing any of the same name); the rest is shared."""
    return dataclasses.replace(roster, armies={**roster.armies, **armies})


def legal_army(
    roster: Roster,
    name: str,
    budget: int,
    figures: Sequence[Figure],
    crypt: Sequence[str],
    victims: Sequence[str],
    objects: Sequence[str] = (),
    provenance: str = "built by clix",
) -> Army:
    """An army of these figures (a crossroads card plays its first side), with the crypt cut or filled to the
    size its figures need (filled from the library's cards in name order), checked legal."""
    size = CRYPT_SIZE + sum(f.grants_plot_twists for f in figures)
    cards = list(dict.fromkeys(crypt))
    subplot = [c for c in cards if c in roster.plot_twists and roster.plot_twists[c].kind == "subplot"]
    while len(cards) > size:
        # drop normal cards from the end first, so the subplot stays
        drop = next((c for c in reversed(cards) if c not in subplot), cards[-1])
        cards.remove(drop)
    spare = [n for n in sorted(roster.plot_twists) if n not in cards and roster.plot_twists[n].kind != "subplot"]
    cards += spare[: size - len(cards)]
    army = Army(
        name=name,
        build_total=budget,
        figures=[
            ArmyEntry(figure=f.id, side="start_a" if f.card.crossroads else None) for f in sorted(figures, key=_order)
        ],
        crypt=cards,
        victims=list(victims),
        objects=cast(list[Literal["tombstone", "tree", "portal"]], list(objects)),
        provenance=provenance,
    )
    problems = army_problems(army, roster)
    if problems:
        raise IllegalArmy(f"army {name}: {problems[0][1]}")
    return army


def _order(figure: Figure) -> tuple[int, str]:
    return (-figure.points, figure.id)


def default_victims(roster: Roster, players: int = 2) -> list[str]:
    """The victims a built army brings: the ones the library's armies bring most often (then by name)."""
    count: dict[str, int] = {}
    for army in roster.armies.values():
        for victim in army.victims:
            count[victim] = count.get(victim, 0) + 1
    ranked = sorted(roster.victims, key=lambda v: (-count.get(v, 0), v))
    share = VICTIMS_PER_GAME // players
    return [ranked[i % len(ranked)] for i in range(share)] if ranked else []
