"""Roster data: figures, plot twists, victims, maps and armies, loaded and validated from YAML."""
