"""A small RFC 6455 WebSocket client on ``socket`` and ``ssl`` (the standard library has none).

Enough for the room's realtime protocol: the opening handshake (with ``Sec-WebSocket-Accept``
checked), masked client frames, text and binary messages (fragmented ones reassembled), answers
to pings, and the closing handshake. No extensions (no compression), no subprotocols.
"""

from __future__ import annotations

import base64
import hashlib
import os
import socket
import ssl
import struct
import urllib.parse
from dataclasses import dataclass
from typing import Mapping, Optional, Union

_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

OP_CONTINUATION = 0x0
OP_TEXT = 0x1
OP_BINARY = 0x2
OP_CLOSE = 0x8
OP_PING = 0x9
OP_PONG = 0xA

#: Guards against a peer announcing an absurd length; the room's audio frames are far smaller.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024


class WebSocketError(Exception):
    """The handshake failed or the peer broke the protocol."""


class ConnectionClosed(WebSocketError):
    """The connection is closed; ``code`` and ``reason`` are the peer's close frame (1006 when the
    connection dropped without one)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"WebSocket closed ({code}{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


class HandshakeError(WebSocketError):
    """The server refused the upgrade; ``status`` and ``body`` are its HTTP answer."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"WebSocket upgrade refused with HTTP {status}")
        self.status = status
        self.body = body


@dataclass
class Message:
    """A complete data message: ``data`` is ``str`` for text, ``bytes`` for binary."""

    data: Union[str, bytes]

    @property
    def is_text(self) -> bool:
        return isinstance(self.data, str)


