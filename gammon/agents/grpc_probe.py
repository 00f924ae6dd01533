"""One gRPC call with a deadline, spoken by hand over a socket: what answers at an address.

Ray retries for minutes where no Ray head answers (nothing listening, a server that is not
Ray, a raylet's port instead of the head's), and this package does not depend on ``grpcio``.
So :func:`call` makes one unary gRPC call over HTTP/2 (RFC 9113) in plain text: the
client's preface and SETTINGS, one HEADERS frame and one DATA frame, then it reads the
server's frames until the call's trailers come or the deadline passes. Headers are read with
HPACK (RFC 7541) as far as this needs: the static table, the dynamic table, and literals that
are not Huffman-coded (gRPC's C core writes ``grpc-status`` so); a Huffman-coded header is
skipped. Each call has a connection of its own.
"""

from __future__ import annotations

import socket
import struct
import time
from dataclasses import dataclass, field

_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA, _HEADERS, _RST_STREAM, _SETTINGS, _PING, _GOAWAY, _CONTINUATION = 0, 1, 3, 4, 6, 7, 9
_END_STREAM, _END_HEADERS, _ACK, _PADDED, _PRIORITY = 0x1, 0x4, 0x1, 0x8, 0x20

#: The names of HPACK's static table (RFC 7541, appendix A), by index from 1, and the
#: values of the ``:status`` entries.
_STATIC_NAMES = (
    ":authority", ":method", ":method", ":path", ":path", ":scheme", ":scheme",
    ":status", ":status", ":status", ":status", ":status", ":status", ":status",
    "accept-charset", "accept-encoding", "accept-language", "accept-ranges", "accept",
    "access-control-allow-origin", "age", "allow", "authorization", "cache-control",
    "content-disposition", "content-encoding", "content-language", "content-length",
    "content-location", "content-range", "content-type", "cookie", "date", "etag",
    "expect", "expires", "from", "host", "if-match", "if-modified-since",
    "if-none-match", "if-range", "if-unmodified-since", "last-modified", "link",
    "location", "max-forwards", "proxy-authenticate", "proxy-authorization", "range",
    "referer", "refresh", "retry-after", "server", "set-cookie",
    "strict-transport-security", "transfer-encoding", "user-agent", "vary", "via",
    "www-authenticate",
)
_STATIC_VALUES = {2: "GET", 3: "POST", 4: "/", 5: "/index.html", 6: "http", 7: "https",
                  8: "200", 9: "204", 10: "206", 11: "304", 12: "400", 13: "404", 14: "500",
                  16: "gzip, deflate"}


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


