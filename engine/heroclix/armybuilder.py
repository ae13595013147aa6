"""HeroClix forces made by clix rather than read from a file (as engine/horrorclix/armybuilder.py makes armies):
random legal forces drawn from a library's characters (`clix value`'s design, conformance runs) and forces of
chosen characters checked legal (`clix build`'s candidates).

A force is legal by HX-BUILD-08 as the library's loader checks it (`library.force_problems`): its characters'
points at most the build total (HX-BUILD-01), at least one character, a Unique once (HX-BUILD-03), no two
archenemies (HX-BUILD-04). A random force brings no feat and no battlefield condition (both optional,
HX-BUILD-02, -05) and three object tokens (HX-SETUP-05)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, cast

import numpy as np
from clix.engine.heroclix.library import Character, Force, Library, archenemies

OBJECTS: tuple[Literal["light", "heavy"], ...] = ("light", "heavy")
TOKENS = 3
"""The object tokens a force brings (HX-SETUP-05)."""


class IllegalForce(ValueError):
    """A force clix made breaks a force-building rule (the message names the force and the rule)."""


def playable(library: Library) -> list[Character]:
    """The library's characters a random force may draw, by id (every one the library loaded: a refused one is
    not in it)."""
    return sorted(library.characters.values(), key=lambda c: c.id)


def fits(candidates: Sequence[Character], chosen: Sequence[Character], room: int) -> list[Character]:
    """The `candidates` that may join `chosen` with `room` points left: within the room, not a Unique already in
    (HX-BUILD-03), no archenemy of one in (HX-BUILD-04)."""
    ids = {c.id for c in chosen}
    return [
        c
        for c in candidates
        if c.points <= room and not (c.unique and c.id in ids) and not any(archenemies(c, other) for other in chosen)
    ]


def random_force(library: Library, build_total: int, rng: np.random.Generator, name: str | None = None) -> Force:
    """A legal force of `build_total` points: characters drawn at random (each equally likely among those that
    still fit) until none fits what is left, so it spends at least the build total minus its cheapest character
    that could still join; three object tokens at random. The same `rng` state gives the same force."""
    candidates = playable(library)
    if not candidates:
        raise IllegalForce("the library holds no HeroClix character to build a force from")
    chosen: list[Character] = []
    spent = 0
    while True:
        found = fits(candidates, chosen, build_total - spent)
        if not found:
            break
        pick = found[int(rng.integers(len(found)))]
        chosen.append(pick)
        spent += pick.points
    if not chosen:
        cheapest = min(c.points for c in candidates)
        raise IllegalForce(f"no character fits a build total of {build_total} (the cheapest costs {cheapest})")
    objects = [OBJECTS[int(i)] for i in rng.integers(len(OBJECTS), size=TOKENS)]
    return legal_force(
        library, name or f"random {build_total}", build_total, chosen, objects, "random force from the library"
    )


def legal_force(
    library: Library,
    name: str,
    build_total: int,
    characters: Sequence[Character],
    objects: Sequence[str] = ("light", "light", "heavy"),
    provenance: str = "built by clix",
) -> Force:
    """A force of these characters (dearest first, then by id), checked legal (`force_breaches`); IllegalForce
    naming the first breach if not."""
    force = Force(
        ruleset="heroclix-2005",
        name=name,
        build_total=build_total,
        characters=[c.id for c in sorted(characters, key=lambda c: (-c.points, c.id))],
        objects=cast(list[Literal["light", "heavy"]], list(objects)),
        provenance=provenance,
    )
    breaches = force_breaches(library, force)
    if breaches:
        raise IllegalForce(f"force {name}: {breaches[0]}")
    return force


def force_breaches(library: Library, force: Force) -> list[str]:
    """Every breach of HX-BUILD-08 by a force without feats: unknown characters, a total over the build total, a
    Unique twice, two archenemies (the loader's `force_problems`, for a force not read from a file)."""
    breaches = [f"no character has the id '{c}'" for c in force.characters if c not in library.characters]
    known = [library.characters[c] for c in force.characters if c in library.characters]
    total = sum(c.points for c in known)
    if not force.characters:
        breaches.append("a force needs at least one character (HX-BUILD-01)")
    if total > force.build_total:
        breaches.append(f"the characters cost {total} points, over the build total {force.build_total} (HX-BUILD-01)")
    ids = [c.id for c in known if c.unique]
    breaches += [
        f"'{c}' is Unique and may be in a force once (HX-BUILD-03)" for c in sorted(set(ids)) if ids.count(c) > 1
    ]
    members = sorted({c.id: c for c in known}.values(), key=lambda c: c.id)
    for i, one in enumerate(members):
        breaches += [
            f"{one.name} and {other.name} are archenemies and may not share a force (HX-BUILD-04)"
            for other in members[i + 1 :]
            if archenemies(one, other)
        ]
    return breaches


def force_points(library: Library, force: Force) -> int:
    """What a force's characters cost."""
    return sum(library.characters[c].points for c in force.characters if c in library.characters)
