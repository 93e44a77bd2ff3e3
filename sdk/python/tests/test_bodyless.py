"""Operations that take no body, called the ways Python code calls them: through the SDK, and with
urllib the way `requests.post(url, json={})`, `urlopen(Request(url, data=b""))` and hand-written
`json.dumps(body or {})` wrappers do. Every absent body is accepted; a body with a field is refused
naming it."""

from __future__ import annotations

import json
import unittest
import urllib.error
import urllib.request
from typing import Any, Optional, Tuple

from understudy import Mailbox, Understudy

from .support import API_KEY, MAILBOX_URL, PLATFORM_URL, needs_mailbox, needs_platform, unique, unwrap


def raw(base: str, method: str, path: str, data: Optional[bytes], content_type: Optional[str]) -> Tuple[int, Any]:
    headers = {"Authorization": f"Bearer {API_KEY}"}
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read().decode("utf-8")
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as answer:
        return answer.code, json.loads(answer.read().decode("utf-8"))


# (data, Content-Type): what each idiom puts on the wire for "no body".
ABSENT = [
    (None, None),  # urlopen(Request(url, method="POST"))
    (b"", None),  # urlopen(Request(url, data=b"")): urllib adds a form Content-Type
    (b"", "application/json"),  # a client configured with a default JSON content type
    (b"{}", "application/json"),  # requests.post(url, json={})
    (b"null", "application/json"),  # json.dumps(None)
]


@needs_platform
class PlatformBodylessTest(unittest.TestCase):
    client: Understudy

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = Understudy(api_key=API_KEY, base_url=PLATFORM_URL)

    def endpoint(self) -> str:
        created = unwrap(self.client.webhooks.create_endpoint(url="https://example.com/hook"))
        return str(created["id"])

    def test_the_sdk_calls_bodyless_operations(self) -> None:
        endpoint_id = self.endpoint()
        rotated = unwrap(self.client.webhooks.rotate_endpoint_secret(endpoint_id))
        self.assertTrue(json.dumps(rotated))
        self.client.webhooks.delete_endpoint(endpoint_id)

    def test_every_absent_body_is_accepted(self) -> None:
        endpoint_id = self.endpoint()
        for data, content_type in ABSENT:
            status, body = raw(PLATFORM_URL, "POST", f"/v1/webhooks/endpoints/{endpoint_id}/rotate-secret", data, content_type)
            self.assertEqual(status, 200, f"{data!r} {content_type}: {body}")
        status, body = raw(PLATFORM_URL, "DELETE", f"/v1/webhooks/endpoints/{endpoint_id}", b"{}", "application/json")
        self.assertIn(status, (200, 204), body)

    def test_a_body_that_carries_a_field_is_refused_naming_it(self) -> None:
        endpoint_id = self.endpoint()
        status, body = raw(
            PLATFORM_URL, "POST", f"/v1/webhooks/endpoints/{endpoint_id}/rotate-secret", b'{"expire_old": true}', "application/json"
        )
        self.assertEqual(status, 400, body)
        self.assertEqual(body["error"]["param"], "expire_old")


@needs_mailbox
class MailboxBodylessTest(unittest.TestCase):
    mailbox: Mailbox

    @classmethod
    def setUpClass(cls) -> None:
        cls.mailbox = Mailbox(api_key=API_KEY, base_url=MAILBOX_URL)

    def test_an_inbox_from_an_empty_body_deleted_with_every_absent_body(self) -> None:
        for data, content_type in ABSENT:
            status, inbox = raw(MAILBOX_URL, "POST", "/v0/inboxes", data, content_type)
            self.assertEqual(status, 201, f"{data!r} {content_type}: {inbox}")
            path = "/v0/inboxes/" + urllib.request.quote(inbox["inbox_id"], safe="")
            status, body = raw(MAILBOX_URL, "DELETE", path, data, content_type)
            self.assertIn(status, (200, 204), f"{data!r} {content_type}: {body}")

    def test_the_sdk_deletes_an_inbox(self) -> None:
        inbox = self.mailbox.inboxes.create(username=unique("bodyless"))
        self.mailbox.inboxes.delete(inbox["inbox_id"])
