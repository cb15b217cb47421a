"""Group challenges: the whole party tests its skills together (003 > Group Challenges).

Each member rolls a check against the secret difficulty the Game Master set for their skill.
A check that reaches its target is one success; one that beats it by more than 5 is two
successes; one that misses by more than 5 is two failures, and so a closer miss is one failure;
by default each failure takes a success away (``failures``, RULINGS.md "group challenge
failures", says the other readings). Rerolls (from abilities) are allowed until the outcome is
fixed; then it is final. The successes required for a party of N are in the group challenge
difficulty table, rounded up.
"""

from __future__ import annotations

from math import ceil
from typing import Any, Literal

from pydantic import Field

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.names import fold
from taletable.systems.boons.checks import BoonsCheck, CheckResult, roll_check

__all__ = [
    "MAX_PARTY",
    "GroupChallenge",
    "GroupDifficulty",
    "GroupFailures",
    "check_successes",
    "group_advice",
    "start_group_challenge",
    "successes_for_margin",
    "successes_required",
]

SOURCE = "003 > Group Challenges"
#: The largest party a group challenge takes (DESIGN > Principles 8).
MAX_PARTY = 50
#: Beating (or missing) the target by more than this counts double.
WIDE_MARGIN = 5

GroupDifficulty = Literal["easy", "moderate", "challenging", "formidable", "impossible"]
#: How a missed check counts (RULINGS.md "group challenge failures"): ``offset`` (a miss is one
#: failure, a miss by more than 5 two, each taking a success away), ``none`` (failures take
#: nothing away) or ``big-only`` (only a miss by more than 5 counts, as two failures).
GroupFailures = Literal["offset", "none", "big-only"]
#: What a miss (within 5, by more than 5) adds to the group under each reading.
MISS_COUNTS: dict[str, tuple[int, int]] = {"offset": (-1, -2), "none": (0, 0), "big-only": (0, -2)}


def successes_required(difficulty: GroupDifficulty, party: int) -> int:
    """Successes a party of ``party`` needs (003 > Group Challenge Difficulty Table, rounded up).

    Easy N/2 - 1, Moderate N/2, Challenging N - 1, Formidable N, Impossible N + 1; never
    fewer than 0.
    """
    if not 1 <= party <= MAX_PARTY:
        raise InputError("party", f"a party of {party}", expected=f"1 to {MAX_PARTY} characters")
    half = ceil(party / 2)
    required = {
        "easy": half - 1,
        "moderate": half,
        "challenging": party - 1,
        "formidable": party,
        "impossible": party + 1,
    }
    if difficulty not in required:
        raise InputError("difficulty", f"{difficulty!r}", expected=", ".join(required))
    return max(0, required[difficulty])


def successes_for_margin(margin: int, failures: GroupFailures = "offset") -> int:
    """What a check's margin adds to the group (003 > Group Challenges).

    "each check which surpassed its target Difficulty Rating counts as one success, a roll
    which exceeds the target by more than 5 counts as 2 successes, a roll which is more than 5
    below the target counts as two failures". Reaching the target (margin 0) is a success, as
    it is for a single check (RULINGS.md "success at the target"). A miss counts as
    ``failures`` says (RULINGS.md "group challenge failures"): by default -1 within 5 and -2
    beyond.
    """
    if margin > WIDE_MARGIN:
        return 2
    if margin >= 0:
        return 1
    if failures not in MISS_COUNTS:
        raise InputError("failures", f"{failures!r}", expected=", ".join(MISS_COUNTS))
    near, wide = MISS_COUNTS[failures]
    return wide if margin < -WIDE_MARGIN else near


def check_successes(result: CheckResult, failures: GroupFailures = "offset") -> int:
    """What one rolled check adds to the group (003 > Group Challenges)."""
    if result.margin is None:
        raise InputError("target", "the check has no target", expected="a secret target per member")
    return successes_for_margin(result.margin, failures)


class Member(Record):
    """One party member's declared check, secret target and (where named) the skill tested."""

    name: str
    check: BoonsCheck
    target: int
    skill: str | None = None


def group_advice(members: tuple[Member, ...]) -> tuple[Note, ...]:
    """003's advice to the Gamemaster where it applies (003 > Group Challenges): "the
    difficulty threshold should be the same for all players for the same Skill (before
    situational modifiers)", said for each skill (names compared folded) tested against
    different targets; and where a member's roll has boons, that abilities such as spells
    "must be declared before the initial roll is made". Advice only: nothing is refused."""
    by_skill: dict[str, list[Member]] = {}
    for member in members:
        if member.skill and fold(member.skill):
            by_skill.setdefault(fold(member.skill), []).append(member)
    advice = []
    for same in by_skill.values():
        targets = sorted({member.target for member in same})
        if len(targets) > 1:
            advice.append(note(
                "boons.group.same_difficulty", SOURCE, skill=same[0].skill,
                members=" and ".join(member.name for member in same),
                targets=" and ".join(map(str, targets)),
            ))  # fmt: skip
    if any(member.check.boons for member in members):
        advice.append(note("boons.group.declared_first", SOURCE))
    return tuple(advice)


