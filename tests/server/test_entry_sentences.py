"""Every log entry reads as a sentence (issue 24.8): for each registered action, its case of
``tests/play`` is played through a memory store, logged as the live table logs it, presented
and rendered as the table page renders it. The entry says who did what and how it came out,
in words: no action's dotted name, no bare "Result" heading, no rulebook file number."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

import tests.play.action_cases_sheets  # noqa: F401 -- registers its cases
from taletable._model import Record
from taletable.explain import templates
from taletable.log_entry import read_entry
from taletable.play import all_actions, is_read, perform
from taletable.server.auth import Seat
from taletable.server.pages.common import render
from taletable.server.pages.present import present
from tests.play.action_cases import CASES, _table

#: Verbs an entry may begin with that do not end in -ed.
IRREGULAR = {"made", "took", "spent", "cast", "ran", "chose", "set", "struck", "bought", "said"}
MARA = Seat(id="s-mara", table_id="t1", name="Mara", role="player")
NARRATOR = Seat(id="s-narrator", table_id="t1", name="Nell", role="narrator")
NAMES = {MARA.id: MARA.name, NARRATOR.id: NARRATOR.name}


def _logged(name: str) -> dict[str, Any]:
    """The action's case played and logged as the live table logs it."""
    table = _table()
    args, _check = CASES[name]
    given = args(table) if callable(args) else args
    played = perform(name, given, table)
    # A read (odds, a fight's status) makes no event now; a log from before holds its record
    # as the model dumped it (not the command line's shape of an odds record), read back here.
    result = Record.to_data(played.result) if is_read(name) else played.to_data()
    return {
        "seq": 7, "kind": name, "action": name, "actor": MARA.id, "visibility": "public",
        "at": "2026-11-26T16:00:00.000+00:00", "scene": 1, "args": given,
        "result": result, "changes": [change.to_data() for change in played.events],
    }  # fmt: skip


def _dotted() -> set[str]:
    """Every name a person must never read: actions' and notes' dotted names."""
    return {name for name in all_actions() if "." in name} | set(templates())


@pytest.mark.parametrize("name", sorted(all_actions()))
def test_every_actions_entry_reads_as_a_sentence(name: str) -> None:
    """Who (Mara) did what (a verb phrase), and an outcome; in words only."""
    entry = present(read_entry(_logged(name)), NAMES)
    first = entry.title.split()[0].rstrip(",")
    assert first.islower() and (first.endswith("ed") or first in IRREGULAR), entry.title
    assert entry.who == "Mara"
    # a message's outcome is the message itself, its words and inline rolls (entry.chat)
    assert entry.outcome or entry.lines or entry.chat, f"{name}: no outcome"
    assert not entry.detail, f"{name}: its result did not read back"
    page = render("_entry.html", e=entry, seat=NARRATOR)
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    said = [dotted for dotted in _dotted() if re.search(rf"(?<![\w.]){re.escape(dotted)}\b", text)]
    assert said == [], f"{name}: {said}"
    assert ">Result<" not in page
    cited = re.sub(r"<details><summary>Rules applied</summary>.*?</details>", "", page, flags=re.S)
    assert not re.search(r"\b00[0-4]\b", re.sub(r"<[^>]+>", " ", cited)), f"{name}: a file number"


@pytest.mark.parametrize(
    "event",
    [
        {"kind": "scene.open", "scene": 2, "commitment": "ab" * 32},
        {"kind": "scene.close", "scene": 2, "seed": "cd" * 32},
        {"kind": "character.owner", "seat": "s-mara", "name": "Sir Terrik"},
        {"kind": "seat.join", "role": "player"},
        {"kind": "seat.seed", "seat": "s-mara", "commitment": "ef" * 32},
        {"kind": "scene.hidden-seed", "scene": 2, "hidden_seed": "12" * 32},
        {"kind": "something.new"},
    ],
)
def test_the_tables_own_entries_read_as_sentences(event: dict[str, Any]) -> None:
    """A scene opened or closed, a character handed over, a seat joined, and a kind this
    version does not know: each a verb phrase with no dotted name or hash label."""
    entry = present(read_entry({"seq": 3, "actor": NARRATOR.id, **event}), NAMES)
    first = entry.title.split()[0].rstrip(",")
    assert first.islower() and (first.endswith("ed") or first in IRREGULAR), entry.title
    text = " ".join([entry.title, entry.outcome, *entry.lines])
    assert "SHA-256" not in text and event["kind"] not in text and "commitment" not in text
