"""A participant in a meeting room, over the realtime protocol (docs/realtime.md): for bots,
load tests and integration tests. Authenticated by the meeting's room token, never an API key.

    room = Room.connect(base_url, meeting["id"], meeting["room_token"])
    room.join(name="Sam")
    welcome = room.next("agent.message")
    reply = room.say("I led the migration to Kubernetes.")
    ended = room.leave()
"""

from __future__ import annotations

import json
import time
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Optional

from .websocket import ConnectionClosed, WebSocket

Frame = Dict[str, Any]
DEFAULT_WAIT = 30.0


class RoomError(Exception):
    """The server sent an ``error`` frame while waiting, or the meeting ended first."""

    def __init__(self, message: str, frame: Optional[Frame] = None) -> None:
        super().__init__(message)
        self.frame = frame


class Room:
    """One connection to ``/v1/rooms/{meeting_id}/live``. Every JSON frame received is kept in
    ``frames``; ``next()`` hands them out in order, skipping those of other types."""

    def __init__(self, socket: WebSocket) -> None:
        self._socket = socket
        self.frames: List[Frame] = []
        self._cursor = 0
        self.closed_code: Optional[int] = None

    @classmethod
    def connect(cls, base_url: str, meeting_id: str, room_token: str, *, timeout: float = 30.0) -> "Room":
        """Opens the room's WebSocket (``http`` → ``ws``, ``https`` → ``wss``)."""
        parts = urllib.parse.urlsplit(base_url.rstrip("/"))
        scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
        path = f"{parts.path}/v1/rooms/{urllib.parse.quote(meeting_id, safe='')}/live"
        query = urllib.parse.urlencode({"t": room_token})
        return cls(WebSocket.connect(f"{scheme}://{parts.netloc}{path}?{query}", timeout=timeout))

    # --- client → server -----------------------------------------------------------------------

    def send(self, frame: Frame) -> None:
        """Sends one client frame as it is (``{"type": ..., ...}``)."""
        self._socket.send_text(json.dumps(frame, separators=(",", ":")))

    def join(
        self,
        *,
        name: Optional[str] = None,
        consent_recording: bool = False,
        recording: bool = False,
        client: Optional[Dict[str, Any]] = None,
        timeout: float = DEFAULT_WAIT,
    ) -> Frame:
        """Enters the meeting; returns the ``joined`` frame (the welcome follows as frames)."""
        frame: Frame = {"type": "join", "consent": {"recording": consent_recording}, "recording": recording}
        if name is not None:
            frame["name"] = name
        frame["client"] = client if client is not None else {"sdk": "understudy-python"}
        self.send(frame)
        return self.next("joined", timeout=timeout)

    def say(self, text: str, *, id: Optional[str] = None, typed: bool = True, timeout: float = DEFAULT_WAIT) -> Frame:
        """Sends a final utterance and returns the persona's complete answer (``agent.message``).
        Raises :class:`RoomError` if the meeting ends (``ended``) before an answer."""
        frame: Frame = {"type": "utterance", "text": text, "final": True, "input": "typed" if typed else "voice"}
        if id is not None:
            frame["id"] = id
        self.send(frame)
        answer = self.next(lambda f: f.get("type") in ("agent.message", "ended"), timeout=timeout)
        if answer["type"] == "ended":
            raise RoomError(f"The meeting ended ({answer.get('reason')}) before the persona answered.", answer)
        return answer

    def ping(self) -> Frame:
        """The protocol's keep-alive (send one every 20 s in a long session); returns the ``pong``."""
        stamp = time.time()
        self.send({"type": "ping", "ts": stamp})
        return self.next(lambda f: f.get("type") == "pong" and f.get("ts") == stamp)

    def leave(self, *, timeout: float = DEFAULT_WAIT) -> Frame:
        """Leaves (the meeting ends with ``participant_left``); returns the ``ended`` frame."""
        self.send({"type": "leave"})
        ended = self.next("ended", timeout=timeout)
        self.close()
        return ended

    def close(self) -> None:
        self._socket.close()
        self.closed_code = self._socket.close_code

    # --- server → client -----------------------------------------------------------------------

    def next(
        self,
        match: "str | Callable[[Frame], bool] | None" = None,
        *,
        timeout: float = DEFAULT_WAIT,
    ) -> Frame:
        """The next frame (after those already handed out) of type ``match`` (or passing it, when
        it is a function). Frames it skips stay in ``frames``. A fatal ``error`` frame raises
        :class:`RoomError`; no matching frame in ``timeout`` seconds raises ``TimeoutError``."""
        if match is None:
            test: Callable[[Frame], bool] = lambda frame: True
        elif isinstance(match, str):
            test = lambda frame: frame.get("type") == match
        else:
            test = match
        deadline = time.monotonic() + timeout
        while True:
            while self._cursor < len(self.frames):
                frame = self.frames[self._cursor]
                self._cursor += 1
                if test(frame):
                    return frame
                if frame.get("type") == "error" and frame.get("fatal"):
                    raise RoomError(f"{frame.get('code')}: {frame.get('message')}", frame)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"No matching room frame within {timeout} s")
            self._receive(remaining)

    def __iter__(self) -> Iterator[Frame]:
        """Every frame from here on, until the server closes the connection."""
        while True:
            try:
                yield self.next(timeout=3600)
            except ConnectionClosed:
                return

    def _receive(self, timeout: float) -> None:
        message = self._socket.recv(timeout=timeout)
        if message.is_text:
            self.frames.append(json.loads(message.data))
        # Binary frames are the persona's voice (only when joined with audio output): ignored here.

    def __enter__(self) -> "Room":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
