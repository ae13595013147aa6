"""`python -m clix.analyzer.cli ...`: the command line, as the `clix` program."""

from clix.analyzer.cli import main

main()
