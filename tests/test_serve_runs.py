"""Duels started from `clix serve` (issue 41, part 3): played by `clix duel`'s runner in a worker process to the same
report and store, progress as server-sent events, a cancel that leaves no process and keeps the finished games, a
bounded number of runs at once, and pages served while a duel plays."""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from clix.analyzer.play.store import Store
from clix.analyzer.serve.app import Settings, create_app
from starlette.testclient import TestClient

BASE = "http://127.0.0.1:8765"
SAME = {"Origin": BASE}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(port=8765, armies=tmp_path / "armies", store=tmp_path / "out" / "clix.duckdb", out=tmp_path / "out")


def _start(client: TestClient, games: int, **more: str) -> int:
    data = {"army_a": "butcher-shop", "army_b": "firing-line", "games": str(games), **more}
    response = client.post("/duel", data=data, headers=SAME, follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def _events(client: TestClient, run: int) -> list[tuple[str, dict]]:
    found, event = [], ""
    with client.stream("GET", f"/runs/{run}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: "):
                found.append((event, json.loads(line.removeprefix("data: "))))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_duel_plays_to_its_report_and_the_store(settings: Settings):
    with TestClient(create_app(settings), base_url=BASE) as client:
        run = _start(client, 4)
        events = _events(client, run)
        assert events[-1][0] == "end"
        end = events[-1][1]
        assert end["state"] == "finished", end
        assert [e for e in events if e[0] == "progress"][-1][1] == {"done": 4, "total": 4}
        assert end["report"].startswith("/files/butcher-shop-vs-firing-line/run-")
        report = client.get(end["report"])
        assert report.status_code == 200 and "butcher" in report.text.lower()
        assert "butcher-shop" in end["headline"]
        (record,) = Store.existing(settings.store).runs()
        assert record.games == 4 and not record.interrupted
        assert client.get("/results").text.count("<tr><td>") == 1


def test_a_cancelled_duel_leaves_no_process_and_keeps_its_games(settings: Settings):
    with TestClient(create_app(settings), base_url=BASE) as client:
        run_id = _start(client, 5000)
        run = client.app.state.clix.runs.get(run_id)  # type: ignore[attr-defined]
        deadline = time.monotonic() + 120
        while run.done < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert run.done >= 2, run.messages
        pid = run.process.pid
        response = client.post(f"/runs/{run_id}/cancel", headers=SAME, follow_redirects=False)
        assert response.status_code == 303
        assert run.ended.wait(120), "the cancelled worker has not ended"
        assert run.state == "cancelled", (run.state, run.messages)
        assert not _alive(pid)
        assert _events(client, run_id)[-1][1]["state"] == "cancelled"
    (record,) = Store.existing(settings.store).runs()
    assert record.interrupted and 2 <= record.played < 5000


def test_runs_at_once_are_bounded_and_pages_are_served_while_one_plays(settings: Settings):
    settings.max_runs = 1
    with TestClient(create_app(settings), base_url=BASE) as client:
        run_id = _start(client, 5000)
        refused = client.post("/duel", data={"army_a": "haunting", "army_b": "firing-line", "games": "4"}, headers=SAME)
        assert refused.status_code == 400 and "already playing" in refused.text
        pages = ["/builder", "/results", "/duel", f"/runs/{run_id}", "/builder/figures?class=Vampire"] * 4
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=20) as pool:
            codes = list(pool.map(lambda page: client.get(page).status_code, pages))
        assert codes == [200] * 20
        run = client.app.state.clix.runs.get(run_id)  # type: ignore[attr-defined]
        assert not run.ended.is_set(), f"the duel ended within {time.monotonic() - started:.1f}s: no load measured"
        client.post(f"/runs/{run_id}/cancel", headers=SAME)
        assert run.ended.wait(120)
        assert _start(client, 2) == run_id + 1  # the slot is free again


def test_closing_the_server_ends_its_runs(settings: Settings):
    with TestClient(create_app(settings), base_url=BASE) as client:
        run_id = _start(client, 5000)
        run = client.app.state.clix.runs.get(run_id)  # type: ignore[attr-defined]
        pid = run.process.pid
    assert run.ended.is_set() and not _alive(pid)
