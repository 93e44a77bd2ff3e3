"""The two clients: ``Understudy`` for the platform (``/v1``) and ``Mailbox`` for the mailbox
service (``/v0``). Their namespaces and methods are generated from the OpenAPI documents
(``_resources.py``); everything else lives in ``_client.py`` and ``_http.py``."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ._client import BaseClient
from ._resources import MAILBOX_PATH_PREFIX, PLATFORM_PATH_PREFIX, MailboxResources, PlatformResources
from .room import Room
from .webhooks import Payload, Secrets, verify_webhook


class Understudy(PlatformResources, BaseClient):
    """The platform API::

        client = Understudy(api_key="svc_...", base_url="https://api.example.com")
        scenario = client.scenarios.create(name="Interview", type="interview", ...)

    ``api_key`` defaults to ``$UNDERSTUDY_API_KEY``, ``base_url`` to ``$UNDERSTUDY_BASE_URL``
    (else ``http://localhost:8080``). Writes carry an ``Idempotency-Key`` (yours, or one generated
    per call and reused by its retries), so retrying them is safe.
    """

    _path_prefix = PLATFORM_PATH_PREFIX
    _base_url_env = "UNDERSTUDY_BASE_URL"
    _default_base_url = "http://localhost:8080"
    _idempotent_writes = True

    def connect_room(
        self, meeting_id: str, room_token: str, *, timeout: float = 30.0, reconnect: bool = False
    ) -> Room:
        """Opens a meeting's room as its participant (the room token, not the API key, opens it).
        ``reconnect=True``: the room resumes by itself after a dropped connection (see ``Room``)."""
        return Room.connect(self.base_url, meeting_id, room_token, timeout=timeout, reconnect=reconnect)


class Mailbox(MailboxResources, BaseClient):
    """The mailbox API (``/v0``; give the service's base URL, the prefix is added)::

        mailbox = Mailbox(api_key="svc_...", base_url="https://mail.example.com")
        inbox = mailbox.inboxes.create(username="support")

    ``api_key`` defaults to ``$UNDERSTUDY_API_KEY``, ``base_url`` to ``$MAILBOX_BASE_URL`` (else
    ``http://localhost:8081``). The mailbox keeps no idempotency records, so writes are retried
    only when the answer proves they did not run (429); reads also after network errors and 5xx.
    """

    _path_prefix = MAILBOX_PATH_PREFIX
    _base_url_env = "MAILBOX_BASE_URL"
    _default_base_url = "http://localhost:8081"
    _idempotent_writes = False

    def verify_webhook(
        self, payload: Payload, headers: Mapping[str, str], secrets: Secrets, *, schemes: Sequence[str] = ("mailbox",)
    ) -> Any:
        """:func:`understudy.verify_webhook` for the mailbox's deliveries (``X-Mailbox-Signature``)."""
        return verify_webhook(payload, headers, secrets, schemes=schemes)


__all__ = ["Understudy", "Mailbox"]
