"""The RFC 6455 client against a scripted loopback server: handshake, masking, fragments, the
three length encodings, ping/pong and the closing handshake. (test_platform.py plays the real
room over it.)"""

from __future__ import annotations

import base64
import hashlib
import socket
import struct
import threading
import unittest
from typing import Callable, List, Optional, Tuple

from understudy.websocket import ConnectionClosed, HandshakeError, WebSocket, WebSocketError

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    head = bytearray([(0x80 if fin else 0) | opcode])
    if len(payload) < 126:
        head.append(len(payload))
    elif len(payload) < 65536:
        head += bytes([126]) + struct.pack("!H", len(payload))
    else:
        head += bytes([127]) + struct.pack("!Q", len(payload))
    return bytes(head) + payload


def read_client_frame(conn: socket.socket) -> Tuple[int, bytes, bool]:
    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    first, second = exactly(2)
    masked = bool(second & 0x80)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", exactly(2))
    elif length == 127:
        (length,) = struct.unpack("!Q", exactly(8))
    mask = exactly(4) if masked else b"\0\0\0\0"
    data = bytes(b ^ mask[i % 4] for i, b in enumerate(exactly(length)))
    return first & 0x0F, data, masked


class FakeServer:
    def __init__(
        self,
        script: Callable[[socket.socket, List[Tuple[int, bytes, bool]]], None],
        status: int = 101,
        accept: Optional[str] = None,
        upgrade: str = "Upgrade: websocket\r\nConnection: Upgrade\r\n",
    ) -> None:
        self.received: List[Tuple[int, bytes, bool]] = []
        self.request = b""
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        self.url = f"ws://127.0.0.1:{listener.getsockname()[1]}/live?t=abc"

        def serve() -> None:
            conn, _ = listener.accept()
            with conn, listener:
                while b"\r\n\r\n" not in self.request:
                    self.request += conn.recv(4096)
                key = next(l.split(":", 1)[1].strip() for l in self.request.decode().split("\r\n") if l.lower().startswith("sec-websocket-key"))
                if status != 101:
                    conn.sendall(f"HTTP/1.1 {status} Not Found\r\nContent-Length: 2\r\n\r\n{{}}".encode())
                    return
                digest = accept or base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
                conn.sendall(f"HTTP/1.1 101 Switching Protocols\r\n{upgrade}Sec-WebSocket-Accept: {digest}\r\n\r\n".encode())
                try:
                    script(conn, self.received)
                except (EOFError, OSError):
                    pass

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()


class WebSocketTest(unittest.TestCase):
    def test_messages_both_ways_ping_and_close(self) -> None:
        big = bytes(range(256)) * 300  # 76,800 bytes: the 64-bit length form

        def script(conn: socket.socket, received: List[Tuple[int, bytes, bool]]) -> None:
            received.append(read_client_frame(conn))  # the client's text
            received.append(read_client_frame(conn))  # the client's 300-byte binary (16-bit length)
            conn.sendall(frame(0x1, "hel".encode(), fin=False) + frame(0x9, b"are you there") + frame(0x0, "lo ✓".encode()))
            received.append(read_client_frame(conn))  # the pong, sent while reading the fragments
            conn.sendall(frame(0x2, big))
            conn.sendall(frame(0x8, struct.pack("!H", 1000) + b"bye"))
            received.append(read_client_frame(conn))  # the client's answering close

        server = FakeServer(script)
        ws = WebSocket.connect(server.url, timeout=5)
        ws.send_text('{"type":"join"}')
        ws.send_binary(b"x" * 300)
        self.assertEqual(ws.recv(timeout=5).data, "hello ✓")
        self.assertEqual(ws.recv(timeout=5).data, big)
        with self.assertRaises(ConnectionClosed) as caught:
            ws.recv(timeout=5)
        self.assertEqual((caught.exception.code, caught.exception.reason), (1000, "bye"))
        ws.close()
        server.thread.join(5)
        self.assertIn(b"GET /live?t=abc HTTP/1.1", server.request)
        text, binary, pong, close = server.received
        self.assertEqual(text, (0x1, b'{"type":"join"}', True), "client frames are masked")
        self.assertEqual(binary, (0x2, b"x" * 300, True))
        self.assertEqual(pong, (0xA, b"are you there", True))
        self.assertEqual(close[0], 0x8)
        self.assertEqual(struct.unpack("!H", close[1][:2])[0], 1000)

    def test_a_refused_upgrade_and_a_wrong_accept(self) -> None:
        refused = FakeServer(lambda conn, received: None, status=404)
        with self.assertRaises(HandshakeError) as caught:
            WebSocket.connect(refused.url, timeout=5)
        self.assertEqual(caught.exception.status, 404)
        forged = FakeServer(lambda conn, received: None, accept="bm90IHRoZSByaWdodCBrZXk=")
        with self.assertRaises(WebSocketError):
            WebSocket.connect(forged.url, timeout=5)

    def test_a_dropped_connection_is_1006(self) -> None:
        server = FakeServer(lambda conn, received: conn.close())
        ws = WebSocket.connect(server.url, timeout=5)
        with self.assertRaises(ConnectionClosed) as caught:
            ws.recv(timeout=5)
        self.assertEqual(caught.exception.code, 1006)
        ws.close()

    def test_a_silent_server_times_out(self) -> None:
        release = threading.Event()
        server = FakeServer(lambda conn, received: release.wait(5))
        ws = WebSocket.connect(server.url, timeout=5)
        with self.assertRaises(TimeoutError):
            ws.recv(timeout=0.2)
        release.set()
        ws.close(timeout=1)


