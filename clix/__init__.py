"""clix: a Monte Carlo army-building and balance analyzer for clix miniatures games (HorrorClix first).

The installed package holds the rules engine (`clix.engine`), the analyzer and command line
(`clix.analyzer`), the sample roster library (`clix/rosters`) and the report templates (`clix/reports`).
In a notebook, each analysis of the command line is a function returning tables (`clix.api`; docs/api.md):

    >>> import clix
    >>> result = clix.duel("butcher-shop", "firing-line", games=100, jobs=1)
    >>> result.score            # A's score (wins + half the draws), low, high
    >>> result.games.shape      # one row per game
    >>> result.plot()           # a matplotlib Figure

`clix.duel`, `clix.melee`, `clix.ladder`, `clix.meta`, `clix.value`, `clix.build`, `clix.results`, `clix.load_library`,
`clix.Army` (an army from plain names) and `clix.ClixError` (every mistake) are loaded on first use: `import clix`
itself (every worker process does) loads neither pandas nor the analyzer.
"""

from __future__ import annotations

from pathlib import Path as _Path

_HERE = _Path(__file__).resolve().parent
if not (_HERE / "engine").is_dir() and (_HERE.parent / "engine" / "__init__.py").is_file():
    # a source checkout: the repository keeps engine/, analyzer/, rosters/ and reports/ at its top, beside
    # this folder; the wheel puts them inside it (pyproject.toml: package-dir)
    __path__.append(str(_HERE.parent))


from clix.version import __version__  # noqa: E402  (after the search path is set)

API = (
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
    "meta",
    "melee",
    "results",
    "value",
)
"""The names of the Python API (clix/api), resolved on first use."""

__all__ = [*API, "__version__"]


def __getattr__(name: str) -> object:
    """The API is imported on first use: `import clix.engine` (every worker process does) stays light."""
    if name == "ClixError":  # the error alone needs no pandas
        from clix.analyzer.common.errors import ClixError

        return ClixError
    if name in API:
        from clix import api

        return getattr(api, name)
    raise AttributeError(f"module 'clix' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The API's names with the module's own, for tab completion (`dir(clix)`)."""
    return sorted({*globals(), *API})
