"""Reading a ruleset's human-edited files: YAML with each value's line (`yaml_lines`) and one-line problems naming
the file, line and field (`problems`). Nothing here knows any game's data."""
