"""The duel report's parts that need no games: the headline verdict, the VP histogram's bins, the starting
areas used, the armies' contents and the map drawn with the areas marked."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clix.analyzer.common.errors import ClixError
from clix.analyzer.library.mapdraw import draw_map_png
from clix.analyzer.library.views import army_contents, army_points
from clix.analyzer.report.charts import vp_bins, vp_step
from clix.analyzer.report.duel import areas_used, check_pdf, verdict
from clix.analyzer.report.folder import OWN_FILES, claim_output

SETTINGS = {"map": "graveyard", "players": "tuned,rusher"}
NAMES = {"a": "butcher-shop", "b": "firing-line"}


def summary_with(score: float, low: float, high: float, games: int = 400, draws: float = 0.0) -> dict:
    """The parts of a summary the verdict reads."""
    return {
        "score": {"score": score, "low": low, "high": high, "excludes_half": low > 0.5 or high < 0.5},
        "outcome": {"games": games, "draw": {"rate": draws}},
    }


def test_verdict_names_the_favourite_with_its_own_score_and_interval():
    assert verdict(summary_with(0.3, 0.26, 0.34), SETTINGS, NAMES) == (
        "firing-line wins 70% of games against butcher-shop [95% CI 66–74%] on graveyard (400 games, rusher vs tuned)."
    )
    assert verdict(summary_with(0.62, 0.55, 0.69, games=40), SETTINGS, NAMES) == (
        "butcher-shop wins 62% of games against firing-line [95% CI 55–69%] on graveyard (40 games, tuned vs rusher)."
    )


def test_verdict_says_no_clear_favourite_when_the_interval_holds_half():
    text = verdict(summary_with(0.55, 0.45, 0.65), SETTINGS, NAMES)
    assert text.startswith("No clear favourite: butcher-shop wins 55% of games against firing-line [95% CI 45–65%]")
    assert text.endswith("the interval includes 50%.")
    # A is the subject even when it scores under half: without a favourite nobody is turned around
    assert verdict(summary_with(0.45, 0.35, 0.55), SETTINGS, NAMES).startswith(
        "No clear favourite: butcher-shop wins 45%"
    )


def test_verdict_with_draws_a_mirror_and_a_bound_next_to_half():
    text = verdict(summary_with(0.6, 0.503, 0.7, draws=0.1), SETTINGS, {"a": "haunting", "b": "haunting"})
    assert text.startswith("haunting (A) scores 60.0% (wins + ½ draws) against haunting (B) [95% CI 50.3–70.0%]")
    assert "No clear favourite" not in text
    assert "[95% CI 49.7–70.0%]" in verdict(summary_with(0.6, 0.497, 0.7), SETTINGS, NAMES)


@pytest.mark.parametrize(("step", "top"), [(5, 150), (10, 300), (7, 70)])
def test_vp_bins_follow_the_step_of_the_values(step: int, top: int):
    values = np.arange(0, top + 1, step)
    edges = vp_bins(values)
    assert vp_step(values) == step
    assert np.allclose(np.diff(edges), step)  # one bin per possible value: no more than 40 of them here
    assert np.allclose((edges + step / 2) % step, 0)  # edges half a step off the values
    counts, _ = np.histogram(values, edges)
    assert counts.sum() == len(values) and (counts == 1).all()


def test_vp_bins_widen_by_whole_steps_and_never_split_a_value():
    values = np.arange(3, 301)  # step 1 over 298 values: wider bins, each a whole number of steps
    edges = vp_bins(values, max_bins=40)
    width = edges[1] - edges[0]
    assert vp_step(values) == 1 and width == 10 and len(edges) - 1 <= 40
    assert not np.isin(values, edges).any()
    counts, _ = np.histogram(values, edges)
    assert counts.sum() == len(values)
    margins = np.array([-30, -10, 0, 20, 50])  # VP margins: negative values, 0 in the middle of its bin
    edges = vp_bins(margins)
    assert np.allclose(np.diff(edges), 10) and np.histogram(margins, edges)[0].sum() == 5
    assert -5 in edges and 5 in edges
    assert vp_step([0, 0, 0]) == 1 and len(vp_bins([0, 0])) == 2 and vp_step([]) == 1


def test_areas_used_counts_each_side_per_area():
    games = pd.DataFrame({"area_a": [3, 4, 3, 4, 3], "area_b": [4, 3, 4, 3, 4]})
    assert areas_used(games) == {3: {"a": 3, "b": 2}, 4: {"a": 2, "b": 3}}
    assert areas_used(games.drop(columns=["area_a"])) == {}


def test_army_contents_lists_figures_points_crypt_and_victims(roster):
    army = roster.armies["butcher-shop"]
    contents = army_contents(roster, "butcher-shop")
    assert (contents.name, contents.build_total) == (army.name, army.build_total)
    assert [f.figure for f in contents.figures] == [e.figure for e in army.figures]
    assert [f.points for f in contents.figures] == [roster.figures[e.figure].points for e in army.figures]
    assert contents.used == army_points(roster, "butcher-shop") == sum(f.points for f in contents.figures)
    assert [c.name for c in contents.crypt] == army.crypt
    assert {c.kind for c in contents.crypt} <= {"normal", "subplot", "ticking_clock"}
    assert contents.victims == army.victims


def test_map_with_areas_used_differs_from_the_plain_map(roster, tmp_path: Path):
    plain, marked = tmp_path / "plain.png", tmp_path / "marked.png"
    layout = roster.maps["graveyard"]
    draw_map_png(layout, plain)
    draw_map_png(layout, marked, {3: "A 20\nB 20", 4: "A 20\nB 20"}, legend_below=True)
    assert marked.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert marked.read_bytes() != plain.read_bytes()


def test_pdf_files_belong_to_clix(tmp_path: Path):
    """A folder holding a duel's or a ladder's outputs with their PDFs may be replaced by the next run."""
    out = tmp_path / "out"
    out.mkdir()
    for name in ("report.pdf", "ladder.pdf", "map.png", "score.png", "vp_margin.png", "report.html"):
        assert name in OWN_FILES
        (out / name).write_text("old", encoding="utf-8")
    with claim_output(out):
        pass


def test_missing_weasyprint_is_a_one_line_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint raises ImportError
    with pytest.raises(ClixError, match=r"^--pdf: WeasyPrint cannot be loaded .*leave out --pdf$"):
        check_pdf()
