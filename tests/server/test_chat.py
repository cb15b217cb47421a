"""Talk at the table through the API (issue 24 point 1): ``chat.say`` in or out of character,
whispers that reach only their sender, the seats named and the narrator (the API's answers,
the event log, the stream from memory and replayed, the exports), and inline rolls with the
table's dice and their exact odds."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.ledger import verify_export
from tests.server.conftest import Seats
from tests.server.test_characters import terrik

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
WHISPER = "the key is under the third stone"


def _say(client: TestClient, table: Seats, who: dict[str, str], **args: Any) -> Any:
    return client.post(
        f"/api/tables/{table.id}/actions", json={"action": "chat.say", "args": args}, headers=who
    )


def _error(answer: Any, status: int, field: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["field"] == field, error
    return str(error["message"])


def _log(client: TestClient, table: Seats, who: dict[str, str]) -> str:
    answer = client.get(f"/api/tables/{table.id}/events", headers=who)
    assert answer.status_code == 200, answer.text
    return answer.text


def _maras(client: TestClient, table: Seats) -> str:
    made = client.post(
        f"/api/tables/{table.id}/characters", json={"sheet": terrik()}, headers=table.mara
    )
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


@SQLITE
def test_a_message_in_and_out_of_character(client: TestClient, table: Seats) -> None:
    """Mara speaks out of character, then as her own Sir Terrik; both are public events whose
    result holds the text and the speaker's name from the sheet."""
    plain = _say(client, table, table.mara, text="Shall we rest here?")
    assert plain.status_code == 201, plain.text
    assert plain.json()["result"]["text"] == "Shall we rest here?"
    assert plain.json()["result"]["speaker"] is None
    character = _maras(client, table)
    spoken = _say(client, table, table.mara, text="For the realm!", **{"as": character})
    assert spoken.status_code == 201, spoken.text
    result = spoken.json()["result"]
    assert result["speaker"] == character and result["speaker_name"] == "Sir Terrik"
    assert "For the realm!" in _log(client, table, table.bram)


@SQLITE
@pytest.mark.parametrize(
    ("text", "field"),
    [("", "args.text"), ("   ", "args.text"), ("x" * 2001, "args.text"),
     ("hello\x00there", "args.text")],
)  # fmt: skip
def test_text_is_one_to_two_thousand_plain_characters(
    client: TestClient, table: Seats, text: str, field: str
) -> None:
    """An empty, blank, too long or NUL-holding message is a 422 naming ``text``; nothing is
    logged. 2,000 characters pass."""
    before = _log(client, table, table.narrator)
    _error(_say(client, table, table.mara, text=text), 422, field)
    assert _log(client, table, table.narrator) == before
    assert _say(client, table, table.mara, text="y" * 2000).status_code == 201


@SQLITE
def test_speaking_as_anothers_character_is_403_naming_the_owner(
    client: TestClient, table: Seats
) -> None:
    """Bram may not speak as Mara's Sir Terrik (403 naming Mara), nor as a character no one has
    (422 naming ``as``); the narrator speaks as Sir Terrik and as a passer-by."""
    character = _maras(client, table)
    message = _error(
        _say(client, table, table.bram, text="hi", **{"as": character}), 403, "args.as"
    )
    assert "Sir Terrik belongs to Mara" in message and "speak as" in message
    _error(_say(client, table, table.bram, text="hi", **{"as": "nobody"}), 422, "args.as")
    assert _say(client, table, table.narrator, text="Halt!", **{"as": character}).status_code == 201
    guard = _say(client, table, table.narrator, text="Halt!", **{"as": "the gate guard"})
    assert guard.status_code == 201 and guard.json()["result"]["speaker_name"] == "the gate guard"
    observed = _say(client, table, table.observer, text="hello")
    assert observed.status_code == 403, observed.text


@SQLITE
def test_a_whisper_to_an_unknown_seat_is_422_naming_to(client: TestClient, table: Seats) -> None:
    """``to`` naming no seat of this table, or an empty list, is refused naming ``to``; a
    message may not be blind or the narrator's only (it is whispered instead)."""
    message = _error(
        _say(client, table, table.mara, text="psst", to=["no-such-seat"]), 422, "args.to"
    )
    assert "no-such-seat" in message
    _error(_say(client, table, table.mara, text="psst", to=[]), 422, "args.to")
    blind = client.post(
        f"/api/tables/{table.id}/actions",
        json={"action": "chat.say", "args": {"text": "psst"}, "visibility": "blind"},
        headers=table.mara,
    )
    _error(blind, 422, "visibility")


