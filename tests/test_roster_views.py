"""`clix roster show/list/powers`: army views, plot-twist texts, the engine's powers, figure filters, 80 columns."""

from __future__ import annotations

import io
from pathlib import Path

import helpers
import pytest
from clix.analyzer.cli import app
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library import views
from clix.engine.horrorclix.registry import ABILITIES, PLOT_EFFECTS, POWERS
from clix.engine.horrorclix.roster.loader import Roster, load_roster
from rich.console import Console
from typer.testing import CliRunner

ROSTERS = Path(__file__).resolve().parent.parent / "rosters" / "horrorclix"


@pytest.fixture(scope="module")
def roster() -> Roster:
    loaded, problems = load_roster([ROSTERS])
    assert not problems
    return loaded


def run(*args: str, width: int = 200) -> tuple[int, str]:
    """Run `clix roster ...` against the sample rosters; exit code and output."""
    library = [] if args[0] == "powers" else ["--rosters", str(ROSTERS)]  # the registry needs no roster library
    result = CliRunner().invoke(app, ["roster", *args, *library], env={"COLUMNS": str(width)})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`clix roster ARGS` through `main()`, which turns user mistakes into one line and exit 2."""
    return helpers.run_main(["roster", *args, "--rosters", str(ROSTERS)], capsys)


def render(renderables: list, width: int = 80) -> str:
    """Renderables as plain text on a console `width` columns wide."""
    console = Console(width=width, record=True, file=io.StringIO())
    for renderable in renderables:
        console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("army_id", ["butcher-shop", "crimson-court", "midnight-rush"])
def test_army_show_lists_figures_and_points_used(roster, army_id):
    army = roster.armies[army_id]
    code, out = run("show", army_id)
    assert code == 0
    assert army.name in out
    for entry in army.figures:
        assert entry.figure in out
        assert roster.figures[entry.figure].name in out
    used = sum(roster.figures[e.figure].points for e in army.figures)
    assert f"{used} of {army.build_total}" in out
    assert f"{used} points used" in out
    for card in army.crypt:
        assert card in out
    for victim in army.victims:
        assert victim in out
    assert army.provenance in out


def test_army_show_marks_subplots_and_ticking_clocks(roster):
    out = render(views.army_view(roster, "butcher-shop"), width=120)
    lines = out.splitlines()
    for card in roster.armies["butcher-shop"].crypt:
        kind = roster.plot_twists[card].kind.replace("_", " ")
        assert any(card in line and kind in line for line in lines), card


def test_figure_show_still_works(roster):
    code, out = run("show", "countess-vey-v")
    assert code == 0
    assert "Countess Vey" in out and "Dial" in out


def test_unknown_name_is_one_line_exit_2(capsys):
    code, out, err = run_main(capsys, "show", "butcher-shp")
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "figure or army" in lines[0] and "did you mean 'butcher-shop'" in lines[0]


def test_unknown_name_suggests_figures_too(roster):
    with pytest.raises(ClixError, match="did you mean 'countess-vey-v'"):
        views.show_view(roster, "countess-vey")


def test_plot_twist_list_has_kind_windows_and_text(roster):
    code, out = run("list", "plot-twists", width=400)
    assert code == 0
    flat = " ".join(out.split())
    for card in roster.plot_twists.values():
        assert card.name in out
        assert " ".join(card.text.split())[:40] in flat, card.name
    assert "ticking clock" in out and "subplot" in out


def test_powers_lists_every_registered_name():
    code, out = run("powers", width=400)
    assert code == 0
    for name in [*POWERS, *ABILITIES, *PLOT_EFFECTS]:
        assert name in out, name
    # parameters and descriptions are shown, too
    assert "amount" in out
    assert "Ticking clock" in out


@pytest.mark.parametrize(
    ("args", "keep"),
    [
        (["--class", "Undead"], lambda f: "Undead" in f.classes),
        (["--class", "vampire", "--class", "undead"], lambda f: {"Vampire", "Undead"} <= set(f.classes)),
        (["--min-points", "60"], lambda f: f.points >= 60),
        (["--max-points", "30"], lambda f: f.points <= 30),
        (["--min-points", "40", "--max-points", "70"], lambda f: 40 <= f.points <= 70),
        (["--cabal", "Crimson Court"], lambda f: f.cabal is not None and f.cabal.name == "Crimson Court"),
        (["--rank", "unique"], lambda f: f.rank == "unique"),
        (["--rank", "veteran", "--class", "Beasts"], lambda f: f.rank == "veteran" and "Beasts" in f.classes),
    ],
)
def test_figure_filters(roster, args, keep):
    expected = {f.id for f in roster.figures.values() if keep(f)}
    assert expected and len(expected) < len(roster.figures)
    code, out = run("list", "figures", *args)
    assert code == 0
    shown = {line.split()[0] for line in out.splitlines() if line.split() and line.split()[0] in roster.figures}
    assert shown == expected
    chosen = views.filter_figures(roster, views.FigureFilter(*_filter_args(args)))
    assert {f.id for f in chosen} == expected


def _filter_args(args: list[str]) -> tuple:
    pairs = list(zip(args[::2], args[1::2], strict=True))
    classes = tuple(v for k, v in pairs if k == "--class")
    named = dict(pairs)
    points = [int(named[k]) if k in named else None for k in ("--min-points", "--max-points")]
    return classes, *points, named.get("--cabal"), named.get("--rank")


@pytest.mark.parametrize("args", [["--class", "Undeed"], ["--cabal", "Crimson"], ["--rank", "uncommon"]])
def test_unknown_filter_value_is_one_line_exit_2(capsys, args):
    code, out, err = run_main(capsys, "list", "figures", *args)
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1


def test_filters_only_for_figures(capsys):
    code, out, err = run_main(capsys, "list", "armies", "--rank", "unique")
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("what", ["figures", "plot-twists", "victims", "maps", "armies"])
def test_listings_fit_80_columns(roster, what):
    out = render([views.listing(roster, what)])
    assert "…" not in out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    if what == "figures":
        for figure in roster.figures.values():
            assert figure.id in out  # whole ids, not folded


@pytest.mark.parametrize("name", ["butcher-shop", "crimson-court"])
def test_army_view_fits_80_columns(roster, name):
    out = render(views.army_view(roster, name))
    assert "…" not in out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80


def test_powers_view_fits_80_columns():
    out = render(views.powers_view())
    assert "…" not in out
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
