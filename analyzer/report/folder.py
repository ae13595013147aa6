"""An `--out` folder claimed for one run: checked before the first game, locked, and replaced atomically.

Runs do not overwrite earlier runs: by default a command makes a new run folder (`run-YYYYMMDD-HHMMSS`,
sortable, made with an exclusive mkdir so two runs never share one) inside its folder of runs (`Target`
with `new_run`), and a folder named with `--out` that already holds a run is replaced only with `--force`.

`claim_output(out)` checks that the folder can be written (creating its parent and test-writing beside
it), refuses a read-only folder, a folder that another clix run holds (an flock on a hidden lock file beside
it, with that run's pid) or one that holds files clix does not write (by their names, `OWN_FILES`), and
returns an `OutputFolder`. Its `staged()` gives a hidden folder beside `--out` to write into; when the
writing succeeds the new folder takes the old one's permissions and replaces it by two renames with Ctrl-C
and SIGTERM held back, so an interruption at any moment leaves either the old complete outputs or the new
complete ones. A failed write names the file (as it would be in `--out`).

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
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from clix.analyzer.common.errors import ClixError
from clix.analyzer.common.signals import signals_held

OWN_FILES = frozenset(
    {
        # duel
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
        # ladder, sweep
        "ladder.pdf",
        "ladder.csv",
        "ladder.html",
        "sweep.csv",
        # meta
        "field.json",
        "cells.csv",
        "cells.parquet",
        "heatmap.png",
        "nash.png",
        "meta.html",
        "meta.pdf",
        # value
        "value.csv",
        "value.json",
        "value.html",
        "value.pdf",
        "value-vs-cost.png",
        "residuals.png",
        # build (and its finalists' army files, armies/NAME.yaml)
        "build.json",
        "builds.csv",
        "build.html",
        "build.pdf",
        # horrified (issue 40)
        "horrified.html",
        "horrified.pdf",
        "ends.png",
        # the Python API's report of a result store's runs (clix.results().report)
        "results.html",
        "results.pdf",
    }
)
"""Every file a duel, sweep, ladder, meta, value, build or horrified run writes at the top of its folder: a folder holding
only these (and `OWN_FOLDERS`) is clix's and may be replaced."""
OWN_FOLDERS = {"armies": ".yaml"}
"""The folders a run writes, with the suffix of the files in them (`clix build`'s finalists' armies)."""

