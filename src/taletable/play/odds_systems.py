"""The exact odds of the boons and labcats systems, and Cogent's cheatsheet for setting CLs.

What each may ask is the roll's own definition (boons' ``check_target``, labcats'
``check_roll``), so the odds refuse exactly what the roll refuses.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from taletable._model import Record
from taletable.errors import InputError
from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.prob import fraction_text, probability_rows
from taletable.systems.boons.checks import declare_check
from taletable.systems.boons.dice import ResizeMethod
from taletable.systems.boons.group import GroupDifficulty, GroupFailures, successes_required
from taletable.systems.boons.odds import (
    BoonsContestOdds,
    check_total,
    contest_odds,
    group_challenge_odds,
    pass_probability,
)
from taletable.systems.cogent.odds import cheatsheet, cheatsheet_floats
from taletable.systems.labcats.dice import check_roll, parse_pool
from taletable.systems.labcats.odds import LabcatsOdds, labcats_odds

__all__ = [
    "BoonsOdds",
    "BoonsOddsRequest",
    "Cheatsheet",
    "CheatsheetRequest",
    "LabcatsOddsRequest",
    "odds_boons",
    "odds_cheatsheet",
    "odds_labcats",
]


class BoonsOddsRequest(Request):
    """A 3d8 check against a target, a contest against another check, or a party's challenge."""

    bonus: int = described(0, "Total bonus.")
    boons: int = described(0, "Boons (0-6).")
    banes: int = described(0, "Banes (0-6).")
    target: int | None = described(None, "Target value (needed unless {against_bonus}).")
    passive: bool = described(False, "Passive check (12 instead of rolling).")
    method: ResizeMethod = described(
        "sequence", "How many boons and banes share a die (see RULINGS.md)."
    )
    party: int | None = described(None, "Group challenge: this many members make this check.")
    difficulty: GroupDifficulty = described(
        "moderate", "Group challenge difficulty (with {party})."
    )
    failures: GroupFailures = described(
        "offset", "Group challenge: how a miss counts (offset, none, big-only; see RULINGS.md)."
    )
    against_bonus: int | None = described(None, "Opposed contest: the other side's bonus.")
    against_boons: int = described(0, "The other side's boons.")
    against_banes: int = described(0, "The other side's banes.")
    defender: Literal["a", "b"] | None = described(None, "Tie rule 1: who defends.")
    stalemate: bool = described(False, "Tie rule 3: a stalemate is possible.")


class BoonsOdds(Record):
    """The check's dice and totals; its chance to reach the target; a group's; a contest's."""

    dice: tuple[int, ...]
    modifier: int
    target: int | None
    p_pass: Fraction | None
    party: int | None
    difficulty: GroupDifficulty
    #: How the group's misses count; odds logged before the switch counted ``big-only``.
    failures: GroupFailures = "big-only"
    p_group: Fraction | None
    contest: BoonsContestOdds | None
    distribution: tuple[tuple[int, Fraction], ...]

    def to_data(self) -> dict[str, Any]:
        """The CLI contract's JSON."""
        data: dict[str, Any] = {"dice": list(self.dice), "modifier": self.modifier}
        if self.p_pass is not None:
            data |= {"target": self.target, "p_pass": fraction_text(self.p_pass),
                     "p_pass_float": float(self.p_pass)}  # fmt: skip
        if self.p_group is not None:
            data["group"] = {"party": self.party, "difficulty": self.difficulty,
                             "failures": self.failures,
                             "p_pass": fraction_text(self.p_group)}  # fmt: skip
        if self.contest is not None:
            data["contest"] = {
                key: fraction_text(getattr(self.contest, key))
                for key in ("p_a", "p_b", "p_stalemate", "p_tie_roll")
            }
        data["distribution"] = probability_rows(self.distribution, "total")
        return data


