"""Scenario files played: `run_scenario` builds the state a file describes (`engine.horrorclix.scenario_format`),
plays the steps through the same `rules.apply` the games use, and compares the expectations.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from clix.engine.core import decisions
from clix.engine.core.board import STEPS
from clix.engine.core.dice import DiceExhausted, ForcedDice
from clix.engine.core.expect import events_in_order
from clix.engine.core.files.problems import InvalidFile, Problem
from clix.engine.core.geometry import Geometry
from clix.engine.core.pending import Decision
from clix.engine.core.pieces import Stats, stats_from_dial
from clix.engine.horrorclix import cards, plots, rules, subplots
from clix.engine.horrorclix import ruleset as horrorclix
from clix.engine.horrorclix.actions import (
    VICTIM_TARGET,
    Action,
    Close,
    EndTurn,
    Frenzy,
    LureVictim,
    Move,
    MoveVictim,
    Ranged,
    SkipSuspense,
    Smash,
)
from clix.engine.horrorclix.figures import compile_figure
from clix.engine.horrorclix.movement import MoveContext, destinations
from clix.engine.horrorclix.roster.loader import Roster
from clix.engine.horrorclix.roster.models import (
    parse_dial,
)
from clix.engine.horrorclix.scenario_format import (
    FLIGHT_CODES,
    Coord,
    Expect,
    Scenario,
    ScenarioMonster,
    ScenarioResult,
    load_scenario,
)
from clix.engine.horrorclix.state import (
    FLIGHT_NAMES,
    GROUNDED,
    HOVERING,
    GameState,
    MapObject,
    Monster,
    Phase,
    Player,
    Victim,
    VictimState,
)


class ScenarioError(Exception):
    """A scenario that names something that does not exist (a figure, a map, a monster id)."""


# --- building the state ---------------------------------------------------------------------------


def build_state(
    scenario: Scenario, roster: Roster | None, ask: Callable[[GameState, Decision], int] | None = None
) -> tuple[GameState, dict[str, int], dict[str, int]]:
    """The game state a scenario describes, with its monsters' and victims' uids by scenario id; `ask`
    answers the engine's questions from the start (a ticking clock in a first preview phase); None takes
    each question's default."""
    layout = scenario.map
    if isinstance(layout, str):
        if roster is None or layout not in roster.maps:
            raise ScenarioError(f"map '{layout}' is not in the roster library")
        layout = roster.maps[layout]
    geometry = Geometry(layout)
    count = scenario.players or max(
        [2, scenario.active_player, *(m.player for m in scenario.monsters), *scenario.teams]
    )
    players = [Player(number=n, team=scenario.teams.get(n, n)) for n in range(1, count + 1)]
    state = GameState(
        geometry=geometry,
        dice=ForcedDice(scenario.dice),
        players=players,
        build_total=scenario.build_total,
        active=scenario.active_player,
        turn=scenario.turn,
        turn_limit=scenario.turn_limit,
        ruleset=horrorclix.load(),
    )
    for obj in layout.objects:
        pos = geometry.index(*obj.at)
        across = -1
        if obj.kind == "portal":
            dx, dy = STEPS[obj.side or "north"]
            across = geometry.index(obj.at[0] + dx, obj.at[1] + dy)
        state.objects.append(MapObject(len(state.objects), obj.kind, pos, across))
    monster_ids: dict[str, int] = {}
    for spec in scenario.monsters:
        stats = _stats(spec, roster)
        side = spec.side or stats.start_sides[0]
        start_line = stats.red_start if stats.side_starts_red.get(side) and stats.red_start is not None else stats.start
        monster = Monster(
            uid=len(state.monsters),
            label=spec.id,
            stats=stats,
            owner=spec.player,
            controller=spec.player,
            pos=_space(geometry, spec.at, f"monster {spec.id}"),
            click=start_line if spec.click is None else spec.click,
            side=side,
            start_line=start_line,
            tokens=spec.tokens,
            acted=spec.acted_this_turn,
        )
        if spec.flight is not None:
            monster.flight = FLIGHT_CODES[spec.flight]
        elif stats.speed_mode == "wing":
            monster.flight = HOVERING
        if monster.click >= stats.clicks or stats.killed[monster.click]:
            raise ScenarioError(f"monster {spec.id}: click {monster.click} is not a live click of its dial")
        state.monsters.append(monster)
        monster_ids[spec.id] = monster.uid
        for n in range(max(spec.victims_slain, 1 if spec.blooded else 0)):
            token = Victim(
                uid=len(state.victims),
                label=f"{spec.id}-token-{n + 1}",
                archetype="(earlier)",
                speed=0,
                gender="female",
                pos=-1,
                face_up=True,
                state=VictimState.SLAIN,
                by=monster.uid,
            )
            state.victims.append(token)
            monster.victims.append(token.uid)
    victim_ids: dict[str, int] = {}
    for victim_spec in scenario.victims:
        victim = Victim(
            uid=len(state.victims),
            label=victim_spec.id,
            archetype=victim_spec.archetype,
            speed=victim_spec.speed,
            gender=victim_spec.gender,
            pos=_space(geometry, victim_spec.at, f"victim {victim_spec.id}"),
            face_up=victim_spec.face_up,
        )
        state.victims.append(victim)
        victim_ids[victim_spec.id] = victim.uid
    _check_overlaps(state)
    for p in players:
        p.army_points = sum(m.stats.points for m in state.monsters if m.owner == p.number)
        p.hidden_cards = list(scenario.crypts.get(p.number, []))
    state.cards = roster.plot_twists if roster is not None else {}
    for number, crypt in scenario.crypts.items():
        for name in crypt:
            if name not in state.cards:
                raise ScenarioError(f"crypts.{number}: plot twist '{name}' is not in the roster library")
    subplots.reveal_subplots(state)  # HC-SETUP-09
    state.phase = Phase(scenario.phase)
    acted = sum(1 for m in state.monsters if m.acted and m.controller == state.active)
    state.actions_left = max(0, state.actions_per_turn - acted)
    if scenario.phase == Phase.PREVIEW:
        decisions.perform(state, _begin_turn)
    elif scenario.phase == Phase.HOURGLASS:
        decisions.perform(state, _end_turn)
    settle(state, ask)
    return state, monster_ids, victim_ids


