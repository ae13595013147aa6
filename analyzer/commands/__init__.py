"""The `clix` commands, one module per group of commands; analyzer/cli.py builds the app from them."""
