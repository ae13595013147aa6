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
        pdf = client.post("/pdf", data={"report": end["report"]}, headers=SAME)
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        (record,) = Store.existing(settings.store).runs()
        assert record.games == 4 and not record.interrupted
        assert client.get("/results").text.count("<tr><td>") == 1
        assert 'action="/pdf"' in client.get("/results").text  # its report, as PDF too
        parquet = client.get("/results/1/games.parquet")  # clix results export --format parquet
        assert parquet.status_code == 200 and parquet.content.startswith(b"PAR1")
        assert 'filename="run-1-games.parquet"' in parquet.headers["content-disposition"]
        assert client.get("/results/1/figures.csv").text.startswith("game")
        assert client.get("/results/1/games.xlsx").status_code == 404


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


def _start_row(client: TestClient, games: int, **more: str | list[str]) -> int:
    data = {"army": "butcher-shop", "field": ["firing-line", "crimson-court"], "maps": ["graveyard"],
            "games": str(games), **more}  # fmt: skip
    response = client.post("/field", data=data, headers=SAME, follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def test_a_field_row_plays_the_meta_cells_to_its_report_and_the_store(settings: Settings):
    from clix.analyzer.library.load import load_library
    from clix.analyzer.meta.command import MetaOptions, MetaStore
    from clix.analyzer.meta.row import row_cells

    with TestClient(create_app(settings), base_url=BASE) as client:
        run = _start_row(client, 2)
        assert "Field 1: butcher-shop against firing-line, crimson-court" in client.get(f"/runs/{run}").text
        events = _events(client, run)
        end = events[-1][1]
        assert events[-1][0] == "end" and end["state"] == "finished", end
        assert [e for e in events if e[0] == "progress"][-1][1] == {"done": 4, "total": 4}
        assert end["report"].startswith("/files/butcher-shop-vs-field/run-") and end["report"].endswith("/row.html")
        report = client.get(end["report"])
        assert report.status_code == 200 and "against the field" in report.text
        assert "against the field" in end["headline"]
        assert 'action="/pdf"' in client.get(f"/runs/{run}").text
        pdf = client.post("/pdf", data={"report": end["report"]}, headers=SAME)
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        library = load_library(None, armies=["butcher-shop", "firing-line", "crimson-court"])
        field = ["butcher-shop", "firing-line", "crimson-court"]
        cells = row_cells(library.layers, field, ["graveyard"], ["tuned"], 15)
        # the keys `clix meta butcher-shop firing-line crimson-court --maps graveyard` would read: both cells stored
        keeper = MetaStore.open(settings.store, library.roster, cells, MetaOptions(games=2))
        keeper.writer.close()
        assert [sorted(known) for known in keeper.known] == [[0, 1], [0, 1]]
        _the_row_in_the_results(client, end["report"])


def _the_row_in_the_results(client: TestClient, report: str) -> None:
    """The row is in the results table beside the duels (filtered by army, map and day), its heatmap's cells link
    to their duels, filled in with the cell's armies, map, players, seed and games."""
    table = client.get("/results").text
    assert "butcher-shop against the field (firing-line, crimson-court)" in table and report in table
    assert "butcher-shop against the field (" in client.get("/results?army=crimson&map=graveyard&since=2020-01-01").text
    for other in ("army=nobody", "map=cemetery", "since=2999-01-01"):
        assert "butcher-shop against the field (" not in client.get(f"/results?{other}").text, other
    heatmap = report.removesuffix("/row.html").replace("/files/", "/results/field/", 1)
    assert f'href="{heatmap}"' in table
    page = client.get(heatmap).text
    link = (
        "/duel?army=butcher-shop&amp;against=crimson-court&amp;map=graveyard&amp;players=tuned&amp;seed=0&amp;games=2"
    )
    assert link in page and page.count("/duel?army=butcher-shop") == 2
    duel = client.get(link.replace("&amp;", "&")).text
    assert '"crimson-court" selected' in duel and "<option selected>graveyard" in duel and 'value="2"' in duel
    for outside in ("..%2f..%2fetc", "%2e%2e/%2e%2e/etc", "butcher-shop-vs-field"):
        assert client.get(f"/results/field/{outside}").status_code in (400, 404), outside


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"army": "nobody"}, "army"),
        ({"field": ["../x"]}, "field"),
        ({"maps": ["/etc"]}, "maps"),
        ({"games": "60000"}, "games"),
        ({"target_ci": "0"}, "target_ci"),
        ({"players": "nobody"}, "nobody"),
    ],
)
def test_a_field_form_mistake_is_one_line_and_starts_nothing(settings: Settings, change: dict, field: str):
    with TestClient(create_app(settings), base_url=BASE) as client:
        data = {"army": "butcher-shop", "field": ["firing-line"], "games": "4", **change}
        response = client.post("/field", data=data, headers=SAME, follow_redirects=False)
        assert response.status_code == 400 and field in response.text
        assert client.app.state.clix.runs.all() == []  # type: ignore[attr-defined]


def test_a_field_row_passes_its_precision_and_can_be_cancelled(settings: Settings):
    with TestClient(create_app(settings), base_url=BASE) as client:
        run_id = _start_row(client, 5000, target_ci="0.01")
        run = client.app.state.clix.runs.get(run_id)  # type: ignore[attr-defined]
        assert run.request["target_ci"] == 0.01 and run.total == 10000
        deadline = time.monotonic() + 120
        while run.done < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert run.done >= 2, run.messages
        pid = run.process.pid
        client.post(f"/runs/{run_id}/cancel", headers=SAME)
        assert run.ended.wait(120) and run.state == "cancelled", (run.state, run.messages)
        assert not _alive(pid)
        assert run.summary["settings"]["target_ci"] == 0.01 and "--target-ci 0.01" in run.summary["settings"]["command"]


def test_a_duel_passes_its_precision_to_clix_duel(settings: Settings):
    with TestClient(create_app(settings), base_url=BASE) as client:
        run_id = _start(client, 5000, target_ci="0.02")
        run = client.app.state.clix.runs.get(run_id)  # type: ignore[attr-defined]
        deadline = time.monotonic() + 120
        while run.done < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        client.post(f"/runs/{run_id}/cancel", headers=SAME)
        assert run.ended.wait(120) and run.state == "cancelled", (run.state, run.messages)
        assert "--target-ci 0.02" in run.summary["settings"]["command"]
