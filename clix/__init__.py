"""clix: a Monte Carlo army-building and balance analyzer for clix miniatures games (HorrorClix first).

The installed package holds the rules engine (`clix.engine`), the analyzer and command line
(`clix.analyzer`), the sample roster library (`clix/rosters`) and the report templates (`clix/reports`).
For notebooks, `clix.duel` plays a duel and returns its tables (see `clix.api`):

    >>> import clix
    >>> result = clix.duel("butcher-shop", "firing-line", games=100)
    >>> result.summary["score"]["a"]["estimate"], result.games.shape
"""

from __future__ import annotations

from pathlib import Path as _Path

_HERE = _Path(__file__).resolve().parent
if not (_HERE / "engine").is_dir() and (_HERE.parent / "engine" / "__init__.py").is_file():
    # a source checkout: the repository keeps engine/, analyzer/, rosters/ and reports/ at its top, beside
    # this folder; the wheel puts them inside it (pyproject.toml: package-dir)
    __path__.append(str(_HERE.parent))


from clix.version import __version__  # noqa: E402  (after the search path is set)

__all__ = ["DuelResult", "__version__", "duel", "load_library"]


def __getattr__(name: str) -> object:
    """The API is imported on first use: `import clix.engine` (every worker process does) stays light."""
    if name in ("DuelResult", "duel", "load_library"):
        from clix import api

        return getattr(api, name)
    raise AttributeError(f"module 'clix' has no attribute {name!r}")
