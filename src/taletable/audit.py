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
from taletable.ledger import LimitExceeded, Verification, canonical_json, verify_export
from taletable.ledger.export_file import ExportSource
from taletable.ledger.failures import Failure
from taletable.ledger.verify import ExportWalk, as_source, table_of
from taletable.log_entry import Die, LogEntry, MalformedEntry, read_entry
from taletable.play.results import RESULTS, decisive, results_of
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

    def __init__(self, seq: int, dice: Sequence[Die]) -> None:
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
            if die.sides != sides:
                raise _Mismatch(
                    self.seq, f"die {self.used} is recorded as a d{die.sides}, rolled a d{sides}"
                )
            faces.append(die.face)
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


def _check_settings(table: Mapping[str, Any], opening: LogEntry | None) -> None:
    """The export's table settings must be those its opening event recorded."""
    if opening is None or opening.hidden or opening.kind != OPENING:
        raise _Mismatch(1, f"the log does not open with the table's {OPENING} event")
    recorded = {
        "system": opening.system,
        "edition": opening.edition,
        "physical_dice": opening.physical_dice,
        "rules": opening.rules,
        "name": opening.name if "name" in opening.model_fields_set else table.get("name"),
    }
    for name, value in recorded.items():
        if table.get(name, SETTINGS.get(name)) != value:
            raise _Mismatch(
                1,
                f"the export's table.{name} is {table.get(name)!r} but the table opened with "
                f"{value!r}",
            )
    house_rules = table.get("house_rules") or {}
    if not isinstance(house_rules, Mapping) or sorted(house_rules) != sorted(opening.house_rules):
        raise _Mismatch(1, "the export's table.house_rules are not those the table opened with")
    digest = opening.house_rules_digest
    if digest is not None and digest != house_rules_digest(house_rules):
        raise _Mismatch(1, "the export's table.house_rules differ from those the table opened with")


def _follow_args(
    entry: LogEntry, before: Mapping[int, LogEntry], latest: Mapping[tuple[int, str], LogEntry]
) -> dict[str, Any]:
    """A follow-up's args with the entry it follows, read from the log as the server read it
    (:mod:`taletable.server.followups`): the roll as its latest earlier follow-up of the same
    kind left it."""
    seq = entry.follows
    original = before.get(seq) if seq is not None else None
    if original is None or original.hidden or original.action is None:
        raise _Mismatch(entry.seq, f"it follows entry {seq!r}, which the log does not show")
    result = original.result
    later = latest.get((original.seq, entry.kind))
    if later is not None:
        result = (later.result or {}).get("check", result)
    roll = {
        "action": original.action,
        "args": original.args,
        "result": result or {},
        "roller": original.actor,
        "spender": entry.actor,
    }
    return {**entry.args, "follows": seq, "roll": roll}


