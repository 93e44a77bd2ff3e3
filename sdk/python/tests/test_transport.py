"""Retries, backoff, Retry-After, idempotency keys and error classes, against a scripted loopback
server (the same behaviour against the real services is in test_platform.py and test_mailbox.py)."""

from __future__ import annotations

import email.utils
import http.server
import json
import math
import socket
import threading
import time
import unittest
from typing import Any, Callable, Dict, List, Tuple

import understudy
from understudy import Mailbox, Understudy
from understudy._http import parse_retry_after

from .support import _Server

Answer = Tuple[int, Dict[str, str], Any]


class ScriptedServer:
    """Answers the n-th request with `script[n]` (the last entry repeats) and records requests."""

    def __init__(self, script: List[Answer]) -> None:
        self.requests: List[Dict[str, Any]] = []
        requests, answers = self.requests, script

        class Handler(http.server.BaseHTTPRequestHandler):
            def handle_any(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length) if length else b""
                requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body})
                status, headers, payload = answers[min(len(requests), len(answers)) - 1]
                raw = json.dumps(payload).encode() if not isinstance(payload, bytes) else payload
                self.send_response(status)
                self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

            def log_message(self, *args: Any) -> None:
                pass

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def error(status: int, type_: str, code: str, **extra: Any) -> Dict[str, Any]:
    return {
        "status": "error",
        "message": f"{code} happened",
        "error": {"type": type_, "code": code, "message": f"{code} happened", "param": extra.get("param"), "doc_url": f"https://x/docs/errors#{code}"},
        "request_id": "req_body",
    }


