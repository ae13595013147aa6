"""Running a heroclix-2005 scenario file: the position it describes, its steps played with its forced dice, and its
expectations checked (../shared/scenario-format-heroclix.md). What the engine does not play yet is refused by name
(an invalid file), never played as nothing."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, cast

from clix.engine.core.board import side_edge, wall_edges
from clix.engine.core.dial import Click, parse_click
from clix.engine.core.dice import DiceExhausted, ForcedDice
from clix.engine.core.expect import events_in_order
from clix.engine.core.files.problems import InvalidFile, Problem
from clix.engine.core.files.scenarios import ScenarioResult
from clix.engine.core.geometry import Geometry
from clix.engine.core.pieces import Figure, Player, stats_from_dial
from clix.engine.heroclix import card_play, double_base, movement, rules, scoring
from clix.engine.heroclix.area_attacks import AREA_USES
from clix.engine.heroclix.maps import HeroMap
from clix.engine.heroclix.movement_powers import settle_flight
from clix.engine.heroclix.objects import SUPER_STRENGTH
from clix.engine.heroclix.powers import FLURRY, POWERS, power_named
from clix.engine.heroclix.ruleset import load
from clix.engine.heroclix.scenario_answers import Answers
from clix.engine.heroclix.scenario_format import Expect, Scenario, ScenarioCharacter, load_scenario
from clix.engine.heroclix.scenario_setup import SetupRefused, set_up
from clix.engine.heroclix.scenario_setup_format import Refused, ScenarioSetup
from clix.engine.heroclix.scenario_steps import NOT_YET, ScenarioError, free_attack, power_action, raze
from clix.engine.heroclix.state import (
    DIRECTIONS,
    HOVERING,
    KNOCKBACK,
    PUSHING,
    Action,
    Close,
    EndTurn,
    HeroState,
    Move,
    Ranged,
    Throw,
)


def run_scenario(path: Path, library: Any = None) -> ScenarioResult:
    """Run one heroclix-2005 scenario file; an invalid one (or one naming what is not played yet) raises
    InvalidFile. `library` is unused until HeroClix has a roster library."""
    scenario = load_scenario(path)
    result = ScenarioResult(str(path), scenario.name, list(scenario.rules))
    try:
        if scenario.setup is not None:  # HX-BUILD, HX-SETUP: an extension of the contract
            known: Any = card_play.Definitions(library)
            built = set_up_scenario(result, scenario)
            if built is None:
                return result
            state, ids = built
        else:
            known = card_play.definitions_for(scenario, library)
            state, ids = build_state(scenario, known)
    except ScenarioError as exc:
        raise InvalidFile([Problem(str(path), 0, "", str(exc))]) from exc
    refused_at: int | None = None
    reason = ""
    try:
        flying: tuple[str, str] | None = None
        for index, step in enumerate(scenario.steps):
            try:
                if "fly" in step:
                    flying = _fly(step, scenario.steps[index + 1 : index + 2])
                    continue
                read = partial(step_action, state, ids=ids, mode=flying[1] if flying else None)
                action = card_play.step_action(step, ids, known, read)
                answers = Answers(step, ids)
                flying = None
            except ScenarioError as exc:
                raise InvalidFile([Problem(str(path), 0, f"steps[{index}]", str(exc))]) from exc
            reason = rules.why_not(state, action)
            saved = state.copy() if answers and not reason else state  # refused whole if an answer is not a choice
            if not reason:
                rules.apply(state, action, listed=True)
                reason = answers.settle(state)
            if reason:
                state, refused_at = saved, index
                break
    except DiceExhausted as exc:
        result.failures.append(f"dice: {exc}")
        return result
    _compare(result, scenario.expect, state, ids, refused_at, reason)
    return result


def set_up_scenario(result: ScenarioResult, scenario: Scenario) -> tuple[HeroState, dict[str, int]] | None:
    """The position a `setup:` block sets up (`scenario_setup`), its dice taken from the scenario's first; None
    when the rules refused it, as expected or not (`result` then says whether that was expected)."""
    block = cast(ScenarioSetup, scenario.setup)
    dice = list(scenario.dice)
    wanted = block.expect
    try:
        state, ids = set_up(block, scenario.map, dice)
    except SetupRefused as exc:
        reason = str(exc)
        if not isinstance(wanted, Refused):
            result.failures.append(f"setup was refused: {reason}")
        else:
            result.failures.extend(f"setup: refused, but not under {rule}: {reason}" for rule in wanted.rules()
                                   if rule not in reason)  # fmt: skip
            if wanted.reason_contains and wanted.reason_contains.lower() not in reason.lower():
                result.failures.append(f"setup: reason_contains: {wanted.reason_contains!r} not in {reason!r}")
        if len(dice) != (scenario.expect.dice_left or 0):
            result.failures.append(
                f"dice_left: expected {scenario.expect.dice_left or 0} unused dice, {len(dice)} were left"
            )
        return None
    except DiceExhausted as exc:
        accepted = f"expected refused under {', '.join(wanted.rules())}, but the rules accepted the forces and " if (
            isinstance(wanted, Refused)) else ""  # fmt: skip
        result.failures.append(f"setup: {accepted}{exc}")
        return None
    if isinstance(wanted, Refused):
        result.failures.append(f"setup: expected refused under {', '.join(wanted.rules())}, but the rules accepted it")
        return None
    state.dice = ForcedDice(dice)
    return state, ids


def build_state(scenario: Scenario, known: Any = None) -> tuple[HeroState, dict[str, int]]:
    """The position a scenario describes, ready for the active player's next action; the characters' uids by id.
    `known`: the team abilities, feats and conditions it may name (`card_play.Definitions`; the sample's if None)."""
    known = known or card_play.definitions_for(scenario)
    layout = card_play.scenario_terrain(scenario, known)
    geometry = Geometry(layout)
    players = sorted({c.player for c in scenario.characters})
    state = HeroState(
        geometry,
        ForcedDice(list(scenario.dice)),
        [Player(p, scenario.sides.get(p, p)) for p in players],  # allied players share a side (HX-END-04)
        build_total=scenario.build_total,
        turn_limit=scenario.turn_limit,
        active=scenario.active_player,
        turn=scenario.turn,
        ruleset=load(),
    )
    ids: dict[str, int] = {}
    taken: dict[int, str] = {}
    for uid, spec in enumerate(scenario.characters):
        squares: list[int] = []
        for x, y in spec.squares():  # HX-SPECIAL-02: a double-base character's two squares, its front first
            if not layout.inside(x, y):
                raise ScenarioError(f"characters: {spec.id} at [{x}, {y}] is off the map")
            square = geometry.index(x, y)
            if square in taken:
                raise ScenarioError(f"characters: {spec.id} and {taken[square]} share [{x}, {y}] (HX-MOVE-06)")
            if spec.flight == "soaring" and geometry.indoor[geometry.index(x, y)]:
                raise ScenarioError(
                    f"characters: {spec.id} soars in an indoor square at [{x}, {y}] (HX-MOVE-18, HX-SETUP-09)"
                )
            if layout.printed(x, y) == "blocking" and spec.flight != "soaring":  # HX-MOVE-15 OPEN: soaring may
                raise ScenarioError(f"characters: {spec.id} stands on blocking terrain at [{x}, {y}] (HX-TERRAIN-11)")
            taken[square] = spec.id
            squares.append(square)
        figure = _character(uid, spec, squares[0])
        state.monsters.append(figure)
        ids[spec.id] = uid
        if spec.speed_mode == "wing":
            state.flight[uid] = spec.flight or HOVERING
        if spec.holding is not None:
            state.holding[uid] = spec.holding
        if spec.size == double_base.DOUBLE_BASE:
            state.rears[uid] = squares[1]
            if double_base.base_problem(state, figure):  # HX-SPECIAL-02..04 (crossing a base placed before it)
                raise ScenarioError(f"characters: {double_base.base_problem(state, figure)}")
        elif spec.size != "standard":
            state.sizes[uid] = spec.size
    state.transporters = frozenset(ids[spec.id] for spec in scenario.characters if spec.transporter)
    for figure in state.monsters:  # HX-POWER-04: a flier showing Earthbound/Neutralized is grounded
        settle_flight(state, figure)
    for player in state.players:  # a force's total is its characters' points (contract section 4)
        player.army_points = sum(c.points for c in scenario.characters if c.player == player.number)
    pairs: dict[int, set[int]] = {uid: set() for uid in ids.values()}
    for spec in scenario.characters:  # archenemies are each other's (HX-BUILD-04): one side may list the pair
        unknown = [a for a in spec.archenemies if a not in ids]
        if unknown:
            raise ScenarioError(f"characters: {spec.id}'s archenemies name no character: {', '.join(unknown)}")
        for other in spec.archenemies:
            pairs[ids[spec.id]].add(ids[other])
            pairs[ids[other]].add(ids[spec.id])
    state.archenemies = {uid: frozenset(rivals) for uid, rivals in pairs.items() if rivals}
    if known is not None:  # HX-TEAM, HX-FEAT, HX-BFC: an extension of the contract
        card_play.scenario_cards(state, scenario, ids, known)
    if scenario.active_player not in players:
        raise ScenarioError(f"active_player: player {scenario.active_player} has no character")
    state.game_scenario = scenario.game_scenario or ""  # HX-END-03, HX-SCEN-01
    at = players.index(scenario.active_player)
    for before in range(1, scenario.turn):  # the turns before this one, the last by the player before the active one
        earlier = players[(at - before) % len(players)]
        state.turns_taken[earlier] = state.turns_taken.get(earlier, 0) + 1
    rules.begin_turn(state, effects=False)
    state.actions_left -= sum(1 for c in state.monsters if c.acted and c.controller == state.active)
    return state, ids


def _character(uid: int, spec: ScenarioCharacter, square: int) -> Figure:
    if spec.flight is not None and spec.speed_mode != "wing":
        raise ScenarioError(f"characters: {spec.id}: only a character with speed_mode wing flies (HX-MOVE-12)")
    entries = scoring.bystander_dial(str(spec.dial[0])) if spec.bystander else spec.dial  # HX-CHAR-10: no dial
    everywhere = [power_named(name) for name in spec.powers]
    per_click = [[power_named(p) for p in entry.powers] if not isinstance(entry, str) else [] for entry in entries]
    unplayed = [name for name in [*everywhere, *(p for click in per_click for p in click)] if name not in POWERS]
    if unplayed:
        raise ScenarioError(
            f"characters: {spec.id}: the power {unplayed[0]} {NOT_YET} (clix plays the 48 powers of the 2005 card)"
        )
    dial = [
        _click(spec.id, index, entry if isinstance(entry, str) else entry.values) for index, entry in enumerate(entries)
    ]
    if spec.start >= len(dial) or dial[spec.start].killed:
        raise ScenarioError(f"characters: {spec.id}: start {spec.start} is not a click with values on its dial")
    click = spec.start if spec.click is None else spec.click
    if click >= len(dial) or dial[click].killed:
        raise ScenarioError(f"characters: {spec.id}: click {click} is not a click with values on its dial")
    stats = stats_from_dial(
        spec.id, dial, start=spec.start, range_=spec.range, bolts=spec.bolts, speed_mode=spec.speed_mode,
        points=spec.points,
    )  # fmt: skip
    showing: tuple[dict[str, dict[str, object]], ...] = tuple(
        {name: {} for name in [*everywhere, *extra]} for extra in per_click
    )
    stats = replace(stats, powers={"start": showing})
    if spec.holding is not None and SUPER_STRENGTH not in showing[click]:
        raise ScenarioError(f"characters: {spec.id} holds an object without Super Strength (HX-OBJECT-02)")
    figure = Figure(uid, spec.id, stats, spec.player, spec.player, square, click, "start", spec.start)
    figure.tokens = spec.tokens
    figure.acted = spec.acted_this_turn
    return figure


def _click(character: str, index: int, text: str) -> Click:
    try:
        click = parse_click(text)
    except ValueError as exc:
        raise ScenarioError(f"characters: {character}: dial[{index}]: {exc}") from exc
    if click.hourglass:
        raise ScenarioError(f"characters: {character}: dial[{index}]: HeroClix dials have no hourglass 'h'")
    if click.values is not None and any(v.colour for v in click.values):
        raise ScenarioError(f"characters: {character}: dial[{index}]: HeroClix powers are named, not coloured")
    return click


def _fly(step: dict[str, Any], following: list[dict[str, Any]]) -> tuple[str, str]:
    """A `fly` step: the flier and the mode it moves in by the `move` step right after it (contract section 5)."""
    mode = step.get("mode")
    if mode not in ("hovering", "soaring"):
        raise ScenarioError("a fly step names its 'mode': hovering or soaring")
    if not following or following[0].get("move") != step["fly"]:
        raise ScenarioError(f"a fly step stands right before the move step of the same character ({step['fly']})")
    return str(step["fly"]), str(mode)


def step_action(state: HeroState, step: dict[str, Any], ids: dict[str, int], mode: str | None = None) -> Action:
    """The action a step describes (contract section 5), in flight mode `mode` when a fly step came before it;
    ScenarioError for what is not played yet."""
    if "cancel" in step:
        raise ScenarioError(f"'cancel': canceling powers {NOT_YET}")
    used = power_named(str(step.get("use", "")))
    attacks = ("close" in step or "ranged" in step) and "destroy" not in step
    if "use" in step and "power" not in step and not (attacks and used in POWERS):
        raise ScenarioError(f"'use': the power {step['use']!r} activated by a move or an attack {NOT_YET}")
    use = "" if used == FLURRY else used
    if "end_turn" in step:
        return EndTurn()
    if "from" in step:  # a double-base character's first square (HX-SPECIAL-04; scenario_format checks the keys)
        step = {**step, "path": [step["from"], *(step["path"] or [])]}
    geometry = state.geometry

    def uid(name: object) -> int:
        if not isinstance(name, str) or name not in ids:
            raise ScenarioError(f"no character has the id {name!r}; ids: {', '.join(ids)}")
        return ids[name]

    def square(spot: object) -> int:
        if not (isinstance(spot, (list, tuple)) and len(spot) == 2 and all(isinstance(v, int) for v in spot)):
            raise ScenarioError(f"{spot!r} is not a square [x, y]")
        x, y = spot
        if not (0 <= x < geometry.width and 0 <= y < geometry.height):
            raise ScenarioError(f"[{x}, {y}] is off the map")
        return geometry.index(x, y)

    knockback = tuple((uid(name), str(way)) for name, way in (step.get("knockback") or {}).items())
    for _, way in knockback:
        if way not in DIRECTIONS:
            raise ScenarioError(f"knockback: {way!r} is not one of {', '.join(DIRECTIONS)}")
    if "power" in step:
        return power_action(step, uid, square, knockback, mode)
    if "throw_object" in step:
        return Throw(uid(step["throw_object"]), uid(step.get("target")), knockback)
    if "move" in step:
        mover = uid(step["move"])
        lifted = square(step["pick_up"]) if "pick_up" in step else None
        after = step.get("pick_up_after", -1)
        if "pick_up_after" in step and lifted is None:
            raise ScenarioError("pick_up_after belongs with pick_up (the square of the object picked up)")
        if not isinstance(after, int) or after < -1:
            raise ScenarioError("pick_up_after is the number of squares of the path entered before the pick-up")
        carried = uid(step["carry"]) if "carry" in step else None
        if carried is not None and "carry_to" not in step:
            raise ScenarioError("a move that carries names 'carry_to', where the carried character is placed")
        to = square(step["carry_to"]) if carried is not None else -1
        attack = free_attack(step, mover, uid, knockback)
        if attack is not None and "path" not in step:
            raise ScenarioError("a move with a free attack gives its 'path'")
        rear = square(step["rear"]) if "rear" in step else -1  # a double-base character's (HX-SPECIAL-04)
        if "path" in step:
            entered = tuple(square(s) for s in step["path"] or [])
            return Move(mover, entered, mode, lifted, after, carried, to, attack, step.get("attack_after", -1), rear)
        if "to" in step:
            goal = square(step["to"])
            path = movement.reachable(state, state.monsters[mover]).get(goal)
            return Move(mover, path if path is not None else (goal,), mode, lifted, after, carried, to, rear=rear)
        raise ScenarioError("a move step gives 'path' (the squares entered) or 'to'")
    if "destroy" in step:
        return raze(state, step, uid, square)
    if "close" in step:
        if "targets" in step:  # several close attacks in one action: Flurry (contract section 5)
            targets = step["targets"]
            if "use" not in step or not isinstance(targets, list) or not targets:
                raise ScenarioError("several close attacks in one action name the power that allows it ('use: Flurry')")
            return Close(uid(step["close"]), uid(targets[0]), knockback, tuple(uid(t) for t in targets[1:]), use)
        if use in AREA_USES and "target" not in step:  # the power picks the targets
            return Close(uid(step["close"]), uid(step["close"]), knockback, (), use)
        return Close(uid(step["close"]), uid(step.get("target")), knockback, (), use)
    targets = step.get("targets")
    if targets is None and "target" in step:
        targets = [step["target"]]
    if targets is None and use in AREA_USES:  # the power picks the targets
        targets = []
    if not isinstance(targets, list):
        raise ScenarioError("a ranged step names its 'targets' (a list of ids)")
    split = tuple((uid(name), int(amount)) for name, amount in (step.get("damage") or {}).items())
    return Ranged(uid(step["ranged"]), tuple(uid(t) for t in targets), split, knockback, use)


def _compare(
    result: ScenarioResult, expect: Expect, state: HeroState, ids: dict[str, int], refused_at: int | None, reason: str
) -> None:
    fail = result.failures.append
    if expect.illegal_step is None and refused_at is not None:
        fail(f"steps[{refused_at}] was refused: {reason}")
    if expect.illegal_step is not None:
        if refused_at != expect.illegal_step:
            fail(f"illegal_step: expected step {expect.illegal_step} refused, got {refused_at} ({reason or 'none'})")
        elif expect.reason_contains and expect.reason_contains.lower() not in reason.lower():
            fail(f"reason_contains: {expect.reason_contains!r} not in {reason!r}")
    geometry = state.geometry
    layout = cast(HeroMap, geometry.layout)
    for name, wanted in expect.characters.items():
        if name not in ids:
            fail(f"characters: no character {name!r}")
            continue
        character = state.monsters[ids[name]]
        if wanted.ko is not None and wanted.ko == character.alive:
            fail(f"{name}.ko: expected {wanted.ko}, got {not character.alive}")
        if not character.alive:
            continue
        spots = sorted(geometry.xy(s) for s in double_base.squares(state, character))  # HX-SPECIAL-02
        found = {
            "at": tuple(spots) if character.uid in state.rears else geometry.xy(character.pos),
            "level": layout.level(*geometry.xy(character.pos)),
            "click": character.click,
            "tokens": character.tokens,
            "damage_taken": character.damage_taken,
            "pushing_damage": state.tally(character, PUSHING),
            "knockback_damage": state.tally(character, KNOCKBACK),
            "flight": state.flight.get(character.uid),
            "holding": state.holding.get(character.uid),
            "controller": character.controller,
            "copying": state.cards.copying.get(character.uid) if state.cards is not None else None,
        }
        for key in sorted(wanted.model_fields_set - {"ko"}):  # only the fields written are checked
            expected = getattr(wanted, key)
            if isinstance(expected, list | tuple):
                expected = tuple(expected)
            if key == "at" and isinstance(expected, tuple) and isinstance(expected[0], tuple):  # HX-SPECIAL-02
                expected = tuple(sorted(expected))  # a double-base character's two squares, in either order
            if expected != found[key]:
                fail(f"{name}.{key}: expected {expected}, got {found[key]}")
    if expect.objects is not None:
        lying = sorted((o.kind, tuple(o.at)) for o in layout.objects)
        if sorted((o.kind, tuple(o.at)) for o in expect.objects) != lying:
            fail(
                f"objects: expected {[(k, list(a)) for k, a in sorted((o.kind, tuple(o.at)) for o in expect.objects)]}, got {lying}"
            )
    for spot in expect.terrain:
        x, y = spot.at
        found_terrain = layout.printed(x, y)
        if found_terrain != spot.is_:
            fail(f"terrain at [{x}, {y}]: expected {spot.is_}, got {found_terrain}")
    if expect.walls is not None:
        edges = {frozenset(edge) for edge in wall_edges(layout)}
        wanted_edges = {frozenset(side_edge(tuple(w.at), w.side)) for w in expect.walls}  # type: ignore[arg-type]
        if edges != wanted_edges:
            fail(f"walls: expected {len(wanted_edges)} walls as listed, the map has {len(edges)} others")
    if expect.vp is not None:
        for player, points in expect.vp.items():
            got = state.points.get(player, 0.0)
            if got != points:
                fail(f"vp[{player}]: expected {points:g}, got {got:g}")
    if expect.game_over is not None and expect.game_over != state.over:
        fail(f"game_over: expected {expect.game_over}, got {state.over}")
    if expect.winner is not None and state.over and expect.winner != state.winner:
        fail(f"winner: expected {expect.winner}, got {state.winner}")
    if expect.active_player is not None and expect.active_player != state.active:
        fail(f"active_player: expected {expect.active_player}, got {state.active}")
    out_of_order = events_in_order([e.kind for e in state.log], expect.events)
    if out_of_order:
        fail(out_of_order)
    left = state.dice.left if isinstance(state.dice, ForcedDice) else 0
    if left != (expect.dice_left or 0):
        fail(f"dice_left: expected {expect.dice_left or 0} unused dice, {left} were left")
