"""`python -m clix ...` runs the command line, like the `clix` command."""

from clix.analyzer.cli import main

main()
