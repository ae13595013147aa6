

# --- bench -------------------------------------------------------------------------------------------------------


def test_bench_times_the_heroclix_reference_duel(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["bench", "--ruleset", HEROCLIX, "--games", "2", "--rounds", "1", "--jobs", "1"], capsys)
    assert code == 0, err
    style = kit(HEROCLIX).default_style
    assert out.startswith(f"{HEROCLIX} reference duel: dawn-patrol vs night-shift on chemical-plant, {style} players")
    assert "games/s" in out and "results identical for 1 and 1 jobs: True" in out and "state copy" not in out


def test_the_heroclix_reference_duel_goes_to_the_bench_worker():
    from clix.analyzer.bench.against import worker_command
    from clix.analyzer.bench.command import REFERENCE, reference_duel

    reference = reference_duel(HEROCLIX)
    assert reference == ("dawn-patrol", "night-shift", "chemical-plant", HEROCLIX, kit(HEROCLIX).default_style)
    command = worker_command(reference, [HERO], 0, 2)
    assert command[-2:] == [HEROCLIX, kit(HEROCLIX).default_style] and command[3:6] == list(reference[:3])
    assert worker_command(REFERENCE[:3], [HERO], 0, 2)[-1].startswith("[")  # HorrorClix's: as before


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--meta"], "--meta: times a HorrorClix field only so far"),
        (["--ruleset", "nope"], "--ruleset: no ruleset is called 'nope'"),
        (["--rosters", str(ROSTERS / "horrorclix" / "maps")], "heroclix-2005 force named 'dawn-patrol'"),
    ],
)
def test_bench_mistakes_on_heroclix_are_one_line(args, line, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ruleset = [] if "--ruleset" in args else ["--ruleset", HEROCLIX]
    code, out, err = run_main(["bench", *ruleset, *args, "--games", "2", "--rounds", "1", "--jobs", "1"], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and line in lines[0], err
