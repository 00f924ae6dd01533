"""What every request of the web app is read through: its address, whether it came over
HTTPS and from this site's pages, its JSON body within a size limit, and the refusal that
says why it was not served (its HTTP status with it)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import HTTPConnection, Request

from gammon.core.errors import GammonError

__all__ = ["Refused", "address", "read_json", "same_origin", "secure"]


class Refused(GammonError):
    """A request refused: the message says why, ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def address(connection: HTTPConnection) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For here)."""
    return connection.client.host if connection.client else "unknown"


def secure(connection: HTTPConnection) -> bool:
    """Whether the connection came over HTTPS (uvicorn puts a trusted proxy's
    X-Forwarded-Proto here): its login cookie is then the ``__Host-`` one."""
    return connection.url.scheme in ("https", "wss")


def same_origin(connection: HTTPConnection) -> bool:
    """Whether a browser's request comes from a page of this site (or from no page): the
    ``Origin`` is this request's scheme, host and port. The scheme is the one the
    browser used: behind a proxy that ends TLS, the ``X-Forwarded-Proto`` it sets, which
    uvicorn reads from the proxies it trusts (``gammon serve --proxy``; docs/deploy.md), so
    a page of ``http://site`` is another site's to ``https://site``."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    scheme, sep, where = origin.partition("://")
    if not sep:
        return False  # "null": a sandboxed frame, a file, a redirect across sites
    ours = {"ws": "http", "wss": "https"}.get(connection.url.scheme, connection.url.scheme)
    return _site(scheme, where) == _site(ours, connection.headers.get("host", ""))


def _site(scheme: str, host: str) -> tuple[str, str]:
    """A scheme and host (with its port unless it is the scheme's own), as compared."""
    scheme, host = scheme.lower(), host.lower()
    default = {"http": ":80", "https": ":443"}.get(scheme)
    if default is not None:
        host = host.removesuffix(default)
    return scheme, host


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """A request's body: a JSON object of at most ``limit`` bytes, sent as JSON."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/json":
        raise Refused("send JSON (Content-Type: application/json)", 415)
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise Refused(f"the request is too large: at most {limit} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(f"the request is too large: at most {limit} bytes", 413)
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise Refused("send a JSON object") from None
    if not isinstance(data, dict):
        raise Refused("send a JSON object")
    return data
