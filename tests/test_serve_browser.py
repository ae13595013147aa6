"""`clix serve` in a real browser (issue 41, part 6): headless Chromium (the Debian package, /usr/bin/chromium) driven
by Playwright builds a legal 100-point army from nothing, sees a legality problem appear and go, saves the army,
plays a duel against a sample army to its report and finds the run in the results table. Skipped only outside CI
where /usr/bin/chromium or playwright is absent (`.ci/run` installs both); slow (tests/conftest.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_checks import FLAGS, MEASURE
from clix.analyzer.serve.app import Settings, create_app

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = os.environ.get("CLIX_SCREENSHOTS")
"""A folder to save the page's screenshots in (1280 and 400 px wide), for docs/serve.md: docs/screenshots."""

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and importlib.util.find_spec("playwright")) and not os.environ.get("CI"),
    reason="needs /usr/bin/chromium (apt-get install chromium) and playwright (pip install playwright); CI has both",
)

CRYPT = ["Trip", "Tripwire", "Terror Sprint", "Cry for Help", "Nobody Gets out Alive", "Just After Sunset"]
VICTIMS = ["Teacher", "Prom Queen", "Nerd", "Sheriff", "Psychic", "Exterminator"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    """A real uvicorn server on a free port of 127.0.0.1, in a thread."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(
        port=port, armies=tmp_path / "armies", store=tmp_path / "out" / "clix.duckdb", out=tmp_path / "out"
    )
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}", settings
    server.should_exit = True
    thread.join(30)


def _shoot(page: object, name: str) -> None:
    """Check the page is legible 400 px wide (no text off the window outside a scrolling box, no text drawn over
    other text: tests/browser_checks.py's measure) and, with CLIX_SCREENSHOTS, save it at 1280 and 400 px."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = false; })")  # type: ignore[attr-defined]
    for width in (1280, 400):
        page.set_viewport_size({"width": width, "height": 900})  # type: ignore[attr-defined]
        page.evaluate("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
        facts = _measured(page)
        assert facts["cut"] == [], (name, width, facts["cut"])
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"serve-{name}-{width}.png"), full_page=False)  # type: ignore[attr-defined]
    page.set_viewport_size({"width": 1280, "height": 900})  # type: ignore[attr-defined]


def _measured(page: object) -> dict:
    """What browser_checks.MEASURE finds on the page as laid out now (its note taken out again)."""
    page.evaluate(MEASURE.replace("__IDS__", "[]"))  # type: ignore[attr-defined]
    facts = json.loads(page.locator("#clix-facts").text_content())  # type: ignore[attr-defined]
    page.evaluate("document.getElementById('clix-facts').remove()")  # type: ignore[attr-defined]
    return facts


def test_a_legal_army_is_built_saved_and_played_to_its_report(server: tuple[str, Settings]):
    from playwright.sync_api import expect, sync_playwright

    base, settings = server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(FLAGS))
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/builder")
        expect(page.locator("#points-used")).to_have_text("0")
        page.fill("#army input[name=name]", "Night Shift")
        page.select_option("select[name=class]", "Vampire")
        expect(page.locator("button[data-figure=meatlocker-butcher-v]")).to_have_count(0)
        page.select_option("select[name=class]", "")
        page.click("button[data-figure=crimson-thrall-e]")
        expect(page.locator("#points-used")).to_have_text("38")
        page.click("button[data-figure=crypt-rat-swarm-r]")
        page.click("button[data-figure=meatlocker-butcher-v]")
        expect(page.locator("#problems")).to_contain_text("HC-SETUP-02")  # over the build total: the fix is named
        page.click("#army-figures li:nth-child(3) button")
        expect(page.locator("#problems")).not_to_contain_text("HC-SETUP-02")
        for summary in page.locator("#army details summary").all():
            summary.click()
        for name in CRYPT:
            page.check(f"input[name=crypt][value='{name}']")
        for name in VICTIMS:
            page.check(f"input[name=victim][value='{name}']")
        expect(page.locator("#legal")).to_have_text("Legal army.")
        _shoot(page, "builder")
        page.fill("input[name=file]", "night-shift")
        page.click("#save")
        expect(page.locator("#saved")).to_contain_text("night-shift.yaml")
        assert (settings.armies / "night-shift.yaml").is_file()

        page.click("#saved a")
        expect(page.locator("select[name=army_a]")).to_have_value("night-shift")
        page.select_option("select[name=army_b]", "firing-line")
        page.fill("input[name=games]", "4")
        page.click("#play")
        expect(page.locator("#state")).to_have_text("finished", timeout=120_000)
        expect(page.locator("#count")).to_have_text("4 of 4")
        _shoot(page, "duel")
        page.click("#report-link a")
        expect(page.locator("body")).to_contain_text("Night Shift")

        page.goto(f"{base}/results?army=night")
        expect(page.locator("#runs tbody tr")).to_have_count(1)
        expect(page.locator("#runs tbody")).to_contain_text("night-shift vs firing-line")

        page.goto(f"{base}/field?army=night-shift")  # the saved army against a field of one, as clix meta --row
        page.check("input[name=field][value=firing-line]")
        page.check("input[name=maps][value=graveyard]")
        page.fill("#field input[name=games]", "2")
        page.click("#play-field")
        expect(page.locator("#state")).to_have_text("finished", timeout=120_000)
        expect(page.locator("#count")).to_have_text("2 of 2")  # the duel's first two games, from the store
        expect(page.locator("#pdf-form")).to_be_visible()
        page.click("#report-link a")
        expect(page.locator("h1")).to_contain_text("against the field")

        page.goto(f"{base}/results?army=night")  # the row beside the duel; its heatmap's cell opens the duel
        expect(page.locator("#runs tbody tr")).to_have_count(2)
        expect(page.locator("#runs tbody")).to_contain_text("against the field (firing-line)")
        _shoot(page, "results")
        page.click("#runs a:text('heatmap')")
        expect(page.locator("#heatmap td a")).to_have_count(1)
        _shoot(page, "heatmap")
        page.click("#heatmap td a")
        expect(page.locator("select[name=army_b]")).to_have_value("firing-line")
        expect(page.locator("select[name=map]")).to_have_value("graveyard")
        browser.close()
