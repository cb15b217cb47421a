"""How the server's log lines are written (``TALETABLE_LOG_FORMAT``, ``serve --log-format``).

Every line, the access log's (:mod:`.access`), the server's own and uvicorn's, goes to stderr
with its time (UTC, to the millisecond), level, logger, the worker's pid and the id of the
request it was logged in (``-`` outside one):

* ``text`` (the default): ``2025-01-02T03:04:05.678Z INFO taletable.access pid=12 rid=ab-1
  POST /api/tables/T/actions 201 2.3ms``;
* ``json``: one JSON object a line, ``{"time", "level", "logger", "pid", "request_id",
  "message"}`` and, on an access line, ``method``, ``path``, ``status`` and ``ms``; a
  traceback is in ``exc``.

:func:`log_config` is the ``logging.config.dictConfig`` document ``serve`` hands uvicorn,
which applies it in every worker (and ``serve`` in its own process).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Literal

from taletable.server.access import ACCESS_LOGGER, REQUEST_ID

__all__ = ["FORMATS", "SERVE_LOGGER", "JsonFormatter", "TextFormatter", "log_config"]

#: ``taletable serve``'s own lines (where it serves, at INFO).
SERVE_LOGGER = "taletable.serve"

LogFormat = Literal["text", "json"]
FORMATS: tuple[LogFormat, ...] = ("text", "json")


_second: list[Any] = [-1, ""]  # the last whole second written, and its text (made once)


def _when(record: logging.LogRecord) -> str:
    second = int(record.created)
    if second != _second[0]:
        _second[:] = [second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))]
    return f"{_second[1]}.{int(record.msecs):03d}Z"


def _request(record: logging.LogRecord) -> str:
    return getattr(record, "request_id", None) or REQUEST_ID.get() or "-"


class TextFormatter(logging.Formatter):
    """A plain line: time, level, logger, pid, request id, message (and any traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        line = (
            f"{_when(record)} {record.levelname} {record.name} pid={record.process} "
            f"rid={_request(record)} {record.getMessage()}"
        )
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line (module doc)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _when(record),
            "level": record.levelname,
            "logger": record.name,
            "pid": record.process,
            "request_id": _request(record),
            "message": record.getMessage(),
        }
        access = getattr(record, "access", None)
        if access is not None:
            entry.update(access)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, separators=(",", ":"))


def log_config(log_format: LogFormat) -> dict[str, Any]:
    """The logging configuration of a served worker: every logger through one handler on
    stderr in ``log_format``; the access log at INFO, the rest (taletable's, uvicorn's) at
    WARNING, uvicorn's own access log off (this one replaces it)."""
    formatter = TextFormatter if log_format == "text" else JsonFormatter
    handler = {"class": "logging.StreamHandler", "formatter": "taletable"}  # stderr
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"taletable": {"()": f"{__name__}.{formatter.__name__}"}},
        "handlers": {"stderr": handler},
        "root": {"handlers": ["stderr"], "level": "WARNING"},
        "loggers": {
            ACCESS_LOGGER: {"level": "INFO"},
            SERVE_LOGGER: {"level": "INFO"},
            "uvicorn": {"handlers": [], "propagate": True},
            "uvicorn.error": {"handlers": [], "propagate": True},
            "uvicorn.access": {"handlers": [], "propagate": False},
        },
    }
