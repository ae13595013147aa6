"""`clix compile`: build the engine's hot modules with mypyc into `build/compiled/` (see engine/compiled.py).

The build runs in a child process (setuptools and the C compiler print a lot); it is made in a temporary
directory and moved into place only when it is complete, so an interrupted or failed build leaves the last
good one, and a build of sources edited while it ran is refused.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clix.analyzer.common.errors import ClixError
from clix.engine import compiled
from rich.console import Console


def run_compile(console: Console) -> int:
    """Build the compiled engine; print what was built and how long it took."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        raise ClixError(f"mypyc is not installed; {compiled.compile_hint()}") from None
    if compiled.c_compiler() is None:
        raise ClixError("no C compiler found ($CC, cc or gcc); install one (Debian: apt install gcc)")
    fingerprint = compiled.build_fingerprint()
    started = time.perf_counter()
    compiled.BUILD_DIR.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="clix-compile-", dir=compiled.BUILD_DIR.parent) as work:
        output = Path(work) / "compiled"
        compiled.stage_sources(Path(work) / "src")
        sources = compiled.module_sources()
        with console.status(f"compiling {len(compiled.COMPILED_MODULES)} engine modules with mypyc (a few minutes)..."):
            done = subprocess.run(
                # -P: the staged `clix` in the working folder must not hide the installed one
                [
                    sys.executable,
                    "-P",
                    "-m",
                    "clix.analyzer.tools.mypyc_build",
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
        compiled.finish_build(output, fingerprint)
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
