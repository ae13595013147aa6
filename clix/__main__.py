"""`python -m clix ...` runs the command line, like the `clix` command."""

from clix.launch import main

main()
