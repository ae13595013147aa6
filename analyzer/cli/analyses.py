"""The analyses that design armies: value and build (`clix meta`: cli/meta.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from clix.analyzer.cli.common import (
    ForceOption,
    JobsOption,
    JsonOption,
    PdfOption,
    RostersOption,
    RulesetOption,
    SeedOption,
    StopOption,
    StoreOption,
    TurnsOption,
    analysis_library_for,
    analysis_ruleset,
    console,
    did_you_mean_card,
    library_for,
    of_total,
    repeated_names,
    split_names,
    stderr_console,
    store_for,
)
from clix.analyzer.common import checks
from clix.analyzer.common.errors import ClixError
from clix.analyzer.value.numbers import MAX_RESAMPLES, MIN_RESAMPLES
from clix.engine.core.ruleset import DEFAULT_RULESET

if TYPE_CHECKING:
    from clix.engine.horrorclix.roster.loader import Roster

_NO_SUCH = {"--cabal": "cabals", "--class": "figure classes", "--crypt": "crypt of plot twists"}
"""What `clix build`'s HorrorClix-only options name, for the one line refusing them on another ruleset."""
MAX_ALTERNATIVES = 50
"""`clix value --swap --alternatives` at most: each replacement plays every field army on every map."""


def value(
    budget: Annotated[int, typer.Option("--budget", help="Build total of the random armies (100, 200, ...).")] = 100,
    armies: Annotated[int, typer.Option("--armies", help="Random legal armies to draw.")] = 1500,
    opponents: Annotated[int, typer.Option("--opponents", help="Other armies each army plays (even).")] = 6,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            help="Games per matchup, in seat-swapped pairs (default 2); with --swap, games per field army and map "
            "(default 200).",
        ),
    ] = None,
    maps: Annotated[
        str | None,
        typer.Option("--maps", help="Maps to play on, comma-separated (default: graveyard; HeroClix: chemical-plant)."),
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="Player style(s), comma-separated: with several, each figure's value is also given per style "
            "(default: tuned; HeroClix: its default style).",
        ),
    ] = None,
    pool: Annotated[
        list[str] | None,
        typer.Option(
            "--pool",
            metavar="FIGURES",
            help="Draw the armies from these figures only (ids, comma-separated or repeated).",
        ),
    ] = None,
    swap: Annotated[
        str | None,
        typer.Option("--swap", help="Swap test: replace this figure in --in ARMY by equal points of alternatives."),
    ] = None,
    army: Annotated[str | None, typer.Option("--in", help="The army of the swap test (id or file).")] = None,
    against: Annotated[
        str | None,
        typer.Option("--against", help="Swap test: armies to play (default: the library's armies of its build total)."),
    ] = None,
    alternatives: Annotated[
        int,
        typer.Option(
            "--alternatives", help=f"Swap test: replacements to try, closest in points first (1 to {MAX_ALTERNATIVES})."
        ),
    ] = 6,
    resamples: Annotated[
        int,
        typer.Option(
            "--resamples", help=f"Bootstrap resamples for the intervals ({MIN_RESAMPLES} to {MAX_RESAMPLES:,})."
        ),
    ] = 200,
    holdout: Annotated[
        int,
        typer.Option(
            "--holdout",
            help="Near-full armies outside the design that play each other (each against two others) to check the "
            "fitted values: predicted against measured (0: no check).",
        ),
    ] = 16,
    holdout_games: Annotated[
        int | None,
        typer.Option(
            "--holdout-games",
            help="Games per holdout pairing, map and style, in seat-swapped pairs (default 100, fewer when the design "
            "is small: the check adds at most about a fifth of the design's games, 2 or more a pairing).",
        ),
    ] = None,
    predict: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--predict",
            metavar="ARMY_A ARMY_B",
            help="Also predict ARMY_A's score against ARMY_B (ids or army files) from the fitted values, with a 95% "
            "interval: the fit's bootstrap plus the model's own error measured on the holdout.",
        ),
    ] = None,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    turns: TurnsOption = 15,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Output directory (default: a new folder clix-out/value/run-YYYYMMDD-HHMMSS)."
        ),
    ] = None,
    force: ForceOption = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
    pdf: PdfOption = False,
    stop_on_error: StopOption = False,
    rosters: RostersOption = None,
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset",
            help="heroclix-2005: what each HeroClix character is worth, from random legal forces of --budget "
            "(forces named by --in, --against or --predict say their ruleset themselves).",
        ),
    ] = None,
) -> None:
    """What each figure and plot twist is worth in points, with 95% intervals: random legal armies of --budget
    play each other in seat-swapped pairs and an additive logistic model of army strength is fitted, calibrated
    so one point of cost is worth one point on average. Prints each figure's value and its cost-curve residual
    (value - cost: under- or over-costed at 3.5 standard errors, "leans" at the 95% interval, else fair within the
    data; intervals from a bootstrap over the armies); checks itself on a holdout of armies it never saw; writes
    value.csv, value.json, games.csv and value.html (value.pdf with --pdf). With --swap FIGURE --in ARMY: the score
    change from replacing the figure by equal points of alternatives."""
    from clix.analyzer.report.folder import Target
    from clix.analyzer.value.command import Design, run_swap, run_value, value_numbers
    from clix.analyzer.value.pieces import pieces_of

    checks.turns(turns)
    checks.seed(seed)
    cores = checks.jobs(jobs, stderr_console())
    named = [("--in", army)] if army else []
    named += [("--against", a) for a in split_names(against)] + [("--predict", a) for a in predict or ()]
    chosen = analysis_ruleset(rosters, named + [("--maps", m) for m in split_names(maps)], ruleset)
    other = None
    if chosen != DEFAULT_RULESET:  # HeroClix: its library, default map and styles (analyzer/value/pieces.py)
        from clix.analyzer.meta.field import field_styles

        label = named[0][0] if named else "--in"
        other = analysis_library_for(rosters, chosen, [a for _, a in named], split_names(maps), label=label)
        map_names = [other.id(m) for m in split_names(maps)] or [other.id("")]
        styles = tuple(field_styles(players, chosen))
    else:
        map_names = list(split_names(maps)) or ["graveyard"]
        styles = tuple(split_names(players)) or ("tuned",)
    if swap is not None or army is not None:
        if swap is None or army is None:
            raise ClixError("--swap FIGURE and --in ARMY go together")
        if len(styles) > 1:
            raise ClixError("--players: the swap test plays one style")
        swap_games = checks.games(200 if games is None else games)
        if not 1 <= alternatives <= MAX_ALTERNATIVES:
            raise ClixError(f"--alternatives takes 1 to {MAX_ALTERNATIVES} replacements to try (got {alternatives:,})")

        def same_total(roster: Roster) -> dict[str, list[str]]:  # the field when --against names none
            mine = roster.armies.get(army) if not split_names(against) else None
            return {"armies": [a for a, x in roster.armies.items() if mine and x.build_total == mine.build_total]}

        if other is None:
            library = library_for(
                rosters, armies=[army, *split_names(against)], maps=map_names, figures=[swap], choose=same_total
            )
            data, layers, ident = library.roster, library.layers, library.id
        else:
            data, layers, ident = other.data, other.layers, other.id
        armies_of = pieces_of(data).armies
        army_id = ident(army)
        total = armies_of[army_id].build_total
        field = [ident(a) for a in split_names(against)] or sorted(
            a for a, x in armies_of.items() if x.build_total == total
        )
        checks.cells_games(
            swap_games,
            (alternatives + 1) * len(field) * len(map_names),
            what="armies, field armies and maps",
            one="army, field army and map",
        )
        raise typer.Exit(
            run_swap(
                data,
                layers,
                army_id,
                swap if other is not None else ident(swap),
                opponents=field,
                limit=alternatives,
                games=swap_games,
                maps=[ident(m) for m in map_names],
                style=styles[0],
                turns=turns,
                seed=seed,
                jobs=cores,
                store=store_for(store),
                as_json=as_json,
                console=console,
            )
        )
    per_matchup, holdout_games = value_numbers(
        budget=budget,
        armies=armies,
        opponents=opponents,
        games=games,
        cells=len(map_names) * len(styles),
        resamples=resamples,
        holdout=holdout,
        holdout_games=holdout_games,
        predict=predict is not None,
    )
    if other is None:
        library = library_for(rosters, maps=map_names, armies=list(predict or ()))
        data, layers, ident = library.roster, library.layers, library.id
    else:
        data, layers, ident = other.data, other.layers, other.id
    design = Design(
        budget=budget,
        armies=armies,
        opponents=opponents,
        games=per_matchup,
        maps=tuple(ident(m) for m in map_names),
        styles=styles,
        turns=turns,
        seed=seed,
        pool=repeated_names(pool),
        holdout=holdout,
        holdout_games=holdout_games,
    )
    raise typer.Exit(
        run_value(
            data,
            layers,
            design,
            jobs=cores,
            out=Target(Path("clix-out/value"), new_run=True) if out is None else Target(out, force=force),
            store=store_for(store),
            as_json=as_json,
            console=console,
            resamples=resamples,
            pdf=pdf,
            stop_on_error=stop_on_error,
            predict=None if predict is None else (ident(predict[0]), ident(predict[1])),
        )
    )