class GroupChallenge(Record):
    """A group challenge in progress: each member's latest roll, until the outcome is fixed."""

    difficulty: GroupDifficulty
    members: tuple[Member, ...]
    results: tuple[CheckResult, ...]
    #: How misses count; a result logged before the switch counted the ``big-only`` way.
    failures: GroupFailures = "big-only"
    rerolls: tuple[str, ...] = ()
    fixed: bool = False
    #: The situation it was run in, which a live table binds (RULINGS.md "let it ride").
    situation: str | None = None
    #: 003's advice where it applies (:func:`group_advice`) and, once fixed, its finality.
    advice: tuple[Note, ...] = ()
    successes: int = 0
    required: int = Field(default=0, ge=0)
    passed: bool | None = None

    def to_data(self) -> dict[str, Any]:
        """The record as JSON data; what issue 37 added (a member's ``skill``, the
        ``situation``, the ``advice``) only where given, so a challenge logged before replays
        to the same data."""
        data = super().to_data()
        for key in ("situation", "advice"):
            if not data.get(key):
                data.pop(key, None)
        for member in data["members"]:
            if member.get("skill") is None:
                member.pop("skill", None)
        return data

    def counts(self) -> tuple[int, ...]:
        """What each member's current roll adds to the group, in the members' order, as the
        switch ``failures`` counts it (003 > Group Challenges; RULINGS.md)."""
        return tuple(check_successes(result, self.failures) for result in self.results)

    def tally(self) -> int:
        """The group's successes from the current rolls."""
        return sum(self.counts())

    def reroll(self, name: str, source: DiceSource) -> GroupChallenge:
        """A member's ability forces a reroll, allowed until the outcome is fixed."""
        if self.fixed:
            raise RulesError(SOURCE, "the outcome is fixed and final", fix="start a new challenge")
        names = [member.name for member in self.members]
        if name not in names:
            raise InputError("rerolls", f"no member named {name!r}", expected=", ".join(names))
        index = names.index(name)
        member = self.members[index]
        results = list(self.results)
        results[index] = roll_check(member.check, member.target, source)
        return self.model_copy(update={"results": tuple(results), "rerolls": (*self.rerolls, name)})

    def fix(self) -> GroupChallenge:
        """Fix the outcome: count the successes and compare them with the table."""
        if self.fixed:
            raise RulesError(SOURCE, "the outcome is already fixed", fix="start a new challenge")
        required = successes_required(self.difficulty, len(self.members))
        successes = self.tally()
        final = (note("boons.group.final", SOURCE),) if _advised(self) else ()
        return self.model_copy(
            update={
                "advice": (*self.advice, *final),
                "fixed": True,
                "successes": successes,
                "required": required,
                "passed": successes >= required,
            }
        )


def _advised(challenge: GroupChallenge) -> bool:
    """Whether 003's advice is said: for a challenge that names its situation or a member's
    skill (RULINGS.md "a group challenge is final"; a challenge asked as before issue 37 is
    played, and replayed, as it was)."""
    return challenge.situation is not None or any(member.skill for member in challenge.members)


def start_group_challenge(
    difficulty: GroupDifficulty,
    members: list[tuple[str, BoonsCheck, int]],
    source: DiceSource,
    failures: GroupFailures = "offset",
    *,
    skills: dict[str, str] | None = None,
    situation: str | None = None,
) -> GroupChallenge:
    """Every member rolls their check against their secret target (003 > Group Challenges);
    misses will count as ``failures`` says (RULINGS.md "group challenge failures"). ``skills``
    names the skill each member tests (by member), for 003's advice (:func:`group_advice`)."""
    successes_required(difficulty, max(1, len(members)))
    successes_for_margin(-1, failures)  # the reading, checked before any die is rolled
    if not members:
        raise InputError("members", "no members", expected="one {members} per party member")
    names = [name for name, _, _ in members]
    if len(set(names)) != len(names):
        raise InputError("members", "two members share a name", expected="distinct names")
    skills = skills or {}
    built = tuple(Member(name=name, check=check, target=target, skill=skills.get(name))
                  for name, check, target in members)  # fmt: skip
    results = tuple(roll_check(member.check, member.target, source) for member in built)
    challenge = GroupChallenge(difficulty=difficulty, members=built, results=results,
                               failures=failures, situation=situation)  # fmt: skip
    if _advised(challenge):
        challenge = challenge.model_copy(update={"advice": group_advice(built)})
    return challenge
