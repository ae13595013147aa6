"""Horrified scenario files (`ruleset: horrified`; docs/scenario-format.md, its Horrified section): a small game
arranged by hand (who and what is where, the monster cards, the dice faces), steps taken by name, the decisions
answered by name, and what must hold after. `clix scenario run` plays them through the ruleset's `run_scenario`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from clix.engine.core import decisions
from clix.engine.core.dice import Dice, DiceExhausted, ForcedDice
from clix.engine.core.expect import events_in_order
from clix.engine.core.files.problems import InvalidFile, LineMap, Problem, from_validation_error, relative
from clix.engine.core.files.scenarios import ScenarioResult
from clix.engine.core.files.yaml_lines import YamlError, read_yaml
from clix.engine.core.pending import Decision
from clix.engine.horrified.components import Card
from clix.engine.horrified.matchups import components_at
from clix.engine.horrified.rules import (
    Action,
    Advance,
    Defeat,
    EndPhase,
    Guide,
    Move,
    PickUp,
    PlayPerk,
    Share,
    Special,
    legal_actions,
)
from clix.engine.horrified.rules import apply as apply_action
from clix.engine.horrified.setup import SetupError, new_game
from clix.engine.horrified.state import OFF_BOARD, HorrifiedState
from pydantic import BaseModel, ConfigDict, Field, ValidationError


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CardSpec(_Strict):
    """A monster card: `strike` symbols left to right, `event` none, villager or a monster (`kind` move or frenzy)."""

    strike: list[str] = Field(default_factory=list)
    moves: int = Field(default=1, ge=0)
    dice: int = Field(default=1, ge=0, le=6)
    items: int = Field(default=0, ge=0)
    event: str = "none"
    kind: str = "move"
    amount: int = Field(default=1, ge=1)
    villager: str | None = None
    at: str | None = None


class Setup(_Strict):
    monsters: list[str] = Field(min_length=1)
    heroes: list[str] = Field(min_length=1, max_length=4)
    terror: int | None = Field(default=None, ge=0)
    frenzied: str | None = None
    at: dict[str, str] = Field(default_factory=dict)
    """Where each hero or monster stands (by id): a location."""
    villagers: dict[str, str] = Field(default_factory=dict)
    items: dict[str, list[str]] = Field(default_factory=dict)
    """Items in a hero's hands: "red 3" (colour and strength; "red 3 @ barn" names the item's location too)."""
    ground: dict[str, list[str]] = Field(default_factory=dict)
    """Items lying at a location (each must be an item placed there)."""
    coffins: list[str] | None = None
    evidence: list[str] = Field(default_factory=list)
    progress: dict[str, int] = Field(default_factory=dict)
    """The Boat's X (creature) or a figure's humanity (frankenstein, bride) by monster id."""
    tablet: list[int] | None = None
    """The Mummy's scarab on each spot 0-6 (0 empty, negative face down)."""
    ingredients: list[int] = Field(default_factory=list)
    """The Wolf Man's spots filled, by their strength (a blue item of it is taken from the bag)."""
    cure: str | None = None
    """The hero holding the Cure."""
    holder: dict[str, str] = Field(default_factory=dict)
    """The hero holding the Soul sign (mummy) or the Hunted emblem (wolf-man)."""
    perks: dict[str, list[str]] = Field(default_factory=dict)
    cards: list[CardSpec] = Field(default_factory=list)
    dice: list[str] = Field(default_factory=list)
    """The faces the monster dice show, in order: power, hit, blank."""


class Expect(_Strict):
    terror: int | None = None
    at: dict[str, str] = Field(default_factory=dict)
    off_board: list[str] = Field(default_factory=list)
    villagers: dict[str, str] | None = None
    coffins: list[str] | None = None
    evidence: list[str] | None = None
    progress: dict[str, int] = Field(default_factory=dict)
    tablet: list[int] | None = None
    ingredients: list[int] | None = None
    cure: str | None = None
    """The hero holding the Cure ("nobody": none does)."""
    holder: dict[str, str] = Field(default_factory=dict)
    items: dict[str, list[str]] = Field(default_factory=dict)
    perks: dict[str, int] = Field(default_factory=dict)
    over: bool | None = None
    won: bool | None = None
    end_reason: str | None = None
    frenzied: str | None = None
    defeated: list[str] = Field(default_factory=list)
    active: int | None = None
    actions_left: int | None = None
    refused: bool = False
    """The last step was not a legal action (and was not taken)."""
    events: list[str] = Field(default_factory=list)
    """Logged event kinds that must appear, in this order."""


