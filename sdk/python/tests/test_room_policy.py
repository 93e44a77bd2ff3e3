"""The room client's reconnection policy against a scripted loopback room server (no platform
needed): ids and ``pending``, 1012 resumed at once with the unacknowledged finals sent again in
order, no reconnection after 4001 or ``ended``, and giving up after the resume window."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import struct
import threading
import time
import unittest
from typing import Any, Dict, List, Optional, Set

from understudy import Room, RoomError
from understudy.websocket import ConnectionClosed

from .test_websocket import GUID, frame, read_client_frame


class ScriptedRoom:
    """Answers each connection's ``join`` with ``joined`` (``resumed`` from the second one on) and
    acknowledges the utterances whose id is in ``acknowledge``, answers ``leave`` with ``ended`` and
    close 1000; records every client frame per connection. ``refuse`` closes new connections at once; ``close_current(code)`` ends the last one."""

    def __init__(self) -> None:
        self.connections: List[List[Dict[str, Any]]] = []
        self.accepted_at: List[float] = []
        self.acknowledge: Set[str] = set()
        self.refuse = False
        self.refused = 0
        #: The meeting is over: a ``join`` is answered ``meeting_ended``, ``ended``, close 1000.
        self.meeting_ended = False
        self._current: Optional[socket.socket] = None
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(8)
        self.base_url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self._listener.close()

    def close_current(self, code: Optional[int], before: Optional[Dict[str, Any]] = None) -> None:
        """Sends ``before``, then a close frame with ``code`` (None: none, the connection just drops)."""
        conn = self._current
        assert conn is not None
        if before is not None:
            conn.sendall(frame(0x1, json.dumps(before).encode()))
        if code is not None:
            conn.sendall(frame(0x8, struct.pack("!H", code)))
            time.sleep(0.05)
        conn.shutdown(socket.SHUT_RDWR)
        conn.close()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            if self.refuse:
                self.refused += 1
                conn.close()
                continue
            self.accepted_at.append(time.monotonic())
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    @staticmethod
    def _end(conn: socket.socket, frames: List[Dict[str, Any]]) -> None:
        for message in frames:
            conn.sendall(frame(0x1, json.dumps(message).encode()))
        conn.sendall(frame(0x8, struct.pack("!H", 1000)))

    def _serve(self, conn: socket.socket) -> None:
        received: List[Dict[str, Any]] = []
        self.connections.append(received)
        self._current = conn
        request = b""
        try:
            while b"\r\n\r\n" not in request:
                request += conn.recv(4096)
            key = next(l.split(":", 1)[1].strip() for l in request.decode().split("\r\n") if l.lower().startswith("sec-websocket-key"))
            digest = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            conn.sendall(f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {digest}\r\n\r\n".encode())
            while True:
                opcode, data, _ = read_client_frame(conn)
                if opcode == 0x8:
                    conn.sendall(frame(0x8, data[:2]))
                    return
                message = json.loads(data)
                received.append(message)
                if message["type"] == "join" and self.meeting_ended:
                    error = {"type": "error", "code": "meeting_ended", "message": "Ended.", "fatal": True}
                    self._end(conn, [error, {"type": "ended", "reason": "participant_left"}])
                elif message["type"] == "join":
                    joined = {"type": "joined", "resumed": len(self.connections) > 1, "transcript": []}
                    conn.sendall(frame(0x1, json.dumps(joined).encode()))
                elif message["type"] == "leave":
                    self._end(conn, [{"type": "ended", "reason": "participant_left"}])
                elif message["type"] == "utterance" and message.get("id") in self.acknowledge:
                    ack = {"type": "transcript.sentence", "sentence": {"message": message["text"]}, "client_id": message["id"]}
                    conn.sendall(frame(0x1, json.dumps(ack).encode()))
        except (EOFError, OSError):
            pass


class RoomPolicyTest(unittest.TestCase):
    def setUp(self) -> None:
        self.server = ScriptedRoom()
        self.addCleanup(self.server.close)

    def open(self, *, reconnect: bool = True) -> Room:
        room = Room.connect(self.server.base_url, "m", "t", timeout=5, reconnect=reconnect)
        self.addCleanup(room.close)
        return room

    def test_ids_and_pending(self) -> None:
        room = self.open(reconnect=False)
        with self.assertRaises(RoomError):
            room.send_utterance("too early")
        room.join(timeout=5)
        self.server.acknowledge.add("mine")
        generated = room.send_utterance("Hello.")
        self.assertRegex(generated, "^[0-9a-f]{32}$")
        self.assertEqual(room.send_utterance("Again.", id="mine", typed=False), "mine")
        room.next(lambda f: f.get("client_id") == "mine", timeout=5)
        self.assertEqual([(f["id"], f["text"], f["input"]) for f in room.pending], [(generated, "Hello.", "typed")])

    def test_1012_resumes_at_once_and_sends_the_unacknowledged_finals_again_in_order(self) -> None:
        room = self.open()
        room.join(timeout=5)
        self.server.acknowledge.add("u1")
        room.send_utterance("One.", id="u1")
        room.send_utterance("Two.", id="u2")
        room.next(lambda f: f.get("client_id") == "u1", timeout=5)
        self.server.close_current(1012)
        dropped = time.monotonic()
        joined = room.next("joined", timeout=5)
        self.assertTrue(joined["resumed"])
        self.assertLess(self.server.accepted_at[1] - dropped, 0.5, "at once")
        self.assertEqual(room.closed_code, 1012)
        self.assertEqual(room.state, "joined")
        room.send_utterance("Three.", id="u3")
        time.sleep(0.2)
        self.assertEqual([f.get("id", f["type"]) for f in self.server.connections[1]], ["join", "u2", "u3"])
        self.assertEqual([f["id"] for f in room.pending], ["u2", "u3"])

    def test_no_reconnection_after_4001_or_ended(self) -> None:
        for code, before in ((4001, None), (1000, {"type": "ended", "reason": "participant_left"})):
            with self.subTest(code=code):
                server = ScriptedRoom()
                self.addCleanup(server.close)
                room = Room.connect(server.base_url, "m", "t", timeout=5, reconnect=True)
                self.addCleanup(room.close)
                room.join(timeout=5)
                server.close_current(code, before)
                with self.assertRaises(ConnectionClosed) as caught:
                    room.next("agent.message", timeout=5)
                self.assertEqual(caught.exception.code, code)
                self.assertEqual(room.state, "closed")
                time.sleep(0.2)
                self.assertEqual(len(server.connections), 1)

    def test_leave_while_reconnecting_goes_out_after_the_next_joined(self) -> None:
        room = self.open()
        room.join(timeout=5)
        self.server.close_current(None)
        with self.assertRaises(TimeoutError):
            room.next("agent.message", timeout=0.05)  # notices the drop
        self.assertIn(room.state, ("reconnecting", "connecting"))
        ended = room.leave(timeout=5)
        self.assertEqual(ended["reason"], "participant_left")
        self.assertEqual([f["type"] for f in self.server.connections[1]], ["join", "leave"])
        self.assertEqual(room.state, "closed")

    def test_leave_whose_meeting_ended_meanwhile_returns_ended(self) -> None:
        room = self.open()
        room.join(timeout=5)
        self.server.meeting_ended = True  # say, a leave that got through just before the drop
        self.server.close_current(None)
        with self.assertRaises(TimeoutError):
            room.next("agent.message", timeout=0.05)
        ended = room.leave(timeout=5)
        self.assertEqual(ended["reason"], "participant_left")
        self.assertEqual([f["type"] for f in self.server.connections[1]], ["join"])
        self.assertEqual(room.closed_code, 1000)

    def test_a_drop_backs_off_and_gives_up_after_the_resume_window(self) -> None:
        room = self.open()
        room.resume_window = 0.8
        room.max_backoff = 0.1
        room.join(timeout=5)
        self.server.refuse = True
        self.server.close_current(None)  # the connection drops (1006)
        started = time.monotonic()
        with self.assertRaises(ConnectionClosed) as caught:
            room.next("agent.message", timeout=10)
        self.assertIn("not resumed within 0.8 s", str(caught.exception))
        self.assertLess(time.monotonic() - started, 5)
        self.assertGreaterEqual(self.server.refused, 2)
        self.assertEqual(room.state, "closed")


if __name__ == "__main__":
    unittest.main()
