"""`clix`: the command-line front door. The commands live in analyzer/cli/, one module per group;
this module builds the app from them and runs it.

Heavy imports (matplotlib, pandas) stay inside the commands that need them, so `clix --help`
starts fast. Every user mistake ends in a one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

INTERRUPTED = 130
"""The exit code of a run stopped by Ctrl-C or SIGTERM."""


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops a run as Ctrl-C does: finished games kept, workers ended


def _as_program() -> bool:
    """Whether this module runs as the `clix` program (its script, or `python -m clix.analyzer.cli`), not
    imported by other code (tests, a worker process): only then does it take SIGTERM over while it loads."""
    script = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    here = os.path.dirname(os.path.abspath(__file__))  # python -m clix.analyzer.cli runs this package's __main__
    return os.path.basename(script) == "clix" or (bool(script) and os.path.dirname(os.path.abspath(script)) == here)


if _as_program() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
    signal.signal(signal.SIGTERM, _terminate)  # from the first moment: a SIGTERM while clix loads exits 130 too
try:
    import typer
    from clix.analyzer.cli import analyses, horrified, melee, meta, play, rosters, tools
    from clix.analyzer.cli.common import console, stderr_console
    from clix.analyzer.common.errors import ClixError
    from clix.analyzer.report.folder import Interrupted
    from typer.core import TyperOption
except KeyboardInterrupt:  # Ctrl-C (or SIGTERM) while clix loads: no traceback
    if not _as_program():
        raise
    sys.stderr.write("clix: interrupted\n")
    raise SystemExit(INTERRUPTED) from None


def _flags_without_a_type(option: TyperOption, ctx: Any) -> str | None:
    """The type column of an option's help line, left empty for a flag: typer 0.29 shows `<bool>` for every flag
    (--help included), which reads as if the flag took a value."""
    return None if option.is_flag else _option_type(option, ctx)


_option_type = TyperOption.display_type_rich
TyperOption.display_type_rich = _flags_without_a_type  # type: ignore[method-assign,assignment]

HELP = {"help_option_names": ["-h", "--help"]}
"""`-h` as well as `--help`, on every command (click passes it down to each subcommand's context)."""

app = typer.Typer(
    help="clix: Monte Carlo army-building and balance analyzer for HorrorClix.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings=HELP,
)
roster_app = typer.Typer(
    help="Check and inspect roster files (figures, plot twists, victims, maps, armies).", no_args_is_help=True
)
map_app = typer.Typer(help="Inspect maps.", no_args_is_help=True)
scenario_app = typer.Typer(
    help="Run rules scenarios: a board, forced dice, steps and the expected outcome.", no_args_is_help=True
)
results_app = typer.Typer(
    help="The runs kept in the result store (clix-out/clix.duckdb by default): list, show, export.",
    no_args_is_help=True,
)
app.add_typer(roster_app, name="roster")
app.add_typer(map_app, name="map")
app.add_typer(scenario_app, name="scenario")
app.add_typer(results_app, name="results")


def _show_version(value: bool) -> None:
    if value:
        from clix.engine import RULESET_VERSION

        from clix.version import __version__

        console.print(f"clix {__version__} (ruleset {RULESET_VERSION})", markup=False)
        raise typer.Exit(0)


@app.callback()
def _options(
    context: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            help="Print the clix version and the ruleset it plays, and exit.",
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            metavar="FILE",
            help="Read option defaults from this TOML file too, over ./clix.toml and the user's "
            "~/.config/clix/clix.toml (also $CLIX_CONFIG; docs/cli.md). Options given on the command line win.",
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="Print nothing but errors, warnings and what --json asks for."),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Also say on stderr which engine plays and which configuration files set what."
        ),
    ] = False,
) -> None:
    """clix: Monte Carlo army-building and balance analyzer for HorrorClix."""
    from clix.analyzer.cli.config import config_files, load_defaults
    from clix.engine import compiled

    console.quiet = quiet
    if quiet and verbose:
        raise ClixError("--quiet and --verbose ask for opposite things; give one of them")
    defaults = load_defaults(context.command, config_files(config))
    context.default_map = defaults.default_map
    if verbose:
        for line in (f"engine: {compiled.status}", *(f"config: {read}" for read in defaults.read)):
            stderr_console().print(f"clix: {line}", markup=False)
    warning = compiled.stale_warning()
    if warning is not None and context.invoked_subcommand not in ("compile", "roster", "schema", "map"):
        stderr_console().print(warning, markup=False)


