"""A live table's export checked whole: the ledger's chain and dice, then every result replayed.

:func:`taletable.ledger.verify_export` checks that the log is one chain and that every die came
from its scene's seed (and a hidden event's own secret). That alone would let a forger change
what was built from the dice (a roll's total, a fight's outcome) and recompute the chain. So
:func:`verify_table` also:

* holds the export's table settings (system, edition, rule options, house rules, physical
  dice) to those its opening event recorded (``table.open``, seq 1): a table cannot be
  switched to physical dice, or to other rules, by editing the export's ``table`` fields;
* replays every action of the log in order: its recorded request (``args``, and for a
  follow-up the entry it follows, read from the log as the server read it) through
  :func:`taletable.play.perform` at the table's rules, edition and house rules, with a dice
  source that hands out exactly the recorded dice, and a store holding what the log's saves
  left; the result, the changes and the saves it makes must be those recorded, every recorded
  die must be used, and faces typed by a seat (``entered``) only where the table allows them.

A seat's export holds hidden events as stubs, whose saves it cannot see: an action that reads
a stored thing after a hidden event and does not replay to its record is counted as taken on
trust (``Verification.trusted``), never as failed; every other action must replay. The
narrator's export replays everything.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from taletable.errors import InputError
from taletable.ledger import Verification, canonical_json, verify_export
from taletable.store.base import Kind, Versioned, check_kind

__all__ = ["house_rules_digest", "verify_table"]

#: The kind of a table's opening event, which records its settings.
OPENING = "table.open"
#: The settings a table's export states, and their value when its opening event names none.
SETTINGS: dict[str, Any] = {"system": None, "edition": None, "physical_dice": False, "rules": {}}
#: The events, other than actions, that save (a sheet added or edited through the API).
SHEET_SAVES = ("character.create", "character.update")


def house_rules_digest(house_rules: Mapping[str, Any]) -> str:
    """The SHA-256 of a table's house rules as canonical JSON (its opening event records it)."""
    return hashlib.sha256(canonical_json(dict(house_rules)).encode()).hexdigest()


