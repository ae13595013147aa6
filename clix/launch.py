"""The `clix` command's entry point: `clix --version` (`-V`) answers from the package metadata alone, in a few
hundredths of a second; everything else loads the command line (`clix.analyzer.cli`)."""

from __future__ import annotations

import sys


def main() -> None:
    """Run clix with the process's arguments."""
    if sys.argv[1:] in (["--version"], ["-V"]):
        from clix.engine import RULESET_VERSION
        from clix.version import __version__

        sys.stdout.write(f"clix {__version__} (ruleset {RULESET_VERSION})\n")
        return
    from clix.analyzer.cli import main as command_line

    command_line()
