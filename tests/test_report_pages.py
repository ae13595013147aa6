"""Every report's pages as a reader sees them (issue 37, item 5, "Done when"): for duel, ladder, meta, value and
build, page 1 of the PDF (the print rendering of the HTML, by WeasyPrint) and the HTML open with the report's
one-sentence headline and state the run's size beside it; no text is cut (off the page, a table's last column
missing, an id or option broken at a hyphen), no line of text overlaps another, and every plot is drawn; the
HTML as a browser window shows it (its screen styles, rendered by WeasyPrint) opens the same way, with no id
broken and no overlapping text.

One tiny run per command, in a folder of its own (the project's store is not touched)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import plot_probe
import pypdfium2 as pdfium
import pytest
from browser_checks import page_facts, screenshot
from clix.analyzer.report.duel import write_pdf
from pdf_checks import (
    blank_plots,
    broken_at_hyphens,
    check_tables,
    clix,
    html_opening,
    ids_in,
    overlapping_lines,
    pdf_facts,
    plot_pages,
    screen_pdf,
    squeeze,
)

COMMANDS: dict[str, tuple[str, str]] = {
    "duel": ("duel butcher-shop firing-line --games 8", "report"),
    "ladder": ("ladder --players tuned,random --armies butcher-shop --maps graveyard --games 4", "ladder"),
    "meta": ("meta butcher-shop firing-line haunting --games 4", "meta"),
    "value": ("value --budget 100 --armies 3 --opponents 2 --games 2 --resamples 10 --holdout 0", "value"),
    "build": (
        "build --budget 100 --field butcher-shop,firing-line --maps graveyard --candidates 2 --first-games 2 "
        "--finalists 1 --games 2",
        "build",
    ),
}
"""Each command's smallest run its options accept, and the stem of its report (report.html, ladder.html, ...)."""

SCREENSHOTS = os.environ.get("CLIX_SCREENSHOTS")
"""A folder to keep pictures of the reports in (docs/reports.md shows those in docs/screenshots): the browser's
screenshots and page 1 of each PDF; by default the screenshots go to tmp and no PDF page is kept."""

PLOTS = {"duel": 5, "ladder": 0, "meta": 2, "value": 2, "build": 0}
"""Pages with a plot at least, in each report of these runs."""


@dataclass
class Report:
    """A command's run: its --json output and its report, HTML and PDF."""

    name: str
    data: dict
    html: str
    pdf: Path
    plots: list[dict]
    """The text of each plot it saved, as drawn (tests/plot_probe.py)."""

    @property
    def headline(self) -> str:
        """The one-sentence verdict the command prints in its --json."""
        return str(self.data.get("verdict") or self.data.get("headline") or "")

    @property
    def games(self) -> int:
        """The run's size: the games it played (or took from the store) in all."""
        settings = self.data["settings"]
        return int(settings["played"] if self.name in ("value", "build") else settings["games"])


