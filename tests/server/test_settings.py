"""The server's settings (server/settings.py): read once from the environment into one typed
object; each bad variable is one line naming it, the rule and an example, never a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from taletable.errors import InputError
from taletable.server.app import app_from_environment
from taletable.server.limits import Limits
from taletable.server.settings import OTHER_VARIABLES, RateLimit, Settings, known_variables

ROOT = Path(__file__).resolve().parents[2]


def test_the_defaults_when_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset or empty variables give the documented defaults, and Limits' own defaults."""
    for name in ("DATABASE_URL", "MAX_BODY", "RATE_LIMIT", "SQLITE_BUSY_SECONDS"):
        monkeypatch.delenv(f"TALETABLE_{name}", raising=False)
    monkeypatch.setenv("TALETABLE_RATE_LIMIT", "")
    settings = Settings.from_environment()
    assert settings.database_url == "sqlite:///taletable.db"
    assert settings.sqlite_busy_seconds == 30
    assert Limits.from_settings(settings) == Limits() == Limits.from_environment()


def test_each_variable_is_read_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """RATE,BURST, RATE alone (a burst of three seconds' worth, at least 1), bytes, a URL."""
    monkeypatch.setenv("TALETABLE_DATABASE_URL", "postgresql+psycopg://u@h/db")
    monkeypatch.setenv("TALETABLE_MAX_BODY", "2048")
    monkeypatch.setenv("TALETABLE_RATE_LIMIT", "2.5,7")
    settings = Settings.from_environment()
    assert settings.database_url == "postgresql+psycopg://u@h/db"
    assert Limits.from_settings(settings) == Limits(max_body=2048, rate=2.5, burst=7)
    monkeypatch.setenv("TALETABLE_RATE_LIMIT", "5")
    assert Settings.from_environment().rate_limit == RateLimit(rate=5, burst=15)
    monkeypatch.setenv("TALETABLE_RATE_LIMIT", "0.01")
    assert Settings.from_environment().rate_limit == RateLimit(rate=0.01, burst=1)
    monkeypatch.setenv("TALETABLE_SQLITE_BUSY_SECONDS", "0.3")
    assert Settings.from_environment().sqlite_busy_seconds == 0.3
    assert Settings.from_environment().opentelemetry is False
    monkeypatch.setenv("TALETABLE_OPENTELEMETRY", "on")
    assert Settings.from_environment().opentelemetry is True


@pytest.mark.parametrize("telemetry", [False, True])
def test_fastapis_telemetry_is_looked_for_only_when_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, telemetry: bool
) -> None:
    """Off (the default), a request never asks OpenTelemetry for its providers; on, FastAPI's
    own telemetry looks for them (and sends to them once the process configures them)."""
    from fastapi.testclient import TestClient
    from opentelemetry import trace

    from taletable.server.app import create_app

    asked: list[int] = []
    provider = trace.get_tracer_provider

    def counted() -> trace.TracerProvider:
        asked.append(1)
        return provider()

    app = create_app(f"sqlite:///{tmp_path / 'otel.db'}", telemetry=telemetry)
    with TestClient(app) as client:
        monkeypatch.setattr(trace, "get_tracer_provider", counted)
        assert client.get("/api/tables/rule-options").status_code == 200
    assert bool(asked) is telemetry


def test_each_worker_gives_its_database_the_busy_timeout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``TALETABLE_SQLITE_BUSY_SECONDS`` reaches the database a worker opens."""
    monkeypatch.setenv("TALETABLE_DATABASE_URL", f"sqlite:///{tmp_path / 'busy.db'}")
    monkeypatch.setenv("TALETABLE_SQLITE_BUSY_SECONDS", "0.5")
    app = app_from_environment()
    assert app.state.world.database.busy_seconds == 0.5
    app.state.world.database.dispose()


@pytest.mark.parametrize(
    ("variable", "value", "rule"),
    [
        ("TALETABLE_RATE_LIMIT", "fast", "RATE,BURST"),
        ("TALETABLE_RATE_LIMIT", "0,5", "RATE,BURST"),
        ("TALETABLE_RATE_LIMIT", "nan", "RATE,BURST"),
        ("TALETABLE_RATE_LIMIT", "5,0", "RATE,BURST"),
        ("TALETABLE_MAX_BODY", "big", "whole number of bytes"),
        ("TALETABLE_MAX_BODY", "10", "whole number of bytes"),
        ("TALETABLE_DATABASE_URL", "taletable.db", "database URL"),
        ("TALETABLE_SQLITE_BUSY_SECONDS", "soon", "number of seconds above 0"),
        ("TALETABLE_SQLITE_BUSY_SECONDS", "0", "number of seconds above 0"),
        ("TALETABLE_SQLITE_BUSY_SECONDS", "nan", "number of seconds above 0"),
        ("TALETABLE_SQLITE_BUSY_SECONDS", "7200", "number of seconds above 0"),
        ("TALETABLE_OPENTELEMETRY", "maybe", "on or off"),
    ],
)
def test_a_bad_variable_is_one_input_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, rule: str
) -> None:
    """The message names the variable, what was given, the rule and an example to copy."""
    monkeypatch.setenv(variable, value)
    with pytest.raises(InputError) as caught:
        Settings.from_environment()
    message = str(caught.value)
    assert caught.value.field == variable and "\n" not in message
    assert repr(value) in message and rule in message and f"e.g. {variable}=" in message


def test_every_bad_variable_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two bad variables: the first is the error, the other named with it."""
    monkeypatch.setenv("TALETABLE_MAX_BODY", "x")
    monkeypatch.setenv("TALETABLE_RATE_LIMIT", "y")
    with pytest.raises(InputError, match="also wrong: TALETABLE_RATE_LIMIT"):
        Settings.from_environment()


