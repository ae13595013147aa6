"""The optional compiled engine: the hot modules built with mypyc (`clix compile`), used only while they
match the sources exactly.

`clix compile` builds the modules of `COMPILED_MODULES` into `BUILD_DIR` with a manifest holding the
fingerprint of their sources and of every engine module they import (`build_sources`), and the interpreter
they were built for. On import, `engine` puts the build's directories first on its packages' search paths if,
and only if, the manifest matches those sources as they are now: editing one of them falls back to the
pure-Python modules until the next `clix compile` (the command line says so on stderr), so the code that runs
is always the code that is read; editing any other engine file leaves the build in use. `CLIX_PURE=1` forces the pure modules.

For those editing the compiled modules: mypyc trusts the type annotations and checks them at run time. A
compiled module must type-check (`clix compile` stops at the first error); an attribute mypy has narrowed
stays narrowed across calls, so one that a call may change is read again through a function
(`rules._chosen_victim`); and a class the compiled code reads overridden in subclasses declares it
`ClassVar` (`effects.PowerHandler`). A record built many times a game (actions, events, decisions) writes
its own `__init__` (`@dataclass(..., init=False)`): mypyc compiles that one, while the `__init__` the
`dataclasses` module generates stays interpreted, about 15 times slower. Bitsets are typed `Any`
(`move_tables.Bits`). The suite runs on both engines in CI.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
BUILD_DIR = ENGINE_DIR.parent / "build" / "compiled"
MANIFEST = "manifest.json"
PACKAGE_PATH = Path("clix", "engine")
"""Where the engine package sits inside a build: the modules are compiled under their installed names."""
RUNTIME_DIR = "runtime"

COMPILED_MODULES = (
    "clix.engine.horrorclix.actions",
    "clix.engine.horrorclix.card_effects",
    "clix.engine.horrorclix.cards",
    "clix.engine.horrorclix.combat",
    "clix.engine.core.state",
    "clix.engine.core.decisions",
    "clix.engine.core.dice",
    "clix.engine.core.driver",
    "clix.engine.core.effects",
    "clix.engine.heroclix.state",
    "clix.engine.horrified.state",  # a subclass of the compiled core State must be compiled too
    "clix.engine.heroclix.players.position",
    "clix.engine.heroclix.players.heuristic",
    "clix.engine.heroclix.movement",
    "clix.engine.heroclix.move_search",
    "clix.engine.heroclix.rules",
    "clix.engine.heroclix.sides",
    "clix.engine.heroclix.teams",
    "clix.engine.heroclix.cards",
    "clix.engine.heroclix.defenses",
    "clix.engine.heroclix.feats",
    "clix.engine.heroclix.damage_powers",
    "clix.engine.heroclix.combat",
    "clix.engine.heroclix.markers",
    "clix.engine.heroclix.battlefield",
    "clix.engine.heroclix.levels",
    "clix.engine.heroclix.terrain",
    "clix.engine.heroclix.modifiers",
    "clix.engine.heroclix.double_base",
    "clix.engine.heroclix.movement_powers",
    "clix.engine.heroclix.free_actions",  # listed for every character at every decision, as are the four below
    "clix.engine.heroclix.targeted",
    "clix.engine.heroclix.power_actions",
    "clix.engine.heroclix.battle_fury",
    "clix.engine.heroclix.shape_change",
    "clix.engine.heroclix.area_attacks",
    "clix.engine.heroclix.telekinesis",
    "clix.engine.heroclix.mind_control",
    "clix.engine.horrorclix.figures",
    "clix.engine.horrorclix.game",
    "clix.engine.core.geometry",
    "clix.engine.horrorclix.legal",
    "clix.engine.horrorclix.monsters",
    "clix.engine.horrorclix.move_tables",
    "clix.engine.horrorclix.movement",
    "clix.engine.horrorclix.options",
    "clix.engine.core.pieces",
    "clix.engine.core.pending",
    "clix.engine.horrorclix.plot_plays",
    "clix.engine.horrorclix.plot_table",
    "clix.engine.horrorclix.plots",
    "clix.engine.horrorclix.rules",
    "clix.engine.core.ruleset",
    "clix.engine.horrorclix.setup",
    "clix.engine.horrorclix.state",
    "clix.engine.core.stepping",
    "clix.engine.horrorclix.subplots",
    "clix.engine.core.players.base",
    "clix.engine.horrorclix.players.heuristic",
    "clix.engine.horrorclix.players.plot_values",
    "clix.engine.horrorclix.players.position",
    "clix.engine.core.players.random_player",
    "clix.engine.core.players.search",
    "clix.engine.horrorclix.players.search",
    "clix.engine.horrorclix.players.lookahead",
    "clix.engine.horrorclix.players.weights",
)
"""The modules a game spends its time in (the rules, the state, the players), HorrorClix's and HeroClix's. The
power handlers are not among them: mypyc cannot compile classes changed by a class decorator (`effects.handles`),
and they run rarely; nor are HeroClix's `maps` (pydantic models) and `players.weights` (read with `vars()`).
A test that replaces a function of a compiled module sees no change in compiled callers, which call it directly
(tests/heroclix_checks.py leaves those out of a compiled run: the pure run checks them)."""

PURE = "pure Python"
COMPILED = "compiled (mypyc)"

status = PURE
"""Which engine this process runs: `COMPILED`, `PURE`, or why a build there is not used."""


def source_fingerprint(engine_dir: Path = ENGINE_DIR, files: list[Path] | None = None) -> str:
    """A hash of the engine's source files (paths and contents), every one of them unless `files` is given:
    any edit of them changes it."""
    digest = hashlib.sha256()
    for path in sorted(files if files is not None else engine_dir.rglob("*.py")):
        digest.update(path.relative_to(engine_dir).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def build_sources(engine_dir: Path = ENGINE_DIR) -> list[Path]:
    """The files a build depends on: the compiled modules and every engine module they import, directly or
    through others, with the packages' `__init__.py` on the way. An edit elsewhere (the scenario harness, a
    power handler no compiled module imports) leaves the build in use."""
    pending = [_module_file(engine_dir, name) for name in COMPILED_MODULES]
    found: set[Path] = set()
    while pending:
        path = pending.pop()
        if path is None or path in found:
            continue
        found.add(path)
        for parent in path.relative_to(engine_dir).parents:
            init = engine_dir / parent / "__init__.py"
            if init.is_file() and init not in found:
                pending.append(init)
        pending.extend(_module_file(engine_dir, name) for name in _engine_imports(path, engine_dir))
    return sorted(found)


def build_fingerprint(engine_dir: Path = ENGINE_DIR) -> str:
    """The hash a build is made for: the sources of `build_sources`."""
    return source_fingerprint(engine_dir, build_sources(engine_dir))


ENGINE_PACKAGE = "clix.engine"


def _engine_imports(path: Path, engine_dir: Path) -> set[str]:
    """The engine modules `path` imports (each `from X import y` counted as X and as X.y, which may be a
    module), anywhere in the file: at its top or inside functions."""
    package = ".".join((ENGINE_PACKAGE, *path.relative_to(engine_dir).parent.parts))
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name == ENGINE_PACKAGE or name.startswith(ENGINE_PACKAGE + ".")}


def _module_file(engine_dir: Path, module: str) -> Path | None:
    """The source file of an engine module (None for a name that is no module, like an imported class)."""
    parts = module.split(".")[len(ENGINE_PACKAGE.split(".")) :]
    for candidate in (engine_dir.joinpath(*parts).with_suffix(".py"), engine_dir.joinpath(*parts, "__init__.py")):
        if parts and candidate.is_file():
            return candidate
    return engine_dir / "__init__.py" if not parts else None


def interpreter_tag() -> str:
    """The interpreter a build is for (compiled modules load only into the same one)."""
    return f"{sys.implementation.cache_tag}-{sys.platform}"


def manifest_for(fingerprint: str, sources: list[str] | None = None) -> dict[str, object]:
    """What a build records: the fingerprint of its sources, the sources themselves (relative to the engine:
    they import only each other among engine modules, so hashing them again tells whether the build is
    current, with no need to trace the imports on every start), the interpreter and the modules compiled."""
    if sources is None:
        sources = [path.relative_to(ENGINE_DIR).as_posix() for path in build_sources()]
    return {
        "fingerprint": fingerprint,
        "sources": sources,
        "interpreter": interpreter_tag(),
        "modules": list(COMPILED_MODULES),
    }


def build_problem(build_dir: Path = BUILD_DIR) -> str | None:
    """Why the build in `build_dir` cannot be used now (None if it can)."""
    try:
        manifest = json.loads((build_dir / MANIFEST).read_text())
        sources = [str(name) for name in manifest["sources"]]
    except (OSError, ValueError, KeyError, TypeError):
        return "no compiled engine (run `clix compile`)"
    try:
        current = manifest_for(source_fingerprint(ENGINE_DIR, [ENGINE_DIR / name for name in sources]), sources)
    except OSError:  # a source the build was made from is gone
        return STALE
    if manifest != current:
        return STALE
    return None


STALE = "the compiled engine is out of date with the sources (run `clix compile` again)"


def stale_warning() -> str | None:
    """A one-line warning when a build exists but this process cannot use it (None otherwise)."""
    if not status.startswith(f"{PURE}: "):
        return None
    return f"clix: warning: {status[len(PURE) + 2 :]}; running the pure-Python engine, about 3x slower"


def activate(package_path: list[str]) -> str:
    """Called by `engine/__init__.py`: put a usable build first on the `engine` package's search path."""
    global status
    if os.environ.get("CLIX_PURE", "") not in ("", "0"):
        status = f"{PURE} (CLIX_PURE is set)"
        return status
    if not (BUILD_DIR / MANIFEST).exists():
        return status
    problem = build_problem()
    if problem is not None:
        status = f"{PURE}: {problem}"
        return status
    _load_runtime()
    package_path.insert(0, str(BUILD_DIR / PACKAGE_PATH))
    status = COMPILED
    return status


