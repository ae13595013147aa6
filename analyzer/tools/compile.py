"""`clix compile`: build the engine's hot modules with mypyc into `build/compiled/` (see engine/compiled.py).

The build runs in a child process (setuptools and the C compiler print a lot); it is made in a temporary
directory and moved into place only when it is complete, so an interrupted or failed build leaves the last
good one, and a build of sources edited while it ran is refused.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clix.analyzer.common.errors import ClixError
from clix.engine import compiled
from rich.console import Console


def module_sources() -> list[str]:
    """The compiled modules' source files, relative to the staging folder (mypyc names modules by path)."""
    return [module.replace(".", "/") + ".py" for module in compiled.COMPILED_MODULES]


def stage_sources(stage: Path) -> None:
    """Copy the engine into `stage` as `clix/engine`, under the names it is imported by (a checkout keeps
    it at its top, a wheel inside `clix/`); the package root is left empty so mypy reads only the engine."""
    (stage / "clix").mkdir(parents=True)
    (stage / "clix" / "__init__.py").write_text("")
    shutil.copytree(compiled.ENGINE_DIR, stage / compiled.PACKAGE_PATH, ignore=shutil.ignore_patterns("__pycache__"))


def run_compile(console: Console) -> int:
    """Build the compiled engine; print what was built and how long it took."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise ClixError('mypyc is not installed; install it with: python -m pip install -e ".[compile]"') from None
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        raise ClixError("no C compiler found (cc or gcc); install one (Debian: apt install gcc)")
    fingerprint = compiled.build_fingerprint()
    started = time.perf_counter()
    compiled.BUILD_DIR.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="clix-compile-", dir=compiled.BUILD_DIR.parent) as work:
        output = Path(work) / "compiled"
        stage_sources(Path(work) / "src")
        sources = module_sources()
        with console.status(f"compiling {len(compiled.COMPILED_MODULES)} engine modules with mypyc (a few minutes)..."):
            done = subprocess.run(
                # -P: the staged `clix` in the working folder must not hide the installed one
                [
                    sys.executable,
                    "-P",
                    "-m",
                    "clix.analyzer.tools.compile",
                    str(output),
                    str(Path(work) / "temp"),
                    *sources,
                ],
                cwd=Path(work) / "src",
                capture_output=True,
                text=True,
            )
        if done.returncode != 0:
            log = Path(work).parent / "compile.log"
            log.write_text(done.stdout + done.stderr)
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or ["(no output)"]
            raise ClixError(f"compiling the engine failed: {last[0]} (full log: {log})")
        if compiled.build_fingerprint() != fingerprint:
            raise ClixError("the engine sources changed while compiling; run `clix compile` again")
        runtime = output / compiled.RUNTIME_DIR
        runtime.mkdir()
        for library in output.glob("*__mypyc*"):  # see engine/compiled.py: `activate`
            library.rename(runtime / library.name)
        (output / compiled.MANIFEST).write_text(json.dumps(compiled.manifest_for(fingerprint), indent=1))
        old = Path(work) / "old"
        if compiled.BUILD_DIR.exists():
            compiled.BUILD_DIR.rename(old)
        output.rename(compiled.BUILD_DIR)
    seconds = time.perf_counter() - started
    console.print(
        f"compiled {len(compiled.COMPILED_MODULES)} engine modules into {compiled.BUILD_DIR} in {seconds:.0f} s; "
        "clix uses them until an engine source changes (CLIX_PURE=1 to run pure Python)",
        markup=False,
    )
    return 0


def _build(output: str, temp: str, sources: list[str]) -> None:
    """The child process: mypyc generates C for the modules, setuptools compiles it into `output`."""
    from mypyc.build import mypycify
    from setuptools import setup

    # the modules compiled must type-check; those only imported (the roster's pydantic models) are not compiled
    extensions = mypycify(["--follow-imports=silent", *sources], opt_level="3", debug_level="0", target_dir=temp)
    setup(
        name="clix-compiled-engine",
        ext_modules=extensions,
        script_args=["build_ext", "--build-lib", output, "--build-temp", temp, "--parallel", "2"],
    )


if __name__ == "__main__":
    _build(sys.argv[1], sys.argv[2], sys.argv[3:])