def test_an_overridden_setting_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve --database` gives the database: a stale variable for it does not stop the server."""
    monkeypatch.setenv("TALETABLE_DATABASE_URL", "not a url")
    assert Settings.from_environment(("database_url",)).database_url == "sqlite:///taletable.db"


@pytest.mark.parametrize(
    ("variable", "value"),
    [("TALETABLE_RATE_LIMIT", "fast"), ("TALETABLE_MAX_BODY", "-1"),
     ("TALETABLE_DATABASE_URL", "nowhere"), ("TALETABLE_SQLITE_BUSY_SECONDS", "-1"),
     ("TALETABLE_OPENTELEMETRY", "maybe")],
)  # fmt: skip
def test_serve_with_a_bad_setting_exits_2_with_one_line(variable: str, value: str) -> None:
    """`TALETABLE_RATE_LIMIT=fast taletable serve` (was an uncaught ValueError): one line on
    stderr naming the variable, exit 2, no traceback, nothing served."""
    environment = {**os.environ, variable: value}
    done = subprocess.run(
        [sys.executable, "-m", "taletable.cli.main", "serve", "--port", "0"],
        env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"taletable: error: {variable}: {value!r} is not ")


@pytest.mark.parametrize(
    ("variable", "nearest"),
    [("TALETABLE_RATE_LIMT", "TALETABLE_RATE_LIMIT"), ("TALETABLE_MAXBODY", "TALETABLE_MAX_BODY"),
     ("TALETABLE_DATABASE", "TALETABLE_DATABASE_URL"), ("taletable_max_bdy", "TALETABLE_MAX_BODY"),
     ("TALETABLE_HOUSE_RULE", "TALETABLE_HOUSE_RULES"),
     ("TALETABLE_OPEN_TELEMETRY", "TALETABLE_OPENTELEMETRY")],
)  # fmt: skip
def test_a_variable_that_is_no_setting_names_the_nearest(
    monkeypatch: pytest.MonkeyPatch, variable: str, nearest: str
) -> None:
    """A typo would leave its setting at the default, silently: it is an InputError naming it
    and the nearest known name (any case, as the settings are read)."""
    monkeypatch.setenv(variable, "1,1")
    with pytest.raises(InputError) as caught:
        Settings.from_environment()
    assert caught.value.field == variable
    assert str(caught.value) == (
        f"{variable}: not a setting of taletable serve; did you mean {nearest}?"
    )


def test_a_variable_near_nothing_lists_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """No name is near: the settings are listed; a second unknown one is named too."""
    monkeypatch.setenv("TALETABLE_WIBBLE", "1")
    monkeypatch.setenv("TALETABLE_ZZZ", "1")
    with pytest.raises(InputError) as caught:
        Settings.from_environment()
    message = str(caught.value)
    assert message.startswith("TALETABLE_WIBBLE: not a setting of taletable serve (also not "
                              "settings: TALETABLE_ZZZ); unset it (its settings: ")  # fmt: skip
    assert all(f"TALETABLE_{name.upper()}" in message for name in Settings.model_fields)


def test_the_other_known_variables_never_stop_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the CLI, the tests, CI and the benchmarks read is known: set, the settings read."""
    for name in OTHER_VARIABLES:
        monkeypatch.setenv(name, "1")
    assert Settings.from_environment().max_body == 256 * 1024


def test_every_variable_the_project_mentions_is_known() -> None:
    """Every TALETABLE_* name in the code, tests, CI, tasks, benchmarks and docs is a setting
    or in OTHER_VARIABLES (this file's typos and the README's example of one aside): none of
    them stops the server."""
    files = [ROOT / name for name in ("tasks.py", "README.md", "ARCHITECTURE.md", ".ci/run")]
    for folder in ("src", "tests", "benchmarks"):
        files += [path for path in (ROOT / folder).rglob("*") if path.suffix in (".py", ".md")]
    mentioned = {
        name
        for path in files
        if path.resolve() != Path(__file__).resolve()
        for name in re.findall(r"\bTALETABLE_[A-Z][A-Z0-9_]*", path.read_text())
    }
    assert "TALETABLE_TEST_DATABASE_URL" in mentioned and "TALETABLE_MAX_BODY" in mentioned
    assert sorted(mentioned - set(known_variables()) - {"TALETABLE_RATE_LIMT"}) == []


def test_serve_with_a_variable_that_is_no_setting_exits_2_with_one_line() -> None:
    """`TALETABLE_RATE_LIMT=1,1 taletable serve`: one line naming it and the nearest known
    name, exit 2, nothing served (the tests' own variables set alongside stop nothing)."""
    environment = {**os.environ, "TALETABLE_RATE_LIMT": "1,1", "TALETABLE_REQUIRE_BROWSER": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "taletable.cli.main", "serve", "--port", "0"],
        env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "taletable: error: TALETABLE_RATE_LIMT: not a setting of taletable serve; "
        "did you mean TALETABLE_RATE_LIMIT?\n"
    )
