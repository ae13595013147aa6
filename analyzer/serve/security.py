"""The guards of `clix serve` (issue 41, part 5): the Host header must name the bound host (no DNS rebinding), a
request that changes something must come from the page itself (Origin, else Referer, of the same host and port: no
cross-site posts), and no file path from the browser may leave the folder it belongs in (no path traversal)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from clix.analyzer.common.errors import ClixError

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]

LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
"""The names of this machine a browser may use whatever host the server is bound to."""
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A file name the browser may give (its stem: letters, digits, '-' and '_', at most 64; no dot, no slash)."""


def split_host(value: str) -> tuple[str, int | None]:
    """A Host header's name and port ("[::1]:8000" -> ("::1", 8000)); port None when absent or not a number."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port_text = rest.removeprefix(":")
    else:
        name, _, port_text = value.partition(":")
    return name, int(port_text) if port_text.isdigit() else None


class Guard:
    """ASGI middleware: a request whose Host is not the bound host (or this machine's name) gets 400, a request
    that is not a GET whose Origin (else Referer) is missing or names another site gets 403; both before any
    route runs, so nothing is read or written for them."""

    def __init__(self, app: ASGIApp, host: str, port: int | None) -> None:
        self.app = app
        self.hosts = {host.lower().strip("[]"), *LOCAL_NAMES}
        self.port = port

    def _host_ok(self, header: str) -> bool:
        name, port = split_host(header)
        return name in self.hosts and (self.port is None or port == self.port)

    def _origin_ok(self, origin: str, host: str) -> bool:
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()

    async def __call__(
        self, scope: Scope, receive: Callable[[], Awaitable[Any]], send: Callable[[Any], Awaitable[None]]
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        host = headers.get("host", "")
        if not self._host_ok(host):
            await _refuse(
                send, 400, f"clix serve: Host {host!r} refused; open the page at the address clix serve printed"
            )
            return
        if scope["method"] not in SAFE_METHODS:
            origin = headers.get("origin") or headers.get("referer") or ""
            if not self._origin_ok(origin, host):
                await _refuse(send, 403, "clix serve: a change must come from the clix page itself (Origin refused)")
                return
        await self.app(scope, receive, send)


async def _refuse(send: Callable[[Any], Awaitable[None]], status: int, message: str) -> None:
    body = message.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def file_name(text: str, field: str) -> str:
    """A file name from the browser, checked: a plain stem (FILE_NAME), no folder, no dot ('../' and absolute
    paths are refused); a ClixError naming the field otherwise."""
    stem = text.strip().removesuffix(".yaml")
    if not FILE_NAME.fullmatch(stem):
        raise ClixError(
            f"{field}: {text!r} is not a plain file name; use letters, digits, '-' and '_' (no folder, no '..')"
        )
    return stem


def inside(folder: Path, relative: str, field: str) -> Path:
    """`relative` (a path from the browser) within `folder`, resolved; a ClixError when it is absolute or leads out."""
    if not relative or relative.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", relative):
        raise ClixError(f"{field}: {relative!r} is not a path inside {folder}; absolute paths are refused")
    base = folder.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base):
        raise ClixError(f"{field}: {relative!r} leads out of {folder}; paths with '..' are refused")
    return target
