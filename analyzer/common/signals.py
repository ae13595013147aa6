"""Signals held back around work that must not be split: two renames, a store's transaction."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold back SIGINT and SIGTERM so two renames (or a store's transaction) are not split by them; afterwards
    a caught signal goes to the handler that was in place (a pool's stop request), or raises KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[int, Any] = {}

    def hold(signum: int, frame: object) -> None:
        caught.append(signum)

    for held in (signal.SIGINT, signal.SIGTERM):
        previous[held] = signal.signal(held, hold)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if caught:
            handler = previous[caught[0]]
            if not callable(handler):
                raise KeyboardInterrupt
            handler(caught[0], None)
