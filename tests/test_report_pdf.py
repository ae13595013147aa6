"""`--pdf` on clix duel and clix ladder, end to end: the PDF is rendered from the same HTML, its pages render to
PNG, every table keeps every column on the page, the verdict is there and the HTML stays self-contained."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from clix.analyzer.report.duel import verdict, write_pdf

ROOT = Path(__file__).resolve().parent.parent


def clix(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "clix", *args, "--rosters", str(ROOT / "rosters" / "horrorclix")],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


class Tables(HTMLParser):
    """Every table of an HTML page as rows of (tag, text) cells."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[tuple[str, str]]]] = []
        self._cell: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = (tag, [])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append((self._cell[0], " ".join("".join(self._cell[1]).split())))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[1].append(data)


def squeeze(text: str) -> str:
    """Text without whitespace: a cell wrapped over two lines in the PDF still matches."""
    return re.sub(r"\s+", "", text)


def pdf_facts(path: Path, pngs: Path) -> tuple[list[tuple[float, float]], str, list[str]]:
    """The pages' sizes, all their text, and every character whose box leaves its page; each page is rendered to
    a PNG in `pngs`, which must not be blank."""
    pdf = pdfium.PdfDocument(path)
    sizes, texts, outside = [], [], []
    pngs.mkdir(exist_ok=True)
    for number, page in enumerate(pdf, start=1):
        width, height = page.get_size()
        sizes.append((width, height))
        image = page.render(scale=0.5).to_pil()
        image.save(pngs / f"page-{number}.png")
        assert image.convert("L").getextrema()[0] < 128, f"page {number} renders blank"
        text = page.get_textpage()
        texts.append(text.get_text_range())
        for i in range(text.count_chars()):
            left, bottom, right, top = text.get_charbox(i)
            if right > left and (left < -0.5 or right > width + 0.5 or bottom < -0.5 or top > height + 0.5):
                outside.append(f"page {number}: {text.get_text_range(i, 1)!r} at x {left:.0f}-{right:.0f}")
    return sizes, "\n".join(texts), outside


def last_columns(html: str) -> list[tuple[str, list[str]]]:
    """Per table of the HTML: its last column's header and the last cell of every other row."""
    parser = Tables()
    parser.feed(html)
    found = []
    for table in parser.tables:
        rows = [row for row in table if row]
        header = rows[0][-1][1]
        found.append((header, [row[-1][1] for row in rows[1:] if row[-1][1]]))
    return found


def check_tables(html: str, text: str, expected_tables: int) -> None:
    columns = last_columns(html)
    assert len(columns) >= expected_tables
    flat = squeeze(text)
    for header, values in columns:
        assert squeeze(header) in flat, f"last column header {header!r} is not in the PDF"
        assert values, f"the table headed {header!r} has no values"
        for value in values:
            assert squeeze(value) in flat, f"{value!r} (last column of the table headed {header!r}) is not in the PDF"


def check_self_contained(html: str) -> None:
    """Nothing the page would fetch: every src and href is a data URI or an anchor, no stylesheet, script or
    font from elsewhere."""
    for attribute, value in re.findall(r"""\b(src|href)\s*=\s*["']([^"']*)""", html, flags=re.I):
        assert value.startswith(("data:", "#")), f"{attribute}={value[:60]!r}"
    assert not re.search(r"<link\b|@import|<script\b[^>]*\bsrc", html, flags=re.I)
    for target in re.findall(r"url\(\s*['\"]?([^'\")]*)", html):
        assert target.startswith("data:"), target


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
    assert f'<p class="verdict">{sentence}</p>' in html.replace("&#39;", "'")


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