class TransportTest(unittest.TestCase):
    def serve(self, script: List[Answer]) -> ScriptedServer:
        server = ScriptedServer(script)
        self.addCleanup(server.close)
        return server

    def client(self, server: ScriptedServer, cls: Callable[..., Any] = Understudy, **options: Any) -> Tuple[Any, List[float]]:
        client = cls(api_key="svc_test", base_url=server.url, **options)
        waits: List[float] = []
        client._transport._sleep = waits.append
        return client, waits

    def test_retries_429_409_in_use_and_5xx_with_one_idempotency_key(self) -> None:
        server = self.serve(
            [
                (429, {"Retry-After": "3"}, error(429, "rate_limit_error", "rate_limited")),
                (409, {"Retry-After": "1"}, error(409, "idempotency_error", "idempotency_key_in_use")),
                (503, {}, error(503, "api_error", "service_unavailable")),
                (201, {}, {"id": "p1"}),
            ]
        )
        client, waits = self.client(server, max_retries=3)
        self.assertEqual(client.personas.create(name="A", job_title="B"), {"id": "p1"})
        self.assertEqual(len(server.requests), 4)
        keys = {r["headers"]["Idempotency-Key"] for r in server.requests}
        self.assertEqual(len(keys), 1, "one key for every attempt")
        self.assertEqual(waits[:2], [3.0, 1.0], "Retry-After honoured")
        self.assertTrue(0 < waits[2] <= 2.0, "backoff without Retry-After")
        self.assertEqual(json.loads(server.requests[0]["body"]), {"name": "A", "job_title": "B"})
        self.assertEqual(server.requests[0]["headers"]["Authorization"], "Bearer svc_test")

    def test_each_operation_gets_its_own_key_and_a_given_key_is_sent(self) -> None:
        server = self.serve([(200, {}, {"ok": True})])
        client, _ = self.client(server)
        client.personas.delete("p1")
        client.personas.delete("p2")
        client.personas.delete("p3", idempotency_key="mine")
        client.personas.get("p1")
        keys = [r["headers"].get("Idempotency-Key") for r in server.requests]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "mine")
        self.assertIsNone(keys[3], "no key on reads")

    def test_retry_after_is_capped_and_retries_run_out(self) -> None:
        server = self.serve([(429, {"Retry-After": "3600"}, error(429, "rate_limit_error", "rate_limited"))])
        client, waits = self.client(server, max_retry_delay=5)
        with self.assertRaises(understudy.RateLimitError) as caught:
            client.personas.list()
        self.assertEqual(waits, [5, 5])
        self.assertEqual(len(server.requests), 3, "the default is 2 retries")
        self.assertEqual(caught.exception.code, "rate_limited")

    def test_a_per_call_max_retries(self) -> None:
        server = self.serve([(500, {}, error(500, "api_error", "internal_error"))])
        client, _ = self.client(server)
        with self.assertRaises(understudy.APIError):
            client.personas.list(max_retries=0)
        self.assertEqual(len(server.requests), 1)

    def test_4xx_are_not_retried_and_carry_every_field(self) -> None:
        server = self.serve([(400, {"X-Request-Id": "req_header"}, error(400, "invalid_request_error", "parameter_invalid", param="name"))])
        client, _ = self.client(server)
        with self.assertRaises(understudy.InvalidRequestError) as caught:
            client.personas.create(name="", job_title="x")
        e = caught.exception
        self.assertEqual((e.status, e.code, e.param, e.type), (400, "parameter_invalid", "name", "invalid_request_error"))
        self.assertEqual(e.request_id, "req_header")
        self.assertEqual(e.doc_url, "https://x/docs/errors#parameter_invalid")
        self.assertEqual(e.body["error"]["code"], "parameter_invalid")
        self.assertIn("parameter_invalid", str(e))
        self.assertEqual(len(server.requests), 1)

    def test_one_class_per_error_type(self) -> None:
        cases = [
            (401, "authentication_error", understudy.AuthenticationError),
            (403, "permission_error", understudy.PermissionDeniedError),
            (422, "idempotency_error", understudy.IdempotencyError),
            (404, "invalid_request_error", understudy.NotFoundError),
            (502, "api_error", understudy.APIError),
        ]
        for status, type_, cls in cases:
            server = self.serve([(status, {}, error(status, type_, "x"))])
            client, _ = self.client(server, max_retries=0)
            with self.assertRaises(cls):
                client.personas.get("p")
        server = self.serve([(418, {"Content-Type": "text/plain"}, b"teapot")])
        client, _ = self.client(server)
        with self.assertRaises(understudy.InvalidRequestError) as caught:
            client.personas.get("p")
        self.assertEqual(caught.exception.body, "teapot")

    def test_connection_errors_are_retried_then_raised(self) -> None:
        server = self.serve([(200, {}, {})])
        url = server.url
        server.close()
        client = Understudy(api_key="k", base_url=url)
        waits: List[float] = []
        client._transport._sleep = waits.append
        with self.assertRaises(understudy.APIConnectionError):
            client.personas.get("p")
        self.assertEqual(len(waits), 2)

    def test_the_mailbox_does_not_resend_writes_except_after_a_429(self) -> None:
        server = self.serve([(503, {}, error(503, "api_error", "service_unavailable"))])
        mailbox, _ = self.client(server, cls=Mailbox)
        with self.assertRaises(understudy.APIError):
            mailbox.inboxes.create(username="x")
        self.assertEqual(len(server.requests), 1)
        self.assertNotIn("Idempotency-Key", server.requests[0]["headers"])
        with self.assertRaises(understudy.APIError):
            mailbox.inboxes.list()
        self.assertEqual(len(server.requests), 4, "reads are retried")
        limited = self.serve([(429, {"Retry-After": "0"}, error(429, "rate_limit_error", "rate_limited")), (201, {}, {"inbox_id": "a@b"})])
        mailbox, _ = self.client(limited, cls=Mailbox)
        self.assertEqual(mailbox.inboxes.create(username="x"), {"inbox_id": "a@b"})

    def test_paths_queries_and_prefixes(self) -> None:
        server = self.serve([(200, {}, {"count": 0, "limit": 5, "next_page_token": None, "messages": []})])
        mailbox, _ = self.client(server, cls=Mailbox)
        page = mailbox.messages.list("a+b@mail.test", limit=5, from_="x@y.z", labels=["a", "b"], has_attachments=True)
        self.assertEqual(page.data, [])
        self.assertEqual(
            server.requests[0]["path"],
            "/v0/inboxes/a%2Bb%40mail.test/messages?limit=5&from=x%40y.z&labels=a&labels=b&has_attachments=true",
        )
        self.assertEqual(Mailbox(api_key="k", base_url="http://h:1/v0/").base_url, "http://h:1")

    def test_a_call_sends_only_the_callers_limit_and_iteration_follows_cursors(self) -> None:
        server = self.serve(
            [
                (200, {}, {"object": "list", "data": [{"id": 1}, {"id": 2}], "has_more": True, "next_cursor": "c1"}),
                (200, {}, {"object": "list", "data": [{"id": 3}], "has_more": False, "next_cursor": None}),
            ]
        )
        client, _ = self.client(server)
        items = list(client.memories.list(user_memory_tag="t").auto_paging_iter())
        self.assertEqual([i["id"] for i in items], [1, 2, 3])
        # The API's own default page (400 memories) for the call; 100 a page while iterating.
        self.assertEqual(server.requests[0]["path"], "/v1/memories?user_memory_tag=t")
        self.assertEqual(server.requests[1]["path"], "/v1/memories?user_memory_tag=t&limit=100&cursor=c1")
        client.goals.list(scenario_id="s1", limit=7)
        self.assertEqual(server.requests[2]["path"], "/v1/goals?limit=7&scenario_id=s1")

    def test_an_unpaginated_bare_array_is_one_page(self) -> None:
        server = self.serve([(200, {}, [{"id": 1}, {"id": 2}])])
        client, _ = self.client(server)
        page = client.personas.list()
        self.assertEqual([p["id"] for p in page.auto_paging_iter()], [1, 2])
        self.assertEqual(len(server.requests), 1)

    def test_a_repeated_cursor_stops_the_iteration(self) -> None:
        looping = {"object": "list", "data": [{"id": 1}], "has_more": True, "next_cursor": "c1"}
        server = self.serve([(200, {}, looping)])
        client, _ = self.client(server)
        with self.assertRaises(understudy.UnderstudyError) as caught:
            list(client.goals.list(limit=1).auto_paging_iter())
        self.assertIn("repeated", str(caught.exception))
        self.assertEqual(len(server.requests), 2)
        events = {"count": 1, "limit": 1, "has_more": True, "next_page_token": "t1", "events": [{"n": 1}]}
        mailbox, _ = self.client(self.serve([(200, {}, events)]), cls=Mailbox)
        with self.assertRaises(understudy.UnderstudyError):
            list(mailbox.events.list_inbox_events("i@m", limit=1).auto_paging_iter())

    def test_a_memory_tag_pages_its_nested_memories(self) -> None:
        def tag_page(ids: List[int], cursor: Any) -> Dict[str, Any]:
            memories = [{"id": n} for n in ids]
            data = {"user_memory_tag": "t", "memory_count": 3, "memories": memories}
            return {"data": data, "has_more": cursor is not None, "next_cursor": cursor}

        server = self.serve([(200, {}, tag_page([1, 2], "c1")), (200, {}, tag_page([3], None))])
        client, _ = self.client(server)
        first = client.memories.get_tag("t", limit=2)
        self.assertEqual([m["id"] for m in first.data], [1, 2])
        self.assertEqual([m["id"] for m in first.auto_paging_iter()], [1, 2, 3])
        self.assertEqual(server.requests[1]["path"], "/v1/memories/tags/t?limit=2&cursor=c1")

    def test_the_event_log_stops_at_has_more_false(self) -> None:
        server = self.serve(
            [
                (200, {}, {"count": 1, "limit": 1, "has_more": True, "next_page_token": "t1", "events": [{"n": 1}]}),
                (200, {}, {"count": 1, "limit": 1, "has_more": False, "next_page_token": "t2", "events": [{"n": 2}]}),
            ]
        )
        mailbox, _ = self.client(server, cls=Mailbox)
        self.assertEqual([e["n"] for e in mailbox.events.list_inbox_events("i@m", limit=1).auto_paging_iter()], [1, 2])
        self.assertEqual(len(server.requests), 2)
        self.assertIn("page_token=t1", server.requests[1]["path"])

    def test_multipart_bodies(self) -> None:
        server = self.serve([(201, {}, {"ok": True})])
        client, _ = self.client(server)
        client.scenarios.create_with_gpt(userInput="Mock interview", duration=20, file=("cv.txt", b"hello", "text/plain"))
        request = server.requests[0]
        self.assertTrue(request["headers"]["Content-Type"].startswith("multipart/form-data; boundary="))
        self.assertIn(b'name="userInput"\r\n\r\nMock interview', request["body"])
        self.assertIn(b'name="duration"\r\n\r\n20', request["body"])
        self.assertIn(b'filename="cv.txt"\r\nContent-Type: text/plain\r\n\r\nhello', request["body"])

    def test_a_timeout_is_an_api_timeout_error(self) -> None:
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # accepts the connection, never answers
        self.addCleanup(silent.close)
        client = Understudy(api_key="k", base_url=f"http://127.0.0.1:{silent.getsockname()[1]}", timeout=0.2, max_retries=0)
        with self.assertRaises(understudy.APITimeoutError):
            client.personas.get("p")

    def test_a_non_finite_retry_after_is_as_if_absent(self) -> None:
        for value in ("nan", "inf", "-inf", "NaN"):
            self.assertIsNone(parse_retry_after(value), value)
        server = self.serve([(503, {"Retry-After": "nan"}, error(503, "api_error", "service_unavailable")), (200, {}, {"ok": 1})])
        client, waits = self.client(server)
        self.assertEqual(client.personas.get("p"), {"ok": 1})
        self.assertTrue(all(math.isfinite(wait) and wait >= 0 for wait in waits), waits)

    def test_both_clients_use_the_base_constructor(self) -> None:
        # Set-up lives in BaseClient alone: a copy in a subclass drifts from it.
        for cls in (Understudy, Mailbox):
            self.assertNotIn("__init__", vars(cls), cls.__name__)
        self.assertTrue(hasattr(Mailbox(api_key="k", max_retries=5), "inboxes"))
        self.assertEqual(Understudy(api_key="k", max_retries=5)._transport.max_retries, 5)

    def test_parse_retry_after(self) -> None:
        self.assertEqual(parse_retry_after("2"), 2.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))
        later = email.utils.formatdate(time.time() + 30, usegmt=True)
        delay = parse_retry_after(later)
        assert delay is not None
        self.assertTrue(25 <= delay <= 31)

    def test_an_http_date_retry_after_is_honoured(self) -> None:
        later = email.utils.formatdate(time.time() + 3600, usegmt=True)
        server = self.serve([(503, {"Retry-After": later}, error(503, "api_error", "service_unavailable")), (200, {}, {"ok": 1})])
        client, waits = self.client(server, max_retry_delay=7)
        client.personas.get("p")
        self.assertEqual(waits, [7])


if __name__ == "__main__":
    unittest.main()
