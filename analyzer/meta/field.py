"""The field of `clix meta` and its cells: the player styles, the armies (named, from folders, or every library army
of a budget), and each unordered pair of armies on each map with each style."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clix.analyzer.common.errors import ClixError
from clix.analyzer.play.runner import DEFAULT_STYLE, PLAYER_STYLES, SWEPT_STYLES, Matchup
from clix.engine.core.files.folders import YAML_SUFFIXES
from clix.engine.core.ruleset import DEFAULT_RULESET

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster


def field_styles(players: str | None, ruleset: str = DEFAULT_RULESET) -> list[str]:
    """The player styles of the meta's cells: the default style, one named style, or `sweep` (every heuristic
    style); both sides of a cell play the same style. Another ruleset's: its matchup kit's styles."""
    if ruleset != DEFAULT_RULESET:
        return _kit_styles(players, ruleset)
    if players is None or players.strip() in ("", "default"):
        return [DEFAULT_STYLE]
    if players.strip() == "sweep":
        return list(SWEPT_STYLES)
    names = [n.strip() for n in players.split(",") if n.strip()]
    known = PLAYER_STYLES
    for name in names:
        if name not in known:
            raise ClixError(
                f"--players: unknown player style '{name}'; use default, sweep or any of {', '.join(known)}"
            )
    if len(set(names)) != len(names):
        raise ClixError("--players: a style is named twice")
    return names


def _kit_styles(players: str | None, ruleset: str) -> list[str]:
    """`field_styles` of a ruleset other than HorrorClix: the kit's default, its styles but random for `sweep`, or
    the named ones (each one the kit has a player for)."""
    from clix.analyzer.play.runner import kit, player_factory

    rules = kit(ruleset)
    if players is None or players.strip() in ("", "default"):
        return [str(rules.default_style)]
    if players.strip() == "sweep":
        swept = [style for style in rules.styles if style != "random"]
        if not swept:
            raise ClixError(f"--players sweep: {ruleset} has no player style to sweep yet (it plays random)")
        return swept
    names = [n.strip() for n in players.split(",") if n.strip()]
    for name in names:
        if name not in rules.styles:
            raise ClixError(
                f"--players: unknown {ruleset} player style '{name}'; use default, sweep or any of "
                f"{', '.join(rules.styles)}"
            )
        player_factory(name, ruleset)
    if len(set(names)) != len(names):
        raise ClixError("--players: a style is named twice")
    return names


def expand_army_arguments(arguments: Sequence[str]) -> list[str]:
    """The field's army arguments with each folder replaced by the army files in it (sorted by name)."""
    expanded: list[str] = []
    for argument in arguments:
        folder = Path(argument)
        if folder.is_dir():
            files = sorted(str(p) for p in folder.iterdir() if p.is_file() and p.name.endswith(YAML_SUFFIXES))
            if not files:
                raise ClixError(f"{argument}: this folder holds no army files (*.yaml)")
            expanded += files
        else:
            expanded.append(argument)
    return expanded


def field_armies(
    roster: Roster | None,
    named: Sequence[str],
    budget: int | None,
    known: Mapping[str, Any] | None = None,
    kind: str = "army",
) -> list[str]:
    """The field: the armies named (ids, in order) and, with `budget`, every library army of that build total.
    `known`: the library's armies by id (default: `roster.armies`; a HeroClix library's forces); `kind` what the
    ruleset calls an army in messages."""
    library = known if known is not None else roster.armies if roster is not None else {}
    kinds = "armies" if kind == "army" else f"{kind}s"
    armies = list(dict.fromkeys(named))
    if budget is not None:
        armies += sorted(a for a, army in library.items() if army.build_total == budget and a not in armies)
        if not armies:
            totals = sorted({army.build_total for army in library.values()})
            has = f"it has {', '.join(map(str, totals))}" if totals else f"it has no {kind} at all"
            raise ClixError(f"--budget {budget}: the library has no {kind} of that build total ({has})")
    if len(armies) < 2:
        raise ClixError(f"a field needs at least two {kinds}: name them, or pass --budget 100|200|300")
    return armies


def field_cells(
    library: Path | tuple[Path, ...],
    armies: Sequence[str],
    maps: Sequence[str],
    styles: Sequence[str],
    turns: int,
    ties: str = "break",
    ruleset: str = DEFAULT_RULESET,
) -> list[Matchup]:
    """Every cell: each unordered pair of armies (the earlier in the field as A) on each map with each style."""
    return [
        Matchup(library, a, b, map_name, style, style, turns, ties, ruleset=ruleset)
        for i, a in enumerate(armies)
        for b in armies[i + 1 :]
        for map_name in maps
        for style in styles
    ]
