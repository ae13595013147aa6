"""The roster, map, scenario and schema commands: check and inspect the data clix plays with."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from clix.analyzer.cli.common import (
    RostersOption,
    console,
    library_for,
    stderr_console,
)
from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.text import counted
from clix.analyzer.library.load import library_layers, load_for_check, other_rulesets
from clix.engine.core.files.problems import did_you_mean
from clix.engine.core.ruleset import DEFAULT_RULESET, RULESETS


def roster_check(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(metavar="PATHS", help="Files or directories to check (default: the whole roster library)."),
    ] = None,
    rosters: RostersOption = None,
) -> None:
    """Validate roster files and army legality; print every problem, one line each (exit 2 if any)."""
    library = library_layers(rosters)
    targets = paths or list(library)
    roster, problems, checked = load_for_check(targets, library)
    counts = (
        f"{len(roster.figures)} figures, {len(roster.plot_twists)} plot twists, {len(roster.victims)} victim "
        f"archetypes, {len(roster.maps)} maps, {len(roster.armies)} armies"
    )
    for other, found, more in other_rulesets(targets):
        problems = list(dict.fromkeys([*problems, *more]))
        counts += f"; {other}: {found.summary()}"
    for problem in problems:
        console.print(str(problem), markup=False, soft_wrap=True)
    if problems:
        console.print(
            f"{counted(len(problems), 'problem')} in {counted(checked, 'file')} checked ({counts} loaded)", markup=False
        )
        raise typer.Exit(2)
    console.print(f"ok: {counted(checked, 'file')} valid ({counts})", markup=False)


def roster_list(
    what: Annotated[
        str,
        typer.Argument(
            metavar="WHAT",
            help="figures, plot-twists, victims, maps or armies (default: figures); HeroClix's characters, forces, "
            "teams, feats or conditions.",
        ),
    ] = "figures",
    figure_class: Annotated[
        list[str] | None,
        typer.Option("--class", help="Only figures of this class, e.g. Undead or Vampire (repeat: all of them)."),
    ] = None,
    min_points: Annotated[
        int | None, typer.Option("--min-points", min=0, help="Only figures of at least N points.")
    ] = None,
    max_points: Annotated[
        int | None, typer.Option("--max-points", min=0, help="Only figures of at most N points.")
    ] = None,
    cabal: Annotated[
        str | None, typer.Option("--cabal", metavar="CABAL", help="Only members of this cabal, e.g. 'Crimson Court'.")
    ] = None,
    rank: Annotated[
        str | None, typer.Option("--rank", help="Only figures of this rank: rookie, experienced, veteran, unique, ...")
    ] = None,
    rosters: RostersOption = None,
) -> None:
    """List what the roster library holds; figures can be filtered by class, points, cabal and rank."""
    from clix.analyzer.library import heroclix_views, views

    if what in heroclix_views.TABLES:
        console.print(heroclix_views.listing(_heroclix(rosters), what))
        return
    roster = library_for(rosters).roster
    counterpart = {"figures": "characters", "armies": "forces"}.get(what)
    if counterpart and not getattr(roster, what):
        # a HeroClix-only library: its characters and forces are what the user has
        hero = _heroclix(rosters, required=False)
        if hero is not None and getattr(hero, counterpart):
            console.print(heroclix_views.listing(hero, counterpart))
            return
    wanted = views.FigureFilter(tuple(figure_class or ()), min_points, max_points, cabal, rank)
    console.print(views.listing(roster, what, wanted))
    if what == "maps":
        hero = _heroclix(rosters, required=False)
        if hero is not None and hero.maps:
            console.print(heroclix_views.listing(hero, "maps"))


def roster_show(
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="Figure id (e.g. countess-vey-v) or army id (e.g. butcher-shop), see `clix roster list`; "
            "or a figure or army file.",
        ),
    ],
    rosters: RostersOption = None,
) -> None:
    """Show a figure (base data, card sides with powers, dial) or an army (figures, points, crypt, victims)."""
    from clix.analyzer.library import heroclix_views, views

    hero = _heroclix(rosters, [Path(name)] if name.endswith((".yaml", ".yml")) else [], required=False)
    if hero is not None:
        key = Path(name).stem if name.endswith((".yaml", ".yml")) else name
        found = next((t for t in ("characters", "forces") if key in getattr(hero, t)), None)
        if found is None and name.endswith((".yaml", ".yml")):
            found = next((t for t in ("characters", "forces") if getattr(hero, t)), None)
            key = next(iter(getattr(hero, found))) if found else key
        if found == "characters":
            console.print(heroclix_views.show_character(hero.characters[key]), markup=False)
            return
        if found == "forces":
            console.print(heroclix_views.show_force(hero, key, hero.forces[key]), markup=False)
            return
    try:
        library = library_for(rosters, items=[name])
        shown = views.show_view(library.roster, library.id(name))
    except ClixError as exc:
        heroes = [*hero.characters, *hero.forces] if hero is not None else []
        if difflib.get_close_matches(name, heroes, n=1, cutoff=0.6):
            raise ClixError(did_you_mean("HeroClix character or force", name, heroes)) from exc
        raise
    for renderable in shown:
        console.print(renderable)


def roster_powers(
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            help="Whose powers: horrorclix (the default: powers, abilities and plot-twist effects) or heroclix-2005 "
            "(the powers it plays so far, each with its text and source).",
        ),
    ] = DEFAULT_RULESET,
) -> None:
    """List every power, ability and plot-twist effect the engine implements, with parameters and text."""
    from clix.analyzer.library import views

    if ruleset not in RULESETS:
        raise ClixError(f"--ruleset: no ruleset is called {ruleset!r}; clix plays {', '.join(sorted(RULESETS))}")
    renderables = views.powers_view() if ruleset == DEFAULT_RULESET else views.ruleset_powers_view(ruleset)
    for renderable in renderables:
        console.print(renderable)


def map_show(
    map_name: Annotated[str, typer.Argument(metavar="MAP", help="Map id (see `clix roster list maps`) or a map file.")],
    png: Annotated[Path | None, typer.Option("--png", help="Also draw the map to this PNG file.")] = None,
    rosters: RostersOption = None,
) -> None:
    """Draw a map as text (terrain, walls, starting areas, victim spaces); optionally as a PNG."""
    from clix.analyzer.library import heroclix_views, views

    given = [Path(map_name)] if map_name.endswith((".yaml", ".yml")) else []
    hero = _heroclix(rosters, given, required=False)
    key = Path(map_name).stem if given else map_name
    if hero is not None and (key in hero.maps or (given and len(hero.maps) == 1 and given[0].exists())):
        game_map = hero.maps[key] if key in hero.maps else next(iter(hero.maps.values()))
        console.print(heroclix_views.map_text(game_map), markup=False)
        if png is not None:
            heroclix_views.draw_map_png(game_map, png)
            console.print(f"wrote {png}", markup=False)
        return
    library = library_for(rosters, maps=[map_name])
    game_map = views.find_map(library.roster, library.id(map_name))
    console.print(views.map_text(game_map), markup=False)
    if png is not None:
        from clix.analyzer.library.mapdraw import draw_map_png

        draw_map_png(game_map, png)
        console.print(f"wrote {png}", markup=False)


def scenario_run(
    paths: Annotated[
        list[Path], typer.Argument(metavar="PATHS", help="Scenario files, or directories (every *.yaml below them).")
    ],
    rosters: RostersOption = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also print each scenario's event log.")] = False,
) -> None:
    """Run scenario files: one line per scenario (PASS/FAIL with every expectation that differed).

    Exit 0 if all pass, 1 if any fails, 2 if a file is not a valid scenario. The format is
    described in docs/scenario-format.md.
    """
    from clix.analyzer.tools.scenarios import run_paths

    raise typer.Exit(run_paths(paths, library_layers(rosters), verbose, console))


def schema(
    kind: Annotated[
        str | None,
        typer.Argument(
            metavar="KIND",
            help="figure, army, map, plot-twists, victims, scenario, or HeroClix's heroclix-character, heroclix-map, "
            "heroclix-force, heroclix-teams, heroclix-feats, heroclix-conditions, heroclix-scenario; omit it with --out "
            "to write them all.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write every format's schema into this folder as clix-KIND.schema.json."),
    ] = None,
    rosters: Annotated[
        list[Path] | None,
        typer.Option(
            "--rosters",
            metavar="PATH",
            help="Roster folder or file whose names the schema lists, so an editor completes them: an army's "
            "figures, crypt and victims, a scenario's figures, map and crypts, a force's characters, feats and "
            "condition, team symbols. Repeat to layer them as other commands do ('sample' is the sample "
            "library). Without it the schema lists no names, so files naming your own figures stay valid.",
        ),
    ] = None,
) -> None:
    """Print the JSON Schema of a roster or scenario file format, for editors that validate and complete YAML
    (see docs/data-formats.md, "Editor support")."""
    import json

    from clix.analyzer.library.schema import KINDS, library_names, schema_for, write_schemas

    names = None
    if rosters:
        names, problems = library_names(library_layers(rosters))
        if problems:
            stderr_console().print(
                f"clix: warning: {counted(problems, 'problem')} in the roster files; the items of files with "
                "problems are not listed (`clix roster check` lists them)",
                markup=False,
            )
    if out is not None:
        if kind is not None:
            raise ClixError("give KIND to print one schema, or --out DIR to write them all, not both")
        for path in write_schemas(out, names):
            console.print(f"wrote {path}", markup=False)
        return
    if kind is None:
        raise ClixError(f"name a format ({', '.join(KINDS)}), or pass --out DIR to write them all")
    sys.stdout.write(json.dumps(schema_for(kind, names), indent=2) + "\n")


def _heroclix(rosters: Sequence[Path] | None, extra: Sequence[Path] = (), required: bool = True) -> Any:
    """HeroClix's library under the roster folders (and `extra` files), loaded through the core's registry; a
    ClixError for problems in it (None instead when not `required` and it has no files)."""
    from clix.engine.core.ruleset import ruleset_named

    layers = [*library_layers(rosters), *(p for p in extra if p.exists())]
    hero, problems = ruleset_named("heroclix-2005").load_library(layers)
    if not hero.files and not required:
        return None
    if problems:
        raise ClixError(f"{problems[0]} (`clix roster check` lists every problem)")
    return hero
