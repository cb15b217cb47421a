"""Generated command lines for every leaf command of ``taletable`` (the click tree, walked).

A generator is written against :class:`Chooser` (pick, chance, between), so the same code
draws from Hypothesis in the test (shrinkable, derandomized in CI) and from ``random.Random``
in the long campaign. A case is plain JSON: ``{"command": [...], "args": [TOKEN, ...]}``,
where a token is a string or a file spec for :func:`tests.fuzz.hostile.make_file`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import click

from tests.fuzz import hostile

T = TypeVar("T")

#: Words the engine knows, so generated arguments reach past the first check.
KNOWN_WORDS = [
    "Athletics",
    "Stealth",
    "Sorcery",
    "Endurance",
    "Club",
    "Knife",
    "Arming Sword",
    "Medium Weapons",
    "Medium Weapon",
    "goblin",
    "severity",
    "weather_winter",
    "quirks_of_wealth",
    "pyromancy",
    "levitation",
    "teleport",
    "human",
    "sprint",
    "mild",
    "cold",
    "+15",
    "STR",
    "RFL",
    "INT",
    "CHA",
    "terrik",
    "thug",
    "knights",
    "gang",
    "advantage",
    "die",
    "half",
    "disadvantage",
    "stealth",
    "Town Guard",
    "Fine horse",
    "lightly injured",
    "bruised",
]
SMALL_INTS = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 20, 25]
EDGE_INTS = [-1, -5, 7, 100, 200, 201, 999, 1000, 1001, 4300, 10**6, 2**31, 2**63, -(2**63)]
EDGE_INT_TEXT = ["9" * 4301, "-" + "9" * 200, "1e3", "0x10", " 3", "٣", "3.5", "", "nan"]
DICE = ["d4", "d6", "d8", "d10", "d12", "d20", "d1", "d0", "d1000", "d1001", "2d6", "dx", "d-6"]
NOTATION = [
    "4d6kh3",
    "8d6>=4",
    "d20+5",
    "1000d1000",
    "1001d6",
    "d6" + "+d6" * 300,
    "(" * 500 + "1" + ")" * 500,
    "d6e6",
    "10d6rr<6",
    "99999999999d9",
    "1d6mi7",
    "[/]",
    "2d6 [bold]fire[/]",
]


class Chooser(Protocol):
    """Where a generator's decisions come from."""

    def pick(self, options: Sequence[T]) -> T: ...

    def chance(self, probability: float) -> bool: ...

    def between(self, low: int, high: int) -> int: ...