def _begin_turn(state: GameState, _: object) -> None:
    rules.begin_turn(state)


def _end_turn(state: GameState, _: object) -> None:
    rules.end_turn(state)


def settle(state: GameState, ask: Callable[[GameState, Decision], int] | None) -> None:
    """Answer the questions the game waits for with `ask` (or each question's default) until the step is
    over; a scenario's dice are forced, so it never waits for a chance event."""
    while isinstance(state.waiting, Decision):
        decisions.answer(state, ask(state, state.waiting) if ask is not None else 0)


def _stats(spec: ScenarioMonster, roster: Roster | None) -> Stats:
    if spec.figure is not None:
        if roster is None or spec.figure not in roster.figures:
            raise ScenarioError(f"monster {spec.id}: figure '{spec.figure}' is not in the roster library")
        return compile_figure(roster.figures[spec.figure])
    stats = stats_from_dial(
        spec.id,
        parse_dial(spec.dial or []),
        start=spec.start,
        red_start=spec.red_start,
        range_=spec.range,
        bolts=spec.bolts,
        speed_mode=spec.speed_mode,
        points=spec.points,
        powers={p.name: p.params for p in spec.powers},
        abilities=frozenset(spec.abilities),
    )
    if spec.cabal is not None:
        stats = replace(stats, cabal=spec.cabal)
    return replace(stats, classes=frozenset(spec.classes)) if spec.classes else stats


def _space(geometry: Geometry, at: Coord, what: str) -> int:
    if not (0 <= at[0] < geometry.width and 0 <= at[1] < geometry.height):
        raise ScenarioError(f"{what} at {list(at)} is off the {geometry.width}x{geometry.height} map")
    return geometry.index(*at)


def _check_overlaps(state: GameState) -> None:
    seen: dict[int, str] = {}
    pieces: list[Monster | Victim] = [*state.monsters, *(v for v in state.victims if v.pos >= 0)]
    for piece in pieces:
        if piece.pos in seen:
            raise ScenarioError(f"{piece.label} and {seen[piece.pos]} are both at {list(state.geometry.xy(piece.pos))}")
        seen[piece.pos] = piece.label


# --- steps ----------------------------------------------------------------------------------------