def _read_stream(client: TestClient, table: Seats, who: dict[str, str], after: int = 0) -> str:
    """Every ``data:`` line the seat's stream sends after ``after`` until the newest event."""
    head = client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["head_seq"]
    url = f"/api/tables/{table.id}/stream?after={after}"
    received: list[str] = []
    last = 0
    with client.stream("GET", url, headers=who) as stream:
        for line in stream.iter_lines():
            received.append(line)
            if line.startswith("id: "):
                last = int(line[4:])
            if (not line and last >= head) or line.startswith(": keep-alive"):
                break
    return "\n".join(received)


def _narrator_seat(client: TestClient, table: Seats) -> str:
    return str(client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["seat"]["id"])


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
@pytest.mark.parametrize("to", ["bram", "narrator"])
def test_a_whisper_reaches_its_sender_the_seats_named_and_the_narrator_only(
    client: TestClient, table: Seats, to: str
) -> None:
    """Mara whispers to Bram, or to the narrator. Mara (its sender), its recipient and the
    narrator get it whole in the API's answer, the log, the stream and their exports; the
    other player (when not named) and the observer hold no byte of it in their logs, streams
    and exports (a bare link there, which still verifies); a public message after it reaches
    every seat."""
    recipient = table.bram_seat if to == "bram" else _narrator_seat(client, table)
    said = _say(client, table, table.mara, text=WHISPER, to=[recipient])
    assert said.status_code == 201, said.text
    assert said.json()["visibility"] == "whisper" and WHISPER in said.text
    seq = said.json()["seq"]
    assert _say(client, table, table.narrator, text="Night falls.").status_code == 201
    told = [table.mara, table.narrator] + ([table.bram] if to == "bram" else [])
    untold = [table.observer] + ([] if to == "bram" else [table.bram])
    for who in told:
        assert WHISPER in _log(client, table, who)
        assert WHISPER in _read_stream(client, table, who)
        assert WHISPER in client.get(f"/api/tables/{table.id}/export", headers=who).text
    for who in untold:
        assert WHISPER not in _log(client, table, who)
        streamed = _read_stream(client, table, who)
        assert "Night falls." in streamed and WHISPER not in streamed
        assert f"id: {seq}\n" not in streamed + "\n"
        export = client.get(f"/api/tables/{table.id}/export", headers=who)
        assert WHISPER not in export.text and "whisper" not in export.text
        link = next(event for event in export.json()["events"] if event["seq"] == seq)
        assert set(link) == {"seq", "hidden", "prev_hash", "hash", "body_hash"}
        assert link["hidden"] is True
        assert verify_export(export.json()).ok


@SQLITE
def test_a_whisper_to_the_narrator_never_reaches_another_players_open_stream(
    client: TestClient, table: Seats
) -> None:
    """Bram's stream is open (rows handed from memory) while Mara whispers to the narrator
    and then speaks aloud: Bram's bytes hold the public message and nothing of the whisper."""
    narrator_seat = _narrator_seat(client, table)
    url = f"/api/tables/{table.id}/stream"
    with client.stream("GET", url, headers=table.bram) as stream:
        lines = stream.iter_lines()
        assert next(lines) == "retry: 1000"
        assert _say(client, table, table.mara, text=WHISPER, to=[narrator_seat]).status_code == 201
        assert _say(client, table, table.mara, text="Onward!").status_code == 201
        received = []
        for line in lines:
            received.append(line)
            if "Onward!" in line:
                break
    assert WHISPER not in "\n".join(received)


