"""The play layer's labcats actions (004), by name, through a memory store."""

from __future__ import annotations

from typing import Any

import pytest

from taletable.dice import SeededDice
from taletable.errors import InputError
from taletable.explain import render_all
from taletable.play import Table, perform
from taletable.store import MemoryStore


def _table() -> Table:
    return Table(dice=SeededDice(3), store=MemoryStore())


def test_labcats_roll_keeps_the_two_highest_and_the_best_resource() -> None:
    """004 > Rolling the Dice: "Add together the two highest dice from your main pool. Also add
    the highest die from your Resources"; a 1 is a Complication."""
    args = {"pool": "d8,d6,d6", "resources": "d6", "faces": "7,1,4", "resource_faces": "5"}
    played = perform("labcats.roll", args, _table())
    assert played.result.total == 7 + 4 + 5
    assert played.result.complications == (6,)
    seeded = perform("labcats.roll", {"pool": ["d8", 6]}, _table()).result
    assert seeded == perform("labcats.roll", {"pool": "d8,d6"}, _table()).result
    with pytest.raises(InputError, match="^resource_faces: faces given for the main pool only"):
        perform("labcats.roll", {"pool": "d8", "resources": "d6", "faces": "3"}, _table())
    with pytest.raises(InputError, match="^resource_faces: no resources to roll"):
        perform("labcats.roll", {"pool": "d8", "faces": "3", "resource_faces": "2"}, _table())
    with pytest.raises(InputError, match="^pool: 'd7' is not a die"):
        perform("labcats.roll", {"pool": "d7"}, _table())


def test_labcats_build_prices_the_pool() -> None:
    """004 > Dice Pool: "If you're challenging the Value, pick up three dice for that Value"."""
    args = {"value": "Duty=d8", "relationships": ["Ann=d6"], "challenged": ["Duty"]}
    plan = perform("labcats.build", args, _table()).result
    assert plan.pool.count(8) == 3 and 6 in plan.pool
    assert plan.step_down_after == ("Duty",)
    with pytest.raises(InputError, match="^challenged: no trait named 'Bob'; expected Duty, Ann"):
        perform("labcats.build", {**args, "challenged": ["Bob"]}, _table())
    with pytest.raises(InputError, match="^value/relationships/traits: two traits named 'Ann'"):
        perform("labcats.build", {"value": "Ann=d8", "relationships": ["Ann=d6"]}, _table())


def test_labcats_trouble_adds_a_complication_for_a_plot_point() -> None:
    """004 > Rolling the Dice 1: "the Watchtower can pay a Plot Point to add a Complication die
    to the Trouble Pool"."""
    args = {"complications": "d8", "add": "d8", "watchtower_points": 1, "player": "Ann"}
    played = perform("labcats.trouble", args, _table())
    assert played.result.trouble_pool == (8,)
    assert played.result.plot_points["Ann"] == 1
    assert played.result.to_data()["trouble_pool"] == [8]
    assert render_all(played.result.log) == [
        "Watchtower -1 adds a d8 to the Trouble Pool",
        "Ann +1 from the Watchtower for a Complication",
    ]
    assert played.result.log[0].values["who"] == "Watchtower"
    with pytest.raises(InputError, match="^add/remove: give exactly one"):
        perform("labcats.trouble", {"complications": "d8"}, _table())
    with pytest.raises(InputError, match="^player_points: -2 Plot Points; expected 0 or more"):
        perform("labcats.trouble", {**args, "player_points": -2}, _table())


def test_the_cli_spells_the_fields_a_message_mentions_as_flags(run_cli: Any) -> None:
    """Play names ``{add}/{remove}`` and ``{resources}``; the person reads the flags typed."""
    both = run_cli("labcats", "trouble", "--complications", "d8")
    assert both.stderr == (
        "taletable: error: --add/--remove: give exactly one; expected --add LIST or --remove LIST\n"
    )
    side = run_cli("labcats", "roll", "--pool", "d8", "--faces", "3", "--resource-faces", "2")
    assert side.stderr == (
        "taletable: error: --resource-faces: no --resources to roll; expected --resources\n"
    )
