"""The Python API, for notebooks and scripts: the analyses of the command line, returning pandas tables.

    >>> import clix
    >>> result = clix.duel("butcher-shop", "firing-line", games=200)
    >>> result                  # the headline: who is favoured, by how much
    >>> result.games.head()     # one row per game, as games.csv
    >>> result.plot()           # the score with its 95% intervals
    >>> result.report("duel/")  # the HTML report, as clix duel --out duel/

Each analysis of the command line has its function here, with the command's options as parameters and the same
defaults (`jobs=0`: every core): `duel`, `melee`, `ladder`, `meta`, `value`, `build`, `horrified` (co-operative
Horrified), and `results` (the result store's runs). Each returns a result with its tables (pandas DataFrames), a
one-line `headline`, `table()`, `plot()` (a matplotlib Figure) and `report(path, pdf=False)`. Armies are ids in the roster library, paths of army files or
`Army` objects (`Army("Mine", ["figure-id", ...])`). Nothing is printed; mistakes raise `ClixError`, whose message
names the parameter. docs/api.md walks through all of it.
"""

from __future__ import annotations

from clix.analyzer.common.errors import ClixError
from clix.api._army import Army
from clix.api._build import BuildResult, build
from clix.api._duel import DuelResult, duel
from clix.api._horrified import HorrifiedResult, horrified
from clix.api._ladder import LadderResult, ladder
from clix.api._library import load_library
from clix.api._melee import MeleeResult, melee
from clix.api._meta import MetaResult, meta
from clix.api._results import Results, results
from clix.api._value import ValueResult, value

__all__ = [
    "Army",
    "BuildResult",
    "ClixError",
    "DuelResult",
    "HorrifiedResult",
    "LadderResult",
    "MeleeResult",
    "MetaResult",
    "Results",
    "ValueResult",
    "build",
    "duel",
    "horrified",
    "ladder",
    "load_library",
    "melee",
    "meta",
    "results",
    "value",
]
