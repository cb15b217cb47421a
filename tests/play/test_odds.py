"""The play layer's odds and cheatsheet, through a memory store, by name (issue 11)."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import SeededDice
from taletable.errors import InputError, RulesError
from taletable.play import CheckOddsRequest, Table, all_actions, odds_check, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.rules import Rules

TERRIK = Path("examples/characters/core_sir_terrik.yaml")
ODDS = (
    "cheatsheet.cogent", "odds.boons", "odds.cogent", "odds.cogent.advise", "odds.cogent.assist",
    "odds.cogent.collaborate", "odds.cogent.conflict", "odds.cogent.duel", "odds.cogent.fight",
    "odds.labcats",
)  # fmt: skip


def _table(**rules: object) -> Table:
    return Table(rules=Rules(**rules), dice=SeededDice(1), store=MemoryStore())


def test_every_odds_action_is_registered_by_its_command_path() -> None:
    """The action names are the CLI's command paths joined by dots."""
    assert set(ODDS) <= set(all_actions())


@pytest.mark.parametrize(
    ("name", "args", "value"),
    [
        # 4D6 at CL 3, wins on 4-6: P(3 or 4 wins) = (4 + 1) / 16.
        ("odds.cogent", {"pool": 4, "cl": 3}, ("p_pass", "5/16")),
        # 000 > Narrator Declares the CL: "a Dice Pool of 4D6 and ... 31% ... generate a CL 3".
        ("odds.cogent.advise", {"pool": 4, "chance": 31}, ("cl", 3)),
        ("odds.cogent.conflict", {"pool_a": 5, "pool_b": 5}, ("p_a", "1/2")),
        ("odds.cogent.assist", {"pool": 5, "cl": 4, "assist_pool": 7}, ("p_pass_alone", "3/16")),
        ("odds.cogent.collaborate", {"pools": "4,4,4,4", "cl": 3}, ("cl", 12)),
        ("odds.boons", {"bonus": 0, "target": 3}, ("p_pass", "1/1")),
        ("odds.labcats", {"pool": "d6", "target": 7}, ("p_pass", "0/1")),
    ],
)
def test_odds_by_name(name: str, args: dict[str, Any], value: tuple[str, Any]) -> None:
    """Each action answers the CLI contract's figure, with one event of its own kind."""
    played = perform(name, args, _table())
    key, wanted = value
    assert played.result.to_data()[key] == wanted
    assert [event.kind for event in played.events] == [name]


def test_collaboration_odds_sum_the_pools() -> None:
    """000 > Collaborations: four 4D6 lifters at CL 3 each face CL 12 on 16 dice."""
    played = perform("odds.cogent.collaborate", {"pools": [4, 4, 4, 4], "cl": 3}, _table())
    wanted = Fraction(sum(comb(16, k) for k in range(12, 17)), 2**16)
    assert played.result.p_pass == wanted


