"""What both clients share: the operation table's runtime side (path, query, headers and body
built from one method call) on top of the transport."""

from __future__ import annotations

import os
import urllib.parse
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from ._http import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_RETRY_DELAY,
    DEFAULT_TIMEOUT,
    RequestOptions,
    Transport,
)
from .pagination import Page


class NotGiven:
    """The default of optional arguments: unlike None (which may be a value to send), it is
    left out of the request."""

    _instance: Optional["NotGiven"] = None

    def __new__(cls) -> "NotGiven":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    path_params: Tuple[str, ...]
    query_params: Tuple[str, ...]
    header_params: Tuple[str, ...]
    #: "json" (the keyword arguments are the object's fields), "json_value" (a JSON body that is not
    #: an object, passed as `body`), "form" (multipart/form-data), "raw" (`body` bytes with a
    #: `content_type`) or None.
    body: Optional[str]
    #: "cursor" (platform lists), "page_token" (mailbox lists) or None.
    pagination: Optional[str]
    #: Where a page keeps its items, as a dotted path: "data", "data.memories", "inboxes"…
    items: Optional[str] = None


#: The page size asked for while iterating (``auto_paging_iter``) when the caller gave none: the
#: services' maximum. A single call sends only the caller's own ``limit``, so the API's defaults
#: hold (the memories' 400, say).
ITERATION_LIMIT = 100


class BaseClient:
    """A client of one service; the generated namespaces call ``_call``."""

    #: The path prefix of the service's document (`servers[0].url`), e.g. "/v0".
    _path_prefix = ""
    _base_url_env = ""
    _default_base_url = ""
    _idempotent_writes = True

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_retry_delay: float = DEFAULT_MAX_RETRY_DELAY,
        default_headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        api_key = api_key if api_key is not None else os.environ.get("UNDERSTUDY_API_KEY")
        base = (base_url or os.environ.get(self._base_url_env) or self._default_base_url).rstrip("/")
        if self._path_prefix and base.endswith(self._path_prefix):
            base = base[: -len(self._path_prefix)]
        self.api_key = api_key
        self.base_url = base
        self._transport = Transport(
            base_url=base + self._path_prefix,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_delay=max_retry_delay,
            idempotent_writes=self._idempotent_writes,
            default_headers=default_headers,
        )
        # The generated namespaces (``client.scenarios``…): the resources mixin, first among the
        # bases of each client, provides them.
        self._init_resources()

    def _init_resources(self) -> None:
        """Set up by the generated resources mixin (``PlatformResources``, ``MailboxResources``)."""

    def _call(
        self,
        operation: Operation,
        path_args: Sequence[Any],
        params: Mapping[str, Any],
        options: RequestOptions,
    ) -> Any:
        given = {name: value for name, value in params.items() if value is not NOT_GIVEN}
        path = operation.path
        for name, value in zip(operation.path_params, path_args):
            # Mailbox ids are addresses and RFC 5322 Message-IDs: every reserved character encoded.
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        query = {name: given.pop(name) for name in operation.query_params if name in given}
        headers = {name: str(given.pop(name)) for name in operation.header_params if name in given}
        body: Dict[str, Any] = {}
        if operation.body == "raw":
            body = {"content": given.pop("body", None), "content_type": given.pop("content_type", None)}
        elif operation.body == "form":
            body = {"form": given}
        elif operation.body == "json_value":
            body = {"json_body": given.pop("body", None)}
        elif operation.body == "json":
            body = {"json_body": given}
        response = self._transport.request(
            operation.method, path, query=query, headers=headers, options=options, **body
        )
        if operation.pagination and isinstance(response.body, list):
            # Without `limit` or `cursor` some platform lists answer every item as a bare array:
            # one page holding them all.
            return self._page(operation, path_args, params, options, {"data": response.body})
        if operation.pagination and isinstance(response.body, dict):
            return self._page(operation, path_args, params, options, response.body)
        return response.body

    def _page(
        self,
        operation: Operation,
        path_args: Sequence[Any],
        params: Mapping[str, Any],
        options: RequestOptions,
        body: Dict[str, Any],
    ) -> Page:
        token_param = "cursor" if operation.pagination == "cursor" else "page_token"

        def fetch_next(token: str) -> Page:
            # A fresh key per page: each page is its own read (keys only matter for writes anyway).
            next_options = RequestOptions(
                timeout=options.timeout, max_retries=options.max_retries, headers=options.headers
            )
            following = {**params, token_param: token}
            if following.get("limit", NOT_GIVEN) is NOT_GIVEN:
                following["limit"] = ITERATION_LIMIT
            if operation.pagination == "cursor":
                following.pop("starting_after", None)
            return self._call(operation, path_args, following, next_options)  # type: ignore[no-any-return]

        return Page(body, style=operation.pagination or "cursor", fetch_next=fetch_next, items=operation.items or "data")