class RandomChooser:
    """Decisions from ``random.Random`` (the long campaign)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def between(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


#: Commands left out: ``serve`` runs until it is stopped (the server has its own tests).
LEFT_OUT = {("serve",)}


def leaf_commands() -> dict[tuple[str, ...], click.Command]:
    """Every command that runs (groups that run without a sub-command included), but
    :data:`LEFT_OUT`."""
    from taletable.cli.main import cli

    found: dict[tuple[str, ...], click.Command] = {}

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        if isinstance(command, click.Group):
            context = click.Context(command)
            for name in command.list_commands(context):
                child = command.get_command(context, name)
                if child is not None:
                    walk(child, (*path, name))
            if not command.invoke_without_command:
                return
        if path not in LEFT_OUT:
            found[path] = command

    walk(cli, ())
    return found


def _file(chooser: Chooser, *, suffixes: Sequence[str] = (".yaml", ".json", ".yml")) -> Any:
    kinds = hostile.kinds()
    return {
        "file": chooser.pick(kinds),
        "suffix": chooser.pick([*suffixes, ".txt", ""]) if chooser.chance(0.1) else suffixes[0],
        "seed": chooser.between(0, 10**6),
    }


def _sheet(chooser: Chooser) -> Any:
    """A sheet or statblock: mostly a real one (unchanged or mutated), sometimes anything."""
    if chooser.chance(0.5):
        prefix = chooser.pick(["example", "example", "mutant"])
        kind = f"{prefix}:{chooser.pick(hostile.EXAMPLES)}"
        return {"file": kind, "suffix": ".yaml", "seed": chooser.between(0, 10**6)}
    return _file(chooser)


def _encounter(chooser: Chooser) -> Any:
    if chooser.chance(0.7):
        prefix = chooser.pick(["encounter", "encounter", "encounter-mutant"])
        kind = f"{prefix}:{chooser.pick(hostile.ENCOUNTER_STAGES)}"
        return {"file": kind, "suffix": ".json", "seed": chooser.between(0, 10**6)}
    return _file(chooser, suffixes=(".json", ".yaml"))


def _tables(chooser: Chooser) -> Any:
    if chooser.chance(0.8):
        variant = chooser.pick(hostile.TABLE_VARIANTS)
        return {"file": f"tables:{variant}", "seed": chooser.between(0, 10**6)}
    return _file(chooser)


def _out(chooser: Chooser, suffix: str) -> Any:
    if chooser.chance(0.7):
        return {"file": "missing", "suffix": chooser.pick([suffix, suffix, ".yaml", ".md"])}
    return _file(chooser, suffixes=(suffix,))


def integer_text(chooser: Chooser) -> str:
    roll = chooser.between(0, 9)
    if roll < 6:
        return str(chooser.pick(SMALL_INTS))
    if roll < 9:
        return str(chooser.pick(EDGE_INTS))
    return chooser.pick(EDGE_INT_TEXT)


def text(chooser: Chooser) -> str:
    roll = chooser.between(0, 9)
    if roll < 5:
        return chooser.pick(KNOWN_WORDS)
    if roll < 8:
        return chooser.pick(hostile.AWKWARD_TEXT)
    return integer_text(chooser)


def _list(chooser: Chooser, item: Any, *, joiner: str = ",") -> str:
    count = chooser.pick([0, 1, 2, 3, 4, 6, 10, 50, 300, 2000])
    return joiner.join(item(chooser) for _ in range(count))


def _by_metavar(chooser: Chooser, metavar: str) -> Any:
    """A value shaped by the option's metavar (``ID:SIDE:FILE[:WEAPON]``, ``NAME=DICE``...)."""
    if "FILE" in metavar and ":" in metavar:
        parts = [text(chooser), text(chooser)] if "ID" in metavar else []
        target = chooser.pick(["@goblin", "@thug", "@[/]", None])
        weapon = [chooser.pick(["Club", "Arming Sword", "Knife", "Spear"])]
        if not chooser.chance(0.6):
            weapon = [text(chooser)] if chooser.chance(0.5) else []
        return {"spec": [*parts, target or _sheet(chooser), *weapon]}
    if metavar in {"LIST", "N,N,..."}:
        return _list(chooser, lambda c: str(c.pick([1, 2, 3, 4, 5, 6, 6, 0, 7, 200])))
    if metavar.startswith("d"):
        return _list(chooser, lambda c: c.pick(DICE))
    if "=" in metavar:
        value = chooser.pick(["d8", "3", "-2", "d6", "1000", "x"])
        prefix = "Value:" if metavar.startswith("KIND") else ""
        return f"{prefix}{text(chooser)}={value}"
    if metavar.startswith("MODE") or metavar.startswith("K|"):
        return _list(chooser, lambda c: c.pick(["advantage", "die", "half", "x", "3"]))
    if metavar.startswith("NAME:BONUS"):
        numbers = [integer_text(chooser) for _ in range(chooser.pick([2, 4]))]
        return ":".join([text(chooser), *numbers])
    if metavar == "ROLLER:TARGET":
        return f"{integer_text(chooser)}:{integer_text(chooser)}"
    if metavar in {"S[,S]", "E[,E]"}:
        return _list(chooser, integer_text)
    return text(chooser)


def value_for(chooser: Chooser, param: click.Parameter, command: tuple[str, ...]) -> Any:
    """One value for ``param`` of ``command``."""
    kind = param.type
    name = param.name or ""
    if isinstance(kind, click.Choice):
        if chooser.chance(0.95):
            return str(chooser.pick(list(kind.choices)))
        return text(chooser)
    if isinstance(kind, click.Path):
        if kind.file_okay is False or name in {"folder"}:
            return _tables(chooser)
        if name in {"out"}:
            return _out(chooser, ".json" if "combat" in command else ".yaml")
        if "combat" in command:
            return _encounter(chooser)
        return _sheet(chooser)
    if kind.name in {"integer", "integer range"}:
        return integer_text(chooser)
    if kind.name == "float":
        return chooser.pick(["0", "31", "50.5", "-1", "100", "101", "1e308", "nan", "inf"])
    if param.metavar:
        return _by_metavar(chooser, param.metavar)
    if name == "notation":
        return chooser.pick(NOTATION) if chooser.chance(0.8) else text(chooser)
    return text(chooser)


def generate_case(chooser: Chooser, command: tuple[str, ...], leaf: click.Command) -> Any:
    """A command line for ``command``: required parameters mostly given, others sometimes."""
    args: list[Any] = []
    for param in leaf.params:
        if isinstance(param, click.Option) and param.name in {"help"}:
            continue
        wanted = 0.93 if param.required else 0.35
        if not chooser.chance(wanted):
            continue
        if isinstance(param, click.Argument):
            args.append(value_for(chooser, param, command))
            continue
        assert isinstance(param, click.Option)
        flag = param.opts[0]
        if param.is_flag:
            args.append(flag)
            continue
        times = chooser.pick([1, 1, 1, 2, 3, 5]) if param.multiple else 1
        for _ in range(times):
            args += [flag, value_for(chooser, param, command)]
    if chooser.chance(0.03):
        args.append(chooser.pick(["--bogus", "extra", "--json", "-h"]))
    return {"command": list(command), "args": args}
