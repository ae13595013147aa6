"""`--pdf` on clix duel and clix ladder, end to end: the PDF is rendered from the same HTML, its pages render to
PNG, every table keeps every column on the page, the verdict is there and the HTML stays self-contained."""

from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from clix.analyzer.report.duel import verdict, write_pdf
from pdf_checks import check_self_contained, check_tables, clix, html_opening, pdf_facts, squeeze


@pytest.fixture(scope="module")
def duel_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cwd = tmp_path_factory.mktemp("duel-pdf")
    out = cwd / "out"
    done = clix(
        "duel", "butcher-shop", "firing-line", "--games", "20", "--jobs", "1", "--out", str(out), "--pdf", cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr
    assert f"pdf: {out / 'report.pdf'}" in done.stdout
    return out


def test_duel_pdf_pages_render_and_keep_every_column(duel_run: Path, tmp_path: Path) -> None:
    pdf = duel_run / "report.pdf"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    sizes, text, outside = pdf_facts(pdf, tmp_path / "pages")
    # the content: a page or two of armies and map, six plots, nine tables; A4 each way
    assert 2 <= len(sizes) <= 12, f"{len(sizes)} pages"
    assert all(sorted(round(v) for v in size) == [595, 842] for size in sizes)
    assert not outside, f"{len(outside)} characters off the page, e.g. {outside[:5]}"
    html = (duel_run / "report.html").read_text(encoding="utf-8")
    check_tables(html, text, expected_tables=9)
    for header in ("kills / point", "share of its army's damage [95%] †", "plot twists / game by window"):
        assert squeeze(header) in squeeze(text), header


def test_duel_pdf_and_html_lead_with_the_verdict(duel_run: Path) -> None:
    summary = json.loads((duel_run / "summary.json").read_text(encoding="utf-8"))
    settings = summary["settings"]
    sentence = verdict(summary, settings, {"a": settings["army_a"], "b": settings["army_b"]})
    assert sentence.startswith(("butcher-shop ", "firing-line ", "No clear favourite: "))
    pdf = pdfium.PdfDocument(duel_run / "report.pdf")
    first_page = pdf[0].get_textpage().get_text_range()
    assert squeeze(sentence) in squeeze(first_page)
    html = (duel_run / "report.html").read_text(encoding="utf-8")
    assert '<p class="verdict">' in html
    title, text = html_opening(html)
    assert squeeze(text).startswith(squeeze(title) + squeeze(sentence))


def test_duel_html_is_self_contained_with_every_plot_and_the_armies(duel_run: Path) -> None:
    html = (duel_run / "report.html").read_text(encoding="utf-8")
    check_self_contained(html)
    assert html.count('src="data:image/png;base64,') == 6  # map, score, VP, VP margin, rush, efficiency
    for name in ("map.png", "score.png", "vp_margin.png", "victory_points.png", "victim_rush.png", "efficiency.png"):
        assert (duel_run / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    for text in ("The armies", "Meatlocker Butcher", "of 100", "Crypt", "Victims", "The map: Ravenmoor Graveyard"):
        assert text in html, text


def test_ladder_pdf(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    done = clix(
        "ladder",
        "--players",
        "tuned,random",
        "--armies",
        "butcher-shop",
        "--maps",
        "graveyard",
        "--games",
        "4",
        "--jobs",
        "1",
        "--out",
        str(out),
        "--pdf",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr
    said = " ".join(done.stdout.split())  # the "wrote" line is wrapped to the terminal's width
    assert f"to {out}:" in said and "ladder.pdf" in said
    sizes, text, outside = pdf_facts(out / "ladder.pdf", tmp_path / "pages")
    assert len(sizes) <= 3, f"{len(sizes)} pages: the ladder's two tables and its plot fit on three"
    assert all(sorted(round(v) for v in size) == [595, 842] for size in sizes)  # A4, either way up
    assert not outside, outside[:5]
    html = (out / "ladder.html").read_text(encoding="utf-8")
    check_self_contained(html)
    check_tables(html, text, expected_tables=2)
    assert "Player ladder" in text and "Reproduce" in text


def test_the_checks_find_a_table_cut_off(tmp_path: Path) -> None:
    """The column check is not vacuous: a table too wide for the page leaves characters off it."""
    cells = "".join(f"<td>column{n}value</td>" for n in range(30))
    html = f"<html><body><table><tr>{cells}</tr></table></body></html>"
    write_pdf(html.replace("<table>", '<table style="white-space: nowrap">'), tmp_path / "wide.pdf")
    _, text, outside = pdf_facts(tmp_path / "wide.pdf", tmp_path / "pages")
    assert outside and "column29value" in squeeze(text)


def test_pdf_with_the_sweep_is_refused_before_any_game(tmp_path: Path) -> None:
    done = clix("duel", "butcher-shop", "firing-line", "--players", "sweep", "--pdf", "--games", "2", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().startswith("clix: error: --pdf: --players sweep writes no report")
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "clix-out").exists()
