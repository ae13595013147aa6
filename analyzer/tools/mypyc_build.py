"""The compiling step of the compiled engine, run as a child process with the staged engine as its working folder:
mypyc generates C for the modules, setuptools compiles it. It imports nothing of clix, so both `clix compile`
(analyzer/tools/compile.py) and the package build (setup.py, where clix is not installed yet) run it.

    python mypyc_build.py OUTPUT TEMP clix/engine/core/state.py ...
"""

from __future__ import annotations

import sys


def build(output: str, temp: str, sources: list[str]) -> None:
    """Compile `sources` (paths under the working folder, which name the modules) into `output`."""
    from mypyc.build import mypycify
    from setuptools import setup

    # the modules compiled must type-check; those only imported (the roster's pydantic models) are not compiled.
    # multi_file: a C file per module, so the C compiler runs on both cores and never on one 54-module file:
    # the build took 81 s instead of 150, and the engine plays the same games at the same speed (docs/performance.md)
    extensions = mypycify(
        ["--follow-imports=silent", *sources], opt_level="3", debug_level="0", target_dir=temp, multi_file=True
    )
    setup(
        name="clix-compiled-engine",
        ext_modules=extensions,
        script_args=["build_ext", "--build-lib", output, "--build-temp", temp, "--parallel", "2"],
    )


if __name__ == "__main__":
    build(sys.argv[1], sys.argv[2], sys.argv[3:])
