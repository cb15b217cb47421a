"""The live table's configuration: every ``TALETABLE_*`` variable the server reads, in one typed
:class:`Settings`, read once where the server starts (``taletable serve``, and each worker's
:func:`taletable.server.app.app_from_environment`) and handed down from there.

=================================  ==========================  ==================================
variable                           default                     what
=================================  ==========================  ==================================
``TALETABLE_DATABASE_URL``         ``sqlite:///taletable.db``  the database (``--database`` wins)
``TALETABLE_MAX_BODY``             ``262144`` (256 KiB)        the largest request body, bytes
``TALETABLE_MAX_IMPORT``           ``1073741824`` (1 GiB)      the largest export imported, bytes
``TALETABLE_RATE_LIMIT``           ``20,60``                   requests a second per seat, burst
``TALETABLE_TABLE_LIMIT``          ``30,600``                  tables an hour per address, and
                                                               in all (:mod:`.limits`)
``TALETABLE_SQLITE_BUSY_SECONDS``  ``30``                      how long a SQLite write waits for
                                                               the lock before answering 503
``TALETABLE_OPENTELEMETRY``        ``off``                     ``on``: FastAPI's OpenTelemetry
                                                               traces, metrics and logs, sent
                                                               by OTLP where ``OTEL_*`` say
``TALETABLE_DRAIN_SECONDS``        ``3``                       on SIGTERM, how long a worker
                                                               answers not ready (and refuses
                                                               changes) before it stops
``TALETABLE_LOG_FORMAT``           ``text``                    ``json``: the log as JSON lines
                                                               (``serve --log-format`` wins)
``TALETABLE_METRICS_ALLOW``        (none: ``/metrics`` is off)  the addresses and networks that
                                                               may read ``/metrics``
                                                               (:mod:`.metrics`)
``TALETABLE_TRUSTED_PROXIES``      (none)                      the proxies whose
                                                               ``X-Forwarded-For`` and
                                                               ``-Proto`` are believed
``TALETABLE_ROOT_PATH``            (none: the site's root)     the sub-path a proxy serves the
                                                               site under, e.g. ``/games``
=================================  ==========================  ==================================

A variable set to nothing counts as unset. A bad value is one :class:`~taletable.errors.InputError`
naming the variable, what it must be and an example (``taletable serve``: one line, exit 2),
never a traceback from deep in the server. So is a ``TALETABLE_*`` variable that is no
setting (a typo would otherwise leave its setting at the default, silently): the error names
the nearest known name. Known, and never stopping the server, are the settings above and
:data:`OTHER_VARIABLES`, what the rest of taletable reads (the CLI's, and the tests', CI's
and benchmarks' own, an allow-list; ``tests/server/test_settings.py`` finds every name the
project mentions in it).
"""

from __future__ import annotations

import difflib
import ipaddress
import math
import os
import re
from collections.abc import Collection, Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from taletable.errors import InputError

__all__ = [
    "DEFAULT_DATABASE_URL",
    "OTHER_VARIABLES",
    "PREFIX",
    "RateLimit",
    "Settings",
    "TableLimit",
    "known_variables",
    "unknown_variable",
]

#: Every variable's name starts so.
PREFIX = "TALETABLE_"
DEFAULT_DATABASE_URL = "sqlite:///taletable.db"
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+]*://")
_ROOT_PATH = re.compile(r"(/[A-Za-z0-9._~-]+)+")

#: ``TALETABLE_*`` variables that are not the server's settings but are read elsewhere: known
#: names, so setting them never stops the server. Each with who reads it.
OTHER_VARIABLES: Mapping[str, str] = {
    "TALETABLE_HOUSE_RULES": "the CLI's folder of house-rule tables (cli/main.py)",
    "TALETABLE_ENCOUNTER_KEY": "the CLI's key sealing encounter files (cli/keys.py)",
    "TALETABLE_TRACEBACK": "1: an unexpected error of the CLI ends in its traceback",
    # the tests', CI's and benchmarks' own (an allow-list: a test environment runs the server)
    "TALETABLE_TEST_DATABASE_URL": "the tests' PostgreSQL server (tests/server/conftest.py)",
    "TALETABLE_REQUIRE_BROWSER": "1: the browser tests fail without Chromium (.ci/run)",
    "TALETABLE_CHROMIUM": "the browser tests' Chromium (tests/browser/conftest.py)",
    "TALETABLE_BENCH_DATABASE_URL": "the benchmarks' PostgreSQL server (benchmarks/)",
    "TALETABLE_BENCH_ONLY": "sqlite or postgresql: the one database the benchmark measures",
}