@pytest.fixture(scope="module", params=list(COMMANDS))
def report(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Report:
    name = request.param
    args, stem = COMMANDS[name]
    cwd = tmp_path_factory.mktemp(name)
    plots = cwd / "plots.jsonl"
    done = clix(*args.split(), "--jobs", "1", "--out", str(cwd / "out"), "--pdf", "--json", cwd=cwd, plots=plots)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr
    html = (cwd / "out" / f"{stem}.html").read_text(encoding="utf-8")
    return Report(name, json.loads(done.stdout), html, cwd / "out" / f"{stem}.pdf", plot_probe.read(plots))


def test_page_one_and_the_html_open_with_the_headline_and_the_runs_size(report: Report) -> None:
    assert report.headline, f"the {report.name} --json has no verdict or headline"
    title, body = html_opening(report.html)
    first_page = pdfium.PdfDocument(report.pdf)[0].get_textpage().get_text_range()
    for where, text in (("page 1 of the PDF", first_page), ("the HTML", body)):
        assert squeeze(text).startswith(squeeze(title) + squeeze(report.headline)), (
            f"{where} of the {report.name} report does not open with its title {title!r} then its headline "
            f"{report.headline!r}: it opens {' '.join(text.split())[:200]!r}"
        )
    # the size: in the headline or the paragraph right after it
    near = squeeze(first_page)[: len(squeeze(title + report.headline)) + 400]
    assert squeeze(f"{report.games:,} games") in near, f"{report.games:,} games is not stated by the headline"
    if SCREENSHOTS:  # page 1 as a picture, beside the browser's screenshots
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        pdfium.PdfDocument(report.pdf)[0].render(scale=1.25).to_pil().save(Path(SCREENSHOTS) / f"{report.name}-pdf.png")


def test_no_text_is_cut(report: Report, tmp_path: Path) -> None:
    sizes, text, outside = pdf_facts(report.pdf, tmp_path / "pages")
    assert all(sorted(round(v) for v in size) == [595, 842] for size in sizes)  # A4, either way up
    assert not outside, f"{len(outside)} characters off the page, e.g. {outside[:5]}"
    check_tables(report.html, text, expected_tables=1 if report.name != "build" else 2)
    ids = ids_in(report.data)
    assert not broken_at_hyphens(text, ids), broken_at_hyphens(text, ids)[:5]
    _, body = html_opening(report.html)
    shown = {identifier for identifier in ids if identifier in body}
    assert shown, "no id of the run is in the report"
    assert not [i for i in shown if i not in text], [i for i in shown if i not in text]


def test_no_text_overlaps_and_every_plot_is_drawn(report: Report) -> None:
    overlaps = overlapping_lines(report.pdf)
    assert not overlaps, f"{len(overlaps)} lines of text overlap, e.g. {overlaps[:3]}"
    assert plot_pages(report.pdf) >= PLOTS[report.name]
    assert not blank_plots(report.pdf)


SMALLEST_TEXT = 7
"""Points: the smallest text a plot may draw (at the report's size, 7-inch-wide figures printed at about 6 inches)."""


def test_no_text_in_a_plot_overlaps_or_runs_off_it_and_none_is_too_small(report: Report) -> None:
    """Text inside the plots, as matplotlib draws it (tests/plot_probe.py): no two texts overlap, none runs off
    its figure, none is smaller than SMALLEST_TEXT points."""
    assert len(report.plots) >= PLOTS[report.name]
    for plot in report.plots:
        where = Path(plot["file"]).name
        assert plot["texts"] > 0, f"{where} draws no text"
        assert not plot["overlaps"], f"{where}: {len(plot['overlaps'])} texts overlap, e.g. {plot['overlaps'][:3]}"
        assert not plot["off"], f"{where}: texts off the figure: {plot['off'][:5]}"
        assert plot["smallest"] >= SMALLEST_TEXT, f"{where}: text of {plot['smallest']} points"


def test_the_plot_probe_finds_overlapping_and_cut_text(tmp_path: Path) -> None:
    """The plot check is not vacuous: two labels at one point overlap, a label past the right edge runs off, a
    tick label outside the axes' limits (never drawn) is not counted; spread out, nothing is found."""
    from matplotlib.figure import Figure

    for faulty in (False, True):
        figure = Figure(figsize=(4, 3))
        axes = figure.add_subplot()
        axes.set_xticks([0, 5, 10, 50])
        axes.set_xlim(0, 10)  # 50 is outside the limits
        axes.annotate("first label", (2, 0.5))
        axes.annotate("second label", (2 if faulty else 6, 0.5 if faulty else 0.2))
        axes.annotate("at the edge", (9.9 if faulty else 6, 0.8))
        facts = plot_probe.text_facts(figure, tight=False)
        assert bool(facts["overlaps"]) == bool(facts["off"]) == faulty, facts
        assert facts["texts"] == 3 + 3 + 6  # the labels, ticks 0, 5 and 10 (not 50), and the y ticks 0 to 1


def test_the_html_on_a_screen_opens_with_the_headline_with_no_broken_or_overlapping_text(
    report: Report, tmp_path: Path
) -> None:
    """The HTML as a browser window 1280 pixels wide shows it (the screen styles; a wide table scrolls there, so
    text beyond the window's edge is not counted)."""
    screen = screen_pdf(report.html, tmp_path / "screen.pdf")
    title, _ = html_opening(report.html)
    first_page = pdfium.PdfDocument(screen)[0].get_textpage().get_text_range()
    assert squeeze(first_page).startswith(squeeze(title) + squeeze(report.headline)), first_page[:300]
    _, text, _ = pdf_facts(screen, tmp_path / "screen")
    ids = ids_in(report.data)
    assert not broken_at_hyphens(text, ids), broken_at_hyphens(text, ids)[:5]
    overlaps = overlapping_lines(screen)
    assert not overlaps, f"{len(overlaps)} lines of text overlap, e.g. {overlaps[:3]}"


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 400])
def test_chromium_shows_the_headline_first_and_no_cut_broken_or_overlapping_text(
    report: Report, width: int, tmp_path: Path
) -> None:
    """The HTML in headless Chromium, in a window 1280 pixels wide and one 400 wide (a phone; about 50 columns of
    text): it opens with the title then the headline; no text or image runs off the window outside a box that
    scrolls; no two lines of text are drawn over each other; no id of the run is broken over two lines; every
    image loads. A screenshot of the first screen is kept (CLIX_SCREENSHOTS: in that folder)."""
    html = report.pdf.with_name(report.pdf.stem + ".html")
    facts = page_facts(html, width, ids_in(report.data), tmp_path / "profile")
    title, _ = html_opening(report.html)
    assert squeeze(facts["text"]).startswith(squeeze(title) + squeeze(report.headline)), facts["text"][:300]
    assert not facts["cut"], f"{len(facts['cut'])} pieces run off a {width}-pixel window, e.g. {facts['cut'][:5]}"
    assert not facts["overlaps"], f"{len(facts['overlaps'])} lines overlap, e.g. {facts['overlaps'][:3]}"
    assert not facts["broken"], facts["broken"][:5]
    assert not facts["unloaded"] and facts["images"] >= PLOTS[report.name], (facts["images"], facts["unloaded"])
    folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    screenshot(html, width, 900, (folder / f"{report.name}-{width}.png").resolve(), tmp_path / "shot")