def _integer(prefix: int, data: bytes, at: int, bits: int) -> tuple[int, int]:
    """An HPACK integer whose first byte (``prefix``) keeps ``bits`` low bits; the value
    and where the next field begins."""
    limit = (1 << bits) - 1
    value = prefix & limit
    if value < limit:
        return value, at
    shift = 0
    while True:
        byte = data[at]
        at += 1
        value += (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


def _encode_integer(value: int, bits: int, flags: int = 0) -> bytes:
    limit = (1 << bits) - 1
    if value < limit:
        return bytes([flags | value])
    out = [flags | limit]
    value -= limit
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _string(data: bytes, at: int) -> tuple[str | None, int]:
    """An HPACK string (None where it is Huffman-coded) and where the next field begins."""
    huffman = data[at] & 0x80
    length, at = _integer(data[at], data, at + 1, 7)
    raw = data[at:at + length]
    return (None if huffman else raw.decode("latin-1")), at + length


def _literal(text: str) -> bytes:
    raw = text.encode()
    return _encode_integer(len(raw), 7) + raw


class _Decoder:
    """HPACK's decoding side, as far as :func:`call` needs (see the module text)."""

    def __init__(self) -> None:
        self.table: list[tuple[str | None, str | None]] = []  # newest first

    def entry(self, index: int) -> tuple[str | None, str | None]:
        if 1 <= index <= len(_STATIC_NAMES):
            return _STATIC_NAMES[index - 1], _STATIC_VALUES.get(index)
        index -= len(_STATIC_NAMES) + 1
        return self.table[index] if 0 <= index < len(self.table) else (None, None)

    def decode(self, block: bytes) -> dict[str, str]:
        headers: dict[str, str] = {}
        at = 0
        while at < len(block):
            first = block[at]
            if first & 0x80:  # indexed field
                index, at = _integer(first, block, at + 1, 7)
                name, value = self.entry(index)
            elif first & 0xE0 == 0x20:  # dynamic table size update
                size, at = _integer(first, block, at + 1, 5)
                if size == 0:
                    self.table.clear()
                continue
            else:  # a literal: with incremental indexing (01), or without / never (0000, 0001)
                indexing = first & 0xC0 == 0x40
                index, at = _integer(first, block, at + 1, 6 if indexing else 4)
                if index:
                    name = self.entry(index)[0]
                else:
                    name, at = _string(block, at)
                value, at = _string(block, at)
                if indexing:
                    self.table.insert(0, (name, value))
            if name is not None and value is not None:
                headers[name] = value
        return headers


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(
        ">I", stream) + payload


def call(host: str, port: int, path: str, message: bytes = b"", *,
         metadata: dict[str, str] | None = None, timeout: float = 3.0) -> Answer:
    """The answer to one unary gRPC call of ``path`` (``/package.Service/Method``) with
    the serialized request ``message``, within ``timeout`` seconds in all (connecting
    included)."""
    deadline = time.monotonic() + timeout
    try:
        connection = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError:
        return Answer(error="no connection")
    except ConnectionRefusedError:
        return Answer(error="refused")
    except OSError as error:
        return Answer(error=error.strerror or str(error) or type(error).__name__)
    block = (b"\x83\x86" + b"\x04" + _literal(path)  # POST, http, :path
             + b"\x01" + _literal(f"{host}:{port}")  # :authority
             + b"\x0f\x10" + _literal("application/grpc")  # content-type
             + b"\x00" + _literal("te") + _literal("trailers")
             + b"\x00" + _literal("grpc-timeout") + _literal(f"{max(1, int(timeout))}S"))
    for name, value in (metadata or {}).items():
        block += b"\x10" + _literal(name) + _literal(value)  # never indexed
    request = (_PREFACE + _frame(_SETTINGS, 0, 0)
               + _frame(_HEADERS, _END_HEADERS, 1, block)
               + _frame(_DATA, _END_STREAM, 1,
                        b"\x00" + struct.pack(">I", len(message)) + message))
    answer = Answer()
    decoder = _Decoder()
    data = b""
    pending = b""  # a header block continued in CONTINUATION frames
    buffer = b""

    def read(count: int) -> bytes:
        nonlocal buffer
        while len(buffer) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            connection.settimeout(left)
            chunk = connection.recv(65536)
            if not chunk:
                raise EOFError
            buffer += chunk
        out, buffer = buffer[:count], buffer[count:]
        return out

    with connection:
        try:
            connection.sendall(request)
            first = True
            while True:
                header = read(9)
                if first and header[3] != _SETTINGS:  # a server's first frame, in HTTP/2
                    answer.error = "not HTTP/2"
                    return answer
                first = False
                answer.http2 = True
                length = int.from_bytes(header[:3], "big")
                kind, flags = header[3], header[4]
                stream = int.from_bytes(header[5:9], "big") & 0x7FFFFFFF
                payload = read(length)
                if kind == _SETTINGS and not flags & _ACK:
                    connection.sendall(_frame(_SETTINGS, _ACK, 0))
                elif kind == _PING and not flags & _ACK:
                    connection.sendall(_frame(_PING, _ACK, 0, payload))
                elif kind == _GOAWAY:
                    answer.error = "closed the connection (GOAWAY)"
                    return answer
                elif stream != 1:
                    continue
                elif kind == _RST_STREAM:
                    answer.error = "reset the call (RST_STREAM)"
                    return answer
                elif kind == _DATA:
                    if flags & _PADDED:
                        payload = payload[1:len(payload) - payload[0]]
                    data += payload
                elif kind in (_HEADERS, _CONTINUATION):
                    if kind == _HEADERS:
                        if flags & _PADDED:
                            payload = payload[1:len(payload) - payload[0]]
                        if flags & _PRIORITY:
                            payload = payload[5:]
                    pending += payload
                    if flags & _END_HEADERS:
                        answer.headers.update(decoder.decode(pending))
                        pending = b""
                if stream == 1 and flags & _END_STREAM and kind in (_DATA, _HEADERS):
                    break
        except TimeoutError:
            answer.error = "timeout"
            return answer
        except EOFError:
            answer.error = "closed the connection"
            return answer
        except OSError as error:
            answer.error = f"broke the connection ({error.strerror or error})"
            return answer
        except IndexError:  # a header block cut short: not HTTP/2 as we know it
            answer.error = "not HTTP/2"
            return answer
    answer.http = answer.headers.get(":status")
    status = answer.headers.get("grpc-status")
    answer.status = int(status) if status is not None and status.isdigit() else None
    answer.grpc_message = answer.headers.get("grpc-message", "")
    if len(data) >= 5:
        answer.message = data[5:5 + int.from_bytes(data[1:5], "big")]
    return answer
