"""The Cortex-style pool system (004): roll a pool, build one from traits, run the Trouble Pool."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taletable._model import Record
from taletable.errors import InputError
from taletable.explain import Note
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.systems.labcats.building import PoolPlan, Trait, build_pool
from taletable.systems.labcats.dice import check_roll, parse_die, parse_pool
from taletable.systems.labcats.economy import WATCHTOWER, PlotPoints, TroublePool
from taletable.systems.labcats.rolls import LabcatsRoll, roll_pool
from taletable.systems.labcats.rules import LabcatsRules

__all__ = [
    "LabcatsBuildRequest",
    "LabcatsRollRequest",
    "LabcatsTroubleRequest",
    "TroubleResult",
    "labcats_build",
    "labcats_roll",
    "labcats_trouble",
]

#: Dice as a person writes them (``"d8,d6"``) or as a list of sides or ``dN`` names.
Dice = str | tuple[str | int, ...]
#: The kinds of trait besides the Value and the Relationships (004 > Dice Pool).
TRAIT_KINDS = ("ability", "distinction", "heritage", "stress", "limit", "useful_detail", "resource")


class LabcatsRollRequest(Request):
    """A roll: the main pool, the side pool of Resources, and Plot Points spent to add dice."""

    pool: Dice = described(text="The main dice pool.", form="d8,d6,...")
    resources: Dice = described("", "The side pool of Resources.", form="d6,...")
    add: int = described(0, "Plot Points spent to add more main dice.")
    faces: Faces = described(None, "Main pool faces, in pool order.", form="LIST")
    resource_faces: Faces = described(None, "Side pool faces, in order.", form="LIST")


@action("labcats.roll", LabcatsRollRequest)
def labcats_roll(request: LabcatsRollRequest, table: Table) -> Played[LabcatsRoll]:
    """Roll a pool: 1s are complications; two highest main dice + highest resource die
    (004 > Rolling the Dice)."""
    main = parse_pool(request.pool, field="pool")
    side = parse_pool(request.resources, field="resources", allow_empty=True)
    if request.resource_faces is not None and not side:
        raise InputError("resource_faces", "no {resources} to roll", expected="{resources}")
    if request.faces is not None and side and request.resource_faces is None:
        raise InputError("resource_faces", "faces given for the main pool only", expected="both")
    check_roll(main, side, request.add, fields=("pool", "resources", "add"))
    source = dice_for(table, request.faces)
    side_source = (
        dice_for(table, request.resource_faces, field="resource_faces")
        if request.resource_faces is not None
        else None
    )
    result = roll_pool(main, source, side, side_source, add=request.add)
    finish(source, side_source)
    return Played(result, (Event(kind="labcats.roll"),))


class LabcatsBuildRequest(Request):
    """The traits a pool is built from (``NAME=dN``; other traits ``KIND:NAME=dN``) and the
    names that are challenged, paid for, used up or already bought."""

    value: str = described(text="The Value in the conflict.", form="NAME=dN")
    relationships: tuple[str, ...] = described(
        text="A Relationship (the first is free, more cost 1 PP each).", form="NAME=dN",
        repeated=True,
    )  # fmt: skip
    challenged: tuple[str, ...] = described(
        (), "A Value or Relationship challenged: three dice, stepped down after.", form="NAME",
        repeated=True,
    )  # fmt: skip
    traits: tuple[str, ...] = described(
        (), "ability, distinction, heritage, stress, limit, useful_detail or resource.",
        form="KIND:NAME=dN", repeated=True,
    )  # fmt: skip
    paid: tuple[str, ...] = described(
        (), "A Stress that is not the opponent's fitting one, or a Resource not on the sheet.",
        form="NAME", repeated=True,
    )  # fmt: skip
    used_up: tuple[str, ...] = described((), "A used-up Resource.", form="NAME", repeated=True)
    bought: tuple[str, ...] = described(
        (), "A Useful Detail already bought this scene.", form="NAME", repeated=True
    )
    relevant_heritage: bool = described(False, "The Heritage is relevant to this roll.")


def _named(text: str, field: str) -> tuple[str, int]:
    name, _, die = text.rpartition("=")
    if not name.strip():
        raise InputError(field, f"{text!r}", expected="NAME=dN, e.g. Duty=d8")
    return name.strip(), parse_die(die, field=field)


def _check_names(names: list[str], picks: Mapping[str, Sequence[str]]) -> None:
    """Trait names are distinct, and every field that picks a trait by name names one."""
    for name in names:
        if names.count(name) > 1:
            raise InputError(
                "{value}/{relationships}/{traits}",
                f"two traits named {name!r}",
                expected="distinct names ({challenged}, {paid} and the rest pick traits by name)",
            )
    for field, picked in picks.items():
        for name in picked:
            if name not in names:
                raise InputError(field, f"no trait named {name!r}", expected=", ".join(names))


def _traits(request: LabcatsBuildRequest, picks: Mapping[str, tuple[str, ...]]) -> list[Trait]:
    challenged, paid = picks["challenged"], picks["paid"]
    name, die = _named(request.value, "value")
    built = [Trait(kind="value", name=name, die=die, challenging=name in challenged)]
    for text in request.relationships:
        name, die = _named(text, "relationships")
        built.append(Trait(kind="relationship", name=name, die=die, challenging=name in challenged))
    for text in request.traits:
        kind, _, rest = text.partition(":")
        if kind not in TRAIT_KINDS:
            raise InputError(
                "traits", f"{kind!r} is not a trait kind", expected=", ".join(TRAIT_KINDS)
            )
        name, die = _named(rest, "traits")
        built.append(
            Trait(
                kind=kind, name=name, die=die, challenging=name in challenged,
                opponents=name not in paid, on_sheet=name not in paid,
                used_up=name in picks["used_up"], already_bought=name in picks["bought"],
                relevant_heritage=request.relevant_heritage,
            )
        )  # fmt: skip
    return built


@action("labcats.build", LabcatsBuildRequest, reads=True)
def labcats_build(request: LabcatsBuildRequest, table: Table) -> Played[PoolPlan]:
    """Build a pool from traits and say what it costs in Plot Points
    (004 > Dice Pool)."""
    picks = {
        field: tuple(name.strip() for name in getattr(request, field))
        for field in ("challenged", "paid", "used_up", "bought")
    }
    built = _traits(request, picks)
    _check_names([trait.name for trait in built], picks)
    return Played(build_pool(built), (Event(kind="labcats.build"),))


class LabcatsTroubleRequest(Request):
    """After a roll with Complications: the Trouble Pool, the complications rolled, the dice
    the Watchtower adds or the player removes, and the Plot Points each holds."""

    pool: Dice = described("", "The Trouble Pool now.", form="d6,...")
    complications: Dice = described(
        text="Sides of the 1s in the roll (a roll's `complications`).", form="d8,..."
    )
    add: Dice | None = described(None, "Complications the Watchtower adds.", form="d8,...")
    remove: Dice | None = described(None, "Trouble dice the player removes.", form="d6,...")
    player: str = described("player", "The player rolling or rolled against.")
    watchtower_points: int = described(0, "The Watchtower's Plot Points.")
    player_points: int = described(0, "The player's Plot Points.")
    to_bank: bool = described(False, "The Watchtower's Plot Points go to the bank, not the player.")


class TroubleResult(Record):
    """The Trouble Pool after the change, the Plot Points each holds, and what changed them."""

    trouble_pool: tuple[int, ...]
    plot_points: dict[str, int]
    log: tuple[Note, ...]


#: The most Plot Points a hand holds in a request (a limit on the work, far above play's).
MAX_PLOT_POINTS = 1000


def _check_trouble(request: LabcatsTroubleRequest) -> None:
    if (request.add is None) == (request.remove is None):
        raise InputError(
            "{add}/{remove}", "give exactly one", expected="{add} LIST or {remove} LIST"
        )
    held = {"watchtower_points": request.watchtower_points, "player_points": request.player_points}
    for field, points in held.items():
        if points < 0:
            raise InputError(field, f"{points} Plot Points", expected="0 or more")
        if points > MAX_PLOT_POINTS:
            raise InputError(field, f"{points} Plot Points", expected=f"at most {MAX_PLOT_POINTS}")
    if not request.player.strip():
        raise InputError("player", "the name is empty", expected="a player's name")
    if request.player == WATCHTOWER:
        raise InputError(
            "player", f"{request.player!r} is the Watchtower", expected="a player's name"
        )


@action("labcats.trouble", LabcatsTroubleRequest)
def labcats_trouble(request: LabcatsTroubleRequest, table: Table) -> Played[TroubleResult]:
    """Add Complications to the Trouble Pool, or remove Trouble dice with them
    (004 > Rolling the Dice 1)."""
    _check_trouble(request)
    player = request.player
    rolled = parse_pool(request.complications, field="complications", allow_empty=True)
    points = PlotPoints(held={WATCHTOWER: request.watchtower_points, player: request.player_points})
    current = TroublePool(dice=parse_pool(request.pool, field="pool", allow_empty=True))
    if request.add is not None:
        dice = parse_pool(request.add, field="add")
        rules = LabcatsRules(watchtower_pays_player=not request.to_bank)
        current, points = current.add_complications(rolled, dice, points, player, rules)
    else:
        assert request.remove is not None
        dice = parse_pool(request.remove, field="remove")
        current, points = current.remove_dice(rolled, dice, points, player)
    result = TroubleResult(trouble_pool=current.dice, plot_points=points.held, log=points.log)
    return Played(result, (Event(kind="labcats.trouble", data={"player": player}),))
