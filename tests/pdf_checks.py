"""Checks of a report's PDF pages and its HTML, shared by test_report_pdf.py and test_report_pages.py: a command
run in a folder of its own, the tables' last columns, characters off the page, overlapping lines, ids broken at
hyphens, blank plots and the text a page opens with (issue 37, item 5)."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

SCREEN = "@page { size: 1280px 2400px; margin: 0 }"
"""A browser window's width (and a tall page) for the HTML as a screen shows it."""

ROOT = Path(__file__).resolve().parent.parent

Box = tuple[float, float, float, float]
"""left, bottom, right, top in PDF points."""


def clix(*args: str, cwd: Path, plots: Path | None = None) -> subprocess.CompletedProcess:
    """Run `python -m clix ARGS --rosters <the HorrorClix library>` in `cwd`; with `plots`, through
    tests/plot_probe.py, which writes there the text each plot draws."""
    start = (
        [sys.executable, "-m", "clix"]
        if plots is None
        else [sys.executable, str(Path(__file__).with_name("plot_probe.py")), str(plots)]
    )
    return subprocess.run(
        [*start, *args, "--rosters", str(ROOT / "rosters" / "horrorclix")],
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


class BodyText(HTMLParser):
    """The text of an HTML page's body in reading order, and its first h1."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_h1 = False
        self._body = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._body = self._body or tag == "body"
        self._skip += tag in ("style", "script", "head")
        self._in_h1 = self._in_h1 or (tag == "h1" and not self.title)

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("style", "script", "head")
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data: str) -> None:
        if self._body and not self._skip:
            self.parts.append(data)
            if self._in_h1:
                self.title += data


def squeeze(text: str) -> str:
    """Text without whitespace: a cell wrapped over two lines in the PDF still matches."""
    return re.sub(r"\s+", "", unescape(text))


def html_opening(html: str) -> tuple[str, str]:
    """The page's title (its first h1, '' without one) and all its body text, in reading order."""
    parser = BodyText()
    parser.feed(html)
    return " ".join(parser.title.split()), " ".join("".join(parser.parts).split())


def opens_with(text: str, title: str, headline: str) -> bool:
    """Whether `text` (a PDF page's or the HTML body's) starts with the title, if any, then the headline."""
    return squeeze(text).startswith(squeeze(title) + squeeze(headline))


def screen_pdf(html: str, path: Path) -> Path:
    """The HTML as a 1280-pixel-wide browser window shows it (its screen styles, not its print ones), rendered to
    a PDF by WeasyPrint so its pages are checked as the print PDF's are."""
    import weasyprint

    weasyprint.HTML(string=html, media_type="screen").write_pdf(path, stylesheets=[weasyprint.CSS(string=SCREEN)])
    return path


def pdf_facts(path: Path, pngs: Path) -> tuple[list[tuple[float, float]], str, list[str]]:
    """The pages' sizes, all their text, and every character whose box leaves its page; each page is rendered to
    a PNG in `pngs`, which must not be blank."""
    pdf = pdfium.PdfDocument(path)
    sizes, texts, outside = [], [], []
    pngs.mkdir(exist_ok=True)
    for number, page in enumerate(pdf, start=1):
        width, height = page.get_size()
        sizes.append((width, height))
        # at full size: a page of small table text drawn at half size has no pixel darker than a light grey
        image = page.render(scale=1).to_pil()
        image.save(pngs / f"page-{number}.png")
        assert image.convert("L").getextrema()[0] < 128, f"page {number} renders blank"
        text = page.get_textpage()
        texts.append(text.get_text_range())
        for i in range(text.count_chars()):
            left, bottom, right, top = text.get_charbox(i)
            if right > left and (left < -0.5 or right > width + 0.5 or bottom < -0.5 or top > height + 0.5):
                outside.append(f"page {number}: {text.get_text_range(i, 1)!r} at x {left:.0f}-{right:.0f}")
    return sizes, "\n".join(texts), outside


def text_lines(page: pdfium.PdfPage) -> list[tuple[str, Box]]:
    """A page's lines of text with their boxes: characters in reading order, grouped while they share a baseline
    (the bottom of their loose box, which spans the font's whole height) and go on left to right (a ligature's
    second letter starts inside the first one's box)."""
    text = page.get_textpage()
    lines: list[tuple[str, Box]] = []
    chars: list[str] = []
    box: list[float] = []
    baseline = previous_left = None
    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        left, bottom, right, top = text.get_charbox(i)
        if char.isspace() or right <= left:
            continue
        loose_bottom = text.get_charbox(i, loose=True)[1]
        same = baseline is not None and abs(loose_bottom - baseline) < 1.0 and left > previous_left - 0.5
        if not same and chars:
            lines.append(("".join(chars), (box[0], box[1], box[2], box[3])))
            chars, box = [], []
        if not chars:
            baseline, box = loose_bottom, [left, bottom, right, top]
        chars.append(char)
        box = [min(box[0], left), min(box[1], bottom), max(box[2], right), max(box[3], top)]
        previous_left = left
    if chars:
        lines.append(("".join(chars), (box[0], box[1], box[2], box[3])))
    return lines


def overlapping_lines(path: Path, tolerance: float = 1.0) -> list[str]:
    """Every pair of text lines on a page of the PDF whose boxes overlap by more than `tolerance` points each
    way: text drawn over text."""
    found = []
    for number, page in enumerate(pdfium.PdfDocument(path), start=1):
        lines = text_lines(page)
        for i, (text_a, a) in enumerate(lines):
            for text_b, b in lines[i + 1 :]:
                across = min(a[2], b[2]) - max(a[0], b[0])
                up = min(a[3], b[3]) - max(a[1], b[1])
                if across > tolerance and up > tolerance:
                    found.append(f"page {number}: {text_a[:40]!r} overlaps {text_b[:40]!r} by {up:.1f} pt")
    return found


def ids_in(data: object) -> set[str]:
    """Every id in a command's JSON output: the strings made of lowercase words and numbers joined by hyphens
    (armies, figures, maps, rulesets, builds: butcher-shop, horrorclix-001-faq, build-01), but for sentences and
    verdict words (under-costed)."""
    if isinstance(data, dict):
        kept = {key: value for key, value in data.items() if not re.search("verdict|headline", str(key))}
        return set().union(*(ids_in(value) for value in kept.values()), *(ids_in(key) for key in kept))
    if isinstance(data, list):
        return set().union(*(ids_in(value) for value in data))
    return {data} if isinstance(data, str) and re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", data) else set()


def broken_at_hyphens(text: str, ids: set[str]) -> list[str]:
    """Every line of the text that ends at a hyphen inside one of the ids or an option (--seed): the PDF's text
    has a line break where its page has one, so an id the page breaks over two lines is missing from it."""
    lines = text.replace("\ufffe", "-\n").splitlines()  # PDFium joins a word broken at a hyphen, marked U+FFFE
    found = []
    for line, after in itertools.pairwise(lines):
        end = re.search(r"(\S*-)$", line.rstrip())
        start = re.match(r"\S*", after.strip())
        if not end or start is None:
            continue
        joined, cut = end.group(1) + start.group(0), len(end.group(1))
        inside = (m.start() < cut < m.end() for i in ids for m in re.finditer(re.escape(i), joined))
        if joined.lstrip("([").startswith("--") or any(inside):
            found.append(f"{line.strip()[-30:]!r} / {after.strip()[:20]!r}")
    return found


def blank_plots(path: Path, scale: float = 1.0) -> list[str]:
    """Every image on a page of the PDF (the report's plots) that renders as one flat colour."""
    blank = []
    for number, page in enumerate(pdfium.PdfDocument(path), start=1):
        height = page.get_height()
        images = list(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))
        if not images:
            continue
        rendered = page.render(scale=scale).to_pil().convert("L")
        for n, image in enumerate(images, start=1):
            left, bottom, right, top = image.get_bounds()
            crop = rendered.crop((left * scale, (height - top) * scale, right * scale, (height - bottom) * scale))
            low, high = crop.getextrema()
            if high - low < 64 or len(crop.getcolors(maxcolors=1 << 16) or range(1 << 16)) < 4:
                blank.append(f"page {number}, image {n}: {crop.size[0]}x{crop.size[1]} px, grey {low}-{high}")
    return blank


def plot_pages(path: Path) -> int:
    """How many pages of the PDF carry an image."""
    return sum(
        any(True for _ in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])) for page in pdfium.PdfDocument(path)
    )


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
    """Every table of the HTML has its last column's header and cells in the PDF's text."""
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
