"""Verifying webhook deliveries of both services on the raw body, before parsing it.

- ``Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`` (platform endpoints and the legacy
  per-scenario webhook): each ``v1`` is HMAC-SHA256(secret, ``<t>.<raw body>``); two ``v1`` during
  the 24 hours after a rotation. Timestamps further than the tolerance (5 minutes) are refused.
- ``X-Service-Signature: sha256=<hex>`` (legacy per-scenario webhook): HMAC-SHA256 of the body alone.
- ``X-Mailbox-Signature: <hex>`` (mailbox webhooks): HMAC-SHA256 of the body alone.

Every comparison is constant-time and every secret is tried (no early exit), so timing reveals
neither the expected signature nor which secret matched.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from typing import Any, Mapping, Optional, Sequence, Union

DEFAULT_TOLERANCE_SECONDS = 300

_HEX_SIGNATURE = re.compile(r"^[0-9a-fA-F]{64}$")

Secrets = Union[str, Sequence[str]]
Payload = Union[bytes, bytearray, str]


class WebhookVerificationError(Exception):
    """The delivery is not authentic. ``reason`` is one of ``missing_header``,
    ``malformed_header``, ``timestamp_outside_tolerance`` or ``no_matching_signature``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def verify_webhook(
    payload: Payload,
    headers: Mapping[str, str],
    secrets: Secrets,
    *,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Any:
    """Checks a delivery of either service and returns its parsed JSON body.

    ``payload`` is the body exactly as received; ``headers`` the request's headers (any case);
    ``secrets`` the signing secret, or every secret you accept (new and previous during a
    rotation). ``Service-Signature`` is preferred when present; otherwise ``X-Service-Signature``
    or ``X-Mailbox-Signature`` is checked. Raises :class:`WebhookVerificationError`.
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    if "service-signature" in lowered:
        verify_service_signature(lowered["service-signature"], payload, secrets, tolerance=tolerance, now=now)
    elif "x-service-signature" in lowered:
        verify_legacy_signature(lowered["x-service-signature"], payload, secrets)
    elif "x-mailbox-signature" in lowered:
        verify_mailbox_signature(lowered["x-mailbox-signature"], payload, secrets)
    else:
        raise WebhookVerificationError(
            "missing_header", "No Service-Signature, X-Service-Signature or X-Mailbox-Signature header."
        )
    return json.loads(_bytes(payload))


def verify_service_signature(
    header: Optional[str],
    payload: Payload,
    secrets: Secrets,
    *,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> int:
    """Checks a ``Service-Signature`` header; returns its timestamp (unix seconds)."""
    timestamp, candidates = parse_service_signature(header)
    current = time.time() if now is None else now
    if abs(int(current) - timestamp) > tolerance:
        raise WebhookVerificationError(
            "timestamp_outside_tolerance",
            f"The signature's timestamp is more than {tolerance} seconds from now (a replay, or a skewed clock).",
        )
    signed = str(timestamp).encode("ascii") + b"." + _bytes(payload)
    expected = [_hmac_hex(secret, signed) for secret in _secret_list(secrets)]
    if not _any_match(expected, candidates):
        raise WebhookVerificationError("no_matching_signature", "No signature matches any of the secrets.")
    return timestamp


def parse_service_signature(header: Optional[str]) -> tuple[int, list[str]]:
    """``(timestamp, [v1 hex…])`` of a ``Service-Signature`` header. Unknown schemes (a future
    ``v2``) are ignored, so receivers keep working through an upgrade."""
    if not header:
        raise WebhookVerificationError("missing_header", "No Service-Signature header.")
    timestamp: Optional[int] = None
    signatures: list[str] = []
    for part in header.split(","):
        key, separator, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not separator or not key:
            continue
        if key == "t" and value.isdigit() and len(value) <= 12:
            timestamp = int(value)
        elif key == "v1" and _HEX_SIGNATURE.match(value):
            signatures.append(value.lower())
    if timestamp is None or not signatures:
        raise WebhookVerificationError("malformed_header", "Service-Signature must be t=<seconds>,v1=<hex>.")
    return timestamp, signatures


def verify_legacy_signature(header: Optional[str], payload: Payload, secrets: Secrets) -> None:
    """Checks the legacy ``X-Service-Signature: sha256=<hex>`` (HMAC of the body alone)."""
    if not header:
        raise WebhookVerificationError("missing_header", "No X-Service-Signature header.")
    scheme, _, value = header.strip().partition("=")
    if scheme != "sha256" or not _HEX_SIGNATURE.match(value):
        raise WebhookVerificationError("malformed_header", "X-Service-Signature must be sha256=<hex>.")
    _check_body_signature(value.lower(), payload, secrets)


def verify_mailbox_signature(header: Optional[str], payload: Payload, secrets: Secrets) -> None:
    """Checks ``X-Mailbox-Signature: <hex>`` (HMAC of the body alone)."""
    if not header:
        raise WebhookVerificationError("missing_header", "No X-Mailbox-Signature header.")
    value = header.strip()
    if not _HEX_SIGNATURE.match(value):
        raise WebhookVerificationError("malformed_header", "X-Mailbox-Signature must be a hex HMAC-SHA256.")
    _check_body_signature(value.lower(), payload, secrets)


def sign_service_payload(payload: Payload, secrets: Secrets, *, timestamp: Optional[int] = None) -> str:
    """A ``Service-Signature`` value for ``payload``, as the platform signs: for your own tests."""
    t = int(time.time()) if timestamp is None else timestamp
    signed = str(t).encode("ascii") + b"." + _bytes(payload)
    return ",".join([f"t={t}", *(f"v1={_hmac_hex(secret, signed)}" for secret in _secret_list(secrets))])


def _check_body_signature(candidate: str, payload: Payload, secrets: Secrets) -> None:
    expected = [_hmac_hex(secret, _bytes(payload)) for secret in _secret_list(secrets)]
    if not _any_match(expected, [candidate]):
        raise WebhookVerificationError("no_matching_signature", "The signature matches none of the secrets.")


def _any_match(expected: Sequence[str], candidates: Sequence[str]) -> bool:
    matched = False
    for want in expected:
        for given in candidates:
            if hmac.compare_digest(want, given):
                matched = True
    return matched


def _hmac_hex(secret: str, content: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), content, hashlib.sha256).hexdigest()


def _secret_list(secrets: Secrets) -> list[str]:
    listed = [secrets] if isinstance(secrets, str) else list(secrets)
    if not listed:
        raise ValueError("At least one signing secret is needed.")
    return listed


def _bytes(payload: Payload) -> bytes:
    return payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
