"""An export as a stream: written one event per line, read back one event at a time.

A table's export is one JSON document (format :data:`EXPORT_FORMAT`): ``format``, ``table``,
``scenes``, then ``events``. The server writes it with each event on a line of its own
(:func:`export_chunks`), so it is still plain JSON for any tool. :class:`ExportFile` reads any
layout of it (an older build's, all on one line; one a person reformatted) one event at a
time: each event is decoded by the standard library's JSON decoder from a window of the file
no larger than :attr:`ExportLimits.max_event_bytes`, so a campaign's export of a million
events is read, verified and imported in memory that does not grow with it, and no single
event, however it is written, can take more than its limit.

(ijson's iterative parser was tried for this and not kept: it builds each prefix as a string,
so a deeply nested value costs time quadratic in its depth, and an event is built whole before
it can be measured.)
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_LIMITS",
    "DocumentExport",
    "ExportFile",
    "ExportLimits",
    "ExportSource",
    "LimitExceeded",
    "export_chunks",
]

#: The ``format`` field of a table's export.
EXPORT_FORMAT = "taletable-export/1"
#: Where the events begin (the top level's ``events`` key; any other spelling of it would be
#: escaped inside a string, so a name cannot fake it).
_EVENTS_KEY = re.compile(r'"events"\s*:\s*\[')
_SPACE = frozenset(" \t\r\n")
_CHUNK = 1 << 20


@dataclass(frozen=True)
class ExportLimits:
    """How much of an export is read; each past it is a clear error before the rest is read.

    An event of a live table is a few kilobytes (a request's body is at most 256 KiB), so an
    event of a megabyte is generous; the header (the table, its house rules, its scenes) is
    allowed 16 MiB. A million events of mixed play are about 1 GB.
    """

    max_events: int = 2_000_000
    max_event_bytes: int = 1 << 20
    max_header_bytes: int = 16 << 20
    max_bytes: int = 8 << 30


#: The limits of ``taletable verify`` (a seat's own file on its own machine).
EXPORT_LIMITS = ExportLimits()


class LimitExceeded(ValueError):
    """An export past one of its :class:`ExportLimits` (the message says which and the fix)."""


class ExportSource(Protocol):
    """An export that can be read more than once: its header, then its events in order."""

    @property
    def header(self) -> Mapping[str, Any]: ...

    def events(self) -> Iterator[Mapping[str, Any]]: ...


class DocumentExport:
    """An export already in memory (a parsed document, as the tests and small imports hold)."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.header = {key: value for key, value in document.items() if key != "events"}
        self._events = document.get("events")

    def events(self) -> Iterator[Mapping[str, Any]]:
        """Each event (a failure if ``events`` is not a list of objects)."""
        if not isinstance(self._events, list):
            raise ValueError("events: not a list of events")
        for event in self._events:
            if not isinstance(event, Mapping):
                raise ValueError("events: not a list of events")
            yield event


class ExportFile:
    """An export on disk, read as a stream each time :meth:`events` is called; its header is
    read when it is made (a :class:`LimitExceeded` or ``ValueError`` if it cannot be)."""

    def __init__(self, path: str | os.PathLike[str], limits: ExportLimits = EXPORT_LIMITS) -> None:
        self.path = Path(path)
        self.limits = limits
        size = self.path.stat().st_size
        if size > limits.max_bytes:
            raise LimitExceeded(
                f"{size:,} bytes is over the {limits.max_bytes:,}-byte limit of an export"
            )
        self.header = self._header()

    def _header(self) -> dict[str, Any]:
        with self.path.open("rb") as file:
            reader = _Reader(file, self.limits)
            before = reader.until_events()
            try:
                header = json.loads(before + "]}")
            except (ValueError, RecursionError):  # other keys follow the events: read on
                header = None
            if not isinstance(header, dict) or not {"format", "table", "scenes"} <= set(header):
                for _event in reader.events():
                    pass
                header = _loads(before + "]" + reader.rest(), "the export's header")
        if not isinstance(header, dict):
            raise ValueError("not a JSON object")
        header.pop("events", None)
        return header

    def events(self) -> Iterator[Mapping[str, Any]]:
        """Each event in the file's order; a :class:`LimitExceeded` past a limit."""
        with self.path.open("rb") as file:
            reader = _Reader(file, self.limits)
            reader.until_events()
            for count, event in enumerate(reader.events(), start=1):
                if count > self.limits.max_events:
                    raise LimitExceeded(
                        f"more than {self.limits.max_events:,} events, the limit of an export"
                    )
                if not isinstance(event, Mapping):
                    raise ValueError(f"events.{count}: not an event (a JSON object)")
                yield event


def _loads(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{what} is nested too deep") from None
    except ValueError as error:
        raise ValueError(f"{what} is not JSON: {error}") from None


class _Reader:
    """A window on the file's text: the events decoded one at a time from it."""

    def __init__(self, file: IO[bytes], limits: ExportLimits) -> None:
        self._file = file
        self._limits = limits
        self._text = codecs.getincrementaldecoder("utf-8")()
        self._window = ""
        self._at = 0
        self._ended = False

    def _more(self) -> bool:
        if self._ended:
            return False
        chunk = self._file.read(_CHUNK)
        self._window = self._window[self._at :] + self._text.decode(chunk, final=not chunk)
        self._at = 0
        self._ended = not chunk
        return True

    def until_events(self) -> str:
        """The text before the events, through the ``[`` that opens them."""
        while not (found := _EVENTS_KEY.search(self._window)):
            if len(self._window) > self._limits.max_header_bytes:
                raise LimitExceeded(
                    f"no events within the first {self._limits.max_header_bytes:,} bytes"
                )
            if not self._more():
                raise ValueError('no "events" list: not a taletable export')
        self._at = found.end()
        return self._window[: found.end()]

    def _skip_space(self) -> str:
        while True:
            while self._at < len(self._window) and self._window[self._at] in _SPACE:
                self._at += 1
            if self._at < len(self._window) or not self._more():
                return self._window[self._at : self._at + 1]

    def events(self) -> Iterator[Any]:
        """Each event of the list, decoded; the list's end leaves the window after its ``]``."""
        decoder, first = json.JSONDecoder(), True
        while True:
            mark = self._skip_space()
            if not mark:
                raise ValueError("the file ends before its events do: not JSON (cut short?)")
            if mark == "]":
                self._at += 1
                return
            if not first:
                if mark != ",":
                    raise ValueError("the events are not a list of JSON values")
                self._at += 1
                self._skip_space()
            first = False
            yield self._decode(decoder)

    def _decode(self, decoder: json.JSONDecoder) -> Any:
        while True:
            try:
                value, end = decoder.raw_decode(self._window, self._at)
            except RecursionError:
                raise ValueError("an event is nested too deep") from None
            except ValueError as error:
                if len(self._window) - self._at > self._limits.max_event_bytes:
                    raise LimitExceeded(
                        f"an event of more than {self._limits.max_event_bytes:,} bytes, the "
                        "limit of one event in an export"
                    ) from None
                if not self._more():
                    raise ValueError(f"an event is not JSON: {error}") from None
                continue
            if end - self._at > self._limits.max_event_bytes:
                raise LimitExceeded(
                    f"an event of more than {self._limits.max_event_bytes:,} bytes, the limit "
                    "of one event in an export"
                )
            self._at = end
            return value

    def rest(self) -> str:
        """The text after the events (other top-level keys), within the header's limit."""
        while self._more():
            if len(self._window) - self._at > self._limits.max_header_bytes:
                raise LimitExceeded("more than the header's limit after the events")
        return self._window[self._at :]


def export_chunks(header: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """The export as text, header first and each event on a line of its own (any JSON reader
    reads it whole; :class:`ExportFile` one event at a time)."""
    head = json.dumps({key: value for key, value in header.items() if key != "events"})
    yield head[:-1] + (", " if len(head) > 2 else "") + '"events":[\n'
    separator = ""
    for event in events:
        yield separator + json.dumps(event, separators=(",", ":"))
        separator = ",\n"
    yield "\n]}\n"
