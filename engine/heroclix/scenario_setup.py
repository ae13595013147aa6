"""A scenario's `setup:` block (an extension of ../shared/scenario-format-heroclix.md, docs/data-formats.md): forces
built and set up by the rules (HX-BUILD, HX-SETUP, HX-CHAR-06) instead of characters placed by hand. The forces are
checked as the library checks a force file (HX-BUILD-08: every breach, each naming its rule); a legal pair is set up
on the scenario's map by `setup.new_game`'s own steps, with the scenario's forced dice (the 2d6 for the first
player, HX-SETUP-01), the order the object pile is drawn in, and the players' choices the block names (starting
areas, objects, where each character stands, how each flier flies). A choice the rules do not offer refuses the
setup, naming the rule; a choice the block does not name gets the first the rules offer."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from clix.engine.core import decisions
from clix.engine.core.dice import DiceExhausted
from clix.engine.core.files.problems import LineMap
from clix.engine.core.pending import D6, Chance, Decision
from clix.engine.core.pieces import Player
from clix.engine.heroclix import card_checks, library, setup
from clix.engine.heroclix.card_files import Condition, Feat
from clix.engine.heroclix.card_play import SAMPLE
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.geometries import geometry_of
from clix.engine.heroclix.maps import HeroMap
from clix.engine.heroclix.ruleset import load
from clix.engine.heroclix.scenario_setup_format import ScenarioSetup
from clix.engine.heroclix.scenario_steps import ScenarioError
from clix.engine.heroclix.state import HeroState
from pydantic import ValidationError

FROM_SCENARIO = "a scenario's setup block"
FIELD_RULES = {
    "build_total": "HX-BUILD-01",
    "characters": "HX-BUILD-01",
    "battlefield_condition": "HX-BUILD-05",
    "objects": "HX-SETUP-05",
    "feats": "HX-FEAT-02",
}
"""The rule a force field's format breach breaks (a force is what a setup block tests, so its breaches are refusals,
not an invalid file)."""
CHOICE_RULES = {"area": "HX-SETUP-03", "object": "HX-SETUP-07", "place": "HX-SETUP-08",
                "place rear": "HX-SPECIAL-04", "flight": "HX-SETUP-09"}  # fmt: skip
"""The rule that limits each choice of the setup: an answer outside what it offers is refused under it."""


class SetupRefused(Exception):
    """The rules refused the forces or a choice; the message has one reason a line, each naming its rule."""


def set_up(block: ScenarioSetup, layout: HeroMap, dice: list[int]) -> tuple[HeroState, dict[str, int]]:
    """The position `block` sets up on `layout` with `dice`, ready for the first player's turn, and the characters'
    uids by their names in the scenario. SetupRefused when the rules refuse it; ScenarioError for a block that is
    not valid (a character or card definition, a name `place` or `flight` gives that is no character)."""
    known = _library(block)
    forces, breaches = [], []
    for index, raw in enumerate(block.forces):
        data = {"ruleset": library.RULESET_NAME, "name": f"player {index + 1}", "provenance": FROM_SCENARIO, **raw}
        try:
            forces.append(library.Force.model_validate(data))
        except ValidationError as exc:
            for error in exc.errors():
                where = ".".join(str(p) for p in error["loc"])
                rule = FIELD_RULES.get(str(error["loc"][0]), "HX-BUILD-08") if error["loc"] else "HX-BUILD-08"
                breaches.append(f"forces[{index}].{where}: {error['msg']} ({rule})")
    if breaches:
        raise SetupRefused("\n".join(breaches))
    for index, force in enumerate(forces):
        known.forces[f"player-{index + 1}"] = force
        known.lines[("forces", f"player-{index + 1}")] = (f"forces[{index}]", LineMap())
    problems = library.force_problems(known)  # HX-BUILD-08: every breach at once
    if problems:
        raise SetupRefused("\n".join(f"{p.file}.{p.field}: {p.message}" for p in problems))
    names = block.names()
    everyone = {n for mine in names for n in mine}
    stray = sorted({*block.place, *block.flight} - everyone)
    if stray:
        raise ScenarioError(f"setup: place and flight name characters of the forces; {', '.join(stray)} is none")
    board = library.MapFile.model_validate(
        {**layout.model_dump(), "ruleset": library.RULESET_NAME, "id": "scenario-map", "name": "scenario map",
         "provenance": FROM_SCENARIO}
    )  # fmt: skip
    if len(board.starting_areas()) < len(forces):
        raise SetupRefused(f"the map has {len(board.starting_areas())} starting areas for {len(forces)} forces "
                           "(HX-SETUP-03 OPEN)")  # fmt: skip
    build_total = max(force.build_total for force in forces)
    spent = [sum(known.characters[c].points for c in f.characters) + card_checks.feat_points(known, f) for f in forces]
    players = [Player(n, n, spent[n - 1], force.name) for n, force in enumerate(forces, 1)]
    state = HeroState(geometry_of(board), None, players, build_total=build_total, ruleset=load())
    driver = _Driver(block, names, dice, state)
    driver.run(known, tuple(forces), board)
    placed = sorted(state.monsters, key=lambda c: (c.owner, int(c.label.split(":")[1])))
    ids = {name: figure.uid for name, figure in zip([n for m in names for n in m], placed, strict=True)}
    _unasked(block, driver, state, ids)
    return state, ids


def _unasked(block: ScenarioSetup, driver: _Driver, state: HeroState, ids: dict[str, int]) -> None:
    """A choice the block names that the rules never put (it had one option, or none) must be what the rules
    did; else the setup is refused under the rule that left no choice."""
    got = dict(next(dict(e.detail)["areas"] for e in state.log if e.kind == EventKind.SETUP_DONE))
    for player, area in sorted(block.areas.items()):
        if player not in driver.asked_areas and got.get(player) != area:
            raise SetupRefused(f"areas: player {player} chooses starting area {area}: the rules do not offer it, "
                               f"it gets area {got.get(player)} ({CHOICE_RULES['area']})")  # fmt: skip
    for name, mode in sorted(block.flight.items()):
        if name not in driver.asked_flight and state.flight.get(ids[name]) != mode:
            raise SetupRefused(f"flight: {name} {mode}: the rules do not offer it ({CHOICE_RULES['flight']})")


def _library(block: ScenarioSetup) -> library.Library:
    """The sample library's characters and cards with the block's own (which replace the sample's of the same name),
    and no force."""
    sample = _sample()
    known = library.Library(
        characters=dict(sample.characters), teams=dict(sample.teams), feats=dict(sample.feats),
        conditions=dict(sample.conditions),
    )  # fmt: skip
    try:
        for index, raw in enumerate(block.characters):
            data = {"ruleset": library.RULESET_NAME, "provenance": FROM_SCENARIO, **raw}
            where = f"setup.characters[{index}]"
            character = library.Character.model_validate(data)
            known.characters[character.id] = character
        for index, raw in enumerate(block.feats):
            where = f"setup.feats[{index}]"
            feat = Feat.model_validate({"provenance": FROM_SCENARIO, **raw})
            known.feats[feat.name] = feat
        for index, raw in enumerate(block.conditions):
            where = f"setup.conditions[{index}]"
            condition = Condition.model_validate({"provenance": FROM_SCENARIO, **raw})
            known.conditions[condition.name] = condition
    except ValidationError as exc:
        first = exc.errors()[0]
        field = "".join(f".{part}" for part in first["loc"])
        raise ScenarioError(f"{where}{field}: {first['msg']}") from exc
    return known


@cache
def _sample() -> library.Library:
    found, _ = library.load_library([SAMPLE]) if SAMPLE.is_dir() else (library.Library(), [])
    return found


class _Driver:
    """Answers the setup's dice and choices from the block, as a game's driver would."""

    def __init__(self, block: ScenarioSetup, names: list[list[str]], dice: list[int], state: HeroState) -> None:
        self.block, self.names, self.dice, self.state = block, names, dice, state
        self.placed: dict[int, int] = {}  # characters placed so far, by player
        self.objects = list(block.objects)
        self.current = ""
        self.asked_areas: set[int] = set()
        self.asked_flight: set[str] = set()

    def run(self, known: library.Library, forces: tuple[library.Force, ...], board: library.MapFile) -> None:
        state = self.state
        try:
            decisions.perform(state, setup._set_up, (known, forces, board))
        except setup.SetupError as exc:
            raise SetupRefused(str(exc)) from exc
        while state.waiting is not None:
            waiting = state.waiting
            try:
                if isinstance(waiting, Chance):
                    decisions.resolve(state, self._chance(waiting))
                else:
                    decisions.answer(state, self._answer(waiting))
            except setup.SetupError as exc:
                raise SetupRefused(str(exc)) from exc
        if self.objects:
            raise SetupRefused(f"objects: {len(self.objects)} squares listed for tokens never drawn (HX-SETUP-05)")

    def _chance(self, chance: Chance) -> Any:
        if chance.kind == D6:
            if not self.dice:
                raise DiceExhausted("the setup asked for a die but no more were listed")
            return self.dice.pop(0)
        pile = self.block.pile if self.block.pile is not None else list(range(chance.size))
        if sorted(pile) != list(range(chance.size)):
            raise ScenarioError(f"setup.pile: an order of the {chance.size} object tokens, 0 to {chance.size - 1}")
        return pile

    def _answer(self, question: Decision) -> int:
        geometry = self.state.geometry
        options = list(question.options)
        wanted: Any = None
        if question.kind == "area":
            wanted = self.block.areas.get(question.player)
            self.asked_areas.add(question.player)
            what = f"areas: player {question.player} chooses starting area {wanted}"
        elif question.kind == "object":
            wanted = tuple(self.objects.pop(0)) if self.objects else None
            what = f"objects: a {question.subject} object at {list(wanted or ())}"
        else:
            if question.kind == "place":
                count = self.placed.get(question.player, 0)
                self.placed[question.player] = count + 1
                self.current = self.names[question.player - 1][count]
            spot = self.block.place.get(self.current)
            if question.kind == "flight":
                wanted = self.block.flight.get(self.current)
                self.asked_flight.add(self.current)
                what = f"flight: {self.current} {wanted}"
            else:
                squares = [] if spot is None else [spot[0], spot[1]] if isinstance(spot[0], tuple) else [spot]
                rear = question.kind == "place rear"
                if squares and not (rear and len(squares) == 1):  # a rear half with one square named: the default
                    x, y = cast(tuple[int, int], squares[-1] if rear else squares[0])
                    if not (0 <= x < geometry.width and 0 <= y < geometry.height):
                        raise ScenarioError(f"setup.place: {self.current} at [{x}, {y}] is off the map")
                    wanted = geometry.index(x, y)
                what = f"place: {self.current} at {list(geometry.xy(wanted)) if wanted is not None else []}"
        if wanted is None:
            return 0
        if wanted not in options:
            raise SetupRefused(f"{what}: the rules do not offer it ({CHOICE_RULES.get(question.kind, 'HX-SETUP')})")
        return options.index(wanted)


__all__ = ["SetupRefused", "set_up"]