class Scenario(_Strict):
    ruleset: str
    name: str
    rules: list[str] = Field(min_length=1)
    setup: Setup
    steps: list[str | dict[str, Any]] = Field(default_factory=list)
    expect: Expect


class ScenarioError(ValueError):
    """A name in a scenario that the game does not know (the message says which and what there is)."""


def load_scenario(path: Path) -> tuple[Scenario, LineMap]:
    name = relative(path)
    try:
        data, lines, _ = read_yaml(path)
    except YamlError as exc:
        raise InvalidFile([Problem(name, exc.line, "", exc.message)]) from exc
    try:
        return Scenario.model_validate(data), lines
    except ValidationError as exc:
        raise InvalidFile(from_validation_error(name, exc, lines, Scenario)) from exc


def run_scenario(path: Path, library: Any = None) -> ScenarioResult:
    """Play one Horrified scenario file and check its expectations; an invalid file raises InvalidFile."""
    scenario, lines = load_scenario(path)
    file = relative(path)
    try:
        state = build_state(scenario.setup)
    except (ScenarioError, SetupError) as exc:
        raise InvalidFile([Problem(file, lines.line(("setup",)), "setup", str(exc))]) from exc
    result = ScenarioResult(file, scenario.name, list(scenario.rules))
    refused = False
    for index, step in enumerate(scenario.steps):
        where = f"steps[{index}]"
        try:
            if state.waiting is not None:
                answer(state, step)
                continue
            action = read_step(state, step)
        except ScenarioError as exc:
            raise InvalidFile([Problem(file, lines.line(("steps", index)), where, str(exc))]) from exc
        except DiceExhausted as exc:
            result.failures.append(f"{where}: {exc}")
            return result
        refused = action not in legal_actions(state)
        if refused:
            if index != len(scenario.steps) - 1 or not scenario.expect.refused:
                result.failures.append(f"{where}: {step} is not a legal action now")
                return result
            break
        try:
            apply_action(state, action, True)
        except DiceExhausted as exc:
            result.failures.append(f"{where}: {exc}")
            return result
    if state.waiting is not None:
        result.failures.append(f"the game still waits for a {state.waiting.kind} decision: answer it in the steps")
    if scenario.expect.refused and not refused:
        result.failures.append("expected the last step to be refused, and it was taken")
    result.failures.extend(check(state, scenario.expect))
    return result


# --- building the state ------------------------------------------------------------------------------


