"""`clix.load_library`: the roster library, as the commands load it."""

from __future__ import annotations

from clix.api._common import Source, layers
from clix.engine.horrorclix.roster.loader import Roster


def load_library(rosters: Source = None) -> Roster:
    """The roster library in `rosters` (a folder or file, or several: later ones replace items of the same name;
    default: the library `clix` uses: ./rosters, else $CLIX_ROSTERS, else the sample library), checked as a whole;
    a `clix.ClixError` names its first problem. Its tables are dicts by id: `armies`, `figures`, `maps`,
    `plot_twists`, `victims`."""
    from clix.analyzer.library import load as library

    return library.load_library(layers(rosters), everything=True).roster
