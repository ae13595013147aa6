"""`clix horrified`'s report (issue 40): for every table, horrified.html and horrified.pdf open with the title then
the headline, list every component that is not from the rulebook (by the files' own `provenance` fields) before any
result, draw what ends the games by turn, and mark each sensitivity verdict "survives" or "flips under ...". The
pages pass the checks the other reports pass (tests/test_report_pages.py): nothing off the PDF's pages, no lines
drawn over each other, plot text legible (tests/plot_probe.py), and in headless Chromium at 1280 and 400 pixels
nothing cut, overlapping or broken (tests/browser_checks.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import plot_probe
import pypdfium2 as pdfium
import pytest
import yaml
from browser_checks import page_facts
from clix.analyzer.horrified.report import LEVELS, rests_on
from clix.analyzer.horrified.summary import ends_by_turn
from clix.analyzer.horrified.tables import marks
from pdf_checks import html_opening, ids_in, overlapping_lines, pdf_facts, squeeze

ROOT = Path(__file__).resolve().parents[1]
RUNS = {"lineup": 20, "difficulty": 3, "heroes": 3, "sensitivity": 3}
"""Each table's games per cell: the smallest run that still has games in every cell."""
RESULTS = {"lineup": "Win rate", "difficulty": "Difficulty", "heroes": "Heroes", "sensitivity": "Sensitivity"}
"""The first results heading of each table's report."""


@dataclass
class Report:
    table: str
    data: dict
    html: str
    pdf: Path
    plots: list[dict]


@pytest.fixture(scope="module", params=list(RUNS))
def report(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Report:
    table = request.param
    cwd = tmp_path_factory.mktemp(table)
    plots = cwd / "plots.jsonl"
    probe = [sys.executable, str(ROOT / "tests" / "plot_probe.py"), str(plots)]
    args = ["horrified", "--table", table, "-n", str(RUNS[table]), "--jobs", "1", "-o", str(cwd / "out")]
    args += (
        ["--no-sensitivity"] if table == "difficulty" else []
    )  # its check: 1,600 cell-worlds (test_horrified_robust)
    done = subprocess.run([*probe, *args, "--pdf", "--json"], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    html = (cwd / "out" / "horrified.html").read_text(encoding="utf-8")
    return Report(table, json.loads(done.stdout), html, cwd / "out" / "horrified.pdf", plot_probe.read(plots))


def _provenances(data: object) -> list[str]:
    """Every `provenance` value in a parsed YAML file (a monster's is one per field)."""
    if isinstance(data, list):
        return [p for item in data for p in _provenances(item)]
    if not isinstance(data, dict):
        return []
    own = data.get("provenance")
    found = list(own.values()) if isinstance(own, dict) else [own] if own else []
    return found + [p for key, value in data.items() if key != "provenance" for p in _provenances(value)]


def test_every_component_not_from_the_rulebook_is_listed_by_its_provenance() -> None:
    """The count of each provenance matches the files read on their own (the sensitivity table left out)."""
    expected: dict[str, int] = {}
    for path in sorted((ROOT / "rosters" / "horrified").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for provenance in _provenances({k: v for k, v in data.items() if k != "sensitivity"}):
            expected[provenance] = expected.get(provenance, 0) + 1
    found = rests_on(())
    assert {level["provenance"]: level["count"] for level in found["levels"]} == {k: expected.get(k, 0) for k in LEVELS}
    assert found["rulebook"] == expected["rulebook"]
    assumed = [i for g in found["levels"][0]["groups"] for i in [g["table"], *g["items"]]]
    assert "terror" in assumed and "dracula start" in assumed  # game.yaml: terror assumed; monsters.yaml: per field


def test_the_report_opens_with_title_headline_then_what_it_rests_on_before_any_result(report: Report) -> None:
    title, body = html_opening(report.html)
    headline = report.data["headline"]
    assert squeeze(body).startswith(squeeze(title) + squeeze(headline)), body[:300]
    assert f"{report.data['games']:,} games" in headline
    first_page = pdfium.PdfDocument(report.pdf)[0].get_textpage().get_text_range()
    assert squeeze(first_page).startswith(squeeze(title) + squeeze(headline)), first_page[:300]
    rests, results = body.index("What this rests on"), body.index(RESULTS[report.table])
    assert rests < results and "Assumed" in body[rests:results] and "terror" in body[rests:results]
    assert body.index("What ends the games") > results


def test_the_pdf_has_nothing_off_its_pages_or_drawn_over_other_lines(report: Report, tmp_path: Path) -> None:
    sizes, _, outside = pdf_facts(report.pdf, tmp_path / "pages")
    assert all(sorted(round(v) for v in size) == [595, 842] for size in sizes)
    assert not outside, outside[:5]
    assert not overlapping_lines(report.pdf)


def test_the_plot_shows_every_game_and_its_text_is_legible(report: Report) -> None:
    ends = report.data["ends_by_turn"]
    played = report.data["games"]
    assert sum(sum(ends[end]) for end in ("win", "terror", "deck out")) == played
    assert len(report.plots) == 1
    plot = report.plots[0]
    assert plot["texts"] > 0 and not plot["overlaps"] and not plot["off"] and plot["smallest"] >= 7, plot


def test_a_sensitivity_report_marks_each_verdict(report: Report) -> None:
    if report.table != "sensitivity":
        assert "survives" not in report.data
        return
    for key, mark in report.data["marks"].items():
        assert mark == "survives" if report.data["survives"][key] else mark.startswith("flips under ")
        assert squeeze(mark) in squeeze(html_opening(report.html)[1])


def test_a_verdict_flips_under_the_values_that_change_it() -> None:
    rows = [
        {"assumption": "terror-skull", "value": 5, "flips": ["win rate"]},
        {"assumption": "terror-skull", "value": 9, "flips": []},
        {"assumption": "hit-faces", "value": 2, "flips": ["commoner loss", "win rate"]},
    ]
    assert marks(rows, ["win rate", "commoner loss", "other"]) == {
        "win rate": "flips under terror-skull 5, hit-faces 2",
        "commoner loss": "flips under hit-faces 2",
        "other": "survives",
    }


def test_ends_by_turn_counts_each_game_at_its_last_turn() -> None:
    rows = [{"turns": 3, "end": "win"}, {"turns": 5, "end": "terror"}, {"turns": 5, "end": "deck out"}]
    assert ends_by_turn(rows) == {"turn": [3, 4, 5], "win": [1, 0, 0], "terror": [0, 0, 1], "deck out": [0, 0, 1]}
    assert ends_by_turn([]) == {"turn": [], "win": [], "terror": [], "deck out": []}


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 400])
def test_chromium_shows_the_headline_first_and_nothing_cut_broken_or_overlapping(
    report: Report, width: int, tmp_path: Path
) -> None:
    html = report.pdf.with_name("horrified.html")
    facts = page_facts(html, width, ids_in(report.data), tmp_path / "profile")
    title, _ = html_opening(report.html)
    assert squeeze(facts["text"]).startswith(squeeze(title) + squeeze(report.data["headline"])), facts["text"][:300]
    assert not facts["cut"], facts["cut"][:5]
    assert not facts["overlaps"], facts["overlaps"][:3]
    assert not facts["broken"], facts["broken"][:5]
    assert facts["images"] == 1 and not facts["unloaded"]
