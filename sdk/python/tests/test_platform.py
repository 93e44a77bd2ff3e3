"""The platform client against a real server (started by server/test/sdk/python-sdk.test.ts)."""

from __future__ import annotations

import unittest
from typing import Any, Dict, List

import understudy
from understudy import NotFoundError, Understudy, verify_webhook, WebhookVerificationError

from .support import (
    API_KEY,
    PLATFORM_URL,
    FlakyProxy,
    WebhookReceiver,
    http_answer,
    needs_platform,
    unique,
    unwrap,
)


def make_scenario(client: Understudy, name: str) -> Dict[str, Any]:
    persona = unwrap(
        client.personas.create(
            name="Jane Doe", job_title="Engineering Manager", demeanor="friendly", background="Hires engineers.", gender="female"
        )
    )
    goal = unwrap(client.goals.create(name="Explains impact", description="Results", instructions="Score 1 to 10"))
    return unwrap(
        client.scenarios.create(
            name=name,
            type="interview",
            persona_id=persona["id"],
            prompt="## Questions\n1. Ask about their background.\n2. Ask about a system they designed.",
            welcome_message="Hi, I am Jane. Shall we begin?",
            call_duration=30,
            goals=[goal["id"]],
        )
    )


@needs_platform
class PlatformTest(unittest.TestCase):
    client: Understudy

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Understudy(api_key=API_KEY, base_url=PLATFORM_URL)

    def test_crud_and_a_typed_404(self) -> None:
        persona = unwrap(self.client.personas.create(name=unique("Persona"), job_title="CTO"))
        self.assertEqual(unwrap(self.client.personas.get(persona["id"]))["job_title"], "CTO")
        self.client.personas.delete(persona["id"])
        with self.assertRaises(NotFoundError) as caught:
            self.client.personas.get(persona["id"])
        error = caught.exception
        self.assertIsInstance(error, understudy.InvalidRequestError)
        self.assertEqual(error.status, 404)
        self.assertEqual(error.code, "resource_not_found")
        self.assertEqual(error.type, "invalid_request_error")
        self.assertEqual(error.param, "id")
        self.assertTrue(error.request_id)
        self.assertIn("resource_not_found", error.doc_url or "")
        self.assertEqual(error.body["error"]["code"], "resource_not_found")

    def test_a_bad_parameter_names_it(self) -> None:
        with self.assertRaises(understudy.InvalidRequestError) as caught:
            self.client.personas.create(name="", job_title="CTO")
        self.assertEqual(caught.exception.status, 400)
        self.assertEqual(caught.exception.param, "name")

    def test_a_wrong_key_is_an_authentication_error(self) -> None:
        stranger = Understudy(api_key="svc_" + "0" * 64, base_url=PLATFORM_URL)
        with self.assertRaises(understudy.AuthenticationError) as caught:
            stranger.personas.list()
        self.assertEqual(caught.exception.status, 401)

    def test_walks_a_list_of_more_than_one_page(self) -> None:
        tag = unique("paged")
        created = [unwrap(self.client.goals.create(name=f"{tag}-{i}", description="d", instructions="i"))["id"] for i in range(5)]
        first = self.client.goals.list(limit=2)
        self.assertEqual(len(first.data), 2)
        self.assertTrue(first.has_more)
        seen: List[str] = [goal["id"] for goal in self.client.goals.list(limit=2).auto_paging_iter()]
        self.assertEqual(len(seen), len(set(seen)), "no item twice")
        for goal_id in created:
            self.assertIn(goal_id, seen)

    def test_retries_a_429_after_retry_after(self) -> None:
        def once_429(number: int, request: bytes) -> Any:
            if number == 1:
                body = {"status": "error", "message": "Slow down.", "error": {"type": "rate_limit_error", "code": "rate_limited", "message": "Slow down.", "param": None}, "request_id": "req_proxy"}
                return http_answer(429, "Too Many Requests", {"Retry-After": "1"}, body)
            return None

        proxy = FlakyProxy(PLATFORM_URL or "", once_429)
        try:
            client = Understudy(api_key=API_KEY, base_url=proxy.url)
            waits: List[float] = []
            real_sleep = client._transport._sleep
            client._transport._sleep = lambda seconds: (waits.append(seconds), real_sleep(seconds))  # type: ignore[assignment]
            page = client.personas.list(limit=1)
            self.assertIsInstance(page, understudy.Page)
            self.assertEqual(len(proxy.requests), 2)
            self.assertEqual(waits, [1.0], "waited exactly what Retry-After asked")
        finally:
            proxy.close()

    def test_a_429_is_raised_when_retries_run_out(self) -> None:
        always = lambda number, request: http_answer(429, "Too Many Requests", {"Retry-After": "0"}, {"error": {"type": "rate_limit_error", "code": "rate_limited", "message": "No."}})
        proxy = FlakyProxy(PLATFORM_URL or "", always)
        try:
            client = Understudy(api_key=API_KEY, base_url=proxy.url, max_retries=1)
            with self.assertRaises(understudy.RateLimitError) as caught:
                client.personas.list()
            self.assertEqual(caught.exception.headers.get("retry-after"), "0")
            self.assertEqual(len(proxy.requests), 2)
        finally:
            proxy.close()

    def test_replays_a_write_whose_answer_was_lost(self) -> None:
        # The first POST reaches the server and runs; its answer is dropped on the way back.
        proxy = FlakyProxy(PLATFORM_URL or "", lambda number, request: b"" if number == 1 else None)
        try:
            client = Understudy(api_key=API_KEY, base_url=proxy.url)
            name = unique("Replayed")
            persona = unwrap(client.personas.create(name=name, job_title="Lost answer"))
            self.assertEqual(len(proxy.requests), 2)
            first_key = proxy.headers_of(0)["idempotency-key"]
            self.assertTrue(first_key)
            self.assertEqual(proxy.headers_of(1)["idempotency-key"], first_key, "the retry reuses the key")
            same_name = [p for p in self.client.personas.list(limit=100).auto_paging_iter() if p["name"] == name]
            self.assertEqual([p["id"] for p in same_name], [persona["id"]], "exactly one persona exists")
        finally:
            proxy.close()

    def test_an_explicit_idempotency_key_replays(self) -> None:
        key = unique("key")
        name = unique("Keyed")
        first = unwrap(self.client.personas.create(name=name, job_title="CTO", idempotency_key=key))
        second = unwrap(self.client.personas.create(name=name, job_title="CTO", idempotency_key=key))
        self.assertEqual(first["id"], second["id"])
        with self.assertRaises(understudy.IdempotencyError) as caught:
            self.client.personas.create(name=unique("Other"), job_title="CTO", idempotency_key=key)
        self.assertEqual(caught.exception.code, "idempotency_key_reuse")

    def test_verifies_webhooks_the_server_sent_through_a_rotation(self) -> None:
        receiver = WebhookReceiver()
        try:
            endpoint = unwrap(self.client.webhooks.create_endpoint(url=receiver.url, subscribed_events=["meeting.created"]))
            secret = endpoint["signing_secret"]
            scenario = make_scenario(self.client, unique("Hooked"))
            meeting = unwrap(self.client.meetings.create(scenario_id=scenario["id"], person_name="Sam Lee"))

            headers, body = receiver.wait(lambda h, b: meeting["id"] in b.decode(), "the meeting.created delivery")
            event = verify_webhook(body, headers, secret)
            self.assertEqual(event["event"], "meeting.created")
            self.assertEqual(event["data"]["meeting_id"], meeting["id"])
            with self.assertRaises(WebhookVerificationError) as wrong:
                verify_webhook(body, headers, "whsec_wrong")
            self.assertEqual(wrong.exception.reason, "no_matching_signature")
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(body.replace(b"meeting.created", b"meeting.ended"), headers, secret)
            with self.assertRaises(WebhookVerificationError) as late:
                verify_webhook(body, headers, secret, now=understudy.verify_service_signature(headers["Service-Signature"], body, secret) + 301)
            self.assertEqual(late.exception.reason, "timestamp_outside_tolerance")

            rotated = unwrap(self.client.webhooks.rotate_endpoint_secret(endpoint["id"]))
            new_secret = rotated["signing_secret"]
            self.assertNotEqual(new_secret, secret)
            second = unwrap(self.client.meetings.create(scenario_id=scenario["id"], person_name="Ada"))
            headers, body = receiver.wait(lambda h, b: second["id"] in b.decode(), "the delivery after rotation")
            self.assertEqual(headers["Service-Signature"].count("v1="), 2)
            verify_webhook(body, headers, [new_secret])
            verify_webhook(body, headers, [secret])
            verify_webhook(body, headers, ["whsec_unrelated", new_secret])
        finally:
            receiver.close()

    def test_plays_a_participant_in_the_room(self) -> None:
        scenario = make_scenario(self.client, unique("Roomed"))
        meeting = unwrap(self.client.meetings.create(scenario_id=scenario["id"], person_name="Sam Lee"))
        with self.client.connect_room(meeting["id"], meeting["room_token"]) as room:
            joined = room.join()
            self.assertEqual(joined["meeting"]["status"], "active")
            self.assertEqual(joined["persona"]["name"], "Jane Doe")
            welcome = room.next("agent.message")
            self.assertEqual(welcome["text"], "Hi, I am Jane. Shall we begin?")
            pong = room.ping()
            self.assertIn("server_time", pong)
            answer = room.say("Yes, ready.", id="u1")
            self.assertRegex(answer["text"], "(?i)background")
            # The participant's own sentence may come before or after the persona's answer.
            def own(frame: Dict[str, Any]) -> bool:
                return frame.get("type") == "transcript.sentence" and frame.get("client_id") == "u1"

            said = next((f for f in room.frames if own(f)), None) or room.next(own)
            self.assertEqual(said["sentence"]["speaker"], "user")
            ended = room.leave()
            self.assertEqual(ended["reason"], "participant_left")
        self.assertEqual(room.closed_code, 1000)
        read = unwrap(self.client.meetings.get(meeting["id"]))
        self.assertEqual(read["status"], "ended")

    def test_a_wrong_room_token_is_refused_before_the_socket_opens(self) -> None:
        scenario = make_scenario(self.client, unique("Refused"))
        meeting = unwrap(self.client.meetings.create(scenario_id=scenario["id"], person_name="Sam Lee"))
        with self.assertRaises(understudy.websocket.HandshakeError) as caught:
            self.client.connect_room(meeting["id"], "x" * 43)
        self.assertEqual(caught.exception.status, 404)

    def test_the_room_token_opens_the_rooms_http_operations(self) -> None:
        self.assertFalse(hasattr(self.client, "room"), "the API-key client has no room operations")
        scenario = make_scenario(self.client, unique("Uploaded"))
        meeting = unwrap(self.client.meetings.create(scenario_id=scenario["id"], person_name="Sam Lee"))
        with self.client.connect_room(meeting["id"], meeting["room_token"]) as room:
            room.join(consent_recording=True, recording=True)
            room.next("agent.message")
            room.leave()
        self.assertEqual(room.welcome()["meeting"]["id"], meeting["id"])
        transcript = room.transcript()
        self.assertEqual(transcript["status"], "ended")
        self.assertEqual(transcript["sentences"][0]["message"], "Hi, I am Jane. Shall we begin?")
        # The scenario does not share results with the participant (the default).
        with self.assertRaises(NotFoundError) as not_shared:
            room.results()
        self.assertEqual(not_shared.exception.code, "results_not_shared")
        # A WebM starts with the EBML magic number; a PNG with its signature.
        media = bytes([0x1A, 0x45, 0xDF, 0xA3]) + bytes(4096)
        uploaded = room.upload_recording(media, "video/webm")
        self.assertEqual(uploaded, {"status": "uploaded", "size": len(media), "content_type": "video/webm"})
        png = bytes.fromhex("89504e470d0a1a0a0000000d49484452")
        self.assertEqual(room.upload_thumbnail(png, "image/png")["size"], len(png))
        recording = unwrap(self.client.recordings.get_with_thumbnail(meeting["id"]))
        self.assertEqual(recording["size_bytes"], len(media))


if __name__ == "__main__":
    unittest.main()
