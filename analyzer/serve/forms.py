"""The forms of `clix serve` that start a run (issue 41): every field checked as the command line checks its option
(`clix duel`, `clix meta --row`), one line for a mistake, and the worker's request built from them. `state` is the
app's `State` (its library, layers and settings)."""

from __future__ import annotations

from typing import Any

from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError

MAX_PAGE_GAMES = 100_000
"""The most games a run started from the page may ask for (the command line allows more)."""


def duel_request(state: Any, form: Any) -> dict[str, Any]:
    """The duel the form asks for, every field checked as `clix duel` checks its options."""
    roster = state.library().roster
    request: dict[str, Any] = {}
    for side in ("army_a", "army_b"):
        army = str(form.get(side, "")).strip()
        if army not in roster.armies:
            raise ClixError(f"{side}: no army {army!r} in the library; choose one from the list")
        request[side] = army
    chosen_map = str(form.get("map", "")).strip()
    if chosen_map and chosen_map not in roster.maps:
        raise ClixError(f"map: no map {chosen_map!r} in the library; choose one from the list")
    request["map"] = chosen_map or None
    players = str(form.get("players", "")).strip()
    if players:
        from clix.analyzer.duel.command import parse_players

        request["players"] = ",".join(parse_players(players))  # clix duel --players' check and its one line
    request["games"] = checks.games(integer(form, "games", "200"), "games", maximum=MAX_PAGE_GAMES)
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

    roster = state.library().roster
    army = str(form.get("army", "")).strip()
    if army not in roster.armies:
        raise ClixError(f"army: no army {army!r} in the library; choose one from the list")
    field = [str(a).strip() for a in form.getlist("field") if str(a).strip() and str(a).strip() != army]
    for other in field:
        if other not in roster.armies:
            raise ClixError(f"field: no army {other!r} in the library; tick armies of the list")
    total = roster.armies[army].build_total
    field = list(dict.fromkeys(field)) or sorted(
        a for a, other in roster.armies.items() if a != army and other.build_total == total
    )
    if not field:
        raise ClixError(f"field: the library has no other army of {total} points; tick the armies to play against")
    maps = [str(m).strip() for m in form.getlist("maps") if str(m).strip()]
    for chosen in maps:
        if chosen not in roster.maps:
            raise ClixError(f"maps: no map {chosen!r} in the library; tick maps of the list")
    maps = list(dict.fromkeys(maps))
    players = str(form.get("players", "")).strip() or None
    styles = field_styles(players)  # clix meta --players' check and its one line
    cells = len(field) * (len(maps) or len(roster.maps)) * len(styles)
    games = checks.games(integer(form, "games", "100"), "games", maximum=MAX_PAGE_GAMES)
    if games * cells > MAX_PAGE_GAMES:
        raise ClixError(
            f"games: {games} games for each of {cells} cells is over {MAX_PAGE_GAMES:,} games; lower the games "
            "or tick fewer armies or maps"
        )
    request: dict[str, Any] = {"kind": "row", "army": army, "field": field, "maps": maps, "players": players}
    request |= {"cells": cells, "games": games, "seed": checks.seed(integer(form, "seed", "0"), "seed")}
    target = target_ci(form)
    if target is not None:
        request["target_ci"] = target
    request["rosters"] = [str(p.resolve()) for p in state.layers()]
    request["store"] = str(state.settings.store.resolve())
    request["out"] = str(state.settings.out.resolve())
    return request


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
