"""Fuzzing every leaf command of ``taletable`` (issue 13, "Done when").

Every command of the click tree (``serve`` left out: it runs until stopped) is run with
Hypothesis-generated arguments and generated hostile files, each case in a worker process
with a time and memory guard (:mod:`tests.fuzz.runner`). A case fails on a traceback or an
internal error (exit 1), a run over 10 s, a peak over 500 MB, or an error that is not one
line. Hypothesis is derandomized and bounded, so the suite stays under about 90 s; the seed
corpus (:mod:`tests.fuzz.corpus`, every case of issue 13) runs every time. The long campaign
is ``python -m tests.fuzz.campaign`` (outside CI).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.corpus import CASES
from tests.fuzz.generate import LEFT_OUT, generate_case, leaf_commands
from tests.fuzz.runner import MEMORY_LIMIT_MB, TIME_LIMIT, Worker, problems

T = TypeVar("T")
COMMANDS = leaf_commands()
#: Generated cases per command in CI (the campaign runs thousands).
EXAMPLES_PER_COMMAND = 3


class DrawChooser:
    """A generator's decisions drawn from Hypothesis (so a failure shrinks)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(list(options)))

    def chance(self, probability: float) -> bool:
        return self.data.draw(st.integers(0, 99)) < probability * 100

    def between(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    """One worker process for the module (restarted by itself after a hang)."""
    running = Worker()
    yield running
    running.close()


def _check(worker: Worker, case: dict[str, Any]) -> dict[str, Any]:
    outcome = worker.run(case)
    found = problems(outcome)
    shown = {key: outcome.get(key) for key in ("argv", "status", "stderr", "seconds", "peak_mb")}
    assert not found, f"{found}: {shown}\n{outcome.get('traceback', '')}"
    return outcome


def test_the_walk_finds_every_leaf_command() -> None:
    """The click tree's leaves are all here (a sub-group's commands too), `serve` left out."""
    assert ("serve",) not in COMMANDS and {("serve",)} == LEFT_OUT
    assert {("verify",), ("cogent", "combat", "start"), ("table", "odds"), ("roll",)} <= set(
        COMMANDS
    )
    assert len(COMMANDS) >= 50


@pytest.mark.parametrize(("label", "case"), CASES, ids=[label for label, _ in CASES])
def test_seed_corpus_case(worker: Worker, label: str, case: dict[str, Any]) -> None:
    """Each case issue 13 reported ends in a result or one clear line, within the bounds."""
    assert tuple(case["command"]) in COMMANDS, label
    outcome = _check(worker, case)
    assert outcome["status"] in (0, 2), outcome.get("stderr")
    assert outcome["seconds"] < TIME_LIMIT and outcome["peak_mb"] < MEMORY_LIMIT_MB


def test_forged_and_limit_cases_are_refused_not_obeyed(worker: Worker) -> None:
    """The corpus's refusals are refusals: past-limit work and a link loop exit 2."""
    for label, case in CASES:
        if any(word in label for word in ("add 1e", "100 x 200", "fan-out roll", "20 KB", "loop")):
            outcome = worker.run(case)
            assert outcome["status"] == 2, (label, outcome.get("stderr"))


@pytest.mark.parametrize("command", sorted(COMMANDS), ids=" ".join)
@settings(
    max_examples=EXAMPLES_PER_COMMAND,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_every_leaf_command_survives_generated_input(
    worker: Worker, command: tuple[str, ...], data: st.DataObject
) -> None:
    """Generated arguments and hostile files: no traceback, no hang, no blown memory."""
    case = generate_case(DrawChooser(data), command, COMMANDS[command])
    _check(worker, case)