def step_action(
    state: GameState, step: dict[str, Any], monsters: dict[str, int], victims: dict[str, int], fly: int | None
) -> Action | plots.PlayCard:
    """The engine action a scenario step stands for."""
    geo = state.geometry

    def uid(name: Any) -> int:
        if name not in monsters:
            raise ScenarioError(f"no monster with id {name!r} in this scenario")
        return monsters[name]

    def target(name: Any) -> int:
        """A target's uid; a victim named as a target becomes VICTIM_TARGET, which the rules refuse."""
        return VICTIM_TARGET if name in victims else uid(name)

    def path(key: str = "path") -> tuple[int, ...]:
        return tuple(_space(geo, tuple(p), "path space") for p in step.get(key) or [])

    if "move" in step:
        actor = uid(step["move"])
        if "victim" in step:  # extension: a move power that moves a victim instead of the monster (Lure)
            if step["victim"] not in victims:
                raise ScenarioError(f"no victim with id {step['victim']!r} in this scenario")
            return LureVictim(actor, victims[step["victim"]], path(), step.get("power"))
        # extension: `target` names the free close attack a declared move power grants (Pounce)
        aim = None if step.get("target") is None else target(step["target"])
        if "to" in step:
            return Move(
                actor,
                _path_to(state, actor, _space(geo, tuple(step["to"]), "move target"), fly),
                fly,
                step.get("power"),
                aim,
            )
        return Move(actor, path(), fly, step.get("power"), aim)
    if "frenzy" in step:
        aim = step.get("target")
        return Frenzy(uid(step["frenzy"]), path(), None if aim is None else target(aim), fly, step.get("power"))
    if "close" in step:
        return Close(uid(step["close"]), target(step["target"]), step.get("power"))
    if "ranged" in step:
        targets = tuple(target(t) for t in step.get("targets") or [])
        split = tuple((uid(k), int(v)) for k, v in (step.get("damage") or {}).items())
        return Ranged(uid(step["ranged"]), targets, split, step.get("power"))
    if "smash" in step:
        return Smash(uid(step["smash"]), _space(geo, tuple(step["at"]), "smash target"))
    if "move_victim" in step:
        if step["move_victim"] not in victims:
            raise ScenarioError(f"no victim with id {step['move_victim']!r} in this scenario")
        return MoveVictim(victims[step["move_victim"]], path())
    if "end_turn" in step:
        return EndTurn()
    if "plot_twist" in step:  # a card of the active player's own hunting phase (HC-PLOT-07)
        aim = step.get("target")
        return plots.PlayCard(
            str(step["plot_twist"]),
            int(step.get("player", state.active)),
            None if aim is None else uid(aim),
            "" if aim is None else str(aim),
        )
    if "pass" in step:
        return SkipSuspense()
    raise ScenarioError(f"step {step} is not supported by the engine yet (plot twists come with the powers work)")


def _path_to(state: GameState, actor: int, target: int, fly: int | None) -> tuple[int, ...]:
    monster = state.monsters[actor]
    flight = monster.flight if fly is None else fly
    ctx = MoveContext(state, monster, broke_away=[m.uid for m in rules.combat.engaged(state, monster)], flight=flight)
    if target == monster.pos:
        return ()
    found = destinations(ctx, monster.pos, ctx.budget(monster.pos, fly is not None))
    return tuple(found.get(target, (target,)))


def _answer_from_steps(steps: list[dict[str, Any]], cursor: list[int], decision: Decision) -> int:
    """Answer a question the engine puts mid-action from the next step, if that step answers it: a
    `pass`, a `plot_twist` or a `decide` step by the asked player. Otherwise take the default (decline),
    so scenarios written before a question existed keep their meaning.

    A card's own later choices (where it puts a victim, the path it moves a piece along) are answered by the
    keys of the plot_twist step that played it (`cursor[1]`, its index), consuming nothing."""
    if decision.kind.startswith(plots.PLAY + "_"):
        played = steps[cursor[1]] if len(cursor) > 1 and cursor[1] >= 0 else {}
        return next((i for i, o in enumerate(decision.options) if o.matches(played)), 0)
    if cursor[0] >= len(steps):
        return 0
    step = steps[cursor[0]]
    if step.get("player", decision.player) != decision.player:
        return 0
    answer: int | None = None
    if "pass" in step:
        answer = 0
    elif "decide" in step:
        wanted = step["decide"]
        answer = next((i for i, o in enumerate(decision.options) if o == wanted), None)
    else:
        answer = next(
            (i for i, o in enumerate(decision.options) if getattr(o, "matches", None) and o.matches(step)), None
        )
    if answer is None:
        return 0
    if "plot_twist" in step and len(cursor) > 1:
        cursor[1] = cursor[0]
    cursor[0] += 1
    return answer


