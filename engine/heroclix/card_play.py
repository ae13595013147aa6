"""Putting team abilities, feats and battlefield conditions in play: from a scenario's `feats:`, `battlefield:` and
characters' `team:` (the definitions come from the sample library, rosters/heroclix, under the library a command
loads), or from the forces of a game being set up (HX-SETUP-04: the conditions revealed at step 3); and the steps
that declare about them (`copy`, `cancel`, `use`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from clix.engine.core.files.problems import did_you_mean
from clix.engine.heroclix import battlefield, teams
from clix.engine.heroclix.card_checks import assignable
from clix.engine.heroclix.card_files import Cards, Condition, Feat, FeatCard, TeamAbility, copy_of
from clix.engine.heroclix.cards import modified_values
from clix.engine.heroclix.declarations import Copy, Declared
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.library import Force, Library, MapFile, load_library
from clix.engine.heroclix.maps import HeroMap
from clix.engine.heroclix.powers import POWERS, power_named
from clix.engine.heroclix.scenario_format import Scenario
from clix.engine.heroclix.scenario_steps import ScenarioError
from clix.engine.heroclix.state import Action, HeroState

SAMPLE = Path(__file__).resolve().parents[2] / "rosters" / "heroclix"
"""The sample library, whose team abilities, feats and conditions a scenario may always name."""


@cache
def _sample() -> Library:
    library, _ = load_library([SAMPLE]) if SAMPLE.is_dir() else (Library(), [])
    return library


class Definitions:
    """The team abilities, feats and conditions a scenario may name: the sample library's, under those of the
    library the command loaded (`library`, if any)."""

    def __init__(self, library: Any = None) -> None:
        sample = _sample()
        given = library if isinstance(library, Library) else Library()
        self.teams: dict[str, TeamAbility] = {**sample.teams, **given.teams}
        self.feats: dict[str, Feat] = {**sample.feats, **given.feats}
        self.conditions: dict[str, Condition] = {**sample.conditions, **given.conditions}


def needed(scenario: Scenario) -> bool:
    """Whether the scenario names any card: a feat, a condition, a team symbol, or a step that cancels."""
    named = scenario.feats or scenario.battlefield or any(c.team for c in scenario.characters)
    return bool(named or any("cancel" in step for step in scenario.steps))


def definitions_for(scenario: Scenario, library: Any = None) -> Definitions | None:
    """What the scenario may name, when it names any card (`needed`)."""
    return Definitions(library) if needed(scenario) else None


def scenario_terrain(scenario: Scenario, known: Definitions | None) -> HeroMap:
    """The scenario's map as its battlefield conditions make its terrain (HX-BFC-01)."""
    if known is None:
        return scenario.map
    return battlefield.terrain(scenario.map, [_condition(known, spec.condition) for spec in scenario.battlefield])


def _condition(known: Definitions, name: str) -> Condition:
    if name not in known.conditions:
        raise ScenarioError(f"battlefield: {did_you_mean('battlefield condition', name, known.conditions)}")
    return known.conditions[name]


def scenario_cards(state: HeroState, scenario: Scenario, ids: dict[str, int], known: Definitions) -> None:
    """Put the scenario's cards in play (contract extension, docs/data-formats.md): each feat assigned to
    characters of one player that can meet its prerequisites (HX-FEAT-02..04), at most one condition a player
    (HX-BFC-02, checked by the format), the wild cards' copies; the feats' points added to each force's total."""
    cards = Cards(teams=dict(known.teams), symbols={ids[c.id]: c.team for c in scenario.characters if c.team})
    specs = {c.id: c for c in scenario.characters}
    wild_cards = {name for name, ability in known.teams.items() if ability.wild_card}
    played: list[FeatCard] = []
    for index, spec in enumerate(scenario.feats):
        where = f"feats[{index}]"
        if spec.feat not in known.feats:
            raise ScenarioError(f"{where}: {did_you_mean('feat', spec.feat, known.feats)}")
        feat = known.feats[spec.feat]
        named = spec.named()
        unknown = [n for n in named if n not in ids]
        if unknown:
            raise ScenarioError(f"{where}: no character has the id '{unknown[0]}'")
        if feat.characters == 0:
            if named or spec.player is None:
                raise ScenarioError(f"{where}: {feat.name} is chosen for no character: give its 'player' (HX-FEAT-02)")
            holders = tuple(ids[c.id] for c in scenario.characters if c.player == spec.player)
            owner = spec.player
        else:
            if not named:
                raise ScenarioError(f"{where}: {feat.name} is assigned to 'character' or 'characters' (HX-FEAT-02)")
            if len(named) > feat.characters and not feat.per_character:
                raise ScenarioError(f"{where}: {feat.name} is assigned to at most {feat.characters} (HX-FEAT-02)")
            owners = {specs[n].player for n in named}
            if len(owners) > 1 or (spec.player is not None and owners != {spec.player}):
                raise ScenarioError(f"{where}: a feat is assigned to characters of its own force only (HX-FEAT-04)")
            for name in named:
                why = assignable(_Dial(specs[name]), feat.requires, wild_cards)
                if why:
                    raise ScenarioError(f"{where}: {feat.name} cannot be assigned: {why} (HX-FEAT-03)")
            holders = tuple(ids[n] for n in named)
            owner = owners.pop()
        twice = [u for u in holders if any(u in c.holders and c.feat.name == feat.name for c in played)]
        if feat.characters and (twice or len(set(holders)) < len(holders)):
            raise ScenarioError(f"{where}: a character never has two copies of {feat.name} (HX-FEAT-04)")
        played.append(FeatCard(feat, owner, holders))
    cards.feats = tuple(played)
    cards.conditions = tuple((spec.player, _condition(known, spec.condition)) for spec in scenario.battlefield)
    cards.modified = modified_values(cards)
    for one in scenario.characters:
        if one.copying is not None:
            cards.copying[ids[one.id]] = one.copying
    state.cards = cards
    for player in state.players:
        player.army_points += sum(c.feat.cost(len(c.holders)) for c in played if c.owner == player.number)
    for one in scenario.characters:
        if one.copying is not None:
            why = _copy_problem(state, ids[one.id], one.copying)
            if why:
                raise ScenarioError(f"characters: {one.id}: copying {one.copying}: {why}")