class RateLimit(BaseModel):
    """Requests a second a seat may make (``rate``) and how many at once (``burst``)."""

    model_config = ConfigDict(frozen=True)

    rate: float = 20.0
    burst: int = 60


def _rate_limit(text: Any) -> Any:
    """``RATE,BURST`` or ``RATE`` (a burst of three seconds' worth) as a :class:`RateLimit`."""
    if not isinstance(text, str):
        return text
    rate_text, _, burst_text = text.strip().partition(",")
    try:
        rate = float(rate_text)
        burst = int(burst_text) if burst_text.strip() else max(1, int(rate * 3))
    except ValueError:
        raise ValueError("not RATE,BURST") from None
    if not (math.isfinite(rate) and rate > 0 and burst >= 1):
        raise ValueError("not RATE,BURST")
    return RateLimit(rate=rate, burst=burst)


class TableLimit(BaseModel):
    """Tables an hour that one client address may make (``per_address``) and all together
    (``overall``)."""

    model_config = ConfigDict(frozen=True)

    per_address: int = 30
    overall: int = 600


def _addresses(text: Any) -> Any:
    """``ADDRESS,NETWORK,...`` (IPv4 or IPv6, a network in CIDR form; ``*``: any) as a tuple of
    their normal spellings; empty: none."""
    if not isinstance(text, str):
        return text
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if parts == ["*"]:
        return ("*",)
    try:
        return tuple(str(ipaddress.ip_network(part, strict=False)) for part in parts)
    except ValueError:
        raise ValueError("not a list of addresses") from None


def _root_path(value: str) -> str:
    """``/games``-like: a path of its own segments, no slash at the end; ``/`` or empty: none."""
    path = value.strip().rstrip("/")
    if path and not _ROOT_PATH.fullmatch(path):
        raise ValueError("not a root path")
    return path


def _table_limit(text: Any) -> Any:
    """``PER_ADDRESS,OVERALL`` (tables an hour, whole numbers from 1) as a :class:`TableLimit`."""
    if not isinstance(text, str):
        return text
    address_text, comma, overall_text = text.strip().partition(",")
    try:
        per_address, overall = int(address_text), int(overall_text)
    except ValueError:
        raise ValueError("not PER_ADDRESS,OVERALL") from None
    if not comma or not (1 <= per_address <= 1_000_000 and 1 <= overall <= 1_000_000):
        raise ValueError("not PER_ADDRESS,OVERALL")
    return TableLimit(per_address=per_address, overall=overall)


