"""The HTTP layer shared by both clients: JSON in and out, retries with backoff that honours
``Retry-After``, one ``Idempotency-Key`` per logical operation, typed errors. Standard library only
(``urllib.request``)."""

from __future__ import annotations

import email.utils
import http.client
import json
import math
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from ._version import __version__
from .errors import APIConnectionError, APITimeoutError, UnderstudyError, error_from_response

DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 2
#: The longest wait between two attempts, even when ``Retry-After`` asks for more.
DEFAULT_MAX_RETRY_DELAY = 60.0
INITIAL_RETRY_DELAY = 0.5
MAX_BACKOFF_DELAY = 8.0
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass
class RequestOptions:
    """Per-call options: every generated method accepts these as keyword arguments."""

    idempotency_key: Optional[str] = None
    timeout: Optional[float] = None
    max_retries: Optional[int] = None
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass
class Response:
    status: int
    headers: Mapping[str, str]
    body: Any


class Transport:
    """Sends one logical operation, retrying it as the service's contract allows."""

    def __init__(
        self,
        *,
        base_url: str,
        api_key: Optional[str],
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        idempotent_writes: bool = True,
        default_headers: Optional[Mapping[str, str]] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_delay = max_retry_delay
        # The platform stores Idempotency-Key answers, so its writes are safe to send again; the
        # mailbox does not, so only its reads (and answers that prove nothing ran) are retried.
        self.idempotent_writes = idempotent_writes
        self.default_headers = dict(default_headers or {})
        self._sleep = sleep
        # No redirects: a 3xx from an API is a mistake to report, not to follow with the key.
        self._opener = urllib.request.build_opener(_NoRedirect)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        json_body: Any = None,
        form: Optional[Mapping[str, Any]] = None,
        content: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        options: Optional[RequestOptions] = None,
    ) -> Response:
        options = options or RequestOptions()
        method = method.upper()
        url = self.base_url + path + _query_string(query)
        data, body_type = _encode_body(json_body, form, content, content_type)
        sent_headers = {
            "Accept": "application/json",
            "User-Agent": f"understudy-python/{__version__}",
            **self.default_headers,
        }
        if self.api_key:
            sent_headers["Authorization"] = f"Bearer {self.api_key}"
        if body_type:
            sent_headers["Content-Type"] = body_type
        # One key for the whole operation: every retry below sends the same one, so the service
        # runs the operation at most once however many attempts reach it.
        if method in WRITE_METHODS and self.idempotent_writes:
            sent_headers["Idempotency-Key"] = options.idempotency_key or str(uuid.uuid4())
        elif options.idempotency_key:
            sent_headers["Idempotency-Key"] = options.idempotency_key
        sent_headers.update(headers or {})
        sent_headers.update(options.headers)
        timeout = options.timeout if options.timeout is not None else self.timeout
        max_retries = options.max_retries if options.max_retries is not None else self.max_retries

        attempt = 0
        while True:
            try:
                response = self._send(method, url, data, sent_headers, timeout)
            except APIConnectionError:
                if attempt < max_retries and self._may_resend(method):
                    self._sleep(self._backoff(attempt, None))
                    attempt += 1
                    continue
                raise
            if 200 <= response.status < 300:
                return response
            error = error_from_response(response.status, response.body, response.headers)
            if attempt < max_retries and self._should_retry(method, error):
                self._sleep(self._backoff(attempt, response.headers.get("retry-after")))
                attempt += 1
                continue
            raise error

    def _may_resend(self, method: str) -> bool:
        return method not in WRITE_METHODS or self.idempotent_writes

    def _should_retry(self, method: str, error: UnderstudyError) -> bool:
        status = error.status or 0
        if status == 429:
            return True  # refused before it ran, on both services
        if status == 409 and error.code == "idempotency_key_in_use":
            return True
        return status >= 500 and self._may_resend(method)

    def _backoff(self, attempt: int, retry_after: Optional[str]) -> float:
        asked = parse_retry_after(retry_after)
        if asked is not None:
            return min(max(asked, 0.0), self.max_retry_delay)
        # Exponential with "equal jitter": at least half the step, so clients spread out.
        step = min(INITIAL_RETRY_DELAY * (2**attempt), MAX_BACKOFF_DELAY)
        return min(step / 2 + random.uniform(0, step / 2), self.max_retry_delay)

    def _send(
        self, method: str, url: str, data: Optional[bytes], headers: Mapping[str, str], timeout: float
    ) -> Response:
        request = urllib.request.Request(url, data=data, method=method, headers=dict(headers))
        try:
            with self._opener.open(request, timeout=timeout) as answer:
                return _read(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as answer:
            try:
                raw = answer.read()
            except (OSError, http.client.HTTPException) as e:
                raise APIConnectionError(f"Connection lost while reading the answer: {e}") from e
            return _read(answer.code, answer.headers, raw)
        except urllib.error.URLError as e:
            if isinstance(e.reason, (socket.timeout, TimeoutError)):
                raise APITimeoutError(f"{method} {url} timed out after {timeout} s") from e
            raise APIConnectionError(f"Could not reach {url}: {e.reason}") from e
        except (socket.timeout, TimeoutError) as e:
            raise APITimeoutError(f"{method} {url} timed out after {timeout} s") from e
        except (OSError, http.client.HTTPException) as e:
            raise APIConnectionError(f"Connection to {url} failed: {e!r}") from e


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _read(status: int, raw_headers: Any, raw: bytes) -> Response:
    headers = {name.lower(): value for name, value in raw_headers.items()}
    content_type = headers.get("content-type", "")
    body: Any = raw
    if raw and ("json" in content_type or content_type == ""):
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace") if status >= 400 else raw
    elif not raw:
        body = None
    elif status >= 400:
        body = raw.decode("utf-8", "replace")
    return Response(status, headers, body)


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """``Retry-After`` as seconds from now: either delay-seconds or an HTTP date (RFC 9110)."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        # `nan` and `inf` parse as floats, but no wait can honour them: as if absent.
        return seconds if math.isfinite(seconds) else None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return when.timestamp() - time.time()


def _query_string(query: Optional[Mapping[str, Any]]) -> str:
    if not query:
        return ""
    pairs: list[tuple[str, str]] = []
    for name, value in query.items():
        if value is None:
            continue
        values: Sequence[Any] = value if isinstance(value, (list, tuple)) else [value]
        for item in values:
            pairs.append((name, _text(item)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _encode_body(
    json_body: Any, form: Optional[Mapping[str, Any]], content: Optional[bytes], content_type: Optional[str]
) -> tuple[Optional[bytes], Optional[str]]:
    if content is not None:
        return content, content_type or "application/octet-stream"
    if form is not None:
        return _multipart(form)
    if json_body is not None:
        return json.dumps(json_body, separators=(",", ":")).encode("utf-8"), "application/json"
    return None, None


def _multipart(fields: Mapping[str, Any]) -> tuple[bytes, str]:
    """multipart/form-data: bytes values (or ``(filename, bytes, type)`` tuples) become file parts."""
    boundary = f"understudy-{uuid.uuid4().hex}"
    parts: list[bytes] = []
    for name, value in fields.items():
        if value is None:
            continue
        if isinstance(value, tuple):
            filename, data, part_type = value
            disposition = f'form-data; name="{name}"; filename="{filename}"'
        elif isinstance(value, (bytes, bytearray)):
            data, part_type = bytes(value), "application/octet-stream"
            disposition = f'form-data; name="{name}"; filename="{name}"'
        else:
            text = value if isinstance(value, str) else json.dumps(value)
            data, part_type = text.encode("utf-8"), None
            disposition = f'form-data; name="{name}"'
        head = f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
        if part_type:
            head += f"Content-Type: {part_type}\r\n"
        parts.append(head.encode("utf-8") + b"\r\n" + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode("utf-8"))
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"
