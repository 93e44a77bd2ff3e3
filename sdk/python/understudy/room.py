"""A participant in a meeting room, over the realtime protocol (docs/realtime.md): for bots,
load tests and integration tests. Authenticated by the meeting's room token, never an API key,
which also opens the room's HTTP operations (welcome data, transcript, results, recording uploads).

    room = Room.connect(base_url, meeting["id"], meeting["room_token"])
    room.join(name="Sam")
    welcome = room.next("agent.message")
    reply = room.say("I led the migration to Kubernetes.")
    ended = room.leave()
    room.upload_recording(webm_bytes, "video/webm")
"""

from __future__ import annotations

import json
import time
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Optional

from . import types
from ._client import BaseClient
from ._http import RequestOptions
from ._resources import PLATFORM_OPERATIONS, PLATFORM_PATH_PREFIX
from .websocket import ConnectionClosed, WebSocket

Frame = Dict[str, Any]
DEFAULT_WAIT = 30.0


class RoomError(Exception):
    """The server sent an ``error`` frame while waiting, or the meeting ended first."""

    def __init__(self, message: str, frame: Optional[Frame] = None) -> None:
        super().__init__(message)
        self.frame = frame


class _RoomApi(BaseClient):
    """The room's HTTP operations, sent with ``X-Room-Token`` (and no API key)."""

    _path_prefix = PLATFORM_PATH_PREFIX
    # An upload replaces the previous one, so a retry (with the same idempotency key) is safe.
    _idempotent_writes = True

    def __init__(self, base_url: str, meeting_id: str, room_token: str, *, timeout: float) -> None:
        # "" rather than None: no API key, not even $UNDERSTUDY_API_KEY.
        super().__init__("", base_url=base_url, timeout=timeout, default_headers={"X-Room-Token": room_token})
        self.meeting_id = meeting_id

    def call(self, operation_id: str, params: Optional[Dict[str, Any]] = None) -> Any:
        return self._call(PLATFORM_OPERATIONS[operation_id], (self.meeting_id,), params or {}, RequestOptions())


class Room:
    """One connection to ``/v1/rooms/{meeting_id}/live``. Every JSON frame received is kept in
    ``frames``; ``next()`` hands them out in order, skipping those of other types. The room's HTTP
    operations (``welcome``, ``transcript``, ``results``, ``upload_recording``, ``upload_thumbnail``) work
    before, during and after the connection."""

    def __init__(self, socket: WebSocket, api: Optional[_RoomApi] = None) -> None:
        self._socket = socket
        self._api = api
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
        socket = WebSocket.connect(f"{scheme}://{parts.netloc}{path}?{query}", timeout=timeout)
        return cls(socket, _RoomApi(base_url, meeting_id, room_token, timeout=timeout))

    # --- the room's HTTP operations ------------------------------------------------------------

    def welcome(self) -> types.RoomWelcome:
        """``GET /v1/rooms/{id}``: meeting, scenario, persona, recording, speech."""
        return self._http().call("getRoom")  # type: ignore[no-any-return]

    def transcript(self) -> types.RoomTranscript:
        """``GET /v1/rooms/{id}/transcript``: the transcript as stored so far."""
        return self._http().call("getRoomTranscript")  # type: ignore[no-any-return]

    def results(self) -> types.RoomResults:
        """``GET /v1/rooms/{id}/results``: the participant's results after the meeting (``status``
        ``pending`` while the analysis runs). 404 ``results_not_shared`` unless the scenario shares them."""
        return self._http().call("getRoomResults")  # type: ignore[no-any-return]

    def upload_recording(self, body: bytes, content_type: str) -> types.RoomUpload:
        """``PUT /v1/rooms/{id}/recording``: the raw media (video/webm, video/mp4, audio/webm,
        audio/ogg, audio/mp4), at most 500 MiB. A second upload replaces the first."""
        params = {"body": body, "content_type": content_type}
        return self._http().call("uploadRoomRecording", params)  # type: ignore[no-any-return]

    def upload_thumbnail(self, body: bytes, content_type: str) -> types.RoomUpload:
        """``PUT /v1/rooms/{id}/recording/thumbnail``: one image (image/jpeg, image/png, image/webp)."""
        params = {"body": body, "content_type": content_type}
        return self._http().call("uploadRoomRecordingThumbnail", params)  # type: ignore[no-any-return]

    def _http(self) -> _RoomApi:
        if self._api is None:
            raise RoomError("This Room was made from a bare socket: open it with Room.connect() for HTTP calls.")
        return self._api

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