def build_state(setup: Setup) -> HorrifiedState:
    """The game `setup` describes: set up as usual, then emptied and arranged by hand."""
    components = components_at()
    state = new_game(components, setup.monsters, setup.heroes, Dice(np.random.default_rng(0)))
    for items in state.at.values():
        state.bag.extend(items)
    for hero in state.heroes:
        state.perk_deck.extend(hero.perks)
        hero.perks = []
    state.at, state.villagers = {}, {}
    if setup.terror is not None:
        state.terror = setup.terror
    if setup.frenzied is not None:
        _monster(state, setup.frenzied)
        state.frenzied = setup.frenzied
    for who, where in setup.at.items():
        _placed(state, who).pos = location(state, where)
    for name, where in setup.villagers.items():
        state.villagers[villager(state, name)] = location(state, where)
    for hero_id, specs in setup.items.items():
        hero = _hero(state, hero_id)
        for spec in specs:
            uid = _item(state, state.bag, spec)
            state.bag.remove(uid)
            hero.items.append(uid)
    for where, specs in setup.ground.items():
        at = location(state, where)
        for spec in specs:
            uid = _item(state, state.bag, f"{spec} @ {where}" if "@" not in spec else spec)
            state.bag.remove(uid)
            state.at.setdefault(at, []).append(uid)
    if setup.coffins is not None:
        _monster(state, "dracula").coffins = [location(state, c) for c in setup.coffins]
    for spot in setup.evidence:
        uid = _item(state, state.bag, f"any @ {spot}")
        state.bag.remove(uid)
        _monster(state, "invisible-man").mat[location(state, spot)] = uid
    for monster, value in setup.progress.items():
        _monster(state, monster).progress = value
    if setup.tablet is not None:
        _monster(state, "mummy").tablet = list(setup.tablet)
    wolf = state.piece("wolf-man")
    for strength in setup.ingredients:
        uid = _item(state, state.bag, f"blue {strength}")
        state.bag.remove(uid)
        spots = state.components.monsters["wolf-man"].task.strengths
        free = next((k for k, s in enumerate(spots) if s == strength and wolf and k not in wolf.mat), None)
        if wolf is None or free is None:
            raise ScenarioError(f"the Wolf Man has no empty spot of strength {strength} (spots {spots})")
        wolf.mat[free] = uid
    if setup.cure is not None:
        _hero(state, setup.cure).cure = True
    for monster, hero_id in setup.holder.items():
        _monster(state, monster).holder = _hero(state, hero_id).id
    for hero_id, names in setup.perks.items():
        for name in names:
            found = next((k for k in state.perk_deck if state.components.perks[k].id == name), None)
            if found is None:
                raise ScenarioError(f"no perk {name!r} left in the deck")
            state.perk_deck.remove(found)
            _hero(state, hero_id).perks.append(found)
    cards = tuple(_card(state, k, spec) for k, spec in enumerate(setup.cards))
    state.components = replace(state.components, cards=cards)
    state.deck = list(range(len(cards)))[::-1]
    state.played = []
    faces = state.components.faces
    for face in setup.dice:
        if face not in faces:
            raise ScenarioError(f"a die face is one of {', '.join(sorted(set(faces)))}, not {face!r}")
    state.dice = ForcedDice(faces.index(face) + 1 for face in setup.dice)
    state.origin, state.history = None, []  # copies re-run from the state as arranged
    return state


def location(state: HorrifiedState, name: str) -> int:
    names = state.components.board.names
    if name not in names:
        raise ScenarioError(f"no location is called {name!r}; the board has {', '.join(names)}")
    return names.index(name)


def villager(state: HorrifiedState, name: str) -> int:
    known = [v for v, _ in state.components.villagers]
    if name not in known:
        raise ScenarioError(f"no villager is called {name!r}; there are {', '.join(known)}")
    return known.index(name)


def _hero(state: HorrifiedState, name: str) -> Any:
    for hero in state.heroes:
        if hero.id == name:
            return hero
    raise ScenarioError(f"no hero {name!r} in this game; it has {', '.join(h.id for h in state.heroes)}")


def _monster(state: HorrifiedState, name: str) -> Any:
    piece = state.piece(name)
    if piece is None:
        raise ScenarioError(f"no monster {name!r} in this game; it has {', '.join(m.id for m in state.pieces)}")
    return piece


def _placed(state: HorrifiedState, name: str) -> Any:
    return _monster(state, name) if state.piece(name) is not None else _hero(state, name)


def _item(state: HorrifiedState, pool: list[int], spec: str) -> int:
    """An item of `pool` matching "colour strength [@ location]" ("any" for either)."""
    what, _, where = spec.partition("@")
    words = what.split()
    colour = words[0] if words else "any"
    strength = int(words[1]) if len(words) > 1 and words[1].isdigit() else None
    at = location(state, where.strip()) if where.strip() else None
    for uid in sorted(pool):
        item = state.item(uid)
        if (colour in ("any", item.colour)) and strength in (None, item.strength) and at in (None, item.location):
            return uid
    raise ScenarioError(f"no item {spec!r} is left (rosters/horrified/items.yaml says which there are)")


