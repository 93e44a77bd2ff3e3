"""A participant in a meeting room, over the realtime protocol (docs/realtime.md): for bots,
load tests and integration tests. Authenticated by the meeting's room token, never an API key,
which also opens the room's HTTP operations (welcome data, transcript, results, recording uploads).

    room = Room.connect(base_url, meeting["id"], meeting["room_token"])
    room.join(name="Sam")
    welcome = room.next("agent.message")
    reply = room.say("I led the migration to Kubernetes.")
    ended = room.leave()
    room.upload_recording(webm_bytes, "video/webm")

No turn is lost across a dropped connection (docs/realtime.md, "Reconnecting"): every final
utterance carries an ``id`` and stays in ``room.pending`` until the server acknowledges it (the
``transcript.sentence`` whose ``client_id`` is that id). ``rejoin()`` opens a new socket, joins again
and sends the unacknowledged finals again, in order, with the same ids (the server stores and
answers each id once); with ``reconnect=True`` the room does so by itself, inside ``next()``, when
the connection drops while it waits.
"""

from __future__ import annotations

import json
import random
import time
import urllib.parse
import uuid
from typing import Any, Callable, Dict, Iterator, List, Optional

from . import types
from ._client import BaseClient
from ._http import RequestOptions
from ._resources import PLATFORM_OPERATIONS, PLATFORM_PATH_PREFIX
from .websocket import ConnectionClosed, WebSocket, WebSocketError

