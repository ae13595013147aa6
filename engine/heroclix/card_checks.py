"""The checks of force building that concern feats and battlefield conditions (HX-BUILD-05, -08, HX-FEAT-02..04,
HX-BFC-02), each breach one problem on its own line, and of the card files themselves (a feat's team
prerequisite names a team that exists)."""

from __future__ import annotations

from typing import Any

from clix.engine.core.dial import parse_click
from clix.engine.core.files.problems import LineMap, Problem, did_you_mean
from clix.engine.heroclix.card_files import Feat, FeatChoice, Prerequisites, copy_of
from clix.engine.heroclix.powers import power_named


def assignable(character: Any, needs: Prerequisites, wild_cards: set[str]) -> str:
    """Why `character` (a library character) may not be assigned a feat that needs `needs` ("" if it may): the
    team symbol printed on its base (a wild card's does not stand for another, HX-TEAM-11), its range and speed
    mode, and the powers and values together on one click of its dial, not necessarily the starting one
    (HX-FEAT-03)."""
    if needs.team is not None and character.team != needs.team:
        copied = " (a wild card does not qualify, HX-TEAM-11)" if character.team in wild_cards else ""
        return f"{character.id} does not carry the {needs.team} team symbol{copied}"
    if needs.range is not None and character.range < needs.range:
        return f"{character.id} has range {character.range}, under {needs.range}"
    if needs.speed_mode is not None and character.speed_mode != needs.speed_mode:
        return f"{character.id} has the {character.speed_mode} speed mode, not {needs.speed_mode}"
    always = {power_named(p) for p in character.powers}
    for entry in character.dial:
        text = entry if isinstance(entry, str) else entry.values
        click = parse_click(text)
        if click.values is None:
            continue
        powers = always | {power_named(p) for p in ([] if isinstance(entry, str) else entry.powers)}
        shown = {slot: click.value(slot).number for slot in needs.values()}
        if set(needs.powers) <= powers and all((shown[s] or 0) >= v for s, v in needs.values().items()):
            return ""
    return f"no click of {character.id}'s dial shows all of its prerequisites at once"


def feat_points(library: Any, force: Any) -> int:
    """What the force's known feats cost (HX-FEAT-01, HX-BUILD-02)."""
    return sum(library.feats[c.feat].cost(len(c.named())) for c in force.feats if c.feat in library.feats)


def force_card_problems(library: Any, force: Any, file: str, lines: LineMap) -> list[Problem]:
    """Every breach of the force's feats and battlefield condition: unknown names, a feat assigned where its text
    does not allow, to a character outside the force or not meeting its prerequisites, twice to one character."""
    problems: list[Problem] = []
    wild_cards = {name for name, ability in library.teams.items() if ability.wild_card}
    held: dict[tuple[str, tuple[str, int]], int] = {}
    for index, choice in enumerate(force.feats):
        where = f"feats[{index}]"

        def add(
            message: str, key: str = "feat", at: tuple[Any, ...] = (), where: str = where, index: int = index
        ) -> None:
            problems.append(Problem(file, lines.line(("feats", index, key, *at)), f"{where}.{key}", message))

        feat: Feat | None = library.feats.get(choice.feat)
        if feat is None:
            add(did_you_mean("feat", choice.feat, library.feats))
            continue
        key = "characters" if choice.characters else "character"
        wrong = _assignment(feat, choice)
        for problem in wrong:
            add(problem, key)
        for spot, name in enumerate([] if wrong else choice.named()):
            at = (spot,) if choice.characters else ()
            slot = copy_of(name, force.characters)
            if slot is None:
                add(f"the force has no character '{name}' (the second copy of an id is 'ID#2')", key, at)
                continue
            if (feat.name, slot) in held:
                add(f"{name} is assigned {feat.name} twice; a character never has two copies of a feat (HX-FEAT-04)",
                    key, at)  # fmt: skip
                continue
            held[(feat.name, slot)] = index
            why = (
                assignable(library.characters[slot[0]], feat.requires, wild_cards)
                if slot[0] in library.characters
                else ""
            )
            if why:
                add(f"{feat.name} cannot be assigned: {why} (HX-FEAT-02, -03)", key, at)
        if feat.characters == 0 and not wrong:
            known = [library.characters[c] for c in force.characters if c in library.characters]
            if known and all(assignable(c, feat.requires, wild_cards) for c in known):
                add(f"{feat.name} needs a character of the force that meets its prerequisites (HX-FEAT-02)")
    condition = force.battlefield_condition
    if condition is not None and condition not in library.conditions:
        problems.append(Problem(file, lines.line(("battlefield_condition",)), "battlefield_condition",
                                did_you_mean("battlefield condition", condition, library.conditions)))  # fmt: skip
    return problems


def _assignment(feat: Feat, choice: FeatChoice) -> list[str]:
    """Why the feat may not be assigned to as many characters as `choice` names (HX-FEAT-02)."""
    named = choice.named()
    if feat.characters == 0 and named:
        return [f"{feat.name} is chosen for no character: name none (HX-FEAT-02)"]
    if feat.characters and not named:
        return [f"{feat.name} is assigned to characters: name 'character' (HX-FEAT-02)"]
    if not feat.per_character and len(named) > feat.characters:
        return [f"{feat.name} is assigned to at most {feat.characters} character(s), not {len(named)} (HX-FEAT-02)"]
    return []


def card_file_problems(library: Any) -> list[Problem]:
    """A feat's team prerequisite must name a team: one with an ability, or one a character carries."""
    problems: list[Problem] = []
    symbols = set(library.teams) | {c.team for c in library.characters.values() if c.team}
    for name, feat in library.feats.items():
        team = feat.requires.team
        if team is not None and team not in symbols:
            file, line = library.card_lines[("feats", name)]
            problems.append(Problem(file, line, "requires.team", did_you_mean("team", team, symbols)))
    return problems
