"""The server's metrics, in the Prometheus exposition format at ``GET /metrics``.

Off by default: ``/metrics`` answers 404 unless ``TALETABLE_METRICS_ALLOW`` lists the
addresses or networks that may read it (``127.0.0.1``, ``10.0.0.0/8``; ``*``: anyone), and
403 to any other address (the client's address as the server sees it: a trusted proxy's
``X-Forwarded-For`` counts, :mod:`.settings`). It takes no seat, is never rate-limited, and
says nothing secret: counts by action name, status and limit only.

=======================================  ======================================================
series                                   what
=======================================  ======================================================
``taletable_actions_total``              actions taken, by ``action`` (the registry's name;
                                         ``other`` for a name it does not have) and
                                         ``outcome``: ``taken`` (logged), ``read`` (answered,
                                         no event), ``refused`` (a 4xx), ``failed`` (a 5xx)
``taletable_action_seconds``             a histogram: from the request's arrival to its
                                         event's commit, for each action taken
``taletable_open_streams``               event streams open now
``taletable_streams_dropped_total``      streams ended because their client read too slowly
                                         (a queue of :data:`.notify.QUEUE` events behind)
``taletable_events_fanned_out_total``    events handed to open streams (an event handed to
                                         8 streams counts 8)
``taletable_http_errors_total``          answers of 400 and up, by ``status`` (503: the
                                         database busy or away, or the worker draining)
``taletable_database_errors_total``      requests answered 503 because the database was
                                         unreachable or busy
``taletable_export_bytes_total``         bytes of tables' exports sent
``taletable_rate_limit_refusals_total``  429s, by ``limit``: the field named (``authorization``:
                                         a seat's or an address's requests, or its streams;
                                         ``tables``; ``code``: wrong codes)
=======================================  ======================================================

With several workers (``serve --workers N``) ``serve`` gives them a folder of their own for
prometheus-client's multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``, made empty at start, or
the operator's), so whichever worker answers ``/metrics`` sums them all (its ``open_streams``
the live workers' only). With one worker, the process's own series (``process_*``) are there too.

Cheap on the hot path: an action adds two counter increments and one histogram observation
(a few microseconds, against milliseconds of CPU an action takes; ``benchmarks/bench_server.py``).
"""

from __future__ import annotations

import ipaddress
import os
import time
from contextvars import ContextVar
from functools import cache

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

__all__ = [
    "ACTIONS",
    "ACTION_SECONDS",
    "DATABASE_FAILURES",
    "EVENTS_FANNED_OUT",
    "EXPORT_BYTES",
    "HTTP_ERRORS",
    "MULTIPROCESS_DIR",
    "OPEN_STREAMS",
    "RATE_LIMIT_REFUSALS",
    "REQUEST_STARTED",
    "STREAMS_DROPPED",
    "MetricsAccess",
    "action_label",
    "exposition",
    "since_request",
    "worker_stopped",
]

#: The variable naming prometheus-client's folder for several processes.
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"

#: When the request being served arrived (``time.perf_counter``; 0 outside a request): set by
#: the access log (:mod:`.access`), read when an action commits.
REQUEST_STARTED: ContextVar[float] = ContextVar("taletable_request_started", default=0.0)

ACTIONS = Counter(
    "taletable_actions", "Actions asked of the server, by name and outcome.", ["action", "outcome"]
)
ACTION_SECONDS = Histogram(
    "taletable_action_seconds",
    "Seconds from an action's request arriving to its event's commit.",
    buckets=(0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
OPEN_STREAMS = Gauge(
    "taletable_open_streams", "Event streams open now.", multiprocess_mode="livesum"
)
STREAMS_DROPPED = Counter(
    "taletable_streams_dropped", "Event streams ended because their client read too slowly."
)
EVENTS_FANNED_OUT = Counter(
    "taletable_events_fanned_out", "Events handed to open streams (one per event and stream)."
)
HTTP_ERRORS = Counter(
    "taletable_http_errors", "Answers with a status of 400 or more, by status.", ["status"]
)
DATABASE_FAILURES = Counter(
    "taletable_database_errors", "Requests answered 503: the database unreachable or busy."
)
EXPORT_BYTES = Counter("taletable_export_bytes", "Bytes of tables' exports sent.")
RATE_LIMIT_REFUSALS = Counter(
    "taletable_rate_limit_refusals", "Requests refused 429, by the limit's field.", ["limit"]
)


@cache
def _action_names() -> frozenset[str]:
    from taletable.play import all_actions

    return frozenset(all_actions())


def action_label(action: str) -> str:
    """``action`` as a label: a name of the registry, else ``other`` (a client's made-up names
    never become series of their own)."""
    return action if action in _action_names() else "other"


def since_request(started: float) -> float:
    """Seconds since the request being served arrived (else since ``started``)."""
    return time.perf_counter() - (REQUEST_STARTED.get() or started)


def exposition() -> tuple[bytes, str]:
    """The metrics' text and its content type: this process's, or (in multiprocess mode) every
    worker's summed."""
    path = os.environ.get(MULTIPROCESS_DIR)
    if not path:
        return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=path)  # type: ignore[no-untyped-call]
    return generate_latest(registry), CONTENT_TYPE_LATEST


def worker_stopped() -> None:
    """In multiprocess mode, forget this worker's live gauges (its open streams) as it stops."""
    path = os.environ.get(MULTIPROCESS_DIR)
    if path:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid(), path)  # type: ignore[no-untyped-call]


class MetricsAccess:
    """Who may read ``/metrics``: the networks of ``TALETABLE_METRICS_ALLOW`` (none: off)."""

    def __init__(self, allowed: tuple[str, ...] = ()) -> None:
        self.on = bool(allowed)
        self.anyone = allowed == ("*",)
        self.networks = [] if self.anyone else [ipaddress.ip_network(n) for n in allowed]

    def allows(self, host: str | None) -> bool:
        """Whether a client at ``host`` may read the metrics."""
        if self.anyone:
            return True
        try:
            address = ipaddress.ip_address(host or "")
        except ValueError:
            return False
        return any(address in network for network in self.networks)