Frame = Dict[str, Any]
DEFAULT_WAIT = 30.0
#: Close code of an instance that handed the meeting over as it shut down: resume at once.
SERVICE_RESTART = 1012
#: Close code of a join the service could not take for now (its database is away): back off.
TRY_AGAIN_LATER = 1013
#: Closes after which there is nothing to resume: normal (after ``ended``), replaced, join timeout.
FINAL_CLOSE_CODES = frozenset({1000, 4001, 4008})


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
    before, during and after the connection.

    With ``reconnect=True``, a connection that closes while the meeting goes on is resumed inside
    ``next()`` (and so ``say()`` and ``leave()``): at once after 1012 (the instance handed the meeting
    over), after a short capped back-off otherwise (1006, 1001, 1013…), for ``resume_window`` seconds
    after the drop (the server keeps the meeting 30 s). Not after ``ended``, a fatal ``error``, close
    1000 or 4001, or ``close()``. Without it (the default), a drop raises ``ConnectionClosed`` and
    ``rejoin()`` resumes."""

    #: Seconds after a drop during which the room tries to resume (the server keeps the meeting 30 s).
    resume_window = 27.0
    #: The longest pause between two attempts, in seconds.
    max_backoff = 4.0

    def __init__(
        self,
        socket: WebSocket,
        api: Optional[_RoomApi] = None,
        *,
        url: Optional[str] = None,
        reconnect: bool = False,
        timeout: float = 30.0,
    ) -> None:
        self._socket: Optional[WebSocket] = socket
        self._api = api
        self._url = url
        self._timeout = timeout
        self.reconnect = reconnect
        self.frames: List[Frame] = []
        self._cursor = 0
        self.closed_code: Optional[int] = None
        self._join_frame: Optional[Frame] = None
        self._joined = False
        self._joined_once = False
        # Final utterances not acknowledged yet, by id, in the order they were said.
        self._pending: Dict[str, Frame] = {}
        # Why no reconnection may follow: "over" (``ended``, a fatal error) or "closed" (close()).
        self._final: Optional[str] = None
        self._leaving = False
        self._dropped_at: Optional[float] = None
        self._attempt = 0
        self._restarting = False
        self._next_attempt_at = 0.0
        self._gave_up = False

    @classmethod
    def connect(
        cls, base_url: str, meeting_id: str, room_token: str, *, timeout: float = 30.0, reconnect: bool = False
    ) -> "Room":
        """Opens the room's WebSocket (``http`` → ``ws``, ``https`` → ``wss``). ``reconnect=True``:
        resume by itself after a drop (see the class)."""
        parts = urllib.parse.urlsplit(base_url.rstrip("/"))
        scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
        path = f"{parts.path}/v1/rooms/{urllib.parse.quote(meeting_id, safe='')}/live"
        query = urllib.parse.urlencode({"t": room_token})
        url = f"{scheme}://{parts.netloc}{path}?{query}"
        socket = WebSocket.connect(url, timeout=timeout)
        api = _RoomApi(base_url, meeting_id, room_token, timeout=timeout)
        return cls(socket, api, url=url, reconnect=reconnect, timeout=timeout)

    @property
    def pending(self) -> List[Frame]:
        """The final utterances sent and not acknowledged yet (no ``transcript.sentence`` with their
        id), in order."""
        return [dict(frame) for frame in self._pending.values()]

    @property
    def state(self) -> str:
        """``joined``; ``connecting`` (opened, ``join`` not answered yet); ``reconnecting`` (dropped,
        to be resumed by the next wait); ``closed`` (nothing will be resumed)."""
        if self._joined:
            return "joined"
        if self._socket is not None:
            return "connecting"
        if self._may_reconnect():
            return "reconnecting"
        return "closed"

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

    def feedback_catalog(self) -> Dict[str, Any]:
        """``GET /v1/rooms/{id}/feedback/catalog``: the post-call questions, ratings and checklists
        with their labels."""
        return self._http().call("getRoomFeedbackCatalog")  # type: ignore[no-any-return]

    def send_feedback(
        self,
        rating: str,
        video_issues: Optional[List[str]] = None,
        agent_issues: Optional[List[str]] = None,
        comment: Optional[str] = None,
    ) -> Dict[str, Any]:
        """``PUT /v1/rooms/{id}/feedback``: the participant's answer to the post-call questions, after
        the meeting has ended (409 before); a second answer replaces the first."""
        params: Dict[str, Any] = {"rating": rating, "comment": comment}
        if video_issues is not None:
            params["video_issues"] = video_issues
        if agent_issues is not None:
            params["agent_issues"] = agent_issues
        return self._http().call("putRoomFeedback", params)  # type: ignore[no-any-return]

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
        """Sends one client frame as it is (a final ``utterance`` sent this way is not kept in
        ``pending``)."""
        if self._socket is None:
            raise ConnectionClosed(self.closed_code or 1006, "the room socket is not open")
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
        self._join_frame = frame
        self._final = None
        self.send(frame)
        return self.next("joined", timeout=timeout)

    def rejoin(self, *, timeout: float = DEFAULT_WAIT) -> Frame:
        """Resumes the meeting on a new socket: closes the current one (without leaving), opens
        another, sends the same ``join`` and returns its ``joined`` (``resumed: True``); the
        unacknowledged finals go again right after it, in order, with their ids. Frames not handed
        out yet by ``next()`` stay where they are. A refused connection raises as ``connect()`` does."""
        if self._join_frame is None:
            raise RoomError("join() first: rejoin() resumes a meeting this room joined.")
        if self._url is None:
            raise RoomError("This Room was made from a bare socket: open it with Room.connect() to rejoin.")
        self._final = None
        self._drop_socket()
        start = len(self.frames)
        self._socket = WebSocket.connect(self._url, timeout=min(self._timeout, timeout))
        self.send(self._join_frame)
        return self._wait_from(start, lambda frame: frame.get("type") == "joined", timeout)

    def send_utterance(self, text: str, *, id: Optional[str] = None, typed: bool = True) -> str:
        """Sends a final utterance without waiting for the answer, and returns its id (a random
        one when ``id`` is None). It stays in ``pending`` until the server acknowledges it and goes
        again after each ``joined`` until then; said while the connection is down, it goes out
        after the next ``joined``."""
        if self._join_frame is None:
            raise RoomError("join() first.")
        if self._final == "over":
            raise RoomError("The meeting is over.")
        utterance_id = id if id is not None else uuid.uuid4().hex
        frame: Frame = {"type": "utterance", "text": text, "final": True, "input": "typed" if typed else "voice"}
        frame["id"] = utterance_id
        self._pending.pop(utterance_id, None)
        self._pending[utterance_id] = frame
        if self._joined:
            self._try_send(frame)
        return utterance_id

    def say(self, text: str, *, id: Optional[str] = None, typed: bool = True, timeout: float = DEFAULT_WAIT) -> Frame:
        """Sends a final utterance (as ``send_utterance()``, with an id) and returns the persona's
        complete answer (``agent.message``). Raises :class:`RoomError` if the meeting ends
        (``ended``) before an answer."""
        self.send_utterance(text, id=id, typed=typed)
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
        """Leaves (the meeting ends with ``participant_left``); returns the ``ended`` frame. With
        ``reconnect=True`` a ``leave`` lost with the connection goes again once the room has joined
        again."""
        if self._joined and self.reconnect:
            self._try_send({"type": "leave"})  # lost with the connection: it goes again after ``joined``
        elif self._joined or not self._may_reconnect():
            self.send({"type": "leave"})
        self._leaving = True
        start = self._cursor
        end = self._wait_from(
            start,
            lambda f: f.get("type") == "ended" or (f.get("type") == "error" and f.get("code") == "meeting_ended"),
            timeout,
        )
        if end.get("type") != "ended":
            # A leave sent again after the meeting ended is answered ``meeting_ended``, then ``ended``.
            end = self._wait_from(self.frames.index(end) + 1, lambda f: f.get("type") == "ended", timeout)
        self._cursor = max(self._cursor, self.frames.index(end) + 1)
        self.close()
        return end

    def close(self) -> None:
        """Closes the socket without leaving (the meeting stays active 30 s for a reconnect); no
        reconnection follows."""
        self._final = "closed"
        if self._socket is not None:
            self._socket.close()
            self.closed_code = self._socket.close_code
            self._socket = None
        self._joined = False

    # --- server → client -----------------------------------------------------------------------

    def next(
        self,
        match: "str | Callable[[Frame], bool] | None" = None,
        *,
        timeout: float = DEFAULT_WAIT,
    ) -> Frame:
        """The next frame (after those already handed out) of type ``match`` (or passing it, when
        it is a function). Frames it skips stay in ``frames``. A fatal ``error`` frame raises
        :class:`RoomError`; no matching frame in ``timeout`` seconds raises ``TimeoutError``; a
        closed connection raises ``ConnectionClosed`` (with ``reconnect=True``: once the room
        stops trying to resume)."""
        test = _matcher(match)
        deadline = time.monotonic() + timeout
        while True:
            while self._cursor < len(self.frames):
                frame = self.frames[self._cursor]
                self._cursor += 1
                if test(frame):
                    return frame
                _raise_if_fatal(frame)
            self._receive(deadline, timeout)

    def __iter__(self) -> Iterator[Frame]:
        """Every frame from here on, until the server closes the connection (with
        ``reconnect=True``: until the room stops trying to resume)."""
        while True:
            try:
                yield self.next(timeout=3600)
            except ConnectionClosed:
                return

    def _wait_from(self, start: int, test: Callable[[Frame], bool], timeout: float) -> Frame:
        """A frame at ``start`` or later passing ``test``, without moving ``next()``'s position."""
        deadline = time.monotonic() + timeout
        at = start
        while True:
            while at < len(self.frames):
                frame = self.frames[at]
                at += 1
                if test(frame):
                    return frame
                _raise_if_fatal(frame)
            self._receive(deadline, timeout)

    def _receive(self, deadline: float, timeout: float) -> None:
        """Receives one frame before ``deadline`` (``TimeoutError`` after it), resuming a dropped
        connection on the way when that is allowed."""
        if self._socket is None:
            self._resume(deadline, timeout)
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"No matching room frame within {timeout} s")
        socket = self._socket
        try:
            message = socket.recv(timeout=remaining)
        except TimeoutError:
            raise TimeoutError(f"No matching room frame within {timeout} s") from None
        except ConnectionClosed as closed:
            self._closed(closed.code, closed)
            return
        except (OSError, WebSocketError) as error:
            # A reset connection, or one that broke the protocol: dropped all the same.
            if not self.reconnect:
                raise
            self._closed(socket.close_code or 1006, ConnectionClosed(1006, str(error)))
            return
        if message.is_text:
            self._handle(json.loads(message.data))
        # Binary frames are the persona's voice (only when joined with audio output): ignored here.

    def _handle(self, frame: Frame) -> None:
        self.frames.append(frame)
        kind = frame.get("type")
        if kind == "transcript.sentence":
            # Stored: the acknowledgement (it may also reach a new socket just before its ``joined``).
            client_id = frame.get("client_id")
            if isinstance(client_id, str):
                self._pending.pop(client_id, None)
        elif kind == "joined":
            self._joined = self._joined_once = True
            self._dropped_at = None
            self._attempt = 0
            self._restarting = False
            self._gave_up = False
            for pending in list(self._pending.values()):
                self._try_send(pending)
            if self._leaving:
                self._try_send({"type": "leave"})
        elif kind == "ended" or (kind == "error" and frame.get("fatal")):
            self._final = "over"

    def _try_send(self, frame: Frame) -> None:
        """Sends when it can; a dead socket is noticed by the next receive, and what was pending
        goes again after the next ``joined``."""
        try:
            self.send(frame)
        except (OSError, WebSocketError):
            pass

    def _closed(self, code: int, error: ConnectionClosed) -> None:
        """The socket closed: resume later (``_resume``), or raise ``error`` when nothing will be resumed."""
        self._drop_socket()
        self.closed_code = code
        if not self._should_reconnect(code):
            raise error
        self._schedule(code)
        if self._gave_up:
            raise ConnectionClosed(code, f"not resumed within {self.resume_window:g} s")

    def _drop_socket(self) -> None:
        socket, self._socket, self._joined = self._socket, None, False
        if socket is not None:
            try:
                socket.close(timeout=0.5)
            except (OSError, WebSocketError):
                pass

    def _should_reconnect(self, code: int) -> bool:
        if not self.reconnect or self._url is None or self._final is not None or code in FINAL_CLOSE_CODES:
            return False
        # Refused before any join: nothing to resume. A first join that reached an instance
        # shutting down (1012) or without its database (1013) is tried again.
        if not self._joined_once and self._dropped_at is None:
            return self._join_frame is not None and code in (SERVICE_RESTART, TRY_AGAIN_LATER)
        return True

    def _may_reconnect(self) -> bool:
        return self._dropped_at is not None and not self._gave_up and self._final is None and self.reconnect

    def _schedule(self, code: int) -> None:
        now = time.monotonic()
        if self._dropped_at is None:
            self._dropped_at = now
        if now - self._dropped_at >= self.resume_window:
            self._gave_up = True
            return
        self._attempt += 1
        # A hand-over (1012): another instance is up, so at once, then briskly. Anything else backs
        # off (the network or the whole service may be down), with jitter so that clients dropped
        # together do not all come back at the same moment.
        if code == SERVICE_RESTART:
            self._restarting = True
        if self._restarting:
            delay = 0.25 * (self._attempt - 1)
        else:
            delay = 0.25 * 2 ** min(self._attempt - 1, 16) * random.uniform(0.8, 1.2)
        self._next_attempt_at = now + min(delay, self.max_backoff)

    def _resume(self, deadline: float, timeout: float) -> None:
        """Waits out the back-off (no later than ``deadline``), then tries once to open a new
        socket and send the ``join``; its ``joined`` arrives through the next receive."""
        if not self._may_reconnect():
            raise ConnectionClosed(self.closed_code or 1006, "the room socket is closed")
        assert self._url is not None and self._join_frame is not None and self._dropped_at is not None
        now = time.monotonic()
        give_up_at = self._dropped_at + self.resume_window
        wait = min(self._next_attempt_at, deadline, give_up_at) - now
        if wait > 0:
            time.sleep(wait)
            now = time.monotonic()
        if now >= give_up_at:
            self._gave_up = True
            raise ConnectionClosed(self.closed_code or 1006, f"not resumed within {self.resume_window:g} s")
        if now >= deadline:
            raise TimeoutError(f"No matching room frame within {timeout} s")
        if now < self._next_attempt_at:
            return
        try:
            self._socket = WebSocket.connect(self._url, timeout=max(0.1, min(self._timeout, deadline - now)))
            self._socket.send_text(json.dumps(self._join_frame, separators=(",", ":")))
        except (OSError, WebSocketError) as error:
            code = error.code if isinstance(error, ConnectionClosed) else 1006
            self._closed(code, ConnectionClosed(code, str(error)))

    def __enter__(self) -> "Room":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _matcher(match: "str | Callable[[Frame], bool] | None") -> Callable[[Frame], bool]:
    if match is None:
        return lambda frame: True
    if isinstance(match, str):
        return lambda frame: frame.get("type") == match
    return match


def _raise_if_fatal(frame: Frame) -> None:
    if frame.get("type") == "error" and frame.get("fatal"):
        raise RoomError(f"{frame.get('code')}: {frame.get('message')}", frame)
