"""An `--out` folder claimed for one run: checked before the first game, locked, and replaced atomically.

`claim_output(out)` checks that the folder can be written (creating its parent and test-writing beside
it), refuses a folder that another clix run holds (an flock on a hidden lock file beside it, with that
run's pid) or that holds files clix does not write, and returns an `OutputFolder`. Its `staged()` gives a
hidden folder beside `--out` to write into; when the writing succeeds the new folder replaces the old one
by two renames with Ctrl-C and SIGTERM held back, so an interruption at any moment leaves either the old
complete outputs or the new complete ones. A failed write names the file (as it would be in `--out`).

Beside `out` (in its parent) a run uses `.NAME.clix-lock`, `.NAME.clix-new-PID` and `.NAME.clix-old-PID`;
all are removed at the end. A run killed with SIGKILL can leave them; the next run into the same folder
cleans them up (and puts an old folder back if the kill came between the two renames).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from clix.analyzer.errors import ClixError

OWN_FILES = frozenset(
    {
        "games.csv",
        "games.parquet",
        "figures.csv",
        "figures.parquet",
        "summary.json",
        "report.html",
        "victim_rush.png",
        "victory_points.png",
        "efficiency.png",
        "score.png",
        "vp_margin.png",
        "map.png",
        "report.pdf",
        "ladder.pdf",
        "ladder.csv",
        "ladder.html",
        "sweep.csv",
    }
)
"""Every file a duel, sweep or ladder writes: a folder holding only these may be replaced."""


class OutputFolder:
    """The claim on one `--out` folder: the lock, and the atomic replacement of its contents."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.target = Path(os.path.realpath(out))
        parent = self.target.parent
        name = self.target.name
        self.lock_path = parent / f".{name}.clix-lock"
        self.new = parent / f".{name}.clix-new-{os.getpid()}"
        self.old = parent / f".{name}.clix-old-{os.getpid()}"
        self._lock: int | None = None

    def __enter__(self) -> OutputFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    # --- claiming --------------------------------------------------------------------------------------

    def claim(self) -> None:
        """Check and lock the folder (see the module's docstring); raise ClixError with one line if not."""
        out = self.out
        if self.target == self.target.parent:
            raise ClixError(f"--out {out}: name a folder below the root")
        if self.target.exists() and not self.target.is_dir():
            raise ClixError(f"--out {out}: is a file, not a folder")
        parent = self.target.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ClixError(f"--out {out}: cannot create the folder ({_why(parent, exc)})") from None
        self._take_lock()
        try:
            try:
                self._recover()
                present = sorted(p.name for p in self.target.iterdir()) if self.target.is_dir() else []
            except OSError as exc:
                raise ClixError(f"--out {out}: cannot read the folder ({_why(self.target, exc)})") from None
            foreign = [name for name in present if name not in OWN_FILES]
            if foreign:
                raise ClixError(
                    f"--out {out}: the folder holds files clix did not write ({', '.join(foreign[:3])}"
                    f"{', ...' if len(foreign) > 3 else ''}); clix replaces the whole folder, so choose a new or "
                    "empty one"
                )
            self._probe()
        except BaseException:
            self.release()
            raise

    def _take_lock(self) -> None:
        for _ in range(10):
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise ClixError(
                    f"--out {self.out}: cannot write beside the folder ({_why(self.lock_path, exc)})"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                holder = _read_pid(fd)
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise ClixError(f"--out {self.out}: cannot lock {self.lock_path} ({exc.strerror})") from None
                who = f" (pid {holder})" if holder else ""
                raise ClixError(
                    f"--out {self.out}: another clix run{who} is writing to this folder; wait for it to end or "
                    "choose another --out"
                ) from None
            # the holder before us may have removed the file after we opened it: lock the file on the path
            try:
                same = os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
                self._lock = fd
                return
            os.close(fd)
        raise ClixError(f"--out {self.out}: could not lock the folder (other runs keep taking it)")

    def _recover(self) -> None:
        """Clean what a killed run left beside the folder (we hold the lock: no run is using them)."""
        parent, name = self.target.parent, self.target.name
        olds = sorted(parent.glob(f".{name}.clix-old-*"))
        if olds and not self.target.exists():
            olds[0].rename(self.target)  # killed between its two renames: the old outputs go back
        for leftover in [*parent.glob(f".{name}.clix-new-*"), *parent.glob(f".{name}.clix-old-*")]:
            shutil.rmtree(leftover, ignore_errors=True)

    def _probe(self) -> None:
        """Create the staging folder and write a file in it, then remove both: the real writing works."""
        try:
            self.new.mkdir()
            probe = self.new / "probe"
            probe.write_bytes(b"clix")
            probe.unlink()
        except OSError as exc:
            raise ClixError(f"--out {self.out}: cannot write beside the folder ({_why(self.new, exc)})") from None
        finally:
            shutil.rmtree(self.new, ignore_errors=True)

    def release(self) -> None:
        """Give up the lock (removing its file first, so no later run can lock a file that is gone)."""
        if self._lock is None:
            return
        with contextlib.suppress(OSError):
            self.lock_path.unlink()
        os.close(self._lock)
        self._lock = None

    # --- writing ---------------------------------------------------------------------------------------

    @contextmanager
    def staged(self) -> Iterator[Path]:
        """A fresh hidden folder to write the outputs into; it replaces `--out` when the block ends without an
        exception. On any exception (a failed write, a second Ctrl-C) it is removed and `--out` is left as it
        was; an OSError's file name is given as the file's place in `--out`."""
        shutil.rmtree(self.new, ignore_errors=True)
        try:
            self.new.mkdir()
            yield self.new
        except OSError as exc:
            shutil.rmtree(self.new, ignore_errors=True)
            raise self._named(exc) from None
        except KeyboardInterrupt:
            shutil.rmtree(self.new, ignore_errors=True)
            _say(f"clix: interrupted while writing: {self.out} is as it was before this run")
            raise
        except BaseException:
            shutil.rmtree(self.new, ignore_errors=True)
            raise
        self._publish()

    def final(self, path: Path) -> Path:
        """Where a file written in the staging folder ends up."""
        return self.out / path.relative_to(self.new)

    def _named(self, exc: OSError) -> OSError:
        name = str(self.out) if exc.filename is None else exc.filename
        with contextlib.suppress(ValueError):
            name = str(self.out / Path(name).relative_to(self.new))
        return OSError(exc.errno, exc.strerror or str(exc), name)

    def _publish(self) -> None:
        try:
            with _signals_held():
                if self.target.exists():
                    self.target.rename(self.old)
                self.new.rename(self.target)
        except KeyboardInterrupt:  # held back during the renames: the new outputs are in place
            _say(f"clix: interrupted: the outputs were written to {self.out}")
            raise
        finally:
            shutil.rmtree(self.old, ignore_errors=True)


def claim_output(out: Path) -> OutputFolder:
    """Claim `out` for this run (checks, lock); use the result as a context manager to release it."""
    folder = OutputFolder(out)
    folder.claim()
    return folder


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Give an OSError without a file name (a full disk, an error from pyarrow) the name of `path`."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back SIGINT and SIGTERM (delivering them afterwards) so two renames are not split by them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}

    def hold(signum: int, frame: object) -> None:
        caught.append(signum)

    for held in (signal.SIGINT, signal.SIGTERM):
        previous[held] = signal.signal(held, hold)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if caught:
            raise KeyboardInterrupt


def _say(line: str) -> None:
    from rich.console import Console

    Console(stderr=True, highlight=False, soft_wrap=True).print(line, markup=False)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _why(path: Path, exc: OSError) -> str:
    """Why a folder cannot be made or written: a file in the way, or the system's reason."""
    for ancestor in [path, *path.parents]:
        if ancestor.exists() and not ancestor.is_dir():
            return f"{ancestor} is a file"
    if exc.errno == errno.EACCES:
        return f"no permission to write in {path.parent if not path.exists() else path}"
    return exc.strerror or str(exc)
