"""Pages of cursor-paginated lists and iteration over every item of a list.

Two envelopes exist. The platform (``/v1``): ``{"object": "list", "data": [...], "has_more",
"next_cursor"}`` (endpoints with an envelope of their own carry those fields beside ``data``),
asked for with ``limit`` and ``cursor``. The mailbox (``/v0``): ``{"count", "limit",
"next_page_token", "<items>": [...]}`` where ``<items>`` is named after the resource
(``inboxes``, ``messages``, ``events``...), asked for with ``limit`` and ``page_token``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional

from .errors import UnderstudyError


class Page(Dict[str, Any]):
    """One page of a list: the parsed JSON (a ``dict``), plus ``data`` and ``auto_paging_iter()``.

    ``auto_paging_iter()`` yields every item from this page on, fetching the following pages with
    the same parameters as they are needed::

        for scenario in client.scenarios.list(limit=100).auto_paging_iter():
            print(scenario["name"])
    """

    def __init__(
        self,
        body: Dict[str, Any],
        *,
        style: str,
        fetch_next: Callable[[str], "Page"],
        items: str = "data",
    ) -> None:
        super().__init__(body)
        self._style = style
        self._fetch_next = fetch_next
        self._items = items

    @property
    def data(self) -> List[Any]:
        """The items of this page, wherever the envelope keeps them (``data``, ``inboxes``, the
        ``memories`` inside a memory tag's ``data``...)."""
        value: Any = self
        for key in self._items.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        return value if isinstance(value, list) else []

    @property
    def next_token(self) -> Optional[str]:
        """The cursor (platform) or page token (mailbox) of the next page; None on the last one."""
        if self._style == "cursor":
            token = self.get("next_cursor")
            return token if self.get("has_more", token is not None) and token else None
        token = self.get("next_page_token")
        # The inbox event log returns a token even on its last page (to poll for newer events
        # later) and says `has_more: false`; a page without items is the end as well.
        if not token or self.get("has_more") is False or not self.data:
            return None
        return str(token)

    @property
    def has_more(self) -> bool:
        return self.next_token is not None

    def next_page(self) -> Optional["Page"]:
        token = self.next_token
        return self._fetch_next(token) if token else None

    def auto_paging_iter(self) -> Iterator[Any]:
        page: Optional[Page] = self
        seen: set[str] = set()
        while page is not None:
            yield from page.data
            token = page.next_token
            if token is None:
                return
            # A server that hands back a token it gave before would be walked in a circle forever.
            if token in seen:
                raise UnderstudyError(f"The service repeated the page token {token!r}; stopping the iteration.")
            seen.add(token)
            page = page._fetch_next(token)
