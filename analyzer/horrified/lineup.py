"""A `clix horrified` line-up from its options: monsters by difficulty or by name, heroes by name or by the player
count; every mistake a one-line ClixError naming what to choose instead."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from clix.analyzer.common.errors import ClixError
from clix.analyzer.horrified.games import Cell, kit
from clix.engine.core.files.problems import InvalidFile

DEFAULT_DIFFICULTY = "novice"


def split(text: str | None) -> list[str]:
    """A comma-separated option as its items (none: empty)."""
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def layers_for(paths: Sequence[Path]) -> tuple[Path, ...]:
    """The library layers: the sample components, then `paths` (none: the sample alone); a ClixError naming the first
    problem of a file that does not load (and how many more there are)."""
    for path in paths:
        if not path.exists():
            raise ClixError(f"--data: {path} does not exist; give a Horrified file or folder")
    layers = (kit().sample, *paths) if paths else ()
    try:
        kit().components(layers)
    except InvalidFile as exc:
        more = len(exc.problems) - 1
        raise ClixError(f"--data: {exc.problems[0]}" + (f" (and {more} more problems)" if more > 0 else "")) from None
    return layers


def difficulty_lineups(layers: tuple[Path, ...], difficulty: str) -> list[tuple[str, ...]]:
    """The line-ups the data supports at `difficulty`; a ClixError for an unknown difficulty or one with none."""
    levels = {level["difficulty"]: level for level in kit().lineups(layers)}
    if difficulty not in levels:
        raise ClixError(f"--difficulty: no difficulty is called {difficulty!r}; choose from {', '.join(levels)}")
    level = levels[difficulty]
    if not level["line_ups"]:
        playable = [lu for lv in levels.values() for lu in lv["line_ups"]]
        raise ClixError(
            f"--difficulty {difficulty}: the data lacks a line-up of {level['monsters']} monsters the engine plays "
            f"(it plays {', '.join('+'.join(lu) for lu in playable) or 'none'}); choose "
            + ", ".join(lv for lv, v in levels.items() if v["line_ups"])
        )
    return [tuple(lu) for lu in level["line_ups"]]


def default_heroes(layers: tuple[Path, ...], players: int) -> tuple[str, ...]:
    """The first `players` heroes in file order (solo: the first that may play alone, HF-SOLO-01)."""
    heroes = kit().heroes(layers)
    if not 1 <= players <= 4:
        raise ClixError(f"--seats: Horrified is for 1 to 4 players, not {players}")
    if players == 1:
        return (next(h for h, solo in heroes.items() if solo),)
    return tuple(list(heroes)[:players])


def resolve(
    layers: tuple[Path, ...],
    monsters: Sequence[str],
    heroes: Sequence[str],
    players: int | None,
    difficulty: str | None,
    style: str,
) -> tuple[Cell, str]:
    """The cell these options name and its difficulty's id (or 'custom'); a ClixError for any mistake."""
    try:
        kit().player_factory(style)  # team, random, search or search:N (the kit's UnknownStyle is a ValueError)
    except ValueError as exc:
        raise ClixError(f"--players: {exc}") from None
    if heroes and players is not None and players != len(heroes):
        raise ClixError(f"--seats {players} but {len(heroes)} heroes named in --heroes; give one of them")
    chosen_heroes = tuple(heroes) if heroes else default_heroes(layers, 2 if players is None else players)
    level = difficulty or DEFAULT_DIFFICULTY
    if monsters:
        sizes = {lv["difficulty"]: lv["monsters"] for lv in kit().lineups(layers)}
        if difficulty is not None and sizes.get(difficulty) != len(monsters):
            raise ClixError(
                f"--difficulty {difficulty} plays {sizes.get(difficulty, '?')} monsters, but --monsters names "
                f"{len(monsters)}; drop one of the options"
            )
        chosen = tuple(monsters)
        level = difficulty or next((d for d, n in sizes.items() if n == len(monsters) and d != "first-game"), "custom")
    else:
        chosen = difficulty_lineups(layers, level)[0]
    problem = kit().lineup_problem(layers, chosen, chosen_heroes)
    if problem is not None:
        raise ClixError(f"--monsters/--heroes: {problem}")
    return Cell(chosen, chosen_heroes, style, layers), level
