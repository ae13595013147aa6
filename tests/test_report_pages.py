"""Every report's pages as a reader sees them (issue 37, item 5, "Done when"): for duel, ladder, meta, value and
build, page 1 of the PDF (the print rendering of the HTML, by WeasyPrint) and the HTML open with the report's
one-sentence headline and state the run's size beside it; no text is cut (off the page, a table's last column
missing, an id or option broken at a hyphen), no line of text overlaps another, and every plot is drawn; the
HTML as a browser window shows it (its screen styles, rendered by WeasyPrint) opens the same way, with no id
broken and no overlapping text.

One tiny run per command, in a folder of its own (the project's store is not touched)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
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

PLOTS = {"duel": 5, "ladder": 0, "meta": 2, "value": 2, "build": 0}
"""Pages with a plot at least, in each report of these runs."""


@dataclass
class Report:
    """A command's run: its --json output and its report, HTML and PDF."""

    name: str
    data: dict
    html: str
    pdf: Path

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
    done = clix(*args.split(), "--jobs", "1", "--out", str(cwd / "out"), "--pdf", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr
    html = (cwd / "out" / f"{stem}.html").read_text(encoding="utf-8")
    return Report(name, json.loads(done.stdout), html, cwd / "out" / f"{stem}.pdf")


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
