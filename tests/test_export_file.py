"""An export read as a stream (``taletable.ledger.export_file``): any layout of the one JSON
document (the server's, one event a line; an older build's, all on one line; keys in another
order), each limit a clear error before the rest is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taletable.audit import verify_table
from taletable.ledger import EXPORT_LIMITS, ExportFile, ExportLimits, LimitExceeded
from taletable.ledger.export_file import export_chunks

OLD = Path(__file__).parent / "fixtures" / "d71a42b" / "export_narrator.json"


def _document() -> dict:
    return json.loads(OLD.read_text())


def _events(path: Path, limits: ExportLimits = EXPORT_LIMITS) -> list[dict]:
    return [dict(event) for event in ExportFile(path, limits).events()]


@pytest.mark.parametrize(
    "layout",
    ["server", "one line", "indented", "sorted keys", "scenes after events"],
)
def test_every_layout_reads_to_the_same_events_and_verifies(tmp_path: Path, layout: str) -> None:
    document = _document()
    path = tmp_path / "export.json"
    if layout == "server":
        path.write_text("".join(export_chunks(document, document["events"])))
    elif layout == "one line":
        path.write_text(json.dumps(document))
    elif layout == "indented":
        path.write_text(json.dumps(document, indent=2))
    elif layout == "sorted keys":  # "events" before "format", "scenes", "table"
        path.write_text(json.dumps(document, sort_keys=True))
    else:
        reordered = {"format": document["format"], "table": document["table"],
                     "events": document["events"], "scenes": document["scenes"]}  # fmt: skip
        path.write_text(json.dumps(reordered))
    read = ExportFile(path)
    assert read.header == {key: document[key] for key in ("format", "table", "scenes")}
    assert _events(path) == document["events"]
    assert verify_table(read).ok


def test_the_server_layout_has_one_event_a_line(tmp_path: Path) -> None:
    document = _document()
    lines = "".join(export_chunks(document, document["events"])).splitlines()
    assert len(lines) == len(document["events"]) + 2
    assert json.loads("\n".join(lines)) == document


def _written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "export.json"
    path.write_text(text)
    return path


def test_each_limit_is_a_clear_error(tmp_path: Path) -> None:
    document = _document()
    path = _written(tmp_path, "".join(export_chunks(document, document["events"])))
    with pytest.raises(LimitExceeded, match="more than 5 events"):
        _events(path, ExportLimits(max_events=5))
    with pytest.raises(LimitExceeded, match="an event of more than 100 bytes"):
        _events(path, ExportLimits(max_event_bytes=100))
    with pytest.raises(LimitExceeded, match="bytes is over the 1,000-byte limit"):
        ExportFile(path, ExportLimits(max_bytes=1000))
    padded = _written(tmp_path, '{"format": "x", "table": {"name": "' + "a" * 5000 + '"}}')
    with pytest.raises(LimitExceeded, match="no events within the first 1,000 bytes"):
        ExportFile(padded, ExportLimits(max_header_bytes=1000))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"format": "x", "events": [' + "[" * 100_000 + "]" * 100_000 + "]}", "nested too deep"),
        ('{"format": "x", "table": {}, "events": [{"seq": 1}, {"seq": 2}', "not JSON"),
        ('{"format": "x", "table": {}, "events": [{"seq": 1} {"seq": 2}]}', "not a list"),
        ('{"format": "x", "table": {}}', 'no "events" list'),
        ('{"format": "x", "table": {}, "events": [1]}', "not an event"),
    ],
)
def test_a_malformed_export_is_a_value_error_naming_it(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = _written(tmp_path, text)
    with pytest.raises(ValueError, match=problem):
        _events(path)


def test_a_deeply_nested_event_is_refused_quickly(tmp_path: Path) -> None:
    """A parser that builds each value's path as a string takes minutes here (quadratic)."""
    import time

    deep = "[" * 300_000 + "]" * 300_000
    path = _written(tmp_path, '{"format": "x", "table": {}, "events": [' + deep + "]}")
    started = time.monotonic()
    with pytest.raises(ValueError):
        _events(path)
    assert time.monotonic() - started < 5