@dataclasses.dataclass
class _Replay:
    """The replay of one export: the table it plays at, the log's state so far, and counts."""

    table: Mapping[str, Any]
    state: dict[tuple[str, str], Versioned] = dataclasses.field(default_factory=dict)
    before: dict[int, LogEntry] = dataclasses.field(default_factory=dict)
    latest: dict[tuple[int, str], LogEntry] = dataclasses.field(default_factory=dict)
    hidden_seen: bool = False
    #: The results version of the engine that made the log (its opening entry's ``engine``).
    results: int = RESULTS
    #: The seqs later entries follow: only those are kept in :attr:`before`.
    followed: set[int] = dataclasses.field(default_factory=set)
    replayed: int = 0
    trusted: int = 0

    @functools.cached_property
    def _rules(self) -> dict[str, Any]:
        """The table's edition and options, and its house rules as a library (made once)."""
        from taletable.library import RulesLibrary
        from taletable.systems.cogent.rules import Rules

        edition = self.table.get("edition") or "core"
        # a boons table's options (Let it Ride's) are the live table's, not Cogent ``Rules``
        cogent = self.table.get("system", "cogent") == "cogent"
        options = (self.table.get("rules") or {}) if cogent else {}
        given: dict[str, Any] = {"rules": Rules(edition=edition, **options)}
        if self.table.get("house_rules"):
            given["library"] = RulesLibrary(dict(self.table["house_rules"]))
        return given

    def context(self, dice: _RecordedDice, store: _ReplayStore) -> Any:
        """The ``Table`` the server played at: the table's edition, options and house rules."""
        from taletable.play import Table

        return Table(store=store, dice=dice, **self._rules)

    def event(self, entry: LogEntry) -> None:
        """Replay ``entry`` if it is an action (any entry of an action's kind is), check a
        sheet's save otherwise, then take its saves into the state."""
        from taletable.play import all_actions

        if entry.hidden:
            self.hidden_seen = True
            return
        if entry.is_action or entry.kind in all_actions():
            self._action(entry)
        else:
            self._sheet_saves(entry)
        for save in entry.saves:
            self.state[(save.kind, save.key)] = Versioned(save.key, save.version, save.data)
        if entry.seq in self.followed:
            self.before[entry.seq] = entry
        if entry.follows is not None:
            self.latest[(entry.follows, entry.kind)] = entry

    def _sheet_saves(self, entry: LogEntry) -> None:
        """An entry that is no action saves only what the server's sheet routes save: the
        one character it names (``character.create`` and ``character.update``), the version
        after the log's (a seat's view, after a hidden event, only later than the log's)."""
        saves, seq, key = entry.saves, entry.seq, entry.character
        if not saves:
            return
        if entry.kind not in SHEET_SAVES or len(saves) != 1:
            raise _Mismatch(seq, f"a {entry.kind!r} event may save nothing")
        save = saves[0]
        if save.kind != "character" or save.key != key:
            raise _Mismatch(seq, f"it saves {save.kind} {save.key!r}, not {key!r}")
        held = self.state.get(("character", str(key)))
        after = (held.version if held is not None else 0) + 1
        if save.version < after or (save.version != after and not self.hidden_seen):
            raise _Mismatch(seq, f"it saves version {save.version!r} where {after} was due")

    def _action(self, entry: LogEntry) -> None:
        from taletable.play import all_actions, perform

        action, seq, actions = entry.action, entry.seq, all_actions()
        if action != entry.kind or action not in actions:
            raise _Mismatch(seq, f"{action!r} is not an action of this engine, or not its kind")
        args: dict[str, Any] = entry.args
        given = actions[action].request.dice_given(args)
        if entry.entered is not bool(given):
            raise _Mismatch(seq, "'entered' does not say whether the args carry typed faces")
        if given and not self.table.get("physical_dice"):
            raise _Mismatch(seq, f"args.{given[0]}: the table does not allow physical dice")
        if entry.follows is not None:
            args = _follow_args(entry, self.before, self.latest)
        dice = _RecordedDice(seq, entry.dice)
        store = _ReplayStore(dict(self.state))
        try:
            played = perform(action, args, self.context(dice, store))
            found = self._differs(entry, played, dice, store, self.results)
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
        entry: LogEntry, played: Any, dice: _RecordedDice, store: _ReplayStore, results: int
    ) -> str | None:
        """What differs between the replay and the record, or None. A result an older engine
        made (``results`` below this one's) is held to what decides it, its presentation
        aside (:func:`taletable.play.results.decisive`); this engine's, to every field."""
        if dice.used != len(dice.dice):
            return f"the action rolls {dice.used} dice, not the {len(dice.dice)} recorded"
        result: tuple[Any, Any] = (played.to_data(), entry.result)
        if results < RESULTS:
            result = (decisive(result[0]), decisive(result[1]))
        replayed = {
            "result": result,
            "changes": (
                [change.to_data() for change in played.events],
                [change.model_dump(exclude_unset=True) for change in entry.changes],
            ),
            "saves": (store.saves, [save.model_dump(exclude_unset=True) for save in entry.saves]),
        }
        for name, (made, recorded) in replayed.items():
            if canonical_json(made) != canonical_json(recorded):
                return f"its {name} is not what its request and dice give"
        return None


def verify_table(
    export: Mapping[str, Any] | ExportSource, own_seeds: Sequence[str] = ()
) -> Verification:
    """Check an export whole: the ledger's checks (:class:`~taletable.ledger.verify.ExportWalk`:
    chain, seeds, dice, and the seeds a seat kept, ``own_seeds``), the table's settings against
    its opening event, and every action replayed to its recorded result. A failure names the
    first sequence number found wrong.

    ``export`` is a document, or an :class:`~taletable.ledger.ExportFile` read as a stream in
    two passes: the replay keeps the state the log's saves left and the entries that later
    entries follow, never the whole log."""
    source = as_source(export)
    table = table_of(source)
    if table is None:
        return verify_export(source)
    walk, replay = ExportWalk(str(table.get("id")), own_seeds), _Replay(table)
    try:
        for event in source.events():
            walk.first(event)
        walk.end_first()
        if walk.chain.events == 0:
            _check_settings(table, None)
        replay.followed = walk.followed
        for index, event in enumerate(source.events()):
            walk.second(event)
            _replay_one(replay, event, first=index == 0)
        walk.check_scene_list(source.header)
    except Failure as failure:
        return walk.failed(failure.seq, failure.reason)
    except LimitExceeded as limit:
        return walk.failed(0, str(limit))
    except MalformedEntry as malformed:
        return walk.failed(malformed.seq or 0, f"malformed event: {malformed}")
    except _Mismatch as failure:
        return walk.failed(failure.seq, failure.reason)
    except (ValueError, TypeError, KeyError) as error:
        return walk.failed(0, f"malformed export: {error}")
    return dataclasses.replace(
        walk.verification(), replayed=replay.replayed, trusted=replay.trusted
    )


def _replay_one(replay: _Replay, event: Mapping[str, Any], *, first: bool) -> None:
    entry = read_entry(event)
    if first:
        _check_settings(replay.table, entry)
        replay.results = results_of(entry.engine)
        if not 1 <= replay.results <= RESULTS:
            raise _Mismatch(1, f"its results are of version {replay.results!r}, which this "
                            f"build (results {RESULTS}) cannot replay: verify with a newer "
                            "one")  # fmt: skip
    try:
        replay.event(entry)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise _Mismatch(entry.seq, f"malformed event: {error!r}") from None
