"""Open leaderboards on the push server (public/push.py), for bench/national.py: COUNT
connections to PATH, each an open page's stream, noting when each new version's region
reaches it. Written to OUT as JSON: per page, when it was connected and [[version,
time.monotonic(), the push server's clock sent with the region (ms since the epoch),
time.time()], ...]; the connections' times to the first byte, and what went wrong.

The pages take the stream compressed, as browsers do (the server sends every page the
same bytes, a tenth of the region's), and only look for each region's id (its
versions), found with a plain search rather than a regular expression tried at every
byte, so the clients' own CPU stays small beside the server's on a shared machine: a
client that cannot keep up reads each region late, and the figures would be its own.

    python bench/push_readers.py HOST PORT PATH COUNT SECONDS OUT
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import zlib

REGION = b"\n\nevent: region\nid: "  # follows the server's clock: "event: time\ndata: MS"
CLOCK = b"event: time\ndata: "
SPREAD = 5.0  # seconds over which the pages open, as a crowd does


def regions(data: bytes) -> tuple[list[tuple[int, int | None]], int]:
    """Each region's standings version in `data`, with the server's clock sent before
    it, and where the text not read yet starts (a region whose id is cut short)."""
    found, at = [], 0
    while (start := data.find(REGION, at)) >= 0:
        begin = start + len(REGION)
        end = data.find(b".", begin)
        if end < 0:
            return found, start
        clock = data.rfind(CLOCK, max(0, start - 40), start)
        sent = int(data[clock + len(CLOCK) : start]) if clock >= 0 else None
        found.append((int(data[begin:end]), sent))
        at = end
    return found, max(0, len(data) - len(REGION) - 40)


class Chunks:
    """The body of an answer sent in chunks (HTTP/1.1's chunked transfer coding), from
    the bytes as they come: what each call completes."""

    def __init__(self) -> None:
        self.buffer = b""

    def body(self, data: bytes) -> bytes:
        self.buffer += data
        out, at = [], 0
        while (line := self.buffer.find(b"\r\n", at)) >= 0:
            size = int(self.buffer[at:line].split(b";", 1)[0], 16)
            end = line + 2 + size
            if len(self.buffer) < end + 2:
                break
            out.append(self.buffer[line + 2 : end])
            at = end + 2
        self.buffer = self.buffer[at:]
        return b"".join(out)


async def page(host: str, port: int, path: str, until: float, found: dict) -> None:
    shown: list[tuple[int, float, int | None, float]] = []
    opened: dict = {"connected": None, "shown": shown}
    found["pages"].append(opened)
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=2**20)
    except OSError as error:
        found["errors"].append(f"connect: {error}")
        return
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
        "Accept-Encoding: gzip\r\nAccept-Language: en\r\n\r\n"
    )
    writer.write(request.encode())
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        status = int(head.split(b" ", 2)[1])
        if status != 200:
            found["errors"].append(f"status {status}")
            return
        opened["connected"] = time.monotonic()
        found["connect"].append(opened["connected"] - started)
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)  # the body, one gzip stream
        if b"content-encoding: gzip" not in head.lower():
            inflate = None
        chunks = Chunks() if b"transfer-encoding: chunked" in head.lower() else None
        tail = b""
        while (left := until - time.monotonic()) > 0:
            try:
                chunk = await asyncio.wait_for(reader.read(2**16), left)
            except TimeoutError:
                break
            if not chunk:
                found["errors"].append("closed by the server")
                break
            now, wall = time.monotonic(), time.time()
            if chunks is not None:
                chunk = chunks.body(chunk)
            data = tail + (inflate.decompress(chunk) if inflate else chunk)
            ids, rest = regions(data)
            for version, sent in ids:
                if not shown or version > shown[-1][0]:
                    shown.append((version, now, sent, wall))
            tail = data[rest:]
    except (OSError, asyncio.IncompleteReadError, TimeoutError, zlib.error) as error:
        found["errors"].append(f"read: {error!r}")
    finally:
        writer.close()


async def main(host: str, port: int, path: str, count: int, seconds: float, out: str) -> None:
    until = time.monotonic() + seconds
    found: dict = {"pages": [], "connect": [], "errors": []}
    tasks = []
    for _ in range(count):
        tasks.append(asyncio.create_task(page(host, port, path, until, found)))
        await asyncio.sleep(SPREAD / count)
    await asyncio.gather(*tasks)
    with open(out, "w") as file:
        json.dump(found, file)


if __name__ == "__main__":
    host, port, path, count, seconds, out = sys.argv[1:7]
    asyncio.run(main(host, int(port), path, int(count), float(seconds), out))
