"""One gRPC call with a deadline, over a socket: what answers at an address.

Ray retries for minutes where no Ray head answers (nothing listening, a server that is not
Ray, a raylet's port instead of the head's), and this package does not depend on ``grpcio``.
So :func:`call` makes one unary gRPC call over HTTP/2 in plain text, with ``h2`` (the
sans-I/O HTTP/2 and HPACK library, in the ``ray`` extra) speaking the protocol: the
client's preface and SETTINGS, the call's headers and its one message, then the server's
frames are read until the call's stream ends or the deadline passes. Each call has a
connection of its own.

This module imports ``h2``; :mod:`gammon.agents.parallel` imports it only where ``--ray``
checks an address (and says which extra to install where ``h2`` is missing).
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass, field

from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.events import (
    ConnectionTerminated,
    DataReceived,
    ResponseReceived,
    StreamEnded,
    StreamReset,
    TrailersReceived,
)
from h2.exceptions import ProtocolError
from hpack import HeaderTuple, NeverIndexedHeaderTuple
from hyperframe.frame import SettingsFrame


@dataclass
class Answer:
    """What came back from one call: ``status`` is gRPC's (0 for OK; None where the
    answer had none, as from a server that does not speak gRPC), ``http`` the HTTP status,
    ``message`` the reply's bytes (None where no DATA came), ``error`` what went wrong
    (None where the call was answered): ``"refused"``, ``"no connection"`` (none within the
    time), ``"timeout"`` (no answer within it), ``"not HTTP/2"``, or what the server did
    ("closed the connection", ...); ``http2`` whether the server began as an HTTP/2
    server does (with its SETTINGS)."""

    status: int | None = None
    http2: bool = False
    http: str | None = None
    message: bytes | None = None
    grpc_message: str = ""
    error: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


def call(host: str, port: int, path: str, message: bytes = b"", *,
         metadata: dict[str, str] | None = None, timeout: float = 3.0) -> Answer:
    """The answer to one unary gRPC call of ``path`` (``/package.Service/Method``) with
    the serialized request ``message``, within ``timeout`` seconds in all (connecting
    included). ``metadata`` (the token, say) is sent as headers HPACK never indexes."""
    deadline = time.monotonic() + timeout
    try:
        connection = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError:
        return Answer(error="no connection")
    except ConnectionRefusedError:
        return Answer(error="refused")
    except OSError as error:
        return Answer(error=error.strerror or str(error) or type(error).__name__)
    h2 = H2Connection(config=H2Configuration(client_side=True, header_encoding="latin-1"))
    h2.initiate_connection()
    stream = h2.get_next_available_stream_id()
    headers = [HeaderTuple(name, value) for name, value in (
        (":method", "POST"), (":scheme", "http"), (":path", path),
        (":authority", f"{host}:{port}"), ("content-type", "application/grpc"),
        ("te", "trailers"), ("grpc-timeout", f"{max(1, int(timeout))}S"))]
    headers += [NeverIndexedHeaderTuple(name, value)
                for name, value in (metadata or {}).items()]
    h2.send_headers(stream, headers)
    # A gRPC message: not compressed (0), its length in four bytes, its bytes.
    h2.send_data(stream, b"\x00" + len(message).to_bytes(4, "big") + message,
                 end_stream=True)
    answer = Answer()
    data = first = b""
    with connection:
        try:
            connection.sendall(h2.data_to_send())
            ended = False
            while not ended:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                connection.settimeout(left)
                chunk = connection.recv(65536)
                if not chunk:
                    answer.error = "closed the connection"
                    return answer
                if not answer.http2:
                    # A server's first frame, in HTTP/2, is its SETTINGS: said by the type in
                    # its header, before h2 waits for a body an HTTP/1 answer never completes.
                    first += chunk
                    if len(first) < 9:
                        continue
                    if first[3] != SettingsFrame.type:
                        answer.error = "not HTTP/2"
                        return answer
                    answer.http2 = True
                    chunk = first  # all that came so far, for h2
                for event in h2.receive_data(chunk):
                    if isinstance(event, ConnectionTerminated):
                        answer.error = "closed the connection (GOAWAY)"
                        return answer
                    if getattr(event, "stream_id", stream) != stream:
                        continue
                    if isinstance(event, StreamReset):
                        answer.error = "reset the call (RST_STREAM)"
                        return answer
                    if isinstance(event, ResponseReceived | TrailersReceived):
                        answer.headers.update(
                            (str(name), str(value)) for name, value in event.headers or ())
                    elif isinstance(event, DataReceived):
                        data += event.data or b""
                        h2.acknowledge_received_data(event.flow_controlled_length or 0,
                                                     stream)
                    elif isinstance(event, StreamEnded):
                        ended = True
                connection.sendall(h2.data_to_send())  # SETTINGS and PING acks, windows
        except TimeoutError:
            answer.error = "timeout"
            return answer
        except ProtocolError:  # what the server sent is not HTTP/2 as h2 knows it
            answer.error = "not HTTP/2"
            return answer
        except OSError as error:
            answer.error = f"broke the connection ({error.strerror or error})"
            return answer
    answer.http = answer.headers.get(":status")
    status = answer.headers.get("grpc-status")
    answer.status = int(status) if status is not None and status.isdigit() else None
    answer.grpc_message = answer.headers.get("grpc-message", "")
    if len(data) >= 5:
        answer.message = data[5:5 + int.from_bytes(data[1:5], "big")]
    return answer
