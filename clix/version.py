"""The installed clix's version (its own module, so the command line reads it without the API)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def _version() -> str:
    try:
        return version("clix")
    except PackageNotFoundError:
        return "0+unknown"


__version__ = _version()
