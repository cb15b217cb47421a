"""A fight's end written onto the sheets, and the injuries weighing on the next checks, with
the rulebook's numbers (002 > Combat > Victory Levels; Armour; issue 34 point 5)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import SeededDice
from taletable.errors import InputError, RulesError
from taletable.explain import render
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.character import check_pool
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.combat.reading import round_rolls

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
MARA = yaml.safe_load((EXAMPLES / "core_mara_the_thief.yaml").read_text())


def _table() -> Table:
    store = MemoryStore()
    store.save("character", "mara", MARA, version=None)
    return Table(dice=SeededDice(5), store=store)


def goblin_wins_level_2(table: Table) -> None:
    """Mara (from the store) and a goblin attack each other; the goblin's dice win 2, Mara's
    none: a level 2 victory for the goblin (002 > Victory Levels: "Every win a character has
    over another's roll, means a level of victory")."""
    fighters = ["mara:thieves:mara:Dagger", "goblin:goblins:@goblin"]
    perform("cogent.combat.start", {"encounter": "ambush", "name": "Ambush",
                                    "fighters": fighters}, table)  # fmt: skip
    status = perform("cogent.combat.status", {"encounter": "ambush"}, table).result
    for actor in status.declaration_order():
        target = "goblin" if actor == "mara" else "mara"
        args = {"encounter": "ambush", "actor": actor, "action": "attack", "target": target}
        perform("cogent.combat.declare", args, table)
    declared = perform("cogent.combat.status", {"encounter": "ambush"}, table).result
    faces: list[int] = []
    for ident, pool in round_rolls(declared):
        won = 2 if ident == "goblin" else 0
        faces += [6] * won + [1] * (pool.size - won)
    rolled = perform("cogent.combat.resolve", {"encounter": "ambush", "faces": faces}, table)
    [victory] = rolled.result.victories
    assert (victory.winner, victory.loser, victory.level) == ("goblin", "mara", 2)


def _mara(table: Table) -> dict[str, Any]:
    return dict(table.store.read("character", "mara").data)


def test_the_issues_fight_ends_on_maras_sheet_and_her_stealth_check() -> None:
    """Issue 34.5 with the book's numbers: the goblin's level 2 victory, a medium injury chosen
    (-2D6), Mara's leather armour (level 1) lowers it one level to a minor injury (-1D6; 002 >
    Armour: "reduce injury levels by the equivalent amount of levels they have in armour").
    Ending the fight writes it on her sheet as a new version; her Stealth (RFL 1 + 2 points,
    less Heavy's 1D6) was 5D6 and is now 4D6, with a note citing 002 > Victory Levels, in
    the check and in its odds before the roll."""
    table = _table()
    assert check_pool(character_from_data(dict(MARA), source="mara"), "Stealth").size == 5
    goblin_wins_level_2(table)
    chosen = perform(
        "cogent.combat.choose",
        {"encounter": "ambush", "victory": 1, "outcome": "medium injury"},
        table,
    )
    mara = chosen.result.combatant("mara")
    assert [injury.level for injury in mara.sheet.injuries] == [1]
    assert _mara(table).get("injuries", []) == []  # the fight alone knows it yet
    before = table.store.read("character", "mara").version
    ended = perform("cogent.combat.end", {"encounter": "ambush"}, table)
    [mine, its] = ended.result.fighters
    assert (mine.character, mine.version, [i.level for i in mine.injuries]) == (
        "mara", before + 1, [1])  # fmt: skip
    assert (its.character, its.version, its.injuries) == (None, None, ())  # reported only
    sheet = _mara(table)
    assert table.store.read("character", "mara").version == before + 1
    assert [injury["level"] for injury in sheet["injuries"]] == [1]
    assert sheet["history"][-1]["event"] == "fight"
    assert render(ended.result.summary).startswith("Ambush ends after round 2: 1 sheet")
    odds = perform("odds.cogent", {"character": "mara", "skill": "Stealth", "cl": 2}, table).result
    assert odds.odds.pool == 4
    assert ("injuries", -1) in [(part.source, part.dice) for part in odds.breakdown]
    assert odds.odds.p_pass == Fraction(11, 16)  # P(at least 2 of 4D6 win on 4-6)
    [why] = odds.rules_applied
    assert why.cite.startswith("002 > Combat > Victory Levels")
    assert render(why).startswith("injuries take 1D6 from this physical check: minor injury")
    rolled = perform("cogent.check",
                     {"character": "mara", "skill": "Stealth", "cl": 2, "faces": [6, 5, 1, 2]},
                     table).result  # fmt: skip
    assert (rolled.pool, rolled.wins, rolled.passed) == (4, 2, True)
    assert why in rolled.rules_applied


def test_a_fight_is_not_ended_with_an_outcome_waiting_nor_played_after_its_end() -> None:
    """The level 2 victory's injury is not known until chosen: ending then is refused and
    changes nothing; once ended, no step is played in it and it is not ended twice."""
    table = _table()
    goblin_wins_level_2(table)
    version = table.store.read("encounter", "ambush").version
    with pytest.raises(RulesError, match="victory #1 of round 1 waits"):
        perform("cogent.combat.end", {"encounter": "ambush"}, table)
    assert table.store.read("encounter", "ambush").version == version
    perform("cogent.combat.choose", {"encounter": "ambush", "victory": 1}, table)
    perform("cogent.combat.end", {"encounter": "ambush"}, table)
    sheet = _mara(table)
    with pytest.raises(RulesError, match="has ended already"):
        perform("cogent.combat.end", {"encounter": "ambush"}, table)
    with pytest.raises(RulesError, match="has ended"):
        perform("cogent.combat.declare",
                {"encounter": "ambush", "actor": "mara", "action": "defend"}, table)  # fmt: skip
    with pytest.raises(RulesError, match="has ended"):
        perform("cogent.combat.take-back", {"encounter": "ambush"}, table)
    assert _mara(table) == sheet


def test_two_medium_injuries_take_four_dice() -> None:
    """002 > Victory Levels: "two medium injuries ... the character does receive -2D6 to all
    physical dice checks TWICE, meaning they will have -4D6 in total"; not from a check of
    INT (RULINGS.md "injuries on checks": STR and RFL are physical)."""
    hurt = character_from_data({**MARA, "injuries": [{"level": 2}, {"level": 2}]}, source="mara")
    assert check_pool(hurt, "Stealth").size == 5 - 4
    assert (
        check_pool(hurt, "General Knowledge").size
        == check_pool(character_from_data(dict(MARA), source="mara"), "General Knowledge").size
    )


def test_treating_and_resting_follow_the_rulebooks_words() -> None:
    """002 > Victory Levels: a minor injury "will naturally heal over the next few days, or
    faster if treated actively"; a medium one "must be treated". RULINGS.md "healing": a
    Survival check at CL of the injury's level treats it; a treated minor injury heals in a
    day of rest, an untreated one in three; an untreated medium one does not heal by rest."""
    table = _table()
    hurt = {**MARA, "injuries": [{"level": 1, "description": "a cut"}, {"level": 2}]}
    table.store.save("character", "mara", hurt, version=1)
    rested = perform("cogent.character.rest", {"character": "mara", "days": 2}, table).result
    assert [i.level for i in rested.injuries] == [1, 2]
    assert [n.kind for n in rested.rules_applied] == [
        "cogent.heal.healing", "cogent.heal.needs_treatment"]  # fmt: skip
    # Mara's Survival: base 3 + INT 1 + 1 point = 5D6 against CL 2 (the medium injury's level)
    treated = perform("cogent.character.treat",
                      {"character": "mara", "faces": [6, 6, 1, 1, 1]}, table).result  # fmt: skip
    assert (treated.check.pool, treated.check.challenge_level, treated.treated) == (5, 2, True)
    assert _mara(table)["injuries"][1] == {"level": 2, "description": "", "treated": True}
    with pytest.raises(RulesError, match="treated already"):
        perform("cogent.character.treat", {"character": "mara", "injury": 2}, table)
    rested = perform("cogent.character.rest", {"character": "mara", "days": 3}, table).result
    assert [(i.level, i.treated) for i in rested.injuries] == [
        (1, True)
    ]  # minor healed, medium lowered
    rested = perform("cogent.character.rest", {"character": "mara", "days": 1}, table).result
    assert rested.injuries == ()
    with pytest.raises(InputError) as raised:
        perform("cogent.character.treat", {"character": "mara"}, table)
    assert raised.value.field == "injury"
    for action, field, value in (("treat", "healer", "nobody"), ("rest", "days", 0)):
        hurt_again = {**MARA, "injuries": [{"level": 1}]}
        table.store.save("character", "mara", hurt_again,
                         version=table.store.read("character", "mara").version)  # fmt: skip
        with pytest.raises(InputError) as raised:
            perform(f"cogent.character.{action}", {"character": "mara", field: value}, table)
        assert raised.value.field == field


def test_the_command_line_ends_the_fight_into_the_sheet_file_and_its_odds_say_why(
    tmp_path: Path, run_cli: Any
) -> None:
    """At the command line: Mara's sheet file fights the goblin (the same level 2 victory, the
    medium injury her leather makes minor), ``combat end`` writes the injury into the file, and
    ``odds cogent --character`` builds Stealth at 4D6 (11/16 at CL 2, 68.75%) and says why."""
    sheet, fight = tmp_path / "mara.yaml", str(tmp_path / "fight.json")
    sheet.write_text(yaml.safe_dump(MARA))
    assert run_cli("cogent", "combat", "start", "--out", fight, "--fighter",
                   f"mara:a:{sheet}:Dagger", "--fighter", "goblin:b:@goblin").status == 0
    for actor, target in (("goblin", "mara"), ("mara", "goblin")):
        declared = run_cli("cogent", "combat", "declare", fight, "--actor", actor, "--action",
                           "attack", "--target", target)  # fmt: skip
        assert declared.status == 0, declared.stderr
    # Mara's 6D6 (base, RFL, INT, Small Weapons) all ones, then the goblin's 5D6 with two sixes
    faces = "1,1,1,1,1,1,6,6,1,1,1"
    assert run_cli("cogent", "combat", "resolve", fight, "--faces", faces).status == 0
    assert run_cli("cogent", "combat", "choose", fight, "--victory", "1", "--outcome",
                   "medium injury").status == 0  # fmt: skip
    ended = run_cli("cogent", "combat", "end", fight)
    assert ended.status == 0 and "Mara: minor injury (written to" in ended.stdout, ended.stderr
    assert yaml.safe_load(sheet.read_text())["injuries"][0]["level"] == 1
    odds = run_cli("odds", "cogent", "--character", str(sheet), "--skill", "Stealth", "--cl", "2")
    assert "Stealth: 4D6 = base 3, RFL +1, Stealth +2, Heavy -1, injuries -1" in odds.stdout
    assert "injuries take 1D6 from this physical check: minor injury" in odds.stdout
    assert "68.75% (11/16)" in odds.stdout
    again = run_cli("cogent", "combat", "end", fight)
    assert again.status == 2 and again.stderr.count("\n") == 1 and "ended already" in again.stderr
