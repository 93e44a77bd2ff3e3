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


#: The header each scheme signs with: ``service`` is timestamped, the other two sign the body alone.
SCHEME_HEADERS = {
    "service": "service-signature",
    "legacy": "x-service-signature",
    "mailbox": "x-mailbox-signature",
}


def verify_webhook(
    payload: Payload,
    headers: Mapping[str, str],
    secrets: Secrets,
    *,
    schemes: Sequence[str] = ("service",),
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Any:
    """Checks a delivery and returns its parsed JSON body.

    ``payload`` is the body exactly as received; ``headers`` the request's headers (any case);
    ``secrets`` the signing secret, or every secret you accept (new and previous during a
    rotation). Only the schemes named in ``schemes`` are checked: by default the timestamped
    ``Service-Signature`` alone. The body-only ``"legacy"`` (``X-Service-Signature``) and
    ``"mailbox"`` (``X-Mailbox-Signature``) carry no timestamp, so a captured delivery verifies
    under them forever: name them only on an endpoint that receives them. A header of a scheme not
    named is ignored, so stripping ``Service-Signature`` does not downgrade the check. Raises
    :class:`WebhookVerificationError`, or ``ValueError`` for an empty secret or an unknown scheme.
    """
    _secret_list(secrets)
    unknown = [scheme for scheme in schemes if scheme not in SCHEME_HEADERS]
    if unknown or isinstance(schemes, str):
        raise ValueError(f"schemes must be a sequence of {sorted(SCHEME_HEADERS)}, got {schemes!r}")
    lowered = {name.lower(): value for name, value in headers.items()}
    present = [scheme for scheme in SCHEME_HEADERS if scheme in schemes and SCHEME_HEADERS[scheme] in lowered]
    if not present:
        names = ", ".join(SCHEME_HEADERS[scheme] for scheme in schemes)
        raise WebhookVerificationError("missing_header", f"No signature header of the accepted schemes ({names}).")
    scheme = present[0]
    header = lowered[SCHEME_HEADERS[scheme]]
    if scheme == "service":
        verify_service_signature(header, payload, secrets, tolerance=tolerance, now=now)
    elif scheme == "legacy":
        verify_legacy_signature(header, payload, secrets)
    else:
        verify_mailbox_signature(header, payload, secrets)
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
    _secret_list(secrets)
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
    _secret_list(secrets)
    if not header:
        raise WebhookVerificationError("missing_header", "No X-Service-Signature header.")
    scheme, _, value = header.strip().partition("=")
    if scheme != "sha256" or not _HEX_SIGNATURE.match(value):
        raise WebhookVerificationError("malformed_header", "X-Service-Signature must be sha256=<hex>.")
    _check_body_signature(value.lower(), payload, secrets)


def verify_mailbox_signature(header: Optional[str], payload: Payload, secrets: Secrets) -> None:
    """Checks ``X-Mailbox-Signature: <hex>`` (HMAC of the body alone)."""
    _secret_list(secrets)
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
    listed = [secrets] if isinstance(secrets, str) else list(secrets or [])
    # An empty key is one anybody can sign with: refuse it loudly rather than verify against it.
    if not listed or any(not isinstance(secret, str) or not secret for secret in listed):
        raise ValueError("Webhook secrets must be non-empty strings (is the environment variable set?).")
    return listed


def _bytes(payload: Payload) -> bytes:
    return payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
