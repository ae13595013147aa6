"""The installable package (issue 14, part 1): a wheel that carries everything under one `clix` namespace,
with the sample library and the report templates, and runs a duel from a fresh virtual environment."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_code_folder_is_a_listed_package():
    """pyproject lists the packages by hand (the repository's folders map under clix/): a new subpackage
    that is not listed would be missing from the wheel."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"clix"}
    for top in ("engine", "analyzer"):
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(("clix", *init.parent.relative_to(ROOT).parts)))
    for init in (ROOT / "clix").rglob("__init__.py"):  # the API's packages (clix/api)
        found.add(".".join(init.parent.relative_to(ROOT).parts))
    assert found <= listed, f"packages missing from pyproject.toml: {sorted(found - listed)}"


def build_wheel(folder: Path, environment: dict[str, str] | None = None) -> tuple[Path, str]:
    """A wheel built from a copy of the tracked sources (so the build leaves nothing in the checkout), with the
    running environment's build tools (mypy among them), and what the build said (pip -v)."""
    source = folder / "source"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            target = source / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((ROOT / name).read_bytes())
    dist = folder / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v", "-w", str(dist), str(source)],
        capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    (found,) = dist.glob("clix-*.whl")
    return found, built.stdout + built.stderr


@pytest.fixture(scope="module")
def pure_wheel(tmp_path_factory) -> tuple[Path, str]:
    """The wheel as `pip install .` builds it where no C compiler is ($CC names none): the pure-Python engine (a
    quick build; the compiled one takes minutes and is left to the slow test below), and what the build said."""
    folder = tmp_path_factory.mktemp("pure")
    return build_wheel(folder, {**os.environ, "CC": str(folder / "no-such-compiler")})


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel as a user's `pip install .` builds it where a C compiler is (issue 38): with the compiled engine."""
    found, said = build_wheel(tmp_path_factory.mktemp("compiled"))
    assert "clix: compiled the engine" in said, said[-3000:]
    names = zipfile.ZipFile(found).namelist()
    assert "clix/build/compiled/manifest.json" in names  # the compiled engine, where the installed engine looks
    assert any(name.startswith("clix/build/compiled/runtime/") and name.endswith(".so") for name in names)
    assert f"-cp{sys.version_info.major}{sys.version_info.minor}-" in found.name  # for this Python and platform
    return found


def test_the_wheel_holds_one_namespace_with_its_data(pure_wheel):
    wheel, _ = pure_wheel
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"clix"}, tops  # no top-level engine/ or analyzer/ to collide with other projects
    for needed in (
        "clix/__init__.py",
        "clix/api/__init__.py",
        "clix/api/_meta.py",
        "clix/engine/horrorclix/rules.py",
        "clix/engine/core/state.py",
        "clix/engine/horrorclix/players/heuristic.py",
        "clix/analyzer/cli/__init__.py",
        "clix/analyzer/cli/play.py",
        "clix/reports/duel.html.j2",
        "clix/analyzer/serve/templates/builder.html.j2",
        "clix/analyzer/serve/static/htmx.min.js",
        "clix/analyzer/serve/static/htmx-LICENSE.txt",
        "clix/rosters/horrorclix/armies/butcher-shop.yaml",
        "clix/rosters/horrorclix/plot_twists.yaml",
        "clix/rosters/horrorclix/maps/graveyard.yaml",
    ):
        assert needed in names, needed
    assert any(name.endswith(".dist-info/licenses/LICENSE") or name.endswith(".dist-info/LICENSE") for name in names)
    shipped = {name for name in names if name.startswith("clix/rosters/")}
    assert len(shipped) == len(list((ROOT / "rosters").rglob("*.yaml")))  # both rulesets' sample data


