"""The package build's one addition to pyproject.toml: a wheel (or `pip install .`) carries the compiled engine when
it can be built here (mypyc, which the build requires, and a C compiler), and the pure-Python engine otherwise,
with one line saying why. An editable install (`pip install -e .`, for working on clix) never compiles: its
sources change, and `clix compile` builds them when wanted. `CLIX_BUILD_PURE=1` skips the compiling.

The build is the one `clix compile` makes (engine/compiled.py: the staging, the manifest; the compiling step in
analyzer/tools/mypyc_build.py), placed in the package as `clix/build/compiled`, where the installed engine looks
for it and uses it while it matches the installed sources, which it always does.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent


def _compiled_module():  # type: ignore[no-untyped-def]
    """engine/compiled.py, loaded by its path: clix is not installed while it is being built."""
    spec = importlib.util.spec_from_file_location("_clix_compiled_for_build", ROOT / "engine" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED = _compiled_module()


def why_pure() -> str | None:
    """Why this build cannot compile the engine (None when it can)."""
    if os.environ.get("CLIX_BUILD_PURE", "") not in ("", "0"):
        return "CLIX_BUILD_PURE is set"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed in the build environment"
    if COMPILED.c_compiler() is None:
        return "no C compiler found ($CC, cc or gcc; Debian: apt install gcc)"
    return None


def say(line: str) -> None:
    """One line to the person installing (pip shows a build's output with -v, and always when it fails)."""
    print(f"clix: {line}", file=sys.stderr, flush=True)


class BuildWithEngine(build_py):
    """build_py, then the compiled engine into the built package (not for an editable install)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        problem = why_pure()
        if problem is not None:
            say(f"installing the pure-Python engine: {problem}; `clix compile` builds the compiled one later")
            return
        target = Path(self.build_lib) / "clix" / "build" / "compiled"
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="clix-build-") as work:
            stage, output = Path(work) / "src", Path(work) / "compiled"
            COMPILED.stage_sources(stage)
            done = subprocess.run(
                [sys.executable, "-P", str(ROOT / "analyzer" / "tools" / "mypyc_build.py"), str(output),
                 str(Path(work) / "temp"), *COMPILED.module_sources()],
                cwd=stage, capture_output=True, text=True,
            )  # fmt: skip
            if done.returncode != 0:
                last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["(no output)"]
                say(f"installing the pure-Python engine: compiling it failed: {last[0]}")
                return
            COMPILED.finish_build(output, COMPILED.build_fingerprint())
            shutil.rmtree(target, ignore_errors=True)  # an earlier build's, left in build/lib by another install
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(output, target)
        say(f"compiled the engine ({len(COMPILED.COMPILED_MODULES)} modules) in {time.perf_counter() - started:.0f} s")


class EngineDistribution(Distribution):
    """A wheel with the compiled engine holds extension modules, so it is tagged for this Python and platform."""

    def has_ext_modules(self) -> bool:
        return why_pure() is None


setup(cmdclass={"build_py": BuildWithEngine}, distclass=EngineDistribution)
