"""The official Python SDK of Understudy: the platform (``Understudy``) and the mailbox
(``Mailbox``) APIs, webhook verification and a room participant. Standard library only."""

from . import types
from ._client import NOT_GIVEN, NotGiven
from ._http import RequestOptions
from ._version import __version__
from .client import Mailbox, Understudy
from .errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    IdempotencyError,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    UnderstudyError,
)
from .pagination import Page
from .room import Room, RoomError
from .webhooks import (
    WebhookVerificationError,
    sign_service_payload,
    verify_legacy_signature,
    verify_mailbox_signature,
    verify_service_signature,
    verify_webhook,
)
from .websocket import ConnectionClosed, WebSocket, WebSocketError

__all__ = [
    "__version__",
    "Understudy",
    "Mailbox",
    "Page",
    "Room",
    "RoomError",
    "RequestOptions",
    "NOT_GIVEN",
    "NotGiven",
    "types",
    "UnderstudyError",
    "APIConnectionError",
    "APITimeoutError",
    "APIError",
    "AuthenticationError",
    "IdempotencyError",
    "InvalidRequestError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "WebhookVerificationError",
    "verify_webhook",
    "verify_service_signature",
    "verify_legacy_signature",
    "verify_mailbox_signature",
    "sign_service_payload",
    "WebSocket",
    "WebSocketError",
    "ConnectionClosed",
]
