"""A tiny reverse proxy for the tests: serves a sub-path (``/games``) of its own address and
passes each request on to a server with that prefix stripped, as Caddy's ``handle_path`` or
nginx's ``proxy_pass http://upstream/;`` do, adding ``X-Forwarded-For`` and ``-Proto``.

One request per client connection (it asks the server to close, then closes), its answer
passed on as it arrives, so an event stream streams. A path outside the prefix is 404."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

__all__ = ["prefix_proxy"]


async def _pass_on(prefix: str, upstream: int, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter) -> None:  # fmt: skip
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        first, *lines = head.decode("latin-1").split("\r\n")
        method, target, version = first.split(" ")
        if target != prefix and not target.startswith(prefix + "/"):
            writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            return
        headers = [line for line in lines if line and not line.lower().startswith(
            ("connection:", "x-forwarded-"))]  # fmt: skip
        length = next((int(h.split(":", 1)[1]) for h in headers
                       if h.lower().startswith("content-length:")), 0)  # fmt: skip
        body = await reader.readexactly(length) if length else b""
        client = writer.get_extra_info("peername")[0]
        forwarded = [f"X-Forwarded-For: {client}", "X-Forwarded-Proto: http", "Connection: close"]
        sent = [f"{method} {target[len(prefix):] or '/'} {version}", *headers, *forwarded]
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", upstream)
        up_writer.write(("\r\n".join(sent) + "\r\n\r\n").encode("latin-1") + body)
        await up_writer.drain()
        while chunk := await up_reader.read(65536):
            writer.write(chunk)
            await writer.drain()
        up_writer.close()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        with contextlib.suppress(ConnectionError):
            writer.close()


@contextlib.contextmanager
def prefix_proxy(prefix: str, upstream: int) -> Iterator[str]:
    """Serve ``prefix`` on a free port of 127.0.0.1 from the server at port ``upstream``;
    yields the proxy's URL of the prefix (``http://127.0.0.1:PORT/games``)."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    port: list[int] = []

    async def serve() -> asyncio.Server:
        server = await asyncio.start_server(
            lambda r, w: _pass_on(prefix, upstream, r, w), "127.0.0.1", 0
        )
        port.append(server.sockets[0].getsockname()[1])
        return server

    def run() -> None:
        asyncio.set_event_loop(loop)
        server = loop.run_until_complete(serve())
        started.set()
        loop.run_forever()
        server.close()
        pending = asyncio.all_tasks(loop)  # connections still open (a stream): ended
        for task in pending:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    started.wait(10)
    try:
        yield f"http://127.0.0.1:{port[0]}{prefix}"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