def _load_runtime() -> None:
    """Load the compiled modules' shared runtime library under the top-level name they import it by, from the
    build's file (sys.path is left alone: a folder put there could shadow other packages)."""
    for library in sorted((BUILD_DIR / RUNTIME_DIR).glob("*__mypyc*")):
        name = library.name.split(".")[0]
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(name, library)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


def extend(package_path: list[str], package: str) -> None:
    """Called by a subpackage's `__init__.py` (`players`): search the build first when in use."""
    if status == COMPILED:
        package_path.insert(0, str(BUILD_DIR / PACKAGE_PATH / package))


# --- making a build (`clix compile`, and the package build in setup.py, which loads this file by its path) ---------


def from_checkout() -> bool:
    """Whether this engine runs from a clone of the repository (its pyproject.toml beside it: an editable or source
    install), not from an installed wheel."""
    return (ENGINE_DIR.parent / "pyproject.toml").is_file()


def compile_hint() -> str:
    """The command that gets the compiled engine, for the way clix was installed."""
    if from_checkout():
        return 'python -m pip install -e ".[compile]" && clix compile'
    return "python -m pip install mypy && clix compile (with a C compiler: Debian apt install gcc)"


def c_compiler() -> str | None:
    """The C compiler a build would use ($CC's program, else cc or gcc), None when there is none."""
    named = os.environ.get("CC", "").split()
    return shutil.which(named[0]) if named else shutil.which("cc") or shutil.which("gcc")


