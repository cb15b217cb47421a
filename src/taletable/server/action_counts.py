"""Actions counted as they are taken or asked (:mod:`taletable.server.metrics`): by name and
outcome, and the time from the request's arrival to the commit of what an action logged."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from taletable.errors import TaletableError
from taletable.server.errors import ActionError, ApiError
from taletable.server.metrics import ACTION_SECONDS, ACTIONS, action_label, since_request

__all__ = ["counted"]

T = TypeVar("T")
#: What the client did wrong (a 4xx): the action is refused, nothing was done.
_REFUSALS = (ActionError, TaletableError)


def _outcome(error: Exception) -> str:
    """``refused`` for an error answered 4xx, else ``failed`` (a 5xx: the database, a bug)."""
    if isinstance(error, ApiError):
        return "refused" if error.status < 500 else "failed"
    return "refused" if isinstance(error, _REFUSALS) else "failed"


#: Each series of ``taletable_actions_total`` once made (``labels()`` locks and checks, each
#: time: about half the cost of a count).
_SERIES: dict[tuple[str, str], Any] = {}


def _count(action: str, outcome: str) -> None:
    series = _SERIES.get((action, outcome))
    if series is None:
        label = action_label(action)
        series = ACTIONS.labels(label, outcome)
        if label != "other":  # a made-up name is not kept
            _SERIES[(action, outcome)] = series
    series.inc()


def counted(
    outcome: Literal["taken", "read"],
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Count each call of a session's method that takes or asks an action (its first argument
    after the session): ``outcome`` when it returns (``taken`` also observes the time since the
    request arrived, its commit done), else ``refused`` or ``failed``."""

    def wrap(method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def counting(session: Any, action: str, *args: Any, **named: Any) -> T:
            started = time.perf_counter()
            try:
                result = method(session, action, *args, **named)
            except Exception as error:
                _count(action, _outcome(error))
                raise
            _count(action, outcome)
            if outcome == "taken":
                ACTION_SECONDS.observe(since_request(started))
            return result

        return counting

    return wrap