def _card(state: HorrifiedState, index: int, spec: CardSpec) -> Card:
    who = villager(state, spec.villager) if spec.villager else 0
    at = location(state, spec.at) if spec.at else 0
    kind = "villager" if spec.event == "villager" else spec.kind
    return Card(index, spec.items, spec.event, kind, spec.amount, who, at, tuple(spec.strike), spec.moves, spec.dice)


# --- steps and answers ---------------------------------------------------------------------------------


def read_step(state: HorrifiedState, step: str | dict[str, Any]) -> Action:
    """The action a step names: `end`, `pick up`, `share`, `move: LOC` (or `{to: LOC, with: [villagers]}`), `guide:
    {villager: V, to: LOC}`, `special: LOC` (or `{to: LOC, hero: H}`), `advance: {monster: M, at: LOC, spend: [..]}`,
    `defeat: {monster: M, spend: [..]}`, `perk: {holder: H, perk: P}`."""
    if isinstance(step, str):
        words: dict[str, Action] = {"end": EndPhase(), "pick up": PickUp(), "share": Share()}
        if step not in words:
            raise ScenarioError(f"unknown step {step!r}; a word step is end, pick up or share")
        return words[step]
    if len(step) != 1:
        raise ScenarioError("a step is one of move, guide, special, advance, defeat, perk, answer (one key)")
    (key, value), hero = next(iter(step.items())), state.current
    if key == "move":
        value = value if isinstance(value, dict) else {"to": value}
        group = tuple(sorted(villager(state, v) for v in value.get("with", [])))
        return Move(location(state, value["to"]), group)
    if key == "guide":
        return Guide(villager(state, value["villager"]), location(state, value["to"]))
    if key == "special":
        value = value if isinstance(value, dict) else {"to": value}
        other = state.heroes.index(_hero(state, value["hero"])) if "hero" in value else -1
        kind = state.components.heroes[hero.id].special
        return Special(kind, location(state, value["to"]), other)
    if key in ("advance", "defeat"):
        spend = tuple(sorted(_spend(state, hero, value.get("spend", []))))
        if key == "defeat":
            return Defeat(value["monster"], spend)
        spot = location(state, value["at"]) if "at" in value else hero.pos
        if value["monster"] == "invisible-man" and spend:
            spot = state.item(spend[0]).location
        elif value["monster"] in ("creature", "mummy", "wolf-man", "frankenstein", "bride"):
            # the Boat's X, the tablet moves, the Wolf Man's spot, or the humanity the item gives: as listed
            listed = [a for a in legal_actions(state) if isinstance(a, Advance) and a.monster == value["monster"]]
            spot = next((a.spot for a in listed if a.items == spend), -1)
        return Advance(value["monster"], spot, spend)
    if key == "perk":
        holder = _hero(state, value["holder"])
        found = next((p for p in holder.perks if state.components.perks[p].id == value["perk"]), None)
        if found is None:
            raise ScenarioError(f"{holder.id} holds no perk {value['perk']!r}")
        return PlayPerk(state.heroes.index(holder), found)
    raise ScenarioError(f"unknown step {key!r}; steps are move, guide, special, advance, defeat, perk, answer")


def _spend(state: HorrifiedState, hero: Any, specs: list[str]) -> list[int]:
    left = list(hero.items)
    chosen = []
    for spec in specs:
        uid = _item(state, left, spec)
        left.remove(uid)
        chosen.append(uid)
    return chosen


def answer(state: HorrifiedState, step: str | dict[str, Any]) -> None:
    """Answer the decision the game waits for with the option the step names (`answer: X`)."""
    waiting = state.waiting
    assert isinstance(waiting, Decision)  # a scenario's dice are its own: it never waits for a chance event
    if not isinstance(step, dict) or list(step) != ["answer"]:
        raise ScenarioError(f"the game waits for a {waiting.kind} decision; the next step is `answer: ...`")
    wanted = _option(state, waiting.kind, step["answer"])
    if wanted not in waiting.options:
        raise ScenarioError(f"{step['answer']!r} is not an option of the {waiting.kind} decision")
    decisions.answer(state, list(waiting.options).index(wanted))


