"""Checks that span files: what an army names must exist, and the army must be legal (HC-SETUP, HC-PLOT)."""

from __future__ import annotations

from collections import Counter

from clix.engine.core.files.problems import Problem, did_you_mean
from clix.engine.horrorclix import ruleset as horrorclix
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.roster.models import Army

VICTIMS_PER_GAME = 12  # HC-VICTIM-02
CRYPT_SIZE = 6  # HC-PLOT-01, HC-PLOT-14
LISTING = "`clix roster list` shows every name"


def reference_problems(roster: Roster, files: set[str] | None = None) -> list[Problem]:
    """Problems of every army in `roster`, and powers or effects the engine does not play (only those
    from `files`, when given)."""
    problems: list[Problem] = implementation_problems(roster, files)
    for key, army in roster.armies.items():
        source = roster.sources[("armies", key)]
        if files is None or source.file in files:
            problems.extend(source.problem(loc, message) for loc, message in army_problems(army, roster))
    for army, source in roster.unplayable.values():
        # read without its unknown fields (one may be a misspelt crypt): only the names it gives are checked
        if files is None or source.file in files:
            problems.extend(source.problem(loc, m) for loc, m in army_problems(army, roster) if len(loc) > 1)
    return problems


def implementation_problems(roster: Roster, files: set[str] | None = None) -> list[Problem]:
    """Powers and plot-twist effects named in the roster that the engine registers but does not play yet
    (issue 4: `clix roster check` fails on any of them)."""
    ruleset = horrorclix.load()
    played_effects = ruleset.registries[horrorclix.PLOT_EFFECT_HANDLERS]
    problems: list[Problem] = []
    for fid, figure in roster.figures.items():
        source = roster.sources[("figures", fid)]
        if files is not None and source.file not in files:
            continue
        for side_name, side in figure.card.sides().items():
            for index, power in enumerate(side.powers):
                if power.name not in ruleset.handlers:
                    problems.append(
                        source.problem(
                            ("card", side_name, "powers", index, "name"),
                            f"the engine does not implement the power '{power.name}' yet; results would ignore it",
                        )
                    )
    for name, card in roster.plot_twists.items():
        source = roster.sources[("plot_twists", name)]
        if (files is None or source.file in files) and card.effect.name not in played_effects:
            problems.append(
                source.problem(
                    ("effect", "name"),
                    f"the engine does not implement the plot-twist "
                    f"effect '{card.effect.name}' yet; results would ignore it",
                )
            )
    return problems


def army_problems(army: Army, roster: Roster) -> list[tuple[tuple[str | int, ...], str]]:
    """Every way `army` breaks the army-building rules, as (field location, message)."""
    problems: list[tuple[tuple[str | int, ...], str]] = []
    points = 0
    copies: Counter[str] = Counter()
    extra_cards = 0
    grants_known = True
    for index, entry in enumerate(army.figures):
        figure = roster.figures.get(entry.figure)
        if figure is None:
            if not roster.known("figures", entry.figure):
                grants_known = False  # the figure's own file has problems, reported there
            else:
                problems.append((("figures", index), did_you_mean("figure", entry.figure, roster.figures, LISTING)))
            continue
        points += figure.points
        copies[figure.id] += 1
        extra_cards += figure.grants_plot_twists
        if figure.rank == "demo":
            problems.append(
                (
                    ("figures", index),
                    f"'{figure.id}' is a demo figure, not legal in regular play (HC-SETUP-01); remove it",
                )
            )
        if figure.unique and copies[figure.id] == 2:
            problems.append(
                (
                    ("figures", index),
                    f"'{figure.id}' is {figure.rank.replace('_', ' ')}: at most one "
                    "copy per army (HC-SETUP-01); remove the extra copy",
                )
            )
        if figure.card.crossroads and entry.side is None:
            problems.append(
                (
                    ("figures", index),
                    f"'{figure.id}' has a crossroads card; choose its side with "
                    f"{{figure: {figure.id}, side: start_a}} or start_b (HC-CARD-07)",
                )
            )
        if not figure.card.crossroads and entry.side is not None:
            problems.append((("figures", index, "side"), f"'{figure.id}' has no crossroads card; remove 'side'"))
    if points > army.build_total:
        problems.append(
            (
                ("figures",),
                f"the figures cost {points} points, over the build total of "
                f"{army.build_total} (HC-SETUP-02); drop {points - army.build_total} points or raise "
                "build_total by 100",
            )
        )
    problems.extend(_crypt_problems(army, roster, CRYPT_SIZE + extra_cards if grants_known else None))
    problems.extend(_victim_problems(army, roster))
    return problems


def _crypt_problems(army: Army, roster: Roster, size: int | None) -> list[tuple[tuple[str | int, ...], str]]:
    """Problems with the crypt; `size` is None when an invalid figure file leaves its grants unknown."""
    problems: list[tuple[tuple[str | int, ...], str]] = []
    subplots = []
    for index, name in enumerate(army.crypt):
        card = roster.plot_twists.get(name)
        if card is None:
            if roster.known("plot_twists", name):
                problems.append((("crypt", index), did_you_mean("plot twist", name, roster.plot_twists, LISTING)))
        elif card.kind == "subplot":
            subplots.append(name)
        if name in army.crypt[:index]:
            problems.append(
                (
                    ("crypt", index),
                    f"'{name}' is in the crypt twice; no two cards in a crypt may be the same (HC-PLOT-01)",
                )
            )
    if size is not None and len(army.crypt) != size:
        granted = f" (six plus {size - CRYPT_SIZE} granted by its figures)" if size > CRYPT_SIZE else ""
        problems.append(
            (
                ("crypt",),
                f"the crypt holds {len(army.crypt)} plot twists; it must hold exactly "
                f"{size}{granted} (HC-PLOT-01, HC-PLOT-03)",
            )
        )
    if len(subplots) > 1:
        problems.append(
            (
                ("crypt",),
                f"the crypt holds {len(subplots)} subplots ({', '.join(subplots)}); at most "
                "one is allowed (HC-PLOT-04)",
            )
        )
    return problems


def _victim_problems(army: Army, roster: Roster) -> list[tuple[tuple[str | int, ...], str]]:
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for index, name in enumerate(army.victims):
        if name not in roster.victims and roster.known("victims", name):
            problems.append((("victims", index), did_you_mean("victim archetype", name, roster.victims, LISTING)))
    share = VICTIMS_PER_GAME // army.players
    if len(army.victims) != share:
        problems.append(
            (
                ("victims",),
                f"the army contributes {len(army.victims)} victims; in a {army.players}-player "
                f"game each player contributes {share} of the twelve (HC-VICTIM-02)",
            )
        )
    return problems
