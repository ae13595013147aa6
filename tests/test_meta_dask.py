"""`clix meta --backend dask`: the games played on a Dask cluster are the local run's, and the roster travels
with the tasks (the workers are given a library path that does not exist)."""

from __future__ import annotations

import pandas as pd
import pytest
from clix.analyzer.library.load import REPO_ROSTERS, load_library
from clix.analyzer.meta.field import field_cells
from clix.analyzer.meta.play import field_games, local_runner, play_field

distributed = pytest.importorskip("distributed")


def test_the_dask_run_equals_the_local_run(tmp_path):
    from clix.analyzer.play.cluster import dask_runner

    roster = load_library((REPO_ROSTERS,), everything=True).roster
    armies, maps = ["butcher-shop", "firing-line"], ["graveyard", "mansion"]
    local = play_field(field_cells((REPO_ROSTERS,), armies, maps, ["tuned"], 15), 6, local_runner(3, 1))
    nowhere = (tmp_path / "not-on-the-workers",)
    cells = field_cells(nowhere, armies, maps, ["tuned"], 15)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        runner = dask_runner(cluster.scheduler_address, roster, 3, batch=4)
        try:
            remote = play_field(cells, 6, runner)
        finally:
            runner.close()
    assert not remote.failed and remote.played == 12
    here, there = field_games(cells, local), field_games(cells, remote)
    assert len(here) == 12
    pd.testing.assert_frame_equal(there, here)


def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    from clix.analyzer.play import cluster
    from helpers import run_main

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)

    code, _, err = run_main(
        [
            "meta",
            "butcher-shop",
            "firing-line",
            "--maps",
            "graveyard",
            "--games",
            "2",
            "--backend",
            "dask",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--out",
            str(tmp_path / "o"),
            "--store",
            str(tmp_path / "s.duckdb"),
        ],
        capsys,
    )
    assert code == 2 and err.startswith("clix: error: --scheduler tcp://127.0.0.1:9: cannot reach")
    assert len(err.strip().splitlines()) == 1