def module_sources() -> list[str]:
    """The compiled modules' source files, relative to the staging folder (mypyc names modules by path)."""
    return [module.replace(".", "/") + ".py" for module in COMPILED_MODULES]


def stage_sources(stage: Path) -> None:
    """Copy the engine into `stage` as `clix/engine`, under the names it is imported by (a checkout keeps
    it at its top, a wheel inside `clix/`); the package root is left empty so mypy reads only the engine."""
    (stage / "clix").mkdir(parents=True)
    (stage / "clix" / "__init__.py").write_text("")
    shutil.copytree(ENGINE_DIR, stage / PACKAGE_PATH, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (stage / "mypy.ini").write_text(MYPY_CONFIG)


MYPY_CONFIG = """\
[mypy]
# third-party packages without type information (greenlet, and numpy or pydantic where the build does not have
# them) are taken as Any: the compiled code calls them through Python's own calls either way
ignore_missing_imports = True

[mypy-clix.engine.horrorclix.powers.*]
# a ruleset's power handlers take its own state where the core's hooks take any State (pyproject.toml's mypy)
disable_error_code = override
"""
"""The type checker's settings for a build, the same wherever it is made (a checkout's pyproject.toml is not
beside an installed package or a package build)."""


def finish_build(output: Path, fingerprint: str) -> None:
    """Make the compiler's `output` a build: the shared runtime library in its own folder (see `activate`) and
    the manifest that says what it was built from."""
    runtime = output / RUNTIME_DIR
    runtime.mkdir()
    for library in output.glob("*__mypyc*"):
        library.rename(runtime / library.name)
    (output / MANIFEST).write_text(json.dumps(manifest_for(fingerprint), indent=1))
