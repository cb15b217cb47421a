"""The play layer's dice-notation roll and boons actions, by name, through a memory store."""

from __future__ import annotations

import pytest

from taletable.dice import SeededDice
from taletable.errors import InputError, RulesError
from taletable.play import BoonsGroupRequest, GroupMember, Table, boons_group, perform
from taletable.store import MemoryStore


def _table(seed: int = 1) -> Table:
    return Table(dice=SeededDice(seed), store=MemoryStore())


def test_roll_by_name_with_given_faces_and_a_seed() -> None:
    """``4d6kh3`` keeps the three highest of the given faces; a seed repeats itself."""
    played = perform("roll", {"notation": "4d6kh3", "faces": "5,4,1,3"}, _table())
    assert (played.result.total, played.result.faces) == (12, (5, 4, 1, 3))
    assert played.events[0].kind == "roll" and played.events[0].data["notation"] == "4d6kh3"
    seeded = perform("roll", {"notation": "8d6>=4"}, _table(42)).result
    assert seeded == perform("roll", {"notation": "8d6>=4"}, _table(42)).result
    assert seeded.successes == sum(face >= 4 for face in seeded.faces)
    with pytest.raises(InputError, match="^faces: .*needs 2 more"):
        perform("roll", {"notation": "4d6", "faces": "1,2"}, _table())


def test_boons_check_builds_its_bonus_from_its_parts() -> None:
    """003 > Boons & Banes: 2 boons upgrade "the first die in his 3d8 dice pool twice, from an d8
    to a d12", each with "a flat +1 modifier"; ability scores averaged, rounded up."""
    args = {"ability": "3,4", "skill": 2, "enchantment": "1", "boons": 2, "target": 20,
            "faces": "12,8,7"}  # fmt: skip
    result = perform("boons.check", args, _table()).result
    assert result.bonus == 4 + 2 + 1
    assert result.dice == (12, 8, 8)
    assert result.total == 12 + 8 + 7 + 7 + 2
    assert result.passed is True
    with pytest.raises(InputError, match=r"^ability \+ skill \+ enchantment: 99999") as caught:
        perform("boons.check", {"skill": 99999}, _table())
    assert caught.value.mentions[:3] == ("ability", "skill", "enchantment")
    with pytest.raises(InputError, match="^bonus: give bonus or its parts, not both"):
        perform("boons.check", {"bonus": 1, "skill": 1}, _table())


def test_boons_contest_and_its_tie_rules() -> None:
    """003 > Resolving Contest Ties: "the defender wins" a tie."""
    args = {"faces_a": "4,4,4", "faces_b": "4,4,4", "defender": "b"}
    result = perform("boons.contest", args, _table()).result
    assert (result.winner, result.tie_rule) == ("b", "1: the defender wins a tie")
    with pytest.raises(InputError, match="^faces_a: the contest tied, so reroll 1"):
        perform("boons.contest", {"faces_a": "4,4,4", "faces_b": "4,4,4"}, _table())
    with pytest.raises(InputError, match="^faces_a: give both"):
        perform("boons.contest", {"faces_a": "4,4,4"}, _table())
    with pytest.raises(InputError, match="^b_banes: 8 is out of range"):
        perform("boons.contest", {"b_banes": 8}, _table())


def test_boons_group_takes_records_or_the_text_form() -> None:
    """003 > Group Challenges: each member rolls against a secret target; rerolls before fixing."""
    request = BoonsGroupRequest(
        difficulty="easy",
        members=(GroupMember(name="Irzi", bonus=9, target=25), "Tam:2:10"),
        rerolls=("Tam",),
        faces=(8, 8, 8, 1, 1, 1, 8, 8, 8),
    )
    challenge = boons_group(request, _table()).result
    assert challenge.fixed and challenge.rerolls == ("Tam",)
    assert [result.total for result in challenge.results] == [33, 26]
    with pytest.raises(InputError, match="^members TARGET: 5000") as caught:
        perform("boons.group", {"difficulty": "easy", "members": ["Irzi:9:5000"]}, _table())
    assert caught.value.field == "{members} TARGET"
    with pytest.raises(InputError, match="^members: 'Irzi'"):
        perform("boons.group", {"difficulty": "easy", "members": ["Irzi"]}, _table())


def test_boons_twist_scatter_and_difficulty() -> None:
    """003 > Twists of Fate (a d100), Scatter Dice (1 on the square grid's d10 is a direct hit)
    and the difficulty tiers."""
    twist = perform("boons.twist", {"face": 1}, _table()).result
    assert twist.roll == 1 and twist.dice_source == "given"
    scatter = perform("boons.scatter", {"grid": "square", "faces": "1,5"}, _table()).result
    assert scatter.direct_hit is True and scatter.distance == 0
    tiers = perform("boons.difficulty", {}, _table()).result.tiers
    assert tiers[0].low >= 1
    with pytest.raises(InputError, match="^grid"):
        perform("boons.scatter", {"grid": "triangle"}, _table())


def test_a_fixed_group_challenge_is_final() -> None:
    """003 > Group Challenges: once fixed, the outcome is final."""
    request = BoonsGroupRequest(difficulty="easy", members=("Tam:2:10",), faces=(1, 1, 1))
    challenge = boons_group(request, _table()).result
    with pytest.raises(RulesError, match="fixed"):
        challenge.reroll("Tam", SeededDice(1))
