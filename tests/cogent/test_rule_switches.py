"""Each switch of ``Rules`` is described once (issue 21.7): a plain label, what it does and the
passage it cites, on ``Rules``; the command line's flags and the requests that set a switch take
those words (the live table's lists are checked in tests/server/test_table_rules.py)."""

from __future__ import annotations

import re

import click

from taletable.cli.main import cli
from taletable.play.characters import AdvanceRequest, PoolsRequest
from taletable.play.combat import CombatStartRequest
from taletable.systems.cogent.rules import Rules, switch, switches

#: A rulebook file number in a label, as "(002 > ..." or "000 > Scale".
BOOK = re.compile(r"\b00\d\b|RULINGS")


def _option(path: str, flag: str) -> click.Option:
    command: click.Command = cli
    for name in path.split():
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None, name
        command = found
    return next(p for p in command.params if isinstance(p, click.Option) and flag in p.opts)


def test_every_switch_of_rules_has_a_plain_label_help_and_citation() -> None:
    """Every field of ``Rules`` but the edition is a switch with a label free of rulebook
    numbers, its help, and a passage of a book or of RULINGS.md."""
    assert set(switches()) == set(Rules.model_fields) - {"edition"}
    for name, rule in switches().items():
        assert rule.label and not BOOK.search(rule.label), name
        assert rule.help and not BOOK.search(rule.help.replace("001", "")), name
        assert re.search(r"\b00\d >|RULINGS\.md", rule.cite), name
        assert rule.default == Rules.model_fields[name].default, name
    assert switch("scale_method").choices == ("table", "difference")
    assert switch("hardcore_armour").yes_or_no and not switch("story_destiny").yes_or_no


def test_the_command_lines_flags_say_what_the_switch_says() -> None:
    """Each flag that sets a switch has the switch's words as its help (the flag names are the
    ones the README and the rulings give); a switch on by default is switched off by its flag."""
    cases = {
        ("cogent check", "--destiny-after-cap"): switch("destiny_after_cap").explained,
        ("cogent check", "--scale-method"): switch("scale_method").explained,
        ("cogent check", "--no-scale-clamp"): switch("scale_clamp").off_explained,
        ("cogent destiny-roll", "--criticals"): switch("tiered_destiny_criticals").explained,
        ("odds cogent", "--destiny-after-cap"): switch("destiny_after_cap").explained,
        ("cogent character pools", "--hardcore-armour"): switch("hardcore_armour").explained,
        ("cogent combat start", "--hardcore-ranged"): switch("hardcore_ranged").explained,
        ("cogent combat start", "--no-scale-clamp"): switch("scale_clamp").off_explained,
        ("cogent character advance", "--story-destiny"): switch("story_destiny").explained,
    }
    for (path, flag), words in cases.items():
        assert _option(path, flag).help == words, (path, flag)
    assert (
        switch("scale_clamp").off_label == "Switch off: scale never turns a success into a failure"
    )


def test_the_requests_that_set_a_switch_describe_it_as_rules_does() -> None:
    """A request field that sets a switch for one action carries the switch's help, label and
    citation (the API's schema and the combat page's start form read them)."""
    fields = CombatStartRequest.model_fields
    assert fields["hardcore_weapons"].description == switch("hardcore_weapons").explained
    assert fields["hardcore_weapons"].json_schema_extra == {
        "label": "Hardcore weapon modifiers",
        "cite": "002 > Hardcore Combat > Hardcore Weapon Modifiers",
    }
    assert fields["no_scale_clamp"].default is False
    assert PoolsRequest.model_fields["hardcore_armour"].description == (
        switch("hardcore_armour").explained
    )
    assert AdvanceRequest.model_fields["story_destiny"].default == "at_least"