@action("odds.boons", BoonsOddsRequest, reads=True)
def odds_boons(request: BoonsOddsRequest, table: Table) -> Played[BoonsOdds]:
    """The exact chance a 3d8 check reaches its target (003 > Standard Checks), a contest's
    (003 > Contests) or a group challenge's (003 > Group Challenges)."""
    check = declare_check(
        request.bonus, request.boons, request.banes, method=request.method,
        passive=request.passive, fields=("bonus", "boons", "banes"),
    )  # fmt: skip
    if request.target is None and request.against_bonus is None:
        raise InputError("target", "no target and no opponent", expected="{target} T")
    p_pass = p_group = contest = None
    if request.target is not None:
        p_pass = pass_probability(check, request.target, field="target")
        if request.party is not None:
            successes_required(request.difficulty, request.party)  # the party's size, first
            members = [(check, request.target)] * request.party
            p_group = group_challenge_odds(members, request.difficulty, request.failures)
    if request.against_bonus is not None:
        other = declare_check(
            request.against_bonus, request.against_boons, request.against_banes,
            method=request.method, fields=("against_bonus", "against_boons", "against_banes"),
        )  # fmt: skip
        contest = contest_odds(
            check, other, defender=request.defender, stalemate_possible=request.stalemate
        )
    result = BoonsOdds(
        dice=check.dice, modifier=check.modifier, target=request.target, p_pass=p_pass,
        party=request.party, difficulty=request.difficulty, failures=request.failures,
        p_group=p_group, contest=contest,
        distribution=tuple(check_total(check).items()),
    )  # fmt: skip
    return Played(result, (Event(kind="odds.boons"),))


class LabcatsOddsRequest(Request):
    """A pool (``d8,d6``) and its resources against a target total or an opposing pool."""

    pool: str | tuple[int | str, ...] = described(text="The main pool.", form="d8,d6,...")
    resources: str | tuple[int | str, ...] = described("", "The side pool.", form="d6,...")
    add: int = described(0, "Plot Points adding more main dice.")
    #: A total to reach: 0 up to far past any pool's highest (two d12, resources, additions).
    target: int | None = described(None, "Total to reach.", ge=0, le=1000)
    against: str | tuple[int | str, ...] | None = described(
        None, "An opposing pool to beat instead of a target.", form="d8,d6,..."
    )
    against_resources: str | tuple[int | str, ...] = described(
        "", "Its resource dice.", form="d6,..."
    )


@action("odds.labcats", LabcatsOddsRequest, reads=True)
def odds_labcats(request: LabcatsOddsRequest, table: Table) -> Played[LabcatsOdds]:
    """The exact chance a pool reaches a target total, or beats an opposing pool's total
    (004 > Rolling the Dice; RULINGS.md "odds": a tie does not beat it)."""
    pool = parse_pool(request.pool, field="pool")
    resources = parse_pool(request.resources, field="resources", allow_empty=True)
    check_roll(pool, resources, request.add, fields=("pool", "resources", "add"))
    opposing = None
    if request.against:
        opposing = (
            parse_pool(request.against, field="against"),
            parse_pool(request.against_resources, field="against_resources", allow_empty=True),
        )
        check_roll(*opposing, fields=("against", "against_resources", "add"))
    elif request.target is None:
        raise InputError("target", "no target or opposing pool", expected="{target} T")
    result = labcats_odds(pool, request.target, resources, add=request.add, opposing=opposing)
    return Played(result, (Event(kind="odds.labcats"),))


class CheatsheetRequest(Request):
    """The sheet's size and thresholds; ``exact`` fractions or floats (for pictures)."""

    max_pool: int = 40
    max_cl: int = 20
    win_on: Literal["3", "4", "5", "all"] = "all"
    exact: bool = True


class Cheatsheet(Record):
    """P(pass) by threshold: row ``pool - 1``, column ``CL``, exact or as floats."""

    exact: dict[int, tuple[tuple[Fraction, ...], ...]] | None = None
    floats: dict[int, tuple[tuple[float, ...], ...]] | None = None


@action("cheatsheet.cogent", CheatsheetRequest, reads=True)
def odds_cheatsheet(request: CheatsheetRequest, table: Table) -> Played[Cheatsheet]:
    """P(pass) for pools 1..max_pool against CL 0..max_cl (000 > Narrator Declares the CL)."""
    thresholds = (3, 4, 5) if request.win_on == "all" else (int(request.win_on),)
    if request.exact:
        sheet = cheatsheet(request.max_pool, request.max_cl, thresholds)
        exact = {win_on: tuple(map(tuple, rows)) for win_on, rows in sheet.items()}
        result = Cheatsheet(exact=exact)
    else:
        floats = cheatsheet_floats(request.max_pool, request.max_cl, thresholds)
        result = Cheatsheet(floats={win_on: tuple(map(tuple, rows.tolist()))
                                    for win_on, rows in floats.items()})  # fmt: skip
    return Played(result, (Event(kind="cheatsheet.cogent"),))
