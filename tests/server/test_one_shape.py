"""One result shape for both shells (issue 23.5): for every registered action the CLI exposes,
``taletable ... --json`` and ``POST /api/tables/{id}/actions`` print the same record: the same
keys, and with given faces (or no dice at all) the same values. An action that cannot be
compared says why in :data:`NOT_COMPARED`; the actions that need a fight, a statblock or a
new character stored first are compared in test_one_shape_state.py (:data:`COMPARED_HERE`);
a registered action the CLI does not expose is a live table's own (:data:`TABLE_ONLY`, with
its reason); a new action fails here until it is in one of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import pytest
from fastapi.testclient import TestClient

from taletable.cli.main import cli
from taletable.play import all_actions
from taletable.server.limits import SLOW_ACTIONS
from tests.server.shells import Shells, fill, make_shells, named, play, same_keys
from tests.server.test_one_shape_state import COMPARED_HERE

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@dataclass(frozen=True)
class Case:
    """One request to both shells: the CLI's arguments after the command's path (``{terrik}``:
    a sheet), the table it plays at, and whether its values compare (given faces, or no dice)
    or only its keys (the shells' own dice)."""

    argv: tuple[str, ...]
    table: str = "core"
    exact: bool = True
    api: dict[str, Any] = field(default_factory=dict)
    as_json: tuple[str, ...] = ("--json",)


CASES: dict[str, Case] = {
    "cheatsheet.cogent": Case(("--max-pool", "4", "--max-cl", "3", "--win-on", "all")),
    "boons.accumulate": Case(("--character", "{irzi}", "--track", "strain", "--formula", "1d6+1",
                              "--faces", "4"), "boons"),
    "boons.check": Case(("--bonus", "9", "--banes", "2", "--target", "25", "--faces", "6,8,3")),
    "boons.contest": Case(("--a-bonus", "3", "--b-bonus", "2", "--faces-a", "4,4,4",
                           "--faces-b", "2,2,2")),
    "boons.difficulty": Case(()),
    "boons.group": Case(("--difficulty", "moderate", "--member", "Irzi:9:25", "--member",
                         "Bo:5:25", "--faces", "5,5,5,1,1,1")),
    "boons.scatter": Case(("--grid", "square", "--faces", "2,5")),
    "boons.track": Case(("--character", "{irzi}", "--track", "strain", "--value", "7"), "boons"),
    "boons.twist": Case(("--face", "5",)),
    "cogent.assist": Case(("--pool", "4", "--cl", "3", "--helpers", "3", "--faces",
                           "6,6,1,1,6,5,1")),
    "cogent.buy": Case(("{terrik}", "--item", "Rope", "--value", "1"),
                       api={"character": "{terrik}"}),
    "cogent.cast": Case(("levitation", "--character", "{ilsa}", "--cl", "4", "--faces",
                         "6,5,4,4,1,1,1")),
    "cogent.challenge-levels": Case(()),
    "cogent.character.advance": Case(("{ansel}", "--event", "chapter"),
                                     api={"character": "{ansel}"}),
    "cogent.character.commerce": Case(("{terrik}", "--gain", "1", "--reason", "loot"),
                                      api={"character": "{terrik}"}),
    "cogent.character.destiny": Case(("{terrik}", "--award", "1", "--reason", "heroics"),
                                     api={"character": "{terrik}"}),
    "cogent.character.raise": Case(("{raiser}", "--attribute", "RFL"),
                                   api={"character": "{raiser}"}),
    "cogent.character.quirk": Case(("{debtor}", "--quirk", "Debt", "--reason", "lost income"),
                                   api={"character": "{debtor}"}),
    "cogent.character.treat": Case(("{hurt}", "--faces", "6,6,1,1,1,1,1,1"),
                                   api={"character": "{hurt}"}),
    "cogent.character.rest": Case(("{hurt}", "--days", "3"), api={"character": "{hurt}"}),
    "cogent.character.pools": Case(("{terrik}",), api={"character": "{terrik}"}),
    "cogent.character.validate": Case(("{terrik}",), api={"key": "{terrik}"}),
    "cogent.check": Case(("--pool", "5", "--cl", "3", "--faces", "6,5,4,1,1")),
    "cogent.collaborate": Case(("--pools", "3,2", "--cl", "2", "--faces", "6,5,1,1,6"),
                                "tiered"),
    "cogent.combat.chase": Case(("--distance", "close", "--pursuer", "{terrik}", "--target",
                                 "@goblin", "--faces", "6,6,6,6,6,6,1,1,1")),
    "cogent.conflict": Case(("--pool-a", "3", "--pool-b", "2", "--faces-a", "6,6,1",
                             "--faces-b", "1,1")),
    "cogent.destiny-roll": Case(("--face", "17",)),
    "cogent.encounter": Case(("--where", "country", "--time", "day", "--faces", "70,2")),
    "cogent.npc.bestiary": Case(("goblin",)),
    "cogent.powerless": Case(("--pool", "5",)),
    "cogent.summon": Case(("--school", "pyromancy", "--cl", "4", "--pool", "6", "--faces",
                           "6,6,1,1,1,1")),
    "cogent.weather": Case(("--season", "winter", "--days", "3", "--faces", "24,6,3,60,2")),
    "labcats.build": Case(("--value", "Duty=d8", "--relationship", "Mara=d6")),
    "labcats.roll": Case(("--pool", "d8,d6,d6,d10", "--resources", "d6,d8", "--faces",
                          "1,5,3,7", "--resource-faces", "4,2")),
    "labcats.trouble": Case(("--complications", "d6", "--add", "d6", "--watchtower-points",
                             "1")),
    "odds.boons": Case(("--bonus", "9", "--target", "25")),
    "odds.boons.accumulate": Case(("--character", "{irzi}", "--track", "strain", "--formula",
                                   "1d4", "--subtract"), "boons"),
    "odds.cogent": Case(("--pool", "4", "--cl", "2")),
    "odds.cogent.advise": Case(("--pool", "4", "--chance", "31")),
    "odds.cogent.assist": Case(("--pool", "4", "--cl", "2", "--assist-pool", "3")),
    "odds.cogent.collaborate": Case(("--pools", "3,2", "--cl", "2")),
    "odds.cogent.conflict": Case(("--pool-a", "3", "--pool-b", "2")),
    "odds.cogent.duel": Case(("--a", "{terrik}", "--b", "@goblin", "--rounds", "5")),
    "odds.labcats": Case(("--pool", "d8,d6", "--target", "8")),
    "roll": Case(("2d6+1", "--faces", "3,4")),
    "table.list": Case(()),
    "table.odds": Case(("severity",)),
    "table.roll": Case(("severity", "--faces", "2")),
}  # fmt: skip

#: Actions the CLI exposes that no test compares, each with its reason: only an action a live
#: table refuses (no API record to compare with) is left out.
NOT_COMPARED: dict[str, str] = {
    "odds.cogent.fight": "a Monte Carlo estimate of whole fights: a live table refuses it "
    "(422 on action, server/limits.py SLOW_ACTIONS), so the API has no record to compare",
}


#: Registered actions the CLI does not expose, a live table's own, each with its reason: there is
#: no second shell to compare with.
TABLE_ONLY: dict[str, str] = {
    "boons.circumstances-changed": "the narrator's mark in a live table's log that a "
    "situation's circumstances changed (Let it Ride); the CLI keeps no scene and no log",
    "boons.bind-again": "the narrator's taking back, in a live table's log, of a mark that "
    "freed a situation (Let it Ride); the CLI keeps no log",
    "chat.say": "a message in a live table's chat; the CLI has no table to talk at",
    "cogent.destiny-after": "destiny spent after a check logged at a live table (it follows "
    "the entry's number); the CLI spends it with the check itself (cogent check "
    "--destiny-after)",
    "log.strike": "strikes an entry of a live table's log; the CLI keeps no log",
    **{f"cogent.character.new.{step}": "a step of the pages' creation wizard; the CLI's "
       "character new asks it at its prompts through the same play function, no command of "
       "its own" for step in ("step", "disabling", "quirk", "commerce", "starting-destiny")},
}


def _command(name: str) -> click.Command | None:
    command: click.Command | None = cli
    for part in name.split("."):
        if not isinstance(command, click.Group):
            return None
        command = command.get_command(click.Context(command), part)
        if command is None:
            return None
    return command


def test_every_registered_action_is_compared_or_says_why() -> None:
    """A new action fails here until it has a case or a reason: every action the CLI exposes
    is compared (here or in test_one_shape_state.py) or left out with its reason, and every
    other one is a live table's own, with its reason."""
    exposed = {name for name in all_actions() if _command(name) is not None}
    accounted = [*CASES, *COMPARED_HERE, *NOT_COMPARED]
    assert sorted(exposed - set(accounted)) == []
    assert sorted(set(accounted) - exposed) == []
    assert len(accounted) == len(set(accounted))  # each in one place only
    assert set(NOT_COMPARED) <= set(SLOW_ACTIONS)  # left out only as a live table refuses it
    assert sorted(set(all_actions()) - exposed) == sorted(TABLE_ONLY)


def _api_args(name: str, argv: list[str]) -> dict[str, Any]:
    """The request's args as the CLI parsed them from ``argv`` (what the person typed)."""
    command = _command(name)
    assert command is not None
    fields = all_actions()[name].request.model_fields
    context = command.make_context(name, list(argv), resilient_parsing=True)
    args: dict[str, Any] = {}
    for parameter in command.params:
        value = context.params.get(parameter.name or "")
        if parameter.name not in fields or value is None or value == parameter.default:
            continue
        if value in ((), False) and not isinstance(parameter.default, bool | type(None)):
            continue
        args[parameter.name] = list(value) if isinstance(value, tuple) else value
    return args


@pytest.fixture
def shells(client: TestClient, tmp_path: Path) -> Shells:
    return make_shells(client, tmp_path)


@SQLITE
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_cli_and_the_api_print_the_same_record(
    name: str, shells: Shells, client: TestClient, run_cli: Any
) -> None:
    """The CLI's ``--json`` and the API's ``result``: the same keys; the same values where the
    faces are given or no die is rolled (each sheet named alike in both)."""
    case = CASES[name]
    argv = [fill(argument, shells.files) for argument in case.argv]
    printed = run_cli(*name.split("."), *argv, *case.as_json)
    assert printed.status == 0, printed.stderr
    ids = shells.ids[case.table]
    args = {**_api_args(name, argv), **{key: fill(value, shells.files)
                                        for key, value in case.api.items()}}  # fmt: skip
    args = named(args, {shells.files[key]: ids[key] for key in ids})
    args.pop("edition", None)
    from_api = play(client, shells.tables[case.table], name, args)
    names = shells.names(case.table)
    from_cli, from_api = named(printed.json(), names), named(from_api, names)
    same_keys(from_cli, from_api)
    if case.exact:
        assert from_cli == from_api

@SQLITE
def test_a_chase_of_bare_pools_as_numbers(
    shells: Shells, client: TestClient, run_cli: Any
) -> None:
    """The chase's pursuer and target as JSON numbers (pools of dice) are taken by the API as
    the CLI takes ``--pursuer 5``: the same record, with both sides' pools."""
    faces = "6,6,6,1,1,6,1,1,1"
    printed = run_cli("cogent", "combat", "chase", "--distance", "close", "--pursuer", "5",
                      "--target", "4", "--faces", faces, "--json")  # fmt: skip
    assert printed.status == 0, printed.stderr
    table = shells.tables["core"]
    answer = client.post(f"/api/tables/{table.id}/actions", headers=table.narrator, json={
        "action": "cogent.combat.chase",
        "args": {"distance": "close", "pursuer": 5, "target": 4, "faces": faces},
    })  # fmt: skip
    assert answer.status_code == 201, answer.text
    result = answer.json()["result"]
    assert result == printed.json()
    assert (result["pursuer"]["pool"], result["target"]["pool"]) == (5, 4)
