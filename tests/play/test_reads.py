"""Actions declared reads (``@action(..., reads=True)``): each saves nothing and rolls no dice
when performed (issue 22: a live table answers a read without an event, so a read that
changed anything would change the table unlogged)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import tests.play.action_cases_sheets  # noqa: F401 -- registers its cases
from taletable.dice import SeededDice
from taletable.play import Played, Table, all_actions, perform
from taletable.play.registry import NotARead, action, is_read
from taletable.play.requests import Request
from taletable.store import MemoryStore
from taletable.store.base import Kind, Versioned
from tests.play.action_cases import CASES, _table

#: Every action declared a read, named here so that a change to the list is seen in review.
READS = {
    "boons.difficulty",
    "cheatsheet.cogent",
    "cogent.challenge-levels",
    "cogent.character.new.commerce",
    "cogent.character.new.starting-destiny",
    "cogent.character.new.step",
    "cogent.character.pools",
    "cogent.character.validate",
    "cogent.combat.replay",
    "cogent.combat.status",
    "cogent.npc.show",
    "cogent.powerless",
    "labcats.build",
    "odds.boons",
    "odds.boons.accumulate",
    "odds.cogent",
    "odds.cogent.advise",
    "odds.cogent.assist",
    "odds.cogent.collaborate",
    "odds.cogent.conflict",
    "odds.cogent.duel",
    "odds.cogent.fight",
    "odds.labcats",
    "table.list",
    "table.odds",
}


class _CountingStore(MemoryStore):
    def __init__(self, inner: MemoryStore) -> None:
        self.inner = inner
        self.saved: list[str] = []

    def read(self, kind: Kind, key: str) -> Versioned:
        return self.inner.read(kind, key)

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        self.saved.append(f"{kind} {key}")
        return self.inner.save(kind, key, data, version=version)

    def keys(self, kind: Kind) -> tuple[str, ...]:
        return self.inner.keys(kind)


class _CountingDice(SeededDice):
    def __init__(self) -> None:
        super().__init__(7)
        self.rolled = 0

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        self.rolled += count
        return super().roll(sides, count)


def test_the_reads_are_the_ones_named() -> None:
    assert {name for name, chosen in all_actions().items() if chosen.reads} == READS
    assert is_read("odds.cogent") and not is_read("cogent.check") and not is_read("nothing")


@pytest.mark.parametrize("name", sorted(READS))
def test_a_read_saves_nothing_and_rolls_no_dice(name: str) -> None:
    table = _table()
    args, check = CASES[name]
    given = args(table) if callable(args) else args
    assert isinstance(table.store, MemoryStore)
    store, dice = _CountingStore(table.store), _CountingDice()
    played = perform(name, given, Table(rules=table.rules, store=store, dice=dice))
    check(played, table)
    assert (store.saved, dice.rolled) == ([], 0)


def test_a_read_that_saves_or_rolls_is_refused() -> None:
    """The registry holds a read to its word: its store refuses saves, its dice rolls."""

    class Nothing(Request):
        pass

    def saves(request: Nothing, table: Table) -> Played[Any]:
        table.store.save("character", "x", {}, version=None)
        raise AssertionError("never reached")

    def rolls(request: Nothing, table: Table) -> Played[Any]:
        table.dice.roll(6)
        raise AssertionError("never reached")

    try:
        for function, said in ((saves, "saves the character 'x'"), (rolls, "rolls 1d6")):
            name = f"test.read.{function.__name__}"
            action(name, Nothing, reads=True)(function)
            with pytest.raises(NotARead, match=said):
                perform(name, {}, _table())
    finally:
        from taletable.play.registry import _EVERY, ACTIONS

        for name in ("test.read.saves", "test.read.rolls"):
            ACTIONS.pop(name, None)
        _EVERY.clear()
