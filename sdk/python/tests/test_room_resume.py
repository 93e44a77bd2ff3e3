"""The room client across a lost connection (docs/realtime.md, "Reconnecting"), against two
instances of the platform on one database (started by server/test/sdk/python-sdk.test.ts) behind a
loopback TCP proxy that plays the load balancer. A final said while the connection is cut is kept
pending; once the connection is back (to the other instance) the room resumes by itself, sends it
again with the same id, and it is acknowledged, stored and answered once. Without ``reconnect``, a
drop raises and ``rejoin()`` resumes."""

from __future__ import annotations

import threading
import unittest
from typing import Any, Dict, List

from understudy import Room, Understudy
from understudy.websocket import ConnectionClosed

from .support import (
    API_KEY,
    OTHER_PLATFORM_URL,
    PLATFORM_URL,
    TcpProxy,
    needs_two_instances,
    unique,
    unwrap,
)
from .test_platform import make_scenario

Frame = Dict[str, Any]


@needs_two_instances
class RoomResumeTest(unittest.TestCase):
    client: Understudy

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Understudy(api_key=API_KEY, base_url=PLATFORM_URL)

    def setUp(self) -> None:
        assert PLATFORM_URL and OTHER_PLATFORM_URL
        self.proxy = TcpProxy(PLATFORM_URL)
        self.addCleanup(self.proxy.close)

    def open_room(self, *, reconnect: bool) -> "tuple[Room, str, Frame]":
        """A meeting, its room joined through the proxy, and the persona's answer to a first line."""
        scenario = make_scenario(self.client, unique("Resumed"))
        meeting = unwrap(self.client.meetings.create(scenario_id=scenario["id"], person_name="Sam Lee"))
        # The room goes through the proxy; the API calls of the test go straight to the platform.
        room = Room.connect(self.proxy.url, meeting["id"], meeting["room_token"], reconnect=reconnect)
        self.addCleanup(room.close)
        room.join()
        room.next("agent.message")
        first = room.say("I led the payments team for three years.")
        self.stored(room, first)
        self.assertEqual(room.pending, [])
        return room, meeting["id"], first

    def stored(self, room: Room, answer: Frame) -> None:
        """Waits for the persona's sentence of `answer` to be stored (its `transcript.sentence`)."""

        def is_it(frame: Frame) -> bool:
            sentence = frame.get("sentence") or {}
            return frame.get("type") == "transcript.sentence" and sentence.get("message") == answer["text"]

        if not any(is_it(f) for f in room.frames):
            room.next(is_it)

    def transcript(self, meeting_id: str) -> List[List[str]]:
        read = unwrap(self.client.meetings.get(meeting_id))
        return [[s["speaker"], s["message"]] for s in read["sentenced_transcripts"]]

    def test_a_final_said_while_cut_is_sent_again_on_the_other_instance_and_answered_once(self) -> None:
        room, meeting_id, first_answer = self.open_room(reconnect=True)

        # The connection is lost just as the participant speaks: the frame goes into a dead socket.
        self.proxy.cut()
        said = room.send_utterance("Mostly Go and PostgreSQL.")
        self.assertEqual([(f["id"], f["text"]) for f in room.pending], [(said, "Mostly Go and PostgreSQL.")])
        # The instance the room was on is gone for it: the balancer sends it to the other one, once
        # the network is back. Meanwhile the room keeps trying (and is refused).
        assert OTHER_PLATFORM_URL
        self.proxy.retarget(OTHER_PLATFORM_URL)
        restore = threading.Timer(1.5, self.proxy.restore)
        restore.start()
        self.addCleanup(restore.cancel)

        answer = room.next("agent.message", timeout=60)
        self.assertFalse(answer["interrupted"])
        self.assertGreaterEqual(self.proxy.refused, 1, "the room tried while the connection was cut")
        self.assertNotEqual(self.proxy.targets[0], self.proxy.targets[-1], "resumed on the other instance")
        joins = [f for f in room.frames if f.get("type") == "joined"]
        self.assertEqual([j["resumed"] for j in joins], [False, True])
        # The acknowledgement may come before or after the answer.
        def own(frame: Frame) -> bool:
            return frame.get("type") == "transcript.sentence" and frame.get("client_id") == said

        if not any(own(f) for f in room.frames):
            room.next(own)
        self.assertEqual(len([f for f in room.frames if own(f)]), 1, "acknowledged once")
        self.assertEqual(room.pending, [])
        self.assertEqual(room.state, "joined")

        self.stored(room, answer)
        self.assertEqual(
            self.transcript(meeting_id),
            [
                ["agent", "Hi, I am Jane. Shall we begin?"],
                ["user", "I led the payments team for three years."],
                ["agent", first_answer["text"]],
                ["user", "Mostly Go and PostgreSQL."],
                ["agent", answer["text"]],
            ],
        )
        ended = room.leave()
        self.assertEqual(ended["reason"], "participant_left")
        self.assertEqual(room.closed_code, 1000)

    def test_without_reconnect_a_drop_raises_and_rejoin_resends_what_was_pending(self) -> None:
        room, meeting_id, _ = self.open_room(reconnect=False)
        self.proxy.cut()
        said = room.send_utterance("Mostly Go and PostgreSQL.", id=unique("said"))
        with self.assertRaises(ConnectionClosed):
            room.next("agent.message", timeout=10)
        self.assertEqual(room.state, "closed")
        self.assertEqual([f["id"] for f in room.pending], [said])
        self.proxy.restore()

        joined = room.rejoin()
        self.assertTrue(joined["resumed"])
        answer = room.next("agent.message")
        # The acknowledgement may come before or after the answer.
        def own(frame: Frame) -> bool:
            return frame.get("type") == "transcript.sentence" and frame.get("client_id") == said

        ack = next((f for f in room.frames if own(f)), None) or room.next(own)
        self.assertEqual(ack["sentence"]["message"], "Mostly Go and PostgreSQL.")
        self.assertEqual(room.pending, [])
        self.stored(room, answer)
        users = [message for speaker, message in self.transcript(meeting_id) if speaker == "user"]
        self.assertEqual(users, ["I led the payments team for three years.", "Mostly Go and PostgreSQL."])
        self.assertEqual(room.leave()["reason"], "participant_left")


if __name__ == "__main__":
    unittest.main()
