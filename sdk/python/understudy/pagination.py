"""Pages of cursor-paginated lists and iteration over every item of a list.

Two envelopes exist. The platform (``/v1``): ``{"object": "list", "data": [...], "has_more",
"next_cursor"}`` (endpoints with an envelope of their own carry those fields beside ``data``),
asked for with ``limit`` and ``cursor``. The mailbox (``/v0``): ``{"count", "limit",
"next_page_token", "<items>": [...]}`` where ``<items>`` is named after the resource
(``inboxes``, ``messages``, ``events``...), asked for with ``limit`` and ``page_token``.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Optional

#: Fields of an envelope that are never the items.
_ENVELOPE_FIELDS = frozenset({"object", "has_more", "next_cursor", "next_page_token", "count", "limit"})


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
    ) -> None:
        super().__init__(body)
        self._style = style
        self._fetch_next = fetch_next

    @property
    def data(self) -> List[Any]:
        """The items of this page, whatever the envelope calls them (``data``, ``inboxes``...)."""
        if isinstance(self.get("data"), list):
            return self["data"]  # type: ignore[no-any-return]
        for name, value in self.items():
            if name not in _ENVELOPE_FIELDS and isinstance(value, list):
                return value
        return []

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
        while page is not None:
            yield from page.data
            page = page.next_page()
