"""Who is connected: the seats with a page's stream open, per table, in this worker.

A page's stream marks its seat present while it is open and wakes the table's other streams,
which then send the new list. With several workers each knows only its own streams (a seat
connected to another worker shows as away there); the log, not presence, is the truth.
"""

from __future__ import annotations

import threading
from collections import Counter, defaultdict

__all__ = ["Presence"]


class Presence:
    """Open streams by table and seat (a seat may have several tabs open)."""

    def __init__(self) -> None:
        self._open: dict[str, Counter[str]] = defaultdict(Counter)
        self._lock = threading.Lock()

    def connect(self, table_id: str, seat_id: str) -> None:
        with self._lock:
            self._open[table_id][seat_id] += 1

    def disconnect(self, table_id: str, seat_id: str) -> None:
        with self._lock:
            seats = self._open[table_id]
            seats[seat_id] -= 1
            if seats[seat_id] <= 0:
                del seats[seat_id]
            if not seats:
                del self._open[table_id]

    def online(self, table_id: str) -> frozenset[str]:
        """The seats of ``table_id`` with at least one stream open here."""
        with self._lock:
            return frozenset(self._open.get(table_id, ()))
