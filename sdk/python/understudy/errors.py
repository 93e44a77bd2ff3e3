"""One exception class per error ``type`` of the services' error body, plus a connection error;
the Node SDK exports the same names (server/test/sdk/names-agree.test.ts checks).

Every error body of both services has the shape
``{"error": {"type", "code", "message", "param", "doc_url"}, "request_id"}``; the class is
chosen by ``type`` so callers can catch a family (``except RateLimitError``) without parsing.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional


class UnderstudyError(Exception):
    """Base class of every error this SDK raises for a request."""

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        code: Optional[str] = None,
        param: Optional[str] = None,
        type: Optional[str] = None,
        request_id: Optional[str] = None,
        doc_url: Optional[str] = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.param = param
        self.type = type
        self.request_id = request_id
        self.doc_url = doc_url
        #: The raw error body: the parsed JSON, or the text when it was not JSON.
        self.body = body
        self.headers: Mapping[str, str] = dict(headers or {})

    def __str__(self) -> str:
        details = [f"status={self.status}"] if self.status is not None else []
        if self.code:
            details.append(f"code={self.code}")
        if self.param:
            details.append(f"param={self.param}")
        if self.request_id:
            details.append(f"request_id={self.request_id}")
        return f"{self.message} ({', '.join(details)})" if details else self.message


class APIConnectionError(UnderstudyError):
    """The request never got an HTTP answer: refused, reset, timed out, DNS or TLS failure."""


class APITimeoutError(APIConnectionError):
    """The attempt took longer than the timeout."""


class InvalidRequestError(UnderstudyError):
    """``invalid_request_error``: the request is wrong (400, 404, 405, 409, 413, 415, 416)."""


class NotFoundError(InvalidRequestError):
    """A 404 (``resource_not_found``, ``route_not_found``, the mailbox's ``not_found``)."""


class AuthenticationError(UnderstudyError):
    """``authentication_error``: no credential, or an unknown, revoked or expired one (401)."""


class PermissionDeniedError(UnderstudyError):
    """``permission_error``: the credential may not do this (403). Not named ``PermissionError``
    so it does not shadow the built-in."""


class IdempotencyError(UnderstudyError):
    """``idempotency_error``: the key is in use (409) or was used for another request (422)."""


class RateLimitError(UnderstudyError):
    """``rate_limit_error``: a budget is exhausted (429); ``headers['retry-after']`` says when."""


class APIError(UnderstudyError):
    """``api_error``: the service failed (500, 502, 503)."""


ERROR_CLASSES: Mapping[str, type[UnderstudyError]] = {
    "invalid_request_error": InvalidRequestError,
    "authentication_error": AuthenticationError,
    "permission_error": PermissionDeniedError,
    "idempotency_error": IdempotencyError,
    "rate_limit_error": RateLimitError,
    "api_error": APIError,
}


def error_from_response(status: int, body: Any, headers: Mapping[str, str]) -> UnderstudyError:
    """The typed error for an HTTP error answer (``headers`` with lower-case names)."""
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    error_type = error.get("type")
    message = error.get("message") or (body.get("message") if isinstance(body, dict) else None)
    request_id = headers.get("x-request-id") or (body.get("request_id") if isinstance(body, dict) else None)
    cls = ERROR_CLASSES.get(error_type) if isinstance(error_type, str) else None
    if cls is None:
        # A body without the error shape (a proxy's page, say): classify by status alone.
        cls = _class_for_status(status)
    if status == 404 and cls is InvalidRequestError:
        cls = NotFoundError
    return cls(
        str(message or f"HTTP {status}"),
        status=status,
        code=error.get("code"),
        param=error.get("param"),
        type=error_type if isinstance(error_type, str) else None,
        request_id=request_id,
        doc_url=error.get("doc_url"),
        body=body,
        headers=headers,
    )


def _class_for_status(status: int) -> type[UnderstudyError]:
    if status == 401:
        return AuthenticationError
    if status == 403:
        return PermissionDeniedError
    if status == 429:
        return RateLimitError
    if status >= 500:
        return APIError
    return InvalidRequestError