@pytest.mark.browser
def test_the_browser_check_finds_cut_overlapping_and_broken_text(tmp_path: Path) -> None:
    """The Chromium check is not vacuous: a paragraph pulled over the one before it overlaps, a line that cannot
    wrap runs off the window, and an id in a narrow column breaks at its hyphen; the same page without the faults
    passes."""
    for faulty in (False, True):
        margin, nowrap, width = ("-1.6em", "white-space: nowrap", "4em") if faulty else ("0", "", "20em")
        page = tmp_path / f"page-{faulty}.html"
        page.write_text(
            "<html><body><p>The first line of text, long enough to be seen.</p>"
            f'<p style="margin-top: {margin}">A second line drawn below.</p>'
            f'<p style="{nowrap}">{"a long line of words " * 30}</p>'
            f'<p style="width: {width}">the butcher-shop wins</p></body></html>'
        )
        facts = page_facts(page, 400, {"butcher-shop"}, tmp_path / "profile")
        assert bool(facts["overlaps"]) == bool(facts["cut"]) == bool(facts["broken"]) == faulty, facts


def test_the_overlap_check_finds_text_drawn_over_text(tmp_path: Path) -> None:
    """The overlap check is not vacuous: a negative margin pulls a paragraph over the one before it."""
    first = "<p>The first line of text, long enough to be seen.</p>"
    for margin, overlaps in (("0", False), ("-1.6em", True)):
        html = f'<html><body>{first}<p style="margin-top: {margin}">A second line drawn below.</p></body></html>'
        write_pdf(html, tmp_path / "page.pdf")
        assert bool(overlapping_lines(tmp_path / "page.pdf")) == overlaps, margin


def test_the_hyphen_check_finds_an_id_broken_over_two_lines(tmp_path: Path) -> None:
    """An id in a column too narrow for it breaks at its hyphen; kept whole (reports/words.j2) it does not."""
    for span, broken in (("butcher-shop", True), ('<span style="white-space: nowrap">butcher-shop</span>', False)):
        write_pdf(f'<html><body><p style="width: 4em">the {span} wins</p></body></html>', tmp_path / "page.pdf")
        _, text, _ = pdf_facts(tmp_path / "page.pdf", tmp_path / "pages")
        assert bool(broken_at_hyphens(text, {"butcher-shop"})) == broken, text