RUN_PREFIX = "run-"


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C or SIGTERM that ended a run, with the line saying what became of it (nothing finished to report,
    or where the outputs are): `clix` prints the line and exits 130. Code that catches KeyboardInterrupt catches
    it too."""

    LINE = "interrupted before any game finished"

    def __init__(self, line: str = LINE) -> None:
        super().__init__(line)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Target:
    """Where a run writes: a new run folder made inside `path` (`new_run`), or `path` itself, which may
    already hold an earlier run only when `force` is given (it is then replaced as a whole)."""

    path: Path
    new_run: bool = False
    force: bool = False


class OutputFolder:
    """The claim on one `--out` folder: the lock, and the atomic replacement of its contents."""

    def __init__(self, out: Path, replace: bool = True, made: bool = False) -> None:
        self.out = out
        self.replace = replace
        """Whether a folder holding an earlier run's outputs may be replaced (else it is refused)."""
        self.made = made
        """This run made the (empty) folder: it is removed again if the run writes nothing."""
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
        if self.target.is_dir() and not _writable(self.target):
            info = self.target.stat()
            mode = stat.S_IMODE(info.st_mode)
            what = "read-only" if info.st_uid == os.geteuid() else "not writable by this user"
            raise ClixError(
                f"--out {out}: the folder is {what} (mode {mode:o}); clix replaces it with the run's outputs, so "
                f"make it writable (chmod u+w {out}) or choose another folder"
            )
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
                foreign = foreign_files(self.target) if present else []
            except OSError as exc:
                raise ClixError(f"--out {out}: cannot read the folder ({_why(self.target, exc)})") from None
            if foreign:
                raise ClixError(
                    f"--out {out}: the folder holds files clix did not write ({', '.join(foreign[:3])}"
                    f"{', ...' if len(foreign) > 3 else ''}); clix replaces the whole folder, so choose a new or "
                    "empty one"
                )
            if present and not self.replace:
                raise ClixError(
                    f"--out {out}: holds an earlier run ({', '.join(present[:3])}{', ...' if len(present) > 3 else ''}"
                    "); pass --force to replace it, or leave out --out to get a new run folder"
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
        if self.made:
            with contextlib.suppress(OSError):
                self.target.rmdir()  # only while still empty: nothing was published into it
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
            raise Interrupted(f"interrupted while writing: {self.out} is as it was before this run") from None
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
        if self.target.is_dir():  # the outputs take the place of the folder: they keep its permissions
            _copy_mode(self.target, self.new)
        try:
            with signals_held():
                if self.target.exists():
                    self.target.rename(self.old)
                self.new.rename(self.target)
        except KeyboardInterrupt:  # held back during the renames: the new outputs are in place
            raise Interrupted(f"interrupted: the outputs were written to {self.out}") from None
        finally:
            shutil.rmtree(self.old, ignore_errors=True)


def claim_output(out: Path | Target) -> OutputFolder:
    """Claim `out` for this run (checks, lock); use the result as a context manager to release it. A plain
    path is replaced whatever it holds (as long as clix wrote it); a `Target` says what `--out` asked."""
    target = out if isinstance(out, Target) else Target(out, force=True)
    if target.new_run:
        return _claim_new_run(target.path)
    folder = OutputFolder(target.path, replace=target.force)
    folder.claim()
    return folder


def run_folder_name(when: datetime, attempt: int = 0) -> str:
    """`run-YYYYMMDD-HHMMSS`, with `-02`, `-03`, ... for later runs started in the same second: the names sort
    in the order the runs started."""
    return f"{RUN_PREFIX}{when:%Y%m%d-%H%M%S}" + (f"-{attempt + 1:02d}" if attempt else "")


def _claim_new_run(runs: Path) -> OutputFolder:
    """Make and claim a new run folder inside `runs` (an exclusive mkdir: concurrent runs get different ones)."""
    try:
        runs.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ClixError(f"--out {runs}: cannot create the folder ({_why(runs, exc)})") from None
    if not runs.is_dir():
        raise ClixError(f"--out {runs}: is a file, not a folder")
    when = datetime.now()
    for attempt in range(100):
        path = runs / run_folder_name(when, attempt)
        try:
            path.mkdir()
        except FileExistsError:
            continue
        except OSError as exc:
            raise ClixError(f"--out {runs}: cannot create a run folder in it ({_why(path, exc)})") from None
        folder = OutputFolder(path, replace=False, made=True)
        try:
            folder.claim()
        except BaseException:
            with contextlib.suppress(OSError):
                path.rmdir()
            raise
        return folder
    raise ClixError(f"--out {runs}: 100 runs started this second already; wait a second")


@contextmanager
def writing(path: Path) -> Iterator[None]:
    """Give an OSError without a file name (a full disk, an error from pyarrow) the name of `path`."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


def foreign_files(folder: Path) -> list[str]:
    """The files in `folder` that clix does not write there, as paths relative to it (a folder of its own, as
    `clix build`'s armies/, counts by the files in it; any other folder is foreign as a whole)."""
    found: list[str] = []
    for path in sorted(folder.iterdir()):
        name = path.name
        if name in OWN_FOLDERS and path.is_dir() and not path.is_symlink():
            suffix = OWN_FOLDERS[name]
            found += [
                f"{name}/{inner.name}"
                for inner in sorted(path.iterdir())
                if not (inner.name.endswith(suffix) and inner.is_file() and not inner.is_symlink())
            ]
        elif name not in OWN_FILES or not path.is_file():
            found.append(name + ("/" if path.is_dir() else ""))
    return found


def _writable(folder: Path) -> bool:
    """Whether the folder may be written: the system says so and, for its owner, its mode does too (root may
    write anywhere, but a folder made read-only is a folder its owner wants left alone)."""
    try:
        info = folder.stat()
    except OSError:
        return True  # gone: nothing to replace
    if not os.access(folder, os.W_OK):
        return False
    return info.st_uid != os.geteuid() or bool(info.st_mode & stat.S_IWUSR)


def _copy_mode(source: Path, target: Path) -> None:
    """Give `target` the permissions (and, where allowed, the group) of `source`."""
    try:
        info = source.stat()
        os.chmod(target, stat.S_IMODE(info.st_mode))
    except OSError:
        return
    with contextlib.suppress(OSError):
        if target.stat().st_gid != info.st_gid:
            os.chown(target, -1, info.st_gid)


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