class ProtocolTest(unittest.TestCase):
    """What a server may not do, and what a timeout may not break."""

    def test_a_timeout_mid_frame_or_mid_message_loses_nothing(self) -> None:
        step = threading.Semaphore(0)
        whole = frame(0x1, b"x" * 300)

        def script(conn: socket.socket, received: List[Tuple[int, bytes, bool]]) -> None:
            conn.sendall(whole[:3])  # the 16-bit length, cut in half
            step.acquire()
            conn.sendall(whole[3:] + frame(0x1, b"first ", fin=False))
            step.acquire()
            conn.sendall(frame(0x0, b"second"))
            step.acquire()

        server = FakeServer(script)
        ws = WebSocket.connect(server.url, timeout=5)
        with self.assertRaises(TimeoutError):
            ws.recv(timeout=0.2)
        step.release()
        self.assertEqual(ws.recv(timeout=5).data, "x" * 300)
        with self.assertRaises(TimeoutError):
            ws.recv(timeout=0.2)  # after the first fragment of a message
        step.release()
        self.assertEqual(ws.recv(timeout=5).data, "first second")
        step.release()
        ws.close(timeout=1)

    def refused(self, sent: bytes, upgrade: Optional[str] = None) -> Tuple[WebSocketError, List[Tuple[int, bytes, bool]]]:
        def script(conn: socket.socket, received: List[Tuple[int, bytes, bool]]) -> None:
            conn.sendall(sent)
            received.append(read_client_frame(conn))

        server = FakeServer(script) if upgrade is None else FakeServer(script, upgrade=upgrade)
        ws = WebSocket.connect(server.url, timeout=5)
        with self.assertRaises(WebSocketError) as caught:
            ws.recv(timeout=5)
        self.assertNotIsInstance(caught.exception, ConnectionClosed)
        with self.assertRaises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        self.assertEqual(closed.exception.code, 1002, "the connection is failed, not read on")
        server.thread.join(5)
        return caught.exception, server.received

    def test_a_masked_server_frame_fails_the_connection(self) -> None:
        payload = b"hi"
        masked = bytes([0x81, 0x80 | len(payload)]) + b"\x01\x02\x03\x04" + bytes(b ^ m for b, m in zip(payload, b"\x01\x02"))
        error, received = self.refused(masked)
        self.assertIn("masked", str(error))
        self.assertEqual(received[0][0], 0x8)
        self.assertEqual(struct.unpack("!H", received[0][1][:2])[0], 1002)

    def test_control_frames_are_short_and_unfragmented(self) -> None:
        self.refused(frame(0x9, b"p" * 126))
        self.refused(frame(0x9, b"ping", fin=False))

    def test_a_close_payload_of_one_byte_is_a_protocol_error(self) -> None:
        error, _ = self.refused(frame(0x8, b"\x03"))
        self.assertIn("close", str(error))

    def test_a_long_close_reason_is_cut_between_characters(self) -> None:
        def script(conn: socket.socket, received: List[Tuple[int, bytes, bool]]) -> None:
            received.append(read_client_frame(conn))
            conn.sendall(frame(0x8, struct.pack("!H", 1000)))

        server = FakeServer(script)
        ws = WebSocket.connect(server.url, timeout=5)
        ws.close(1000, "é" * 100)  # 200 bytes of two-byte characters
        server.thread.join(5)
        opcode, payload, _ = server.received[0]
        self.assertEqual(opcode, 0x8)
        self.assertLessEqual(len(payload), 125)
        self.assertEqual(payload[2:].decode("utf-8"), "é" * 61)

    def test_a_101_without_the_upgrade_headers_is_refused(self) -> None:
        for upgrade in ("Connection: Upgrade\r\n", "Upgrade: websocket\r\n", "Upgrade: h2c\r\nConnection: Upgrade\r\n"):
            server = FakeServer(lambda conn, received: None, upgrade=upgrade)
            with self.assertRaises(WebSocketError, msg=upgrade):
                WebSocket.connect(server.url, timeout=5)
        keep_alive = FakeServer(lambda conn, received: None, upgrade="upgrade: WebSocket\r\nconnection: keep-alive, Upgrade\r\n")
        WebSocket.connect(keep_alive.url, timeout=5).close(timeout=0.2)


if __name__ == "__main__":
    unittest.main()
