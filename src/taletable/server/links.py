"""The one way the server makes a link to itself: :func:`link` (and ``{{ root() }}`` in the
templates), so the whole site works under a sub-path (``TALETABLE_ROOT_PATH``, e.g. ``/games``,
given to uvicorn as its ``root_path``; the proxy in front strips it from what it passes on).

Every page's link, form, stream, static file, redirect and cookie path starts with the root
path of the request being served (ASGI's ``root_path``, kept in :data:`ROOT_PATH` by the access
log's middleware for the request, its threads included); at the site's root it is "". The
pages' scripts build no path of their own: they read them from the page (``data-url``,
``sse-connect``, ``hx-*``), which carries the root.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

__all__ = ["ROOT_PATH", "link", "root", "route_path"]

#: The root path of the request being served ("" at the site's root, or outside a request).
ROOT_PATH: ContextVar[str] = ContextVar("taletable_root_path", default="")


def root() -> str:
    """The root path of the request being served: ``{{ root() }}/t/...`` in a template."""
    return ROOT_PATH.get()


def link(path: str) -> str:
    """``path`` (absolute, from the site's root: ``/t/ID``) as the browser must ask for it."""
    return f"{ROOT_PATH.get()}{path}"


def route_path(request: Any) -> str:
    """The request's path without the root path (what the app's routes match)."""
    path: str = request.url.path
    prefix = request.scope.get("root_path", "")
    return path[len(prefix) :] if prefix and path.startswith(prefix) else path