class WebSocket:
    """A connected client. Not thread-safe: use it from one thread (or guard it)."""

    def __init__(self, sock: socket.socket, buffered: bytes = b"") -> None:
        self._sock = sock
        self._buffer = bytearray(buffered)
        self.close_code: Optional[int] = None
        self.close_reason = ""
        self._close_sent = False

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        timeout: float = 30.0,
        headers: Optional[Mapping[str, str]] = None,
        ssl_context: Optional[ssl.SSLContext] = None,
    ) -> "WebSocket":
        """Opens ``ws://`` or ``wss://`` (``http(s)://`` is accepted as the same)."""
        parts = urllib.parse.urlsplit(url)
        secure = parts.scheme in ("wss", "https")
        if parts.scheme not in ("ws", "wss", "http", "https") or not parts.hostname:
            raise ValueError(f"Not a WebSocket URL: {url}")
        port = parts.port or (443 if secure else 80)
        sock = socket.create_connection((parts.hostname, port), timeout=timeout)
        try:
            if secure:
                context = ssl_context or ssl.create_default_context()
                sock = context.wrap_socket(sock, server_hostname=parts.hostname)
            key = base64.b64encode(os.urandom(16)).decode("ascii")
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            default_port = port == (443 if secure else 80)
            host = parts.hostname if default_port else f"{parts.hostname}:{port}"
            lines = [
                f"GET {target} HTTP/1.1",
                f"Host: {host}",
                "Upgrade: websocket",
                "Connection: Upgrade",
                f"Sec-WebSocket-Key: {key}",
                "Sec-WebSocket-Version: 13",
                *(f"{name}: {value}" for name, value in (headers or {}).items()),
            ]
            sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            head, rest = _read_head(sock)
            status, response_headers = _parse_head(head)
            if status != 101:
                raise HandshakeError(status, rest)
            expected = base64.b64encode(hashlib.sha1((key + _GUID).encode("ascii")).digest()).decode("ascii")
            if response_headers.get("sec-websocket-accept") != expected:
                raise WebSocketError("The server's Sec-WebSocket-Accept does not match the key.")
            return cls(sock, rest)
        except BaseException:
            sock.close()
            raise

    # --- sending -------------------------------------------------------------------------------

    def send_text(self, text: str) -> None:
        self._send_frame(OP_TEXT, text.encode("utf-8"))

    def send_binary(self, data: bytes) -> None:
        self._send_frame(OP_BINARY, bytes(data))

    def ping(self, data: bytes = b"") -> None:
        self._send_frame(OP_PING, data)

    def close(self, code: int = 1000, reason: str = "", *, timeout: float = 5.0) -> None:
        """Sends a close frame, waits (up to ``timeout``) for the peer's, and closes the socket."""
        if self.close_code is not None:
            self._sock.close()
            return
        try:
            if not self._close_sent:
                self._send_close(code, reason)
            self._sock.settimeout(timeout)
            while self.close_code is None:
                self._read_frame()
        except (OSError, WebSocketError):
            pass
        finally:
            self._sock.close()

    def _send_close(self, code: int, reason: str) -> None:
        self._close_sent = True
        self._send_frame(OP_CLOSE, struct.pack("!H", code) + reason.encode("utf-8")[:123])

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        if self._close_sent and opcode != OP_CLOSE:
            raise ConnectionClosed(self.close_code or 1006, self.close_reason)
        header = bytearray([0x80 | opcode])
        length = len(payload)
        # Client frames are always masked (RFC 6455 5.3).
        if length < 126:
            header.append(0x80 | length)
        elif length < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack("!H", length)
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", length)
        mask = os.urandom(4)
        header += mask
        self._sock.sendall(bytes(header) + _mask(payload, mask))

    # --- receiving -----------------------------------------------------------------------------

    def recv(self, timeout: Optional[float] = None) -> Message:
        """The next data message. Pings are answered on the way; a close frame (or a dropped
        connection) raises :class:`ConnectionClosed`; ``timeout`` raises ``TimeoutError``."""
        self._sock.settimeout(timeout)
        fragments: list[bytes] = []
        message_opcode: Optional[int] = None
        while True:
            if self.close_code is not None:
                raise ConnectionClosed(self.close_code, self.close_reason)
            try:
                fin, opcode, payload = self._read_frame()
            except socket.timeout as e:
                raise TimeoutError("No WebSocket message within the timeout") from e
            if opcode in (OP_CLOSE, OP_PING, OP_PONG):
                continue  # handled in _read_frame
            if opcode == OP_CONTINUATION:
                if message_opcode is None:
                    raise WebSocketError("Continuation frame without a message to continue.")
            else:
                if message_opcode is not None:
                    raise WebSocketError("A new message began before the previous one ended.")
                message_opcode = opcode
            fragments.append(payload)
            if sum(len(f) for f in fragments) > MAX_MESSAGE_BYTES:
                raise WebSocketError("Message too large.")
            if fin:
                data = b"".join(fragments)
                if message_opcode == OP_TEXT:
                    return Message(data.decode("utf-8"))
                return Message(data)

    def _read_frame(self) -> tuple[bool, int, bytes]:
        first, second = self._read_exactly(2)
        fin = bool(first & 0x80)
        opcode = first & 0x0F
        if first & 0x70:
            raise WebSocketError("Reserved bits set without a negotiated extension.")
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read_exactly(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read_exactly(8))
        if length > MAX_MESSAGE_BYTES:
            raise WebSocketError("Frame too large.")
        mask = self._read_exactly(4) if second & 0x80 else None
        payload = self._read_exactly(length)
        if mask:
            payload = _mask(payload, mask)
        if opcode == OP_PING:
            if not self._close_sent:
                self._send_frame(OP_PONG, payload)
        elif opcode == OP_CLOSE:
            self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            self.close_reason = payload[2:].decode("utf-8", "replace")
            if not self._close_sent:
                try:
                    self._send_close(self.close_code if self.close_code != 1005 else 1000, "")
                except OSError:
                    pass
            # Both close frames are exchanged: nothing more may arrive, so the socket can go.
            self._sock.close()
        return fin, opcode, payload

    def _read_exactly(self, count: int) -> bytes:
        while len(self._buffer) < count:
            chunk = self._sock.recv(max(65536, count - len(self._buffer)))
            if not chunk:
                self._sock.close()
                self.close_code = self.close_code or 1006
                raise ConnectionClosed(self.close_code, self.close_reason or "connection dropped")
            self._buffer += chunk
        taken = bytes(self._buffer[:count])
        del self._buffer[:count]
        return taken


def _mask(payload: bytes, mask: bytes) -> bytes:
    if not payload:
        return b""
    # XOR with the 4-byte key repeated, as one big-integer operation (fast in pure Python).
    repeated = (mask * (len(payload) // 4 + 1))[: len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")


def _read_head(sock: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            raise WebSocketError("The server closed the connection during the handshake.")
        data += chunk
        if len(data) > 65536:
            raise WebSocketError("Handshake answer too large.")
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    status_parts = lines[0].split(" ", 2)
    if len(status_parts) < 2 or not status_parts[1].isdigit():
        raise WebSocketError(f"Not an HTTP answer: {lines[0]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_parts[1]), headers
