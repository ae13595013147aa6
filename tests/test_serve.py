"""`clix serve` (issue 41): the guards (Host, Origin, paths), the builder's live legality, saving an army (nothing
written on a mistake) and the result store's runs, through Starlette's test client."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from clix.analyzer.common.errors import ClixError
from clix.analyzer.serve.app import Settings, create_app
from clix.analyzer.serve.security import inside, split_host
from starlette.testclient import TestClient

BASE = "http://127.0.0.1:8765"
SAME = {"Origin": BASE}
LEGAL_100 = {
    "name": "Night Shift",
    "build_total": "100",
    "figure": ["crimson-thrall-e", "crypt-rat-swarm-r"],
    "crypt": ["Trip", "Tripwire", "Terror Sprint", "Cry for Help", "Nobody Gets out Alive", "Just After Sunset"],
    "victim": ["Teacher", "Prom Queen", "Nerd", "Sheriff", "Psychic", "Exterminator"],
}


@pytest.fixture
def folders(tmp_path: Path) -> Settings:
    return Settings(
        host="127.0.0.1",
        port=8765,
        armies=tmp_path / "armies",
        store=tmp_path / "out" / "clix.duckdb",
        out=tmp_path / "out",
    )


@pytest.fixture
def client(folders: Settings) -> TestClient:
    return TestClient(create_app(folders), base_url=BASE)


def test_a_foreign_host_is_refused_before_any_route(client: TestClient):
    """DNS rebinding: a page of evil.example whose name now points here sends Host: evil.example."""
    assert client.get("/builder").status_code == 200
    for host in ("evil.example", "evil.example:8765", "127.0.0.1:9999", "127.0.0.1.evil.example:8765"):
        refused = client.get("/builder", headers={"Host": host})
        assert refused.status_code == 400, host
        assert "Host" in refused.text
    assert client.get("/builder", headers={"Host": "localhost:8765"}).status_code == 200


def test_a_change_from_another_site_is_refused_and_writes_nothing(client: TestClient, folders: Settings):
    data = {**LEGAL_100, "file": "night-shift"}
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "http://127.0.0.1:9999"}, {}, {"Origin": "null"}):
        refused = client.post("/builder/save", data=data, headers=headers)
        assert refused.status_code == 403, headers
    assert not folders.armies.exists()
    via_referer = client.post("/builder/save", data=data, headers={"Referer": f"{BASE}/builder"})
    assert via_referer.status_code == 200, via_referer.text
    assert (folders.armies / "night-shift.yaml").is_file()


def test_the_host_header_is_read_with_its_port():
    assert split_host("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert split_host("[::1]:80") == ("::1", 80)
    assert split_host("Localhost") == ("localhost", None)


@pytest.mark.parametrize("path", ["../secret", "/etc/passwd", "a/../../b", "C:/x", ""])
def test_a_path_out_of_its_folder_is_refused(tmp_path: Path, path: str):
    with pytest.raises(ClixError, match="path"):
        inside(tmp_path, path, "path")


def test_the_file_route_serves_only_the_output_folder(client: TestClient, folders: Settings, tmp_path: Path):
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    folders.out.mkdir(parents=True)
    (folders.out / "report.html").write_text("<p>report</p>", encoding="utf-8")
    assert client.get("/files/report.html").text == "<p>report</p>"
    (folders.out / "clix.duckdb.wal").write_text("journal", encoding="utf-8")
    assert client.get("/files/clix.duckdb.wal").status_code == 404
    for path in ("/files/../secret.txt", "/files/%2e%2e/secret.txt", "/files/..%2fsecret.txt", "/files//etc/passwd"):
        response = client.get(path)
        assert response.status_code in (404, 400), path
        assert response.text != "secret"


def test_a_legality_problem_appears_and_goes_with_its_fix(client: TestClient):
    """HC-SETUP-02: over the build total, the problem names how many points to drop; removing the figure clears it."""
    over = {**LEGAL_100, "figure": [*LEGAL_100["figure"], "meatlocker-butcher-v"]}
    panel = client.post("/builder/check", data=over, headers=SAME)
    assert panel.status_code == 200
    assert "HC-SETUP-02" in panel.text and "drop" in panel.text
    assert 'id="points-left">' in panel.text
    again = client.post("/builder/check", data={**over, "remove": "2"}, headers=SAME)
    assert "HC-SETUP-02" not in again.text
    assert "Legal army." in again.text
    assert 'id="points-used">' in again.text


def test_adding_a_figure_counts_its_points(client: TestClient):
    panel = client.post("/builder/check", data={**LEGAL_100, "add": "crypt-rat-swarm-r"}, headers=SAME)
    assert panel.text.count('name="figure"') == 3
    empty = client.post("/builder/check", data={"name": "x", "build_total": "100"}, headers=SAME)
    assert "has no figure" in empty.text
    assert 'id="points-used">0<' in empty.text


def test_a_budget_that_is_not_offered_is_one_line(client: TestClient):
    response = client.post("/builder/check", data={**LEGAL_100, "build_total": "150"}, headers=SAME)
    assert response.status_code == 400
    assert "build_total" in response.text and "100" in response.text


def test_a_legal_army_is_saved_as_an_army_file_and_loads_again(client: TestClient, folders: Settings):
    saved = client.post("/builder/save", data={**LEGAL_100, "file": "night-shift"}, headers=SAME)
    assert saved.status_code == 200, saved.text
    data = yaml.safe_load((folders.armies / "night-shift.yaml").read_text(encoding="utf-8"))
    assert data["name"] == "Night Shift" and data["figures"] == LEGAL_100["figure"] and data["build_total"] == 100
    page = client.get("/builder?army=night-shift")
    assert page.status_code == 200 and "crimson-thrall-e" in page.text
    assert "night-shift" in client.get("/duel").text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"file": "../escape"}, "plain file name"),
        ({"file": "/tmp/escape"}, "plain file name"),
        ({"file": ""}, "plain file name"),
        ({"file": "ok", "crypt": ["Trip"]}, "not legal"),
        ({"file": "ok", "figure": ["no-such-figure"]}, "not legal"),
        ({"file": "ok", "name": ""}, "not legal"),
    ],
)
def test_a_mistake_in_a_save_is_one_line_and_writes_nothing(
    client: TestClient, folders: Settings, tmp_path: Path, change: dict, message: str
):
    response = client.post("/builder/save", data={**LEGAL_100, **change}, headers=SAME)
    assert response.status_code == 422
    assert message in response.text and response.text.count("\n") <= 1
    assert not folders.armies.exists() or not list(folders.armies.iterdir())
    assert not (tmp_path / "escape.yaml").exists() and not Path("/tmp/escape.yaml").exists()


def test_an_existing_file_is_replaced_only_when_asked(client: TestClient, folders: Settings):
    assert client.post("/builder/save", data={**LEGAL_100, "file": "mine"}, headers=SAME).status_code == 200
    renamed = {**LEGAL_100, "file": "mine", "name": "Renamed"}
    refused = client.post("/builder/save", data=renamed, headers=SAME)
    assert refused.status_code == 422 and "exists" in refused.text
    assert "Night Shift" in (folders.armies / "mine.yaml").read_text(encoding="utf-8")
    assert client.post("/builder/save", data={**renamed, "replace": "on"}, headers=SAME).status_code == 200
    assert "Renamed" in (folders.armies / "mine.yaml").read_text(encoding="utf-8")


def test_the_figure_list_filters(client: TestClient):
    every = client.get("/builder/figures").text.count("data-figure=")
    vampires = client.get("/builder/figures?class=Vampire").text
    assert 0 < vampires.count("data-figure=") < every
    assert "crimson-thrall-e" in vampires
    assert client.get("/builder/figures?max_points=1").text.count("data-figure=") == 0
    assert client.get("/builder/figures?max_points=lots").status_code == 400


def test_a_sample_army_is_copied_under_a_new_name(client: TestClient):
    page = client.get("/builder?army=butcher-shop&copy=1")
    assert "(copy)" in page.text
    assert client.get("/builder?army=no-such").status_code == 400


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"games": "1"}, "games"),
        ({"games": "many"}, "games"),
        ({"games": "10000000"}, "games"),
        ({"army_a": "../../etc/passwd"}, "army_a"),
        ({"army_b": "nobody"}, "army_b"),
        ({"map": "/etc"}, "map"),
        ({"target_ci": "0.9"}, "target_ci"),
        ({"seed": "-1"}, "seed"),
        ({"players": "tuned,nobody"}, "nobody"),
    ],
)
def test_a_duel_form_mistake_is_one_line_and_starts_nothing(client: TestClient, change: dict, field: str):
    data = {"army_a": "butcher-shop", "army_b": "firing-line", "games": "4", **change}
    response = client.post("/duel", data=data, headers=SAME, follow_redirects=False)
    assert response.status_code == 400
    assert field in response.text
    assert client.app.state.clix.runs.all() == []  # type: ignore[attr-defined]


def test_the_results_table_lists_the_store_and_filters(client: TestClient, folders: Settings):
    import clix

    assert "No run recorded yet" in client.get("/results").text
    clix.duel("butcher-shop", "firing-line", games=2, jobs=1, store=folders.store)
    clix.duel("butcher-shop", "haunting", games=2, jobs=1, store=folders.store)
    table = client.get("/results").text
    assert table.count("<tr><td>") == 2
    assert client.get("/results?army=haunting").text.count("<tr><td>") == 1
    assert client.get("/results?map=nowhere").text.count("<tr><td>") == 0
    assert client.get("/results?since=2999-01-01").text.count("<tr><td>") == 0
    assert client.get("/results?since=yesterday").status_code == 400


def test_a_run_downloads_as_csv_and_two_runs_compare(client: TestClient, folders: Settings):
    import clix

    clix.duel("butcher-shop", "firing-line", games=2, jobs=1, store=folders.store)
    clix.duel("butcher-shop", "haunting", games=4, jobs=1, store=folders.store)
    games = client.get("/results/1/games.csv")
    assert games.status_code == 200 and games.headers["content-type"].startswith("text/csv")
    assert len(games.text.strip().splitlines()) == 1 + 2  # the header and the run's two games
    assert "attachment" in games.headers["content-disposition"]
    assert client.get("/results/2/figures.csv").text.count("\n") > 4
    assert client.get("/results/3/games.csv").status_code == 404
    assert client.get("/results/1/secrets.csv").status_code == 404
    compared = client.get("/results/compare?compare=1&compare=2")
    assert compared.status_code == 200
    assert "haunting" in compared.text.lower() and "firing-line" in compared.text
    one = client.get("/results/compare?compare=1")
    assert one.status_code == 400 and "two runs" in one.text


def test_a_horrified_run_links_its_report_and_downloads_its_games(client: TestClient, folders: Settings):
    from clix.analyzer.cli import app
    from typer.testing import CliRunner

    out = folders.out / "horrified"
    done = CliRunner().invoke(
        app, ["horrified", "-n", "3", "--jobs", "1", "--store", str(folders.store), "-o", str(out)]
    )
    assert done.exit_code == 0, done.output
    table = client.get("/results").text
    assert "horrified: dracula+invisible-man, 2 heroes" in table
    assert 'href="/files/horrified/horrified.html"' in table  # its report (horrified.html, not report.html)
    assert "/results/1/games.csv" in table and "/results/1/figures.csv" not in table  # it has no figure rows
    games = client.get("/results/1/games.csv")
    assert games.status_code == 200 and len(games.text.strip().splitlines()) == 1 + 3


def test_a_report_downloads_as_pdf_made_in_its_run_folder(client: TestClient, folders: Settings, tmp_path: Path):
    run = folders.out / "a-vs-b" / "run-1"
    run.mkdir(parents=True)
    (run / "report.html").write_text("<h1>report</h1>", encoding="utf-8")
    (tmp_path / "secret.html").write_text("<p>secret</p>", encoding="utf-8")
    assert client.post("/pdf", data={"report": "/files/a-vs-b/run-1/report.html"}).status_code == 403  # no Origin
    assert not (run / "report.pdf").exists()
    response = client.post("/pdf", data={"report": "/files/a-vs-b/run-1/report.html"}, headers=SAME)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/pdf" and response.content.startswith(b"%PDF")
    assert 'filename="a-vs-b-run-1-report.pdf"' in response.headers["content-disposition"]
    made = (run / "report.pdf").stat().st_mtime_ns
    assert client.post("/pdf", data={"report": "a-vs-b/run-1/report.html"}, headers=SAME).status_code == 200
    assert (run / "report.pdf").stat().st_mtime_ns == made  # made once, then served
    for bad, status in (("../secret.html", 400), ("/etc/passwd", 400), ("a-vs-b/run-1/nothing.html", 404)):
        refused = client.post("/pdf", data={"report": bad}, headers=SAME)
        assert refused.status_code == status and "report" in refused.text, bad
    assert not (tmp_path / "secret.pdf").exists()


def test_a_pdf_loads_nothing_from_outside_its_run_folder(client: TestClient, folders: Settings, tmp_path: Path):
    """The renderer's URL fetcher (analyzer/serve/pdf.py): a report naming an http(s) address or a file outside its
    run folder is rendered without them; no request reaches the address, the outside image is not in the PDF, while
    an image of the run folder is."""
    import http.server
    import threading

    from clix.analyzer.serve.pdf import STATIC, allowed

    asked: list[str] = []

    class Spy(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Spy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        picture = _png()
        (tmp_path / "outside.png").write_bytes(picture)
        run = folders.out / "a-vs-b" / "run-2"
        run.mkdir(parents=True)
        (run / "inside.png").write_bytes(picture)
        (run / "link.png").symlink_to(tmp_path / "outside.png")
        address = f"http://127.0.0.1:{server.server_address[1]}"
        outside = (tmp_path / "outside.png").as_uri()
        (run / "report.html").write_text(
            f'<link rel="stylesheet" href="{address}/leak.css"><h1>report</h1><img src="{address}/leak.png">'
            f'<img src="{outside}"><img src="link.png"><img src="../../../outside.png">',
            encoding="utf-8",
        )
        response = client.post("/pdf", data={"report": "a-vs-b/run-2/report.html"}, headers=SAME)
        assert response.status_code == 200 and response.content.startswith(b"%PDF"), response.text
        assert asked == []  # nothing fetched from the address
        assert b"/Image" not in response.content  # the outside picture, direct, linked or climbed to, left out
        (run / "report.html").write_text('<h1>report</h1><img src="inside.png">', encoding="utf-8")
        (run / "report.pdf").unlink()
        assert b"/Image" in client.post("/pdf", data={"report": "a-vs-b/run-2/report.html"}, headers=SAME).content
    finally:
        server.shutdown()
    for url in ("https://example.com/x.png", "ftp://example.com/x", f"file://{tmp_path}/outside.png",
                "file://other-host/etc/passwd", (run / "link.png").as_uri()):  # fmt: skip
        with pytest.raises(ValueError, match="not loaded"):
            allowed(url, [run, STATIC])
    allowed((run / "inside.png").as_uri(), [run, STATIC])
    allowed((STATIC / "serve.css").as_uri(), [run, STATIC])
    allowed("data:image/png;base64,AAAA", [run, STATIC])


def _png() -> bytes:
    """A 2x2 PNG picture."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (2, 2), (200, 0, 0)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_crossroads_side_is_chosen_on_the_page(client: TestClient, folders: Settings):
    """HC-CARD-07: a crossroads figure added without a side is a problem naming the rule; the side chosen in its
    select clears it and is saved as the army file's `side`."""
    army = {**LEGAL_100, "build_total": "200", "figure": [*LEGAL_100["figure"], "hedge-witch-morrow-u"]}
    panel = client.post("/builder/check", data=army, headers=SAME).text
    assert "choose its side" in panel and 'data-crossroads="hedge-witch-morrow-u"' in panel  # HC-CARD-07's problem
    assert 'value="hedge-witch-morrow-u@start_b"' in panel
    chosen = {**army, "figure": [*LEGAL_100["figure"], "hedge-witch-morrow-u@start_b"]}
    panel = client.post("/builder/check", data=chosen, headers=SAME).text
    assert "choose its side" not in panel and "Legal army." in panel
    assert 'value="hedge-witch-morrow-u@start_b" selected' in panel
    saved = client.post("/builder/save", data={**chosen, "file": "witch"}, headers=SAME)
    assert saved.status_code == 200, saved.text
    written = yaml.safe_load((folders.armies / "witch.yaml").read_text(encoding="utf-8"))
    assert {"figure": "hedge-witch-morrow-u", "side": "start_b"} in written["figures"]


def test_a_victim_archetype_may_come_twice(client: TestClient, folders: Settings):
    """HC-VICTIM-02: six victims, an archetype more than once allowed; the copies are counted and saved."""
    twice = {**LEGAL_100, "victim": ["Teacher", "Prom Queen", "Nerd", "Sheriff", "Psychic"], "more:Teacher": "1"}
    panel = client.post("/builder/check", data=twice, headers=SAME).text
    assert "Legal army." in panel, panel
    three = client.post("/builder/check", data={**twice, "more:Teacher": "2"}, headers=SAME).text
    assert "HC-VICTIM-02" in three and "contributes 7 victims" in three
    bad = client.post("/builder/check", data={**twice, "more:Teacher": "many"}, headers=SAME)
    assert bad.status_code == 400 and "victims" in bad.text
    assert client.post("/builder/save", data={**twice, "file": "twice"}, headers=SAME).status_code == 200
    written = yaml.safe_load((folders.armies / "twice.yaml").read_text(encoding="utf-8"))
    assert written["victims"].count("Teacher") == 2
    page = client.get("/builder?army=twice").text
    assert 'name="more:Teacher" value="1"' in page
