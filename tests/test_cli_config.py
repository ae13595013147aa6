"""Option defaults from configuration files and the root's -q/-v (issue 37, item 2): `clix.toml` in the folder clix
runs in, the user's file, `--config FILE` or $CLIX_CONFIG, read in that order; the command line always wins; every
mistake in a file is one line naming the file, the table and the key."""

from __future__ import annotations

import json

import pytest
from helpers import run_main

DUEL = ["duel", "butcher-shop", "firing-line", "--turns", "2", "--jobs", "1"]


def _games_played(out: str) -> int:
    return json.loads(out)["settings"]["games"]


def test_a_project_file_sets_a_commands_default_and_the_command_line_wins(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "clix.toml").write_text("[duel]\ngames = 6\n")
    code, out, err = run_main([*DUEL, "--out", "a", "--json"], capsys)
    assert code == 0, err
    assert _games_played(out) == 6
    code, out, err = run_main([*DUEL, "--out", "b", "--json", "--games", "4"], capsys)
    assert code == 0, err
    assert _games_played(out) == 4


def test_files_layer_user_then_project_then_named(tmp_path, monkeypatch, capsys):
    """The user's file sets a default, the project's replaces it, --config (or $CLIX_CONFIG) replaces both; each
    command's help shows the default in force."""
    monkeypatch.chdir(tmp_path)
    user = tmp_path / "xdg" / "clix"
    user.mkdir(parents=True)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))

    def shown_default() -> str:
        code, out, err = run_main(["duel", "--help"], capsys)
        assert code == 0, err
        return " ".join(out.split()).split("[default: ")[1].split("]")[0]  # --games's is the first one shown

    (user / "clix.toml").write_text("[defaults]\ngames = 2222\n")
    assert shown_default() == "2222"
    (tmp_path / "clix.toml").write_text("[duel]\ngames = 3333\n")
    assert shown_default() == "3333"
    (tmp_path / "named.toml").write_text("[duel]\ngames = 4444\n")
    monkeypatch.setenv("CLIX_CONFIG", str(tmp_path / "named.toml"))
    assert shown_default() == "4444"
    _, out, _ = run_main(["--config", str(tmp_path / "clix.toml"), "duel", "--help"], capsys)
    assert "[default: 3333]" in " ".join(out.split())


def test_a_nested_table_sets_a_subcommands_default(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "clix.toml").write_text('[roster.check]\nrosters = ["nowhere"]\n')
    code, _, err = run_main(["roster", "check"], capsys)
    assert code == 2
    assert "--rosters nowhere" in err


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("[duel]\ngamez = 5\n", "clix.toml: [duel] gamez: `clix duel` has no option --gamez (did you mean 'games'?)"),
        ("[dual]\ngames = 5\n", "clix.toml: [dual]: no such command (did you mean 'duel'?)"),
        ('[duel]\ngames = "many"\n', "clix.toml: [duel] games: "),
        ("[defaults]\nnever = 1\n", "clix.toml: [defaults] never: no command takes --never"),
        ("games = 5\n", "clix.toml: games = ...: an option goes in a table"),
        ("[duel\n", "clix.toml: not a valid TOML file"),
    ],
)
def test_a_mistake_in_a_file_is_one_line_naming_it(text, wanted, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "clix.toml").write_text(text)
    code, _, err = run_main([*DUEL, "--games", "2"], capsys)
    assert code == 2
    assert err.startswith(f"clix: error: {wanted}"), err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_named_file_that_does_not_exist_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(["--config", "missing.toml", "roster", "list"], capsys)
    assert code == 2 and "missing.toml: no such configuration file" in err


def test_quiet_prints_only_what_json_asks_for_and_verbose_says_what_was_read(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["-q", *DUEL, "--games", "2", "--out", "q"], capsys)
    assert code == 0 and out == "", out
    assert (tmp_path / "q" / "report.html").is_file()
    code, out, err = run_main(["-q", *DUEL, "--games", "2", "--out", "j", "--json"], capsys)
    assert code == 0 and _games_played(out) == 2
    (tmp_path / "clix.toml").write_text("[defaults]\njobs = 1\n")
    code, out, err = run_main(["-v", "roster", "list"], capsys)
    assert code == 0 and out
    assert "clix: engine: " in err
    assert "clix: config: clix.toml (jobs=1)" in err
    code, _, err = run_main(["-q", "-v", "roster", "list"], capsys)
    assert code == 2 and "--quiet and --verbose" in err
