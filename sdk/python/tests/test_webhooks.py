"""Webhook verification of all three headers, without a server (the server-sent deliveries are
checked in test_platform.py and test_mailbox.py)."""

from __future__ import annotations

import hashlib
import hmac
import unittest

from understudy import (
    WebhookVerificationError,
    sign_service_payload,
    verify_legacy_signature,
    verify_mailbox_signature,
    verify_service_signature,
    verify_webhook,
)

BODY = b'{"id":"evt_1","event":"meeting.created","data":{"meeting_id":"m1"}}'
NOW = 1_793_534_400


def hex_hmac(secret: str, content: bytes) -> str:
    return hmac.new(secret.encode(), content, hashlib.sha256).hexdigest()


class ServiceSignatureTest(unittest.TestCase):
    def test_the_documented_example_verifies(self) -> None:
        # The platform's scheme, computed here independently of the SDK's signer.
        header = f"t={NOW},v1={hex_hmac('whsec_a', f'{NOW}.'.encode() + BODY)}"
        self.assertEqual(verify_service_signature(header, BODY, "whsec_a", now=NOW), NOW)
        self.assertEqual(verify_webhook(BODY, {"service-signature": header}, "whsec_a", now=NOW)["id"], "evt_1")

    def test_either_secret_of_a_rotation_is_accepted(self) -> None:
        header = sign_service_payload(BODY, ["whsec_new", "whsec_old"], timestamp=NOW)
        self.assertEqual(header.count("v1="), 2)
        for secrets in (["whsec_new"], ["whsec_old"], ["whsec_other", "whsec_old"]):
            verify_service_signature(header, BODY, secrets, now=NOW)
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_service_signature(header, BODY, ["whsec_other"], now=NOW)
        self.assertEqual(caught.exception.reason, "no_matching_signature")

    def test_five_minutes_of_tolerance_either_way(self) -> None:
        header = sign_service_payload(BODY, "s", timestamp=NOW)
        verify_service_signature(header, BODY, "s", now=NOW + 300)
        verify_service_signature(header, BODY, "s", now=NOW - 300)
        for now in (NOW + 301, NOW - 301):
            with self.assertRaises(WebhookVerificationError) as caught:
                verify_service_signature(header, BODY, "s", now=now)
            self.assertEqual(caught.exception.reason, "timestamp_outside_tolerance")
        verify_service_signature(header, BODY, "s", now=NOW + 900, tolerance=900)

    def test_the_raw_body_is_what_is_signed(self) -> None:
        header = sign_service_payload(BODY, "s", timestamp=NOW)
        verify_service_signature(header, BODY.decode(), "s", now=NOW)
        with self.assertRaises(WebhookVerificationError):
            verify_service_signature(header, BODY.replace(b"m1", b"m2"), "s", now=NOW)

    def test_malformed_headers(self) -> None:
        for header in ("", "v1=abc", f"t={NOW}", f"t=soon,v1={'a' * 64}", f"t={NOW},v1=xyz", "garbage"):
            with self.assertRaises(WebhookVerificationError) as caught:
                verify_service_signature(header, BODY, "s", now=NOW)
            self.assertIn(caught.exception.reason, ("malformed_header", "missing_header"), header)

    def test_unknown_schemes_are_ignored(self) -> None:
        header = sign_service_payload(BODY, "s", timestamp=NOW) + ",v2=whatever"
        verify_service_signature(header, BODY, "s", now=NOW)


class BodySignatureTest(unittest.TestCase):
    def test_legacy_x_service_signature(self) -> None:
        header = f"sha256={hex_hmac('whsec_legacy', BODY)}"
        verify_legacy_signature(header, BODY, "whsec_legacy")
        delivery = {"X-Service-Signature": header}
        self.assertEqual(verify_webhook(BODY, delivery, ["whsec_legacy"], schemes=("legacy",))["event"], "meeting.created")
        with self.assertRaises(WebhookVerificationError):
            verify_legacy_signature(header, BODY + b"\n", "whsec_legacy")
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_legacy_signature(hex_hmac("whsec_legacy", BODY), BODY, "whsec_legacy")
        self.assertEqual(caught.exception.reason, "malformed_header")

    def test_x_mailbox_signature(self) -> None:
        header = hex_hmac("whsec_mail", BODY)
        verify_mailbox_signature(header.upper(), BODY, "whsec_mail")
        self.assertEqual(verify_webhook(BODY, {"x-mailbox-signature": header}, "whsec_mail", schemes=("mailbox",))["id"], "evt_1")
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_mailbox_signature(header, BODY, ["whsec_other"])
        self.assertEqual(caught.exception.reason, "no_matching_signature")

    def test_service_signature_is_preferred_and_a_missing_header_is_refused(self) -> None:
        headers = {
            "Service-Signature": sign_service_payload(BODY, "s", timestamp=NOW),
            "X-Service-Signature": "sha256=" + "0" * 64,
        }
        verify_webhook(BODY, headers, "s", now=NOW)
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(BODY, {"Content-Type": "application/json"}, "s")
        self.assertEqual(caught.exception.reason, "missing_header")

    def test_a_stripped_service_signature_does_not_downgrade_to_the_body_only_schemes(self) -> None:
        # A captured legacy delivery carries both headers; replayed without Service-Signature, the
        # body-only signature would verify forever (it has no timestamp).
        legacy = {"X-Service-Signature": f"sha256={hex_hmac('s', BODY)}"}
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(BODY, legacy, "s", now=NOW)
        self.assertEqual(caught.exception.reason, "missing_header")
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY, legacy, "s", schemes=("mailbox",))
        as_mailbox = {"X-Mailbox-Signature": legacy["X-Service-Signature"]}
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(BODY, as_mailbox, "s", schemes=("legacy",))
        self.assertEqual(verify_webhook(BODY, legacy, "s", schemes=("service", "legacy"))["id"], "evt_1")
        with self.assertRaises(ValueError):
            verify_webhook(BODY, legacy, "s", schemes="legacy")

    def test_no_secret_is_a_programming_error(self) -> None:
        header = hex_hmac("", BODY)
        for secrets in ([], "", None, ["whsec_ok", ""], ["whsec_ok", None]):
            with self.assertRaises(ValueError, msg=repr(secrets)):
                verify_mailbox_signature(header, BODY, secrets)  # type: ignore[arg-type]
            with self.assertRaises(ValueError, msg=repr(secrets)):
                verify_webhook(BODY, {"X-Mailbox-Signature": header}, secrets, schemes=("mailbox",))  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()
