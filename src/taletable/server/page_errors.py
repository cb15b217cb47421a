"""What the pages answer in words rather than JSON: a browser with no seat at the table, and
a change sent by another site (raised by :mod:`.session`, answered by ``pages.common``)."""

from __future__ import annotations

__all__ = ["CrossSitePost", "NoSeat"]


class NoSeat(Exception):
    """A page asked for by a browser with no seat at the table (answered by ``pages``)."""

    def __init__(self, table_id: str, *, join: bool) -> None:
        super().__init__(table_id)
        self.table_id = table_id
        self.join = join


class CrossSitePost(Exception):
    """A change to a page sent by another site (or without the page's own header): refused
    with a page that says so, never taken as the seat's."""
