"""What must hold in every HeroClix position (`violations`), and one random game checked after every action
(`check_game`, what `clix selfcheck --ruleset heroclix-2005` plays): random forces of the library on its maps, random legal play, the invariants after each action; a crash is a finding with the seed that replays it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from clix.engine.core.dice import child_seeds
from clix.engine.core.geometry import BLOCKING
from clix.engine.core.players import RandomAgent
from clix.engine.core.selfcheck import GameCheck, play_checked
from clix.engine.heroclix import double_base
from clix.engine.heroclix.combat import line_of_fire
from clix.engine.heroclix.levels import levels_of
from clix.engine.heroclix.matchups import library_at
from clix.engine.heroclix.movement_powers import earthbound
from clix.engine.heroclix.setup import new_game
from clix.engine.heroclix.state import SOARING, HeroState


def violations(state: HeroState) -> list[str]:
    """Every invariant the position breaks: one character a square, a double-base character's two included
    (HX-MOVE-06), its two squares touching at one elevation with no wall between (HX-SPECIAL-02..04); nobody below
    soaring on blocking terrain (HX-TERRAIN-11); tokens 0 to 2 (HX-TURN-13); a dial on one of its clicks, a KO'd
    character on a KO click and a standing one not (HX-DAMAGE-06); flight only for fliers, never soaring indoors
    (HX-MOVE-18) nor while Earthbound/Neutralized shows (HX-POWER-04); lines of fire between grounded characters on
    one level the same both ways (Stealth aside, HX-POWER-11); victory points at least the points of the characters
    defeated and at most twice them while the game goes on (HX-END-05, -06, -08)."""
    found: list[str] = []
    geometry = state.geometry
    standing = state.standing()
    squares = [s for c in standing for s in double_base.squares(state, c)]
    if len(set(squares)) != len(squares):
        found.append("two characters share a square")
    found.extend(double_base.base_problem(state, c) for c in standing if c.uid in state.rears)
    found = [problem for problem in found if problem]
    for c in state.monsters:
        if not 0 <= c.tokens <= 2:
            found.append(f"{c.label} has {c.tokens} action tokens")
        if not 0 <= c.click < c.stats.clicks:
            found.append(f"{c.label} shows click {c.click} of a {c.stats.clicks}-click dial")
        elif c.alive == c.stats.killed[c.click]:
            found.append(f"{c.label} is {'standing on' if c.alive else 'knocked out before'} its KO click")
        mode = state.flight.get(c.uid)
        if mode is not None and c.stats.speed_mode != "wing":
            found.append(f"{c.label} flies without wings")
        if c.alive and mode is not None and earthbound(c):
            found.append(f"{c.label} flies while Earthbound/Neutralized shows")
        if c.alive and mode == SOARING and any(geometry.indoor[s] for s in double_base.squares(state, c)):
            found.append(f"{c.label} soars indoors")
        if c.alive and mode != SOARING and any(geometry.terrain[s] == BLOCKING for s in double_base.squares(state, c)):
            found.append(f"{c.label} stands on blocking terrain")
    level = levels_of(geometry).level
    grounded = [c for c in standing if not state.soars(c) and not level[c.pos]]
    for i, one in enumerate(grounded):
        for other in grounded[i + 1 :]:
            if line_of_fire(state, one, other, False)[0] != line_of_fire(state, other, one, False)[0]:
                found.append(f"the line of fire between {one.label} and {other.label} is clear one way only")
    if not state.over:
        defeated = sum(c.stats.points for c in state.monsters if not c.alive)
        scored = sum(state.points.values())
        if not defeated - 1e-9 <= scored <= 2 * defeated + 1e-9:
            found.append(f"{scored:g} victory points scored for {defeated} points of characters defeated")
    if state.actions_left < 0:
        found.append(f"{state.actions_left} actions left")
    return found


def check_game(layers: tuple[Path, ...], index: int, seed: np.random.SeedSequence, turn_limit: int) -> GameCheck:
    """Play one random game (two random forces of one build total, a map by index), checking the
    invariants after every action."""
    library = library_at(tuple(layers))
    maps = [library.maps[name] for name in sorted(library.maps)]
    force_seed, dice_seed, *player_seeds = child_seeds(seed, 4)
    rng = np.random.default_rng(force_seed)
    totals = sorted({f.build_total for f in library.forces.values()})
    if not maps or not totals:
        return GameCheck(index, ("the library has no map or no force",), 0, "no game", "", 0)
    total = totals[int(rng.integers(len(totals)))]
    pool = sorted(name for name, f in library.forces.items() if f.build_total == total)
    forces = [library.forces[pool[int(rng.integers(len(pool)))]] for _ in range(2)]
    agents = [RandomAgent(np.random.default_rng(s)) for s in player_seeds]
    layout = maps[index % len(maps)]
    return play_checked(
        index,
        lambda: new_game(library, forces, layout, np.random.default_rng(dice_seed), turn_limit),
        agents,
        violations,
        check_setup=True,
    )
