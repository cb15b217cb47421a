"""What a check of a log finds wrong: the first seq it is at, and why (0: the export's own
fields)."""

from __future__ import annotations

__all__ = ["Failure"]


class Failure(Exception):
    """The first thing found wrong in a log, at ``seq``, with its ``reason``."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq = seq
        self.reason = reason
