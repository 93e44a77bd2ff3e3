"""The mailbox client against a real mailbox service (started by server/test/sdk/python-sdk.test.ts)."""

from __future__ import annotations

import unittest
from typing import Any, List

import understudy
from understudy import Mailbox, NotFoundError, verify_webhook, WebhookVerificationError

from .support import API_KEY, MAILBOX_URL, FlakyProxy, WebhookReceiver, http_answer, needs_mailbox, unique


@needs_mailbox
class MailboxTest(unittest.TestCase):
    mailbox: Mailbox

    @classmethod
    def setUpClass(cls) -> None:
        cls.mailbox = Mailbox(api_key=API_KEY, base_url=MAILBOX_URL)

    def test_walks_inboxes_over_more_than_one_page(self) -> None:
        created = [self.mailbox.inboxes.create(username=unique("walk"))["inbox_id"] for _ in range(3)]
        first = self.mailbox.inboxes.list(limit=2)
        self.assertEqual(len(first.data), 2)
        self.assertIs(first.data, first["inboxes"])
        self.assertTrue(first.has_more)
        seen: List[str] = [inbox["inbox_id"] for inbox in self.mailbox.inboxes.list(limit=2).auto_paging_iter()]
        self.assertEqual(len(seen), len(set(seen)))
        for inbox_id in created:
            self.assertIn(inbox_id, seen)

    def test_a_missing_inbox_is_a_typed_404(self) -> None:
        with self.assertRaises(NotFoundError) as caught:
            self.mailbox.inboxes.get(f"{unique('nobody')}@mail.localhost")
        self.assertEqual(caught.exception.status, 404)
        self.assertEqual(caught.exception.type, "invalid_request_error")
        self.assertTrue(caught.exception.request_id)

    def test_reads_are_retried_after_a_429_and_writes_are_not_resent_after_a_lost_answer(self) -> None:
        rate_limited = http_answer(429, "Too Many Requests", {"Retry-After": "0"}, {"error": {"type": "rate_limit_error", "code": "rate_limited", "message": "Wait."}})
        proxy = FlakyProxy(MAILBOX_URL or "", lambda number, request: rate_limited if number == 1 else None)
        try:
            client = Mailbox(api_key=API_KEY, base_url=proxy.url)
            self.assertIn("inboxes", client.inboxes.list(limit=1))
            self.assertEqual(len(proxy.requests), 2)
        finally:
            proxy.close()
        # The mailbox keeps no idempotency records: a POST whose answer was lost is not sent again.
        lossy = FlakyProxy(MAILBOX_URL or "", lambda number, request: b"" if number == 1 else None)
        try:
            client = Mailbox(api_key=API_KEY, base_url=lossy.url)
            with self.assertRaises(understudy.APIConnectionError):
                client.inboxes.create(username=unique("lost"))
            self.assertEqual(len(lossy.requests), 1)
        finally:
            lossy.close()

    def test_verifies_a_delivery_the_mailbox_sent(self) -> None:
        receiver = WebhookReceiver()
        try:
            sender = self.mailbox.inboxes.create(username=unique("sender"))
            recipient = self.mailbox.inboxes.create(username=unique("recipient"))
            hook = self.mailbox.webhooks.create(
                url=receiver.url, event_types=["message.received"], inbox_ids=[recipient["inbox_id"]]
            )
            subject = unique("Hello")
            self.mailbox.messages.send(sender["inbox_id"], to=[recipient["inbox_id"]], subject=subject, text="Hi there.")
            headers, body = receiver.wait(lambda h, b: subject.encode() in b, "the message.received delivery")
            self.assertIn("X-Mailbox-Signature", headers)
            event: Any = self.mailbox.verify_webhook(body, headers, hook["secret"])
            with self.assertRaises(WebhookVerificationError) as missing:
                verify_webhook(body, headers, hook["secret"])  # Service-Signature only, by default
            self.assertEqual(missing.exception.reason, "missing_header")
            self.assertEqual(headers["X-Mailbox-Event"], "message.received")
            self.assertEqual(event["message"]["subject"], subject)
            with self.assertRaises(WebhookVerificationError) as caught:
                verify_webhook(body + b" ", headers, hook["secret"], schemes=("mailbox",))
            self.assertEqual(caught.exception.reason, "no_matching_signature")

            messages = self.mailbox.messages.list(recipient["inbox_id"], limit=1)
            self.assertEqual(messages.data[0]["subject"], subject)
            found = [m for m in self.mailbox.messages.list(recipient["inbox_id"], limit=1).auto_paging_iter()]
            self.assertEqual(len(found), 1)
            message = self.mailbox.messages.get(recipient["inbox_id"], found[0]["message_id"])
            self.assertEqual(message["subject"], subject)
        finally:
            receiver.close()


if __name__ == "__main__":
    unittest.main()
