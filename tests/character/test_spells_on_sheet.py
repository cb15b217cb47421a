"""The example magic system on a sheet: one school, its spells, up to two points each."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.errors import RulesError
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.character.spells import spell_check_pool

EXAMPLES = Path("examples/characters")
ILSA = yaml.safe_load((EXAMPLES / "core_ilsa_the_wizard.yaml").read_text())
ERIN = yaml.safe_load((EXAMPLES / "tiered_erin_the_mage.yaml").read_text())


def problems(data: dict[str, Any]) -> list[str]:
    return [str(p) for p in validate(character_from_data(data, source="test")).problems]


def with_magic(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    data["magic"] = {**data["magic"], **changes}
    return data


def test_the_sample_mage_records_a_school_and_pays_for_her_spells() -> None:
    """002: "Each spell is an individual proficiency that a player can spend up to two skill
    points in": Ilsa's 2 + 1 + 1 spell points are skill points she spent."""
    sheet = character_from_data(ILSA, source="ilsa")
    report = validate(sheet)
    assert report.legal and report.budget.skill_points_left == 0
    assert sheet.magic is not None and sheet.magic.school == "Wizardry"
    without = copy.deepcopy(ILSA)
    del without["magic"]
    assert validate(character_from_data(without, source="x")).budget.skill_points_left == 4


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"spells": [{"name": "Pyromancy", "points": 1}]},
         "Pyromancy is not a Wizardry spell"),
        ({"spells": [{"name": "Levitation", "points": 3}]}, "Levitation has 3 points"),
        ({"spells": [{"name": "Fireball", "points": 1}]}, "'Fireball' is not a spell"),
        ({"school": "Alchemy"}, "'Alchemy' is not a school of magic"),
        ({"spells": [{"name": "Telepathy"}, {"name": "telepathy"}]}, "Telepathy twice"),
        ({"vocation": None}, "no vocation for the spells"),
        ({"vocation": "Bard"}, "no vocation 'Bard'"),
    ],
)  # fmt: skip
def test_a_magic_section_breaking_a_rule_is_refused(changes: dict[str, Any], message: str) -> None:
    """002 > Classic Fantasy Magic system: a school exists, "once a school is chosen the player
    can only select spells from that specific school", "up to two skill points"."""
    found = problems(with_magic(ILSA, **changes))
    assert any(message in problem for problem in found), found


def test_the_one_school_rule_quotes_the_book_and_the_narrator_may_mix() -> None:
    """The narrator is "more than free to mix and match": mixed_schools lifts the one school."""
    other = with_magic(ILSA, spells=[{"name": "Levitation", "points": 2},
                                     {"name": "Pyromancy", "points": 2}])  # fmt: skip
    assert any("can only select spells from that specific school" in p for p in problems(other))
    mixed = with_magic(other, mixed_schools=True)
    assert not any("Pyromancy" in p for p in problems(mixed))


def test_spells_nest_under_their_vocation_like_proficiencies() -> None:
    """002 > Vocations: "up to four skills" under a vocation and "never assign more points to a
    Vocational Skill or Combat Skill than you have assigned to its parent Vocation"."""
    low = copy.deepcopy(ILSA)
    low["vocations"][0]["points"] = 1
    assert any("Levitation (2) is above its vocation Wizard (1)" in p for p in problems(low))
    many = with_magic(ILSA, spells=[{"name": n} for n in ("Levitation", "Telepathy",
                                                         "Illusion", "Divination")])  # fmt: skip
    assert any("5 skills under Wizard, 4 of them spells" in p for p in problems(many))


def test_tiered_school_is_a_specialisation_and_spells_hold_no_points() -> None:
    """000 > Dice Pools: Erin's fireball is "a Sorcery Specialisation check"; her school must be a
    specialisation, and her spells carry no points of their own (RULINGS.md)."""
    assert validate(character_from_data(ERIN, source="erin")).legal
    pointed = with_magic(ERIN, spells=[{"name": "Pyromancy", "points": 1}])
    assert any("Pyromancy has 1 points" in p for p in problems(pointed))
    wizard = with_magic(ERIN, school="Wizardry", spells=[{"name": "Levitation"}])
    assert any("no specialisation 'Wizardry'" in p for p in problems(wizard))


def test_a_spells_pool_is_built_from_the_sheet() -> None:
    """Ilsa's Levitation: 3 base + 2 INT + 2 points = 7D6. Erin (000): "3D6 (Base) + 1D6
    (Intelligence) + 1D6 (Mage Vocation) + 1D6 (Sorcery)" for her Pyromancy (the book says 5D6;
    the parts add up to 6, RULINGS.md "Erin's pool")."""
    ilsa = spell_check_pool(character_from_data(ILSA, source="ilsa"), "levitation")
    assert ilsa.size == 7
    erin = spell_check_pool(character_from_data(ERIN, source="erin"), "Pyromancy")
    assert erin.size == 6
    assert [c.source for c in erin.contributions] == ["base", "INT", "Mage rank", "Sorcery"]


def test_a_spell_the_sheet_does_not_hold_is_refused() -> None:
    """Only the spells chosen from the school can be cast from a sheet; no school, no spells."""
    with pytest.raises(RulesError, match="Ilsa does not know Illusion"):
        spell_check_pool(character_from_data(ILSA, source="ilsa"), "Illusion")
    plain = copy.deepcopy(ILSA)
    del plain["magic"]
    with pytest.raises(RulesError, match="records no school of magic"):
        spell_check_pool(character_from_data(plain, source="x"), "Levitation")


def test_the_pools_view_lists_each_spell(run_cli: Any) -> None:
    """`character pools` shows each spell's pool with its parts; `show` prints the section."""
    ilsa = str(EXAMPLES / "core_ilsa_the_wizard.yaml")
    pools = run_cli("cogent", "character", "pools", ilsa, "--json")
    assert pools.status == 0, pools.stderr
    assert pools.json()["spells"]["Telepathy (spell)"]["dice"] == 6
    shown = run_cli("cogent", "character", "show", ilsa)
    assert "magic: school Wizardry under Wizard; spells: Levitation 2, Telepathy 1" in shown.stdout