def run_scenario(path: Path, roster: Roster | None) -> ScenarioResult:
    """Run one scenario file; a file that is not a valid scenario raises InvalidFile."""
    scenario, problems = load_scenario(path)
    if scenario is None:
        raise InvalidFile(problems)
    result = ScenarioResult(str(path), scenario.name, rules=list(scenario.rules))
    steps = scenario.steps
    # the next step to play, and the last plot_twist step; answers to the engine's questions consume steps too
    cursor = [0, -1]
    try:

        def answer(st: GameState, decision: Decision) -> int:
            return _answer_from_steps(steps, cursor, decision)

        state, monster_ids, victim_ids = build_state(scenario, roster, answer)
    except ScenarioError as exc:
        raise InvalidFile([Problem(str(path), 0, "", str(exc))]) from exc
    expect = scenario.expect
    refused_at: int | None = None
    reason = ""
    fly: int | None = None
    try:
        while cursor[0] < len(steps):
            index = cursor[0]
            step = steps[index]
            cursor[0] += 1
            if "plot_twist" in step:
                cursor[1] = index
            if "fly" in step:
                fly = FLIGHT_CODES.get(step.get("mode", ""), GROUNDED)
                continue
            if "dispute" in step:  # HC-SPECIAL-12: the etiquette d6 decides whether the disputed step is played
                if not cards.etiquette(state, step.get("question") or str(step["dispute"])):
                    continue
                step = step["dispute"]
            for m in state.monsters[len(monster_ids) :]:
                monster_ids.setdefault(m.label, m.uid)  # monsters made during play (minions) by their labels
            try:
                action = step_action(state, step, monster_ids, victim_ids, fly)
            except ScenarioError as exc:
                raise InvalidFile([Problem(str(path), 0, f"steps[{index}]", str(exc))]) from exc
            fly = None
            reason = rules.why_not(state, action)
            if reason:
                refused_at = index
                break
            rules.apply(state, action)
            settle(state, answer)
    except DiceExhausted as exc:
        result.failures.append(f"dice: {exc}")
        return result
    for m in state.monsters:
        monster_ids.setdefault(m.label, m.uid)
    _compare(result, expect, state, refused_at, reason, monster_ids, victim_ids)
    return result




def _compare(
    result: ScenarioResult,
    expect: Expect,
    state: GameState,
    refused_at: int | None,
    reason: str,
    monster_ids: dict[str, int],
    victim_ids: dict[str, int],
) -> None:
    fail = result.failures.append
    if expect.illegal_step != refused_at:
        if refused_at is None:
            fail(f"illegal_step: expected step {expect.illegal_step} to be refused, but every step was legal")
        else:
            fail(
                f"step {refused_at} was refused: {reason}"
                if expect.illegal_step is None
                else f"illegal_step: expected {expect.illegal_step}, got {refused_at} ({reason})"
            )
    if expect.reason_contains and expect.reason_contains.lower() not in reason.lower():
        fail(f"reason_contains: expected {expect.reason_contains!r} in the reason, got {reason!r}")
    geo = state.geometry
    for name, want in expect.monsters.items():
        if name not in monster_ids:
            fail(f"monsters.{name}: no monster with that id")
            continue
        m = state.monsters[monster_ids[name]]
        actual = {
            "at": geo.xy(m.pos),
            "click": m.click,
            "tokens": m.tokens,
            "killed": not m.alive,
            "blooded": m.blooded,
            "flight": FLIGHT_NAMES[m.flight],
            "card_side": m.side,
            "controller": m.controller,
            "damage_taken": m.damage_taken,
            "insane": m.insane,
        }
        for key, value in want.model_dump(exclude_none=True).items():
            if key == "flight" and value == "hovering" and m.stats.speed_mode != "wing":
                value = "grounded"
            got = actual[key]
            if key == "at":
                value, got = list(cast(Any, value)), list(cast(Any, got))
            if got != value:
                fail(f"monsters.{name}.{key}: expected {value}, got {got}")
    for name, wanted in expect.victims.items():
        if name not in victim_ids:
            fail(f"victims.{name}: no victim with that id")
            continue
        v = state.victims[victim_ids[name]]
        by = state.monsters[v.by].label if v.by is not None else None
        actual = {"at": list(geo.xy(v.pos)), "face_up": v.face_up, "state": v.state, "by": by}
        for key, value in wanted.model_dump(exclude_none=True).items():
            value = list(value) if key == "at" else value
            if actual[key] != value:
                fail(f"victims.{name}.{key}: expected {value}, got {actual[key]}")
    for player, points in expect.vp.items():
        got = state.total_vp(player) if player in state.vp else None
        if got != points:
            fail(f"vp.{player}: expected {points}, got {got}")
    if expect.active_player is not None and state.active != expect.active_player:
        fail(f"active_player: expected {expect.active_player}, got {state.active}")
    if expect.winner is not None and (not state.over or state.winner != expect.winner):
        fail(f"winner: expected {expect.winner}, got {state.winner if state.over else 'game not over'}")
    if expect.draw is not None:
        drawn = state.over and state.winner is None
        if drawn != expect.draw:
            fail(f"draw: expected {expect.draw}, got {drawn} (over: {state.over}, winner: {state.winner})")
    out_of_order = events_in_order([e.kind for e in state.log], expect.events)
    if out_of_order:
        fail(out_of_order)
    left = state.dice.left if isinstance(state.dice, ForcedDice) else 0
    if left != (expect.dice_left or 0):
        fail(f"dice_left: expected {expect.dice_left or 0} unused dice, {left} were left")
