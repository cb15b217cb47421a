"""Any sequence of commands, legal or not, keeps an encounter sound (hypothesis)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.dice import SeededDice
from taletable.errors import TaletableError
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.combat import (
    Declaration,
    Encounter,
    choose,
    declare,
    resolve,
    start_encounter,
)
from taletable.systems.cogent.combat.aftermath import pending
from taletable.systems.cogent.combat.replay import replay
from taletable.systems.cogent.combat.rounds import expected_next
from taletable.systems.cogent.combat.state import ACTIONS, CONDITIONS

HALE = load_statblock("examples/statblocks/sample_swordsman.yaml").as_character()
YSOLDE = load_statblock("examples/statblocks/sample_spearwoman.yaml").as_character()
THUG = load_statblock("examples/statblocks/thug.yaml").as_character()
IDS = ("hale", "ysolde", "thug", "archer", "nobody")
#: Placeholders resolved against the encounter, so legal commands are common, not rare.
NEXT, FOE, PENDING = "<next>", "<foe>", -1
OUTCOMES = (
    None,
    "minor injury",
    "medium injury",
    "serious injury",
    "fatal injury",
    "deathblow",
    "stagger",
    "close combat",
    "disarm",
    "trip",
    "knockout",
    "dismember",
    "tea party",
)


def start() -> Encounter:
    return start_encounter(
        [
            ("hale", "guard", HALE, "Sword"),
            ("ysolde", "mercs", YSOLDE, "Spear"),
            ("thug", "mercs", THUG, "Club"),
            ("archer", "guard", YSOLDE, "Short Bow"),
        ],
        SeededDice(7),
        secondary={"hale": "Dagger"},
    )


declarations = st.builds(
    lambda actor, action, target, pool, against, prepared, extra: (
        "declare",
        Declaration(
            actor=actor,
            action=action,
            target=target,
            pool=pool,
            against=against,
            prepared=prepared,
            **extra,
        ),
    ),
    st.sampled_from((*IDS, NEXT, NEXT, NEXT)),
    st.sampled_from((*ACTIONS, "attack", "attack", "ranged")),
    st.none() | st.sampled_from((*IDS, FOE, FOE, FOE)),
    st.none() | st.integers(0, 12),
    st.none() | st.sampled_from(IDS),
    st.booleans(),
    st.sampled_from(
        [
            {},
            {},
            {"modifiers": (("distance", -2),)},
            {"modifiers": (("a", 50), ("b", 50), ("c", 50), ("d", 50))},
            {"circumstances": ("high ground", "flank")},
            {"challenge_level": 2},
            {"challenge_level": 1, "circumstances": ("flank",)},
            {"use": "Longspear"},
            {"hardcore_range": "close"},
        ]
    ),
)
resolves = st.tuples(st.just("resolve"), st.integers(0, 10_000))
chooses = st.tuples(
    st.just("choose"),
    st.tuples(
        st.sampled_from((PENDING, PENDING, 0, 1, 2, 3, 99)),
        st.sampled_from(OUTCOMES),
        st.none() | st.integers(-1, 3),
        st.none() | st.integers(-1, 4),
    ),
)
usual = st.sampled_from(
    [
        ("declare", Declaration(actor=NEXT, action="attack", target=FOE)),
        ("declare", Declaration(actor=NEXT, action="defend")),
        ("choose", (PENDING, None, None, None)),
    ]
)
commands = st.lists(
    st.one_of(usual, usual, declarations, resolves, chooses), min_size=10, max_size=60
)


def apply(encounter: Encounter, command: tuple[str, Any]) -> Encounter:
    kind, argument = command
    if kind == "declare":
        actor = expected_next(encounter) or "nobody" if argument.actor == NEXT else argument.actor
        target = argument.target
        if target == FOE:
            side = next((f.side for f in encounter.combatants if f.id == actor), None)
            target = next((f.id for f in encounter.combatants if f.side != side), "nobody")
        return declare(encounter, argument.model_copy(update={"actor": actor, "target": target}))
    if kind == "resolve":
        return resolve(encounter, SeededDice(argument))
    victory, outcome, strength, armour = argument
    if victory == PENDING:
        victory = next((v.id for v in pending(encounter)), 0)
    return choose(encounter, victory, outcome, strength=strength, armour=armour)


def assert_sound(encounter: Encounter) -> None:
    assert Encounter.model_validate(encounter.model_dump(mode="json")) == encounter
    assert replay(encounter) == encounter  # its steps alone make it again
    for fighter in encounter.combatants:
        assert 0 <= fighter.strength_left <= max(0, fighter.sheet.attributes.STR)
        assert 0 <= fighter.armour_left <= fighter.armour_level
        assert set(fighter.conditions) <= set(CONDITIONS)
        assert all(1 <= injury.level <= 4 for injury in fighter.sheet.injuries)
    ids = [v.id for v in encounter.victories]
    assert len(ids) == len(set(ids)) and all(i < encounter.next_victory for i in ids)
    assert all(v.level >= 1 for v in encounter.victories)
    if encounter.phase == "declaration":
        assert not pending(encounter)
    declared = [d.actor for d in encounter.declarations]
    assert len(declared) == len(set(declared))


@settings(max_examples=150, deadline=None)
@given(commands)
def test_any_command_sequence_keeps_the_encounter_sound(sequence: list[Any]) -> None:
    """Legal commands keep every invariant; refused ones raise a TaletableError, change nothing."""
    encounter = start()
    for command in sequence:
        before = encounter.model_dump(mode="json")
        try:
            encounter = apply(encounter, command)
            ACCEPTED[command[0]] += 1
        except TaletableError as error:
            assert str(error)
            assert encounter.model_dump(mode="json") == before
        assert_sound(encounter)
        assert_can_progress(encounter)


def assert_can_progress(encounter: Encounter) -> None:
    """No accepted command leaves the encounter stuck: the round can always be finished."""
    if encounter.phase == "declaration":
        while (actor := expected_next(encounter)) is not None:
            encounter = declare(encounter, Declaration(actor=actor, action="wait"))
        if not encounter.declarations:
            return
        encounter = resolve(encounter, SeededDice(0))
    for victory in pending(encounter):
        encounter = choose(encounter, victory.id)
    assert encounter.phase == "declaration"


ACCEPTED: Counter[str] = Counter()


def test_the_sequences_reach_every_kind_of_legal_command() -> None:
    """The generator is not vacuous: declarations, resolves and choices were accepted."""
    test_any_command_sequence_keeps_the_encounter_sound()
    assert {"declare", "resolve", "choose"} <= {kind for kind, n in ACCEPTED.items() if n}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_policy_driven_round_always_progresses(seed: int) -> None:
    """Declaring in order, resolving and taking the default outcomes always reaches a new round."""
    encounter = start()
    source = SeededDice(seed)
    for _ in range(3):
        if len(encounter.sides()) < 2:
            break
        current = encounter.round
        for ident in encounter.declaration_order():
            me = encounter.combatant(ident)
            foe = next(f for f in encounter.combatants if f.side != me.side and f.can_act)
            encounter = declare(encounter, Declaration(actor=ident, action="attack", target=foe.id))
        encounter = resolve(encounter, source)
        for victory in pending(encounter):
            encounter = choose(encounter, victory.id)
        assert encounter.round == current + 1
        assert_sound(encounter)