class _Mismatch(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq = seq
        self.reason = reason


class _RecordedDice:
    """A dice source that hands out exactly an event's recorded dice, in order."""

    def __init__(self, seq: int, dice: Sequence[Mapping[str, Any]]) -> None:
        self.seq = seq
        self.dice = list(dice)
        self.used = 0

    @property
    def kind(self) -> str:
        return "ledger"

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        faces = []
        for _ in range(count):
            if self.used >= len(self.dice):
                raise _Mismatch(
                    self.seq, f"the action rolls more dice than the {self.used} recorded"
                )
            die = self.dice[self.used]
            if die.get("sides") != sides:
                raise _Mismatch(
                    self.seq,
                    f"die {self.used} is recorded as a d{die.get('sides')}, rolled a d{sides}",
                )
            faces.append(int(die["face"]))
            self.used += 1
        return tuple(faces)


class _ReplayStore:
    """What the log's saves left, read and saved like the table's store; it records its saves
    and whether anything was read."""

    def __init__(self, state: dict[tuple[str, str], Versioned]) -> None:
        self.state = state
        self.saves: list[dict[str, Any]] = []
        self.read_any = False

    def read(self, kind: Kind, key: str) -> Versioned:
        check_kind(kind)
        self.read_any = True
        thing = self.state.get((kind, key))
        if thing is None:
            raise InputError(kind, f"no {kind} is saved as {key!r}", expected="a saved key")
        return Versioned(thing.key, thing.version, _plain(thing.data))

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        from taletable.errors import ConflictError

        check_kind(kind)
        current = self.state.get((kind, key))
        now = current.version if current is not None else 0
        if (version or 0) != now:
            raise ConflictError(key, version=version or 0, current=now)
        saved = Versioned(key, now + 1, _plain(data))
        self.saves.append({"kind": kind, "key": key, "version": saved.version, "data": saved.data})
        return saved

    def keys(self, kind: Kind) -> tuple[str, ...]:
        check_kind(kind)
        self.read_any = True
        return tuple(sorted(key for stored, key in self.state if stored == kind))


def _plain(data: Mapping[str, Any]) -> dict[str, Any]:
    import json

    return dict(json.loads(canonical_json(dict(data))))


def _check_settings(table: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> None:
    """The export's table settings must be those its opening event recorded."""
    opening = events[0] if events else None
    if opening is None or opening.get("hidden") is True or opening.get("kind") != OPENING:
        raise _Mismatch(1, f"the log does not open with the table's {OPENING} event")
    for name, default in {**SETTINGS, "name": table.get("name")}.items():
        recorded = opening.get(name, default)
        if table.get(name, default) != recorded:
            raise _Mismatch(
                1,
                f"the export's table.{name} is {table.get(name)!r} but the table opened with "
                f"{recorded!r}",
            )
    house_rules = table.get("house_rules") or {}
    if not isinstance(house_rules, Mapping) or sorted(house_rules) != sorted(
        opening.get("house_rules") or []
    ):
        raise _Mismatch(1, "the export's table.house_rules are not those the table opened with")
    digest = opening.get("house_rules_digest")
    if digest is not None and digest != house_rules_digest(house_rules):
        raise _Mismatch(1, "the export's table.house_rules differ from those the table opened with")


def _follow_args(
    event: Mapping[str, Any],
    before: Mapping[int, Mapping[str, Any]],
    latest: Mapping[tuple[int, str], Mapping[str, Any]],
) -> dict[str, Any]:
    """A follow-up's args with the entry it follows, read from the log as the server read it
    (:mod:`taletable.server.followups`): the roll as its latest earlier follow-up of the same
    kind left it."""
    args, seq = dict(event.get("args") or {}), event["follows"]
    original = before.get(seq) if isinstance(seq, int) else None
    if original is None or original.get("hidden") is True or "action" not in original:
        raise _Mismatch(int(event["seq"]), f"it follows entry {seq!r}, which the log does not show")
    result = original.get("result")
    later = latest.get((seq, str(event.get("kind"))))
    if later is not None:
        result = (later.get("result") or {}).get("check", result)
    roll = {
        "action": original["action"],
        "args": original.get("args") or {},
        "result": result or {},
        "roller": original.get("actor"),
        "spender": event.get("actor"),
    }
    return {**args, "follows": seq, "roll": roll}


@dataclasses.dataclass
class _Replay:
    """The replay of one export: the table it plays at, the log's state so far, and counts."""

    table: Mapping[str, Any]
    state: dict[tuple[str, str], Versioned] = dataclasses.field(default_factory=dict)
    before: dict[int, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    latest: dict[tuple[int, str], Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    hidden_seen: bool = False
    replayed: int = 0
    trusted: int = 0

    @functools.cached_property
    def _rules(self) -> dict[str, Any]:
        """The table's edition and options, and its house rules as a library (made once)."""
        from taletable.library import RulesLibrary
        from taletable.systems.cogent.rules import Rules

        edition = self.table.get("edition") or "core"
        given: dict[str, Any] = {"rules": Rules(edition=edition, **(self.table.get("rules") or {}))}
        if self.table.get("house_rules"):
            given["library"] = RulesLibrary(dict(self.table["house_rules"]))
        return given

    def context(self, dice: _RecordedDice, store: _ReplayStore) -> Any:
        """The ``Table`` the server played at: the table's edition, options and house rules."""
        from taletable.play import Table

        return Table(store=store, dice=dice, **self._rules)

    def event(self, event: Mapping[str, Any]) -> None:
        """Replay ``event`` if it is an action (any event of an action's kind is), check a
        sheet's save otherwise, then take its saves into the state."""
        from taletable.play import all_actions

        seq = int(event["seq"])
        if event.get("hidden") is True:
            self.hidden_seen = True
        elif "action" in event or event.get("kind") in all_actions():
            self._action(seq, event)
        else:
            self._sheet_saves(seq, event)
        if event.get("hidden") is not True:
            for save in event.get("saves") or ():
                key = (str(save["kind"]), str(save["key"]))
                self.state[key] = Versioned(key[1], int(save["version"]), save["data"])
            self.before[seq] = event
            if isinstance(event.get("follows"), int):
                self.latest[(event["follows"], str(event.get("kind")))] = event

    def _sheet_saves(self, seq: int, event: Mapping[str, Any]) -> None:
        """An event that is no action saves only what the server's sheet routes save: the
        one character it names (``character.create`` and ``character.update``), the version
        after the log's (a seat's view, after a hidden event, only later than the log's)."""
        saves = event.get("saves") or []
        if not saves:
            return
        key = event.get("character")
        if event.get("kind") not in SHEET_SAVES or len(saves) != 1:
            raise _Mismatch(seq, f"a {event.get('kind')!r} event may save nothing")
        save = saves[0]
        if save.get("kind") != "character" or save.get("key") != key:
            raise _Mismatch(seq, f"it saves {save.get('kind')} {save.get('key')!r}, not {key!r}")
        held = self.state.get(("character", str(key)))
        after = (held.version if held is not None else 0) + 1
        version = save.get("version")
        if (
            not isinstance(version, int)
            or version < after
            or (version != after and not self.hidden_seen)
        ):
            raise _Mismatch(seq, f"it saves version {version!r} where {after} was due")

    def _action(self, seq: int, event: Mapping[str, Any]) -> None:
        from taletable.play import all_actions, perform

        action = event.get("action")
        actions = all_actions()
        if action != event.get("kind") or action not in actions:
            raise _Mismatch(seq, f"{action!r} is not an action of this engine, or not its kind")
        args = event.get("args") or {}
        given = actions[str(action)].request.dice_given(args) if isinstance(args, Mapping) else ()
        if event.get("entered", False) is not bool(given):
            raise _Mismatch(seq, "'entered' does not say whether the args carry typed faces")
        if given and not self.table.get("physical_dice"):
            raise _Mismatch(seq, f"args.{given[0]}: the table does not allow physical dice")
        if "follows" in event:
            args = _follow_args(event, self.before, self.latest)
        dice = _RecordedDice(seq, event.get("dice") or [])
        store = _ReplayStore(dict(self.state))
        try:
            played = perform(str(action), args, self.context(dice, store))
            found = self._differs(event, played, dice, store)
        except _Mismatch as mismatch:  # its dice are not those the replay rolls
            found = mismatch.reason
        except Exception as error:  # any failure to replay is the event's, never the verifier's
            found = f"the action does not replay: {error}"
        if found is None:
            self.replayed += 1
        elif self.hidden_seen and store.read_any:
            self.trusted += 1  # it read what a hidden event may have changed
        else:
            raise _Mismatch(seq, found)

    @staticmethod
    def _differs(
        event: Mapping[str, Any], played: Any, dice: _RecordedDice, store: _ReplayStore
    ) -> str | None:
        """What differs between the replay and the record, or None."""
        if dice.used != len(dice.dice):
            return f"the action rolls {dice.used} dice, not the {len(dice.dice)} recorded"
        replayed = {
            "result": played.to_data(),
            "changes": [change.to_data() for change in played.events],
            "saves": store.saves,
        }
        for name, value in replayed.items():
            if canonical_json(value) != canonical_json(
                event.get(name) or ([] if name != "result" else None)
            ):
                return f"its {name} is not what its request and dice give"
        return None


def verify_table(export: Mapping[str, Any]) -> Verification:
    """Check an export whole: :func:`~taletable.ledger.verify_export` (chain, seeds, dice),
    the table's settings against its opening event, and every action replayed to its
    recorded result. A failure names the first sequence number found wrong."""
    checked = verify_export(export)
    if not checked.ok:
        return checked
    table, events = export["table"], export["events"]
    replay = _Replay(table)
    try:
        _check_settings(table, events)
        for event in events:
            try:
                replay.event(event)
            except (ValueError, TypeError, KeyError, AttributeError) as error:
                raise _Mismatch(int(event["seq"]), f"malformed event: {error!r}") from None
    except _Mismatch as failure:
        return dataclasses.replace(checked, failed_seq=failure.seq, reason=failure.reason)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        return dataclasses.replace(checked, failed_seq=0, reason=f"malformed export: {error}")
    return dataclasses.replace(checked, replayed=replay.replayed, trusted=replay.trusted)