def test_odds_of_a_stored_sheet_play_in_its_edition() -> None:
    """A sheet in the store builds the pool as a check does; its edition rules the odds."""
    table = _table(edition="tiered")
    table.store.save("character", "terrik", yaml.safe_load(TERRIK.read_text()), version=None)
    played = odds_check(
        CheckOddsRequest(character="terrik", skill="Athletics", challenge_level=3), table
    )
    rolled = perform(
        "cogent.check", {"character": "terrik", "skill": "Athletics", "cl": 3}, table
    ).result
    assert played.result.odds.pool == rolled.pool
    assert played.result.breakdown == rolled.breakdown
    assert played.events[0].subject == "terrik"
    # Terrik's sheet is core: narrator Advantage is refused even at a tiered table.
    with pytest.raises(RulesError, match="no narrator Advantage"):
        perform("odds.cogent", {"character": "terrik", "skill": "Athletics", "cl": 3,
                                "advantage": True}, table)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "args", "field"),
    [
        ("odds.cogent", {"skill": "Stealth", "cl": 3}, "character/skill"),
        ("odds.cogent", {"pool": 4}, "pool/challenge_level"),
        ("odds.cogent.advise", {"pool": 4, "chance": 140}, "chance"),
        ("odds.cogent.advise", {"pool": 4, "chance": float("nan")}, "chance"),
        ("odds.cogent.fight", {"fighters": ["a:a:@goblin", "b:b:@wolf"], "rounds": 0}, "rounds"),
        ("odds.cogent.fight", {"fighter": ["a:a:@orc:Axe:Axe", "b:b:@wolf"]}, "fighters"),
        ("odds.boons", {"bonus": 2}, "target"),
        ("odds.boons", {"target": 9, "against_bonus": 2000}, "against_bonus"),
        ("odds.boons", {"target": 9, "boons": 7}, "boons"),
        ("odds.boons", {"target": 2000}, "target"),
        ("odds.labcats", {"pool": "d6"}, "target"),
        ("odds.labcats", {"pool": "d6", "resources": ",".join(["d6"] * 41), "target": 3},
         "resources"),
        ("odds.labcats", {"pool": "d6", "add": -1, "target": 3}, "add"),
    ],
)  # fmt: skip
def test_bad_odds_requests_name_their_logical_field(
    name: str, args: dict[str, Any], field: str
) -> None:
    """Play speaks in the request's fields; the CLI spells them as flags."""
    with pytest.raises(InputError) as caught:
        perform(name, args, _table())
    assert caught.value.field == field


def test_core_refuses_narrator_advantage_in_the_odds_as_in_the_roll() -> None:
    """000 > Advantage and Disadvantage are the tiered edition's: the core odds refuse them."""
    with pytest.raises(RulesError, match="no narrator Advantage"):
        perform("odds.cogent", {"pool": 4, "cl": 3, "advantage": True}, _table())
    tiered = perform(
        "odds.cogent", {"pool": 4, "cl": 3, "advantage": True}, _table(edition="tiered")
    )
    assert tiered.result.odds.p_pass == Fraction(16, 27)  # 4 dice winning on 3-6, 3 or more
    with pytest.raises(RulesError, match="no narrator Advantage"):
        perform("odds.cogent.conflict", {"pool_a": 3, "pool_b": 3, "advantage_a": True}, _table())


def test_a_conflict_where_a_side_takes_half_its_pool() -> None:
    """000 > Destiny Points > Before a Dice Roll: half the pool as wins, instead of rolling.
    Side a takes 3 wins from 6 dice; b's 1D6 can win at most 1: a always wins."""
    played = perform(
        "odds.cogent.conflict",
        {"pool_a": 6, "pool_b": 1, "destiny_before_a": "half"},
        _table(edition="tiered"),
    )
    assert (played.result.p_a, played.result.p_b) == (1, 0)


def test_the_cheatsheet_exact_and_as_floats() -> None:
    """The exact sheet and the float one agree; 4D6 at CL 3 is 5/16 on 4-6."""
    exact = perform("cheatsheet.cogent", {"max_pool": 4, "max_cl": 3, "win_on": "4"}, _table())
    assert exact.result.exact[4][3][3] == Fraction(5, 16)
    floats = perform(
        "cheatsheet.cogent", {"max_pool": 4, "max_cl": 3, "exact": False}, _table()
    ).result.floats
    assert sorted(floats) == [3, 4, 5]
    assert floats[4][3][3] == pytest.approx(5 / 16)


def test_duel_and_fight_odds_by_name() -> None:
    """A duel from bestiary names; a seeded fight is reproducible."""
    duel = perform("odds.cogent.duel", {"a": "@goblin", "b": "@wolf", "rounds": 10}, _table())
    assert duel.result.a.startswith("Goblin") and duel.result.b.startswith("Wolf")
    total = duel.result.odds.p_a + duel.result.odds.p_b + duel.result.odds.p_undecided
    assert total == 1
    args = {"fighter": ["g:a:@goblin", "w:b:@wolf"], "samples": 20, "seed": 4}
    assert (
        perform("odds.cogent.fight", args, _table()).result
        == perform("odds.cogent.fight", args, _table()).result
    )
