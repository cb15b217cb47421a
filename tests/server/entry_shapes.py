"""Every log entry's declared shape (:data:`taletable.log_entry.BODIES`), as a test holds it:
Zulip's tests check every event its server sends against the event's schema; these check every
entry a table writes against :class:`~taletable.log_entry.LogEntry` and the fields its kind
declares. ``conftest.py`` holds every entry the server tests write to it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taletable.log_entry import ACTION_FIELDS, BODIES, ENVELOPE, STUB_FIELDS, read_entry
from taletable.play import all_actions
from taletable.play.results import read_result
from taletable.server.pages.present_records import read_cast

#: Beside an entry's body: its chain (an export's, or the entry as the server hands it back).
CHAIN = frozenset({"prev_hash", "hash"})


def check_shape(raw: Mapping[str, Any]) -> None:
    """Fail unless ``raw`` is a log entry of its kind's declared shape: typed as
    :class:`LogEntry` declares with nothing undeclared, its kind's fields and no other, an
    action's result read back into its registered record."""
    entry = read_entry(raw)
    fields = frozenset(raw)
    undeclared = sorted(entry.model_extra or ())
    assert not undeclared, f"seq {entry.seq}: undeclared fields {undeclared}"
    if entry.hidden:
        allowed = STUB_FIELDS | {"hidden", "body_hash"} | CHAIN
        assert fields <= allowed, f"seq {entry.seq}: a stub holds {sorted(fields - allowed)}"
        return
    assert fields >= ENVELOPE, f"seq {entry.seq}: lacks {sorted(ENVELOPE - fields)}"
    if entry.action is None:
        assert entry.kind in BODIES, f"seq {entry.seq}: {entry.kind!r} is no declared kind"
        allowed = ENVELOPE | BODIES[entry.kind] | CHAIN
    else:
        assert entry.action == entry.kind and entry.action in all_actions(), entry.kind
        allowed = ENVELOPE | ACTION_FIELDS | CHAIN
        needed = {"action", "args", "result", "dice", "entered", "changes", "saves"}
        assert needed <= fields, f"seq {entry.seq}: lacks {sorted(needed - fields)}"
        data = entry.result or {}
        record = read_result(entry.action, data)
        if record is None and entry.action == "cogent.cast":  # a cast's is one of several
            record = read_cast(data)
        assert record is not None, f"seq {entry.seq}: {entry.action}'s result is not its record"
    assert fields <= allowed, f"seq {entry.seq}: {entry.kind} holds {sorted(fields - allowed)}"