class Settings(BaseSettings):
    """The server's settings, from the environment (:meth:`from_environment`)."""

    model_config = SettingsConfigDict(env_prefix=PREFIX, env_ignore_empty=True, frozen=True)

    database_url: str = Field(
        DEFAULT_DATABASE_URL,
        description="an SQLAlchemy database URL",
        examples=["sqlite:///taletable.db", "postgresql+psycopg://user@host/db"],
    )
    max_body: int = Field(
        256 * 1024,
        ge=1024,
        le=100 * 1024 * 1024,
        description="a whole number of bytes from 1024 to 104857600",
        examples=["262144"],
    )
    max_import: int = Field(
        1 << 30,
        ge=1 << 20,
        le=16 << 30,
        description="a whole number of bytes from 1048576 to 17179869184 (an export imported "
        "is streamed to disk, never held whole)",
        examples=["1073741824"],
    )
    rate_limit: Annotated[RateLimit, NoDecode] = Field(
        RateLimit(),
        description="RATE,BURST: requests a second per seat (a number above 0), then how many "
        "at once (a whole number, 1 or more)",
        examples=["20,60"],
    )
    table_limit: Annotated[TableLimit, NoDecode] = Field(
        TableLimit(),
        description="PER_ADDRESS,OVERALL: tables an hour one client address may make, then all "
        "of them together (whole numbers from 1 to 1000000)",
        examples=["30,600"],
    )

    sqlite_busy_seconds: float = Field(
        30.0,
        gt=0,
        le=3600,
        allow_inf_nan=False,
        description="a number of seconds above 0 and at most 3600",
        examples=["30"],
    )

    opentelemetry: bool = Field(
        False,
        description="on or off: FastAPI's own OpenTelemetry traces, metrics and logs, sent by "
        "OTLP over HTTP where the standard OTEL_* variables say (needs taletable[opentelemetry])",
        examples=["on"],
    )

    drain_seconds: float = Field(
        3.0,
        ge=0,
        le=60,
        allow_inf_nan=False,
        description="a number of seconds from 0 to 60: after SIGTERM, how long a worker answers "
        "/readyz 503 (so a load balancer stops sending it traffic) before it stops listening",
        examples=["3"],
    )

    log_format: Literal["text", "json"] = Field(
        "text",
        description="text or json: the log's lines as plain text with timestamps, or as one "
        "JSON object a line",
        examples=["json"],
    )

    metrics_allow: Annotated[tuple[str, ...], NoDecode] = Field(
        (),
        description="addresses or networks, comma-separated, that may read /metrics (none: "
        "/metrics answers 404)",
        examples=["127.0.0.1,10.0.0.0/8"],
    )

    trusted_proxies: Annotated[tuple[str, ...], NoDecode] = Field(
        (),
        description="addresses or networks, comma-separated, of the proxies whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed (none: no forwarded header is)",
        examples=["127.0.0.1"],
    )

    root_path: str = Field(
        "",
        description="a path like /games: the sub-path the proxy in front serves the site under "
        "(the proxy strips it from what it passes on)",
        examples=["/games"],
    )

    @field_validator("metrics_allow", "trusted_proxies", mode="before")
    @classmethod
    def _parse_addresses(cls, value: Any) -> Any:
        return _addresses(value)

    @field_validator("root_path")
    @classmethod
    def _is_a_root_path(cls, value: str) -> str:
        return _root_path(value)

    @field_validator("database_url")
    @classmethod
    def _is_a_url(cls, value: str) -> str:
        if not _URL.match(value.strip()):
            raise ValueError("not a database URL")
        return value.strip()

    @field_validator("rate_limit", mode="before")
    @classmethod
    def _parse_rate(cls, value: Any) -> Any:
        return _rate_limit(value)

    @field_validator("table_limit", mode="before")
    @classmethod
    def _parse_table_limit(cls, value: Any) -> Any:
        return _table_limit(value)

    @classmethod
    def from_environment(cls, overridden: Collection[str] = ()) -> Settings:
        """The settings the environment gives; a bad value is one InputError naming its
        variable, the rule and an example (the first bad one; the others are named too).
        ``overridden`` names settings a command's option gives instead (``serve --database``):
        their variables are not read, and they keep their defaults here. A ``TALETABLE_*``
        variable that is no setting is an InputError too (:func:`unknown_variable`)."""
        unknown = unknown_variable(os.environ)
        if unknown is not None:
            raise unknown
        try:
            return cls(**{name: cls.model_fields[name].default for name in overridden})
        except ValidationError as error:
            raise _one_line(error) from None


def known_variables() -> list[str]:
    """Every ``TALETABLE_*`` name taletable reads: the settings', then the others'."""
    settings = [f"{PREFIX}{name.upper()}" for name in Settings.model_fields]
    return [*settings, *OTHER_VARIABLES]


def unknown_variable(environment: Mapping[str, str]) -> InputError | None:
    """The error for the first ``TALETABLE_*`` variable of ``environment`` that is no known
    name (any case, as the settings are read), naming the nearest known name; None if all are
    known."""
    known = known_variables()
    unknown = sorted(
        name
        for name in environment
        if name.upper().startswith(PREFIX) and name.upper() not in known
    )
    if not unknown:
        return None
    first = unknown[0]
    tails = {name.removeprefix(PREFIX): name for name in known}
    nearest = difflib.get_close_matches(first.upper().removeprefix(PREFIX), tails, n=1)
    if nearest:
        hint = f"did you mean {tails[nearest[0]]}?"
    else:
        settings = ", ".join(known[: len(Settings.model_fields)])
        hint = f"unset it (its settings: {settings})"
    also = f" (also not settings: {', '.join(unknown[1:])})" if unknown[1:] else ""
    return InputError(first, f"not a setting of taletable serve{also}; {hint}")


def _one_line(error: ValidationError) -> InputError:
    """A validation error of the settings as one InputError on its first variable."""
    problems = [problem for problem in error.errors() if problem["loc"]]
    fields = [str(problem["loc"][0]) for problem in problems]
    first = fields[0] if fields else "settings"
    given = problems[0]["input"] if problems else ""
    variable = f"{PREFIX}{first.upper()}"
    info = Settings.model_fields.get(first)
    rule = info.description if info and info.description else "valid"
    example = f"{variable}={info.examples[0]}" if info and info.examples else ""
    others = sorted({f"{PREFIX}{name.upper()}" for name in fields} - {variable})
    also = f" (also wrong: {', '.join(others)})" if others else ""
    return InputError(
        variable,
        f"{given!r} is not {rule}{also}",
        expected=f"e.g. {example}, or unset it for the default" if example else "",
    )