@SQLITE
def test_inline_rolls_use_the_tables_dice_and_carry_exact_odds(
    client: TestClient, table: Seats
) -> None:
    """``[[2d6+1]]`` and ``[[cogent 5 cl 2]]`` are rolled with the scene's dice (in the event's
    ``dice``) and carry the exact chance of their total or of passing; ``[[check SKILL cl N]]``
    rolls the speaker's skill from the sheet."""
    said = _say(client, table, table.mara, text="I swing [[2d6+1]] then try [[cogent 5 cl 2]]")
    assert said.status_code == 201, said.text
    event = said.json()
    first, second = event["result"]["rolls"]
    assert first["kind"] == "dice" and len(first["faces"]) == 2
    assert first["total"] == sum(first["faces"]) + 1
    assert first["chance_of"] == f"{first['total']} or more" and "/" in first["chance"]
    assert second["kind"] == "check" and len(second["faces"]) == 5
    assert second["chance"] == "13/16"  # 5 dice, CL 2, wins on 4-6 (core): 1 - 6/32
    assert [die["face"] for die in event["dice"]] == [*first["faces"], *second["faces"]]
    character = _maras(client, table)
    checked = _say(client, table, table.mara, text="[[check Athletics cl 1]]", **{"as": character})
    assert checked.status_code == 201, checked.text
    assert checked.json()["result"]["rolls"][0]["kind"] == "check"
    closed = client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
    assert closed.status_code in (200, 201), closed.text
    export = client.get(f"/api/tables/{table.id}/export", headers=table.bram).json()
    verified = verify_export(export)  # the seed revealed: every inline die derives from it
    assert verified.ok and verified.dice_checked >= 7 + len(checked.json()["dice"])



@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_boons_inline_roll_at_a_boons_table(client: TestClient) -> None:
    """``[[boons +2 1 boon vs 15]]`` rolls a 3d8 check with the scene's dice and its exact
    chance to reach the target (the engine's ``odds.boons``)."""
    from tests.server.conftest import make_table

    table = make_table(client, system="boons")
    said = _say(client, table, table.mara, text="I leap [[boons +2 1 boon vs 15]]")
    assert said.status_code == 201, said.text
    (rolled,) = said.json()["result"]["rolls"]
    odds = client.post(
        f"/api/tables/{table.id}/actions",
        json={"action": "odds.boons", "args": {"bonus": 2, "boons": 1, "target": 15}},
        headers=table.mara,
    ).json()["result"]
    assert rolled["kind"] == "boons" and rolled["chance"] == odds["p_pass"]
    assert [die["face"] for die in said.json()["dice"]] == rolled["faces"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_labcats_inline_roll_at_a_labcats_table(client: TestClient) -> None:
    """``[[labcats d8 d6 d6 vs 7]]`` rolls the pool with the scene's dice and carries the
    exact chance to reach 7 (the engine's ``odds.labcats``)."""
    from tests.server.conftest import make_table

    table = make_table(client, system="labcats")
    said = _say(client, table, table.bram, text="[[labcats d8 d6 d6 vs 7]]")
    assert said.status_code == 201, said.text
    (rolled,) = said.json()["result"]["rolls"]
    odds = client.post(
        f"/api/tables/{table.id}/actions",
        json={"action": "odds.labcats", "args": {"pool": "d8,d6,d6", "target": 7}},
        headers=table.bram,
    ).json()["result"]
    assert rolled["kind"] == "labcats" and rolled["chance"] == odds["p_pass"]
    assert len(rolled["faces"]) == 3 and rolled["chance_of"] == "reaching 7"


@SQLITE
@pytest.mark.parametrize(
    ("text", "bad"),
    [("[[2d6+]]", "[[2d6+]]"), ("[[cogent five cl 2]]", "[[cogent five cl 2]]"),
     ("[[1000d6]]", "[[1000d6]]"), ("roll [[2d6", "never closed"), ("[[ ]]", "empty"),
     ("[[d6]]" * 11, "11 inline rolls"), ("[[check Athletics cl 2]]", "needs a character")],
)  # fmt: skip
def test_a_bad_inline_roll_refuses_the_message(
    client: TestClient, table: Seats, text: str, bad: str
) -> None:
    """A malformed inline roll, too many of them, too many dice or a skill check with no
    speaker is a 422 naming ``text`` and the bad part; nothing is logged."""
    before = _log(client, table, table.narrator)
    message = _error(_say(client, table, table.mara, text=text), 422, "args.text")
    assert bad in message, message
    assert _log(client, table, table.narrator) == before


def test_the_odds_of_a_notation_are_exact() -> None:
    """2d6+1 rolled 8: P(2d6+1 >= 8) = 21/36; 8d6>=4 with 3 successes: 1 - (1+8+28)/256."""
    from taletable.play.chat_rolls import _notation_odds

    assert _notation_odds("2d6+1", 8, None) == ("8 or more", "7/12")
    assert _notation_odds("8d6>=4", 3, 3) == ("3 or more successes", "219/256")
    assert _notation_odds("4d6kh3", 12, None) == ("", None)
    assert json.dumps(_notation_odds("1d4-1d4", 0, None)) == '["0 or more", "5/8"]'