def _option(state: HorrifiedState, kind: str, text: Any) -> Any:
    """The decision option a scenario's answer names (a location, an item, a hero or villager, "take the hit")."""
    text = str(text)
    if kind in ("closest", "path", "place", "push", "hurry", "steer"):
        return location(state, text)
    if kind == "scarab":
        return text
    if kind == "target":
        if any(h.id == text for h in state.heroes):
            return f"hero:{text}"
        return f"villager:{villager(state, text)}"
    if kind == "defend":
        if text == "take the hit":
            return text
        return _item(state, [u for h in state.heroes for u in h.items], text)
    if kind == "share":
        if text == "done":
            return text
        giver, _, rest = text.partition("->")
        taker, _, item = rest.partition(":")
        a, b = (state.heroes.index(_hero(state, n.strip())) for n in (giver, taker))
        if item.strip() == "cure":  # HF-M-WOL: the Cure is given by Share
            return (a, b, "cure")
        return (a, b, _item(state, state.heroes[a].items, item.strip()))
    raise ScenarioError(f"a {kind} decision cannot be answered by name yet")


# --- expectations ----------------------------------------------------------------------------------------


def check(state: HorrifiedState, expect: Expect) -> list[str]:
    """Every expectation that does not hold, one line each."""
    bad: list[str] = []
    names = state.components.board.names

    def want(label: str, got: Any, wanted: Any) -> None:
        if wanted is not None and got != wanted:
            bad.append(f"{label}: expected {wanted!r}, got {got!r}")

    want("terror", state.terror, expect.terror)
    for who, where in expect.at.items():
        pos = _placed(state, who).pos
        want(f"at.{who}", names[pos] if pos != OFF_BOARD else "off the board", where)
    for who in expect.off_board:
        want(f"off_board.{who}", _hero(state, who).pos, OFF_BOARD)
    if expect.villagers is not None:
        board = {state.components.villagers[v][0]: names[at] for v, at in state.villagers.items()}
        want("villagers", board, expect.villagers)
    if expect.coffins is not None:
        piece = state.piece("dracula")
        want("coffins", sorted(names[c] for c in piece.coffins) if piece else [], sorted(expect.coffins))
    if expect.evidence is not None:
        piece = state.piece("invisible-man")
        want("evidence", sorted(names[s] for s in piece.mat) if piece else [], sorted(expect.evidence))
    for monster, value in expect.progress.items():
        piece = state.piece(monster)
        want(f"progress.{monster}", piece.progress if piece else None, value)
    if expect.tablet is not None:
        piece = state.piece("mummy")
        want("tablet", piece.tablet if piece else None, expect.tablet)
    if expect.ingredients is not None:
        piece = state.piece("wolf-man")
        got = sorted(state.item(u).strength for u in piece.mat.values()) if piece else None
        want("ingredients", got, sorted(expect.ingredients))
    if expect.cure is not None:
        want("cure", next((h.id for h in state.heroes if h.cure), "nobody"), expect.cure)
    for monster, hero_id in expect.holder.items():
        piece = state.piece(monster)
        want(f"holder.{monster}", piece.holder if piece else None, hero_id)
    for hero_id, specs in expect.items.items():
        got = sorted(f"{state.item(u).colour} {state.item(u).strength}" for u in _hero(state, hero_id).items)
        want(f"items.{hero_id}", got, sorted(specs))
    for hero_id, count in expect.perks.items():
        want(f"perks.{hero_id}", len(_hero(state, hero_id).perks), count)
    want("over", state.over, expect.over)
    if expect.won is not None:
        want("won", state.winner == 1, expect.won)
    want("end_reason", state.end_reason, expect.end_reason)
    want("frenzied", state.frenzied, expect.frenzied)
    for monster in expect.defeated:
        want(f"defeated.{monster}", state.piece(monster) is None, True)
    want("active", state.active, expect.active)
    want("actions_left", state.actions_left, expect.actions_left)
    out_of_order = events_in_order([event.kind for event in state.log], expect.events)
    return [*bad, out_of_order] if out_of_order else bad
