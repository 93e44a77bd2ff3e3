"""A small RFC 6455 WebSocket client on ``socket`` and ``ssl`` (the standard library has none).

Enough for the room's realtime protocol: the opening handshake (with ``Sec-WebSocket-Accept``
checked), masked client frames, text and binary messages (fragmented ones reassembled), answers
to pings, and the closing handshake; a server that breaks the protocol (masked or oversized
control frames, a one-byte close) fails the connection. No extensions (no compression), no
subprotocols.
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
from typing import Mapping, NoReturn, Optional, Union

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
        # Bytes received and not yet parsed: a frame is taken from here only once it is complete,
        # so a timeout halfway through one leaves the stream where it was.
        self._buffer = bytearray(buffered)
        self.close_code: Optional[int] = None
        self.close_reason = ""
        self._close_sent = False
        # The message being reassembled from its fragments, kept across timeouts of recv().
        self._fragments: list[bytes] = []
        self._message_opcode: Optional[int] = None

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
            # A 101 from something that is not a WebSocket server (RFC 6455 4.1, points 2 and 3).
            if response_headers.get("upgrade", "").lower() != "websocket":
                raise WebSocketError("The server's 101 lacks Upgrade: websocket.")
            connection = {token.strip().lower() for token in response_headers.get("connection", "").split(",")}
            if "upgrade" not in connection:
                raise WebSocketError("The server's 101 lacks Connection: Upgrade.")
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
        # A control frame carries at most 125 bytes: the code and 123 of the reason, cut between
        # two characters so the peer receives valid UTF-8.
        encoded = reason.encode("utf-8")[:123].decode("utf-8", "ignore").encode("utf-8")
        self._send_frame(OP_CLOSE, struct.pack("!H", code) + encoded)

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
        connection) raises :class:`ConnectionClosed`; ``timeout`` raises ``TimeoutError`` and
        loses nothing (a later call carries on where this one stopped)."""
        if self.close_code is not None:
            raise ConnectionClosed(self.close_code, self.close_reason)
        self._sock.settimeout(timeout)
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
                if self._message_opcode is None:
                    self._fail("Continuation frame without a message to continue.")
            else:
                if self._message_opcode is not None:
                    self._fail("A new message began before the previous one ended.")
                self._message_opcode = opcode
            self._fragments.append(payload)
            if sum(len(f) for f in self._fragments) > MAX_MESSAGE_BYTES:
                self._fail("Message too large.", 1009)
            if fin:
                data = b"".join(self._fragments)
                message_opcode, self._fragments, self._message_opcode = self._message_opcode, [], None
                if message_opcode == OP_TEXT:
                    return Message(data.decode("utf-8"))
                return Message(data)

    def _read_frame(self) -> tuple[bool, int, bytes]:
        """The next complete frame, receiving until one is buffered whole."""
        while True:
            parsed = self._take_frame()
            if parsed is not None:
                break
            self._receive()
        fin, opcode, payload = parsed
        if opcode == OP_PING:
            if not self._close_sent:
                self._send_frame(OP_PONG, payload)
        elif opcode == OP_CLOSE:
            if len(payload) == 1:
                self._fail("A close frame's payload is empty or at least two bytes long.")
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

    def _take_frame(self) -> Optional[tuple[bool, int, bytes]]:
        """Removes one frame from the buffer and returns it, or None (buffer untouched) while the
        frame is still incomplete."""
        buffer = self._buffer
        if len(buffer) < 2:
            return None
        first, second = buffer[0], buffer[1]
        fin = bool(first & 0x80)
        opcode = first & 0x0F
        if first & 0x70:
            self._fail("Reserved bits set without a negotiated extension.")
        if opcode not in (OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG):
            self._fail(f"Unknown opcode {opcode:#x}.")
        if second & 0x80:
            self._fail("The server masked a frame (RFC 6455 5.1: only clients mask).")
        length, offset = second & 0x7F, 2
        if opcode >= OP_CLOSE and (not fin or length > 125):
            self._fail("A control frame must be unfragmented and carry at most 125 bytes.")
        if length == 126:
            if len(buffer) < 4:
                return None
            (length,) = struct.unpack("!H", buffer[2:4])
            offset = 4
        elif length == 127:
            if len(buffer) < 10:
                return None
            (length,) = struct.unpack("!Q", buffer[2:10])
            offset = 10
        if length > MAX_MESSAGE_BYTES:
            self._fail("Frame too large.", 1009)
        if len(buffer) < offset + length:
            return None
        payload = bytes(buffer[offset : offset + length])
        del buffer[: offset + length]
        return fin, opcode, payload

    def _receive(self) -> None:
        chunk = self._sock.recv(65536)
        if not chunk:
            self._sock.close()
            self.close_code = self.close_code or 1006
            raise ConnectionClosed(self.close_code, self.close_reason or "connection dropped")
        self._buffer += chunk

    def _fail(self, message: str, code: int = 1002) -> NoReturn:
        """The peer broke the protocol: the connection is failed (RFC 6455 7.1.7), never read again."""
        try:
            if not self._close_sent:
                self._send_close(code, "")
        except OSError:
            pass
        self._sock.close()
        self.close_code, self.close_reason = code, message
        raise WebSocketError(message)


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