def _copy_problem(state: HeroState, uid: int, name: str) -> str:
    return teams.copy_problem(state, state.monsters[uid], name)


class _Dial:
    """A scenario character seen as a library character, for the prerequisite check (HX-FEAT-03)."""

    def __init__(self, spec: Any) -> None:
        self.id = spec.id
        self.team = spec.team
        self.range = spec.range
        self.speed_mode = spec.speed_mode
        self.powers = [power_named(p) for p in spec.powers if power_named(p) in POWERS]
        self.dial = spec.dial


def step_action(
    step: dict[str, Any], ids: dict[str, int], known: Definitions | None, action_of: Callable[[dict[str, Any]], Action]
) -> Action | Declared | Copy:
    """The action of a step with what it declares about cards: a `copy` step (`{copy: W, team: NAME}`, a wild
    card's choice, HX-TEAM-07), or an action step's `cancel` of team abilities and feats and `use` of a feat;
    `action_of` reads the rest of the step (the contract's own keys)."""
    if "copy" in step:
        if not isinstance(step.get("team"), str):
            raise ScenarioError("a copy step names the wild card and the 'team' whose ability it uses")
        name = step["copy"]
        if not isinstance(name, str) or name not in ids:
            raise ScenarioError(f"no character has the id {name!r}; ids: {', '.join(ids)}")
        return Copy(ids[name], step["team"])
    if known is None:
        return action_of(step)
    rest = dict(step)
    canceled = rest.pop("cancel", None) or []
    if not isinstance(canceled, list):
        raise ScenarioError("cancel: a list of the names of powers, team abilities or feats")
    names = [str(n) for n in canceled]
    cards = tuple(n for n in names if n in known.teams or n in known.feats)
    powers = [n for n in names if n not in cards]
    if powers:
        rest["cancel"] = powers
    use = ""
    if "power" not in rest and str(rest.get("use")) in known.feats:
        use = str(rest.pop("use"))
    action = action_of(rest)
    return Declared(action, cards, use) if cards or use else action


def _card_figures(force: Force, uids: list[int]) -> dict[tuple[str, int], int]:
    """Each (id, copy) of a force's characters, with the uid of its figure in the game."""
    found: dict[tuple[str, int], int] = {}
    for index, name in enumerate(force.characters):
        found[(name, force.characters[: index + 1].count(name))] = uids[index]
    return found


def reveal(state: HeroState, library: Library, forces: tuple[Force, ...], layout: MapFile) -> MapFile:
    """Setup step 3 (HX-SETUP-04, HX-BFC-02): the conditions the forces bring, revealed all at once; the map as
    they make its terrain (the map the game is played on from now)."""
    conditions = tuple(
        (n, library.conditions[f.battlefield_condition])
        for n, f in enumerate(forces, 1)
        if f.battlefield_condition in library.conditions
    )
    if not (conditions or library.teams or any(f.feats for f in forces)):
        return layout
    state.cards = Cards(teams=dict(library.teams), conditions=conditions)
    battlefield.reveal(state)
    changed = battlefield.terrain(layout, [c for _, c in conditions])
    if changed is not layout:
        state.geometry = geometry_of(changed)
    return changed


def assign(state: HeroState, library: Library, forces: tuple[Force, ...]) -> None:
    """Once the characters are placed: their team symbols, and the feats assigned while the forces were built
    (a feat chosen for no character is held by the whole force)."""
    cards: Cards | None = state.cards
    if cards is None:
        return
    played: list[FeatCard] = []
    for number, force in enumerate(forces, 1):
        uids = [c.uid for c in state.monsters if c.owner == number]
        figures = _card_figures(force, uids)
        for uid, name in zip(uids, force.characters, strict=True):
            team = library.characters[name].team
            if team:
                cards.symbols[uid] = team
        for choice in force.feats:
            feat = library.feats.get(choice.feat)
            if feat is None:
                continue
            slots = [copy_of(name, force.characters) for name in choice.named()]
            holders = tuple(figures[s] for s in slots if s is not None) if feat.characters else tuple(uids)
            played.append(FeatCard(feat, number, holders))
    cards.feats = tuple(played)
    cards.modified = modified_values(cards)  # the cards are dealt: what they may modify is known
