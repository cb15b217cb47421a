"""ASGI middleware: the security headers on every answer the application makes.

* ``Content-Security-Policy``: scripts, styles, images and connections from this server only,
  no inline script or style (the pages have none: their scripts are ``static/*.js``, and htmx
  is told by a ``<meta name="htmx-config">`` not to add its own ``<style>``), no plugins, forms
  posted only here, and never shown in a frame (``frame-ancestors 'none'``);
* ``X-Frame-Options: DENY`` (the same, for browsers that do not read the policy's frame rule);
* ``X-Content-Type-Options: nosniff``;
* ``Referrer-Policy: same-origin``: the narrator's link holds the seat's token and the join
  link the join code in their query strings, so a browser must never send a page's address
  to another site; ``same-origin`` keeps it for the server's own requests (``no-referrer``
  would also make a browser send ``Origin: null`` on a form's POST, which the CSRF check of
  :mod:`.cookies` reads).

Starlette answers an unexpected exception (a bug's 500) from its outermost layer, outside
every middleware the application adds, so that answer takes the headers from
:func:`security_headers` itself (:mod:`.errors`).

The API's own documentation pages (``/docs``, ``/redoc``) load FastAPI's viewer from its CDN
with an inline script, so they get a policy that allows those and still forbids frames.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CONTENT_SECURITY_POLICY", "SecurityHeaders", "security_headers"]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: FastAPI's Swagger UI and ReDoc: their CDN, their inline start-up script.
DOCS_POLICY = (
    "default-src 'self' https://cdn.jsdelivr.net; script-src 'self' 'unsafe-inline' "
    "https://cdn.jsdelivr.net; style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
    "https://fonts.googleapis.com; font-src https://fonts.gstatic.com; img-src 'self' data: "
    "https://fastapi.tiangolo.com https://cdn.redoc.ly; worker-src blob:; object-src 'none'; "
    "frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")

_COMMON = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


def _headers(path: str | None) -> list[tuple[bytes, bytes]]:
    return _DOCS_HEADERS if path in DOCS_PATHS else _PAGE_HEADERS


_PAGE_HEADERS = [(b"content-security-policy", CONTENT_SECURITY_POLICY.encode()), *_COMMON]
_DOCS_HEADERS = [(b"content-security-policy", DOCS_POLICY.encode()), *_COMMON]


def security_headers(path: str | None) -> dict[str, str]:
    """The security headers of an answer to ``path``, by name."""
    return {name.decode(): value.decode() for name, value in _headers(path)}


class SecurityHeaders:
    """Adds the security headers to every HTTP answer (those it already has are kept)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = _headers(scope.get("path"))

        async def send_with_headers(message: Any) -> None:
            if message["type"] != "http.response.start":
                await send(message)  # a body's part: as it is
                return
            headers = list(message.get("headers") or [])
            present = {name.lower() for name, _value in headers}
            headers += [(name, value) for name, value in added if name not in present]
            await send({**message, "headers": headers})

        await self.app(scope, receive, send_with_headers)
