"""The HTTP and websocket protocols ``gammon serve`` gives uvicorn: uvicorn's own (h11,
and the websockets library's sans-I/O protocol), except that the answers uvicorn makes
without the application carry :data:`gammon.web.app.SECURITY_HEADERS` too:

- a request h11 cannot parse (400 "Invalid HTTP request received.");
- a request over ``limit_concurrency`` (503), answered here instead of by uvicorn's
  ``service_unavailable``;
- a websocket handshake the websockets library refuses (400: no key, a wrong
  version), one the application closes before accepting it (403: another site's page,
  too many connections), and one it fails to answer (500).

Everything the application answers itself has them from :class:`gammon.web.app.Gate`.
uvicorn chooses httptools over h11 where httptools is installed; these protocols are h11
always, so that its answers are the ones written here.
"""

from __future__ import annotations

from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Response

from gammon.web.app import SECURITY_HEADERS

BUSY = b"the server is busy: try again in a few seconds"


async def busy(scope: Any, receive: Any, send: Any) -> None:
    """The answer to a request over ``limit_concurrency`` (uvicorn's, with the headers)."""
    await send({"type": "http.response.start", "status": 503, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
        *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": BUSY})


class HTTP(H11Protocol):
    """uvicorn's h11 protocol; its own answers with the security headers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn checks the limit and answers 503 without the headers: checked here.
        self.most, self.limit_concurrency = self.limit_concurrency, None
        self.served = self.app

    def handle_events(self) -> None:
        most = self.most
        over = most is not None and (len(self.connections) >= most
                                     or len(self.tasks) >= most)
        self.app = busy if over else self.served
        super().handle_events()

    def send_400_response(self, msg: str) -> None:
        # As uvicorn's, with the headers.
        headers = [(b"content-type", b"text/plain; charset=utf-8"),
                   (b"connection", b"close"), *SECURITY_HEADERS]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                      h11.Data(data=msg.encode("ascii")), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


class WebSockets(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol; every refused handshake with the security headers
    (an accepted one has them from the application)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        send_response = self.conn.send_response

        def with_headers(response: Response) -> None:
            if response.status_code != 101:
                for name, value in SECURITY_HEADERS:
                    if name.decode() not in response.headers:
                        response.headers[name.decode()] = value.decode()
            send_response(response)

        self.conn.send_response = with_headers  # type: ignore[method-assign]


__all__ = ["HTTP", "WebSockets", "busy"]
