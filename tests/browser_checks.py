"""A report as a real browser shows it (issue 37, item 5): headless Chromium (Debian's `chromium`, which `.ci/run`
installs) opens a copy of the report's HTML with a script added at its end that measures the laid-out page and
writes what it found into the page; `--dump-dom` hands the page back. No driver, no network: one process a page.

What it measures, at a given window width: the page's visible text from its start (does it open with the
headline?), text and images that run past the window's right edge outside a scrolling box (cut), pairs of text
lines drawn over each other, and ids of the run broken over two lines."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""The browser, if this machine has one. The tests that need it are marked `browser`: tests/conftest.py leaves them
out (reported as deselected) on a machine without it, except in CI, which installs it (`.ci/run`) and where a
missing browser fails them."""

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)
"""Headless, offline: without the background-networking flags Chromium tries Google's hosts at every start."""

MEASURE = r"""
(function () {
  const ids = __IDS__;
  const width = window.innerWidth;
  const facts = {width: width, text: document.body.innerText.slice(0, 3000), cut: [], overlaps: [], broken: [],
                 images: 0, unloaded: []};
  const scrolled = new Map();
  function inScrollingBox(el) {
    if (scrolled.has(el)) return scrolled.get(el);
    let found = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const overflow = getComputedStyle(up).overflowX;
      if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') { found = true; break; }
    }
    scrolled.set(el, found);
    return found;
  }
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    if (!text.trim() || node.parentElement.closest('script, style, #clix-facts')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 0.5 || r.height < 0.5) continue;
      if (r.right > width + 1 && !inScrollingBox(node.parentElement)) facts.cut.push(text.trim().slice(0, 60));
      boxes.push({r: r, text: text.trim().slice(0, 50)});
    }
    for (const id of ids) {
      for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
        const part = document.createRange();
        part.setStart(node, at);
        part.setEnd(node, at + id.length);
        const tops = new Set(Array.from(part.getClientRects()).filter(r => r.width >= 0.5).map(r => Math.round(r.top)));
        if (tops.size > 1) facts.broken.push(id + ' in <' + node.parentElement.tagName.toLowerCase() + '>: ' + text.trim().slice(0, 80));
      }
    }
  }
  boxes.sort((a, b) => a.r.top - b.r.top);
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i].r;
    for (let j = i + 1; j < boxes.length && boxes[j].r.top < a.bottom; j++) {
      const b = boxes[j].r;
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > 2 && down > 0.3 * Math.min(a.height, b.height)) facts.overlaps.push([boxes[i].text, boxes[j].text]);
    }
  }
  for (const img of document.images) {
    facts.images += 1;
    if (!img.complete || img.naturalWidth === 0) facts.unloaded.push(img.getAttribute('src'));
    const r = img.getBoundingClientRect();
    if (r.right > width + 1 && !inScrollingBox(img)) facts.cut.push('image ' + img.getAttribute('src'));
  }
  const out = document.createElement('pre');
  out.id = 'clix-facts';
  out.textContent = JSON.stringify(facts);
  document.body.appendChild(out);
})();
"""


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess:
    """Run headless Chromium with `args` (a fresh profile folder `profile`)."""
    assert CHROMIUM is not None, "no Chromium on this machine (Debian: apt-get install chromium); .ci/run installs it"
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def page_facts(html: Path, width: int, ids: set[str], profile: Path) -> dict:
    """What Chromium lays out for the report `html` in a window `width` pixels wide (see the module). The copy with
    the measuring script is written beside `html`, so the report's images load as they would."""
    copy = html.with_name(f".{html.stem}-measured-{width}.html")
    script = MEASURE.replace("__IDS__", json.dumps(sorted(ids)))
    copy.write_text(html.read_text(encoding="utf-8").replace("</body>", f"<script>{script}</script></body>"))
    done = chromium(f"--window-size={width},1000", "--dump-dom", copy.as_uri(), profile=profile)
    found = re.search(r'<pre id="clix-facts">(.*?)</pre>', done.stdout, re.S)
    assert found, f"Chromium measured nothing in {copy} (exit {done.returncode}): {done.stderr[-500:]}"
    import html as entities

    return json.loads(entities.unescape(found.group(1)))


def screenshot(html: Path, width: int, height: int, png: Path, profile: Path) -> Path:
    """A PNG of the window's first `height` pixels, `width` wide, as Chromium shows the report `html`."""
    chromium(f"--window-size={width},{height}", f"--screenshot={png}", html.as_uri(), profile=profile)
    assert png.exists() and png.stat().st_size > 0, f"Chromium wrote no screenshot {png}"
    return png
