"""The forms of `clix serve` that start a run (issue 41): every field checked as the command line checks its option
(`clix duel`, `clix meta --row`), one line for a mistake, and the worker's request built from them. `state` is the
app's `State` (its library, layers and settings). A run plays HorrorClix armies or HeroClix forces (the form's
`ruleset`), each ruleset's read through its matchup kit (`kit_of`, the core's registry), as `clix duel` and `clix
meta` read them."""

from __future__ import annotations

from typing import Any

from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.rulesets import kit_of
from clix.analyzer.serve.heroes import HEROCLIX
from clix.engine.core.ruleset import DEFAULT_RULESET

MAX_PAGE_GAMES = 100_000
"""The most games a run started from the page may ask for (the command line allows more)."""
RULESETS = {DEFAULT_RULESET: "HorrorClix", HEROCLIX: "HeroClix"}
"""The rulesets a run from the page plays, with the names the page shows."""


def ruleset_of(value: Any) -> str:
    """The ruleset a form or address names (`ruleset=heroclix-2005`; empty: HorrorClix); one line for another."""
    text = str(value or "").strip() or DEFAULT_RULESET
    if text not in RULESETS:
        raise ClixError(f"ruleset: {text!r} is not a ruleset the page plays; choose {' or '.join(RULESETS)}")
    return text


def choices(state: Any, ruleset: str) -> tuple[dict[str, Any], list[str]]:
    """The ruleset's armies (HeroClix: forces; each with a name and a build total) by id, and its maps' ids."""
    if ruleset == DEFAULT_RULESET:
        roster = state.library().roster
        return dict(roster.armies), sorted(roster.maps)
    data = state.heroes()
    rules = kit_of(ruleset)
    return dict(rules.armies(data)), sorted(rules.maps(data))


def kind(ruleset: str) -> str:
    """What the ruleset calls an army ("army", "force")."""
    return "army" if ruleset == DEFAULT_RULESET else str(kit_of(ruleset).army_kind)


def duel_request(state: Any, form: Any) -> dict[str, Any]:
    """The duel the form asks for, every field checked as `clix duel` checks its options."""
    ruleset = ruleset_of(form.get("ruleset"))
    armies, maps = choices(state, ruleset)
    request: dict[str, Any] = {"ruleset": ruleset}
    for side in ("army_a", "army_b"):
        army = str(form.get(side, "")).strip()
        if army not in armies:
            raise ClixError(f"{side}: no {kind(ruleset)} {army!r} in the library; choose one from the list")
        request[side] = army
    chosen_map = str(form.get("map", "")).strip()
    if chosen_map and chosen_map not in maps:
        raise ClixError(f"map: no map {chosen_map!r} in the library; choose one from the list")
    request["map"] = chosen_map or None
    players = str(form.get("players", "")).strip()
    if players:
        from clix.analyzer.duel.command import parse_players

        # clix duel --players' check and its one line
        request["players"] = ",".join(parse_players(players, ruleset))
    request["games"] = checks.games(integer(form, "games", "200"), "games", maximum=MAX_PAGE_GAMES)
    return _finish(request, state, form)


def _finish(request: dict[str, Any], state: Any, form: Any) -> dict[str, Any]:
    """The request with the fields every run shares: its seed, precision, library layers, store and output folder."""
    request["seed"] = checks.seed(integer(form, "seed", "0"), "seed")
    target = target_ci(form)
    if target is not None:
        request["target_ci"] = target
    request["rosters"] = [str(p.resolve()) for p in state.layers()]
    request["store"] = str(state.settings.store.resolve())
    request["out"] = str(state.settings.out.resolve())
    return request


def row_request(state: Any, form: Any) -> dict[str, Any]:
    """The meta row the form asks for, every field checked as `clix meta --row` checks its options. No army
    ticked: the field is every other library army of the army's build total (`clix meta --budget`)."""
    from clix.analyzer.meta.field import field_styles

    ruleset = ruleset_of(form.get("ruleset"))
    armies, all_maps = choices(state, ruleset)
    noun = kind(ruleset)
    army = str(form.get("army", "")).strip()
    if army not in armies:
        raise ClixError(f"army: no {noun} {army!r} in the library; choose one from the list")
    field = [str(a).strip() for a in form.getlist("field") if str(a).strip() and str(a).strip() != army]
    for other in field:
        if other not in armies:
            raise ClixError(f"field: no {noun} {other!r} in the library; tick {noun}s of the list")
    total = armies[army].build_total
    field = list(dict.fromkeys(field)) or sorted(
        a for a, other in armies.items() if a != army and other.build_total == total
    )
    if not field:
        raise ClixError(f"field: the library has no other {noun} of {total} points; tick the {noun}s to play against")
    maps = [str(m).strip() for m in form.getlist("maps") if str(m).strip()]
    for chosen in maps:
        if chosen not in all_maps:
            raise ClixError(f"maps: no map {chosen!r} in the library; tick maps of the list")
    maps = list(dict.fromkeys(maps))
    players = str(form.get("players", "")).strip() or None
    styles = field_styles(players, ruleset)  # clix meta --players' check and its one line
    cells = len(field) * (len(maps) or len(all_maps)) * len(styles)
    games = checks.games(integer(form, "games", "100"), "games", maximum=MAX_PAGE_GAMES)
    if games * cells > MAX_PAGE_GAMES:
        raise ClixError(
            f"games: {games} games for each of {cells} cells is over {MAX_PAGE_GAMES:,} games; lower the games "
            "or tick fewer armies or maps"
        )
    request: dict[str, Any] = {"kind": "row", "ruleset": ruleset, "army": army, "field": field, "maps": maps}
    request |= {"players": players, "cells": cells, "games": games}
    return _finish(request, state, form)


def target_ci(form: Any) -> float | None:
    """The precision asked (`--target-ci`): a half-width above 0 and below 0.5, or None."""
    target = str(form.get("target_ci", "")).strip()
    if not target:
        return None
    try:
        value = float(target)
    except ValueError:
        raise ClixError(f"target_ci: {target!r} is not a number; give a half-width such as 0.05") from None
    if not 0 < value < 0.5:
        raise ClixError(f"target_ci: {value} is out of range; give a half-width above 0 and below 0.5, as 0.05")
    return value


def integer(form: Any, name: str, default: str) -> int:
    text = str(form.get(name, default)).strip() or default
    if not text.lstrip("-").isdigit():
        raise ClixError(f"{name}: {text!r} is not a whole number")
    return int(text)