def build(
    budget: Annotated[int, typer.Option("--budget", help="Build total: 100, 200, 300, ...")] = 100,
    field: Annotated[
        list[str] | None,
        typer.Option(
            "--field",
            metavar="ARMIES",
            help="The armies to beat: ids, army files, folders of army files, or a field.json with weights (as "
            "`clix meta` writes its Nash mixture); comma-separated or repeated. Default: the library's armies of "
            "--budget points.",
        ),
    ] = None,
    include: Annotated[
        list[str] | None, typer.Option("--include", metavar="FIGURES", help="Figures every build must field.")
    ] = None,
    exclude: Annotated[
        list[str] | None, typer.Option("--exclude", metavar="FIGURES", help="Figures no build may field.")
    ] = None,
    cabal: Annotated[
        list[str] | None,
        typer.Option(
            "--cabal",
            metavar="CABAL",
            help="Only figures of this cabal (repeat it, or comma-separate cabals, for several).",
        ),
    ] = None,
    figure_class: Annotated[
        list[str] | None, typer.Option("--class", metavar="CLASS", help="Only figures of this class (repeatable).")
    ] = None,
    crypt: Annotated[
        str | None,
        typer.Option(
            "--crypt",
            help="The crypt every build plays, comma-separated plot twists (default: the best cards by --values, else "
            "the cards the field holds most).",
        ),
    ] = None,
    maps: Annotated[
        str | None,
        typer.Option(
            "--maps",
            help="Maps to play on, comma-separated (default: every map of the library, as `clix meta` does; a build "
            "is compared with the field's armies over all of them).",
        ),
    ] = None,
    players: Annotated[str, typer.Option("--players", "-p", help="The player style of both sides.")] = "tuned",
    values: Annotated[
        Path | None,
        typer.Option("--values", help="A `clix value` run's value.json: half the candidates follow its estimates."),
    ] = None,
    candidates: Annotated[
        int,
        typer.Option("--candidates", help="Builds to race, 1 to 5,000 (all, when fewer are legal)."),
    ] = 243,
    first_games: Annotated[
        int, typer.Option("--first-games", help="Games per field army and map in the first stage.")
    ] = 4,
    eta: Annotated[
        int, typer.Option("--eta", help="Each stage keeps the best 1/eta with eta times the games (2 to 10).")
    ] = 3,
    finalists: Annotated[int, typer.Option("--finalists", help="Builds measured at the end, 1 to 50.")] = 4,
    objective: Annotated[
        str,
        typer.Option(
            "--objective",
            help="Rank builds by: field (the weighted mean score against the field), maximin (the worst head-to-head "
            "score over the field's armies) or auto (maximin when a field army's score against the rest of the field "
            "has its interval above 60%, else field).",
        ),
    ] = "auto",
    final_games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            "--final-games",
            help="Games per cell of the final measurement: each finalist against each field army on each map "
            "(fresh seeds; --final-games is its former name).",
        ),
    ] = 1000,
    seed: SeedOption = 0,
    jobs: JobsOption = 0,
    turns: TurnsOption = 15,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Output directory (default: a new folder clix-out/build/run-YYYYMMDD-HHMMSS)."
        ),
    ] = None,
    force: ForceOption = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
    pdf: PdfOption = False,
    rosters: RostersOption = None,
    ruleset: RulesetOption = None,
) -> None:
    """The best legal army for --budget against a field: candidates from the legal space race in stages
    (successive halving with common random numbers), the finalists and the field's own armies are measured on
    fresh seeds. Prints the top builds with their score against the field and each field army (95% intervals),
    sidegrades (builds the data cannot tell from the best), why each wins (or falls short); builds are named by
    rank (build-01 the best) and the headline says whether build-01 beats the field's best army on the same seeds
    (paired interval) and each field army head to head, or names the army no build was found to beat, and which objective ranked the builds (--objective: the score
    against the field, the worst head-to-head score, or auto: the worst case when a field army dominates the rest);
    writes build.json, builds.csv,
    games.csv, build.html (build.pdf with --pdf) and each finalist's army file. A field of HeroClix forces (or
    --ruleset heroclix-2005) builds HeroClix forces: candidates are random legal forces (HX-BUILD-01/03/04), and why a
    build wins is told in knockouts and survivors' VP."""
    from clix.analyzer.build.command import Constraints, Search, field_entries, resolve_field, run_build
    from clix.analyzer.report.folder import Target

    checks.budget(budget)
    checks.turns(turns)
    checks.seed(seed)
    checks.games(first_games, "--first-games")
    checks.games(final_games, "--games")
    cores = checks.jobs(jobs, stderr_console())
    named_maps = split_names(maps)
    entries, source = field_entries(field) if field else ([], "")
    chosen = analysis_ruleset(
        rosters, [("--field", e.army) for e in entries] + [("--maps", m) for m in named_maps], ruleset
    )
    if chosen != DEFAULT_RULESET:  # HeroClix: its library and forces (analyzer/value/pieces.py)
        given = {"--cabal": cabal, "--class": figure_class, "--crypt": crypt}
        for option, value in given.items():
            if value:
                raise ClixError(f"{option}: {chosen} forces have no {_NO_SUCH[option]}; leave out {option}")
        other = analysis_library_for(rosters, chosen, [e.army for e in entries], named_maps, label="--field")
        data, layers, ident = other.data, other.layers, other.id
        found = sorted(a for a, f in other.kit.armies(data).items() if f.build_total == budget)
        kinds = "forces"
    else:

        def every_map(roster: Roster) -> list[str]:
            """Every map of the library when --maps names none."""
            return [] if named_maps else sorted(roster.maps)

        library = library_for(
            rosters,
            armies=[e.army for e in entries],
            maps=named_maps,
            choose=lambda roster: {"maps": every_map(roster)} | ({} if field else {"armies": of_total(roster, budget)}),
        )
        data, layers, ident = library.roster, library.layers, library.id
        found, kinds = of_total(data, budget), "armies"
    if field:
        field_armies = resolve_field(entries, ident)
    else:
        if not found:
            raise ClixError(
                f"--field: the library has no {kinds[:-1] if kinds == 'forces' else 'army'} of {budget} points; "
                "name the field with --field"
            )
        field_armies = [(a, 1 / len(found)) for a in found]
        source = f"the library's {budget}-point {kinds}"
    constraints = Constraints(
        budget=budget,
        include=repeated_names(include),
        exclude=repeated_names(exclude),
        cabals=repeated_names(cabal),
        classes=repeated_names(figure_class),
        crypt=repeated_names([crypt] if crypt else None),
    )
    for card in constraints.crypt:
        if card not in data.plot_twists:
            raise ClixError("--crypt: " + did_you_mean_card("plot twist", card, data.plot_twists))
    search = Search(
        candidates=candidates,
        first=first_games,
        eta=eta,
        finalists=finalists,
        final=final_games,
        maps=tuple(ident(m) for m in named_maps) or tuple(sorted(data.maps)),
        style=players.strip(),
        turns=turns,
        seed=seed,
        objective=objective.strip(),
    )
    raise typer.Exit(
        run_build(
            data,
            layers,
            constraints,
            field_armies,
            search,
            field_source=source,
            jobs=cores,
            out=Target(Path("clix-out/build"), new_run=True) if out is None else Target(out, force=force),
            store=store_for(store),
            values=values,
            as_json=as_json,
            console=console,
            pdf=pdf,
        )
    )
