"""A wrong or lost Dask scheduler is one line (issue 31, part 6): a port that is no scheduler, a malformed address,
a scheduler lost mid-run (the finished games kept), and `--jobs` with `--backend dask`.

The cases use a cluster in this process (no worker processes) and TCP servers opened here on 127.0.0.1; every
wait is bounded.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from clix.analyzer.common.errors import ClixError
from clix.analyzer.play import cluster
from clix.analyzer.play.store import STORE_NAME
from helpers import run_main
from test_surfaces import ROSTERS, in_tmp, one_error  # noqa: F401  (in_tmp: autouse)

# --- 5. Dask: a wrong address, a lost scheduler, --jobs --------------------------------------------------------


@pytest.fixture
def garbage_server() -> Iterator[str]:
    """A TCP server on 127.0.0.1 that answers any connection as a web server would refuse it; yields its address."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            with connection:
                connection.settimeout(2)
                try:
                    connection.recv(4096)
                    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        server.close()


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP server on 127.0.0.1 that accepts connections and never says anything; yields its address."""
    server = socket.create_server(("127.0.0.1", 0))
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()


def test_a_port_that_is_no_scheduler_is_one_line(garbage_server, silent_server):
    pytest.importorskip("distributed")
    with pytest.raises(ClixError, match="the port is open, but no Dask scheduler answers there"):
        cluster.check_scheduler(garbage_server, timeout=5)
    with pytest.raises(ClixError, match=r"no Dask scheduler answers there \(no answer within 1 s\)"):
        cluster.check_scheduler(silent_server, timeout=1)
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(ClixError, match="cannot reach the Dask scheduler"):
        cluster.check_scheduler(f"tcp://127.0.0.1:{port}", timeout=5)


def test_a_scheduler_passes_the_check_and_a_worker_does_not():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as local:
        cluster.check_scheduler(local.scheduler_address, timeout=5)
        worker = next(iter(local.workers.values())).address
        with pytest.raises(ClixError, match="that port answers, but as a Dask Worker, not a Dask scheduler"):
            cluster.check_scheduler(worker, timeout=5)


@pytest.mark.parametrize("address", ["tcp://nope:notaport", "::::", "http://127.0.0.1:8786", "tcp://host:70000", " "])
def test_a_malformed_scheduler_address_is_one_line(address):
    pytest.importorskip("distributed")
    with pytest.raises(ClixError, match="not a scheduler address"):
        cluster.check_scheduler(address, timeout=5)


def meta_on(address: str, tmp_path: Path) -> list[str]:
    command = ["meta", "butcher-shop", "firing-line", "--maps", "graveyard", "--games", "2", "--turns", "3"]
    command += ["--backend", "dask", "--scheduler", address, "--rosters", ROSTERS, "--out", str(tmp_path / "o")]
    return [sys.executable, "-m", "clix.analyzer.cli", *command, "--store", str(tmp_path / STORE_NAME)]


@pytest.mark.parametrize("case", ["web server", "malformed"])
def test_meta_on_a_wrong_scheduler_is_one_line_in_a_real_process(case, garbage_server, tmp_path):
    """In a process of its own (as a user runs it): one line, exit 2, no traceback, and no stall after it (the
    timeout bounds the wait; it used to hang, or print the line and a traceback 40 s later)."""
    pytest.importorskip("distributed")
    address = garbage_server if case == "web server" else "tcp://nope:notaport"
    done = subprocess.run(meta_on(address, tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=90)
    assert done.returncode == 2
    one_error(done.stderr, f"--scheduler {address}: ")
    assert not (tmp_path / "o").exists()


def test_a_scheduler_lost_mid_run_is_one_line_and_keeps_the_games(tmp_path, capsys, monkeypatch):
    """The scheduler goes away after the first batch: the meta reports the games finished, exit code 1, and says
    what happened in one line (it used to print thousands)."""
    distributed = pytest.importorskip("distributed")
    local = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    completed = distributed.as_completed

    def then_lost(futures: list, **kwargs: object) -> Iterator:
        for n, future in enumerate(completed(futures, **kwargs)):
            yield future
            if n == 0:
                local.close()  # after the first batch is kept

    monkeypatch.setattr(distributed, "as_completed", then_lost)
    monkeypatch.setattr(cluster, "BATCH", 2)
    try:
        command = ["meta", "butcher-shop", "firing-line", "--maps", "graveyard", "--games", "8", "--turns", "3"]
        command += ["--backend", "dask", "--scheduler", local.scheduler_address, "--rosters", ROSTERS]
        command += ["--out", str(tmp_path / "o"), "--store", str(tmp_path / STORE_NAME), "--json"]
        code, out, err = run_main(command, capsys)
    finally:
        local.close()
    assert code == 1, err
    lost = [line for line in err.splitlines() if "was lost mid-run" in line]
    assert len(lost) == 1 and lost[0].startswith(f"clix: error: the Dask scheduler {local.scheduler_address}")
    assert len(err.strip().splitlines()) <= 3 and "Traceback" not in err
    summary = json.loads(out)
    assert 0 < summary["settings"]["games"] < 8 and (tmp_path / "o" / "games.csv").exists()


def test_a_lost_scheduler_is_not_a_failed_game():
    from concurrent.futures import CancelledError

    running = type("Client", (), {"status": "running"})()
    assert cluster.lost(running, CancelledError("scheduler-connection-lost"))
    assert cluster.lost(type("Client", (), {"status": "closed"})(), RuntimeError("no scheduler"))
    assert not cluster.lost(running, RuntimeError("a game raised"))