def test_without_a_c_compiler_the_wheel_is_pure_python_and_says_so_in_one_line(pure_wheel):
    """No compiler: the package still builds, without the compiled engine, for any platform, and the build says
    why in one line (the compiled path: `test_a_duel_runs_from_the_installed_wheel`)."""
    found, said = pure_wheel
    lines = [line.strip() for line in said.splitlines() if "clix: " in line and "engine" in line]
    assert lines == [
        "clix: installing the pure-Python engine: no C compiler found ($CC, cc or gcc; Debian: apt install gcc); "
        "`clix compile` builds the compiled one later"
    ], lines
    names = zipfile.ZipFile(found).namelist()
    assert not any(name.startswith("clix/build/") or name.endswith(".so") for name in names)
    assert found.name.endswith("-py3-none-any.whl")


def fresh_venv(env_dir: Path) -> Path:
    """A new virtual environment made from the running interpreter whose dependencies are this interpreter's
    (a path file lists its site-packages after the new environment's own), so nothing is downloaded and it
    works whether the tests run in a venv, as users install, or in the system interpreter, as CI does.

    Only the folders are listed, not their path files: an editable install of clix in the running
    environment stays invisible there, so `import clix` finds the wheel or nothing."""
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    child = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    ours = sysconfig.get_paths()
    folders = dict.fromkeys(str(Path(ours[key]).resolve()) for key in ("purelib", "platlib"))
    (Path(child.stdout.strip()) / "running-interpreter.pth").write_text("\n".join(folders) + "\n")
    return python


def test_a_duel_runs_from_the_installed_wheel(wheel, tmp_path):
    """A fresh virtual environment with the wheel built where a C compiler is installed, its dependencies checked
    by pip against what is there (no index is read): `clix` runs from it on the compiled engine it carries, finds
    the sample library and the templates inside the package, and writes its HTML and PDF reports; `import clix`
    offers the API there too."""
    env_dir = tmp_path / "venv"
    python = fresh_venv(env_dir)
    # nothing on PYTHONPATH (a checkout there would pass for clix installed already), no roster folder named, and
    # no CLIX_PURE: the engine the installed package plays is the one it carries
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CLIX_ROSTERS", "CLIX_PURE")}
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index",
         "--no-build-isolation", str(wheel)],
        capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-2000:]
    work = tmp_path / "work"  # no ./rosters here: the library must come from the package
    work.mkdir()
    where = subprocess.run(
        [str(python), "-c", "import clix, clix.engine.horrorclix.rules as r; print(clix.__file__); print(r.__file__)"],
        cwd=work, capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(env_dir)) for line in where.stdout.split()), where.stdout
    engine = subprocess.run(
        [str(python), "-c", "import clix.engine.compiled as c; print(c.status)"],
        cwd=work, capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert engine.stdout.strip() == "compiled (mypyc)", engine.stdout + engine.stderr  # compiled by default
    script = env_dir / "bin" / "clix"
    version = subprocess.run([str(script), "--version"], cwd=work, capture_output=True, text=True, env=environment)
    assert version.returncode == 0 and version.stdout.startswith("clix "), version.stderr
    duel = subprocess.run(
        [str(script), "duel", "butcher-shop", "firing-line", "--games", "100", "--turns", "4", "--out", "out", "--pdf"],
        cwd=work, capture_output=True, text=True, env=environment, timeout=900,
    )  # fmt: skip
    assert duel.returncode == 0, duel.stderr[-2000:]
    assert (work / "out" / "report.html").stat().st_size > 10_000
    assert (work / "out" / "report.pdf").read_bytes()[:5] == b"%PDF-"
    api = subprocess.run(
        [str(python), "-c", "import clix; r = clix.duel('butcher-shop', 'firing-line', games=4, turns=2); "
         "print(len(r.games), r.settings['army_a'], {'meta', 'Army', 'ClixError'} <= set(dir(clix)))"],
        cwd=work, capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert api.returncode == 0, api.stderr[-2000:]
    assert api.stdout.split() == ["4", "butcher-shop", "True"]
