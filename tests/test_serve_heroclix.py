"""HeroClix in the builder of `clix serve` (issue 41): its characters browsed, a force checked at each click by
HeroClix's own force-building rules through the core's registry (HX-BUILD-01 points, HX-BUILD-03 a Unique once,
HX-BUILD-04 archenemies), and saved as a force file only when legal."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from clix.analyzer.serve import heroes
from clix.analyzer.serve.app import Settings, create_app
from starlette.testclient import TestClient

BASE = "http://127.0.0.1:8765"
SAME = {"Origin": BASE}


@pytest.fixture
def folders(tmp_path: Path) -> Settings:
    return Settings(port=8765, armies=tmp_path / "armies", store=tmp_path / "out" / "clix.duckdb", out=tmp_path / "out")


@pytest.fixture
def client(folders: Settings) -> TestClient:
    return TestClient(create_app(folders), base_url=BASE)


def _panel(client: TestClient, characters: list[str], total: str = "100", **more: str) -> str:
    data = {"name": "Test Force", "build_total": total, "character": characters, **more}
    response = client.post("/builder/heroclix/check", data=data, headers=SAME)
    assert response.status_code == 200, response.text
    return response.text


def test_the_builder_offers_heroclix_characters_and_forces(client: TestClient):
    assert 'href="/builder/heroclix"' in client.get("/builder").text  # the ruleset picker
    page = client.get("/builder/heroclix").text
    assert "Force builder" in page and "Captain Meridian" in page and "Dawn Patrol" in page
    rows = client.get("/builder/heroclix/characters?text=kestrel&max_points=30").text
    assert "kestrel-r" in rows and "kestrel-e" not in rows and "Alley Cat" not in rows
    assert client.get("/builder/heroclix/characters?max_points=lots").status_code == 400
    loaded = client.get("/builder/heroclix?force=dawn-patrol&copy=1").text
    assert "Dawn Patrol (copy)" in loaded and "Legal force." in loaded and "91" in loaded


def test_each_force_building_rule_appears_with_its_id_and_goes(client: TestClient):
    assert "HX-BUILD-01" in _panel(client, ["captain-meridian-u", "alley-cat-r"])  # 109 of 100 points
    assert "HX-BUILD-03" in _panel(client, ["magnate-vex-u", "magnate-vex-u"], "200")  # a Unique twice
    archenemies = _panel(client, ["bulwark-r", "ironjaw-v"])  # red bases of one set, different names
    assert "HX-BUILD-04" in archenemies and "Bulwark and Ironjaw" in archenemies
    fixed = _panel(client, ["bulwark-r", "ironjaw-v"], remove="1")
    assert "Legal force." in fixed and ">31<" in fixed and ">69<" in fixed  # points used and left
    assert "Legal force." in _panel(client, ["kestrel-r", "kestrel-r"])  # copies of a non-Unique (HX-BUILD-03)
    assert "no character" in _panel(client, [])


def test_a_legal_force_is_saved_as_a_force_file_and_loads_again(client: TestClient, folders: Settings):
    data = {"name": "Sky Pair", "build_total": "100", "character": ["kestrel-r", "stormwarden-r"],
            "object": ["heavy", "light", "light"], "file": "sky-pair"}  # fmt: skip
    response = client.post("/builder/heroclix/save", data=data, headers=SAME)
    assert response.status_code == 200 and "Saved" in response.text, response.text
    written = yaml.safe_load((folders.armies / "sky-pair.yaml").read_text(encoding="utf-8"))
    assert written["ruleset"] == "heroclix-2005" and written["characters"] == ["kestrel-r", "stormwarden-r"]
    assert heroes.load([*_layers(), folders.armies]).forces["sky-pair"].objects == ["heavy", "light", "light"]
    assert "Sky Pair" in client.get("/builder/heroclix").text  # the library was read again
    assert client.get("/builder").status_code == 200  # HorrorClix's library still loads beside a force file


def test_an_illegal_force_or_a_bad_name_writes_nothing(client: TestClient, folders: Settings):
    illegal = {"name": "Foes", "build_total": "100", "character": ["bulwark-r", "ironjaw-v"], "file": "foes"}
    response = client.post("/builder/heroclix/save", data=illegal, headers=SAME)
    assert response.status_code == 422 and "HX-BUILD-04" in response.text
    bad = {"name": "Ok", "build_total": "100", "character": ["kestrel-r"], "file": "../escape"}
    assert client.post("/builder/heroclix/save", data=bad, headers=SAME).status_code == 422
    assert client.post("/builder/heroclix/save", data={**bad, "file": "ok"}).status_code == 403  # no Origin
    assert not folders.armies.exists() or not list(folders.armies.iterdir())


def _layers() -> list[Path]:
    from clix.analyzer.library.load import library_layers

    return list(library_layers(None))


def _ended(client: TestClient, location: str) -> dict:
    """The `end` event of the run at `location` (/runs/N), read from its server-sent events."""
    import json

    data = {}
    with client.stream("GET", f"{location}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                data = json.loads(line.removeprefix("data: "))
    return data


def test_the_duel_and_field_pages_offer_heroclix_forces(client: TestClient):
    duel = client.get("/duel?ruleset=heroclix-2005").text
    assert "Force A" in duel and "Dawn Patrol (100)" in duel and "harbor-district" in duel
    assert 'name="ruleset" value="heroclix-2005"' in duel and "Butcher" not in duel
    field = client.get("/field?ruleset=heroclix-2005&army=night-shift").text
    assert "every other force of the same points" in field and '"night-shift" selected' in field
    assert 'href="/field?ruleset=heroclix-2005"' in client.get("/field").text  # the ruleset picker
    wrong = client.get("/duel?ruleset=chess")
    assert (
        wrong.status_code == 400 and "ruleset: &#39;chess&#39; is not" in wrong.text and "Traceback" not in wrong.text
    )
    mixed = {"ruleset": "heroclix-2005", "army_a": "butcher-shop", "army_b": "dawn-patrol", "games": "2"}
    refused = client.post("/duel", data=mixed, headers=SAME, follow_redirects=False)
    assert refused.status_code == 400 and "no force &#39;butcher-shop&#39;" in refused.text  # an army is no force
    style = client.post("/field", data={**mixed, "army": "dawn-patrol", "players": "rusher"}, headers=SAME)
    assert style.status_code == 400 and "rusher" in style.text  # HeroClix's own styles (clix meta --players)


def test_a_saved_force_plays_a_duel_and_a_field_row_from_the_page(folders: Settings):
    """HX-BUILD-08: a legal force saved from the builder; its duel and its row play HeroClix to their reports, and
    the row's games are the duel's (the same store keys: a duel of the same cell takes them from the store)."""
    with TestClient(create_app(folders), base_url=BASE) as client:
        force = {"name": "Sky Pair", "build_total": "100", "character": ["kestrel-r", "stormwarden-r"],
                 "file": "sky-pair"}  # fmt: skip
        saved = client.post("/builder/heroclix/save", data=force, headers=SAME).text
        assert 'href="/duel?ruleset=heroclix-2005&amp;army=sky-pair"' in saved
        assert '"sky-pair" selected' in client.get("/duel?ruleset=heroclix-2005&army=sky-pair").text
        row = {"ruleset": "heroclix-2005", "army": "sky-pair", "field": ["dawn-patrol"], "maps": ["chemical-plant"],
               "games": "2"}  # fmt: skip
        started = client.post("/field", data=row, headers=SAME, follow_redirects=False)
        assert started.status_code == 303, started.text
        end = _ended(client, started.headers["location"])
        assert end["state"] == "finished" and end["report"].endswith("/row.html"), end
        assert "sky-pair scores" in end["headline"] and client.get(end["report"]).status_code == 200
        heatmap = end["report"].removesuffix("/row.html").replace("/files/", "/results/field/", 1)
        assert "sky-pair against the field (dawn-patrol)" in client.get("/results?army=sky").text
        assert "/duel?ruleset=heroclix-2005&amp;army=sky-pair&amp;against=dawn-patrol" in client.get(heatmap).text
        duel = {"ruleset": "heroclix-2005", "army_a": "sky-pair", "army_b": "dawn-patrol", "map": "chemical-plant",
                "games": "2"}  # fmt: skip
        started = client.post("/duel", data=duel, headers=SAME, follow_redirects=False)
        end = _ended(client, started.headers["location"])
        assert end["state"] == "finished" and end["report"].endswith("/report.html"), end
        run = client.app.state.clix.runs.get(2)  # type: ignore[attr-defined]
        settings = run.summary["settings"]
        assert settings["ruleset"].startswith("heroclix-2005") and settings["from_store"] == 2, settings