# Registered in this order, the order `clix --help` lists them in.
COMMANDS: tuple[tuple[str, Callable[..., None]], ...] = (
    ("duel", play.duel),
    ("melee", melee.melee),
    ("horrified", horrified.horrified),
    ("ladder", play.ladder),
    ("value", analyses.value),
    ("build", analyses.build),
    ("meta", meta.meta),
    ("bench", tools.bench),
    ("schema", rosters.schema),
    ("compile", tools.compile_engine),
    ("selfcheck", tools.selfcheck),
    ("replay", play.replay),
    ("serve", tools.serve),
)
GROUP_COMMANDS: tuple[tuple[typer.Typer, str, Callable[..., None]], ...] = (
    (roster_app, "check", rosters.roster_check),
    (roster_app, "list", rosters.roster_list),
    (roster_app, "show", rosters.roster_show),
    (roster_app, "powers", rosters.roster_powers),
    (map_app, "show", rosters.map_show),
    (scenario_app, "run", rosters.scenario_run),
    (results_app, "list", tools.results_list),
    (results_app, "show", tools.results_show),
    (results_app, "export", tools.results_export),
)


class _Stopped(Exception):
    """A Ctrl-C or SIGTERM that ended a command, carried past typer (which would turn it into a silent exit 130)."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


def _interruptible(command: Callable[..., None]) -> Callable[..., None]:
    """The command, with a Ctrl-C or SIGTERM that ends it carried to `main` (which prints one line, exit 130)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except Interrupted as exc:  # stopped before anything could be reported
            raise _Stopped(f"clix: {exc}") from None
        except KeyboardInterrupt:
            raise _Stopped("clix: interrupted") from None

    return run


for name, command in COMMANDS:
    app.command(name)(_interruptible(command))
for group, name, command in GROUP_COMMANDS:
    group.command(name)(_interruptible(command))


def _interrupt_in_a_callback(unraisable: Any, default: Any = sys.__unraisablehook__) -> None:
    """A Ctrl-C that lands in a callback Python cannot raise from (a weak reference's, a finalizer's) would
    print a traceback and be lost: it is delivered again a moment later, from another thread, so that it lands
    in the code the run is in rather than in this hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        again = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
        again.daemon = True
        again.start()
        return
    default(unraisable)  # bound at definition: at exit, this module's globals may already be gone


def _quiet_pool_shutdown(args: Any, default: Any = threading.excepthook) -> None:
    """loky's executor thread can trip over a work item the interrupted run has just cancelled (a KeyError in
    `add_call_item_to_queue`, a race in loky itself); the run has already stopped and reports its games, so
    that thread's end is not printed as a traceback. Every other thread's exception is."""
    if type(args.thread).__name__ == "_ExecutorManagerThread" and isinstance(args.exc_value, KeyError):
        return
    default(args)


def _short_helps(*apps: typer.Typer) -> None:
    """Command lists show each command's first sentence, on one line (docstrings wrap at 120 columns)."""
    for group in apps:
        for command in group.registered_commands:
            if command.short_help is None and command.callback is not None and command.callback.__doc__:
                first = " ".join(command.callback.__doc__.split("\n\n")[0].split())
                command.short_help = first.split(". ")[0].rstrip(".") + "."


_short_helps(app, roster_app, map_app, scenario_app, results_app)


def main() -> None:
    """Entry point of the `clix` script: run the app, turning user mistakes into one-line errors.

    Exit codes: 0 done, 1 a finding (games failed, selfcheck problems, a replay that differs), 2 a mistake
    the user can fix (one line on stderr), 130 interrupted (Ctrl-C or SIGTERM)."""
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminate)
    sys.unraisablehook = _interrupt_in_a_callback
    threading.excepthook = _quiet_pool_shutdown
    console.quiet = False  # until the root's --quiet says otherwise (main may run again in one process: tests)
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # a usage error (bad option, missing argument): one line too
        if type(exc).__name__ == "NoArgsIsHelpError":  # `clix` or `clix roster` alone: the help
            exc.show()  # type: ignore[attr-defined]
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        context = getattr(exc, "ctx", None)
        where = f" (see `{context.command_path} --help`)" if context is not None else ""
        message = " ".join(getattr(exc, "format_message", exc.__str__)().split())
        stderr_console().print(f"clix: error: {message}{where}", markup=False)
        sys.exit(getattr(exc, "exit_code", 2))
    except _Stopped as exc:
        stderr_console().print(exc.line, markup=False)
        sys.exit(INTERRUPTED)
    except (typer.Abort, KeyboardInterrupt):
        stderr_console().print("clix: interrupted", markup=False)
        sys.exit(INTERRUPTED)
    except ClixError as exc:
        stderr_console().print(f"clix: error: {exc}", markup=False)
        sys.exit(2)
    except OSError as exc:  # a file the user named cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        stderr_console().print(f"clix: error: {where}{exc.strerror or exc}", markup=False)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)
